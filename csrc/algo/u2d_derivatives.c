/* u2d_derivatives.c: analytical partial derivatives of inverse and forward dynamics.
 *
 * The recursion of Carpentier & Mansard, "Analytical derivatives of rigid body dynamics
 * algorithms" (RSS 2018), derived again here in world coordinates (every motion and force
 * at the world origin O, so that nothing needs a transform once the columns are known).
 * For body k, with s_j the world columns of joint j and p = parent(i):
 *     v_k = v_p + sum S_j qd_j,   a_k = a_p + sum (S_j qdd_j + v_j x S_j qd_j),   a_0 = -g
 *     f_k = I_k a_k + v_k x* I_k v_k,   F_j = sum of f_k over the subtree of j,
 *     tau_j = S_j^T (F_j - Fext_j)
 * Moving coordinate c of joint i (column s) moves the whole subtree of i rigidly with the
 * twist s, except the parent side (v_p, a_p). With
 *     dV_c = v_p x s,   dA_c = a_p x s + v_p x dV_c,   dAv_c = v_i x s + dV_c
 * one finds, for k below i,
 *     dv_k/dq_c = s x v_k + dV_c,   da_k/dq_c = s x a_k + dA_c + dV_c x v_k,
 *     dv_k/dqd_c = s,               da_k/dqd_c = s x v_k + dAv_c
 * and, the parts that ride with s cancelling in S_j^T F_j,
 *     B ψ = I (ψ x v) + ψ x* I v + v x* I ψ       (summed over a subtree: B_j, like I_j)
 * For a body with I = (m, h, Ib), v = [w; u] and momentum I v = [L; p], expanding the cross
 * products leaves B = [B11 0; -2[p]x 0], B11 = [w]Ib - Ib[w] - [h][u] - [u][h] - [L]:
 * B only sees the angular part of ψ, and a subtree's B is (sum of B11, sum of p).
 *     dtau_j/dq_c  = S_j^T (I_j dA_c + B_j dV_c [+ s x* Fext_j])   j = i or below i
 *                  = S_j^T (I_i dA_c + B_i dV_c + s x* F_i)        j above i
 *     dtau_j/dqd_c = S_j^T (I_j dAv_c + B_j s)                     j = i or below i
 *                  = S_j^T (I_i dAv_c + B_i s)                     j above i
 *     dtau_j/dqdd_c = M_jc = S_j^T I_j s (j = i or below), + armature_i on the diagonal
 * where I_j is the composite (subtree) inertia. Joint i's own columns ride body i, true of
 * every joint but the planar one (its slides stay with the parent while theta turns the
 * child) and OpenSim's custom, ellipsoid and constant-curvature joints, whose columns move
 * with their coordinates: those are taken apart into a chain of axes (chain_motion_partials,
 * chain_own_block below; a planar joint is the slides along u and w, then the turn).
 * External wrenches are fixed in the world (DESIGN.md), hence the Fext_j term.
 *
 * Forward dynamics: qdd = M^-1 (tau - ...) gives dqdd/dx = -M^-1 dtau/dx at qdd = ABA,
 * and dqdd/dtau = M^-1, through the sparse factorization M = L^T D L of RBDA section 6.5
 * (L is nonzero only where a column is an ancestor of its row: O(nv^2 depth) solves).
 *
 * Written over u2d_real like RNEA and ABA: the SIMD units (u2d_simd_impl.h) compile this
 * text again over lanes of samples; the only data-dependent branch, a non-positive pivot
 * in ltdl, is taken when any lane has one (that group then goes one sample at a time). */
#include "model/u2d_model.h"
#include "model/u2d_port.h"

/* a^T b for a motion and a force (or two 6-vectors), summed in pairs: a shorter chain of
 * dependent additions than left to right */
static inline u2d_real pair6(const u2d_real a[6], const u2d_real b[6])
{
    return (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3])
         + (a[4] * b[4] + a[5] * b[5]);
}

/* One body's B (see the top of the file): B11 (3x3, row-major) and its momentum p.
 * With Ib symmetric, [w]Ib - Ib[w] = X + X^T for X = [w]Ib (columns w x Ib_k), and
 * [h][u] + [u][h] = u h^T + h u^T - 2 (u.h) 1. */
