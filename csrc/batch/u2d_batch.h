/* u2d_batch.h: evaluating one-sample algorithms over N samples, on several threads.
 * Each thread takes a contiguous block of samples and owns its workspace, so results do
 * not depend on the number of threads. */
#ifndef U2D_BATCH_H
#define U2D_BATCH_H

#include <stddef.h>
#include "model/u2d_model.h"

typedef enum {
    U2D_ALGO_RNEA,          /* q, v, a   -> tau (nv)                 f_ext */
    U2D_ALGO_CRBA,          /* q         -> M (nv, nv)                     */
    U2D_ALGO_NLE,           /* q, v      -> h (nv)                         */
    U2D_ALGO_GRAVITY,       /* q         -> g (nv)                         */
    U2D_ALGO_CORIOLIS,      /* q, v      -> C (nv, nv)                     */
    U2D_ALGO_ABA,           /* q, v, tau -> qdd (nv)                 f_ext */
    U2D_ALGO_FK,            /* q         -> pos (nlink, 3), rot (nlink, 3, 3) */
    U2D_ALGO_JOINT_POS,     /* q         -> (njoint, 3)                    */
    U2D_ALGO_COM,           /* q         -> (3)                            */
    U2D_ALGO_JACOBIAN,      /* q         -> (6, nv)              link, point */
    U2D_ALGO_LINK_VEL,      /* q, v      -> (nlink, 6)                     */
    U2D_ALGO_KINETIC,       /* q, v      -> (1)                            */
    U2D_ALGO_POTENTIAL,     /* q         -> (1)                            */
    U2D_ALGO_INTEGRATE,     /* q, v      -> (nq)                       dt  */
    U2D_ALGO_DIFFERENCE,    /* q0, q1    -> (nv)                           */
    U2D_ALGO_NORMALIZE,     /* q         -> (nq)                           */
    U2D_ALGO_RNEA_DERIV,    /* q, v, a   -> dtau_dq, dtau_dv, M (nv, nv)    f_ext */
    U2D_ALGO_ABA_DERIV,     /* q, v, tau -> dqdd_dq, dqdd_dv, Minv (nv, nv) f_ext */
    U2D_ALGO_CCRBA,         /* q         -> A_G (6, nv)                    */
    U2D_ALGO_CENTROIDAL,    /* q, v, a   -> com (3, 3), h_G (2, 6)          */
    U2D_ALGO_REGRESSOR,     /* q, v, a   -> Y (nv, 10 (nbody - 1))          */
    U2D_ALGO_FRAME_JACOBIAN,    /* q      -> (6, nv)   link, point, reference */
    U2D_ALGO_FRAME_JACOBIAN_DOT,/* q, v   -> (6, nv)   link, point, reference */
    U2D_ALGO_FRAME_VELOCITY,    /* q, v   -> (6)       link, point, reference */
    U2D_ALGO_FRAME_ACCELERATION,/* q, v, a -> (6)      link, point, reference */
    U2D_ALGO_FRAME_CLASSICAL,   /* q, v, a -> (6)      link, point, reference */
    U2D_ALGO_PASSIVE,       /* q, v      -> (nv)                           */
    U2D_NALGO
} u2d_algo;

/* Arrays of N samples: sample s of input k starts at in[k] + s * in_size[k]. */
typedef struct {
    const double *in[3];
    size_t in_size[3];
    double *out[3];
    size_t out_size[3];
    double gravity[3];
    int nfext, fext_shared;         /* wrenches (N or 1, nfext, 6) on bodies fext_body */
    const int *fext_body;
    const double *fext_wrench;
    int link;                       /* jacobian */
    double point[3];
    u2d_reference reference;        /* frame functions */
    double dt;                      /* integrate */
} u2d_batch_args;

/* Run algo over samples [0, n) on at most nthreads threads. When work is not NULL (a
 * workspace of this model that no other call uses meanwhile), the calling thread uses it
 * and the other threads the workspaces chained to it (work->next, made at first need), and
 * what the SIMD paths make is kept in them for the next call; else every thread makes its
 * own and frees it. On failure returns the status of the lowest failing sample and stores
 * its index in *bad. */
u2d_status u2d_batch(const u2d_model *m, u2d_algo algo, size_t n, int nthreads,
                     const u2d_batch_args *args, u2d_work *work, size_t *bad);

/* Inverse kinematics over a trial (u2d_ik_solve), its frames cut into at most nthreads
 * contiguous segments: each segment starts at q0 and is warm-started frame to frame
 * within it, on its own thread and workspaces (allocated here, before the frames run).
 * A segment whose first frame, fitted again from the previous frame's fit, differs from
 * its own start is then fitted again from there, so the result is the one thread's
 * minimum (within the fit's tolerance where the seam agreed).
 * Arrays as in u2d_ik_solve. On failure *bad is the lowest failing frame. */
u2d_status u2d_batch_ik(const u2d_model *m, const u2d_ik_problem *p, size_t nframe,
                        int nthreads, const double *target, const double *task_value,
                        const double *q0, double *q, double *err, u2d_ik_report *report,
                        size_t *bad);

#endif
