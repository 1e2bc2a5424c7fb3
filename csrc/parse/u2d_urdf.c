/* u2d_urdf.c: URDF text -> u2d_urdf, validated.
 *
 * Only the robot's direct <link> and <joint> children are read: <transmission> and
 * <gazebo> blocks carry their own <joint name=...> elements that are not robot joints.
 * Every message names the element and attribute at fault. Defaults follow the URDF
 * specification: no origin = identity, no axis = (1, 0, 0), no inertial = massless. */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse/u2d_parse.h"
#include "parse/u2d_xml.h"

typedef struct {
    char *err;              /* the caller's U2D_ERRLEN buffer */
    const char *what;       /* "link 'x'" / "joint 'y'": prefix of every message */
    int line;               /* of that link or joint, 0 if unknown or none */
    u2d_urdf *u;            /* collects the findings (and, for u2d_urdf_check, errors) */
    int all;                /* u2d_urdf_check: go on past a refused link or joint */
} reader;

static int fail(reader *rd, const char *fmt, ...)
{
    char msg[U2D_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char line[32] = "";
    if (rd->what && rd->line > 0) snprintf(line, sizeof line, "line %d: ", rd->line);
    if (rd->what) snprintf(rd->err, U2D_ERRLEN, "%s%.220s: %.260s", line, rd->what, msg);
    else snprintf(rd->err, U2D_ERRLEN, "%s", msg);
    return -1;
}

static void append(u2d_finding **list, int *n, int line, const char *prefix, const char *msg)
{
    if ((*n & (*n - 1)) == 0) {                             /* 0, 1, 2, 4, ...: grow */
        size_t cap = *n ? 2 * (size_t)*n : 1;
        u2d_finding *grown = realloc(*list, cap * sizeof *grown);
        if (!grown) return;
        *list = grown;
    }
    u2d_finding *f = &(*list)[(*n)++];
    f->line = line;
    if (prefix) snprintf(f->message, sizeof f->message, "%.200s: %.300s", prefix, msg);
    else snprintf(f->message, sizeof f->message, "%s", msg);
}

void u2d_add_finding(u2d_urdf *u, int line, const char *prefix, const char *msg)
{
    append(&u->finding, &u->nfinding, line, prefix, msg);
}

/* After a fail(): for u2d_urdf_check, keep its message as one more error, its line apart,
 * and go on (1); for u2d_urdf_parse, stop (0). */
static int go_on(reader *rd)
{
    if (!rd->all) return 0;
    const char *msg = rd->err;
    int line = 0;
    if (strncmp(msg, "line ", 5) == 0 && strstr(msg, ": ")) {
        line = atoi(msg + 5);
        msg = strstr(msg, ": ") + 2;
    }
    append(&rd->u->error, &rd->u->nerror, line, NULL, msg);
    return 1;
}

int u2d_grow(void **p, int *cap, int n, size_t size)
{
    if (n < *cap) return 0;
    int c = *cap ? 2 * *cap : 16;
    void *g = realloc(*p, (size_t)c * size);
    if (!g) return -1;
    *p = g;
    *cap = c;
    return 0;
}

/* Whether c may stand in a number strtod reads in the C locale (decimal, hexadecimal,
 * inf, nan(...)): the span handed to strtod under another locale. */
static int in_number(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '.' || c == '+' || c == '-' || c == '(' || c == ')' || c == '_';
}

double u2d_strtod(const char *s, char **end)
{
    const struct lconv *lc = localeconv();
    const char *point = lc && lc->decimal_point && *lc->decimal_point ? lc->decimal_point : ".";
    if (strcmp(point, ".") == 0) return strtod(s, end);
    /* the number's span with each '.' written as this locale's decimal point; the locale's
     * own point (a comma) ends the span, as in the C locale */
    const char *p = s;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;
    size_t n = 0, width = strlen(point), dots = 0;
    while (in_number(p[n])) dots += p[n++] == '.';
    char small[128], *buf = small;
    size_t need = n + dots * (width - 1) + 1;
    if (need > sizeof small && !(buf = malloc(need))) {
        if (end) *end = (char *)s;              /* out of memory: read as no number */
        return 0.0;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '.') {
            memcpy(buf + k, point, width);
            k += width;
        } else {
            buf[k++] = p[i];
        }
    }
    buf[k] = '\0';
    char *stop;
    double x = strtod(buf, &stop);
    size_t used = (size_t)(stop - buf), i = 0;
    for (size_t at = 0; at < used; i++)         /* back to the text's own characters */
        at += p[i] == '.' ? width : 1;
    if (buf != small) free(buf);
    if (end) *end = (char *)(used ? p + i : s);
    return x;
}

void u2d_c_decimal(char *text)
{
    const struct lconv *lc = localeconv();
    const char *point = lc && lc->decimal_point && *lc->decimal_point ? lc->decimal_point : ".";
    size_t width = strlen(point);
    if (strcmp(point, ".") == 0) return;
    for (char *at = strstr(text, point); at; at = strstr(at + 1, point)) {
        *at = '.';
        memmove(at + 1, at + width, strlen(at + width) + 1);
    }
}

int u2d_scan_number(const char **s, double *x)
{
    const char *p = *s;
    while (u2d_is_blank(*p)) p++;
    *s = p;
    if (!*p) return 0;
    char *end;
    *x = u2d_strtod(p, &end);
    if (end == p || (*end && !u2d_is_blank(*end))) return -1;
    if (!isfinite(*x)) return -2;
    *s = end;
    return 1;
}

