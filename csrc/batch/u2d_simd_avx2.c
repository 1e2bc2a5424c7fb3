/* u2d_simd_avx2.c: the algorithms over 4 samples at once, for x86-64 CPUs with AVX2 and FMA.
 * Only the instructions of this file use AVX2; u2d_simd.c calls it when the CPU has them. */
#include "model/u2d_port.h"
#ifdef U2D_X86_SIMD
#ifdef U2D_GCC_TARGETS
#pragma GCC target("avx2,fma,tune=haswell")
#elif defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#endif
/* tune=: the generic tuning splits every unaligned 256-bit load and store in two 128-bit
 * halves, and the lane arrays are only 8-byte aligned (they live in malloc'ed buffers) */
#define U2D_ISA avx2
#define U2D_LANES 4
#include "batch/u2d_simd_impl.h"
#if !defined(U2D_GCC_TARGETS) && defined(__clang__)
#pragma clang attribute pop
#endif
#else
typedef int u2d_simd_avx2_is_empty;          /* no x86-64 vectors: the portable path only */
#endif
