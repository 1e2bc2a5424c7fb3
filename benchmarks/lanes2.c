/* lanes2.c: the algorithms over 2 lanes of doubles (128-bit vectors, SSE2 on x86-64: the width
 * of arm64's NEON), for benchmarks/bench_lanes.c. Not part of the module. */
#define U2D_ISA lanes2
#define U2D_LANES 2
#include "batch/u2d_simd_impl.h"
