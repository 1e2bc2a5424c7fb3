/* u2d_rnea.c: inverse dynamics by the recursive Newton-Euler algorithm.
 *
 * Featherstone, RBDA Table 5.1, for a tree with bodies in topological order:
 *   forward   Xup_i = XJ_i Xtree_i                  (jcalc)
 *             v_i = Xup_i v_p + S_i qd_i
 *             a_i = Xup_i a_p + S_i qdd_i + cJ_i + v_i x S_i qd_i
 *             f_i = I_i a_i + v_i x* I_i v_i - X_i<-0* fext_i
 *   backward  tau_i = S_i^T f_i + armature_i qdd_i,   f_p += Xup_i^T f_i
 * Gravity enters as an upward acceleration of the world, a_0 = -g, so every body's
 * weight arrives in f_i with no extra term. Branching needs no special case: each f_i is
 * added into its own parent, whatever the number of siblings. */
#include <string.h>
#include "model/u2d_model.h"
#include "model/u2d_port.h"

void u2d_rnea_start(u2d_work *w, const double gravity[3])
{
    const u2d_real o = U2D_R(0);
    u2d_real a0[6] = {o, o, o, U2D_R(-gravity[0]), U2D_R(-gravity[1]), U2D_R(-gravity[2])};
    u2d_zero(w->v, 6);
    u2d_copy(w->a, a0, 6);
}

/* always inlined into RNEA's loop: a call per body cost RNEA 10 % */
static U2D_ALWAYS_INLINE u2d_status
body_motion(const u2d_model *m, u2d_work *w, int i, const u2d_real *q, const u2d_real *qd,
            const u2d_real *qdd)
{
    const int p = m->parent[i], nv = m->jnv[i];
    const u2d_real *qdi = qd + m->vadr[i], *qddi = qdd + m->vadr[i];
    const u2d_real o = U2D_R(0);
    u2d_real *S = &w->S[36 * i], *cJ = &w->cJ[6 * i], *v = &w->v[6 * i], *a = &w->a[6 * i];
    u2d_status st = u2d_jcalc_work(m, w, i, q + m->qadr[i], qdi);
    if (st != U2D_OK) return st;

    u2d_real vJ[6] = {o, o, o, o, o, o}, aJ[6], t[6];
    u2d_copy(aJ, cJ, 6);
    for (int k = 0; k < nv; k++)
        for (int r = 0; r < 6; r++) {
            vJ[r] += S[6 * k + r] * qdi[k];
            aJ[r] += S[6 * k + r] * qddi[k];
        }
    u2d_xform_motion(&w->Xup[i], &w->v[6 * p], v);
    u2d_xform_motion(&w->Xup[i], &w->a[6 * p], a);
    for (int r = 0; r < 6; r++) v[r] += vJ[r];
    u2d_crossm(v, vJ, t);
    for (int r = 0; r < 6; r++) a[r] += aJ[r] + t[r];
    return U2D_OK;
}

u2d_status u2d_rnea_body_motion(const u2d_model *m, u2d_work *w, int i, const u2d_real *q,
                                const u2d_real *qd, const u2d_real *qdd)
{
    return body_motion(m, w, i, q, qd, qdd);
}

/* U2D_FLATTEN: in a lane unit the joint model's call (u2d_jcalc, one per body, the same
 * translation unit there) is inlined: its frame, saved registers and the reloads of S and cJ
 * cost the human's group of lanes 1 350 of 32 140 instructions (benchmarks/instruction_mix.py,
 * AVX2). The joints of several coordinates stay out of line (jcalc_multi). */
U2D_FLATTEN u2d_status u2d_rnea(const u2d_model *m, u2d_work *w, const double gravity[3],
                    const u2d_real *q, const u2d_real *qd, const u2d_real *qdd,
                    const u2d_fext *fext, u2d_real *tau)
{
    const int nb = m->nbody;
    const int has_fext = u2d_gather_fext(m, w, fext);
    u2d_rnea_start(w, gravity);
    u2d_xform_identity(&w->Xa[0]);

    for (int i = 1; i < nb; i++) {
        const int p = m->parent[i];
        u2d_status st = body_motion(m, w, i, q, qd, qdd);
        if (st != U2D_OK) return st;
        const u2d_real *v = &w->v[6 * i], *a = &w->a[6 * i];
        u2d_real *f = &w->f[6 * i], t[6], Iv[6];
        u2d_inertia_mul(&m->inertia[i], a, f);
        u2d_inertia_mul(&m->inertia[i], v, Iv);
        u2d_crossf(v, Iv, t);
        for (int r = 0; r < 6; r++) f[r] += t[r];
        if (has_fext) {
            u2d_xform_mul(&w->Xup[i], &w->Xa[p], &w->Xa[i]);
            u2d_xform_force(&w->Xa[i], &w->fext[6 * i], t);
            for (int r = 0; r < 6; r++) f[r] -= t[r];
        }
    }

    for (int i = nb - 1; i > 0; i--) {
        const int p = m->parent[i], nv = m->jnv[i];
        const u2d_real *S = &w->S[36 * i], *f = &w->f[6 * i];
        for (int k = 0; k < nv; k++) {
            u2d_real s = S[6 * k] * f[0];
            for (int r = 1; r < 6; r++) s += S[6 * k + r] * f[r];
            if (m->has_armature) s += m->armature[i] * qdd[m->vadr[i] + k];
            tau[m->vadr[i] + k] = s;
        }
        if (p > 0) {
            u2d_real t[6];
            u2d_xform_force_T(&w->Xup[i], f, t);
            for (int r = 0; r < 6; r++) w->f[6 * p + r] += t[r];
        }
    }
    return U2D_OK;
}
