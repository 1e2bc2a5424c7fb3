/* bench_stream.c: how fast this machine writes memory, and in which pattern of stores.
 *
 *   cc -O2 -pthread -o bench_stream benchmarks/bench_stream.c   (bench_scaling.py builds it)
 *   ./bench_stream MB       prints one JSON line: GB/s with 1 and 2 threads, and their ratio,
 *                           into new memory and into memory written before
 *   ./bench_stream bw MB [REPS]
 *                           one thread: GB/s filling MB megabytes written before, plain and
 *                           non-temporal stores in address order, median of REPS (default 9)
 *                           passes in thread CPU time; one JSON line (bench_derivatives.py's
 *                           write-bandwidth bound)
 *   ./bench_stream lanes [MB [REPS [THREADS]]]
 *                           the store patterns of the SIMD batches into MB megabytes (default
 *                           64) written before, from one thread (pin it: taskset -c 1) or two
 *                           (THREADS 2, each half the rows): a table of GB/s, median of REPS
 *                           (default 7) passes in thread CPU time (the longer thread's), the
 *                           patterns taking turns
 *
 * "new": each pass allocates a fresh buffer of MB megabytes and fills it, half per thread, as
 * a batch call fills its freshly allocated result array (page faults included). "reused": the
 * same buffer every pass (bound by the memory bus once MB exceeds the caches). Best of 7
 * passes. An algorithm whose time goes into writing its results cannot speed up more than
 * these ratios.
 *
 * "lanes": a SIMD batch evaluates R samples at once (R = 4 on AVX2, 8 on AVX-512) and writes
 * their rows of n doubles, which lie back to back in the output, a block of R numbers per
 * row at a time: R rows written in turn, R * 8 bytes each, every row's lines left half
 * written while the other rows are. Each pattern below writes the same bytes:
 *   seq plain / seq nt       one row after the other, whole 64-byte lines (the bound)
 *   lanes plain              R rows interleaved, one R-double vector store per row and block
 *   lanes nt16               the same with 16-byte non-temporal stores (movntpd): what the
 *                            batches did before, partial lines of R rows open at once
 *   staged nt                the block rows first stored (plainly) into a buffer of R rows
 *                            that stays in the cache, then that buffer's bytes, which are
 *                            contiguous in the output, copied out in order: whole 64-byte
 *                            lines with full-width non-temporal stores (two 32-byte ones on
 *                            AVX2, one 64-byte one on AVX-512), the partial first and last
 *                            lines with plain stores
 *   staged plain             the same copy with plain stores
 * Row lengths: the human's 36 x 36 matrix (10 368 bytes: every row starts at the same offset
 * in its line) and talos' 38 x 38 (11 552 bytes: rows alternate between two offsets); the
 * output starts on a line (offset 0) or 16 bytes into one (where glibc's malloc puts a large
 * block, and so NumPy's arrays). */
#define _POSIX_C_SOURCE 199309L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define X86 1
#else
#define X86 0
#endif

typedef struct { char *p; size_t n; } span;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *fill(void *arg)
{
    span *s = arg;
    memset(s->p, 1, s->n);
    return NULL;
}

/* seconds to fill bytes with nt threads, into a new buffer or into reuse (then kept) */
static double pass(size_t bytes, int nt, char *reuse)
{
    char *buf = reuse ? reuse : malloc(bytes);
    if (!buf) return -1.0;
    span part[2] = {{buf, bytes / 2}, {buf + bytes / 2, bytes - bytes / 2}};
    if (nt == 1) part[0].n = bytes;
    pthread_t other;
    double t0 = now();
    if (nt == 2 && pthread_create(&other, NULL, fill, &part[1]) != 0) nt = 1, part[0].n = bytes;
    fill(&part[0]);
    if (nt == 2) pthread_join(other, NULL);
    double dt = now() - t0;
    volatile char sink = buf[bytes - 1];
    (void)sink;
    if (!reuse) free(buf);
    return dt;
}

