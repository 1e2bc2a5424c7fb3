/* u2d_osim_write.c: an OpenSim model written back with changed values.
 *
 * The text the model was read from is loaded again (the same text gives the same
 * elements at the same ordinals), each edit finds the element the reader recorded in
 * u->osim (u2d_osimdoc.h), sets the property OpenSim reads there, and the document is
 * saved. Everything else (muscle parameters, display, controllers, comments) stays as
 * written, and a value is written only where an edit asks. Numbers are written with the
  * fewest digits that read back to the same double. A writer keeps its document: after
  * each write the changes are taken back (u2d_xml_revert), so writing a model again and
  * again (scaling writes the same generic model three times) parses it once. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse/u2d_parse.h"
#include "parse/u2d_xml.h"

typedef struct {
    u2d_xml *doc;
    const u2d_urdf *u;
    const u2d_osim_edit *e;
    char *err;
} writer;

static const char *kind_names[U2D_EDIT_KINDS] = {
    "body mass", "body centre of mass", "body inertia", "frame translation",
    "frame orientation", "marker location", "marker removal", "new marker",
    "path point location", "moving path point scale", "path lengths", "wrap translation",
    "wrap size", "transform axis scale", "coupler scale factor", "geometry scale factors",
    "ellipsoid joint", "constant-curvature joint",
};

static int fail(writer *w, const char *fmt, ...)
{
    char msg[U2D_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(w->err, U2D_ERRLEN, "%s edit %d: %.400s", kind_names[w->e->kind], w->e->target,
             msg);
    return -1;
}

/* x with the fewest significant digits that read back exactly (as repr does). */
static void format_number(double x, char *buf, size_t len)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, x);
        u2d_c_decimal(buf);
        if (u2d_strtod(buf, NULL) == x) return;
    }
}

static void format_numbers(const double *v, int n, char *buf, size_t len)
{
    size_t at = 0;
    for (int k = 0; k < n && at < len; k++) {
        if (k) buf[at++] = ' ';
        format_number(v[k], buf + at, len - at);
        at += strlen(buf + at);
    }
    buf[at < len ? at : len - 1] = '\0';
}

/* The element the reader recorded at ordinal, which must be a <type> (any if NULL). */
static u2d_xml *element(writer *w, int ordinal, const char *type)
{
    u2d_xml *n = ordinal >= 0 ? u2d_xml_at(w->doc, ordinal) : NULL;
    if (!n) {
        fail(w, "the element was not found (was the text changed since the model was read?)");
        return NULL;
    }
    if (type && strcmp(u2d_xml_name(n), type) != 0) {
        fail(w, "found <%.100s> where <%.100s> was read: the text is not the one the model "
             "was read from", u2d_xml_name(n), type);
        return NULL;
    }
    return n;
}

/* The element at ordinal, which must be a <type> (any if NULL) named name. */
static u2d_xml *named(writer *w, int ordinal, const char *type, const char *name)
{
    u2d_xml *n = element(w, ordinal, type);
    const char *has = n ? u2d_xml_attr(n, "name") : NULL;
    if (n && (!has || strcmp(has, name) != 0)) {
        fail(w, "found '%.100s' where '%.100s' was read: the text is not the one the model was "
             "read from", has ? has : "", name);
        return NULL;
    }
    return n;
}

/* owner's child <name> gets n numbers (the child made, after the last one, if absent). */
static int set_numbers(writer *w, u2d_xml *owner, const char *name, const double *v, int n)
{
    char text[512];
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k])) return fail(w, "<%s>: %g is not a finite number", name, v[k]);
    format_numbers(v, n, text, sizeof text);
    u2d_xml *c = u2d_xml_child(owner, name);
    if (!c) c = u2d_xml_insert(owner, NULL, name);
    if (!c || u2d_xml_set_text(c, text)) return fail(w, "out of memory");
    return 0;
}

static int set_word(writer *w, u2d_xml *owner, const char *name, const char *word)
{
    u2d_xml *c = u2d_xml_insert(owner, NULL, name);
    if (!c || u2d_xml_set_text(c, word)) return fail(w, "out of memory");
    return 0;
}

static int in_range(writer *w, int n, const char *table)
{
    if (w->e->target >= 0 && w->e->target < n) return 0;
    return fail(w, "no %s %d (the model has %d)", table, w->e->target, n);
}

