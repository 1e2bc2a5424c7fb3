/* u2d_osim.c: OpenSim model text (.osim) -> u2d_urdf, validated; u2d_model_compile then
 * builds the same model as from a URDF.
 *
 * What is read: the bodies (mass, mass_center, inertia about the centre of mass), the
 * joints with their parent and child frames and coordinates, the gravity and the markers.
 * Two layouts: OpenSim 4 (a <JointSet>, joints naming PhysicalOffsetFrames by path) and
 * OpenSim 3 (each <Body> holds the <Joint> that carries it, with location_in_parent,
 * orientation_in_parent, location and orientation). Muscles and other forces, controllers,
 * constraints, contact geometry, probes and display data do not enter inverse dynamics:
 * they are skipped with one finding that counts them.
 *
 * How it maps onto the URDF description: ground is link 0 and every body a link; a joint
 * runs from its parent frame F (folded into the joint origin, as a URDF origin) to its
 * child frame M. When M is not the child body's own frame, M becomes a massless link of
 * its own (named after the frame) and the body hangs from it by a fixed joint, so the
 * compiled body frame is M and the OpenSim body keeps its name and frame as a link.
 * PinJoint -> revolute about z, SliderJoint -> prismatic along x, WeldJoint -> fixed;
 * every other joint is a CUSTOM joint (six transform axes, as OpenSim's SpatialTransform).
 * Every message names the element and its line. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse/u2d_parse.h"
#include "parse/u2d_xml.h"

#define MAX_KNOTS 65536        /* per function: far beyond any model, short of a runaway  */
#define MAX_FRAME_DEPTH 16     /* offset frames on offset frames                          */
#define MAX_FUNC_DEPTH 16      /* MultiplierFunction of MultiplierFunction ...            */
#define MAX_COMPONENT_DEPTH 64 /* <components> lists inside components ...                 */

/* A joint's coordinates, then its frames, and the names OpenSim 4.6 gives them. */
struct joint_parts {
    u2d_xml *joint;
    char **names;               /* malloc'd, as name_not_among gives them                   */
    u2d_xml **parts;
    unsigned char *said;        /* per part: its renaming said already (once per load)      */
    int n, ncomp, ncoord, capnames, capparts; /* parts[0..ncomp): its <components>,
                                          * [ncomp..ncoord): its coordinates, then frames  */
};

typedef struct {
    char *err;
    char what[300];             /* "joint 'knee_r'": prefix of messages, "" for none        */
    u2d_urdf *u;
    u2d_xml *model, *jointset;
    int caplink, capjoint, capcustom, capfunc, capfdata, capcoord, capmarker, capcoupler,
        capforce;
    int caplinknode, capaxis, capdocmarker, capcouplernode, capframe, cappath, cappoint,
        capwrap, cappathwrap, capgeometry, capnamed;    /* u->osim's arrays                */
    int nbody;                  /* links 1 .. nbody are the bodies                          */
    char **owned;               /* names made here (frame links), freed after own_strings  */
    int nowned, capowned;
    u2d_xml **forcenode;        /* the force elements: ForceSet's, then <components>'     */
    int nforcenode, capforcenode, ncomponentforce;
    const char **jname;         /* the joints' names as OpenSim gives them, in file order  */
    int *jnext;                 /* per name: the suffix a joint that repeats it tries first */
    u2d_xml **jnode;            /* per name: the joint element it names                     */
    int njname, capjname, capjnext, capjnode;
    int jreading;               /* the joint being read: its index in jname                  */
    struct joint_parts *jparts; /* OpenSim's names of the joints' parts, as sockets asked   */
    int njparts, capjparts;
    int said_default_range;     /* the <defaults> Coordinate's <range> said (once per load) */
} osim;

static int fail_at(osim *o, u2d_xml *node, const char *fmt, ...)
{
    char msg[U2D_ERRLEN], line[32] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int at = node ? u2d_xml_line(node) : 0;
    if (at > 0) snprintf(line, sizeof line, "line %d: ", at);
    snprintf(o->err, U2D_ERRLEN, "%s%.170s%s%.300s", line, o->what, o->what[0] ? ": " : "",
             msg);
    return -1;
}

static void note(osim *o, u2d_xml *node, const char *fmt, ...)
{
    char msg[U2D_ERRLEN], full[U2D_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "%.200s%s%.300s", o->what, o->what[0] ? ": " : "", msg);
    u2d_add_finding(o->u, node ? u2d_xml_line(node) : 0, NULL, full);
}

static void xml_note(void *ctx, int line, const char *message)
{
    char full[U2D_ERRLEN];
    /* OpenSim 4.6 drops a bare '&' where urdf2dyn keeps it (body 'sh&nk' is 'shnk') */
    if (strncmp(message, U2D_XML_BARE_AMP, strlen(U2D_XML_BARE_AMP)) == 0) {
        snprintf(full, sizeof full, "%.300s; OpenSim drops it, so a name holding it differs "
                 "from OpenSim's: write it &amp; (or remove it)", message);
        message = full;
    }
    u2d_add_finding(((osim *)ctx)->u, line, NULL, message);
}

/* Room for one more of *n elements of size bytes in *p (capacity *cap). */
static int grow(osim *o, void **p, int *cap, int n, size_t size)
{
    return u2d_grow(p, cap, n, size) ? fail_at(o, NULL, "out of memory") : 0;
}

/* ---- numbers and words in element text ----------------------------------------- */

/* Whether the token at p spells an infinity ("inf", "-Infinity") or NaN ("nan" in any case,
 * unsigned), not a number too large for a double ("1e999") nor another NaN strtod reads
 * ("-nan", "nan(1)"): OpenSim 4.6 reads the first two as written, and not the others. */
static int spells_infinity_or_nan(const char *p)
{
    if ((p[0] | 32) == 'n' && (p[1] | 32) == 'a' && (p[2] | 32) == 'n' &&
        (!p[3] || u2d_is_blank(p[3])))
        return 1;
    p += *p == '+' || *p == '-';
    return *p == 'i' || *p == 'I';
}

/* The characters of the token at p, up to a blank or the end. */
static int token_length(const char *p)
{
    int n = 0;
    while (p[n] && !u2d_is_blank(p[n])) n++;
    return n;
}

/* How many of the first max bytes of UTF-8 text p to quote in a message: up to max, cut
 * before a character that would not fit whole (a byte cut inside one reaches the user as
 * U+FFFD, in place of the character the file holds). */
static int utf8_cut(const char *p, int max)
{
    int n = 0;
    while (n < max && p[n]) n++;
    if (n == max && ((unsigned char)p[n] & 0xC0) == 0x80)
        while (n > 0 && ((unsigned char)p[n] & 0xC0) == 0x80) n--;
    return n;
}

/* The next number of an element's text from *p, as u2d_scan_decimal scans it (1 and *x, 0
 * at the end, else its error, *p left at the token), an infinity or NaN spelled as OpenSim
 * 4.6 reads one taken as a number when words_ok (a coordinate's <range>). */
static int next_number(const char **p, double *x, int words_ok)
{
    int got = u2d_scan_decimal(p, x);
    if (got != -2 || !words_ok || !spells_infinity_or_nan(*p)) return got;
    *p += token_length(*p);                             /* the scan leaves *p at the word */
    return 1;
}

/* Refuses node for next_number's error got. */
static int refuse_number(osim *o, u2d_xml *node, int got)
{
    const char *s = u2d_xml_text(node), *elem = u2d_xml_name(node);
    if (got == -3)
        return fail_at(o, node, "<%s>%.60s</%s>: hexadecimal numbers are not read "
                       "(OpenSim reads 0x10 as 0): write it in decimal", elem, s, elem);
    if (got == -2)
        return fail_at(o, node, "<%s>%.60s</%s>: number is not finite", elem, s, elem);
    return fail_at(o, node, "<%s>%.60s</%s>: not a number", elem, s, elem);
}

/* Numbers of an element's text: exactly n when n > 0, else up to max into *out (malloc'd
 * by the caller with room for max). Returns the count or -1. */
static int read_text_numbers(osim *o, u2d_xml *node, int n, int max, double *out)
{
    const char *s = u2d_xml_text(node), *p = s, *elem = u2d_xml_name(node);
    int count = 0, got;
    double x;
    for (; (got = next_number(&p, &x, 0)) != 0; count++) {
        if (got < 0) return refuse_number(o, node, got);
        if (n == 0 && count >= max)
            return fail_at(o, node, "<%s>: more than %d numbers", elem, max);
        if (count < (n > 0 ? n : max)) out[count] = x;
    }
    if (n > 0 && count != n)
        return fail_at(o, node, "<%s>%.60s</%s>: expected %d number%s, got %d", elem, s, elem,
                       n, n == 1 ? "" : "s", count);
    return count;
}

/* Whether node writes elem: an element with more than blanks in it (OpenSim 4.6 keeps the
 * value it had for an empty one). */
static int writes(u2d_xml *node, const char *elem)
{
    u2d_xml *c = node ? u2d_xml_child(node, elem) : NULL;
    const char *s = c ? u2d_xml_text(c) : "";
    while (u2d_is_blank(*s)) s++;
    return *s != '\0';
}

/* Whether strtod reads nothing at p: a token no number starts ("abc", "-", "[1"). */
static int starts_no_number(const char *p)
{
    char *end;
    u2d_strtod(p, &end);
    return end == p;
}

/* Why OpenSim 4.6 ignores a <range> it reads no range from (read_range's answer). */
enum { RANGE_KEPT, RANGE_ONE_NUMBER, RANGE_UNREADABLE };

/* A <range>'s tokens as OpenSim 4.6 reads them: its first two numbers into out, all counted
 * in *count (it keeps the first two of more), else RANGE_UNREADABLE and *bad at the first
 * token it reads no number from (no number at its start, or a non-finite one it does not
 * spell: "-nan", "1e999"), for which it ignores the whole range. A number with more after
 * it in one token ("1abc", "infx") or a hexadecimal one is refused: OpenSim reads some
 * such a prefix and ignores others. */
static int scan_range(osim *o, u2d_xml *node, double out[2], int *count, const char **bad)
{
    const char *p = u2d_xml_text(node);
    double x;
    int got;
    for (*count = 0; (got = next_number(&p, &x, 1)) != 0; ++*count) {
        if (got == -2 || (got == -1 && starts_no_number(p))) {
            *bad = p;
            return RANGE_UNREADABLE;
        }
        if (got < 0) return refuse_number(o, node, got);
        if (*count < 2) out[*count] = x;
    }
    return *count == 1 ? RANGE_ONE_NUMBER : RANGE_KEPT;
}

/* Coordinate name's <range> in holder (the coordinate, or the <defaults> one it takes the
 * range from): two numbers, either of them infinite as OpenSim 4.6 reads "-inf inf" (no
 * bound there) or NaN, the first two of more, said. Absent or empty: keep the caller's
 * default (a coordinate's is OpenSim's, OSIM_DEFAULT_RANGE), as OpenSim 4.6 keeps its own
 * for an empty one, and for one it ignores ("does not contain enough values", or a token it
 * reads no number from): then RANGE_ONE_NUMBER or RANGE_UNREADABLE, *bad at that token.
 * *written: whether the range was read from the file. */
static int says_range_of(osim *o, u2d_xml *holder);
static const char *default_range_also(osim *o, u2d_xml *holder);
static int read_range(osim *o, u2d_xml *holder, const char *name, double range[2],
                      int *written, const char **bad)
{
    *written = 0;
    if (!writes(holder, "range")) return RANGE_KEPT;
    u2d_xml *node = u2d_xml_child(holder, "range");
    double read[2];
    int count, why = scan_range(o, node, read, &count, bad);
    if (why != RANGE_KEPT) return why;
    if (count > 2 && says_range_of(o, holder))
        note(o, node, "coordinate '%.100s'%s: <range>%.60s</range> holds %d numbers, of which "
             "OpenSim 4.6 reads the first two: read as %g %g; write two numbers, lower then "
             "upper", name, default_range_also(o, holder), u2d_xml_text(node), count, read[0],
             read[1]);
    memcpy(range, read, sizeof read);
    *written = 1;
    return RANGE_KEPT;
}

/* Child elem of node read as n numbers; absent: keep out (the default). */
static int read_child(osim *o, u2d_xml *node, const char *elem, int n, double *out)
{
    u2d_xml *c = u2d_xml_child(node, elem);
    if (!c) return 0;
    return read_text_numbers(o, c, n, n, out) < 0 ? -1 : 0;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* ASCII only (bool_word, read_flag, force_path_of): <ctype.h>'s functions follow the
 * process's locale. */
static char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* A bool as OpenSim 4.6 reads one: 'true' or 'false' in any case, else a leading whole
 * number 0 or 1 as C++'s `>> bool` reads it ('01', '+1', '-0', and '1x': it stops after the
 * digits). 1 when word (of len characters) is one, its value in *out; 0 when it is not. */
static int bool_word(const char *word, size_t len, int *out)
{
    static const char *const names[2] = {"false", "true"};
    for (int v = 0; v < 2; v++) {
        size_t k = 0;
        while (k < len && names[v][k] && lower_ascii(word[k]) == names[v][k]) k++;
        if (k == len && !names[v][k]) return *out = v, 1;
    }
    size_t k = (len > 0 && (word[0] == '+' || word[0] == '-')) ? 1 : 0;
    int negative = k == 1 && word[0] == '-';
    if (k == len || !is_digit(word[k])) return 0;
    while (k < len && word[k] == '0') k++;                  /* 0001 is 1, as for strtol */
    if (k == len || !is_digit(word[k])) return *out = 0, 1;
    if (word[k] != '1' || negative || (k + 1 < len && is_digit(word[k + 1])))
        return 0;                                           /* 2, 10, -1: not a bool */
    return *out = 1, 1;
}

/* Child elem of node read as a bool property (a coordinate's <locked>, <clamped>, a marker's
 * <fixed>, an OpenSim 3 joint's <reverse>) as OpenSim 4.6 reads it (bool_word); absent or
 * empty: false, the default of each, as OpenSim keeps it. A word OpenSim would not read as a
 * bool (it ignores 'yes' or '2', keeping the default, but reads a <reverse> of '2' as true)
 * and a value of several words (OpenSim reads the first, or none) are refused naming the
 * element. */
static int read_flag(osim *o, u2d_xml *node, const char *elem, int *out)
{
    u2d_xml *c = u2d_xml_child(node, elem);
    *out = 0;
    if (!c) return 0;
    const char *s = u2d_xml_text(c), *word, *end;
    while (u2d_is_blank(*s)) s++;
    for (word = s; *s && !u2d_is_blank(*s); s++) {}
    end = s;
    while (u2d_is_blank(*s)) s++;
    if (end == word) return 0;
    if (*s)
        return fail_at(o, c, "<%s>%.*s ...</%s>: several words: write true or false", elem,
                       (int)(end - word > 40 ? 40 : end - word), word, elem);
    if (!bool_word(word, (size_t)(end - word), out))
        return fail_at(o, c, "<%s>%.*s</%s>: not true or false (OpenSim 4.6 ignores such a "
                       "value, keeping the default false, or misreads it): write true or false",
                       elem,
                       (int)(end - word > 40 ? 40 : end - word), word, elem);
    return 0;
}

/* The text of child elem without surrounding blanks into buf ("" when absent). */
static void read_word(u2d_xml *node, const char *elem, char *buf, size_t len)
{
    u2d_xml *c = node ? u2d_xml_child(node, elem) : NULL;
    const char *s = c ? u2d_xml_text(c) : "";
    while (u2d_is_blank(*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && u2d_is_blank(s[n - 1])) n--;
    if (n >= len) n = len - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
}

/* ---- frames ------------------------------------------------------------------ */

/* Plücker transform from a frame to one placed in it at translation t, orientation a. */
static void offset_xform(const double t[3], const double a[3], u2d_xform *X)
{
    double R[9];
    u2d_rot_xyz(a, R);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) X->E[3 * i + j] = R[3 * j + i];
    memcpy(X->r, t, sizeof X->r);
}

static int is_identity(const u2d_xform *X)
{
    u2d_xform I;
    u2d_xform_identity(&I);
    for (int k = 0; k < 9; k++)
        if (fabs(X->E[k] - I.E[k]) > 1e-15) return 0;
    return fabs(X->r[0]) + fabs(X->r[1]) + fabs(X->r[2]) == 0.0;
}

static int find_link(const u2d_urdf *u, const char *name)
{
    for (int i = 0; i < u->nlink; i++)
        if (strcmp(u->link[i].name, name) == 0) return i;
    return -1;
}

/* The first element of the model's <set><objects> (OpenSim's layout of a Set), or NULL */
static u2d_xml *first_object(u2d_xml *model, const char *set)
{
    u2d_xml *s = u2d_xml_child(model, set), *objects = s ? u2d_xml_child(s, "objects") : NULL;
    return objects ? u2d_xml_first(objects) : NULL;
}

static u2d_xml *find_named(u2d_xml *set, const char *name)
{
    if (!set) return NULL;
    u2d_xml *objects = u2d_xml_child(set, "objects");
    for (u2d_xml *c = u2d_xml_first(objects ? objects : set); c; c = u2d_xml_next(c)) {
        const char *n = u2d_xml_attr(c, "name");
        if (n && strcmp(n, name) == 0) return c;
    }
    return NULL;
}

static int resolve_frame(osim *o, u2d_xml *joint, u2d_xml *at, const char *ref, int depth,
                         int *link, u2d_xform *X);
static int socket_path(osim *o, u2d_xml *at, const char *where, const char *ref, char *out,
                       size_t size);

/* The element of <components> lists that absolute path p ("/name", "/name/inner",
 * "/bodyset/body/name") names, as OpenSim's component paths do: the Model's <components>
 * for the first name, then each named component's own <components> (a body's: in the
 * BodySet). NULL when p names none (the path is then a body's, a joint's or ground). */
static u2d_xml *component_at(osim *o, const char *p)
{
    u2d_xml *at = o->model, *found = NULL;
    int first = 1;
    if (strncmp(p, "/bodyset/", 9) == 0) {
        char body[256];
        const char *q = p + 9, *slash = strchr(q, '/');
        if (!slash || (size_t)(slash - q) >= sizeof body) return NULL;
        memcpy(body, q, (size_t)(slash - q));
        body[slash - q] = '\0';
        at = find_named(u2d_xml_child(o->model, "BodySet"), body);
        p = slash;
        first = 0;
    }
    while (at && *p == '/') {
        char name[256];
        const char *q = p + 1, *slash = strchr(q, '/');
        size_t len = slash ? (size_t)(slash - q) : strlen(q);
        if (len == 0 || len >= sizeof name) return NULL;
        memcpy(name, q, len);
        name[len] = '\0';
        if (first && (strcmp(name, "bodyset") == 0 || strcmp(name, "jointset") == 0 ||
                      strcmp(name, "ground") == 0))
            return NULL;
        u2d_xml *list = u2d_xml_child(at, "components");
        found = at = list ? find_named(list, name) : NULL;
        p = q + len;
        first = 0;
    }
    return *p ? NULL : found;
}

/* Socket path rel seen from the component at absolute path base ("..": base's owner), as
 * an absolute path into out, normalized as OpenSim 4.6's ComponentPath is (an absolute rel
 * too: "/bodyset/b/", "/bodyset//b" and "/jointset/j/../k/f" name /bodyset/b and
 * /jointset/k/f); 0, or -1 when it climbs above the model or is too long. */
