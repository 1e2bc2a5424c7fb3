/* u2d_simd_impl.h: the body of a SIMD translation unit. Not a header to include elsewhere.
 *
 * The including file has set U2D_ISA (a name suffix), U2D_LANES and the instruction set
 * (#pragma GCC target). The algorithm sources are included here unchanged: each is still
 * written once, and this compiles it over lanes of samples under names suffixed with the
 * ISA. The model
 * is read as the plain build laid it out (every per-body array of u2d_real is doubles there)
 * and broadcast once per call into a lane copy; samples are transposed in and out a group of
 * lanes at a time, so the memory used beyond the outputs does not grow with N.
 *
 * No FMA contraction (the build's -ffp-contract=off stays): each lane then rounds exactly as
 * the portable code does, so batches equal single-sample calls bit for bit. */
#ifndef __clang__
/* keep u2d_copy/u2d_zero (u2d_real.h) as vector moves: not turned back into memcpy/memset */
#pragma GCC optimize("no-tree-loop-distribute-patterns")
#endif

/* A lane vector of doubles, and the integers of the same width (comparisons give u2d_mask);
 * 8-byte aligned: they live in malloc'ed buffers and in the caller's rows. */
typedef double u2d_real __attribute__((vector_size(8 * U2D_LANES), aligned(8)));
typedef long long u2d_mask __attribute__((vector_size(8 * U2D_LANES), aligned(8)));
typedef unsigned long long u2d_ilane __attribute__((vector_size(8 * U2D_LANES), aligned(8)));

#define U2D_CAT_(a, b) a##_##b
#define U2D_CAT(a, b) U2D_CAT_(a, b)
#define u2d_jcalc U2D_CAT(u2d_jcalc, U2D_ISA)
#define u2d_jcalc_work U2D_CAT(u2d_jcalc_work, U2D_ISA)
#define u2d_work_set_columns U2D_CAT(u2d_work_set_columns, U2D_ISA)
#define u2d_joint_chain U2D_CAT(u2d_joint_chain, U2D_ISA)
#define u2d_rnea U2D_CAT(u2d_rnea, U2D_ISA)
#define u2d_rnea_start U2D_CAT(u2d_rnea_start, U2D_ISA)
#define u2d_rnea_body_motion U2D_CAT(u2d_rnea_body_motion, U2D_ISA)
#define u2d_crba U2D_CAT(u2d_crba, U2D_ISA)
#define u2d_crba_fill U2D_CAT(u2d_crba_fill, U2D_ISA)
#define u2d_aba U2D_CAT(u2d_aba, U2D_ISA)
#define u2d_gather_fext U2D_CAT(u2d_gather_fext, U2D_ISA)
#define u2d_work_new U2D_CAT(u2d_work_new, U2D_ISA)
#define u2d_work_free U2D_CAT(u2d_work_free, U2D_ISA)
#define u2d_place_body U2D_CAT(u2d_place_body, U2D_ISA)
#define u2d_place_bodies U2D_CAT(u2d_place_bodies, U2D_ISA)
#define u2d_link_poses U2D_CAT(u2d_link_poses, U2D_ISA)
#define u2d_simd_run U2D_CAT(u2d_simd_run, U2D_ISA)
#define u2d_world_motion U2D_CAT(u2d_world_motion, U2D_ISA)
#define u2d_rnea_derivatives U2D_CAT(u2d_rnea_derivatives, U2D_ISA)
#define u2d_aba_derivatives U2D_CAT(u2d_aba_derivatives, U2D_ISA)

#include <stdint.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "model/u2d_port.h"
#ifdef U2D_X86_SIMD
#include <immintrin.h>
#endif

/* One test of the whole vector where the unit's instruction set has it: lane by lane, GCC
 * moved each lane to an integer register and or'ed them, eight instructions on AVX2 (a joint
 * sine's range check, once per one-axis body and sample group in RNEA and CRBA). */
static inline int u2d_any_lane(u2d_mask c)
{
#if defined(__AVX512DQ__) && U2D_LANES == 8
    return _mm512_movepi64_mask((__m512i)c) != 0;
#elif defined(__AVX__) && U2D_LANES == 4
    return !_mm256_testz_si256((__m256i)c, (__m256i)c);
#else
    int any = 0;
    for (int l = 0; l < U2D_LANES; l++) any |= c[l] != 0;
    return any;
#endif
}