int u2d_scan_decimal(const char **s, double *x)
{
    const char *p = *s;
    while (u2d_is_blank(*p)) p++;
    const char *digits = p + (*p == '+' || *p == '-');
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        *s = p;
        return -3;
    }
    return u2d_scan_number(s, x);
}

int u2d_has_root(const char *xml, const char *root)
{
    size_t n = strlen(root);
    for (const char *p = xml;;) {
        p = strchr(p, '<');
        if (!p) return 0;
        if (p[1] == '?' || p[1] == '!') { p++; continue; }
        return strncmp(p + 1, root, n) == 0 && (u2d_is_blank(p[1 + n]) || p[1 + n] == '>' ||
                                                 p[1 + n] == '/');
    }
}

static void note(reader *rd, u2d_xml *node, const char *fmt, ...)
{
    char msg[U2D_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    u2d_add_finding(rd->u, node ? u2d_xml_line(node) : 0, rd->what, msg);
}

static void xml_note(void *ctx, int line, const char *message)
{
    u2d_add_finding(((reader *)ctx)->u, line, NULL, message);
}

/* ---- numbers ------------------------------------------------------------ */

/* Parse exactly n finite numbers separated by whitespace from attribute attr of <elem>. */
static int read_numbers(reader *rd, u2d_xml *node, const char *attr, int n, double *out)
{
    const char *elem = u2d_xml_name(node), *s = u2d_xml_attr(node, attr);
    if (!s) return fail(rd, "<%s> is missing attribute '%s'", elem, attr);
    int count = 0, got;
    double x;
    for (const char *p = s; (got = u2d_scan_decimal(&p, &x)) != 0; count++) {
        if (got == -1 && (strstr(s, "${") || strstr(s, "$(")))
            return fail(rd, "<%s %s=\"%.60s\">: a xacro expression, not a number: run xacro on "
                        "the file and load its output", elem, attr, s);
        if (got == -1) return fail(rd, "<%s %s=\"%.60s\">: not a number", elem, attr, s);
        if (got == -3)
            return fail(rd, "<%s %s=\"%.60s\">: hexadecimal numbers are not read (urdfdom "
                        "refuses them): write it in decimal", elem, attr, s);
        if (got == -2) return fail(rd, "<%s %s=\"%.60s\">: number is not finite", elem, attr, s);
        if (count < n) out[count] = x;
    }
    if (count != n)
        return fail(rd, "<%s %s=\"%.60s\">: expected %d number%s, got %d",
                    elem, attr, s, n, n == 1 ? "" : "s", count);
    return 0;
}

/* Optional attribute: keep the default when absent. */
static int read_optional(reader *rd, u2d_xml *node, const char *attr, int n, double *out)
{
    if (!node || !u2d_xml_attr(node, attr)) return 0;
    return read_numbers(rd, node, attr, n, out);
}

/* URDF rpy: fixed-axis roll, pitch, yaw, R = Rz(yaw) Ry(pitch) Rx(roll). The core's own sine
 * and cosine (u2d_real.h), not libm's: Windows' C runtime and glibc differ in the last bit for
 * some angles, and every build must place the bodies alike (tests/test_portable.py). */
static void rpy_matrix(const double rpy[3], double R[9])
{
    double cr, sr, cp, sp, cy, sy;
    u2d_sincos(rpy[0], &sr, &cr);
    u2d_sincos(rpy[1], &sp, &cp);
    u2d_sincos(rpy[2], &sy, &cy);
    R[0] = cy * cp; R[1] = cy * sp * sr - sy * cr; R[2] = cy * sp * cr + sy * sr;
    R[3] = sy * cp; R[4] = sy * sp * sr + cy * cr; R[5] = sy * sp * cr - cy * sr;
    R[6] = -sp;     R[7] = cp * sr;                R[8] = cp * cr;
}

/* <origin xyz rpy> -> rotation R (child axes in parent) and translation xyz. */
static int read_origin(reader *rd, u2d_xml *parent, double R[9], double xyz[3])
{
    u2d_xml *o = u2d_xml_child(parent, "origin");
    double rpy[3] = {0, 0, 0};
    xyz[0] = xyz[1] = xyz[2] = 0.0;
    if (read_optional(rd, o, "xyz", 3, xyz) || read_optional(rd, o, "rpy", 3, rpy)) return -1;
    rpy_matrix(rpy, R);
    return 0;
}

/* ---- links -------------------------------------------------------------- */

static int read_inertial(reader *rd, u2d_xml *node, u2d_urdf_link *L)
{
    u2d_xml *in = u2d_xml_child(node, "inertial");
    L->has_inertial = in != NULL;
    L->mass = 0.0;
    memset(L->com, 0, sizeof L->com);
    memset(L->Icom, 0, sizeof L->Icom);
    if (!in) return 0;

    double R[9];
    if (read_origin(rd, in, R, L->com)) return -1;

    u2d_xml *mass = u2d_xml_child(in, "mass");
    if (!mass) return fail(rd, "<inertial> has no <mass>");
    if (read_numbers(rd, mass, "value", 1, &L->mass)) return -1;
    if (L->mass < 0.0) return fail(rd, "<mass value=\"%g\">: mass must be >= 0", L->mass);

    u2d_xml *inertia = u2d_xml_child(in, "inertia");
    if (!inertia) return fail(rd, "<inertial> has no <inertia>");
    static const char *names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    double v[6];
    for (int k = 0; k < 6; k++)
        if (read_numbers(rd, inertia, names[k], 1, &v[k])) return -1;
    double I[9] = {v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5]}, tmp[9];

    /* Real files hold inertias no rigid body has (a 1e-6 kg antenna): read as written, as
     * Pinocchio does, and say so. */
    double lam[3];
    int fault = u2d_inertia_fault(I, lam);
    if (fault == 1)
        note(rd, inertia, "<inertia>: not positive semidefinite (principal moments %g, %g, %g): "
             "no rigid body has this inertia; used as written. Correct the exporter's values",
             lam[0], lam[1], lam[2]);
    else if (fault == 2)
        note(rd, inertia, "<inertia>: principal moments %g, %g, %g break the triangle "
             "inequality (%g + %g < %g): no rigid body has this inertia; used as written. "
             "Correct the exporter's values", lam[0], lam[1], lam[2], lam[0], lam[1], lam[2]);

    /* The tensor is given in the inertial frame; the link frame sees R I R^T. */
    u2d_mulmm3(R, I, tmp);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            L->Icom[3 * i + j] = tmp[3 * i] * R[3 * j] + tmp[3 * i + 1] * R[3 * j + 1]
                               + tmp[3 * i + 2] * R[3 * j + 2];
    return 0;
}

