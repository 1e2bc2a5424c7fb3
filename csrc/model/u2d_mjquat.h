/* u2d_mjquat.h: MuJoCo's quaternions, (w, x, y, z), as its engine composes and turns them:
 * shared by the MJCF reader (parse/u2d_mjcf.h) and the passive forces of MJCF joints
 * (algo/u2d_passive.c). Doubles only: the lane builds never see them. */
#ifndef U2D_MJQUAT_H
#define U2D_MJQUAT_H

#define U2D_MJ_MINVAL 1e-15         /* MuJoCo's mjMINVAL */

static inline void u2d_mj_quat_mul(const double a[4], const double b[4], double out[4])
{
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    out[0] = w; out[1] = x; out[2] = y; out[3] = z;
}

/* R with columns the rotated frame's axes (child axes in parent coordinates). */
static inline void u2d_mj_quat_matrix(const double q[4], double R[9])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = w * w + x * x - y * y - z * z; R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z); R[4] = w * w - x * x + y * y - z * z; R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = w * w - x * x - y * y + z * z;
}

#endif
