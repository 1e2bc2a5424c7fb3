/* u2d_model.h: the urdf2dyn core's public interface.
 *
 * Three separate stages, three separate files:
 *   u2d_urdf.c     URDF text -> u2d_urdf (a faithful, validated description of the document)
 *   u2d_compile.c  u2d_urdf  -> u2d_model (an immutable tree of bodies in topological order)
 *   u2d_rnea.c ... dynamics on a u2d_model with a caller-owned u2d_work
 * The core never allocates on the evaluation path, never prints and never aborts: loaders
 * return NULL and fill the caller's error buffer, evaluations return a u2d_status.
 * The dynamics are written over u2d_real (u2d_real.h): double here, and a vector of samples
 * when u2d_simd_avx2.c / u2d_simd_avx512.c compile the same sources again.
 */
#ifndef U2D_MODEL_H
#define U2D_MODEL_H

#include <stddef.h>
#include "model/u2d_osimdoc.h"
#include "model/u2d_spatial.h"

#define U2D_ERRLEN 512

typedef enum {
    U2D_OK = 0,
    U2D_ERR_NOMEM,          /* an allocation failed                               */
    U2D_ERR_QUATERNION,     /* a floating joint's quaternion has zero or non-finite norm */
    U2D_ERR_THREAD,         /* a worker thread could not be started               */
    U2D_ERR_SINGULAR,       /* forward dynamics: a joint sees no inertia (massless leaf,
                               or axes lined up in gimbal lock) */
    U2D_ERR_ARGUMENT,       /* an index or option out of range                    */
} u2d_status;

/* Joint types as written in the URDF. The compiled model keeps only movable ones. */
typedef enum {
    U2D_JOINT_FIXED = 0,
    U2D_JOINT_REVOLUTE,
    U2D_JOINT_CONTINUOUS,   /* a revolute joint without limits; q is a plain angle */
    U2D_JOINT_PRISMATIC,
    U2D_JOINT_FLOATING,     /* q = [x y z qx qy qz qw], v = [v_lin w] in the child frame */
    U2D_JOINT_PLANAR,       /* q = [x y theta] in the plane normal to the axis, v = dq/dt */
    U2D_JOINT_CUSTOM,       /* OpenSim's CustomJoint: six transform axes, each a function
                               of one coordinate (u2d_custom); v = dq/dt                  */
    U2D_JOINT_BALL,         /* MJCF's ball: q = [qx qy qz qw], v = w in the child frame  */
    U2D_JOINT_ELLIPSOID,    /* OpenSim's EllipsoidJoint and ScapulothoracicJoint (Simbody's
                               Ellipsoid mobilizer, then an optional winging pin): q = three
                               body-fixed angles [+ the winging angle], v = dq/dt; its
                               numbers are u2d_model.ellipsoid (u2d_joint.c)               */
    U2D_JOINT_CURVATURE,    /* OpenSim's ConstantCurvatureJoint: q = body-fixed X-Z-Y angles
                               from its neutral angles, the origin at the end of an arc of
                               fixed length; v = dq/dt; its numbers are
                               u2d_model.curvature (u2d_joint.c)                          */
} u2d_jtype;

/* The numbers of an ELLIPSOID joint, U2D_ELLIPSOID_N per joint, in its joint frame F. */
enum {
    U2D_ELLIPSOID_RADII = 0,    /* semi-axes along F's x, y, z                          */
    U2D_ELLIPSOID_AXIS0 = 3,    /* first body-fixed rotation axis (x, or y when turned)  */
    U2D_ELLIPSOID_AXIS1 = 6,    /* second (y, or -x); the third is always z, the normal */
    U2D_ELLIPSOID_WING_DIR = 9, /* winging pin: unit axis in the intermediate frame     */
    U2D_ELLIPSOID_WING_AT = 12, /* and a point on it (zero when the joint has no pin)   */
    U2D_ELLIPSOID_N = 15
};

/* The numbers of a CURVATURE joint, U2D_CURVATURE_N per joint. */
enum {
    U2D_CURVATURE_NEUTRAL = 0,  /* neutral_angle_x_z_y: added to q before the pose      */
    U2D_CURVATURE_LENGTH = 3,   /* length of the arc                                    */
    U2D_CURVATURE_N = 4
};

/* Where a joint's unit quaternion starts in its q (x, y, z, w), or -1 if it has none. */
static inline int u2d_quat_at(int jtype)
{
    return jtype == U2D_JOINT_FLOATING ? 3 : jtype == U2D_JOINT_BALL ? 0 : -1;
}

/* Whether a joint of this type moves its own columns as its coordinates change (planar,
 * custom, ellipsoid, constant curvature): the analytical derivatives take it apart into a
 * chain of axes (u2d_chain), and the workspace keeps one chain for each such joint. */
static inline int u2d_moves_own_columns(int jtype)
{
    return jtype == U2D_JOINT_PLANAR || jtype == U2D_JOINT_CUSTOM
        || jtype == U2D_JOINT_ELLIPSOID || jtype == U2D_JOINT_CURVATURE;
}

/* Whether a joint of this type has the same S and cJ whatever q and qd (the one-axis joints,
 * S their axis and cJ zero, and the fixed one): u2d_work_set_columns sets them once. */
static inline int u2d_has_constant_columns(int jtype)
{
    return jtype == U2D_JOINT_REVOLUTE || jtype == U2D_JOINT_CONTINUOUS
        || jtype == U2D_JOINT_PRISMATIC || jtype == U2D_JOINT_FIXED;
}

/* ---- OpenSim functions and custom joints (u2d_function.c, u2d_osim.c) ------- */

