/* u2d_mjcf.c: MuJoCo's MJCF -> u2d_urdf, with MuJoCo's compiler semantics.
 *
 * The document is assembled first (<include> elements replaced by their file's elements,
 * each file found relative to the model's folder, then to the including file's, and read
 * once: a second inclusion, and hence every loop, is refused as MuJoCo refuses it). Then,
 * as MuJoCo's reader does: <compiler> and <option>, the <default> classes, the mesh assets,
 * and the <worldbody> tree, walked with explicit stacks (bodies and frames nest without
 * bound).
 *
 * Each body becomes a link; its joints a chain in document order, each at its anchor (an
 * intermediate link "body/joint" between two of them, or before the body when the last
 * joint's anchor is off the body origin); a body without joints a fixed joint (welded, as
 * in MuJoCo). A hinge at its ref, a slide at its ref, a ball at the identity place the body
 * where the XML draws it; a free joint carries the body's world pose. The root link is
 * "world" (body 0). Inertia: <inertial> (diaginertia or fullinertia), else from the geoms per
 * compiler inertiafromgeom (u2d_mjcf_mass.c, u2d_mesh.c), kept as MuJoCo keeps it (principal
 * moments and axes, an inertial frame within 1e-6 of the body's snapped to it), then boundmass,
 * boundinertia, balanceinertia and settotalmass. A joint's armature (a rotor's inertia on each of
 * its coordinates) is applied, as MuJoCo and Pinocchio apply it. What is not rigid-body dynamics
 * (damping, springs, friction loss, gravity compensation, tendons, equality constraints) changes
 * MuJoCo's own dynamics: it is counted into one finding and not applied to inverse dynamics; the
 * joints' springs and damping (every term: MuJoCo 4's polynomials, springdamper sized from M at
 * qpos0, ball and free joints' springs) go to the core's joints for Model.passive_forces
 * (u2d_passive.c). An actuator's armature and damping, which MuJoCo 4 adds to the joint it drives
 * (times gear[0]^2), go to that joint's (read_actuators); a tendon actuator's, and a free joint's
 * armature, are reported. Joint limits, the actuators' forces and contacts are read and say
 * nothing, as a URDF's limits, transmissions and collision geometry: they do not enter rigid-body
 * dynamics in MuJoCo either (contact forces come in through f_ext). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse/u2d_mjcf.h"
#include "parse/u2d_parse.h"
#include "parse/u2d_xml.h"

#define MAX_TOTAL_BYTES ((size_t)1 << 30)     /* every file of a model together */
#define MAX_CLASS_DEPTH 100                    /* MuJoCo's models nest a few       */

enum { K_JOINT = 0, K_GEOM, K_MESH, K_SITE, K_CAMERA, K_TENDON, K_TEXTURE, K_LIGHT, K_PAIR,
       K_ACTUATOR, NKIND };
static const char *const kind_name[K_ACTUATOR] = {"joint", "geom", "mesh", "site", "camera",
                                                  "tendon", "texture", "light", "pair"};

/* The elements that are actuators, in <actuator> and in a <default>: MuJoCo keeps one
 * actuator default per class, which each of them writes in document order. */
static const char *const ACTUATOR_ELEMENTS =
    "general|motor|position|velocity|damper|intvelocity|orientation|pid|cylinder|muscle|"
    "adhesion|dcmotor|plugin";

typedef struct {
    char *path;                 /* as read (owned); "" for text without a file          */
    size_t dirlen;              /* its folder is path[0 .. dirlen)                       */
} mj_file;

typedef struct {
    const char *name;
    int parent;                 /* -1 for main                                           */
    int first, count;           /* its own elements: dnode[first .. first + count)       */
    int main_limit;             /* how many of main's elements it sees (MuJoCo copies a
                                   class's parent when the class is made)                */
} mj_class;

typedef struct { int cls, kind; u2d_xml *node; } mj_dnode;

typedef struct {
    const char *name;
    u2d_xml *node;
    int cls;
    int state;                  /* 0 not computed, 1 computed                            */
    u2d_mj_mesh_mass mass;
    u2d_xml *hull_geom;         /* the first geom for which MuJoCo builds its convex hull
                                   (geom_needs_hull), NULL if none                        */
} mj_mesh;

typedef struct { const char *name; int index; } name_entry;

/* A named element of a kind MuJoCo keeps unique ("bodies"...: name_kind's words). */
typedef struct { const char *kind, *name; u2d_xml *node; int order; } mj_named;

/* A plugin <instance> of the file's <extension>: its name, element, the <plugin> holding it
 * (whose plugin= it is of), and whether an actuator names it. */
typedef struct { const char *name; u2d_xml *node, *plugin; int driven; } mj_instance;

/* A set of names (open addressing, a power-of-two capacity, at most half full). */
typedef struct { const char **slot; size_t cap, n; } name_set;

/* A joint's springdamper="timeconst dampratio" (0 0 when it has none), and a free joint's
 * armature (which urdf2dyn does not apply, but MuJoCo's mass matrix, whose inverse sizes
 * every springdamper, holds). */
typedef struct { int joint; double timeconst, dampratio, free_armature; } mj_springdamper;

/* What MuJoCo's check of moving bodies' mass reads of a body. */
typedef struct {
    u2d_xml *node;
    const char *name;
    int parent, njoint;         /* MuJoCo body ids; parent < id                          */
    double mass, lam[3];        /* as corrected, principal moments                       */
} mj_body;

typedef struct {
    char *err;
    u2d_urdf *u;
    u2d_read_fn read;
    void *ctx;
    mj_file *file;
    int nfile, capfile;
    size_t bytes;
    u2d_xml *doc, *root;
    char what[300];             /* "body 'x'": what messages are about                   */

    /* <compiler> */
    int degree, autolimits, fromgeom, group[2], balance, alignfree;
    char eulerseq[4];
    const char *meshdir, *assetdir;
    double boundmass, boundinertia, totalmass;

    /* <default> classes; class 0 is main */
    mj_class *cls;
    int ncls, capcls;
    mj_dnode *dn;
    int ndn, capdn;
    name_entry *clsindex;

    mj_mesh *mesh;
    int nmesh, capmesh;
    name_entry *meshindex;

    mj_body *body;              /* MuJoCo's bodies, by id (0 the world)                  */
    int capbody;
    int caplink, capjoint, capq0;
    char **owned;               /* generated names                                       */
    int nowned, capowned;
    name_set link_names;        /* the bodies' and links' names, the file's and generated  */
    name_set joint_names;       /* the joints' names, the file's and generated             */
    name_entry *named_joint;    /* the joints the file names (actuators' targets): core ids */
    int nnamed_joint, capnamed_joint;
    name_entry *limited_joint;  /* the named joints MuJoCo limits (limit sensors need it)  */
    int nlimited_joint, caplimited_joint;
    name_entry *ranged_joint;   /* the named joints whose range has two ends (inheritrange) */
    int nranged_joint, capranged_joint;
    name_entry *named_geom;     /* the geoms the file names: their types (GEOM_TYPES')    */
    int nnamed_geom, capnamed_geom;
    int nbody;                  /* MuJoCo body ids handed out                            */
    mj_named *named;            /* the file's elements of named kinds (unnamed: ""), sorted
                                   by kind and name: what others may refer to              */
    int nnamed;
    mj_instance *instance;      /* the <extension>'s named instances, sorted by name, and  */
    int ninstance;
    name_entry *declared;       /* its <plugin> declarations' plugin= names, sorted: looked */
    int ndeclared;              /* up per plugin element, in log time (index_plugins)      */

    /* what is read but not applied, for the summary */
    int n_damping, n_spring, n_friction, n_gravcomp, n_free_armature;
    int n_passive_given;        /* joints whose damping or spring passive_forces gives     */
    int n_spring_yield;         /* joints whose spring yields (MuJoCo 4's springyield)      */
    int n_sd_simple;            /* springdampers MuJoCo may size without the armature       */
    int n_actuator_damping;     /* actuators whose damping passive_forces gives             */
    int n_actuator_tendon_armature;     /* actuators with armature on a tendon (in qM)      */
    int n_actuator_tendon_damping;      /* actuators with damping on a tendon               */
    int n_tendon, n_tendon_armature;    /* tendons, those with armature (in qM)             */
    double *actuator_damping;   /* per core joint: its actuators' linear damping, added once
                                   springdamper has set the joint's own                     */
    mj_springdamper *sd;        /* joints with springdamper, their stiffness and damping
                                   made from the inertia once the tree is read, and free
                                   joints with armature                                    */
    int nsd, capsd;
    int nmocap;                 /* mocap bodies (a keyframe's mpos and mquat hold theirs)  */
    int nu, na;                 /* actuators, and their activation states (keyframe act)   */
    int na_known;               /* whether every actuator's states could be counted        */
} mjcf;

/* ---- messages ------------------------------------------------------------------------ */

/* "line N: " (or "FILE, line N: " for an included file) for node, into buf. A path longer
 * than 90 characters is given by its last 87 (its file's name), after "...": with the line
 * it stays within the 120 characters fail keeps of this prefix, which cut the line off. */
static void where(mjcf *rd, u2d_xml *node, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!node) return;
    int line = u2d_xml_line(node), f = u2d_xml_file(node);
    if (f > 0 && f < rd->nfile) {
        const char *path = rd->file[f].path, *cut = strlen(path) > 90 ? "..." : "";
        if (cut[0]) path += strlen(path) - 87;
        if (line > 0) snprintf(buf, len, "%s%s, line %d: ", cut, path, line);
        else snprintf(buf, len, "%s%s: ", cut, path);
    } else if (line > 0) {
        snprintf(buf, len, "line %d: ", line);
    }
}

static int fail(mjcf *rd, u2d_xml *node, const char *fmt, ...)
{
    char msg[U2D_ERRLEN], at[340];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    where(rd, node, at, sizeof at);
    if (rd->what[0]) snprintf(rd->err, U2D_ERRLEN, "%.120s%.120s: %.260s", at, rd->what, msg);
    else snprintf(rd->err, U2D_ERRLEN, "%.120s%.380s", at, msg);
    return -1;
}

static void note(mjcf *rd, u2d_xml *node, const char *fmt, ...)
{
    char msg[2 * U2D_ERRLEN], text[3 * U2D_ERRLEN], at[340] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int included = node && u2d_xml_file(node) > 0;     /* its line is another file's */
    if (included) where(rd, node, at, sizeof at);
    snprintf(text, sizeof text, "%.120s%.120s%s%s", at, rd->what, rd->what[0] ? ": " : "",
             msg);   /* the message whole: the model's summary is its longest */
    u2d_add_finding(rd->u, node && !included ? u2d_xml_line(node) : 0, NULL, text);
}

static void xml_note(void *ctx, int line, const char *message)
{
    mjcf *rd = ctx;
    int f = rd->nfile - 1;          /* the file being read: the last one added */
    if (f > 0) {                    /* an included file: name it, its line is not the main's */
        char text[2 * U2D_ERRLEN];
        if (line > 0) snprintf(text, sizeof text, "%.300s, line %d: %s", rd->file[f].path,
                               line, message);
        else snprintf(text, sizeof text, "%.300s: %s", rd->file[f].path, message);
        u2d_add_finding(rd->u, 0, NULL, text);
    } else {
        u2d_add_finding(rd->u, line, NULL, message);
    }
}

static int grow(mjcf *rd, void **p, int *cap, int n, size_t size)
{
    return u2d_grow(p, cap, n, size) ? fail(rd, NULL, "out of memory") : 0;
}

/* ---- attributes ----------------------------------------------------------------------- */

/* Numbers of attribute name on node: between min and max of them; 0 when absent, the count
 * read, or -1 (message naming the attribute). */
static int numbers(mjcf *rd, u2d_xml *node, const char *name, int min, int max, double *out)
{
    const char *s = u2d_xml_attr(node, name), *p = s;
    /* a blank one is not given to MuJoCo's reader: its class's or the default stands */
    if (!s || !s[strspn(s, " \t\n\r\v\f")]) return 0;
    int n = 0, got;
    double x;
    for (; (got = u2d_scan_number(&p, &x)) != 0; n++) {
        if (got == -1)
            return fail(rd, node, "<%s %s=\"%.60s\">: not a number", u2d_xml_name(node), name, s);
        if (got == -2)
            return fail(rd, node, "<%s %s=\"%.60s\">: not a finite number", u2d_xml_name(node),
                        name, s);
        if (n < max) out[n] = x;
    }
    if (n < min || n > max) {
        char want[40];
        if (min == max) snprintf(want, sizeof want, "%d", min);
        else snprintf(want, sizeof want, "%d to %d", min, max);
        return fail(rd, node, "<%s %s=\"%.60s\">: expected %s number%s, got %d",
                    u2d_xml_name(node), name, s, want, max == 1 ? "" : "s", n);
    }
    return n;
}

/* A keyword attribute: its index in the '|'-separated words, def when absent, -1 (message)
 * when it is none of them. */
/* The index of s among the '|'-separated words, or -1. */
static int word_index(const char *words, const char *s)
{
    size_t n = strlen(s);
    int k = 0;
    for (const char *p = words; *p; k++) {
        size_t m = strcspn(p, "|");
        if (m == n && strncmp(p, s, n) == 0) return k;
        p += m + (p[m] == '|');
    }
    return -1;
}

static int keyword(mjcf *rd, u2d_xml *node, const char *name, const char *words, int def)
{
    const char *s = u2d_xml_attr(node, name);
    if (!s) return def;
    int k = word_index(words, s);
    if (k >= 0) return k;
    char list[200];
    snprintf(list, sizeof list, "%s", words);
    for (char *c = list; *c; c++) if (*c == '|') *c = ',';
    return fail(rd, node, "<%s %s=\"%.60s\">: expected one of %s", u2d_xml_name(node), name, s,
                list);
}

static const char *BOOL_WORDS = "false|true";

/* Whether s is whole decimal numbers within an int, separated by spaces, or nothing (spaces
 * only), as MuJoCo reads an int attribute (actdim=, a camera's resolution="640 480"): 1,
 * else 0 where MuJoCo says "bad format" ("1.0", "1e0" and "0x1") or -1 where it says
 * "number is too large" (beyond an int either way). (How many is the caller's to check.) */
static int whole_ints(const char *s)
{
    const char *p = s + strspn(s, " \t\n\r\v\f");
    while (*p) {
        const char *digits = p + (*p == '+' || *p == '-');
        size_t n = strspn(digits, "0123456789");
        if (n == 0) return 0;
        /* a number running into other characters is "bad format" even beyond an int:
         * MuJoCo's reader checks what ends it after its range ("3000000000x") */
        const char *end = digits + n;
        size_t gap = strspn(end, " \t\n\r\v\f");
        if (gap == 0 && *end) return 0;
        /* long long, 64 bits everywhere (a long is 32 on Windows, where "2147483648" would
         * saturate to LONG_MAX, an int); LLONG_MAX on overflow, beyond an int too */
        long long v = strtoll(p, NULL, 10);
        if (v > 2147483647LL || v < -2147483647LL - 1) return -1;
        p = end + gap;
    }
    return 1;
}

/* Whether s is one whole decimal number within an int, or nothing: 1, 0 or -1 (whole_ints). */
static int whole_int(const char *s)
{
    const char *p = s + strspn(s, " \t\n\r\v\f");
    const char *end = p + strcspn(p, " \t\n\r\v\f");
    int got = whole_ints(s);
    return got == 1 && end[strspn(end, " \t\n\r\v\f")] != '\0' ? 0 : got;
}

/* Int attribute attr="v" of e holds a number beyond an int (whole_ints' -1): -1 (message in
 * MuJoCo's words). */
static int int_too_large(mjcf *rd, u2d_xml *e, const char *attr, const char *v)
{
    return fail(rd, e, "<%.40s %s=\"%.60s\">: a number beyond an int (MuJoCo refuses it: "
                "\"number is too large in attribute '%s'\"): give an integer from -2147483648 "
                "to 2147483647, or leave it out", u2d_xml_name(e), attr, v, attr);
}

/* An actuator's actdim= (in <actuator> or a <default>) is one whole number: MuJoCo refuses
 * any other ("bad format in attribute 'actdim'", "has too much data"). 0 or -1 (message). */
static int check_actdim(mjcf *rd, u2d_xml *e)
{
    const char *v = u2d_xml_attr(e, "actdim");
    int got = v ? whole_int(v) : 1;
    if (got == 1) return 0;
    if (got < 0) return int_too_large(rd, e, "actdim", v);
    return fail(rd, e, "<%s actdim=\"%.60s\">: not one whole number (MuJoCo refuses it: "
                "\"bad format in attribute 'actdim'\"): give the number of activation states "
                "as an integer, e.g. actdim=\"1\", or leave it out", u2d_xml_name(e), v);
}

/* The keywords MuJoCo 4.0.0's reader takes in an actuator's attributes (any kind, where
 * its schema has them): another word, or a blank one, is an "invalid keyword" to it. */
static const char *const ACTUATOR_KEYWORDS[][2] = {
    {"dyntype", "none|integrator|filter|filterexact|muscle|dcmotor|pid|user"},
    {"gaintype", "fixed|affine|muscle|dcmotor|so3|pid|user"},
    {"biastype", "none|affine|muscle|dcmotor|so3|user"}, {"interp", "zoh|linear|cubic"},
    {"ctrllimited", "false|true|auto"}, {"forcelimited", "false|true|auto"},
    {"actlimited", "false|true|auto"}};

/* Actuator element e's keywords (ACTUATOR_KEYWORDS), in <actuator> or a <default>, used or
 * not. 0 or -1 (message). */
static int check_actuator_keywords(mjcf *rd, u2d_xml *e)
{
    for (size_t k = 0; k < sizeof ACTUATOR_KEYWORDS / sizeof ACTUATOR_KEYWORDS[0]; k++)
        if (keyword(rd, e, ACTUATOR_KEYWORDS[k][0], ACTUATOR_KEYWORDS[k][1], 0) < 0) return -1;
    return 0;
}

/* An actuator's actdim= (only <general> and a plugin actuator have it and actearly=: MuJoCo 4's
 * schema refuses them on the others, check_attribute_schema) is one whole number, its
 * actearly= false or true. 0 or -1 (message). */
static int check_activation_attributes(mjcf *rd, u2d_xml *e)
{
    return check_actdim(rd, e) || keyword(rd, e, "actearly", BOOL_WORDS, 0) < 0 ? -1 : 0;
}

static int count_values(mjcf *rd, u2d_xml *node, const char *who, const char *name);

/* The attributes MuJoCo 4.0.0's schema gives each element (mj_printSchema's text), a row per
 * element keyed "parent tag": an element's attributes depend on where it is (a <default>'s
 * <joint> has no name=, an <equality>'s <joint> is a constraint, an <actuator>'s <motor> has
 * its target and a <default>'s not). The children of <worldbody>, <body>, <frame> and
 * <replicate> are "body ..." rows (the schema's "(world)body"); <mujoco>'s own row is
 * "mujoco". Any attribute beyond its row's is an "unrecognized attribute" to MuJoCo, used or
 * not. Elements the printed schema has no row for (<worldbody>, <frame>, <replicate>,
 * <composite>) are left to their readers. */
static const char *const ATTRIBUTE_SCHEMA[][2] = {
    {"mujoco", "model"},
    {"mujoco compiler",
     "alignfree|angle|assetdir|autolimits|balanceinertia|boundinertia|boundmass|conflict|"
     "coordinate|discardvisual|eulerseq|fitaabb|fusestatic|inertiafromgeom|inertiagrouprange|"
     "meshdir|passthrough|savecanonical|savecompiled|saveinertial|settotalmass|strippath|"
     "texturedir|usethread"},
    {"compiler lengthrange",
     "accel|interval|inttotal|maxforce|mode|timeconst|timestep|tolrange|useexisting|uselimit"},
    {"mujoco option",
     "actuatorgroupdisable|ccd_iterations|ccd_tolerance|cone|density|gravity|impratio|"
     "integrator|iterations|jacobian|ls_iterations|ls_tolerance|magnetic|noslip_iterations|"
     "noslip_tolerance|o_friction|o_margin|o_solimp|o_solref|sdf_initpoints|sdf_iterations|"
     "sleep_tolerance|solver|timestep|tolerance|viscosity|wind"},
    {"option flag",
     "actuation|autoreset|clampctrl|constraint|contact|damper|diagexact|energy|equality|"
     "eulerdamp|filterparent|frictionloss|fwdinv|gravity|invdiscrete|ipc|island|limit|"
     "midphase|multiccd|nativeccd|override|refsafe|sensor|sleep|speculative|spring|warmstart"},
    {"mujoco size",
     "memory|nconmax|njmax|nkey|nstack|nuser_actuator|nuser_body|nuser_cam|nuser_geom|"
     "nuser_jnt|nuser_sensor|nuser_site|nuser_tendon|nuserdata"},
    {"mujoco statistic", "center|extent|meaninertia|meanmass|meansize"},
    {"mujoco visual", ""},
    {"visual global",
     "azimuth|bvactive|cameraid|elevation|ellipsoidinertia|fovy|glow|ipd|linewidth|offheight|"
     "offwidth|orthographic|realtime"},
    {"visual quality", "numquads|numslices|numstacks|offsamples|shadowsize"},
    {"visual headlight", "active|ambient|diffuse|specular"},
    {"visual map",
     "actuatortendon|alpha|fogend|fogstart|force|haze|shadowclip|shadowscale|stiffness|"
     "stiffnessrot|torque|zfar|znear"},
    {"visual scale",
     "actuatorlength|actuatorwidth|camera|com|connect|constraint|contactheight|contactwidth|"
     "forcewidth|framelength|framewidth|frustum|jointlength|jointwidth|light|selectpoint|"
     "slidercrank"},
    {"visual rgba",
     "actuator|actuatornegative|actuatorpositive|bv|bvactive|camera|com|connect|constraint|"
     "contactforce|contactfriction|contactgap|contactpoint|contacttorque|crankbroken|fog|"
     "force|frustum|haze|inertia|joint|light|rangefinder|selectpoint|slidercrank"},
    {"mujoco default", "class"},
    {"default default", "class"},
    {"default mesh", "inertia|maxhullvert|scale"},
    {"default texture",
     "builtin|colorspace|embed|gridlayout|gridsize|height|hflip|mark|markrgb|nchannel|random|"
     "rgb1|rgb2|type|vflip|width"},
    {"default material",
     "emission|metallic|reflectance|rgba|roughness|shininess|specular|texrepeat|texture|"
     "texuniform"},
    {"material layer", "role|texture"},
    {"default joint",
     "actuatorfrclimited|actuatorfrcrange|actuatorgravcomp|armature|axis|damping|frictionloss|"
     "group|limited|margin|pos|range|ref|solimpfriction|solimplimit|solreffriction|"
     "solreflimit|springdamper|springref|springyield|stiffness|type|user"},
    {"default geom",
     "adhesion|axisangle|castshadow|conaffinity|condim|contype|density|euler|fitscale|"
     "fluidcoef|fluidshape|friction|fromto|gap|group|hfield|margin|mass|material|mesh|pos|"
     "priority|quat|rgba|shellinertia|size|solimp|solmix|solref|surfacevel|type|user|xyaxes|"
     "zaxis"},
    {"default site",
     "axisangle|euler|fromto|group|material|mesh|pos|quat|rgba|size|type|user|xyaxes|zaxis"},
    {"default camera",
     "axisangle|euler|focal|focalpixel|fovy|ipd|mode|output|pos|principal|principalpixel|"
     "projection|quat|resolution|sensorsize|user|xyaxes|zaxis"},
    {"default light",
     "active|ambient|attenuation|bulbradius|castshadow|cutoff|diffuse|dir|directional|"
     "exponent|intensity|mode|pos|range|softness|specular|type"},
    {"default pair", "adhesion|condim|friction|gap|margin|solimp|solref|solreffriction"},
    {"default equality", "active|solimp|solref"},
    {"default tendon",
     "actuatorfrclimited|actuatorfrcrange|armature|damping|frictionloss|group|limited|margin|"
     "material|range|rgba|solimpfriction|solimplimit|solreffriction|solreflimit|springlength|"
     "springyield|stiffness|user|width"},
    {"default general",
     "actdim|actearly|actlimited|actrange|armature|biasprm|biastype|cranklength|ctrllimited|"
     "ctrlrange|damping|delay|dynprm|dyntype|ffrange|forcelimited|forcerange|gainprm|gaintype|"
     "gear|group|inheritrange|input|interp|nsample|user|velrange"},
    {"default motor",
     "armature|cranklength|ctrllimited|ctrlrange|damping|delay|forcelimited|forcerange|gear|"
     "group|interp|nsample|user"},
    {"default position",
     "armature|cranklength|ctrllimited|ctrlrange|damping|dampratio|delay|forcelimited|"
     "forcerange|gear|group|inheritrange|interp|kp|kv|nsample|timeconst|user"},
    {"default velocity",
     "armature|cranklength|ctrllimited|ctrlrange|damping|delay|forcelimited|forcerange|gear|"
     "group|interp|kv|nsample|user"},
    {"default intvelocity",
     "actlimited|actrange|armature|cranklength|ctrllimited|ctrlrange|damping|dampratio|delay|"
     "forcelimited|forcerange|gear|group|inheritrange|interp|kp|kv|nsample|user"},
    {"default orientation",
     "ctrlrange|dampratio|delay|forcelimited|forcerange|group|input|interp|kp|kv|nsample|user"},
    {"default pid",
     "armature|cranklength|ctrllimited|ctrlrange|damping|dampratio|delay|ffrange|forcelimited|"
     "forcerange|gear|group|imax|inheritrange|input|interp|ki|kp|kv|nsample|posrange|slewmax|"
     "user|velrange"},
    {"default damper",
     "armature|cranklength|ctrlrange|damping|delay|forcelimited|forcerange|gear|group|interp|"
     "kv|nsample|user"},
    {"default cylinder",
     "area|armature|bias|cranklength|ctrllimited|ctrlrange|damping|delay|diameter|"
     "forcelimited|forcerange|gear|group|interp|nsample|timeconst|user"},
    {"default muscle",
     "armature|cranklength|ctrllimited|ctrlrange|damping|delay|force|forcelimited|forcerange|"
     "fpmax|fvmax|gear|group|interp|lmax|lmin|nsample|range|scale|timeconst|user|vmax"},
    {"default adhesion", "ctrlrange|delay|forcelimited|forcerange|gain|group|interp|nsample|user"},
    {"default dcmotor",
     "armature|cogging|controller|cranklength|ctrllimited|ctrlrange|damping|delay|gear|group|"
     "inductance|input|interp|lugre|motorconst|nominal|nsample|resistance|saturation|thermal|"
     "user"},
    {"mujoco extension", ""},
    {"extension plugin", "plugin"},
    {"plugin instance", "name"},
    {"instance config", "key|value"},
    {"mujoco asset", ""},
    {"asset mesh",
     "builtin|class|content_type|face|file|inertia|material|maxhullvert|name|normal|params|"
     "refpos|refquat|scale|smoothnormal|texcoord|vertex"},
    {"mesh plugin", "instance|plugin"},
    {"plugin config", "key|value"},
    {"asset hfield", "content_type|elevation|file|name|ncol|nrow|size"},
    {"asset skin", "face|file|group|inflate|material|name|rgba|texcoord|vertex"},
    {"skin bone", "bindpos|bindquat|body|vertid|vertweight"},
    {"asset texture",
     "builtin|class|colorspace|content_type|embed|file|fileback|filedown|filefront|fileleft|"
     "fileright|fileup|gridlayout|gridsize|height|hflip|mark|markrgb|name|nchannel|random|"
     "rgb1|rgb2|type|vflip|width"},
    {"asset material",
     "class|emission|metallic|name|reflectance|rgba|roughness|shininess|specular|texrepeat|"
     "texture|texuniform"},
    {"asset model", "content_type|file|name"},
    {"body body",
     "axisangle|childclass|euler|fuse|gravcomp|mocap|name|pos|quat|simple|sleep|user|xyaxes|"
     "zaxis"},
    {"body inertial", "axisangle|diaginertia|euler|fullinertia|mass|pos|quat|xyaxes|zaxis"},
    {"body joint",
     "actuatorfrclimited|actuatorfrcrange|actuatorgravcomp|armature|axis|class|damping|"
     "frictionloss|group|limited|margin|name|pos|range|ref|solimpfriction|solimplimit|"
     "solreffriction|solreflimit|springdamper|springref|springyield|stiffness|type|user"},
    {"body freejoint", "align|group|name"},
    {"body geom",
     "adhesion|axisangle|castshadow|class|conaffinity|condim|contype|density|euler|fitscale|"
     "fluidcoef|fluidshape|friction|fromto|gap|group|hfield|margin|mass|material|mesh|name|"
     "pos|priority|quat|rgba|shellinertia|size|solimp|solmix|solref|surfacevel|type|user|"
     "xyaxes|zaxis"},
    {"geom plugin", "instance|plugin"},
    {"body attach", "body|frame|model|prefix"},
    {"body site",
     "axisangle|class|euler|fromto|group|material|mesh|name|pos|quat|rgba|size|type|user|"
     "xyaxes|zaxis"},
    {"body camera",
     "axisangle|class|euler|focal|focalpixel|fovy|ipd|mode|name|output|pos|principal|"
     "principalpixel|projection|quat|resolution|sensorsize|target|user|xyaxes|zaxis"},
    {"body light",
     "active|ambient|attenuation|bulbradius|castshadow|class|cutoff|diffuse|dir|directional|"
     "exponent|intensity|mode|name|pos|range|softness|specular|target|texture|type"},
    {"body plugin", "instance|plugin"},
    {"body flexcomp",
     "axisangle|cellcount|count|dim|dof|element|euler|file|flatskin|group|inertiabox|mass|"
     "material|mesh|name|origin|point|pos|quat|radius|rgba|rigid|scale|spacing|texcoord|type|"
     "xyaxes|zaxis"},
    {"flexcomp edge", "damping|equality|solimp|solref|stiffness"},
    {"flexcomp elasticity",
     "damping|elastic2d|poisson|section|sectionsize|shear|thickness|yield|young"},
    {"flexcomp contact",
     "activelayers|conaffinity|condim|contype|friction|gap|margin|passive|priority|"
     "selfcollide|solimp|solmix|solref"},
    {"flexcomp pin", "grid|gridrange|id|range"},
    {"flexcomp plugin", "instance|plugin"},
    {"mujoco deformable", ""},
    {"deformable flex",
     "body|cellcount|dim|dof|element|elemtexcoord|flatskin|group|material|name|node|nodecoord|"
     "radius|rgba|texcoord|vertex"},
    {"flex contact",
     "activelayers|conaffinity|condim|contype|friction|gap|margin|passive|priority|"
     "selfcollide|solimp|solmix|solref"},
    {"flex edge", "damping|stiffness"},
    {"flex elasticity",
     "damping|elastic2d|poisson|section|sectionsize|shear|thickness|yield|young"},
    {"deformable skin", "face|file|group|inflate|material|name|rgba|texcoord|vertex"},
    {"mujoco contact", ""},
    {"contact pair",
     "adhesion|class|condim|friction|gap|geom1|geom2|margin|name|solimp|solref|solreffriction"},
    {"contact exclude", "body1|body2|name"},
    {"mujoco tendon", ""},
    {"tendon spatial",
     "actuatorfrclimited|actuatorfrcrange|armature|class|damping|frictionloss|group|limited|"
     "margin|material|name|range|rgba|solimpfriction|solimplimit|solreffriction|solreflimit|"
     "springlength|springyield|stiffness|user|width"},
    {"spatial site", "site"},
    {"spatial geom", "geom|sidesite"},
    {"spatial pulley", "divisor"},
    {"tendon fixed",
     "actuatorfrclimited|actuatorfrcrange|armature|class|damping|frictionloss|group|limited|"
     "margin|name|range|solimpfriction|solimplimit|solreffriction|solreflimit|springlength|"
     "springyield|stiffness|user"},
    {"fixed joint", "coef|joint"},
    {"mujoco equality", ""},
    {"equality connect", "active|anchor|body1|body2|class|name|site1|site2|solimp|solref"},
    {"equality weld",
     "active|anchor|body1|body2|class|name|relpose|site1|site2|solimp|solref|torquescale"},
    {"equality joint", "active|class|joint1|joint2|name|polycoef|solimp|solref"},
    {"equality tendon", "active|class|name|polycoef|solimp|solref|tendon1|tendon2"},
    {"equality flex", "active|class|flex|name|solimp|solref"},
    {"equality flexstrain", "active|cell|class|flex|name|solimp|solref"},
    {"mujoco actuator", ""},
    {"actuator general",
     "actdim|actearly|actlimited|actrange|armature|biasprm|biastype|body|class|cranklength|"
     "cranksite|ctrllimited|ctrlrange|damping|delay|dynprm|dyntype|ffrange|forcelimited|"
     "forcerange|gainprm|gaintype|gear|group|inheritrange|input|interp|joint|jointinparent|"
     "lengthrange|name|nsample|refsite|site|slidersite|tendon|user|velrange"},
    {"actuator motor",
     "armature|class|cranklength|cranksite|ctrllimited|ctrlrange|damping|delay|forcelimited|"
     "forcerange|gear|group|interp|joint|jointinparent|lengthrange|name|nsample|refsite|site|"
     "slidersite|tendon|user"},
    {"actuator position",
     "armature|class|cranklength|cranksite|ctrllimited|ctrlrange|damping|dampratio|delay|"
     "forcelimited|forcerange|gear|group|inheritrange|interp|joint|jointinparent|kp|kv|"
     "lengthrange|name|nsample|refsite|site|slidersite|tendon|timeconst|user"},
    {"actuator velocity",
     "armature|class|cranklength|cranksite|ctrllimited|ctrlrange|damping|delay|forcelimited|"
     "forcerange|gear|group|interp|joint|jointinparent|kv|lengthrange|name|nsample|refsite|"
     "site|slidersite|tendon|user"},
    {"actuator intvelocity",
     "actlimited|actrange|armature|class|cranklength|cranksite|ctrllimited|ctrlrange|damping|"
     "dampratio|delay|forcelimited|forcerange|gear|group|inheritrange|interp|joint|"
     "jointinparent|kp|kv|lengthrange|name|nsample|refsite|site|slidersite|tendon|user"},
    {"actuator orientation",
     "class|ctrlrange|dampratio|delay|forcelimited|forcerange|group|input|interp|joint|kp|kv|"
     "name|nsample|refsite|site|user"},
    {"actuator pid",
     "armature|class|cranklength|cranksite|ctrllimited|ctrlrange|damping|dampratio|delay|"
     "ffrange|forcelimited|forcerange|gear|group|imax|inheritrange|input|interp|joint|"
     "jointinparent|ki|kp|kv|lengthrange|name|nsample|posrange|refsite|site|slewmax|"
     "slidersite|tendon|user|velrange"},
    {"actuator damper",
     "armature|class|cranklength|cranksite|ctrlrange|damping|delay|forcelimited|forcerange|"
     "gear|group|interp|joint|jointinparent|kv|lengthrange|name|nsample|refsite|site|"
     "slidersite|tendon|user"},
    {"actuator cylinder",
     "area|armature|bias|class|cranklength|cranksite|ctrllimited|ctrlrange|damping|delay|"
     "diameter|forcelimited|forcerange|gear|group|interp|joint|jointinparent|lengthrange|name|"
     "nsample|refsite|site|slidersite|tendon|timeconst|user"},
    {"actuator muscle",
     "armature|class|cranklength|cranksite|ctrllimited|ctrlrange|damping|delay|force|"
     "forcelimited|forcerange|fpmax|fvmax|gear|group|interp|joint|jointinparent|lengthrange|"
     "lmax|lmin|name|nsample|range|scale|slidersite|tausmooth|tendon|timeconst|user|vmax"},
    {"actuator adhesion",
     "body|class|ctrlrange|delay|forcelimited|forcerange|gain|group|interp|name|nsample|user"},
    {"actuator dcmotor",
     "armature|class|cogging|controller|cranklength|cranksite|ctrllimited|ctrlrange|damping|"
     "delay|gear|group|inductance|input|interp|joint|jointinparent|lengthrange|lugre|"
     "motorconst|name|nominal|nsample|refsite|resistance|saturation|site|slidersite|tendon|"
     "thermal|user"},
    {"actuator plugin",
     "actdim|actearly|actlimited|actrange|armature|class|cranklength|cranksite|ctrllimited|"
     "ctrlrange|damping|delay|dynprm|dyntype|forcelimited|forcerange|gear|group|instance|"
     "interp|joint|jointinparent|lengthrange|name|nsample|plugin|site|slidersite|tendon|user"},
    {"mujoco sensor", ""},
    {"sensor touch", "cutoff|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor accelerometer", "cutoff|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor velocimeter", "cutoff|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor gyro", "cutoff|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor force", "cutoff|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor torque", "cutoff|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor magnetometer", "cutoff|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor camprojection", "camera|cutoff|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor rangefinder",
     "camera|cutoff|data|delay|interp|interval|name|noise|nsample|site|user"},
    {"sensor jointpos", "cutoff|delay|interp|interval|joint|name|noise|nsample|user"},
    {"sensor jointvel", "cutoff|delay|interp|interval|joint|name|noise|nsample|user"},
    {"sensor tendonpos", "cutoff|delay|interp|interval|name|noise|nsample|tendon|user"},
    {"sensor tendonvel", "cutoff|delay|interp|interval|name|noise|nsample|tendon|user"},
    {"sensor actuatorpos", "actuator|cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor actuatorvel", "actuator|cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor actuatorfrc", "actuator|cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor jointactuatorfrc", "cutoff|delay|interp|interval|joint|name|noise|nsample|user"},
    {"sensor tendonactuatorfrc", "cutoff|delay|interp|interval|name|noise|nsample|tendon|user"},
    {"sensor ballquat", "cutoff|delay|interp|interval|joint|name|noise|nsample|user"},
    {"sensor ballangvel", "cutoff|delay|interp|interval|joint|name|noise|nsample|user"},
    {"sensor jointlimitpos", "cutoff|delay|interp|interval|joint|name|noise|nsample|user"},
    {"sensor jointlimitvel", "cutoff|delay|interp|interval|joint|name|noise|nsample|user"},
    {"sensor jointlimitfrc", "cutoff|delay|interp|interval|joint|name|noise|nsample|user"},
    {"sensor tendonlimitpos", "cutoff|delay|interp|interval|name|noise|nsample|tendon|user"},
    {"sensor tendonlimitvel", "cutoff|delay|interp|interval|name|noise|nsample|tendon|user"},
    {"sensor tendonlimitfrc", "cutoff|delay|interp|interval|name|noise|nsample|tendon|user"},
    {"sensor framepos",
     "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|refname|reftype|user"},
    {"sensor framequat",
     "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|refname|reftype|user"},
    {"sensor framexaxis",
     "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|refname|reftype|user"},
    {"sensor frameyaxis",
     "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|refname|reftype|user"},
    {"sensor framezaxis",
     "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|refname|reftype|user"},
    {"sensor framelinvel",
     "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|refname|reftype|user"},
    {"sensor frameangvel",
     "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|refname|reftype|user"},
    {"sensor framelinacc", "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|user"},
    {"sensor frameangacc", "cutoff|delay|interp|interval|name|noise|nsample|objname|objtype|user"},
    {"sensor subtreecom", "body|cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor subtreelinvel", "body|cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor subtreeangmom", "body|cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor insidesite",
     "cutoff|delay|enclosed|interp|interval|name|noise|nsample|objname|objtype|site|user"},
    {"sensor distance",
     "body1|body2|cutoff|delay|geom1|geom2|interp|interval|name|noise|nsample|user"},
    {"sensor normal",
     "body1|body2|cutoff|delay|geom1|geom2|interp|interval|name|noise|nsample|user"},
    {"sensor fromto",
     "body1|body2|cutoff|delay|geom1|geom2|interp|interval|name|noise|nsample|user"},
    {"sensor contact",
     "body1|body2|cutoff|data|delay|geom1|geom2|interp|interval|name|noise|nsample|num|reduce|"
     "site|subtree1|subtree2|user"},
    {"sensor e_potential", "cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor e_kinetic", "cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor clock", "cutoff|delay|interp|interval|name|noise|nsample|user"},
    {"sensor tactile", "cutoff|delay|geom|interp|interval|mesh|name|nsample|user"},
    {"sensor user", "cutoff|datatype|dim|name|needstage|noise|objname|objtype|user"},
    {"sensor plugin", "cutoff|instance|name|objname|objtype|plugin|refname|reftype|user"},
    {"mujoco custom", ""},
    {"custom numeric", "data|name|size"},
    {"custom text", "data|name"},
    {"custom tuple", "name"},
    {"tuple element", "objname|objtype|prm"},
    {"mujoco keyframe", ""},
    {"keyframe key", "act|ctrl|mpos|mquat|name|plastic|qpos|qvel|time"},
};

/* What to do instead of an attribute rows do not have ('|'-separated rows, "actuators" for
 * every actuator's, in <actuator> or a <default>; '|'-separated attributes, "" for any),
 * first match first. */
static const char *const ATTRIBUTE_ADVICE[][3] = {
    {"body body", "mass", "give the body's mass in its <inertial mass=...>, or its geoms' "
                          "mass= or density="},
    {"tendon fixed", "rgba|width", "only a <spatial> tendon is drawn: move it there, or remove "
                                   "it"},
    {"body camera|default camera", "orthographic", "MuJoCo 4 writes projection=\"orthographic\""},
    {"body joint|default joint", "forcerange", "a joint's is actuatorfrcrange= (with "
                                               "actuatorfrclimited=), an actuator's forcerange="},
    {"actuators", "actdim", "only <general> and a plugin actuator set the number of activation "
                            "states: leave it out, or use <general> with a dyntype"},
    {"actuators", "actearly", "only <general> and a plugin actuator set it; a <dcmotor> sets it "
                              "to true, every other shortcut to false: leave it out, or use "
                              "<general>"},
    {"actuators", "actrange|actlimited", "only <general> and <intvelocity> have an activation "
                                         "range: leave it out, or use <general> with a dyntype"},
    {"actuators", "", "remove it, or use an actuator kind that has it"}};

/* The numbers MuJoCo 4.0.0's reader takes in the attributes of other elements than actuators
 * (ACTUATOR_NUMBERS has theirs) that urdf2dyn's readers do not read themselves: at most max,
 * exactly max where exact, an int one whole number ("bad format", "has too much data", "does
 * not have enough data", as MuJoCo 4.0.0 answers them). rows: ATTRIBUTE_SCHEMA's keys,
 * '|'-separated; "sensors" is every sensor's. */
static const struct { const char *rows, *attr; int max, exact, whole; } ELEMENT_NUMBERS[] = {
    {"asset mesh", "refpos", 3, 1, 0},
    {"asset mesh", "refquat", 4, 1, 0},
    {"body camera|default camera", "focal", 2, 1, 0},
    {"body camera|default camera", "focalpixel", 2, 1, 0},
    {"body camera|default camera", "fovy", 1, 1, 0},
    {"body camera|default camera", "ipd", 1, 1, 0},
    {"body camera|default camera", "principal", 2, 1, 0},
    {"body camera|default camera", "principalpixel", 2, 1, 0},
    {"body camera|default camera", "resolution", 2, 1, 1},
    {"body camera|default camera", "sensorsize", 2, 1, 0},
    {"body geom|default geom|default pair|contact pair", "adhesion", 1, 1, 0},
    {"body geom|default geom", "conaffinity", 1, 1, 1},
    {"body geom|default geom|default pair|contact pair", "condim", 1, 1, 1},
    {"body geom|default geom", "contype", 1, 1, 1},
    {"body geom|default geom", "fitscale", 1, 1, 0},
    {"body geom|default geom", "fluidcoef", 5, 0, 0},
    {"body geom|default geom", "friction", 3, 0, 0},
    {"body geom|default geom|default pair|contact pair", "gap", 1, 1, 0},
    {"body geom|default geom", "priority", 1, 1, 1},
    {"body geom|body site|default geom|default site|default tendon|default material|"
     "tendon spatial|asset material", "rgba", 4, 1, 0},
    {"body geom|default geom|default equality|default pair|equality joint|"
     "equality connect|equality weld|contact pair", "solimp", 5, 0, 0},
    {"body geom|default geom", "solmix", 1, 1, 0},
    {"body geom|default geom|default equality|default pair|equality joint|"
     "equality connect|equality weld|contact pair", "solref", 2, 0, 0},
    {"body geom|default geom", "surfacevel", 6, 0, 0},
    {"body joint|body geom|body site|default joint|default geom|default site|"
     "default tendon|tendon fixed|tendon spatial", "group", 1, 1, 1},
    {"body joint|body geom|default joint|default geom|default tendon|default pair|"
     "tendon fixed|tendon spatial|contact pair", "margin", 1, 1, 0},
    {"body joint|default joint|default tendon|tendon fixed|tendon spatial",
     "solimpfriction", 5, 0, 0},
    {"body joint|default joint|default tendon|tendon fixed|tendon spatial",
     "solimplimit", 5, 0, 0},
    {"body joint|default joint|default tendon|default pair|tendon fixed|"
     "tendon spatial|contact pair", "solreffriction", 2, 0, 0},
    {"body joint|default joint|default tendon|tendon fixed|tendon spatial",
     "solreflimit", 2, 0, 0},
    {"body light|default light", "ambient", 3, 1, 0},
    {"body light|default light", "attenuation", 3, 1, 0},
    {"body light|default light", "bulbradius", 1, 1, 0},
    {"body light|default light|sensors", "cutoff", 1, 1, 0},
    {"body light|default light", "diffuse", 3, 1, 0},
    {"body light|default light", "dir", 3, 1, 0},
    {"body light|default light", "exponent", 1, 1, 0},
    {"body light|default light", "intensity", 1, 1, 0},
    {"body light|default light", "range", 1, 1, 0},
    {"body light|default light", "softness", 1, 1, 0},
    {"body light|default light", "specular", 3, 1, 0},
    {"body site|body camera|body light|default site|default camera|default light", "pos", 3, 1, 0},
    {"default camera", "axisangle", 4, 1, 0},
    {"default camera", "euler", 3, 1, 0},
    {"default camera", "xyaxes", 6, 1, 0},
    {"default camera", "zaxis", 3, 1, 0},
    {"default material|asset material", "emission", 1, 1, 0},
    {"default material|asset material", "metallic", 1, 1, 0},
    {"default material|asset material", "reflectance", 1, 1, 0},
    {"default material|asset material", "roughness", 1, 1, 0},
    {"default material|asset material", "shininess", 1, 1, 0},
    {"default material|asset material", "specular", 1, 1, 0},
    {"default material|asset material", "texrepeat", 2, 1, 0},
    {"default mesh|asset mesh", "scale", 3, 1, 0},
    {"default pair|contact pair", "friction", 5, 0, 0},
    {"default tendon", "actuatorfrcrange", 2, 1, 0},
    {"default tendon", "armature", 1, 1, 0},
    {"default tendon|tendon fixed|tendon spatial", "damping", 3, 0, 0},
    {"default tendon|tendon fixed|tendon spatial", "frictionloss", 1, 1, 0},
    {"default tendon", "range", 2, 1, 0},
    {"default tendon|tendon fixed|tendon spatial", "springlength", 2, 0, 0},
    {"default tendon|tendon fixed|tendon spatial", "springyield", 1, 1, 0},
    {"default tendon|tendon fixed|tendon spatial", "stiffness", 3, 0, 0},
    {"default tendon|tendon spatial", "width", 1, 1, 0},
    {"equality joint", "polycoef", 5, 0, 0},
    {"equality weld", "torquescale", 1, 1, 0},
    {"fixed joint", "coef", 1, 1, 0},
    {"mujoco option", "ccd_iterations", 1, 1, 1},
    {"mujoco option", "ccd_tolerance", 1, 1, 0},
    {"mujoco option", "impratio", 1, 1, 0},
    {"mujoco option", "iterations", 1, 1, 1},
    {"mujoco option", "ls_iterations", 1, 1, 1},
    {"mujoco option", "ls_tolerance", 1, 1, 0},
    {"mujoco option", "magnetic", 3, 1, 0},
    {"mujoco option", "noslip_iterations", 1, 1, 1},
    {"mujoco option", "noslip_tolerance", 1, 1, 0},
    {"mujoco option", "o_friction", 5, 0, 0},
    {"mujoco option", "o_margin", 1, 1, 0},
    {"mujoco option", "o_solimp", 5, 0, 0},
    {"mujoco option", "o_solref", 2, 0, 0},
    {"mujoco option", "sdf_initpoints", 1, 1, 1},
    {"mujoco option", "sdf_iterations", 1, 1, 1},
    {"mujoco option", "sleep_tolerance", 1, 1, 0},
    {"mujoco option", "timestep", 1, 1, 0},
    {"mujoco option", "tolerance", 1, 1, 0},
    {"mujoco option", "wind", 3, 1, 0},
    {"mujoco size", "nkey", 1, 1, 1},
    {"mujoco size", "nuser_actuator", 1, 1, 1},
    {"mujoco size", "nuser_body", 1, 1, 1},
    {"mujoco size", "nuser_cam", 1, 1, 1},
    {"mujoco size", "nuser_geom", 1, 1, 1},
    {"mujoco size", "nuser_jnt", 1, 1, 1},
    {"mujoco size", "nuser_sensor", 1, 1, 1},
    {"mujoco size", "nuser_site", 1, 1, 1},
    {"mujoco size", "nuser_tendon", 1, 1, 1},
    {"mujoco size", "nuserdata", 1, 1, 1},
    {"sensors", "delay", 1, 1, 0},
    {"sensors", "interval", 2, 0, 0},
    {"sensors", "noise", 1, 1, 0},
    {"sensors", "nsample", 1, 1, 1},
};

/* Attribute attr of e, when given, holds numbers MuJoCo reads (nan and inf too; a blank one
 * is not given): at most max of them, exactly max where exact (or none), one whole number
 * where whole. 0 or -1 (message with MuJoCo's reason). */
static int check_number_attribute(mjcf *rd, u2d_xml *e, const char *attr, int max, int exact,
                                  int whole)
{
    const char *el = u2d_xml_name(e), *v = u2d_xml_attr(e, attr);
    if (!v) return 0;
    int got = !whole ? 1 : max == 1 ? whole_int(v) : whole_ints(v);
    if (got < 0) return int_too_large(rd, e, attr, v);
    if (whole && max == 1 && !got)
        return fail(rd, e, "<%.40s %s=\"%.60s\">: not one whole number (MuJoCo reads an int "
                    "there and refuses it: \"bad format\", \"too much data\"): give an "
                    "integer, e.g. %s=\"1\", or leave it out", el, attr, v, attr);
    if (whole && max > 1 && !got)
        return fail(rd, e, "<%.40s %s=\"%.60s\">: not whole numbers (MuJoCo reads %d ints "
                    "there and refuses it: \"bad format\"): give %d integers, or leave it out",
                    el, attr, v, max, max);
    char who[60];
    snprintf(who, sizeof who, "<%.40s>", el);
    int n = count_values(rd, e, who, attr);
    if (n < 0) return -1;
    if (n > max || (n > 0 && n < max && exact))
        return fail(rd, e, "<%.40s %s=\"%.60s\">: %d number%s, MuJoCo reads %s %d (it refuses "
                    "it: \"%s\"): give %d", el, attr, v, n, n == 1 ? "" : "s",
                    exact ? "exactly" : "at most", max,
                    n > max ? "has too much data" : "does not have enough data", max);
    return 0;
}

/* The keywords MuJoCo 4.0.0's reader takes in the attributes of other elements than actuators
 * (ACTUATOR_KEYWORDS has theirs) that urdf2dyn's readers do not read themselves: another word,
 * or a blank one, is an "invalid keyword" to it. rows as ELEMENT_NUMBERS'. */
static const struct { const char *rows, *attr, *words; } ELEMENT_KEYWORDS[] = {
    {"body joint|default joint", "actuatorgravcomp", "false|true"},
    {"body geom|default geom|body light|default light", "castshadow", "false|true"},
    {"body geom|default geom", "fluidshape", "none|ellipsoid"},
    {"body camera|default camera|body light|default light", "mode",
     "fixed|track|trackcom|targetbody|targetbodycom"},
    {"body camera|default camera", "projection", "perspective|orthographic"},
    {"body light|default light", "active", "false|true"},
    {"body light|default light", "directional", "false|true"},
    {"body light|default light", "type", "spot|directional|point|image"},
    {"default tendon", "limited", "false|true|auto"},
    {"default tendon", "actuatorfrclimited", "false|true|auto"},
    {"default equality|equality connect|equality weld|equality joint|equality tendon|"
     "equality flex|equality flexstrain", "active", "false|true"},
    {"default mesh|asset mesh", "inertia", "legacy|exact|convex|shell"},
    {"asset mesh", "smoothnormal", "false|true"},
    {"default material|asset material", "texuniform", "false|true"},
    {"sensors", "interp", "zoh|linear|cubic"},
    {"mujoco option", "cone", "elliptic|pyramidal"},
    {"mujoco option", "integrator", "Euler|RK4|implicit|implicitfast"},
    {"mujoco option", "jacobian", "auto|dense|sparse"},
    {"mujoco option", "solver", "PGS|CG|Newton"},
    {"mujoco compiler", "discardvisual|fitaabb|fusestatic|savecanonical|savecompiled|"
     "saveinertial|strippath|usethread", "false|true"},
    {"mujoco compiler", "conflict", "warning|merge|error"},
    {"mujoco compiler", "passthrough", "none|textures"},
    {"body body", "sleep", "auto|never|allowed|init"},
    {"body body", "fuse|simple", "false|auto"}};

/* The attributes MuJoCo 4.0.0 reads as a list of keywords, each at most once, blank for none
 * ("invalid keyword", "duplicate keyword"); rows as ELEMENT_NUMBERS'. */
static const struct { const char *rows, *attr, *words; } ELEMENT_KEYWORD_LISTS[] = {
    {"body camera|default camera", "output", "rgb|depth|distance|normal|segmentation"}};

static void list_words(const char *words, char *out, size_t len);

/* Pairs of attributes MuJoCo 4.0.0's schema lets one element write at most one of, counting
 * each one written at all, a blank one too ("Schema violation: at most one of 'directional',
 * 'type' can be specified"). Only the element's own are counted: one from a class and the
 * other written on the element load. rows as ELEMENT_NUMBERS'. */
static const struct { const char *rows, *first, *second, *advice; } ELEMENT_EXCLUSIVE[] = {
    {"body light|default light", "directional", "type",
     "give type= alone (directional=\"true\" is type=\"directional\")"},
    {"body camera|default camera", "fovy", "sensorsize",
     "give fovy=, or sensorsize= with focal= or focalpixel= and resolution="}};

/* The <size> counts MuJoCo 4.0.0's reader takes from -1 (its "as many as needed") up: it
 * refuses a lower one ("nuser_geom must be >= -1"), used or not. */
static const char *const SIZE_FROM_MINUS_ONE = "nconmax|njmax|nstack|nuser_actuator|nuser_body|"
                                               "nuser_cam|nuser_geom|nuser_jnt|nuser_sensor|"
                                               "nuser_site|nuser_tendon";

/* Whether v is a <size memory=> MuJoCo 4.0.0's reader takes: one word, -1 (its default) or
 * a whole number of bytes (a '+' before it allowed) and at most one suffix K M G T P or E
 * (either case: times 2^10 ... 2^60), the total within 64 bits. */
static int memory_text_valid(const char *v)
{
    const char *p = v + strspn(v, " \t\n\r\v\f");
    size_t n = strcspn(p, " \t\n\r\v\f");
    if (p[n + strspn(p + n, " \t\n\r\v\f")]) return 0;            /* a second word */
    if (n == 2 && strncmp(p, "-1", 2) == 0) return 1;
    if (n && *p == '+') p++, n--;
    unsigned long long bytes = 0, most = ~0ULL;
    size_t k = 0;
    for (; k < n && p[k] >= '0' && p[k] <= '9'; k++) {
        unsigned d = (unsigned)(p[k] - '0');
        if (bytes > (most - d) / 10) return 0;
        bytes = bytes * 10 + d;
    }
    if (k == 0 || n - k > 1) return 0;
    if (n == k) return 1;
    int upper = p[k] & ~0x20;                   /* a lower-case suffix in upper case */
    const char *suffix = upper ? strchr("KMGTPE", upper) : NULL;
    if (!suffix) return 0;
    int bits = 10 * (int)(suffix - "KMGTPE" + 1);
    return bytes <= most >> bits;
}

/* <size> e's counts SIZE_FROM_MINUS_ONE are -1 or more (whole numbers: ELEMENT_NUMBERS), its
 * nuserdata 0 or more (MuJoCo 4.0.0 cannot make its data of fewer: "could not create mjData
 * ... userdata too large"), its memory= as MuJoCo reads it. 0 or -1 (message). */
static int check_size_counts(mjcf *rd, u2d_xml *e, const char *key)
{
    if (strcmp(key, "mujoco size") != 0) return 0;
    for (int a = 0; a < u2d_xml_attr_count(e); a++) {
        const char *name = u2d_xml_attr_name(e, a), *v = u2d_xml_attr(e, name);
        if (word_index(SIZE_FROM_MINUS_ONE, name) >= 0 && strtod(v, NULL) < -1)
            return fail(rd, e, "<size %s=\"%.60s\">: below -1 (MuJoCo refuses it: \"%s must "
                        "be >= -1\"): give -1 (as many as the model needs) or a count of 0 "
                        "or more", name, v, name);
    }
    const char *userdata = u2d_xml_attr(e, "nuserdata"), *memory = u2d_xml_attr(e, "memory");
    if (userdata && strtod(userdata, NULL) < 0)
        return fail(rd, e, "<size nuserdata=\"%.60s\">: below 0 (MuJoCo refuses it: \"could "
                    "not create mjData Invalid data: userdata too large\"): give the number of "
                    "user data slots, 0 or more", userdata);
    if (memory && !memory_text_valid(memory))
        return fail(rd, e, "<size memory=\"%.60s\">: not a whole number of bytes with at most "
                    "one suffix K, M, G, T, P or E (MuJoCo refuses it: \"unsigned integer with "
                    "an optional suffix {K,M,G,T,P,E} is expected in attribute 'memory'\"): "
                    "give e.g. memory=\"10M\", or -1 for MuJoCo's default", memory);
    return 0;
}

/* e writes at most one of each ELEMENT_EXCLUSIVE pair of its row key. 0 or -1 (message). */
static int check_exclusive_attributes(mjcf *rd, u2d_xml *e, const unsigned char *applies)
{
    for (size_t k = 0; k < sizeof ELEMENT_EXCLUSIVE / sizeof ELEMENT_EXCLUSIVE[0]; k++) {
        const char *first = ELEMENT_EXCLUSIVE[k].first, *second = ELEMENT_EXCLUSIVE[k].second;
        if (!applies[k] || !u2d_xml_attr(e, first) || !u2d_xml_attr(e, second))
            continue;
        return fail(rd, e, "<%.40s %s=\"%.60s\" %s=\"%.60s\">: both given (MuJoCo refuses it: "
                    "\"Schema violation: at most one of '%s', '%s' can be specified\"): %s",
                    u2d_xml_name(e), first, u2d_xml_attr(e, first), second,
                    u2d_xml_attr(e, second), first, second, ELEMENT_EXCLUSIVE[k].advice);
    }
    return 0;
}


/* Attribute attr of e, when given, is one of words ('|'-separated). 0 or -1 (message with
 * MuJoCo's reason). */
static int check_keyword_attribute(mjcf *rd, u2d_xml *e, const char *attr, const char *words)
{
    const char *v = u2d_xml_attr(e, attr);
    if (!v || word_index(words, v) >= 0) return 0;
    char list[200];
    list_words(words, list, sizeof list);
    return fail(rd, e, "<%.40s %s=\"%.60s\">: not a word MuJoCo reads there (it refuses it: "
                "\"invalid keyword\"): give one of %s", u2d_xml_name(e), attr, v, list);
}

/* Attribute attr of e, when given, is a list of words (none, or some of words, each once:
 * ELEMENT_KEYWORD_LISTS). 0 or -1 (message with MuJoCo's reason). */
static int check_keyword_list(mjcf *rd, u2d_xml *e, const char *attr, const char *words)
{
    const char *v = u2d_xml_attr(e, attr);
    unsigned seen = 0;
    const char *problem = NULL;
    char token[24];
    for (const char *p = v; p && !problem && *(p += strspn(p, " \t\n\r\v\f"));) {
        size_t n = strcspn(p, " \t\n\r\v\f");
        snprintf(token, sizeof token, "%.*s", (int)(n < 23 ? n : 23), p);
        int k = n < 23 ? word_index(words, token) : -1;
        problem = k < 0 ? "invalid keyword" : seen & (1u << k) ? "duplicate keyword" : NULL;
        if (k >= 0) seen |= 1u << k;
        p += n;
    }
    if (!problem) return 0;
    char list[200];
    list_words(words, list, sizeof list);
    return fail(rd, e, "<%.40s %s=\"%.60s\">: not a list of words MuJoCo reads there, each once "
                "(it refuses it: \"%s\"): give some of %s, separated by spaces", u2d_xml_name(e),
                attr, v, problem, list);
}

/* Whether row key is among rows ('|'-separated keys; among them "actuators" stands for every
 * actuator's row, in <actuator> or a <default>, "sensors" for every sensor's). */
static int row_among(const char *rows, const char *key)
{
    const char *tag = strchr(key, ' ');
    int actuator = tag && (strncmp(key, "actuator ", 9) == 0 || strncmp(key, "default ", 8) == 0)
                   && word_index(ACTUATOR_ELEMENTS, tag + 1) >= 0;
    int sensor = strncmp(key, "sensor ", 7) == 0;
    return word_index(rows, key) >= 0 || (actuator && word_index(rows, "actuators") >= 0) ||
           (sensor && word_index(rows, "sensors") >= 0);
}

#define N_SCHEMA_ROWS (sizeof ATTRIBUTE_SCHEMA / sizeof ATTRIBUTE_SCHEMA[0])
#define N_EXCLUSIVE (sizeof ELEMENT_EXCLUSIVE / sizeof ELEMENT_EXCLUSIVE[0])
#define N_NUMBERS (sizeof ELEMENT_NUMBERS / sizeof ELEMENT_NUMBERS[0])
#define N_KEYWORDS (sizeof ELEMENT_KEYWORDS / sizeof ELEMENT_KEYWORDS[0])

/* Which entries of ELEMENT_EXCLUSIVE, ELEMENT_NUMBERS and ELEMENT_KEYWORDS name one row of
 * ATTRIBUTE_SCHEMA (row_among): found once per row and document, not once per element, as
 * a model of thousands of bodies asks the same few rows thousands of times. */
typedef struct {
    int known;
    unsigned char exclusive[N_EXCLUSIVE], numbers[N_NUMBERS], keywords[N_KEYWORDS];
} row_rules;

/* ATTRIBUTE_SCHEMA's rows by key, for a binary search (the table is in reading order), and
 * each row's rules once asked for. */
typedef struct {
    int order[N_SCHEMA_ROWS];
    row_rules rules[N_SCHEMA_ROWS];
} schema_rules;

static int cmp_schema_row(const void *a, const void *b)
{
    return strcmp(ATTRIBUTE_SCHEMA[*(const int *)a][0], ATTRIBUTE_SCHEMA[*(const int *)b][0]);
}

static void init_schema_rules(schema_rules *t)
{
    for (size_t k = 0; k < N_SCHEMA_ROWS; k++) {
        t->order[k] = (int)k;
        t->rules[k].known = 0;
    }
    qsort(t->order, N_SCHEMA_ROWS, sizeof t->order[0], cmp_schema_row);
}

/* ATTRIBUTE_SCHEMA's row key, -1 for a row it does not have. */
static int schema_row_index(const schema_rules *t, const char *key)
{
    size_t lo = 0, hi = N_SCHEMA_ROWS;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(ATTRIBUTE_SCHEMA[t->order[mid]][0], key);
        if (c == 0) return t->order[mid];
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return -1;
}

/* The rules of row r (key its key), found the first time. */
static const row_rules *rules_of_row(schema_rules *t, int r, const char *key)
{
    row_rules *R = &t->rules[r];
    if (R->known) return R;
    for (size_t k = 0; k < N_EXCLUSIVE; k++)
        R->exclusive[k] = (unsigned char)row_among(ELEMENT_EXCLUSIVE[k].rows, key);
    for (size_t k = 0; k < N_NUMBERS; k++)
        R->numbers[k] = (unsigned char)row_among(ELEMENT_NUMBERS[k].rows, key);
    for (size_t k = 0; k < N_KEYWORDS; k++)
        R->keywords[k] = (unsigned char)row_among(ELEMENT_KEYWORDS[k].rows, key);
    R->known = 1;
    return R;
}

static const char *attribute_advice(const char *key, const char *name)
{
    for (size_t k = 0; k < sizeof ATTRIBUTE_ADVICE / sizeof ATTRIBUTE_ADVICE[0]; k++) {
        const char *attrs = ATTRIBUTE_ADVICE[k][1];
        if (row_among(ATTRIBUTE_ADVICE[k][0], key) && (!*attrs || word_index(attrs, name) >= 0))
            return ATTRIBUTE_ADVICE[k][2];
    }
    return "remove it, or correct its name";
}

/* Element e, a child of an element whose row name is parent ("" for <mujoco> itself), writes
 * only attributes MuJoCo 4.0.0's schema gives it there (ATTRIBUTE_SCHEMA), and those as its
 * reader reads them (numbers, keywords). framed: e is below a <frame>, where MuJoCo's schema
 * check (the attributes and their exclusive pairs) does not reach but its reader does
 * (checked against it: <frame><body sleep="maybe"> is an "invalid keyword", a <geom foo=>
 * loads). 0 or -1 (message naming the element, the attribute, MuJoCo's reason and what to
 * do). */
static int check_attributes(mjcf *rd, u2d_xml *e, const char *parent, schema_rules *t,
                            int framed)
{
    char key[120];
    const char *tag = u2d_xml_name(e);
    int len = snprintf(key, sizeof key, "%s%s%s", parent, *parent ? " " : "", tag);
    int r = len < (int)sizeof key ? schema_row_index(t, key) : -1;
    if (r < 0) return 0;
    const char *allowed = ATTRIBUTE_SCHEMA[r][1];
    for (int a = 0; a < u2d_xml_attr_count(e) && !framed; a++) {
        const char *name = u2d_xml_attr_name(e, a);
        if (word_index(allowed, name) >= 0) continue;
        char place[80] = "";
        if (strcmp(parent, "default") == 0) snprintf(place, sizeof place, " in a <default>");
        else if (word_index("equality|fixed|spatial|sensor|flex|flexcomp", parent) >= 0)
            snprintf(place, sizeof place, " in <%s>", parent);    /* a tag another row has */
        return fail(rd, e, "<%.40s %.40s=\"%.60s\">: <%.40s>%s has no %.40s= attribute in "
                    "MuJoCo 4's schema (MuJoCo refuses it: \"unrecognized attribute: "
                    "'%.40s'\"): %s", tag, name, u2d_xml_attr(e, name), tag, place, name,
                    name, attribute_advice(key, name));
    }
    const row_rules *rules = rules_of_row(t, r, key);
    if (!framed && check_exclusive_attributes(rd, e, rules->exclusive) < 0)   /* schema first */
        return -1;
    for (size_t k = 0; k < N_NUMBERS; k++)
        if (rules->numbers[k] &&
            check_number_attribute(rd, e, ELEMENT_NUMBERS[k].attr, ELEMENT_NUMBERS[k].max,
                                   ELEMENT_NUMBERS[k].exact, ELEMENT_NUMBERS[k].whole))
            return -1;
    for (size_t k = 0; k < N_KEYWORDS; k++) {
        if (!rules->keywords[k]) continue;
        const char *attrs = ELEMENT_KEYWORDS[k].attr;    /* one, or several of the same words */
        for (int a = 0; a < u2d_xml_attr_count(e); a++) {
            const char *name = u2d_xml_attr_name(e, a);
            if (word_index(attrs, name) >= 0 &&
                check_keyword_attribute(rd, e, name, ELEMENT_KEYWORDS[k].words))
                return -1;
        }
    }
    for (size_t k = 0; k < sizeof ELEMENT_KEYWORD_LISTS / sizeof ELEMENT_KEYWORD_LISTS[0]; k++)
        if (row_among(ELEMENT_KEYWORD_LISTS[k].rows, key) &&
            check_keyword_list(rd, e, ELEMENT_KEYWORD_LISTS[k].attr,
                               ELEMENT_KEYWORD_LISTS[k].words))
            return -1;
    return check_size_counts(rd, e, key);      /* after ELEMENT_NUMBERS: whole numbers */
}

/* The numbers MuJoCo 4.0.0's reader takes in an actuator's attributes (its read table's,
 * every kind's, then each shortcut's own): at most max, and exactly max where exact; an int
 * attribute is one whole number. elements: the kinds that have it ('|'-separated), NULL for
 * every one. (An actdim= is checked by check_actdim.) */
static const struct {
    const char *elements, *attr;
    int max, exact, whole;
} ACTUATOR_NUMBERS[] = {
    {NULL, "group", 1, 1, 1}, {NULL, "nsample", 1, 1, 1}, {NULL, "delay", 1, 1, 0},
    {NULL, "ctrlrange", 2, 1, 0}, {NULL, "forcerange", 2, 1, 0}, {NULL, "actrange", 2, 1, 0},
    {NULL, "lengthrange", 2, 1, 0}, {NULL, "velrange", 2, 1, 0}, {NULL, "ffrange", 2, 1, 0},
    {NULL, "gear", 6, 0, 0}, {NULL, "damping", 3, 0, 0}, {NULL, "armature", 1, 1, 0},
    {NULL, "cranklength", 1, 1, 0},
    {"general|plugin", "gainprm", 10, 0, 0}, {"general|plugin", "biasprm", 10, 0, 0},
    {"general|plugin", "dynprm", 10, 0, 0},
    {"position|intvelocity|orientation|pid", "kp", 1, 1, 0},
    {"position|intvelocity|orientation|pid|velocity|damper", "kv", 1, 1, 0},
    {"position|intvelocity|orientation|pid", "dampratio", 1, 1, 0},
    {"position|cylinder", "timeconst", 1, 1, 0}, {"muscle", "timeconst", 2, 1, 0},
    {"position|intvelocity|pid", "inheritrange", 1, 1, 0},
    {"cylinder", "bias", 3, 1, 0}, {"cylinder", "area", 1, 1, 0},
    {"cylinder", "diameter", 1, 1, 0}, {"muscle", "tausmooth", 1, 1, 0},
    {"muscle", "range", 2, 1, 0}, {"muscle", "force", 1, 1, 0}, {"muscle", "scale", 1, 1, 0},
    {"muscle", "lmin", 1, 1, 0}, {"muscle", "lmax", 1, 1, 0}, {"muscle", "vmax", 1, 1, 0},
    {"muscle", "fpmax", 1, 1, 0}, {"muscle", "fvmax", 1, 1, 0}, {"adhesion", "gain", 1, 1, 0},
    {"dcmotor", "motorconst", 2, 0, 0}, {"dcmotor", "resistance", 1, 1, 0},
    {"dcmotor", "nominal", 3, 0, 0}, {"dcmotor", "saturation", 3, 0, 0},
    {"dcmotor", "inductance", 2, 0, 0}, {"dcmotor", "cogging", 3, 0, 0},
    {"dcmotor", "controller", 6, 0, 0}, {"dcmotor", "thermal", 6, 0, 0},
    {"dcmotor", "lugre", 5, 0, 0},
    {"pid", "ki", 1, 1, 0}, {"pid", "imax", 1, 1, 0}, {"pid", "slewmax", 1, 1, 0},
    {"pid", "posrange", 2, 1, 0}};

/* An actuator's numbers (any kind, in <actuator> or a <default>) are numbers MuJoCo reads
 * ("bad format", "number is too large"; nan and inf it reads; a blank attribute is not
 * given), as many as it takes ("has too much data", "does not have enough data"), an int
 * one whole number. 0 or -1 (message). */
static int check_actuator_numbers(mjcf *rd, u2d_xml *e)
{
    const char *el = u2d_xml_name(e);
    for (size_t k = 0; k < sizeof ACTUATOR_NUMBERS / sizeof ACTUATOR_NUMBERS[0]; k++) {
        const char *kinds = ACTUATOR_NUMBERS[k].elements;
        if (kinds && word_index(kinds, el) < 0) continue;
        if (check_number_attribute(rd, e, ACTUATOR_NUMBERS[k].attr, ACTUATOR_NUMBERS[k].max,
                                   ACTUATOR_NUMBERS[k].exact, ACTUATOR_NUMBERS[k].whole))
            return -1;
    }
    return 0;
}

/* What MuJoCo 4.0.0's reader says of input= v of a <pid> or <dcmotor> (NULL: nothing):
 * its words are none alone, or some of pos vel ff voltage pressure in that order. */
static const char *input_words_problem(const char *v)
{
    static const char *const TOKENS = "pos|vel|ff|voltage|pressure";
    const char *blank = " \t\n\r\v\f";
    char token[16];
    int last = -1, none = 0, count = 0;
    for (const char *p = v; *(p += strspn(p, blank)); count++) {
        size_t n = strcspn(p, blank);
        snprintf(token, sizeof token, "%.*s", (int)(n < 15 ? n : 15), p);
        int k = n < 15 ? word_index(TOKENS, token) : -1;
        int is_none = n == 4 && strncmp(p, "none", 4) == 0;
        none |= is_none;
        if (k < 0 && !is_none) return "invalid keyword";
        if (k >= 0 && k == last) return "duplicate keyword";
        if (k >= 0 && k < last)
            return "inputs must be listed in canonical order [pos, vel, ff, voltage, pressure]";
        if (k >= 0) last = k;
        p += n;
    }
    return none && count > 1 ? "invalid keyword" : NULL;
}

/* The shortcuts' own settings MuJoCo 4.0.0's reader refuses below 0 (its words; -0 and
 * NaN are not below 0), with what to give instead. */
static const struct { const char *elements, *attr, *words, *advice; } SIGNED_SETTINGS[] = {
    {"position|intvelocity|pid", "kv", "kv cannot be negative", "a velocity gain"},
    {"position|intvelocity|pid", "dampratio", "dampratio cannot be negative",
     "a damping ratio (1: critical damping)"},
    {"position", "timeconst", "timeconst cannot be negative",
     "an activation time constant (0: no filter)"},
    {"pid", "slewmax", "slewmax cannot be negative",
     "the largest control change per second (0: no limit)"},
    {"muscle", "tausmooth", "muscle tausmooth cannot be negative",
     "a smoothing time constant"},
    {"damper", "kv", "damping coefficient cannot be negative", "a damping coefficient"},
    {"adhesion", "gain", "adhesion gain cannot be negative", "a gain"}};

/* Node's attribute name when written and not blank (MuJoCo's reader takes a blank one as
 * not given), else NULL. */
static const char *written(u2d_xml *node, const char *name)
{
    const char *v = u2d_xml_attr(node, name);
    return v && v[strspn(v, " \t\n\r\v\f")] ? v : NULL;
}

/* Into *v the text of attribute name of e (an element of kind: an actuator, a geom...; a
 * sensor: cls -1, no classes) written and not blank, else its class's nearest (MuJoCo copies
 * each level onto the next, and takes a blank one as not given); NULL when none gives it.
 * 0 or -1 (out of memory). */
static u2d_xml **chain(mjcf *rd, int cls, int kind, int *n);
static void leading_numbers(const char *v, int n, double *x);

static int given_text(mjcf *rd, u2d_xml *e, int kind, int cls, const char *name, const char **v)
{
    *v = written(e, name);
    if (*v || cls < 0) return 0;
    int n;
    u2d_xml **d = chain(rd, cls, kind, &n);
    if (!d) return -1;
    for (int k = 0; k < n && !*v; k++) *v = written(d[k], name);
    free(d);
    return 0;
}

/* Shortcut e's own signed settings (SIGNED_SETTINGS), and a kv and a dampratio both given,
 * as MuJoCo 4.0.0's reader refuses them. 0 or -1 (message). */
static int check_signed_settings(mjcf *rd, u2d_xml *e)
{
    const char *el = u2d_xml_name(e);
    for (size_t k = 0; k < sizeof SIGNED_SETTINGS / sizeof SIGNED_SETTINGS[0]; k++) {
        if (word_index(SIGNED_SETTINGS[k].elements, el) < 0) continue;
        const char *attr = SIGNED_SETTINGS[k].attr, *v = u2d_xml_attr(e, attr);
        if (strcmp(attr, "dampratio") == 0 && written(e, "kv") && written(e, attr))
            return fail(rd, e, "<%s kv=\"%.60s\" dampratio=\"%.60s\">: both given (MuJoCo "
                        "refuses it: \"kv and dampratio cannot both be defined\"): give one",
                        el, u2d_xml_attr(e, "kv"), v);
        if (v && strtod(v, NULL) < 0)
            return fail(rd, e, "<%s %s=\"%.60s\">: below 0 (MuJoCo refuses it: \"%s\"): give "
                        "%s, 0 or more", el, attr, v, SIGNED_SETTINGS[k].words,
                        SIGNED_SETTINGS[k].advice);
    }
    return 0;
}

/* Whether attribute text v holds a nonzero number (a NaN is one) among its first two. */
static int any_nonzero(const char *v)
{
    for (int k = 0; v && k < 2; k++) {
        char *end;
        double x = strtod(v, &end);
        if (end == v) return 0;
        if (x != 0) return 1;
        v = end;
    }
    return 0;
}

/* A <position>'s, <intvelocity>'s or <pid>'s own inheritrange= above 0 takes the range it
 * sets from its target: MuJoCo 4.0.0's reader refuses it beside the element's own nonzero
 * ctrlrange= (a <pid>'s posrange= or ctrlrange=, an <intvelocity>'s actrange=), "... and
 * inheritrange cannot both be defined" (checked against it: a class's range does not
 * count). 0 or -1 (message). */
static int check_inheritrange_alone(mjcf *rd, u2d_xml *e)
{
    static const char *const RANGES[][3] = {{"position", "ctrlrange", "ctrlrange"},
                                            {"intvelocity", "actrange", "actrange"},
                                            {"pid", "posrange", "posrange"},
                                            {"pid", "ctrlrange", "posrange"}};
    const char *el = u2d_xml_name(e), *inherit = u2d_xml_attr(e, "inheritrange");
    if (!inherit || !(strtod(inherit, NULL) > 0)) return 0;
    for (size_t k = 0; k < sizeof RANGES / sizeof RANGES[0]; k++) {
        const char *range = u2d_xml_attr(e, RANGES[k][1]);
        if (strcmp(el, RANGES[k][0]) != 0 || !any_nonzero(range)) continue;
        return fail(rd, e, "<%s inheritrange=\"%.60s\" %s=\"%.60s\">: both given (MuJoCo "
                    "refuses it: \"%s and inheritrange cannot both be defined\"): give the "
                    "range, or inheritrange= to take it from the target", el, inherit,
                    RANGES[k][1], range, RANGES[k][2]);
    }
    return 0;
}

/* A shortcut's own settings MuJoCo 4.0.0's reader refuses (an actuator or a default, used
 * or not): those below 0 (check_signed_settings), an inheritrange= beside a range
 * (check_inheritrange_alone), a <pid>'s or <dcmotor>'s input= of words it does not read
 * (input_words_problem). 0 or -1 (message). */
static int check_shortcut_settings(mjcf *rd, u2d_xml *e)
{
    const char *el = u2d_xml_name(e);
    if (check_signed_settings(rd, e) < 0 || check_inheritrange_alone(rd, e) < 0) return -1;
    if (word_index("pid|dcmotor", el) < 0) return 0;
    const char *input = u2d_xml_attr(e, "input");
    const char *problem = input ? input_words_problem(input) : NULL;
    if (problem)
        return fail(rd, e, "<%s input=\"%.60s\">: MuJoCo refuses it (\"%s\"): give none, or "
                    "some of pos vel ff voltage in that order, e.g. input=\"pos vel\"", el,
                    input, problem);
    return 0;
}

/* ---- default classes ----------------------------------------------------------------- */

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const name_entry *)a)->name, ((const name_entry *)b)->name);
}

static int lookup(const name_entry *sorted, int n, const char *name)
{
    name_entry key = {name, -1};
    const name_entry *e = n ? bsearch(&key, sorted, (size_t)n, sizeof key, cmp_name) : NULL;
    return e ? e->index : -1;
}

/* The class named by node's attribute attr, inherited when it has none; -1 (message) for an
 * unknown name, -2 when none applies. */
static int class_attr(mjcf *rd, u2d_xml *node, const char *attr, int inherited)
{
    const char *name = u2d_xml_attr(node, attr);
    if (!name) return inherited;
    int c = lookup(rd->clsindex, rd->ncls, name);
    if (c < 0) {
        fail(rd, node, "<%s %s=\"%.100s\">: no <default class=\"%.100s\"> defines it",
             u2d_xml_name(node), attr, name, name);
        return -1;
    }
    return c;
}

/* The default elements of kind that class cls sees, nearest first (malloc'ed, *n of them;
 * NULL and a message when out of memory). Class chains have no depth limit. */
static u2d_xml **chain(mjcf *rd, int cls, int kind, int *n)
{
    int total = 1;
    for (int c = cls; c >= 0; c = rd->cls[c].parent) total += rd->cls[c].count;
    u2d_xml **out = malloc(sizeof *out * (size_t)total);
    *n = 0;
    if (!out) {
        fail(rd, NULL, "out of memory");
        return NULL;
    }
    int limit = rd->cls[cls].main_limit;
    for (int c = cls; c >= 0; c = rd->cls[c].parent) {
        const mj_class *C = &rd->cls[c];
        int last = C->first + (c == 0 && limit < C->count ? limit : C->count);
        for (int k = last - 1; k >= C->first; k--)
            if (rd->dn[k].kind == kind) out[(*n)++] = rd->dn[k].node;
    }
    return out;
}

/* The attribute as written on node, or as the nearest default of its class (cls >= 0)
 * gives it; NULL when neither does (or out of memory: rd->err says so). */
static const char *dattr(mjcf *rd, u2d_xml *node, int kind, int cls, const char *name)
{
    const char *s = u2d_xml_attr(node, name);
    if (s || cls < 0) return s;
    int n;
    u2d_xml **d = chain(rd, cls, kind, &n);
    for (int k = 0; d && k < n && !s; k++) s = u2d_xml_attr(d[k], name);
    free(d);
    return s;
}

/* node's numbers, or its class's: MuJoCo copies each level onto the one before, so a
 * default's size="0.1 0.2" under an element's size="0.3" reads 0.3 0.2. out keeps what it
 * held where nothing sets it. Returns whether anything set it, or -1. */
static int dnumbers(mjcf *rd, u2d_xml *node, int kind, int cls, const char *name, int min,
                    int max, double *out)
{
    int set = 0, n = 0;
    double v[8];
    if (cls >= 0) {
        u2d_xml **d = chain(rd, cls, kind, &n);
        if (!d) return -1;
        for (int k = n - 1; k >= 0; k--) {          /* farthest first */
            int got = numbers(rd, d[k], name, min, max, v);
            if (got < 0) { free(d); return -1; }
            if (got) { memcpy(out, v, sizeof(double) * (size_t)got); set = 1; }
        }
        free(d);
    }
    int got = numbers(rd, node, name, min, max, v);
    if (got < 0) return -1;
    if (got) { memcpy(out, v, sizeof(double) * (size_t)got); set = 1; }
    return set;
}

/* A keyword, written on node or given by its class: its index in words, def when absent,
 * -1 (message) when it is none of them. */
static int dkeyword(mjcf *rd, u2d_xml *node, int kind, int cls, const char *name,
                    const char *words, int def)
{
    if (u2d_xml_attr(node, name)) return keyword(rd, node, name, words, def);
    const char *s = dattr(rd, node, kind, cls, name);
    if (!s) return def;
    int k = word_index(words, s);
    if (k >= 0) return k;
    return fail(rd, node, "<%s>: its default class gives %s=\"%.60s\", which is not a valid "
                "value", u2d_xml_name(node), name, s);
}

static int check_dcmotor_constants(mjcf *rd, u2d_xml *e, int cls, const char *label);
static int actuator_ctrlrange(mjcf *rd, u2d_xml *e, int cls, double r[2]);
static int check_inherited_inheritrange_alone(mjcf *rd, u2d_xml *e, int cls,
                                              const char *label);
static int check_pid_inherited_slewmax(mjcf *rd, u2d_xml *e, int cls, const char *label);

/* A range and its limited= flag as MuJoCo's compiler checks them (a joint's range and
 * actuatorfrcrange, an actuator's ctrlrange, forcerange and actrange, a tendon's range...):
 * "auto" limits an increasing range when compiler autolimits is on, and is refused for a range
 * given when it is off; a limited range must increase. who names the element for messages;
 * *limited (if not NULL) gets whether it is limited, range its two numbers (0 0 when absent).
 * 0 or -1. */
static int limited_range(mjcf *rd, u2d_xml *e, int kind, int cls, const char *who,
                         const char *attr, const char *flag, double range[2], int *limited)
{
    range[0] = range[1] = 0;
    int ctrl = kind == K_ACTUATOR && strcmp(attr, "ctrlrange") == 0;
    int lim = (ctrl ? actuator_ctrlrange(rd, e, cls, range)
                    : dnumbers(rd, e, kind, cls, attr, 2, 2, range)) < 0 ? -1
            : dkeyword(rd, e, kind, cls, flag, "false|true|auto", 2);
    if (lim < 0) return -1;
    /* (MuJoCo takes a range of 0 0 as none given, written or not) */
    if (lim == 2 && (range[0] != 0 || range[1] != 0) && !rd->autolimits)
        return fail(rd, e, "%s has %s= but not %s=, and compiler autolimits is off (MuJoCo "
                    "refuses it): give %s=\"true\" or \"false\", or set <compiler "
                    "autolimits=\"true\">", who, attr, flag, flag);
    if (lim == 2) lim = range[0] < range[1];
    if (lim && !(range[0] < range[1]))
        return fail(rd, e, "%s: %s=\"%g %g\" with %s=\"true\": %s[0] must be below %s[1] "
                    "(MuJoCo refuses it): give an increasing range", who, attr, range[0],
                    range[1], flag, attr, attr);
    if (limited) *limited = lim;
    return 0;
}

/* The five forms of one orientation: an element or default gives at most one of them. */
static const char *const ORIENT[5] = {"quat", "axisangle", "xyaxes", "zaxis", "euler"};
static const int ORIENT_LEN[5] = {4, 4, 6, 3, 3};

/* Which form e gives (*form, -1 for none); -1 (message) for two or more, or a zero quat:
 * MuJoCo's reader refuses both on any element or default, used or not ("multiple
 * orientation specifiers are not allowed"). It counts a quat= written at all, a blank one
 * too, but another form only when it holds numbers (ReadAlternative). */
static int orientation_form(mjcf *rd, u2d_xml *e, int *form)
{
    int count = 0;
    *form = -1;
    for (int k = 0; k < 5; k++)
        if (k == 0 ? u2d_xml_attr(e, ORIENT[k]) != NULL : written(e, ORIENT[k]) != NULL) {
            *form = k;
            count++;
        }
    if (count > 1)
        return fail(rd, e, "<%s>: at most one of quat, axisangle, xyaxes, zaxis and euler "
                    "(MuJoCo refuses more)", u2d_xml_name(e));
    double q[4];
    int nq = *form == 0 ? numbers(rd, e, "quat", 4, 4, q) : 0;
    if (nq < 0) return -1;
    if (nq && q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
        return fail(rd, e, "<%s quat=\"0 0 0 0\">: a zero quaternion is no orientation",
                    u2d_xml_name(e));
    return 0;
}

static int add_dnode(mjcf *rd, int cls, int kind, u2d_xml *node)
{
    if (grow(rd, (void **)&rd->dn, &rd->capdn, rd->ndn, sizeof *rd->dn)) return -1;
    rd->dn[rd->ndn++] = (mj_dnode){cls, kind, node};
    return 0;
}

static int add_class(mjcf *rd, const char *name, int parent)
{
    if (grow(rd, (void **)&rd->cls, &rd->capcls, rd->ncls, sizeof *rd->cls)) return -1;
    rd->cls[rd->ncls] = (mj_class){name, parent, 0, 0, 0};
    return rd->ncls++;
}


/* A <texture>'s builtin= (in <asset> or a <default>) is none, gradient, checker or flat:
 * MuJoCo refuses another word, "" too ("invalid keyword"); its width= and height= are
 * ints, each one whole number. 0 or -1 (message). */
static int check_texture_builtin(mjcf *rd, u2d_xml *e)
{
    static const char *const SIZE[] = {"width", "height"};
    if (strcmp(u2d_xml_name(e), "texture") != 0) return 0;
    for (int k = 0; k < 2; k++) {
        const char *size = u2d_xml_attr(e, SIZE[k]);
        int got = size ? whole_int(size) : 1;
        if (got < 0) return int_too_large(rd, e, SIZE[k], size);
        if (!got)
            return fail(rd, e, "<texture %s=\"%.60s\">: not one whole number (MuJoCo reads "
                        "an int there and refuses it: \"bad format\", \"too much data\"): give "
                        "the builtin texture's size in pixels, e.g. %s=\"64\"", SIZE[k], size,
                        SIZE[k]);
    }
    const char *v = u2d_xml_attr(e, "builtin");
    if (!v || word_index("none|gradient|checker|flat", v) >= 0) return 0;
    return fail(rd, e, "<texture builtin=\"%.60s\">: not a builtin texture (MuJoCo refuses it: "
                "\"invalid keyword\"): give none, gradient, checker or flat, or leave builtin= "
                "out", v);
}

static int check_schema(mjcf *rd, u2d_xml *e, const char *parent);   /* MuJoCo's schema */
static const char *schema_row(const char *row);
static int check_descendants(mjcf *rd, u2d_xml *e, const char *row);

/* Element e of a <default> (not a nested <default>) holds no element but a <material>'s
 * <layer>s, each holding none: MuJoCo 4's schema has no other there (a geom's or mesh's
 * <plugin> included), and refuses one ("unrecognized element"). */
static int check_default_leaf(mjcf *rd, u2d_xml *e)
{
    int material = strcmp(u2d_xml_name(e), "material") == 0;
    for (u2d_xml *c = u2d_xml_first(e); c; c = u2d_xml_next(c)) {
        u2d_xml *in = c;
        if (material && strcmp(u2d_xml_name(c), "layer") == 0) {
            in = u2d_xml_first(c);
            if (!in) continue;
        }
        return fail(rd, in, "<%.60s> inside a <default>'s <%s> (MuJoCo's schema has no "
                    "element there and refuses it: \"unrecognized element\"): a default gives "
                    "attributes only (a <material> its <layer>s too); move it to the elements "
                    "themselves, or remove it", u2d_xml_name(in), u2d_xml_name(in == c ? e : c));
    }
    return 0;
}

/* Default element e is the first of its kind in its <default>: MuJoCo 4's schema has each
 * at most once there ("unique element 'joint' found 2 times"), nested classes aside. *seen
 * holds a bit for each kind met before in that <default>. 0 or -1 (message). */
static int check_unique_in_default(mjcf *rd, u2d_xml *e, unsigned long *seen)
{
    const char *tag = u2d_xml_name(e);
    int k = word_index(schema_row("default"), tag);     /* (known: check_schema) */
    if (k < 0 || strcmp(tag, "default") == 0) return 0;
    if (!(*seen & 1UL << k)) {
        *seen |= 1UL << k;
        return 0;
    }
    return fail(rd, e, "a second <%s> in one <default> (MuJoCo's schema refuses it: \"unique "
                "element '%s' found 2 times\"): give its attributes to the first, or to a "
                "nested <default class=\"...\">", tag, tag);
}

/* The <default> sections: each class's own joint, geom and mesh elements, in document
 * order (a nested class's come after its parent's, as MuJoCo reads them). */
static int read_defaults(mjcf *rd)
{
    if (add_class(rd, "main", -1) < 0) return -1;
    typedef struct { u2d_xml *node; int parent; } item;
    item *stack = NULL;
    int top = 0, cap = 0;
    int status = 0;
    /* dnodes are gathered per class in a second pass: first the classes and their nodes */
    for (u2d_xml *sec = u2d_xml_first(rd->root); sec && !status; sec = u2d_xml_next(sec)) {
        if (strcmp(u2d_xml_name(sec), "default") != 0) continue;
        const char *c = u2d_xml_attr(sec, "class");
        if (c && strcmp(c, "main") != 0) {
            status = fail(rd, sec, "the top-level <default> is class 'main' and cannot be "
                          "renamed ('%.100s')", c);
            break;
        }
        if (grow(rd, (void **)&stack, &cap, top, sizeof *stack)) { status = -1; break; }
        stack[top++] = (item){sec, -1};
        while (top > 0 && !status) {
            item it = stack[--top];
            int cls = 0;
            if (it.parent >= 0) {
                int depth = 1;
                for (int c = it.parent; c > 0; c = rd->cls[c].parent) depth++;
                if (depth > MAX_CLASS_DEPTH) {
                    status = fail(rd, it.node, "<default> classes nested more than %d deep",
                                  MAX_CLASS_DEPTH);
                    break;
                }
                const char *name = u2d_xml_attr(it.node, "class");
                if (!name || !name[0]) { status = fail(rd, it.node, "a nested <default> needs a class name"); break; }
                cls = add_class(rd, name, it.parent);
                if (cls < 0) { status = -1; break; }
            }
            int pushed = top;
            unsigned long seen = 0;
            for (u2d_xml *e = u2d_xml_first(it.node); e; e = u2d_xml_next(e)) {
                const char *n = u2d_xml_name(e);
                if (strcmp(n, "default") == 0) {
                    if (grow(rd, (void **)&stack, &cap, top, sizeof *stack)) { status = -1; break; }
                    stack[top++] = (item){e, cls};
                    continue;
                }
                if (check_schema(rd, e, "default") || check_unique_in_default(rd, e, &seen) ||
                    check_default_leaf(rd, e) || check_texture_builtin(rd, e)) {
                    status = -1;
                    break;
                }
                for (int k = 0; k < K_ACTUATOR; k++)
                    if (strcmp(n, kind_name[k]) == 0 && add_dnode(rd, cls, k, e)) status = -1;
                if (word_index(ACTUATOR_ELEMENTS, n) >= 0 &&
                    (check_activation_attributes(rd, e) || check_actuator_numbers(rd, e) ||
                     check_actuator_keywords(rd, e) ||
                     check_shortcut_settings(rd, e) ||
                     add_dnode(rd, cls, K_ACTUATOR, e)))
                    status = -1;
                /* MuJoCo refuses two orientation forms in a default, used or not */
                int form;
                if (!status && (strcmp(n, "geom") == 0 || strcmp(n, "site") == 0 ||
                                strcmp(n, "camera") == 0) && orientation_form(rd, e, &form) < 0)
                    status = -1;
            }
            /* nested defaults in document order: reverse what was pushed */
            for (int a = pushed, b = top - 1; a < b; a++, b--) {
                item t = stack[a]; stack[a] = stack[b]; stack[b] = t;
            }
            if (cls == 0) {       /* main grew: the classes made from now see this much */
                int seen = 0;
                for (int k = 0; k < rd->ndn; k++) seen += rd->dn[k].cls == 0;
                rd->cls[0].main_limit = seen;
            }
            rd->cls[cls].main_limit = rd->cls[0].main_limit;
        }
    }
    free(stack);
    if (status) return -1;
    /* group the elements by class, document order kept within a class */
    int *count = calloc((size_t)rd->ncls + 1, sizeof(int));
    mj_dnode *sorted = malloc(sizeof *sorted * (size_t)(rd->ndn + 1));
    rd->clsindex = malloc(sizeof *rd->clsindex * (size_t)rd->ncls);
    if (!count || !sorted || !rd->clsindex) {
        free(count); free(sorted);
        return fail(rd, NULL, "out of memory");
    }
    for (int k = 0; k < rd->ndn; k++) count[rd->dn[k].cls + 1]++;
    for (int c = 0; c < rd->ncls; c++) {
        count[c + 1] += count[c];
        rd->cls[c].first = count[c];
        rd->cls[c].count = count[c + 1] - count[c];
    }
    for (int k = 0; k < rd->ndn; k++) sorted[count[rd->dn[k].cls]++] = rd->dn[k];
    free(rd->dn);
    free(count);
    rd->dn = sorted;
    rd->capdn = rd->ndn + 1;
    if (rd->cls[0].main_limit > rd->cls[0].count) rd->cls[0].main_limit = rd->cls[0].count;
    for (int c = 0; c < rd->ncls; c++) rd->clsindex[c] = (name_entry){rd->cls[c].name, c};
    qsort(rd->clsindex, (size_t)rd->ncls, sizeof *rd->clsindex, cmp_name);
    for (int c = 1; c < rd->ncls; c++)
        if (strcmp(rd->clsindex[c - 1].name, rd->clsindex[c].name) == 0)
            return fail(rd, NULL, "two <default> classes are named '%.100s'", rd->clsindex[c].name);
    /* MuJoCo reads each <dcmotor> and <pid> default, used or not, with what its classes
     * give it */
    for (int k = 0; k < rd->ndn; k++)
        if (rd->dn[k].kind == K_ACTUATOR &&
            (check_dcmotor_constants(rd, rd->dn[k].node, rd->dn[k].cls, "<dcmotor> default") ||
             check_inherited_inheritrange_alone(rd, rd->dn[k].node, rd->dn[k].cls,
                                                "<default>") ||
             check_pid_inherited_slewmax(rd, rd->dn[k].node, rd->dn[k].cls, "<pid> default")))
            return -1;
    return 0;
}

/* ---- files and <include> ----------------------------------------------------------------- */

static int is_sep(char c) { return c == '/' || c == '\\'; }

static int is_absolute(const char *p)
{
    return is_sep(p[0]) || (((p[0] | 32) >= 'a' && (p[0] | 32) <= 'z') && p[1] == ':');
}

/* dir (dirlen chars) joined with name, '.' and 'x/..' folded so that every spelling of a
 * path is one string (an include loop spelled ./a.xml, ././a.xml... is still a loop). */
static char *join_path(const char *dir, size_t dirlen, const char *name)
{
    if (is_absolute(name)) dirlen = 0;
    size_t nlen = strlen(name), len = dirlen + nlen;
    char *in = malloc(len + 1), *out = malloc(len + 2);
    size_t *kept = malloc(sizeof(size_t) * (len / 2 + 2));      /* where each part starts */
    if (!in || !out || !kept) { free(in); free(out); free(kept); return NULL; }
    memcpy(in, dir, dirlen);
    memcpy(in + dirlen, name, nlen + 1);
    size_t o = 0, nk = 0;
    int rooted = is_sep(in[0]);
    if (rooted) out[o++] = '/';
    for (size_t i = rooted; i <= len;) {
        size_t j = i;
        while (j < len && !is_sep(in[j])) j++;
        size_t n = j - i;
        int dots = n == 2 && in[i] == '.' && in[i + 1] == '.';
        if (n == 0 || (n == 1 && in[i] == '.')) {
            /* nothing */
        } else if (dots && nk > 0 && !(out[kept[nk - 1]] == '.' && out[kept[nk - 1] + 1] == '.'
                                       && out[kept[nk - 1] + 2] == '/')) {
            o = kept[--nk];                                 /* "x/.." is nothing */
        } else if (!(dots && rooted && nk == 0)) {          /* above the root stays there */
            kept[nk++] = o;
            memcpy(out + o, in + i, n);
            o += n;
            out[o++] = '/';
        }
        i = j + 1;
    }
    if (o > (size_t)rooted && out[o - 1] == '/') o--;       /* a file: no trailing '/' */
    out[o] = '\0';
    free(in);
    free(kept);
    return out;
}

static size_t dir_length(const char *path)
{
    size_t n = strlen(path);
    while (n > 0 && !is_sep(path[n - 1])) n--;
    return n;
}

static int add_file(mjcf *rd, char *path)
{
    if (rd->nfile > U2D_XML_MAXFILE) {
        free(path);
        return fail(rd, NULL, "more than %d files are included", U2D_XML_MAXFILE);
    }
    if (grow(rd, (void **)&rd->file, &rd->capfile, rd->nfile, sizeof *rd->file)) {
        free(path);
        return -1;
    }
    rd->file[rd->nfile] = (mj_file){path, dir_length(path)};
    return rd->nfile++;
}

/* Read path through the caller's reader, counting bytes against the model's budget. */
static char *read_file(mjcf *rd, const char *path, size_t *len, char err[U2D_ERRLEN])
{
    char *data = rd->read(rd->ctx, path, len, err);
    if (!data) return NULL;
    if (*len > MAX_TOTAL_BYTES - rd->bytes) {
        free(data);
        snprintf(err, U2D_ERRLEN, "'%.300s': the model's files pass %zu MB together",
                 path, MAX_TOTAL_BYTES >> 20);
        return NULL;
    }
    rd->bytes += *len;
    return data;
}

/* One <include>: its file's elements in its place (MuJoCo's IncludeXML); returns the first
 * of them, or NULL (message). */
static u2d_xml *include(mjcf *rd, u2d_xml *at)
{
    const char *name = u2d_xml_attr(at, "file");
    if (!name || !name[0]) { fail(rd, at, "<include> needs a file attribute"); return NULL; }
    if (u2d_xml_first(at)) { fail(rd, at, "<include> cannot have child elements"); return NULL; }
    /* relative to the model's folder first (MuJoCo's older rule), then to the including
     * file's folder */
    const mj_file *main = &rd->file[0];
    int from = u2d_xml_file(at);
    const mj_file *src = from < rd->nfile ? &rd->file[from] : main;
    char *tried[2] = {join_path(main->path, main->dirlen, name),
                      join_path(src->path, src->dirlen, name)};
    char *path = NULL, *data = NULL, why[U2D_ERRLEN] = "";
    size_t len = 0;
    for (int k = 0; k < 2 && !data; k++) {
        if (!tried[k]) continue;
        if (k == 1 && tried[0] && strcmp(tried[0], tried[1]) == 0) break;
        data = read_file(rd, tried[k], &len, why);
        if (data) path = tried[k];
    }
    if (!data) {
        if (!tried[0] || !tried[1]) fail(rd, at, "out of memory");
        else if (strcmp(tried[0], tried[1]) == 0)
            fail(rd, at, "<include file=\"%.200s\">: %.250s", name, why);
        else
            fail(rd, at, "<include file=\"%.120s\">: neither '%.120s' nor '%.120s' can be "
                 "read (%.150s)", name, tried[0], tried[1], why);
        free(tried[0]); free(tried[1]);
        return NULL;
    }
    free(tried[path == tried[0] ? 1 : 0]);
    for (int k = 0; k < rd->nfile; k++)
        if (strcmp(rd->file[k].path, path) == 0) {
            /* 98 characters, the name at most 100 and the path 150: within fail's 380 */
            fail(rd, at, "<include file=\"%.100s\">: '%.150s' is already part of the model "
                 "(MuJoCo includes a file once; an include loop?)", name, path);
            free(path); free(data);
            return NULL;
        }
    int f = add_file(rd, path);
    if (f < 0) { free(data); return NULL; }
    if (strlen(data) != len) {
        free(data);
        fail(rd, at, "<include file=\"%.200s\">: the file holds a NUL byte: not XML text", name);
        return NULL;
    }
    char xerr[U2D_ERRLEN];
    u2d_xml *doc = u2d_xml_load(data, xerr, xml_note, rd);
    free(data);
    if (!doc) { fail(rd, at, "'%.200s': %.250s", path, xerr); return NULL; }
    u2d_xml *top = u2d_xml_first(doc);
    if (!top || !u2d_xml_first(top)) {
        u2d_xml_free(doc);
        fail(rd, at, "'%.200s' has no elements inside its root element", path);
        return NULL;
    }
    u2d_xml_set_file(doc, f);
    u2d_xml *first = u2d_xml_splice(at, doc);
    u2d_xml_free(doc);
    return first;
}

static int expand_includes(mjcf *rd)
{
    u2d_xml **stack = NULL;
    int top = 0, cap = 0, status = 0;
    if (grow(rd, (void **)&stack, &cap, top, sizeof *stack)) return -1;
    stack[top++] = u2d_xml_first(rd->root);
    while (top > 0 && !status) {
        u2d_xml *n = stack[--top];
        if (!n) continue;
        if (strcmp(u2d_xml_name(n), "include") == 0) {
            u2d_xml *first = include(rd, n);
            if (!first) { status = -1; break; }
            stack[top++] = first;               /* its chain runs on to the include's next */
            continue;
        }
        if (grow(rd, (void **)&stack, &cap, top + 1, sizeof *stack)) { status = -1; break; }
        stack[top++] = u2d_xml_next(n);
        stack[top++] = u2d_xml_first(n);
    }
    free(stack);
    return status;
}

/* ---- <compiler> and <option> ---------------------------------------------------------- */

static int read_bool(mjcf *rd, u2d_xml *node, const char *name, int *out)
{
    int k = keyword(rd, node, name, BOOL_WORDS, *out);
    if (k < 0) return -1;
    *out = k;
    return 0;
}

static int read_compiler(mjcf *rd)
{
    rd->degree = 1;
    rd->autolimits = 1;
    rd->fromgeom = 2;                       /* auto */
    rd->group[0] = 0; rd->group[1] = 5;
    memcpy(rd->eulerseq, "xyz", 4);
    for (u2d_xml *c = u2d_xml_first(rd->root); c; c = u2d_xml_next(c)) {
        if (strcmp(u2d_xml_name(c), "compiler") != 0) continue;
        int k;
        if ((k = keyword(rd, c, "coordinate", "local|global", 0)) < 0) return -1;
        if (k == 1)
            return fail(rd, c, "<compiler coordinate=\"global\">: global coordinates are no "
                        "longer MJCF (MuJoCo 2.3.3 converts them)");
        if ((k = keyword(rd, c, "angle", "radian|degree", rd->degree)) < 0) return -1;
        rd->degree = k;
        if ((k = keyword(rd, c, "inertiafromgeom", "false|true|auto", rd->fromgeom)) < 0)
            return -1;
        rd->fromgeom = k;
        if (read_bool(rd, c, "autolimits", &rd->autolimits) ||
            read_bool(rd, c, "balanceinertia", &rd->balance) ||
            read_bool(rd, c, "alignfree", &rd->alignfree))
            return -1;
        double g[2] = {rd->group[0], rd->group[1]};
        if (numbers(rd, c, "inertiagrouprange", 2, 2, g) < 0 ||
            numbers(rd, c, "boundmass", 1, 1, &rd->boundmass) < 0 ||
            numbers(rd, c, "boundinertia", 1, 1, &rd->boundinertia) < 0 ||
            numbers(rd, c, "settotalmass", 1, 1, &rd->totalmass) < 0)
            return -1;
        rd->group[0] = (int)g[0]; rd->group[1] = (int)g[1];
        const char *seq = u2d_xml_attr(c, "eulerseq");
        if (seq) {
            if (strlen(seq) != 3 || strspn(seq, "xyzXYZ") != 3)
                return fail(rd, c, "<compiler eulerseq=\"%.20s\">: three of x, y, z (moving "
                            "axes) or X, Y, Z (fixed axes)", seq);
            memcpy(rd->eulerseq, seq, 4);
        }
        const char *d;
        if ((d = u2d_xml_attr(c, "assetdir"))) rd->assetdir = d;
        if ((d = u2d_xml_attr(c, "meshdir"))) rd->meshdir = d;
    }
    return 0;
}

static int read_option(mjcf *rd)
{
    u2d_urdf *u = rd->u;
    u->has_gravity = 1;
    u->gravity[0] = 0.0; u->gravity[1] = 0.0; u->gravity[2] = -9.81;
    int gravity = 1;
    for (u2d_xml *o = u2d_xml_first(rd->root); o; o = u2d_xml_next(o)) {
        if (strcmp(u2d_xml_name(o), "option") != 0) continue;
        if (numbers(rd, o, "gravity", 3, 3, u->gravity) < 0) return -1;
        if (!u2d_gravity_in_range(u->gravity))
            return fail(rd, o, "<option gravity=\"%g %g %g\">: its length overflows "
                        "(components past ~1e154 m/s^2); give components of a physical size, "
                        "such as 0 0 -9.81", u->gravity[0], u->gravity[1], u->gravity[2]);
        u2d_xml *flag = u2d_xml_child(o, "flag");
        int k = flag ? keyword(rd, flag, "gravity", "disable|enable", gravity) : gravity;
        if (k < 0) return -1;
        gravity = k;
        double fluid[2] = {0, 0};
        if (numbers(rd, o, "density", 1, 1, &fluid[0]) < 0 ||
            numbers(rd, o, "viscosity", 1, 1, &fluid[1]) < 0)
            return -1;
        if (fluid[0] != 0.0 || fluid[1] != 0.0)
            note(rd, o, "<option density viscosity>: fluid forces are not rigid-body dynamics "
                 "and are not applied");
    }
    if (!gravity) u->gravity[0] = u->gravity[1] = u->gravity[2] = 0.0;
    return 0;
}

/* ---- names ----------------------------------------------------------------------------- */

/* A generated name, kept until the model owns its strings. */
static const char *own_name(mjcf *rd, const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (grow(rd, (void **)&rd->owned, &rd->capowned, rd->nowned, sizeof *rd->owned)) return NULL;
    char *s = malloc(strlen(buf) + 1);
    if (!s) { fail(rd, NULL, "out of memory"); return NULL; }
    strcpy(s, buf);
    return rd->owned[rd->nowned++] = s;
}

static size_t name_hash(const char *s)
{
    size_t h = 2166136261u;                     /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Where name is, or belongs, in set (which has a free slot). */
static size_t name_slot(const name_set *set, const char *name)
{
    size_t k = name_hash(name) & (set->cap - 1);
    while (set->slot[k] && strcmp(set->slot[k], name) != 0) k = (k + 1) & (set->cap - 1);
    return k;
}

static int set_has(const name_set *set, const char *name)
{
    return set->cap && set->slot[name_slot(set, name)] != NULL;
}

/* Add name (kept by the caller) to set. 0 or -1 (message). */
static int set_add(mjcf *rd, name_set *set, const char *name)
{
    if (2 * (set->n + 1) > set->cap) {
        name_set bigger = {NULL, set->cap ? 2 * set->cap : 64, 0};
        if (!(bigger.slot = calloc(bigger.cap, sizeof *bigger.slot)))
            return fail(rd, NULL, "out of memory");
        for (size_t k = 0; k < set->cap; k++)
            if (set->slot[k]) bigger.slot[name_slot(&bigger, set->slot[k])] = set->slot[k];
        bigger.n = set->n;
        free(set->slot);
        *set = bigger;
    }
    size_t k = name_slot(set, name);
    if (!set->slot[k]) { set->slot[k] = name; set->n++; }
    return 0;
}

/* The name urdf2dyn gives an unnamed body or joint, or a link or fixed joint it adds: the
 * one fmt makes, or, when a body or joint of the file or one generated before has it (set
 * holds their names), that name with "_2", "_3"... appended, the first free one. So a
 * generated name never refuses a file MuJoCo loads, nor repeats a name. */
static const char *generated_name(mjcf *rd, name_set *set, const char *fmt, ...)
{
    char base[580], buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(base, sizeof base, fmt, ap);
    va_end(ap);
    snprintf(buf, sizeof buf, "%s", base);
    for (unsigned k = 2; set_has(set, buf); k++) snprintf(buf, sizeof buf, "%s_%u", base, k);
    const char *s = own_name(rd, "%s", buf);
    return s && !set_add(rd, set, s) ? s : NULL;
}

/* The name MuJoCo gives asset e (a <mesh>, <texture>, <hfield> or <skin>) without name=,
 * or with an empty one: its file's name, without folder and extension (MuJoCo's reader
 * names it so); "" without file=. NULL when out of memory. */
static const char *file_stem_name(mjcf *rd, u2d_xml *e)
{
    const char *name = u2d_xml_attr(e, "name"), *file = u2d_xml_attr(e, "file");
    if (name && name[0]) return name;
    if (!file) return "";
    const char *base = file + dir_length(file), *dot = strrchr(base, '.');
    return own_name(rd, "%.*s", dot ? (int)(dot - base) : (int)strlen(base), base);
}

/* ---- mesh assets ----------------------------------------------------------------------- */

static int check_shape_plugins(mjcf *rd, u2d_xml *e, int schema);  /* a geom's, mesh's */

/* A mesh of no file (file="" is none), no builtin= and no <plugin> is its vertex= list,
 * four vertices at least: MuJoCo refuses fewer, used or not ("at least 4 vertices
 * required"). */
static int check_mesh_vertices(mjcf *rd, u2d_xml *m)
{
    const char *file = u2d_xml_attr(m, "file"), *vertex = u2d_xml_attr(m, "vertex");
    if ((file && file[0]) || u2d_xml_attr(m, "builtin") || u2d_xml_first(m)) return 0;
    int n = 0, got;
    double x;
    const char *p = vertex ? vertex : "";
    while ((got = u2d_scan_number(&p, &x)) > 0) n++;
    if (got < 0)
        return fail(rd, m, "<mesh> vertex= item %d is %s (MuJoCo refuses it): give x y z of "
                    "each vertex as plain numbers separated by spaces", n + 1,
                    got == -2 ? "a number that is not finite" : "not a number");
    if (n % 3)
        return fail(rd, m, "<mesh> vertex= holds %d numbers, not x y z of whole vertices "
                    "(MuJoCo refuses it: \"vertex data must be a multiple of 3\"): give three "
                    "numbers per vertex", n);
    if (n >= 12) return 0;
    return fail(rd, m, "<mesh> has %s (MuJoCo refuses it: \"at least 4 vertices required\"): "
                "give it a file=, a builtin=, a <plugin>, or vertex= with four vertices or "
                "more", vertex && n ? "fewer than four vertices" : "no file, builtin, plugin "
                "or vertices");
}

/* A <mesh>'s scale (its own, else its class's) with a 0 leaves it no volume, and with two
 * no surface: MuJoCo's compiler computes every mesh's, used or not, and refuses "mesh volume
 * is too small" (unless inertia="shell") and "mesh surface area is too small", whatever
 * the vertices (an infinite or NaN factor makes it NaN, which passes). 0 or -1 (message). */
static int check_mesh_scale(mjcf *rd, u2d_xml *m, int cls)
{
    const char *v, *inertia;
    double scale[3] = {1, 1, 1};
    if (given_text(rd, m, K_MESH, cls, "scale", &v) < 0 ||
        given_text(rd, m, K_MESH, cls, "inertia", &inertia) < 0)
        return -1;
    leading_numbers(v, 3, scale);
    int zeros = (scale[0] == 0) + (scale[1] == 0) + (scale[2] == 0);
    int shell = inertia && strcmp(inertia, "shell") == 0;
    int finite = isfinite(scale[0]) && isfinite(scale[1]) && isfinite(scale[2]);
    if (zeros == 0 || (shell && zeros == 1) || !finite)   /* 0 * inf: a NaN volume passes */
        return 0;
    return fail(rd, m, "<mesh scale=\"%.60s\">%s%s: a scale of 0 leaves it no %s (MuJoCo's "
                "compiler refuses it: \"mesh %s is too small\"): give every scale factor a "
                "nonzero value", v, written(m, "scale") ? "" : ", from its class",
                shell ? " with inertia=\"shell\"" : "", shell ? "surface" : "volume",
                shell ? "surface area" : "volume");
}

static int read_assets(mjcf *rd)
{
    for (u2d_xml *a = u2d_xml_first(rd->root); a; a = u2d_xml_next(a)) {
        if (strcmp(u2d_xml_name(a), "asset") != 0) continue;
        for (u2d_xml *m = u2d_xml_first(a); m; m = u2d_xml_next(m)) {
            if (strcmp(u2d_xml_name(m), "mesh") != 0) continue;
            int cls = class_attr(rd, m, "class", 0);
            if (cls < 0 || check_shape_plugins(rd, m, 1) || check_mesh_vertices(rd, m) ||
                check_mesh_scale(rd, m, cls))
                return -1;
            const char *name = file_stem_name(rd, m);
            if (!name) return -1;
            if (!name[0]) return fail(rd, m, "<mesh> needs a name or a file");
            if (grow(rd, (void **)&rd->mesh, &rd->capmesh, rd->nmesh, sizeof *rd->mesh)) return -1;
            rd->mesh[rd->nmesh++] = (mj_mesh){name, m, cls, 0,
                                              {0, {0, 0, 0}, {0}, U2D_HULL_OK}, NULL};
        }
    }
    rd->meshindex = malloc(sizeof *rd->meshindex * (size_t)(rd->nmesh + 1));
    if (!rd->meshindex) return fail(rd, NULL, "out of memory");
    for (int k = 0; k < rd->nmesh; k++) rd->meshindex[k] = (name_entry){rd->mesh[k].name, k};
    qsort(rd->meshindex, (size_t)rd->nmesh, sizeof *rd->meshindex, cmp_name);
    for (int k = 1; k < rd->nmesh; k++)
        if (strcmp(rd->meshindex[k - 1].name, rd->meshindex[k].name) == 0)
            return fail(rd, rd->mesh[rd->meshindex[k].index].node, "two meshes are named "
                        "'%.200s'", rd->meshindex[k].name);
    return 0;
}

/* Numbers of a list attribute (vertex, face): malloc'ed, *n of them, NULL when absent. */
static double *number_list(mjcf *rd, u2d_xml *node, const char *name, int *n, int *bad)
{
    const char *s = u2d_xml_attr(node, name);
    *n = 0;
    *bad = 0;
    if (!s) return NULL;
    size_t cap = strlen(s) / 2 + 1;
    double *v = malloc(sizeof *v * cap);
    if (!v) { *bad = fail(rd, node, "out of memory"); return NULL; }
    double x;
    int got;
    for (const char *p = s; (got = u2d_scan_number(&p, &x)) != 0;) {
        if (got < 0 || (size_t)*n >= cap) {
            free(v);
            *bad = fail(rd, node, "<mesh %s>: not a list of finite numbers", name);
            return NULL;
        }
        v[(*n)++] = x;
    }
    return v;
}

/* Mesh m (named name) has no surface urdf2dyn can weigh: a plugin mesh (an mujoco.sdf
 * shape), whose surface MuJoCo builds from the signed distance field by marching cubes on a
 * 300-cell grid, or a builtin one. The message says what MuJoCo does and how to give the
 * mass instead (within the 260 characters fail keeps after the body's name). */
static void no_mesh_surface(mjcf *rd, u2d_xml *m, const char *name)
{
    if (u2d_xml_first(m))
        fail(rd, m, "mesh '%.40s' is a <plugin> mesh, weighed by MuJoCo as the surface it "
             "builds from the signed distance field, which urdf2dyn does not build: give the "
             "body an <inertial> (MuJoCo's: body_mass, body_inertia, body_ipos, body_iquat)",
             name);
    else
        fail(rd, m, "mesh '%.100s' has neither a file nor vertices (a builtin mesh): give the "
             "body an <inertial>", name);
}

/* The mass properties MuJoCo's compiler gives mesh k (once). */
static const u2d_mj_mesh_mass *mesh_mass(mjcf *rd, int k)
{
    mj_mesh *M = &rd->mesh[k];
    if (M->state) return &M->mass;
    u2d_xml *m = M->node;
    u2d_mj_mesh_spec spec = {U2D_MESH_LEGACY, {1, 1, 1}, {0, 0, 0}, {1, 0, 0, 0}};
    int kind = dkeyword(rd, m, K_MESH, M->cls, "inertia", "convex|exact|legacy|shell",
                        U2D_MESH_LEGACY);
    if (kind < 0 || dnumbers(rd, m, K_MESH, M->cls, "scale", 3, 3, spec.scale) < 0 ||
        numbers(rd, m, "refpos", 3, 3, spec.refpos) < 0 ||
        numbers(rd, m, "refquat", 4, 4, spec.refquat) < 0)
        return NULL;
    spec.inertia = kind;
    char err[U2D_ERRLEN];
    int rc;
    const char *file = u2d_xml_attr(m, "file");
    if (file) {
        const char *base = rd->meshdir ? rd->meshdir : rd->assetdir ? rd->assetdir : "";
        char *dir = join_path(rd->file[0].path, rd->file[0].dirlen, base), *path = NULL;
        if (dir) {
            size_t n = strlen(dir);
            char *d2 = malloc(n + 2);
            if (d2) {
                memcpy(d2, dir, n);
                if (n > 0 && !is_sep(dir[n - 1])) d2[n++] = '/';
                d2[n] = '\0';
                path = join_path(d2, n, file);
                free(d2);
            }
            free(dir);
        }
        if (!path) { fail(rd, m, "out of memory"); return NULL; }
        size_t len = 0;
        char *data = read_file(rd, path, &len, err);
        if (!data) {
            fail(rd, m, "mesh '%.100s' (file '%.200s'): %.200s", M->name, path, err);
            free(path);
            return NULL;
        }
        rc = u2d_mesh_mass(data, len, path, &spec, &M->mass, err);
        free(data);
        free(path);
    } else {
        int nv, nf, bad;
        double *v = number_list(rd, m, "vertex", &nv, &bad), *f = NULL;
        if (bad) return NULL;
        f = number_list(rd, m, "face", &nf, &bad);
        if (bad) { free(v); return NULL; }
        float *vf = malloc(sizeof(float) * (size_t)(nv + 1));
        int *fi = malloc(sizeof(int) * (size_t)(nf + 1));
        if (!vf || !fi) { free(v); free(f); free(vf); free(fi); fail(rd, m, "out of memory"); return NULL; }
        int ok = nv % 3 == 0 && nf % 3 == 0;
        for (int i = 0; i < nv; i++) vf[i] = (float)v[i];
        for (int i = 0; i < nf && ok; i++) {
            ok = f[i] >= 0 && f[i] < 2e9 && f[i] == (double)(int)f[i];
            fi[i] = ok ? (int)f[i] : 0;
        }
        free(v); free(f);
        if (!ok) {
            free(vf); free(fi);
            fail(rd, m, "<mesh vertex face>: vertices come in threes, faces in threes of vertex "
                 "indices");
            return NULL;
        }
        if (!u2d_xml_attr(m, "vertex")) {
            free(vf); free(fi);
            no_mesh_surface(rd, m, M->name);
            return NULL;
        }
        rc = u2d_mesh_mass_of(nv / 3, vf, nf / 3, fi, M->name, &spec, &M->mass, err);
        free(vf); free(fi);
    }
    if (rc) { fail(rd, m, "%s", err); return NULL; }
    M->state = 1;
    return &M->mass;
}

/* Whether a <contact><pair> names the geom called name. */
static int in_contact_pair(mjcf *rd, const char *name)
{
    for (u2d_xml *c = u2d_xml_first(rd->root); c; c = u2d_xml_next(c)) {
        if (strcmp(u2d_xml_name(c), "contact") != 0) continue;
        for (u2d_xml *p = u2d_xml_first(c); p; p = u2d_xml_next(p)) {
            const char *g1 = u2d_xml_attr(p, "geom1"), *g2 = u2d_xml_attr(p, "geom2");
            if (strcmp(u2d_xml_name(p), "pair") == 0 &&
                ((g1 && strcmp(g1, name) == 0) || (g2 && strcmp(g2, name) == 0)))
                return 1;
        }
    }
    return 0;
}

/* Whether MuJoCo's compiler builds the convex hull of mesh or sdf geom g's (class cls) mesh
 * (mjCModel::TryCompile, before any mass is read): g collides (contype or conaffinity not
 * 0) or a <contact><pair> names it, whatever its mass or its body's <inertial>. 1, 0 or -1. */
static int geom_needs_hull(mjcf *rd, u2d_xml *g, int cls)
{
    double contype = 1, conaffinity = 1;
    if (dnumbers(rd, g, K_GEOM, cls, "contype", 1, 1, &contype) < 0 ||
        dnumbers(rd, g, K_GEOM, cls, "conaffinity", 1, 1, &conaffinity) < 0)
        return -1;
    const char *name = u2d_xml_attr(g, "name");
    return contype != 0 || conaffinity != 0 || (name && in_contact_pair(rd, name));
}

/* The refusal of mesh M, whose vertices lie on one point, line or plane, for geom or site
 * g, for which MuJoCo builds its convex hull. -1 (message). */
static int fail_no_hull(mjcf *rd, u2d_xml *g, const mj_mesh *M)
{
    static const char *const SHAPE[] = {"", "colocated", "collinear", "coplanar"};
    static const char *const INSTEAD[] = {"", "a small sphere", "a thin capsule",
                                          "a plane or thin box"};
    if (strcmp(u2d_xml_name(g), "site") == 0)
        return fail(rd, g, "mesh '%.40s' has %s vertices, so no convex hull for the mesh site "
                    "(MuJoCo refuses it: \"cannot compute convex hull\"): use %s",
                    M->name, SHAPE[M->mass.flat], INSTEAD[M->mass.flat]);
    return fail(rd, g, "mesh '%.40s' has %s vertices, so no convex hull for the geom to collide "
                "with (MuJoCo refuses it: \"cannot compute convex hull\"): use %s, or give "
                "the geom contype=\"0\" conaffinity=\"0\" and no <contact><pair>", M->name,
                SHAPE[M->mass.flat], INSTEAD[M->mass.flat]);
}

/* Whether every scale= of mesh m and of its class chain is finite numbers (as far as they
 * go): 1, 0, or -1 (message). */
static int finite_scales(mjcf *rd, u2d_xml *m, int cls)
{
    int n = 0, finite = 1;
    u2d_xml **d = chain(rd, cls, K_MESH, &n);
    if (!d) return -1;
    for (int k = -1; k < n && finite; k++) {
        const char *v = u2d_xml_attr(k < 0 ? m : d[k], "scale");
        double x[3] = {1, 1, 1};
        if (!v) continue;
        leading_numbers(v, 3, x);
        finite = isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
    }
    free(d);
    return finite;
}

/* Every <mesh> whose vertex= and face= give its triangles, used or not, weighed now, as
 * MuJoCo's compiler processes every mesh: it refuses one whose volume (or area, for a
 * shell) is below mjMINVAL ("mesh volume is too small": a scale of 1e-300, vertices on a
 * plane). Not those of a file, read only where a body's inertia needs them, nor
 * inertia="convex" ones, whose hull urdf2dyn does not build, nor one an infinite or NaN
 * scale (its own or a class's) makes NaN, which passes MuJoCo's checks. Run once the
 * bodies are read, which mark the meshes MuJoCo builds a convex hull of (hull_geom): one
 * on a point, line or plane is refused for that first, as MuJoCo refuses it, even where
 * no mass is read (a geom of mass 0, a body's <inertial>, the world's geoms). 0 or -1
 * (message). */
static int weigh_inline_meshes(mjcf *rd)
{
    rd->what[0] = '\0';
    for (int k = 0; k < rd->nmesh; k++) {
        u2d_xml *m = rd->mesh[k].node;
        const char *inertia;
        if (!u2d_xml_attr(m, "vertex") || !u2d_xml_attr(m, "face") ||
            u2d_xml_attr(m, "file") || u2d_xml_first(m))
            continue;
        int finite = finite_scales(rd, m, rd->mesh[k].cls);
        if (finite < 0 || given_text(rd, m, K_MESH, rd->mesh[k].cls, "inertia", &inertia) < 0)
            return -1;
        if ((inertia && strcmp(inertia, "convex") == 0) || !finite) continue;
        const mj_mesh *M = &rd->mesh[k];
        int weighed = mesh_mass(rd, k) != NULL;
        if (M->hull_geom && M->mass.flat != U2D_HULL_OK)
            return fail_no_hull(rd, M->hull_geom, M);          /* MuJoCo's first */
        if (!weighed) return -1;
    }
    return 0;
}

/* ---- orientations ---------------------------------------------------------------------- */

/* The refusal of an orientation that MuJoCo's compiler cannot resolve (its message says
 * "too small" too): node is the element, at the element or default that gives form. */
static int orientation_fails(mjcf *rd, u2d_xml *node, u2d_xml *at, int form, const char *why,
                             const char *remedy)
{
    const char *tag = u2d_xml_name(node), *name = u2d_xml_attr(node, "name");
    const char *value = u2d_xml_attr(at, ORIENT[form]);
    char who[200], from[100] = "";
    if (name) snprintf(who, sizeof who, "%s '%.100s'", tag, name);
    else snprintf(who, sizeof who, "<%s>", tag);
    if (at != node)
        snprintf(from, sizeof from, " (from its default class, line %d)", u2d_xml_line(at));
    return fail(rd, node, "%s: %s=\"%.80s\"%s: %s (MuJoCo refuses it): %s", who, ORIENT[form],
                value ? value : "", from, why, remedy);
}

/* An element's orientation as MuJoCo resolves it (ResolveOrientation): the five forms are
 * one attribute, so the nearest of the element and its class chain (geoms) that gives any
 * form gives the whole orientation; a class's euler does not win over the element's quat.
 * Angles in the compiler's unit, euler about compiler eulerseq. */
static int orientation(mjcf *rd, u2d_xml *node, int kind, int cls, double q[4])
{
    const char *axes = "give two axes of nonzero length that are not parallel";
    q[0] = 1; q[1] = q[2] = q[3] = 0;
    int type = -1, n = 0, found = -1;
    u2d_xml **d = NULL, *at = node;
    if (cls >= 0 && !(d = chain(rd, cls, kind, &n))) return -1;
    for (int level = -1; level < n && type < 0; level++) {
        at = level < 0 ? node : d[level];
        if (orientation_form(rd, at, &type) < 0) { free(d); return -1; }
        found = level;
    }
    double v[6];
    int got = 0;
    /* a blank quat= still drops a class's other form, but MuJoCo's reader keeps the
     * quaternion the class chain wrote (the identity when none did) */
    for (int level = found; type >= 0 && level < n && got == 0; level++) {
        got = numbers(rd, level < 0 ? node : d[level], ORIENT[type], ORIENT_LEN[type],
                      ORIENT_LEN[type], v);
        if (got < 0 || type != 0) break;
    }
    free(d);
    if (got <= 0) return got;
    if (type == 0) {                                    /* quat */
        memcpy(q, v, sizeof(double) * 4);
        u2d_mj_normalize(q, 4);
        return 0;
    }
    const double deg = rd->degree ? 3.14159265358979323846 / 180.0 : 1.0;
    if (type == 1) {                                    /* axisangle */
        double a = v[3] * deg;
        if (u2d_mj_normalize(v, 3) < U2D_MJ_EPS)
            return orientation_fails(rd, node, at, 1, "the axis is too small",
                                     "give an axis of nonzero length");
        q[0] = cos(a / 2);
        for (int k = 0; k < 3; k++) q[k + 1] = sin(a / 2) * v[k];
    } else if (type == 2) {                             /* xyaxes */
        double *x = v, *y = v + 3, z[3];
        if (u2d_mj_normalize(x, 3) < U2D_MJ_EPS)
            return orientation_fails(rd, node, at, 2, "the x axis is too small", axes);
        double dot = u2d_dot3(x, y);
        for (int k = 0; k < 3; k++) y[k] -= x[k] * dot;
        if (u2d_mj_normalize(y, 3) < U2D_MJ_EPS)
            return orientation_fails(rd, node, at, 2, "the y axis is too small or along x",
                                     axes);
        u2d_cross3(x, y, z);
        if (u2d_mj_normalize(z, 3) < U2D_MJ_EPS)
            return orientation_fails(rd, node, at, 2, "x cross y is too small", axes);
        /* the quaternion of the matrix with columns x, y, z (MuJoCo's frame2quat) */
        const double *c[3] = {x, y, z};
        if (c[0][0] + c[1][1] + c[2][2] > 0) {
            q[0] = 0.5 * sqrt(1 + c[0][0] + c[1][1] + c[2][2]);
            q[1] = 0.25 * (c[1][2] - c[2][1]) / q[0];
            q[2] = 0.25 * (c[2][0] - c[0][2]) / q[0];
            q[3] = 0.25 * (c[0][1] - c[1][0]) / q[0];
        } else if (c[0][0] > c[1][1] && c[0][0] > c[2][2]) {
            q[1] = 0.5 * sqrt(1 + c[0][0] - c[1][1] - c[2][2]);
            q[0] = 0.25 * (c[1][2] - c[2][1]) / q[1];
            q[2] = 0.25 * (c[1][0] + c[0][1]) / q[1];
            q[3] = 0.25 * (c[2][0] + c[0][2]) / q[1];
        } else if (c[1][1] > c[2][2]) {
            q[2] = 0.5 * sqrt(1 - c[0][0] + c[1][1] - c[2][2]);
            q[0] = 0.25 * (c[2][0] - c[0][2]) / q[2];
            q[1] = 0.25 * (c[1][0] + c[0][1]) / q[2];
            q[3] = 0.25 * (c[2][1] + c[1][2]) / q[2];
        } else {
            q[3] = 0.5 * sqrt(1 - c[0][0] - c[1][1] + c[2][2]);
            q[0] = 0.25 * (c[0][1] - c[1][0]) / q[3];
            q[1] = 0.25 * (c[2][0] + c[0][2]) / q[3];
            q[2] = 0.25 * (c[2][1] + c[1][2]) / q[3];
        }
        u2d_mj_normalize(q, 4);
    } else if (type == 3) {                             /* zaxis: the shortest turn to it */
        if (u2d_mj_normalize(v, 3) < U2D_MJ_EPS)
            return orientation_fails(rd, node, at, 3, "the axis is too small",
                                     "give a nonzero direction");
        double z[3] = {0, 0, 1}, a[3];
        u2d_cross3(z, v, a);
        double s = u2d_mj_normalize(a, 3);
        if (s < 1e-10) { a[0] = 1; a[1] = a[2] = 0; }
        double ang = atan2(s, v[2]);
        q[0] = cos(ang / 2);
        for (int k = 0; k < 3; k++) q[k + 1] = a[k] * sin(ang / 2);
    } else {                                            /* euler */
        q[0] = 1; q[1] = q[2] = q[3] = 0;
        for (int i = 0; i < 3; i++) {
            double e = v[i] * deg, r[4] = {cos(e / 2), 0, 0, 0}, t[4];
            char axis = rd->eulerseq[i];
            r[1 + ((axis | 32) - 'x')] = sin(e / 2);
            if (axis >= 'a') u2d_mj_quat_mul(q, r, t);      /* moving axes */
            else u2d_mj_quat_mul(r, q, t);                  /* fixed axes  */
            memcpy(q, t, sizeof t);
        }
        u2d_mj_normalize(q, 4);
    }
    return 0;
}

/* pos and orientation of a body, frame or site-like element (no defaults) */
static int pose_of(mjcf *rd, u2d_xml *node, int kind, int cls, u2d_mj_pose *p)
{
    p->pos[0] = p->pos[1] = p->pos[2] = 0.0;
    if (dnumbers(rd, node, kind, cls, "pos", 3, 3, p->pos) < 0) return -1;
    return orientation(rd, node, kind, cls, p->quat);
}

/* ---- the body tree ------------------------------------------------------------------- */

/* A joint, geom or child body met in a body, with the class it defaults to and the frame
 * (<frame> elements) it sits in, in the body's coordinates. */
typedef struct { u2d_xml *node; int cls; u2d_mj_pose frame; } mj_item;

typedef struct {
    mj_item *joint, *geom, *child;
    int njoint, ngeom, nchild, capj, capg, capc;
    u2d_xml *inertial;
    u2d_mj_pose iframe;         /* the frame the <inertial> sits in                      */
} mj_content;

/* A body waiting to be read: its parent's link, the class it inherits, the frame it sits in
 * (parent body coordinates). */
typedef struct {
    u2d_xml *node;
    int parent_link, parent_body, cls, top_level;
    u2d_mj_pose frame;
} mj_pending;

static const u2d_mj_pose IDENTITY = {{0, 0, 0}, {1, 0, 0, 0}};

static int push_item(mjcf *rd, mj_item **a, int *n, int *cap, u2d_xml *node, int cls,
                     const u2d_mj_pose *frame)
{
    if (grow(rd, (void **)a, cap, *n, sizeof **a)) return -1;
    (*a)[(*n)++] = (mj_item){node, cls, *frame};
    return 0;
}

static const char *const GEOM_TYPES = "plane|hfield|sphere|capsule|ellipsoid|cylinder|box|mesh|sdf";

/* A named geom's type (its class's), kept for a spatial tendon's path, which wraps around
 * spheres and cylinders only. 0 or -1. */
static int name_geom(mjcf *rd, u2d_xml *g, int cls)
{
    const char *name = u2d_xml_attr(g, "name");
    if (!name) return 0;
    int type = dkeyword(rd, g, K_GEOM, cls, "type", GEOM_TYPES, U2D_GEOM_SPHERE);
    if (type < 0 || grow(rd, (void **)&rd->named_geom, &rd->capnamed_geom, rd->nnamed_geom,
                         sizeof *rd->named_geom))
        return -1;
    rd->named_geom[rd->nnamed_geom++] = (name_entry){name, type};
    return 0;
}

/* A site or camera has no mass and moves no joint, but MuJoCo's compiler resolves its
 * orientation (its class's too) and refuses one it cannot; a site's fromto replaces it, as
 * a geom's does, and is refused where MuJoCo refuses it. */
/* A site's size as MuJoCo makes it: 0.005 each, then the numbers of its classes, most
 * general first, then its own, each overwriting as many as it gives. 0 or -1. */
static int site_size(mjcf *rd, u2d_xml *e, int cls, double size[3])
{
    int n;
    size[0] = size[1] = size[2] = 0.005;
    u2d_xml **d = chain(rd, cls, K_SITE, &n);
    if (!d) return -1;
    int status = 0;
    for (int k = n - 1; k >= -1 && !status; k--) {
        double given[3];
        int m = numbers(rd, k >= 0 ? d[k] : e, "size", 1, 3, given);
        if (m < 0) status = -1;
        for (int i = 0; i < m; i++) size[i] = given[i];
    }
    free(d);
    return status;
}

/* MuJoCo's checks of a site's type and size (it compiles a site as a geom): no plane or
 * height field, and the sizes its type uses positive (with fromto only the radius: the
 * length comes from the two points). */
static int check_site_size(mjcf *rd, u2d_xml *e, int cls, int type, int fromto)
{
    double size[3];
    if (type == U2D_GEOM_PLANE || type == U2D_GEOM_HFIELD)
        return fail(rd, e, "<site type=\"%s\">: a site cannot be a plane or a height field "
                    "(MuJoCo refuses it): give it another type", type ? "hfield" : "plane");
    if (site_size(rd, e, cls, size) < 0) return -1;
    int used = fromto || type == U2D_GEOM_SPHERE ? 1
             : type == U2D_GEOM_CAPSULE || type == U2D_GEOM_CYLINDER ? 2
             : type == U2D_GEOM_ELLIPSOID || type == U2D_GEOM_BOX ? 3 : 0;
    for (int k = 0; k < used; k++)
        if (size[k] <= 0)
            return fail(rd, e, "<site>: size %d is %g (with its class's and the default's), "
                        "not positive (MuJoCo refuses it): give a positive size", k, size[k]);
    return 0;
}

/* A site's mesh= as MuJoCo checks it: a mesh site names a mesh asset, no other site has
 * one. */
static int check_site_mesh(mjcf *rd, u2d_xml *e, int cls, int type)
{
    const char *mesh = dattr(rd, e, K_SITE, cls, "mesh"), *name = u2d_xml_attr(e, "name");
    char who[140];
    if (name) snprintf(who, sizeof who, "site '%.100s'", name);
    else snprintf(who, sizeof who, "<site>");
    if (type == U2D_GEOM_MESH && (!mesh || !mesh[0]))
        return fail(rd, e, "%s: type=\"mesh\" without mesh= (MuJoCo refuses a mesh site "
                    "without its mesh): name a <mesh> asset with mesh=, or give another type",
                    who);
    if (!mesh) return 0;
    if (type != U2D_GEOM_MESH)
        return fail(rd, e, "%s: mesh= is only for a site of type=\"mesh\" (MuJoCo refuses "
                    "it): give type=\"mesh\" or leave mesh= out", who);
    if (lookup(rd->meshindex, rd->nmesh, mesh) < 0)
        return fail(rd, e, "%s: mesh=\"%.100s\" names no <mesh> asset (MuJoCo refuses it): "
                    "name one of the model's meshes", who, mesh);
    return 0;
}

/* Values MuJoCo 4.0.0's compiler refuses on what an element ends with after its class chain
 * (its own attribute, else its class's nearest, else MuJoCo's default), though urdf2dyn
 * computes nothing from them: a geom's or contact pair's condim, a camera's fovy, a light's
 * dir, a spatial tendon's width. The predicates see the numbers as strtod reads them (a
 * NaN passes, as in MuJoCo). */
static int invalid_condim(const double *v) { return v[0] != 1 && v[0] != 3 && v[0] != 4 &&
                                                    v[0] != 6; }
static int fovy_too_large(const double *v) { return v[0] >= 180; }
static int zero_direction(const double *v)    /* mjuu_normvec tests the squared norm */
{
    return v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < U2D_MJ_EPS;
}
static int not_positive(const double *v) { return v[0] <= 0; }

static const struct {
    int kind;
    const char *tag, *attr;
    int n;
    double fallback[3];                 /* MuJoCo's value when nothing sets it */
    int (*refused)(const double *v);
    const char *reason, *advice;
} COMPILED_VALUES[] = {
    {K_GEOM, "geom", "condim", 1, {3}, invalid_condim, "invalid condim in geom",
     "give 1, 3, 4 or 6"},
    {K_PAIR, "pair", "condim", 1, {3}, invalid_condim, "invalid condim in contact pair",
     "give 1, 3, 4 or 6"},
    {K_CAMERA, "camera", "fovy", 1, {45}, fovy_too_large, "fovy too large in camera",
     "give a vertical field of view below 180 degrees"},
    {K_LIGHT, "light", "dir", 3, {0, 0, -1}, zero_direction, "zero direction in light",
     "give a nonzero direction, e.g. dir=\"0 0 -1\""},
    {K_TENDON, "spatial", "width", 1, {0.003}, not_positive, "must have positive width",
     "give a width above 0 (it is only drawn)"}};

/* e (of kind, class cls) ends with values MuJoCo's compiler takes (COMPILED_VALUES). 0 or -1
 * (message naming the element, the attribute, where its value came from, MuJoCo's reason and
 * what to do). */
static int check_compiled_values(mjcf *rd, u2d_xml *e, int kind, int cls)
{
    const char *tag = u2d_xml_name(e);
    for (size_t k = 0; k < sizeof COMPILED_VALUES / sizeof COMPILED_VALUES[0]; k++) {
        if (COMPILED_VALUES[k].kind != kind || strcmp(COMPILED_VALUES[k].tag, tag) != 0)
            continue;
        const char *attr = COMPILED_VALUES[k].attr, *v;
        double x[3];
        memcpy(x, COMPILED_VALUES[k].fallback, sizeof x);
        if (given_text(rd, e, kind, cls, attr, &v) < 0) return -1;
        leading_numbers(v, COMPILED_VALUES[k].n, x);
        if (!COMPILED_VALUES[k].refused(x)) continue;
        return fail(rd, e, "<%s %s=\"%.60s\">%s: MuJoCo's compiler refuses it (\"%s\"): %s",
                    tag, attr, v ? v : "", written(e, attr) ? "" : ", from its class",
                    COMPILED_VALUES[k].reason, COMPILED_VALUES[k].advice);
    }
    return 0;
}

/* A <contact> element e: a <pair> ends with values MuJoCo's compiler takes after its class
 * chain (its class=, else main: pairs have no childclass). 0 or -1 (message). */
static int check_pair_values(mjcf *rd, u2d_xml *e)
{
    if (strcmp(u2d_xml_name(e), "pair") != 0) return 0;
    int cls = class_attr(rd, e, "class", 0);
    return cls < 0 ? -1 : check_compiled_values(rd, e, K_PAIR, cls);
}

/* Geom or site e (class cls, kind K_GEOM or K_SITE) of type mesh (a geom's sdf too) for
 * which MuJoCo builds its mesh's convex hull (a site's always, a geom's by geom_needs_hull)
 * marks the mesh (the first such) for weigh_inline_meshes. 0 or -1. */
static int mark_hull_mesh(mjcf *rd, u2d_xml *e, int kind, int cls)
{
    int type = dkeyword(rd, e, kind, cls, "type", GEOM_TYPES, U2D_GEOM_SPHERE);
    const char *mesh = dattr(rd, e, kind, cls, "mesh");
    if (type < 0) return -1;
    if ((type != U2D_GEOM_MESH && (kind == K_SITE || type != U2D_GEOM_SDF)) || !mesh) return 0;
    int k = lookup(rd->meshindex, rd->nmesh, mesh), needs = 1;
    if (k < 0 || rd->mesh[k].hull_geom) return 0;          /* (an unknown name: refused later) */
    if (kind == K_GEOM && (needs = geom_needs_hull(rd, e, cls)) <= 0) return needs;
    rd->mesh[k].hull_geom = e;
    return 0;
}

static int site_or_camera(mjcf *rd, u2d_xml *e, int cls, int kind)
{
    double q[4], ft[6], pos[3] = {0, 0, 0};
    int form, nft = 0;
    if ((cls = class_attr(rd, e, "class", cls)) < 0 ||
        check_compiled_values(rd, e, kind, cls) < 0)
        return -1;
    if (kind == K_SITE && (nft = dnumbers(rd, e, kind, cls, "fromto", 6, 6, ft)) < 0) return -1;
    if (kind == K_SITE) {
        int t = dkeyword(rd, e, kind, cls, "type", GEOM_TYPES, U2D_GEOM_SPHERE);
        if (t < 0 || check_site_mesh(rd, e, cls, t) < 0 ||
            check_site_size(rd, e, cls, t, nft) < 0 || mark_hull_mesh(rd, e, K_SITE, cls) < 0)
            return -1;
    }
    if (!nft) return orientation(rd, e, kind, cls, q);
    int type = dkeyword(rd, e, kind, cls, "type", GEOM_TYPES, U2D_GEOM_SPHERE);
    if (type < 0 || orientation_form(rd, e, &form) < 0 ||
        dnumbers(rd, e, kind, cls, "pos", 3, 3, pos) < 0)
        return -1;
    if (type != U2D_GEOM_CAPSULE && type != U2D_GEOM_CYLINDER && type != U2D_GEOM_ELLIPSOID &&
        type != U2D_GEOM_BOX)
        return fail(rd, e, "<site fromto>: only capsules, cylinders, ellipsoids and boxes "
                    "(MuJoCo refuses another type): give the site one of those types");
    if (pos[0] || pos[1] || pos[2])
        return fail(rd, e, "<site>: both pos and fromto (MuJoCo refuses both): give one");
    double d[3] = {ft[0] - ft[3], ft[1] - ft[4], ft[2] - ft[5]};
    if (u2d_mj_normalize(d, 3) / 2 < U2D_MJ_EPS)
        return fail(rd, e, "<site fromto>: the two points coincide (MuJoCo refuses them): "
                    "give two distinct points");
    return 0;
}

/* The elements of a body (world: of a <worldbody>), <frame>s opened with a stack. */
/* A geom's fromto (its class's too), checked as MuJoCo's compiler checks every geom's,
 * whether its mass is read or not (a body with an <inertial>, a geom outside the compiler's
 * inertiagrouprange): a capsule, cylinder, ellipsoid or box, without pos, its two points
 * apart. */
static int check_fromto(mjcf *rd, u2d_xml *g, int cls)
{
    double ft[6], pos[3] = {0, 0, 0};
    int n = dnumbers(rd, g, K_GEOM, cls, "fromto", 6, 6, ft);
    if (n <= 0) return n;
    int type = dkeyword(rd, g, K_GEOM, cls, "type", GEOM_TYPES, U2D_GEOM_SPHERE);
    if (type < 0 || dnumbers(rd, g, K_GEOM, cls, "pos", 3, 3, pos) < 0) return -1;
    if (type != U2D_GEOM_CAPSULE && type != U2D_GEOM_CYLINDER && type != U2D_GEOM_ELLIPSOID &&
        type != U2D_GEOM_BOX)
        return fail(rd, g, "<geom fromto>: only capsules, cylinders, ellipsoids and boxes");
    if (pos[0] || pos[1] || pos[2]) return fail(rd, g, "<geom>: both pos and fromto");
    double d[3] = {ft[0] - ft[3], ft[1] - ft[4], ft[2] - ft[5]};
    if (u2d_mj_normalize(d, 3) / 2 < U2D_MJ_EPS)
        return fail(rd, g, "<geom fromto>: the two points coincide");
    return 0;
}

static int scan_body(mjcf *rd, u2d_xml *body, int cls, int world, mj_content *c)
{
    typedef struct { u2d_xml *next; int cls; u2d_mj_pose frame; } level;
    level *st = NULL;
    int top = 0, cap = 0, status = 0;
    if (grow(rd, (void **)&st, &cap, top, sizeof *st)) return -1;
    st[top++] = (level){u2d_xml_first(body), cls, IDENTITY};
    while (top > 0 && !status) {
        level *L = &st[top - 1];
        u2d_xml *e = L->next;
        if (!e) { top--; continue; }
        L->next = u2d_xml_next(e);
        const char *name = u2d_xml_name(e);
        int ecls = L->cls;
        u2d_mj_pose frame = L->frame;
        if (strcmp(name, "body") == 0) {
            status = push_item(rd, &c->child, &c->nchild, &c->capc, e, ecls, &frame);
        } else if (strcmp(name, "frame") == 0) {
            u2d_mj_pose p;
            if ((ecls = class_attr(rd, e, "childclass", ecls)) < 0 ||
                pose_of(rd, e, K_GEOM, -1, &p) < 0) { status = -1; break; }
            u2d_mj_pose_mul(&frame, &p, &frame);
            if (grow(rd, (void **)&st, &cap, top, sizeof *st)) { status = -1; break; }
            st[top++] = (level){u2d_xml_first(e), ecls, frame};
        } else if (strcmp(name, "joint") == 0 || strcmp(name, "freejoint") == 0) {
            if (world) status = fail(rd, e, "the world body cannot have joints");
            else if ((ecls = class_attr(rd, e, "class", ecls)) < 0) status = -1;
            else status = push_item(rd, &c->joint, &c->njoint, &c->capj, e, ecls, &frame);
        } else if (strcmp(name, "geom") == 0) {
            /* its orientation resolved here too, as MuJoCo resolves every geom's (a bad one
             * refused) though its mass may go unread; unless fromto replaces it */
            int form;
            double q[4];
            if ((ecls = class_attr(rd, e, "class", ecls)) < 0 ||
                (dattr(rd, e, K_GEOM, ecls, "fromto") ? orientation_form(rd, e, &form)
                                                       : orientation(rd, e, K_GEOM, ecls, q)) < 0 ||
                check_fromto(rd, e, ecls) < 0 || check_compiled_values(rd, e, K_GEOM, ecls) < 0)
                status = -1;
            else status = name_geom(rd, e, ecls) ||
                          push_item(rd, &c->geom, &c->ngeom, &c->capg, e, ecls, &frame);
        } else if (strcmp(name, "inertial") == 0) {
            if (world) status = fail(rd, e, "the world body cannot have an <inertial>");
            c->inertial = e;
            c->iframe = frame;
        } else if (strcmp(name, "site") == 0 || strcmp(name, "camera") == 0) {
            status = site_or_camera(rd, e, ecls, name[0] == 's' ? K_SITE : K_CAMERA);
        } else if (strcmp(name, "light") == 0) {          /* no mass, no joint */
            if ((ecls = class_attr(rd, e, "class", ecls)) < 0 ||
                check_compiled_values(rd, e, K_LIGHT, ecls) < 0)
                status = -1;
        } else if (strcmp(name, "plugin") == 0) {
            status = fail(rd, e, "a body's <plugin> applies passive forces, and MuJoCo 4's "
                          "Python package registers no plugin that does (the elasticity "
                          "plugins are not among them; MuJoCo refuses it: \"does not support "
                          "passive forces\"): remove it");
        } else if (strcmp(name, "composite") == 0) {
            status = fail(rd, e, "<composite> is not an element of MuJoCo 4's schema (MuJoCo "
                          "refuses it: \"unrecognized element\"): expand it into bodies with "
                          "MuJoCo 3 (mj_saveLastXML writes the compiled model as plain MJCF)");
        } else if (strcmp(name, "flexcomp") == 0 || strcmp(name, "replicate") == 0 ||
                   strcmp(name, "attach") == 0) {
            status = fail(rd, e, "<%s> is not read by urdf2dyn: expand it into bodies (MuJoCo's "
                          "mj_saveLastXML writes the compiled model as plain MJCF)", name);
        } else {
            status = fail(rd, e, "<%.60s> is not an element of a body", name);
        }
    }
    free(st);
    return status;
}

static int add_link(mjcf *rd, const char *name, int line)
{
    u2d_urdf *u = rd->u;
    if (grow(rd, (void **)&u->link, &rd->caplink, u->nlink, sizeof *u->link)) return -1;
    u2d_urdf_link *L = &u->link[u->nlink];
    memset(L, 0, sizeof *L);
    L->name = name;
    L->line = line;
    return u->nlink++;
}

static u2d_urdf_joint *add_joint(mjcf *rd, const char *name, int line, u2d_jtype type,
                                 int parent, int child, const u2d_mj_pose *origin)
{
    u2d_urdf *u = rd->u;
    if (grow(rd, (void **)&u->joint, &rd->capjoint, u->njoint, sizeof *u->joint)) return NULL;
    u2d_urdf_joint *J = &u->joint[u->njoint++];
    memset(J, 0, sizeof *J);
    J->name = name;
    J->line = line;
    J->type = type;
    J->parent = parent;
    J->child = child;
    J->axis[2] = 1.0;
    u2d_mj_pose_xform(origin, &J->origin);
    return J;
}

static int add_qpos0(mjcf *rd, const double *q, int n)
{
    u2d_urdf *u = rd->u;
    if (rd->capq0 < u->nqpos0 + n) {
        int cap = 2 * (u->nqpos0 + n);
        double *g = realloc(u->qpos0, sizeof(double) * (size_t)cap);
        if (!g) return fail(rd, NULL, "out of memory");
        u->qpos0 = g;
        rd->capq0 = cap;
    }
    memcpy(u->qpos0 + u->nqpos0, q, sizeof(double) * (size_t)n);
    u->nqpos0 += n;
    return 0;
}

/* ---- a body's inertia ------------------------------------------------------------------ */

/* A geom urdf2dyn cannot weigh refused under <compiler inertiafromgeom="true">, which weighs
 * the geoms even where the body has an <inertial>: rd->err's advice to give an <inertial>
 * becomes one to set inertiafromgeom="auto" (and give one where the body has none). -1. */
static int advise_auto_fromgeom(mjcf *rd, int has_inertial)
{
    static const char ADVICE[] = "give the body an <inertial>";
    char *at = strstr(rd->err, ADVICE), text[U2D_ERRLEN];
    if (!at) return -1;
    snprintf(text, sizeof text, "%.*s%s (inertiafromgeom=\"true\" weighs the geoms even so)%s",
             (int)(at - rd->err), rd->err,
             has_inertial ? "set <compiler inertiafromgeom=\"auto\">, so that this body is "
                            "weighed by its <inertial>"
                          : "give the body an <inertial> and set <compiler "
                            "inertiafromgeom=\"auto\">", at + strlen(ADVICE));
    snprintf(rd->err, U2D_ERRLEN, "%s", text);
    return -1;
}


/* A mesh geom g (class cls) of mesh M, once M's vertices are read: where they lie on one
 * point, line or plane and MuJoCo builds M's convex hull for g (geom_needs_hull), its
 * compiler cannot and refuses it. 0 or -1 (message). */
static int check_mesh_hull(mjcf *rd, u2d_xml *g, int cls, const mj_mesh *M)
{
    if (M->mass.flat == U2D_HULL_OK) return 0;
    int needs = geom_needs_hull(rd, g, cls);
    return needs <= 0 ? needs : fail_no_hull(rd, g, M);
}

/* One geom as MuJoCo's compiler places and weighs it: inertia I in the body's axes, D
 * (diagonal) in the geom's principal axes, axes[4] (in the body frame); contributes 0 or 1
 * (mass > mjEPS), -1 on error. */
static int geom_mass(mjcf *rd, const mj_item *it, double *m, double com[3], double I[9],
                     double D[9], double axes[4])
{
    u2d_xml *g = it->node;
    int cls = it->cls;
    u2d_mj_geom G;
    memset(&G, 0, sizeof G);
    double size[3] = {0, 0, 0}, fromto[6], v;
    int type = dkeyword(rd, g, K_GEOM, cls, "type", GEOM_TYPES, U2D_GEOM_SPHERE);
    int shell = dkeyword(rd, g, K_GEOM, cls, "shellinertia", BOOL_WORDS, 0);
    if (type < 0 || shell < 0 || dnumbers(rd, g, K_GEOM, cls, "size", 1, 3, size) < 0) return -1;
    G.type = type;
    G.shell = shell;
    memcpy(G.size, size, sizeof size);
    G.density = 1000.0;
    int nmass = dnumbers(rd, g, K_GEOM, cls, "mass", 1, 1, &v);
    if (nmass < 0) return -1;
    G.has_mass = nmass;
    if (nmass) G.mass = v;
    if (dnumbers(rd, g, K_GEOM, cls, "density", 1, 1, &G.density) < 0) return -1;
    if ((G.has_mass && G.mass < 0) || G.density < 0)
        return fail(rd, g, "<geom>: a negative mass or density");
    int nft = dnumbers(rd, g, K_GEOM, cls, "fromto", 6, 6, fromto);
    if (nft < 0) return -1;
    /* fromto replaces the orientation: MuJoCo does not resolve it then (a bad one passes) */
    if (nft) {
        memset(G.pose.pos, 0, sizeof G.pose.pos);
        if (dnumbers(rd, g, K_GEOM, cls, "pos", 3, 3, G.pose.pos) < 0) return -1;
    } else if (pose_of(rd, g, K_GEOM, cls, &G.pose) < 0) {
        return -1;
    }
    if (nft) {                          /* (check_fromto has checked it, the type too) */
        double d[3] = {fromto[0] - fromto[3], fromto[1] - fromto[4], fromto[2] - fromto[5]};
        G.size[1] = u2d_mj_normalize(d, 3) / 2;
        if (type == U2D_GEOM_ELLIPSOID || type == U2D_GEOM_BOX) {
            G.size[2] = G.size[1];
            G.size[1] = G.size[0];
        }
        for (int k = 0; k < 3; k++) G.pose.pos[k] = (fromto[k] + fromto[k + 3]) / 2;
        double z[3] = {0, 0, 1}, a[3];                  /* z turned onto d, the shortest way */
        u2d_cross3(z, d, a);
        double s = u2d_mj_normalize(a, 3);
        if (s < 1e-10) { a[0] = 1; a[1] = a[2] = 0; }
        double ang = atan2(s, d[2]);
        G.pose.quat[0] = cos(ang / 2);
        for (int k = 0; k < 3; k++) G.pose.quat[k + 1] = a[k] * sin(ang / 2);
    }
    const char *mesh = dattr(rd, g, K_GEOM, cls, "mesh");
    if (mesh) {
        int k = lookup(rd->meshindex, rd->nmesh, mesh);
        if (k < 0) return fail(rd, g, "<geom mesh=\"%.100s\">: no <mesh> asset of that name", mesh);
        if (nft) return fail(rd, g, "<geom>: fromto cannot be used with a mesh");
        if (type != U2D_GEOM_MESH && type != U2D_GEOM_SDF)
            return fail(rd, g, "<geom type=\"%s\" mesh=\"%.100s\">: a primitive fitted to a mesh "
                        "(MuJoCo's fitscale) is not computed by urdf2dyn: give the body an "
                        "<inertial>", u2d_xml_attr(g, "type") ? u2d_xml_attr(g, "type") : "sphere",
                        mesh);
        if (shell)
            return fail(rd, g, "<geom shellinertia>: for a mesh, the <mesh inertia=\"shell\"> "
                        "says it (as in MuJoCo)");
        int massive = G.has_mass ? G.mass != 0 : G.density != 0;
        if (massive && !(G.mesh = mesh_mass(rd, k))) {
            if (check_mesh_hull(rd, g, cls, &rd->mesh[k])) return -1;    /* MuJoCo's first */
            /* the advice once: some of the mesh's messages give it already */
            size_t n = strlen(rd->err);
            if (!strstr(rd->err, "give the body an <inertial>"))
                snprintf(rd->err + n, U2D_ERRLEN - n, " (MuJoCo takes this body's inertia "
                         "from the mesh; give the body an <inertial>)");
            return -1;
        }
        if (G.mesh && check_mesh_hull(rd, g, cls, &rd->mesh[k])) return -1;
    } else if (type == U2D_GEOM_MESH || type == U2D_GEOM_SDF) {
        return fail(rd, g, "<geom type=\"%s\"> names no mesh", type == U2D_GEOM_MESH ? "mesh" : "sdf");
    } else if (type == U2D_GEOM_HFIELD) {
        return fail(rd, g, "<geom type=\"hfield\">: a height field's mass is not computed by "
                    "urdf2dyn: give the body an <inertial>");
    }
    /* the frame the geom sits in */
    u2d_mj_pose_mul(&it->frame, &G.pose, &G.pose);
    *m = u2d_mj_geom_mass(&G, com, I, D, axes);
    return *m > U2D_MJ_EPS;
}

/* MuJoCo's kinematics takes an inertial frame within 1e-6 of the body's as the body's
 * (body_sameframe): the offset as zero when the axes are the body's too, the axes as the
 * body's. Its dynamics are those of the frame so snapped. */
static void same_frame(double com[3], double iquat[4])
{
    if (!u2d_mj_null_quat(iquat)) return;
    if (u2d_mj_null_pos(com)) com[0] = com[1] = com[2] = 0.0;
    iquat[0] = 1;
    iquat[1] = iquat[2] = iquat[3] = 0.0;
}


/* MuJoCo's schema lets an <inertial> write at most one of fullinertia= and the five
 * orientation forms, counting each one written at all, a blank one too ("at most one of
 * 'fullinertia', 'quat', ... can be specified"). 0 or -1 (message). */
static int check_inertial_forms(mjcf *rd, u2d_xml *in)
{
    const char *first = u2d_xml_attr(in, "fullinertia") ? "fullinertia" : NULL;
    for (int k = 0; k < 5; k++) {
        if (!u2d_xml_attr(in, ORIENT[k])) continue;
        if (first)
            return fail(rd, in, "<inertial>: %s and %s cannot both be given (MuJoCo's schema "
                        "refuses it, a blank one too): give one of them", first, ORIENT[k]);
        first = ORIENT[k];
    }
    return 0;
}
/* Body b's mass, centre and inertia about it (body axes), as MuJoCo's compiler gives them
 * (explicit <inertial>, else the geoms per inertiafromgeom), into link L; its principal
 * moments, as MuJoCo's body_inertia, into lam. pose is the body's in its parent's frame
 * (MuJoCo's odd default centre for a body with nothing). */
static int body_inertia(mjcf *rd, const mj_content *c, const u2d_mj_pose *pose,
                        u2d_urdf_link *L, double lam[3])
{
    double mass = 0.0, com[3], I[9] = {0}, axes[4];     /* I's axes in the body frame */
    int diagonal = 1;           /* I is diagonal as MuJoCo has it, else it takes I's
                                   principal axes (as it finds them) */
    memcpy(com, pose->pos, sizeof com);                 /* MuJoCo's ipos = pos, */
    memcpy(axes, pose->quat, sizeof axes);              /* iquat = quat */
    u2d_xml *in = c->inertial;
    if (in) {
        double q[4], d[3] = {0, 0, 0}, full[6];
        int npos = numbers(rd, in, "pos", 3, 3, com), nmass = 0;
        if (npos < 0 || (nmass = numbers(rd, in, "mass", 1, 1, &mass)) < 0) return -1;
        if (!npos || !nmass)        /* a blank one is missing to MuJoCo too */
            return fail(rd, in, "<inertial> needs pos and mass");
        if (numbers(rd, in, "diaginertia", 3, 3, d) < 0) return -1;
        int nfull = numbers(rd, in, "fullinertia", 6, 6, full);
        if (nfull < 0 || check_inertial_forms(rd, in) < 0 ||
            orientation(rd, in, K_GEOM, -1, q) < 0)
            return -1;
        if (nfull) {
            if (written(in, "diaginertia"))         /* a blank one is not given */
                return fail(rd, in, "<inertial>: fullinertia and diaginertia cannot both be given");
            double F[9] = {full[0], full[3], full[4], full[3], full[1], full[5], full[4], full[5],
                           full[2]}, lam[3];
            u2d_sym3_eigenvalues(F, lam);
            if (lam[0] < U2D_MJ_EPS)
                return fail(rd, in, "<inertial fullinertia>: the inertia must have positive "
                            "eigenvalues (smallest %g)", lam[0]);
            memcpy(I, F, sizeof F);
            memset(q, 0, sizeof q);
            q[0] = 1;
            diagonal = 0;
        } else {
            memset(I, 0, sizeof I);
            I[0] = d[0]; I[4] = d[1]; I[8] = d[2];
        }
        /* the inertial frame, placed by the <frame>s around the element, as MuJoCo does */
        u2d_mj_pose ip = {{com[0], com[1], com[2]}, {q[0], q[1], q[2], q[3]}};
        u2d_mj_pose_mul(&c->iframe, &ip, &ip);
        memcpy(axes, ip.quat, sizeof axes);
        memcpy(com, ip.pos, sizeof com);
    }
    if (rd->fromgeom == 1 || (rd->fromgeom == 2 && !in)) {
        double M = 0.0, h[3] = {0, 0, 0}, S[9] = {0}, D1[9], axes1[4], D[9], q[4];
        int n = 0;
        for (int k = 0; k < c->ngeom; k++) {
            const mj_item *it = &c->geom[k];
            double group = 0, m = 0, gc[3], gI[9];
            if (dnumbers(rd, it->node, K_GEOM, it->cls, "group", 1, 1, &group) < 0) return -1;
            if (group < rd->group[0] || group > rd->group[1]) continue;
            int used = geom_mass(rd, it, &m, gc, gI, D1, axes1);
            if (used < 0) return rd->fromgeom == 1 ? advise_auto_fromgeom(rd, in != NULL) : -1;
            if (!used) continue;
            /* about the body origin, then shifted to the centre once all are in */
            M += m;
            for (int a = 0; a < 3; a++) h[a] += m * gc[a];
            double cc = u2d_dot3(gc, gc);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    S[3 * a + b] += gI[3 * a + b] + m * ((a == b) * cc - gc[a] * gc[b]);
            if (n++ == 0) { memcpy(D, D1, sizeof D); memcpy(q, axes1, sizeof q); }
        }
        if (n > 0) {
            if (M < U2D_MJ_EPS) return fail(rd, NULL, "the geoms' mass is too small to place "
                                            "its centre");
            mass = M;
            axes[0] = 1; axes[1] = axes[2] = axes[3] = 0;
            diagonal = n == 1;
            for (int a = 0; a < 3; a++) com[a] = h[a] / M;
            double cc = u2d_dot3(com, com);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    I[3 * a + b] = S[3 * a + b] - M * ((a == b) * cc - com[a] * com[b]);
            if (n == 1) {       /* MuJoCo copies a lone geom's inertia and axes as they are */
                memcpy(I, D, sizeof D);
                memcpy(axes, q, sizeof q);
            }
        }
    }
    double iquat[4];
    if (diagonal) {
        for (int k = 0; k < 3; k++) lam[k] = I[4 * k];
        memcpy(iquat, axes, sizeof iquat);
    } else {
        double q[4];
        u2d_mj_principal_axes(I, lam, q);
        u2d_mj_quat_mul(axes, q, iquat);
    }
    char why[200];
    if (u2d_mj_fix_inertia(&mass, lam, diagonal ? 0.0 : 1e-12, rd->boundmass, rd->boundinertia,
                           rd->balance, why))
        return fail(rd, in, "%s", why);
    same_frame(com, iquat);
    double R[9];
    u2d_mj_quat_matrix(iquat, R);
    for (int i = 0; i < 3; i++)                         /* R diag(lam) R^T: body axes */
        for (int j = 0; j < 3; j++)
            I[3 * i + j] = R[3 * i] * lam[0] * R[3 * j] + R[3 * i + 1] * lam[1] * R[3 * j + 1]
                         + R[3 * i + 2] * lam[2] * R[3 * j + 2];
    L->has_inertial = 1;
    L->mass = mass;
    memcpy(L->com, com, sizeof com);
    memcpy(L->Icom, I, sizeof I);
    return 0;
}

/* ---- a body's joints ------------------------------------------------------------------- */

enum { J_FREE = 0, J_BALL, J_SLIDE, J_HINGE };

typedef struct {
    int type;
    const char *name;
    double pos[3], axis[3], ref, armature;
    double damping[3], stiffness[3];    /* linear, then MuJoCo 4's polynomial terms */
    double springref, frictionloss, springdamper[2], free_armature;
    int limited;
    double range[2];
    int named;                          /* whether the file names it (name= not empty) */
} mj_joint;

/* A joint's actuator force range as MuJoCo checks it (urdf2dyn applies no actuator force):
 * actuatorfrcrange with actuatorfrclimited. */
static int check_actuator_force_range(mjcf *rd, u2d_xml *j, int cls, const char *name)
{
    char who[140];
    double range[2];
    snprintf(who, sizeof who, "joint '%.100s'", name);
    return limited_range(rd, j, K_JOINT, cls, who, "actuatorfrcrange", "actuatorfrclimited",
                         range, NULL);
}

/* Read joint item k of a body into J (pos and axis in body coordinates), counting what is
 * not applied. */
static int read_joint(mjcf *rd, const mj_item *it, const char *body, int k, mj_joint *J)
{
    u2d_xml *j = it->node;
    int cls = it->cls, free_elem = strcmp(u2d_xml_name(j), "freejoint") == 0;
    memset(J, 0, sizeof *J);
    J->axis[2] = 1.0;
    J->name = u2d_xml_attr(j, "name");
    J->named = J->name && J->name[0];   /* MuJoCo's name="" is no name */
    if (!J->named &&
        !(J->name = generated_name(rd, &rd->joint_names, "%.250s_joint%d", body, k)))
        return -1;
    if (free_elem) {                    /* <freejoint>: no defaults, no axis, no anchor */
        J->type = J_FREE;
        return 0;
    }
    if ((J->type = dkeyword(rd, j, K_JOINT, cls, "type", "free|ball|slide|hinge", J_HINGE)) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "pos", 3, 3, J->pos) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "axis", 3, 3, J->axis) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "ref", 1, 1, &J->ref) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "range", 2, 2, J->range) < 0)
        return -1;
    /* damping and stiffness: a linear coefficient, then MuJoCo's polynomial terms */
    double *damping = J->damping, *stiffness = J->stiffness, *sd = J->springdamper;
    double yield = 0;
    if (dnumbers(rd, j, K_JOINT, cls, "armature", 1, 1, &J->armature) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "damping", 1, 3, damping) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "stiffness", 1, 3, stiffness) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "springref", 1, 1, &J->springref) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "frictionloss", 1, 1, &J->frictionloss) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "springdamper", 2, 2, sd) < 0 ||
        dnumbers(rd, j, K_JOINT, cls, "springyield", 1, 1, &yield) < 0)
        return -1;
    if (J->armature < 0)
        return fail(rd, j, "joint '%.100s': armature %g is negative (a rotor's inertia is at "
                    "least 0)", J->name, J->armature);
    if (check_actuator_force_range(rd, j, cls, J->name) < 0) return -1;
    if (J->type == J_FREE && J->armature != 0) {
        /* MuJoCo's acts on the world-frame linear acceleration, urdf2dyn's free joint
         * moves in its body's frame: the two differ by w x v, so it is only reported */
        rd->n_free_armature++;
        J->free_armature = J->armature;
        J->armature = 0;
    }
    /* Model.passive_forces gives every term (u2d_passive.c); springdamper's stiffness and
     * damping are made once the tree is read (springdamper_terms) */
    int damped = damping[0] != 0 || damping[1] != 0 || damping[2] != 0 || sd[0] != 0;
    int sprung = stiffness[0] != 0 || stiffness[1] != 0 || stiffness[2] != 0 ||
                 sd[0] != 0 || sd[1] != 0;
    rd->n_damping += damped;
    rd->n_spring += sprung;
    rd->n_friction += J->frictionloss != 0;
    rd->n_passive_given += damped || sprung;
    if (yield < 0)
        return fail(rd, j, "joint '%.100s': springyield %g is negative (MuJoCo refuses it): "
                    "give 0 (an elastic spring) or a positive yield", J->name, yield);
    if (yield > 0 && J->type == J_FREE)
        return fail(rd, j, "joint '%.100s': springyield on a free joint (MuJoCo refuses it): "
                    "leave it out", J->name);
    rd->n_spring_yield += yield > 0 && sprung;
    if ((sd[0] != 0 || sd[1] != 0) && !(sd[0] > 0 && sd[1] > 0))
        return fail(rd, j, "joint '%.100s': springdamper=\"%g %g\": a time constant and a "
                    "damping ratio, both positive when given (MuJoCo refuses others): give two "
                    "positive numbers, or leave it out", J->name, sd[0], sd[1]);
    int limited = dkeyword(rd, j, K_JOINT, cls, "limited", "false|true|auto", 2);
    if (limited < 0) return -1;
    if (J->type == J_FREE) {
        limited = 0;                    /* MuJoCo: a free joint is never limited */
    } else if (limited == 2) {
        int hasrange = J->range[0] != 0 || J->range[1] != 0;
        if (!rd->autolimits && hasrange)
            return fail(rd, j, "joint '%.100s' has a range but no limited=\"true\", and compiler "
                        "autolimits is off (MuJoCo refuses this too)", J->name);
        limited = J->range[0] < J->range[1];    /* "auto" limits an increasing range only */
    }
    J->limited = limited;
    const double deg = rd->degree ? 3.14159265358979323846 / 180.0 : 1.0;
    if (limited) {
        if (J->type != J_BALL && J->range[0] >= J->range[1])
            return fail(rd, j, "joint '%.100s': range=\"%g %g\" with limited=\"true\": "
                        "range[0] must be below range[1] (MuJoCo refuses it): give an "
                        "increasing range", J->name, J->range[0], J->range[1]);
        if (J->type == J_BALL && J->range[0] != 0)
            return fail(rd, j, "joint '%.100s': a limited ball joint's range is \"0 angle\", "
                        "the angle its rotation stays within, but range[0] is %g (MuJoCo "
                        "refuses it): give range=\"0 %g\"", J->name, J->range[0],
                        fmax(fabs(J->range[0]), fabs(J->range[1])));
        if (J->type == J_HINGE || J->type == J_BALL) { J->range[0] *= deg; J->range[1] *= deg; }
    }
    if (J->type == J_HINGE) { J->ref *= deg; J->springref *= deg; }
    if (J->type == J_FREE || J->type == J_BALL) {
        J->axis[0] = J->axis[1] = 0; J->axis[2] = 1;
    } else {
        double a[3];
        u2d_mj_rotate(it->frame.quat, J->axis, a);
        memcpy(J->axis, a, sizeof a);
        if (u2d_mj_normalize(J->axis, 3) < U2D_MJ_EPS)
            return fail(rd, j, "joint '%.100s': the axis is too small", J->name);
    }
    if (J->type == J_FREE) {
        J->pos[0] = J->pos[1] = J->pos[2] = 0;
    } else {
        double p[3];
        u2d_mj_rotate(it->frame.quat, J->pos, p);
        for (int a = 0; a < 3; a++) J->pos[a] = it->frame.pos[a] + p[a];
    }
    return 0;
}

/* The springdamper record of core joint `joint`, made (without springdamper or armature)
 * when it has none; NULL and a message when out of memory. */
static mj_springdamper *springdamper_of(mjcf *rd, int joint)
{
    for (int k = 0; k < rd->nsd; k++)
        if (rd->sd[k].joint == joint) return &rd->sd[k];
    if (grow(rd, (void **)&rd->sd, &rd->capsd, rd->nsd, sizeof *rd->sd)) return NULL;
    rd->sd[rd->nsd] = (mj_springdamper){joint, 0, 0, 0};
    return &rd->sd[rd->nsd++];
}

/* A joint's springs and damping onto the core's joint U (the last one added): the linear
 * and polynomial terms, a hinge's or slide's spring rest (a ball's and free joint's are
 * their qpos0, set by the caller), and its springdamper to apply once the tree is read. */
static int passive_terms(mjcf *rd, const mj_joint *j, u2d_urdf_joint *U)
{
    U->damping = j->damping[0];
    U->stiffness = j->stiffness[0];
    memcpy(U->damping_poly, j->damping + 1, sizeof U->damping_poly);
    memcpy(U->stiffness_poly, j->stiffness + 1, sizeof U->stiffness_poly);
    if (j->type == J_HINGE || j->type == J_SLIDE) {
        U->springref = j->springref;            /* MuJoCo ignores a ball's or free one's */
        U->spring_q[0] = j->springref;
    }
    if ((j->springdamper[0] <= 0 || j->springdamper[1] <= 0) && j->free_armature == 0)
        return 0;                       /* (a free joint's armature enters the inertia) */
    mj_springdamper *sd = springdamper_of(rd, (int)(U - rd->u->joint));
    if (!sd) return -1;
    sd->timeconst = j->springdamper[0];
    sd->dampratio = j->springdamper[1];
    sd->free_armature = j->free_armature;
    return 0;
}

/* The joints with springdamper and armature whose inertia MuJoCo's compiler may take from
 * the body's mass alone: on a leaf body of slides along its axes through its origin, which
 * MuJoCo treats as "simple" (body_simple 2: dof_invweight0 = 1 / mass) when its inertial
 * frame is its own and it hangs from the world, leaving out the armature urdf2dyn's mass
 * matrix holds. */
static int simple_slide_springdampers(const mj_joint *J, const mj_content *c)
{
    int n = 0;
    if (c->nchild) return 0;
    for (int k = 0; k < c->njoint; k++) {
        const mj_joint *j = &J[k];
        int aligned = (fabs(j->axis[0]) > U2D_MJ_EPS) + (fabs(j->axis[1]) > U2D_MJ_EPS) +
                      (fabs(j->axis[2]) > U2D_MJ_EPS) == 1;
        int at_origin = fabs(j->pos[0]) < U2D_MJ_EPS && fabs(j->pos[1]) < U2D_MJ_EPS &&
                        fabs(j->pos[2]) < U2D_MJ_EPS;
        if (j->type != J_SLIDE || !aligned || !at_origin) return 0;
        n += j->springdamper[0] > 0 && j->springdamper[1] > 0 && j->armature != 0;
    }
    return n;
}

/* Core joint index has the file's name: actuators may drive it by that name (an
 * inheritrange= one needs it ranged), and limit sensors measure it when it is limited.
 * 0 or -1. */
static int name_joint(mjcf *rd, const char *name, int index, int limited, int ranged)
{
    if (grow(rd, (void **)&rd->named_joint, &rd->capnamed_joint, rd->nnamed_joint,
             sizeof *rd->named_joint) ||
        (limited && grow(rd, (void **)&rd->limited_joint, &rd->caplimited_joint,
                         rd->nlimited_joint, sizeof *rd->limited_joint)) ||
        (ranged && grow(rd, (void **)&rd->ranged_joint, &rd->capranged_joint,
                        rd->nranged_joint, sizeof *rd->ranged_joint)))
        return -1;
    if (limited) rd->limited_joint[rd->nlimited_joint++] = (name_entry){name, index};
    if (ranged) rd->ranged_joint[rd->nranged_joint++] = (name_entry){name, index};
    rd->named_joint[rd->nnamed_joint++] = (name_entry){name, index};
    return 0;
}

/* Body id (element n), its record set: MuJoCo 4 takes a sleep policy other than "auto" only on
 * a movable root body, one with joints whose ancestors up to the world have none (the root
 * of a kinematic tree). 0 or -1 (message). */
static int check_sleep_policy(mjcf *rd, u2d_xml *n, int id)
{
    const char *sleep = u2d_xml_attr(n, "sleep");
    if (!sleep || strcmp(sleep, "auto") == 0) return 0;
    int root = rd->body[id].njoint > 0;
    for (int p = rd->body[id].parent; root && p > 0; p = rd->body[p].parent)
        root = rd->body[p].njoint == 0;
    if (root) return 0;
    return fail(rd, n, "sleep=\"%.20s\": MuJoCo takes a sleep policy only on the root of a "
                "moving tree, a body with joints under bodies without (\"sleep policy only "
                "allowed for movable root bodies\"): give it on that body, or leave sleep out "
                "here", sleep);
}

/* The body's link and its joints (a chain: see the top of the file). pose: the body in its
 * parent's frame. Returns the body's link, or -1. */
static int body_joints(mjcf *rd, const mj_pending *b, const mj_content *c, const char *name,
                       u2d_mj_pose pose, int line, int *link)
{
    static const u2d_jtype core_type[4] = {U2D_JOINT_FLOATING, U2D_JOINT_BALL,
                                           U2D_JOINT_PRISMATIC, U2D_JOINT_REVOLUTE};
    mj_joint *J = malloc(sizeof *J * (size_t)(c->njoint + 1));
    if (!J) return fail(rd, NULL, "out of memory");
    int dofs = 0, ball = 0, nfree = 0, status = 0;
    u2d_xml *free_node = NULL;          /* the free joint, whose line a refusal names */
    for (int k = 0; k < c->njoint && !status; k++) {
        if (read_joint(rd, &c->joint[k], name, k, &J[k])) { status = -1; break; }
        int t = J[k].type;
        dofs += t == J_FREE ? 6 : t == J_BALL ? 3 : 1;
        if ((t == J_BALL || t == J_HINGE) && ball)
            status = fail(rd, c->joint[k].node, "a ball joint followed by a rotation (MuJoCo "
                          "refuses this too)");
        ball |= t == J_BALL;
        nfree += t == J_FREE;
        if (t == J_FREE) free_node = c->joint[k].node;
    }
    if (!status && nfree && c->njoint > 1)
        status = fail(rd, free_node, "a free joint must be its body's only joint (MuJoCo "
                      "refuses more: \"more than 6 dofs\"): give the body no other joint");
    if (!status && nfree && !b->top_level)
        status = fail(rd, free_node, "a free joint only on a body that is a child of the world "
                      "(MuJoCo refuses it: \"free joint can only be used on top level\"): move "
                      "the body to <worldbody>, or give it hinge, slide or ball joints");
    if (!status && dofs > 6) status = fail(rd, NULL, "more than 6 degrees of freedom in one body");
    if (!status && nfree && c->nchild == 0) {
        int align = keyword(rd, c->joint[0].node, "align", "false|true|auto", 2);
        if (align < 0) status = -1;
        else if (align == 1 || (align == 2 && rd->alignfree))
            status = fail(rd, c->joint[0].node, "free-joint alignment (compiler alignfree, "
                          "freejoint align) moves the body frame to its inertial frame, which "
                          "urdf2dyn does not do: set align=\"false\"");
    }
    if (status) { free(J); return -1; }
    rd->n_sd_simple += simple_slide_springdampers(J, c);

    int cur = b->parent_link, body = -1;
    u2d_mj_pose X = pose;                       /* the next origin, in cur's frame */
    for (int k = 0; k < c->njoint; k++) {
        const mj_joint *j = &J[k];
        u2d_mj_pose anchor = {{j->pos[0], j->pos[1], j->pos[2]}, {1, 0, 0, 0}}, origin;
        if (j->type == J_SLIDE) memset(anchor.pos, 0, sizeof anchor.pos);  /* no pivot */
        if (j->type == J_FREE) X = IDENTITY;    /* the body's world pose is its q */
        u2d_mj_pose_mul(&X, &anchor, &origin);
        if (j->type == J_HINGE && j->ref != 0) {        /* q = ref draws the XML's pose */
            u2d_mj_pose turn = {{0, 0, 0}, {cos(-j->ref / 2), 0, 0, 0}};
            for (int a = 0; a < 3; a++) turn.quat[a + 1] = sin(-j->ref / 2) * j->axis[a];
            u2d_mj_pose_mul(&origin, &turn, &origin);
        } else if (j->type == J_SLIDE && j->ref != 0) {
            u2d_mj_pose shift = IDENTITY;
            for (int a = 0; a < 3; a++) shift.pos[a] = -j->ref * j->axis[a];
            u2d_mj_pose_mul(&origin, &shift, &origin);
        }
        int last = k == c->njoint - 1;
        int onbody = last && !anchor.pos[0] && !anchor.pos[1] && !anchor.pos[2];
        const char *lname = onbody ? name : generated_name(rd, &rd->link_names, "%.250s/%.250s",
                                                           name, j->name);
        int child = lname ? add_link(rd, lname, line) : -1;
        if (child < 0) { free(J); return -1; }
        if (onbody) body = child;
        u2d_urdf_joint *U = add_joint(rd, j->name, u2d_xml_line(c->joint[k].node),
                                      core_type[j->type], cur, child, &origin);
        if (!U || (j->named && name_joint(rd, j->name, (int)(U - rd->u->joint), j->limited,
                                    j->range[0] != j->range[1]))) {
            free(J);
            return -1;
        }
        memcpy(U->axis, j->axis, sizeof j->axis);
        U->armature = j->armature;
        U->friction = j->frictionloss;
        if (passive_terms(rd, j, U)) { free(J); return -1; }
        if (j->limited && (j->type == J_HINGE || j->type == J_SLIDE)) {
            U->has_limit = 1;
            U->lower = j->range[0];
            U->upper = j->range[1];
        }
        double q0[7] = {j->ref, 0, 0, 0, 0, 0, 0};
        int n = 1;
        if (j->type == J_BALL) { q0[0] = q0[1] = q0[2] = 0; q0[3] = 1; n = 4; }
        if (j->type == J_FREE) {
            memcpy(q0, pose.pos, sizeof pose.pos);
            q0[3] = pose.quat[1]; q0[4] = pose.quat[2]; q0[5] = pose.quat[3]; q0[6] = pose.quat[0];
            n = 7;
        }
        if (j->type == J_FREE || j->type == J_BALL)   /* MuJoCo's qpos_spring is its qpos0 */
            memcpy(U->spring_q, q0, sizeof q0);
        if (add_qpos0(rd, q0, n)) { free(J); return -1; }
        cur = child;
        X = (u2d_mj_pose){{-anchor.pos[0], -anchor.pos[1], -anchor.pos[2]}, {1, 0, 0, 0}};
    }
    if (body < 0) {                             /* welded, or off the last joint's anchor */
        const char *jname = generated_name(rd, &rd->joint_names, "%.250s/%s", name,
                                           c->njoint ? "anchor" : "weld");
        body = jname ? add_link(rd, name, line) : -1;
        if (body < 0 || !add_joint(rd, jname, line, U2D_JOINT_FIXED, cur, body, &X)) {
            free(J);
            return -1;
        }
    }
    free(J);
    *link = body;
    return 0;
}

/* ---- the tree, body by body -------------------------------------------------------- */

static void free_content(mj_content *c)
{
    free(c->joint); free(c->geom); free(c->child);
    memset(c, 0, sizeof *c);
}

/* A body's quaternion (its frames' included) of norm below 1e-7, which MuJoCo's compiler
 * keeps as written (mjuu_normvec normalises from 1e-7 up; only an exact zero is refused).
 * MuJoCo's kinematics (mj_kinematics1) normalises the body's orientation but turns its
 * hinge, slide and ball joints' axes and anchors by the quaternion as it is: such a body has
 * no consistent MuJoCo dynamics to reproduce, and is refused. A welded or free body's is
 * normalised as those kinematics normalise it, to the identity below mjMINVAL; that
 * identity is the world's orientation, which a body under another cannot be given: refused. */
static int tiny_body_quat(mjcf *rd, u2d_xml *node, const mj_content *c, int top_level,
                          double q[4])
{
    double s = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (s == 0.0 || s >= U2D_MJ_EPS) return 0;
    for (int k = 0; k < c->njoint; k++) {
        u2d_xml *j = c->joint[k].node;
        int type = strcmp(u2d_xml_name(j), "freejoint") == 0 ? 0 :
                   dkeyword(rd, j, K_JOINT, c->joint[k].cls, "type", "free|ball|slide|hinge", 3);
        if (type < 0) return -1;
        if (type > 0)
            return fail(rd, node, "its orientation (quat, with its frames') has norm %g, below "
                        "1e-7: MuJoCo leaves it unnormalised and turns the body's joint axes "
                        "by it unnormalised, so its dynamics are inconsistent: give a unit "
                        "quaternion", sqrt(s));
    }
    if (sqrt(s) < U2D_MJ_MINVAL && !top_level)
        return fail(rd, node, "its orientation (quat, with its frames') has norm %g, below "
                    "1e-15: MuJoCo's kinematics turns it into the world's orientation, "
                    "whatever its parent's: give a unit quaternion", sqrt(s));
    if (sqrt(s) < U2D_MJ_MINVAL) {
        q[0] = 1; q[1] = q[2] = q[3] = 0;
    } else {
        s = sqrt(s);
        for (int k = 0; k < 4; k++) q[k] /= s;
    }
    return 0;
}

/* The geoms' contype and conaffinity read as MuJoCo reads them (refused where it refuses
 * them); contacts are not rigid-body dynamics, and not applied. */
static int read_contacts(mjcf *rd, const mj_content *c)
{
    for (int k = 0; k < c->ngeom; k++) {
        double t = 1, a = 1;
        if (dnumbers(rd, c->geom[k].node, K_GEOM, c->geom[k].cls, "contype", 1, 1, &t) < 0 ||
            dnumbers(rd, c->geom[k].node, K_GEOM, c->geom[k].cls, "conaffinity", 1, 1, &a) < 0 ||
            mark_hull_mesh(rd, c->geom[k].node, K_GEOM, c->geom[k].cls) < 0)
            return -1;
    }
    return 0;
}

/* Push a body's children (document order out first). */
static int push_children(mjcf *rd, mj_pending **stack, int *top, int *cap, const mj_content *c,
                         int link, int body, int top_level)
{
    for (int k = c->nchild - 1; k >= 0; k--) {
        if (grow(rd, (void **)stack, cap, *top, sizeof **stack)) return -1;
        (*stack)[(*top)++] = (mj_pending){c->child[k].node, link, body, c->child[k].cls,
                                          top_level, c->child[k].frame};
    }
    return 0;
}

static int read_tree(mjcf *rd)
{
    mj_content c;
    mj_pending *stack = NULL;
    int top = 0, cap = 0, status = 0;
    memset(&c, 0, sizeof c);
    if (add_link(rd, "world", 0) < 0) return -1;
    for (u2d_xml *w = u2d_xml_first(rd->root); w && !status; w = u2d_xml_next(w)) {
        if (strcmp(u2d_xml_name(w), "worldbody") != 0) continue;
        if (u2d_xml_attr_count(w) > 0)
            status = fail(rd, w, "<worldbody> cannot have attributes");
        else status = scan_body(rd, w, 0, 1, &c);
    }
    if (!status) status = read_contacts(rd, &c);
    if (!status) status = push_children(rd, &stack, &top, &cap, &c, 0, 0, 1);
    free_content(&c);
    while (top > 0 && !status) {
        mj_pending b = stack[--top];
        u2d_xml *n = b.node;
        int id = ++rd->nbody, line = u2d_xml_line(n), link = -1;
        const char *name = u2d_xml_attr(n, "name");
        rd->what[0] = '\0';
        if ((!name || !name[0]) && !(name = generated_name(rd, &rd->link_names, "body%d", id))) {
            status = -1;
            break;
        }
        snprintf(rd->what, sizeof rd->what, "body '%.200s'", name);
        u2d_mj_pose pose;
        u2d_urdf_link inertia;
        int cls = class_attr(rd, n, "childclass", b.cls), mocap = 0;
        double gravcomp = 0;
        if (cls < 0 || pose_of(rd, n, K_GEOM, -1, &pose) < 0 ||
            read_bool(rd, n, "mocap", &mocap) || numbers(rd, n, "gravcomp", 1, 1, &gravcomp) < 0 ||
            scan_body(rd, n, cls, 0, &c) || read_contacts(rd, &c)) {
            status = -1;
            break;
        }
        rd->n_gravcomp += gravcomp != 0;
        rd->nmocap += mocap != 0;
        u2d_mj_pose_mul(&b.frame, &pose, &pose);
        if (tiny_body_quat(rd, n, &c, b.top_level, pose.quat) < 0) {
            status = -1;
            break;
        }
        if (mocap && (c.njoint || !b.top_level)) {
            status = fail(rd, n, "a mocap body is a child of the world without joints");
            break;
        }
        memset(&inertia, 0, sizeof inertia);
        double lam[3];
        if (body_inertia(rd, &c, &pose, &inertia, lam) ||
            body_joints(rd, &b, &c, name, pose, line, &link) ||
            grow(rd, (void **)&rd->body, &rd->capbody, id, sizeof *rd->body)) {
            status = -1;
            break;
        }
        rd->body[id] = (mj_body){n, name, b.parent_body, c.njoint, inertia.mass,
                                 {lam[0], lam[1], lam[2]}};
        if (check_sleep_policy(rd, n, id) < 0) {
            status = -1;
            break;
        }
        u2d_urdf_link *L = &rd->u->link[link];
        L->has_inertial = inertia.has_inertial;
        L->mass = inertia.mass;
        memcpy(L->com, inertia.com, sizeof L->com);
        memcpy(L->Icom, inertia.Icom, sizeof L->Icom);
        status = push_children(rd, &stack, &top, &cap, &c, link, id, 0);
        free_content(&c);
    }
    free_content(&c);
    free(stack);
    rd->what[0] = '\0';
    return status;
}

/* MuJoCo refuses a body that joints move unless its mass and every principal moment of
 * inertia are at least mjMINVAL, or those of a body welded to it (a jointless child, its
 * jointless children...), all as corrected by boundmass, boundinertia, balanceinertia
 * (mjCModel::CheckBodyMassInertia). Ids are in depth-first order, parents first, so one
 * backward pass carries each welded body's verdict up to its parent. */
static int check_moving_masses(mjcf *rd)
{
    int n = rd->nbody + 1;
    char *heavy = calloc((size_t)n, 1);
    if (!heavy) return fail(rd, NULL, "out of memory");
    for (int b = n - 1; b >= 1; b--) {
        const mj_body *B = &rd->body[b];
        heavy[b] |= B->mass >= U2D_MJ_MINVAL && B->lam[0] >= U2D_MJ_MINVAL &&
                    B->lam[1] >= U2D_MJ_MINVAL && B->lam[2] >= U2D_MJ_MINVAL;
        if (!B->njoint && heavy[b]) heavy[B->parent] = 1;
    }
    int status = 0;
    for (int b = 1; b < n && !status; b++) {
        const mj_body *B = &rd->body[b];
        if (!B->njoint || heavy[b]) continue;
        snprintf(rd->what, sizeof rd->what, "body '%.200s'", B->name);
        status = fail(rd, B->node, "mass %g, principal moments %g %g %g: MuJoCo needs a "
                      "moving body's (or a welded child's) to be >= 1e-15 (mjMINVAL): give "
                      "an <inertial> with positive mass and diaginertia, geoms with volume, "
                      "or compiler boundmass and boundinertia", B->mass, B->lam[0], B->lam[1],
                      B->lam[2]);
    }
    rd->what[0] = '\0';
    free(heavy);
    return status;
}

/* ---- actuators: what MuJoCo 4 adds to the joints they drive ------------------------------ */

/* MuJoCo's transmission attributes, in the order its reader reads them: the last given wins. */
static const char *const TRANSMISSION[] = {"joint", "jointinparent", "tendon", "cranksite",
                                           "site", "body"};
enum { T_JOINT, T_JOINTINPARENT, T_TENDON, T_SLIDERCRANK, T_SITE, T_BODY, NTRANSMISSION };

/* The actuator's transmission (T_*, -1 for none) and its target's name. */
static int transmission(u2d_xml *e, const char **target)
{
    int kind = -1;
    for (int k = 0; k < NTRANSMISSION; k++) {
        const char *s = u2d_xml_attr(e, TRANSMISSION[k]);
        if (s) { kind = k; *target = s; }
    }
    return kind;
}

/* Sorts by name, once the tree is read, the tables of what the file names and the checks
 * look up per referring element: the joints (an actuator's targets; the core id gives the
 * type), the limited ones and the geoms (their types), so each lookup is a binary search
 * (lookup), not a pass over the model. Names are unique in each (check_repeated_names);
 * unnamed joints, which MuJoCo cannot find by the name urdf2dyn gives them, and the fixed
 * joints urdf2dyn adds are not in them. */
static int sort_name_tables(mjcf *rd)
{
    name_entry *table[4] = {rd->named_joint, rd->limited_joint, rd->ranged_joint,
                            rd->named_geom};
    int n[4] = {rd->nnamed_joint, rd->nlimited_joint, rd->nranged_joint, rd->nnamed_geom};
    for (int k = 0; k < 4; k++)
        if (n[k] > 1) qsort(table[k], (size_t)n[k], sizeof *table[k], cmp_name);
    return 0;
}

/* Names an actuator can target besides joints, each list sorted for lookup. */
typedef struct { name_entry *e; int n, cap; } name_list;
typedef struct { name_list site, body, tendon; } mj_targets;

static int add_name(mjcf *rd, name_list *l, u2d_xml *node)
{
    const char *name = u2d_xml_attr(node, "name");
    if (!name || !name[0]) return 0;
    if (grow(rd, (void **)&l->e, &l->cap, l->n, sizeof *l->e)) return -1;
    l->e[l->n] = (name_entry){name, l->n};
    l->n++;
    return 0;
}

static void free_targets(mj_targets *t)
{
    free(t->site.e);
    free(t->body.e);
    free(t->tendon.e);
}

/* The named sites and bodies anywhere under <worldbody> (in frames too: an explicit stack,
 * nesting has no bound), the world body, and the tendons of <tendon>. 0 or -1. */
static int collect_targets(mjcf *rd, mj_targets *t)
{
    u2d_xml **st = NULL;
    int top = 0, cap = 0, status = 0;
    memset(t, 0, sizeof *t);
    if (grow(rd, (void **)&t->body.e, &t->body.cap, 0, sizeof *t->body.e)) return -1;
    t->body.e[t->body.n++] = (name_entry){"world", 0};
    for (u2d_xml *s = u2d_xml_first(rd->root); s && !status; s = u2d_xml_next(s)) {
        const char *section = u2d_xml_name(s);
        if (strcmp(section, "tendon") == 0)
            for (u2d_xml *e = u2d_xml_first(s); e && !status; e = u2d_xml_next(e))
                status = add_name(rd, &t->tendon, e);
        if (strcmp(section, "worldbody") != 0 || status) continue;
        if ((status = grow(rd, (void **)&st, &cap, top, sizeof *st))) break;
        st[top++] = u2d_xml_first(s);
        while (top > 0 && !status) {
            u2d_xml *e = st[top - 1];
            if (!e) { top--; continue; }
            st[top - 1] = u2d_xml_next(e);
            const char *tag = u2d_xml_name(e);
            if (strcmp(tag, "site") == 0) status = add_name(rd, &t->site, e);
            else if (strcmp(tag, "body") == 0) status = add_name(rd, &t->body, e);
            if (!status && (strcmp(tag, "body") == 0 || strcmp(tag, "frame") == 0)) {
                if ((status = grow(rd, (void **)&st, &cap, top, sizeof *st))) break;
                st[top++] = u2d_xml_first(e);
            }
        }
    }
    free(st);
    name_list *lists[3] = {&t->site, &t->body, &t->tendon};
    for (int k = 0; k < 3; k++)         /* an empty list has no array to sort */
        if (lists[k]->n > 1) qsort(lists[k]->e, (size_t)lists[k]->n, sizeof *lists[k]->e, cmp_name);
    return status;
}

/* MuJoCo's checks of an actuator's transmission attributes beyond its joint (the element
 * has them: check_attribute_schema): refsite= only with site=, slidersite= and cranklength=
 * only with cranksite= (which needs both), and every site, body or tendon named is in the
 * model. Two targets are MuJoCo's too (the last of joint, jointinparent, tendon, cranksite,
 * site, body wins, the others unread): loaded, with a warning naming the one that drives. */
static int check_transmission(mjcf *rd, u2d_xml *e, const char *label, int kind,
                              const char *target, const mj_targets *t)
{
    const char *refsite = u2d_xml_attr(e, "refsite"), *slider = u2d_xml_attr(e, "slidersite");
    if (refsite && kind != T_SITE)
        return fail(rd, e, "%s: refsite= is only for a site= transmission (MuJoCo refuses it "
                    "with %s=): leave it out", label, TRANSMISSION[kind]);
    if ((slider || u2d_xml_attr(e, "cranklength")) && kind != T_SLIDERCRANK)
        return fail(rd, e, "%s: slidersite= and cranklength= are only for a cranksite= "
                    "transmission (MuJoCo refuses them with %s=): leave them out", label,
                    TRANSMISSION[kind]);
    char given[120] = "";
    int ngiven = 0;
    for (int k = 0; k < NTRANSMISSION; k++)
        if (u2d_xml_attr(e, TRANSMISSION[k]))
            snprintf(given + strlen(given), sizeof given - strlen(given), "%s%s=", ngiven++ ?
                     ", " : "", TRANSMISSION[k]);
    if (ngiven > 1)
        note(rd, e, "%s gives %d transmission targets (%s): MuJoCo drives %s=\"%.100s\", the "
             "last of joint, jointinparent, tendon, cranksite, site, body, and ignores the "
             "others; so does urdf2dyn: keep the one you mean", label, ngiven, given,
             TRANSMISSION[kind], target);
    const name_list *names = kind == T_TENDON ? &t->tendon : kind == T_BODY ? &t->body
                           : kind == T_SITE || kind == T_SLIDERCRANK ? &t->site : NULL;
    const char *what = kind == T_TENDON ? "tendon (<tendon> <spatial> or <fixed>)"
                     : kind == T_BODY ? "body" : "site";
    if (kind == T_SLIDERCRANK) {
        double length = 0;
        if (!slider || !slider[0])
            return fail(rd, e, "%s: cranksite= needs slidersite=, the slider's base site "
                        "(MuJoCo refuses a slider-crank without it)", label);
        if (lookup(names->e, names->n, slider) < 0)
            return fail(rd, e, "%s: slidersite=\"%.100s\" names no site of the model (MuJoCo "
                        "refuses it)", label, slider);
        if (dnumbers(rd, e, K_ACTUATOR, class_attr(rd, e, "class", 0), "cranklength", 1, 1,
                     &length) < 0)
            return -1;
        if (!(length > 0))
            return fail(rd, e, "%s: cranklength %g is not positive (MuJoCo refuses it): give "
                        "the crank's length", label, length);
    }
    if (names && lookup(names->e, names->n, target) < 0)
        return fail(rd, e, "%s: %s=\"%.100s\" names no %s of the model (MuJoCo refuses it: "
                    "transmission target not found)", label, TRANSMISSION[kind], target, what);
    if (kind == T_SITE && refsite && refsite[0] && lookup(names->e, names->n, refsite) < 0)
        return fail(rd, e, "%s: refsite=\"%.100s\" names no site of the model (MuJoCo "
                    "refuses it)", label, refsite);
    return 0;
}

/* A <damper>'s or <adhesion>'s control range, which MuJoCo limits whatever its ctrllimited
 * says: it must increase and be nonnegative. 1 when e is one of them (its ctrlrange
 * checked), 0 when not, -1 (message). */
static int always_ctrllimited(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    const char *el = u2d_xml_name(e);
    double r[2] = {0, 0};
    if (strcmp(el, "damper") != 0 && strcmp(el, "adhesion") != 0) return 0;
    if (actuator_ctrlrange(rd, e, cls, r) < 0) return -1;
    if (!(r[0] < r[1]) || r[0] < 0)
        return fail(rd, e, "%s: a <%s>'s control is always limited, and ctrlrange=\"%g %g\" "
                    "is not an increasing nonnegative range (MuJoCo refuses it): give one, "
                    "e.g. ctrlrange=\"0 1\"", label, el, r[0], r[1]);
    return 1;
}

/* Whether default element d is an actuator of one of the '|'-separated kinds. */
static int is_one_of(u2d_xml *d, const char *kinds)
{
    return word_index(kinds, u2d_xml_name(d)) >= 0;
}

/* What MuJoCo's reader leaves of an actuator's dynamics after the defaults of its class:
 * MuJoCo keeps one actuator default per class, which each actuator element of the class
 * (and of its ancestors, farthest first) writes in document order. A <general> (or a plugin
 * actuator) sets what it writes; every shortcut element sets its own dyntype and drops an
 * actdim written before it (MuJoCo 4.0.0 does: a <general actdim="2"/> followed by
 * <cylinder/> compiles to one activation state), which a <dcmotor> sets to its states. */
/* An actuator default's gainprm[0] as MuJoCo 4.0.0's reader leaves it: its value, known 0
 * where urdf2dyn does not follow it. A shortcut without its own gain (kp=, kv=...) takes
 * it from the class slot it reads its settings from (shortcut_source): the actuator
 * default as it stands, or the nearest class above's, written last by the same shortcut
 * or by a <general> over the gain type that shortcut sets, else its own default 1
 * (checked against MuJoCo 4.0.0 over every pair of shortcuts in a class and its child:
 * <position kp="3"/> then a child's <velocity/> gives the child's <velocity> 1 and a
 * <position> of the child 3). */
typedef struct {
    double value;
    int known;
} gain_state;

typedef struct {
    const char *dyntype;        /* "none" unless set                                 */
    const char *actdim;         /* as written, NULL for MuJoCo's default (-1), and
                                   never blank (not given, to MuJoCo)                */
    double timeconst;           /* dynprm[0], which a <position> without timeconst=
                                   keeps only after a filterexact dyntype             */
    int shortcut_actdim;        /* the states a <dcmotor> sets actdim to, -1 for none */
    int dcmotor_states;         /* what the last <dcmotor> gives dynprm: -1 when none
                                   came, or a <general dynprm=...> followed it        */
    /* A <pid>'s and a <dcmotor>'s own attributes, which MuJoCo's reader inherits along
     * the class chain from the <pid> or <dcmotor> defaults alone, whatever else the
     * classes write between them (checked against MuJoCo 4.0.0) */
    const char *ki, *slewmax, *inductance, *thermal, *lugre, *controller;
    const char *imax;           /* the imax a <pid> of nonzero ki stored (dynprm[0]),
                                   NULL when none did                                */
    double kt_ke[2], resistance, nominal[3];  /* the last <dcmotor>'s motorconst=,
                                   resistance= and nominal=, the first two over the K
                                   and R it inherits, nominal over 0 (MuJoCo 4.0.0
                                   stores K and R, not nominal=)                     */
    double stored_k, stored_r;  /* the K and R it stored, derived from nominal=       */
    double stored_te;           /* the electrical time constant it stored (dynprm[0]):
                                   L / its own R, which a later <dcmotor> without
                                   inductance= inherits as it is                     */
    const char *input;          /* a <dcmotor>'s or <general>'s input= as it stands   */
    int dcmotor_gains;          /* whether the gaintype is dcmotor                    */
    int dcmotor_rewritten;      /* whether a <general> wrote a gaintype, gainprm or
                                   dynprm while it was: MuJoCo 4.0.0 then gives a later
                                   <dcmotor> the constants and states these hold, not
                                   tracked here                                       */
    int pid_gains;              /* whether the gaintype is pid (a <pid> sets it)      */
    int affine_bias;            /* whether the biastype is affine (a <pid>, <position>,
                                   <intvelocity>, <velocity> or <cylinder> sets it,
                                   another shortcut another one)                      */
    int pid_rewritten;          /* whether a <general> wrote gainprm or dynprm (ki,
                                   slewmax) after the last <pid>: not tracked         */
    gain_state gain;            /* gainprm[0] (a pid's ki)                           */
    gain_state bias;            /* biasprm[1], by which MuJoCo 4.0.0's compiler gives
                                   fixed gains an inheritrange (inheritrange_applies):
                                   a <general>'s second biasprm= number, -kp after a
                                   <position>, <intvelocity> or <orientation>, a <pid>'s
                                   -kp, a <cylinder>'s second bias= number (both read
                                   from the default it reads its settings from, else
                                   kp 1, bias 0), 0 after a <motor>, <velocity>,
                                   <damper> or <adhesion> (checked against it), a
                                   <muscle>'s range[1]; not followed after a <dcmotor>
                                   of inherited settings                              */
    double slew;                /* dynprm[1] (a pid's slewmax): a <general>'s second
                                   dynprm= number (a shorter one keeps it), a <pid>'s
                                   slewmax, 0 after any other shortcut (MuJoCo 4.0.0
                                   resets it; checked against it)                    */
    int slew_known;             /* 0 after a <muscle> or <dcmotor>: not followed      */
    int pid_shortcut;           /* whether a <pid> of pid dyntype came after every
                                   other shortcut and dyntype=: it sets the states of
                                   its ki and slewmax, which a later <general>'s
                                   numbers do not change (MuJoCo 4.0.0)              */
    int actearly;               /* as a <general> wrote it last, or 1 after a
                                   <dcmotor>, 0 after any other shortcut (MuJoCo
                                   4.0.0's shortcuts set it so)                       */
    double thermal_rc[2];       /* the thermal resistance and capacitance a <dcmotor>
                                   stored (dynprm[2], dynprm[3]): a later <dcmotor>
                                   starts from them while the gains are dcmotor       */
    int thermal_fault;          /* the last <dcmotor>'s thermal model: 1 without a
                                   resistance above 0, 2 without a capacitance       */
    int thermal_on;             /* whether the last <dcmotor> models its temperature */
    double controller_gains[4]; /* kp ki kd slewmax: a <dcmotor>'s controller= over
                                   what it inherits (MuJoCo 4.0.0 reads a shorter one
                                   over those, the rest kept)                        */
    double pid_slew_in;         /* the dynprm[1] the last <pid> read found, which it
                                   takes as its slewmax without one of its own: that of
                                   the pid gains before it, or of the nearest class
                                   above whose gains stayed pid (MuJoCo 4.0.0), else 0 */
    int pid_slew_in_known;
    const char *last_kind;      /* the actuator element read last ("general" for a
                                   plugin), NULL before the first                    */
    const char *gaintype;       /* as a <general> wrote it or a shortcut set it     */
    int read_from_default;      /* whether the last shortcut read the settings it was
                                   not given from a default (shortcut_source)         */
    const char *inheritrange;   /* as a <general> wrote it, or a <position>,
                                   <intvelocity> or <pid> set it (its own, or that of
                                   the default it read its settings from); NULL: 0.
                                   Other shortcuts keep it (checked against 4.0.0)    */
    int fixed_gains;            /* whether the gaintype is fixed (MuJoCo's default; a
                                   <damper>, <pid>, <muscle>, <dcmotor> or
                                   <orientation> sets another)                        */
    int ctrl_range, act_range;  /* whether the ctrlrange (a <pid>'s posrange) and the
                                   actrange as they stand are other than 0 0: a
                                   <position>'s or <pid>'s inheritrange above 0 of its
                                   own clears the first, an <intvelocity>'s the second */
    u2d_xml *range_clash;       /* the first <position>, <intvelocity> or <pid> that took
                                   an inheritrange above 0 from the default it reads its
                                   settings from where that range stood other than 0 0:
                                   MuJoCo 4.0.0 refuses it ("... and inheritrange cannot
                                   both be defined"); NULL for none                   */
    const char *ctrl_limiter;   /* "damper" or "adhesion" when one of those set
                                   ctrllimited true and no ctrllimited= came after:
                                   MuJoCo's shortcut writes it into the default, which
                                   every later kind keeps (checked against 4.0.0)     */
} actuator_dynamics;

/* Whether the first number of attribute text v (NULL: not written) is nonzero; a NaN is. */
static int first_nonzero(const char *v)
{
    return v && strtod(v, NULL) != 0;
}

/* Whether the first number of attribute text v is above 0 (a NaN is not). */
static int first_positive(const char *v)
{
    return v && strtod(v, NULL) > 0;
}


/* The first n numbers of attribute text v (NULL: not written) into x, as strtod reads
 * them (a NaN too); those not written keep what x held. */
static void leading_numbers(const char *v, int n, double *x)
{
    for (int k = 0; v && k < n; k++) {
        char *end;
        double y = strtod(v, &end);
        if (end == v) return;
        x[k] = y;
        v = end;
    }
}

/* <dcmotor> d's motor constant K and resistance R over the K and R it inherits (a), as
 * MuJoCo 4.0.0 reads and stores them: motorconst="Kt Ke" over "K 0", resistance= over R,
 * then from nominal="vn tau0 omega0" (not inherited) K as the geometric mean of Kt and Ke
 * where both are above 0, else the one above 0, Ke from vn / omega0 when not given, and
 * an R of 0 as K vn / tau0 (the damping's correction to it is left out: it moves R by a
 * factor, not to 0 or infinity). Into a's kt_ke, resistance, nominal, stored_k and
 * stored_r. */
static void apply_dcmotor_constants(u2d_xml *d, actuator_dynamics *a)
{
    a->kt_ke[0] = a->stored_k, a->kt_ke[1] = 0, a->resistance = a->stored_r;
    a->nominal[0] = a->nominal[1] = a->nominal[2] = 0;
    leading_numbers(u2d_xml_attr(d, "motorconst"), 2, a->kt_ke);
    leading_numbers(u2d_xml_attr(d, "resistance"), 1, &a->resistance);
    leading_numbers(u2d_xml_attr(d, "nominal"), 3, a->nominal);
    double Kt = a->kt_ke[0], Ke = a->kt_ke[1], vn = a->nominal[0], tau0 = a->nominal[1];
    double R = a->resistance;
    if (vn > 0 && Ke <= 0 && a->nominal[2] > 0) Ke = vn / a->nominal[2];
    double K = Kt > 0 && Ke > 0 ? sqrt(Kt * Ke) : Kt > 0 ? Kt : Ke;
    if (R == 0 && vn > 0 && tau0 > 0 && K > 0) R = K * vn / tau0;
    a->stored_k = K;
    a->stored_r = R;
}

/* <dcmotor> d's electrical time constant, as MuJoCo 4.0.0 stores it (checked against it):
 * from its own inductance="L te" (over "0 0"), L / R when L is above 0 (0 when that
 * underflows, R infinite or NaN: R the one d stored), else te; without one (or a blank
 * one), the time constant it inherits as it was stored. Into a's stored_te. */
static void apply_dcmotor_inductance(u2d_xml *d, actuator_dynamics *a)
{
    const char *v = u2d_xml_attr(d, "inductance");
    if (!v || !v[strspn(v, " \t\n\r\v\f")]) return;
    double L_te[2] = {0, 0};
    leading_numbers(v, 2, L_te);
    a->stored_te = L_te[0] > 0 ? L_te[0] / a->stored_r : L_te[1];
}

/* The activation states a <dcmotor> with a's inherited settings keeps (MuJoCo 4.0.0's
 * dynprm): one for an electrical time constant above 0, one each for its controller's
 * slewmax (its fourth number) and ki (its second) above 0, one for a thermal model
 * (apply_dcmotor_thermal), one for a LuGre bristle stiffness (lugre's first number)
 * above 0. */
static int dcmotor_states(const actuator_dynamics *a)
{
    return (a->stored_te > 0) + (a->controller_gains[1] > 0) +
           (a->controller_gains[3] > 0) + a->thermal_on + first_positive(a->lugre);
}

/* A <pid> or <dcmotor> shortcut d: its own attributes over those it inherits, then its
 * dyntype and states. A <pid> is dyntype pid (states of its own) with a nonzero ki or
 * slewmax and none otherwise; a <dcmotor> sets actdim to its states. */
static void apply_inherited_shortcut(u2d_xml *d, actuator_dynamics *a)
{
    const char *const PID[] = {"ki", "slewmax"};
    const char *const DC[] = {"inductance", "thermal", "lugre", "controller", "input"};
    const char **pid[] = {&a->ki, &a->slewmax};
    const char **dc[] = {&a->inductance, &a->thermal, &a->lugre, &a->controller, &a->input};
    int is_pid = strcmp(u2d_xml_name(d), "pid") == 0;
    for (int k = 0; k < (is_pid ? 2 : 5); k++) {
        const char *v = u2d_xml_attr(d, is_pid ? PID[k] : DC[k]);
        /* a blank number is not given to MuJoCo's reader: what it inherits stands (a
         * blank input= is read, as voltage) */
        int blank = v && !v[strspn(v, " \t\n\r\v\f")] && (is_pid || k < 4);
        if (v && !blank) *(is_pid ? pid[k] : dc[k]) = v;
    }
    if (!is_pid) {
        leading_numbers(u2d_xml_attr(d, "controller"), 4, a->controller_gains);
        apply_dcmotor_constants(d, a);
        apply_dcmotor_inductance(d, a);
    }
    /* a <pid> stores its imax (or the one it inherits) only with a nonzero ki */
    const char *imax = u2d_xml_attr(d, "imax");
    if (is_pid && first_nonzero(a->ki) && imax && imax[strspn(imax, " \t\n\r\v\f")])
        a->imax = imax;
    if (is_pid) {       /* a ki or slewmax a <general> wrote: taken as pid, not tracked */
        a->dyntype = a->pid_rewritten || first_nonzero(a->ki) || first_nonzero(a->slewmax)
                         ? "pid" : "none";
        return;
    }
    a->dyntype = "dcmotor";
    a->shortcut_actdim = a->dcmotor_states = a->dcmotor_rewritten ? -1 : dcmotor_states(a);
}

/* A <dcmotor> read while the gains are not dcmotor (none came, or another shortcut or a
 * <general gaintype> came after) takes the DC motor settings of from, the nearest class
 * above whose gains stayed dcmotor, or none (from NULL), as MuJoCo 4.0.0 reads them
 * (checked against it: a <motor> in a child class does not cut its parent's DC motor off,
 * one after the <dcmotor> in the same class does). */
static void inherit_dcmotor_settings(actuator_dynamics *a, const actuator_dynamics *from)
{
    static const actuator_dynamics NONE;
    if (!from) from = &NONE;
    a->inductance = from->inductance, a->thermal = from->thermal;
    a->lugre = from->lugre, a->controller = from->controller;
    a->stored_k = from->stored_k, a->stored_r = from->stored_r, a->input = from->input;
    a->stored_te = from->stored_te;
    a->thermal_rc[0] = from->thermal_rc[0], a->thermal_rc[1] = from->thermal_rc[1];
    a->dcmotor_rewritten = from->dcmotor_rewritten;
    memcpy(a->controller_gains, from->controller_gains, sizeof a->controller_gains);
}

/* <dcmotor> d's thermal="R C timeconst ..." over what an earlier <dcmotor> stored, when
 * inherited (the gains still dcmotor; the time constant is not stored), as MuJoCo 4.0.0
 * reads it: with any of the three above 0 it models the temperature, the capacitance
 * taken from the time constant over a resistance above 0 (else a resistance of 0 from the
 * time constant over the capacitance), and then needs both above 0 (a NaN resistance is
 * refused too, when MuJoCo checks the states). Off, it leaves what was stored. */
static void apply_dcmotor_thermal(u2d_xml *d, actuator_dynamics *a, int inherited)
{
    double th[3] = {inherited ? a->thermal_rc[0] : 0, inherited ? a->thermal_rc[1] : 0, 0};
    leading_numbers(u2d_xml_attr(d, "thermal"), 3, th);
    double R = th[0], C = th[1], tau = th[2];
    a->thermal_fault = 0;
    if (!inherited) a->thermal_rc[0] = a->thermal_rc[1] = 0;
    a->thermal_on = R > 0 || C > 0 || tau > 0;
    if (!a->thermal_on) return;
    if (tau > 0 && R > 0) C = tau / R;
    else if (tau > 0 && C > 0 && R == 0) R = tau / C;
    a->thermal_fault = R <= 0 || R != R ? 1 : C <= 0 ? 2 : 0;
    a->thermal_rc[0] = R;
    a->thermal_rc[1] = C;
}

/* A <pid> read while the gains are not pid takes the ki and slewmax (gainprm[0], dynprm[1])
 * of from, the nearest class above whose gains stayed pid, or none (from NULL), as MuJoCo
 * 4.0.0 reads them (checked against it, as for a <dcmotor>). */
static void inherit_pid_settings(actuator_dynamics *a, const actuator_dynamics *from)
{
    a->ki = from ? from->ki : NULL;
    a->slewmax = from ? from->slewmax : NULL;
    a->imax = from ? from->imax : NULL;
    a->pid_rewritten = from ? from->pid_rewritten : 0;
}

/* The nearest classes above an actuator element whose gains stayed dcmotor and pid (NULL:
 * none): a <dcmotor> or <pid> read where the gains are not its own inherits from them; and
 * the actuator defaults of every class above it as each class left them, main's first
 * (n of them), from which a shortcut may read its settings (shortcut_source). */
typedef struct {
    const actuator_dynamics *dcmotor, *pid;
    const actuator_dynamics *classes;
    int n;
} gains_above;

/* The gain type each shortcut sets (MuJoCo's mjs_setTo... functions). */
static const char *shortcut_gaintype(const char *kind)
{
    static const char *const TYPES[][2] = {{"damper", "affine"}, {"muscle", "muscle"},
                                           {"dcmotor", "dcmotor"}, {"pid", "pid"},
                                           {"orientation", "so3"}};
    for (size_t k = 0; k < sizeof TYPES / sizeof TYPES[0]; k++)
        if (strcmp(kind, TYPES[k][0]) == 0) return TYPES[k][1];
    return "fixed";
}

/* Whether shortcut kind reads its settings from actuator default slot: one a shortcut of
 * the same kind wrote last, or a <general> (or none) over the gain type kind sets. */
static int shortcut_inherits(const actuator_dynamics *slot, const char *kind)
{
    const char *written_by = slot->last_kind ? slot->last_kind : "general";
    if (strcmp(written_by, kind) == 0) return 1;
    return strcmp(written_by, "general") == 0 &&
           strcmp(slot->gaintype, shortcut_gaintype(kind)) == 0;
}

/* The actuator default shortcut kind reads the settings it is not given from, as MuJoCo
 * 4.0.0's reader picks it: a, the one it is read into, when a inherits (shortcut_inherits),
 * else the nearest class above whose default does; NULL for none (the shortcut's own
 * defaults: a kp of 1...). */
static const actuator_dynamics *shortcut_source(const actuator_dynamics *a, const char *kind,
                                                gains_above above)
{
    if (shortcut_inherits(a, kind)) return a;
    for (int k = above.n - 1; k >= 0; k--)
        if (shortcut_inherits(&above.classes[k], kind)) return &above.classes[k];
    return NULL;
}

/* The gainprm[0] shortcut d writes (gain_state): its own kp, kv, gain, area, diameter or ki
 * (a <pid>'s), or range's first number (a <muscle>'s, 0 or more), 1 for a <motor>, 0 for a
 * <damper>; without it, that of from, the default it reads its settings from
 * (shortcut_source: a <general gainprm="3"/> over pid gains gives a <pid> ki 3), or its own
 * default (1, a <muscle>'s 0.75, a <pid>'s 0) when from is NULL. A <dcmotor>'s is set
 * with its other settings. */
static void apply_shortcut_gain(u2d_xml *d, gain_state *g, const actuator_dynamics *from)
{
    static const char *const OWN[][2] = {
        {"position", "kp"}, {"intvelocity", "kp"}, {"orientation", "kp"}, {"velocity", "kv"},
        {"adhesion", "gain"}, {"cylinder", "area"}, {"muscle", "range"}, {"pid", "ki"}};
    const char *el = u2d_xml_name(d), *v = NULL;
    for (size_t k = 0; k < sizeof OWN / sizeof OWN[0]; k++)
        if (strcmp(el, OWN[k][0]) == 0) v = u2d_xml_attr(d, OWN[k][1]);
    const char *diameter = strcmp(el, "cylinder") == 0 ? u2d_xml_attr(d, "diameter") : NULL;
    double x = diameter ? strtod(diameter, NULL) : -1;
    int muscle = strcmp(el, "muscle") == 0;
    g->known = 1;
    if (x >= 0) g->value = 3.14159265358979323846 / 4 * x * x;     /* MuJoCo's area */
    else if (v && v[strspn(v, " \t\n\r\v\f")]) g->value = strtod(v, NULL);
    else if (strcmp(el, "damper") == 0) g->value = 0;
    else if (word_index("motor|dcmotor", el) >= 0) g->value = 1;
    else if (from) *g = from->gain;
    else g->value = muscle ? 0.75 : strcmp(el, "pid") == 0 ? 0 : 1;
    if (muscle && !(g->value >= 0)) g->known = 0;        /* a negative range is not read */
}

/* Whether attribute text v (NULL: not written) holds a second number, as strtod reads
 * it (a NaN too): then into *x. */
static int second_number(const char *v, double *x)
{
    char *end;
    if (!v) return 0;
    strtod(v, &end);
    if (end == v) return 0;
    const char *second = end;
    double y = strtod(second, &end);
    if (end == second) return 0;
    *x = y;
    return 1;
}

/* The biasprm[1] shortcut d writes (gain_state), as MuJoCo 4.0.0's reader leaves it
 * (checked against it): -kp where it sets gainprm[0] to its kp (g, as apply_shortcut_gain
 * left it), a <pid>'s -kp (its own, else from, the default it reads its settings from,
 * else 1), a <cylinder>'s second bias= number (its own, else from's, else 0), a <muscle>'s
 * range[1] (its own, else 1.05 without from: from's gainprm[1] is not followed), 0 for the
 * others but a <dcmotor>, whose cogging= (its own, else 0 unless it inherits DC motor
 * settings: not followed) it is. */
static void apply_shortcut_bias(u2d_xml *d, actuator_dynamics *a, const gain_state *g,
                                const actuator_dynamics *from, int dcmotor_inherited)
{
    const char *el = u2d_xml_name(d);
    double own = 0;
    if (is_one_of(d, "position|intvelocity|orientation")) {
        a->bias = (gain_state){-g->value, g->known};
        return;
    }
    const char *pid_kp = strcmp(el, "pid") == 0 ? written(d, "kp") : NULL;
    if (pid_kp) {
        a->bias = (gain_state){-strtod(pid_kp, NULL), 1};
        return;
    }
    static const char *const SECOND[][2] = {
        {"cylinder", "bias"}, {"muscle", "range"}, {"dcmotor", "cogging"}};
    int given = 0, muscle = strcmp(el, "muscle") == 0;
    for (size_t k = 0; k < sizeof SECOND / sizeof SECOND[0]; k++)
        if (strcmp(el, SECOND[k][0]) == 0) given = second_number(written(d, SECOND[k][1]), &own);
    if (given && (!muscle || own >= 0)) a->bias = (gain_state){own, 1};    /* a NaN too */
    else if (strcmp(el, "pid") == 0) a->bias = from ? from->bias : (gain_state){-1, 1};
    else if (strcmp(el, "cylinder") == 0) a->bias = from ? from->bias : (gain_state){0, 1};
    else if (muscle) a->bias = (gain_state){1.05, !from};
    else a->bias = (gain_state){0, strcmp(el, "dcmotor") != 0 || !dcmotor_inherited};
}

/* The ranges actuator element d writes (any kind: MuJoCo reads them for all), as they
 * stand after it: a blank one is not given (what came before stands). */
static void apply_written_ranges(u2d_xml *d, actuator_dynamics *a)
{
    const char *ctrl = written(d, "ctrlrange"), *act = written(d, "actrange");
    if (ctrl) a->ctrl_range = any_nonzero(ctrl);
    if (strcmp(u2d_xml_name(d), "pid") == 0 && written(d, "posrange"))
        a->ctrl_range = any_nonzero(written(d, "posrange"));
    if (act) a->act_range = any_nonzero(act);
}

/* The inheritrange a <position>, <intvelocity> or <pid> d sets, as MuJoCo 4.0.0 reads it
 * (checked against it): its own, which above 0 clears the range it replaces (a
 * <position>'s or <pid>'s ctrlrange, an <intvelocity>'s actrange); else none where d gives
 * that range (a blank ctrlrange= too, not a blank posrange=); else that of from, the
 * default it reads its settings from (shortcut_source), refused above 0 where the range
 * stands other than 0 0 in the default d is read into (a->range_clash). */
static void apply_shortcut_inheritrange(u2d_xml *d, actuator_dynamics *a,
                                        const actuator_dynamics *from)
{
    int integrator = strcmp(u2d_xml_name(d), "intvelocity") == 0;
    int *range = integrator ? &a->act_range : &a->ctrl_range;
    const char *own = written(d, "inheritrange");
    int own_range = integrator ? u2d_xml_attr(d, "actrange") != NULL
                               : u2d_xml_attr(d, "ctrlrange") || written(d, "posrange");
    apply_written_ranges(d, a);
    if (own) {
        a->inheritrange = own;
        if (first_positive(own)) *range = 0;
        return;
    }
    a->inheritrange = own_range ? NULL : from ? from->inheritrange : NULL;
    if (first_positive(a->inheritrange) && *range && !a->range_clash) a->range_clash = d;
}

/* A <pid> d's slewmax (dynprm[1]) as MuJoCo 4.0.0's reader takes it (checked against it):
 * its own, else that of the pid gains before it (pid_slew_in); its dyntype pid where that
 * or its ki (gainprm[0], apply_shortcut_gain) is nonzero (a NaN is), else none. */
static void follow_pid_numbers(u2d_xml *d, actuator_dynamics *a)
{
    const char *slewmax = written(d, "slewmax");
    a->slew = slewmax ? strtod(slewmax, NULL) : a->pid_slew_in;
    a->slew_known = slewmax || a->pid_slew_in_known;
    if (a->gain.known && a->slew_known)
        a->dyntype = a->gain.value != 0 || a->slew != 0 ? "pid" : "none";
}

/* The dynamics after actuator element d (in a <default>, or the actuator itself). */
static void apply_dynamics(u2d_xml *d, actuator_dynamics *a, gains_above above)
{
    const char *el = u2d_xml_name(d), *t = u2d_xml_attr(d, "timeconst");
    if (!is_one_of(d, "position|intvelocity|pid")) apply_written_ranges(d, a);
    /* MuJoCo reads ctrllimited= before the shortcut, which may set it true over it */
    if (u2d_xml_attr(d, "ctrllimited")) a->ctrl_limiter = NULL;
    if (is_one_of(d, "damper|adhesion")) a->ctrl_limiter = el;
    if (is_one_of(d, "general|plugin")) {
        const char *dyn = u2d_xml_attr(d, "dyntype"), *actdim = u2d_xml_attr(d, "actdim");
        const char *dynprm = u2d_xml_attr(d, "dynprm");
        const char *gaintype = u2d_xml_attr(d, "gaintype");
        a->last_kind = "general";
        if (gaintype) a->fixed_gains = strcmp(gaintype, "fixed") == 0;
        if (gaintype) a->gaintype = gaintype;
        if (written(d, "inheritrange")) a->inheritrange = written(d, "inheritrange");
        if (gaintype) a->dcmotor_gains = strcmp(gaintype, "dcmotor") == 0;
        int was_pid = a->pid_gains;
        if (gaintype) a->pid_gains = strcmp(gaintype, "pid") == 0;
        /* pid gains made of this <general>'s gainprm and dynprm: not tracked */
        if (a->pid_gains && !was_pid) a->pid_rewritten = 1;
        const char *biastype = u2d_xml_attr(d, "biastype");
        if (biastype) a->affine_bias = strcmp(biastype, "affine") == 0;
        const char *actearly = u2d_xml_attr(d, "actearly"), *input = u2d_xml_attr(d, "input");
        if (actearly) a->actearly = strcmp(actearly, "true") == 0;
        if (input) a->input = input;
        /* the DC motor's constants and states are in gainprm and dynprm */
        a->dcmotor_rewritten |= a->dcmotor_gains && (gaintype || u2d_xml_attr(d, "gainprm") ||
                                                     u2d_xml_attr(d, "dynprm"));
        if (dyn) a->dyntype = dyn;
        if (dyn) a->pid_shortcut = 0;       /* its dyntype, its states counted again */
        /* a blank actdim= is not given to MuJoCo's reader: what came before stands */
        if (actdim && actdim[strspn(actdim, " \t\n\r\v\f")]) {
            a->actdim = actdim;
            a->shortcut_actdim = -1;        /* -1 too: then the dyntype's default stands */
        }
        if (dynprm) a->timeconst = strtod(dynprm, NULL);
        char *first_end = NULL, *second_end = NULL;
        if (dynprm) strtod(dynprm, &first_end);
        double second = first_end && first_end != dynprm ? strtod(first_end, &second_end) : 0;
        if (second_end && second_end != first_end) a->slew = second, a->slew_known = 1;
        /* a dcmotor's settings (its controller's in gainprm) rewritten: not tracked */
        if (dynprm || u2d_xml_attr(d, "gainprm")) a->dcmotor_states = -1;
        if (dynprm || u2d_xml_attr(d, "gainprm")) a->pid_rewritten = 1;
        /* a blank gainprm= is not given to MuJoCo's reader: what came before stands */
        const char *gainprm = u2d_xml_attr(d, "gainprm");
        if (gainprm && gainprm[strspn(gainprm, " \t\n\r\v\f")]) {
            a->gain.value = strtod(gainprm, NULL);
            a->gain.known = 1;
        }
        /* a biasprm= of two numbers or more sets biasprm[1], known whatever came before (a
           <muscle>'s, a <dcmotor>'s); a shorter one keeps it */
        double bias1;
        if (second_number(written(d, "biasprm"), &bias1)) a->bias = (gain_state){bias1, 1};
        return;
    }
    a->actdim = NULL;
    const actuator_dynamics *source = shortcut_source(a, el, above);
    apply_shortcut_gain(d, &a->gain, source);
    apply_shortcut_bias(d, a, &a->gain, source, a->dcmotor_gains || above.dcmotor);
    a->read_from_default = source != NULL;
    if (is_one_of(d, "position|intvelocity|pid")) apply_shortcut_inheritrange(d, a, source);
    a->last_kind = el;
    a->gaintype = shortcut_gaintype(el);
    a->fixed_gains = word_index("motor|position|intvelocity|velocity|adhesion|cylinder", el) >= 0;
    if (strcmp(el, "pid") == 0) {       /* what a <pid> without slewmax= takes */
        const actuator_dynamics *from = a->pid_gains ? a : above.pid;
        a->pid_slew_in = from ? from->slew : 0;
        a->pid_slew_in_known = from ? from->slew_known : 1;
    }
    a->slew = 0;
    a->slew_known = !is_one_of(d, "muscle|dcmotor");
    a->pid_shortcut = 0;
    a->shortcut_actdim = -1;
    if (strcmp(el, "dcmotor") == 0) {
        int inherited = a->dcmotor_gains || above.dcmotor;
        if (!a->dcmotor_gains) inherit_dcmotor_settings(a, above.dcmotor);
        apply_dcmotor_thermal(d, a, inherited);
    }
    if (strcmp(el, "pid") == 0 && !a->pid_gains) inherit_pid_settings(a, above.pid);
    a->dcmotor_gains = strcmp(el, "dcmotor") == 0;
    a->pid_gains = strcmp(el, "pid") == 0;       /* every shortcut sets its gaintype */
    a->actearly = strcmp(el, "dcmotor") == 0;    /* and actearly, and its biastype */
    a->affine_bias = word_index("pid|position|intvelocity|velocity|cylinder", el) >= 0;
    if (is_one_of(d, "pid|dcmotor")) {
        apply_inherited_shortcut(d, a);
        if (a->pid_gains) follow_pid_numbers(d, a);
        else a->gain = (gain_state){a->stored_r, !a->dcmotor_rewritten};
        a->pid_shortcut = a->pid_gains && strcmp(a->dyntype, "pid") == 0;
        return;
    }
    if (strcmp(el, "position") == 0) {
        /* 0 turns the filter off; NaN, as any other number, keeps it on. Without its own,
         * the timeconst of the default it reads its settings from, as its gain (MuJoCo
         * 4.0.0: a class's <position timeconst="1"/> then a child's <pid ki="1"/> leaves
         * a <position> of the child filtered, one of the class itself not) */
        double tc = t ? strtod(t, NULL)
                  : source && strcmp(source->dyntype, "filterexact") == 0 ? source->timeconst
                                                                           : 0;
        a->dyntype = tc != 0 ? "filterexact" : "none";
        a->timeconst = tc != 0 ? tc : 1;
        return;
    }
    static const char *const SETS[][2] = {
        {"intvelocity", "integrator"}, {"cylinder", "filter"}, {"muscle", "muscle"}};
    a->dyntype = "none";            /* motor, velocity, damper, adhesion, orientation */
    for (size_t k = 0; k < sizeof SETS / sizeof SETS[0]; k++)
        if (strcmp(el, SETS[k][0]) == 0) a->dyntype = SETS[k][1];
    if (strcmp(el, "cylinder") == 0 && t) a->timeconst = strtod(t, NULL);
}

/* Class cls's own actuator defaults into a, in document order (main's as far as its
 * main_limit), up to e when e is one of them (a default is read with what precedes it). */
static void apply_class_dynamics(mjcf *rd, int cls, int limit, u2d_xml *e, actuator_dynamics *a,
                                 gains_above above)
{
    const mj_class *C = &rd->cls[cls];
    int last = C->first + (cls == 0 && limit < C->count ? limit : C->count);
    for (int k = C->first; k < last && rd->dn[k].node != e; k++)
        if (rd->dn[k].kind == K_ACTUATOR) apply_dynamics(rd->dn[k].node, a, above);
}

/* Actuator element e's dynamics (an actuator, or a default read with what precedes it):
 * its class cls's defaults (cls >= 0) from main down, then its own attributes. 0, or -1
 * (message) when out of memory. */
static int plugin_dynamics(mjcf *rd, u2d_xml *e, int cls, actuator_dynamics *a)
{
    *a = (actuator_dynamics){.dyntype = "none", .timeconst = 1, .shortcut_actdim = -1,
                             .dcmotor_states = -1, .gain = {1, 1}, .bias = {0, 1}, .slew_known = 1,
                             .fixed_gains = 1, .gaintype = "fixed"};
    actuator_dynamics dcmotor, pid;     /* the nearest classes whose gains stayed so */
    actuator_dynamics *classes = NULL;
    gains_above above = {NULL, NULL, NULL, 0};
    if (cls >= 0) {
        int depth = 0;
        for (int c = cls; c >= 0; c = rd->cls[c].parent) depth++;
        int *line = malloc(sizeof *line * (size_t)depth);
        classes = malloc(sizeof *classes * (size_t)depth);
        if (!line || !classes) {
            free(line);
            free(classes);
            return fail(rd, NULL, "out of memory");
        }
        above.classes = classes;
        for (int c = cls, k = depth; c >= 0; c = rd->cls[c].parent) line[--k] = c;
        for (int k = 0; k < depth; k++) {                                /* main first */
            apply_class_dynamics(rd, line[k], rd->cls[cls].main_limit, e, a, above);
            if (a->dcmotor_gains) dcmotor = *a, above.dcmotor = &dcmotor;
            if (a->pid_gains) pid = *a, above.pid = &pid;
            classes[above.n++] = *a;
        }
        free(line);
    }
    apply_dynamics(e, a, above);
    free(classes);
    return 0;
}

/* The input bits of a DC motor's input= v as MuJoCo 4.0.0 reads them: pos 1, vel 2, ff 4,
 * voltage 8, pressure 16, listed in that order; voltage alone when not given or blank, 0
 * for "none". -1 for text it refuses or an so3 chart (left to MuJoCo). */
static int dcmotor_input_bits(const char *v)
{
    static const char *const TOKENS = "pos|vel|ff|voltage|pressure";
    if (!v || !v[strspn(v, " \t\n\r\v\f")]) return 8;
    if (strcmp(v, "none") == 0) return 0;
    int bits = 0, last = -1;
    char token[16];
    for (const char *p = v; *(p += strspn(p, " \t\n\r\v\f"));) {
        size_t n = strcspn(p, " \t\n\r\v\f");
        snprintf(token, sizeof token, "%.*s", (int)(n < 15 ? n : 15), p);
        int k = n < 15 ? word_index(TOKENS, token) : -1;
        if (k <= last) return -1;
        bits |= 1 << k;
        last = k;
        p += n;
    }
    return bits;
}

/* Actuator e's ctrlrange as MuJoCo 4.0.0 reads it, into r (0 0 for none): a <pid>'s own
 * posrange= (not blank) over its own or its class's ctrlrange=, which a <position>'s or
 * <pid>'s inheritrange above 0 of a class default clears (apply_written_ranges,
 * apply_shortcut_inheritrange; checked against it: <general ctrlrange="0 1"
 * ctrllimited="true"/><position inheritrange="1"/> then a <motor> of the class is refused,
 * "invalid control range"). 0 or -1 (message). */
static int actuator_ctrlrange(mjcf *rd, u2d_xml *e, int cls, double r[2])
{
    actuator_dynamics a;
    r[0] = r[1] = 0;
    if (dnumbers(rd, e, K_ACTUATOR, cls, "ctrlrange", 2, 2, r) < 0 ||
        plugin_dynamics(rd, e, cls, &a) < 0)
        return -1;
    if (strcmp(u2d_xml_name(e), "pid") == 0 && written(e, "posrange"))
        return numbers(rd, e, "posrange", 2, 2, r) < 0 ? -1 : 0;
    if (!a.ctrl_range) r[0] = r[1] = 0;
    return 0;
}

/* A <position>, <intvelocity> or <pid> e (an actuator, or a default, used or not) of class
 * cls without its own inheritrange= or range, which takes an inheritrange above 0 from the
 * default it reads its settings from while its class's range stands other than 0 0
 * (apply_shortcut_inheritrange): MuJoCo 4.0.0's reader refuses it ("ctrlrange and
 * inheritrange cannot both be defined"), though each of the two alone loads. 0 or -1
 * (message). */
static int check_inherited_inheritrange_alone(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    if (cls < 0 || !is_one_of(e, "position|intvelocity|pid")) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (a.range_clash != e) return 0;
    const char *el = u2d_xml_name(e);
    const char *range = strcmp(el, "intvelocity") == 0 ? "actrange"
                        : strcmp(el, "pid") == 0 ? "posrange" : "ctrlrange";
    const char *own = strcmp(el, "pid") == 0 ? "ctrlrange= or posrange=" : range;
    return fail(rd, e, "%s: a <%s> of class '%.100s' takes inheritrange=\"%.40s\" from its "
                "class's <%s> default while that class gives it a nonzero %s (MuJoCo refuses "
                "it: \"%s and inheritrange cannot both be defined\"): give the actuator its "
                "own %s or inheritrange=, or drop one of the two from the class", label, el,
                rd->cls[cls].name, a.inheritrange, el, range, range, own);
}

/* A <dcmotor> e (an actuator, or a default, used or not), its class cls (-1: none), has
 * the motor constant and resistance MuJoCo 4.0.0's reader requires, written or inherited
 * from its class's <dcmotor>: motorconst="Kt Ke" with neither below 0, K (Kt when above
 * 0, else Ke) above 0 or derived from nominal="vn tau0 omega0" (a vn and an omega0 above
 * 0), and resistance= above 0 or, when 0, derived from nominal (a vn and a tau0 above 0);
 * a NaN is not below 0, as in MuJoCo. Constants a class's <general> wrote are left to
 * MuJoCo (actuator_dynamics). 0 or -1 (message). */
static int check_dcmotor_constants(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    if (strcmp(u2d_xml_name(e), "dcmotor") != 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (a.dcmotor_rewritten) return 0;      /* its constants are a <general>'s gains */
    const double *kt_ke = a.kt_ke, R = a.resistance;
    double vn = a.nominal[0], tau0 = a.nominal[1], omega0 = a.nominal[2];
    if (kt_ke[0] < 0 || kt_ke[1] < 0)
        return fail(rd, e, "%s: motorconst=\"%.60s\" holds a negative number (MuJoCo "
                    "refuses it: \"DC motor: motor constants must be non-negative\"): "
                    "give the torque and back-EMF constants, 0 or more", label,
                    u2d_xml_attr(e, "motorconst"));
    /* with input="none" it is passive: no voltage, the K of 0 turning the motor off */
    int k_positive = kt_ke[0] > 0 || !(kt_ke[1] <= 0) || (vn > 0 && omega0 > 0) ||
                     dcmotor_input_bits(a.input) == 0;
    if (!k_positive)
        return fail(rd, e, "%s: no motor constant above 0 (MuJoCo refuses it: \"DC motor: "
                    "motor constant K must be positive\"): give motorconst=, or nominal= "
                    "with a voltage and a no-load speed above 0 to derive it from, here or "
                    "in its class's <dcmotor>, or input=\"none\" for a passive one", label);
    if (R <= 0 && !(R == 0 && vn > 0 && tau0 > 0))
        return fail(rd, e, "%s: no resistance above 0 (MuJoCo refuses it: \"DC motor: "
                    "resistance R must be positive\"): give resistance=, or nominal= with a "
                    "voltage and a stall torque above 0 to derive it from, here or in its "
                    "class's <dcmotor>", label);
    double L_te[2] = {0, 0};
    leading_numbers(a.inductance, 2, L_te);
    if (L_te[0] < 0 || L_te[1] < 0)
        return fail(rd, e, "%s: inductance=\"%.60s\" holds a negative number (MuJoCo refuses "
                    "it: \"DC motor: %s must be non-negative\"): give the inductance L or the "
                    "electrical time constant, 0 or more", label, a.inductance,
                    L_te[0] < 0 ? "inductance" : "electrical time constant");
    if (a.thermal_fault)
        return fail(rd, e, "%s: a thermal model (thermal=\"resistance capacitance timeconst "
                    "...\", its own over its class's <dcmotor>'s) without a thermal %s above 0 "
                    "(MuJoCo refuses it: \"DC motor: thermal %s must be positive\"): give two "
                    "of the three above 0, or all three 0 for no thermal model", label,
                    a.thermal_fault == 1 ? "resistance" : "capacitance",
                    a.thermal_fault == 1 ? "resistance" : "capacitance");
    return 0;
}

/* The states a pid dyntype keeps on actuator e (not a plugin's: its own count), as MuJoCo
 * 4.0.0's compiler sets its actdim: one each for a ki and a slewmax above 0 (a NaN is
 * not), the <pid>'s that set them. -1 when a <general> rewrote them (not tracked). */
static int pid_dyntype_states(const actuator_dynamics *a, u2d_xml *e)
{
    if (!a->pid_gains || a->pid_rewritten || strcmp(u2d_xml_name(e), "plugin") == 0)
        return -1;
    return first_positive(a->ki) + first_positive(a->slewmax);
}

static int actuator_inheritrange(mjcf *rd, u2d_xml *e, int cls, const char **v);

/* Whether MuJoCo 4.0.0's compiler gives an actuator of dynamics a (as its reader leaves
 * them: plugin_dynamics) its inheritrange: to pid gains, and to fixed gains whose
 * gainprm[0] is -biasprm[1] (a NaN is not), of affine bias (checked against it: a
 * <position inheritrange="1"/> then a <general gainprm="2"/>, a <motor>'s bias of none,
 * a <velocity> of kv 1, a <damper>'s affine gains, take none). -1 when a number it
 * depends on is not followed (gain_state). */
static int inheritrange_applies(const actuator_dynamics *a)
{
    if (!a->affine_bias) return 0;
    if (strcmp(a->gaintype, "pid") == 0) return 1;
    if (strcmp(a->gaintype, "fixed") != 0) return 0;
    if (!a->gain.known || !a->bias.known) return -1;
    return a->gain.value == -a->bias.value;
}

/* Whether actuator e of class cls (not a <position>, <intvelocity> or <pid>, whose
 * inheritrange is always followed) has an inheritrange above 0 that MuJoCo 4.0.0 may give
 * it or not by numbers urdf2dyn does not follow (inheritrange_applies). 0 or -1 (out of
 * memory). */
static int unfollowed_inheritrange(mjcf *rd, u2d_xml *e, int cls, int *maybe)
{
    actuator_dynamics a;
    *maybe = 0;
    if (is_one_of(e, "position|intvelocity|pid")) return 0;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    *maybe = inheritrange_applies(&a) < 0 && first_positive(a.inheritrange);
    return 0;
}

/* Actuator e's control range where a <damper> or <adhesion> default of its class chain
 * left ctrllimited true (MuJoCo 4.0.0 keeps it for every later actuator kind, until a
 * ctrllimited= says otherwise): it must increase, "invalid control range for actuator",
 * unless an inheritrange urdf2dyn does not follow may replace it (not checked then).
 * 1 when such a default limits e (its ctrlrange checked), 0 when none does, -1 (message). */
static int class_ctrllimited(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    actuator_dynamics a;
    double r[2] = {0, 0};
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (!a.ctrl_limiter) return 0;
    if (actuator_ctrlrange(rd, e, cls, r) < 0) return -1;
    if (r[0] < r[1]) return 1;
    return fail(rd, e, "%s: ctrlrange=\"%g %g\" is not increasing, and the control is limited "
                "by its class's <%s> default, which sets ctrllimited true for the actuators "
                "after it (MuJoCo refuses it: \"invalid control range for actuator\"): give "
                "an increasing ctrlrange, or ctrllimited=\"false\"", label, r[0], r[1],
                a.ctrl_limiter);
}

/* The activation states (MuJoCo's actdim, summed into na, the size of a keyframe's act) of
 * actuator e, of class cls, as MuJoCo's reader leaves its dynamics (plugin_dynamics): its
 * actdim= as written, or a <dcmotor>'s states, or one for a dyntype other than none. -1
 * for a pid dyntype, whose states follow its gains (the act size is then not checked),
 * -2 (message) when out of memory. */
static int actuator_states(mjcf *rd, u2d_xml *e, int cls)
{
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -2;
    if (strcmp(a.dyntype, "pid") == 0) return pid_dyntype_states(&a, e);
    long written = a.actdim ? strtol(a.actdim, NULL, 10) : -1;
    if (written >= 0) return written > 1000000 ? 1000000 : (int)written;
    if (a.shortcut_actdim >= 0) return a.shortcut_actdim;
    if (strcmp(a.dyntype, "dcmotor") == 0 && a.dcmotor_rewritten) return -1;
    return strcmp(a.dyntype, "none") != 0;
}

/* Whether e is a plugin actuator whose dyntype (its own or its class's) is "none": its
 * activation states are the plugin's, but MuJoCo limits an actrange only with dynamics.
 * -1 (message) when out of memory. */
static int plugin_without_dynamics(mjcf *rd, u2d_xml *e, int cls)
{
    if (strcmp(u2d_xml_name(e), "plugin") != 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    return strcmp(a.dyntype, "none") == 0;
}

/* A <general> e's actdim= (its own or its class's) fits its dyntype as MuJoCo 4.0.0's
 * compiler has it: 1 or more only with a dyntype, more than 1 only for user, dcmotor and
 * pid (the states they keep are their own), 0 only without one; for a dcmotor dyntype,
 * the states of its class's <dcmotor> where known. 0 or -1 (message). */
static int check_general_actdim(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    if (strcmp(u2d_xml_name(e), "general") != 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (!a.actdim && a.shortcut_actdim < 0) return 0;
    /* a whole int (check_actdim), or the states a <dcmotor> of its class set it to: the
     * DC motor then wants those states whatever actdim or dyntype the <general> gives */
    long given = a.actdim ? strtol(a.actdim, NULL, 10) : a.shortcut_actdim;
    const char *dyn = a.dyntype, *from = a.actdim ? "" : " (its class's <dcmotor> states)";
    int stateless = strcmp(dyn, "none") == 0;
    char advice[120];
    if (!a.actdim)
        snprintf(advice, sizeof advice, "use a class without that <dcmotor> default, or a "
                 "<dcmotor> actuator");
    else if (given > 1) snprintf(advice, sizeof advice, "give actdim=\"%d\"", !stateless);
    else if (given == 1) snprintf(advice, sizeof advice, "give a dyntype, or actdim=\"0\"");
    else snprintf(advice, sizeof advice, "give actdim=\"1\", or dyntype=\"none\"");
    if (given > 1 && word_index("user|dcmotor|pid", dyn) < 0)
        return fail(rd, e, "%s: actdim %ld%s with dyntype \"%s\" (MuJoCo refuses it: \"actdim "
                    "> 1 is only allowed for dyntype 'user', 'dcmotor' and 'pid'\"): %s", label,
                    given, from, dyn, advice);
    if (given == 1 && stateless)
        return fail(rd, e, "%s: actdim 1%s with dyntype \"none\", which keeps no activation "
                    "state (MuJoCo refuses it: \"invalid actdim 1 in stateless actuator\"): %s",
                    label, from, advice);
    if (given == 0 && word_index("none|dcmotor|pid", dyn) < 0)
        return fail(rd, e, "%s: actdim 0%s with dyntype \"%s\", which keeps an activation "
                    "state (MuJoCo refuses it: \"invalid actdim 0 in stateful actuator\"): %s",
                    label, from, dyn, advice);
    /* a dcmotor dyntype's states are its DC motor's, whatever actdim= says */
    if (a.actdim && given >= 0 && strcmp(dyn, "dcmotor") == 0 && a.dcmotor_states >= 0 &&
        given != a.dcmotor_states)
        return fail(rd, e, "%s: actdim %ld with its class's <dcmotor>, which keeps %d "
                    "activation state(s) (MuJoCo refuses it: \"DC motor parameters ... "
                    "require actdim %d, got %ld\"): give actdim=\"%d\", or leave actdim out",
                    label, given, a.dcmotor_states, a.dcmotor_states, given, a.dcmotor_states);
    return 0;
}

/* Actuator e's inputs are those its kind takes, as MuJoCo 4.0.0's compiler checks them: a
 * <dcmotor>'s (its own input= or its class's) none or some of pos vel ff voltage, a
 * <pid>'s own some of pos vel ff (an input= it inherits is left to MuJoCo). 0 or -1. */
static int check_shortcut_inputs(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    int pid = strcmp(u2d_xml_name(e), "pid") == 0;
    if (!pid && strcmp(u2d_xml_name(e), "dcmotor") != 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    const char *input = pid ? u2d_xml_attr(e, "input") : a.input;
    if (!input || (pid && !input[strspn(input, " \t\n\r\v\f")])) return 0;
    int bits = dcmotor_input_bits(input);
    if (bits < 0 || (pid ? bits >= 1 && bits <= 7 : !(bits & 16))) return 0;
    return fail(rd, e, "%s: input=\"%.60s\" (MuJoCo refuses it: \"%s\"): give %s in that order, "
                "e.g. input=\"pos vel\"", label, input, pid ? "pid inputs are a subset of "
                "[pos, vel, ff]" : "dcmotor inputs are 'none' or a subset of [pos, vel, ff, "
                "voltage]", pid ? "some of pos vel ff" : "none, or some of pos vel ff voltage");
}

/* An actuator e of pid gains (a <pid>, its own or its class's, or gaintype="pid") keeps
 * dyntype none or pid, as MuJoCo 4.0.0's compiler wants: "pid requires dyntype 'none' or
 * 'pid'". 0 or -1 (message). */
static int check_pid_dyntype(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (!a.pid_gains) return 0;
    if (word_index("none|pid", a.dyntype) < 0)
        return fail(rd, e, "%s: dyntype \"%s\" with pid gains (from a <pid>, here or in its "
                    "class, or gaintype=\"pid\"), which keep dyntype \"none\" or \"pid\" "
                    "(MuJoCo refuses it: \"pid requires dyntype 'none' or 'pid'\"): leave "
                    "dyntype out, or use a class without that <pid> default", label, a.dyntype);
    /* a <pid>'s ki (gainprm[0]) integrates the error in a state of the pid dyntype, which a
     * <general>'s dyntype="none" after it takes away; MuJoCo checks the biastype first
     * (check_pid_gains_and_bias gives that reason) */
    if (strcmp(a.dyntype, "none") != 0 || !a.affine_bias || !a.gain.known ||
        a.gain.value == 0)
        return 0;
    if (!a.pid_rewritten)
        return fail(rd, e, "%s: ki=\"%.40s\" of a <pid> (here or in its class) with "
                    "dyntype \"none\" written by a <general> (MuJoCo refuses it: \"ki "
                    "(gainprm[0]) requires dyntype 'pid'\"): leave dyntype out, or give "
                    "ki=\"0\"", label, a.ki);
    return fail(rd, e, "%s: pid gains with gainprm[0] (their ki) %g, from a <general>'s "
                "gainprm=, a <pid>'s ki, another shortcut's gain (a <position>'s kp, a "
                "<motor>'s 1...) or MuJoCo's default 1, and dyntype \"none\" (MuJoCo refuses "
                "it: \"ki (gainprm[0]) requires dyntype 'pid'\"): give dyntype=\"pid\", or a "
                "gainprm= starting with 0", label, a.gain.value);
}

/* A <pid> e (an actuator, or a default read with what precedes it) without a slewmax= of
 * its own takes the dynprm[1] of the pid gains before it (pid_slew_in), which MuJoCo
 * 4.0.0's reader refuses below 0 ("slewmax cannot be negative"; a NaN is not below 0), a
 * <general dynprm="0 -1"> of pid gains too. 0 or -1 (message). */
static int check_pid_inherited_slewmax(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    actuator_dynamics a;
    if (strcmp(u2d_xml_name(e), "pid") != 0 || written(e, "slewmax")) return 0;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (!a.pid_slew_in_known || !(a.pid_slew_in < 0)) return 0;
    return fail(rd, e, "%s: the slewmax it takes from the pid gains of its class (a "
                "<general>'s second dynprm= number or a <pid>'s slewmax), %g, is below 0 "
                "(MuJoCo refuses it: \"slewmax cannot be negative\"): give slewmax= of 0 or "
                "more, or that class a slewmax of 0 or more", label, a.pid_slew_in);
}

/* An actuator e's pid dynamics and pid gains go together as MuJoCo 4.0.0's compiler wants:
 * a pid dyntype only with pid gains ("dyntype 'pid' requires gaintype 'pid'"), pid gains
 * only with an affine bias ("pid requires biastype 'affine'"). A plugin's are its own.
 * 0 or -1 (message). */
static int check_pid_gains_and_bias(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    if (strcmp(u2d_xml_name(e), "plugin") == 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (strcmp(a.dyntype, "pid") == 0 && !a.pid_gains)
        return fail(rd, e, "%s: dyntype \"pid\" (its own or its class's) without pid gains "
                    "(MuJoCo refuses it: \"dyntype 'pid' requires gaintype 'pid'\"): use a "
                    "<pid> actuator, or give gaintype=\"pid\" biastype=\"affine\"", label);
    if (a.pid_gains && !a.affine_bias)
        return fail(rd, e, "%s: pid gains (from a <pid>, here or in its class, or "
                    "gaintype=\"pid\") with a biastype other than \"affine\" (MuJoCo refuses "
                    "it: \"pid requires biastype 'affine'\"): give biastype=\"affine\", or "
                    "use a <pid> actuator", label);
    return 0;
}

/* An actuator e of dyntype dcmotor (its own or its class's) has actearly true, as MuJoCo
 * 4.0.0's compiler wants ("actearly cannot be false for DC motor actuator"): a <dcmotor>
 * sets it, a <general> (default false) or any other shortcut after it unsets it.
 * 0 or -1 (message). */
static int check_dcmotor_actearly(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (strcmp(a.dyntype, "dcmotor") != 0 || a.actearly) return 0;
    return fail(rd, e, "%s: dyntype \"dcmotor\" with actearly false (MuJoCo refuses it: "
                "\"actearly cannot be false for DC motor actuator\"; actearly is false unless "
                "a <general> writes it or a <dcmotor> default sets it last): give "
                "actearly=\"true\", or use a <dcmotor> actuator", label);
}

/* A <general> e of dcmotor gains (its class's <dcmotor>) keeps as many activation states
 * as that DC motor's settings want, whatever its dyntype: MuJoCo 4.0.0 refuses another
 * number when it first runs the model ("inconsistent state array dimension in DC motor").
 * A dcmotor dyntype's actdim is checked before (check_general_actdim). 0 or -1. */
static int check_dcmotor_gains_states(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    if (strcmp(u2d_xml_name(e), "general") != 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (!a.dcmotor_gains || a.dcmotor_rewritten || a.dcmotor_states < 0) return 0;
    int states = actuator_states(rd, e, cls);
    if (states < -1) return -1;
    if (states < 0 || states == a.dcmotor_states) return 0;
    return fail(rd, e, "%s: %d activation state(s) (dyntype \"%s\") with its class's "
                "<dcmotor> gains, whose settings keep %d (MuJoCo refuses it: \"inconsistent "
                "state array dimension in DC motor\"): leave dyntype and actdim to that "
                "<dcmotor> (dyntype \"dcmotor\"), or give gaintype= for other gains", label,
                states, a.dyntype, a.dcmotor_states);
}

/* An actuator e of dcmotor gains (a <dcmotor>, its own or its class's) has the inputs its
 * controller's gains want, as MuJoCo 4.0.0's compiler checks them: kp, ki or kd (the
 * controller's first three numbers, a NaN nonzero) or a slewmax above 0 need a pos, vel
 * or ff input, and a ki above 0 the pos input. 0 or -1 (message). */
static int check_dcmotor_controller(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    int bits = dcmotor_input_bits(a.input);
    if (!a.dcmotor_gains || a.dcmotor_rewritten || bits < 0) return 0;
    const double *c = a.controller_gains;     /* kp ki kd slewmax */
    int controller = bits & 7;
    const char *why = !controller && (c[0] != 0 || c[1] != 0 || c[2] != 0)
                          ? "controller gains require a controller input [pos, vel, ff]"
                    : c[1] > 0 && !(bits & 1) ? "integral gain requires the pos input"
                    : !controller && c[3] > 0
                          ? "slew rate limiting requires a controller input [pos, vel, ff]"
                          : NULL;
    if (!why) return 0;
    /* 212 characters, a label of at most 51, two words of at most 20 and a why of 61: 364,
     * within fail's 380 with the four gains' numbers written in 16 characters */
    return fail(rd, e, "%s: controller=\"%.20s\" (kp %g ki %g kd %g slewmax %g) with "
                "input=\"%.20s\" (MuJoCo refuses it: \"dcmotor %s\"): give input= the "
                "setpoints it follows (e.g. input=\"pos vel\"), or gains of 0", label,
                a.controller ? a.controller : "", c[0], c[1], c[2], c[3],
                a.input ? a.input : "voltage", why);
}

/* An actuator e of pid dyntype keeps the states its <pid> settings want (pid_dyntype_states),
 * as MuJoCo 4.0.0's compiler has it: an actdim= above 0 must be that many ("pid controller
 * states require matching actdim"), and none (a ki below 0 or NaN, no slewmax) is a
 * stateful actuator without a state ("invalid actdim 0 in stateful actuator"). 0 or -1. */
static int check_pid_states(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (strcmp(a.dyntype, "pid") != 0) return 0;
    int states = pid_dyntype_states(&a, e);
    long given = a.actdim ? strtol(a.actdim, NULL, 10) : -1;
    if (states < 0) return 0;
    if (given > 0 && given != states)
        return fail(rd, e, "%s: actdim %ld with the pid settings of its class's <pid> (ki=\"%s\", "
                    "slewmax=\"%s\"), which keep %d state(s), one each for a ki and a slewmax "
                    "above 0 (MuJoCo refuses it: \"pid controller states require matching "
                    "actdim\"): give actdim=\"%d\", or leave actdim out", label, given,
                    a.ki ? a.ki : "0", a.slewmax ? a.slewmax : "0", states, states);
    if (states == 0)    /* both 0 leave a <pid> dyntype none, not a dyntype="pid" */
        return fail(rd, e, "%s: a pid dyntype (%s) whose ki=\"%s\" and slewmax=\"%s\" keep no "
                    "state, neither above 0 (MuJoCo refuses it: \"invalid actdim 0 in "
                    "stateful actuator\"): give a ki or a slewmax above 0, or %s", label,
                    a.pid_shortcut ? "its <pid>'s" : "a <general>'s dyntype=\"pid\"",
                    a.ki ? a.ki : "0", a.slewmax ? a.slewmax : "0",
                    a.pid_shortcut ? "both 0" : "leave dyntype=\"pid\" out");
    return 0;
}

/* A <general> e of pid dyntype and pid gains <general>s wrote (gaintype="pid"; not a
 * <pid>'s, which sets its states), without actdim=, keeps the states MuJoCo 4.0.0's compiler
 * counts from the numbers: one each for a ki (gainprm[0]) and a slewmax (dynprm[1]) above 0, none
 * refused ("invalid actdim 0 in stateful actuator"), a slewmax below 0 too. Numbers urdf2dyn
 * does not follow (gain_state) are left to MuJoCo, with note_unchecked_gains's warning.
 * 0 or -1 (message). */
static int check_general_pid_states(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    if (strcmp(u2d_xml_name(e), "general") != 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (strcmp(a.dyntype, "pid") != 0 || !a.pid_gains || !a.pid_rewritten || a.actdim ||
        a.pid_shortcut || !a.gain.known || !a.slew_known)
        return 0;
    if (a.slew < 0)
        return fail(rd, e, "%s: a pid dyntype whose dynprm[1] (its slewmax) %g is below 0 "
                    "(MuJoCo refuses it: \"slewmax (dynprm[1]) must be non-negative\"): give "
                    "dynprm=\"imax slewmax\" with a slewmax of 0 or more", label, a.slew);
    if (a.gain.value > 0 || a.slew > 0) return 0;
    return fail(rd, e, "%s: a pid dyntype whose gainprm[0] (its ki) %g and dynprm[1] (its "
                "slewmax) %g, from a <general>, a <pid> or MuJoCo's defaults (ki 1, slewmax 0), "
                "keep no state, neither above 0 (MuJoCo refuses it: \"invalid actdim 0 in "
                "stateful actuator\"): give a ki or a slewmax above 0, or dyntype=\"none\"",
                label, a.gain.value, a.slew);
}

/* An actuator e of pid dynamics (a <pid>'s, its own or its class's, or a <general> of its
 * class's) and a nonzero ki has the imax its <pid> stored 0 or more, as MuJoCo 4.0.0's
 * compiler wants ("imax (dynprm[0]) must be non-negative"; checked against it: without a ki
 * it loads a negative one). A plugin's imax is its own (check_pid_settings);
 * one a <general> wrote is left to MuJoCo. 0 or -1 (message). */
static int check_pid_imax(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    if (strcmp(u2d_xml_name(e), "plugin") == 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (strcmp(a.dyntype, "pid") != 0 || a.pid_rewritten || !first_nonzero(a.ki) ||
        !a.imax || !(strtod(a.imax, NULL) < 0))
        return 0;
    return fail(rd, e, "%s: imax=\"%.60s\" (its own or its class's <pid>'s) below 0 with a ki "
                "of \"%s\" (MuJoCo refuses it: \"imax (dynprm[0]) must be non-negative\"): give "
                "the largest integral force, 0 or more", label, a.imax, a.ki ? a.ki : "0");
}

/* Actuator e whose DC motor or pid gains a <general> wrote (gaintype=, gainprm=, dynprm=:
 * actuator_dynamics does not follow the numbers then) is loaded with a warning: MuJoCo's
 * compiler checks those numbers and counts the states they keep (K and R above 0, a
 * controller's inputs, ki and imax and slewmax, a key's act size), urdf2dyn does not.
 * 0 or -1 (message: out of memory). */
static int note_unchecked_gains(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    if (strcmp(u2d_xml_name(e), "plugin") == 0) return 0;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    int dc = a.dcmotor_gains && a.dcmotor_rewritten, pid = a.pid_gains && a.pid_rewritten;
    if (!dc && !pid) return 0;
    note(rd, e, "%s: a <general> writes its %s gains (gaintype=\"%s\", or gainprm= or dynprm= "
         "over a <%s> default), which urdf2dyn does not check as MuJoCo's compiler does "
         "(%s, and the activation states they keep): MuJoCo may refuse this model, or a key's "
         "act= size, that urdf2dyn loads; compile it in MuJoCo to check, or give the settings "
         "on a <%s>", label, dc ? "DC motor" : "pid", dc ? "dcmotor" : "pid",
         dc ? "dcmotor" : "pid", dc ? "its motor constant, resistance and controller inputs"
                                    : "its ki, imax and slewmax",
         dc ? "dcmotor" : "pid");
    return 0;
}

/* The nine muscle numbers (range, force, scale, lmin, lmax, vmax, fpmax, fvmax) of a
 * <muscle> actuator e of a class chain without actuator defaults, as MuJoCo's reader makes
 * them: its defaults (range 0.75 1.05, force -1, scale 200, lmin 0.5, lmax 1.6, vmax 1.5,
 * fpmax 1.3, fvmax 1.2) under those it gives of 0 or more (a NaN is not). */
static void muscle_shortcut_params(u2d_xml *e, double prm[9])
{
    static const double DEFAULT[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
    static const char *const OWN[7] = {"force", "scale", "lmin", "lmax", "vmax", "fpmax",
                                       "fvmax"};
    double given[9] = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
    leading_numbers(written(e, "range"), 2, given);
    for (int k = 0; k < 7; k++) leading_numbers(written(e, OWN[k]), 1, &given[2 + k]);
    for (int k = 0; k < 9; k++) prm[k] = given[k] >= 0 ? given[k] : DEFAULT[k];
}

/* Whether actuator e's muscle numbers are known here: a <muscle> that reads none of its
 * settings from a default (shortcut_source: no default of its chain was left by a <muscle>
 * or a <general> over muscle gains, so it starts from its own defaults), or a <general> of
 * a chain of <general> defaults alone (the numbers a default's <muscle> left are not
 * followed). Into
 * prm the gainprm (which 0) or biasprm (1) the compiler checks when its type is muscle
 * (*muscle): a <general>'s over MuJoCo's defaults (gainprm 1 0..., biasprm 0...), each
 * gainprm= or biasprm= of the chain, main's first, over the numbers before it. */
static int muscle_params(mjcf *rd, u2d_xml *e, int cls, int which, double prm[9], int *muscle)
{
    const char *prm_attr = which ? "biasprm" : "gainprm", *type_attr = which ? "biastype"
                                                                             : "gaintype";
    int general = strcmp(u2d_xml_name(e), "general") == 0, n = 0;
    u2d_xml **d = cls >= 0 ? chain(rd, cls, K_ACTUATOR, &n) : NULL;
    if (cls >= 0 && !d) return -1;
    int known = general || !strcmp(u2d_xml_name(e), "muscle");
    for (int k = 0; k < n; k++) known &= !general || strcmp(u2d_xml_name(d[k]), "general") == 0;
    actuator_dynamics a;
    if (known && !general && n > 0) {
        if (plugin_dynamics(rd, e, cls, &a) < 0) {
            free(d);
            return -1;
        }
        known = !a.read_from_default;
    }
    *muscle = 0;
    if (known && !general) {
        muscle_shortcut_params(e, prm);
        *muscle = 1;
    } else if (known) {
        for (int k = 0; k < 9; k++) prm[k] = !which && k == 0;
        for (int k = n - 1; k >= -1; k--)                   /* main's first, then e */
            leading_numbers(written(k < 0 ? e : d[k], prm_attr), 9, prm);
        const char *type = written(e, type_attr);
        for (int k = 0; k < n && !type; k++) type = written(d[k], type_attr);
        *muscle = type && strcmp(type, "muscle") == 0;
    }
    free(d);
    return known;
}

/* An actuator's muscle gains or bias (gaintype or biastype "muscle") hold numbers MuJoCo
 * 4.0.0's compiler takes, as it checks them (a NaN passes): range[0] < range[1], lmin < 1 <
 * lmax, scale, vmax, fpmax and fvmax above 0, the gains' first. Where muscle_params knows
 * them. 0 or -1 (message). */
static int check_muscle_params(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    for (int which = 0; which < 2; which++) {
        double p[9];
        int muscle, known = muscle_params(rd, e, cls, which, p, &muscle);
        if (known < 0) return -1;
        if (!known || !muscle) continue;
        const char *why = p[0] >= p[1] ? "range[0]<range[1] required in muscle"
                        : p[4] >= 1 || p[5] <= 1 ? "lmin<1<lmax required in muscle"
                        : p[3] <= 0 || p[6] <= 0 || p[7] <= 0 || p[8] <= 0
                            ? "positive scale, vmax, fpmax, fvmax required in muscle" : NULL;
        if (!why) continue;
        int general = strcmp(u2d_xml_name(e), "general") == 0;
        const char *what = !general ? "a <muscle>" : which ? "biastype \"muscle\" (biasprm)"
                                                           : "gaintype \"muscle\" (gainprm)";
        return fail(rd, e, "%s: %s with range %g %g, scale %g, lmin %g, lmax %g, vmax %g, "
                    "fpmax %g, fvmax %g (MuJoCo refuses it: \"%s\"): give %s", label, what,
                    p[0], p[1], p[3], p[4], p[5], p[6], p[7], p[8], why,
                    general ? "nine muscle numbers, e.g. \"0.75 1.05 -1 200 0.5 1.6 1.5 1.3 "
                              "1.2\", or another type"
                            : "an increasing range=, lmin= below 1 and lmax= above it, and "
                              "the others above 0");
    }
    return 0;
}

/* MuJoCo 4 adds an actuator's armature and damping (damping="linear v|v| v^2") to its joint
 * or tendon, each times gear[0]^2 whatever the joint's type (mj_actuatorArmature,
 * mj_actuatorDamping), summed over the actuators on one target. Onto a joint they go to the
 * joint's own terms, which is exact: the armature of a hinge, slide or ball (a free joint's
 * is reported, as its own is), the damping of any joint for Model.passive_forces. */
static int drive_joint(mjcf *rd, u2d_urdf_joint *U, double g2, const double damping[3],
                       double armature)
{
    rd->actuator_damping[U - rd->u->joint] += g2 * damping[0];
    U->damping_poly[0] += g2 * damping[1];
    U->damping_poly[1] += g2 * damping[2];
    if (damping[0] != 0 || damping[1] != 0 || damping[2] != 0) {
        rd->n_actuator_damping++;
        rd->n_passive_given++;
    }
    if (armature == 0) return 0;
    if (U->type != U2D_JOINT_FLOATING) {
        U->armature += g2 * armature;
        return 0;
    }
    mj_springdamper *sd = springdamper_of(rd, (int)(U - rd->u->joint));
    if (!sd) return -1;
    rd->n_free_armature += sd->free_armature == 0;
    sd->free_armature += g2 * armature;
    return 0;
}

/* An actuator's or sensor's delay= above 0 (its own or its class's) keeps its past in a
 * history buffer of nsample= samples: MuJoCo refuses it without one, nsample below 1
 * ("setting delay > 0 without a history buffer"). 0 or -1 (message). */
static int check_delay_history(mjcf *rd, u2d_xml *e, int cls, const char *who)
{
    const char *delay, *nsample;
    if (given_text(rd, e, K_ACTUATOR, cls, "delay", &delay) ||
        given_text(rd, e, K_ACTUATOR, cls, "nsample", &nsample))
        return -1;
    if (!first_positive(delay) || first_positive(nsample)) return 0;
    return fail(rd, e, "%s: delay=\"%.40s\" above 0 without a history buffer (nsample=\"%.20s\"; "
                "MuJoCo refuses it: \"setting delay > 0 without a history buffer\"): give "
                "nsample= the number of samples to keep (1 or more), or delay=\"0\"", who,
                delay, nsample ? nsample : "0");
}

/* A sensor's noise= and cutoff= are not below 0, and its interval="period phase" has a
 * period not below 0 and a phase not above 0, above -period when the period is: MuJoCo 4
 * refuses them otherwise (a NaN it takes). who names the sensor. 0 or -1 (message). */
static int check_sensor_values(mjcf *rd, u2d_xml *e, const char *who)
{
    static const char *const AT_LEAST_0[] = {"noise", "cutoff"};
    for (int k = 0; k < 2; k++) {
        const char *v = written(e, AT_LEAST_0[k]);
        if (v && strtod(v, NULL) < 0)
            return fail(rd, e, "%s: %s=\"%.40s\" below 0 (MuJoCo refuses it: \"negative %s in "
                        "sensor\"): give 0 or more", who, AT_LEAST_0[k], v, AT_LEAST_0[k]);
    }
    const char *v = written(e, "interval");
    double x[2] = {0, 0};
    leading_numbers(v, 2, x);
    const char *problem = x[0] < 0 ? "negative interval in sensor"
                        : x[1] > 0 ? "positive phase in sensor"
                        : x[0] > 0 && x[1] <= -x[0] ? "phase must be greater than -period in "
                                                      "sensor" : NULL;
    if (!problem) return 0;
    return fail(rd, e, "%s: interval=\"%.40s\" (MuJoCo refuses it: \"%s\"): give the period, "
                "0 or more, and a phase between -period and 0, e.g. interval=\"0.01 0\"", who,
                v, problem);
}

/* the most activation states counted: an int's largest, as MuJoCo's na (written out, not
 * limits.h's INT_MAX, which the core's includes rule leaves out) */
#define NA_MAX 2147483647

/* An actuator's name in its messages, "actuator 'name'" or "actuator k (unnamed)": the name
 * cut at 40, so that its longest refusals keep their fix within fail's 380 characters. */
#define ACTUATOR_LABEL 64
static void actuator_label(const char *name, int index, char label[ACTUATOR_LABEL])
{
    if (name) snprintf(label, ACTUATOR_LABEL, "actuator '%.40s'", name);
    else snprintf(label, ACTUATOR_LABEL, "actuator %d (unnamed)", index);
}

/* Actuator e (the k-th): its armature and damping onto its joint; a tendon's counted for
 * the summary. joints: the named joints, sorted (sort_name_tables), targets: the other names
 * it may drive. An actuator without a target, or on a joint, tendon, site or body that is not
 * there, is refused as MuJoCo refuses it, armature and damping or not. */
static int check_inheritrange_target(mjcf *rd, u2d_xml *e, int cls, const char *label,
                                     int kind, const char *target);
static int inherited_ctrlrange(mjcf *rd, u2d_xml *e, int cls, const char *label);

/* The actrange a shortcut actuator e (any kind but <general> and <plugin>) of class cls
 * has, its class's or an <intvelocity>'s own, as MuJoCo 4.0.0 checks it: every shortcut
 * leaves actlimited "auto", whatever actlimited= it or its class writes (checked against
 * it: <general actrange="0 1" actlimited="false"/> then a <motor> of the class is refused,
 * "1 0" with actlimited="true" loads). So a range other than 0 0 is refused with compiler
 * autolimits off ("actuator has `actrange` but not `actlimited`"), and an increasing one
 * is limited, which needs activation states: without them MuJoCo refuses it ("actrange
 * specified but dyntype is 'none'"). An <intvelocity>'s followed inheritrange gives it its
 * target's range, increasing; an <intvelocity> default's own clears the class's
 * (apply_shortcut_inheritrange). states: actuator_states's. 0 or -1 (message). */
static int check_shortcut_actrange(mjcf *rd, u2d_xml *e, int cls, const char *label,
                                   int states)
{
    double range[2] = {0, 0};
    const char *inherit, *el = u2d_xml_name(e);
    actuator_dynamics a;
    if (dnumbers(rd, e, K_ACTUATOR, cls, "actrange", 2, 2, range) < 0 ||
        actuator_inheritrange(rd, e, cls, &inherit) < 0 || plugin_dynamics(rd, e, cls, &a) < 0)
        return -1;
    if (!a.act_range) range[0] = range[1] = 0;  /* an <intvelocity inheritrange> cleared it */
    if (inherit && strcmp(el, "intvelocity") == 0) range[0] = -1, range[1] = 1;
    if ((range[0] != 0 || range[1] != 0) && !rd->autolimits)
        return fail(rd, e, "%s: an actrange (%s) on a <%s>, which MuJoCo 4.0.0 leaves "
                    "actlimited \"auto\" whatever actlimited= says, and compiler autolimits "
                    "is off (MuJoCo refuses it: \"actuator has `actrange` but not "
                    "`actlimited`\"): set <compiler autolimits=\"true\">, or use a class "
                    "without an actrange", label,
                    inherit ? "inheritrange's" : written(e, "actrange") ? "its own"
                                                                        : "its class's",
                    el);
    if (range[0] < range[1] && states == 0)
        return fail(rd, e, "%s: its class's actrange=\"%g %g\" limits the activation of a "
                    "<%s> without any (dyntype \"none\"; MuJoCo 4.0.0 limits an increasing "
                    "actrange of every shortcut, whatever actlimited= says, and refuses it: "
                    "\"actrange specified but dyntype is 'none'\"): use a class without that "
                    "actrange, or give the actuator dynamics (a timeconst=, a ki=)", label,
                    range[0], range[1], el);
    return 0;
}

static int read_actuator(mjcf *rd, u2d_xml *e, int k, const name_entry *joints, int njoint,
                         const mj_targets *targets)
{
    double gear[6] = {1, 0, 0, 0, 0, 0}, damping[3] = {0, 0, 0}, armature = 0;
    const char *name = u2d_xml_attr(e, "name"), *target = NULL;
    char label[ACTUATOR_LABEL];
    actuator_label(name, k, label);
    int cls = class_attr(rd, e, "class", 0);
    if (cls < 0 || check_activation_attributes(rd, e) || check_actuator_numbers(rd, e) ||
        check_actuator_keywords(rd, e) ||
        check_shortcut_settings(rd, e) || check_delay_history(rd, e, cls, label) ||
        check_shortcut_inputs(rd, e, cls, label) < 0 ||
        check_pid_inherited_slewmax(rd, e, cls, label) < 0 ||
        check_pid_dyntype(rd, e, cls, label) < 0 ||
        check_pid_gains_and_bias(rd, e, cls, label) < 0 ||
        check_general_actdim(rd, e, cls, label) < 0 ||
        check_dcmotor_actearly(rd, e, cls, label) < 0 ||
        check_dcmotor_gains_states(rd, e, cls, label) < 0 ||
        check_dcmotor_controller(rd, e, cls, label) < 0 ||
        check_pid_states(rd, e, cls, label) < 0 ||
        check_general_pid_states(rd, e, cls, label) < 0 ||
        check_pid_imax(rd, e, cls, label) < 0 ||
        check_muscle_params(rd, e, cls, label) < 0 ||
        note_unchecked_gains(rd, e, cls, label) < 0 ||
        check_dcmotor_constants(rd, e, cls, label) < 0 ||
        check_inherited_inheritrange_alone(rd, e, cls, label) < 0 ||
        dnumbers(rd, e, K_ACTUATOR, cls, "gear", 1, 6, gear) < 0 ||
        dnumbers(rd, e, K_ACTUATOR, cls, "damping", 1, 3, damping) < 0 ||
        dnumbers(rd, e, K_ACTUATOR, cls, "armature", 1, 1, &armature) < 0)
        return -1;
    double range[2];
    static const char *const RANGE[3][2] = {{"ctrlrange", "ctrllimited"},
                                            {"forcerange", "forcelimited"},
                                            {"actrange", "actlimited"}};
    /* (MuJoCo 4 checks actrange as written on <general> and a plugin actuator only: other
       kinds make their own) */
    int forced = always_ctrllimited(rd, e, cls, label), act_limited = 0;
    int general = is_one_of(e, "general|plugin");
    if (forced == 0) forced = inherited_ctrlrange(rd, e, cls, label);
    if (forced == 0) forced = class_ctrllimited(rd, e, cls, label);
    if (forced < 0) return -1;
    for (int r = forced; r < (general ? 3 : 2); r++)
        if (limited_range(rd, e, K_ACTUATOR, cls, label, RANGE[r][0], RANGE[r][1], range,
                          r == 2 ? &act_limited : NULL) < 0)
            return -1;
    int without = act_limited ? plugin_without_dynamics(rd, e, cls) : 0;
    if (without < 0) return -1;
    if (without)
        return fail(rd, e, "%s: a limited actrange on a <plugin> actuator without a dyntype "
                    "(MuJoCo refuses it: \"actrange specified but dyntype is 'none'\"): give "
                    "a dyntype, or leave actrange out", label);
    int states = actuator_states(rd, e, cls);
    if (states < -1) return -1;
    if (!general && check_shortcut_actrange(rd, e, cls, label, states) < 0) return -1;
    if (act_limited && states == 0)
        return fail(rd, e, "%s: a limited actrange on an actuator without activation "
                    "(dyntype \"none\"; MuJoCo refuses it): give a dyntype, or leave actrange "
                    "out", label);
    rd->nu++;
    if (states > 0) rd->na = rd->na > NA_MAX - states ? NA_MAX : rd->na + states;
    rd->na_known &= states >= 0;
    int kind = transmission(e, &target);
    if (kind < 0 || !target[0])
        return fail(rd, e, "%s has no transmission target (MuJoCo refuses it): give joint=, "
                    "jointinparent=, tendon=, site=, body= or cranksite=", label);
    if (check_transmission(rd, e, label, kind, target, targets) < 0) return -1;
    int j = kind == T_JOINT || kind == T_JOINTINPARENT ? lookup(joints, njoint, target) : 0;
    if (j < 0)
        return fail(rd, e, "%s: %s=\"%.100s\" names no joint of the model (MuJoCo refuses "
                    "it)", label, TRANSMISSION[kind], target);
    if (check_inheritrange_target(rd, e, cls, label, kind, target) < 0) return -1;
    if (damping[0] == 0 && damping[1] == 0 && damping[2] == 0 && armature == 0) return 0;
    if (armature < 0)
        return fail(rd, e, "%s: armature %g is negative (a rotor's inertia is at least 0): "
                    "give 0 or more", label, armature);
    if (kind == T_SLIDERCRANK || kind == T_SITE || kind == T_BODY)
        return fail(rd, e, "%s: armature and damping need a joint or tendon transmission, "
                    "not %s= (MuJoCo refuses it): leave them out or drive a joint or tendon",
                    label, TRANSMISSION[kind]);
    if (kind == T_TENDON) {
        rd->n_actuator_tendon_armature += armature != 0;
        rd->n_actuator_tendon_damping += damping[0] != 0 || damping[1] != 0 || damping[2] != 0;
        return 0;
    }
    return drive_joint(rd, &rd->u->joint[j], gear[0] * gear[0], damping, armature);
}

/* Whether the tendon the file names name has a range with two ends (its own or its
 * class's range=, as MuJoCo resolves it; a missing tendon has none). 0 or 1, -1 (message). */
static u2d_xml *named_element(const mjcf *rd, const char *kind, const char *name);
static int named_joint_type(const mjcf *rd, const char *name);

static int tendon_ranged(mjcf *rd, const char *name)
{
    u2d_xml *e = named_element(rd, "tendons", name);
    double range[2] = {0, 0};
    int cls = e ? class_attr(rd, e, "class", 0) : -2;
    if (cls == -1 || (e && dnumbers(rd, e, K_TENDON, cls, "range", 2, 2, range) < 0))
        return -1;
    return range[0] != range[1];
}

/* The inheritrange= above 0 actuator e of class cls surely has, NULL for none or not sure:
 * a <position>'s, <intvelocity>'s or <pid>'s own or that of the default it reads its
 * settings from, another's (a plugin's too) as its reader leaves it (plugin_dynamics)
 * where MuJoCo 4.0.0's compiler gives it to its gains (inheritrange_applies).
 * 0 or -1 (out of memory). */
static int actuator_inheritrange(mjcf *rd, u2d_xml *e, int cls, const char **v)
{
    actuator_dynamics a;
    *v = NULL;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (is_one_of(e, "position|intvelocity|pid") || inheritrange_applies(&a) == 1)
        *v = a.inheritrange;
    if (!first_positive(*v)) *v = NULL;                                 /* a NaN is not > 0 */
    return 0;
}

/* Whether <position> e may have a NaN kp, its own or one of its class chain's: MuJoCo 4.0.0
 * applies its inheritrange only where gainprm[0] is -biasprm[1], which a NaN is not
 * (checked against it: <position kp="nan" inheritrange="1"/> in a class leaves an actuator
 * of it with autolimits off loading). 0 or -1 (out of memory). */
static int position_kp_maybe_nan(mjcf *rd, u2d_xml *e, int cls, int *maybe)
{
    const char *own = written(e, "kp");
    int n = 0;
    *maybe = 0;
    if (strcmp(u2d_xml_name(e), "position") != 0) return 0;
    if (own) {
        *maybe = strtod(own, NULL) != strtod(own, NULL);
        return 0;
    }
    u2d_xml **d = cls >= 0 ? chain(rd, cls, K_ACTUATOR, &n) : NULL;
    if (cls >= 0 && !d) return -1;
    for (int k = 0; k < n; k++) {
        const char *kp = written(d[k], "kp");
        *maybe |= kp && strtod(kp, NULL) != strtod(kp, NULL);
    }
    free(d);
    return 0;
}

/* An actuator whose inheritrange (actuator_inheritrange) MuJoCo 4.0.0 turns into its control
 * range (dynamics none, filterexact or pid; an integrator's goes to its actrange) takes its
 * target's range, increasing, over any ctrlrange before the compiler checks it (checked
 * against it: a class's <damper>, or ctrllimited="true" over ctrlrange="1 0", leaves it
 * loading), so only its ctrllimited is checked: "auto" with compiler autolimits off, and no
 * class's <damper> or <adhesion> setting it true, is refused. A target without a range is
 * check_inheritrange_target's. 1 when e inherits its control range, 0 when not, -1
 * (message). */
static int inherited_ctrlrange(mjcf *rd, u2d_xml *e, int cls, const char *label)
{
    const char *v;
    actuator_dynamics a;
    int unsure;
    if (actuator_inheritrange(rd, e, cls, &v) < 0 || plugin_dynamics(rd, e, cls, &a) < 0 ||
        unfollowed_inheritrange(rd, e, cls, &unsure) < 0)
        return -1;
    if (unsure) {
        note(rd, e, "%s: inheritrange=\"%.40s\" (its own or from class '%s') applies in "
             "MuJoCo 4.0.0 only where gainprm[0] is -biasprm[1], which urdf2dyn does not "
             "follow after the <muscle> or <dcmotor> defaults of that class chain: its "
             "control range (the target's, or its ctrlrange) and the target's range are not "
             "checked, and MuJoCo "
             "may refuse this model; give gainprm= and biasprm= (two numbers) on the "
             "actuator, or inheritrange=\"0\" and a ctrlrange", label, a.inheritrange,
             rd->cls[cls].name);
        return word_index("none|filterexact|pid", a.dyntype) >= 0;
    }
    if (!v) return 0;
    if (word_index("none|filterexact|pid", a.dyntype) < 0) return 0;
    int nan_kp;
    if (position_kp_maybe_nan(rd, e, cls, &nan_kp) < 0) return -1;
    if (nan_kp) return 1;           /* MuJoCo may leave its range alone: neither checked */
    int limited = dkeyword(rd, e, K_ACTUATOR, cls, "ctrllimited", "false|true|auto", 2);
    if (limited < 0) return -1;
    if (limited == 2 && !a.ctrl_limiter && !rd->autolimits)
        return fail(rd, e, "%s: inheritrange=\"%g\" gives it a ctrlrange, but it has no "
                    "ctrllimited=, and compiler autolimits is off (MuJoCo refuses it: "
                    "\"actuator has `ctrlrange` but not `ctrllimited`\"): give "
                    "ctrllimited=\"true\" or \"false\", or set <compiler autolimits=\"true\">",
                    label, strtod(v, NULL));
    return 1;
}

/* A <position>'s, <intvelocity>'s or <pid>'s inheritrange= above 0, its own or its class's
 * (actuator_inheritrange), or a <general>'s class's, takes its range from its target's, which
 * MuJoCo's compiler refuses unless the target is a joint= hinge or slide joint or a tendon
 * whose range has two ends (range[0] != range[1], limited or not): "inheritrange used but
 * target 'j' has no range defined". Names check_transmission found. 0 or -1 (message). */
static int check_inheritrange_target(mjcf *rd, u2d_xml *e, int cls, const char *label,
                                     int kind, const char *target)
{
    const char *v;
    actuator_dynamics a;
    int nan_kp;
    if (actuator_inheritrange(rd, e, cls, &v) < 0 ||
        position_kp_maybe_nan(rd, e, cls, &nan_kp) < 0)
        return -1;
    if (!v || nan_kp) return 0;         /* a NaN kp: MuJoCo leaves the range alone */
    double inherit = strtod(v, NULL);
    /* the range goes to the control of a position or pid servo, or to the activation of an
     * integrator: another dynamics has neither */
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    if (word_index("none|filterexact|pid|integrator", a.dyntype) < 0)
        return fail(rd, e, "%s: inheritrange=\"%g\" (its own or its class's) with dyntype "
                    "\"%s\" (MuJoCo refuses it: \"inheritrange only available for position "
                    "and intvelocity actuators\"): give a ctrlrange instead, or use a class "
                    "without that inheritrange", label, inherit, a.dyntype);
    if (kind != T_JOINT && kind != T_TENDON)       /* jointinparent= is refused too */
        return fail(rd, e, "%s: inheritrange=\"%g\" with %s= (MuJoCo refuses it: "
                    "\"inheritrange can only be used with joint and tendon transmission\"): "
                    "give a ctrlrange, or drive a joint or tendon", label, inherit,
                    TRANSMISSION[kind]);
    int type = kind == T_TENDON ? -1 : named_joint_type(rd, target);
    if (type == U2D_JOINT_BALL || type == U2D_JOINT_FLOATING)
        return fail(rd, e, "%s: inheritrange=\"%g\" on %s=\"%.100s\", a ball or free joint "
                    "(MuJoCo refuses it: \"inheritrange can only be used with hinge and slide "
                    "joints\"): give a ctrlrange instead", label, inherit, TRANSMISSION[kind],
                    target);
    int ranged = kind == T_TENDON ? tendon_ranged(rd, target)
                                  : lookup(rd->ranged_joint, rd->nranged_joint, target) >= 0;
    if (ranged != 0) return ranged < 0 ? -1 : 0;
    return fail(rd, e, "%s: inheritrange=\"%g\" but %s \"%.100s\" has no range (MuJoCo "
                "refuses it: \"inheritrange used but target has no range defined\"): give the "
                "%s a range=, or the actuator a ctrlrange instead of inheritrange", label,
                inherit, kind == T_TENDON ? "tendon" : "joint", target,
                kind == T_TENDON ? "tendon" : "joint");
}

/* Every <actuator> section's actuators (after the tree: their targets are its joints). The
 * armature goes to the joints now (MuJoCo sizes springdampers with it), the linear damping
 * once springdamper has replaced the joint's own (add_actuator_damping): MuJoCo adds the
 * actuators' to the joint's, springdamper's included. */
static int read_actuators(mjcf *rd)
{
    int k = 0, status = 0;
    mj_targets targets;
    if (collect_targets(rd, &targets) < 0) { free_targets(&targets); return -1; }
    for (u2d_xml *s = u2d_xml_first(rd->root); s && !status; s = u2d_xml_next(s)) {
        if (strcmp(u2d_xml_name(s), "actuator") != 0) continue;
        if (!rd->actuator_damping &&
            !(rd->actuator_damping = calloc((size_t)rd->u->njoint + 1, sizeof(double)))) {
            status = fail(rd, NULL, "out of memory");
            break;
        }
        for (u2d_xml *e = u2d_xml_first(s); e && !status; e = u2d_xml_next(e), k++)
            status = read_actuator(rd, e, k, rd->named_joint, rd->nnamed_joint, &targets);
    }
    free_targets(&targets);
    return status;
}

/* ---- keyframes ------------------------------------------------------------------------- */

/* How many numbers attribute name of node holds (0 when absent), read as MuJoCo reads a
 * keyframe's: nan and inf are numbers (MuJoCo warns of a NaN and keeps it), text that is
 * no number or a number too large for a double is refused. -1 (message). */
static int count_values(mjcf *rd, u2d_xml *node, const char *who, const char *name)
{
    const char *s = u2d_xml_attr(node, name), *p = s;
    int n = 0, got;
    double x;
    for (; s && (got = u2d_scan_number(&p, &x)) != 0; n++) {
        if (got == -1)
            return fail(rd, node, "%s: %s=\"%.60s\": not a number (MuJoCo refuses it): give "
                        "decimal numbers separated by spaces, e.g. %s=\"0.5\"", who, name, s,
                        name);
        if (got == -2) {                    /* nan or inf as written, or an overflow */
            const char *t = p + (*p == '+' || *p == '-');
            if ((*t | 32) != 'n' && (*t | 32) != 'i')
                return fail(rd, node, "%s: %s=\"%.60s\": a number too large for a double "
                            "(MuJoCo refuses it): give numbers below 1.7e308 in size, or inf",
                            who, name, s);
            while (*p && !u2d_is_blank(*p)) p++;
        }
    }
    return n;
}

/* The model's degrees of freedom (MuJoCo's nv) from the joints as read. */
static int count_dofs(const u2d_urdf *u)
{
    int nv = 0;
    for (int k = 0; k < u->njoint; k++) {
        u2d_jtype t = u->joint[k].type;
        nv += t == U2D_JOINT_FLOATING ? 6 : t == U2D_JOINT_BALL ? 3 : t == U2D_JOINT_FIXED ? 0 : 1;
    }
    return nv;
}

/* Every <key>'s arrays hold at most the model's count of numbers, as MuJoCo 4 checks them
 * (it fills a shorter array from the model, and refuses a longer one): qpos nq, qvel nv, act
 * na, ctrl nu, mpos 3 per mocap body, mquat 4 (act only where na is known:
 * actuator_states). The values are not used. */
static int check_keyframes(mjcf *rd)
{
    const char *array[6] = {"qpos", "qvel", "act", "ctrl", "mpos", "mquat"};
    const char *meaning[6] = {"nq, the position coordinates", "nv, the degrees of freedom",
                              "na, the actuators' activation states", "nu, the actuators",
                              "3 per mocap body", "4 per mocap body"};
    int expect[6] = {rd->u->nqpos0, count_dofs(rd->u), rd->na, rd->nu, 3 * rd->nmocap,
                     4 * rd->nmocap};
    int k = 0, world = 0;
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s))
        world |= strcmp(u2d_xml_name(s), "worldbody") == 0;
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s)) {
        if (strcmp(u2d_xml_name(s), "keyframe") != 0) continue;
        for (u2d_xml *e = u2d_xml_first(s); e; e = u2d_xml_next(e), k++) {
            const char *name = u2d_xml_attr(e, "name");
            char who[160];
            double time;
            if (name) snprintf(who, sizeof who, "key '%.100s' (key %d)", name, k);
            else snprintf(who, sizeof who, "<key> (key %d)", k);
            if (numbers(rd, e, "time", 1, 1, &time) < 0) return -1;
            for (int a = 0; a < 6; a++) {
                int n = count_values(rd, e, who, array[a]);
                if (n < 0) return -1;
                if (n <= expect[a] || (a == 2 && !rd->na_known)) continue;
                char remedy[160] = "leave it out";
                if (expect[a]) snprintf(remedy, sizeof remedy, "give at most %d", expect[a]);
                else if (!world)    /* Menagerie's keyframes.xml beside its hand.xml */
                    snprintf(remedy, sizeof remedy, "this file has no <worldbody>, as a file "
                             "of keyframes a model <include>s: load the model's file");
                return fail(rd, e, "%s: %s= holds %d numbers, but the model has %d (%s): "
                            "MuJoCo refuses more (it fills a shorter one from the model): %s",
                            who, array[a], n, expect[a], meaning[a], remedy);
            }
        }
    }
    return 0;
}

/* ---- names MuJoCo keeps unique ------------------------------------------------------------ */

static int cmp_named(const void *a, const void *b)
{
    const mj_named *x = a, *y = b;
    int c = strcmp(x->kind, y->kind);
    if (!c) c = strcmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The kind MuJoCo gives a named element for its uniqueness check ("actuators"...), from its
 * section and tag; NULL for those it does not keep. */
static const char *name_kind(const char *section, const char *tag)
{
    static const char *const SECTION[][2] = {
        {"tendon", "tendons"}, {"actuator", "actuators"}, {"sensor", "sensors"},
        {"equality", "equality constraints"}, {"keyframe", "keys"}};
    static const char *const TAG[][3] = {
        {"worldbody", "body", "bodies"}, {"worldbody", "joint", "joints"},
        {"worldbody", "freejoint", "joints"}, {"asset", "mesh", "meshes"},
        {"worldbody", "geom", "geoms"}, {"worldbody", "site", "sites"},
        {"worldbody", "camera", "cameras"}, {"worldbody", "light", "lights"},
        {"worldbody", "frame", "frames"},
        {"asset", "material", "materials"}, {"asset", "texture", "textures"},
        {"asset", "hfield", "height fields"}, {"asset", "skin", "skins"},
        {"custom", "numeric", "numerics"}, {"custom", "text", "texts"},
        {"custom", "tuple", "tuples"}, {"contact", "pair", "contact pairs"},
        {"contact", "exclude", "contact excludes"}, {"deformable", "flex", "flexes"}};
    for (size_t k = 0; k < sizeof SECTION / sizeof SECTION[0]; k++)
        if (strcmp(section, SECTION[k][0]) == 0) return SECTION[k][1];
    for (size_t k = 0; k < sizeof TAG / sizeof TAG[0]; k++)
        if (strcmp(section, TAG[k][0]) == 0 && strcmp(tag, TAG[k][1]) == 0) return TAG[k][2];
    return NULL;
}

/* The name of element e (of section, tag) MuJoCo compiles: name=, or an asset's file's
 * name (file_stem_name); "" for none. NULL when out of memory. */
static const char *element_name(mjcf *rd, const char *section, const char *tag, u2d_xml *e)
{
    const char *name = u2d_xml_attr(e, "name");
    if (strcmp(section, "asset") == 0 && word_index("mesh|texture|hfield|skin", tag) >= 0)
        return file_stem_name(rd, e);
    return name ? name : "";
}

/* MuJoCo refuses a mesh, height field, material or texture (a skybox aside) without a name
 * ("empty name in texture"); name="" is none, and a file names a mesh, texture or height
 * field (element_name). 0 or -1 (message). */
static int check_asset_has_name(mjcf *rd, const char *section, u2d_xml *e, const char *name)
{
    const char *tag = u2d_xml_name(e);
    if (name[0] || strcmp(section, "asset") != 0 ||
        word_index("mesh|hfield|material|texture", tag) < 0)
        return 0;
    if (strcmp(tag, "texture") == 0) {
        int cls = class_attr(rd, e, "class", 0);
        int type = cls < 0 ? -1 : dkeyword(rd, e, K_TEXTURE, cls, "type", "2d|cube|skybox", 1);
        if (type < 0) return -1;
        if (type == 2) return 0;
    }
    return fail(rd, e, "<%s> has no name (MuJoCo refuses an unnamed %s: \"empty name in "
                "%s\"): give it a name=%s", tag, tag, tag, strcmp(tag, "material") == 0 ? ""
                : ", or a file= whose name, without folder and extension, is not empty");
}

static int cmp_instance(const void *a, const void *b)
{
    return strcmp(((const mj_instance *)a)->name, ((const mj_instance *)b)->name);
}

/* The instance the file's <extension> names name, NULL for none (of a name given twice,
 * which check_repeated_names refuses but for "", either). */
static mj_instance *find_instance(const mjcf *rd, const char *name)
{
    mj_instance key = {name, NULL, NULL, 0};
    return rd->ninstance > 0 ? bsearch(&key, rd->instance, (size_t)rd->ninstance, sizeof key,
                                       cmp_instance) : NULL;
}

/* The <extension>'s declarations (plugin= names) into rd->declared and named instances
 * into rd->instance, each sorted, so that each plugin element's lookups cost log n: one
 * walk of the declarations per actuator made a model of n pid actuators load in n^2. */
static int collect_declarations(mjcf *rd)
{
    int capd = 0, capi = 0;
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s)) {
        if (strcmp(u2d_xml_name(s), "extension") != 0) continue;
        for (u2d_xml *p = u2d_xml_first(s); p; p = u2d_xml_next(p)) {
            const char *plugin = u2d_xml_attr(p, "plugin");
            if (plugin) {
                if (grow(rd, (void **)&rd->declared, &capd, rd->ndeclared, sizeof *rd->declared))
                    return -1;
                rd->declared[rd->ndeclared] = (name_entry){plugin, rd->ndeclared};
                rd->ndeclared++;
            }
            for (u2d_xml *i = u2d_xml_first(p); i; i = u2d_xml_next(i)) {
                const char *name = u2d_xml_attr(i, "name");
                if (strcmp(u2d_xml_name(i), "instance") != 0 || !name) continue;
                if (grow(rd, (void **)&rd->instance, &capi, rd->ninstance, sizeof *rd->instance))
                    return -1;
                rd->instance[rd->ninstance++] = (mj_instance){name, i, p, 0};
            }
        }
    }
    return 0;
}

/* index_plugins' tables, and which instances an actuator drives (instance= on a plugin
 * actuator; "" is none). */
static int index_plugins(mjcf *rd)
{
    if (collect_declarations(rd)) return -1;
    if (rd->ndeclared > 1)
        qsort(rd->declared, (size_t)rd->ndeclared, sizeof *rd->declared, cmp_name);
    if (rd->ninstance > 1)
        qsort(rd->instance, (size_t)rd->ninstance, sizeof *rd->instance, cmp_instance);
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s)) {
        if (strcmp(u2d_xml_name(s), "actuator") != 0) continue;
        for (u2d_xml *a = u2d_xml_first(s); a; a = u2d_xml_next(a)) {
            const char *v = u2d_xml_attr(a, "instance");
            mj_instance *i = v && v[0] && strcmp(u2d_xml_name(a), "plugin") == 0
                             ? find_instance(rd, v) : NULL;
            if (i) i->driven = 1;
        }
    }
    return 0;
}

/* The <instance> elements of an <extension>'s <plugin> into *list, as "plugin instances":
 * MuJoCo keeps their names unique across all plugins ("repeated name 'p' in plugin"). One
 * without name= is refused where the schema is checked (check_required_attributes). */
static int collect_instances(mjcf *rd, u2d_xml *plugin, mj_named **list, int *n, int *cap)
{
    for (u2d_xml *i = u2d_xml_first(plugin); i; i = u2d_xml_next(i)) {
        const char *name = u2d_xml_attr(i, "name");
        if (strcmp(u2d_xml_name(i), "instance") != 0 || !name) continue;
        if (grow(rd, (void **)list, cap, *n, sizeof **list)) return -1;
        (*list)[*n] = (mj_named){"plugin instances", name, i, *n};
        (*n)++;
    }
    return 0;
}

/* The elements of section s of a kind MuJoCo names (those under <worldbody> at any depth:
 * bodies and frames are walked with a stack) into *list, an unnamed one under ""; an unnamed
 * asset MuJoCo refuses is refused. 0 or -1. */
static int collect_named(mjcf *rd, u2d_xml *s, mj_named **list, int *n, int *cap)
{
    const char *section = u2d_xml_name(s);
    u2d_xml **st = NULL;
    int top = 0, stcap = 0, status = 0;
    if (grow(rd, (void **)&st, &stcap, top, sizeof *st)) return -1;
    st[top++] = u2d_xml_first(s);
    while (top > 0 && !status) {
        u2d_xml *e = st[top - 1];
        if (!e) { top--; continue; }
        st[top - 1] = u2d_xml_next(e);
        const char *tag = u2d_xml_name(e), *name = element_name(rd, section, tag, e);
        const char *kind = name_kind(section, tag);
        if (!name || check_asset_has_name(rd, section, e, name)) { status = -1; break; }
        if (strcmp(section, "custom") == 0 && word_index("numeric|text|tuple", tag) >= 0 &&
            !u2d_xml_attr(e, "name")) {
            status = fail(rd, e, "<%s> needs name= (MuJoCo's schema requires it: \"required "
                          "attribute missing\"): give it one", tag);
            break;
        }
        if (strcmp(section, "extension") == 0 && strcmp(tag, "plugin") == 0 &&
            (status = collect_instances(rd, e, list, n, cap)))
            break;
        if (kind) {         /* an unnamed one too: MuJoCo finds it by the name "" */
            if ((status = grow(rd, (void **)list, cap, *n, sizeof **list))) break;
            (*list)[*n] = (mj_named){kind, name, e, *n};
            (*n)++;
        }
        if (strcmp(section, "worldbody") == 0 &&
            (strcmp(tag, "body") == 0 || strcmp(tag, "frame") == 0)) {
            if ((status = grow(rd, (void **)&st, &stcap, top, sizeof *st))) break;
            st[top++] = u2d_xml_first(e);
        }
    }
    free(st);
    return status;
}

/* "FILE, line N" for node, into buf: the main document's without a file "the main
 * document, line N". */
static void place(mjcf *rd, u2d_xml *node, char *buf, size_t len)
{
    int f = u2d_xml_file(node), line = u2d_xml_line(node);
    const char *path = f >= 0 && f < rd->nfile ? rd->file[f].path : "";
    snprintf(buf, len, "%.300s, line %d", path[0] ? path : "the main document", line);
}

/* Where other is, for a message about node: "line N" in node's file, else its file too. */
static void place_beside(mjcf *rd, u2d_xml *node, u2d_xml *other, char *buf, size_t len)
{
    if (u2d_xml_file(node) == u2d_xml_file(other))
        snprintf(buf, len, "line %d", u2d_xml_line(other));
    else
        place(rd, other, buf, len);
}

/* Refuse b, named as a, an element of its kind before it: both lines, and both files when
 * one of them is an <include>d file's. */
static int refuse_repeated(mjcf *rd, const mj_named *a, const mj_named *b)
{
    char pa[340], pb[340];
    if (u2d_xml_file(a->node) == u2d_xml_file(b->node)) {
        snprintf(pa, sizeof pa, "line %d", u2d_xml_line(a->node));
        return fail(rd, b->node, "two %s are named '%.100s' (the other at %s; MuJoCo refuses "
                    "a repeated name): rename one", b->kind, b->name, pa);
    }
    place(rd, a->node, pa, sizeof pa);
    place(rd, b->node, pb, sizeof pb);
    return fail(rd, b->node, "two %s are named '%.100s' (this one at %s, the other at %s; "
                "MuJoCo refuses a repeated name): rename one", b->kind, b->name, pb, pa);
}

/* MuJoCo refuses two elements of one kind under one name ("repeated name"), and a body
 * named 'world', the world body's name; elements of two kinds may share one. The names of
 * the file's bodies and joints are kept (rd->link_names, rd->joint_names) for the names
 * urdf2dyn generates to avoid. */
static int check_repeated_names(mjcf *rd)
{
    mj_named *list = NULL;
    int n = 0, cap = 0, status = set_add(rd, &rd->link_names, "world");
    for (u2d_xml *s = u2d_xml_first(rd->root); s && !status; s = u2d_xml_next(s))
        status = collect_named(rd, s, &list, &n, &cap);
    if (!status && n > 1) qsort(list, (size_t)n, sizeof *list, cmp_named);
    for (int k = 0; k < n && !status; k++) {
        const mj_named *a = &list[k > 0 ? k - 1 : 0], *b = &list[k];
        int body = strcmp(b->kind, "bodies") == 0, joint = strcmp(b->kind, "joints") == 0;
        if (!b->name[0])
            continue;       /* unnamed: no name to repeat or to avoid */
        if (body && strcmp(b->name, "world") == 0)
            status = fail(rd, b->node, "a body is named 'world', the name of MuJoCo's world "
                          "body (MuJoCo refuses a repeated name): rename it");
        else if (k > 0 && strcmp(a->kind, b->kind) == 0 && strcmp(a->name, b->name) == 0)
            status = refuse_repeated(rd, a, b);
        else if (body || joint)
            status = set_add(rd, body ? &rd->link_names : &rd->joint_names, b->name);
    }
    rd->named = list;           /* kept for check_references */
    rd->nnamed = n;
    return status;
}

/* ---- names other elements refer to ------------------------------------------------------- */

/* A kind of element one can name: MuJoCo's object-type keyword (objtype=), its word in
 * mj_named (name_kind's; NULL for a kind urdf2dyn does not collect, not checked) and in a
 * message. */
typedef struct { const char *type, *plural, *singular; } mj_kind;

static const mj_kind KINDS[] = {
    {"body", "bodies", "body"}, {"xbody", "bodies", "body"}, {"joint", "joints", "joint"},
    {"geom", "geoms", "geom"}, {"site", "sites", "site"}, {"camera", "cameras", "camera"},
    {"light", "lights", "light"}, {"mesh", "meshes", "mesh"}, {"flex", "flexes", "flex"},
    {"hfield", "height fields", "height field"}, {"texture", "textures", "texture"},
    {"material", "materials", "material"}, {"pair", "contact pairs", "contact pair"},
    {"exclude", "contact excludes", "contact exclude"}, {"tendon", "tendons", "tendon"},
    {"equality", "equality constraints", "equality constraint"},
    {"actuator", "actuators", "actuator"}, {"sensor", "sensors", "sensor"},
    {"numeric", "numerics", "numeric"}, {"text", "texts", "text"}, {"tuple", "tuples", "tuple"},
    {"key", "keys", "key"}, {"frame", "frames", "frame"}, {"skin", "skins", "skin"},
    {"dof", "dofs", "degree of freedom"},       /* never named: never found, as in MuJoCo */
    {"plugin", NULL, "plugin"}, {"default", NULL, "default"}, {"model", NULL, "model"}};

/* The kind of objtype keyword type; NULL for one MuJoCo does not know. */
static const mj_kind *kind_of_type(const char *type)
{
    for (size_t k = 0; type && k < sizeof KINDS / sizeof KINDS[0]; k++)
        if (strcmp(KINDS[k].type, type) == 0) return &KINDS[k];
    return NULL;
}

static int cmp_kind_name(const void *a, const void *b)
{
    const mj_named *x = a, *y = b;
    int c = strcmp(x->kind, y->kind);
    return c ? c : strcmp(x->name, y->name);
}

/* The element of kind (mj_named's plural: "tendons"...) the file names name ("" an unnamed
 * one's); NULL for none. A binary search of the sorted table of named elements. */
static u2d_xml *named_element(const mjcf *rd, const char *kind, const char *name)
{
    mj_named key = {kind, name, NULL, 0};
    const mj_named *found = rd->nnamed > 0 ? bsearch(&key, rd->named, (size_t)rd->nnamed,
                                                     sizeof key, cmp_kind_name) : NULL;
    return found ? found->node : NULL;
}

/* Whether the file names an element of kind name (the world body is "world"; "" is an
 * unnamed one's, as MuJoCo finds it). The names urdf2dyn generates are not among them:
 * MuJoCo does not know them. */
static int file_names(const mjcf *rd, const mj_kind *kind, const char *name)
{
    if (strcmp(kind->plural, "bodies") == 0 && strcmp(name, "world") == 0) return 1;
    return named_element(rd, kind->plural, name) != NULL;
}

/* One attribute that names another element: of element tag (one of the '|'-separated
 * words) inside parent, naming an element of kind (an objtype keyword), or of the kind
 * attribute typeattr gives (objtype=, reftype=). use: REQUIRED (MuJoCo's schema requires
 * it), GIVEN ("" is a name MuJoCo looks for: an unnamed element's) or OPTIONAL ("" is
 * none, as MuJoCo reads it). A sensor's or tuple's "" is refused. kind and typeattr
 * NULL: an attribute MuJoCo requires that names nothing. */
enum { OPTIONAL, GIVEN, REQUIRED };
typedef struct { const char *parent, *tags, *attr, *kind, *typeattr; int use; } mj_reference;

#define SITE_SENSORS "touch|accelerometer|velocimeter|gyro|force|torque|magnetometer|" \
                     "camprojection|insidesite"
#define JOINT_SENSORS "jointpos|jointvel|ballquat|ballangvel|jointlimitpos|jointlimitvel|" \
                      "jointlimitfrc|jointactuatorfrc"
#define TENDON_SENSORS "tendonpos|tendonvel|tendonlimitpos|tendonlimitvel|tendonlimitfrc|" \
                       "tendonactuatorfrc"
#define FRAME_SENSORS "framepos|framequat|framexaxis|frameyaxis|framezaxis|framelinvel|" \
                      "frameangvel|framelinacc|frameangacc"
#define PAIR_SENSORS "contact|distance|normal|fromto"

static const mj_reference REFERENCES[] = {
    {"contact", "exclude", "body1", "body", NULL, REQUIRED},
    {"contact", "exclude", "body2", "body", NULL, REQUIRED},
    {"contact", "pair", "geom1", "geom", NULL, REQUIRED},
    {"contact", "pair", "geom2", "geom", NULL, REQUIRED},
    {"equality", "connect|weld", "body1", "body", NULL, GIVEN},
    {"equality", "connect|weld", "body2", "body", NULL, OPTIONAL},     /* "": the world */
    {"equality", "connect|weld", "site1", "site", NULL, GIVEN},
    {"equality", "connect|weld", "site2", "site", NULL, GIVEN},
    {"equality", "joint", "joint1", "joint", NULL, REQUIRED},
    {"equality", "joint", "joint2", "joint", NULL, OPTIONAL},
    {"equality", "tendon", "tendon1", "tendon", NULL, REQUIRED},
    {"equality", "tendon", "tendon2", "tendon", NULL, OPTIONAL},
    {"equality", "flex|flexstrain", "flex", "flex", NULL, REQUIRED},
    {"extension", "plugin", "plugin", NULL, NULL, REQUIRED},
    {"fixed", "joint", "joint", "joint", NULL, REQUIRED},
    {"spatial", "site", "site", "site", NULL, REQUIRED},
    {"spatial", "geom", "geom", "geom", NULL, REQUIRED},
    {"spatial", "geom", "sidesite", "site", NULL, OPTIONAL},
    {"skin", "bone", "body", "body", NULL, REQUIRED},
    {"tuple", "element", "objtype", NULL, NULL, REQUIRED},
    {"tuple", "element", "objname", NULL, "objtype", REQUIRED},
    {"sensor", SITE_SENSORS, "site", "site", NULL, REQUIRED},
    {"sensor", "rangefinder", "site", "site", NULL, GIVEN},
    {"sensor", "rangefinder", "camera", "camera", NULL, GIVEN},
    {"sensor", "camprojection", "camera", "camera", NULL, REQUIRED},
    {"sensor", JOINT_SENSORS, "joint", "joint", NULL, REQUIRED},
    {"sensor", TENDON_SENSORS, "tendon", "tendon", NULL, REQUIRED},
    {"sensor", "actuatorpos|actuatorvel|actuatorfrc", "actuator", "actuator", NULL, REQUIRED},
    {"sensor", "subtreecom|subtreelinvel|subtreeangmom", "body", "body", NULL, REQUIRED},
    {"sensor", FRAME_SENSORS "|insidesite", "objtype", NULL, NULL, REQUIRED},
    {"sensor", FRAME_SENSORS "|insidesite", "objname", NULL, "objtype", REQUIRED},
    {"sensor", FRAME_SENSORS, "refname", NULL, "reftype", GIVEN},
    {"sensor", "user", "objname", NULL, "objtype", GIVEN},
    {"sensor", PAIR_SENSORS, "geom1", "geom", NULL, GIVEN},
    {"sensor", PAIR_SENSORS, "geom2", "geom", NULL, GIVEN},
    {"sensor", PAIR_SENSORS, "body1", "body", NULL, GIVEN},
    {"sensor", PAIR_SENSORS, "body2", "body", NULL, GIVEN},
    {"sensor", "contact", "subtree1", "body", NULL, GIVEN},
    {"sensor", "contact", "subtree2", "body", NULL, GIVEN},
    {"sensor", "contact", "site", "site", NULL, GIVEN},
    {"sensor", "tactile", "geom", "geom", NULL, REQUIRED},
    {"sensor", "tactile", "mesh", "mesh", NULL, REQUIRED}};

/* Reference r of element e: given when required, and naming an element the file has. */
static int check_reference(mjcf *rd, u2d_xml *e, const mj_reference *r)
{
    const char *tag = u2d_xml_name(e), *name = u2d_xml_attr(e, r->attr);
    if (!name && r->use == REQUIRED)
        return fail(rd, e, "<%s> needs %s= (MuJoCo's schema requires it: \"required attribute "
                    "missing\"): give it%s%s", tag, r->attr, r->kind ? ", the name of a " : "",
                    r->kind ? kind_of_type(r->kind)->singular : "");
    if (!name || (!name[0] && r->use == OPTIONAL)) return 0;
    int sensor = strcmp(r->parent, "sensor") == 0;
    if (!name[0] && (sensor || strcmp(r->parent, "tuple") == 0))
        return fail(rd, e, "<%s> %s=\"\" names nothing (MuJoCo refuses an empty name in a %s: "
                    "\"%s\"): give the name= of the element it %s", tag, r->attr,
                    sensor ? "sensor" : "tuple", sensor ? "missing name of sensorized object"
                    : "object arrays with different sizes", sensor ? "measures" : "lists");
    const char *type = r->kind ? r->kind : r->typeattr ? u2d_xml_attr(e, r->typeattr) : NULL;
    const mj_kind *kind = kind_of_type(type);
    if (type && !kind)
        return fail(rd, e, "<%s> %s=\"%.60s\" is no object type MuJoCo knows (it refuses it: "
                    "\"unknown object type\"): give body, joint, geom, site... ", tag,
                    r->typeattr, type);
    if (!kind || !kind->plural || file_names(rd, kind, name)) return 0;
    return fail(rd, e, "<%s> %s=\"%.100s\" names no %s of the model (MuJoCo refuses it: it "
                "looks the name up among the %s the file names, not those urdf2dyn makes up): "
                "give the name= of a %s, or remove the <%s>", tag, r->attr, name,
                kind->singular, kind->plural, kind->singular, tag);
}

/* MuJoCo's schema for a <connect> or <weld>: two sites (site1= and site2=), or a body
 * (body1=, with anchor= for a connect; body2= is the world when left out), not both. */
static int check_equality_form(mjcf *rd, u2d_xml *e)
{
    const char *tag = u2d_xml_name(e);
    int connect = strcmp(tag, "connect") == 0;
    if (!connect && strcmp(tag, "weld") != 0) return 0;
    int site1 = u2d_xml_attr(e, "site1") != NULL, site2 = u2d_xml_attr(e, "site2") != NULL;
    int body1 = u2d_xml_attr(e, "body1") != NULL, anchor = u2d_xml_attr(e, "anchor") != NULL;
    int bodies = body1 || u2d_xml_attr(e, "body2") || (connect && anchor);
    if ((site1 || site2) && bodies)
        return fail(rd, e, "<%s> names both sites (site1=, site2=) and bodies (body1=, body2=%s;"
                    " MuJoCo's schema refuses it): keep one pair", tag, connect ? ", anchor=" : "");
    if (site1 || site2 ? site1 && site2 : body1 && (anchor || !connect)) return 0;
    return fail(rd, e, "<%s> needs site1= and site2=, or body1=%s (MuJoCo's schema requires "
                "one of them)", tag, connect ? " and anchor=" : "");
}

/* An equality constraint's two elements are two: MuJoCo refuses one named twice ("element
 * is repeated"), a body connected or welded to the world body included (body2= left out or
 * "" is the world), and two sites named alike. A joint2= or tendon2= left out or "" is none. */
static int check_equality_distinct(mjcf *rd, u2d_xml *e)
{
    static const char *const PAIRS[4][2] = {{"body1", "body2"}, {"site1", "site2"},
                                            {"joint1", "joint2"}, {"tendon1", "tendon2"}};
    for (int k = 0; k < 4; k++) {
        const char *a = u2d_xml_attr(e, PAIRS[k][0]), *b = u2d_xml_attr(e, PAIRS[k][1]);
        if (k == 0 && a && (!b || !b[0])) b = "world";
        if (!a || !b || (k >= 2 && !b[0]) || strcmp(a, b) != 0) continue;
        return fail(rd, e, "<%s> %s= and %s= name one element, '%.100s' (MuJoCo refuses it: "
                    "\"element is repeated\")%s: name two", u2d_xml_name(e), PAIRS[k][0],
                    PAIRS[k][1], a, k == 0 ? ", body2= left out being the world body" : "");
    }
    return 0;
}

/* MuJoCo's schema for a sensor's object types: a frame sensor's objtype= and reftype= are
 * body, xbody, geom, site or camera, and reftype= and refname= (a <user>'s objtype= and
 * objname=) come together. */
static int check_sensor_form(mjcf *rd, u2d_xml *e)
{
    static const char *const PAIRS[2][3] = {{FRAME_SENSORS, "reftype", "refname"},
                                            {"user", "objtype", "objname"}};
    const char *tag = u2d_xml_name(e), *types = "body|xbody|geom|site|camera";
    if (word_index(FRAME_SENSORS, tag) >= 0 && (keyword(rd, e, "objtype", types, 0) < 0 ||
                                                keyword(rd, e, "reftype", types, 0) < 0))
        return -1;
    for (int k = 0; k < 2; k++) {
        const char *a = PAIRS[k][1], *b = PAIRS[k][2];
        if (word_index(PAIRS[k][0], tag) >= 0 &&
            (u2d_xml_attr(e, a) != NULL) != (u2d_xml_attr(e, b) != NULL))
            return fail(rd, e, "<%s> gives %s= without %s= (MuJoCo's schema refuses it: they "
                        "come together): give both, or neither", tag, u2d_xml_attr(e, a) ? a : b,
                        u2d_xml_attr(e, a) ? b : a);
    }
    return 0;
}

/* Core type of the joint the file names name; -1 for none. */
static int named_joint_type(const mjcf *rd, const char *name)
{
    int joint = lookup(rd->named_joint, rd->nnamed_joint, name);
    return joint < 0 ? -1 : (int)rd->u->joint[joint].type;
}

/* The joints an element may name, by type, as MuJoCo's compiler checks them: a <ballquat>'s
 * and <ballangvel>'s a ball joint, a <jointpos>'s, <jointvel>'s, <jointactuatorfrc>'s, a
 * fixed tendon's and a joint equality's a hinge or slide. Names check_reference found. */
static int check_joint_types(mjcf *rd, u2d_xml *e, const char *parent)
{
    static const char *const NEEDS[][3] = {
        {"sensor", "ballquat|ballangvel", "joint"}, {"sensor", "jointpos|jointvel|"
        "jointactuatorfrc", "joint"}, {"fixed", "joint", "joint"}, {"equality", "joint", "joint1"},
        {"equality", "joint", "joint2"}};
    const char *tag = u2d_xml_name(e);
    for (size_t k = 0; k < sizeof NEEDS / sizeof NEEDS[0]; k++) {
        const char *name = u2d_xml_attr(e, NEEDS[k][2]);
        if (strcmp(parent, NEEDS[k][0]) != 0 || word_index(NEEDS[k][1], tag) < 0 || !name)
            continue;
        int type = named_joint_type(rd, name), ball = k == 0;
        int scalar = type == U2D_JOINT_REVOLUTE || type == U2D_JOINT_CONTINUOUS ||
                     type == U2D_JOINT_PRISMATIC;
        if (type < 0 || (ball ? type == U2D_JOINT_BALL : scalar)) continue;
        return fail(rd, e, "<%s> %s=\"%.100s\" is not a %s joint (MuJoCo refuses it: \"%s\"):"
                    " name a %s joint", tag, NEEDS[k][2], name, ball ? "ball" : "hinge or slide",
                    ball ? "joint must be ball" : "must be slide or hinge",
                    ball ? "ball" : "hinge or slide");
    }
    return 0;
}

/* A <rangefinder> measures from a site or a camera: MuJoCo's schema needs one of them. */
static int check_rangefinder(mjcf *rd, u2d_xml *e)
{
    if (strcmp(u2d_xml_name(e), "rangefinder") != 0 || u2d_xml_attr(e, "site") ||
        u2d_xml_attr(e, "camera"))
        return 0;
    return fail(rd, e, "<rangefinder> needs site= or camera= (MuJoCo's schema requires one): "
                "give the site or camera it measures from");
}

/* A tendon's path or a tuple holds elements: MuJoCo refuses an empty one. */
static int check_not_empty(mjcf *rd, u2d_xml *e)
{
    const char *tag = u2d_xml_name(e), *name = u2d_xml_attr(e, "name");
    if (word_index("fixed|spatial|tuple", tag) < 0 || u2d_xml_first(e)) return 0;
    char label[120] = "";
    if (name) snprintf(label, sizeof label, " '%.100s'", name);
    return fail(rd, e, "<%s>%s is empty (MuJoCo refuses an empty %s): give it %s, or remove "
                "it", tag, label, strcmp(tag, "tuple") == 0 ? "tuple" : "tendon path",
                strcmp(tag, "tuple") == 0 ? "<element> children" : strcmp(tag, "fixed") == 0
                ? "<joint joint=...> elements" : "<site site=...> elements");
}

/* ---- what MuJoCo's schema and compiler require beyond names ------------------------------- */

#define SENSOR_ELEMENTS SITE_SENSORS "|rangefinder|" JOINT_SENSORS "|" TENDON_SENSORS \
                        "|actuatorpos|actuatorvel|actuatorfrc|subtreecom|subtreelinvel|" \
                        "subtreeangmom|" FRAME_SENSORS "|" PAIR_SENSORS "|e_potential|" \
                        "e_kinetic|clock|user|plugin|tactile"

/* The elements MuJoCo 4's schema (src/xml/mjcf.schema) has in each element urdf2dyn reads
 * without modelling, "" for none; "extension plugin" is an <extension>'s <plugin> (it holds
 * <instance> elements), "plugin" any other (a plugin actuator or sensor: <config>). Directly
 * under <mujoco>, <body>, <frame> and <replicate> are <worldbody>'s aliases in its schema.
 * A <default> holds the elements it gives defaults to (no <plugin>, <frame> or <freejoint>),
 * and a body's joints, sites, cameras, lights and <inertial> hold none. */
static const char *const SCHEMA[][2] = {
    {"mujoco", "compiler|option|size|statistic|visual|default|extension|asset|worldbody|body|"
               "frame|replicate|deformable|contact|tendon|equality|actuator|sensor|custom|"
               "keyframe"},
    {"sensor", SENSOR_ELEMENTS}, {"equality", "connect|weld|joint|tendon|flex|flexstrain"},
    {"contact", "pair|exclude"}, {"tendon", "fixed|spatial"}, {"fixed", "joint"},
    {"spatial", "site|geom|pulley"}, {"custom", "numeric|text|tuple"}, {"tuple", "element"},
    {"extension", "plugin"}, {"extension plugin", "instance"}, {"instance", "config"},
    {"plugin", "config"}, {"config", ""}, {"deformable", "flex|skin"},
    {"flex", "contact|edge|elasticity"}, {"flex contact", ""}, {"flex edge", ""},
    {"flex elasticity", ""}, {"skin", "bone"}, {"bone", ""}, {"shape", "plugin"},
    {"default", "default|mesh|material|joint|geom|site|camera|light|pair|equality|tendon|"
                "texture|general|motor|position|velocity|intvelocity|damper|cylinder|muscle|"
                "adhesion|orientation|pid|dcmotor"},
    {"joint", ""}, {"freejoint", ""}, {"site", ""}, {"camera", ""}, {"light", ""},
    {"inertial", ""}};

/* The elements SCHEMA has in row, NULL for a row it does not have. */
static const char *schema_row(const char *row)
{
    for (size_t k = 0; k < sizeof SCHEMA / sizeof SCHEMA[0]; k++)
        if (strcmp(SCHEMA[k][0], row) == 0) return SCHEMA[k][1];
    return NULL;
}

/* Element e, a child of parent (its SCHEMA row row), is one MuJoCo 4's schema has there: it
 * refuses any other ("unrecognized element"), MuJoCo 3's <geomdist>, <geomnormal> and
 * <geomfromto> among them. */
static int check_schema_row(mjcf *rd, u2d_xml *e, const char *parent, const char *row)
{
    static const char *const RENAMED[3][2] = {{"geomdist", "distance"},
                                              {"geomnormal", "normal"},
                                              {"geomfromto", "fromto"}};
    const char *tag = u2d_xml_name(e), *allowed = schema_row(row);
    if (!allowed || word_index(allowed, tag) >= 0) return 0;
    char hint[160] = "remove it, or correct its name";
    for (int r = 0; r < 3; r++)
        if (strcmp(tag, RENAMED[r][0]) == 0)
            snprintf(hint, sizeof hint, "MuJoCo 4 calls it <%s>: rename it", RENAMED[r][1]);
    if (strcmp(tag, "config") == 0 && strcmp(row, "extension plugin") == 0)
        snprintf(hint, sizeof hint, "an <extension>'s <plugin> holds <instance name=...> "
                 "elements, and they the <config> ones: move it into an <instance>");
    return fail(rd, e, "<%.60s> is not an element of <%s> in MuJoCo 4's schema (MuJoCo "
                "refuses it: \"unrecognized element\"): %s", tag, parent, hint);
}

/* Element e is one MuJoCo 4's schema has in parent (SCHEMA's row of the same name). */
static int check_schema(mjcf *rd, u2d_xml *e, const char *parent)
{
    return check_schema_row(rd, e, parent, parent);
}

/* The SCHEMA row of a child tag of an element of row row: "row tag" where SCHEMA has one
 * (a <flex>'s <contact> is not <mujoco>'s), else the tag's own. */
static const char *child_row(const char *row, const char *tag, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s", row, tag);
    return schema_row(buf) ? buf : tag;
}

/* Element e (its SCHEMA row row) gives the attributes MuJoCo's schema requires of it: an
 * <instance> its name= (name="" is given), a <config> its key= and value= ("required
 * attribute missing"). */
static int check_required_attributes(mjcf *rd, u2d_xml *e, const char *row)
{
    static const char *const REQUIRED_OF[][2] = {
        {"instance", "name"}, {"config", "key"}, {"config", "value"}};
    static const char *const HINT[][2] = {
        {"name", "a name, and use it as instance= in the actuator, sensor or geom it serves"},
        {"key", "the name of the plugin's setting it gives (mujoco.pid's kp, ki, kd...)"},
        {"value", "the setting's value"}};
    for (size_t k = 0; k < sizeof REQUIRED_OF / sizeof REQUIRED_OF[0]; k++) {
        const char *attr = REQUIRED_OF[k][1];
        if (strcmp(row, REQUIRED_OF[k][0]) != 0 || u2d_xml_attr(e, attr)) continue;
        const char *hint = "";
        for (size_t h = 0; h < sizeof HINT / sizeof HINT[0]; h++)
            if (strcmp(HINT[h][0], attr) == 0) hint = HINT[h][1];
        return fail(rd, e, "<%s> needs %s= (MuJoCo's schema requires it: \"required attribute "
                    "missing: '%s'\"): give it %s", u2d_xml_name(e), attr, attr, hint);
    }
    return 0;
}

static int cmp_name_then_index(const void *a, const void *b)
{
    const name_entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* e's child number index (in document order). */
static u2d_xml *child_at(u2d_xml *e, int index)
{
    u2d_xml *c = u2d_xml_first(e);
    for (int k = 0; c && k < index; k++) c = u2d_xml_next(c);
    return c;
}

/* The <config> children of e (an <instance> or a plugin actuator's or sensor's <plugin>)
 * give each key= once: MuJoCo refuses one given twice ("duplicate config key"). The keys
 * are sorted (a hostile file's 20 000 keys then cost n log n, not n^2); the one named is
 * the first repeated in document order, beside its first occurrence. */
static int check_config_keys(mjcf *rd, u2d_xml *e)
{
    int n = 0, k = 0;
    for (u2d_xml *c = u2d_xml_first(e); c; c = u2d_xml_next(c)) n++;
    if (n < 2) return 0;
    name_entry *keys = malloc(sizeof *keys * (size_t)n);
    if (!keys) return fail(rd, e, "out of memory");
    int m = 0;
    for (u2d_xml *c = u2d_xml_first(e); c; c = u2d_xml_next(c), k++) {
        const char *key = u2d_xml_attr(c, "key");
        if (strcmp(u2d_xml_name(c), "config") == 0 && key) keys[m++] = (name_entry){key, k};
    }
    qsort(keys, (size_t)m, sizeof *keys, cmp_name_then_index);
    int first = -1, second = -1;    /* the key repeated first in document order */
    for (int a = 0; a < m; ) {
        int b = a + 1;
        while (b < m && strcmp(keys[b].name, keys[a].name) == 0) b++;
        if (b - a > 1 && (second < 0 || keys[a + 1].index < second))
            first = keys[a].index, second = keys[a + 1].index;
        a = b;
    }
    free(keys);
    if (second < 0) return 0;
    u2d_xml *c = child_at(e, second), *earlier = child_at(e, first);
    char where[340];
    place_beside(rd, c, earlier, where, sizeof where);
    return fail(rd, c, "<config> key '%.100s' is given twice in one <%s> (the other at %s; "
                "MuJoCo refuses it: \"duplicate config key\"): keep one",
                u2d_xml_attr(c, "key"), u2d_xml_name(e), where);
}

/* Every element below e (its SCHEMA row row) is one MuJoCo 4's schema has where it is, with
 * the attributes the schema requires of it, and a <config> key is given once. The rows
 * nest three deep at most (an <extension>'s <plugin>, <instance>, <config>), and an
 * element is descended into only once its row has accepted it, so the depth is bounded. */
static int check_descendants(mjcf *rd, u2d_xml *e, const char *row)
{
    char buf[80];
    for (u2d_xml *c = u2d_xml_first(e); c; c = u2d_xml_next(c)) {
        const char *c_row = child_row(row, u2d_xml_name(c), buf, sizeof buf);
        if (check_schema_row(rd, c, u2d_xml_name(e), row) ||
            check_required_attributes(rd, c, c_row) || check_descendants(rd, c, c_row))
            return -1;
    }
    return check_config_keys(rd, e);
}

/* A <distance>, <normal> or <fromto> sensor's two geoms (or bodies) are two: MuJoCo refuses
 * one geom or body measured to itself. A geom and its own body are two. */
static int check_pair_distinct(mjcf *rd, u2d_xml *e)
{
    static const char *const PAIRS[2][2] = {{"geom1", "geom2"}, {"body1", "body2"}};
    for (int k = 0; k < 2; k++) {
        const char *a = u2d_xml_attr(e, PAIRS[k][0]), *b = u2d_xml_attr(e, PAIRS[k][1]);
        if (!a || !b || strcmp(a, b) != 0) continue;
        return fail(rd, e, "<%s> %s=\"%.100s\" and %s= name one %s, which it would measure to "
                    "itself (MuJoCo refuses it: \"1st body/geom must be different from 2nd "
                    "body/geom\"): name two different %ss", u2d_xml_name(e), PAIRS[k][0], a,
                    PAIRS[k][1], k ? "body" : "geom", k ? "bodie" : "geom");
    }
    return 0;
}

/* A <distance>, <normal> or <fromto> sensor measures between one geom or body (geom1= or
 * body1=) and another (geom2= or body2=): MuJoCo's schema requires one of each pair. */
static int check_pair_sensor(mjcf *rd, u2d_xml *e)
{
    const char *tag = u2d_xml_name(e);
    if (word_index("distance|normal|fromto", tag) < 0) return 0;
    for (int k = 1; k <= 2; k++) {
        char geom[8], body[8];
        snprintf(geom, sizeof geom, "geom%d", k);
        snprintf(body, sizeof body, "body%d", k);
        int n = (u2d_xml_attr(e, geom) != NULL) + (u2d_xml_attr(e, body) != NULL);
        if (n != 1)
            return fail(rd, e, "<%s> gives %s of %s= and %s= (MuJoCo's schema requires one of "
                        "them): name one geom or body", tag, n ? "both" : "neither", geom, body);
    }
    return check_pair_distinct(rd, e);
}

/* What a plugin can be used as (MuJoCo's mjPLUGIN_* capabilities). */
enum { PLUGIN_ACTUATOR = 1, PLUGIN_SENSOR = 2, PLUGIN_SDF = 4 };

/* The plugins MuJoCo 4.0's Python package registers (its bundled libactuator, libsensor and
 * libsdf_plugin), their capabilities and the <config> keys each takes (the attributes it
 * registers: plugin/actuator/pid.cc, plugin/sensor/touch_grid.cc, plugin/sdf/<name>.h);
 * MuJoCo refuses to declare any other plugin ("plugin ... not found"), and any other key
 * ("unrecognized attribute 'plugin:<key>'"). The elasticity plugins are not among them. */
static const struct { const char *name; int use; const char *keys; } REGISTERED_PLUGINS[] = {
    {"mujoco.pid", PLUGIN_ACTUATOR, "kp|ki|kd|imax|slewmax"},
    {"mujoco.sensor.touch_grid", PLUGIN_SENSOR, "nchannel|size|fov|gamma"},
    {"mujoco.sdf.bolt", PLUGIN_SDF, "radius"},
    {"mujoco.sdf.bowl", PLUGIN_SDF, "height|radius|thickness"},
    {"mujoco.sdf.gear", PLUGIN_SDF, "alpha|diameter|teeth|thickness|innerdiameter"},
    {"mujoco.sdf.nut", PLUGIN_SDF, "radius"},
    {"mujoco.sdf.torus", PLUGIN_SDF, "radius1|radius2"}};

/* The capabilities (PLUGIN_*) of the registered plugin name; 0 for one not registered. */
static int plugin_use(const char *name)
{
    for (size_t k = 0; name && k < sizeof REGISTERED_PLUGINS / sizeof REGISTERED_PLUGINS[0]; k++)
        if (strcmp(REGISTERED_PLUGINS[k].name, name) == 0) return REGISTERED_PLUGINS[k].use;
    return 0;
}

/* The <config> keys ("a|b|c") the registered plugin name takes; NULL for one not registered. */
static const char *plugin_keys(const char *name)
{
    for (size_t k = 0; name && k < sizeof REGISTERED_PLUGINS / sizeof REGISTERED_PLUGINS[0]; k++)
        if (strcmp(REGISTERED_PLUGINS[k].name, name) == 0) return REGISTERED_PLUGINS[k].keys;
    return NULL;
}

/* words ("a|b|c") as a reader's list ("a, b, c") in out (len bytes, len > 0). */
static void list_words(const char *words, char *out, size_t len)
{
    size_t n = 0;
    for (const char *w = words; *w && n + 3 < len; w++) {
        if (*w == '|') out[n++] = ',';
        out[n++] = *w == '|' ? ' ' : *w;
    }
    out[n] = '\0';
}

/* Each <config> of e (an <instance>, or a plugin actuator or sensor of no instance) gives a
 * key= plugin takes: MuJoCo refuses any other, "" too ("unrecognized attribute 'plugin:zz'
 * for plugin mujoco.pid"). Its key= is there (check_required_attributes). */
static int check_config_known(mjcf *rd, u2d_xml *e, const char *plugin)
{
    const char *keys = plugin_keys(plugin);
    for (u2d_xml *c = u2d_xml_first(e); keys && c; c = u2d_xml_next(c)) {
        const char *key = u2d_xml_attr(c, "key");
        if (strcmp(u2d_xml_name(c), "config") != 0 || !key || word_index(keys, key) >= 0)
            continue;
        char listed[120];
        list_words(keys, listed, sizeof listed);
        return fail(rd, c, "<config> key=\"%.60s\" is not a setting of plugin %s (MuJoCo "
                    "refuses it: \"unrecognized attribute 'plugin:%.60s'\"): %s takes %s; "
                    "correct the key or remove the <config>", key, plugin, key, plugin, listed);
    }
    return 0;
}

/* The plugin (its plugin= name) the file's <extension> declares as name (what "plugin") or
 * holding an <instance> named name (what "instance"); NULL for none. Binary searches of
 * index_plugins' tables. */
static const char *declared_plugin(const mjcf *rd, const char *what, const char *name)
{
    if (strcmp(what, "plugin") == 0) {
        return lookup(rd->declared, rd->ndeclared, name) >= 0 ? name : NULL;
    }
    const mj_instance *i = find_instance(rd, name);
    const char *declared = i ? u2d_xml_attr(i->plugin, "plugin") : NULL;
    return i ? (declared ? declared : "") : NULL;
}

/* A plugin actuator, sensor, geom or mesh (section's <plugin>) uses a plugin that supports
 * it: MuJoCo refuses mujoco.pid as a sensor, touch_grid or an sdf plugin as an actuator
 * ("plugin ... does not support actuators"), any but an sdf plugin in a geom or mesh ("does
 * not support sign[ed] distance fields"). used is the plugin's name; one not registered is
 * refused where it is declared (check_extension_plugin). */
static int check_plugin_capability(mjcf *rd, u2d_xml *e, const char *section, const char *used)
{
    int need = strcmp(section, "actuator") == 0 ? PLUGIN_ACTUATOR
             : strcmp(section, "sensor") == 0 ? PLUGIN_SENSOR : PLUGIN_SDF;
    int use = plugin_use(used);
    if (!use || (use & need)) return 0;
    const char *fits = use & PLUGIN_ACTUATOR ? "an <actuator>'s <plugin>"
                     : use & PLUGIN_SENSOR ? "a <sensor>'s <plugin>"
                     : "a geom's or mesh's <plugin>";
    const char *what = need == PLUGIN_ACTUATOR ? "actuators" : need == PLUGIN_SENSOR ? "sensors"
                     : strcmp(section, "geom") == 0 ? "sign distance fields"    /* sic */
                     : "signed distance fields";
    const char *is = need == PLUGIN_ACTUATOR ? "an actuator" : need == PLUGIN_SENSOR
                     ? "a sensor" : "a signed distance field (mujoco.sdf.*)";
    return fail(rd, e, "<plugin> in <%s> uses plugin '%.100s', which is not %s (MuJoCo refuses "
                "it: \"plugin '%.100s' does not support %s\"): use it as %s, or remove the "
                "<plugin>", section, used, is, used, what, fits);
}

/* Attribute attr of a plugin actuator or sensor e, NULL when absent or empty: MuJoCo reads
 * an empty plugin= or instance= there as none. */
static const char *plugin_attr(u2d_xml *e, const char *attr)
{
    const char *v = u2d_xml_attr(e, attr);
    return v && v[0] ? v : NULL;
}

/* The children of <plugin> p are <config> elements holding none, as MuJoCo's schema has
 * them, whatever their attributes. */
static int check_plugin_children(mjcf *rd, u2d_xml *p)
{
    for (u2d_xml *c = u2d_xml_first(p); c; c = u2d_xml_next(c)) {
        if (check_schema_row(rd, c, "plugin", "plugin")) return -1;
        for (u2d_xml *g = u2d_xml_first(c); g; g = u2d_xml_next(g))
            if (check_schema_row(rd, g, "config", "config")) return -1;
    }
    return 0;
}

/* The <config> children of plugin element p as MuJoCo's reader takes them where its schema
 * check does not reach: each with key= and value=, each key once; others ignored. */
static int check_own_configs(mjcf *rd, u2d_xml *p)
{
    for (u2d_xml *c = u2d_xml_first(p); c; c = u2d_xml_next(c))
        if (strcmp(u2d_xml_name(c), "config") == 0 && check_required_attributes(rd, c, "config"))
            return -1;
    return check_config_keys(rd, p);
}

/* A plugin actuator or sensor, or a geom's or mesh's <plugin> (in section) names a plugin
 * the file declares in <extension> or an <instance> of one, as MuJoCo requires, of a plugin
 * that supports what it is, and holds only <config> elements. */
static int check_plugin_use(mjcf *rd, u2d_xml *e, const char *section, int schema)
{
    if (strcmp(u2d_xml_name(e), "plugin") != 0) return 0;
    const char *plugin = plugin_attr(e, "plugin"), *instance = plugin_attr(e, "instance");
    const char *of_instance = instance ? declared_plugin(rd, "instance", instance) : NULL;
    if (!plugin && !instance)
        return fail(rd, e, "<plugin> gives neither plugin= nor instance= (an empty one is none; "
                    "MuJoCo refuses it: \"neither 'plugin' nor 'instance' is specified\"): give "
                    "plugin= a plugin the file declares in <extension>, or instance= the name= "
                    "of an <instance> of one");
    if (plugin && !declared_plugin(rd, "plugin", plugin))
        /* 190 characters and the name thrice at most 60: within fail's 380 */
        return fail(rd, e, "<plugin> plugin=\"%.60s\" is not declared in the file's "
                    "<extension> (MuJoCo refuses it: \"unrecognized plugin '%.60s'\"): declare "
                    "it with <extension><plugin plugin=\"%.60s\"/></extension>, or remove the "
                    "<plugin>", plugin, plugin, plugin);
    if (instance && !of_instance)
        /* 190 characters and the name twice at most 90: within fail's 380 */
        return fail(rd, e, "<plugin> instance=\"%.90s\" names no <instance> in the file's "
                    "<extension> (MuJoCo refuses it: \"unrecognized name '%.90s' for plugin "
                    "instance\"): give the name= of an <instance> inside <extension><plugin>",
                    instance, instance);
    if (check_plugin_capability(rd, e, section, plugin ? plugin : of_instance)) return -1;
    /* Of an instance, MuJoCo reads the instance's <config> elements and ignores these: its
       schema has only <config> there, but a key= or value= missing or a key given twice
       loads. */
    if (instance) return schema ? check_plugin_children(rd, e) : 0;
    return (schema ? check_descendants(rd, e, "plugin") : check_own_configs(rd, e)) ||
           check_config_known(rd, e, plugin);
}

/* The <plugin> children of geom or mesh e: MuJoCo's schema has only <plugin> there, each
 * holding <config> elements only. It reads the first as it reads a plugin actuator's (an
 * sdf plugin) and ignores any other: a finding says so. schema 0: MuJoCo's schema check
 * does not reach e (a geom inside a <frame>), only its reader. */
static int check_shape_plugins(mjcf *rd, u2d_xml *e, int schema)
{
    const char *tag = u2d_xml_name(e);
    u2d_xml *used = NULL;
    for (u2d_xml *c = u2d_xml_first(e); c; c = u2d_xml_next(c)) {
        if (schema && (check_schema_row(rd, c, tag, "shape") || check_plugin_children(rd, c)))
            return -1;
        if (strcmp(u2d_xml_name(c), "plugin") != 0) continue;
        if (!used) { used = c; continue; }
        note(rd, c, "<%s> has a second <plugin>: MuJoCo reads only the first and ignores this "
             "one (its plugin=, instance= and <config> elements unchecked); remove it", tag);
    }
    return used ? check_plugin_use(rd, used, tag, schema) : 0;
}

/* Every geom's <plugin> (check_shape_plugins) and what a body's joints, sites, cameras,
 * lights and <inertial> hold (nothing), walking <worldbody> with a stack: MuJoCo's schema
 * check stops at a <frame>, so below one only what its reader checks is. */
static int check_geom_plugins(mjcf *rd)
{
    typedef struct { u2d_xml *next; int in_frame; } level;
    level *st = NULL;
    int top = 0, cap = 0, status = 0;
    for (u2d_xml *w = u2d_xml_first(rd->root); w && !status; w = u2d_xml_next(w)) {
        if (strcmp(u2d_xml_name(w), "worldbody") != 0) continue;
        if (grow(rd, (void **)&st, &cap, top, sizeof *st)) { status = -1; break; }
        st[top++] = (level){u2d_xml_first(w), 0};
        while (top > 0 && !status) {
            level L = st[top - 1];
            if (!L.next) { top--; continue; }
            st[top - 1].next = u2d_xml_next(L.next);
            const char *tag = u2d_xml_name(L.next);
            int frame = strcmp(tag, "frame") == 0;
            if (strcmp(tag, "geom") == 0)
                status = check_shape_plugins(rd, L.next, !L.in_frame);
            else if (!L.in_frame &&
                     word_index("joint|freejoint|site|camera|light|inertial", tag) >= 0)
                status = check_descendants(rd, L.next, tag);
            else if (frame || strcmp(tag, "body") == 0) {
                if (grow(rd, (void **)&st, &cap, top, sizeof *st)) { status = -1; break; }
                st[top++] = (level){u2d_xml_first(L.next), L.in_frame || frame};
            }
        }
    }
    free(st);
    return status;
}

/* Whether an actuator of the file is a <plugin> of the instance named name (never of one
 * named "": an empty instance= is none). */
static int instance_drives_actuator(const mjcf *rd, const char *name)
{
    const mj_instance *i = name[0] ? find_instance(rd, name) : NULL;
    return i && i->driven;
}

/* An <extension>'s <plugin> (its plugin= is there: check_reference) declares a plugin
 * MuJoCo 4 registers (REGISTERED_PLUGINS) and holds what MuJoCo's schema has there. */
static int check_extension_plugin(mjcf *rd, u2d_xml *p)
{
    const char *name = u2d_xml_attr(p, "plugin");
    if (strcmp(u2d_xml_name(p), "plugin") != 0 || !name) return 0;
    if (!plugin_use(name))
        /* 254 characters and the name twice at most 60: within fail's 380 */
        return fail(rd, p, "<plugin> plugin=\"%.60s\" in <extension> is not a plugin MuJoCo 4 "
                    "registers (MuJoCo refuses it: \"plugin %.60s not found\"; it has "
                    "mujoco.pid, mujoco.sensor.touch_grid and mujoco.sdf.bolt, bowl, gear, nut "
                    "and torus): remove the declaration and the elements that use it",
                    name, name);
    if (check_descendants(rd, p, "extension plugin")) return -1;
    for (u2d_xml *i = u2d_xml_first(p); i; i = u2d_xml_next(i))
        if (check_config_known(rd, i, name)) return -1;
    return 0;
}

/* Each <instance> of mujoco.pid drives an actuator: the plugin's init fails otherwise
 * ("actuator not found for plugin instance"). MuJoCo finds it once the model compiles, so
 * it is checked after every other reference. */
static int check_pid_instances(mjcf *rd)
{
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s)) {
        if (strcmp(u2d_xml_name(s), "extension") != 0) continue;
        for (u2d_xml *p = u2d_xml_first(s); p; p = u2d_xml_next(p)) {
            const char *plugin = u2d_xml_attr(p, "plugin");
            if (!plugin || strcmp(plugin, "mujoco.pid") != 0) continue;
            for (u2d_xml *i = u2d_xml_first(p); i; i = u2d_xml_next(i)) {
                const char *name = u2d_xml_attr(i, "name");
                if (!name || instance_drives_actuator(rd, name))
                    continue;       /* one without name= is refused before (its schema) */
                if (!name[0])
                    return fail(rd, i, "<instance> name=\"\" of mujoco.pid drives no actuator, "
                                "and none can name it (an empty instance= is none; MuJoCo "
                                "refuses it: \"actuator not found for plugin instance\"): give "
                                "it a name and use that in <actuator><plugin instance=\"...\" "
                                "joint=\"...\"/></actuator>, or remove it");
                /* 188 characters and the name twice at most 90: within fail's 380 */
                return fail(rd, i, "<instance> '%.90s' of mujoco.pid drives no actuator "
                            "(MuJoCo refuses it: \"actuator not found for plugin instance\"): "
                            "use it in <actuator><plugin instance=\"%.90s\" joint=\"...\"/>"
                            "</actuator>, or remove it", name, name);
            }
        }
    }
    return 0;
}

/* ---- what the plugins' init checks (MuJoCo runs it when it compiles the model) ---------- */

/* The <instance> named name in the file's <extension>, NULL for none. */
static u2d_xml *instance_element(const mjcf *rd, const char *name)
{
    const mj_instance *i = find_instance(rd, name);
    return i ? i->node : NULL;
}

/* The element whose <config> settings a plugin actuator or sensor e uses: the <instance> it
 * names (MuJoCo ignores e's own then), else e; NULL for an instance the file lacks (refused
 * by check_plugin_use). */
static u2d_xml *settings_holder(const mjcf *rd, u2d_xml *e)
{
    const char *instance = plugin_attr(e, "instance");
    return instance ? instance_element(rd, instance) : e;
}

/* The plugin (its name) a plugin actuator or sensor e uses, NULL for none declared. */
static const char *used_plugin(const mjcf *rd, u2d_xml *e)
{
    const char *instance = plugin_attr(e, "instance");
    return instance ? declared_plugin(rd, "instance", instance) : plugin_attr(e, "plugin");
}

/* The <config key=key> of holder, NULL for none (a key given twice is refused before). */
static u2d_xml *config_element(u2d_xml *holder, const char *key)
{
    for (u2d_xml *c = u2d_xml_first(holder); c; c = u2d_xml_next(c)) {
        const char *k = u2d_xml_attr(c, "key");
        if (strcmp(u2d_xml_name(c), "config") == 0 && k && strcmp(k, key) == 0) return c;
    }
    return NULL;
}

/* The value= of holder's <config key=key>, "" when it has none (as mj_getPluginConfig). */
static const char *config_value(u2d_xml *holder, const char *key)
{
    u2d_xml *c = config_element(holder, key);
    const char *v = c ? u2d_xml_attr(c, "value") : NULL;
    return v ? v : "";
}

/* A mujoco.pid setting as the plugin reads it: given when its value is not empty, then
 * *value is what strtod reads of it ("abc" is 0). */
static int pid_setting(u2d_xml *holder, const char *key, double *value)
{
    const char *v = config_value(holder, key);
    if (!v[0]) return 0;
    *value = strtod(v, NULL);
    return 1;
}

/* The activation states mujoco.pid keeps of the settings in holder: the error's integral
 * for a nonzero ki, the previous control for a slewmax. */
static int pid_states(u2d_xml *holder)
{
    double ki = 0, slewmax;
    pid_setting(holder, "ki", &ki);
    return (ki != 0) + pid_setting(holder, "slewmax", &slewmax);
}

/* mujoco.pid's settings in holder are ones its init takes: an imax of the sign of ki
 * (imax/ki bounds the integral) and a slewmax of 0 or more ("negative imax", "slewmax must
 * be non-negative"). */
static int check_pid_settings(mjcf *rd, u2d_xml *holder)
{
    double ki = 0, imax, slewmax;
    pid_setting(holder, "ki", &ki);
    if (pid_setting(holder, "imax", &imax) && ki != 0 && imax / ki < 0)
        return fail(rd, config_element(holder, "imax"), "mujoco.pid <config> imax=\"%g\" with "
                    "ki=\"%g\" bounds the integral by %g, a negative bound (MuJoCo refuses it: "
                    "\"negative imax\"): give imax the sign of ki (a maximum force, 0 or more "
                    "for a positive ki)", imax, ki, imax / ki);
    if (pid_setting(holder, "slewmax", &slewmax) && slewmax < 0)
        return fail(rd, config_element(holder, "slewmax"), "mujoco.pid <config> slewmax=\"%g\" "
                    "is negative (MuJoCo refuses it: \"slewmax must be non-negative\"): give "
                    "the largest control change per second, 0 or more", slewmax);
    return 0;
}

/* Plugin actuator e (the index-th actuator) of mujoco.pid, its settings in holder, has the
 * activation states the plugin keeps (pid_states), plus one of its own dyntype's filter or
 * integrator: MuJoCo's actdim= (by default one for a dyntype other than none).
 * The plugin's init refuses any other ("actuator 0 has actdim 0, expected 1"). */
static int check_pid_actdim(mjcf *rd, u2d_xml *e, int index, u2d_xml *holder)
{
    int cls = class_attr(rd, e, "class", 0);
    if (cls < 0) return -1;
    actuator_dynamics a;
    if (plugin_dynamics(rd, e, cls, &a) < 0) return -1;
    /* a pid dyntype's states follow its own ki and slewmax, not tracked here, as is a
     * dcmotor dyntype no <dcmotor> default set: MuJoCo checks */
    int dcmotor = strcmp(a.dyntype, "dcmotor") == 0;
    if (strcmp(a.dyntype, "pid") == 0 || (dcmotor && a.dcmotor_states < 0)) return 0;
    const char *dyn = a.dyntype, *actdim = a.actdim;
    long written = actdim ? strtol(actdim, NULL, 10) : -1;
    if (written > 2147483647L) written = 2147483647L;   /* an int, as MuJoCo reads actdim */
    int given = written < -1 ? -1 : (int)written;
    int own = word_index("filter|filterexact|integrator", dyn) >= 0;
    int has = given >= 0 ? given : a.shortcut_actdim >= 0 ? a.shortcut_actdim
                                                           : strcmp(dyn, "none") != 0;
    int expected = pid_states(holder) + own;
    const char *name = u2d_xml_attr(e, "name");
    char label[ACTUATOR_LABEL];
    actuator_label(name, index, label);
    /* a dcmotor's actdim must also be its own states: an actdim= cannot serve both */
    char advice[200];
    if (dcmotor && a.dcmotor_states != expected)
        snprintf(advice, sizeof advice, "use a class whose <dcmotor> settings keep %d states, "
                 "or one without", expected);
    else snprintf(advice, sizeof advice, "give the <plugin> actdim=\"%d\"", expected);
    if (has != expected)
        return fail(rd, e, "%s has %d activation states (actdim) but mujoco.pid keeps %d "
                    "(one each for a nonzero ki, a slewmax and a dyntype filter, filterexact "
                    "or integrator; MuJoCo refuses it: \"actuator "
                    "%d has actdim %d, expected %d\"): %s", label, has, expected, index, has,
                    expected, advice);
    if (dcmotor && has > 0 && has != a.dcmotor_states)     /* with none it keeps none */
        return fail(rd, e, "%s has %d activation states (actdim) but its class's <dcmotor> "
                    "keeps %d (one each for an inductance, a thermal capacitance and a lugre "
                    "stiffness above 0; MuJoCo refuses it: \"inconsistent state array "
                    "dimension in DC motor\"): %s", label, has, a.dcmotor_states, advice);
    return 0;
}

/* Whether touch_grid reads v as a number: with every space taken out, strtod reads all of
 * it ("" too, "1 2" as 12; "1e" not). -1 (message) when out of memory. */
static int grid_number(mjcf *rd, const char *v)
{
    char *packed = malloc(strlen(v) + 1), *end;
    if (!packed) return fail(rd, NULL, "out of memory");
    size_t n = 0;
    for (const char *c = v; *c; c++)
        if (!strchr(" \t\n\v\f\r", *c)) packed[n++] = *c;
    packed[n] = '\0';
    strtod(packed, &end);
    int whole = *end == '\0';
    free(packed);
    return whole;
}

/* The items of a touch_grid list (size=, fov=) as the plugin splits it: at each space, an
 * empty last item dropped ("2 3 " has two, " 2 3" and "2  3" three), each read by strtod
 * (0 for an empty one). The first max into out; returns how many there are. */
static int grid_items(const char *v, double *out, int max)
{
    int n = 0;
    for (const char *p = v; *p; n++) {
        size_t len = strcspn(p, " ");
        char *end;
        double x = strtod(p, &end);
        if (n < max) out[n] = len && end <= p + len ? x : 0;   /* a number of this item */
        p += len + (p[len] == ' ');
    }
    return n;
}

/* Where a refusal of holder's setting key points: its <config>, or holder without one. */
static u2d_xml *setting_at(u2d_xml *holder, const char *key)
{
    u2d_xml *c = config_element(holder, key);
    return c ? c : holder;
}

/* touch_grid's gamma= and nchannel= are numbers, nchannel from 1 to 6 (0 is 1). */
static int check_grid_numbers(mjcf *rd, u2d_xml *holder)
{
    static const char *const KEYS[2] = {"gamma", "nchannel"};
    for (int k = 0; k < 2; k++) {
        const char *v = config_value(holder, KEYS[k]);
        int number = grid_number(rd, v);
        if (number < 0) return -1;
        if (!number)
            return fail(rd, setting_at(holder, KEYS[k]), "mujoco.sensor.touch_grid <config> "
                        "%s=\"%.60s\" is not a number (MuJoCo refuses it: \"Invalid or missing "
                        "parameters in touch_grid sensor plugin\"): give a number", KEYS[k], v);
    }
    double nchannel = strtod(config_value(holder, "nchannel"), NULL);
    if (!(nchannel == 0 || (nchannel >= 1 && nchannel <= 6)))   /* NaN refused too */
        return fail(rd, setting_at(holder, "nchannel"), "mujoco.sensor.touch_grid <config> "
                    "nchannel=\"%g\" is not from 1 to 6 (MuJoCo refuses it: \"nchannel must "
                    "be between 1 and 6\"): give 1 to 6 channels", nchannel);
    return 0;
}

/* x >= 1 without its fraction (as an int holds it; a cast would overflow on a huge one). */
static double whole(double x)
{
    return x < 1e15 ? (double)(long long)x : x;
}

/* touch_grid's size= is two whole numbers of taxels, 1 or more, each within an int as
 * written and the product of their whole parts and nchannel's (0 is 1) too ("Horizontal
 * and vertical resolutions ..."): MuJoCo 4.0.0 refuses "2147483647.5 1" but loads
 * "1073741823.9 2", and counts nchannel="2.9" as 2 channels. */
static int check_grid_size(mjcf *rd, u2d_xml *holder)
{
    double size[2] = {0, 0};
    double nchannel = whole(strtod(config_value(holder, "nchannel"), NULL));
    u2d_xml *at = setting_at(holder, "size");
    if (grid_items(config_value(holder, "size"), size, 2) != 2)
        return fail(rd, at, "mujoco.sensor.touch_grid needs size=\"<columns> <rows>\", two "
                    "numbers of taxels separated by one space (MuJoCo refuses it: \"Both "
                    "horizontal and vertical resolutions must be specified\"): give them in "
                    "a <config key=\"size\" value=\"8 8\"/>");
    if (!(size[0] >= 1 && size[1] >= 1))
        return fail(rd, at, "mujoco.sensor.touch_grid size=\"%g %g\" has fewer than one taxel "
                    "(MuJoCo refuses it: \"Horizontal and vertical resolutions must be "
                    "positive\"): give whole numbers, 1 or more", size[0], size[1]);
    if (size[0] > 2147483647.0 || size[1] > 2147483647.0 ||
        (nchannel != 0 ? nchannel : 1) * whole(size[0]) * whole(size[1]) > 2147483647.0)
        return fail(rd, at, "mujoco.sensor.touch_grid size=\"%.60s\" (times %g channels) "
                    "has more taxels than an int counts (MuJoCo refuses it: \"Horizontal and "
                    "vertical resolutions are too large\"): give fewer",
                    config_value(holder, "size"), nchannel != 0 ? nchannel : 1);
    return 0;
}

/* touch_grid's fov= is two angles in degrees, in (0, 180] and (0, 90], and gamma= is in
 * [0, 1]. */
static int check_grid_view(mjcf *rd, u2d_xml *holder)
{
    double fov[2] = {0, 0}, gamma = strtod(config_value(holder, "gamma"), NULL);
    u2d_xml *at = setting_at(holder, "fov");
    if (grid_items(config_value(holder, "fov"), fov, 2) != 2)
        return fail(rd, at, "mujoco.sensor.touch_grid needs fov=\"<horizontal> <vertical>\", "
                    "two angles in degrees separated by one space (MuJoCo refuses it: \"Both "
                    "horizontal and vertical fields of view must be specified\"): give them in "
                    "a <config key=\"fov\" value=\"45 45\"/>");
    for (int k = 0; k < 2; k++) {
        double top = k ? 90 : 180;
        if (fov[k] <= 0 || fov[k] > top)
            return fail(rd, at, "mujoco.sensor.touch_grid fov=\"%g %g\": its %s angle is not "
                        "in (0, %g] degrees (MuJoCo refuses it: \"`fov[%d]` must be a float "
                        "between (0, %g] degrees\"): give one in that range", fov[0], fov[1],
                        k ? "vertical" : "horizontal", top, k, top);
    }
    if (gamma < 0 || gamma > 1)
        return fail(rd, setting_at(holder, "gamma"), "mujoco.sensor.touch_grid gamma=\"%g\" "
                    "is not in [0, 1] (MuJoCo refuses it: \"`gamma` must be a nonnegative "
                    "float between [0, 1]\"): give 0 (no foveal deformation) to 1", gamma);
    return 0;
}

/* touch_grid's settings in holder are ones its init takes, checked in the order it checks
 * them (so the refusal gives MuJoCo's reason). */
static int check_grid_settings(mjcf *rd, u2d_xml *holder)
{
    return check_grid_numbers(rd, holder) || check_grid_size(rd, holder) ||
           check_grid_view(rd, holder) ? -1 : 0;
}

/* A touch_grid sensor e is attached to a site ("Touch Grid sensor must be attached to a
 * site"). */
static int check_grid_site(mjcf *rd, u2d_xml *e)
{
    const char *objtype = u2d_xml_attr(e, "objtype");
    if (objtype && strcmp(objtype, "site") == 0) return 0;
    return fail(rd, e, "<plugin> sensor of mujoco.sensor.touch_grid has objtype=\"%.40s\" "
                "(MuJoCo refuses it: \"Touch Grid sensor must be attached to a site\"): give "
                "objtype=\"site\" and objname= the site it senses at", objtype ? objtype : "");
}

/* Each <instance> of mujoco.pid or touch_grid has settings the plugin's init takes (it runs
 * for every instance, used or not). */
static int check_instance_inits(mjcf *rd)
{
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s)) {
        if (strcmp(u2d_xml_name(s), "extension") != 0) continue;
        for (u2d_xml *p = u2d_xml_first(s); p; p = u2d_xml_next(p)) {
            const char *plugin = u2d_xml_attr(p, "plugin");
            int pid = plugin && strcmp(plugin, "mujoco.pid") == 0;
            int grid = plugin && strcmp(plugin, "mujoco.sensor.touch_grid") == 0;
            for (u2d_xml *i = u2d_xml_first(p); (pid || grid) && i; i = u2d_xml_next(i))
                if (strcmp(u2d_xml_name(i), "instance") == 0 &&
                    (pid ? check_pid_settings(rd, i) : check_grid_settings(rd, i)))
                    return -1;
        }
    }
    return 0;
}

/* Plugin actuator e (the index-th actuator): one of mujoco.pid has settings (its own, of no
 * instance) and an actdim the plugin takes. */
static int check_actuator_init(mjcf *rd, u2d_xml *e, int index)
{
    const char *plugin = used_plugin(rd, e);
    u2d_xml *holder = settings_holder(rd, e);
    if (strcmp(u2d_xml_name(e), "plugin") != 0 || !plugin || !holder ||
        strcmp(plugin, "mujoco.pid") != 0)
        return 0;
    if (holder == e && check_pid_settings(rd, e)) return -1;
    return check_pid_actdim(rd, e, index, holder);
}

/* Plugin sensor e: one of touch_grid has settings (its own, of no instance) the plugin
 * takes, and is at a site. */
static int check_sensor_init(mjcf *rd, u2d_xml *e)
{
    const char *plugin = used_plugin(rd, e);
    u2d_xml *holder = settings_holder(rd, e);
    if (strcmp(u2d_xml_name(e), "plugin") != 0 || !plugin || !holder ||
        strcmp(plugin, "mujoco.sensor.touch_grid") != 0)
        return 0;
    if (holder == e && check_grid_settings(rd, e)) return -1;
    return check_grid_site(rd, e);
}

/* What mujoco.pid's and touch_grid's init refuse, of their instances, actuators and
 * sensors: MuJoCo runs it as it compiles the model ("plugin->init failed"). */
static int check_plugin_inits(mjcf *rd)
{
    if (check_instance_inits(rd)) return -1;
    int index = 0;
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s)) {
        int actuators = strcmp(u2d_xml_name(s), "actuator") == 0;
        if (!actuators && strcmp(u2d_xml_name(s), "sensor") != 0) continue;
        for (u2d_xml *e = u2d_xml_first(s); e; e = u2d_xml_next(e))
            if (actuators ? check_actuator_init(rd, e, index++) : check_sensor_init(rd, e))
                return -1;
    }
    return 0;
}

/* Whether the joint the file names name is limited (as read_joint resolved limited=). */
static int joint_limited(const mjcf *rd, const char *name)
{
    return lookup(rd->limited_joint, rd->nlimited_joint, name) >= 0;
}

/* *limited: whether the tendon the file names name is limited (its and its class's range=
 * and limited=, as MuJoCo resolves them); 0, or -1 for a range MuJoCo refuses. The tendon
 * is found in the sorted table of named elements (check_repeated_names'). */
static int tendon_limited(mjcf *rd, const char *name, int *limited)
{
    u2d_xml *e = named_element(rd, "tendons", name);
    double range[2];
    *limited = 0;
    if (!e) return 0;
    int cls = class_attr(rd, e, "class", 0);
    return cls < 0 ? -1 : limited_range(rd, e, K_TENDON, cls, "tendon", "range", "limited",
                                        range, limited);
}

/* A <jointlimit*> or <tendonlimit*> sensor measures a limit: MuJoCo refuses one on a joint
 * or tendon it does not limit ("joint must be limited in sensor"). Names check_reference
 * found. */
static int check_limit_sensor(mjcf *rd, u2d_xml *e)
{
    const char *tag = u2d_xml_name(e);
    int joint = word_index("jointlimitpos|jointlimitvel|jointlimitfrc", tag) >= 0;
    if (!joint && word_index("tendonlimitpos|tendonlimitvel|tendonlimitfrc", tag) < 0)
        return 0;
    const char *attr = joint ? "joint" : "tendon", *name = u2d_xml_attr(e, attr);
    int limited = 0;
    if (!name) return 0;
    if (joint) limited = joint_limited(rd, name);
    else if (tendon_limited(rd, name, &limited) < 0) return -1;
    if (limited) return 0;
    return fail(rd, e, "<%s> %s=\"%.100s\" is not limited (MuJoCo refuses it: \"%s must be "
                "limited in sensor\"): give the %s a range= (with limited=\"true\", or compiler "
                "autolimits on), or remove the <%s>", tag, attr, name, attr, attr, tag);
}

enum { P_NONE, P_SITE, P_GEOM, P_PULLEY };      /* a spatial tendon's path element */

static int path_kind(u2d_xml *e)
{
    return e ? 1 + word_index("site|geom|pulley", u2d_xml_name(e)) : P_NONE;
}

/* The type (GEOM_TYPES' index) of the geom the file names name; -1 for none. */
static int geom_type(const mjcf *rd, const char *name)
{
    return name ? lookup(rd->named_geom, rd->nnamed_geom, name) : -1;
}

/* A path's geom: a sphere or a cylinder, between two sites. */
static int check_path_geom(mjcf *rd, u2d_xml *g, int before, int after, int pos)
{
    const char *name = u2d_xml_attr(g, "geom");
    int type = geom_type(rd, name);
    if (before != P_SITE || after != P_SITE)
        return fail(rd, g, "<geom> geom=\"%.100s\" in a spatial tendon's path is not between "
                    "two sites (MuJoCo refuses it: \"geom at pos %d not bracketed by sites\"): "
                    "put a <site> before and after it", name ? name : "", pos);
    if (type >= 0 && type != U2D_GEOM_SPHERE && type != U2D_GEOM_CYLINDER)
        return fail(rd, g, "<geom> geom=\"%.100s\" in a spatial tendon's path is not a sphere or "
                    "cylinder (MuJoCo refuses it: \"is not sphere or cylinder\"): a tendon wraps "
                    "around spheres and cylinders only, name one", name);
    return 0;
}

/* A path's pulley: its divisor given and positive, neither last nor next to a pulley. */
static int check_path_pulley(mjcf *rd, u2d_xml *p, int after)
{
    double divisor = 0;
    int n = numbers(rd, p, "divisor", 1, 1, &divisor);
    if (n < 0) return -1;
    if (n == 0)
        return fail(rd, p, "<pulley> needs divisor= (MuJoCo's schema requires it: \"required "
                    "attribute missing\"): give it, 1 for a plain branch");
    if (!(divisor > 0))
        return fail(rd, p, "<pulley> divisor=\"%g\": the divisor must be positive (MuJoCo "
                    "refuses it): give a positive divisor", divisor);
    if (after == P_PULLEY || after == P_NONE)
        return fail(rd, p, "<pulley> %s (MuJoCo refuses it: \"%s\"): a pulley starts a branch "
                    "of sites and geoms", after ? "follows a pulley" : "ends a spatial tendon's "
                    "path", after ? "consecutive pulleys" : "path ends with pulley");
    return 0;
}

/* A path's site: beside a site or geom (each branch between pulleys holds two sites at
 * least), and not following itself. */
static int check_path_site(mjcf *rd, u2d_xml *s, u2d_xml *next, int before, int pos)
{
    int after = path_kind(next);
    const char *name = u2d_xml_attr(s, "site");
    if ((before == P_NONE || before == P_PULLEY) && (after == P_NONE || after == P_PULLEY))
        return fail(rd, s, "<site> site=\"%.100s\" in a spatial tendon's path has only pulleys "
                    "or the path's ends beside it (MuJoCo refuses it: \"site %d needs a neighbor "
                    "that is not a pulley\"): each branch, between pulleys, needs two sites at "
                    "least", name ? name : "", pos);
    const char *again = after == P_SITE ? u2d_xml_attr(next, "site") : NULL;
    if (name && again && strcmp(name, again) == 0)
        return fail(rd, next, "<site> site '%.100s' follows itself in a spatial tendon's path "
                    "(MuJoCo refuses it: \"site %d is repeated\"): remove one", name, pos);
    return 0;
}

/* MuJoCo's rules for a spatial tendon's path (mjCTendon's compiler): at least two elements,
 * then each geom, pulley and site as the three functions above check them. */
static int check_spatial_path(mjcf *rd, u2d_xml *e)
{
    if (strcmp(u2d_xml_name(e), "spatial") != 0) return 0;
    int n = 0, before = P_NONE, status = 0;
    for (u2d_xml *g = u2d_xml_first(e); g; g = u2d_xml_next(g)) n++;
    if (n == 1)
        return fail(rd, e, "<spatial> has one element in its path (MuJoCo refuses it: \"spatial "
                    "path must contain at least two objects\"): give it two sites at least");
    int pos = 0;
    for (u2d_xml *g = u2d_xml_first(e); g && !status; g = u2d_xml_next(g), pos++) {
        int kind = path_kind(g), after = path_kind(u2d_xml_next(g));
        status = kind == P_GEOM ? check_path_geom(rd, g, before, after, pos)
               : kind == P_PULLEY ? check_path_pulley(rd, g, after)
               : kind == P_SITE ? check_path_site(rd, g, u2d_xml_next(g), before, pos) : 0;
        before = kind;
    }
    return status;
}

/* Element e (inside parent): its class, its form, and every name it refers to. */
static int check_element_references(mjcf *rd, u2d_xml *e, const char *parent)
{
    const char *tag = u2d_xml_name(e);
    if (word_index("pair|connect|weld|joint|tendon|flex|fixed|spatial", tag) >= 0 &&
        word_index("contact|equality|tendon", parent) >= 0 && class_attr(rd, e, "class", 0) < 0)
        return -1;
    if (check_schema(rd, e, parent) ||
        (word_index("actuator|sensor", parent) >= 0 && check_plugin_use(rd, e, parent, 1)) ||
        (strcmp(parent, "equality") == 0 &&
         (check_equality_form(rd, e) || check_equality_distinct(rd, e))) ||
        (strcmp(parent, "sensor") == 0 && check_sensor_form(rd, e)) || check_not_empty(rd, e))
        return -1;
    if (strcmp(parent, "sensor") == 0) {
        char who[160];
        const char *name = u2d_xml_attr(e, "name");
        snprintf(who, sizeof who, "<%.40s>%s%.100s%s", tag, name ? " '" : "", name ? name : "",
                 name ? "'" : "");
        if (check_delay_history(rd, e, -1, who) || check_sensor_values(rd, e, who)) return -1;
    }
    for (size_t k = 0; k < sizeof REFERENCES / sizeof REFERENCES[0]; k++) {
        const mj_reference *r = &REFERENCES[k];
        if (strcmp(r->parent, parent) == 0 && word_index(r->tags, tag) >= 0 &&
            check_reference(rd, e, r))
            return -1;
    }
    if (check_joint_types(rd, e, parent) ||
        (strcmp(parent, "sensor") == 0 &&
         (check_rangefinder(rd, e) || check_limit_sensor(rd, e) ||
          check_pair_sensor(rd, e))))
        return -1;
    return 0;
}

/* Whether <texture> e names a non-empty file in one of the '|'-separated attributes. */
static int has_texture_file(u2d_xml *e, const char *attrs)
{
    char name[16];
    for (const char *a = attrs; *a;) {
        size_t n = strcspn(a, "|");
        snprintf(name, sizeof name, "%.*s", (int)n, a);
        const char *v = u2d_xml_attr(e, name);
        if (v && v[0]) return 1;
        a += n + (a[n] == '|');
    }
    return 0;
}

/* c with an ASCII capital made small (not ctype's tolower: the locale must not count). */
static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether a and b are the same text, ASCII letters in either case. */
static int same_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (ascii_lower(*a) != ascii_lower(*b)) return 0;
    return *a == *b;
}

/* The content type MuJoCo 4 gives a texture's file: its content_type= "type/subtype", a
 * ";parameter=value" after it aside ("" when it is not of that form), else what the file's
 * extension (from its last '.', any case) names, "" for one it does not know. Into out. */
static void texture_content_type(const char *file, const char *content_type, char *out,
                                 size_t len)
{
    static const char *const EXT[][2] = {
        {".png", "image/png"}, {".ktx", "image/ktx"}, {".stl", "model/stl"},
        {".obj", "model/obj"}, {".ply", "model/ply"}, {".msh", "model/vnd.mujoco.msh"}};
    out[0] = '\0';
    if (content_type && content_type[0]) {
        const char *slash = strchr(content_type, '/'), *semi = strchr(content_type, ';');
        const char *eq = strchr(content_type, '=');
        if (!slash || !slash[1] || (semi && (semi < slash || !eq || eq < semi))) return;
        snprintf(out, len, "%.*s", (int)(semi ? semi - content_type : (long)strlen(content_type)),
                 content_type);
        return;
    }
    const char *dot = strrchr(file, '.');
    for (size_t k = 0; dot && k < sizeof EXT / sizeof EXT[0]; k++)
        if (same_ignoring_case(dot, EXT[k][0])) snprintf(out, len, "%s", EXT[k][1]);
}

/* Each file MuJoCo 4.0.0 would read for texture e (its file=, else a cube's faces) is an
 * image it reads, PNG or KTX by its content_type= or extension: it refuses another before
 * opening it ("unsupported content type"). The files are not opened here. 0 or -1. */
static int check_texture_files(mjcf *rd, u2d_xml *e, const char *label)
{
    static const char *const FILES[] = {"file", "fileright", "fileleft", "fileup",
                                        "filedown", "filefront", "fileback"};
    for (size_t k = 0; k < sizeof FILES / sizeof FILES[0]; k++) {
        const char *file = u2d_xml_attr(e, FILES[k]);
        if (!file || !file[0]) continue;
        char type[120];
        texture_content_type(file, u2d_xml_attr(e, "content_type"), type, sizeof type);
        if (strcmp(type, "image/png") != 0 && strcmp(type, "image/ktx") != 0)
            return fail(rd, e, "%s: %s=\"%.100s\" is not a PNG or KTX image by its %s "
                        "(MuJoCo refuses it: \"unsupported content type: '%s'\"): give a file "
                        "ending in .png or .ktx, or content_type=\"image/png\"", label,
                        FILES[k], file, u2d_xml_attr(e, "content_type") ? "content_type="
                        : "extension", type);
        if (k == 0) return 0;               /* a file= is the whole texture */
    }
    return 0;
}

/* A builtin texture e of class cls has the size MuJoCo 4.0.0 builds it at: a width of 1
 * or more (below INT_MAX/6 for a cube or skybox, six squares high) and a 2d one a height
 * of 1 or more, its own or its class's ("Invalid width of builtin texture"). 0 or -1. */
static int check_builtin_size(mjcf *rd, u2d_xml *e, int cls, int type, const char *label)
{
    const char *w = dattr(rd, e, K_TEXTURE, cls, "width");
    const char *h = dattr(rd, e, K_TEXTURE, cls, "height");
    long width = w ? strtol(w, NULL, 10) : 0, height = h ? strtol(h, NULL, 10) : 0;
    if (width < 1 || (type != 0 && width >= 2147483647L / 6))
        return fail(rd, e, "%s: a builtin texture of width %ld (MuJoCo refuses it: \"Invalid "
                    "width of builtin texture\"): give width= in pixels, 1 or more%s", label,
                    width, type != 0 ? " and below 357913941 (a cube is six squares high)" : "");
    if (type == 0 && height < 1)
        return fail(rd, e, "%s: a 2d builtin texture of height %ld (MuJoCo refuses it: "
                    "\"Invalid height of builtin texture\"): give height= in pixels, 1 or more",
                    label, height);
    return 0;
}

/* An <asset>'s <texture> has a source MuJoCo 4.0.0 loads: a builtin other than none (its
 * own or its class's) of a size it builds, else a file= or for a cube or skybox (the
 * default type) a file of its faces, each of a type it reads; a 2d one is not read from the
 * faces' files. The files themselves are not opened here. 0 or -1 (message). */
static int check_texture_source(mjcf *rd, u2d_xml *e)
{
    int cls = class_attr(rd, e, "class", 0);
    if (cls < 0) return -1;
    const char *builtin = dattr(rd, e, K_TEXTURE, cls, "builtin");
    int type = dkeyword(rd, e, K_TEXTURE, cls, "type", "2d|cube|skybox", 1);
    if (type < 0) return -1;
    const char *name = u2d_xml_attr(e, "name");
    char label[140];        /* the name cut at 40: its refusals' fix stays within fail's 380 */
    if (name && name[0]) snprintf(label, sizeof label, "texture '%.40s'", name);
    else snprintf(label, sizeof label, "<texture>");
    if (builtin && strcmp(builtin, "none") != 0)
        return check_builtin_size(rd, e, cls, type, label);
    if (has_texture_file(e, "file")) return check_texture_files(rd, e, label);
    if (type == 0)
        return fail(rd, e, "%s: a 2d texture with no file= and no builtin= (MuJoCo refuses "
                    "it: \"Cannot load 2D texture from separate files\"): give file=, or a "
                    "builtin= such as \"checker\" with width= and height=", label);
    if (has_texture_file(e, "fileright|fileleft|fileup|filedown|filefront|fileback"))
        return check_texture_files(rd, e, label);
    return fail(rd, e, "%s: a %s texture with no file=, builtin= or face files (MuJoCo refuses "
                "it: \"No cubefiles_ defined in cube or skybox texture\"): give file=, the "
                "faces' fileright=, fileleft=, fileup=, filedown=, filefront= and fileback=, "
                "or a builtin= such as \"checker\" with width= and height=", label,
                type == 1 ? "cube" : "skybox");
}

/* An <asset>'s <skin> holds <bone> elements, as a <deformable>'s does; a <texture>'s
 * builtin= is one of MuJoCo's words, and it has a source. */
static int check_asset_skins(mjcf *rd, u2d_xml *asset)
{
    for (u2d_xml *e = u2d_xml_first(asset); e; e = u2d_xml_next(e)) {
        if (strcmp(u2d_xml_name(e), "skin") == 0 && check_descendants(rd, e, "skin")) return -1;
        if (check_texture_builtin(rd, e)) return -1;
        if (strcmp(u2d_xml_name(e), "texture") == 0 && check_texture_source(rd, e)) return -1;
    }
    return 0;
}

/* Every name the elements urdf2dyn does not model refer to (contact pairs and excludes,
 * equality constraints, tendon paths, sensors, custom tuples, skin bones) is one the file
 * gives an element of the kind MuJoCo looks for; actuators' targets are read_actuator's.
 * MuJoCo refuses any other ("not found", "unknown element", "unrecognized name"). */
static int check_references(mjcf *rd)
{
    rd->what[0] = '\0';
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s)) {
        const char *section = u2d_xml_name(s);
        if (check_schema(rd, s, "mujoco") ||
            (strcmp(section, "asset") == 0 && check_asset_skins(rd, s)))
            return -1;
        if (word_index("contact|equality|sensor|tendon|custom|deformable|actuator|extension",
                       section) < 0)
            continue;
        for (u2d_xml *e = u2d_xml_first(s); e; e = u2d_xml_next(e)) {
            if (check_element_references(rd, e, section)) return -1;
            if ((strcmp(section, "deformable") == 0 &&
                 check_descendants(rd, e, u2d_xml_name(e))) ||
                (strcmp(section, "extension") == 0 && check_extension_plugin(rd, e)) ||
                (strcmp(section, "contact") == 0 && check_pair_values(rd, e) < 0))
                return -1;
            if (word_index("tendon|custom|deformable", section) < 0) continue;
            for (u2d_xml *g = u2d_xml_first(e); g; g = u2d_xml_next(g))
                if (check_element_references(rd, g, u2d_xml_name(e))) return -1;
            if (strcmp(section, "tendon") == 0 && check_spatial_path(rd, e)) return -1;
        }
    }
    return check_pid_instances(rd) || check_plugin_inits(rd) || check_geom_plugins(rd) ? -1 : 0;
}

/* Every element of the document writes only attributes MuJoCo 4's schema gives it where it is
 * (check_attributes), the first one it does not, in document order, named; below a <frame>,
 * where MuJoCo's schema check does not reach, only as its reader reads them; not below a
 * <replicate> (urdf2dyn refuses it). A <body> directly under
 * <mujoco> is <worldbody>'s alias. Run first, as MuJoCo checks its schema before it reads
 * anything: no reader then reads an attribute the element does not have. The walk keeps its
 * own stack: bodies nest without bound. 0 or -1 (message). */
static int check_attribute_schema(mjcf *rd)
{
    typedef struct { u2d_xml *node; const char *parent; int framed; } visit;
    visit *stack = NULL;
    schema_rules *rules = malloc(sizeof *rules);
    if (!rules) return fail(rd, NULL, "out of memory");
    init_schema_rules(rules);
    int top = 0, cap = 0, status = grow(rd, (void **)&stack, &cap, 0, sizeof *stack);
    if (status == 0) stack[top++] = (visit){rd->root, "", 0};
    rd->what[0] = '\0';
    while (top > 0 && status == 0) {
        visit v = stack[--top];
        status = check_attributes(rd, v.node, v.parent, rules, v.framed);
        const char *tag = u2d_xml_name(v.node);
        if (strcmp(tag, "replicate") == 0) continue;
        int framed = v.framed || strcmp(tag, "frame") == 0;     /* MuJoCo's schema stops */
        const char *row = word_index("worldbody|body|frame", tag) >= 0 ? "body" : tag;
        int first = top;
        for (u2d_xml *c = u2d_xml_first(v.node); c && status == 0; c = u2d_xml_next(c)) {
            int world = v.node == rd->root && strcmp(u2d_xml_name(c), "body") == 0;
            status = grow(rd, (void **)&stack, &cap, top, sizeof *stack);
            if (status == 0) stack[top++] = (visit){c, world ? "body" : row, framed};
        }
        for (int a = first, b = top - 1; a < b; a++, b--) {    /* the first child on top */
            visit t = stack[a];
            stack[a] = stack[b];
            stack[b] = t;
        }
    }
    free(rules);
    free(stack);
    return status;
}

/* ---- the whole model --------------------------------------------------------------------- */

static int count_children(mjcf *rd, const char *section)
{
    int n = 0;
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s))
        if (strcmp(u2d_xml_name(s), section) == 0)
            for (u2d_xml *e = u2d_xml_first(s); e; e = u2d_xml_next(e)) n++;
    return n;
}

/* One finding listing what the model has that changes MuJoCo's inverse dynamics (mj_inverse)
 * or mass matrix and that urdf2dyn does not apply: a warning, refused under strict. */
/* The tendons, and those whose armature (their own or their class's) MuJoCo adds to its
 * mass matrix, for the summary. */
static int count_tendons(mjcf *rd)
{
    for (u2d_xml *s = u2d_xml_first(rd->root); s; s = u2d_xml_next(s)) {
        if (strcmp(u2d_xml_name(s), "tendon") != 0) continue;
        for (u2d_xml *e = u2d_xml_first(s); e; e = u2d_xml_next(e)) {
            double armature = 0, range[2];
            const char *name = u2d_xml_attr(e, "name");
            char who[140];
            if (name) snprintf(who, sizeof who, "tendon '%.100s'", name);
            else snprintf(who, sizeof who, "tendon %d (unnamed)", rd->n_tendon);
            int cls = class_attr(rd, e, "class", 0);
            if (cls < 0 || check_compiled_values(rd, e, K_TENDON, cls) < 0 ||
                dnumbers(rd, e, K_TENDON, cls, "armature", 1, 1, &armature) < 0 ||
                limited_range(rd, e, K_TENDON, cls, who, "range", "limited", range, NULL) < 0 ||
                limited_range(rd, e, K_TENDON, cls, who, "actuatorfrcrange",
                              "actuatorfrclimited", range, NULL) < 0)
                return -1;
            rd->n_tendon++;
            rd->n_tendon_armature += armature != 0;
        }
    }
    return 0;
}

typedef struct { int count; const char *what, *unit, *units; } mj_item_count;

/* "damping on 2 joints, 1 tendon" from the items with a count, into msg; its length. */
static size_t list_counts(const mj_item_count *items, size_t n, char *msg, size_t size)
{
    size_t len = 0;
    msg[0] = '\0';
    for (size_t k = 0; k < n; k++) {
        int c = items[k].count;
        if (c <= 0 || len >= size - 80) continue;
        if (items[k].unit)
            len += (size_t)snprintf(msg + len, size - len, "%s%s on %d %s", len ? ", " : "",
                                    items[k].what, c, c == 1 ? items[k].unit : items[k].units);
        else
            len += (size_t)snprintf(msg + len, size - len, "%s%d %s%s", len ? ", " : "", c,
                                    items[k].what, c == 1 ? "" : "s");
    }
    return len;
}

/* One finding for what changes MuJoCo's dynamics and is not applied, naming what changes
 * which: everything here changes mj_inverse; the mass matrix qM only the armature urdf2dyn
 * does not apply (a free joint's, a tendon's, a tendon actuator's). */
static void summarize(mjcf *rd)
{
    char all[U2D_ERRLEN], mass[U2D_ERRLEN / 2], in_mass[U2D_ERRLEN / 2 + 80] = "";
    const mj_item_count items[] = {
        {rd->n_free_armature, "armature", "free joint", "free joints"},
        {rd->n_damping, "damping", "joint", "joints"},
        {rd->n_actuator_damping, "damping", "actuator", "actuators"},
        {rd->n_actuator_tendon_armature, "tendon armature", "actuator", "actuators"},
        {rd->n_actuator_tendon_damping, "tendon damping", "actuator", "actuators"},
        {rd->n_spring, "springs", "joint", "joints"},
        {rd->n_friction, "friction loss", "joint", "joints"},
        {rd->n_gravcomp, "gravity compensation", "body", "bodies"},
        {rd->n_tendon, "tendon", NULL, NULL},
        {count_children(rd, "equality"), "equality constraint", NULL, NULL},
    };
    const mj_item_count in_qM[] = {
        {rd->n_free_armature, "armature", "free joint", "free joints"},
        {rd->n_actuator_tendon_armature, "tendon armature", "actuator", "actuators"},
        {rd->n_tendon_armature, "armature", "tendon", "tendons"},
    };
    if (!list_counts(items, sizeof items / sizeof items[0], all, sizeof all)) return;
    if (list_counts(in_qM, sizeof in_qM / sizeof in_qM[0], mass, sizeof mass))
        snprintf(in_mass, sizeof in_mass, "; the mass matrix differs from MuJoCo's qM by the "
                 "%s", mass);
    const char *given = rd->n_passive_given
        ? "; Model.passive_forces(q, v) gives the joints' damping and springs (polynomial "
          "and springdamper terms, ball and free joints too): inverse_dynamics minus it "
          "matches mj_inverse in them" : "";
    note(rd, NULL, "read but not applied: %s; so inverse dynamics differs from MuJoCo's "
         "mj_inverse by these terms (it is mj_rne's with the armature, without passive or "
         "constraint forces)%s%s", all, in_mass, given);
    if (rd->n_spring_yield)
        note(rd, NULL, "springyield on %d joint%s: Model.passive_forces(q, v) keeps each "
             "spring's rest at MuJoCo's qpos_spring, as MuJoCo does until a step yields it "
             "(mjData.plastic), so after such steps MuJoCo's springs pull elsewhere",
             rd->n_spring_yield, rd->n_spring_yield == 1 ? "" : "s");
    if (rd->n_sd_simple)
        note(rd, NULL, "springdamper with armature on %d slide joint%s of a leaf body of slides "
             "along its axes: urdf2dyn's stiffness and damping use the inertia with the "
             "armature; MuJoCo's compiler uses the body's mass alone when the body hangs "
             "from the world with its inertial frame its own (body_simple 2)",
             rd->n_sd_simple, rd->n_sd_simple == 1 ? "" : "s");
}

/* M (nv x nv, row-major, both triangles; a tree's, whose ancestors come first) into
 * MuJoCo's factors M = L^T D L (mj_factorM): L unit lower triangular below the diagonal, D
 * on it, eliminated from the last coordinate up, a pivot below mjMINVAL raised to it as
 * MuJoCo does. Returns the first coordinate (from the last) so raised, or -1. */
static int factor_ldl(double *M, int nv)
{
    int raised = -1;
    for (int k = nv - 1; k >= 0; k--) {
        double *row = M + (size_t)k * (size_t)nv;
        if (row[k] < U2D_MJ_MINVAL) {
            row[k] = U2D_MJ_MINVAL;
            if (raised < 0) raised = k;
        }
        for (int i = 0; i < k; i++) {
            if (row[i] == 0.0) continue;
            const double t = row[i] / row[k];
            for (int j = 0; j <= i; j++) M[(size_t)i * (size_t)nv + j] -= t * row[j];
        }
        for (int i = 0; i < k; i++) row[i] /= row[k];
    }
    return raised;
}

/* Column i of M^-1 from factor_ldl's factors into x (MuJoCo's mj_solveM). */
static void solve_unit(const double *L, int nv, int i, double *x)
{
    for (int k = 0; k < nv; k++) x[k] = k == i;
    for (int k = nv - 1; k >= 0; k--)            /* x = L^-T x */
        for (int j = 0; j < k; j++) x[j] -= L[(size_t)k * (size_t)nv + j] * x[k];
    for (int k = 0; k < nv; k++) x[k] /= L[(size_t)k * (size_t)nv + k];
    for (int k = 0; k < nv; k++)                 /* x = L^-1 x */
        for (int j = 0; j < k; j++) x[k] -= L[(size_t)k * (size_t)nv + j] * x[j];
}

/* The joint's stiffness and damping from springdamper, as MuJoCo's compiler makes them
 * (mjCModel::AutoSpringDamper): with n the joint's coordinates and w the sum of the
 * diagonal of M^-1 over them at qpos0 (MuJoCo's dof_invweight0, whose free- and ball-joint
 * averaging keeps that sum), the inertia n / w gives stiffness inertia / (timeconst
 * dampratio)^2 and damping 2 inertia / timeconst. M is MuJoCo's: with the armature, a free
 * joint's (which urdf2dyn does not apply) included. */
static void springdamper_joint(u2d_urdf_joint *U, const mj_springdamper *sd,
                               const double *Minv_diag, int n)
{
    double w = 0;
    for (int k = 0; k < n; k++) w += Minv_diag[k];
    const double inertia = n / fmax(U2D_MJ_MINVAL, w), t = sd->timeconst, z = sd->dampratio;
    U->stiffness = inertia / fmax(U2D_MJ_MINVAL, t * t * z * z);
    U->damping = 2 * inertia / fmax(U2D_MJ_MINVAL, t);
}

/* MuJoCo's mass matrix holds a free joint's armature, which urdf2dyn's leaves out. */
static void add_free_armature(const mjcf *rd, const u2d_model *m, double *M)
{
    for (int b = 1; b < m->nbody; b++)
        for (int k = 0; k < rd->nsd; k++)
            if (rd->sd[k].joint == m->jurdf[b])
                for (int c = m->vadr[b]; c < m->vadr[b] + m->jnv[b]; c++)
                    M[(size_t)c * (size_t)m->nv + c] += rd->sd[k].free_armature;
}

/* Each springdamper joint's stiffness and damping from M's factors L; x: nv scratch. */
static void size_springdampers(mjcf *rd, const u2d_model *m, const double *L, double *x)
{
    double diag[6];
    for (int b = 1; b < m->nbody; b++)
        for (int k = 0; k < rd->nsd; k++) {
            if (rd->sd[k].joint != m->jurdf[b] || rd->sd[k].timeconst <= 0) continue;
            for (int c = 0; c < m->jnv[b]; c++) {
                solve_unit(L, m->nv, m->vadr[b] + c, x);
                diag[c] = x[m->vadr[b] + c];
            }
            springdamper_joint(&rd->u->joint[rd->sd[k].joint], &rd->sd[k], diag, m->jnv[b]);
        }
}

/* Every springdamper's stiffness and damping, from the mass matrix at qpos0 of the model
 * as read (compiled here for that, as MuJoCo compiles its own first). */
static int springdamper_terms(mjcf *rd)
{
    int any = 0;
    for (int k = 0; k < rd->nsd; k++) any |= rd->sd[k].timeconst > 0;
    if (!any) return 0;
    u2d_urdf *u = rd->u;
    u2d_model *m = u2d_model_compile(u, 0, rd->err);
    if (!m) return -1;
    const size_t nv = (size_t)m->nv;
    u2d_work *w = u2d_work_new(m);
    double *M = malloc(sizeof(double) * nv * (nv + 1));
    int status = 0;
    if (!w || !M) {
        status = fail(rd, NULL, "out of memory");
    } else if (m->nq != u->nqpos0 || u2d_crba(m, w, u->qpos0, M) != U2D_OK) {
        status = fail(rd, NULL, "springdamper: the mass matrix at qpos0 could not be computed");
    } else {
        add_free_armature(rd, m, M);
        int raised = factor_ldl(M, m->nv);
        if (raised >= 0)
            note(rd, NULL, "springdamper on a model whose mass matrix at qpos0 is singular "
                 "(at coordinate %d; MuJoCo warns of it too): the stiffness and damping it "
                 "makes from M^-1, urdf2dyn's as MuJoCo's, hang on rounding and may differ "
                 "from MuJoCo's", raised);
        size_springdampers(rd, m, M, M + nv * nv);
    }
    free(M);
    u2d_work_free(w);
    u2d_model_free(m);
    return status;
}

/* The actuators' linear damping onto their joints' (read_actuators). */
static void add_actuator_damping(mjcf *rd)
{
    for (int k = 0; rd->actuator_damping && k < rd->u->njoint; k++)
        rd->u->joint[k].damping += rd->actuator_damping[k];
}

/* Every name (links, joints, model) copied into one block the u2d_urdf owns; link and joint
 * names checked unique. */
static int own_names(mjcf *rd)
{
    u2d_urdf *u = rd->u;
    int n = u->nlink > u->njoint ? u->nlink : u->njoint;
    name_entry *e = malloc(sizeof *e * (size_t)(n + 1));
    if (!e) return fail(rd, NULL, "out of memory");
    for (int pass = 0; pass < 2; pass++) {
        int m = pass ? u->njoint : u->nlink;
        for (int k = 0; k < m; k++) e[k] = (name_entry){pass ? u->joint[k].name : u->link[k].name, k};
        qsort(e, (size_t)m, sizeof *e, cmp_name);
        for (int k = 1; k < m; k++)
            if (strcmp(e[k - 1].name, e[k].name) == 0) {
                char what[300];
                snprintf(what, sizeof what, "%s", e[k].name);
                free(e);
                return fail(rd, NULL, "two %s are named '%.200s' (urdf2dyn names unnamed "
                            "ones apart: please report this file)", pass ? "joints" : "links",
                            what);
            }
    }
    free(e);
    return u2d_own_names(u) ? fail(rd, NULL, "out of memory") : 0;
}

/* settotalmass: every body's mass and inertia scaled, as mj_setTotalmass does. */
static void set_total_mass(mjcf *rd)
{
    u2d_urdf *u = rd->u;
    if (!(rd->totalmass > 0)) return;
    double total = 0.0;
    for (int l = 1; l < u->nlink; l++) total += u->link[l].mass;
    double scale = fmax(U2D_MJ_MINVAL, rd->totalmass / fmax(U2D_MJ_MINVAL, total));
    for (int l = 1; l < u->nlink; l++) {
        u->link[l].mass *= scale;
        for (int k = 0; k < 9; k++) u->link[l].Icom[k] *= scale;
    }
}

int u2d_is_mjcf(const char *xml)
{
    return u2d_has_root(xml, "mujoco");
}

char *u2d_read_file(void *ctx, const char *path, size_t *len, char err[U2D_ERRLEN])
{
    (void)ctx;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, U2D_ERRLEN, "cannot open '%.400s'", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        if (cap >= U2D_MAX_FILE) {
            free(buf);
            buf = NULL;
            snprintf(err, U2D_ERRLEN, "'%.400s' is larger than %zu MB", path, U2D_MAX_FILE >> 20);
            fclose(f);
            return NULL;
        }
        char *g = realloc(buf, 2 * cap + 1);
        if (!g) { free(buf); buf = NULL; break; }
        buf = g;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, U2D_ERRLEN, "cannot read '%.400s'%s", path, buf ? "" : " (out of memory)");
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

u2d_urdf *u2d_mjcf_parse(const char *xml, const char *path, u2d_read_fn read, void *ctx,
                         char err[U2D_ERRLEN])
{
    err[0] = '\0';
    mjcf rd;
    memset(&rd, 0, sizeof rd);
    rd.err = err;
    rd.read = read ? read : u2d_read_file;
    rd.ctx = ctx;
    rd.na_known = 1;
    u2d_urdf *u = rd.u = calloc(1, sizeof *u);
    if (!u) { snprintf(err, U2D_ERRLEN, "out of memory"); return NULL; }
    u->mjcf = 1;
    char *main_path = malloc(strlen(path ? path : "") + 1);
    if (!main_path) { free(u); snprintf(err, U2D_ERRLEN, "out of memory"); return NULL; }
    strcpy(main_path, path ? path : "");
    if (add_file(&rd, main_path) < 0) goto error;

    rd.doc = u2d_xml_load(xml, err, xml_note, &rd);
    if (!rd.doc) goto error;
    for (u2d_xml *n = u2d_xml_first(rd.doc); n; n = u2d_xml_next(n)) {
        if (strcmp(u2d_xml_name(n), "mujoco") != 0) continue;
        if (rd.root) { fail(&rd, n, "more than one <mujoco> element"); goto error; }
        rd.root = n;
    }
    if (!rd.root) { fail(&rd, NULL, "no <mujoco> element"); goto error; }
    u->name = u2d_xml_attr(rd.root, "model");
    if (!u->name) u->name = "MuJoCo Model";

    if (expand_includes(&rd) || check_attribute_schema(&rd) || read_compiler(&rd) ||
        read_option(&rd) || read_defaults(&rd) || check_repeated_names(&rd) ||
        index_plugins(&rd) || read_assets(&rd) || read_tree(&rd) || weigh_inline_meshes(&rd) ||
        sort_name_tables(&rd) || check_moving_masses(&rd) || read_actuators(&rd) ||
        count_tendons(&rd) || check_keyframes(&rd) || check_references(&rd))
        goto error;
    set_total_mass(&rd);
    summarize(&rd);
    u->root = 0;
    if (own_names(&rd) || springdamper_terms(&rd)) goto error;
    add_actuator_damping(&rd);

    for (int k = 0; k < rd.nowned; k++) free(rd.owned[k]);
    for (int k = 0; k < rd.nfile; k++) free(rd.file[k].path);
    free(rd.owned); free(rd.file); free(rd.cls); free(rd.dn); free(rd.clsindex);
    free(rd.mesh); free(rd.meshindex); free(rd.body); free(rd.sd); free(rd.actuator_damping);
    free(rd.link_names.slot); free(rd.joint_names.slot); free(rd.named_joint); free(rd.named);
    free(rd.named_geom); free(rd.limited_joint); free(rd.ranged_joint);
    free(rd.instance); free(rd.declared);
    u2d_xml_free(rd.doc);
    return u;

error:
    if (!err[0]) snprintf(err, U2D_ERRLEN, "could not read the MJCF model");
    for (int k = 0; k < rd.nowned; k++) free(rd.owned[k]);
    for (int k = 0; k < rd.nfile; k++) free(rd.file[k].path);
    free(rd.owned); free(rd.file); free(rd.cls); free(rd.dn); free(rd.clsindex);
    free(rd.mesh); free(rd.meshindex); free(rd.body); free(rd.sd); free(rd.actuator_damping);
    free(rd.link_names.slot); free(rd.joint_names.slot); free(rd.named_joint); free(rd.named);
    free(rd.named_geom); free(rd.limited_joint); free(rd.ranged_joint);
    free(rd.instance); free(rd.declared);
    u->strings = NULL;
    u2d_urdf_free(u);
    u2d_xml_free(rd.doc);
    return NULL;
}
