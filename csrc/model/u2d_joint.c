/* u2d_joint.c: the joint models (Featherstone's jcalc), the only switch on joint type (and
 * u2d_joint_chain's, which takes a joint whose columns move apart for the derivatives).
 *
 * For body i, with q and qd pointing at its joint's coordinates:
 *   X_J  joint frame -> body frame,    S  motion subspace in body coordinates (6 x nv),
 *   cJ = (dS/dt) qd, non-zero only for the joints whose S moves with q (planar, custom,
 *   ellipsoid, constant curvature); qd may be NULL when only positions matter (cJ is then
 *   zero). */
#include <math.h>
#include <string.h>
#include "model/u2d_model.h"
#include "model/u2d_port.h"

static void set_col(u2d_real *S, int k, const u2d_real w[3], const u2d_real v[3])
{
    u2d_real *c = S + 6 * k;
    c[0] = w[0]; c[1] = w[1]; c[2] = w[2];
    c[3] = v[0]; c[4] = v[1]; c[5] = v[2];
}

/* Rotation matrix of the unit quaternion (x, y, z, w): child axes in the parent frame. */
static void quat_matrix(u2d_real x, u2d_real y, u2d_real z, u2d_real w, u2d_real R[9])
{
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - z * w);     R[2] = 2 * (x * z + y * w);
    R[3] = 2 * (x * y + z * w);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - x * w);
    R[6] = 2 * (x * z - y * w);     R[7] = 2 * (y * z + x * w);     R[8] = 1 - 2 * (x * x + y * y);
}

/* R of the quaternion q = (x, y, z, w) scaled to unit norm; -1 when it has none. */
static int unit_rotation(const u2d_real *q, u2d_real R[9])
{
    u2d_real x = q[0], y = q[1], z = q[2], w = q[3];
    u2d_real norm = u2d_sqrt(x * x + y * y + z * z + w * w);
    if (U2D_ANY(norm < 1e-12) || U2D_ANY(norm == INFINITY)) return -1;
    quat_matrix(x / norm, y / norm, z / norm, w / norm, R);
    return 0;
}

static void transpose3(const u2d_real R[9], u2d_real E[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) E[3 * i + j] = R[3 * j + i];
}

/* E_out = R(e_k, t)^T E: turning about a coordinate axis mixes two rows only, rows i and j,
 * the next two after k in cyclic order. */
static U2D_ALWAYS_INLINE void turn_rows_of(int i, int j, int k, u2d_real c, u2d_real s,
                                           const u2d_real E[9], u2d_real out[9])
{
    for (int col = 0; col < 3; col++) {
        u2d_real ei = E[3 * i + col], ej = E[3 * j + col];
        out[3 * i + col] = c * ei + s * ej;
        out[3 * j + col] = c * ej - s * ei;
        out[3 * k + col] = E[3 * k + col];
    }
}

/* One copy per axis, so that every row index is a constant: computed from k ((k + 1) % 3 ...)
 * they cost the human's batched RNEA 1 010 of its 34 072 instructions per group of lanes
 * (benchmarks/instruction_mix.py, the AVX2 path). */
static void turn_rows(int k, u2d_real t, const u2d_real E[9], u2d_real out[9])
{
    u2d_real c, s;
    u2d_sincos(t, &s, &c);
    if (k == 0) turn_rows_of(1, 2, 0, c, s, E, out);
    else if (k == 1) turn_rows_of(2, 0, 1, c, s, E, out);
    else turn_rows_of(0, 1, 2, c, s, E, out);
}

/* A custom joint's six axis values f_k(q) and their first two derivatives, lane by lane:
 * the knot intervals of a spline differ between samples. */
static void custom_axes(const u2d_model *m, const u2d_custom *C, const u2d_real *q,
                        u2d_real f[6], u2d_real df[6], u2d_real ddf[6])
{
    for (int k = 0; k < 6; k++) {
        const int c = C->coord[k];
        double o[4];
#if U2D_LANES == 1
        u2d_function_eval(m->func, m->fdata, C->func[k], c >= 0 ? q[c] : 0.0, o);
        f[k] = o[0]; df[k] = o[1]; ddf[k] = o[2];
#else
        for (int l = 0; l < U2D_LANES; l++) {
            u2d_function_eval(m->func, m->fdata, C->func[k], c >= 0 ? q[c][l] : 0.0, o);
            f[k][l] = o[0]; df[k][l] = o[1]; ddf[k][l] = o[2];
        }
#endif
    }
}

/* The joint's pose from its axis values f: X_J (parent joint frame F -> body frame M), and
 * the rotation axes am[k] and translation axes bm[t] in M coordinates (see jcalc_custom). */
static U2D_ALWAYS_INLINE void custom_pose(const u2d_model *m, const u2d_custom *C,
                                          const u2d_real f[6], u2d_xform *XJ,
                                          u2d_real am[3][3], u2d_real bm[3][3])
{
    u2d_real ax[6][3], R[3][9], R12[9], R012[9];
    for (int k = 0; k < 6; k++)
        for (int r = 0; r < 3; r++) ax[k][r] = U2D_R(C->axis[3 * k + r]);
    for (int k = 0; k < 3; k++) {
        /* an axis held at zero (no coordinate, Constant 0: most knees' first two) is no turn */
        const u2d_function *fk = &m->func[C->func[k]];
        if (C->coord[k] < 0 && fk->kind == U2D_FN_CONSTANT && m->fdata[fk->at] == 0.0)
            u2d_eye3(R[k]);
        else
            u2d_axis_angle(ax[k], f[k], R[k]);
    }
    u2d_mulmm3(R[1], R[2], R12);
    u2d_mulmm3(R[0], R12, R012);
    transpose3(R012, XJ->E);
    u2d_copy(am[2], ax[2], 3);
    u2d_multv3(R[2], ax[1], am[1]);
    u2d_multv3(R12, ax[0], am[0]);
    for (int r = 0; r < 3; r++) XJ->r[r] = f[3] * ax[3][r] + f[4] * ax[4][r] + f[5] * ax[5][r];
    for (int t = 0; t < 3; t++) u2d_mulmv3(XJ->E, ax[3 + t], bm[t]);
}

/* OpenSim's CustomJoint (Simbody's FunctionBased mobilizer): R_FM = R(a0, f0) R(a1, f1)
 * R(a2, f2), each rotation about its axis as carried by the ones before it, and the
 * origin at f3 b3 + f4 b4 + f5 b5 in the parent frame F. In the body (M) frame, rotation
 * axis k is a_k seen through the rotations after it and b_t is seen through all three;
 * coordinate j's column of S is the sum of f_k'(q_j) times the unit twist of each axis it
 * drives. With w_k = f_k' qd (the axis rates) and, w_>k the rate of M relative to axis k's
 * frame, the columns turn as d(a_k)/dt = a_k x w_>k and d(b_t)/dt = b_t x w, so
 *   cJ = sum_k f_k'' qd^2 (unit twist k) + [sum_k<m w_k w_m a_k x a_m ; v x w]. */