/* ---- the URDF vocabulary ------------------------------------------------- */

/* What the URDF specification allows inside <link> and <joint>: anything else is a typo
 * (<limits>, xzy=) that would silently drop a value, so it is reported. Names with a
 * namespace prefix (drake:) belong to other tools and pass (xacro's are reported: they
 * mean a .xacro read unexpanded, see is_xacro), and so do the
 * extensions real files carry (Gazebo's <kinematic>, PyBullet's <contact>, PAL's
 * <limit current=...>...), listed here with the URDF's own names. */
typedef struct element_spec {
    const char *name;
    const char *attrs;                      /* space-separated, with a space at both ends;
                                               NULL: another tool's element, not checked */
    const struct element_spec *const *kids; /* NULL-terminated, or NULL                   */
} element_spec;

#define SPEC(var, name, attrs, ...) \
    static const element_spec *const var##_kids[] = {__VA_ARGS__, NULL}; \
    static const element_spec var = {name, attrs, var##_kids}
#define LEAF(var, name, attrs) static const element_spec var = {name, attrs, NULL}

LEAF(s_origin, "origin", " xyz rpy ");
/* other tools' elements */
LEAF(x_contact, "contact", NULL);                       /* PyBullet */
LEAF(x_gravity, "gravity", NULL);                       /* Gazebo, inside <link> */
LEAF(x_kinematic, "kinematic", NULL);
LEAF(x_surface, "surface", NULL);
LEAF(x_verbose, "verbose", NULL);
LEAF(x_self_filter, "self_filter", NULL);               /* ROS robot_self_filter */
LEAF(x_collision_checking, "collision_checking", NULL); /* old urdfdom */
LEAF(x_self_collision, "self_collision_checking", NULL);
LEAF(x_material, "material", NULL);                     /* inside <collision> */
LEAF(x_max_contacts, "max_contacts", NULL);             /* creo2urdf (iCub), for Gazebo */
LEAF(s_mass, "mass", " value ");
LEAF(s_inertia, "inertia", " ixx ixy ixz iyy iyz izz ");
LEAF(s_box, "box", " size ");
LEAF(s_cylinder, "cylinder", " radius length ");
LEAF(s_sphere, "sphere", " radius ");
LEAF(s_capsule, "capsule", " radius length ");
LEAF(s_mesh, "mesh", " filename scale ");
LEAF(s_color, "color", " rgba ");
LEAF(s_texture, "texture", " filename ");
LEAF(s_parent, "parent", " link ");
LEAF(s_child, "child", " link ");
LEAF(s_axis, "axis", " xyz ");
LEAF(s_calibration, "calibration", " rising falling reference_position ");
LEAF(s_dynamics, "dynamics", " damping friction D K mu_coulomb mu_viscous ");    /* + PAL */
LEAF(s_limit, "limit", " lower upper effort velocity command_effort current gear_velocity ");
LEAF(s_mimic, "mimic", " joint multiplier offset ");
LEAF(s_safety, "safety_controller", " soft_lower_limit soft_upper_limit k_position k_velocity ");
SPEC(s_inertial, "inertial", " ", &s_origin, &s_mass, &s_inertia);
SPEC(s_geometry, "geometry", " name ", &s_box, &s_cylinder, &s_sphere, &s_capsule, &s_mesh);
SPEC(s_material, "material", " name ", &s_color, &s_texture);
SPEC(s_visual, "visual", " name ", &s_origin, &s_geometry, &s_material);
SPEC(s_collision, "collision", " name ", &s_origin, &s_geometry, &x_material, &x_verbose,
     &x_max_contacts);
SPEC(s_link, "link", " name type ", &s_inertial, &s_visual, &s_collision, &x_contact, &x_gravity,
     &x_kinematic, &x_surface, &x_self_filter, &x_collision_checking, &x_self_collision);
SPEC(s_joint, "joint", " name type dont_collapse ", &s_origin, &s_parent, &s_child, &s_axis,
     &s_calibration, &s_dynamics, &s_limit, &s_mimic, &s_safety);

/* Levenshtein distance, capped: small enough means "did you mean". */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b), row[33];
    if (la > 32 || lb > 32) return 99;
    for (int j = 0; j <= lb; j++) row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* " (did you mean 'x'?)" for the closest of the space-separated names, or "". */