static inline int u2d_all_lanes(u2d_mask c)
{
#if defined(__AVX512DQ__) && U2D_LANES == 8
    return _mm512_movepi64_mask((__m512i)c) == 0xff;
#elif defined(__AVX__) && U2D_LANES == 4
    return _mm256_movemask_pd((__m256d)c) == 0xf;
#else
    int all = 1;
    for (int l = 0; l < U2D_LANES; l++) all &= c[l] != 0;
    return all;
#endif
}
/* Every function of the unit hidden outside the module: in the shared library that Python
 * loads, a function of default visibility may be interposed, so GCC neither inlined the joint
 * model into RNEA and CRBA (U2D_FLATTEN) nor called it but through the PLT. The system
 * headers the sources use are included above, outside the hidden region. */
#if defined(__GNUC__) && !defined(_WIN32) && !defined(__CYGWIN__)
#pragma GCC visibility push(hidden)
#define U2D_UNIT_HIDDEN 1
#endif
#include "model/u2d_joint.c"
#include "algo/u2d_fext.c"
#include "algo/u2d_rnea.c"
#include "algo/u2d_crba.c"
#include "algo/u2d_aba.c"
#include "algo/u2d_place.c"
#include "algo/u2d_world.c"
#include "algo/u2d_derivatives.c"
#include "model/u2d_work.c"
#include "batch/u2d_simd.h"
#ifdef U2D_UNIT_HIDDEN
#pragma GCC visibility pop
#endif

/* Every number of n doubles at src, broadcast into n lanes at dst. */
static void broadcast(const void *src, size_t n, u2d_real *dst)
{
    const double *s = src;
    for (size_t k = 0; k < n; k++) dst[k] = U2D_R(s[k]);
}

/* The lane copy of the model's per-body numbers (the integer arrays are shared), in a
 * buffer returned to be freed. */
static void *lane_model(const u2d_model *m, u2d_model *lm)
{
    const size_t nb = (size_t)m->nbody, nx = sizeof(u2d_xform) / sizeof(u2d_real),
                 ni = sizeof(u2d_inertia) / sizeof(u2d_real);
    const size_t nl = (size_t)m->nlink;
    const size_t n = nb * (nx + ni + 3 + 1 + 6 + U2D_ELLIPSOID_N + U2D_CURVATURE_N + 3 + 9 + 1)
                   + nl * nx;
    void *buf = malloc(n * sizeof(u2d_real) + U2D_ALIGN_PAD);
    if (!buf) return NULL;
    u2d_real *d = u2d_align(buf);
    *lm = *m;
    lm->Xtree = (u2d_xform *)d; broadcast(m->Xtree, nb * nx, d); d += nb * nx;
    lm->inertia = (u2d_inertia *)d; broadcast(m->inertia, nb * ni, d); d += nb * ni;
    lm->axis = d; broadcast(m->axis, 3 * nb, d); d += 3 * nb;
    lm->ssign = d; broadcast(m->ssign, nb, d); d += nb;
    lm->plane = d; broadcast(m->plane, 6 * nb, d); d += 6 * nb;
    lm->ellipsoid = d; broadcast(m->ellipsoid, U2D_ELLIPSOID_N * nb, d);
    d += U2D_ELLIPSOID_N * nb;
    lm->curvature = d; broadcast(m->curvature, U2D_CURVATURE_N * nb, d);
    d += U2D_CURVATURE_N * nb;
    lm->com = d; broadcast(m->com, 3 * nb, d); d += 3 * nb;
    lm->Icom = d; broadcast(m->Icom, 9 * nb, d); d += 9 * nb;
    lm->armature = d; broadcast(m->armature, nb, d); d += nb;
    lm->link_X = (u2d_xform *)d; broadcast(m->link_X, nl * nx, d);
    return buf;
}

/* Shuffle of the lanes of a and b: index j < U2D_LANES picks a[j], U2D_LANES + j picks b[j]. */
/* U2D_SHUFFLE (model/u2d_port.h) */

#define U2D_UNPAREN(...) __VA_ARGS__

/* Swap the off-diagonal h x h blocks inside each 2h x 2h diagonal block of the
 * U2D_LANES x U2D_LANES matrix whose rows are r[0..U2D_LANES-1]. */
#define U2D_SWAP_BLOCKS(r, h, LO, HI)                                       \
    for (int i_ = 0; i_ < U2D_LANES; i_++)                                  \
        if (!(i_ & (h))) {                                                  \
            u2d_real lo_ = U2D_SHUFFLE(r[i_], r[i_ + (h)], U2D_UNPAREN LO); \
            r[i_ + (h)] = U2D_SHUFFLE(r[i_], r[i_ + (h)], U2D_UNPAREN HI);  \
            r[i_] = lo_;                                                    \
        }

/* Transpose the square block r in place: rows of lanes become rows of samples and back.
 * Swapping blocks of half, a quarter, ... the size transposes it (log2 U2D_LANES stages of
 * shuffles instead of U2D_LANES^2 single-number moves). */
