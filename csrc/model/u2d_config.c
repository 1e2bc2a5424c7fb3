/* u2d_config.c: arithmetic on configurations that respects the floating and ball joints'
 * quaternions: q (+) v dt, the difference of two configurations, normalization.
 *
 * A floating joint's v is a body twist [v_lin; w]; moving along it for dt is the SE(3)
 * exponential M1 = M0 exp(v dt), and the difference is its logarithm. A ball joint's v is
 * the body's angular velocity: SO(3)'s exponential and logarithm. Other joints are vector
 * spaces (a planar joint's v is dq/dt). */
#include <math.h>
#include <string.h>
#include "model/u2d_model.h"

/* Quaternions are (x, y, z, w). */
static void quat_mul(const double a[4], const double b[4], double out[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x; out[1] = y; out[2] = z; out[3] = w;
}

static void quat_rotate(const double qu[4], const double p[3], double out[3])
{
    double t[3], u[3];                      /* p + 2 w (v x p) + 2 v x (v x p) */
    u2d_cross3(qu, p, t);
    for (int k = 0; k < 3; k++) t[k] *= 2.0;
    u2d_cross3(qu, t, u);
    for (int k = 0; k < 3; k++) out[k] = p[k] + qu[3] * t[k] + u[k];
}

static int quat_unit(const double in[4], double out[4])
{
    double n = sqrt(in[0] * in[0] + in[1] * in[1] + in[2] * in[2] + in[3] * in[3]);
    if (n < 1e-12 || isinf(n)) return -1;
    for (int k = 0; k < 4; k++) out[k] = in[k] / n;
    return 0;
}

/* The coefficients a = sin t / t, b = (1 - cos t) / t^2, c = (t - sin t) / t^3, with
 * series below where the closed forms lose digits. */
static void exp_coefficients(double t, double *a, double *b, double *c)
{
    double t2 = t * t;
    if (t < 1e-4) {
        *a = 1.0 - t2 / 6.0;
        *b = 0.5 - t2 / 24.0;
        *c = 1.0 / 6.0 - t2 / 120.0;
    } else {
        *a = sin(t) / t;
        *b = (1.0 - cos(t)) / t2;
        *c = (t - sin(t)) / (t2 * t);
    }
}

/* V(phi) x = x + b phi x x + c phi x (phi x x) */
static void apply_V(const double phi[3], double b, double c, const double x[3], double out[3])
{
    double p1[3], p2[3];
    u2d_cross3(phi, x, p1);
    u2d_cross3(phi, p1, p2);
    for (int k = 0; k < 3; k++) out[k] = x[k] + b * p1[k] + c * p2[k];
}

/* q1 = qu exp(phi): the unit quaternion qu turned by the body-frame rotation vector phi. */
static void turn(const double qu[4], const double phi[3], double q1[4])
{
    double t = sqrt(u2d_dot3(phi, phi)), dq[4];
    double half = 0.5 * t, s = t < 1e-4 ? 0.5 - t * t / 48.0 : sin(half) / t;
    dq[0] = s * phi[0]; dq[1] = s * phi[1]; dq[2] = s * phi[2]; dq[3] = cos(half);
    quat_mul(qu, dq, q1);
    quat_unit(q1, q1);
}

/* The rotation vector phi (body frame of a) with a exp(phi) = b, for unit a and b; returns
 * its angle. */
static double turn_log(const double a[4], const double b[4], double phi[3])
{
    double ac[4] = {-a[0], -a[1], -a[2], a[3]}, rel[4];
    quat_mul(ac, b, rel);                           /* rotation of b seen from a */
    if (rel[3] < 0) for (int k = 0; k < 4; k++) rel[k] = -rel[k];
    double sn = sqrt(u2d_dot3(rel, rel)), t = 2.0 * atan2(sn, rel[3]);
    double scale = sn < 1e-12 ? 2.0 / rel[3] : t / sn;
    for (int k = 0; k < 3; k++) phi[k] = scale * rel[k];
    return t;
}

static u2d_status floating_integrate(const double *q, const double *v, double dt, double *q1)
{
    double qu[4], phi[3], rho[3], dp[3], wdp[3];
    if (quat_unit(q + 3, qu)) return U2D_ERR_QUATERNION;
    for (int k = 0; k < 3; k++) { rho[k] = v[k] * dt; phi[k] = v[3 + k] * dt; }
    double t = sqrt(u2d_dot3(phi, phi)), a, b, c;
    exp_coefficients(t, &a, &b, &c);
    apply_V(phi, b, c, rho, dp);                    /* translation in the body frame */
    quat_rotate(qu, dp, wdp);
    turn(qu, phi, q1 + 3);
    for (int k = 0; k < 3; k++) q1[k] = q[k] + wdp[k];
    return U2D_OK;
}

/* A ball joint: SO(3) alone, v the body-frame angular velocity. */
static u2d_status ball_integrate(const double *q, const double *w, double dt, double *q1)
{
    double qu[4], phi[3] = {w[0] * dt, w[1] * dt, w[2] * dt};
    if (quat_unit(q, qu)) return U2D_ERR_QUATERNION;
    turn(qu, phi, q1);
    return U2D_OK;
}

static u2d_status ball_difference(const double *q0, const double *q1, double *w)
{
    double a[4], b[4];
    if (quat_unit(q0, a) || quat_unit(q1, b)) return U2D_ERR_QUATERNION;
    turn_log(a, b, w);
    return U2D_OK;
}

static u2d_status floating_difference(const double *q0, const double *q1, double *v)
{
    double a[4], b[4], dp[3], dpb[3], phi[3];
    if (quat_unit(q0 + 3, a) || quat_unit(q1 + 3, b)) return U2D_ERR_QUATERNION;
    double ac[4] = {-a[0], -a[1], -a[2], a[3]};
    double t = turn_log(a, b, phi);
    for (int k = 0; k < 3; k++) dp[k] = q1[k] - q0[k];
    quat_rotate(ac, dp, dpb);                       /* translation in q0's body frame */
    /* V^-1 x = x - phi x x / 2 + d phi x (phi x x),  d = (1 - a / (2 b)) / t^2 */
    double ca, cb, cc, p1[3], p2[3];
    exp_coefficients(t, &ca, &cb, &cc);
    double d = t < 1e-4 ? 1.0 / 12.0 + t * t / 720.0 : (1.0 - ca / (2.0 * cb)) / (t * t);
    u2d_cross3(phi, dpb, p1);
    u2d_cross3(phi, p1, p2);
    for (int k = 0; k < 3; k++) {
        v[k] = dpb[k] - 0.5 * p1[k] + d * p2[k];
        v[3 + k] = phi[k];
    }
    return U2D_OK;
}

u2d_status u2d_integrate(const u2d_model *m, const double *q, const double *v, double dt,
                         double *q1)
{
    for (int i = 1; i < m->nbody; i++) {
        const double *qi = q + m->qadr[i], *vi = v + m->vadr[i];
        double *out = q1 + m->qadr[i];
        if (m->jtype[i] == U2D_JOINT_FLOATING || m->jtype[i] == U2D_JOINT_BALL) {
            u2d_status st = m->jtype[i] == U2D_JOINT_BALL ? ball_integrate(qi, vi, dt, out)
                                                         : floating_integrate(qi, vi, dt, out);
            if (st != U2D_OK) return st;
        } else {
            for (int k = 0; k < m->jnq[i]; k++) out[k] = qi[k] + vi[k] * dt;
        }
    }
    return U2D_OK;
}

u2d_status u2d_difference(const u2d_model *m, const double *q0, const double *q1, double *v)
{
    for (int i = 1; i < m->nbody; i++) {
        const double *a = q0 + m->qadr[i], *b = q1 + m->qadr[i];
        double *out = v + m->vadr[i];
        if (m->jtype[i] == U2D_JOINT_FLOATING || m->jtype[i] == U2D_JOINT_BALL) {
            u2d_status st = m->jtype[i] == U2D_JOINT_BALL ? ball_difference(a, b, out)
                                                         : floating_difference(a, b, out);
            if (st != U2D_OK) return st;
        } else {
            for (int k = 0; k < m->jnv[i]; k++) out[k] = b[k] - a[k];
        }
    }
    return U2D_OK;
}

u2d_status u2d_normalize(const u2d_model *m, const double *q, double *qn)
{
    if (qn != q) memcpy(qn, q, sizeof(double) * (size_t)m->nq);
    for (int i = 1; i < m->nbody; i++) {
        int at = u2d_quat_at(m->jtype[i]);
        if (at >= 0 && quat_unit(qn + m->qadr[i] + at, qn + m->qadr[i] + at))
            return U2D_ERR_QUATERNION;
    }
    return U2D_OK;
}

/* For q(t) = q0 (+) xi(t), the rate of xi that gives velocity v: dexp^-1_xi(v), to fourth
 * order v + 1/2 ad_xi v + 1/12 ad_xi^2 v for floating joints (identity elsewhere). RK4
 * stages need it to keep their order on rotations (Runge-Kutta-Munthe-Kaas). */
void u2d_dexpinv(const u2d_model *m, const double *xi, const double *v, double *out)
{
    for (int i = 1; i < m->nbody; i++) {
        const int a = m->vadr[i];
        if (m->jtype[i] == U2D_JOINT_BALL) {       /* so(3): ad_phi w = phi x w */
            double ad1[3], ad2[3];
            u2d_cross3(xi + a, v + a, ad1);
            u2d_cross3(xi + a, ad1, ad2);
            for (int k = 0; k < 3; k++) out[a + k] = v[a + k] + 0.5 * ad1[k] + ad2[k] / 12.0;
            continue;
        }
        if (m->jtype[i] != U2D_JOINT_FLOATING) {
            for (int k = 0; k < m->jnv[i]; k++) out[a + k] = v[a + k];
            continue;
        }
        /* twists as [linear; angular]: ad_x y = [phi x u + rho x w; phi x w] */
        const double *rho = xi + a, *phi = xi + a + 3;
        double ad1[6], ad2[6], t[3];
        const double *u = v + a, *w = v + a + 3;
        u2d_cross3(phi, u, ad1); u2d_cross3(rho, w, t);
        for (int k = 0; k < 3; k++) ad1[k] += t[k];
        u2d_cross3(phi, w, ad1 + 3);
        u2d_cross3(phi, ad1, ad2); u2d_cross3(rho, ad1 + 3, t);
        for (int k = 0; k < 3; k++) ad2[k] += t[k];
        u2d_cross3(phi, ad1 + 3, ad2 + 3);
        for (int k = 0; k < 6; k++) out[a + k] = v[a + k] + 0.5 * ad1[k] + ad2[k] / 12.0;
    }
}