static int join_path(const char *base, const char *rel, char *out, size_t size)
{
    size_t n = 0;
    if (rel[0] == '/') base = "";
    if (strlen(base) >= size) return -1;
    memcpy(out, base, strlen(base) + 1);
    n = strlen(out);
    for (const char *q = rel; *q;) {
        const char *slash = strchr(q, '/');
        size_t len = slash ? (size_t)(slash - q) : strlen(q);
        if (len == 2 && q[0] == '.' && q[1] == '.') {
            while (n > 0 && out[n - 1] != '/') n--;
            if (n == 0) return -1;
            out[--n] = '\0';
        } else if (len > 0 && !(len == 1 && q[0] == '.')) {
            if (n + 1 + len >= size) return -1;
            out[n++] = '/';
            memcpy(out + n, q, len);
            out[n += len] = '\0';
        }
        q += len + (slash != NULL);
    }
    if (n == 0) { out[0] = '/'; out[1] = '\0'; }
    return 0;
}

/* A StationDefinedFrame's <ab_axis> or <ab_x_ac_axis> (absent: def): a frame axis, +x to -z,
 * as axis 0-2 and sign. OpenSim 4.6 reads a first letter after the sign and ignores the rest,
 * and falls back to another axis, with a log line only, where it reads none: refused here. */
static int read_frame_axis(osim *o, u2d_xml *f, const char *elem, const char *def, int *axis,
                           int *sign)
{
    char word[64];
    read_word(f, elem, word, sizeof word);
    const char *w = u2d_xml_child(f, elem) ? word : def;
    *sign = w[0] == '-' ? -1 : 1;
    if (w[0] == '-' || w[0] == '+') w++;
    const char *letters = "xyzXYZ", *at = w[0] ? strchr(letters, w[0]) : NULL;
    if (!at || w[1] != '\0')
        return fail_at(o, u2d_xml_child(f, elem), "<%s>%.40s</%s>: give +x, -x, +y, -y, +z "
                       "or -z (OpenSim 4.6 reads another axis in its place)", elem, word, elem);
    *axis = (int)(at - letters) % 3;
    return 0;
}

/* The station that socket elem of the StationDefinedFrame at absolute path sdf names (a
 * Station of a <components> list, or a marker): the link it is fixed on and its position
 * there. */
static int station_point(osim *o, u2d_xml *f, const char *sdf, const char *elem, int depth,
                         int *link, double pos[3])
{
    char ref[512], path[512] = "", parent[512], joined[512];
    u2d_xml *sock = u2d_xml_child(f, elem);
    if (!sock) return fail_at(o, f, "<StationDefinedFrame> has no <%s>: name its station",
                              elem);
    read_word(f, elem, ref, sizeof ref);
    u2d_xml *st = join_path(sdf, ref, path, sizeof path) ? NULL : component_at(o, path);
    if (!st && strncmp(path, "/markerset/", 11) == 0)
        st = find_named(u2d_xml_child(o->model, "MarkerSet"), path + 11);
    if (!st || (strcmp(u2d_xml_name(st), "Station") != 0 &&
                strcmp(u2d_xml_name(st), "Marker") != 0))
        return fail_at(o, sock, "<%s>%.100s</%s>: no such Station or Marker", elem, ref, elem);
    double loc[3] = {0, 0, 0};
    u2d_xml *sp = u2d_xml_child(st, "socket_parent_frame");
    if (!sp) return fail_at(o, st, "<%s> names no <socket_parent_frame>", u2d_xml_name(st));
    if (read_child(o, st, "location", 3, loc)) return -1;
    read_word(st, "socket_parent_frame", parent, sizeof parent);
    u2d_xform Xp;
    if (socket_path(o, sp, path, parent, joined, sizeof joined) ||
        resolve_frame(o, NULL, sp, joined, depth + 1, link, &Xp))
        return -1;
    for (int i = 0; i < 3; i++)
        pos[i] = Xp.r[i] + Xp.E[i] * loc[0] + Xp.E[3 + i] * loc[1] + Xp.E[6 + i] * loc[2];
    return 0;
}

static void sub3(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = a[i] - b[i];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* v / |v|, or 0 when v is (numerically) zero */
static int unit3(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(n > 0.0) || !isfinite(n)) return 0;
    for (int i = 0; i < 3; i++) v[i] /= n;
    return 1;
}

/* OpenSim 4.5's StationDefinedFrame (StationDefinedFrame.cpp): fixed on the body of its
 * stations a, b, c and origin, its <ab_axis> along b - a, its <ab_x_ac_axis> along
 * (b - a) x (c - a), the third axis completing a right-handed frame, its origin at the
 * origin station. where: its absolute path (it is a component's). */
static int station_defined_frame(osim *o, u2d_xml *joint, u2d_xml *f, const char *where,
                                 int depth, int *link, u2d_xform *X)
{
    const char *fname = u2d_xml_attr(f, "name");
    if (!fname) fname = "";
    (void)joint;                    /* a joint's <frames> holds none (resolve_frame) */
    if (!where) return fail_at(o, f, "<StationDefinedFrame name=\"%.100s\">: not in a "
                               "<components> list", fname);
    char path[512];
    snprintf(path, sizeof path, "%.500s", where);
    int ab_axis, ab_sign, n_axis, n_sign;
    if (read_frame_axis(o, f, "ab_axis", "+x", &ab_axis, &ab_sign) ||
        read_frame_axis(o, f, "ab_x_ac_axis", "+y", &n_axis, &n_sign))
        return -1;
    if (ab_axis == n_axis)
        return fail_at(o, f, "<StationDefinedFrame name=\"%.100s\">: <ab_axis> and "
                       "<ab_x_ac_axis> name the same axis; give two different axes (OpenSim "
                       "4.6 replaces the second)", fname);
    static const char *sockets[4] = {"socket_point_a", "socket_point_b", "socket_point_c",
                                      "socket_origin_point"};
    double p[4][3];
    int links[4];
    for (int k = 0; k < 4; k++)
        if (station_point(o, f, path, sockets[k], depth, &links[k], p[k])) return -1;
    for (int k = 1; k < 4; k++)
        if (links[k] != links[0])
            /* 135 characters and names of at most 60, 50 and 50: within fail_at's 300 */
            return fail_at(o, f, "<StationDefinedFrame name=\"%.60s\">: its stations are on "
                           "different bodies ('%.50s' and '%.50s'); OpenSim 4.6 refuses them "
                           "too: put all four on one body", fname, o->u->link[links[0]].name,
                           o->u->link[links[k]].name);
    double ab[3], ac[3], n[3], t[3];
    sub3(p[1], p[0], ab);
    sub3(p[2], p[0], ac);
    int ok = unit3(ab) && unit3(ac);
    cross3(ab, ac, n);
    /* sin of the angle at a: rounding leaves some 1e-16 of points on a line, whose
     * direction is noise */
    ok = ok && sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) > 1e-10 && unit3(n);
    cross3(ab, n, t);
    if (!ok || !unit3(t))
        return fail_at(o, f, "<StationDefinedFrame name=\"%.100s\">: points a, b and c make "
                       "no triangle (two coincide, or all three lie on a line: the angle at a "
                       "is below 1e-10 rad); move one", fname);
    /* column k of the rotation: frame axis k in the body; the third axis's sign makes
     * (ab_axis, ab_x_ac_axis, third) right-handed, as SimTK's crossProductSign */
    int third = 3 - ab_axis - n_axis;
    int cyclic = (n_axis - ab_axis + 3) % 3 == 1 ? 1 : -1;
    double col[3][3];
    for (int i = 0; i < 3; i++) {
        col[ab_axis][i] = ab_sign * ab[i];
        col[n_axis][i] = n_sign * n[i];
        col[third][i] = ab_sign * n_sign * cyclic * t[i];
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) X->E[3 * i + j] = col[i][j];
    memcpy(X->r, p[3], sizeof X->r);
    *link = links[0];
    return 0;
}

static struct joint_parts *joint_part_names(osim *o, u2d_xml *joint);

/* Joint's name in its path, /jointset/<name>: the one OpenSim 4.6 gives it (name_joint's,
 * a repeated name suffixed; a JointSet's are all named before any is read), or as
 * written for one not named. */
static const char *joint_path_name(osim *o, u2d_xml *joint)
{
    for (int k = 0; k < o->njname; k++)
        if (o->jnode[k] == joint) return o->jname[k];
    const char *name = u2d_xml_attr(joint, "name");
    return name ? name : "";
}

/* The joint /jointset/<name> names: the one OpenSim 4.6 names name (of two joints written
 * 'pin', the second is 'pin_0'), else the JointSet's first written so. */
static u2d_xml *joint_named(osim *o, const char *name)
{
    for (int k = 0; k < o->njname; k++)
        if (strcmp(o->jname[k], name) == 0) return o->jnode[k];
    return find_named(o->jointset, name);
}

/* Refuses a relative <at>ref</at> read from the component named name when that name holds
 * a '/': a component's path is its owners' names joined by '/', so the path read from it
 * would name other components (OpenSim 4.6 refuses to load a model with such a name). */
static int refuse_slashed_owner(osim *o, u2d_xml *at, const char *name, const char *ref)
{
    while (u2d_is_blank(*ref)) ref++;
    if (!name || !strchr(name, '/') || *ref == '/') return 0;
    return fail_at(o, at, "the name '%.100s' holds '/', which OpenSim 4.6 refuses in a name "
                   "(a component's path is its names joined by '/'), so the relative path "
                   "<%s>%.100s</%s> cannot be read from it; rename it", name,
                   u2d_xml_name(at), ref, u2d_xml_name(at));
}

/* The absolute path that socket element at, <at>ref</at>, names, into out: ref seen from its
 * owner, the component at absolute path where (OpenSim 4.6 resolves a relative socket path
 * from the component that owns the socket, ".." its owner's owner). */
static int socket_path(osim *o, u2d_xml *at, const char *where, const char *ref, char *out,
                       size_t size)
{
    const char *p = ref;
    while (u2d_is_blank(*p)) p++;
    const char *elem = u2d_xml_name(at);
    if (!*p) return fail_at(o, at, "<%.20s> is empty: name the frame", elem);
    if (!join_path(where, p, out, size)) return 0;
    /* 76 characters, the element 20 twice and two paths of at most 90: within fail_at's
     * 300 */
    return fail_at(o, at, "<%.20s>%.90s</%.20s> of '%.90s': no such frame (the path climbs "
                   "above the model, or is too long)", elem, ref, elem, where);
}

/* The absolute path that frame f's <socket_parent>parent</socket_parent> names, into out: a
 * relative one seen from f (OpenSim resolves a socket's path from the component that owns
 * it, ".." its owner), whose path is where, or for a frame of joint's <frames> (where NULL)
 * /jointset/<joint>/<f as OpenSim names it>, so that a sibling is "../g" and "g" names
 * none. */
static int socket_parent_path(osim *o, u2d_xml *joint, u2d_xml *f, const char *where,
                              const char *parent, char *out, size_t size)
{
    char own[512];
    if (!where) {
        struct joint_parts *P = joint_part_names(o, joint);
        if (!P) return -1;
        const char *fname = u2d_xml_attr(f, "name");
        for (int i = P->ncoord; i < P->n; i++)
            if (P->parts[i] == f) fname = P->names[i];
        snprintf(own, sizeof own, "/jointset/%.200s/%.200s", joint_path_name(o, joint),
                 fname ? fname : "");
        where = own;
    }
    return socket_path(o, u2d_xml_child(f, "socket_parent"), where, parent, out, size);
}

/* The frame element f that a path names (of a joint's <frames> or of a <components> list):
 * the link it is fixed on and the transform from that link's frame to it. Its socket_parent
 * is seen from joint, or for a component's (where: its absolute path, joint NULL) from f, as
 * OpenSim resolves a socket's relative path ("..": the body that lists the frame). */
static int offset_frame(osim *o, u2d_xml *joint, u2d_xml *f, const char *where, int depth,
                        int *link, u2d_xform *X)
{
    const char *fname = u2d_xml_attr(f, "name"), *kind = u2d_xml_name(f);
    if (!fname) fname = "";
    if (strcmp(kind, "Body") == 0 || strcmp(kind, "Ground") == 0) {
        int l = strcmp(kind, "Ground") == 0 ? 0 : find_link(o->u, fname);
        if (l < 0 || l > o->nbody)
            return fail_at(o, f, "<Body name=\"%.100s\">: not a body of the BodySet", fname);
        *link = l;
        u2d_xform_identity(X);
        return 0;
    }
    if (strcmp(kind, "StationDefinedFrame") == 0)
        return station_defined_frame(o, joint, f, where, depth, link, X);
    if (strcmp(kind, "PhysicalOffsetFrame") != 0)
        /* 194 characters, the kind at most 40 and the name 60: within fail_at's 300 */
        return fail_at(o, f, "<%.40s name=\"%.60s\">: only PhysicalOffsetFrame and "
                       "StationDefinedFrame frames are supported; replace it with a "
                       "PhysicalOffsetFrame on the same parent, with the translation and "
                       "orientation OpenSim gives it", kind, fname);
    double t[3] = {0, 0, 0}, a[3] = {0, 0, 0};
    if (read_child(o, f, "translation", 3, t) || read_child(o, f, "orientation", 3, a))
        return -1;
    char parent[512];
    read_word(f, "socket_parent", parent, sizeof parent);
    u2d_xml *sp = u2d_xml_child(f, "socket_parent");
    if (!sp) return fail_at(o, f, "<PhysicalOffsetFrame name=\"%.100s\"> has no "
                            "<socket_parent>", fname);
    u2d_xform Xp, Xf;
    char joined[512];
    if (socket_parent_path(o, joint, f, where, parent, joined, sizeof joined) ||
        resolve_frame(o, joint, sp, joined, depth + 1, link, &Xp))
        return -1;
    offset_xform(t, a, &Xf);
    u2d_xform_mul(&Xf, &Xp, X);
    /* a component's frame is no joint's, but scaling moves it all the same (OpenSim scales
     * every PhysicalOffsetFrame): recorded once, with joint -1 */
    u2d_osimdoc *d = &o->u->osim;
    int node = u2d_xml_ordinal(f), known = 0;
    for (int k = 0; k < d->nframe && !known; k++) known = d->frame[k].node == node;
    if (!where || known) return 0;
    if (grow(o, (void **)&d->frame, &o->capframe, d->nframe, sizeof *d->frame)) return -1;
    u2d_osim_frame *F = &d->frame[d->nframe++];
    memset(F, 0, sizeof *F);
    F->name = fname;
    F->joint = -1;
    F->kind = U2D_FRAME_OFFSET;
    F->link = *link;
    F->node = node;
    memcpy(F->translation, t, sizeof t);
    memcpy(F->orientation, a, sizeof a);
    return 0;
}

/* The first entry of joint's <coordinates> (OpenSim 3: <CoordinateSet>), in <objects> or
 * not; NULL for none. */
static u2d_xml *first_coordinate_entry(u2d_xml *joint)
{
    u2d_xml *list = u2d_xml_child(joint, "coordinates");
    if (!list) list = u2d_xml_child(joint, "CoordinateSet");
    u2d_xml *objects = list ? u2d_xml_child(list, "objects") : NULL;
    return list ? u2d_xml_first(objects ? objects : list) : NULL;
}

/* Whether joint's <coordinates> (OpenSim 3: <CoordinateSet>) hold a coordinate of name. */
static int joint_has_coordinate(u2d_xml *joint, const char *name)
{
    for (u2d_xml *c = first_coordinate_entry(joint); c; c = u2d_xml_next(c)) {
        const char *n = u2d_xml_attr(c, "name");
        if (strcmp(u2d_xml_name(c), "Coordinate") == 0 && n && strcmp(n, name) == 0) return 1;
    }
    return 0;
}

static char *name_not_among(const char *const *names, int n, const char *name, int *next);

/* A frame of joint named like one of its coordinates, which names the frame at: OpenSim 4.6
 * renames the frame, a later subcomponent repeating an earlier one's name
 * (Component::finalizeFromProperties: the coordinates come first), then finds a coordinate
 * where the socket looks for a frame, and initSystem fails ("Failed to connect Socket").
 * role says which frame; fix, what to rename. 0 when the names differ. The joint's socket
 * is said as the joint, another component's (a marker's, a frame's) as its element. */
static int refuse_frame_named_as_coordinate(osim *o, u2d_xml *joint, u2d_xml *at,
                                            const char *frame, const char *role,
                                            const char *fix)
{
    if (!joint_has_coordinate(joint, frame)) return 0;
    struct joint_parts *P = joint_part_names(o, joint);
    if (!P) return -1;
    /* its name among its joint's: a frame of <frames>, else one OpenSim 4.6 makes of an
     * OpenSim 3 joint, after the coordinates (the two it makes cannot rename each other:
     * <body>_offset_N names no body's frame) */
    const char *renamed = NULL;
    char *made = NULL;
    for (int i = P->ncoord; i < P->n && !renamed; i++)
        if (strcmp(u2d_xml_attr(P->parts[i], "name"), frame) == 0) renamed = P->names[i];
    if (!renamed &&
        !(renamed = made = name_not_among((const char *const *)P->names, P->n, frame, NULL)))
        return fail_at(o, NULL, "out of memory");
    char connected[40] = "the joint";
    if (at && at != joint && u2d_xml_child(joint, u2d_xml_name(at)) != at)
        snprintf(connected, sizeof connected, "<%.30s>", u2d_xml_name(at));
    /* 123 characters, the names at most 40 and the suffix 4 (_127), role 24, connected 32
     * and fix 56: within fail_at's 300 */
    fail_at(o, at, "coordinate '%.40s' has the name of %.24s: OpenSim 4.6 renames the frame "
            "'%.40s%.4s' and cannot connect %s to it (\"Failed to connect Socket\"); %.56s",
            frame, role, frame, renamed + strlen(frame), connected, fix);
    free(made);
    return -1;
}

/* Which frame of its joint socket element at names, for refuse_frame_named_as_coordinate. */
static const char *socket_role(u2d_xml *joint, u2d_xml *at)
{
    if (at == u2d_xml_child(joint, "socket_parent_frame")) return "the joint's parent frame";
    if (at == u2d_xml_child(joint, "socket_child_frame")) return "the joint's child frame";
    return "a frame of its joint";
}

/* name, or else name_0, name_1..., the first that names[0..n) does not hold, as OpenSim
 * 4.6 renames a subcomponent or a joint: malloc'd. next (NULL: none) is where the suffixes
 * of a name repeated many times resume, moved past the one given: names are only added, so
 * its first free suffix never decreases (no rescan from _0 for every repeat). */
static char *name_not_among(const char *const *names, int n, const char *name, int *next)
{
    size_t size = strlen(name) + 24;
    char *s = malloc(size);
    if (!s) return NULL;
    snprintf(s, size, "%s", name);
    for (int k = next ? *next : 0, taken = 1; taken; ) {
        taken = 0;
        for (int i = 0; i < n && !taken; i++) taken = strcmp(names[i], s) == 0;
        if (taken) snprintf(s, size, "%s_%d", name, k++);
        else if (next && k > *next) *next = k;
    }
    return s;
}

/* OpenSim names each of a joint's coordinates and frames against all before it: a bound
 * on how many keeps that naming's cost (cubic in them for names all alike) from a runaway
 * on a hostile file; real joints hold a handful. */
#define JOINT_PARTS_MAX 128

/* The first named-or-not entry of joint's list (<components>, <frames>): NULL for none. */
static u2d_xml *first_entry(u2d_xml *joint, const char *list)
{
    u2d_xml *l = u2d_xml_child(joint, list);
    return l ? u2d_xml_first(l) : NULL;
}