static void suggest(const char *word, const char *names, char *out, size_t len)
{
    char best[64] = "", cand[64];
    int dmin = 3;
    for (const char *p = names; *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n == 0) break;
        if (n < sizeof cand) {
            memcpy(cand, p, n);
            cand[n] = '\0';
            int d = distance(word, cand);
            if (d < dmin) { dmin = d; memcpy(best, cand, n + 1); }
        }
        p += n;
    }
    if (best[0]) snprintf(out, len, " (did you mean '%s'?)", best);
    else out[0] = '\0';
}

static int has_word(const char *words, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(words, w); p; p = strstr(p + 1, w))
        if (p[-1] == ' ' && p[n] == ' ') return 1;
    return 0;
}

/* xacro's elements are gone from the files xacro writes: one in a file read as it is holds
 * what xacro would have made of it (a macro's links, an <xacro:if>'s origin), lost. */
static int is_xacro(const char *name)
{
    return strncmp(name, "xacro:", 6) == 0;
}

/* Report unknown attributes and child elements of node, which follows spec; depth <= 4. */
static void check_vocabulary(reader *rd, u2d_xml *node, const element_spec *spec)
{
    char hint[192];
    if (!spec->attrs) return;
    for (int k = 0; k < u2d_xml_attr_count(node); k++) {
        const char *a = u2d_xml_attr_name(node, k);
        if (strchr(a, ':') || has_word(spec->attrs, a)) continue;
        suggest(a, spec->attrs, hint, sizeof hint);
        note(rd, node, "<%s %.60s=...>: unknown attribute, ignored%s", spec->name, a, hint);
    }
    for (u2d_xml *c = u2d_xml_first(node); c; c = u2d_xml_next(c)) {
        const char *name = u2d_xml_name(c);
        const element_spec *kid = NULL;
        for (int k = 0; spec->kids && spec->kids[k]; k++)
            if (strcmp(spec->kids[k]->name, name) == 0) kid = spec->kids[k];
        if (kid) {
            check_vocabulary(rd, c, kid);
            continue;
        }
        if (is_xacro(name))
            note(rd, c, "<%.60s> inside <%s>: xacro markup, not expanded: ignored with all it "
                 "holds, as Pinocchio ignores it; run xacro on the file and load its output",
                 name, spec->name);
        if (strchr(name, ':')) continue;
        char names[256] = " ";
        for (int k = 0; spec->kids && spec->kids[k]; k++) {
            if (!spec->kids[k]->attrs) continue;            /* suggest URDF names only */
            strncat(names, spec->kids[k]->name, sizeof names - strlen(names) - 2);
            strncat(names, " ", sizeof names - strlen(names) - 1);
        }
        suggest(name, names, hint, sizeof hint);
        if (spec == &s_link && strcmp(name, "origin") == 0)    /* a frame offset meant here */
            snprintf(hint, sizeof hint, ": a link's frame is placed by the <origin> of the "
                     "joint whose child it is (<inertial>, <visual> and <collision> each take "
                     "their own)");
        note(rd, c, "<%s> inside <%s>: unknown element, ignored%s", name, spec->name, hint);
    }
}

/* xacro's markup directly in <robot>, once for the file: its definitions (property, arg,
 * macro) lose nothing by themselves, but a macro call, an <xacro:include> or <xacro:if>
 * stands for links and joints only xacro makes. */
static void note_xacro_in_robot(reader *rd, u2d_xml *robot)
{
    static const char *definitions[] = {"xacro:property", "xacro:arg", "xacro:macro"};
    u2d_xml *first = NULL;
    int more = 0;
    for (u2d_xml *n = u2d_xml_first(robot); n; n = u2d_xml_next(n)) {
        const char *name = u2d_xml_name(n);
        int definition = 0;
        for (size_t k = 0; k < sizeof definitions / sizeof *definitions; k++)
            definition |= strcmp(name, definitions[k]) == 0;
        if (!is_xacro(name) || definition) continue;
        if (first) more++;
        else first = n;
    }
    if (!first) return;
    char others[48] = "";
    if (more) snprintf(others, sizeof others, " (and %d more)", more);
    note(rd, first, "<%.60s> in <robot>%s: xacro markup, not expanded: ignored with every link "
         "and joint it would make, as Pinocchio ignores it; run xacro on the file and load its "
         "output", u2d_xml_name(first), others);
}

/* The file xacro names in the header comment it writes ("autogenerated by xacro from
 * PATH"), without its folder (the author's machine, not this one), into out; 0 if none. */
static int xacro_source(const char *xml, char *out, size_t len)
{
    static const char mark[] = "autogenerated by xacro from ";
    const char *from = strstr(xml, mark);
    if (!from) return 0;
    from += sizeof mark - 1;
    size_t n = strcspn(from, " \t\r\n|>");
    for (size_t k = n; k > 0; k--)
        if (from[k - 1] == '/' || from[k - 1] == '\\') {
            from += k;
            n -= k;
            break;
        }
    snprintf(out, len, "%.*s", (int)(n < 200 ? n : 200), from);
    return n > 0;
}

/* A <robot> without a <link> is refused; when xacro is why (a .xacro read unexpanded, a file
 * of macro definitions, or xacro's output of such a file: example-robot-data's ur3.urdf),
 * the message says so and what to run instead. */