static void jcalc_custom(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                         u2d_xform *Xup, u2d_real *S, u2d_real cJ[6], u2d_real *Sdot)
{
    const u2d_custom *C = &m->custom[m->jcustom[i]];
    u2d_real f[6], df[6], ddf[6], am[3][3], bm[3][3];
    u2d_xform XJ;
    custom_axes(m, C, q, f, df, ddf);
    custom_pose(m, C, f, &XJ, am, bm);
    u2d_xform_mul(&XJ, &m->Xtree[i], Xup);

    u2d_zero(S, 6 * C->ncoord);
    for (int k = 0; k < 6; k++) {
        const int c = C->coord[k];
        if (c < 0) continue;
        u2d_real *col = S + 6 * c + (k < 3 ? 0 : 3);
        const u2d_real *e = k < 3 ? am[k] : bm[k - 3];
        for (int r = 0; r < 3; r++) col[r] += df[k] * e[r];
    }
    if (!qd) return;

    u2d_real rate[6], acc[6], w[3], v[3], wgt[3][3], t3[3];   /* wgt[k]: w_>k */
    for (int k = 0; k < 6; k++) {
        const int c = C->coord[k];
        rate[k] = c >= 0 ? df[k] * qd[c] : U2D_R(0);
        acc[k] = c >= 0 ? ddf[k] * qd[C->coord[k]] * qd[c] : U2D_R(0);
    }
    for (int r = 0; r < 3; r++) {
        wgt[2][r] = U2D_R(0);
        wgt[1][r] = rate[2] * am[2][r];
        wgt[0][r] = wgt[1][r] + rate[1] * am[1][r];
        w[r] = wgt[0][r] + rate[0] * am[0][r];
        v[r] = rate[3] * bm[0][r] + rate[4] * bm[1][r] + rate[5] * bm[2][r];
    }
    for (int r = 0; r < 3; r++) {
        cJ[r] = acc[0] * am[0][r] + acc[1] * am[1][r] + acc[2] * am[2][r];
        cJ[3 + r] = acc[3] * bm[0][r] + acc[4] * bm[1][r] + acc[5] * bm[2][r];
    }
    for (int k = 0; k < 2; k++) {           /* sum_k w_k a_k x w_>k */
        u2d_cross3(am[k], wgt[k], t3);
        for (int r = 0; r < 3; r++) cJ[r] += rate[k] * t3[r];
    }
    u2d_cross3(v, w, t3);
    for (int r = 0; r < 3; r++) cJ[3 + r] += t3[r];

    if (!Sdot) return;
    for (int k = 0; k < 6; k++) {
        const int c = C->coord[k];
        if (c < 0) continue;
        u2d_real *col = Sdot + 6 * c + (k < 3 ? 0 : 3);
        const u2d_real *e = k < 3 ? am[k] : bm[k - 3];
        u2d_cross3(e, k < 3 ? wgt[k] : w, t3);
        for (int r = 0; r < 3; r++) col[r] += ddf[k] * qd[c] * e[r] + df[k] * t3[r];
    }
}

/* The angular velocity of the turns after each axis k of three body-fixed turns, w_>k =
 * sum_{j>k} rate_j am_j (am_j: axis j seen through the turns after it), and of all three, w:
 * the ellipsoid's and the constant-curvature joint's column rates both start from it. */
static void turns_after(const u2d_real am[3][3], const u2d_real *rate, u2d_real after[3][3],
                        u2d_real w[3])
{
    for (int r = 0; r < 3; r++) {
        after[2][r] = U2D_R(0);
        after[1][r] = rate[2] * am[2][r];
        after[0][r] = after[1][r] + rate[1] * am[1][r];
        w[r] = after[0][r] + rate[0] * am[0][r];
    }
}

/* The time derivatives of the ellipsoid's columns S_k = [am_k ; K (am_k x z)] in B at rates
 * qd (see jcalc_ellipsoid): d(am_k)/dt = am_k x w_>k, dK/dt y = K (w x y) - w x (K y). */
static void ellipsoid_column_rates(const u2d_real am[3][3], const u2d_real K[9],
                                   const u2d_real *qd, u2d_real dS[3][6])
{
    const u2d_real zaxis[3] = {U2D_R(0), U2D_R(0), U2D_R(1)};
    u2d_real after[3][3], w[3];                   /* w_>k, and w = w_>-1, in B */
    turns_after(am, qd, after, w);
    for (int k = 0; k < 3; k++) {
        u2d_real y[3], wy[3], Kwy[3], Ky[3], wKy[3], ydot[3], Kydot[3];
        u2d_cross3(am[k], after[k], dS[k]);       /* d(am_k)/dt */
        u2d_cross3(am[k], zaxis, y);              /* y = am_k x z */
        u2d_cross3(w, y, wy);
        u2d_mulmv3(K, wy, Kwy);
        u2d_mulmv3(K, y, Ky);
        u2d_cross3(w, Ky, wKy);                   /* dK/dt y = K (w x y) - w x (K y) */
        u2d_cross3(dS[k], zaxis, ydot);           /* dy/dt = d(am_k)/dt x z */
        u2d_mulmv3(K, ydot, Kydot);
        for (int r = 0; r < 3; r++) dS[k][3 + r] = Kwy[r] - wKy[r] + Kydot[r];
    }
}

/* The ellipsoid joint's pose at q (see jcalc_ellipsoid): its first two turns R0, R1, R = R_FB,
 * the axes am in B, XE (F -> B) and XW (B -> M: the winging pin, or the identity). */
static U2D_ALWAYS_INLINE void ellipsoid_pose(const u2d_model *m, int i, const u2d_real *q,
                                             u2d_real R0[9], u2d_real R1[9], u2d_real R[9],
                                             u2d_real am[3][3], u2d_xform *XE, u2d_xform *XW)
{
    const u2d_real *P = &m->ellipsoid[U2D_ELLIPSOID_N * i];
    const u2d_real *a0 = P + U2D_ELLIPSOID_AXIS0, *a1 = P + U2D_ELLIPSOID_AXIS1;
    const u2d_real *d = P + U2D_ELLIPSOID_WING_DIR, *o = P + U2D_ELLIPSOID_WING_AT;
    const u2d_real zaxis[3] = {U2D_R(0), U2D_R(0), U2D_R(1)};
    u2d_real R2[9], R12[9], Rw[9], t3[3];

    u2d_axis_angle(a0, q[0], R0);
    u2d_axis_angle(a1, q[1], R1);
    u2d_axis_angle(zaxis, q[2], R2);
    u2d_mulmm3(R1, R2, R12);
    u2d_mulmm3(R0, R12, R);                       /* R_FB */
    u2d_copy(am[2], zaxis, 3);
    u2d_multv3(R2, a1, am[1]);
    u2d_multv3(R12, a0, am[0]);
    transpose3(R, XE->E);
    for (int r = 0; r < 3; r++) XE->r[r] = P[U2D_ELLIPSOID_RADII + r] * R[3 * r + 2];  /* D n */
    if (m->jnv[i] == 4) {
        u2d_axis_angle(d, q[3], Rw);
        transpose3(Rw, XW->E);
        u2d_mulmv3(Rw, o, t3);
        for (int r = 0; r < 3; r++) XW->r[r] = o[r] - t3[r];
    } else u2d_xform_identity(XW);
}

