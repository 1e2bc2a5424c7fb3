/* u2d_simd.h: the SIMD paths, U2D_LANES samples per instruction, and the choice among them.
 *
 * u2d_simd_avx2.c and u2d_simd_avx512.c compile the algorithm sources a second and a third
 * time over a vector u2d_real (see u2d_real.h and u2d_simd_impl.h), for 4 and 8 samples at
 * once; the plain build is the portable path. The path is chosen once, at the first call,
 * from the CPU's features, or from the environment variable URDF2DYN_SIMD
 * (avx512 | avx2 | scalar); u2d_simd_select changes it (tests run every path). Every path
 * gives the same bits: the lanes do the portable code's operations in the same order. */
#ifndef U2D_SIMD_H
#define U2D_SIMD_H

#include <stddef.h>
#include "batch/u2d_batch.h"

/* Evaluate algo over samples [begin, end) of a, a whole group of lanes at a time. Returns
 * how many samples (from begin) it has done; the caller does the rest one by one, which
 * also pins a failure to its sample. Algorithms or options without a SIMD kernel: 0.
 * The lane copy of the model and the lane workspace are kept in w (w->lanes, a workspace
 * of m that no other thread uses meanwhile) for the next call that passes it; w may be
 * NULL (then they are made and freed within the call). */
#define U2D_SIMD_MAX_LANES 8

typedef size_t (*u2d_simd_fn)(const u2d_model *m, u2d_work *w, u2d_algo algo,
                              const u2d_batch_args *a, size_t begin, size_t end);

size_t u2d_simd_run_avx2(const u2d_model *m, u2d_work *w, u2d_algo algo,
                         const u2d_batch_args *a, size_t begin, size_t end);
size_t u2d_simd_run_avx512(const u2d_model *m, u2d_work *w, u2d_algo algo,
                           const u2d_batch_args *a, size_t begin, size_t end);
size_t u2d_simd_run_neon(const u2d_model *m, u2d_work *w, u2d_algo algo,
                         const u2d_batch_args *a, size_t begin, size_t end);

/* The path in use: "avx512", "avx2", "neon" or "scalar". */
const char *u2d_simd_path(void);
/* Use the named path; returns 0, or -1 (path unchanged) when the name is unknown or the CPU
 * or the build lacks it. NULL: choose again from the environment and the CPU. */
int u2d_simd_select(const char *name);
/* The kernel of the path in use, NULL for the scalar path. */
u2d_simd_fn u2d_simd_kernel(void);

#endif