static int fail_no_link(reader *rd, const char *xml, u2d_xml *robot)
{
    static const char *definitions[] = {"xacro:property", "xacro:arg", "xacro:macro"};
    static const char run[] = "run xacro on the .xacro file that calls the macros (xacro "
                              "ROBOT.urdf.xacro > ROBOT.urdf; xacro is ROS's package, also on "
                              "PyPI) and load its output";
    u2d_xml *first = NULL;
    int more = 0, calls = 0;
    for (u2d_xml *n = u2d_xml_first(robot); n; n = u2d_xml_next(n)) {
        const char *name = u2d_xml_name(n);
        if (!is_xacro(name)) continue;
        int definition = 0;
        for (size_t k = 0; k < sizeof definitions / sizeof *definitions; k++)
            definition |= strcmp(name, definitions[k]) == 0;
        calls += !definition;
        if (first) more++;
        else first = n;
    }
    char others[48] = "", source[208];
    if (more) snprintf(others, sizeof others, " and %d more", more);
    if (calls)
        return fail(rd, "<robot> has no <link>, only xacro markup (<%.60s>%s): this is a .xacro "
                    "file, not expanded; run xacro on it (xacro THIS_FILE > ROBOT.urdf; xacro is "
                    "ROS's package, also on PyPI) and load its output", u2d_xml_name(first),
                    others);
    if (first)
        return fail(rd, "<robot> has no <link>, only xacro definitions (<%.60s>%s): a file of "
                    "macros for another .xacro to include and call; %s", u2d_xml_name(first),
                    others, run);
    if (xacro_source(xml, source, sizeof source))
        return fail(rd, "<robot> has no <link>: the file is xacro's output of '%s', which made "
                    "no link (a .xacro that only defines macros gives an empty robot); %s",
                    source, run);
    if (u2d_xml_attr(robot, "xmlns:xacro"))
        return fail(rd, "<robot> has no <link>: it declares xacro's namespace, so it is likely "
                    "xacro's output of a .xacro that only defines macros (an empty robot); %s",
                    run);
    return fail(rd, "<robot> has no <link>: a URDF describes at least one link (<link "
                "name=\"...\">); check that this is the complete robot description");
}

/* The joint a mimic that names no joint probably meant: a xacro macro prefixes the names it
 * makes ("Left_" + "index_q1") but not always its mimic's, so first the joint whose name is
 * the mimic's with the prefix of the mimicking joint's; else one a typo away (never the
 * mimicking joint itself). */
static void mimic_hint(const u2d_urdf *u, const char *self, const char *mimic, char *out,
                       size_t len)
{
    size_t n = strlen(mimic);
    for (int i = 0; i < u->njoint; i++) {
        const char *name = u->joint[i].name;
        size_t m = name ? strlen(name) : 0;
        if (m <= n || strcmp(name + m - n, mimic) != 0) continue;
        if (strncmp(self, name, m - n) == 0 && name != self) {
            snprintf(out, len, " (did you mean '%.200s'?)", name);
            return;
        }
    }
    const char *best = NULL;
    int dmin = 3;
    for (int i = 0; i < u->njoint; i++) {
        const char *name = u->joint[i].name;
        int d = name && strcmp(name, self) != 0 ? distance(mimic, name) : 99;
        if (d < dmin) { dmin = d; best = name; }
    }
    if (best) snprintf(out, len, " (did you mean '%.200s'?)", best);
    else out[0] = '\0';
}

/* ---- joints ------------------------------------------------------------- */

static const struct { const char *name; u2d_jtype type; } joint_types[] = {
    {"fixed", U2D_JOINT_FIXED},         {"revolute", U2D_JOINT_REVOLUTE},
    {"continuous", U2D_JOINT_CONTINUOUS}, {"prismatic", U2D_JOINT_PRISMATIC},
    {"floating", U2D_JOINT_FLOATING},   {"planar", U2D_JOINT_PLANAR},
};

/* Names are looked up through an index sorted by name (10 000-link files load fast). */
typedef struct { const char *name; int index; } name_entry;

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const name_entry *)a)->name, ((const name_entry *)b)->name);
}

static int lookup(const name_entry *sorted, int n, const char *name)
{
    name_entry key = {name, -1};
    const name_entry *e = bsearch(&key, sorted, (size_t)n, sizeof key, cmp_entry);
    return e ? e->index : -1;
}

/* Sort the names and report the first duplicate. */
static int index_names(reader *rd, const char *kind, name_entry *sorted, int n)
{
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_entry);
    for (int i = 1; i < n; i++)
        if (strcmp(sorted[i - 1].name, sorted[i].name) == 0)
            return fail(rd, "duplicate %s name '%.200s'", kind, sorted[i].name);
    return 0;
}

static int read_link_ref(reader *rd, const name_entry *links, int nlink, u2d_xml *node,
                         const char *elem, int *out)
{
    u2d_xml *e = u2d_xml_child(node, elem);
    if (!e) return fail(rd, "missing <%s>", elem);
    const char *name = u2d_xml_attr(e, "link");
    if (!name) return fail(rd, "<%s> is missing attribute 'link'", elem);
    *out = lookup(links, nlink, name);
    if (*out < 0) return fail(rd, "<%s link=\"%.200s\">: no such link", elem, name);
    return 0;
}