static int threads_control(size_t bytes)
{
    char *kept = malloc(bytes);
    if (!kept) return 1;
    memset(kept, 0, bytes);
    double best[2][3] = {{1e30, 1e30, 1e30}, {1e30, 1e30, 1e30}};
    for (int rep = 0; rep < 7; rep++)              /* alternate, as the machine's speed drifts */
        for (int reused = 0; reused < 2; reused++)
            for (int nt = 1; nt <= 2; nt++) {
                double dt = pass(bytes, nt, reused ? kept : NULL);
                if (dt < 0) return 1;
                if (dt < best[reused][nt]) best[reused][nt] = dt;
            }
    free(kept);
    printf("{\"MB\": %.0f", bytes / 1e6);
    for (int reused = 0; reused < 2; reused++) {
        const double *b = best[reused];
        printf(", \"%s\": {\"GB/s 1 thread\": %.2f, \"GB/s 2 threads\": %.2f, \"ratio\": %.2f}",
               reused ? "reused" : "new", bytes / b[1] / 1e9, bytes / b[2] / 1e9, b[1] / b[2]);
    }
    printf("}\n");
    return 0;
}

/* ---- the lanes' store patterns ------------------------------------------------------- */

/* R doubles, 8-byte aligned like the lane code's vectors */
typedef double v4 __attribute__((vector_size(32), aligned(8), may_alias));
typedef double v8 __attribute__((vector_size(64), aligned(8), may_alias));

#define ATTR4 __attribute__((target("avx2")))
#define ATTR8 __attribute__((target("avx512f")))

/* the value written; volatile-loaded so that no pass is folded away */
static volatile double seed = 1.0;

/* one pattern over nrow rows of n doubles at dst (nrow a multiple of R); stage holds R rows */
typedef void (*pattern_fn)(double *dst, size_t nrow, size_t n, double *stage);

static inline void nt_line(double *d, const double *s)
{
#if X86
    for (int h = 0; h < 8; h += 2) _mm_stream_pd(d + h, _mm_loadu_pd(s + h));
#else
    memcpy(d, s, 64);
#endif
}

static void seq_plain(double *dst, size_t nrow, size_t n, double *stage)
{
    (void)stage;
    const double x = seed;
    for (size_t i = 0; i < nrow * n; i++) dst[i] = x;
}

static void seq_nt(double *dst, size_t nrow, size_t n, double *stage)
{
    const double x = seed;
    for (int k = 0; k < 8; k++) stage[k] = x;
    size_t i = 0, total = nrow * n;
    for (; i < total && (uintptr_t)(dst + i) % 64; i++) dst[i] = x;
    for (; i + 8 <= total; i += 8) nt_line(dst + i, stage);
    for (; i < total; i++) dst[i] = x;
}

/* the lanes' order: for each block k of R numbers, row l = 0 .. R-1 of the group gets it */
#define LANES(NAME, R, VT, ATTR, STORE)                                                     \
    ATTR static void NAME(double *dst, size_t nrow, size_t n, double *stage)                \
    {                                                                                       \
        (void)stage;                                                                        \
        const VT x = (VT){0} + seed;                                                        \
        for (size_t g = 0; g < nrow; g += R)                                                \
            for (size_t k = 0; k + R <= n; k += R)                                          \
                for (size_t l = 0; l < R; l++) {                                            \
                    double *p = dst + (g + l) * n + k;                                      \
                    STORE;                                                                  \
                }                                                                           \
    }

LANES(lanes4_plain, 4, v4, ATTR4, *(v4 *)p = x)
LANES(lanes8_plain, 8, v8, ATTR8, *(v8 *)p = x)
#if X86
LANES(lanes4_nt16, 4, v4, ATTR4,
      for (int h = 0; h < 4; h += 2) _mm_stream_pd(p + h, _mm_set_pd(x[h + 1], x[h])))
LANES(lanes8_nt16, 8, v8, ATTR8,
      for (int h = 0; h < 8; h += 2) _mm_stream_pd(p + h, _mm_set_pd(x[h + 1], x[h])))
#endif

/* one 64-byte line from src to the line dst: one full-width non-temporal store each
 * (SSE2 16 bytes, AVX 32, AVX-512 64) */
#if X86
ATTR4 static void nt_line4(double *d, const double *s)
{
    for (int h = 0; h < 8; h += 4) _mm256_stream_pd(d + h, _mm256_loadu_pd(s + h));
}
ATTR8 static void nt_line8(double *d, const double *s) { _mm512_stream_pd(d, _mm512_loadu_pd(s)); }
#else
#define nt_line4 nt_line
#define nt_line8 nt_line
#endif