static inline void transpose_block(u2d_real r[U2D_LANES])
{
#if U2D_LANES == 2
    U2D_SWAP_BLOCKS(r, 1, (0, 2), (1, 3))
#elif U2D_LANES == 4
    U2D_SWAP_BLOCKS(r, 2, (0, 1, 4, 5), (2, 3, 6, 7))
    U2D_SWAP_BLOCKS(r, 1, (0, 4, 2, 6), (1, 5, 3, 7))
#elif U2D_LANES == 8
    U2D_SWAP_BLOCKS(r, 4, (0, 1, 2, 3, 8, 9, 10, 11), (4, 5, 6, 7, 12, 13, 14, 15))
    U2D_SWAP_BLOCKS(r, 2, (0, 1, 8, 9, 4, 5, 12, 13), (2, 3, 10, 11, 6, 7, 14, 15))
    U2D_SWAP_BLOCKS(r, 1, (0, 8, 2, 10, 4, 12, 6, 14), (1, 9, 3, 11, 5, 13, 7, 15))
#elif U2D_LANES == 16
    U2D_SWAP_BLOCKS(r, 8, (0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23),
                    (8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31))
    U2D_SWAP_BLOCKS(r, 4, (0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27),
                    (4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31))
    U2D_SWAP_BLOCKS(r, 2, (0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29),
                    (2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31))
    U2D_SWAP_BLOCKS(r, 1, (0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30),
                    (1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31))
#else
#error "transpose_block: U2D_LANES must be 2, 4, 8 or 16"
#endif
}

/* U2D_LANES consecutive doubles of a sample's row, read or written as one vector (u2d_real
 * needs only 8-byte alignment); may_alias, since the row is an array of double. */
typedef u2d_real u2d_row __attribute__((may_alias));

/* Lane l of x[k .. k + U2D_LANES - 1] = sample s0 + l's row of the (N, n) array src there:
 * one square block, loaded whole and transposed. */
static inline void gather_block(const double *src, size_t n, size_t s0, size_t k, u2d_real *x)
{
    u2d_real t[U2D_LANES];
    for (int l = 0; l < U2D_LANES; l++) t[l] = *(const u2d_row *)(src + (s0 + (size_t)l) * n + k);
    transpose_block(t);
    for (int j = 0; j < U2D_LANES; j++) x[k + (size_t)j] = t[j];
}

/* Lane l of x[k] = sample s0 + l's row of the (N, n) array src, by square blocks. A row
 * whose length is not a multiple of U2D_LANES ends with a block that overlaps the one
 * before it (its shared numbers are moved twice, the same both times) instead of a number
 * at a time into each lane: on AVX-512 those single moves took a seventh of the human's
 * RNEA (36 numbers a row, 4 left over per input). */
static void gather(const double *src, size_t n, size_t s0, u2d_real *x)
{
    size_t k = 0;
    for (; k + U2D_LANES <= n; k += U2D_LANES) gather_block(src, n, s0, k, x);
    if (k < n && n >= U2D_LANES) {
        gather_block(src, n, s0, n - U2D_LANES, x);
        return;
    }
    for (; k < n; k++)
        for (int l = 0; l < U2D_LANES; l++) x[k][l] = src[(s0 + (size_t)l) * n + k];
}

/* Asks for the group of samples s0 .. s0 + U2D_LANES - 1 of the (N, n) array src (rows that
 * lie back to back) to be brought into the cache, when there is such a group before end: the
 * next group's inputs arrive while this one computes. Without it the human's RNEA on AVX-512
 * spent a seventh of its time in gather, waiting for those loads. */
static inline void prefetch_group(const double *src, size_t n, size_t s0, size_t end)
{
    if (s0 + U2D_LANES > end) return;
    const char *p = (const char *)(src + s0 * n), *e = (const char *)(src + (s0 + U2D_LANES) * n);
    for (; p < e; p += 64) __builtin_prefetch(p);
}

/* Sample s0 + l's row of the (N, n) array dst at k .. k + U2D_LANES - 1 = lane l of x there */
static inline void scatter_block(const u2d_real *x, size_t n, size_t s0, size_t k, double *dst)
{
    u2d_real t[U2D_LANES];
    for (int j = 0; j < U2D_LANES; j++) t[j] = x[k + (size_t)j];
    transpose_block(t);
    for (int l = 0; l < U2D_LANES; l++) *(u2d_row *)(dst + (s0 + (size_t)l) * n + k) = t[l];
}

/* How far ahead of its stores (doubles) a scatter asks for the lines of each row: an
 * output of a few MB lives in L3, each store waits in the store buffer for its line there,
 * and with the buffer full of such waits the core stopped (talos' mass matrix, 4 MB: about
 * a quarter faster with the lines asked for four ahead, docs/performance.rst). */