/* OpenSim's EllipsoidJoint and ScapulothoracicJoint: Simbody's Ellipsoid mobilizer
 * (RigidBodyNodeSpec_Ellipsoid.h), then for the scapula a winging pin.
 *
 * Ellipsoid. R_FB = R(a0, q0) R(a1, q1) R(z, q2), body-fixed; the origin of the
 * intermediate frame B on the ellipsoid at p = D n, D = diag(radii), n = R_FB z the
 * normal (Simbody's formula: M's z, scaled axis by axis). For the EllipsoidJoint a0, a1
 * = x, y. The ScapulothoracicJoint turns the mobilizer's frames by Q = Rz(pi/2) at both
 * ends and gives Simbody the radii (ry, rx, rz); seen from the joint frame that is
 * Q R_xyz(q) Q^T = R(y, q0) R(-x, q1) R(z, q2) with p = diag(rx, ry, rz) n again.
 * In B coordinates the angular velocity is w = sum_k am_k qd_k, am_k = axis k seen
 * through the rotations after it, and the origin moves at dp/dt = D (w_F x n); there
 * K = R_FB^T D R_FB (the ellipsoid's shape tensor in B), so
 *   S_k = [am_k ; K (am_k x z)],      dK/dt y = K (w x y) - w x (K y),
 *   d(am_k)/dt = am_k x w_>k  (w_>k: the rate of the rotations after axis k, in B),
 *   dS_k/dt = [d(am_k)/dt ; dK/dt (am_k x z) + K (d(am_k)/dt x z)],  cE = sum_k qd_k dS_k/dt.
 * Winging (4th coordinate): M turns by q3 about the unit axis d through the point o of B:
 * X_MB = (Rw = R(d, q3), o - Rw o). In M the pin's column is the constant [d ; o x d] and
 * the ellipsoid's columns are X_MB S_k, which turn with the pin: d(X_MB S_k)/dt =
 * X_MB dS_k/dt + (X_MB S_k) x vw, vw = [d ; o x d] qd3 (motion cross product).
 * OpenSim's speeds are the angular velocity in F, not these rates (docs/osim_models.rst). */
static U2D_NOINLINE void jcalc_ellipsoid(const u2d_model *m, int i, const u2d_real *q,
                                         const u2d_real *qd, u2d_xform *Xup, u2d_real *S,
                                         u2d_real cJ[6], u2d_real *Sdot)
{
    const u2d_real *P = &m->ellipsoid[U2D_ELLIPSOID_N * i];
    const u2d_real *d = P + U2D_ELLIPSOID_WING_DIR, *o = P + U2D_ELLIPSOID_WING_AT;
    const u2d_real zaxis[3] = {U2D_R(0), U2D_R(0), U2D_R(1)};
    const int wing = m->jnv[i] == 4;
    u2d_real R0[9], R1[9], R[9], am[3][3], t3[3], K[9], DR[9];
    u2d_xform XE, XW, XJ;

    ellipsoid_pose(m, i, q, R0, R1, R, am, &XE, &XW);
    for (int r = 0; r < 9; r++) DR[r] = P[U2D_ELLIPSOID_RADII + r / 3] * R[r];
    u2d_mulmm3(XE.E, DR, K);                      /* K = R^T D R */
    u2d_xform_mul(&XW, &XE, &XJ);
    u2d_xform_mul(&XJ, &m->Xtree[i], Xup);

    u2d_real SE[3][6];                            /* the ellipsoid's columns in B */
    for (int k = 0; k < 3; k++) {
        u2d_cross3(am[k], zaxis, t3);
        u2d_copy(SE[k], am[k], 3);
        u2d_mulmv3(K, t3, SE[k] + 3);
        u2d_xform_motion(&XW, SE[k], S + 6 * k);
    }
    u2d_real pin[6];
    if (wing) {
        u2d_copy(pin, d, 3);
        u2d_cross3(o, d, pin + 3);
        u2d_copy(S + 18, pin, 6);
    }
    if (!qd) return;

    u2d_real dS[3][6];                            /* dS_k/dt in B */
    ellipsoid_column_rates(am, K, qd, dS);
    u2d_real cE[6], vE[6], vw[6], x6[6];
    for (int r = 0; r < 6; r++) cE[r] = qd[0] * dS[0][r] + qd[1] * dS[1][r] + qd[2] * dS[2][r];
    u2d_xform_motion(&XW, cE, cJ);
    if (wing) {
        for (int r = 0; r < 6; r++) {
            vE[r] = S[r] * qd[0] + S[6 + r] * qd[1] + S[12 + r] * qd[2];
            vw[r] = pin[r] * qd[3];
        }
        u2d_crossm(vE, vw, x6);
        for (int r = 0; r < 6; r++) cJ[r] += x6[r];
    }
    if (!Sdot) return;
    for (int k = 0; k < 3; k++) {
        u2d_xform_motion(&XW, dS[k], Sdot + 6 * k);
        if (!wing) continue;
        u2d_crossm(S + 6 * k, vw, x6);
        for (int r = 0; r < 6; r++) Sdot[6 * k + r] += x6[r];
    }
}

/* OpenSim's ConstantCurvatureJoint (opensim-core ConstantCurvatureJoint.cpp, OpenSim 4.5+),
 * a spine segment as one joint. Its angles a = clamp(q + neutral), each held within
 * +-(pi/2 - 0.01) as OpenSim holds them, turn M body-fixed about x, then z, then y:
 * R_FM = Rx(a0) Rz(a1) Ry(a2). M's origin is the end of an arc of the given length that
 * leaves F's origin along F's y and ends along u = R_FM y, bending in the plane of the two:
 * with s = |(u_x, u_z)| = sin(theta), theta the bend, the end is at
 *   p = ((1 - cos theta) L / theta) e + (sin theta L / theta) y,  e = (u_x, 0, u_z) / s.
 * Where the bend is tiny (s < 0.001) or nearly a right angle (s > 0.999) OpenSim takes the
 * straight segment p = L u instead, so p jumps there (by L theta / 2 at theta = 0.001, by
 * 0.71 L at s = 0.999); urdf2dyn places M as OpenSim does on every side. The twist a2
 * turns M only.
 *
 * The columns are the derivatives of that pose (v = dq/dt): S_k = [am_k ; R^T dp/da_k]
 * in M, am_k axis k seen through the turns after it, and zero for an angle held at its
 * bound. OpenSim's own mobilizer does not move M at that rate: on the arc its velocity is
 * this one turned by R^T (its H is the velocity in M, which Simbody takes as the velocity
 * in F; on the straight segment its H is another still) and it leaves dH/dt out, so its
 * mass matrix and dynamics differ from these wherever R is not the identity
 * (docs/osim_models.rst). The arc's end and its partials in the angles (first and second
 * here, third for the analytical derivatives' curvature_chain) come lane by lane, since the
 * branch differs between samples. */
#define CURVATURE_BOUND (1.5707963267948966 - 0.01)

/* A function of the two bend angles (a0, a1) with its partials to third order: d1[a] =
 * df/da_a, d2[a][b] and d3[a][b][c] (each symmetric). The arc's end is built from the angles
 * by the sum, product and chain rules below, so its pose, its columns (first partials), their
 * rates (second) and the rates' q-derivatives the analytical derivatives need (third) come
 * from one computation. Every algorithm's jcalc wants no d3 (third 0): the functions are
 * inlined into one copy of curvature_end for each value of third, so that copy drops d3's
 * work, which made the joint cost five times what it did before d3 was written. */