static void free_parts(struct joint_parts *P)
{
    for (int i = 0; i < P->n; i++) free(P->names[i]);
    free(P->names);
    free(P->parts);
    free(P->said);
}

/* Names joint's parts into P (zeroed by the caller) as joint_part_names says; -1 on
 * failure, P then holding what was named so far. */
static int name_joint_parts(osim *o, u2d_xml *joint, struct joint_parts *P)
{
    P->joint = joint;
    enum { COMPONENTS, COORDINATES, FRAMES };
    for (int list = COMPONENTS; list <= FRAMES; list++) {
        if (list == COORDINATES) P->ncomp = P->n;
        if (list == FRAMES) P->ncoord = P->n;
        for (u2d_xml *c = list == COORDINATES ? first_coordinate_entry(joint)
                          : first_entry(joint, list == FRAMES ? "frames" : "components");
             c; c = u2d_xml_next(c)) {
            const char *written = u2d_xml_attr(c, "name");
            if (!written || (list == COORDINATES && strcmp(u2d_xml_name(c), "Coordinate") != 0))
                continue;
            if (P->n == JOINT_PARTS_MAX) {
                const char *jname = u2d_xml_attr(joint, "name");
                char owner[300];
                snprintf(owner, sizeof owner, "joint '%.100s'", jname ? jname : "");
                /* the joint being read is named already, before the message (o->what) */
                return fail_at(o, joint, "%s holds more than %d components, coordinates and "
                               "frames, more than urdf2dyn reads in one joint: split its "
                               "frames among the Model's <components> in a copy",
                               strcmp(o->what, owner) == 0 ? "it" : owner, JOINT_PARTS_MAX);
            }
            if (grow(o, (void **)&P->names, &P->capnames, P->n, sizeof *P->names) ||
                grow(o, (void **)&P->parts, &P->capparts, P->n, sizeof *P->parts))
                return -1;
            if (!(P->names[P->n] = name_not_among((const char *const *)P->names, P->n,
                                                  written, NULL)))
                return fail_at(o, NULL, "out of memory");
            P->parts[P->n++] = c;
        }
    }
    if (!(P->said = calloc((size_t)P->n + 1, 1))) return fail_at(o, NULL, "out of memory");
    return 0;
}

/* OpenSim 4.6's names of joint's <components> (a property every Component has, named
 * first), its coordinates, then its frames: it names them in turn, each
 * by the name written unless one before it has that name already, then by name_0, else
 * name_1..., the first none before it has (Component::finalizeFromProperties, with a
 * warning): a frame written 'q' in a joint with a coordinate 'q' is 'q_0', and a socket
 * finds it by that name only. Named once per joint (o->jparts), since the sockets of every
 * frame, marker and path point on it ask; NULL on failure, which keeps nothing of the joint
 * (a failure excused for one path point is met again by the next one asking). */
static struct joint_parts *joint_part_names(osim *o, u2d_xml *joint)
{
    for (int k = 0; k < o->njparts; k++)
        if (o->jparts[k].joint == joint) return &o->jparts[k];
    struct joint_parts P;
    memset(&P, 0, sizeof P);
    if (name_joint_parts(o, joint, &P) ||
        grow(o, (void **)&o->jparts, &o->capjparts, o->njparts, sizeof *o->jparts)) {
        free_parts(&P);
        return NULL;
    }
    o->jparts[o->njparts] = P;
    return &o->jparts[o->njparts++];
}

static void free_joint_parts(osim *o)
{
    for (int k = 0; k < o->njparts; k++) free_parts(&o->jparts[k]);
    free(o->jparts);
}

/* The entry of joint's <frames> or <components> that OpenSim 4.6 names `name` (*found,
 * NULL for none; *renamed: written otherwise, and *said its flag that the renaming was said;
 * *component: of <components>), by joint_part_names. */
static int frame_opensim_names(osim *o, u2d_xml *joint, const char *name, u2d_xml **found,
                               int *renamed, unsigned char **said, int *component)
{
    struct joint_parts *P = joint_part_names(o, joint);
    *found = NULL;
    if (!P) return -1;
    for (int i = 0; i < P->n && !*found; i++)
        if ((i < P->ncomp || i >= P->ncoord) && strcmp(P->names[i], name) == 0) {
            *found = P->parts[i];
            *renamed = strcmp(u2d_xml_attr(P->parts[i], "name"), name) != 0;
            *said = &P->said[i];
            *component = i < P->ncomp;
        }
    return 0;
}

/* Joint's component f, a frame a socket names: read as the Model's components are, by its
 * absolute path (/jointset/joint/f), which its own relative sockets are seen from. */
static int joint_component_frame(osim *o, u2d_xml *joint, u2d_xml *f, int depth, int *link,
                                 u2d_xform *X)
{
    char where[512];
    snprintf(where, sizeof where, "/jointset/%.200s/%.200s", joint_path_name(o, joint),
             u2d_xml_attr(f, "name"));
    return offset_frame(o, NULL, f, where, depth, link, X);
}

/* Refuses socket element at, whose path names p (absolute), no frame or body. */
static int refuse_no_such_frame(osim *o, u2d_xml *at, const char *p)
{
    /* 167 characters, the element 20 twice, the path written 30 and read 60: within
     * fail_at's 300 */
    const char *elem = u2d_xml_name(at);
    return fail_at(o, at, "<%.20s>%.30s</%.20s> names '%.60s': no such frame, and OpenSim 4.6 "
                   "cannot connect it (it reads a relative path from the socket's owner); "
                   "write /bodyset/<body> or /jointset/<joint>/<frame>",
                   elem, u2d_xml_text(at), elem, p);
}

/* The frame that path ref names, seen from joint (whose <frames> relative names refer
 * to): the link it is fixed on and the transform from that link's frame to it. */
static int resolve_frame(osim *o, u2d_xml *joint, u2d_xml *at, const char *ref, int depth,
                         int *link, u2d_xform *X)
{
    char path[512];
    snprintf(path, sizeof path, "%s", ref);
    size_t n = strlen(path);
    while (n > 0 && u2d_is_blank(path[n - 1])) path[--n] = '\0';
    const char *p = path;
    while (u2d_is_blank(*p)) p++;
    if (!*p) return fail_at(o, at, "<%s> is empty: name the frame", u2d_xml_name(at));
    if (depth > MAX_FRAME_DEPTH)
        return fail_at(o, at, "frame '%.100s': offset frames nest more than %d deep (a cycle?)",
                       p, MAX_FRAME_DEPTH);
    char normal[512];
    int absolute = p[0] == '/';
    if (absolute) {                 /* OpenSim 4.6 reads an absolute path normalized */
        if (join_path("", p, normal, sizeof normal))
            return fail_at(o, at, "<%s>%.100s</%s>: no such body or frame (the path climbs "
                           "above the model)", u2d_xml_name(at), p, u2d_xml_name(at));
        p = normal;
    }
    const char *last = strrchr(p, '/');
    last = last ? last + 1 : p;

    /* an absolute path names a joint's frame under /jointset/ only, and a body as
     * /bodyset/<body> or /ground, not by its last name ("/ground/b": OpenSim finds none) */
    u2d_xml *frames_of = absolute ? NULL : joint;
    int absolute_body = (strncmp(p, "/bodyset/", 9) == 0 && !strchr(p + 9, '/')) ||
                        strcmp(p, "/ground") == 0;
    int in_jointset = strncmp(p, "/jointset/", 10) == 0;
    if (in_jointset) {                              /* a joint's frame, by its path */
        char jname[256];
        const char *q = p + 10, *slash = strchr(q, '/');
        size_t len = slash ? (size_t)(slash - q) : strlen(q);
        if (len >= sizeof jname) len = sizeof jname - 1;
        memcpy(jname, q, len);
        jname[len] = '\0';
        frames_of = joint_named(o, jname);
        /* a joint's frame is /jointset/<joint>/<frame>: OpenSim 4.6 finds nothing deeper,
         * nor under a joint the JointSet does not hold ("Failed to connect Socket") */
        if (!frames_of || !slash || !slash[1] || strchr(slash + 1, '/'))
            return refuse_no_such_frame(o, at, p);
    }
    /* a frame of a <components> list: the Model's (OpenSim 4 models may declare frames
     * there and name them "/frame") or a component's own, a body's included */
    u2d_xml *component = p[0] == '/' ? component_at(o, p) : NULL;
    if (component) return offset_frame(o, NULL, component, p, depth, link, X);
    /* an absolute path names a body by its whole path, /bodyset/<body>: OpenSim 4.6 finds
     * none by a last name ("Failed to connect Socket") */
    if (absolute && !in_jointset && !absolute_body) return refuse_no_such_frame(o, at, p);
    if (!absolute_body && frames_of) {
        u2d_xml *f;
        int renamed = 0, in_components = 0;
        unsigned char *said = NULL;
        if (frame_opensim_names(o, frames_of, last, &f, &renamed, &said, &in_components))
            return -1;
        /* a frame written `last` that OpenSim renamed: its coordinate of that name is what
         * OpenSim finds */
        if (!f && find_named(u2d_xml_child(frames_of, "frames"), last) &&
            refuse_frame_named_as_coordinate(o, frames_of, at, last, socket_role(frames_of, at),
                                             "rename the frame (and the sockets naming it) in "
                                             "a copy"))
            return -1;
        if (!f && in_jointset) return refuse_no_such_frame(o, at, p);
        if (f && in_components) return joint_component_frame(o, frames_of, f, depth, link, X);
        if (f) {
            const char *fname = u2d_xml_attr(f, "name");
            /* OpenSim 4.6 finds no other kind there (a joint's frames property holds
             * PhysicalOffsetFrames) and fails to load the model */
            if (strcmp(u2d_xml_name(f), "PhysicalOffsetFrame") != 0)
                return fail_at(o, f, "<%s name=\"%.100s\">: a joint's <frames> holds "
                               "PhysicalOffsetFrames only (OpenSim 4.6 does not find another "
                               "kind there); move it to the Model's <components>",
                               u2d_xml_name(f), fname);
            const char *jname = u2d_xml_attr(frames_of, "name");
            if (renamed && !*said) {        /* once, however many sockets name it */
                *said = 1;
                note(o, at, "frame '%.100s' of joint '%.100s' has the name of a component, "
                     "coordinate or frame before it in the joint: OpenSim 4.6 renames it "
                     "'%.100s', the name <%s> gives, and so does urdf2dyn (rename it in a copy "
                     "to say so)", fname, jname ? jname : "", last, u2d_xml_name(at));
            }
            return offset_frame(o, frames_of, f, NULL, depth, link, X);
        }
    }
    /* ground is /ground: /bodyset/ground names no body */
    int l = strcmp(absolute ? p : last, absolute ? "/ground" : "ground") == 0 ? 0 : -1;
    for (int i = 1; i <= o->nbody && l < 0; i++)
        if (strcmp(o->u->link[i].name, last) == 0) l = i;
    const char *written = u2d_xml_text(at);
    while (u2d_is_blank(*written)) written++;
    size_t wlen = strlen(written);
    while (wlen > 0 && u2d_is_blank(written[wlen - 1])) wlen--;
    if (l < 0 && (wlen != strlen(p) || strncmp(written, p, wlen) != 0))
        /* a relative path: the element and the path it is read as */
        return fail_at(o, at, "<%s>%.*s</%s> names '%.100s': no such body or frame",
                       u2d_xml_name(at), wlen < 90 ? (int)wlen : 90, written,
                       u2d_xml_name(at), p);
    if (l < 0)
        return fail_at(o, at, "<%s>%.100s</%s>: no such body or frame", u2d_xml_name(at), p,
                       u2d_xml_name(at));
    *link = l;
    u2d_xform_identity(X);
    return 0;
}

/* ---- functions ----------------------------------------------------------------- */

static int is_function_name(const char *name)
{
    size_t n = strlen(name);
    return strcmp(name, "Constant") == 0 || strcmp(name, "Sine") == 0 ||
           (n > 8 && strcmp(name + n - 8, "Function") == 0) ||
           (n > 6 && strcmp(name + n - 6, "Spline") == 0);
}

/* The function element of node: a <function> (or OpenSim 2's <xfunction>) wrapper's
 * element, or a child that is a function itself; NULL when there is none. */
static u2d_xml *function_node(u2d_xml *node)
{
    for (u2d_xml *c = u2d_xml_first(node); c; c = u2d_xml_next(c)) {
        const char *name = u2d_xml_name(c);
        if (strcmp(name, "function") == 0 || strcmp(name, "xfunction") == 0)
            return u2d_xml_first(c);
        if (is_function_name(name)) return c;
    }
    return NULL;
}

static int new_function(osim *o, int kind, int n, int ndata)
{
    u2d_urdf *u = o->u;
    if (grow(o, (void **)&u->func, &o->capfunc, u->nfunc, sizeof *u->func)) return -1;
    while (u->nfdata + ndata > o->capfdata) {
        int want = o->capfdata ? 2 * o->capfdata : 64;
        double *q = realloc(u->fdata, (size_t)want * sizeof *q);
        if (!q) return fail_at(o, NULL, "out of memory");
        u->fdata = q;
        o->capfdata = want;
    }
    u2d_function *f = &u->func[u->nfunc];
    *f = (u2d_function){kind, n, u->nfdata, -1, 1.0};
    u->nfdata += ndata;
    return u->nfunc++;
}

/* x and y knots of a spline or piecewise-linear function: data gets x then y. */
static int read_knots(osim *o, u2d_xml *fn, int per_knot, int kind)
{
    const char *name = u2d_xml_name(fn);
    u2d_xml *xs = u2d_xml_child(fn, "x"), *ys = u2d_xml_child(fn, "y");
    if (!xs || !ys) return fail_at(o, fn, "<%s> needs <x> and <y> knots", name);
    /* a number takes at least two characters of text (digit and blank), the last one */
    size_t room = (strlen(u2d_xml_text(xs)) > strlen(u2d_xml_text(ys))
                   ? strlen(u2d_xml_text(xs)) : strlen(u2d_xml_text(ys))) / 2 + 2;
    int max = room < MAX_KNOTS ? (int)room : MAX_KNOTS;
    double *tmp = malloc(2 * sizeof(double) * (size_t)max);
    if (!tmp) return fail_at(o, fn, "out of memory");
    int nx = read_text_numbers(o, xs, 0, max, tmp);
    int ny = nx < 0 ? -1 : read_text_numbers(o, ys, 0, max, tmp + max);
    if (ny < 0) { free(tmp); return -1; }
    if (nx != ny) {
        free(tmp);
        return fail_at(o, fn, "<%s>: %d x knots but %d y values", name, nx, ny);
    }
    if (nx < 2) {
        free(tmp);
        return fail_at(o, fn, "<%s>: %d knot%s; a function needs at least 2", name, nx,
                       nx == 1 ? "" : "s");
    }
    for (int k = 1; k < nx; k++)
        if (!(tmp[k] > tmp[k - 1])) {
            double a = tmp[k - 1], b = tmp[k];
            free(tmp);
            return fail_at(o, xs, "<%s><x>: knots must increase, but knot %d (%g) follows "
                           "%g", name, k + 1, b, a);
        }
    int f = new_function(o, kind, nx, per_knot * nx);
    if (f < 0) { free(tmp); return -1; }
    double *d = o->u->fdata + o->u->func[f].at;
    memcpy(d, tmp, sizeof(double) * (size_t)nx);
    memcpy(d + nx, tmp + max, sizeof(double) * (size_t)nx);
    free(tmp);
    return f;
}

static int read_function(osim *o, u2d_xml *fn, int depth)
{
    const char *name = u2d_xml_name(fn);
    double v[2];
    if (depth > MAX_FUNC_DEPTH)
        return fail_at(o, fn, "<%s>: functions nest more than %d deep", name, MAX_FUNC_DEPTH);
    if (strcmp(name, "Constant") == 0) {
        v[0] = 0.0;
        if (read_child(o, fn, "value", 1, v)) return -1;
        int f = new_function(o, U2D_FN_CONSTANT, 1, 1);
        if (f >= 0) o->u->fdata[o->u->func[f].at] = v[0];
        return f;
    }
    if (strcmp(name, "LinearFunction") == 0) {
        v[0] = 1.0; v[1] = 0.0;
        if (read_child(o, fn, "coefficients", 2, v)) return -1;
        int f = new_function(o, U2D_FN_LINEAR, 2, 2);
        if (f >= 0) memcpy(o->u->fdata + o->u->func[f].at, v, sizeof v);
        return f;
    }
    if (strcmp(name, "PolynomialFunction") == 0) {
        double c[64] = {1.0};
        int n = 1;
        u2d_xml *cs = u2d_xml_child(fn, "coefficients");
        if (cs && (n = read_text_numbers(o, cs, 0, 64, c)) < 0) return -1;
        if (n == 0) return fail_at(o, cs, "<PolynomialFunction><coefficients> is empty");
        int f = new_function(o, U2D_FN_POLYNOMIAL, n, n);
        if (f >= 0) memcpy(o->u->fdata + o->u->func[f].at, c, sizeof(double) * (size_t)n);
        return f;
    }
    /* OpenSim 4 reads the old NaturalCubicSpline, and its older natCubicSpline (opensim-core's
     * OpenSim/Tools/Test/gait2354_simbody.osim), as a SimmSpline (renameType in
     * RegisterTypes_osimCommon.cpp): the name never was a natural spline */
    if (strcmp(name, "SimmSpline") == 0 || strcmp(name, "NaturalCubicSpline") == 0
            || strcmp(name, "natCubicSpline") == 0) {
        int f = read_knots(o, fn, 5, U2D_FN_SIMM_SPLINE);
        if (f >= 0) u2d_simm_spline_fit(o->u->func[f].n, o->u->fdata + o->u->func[f].at);
        return f;
    }
    if (strcmp(name, "PiecewiseLinearFunction") == 0) {
        int f = read_knots(o, fn, 3, U2D_FN_PIECEWISE_LINEAR);
        if (f < 0) return f;
        int n = o->u->func[f].n;
        double *x = o->u->fdata + o->u->func[f].at, *y = x + n, *b = y + n;
        for (int k = 0; k < n - 1; k++) b[k] = (y[k + 1] - y[k]) / fmax(1e-7, x[k + 1] - x[k]);
        b[n - 1] = b[n - 2];
        return f;
    }
    if (strcmp(name, "MultiplierFunction") == 0) {
        v[0] = 1.0;
        if (read_child(o, fn, "scale", 1, v)) return -1;
        u2d_xml *inner = function_node(fn);
        if (!inner) return fail_at(o, fn, "<MultiplierFunction> has no function to scale");
        int g = read_function(o, inner, depth + 1);
        if (g < 0) return -1;
        int f = new_function(o, U2D_FN_MULTIPLIER, 0, 0);
        if (f >= 0) { o->u->func[f].inner = g; o->u->func[f].scale = v[0]; }
        return f;
    }
    return fail_at(o, fn, "<%s>: unsupported function (urdf2dyn reads Constant, "
                   "LinearFunction, PolynomialFunction, SimmSpline (or NaturalCubicSpline "
                   "and natCubicSpline, its old names), PiecewiseLinearFunction and "
                   "MultiplierFunction)", name);
}

/* ---- coordinates and joints --------------------------------------------------- */

/* The range OpenSim 4.6 gives a <Coordinate> without <range> (Coordinate's property
 * default, Coordinate().getRangeMin/Max): its IK and setValue keep a clamped one in it. */
#define OSIM_DEFAULT_RANGE 10.0