typedef enum {
    U2D_FN_CONSTANT = 0,    /* data: value                                            */
    U2D_FN_LINEAR,          /* data: slope, intercept                                 */
    U2D_FN_POLYNOMIAL,      /* data: n coefficients, highest power first              */
    U2D_FN_SIMM_SPLINE,     /* data: x, y, b, c, d (n each): SIMM's cubic spline       */
    U2D_FN_PIECEWISE_LINEAR,/* data: x, y, b (n each)                                  */
    U2D_FN_MULTIPLIER,      /* scale * function[inner]                                 */
} u2d_fkind;

typedef struct {
    int kind;               /* u2d_fkind                                               */
    int n;                  /* knots or coefficients                                   */
    int at;                 /* offset of its numbers in the function data              */
    int inner;              /* MULTIPLIER: the scaled function                          */
    double scale;           /* MULTIPLIER: the factor                                   */
} u2d_function;

/* f, df/dx, d2f/dx2, d3f/dx3 at x, as OpenSim evaluates them (linear extrapolation
 * outside the knots of splines and piecewise-linear functions). */
void u2d_function_eval(const u2d_function *fn, const double *data, int f, double x,
                       double out[4]);
/* SIMM spline coefficients b, c, d (data + 2n ...) from the knots x, y (data, data + n). */
void u2d_simm_spline_fit(int n, double *data);

/* A CustomJoint's SpatialTransform: rotations about axis[0..2] applied in turn (each about
 * the axis carried by the previous ones), then translations along axis[3..5] of the
 * parent frame; axis k moves by function func[k] of the joint's coordinate coord[k]
 * (-1: a constant function). */
typedef struct {
    int ncoord;             /* coordinates of the joint, 1..6                          */
    int coord[6];
    int func[6];
    double axis[18];        /* (6,3) unit axes                                         */
} u2d_custom;

/* An OpenSim CoordinateCouplerConstraint: coordinate dependent = scale * f(independent)
 * (indices in u2d_urdf.coord; f an index in u2d_urdf.func). */
typedef struct {
    int dependent, independent, func;
    double scale;
    const char *name;       /* the constraint's name ("" when it has none)             */
    int line;               /* of its start tag, 0 if unknown                          */
} u2d_coupler;

/* ---- the URDF document, as read ---------------------------------------- */

typedef struct {
    const char *name;
    int line;               /* of the <link> start tag, 0 if unknown                   */
    int has_inertial;
    double mass;
    double com[3];          /* centre of mass in the link frame                        */
    double Icom[9];         /* inertia about the centre of mass, link-frame axes       */
} u2d_urdf_link;

typedef struct {
    const char *name;
    int line;               /* of the <joint> start tag, 0 if unknown                  */
    u2d_jtype type;
    int parent, child;      /* link indices                                            */
    u2d_xform origin;       /* parent link frame -> joint frame at q = 0               */
    double axis[3];         /* unit axis in the joint frame                            */
    int has_limit;
    double lower, upper, effort, velocity;
    double damping, friction;  /* URDF <dynamics>; MJCF damping and frictionloss         */
    double armature;        /* MJCF: rotor inertia on each of its coordinates          */
    double stiffness, springref;   /* MJCF: the spring's linear coefficient; a hinge's or
                                      slide's rest position                              */
    double stiffness_poly[2];       /* MJCF: its x^2 and x^3 coefficients (MuJoCo 4)      */
    double damping_poly[2];         /* MJCF: damping's v|v| and v^3 coefficients          */
    double spring_q[7];             /* MJCF: the q the spring pulls toward, jnq entries
                                      (MuJoCo's qpos_spring in urdf2dyn's order)        */
    const char *mimic;      /* name of the mimicked joint or NULL                      */
    double mimic_multiplier, mimic_offset;
    int custom;             /* CUSTOM: index in u2d_urdf.custom                        */
    int coord0, ncoord;     /* OpenSim: its coordinates u2d_urdf.coord[coord0 ..]      */
    double ellipsoid[U2D_ELLIPSOID_N];  /* ELLIPSOID: its numbers (see the enum above)  */
    int ellipsoid_node;     /* ELLIPSOID (OpenSim): its element, for the .osim writer   */
    int ellipsoid_body;     /*   and its child frame's body (the winging origin's)      */
    double curvature[U2D_CURVATURE_N];  /* CURVATURE: its numbers (see the enum above)  */
    int curvature_node;     /* CURVATURE (OpenSim): its element, for the .osim writer   */
    int curvature_body;     /*   and its child frame's body (whose y factor scales it)  */
} u2d_urdf_joint;

/* An OpenSim coordinate, as read. */
typedef struct {
    const char *name;
    int joint;              /* u2d_urdf joint index                                    */
    int motion;             /* 0 rotational, 1 translational, 2 coupled                */
    double default_value, range[2];
    int locked, clamped;
    int range_written;      /* the file wrote <range>; else range is OpenSim's default */
    int nan_ends;           /* bit 0 lower, bit 1 upper: the file wrote NaN there, which
                               OpenSim keeps; range holds it as no bound                 */
} u2d_coordinate;

/* An OpenSim marker: a point fixed on a link. */
typedef struct {
    const char *name;
    int link;
    double location[3];
} u2d_marker;

/* A force element of an OpenSim model (a muscle, an actuator, a contact force...), of its
 * ForceSet or of a <components> list: read so that tools can name it; no force element
 * enters the dynamics. */
typedef struct {
    const char *name;       /* its name attribute (the element's name if it has none)  */
    const char *kind;       /* the element: "Thelen2003Muscle", "CoordinateActuator"...  */
    int component;          /* 1: under a <components> list, which OpenSim's inverse
                               dynamics tool applies whatever <forces_to_exclude> says  */
} u2d_force;