static void velocity_jacobian(const u2d_inertia *I, const u2d_real v[6], u2d_real B[12])
{
    const u2d_real *w = v, *u = v + 3, *h = I->h;
    u2d_real Iv[6], X[9], col[3], x[3];
    u2d_inertia_mul(I, v, Iv);
    for (int k = 0; k < 3; k++) {
        col[0] = I->Ib[k]; col[1] = I->Ib[3 + k]; col[2] = I->Ib[6 + k];
        u2d_cross3(w, col, x);
        X[k] = x[0]; X[3 + k] = x[1]; X[6 + k] = x[2];
    }
    const u2d_real uh2 = 2.0 * u2d_dot3(u, h), o = U2D_R(0);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            B[3 * r + c] = X[3 * r + c] + X[3 * c + r] - u[r] * h[c] - h[r] * u[c]
                         + (r == c ? uh2 : o);
    B[1] += Iv[2]; B[2] -= Iv[1]; B[3] -= Iv[2];        /* - [L]x */
    B[5] += Iv[0]; B[6] += Iv[1]; B[7] -= Iv[0];
    B[9] = Iv[3]; B[10] = Iv[4]; B[11] = Iv[5];
}

/* out = B x, B given as (B11, p): [B11 x_w; -2 p x x_w] */
static void b_mul(const u2d_real B[12], const u2d_real x[6], u2d_real out[6])
{
    u2d_real t[3];
    u2d_mulmv3(B, x, out);
    u2d_cross3(B + 9, x, t);
    for (int r = 0; r < 3; r++) out[3 + r] = -2.0 * t[r];
}

/* out = B^T s: [B11^T s_w + 2 p x s_u; 0] */
static void b_mul_T(const u2d_real B[12], const u2d_real s[6], u2d_real out[6])
{
    u2d_real t[3];
    u2d_multv3(B, s, out);
    u2d_cross3(B + 9, s + 3, t);
    for (int r = 0; r < 3; r++) {
        out[r] += 2.0 * t[r];
        out[3 + r] = U2D_R(0);
    }
}

/* A joint whose columns move with its own coordinates (planar, and OpenSim's custom,
 * ellipsoid and constant-curvature joints) is a chain of one-axis moves (u2d_chain, built
 * in u2d_joint.c): axis k, the twist u_k, rides the (massless) link before it and is moved by theta_k(q), a function
 * of one or two of the joint's coordinates. Moving q_c moves theta_k by J_kc, its rate by
 * drate_kc and its acceleration by dacc_kc (second and third derivatives of theta enter);
 * each is a move of a one-axis joint, whose dV, dA, dAv are those of the top of the file
 * with v_p, a_p the motion of the chain link before axis k (vk, ak here), and a change of
 * its rate adds u_k drate to dV, 2 (v_p x u_k) drate to dA and, as d(acc)/dqd_c = 2
 * drate_kc, 2 u_k drate to dAv. Summed per coordinate, the subtree below sees them exactly
 * as it sees a rigid joint's. Out of line (as chain_own_block): the rigid joints' loop
 * compiles as without them; and opaque to rnea_partials (U2D_OPAQUE, model/u2d_port.h),
 * whose GCC 12 build at -O1 lost chain_own_block's additions to dtau/dq otherwise. */
