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
 *     dtau_j/dq_c  = S_j^T (I_j dA_c + B_j dV_c [+ s x* Fext_j])   j = i or below i
 *                  = S_j^T (I_i dA_c + B_i dV_c + s x* F_i)        j above i
 *     dtau_j/dqd_c = S_j^T (I_j dAv_c + B_j s)                     j = i or below i
 *                  = S_j^T (I_i dAv_c + B_i s)                     j above i
 *     dtau_j/dqdd_c = M_jc = S_j^T I_j s (j = i or below)
 * where I_j is the composite (subtree) inertia. Joint i's own columns ride body i, true of
 * every joint but the planar one, whose in-plane columns stay with the parent: refused.
 * External wrenches are fixed in the world (DESIGN.md), hence the Fext_j term.
 *
 * Forward dynamics: qdd = M^-1 (tau - ...) gives dqdd/dx = -M^-1 dtau/dx at qdd = ABA,
 * and dqdd/dtau = M^-1, through the Cholesky factor of M. */
#include <math.h>
#include <string.h>
#include "u2d_model.h"

static double dot6(const double a[6], const double b[6])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* B (6 x 6, row-major) of one body: B ψ = I (ψ x v) + ψ x* (I v) + v x* (I ψ), column by
 * column. */
static void velocity_jacobian(const u2d_inertia *I, const double v[6], double B[36])
{
    double h[6];
    u2d_inertia_mul(I, v, h);
    for (int j = 0; j < 6; j++) {
        double e[6] = {0, 0, 0, 0, 0, 0}, t[6], col[6], Ie[6];
        e[j] = 1.0;
        u2d_crossm(e, v, t);
        u2d_inertia_mul(I, t, col);
        u2d_crossf(e, h, t);
        for (int r = 0; r < 6; r++) col[r] += t[r];
        u2d_inertia_mul(I, e, Ie);
        u2d_crossf(v, Ie, t);
        for (int r = 0; r < 6; r++) B[6 * r + j] = col[r] + t[r];
    }
}

u2d_status u2d_rnea_derivatives(const u2d_model *m, u2d_work *w, const double gravity[3],
                                const double *q, const double *qd, const double *qdd,
                                const u2d_fext *fext, double *dtau_dq, double *dtau_dv,
                                double *M)
{
    const int nb = m->nbody, nv = m->nv;
    const int has_fext = u2d_gather_fext(m, w, fext);
    const double a0[6] = {0, 0, 0, -gravity[0], -gravity[1], -gravity[2]};
    u2d_status st = u2d_world_motion(m, w, a0, q, qd, qdd);
    if (st != U2D_OK) return st;
    for (size_t k = 0; k < (size_t)nv * (size_t)nv; k++) dtau_dq[k] = dtau_dv[k] = M[k] = 0.0;

    for (int i = 1; i < nb; i++) {
        const double *vp = &w->ov[6 * m->parent[i]], *ap = &w->oa[6 * m->parent[i]];
        const double *v = &w->ov[6 * i], *a = &w->oa[6 * i];
        for (int k = 0; k < m->jnv[i]; k++) {
            const int c = m->vadr[i] + k;
            const double *s = &w->S0[6 * c];
            double *dV = &w->dV[6 * c], *dA = &w->dA[6 * c], *dAv = &w->dAv[6 * c], t[6];
            u2d_crossm(vp, s, dV);
            u2d_crossm(ap, s, dA);
            u2d_crossm(vp, dV, t);
            for (int r = 0; r < 6; r++) dA[r] += t[r];
            u2d_crossm(v, s, dAv);
            for (int r = 0; r < 6; r++) dAv[r] += dV[r];
        }
        double h[6], t[6], *f = &w->oF[6 * i];
        u2d_inertia_mul(&w->IC[i], v, h);
        u2d_inertia_mul(&w->IC[i], a, f);
        u2d_crossf(v, h, t);
        for (int r = 0; r < 6; r++) f[r] += t[r];
        velocity_jacobian(&w->IC[i], v, &w->oB[36 * i]);
        if (has_fext) memcpy(&w->oFx[6 * i], &w->fext[6 * i], 6 * sizeof(double));
        else memset(&w->oFx[6 * i], 0, 6 * sizeof(double));
    }

    for (int i = nb - 1; i > 0; i--) {
        const int p = m->parent[i];
        const u2d_inertia *I = &w->IC[i];
        const double *B = &w->oB[36 * i], *F = &w->oF[6 * i], *Fx = &w->oFx[6 * i];
        for (int k = 0; k < m->jnv[i]; k++) {
            const int c = m->vadr[i] + k;
            const double *s = &w->S0[6 * c];
            double Is[6], Bs[6], BTs[6], Gq[6], Gv[6], t[6];
            u2d_inertia_mul(I, s, Is);
            for (int r = 0; r < 6; r++) {
                double x = 0.0, y = 0.0;
                for (int j = 0; j < 6; j++) {
                    x += B[6 * j + r] * s[j];
                    y += B[6 * r + j] * s[j];
                }
                BTs[r] = x;
                Bs[r] = y;
            }
            /* row c: the columns of joint i and of every joint above it */
            double *Rq = dtau_dq + (size_t)c * nv, *Rv = dtau_dv + (size_t)c * nv;
            double *Rm = M + (size_t)c * nv;
            for (int b = i; b > 0; b = m->parent[b])
                for (int l = 0; l < m->jnv[b]; l++) {
                    const int col = m->vadr[b] + l;
                    const double *sc = &w->S0[6 * col];
                    Rq[col] = dot6(Is, &w->dA[6 * col]) + dot6(BTs, &w->dV[6 * col]);
                    Rv[col] = dot6(Is, &w->dAv[6 * col]) + dot6(BTs, sc);
                    Rm[col] = dot6(Is, sc);
                    if (has_fext) {
                        u2d_crossf(sc, Fx, t);
                        Rq[col] += dot6(s, t);
                    }
                }
            /* column c: the rows of every joint above i */
            u2d_inertia_mul(I, &w->dA[6 * c], Gq);
            u2d_inertia_mul(I, &w->dAv[6 * c], Gv);
            const double *dV = &w->dV[6 * c];
            for (int r = 0; r < 6; r++) {
                double x = 0.0;
                for (int j = 0; j < 6; j++) x += B[6 * r + j] * dV[j];
                Gq[r] += x;
                Gv[r] += Bs[r];
            }
            u2d_crossf(s, F, t);
            for (int r = 0; r < 6; r++) Gq[r] += t[r];
            for (int b = p; b > 0; b = m->parent[b])
                for (int l = 0; l < m->jnv[b]; l++) {
                    const int row = m->vadr[b] + l;
                    const double *sr = &w->S0[6 * row];
                    dtau_dq[(size_t)row * nv + c] = dot6(sr, Gq);
                    dtau_dv[(size_t)row * nv + c] = dot6(sr, Gv);
                    M[(size_t)row * nv + c] = Rm[row];
                }
        }
        if (p > 0) {
            u2d_inertia_add(&w->IC[p], I);
            for (int r = 0; r < 36; r++) w->oB[36 * p + r] += B[r];
            for (int r = 0; r < 6; r++) {
                w->oF[6 * p + r] += F[r];
                w->oFx[6 * p + r] += Fx[r];
            }
        }
    }
    return U2D_OK;
}

