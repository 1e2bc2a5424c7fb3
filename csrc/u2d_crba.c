/* u2d_crba.c: the joint-space mass matrix by the composite-rigid-body algorithm.
 *
 * Featherstone, RBDA Table 6.2, written in world coordinates (as Pinocchio does) so that
 * composite inertias add without transforms and each entry is one dot product:
 *   IC_i = sum of the world inertias I_j over the subtree of i
 *   F_c = IC_i S_c for each column c of joint i
 *   M_rc = S_r^T F_c   for r a coordinate of i or of an ancestor of i, else 0
 * Bodies are numbered in preorder, so the columns below joint i are the contiguous range
 * vadr_i .. vadr_i + nvsub_i - 1: each row of the upper triangle is written once, left to
 * right, then mirrored. */
#include "u2d_model.h"

u2d_status u2d_crba(const u2d_model *m, u2d_work *w, const double *q, double *M)
{
    const int nb = m->nbody, nv = m->nv;
    u2d_status st = u2d_kinematics(m, w, q, NULL);
    if (st != U2D_OK) return st;
    for (int i = 1; i < nb; i++) {
        /* the body's inertia in world coordinates: rotate about the centre of mass, shift */
        double c[3], Ic[9];
        u2d_multv3(w->Xa[i].E, &m->com[3 * i], c);
        for (int k = 0; k < 3; k++) c[k] += w->Xa[i].r[k];
        u2d_rotate3(w->Xa[i].E, &m->Icom[9 * i], 1, Ic);
        u2d_inertia_from_com(m->inertia[i].m, c, Ic, &w->IC[i]);
        for (int k = 0; k < m->jnv[i]; k++)
            u2d_xform_motion_inv(&w->Xa[i], &w->S[36 * i + 6 * k], &w->S0[6 * (m->vadr[i] + k)]);
    }
    for (int i = nb - 1; i > 0; i--)
        if (m->parent[i] > 0) u2d_inertia_add(&w->IC[m->parent[i]], &w->IC[i]);
    for (int i = 1; i < nb; i++)
        for (int k = 0; k < m->jnv[i]; k++) {
            const int c = m->vadr[i] + k;
            double f[6];
            u2d_inertia_mul(&w->IC[i], &w->S0[6 * c], f);
            for (int r = 0; r < 6; r++) w->F[(size_t)r * nv + c] = f[r];
        }

    for (int i = 1; i < nb; i++)
        for (int k = 0; k < m->jnv[i]; k++) {
            const int r = m->vadr[i] + k, end = m->vadr[i] + m->nvsub[i];
            const double *s = &w->S0[6 * r];
            const double *F0 = w->F, *F1 = F0 + nv, *F2 = F1 + nv, *F3 = F2 + nv;
            const double *F4 = F3 + nv, *F5 = F4 + nv;
            double *Mr = M + (size_t)r * nv;
            for (int c = r; c < end; c++)
                Mr[c] = s[0] * F0[c] + s[1] * F1[c] + s[2] * F2[c] + s[3] * F3[c]
                      + s[4] * F4[c] + s[5] * F5[c];
            for (int c = end; c < nv; c++) Mr[c] = 0.0;
        }
    for (int r = 1; r < nv; r++)
        for (int c = 0; c < r; c++) M[(size_t)r * nv + c] = M[(size_t)c * nv + r];
    return U2D_OK;
}
