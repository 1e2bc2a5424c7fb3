/* u2d_passive.c: the joints' own passive forces, as MuJoCo's mj_passive gives them for
 * joints (qfrc_spring + qfrc_damper). With x a joint's displacement from its spring's rest
 * q (spring_q) and v a coordinate's velocity, MuJoCo 4's polynomials are
 *   spring  -(k + k2 x + k3 x^2) x          on a hinge or a slide, x = q - spring_q
 *           -(k + k2 r + k3 r^2) d, r = |d| on a ball (d: the rotation from the rest
 *                                           quaternion to q's, as a 3-vector) and on a free
 *                                           joint's position (d = p - p_rest) and rotation
 *   damper  -(b + b2 |v| + b3 v^2) v        on every coordinate
 * (stiffness = k, passive_poly = k2 k3 b2 b3, damping = b). MuJoCo's free joint moves in
 * world axes, urdf2dyn's in its body's: its force there is R^T times MuJoCo's, R the joint's
 * rotation (the linear spring and damper, being isotropic, need no turn). Not part of
 * inverse dynamics: rigid-body torques are Pinocchio's, and inverse_dynamics - passive is
 * MuJoCo's qfrc_inverse in these terms. */
#include <math.h>
#include "model/u2d_model.h"
#include "model/u2d_mjquat.h"

#define MJ_PI 3.14159265358979323846

/* q's quaternion (x, y, z, w) as MuJoCo's unit one (w, x, y, z): mju_normalize4 */
static void unit_quat(const double *xyzw, double wxyz[4])
{
    wxyz[0] = xyzw[3]; wxyz[1] = xyzw[0]; wxyz[2] = xyzw[1]; wxyz[3] = xyzw[2];
    double norm = sqrt(wxyz[0] * wxyz[0] + wxyz[1] * wxyz[1] + wxyz[2] * wxyz[2] +
                       wxyz[3] * wxyz[3]);
    if (fabs(norm - 1.0) > U2D_MJ_MINVAL)
        for (int k = 0; k < 4; k++) wxyz[k] /= norm;
}

/* MuJoCo's mju_subQuat: the rotation vector d (axis times angle, the angle within pi) with
 * rest * exp(d) = now, both (w, x, y, z) */
static void quat_difference(const double now[4], const double rest[4], double d[3])
{
    const double back[4] = {rest[0], -rest[1], -rest[2], -rest[3]};
    double turn[4];
    u2d_mj_quat_mul(back, now, turn);
    double *axis = turn + 1;
    const double s = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    if (s < U2D_MJ_MINVAL) {
        axis[0] = 1.0; axis[1] = axis[2] = 0.0;
    } else {
        for (int k = 0; k < 3; k++) axis[k] /= s;
    }
    double angle = 2.0 * atan2(s, turn[0]);
    if (angle > MJ_PI) angle -= 2.0 * MJ_PI;   /* the shorter way round */
    for (int k = 0; k < 3; k++) d[k] = axis[k] * angle;
}

/* MuJoCo's mju_polyForce: linear + c[0] x + c[1] x^2 */
static double poly(double linear, const double c[2], double x)
{
    return linear + c[0] * x + c[1] * x * x;
}

/* tau = -(k + k2 r + k3 r^2) d, r = |d|, on three coordinates */
static void vector_spring(double k, const double *c, const double d[3], double *tau)
{
    const double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), s = poly(k, c, r);
    for (int a = 0; a < 3; a++) tau[a] -= s * d[a];
}

/* A free joint's linear damping with MuJoCo's polynomial, which acts per world axis: the
 * body-frame velocity turned to world axes, damped, and the force turned back. */
static void free_linear_damper(double b, const double *c, const double R[9], const double *v,
                               double *tau)
{
    double f[3];
    for (int i = 0; i < 3; i++) {
        const double vw = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
        f[i] = -vw * poly(b, c, fabs(vw));
    }
    for (int j = 0; j < 3; j++) tau[j] = R[j] * f[0] + R[3 + j] * f[1] + R[6 + j] * f[2];
}

/* A free joint's spring: on the position in world axes (turned into the body's), and on
 * the rotation, whose rotation vector is already in body axes as MuJoCo's. */
static void free_spring(const u2d_model *m, int i, const double *q, const double R[9],
                        const double quat[4], double *tau)
{
    const double *rest = &m->spring_q[7 * i], *c = &m->passive_poly[4 * i];
    double d[3], f[3] = {0, 0, 0}, rest_quat[4], turn[3];
    for (int a = 0; a < 3; a++) d[a] = q[a] - rest[a];
    vector_spring(m->stiffness[i], c, d, f);
    for (int j = 0; j < 3; j++) tau[j] += R[j] * f[0] + R[3 + j] * f[1] + R[6 + j] * f[2];
    unit_quat(rest + 3, rest_quat);
    quat_difference(quat, rest_quat, turn);
    vector_spring(m->stiffness[i], c, turn, tau + 3);
}

/* The damper on each of body i's coordinates, in tau (set), then its spring (added). */
static void joint_passive(const u2d_model *m, int i, const double *q, const double *qd,
                          double *tau)
{
    const double *c = &m->passive_poly[4 * i];
    const int type = m->jtype[i], free = type == U2D_JOINT_FLOATING;
    const int has_spring = m->stiffness[i] != 0.0 || c[0] != 0.0 || c[1] != 0.0;
    double quat[4] = {1, 0, 0, 0}, R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (u2d_quat_at(type) >= 0) unit_quat(q + u2d_quat_at(type), quat);
    if (free) u2d_mj_quat_matrix(quat, R);
    for (int k = 0; k < m->jnv[i]; k++)
        tau[k] = -qd[k] * poly(m->damping[i], c + 2, fabs(qd[k]));
    if (free && (c[2] != 0.0 || c[3] != 0.0))
        free_linear_damper(m->damping[i], c + 2, R, qd, tau);
    if (!has_spring) return;
    if (free) {
        free_spring(m, i, q, R, quat, tau);
    } else if (type == U2D_JOINT_BALL) {
        double rest[4], turn[3];
        unit_quat(&m->spring_q[7 * i], rest);
        quat_difference(quat, rest, turn);
        vector_spring(m->stiffness[i], c, turn, tau);
    } else {
        for (int k = 0; k < m->jnv[i]; k++) {
            const double x = q[k] - m->spring_q[7 * i + k];
            tau[k] -= x * poly(m->stiffness[i], c, x);
        }
    }
}

u2d_status u2d_passive(const u2d_model *m, const double *q, const double *qd, double *tau)
{
    for (int i = 1; i < m->nbody; i++) {
        const int at = u2d_quat_at(m->jtype[i]);
        if (at >= 0) {          /* MuJoCo would take a zero quaternion for the identity */
            const double *e = q + m->qadr[i] + at;
            double norm = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]);
            if (norm < 1e-12 || isinf(norm)) return U2D_ERR_QUATERNION;
        }
        joint_passive(m, i, q + m->qadr[i], qd + m->vadr[i], tau + m->vadr[i]);
    }
    return U2D_OK;
}
