/* u2d_world.c: body motion in world coordinates, for the derivative and centroidal
 * algorithms (everything at the world origin O, so that columns need no transform once
 * known). Written over u2d_real: the SIMD units run it for the derivatives. */
#include "model/u2d_model.h"

u2d_status u2d_world_motion(const u2d_model *m, u2d_work *w, const u2d_real a0[6],
                            const u2d_real *q, const u2d_real *qd, const u2d_real *qdd)
{
    const u2d_real o = U2D_R(0);
    u2d_xform_identity(&w->Xa[0]);
    u2d_zero(w->ov, 6);
    u2d_copy(w->oa, a0, 6);
    for (int i = 1; i < m->nbody; i++) {
        const int p = m->parent[i];
        /* joints whose columns move within the body as q changes (a planar joint's slides
         * turn with theta as seen from its child): + (dS/dt) qd below */
        const int custom = (m->jtype[i] == U2D_JOINT_CUSTOM || m->jtype[i] == U2D_JOINT_PLANAR
                            || m->jtype[i] == U2D_JOINT_ELLIPSOID
                            || m->jtype[i] == U2D_JOINT_CURVATURE) && qd;
        u2d_status st = u2d_jcalc(m, i, q + m->qadr[i], custom ? qd + m->vadr[i] : NULL,
                                  &w->Xup[i], &w->S[36 * i], &w->cJ[6 * i], NULL);
        if (st != U2D_OK) return st;
        u2d_xform_mul(&w->Xup[i], &w->Xa[p], &w->Xa[i]);

        /* columns S_i in world coordinates; v_i = v_p + S_i qd_i, a_i = a_p + S_i qdd_i +
         * (dS_i/dt) qd_i, the columns riding body i so that dS_i/dt = v_i x S_i (plus, for
         * a planar, custom, ellipsoid or constant-curvature joint, their motion within the
         * body: cJ) */
        u2d_real vJ[6] = {o, o, o, o, o, o}, aJ[6] = {o, o, o, o, o, o}, t[6];
        for (int k = 0; k < m->jnv[i]; k++) {
            const int c = m->vadr[i] + k;
            u2d_real *s = &w->S0[6 * c];
            u2d_xform_motion_inv(&w->Xa[i], &w->S[36 * i + 6 * k], s);
            for (int r = 0; r < 6; r++) {
                if (qd) vJ[r] += s[r] * qd[c];
                if (qdd) aJ[r] += s[r] * qdd[c];
            }
        }
        u2d_real *v = &w->ov[6 * i], *a = &w->oa[6 * i];
        for (int r = 0; r < 6; r++) v[r] = w->ov[6 * p + r] + vJ[r];
        u2d_crossm(v, vJ, t);
        for (int r = 0; r < 6; r++) a[r] = w->oa[6 * p + r] + aJ[r] + t[r];
        if (custom) {       /* those columns also move in the body: + (dS/dt) qd */
            u2d_xform_motion_inv(&w->Xa[i], &w->cJ[6 * i], t);
            for (int r = 0; r < 6; r++) a[r] += t[r];
        }

        /* the body's inertia in world coordinates: rotate about the centre of mass, shift */
        u2d_real com[3], Ic[9];
        u2d_multv3(w->Xa[i].E, &m->com[3 * i], com);
        for (int k = 0; k < 3; k++) com[k] += w->Xa[i].r[k];
        u2d_rotate3(w->Xa[i].E, &m->Icom[9 * i], 1, Ic);
        u2d_inertia_from_com(m->inertia[i].m, com, Ic, &w->IC[i]);
    }
    return U2D_OK;
}
