/* u2d_mjcf_mass.c: the mass and inertia MuJoCo's compiler gives a geom (mjCGeom::GetVolume,
 * SetInertia and Compile), so that a body without <inertial> weighs what it weighs in MuJoCo.
 * Solid (volume) and shell (surface) inertias of spheres, capsules, cylinders, ellipsoids and
 * boxes by MuJoCo's formulas (the shell ellipsoid's Thomsen area and its 1e-6 shell included);
 * meshes by u2d_mesh.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "parse/u2d_mjcf.h"

static const double PI = 3.14159265358979323846;

/* Volume, or area for a shell. */
static double geom_volume(const u2d_mj_geom *g)
{
    const double *s = g->size;
    double r = s[0], h = 2.0 * s[1];
    switch (g->type) {
    case U2D_GEOM_SPHERE:
        return g->shell ? 4 * PI * r * r : 4 * PI * r * r * r / 3;
    case U2D_GEOM_CAPSULE:
        return g->shell ? 4 * PI * r * r + 2 * PI * r * h : PI * (r * r * h + 4 * r * r * r / 3);
    case U2D_GEOM_CYLINDER:
        return g->shell ? 2 * PI * r * r + 2 * PI * r * h : PI * r * r * h;
    case U2D_GEOM_ELLIPSOID:
        if (!g->shell) return 4 * PI * s[0] * s[1] * s[2] / 3;
        {
            const double p = 1.6075;
            double t = pow(s[0] * s[1], p) + pow(s[1] * s[2], p) + pow(s[2] * s[0], p);
            return 4 * PI * pow(t / 3, 1 / p);
        }
    case U2D_GEOM_HFIELD:
    case U2D_GEOM_BOX:
        return g->shell ? 8 * (s[0] * s[1] + s[1] * s[2] + s[2] * s[0]) : 8 * s[0] * s[1] * s[2];
    case U2D_GEOM_MESH:
    case U2D_GEOM_SDF:
        return g->mesh ? g->mesh->volume : 0.0;
    default:
        return 0.0;
    }
}

/* The half-size of the box of e's moments along axis k (per unit density, over vol), and 0
 * for a flat mesh's, whose e[k] is the other two's sum: rounding leaves it a few ulps either
 * side, and MuJoCo's compiler, taking it as it falls, makes a NaN of some flat meshes and
 * loads others. */
static double box_half_size(const double e[3], int k, double vol)
{
    double s = e[(k + 1) % 3] + e[(k + 2) % 3] - e[k];
    if (s < 0 && s >= -1e-12 * (e[0] + e[1] + e[2])) s = 0;
    return 0.5 * sqrt(6 * s / vol);
}

/* A mesh geom's principal moments d, mass m, from its mesh's per unit density e (over its
 * volume, or area for a shell, vol) as MuJoCo's compiler takes them: through the box of the
 * same inertia (mjCMesh::Process's boxsz, mjCGeom::SetInertia). */
static void mesh_box_moments(const double e[3], double vol, double m, double d[3])
{
    double box[3] = {box_half_size(e, 0, vol), box_half_size(e, 1, vol), box_half_size(e, 2, vol)};
    d[0] = m * (box[1] * box[1] + box[2] * box[2]) / 3;
    d[1] = m * (box[0] * box[0] + box[2] * box[2]) / 3;
    d[2] = m * (box[0] * box[0] + box[1] * box[1]) / 3;
    /* flat: the moment about the normal is the sum of the other two (a lamina's), kept to
     * the last bit so that the body's A + B >= C, which MuJoCo checks exactly, holds */
    for (int k = 0; k < 3; k++)
        if (box[k] == 0) d[k] = d[(k + 1) % 3] + d[(k + 2) % 3];
}

