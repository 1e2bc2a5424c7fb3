/* u2d_real.h: the number type the algorithms are written in.
 *
 * Every algorithm is written once, over u2d_real. The ordinary build compiles it as double.
 * A SIMD translation unit (u2d_simd_avx2.c, u2d_simd_avx512.c) defines U2D_LANES and u2d_real
 * as a GCC/Clang vector of U2D_LANES doubles before including the algorithm sources, so the
 * same text then evaluates U2D_LANES samples at once, one per lane (structure of arrays across
 * samples). What the code needs beyond + - * / is here, in both forms:
 *   U2D_R(x)       a constant or model number as a u2d_real (broadcast to every lane)
 *   U2D_ANY(c)     whether the comparison c holds for any lane (a branch taken per sample)
 *   U2D_ALL(c)     whether it holds for every lane
 *   U2D_LANE(x, l) lane l of x, an lvalue (x itself in the ordinary build)
 *   u2d_sqrt, u2d_sincos   per lane
 * The joint-type switches are per body, so they are the same for every lane. */
#ifndef U2D_REAL_H
#define U2D_REAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef U2D_LANES
#define U2D_LANES 1
typedef double u2d_real;
typedef uint64_t u2d_ilane;                 /* an integer of a lane's width */
#define U2D_R(x) ((double)(x))
#define U2D_ANY(c) (c)
#define U2D_ALL(c) (c)
#define U2D_LANE(x, l) (x)
static inline u2d_real u2d_sqrt(u2d_real x) { return sqrt(x); }
static inline u2d_ilane u2d_bits(u2d_real x)
{
    u2d_ilane i;
    memcpy(&i, &x, sizeof i);
    return i;
}
static inline u2d_real u2d_from_bits(u2d_ilane i)
{
    u2d_real x;
    memcpy(&x, &i, sizeof x);
    return x;
}
#else
/* u2d_simd_impl.h has defined u2d_real, u2d_ilane (unsigned) and u2d_mask (signed, what
 * comparisons give) as vectors of U2D_LANES, and u2d_any_lane and u2d_all_lanes, the tests
 * of a mask's lanes (with the unit's intrinsics, which stay in that file) */
#define U2D_R(x) ((u2d_real){0} + (double)(x))
#define U2D_ANY(c) u2d_any_lane(c)
#define U2D_ALL(c) u2d_all_lanes(c)
#define U2D_LANE(x, l) ((x)[l])
static inline u2d_real u2d_sqrt(u2d_real x)
{
    for (int l = 0; l < U2D_LANES; l++) x[l] = sqrt(x[l]);
    return x;
}
static inline u2d_ilane u2d_bits(u2d_real x) { return (u2d_ilane)x; }
static inline u2d_real u2d_from_bits(u2d_ilane i) { return (u2d_real)i; }
#endif

/* p rounded up to a multiple of 64 bytes, a cache line: where the arrays of a buffer
 * allocated U2D_ALIGN_PAD bytes larger begin. A vector of 8 lanes (AVX-512) is a whole
 * line there, and one of 4 half of one; at malloc's 16-byte alignment three of every four
 * 8-lane loads and stores would straddle two lines. */
#define U2D_ALIGN_PAD 64
static inline void *u2d_align(void *p)
{
    return (void *)(((uintptr_t)p + (U2D_ALIGN_PAD - 1)) / U2D_ALIGN_PAD * U2D_ALIGN_PAD);
}

/* Copying and zeroing arrays of u2d_real, a number at a time. Not memcpy/memset: on the
 * vector types (8-byte aligned) GCC carries those out in 16-byte pieces, which the next
 * 32-byte load cannot forward from, or with `rep stos`, whose start-up outweighs a few
 * stores; perf showed them taking about a third of RNEA's time on the AVX2 path. */
static inline void u2d_copy(u2d_real *dst, const u2d_real *src, int n)
{
    for (int k = 0; k < n; k++) dst[k] = src[k];
}

