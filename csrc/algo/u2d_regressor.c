/* u2d_regressor.c: the inertial-parameter regressor, tau = Y(q, qd, qdd) pi.
 *
 * Atkeson, An & Hollerbach (1986): a body's Newton-Euler force f = I a + v x* I v is
 * linear in its ten inertial parameters pi = [m, m c, Ixx Ixy Iyy Ixz Iyz Izz] (inertia
 * about the body origin, body axes; Pinocchio's order). So f = Phi pi, column p of Phi
 * being the force of the unit inertia e_p, and tau_j = S_j^T sum over the bodies k below j
 * of X_jk^T f_k: the block of body k in row j is S_j^T X_jk^T Phi_k, carried up the path
 * from k to the root. */
#include <string.h>
#include "model/u2d_model.h"

/* The inertia whose parameter p is 1 and the others 0. */
static void unit_inertia(int p, u2d_inertia *e)
{
    static const int entry[6][2] = {{0, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 2}};
    memset(e, 0, sizeof *e);
    if (p == 0) e->m = 1.0;
    else if (p < 4) e->h[p - 1] = 1.0;
    else {
        const int r = entry[p - 4][0], c = entry[p - 4][1];
        e->Ib[3 * r + c] = e->Ib[3 * c + r] = 1.0;
    }
}

void u2d_inertial_parameters(const u2d_model *m, double *pi)
{
    for (int i = 1; i < m->nbody; i++) {
        const u2d_inertia *I = &m->inertia[i];
        double *x = pi + 10 * (size_t)(i - 1);
        x[0] = I->m;
        x[1] = I->h[0]; x[2] = I->h[1]; x[3] = I->h[2];
        x[4] = I->Ib[0]; x[5] = I->Ib[1]; x[6] = I->Ib[4];
        x[7] = I->Ib[2]; x[8] = I->Ib[5]; x[9] = I->Ib[8];
    }
}

u2d_status u2d_regressor(const u2d_model *m, u2d_work *w, const double gravity[3],
                         const double *q, const double *qd, const double *qdd, double *Y)
{
    const int nb = m->nbody, nv = m->nv;
    const size_t np = 10 * (size_t)(nb - 1);
    for (size_t k = 0; k < (size_t)nv * np; k++) Y[k] = 0.0;
    u2d_rnea_start(w, gravity);
    for (int i = 1; i < nb; i++) {          /* body velocities and accelerations */
        u2d_status st = u2d_rnea_body_motion(m, w, i, q, qd, qdd);
        if (st != U2D_OK) return st;
    }

    for (int k = 1; k < nb; k++) {
        const double *v = &w->v[6 * k], *a = &w->a[6 * k];
        const size_t col0 = 10 * (size_t)(k - 1);
        double Phi[10][6];
        for (int p = 0; p < 10; p++) {
            u2d_inertia e;
            double ev[6], t[6];
            unit_inertia(p, &e);
            u2d_inertia_mul(&e, a, Phi[p]);
            u2d_inertia_mul(&e, v, ev);
            u2d_crossf(v, ev, t);
            for (int r = 0; r < 6; r++) Phi[p][r] += t[r];
        }
        for (int j = k; j > 0; j = m->parent[j]) {
            for (int l = 0; l < m->jnv[j]; l++) {
                const double *s = &w->S[36 * j + 6 * l];
                double *row = Y + (size_t)(m->vadr[j] + l) * np + col0;
                for (int p = 0; p < 10; p++)
                    row[p] = s[0] * Phi[p][0] + s[1] * Phi[p][1] + s[2] * Phi[p][2]
                           + s[3] * Phi[p][3] + s[4] * Phi[p][4] + s[5] * Phi[p][5];
            }
            if (m->parent[j] > 0)
                for (int p = 0; p < 10; p++) {
                    double t[6];
                    u2d_xform_force_T(&w->Xup[j], Phi[p], t);
                    memcpy(Phi[p], t, sizeof t);
                }
        }
    }
    return U2D_OK;
}