static int edit_body(writer *w)
{
    const u2d_urdf *u = w->u;
    const double *v = w->e->v;
    if (in_range(w, u->nlink, "link")) return -1;
    int l = w->e->target;
    u2d_xml *b = named(w, u->osim.link_node[l], l == 0 ? "Ground" : "Body", u->link[l].name);
    if (!b) return -1;
    switch (w->e->kind) {
    case U2D_EDIT_BODY_MASS:
        if (!(v[0] >= 0)) return fail(w, "mass %g: must be >= 0", v[0]);
        return set_numbers(w, b, "mass", v, 1);
    case U2D_EDIT_BODY_COM: return set_numbers(w, b, "mass_center", v, 3);
    default: break;
    }
    /* OpenSim 4 writes <inertia> (xx yy zz xy xz yz), OpenSim 3 six elements */
    static const char *names[6] = {"inertia_xx", "inertia_yy", "inertia_zz",
                                   "inertia_xy", "inertia_xz", "inertia_yz"};
    if (u2d_xml_child(b, "inertia") ||
        (!u2d_xml_child(b, names[0]) && u->osim.version >= 40000))
        return set_numbers(w, b, "inertia", v, 6);
    for (int k = 0; k < 6; k++)
        if (set_numbers(w, b, names[k], &v[k], 1)) return -1;
    return 0;
}

static int edit_frame(writer *w)
{
    static const char *props[3][2] = {{"translation", "orientation"},
                                      {"location_in_parent", "orientation_in_parent"},
                                      {"location", "orientation"}};
    const u2d_osimdoc *d = &w->u->osim;
    if (in_range(w, d->nframe, "frame")) return -1;
    const u2d_osim_frame *F = &d->frame[w->e->target];
    u2d_xml *f = F->kind == U2D_FRAME_OFFSET ? named(w, F->node, "PhysicalOffsetFrame", F->name)
                                             : element(w, F->node, NULL);
    if (!f) return -1;
    return set_numbers(w, f, props[F->kind][w->e->kind == U2D_EDIT_FRAME_ORIENTATION],
                       w->e->v, 3);
}

/* A new <Marker> at the end of the MarkerSet, in the document's layout. */
static int add_marker(writer *w)
{
    const u2d_urdf *u = w->u;
    const u2d_osim_edit *e = w->e;
    if (in_range(w, u->nlink, "link")) return -1;
    if (u->osim.link_node[e->target] < 0)
        return fail(w, "link '%.100s' is not a body of the document", u->link[e->target].name);
    if (!e->name || !e->name[0]) return fail(w, "a marker needs a name");
    const char *body = u->link[e->target].name;
    /* The marker names its body in element text, which the reader trims (u2d_is_blank),
       takes the last '/'-separated part of (OpenSim 3 files too) and reads into a 512-byte
       path: a name that would not come back is refused, not written wrong. */
    size_t len = strlen(body);
    if (!len || u2d_is_blank(body[0]) || u2d_is_blank(body[len - 1]) || strchr(body, '/') ||
        len > 500)
        return fail(w, "body '%.100s': a marker cannot name it (its name begins or ends with "
                    "white space, holds '/' or is longer than 500 characters); rename the "
                    "body", body);
    u2d_xml *set = u2d_xml_at(w->doc, u->osim.markerset);
    if (!set) {                         /* the model has no MarkerSet yet */
        u2d_xml *model = element(w, u->osim.model, "Model");
        u2d_xml *ms = model ? u2d_xml_child(model, "MarkerSet") : NULL;
        if (!model) return -1;
        if (!ms && (!(ms = u2d_xml_insert(model, NULL, "MarkerSet")) ||
                    u2d_xml_set_attr(ms, "name", "markerset")))
            return fail(w, "out of memory");
        if (!(set = u2d_xml_child(ms, "objects")) && !(set = u2d_xml_insert(ms, NULL, "objects")))
            return fail(w, "out of memory");
    }
    u2d_xml *m = u2d_xml_insert(set, NULL, "Marker");
    if (!m || u2d_xml_set_attr(m, "name", e->name)) return fail(w, "out of memory");
    char frame[600];
    if (u->osim.version >= 40000) {
        int n = snprintf(frame, sizeof frame, e->target == 0 ? "/ground" : "/bodyset/%s", body);
        if (n < 0 || (size_t)n >= sizeof frame)
            return fail(w, "body '%.100s': its name is too long for a marker's frame path", body);
        if (set_word(w, m, "socket_parent_frame", frame)) return -1;
    } else if (set_word(w, m, "body", body)) {
        return -1;
    }
    if (set_numbers(w, m, "location", e->v, 3)) return -1;
    return set_word(w, m, "fixed", e->flag ? "true" : "false");
}

