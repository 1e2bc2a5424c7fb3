/* u2d_joint.c: the joint models (Featherstone's jcalc), the only switch on joint type.
 *
 * For body i, with q and qd pointing at its joint's coordinates:
 *   X_J  joint frame -> body frame,    S  motion subspace in body coordinates (6 x nv),
 *   cJ = (dS/dt) qd, non-zero only for the joints whose S moves with q (planar, custom,
 *   ellipsoid); qd may be NULL when only positions matter (cJ is then zero). */
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

/* E_out = R(e_k, t)^T E: turning about a coordinate axis mixes two rows only. */
static void turn_rows(int k, u2d_real t, const u2d_real E[9], u2d_real out[9])
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    u2d_real c, s;
    u2d_sincos(t, &s, &c);
    for (int col = 0; col < 3; col++) {
        u2d_real ei = E[3 * i + col], ej = E[3 * j + col];
        out[3 * i + col] = c * ei + s * ej;
        out[3 * j + col] = c * ej - s * ei;
        out[3 * k + col] = E[3 * k + col];
    }
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

/* The time derivatives of the ellipsoid's columns S_k = [am_k ; K (am_k x z)] in B at rates
 * qd (see jcalc_ellipsoid): d(am_k)/dt = am_k x w_>k, dK/dt y = K (w x y) - w x (K y). */
