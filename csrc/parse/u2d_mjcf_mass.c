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

double u2d_mj_geom_mass(const u2d_mj_geom *g, double com[3], double I[9], double D[9])
{
    double vol = geom_volume(g), m;
    memset(I, 0, 9 * sizeof(double));
    memset(D, 0, 9 * sizeof(double));
    memcpy(com, g->pose.pos, 3 * sizeof(double));
    if (g->has_mass) {
        if (g->mass == 0.0 || !(vol > U2D_MJ_EPS)) return 0.0;  /* MuJoCo keeps it massless */
        m = g->mass;
    } else {
        if (g->density == 0.0) return 0.0;
        m = g->density * vol;
    }
    double R[9], T[9];
    u2d_mj_quat_matrix(g->pose.quat, R);
    if (g->type == U2D_GEOM_MESH || g->type == U2D_GEOM_SDF) {
        /* the mesh's inertia per unit density, scaled; its centre moves with the geom */
        double c[3];
        for (int k = 0; k < 9; k++) D[k] = g->mesh->I[k] * m / vol;
        u2d_mulmv3(R, g->mesh->com, c);
        for (int k = 0; k < 3; k++) com[k] += c[k];
    } else {
        double d[3];
        geom_moments(g, m, d);
        D[0] = d[0]; D[4] = d[1]; D[8] = d[2];
    }
    u2d_mulmm3(R, D, T);                            /* R D R^T */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            I[3 * i + j] = T[3 * i] * R[3 * j] + T[3 * i + 1] * R[3 * j + 1]
                         + T[3 * i + 2] * R[3 * j + 2];
    return m;
}

/* Eigen-decomposition of a symmetric 3x3 matrix by Jacobi rotations: A = V diag(lam) V^T,
 * V's columns the eigenvectors. */
static void jacobi3(const double A[9], double lam[3], double V[9])
{
    double a[9];
    memcpy(a, A, sizeof a);
    for (int k = 0; k < 9; k++) V[k] = k % 4 == 0 ? 1.0 : 0.0;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(a[1]) + fabs(a[2]) + fabs(a[5]);
        if (off < 1e-300 || off <= 1e-17 * (fabs(a[0]) + fabs(a[4]) + fabs(a[8]))) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                double apq = a[3 * p + q];
                if (apq == 0.0) continue;
                double th = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
                double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) {           /* a = J^T a J */
                    double akp = a[3 * k + p], akq = a[3 * k + q];
                    a[3 * k + p] = c * akp - s * akq;
                    a[3 * k + q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {
                    double apk = a[3 * p + k], aqk = a[3 * q + k];
                    a[3 * p + k] = c * apk - s * aqk;
                    a[3 * q + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    double vkp = V[3 * k + p], vkq = V[3 * k + q];
                    V[3 * k + p] = c * vkp - s * vkq;
                    V[3 * k + q] = s * vkp + c * vkq;
                }
            }
    }
    lam[0] = a[0]; lam[1] = a[4]; lam[2] = a[8];
}

int u2d_mj_fix_inertia(double *mass, double I[9], double boundmass, double boundinertia,
                       int balance, double lam[3], char why[200])
{
    double V[9];
    if (*mass < boundmass) *mass = boundmass;
    jacobi3(I, lam, V);
    if (boundinertia > 0)
        for (int k = 0; k < 3; k++)
            if (lam[k] < boundinertia) {            /* raise that principal moment */
                double d = boundinertia - lam[k];
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++) I[3 * i + j] += d * V[3 * i + k] * V[3 * j + k];
                lam[k] = boundinertia;
            }
    /* MuJoCo compares its principal moments exactly; a diagonal inertia's are exact here
     * too, other ones carry the eigen-solvers' rounding, which a small slack absorbs */
    int diagonal = I[1] == 0 && I[2] == 0 && I[5] == 0 && I[3] == 0 && I[6] == 0 && I[7] == 0;
    double tr = lam[0] + lam[1] + lam[2], tol = diagonal ? 0.0 : 1e-12 * fabs(tr);
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
        for (int k = 0; k < 9; k++) I[k] = k % 4 == 0 ? tr / 3 : 0.0;
        lam[0] = lam[1] = lam[2] = tr / 3;
    }
    return 0;
}