typedef struct {
    double v, d1[2], d2[2][2], d3[2][2][2];
    int third;                  /* whether d3 is wanted (else left zero) */
} arc_jet;

/* the angle a_k itself */
static U2D_ALWAYS_INLINE arc_jet jet_angle(double x, int k, int third)
{
    arc_jet f = {x, {0.0, 0.0}, {{0.0}}, {{{0.0}}}, third};
    f.d1[k] = 1.0;
    return f;
}

static U2D_ALWAYS_INLINE arc_jet jet_scale(const arc_jet *f, double s)
{
    arc_jet h = *f;
    h.v *= s;
    for (int a = 0; a < 2; a++) {
        h.d1[a] *= s;
        for (int b = 0; b < 2; b++) {
            h.d2[a][b] *= s;
            for (int c = 0; c < 2 && h.third; c++) h.d3[a][b][c] *= s;
        }
    }
    return h;
}

static U2D_ALWAYS_INLINE arc_jet jet_sum(const arc_jet *f, const arc_jet *g)
{
    arc_jet h = *f;
    h.v += g->v;
    for (int a = 0; a < 2; a++) {
        h.d1[a] += g->d1[a];
        for (int b = 0; b < 2; b++) {
            h.d2[a][b] += g->d2[a][b];
            for (int c = 0; c < 2 && h.third; c++) h.d3[a][b][c] += g->d3[a][b][c];
        }
    }
    return h;
}

/* f g, by Leibniz's rule */
static U2D_ALWAYS_INLINE arc_jet jet_mul(const arc_jet *f, const arc_jet *g)
{
    arc_jet h = {.v = f->v * g->v, .third = f->third};
    for (int a = 0; a < 2; a++) {
        h.d1[a] = f->d1[a] * g->v + f->v * g->d1[a];
        for (int b = 0; b < 2; b++) {
            h.d2[a][b] = f->d2[a][b] * g->v + f->d1[a] * g->d1[b] + f->d1[b] * g->d1[a]
                       + f->v * g->d2[a][b];
            for (int c = 0; c < 2 && h.third; c++)
                h.d3[a][b][c] = f->d3[a][b][c] * g->v + f->v * g->d3[a][b][c]
                              + f->d2[a][b] * g->d1[c] + f->d2[a][c] * g->d1[b]
                              + f->d2[b][c] * g->d1[a] + f->d1[a] * g->d2[b][c]
                              + f->d1[b] * g->d2[a][c] + f->d1[c] * g->d2[a][b];
        }
    }
    return h;
}

/* phi(f), given phi and its first three derivatives at f's value (Faa di Bruno's rule) */
static U2D_ALWAYS_INLINE arc_jet jet_of(const arc_jet *f, const double phi[4])
{
    arc_jet h = {.v = phi[0], .third = f->third};
    for (int a = 0; a < 2; a++) {
        h.d1[a] = phi[1] * f->d1[a];
        for (int b = 0; b < 2; b++) {
            h.d2[a][b] = phi[2] * f->d1[a] * f->d1[b] + phi[1] * f->d2[a][b];
            for (int c = 0; c < 2 && h.third; c++)
                h.d3[a][b][c] = phi[3] * f->d1[a] * f->d1[b] * f->d1[c]
                              + phi[2] * (f->d2[a][b] * f->d1[c] + f->d2[a][c] * f->d1[b]
                                          + f->d2[b][c] * f->d1[a])
                              + phi[1] * f->d3[a][b][c];
        }
    }
    return h;
}

static U2D_ALWAYS_INLINE arc_jet jet_sin(const arc_jet *f)
{
    const double s = sin(f->v), c = cos(f->v), phi[4] = {s, c, -s, -c};
    return jet_of(f, phi);
}

static U2D_ALWAYS_INLINE arc_jet jet_cos(const arc_jet *f)
{
    const double s = sin(f->v), c = cos(f->v), phi[4] = {c, -s, -c, s};
    return jet_of(f, phi);
}

/* 1 / f, f nonzero */
static U2D_ALWAYS_INLINE arc_jet jet_inverse(const arc_jet *f)
{
    const double r = 1.0 / f->v, phi[4] = {r, -r * r, 2.0 * r * r * r, -6.0 * r * r * r * r};
    return jet_of(f, phi);
}

/* A power series sum_k c[k] x^k (n terms) and its first three derivatives at x. */
static void series_at(const double *c, int n, double x, double out[4])
{
    out[0] = out[1] = out[2] = out[3] = 0.0;
    for (int k = n - 1; k >= 0; k--) {
        out[3] = out[3] * x + 3.0 * out[2];
        out[2] = out[2] * x + 2.0 * out[1];
        out[1] = out[1] * x + out[0];
        out[0] = out[0] * x + c[k];
    }
}

/* Barely bent (sin^2 theta = ss below CURVATURE_SERIES), the arc's two factors of ss,
 * (1 - cos theta) / (theta s) and s / theta, by their power series in ss: the closed forms
 * divide by s and its powers, which cost the dynamics and their derivatives most of their
 * digits near OpenSim's straight stretch (s = 0.001). The coefficients are the series'
 * (SymPy's, of the closed forms) to ss^10: at ss = 0.01 the next term is below 1e-22 of the
 * first, and its third derivative below 1e-13 of the series'. */
#define CURVATURE_SERIES 1e-2
#define CURVATURE_TERMS 11
static const double arc_bend_series[2][CURVATURE_TERMS] = {
    {0.5, 0.041666666666666664, 0.018055555555555554, 0.010606812169312169,
     0.007170690035273369, 0.005259141096814708, 0.004068319188007515, 0.003267781079116352,
     0.0026992574407392143, 0.0022784107615231594, 0.0019566030138613005},
    {1.0, -0.16666666666666666, -0.04722222222222222, -0.024272486772486772,
     -0.015354387125220458, -0.010820865734060178, -0.008150718492939062,
     -0.006423326210163457, -0.005230434149368269, -0.0043660340950203965,
     -0.0037160652803601736}};

/* The arc's end p at angles a0 (x) and a1 (z), length L, with its partials. u = R_FM y =
 * (-sin a1, cos a0 cos a1, sin a0 cos a1); s = |(u_x, u_z)| = sin theta, theta the bend;
 *   p = L (1 - cos theta) / (theta s) (u_x, 0, u_z) + (0, L s / theta, 0)
 * (the arc, e = (u_x, 0, u_z) / s; its two factors by their series where barely bent), or
 * OpenSim's straight segment p = L u where s < 0.001 or s > 0.999. */