#define U2D_STORE_AHEAD 32

/* the prefetch U2D_STORE_AHEAD doubles after p (an address, which may lie past the output:
 * a prefetch never faults) */
static inline void prefetch_ahead(const double *p)
{
    __builtin_prefetch((const void *)((uintptr_t)p + U2D_STORE_AHEAD * sizeof(double)));
}

/* Sample s0 + l's row of the (N, n) array dst = lane l of x[k]; the inverse of gather (the
 * last block overlapping as there). Where zero[k / U2D_LANES] is set (zero may be NULL),
 * x[k ..] holds only zeros: they are stored without reading or transposing them. */
static void scatter_known(const u2d_real *x, size_t n, size_t s0, double *dst,
                          const unsigned char *zero)
{
    size_t k = 0;
    for (; k + U2D_LANES <= n; k += U2D_LANES) {
        for (int l = 0; l < U2D_LANES; l++) prefetch_ahead(dst + (s0 + (size_t)l) * n + k);
        if (zero && zero[k / U2D_LANES])
            for (int l = 0; l < U2D_LANES; l++)
                *(u2d_row *)(dst + (s0 + (size_t)l) * n + k) = U2D_R(0);
        else
            scatter_block(x, n, s0, k, dst);
    }
    if (k < n && n >= U2D_LANES) {
        scatter_block(x, n, s0, n - U2D_LANES, dst);
        return;
    }
    for (; k < n; k++)
        for (int l = 0; l < U2D_LANES; l++) dst[(s0 + (size_t)l) * n + k] = x[k][l];
}

/* The transposed block of x at k (lane l's numbers k .. k + U2D_LANES - 1 in t[l]), or zeros
 * where zero says that block holds only zeros. */
static inline void block_rows(const u2d_real *x, size_t k, const unsigned char *zero,
                              u2d_real t[U2D_LANES])
{
    if (zero && zero[k / U2D_LANES]) {
        for (int l = 0; l < U2D_LANES; l++) t[l] = U2D_R(0);
        return;
    }
    for (int j = 0; j < U2D_LANES; j++) t[j] = x[k + (size_t)j];
    transpose_block(t);
}

#ifdef U2D_GCC_TARGETS
/* scatter_known with every store but a few at a row's ends aligned to the vector's width.
 * A row of samples lies wherever the (N, n) array puts it: NumPy's arrays start 16 bytes
 * into a line, and a talos mass matrix (38 x 38 doubles) moves each next row by half a line,
 * so transposed straight out nearly every 64-byte store of the AVX-512 unit straddled two
 * lines, and writing the outputs (not the arithmetic) set the mass matrix's time. Here row l
 * is written from its first aligned number e_l on, each store joining the end of one
 * transposed block with the start of the next (one shuffle; the numbers, hence the bits,
 * are the same); the first block, the last whole one and the overlapping tail are stored as
 * scatter_known stores them, and each row's lines are asked for U2D_STORE_AHEAD ahead as
 * there. dst must be 8-byte aligned and n >= 2 U2D_LANES. */
static void scatter_aligned(const u2d_real *x, size_t n, size_t s0, double *dst,
                            const unsigned char *zero)
{
    const size_t width = sizeof(u2d_real);
    double *row[U2D_LANES];
    u2d_mask join[U2D_LANES];   /* lane j of row l's store: number e_l + j of prev, cur */
    u2d_real prev[U2D_LANES], cur[U2D_LANES];
    for (int l = 0; l < U2D_LANES; l++) {
        row[l] = dst + (s0 + (size_t)l) * n;
        const size_t e = (width - (uintptr_t)row[l] % width) % width / sizeof(double);
        for (int j = 0; j < U2D_LANES; j++) join[l][j] = (long long)e + j;
    }
    block_rows(x, 0, zero, prev);
    for (int l = 0; l < U2D_LANES; l++) *(u2d_row *)row[l] = prev[l];
    size_t k = U2D_LANES;
    for (; k + U2D_LANES <= n; k += U2D_LANES) {
        block_rows(x, k, zero, cur);
        for (int l = 0; l < U2D_LANES; l++) prefetch_ahead(row[l] + k);
#pragma GCC unroll 16
        for (int l = 0; l < U2D_LANES; l++) {
            double *at = row[l] + k - U2D_LANES + join[l][0];
            *(u2d_row *)at = __builtin_shuffle(prev[l], cur[l], join[l]);
            prev[l] = cur[l];
        }
    }
    for (int l = 0; l < U2D_LANES; l++) *(u2d_row *)(row[l] + k - U2D_LANES) = prev[l];
    if (k < n) {
        block_rows(x, n - U2D_LANES, NULL, cur);
        for (int l = 0; l < U2D_LANES; l++) *(u2d_row *)(row[l] + n - U2D_LANES) = cur[l];
    }
}
#define U2D_SCATTER_ALIGNED 1   /* GCC's __builtin_shuffle takes indices known at run time */
#endif

