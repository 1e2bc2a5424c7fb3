/* u2d_passive.c: the joints' own passive forces, as MuJoCo's mj_passive gives them for
 * joints (qfrc_spring + qfrc_damper): on each coordinate of body i's joint
 *   tau = -stiffness_i (q - springref_i) - damping_i qd
 * with the spring on hinges and slides only (the reader leaves every other spring out, and
 * says so). Not part of inverse dynamics: rigid-body torques are Pinocchio's, and
 * inverse_dynamics - passive is MuJoCo's qfrc_inverse in these terms. */
#include <math.h>
#include "model/u2d_model.h"

u2d_status u2d_passive(const u2d_model *m, const double *q, const double *qd, double *tau)
{
    for (int i = 1; i < m->nbody; i++) {
        const int at = u2d_quat_at(m->jtype[i]);
        if (at >= 0) {          /* unused here, but refused as every algorithm refuses it */
            const double *e = q + m->qadr[i] + at;
            double norm = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]);
            if (norm < 1e-12 || isinf(norm)) return U2D_ERR_QUATERNION;
        }
        for (int k = 0; k < m->jnv[i]; k++) {
            const int c = m->vadr[i] + k;
            tau[c] = -m->damping[i] * qd[c];
            if (m->stiffness[i] != 0.0)
                tau[c] -= m->stiffness[i] * (q[m->qadr[i] + k] - m->springref[i]);
        }
    }
    return U2D_OK;
}