static int edit_marker(writer *w)
{
    const u2d_urdf *u = w->u;
    if (in_range(w, u->nmarker, "marker")) return -1;
    u2d_xml *m = named(w, u->osim.marker[w->e->target].node, "Marker",
                       u->marker[w->e->target].name);
    if (!m) return -1;
    if (w->e->kind == U2D_EDIT_MARKER_REMOVE)
        return u2d_xml_delete(m) ? fail(w, "out of memory") : 0;
    return set_numbers(w, m, "location", w->e->v, 3);
}

/* Multiply the function element at ordinal by factor: a MultiplierFunction's <scale>, any
 * other function wrapped in one (as OpenSim's scaling does). */
static int scale_function(writer *w, int ordinal, double factor)
{
    if (!isfinite(factor)) return fail(w, "factor %g is not a finite number", factor);
    u2d_xml *f = element(w, ordinal, NULL);
    if (!f) return -1;
    if (strcmp(u2d_xml_name(f), "MultiplierFunction") == 0) {
        double scale = 1.0;
        u2d_xml *c = u2d_xml_child(f, "scale");
        const char *t = c ? u2d_xml_text(c) : "";
        char *end;
        double x = u2d_strtod(t, &end);
        if (end != t) scale = x;
        scale *= factor;
        return set_numbers(w, f, "scale", &scale, 1);
    }
    const char *name = u2d_xml_attr(f, "name");
    char keep[256] = "";
    if (name) snprintf(keep, sizeof keep, "%s", name);
    u2d_xml *m = u2d_xml_wrap(f, "MultiplierFunction", "function");
    if (!m || (keep[0] && u2d_xml_set_attr(m, "name", keep))) return fail(w, "out of memory");
    return set_numbers(w, m, "scale", &factor, 1);
}

static int edit_point(writer *w)
{
    const u2d_osimdoc *d = &w->u->osim;
    if (in_range(w, d->npoint, "path point")) return -1;
    const u2d_osim_point *P = &d->point[w->e->target];
    if (w->e->kind == U2D_EDIT_POINT) {
        u2d_xml *p = named(w, P->node, NULL, P->name);
        return p ? set_numbers(w, p, "location", w->e->v, 3) : -1;
    }
    if (P->kind != U2D_POINT_MOVING) return fail(w, "'%.100s' is not a moving point", P->name);
    for (int k = 0; k < 3; k++)
        if (w->e->v[k] != 1.0 && scale_function(w, P->fnode[k], w->e->v[k])) return -1;
    return 0;
}

static int edit_lengths(writer *w)
{
    static const char *props[][2] = {{NULL, NULL},
                                     {"optimal_fiber_length", "tendon_slack_length"},
                                     {"resting_length", NULL}, {"slack_length", NULL}};
    const u2d_osimdoc *d = &w->u->osim;
    if (in_range(w, d->npath, "path")) return -1;
    const u2d_osim_path *P = &d->path[w->e->target];
    u2d_xml *f = named(w, P->node, P->type, P->name);
    if (!f) return -1;
    if (P->lengths == U2D_LENGTHS_NONE)
        return fail(w, "%.100s '%.100s' has no lengths that scale", P->type, P->name);
    for (int k = 0; k < 2 && props[P->lengths][k]; k++) {
        if (isnan(w->e->v[k])) continue;                /* left as written */
        if (!(w->e->v[k] > 0 && isfinite(w->e->v[k])))
            return fail(w, "<%s> %g: must be finite and > 0", props[P->lengths][k], w->e->v[k]);
        if (set_numbers(w, f, props[P->lengths][k], &w->e->v[k], 1)) return -1;
    }
    return 0;
}