static const char *own_name(osim *o, const char *a, const char *b);

/* A clamped coordinate's range reversed, or its default outside it by more than SimTK's
 * SqrtEps: OpenSim 4.6 refuses to load the model (Coordinate::extendFinalizeFromProperties,
 * which checks the range's order first), whose IK would keep it in no range or start
 * outside the bounds it keeps. */
#define SIMTK_SQRT_EPS 1.4901161193847656e-08
static int refuse_clamped_default_outside(osim *o, u2d_xml *c, const u2d_coordinate *C)
{
    double dv = C->default_value;
    if (C->clamped && C->range[0] > C->range[1])
        return fail_at(o, c, "coordinate '%.100s' is clamped to a reversed <range> %.17g "
                       "%.17g: OpenSim 4.6 refuses to load it (\"Maximum coordinate range "
                       "less than minimum\"); write the range lower bound first, or unclamp it",
                       C->name, C->range[0], C->range[1]);
    int above = dv > C->range[0] - SIMTK_SQRT_EPS;
    if (!C->clamped || (above && dv < C->range[1] + SIMTK_SQRT_EPS)) return 0;
    return fail_at(o, c, "coordinate '%.100s' is clamped to %.17g %.17g but its "
                   "<default_value> is %.17g: OpenSim 4.6 refuses to load it (\"Default "
                   "coordinate value is %s\"); give a default inside the range or unclamp it",
                   C->name, C->range[0], C->range[1], dv,
                   above ? "greater than range maximum" : "less than range minimum");
}


static int coordinate_named(const u2d_urdf *u, int from, const char *name)
{
    for (int k = from; k < u->ncoord; k++)
        if (strcmp(u->coord[k].name, name) == 0) return k;
    return -1;
}

/* Coordinate c of joint repeating the name of a component or coordinate before it in the
 * joint: OpenSim 4.6 renames it, as any subcomponent repeating a sibling's name, to name_0,
 * else name_1..., the first free (joint_part_names), with a warning; *name becomes that. */
static int rename_within_joint(osim *o, u2d_xml *joint, u2d_xml *c, const char **name)
{
    struct joint_parts *P = joint_part_names(o, joint);
    if (!P) return -1;
    int i = P->ncomp;
    while (i < P->ncoord && P->parts[i] != c) i++;
    if (i == P->ncoord || strcmp(P->names[i], *name) == 0) return 0;
    const char *owned = own_name(o, P->names[i], ""), *taker = "coordinate";
    if (!owned) return -1;
    for (int k = 0; k < P->ncomp; k++)
        if (strcmp(P->names[k], *name) == 0) taker = "component";
    note(o, c, "a %s named '%.100s' came before in this joint: named '%.100s', as OpenSim "
         "4.6 renames it (rename one of them in the file to choose)", taker, *name, owned);
    *name = owned;
    return 0;
}

/* A coordinate with the name of another joint's: OpenSim 4.6 loads both, told apart by
 * their paths only, while its tools' motion files name coordinates alone (its inverse
 * dynamics fills both from one column of that name): urdf2dyn's q_names are the names. */
static int refuse_name_of_another_joint(osim *o, u2d_xml *c, const char *name)
{
    int k = coordinate_named(o->u, 0, name);
    if (k < 0) return 0;
    const char *other = o->u->joint[o->u->coord[k].joint].name;
    return fail_at(o, c, "coordinate '%.40s' has the name of joint '%.40s''s (/jointset/"
                   "%.40s/%.40s): OpenSim 4.6 loads both, told apart by path, but its motion "
                   "files name coordinates alone (its inverse dynamics reads one '%.40s' "
                   "column into both); rename one in a copy of the file", name, other, other,
                   name, name);
}

/* The first <Coordinate> in the Model's <defaults>: OpenSim 4.6 (in OpenSim 3 files too)
 * makes every coordinate from it, so what it writes stands for a property a coordinate does
 * not write; a later one there is ignored (Object::updateDefaultObjectsFromXMLNode). */
static u2d_xml *default_coordinate(osim *o)
{
    u2d_xml *defaults = o->model ? u2d_xml_child(o->model, "defaults") : NULL;
    return defaults ? u2d_xml_child(defaults, "Coordinate") : NULL;
}

/* Where coordinate c's property elem is read from: the default coordinate (fallback, from
 * default_coordinate; NULL for none) where it writes elem and c does not, else c. */
static u2d_xml *property_owner(u2d_xml *c, u2d_xml *fallback, const char *elem)
{
    return !writes(c, elem) && writes(fallback, elem) ? fallback : c;
}

/* Whether a finding on holder's <range> is to be said: the <defaults> Coordinate's, which
 * every coordinate writing no range of its own reads, is said once (for the first of them,
 * naming the others, default_range_also), a coordinate's own always. */
static int says_range_of(osim *o, u2d_xml *holder)
{
    if (holder != default_coordinate(o)) return 1;
    if (o->said_default_range) return 0;
    o->said_default_range = 1;
    return 1;
}

/* What a finding on holder's <range> adds for the <defaults> Coordinate's (says_range_of). */
static const char *default_range_also(osim *o, u2d_xml *holder)
{
    return holder == default_coordinate(o) ? " (and each coordinate after it without a "
                                             "<range>: the <defaults> one's, said once)" : "";
}

/* Says that OpenSim 4.6 ignores holder's <range> for coordinate C (why, from read_range; bad
 * at the token it reads no number from), which then has C->range. */
static void note_ignored_range(osim *o, u2d_xml *holder, const u2d_coordinate *C, int why,
                               const char *bad)
{
    if (!says_range_of(o, holder)) return;
    u2d_xml *ignored = u2d_xml_child(holder, "range");
    char reason[96];
    if (why == RANGE_ONE_NUMBER)
        snprintf(reason, sizeof reason, "is one number, which OpenSim 4.6 ignores");
    else
        snprintf(reason, sizeof reason, "holds '%.*s', not a number to OpenSim 4.6, which "
                 "ignores the range", utf8_cut(bad, token_length(bad) < 30 ?
                                                    token_length(bad) : 30), bad);
    note(o, ignored, "coordinate '%.100s'%s: <range>%.40s</range> %s: read as its range %g %g, "
         "as OpenSim reads it; write two numbers, lower then upper", C->name,
         default_range_also(o, holder), u2d_xml_text(ignored), reason, C->range[0],
         C->range[1]);
}

/* Coordinate c's range as OpenSim 4.6 reads it: its own <range>, else (none, empty, or one
 * it ignores: read_range) the default coordinate's (fallback, from default_coordinate), else
 * OSIM_DEFAULT_RANGE, already in C->range; each ignored one said, with the token it holds. */
static int read_coordinate_range(osim *o, u2d_xml *c, u2d_xml *fallback, u2d_coordinate *C)
{
    const char *bad_own = NULL, *bad_given = NULL;
    int own = read_range(o, c, C->name, C->range, &C->range_written, &bad_own), given = 0;
    if (own < 0 || (!C->range_written && fallback &&
                    (given = read_range(o, fallback, C->name, C->range, &C->range_written,
                                        &bad_given)) < 0))
        return -1;
    if (own) note_ignored_range(o, c, C, own, bad_own);
    if (given) note_ignored_range(o, fallback, C, given, bad_given);
    return 0;
}

/* A <range> end written NaN: OpenSim 4.6 refuses the model when the coordinate is clamped
 * (its check that the lower end is not above the upper fails), and keeps it otherwise, a
 * range that bounds nothing, since OpenSim bounds an unclamped coordinate by nothing: read as
 * no bound at that end (a NaN end would put every value outside the range), said. */
static int read_nan_range_end_as_no_bound(osim *o, u2d_xml *c, u2d_coordinate *C)
{
    double *r = C->range;
    if (!isnan(r[0]) && !isnan(r[1])) return 0;
    if (C->clamped)
        return fail_at(o, c, "coordinate '%.100s' is clamped to a <range> with a NaN end (%g %g): "
                       "OpenSim 4.6 refuses to load it (\"Maximum coordinate range less than "
                       "minimum\"); write a number for each end (or -inf inf), or unclamp it",
                       C->name, r[0], r[1]);
    double read[2] = {isnan(r[0]) ? -INFINITY : r[0], isnan(r[1]) ? INFINITY : r[1]};
    C->nan_ends = isnan(r[0]) | isnan(r[1]) << 1;
    note(o, c, "coordinate '%.100s': <range> %g %g has a NaN end, which OpenSim 4.6 keeps for "
         "an unclamped coordinate, bounding nothing: read as %g %g (no bound at a NaN end); "
         "write a number for each end (or -inf inf) to choose", C->name, r[0], r[1], read[0],
         read[1]);
    memcpy(r, read, sizeof read);
    return 0;
}

static int read_coordinates(osim *o, u2d_xml *node, u2d_xml *list, int joint, int *count)
{
    u2d_urdf *u = o->u;
    u2d_xml *fallback = default_coordinate(o);
    *count = 0;
    if (!list) return 0;
    u2d_xml *objects = u2d_xml_child(list, "objects");
    for (u2d_xml *c = u2d_xml_first(objects ? objects : list); c; c = u2d_xml_next(c)) {
        if (strcmp(u2d_xml_name(c), "Coordinate") != 0) continue;
        if (grow(o, (void **)&u->coord, &o->capcoord, u->ncoord, sizeof *u->coord)) return -1;
        u2d_coordinate *C = &u->coord[u->ncoord];
        memset(C, 0, sizeof *C);
        C->name = u2d_xml_attr(c, "name");
        if (!C->name || !C->name[0]) return fail_at(o, c, "<Coordinate> has no name");
        if (rename_within_joint(o, node, c, &C->name) ||
            refuse_name_of_another_joint(o, c, C->name)) return -1;
        C->joint = joint;
        C->range[0] = -OSIM_DEFAULT_RANGE;
        C->range[1] = OSIM_DEFAULT_RANGE;
        if (read_child(o, property_owner(c, fallback, "default_value"), "default_value", 1,
                       &C->default_value) ||
            read_coordinate_range(o, c, fallback, C) ||
            read_flag(o, property_owner(c, fallback, "locked"), "locked", &C->locked) ||
            read_flag(o, property_owner(c, fallback, "clamped"), "clamped", &C->clamped))
            return -1;
        if (read_nan_range_end_as_no_bound(o, c, C) || refuse_clamped_default_outside(o, c, C))
            return -1;
        if (C->range[0] > C->range[1])
            note(o, c, "coordinate '%.100s': <range> %g %g is reversed", C->name, C->range[0],
                 C->range[1]);
        char mt[32];
        read_word(c, "motion_type", mt, sizeof mt);
        C->motion = strcmp(mt, "translational") == 0 ? 1 : strcmp(mt, "coupled") == 0 ? 2
                  : mt[0] ? 0 : -1;
        u->ncoord++;
        if (++*count > 6) return fail_at(o, c, "a joint has at most 6 coordinates");
    }
    return 0;
}

/* Motion type as OpenSim 4 derives it: a coordinate moving an axis through a linear
 * function of slope +-1 is rotational or translational, any other is coupled. */
static void derive_motion(osim *o, const u2d_custom *C, int coord0)
{
    for (int c = 0; c < C->ncoord; c++) {
        u2d_coordinate *K = &o->u->coord[coord0 + c];
        if (K->motion >= 0) continue;
        int mt = -1;
        for (int k = 0; k < 6; k++) {
            if (C->coord[k] != c) continue;
            const u2d_function *f = &o->u->func[C->func[k]];
            double slope = f->kind == U2D_FN_LINEAR ? o->u->fdata[f->at] : 0.0;
            if (slope == 1.0 || slope == -1.0) mt = k < 3 ? 0 : 1;
            else if (mt < 0) mt = 2;
        }
        K->motion = mt < 0 ? 0 : mt;
    }
}

/* A joint type other than CustomJoint as six axes: axis k driven by coordinate map[k]
 * (-1: held at zero) through the identity. */
static int standard_axes(osim *o, u2d_custom *C, const int map[6], const double axes[18])
{
    for (int k = 0; k < 6; k++) {
        int f = map[k] >= 0 ? new_function(o, U2D_FN_LINEAR, 2, 2)
                            : new_function(o, U2D_FN_CONSTANT, 1, 1);
        if (f < 0) return -1;
        double *d = o->u->fdata + o->u->func[f].at;
        d[0] = map[k] >= 0 ? 1.0 : 0.0;
        if (map[k] >= 0) d[1] = 0.0;
        C->func[k] = f;
        C->coord[k] = map[k];
    }
    memcpy(C->axis, axes, sizeof C->axis);
    return 0;
}

static int read_spatial_transform(osim *o, u2d_xml *st, u2d_custom *C, int coord0,
                                  int *axis_ordinal)
{
    static const char *names[6] = {"rotation1", "rotation2", "rotation3",
                                   "translation1", "translation2", "translation3"};
    u2d_xml *axis_node[6] = {NULL};
    if (!st) return fail_at(o, NULL, "<CustomJoint> has no <SpatialTransform>");
    int order = 0;
    for (u2d_xml *t = u2d_xml_first(st); t; t = u2d_xml_next(t)) {
        if (strcmp(u2d_xml_name(t), "TransformAxis") != 0) continue;
        const char *name = u2d_xml_attr(t, "name");
        int k = -1;
        for (int j = 0; j < 6 && name; j++)
            if (strcmp(name, names[j]) == 0) k = j;
        if (k < 0) k = order;
        order++;
        if (k >= 6 || axis_node[k])
            return fail_at(o, t, "<TransformAxis name=\"%.60s\">: a SpatialTransform has six "
                           "axes, rotation1..3 and translation1..3, each once",
                           name ? name : "");
        axis_node[k] = t;
    }
    for (int k = 0; k < 6; k++) {
        u2d_xml *t = axis_node[k];
        double *a = &C->axis[3 * k];
        a[0] = a[1] = a[2] = 0.0;
        a[k % 3] = 1.0;                     /* OpenSim's default axes: x, y, z */
        C->coord[k] = -1;
        C->func[k] = -1;
        if (!t) {
            C->func[k] = new_function(o, U2D_FN_CONSTANT, 1, 1);
            if (C->func[k] < 0) return -1;
            o->u->fdata[o->u->func[C->func[k]].at] = 0.0;
            continue;
        }
        if (read_child(o, t, "axis", 3, a)) return -1;
        double norm = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        if (!(norm > 1e-12)) return fail_at(o, t, "<TransformAxis name=\"%s\"><axis> is zero",
                                            names[k]);
        for (int r = 0; r < 3; r++) a[r] /= norm;

        char words[512], first[256] = "", second[256] = "";
        read_word(t, "coordinates", words, sizeof words);
        int nw = sscanf(words, "%255s %255s", first, second);
        if (nw == 2)
            return fail_at(o, t, "<TransformAxis name=\"%s\">: functions of several coordinates "
                           "(%.60s) are not supported", names[k], words);
        if (nw == 1) {
            for (int c = 0; c < C->ncoord; c++)
                if (strcmp(o->u->coord[coord0 + c].name, first) == 0) C->coord[k] = c;
            if (C->coord[k] < 0)
                return fail_at(o, t, "<TransformAxis name=\"%s\"><coordinates>%.100s: not a "
                               "coordinate of this joint", names[k], first);
        }
        u2d_xml *fn = function_node(t);
        axis_ordinal[k] = u2d_xml_ordinal(fn);
        if (fn) C->func[k] = read_function(o, fn, 0);
        else if (C->coord[k] >= 0) {            /* OpenSim's default: the identity */
            C->func[k] = new_function(o, U2D_FN_LINEAR, 2, 2);
            if (C->func[k] >= 0) {
                o->u->fdata[o->u->func[C->func[k]].at] = 1.0;
                o->u->fdata[o->u->func[C->func[k]].at + 1] = 0.0;
            }
        } else {
            C->func[k] = new_function(o, U2D_FN_CONSTANT, 1, 1);
            if (C->func[k] >= 0) o->u->fdata[o->u->func[C->func[k]].at] = 0.0;
        }
        if (C->func[k] < 0) return -1;
    }
    /* Simbody refuses collinear axes within the rotations or the translations. */
    for (int g = 0; g < 6; g += 3)
        for (int i = g; i < g + 3; i++)
            for (int j = i + 1; j < g + 3; j++) {
                double c[3];
                u2d_cross3(&C->axis[3 * i], &C->axis[3 * j], c);
                if (sqrt(u2d_dot3(c, c)) < 1e-5)
                    return fail_at(o, axis_node[j] ? axis_node[j] : st, "<TransformAxis> %s "
                                   "and %s are collinear (OpenSim refuses such a joint)",
                                   names[i], names[j]);
            }
    for (int c = 0; c < C->ncoord; c++) {
        int used = 0;
        for (int k = 0; k < 6; k++) used |= C->coord[k] == c;
        if (!used)
            note(o, st, "coordinate '%.100s' moves no transform axis: it has no effect and its "
                 "generalized force is zero", o->u->coord[coord0 + c].name);
    }
    return 0;
}

/* Add link name (massless) and return its index. */
static int add_link(osim *o, const char *name, u2d_xml *node)
{
    u2d_urdf *u = o->u;
    if (grow(o, (void **)&u->link, &o->caplink, u->nlink, sizeof *u->link)) return -1;
    if (grow(o, (void **)&u->osim.link_node, &o->caplinknode, u->nlink, sizeof(int))) return -1;
    u2d_urdf_link *L = &u->link[u->nlink];
    memset(L, 0, sizeof *L);
    L->name = name;
    L->line = node ? u2d_xml_line(node) : 0;
    int body = node && (strcmp(u2d_xml_name(node), "Body") == 0 ||
                        strcmp(u2d_xml_name(node), "Ground") == 0);
    u->osim.link_node[u->nlink] = body ? u2d_xml_ordinal(node) : -1;
    return u->nlink++;
}

static u2d_urdf_joint *add_joint(osim *o, const char *name, int line)
{
    u2d_urdf *u = o->u;
    if (grow(o, (void **)&u->joint, &o->capjoint, u->njoint, sizeof *u->joint)) return NULL;
    u2d_urdf_joint *J = &u->joint[u->njoint++];
    memset(J, 0, sizeof *J);
    J->name = name;
    J->line = line;
    J->custom = -1;
    J->coord0 = -1;
    J->axis[0] = 1.0;
    return J;
}

static const char *own_name(osim *o, const char *a, const char *b)
{
    if (grow(o, (void **)&o->owned, &o->capowned, o->nowned, sizeof *o->owned)) return NULL;
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    if (!s) { fail_at(o, NULL, "out of memory"); return NULL; }
    snprintf(s, n, "%s%s", a, b);
    o->owned[o->nowned++] = s;
    return s;
}

/* The name OpenSim gives joint node, recorded as o->jname's last: its name attribute or,
 * when it has none (OpenSim 2 and 3 files leave joints unnamed), its class in lower case
 * ("pinjoint"); a name an earlier joint has is given the first free suffix _0, _1, ...
 * (OpenSim 4.6 names two unnamed PinJoints pinjoint and pinjoint_0, and a second joint
 * named a, a_0). The renaming of a name written twice is said. */