static U2D_ALWAYS_INLINE void curvature_end(double a0, double a1, double L, int third,
                                            arc_jet p[3])
{
    const arc_jet x = jet_angle(a0, 0, third), z = jet_angle(a1, 1, third);
    const arc_jet sx = jet_sin(&x), cx = jet_cos(&x), sz = jet_sin(&z), cz = jet_cos(&z);
    const arc_jet ux = jet_scale(&sz, -1.0), uy = jet_mul(&cx, &cz), uz = jet_mul(&sx, &cz);
    const arc_jet xx = jet_mul(&ux, &ux), zz = jet_mul(&uz, &uz), ss = jet_sum(&xx, &zz);
    const double s = sqrt(ss.v);
    if (s < 0.001 || s > 0.999) {
        p[0] = jet_scale(&ux, L);
        p[1] = jet_scale(&uy, L);
        p[2] = jet_scale(&uz, L);
        return;
    }
    if (ss.v < CURVATURE_SERIES) {
        double F[4], G[4];
        series_at(arc_bend_series[0], CURVATURE_TERMS, ss.v, F);
        series_at(arc_bend_series[1], CURVATURE_TERMS, ss.v, G);
        const arc_jet fj = jet_of(&ss, F), gj = jet_of(&ss, G);
        const arc_jet px = jet_mul(&fj, &ux), pz = jet_mul(&fj, &uz);
        p[0] = jet_scale(&px, L);
        p[1] = jet_scale(&gj, L);
        p[2] = jet_scale(&pz, L);
        return;
    }
    const double c = sqrt(1.0 - s * s), c3 = c * c * c;
    const double root[4] = {s, 0.5 / s, -0.25 / (s * ss.v), 0.375 / (s * ss.v * ss.v)};
    const arc_jet sj = jet_of(&ss, root);                      /* s = sqrt(ss) */
    const double arcsine[4] = {asin(s), 1.0 / c, s / c3, (1.0 + 2.0 * s * s) / (c3 * c * c)};
    const arc_jet th = jet_of(&sj, arcsine);                   /* theta = asin s */
    const arc_jet cth = jet_cos(&th), rth = jet_inverse(&th), rs = jet_inverse(&sj);
    arc_jet versine = jet_scale(&cth, -1.0);
    versine.v += 1.0;                                          /* 1 - cos theta */
    const arc_jet f0 = jet_mul(&versine, &rth), f = jet_mul(&f0, &rs);
    const arc_jet g = jet_mul(&sj, &rth);
    const arc_jet px = jet_mul(&f, &ux), pz = jet_mul(&f, &uz);
    p[0] = jet_scale(&px, L);
    p[1] = jet_scale(&g, L);
    p[2] = jet_scale(&pz, L);
}

/* The arc's end to second order (every algorithm's jcalc) and to third (the analytical
 * derivatives' curvature_chain), each its own copy of curvature_end with third a constant,
 * so the first leaves out the work of d3 (most of the joint's cost). */
static void curvature_end_2(double a0, double a1, double L, arc_jet p[3])
{
    curvature_end(a0, a1, L, 0, p);
}

static void curvature_end_3(double a0, double a1, double L, arc_jet p[3])
{
    curvature_end(a0, a1, L, 1, p);
}

/* The clamped angles a, whether each is free of its bound (live: 1, else 0), and the arc's
 * end with its partials (curvature_end), lane by lane: ddp[a + b] is the second partial in
 * a_a and a_b, dddp[a + b + c] the third (NULL: not wanted). */
static void curvature_lanes(const u2d_real *P, const u2d_real *q, u2d_real a[3],
                            u2d_real live[3], u2d_real p[3], u2d_real dp[2][3],
                            u2d_real ddp[3][3], u2d_real (*dddp)[3])
{
    for (int l = 0; l < U2D_LANES; l++) {
        double al[3];
        arc_jet pl[3];
        for (int k = 0; k < 3; k++) {
            const double v = U2D_LANE(q[k], l) + U2D_LANE(P[U2D_CURVATURE_NEUTRAL + k], l);
            al[k] = v > CURVATURE_BOUND ? CURVATURE_BOUND
                  : v < -CURVATURE_BOUND ? -CURVATURE_BOUND : v;
            U2D_LANE(a[k], l) = al[k];
            U2D_LANE(live[k], l) = al[k] == v;
        }
        (dddp ? curvature_end_3 : curvature_end_2)(al[0], al[1],
                                                    U2D_LANE(P[U2D_CURVATURE_LENGTH], l), pl);
        for (int r = 0; r < 3; r++) {
            U2D_LANE(p[r], l) = pl[r].v;
            for (int k = 0; k < 2; k++) U2D_LANE(dp[k][r], l) = pl[r].d1[k];
            for (int k = 0; k < 3; k++) U2D_LANE(ddp[k][r], l) = pl[r].d2[k > 0][k > 1];
            if (dddp)
                for (int k = 0; k < 4; k++)
                    U2D_LANE(dddp[k][r], l) = pl[r].d3[k > 0][k > 1][k > 2];
        }
    }
}

/* d(S_k)/dt in M: [am_k x w_>k ; R^T (d/dt dp/da_k) - w x S_k's lower half]. */
static void curvature_column_rates(const u2d_real am[3][3], const u2d_real E[9],
                                   const u2d_real ddp[3][3], const u2d_real live[3],
                                   const u2d_real qe[3], const u2d_real *S, u2d_real dS[3][6])
{
    u2d_real after[3][3], w[3];                   /* w_>k, and w, in M */
    turns_after(am, qe, after, w);
    for (int k = 0; k < 3; k++) {
        u2d_real t[3], dpt[3] = {U2D_R(0), U2D_R(0), U2D_R(0)}, Edp[3], wS[3];
        u2d_cross3(am[k], after[k], t);
        for (int r = 0; r < 3; r++) dS[k][r] = live[k] * t[r];
        if (k < 2)
            for (int r = 0; r < 3; r++)
                dpt[r] = live[k] * (ddp[k][r] * qe[0] + ddp[k + 1][r] * qe[1]);
        u2d_mulmv3(E, dpt, Edp);
        u2d_cross3(w, S + 6 * k + 3, wS);
        for (int r = 0; r < 3; r++) dS[k][3 + r] = Edp[r] - wS[r];
    }
}

/* The joint's turns at its clamped angles a: R_FM = Rx(a0) Rz(a1) Ry(a2) and the axes am in
 * M (axis k seen through the turns after it). */
static void curvature_turns(const u2d_real a[3], u2d_real R[9], u2d_real am[3][3])
{
    const u2d_real o = U2D_R(0), one = U2D_R(1);
    const u2d_real ax[3][3] = {{one, o, o}, {o, o, one}, {o, one, o}};   /* x, z, y */
    u2d_real Rk[3][9], R12[9];
    for (int k = 0; k < 3; k++) u2d_axis_angle(ax[k], a[k], Rk[k]);
    u2d_mulmm3(Rk[1], Rk[2], R12);
    u2d_mulmm3(Rk[0], R12, R);
    u2d_copy(am[2], ax[2], 3);
    u2d_multv3(Rk[2], ax[1], am[1]);
    u2d_multv3(R12, ax[0], am[0]);
}

static U2D_NOINLINE void jcalc_curvature(const u2d_model *m, int i, const u2d_real *q,
                                         const u2d_real *qd, u2d_xform *Xup, u2d_real *S,
                                         u2d_real cJ[6], u2d_real *Sdot)
{
    const u2d_real o = U2D_R(0);
    u2d_real a[3], live[3], p[3], dp[2][3], ddp[3][3], R[9], am[3][3];
    u2d_xform XJ;

    curvature_lanes(&m->curvature[U2D_CURVATURE_N * i], q, a, live, p, dp, ddp, NULL);
    curvature_turns(a, R, am);
    transpose3(R, XJ.E);
    u2d_copy(XJ.r, p, 3);
    u2d_xform_mul(&XJ, &m->Xtree[i], Xup);

    for (int k = 0; k < 3; k++) {
        u2d_real lin[3] = {o, o, o};
        if (k < 2) u2d_mulmv3(XJ.E, dp[k], lin);
        for (int r = 0; r < 3; r++) {
            S[6 * k + r] = live[k] * am[k][r];
            S[6 * k + 3 + r] = live[k] * lin[r];
        }
    }
    if (!qd) return;

    u2d_real qe[3], dS[3][6];                     /* rates of the angles that move */
    for (int k = 0; k < 3; k++) qe[k] = live[k] * qd[k];
    curvature_column_rates(am, XJ.E, ddp, live, qe, S, dS);
    for (int r = 0; r < 6; r++) cJ[r] = qe[0] * dS[0][r] + qe[1] * dS[1][r] + qe[2] * dS[2][r];
    if (Sdot)
        for (int k = 0; k < 3; k++) u2d_copy(Sdot + 6 * k, dS[k], 6);
}