static U2D_OPAQUE void chain_motion_partials(const u2d_model *m, u2d_work *w, int i,
                                            const u2d_real *q, const u2d_real *qd,
                                            const u2d_real *qdd)
{
    const int a0 = m->vadr[i];
    u2d_chain *ch = &w->chain[w->chain_of[i]];
    u2d_real vk[6], ak[6];
    u2d_joint_chain(m, i, q + m->qadr[i], qd + a0, qdd + a0, ch);
    for (int k = 0; k < ch->n; k++) {       /* its axes in world coordinates, kept for */
        u2d_real u[6];                      /* chain_own_block                         */
        u2d_xform_motion_inv(&w->Xa[i], ch->U[k], u);
        u2d_copy(ch->U[k], u, 6);
    }
    u2d_copy(vk, &w->ov[6 * m->parent[i]], 6);
    u2d_copy(ak, &w->oa[6 * m->parent[i]], 6);
    for (int k = 0; k < m->jnv[i]; k++) {
        u2d_zero(&w->dV[6 * (a0 + k)], 6);
        u2d_zero(&w->dA[6 * (a0 + k)], 6);
        u2d_zero(&w->dAv[6 * (a0 + k)], 6);
    }
    for (int k = 0; k < ch->n; k++) {
        const u2d_real *u = ch->U[k];
        u2d_real t1[6], t2[6], t3[6];
        u2d_crossm(vk, u, t1);                      /* v_p x u          */
        u2d_crossm(ak, u, t2);                      /* a_p x u          */
        u2d_crossm(vk, t1, t3);                     /* v_p x (v_p x u)  */
        for (int a = 0; a < 2; a++) {
            const int c = ch->coord[k][a];
            if (c < 0) continue;
            const u2d_real J = ch->J[k][a], drate = ch->drate[k][a], dacc = ch->dacc[k][a];
            u2d_real *dV = &w->dV[6 * (a0 + c)], *dA = &w->dA[6 * (a0 + c)];
            u2d_real *dAv = &w->dAv[6 * (a0 + c)];
            for (int r = 0; r < 6; r++) {
                dV[r] += J * t1[r] + drate * u[r];
                dA[r] += J * (t2[r] + t3[r]) + 2.0 * drate * t1[r] + dacc * u[r];
                dAv[r] += 2.0 * J * t1[r] + 2.0 * drate * u[r];
            }
        }
        /* on to the link after axis k: v += u rate, a += u acc + v x u rate */
        for (int r = 0; r < 6; r++) vk[r] += u[r] * ch->rate[k];
        u2d_crossm(vk, u, t1);
        for (int r = 0; r < 6; r++) ak[r] += u[r] * ch->acc[k] + t1[r] * ch->rate[k];
    }
}

/* The joint's own block of dtau/dq beyond what the rigid formulas give. With D = F_i -
 * Fext_i, tau_c = sum_k J_kc u_k . D: axis m above axis k in the chain does not turn with
 * it (the "above" formula, + J_mr J_kc u_m . (u_k x* D) over the rigid one), and J_kc's own
 * change adds H_k,rc u_k . D. The chain is the one chain_motion_partials built (its axes
 * u_k in world coordinates): a custom joint's functions are evaluated once. */
static U2D_OPAQUE void chain_own_block(const u2d_model *m, u2d_work *w, int i,
                                      u2d_real *dtau_dq)
{
    const int a0 = m->vadr[i], nv = m->nv;
    const u2d_chain *ch = &w->chain[w->chain_of[i]];
    const u2d_real (*u)[6] = ch->U;
    u2d_real D[6];
    for (int r = 0; r < 6; r++) D[r] = w->oF[6 * i + r] - w->oFx[6 * i + r];
    for (int k = 0; k < ch->n; k++) {
        u2d_real t[6];
        const u2d_real tk = pair6(u[k], D);
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                const int r = ch->coord[k][a], c = ch->coord[k][b];
                if (r >= 0 && c >= 0)
                    dtau_dq[(size_t)(a0 + r) * nv + a0 + c] += ch->H[k][a][b] * tk;
            }
        u2d_crossf(u[k], D, t);
        for (int mm = 0; mm < k; mm++) {
            const u2d_real p = pair6(u[mm], t);
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    const int r = ch->coord[mm][a], c = ch->coord[k][b];
                    if (r >= 0 && c >= 0)
                        dtau_dq[(size_t)(a0 + r) * nv + a0 + c]
                            += ch->J[mm][a] * ch->J[k][b] * p;
                }
        }
    }
}

/* Entry (r, c) of dtau/dq, dtau/dv and M (and of CRBA's M) is zero whatever the state when
 * neither coordinate is above the other in the tree: moving one moves nothing the other
 * carries. The derivatives below write every other entry, and no such one: a caller whose
 * matrices already hold those zeros (the batch's lane buffers, zeroed once, whose groups of
 * such zeros zero_groups in batch/u2d_simd_impl.h finds) need not clear them again. */