static int read_joint(reader *rd, const u2d_urdf *u, const name_entry *links, u2d_xml *node,
                      u2d_urdf_joint *J)
{
    const char *type = u2d_xml_attr(node, "type");
    if (!type) return fail(rd, "<joint> is missing attribute 'type'");
    int known = 0;
    for (size_t k = 0; k < sizeof joint_types / sizeof joint_types[0]; k++)
        if (strcmp(type, joint_types[k].name) == 0) {
            J->type = joint_types[k].type;
            known = 1;
        }
    if (!known)
        return fail(rd, "<joint type=\"%.60s\">: unknown joint type (expected revolute, "
                    "continuous, prismatic, fixed, floating or planar)", type);

    if (read_link_ref(rd, links, u->nlink, node, "parent", &J->parent)) return -1;
    if (read_link_ref(rd, links, u->nlink, node, "child", &J->child)) return -1;
    if (J->parent == J->child)
        return fail(rd, "parent and child are the same link '%s' (self-loop)",
                    u->link[J->child].name);

    /* origin: p_parent = R p_joint + xyz, i.e. the transform (E = R^T, r = xyz). */
    double R[9];
    if (read_origin(rd, node, R, J->origin.r)) return -1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) J->origin.E[3 * i + j] = R[3 * j + i];

    J->axis[0] = 1.0; J->axis[1] = J->axis[2] = 0.0;
    if (read_optional(rd, u2d_xml_child(node, "axis"), "xyz", 3, J->axis)) return -1;
    double norm = sqrt(u2d_dot3(J->axis, J->axis));
    int uses_axis = J->type != U2D_JOINT_FIXED && J->type != U2D_JOINT_FLOATING;
    if (uses_axis && !(norm > 1e-12))
        return fail(rd, "<axis xyz>: the axis is zero");
    if (norm > 1e-12)
        for (int k = 0; k < 3; k++) J->axis[k] /= norm;

    u2d_xml *lim = u2d_xml_child(node, "limit");
    J->has_limit = lim != NULL;
    if (!lim && (J->type == U2D_JOINT_REVOLUTE || J->type == U2D_JOINT_PRISMATIC))
        note(rd, node, "a %s joint needs a <limit lower upper effort velocity> (URDF "
             "specification; Pinocchio refuses it): read without limits. Add the <limit>%s",
             type, J->type == U2D_JOINT_REVOLUTE ? ", or make the joint continuous" : "");
    J->lower = J->upper = J->effort = J->velocity = 0.0;
    if (read_optional(rd, lim, "lower", 1, &J->lower) ||
        read_optional(rd, lim, "upper", 1, &J->upper) ||
        read_optional(rd, lim, "effort", 1, &J->effort) ||
        read_optional(rd, lim, "velocity", 1, &J->velocity)) return -1;
    /* Bounds that allow no motion: tools read them differently (MuJoCo's URDF import ignores
     * them and says so, Pinocchio keeps them as position bounds), and urdf2dyn's IK ignores
     * them: say so, rather than leave free a joint its author may have meant held */
    if (lim && (J->type == U2D_JOINT_REVOLUTE || J->type == U2D_JOINT_PRISMATIC) &&
        J->lower == J->upper) {
        /* the element as written: a <limit> that leaves both out has them 0 by default */
        char bounds[96];
        if (!u2d_xml_attr(lim, "lower") && !u2d_xml_attr(lim, "upper"))
            snprintf(bounds, sizeof bounds, "<limit> without lower and upper (both 0, the URDF "
                     "default)");
        else
            snprintf(bounds, sizeof bounds, "<limit lower=\"%g\" upper=\"%g\">", J->lower,
                     J->upper);
        note(rd, lim, "%s: equal bounds allow no motion: read as no limit (inverse kinematics "
             "leaves the joint free; MuJoCo ignores it too, Pinocchio keeps it as the joint's "
             "bounds). Give the joint's range, or make the joint fixed if it should not move",
             bounds);
    }

    u2d_xml *dyn = u2d_xml_child(node, "dynamics");
    J->damping = J->friction = 0.0;
    if (read_optional(rd, dyn, "damping", 1, &J->damping) ||
        read_optional(rd, dyn, "friction", 1, &J->friction)) return -1;

    u2d_xml *mimic = u2d_xml_child(node, "mimic");
    J->mimic = NULL;
    J->mimic_multiplier = 1.0;
    J->mimic_offset = 0.0;
    if (mimic) {
        J->mimic = u2d_xml_attr(mimic, "joint");
        if (!J->mimic || !J->mimic[0]) return fail(rd, "<mimic> is missing attribute 'joint'");
        if (read_optional(rd, mimic, "multiplier", 1, &J->mimic_multiplier) ||
            read_optional(rd, mimic, "offset", 1, &J->mimic_offset)) return -1;
    }
    return 0;
}

/* ---- the tree ----------------------------------------------------------- */

/* One parent per link, exactly one root, and every link reachable from it. */
static int check_tree(reader *rd, u2d_urdf *u)
{
    int nl = u->nlink, nj = u->njoint, status = 0, nseen = 0;
    int *parent_joint = malloc(sizeof(int) * (size_t)nl);
    int *first = malloc(sizeof(int) * (size_t)(nl + 1));    /* children of link i:   */
    int *kids = malloc(sizeof(int) * (size_t)(nj + 1));     /* kids[first[i]..]      */
    int *stack = malloc(sizeof(int) * (size_t)nl);
    char *seen = calloc((size_t)nl, 1);
    if (!parent_joint || !first || !kids || !stack || !seen) {
        status = fail(rd, "out of memory");
        goto done;
    }
    for (int i = 0; i < nl; i++) parent_joint[i] = -1;
    for (int j = 0; j < nj && !status; j++) {
        int c = u->joint[j].child;
        if (parent_joint[c] >= 0)
            status = fail(rd, "link '%.100s' is the child of two joints, '%.100s' and "
                          "'%.100s'", u->link[c].name, u->joint[parent_joint[c]].name,
                          u->joint[j].name);
        parent_joint[c] = j;
    }
    u->root = -1;
    for (int i = 0; i < nl && !status; i++) {
        if (parent_joint[i] >= 0) continue;
        if (u->root >= 0)
            status = fail(rd, "two root links, '%s' and '%s' (every link but one must be the "
                          "child of a joint)", u->link[u->root].name, u->link[i].name);
        u->root = i;
    }
    if (status) goto done;
    if (u->root < 0) {
        status = fail(rd, "no root link: the joints form a cycle");
        goto done;
    }
    /* Children lists (counting sort of joints by parent), then a stack walk from the root. */
    memset(first, 0, sizeof(int) * (size_t)(nl + 1));
    for (int j = 0; j < nj; j++) first[u->joint[j].parent + 1]++;
    for (int i = 0; i < nl; i++) first[i + 1] += first[i];
    for (int j = 0; j < nj; j++) kids[first[u->joint[j].parent]++] = u->joint[j].child;
    for (int i = nl; i > 0; i--) first[i] = first[i - 1];
    first[0] = 0;
    int top = 0;
    stack[top++] = u->root;
    seen[u->root] = 1;
    while (top > 0) {
        int l = stack[--top];
        nseen++;
        for (int k = first[l]; k < first[l + 1]; k++)
            if (!seen[kids[k]]) { seen[kids[k]] = 1; stack[top++] = kids[k]; }
    }
    for (int i = 0; i < nl && nseen < nl; i++)
        if (!seen[i]) {
            status = fail(rd, "the joints form a cycle through link '%s'", u->link[i].name);
            break;
        }
done:
    free(parent_joint); free(first); free(kids); free(stack); free(seen);
    return status;
}