/* The planar joint's pose at q = [x y theta]: translate by x u + y w in the joint frame,
 * then turn theta about the normal n. XJ (joint frame -> body frame), and the in-plane axes
 * u, w seen from the body, Eu and Ew (its translation columns; the turn's is [n; 0]). */
static U2D_ALWAYS_INLINE void planar_pose(const u2d_model *m, int i, const u2d_real *q,
                                          u2d_xform *XJ, u2d_real Eu[3], u2d_real Ew[3])
{
    const u2d_real *n = &m->axis[3 * i], *u = &m->plane[6 * i], *w = &m->plane[6 * i + 3];
    u2d_real R[9];
    u2d_axis_angle(n, q[2], R);
    transpose3(R, XJ->E);
    for (int r = 0; r < 3; r++) XJ->r[r] = q[0] * u[r] + q[1] * w[r];
    u2d_mulmv3(XJ->E, u, Eu);
    u2d_mulmv3(XJ->E, w, Ew);
}

/* The joints of several coordinates or of columns that move with q, for u2d_jcalc (cJ and
 * Sdot already zeroed). Out of line: their frames (rotation matrices, custom poses) and
 * saved registers made every call of u2d_jcalc pay a 3.7 KB frame on AVX2, for the
 * revolute joints that are most of a model's. */
static U2D_NOINLINE u2d_status jcalc_multi(const u2d_model *m, int i, const u2d_real *q,
                                           const u2d_real *qd, u2d_xform *Xup, u2d_real *S,
                                           u2d_real cJ[6], u2d_real *Sdot)
{
    const u2d_real zero[3] = {U2D_R(0), U2D_R(0), U2D_R(0)};
    const u2d_xform *Xt = &m->Xtree[i];
    const u2d_real *n = &m->axis[3 * i];
    u2d_real R[9];
    u2d_xform XJ;
    switch ((u2d_jtype)m->jtype[i]) {
    case U2D_JOINT_FLOATING: {
        /* q = [p; quaternion], v = [linear; angular] velocity in body coordinates. */
        if (unit_rotation(q + 3, R)) return U2D_ERR_QUATERNION;
        transpose3(R, XJ.E);
        XJ.r[0] = q[0]; XJ.r[1] = q[1]; XJ.r[2] = q[2];
        u2d_xform_mul(&XJ, Xt, Xup);
        u2d_zero(S, 36);
        for (int c = 0; c < 3; c++) {
            S[6 * c + 3 + c] = U2D_R(1);     /* linear velocity columns  */
            S[6 * (c + 3) + c] = U2D_R(1);   /* angular velocity columns */
        }
        return U2D_OK;
    }

    case U2D_JOINT_BALL:
        /* q = quaternion, v = angular velocity in body coordinates: turns about the origin */
        if (unit_rotation(q, R)) return U2D_ERR_QUATERNION;
        u2d_multm3(R, Xt->E, Xup->E);
        u2d_copy(Xup->r, Xt->r, 3);
        u2d_zero(S, 18);
        for (int c = 0; c < 3; c++) S[6 * c + c] = U2D_R(1);
        return U2D_OK;

    case U2D_JOINT_PLANAR: {
        u2d_real Eu[3], Ew[3], lin[3];
        planar_pose(m, i, q, &XJ, Eu, Ew);
        u2d_xform_mul(&XJ, Xt, Xup);
        set_col(S, 0, zero, Eu);
        set_col(S, 1, zero, Ew);
        set_col(S, 2, n, zero);
        /* d/dt (E u) = -thetadot n x E u, likewise for w; the theta column is constant */
        if (qd) {
            for (int r = 0; r < 3; r++) lin[r] = Eu[r] * qd[0] + Ew[r] * qd[1];
            u2d_cross3(n, lin, cJ + 3);
            for (int r = 3; r < 6; r++) cJ[r] *= -qd[2];
            if (Sdot) {
                u2d_cross3(n, Eu, Sdot + 3);
                u2d_cross3(n, Ew, Sdot + 9);
                for (int r = 3; r < 12; r++) Sdot[r] *= -qd[2];
                Sdot[6] = Sdot[7] = Sdot[8] = U2D_R(0);
            }
        }
        return U2D_OK;
    }

    case U2D_JOINT_CUSTOM:
        jcalc_custom(m, i, q, qd, Xup, S, cJ, Sdot);
        return U2D_OK;

    case U2D_JOINT_ELLIPSOID:
        jcalc_ellipsoid(m, i, q, qd, Xup, S, cJ, Sdot);
        return U2D_OK;

    case U2D_JOINT_CURVATURE:
        jcalc_curvature(m, i, q, qd, Xup, S, cJ, Sdot);
        return U2D_OK;

    default:            /* the one-axis joints and the fixed one are u2d_jcalc's own */
        break;
    }
    u2d_copy(Xup->E, Xt->E, 9);
    u2d_copy(Xup->r, Xt->r, 3);
    return U2D_OK;
}

/* Xup of a joint whose columns are constant (u2d_has_constant_columns) */
static U2D_ALWAYS_INLINE void place_one_axis(const u2d_model *m, int i, const u2d_real *q,
                                             u2d_xform *Xup)
{
    const u2d_xform *Xt = &m->Xtree[i];
    const u2d_real *n = &m->axis[3 * i];
    const int k = m->jaxis[i];
    switch ((u2d_jtype)m->jtype[i]) {
    case U2D_JOINT_REVOLUTE:
    case U2D_JOINT_CONTINUOUS:
        if (k >= 0) turn_rows(k, n[k] * q[0], Xt->E, Xup->E);      /* n[k] = +-1 */
        else {
            u2d_real R[9];
            u2d_axis_angle(n, q[0], R);
            u2d_multm3(R, Xt->E, Xup->E);
        }
        u2d_copy(Xup->r, Xt->r, 3);
        return;

    case U2D_JOINT_PRISMATIC: {
        u2d_real d[3] = {n[0] * q[0], n[1] * q[0], n[2] * q[0]}, t[3];
        u2d_multv3(Xt->E, d, t);
        u2d_copy(Xup->E, Xt->E, 9);
        for (int r = 0; r < 3; r++) Xup->r[r] = Xt->r[r] + t[r];
        return;
    }

    default:                                                        /* fixed */
        u2d_copy(Xup->E, Xt->E, 9);
        u2d_copy(Xup->r, Xt->r, 3);
        return;
    }
}

