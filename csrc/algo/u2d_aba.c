/* u2d_aba.c: forward dynamics by the articulated-body algorithm.
 *
 * Featherstone, RBDA Table 7.1, with multi-DoF joints (D_i is jnv x jnv):
 *   pass 1 (out)  v_i = Xup_i v_p + S_i qd_i,  c_i = cJ_i + v_i x S_i qd_i,
 *                 IA_i = I_i,  pA_i = v_i x* I_i v_i - X_i<-0* fext_i
 *   pass 2 (in)   U_i = IA_i S_i,  D_i = S_i^T U_i,  u_i = tau_i - S_i^T pA_i
 *                 Ia = IA_i - U_i D_i^-1 U_i^T,  pa = pA_i + Ia c_i + U_i D_i^-1 u_i
 *                 IA_p += Xup_i^T Ia Xup_i,  pA_p += Xup_i^T pa
 *   pass 3 (out)  a' = Xup_i a_p + c_i,  qdd_i = D_i^-1 (u_i - U_i^T a'),  a_i = a' + S_i qdd_i
 * with a_0 = -g. A joint whose subtree offers no inertia along its motion (a massless leaf)
 * has a singular D_i: reported, never divided by. */
#include <math.h>
#include <string.h>
#include "model/u2d_model.h"

/* Dinv = D^-1 for a symmetric positive definite n x n D (n <= 6), through Cholesky.
 * Fails when a pivot is not above tol (NaN passes through, to propagate). */
static int invert_spd(int n, const u2d_real *D, u2d_real *Dinv, double tol)
{
    u2d_real L[36], Linv[36];
    for (int k = 0; k < 36; k++) L[k] = Linv[k] = U2D_R(0);
    for (int j = 0; j < n; j++) {
        u2d_real d = D[n * j + j];
        for (int k = 0; k < j; k++) d -= L[n * j + k] * L[n * j + k];
        if (U2D_ANY(d <= tol)) return -1;
        L[n * j + j] = u2d_sqrt(d);
        for (int i = j + 1; i < n; i++) {
            u2d_real s = D[n * i + j];
            for (int k = 0; k < j; k++) s -= L[n * i + k] * L[n * j + k];
            L[n * i + j] = s / L[n * j + j];
        }
    }
    for (int j = 0; j < n; j++) {               /* Linv, lower triangular */
        Linv[n * j + j] = 1.0 / L[n * j + j];
        for (int i = j + 1; i < n; i++) {
            u2d_real s = U2D_R(0);
            for (int k = j; k < i; k++) s -= L[n * i + k] * Linv[n * k + j];
            Linv[n * i + j] = s / L[n * i + i];
        }
    }
    for (int i = 0; i < n; i++)                 /* D^-1 = Linv^T Linv */
        for (int j = 0; j <= i; j++) {
            u2d_real s = U2D_R(0);
            for (int k = i; k < n; k++) s += Linv[n * k + i] * Linv[n * k + j];
            Dinv[n * i + j] = Dinv[n * j + i] = s;
        }
    return 0;
}

