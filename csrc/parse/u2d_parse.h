/* u2d_parse.h: what the readers share (implemented in u2d_urdf.c). Each reader keeps its
 * own messages: these helpers say what went wrong by their return value only. */
#ifndef U2D_PARSE_H
#define U2D_PARSE_H

#include <stddef.h>
#include "model/u2d_model.h"

/* A finding at line (0 if unknown), "prefix: msg" (prefix may be NULL). Out of memory only
 * loses the finding. */
void u2d_add_finding(u2d_urdf *u, int line, const char *prefix, const char *msg);

/* The model's, links', joints' (and mimicked joints') names copied into one block that u
 * owns (u->strings), so that the document can be freed; -1 when out of memory. */
int u2d_own_names(u2d_urdf *u);

/* XML's white space. */
static inline int u2d_is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Room for element n of the array *p of size-byte elements, capacity *cap: the capacity
 * doubles (from 16) when n reaches it. -1 when out of memory (*p and *cap unchanged). */
int u2d_grow(void **p, int *cap, int n, size_t size);

/* strtod as in the C locale, whatever LC_NUMERIC the process runs under (a Qt application,
 * or Python's locale.setlocale(LC_ALL, ""), may set one whose decimal point is a comma):
 * '.' is the decimal point and a comma ends the number. */
double u2d_strtod(const char *s, char **end);

/* A number printf wrote under the process's locale, its decimal point made '.' in place. */
void u2d_c_decimal(char *text);

/* The next of a text's blank-separated numbers, from *s: 1 (the number in *x, *s past it),
 * 0 at the end of the text, -1 when what stands there is not a number, -2 when it is not
 * finite. */
int u2d_scan_number(const char **s, double *x);

/* u2d_scan_number for URDF and OpenSim text, and -3 (*s at it) for a hexadecimal number:
 * strtod reads "0x10" as 16 (as MuJoCo does), urdfdom refuses it and OpenSim reads 0. */
int u2d_scan_decimal(const char **s, double *x);

/* How a body's inertia about its centre of mass (symmetric 3x3) fails to be a rigid body's:
 * 0 when it is one, 1 when it is not positive semidefinite, 2 when its principal moments
 * break the triangle inequality; lam gets the principal moments, ascending. */
int u2d_inertia_fault(const double I[9], double lam[3]);

/* Whether xml's first element (after its declaration and comments) is named root. */
int u2d_has_root(const char *xml, const char *root);

#endif
