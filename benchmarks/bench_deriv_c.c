/* bench_deriv_c.c: the batched derivatives (and RNEA, ABA, CRBA beside them) timed in C, with
 * no Python around them: for perf, and for comparing two builds of the core side by side.
 *
 *   cc -std=c11 -O3 -g -fno-math-errno -ffp-contract=off -Icsrc -o bench_deriv_c \
 *      benchmarks/bench_deriv_c.c csrc/{model,parse,algo,batch}/u2d_*.c -lmxml -lm -pthread
 *   ./bench_deriv_c urdf2dyn/data/humod_subject_a.urdf [N [MASK [FLOATING [REPS [LENT]]]]]
 *   perf record -e cpu-clock ./bench_deriv_c urdf2dyn/data/humod_subject_a.urdf 2000 2
 *
 * MASK picks the algorithms (bits: 1 RNEA derivatives, 2 ABA derivatives, 4 ABA, 8 RNEA,
 * 16 CRBA; default 3). One thread, the SIMD path this CPU picks; ns per sample, best of REPS
 * (default 5) in thread CPU time, which a machine with more runnable threads than cores does
 * not inflate by the time the thread waits for one. Every call is lent one workspace, as
 * the Python layer lends its Model's (LENT 0: none, each call makes its own). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "batch/u2d_batch.h"
#include "batch/u2d_simd.h"
#include "model/u2d_model.h"
#include "bench_model.h"

static double now(void) { return bench_seconds(CLOCK_THREAD_CPUTIME_ID); }

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    const int floating = argc > 4 ? atoi(argv[4]) : 0;
    u2d_model *m = bench_load(argv[1], floating);
    if (!m) return 1;
    const size_t n = argc > 2 ? (size_t)atol(argv[2]) : 1000, nq = (size_t)m->nq,
                 nv = (size_t)m->nv;
    const int mask = argc > 3 ? atoi(argv[3]) : 3, reps = argc > 5 ? atoi(argv[5]) : 5;
    const int lent = argc > 6 ? atoi(argv[6]) : 1;
    u2d_work *w = u2d_work_new(m);          /* lent to every call, as the Python layer does */
    double *q = malloc(sizeof(double) * n * nq), *v = malloc(sizeof(double) * n * nv);
    double *a = malloc(sizeof(double) * n * nv), *o[3];
    for (int k = 0; k < 3; k++) o[k] = calloc(n * nv * nv, sizeof(double));
    bench_states(m, n, q, v, a);
    static const struct { const char *name; u2d_algo algo; int square; } algos[] = {
        {"rnea_deriv", U2D_ALGO_RNEA_DERIV, 7}, {"aba_deriv", U2D_ALGO_ABA_DERIV, 7},
        {"aba", U2D_ALGO_ABA, 0}, {"rnea", U2D_ALGO_RNEA, 0}, {"crba", U2D_ALGO_CRBA, 1}};
    printf("%s: nv %zu, N %zu, SIMD path %s, one thread, thread CPU time\n", argv[1], nv, n,
           u2d_simd_path());
    for (int k = 0; k < 5; k++) {
        if (!(mask & (1 << k))) continue;
        u2d_batch_args ar;
        memset(&ar, 0, sizeof ar);
        ar.in[0] = q; ar.in_size[0] = nq;
        ar.in[1] = v; ar.in_size[1] = nv;
        ar.in[2] = a; ar.in_size[2] = nv;
        for (int j = 0; j < 3; j++) {
            ar.out[j] = o[j];
            ar.out_size[j] = (algos[k].square >> j) & 1 ? nv * nv : nv;
        }
        ar.gravity[2] = -9.81;
        double best = 1e30;
        for (int r = 0; r < reps; r++) {
            size_t bad;
            const double t0 = now();
            const u2d_status st = u2d_batch(m, algos[k].algo, n, 1, &ar, lent ? w : NULL, &bad);
            const double t1 = now();
            if (st != U2D_OK) { fprintf(stderr, "%s: status %d\n", algos[k].name, st); return 1; }
            if (t1 - t0 < best) best = t1 - t0;
        }
        printf("%-10s %9.0f ns per sample\n", algos[k].name, 1e9 * best / (double)n);
    }
    return 0;
}