typedef void (*line_fn)(double *, const double *);

/* the group's R rows into the stage in the lanes' order, then out in the output's order:
 * whole lines non-temporally (LINE), the partial first and last lines plainly */
#define STAGED(NAME, R, VT, ATTR, LINE)                                                     \
    ATTR static void NAME(double *dst, size_t nrow, size_t n, double *stage)                \
    {                                                                                       \
        const VT x = (VT){0} + seed;                                                        \
        const line_fn line = LINE;                                                          \
        for (size_t g = 0; g < nrow; g += R) {                                              \
            for (size_t k = 0; k + R <= n; k += R)                                          \
                for (size_t l = 0; l < R; l++) *(VT *)(stage + l * n + k) = x;              \
            double *d = dst + g * n;                                                        \
            size_t i = 0, total = R * n;                                                    \
            if (!line) {                                                                   \
                memcpy(d, stage, total * sizeof *d);                                        \
                continue;                                                                   \
            }                                                                               \
            for (; i < total && (uintptr_t)(d + i) % 64; i++) d[i] = stage[i];              \
            for (; i + 8 <= total; i += 8) line(d + i, stage + i);                          \
            for (; i < total; i++) d[i] = stage[i];                                         \
        }                                                                                   \
    }

STAGED(staged4_nt, 4, v4, ATTR4, nt_line4)
STAGED(staged8_nt, 8, v8, ATTR8, nt_line8)
STAGED(staged4_plain, 4, v4, ATTR4, NULL)
STAGED(staged8_plain, 8, v8, ATTR8, NULL)

typedef struct {
    const char *name;
    int lanes;               /* 0: sequential */
    pattern_fn fn[2];        /* [0] for 4 lanes (or sequential), [1] for 8 */
} pattern;

static const pattern patterns[] = {
    {"seq plain", 0, {seq_plain, NULL}},
    {"seq nt", 0, {seq_nt, NULL}},
    {"lanes plain", 1, {lanes4_plain, lanes8_plain}},
#if X86
    {"lanes nt16", 1, {lanes4_nt16, lanes8_nt16}},
#endif
    {"staged plain", 1, {staged4_plain, staged8_plain}},
    {"staged nt", 1, {staged4_nt, staged8_nt}},
};
#define NPAT (sizeof patterns / sizeof patterns[0])

typedef struct {
    const char *label;
    pattern_fn fn;
    size_t n, offset;         /* row length (doubles), bytes past a line the output starts */
    int lanes;
    double t[64];
} run;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* one thread's share of a pass: rows [0, nrow) at dst, its own stage, its CPU time */
typedef struct {
    pattern_fn fn;
    double *dst, *stage, secs;
    size_t nrow, n;
} share;

static void *run_share(void *arg)
{
    share *h = arg;
    double t0 = cpu_now();
    h->fn(h->dst, h->nrow, h->n, h->stage);
#if X86
    _mm_sfence();
#endif
    h->secs = cpu_now() - t0;
    return NULL;
}

/* seconds for nthread threads to write nrow rows of n doubles at dst in pattern fn, each
 * thread a contiguous share of whole groups: the longest thread CPU time among them */
static double pattern_pass(pattern_fn fn, double *dst, size_t nrow, size_t n, int nthread,
                           double *stages)
{
    share h[2];
    pthread_t other;
    const size_t half = nrow / 2 / 8 * 8;
    h[0] = (share){fn, dst, stages, 0.0, nthread == 2 ? half : nrow, n};
    h[1] = (share){fn, dst + half * n, stages + 8 * 38 * 38 + 8, 0.0, nrow - half, n};
    int two = nthread == 2 && pthread_create(&other, NULL, run_share, &h[1]) == 0;
    run_share(&h[0]);
    if (two) pthread_join(other, NULL);
    else if (nthread == 2) run_share(&h[1]);
    return h[0].secs > h[1].secs || nthread == 1 ? h[0].secs : h[1].secs;
}