static int name_joint(osim *o, u2d_xml *node)
{
    const char *given = u2d_xml_attr(node, "name"), *type = u2d_xml_name(node);
    char base[256];
    size_t n = 0;
    if (given && given[0]) snprintf(base, sizeof base, "%s", given);
    else {
        for (; type[n] && n < sizeof base - 1; n++)
            base[n] = (char)(type[n] >= 'A' && type[n] <= 'Z' ? type[n] - 'A' + 'a' : type[n]);
        base[n] = '\0';
    }
    int first = -1;
    for (int k = 0; k < o->njname && first < 0; k++)
        if (strcmp(o->jname[k], base) == 0) first = k;
    /* the suffixes of a base resume where the last joint named after it took one */
    char *name = name_not_among(o->jname, o->njname, base,
                                first >= 0 ? &o->jnext[first] : NULL);
    if (!name) return fail_at(o, NULL, "out of memory");
    const char *owned = own_name(o, name, "");
    free(name);
    if (!owned || grow(o, (void **)&o->jname, &o->capjname, o->njname, sizeof *o->jname) ||
        grow(o, (void **)&o->jnext, &o->capjnext, o->njname, sizeof *o->jnext) ||
        grow(o, (void **)&o->jnode, &o->capjnode, o->njname, sizeof *o->jnode))
        return -1;
    o->jnext[o->njname] = 0;
    o->jnode[o->njname] = node;
    o->jname[o->njname++] = owned;
    snprintf(o->what, sizeof o->what, "joint '%.200s'", owned);
    if (given && given[0] && strcmp(given, owned) != 0)
        note(o, node, "a joint named '%.100s' came before: named '%.100s', as OpenSim names "
             "it (rename one of them to keep both names)", given, owned);
    return 0;
}

/* OpenSim's EllipsoidJoint (3 coordinates) and ScapulothoracicJoint (4) as one ELLIPSOID
 * joint: its radii, body-fixed rotation axes and winging pin (u2d_model.h, u2d_joint.c).
 * The ScapulothoracicJoint (opensim-core ScapulothoracicJoint.cpp) puts Simbody's Ellipsoid
 * mobilizer between frames turned by Rz(pi/2) from the joint's parent and intermediate
 * frames, with the radii given as (ry, rx, rz): from the joint frame, that is an ellipsoid
 * of radii (rx, ry, rz) turning about y, then -x, then z. Its winging pin turns about
 * (-sin a, cos a, 0) through (ox, oy, 0) of the intermediate frame. */
static int read_ellipsoid(osim *o, u2d_xml *node, u2d_urdf_joint *J, int scapula, int body)
{
    static const double nan3[3] = {NAN, NAN, NAN};
    double *P = J->ellipsoid, origin[2] = {0.0, 0.0}, angle = 0.0;
    const char *radii = scapula ? "thoracic_ellipsoid_radii_x_y_z" : "radii_x_y_z";
    memset(P, 0, sizeof J->ellipsoid);
    J->ellipsoid_node = u2d_xml_ordinal(node);
    J->ellipsoid_body = body;
    memcpy(P + U2D_ELLIPSOID_RADII, nan3, sizeof nan3);
    if (read_child(o, node, radii, 3, P + U2D_ELLIPSOID_RADII)) return -1;
    for (int k = 0; k < 3; k++)
        if (!(P[U2D_ELLIPSOID_RADII + k] >= 0.0))
            return fail_at(o, node, "<%s>: needs three radii, none negative (OpenSim's default "
                           "is NaN: the file must give them)", radii);
    P[U2D_ELLIPSOID_AXIS0 + (scapula ? 1 : 0)] = 1.0;     /* y, or x */
    P[U2D_ELLIPSOID_AXIS1 + (scapula ? 0 : 1)] = scapula ? -1.0 : 1.0;  /* -x, or y */
    if (!scapula) return 0;
    if (read_child(o, node, "scapula_winging_axis_origin", 2, origin) ||
        read_child(o, node, "scapula_winging_axis_direction", 1, &angle))
        return -1;
    P[U2D_ELLIPSOID_WING_DIR] = -sin(angle);
    P[U2D_ELLIPSOID_WING_DIR + 1] = cos(angle);
    P[U2D_ELLIPSOID_WING_AT] = origin[0];
    P[U2D_ELLIPSOID_WING_AT + 1] = origin[1];
    return 0;
}

/* A joint's <reverse>, as OpenSim 4.6 reads it (Joint::updateFromXMLNode): a document older
 * than version 30514 swaps the parent and child frames when it is true; from 30514 on, Joint
 * has no such property and OpenSim ignores the element, whatever it says, so it is ignored
 * here too, with a note naming the joint. *reversed: whether OpenSim swaps the frames. */
#define OSIM_VERSION_WITHOUT_REVERSE 30514
static int read_reverse(osim *o, u2d_xml *node, int *reversed)
{
    *reversed = 0;
    u2d_xml *c = u2d_xml_child(node, "reverse");
    if (c && o->u->osim.version >= OSIM_VERSION_WITHOUT_REVERSE) {
        note(o, c, "<reverse> is ignored: joints have had no <reverse> since OpenSim file "
             "version %d (this file is %d), and OpenSim ignores it too; delete the element "
             "(to reverse the joint, swap its parent and child frames)",
             OSIM_VERSION_WITHOUT_REVERSE, o->u->osim.version);
        return 0;
    }
    return read_flag(o, node, "reverse", reversed);
}

/* A reversed joint as OpenSim 4.6 builds it: the swapped frames put the child body on the
 * parent's side, so its multibody graph mobilizes the joint backwards (a reversed Simbody
 * mobilizer, whose q and u are the joint's own): the tree and both frames stay, and the
 * motion from the parent's frame to the child's is the joint's inverse. A pin's or
 * slider's inverse turns or slides by the same coordinate about the opposite axis; a weld
 * has none. Universal, Gimbal and Custom joints that only turn are read as six axes
 * (reverse_axes). The rest are refused: a Planar or Free joint's inverse slides along axes
 * that turn with it, and Ball, Free, Ellipsoid, Scapulothoracic and ConstantCurvature joints
 * move by more than functions of q (their speeds are not q's rates, or their axes move with
 * q). */
static int reverse_motion(osim *o, u2d_xml *node, u2d_urdf_joint *J)
{
    static const char *const by_axes[] = {"UniversalJoint", "GimbalJoint", "CustomJoint"};
    const char *type = u2d_xml_name(node);
    if (strcmp(type, "WeldJoint") == 0) return 0;
    if (strcmp(type, "PinJoint") == 0 || strcmp(type, "SliderJoint") == 0) {
        for (int k = 0; k < 3; k++) J->axis[k] = -J->axis[k];
        return 0;
    }
    for (size_t k = 0; k < sizeof by_axes / sizeof *by_axes; k++)
        if (strcmp(type, by_axes[k]) == 0) return 0;
    return fail_at(o, node, "<reverse>true</reverse> on a <%s>: urdf2dyn reads reversed Pin, "
                   "Slider, Weld, Universal, Gimbal and Custom joints only; swap the joint's "
                   "parent and child frames in a copy of the file (OpenSim 4.6 moves the child "
                   "by the joint's inverse, no joint urdf2dyn reads for this type)", type);
}

/* Whether function f is 0 whatever its coordinate: a Constant 0, or a MultiplierFunction
 * of one (what scaling writes around a still translation). */
static int function_is_zero(const osim *o, int f)
{
    const u2d_function *F = &o->u->func[f];
    if (F->kind == U2D_FN_CONSTANT) return o->u->fdata[F->at] == 0.0;
    return F->kind == U2D_FN_MULTIPLIER && (F->scale == 0.0 || function_is_zero(o, F->inner));
}

/* A reversed joint read as six axes (reverse_motion): the inverse of rotations R1 R2 R3 is
 * R3^-1 R2^-1 R1^-1, the same functions about the opposite axes in the other order. One
 * that slides is refused: with rotations, the inverse's slide turns with them (-R^T p),
 * which no SpatialTransform expresses; alone, its inverse is the opposite slide, but
 * urdf2dyn's scaling would scale it by the other body's factors than OpenSim's. The axes'
 * elements (axis_ordinal, for the .osim writer) follow their functions. */
static int reverse_axes(osim *o, u2d_xml *node, u2d_custom *C, int *axis_ordinal)
{
    for (int k = 3; k < 6; k++)
        if (!function_is_zero(o, C->func[k]))
            return fail_at(o, node, "<reverse>true</reverse> on a <%s> that slides: urdf2dyn "
                           "reads reversed CustomJoints that only turn (with turns, the "
                           "inverse's slide turns too; alone, urdf2dyn would scale it unlike "
                           "OpenSim 4.6); swap the joint's parent and child frames in a copy of "
                           "the file", u2d_xml_name(node));
    for (int r = 0; r < 9; r++) C->axis[r] = -C->axis[r];
    for (int r = 0; r < 3; r++) {
        double a = C->axis[r];
        C->axis[r] = C->axis[6 + r];
        C->axis[6 + r] = a;
    }
    int t = C->func[0]; C->func[0] = C->func[2]; C->func[2] = t;
    t = C->coord[0]; C->coord[0] = C->coord[2]; C->coord[2] = t;
    t = axis_ordinal[0]; axis_ordinal[0] = axis_ordinal[2]; axis_ordinal[2] = t;
    return 0;
}

/* OpenSim's ConstantCurvatureJoint: its neutral angles (x, z, y) and its length, OpenSim's
 * defaults (0, 0, 0) and 1 when absent (opensim-core ConstantCurvatureJoint.cpp). */
/* Bending the arc swings the child's mass over its length, so the bends' mass-matrix entries
 * outgrow the twist's inertia by mass x length^2 and their rounding lands on the twist's: the
 * mass matrix and ABA lose digits as length^2 (2e-9 of a 2 kg body's at 1 km, 1e-7 at 10 km,
 * all from 1e8 m; test_osim_constant_curvature.py against 50 digits). No segment is longer. */
#define CURVATURE_LENGTH_MAX 1e3
/* No animal's body is longer than this (m): the longest, blue whales and the largest
 * sauropods, reach 30 to 40 m, a sauropod's neck 15 m, a human spine segment 0.1 to 0.3 m.
 * A longer arc is a length in other units, most likely mm (350 for 35 cm). */
#define CURVATURE_LENGTH_ANIMAL 50.0
static int read_curvature(osim *o, u2d_xml *node, u2d_urdf_joint *J, int body)
{
    double *P = J->curvature;
    memset(P, 0, sizeof J->curvature);
    J->curvature_node = u2d_xml_ordinal(node);
    J->curvature_body = body;
    P[U2D_CURVATURE_LENGTH] = 1.0;
    if (read_child(o, node, "neutral_angle_x_z_y", 3, P + U2D_CURVATURE_NEUTRAL) ||
        read_child(o, node, "length", 1, P + U2D_CURVATURE_LENGTH))
        return -1;
    if (fabs(P[U2D_CURVATURE_LENGTH]) > CURVATURE_LENGTH_MAX)
        return fail_at(o, node, "<length>%g: too long an arc (beyond %g m): bending it swings "
                       "the child's mass over it, which drowns the twist's inertia in rounding "
                       "in the mass matrix and forward dynamics; give the segment's length in "
                       "metres", P[U2D_CURVATURE_LENGTH], CURVATURE_LENGTH_MAX);
    double L = P[U2D_CURVATURE_LENGTH];
    if (fabs(L) > CURVATURE_LENGTH_ANIMAL)
        note(o, u2d_xml_child(node, "length"), "<length>%g: an arc of %g m, longer than any "
             "animal's whole body (the longest reach 30 to 40 m); urdf2dyn reads metres, as "
             "OpenSim does: write %g if it is in mm", L, L, L / 1e3);
    return 0;
}

/* Coordinates first..first+n-1 of a joint whose coordinates are all angles (the ellipsoid's
 * and the curvature joint's): rotational, unless their <motion_type> said otherwise. */
static void default_rotational(u2d_urdf *u, int first, int n)
{
    for (int c = first; c < first + n; c++)
        if (u->coord[c].motion < 0) u->coord[c].motion = 0;
}