int u2d_own_names(u2d_urdf *u)
{
    size_t total = strlen(u->name) + 1;
    for (int i = 0; i < u->nlink; i++) total += strlen(u->link[i].name) + 1;
    for (int j = 0; j < u->njoint; j++) {
        total += strlen(u->joint[j].name) + 1;
        if (u->joint[j].mimic) total += strlen(u->joint[j].mimic) + 1;
    }
    char *p = u->strings = malloc(total);
    if (!p) return -1;
#define OWN(s) do { size_t n_ = strlen(s) + 1; memcpy(p, (s), n_); (s) = p; p += n_; } while (0)
    OWN(u->name);
    for (int i = 0; i < u->nlink; i++) OWN(u->link[i].name);
    for (int j = 0; j < u->njoint; j++) {
        OWN(u->joint[j].name);
        if (u->joint[j].mimic) OWN(u->joint[j].mimic);
    }
#undef OWN
    return 0;
}

/* The document's one top-level element must be <robot>. */
static u2d_xml *find_robot(reader *rd, u2d_xml *doc)
{
    u2d_xml *robot = NULL;
    for (u2d_xml *n = u2d_xml_first(doc); n; n = u2d_xml_next(n)) {
        if (strcmp(u2d_xml_name(n), "robot") != 0) continue;
        if (robot) {
            fail(rd, "more than one <robot> element");
            return NULL;
        }
        robot = n;
    }
    if (!robot) fail(rd, "no <robot> element");
    return robot;
}