/* L L^T = M for a symmetric positive definite M (n x n, row-major; L lower). */
static int cholesky(int n, const double *M, double *L)
{
    for (int j = 0; j < n; j++) {
        double d = M[(size_t)j * n + j];
        for (int k = 0; k < j; k++) d -= L[(size_t)j * n + k] * L[(size_t)j * n + k];
        if (!(d > 0.0)) return -1;
        L[(size_t)j * n + j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double x = M[(size_t)i * n + j];
            for (int k = 0; k < j; k++) x -= L[(size_t)i * n + k] * L[(size_t)j * n + k];
            L[(size_t)i * n + j] = x / L[(size_t)j * n + j];
        }
        for (int k = j + 1; k < n; k++) L[(size_t)j * n + k] = 0.0;
    }
    return 0;
}

/* X <- (L L^T)^-1 X in place, X n x n row-major: whole rows at a time. */
static void cholesky_solve(int n, const double *L, double *X)
{
    for (int i = 0; i < n; i++) {
        double *xi = X + (size_t)i * n;
        for (int k = 0; k < i; k++) {
            const double l = L[(size_t)i * n + k], *xk = X + (size_t)k * n;
            if (l != 0.0)
                for (int j = 0; j < n; j++) xi[j] -= l * xk[j];
        }
        const double d = 1.0 / L[(size_t)i * n + i];
        for (int j = 0; j < n; j++) xi[j] *= d;
    }
    for (int i = n - 1; i >= 0; i--) {
        double *xi = X + (size_t)i * n;
        for (int k = i + 1; k < n; k++) {
            const double l = L[(size_t)k * n + i], *xk = X + (size_t)k * n;
            if (l != 0.0)
                for (int j = 0; j < n; j++) xi[j] -= l * xk[j];
        }
        const double d = 1.0 / L[(size_t)i * n + i];
        for (int j = 0; j < n; j++) xi[j] *= d;
    }
}

u2d_status u2d_aba_derivatives(const u2d_model *m, u2d_work *w, const double gravity[3],
                               const double *q, const double *qd, const double *tau,
                               const u2d_fext *fext, double *dqdd_dq, double *dqdd_dv,
                               double *Minv)
{
    const int nv = m->nv;
    const size_t nn = (size_t)nv * (size_t)nv;
    u2d_status st = u2d_aba(m, w, gravity, q, qd, tau, fext, w->qdd);
    if (st != U2D_OK) return st;
    st = u2d_rnea_derivatives(m, w, gravity, q, qd, w->qdd, fext, dqdd_dq, dqdd_dv, Minv);
    if (st != U2D_OK) return st;
    if (cholesky(nv, Minv, w->L) != 0) return U2D_ERR_SINGULAR;
    cholesky_solve(nv, w->L, dqdd_dq);
    cholesky_solve(nv, w->L, dqdd_dv);
    for (size_t k = 0; k < nn; k++) {
        dqdd_dq[k] = -dqdd_dq[k];
        dqdd_dv[k] = -dqdd_dv[k];
        Minv[k] = 0.0;
    }
    for (int k = 0; k < nv; k++) Minv[(size_t)k * nv + k] = 1.0;
    cholesky_solve(nv, w->L, Minv);
    return U2D_OK;
}
