/* bench_lanes.c: the lane code at a width the module does not build, against a path it does.
 *
 * Two questions were measured with it, both on the human model, one thread:
 * - should arm64 get 2-lane SIMD units (NEON: 128-bit, two doubles)? Measured on x86-64 with
 *   the same width, the algorithms compiled over 2 lanes for SSE2 (benchmarks/lanes2.c, the
 *   x86-64 baseline, as NEON is arm64's), against the one-sample code:
 *
 *   cc -std=c11 -O3 -fno-math-errno -ffp-contract=off -Icsrc -o bench_lanes \
 *      benchmarks/bench_lanes.c benchmarks/lanes2.c csrc/{model,parse,algo,batch}/u2d_*.c -lmxml -lm -pthread
 *
 * - would groups of two AVX-512 vectors (16 lanes, benchmarks/lanes16.c) halve the per-group
 *   integer work of RNEA? Against the module's 8-lane AVX-512 path (needs an AVX-512 CPU):
 *
 *   cc -std=c11 -O3 -fno-math-errno -ffp-contract=off -Icsrc -DWIDE=lanes16 -DREF=avx512 \
 *      -o bench_lanes benchmarks/bench_lanes.c benchmarks/lanes16.c csrc/{model,parse,algo,batch}/u2d_*.c \
 *      -lmxml -lm -pthread
 *
 *   ./bench_lanes urdf2dyn/data/humod_subject_a.urdf [N]
 * prints, per algorithm, ns per sample (thread CPU time, best of 7) for the reference path and
 * the wide code, and their ratio. Also checks that both give the same bits. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "batch/u2d_batch.h"
#include "batch/u2d_simd.h"
#include "model/u2d_model.h"
#include "bench_model.h"

#ifndef WIDE
#define WIDE lanes2                     /* the lane code under test: benchmarks/lanes2.c */
#endif
#ifndef REF
#define REF scalar                      /* the path it is compared with (u2d_simd_select) */
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define TEXT_(a) #a
#define TEXT(a) TEXT_(a)
#define run_wide CAT(u2d_simd_run_, WIDE)
size_t run_wide(const u2d_model *m, u2d_work *w, u2d_algo algo, const u2d_batch_args *a,
                size_t begin, size_t end);

static double now(void) { return bench_seconds(CLOCK_THREAD_CPUTIME_ID); }

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    u2d_model *m = bench_load(argv[1], 0);
    if (!m) return 1;
    const size_t n = argc > 2 ? (size_t)atol(argv[2]) : 4096, nq = (size_t)m->nq,
                 nv = (size_t)m->nv;
    double *q = malloc(sizeof(double) * n * nq), *v = malloc(sizeof(double) * n * nv);
    double *a = malloc(sizeof(double) * n * nv);
    double *o1 = malloc(sizeof(double) * n * nv * nv), *o2 = malloc(sizeof(double) * n * nv * nv);
    bench_states(m, n, q, v, a);
    if (u2d_simd_select(TEXT(REF)) != 0) {
        fprintf(stderr, "this CPU has no %s path\n", TEXT(REF));
        return 1;
    }
    static const struct { const char *name; u2d_algo algo; size_t out; } algos[] = {
        {"rnea", U2D_ALGO_RNEA, 0}, {"crba", U2D_ALGO_CRBA, 1}, {"aba", U2D_ALGO_ABA, 0}};
    printf("%-6s %12s %12s %8s  (%s, N = %zu, one thread)\n", "algo", TEXT(REF) " ns", TEXT(WIDE) " ns",
           "ratio", argv[1], n);
    for (size_t k = 0; k < 3; k++) {
        u2d_batch_args ar;
        memset(&ar, 0, sizeof ar);
        ar.in[0] = q; ar.in_size[0] = nq;
        ar.in[1] = v; ar.in_size[1] = nv;
        ar.in[2] = a; ar.in_size[2] = nv;
        ar.out_size[0] = algos[k].out ? nv * nv : nv;
        ar.gravity[2] = -9.81;
        double best[2] = {1e30, 1e30};
        for (int rep = 0; rep < 7; rep++) {
            size_t bad;
            ar.out[0] = o1;
            double t0 = now();
            u2d_batch(m, algos[k].algo, n, 1, &ar, NULL, &bad);
            double t1 = now();
            ar.out[0] = o2;
            size_t done = run_wide(m, NULL, algos[k].algo, &ar, 0, n);
            double t2 = now();
            if (done != n) { fprintf(stderr, "%s did %zu of %zu\n", TEXT(WIDE), done, n); return 1; }
            if (t1 - t0 < best[0]) best[0] = t1 - t0;
            if (t2 - t1 < best[1]) best[1] = t2 - t1;
        }
        int same = !memcmp(o1, o2, sizeof(double) * n * ar.out_size[0]);
        printf("%-6s %12.0f %12.0f %8.2f  %s\n", algos[k].name, 1e9 * best[0] / (double)n,
               1e9 * best[1] / (double)n, best[0] / best[1], same ? "same bits" : "BITS DIFFER");
    }
    return 0;
}
