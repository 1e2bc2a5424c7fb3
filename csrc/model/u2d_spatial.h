/* u2d_spatial.h: 6D spatial algebra as small inline functions.
 *
 * Conventions (Featherstone, "Rigid Body Dynamics Algorithms", ch. 2):
 *   motion vector  m = [w; v]   angular part first, v = velocity of the point at the frame origin
 *   force vector   f = [n; f]   moment about the frame origin first
 *   Plücker transform X = (E, r) from frame A to frame B: E rotates A coordinates into B
 *   coordinates and r is B's origin expressed in A, so a point maps as p_B = E (p_A - r).
 *   spatial inertia  I = (m, h, Ib): mass, first moment h = m c, and the 3x3 rotational
 *   inertia about the frame origin (not about the centre of mass).
 * 3x3 matrices are row-major u2d_real[9]. Written over u2d_real (u2d_real.h): u2d_real in the
 * ordinary build, a vector of samples in the SIMD units.
 */
#ifndef U2D_SPATIAL_H
#define U2D_SPATIAL_H

#include <math.h>
#include <string.h>
#include "model/u2d_port.h"
#include "model/u2d_real.h"

typedef struct { u2d_real E[9]; u2d_real r[3]; } u2d_xform;
typedef struct { u2d_real m; u2d_real h[3]; u2d_real Ib[9]; } u2d_inertia;

/* ---- 3D helpers -------------------------------------------------------- */

static U2D_ALWAYS_INLINE void u2d_cross3(const u2d_real a[3], const u2d_real b[3], u2d_real out[3])
{
    u2d_real x = a[1] * b[2] - a[2] * b[1];
    u2d_real y = a[2] * b[0] - a[0] * b[2];
    u2d_real z = a[0] * b[1] - a[1] * b[0];
    out[0] = x; out[1] = y; out[2] = z;
}