/* Something questionable that was read as written (a non-physical inertia, an unknown
 * element, a missing <limit>, tolerated markup...): the caller decides whether to warn
 * or refuse. */
typedef struct {
    int line;               /* 1-based line in the text, 0 if unknown                  */
    char message[2 * U2D_ERRLEN];   /* names the link or joint, element and attribute
                                       (an MJCF model's summary lists many terms)       */
} u2d_finding;

typedef struct {
    const char *name;       /* robot name                                              */
    int nlink, njoint;
    u2d_urdf_link *link;    /* (nlink)  in document order                              */
    u2d_urdf_joint *joint;  /* (njoint) in document order                              */
    int root;               /* index of the root link                                  */
    char *strings;          /* owns every name                                         */
    int nfinding;
    u2d_finding *finding;   /* (nfinding) in the order they were met                   */
    int nerror;
    u2d_finding *error;     /* (nerror) u2d_urdf_check's errors, in the order they were
                               met (the first is u2d_urdf_parse's); none otherwise      */

    /* what an OpenSim model adds (zero for a URDF) */
    int has_gravity;
    double gravity[3];
    int ncustom, nfunc, nfdata;
    u2d_custom *custom;     /* (ncustom) one per CUSTOM joint (joint.custom)           */
    u2d_function *func;     /* (nfunc)                                                 */
    double *fdata;          /* (nfdata) the functions' numbers                         */
    int ncoord;
    u2d_coordinate *coord;  /* (ncoord) joint by joint, in each joint's order          */
    int nmarker;
    u2d_marker *marker;     /* (nmarker)                                               */
    int ncoupler;
    u2d_coupler *coupler;   /* (ncoupler) enforced coordinate couplers                 */

    /* what an MJCF model adds (zero for URDF and OpenSim) */
    int mjcf;               /* read from MJCF: children in document order (MuJoCo's q
                               order), the root link is the world                        */
    int nqpos0;
    double *qpos0;          /* (nqpos0) MuJoCo's qpos0 in urdf2dyn's conventions, movable
                               joints in document order                                  */
    int nforce;
    u2d_force *force;       /* (nforce) the ForceSet, then <components>' forces, in order */
    int *coord_order;       /* (ncoord) the coordinates in OpenSim's multibody tree order
                                         (the column order of its inverse dynamics)     */
    u2d_osimdoc osim;       /* frames, paths, wrap objects ... and where each is written */
} u2d_urdf;

/* Parse and validate URDF text. Returns NULL and writes a message to err on failure;
 * what loads but looks wrong is listed in u->finding. */
u2d_urdf *u2d_urdf_parse(const char *xml, char err[U2D_ERRLEN]);
/* Every error of URDF text, not only the first: u2d_urdf_parse's reading, going on past
 * each link or joint it refuses (the tree is checked only when every joint reads and every
 * name is one element's; a missing name or text that is no URDF still stops it). Returns findings
 * only: u->error (the first being u2d_urdf_parse's refusal) and u->finding, no links or
 * joints; NULL with err when out of memory (and an error it had no memory to keep is
 * missing from u->error). */
u2d_urdf *u2d_urdf_check(const char *xml, char err[U2D_ERRLEN]);
/* The same for an OpenSim model (.osim, OpenSim 3 and 4 layouts): bodies become links, the
 * joints' offset frames links on them, each joint's coordinates u->coord. */
u2d_urdf *u2d_osim_parse(const char *xml, char err[U2D_ERRLEN]);
/* Whether the text's root element is <OpenSimDocument>. */
int u2d_is_osim(const char *xml);

/* Reads a file an MJCF names (an <include>, a mesh): a malloc'ed buffer of *len bytes plus a
 * terminating NUL, or NULL and a message in err. ctx is the caller's. */
typedef char *(*u2d_read_fn)(void *ctx, const char *path, size_t *len, char err[U2D_ERRLEN]);
/* The same from the file system (fopen), up to U2D_MAX_FILE bytes; ctx is unused. */
#define U2D_MAX_FILE ((size_t)1 << 28)
char *u2d_read_file(void *ctx, const char *path, size_t *len, char err[U2D_ERRLEN]);
/* A MuJoCo MJCF model (root <mujoco>) with MuJoCo's compiler semantics: bodies become
 * links, their joints a chain of joints, static bodies fixed joints. path is the file the
 * text came from (NULL or "": the current folder), which includes and meshes are found
 * relative to, read through read (NULL: u2d_read_file). */
u2d_urdf *u2d_mjcf_parse(const char *xml, const char *path, u2d_read_fn read, void *ctx,
                         char err[U2D_ERRLEN]);
/* Whether the text's root element is <mujoco>. */
int u2d_is_mjcf(const char *xml);
/* An OpenSim marker set file (<MarkerSet> of <Marker>s, OpenSim 3 or 4): the markers as
 * written, their frames by name or path, unresolved. Returns the count (*out malloc'd, the
 * caller frees it) and in *notes (malloc'd, the caller frees it; NULL when *nnotes is 0)
 * what was read as written but is questionable, as a model's findings; or -1 and a message
 * in err. */
typedef struct {
    char name[128];
    char frame[256];            /* <socket_parent_frame>'s absolute path, from /markerset/<name>
                                 * (OpenSim's), or OpenSim 3's <body> as written             */
    double location[3];         /* m, in that frame                                       */
    int fixed;
} u2d_markerset_entry;
int u2d_markerset_parse(const char *xml, u2d_markerset_entry **out, u2d_finding **notes,
                        int *nnotes, char err[U2D_ERRLEN]);
/* The OpenSim document xml (the text u was read from) with the edits made (u2d_osimdoc.h):
 * a new text (malloc'd, the caller frees it), or NULL and a message in err naming the
 * edit at fault. What the edits do not touch is written as it was read. */
