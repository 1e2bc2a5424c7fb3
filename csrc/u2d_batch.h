/* u2d_batch.h: evaluating one-sample algorithms over N samples, on several threads.
 * Each thread takes a contiguous block of samples and owns its workspace, so results do
 * not depend on the number of threads. */
#ifndef U2D_BATCH_H
#define U2D_BATCH_H

#include <stddef.h>
#include "u2d_model.h"

/* Evaluate sample s of some algorithm; ctx holds the arrays. */
typedef u2d_status (*u2d_sample_fn)(const u2d_model *m, u2d_work *w, const void *ctx, size_t s);

/* Run fn over samples [0, n) on at most nthreads threads. On failure returns the status of
 * the lowest failing sample and stores its index in *bad. */
u2d_status u2d_batch_run(const u2d_model *m, size_t n, int nthreads, u2d_sample_fn fn,
                         const void *ctx, size_t *bad);

/* Inverse dynamics over a trajectory: q (n, nq), qd and qdd (n, nv) -> tau (n, nv).
 * fext_wrench is (n, nfext, 6), or (1, nfext, 6) shared by all samples when
 * fext_shared is set. */
typedef struct {
    const double *q, *qd, *qdd;
    double gravity[3];
    int nfext, fext_shared;
    const int *fext_body;
    const double *fext_wrench;
    double *tau;
} u2d_rnea_args;

u2d_status u2d_rnea_batch(const u2d_model *m, size_t n, int nthreads, const u2d_rnea_args *args,
                          size_t *bad);

#endif