/* scatter_known, with aligned stores where this compiler and the rows allow them */
static void scatter_rows(const u2d_real *x, size_t n, size_t s0, double *dst,
                         const unsigned char *zero)
{
#ifdef U2D_SCATTER_ALIGNED
    if (n >= 2 * U2D_LANES && (uintptr_t)dst % sizeof(double) == 0) {
        scatter_aligned(x, n, s0, dst, zero);
        return;
    }
#endif
    scatter_known(x, n, s0, dst, zero);
}

static void scatter(const u2d_real *x, size_t n, size_t s0, double *dst)
{
    scatter_known(x, n, s0, dst, NULL);
}

/* Outputs far larger than the cache are written with non-temporal stores where the CPU
 * has them (x86): a normal store first reads the line it writes into the cache, which for
 * an output that leaves the cache anyway doubles the memory traffic. But a non-temporal
 * store is only cheap when the stores that fill a 64-byte line come together: the core
 * holds a partly written line in one of a few write-combining (fill) buffers, and a line
 * given up before it is whole goes to memory as a partial write. Transposed straight out of
 * the lanes, a group's rows are written a block of U2D_LANES numbers per row in turn, so
 * U2D_LANES rows have lines open at once (and, unless a row starts on a line, every block
 * splits over two): with 16-byte stores over 8 rows this ran 5-13x slower on an Intel
 * Sapphire Rapids than plain stores (docs/performance.rst, benchmarks/bench_stream.c).
 * So a streamed group is transposed into a stage, a buffer in the cache with the same
 * layout as the group's rows (which lie back to back in the output), and the stage is then
 * copied out in address order: every whole line with full-width non-temporal stores, one
 * line at a time, the partial lines at either end with plain stores. Such a call ends with
 * stream_end, which orders them before whatever the thread does next. */
#ifndef U2D_STREAM_BYTES
#define U2D_STREAM_BYTES ((size_t)8 << 20)
#endif

/* Where to stage a call's groups of nout outputs of n doubles per sample, nsample samples,
 * when they are to be streamed (large enough, every output 8-byte aligned); else NULL, and
 * the groups are transposed straight into the outputs. Freed with free(). */
static double *stream_stage(const u2d_batch_args *a, int nout, size_t n, size_t nsample)
{
#ifdef U2D_X86_SIMD
    if (nsample * (size_t)nout * n * sizeof(double) < U2D_STREAM_BYTES) return NULL;
    for (int o = 0; o < nout; o++)
        if ((uintptr_t)a->out[o] % sizeof(double)) return NULL;
    return malloc((U2D_LANES * n + 16) * sizeof(double));
#else
    (void)a; (void)nout; (void)n; (void)nsample;
    return NULL;
#endif
}

#ifdef U2D_X86_SIMD
/* count doubles from src to dst: every whole 64-byte line of dst with non-temporal stores as
 * wide as the unit's vectors, so that a line is whole after one (AVX-512), two (AVX) or four
 * stores in a row, the partial lines at either end with plain stores. (Out of line: no
 * locals, so an AddressSanitizer build never gives it a fake-stack frame, see
 * tests/test_c_core.py.) */
static U2D_NOINLINE void stream_out(double *dst, const double *src, size_t count)
{
    size_t i = 0;
    for (; i < count && (uintptr_t)(dst + i) % 64; i++) dst[i] = src[i];
    for (; i + 8 <= count; i += 8) {
#if defined(__AVX512F__)
        _mm512_stream_pd(dst + i, _mm512_loadu_pd(src + i));
#elif defined(__AVX__)
        _mm256_stream_pd(dst + i, _mm256_loadu_pd(src + i));
        _mm256_stream_pd(dst + i + 4, _mm256_loadu_pd(src + i + 4));
#else
        for (int h = 0; h < 8; h += 2) _mm_stream_pd(dst + i + h, _mm_loadu_pd(src + i + h));
#endif
    }
    for (; i < count; i++) dst[i] = src[i];
}
#endif

/* The group of samples s0 .. s0 + U2D_LANES - 1 of the (N, n) array dst = the lanes of x
 * (scatter_known), through stage when it is not NULL (see stream_stage). */
