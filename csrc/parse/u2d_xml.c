/* u2d_xml.c: every Mini-XML call of the project, with a shim for the 3.x / 4.x APIs.
 *
 * Values are loaded as opaque strings; the URDF reader parses numbers itself. The document
 * gets a synthetic top element so that whatever precedes <robot> (an XML declaration,
 * comments, a DOCTYPE) ends up as a sibling of <robot>, never as its parent. */
#include <mxml.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse/u2d_xml.h"

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
static int xml_is_opaque(mxml_node_t *n) { return mxmlGetType(n) == MXML_TYPE_OPAQUE; }

/* A node made from one '<...>' of the text. */
static int xml_is_tag(mxml_node_t *n)
{
    mxml_type_t t = mxmlGetType(n);
    return t == MXML_TYPE_ELEMENT || t == MXML_TYPE_COMMENT || t == MXML_TYPE_DECLARATION ||
           t == MXML_TYPE_DIRECTIVE || t == MXML_TYPE_CDATA;
}

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
static int xml_is_opaque(mxml_node_t *n) { return mxmlGetType(n) == MXML_OPAQUE; }

/* Mini-XML 3 makes comments, declarations, directives and CDATA elements too. */
static int xml_is_tag(mxml_node_t *n) { return xml_is_element(n); }

#endif

/* ---- where each tag starts ----------------------------------------------------------
 * Mini-XML keeps no line numbers, so the text is scanned once beforehand: every start
 * tag, comment, declaration, directive and CDATA section becomes one node, in document
 * order, and a preorder walk of the tree meets the nodes in that same order. If the two
 * counts disagree (markup the scan reads differently), lines stay unknown rather than
 * wrong. The scan also reports the markup Mini-XML tolerates but XML forbids. */

typedef struct {
    int *line;                  /* (n) line of the k-th tag */
    int n, cap, failed;
    u2d_xml_note_fn note;
    void *ctx;
} tag_scan;

static void scan_push(tag_scan *sc, int line)
{
    if (sc->failed) return;
    if (sc->n == sc->cap) {
        int cap = sc->cap ? 2 * sc->cap : 256;
        int *grown = realloc(sc->line, sizeof(int) * (size_t)cap);
        if (!grown) { sc->failed = 1; return; }
        sc->line = grown;
        sc->cap = cap;
    }
    sc->line[sc->n++] = line;
}

static void scan_note(tag_scan *sc, int line, const char *fmt, const char *arg, int len)
{
    char msg[U2D_ERRLEN];
    if (!sc->note) return;
    snprintf(msg, sizeof msg, fmt, len, arg);
    sc->note(sc->ctx, line, msg);
}

