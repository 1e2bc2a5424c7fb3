/* flop_driver.c: N samples of one algorithm of the urdf2dyn core, for counting its
 * floating-point operations under valgrind (benchmarks/count_flops.py).
 *
 *   flop_driver URDF FLOATING ALGO N      ALGO: rnea | crba | aba | nle | gravity
 * The states are fixed pseudo-random numbers; N = 0 runs everything but the algorithm, so
 * the difference of two counts is the algorithm's. */
#define _POSIX_C_SOURCE 199309L     /* bench_model.h's clock */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/u2d_model.h"
#include "bench_model.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s URDF FLOATING ALGO N\n", argv[0]);
        return 2;
    }
    u2d_model *m = bench_load(argv[1], atoi(argv[2]));
    if (!m) return 1;
    u2d_work *w = u2d_work_new(m);
    const char *algo = argv[3];
    const int n = atoi(argv[4]), nq = m->nq, nv = m->nv;
    double *q = malloc(sizeof(double) * (size_t)nq), *v = malloc(sizeof(double) * (size_t)nv);
    double *a = malloc(sizeof(double) * (size_t)nv), *out = malloc(sizeof(double) * (size_t)nv * nv);
    const double g[3] = {0, 0, -9.81};
    unsigned s = 12345;
    for (int k = 0; k < nq; k++) q[k] = (double)((s = s * 1103515245u + 12345u) >> 8) * 0x1p-23 - 1.0;
    for (int k = 0; k < nv; k++) v[k] = a[k] = 0.5 - (double)(k % 7) / 7.0;
    if (u2d_normalize(m, q, q) != U2D_OK) return 1;
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        u2d_status st = U2D_OK;
        if (!strcmp(algo, "rnea")) st = u2d_rnea(m, w, g, q, v, a, NULL, out);
        else if (!strcmp(algo, "nle")) st = u2d_rnea(m, w, g, q, v, w->zero, NULL, out);
        else if (!strcmp(algo, "gravity")) st = u2d_rnea(m, w, g, q, w->zero, w->zero, NULL, out);
        else if (!strcmp(algo, "crba")) st = u2d_crba(m, w, q, out);
        else if (!strcmp(algo, "aba")) st = u2d_aba(m, w, g, q, v, a, NULL, out);
        else return 2;
        if (st != U2D_OK) return 3;
        sum += out[0];
    }
    printf("%g\n", sum);
    return 0;
}