static u2d_status rnea_partials(const u2d_model *m, u2d_work *w, const double gravity[3],
                                const u2d_real *q, const u2d_real *qd, const u2d_real *qdd,
                                const u2d_fext *fext, u2d_real *dtau_dq, u2d_real *dtau_dv,
                                u2d_real *M)
{
    const int nb = m->nbody, nv = m->nv;
    const int has_fext = u2d_gather_fext(m, w, fext);
    const u2d_real o = U2D_R(0);
    const u2d_real a0[6] = {o, o, o, U2D_R(-gravity[0]), U2D_R(-gravity[1]), U2D_R(-gravity[2])};
    u2d_status st = u2d_world_motion(m, w, a0, q, qd, qdd);
    if (st != U2D_OK) return st;

    for (int i = 1; i < nb; i++) {
        const u2d_real *vp = &w->ov[6 * m->parent[i]], *ap = &w->oa[6 * m->parent[i]];
        const u2d_real *v = &w->ov[6 * i], *a = &w->oa[6 * i];
        if (u2d_moves_own_columns(m->jtype[i]))
            chain_motion_partials(m, w, i, q, qd, qdd);
        else for (int k = 0; k < m->jnv[i]; k++) {
            const int c = m->vadr[i] + k;
            const u2d_real *s = &w->S0[6 * c];
            u2d_real *dV = &w->dV[6 * c], *dA = &w->dA[6 * c], *dAv = &w->dAv[6 * c], t[6];
            u2d_crossm(vp, s, dV);
            u2d_crossm(ap, s, dA);
            u2d_crossm(vp, dV, t);
            for (int r = 0; r < 6; r++) dA[r] += t[r];
            u2d_crossm(v, s, dAv);
            for (int r = 0; r < 6; r++) dAv[r] += dV[r];
        }
        u2d_real h[6], t[6], *f = &w->oF[6 * i];
        u2d_inertia_mul(&w->IC[i], v, h);
        u2d_inertia_mul(&w->IC[i], a, f);
        u2d_crossf(v, h, t);
        for (int r = 0; r < 6; r++) f[r] += t[r];
        velocity_jacobian(&w->IC[i], v, &w->oB[12 * i]);
        if (has_fext) u2d_copy(&w->oFx[6 * i], &w->fext[6 * i], 6);
        else u2d_zero(&w->oFx[6 * i], 6);
    }

    for (int i = nb - 1; i > 0; i--) {
        const int p = m->parent[i];
        const u2d_inertia *I = &w->IC[i];
        const u2d_real *B = &w->oB[12 * i], *F = &w->oF[6 * i], *Fx = &w->oFx[6 * i];
        for (int k = 0; k < m->jnv[i]; k++) {
            const int c = m->vadr[i] + k;
            const u2d_real *s = &w->S0[6 * c];
            u2d_real Is[6], Bs[6], BTs[6], Gq[6], Gv[6], t[6];
            u2d_inertia_mul(I, s, Is);
            b_mul(B, s, Bs);
            b_mul_T(B, s, BTs);
            /* row c: the columns of joint i and of every joint above it */
            u2d_real *Rq = dtau_dq + (size_t)c * nv, *Rv = dtau_dv + (size_t)c * nv;
            u2d_real *Rm = M + (size_t)c * nv;
            for (int b = i; b > 0; b = m->parent[b])
                for (int l = 0; l < m->jnv[b]; l++) {
                    const int col = m->vadr[b] + l;
                    const u2d_real *sc = &w->S0[6 * col];
                    Rq[col] = pair6(Is, &w->dA[6 * col]) + u2d_dot3(BTs, &w->dV[6 * col]);
                    Rv[col] = pair6(Is, &w->dAv[6 * col]) + u2d_dot3(BTs, sc);
                    Rm[col] = pair6(Is, sc);
                    if (has_fext) {
                        u2d_crossf(sc, Fx, t);
                        Rq[col] += pair6(s, t);
                    }
                }
            /* column c: the rows of every joint above i */
            u2d_inertia_mul(I, &w->dA[6 * c], Gq);
            u2d_inertia_mul(I, &w->dAv[6 * c], Gv);
            b_mul(B, &w->dV[6 * c], t);
            for (int r = 0; r < 6; r++) {
                Gq[r] += t[r];
                Gv[r] += Bs[r];
            }
            u2d_crossf(s, F, t);
            for (int r = 0; r < 6; r++) Gq[r] += t[r];
            for (int b = p; b > 0; b = m->parent[b])
                for (int l = 0; l < m->jnv[b]; l++) {
                    const int row = m->vadr[b] + l;
                    const u2d_real *sr = &w->S0[6 * row];
                    dtau_dq[(size_t)row * nv + c] = pair6(sr, Gq);
                    dtau_dv[(size_t)row * nv + c] = pair6(sr, Gv);
                    M[(size_t)row * nv + c] = Rm[row];
                }
        }
        if (u2d_moves_own_columns(m->jtype[i]))
            chain_own_block(m, w, i, dtau_dq);
        if (p > 0) {
            u2d_inertia_add(&w->IC[p], I);
            for (int r = 0; r < 12; r++) w->oB[12 * p + r] += B[r];
            for (int r = 0; r < 6; r++) {
                w->oF[6 * p + r] += F[r];
                w->oFx[6 * p + r] += Fx[r];
            }
        }
        if (m->has_armature)            /* dtau/dqdd = M holds the rotors' inertia too */
            for (int k = 0; k < m->jnv[i]; k++) {
                const int c = m->vadr[i] + k;
                M[(size_t)c * nv + c] += m->armature[i];
            }
    }
    return U2D_OK;
}