char *u2d_osim_write(const char *xml, const u2d_urdf *u, const u2d_osim_edit *edit, int nedit,
                     char err[U2D_ERRLEN]);
/* The same with the document kept between writes (it is parsed once; each write's changes
 * are taken back after saving): a writer of the text u was read from. */
typedef struct u2d_osim_writer_s u2d_osim_writer;
u2d_osim_writer *u2d_osim_writer_new(const char *xml, const u2d_urdf *u, char err[U2D_ERRLEN]);
char *u2d_osim_writer_write(u2d_osim_writer *wr, const u2d_osim_edit *edit, int nedit,
                            char err[U2D_ERRLEN]);
void u2d_osim_writer_free(u2d_osim_writer *wr);
void u2d_urdf_free(u2d_urdf *u);

/* 1 when gravity's squared length is finite: every component finite and none past ~1e154
 * m/s^2. A longer one is never physical, and its length (OpenSim's, the direction up, a
 * body weight) overflows; the readers and Model.gravity refuse it. */
static inline int u2d_gravity_in_range(const double g[3])
{
    double s = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    return s - s == 0.0;                /* neither inf nor nan */
}

/* ---- the compiled model ------------------------------------------------ */

typedef struct {
    int nbody;              /* bodies, including body 0 = the fixed world              */
    int njoint;             /* movable joints = nbody - 1                              */
    int nq, nv;
    int nlink;              /* every URDF link, addressable by name                    */
    double singular_tol;    /* ABA: a joint inertia D_i below this is singular         */
    int has_armature;       /* some joint has armature: the algorithms add it           */

    /* per body (nbody); body i > 0 hangs from joint i-1 */
    int *parent;            /* (nbody)   parent body, parent[i] < i; -1 for the world  */
    int *jtype;             /* (nbody)   u2d_jtype of the joint above the body         */
    int *qadr, *vadr;       /* (nbody)   first q / v index of that joint               */
    int *jnq, *jnv;         /* (nbody)   its numbers of coordinates                    */
    int *nvsub;             /* (nbody)   velocity coordinates in the subtree of the body;
                                         preorder makes them vadr .. vadr + nvsub - 1  */
    u2d_real *axis;         /* (nbody,3) joint axis / planar normal, joint frame       */
    int *jaxis;             /* (nbody)   0, 1, 2 when the axis is +-x, +-y, +-z, else -1 */
    int *sidx;              /* (nbody)   for a 1-DoF joint whose S is +-e_k (k = 0..5):
                                         k, else -1; lets algorithms pick instead of
                                         multiply                                       */
    u2d_real *ssign;        /* (nbody)   the sign of that unit column                  */
    u2d_real *plane;        /* (nbody,6) planar in-plane unit axes u, w                */
    u2d_real *ellipsoid;    /* (nbody,U2D_ELLIPSOID_N) ellipsoid joints' numbers       */
    u2d_real *curvature;    /* (nbody,U2D_CURVATURE_N) constant-curvature joints' numbers */
    u2d_xform *Xtree;       /* (nbody)   parent body frame -> joint frame at q = 0     */
    u2d_inertia *inertia;       /* (nbody)   spatial inertia in the body frame, with every
                                         link merged into the body by fixed joints     */
    u2d_real *com;          /* (nbody,3) the same inertia as centre of mass (body frame)  */
    u2d_real *Icom;         /* (nbody,9) and rotational inertia about it, body axes     */
    u2d_real *armature;     /* (nbody)   rotor inertia added to M's diagonal at each of the
                                         joint's coordinates (MJCF armature; Pinocchio's
                                         model.armature): M + diag, tau + armature qdd   */
    double *damping;        /* (nbody)   passive joint forces on each of the joint's   */
    double *stiffness;      /*           coordinates: -stiffness (q - spring_q) -      */
                            /*           damping qd (MJCF; a URDF's <dynamics damping>) */
    double *passive_poly;   /* (nbody,4) MJCF's higher terms: stiffness x^2, x^3, damping
                                         v|v|, v^3 (u2d_passive.c)                      */
    double *spring_q;       /* (nbody,7) the q each joint's spring pulls toward, jnq
                                         entries (a ball's or free joint's quaternion)  */
    int *jurdf;             /* (nbody)   index of the joint in the u2d_urdf, -1: world */

    /* per URDF link (nlink): the body it rides on and where it sits on it */
    int *link_body;         /* (nlink)                                                 */
    u2d_xform *link_X;      /* (nlink)   body frame -> link frame (constant)           */
    int *link_is_body;      /* (nlink)   link_X is the identity: the link is its body   */

    /* custom joints (OpenSim): body i's is custom[jcustom[i]]                          */
    int *jcustom;           /* (nbody)   -1 for other joints                           */
    u2d_custom *custom;     /* (ncustom)                                               */
    u2d_function *func;     /* (nfunc)                                                 */
    double *fdata;          /* (nfdata)                                                */
    int ncustom, nfunc, nfdata;

    void *buffer;           /* the single allocation holding every array above         */
} u2d_model;

u2d_model *u2d_model_compile(const u2d_urdf *u, int floating_base, char err[U2D_ERRLEN]);
void u2d_model_free(u2d_model *m);

/* ---- per-evaluation workspace (caller-owned, one per thread) ------------ */