/* Principal moments of a geom of mass m about its centre, in its own frame. */
static void geom_moments(const u2d_mj_geom *g, double m, double I[3])
{
    const double *s = g->size;
    double r = s[0], hh = s[1], h = 2.0 * hh;
    double s00 = s[0] * s[0], s11 = s[1] * s[1], s22 = s[2] * s[2];
    I[0] = I[1] = I[2] = 0.0;
    switch (g->type) {
    case U2D_GEOM_SPHERE:
        I[0] = I[1] = I[2] = (g->shell ? 2.0 / 3.0 : 2.0 / 5.0) * m * r * r;
        return;
    case U2D_GEOM_CAPSULE:
        if (!g->shell) {
            double ms = m * 4 * r / (4 * r + 3 * h), mc = m - ms;     /* hemispheres, cylinder */
            double is = 2 * ms * r * r / 5;
            I[0] = I[1] = mc * (3 * r * r + h * h) / 12 + is + ms * h * (3 * r + 2 * h) / 8;
            I[2] = mc * r * r / 2 + is;
        } else {
            double as = 4 * PI * r * r, ac = 2 * PI * r * h;
            double ms = m * as / (as + ac), mc = m - ms;
            double is = 2 * ms * r * r / 3, com = r / 2, at = hh + com;
            I[0] = I[1] = mc * (6 * r * r + h * h) / 12 + is + ms * (at * at - com * com);
            I[2] = mc * r * r + is;
        }
        return;
    case U2D_GEOM_CYLINDER:
        if (!g->shell) {
            I[0] = I[1] = m * (3 * r * r + h * h) / 12;
            I[2] = m * r * r / 2;
        } else {
            double ad = PI * r * r, ac = 2 * PI * r * h;
            double md = m * ad / (2 * ad + ac), mc = m - 2 * md;
            I[0] = I[1] = mc * (6 * r * r + h * h) / 12 + 2 * (md * r * r / 4 + md * hh * hh);
            I[2] = mc * r * r + 2 * (md * r * r / 2);
        }
        return;
    case U2D_GEOM_ELLIPSOID:
        if (!g->shell) {
            I[0] = m * (s11 + s22) / 5;
            I[1] = m * (s00 + s22) / 5;
            I[2] = m * (s00 + s11) / 5;
        } else {                    /* MuJoCo's: a solid grown by 1e-6 minus the solid */
            const double eps = 1e-6;
            double a = s[0] + eps, b = s[1] + eps, c = s[2] + eps;
            double va = 4 * PI * s[0] * s[1] * s[2] / 3, vb = 4 * PI * a * b * c / 3;
            double rho = m / (vb - va), ma = va * rho, mb = vb * rho;
            I[0] = mb * (b * b + c * c) / 5 - ma * (s11 + s22) / 5;
            I[1] = mb * (a * a + c * c) / 5 - ma * (s00 + s22) / 5;
            I[2] = mb * (a * a + b * b) / 5 - ma * (s00 + s11) / 5;
        }
        return;
    case U2D_GEOM_HFIELD:
    case U2D_GEOM_BOX:
        if (!g->shell) {
            I[0] = m * (s11 + s22) / 3;
            I[1] = m * (s00 + s22) / 3;
            I[2] = m * (s00 + s11) / 3;
        } else {
            double lx = 2 * s[0], ly = 2 * s[1], lz = 2 * s[2];
            double a0 = lx * ly, a1 = ly * lz, a2 = lz * lx, at = 2 * (a0 + a1 + a2);
            double m0 = m * a0 / at, m1 = m * a1 / at, m2 = m * a2 / at;
            I[0] = 2 * (m0 * s22 + m2 * s11 + m0 * ly * ly / 12 + m1 * (ly * ly + lz * lz) / 12
                        + m2 * lz * lz / 12);
            I[1] = 2 * (m0 * s22 + m1 * s00 + m0 * lx * lx / 12 + m1 * lz * lz / 12
                        + m2 * (lx * lx + lz * lz) / 12);
            I[2] = 2 * (m1 * s00 + m2 * s11 + m0 * (lx * lx + ly * ly) / 12 + m1 * ly * ly / 12
                        + m2 * lx * lx / 12);
        }
        return;
    default:
        return;
    }
}

double u2d_mj_geom_mass(const u2d_mj_geom *g, double com[3], double I[9], double D[9],
                        double axes[4])
{
    double vol = geom_volume(g), m;
    memset(I, 0, 9 * sizeof(double));
    memset(D, 0, 9 * sizeof(double));
    memcpy(com, g->pose.pos, 3 * sizeof(double));
    memcpy(axes, g->pose.quat, 4 * sizeof(double));
    if (g->has_mass) {
        if (g->mass == 0.0 || !(vol > U2D_MJ_EPS)) return 0.0;  /* MuJoCo keeps it massless */
        m = g->mass;
    } else {
        if (g->density == 0.0) return 0.0;
        m = g->density * vol;
    }
    double R[9], T[9], d[3];
    if (g->type == U2D_GEOM_MESH || g->type == U2D_GEOM_SDF) {
        /* MuJoCo moves a mesh onto its principal axes (per unit density) and the geom's
         * frame with it: its centre moves with the geom, its axes turn */
        double c[3], qm[4];
        u2d_mj_quat_matrix(g->pose.quat, R);
        u2d_mulmv3(R, g->mesh->com, c);
        for (int k = 0; k < 3; k++) com[k] += c[k];
        double e[3];
        u2d_mj_principal_axes(g->mesh->I, e, qm);
        mesh_box_moments(e, vol, m, d);
        u2d_mj_quat_mul(g->pose.quat, qm, axes);
    } else {
        geom_moments(g, m, d);
    }
    D[0] = d[0]; D[4] = d[1]; D[8] = d[2];
    u2d_mj_quat_matrix(axes, R);
    u2d_mulmm3(R, D, T);                            /* R D R^T */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            I[3 * i + j] = T[3 * i] * R[3 * j] + T[3 * i + 1] * R[3 * j + 1]
                         + T[3 * i + 2] * R[3 * j + 2];
    return m;
}