static void store_group(const u2d_real *x, size_t n, size_t s0, double *dst,
                        const unsigned char *zero, double *stage)
{
#ifdef U2D_X86_SIMD
    if (stage) {
        double *out = dst + s0 * n;
        /* the stage at the output's offset in its line: loads as aligned as the stores */
        double *st = (double *)(((uintptr_t)stage + 63) / 64 * 64
                                + (uintptr_t)out % 64);
        scatter_rows(x, n, 0, st, zero);
        stream_out(out, st, U2D_LANES * n);
        return;
    }
#else
    (void)stage;
#endif
    scatter_rows(x, n, s0, dst, zero);
}

static void stream_end(const double *stage)
{
#ifdef U2D_X86_SIMD
    if (stage) _mm_sfence();
#else
    (void)stage;
#endif
}

/* Lane l of x[k] = the (nfext, 6) wrenches of sample s0 + l, or the shared ones. */
static void gather_wrenches(const u2d_batch_args *a, size_t s0, u2d_real *x)
{
    const size_t n = 6 * (size_t)a->nfext;
    if (a->fext_shared) broadcast(a->fext_wrench, n, x);
    else gather(a->fext_wrench, n, s0, x);
}

/* Which groups of U2D_LANES consecutive entries of an (nv, nv) derivative matrix are zero
 * whatever the state (see rnea_partials): one flag per group, or NULL if out of memory.
 * Entry (r, c) is not when c is in the subtree of r (r .. subend[r] - 1) or above r, so each
 * row clears the groups of that range and of its ancestors: O(nv (nv + depth)) per call,
 * where testing every entry against its row's ancestors took an eighth of a human CRBA call
 * of 8 samples. */
static unsigned char *zero_groups(const u2d_work *w, int nv)
{
    const size_t nn = (size_t)nv * (size_t)nv, ngroup = nn / U2D_LANES;
    unsigned char *zero = malloc(ngroup + 1);
    if (!zero) return NULL;
    memset(zero, 1, ngroup + 1);
    for (int r = 0; r < nv; r++) {
        const size_t row = (size_t)r * (size_t)nv;
        for (int c = r; c < w->subend[r]; c++) zero[(row + (size_t)c) / U2D_LANES] = 0;
        for (int i = w->lambda[r]; i >= 0; i = w->lambda[i]) zero[(row + (size_t)i) / U2D_LANES] = 0;
    }
    return zero;
}

/* What a lane kernel keeps from one call to the next, in the workspace the caller lends
 * (w->lanes): the lane copy of the model, a lane workspace, which groups of an (nv, nv)
 * matrix are zero whatever the state, and the lanes of a group's inputs and outputs. Made
 * at the first call with that workspace, each part when a call first needs it, and reused
 * by every later call: made anew per call (a megabyte allocated and zeroed for the human on
 * AVX-512) they cost about 30 us, more than the arithmetic of a call of 16 samples of RNEA
 * (docs/performance.rst). A call reads nothing that an earlier one left but the zeros of
 * mat, which every algorithm keeps but the ABA derivatives (see lane_matrices). */
typedef struct {
    const u2d_model *m;     /* whose lane copy this is                                  */
    u2d_model lm;           /* the lane model: the numbers in lbuf, the rest m's        */
    void *lbuf;
    u2d_work *w;            /* the lane workspace                                       */
    unsigned char *zero;    /* zero_groups of an (nv, nv) matrix                        */
    u2d_real *x;            /* q (nq); qd, the third input, a vector output (nv each);
                               wrenches (nw); in xbuf                                   */
    void *xbuf;
    size_t nw;
    u2d_real *mat;          /* three (nv, nv) lane matrices (CRBA, derivatives) in matbuf,
                               or NULL                                                  */
    void *matbuf;
    int mat_dense;          /* mat holds non-zeros off the structure (ABA derivatives)    */
    u2d_real *poses;        /* forward kinematics: positions and rotations, or NULL     */
    void *posebuf;
} lane_space;

static void lanes_free(void *p)
{
    lane_space *L = p;
    free(L->posebuf);
    free(L->matbuf);
    free(L->xbuf);
    free(L->zero);
    u2d_work_free(L->w);
    free(L->lbuf);
    free(L);
}

/* n lanes at a cache line, in a buffer stored at *buf (to be freed); NULL if out of memory */
static u2d_real *lane_alloc(size_t n, void **buf, int zeroed)
{
    *buf = zeroed ? calloc(1, n * sizeof(u2d_real) + U2D_ALIGN_PAD)
                  : malloc(n * sizeof(u2d_real) + U2D_ALIGN_PAD);
    return *buf ? u2d_align(*buf) : NULL;
}