/* One joint: its type (element name), parent link and F in it, child body and M in it. */
static int make_joint(osim *o, u2d_xml *node, int parent, const u2d_xform *XF, int child,
                      const u2d_xform *XM, u2d_xml *coords, const char *child_frame_name)
{
    u2d_urdf *u = o->u;
    const char *type = u2d_xml_name(node), *name = o->jname[o->jreading];
    int reversed;
    if (read_reverse(o, node, &reversed)) return -1;
    if (child == 0) return fail_at(o, node, "the child frame is on ground");
    if (parent == child) return fail_at(o, node, "the parent and child frames are on the same "
                                        "body '%.100s'", u->link[child].name);

    int coord0 = u->ncoord, ncoord;
    if (read_coordinates(o, node, coords, u->njoint, &ncoord)) return -1;

    /* the child frame M: the body itself, or a massless link that carries the body */
    int mlink = child;
    if (!is_identity(XM)) {
        const char *mname = own_name(o, child_frame_name, "");
        if (!mname) return -1;
        if (find_link(u, mname) >= 0)
            return fail_at(o, node, "child frame '%.100s' has the name of a body or another "
                           "frame", mname);
        mlink = add_link(o, mname, node);
        if (mlink < 0) return -1;
        const char *fixed = own_name(o, mname, "_to_body");
        u2d_urdf_joint *W = fixed ? add_joint(o, fixed, u2d_xml_line(node)) : NULL;
        if (!W) return -1;
        W->type = U2D_JOINT_FIXED;
        W->parent = mlink;
        W->child = child;
        u2d_xform_inv(XM, &W->origin);
    }
    u2d_urdf_joint *J = add_joint(o, name, u2d_xml_line(node));
    if (!J) return -1;
    J->parent = parent;
    J->child = mlink;
    J->origin = *XF;
    J->coord0 = coord0;
    J->ncoord = ncoord;
    for (int c = coord0; c < coord0 + ncoord; c++) u->coord[c].joint = u->njoint - 1;

    static const double xyz[18] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    static const double zxy[18] = {0, 0, 1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    int want = -1, map[6] = {-1, -1, -1, -1, -1, -1};
    const double *axes = xyz;
    if (strcmp(type, "WeldJoint") == 0) { J->type = U2D_JOINT_FIXED; want = 0; }
    else if (strcmp(type, "PinJoint") == 0) {
        J->type = U2D_JOINT_REVOLUTE;
        J->axis[0] = 0.0; J->axis[2] = 1.0;
        want = 1;
    } else if (strcmp(type, "SliderJoint") == 0) { J->type = U2D_JOINT_PRISMATIC; want = 1; }
    else if (strcmp(type, "UniversalJoint") == 0) { want = 2; map[0] = 0; map[1] = 1; }
    else if (strcmp(type, "GimbalJoint") == 0 || strcmp(type, "BallJoint") == 0) {
        want = 3; map[0] = 0; map[1] = 1; map[2] = 2;
    } else if (strcmp(type, "FreeJoint") == 0) {
        want = 6;
        for (int k = 0; k < 6; k++) map[k] = k;
    } else if (strcmp(type, "PlanarJoint") == 0) {
        want = 3; map[0] = 0; map[3] = 1; map[4] = 2;
        axes = zxy;
    } else if (strcmp(type, "EllipsoidJoint") == 0 || strcmp(type, "ScapulothoracicJoint") == 0) {
        J->type = U2D_JOINT_ELLIPSOID;
        want = type[0] == 'E' ? 3 : 4;
    } else if (strcmp(type, "ConstantCurvatureJoint") == 0) {
        J->type = U2D_JOINT_CURVATURE;
        want = 3;
    } else if (strcmp(type, "CustomJoint") != 0)
        return fail_at(o, node, "<%.40s>: unsupported joint type (urdf2dyn reads Pin, Slider, "
                       "Weld, Universal, Gimbal, Ball, Free, Planar, Ellipsoid, "
                       "Scapulothoracic, ConstantCurvature and Custom joints); to use the "
                       "model, replace it in a copy of the file by one (a CustomJoint can "
                       "express most)", type);
    if (want >= 0 && ncoord != want)
        return fail_at(o, node, "%s %s has %d coordinate%s, this one %d",
                       strchr("AEIOU", type[0]) ? "an" : "a", type, want,
                       want == 1 ? "" : "s", ncoord);
    if (reversed && reverse_motion(o, node, J)) return -1;
    if (J->type == U2D_JOINT_REVOLUTE || J->type == U2D_JOINT_PRISMATIC) {
        if (u->coord[coord0].motion < 0) u->coord[coord0].motion = J->type == U2D_JOINT_PRISMATIC;
        return 0;
    }
    if (strcmp(type, "WeldJoint") == 0) return 0;
    if (J->type == U2D_JOINT_ELLIPSOID) {
        if (read_ellipsoid(o, node, J, want == 4, child)) return -1;
        default_rotational(u, coord0, ncoord);
        note(o, node, "<%s>: its three ellipsoid coordinates' rates are read as the "
             "generalized speeds; OpenSim's are the angular velocity in the joint frame, so "
             "urdf2dyn's generalized forces for them are E(q)^T times OpenSim's (E: the "
             "body-fixed angles' rate matrix, docs/osim_models.rst)", type);
        return 0;
    }
    if (J->type == U2D_JOINT_CURVATURE) {
        if (read_curvature(o, node, J, child)) return -1;
        default_rotational(u, coord0, ncoord);
        note(o, node, "<%s>: urdf2dyn moves the child at its pose's rate; OpenSim 4.6 "
             "turns that velocity by the joint's inverse rotation and drops its rate of "
             "change, so OpenSim's mass matrix and dynamics differ from urdf2dyn's wherever "
             "the joint is turned (positions agree; docs/osim_models.rst)", type);
        return 0;
    }
    if (ncoord == 0)
        return fail_at(o, node, "a CustomJoint needs at least one coordinate (use a WeldJoint "
                       "for a rigid attachment)");

    if (grow(o, (void **)&u->custom, &o->capcustom, u->ncustom, sizeof *u->custom)) return -1;
    J = &u->joint[u->njoint - 1];
    J->type = U2D_JOINT_CUSTOM;
    J->custom = u->ncustom;
    if (grow(o, (void **)&u->osim.axis_node, &o->capaxis, 6 * u->ncustom + 5, sizeof(int)))
        return -1;
    int *axis_ordinal = &u->osim.axis_node[6 * u->ncustom];
    for (int k = 0; k < 6; k++) axis_ordinal[k] = -1;
    u2d_custom *C = &u->custom[u->ncustom++];
    memset(C, 0, sizeof *C);
    C->ncoord = ncoord;
    if (strcmp(type, "CustomJoint") == 0) {
        if (read_spatial_transform(o, u2d_xml_child(node, "SpatialTransform"), C, coord0,
                                   axis_ordinal))
            return -1;
    } else if (standard_axes(o, C, map, axes)) return -1;
    if (reversed && reverse_axes(o, node, C, axis_ordinal)) return -1;
    if (strcmp(type, "BallJoint") == 0 || strcmp(type, "FreeJoint") == 0)
        note(o, node, "<%s>: read as body-fixed X-Y-Z angles whose rates are the generalized "
             "speeds; OpenSim's %s takes the angular velocity as its speeds, so its "
             "generalized forces for these coordinates are not comparable", type, type);
    derive_motion(o, C, coord0);
    return 0;
}

/* What scaling reads beyond the tree never makes a model unreadable: a failure there (rc
 * -1, its message in o->err) becomes a finding, and the element is left out. */
static int excused(osim *o, u2d_xml *node, int rc, const char *left_out)
{
    if (rc == 0) return 0;
    char msg[U2D_ERRLEN];
    const char *text = o->err;
    int skip = 0;
    if (sscanf(text, "line %*d: %n", &skip) >= 0 && skip > 0) text += skip;
    snprintf(msg, sizeof msg, "%.380s; %s is left out", text, left_out);
    o->err[0] = '\0';
    u2d_add_finding(o->u, node ? u2d_xml_line(node) : 0, NULL, msg);
    return 1;
}

/* The display geometry of a body or offset frame on link: OpenSim 4's attached_geometry
 * with <scale_factors>, OpenSim 3's VisibleObject. */
static int read_geometry(osim *o, u2d_xml *owner, int link)
{
    u2d_osimdoc *d = &o->u->osim;
    u2d_xml *list = u2d_xml_child(owner, "attached_geometry"), *g;
    u2d_xml *visible = u2d_xml_child(owner, "VisibleObject");
    for (g = list ? u2d_xml_first(list) : visible; g; g = list ? u2d_xml_next(g) : NULL) {
        if (!u2d_xml_child(g, "scale_factors")) continue;
        if (grow(o, (void **)&d->geometry, &o->capgeometry, d->ngeometry, sizeof *d->geometry))
            return -1;
        u2d_osim_geometry *G = &d->geometry[d->ngeometry];
        G->link = link;
        G->scale[0] = G->scale[1] = G->scale[2] = 1.0;
        G->node = u2d_xml_ordinal(g);
        if (read_child(o, g, "scale_factors", 3, G->scale)) return -1;
        d->ngeometry++;
    }
    return 0;
}

/* A frame of the joint just made (u->osim.frame): its translation and orientation are
 * node's children tname and aname, measured on link. */
static int add_frame(osim *o, u2d_xml *node, const char *name, int kind, int link,
                     const char *tname, const char *aname)
{
    u2d_osimdoc *d = &o->u->osim;
    if (grow(o, (void **)&d->frame, &o->capframe, d->nframe, sizeof *d->frame)) return -1;
    u2d_osim_frame *F = &d->frame[d->nframe];
    memset(F, 0, sizeof *F);
    F->name = name;
    F->joint = o->u->njoint - 1;
    F->kind = kind;
    F->link = link;
    F->node = u2d_xml_ordinal(node);
    if (read_child(o, node, tname, 3, F->translation) ||
        read_child(o, node, aname, 3, F->orientation))
        return -1;
    d->nframe++;
    return 0;
}

/* A reversed joint whose frames are sockets in a file older than version 30514: OpenSim 4.6
 * swaps the frames its 4.0 betas named in <connectors>, looks for them here and fails to
 * load the file (a SimTK exception of its XML reader), so there is no model to follow. */
static int reverse_without_connectors(osim *o, u2d_xml *node)
{
    int reversed = 0;
    if (o->u->osim.version >= OSIM_VERSION_WITHOUT_REVERSE) return 0;
    if (read_flag(o, node, "reverse", &reversed)) return -1;
    if (!reversed) return 0;
    return fail_at(o, node, "<reverse>true</reverse> in a file of version %d whose joints name "
                   "<socket_parent_frame>: OpenSim 4.6 fails to load it (before version %d it "
                   "swaps the frames of <connectors> only); swap the joint's parent and child "
                   "frames and delete <reverse>", o->u->osim.version,
                   OSIM_VERSION_WITHOUT_REVERSE);
}

/* The OpenSim 4.0 betas (versions 30500 to 30516) named a joint's frames in <connectors>,
 * then in <connector_..._connectee_name> and <socket_..._connectee_name>; OpenSim 4.6 updates
 * them all (Component::updateFromXMLNode), release 4.0 (30517) on writes <socket_...>. */
#define OSIM_VERSION_OF_SOCKETS 30517
static int written_by_a_beta(const osim *o, u2d_xml *node)
{
    return u2d_xml_child(node, "connectors") != NULL ||
           (o->u->osim.version >= 30500 && o->u->osim.version < OSIM_VERSION_OF_SOCKETS);
}

/* OpenSim 4: a joint of the <JointSet>. */
static int read_joint4(osim *o, u2d_xml *node)
{
    char pf[512], cf[512];
    read_word(node, "socket_parent_frame", pf, sizeof pf);
    read_word(node, "socket_child_frame", cf, sizeof cf);
    u2d_xml *ps = u2d_xml_child(node, "socket_parent_frame");
    u2d_xml *cs = u2d_xml_child(node, "socket_child_frame");
    if ((!ps || !cs) && written_by_a_beta(o, node))
        return fail_at(o, node, "<%s> names its frames as the OpenSim 4.0 betas wrote them "
                       "(<connectors> or <..._connectee_name>; this file is version %d); "
                       "urdf2dyn reads OpenSim 3 files and released OpenSim 4 ones: open the "
                       "model in OpenSim 4 and save it (opensim.Model(path).printToXML("
                       "new_path)) to update it", u2d_xml_name(node), o->u->osim.version);
    if (!ps || !cs) return fail_at(o, node, "<%s> needs <socket_parent_frame> and "
                                   "<socket_child_frame>", u2d_xml_name(node));
    if (reverse_without_connectors(o, node)) return -1;
    int parent, child;
    u2d_xform XF, XM;
    char at[300], parent_path[512], child_path[512];
    snprintf(at, sizeof at, "/jointset/%.200s", joint_path_name(o, node));
    const char *jname = u2d_xml_attr(node, "name");
    if (refuse_slashed_owner(o, ps, jname, pf) ||
        refuse_slashed_owner(o, cs, jname, cf) ||
        socket_path(o, ps, at, pf, parent_path, sizeof parent_path) ||
        socket_path(o, cs, at, cf, child_path, sizeof child_path) ||
        resolve_frame(o, node, ps, parent_path, 0, &parent, &XF) ||
        resolve_frame(o, node, cs, child_path, 0, &child, &XM)) return -1;
    const char *slash = strrchr(cf, '/');
    u2d_xml *coords = u2d_xml_child(node, "coordinates");
    if (!coords) coords = u2d_xml_child(node, "CoordinateSet");
    if (make_joint(o, node, parent, &XF, child, &XM, coords, slash ? slash + 1 : cf))
        return -1;
    u2d_xml *frames = u2d_xml_child(node, "frames");
    for (u2d_xml *f = frames ? u2d_xml_first(frames) : NULL; f; f = u2d_xml_next(f)) {
        if (strcmp(u2d_xml_name(f), "PhysicalOffsetFrame") != 0) continue;
        u2d_xml *sp = u2d_xml_child(f, "socket_parent");
        char ref[512];
        int link;
        u2d_xform X;
        char joined[512];
        read_word(f, "socket_parent", ref, sizeof ref);
        if (!sp || socket_parent_path(o, node, f, NULL, ref, joined, sizeof joined) ||
            resolve_frame(o, node, sp, joined, 0, &link, &X))
            return -1;
        const char *name = u2d_xml_attr(f, "name");
        if (add_frame(o, f, name ? name : "", U2D_FRAME_OFFSET, link, "translation",
                      "orientation"))
            return -1;
        excused(o, f, read_geometry(o, f, link), "its display geometry");
    }
    return 0;
}

/* OpenSim 3: the joint inside body `child`. */
static int read_joint3(osim *o, u2d_xml *node, int child)
{
    char pb[512];
    read_word(node, "parent_body", pb, sizeof pb);
    u2d_xml *pn = u2d_xml_child(node, "parent_body");
    if (!pn) return fail_at(o, node, "<%s> has no <parent_body>", u2d_xml_name(node));
    int parent = strcmp(pb, "ground") == 0 ? 0 : -1;
    for (int i = 1; i <= o->nbody && parent < 0; i++)
        if (strcmp(o->u->link[i].name, pb) == 0) parent = i;
    if (parent < 0) return fail_at(o, pn, "<parent_body>%.100s</parent_body>: no such body", pb);
    double t[3] = {0, 0, 0}, a[3] = {0, 0, 0}, tc[3] = {0, 0, 0}, ac[3] = {0, 0, 0};
    if (read_child(o, node, "location_in_parent", 3, t) ||
        read_child(o, node, "orientation_in_parent", 3, a) ||
        read_child(o, node, "location", 3, tc) || read_child(o, node, "orientation", 3, ac))
        return -1;
    u2d_xform XF, XM;
    offset_xform(t, a, &XF);
    offset_xform(tc, ac, &XM);
    /* OpenSim 4.6 makes the joint's frames <parent body>_offset and <child body>_offset */
    char frame[300], parent_frame[300];
    snprintf(frame, sizeof frame, "%.280s_offset", o->u->link[child].name);
    snprintf(parent_frame, sizeof parent_frame, "%.280s_offset", o->u->link[parent].name);
    static const char fix[] = "rename the coordinate (and its motion columns) in a copy";
    if (refuse_frame_named_as_coordinate(o, node, pn, parent_frame, "the joint's parent frame",
                                         fix) ||
        refuse_frame_named_as_coordinate(o, node, node, frame, "the joint's child frame", fix))
        return -1;
    if (make_joint(o, node, parent, &XF, child, &XM, u2d_xml_child(node, "CoordinateSet"),
                   frame))
        return -1;
    return add_frame(o, node, "parent", U2D_FRAME_IN_PARENT, parent, "location_in_parent",
                     "orientation_in_parent") ||
           add_frame(o, node, "child", U2D_FRAME_IN_CHILD, child, "location", "orientation");
}

/* ---- bodies, markers, the rest ---------------------------------------------------- */

static int read_body(osim *o, u2d_xml *node, u2d_urdf_link *L)
{
    double mass = 0.0, com[3] = {0, 0, 0}, in[6] = {0, 0, 0, 0, 0, 0};
    if (read_child(o, node, "mass", 1, &mass) || read_child(o, node, "mass_center", 3, com))
        return -1;
    if (u2d_xml_child(node, "inertia")) {
        if (read_child(o, node, "inertia", 6, in)) return -1;    /* xx yy zz xy xz yz */
    } else {
        static const char *names[6] = {"inertia_xx", "inertia_yy", "inertia_zz",
                                       "inertia_xy", "inertia_xz", "inertia_yz"};
        for (int k = 0; k < 6; k++)
            if (read_child(o, node, names[k], 1, &in[k])) return -1;
    }
    if (mass < 0.0) return fail_at(o, u2d_xml_child(node, "mass"), "<mass>%g</mass>: mass must "
                                   "be >= 0", mass);
    double I[9] = {in[0], in[3], in[4], in[3], in[1], in[5], in[4], in[5], in[2]}, lam[3];
    int fault = u2d_inertia_fault(I, lam);
    if (fault == 1)
        note(o, node, "<inertia> %g %g %g %g %g %g: not positive semidefinite (principal "
             "moments %g, %g, %g): no rigid body has this inertia; used as written. Correct "
             "the body's <inertia>", in[0], in[1], in[2], in[3], in[4], in[5], lam[0], lam[1],
             lam[2]);
    else if (fault == 2)
        note(o, node, "<inertia> %g %g %g %g %g %g: principal moments %g, %g, %g break the "
             "triangle inequality (%g + %g < %g): no rigid body has this inertia; used as "
             "written. Correct the body's <inertia>", in[0], in[1], in[2], in[3], in[4], in[5],
             lam[0], lam[1], lam[2], lam[0], lam[1], lam[2]);
    L->has_inertial = 1;
    L->mass = mass;
    memcpy(L->com, com, sizeof com);
    memcpy(L->Icom, I, sizeof I);
    return 0;
}

/* The frame path that socket-or-name element at of the component named name in the
 * component at path owner gives, in ref (size bytes), as resolve_frame reads it: a
 * <socket_parent_frame>'s seen from <owner>/<name>, as OpenSim 4.6 sees it; an OpenSim 3
 * <body>'s, a body's name, as written. */
static int socket_frame_of(osim *o, u2d_xml *at, const char *owner, const char *name,
                           char *ref, size_t size)
{
    /* OpenSim 4.6 reads a socket from its owner in a 4.0 beta's file too */
    if (strncmp(u2d_xml_name(at), "socket_", 7) != 0) return 0;
    if (!owner && ref[0] == '/') return 0;
    if (!owner)
        return fail_at(o, at, "<%s>%.100s</%s>: its owner's path is not one urdf2dyn finds, "
                       "to read the path from; write it absolute (/bodyset/<body>)",
                       u2d_xml_name(at), ref, u2d_xml_name(at));
    char where[512], joined[512];
    snprintf(where, sizeof where, "%.300s/%.200s", owner, name);
    if (refuse_slashed_owner(o, at, name, ref) ||
        socket_path(o, at, where, ref, joined, sizeof joined)) return -1;
    snprintf(ref, size, "%s", joined);
    return 0;
}

static int read_markers(osim *o)
{
    u2d_urdf *u = o->u;
    for (u2d_xml *m = first_object(o->model, "MarkerSet"); m; m = u2d_xml_next(m)) {
        if (strcmp(u2d_xml_name(m), "Marker") != 0) continue;
        const char *name = u2d_xml_attr(m, "name");
        snprintf(o->what, sizeof o->what, "marker '%.200s'", name ? name : "");
        if (!name || !name[0]) return fail_at(o, m, "<Marker> has no name");
        char ref[512];
        u2d_xml *at = u2d_xml_child(m, "socket_parent_frame");
        if (!at) at = u2d_xml_child(m, "body");
        if (!at) return fail_at(o, m, "<Marker> names no <socket_parent_frame> (or <body>)");
        read_word(m, u2d_xml_name(at), ref, sizeof ref);
        double p[3] = {0, 0, 0}, q[3];
        if (read_child(o, m, "location", 3, p)) return -1;
        int link;
        u2d_xform X;
        if (socket_frame_of(o, at, "/markerset", name, ref, sizeof ref) ||
            resolve_frame(o, NULL, at, ref, 0, &link, &X))
            return -1;
        u2d_multv3(X.E, p, q);                  /* frame point -> link frame */
        if (grow(o, (void **)&u->marker, &o->capmarker, u->nmarker, sizeof *u->marker) ||
            grow(o, (void **)&u->osim.marker, &o->capdocmarker, u->nmarker,
                 sizeof *u->osim.marker))
            return -1;
        u2d_osim_marker *W = &u->osim.marker[u->nmarker];
        W->X = X;
        memcpy(W->location, p, sizeof p);
        W->node = u2d_xml_ordinal(m);
        if (read_flag(o, m, "fixed", &W->fixed)) return -1;
        u2d_marker *M = &u->marker[u->nmarker++];
        M->name = name;
        M->link = link;
        for (int r = 0; r < 3; r++) M->location[r] = q[r] + X.r[r];
    }
    o->what[0] = '\0';
    return 0;
}

static int find_coordinate(const u2d_urdf *u, const char *name)
{
    for (int k = 0; k < u->ncoord; k++)
        if (strcmp(u->coord[k].name, name) == 0) return k;
    return -1;
}

/* Elements of a set that do not enter inverse dynamics, counted for the summary. */
static int count_objects(u2d_xml *model, const char *set)
{
    int n = 0;
    for (u2d_xml *c = first_object(model, set); c; c = u2d_xml_next(c)) n++;
    return n;
}

/* What the model holds that changes results but is neither read nor enforced, in one finding
 * that counts it: constraints other than the coordinate couplers urdf2dyn keeps
 * (u->coupler), which OpenSim's IK would hold, and components of any kind. The ForceSet's
 * elements are named by the Python layer, which tells the actuators (whose forces inverse
 * dynamics gives) from the passive forces (model.py); controllers, probes and contact
 * geometries, which act through the forces only, go unsaid. */
static void summarize_skipped(osim *o)
{
    static const char *sets[][3] = {    /* the set, the thing it holds, what is said of it */
        {"ConstraintSet", "constraint", "that urdf2dyn does not enforce, in inverse "
         "kinematics either (OpenSim's IK would)"},
        {"ComponentSet", "other component", "(ComponentSet), not read"},
    };
    char msg[U2D_ERRLEN] = "";
    size_t len = 0;
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        int n = count_objects(o->model, sets[k][0]);
        if (strcmp(sets[k][0], "ConstraintSet") == 0) n -= o->u->ncoupler;
        if (n <= 0 || len >= sizeof msg - 1) continue;
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%d %s%s %s", len ? ", " : "",
                                n, sets[k][1], n == 1 ? "" : "s", sets[k][2]);
    }
    if (len) {
        char full[U2D_ERRLEN];
        snprintf(full, sizeof full, "skipped what does not enter inverse dynamics: %.440s", msg);
        u2d_add_finding(o->u, 0, NULL, full);
    }
}

/* One more named component (u2d_osim_named) of element c, when it has a name. */
static int add_named(osim *o, u2d_xml *c, const char *kind)
{
    u2d_osimdoc *d = &o->u->osim;
    const char *name = u2d_xml_attr(c, "name");
    if (!name) return 0;
    if (grow(o, (void **)&d->named, &o->capnamed, d->nnamed, sizeof *d->named)) return -1;
    d->named[d->nnamed].kind = kind;
    d->named[d->nnamed++].name = name;
    return 0;
}

/* The entries of every <components> list at or below node (the Model's, a body's, a
 * joint's, a force's...), depth levels of elements at most below the Model. */
static int collect_component_names(osim *o, u2d_xml *node, int depth)
{
    if (depth > MAX_COMPONENT_DEPTH) return 0;
    for (u2d_xml *c = u2d_xml_first(node); c; c = u2d_xml_next(c)) {
        int list = strcmp(u2d_xml_name(c), "components") == 0;
        for (u2d_xml *e = list ? u2d_xml_first(c) : NULL; e; e = u2d_xml_next(e))
            if (add_named(o, e, "component")) return -1;
        if (collect_component_names(o, c, depth + 1)) return -1;
    }
    return 0;
}

/* The names OpenSim 4.6 checks (a character it refuses in any component's name, the
 * caller's check) of the components no other table holds: the constraints, the contact
 * geometry, the ground's wrap objects and every <components> entry. */
static int collect_other_names(osim *o)
{
    for (u2d_xml *c = first_object(o->model, "ConstraintSet"); c; c = u2d_xml_next(c))
        if (add_named(o, c, "constraint")) return -1;
    for (u2d_xml *c = first_object(o->model, "ContactGeometrySet"); c; c = u2d_xml_next(c))
        if (add_named(o, c, "contact geometry")) return -1;
    /* the ground's wrap objects, which no link's table holds: OpenSim 4's <Ground>, OpenSim
     * 3's Body 'ground' */
    u2d_xml *ground = u2d_xml_child(o->model, "Ground");
    if (!ground) ground = find_named(u2d_xml_child(o->model, "BodySet"), "ground");
    for (u2d_xml *w = ground ? first_object(ground, "WrapObjectSet") : NULL; w;
         w = u2d_xml_next(w))
        if (add_named(o, w, "wrap object")) return -1;
    return collect_component_names(o, o->model, 0);
}

/* Whether joint j lies on a loop of the joints, taken as links between bodies whatever
 * their direction: whether the others still connect its two bodies. 1, 0, or -1 out of
 * memory (a union-find over the links). A loop elsewhere in the model is not j's. */
static int joint_on_a_loop(const u2d_urdf *u, int j)
{
    int *root = malloc(sizeof(int) * (size_t)u->nlink);
    if (!root) return -1;
    for (int i = 0; i < u->nlink; i++) root[i] = i;
    for (int k = 0; k <= u->njoint; k++) {
        int a = u->joint[k < u->njoint ? k : j].parent, b = u->joint[k < u->njoint ? k : j].child;
        while (root[a] != a) a = root[a] = root[root[a]];
        while (root[b] != b) b = root[b] = root[root[b]];
        if (k == u->njoint) {                   /* last: j's own two bodies */
            free(root);
            return a == b;
        }
        if (k != j) root[a] = b;
    }
    free(root);
    return 0;
}

