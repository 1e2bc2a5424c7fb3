/* u2d_joint.c: the joint models (Featherstone's jcalc), the only switch on joint type.
 *
 * For body i, with q and qd pointing at its joint's coordinates:
 *   X_J  joint frame -> body frame,    S  motion subspace in body coordinates (6 x nv),
 *   cJ = (dS/dt) qd, non-zero only for the planar joint whose S turns with theta. */
#include <math.h>
#include <string.h>
#include "u2d_model.h"

static void set_col(double *S, int k, const double w[3], const double v[3])
{
    double *c = S + 6 * k;
    c[0] = w[0]; c[1] = w[1]; c[2] = w[2];
    c[3] = v[0]; c[4] = v[1]; c[5] = v[2];
}

/* Rotation matrix of the unit quaternion (x, y, z, w): child axes in the parent frame. */
static void quat_matrix(double x, double y, double z, double w, double R[9])
{
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - z * w);     R[2] = 2 * (x * z + y * w);
    R[3] = 2 * (x * y + z * w);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - x * w);
    R[6] = 2 * (x * z - y * w);     R[7] = 2 * (y * z + x * w);     R[8] = 1 - 2 * (x * x + y * y);
}

static void transpose3(const double R[9], double E[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) E[3 * i + j] = R[3 * j + i];
}

u2d_status u2d_jcalc(const u2d_model *m, int i, const double *q, const double *qd,
                     u2d_xform *XJ, double *S, double cJ[6])
{
    static const double zero[3] = {0, 0, 0};
    const double *n = &m->axis[3 * i];
    double R[9];
    memset(cJ, 0, 6 * sizeof(double));
    switch ((u2d_jtype)m->jtype[i]) {
    case U2D_JOINT_REVOLUTE:
    case U2D_JOINT_CONTINUOUS:
        u2d_axis_angle(n, q[0], R);
        transpose3(R, XJ->E);
        XJ->r[0] = XJ->r[1] = XJ->r[2] = 0.0;
        set_col(S, 0, n, zero);
        return U2D_OK;

    case U2D_JOINT_PRISMATIC:
        u2d_eye3(XJ->E);
        for (int k = 0; k < 3; k++) XJ->r[k] = n[k] * q[0];
        set_col(S, 0, zero, n);
        return U2D_OK;

    case U2D_JOINT_FLOATING: {
        /* q = [p; quaternion], v = [linear; angular] velocity in body coordinates. */
        double x = q[3], y = q[4], z = q[5], w = q[6];
        double norm = sqrt(x * x + y * y + z * z + w * w);
        if (norm < 1e-12 || isinf(norm)) return U2D_ERR_QUATERNION;
        quat_matrix(x / norm, y / norm, z / norm, w / norm, R);
        transpose3(R, XJ->E);
        XJ->r[0] = q[0]; XJ->r[1] = q[1]; XJ->r[2] = q[2];
        memset(S, 0, 36 * sizeof(double));
        for (int k = 0; k < 3; k++) {
            S[6 * k + 3 + k] = 1.0;          /* linear velocity columns  */
            S[6 * (k + 3) + k] = 1.0;        /* angular velocity columns */
        }
        return U2D_OK;
    }

    case U2D_JOINT_PLANAR: {
        /* q = [x y theta]: translate by x u + y w in the joint frame, then turn theta about n. */
        const double *u = &m->plane[6 * i], *w = &m->plane[6 * i + 3];
        double Eu[3], Ew[3], lin[3];
        u2d_axis_angle(n, q[2], R);
        transpose3(R, XJ->E);
        for (int k = 0; k < 3; k++) XJ->r[k] = q[0] * u[k] + q[1] * w[k];
        u2d_mulmv3(XJ->E, u, Eu);
        u2d_mulmv3(XJ->E, w, Ew);
        set_col(S, 0, zero, Eu);
        set_col(S, 1, zero, Ew);
        set_col(S, 2, n, zero);
        /* d/dt (E u xd + E w yd) = -thetadot n x (E u xd + E w yd) */
        for (int k = 0; k < 3; k++) lin[k] = Eu[k] * qd[0] + Ew[k] * qd[1];
        u2d_cross3(n, lin, cJ + 3);
        for (int k = 3; k < 6; k++) cJ[k] *= -qd[2];
        return U2D_OK;
    }

    case U2D_JOINT_FIXED:
        break;
    }
    u2d_xform_identity(XJ);
    return U2D_OK;
}