static inline void u2d_zero(u2d_real *x, int n)
{
    for (int k = 0; k < n; k++) x[k] = U2D_R(0);
}

/* sin and cos of x together, to about 1 ulp, branch-free for |x| < 2^19 (joint angles).
 * Cody-Waite reduction x = k pi/2 + r with pi/2 split in three parts (the first two with
 * 33 significant bits, so k P1 and k P2 are exact), |r| <= pi/4, then the minimax
 * polynomials of fdlibm's __kernel_sin and __kernel_cos (Sun Microsystems, 1993; the
 * coefficients and the split of pi/2 are taken from there, the code is ours), and the
 * quadrant k mod 4 swaps and negates. Larger or non-finite arguments go to libm lane by
 * lane: a sample's bits never depend on the samples beside it (a NaN in one sample of a
 * SIMD group leaves the others as the scalar path computes them). */
static inline int u2d_sincos_in_range(double x) { return x < 524288.0 && x > -524288.0; }

static inline void u2d_sincos(u2d_real x, u2d_real *sin_out, u2d_real *cos_out)
{
    const uint64_t signbit = (uint64_t)1 << 63;
    /* |x| < 2^19 fails for NaN too: one test of |x| (its bits), not three of x */
    const u2d_real ax = u2d_from_bits(u2d_bits(x) & ~signbit);
    const int wide = !U2D_ALL(ax < 524288.0);
    u2d_real xr = x;                    /* the polynomial's argument: 0 in the libm lanes */
    if (wide)
        for (int l = 0; l < U2D_LANES; l++)
            if (!u2d_sincos_in_range(U2D_LANE(x, l))) U2D_LANE(xr, l) = 0.0;
    const double round = 0x1.8p52;                  /* adding it rounds to an integer */
    const u2d_real shifted = xr * 6.36619772367581382433e-01 + round;
    u2d_real k = shifted - round;
    u2d_real r = ((xr - k * 1.57079632673412561417e+00) - k * 6.07710050630396597660e-11)
               - k * 2.02226624879595063154e-21;
    u2d_real z = r * r;
    u2d_real ps = 8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04
                + z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08
                + z * 1.58969099521155010221e-10)));
    u2d_real s = r + (z * r) * (-1.66666666666666324348e-01 + z * ps);
    /* sin r has the sign of r on [-pi/4, pi/4]; the sum above loses it for r = -0 */
    s = u2d_from_bits((u2d_bits(s) & ~signbit) | (u2d_bits(r) & signbit));
    u2d_real pc = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03
                + z * (2.48015872894767294178e-05 + z * (-2.75573143513906633035e-07
                + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
    u2d_real hz = 0.5 * z, w = 1.0 - hz;
    u2d_real c = w + (((1.0 - w) - hz) + z * pc);
    /* quadrant: odd k swaps sin and cos; sin changes sign for k = 2, 3, cos for k = 1, 2 */
    /* k mod 4 from the bits of shifted, whose mantissa is 2^51 + k (a multiple of 4 plus k):
     * converting k to an integer has no AVX2 instruction and took eleven per call there */
    u2d_ilane q = u2d_bits(shifted);
    u2d_ilane swap = -(q & 1), keep = ~swap;
    u2d_ilane sb = u2d_bits(s), cb = u2d_bits(c);
    u2d_ilane so = (sb & keep) | (cb & swap), co = (cb & keep) | (sb & swap);
    *sin_out = u2d_from_bits(so ^ ((q & 2) << 62));
    *cos_out = u2d_from_bits(co ^ (((q + 1) & 2) << 62));
    if (wide)
        for (int l = 0; l < U2D_LANES; l++)
            if (!u2d_sincos_in_range(U2D_LANE(x, l))) {
                U2D_LANE(*sin_out, l) = sin(U2D_LANE(x, l));
                U2D_LANE(*cos_out, l) = cos(U2D_LANE(x, l));
            }
}

#endif