static int lanes_table(size_t bytes, int reps, int nthread)
{
    if (reps > 64) reps = 64;
#if X86
    __builtin_cpu_init();
    const int has4 = __builtin_cpu_supports("avx2"), has8 = __builtin_cpu_supports("avx512f");
#else
    const int has4 = 0, has8 = 0;
#endif
    static const size_t rowlen[2] = {36 * 36, 38 * 38}, offsets[2] = {0, 16};
    run runs[64];
    int nrun = 0;
    for (size_t p = 0; p < NPAT; p++)
        for (int w = 0; w < (patterns[p].lanes ? 2 : 1); w++) {
            if (patterns[p].lanes && !(w ? has8 : has4)) continue;
            for (int ri = 0; ri < 2; ri++)
                for (int oi = 0; oi < 2; oi++) {
                    if (!patterns[p].lanes && (ri || oi)) continue;
                    runs[nrun++] = (run){patterns[p].name, patterns[p].fn[w], rowlen[ri],
                                         offsets[oi], patterns[p].lanes ? 4 << w : 0, {0}};
                }
        }
    char *raw = aligned_alloc(64, bytes + 128);
    double *stage = aligned_alloc(64, 2 * (8 * 38 * 38 + 8) * sizeof(double));
    if (!raw || !stage) return 1;
    memset(raw, 0, bytes + 128);
    for (int r = 0; r < reps; r++)                 /* take turns: the machine's speed drifts */
        for (int k = 0; k < nrun; k++) {
            run *u = &runs[k];
            const size_t n = u->n, nrow = bytes / (n * 8) / 8 * 8;
            u->t[r] = pattern_pass(u->fn, (double *)(raw + u->offset), nrow, n, nthread, stage);
        }
    printf("%d thread%s, %zu MB written before, thread CPU time (the longest thread's), "
           "median of %d passes\n\n", nthread, nthread > 1 ? "s" : "", bytes >> 20, reps);
    printf("%-13s %5s %9s %6s %7s\n", "pattern", "lanes", "row [B]", "offset", "GB/s");
    for (int k = 0; k < nrun; k++) {
        run *u = &runs[k];
        const size_t nrow = bytes / (u->n * 8) / 8 * 8;
        qsort(u->t, (size_t)reps, sizeof(double), cmp_double);
        char lanes[8] = "-";
        if (u->lanes) snprintf(lanes, sizeof lanes, "%d", u->lanes);
        printf("%-13s %5s %9zu %6zu %7.2f\n", u->label, lanes, u->n * 8, u->offset,
               (double)(nrow * u->n * 8) / u->t[reps / 2] / 1e9);
    }
    free(raw);
    free(stage);
    return 0;
}

static int bandwidth(size_t bytes, int reps)
{
    if (reps > 64) reps = 64;
    char *raw = aligned_alloc(64, bytes + 64);
    double *stage = aligned_alloc(64, 64);
    if (!raw || !stage) return 1;
    memset(raw, 0, bytes + 64);
    double t[2][64];
    const size_t n = bytes / 64 * 8;                        /* one "row" of whole lines */
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 2; k++) {
            double t0 = cpu_now();
            (k ? seq_nt : seq_plain)((double *)raw, 1, n, stage);
#if X86
            _mm_sfence();
#endif
            t[k][r] = cpu_now() - t0;
        }
    qsort(t[0], (size_t)reps, sizeof(double), cmp_double);
    qsort(t[1], (size_t)reps, sizeof(double), cmp_double);
    printf("{\"MB\": %.1f, \"plain GB/s\": %.2f, \"nt GB/s\": %.2f}\n", bytes / 1048576.0,
           (double)(n * 8) / t[0][reps / 2] / 1e9, (double)(n * 8) / t[1][reps / 2] / 1e9);
    free(raw);
    free(stage);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "bw"))
        return bandwidth((size_t)(atof(argv[2]) * (1 << 20)) / 64 * 64 + 64,
                         argc > 3 ? atoi(argv[3]) : 9);
    if (argc > 1 && !strcmp(argv[1], "lanes")) {
        const double mb = argc > 2 ? atof(argv[2]) : 64.0;
        const int threads = argc > 4 && atoi(argv[4]) == 2 ? 2 : 1;
        return lanes_table((size_t)(mb * (1 << 20)) / 64 * 64, argc > 3 ? atoi(argv[3]) : 7,
                           threads);
    }
    return threads_control((size_t)(argc > 1 ? atof(argv[1]) : 100.0) * 1000000);
}