u2d_status u2d_aba(const u2d_model *m, u2d_work *w, const double gravity[3],
                   const u2d_real *q, const u2d_real *qd, const u2d_real *tau,
                   const u2d_fext *fext, u2d_real *qdd)
{
    const int nb = m->nbody;
    const int has_fext = u2d_gather_fext(m, w, fext);
    const u2d_real o = U2D_R(0);
    u2d_zero(w->v, 6);
    u2d_xform_identity(&w->Xa[0]);

    for (int i = 1; i < nb; i++) {
        const int p = m->parent[i], nv = m->jnv[i];
        const u2d_real *qdi = qd + m->vadr[i];
        u2d_real *S = &w->S[36 * i], *v = &w->v[6 * i], *c = &w->c[6 * i];
        u2d_real vJ[6] = {o, o, o, o, o, o}, Iv[6];
        u2d_status st = u2d_jcalc(m, i, q + m->qadr[i], qdi, &w->Xup[i], S, &w->cJ[6 * i], NULL);
        if (st != U2D_OK) return st;
        for (int k = 0; k < nv; k++)
            for (int r = 0; r < 6; r++) vJ[r] += S[6 * k + r] * qdi[k];
        u2d_xform_motion(&w->Xup[i], &w->v[6 * p], v);
        for (int r = 0; r < 6; r++) v[r] += vJ[r];
        u2d_crossm(v, vJ, c);
        for (int r = 0; r < 6; r++) c[r] += w->cJ[6 * i + r];

        u2d_inertia_mat6(&m->inertia[i], &w->IA[36 * i]);
        u2d_inertia_mul(&m->inertia[i], v, Iv);
        u2d_crossf(v, Iv, &w->pA[6 * i]);
        if (has_fext) {
            u2d_real t[6];
            u2d_xform_mul(&w->Xup[i], &w->Xa[p], &w->Xa[i]);
            u2d_xform_force(&w->Xa[i], &w->fext[6 * i], t);
            for (int r = 0; r < 6; r++) w->pA[6 * i + r] -= t[r];
        }
    }

    for (int i = nb - 1; i > 0; i--) {
        const int p = m->parent[i], nv = m->jnv[i], k1 = m->sidx[i];
        const u2d_real *S = &w->S[36 * i], *IA = &w->IA[36 * i], *pA = &w->pA[6 * i];
        const u2d_real *taui = tau + m->vadr[i];
        u2d_real *U = &w->U[36 * i], *Dinv = &w->Dinv[36 * i], *u = &w->u[6 * i];
        u2d_real Ia[36], pa[6], UDu[6] = {o, o, o, o, o, o}, t[36], tp[6];

        if (k1 >= 0) {
            /* S = +-e_k: U is a column of IA (a row: IA is symmetric), D a diagonal entry */
            const u2d_real sg = m->ssign[i];
            for (int r = 0; r < 6; r++) U[r] = sg * IA[6 * k1 + r];
            u2d_real D = IA[7 * k1];
            if (m->has_armature) D += m->armature[i];
            if (U2D_ANY(D <= m->singular_tol)) return U2D_ERR_SINGULAR;    /* NaN passes */
            Dinv[0] = 1.0 / D;
            u[0] = taui[0] - sg * pA[k1];
            if (p == 0) continue;
            for (int r = 0; r < 6; r++) {
                u2d_real Ur = U[r] * Dinv[0];
                for (int c = 0; c < 6; c++) Ia[6 * r + c] = IA[6 * r + c] - Ur * U[c];
                UDu[r] = Ur * u[0];
            }
        } else {
            u2d_real D[36];
            for (int k = 0; k < nv; k++) {
                u2d_mat6_mul(IA, &S[6 * k], &U[6 * k]);
                u2d_real x = U2D_R(0);
                for (int r = 0; r < 6; r++) x += S[6 * k + r] * pA[r];
                u[k] = taui[k] - x;
            }
            for (int k = 0; k < nv; k++)
                for (int l = 0; l < nv; l++) {
                    u2d_real x = U2D_R(0);
                    for (int r = 0; r < 6; r++) x += S[6 * k + r] * U[6 * l + r];
                    D[nv * k + l] = x;
                }
            if (m->has_armature)
                for (int k = 0; k < nv; k++) D[nv * k + k] += m->armature[i];
            if (invert_spd(nv, D, Dinv, m->singular_tol) != 0) return U2D_ERR_SINGULAR;
            if (p == 0) continue;
            u2d_real UDinv[36], Dinv_u[6];
            for (int r = 0; r < 6; r++)                 /* U D^-1 (6 x nv, column-major) */
                for (int l = 0; l < nv; l++) {
                    u2d_real x = U2D_R(0);
                    for (int k = 0; k < nv; k++) x += U[6 * k + r] * Dinv[nv * k + l];
                    UDinv[6 * l + r] = x;
                }
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < 6; c++) {
                    u2d_real x = U2D_R(0);
                    for (int l = 0; l < nv; l++) x += UDinv[6 * l + r] * U[6 * l + c];
                    Ia[6 * r + c] = IA[6 * r + c] - x;
                }
            for (int l = 0; l < nv; l++) {
                u2d_real x = U2D_R(0);
                for (int k = 0; k < nv; k++) x += Dinv[nv * l + k] * u[k];
                Dinv_u[l] = x;
            }
            for (int r = 0; r < 6; r++)
                for (int l = 0; l < nv; l++) UDu[r] += U[6 * l + r] * Dinv_u[l];
        }
        u2d_mat6_mul(Ia, &w->c[6 * i], pa);
        for (int r = 0; r < 6; r++) pa[r] += pA[r] + UDu[r];
        u2d_mat6_xform_T(&w->Xup[i], Ia, t);
        for (int r = 0; r < 36; r++) w->IA[36 * p + r] += t[r];
        u2d_xform_force_T(&w->Xup[i], pa, tp);
        for (int r = 0; r < 6; r++) w->pA[6 * p + r] += tp[r];
    }

    u2d_real a0[6] = {o, o, o, U2D_R(-gravity[0]), U2D_R(-gravity[1]), U2D_R(-gravity[2])};
    u2d_copy(w->a, a0, 6);
    for (int i = 1; i < nb; i++) {
        const int nv = m->jnv[i];
        const u2d_real *S = &w->S[36 * i], *U = &w->U[36 * i], *Dinv = &w->Dinv[36 * i];
        u2d_real *a = &w->a[6 * i], *qddi = qdd + m->vadr[i], rhs[6];
        u2d_xform_motion(&w->Xup[i], &w->a[6 * m->parent[i]], a);
        for (int r = 0; r < 6; r++) a[r] += w->c[6 * i + r];
        for (int k = 0; k < nv; k++) {
            u2d_real x = U2D_R(0);
            for (int r = 0; r < 6; r++) x += U[6 * k + r] * a[r];
            rhs[k] = w->u[6 * i + k] - x;
        }
        for (int k = 0; k < nv; k++) {
            u2d_real x = U2D_R(0);
            for (int l = 0; l < nv; l++) x += Dinv[nv * k + l] * rhs[l];
            qddi[k] = x;
        }
        for (int k = 0; k < nv; k++)
            for (int r = 0; r < 6; r++) a[r] += S[6 * k + r] * qddi[k];
    }
    return U2D_OK;
}