/* S and cJ of a joint whose columns are constant: its axis, and zero */
static U2D_ALWAYS_INLINE void set_constant_columns(const u2d_model *m, int i, u2d_real *S,
                                                   u2d_real cJ[6])
{
    const u2d_real zero[3] = {U2D_R(0), U2D_R(0), U2D_R(0)};
    const u2d_real *n = &m->axis[3 * i];
    u2d_zero(cJ, 6);
    if (m->jtype[i] == U2D_JOINT_PRISMATIC) set_col(S, 0, zero, n);
    else if (m->jtype[i] != U2D_JOINT_FIXED) set_col(S, 0, n, zero);
}

u2d_status u2d_jcalc(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                     u2d_xform *Xup, u2d_real *S, u2d_real cJ[6], u2d_real *Sdot)
{
    if (Sdot) u2d_zero(Sdot, 6 * m->jnv[i]);
    if (!u2d_has_constant_columns(m->jtype[i])) {
        u2d_zero(cJ, 6);
        return jcalc_multi(m, i, q, qd, Xup, S, cJ, Sdot);
    }
    place_one_axis(m, i, q, Xup);
    set_constant_columns(m, i, S, cJ);
    return U2D_OK;
}

u2d_status u2d_jcalc_work(const u2d_model *m, u2d_work *w, int i, const u2d_real *q,
                          const u2d_real *qd)
{
#if U2D_LANES > 1           /* a lane unit's workspace: lanes_new set its columns */
    if (u2d_has_constant_columns(m->jtype[i])) {
        place_one_axis(m, i, q, &w->Xup[i]);
        return U2D_OK;
    }
#endif
    return u2d_jcalc(m, i, q, qd, &w->Xup[i], &w->S[36 * i], &w->cJ[6 * i], NULL);
}

void u2d_work_set_columns(const u2d_model *m, u2d_work *w)
{
    for (int i = 1; i < m->nbody; i++)
        if (u2d_has_constant_columns(m->jtype[i]))
            set_constant_columns(m, i, &w->S[36 * i], &w->cJ[6 * i]);
}

/* ---- joints as chains of axes, for the analytical derivatives (u2d_chain) ---- */

/* One axis of a chain, moved by exactly one coordinate c of the joint (theta = q_c for a
 * plain axis: J = 1 and nothing moves with the coordinate's own position). */
static void chain_axis(u2d_chain *ch, int c, const u2d_real U[6], u2d_real J, u2d_real H,
                       u2d_real rate, u2d_real acc, u2d_real drate, u2d_real dacc)
{
    const int k = ch->n++;
    const u2d_real o = U2D_R(0);
    ch->coord[k][0] = c;
    ch->coord[k][1] = -1;
    u2d_copy(ch->U[k], U, 6);
    ch->J[k][0] = J; ch->J[k][1] = o;
    ch->H[k][0][0] = H; ch->H[k][0][1] = ch->H[k][1][0] = ch->H[k][1][1] = o;
    ch->rate[k] = rate; ch->acc[k] = acc;
    ch->drate[k][0] = drate; ch->drate[k][1] = o;
    ch->dacc[k][0] = dacc; ch->dacc[k][1] = o;
}

/* A custom joint: its six transform axes, translations t3 t4 t5 then rotations r0 r1 r2
 * (Simbody's FunctionBased mobilizer translates, then turns), axis k moved by f_k(q_c).
 * Rotations are [a_k; 0] about the body origin, translations [0; b_t] (see custom_pose).
 * The function values are taken lane by lane (knot intervals differ between samples). */
static void custom_chain(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                         const u2d_real *qdd, u2d_chain *ch)
{
    static const int order[6] = {3, 4, 5, 0, 1, 2};
    const u2d_custom *C = &m->custom[m->jcustom[i]];
    const u2d_real o = U2D_R(0);
    u2d_real fv[6][4], f[6], am[3][3], bm[3][3];
    u2d_xform XJ;
    for (int k = 0; k < 6; k++) {
        const int c = C->coord[k];
        double v[4];
#if U2D_LANES == 1
        u2d_function_eval(m->func, m->fdata, C->func[k], c >= 0 ? q[c] : 0.0, v);
        for (int d = 0; d < 4; d++) fv[k][d] = v[d];
#else
        for (int l = 0; l < U2D_LANES; l++) {
            u2d_function_eval(m->func, m->fdata, C->func[k], c >= 0 ? q[c][l] : 0.0, v);
            for (int d = 0; d < 4; d++) fv[k][d][l] = v[d];
        }
#endif
        f[k] = fv[k][0];
    }
    custom_pose(m, C, f, &XJ, am, bm);
    for (int n = 0; n < 6; n++) {
        const int k = order[n], c = C->coord[k];
        if (c < 0) continue;                /* a constant axis: no rate, nothing moves */
        u2d_real U[6] = {o, o, o, o, o, o};
        if (k < 3) u2d_copy(U, am[k], 3);
        else u2d_copy(U + 3, bm[k - 3], 3);
        const u2d_real *fk = fv[k], qdc = qd[c], qddc = qdd[c];
        chain_axis(ch, c, U, fk[1], fk[2], fk[1] * qdc, fk[1] * qddc + fk[2] * qdc * qdc,
                   fk[2] * qdc, fk[2] * qddc + fk[3] * qdc * qdc);
    }
}

/* An ellipsoid joint (see jcalc_ellipsoid): B's origin p = D n slides along F's three axes,
 * then B turns about a0, a1, z through p, then (scapula) M turns about the winging pin.
 * The slides are the chain's first three axes, [0; e_r] (F's axis r), moved by
 * theta_r = d_r n_r(q0, q1), n = R0(q0) R1(q1) z; their derivatives are those of n,
 *   N[i][j] = d^(i+j) n / dq0^i dq1^j = [a0]x^i R0 [a1]x^j R1 z,
 * taken to third order (the accelerations' q-derivatives). */