typedef struct u2d_work {
    int nbody, nq, nv;
    u2d_xform *Xup;         /* (nbody)    parent body -> body                          */
    u2d_xform *Xa;          /* (nbody)    world -> body                                */
    u2d_real *v, *a, *f;    /* (nbody,6)  velocity, acceleration, force (body frame)   */
    u2d_real *S;            /* (nbody,36) motion subspace columns of each joint        */
    u2d_real *cJ;           /* (nbody,6)  velocity-product acceleration of each joint  */
    u2d_real *c;            /* (nbody,6)  ABA: bias acceleration cJ + v x vJ           */
    u2d_real *fext;         /* (nbody,6)  external wrench per body, world frame at O   */
    u2d_real *IA, *pA;      /* (nbody,36),(nbody,6) ABA articulated inertia and bias    */
    u2d_real *U, *Dinv, *u; /* (nbody,36),(nbody,36),(nbody,6) ABA per-joint terms
                                          (the Coriolis matrix borrows IA, U and Dinv)  */
    u2d_inertia *IC;        /* (nbody)    CRBA composite rigid-body inertia            */
    u2d_real *S0, *F;       /* (nv,6),(nv,6) CRBA: joint columns in world coordinates,
                                          and IC S for each                             */
    u2d_real *zero;         /* (nv)       zeros, for RNEA with v = 0 or a = 0          */
    u2d_real *scratch;      /* (11 nv + 2 nq) simulate's stage vectors                 */
    /* world-frame passes (derivatives, centroidal): everything at the world origin O */
    u2d_real *ov, *oa;      /* (nbody,6)  body velocity and acceleration, world frame      */
    u2d_real *oF, *oFx;     /* (nbody,6)  subtree force I a + v x* I v, subtree f_ext      */
    u2d_real *oB;           /* (nbody,12) subtree velocity term B as B11 (3x3) and p (3),
                                          see u2d_derivatives.c                        */
    u2d_real *dV, *dA, *dAv; /* (nv,6)     per column s: v_p x s, its dq and dv partials    */
    u2d_real *qdd;          /* (nv)       ABA derivatives: the accelerations             */
    u2d_real *L;            /* (nv,nv)    ABA derivatives: M = L^T D L, factored in place */
    struct u2d_chain *chain; /* (nchain)  derivatives: the chain of axes of each joint that
                                          moves its own columns, built once per evaluation  */
    int *chain_of;          /* (nbody)    its index in chain, -1 for the other joints     */
    int *lambda;            /* (nv)       the velocity coordinate above each one in the tree,
                                          -1 at the root (the sparsity of L)            */
    int *subend;            /* (nv)       one past the last coordinate of its subtree       */
    void *buffer;
    /* kept for the batches this workspace is lent to (u2d_batch), made at first need and
     * freed with it: so that a call of a few samples allocates and zeroes nothing */
    void *lanes;            /* a SIMD path's lane copy of the model and lane workspace */
    void (*lanes_free)(void *lanes);
    struct u2d_work *next;  /* the workspace of the batch's next thread                */
} u2d_work;

u2d_work *u2d_work_new(const u2d_model *m);
void u2d_work_free(u2d_work *w);

/* ---- joint model --------------------------------------------------------- */

/* Body i's joint: the transform from the parent body, Xup = X_J(q) Xtree (computed as one
 * product so that axis-aligned joints cost a plane rotation), the motion subspace S
 * (6 x jnv, column k at S + 6k) and the velocity-product term cJ = (dS/dt) qd, dS/dt
 * being taken in body coordinates. When Sdot is not NULL it receives dS/dt itself
 * (6 x jnv). qd may be NULL when only positions matter (cJ and Sdot are then zero).
 * The only function that switches on the joint type. */
u2d_status u2d_jcalc(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                     u2d_xform *Xup, u2d_real *S, u2d_real cJ[6], u2d_real *Sdot);
/* u2d_jcalc of body i into w's Xup, S and cJ. In a lane unit (U2D_LANES > 1) the S and cJ
 * of a joint with constant columns are left as u2d_work_set_columns set them when the lane
 * workspace was made (lanes_new: the lane model never changes): storing the axis and zeros
 * again for every group of samples cost the human's AVX2 RNEA group about 600 of 30 800
 * instructions (benchmarks/instruction_mix.py). */
u2d_status u2d_jcalc_work(const u2d_model *m, u2d_work *w, int i, const u2d_real *q,
                          const u2d_real *qd);
/* S and cJ of every joint with constant columns (u2d_has_constant_columns) into w, once,
 * for u2d_jcalc_work in a lane unit */
void u2d_work_set_columns(const u2d_model *m, u2d_work *w);
/* A joint whose columns move with its own coordinates (planar, custom, ellipsoid, constant
 * curvature), taken apart for the analytical derivatives into a chain of one-axis moves,
 * parent side first:
 * axis k is the unit twist U[k] (body coordinates), moved by an amount theta_k(q) that
 * depends on at most two of the joint's coordinates, coord[k][0..1] (-1: none). With a, b
 * over those two:
 *   J[k][a] = d theta_k / d q_a,   H[k][a][b] = d2 theta_k / d q_a d q_b,
 *   rate[k], acc[k] = theta_k's first and second time derivatives at (qd, qdd),
 *   drate[k][a], dacc[k][a] = their derivatives with respect to q_a.
 * Its columns are S_c = sum_k J[k][c] U[k]; axes that no coordinate moves are left out. */
#define U2D_CHAIN_MAX 7
typedef struct u2d_chain {
    int n;                              /* axes in the chain                            */
    int coord[U2D_CHAIN_MAX][2];        /* the joint's coordinates each axis depends on */
    u2d_real U[U2D_CHAIN_MAX][6];
    u2d_real J[U2D_CHAIN_MAX][2];
    u2d_real H[U2D_CHAIN_MAX][2][2];
    u2d_real rate[U2D_CHAIN_MAX], acc[U2D_CHAIN_MAX];
    u2d_real drate[U2D_CHAIN_MAX][2], dacc[U2D_CHAIN_MAX][2];
} u2d_chain;