/* Past the next `marker` (or at the end of the text), counting lines. */
static const char *skip_past(const char *p, const char *marker, int *line)
{
    size_t len = strlen(marker);
    for (; *p; p++) {
        if (strncmp(p, marker, len) == 0) return p + len;
        if (*p == '\n') ++*line;
    }
    return p;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void scan_tags(const char *text, tag_scan *sc)
{
    int line = 1, depth = 0, noted_text = 0, subset = 0;  /* subset: in <!DOCTYPE x [...]> */
    const char *p = text, *start = text;
    if (strncmp(p, "\xEF\xBB\xBF", 3) == 0) start = p += 3;     /* UTF-8 byte order mark */
    while (*p) {
        if (*p != '<') {
            if (*p == '\n') line++;
            else if (subset && (*p == ']' || *p == '>')) subset = *p != '>';
            else if (depth == 0 && !is_space(*p) && !noted_text) {
                scan_note(sc, line, "text outside the root element is not XML%.*s; ignored", "",
                          0);
                noted_text = 1;
            }
            p++;
            continue;
        }
        int at = line;
        if (strncmp(p, "<!--", 4) == 0) {
            scan_push(sc, at);
            p = skip_past(p + 4, "-->", &line);
        } else if (strncmp(p, "<![CDATA[", 9) == 0) {
            scan_push(sc, at);
            p = skip_past(p + 9, "]]>", &line);
        } else if (p[1] == '?') {
            scan_push(sc, at);
            if (strncmp(p, "<?xml", 5) == 0 && (is_space(p[5]) || p[5] == '?') && p != start)
                scan_note(sc, at, "the XML declaration <?xml ...?> must be the very first text "
                          "of the file (XML 1.0, section 2.8)%.*s; read anyway", "", 0);
            p = skip_past(p + 2, "?>", &line);
        } else if (p[1] == '!') {                   /* a directive; Mini-XML ends it at the
                                                       first '>', even inside its [subset] */
            const char *from = p;
            scan_push(sc, at);
            p = skip_past(p + 2, ">", &line);
            const char *open = memchr(from, '[', (size_t)(p - from));
            subset |= open && !memchr(open, ']', (size_t)(p - open));
        } else if (p[1] == '/') {
            depth--;
            p = skip_past(p + 2, ">", &line);
        } else {                                        /* a start tag and its attributes */
            scan_push(sc, at);
            for (p++; *p && !is_space(*p) && *p != '>' && *p != '/'; p++) {}
            for (;;) {
                for (; is_space(*p); p++)
                    if (*p == '\n') line++;
                if (!*p) return;
                if (*p == '>') { depth++; p++; break; }
                if (*p == '/' && p[1] == '>') { p += 2; break; }
                const char *name = p;
                for (; *p && !is_space(*p) && *p != '=' && *p != '>' && *p != '/'; p++) {}
                int nlen = (int)(p - name);
                for (; is_space(*p); p++)
                    if (*p == '\n') line++;
                if (*p != '=') { if (nlen == 0) p++; continue; }
                for (p++; is_space(*p); p++)
                    if (*p == '\n') line++;
                if (*p == '"' || *p == '\'') {
                    char quote = *p++;
                    int lt = 0, vline = line;
                    for (; *p && *p != quote; p++) {
                        if (*p == '\n') line++;
                        lt |= *p == '<';
                    }
                    if (lt)
                        scan_note(sc, vline, "attribute '%.*s': a '<' in a value must be written "
                                  "&lt; in XML; read as written", name, nlen);
                    if (*p) p++;
                } else {
                    scan_note(sc, line, "attribute '%.*s': the value is not in quotes (XML "
                              "requires name=\"value\"); read up to the next space", name, nlen);
                    for (; *p && !is_space(*p) && *p != '>'; p++) {}
                }
            }
        }
    }
}

/* ---- a bare '&' -------------------------------------------------------------------
 * XML wants '&amp;' for the character, but exported models carry it bare in text ("Smith,
 * C. R., & Thelen, D. G." in OpenSim-JAM's credits). Mini-XML refuses the whole file: the
 * text is copied with each bare '&' made '&amp;' (the character kept, as the author meant
 * it), and the first few are noted. Comments, CDATA and declarations keep theirs; a
 * directive's are escaped without a note (XML allows them in its literals, "R&D.dtd", but
 * Mini-XML decodes references there). */

enum { BARE_NOTED = 3 };        /* notes for the first few; one summary for the rest */

/* Whether p (just past an '&') continues a reference: "&name;", "&#38;" or "&#x26;". */
static int is_reference(const char *p)
{
    const char *q = p;
    if (*q == '#') q++;
    for (; (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9');
         q++) {}
    return q > p + (*p == '#') && *q == ';';
}

/* Past the comment, CDATA section, declaration or directive that starts at p (p itself when
 * none does), counting lines; *directive tells whether it was a directive (<!DOCTYPE ...>). */
static const char *skip_markup(const char *p, int *line, int *directive)
{
    static const struct { const char *open, *close; } raw[] = {
        {"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}, {"<!", ">"}};
    enum { DIRECTIVE = 3 };
    for (size_t k = 0; k < sizeof raw / sizeof raw[0]; k++) {
        size_t len = strlen(raw[k].open);
        if (strncmp(p, raw[k].open, len) == 0) {
            *directive = k == DIRECTIVE;
            return skip_past(p + len, raw[k].close, line);
        }
    }
    return p;
}

/* Writes '&amp;' for a bare '&' at p, else the byte, when *out is not NULL; 1 for a bare. */
static int copy_escaped(const char *p, char **out)
{
    int bare = *p == '&' && !is_reference(p + 1);
    if (*out && bare) { memcpy(*out, "&amp;", 5); *out += 5; }
    else if (*out) *(*out)++ = *p;
    return bare;
}

/* Where the pass stands within a start or end tag: comments, CDATA and declarations exist
 * only outside tags, so a '<!--' in a quoted attribute value (a '<' there is not XML, but
 * Mini-XML and OpenSim read it as written) is text. Quotes open a value only after '=', as
 * in scan_tags. */
typedef struct {
    int in_tag, after_equals;
    char quote;                 /* the open value's quote, or 0 */
} tag_state;

static void follow_tag(tag_state *t, char c)
{
    if (t->quote) {
        if (c == t->quote) t->quote = 0;
        return;
    }
    if ((c == '"' || c == '\'') && t->after_equals) t->quote = c;
    else if (c == '>') t->in_tag = 0;
    if (c == '=') t->after_equals = 1;
    else if (!is_space(c)) t->after_equals = 0;
}

/* The number of bare '&' in text (noting the first few with their lines and summing up the
 * rest when notes is not NULL); with out not NULL, the text with each of them written
 * '&amp;' (out has room for it). */
static size_t bare_ampersands(const char *text, char *out, tag_scan *notes)
{
    size_t count = 0, in_text = 0;
    int line = 1, first_unnoted = 0, last = 0, directive = 0;
    tag_state tag = {0, 0, 0};
    for (const char *p = text; *p;) {
        const char *end = *p == '<' && !tag.in_tag ? skip_markup(p, &line, &directive) : p;
        if (end != p) {
            for (; p < end; p++)
                if (directive) count += (size_t)copy_escaped(p, &out);
                else if (out) *out++ = *p;
            continue;
        }
        if (tag.in_tag) follow_tag(&tag, *p);
        else if (*p == '<') tag = (tag_state){1, 0, 0};
        if (copy_escaped(p, &out)) {
            count++;
            last = line;
            if (notes && ++in_text <= BARE_NOTED)
                scan_note(notes, line, U2D_XML_BARE_AMP "%.*s", "", 0);
            else if (in_text == BARE_NOTED + 1) first_unnoted = line;
        }
        line += *p == '\n';
        p++;
    }
    if (notes && in_text > BARE_NOTED) {
        char more[96];
        snprintf(more, sizeof more, "%zu more bare '&' read as the character, the last on "
                 "line %d", in_text - BARE_NOTED, last);
        if (notes->note) notes->note(notes->ctx, first_unnoted, more);
    }
    if (out) *out = '\0';
    return count;
}

char *u2d_xml_escape_bare(const char *text)
{
    size_t bare = strchr(text, '&') ? bare_ampersands(text, NULL, NULL) : 0;
    char *out = malloc(strlen(text) + 4 * bare + 1);
    if (!out) return NULL;
    if (bare) bare_ampersands(text, out, NULL);
    else strcpy(out, text);
    return out;
}

/* ---- each tag's place: its line and its preorder index ------------------------------
 * The document (the synthetic top element) owns one table with an entry per tag node in
 * preorder; each node's user data points at its entry. The index (ordinal) names an
 * element across two loads of the same text: the .osim writer finds again the elements the
 * reader met. */

typedef struct {
    int line;                   /* 0: unknown                                             */
    int ordinal;
    int file;                   /* the file it came from (u2d_xml_set_file), 0 by default */
    mxml_node_t *node;
} tag_entry;

/* One change the writer made, so that u2d_xml_revert can take it back. */
typedef struct {
    int kind;                   /* CHANGE_TEXT, CHANGE_ADDED, CHANGE_MOVED                 */
    mxml_node_t *node;
    mxml_node_t *parent, *prev; /* MOVED: where it was (prev NULL: the first child)       */
    char *text;                 /* TEXT: the text it had                                  */
} xml_change;

enum { CHANGE_TEXT, CHANGE_ADDED, CHANGE_MOVED };

typedef struct tag_table {
    struct tag_table *adopted;  /* the tables of documents spliced into this one          */
    xml_change *log;            /* (nlog) the changes since the last revert, in order     */
    int nlog, caplog, failed;
    int n;
    tag_entry entry[];          /* (n) in preorder */
} tag_table;

static int index_tags(mxml_node_t *top, const tag_scan *sc)
{
    int k = 0;
    for (mxml_node_t *n = mxmlWalkNext(top, top, MXML_DESCEND); n;
         n = mxmlWalkNext(n, top, MXML_DESCEND))
        k += xml_is_tag(n);
    tag_table *t = malloc(sizeof *t + sizeof(tag_entry) * (size_t)(k ? k : 1));
    if (!t) return -1;
    t->adopted = NULL;
    t->log = NULL;
    t->nlog = t->caplog = t->failed = 0;
    t->n = k;
    int lines = !sc->failed && k == sc->n;
    k = 0;
    for (mxml_node_t *n = mxmlWalkNext(top, top, MXML_DESCEND); n;
         n = mxmlWalkNext(n, top, MXML_DESCEND))
        if (xml_is_tag(n)) {
            t->entry[k] = (tag_entry){lines ? sc->line[k] : 0, k, 0, n};
            mxmlSetUserData(n, &t->entry[k]);
            k++;
        }
    mxmlSetUserData(top, t);
    return 0;
}

/* Comments (<!-- -->), declarations (<?xml ?>) and directives (<!DOCTYPE>) are elements
 * whose name starts with '!' or '?' in Mini-XML 3. */
static int xml_is_real_element(mxml_node_t *n)
{
    if (!xml_is_element(n)) return 0;
    const char *name = mxmlGetElement(n);
    return name && name[0] != '!' && name[0] != '?';
}

u2d_xml *u2d_xml_load(const char *text, char err[U2D_ERRLEN], u2d_xml_note_fn note, void *ctx)
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
    tag_scan sc = {NULL, 0, 0, 0, note, ctx};
    size_t bare = strchr(text, '&') ? bare_ampersands(text, NULL, &sc) : 0;  /* most: none */
    char *escaped = bare ? malloc(strlen(text) + 4 * bare + 1) : NULL;
    if (bare && !escaped) {
        snprintf(err, U2D_ERRLEN, "out of memory while reading XML");
        mxmlDelete(top);
        return NULL;
    }
    if (escaped) bare_ampersands(text, escaped, NULL);
    int parsed = xml_parse(top, escaped ? escaped : text, err) != NULL;
    free(escaped);
    if (!parsed) {
        if (!err[0]) snprintf(err, U2D_ERRLEN, "invalid XML");
        mxmlDelete(top);
        return NULL;
    }
    scan_tags(text, &sc);
    int failed = index_tags(top, &sc);
    free(sc.line);
    if (failed) {
        snprintf(err, U2D_ERRLEN, "out of memory while reading XML");
        mxmlDelete(top);
        return NULL;
    }
    return (u2d_xml *)top;
}

void u2d_xml_free(u2d_xml *doc)
{
    if (!doc) return;
    for (tag_table *t = mxmlGetUserData((mxml_node_t *)doc), *next; t; t = next) {
        next = t->adopted;
        for (int k = 0; k < t->nlog; k++) free(t->log[k].text);
        free(t->log);
        free(t);
    }
    mxmlDelete((mxml_node_t *)doc);
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

int u2d_xml_attr_count(u2d_xml *node)
{
    return mxmlElementGetAttrCount((mxml_node_t *)node);
}

const char *u2d_xml_attr_name(u2d_xml *node, int k)
{
    const char *name = NULL;
    mxmlElementGetAttrByIndex((mxml_node_t *)node, k, &name);
    return name ? name : "";
}

static void show_subtree(mxml_node_t *n, int shown);

/* The node's entry; nodes made after loading have none. */
static const tag_entry *entry_of(u2d_xml *node)
{
    mxml_node_t *n = (mxml_node_t *)node;
    return mxmlGetParent(n) ? mxmlGetUserData(n) : NULL;
}

int u2d_xml_line(u2d_xml *node)
{
    const tag_entry *e = entry_of(node);
    return e ? e->line : 0;
}

int u2d_xml_ordinal(u2d_xml *node)
{
    const tag_entry *e = node ? entry_of(node) : NULL;
    return e ? e->ordinal : -1;
}

u2d_xml *u2d_xml_at(u2d_xml *doc, int ordinal)
{
    const tag_table *t = mxmlGetUserData((mxml_node_t *)doc);
    if (!t || ordinal < 0 || ordinal >= t->n) return NULL;
    mxml_node_t *n = t->entry[ordinal].node;
    return n && xml_is_real_element(n) ? (u2d_xml *)n : NULL;
}

int u2d_xml_file(u2d_xml *node)
{
    const tag_entry *e = entry_of(node);
    return e ? e->file : 0;
}

void u2d_xml_set_file(u2d_xml *doc, int file)
{
    tag_table *t = mxmlGetUserData((mxml_node_t *)doc);
    for (int k = 0; t && k < t->n; k++)
        t->entry[k].file = file < 0 ? 0 : file > U2D_XML_MAXFILE ? U2D_XML_MAXFILE : file;
}

u2d_xml *u2d_xml_splice(u2d_xml *at, u2d_xml *doc)
{
    mxml_node_t *node = (mxml_node_t *)at, *first = NULL, *top = node;
    mxml_node_t *parent = mxmlGetParent(node), *root = (mxml_node_t *)u2d_xml_first(doc);
    for (mxml_node_t *c = root ? (mxml_node_t *)u2d_xml_first((u2d_xml *)root) : NULL, *next;
         c; c = next) {
        next = (mxml_node_t *)u2d_xml_next((u2d_xml *)c);
        mxmlRemove(c);
        mxmlAdd(parent, MXML_ADD_BEFORE, node, c);
        if (!first) first = c;
    }
    /* the moved nodes keep their entries: the receiving document adopts doc's table */
    while (mxmlGetParent(top)) top = mxmlGetParent(top);
    tag_table *t = mxmlGetUserData(top), *moved = mxmlGetUserData((mxml_node_t *)doc);
    if (t && moved) {
        moved->adopted = t->adopted;
        t->adopted = moved;
        mxmlSetUserData((mxml_node_t *)doc, NULL);
    }
    mxml_node_t *after = (mxml_node_t *)u2d_xml_next(at);
    show_subtree(node, 0);
    mxmlDelete(node);
    return (u2d_xml *)(first ? first : after);
}

const char *u2d_xml_text(u2d_xml *node)
{
    for (mxml_node_t *c = mxmlGetFirstChild((mxml_node_t *)node); c; c = mxmlGetNextSibling(c))
        if (xml_is_opaque(c)) {
            const char *s = mxmlGetOpaque(c);
            if (s && s[strspn(s, " \t\r\n")]) return s;
        }
    return "";
}

/* ---- editing and writing (the .osim writer) -------------------------------------------
 * New elements are indented like their siblings, so that a written file reads as the one
 * read; whitespace-only text is layout, everything else is kept as it was. Every change is
 * logged on the document (its top element's table) so that u2d_xml_revert restores the
 * document as loaded: a writer keeps one parsed document per model and writes it again and
 * again with other values. */

static tag_table *table_of(mxml_node_t *n)
{
    while (mxmlGetParent(n)) n = mxmlGetParent(n);
    return mxmlGetUserData(n);
}

static void logged(mxml_node_t *any, xml_change c)
{
    tag_table *t = table_of(any);
    if (!t) return;
    if (t->nlog == t->caplog) {
        int cap = t->caplog ? 2 * t->caplog : 64;
        xml_change *grown = realloc(t->log, sizeof *grown * (size_t)cap);
        if (!grown) {                   /* the change cannot be taken back: say so */
            t->failed = 1;
            free(c.text);
            return;
        }
        t->log = grown;
        t->caplog = cap;
    }
    t->log[t->nlog++] = c;
}

/* Attach node to parent after prev (NULL: as the first child), logging it as added. */
static void attach_new(mxml_node_t *parent, mxml_node_t *prev, mxml_node_t *node)
{
    if (prev) mxmlAdd(parent, MXML_ADD_AFTER, prev, node);
    else mxmlAdd(parent, MXML_ADD_BEFORE, MXML_ADD_TO_PARENT, node);
    logged(parent, (xml_change){CHANGE_ADDED, node, NULL, NULL, NULL});
}

/* Move node to parent after prev (NULL: first), logging where it was. */
static void move(mxml_node_t *node, mxml_node_t *parent, mxml_node_t *prev)
{
    xml_change c = {CHANGE_MOVED, node, mxmlGetParent(node), mxmlGetPrevSibling(node), NULL};
    logged(node, c);
    if (prev) mxmlAdd(parent, MXML_ADD_AFTER, prev, node);
    else mxmlAdd(parent, MXML_ADD_BEFORE, MXML_ADD_TO_PARENT, node);
}

static int is_blank_text(mxml_node_t *n)
{
    if (!xml_is_opaque(n)) return 0;
    const char *s = mxmlGetOpaque(n);
    return !s || !s[strspn(s, " \t\r\n")];
}

/* The layout text before node (the last line's indentation after a newline), or NULL. */
static const char *indent_before(mxml_node_t *node)
{
    mxml_node_t *p = node ? mxmlGetPrevSibling(node) : NULL;
    if (!p || !is_blank_text(p)) return NULL;
    const char *s = mxmlGetOpaque(p), *nl = strrchr(s, '\n');
    return nl ? nl : NULL;
}

/* The indentation of parent's element children: their own, else parent's plus a tab. */
static void child_indent(mxml_node_t *parent, char *buf, size_t len)
{
    for (mxml_node_t *c = mxmlGetFirstChild(parent); c; c = mxmlGetNextSibling(c))
        if (xml_is_element(c) && indent_before(c)) {
            snprintf(buf, len, "%s", indent_before(c));
            return;
        }
    const char *own = indent_before(parent);
    snprintf(buf, len, "%s\t", own ? own : "\n");
}

u2d_xml *u2d_xml_insert(u2d_xml *parent, u2d_xml *before, const char *name)
{
    mxml_node_t *p = (mxml_node_t *)parent, *ref = (mxml_node_t *)before;
    char indent[256];
    child_indent(p, indent, sizeof indent);
    if (!ref) {                 /* at the end, before the closing tag's layout text */
        mxml_node_t *last = mxmlGetLastChild(p);
        ref = last && is_blank_text(last) ? last : NULL;
        if (!last) {            /* an empty element: lay out its closing tag too */
            const char *own = indent_before(p);
            mxml_node_t *ws = mxmlNewOpaque(MXML_NO_PARENT, own ? own : "\n");
            if (!ws) return NULL;
            attach_new(p, NULL, ws);
            ref = ws;
        }
    } else if (indent_before(ref)) {
        ref = mxmlGetPrevSibling(ref);          /* before the reference's own layout text */
    }
    mxml_node_t *ws = mxmlNewOpaque(MXML_NO_PARENT, indent);
    mxml_node_t *e = mxmlNewElement(MXML_NO_PARENT, name);
    if (!ws || !e) {
        if (ws) mxmlDelete(ws);
        if (e) mxmlDelete(e);
        return NULL;
    }
    mxml_node_t *prev = ref ? mxmlGetPrevSibling(ref) : mxmlGetLastChild(p);
    attach_new(p, prev, ws);
    attach_new(p, ws, e);
    return (u2d_xml *)e;
}

int u2d_xml_set_text(u2d_xml *node, const char *text)
{
    mxml_node_t *e = (mxml_node_t *)node, *keep = NULL;
    for (mxml_node_t *c = mxmlGetFirstChild(e); c; c = mxmlGetNextSibling(c)) {
        if (!xml_is_opaque(c)) continue;
        const char *old = mxmlGetOpaque(c);
        char *copy = malloc(strlen(old ? old : "") + 1);
        if (!copy) return -1;
        strcpy(copy, old ? old : "");
        logged(e, (xml_change){CHANGE_TEXT, c, NULL, NULL, copy});
        if (keep) {
            if (mxmlSetOpaque(c, "")) return -1;    /* text split by comments: one piece */
        } else {
            keep = c;
        }
    }
    if (keep) return mxmlSetOpaque(keep, text) == 0 ? 0 : -1;
    mxml_node_t *t = mxmlNewOpaque(MXML_NO_PARENT, text);
    if (!t) return -1;
    attach_new(e, mxmlGetLastChild(e), t);
    return 0;
}

int u2d_xml_set_attr(u2d_xml *node, const char *name, const char *value)
{
    /* only on elements the writer made: they go as a whole when the document is reverted */
    mxmlElementSetAttr((mxml_node_t *)node, name, value);
    return mxmlElementGetAttr((mxml_node_t *)node, name) ? 0 : -1;
}

/* Show or hide the entries of n's subtree from u2d_xml_at. */
static void show_subtree(mxml_node_t *n, int shown)
{
    for (mxml_node_t *c = n; c; c = mxmlWalkNext(c, n, MXML_DESCEND)) {
        tag_entry *e = mxmlGetParent(c) ? mxmlGetUserData(c) : NULL;
        if (e) e->node = shown ? c : NULL;
    }
}

/* Where removed nodes wait for a revert: an element of the top that is not saved. */
static mxml_node_t *parking(mxml_node_t *any)
{
    mxml_node_t *top = any;
    while (mxmlGetParent(top)) top = mxmlGetParent(top);
    mxml_node_t *last = mxmlGetLastChild(top);
    if (last && xml_is_element(last) && !mxmlGetUserData(last)) return last;
    mxml_node_t *p = mxmlNewElement(MXML_NO_PARENT, "urdf2dyn-removed");
    if (p) attach_new(top, last, p);
    return p;
}

int u2d_xml_delete(u2d_xml *node)
{
    mxml_node_t *n = (mxml_node_t *)node, *prev = mxmlGetPrevSibling(n), *park = parking(n);
    if (!park) return -1;
    show_subtree(n, 0);
    if (prev && is_blank_text(prev)) move(prev, park, mxmlGetLastChild(park));
    move(n, park, mxmlGetLastChild(park));
    return 0;
}

u2d_xml *u2d_xml_wrap(u2d_xml *node, const char *outer, const char *inner)
{
    mxml_node_t *n = (mxml_node_t *)node, *p = mxmlGetParent(n);
    u2d_xml *o = u2d_xml_insert((u2d_xml *)p, node, outer);
    u2d_xml *i = o ? u2d_xml_insert(o, NULL, inner) : NULL;
    if (!i) return NULL;
    mxml_node_t *prev = mxmlGetPrevSibling(n), *park = parking(n);
    if (!park) return NULL;
    if (prev && is_blank_text(prev)) move(prev, park, mxmlGetLastChild(park));
    char indent[256];
    child_indent((mxml_node_t *)i, indent, sizeof indent);
    mxml_node_t *ws = mxmlNewOpaque(MXML_NO_PARENT, indent);
    if (!ws) return NULL;
    attach_new((mxml_node_t *)i, mxmlGetLastChild((mxml_node_t *)i), ws);
    move(n, (mxml_node_t *)i, ws);
    const char *own = indent_before((mxml_node_t *)i);
    mxml_node_t *close = mxmlNewOpaque(MXML_NO_PARENT, own ? own : "\n");
    if (!close) return NULL;
    attach_new((mxml_node_t *)i, n, close);
    return o;
}

int u2d_xml_revert(u2d_xml *doc)
{
    tag_table *t = mxmlGetUserData((mxml_node_t *)doc);
    if (!t) return 0;
    for (int k = t->nlog - 1; k >= 0; k--) {
        xml_change *c = &t->log[k];
        switch (c->kind) {
        case CHANGE_TEXT:
            mxmlSetOpaque(c->node, c->text);
            free(c->text);
            break;
        case CHANGE_ADDED:
            mxmlDelete(c->node);
            break;
        case CHANGE_MOVED:
            if (c->prev) mxmlAdd(c->parent, MXML_ADD_AFTER, c->prev, c->node);
            else mxmlAdd(c->parent, MXML_ADD_BEFORE, MXML_ADD_TO_PARENT, c->node);
            show_subtree(c->node, 1);
            break;
        }
    }
    t->nlog = 0;
    int failed = t->failed;
    t->failed = 0;
    return failed ? -1 : 0;
}

#if MXML_MAJOR_VERSION >= 4
static char *xml_save(mxml_node_t *n)
{
    mxml_options_t *opt = mxmlOptionsNew();
    if (!opt) return NULL;
    mxmlOptionsSetWrapMargin(opt, 0);
    char *s = mxmlSaveAllocString(n, opt);
    mxmlOptionsDelete(opt);
    return s;
}
#else
static char *xml_save(mxml_node_t *n)
{
    mxmlSetWrapMargin(0);
    return mxmlSaveAllocString(n, MXML_NO_CALLBACK);
}
#endif

char *u2d_xml_save(u2d_xml *doc, char err[U2D_ERRLEN])
{
    size_t len = 0, cap = 0;
    char *out = NULL;
    const tag_table *t = mxmlGetUserData((mxml_node_t *)doc);
    for (mxml_node_t *c = mxmlGetFirstChild((mxml_node_t *)doc); c; c = mxmlGetNextSibling(c)) {
        if (xml_is_opaque(c)) continue;             /* layout between the top-level nodes */
        if (!mxmlGetUserData(c) && t) continue;     /* where removed nodes wait        */
        char *s = xml_save(c);
        if (!s) goto nomem;
        size_t n = strlen(s);
        while (n > 0 && strchr(" \t\r\n", s[n - 1])) n--;
        if (len + n + 2 > cap) {
            size_t want = 2 * (len + n + 2);
            char *grown = realloc(out, want);
            if (!grown) { free(s); goto nomem; }
            out = grown;
            cap = want;
        }
        memcpy(out + len, s, n);
        len += n;
        out[len++] = '\n';
        out[len] = '\0';
        free(s);
    }
    if (!out) out = calloc(1, 1);
    if (!out) goto nomem;
    return out;
nomem:
    free(out);
    snprintf(err, U2D_ERRLEN, "out of memory while writing XML");
    return NULL;
}