static lane_space *lanes_new(const u2d_model *m)
{
    lane_space *L = calloc(1, sizeof *L);
    if (!L) return NULL;
    L->m = m;
    L->lbuf = lane_model(m, &L->lm);
    L->w = L->lbuf ? u2d_work_new(&L->lm) : NULL;
    if (L->w) u2d_work_set_columns(&L->lm, L->w);   /* the lane model never changes */
    L->zero = L->w ? zero_groups(L->w, m->nv) : NULL;
    L->x = lane_alloc((size_t)m->nq + 3 * (size_t)m->nv, &L->xbuf, 0);
    if (!L->zero || !L->x) {
        lanes_free(L);
        return NULL;
    }
    return L;
}

/* The lane space for a call on m with nw numbers of wrenches per sample: w's (made there
 * if w has none for m on this path), or one of the call's own when w is NULL (the caller
 * then frees it with give_lanes). NULL when out of memory. */
static lane_space *take_lanes(const u2d_model *m, u2d_work *w, size_t nw)
{
    lane_space *L = w && w->lanes_free == lanes_free ? w->lanes : NULL;
    if (!L || L->m != m) {
        if (w && w->lanes) w->lanes_free(w->lanes);
        if (w) w->lanes = NULL;
        if (!(L = lanes_new(m))) return NULL;
        if (w) {
            w->lanes = L;
            w->lanes_free = lanes_free;
        }
    }
    if (nw > L->nw || !L->x) {                 /* x holds nothing from call to call */
        free(L->xbuf);
        L->x = lane_alloc((size_t)m->nq + 3 * (size_t)m->nv + nw, &L->xbuf, 0);
        L->nw = L->x ? nw : 0;
        if (!L->x) {
            if (!w) lanes_free(L);
            return NULL;
        }
    }
    return L;
}

static void give_lanes(u2d_work *w, lane_space *L)
{
    if (!w && L) lanes_free(L);
}

/* The three (nv, nv) lane matrices, zero wherever zero_groups' rule makes an entry zero
 * whatever the state. u2d_crba_fill and the RNEA derivatives write only the other entries,
 * so the zeros, made once, hold from group to group and call to call; the ABA derivatives
 * (dense) write every entry, so the zeros are made again before the others next run. */
static u2d_real *lane_matrices(lane_space *L, int dense)
{
    const size_t n = 3 * (size_t)L->m->nv * (size_t)L->m->nv;
    if (!L->mat) {
        if (!(L->mat = lane_alloc(n, &L->matbuf, 1))) return NULL;
    } else if (L->mat_dense && !dense) {
        memset(L->mat, 0, n * sizeof *L->mat);
    }
    L->mat_dense = dense;
    return L->mat;
}

/* Forward kinematics: every link's position (nlink,3) and rotation (nlink,3,3). */
static size_t run_fk(const u2d_model *m, u2d_work *lent, const u2d_batch_args *a, size_t begin,
                     size_t end)
{
    const size_t nq = (size_t)m->nq, npos = 3 * (size_t)m->nlink, nrot = 9 * (size_t)m->nlink;
    lane_space *L = take_lanes(m, lent, 0);
    size_t s = begin;
    if (L && !L->poses) L->poses = lane_alloc(npos + nrot, &L->posebuf, 0);
    if (L && L->poses) {
        u2d_real *q = L->x, *pos = L->poses, *rot = pos + npos;
        for (; s + U2D_LANES <= end; s += U2D_LANES) {
            gather(a->in[0], nq, s, q);
            prefetch_group(a->in[0], nq, s + U2D_LANES, end);
            if (u2d_place_bodies(&L->lm, L->w, q) != U2D_OK) break;
            u2d_link_poses(&L->lm, L->w, pos, rot);
            scatter(pos, npos, s, a->out[0]);
            scatter(rot, nrot, s, a->out[1]);
        }
    }
    give_lanes(lent, L);
    return s - begin;
}

/* The derivatives of RNEA (q, v, a -> dtau_dq, dtau_dv, M) or of ABA (q, v, tau ->
 * dqdd_dq, dqdd_dv, Minv): three (nv, nv) outputs per sample. The RNEA derivatives leave
 * the structural zeros of their lane matrices alone (rnea_partials), so those are stored
 * without being read (lane_matrices); the ABA derivatives are dense. */