u2d_status u2d_rnea_derivatives(const u2d_model *m, u2d_work *w, const double gravity[3],
                                const u2d_real *q, const u2d_real *qd, const u2d_real *qdd,
                                const u2d_fext *fext, u2d_real *dtau_dq, u2d_real *dtau_dv,
                                u2d_real *M)
{
    const size_t nn = (size_t)m->nv * (size_t)m->nv;
    for (size_t k = 0; k < nn; k++) dtau_dq[k] = dtau_dv[k] = M[k] = U2D_R(0);
    return rnea_partials(m, w, gravity, q, qd, qdd, fext, dtau_dq, dtau_dv, M);
}

/* M = L^T D L in place (RBDA Table 6.3): D on the diagonal, L (unit lower triangular)
 * below it, both only where the column is an ancestor coordinate lambda^k(row). */
static int ltdl(int n, const int *lambda, u2d_real *M)
{
    for (int k = n - 1; k >= 0; k--) {
        u2d_real *Mk = M + (size_t)k * n;
        const u2d_real d = Mk[k];
        if (U2D_ANY(d <= 0.0)) return -1;   /* NaN passes: a NaN sample gives NaN, as ABA */
        for (int i = lambda[k]; i >= 0; i = lambda[i]) {
            const u2d_real a = Mk[i] / d;
            u2d_real *Mi = M + (size_t)i * n;
            for (int j = i; j >= 0; j = lambda[j]) Mi[j] -= a * Mk[j];
            Mk[i] = a;
        }
    }
    return 0;
}

/* Columns of a row handled together: held in registers while every row that feeds them is
 * subtracted, so a row is read once per use and written once (not once per ancestor). The
 * chunk functions are inlined with a constant nc (U2D_SOLVE_CHUNK, or 1 for the last
 * columns), which lets the compiler unroll them and keep acc out of memory. */
#define U2D_SOLVE_CHUNK 8

/* Row j's columns c0 .. c0 + nc - 1 on the way up (see ltdl_up) */
static U2D_ALWAYS_INLINE void up_chunk(int nc, int n, int j, int c0, const int *end,
                                       const u2d_real *LD, u2d_real *X, int minv)
{
    u2d_real acc[U2D_SOLVE_CHUNK], *xj = X + (size_t)j * n + c0;
    for (int k = 0; k < nc; k++) acc[k] = xj[k];
    for (int i = end[j] - 1; i > j; i--) {
        if (end[i] <= c0 || (minv && i >= c0 + nc)) continue;
        const u2d_real l = LD[(size_t)i * n + j], *xi = X + (size_t)i * n + c0;
        for (int k = 0; k < nc; k++) acc[k] -= l * xi[k];
    }
    for (int k = 0; k < nc; k++) xj[k] = acc[k];
}

/* L^T z = x for the rows of X, from the leaves up, pulled rather than pushed: row j takes
 * away L_ij times the finished row of each coordinate i of its subtree (j, end[j]), last
 * first, which is the order in which pushing from i = n-1 down would reach it. Row i is
 * nonzero only in the columns of its ancestors and its subtree, all below end[i]; for M^-1
 * (identity at the start) only in its subtree, i .. end[i] - 1. Columns where row i is zero
 * are skipped: x - l * 0 is x. */
