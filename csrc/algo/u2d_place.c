/* u2d_place.c: where the bodies and links are, from q alone (forward kinematics).
 *
 * Written over u2d_real: u2d_kinematics.c and u2d_batch.c use it on doubles, and the SIMD
 * units re-include it (u2d_simd_impl.h) to place several samples at once. */
#include <string.h>
#include "model/u2d_model.h"

u2d_status u2d_place_body(const u2d_model *m, u2d_work *w, int i, const u2d_real *q,
                          const u2d_real *qd)
{
    const u2d_real *qdi = qd ? qd + m->vadr[i] : NULL;
    u2d_status st = u2d_jcalc(m, i, q + m->qadr[i], qdi, &w->Xup[i], &w->S[36 * i],
                              &w->cJ[6 * i], NULL);
    if (st == U2D_OK) u2d_xform_mul(&w->Xup[i], &w->Xa[m->parent[i]], &w->Xa[i]);
    return st;
}

u2d_status u2d_place_bodies(const u2d_model *m, u2d_work *w, const u2d_real *q)
{
    u2d_xform_identity(&w->Xa[0]);
    for (int i = 1; i < m->nbody; i++) {
        u2d_status st = u2d_place_body(m, w, i, q, NULL);
        if (st != U2D_OK) return st;
    }
    return U2D_OK;
}

void u2d_link_poses(const u2d_model *m, const u2d_work *w, u2d_real *pos, u2d_real *rot)
{
    for (int l = 0; l < m->nlink; l++) {
        u2d_xform X;
        const u2d_xform *Xl = &X;
        if (m->link_is_body[l]) Xl = &w->Xa[m->link_body[l]];
        else u2d_xform_mul(&m->link_X[l], &w->Xa[m->link_body[l]], &X);
        u2d_copy(&pos[3 * l], Xl->r, 3);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) rot[9 * l + 3 * i + j] = Xl->E[3 * j + i];
    }
}