static int edit_wrap(writer *w)
{
    const u2d_osimdoc *d = &w->u->osim;
    if (in_range(w, d->nwrap, "wrap object")) return -1;
    const u2d_osim_wrap *W = &d->wrap[w->e->target];
    u2d_xml *x = named(w, W->node, NULL, W->name);
    if (!x) return -1;
    const double *v = w->e->v;
    if (w->e->kind == U2D_EDIT_WRAP_TRANSLATION) return set_numbers(w, x, "translation", v, 3);
    switch (W->type) {
    case U2D_WRAP_CYLINDER:
        return set_numbers(w, x, "radius", v, 1) || set_numbers(w, x, "length", v + 1, 1);
    case U2D_WRAP_SPHERE: return set_numbers(w, x, "radius", v, 1);
    case U2D_WRAP_ELLIPSOID: return set_numbers(w, x, "dimensions", v, 3);
    case U2D_WRAP_TORUS:
        return set_numbers(w, x, "inner_radius", v, 1) ||
               set_numbers(w, x, "outer_radius", v + 1, 1);
    }
    return fail(w, "<%.100s>: its size is not known to urdf2dyn", u2d_xml_name(x));
}

/* An EllipsoidJoint's radii_x_y_z, a ScapulothoracicJoint's thoracic_ellipsoid_radii_x_y_z
 * and scapula_winging_axis_origin. */
static int edit_ellipsoid(writer *w)
{
    if (in_range(w, w->u->njoint, "joint")) return -1;
    const u2d_urdf_joint *J = &w->u->joint[w->e->target];
    if (J->type != U2D_JOINT_ELLIPSOID)
        return fail(w, "joint '%.100s' is not an ellipsoid joint", J->name);
    const int scapula = J->ncoord == 4;
    u2d_xml *x = element(w, J->ellipsoid_node, scapula ? "ScapulothoracicJoint" :
                         "EllipsoidJoint");
    if (!x) return -1;
    const double *v = w->e->v;
    for (int k = 0; k < 3; k++)
        if (!(v[k] >= 0.0 && isfinite(v[k])))
            return fail(w, "joint '%.100s': radius %g must be finite and >= 0", J->name, v[k]);
    if (set_numbers(w, x, scapula ? "thoracic_ellipsoid_radii_x_y_z" : "radii_x_y_z", v, 3))
        return -1;
    if (!scapula || isnan(v[3])) return 0;
    return set_numbers(w, x, "scapula_winging_axis_origin", v + 3, 2);
}

/* A ConstantCurvatureJoint's length. */
static int edit_curvature(writer *w)
{
    if (in_range(w, w->u->njoint, "joint")) return -1;
    const u2d_urdf_joint *J = &w->u->joint[w->e->target];
    if (J->type != U2D_JOINT_CURVATURE)
        return fail(w, "joint '%.100s' is not a constant-curvature joint", J->name);
    u2d_xml *x = element(w, J->curvature_node, "ConstantCurvatureJoint");
    return x ? set_numbers(w, x, "length", w->e->v, 1) : -1;
}

static int apply(writer *w)
{
    const u2d_osim_edit *e = w->e;
    const u2d_osimdoc *d = &w->u->osim;
    switch (e->kind) {
    case U2D_EDIT_BODY_MASS: case U2D_EDIT_BODY_COM: case U2D_EDIT_BODY_INERTIA:
        return edit_body(w);
    case U2D_EDIT_FRAME_TRANSLATION: case U2D_EDIT_FRAME_ORIENTATION: return edit_frame(w);
    case U2D_EDIT_MARKER: case U2D_EDIT_MARKER_REMOVE: return edit_marker(w);
    case U2D_EDIT_MARKER_ADD: return add_marker(w);
    case U2D_EDIT_POINT: case U2D_EDIT_POINT_SCALE: return edit_point(w);
    case U2D_EDIT_LENGTHS: return edit_lengths(w);
    case U2D_EDIT_WRAP_TRANSLATION: case U2D_EDIT_WRAP_SIZE: return edit_wrap(w);
    case U2D_EDIT_ELLIPSOID: return edit_ellipsoid(w);
    case U2D_EDIT_CURVATURE: return edit_curvature(w);
    case U2D_EDIT_AXIS_SCALE:
        if (in_range(w, 6 * w->u->ncustom, "transform axis")) return -1;
        if (d->axis_node[e->target] < 0) return fail(w, "the axis has no function written");
        return scale_function(w, d->axis_node[e->target], e->v[0]);
    case U2D_EDIT_COUPLER_SCALE:
        if (in_range(w, w->u->ncoupler, "coupler")) return -1;
        {
            u2d_xml *c = element(w, d->coupler_node[e->target], "CoordinateCouplerConstraint");
            return c ? set_numbers(w, c, "scale_factor", e->v, 1) : -1;
        }
    case U2D_EDIT_GEOMETRY_SCALE:
        if (in_range(w, d->ngeometry, "geometry")) return -1;
        {
            u2d_xml *g = element(w, d->geometry[e->target].node, NULL);
            return g ? set_numbers(w, g, "scale_factors", e->v, 3) : -1;
        }
    }
    snprintf(w->err, U2D_ERRLEN, "edit of unknown kind %d", e->kind);
    return -1;
}

