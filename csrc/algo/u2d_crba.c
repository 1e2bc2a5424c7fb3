/* u2d_crba.c: the joint-space mass matrix by the composite-rigid-body algorithm.
 *
 * Featherstone, RBDA Table 6.2, written in world coordinates (as Pinocchio does) so that
 * composite inertias add without transforms and each entry is one dot product:
 *   IC_i = sum of the world inertias I_j over the subtree of i
 *   F_c = IC_i S_c for each column c of joint i
 *   M_rc = S_r^T F_c   for r a coordinate of i or of an ancestor of i, else 0
 *   M_rr += armature_i for each coordinate r of joint i (a rotor's inertia)
 * Bodies are numbered in preorder, so the columns below joint i are the contiguous range
 * vadr_i .. vadr_i + nvsub_i - 1.
 *
 * Arranged for speed (the first version, a pass per formula line, ran 1.2-1.5x slower
 * than Pinocchio with about the same instruction count):
 *  - one backward sweep does everything once the positions are known: when the sweep
 *    reaches body i its subtree is finished, so IC_i is final, F_i follows and the rows of
 *    joint i can be filled from the F columns of its subtree while they are still in L1;
 *  - F and the world joint columns S0 are stored by column (6 contiguous numbers), so that
 *    an entry is a 6-term dot product of two contiguous vectors and the short rows of a
 *    branchy tree cost no loop start-up;
 *  - each entry is written to both triangles as it is computed, over a matrix zeroed with
 *    one memset, instead of a separate mirror pass reading the matrix by column;
 *  - the entries of joints on different branches are zero whatever q, and u2d_crba_fill
 *    leaves them alone, so a caller that refills one matrix (the SIMD paths, whose lane
 *    matrix is larger than L1) zeroes it once, not per sample. */
#include <string.h>
#include "model/u2d_model.h"
#include "model/u2d_port.h"

static inline u2d_real dot6(const u2d_real a[6], const u2d_real b[6])
{
    return (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3])
         + (a[4] * b[4] + a[5] * b[5]);
}

/* The body's inertia in world coordinates: rotate about the centre of mass, then shift. */
static void world_inertia(const u2d_model *m, const u2d_xform *Xa, int i, u2d_inertia *out)
{
    u2d_real c[3], Ic[9];
    u2d_multv3(Xa->E, &m->com[3 * i], c);
    for (int k = 0; k < 3; k++) c[k] += Xa->r[k];
    u2d_rotate3(Xa->E, &m->Icom[9 * i], 1, Ic);
    u2d_inertia_from_com(m->inertia[i].m, c, Ic, out);
}

/* Column k of joint i in world coordinates, S0 = Xa^-1 S. A joint axis along a body axis,
 * S = +-e_j, picks row j of E instead of a full transform. */
static void world_column(const u2d_model *m, const u2d_work *w, int i, int k, u2d_real s0[6])
{
    const u2d_xform *Xa = &w->Xa[i];
    const int j = m->sidx[i];
    if (j < 0) {
        u2d_xform_motion_inv(Xa, &w->S[36 * i + 6 * k], s0);
        return;
    }
    u2d_real e[3], *ang = s0, *lin = s0 + 3;
    for (int r = 0; r < 3; r++) e[r] = m->ssign[i] * Xa->E[3 * (j % 3) + r];
    if (j < 3) {                    /* rotation about e: w = e, v = r x e */
        u2d_copy(ang, e, 3);
        u2d_cross3(Xa->r, e, lin);
    } else {                        /* translation along e */
        ang[0] = ang[1] = ang[2] = U2D_R(0);
        u2d_copy(lin, e, 3);
    }
}

u2d_status u2d_crba(const u2d_model *m, u2d_work *w, const u2d_real *q, u2d_real *M)
{
    memset(M, 0, sizeof(u2d_real) * (size_t)m->nv * (size_t)m->nv);
    return u2d_crba_fill(m, w, q, M);
}

/* U2D_FLATTEN: the joint model inlined in a lane unit, as in u2d_rnea */
U2D_FLATTEN u2d_status u2d_crba_fill(const u2d_model *m, u2d_work *w, const u2d_real *q,
                                     u2d_real *M)
{
    const int nb = m->nbody, nv = m->nv;
    u2d_xform_identity(&w->Xa[0]);
    for (int i = 1; i < nb; i++) {          /* placements (u2d_kinematics without velocities) */
        u2d_status st = u2d_jcalc_work(m, w, i, q + m->qadr[i], NULL);
        if (st != U2D_OK) return st;
        u2d_xform_mul(&w->Xup[i], &w->Xa[m->parent[i]], &w->Xa[i]);
        world_inertia(m, &w->Xa[i], i, &w->IC[i]);
        for (int k = 0; k < m->jnv[i]; k++)
            world_column(m, w, i, k, &w->S0[6 * (m->vadr[i] + k)]);
    }
    for (int i = nb - 1; i > 0; i--) {
        const int v0 = m->vadr[i], end = v0 + m->nvsub[i];
        for (int k = 0; k < m->jnv[i]; k++)
            u2d_inertia_mul(&w->IC[i], &w->S0[6 * (v0 + k)], &w->F[6 * (v0 + k)]);
        for (int r = v0; r < v0 + m->jnv[i]; r++) {
            const u2d_real *s = &w->S0[6 * r];
            u2d_real *Mr = M + (size_t)r * nv;
            for (int c = r; c < end; c++) {
                u2d_real x = dot6(s, &w->F[6 * c]);
                Mr[c] = x;
                M[(size_t)c * nv + r] = x;
            }
            if (m->has_armature) Mr[r] += m->armature[i];
        }
        if (m->parent[i] > 0) u2d_inertia_add(&w->IC[m->parent[i]], &w->IC[i]);
    }
    return U2D_OK;
}
