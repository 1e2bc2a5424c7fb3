/* u2d_model.h: the urdf2dyn core's public interface.
 *
 * Three separate stages, three separate files:
 *   u2d_urdf.c     URDF text -> u2d_urdf (a faithful, validated description of the document)
 *   u2d_compile.c  u2d_urdf  -> u2d_model (an immutable tree of bodies in topological order)
 *   u2d_rnea.c ... dynamics on a u2d_model with a caller-owned u2d_work
 * The core never allocates on the evaluation path, never prints and never aborts: loaders
 * return NULL and fill the caller's error buffer, evaluations return a u2d_status.
 */
#ifndef U2D_MODEL_H
#define U2D_MODEL_H

#include <stddef.h>
#include "u2d_spatial.h"

#define U2D_ERRLEN 512

typedef enum {
    U2D_OK = 0,
    U2D_ERR_NOMEM,          /* an allocation failed                               */
    U2D_ERR_QUATERNION,     /* a floating joint's quaternion has zero or non-finite norm */
    U2D_ERR_THREAD,         /* a worker thread could not be started               */
} u2d_status;

/* Joint types as written in the URDF. The compiled model keeps only movable ones. */
typedef enum {
    U2D_JOINT_FIXED = 0,
    U2D_JOINT_REVOLUTE,
    U2D_JOINT_CONTINUOUS,   /* a revolute joint without limits; q is a plain angle */
    U2D_JOINT_PRISMATIC,
    U2D_JOINT_FLOATING,     /* q = [x y z qx qy qz qw], v = [v_lin w] in the child frame */
    U2D_JOINT_PLANAR,       /* q = [x y theta] in the plane normal to the axis, v = dq/dt */
} u2d_jtype;

/* ---- the URDF document, as read ---------------------------------------- */

typedef struct {
    const char *name;
    int has_inertial;
    double mass;
    double com[3];          /* centre of mass in the link frame                        */
    double Icom[9];         /* inertia about the centre of mass, link-frame axes       */
} u2d_urdf_link;

typedef struct {
    const char *name;
    u2d_jtype type;
    int parent, child;      /* link indices                                            */
    u2d_xform origin;       /* parent link frame -> joint frame at q = 0               */
    double axis[3];         /* unit axis in the joint frame                            */
    int has_limit;
    double lower, upper, effort, velocity;
    double damping, friction;
    const char *mimic;      /* name of the mimicked joint or NULL                      */
    double mimic_multiplier, mimic_offset;
} u2d_urdf_joint;

typedef struct {
    const char *name;       /* robot name                                              */
    int nlink, njoint;
    u2d_urdf_link *link;    /* (nlink)  in document order                              */
    u2d_urdf_joint *joint;  /* (njoint) in document order                              */
    int root;               /* index of the root link                                  */
    char *strings;          /* owns every name                                         */
} u2d_urdf;

/* Parse and validate URDF text. Returns NULL and writes a message to err on failure. */
u2d_urdf *u2d_urdf_parse(const char *xml, char err[U2D_ERRLEN]);
void u2d_urdf_free(u2d_urdf *u);

/* ---- the compiled model ------------------------------------------------ */

typedef struct {
    int nbody;              /* bodies, including body 0 = the fixed world              */
    int njoint;             /* movable joints = nbody - 1                              */
    int nq, nv;
    int nlink;              /* every URDF link, addressable by name                    */

    /* per body (nbody); body i > 0 hangs from joint i-1 */
    int *parent;            /* (nbody)   parent body, parent[i] < i; -1 for the world  */
    int *jtype;             /* (nbody)   u2d_jtype of the joint above the body         */
    int *qadr, *vadr;       /* (nbody)   first q / v index of that joint               */
    int *jnq, *jnv;         /* (nbody)   its numbers of coordinates                    */
    double *axis;           /* (nbody,3) joint axis / planar normal, joint frame       */
    int *jaxis;             /* (nbody)   0, 1, 2 when the axis is +-x, +-y, +-z, else -1 */
    double *plane;          /* (nbody,6) planar in-plane unit axes u, w                */
    u2d_xform *Xtree;       /* (nbody)   parent body frame -> joint frame at q = 0     */
    u2d_inertia *inertia;       /* (nbody)   spatial inertia in the body frame, with every
                                         link merged into the body by fixed joints     */
    int *jurdf;             /* (nbody)   index of the joint in the u2d_urdf, -1: world */

    /* per URDF link (nlink): the body it rides on and where it sits on it */
    int *link_body;         /* (nlink)                                                 */
    u2d_xform *link_X;      /* (nlink)   body frame -> link frame (constant)           */

    void *buffer;           /* the single allocation holding every array above         */
} u2d_model;

u2d_model *u2d_model_compile(const u2d_urdf *u, int floating_base, char err[U2D_ERRLEN]);
void u2d_model_free(u2d_model *m);

/* ---- per-evaluation workspace (caller-owned, one per thread) ------------ */

typedef struct {
    int nbody;
    u2d_xform *Xup;         /* (nbody)   parent body -> body                           */
    u2d_xform *Xa;          /* (nbody)   world -> body (for external forces)           */
    double *v, *a, *f;      /* (nbody,6) velocity, acceleration, force                 */
    double *S;              /* (nbody,36) motion subspace columns of each joint        */
    double *cJ;             /* (nbody,6) velocity-product acceleration of each joint   */
    double *fext;           /* (nbody,6) external wrench per body, world frame at O    */
    void *buffer;
} u2d_work;

u2d_work *u2d_work_new(const u2d_model *m);
void u2d_work_free(u2d_work *w);

/* ---- joint model --------------------------------------------------------- */

/* Body i's joint: the transform from the parent body, Xup = X_J(q) Xtree (computed as one
 * product so that axis-aligned joints cost a plane rotation), the motion subspace S
 * (6 x jnv, column k at S + 6k) and the velocity-product term cJ = (dS/dt) qd.
 * The only function that switches on the joint type. */
u2d_status u2d_jcalc(const u2d_model *m, int i, const double *q, const double *qd,
                     u2d_xform *Xup, double *S, double cJ[6]);

/* ---- external forces ---------------------------------------------------- */

/* Wrenches [f; n] with n about the world origin, world coordinates, applied to bodies. */
typedef struct {
    int n;                  /* number of wrenches                                      */
    const int *body;        /* (n) body each wrench acts on                            */
    const double *wrench;   /* (n,6) [fx fy fz mx my mz], as in DESIGN.md              */
} u2d_fext;

/* ---- algorithms (one sample) -------------------------------------------- */

u2d_status u2d_rnea(const u2d_model *m, u2d_work *w, const double gravity[3],
                    const double *q, const double *qd, const double *qdd,
                    const u2d_fext *fext, double *tau);

#endif