/* R(q)^T A R(q): A in the axes of the frame q. */
static void in_axes(const double A[9], const double q[4], double D[9])
{
    double R[9], T[9];
    u2d_mj_quat_matrix(q, R);
    u2d_mulmm3(A, R, T);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            D[3 * i + j] = R[i] * T[j] + R[3 + i] * T[3 + j] + R[6 + i] * T[6 + j];
}

/* q turned by the unit quaternion with vector part s on axis k (w from it) and renormalized. */
static void turn(double q[4], int k, double s, double w)
{
    double t[4] = {w, 0, 0, 0};
    t[k + 1] = s;
    u2d_mj_quat_mul(q, t, q);
    u2d_mj_normalize(q, 4);
}

/* Jacobi's method with the rotations kept in a quaternion, as MuJoCo 4's compiler does it
 * (found by probing its mju_eig3, which body_iquat follows): each step zeroes the largest
 * off-diagonal entry of A in the current axes (ties to the later pair of 01, 02, 12) until
 * that entry is below 4e-15 of the largest moment; the moments are then put in decreasing
 * order by quarter turns (pairs 01, 12, 01, each only when they differ by more than 1e-12
 * of the largest). The moments come out exact to rounding; the axes, where two moments
 * are equal, are the ones MuJoCo's path through them gives. */
void u2d_mj_principal_axes(const double A[9], double lam[3], double q[4])
{
    double D[9];
    q[0] = 1; q[1] = q[2] = q[3] = 0;
    for (int iter = 0; iter < 500; iter++) {
        in_axes(A, q, D);
        lam[0] = D[0]; lam[1] = D[4]; lam[2] = D[8];
        int r, c, k;                    /* the entry (r, c), turned about axis k */
        if (fabs(D[1]) > fabs(D[2]) && fabs(D[1]) > fabs(D[5])) { r = 0; c = 1; k = 2; }
        else if (fabs(D[2]) > fabs(D[5])) { r = 0; c = 2; k = 1; }
        else { r = 1; c = 2; k = 0; }
        double off = D[3 * r + c], big = fmax(fabs(lam[0]), fmax(fabs(lam[1]), fabs(lam[2])));
        if (!(fabs(off) > 4e-15 * big)) break;
        /* the rotation by theta, tan(theta) = t, that zeroes the entry (|theta| <= pi/4) */
        double tau = (D[4 * c] - D[4 * r]) / (2 * off), root = sqrt(1 + tau * tau);
        double t = tau >= 0 ? 1 / (tau + root) : -1 / (root - tau);
        double cs = 1 / sqrt(1 + t * t);
        /* as a quaternion about axis k: the half angle's sine from the sine (exact for the
         * smallest angles), its sign from the orientation of the plane (r, c) about k
         * (y's plane, (x, z), turns the other way) */
        double s = -t * cs / sqrt(2 + 2 * cs) * (k == 1 ? -1 : 1);
        turn(q, k, s, sqrt(0.5 + 0.5 * cs));
    }
    static const double HALF = 0.70710678118654752440;
    double big = fmax(fabs(lam[0]), fmax(fabs(lam[1]), fabs(lam[2])));
    for (int j = 0; j < 3; j++) {
        int a = j % 2;                  /* the pair (a, a + 1), swapped about the third axis */
        if (lam[a] + 1e-12 * big < lam[a + 1]) {
            double x = lam[a];
            lam[a] = lam[a + 1];
            lam[a + 1] = x;
            turn(q, (a + 2) % 3, HALF, HALF);
        }
    }
}

int u2d_mj_fix_inertia(double *mass, double lam[3], double slack, double boundmass,
                       double boundinertia, int balance, char why[200])
{
    if (*mass < boundmass) *mass = boundmass;
    if (boundinertia > 0)
        for (int k = 0; k < 3; k++)
            if (lam[k] < boundinertia) lam[k] = boundinertia;
    double tr = lam[0] + lam[1] + lam[2], tol = slack * fabs(tr);
    if (*mass < 0 || lam[0] < -tol || lam[1] < -tol || lam[2] < -tol) {
        snprintf(why, 200, "mass and inertia cannot be negative (mass %g, principal moments "
                 "%g %g %g)", *mass, lam[0], lam[1], lam[2]);
        return -1;
    }
    if (lam[0] + lam[1] < lam[2] - tol || lam[0] + lam[2] < lam[1] - tol ||
        lam[1] + lam[2] < lam[0] - tol) {
        if (!balance) {
            snprintf(why, 200, "principal moments %g %g %g break A + B >= C (MuJoCo refuses "
                     "them too; compiler balanceinertia=\"true\" evens them out)", lam[0],
                     lam[1], lam[2]);
            return -1;
        }
        lam[0] = lam[1] = lam[2] = tr / 3;
    }
    return 0;
}
