/* u2d_mjcf.h: what the MJCF reader's files share (u2d_mjcf.c reads the document,
 * u2d_mjcf_mass.c gives bodies the inertia MuJoCo's compiler gives them, u2d_mesh.c reads
 * meshes). Quaternions are MuJoCo's, (w, x, y, z). */
#ifndef U2D_MJCF_H
#define U2D_MJCF_H

#include <math.h>
#include "model/u2d_model.h"
#include "model/u2d_mjquat.h"

#define U2D_MJ_EPS 1e-14            /* MuJoCo's mjEPS    */

/* ---- quaternions (w, x, y, z) and poses ---------------------------------------------- */

/* MuJoCo's mjuu_normvec: the norm; v unit unless it is tiny (v kept, 0 returned). */
static inline double u2d_mj_normalize(double *v, int n)
{
    double s = 0.0;
    for (int k = 0; k < n; k++) s += v[k] * v[k];
    if (s < U2D_MJ_EPS) return 0.0;
    s = sqrt(s);
    if (fabs(s - 1.0) > U2D_MJ_EPS)
        for (int k = 0; k < n; k++) v[k] /= s;
    return s;
}

static inline void u2d_mj_rotate(const double q[4], const double v[3], double out[3])
{
    double R[9];
    u2d_mj_quat_matrix(q, R);
    u2d_mulmv3(R, v, out);
}

/* A pose: a frame's origin and orientation in its parent's coordinates. */
typedef struct { double pos[3], quat[4]; } u2d_mj_pose;

/* out = a b: b's frame placed in a's (out may alias either). */
static inline void u2d_mj_pose_mul(const u2d_mj_pose *a, const u2d_mj_pose *b, u2d_mj_pose *out)
{
    double p[3], q[4];
    u2d_mj_rotate(a->quat, b->pos, p);
    u2d_mj_quat_mul(a->quat, b->quat, q);
    for (int k = 0; k < 3; k++) out->pos[k] = a->pos[k] + p[k];
    for (int k = 0; k < 4; k++) out->quat[k] = q[k];
}

/* The transform of the core (parent coordinates -> frame coordinates) for a pose. */
static inline void u2d_mj_pose_xform(const u2d_mj_pose *p, u2d_xform *X)
{
    double R[9];
    u2d_mj_quat_matrix(p->quat, R);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) X->E[3 * i + j] = R[3 * j + i];
    for (int k = 0; k < 3; k++) X->r[k] = p->pos[k];
}

/* ---- mass ---------------------------------------------------------------------------- */

/* A mesh asset as MuJoCo compiles it for inertia: volume (or area), centre of mass and
 * inertia about it per unit density, in the mesh's (scaled) coordinates. */
typedef struct {
    double volume, com[3], I[9];
    int flat;                   /* U2D_HULL_*: its vertices as given have no convex hull */
} u2d_mj_mesh_mass;

/* Why a mesh's vertices, as the file or vertex= gives them (before refpos, refquat and
 * scale), have no convex hull: MuJoCo's compiler builds one for a mesh a geom collides
 * with, and refuses these. */
enum { U2D_HULL_OK = 0, U2D_HULL_COLOCATED, U2D_HULL_COLLINEAR, U2D_HULL_COPLANAR };

enum { U2D_MESH_CONVEX = 0, U2D_MESH_EXACT, U2D_MESH_LEGACY, U2D_MESH_SHELL };

/* How a mesh is placed before its mass is computed: its <mesh> attributes. */
typedef struct {
    int inertia;                /* U2D_MESH_*                                    */
    double scale[3], refpos[3], refquat[4];
} u2d_mj_mesh_spec;

/* Volume, centre and inertia of a mesh file's triangles as MuJoCo computes them (binary
 * STL, or OBJ's first group of faces). name is the file's, for messages. 0, or -1 with a
 * message in err. */
int u2d_mesh_mass(const char *data, size_t len, const char *name, const u2d_mj_mesh_spec *spec,
                  u2d_mj_mesh_mass *out, char err[U2D_ERRLEN]);

/* The same from vertices (nvert,3) and triangles (nface,3) as given in the MJCF. */
int u2d_mesh_mass_of(int nvert, const float *vert, int nface, const int *face,
                     const char *name, const u2d_mj_mesh_spec *spec, u2d_mj_mesh_mass *out,
                     char err[U2D_ERRLEN]);

enum { U2D_GEOM_PLANE = 0, U2D_GEOM_HFIELD, U2D_GEOM_SPHERE, U2D_GEOM_CAPSULE,
       U2D_GEOM_ELLIPSOID, U2D_GEOM_CYLINDER, U2D_GEOM_BOX, U2D_GEOM_MESH, U2D_GEOM_SDF };

/* A geom's contribution to its body's inertia, as MuJoCo's compiler derives it. */
typedef struct {
    int type;                   /* U2D_GEOM_*                                   */
    int shell;                  /* shellinertia                                  */
    double size[3];
    u2d_mj_pose pose;           /* in the body frame (fromto and frames applied) */
    int has_mass;               /* mass given (else density)                     */
    double mass, density;
    const u2d_mj_mesh_mass *mesh;   /* mesh geoms                                */
} u2d_mj_geom;

/* mass, centre and inertia about it of one geom (0 when it has none): I in the body's axes,
 * D diagonal in the geom's principal axes, axes (in the body frame: g->pose.quat, turned
 * for a mesh onto its principal axes as MuJoCo turns a mesh geom's frame). */
double u2d_mj_geom_mass(const u2d_mj_geom *g, double com[3], double I[9], double D[9],
                        double axes[4]);

/* The principal moments (decreasing) and axes (the quaternion q of the frame they are
 * about) of a symmetric inertia A, as MuJoCo's compiler finds them, with its tolerances:
 * MuJoCo keeps these, not A, so what they leave of A is not in its model either. */
void u2d_mj_principal_axes(const double A[9], double lam[3], double q[4]);

/* MuJoCo's test of an inertial frame that is the body's (body_sameframe): every
 * coordinate of its origin, and of its quaternion's difference from +-identity, below
 * 1e-6. MuJoCo then computes as if the offset were exactly zero, or the axes exactly the
 * body's. */
#define U2D_MJ_FRAME_EPS 1e-6

static inline int u2d_mj_null_pos(const double p[3])
{
    return fabs(p[0]) < U2D_MJ_FRAME_EPS && fabs(p[1]) < U2D_MJ_FRAME_EPS &&
           fabs(p[2]) < U2D_MJ_FRAME_EPS;
}

static inline int u2d_mj_null_quat(const double q[4])
{
    int axes = fabs(q[1]) < U2D_MJ_FRAME_EPS && fabs(q[2]) < U2D_MJ_FRAME_EPS &&
               fabs(q[3]) < U2D_MJ_FRAME_EPS;
    return axes && (fabs(q[0] - 1) < U2D_MJ_FRAME_EPS || fabs(q[0] + 1) < U2D_MJ_FRAME_EPS);
}

/* MuJoCo's checks and corrections of a body's mass and principal moments of inertia (lam,
 * corrected in place: MuJoCo's body_inertia): boundmass, boundinertia, negative values
 * refused, the triangle inequality A + B >= C refused or, with balanceinertia, evened out.
 * slack: how far an eigen-solver's rounding may carry the moments past a bound (0 for
 * moments given as they are). 0, or -1 with the reason in why. */
int u2d_mj_fix_inertia(double *mass, double lam[3], double slack, double boundmass,
                       double boundinertia, int balance, char why[200]);

#endif
