/* bench_model.h: what the C benchmark programs share: a model from a file, the same
 * pseudo-random states in every program, and a clock. Header only: each program is built
 * from one command line (see its header comment). */
#ifndef BENCH_MODEL_H
#define BENCH_MODEL_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "model/u2d_model.h"

/* Seconds on the given clock: CLOCK_MONOTONIC for elapsed time, CLOCK_THREAD_CPUTIME_ID
 * for the time this thread ran (not inflated by waiting for a core on a shared machine). */
static inline double bench_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The compiled model of a URDF or .osim file, or NULL after saying why on stderr. */
static inline u2d_model *bench_load(const char *path, int floating)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL, err[U2D_ERRLEN] = "cannot read";
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && (text = malloc((size_t)n + 1))) {
        rewind(f);
        text[fread(text, 1, (size_t)n, f)] = '\0';
    }
    if (f) fclose(f);
    u2d_urdf *u = !text ? NULL : u2d_is_osim(text) ? u2d_osim_parse(text, err)
                                                   : u2d_urdf_parse(text, err);
    u2d_model *m = u ? u2d_model_compile(u, floating, err) : NULL;
    free(text);
    if (!m) {
        u2d_urdf_free(u);
        fprintf(stderr, "%s: %s\n", path, err);
    }
    return m;                   /* u stays: as the Python model does, keep it with m */
}

/* n samples of positions (quaternions normalized), speeds and accelerations in [-1, 1],
 * fixed numbers so that two programs or two builds see the same states. */
static inline void bench_states(const u2d_model *m, size_t n, double *q, double *v, double *a)
{
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    for (size_t i = 0; i < n * nq; i++) q[i] = (double)(i * 37 % 2001) / 1000.0 - 1.0;
    for (size_t i = 0; i < n * nv; i++) {
        v[i] = (double)(i * 21 % 2001) / 1000.0 - 1.0;
        a[i] = (double)(i * 13 % 2001) / 1000.0 - 1.0;
    }
    for (size_t s = 0; s < n; s++) u2d_normalize(m, q + s * nq, q + s * nq);
}
#endif
