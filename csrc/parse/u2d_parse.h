/* u2d_parse.h: what the readers share (implemented in u2d_urdf.c). */
#ifndef U2D_PARSE_H
#define U2D_PARSE_H

#include "model/u2d_model.h"

/* A finding at line (0 if unknown), "prefix: msg" (prefix may be NULL). Out of memory only
 * loses the finding. */
void u2d_add_finding(u2d_urdf *u, int line, const char *prefix, const char *msg);

/* The model's, links', joints' (and mimicked joints') names copied into one block that u
 * owns (u->strings), so that the document can be freed; -1 when out of memory. */
int u2d_own_names(u2d_urdf *u);

#endif