struct u2d_osim_writer_s {
    u2d_xml *doc;
    const u2d_urdf *u;
};

u2d_osim_writer *u2d_osim_writer_new(const char *xml, const u2d_urdf *u, char err[U2D_ERRLEN])
{
    err[0] = '\0';
    if (!u->has_gravity || !u->osim.link_node) {
        snprintf(err, U2D_ERRLEN, "the model was not read from an OpenSim document");
        return NULL;
    }
    u2d_osim_writer *wr = malloc(sizeof *wr);
    if (!wr) {
        snprintf(err, U2D_ERRLEN, "out of memory");
        return NULL;
    }
    wr->u = u;
    wr->doc = u2d_xml_load(xml, err, NULL, NULL);
    if (!wr->doc) {
        free(wr);
        return NULL;
    }
    return wr;
}

void u2d_osim_writer_free(u2d_osim_writer *wr)
{
    if (!wr) return;
    u2d_xml_free(wr->doc);
    free(wr);
}

/* Where s stops being UTF-8 text free of the control characters XML forbids (the offset of
 * the first byte at fault), or -1 if it never does. */
static long first_fault(const char *s)
{
    const unsigned char *p = (const unsigned char *)s, *at;
    while (*p) {
        at = p;
        int more = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 :
                   (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (more < 0 || (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') ||
            (more == 1 && *p < 0xC2) || (more == 3 && *p > 0xF4))
            return (long)(at - (const unsigned char *)s);
        for (p++; more > 0; more--, p++)
            if ((*p & 0xC0) != 0x80) return (long)(at - (const unsigned char *)s);
    }
    return -1;
}

/* Whether the written text reads again (0), else -1 and why in err. Mini-XML refuses every
 * control character XML forbids, as a byte or as a reference, so a document it read holds
 * none; but it keeps what it read of bytes that are not UTF-8 (the fuzzer's 0x9E inside a
 * directive) and writes them back as bytes the reader refuses (0xFF). A scan for exactly
 * that (and for an edit's name bringing either in) costs a thousandth of parsing the text
 * again, which this check replaced (issue 29); the .osim fuzzer re-reads every text. */
static int readable(const char *out, char err[U2D_ERRLEN])
{
    long at = first_fault(out);
    if (at < 0) return 0;
    snprintf(err, U2D_ERRLEN, "the model cannot be written back as it was read (byte 0x%02X "
             "at offset %ld of the written text is not UTF-8 text): save it as UTF-8 text and "
             "load it again", (unsigned char)out[at], at);
    return -1;
}

char *u2d_osim_writer_write(u2d_osim_writer *wr, const u2d_osim_edit *edit, int nedit,
                            char err[U2D_ERRLEN])
{
    err[0] = '\0';
    writer w = {wr->doc, wr->u, NULL, err};
    char *out = NULL;
    int k = 0;
    for (; k < nedit; k++) {
        w.e = &edit[k];
        if (edit[k].kind < 0 || edit[k].kind >= U2D_EDIT_KINDS) {
            snprintf(err, U2D_ERRLEN, "edit %d: unknown kind %d", k, edit[k].kind);
            break;
        }
        if (apply(&w)) break;
    }
    if (k == nedit) out = u2d_xml_save(wr->doc, err);
    if (out && readable(out, err)) {
        free(out);
        out = NULL;
    }
    if (u2d_xml_revert(wr->doc)) {          /* a change not taken back: never write it again */
        free(out);
        snprintf(err, U2D_ERRLEN, "out of memory while writing the model");
        return NULL;
    }
    return out;
}

char *u2d_osim_write(const char *xml, const u2d_urdf *u, const u2d_osim_edit *edit, int nedit,
                     char err[U2D_ERRLEN])
{
    u2d_osim_writer *wr = u2d_osim_writer_new(xml, u, err);
    if (!wr) return NULL;
    char *out = u2d_osim_writer_write(wr, edit, nedit, err);
    u2d_osim_writer_free(wr);
    return out;
}