static void ltdl_up(int n, const int *end, const u2d_real *LD, u2d_real *X, int minv)
{
    for (int j = n - 1; j >= 0; j--) {
        int c0 = minv ? j : 0;
        for (; c0 + U2D_SOLVE_CHUNK <= end[j]; c0 += U2D_SOLVE_CHUNK)
            up_chunk(U2D_SOLVE_CHUNK, n, j, c0, end, LD, X, minv);
        for (; c0 < end[j]; c0++) up_chunk(1, n, j, c0, end, LD, X, minv);
    }
}

/* Row i's columns c0 .. c0 + nc - 1 on the way down (see ltdl_down) */
static U2D_ALWAYS_INLINE void down_chunk(int nc, int n, int i, int c0, const int *lambda,
                                         const u2d_real *LD, u2d_real *X, u2d_real d, int sign)
{
    u2d_real acc[U2D_SOLVE_CHUNK], *xi = X + (size_t)i * n + c0;
    if (sign < 0)
        for (int k = 0; k < nc; k++) acc[k] = -(xi[k] * d);
    else
        for (int k = 0; k < nc; k++) acc[k] = xi[k] * d;
    for (int j = lambda[i]; j >= 0; j = lambda[j]) {
        const u2d_real l = LD[(size_t)i * n + j], *xj = X + (size_t)j * n + c0;
        for (int k = 0; k < nc; k++) acc[k] -= l * xj[k];
    }
    for (int k = 0; k < nc; k++) xi[k] = acc[k];
}

/* z / D, then L x = z from the root down: row i, scaled, takes away L_ij times the finished
 * row of each ancestor j, parent first. With sign < 0 every row is kept negated, -x: the
 * finished rows it reads are negated too, and rounding is symmetric in sign, so this is
 * -x bit for bit. */
static void ltdl_down(int n, const int *lambda, const u2d_real *LD, u2d_real *X, int sign)
{
    for (int i = 0; i < n; i++) {
        const u2d_real d = 1.0 / LD[(size_t)i * n + i];
        int c0 = 0;
        for (; c0 + U2D_SOLVE_CHUNK <= n; c0 += U2D_SOLVE_CHUNK)
            down_chunk(U2D_SOLVE_CHUNK, n, i, c0, lambda, LD, X, d, sign);
        for (; c0 < n; c0++) down_chunk(1, n, i, c0, lambda, LD, X, d, sign);
    }
}

/* X <- -M^-1 X for two n x n row-major X, and Minv <- M^-1, with M = L^T D L from ltdl.
 * Minv starts as the identity. */
static void ltdl_solve(int n, const int *lambda, const int *end, const u2d_real *LD, u2d_real *X1,
                       u2d_real *X2, u2d_real *Minv)
{
    for (size_t k = 0; k < (size_t)n * n; k++) Minv[k] = U2D_R(0);
    for (int i = 0; i < n; i++) Minv[(size_t)i * n + i] = U2D_R(1);
    ltdl_up(n, end, LD, X1, 0);
    ltdl_up(n, end, LD, X2, 0);
    ltdl_up(n, end, LD, Minv, 1);
    ltdl_down(n, lambda, LD, X1, -1);
    ltdl_down(n, lambda, LD, X2, -1);
    ltdl_down(n, lambda, LD, Minv, 1);
}

u2d_status u2d_aba_derivatives(const u2d_model *m, u2d_work *w, const double gravity[3],
                               const u2d_real *q, const u2d_real *qd, const u2d_real *tau,
                               const u2d_fext *fext, u2d_real *dqdd_dq, u2d_real *dqdd_dv,
                               u2d_real *Minv)
{
    const int nv = m->nv;
    const size_t nn = (size_t)nv * (size_t)nv;
    u2d_status st = u2d_aba(m, w, gravity, q, qd, tau, fext, w->qdd);
    if (st != U2D_OK) return st;
    st = u2d_rnea_derivatives(m, w, gravity, q, qd, w->qdd, fext, dqdd_dq, dqdd_dv, Minv);
    if (st != U2D_OK) return st;
    if (nv == 0) return U2D_OK;
    u2d_copy(w->L, Minv, (int)nn);
    if (ltdl(nv, w->lambda, w->L) != 0) return U2D_ERR_SINGULAR;
    ltdl_solve(nv, w->lambda, w->subend, w->L, dqdd_dq, dqdd_dv, Minv);
    return U2D_OK;
}
