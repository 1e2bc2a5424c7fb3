/* u2d_xml.h: the little of XML the model readers and the .osim writer need, behind one
 * file that talks to mxml. A Mini-XML 4.x port changes u2d_xml.c only. */
#ifndef U2D_XML_H
#define U2D_XML_H

#include "model/u2d_model.h"

typedef struct u2d_xml u2d_xml;    /* an element (or the document) */

/* Receives what is not well-formed XML but has one obvious meaning (a comment before the
 * XML declaration, an unquoted attribute value, ...): the document still loads. */
typedef void (*u2d_xml_note_fn)(void *ctx, int line, const char *message);

/* The start of the note for a bare '&' in text (read as the character): a reader may add
 * what its format's other readers make of it. */
#define U2D_XML_BARE_AMP "a bare '&' must be written &amp; in XML; read as the character '&'"

/* Parse text into a document; NULL and a message in err on failure. note (may be NULL)
 * hears about markup that is tolerated. */
u2d_xml *u2d_xml_load(const char *text, char err[U2D_ERRLEN], u2d_xml_note_fn note, void *ctx);
void u2d_xml_free(u2d_xml *doc);
/* A malloc'd copy of text with each bare '&' written '&amp;', as u2d_xml_load reads it (for
 * a strict parser to read the same text); NULL when out of memory. */
char *u2d_xml_escape_bare(const char *text);

/* First / next child that is a real element (comments, declarations and text skipped). */
u2d_xml *u2d_xml_first(u2d_xml *parent);
u2d_xml *u2d_xml_next(u2d_xml *node);
/* First child element with the given name, or NULL. */
u2d_xml *u2d_xml_child(u2d_xml *parent, const char *name);

const char *u2d_xml_name(u2d_xml *node);
const char *u2d_xml_attr(u2d_xml *node, const char *name);   /* NULL if absent */
int u2d_xml_attr_count(u2d_xml *node);
const char *u2d_xml_attr_name(u2d_xml *node, int k);        /* k < u2d_xml_attr_count */
/* The element's text (its first text child, as written, surrounding blanks included), or
 * "" when it has none. */
const char *u2d_xml_text(u2d_xml *node);
/* The line of the element's start tag in the text (1-based), or 0 if unknown. */
int u2d_xml_line(u2d_xml *node);

/* Documents put together from several files (MJCF's <include>): u2d_xml_set_file tags every
 * element of a document with the number of the file it came from (0..U2D_XML_MAXFILE),
 * which u2d_xml_file returns; u2d_xml_splice moves the child elements of doc's root element
 * before at (their lines and files kept), deletes at, and returns the first element moved
 * (at's next sibling if there was none); doc is then empty, for u2d_xml_free. */
#define U2D_XML_MAXFILE 1023
void u2d_xml_set_file(u2d_xml *doc, int file);
int u2d_xml_file(u2d_xml *node);
u2d_xml *u2d_xml_splice(u2d_xml *at, u2d_xml *doc);
/* The element's index among the document's tags in document order (-1 for an element
 * made after loading): the same text loaded again has the same element at that index. */
int u2d_xml_ordinal(u2d_xml *node);
/* The element at that index in doc, NULL if there is none (or it was deleted). */
u2d_xml *u2d_xml_at(u2d_xml *doc, int ordinal);

/* ---- editing (the .osim writer): new elements are indented like their siblings; every
 * change is logged for u2d_xml_revert ---- */

/* A new empty element <name> in parent, before `before` (NULL: after the last child). */
u2d_xml *u2d_xml_insert(u2d_xml *parent, u2d_xml *before, const char *name);
/* The element's text becomes text (its other text nodes removed). 0 or -1 (no memory). */
int u2d_xml_set_text(u2d_xml *node, const char *text);
int u2d_xml_set_attr(u2d_xml *node, const char *name, const char *value);
/* Remove the element (and the layout text before it); 0, or -1 when out of memory. */
int u2d_xml_delete(u2d_xml *node);
/* Put node inside <outer><inner>node</inner></outer>, outer taking node's place; returns
 * outer, NULL when out of memory. */
u2d_xml *u2d_xml_wrap(u2d_xml *node, const char *outer, const char *inner);
/* The document as text (malloc'd; the caller frees it), NULL and err when out of memory. */
char *u2d_xml_save(u2d_xml *doc, char err[U2D_ERRLEN]);
/* Take back every change made since loading (or the last revert): the document is again
 * the one loaded, ordinals included. -1 if a change could not be logged (out of memory):
 * the document must then be loaded again. */
int u2d_xml_revert(u2d_xml *doc);

#endif
