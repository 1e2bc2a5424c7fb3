/* u2d_centroidal.c: centre of mass and centroidal momentum (Orin, Goswami & Lee 2013).
 *
 * In world coordinates at the origin O, body k carries momentum I_k v_k, and the whole
 * body h_O = sum I_k v_k = (sum over joints of I_i S_i qd_i, I_i the subtree inertia), its
 * rate dh_O/dt = sum (I_k a_k + v_k x* I_k v_k) with the true accelerations (no gravity).
 * Moved to the centre of mass c, with the linear part first (Pinocchio's layout):
 *     h_G = [p; n_O - c x p],   dh_G/dt = [dp/dt; dn_O/dt - c x dp/dt]
 * (the term dc/dt x p vanishes: p = m dc/dt). */
#include <string.h>
#include "model/u2d_model.h"

/* [n; f] about O -> [f; n - c x f] about c */
static void to_centroid(const double c[3], const double h[6], double out[6])
{
    double t[3];
    u2d_cross3(c, h + 3, t);
    for (int r = 0; r < 3; r++) {
        out[r] = h[3 + r];
        out[3 + r] = h[r] - t[r];
    }
}

u2d_status u2d_ccrba(const u2d_model *m, u2d_work *w, const double *q, double *Ag)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    const int nb = m->nbody, nv = m->nv;
    u2d_status st = u2d_world_motion(m, w, zero, q, NULL, NULL);
    if (st != U2D_OK) return st;
    double mass = 0.0, mc[3] = {0, 0, 0}, c[3] = {0, 0, 0};
    for (int i = 1; i < nb; i++) {
        mass += w->IC[i].m;
        for (int r = 0; r < 3; r++) mc[r] += w->IC[i].h[r];
    }
    if (mass > 0.0)
        for (int r = 0; r < 3; r++) c[r] = mc[r] / mass;
    for (int i = nb - 1; i > 0; i--)
        if (m->parent[i] > 0) u2d_inertia_add(&w->IC[m->parent[i]], &w->IC[i]);
    for (int i = 1; i < nb; i++)
        for (int k = 0; k < m->jnv[i]; k++) {
            const int col = m->vadr[i] + k;
            double h[6], hg[6];
            u2d_inertia_mul(&w->IC[i], &w->S0[6 * col], h);
            to_centroid(c, h, hg);
            for (int r = 0; r < 6; r++) Ag[(size_t)r * nv + col] = hg[r];
        }
    return U2D_OK;
}

u2d_status u2d_centroidal(const u2d_model *m, u2d_work *w, const double *q, const double *qd,
                          const double *qdd, double *com, double *h)
{
    static const double zero[6] = {0, 0, 0, 0, 0, 0};
    u2d_status st = u2d_world_motion(m, w, zero, q, qd, qdd);
    if (st != U2D_OK) return st;
    double mass = 0.0, mc[3] = {0, 0, 0}, hO[6] = {0}, dhO[6] = {0};
    for (int i = 1; i < m->nbody; i++) {
        const u2d_inertia *I = &w->IC[i];
        const double *v = &w->ov[6 * i], *a = &w->oa[6 * i];
        double Iv[6], Ia[6], t[6];
        u2d_inertia_mul(I, v, Iv);
        u2d_inertia_mul(I, a, Ia);
        u2d_crossf(v, Iv, t);
        for (int r = 0; r < 6; r++) {
            hO[r] += Iv[r];
            dhO[r] += Ia[r] + t[r];
        }
        mass += I->m;
        for (int r = 0; r < 3; r++) mc[r] += I->h[r];
    }
    const double inv = mass > 0.0 ? 1.0 / mass : 0.0;
    for (int r = 0; r < 3; r++) {
        com[r] = mc[r] * inv;
        com[3 + r] = hO[3 + r] * inv;
        com[6 + r] = dhO[3 + r] * inv;
    }
    to_centroid(com, hO, h);
    to_centroid(com, dhO, h + 6);
    return U2D_OK;
}
