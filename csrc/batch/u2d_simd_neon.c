/* u2d_simd_neon.c: the algorithms over 2 samples at once, for arm64 (NEON's 128-bit vectors
 * are part of the base instruction set: no target pragma, no CPU check). Two lanes beat the
 * one-sample code by 1.6-2.1x at this width (benchmarks/bench_lanes.c, measured with SSE2's
 * 128-bit vectors on x86-64; docs/performance.rst). */
#include "model/u2d_port.h"
#if defined(U2D_HAVE_VECTORS) && (defined(__aarch64__) || defined(_M_ARM64))
#define U2D_ISA neon
#define U2D_LANES 2
#include "batch/u2d_simd_impl.h"
#else
typedef int u2d_simd_neon_is_empty;          /* not arm64 with vectors: no 2-lane unit */
#endif