/* The chain of the planar, custom, ellipsoid or constant-curvature joint of body i at its
 * coordinates q, rates qd and accelerations qdd (u2d_joint.c); U2D_ERR_ARGUMENT for any
 * other joint type. */
u2d_status u2d_joint_chain(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                           const u2d_real *qdd, u2d_chain *ch);

/* ---- external forces ---------------------------------------------------- */

/* Wrenches [f; n] with n about the world origin, world coordinates, applied to bodies. */
typedef struct {
    int n;                  /* number of wrenches                                      */
    const int *body;        /* (n) body each wrench acts on                            */
    const u2d_real *wrench; /* (n,6) [fx fy fz mx my mz], as in DESIGN.md              */
} u2d_fext;

/* Sum the wrenches acting on each body into w->fext as spatial forces [n; f]; returns
 * whether there are any. */
int u2d_gather_fext(const u2d_model *m, u2d_work *w, const u2d_fext *fext);

/* ---- algorithms (one sample) -------------------------------------------- */

/* RNEA's forward pass, shared with the regressor: u2d_rnea_start sets the world's v_0 = 0
 * and a_0 = -g; u2d_rnea_body_motion then places body i (jcalc: w->Xup, S, cJ) and sets its
 * v_i and a_i from its parent's, bodies in topological order. */
void u2d_rnea_start(u2d_work *w, const double gravity[3]);
u2d_status u2d_rnea_body_motion(const u2d_model *m, u2d_work *w, int i, const u2d_real *q,
                                const u2d_real *qd, const u2d_real *qdd);

u2d_status u2d_rnea(const u2d_model *m, u2d_work *w, const double gravity[3],
                    const u2d_real *q, const u2d_real *qd, const u2d_real *qdd,
                    const u2d_fext *fext, u2d_real *tau);

/* Mass matrix M(q) (nv x nv, row-major, both triangles) by the composite-rigid-body
 * algorithm. */
u2d_status u2d_crba(const u2d_model *m, u2d_work *w, const u2d_real *q, u2d_real *M);
/* The same, writing only the entries that can be non-zero (joint pairs of which one is an
 * ancestor of the other); the others keep what M held, zeros if it held an earlier M. */
u2d_status u2d_crba_fill(const u2d_model *m, u2d_work *w, const u2d_real *q, u2d_real *M);

/* Forward dynamics qdd = M^-1 (tau + sum J^T fext - h) by the articulated-body algorithm. */
u2d_status u2d_aba(const u2d_model *m, u2d_work *w, const double gravity[3],
                   const u2d_real *q, const u2d_real *qd, const u2d_real *tau,
                   const u2d_fext *fext, u2d_real *qdd);

/* Coriolis matrix C(q, qd) with C qd = h - g and dM/dt = C + C^T (nv x nv, row-major). */
u2d_status u2d_coriolis(const u2d_model *m, u2d_work *w, const double *q, const double *qd,
                        double *C);

/* ---- derivatives (u2d_derivatives.c) -------------------------------------- */

/* Partial derivatives of inverse dynamics tau = RNEA(q, qd, qdd, fext), each nv x nv
 * row-major: dtau_dq (q moves in the tangent space: q (+) dq, as u2d_integrate), dtau_dv,
 * and M = dtau/dqdd. External wrenches are fixed in the world. Planar joints: ARGUMENT. */
u2d_status u2d_rnea_derivatives(const u2d_model *m, u2d_work *w, const double gravity[3],
                                const u2d_real *q, const u2d_real *qd, const u2d_real *qdd,
                                const u2d_fext *fext, u2d_real *dtau_dq, u2d_real *dtau_dv,
                                u2d_real *M);

/* Partial derivatives of forward dynamics qdd = ABA(q, qd, tau, fext): dqdd_dq, dqdd_dv
 * and Minv = dqdd/dtau (nv x nv each), as -M^-1 dtau/d(q, qd) at qdd. */
u2d_status u2d_aba_derivatives(const u2d_model *m, u2d_work *w, const double gravity[3],
                               const u2d_real *q, const u2d_real *qd, const u2d_real *tau,
                               const u2d_fext *fext, u2d_real *dqdd_dq, u2d_real *dqdd_dv,
                               u2d_real *Minv);

/* ---- centroidal dynamics (u2d_centroidal.c) -------------------------------- */

/* Centroidal momentum matrix Ag (6 x nv, row-major): h_G = Ag qd, linear momentum first,
 * then the angular momentum about the centre of mass, world axes. */
u2d_status u2d_ccrba(const u2d_model *m, u2d_work *w, const double *q, double *Ag);

/* Centre of mass position, velocity and acceleration (com: 3 x 3, one per row) and the
 * centroidal momentum h_G and its rate dh_G/dt = Ag qdd + dAg qd (h: 2 x 6). */
u2d_status u2d_centroidal(const u2d_model *m, u2d_work *w, const double *q, const double *qd,
                          const double *qdd, double *com, double *h);

/* ---- inertial-parameter regressor (u2d_regressor.c) ------------------------- */

/* Y (nv x 10 (nbody - 1), row-major) with tau = Y pi, pi holding for each moving body
 * [m, m cx, m cy, m cz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz] in its frame, about its origin
 * (u2d_inertial_parameters). */
u2d_status u2d_regressor(const u2d_model *m, u2d_work *w, const double gravity[3],
                         const double *q, const double *qd, const double *qdd, double *Y);
void u2d_inertial_parameters(const u2d_model *m, double *pi);

/* ---- kinematics (u2d_kinematics.c) ---------------------------------------- */