static void ellipsoid_column_rates(const u2d_real am[3][3], const u2d_real K[9],
                                   const u2d_real *qd, u2d_real dS[3][6])
{
    const u2d_real zaxis[3] = {U2D_R(0), U2D_R(0), U2D_R(1)};
    u2d_real after[3][3], w[3];                   /* w_>k, and w = w_>-1, in B */
    for (int r = 0; r < 3; r++) {
        after[2][r] = U2D_R(0);
        after[1][r] = qd[2] * am[2][r];
        after[0][r] = after[1][r] + qd[1] * am[1][r];
        w[r] = after[0][r] + qd[0] * am[0][r];
    }
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
    const u2d_real *a0 = P + U2D_ELLIPSOID_AXIS0, *a1 = P + U2D_ELLIPSOID_AXIS1;
    const u2d_real *d = P + U2D_ELLIPSOID_WING_DIR, *o = P + U2D_ELLIPSOID_WING_AT;
    const u2d_real zaxis[3] = {U2D_R(0), U2D_R(0), U2D_R(1)};
    const int wing = m->jnv[i] == 4;
    u2d_real R0[9], R1[9], R2[9], R12[9], R[9], Rw[9], am[3][3], n[3], t3[3], K[9], DR[9];
    u2d_xform XE, XW, XJ;

    u2d_axis_angle(a0, q[0], R0);
    u2d_axis_angle(a1, q[1], R1);
    u2d_axis_angle(zaxis, q[2], R2);
    u2d_mulmm3(R1, R2, R12);
    u2d_mulmm3(R0, R12, R);                       /* R_FB */
    u2d_copy(am[2], zaxis, 3);
    u2d_multv3(R2, a1, am[1]);
    u2d_multv3(R12, a0, am[0]);
    for (int r = 0; r < 3; r++) n[r] = R[3 * r + 2];
    transpose3(R, XE.E);
    for (int r = 0; r < 3; r++) XE.r[r] = P[U2D_ELLIPSOID_RADII + r] * n[r];
    for (int r = 0; r < 9; r++) DR[r] = P[U2D_ELLIPSOID_RADII + r / 3] * R[r];
    u2d_mulmm3(XE.E, DR, K);                      /* K = R^T D R */

    /* the winging pin, B -> M (the identity without one) */
    if (wing) {
        u2d_axis_angle(d, q[3], Rw);
        transpose3(Rw, XW.E);
        u2d_mulmv3(Rw, o, t3);
        for (int r = 0; r < 3; r++) XW.r[r] = o[r] - t3[r];
    } else u2d_xform_identity(&XW);
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

u2d_status u2d_jcalc(const u2d_model *m, int i, const u2d_real *q, const u2d_real *qd,
                     u2d_xform *Xup, u2d_real *S, u2d_real cJ[6], u2d_real *Sdot)
{
    const u2d_real zero[3] = {U2D_R(0), U2D_R(0), U2D_R(0)};
    const u2d_xform *Xt = &m->Xtree[i];
    const u2d_real *n = &m->axis[3 * i];
    const int k = m->jaxis[i];
    u2d_real R[9];
    u2d_xform XJ;
    u2d_zero(cJ, 6);
    if (Sdot) u2d_zero(Sdot, 6 * m->jnv[i]);
    switch ((u2d_jtype)m->jtype[i]) {
    case U2D_JOINT_REVOLUTE:
    case U2D_JOINT_CONTINUOUS:
        if (k >= 0) turn_rows(k, n[k] * q[0], Xt->E, Xup->E);      /* n[k] = +-1 */
        else {
            u2d_axis_angle(n, q[0], R);
            u2d_multm3(R, Xt->E, Xup->E);
        }
        u2d_copy(Xup->r, Xt->r, 3);
        set_col(S, 0, n, zero);
        return U2D_OK;

    case U2D_JOINT_PRISMATIC: {
        u2d_real d[3] = {n[0] * q[0], n[1] * q[0], n[2] * q[0]}, t[3];
        u2d_multv3(Xt->E, d, t);
        u2d_copy(Xup->E, Xt->E, 9);
        for (int r = 0; r < 3; r++) Xup->r[r] = Xt->r[r] + t[r];
        set_col(S, 0, zero, n);
        return U2D_OK;
    }

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
        /* q = [x y theta]: translate by x u + y w in the joint frame, then turn theta about n. */
        const u2d_real *u = &m->plane[6 * i], *w = &m->plane[6 * i + 3];
        u2d_real Eu[3], Ew[3], lin[3];
        u2d_axis_angle(n, q[2], R);
        transpose3(R, XJ.E);
        for (int r = 0; r < 3; r++) XJ.r[r] = q[0] * u[r] + q[1] * w[r];
        u2d_xform_mul(&XJ, Xt, Xup);
        u2d_mulmv3(XJ.E, u, Eu);
        u2d_mulmv3(XJ.E, w, Ew);
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

    case U2D_JOINT_FIXED:
        break;
    }
    u2d_copy(Xup->E, Xt->E, 9);
    u2d_copy(Xup->r, Xt->r, 3);
    return U2D_OK;
}

/* The custom joint of body i at its coordinates q: the unit twists of its six transform
 * axes in body coordinates (U + 6k: rotations [a_k; 0] about the body origin, translations
 * [0; b_t]) and each axis function's value and first three derivatives (fv + 4k), lane by
 * lane like custom_axes. For the analytical derivatives (u2d_derivatives.c). */
void u2d_custom_twists(const u2d_model *m, int i, const u2d_real *q, u2d_real U[36],
                       u2d_real fv[24])
{
    const u2d_custom *C = &m->custom[m->jcustom[i]];
    u2d_real f[6], am[3][3], bm[3][3];
    u2d_xform XJ;
    for (int k = 0; k < 6; k++) {
        const int c = C->coord[k];
        double o[4];
#if U2D_LANES == 1
        u2d_function_eval(m->func, m->fdata, C->func[k], c >= 0 ? q[c] : 0.0, o);
        for (int d = 0; d < 4; d++) fv[4 * k + d] = o[d];
#else
        for (int l = 0; l < U2D_LANES; l++) {
            u2d_function_eval(m->func, m->fdata, C->func[k], c >= 0 ? q[c][l] : 0.0, o);
            for (int d = 0; d < 4; d++) fv[4 * k + d][l] = o[d];
        }
#endif
        f[k] = fv[4 * k];
    }
    custom_pose(m, C, f, &XJ, am, bm);
    u2d_zero(U, 36);
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++) {
            U[6 * k + r] = am[k][r];
            U[6 * (3 + k) + 3 + r] = bm[k][r];
        }
}