static size_t run_deriv(const u2d_model *m, u2d_work *lent, u2d_algo algo,
                        const u2d_batch_args *a, size_t begin, size_t end)
{
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nn = nv * nv;
    const int rnea = algo == U2D_ALGO_RNEA_DERIV;
    lane_space *L = take_lanes(m, lent, 6 * (size_t)a->nfext);
    u2d_real *d0 = L ? lane_matrices(L, !rnea) : NULL;
    double *stage = stream_stage(a, 3, nn, end - begin);
    size_t s = begin;
    if (d0) {
        u2d_real *q = L->x, *qd = q + nq, *in2 = qd + nv, *wr = in2 + 2 * nv, *d1 = d0 + nn,
                 *d2 = d1 + nn;
        const unsigned char *zero = rnea ? L->zero : NULL;
        u2d_fext f = {a->nfext, a->fext_body, wr};
        const u2d_fext *fext = a->nfext > 0 ? &f : NULL;
        for (; s + U2D_LANES <= end; s += U2D_LANES) {
            gather(a->in[0], nq, s, q);
            gather(a->in[1], nv, s, qd);
            gather(a->in[2], nv, s, in2);
            prefetch_group(a->in[0], nq, s + U2D_LANES, end);
            prefetch_group(a->in[1], nv, s + U2D_LANES, end);
            prefetch_group(a->in[2], nv, s + U2D_LANES, end);
            if (fext) gather_wrenches(a, s, wr);
            u2d_status st = rnea
                ? rnea_partials(&L->lm, L->w, a->gravity, q, qd, in2, fext, d0, d1, d2)
                : u2d_aba_derivatives(&L->lm, L->w, a->gravity, q, qd, in2, fext, d0, d1, d2);
            if (st != U2D_OK) break;
            store_group(d0, nn, s, a->out[0], zero, stage);
            store_group(d1, nn, s, a->out[1], zero, stage);
            store_group(d2, nn, s, a->out[2], zero, stage);
        }
    }
    stream_end(stage);
    free(stage);
    give_lanes(lent, L);
    return s - begin;
}

size_t u2d_simd_run(const u2d_model *m, u2d_work *lent, u2d_algo algo, const u2d_batch_args *a,
                    size_t begin, size_t end)
{
    if (end - begin < U2D_LANES) return 0;
    if (algo == U2D_ALGO_FK) return run_fk(m, lent, a, begin, end);
    if (algo == U2D_ALGO_RNEA_DERIV || algo == U2D_ALGO_ABA_DERIV)
        return run_deriv(m, lent, algo, a, begin, end);
    if (algo != U2D_ALGO_RNEA && algo != U2D_ALGO_NLE && algo != U2D_ALGO_GRAVITY
        && algo != U2D_ALGO_CRBA && algo != U2D_ALGO_ABA)
        return 0;
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    const size_t nout = algo == U2D_ALGO_CRBA ? nv * nv : nv;
    const int with_fext = a->nfext > 0 && (algo == U2D_ALGO_RNEA || algo == U2D_ALGO_ABA);
    lane_space *L = take_lanes(m, lent, with_fext ? 6 * (size_t)a->nfext : 0);
    u2d_real *mat = L && algo == U2D_ALGO_CRBA ? lane_matrices(L, 0) : NULL;
    double *stage = stream_stage(a, 1, nout, end - begin);
    size_t s = begin;
    if (L && (mat || algo != U2D_ALGO_CRBA)) {
        u2d_real *q = L->x, *qd = q + nq, *qdd = qd + nv, *out = qdd + nv, *wr = out + nv;
        u2d_fext f = {a->nfext, a->fext_body, wr};
        const u2d_fext *fext = with_fext ? &f : NULL;
        if (mat) out = mat;                         /* u2d_crba_fill keeps its zeros */
        if (algo == U2D_ALGO_GRAVITY) u2d_zero(qd, (int)nv);
        if (algo == U2D_ALGO_GRAVITY || algo == U2D_ALGO_NLE) u2d_zero(qdd, (int)nv);
        for (; s + U2D_LANES <= end; s += U2D_LANES) {
            u2d_status st;
            gather(a->in[0], nq, s, q);
            prefetch_group(a->in[0], nq, s + U2D_LANES, end);
            if (fext) gather_wrenches(a, s, wr);
            if (algo == U2D_ALGO_CRBA) {
                st = u2d_crba_fill(&L->lm, L->w, q, out);
            } else {
                if (algo != U2D_ALGO_GRAVITY) {
                    gather(a->in[1], nv, s, qd);
                    prefetch_group(a->in[1], nv, s + U2D_LANES, end);
                }
                if (algo == U2D_ALGO_RNEA || algo == U2D_ALGO_ABA) {
                    gather(a->in[2], nv, s, qdd);
                    prefetch_group(a->in[2], nv, s + U2D_LANES, end);
                }
                st = algo == U2D_ALGO_ABA
                    ? u2d_aba(&L->lm, L->w, a->gravity, q, qd, qdd, fext, out)
                    : u2d_rnea(&L->lm, L->w, a->gravity, q, qd, qdd, fext, out);
            }
            if (st != U2D_OK) break;
            store_group(out, nout, s, a->out[0], algo == U2D_ALGO_CRBA ? L->zero : NULL, stage);
        }
    }
    stream_end(stage);
    free(stage);
    give_lanes(lent, L);
    return s - begin;
}