/* Body placements w->Xup and w->Xa (world -> body) and, when qd is given, body velocities
 * w->v (body frame). Every function below starts from this. */
u2d_status u2d_kinematics(const u2d_model *m, u2d_work *w, const double *q, const double *qd);

/* The same for body and its ancestors only (what a frame on body needs): the other
 * bodies' entries are left as they were. */
u2d_status u2d_kinematics_path(const u2d_model *m, u2d_work *w, int body, const double *q,
                               const double *qd);
/* Whether body i is body or one of its ancestors (the world, i = 0, always is). */
int u2d_on_path(const u2d_model *m, int i, int body);

/* ---- placements (u2d_place.c, over u2d_real: the SIMD units place lanes of samples) ---- */

/* Body i's w->Xup, motion subspace w->S, w->cJ (with qd; qd may be NULL) and w->Xa, from its
 * parent's w->Xa. */
u2d_status u2d_place_body(const u2d_model *m, u2d_work *w, int i, const u2d_real *q,
                          const u2d_real *qd);

/* Every body's placement (u2d_kinematics without velocities): forward kinematics. */
u2d_status u2d_place_bodies(const u2d_model *m, u2d_work *w, const u2d_real *q);

/* Every URDF link's origin pos (nlink,3) and rotation rot (nlink,3,3; columns are the
 * link's axes in world coordinates), after u2d_place_bodies or u2d_kinematics. */
void u2d_link_poses(const u2d_model *m, const u2d_work *w, u2d_real *pos, u2d_real *rot);

/* Origins of the movable joints' frames (njoint,3) in world coordinates. */
void u2d_joint_positions(const u2d_model *m, const u2d_work *w, double *pos);

/* Linear velocity of every link origin and angular velocity, world-aligned (nlink,6),
 * after u2d_kinematics with qd. */
void u2d_link_velocities(const u2d_model *m, const u2d_work *w, double *vel);

/* Centre of mass (3) of the moving bodies; returns their mass. */
double u2d_center_of_mass(const u2d_model *m, const u2d_work *w, double com[3]);

/* Jacobian (6 x nv, row-major) of link `link` at `point` (link frame): rows 0-2 the
 * point's linear velocity, rows 3-5 the angular velocity, world-aligned. */
void u2d_jacobian(const u2d_model *m, const u2d_work *w, int link, const double point[3],
                  double *J);

/* World-frame motion for the derivative and centroidal algorithms: placements Xa, joint
 * columns S0 (world, at O), body velocities ov and accelerations oa (starting from a0 at
 * the world; qdd may be NULL for velocities only) and each body's inertia in world
 * coordinates in w->IC. Planar joints (whose columns move with their own coordinates)
 * give U2D_ERR_ARGUMENT. Over u2d_real (u2d_world.c): the SIMD units use it too. */
u2d_status u2d_world_motion(const u2d_model *m, u2d_work *w, const u2d_real a0[6],
                            const u2d_real *q, const u2d_real *qd, const u2d_real *qdd);

/* ---- frames (u2d_frames.c) ---------------------------------------------------- */

/* Pinocchio's reference frames for a frame on a link (the link's axes, origin at a point):
 * LOCAL its own axes about its origin, WORLD world axes about the world origin,
 * LOCAL_WORLD_ALIGNED world axes about its origin. 6-vectors are [linear; angular]. */
typedef enum { U2D_LOCAL = 0, U2D_WORLD, U2D_LOCAL_WORLD_ALIGNED } u2d_reference;

/* Jacobian (6 x nv, row-major) of the frame at `point` (link coordinates) on `link`, after
 * u2d_kinematics (or u2d_kinematics_path to the link's body: the frame functions read
 * only that path). */
void u2d_frame_jacobian(const u2d_model *m, const u2d_work *w, int link, const double point[3],
                        u2d_reference ref, double *J);
/* Its time derivative along qd, after u2d_kinematics(q, qd): J qdd + dJ qd is the frame's
 * acceleration (spatial in LOCAL and WORLD, the point's classical one in
 * LOCAL_WORLD_ALIGNED). */
u2d_status u2d_frame_jacobian_dot(const u2d_model *m, const u2d_work *w, const double *q,
                                  const double *qd, int link, const double point[3],
                                  u2d_reference ref, double *dJ);
/* The frame's spatial velocity (6), after u2d_kinematics with qd. */
void u2d_frame_velocity(const u2d_model *m, const u2d_work *w, int link, const double point[3],
                        u2d_reference ref, double out[6]);
/* Body velocities and accelerations without gravity (w->v, w->a, body frames), for body
 * and its ancestors (every body when body < 0). */
u2d_status u2d_accelerations(const u2d_model *m, u2d_work *w, int body, const double *q,
                             const double *qd, const double *qdd);
/* The frame's spatial acceleration (6), after u2d_accelerations; with `classical`, the
 * linear part is the origin's classical acceleration as Pinocchio defines it
 * (getFrameClassicalAcceleration: linear + angular velocity x linear velocity). */
void u2d_frame_acceleration(const u2d_model *m, const u2d_work *w, int link,
                            const double point[3], u2d_reference ref, int classical,
                            double out[6]);

double u2d_kinetic_energy(const u2d_model *m, const u2d_work *w, const double *qd);
/* The joints' passive forces: springs and damping, as MuJoCo's qfrc_spring + qfrc_damper. */
u2d_status u2d_passive(const u2d_model *m, const double *q, const double *qd, double *tau);
double u2d_potential_energy(const u2d_model *m, const u2d_work *w, const double gravity[3]);

/* ---- configuration space (u2d_config.c) ----------------------------------- */

/* q1 = q (+) v dt: floating joints follow the SE(3) exponential of the body twist. */
u2d_status u2d_integrate(const u2d_model *m, const double *q, const double *v, double dt,
                         double *q1);
