/* u2d_crba.c: the joint-space mass matrix by the composite-rigid-body algorithm.
 *
 * Featherstone, RBDA Table 6.2, written in world coordinates (as Pinocchio does) so that
 * composite inertias add without transforms and each entry is one dot product:
 *   IC_i = sum of the world inertias I_j over the subtree of i
 *   F = IC_i S_i;   M_ji = S_j^T F = M_ij^T   for i and each ancestor j of i
 * with S_j the joint's motion subspace in world coordinates. Composite inertias stay
 * rigid-body inertias (m, h, Ib). Workspace: S in world coordinates goes to U. */
#include <string.h>
#include "u2d_model.h"

u2d_status u2d_crba(const u2d_model *m, u2d_work *w, const double *q, double *M)
{
    const int nb = m->nbody, nv = m->nv;
    u2d_status st = u2d_kinematics(m, w, q, NULL);
    if (st != U2D_OK) return st;
    for (int i = 1; i < nb; i++) {
        u2d_inertia_xform_T(&w->Xa[i], &m->inertia[i], &w->IC[i]);
        for (int k = 0; k < m->jnv[i]; k++)
            u2d_xform_motion_inv(&w->Xa[i], &w->S[36 * i + 6 * k], &w->U[36 * i + 6 * k]);
    }
    for (int i = nb - 1; i > 0; i--)
        if (m->parent[i] > 0) u2d_inertia_add(&w->IC[m->parent[i]], &w->IC[i]);

    memset(M, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    for (int i = 1; i < nb; i++)
        for (int k = 0; k < m->jnv[i]; k++) {
            const int col = m->vadr[i] + k;
            double F[6];
            u2d_inertia_mul(&w->IC[i], &w->U[36 * i + 6 * k], F);
            for (int j = i; j > 0; j = m->parent[j])
                for (int r = 0; r < m->jnv[j]; r++) {
                    const double *s = &w->U[36 * j + 6 * r];
                    double x = s[0] * F[0] + s[1] * F[1] + s[2] * F[2]
                             + s[3] * F[3] + s[4] * F[4] + s[5] * F[5];
                    M[(size_t)(m->vadr[j] + r) * nv + col] = x;
                    M[(size_t)col * nv + m->vadr[j] + r] = x;
                }
        }
    return U2D_OK;
}