static U2D_ALWAYS_INLINE u2d_real u2d_dot3(const u2d_real a[3], const u2d_real b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* out = M a */
static U2D_ALWAYS_INLINE void u2d_mulmv3(const u2d_real M[9], const u2d_real a[3], u2d_real out[3])
{
    u2d_real x = M[0] * a[0] + M[1] * a[1] + M[2] * a[2];
    u2d_real y = M[3] * a[0] + M[4] * a[1] + M[5] * a[2];
    u2d_real z = M[6] * a[0] + M[7] * a[1] + M[8] * a[2];
    out[0] = x; out[1] = y; out[2] = z;
}

/* out = M^T a */
static U2D_ALWAYS_INLINE void u2d_multv3(const u2d_real M[9], const u2d_real a[3], u2d_real out[3])
{
    u2d_real x = M[0] * a[0] + M[3] * a[1] + M[6] * a[2];
    u2d_real y = M[1] * a[0] + M[4] * a[1] + M[7] * a[2];
    u2d_real z = M[2] * a[0] + M[5] * a[1] + M[8] * a[2];
    out[0] = x; out[1] = y; out[2] = z;
}

/* out = A B (out may not alias A or B) */
static U2D_ALWAYS_INLINE void u2d_mulmm3(const u2d_real A[9], const u2d_real B[9], u2d_real out[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* out = A^T B (out may not alias A or B) */
static U2D_ALWAYS_INLINE void u2d_multm3(const u2d_real A[9], const u2d_real B[9], u2d_real out[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}

static U2D_ALWAYS_INLINE void u2d_eye3(u2d_real M[9])
{
    for (int k = 0; k < 9; k++) M[k] = U2D_R(k % 4 == 0);
}

/* Rotation by angle t about the unit axis n (Rodrigues). */
static U2D_ALWAYS_INLINE void u2d_axis_angle(const u2d_real n[3], u2d_real t, u2d_real R[9])
{
    u2d_real c, s;
    u2d_sincos(t, &s, &c);
    u2d_real k = 1.0 - c;
    u2d_real x = n[0], y = n[1], z = n[2];
    R[0] = c + k * x * x;     R[1] = k * x * y - s * z; R[2] = k * x * z + s * y;
    R[3] = k * x * y + s * z; R[4] = c + k * y * y;     R[5] = k * y * z - s * x;
    R[6] = k * x * z - s * y; R[7] = k * y * z + s * x; R[8] = c + k * z * z;
}

/* R = Rx(a0) Ry(a1) Rz(a2) from body-fixed X-Y-Z angles, OpenSim's orientations (frames,
 * wrap objects): its columns are the rotated frame's axes in the parent frame. In double
 * whatever u2d_real is: the .osim reader and the muscle paths use it on read values. */
static inline void u2d_rot_xyz(const double a[3], double R[9])
{
    double cx = cos(a[0]), sx = sin(a[0]), cy = cos(a[1]), sy = sin(a[1]);
    double cz = cos(a[2]), sz = sin(a[2]);
    R[0] = cy * cz;                 R[1] = -cy * sz;                R[2] = sy;
    R[3] = cx * sz + sx * sy * cz;  R[4] = cx * cz - sx * sy * sz;  R[5] = -sx * cy;
    R[6] = sx * sz - cx * sy * cz;  R[7] = sx * cz + cx * sy * sz;  R[8] = cx * cy;
}

/* ---- Plücker transforms ------------------------------------------------ */

static U2D_ALWAYS_INLINE void u2d_xform_identity(u2d_xform *X)
{
    u2d_eye3(X->E);
    X->r[0] = X->r[1] = X->r[2] = U2D_R(0);
}

/* out = A B: apply B first, then A (A: frame 1 -> 2, B: frame 0 -> 1, out: 0 -> 2). */
static U2D_ALWAYS_INLINE void u2d_xform_mul(const u2d_xform *A, const u2d_xform *B, u2d_xform *out)
{
    u2d_real E[9], t[3];
    u2d_mulmm3(A->E, B->E, E);
    u2d_multv3(B->E, A->r, t);
    out->r[0] = B->r[0] + t[0];
    out->r[1] = B->r[1] + t[1];
    out->r[2] = B->r[2] + t[2];
    u2d_copy(out->E, E, 9);
}

/* out = X^-1 */
static U2D_ALWAYS_INLINE void u2d_xform_inv(const u2d_xform *X, u2d_xform *out)
{
    u2d_real E[9], r[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            E[3 * i + j] = X->E[3 * j + i];
    u2d_mulmv3(X->E, X->r, r);
    u2d_copy(out->E, E, 9);
    out->r[0] = -r[0]; out->r[1] = -r[1]; out->r[2] = -r[2];
}

/* out = X m  (motion vector, A -> B) */
static U2D_ALWAYS_INLINE void u2d_xform_motion(const u2d_xform *X, const u2d_real m[6], u2d_real out[6])
{
    u2d_real t[3], w[3];
    u2d_cross3(X->r, m, t);
    t[0] = m[3] - t[0]; t[1] = m[4] - t[1]; t[2] = m[5] - t[2];
    u2d_mulmv3(X->E, m, w);
    u2d_mulmv3(X->E, t, out + 3);
    out[0] = w[0]; out[1] = w[1]; out[2] = w[2];
}

/* out = X* f = X^-T f  (force vector, A -> B) */
static U2D_ALWAYS_INLINE void u2d_xform_force(const u2d_xform *X, const u2d_real f[6], u2d_real out[6])
{
    u2d_real t[3], lin[3];
    u2d_cross3(X->r, f + 3, t);
    t[0] = f[0] - t[0]; t[1] = f[1] - t[1]; t[2] = f[2] - t[2];
    u2d_mulmv3(X->E, f + 3, lin);
    u2d_mulmv3(X->E, t, out);
    out[3] = lin[0]; out[4] = lin[1]; out[5] = lin[2];
}

/* out = X^T f  (force vector carried back, B -> A) */
static U2D_ALWAYS_INLINE void u2d_xform_force_T(const u2d_xform *X, const u2d_real f[6], u2d_real out[6])
{
    u2d_real n[3], lin[3], t[3];
    u2d_multv3(X->E, f, n);
    u2d_multv3(X->E, f + 3, lin);
    u2d_cross3(X->r, lin, t);
    out[0] = n[0] + t[0]; out[1] = n[1] + t[1]; out[2] = n[2] + t[2];
    out[3] = lin[0]; out[4] = lin[1]; out[5] = lin[2];
}

/* out = X^-1 m  (motion vector carried back, B -> A) */
static U2D_ALWAYS_INLINE void u2d_xform_motion_inv(const u2d_xform *X, const u2d_real m[6], u2d_real out[6])
{
    u2d_real w[3], v[3], t[3];
    u2d_multv3(X->E, m, w);
    u2d_multv3(X->E, m + 3, v);
    u2d_cross3(X->r, w, t);
    out[0] = w[0]; out[1] = w[1]; out[2] = w[2];
    out[3] = v[0] + t[0]; out[4] = v[1] + t[1]; out[5] = v[2] + t[2];
}

/* ---- spatial cross products -------------------------------------------- */

/* out = v x m  (motion cross motion) */
static U2D_ALWAYS_INLINE void u2d_crossm(const u2d_real v[6], const u2d_real m[6], u2d_real out[6])
{
    u2d_real a[3], b[3], c[3];
    u2d_cross3(v, m, a);
    u2d_cross3(v, m + 3, b);
    u2d_cross3(v + 3, m, c);
    out[0] = a[0]; out[1] = a[1]; out[2] = a[2];
    out[3] = b[0] + c[0]; out[4] = b[1] + c[1]; out[5] = b[2] + c[2];
}

/* out = v x* f  (motion cross force) */
static U2D_ALWAYS_INLINE void u2d_crossf(const u2d_real v[6], const u2d_real f[6], u2d_real out[6])
{
    u2d_real a[3], b[3], c[3];
    u2d_cross3(v, f, a);
    u2d_cross3(v + 3, f + 3, b);
    u2d_cross3(v, f + 3, c);
    out[0] = a[0] + b[0]; out[1] = a[1] + b[1]; out[2] = a[2] + b[2];
    out[3] = c[0]; out[4] = c[1]; out[5] = c[2];
}

/* ---- spatial inertia --------------------------------------------------- */

/* out = in m  (force = inertia times motion) */
static U2D_ALWAYS_INLINE void u2d_inertia_mul(const u2d_inertia *in, const u2d_real m[6], u2d_real out[6])
{
    u2d_real n[3], a[3], b[3];
    u2d_mulmv3(in->Ib, m, n);
    u2d_cross3(in->h, m + 3, a);
    u2d_cross3(in->h, m, b);
    out[0] = n[0] + a[0]; out[1] = n[1] + a[1]; out[2] = n[2] + a[2];
    out[3] = in->m * m[3] - b[0];
    out[4] = in->m * m[4] - b[1];
    out[5] = in->m * m[5] - b[2];
}

/* Inertia of a body with mass m, centre of mass c and rotational inertia Ic about the
 * centre of mass, all in frame F, expressed about F's origin (parallel-axis theorem). */
static U2D_ALWAYS_INLINE void u2d_inertia_from_com(u2d_real m, const u2d_real c[3], const u2d_real Ic[9],
                                        u2d_inertia *out)
{
    u2d_real cc = u2d_dot3(c, c);
    out->m = m;
    for (int i = 0; i < 3; i++) {
        out->h[i] = m * c[i];
        for (int j = 0; j < 3; j++)
            out->Ib[3 * i + j] = Ic[3 * i + j] + m * (cc * (double)(i == j) - c[i] * c[j]);
    }
}

/* E^T B E for a 3x3 B; only the upper triangle when B is symmetric (then mirrored). */
static U2D_ALWAYS_INLINE void u2d_rotate3(const u2d_real E[9], const u2d_real B[9], int symmetric,
                               u2d_real out[9])
{
    u2d_real BE[9];
    u2d_mulmm3(B, E, BE);
    for (int i = 0; i < 3; i++)
        for (int j = symmetric ? i : 0; j < 3; j++)
            out[3 * i + j] = E[i] * BE[j] + E[3 + i] * BE[3 + j] + E[6 + i] * BE[6 + j];
    if (symmetric) {
        out[3] = out[1]; out[6] = out[2]; out[7] = out[5];
    }
}

/* out = M [r]x: row i of out is (row i of M) x r. */
static U2D_ALWAYS_INLINE void u2d_mul_skew(const u2d_real M[9], const u2d_real r[3], u2d_real out[9])
{
    for (int i = 0; i < 3; i++) {
        const u2d_real *a = &M[3 * i];
        out[3 * i + 0] = a[1] * r[2] - a[2] * r[1];
        out[3 * i + 1] = a[2] * r[0] - a[0] * r[2];
        out[3 * i + 2] = a[0] * r[1] - a[1] * r[0];
    }
}

/* [a]x [b]x, the product of two cross-product matrices: b a^T - (a.b) 1. */
static U2D_ALWAYS_INLINE void u2d_skew_skew(const u2d_real a[3], const u2d_real b[3], u2d_real out[9])
{
    u2d_real d = u2d_dot3(a, b);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out[3 * i + j] = b[i] * a[j] - d * (double)(i == j);
}

/* out = X^T in X: the rigid-body inertia in, given in frame B, expressed in frame A
 * (X: A -> B). RBDA eq. 2.66: h' = E^T h + m r,
 * Ib' = E^T Ib E - [r]x [E^T h]x - [E^T h + m r]x [r]x  (no division: massless is fine). */
static U2D_ALWAYS_INLINE void u2d_inertia_xform_T(const u2d_xform *X, const u2d_inertia *in, u2d_inertia *out)
{
    u2d_real y[3], hA[3], rot[9], s1[9], s2[9];
    const u2d_real *r = X->r;
    u2d_multv3(X->E, in->h, y);
    for (int i = 0; i < 3; i++) hA[i] = y[i] + in->m * r[i];
    u2d_rotate3(X->E, in->Ib, 1, rot);
    u2d_skew_skew(r, y, s1);
    u2d_skew_skew(hA, r, s2);
    out->m = in->m;
    u2d_copy(out->h, hA, 3);
    for (int i = 0; i < 9; i++) out->Ib[i] = rot[i] - s1[i] - s2[i];
}

static U2D_ALWAYS_INLINE void u2d_inertia_add(u2d_inertia *acc, const u2d_inertia *in)
{
    acc->m += in->m;
    for (int i = 0; i < 3; i++) acc->h[i] += in->h[i];
    for (int i = 0; i < 9; i++) acc->Ib[i] += in->Ib[i];
}

/* ---- 6x6 matrices (articulated inertias), row-major u2d_real[36] ---------------- */

/* The rigid-body inertia as a 6x6 matrix [Ib, [h]x; -[h]x, m 1]. */
static U2D_ALWAYS_INLINE void u2d_inertia_mat6(const u2d_inertia *in, u2d_real A[36])
{
    const u2d_real *h = in->h;
    const u2d_real o = U2D_R(0);
    u2d_real hx[9] = {o, -h[2], h[1], h[2], o, -h[0], -h[1], h[0], o};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            A[6 * i + j] = in->Ib[3 * i + j];
            A[6 * i + j + 3] = hx[3 * i + j];
            A[6 * (i + 3) + j] = -hx[3 * i + j];
            A[6 * (i + 3) + j + 3] = in->m * (double)(i == j);
        }
}

/* out = A m */
static U2D_ALWAYS_INLINE void u2d_mat6_mul(const u2d_real A[36], const u2d_real m[6], u2d_real out[6])
{
    for (int i = 0; i < 6; i++) {
        u2d_real s = A[6 * i] * m[0];
        for (int j = 1; j < 6; j++) s += A[6 * i + j] * m[j];
        out[i] = s;
    }
}

/* out = X^T A X for a symmetric A given in frame B, expressed in frame A (X: A -> B).
 * With X = [E 0; -E [r]x E] and A = [P Q; Q^T T] rotated into A's axes (P', Q', T'):
 *   out = [P' - K - K^T - [r]x G,  Q' - G^T;  sym,  T']   with K = Q' [r]x, G = T' [r]x. */
static U2D_ALWAYS_INLINE void u2d_mat6_xform_T(const u2d_xform *X, const u2d_real A[36], u2d_real out[36])
{
    u2d_real P[9], Q[9], T[9], Pr[9], Qr[9], Tr[9], K[9], G[9], rG[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            P[3 * i + j] = A[6 * i + j];
            Q[3 * i + j] = A[6 * i + j + 3];
            T[3 * i + j] = A[6 * (i + 3) + j + 3];
        }
    u2d_rotate3(X->E, P, 1, Pr);
    u2d_rotate3(X->E, Q, 0, Qr);
    u2d_rotate3(X->E, T, 1, Tr);
    u2d_mul_skew(Qr, X->r, K);
    u2d_mul_skew(Tr, X->r, G);
    /* [r]x G = -(G^T [r]x)^T: computed from the rows of G^T */
    u2d_real Gt[9] = {G[0], G[3], G[6], G[1], G[4], G[7], G[2], G[5], G[8]}, GtR[9];
    u2d_mul_skew(Gt, X->r, GtR);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) rG[3 * i + j] = -GtR[3 * j + i];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            u2d_real c11 = Pr[3 * i + j] - K[3 * i + j] - K[3 * j + i] - rG[3 * i + j];
            u2d_real c12 = Qr[3 * i + j] - G[3 * j + i];
            out[6 * i + j] = c11;
            out[6 * i + j + 3] = c12;
            out[6 * (j + 3) + i] = c12;
            out[6 * (i + 3) + j + 3] = Tr[3 * i + j];
        }
}

/* ---- building models (doubles) ------------------------------------------------ */

/* Eigenvalues of a symmetric 3x3 matrix, ascending (closed form, trigonometric). */
static inline void u2d_sym3_eigenvalues(const double A[9], double lam[3])
{
    double p1 = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
    double q = (A[0] + A[4] + A[8]) / 3.0;
    if (p1 == 0.0) {
        double d[3] = {A[0], A[4], A[8]};
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++)
                if (d[j] < d[i]) { double t = d[i]; d[i] = d[j]; d[j] = t; }
        memcpy(lam, d, sizeof d);
        return;
    }
    double p2 = (A[0] - q) * (A[0] - q) + (A[4] - q) * (A[4] - q) + (A[8] - q) * (A[8] - q)
              + 2.0 * p1;
    double p = sqrt(p2 / 6.0), B[9];
    for (int i = 0; i < 9; i++) B[i] = (A[i] - (i % 4 == 0 ? q : 0.0)) / p;
    double detB = B[0] * (B[4] * B[8] - B[5] * B[7]) - B[1] * (B[3] * B[8] - B[5] * B[6])
                + B[2] * (B[3] * B[7] - B[4] * B[6]);
    double r = fmax(-1.0, fmin(1.0, detB / 2.0));
    double phi = acos(r) / 3.0;
    lam[2] = q + 2.0 * p * cos(phi);
    lam[0] = q + 2.0 * p * cos(phi + 2.0943951023931957);   /* + 2 pi / 3 */
    lam[1] = 3.0 * q - lam[0] - lam[2];
}

#endif