/* The joint of the file that joint j is part of: j, or for the fixed joint that carries a
 * body from its child frame (make_joint adds it just before the joint, at its line) that
 * joint. */
static int file_joint(const u2d_urdf *u, int j)
{
    const u2d_urdf_joint *J = &u->joint[j], *next = j + 1 < u->njoint ? J + 1 : NULL;
    return J->type == U2D_JOINT_FIXED && next && next->child == J->parent &&
           next->line == J->line ? j + 1 : j;
}

/* A body the child of two joints that close no loop: OpenSim 4.6's multibody graph then
 * mobilizes one of them backwards, from the body of its child frame (nearer ground) to
 * that of its parent frame, as it does a reversed OpenSim 3 joint. */
static int refuse_two_parents(osim *o, int body, int first, int second)
{
    const u2d_urdf *u = o->u;
    int loop = joint_on_a_loop(u, first);
    if (loop == 0) loop = joint_on_a_loop(u, second);
    const char *a = u->joint[file_joint(u, first)].name, *b = u->joint[file_joint(u, second)].name;
    if (loop < 0) return fail_at(o, NULL, "out of memory");
    /* 109 characters and three names of at most 60: within fail_at's 300, as below */
    if (loop)
        return fail_at(o, NULL, "body '%.60s' is the child of two joints, '%.60s' and "
                       "'%.60s' (a closed loop: OpenSim models one joint of it as a "
                       "constraint)", u->link[body].name, a, b);
    /* 179 characters and three names of at most 40: within fail_at's 300, so the fix at
     * its end is never cut off */
    return fail_at(o, NULL, "body '%.40s': child of joints '%.40s' and '%.40s', no loop: "
                   "OpenSim mobilizes one backwards. Swap socket_parent_frame and "
                   "socket_child_frame (a pin: negate default_value, range lo hi to -hi -lo)",
                   u->link[body].name, a, b);
}

/* Each body is the child of exactly one joint and reaches ground. */
static int check_tree(osim *o)
{
    u2d_urdf *u = o->u;
    int *up = malloc(sizeof(int) * (size_t)u->nlink);
    if (!up) return fail_at(o, NULL, "out of memory");
    for (int i = 0; i < u->nlink; i++) up[i] = -1;
    for (int j = 0; j < u->njoint; j++) {
        int c = u->joint[j].child;
        if (up[c] >= 0) {
            int prev = up[c];
            free(up);
            return refuse_two_parents(o, c, prev, j);
        }
        up[c] = j;
    }
    /* every body first: the walk to ground below follows the joints of bodies listed
     * after the one it starts from */
    for (int i = 1; i < u->nlink; i++)
        if (up[i] < 0) {
            free(up);
            return fail_at(o, NULL, "body '%.100s' has no joint: every body needs one that "
                           "connects it to its parent", u->link[i].name);
        }
    for (int i = 1; i < u->nlink; i++) {
        int l = i, steps = 0;
        while (l != 0 && steps <= u->nlink) { l = u->joint[up[l]].parent; steps++; }
        if (l != 0) {
            free(up);
            return fail_at(o, NULL, "the joints form a cycle through body '%.100s'",
                           u->link[i].name);
        }
    }
    free(up);
    u->root = 0;
    return 0;
}

static int own_strings(osim *o)
{
    u2d_urdf *u = o->u;
    size_t total = strlen(u->name) + 1;
    for (int i = 0; i < u->nlink; i++) total += strlen(u->link[i].name) + 1;
    for (int j = 0; j < u->njoint; j++) total += strlen(u->joint[j].name) + 1;
    for (int c = 0; c < u->ncoord; c++) total += strlen(u->coord[c].name) + 1;
    for (int k = 0; k < u->nmarker; k++) total += strlen(u->marker[k].name) + 1;
    for (int k = 0; k < u->ncoupler; k++) total += strlen(u->coupler[k].name) + 1;
    for (int k = 0; k < u->nforce; k++)
        total += strlen(u->force[k].name) + strlen(u->force[k].kind) + 2;
    u2d_osimdoc *d = &u->osim;
    for (int k = 0; k < d->nframe; k++) total += strlen(d->frame[k].name) + 1;
    for (int k = 0; k < d->npath; k++)
        total += strlen(d->path[k].name) + strlen(d->path[k].type) + 2;
    for (int k = 0; k < d->npoint; k++) total += strlen(d->point[k].name) + 1;
    for (int k = 0; k < d->nwrap; k++) total += strlen(d->wrap[k].name) + 1;
    for (int k = 0; k < d->nnamed; k++) total += strlen(d->named[k].name) + 1;
    char *p = u->strings = malloc(total);
    if (!p) return fail_at(o, NULL, "out of memory");
#define OWN(s) do { size_t n_ = strlen(s) + 1; memcpy(p, (s), n_); (s) = p; p += n_; } while (0)
    OWN(u->name);
    for (int i = 0; i < u->nlink; i++) OWN(u->link[i].name);
    for (int j = 0; j < u->njoint; j++) OWN(u->joint[j].name);
    for (int c = 0; c < u->ncoord; c++) OWN(u->coord[c].name);
    for (int k = 0; k < u->nmarker; k++) OWN(u->marker[k].name);
    for (int k = 0; k < u->ncoupler; k++) OWN(u->coupler[k].name);
    for (int k = 0; k < u->nforce; k++) { OWN(u->force[k].name); OWN(u->force[k].kind); }
    for (int k = 0; k < d->nframe; k++) OWN(d->frame[k].name);
    for (int k = 0; k < d->npath; k++) { OWN(d->path[k].name); OWN(d->path[k].type); }
    for (int k = 0; k < d->npoint; k++) OWN(d->point[k].name);
    for (int k = 0; k < d->nwrap; k++) OWN(d->wrap[k].name);
    for (int k = 0; k < d->nnamed; k++) OWN(d->named[k].name);
#undef OWN
    return 0;
}

/* ---- what tools need to know of the rest --------------------------------------- */

/* Whether element type is an OpenSim Force: every Force subclass of OpenSim 4.6 (those of
 * Moco included) and the deprecated muscles it still reads; a plugin's class by its name's
 * ending, as OpenSim's own are named. A <components> list holds forces beside frames,
 * geometry and whatever else, and only its forces are to be named as the ForceSet's. */
static int is_force_class(const char *type)
{
    static const char *classes[] = {
        "ActivationFiberLengthMuscle", "Blankevoort1991Ligament", "BushingForce",
        "ClutchedPathSpring", "CoordinateLimitForce", "ElasticFoundationForce",
        "ExpressionBasedBushingForce", "ExpressionBasedPathForce", "ForceProducer",
        "FunctionBasedBushingForce", "Ligament", "McKibbenActuator", "PathSpring",
        "PointToPointSpring", "SpringGeneralizedForce", "TwoFrameLinkerForceProducer",
        "ActivationFiberLengthMuscle_Deprecated", "Thelen2003Muscle_Deprecated",
        "Schutte1993Muscle_Deprecated", "Delp1990Muscle_Deprecated",
        "ContDerivMuscle_Deprecated"};
    for (size_t k = 0; k < sizeof classes / sizeof *classes; k++)
        if (strcmp(type, classes[k]) == 0) return 1;
    static const char *endings[] = {"Force", "Muscle", "Actuator"};
    size_t n = strlen(type);
    for (size_t k = 0; k < sizeof endings / sizeof *endings; k++) {
        size_t e = strlen(endings[k]);
        if (n >= e && strcmp(type + n - e, endings[k]) == 0) return 1;
    }
    return 0;
}

/* The force elements of every <components> list under node, in document order: OpenSim
 * applies a force wherever in the component tree it is declared (Moco's models list their
 * contacts and muscles in the Model's <components>, not in the ForceSet). */
static int collect_component_forces(osim *o, u2d_xml *node, int depth)
{
    if (depth > MAX_COMPONENT_DEPTH) return 0;      /* the XML reader's depth limit is less */
    for (u2d_xml *c = u2d_xml_first(node); c; c = u2d_xml_next(c)) {
        int list = strcmp(u2d_xml_name(c), "components") == 0;
        for (u2d_xml *k = list ? u2d_xml_first(c) : NULL; k; k = u2d_xml_next(k)) {
            if (!is_force_class(u2d_xml_name(k))) continue;
            if (grow(o, (void **)&o->forcenode, &o->capforcenode, o->nforcenode,
                     sizeof *o->forcenode))
                return -1;
            o->forcenode[o->nforcenode++] = k;
            o->ncomponentforce++;
        }
        if (collect_component_forces(o, c, depth + 1)) return -1;
    }
    return 0;
}

/* The force elements, the ForceSet's then those of <components> lists (o->forcenode), named
 * (muscles, actuators, springs, contact forces): none enters the dynamics, but a tool that
 * compares with OpenSim says which ones OpenSim would apply. */
static int read_forces(osim *o)
{
    u2d_urdf *u = o->u;
    for (u2d_xml *c = first_object(o->model, "ForceSet"); c; c = u2d_xml_next(c)) {
        if (grow(o, (void **)&o->forcenode, &o->capforcenode, o->nforcenode,
                 sizeof *o->forcenode))
            return -1;
        o->forcenode[o->nforcenode++] = c;
    }
    if (collect_component_forces(o, o->model, 0)) return -1;
    for (int k = 0; k < o->nforcenode; k++) {
        if (grow(o, (void **)&u->force, &o->capforce, u->nforce, sizeof *u->force)) return -1;
        u2d_xml *c = o->forcenode[k];
        const char *kind = u2d_xml_name(c), *name = u2d_xml_attr(c, "name");
        u2d_force *F = &u->force[u->nforce++];
        F->kind = kind;
        F->name = name && name[0] ? name : kind;
        F->component = k >= o->nforcenode - o->ncomponentforce;
    }
    return 0;
}

/* The body an OpenSim joint moves: its child link, or the body that hangs from it when the
 * child link is the joint's child frame (a link after the bodies). */
static int joint_body(const osim *o, int j)
{
    const u2d_urdf *u = o->u;
    int child = u->joint[j].child;
    if (child <= o->nbody) return child;
    for (int w = 0; w < u->njoint; w++)
        if (u->joint[w].parent == child) return u->joint[w].child;
    return child;
}

/* The coordinates in the order OpenSim numbers its mobilities (the columns of its inverse
 * dynamics, getCoordinateNamesInMultibodyTreeOrder): Simbody's MultibodyGraphMaker grows
 * the tree level by level from ground, taking at each level the joints in file order.
 * The welds that hang bodies from child frames (parent after the bodies) are ours, not
 * OpenSim's joints. Runs after check_tree: every joint is reached. */
static int tree_order(osim *o)
{
    u2d_urdf *u = o->u;
    int *level = malloc(sizeof(int) * (size_t)u->nlink);
    char *added = calloc((size_t)u->njoint + 1, 1);
    u->coord_order = malloc(sizeof(int) * ((size_t)u->ncoord + 1));
    if (!level || !added || !u->coord_order) {
        free(level); free(added);
        return fail_at(o, NULL, "out of memory");
    }
    for (int i = 0; i < u->nlink; i++) level[i] = -1;
    level[0] = 0;
    int n = 0;
    for (int depth = 1, grew = 1; grew && depth <= u->njoint; depth++) {
        grew = 0;
        for (int j = 0; j < u->njoint; j++) {
            const u2d_urdf_joint *J = &u->joint[j];
            if (added[j] || J->parent > o->nbody) continue;
            int body = joint_body(o, j);
            if (level[J->parent] != depth - 1 || level[body] >= 0) continue;
            added[j] = 1;
            level[body] = depth;
            grew = 1;
            for (int c = J->coord0; c >= 0 && c < J->coord0 + J->ncoord; c++)
                u->coord_order[n++] = c;
        }
    }
    for (int j = 0; j < u->njoint; j++) {           /* none after check_tree; kept safe */
        const u2d_urdf_joint *J = &u->joint[j];
        if (added[j] || J->parent > o->nbody) continue;
        for (int c = J->coord0; c >= 0 && c < J->coord0 + J->ncoord; c++)
            u->coord_order[n++] = c;
    }
    free(level);
    free(added);
    return 0;
}

/* ---- coordinate couplers ------------------------------------------------------ */

/* The enforced CoordinateCouplerConstraints: dependent = scale_factor * f(independent).
 * Kept on the model; OpenSim's inverse dynamics ignores them, and so does urdf2dyn unless
 * asked to eliminate them (urdf2dyn.load(..., couplers="eliminate")); inverse kinematics
 * keeps them as OpenSim does (biomech.ik). */
static int read_couplers(osim *o)
{
    u2d_urdf *u = o->u;
    for (u2d_xml *c = first_object(o->model, "ConstraintSet"); c; c = u2d_xml_next(c)) {
        if (strcmp(u2d_xml_name(c), "CoordinateCouplerConstraint") != 0) continue;
        int enforced = 1, disabled = 0;       /* OpenSim 4 isEnforced, OpenSim 3 isDisabled */
        if (u2d_xml_child(c, "isEnforced") && read_flag(o, c, "isEnforced", &enforced)) return -1;
        if (read_flag(o, c, "isDisabled", &disabled)) return -1;
        if (!enforced || disabled) continue;
        char dep[256], ind[256];
        const char *name = u2d_xml_attr(c, "name");
        u2d_coupler K = {0, 0, 0, 1.0, name ? name : "", u2d_xml_line(c)};
        read_word(c, "dependent_coordinate_name", dep, sizeof dep);
        read_word(c, "independent_coordinate_names", ind, sizeof ind);
        if (strpbrk(ind, " \t\r\n")) {
            note(o, c, "<CoordinateCouplerConstraint>: several independent coordinates "
                 "(%.100s): not kept, it cannot be eliminated", ind);
            continue;
        }
        K.dependent = find_coordinate(u, dep);
        K.independent = find_coordinate(u, ind);
        if (K.dependent < 0 || K.independent < 0)
            return fail_at(o, c, "<CoordinateCouplerConstraint>: no coordinate named "
                           "'%.100s'", K.dependent < 0 ? dep : ind);
        if (K.dependent == K.independent)
            return fail_at(o, c, "<CoordinateCouplerConstraint>: coordinate '%.100s' "
                           "depends on itself", dep);
        u2d_xml *wrap = u2d_xml_child(c, "coupled_coordinates_function");
        u2d_xml *fn = wrap ? u2d_xml_first(wrap) : NULL;
        if (!fn)
            return fail_at(o, c, "<CoordinateCouplerConstraint>: no "
                           "<coupled_coordinates_function>");
        if ((K.func = read_function(o, fn, 0)) < 0) return -1;
        if (read_child(o, c, "scale_factor", 1, &K.scale)) return -1;
        if (grow(o, (void **)&u->coupler, &o->capcoupler, u->ncoupler, sizeof K) ||
            grow(o, (void **)&u->osim.coupler_node, &o->capcouplernode, u->ncoupler,
                 sizeof(int)))
            return -1;
        u->osim.coupler_node[u->ncoupler] = u2d_xml_ordinal(c);
        u->coupler[u->ncoupler++] = K;
    }
    return 0;
}

/* ---- what scaling and writing need: display geometry, wrap objects, paths ---------- */

/* A wrap object of body `link` (an element of its <WrapObjectSet>). */
static int read_wrap(osim *o, u2d_xml *w, int link)
{
    static const char *types[] = {"WrapCylinder", "WrapSphere", "WrapEllipsoid", "WrapTorus"};
    u2d_osimdoc *d = &o->u->osim;
    const char *name = u2d_xml_attr(w, "name");
    if (grow(o, (void **)&d->wrap, &o->capwrap, d->nwrap, sizeof *d->wrap)) return -1;
    u2d_osim_wrap *W = &d->wrap[d->nwrap];
    memset(W, 0, sizeof *W);
    W->name = name ? name : "";
    W->type = U2D_WRAP_OTHER;
    for (int t = 0; t < 4; t++)
        if (strcmp(u2d_xml_name(w), types[t]) == 0) W->type = t;
    W->link = link;
    W->node = u2d_xml_ordinal(w);
    W->active = 1;
    if (u2d_xml_child(w, "active") && read_flag(o, w, "active", &W->active)) return -1;
    if (read_child(o, w, "translation", 3, W->translation) ||
        read_child(o, w, "xyz_body_rotation", 3, W->rotation))
        return -1;
    char q[16];
    read_word(w, "quadrant", q, sizeof q);
    const char *axis = strpbrk(q, "xyzXYZ");
    if (axis && strcmp(q, "all") != 0)
        W->quadrant = (q[0] == '-' ? -1 : 1) * (1 + (strchr("xX", *axis) ? 0
                                                      : strchr("yY", *axis) ? 1 : 2));
    int bad = 0;
    switch (W->type) {
    case U2D_WRAP_CYLINDER:
        bad = read_child(o, w, "radius", 1, &W->size[0]) ||
              read_child(o, w, "length", 1, &W->size[1]);
        break;
    case U2D_WRAP_SPHERE: bad = read_child(o, w, "radius", 1, &W->size[0]); break;
    case U2D_WRAP_ELLIPSOID: bad = read_child(o, w, "dimensions", 3, W->size); break;
    case U2D_WRAP_TORUS:
        bad = read_child(o, w, "inner_radius", 1, &W->size[0]) ||
              read_child(o, w, "outer_radius", 1, &W->size[1]);
        break;
    }
    if (bad) return -1;
    d->nwrap++;
    return 0;
}

/* A coordinate named by a socket path ("/jointset/knee_r/knee_angle_r") or by name. */
static int coordinate_at(osim *o, u2d_xml *node, const char *elem, const char *alt)
{
    char ref[512];
    read_word(node, u2d_xml_child(node, elem) ? elem : alt, ref, sizeof ref);
    if (!ref[0]) return -1;
    const char *last = strrchr(ref, '/');
    int k = find_coordinate(o->u, last ? last + 1 : ref);
    if (k < 0) note(o, node, "<%s>: no coordinate '%.100s'; read as none", elem, ref);
    return k;
}

static int read_point(osim *o, u2d_xml *pt, const char *owner)
{
    u2d_osimdoc *d = &o->u->osim;
    const char *type = u2d_xml_name(pt), *name = u2d_xml_attr(pt, "name");
    int kind = strcmp(type, "ConditionalPathPoint") == 0 ? U2D_POINT_CONDITIONAL
             : strcmp(type, "MovingPathPoint") == 0 ? U2D_POINT_MOVING
             : strcmp(type, "PathPoint") == 0 ? U2D_POINT_FIXED : -1;
    if (kind < 0) {
        note(o, pt, "<%s>: a path point urdf2dyn does not read (it reads PathPoint, "
             "ConditionalPathPoint and MovingPathPoint); the path's length leaves it out", type);
        return 0;
    }
    if (grow(o, (void **)&d->point, &o->cappoint, d->npoint, sizeof *d->point)) return -1;
    u2d_osim_point *P = &d->point[d->npoint];
    memset(P, 0, sizeof *P);
    P->name = name ? name : "";
    P->kind = kind;
    P->node = u2d_xml_ordinal(pt);
    P->coord = -1;
    for (int k = 0; k < 3; k++) P->mcoord[k] = P->mfunc[k] = P->fnode[k] = -1;
    u2d_xml *at = u2d_xml_child(pt, "socket_parent_frame");
    if (!at) at = u2d_xml_child(pt, "body");
    if (!at) return fail_at(o, pt, "<%s name=\"%.100s\"> names no <socket_parent_frame> (or "
                            "<body>)", type, P->name);
    char ref[512];
    read_word(pt, u2d_xml_name(at), ref, sizeof ref);
    if (socket_frame_of(o, at, owner, P->name, ref, sizeof ref) ||
        resolve_frame(o, NULL, at, ref, 0, &P->link, &P->X) ||
        read_child(o, pt, "location", 3, P->location))
        return -1;
    if (kind == U2D_POINT_CONDITIONAL) {
        P->range[0] = -INFINITY;
        P->range[1] = INFINITY;
        if (read_child(o, pt, "range", 2, P->range)) return -1;
        P->coord = coordinate_at(o, pt, "socket_coordinate", "coordinate");
    } else if (kind == U2D_POINT_MOVING) {
        static const char *fn[3] = {"x_location", "y_location", "z_location"};
        static const char *sock[3] = {"socket_x_coordinate", "socket_y_coordinate",
                                      "socket_z_coordinate"};
        static const char *old[3] = {"x_coordinate", "y_coordinate", "z_coordinate"};
        for (int k = 0; k < 3; k++) {
            P->mcoord[k] = coordinate_at(o, pt, sock[k], old[k]);
            u2d_xml *holder = u2d_xml_child(pt, fn[k]), *f = holder ? function_node(holder) : NULL;
            P->fnode[k] = u2d_xml_ordinal(f);
            if (f && (P->mfunc[k] = read_function(o, f, 0)) < 0) return -1;
        }
    }
    d->npoint++;
    return 0;
}