static void ellipsoid_chain(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                            const u2d_real *qdd, u2d_chain *ch)
{
    const u2d_real *P = &m->ellipsoid[U2D_ELLIPSOID_N * i];
    const u2d_real *a0 = P + U2D_ELLIPSOID_AXIS0, *a1 = P + U2D_ELLIPSOID_AXIS1;
    const u2d_real *d = P + U2D_ELLIPSOID_WING_DIR, *o = P + U2D_ELLIPSOID_WING_AT;
    const u2d_real z = U2D_R(0);
    u2d_real R0[9], R1[9], R[9], am[3][3], EJ[9], N[4][4][3];
    u2d_xform XE, XW;
    ellipsoid_pose(m, i, q, R0, R1, R, am, &XE, &XW);
    u2d_mulmm3(XW.E, XE.E, EJ);                   /* F -> M */

    for (int r = 0; r < 3; r++) N[0][0][r] = R1[3 * r + 2];          /* R1 z, for now */
    for (int j = 1; j < 4; j++) u2d_cross3(a1, N[0][j - 1], N[0][j]);
    for (int j = 0; j < 4; j++) {
        u2d_real t[3];
        u2d_mulmv3(R0, N[0][j], t);
        u2d_copy(N[0][j], t, 3);
        for (int k = 1; k + j < 4; k++) u2d_cross3(a0, N[k - 1][j], N[k][j]);
    }
    const u2d_real w0 = qd[0], w1 = qd[1], e0 = qdd[0], e1 = qdd[1];
    for (int r = 0; r < 3; r++) {
        const int k = ch->n++;
        const u2d_real dr = P[U2D_ELLIPSOID_RADII + r];
        const u2d_real J0 = dr * N[1][0][r], J1 = dr * N[0][1][r];
        const u2d_real H00 = dr * N[2][0][r], H01 = dr * N[1][1][r], H11 = dr * N[0][2][r];
        ch->coord[k][0] = 0;
        ch->coord[k][1] = 1;
        ch->U[k][0] = ch->U[k][1] = ch->U[k][2] = z;
        for (int c = 0; c < 3; c++) ch->U[k][3 + c] = EJ[3 * c + r];
        ch->J[k][0] = J0; ch->J[k][1] = J1;
        ch->H[k][0][0] = H00; ch->H[k][0][1] = ch->H[k][1][0] = H01; ch->H[k][1][1] = H11;
        ch->rate[k] = J0 * w0 + J1 * w1;
        ch->acc[k] = J0 * e0 + J1 * e1 + (H00 * w0 * w0 + 2.0 * H01 * w0 * w1 + H11 * w1 * w1);
        ch->drate[k][0] = H00 * w0 + H01 * w1;
        ch->drate[k][1] = H01 * w0 + H11 * w1;
        ch->dacc[k][0] = H00 * e0 + H01 * e1 + dr * (N[3][0][r] * w0 * w0
                         + 2.0 * N[2][1][r] * w0 * w1 + N[1][2][r] * w1 * w1);
        ch->dacc[k][1] = H01 * e0 + H11 * e1 + dr * (N[2][1][r] * w0 * w0
                         + 2.0 * N[1][2][r] * w0 * w1 + N[0][3][r] * w1 * w1);
    }
    for (int c = 0; c < 3; c++) {         /* the turns, about B's origin, seen from M */
        const u2d_real turn[6] = {am[c][0], am[c][1], am[c][2], z, z, z};
        u2d_real U[6];
        u2d_xform_motion(&XW, turn, U);
        chain_axis(ch, c, U, U2D_R(1), z, qd[c], qdd[c], z, z);
    }
    if (m->jnv[i] == 4) {                 /* the pin, fixed in M */
        u2d_real U[6];
        u2d_copy(U, d, 3);
        u2d_cross3(o, d, U + 3);
        chain_axis(ch, 3, U, U2D_R(1), z, qd[3], qdd[3], z, z);
    }
}

/* A constant-curvature joint (see jcalc_curvature): M's origin p(a0, a1), the arc's end,
 * slides along F's three axes, then M turns about x, z, y through it. The slides are the
 * chain's first three axes, [0; R^T e_r] in M, moved by theta_r = p_r(a(q)); each angle
 * a_c = clamp(q_c + neutral_c) moves with q_c at the rate live_c (1, or 0 at its bound), so
 * the partials of theta_r in q are those of the arc (curvature_end, to third order for the
 * accelerations' q-derivatives) times live of each coordinate. */
static void curvature_chain(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                            const u2d_real *qdd, u2d_chain *ch)
{
    const u2d_real z = U2D_R(0);
    u2d_real a[3], live[3], p[3], dp[2][3], ddp[3][3], dddp[4][3], R[9], am[3][3];
    curvature_lanes(&m->curvature[U2D_CURVATURE_N * i], q, a, live, p, dp, ddp, dddp);
    curvature_turns(a, R, am);
    for (int r = 0; r < 3; r++) {
        const int k = ch->n++;
        u2d_real J[2], H[2][2], T[2][2][2];
        for (int x = 0; x < 2; x++) {
            J[x] = live[x] * dp[x][r];
            for (int y = 0; y < 2; y++) {
                H[x][y] = live[x] * live[y] * ddp[x + y][r];
                for (int w = 0; w < 2; w++)
                    T[x][y][w] = live[x] * live[y] * live[w] * dddp[x + y + w][r];
            }
        }
        ch->coord[k][0] = 0;
        ch->coord[k][1] = 1;
        ch->U[k][0] = ch->U[k][1] = ch->U[k][2] = z;
        for (int c = 0; c < 3; c++) ch->U[k][3 + c] = R[3 * r + c];        /* R^T e_r */
        ch->rate[k] = J[0] * qd[0] + J[1] * qd[1];
        ch->acc[k] = J[0] * qdd[0] + J[1] * qdd[1] + (H[0][0] * qd[0] * qd[0]
                     + 2.0 * H[0][1] * qd[0] * qd[1] + H[1][1] * qd[1] * qd[1]);
        for (int x = 0; x < 2; x++) {
            ch->J[k][x] = J[x];
            for (int y = 0; y < 2; y++) ch->H[k][x][y] = H[x][y];
            ch->drate[k][x] = H[x][0] * qd[0] + H[x][1] * qd[1];
            ch->dacc[k][x] = H[x][0] * qdd[0] + H[x][1] * qdd[1]
                           + (T[x][0][0] * qd[0] * qd[0] + 2.0 * T[x][0][1] * qd[0] * qd[1]
                              + T[x][1][1] * qd[1] * qd[1]);
        }
    }
    for (int c = 0; c < 3; c++) {         /* the turns, about M's origin */
        const u2d_real turn[6] = {am[c][0], am[c][1], am[c][2], z, z, z};
        chain_axis(ch, c, turn, live[c], z, live[c] * qd[c], live[c] * qdd[c], z, z);
    }
}

/* A planar joint (see planar_pose): the slides along u and w, then the turn about n through
 * the body origin, each moved by its own coordinate (theta = q_c: J = 1, no H, no drate). */
static void planar_chain(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                         const u2d_real *qdd, u2d_chain *ch)
{
    const u2d_real *n = &m->axis[3 * i], z = U2D_R(0), one = U2D_R(1);
    u2d_real Eu[3], Ew[3];
    u2d_xform XJ;
    planar_pose(m, i, q, &XJ, Eu, Ew);
    const u2d_real slide_u[6] = {z, z, z, Eu[0], Eu[1], Eu[2]};
    const u2d_real slide_w[6] = {z, z, z, Ew[0], Ew[1], Ew[2]};
    const u2d_real turn[6] = {n[0], n[1], n[2], z, z, z};
    chain_axis(ch, 0, slide_u, one, z, qd[0], qdd[0], z, z);
    chain_axis(ch, 1, slide_w, one, z, qd[1], qdd[1], z, z);
    chain_axis(ch, 2, turn, one, z, qd[2], qdd[2], z, z);
}

u2d_status u2d_joint_chain(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                           const u2d_real *qdd, u2d_chain *ch)
{
    ch->n = 0;
    switch ((u2d_jtype)m->jtype[i]) {
    case U2D_JOINT_CUSTOM:
        custom_chain(m, i, q, qd, qdd, ch);
        return U2D_OK;
    case U2D_JOINT_ELLIPSOID:
        ellipsoid_chain(m, i, q, qd, qdd, ch);
        return U2D_OK;
    case U2D_JOINT_PLANAR:
        planar_chain(m, i, q, qd, qdd, ch);
        return U2D_OK;
    case U2D_JOINT_CURVATURE:
        curvature_chain(m, i, q, qd, qdd, ch);
        return U2D_OK;
    default:
        return U2D_ERR_ARGUMENT;
    }
}
