/* u2d_xml.c: every Mini-XML call of the project, with a shim for the 3.x / 4.x APIs.
 *
 * Values are loaded as opaque strings; the URDF reader parses numbers itself. The document
 * gets a synthetic top element so that whatever precedes <robot> (an XML declaration,
 * comments, a DOCTYPE) ends up as a sibling of <robot>, never as its parent. */
#include <mxml.h>
#include <stdio.h>
#include <string.h>
#include "u2d_xml.h"

#ifndef MXML_MAJOR_VERSION
#define MXML_MAJOR_VERSION 3
#endif

#if MXML_MAJOR_VERSION >= 4

static bool xml_error_cb(void *cbdata, const char *message)
{
    snprintf((char *)cbdata, U2D_ERRLEN, "invalid XML: %s", message);
    return false;
}

static mxml_node_t *xml_parse(mxml_node_t *top, const char *text, char err[U2D_ERRLEN])
{
    mxml_options_t *opt = mxmlOptionsNew();
    if (!opt) return NULL;
    mxmlOptionsSetErrorCallback(opt, xml_error_cb, err);
    mxmlOptionsSetTypeValue(opt, MXML_TYPE_OPAQUE);
    mxml_node_t *r = mxmlLoadString(top, opt, text);
    mxmlOptionsDelete(opt);
    return r;
}

static int xml_is_element(mxml_node_t *n) { return mxmlGetType(n) == MXML_TYPE_ELEMENT; }

#else

/* Mini-XML 3 reports errors through a per-thread callback without user data, so the
 * message travels through a thread-local buffer. */
static _Thread_local char xml_last_error[U2D_ERRLEN];

static void xml_error_cb(const char *message)
{
    snprintf(xml_last_error, sizeof xml_last_error, "invalid XML: %s", message);
}

static mxml_node_t *xml_parse(mxml_node_t *top, const char *text, char err[U2D_ERRLEN])
{
    xml_last_error[0] = '\0';
    mxmlSetErrorCallback(xml_error_cb);
    mxml_node_t *r = mxmlLoadString(top, text, MXML_OPAQUE_CALLBACK);
    mxmlSetErrorCallback(NULL);
    if (!r || xml_last_error[0])
        snprintf(err, U2D_ERRLEN, "%s", xml_last_error[0] ? xml_last_error : "invalid XML");
    return xml_last_error[0] ? NULL : r;
}

static int xml_is_element(mxml_node_t *n) { return mxmlGetType(n) == MXML_ELEMENT; }

#endif

/* Comments (<!-- -->), declarations (<?xml ?>) and directives (<!DOCTYPE>) are elements
 * whose name starts with '!' or '?' in Mini-XML 3. */
static int xml_is_real_element(mxml_node_t *n)
{
    if (!xml_is_element(n)) return 0;
    const char *name = mxmlGetElement(n);
    return name && name[0] != '!' && name[0] != '?';
}

u2d_xml *u2d_xml_load(const char *text, char err[U2D_ERRLEN])
{
    err[0] = '\0';
    /* Mini-XML 3 switches to UTF-16 when it meets the bytes FF FE or FE FF anywhere and
     * then reads two bytes at a time, past a terminating NUL that falls in a pair's high
     * byte. Neither byte occurs in UTF-8, the only encoding URDF files use: refuse them. */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p == 0xFE || *p == 0xFF) {
            snprintf(err, U2D_ERRLEN, "invalid XML: byte 0x%02X at offset %ld is not UTF-8 "
                     "(UTF-16 text is not supported)", *p, (long)(p - (const unsigned char *)text));
            return NULL;
        }
    mxml_node_t *top = mxmlNewElement(MXML_NO_PARENT, "urdf2dyn-document");
    if (!top) {
        snprintf(err, U2D_ERRLEN, "out of memory while reading XML");
        return NULL;
    }
    if (!xml_parse(top, text, err)) {
        if (!err[0]) snprintf(err, U2D_ERRLEN, "invalid XML");
        mxmlDelete(top);
        return NULL;
    }
    return (u2d_xml *)top;
}

void u2d_xml_free(u2d_xml *doc)
{
    if (doc) mxmlDelete((mxml_node_t *)doc);
}

static u2d_xml *xml_skip(mxml_node_t *n)
{
    while (n && !xml_is_real_element(n)) n = mxmlGetNextSibling(n);
    return (u2d_xml *)n;
}

u2d_xml *u2d_xml_first(u2d_xml *parent)
{
    return xml_skip(mxmlGetFirstChild((mxml_node_t *)parent));
}

u2d_xml *u2d_xml_next(u2d_xml *node)
{
    return xml_skip(mxmlGetNextSibling((mxml_node_t *)node));
}

u2d_xml *u2d_xml_child(u2d_xml *parent, const char *name)
{
    for (u2d_xml *c = u2d_xml_first(parent); c; c = u2d_xml_next(c))
        if (strcmp(u2d_xml_name(c), name) == 0) return c;
    return NULL;
}

const char *u2d_xml_name(u2d_xml *node)
{
    return mxmlGetElement((mxml_node_t *)node);
}

const char *u2d_xml_attr(u2d_xml *node, const char *name)
{
    return mxmlElementGetAttr((mxml_node_t *)node, name);
}