/* Which lengths of a force scale with its path, as OpenSim's classes scale them. */
static int path_lengths_of(const char *type)
{
    static const char *muscles[] = {
        "Thelen2003Muscle", "Millard2012EquilibriumMuscle", "Millard2012AccelerationMuscle",
        "DeGrooteFregly2016Muscle", "MeyerFregly2016Muscle", "Thelen2003Muscle_Deprecated",
        "Schutte1993Muscle_Deprecated", "Delp1990Muscle_Deprecated"};
    for (size_t k = 0; k < sizeof muscles / sizeof *muscles; k++)
        if (strcmp(type, muscles[k]) == 0) return U2D_LENGTHS_MUSCLE;
    if (strcmp(type, "Ligament") == 0 || strcmp(type, "PathSpring") == 0 ||
        strcmp(type, "ExpressionBasedPathForce") == 0)
        return U2D_LENGTHS_RESTING;
    if (strcmp(type, "Blankevoort1991Ligament") == 0) return U2D_LENGTHS_SLACK;
    return U2D_LENGTHS_NONE;
}

static int find_wrap(const u2d_osimdoc *d, const char *name)
{
    for (int w = 0; w < d->nwrap; w++)
        if (strcmp(d->wrap[w].name, name) == 0) return w;
    return -1;
}

/* The absolute path of component target (a force owning a path) below the component at
 * node, whose path is prefix, into out: a component's <components> entries are
 * <prefix>/<name>, as OpenSim names subcomponents. 1 when found. */
static int component_path_below(u2d_xml *node, const char *prefix, u2d_xml *target,
                                int depth, char *out, size_t size)
{
    if (depth > MAX_COMPONENT_DEPTH) return 0;
    for (u2d_xml *c = first_entry(node, "components"); c; c = u2d_xml_next(c)) {
        const char *name = u2d_xml_attr(c, "name");
        char path[512];
        snprintf(path, sizeof path, "%.300s/%.200s", prefix, name ? name : "");
        if (c == target) return snprintf(out, size, "%s", path), 1;
        if (component_path_below(c, path, target, depth + 1, out, size)) return 1;
    }
    return 0;
}

/* The absolute path of force element f, which owns its path's points, into out: in the
 * Model's <components> or below a component of a Model's set (/forceset/<f> for the
 * ForceSet's, a set's path its element name in lower case). 0 when found. */
static int force_path_of(osim *o, u2d_xml *f, char *out, size_t size)
{
    if (component_path_below(o->model, "", f, 0, out, size)) return 0;
    for (u2d_xml *set = u2d_xml_first(o->model); set; set = u2d_xml_next(set)) {
        const char *kind = u2d_xml_name(set);
        size_t n = strlen(kind);
        if (n < 4 || n > 100 || strcmp(kind + n - 3, "Set") != 0) continue;
        char prefix[128] = "/";
        for (size_t i = 0; i < n; i++) prefix[i + 1] = lower_ascii(kind[i]);
        prefix[n + 1] = '\0';
        for (u2d_xml *c = first_object(o->model, kind); c; c = u2d_xml_next(c)) {
            const char *name = u2d_xml_attr(c, "name");
            char path[512];
            snprintf(path, sizeof path, "%s/%.200s", prefix, name ? name : "");
            if (c == f) return snprintf(out, size, "%s", path), 0;
            if (component_path_below(c, path, f, 0, out, size)) return 0;
        }
    }
    return -1;
}

/* From this document version on, OpenSim 4.6 reads a force's path (its property `path`) from
 * a <GeometryPath> named "path" or unnamed only; from an older file, whatever its name. */
#define OSIM_VERSION_OF_PATH_PROPERTY 40500

/* Says a force's <GeometryPath> gp named other than "path" (name="" is unnamed to OpenSim)
 * in a file OpenSim 4.6 reads it from by that name only (OSIM_VERSION_OF_PATH_PROPERTY): it
 * reads none, and refuses the model (a path needs two points). Its name in paths is "path"
 * whatever it is written. */
static void note_path_not_read_by_opensim(osim *o, u2d_xml *gp)
{
    const char *gname = u2d_xml_attr(gp, "name");
    if (!gname || !gname[0] || strcmp(gname, "path") == 0 ||
        o->u->osim.version < OSIM_VERSION_OF_PATH_PROPERTY)
        return;
    /* 263 characters and the name at most 30: within note's 300 */
    note(o, gp, "<GeometryPath name=\"%.*s\">: OpenSim 4.6 reads a path named \"path\" (or "
         "unnamed) only, in a file of version %d on (this one is %d), so it refuses the model "
         "(\"A valid path must be connected ... by at least two PathPoints\"); read as the "
         "path here: write name=\"path\"", utf8_cut(gname, 30), gname,
         OSIM_VERSION_OF_PATH_PROPERTY, o->u->osim.version);
}

/* Every force (of the ForceSet or <components>) with a <GeometryPath>: its points, wraps
 * and lengths. */
static int read_paths(osim *o)
{
    static const char *length_names[][2] = {
        {NULL, NULL}, {"optimal_fiber_length", "tendon_slack_length"},
        {"resting_length", NULL}, {"slack_length", NULL}};
    u2d_osimdoc *d = &o->u->osim;
    for (int fk = 0; fk < o->nforcenode; fk++) {
        u2d_xml *f = o->forcenode[fk], *gp = u2d_xml_child(f, "GeometryPath");
        if (!gp) continue;
        const char *name = u2d_xml_attr(f, "name");
        snprintf(o->what, sizeof o->what, "%.100s '%.150s'", u2d_xml_name(f), name ? name : "");
        if (grow(o, (void **)&d->path, &o->cappath, d->npath, sizeof *d->path)) return -1;
        u2d_osim_path *P = &d->path[d->npath];
        memset(P, 0, sizeof *P);
        P->name = name ? name : "";
        P->type = u2d_xml_name(f);
        P->node = u2d_xml_ordinal(f);
        P->lengths = path_lengths_of(P->type);
        for (int k = 0; k < 2 && length_names[P->lengths][k]; k++)
            if (excused(o, f, read_child(o, f, length_names[P->lengths][k], 1, &P->length[k]),
                        "the length (it is not scaled)"))
                P->lengths = U2D_LENGTHS_NONE;
        P->point0 = d->npoint;
        P->wrap0 = d->npathwrap;
        /* its points' relative sockets are seen from <force>/path/<point>: OpenSim 4.6 names
         * the path after its property, whatever the name written (the point set is none of
         * the path's names) */
        note_path_not_read_by_opensim(o, gp);
        char owner[512];
        int found = force_path_of(o, f, owner, sizeof owner) == 0;
        if (found) snprintf(owner + strlen(owner), sizeof owner - strlen(owner), "/path");
        for (u2d_xml *pt = first_object(gp, "PathPointSet"); pt; pt = u2d_xml_next(pt))
            excused(o, pt, read_point(o, pt, found ? owner : NULL), "the point");
        for (u2d_xml *pw = first_object(gp, "PathWrapSet"); pw; pw = u2d_xml_next(pw)) {
            if (strcmp(u2d_xml_name(pw), "PathWrap") != 0) continue;
            char wname[256], method[32];
            read_word(pw, "wrap_object", wname, sizeof wname);
            int w = find_wrap(d, wname);
            if (w < 0) {
                note(o, pw, "<PathWrap>: no wrap object '%.100s'; the path is read without it",
                     wname);
                continue;
            }
            if (grow(o, (void **)&d->pathwrap, &o->cappathwrap, d->npathwrap,
                     sizeof *d->pathwrap))
                return -1;
            u2d_osim_pathwrap *W = &d->pathwrap[d->npathwrap];
            double range[2] = {-1, -1};
            if (read_child(o, pw, "range", 2, range)) return -1;
            read_word(pw, "method", method, sizeof method);
            W->wrap = w;
            W->range[0] = (int)range[0];
            W->range[1] = (int)range[1];
            W->method = strcmp(method, "midpoint") == 0 ? U2D_WRAP_MIDPOINT
                      : strcmp(method, "axial") == 0 ? U2D_WRAP_AXIAL : U2D_WRAP_HYBRID;
            d->npathwrap++;
        }
        P = &d->path[d->npath++];
        P->npoint = d->npoint - P->point0;
        P->nwrap = d->npathwrap - P->wrap0;
    }
    o->what[0] = '\0';
    return 0;
}

/* ---- a marker set file (GenericModelMaker's marker_set_file) ------------------------ */

int u2d_markerset_parse(const char *xml, u2d_markerset_entry **out, u2d_finding **notes,
                        int *nnotes, char err[U2D_ERRLEN])
{
    err[0] = '\0';
    *out = NULL;
    *notes = NULL;
    *nnotes = 0;
    u2d_urdf scratch;
    memset(&scratch, 0, sizeof scratch);
    osim o;
    memset(&o, 0, sizeof o);
    o.err = err;
    o.u = &scratch;
    /* the markup read as written (a bare '&'...) is noted as for a model's own file */
    u2d_xml *doc = u2d_xml_load(xml, err, xml_note, &o);
    if (!doc) {
        free(scratch.finding);
        return -1;
    }
    u2d_xml *set = NULL;
    for (u2d_xml *n = u2d_xml_first(doc); n && !set; n = u2d_xml_next(n)) {
        if (strcmp(u2d_xml_name(n), "MarkerSet") == 0) set = n;
        else if (strcmp(u2d_xml_name(n), "OpenSimDocument") == 0)
            set = u2d_xml_child(n, "MarkerSet");
    }
    int count = 0, cap = 0;
    u2d_markerset_entry *list = NULL;
    if (!set) {
        fail_at(&o, NULL, "no <MarkerSet> element: is this an OpenSim marker set file?");
        goto error;
    }
    u2d_xml *objects = u2d_xml_child(set, "objects");
    for (u2d_xml *m = objects ? u2d_xml_first(objects) : NULL; m; m = u2d_xml_next(m)) {
        if (strcmp(u2d_xml_name(m), "Marker") != 0) continue;
        const char *name = u2d_xml_attr(m, "name");
        snprintf(o.what, sizeof o.what, "marker '%.200s'", name ? name : "");
        if (grow(&o, (void **)&list, &cap, count, sizeof *list)) goto error;
        u2d_markerset_entry *E = &list[count];
        memset(E, 0, sizeof *E);
        u2d_xml *at = u2d_xml_child(m, "socket_parent_frame");
        if (!at) at = u2d_xml_child(m, "body");
        if (!name || !name[0] || strlen(name) >= sizeof E->name) {
            fail_at(&o, m, "<Marker> needs a name (of fewer than %d characters)",
                    (int)sizeof E->name);
            goto error;
        }
        if (!at) {
            fail_at(&o, m, "<Marker> names no <socket_parent_frame> (or <body>)");
            goto error;
        }
        snprintf(E->name, sizeof E->name, "%s", name);
        /* the file's markers join the model's MarkerSet (Model::updateMarkerSet): a socket
         * path is read from /markerset/<name>, as a model's own marker's */
        char frame[512];
        read_word(m, u2d_xml_name(at), frame, sizeof frame);
        if (socket_frame_of(&o, at, "/markerset", name, frame, sizeof frame)) goto error;
        /* cut to fit, a path would name another frame, or end inside a character */
        if (strlen(frame) >= sizeof E->frame) {
            fail_at(&o, at, "<%s>: the frame's path is longer than %d bytes, more than urdf2dyn "
                    "reads: name the body (/bodyset/<body>)", u2d_xml_name(at),
                    (int)sizeof E->frame - 1);
            goto error;
        }
        memcpy(E->frame, frame, strlen(frame) + 1);
        if (read_child(&o, m, "location", 3, E->location) || read_flag(&o, m, "fixed", &E->fixed))
            goto error;
        count++;
    }
    u2d_xml_free(doc);
    *out = list;
    *notes = scratch.finding;
    *nnotes = scratch.nfinding;
    return count;
error:
    free(list);
    free(scratch.finding);
    u2d_xml_free(doc);
    return -1;
}

int u2d_is_osim(const char *xml)
{
    return u2d_has_root(xml, "OpenSimDocument");
}

u2d_urdf *u2d_osim_parse(const char *xml, char err[U2D_ERRLEN])
{
    err[0] = '\0';
    u2d_urdf *u = calloc(1, sizeof *u);
    osim o;
    memset(&o, 0, sizeof o);
    o.err = err;
    o.u = u;
    if (!u) {
        snprintf(err, U2D_ERRLEN, "out of memory");
        return NULL;
    }
    u2d_xml *doc = u2d_xml_load(xml, err, xml_note, &o);
    if (!doc) goto error;

    u2d_xml *root = NULL;
    for (u2d_xml *n = u2d_xml_first(doc); n; n = u2d_xml_next(n)) {
        if (strcmp(u2d_xml_name(n), "OpenSimDocument") != 0) continue;
        if (root) { fail_at(&o, n, "more than one <OpenSimDocument> element"); goto error; }
        root = n;
    }
    if (!root) { fail_at(&o, NULL, "no <OpenSimDocument> element"); goto error; }
    o.model = u2d_xml_child(root, "Model");
    if (!o.model) { fail_at(&o, root, "<OpenSimDocument> has no <Model>"); goto error; }
    const char *version = u2d_xml_attr(root, "Version");
    u->osim.version = version ? atoi(version) : 0;
    u->osim.model = u2d_xml_ordinal(o.model);
    u2d_xml *markerset = u2d_xml_child(o.model, "MarkerSet");
    u->osim.markerset = u2d_xml_ordinal(markerset ? u2d_xml_child(markerset, "objects") : NULL);
    u->name = u2d_xml_attr(o.model, "name");
    if (!u->name) u->name = "";

    u->has_gravity = 1;                         /* OpenSim's default */
    u->gravity[0] = 0.0; u->gravity[1] = -9.80665; u->gravity[2] = 0.0;
    if (read_child(&o, o.model, "gravity", 3, u->gravity)) goto error;
    if (!u2d_gravity_in_range(u->gravity)) {
        fail_at(&o, u2d_xml_child(o.model, "gravity"), "<gravity> %g %g %g: its length "
                "overflows (components past ~1e154 m/s^2); give components of a physical "
                "size, such as 0 -9.80665 0", u->gravity[0], u->gravity[1], u->gravity[2]);
        goto error;
    }

    /* links: ground, then the bodies */
    if (add_link(&o, "ground", u2d_xml_child(o.model, "Ground")) < 0) goto error;
    for (u2d_xml *b = first_object(o.model, "BodySet"); b; b = u2d_xml_next(b)) {
        if (strcmp(u2d_xml_name(b), "Body") != 0) continue;
        const char *name = u2d_xml_attr(b, "name");
        if (!name || !name[0]) { fail_at(&o, b, "<Body> has no name"); goto error; }
        if (strcmp(name, "ground") == 0) continue;          /* OpenSim 3's ground body */
        snprintf(o.what, sizeof o.what, "body '%.200s'", name);
        if (find_link(u, name) >= 0) { fail_at(&o, b, "a second body of this name"); goto error; }
        int l = add_link(&o, name, b);
        if (l < 0 || read_body(&o, b, &u->link[l])) goto error;
        excused(&o, b, read_geometry(&o, b, l), "its display geometry");
        for (u2d_xml *w = first_object(b, "WrapObjectSet"); w; w = u2d_xml_next(w))
            excused(&o, w, read_wrap(&o, w, l), "the wrap object");
    }
    o.what[0] = '\0';
    o.nbody = u->nlink - 1;

    /* joints: OpenSim 4's JointSet, or OpenSim 3's joint inside each body */
    o.jointset = u2d_xml_child(o.model, "JointSet");
    if (o.jointset) {
        /* all named first: a socket finds a joint by the name OpenSim gives it, one written
         * later in the file included (/jointset/pin_0/f, the second 'pin') */
        for (u2d_xml *j = first_object(o.model, "JointSet"); j; j = u2d_xml_next(j))
            if (name_joint(&o, j)) goto error;
        int k = 0;
        for (u2d_xml *j = first_object(o.model, "JointSet"); j; j = u2d_xml_next(j), k++) {
            snprintf(o.what, sizeof o.what, "joint '%.200s'", o.jname[o.jreading = k]);
            if (read_joint4(&o, j)) goto error;
        }
    } else {
        int l = 0;
        for (u2d_xml *b = first_object(o.model, "BodySet"); b; b = u2d_xml_next(b)) {
            const char *name = u2d_xml_attr(b, "name");
            if (strcmp(u2d_xml_name(b), "Body") != 0 || !name || strcmp(name, "ground") == 0)
                continue;
            l++;
            u2d_xml *wrap = u2d_xml_child(b, "Joint"), *j = wrap ? u2d_xml_first(wrap) : NULL;
            if (!j) continue;                   /* check_tree names the body */
            if (name_joint(&o, j)) goto error;
            o.jreading = o.njname - 1;
            if (read_joint3(&o, j, l)) goto error;
        }
    }
    o.what[0] = '\0';
    for (int a = 0; a < u->njoint; a++)
        for (int b = a + 1; b < u->njoint; b++)
            if (strcmp(u->joint[a].name, u->joint[b].name) == 0) {
                fail_at(&o, NULL, "two joints are named '%.100s'", u->joint[a].name);
                goto error;
            }
    if (read_markers(&o) || read_couplers(&o) || read_forces(&o) || read_paths(&o)) goto error;
    summarize_skipped(&o);
    if (collect_other_names(&o) || check_tree(&o) || tree_order(&o)) goto error;
    if (own_strings(&o)) goto error;
    for (int k = 0; k < o.nowned; k++) free(o.owned[k]);
    free(o.owned);
    free(o.forcenode);
    free(o.jname);
    free(o.jnext);
    free(o.jnode);
    free_joint_parts(&o);
    u2d_xml_free(doc);
    return u;

error:
    if (!err[0]) snprintf(err, U2D_ERRLEN, "could not read the OpenSim model");
    for (int k = 0; k < o.nowned; k++) free(o.owned[k]);
    free(o.owned);
    free(o.forcenode);
    free(o.jname);
    free(o.jnext);
    free(o.jnode);
    free_joint_parts(&o);
    u->strings = NULL;
    u2d_urdf_free(u);
    u2d_xml_free(doc);
    return NULL;
}
