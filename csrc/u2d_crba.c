/* u2d_crba.c: the joint-space mass matrix by the composite-rigid-body algorithm.
 *
 * Featherstone, RBDA Table 6.2 (HandC without the bias term), bodies in topological order:
 *   IC_i = I_i;  backward: IC_p += Xup_i^T IC_i Xup_i
 *   F = IC_i S_i;  M_ii = S_i^T F;  then up the ancestors j of i:
 *   F = Xup_j^T F (carried into j's parent),  M_ji = S_j^T F = M_ij^T
 * Composite inertias stay rigid-body inertias (m, h, Ib), so each transform is cheap. */
#include <string.h>
#include "u2d_model.h"

u2d_status u2d_crba(const u2d_model *m, u2d_work *w, const double *q, double *M)
{
    const int nb = m->nbody, nv = m->nv;
    for (int i = 1; i < nb; i++) {
        u2d_status st = u2d_jcalc(m, i, q + m->qadr[i], NULL, &w->Xup[i], &w->S[36 * i],
                                  &w->cJ[6 * i]);
        if (st != U2D_OK) return st;
        w->IC[i] = m->inertia[i];
    }
    for (int i = nb - 1; i > 0; i--) {
        int p = m->parent[i];
        if (p > 0) {
            u2d_inertia t;
            u2d_inertia_xform_T(&w->Xup[i], &w->IC[i], &t);
            u2d_inertia_add(&w->IC[p], &t);
        }
    }
    memset(M, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    for (int i = 1; i < nb; i++) {
        for (int k = 0; k < m->jnv[i]; k++) {
            int col = m->vadr[i] + k;
            double F[6], t[6];
            u2d_inertia_mul(&w->IC[i], &w->S[36 * i + 6 * k], F);
            for (int j = i;;) {
                for (int r = 0; r < m->jnv[j]; r++) {
                    const double *s = &w->S[36 * j + 6 * r];
                    double x = s[0] * F[0] + s[1] * F[1] + s[2] * F[2]
                             + s[3] * F[3] + s[4] * F[4] + s[5] * F[5];
                    M[(size_t)(m->vadr[j] + r) * nv + col] = x;
                    M[(size_t)col * nv + m->vadr[j] + r] = x;
                }
                if (m->parent[j] <= 0) break;
                u2d_xform_force_T(&w->Xup[j], F, t);
                memcpy(F, t, sizeof F);
                j = m->parent[j];
            }
        }
    }
    return U2D_OK;
}
