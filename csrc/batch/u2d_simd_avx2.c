/* u2d_simd_avx2.c: the algorithms over 4 samples at once, for x86-64 CPUs with AVX2 and FMA.
 * Only the instructions of this file use AVX2; u2d_simd.c calls it when the CPU has them. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("avx2,fma,tune=haswell")
/* tune=: the generic tuning splits every unaligned 256-bit load and store in two 128-bit
 * halves, and the lane arrays are only 8-byte aligned (they live in malloc'ed buffers) */
#define U2D_ISA avx2
#define U2D_LANES 4
#include "batch/u2d_simd_impl.h"
#else
typedef int u2d_simd_avx2_is_empty;          /* not an x86-64 build: the portable path only */
#endif
