/* bits.c: a hash of the exact result bits of RNEA, CRBA, ABA, forward kinematics and the
 * RNEA and ABA derivatives (with an external wrench) over 16
 * fixed samples, to compare builds: x86-64 scalar vs AVX2 vs AVX-512, or x86-64 vs aarch64
 * under QEMU (tests/c/README.md). The core rounds identically everywhere (no contraction, our
 * own sine and cosine, IEEE square roots), so every line must match; the inputs are made
 * without libm (two libms, glibc's and Windows', may differ in the last bit: only + / and
 * sqrt, correctly rounded everywhere) and hashed first.
 *
 *   bits ROBOT.urdf|MODEL.osim FLOATING(0|1) [scalar|avx2|avx512] */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "batch/u2d_batch.h"
#include "model/u2d_model.h"
#include "batch/u2d_simd.h"

#define N 16

static uint64_t fnv1a(const void *p, size_t n, uint64_t h)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

/* a number in [-1, 1] that every C compiler and libc compute alike */
static double wave(size_t i, size_t k) { return (double)((i * k + 7) % 2001) / 1000.0 - 1.0; }

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) { free(text); text = NULL; }
    if (text) text[n] = 0;
    fclose(f);
    return text;
}

int main(int argc, char **argv)
{
    char err[U2D_ERRLEN], *text = argc >= 3 ? read_file(argv[1]) : NULL;
    if (!text) { fprintf(stderr, "usage: bits ROBOT.urdf 0|1 [path]\n"); return 2; }
    u2d_urdf *u = u2d_is_osim(text) ? u2d_osim_parse(text, err) : u2d_urdf_parse(text, err);
    u2d_model *m = u ? u2d_model_compile(u, atoi(argv[2]), err) : NULL;
    if (!m) { fprintf(stderr, "%s\n", err); return 1; }
    if (argc > 3 && u2d_simd_select(argv[3]) != 0) {
        fprintf(stderr, "no SIMD path %s here\n", argv[3]);
        return 2;
    }
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nl = (size_t)m->nlink;
    double *q = malloc(sizeof(double) * N * nq), *v = malloc(sizeof(double) * N * nv);
    double *a = malloc(sizeof(double) * N * nv);
    double *out0 = calloc(N * (nv * nv + 3 * nl), sizeof(double));   /* hashed even on failure */
    double *out1 = calloc(N * (9 * nl + nv * nv), sizeof(double));
    double *out2 = calloc(N * nv * nv, sizeof(double));
    const double wrench[6] = {3.0, -1.5, 20.0, 0.4, -0.2, 0.1};   /* on the last body */
    const int wbody = m->nbody - 1;
    for (size_t i = 0; i < N * nq; i++) q[i] = wave(i, 37);
    for (size_t i = 0; i < N * nv; i++) {
        v[i] = wave(i, 21);
        a[i] = wave(i, 13);
    }
    for (int i = 1; i < m->nbody; i++)            /* unit quaternions for floating joints */
        if (m->jtype[i] == U2D_JOINT_FLOATING)
            for (size_t s = 0; s < N; s++) {
                double *x = q + s * nq + m->qadr[i] + 3;
                double n2 = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
                for (int k = 0; k < 4; k++) x[k] /= n2;
            }
    uint64_t h = fnv1a(q, sizeof(double) * N * nq, 14695981039346656037ull);
    h = fnv1a(a, sizeof(double) * N * nv, fnv1a(v, sizeof(double) * N * nv, h));
    printf("inputs %016llx\n", (unsigned long long)h);

    static const struct { const char *name; u2d_algo algo; } algos[] = {
        {"rnea", U2D_ALGO_RNEA}, {"crba", U2D_ALGO_CRBA}, {"aba", U2D_ALGO_ABA},
        {"fk", U2D_ALGO_FK}, {"rnea_deriv", U2D_ALGO_RNEA_DERIV},
        {"aba_deriv", U2D_ALGO_ABA_DERIV}};
    for (size_t k = 0; k < sizeof algos / sizeof algos[0]; k++) {
        const u2d_algo al = algos[k].algo;
        u2d_batch_args ar;
        memset(&ar, 0, sizeof ar);
        ar.in[0] = q; ar.in_size[0] = nq;
        ar.in[1] = v; ar.in_size[1] = nv;
        ar.in[2] = a; ar.in_size[2] = nv;
        ar.out[0] = out0;
        ar.out_size[0] = al == U2D_ALGO_CRBA ? nv * nv : al == U2D_ALGO_FK ? 3 * nl : nv;
        if (al == U2D_ALGO_FK) { ar.out[1] = out1; ar.out_size[1] = 9 * nl; }
        const int deriv = al == U2D_ALGO_RNEA_DERIV || al == U2D_ALGO_ABA_DERIV;
        if (deriv) {
            ar.out_size[0] = ar.out_size[1] = ar.out_size[2] = nv * nv;
            ar.out[1] = out1;
            ar.out[2] = out2;
            ar.nfext = 1;
            ar.fext_shared = 1;
            ar.fext_body = &wbody;
            ar.fext_wrench = wrench;
        }
        ar.gravity[2] = -9.81;
        size_t bad;
        u2d_status st = u2d_batch(m, al, N, 1, &ar, NULL, &bad);
        h = fnv1a(out0, sizeof(double) * N * ar.out_size[0], 14695981039346656037ull);
        if (al == U2D_ALGO_FK) h = fnv1a(out1, sizeof(double) * N * 9 * nl, h);
        if (deriv) {
            h = fnv1a(out1, sizeof(double) * N * nv * nv, h);
            h = fnv1a(out2, sizeof(double) * N * nv * nv, h);
        }
        printf("%s status %d bits %016llx\n", algos[k].name, (int)st, (unsigned long long)h);
    }
    u2d_model_free(m);
    u2d_urdf_free(u);
    free(text); free(q); free(v); free(a); free(out0); free(out1); free(out2);
    return 0;
}
