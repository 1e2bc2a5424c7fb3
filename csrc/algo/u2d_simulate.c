/* u2d_simulate.c: time stepping of forward dynamics (ABA) under given joint forces.
 *
 *   euler          q' = q (+) v dt,             v' = v + a(q, v) dt
 *   semi-implicit  v' = v + a(q, v) dt,         q' = q (+) v' dt
 *   rk4            the classical four stages on (q, v) with positions q (+) xi; the stage
 *                  rates of xi are dexp^-1_xi(v) (Runge-Kutta-Munthe-Kaas), which keeps
 *                  fourth order on floating joints and quaternions on the unit sphere.
 * Joint forces at a stage time come from the caller's table: held over the step, or sampled
 * every half step, which gives RK4 the exact forces at its stage times. */
#include <string.h>
#include "model/u2d_model.h"

typedef struct {
    const u2d_model *m;
    u2d_work *w;
    const double *gravity;
    u2d_fext fext;
} stepper;

static u2d_status accel(const stepper *s, const double *q, const double *v, const double *tau,
                        double *a)
{
    return u2d_aba(s->m, s->w, s->gravity, q, v, tau, s->fext.n > 0 ? &s->fext : NULL, a);
}

u2d_status u2d_simulate(const u2d_model *m, u2d_work *w, const double gravity[3],
                        const double *q0, const double *v0, const double *tau, int tau_half_steps,
                        size_t steps, double dt, u2d_method method, int nfext,
                        const int *fext_body, const double *fext_wrench, int fext_shared,
                        double *qs, double *vs, size_t *bad_step)
{
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    double *a1 = w->scratch, *a2 = a1 + nv, *a3 = a2 + nv, *a4 = a3 + nv;
    double *k2 = a4 + nv, *k3 = k2 + nv, *k4 = k3 + nv;
    double *v2 = k4 + nv, *v3 = v2 + nv, *v4 = v3 + nv, *xi = v4 + nv;
    double *qstage = xi + nv;
    stepper s = {m, w, gravity, {nfext, fext_body, NULL}};
    u2d_status st = U2D_OK;

    memcpy(qs, q0, nq * sizeof(double));
    memcpy(vs, v0, nv * sizeof(double));
    for (size_t k = 0; k < steps && st == U2D_OK; k++) {
        const double *q = qs + k * nq, *v = vs + k * nv;
        double *qn = qs + (k + 1) * nq, *vn = vs + (k + 1) * nv;
        const double *t0 = tau + (tau_half_steps ? 2 * k : k) * nv;
        const double *tmid = tau_half_steps ? t0 + nv : t0;
        const double *tend = tau_half_steps ? t0 + 2 * nv : t0;
        s.fext.wrench = nfext > 0 ? fext_wrench + (fext_shared ? 0 : k * 6 * (size_t)nfext) : NULL;
        *bad_step = k;
        switch (method) {
        case U2D_EULER:
            if ((st = accel(&s, q, v, t0, a1))) break;
            if ((st = u2d_integrate(m, q, v, dt, qn))) break;
            for (size_t i = 0; i < nv; i++) vn[i] = v[i] + dt * a1[i];
            break;
        case U2D_SEMI_IMPLICIT:
            if ((st = accel(&s, q, v, t0, a1))) break;
            for (size_t i = 0; i < nv; i++) vn[i] = v[i] + dt * a1[i];
            st = u2d_integrate(m, q, vn, dt, qn);
            break;
        case U2D_RK4:
            /* k_j: rates of xi (dexp^-1 of the stage velocity); a_j: accelerations */
            if ((st = accel(&s, q, v, t0, a1))) break;
            for (size_t i = 0; i < nv; i++) {
                xi[i] = 0.5 * dt * v[i];
                v2[i] = v[i] + 0.5 * dt * a1[i];
            }
            if ((st = u2d_integrate(m, q, xi, 1.0, qstage))) break;
            if ((st = accel(&s, qstage, v2, tmid, a2))) break;
            u2d_dexpinv(m, xi, v2, k2);
            for (size_t i = 0; i < nv; i++) {
                xi[i] = 0.5 * dt * k2[i];
                v3[i] = v[i] + 0.5 * dt * a2[i];
            }
            if ((st = u2d_integrate(m, q, xi, 1.0, qstage))) break;
            if ((st = accel(&s, qstage, v3, tmid, a3))) break;
            u2d_dexpinv(m, xi, v3, k3);
            for (size_t i = 0; i < nv; i++) {
                xi[i] = dt * k3[i];
                v4[i] = v[i] + dt * a3[i];
            }
            if ((st = u2d_integrate(m, q, xi, 1.0, qstage))) break;
            if ((st = accel(&s, qstage, v4, tend, a4))) break;
            u2d_dexpinv(m, xi, v4, k4);
            for (size_t i = 0; i < nv; i++) {
                xi[i] = dt * (v[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0;
                vn[i] = v[i] + dt * (a1[i] + 2.0 * a2[i] + 2.0 * a3[i] + a4[i]) / 6.0;
            }
            st = u2d_integrate(m, q, xi, 1.0, qn);
            break;
        default:
            st = U2D_ERR_ARGUMENT;
        }
    }
    return st;
}