/* v with integrate(q0, v, 1) = q1 (the SE(3) logarithm for floating joints). */
u2d_status u2d_difference(const u2d_model *m, const double *q0, const double *q1, double *v);
/* The rate of xi that moves q0 (+) xi with velocity v (dexp^-1, to fourth order). */
void u2d_dexpinv(const u2d_model *m, const double *xi, const double *v, double *out);
/* Unit quaternions for every floating joint. */
u2d_status u2d_normalize(const u2d_model *m, const double *q, double *qn);

/* ---- simulation (u2d_simulate.c) ------------------------------------------ */

typedef enum { U2D_EULER = 0, U2D_SEMI_IMPLICIT, U2D_RK4 } u2d_method;

/* March (q, v) through `steps` steps of dt; qs gets (steps + 1, nq) and vs (steps + 1, nv),
 * row 0 being the initial state. Joint forces tau are (steps, nv), held over each step, or
 * (2 steps + 1, nv) when tau_half_steps is set: sampled every dt / 2 from the start.
 * fext, when nfext > 0, holds nfext wrenches per step (one set for all steps when
 * fext_shared). On failure *bad_step is the step that failed. */
u2d_status u2d_simulate(const u2d_model *m, u2d_work *w, const double gravity[3],
                        const double *q0, const double *v0, const double *tau, int tau_half_steps,
                        size_t steps, double dt, u2d_method method, int nfext,
                        const int *fext_body, const double *fext_wrench, int fext_shared,
                        double *qs, double *vs, size_t *bad_step);

/* ---- OpenSim geometry paths (u2d_path.c, u2d_wrap.c) --------------------------- */

/* The length of every geometry path of the OpenSim document u (u->osim.path: muscle-tendon
 * lengths, m) at q, as OpenSim computes them (wrap cylinders included); flag[p] is set
 * where path p runs over an active wrap object other than a cylinder, which is left out.
 * length and flag: (npath). Uses w's placements. */
u2d_status u2d_path_lengths(const u2d_model *m, const u2d_urdf *u, u2d_work *w,
                            const double *q, double *length, int *flag);

/* ---- inverse kinematics (u2d_ik.c) ----------------------------------------- */

/* A marker fit (OpenSim's IK problem): model markers (a point on a link) matched to
 * measured positions with weights, coordinate tasks pulling a 1-DoF coordinate towards a
 * value, locked coordinates and coordinate ranges. */
typedef struct {
    int nmarker;
    const int *link;            /* (nmarker)   link each model marker rides on          */
    const double *pos;          /* (nmarker,3) its position in the link frame           */
    const double *weight;       /* (nmarker)   >= 0; 0: reported, not fitted            */
    int ntask;
    const int *task_v;          /* (ntask)     velocity index of the task's coordinate  */
    const int *qadr_task;       /* (ntask)     and its q index (1-DoF joints)           */
    const double *task_weight;  /* (ntask)     >= 0                                     */
    const int *locked;          /* (nv) or NULL: non-zero keeps the starting value      */
    const double *lower, *upper;/* (nv) or NULL: ranges of 1-DoF coordinates, +-inf none */
    double tolerance;           /* a frame ends when no step moves a coordinate more    */
    int max_iter;               /* Levenberg-Marquardt iterations per frame at most     */
    int ncoupler;               /* coordinate couplers q_dep = scale f(q_ind)           */
    const int *coupler;         /* (ncoupler,5) the dependent coordinate's q and v index,
                                   the independent one's, and f (a function of the model);
                                   in the order they are applied: a coordinate is computed
                                   before a later coupler reads it                      */
    const double *coupler_scale;/* (ncoupler) the couplers hold exactly through the fit  */
} u2d_ik_problem;

/* Per frame, as OpenSim's IK tool reports it, over the markers fitted (weight > 0). */
typedef struct {
    double squared;             /* sum of squared errors of those present, m^2         */
    double rms, max;            /* m: sqrt(squared / markers fitted, missing ones
                                   included, as OpenSim), the largest; NaN if none is present */
    int worst;                  /* the marker at max, -1 if none                       */
    int iterations;
} u2d_ik_report;

typedef struct u2d_ik_work_s u2d_ik_work;   /* IK's own workspace, beside a u2d_work   */
u2d_ik_work *u2d_ik_work_new(const u2d_model *m, int nmarker);
void u2d_ik_work_free(u2d_ik_work *iw);

/* Whether the problem's indices and weights fit the model (U2D_ERR_ARGUMENT if not). */
u2d_status u2d_ik_check(const u2d_model *m, const u2d_ik_problem *p);

/* One frame: target (nmarker,3) in world coordinates, NaN for a missing marker;
 * task_value (ntask); q (nq) the start in, the fit out; err (nmarker) each marker's
 * distance (NaN when missing). */
u2d_status u2d_ik_frame(const u2d_model *m, u2d_work *w, u2d_ik_work *iw,
                        const u2d_ik_problem *p, const double *target,
                        const double *task_value, double *q, double *err,
                        u2d_ik_report *report);

/* Frames [0, nframe) in order, frame 0 started at q0 and each next one at the previous
 * fit: target (nframe,nmarker,3), task_value (nframe,ntask), q (nframe,nq),
 * err (nframe,nmarker), report (nframe). On failure *bad is the frame. */
u2d_status u2d_ik_solve(const u2d_model *m, u2d_work *w, u2d_ik_work *iw,
                        const u2d_ik_problem *p, size_t nframe, const double *target,
                        const double *task_value, const double *q0, double *q, double *err,
                        u2d_ik_report *report, size_t *bad);

#endif