static u2d_urdf *parse(const char *xml, char err[U2D_ERRLEN], int all)
{
    err[0] = '\0';
    u2d_urdf *u = calloc(1, sizeof *u);
    reader rd = {err, NULL, 0, u, all};
    if (!u) {
        fail(&rd, "out of memory");
        return NULL;
    }
    name_entry *links = NULL, *joints = NULL;
    u2d_xml *doc = u2d_xml_load(xml, err, xml_note, &rd);
    if (!doc) goto error;

    u2d_xml *robot = find_robot(&rd, doc);
    if (!robot) goto error;
    u->name = u2d_xml_attr(robot, "name");
    if (!u->name) u->name = "";

    for (u2d_xml *n = u2d_xml_first(robot); n; n = u2d_xml_next(n)) {
        if (strcmp(u2d_xml_name(n), "link") == 0) u->nlink++;
        if (strcmp(u2d_xml_name(n), "joint") == 0) u->njoint++;
    }
    if (u->nlink == 0) {
        fail_no_link(&rd, xml, robot);
        goto error;
    }
    u->link = calloc((size_t)u->nlink, sizeof *u->link);
    u->joint = calloc((size_t)u->njoint + 1, sizeof *u->joint);
    links = malloc(sizeof *links * (size_t)u->nlink);
    joints = malloc(sizeof *joints * (size_t)(u->njoint + 1));
    if (!u->link || !u->joint || !links || !joints) { fail(&rd, "out of memory"); goto error; }

    char what[300];
    int il = 0, ij = 0, tree_ok = 1;
    for (u2d_xml *n = u2d_xml_first(robot); n; n = u2d_xml_next(n)) {
        if (strcmp(u2d_xml_name(n), "link") != 0) continue;
        u2d_urdf_link *L = &u->link[il++];
        L->name = u2d_xml_attr(n, "name");
        rd.what = NULL;
        if (!L->name || !L->name[0]) {
            fail(&rd, "<link> is missing attribute 'name'");
            goto error;
        }
        snprintf(what, sizeof what, "link '%.200s'", L->name);
        rd.what = what;
        rd.line = L->line = u2d_xml_line(n);
        if (read_inertial(&rd, n, L)) {
            if (!go_on(&rd)) goto error;
            L->has_inertial = 0;                /* refused: read no further */
            L->mass = 0.0;
            continue;
        }
        check_vocabulary(&rd, n, &s_link);
    }
    rd.what = NULL;
    for (int i = 0; i < u->nlink; i++) links[i] = (name_entry){u->link[i].name, i};
    if (index_names(&rd, "link", links, u->nlink)) {
        if (!go_on(&rd)) goto error;
        tree_ok = 0;                            /* a name for two links: no tree check */
    }

    for (u2d_xml *n = u2d_xml_first(robot); n; n = u2d_xml_next(n)) {
        if (strcmp(u2d_xml_name(n), "joint") != 0) continue;
        u2d_urdf_joint *J = &u->joint[ij++];
        J->name = u2d_xml_attr(n, "name");
        rd.what = NULL;
        if (!J->name || !J->name[0]) {
            fail(&rd, "<joint> is missing attribute 'name'");
            goto error;
        }
        snprintf(what, sizeof what, "joint '%.200s'", J->name);
        rd.what = what;
        rd.line = J->line = u2d_xml_line(n);
        if (read_joint(&rd, u, links, n, J)) {
            if (!go_on(&rd)) goto error;
            tree_ok = 0;                        /* its links may be unknown: no tree check */
            J->mimic = NULL;
            continue;
        }
        check_vocabulary(&rd, n, &s_joint);
    }
    rd.what = NULL;
    note_xacro_in_robot(&rd, robot);
    for (int j = 0; j < u->njoint; j++) joints[j] = (name_entry){u->joint[j].name, j};
    if (index_names(&rd, "joint", joints, u->njoint)) {
        if (!go_on(&rd)) goto error;
        tree_ok = 0;
    }
    for (int j = 0; j < u->njoint; j++) {
        const char *mimic = u->joint[j].mimic;
        int k = mimic ? lookup(joints, u->njoint, mimic) : -1;
        if (mimic && k == j) {
            snprintf(what, sizeof what, "joint '%.200s'", u->joint[j].name);
            rd.what = what;
            rd.line = u->joint[j].line;
            fail(&rd, "<mimic joint=\"%.200s\">: a joint cannot mimic itself", mimic);
            rd.what = NULL;
            if (!go_on(&rd)) goto error;
            continue;
        }
        if (mimic && k < 0) {   /* mimic is not modelled: the joint moves freely anyway */
            char msg[U2D_ERRLEN], hint[240];
            mimic_hint(u, u->joint[j].name, mimic, hint, sizeof hint);
            snprintf(msg, sizeof msg, "joint '%.120s': <mimic joint=\"%.120s\">: no such joint%s; "
                     "the joint is read as an independent joint (as every mimic joint is)",
                     u->joint[j].name, mimic, hint);
            u2d_add_finding(u, u->joint[j].line, NULL, msg);
        }
    }
    if (tree_ok && check_tree(&rd, u) && !go_on(&rd)) goto error;
    if (rd.all) goto findings;
    if (u2d_own_names(u)) { fail(&rd, "out of memory"); goto error; }

    free(links);
    free(joints);
    u2d_xml_free(doc);
    return u;

error:
    if (all) {                                  /* the error that stopped the reading */
        go_on(&rd);
        goto findings;
    }
    free(links);
    free(joints);
    if (u) { u->strings = NULL; u2d_urdf_free(u); }
    u2d_xml_free(doc);
    return NULL;

findings:   /* u2d_urdf_check: the findings and errors only (the names were the document's) */
    free(links);
    free(joints);
    free(u->link);
    free(u->joint);
    u->link = NULL;
    u->joint = NULL;
    u->nlink = u->njoint = 0;
    u->name = NULL;
    u->root = -1;
    u2d_xml_free(doc);
    return u;
}

u2d_urdf *u2d_urdf_parse(const char *xml, char err[U2D_ERRLEN])
{
    return parse(xml, err, 0);
}

u2d_urdf *u2d_urdf_check(const char *xml, char err[U2D_ERRLEN])
{
    return parse(xml, err, 1);
}

void u2d_urdf_free(u2d_urdf *u)
{
    if (!u) return;
    free(u->finding);
    free(u->error);
    free(u->custom);
    free(u->func);
    free(u->fdata);
    free(u->coord);
    free(u->marker);
    free(u->coupler);
    free(u->qpos0);
    free(u->force);
    free(u->coord_order);
    free(u->osim.link_node);
    free(u->osim.axis_node);
    free(u->osim.coupler_node);
    free(u->osim.marker);
    free(u->osim.frame);
    free(u->osim.path);
    free(u->osim.point);
    free(u->osim.wrap);
    free(u->osim.named);
    free(u->osim.pathwrap);
    free(u->osim.geometry);
    free(u->link);
    free(u->joint);
    free(u->strings);
    free(u);
}

/* A rigid body's principal moments are >= 0 and obey the triangle inequality; a file's
 * are allowed rounding in their last digits, relative to the largest entry (exporters write
 * off-diagonal noise like 2e-35 on a zero diagonal). The moments, not the diagonal: a
 * tensor whose products of inertia are large can break them with a diagonal that keeps
 * them (two bodies of a published OpenSim shoulder model). */
int u2d_inertia_fault(const double I[9], double lam[3])
{
    double scale = fabs(I[0]) + fabs(I[4]) + fabs(I[8]);
    for (int k = 0; k < 9; k++) scale = fmax(scale, fabs(I[k]));
    u2d_sym3_eigenvalues(I, lam);
    int fault = lam[0] < -(1e-9 * scale + 1e-18) ? 1
              : lam[0] + lam[1] < lam[2] - 1e-6 * scale - 1e-18 ? 2 : 0;
    /* the messages show the moments: a zero comes out of the solver as +-4e-22 (every entry
     * 1e-6, a file's rank-one tensor), which reads as a negative moment; show it as 0 */
    for (int k = 0; k < 3; k++)
        if (fabs(lam[k]) <= 1e-12 * scale) lam[k] = 0.0;
    return fault;
}
