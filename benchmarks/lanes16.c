/* lanes16.c: the algorithms over 16 lanes of doubles, two AVX-512 vectors per lane group, for
 * benchmarks/bench_lanes.c (does a wider group pay for its per-group tree loops and indices
 * twice as many samples?). Not part of the module. */
#include "model/u2d_port.h"
#ifdef U2D_GCC_TARGETS
#pragma GCC target("avx512f,avx512dq,avx2,fma,tune=skylake-avx512")
#elif defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx2,fma"))), apply_to = function)
#endif
#define U2D_ISA lanes16
#define U2D_LANES 16
#include "batch/u2d_simd_impl.h"
#if !defined(U2D_GCC_TARGETS) && defined(__clang__)
#pragma clang attribute pop
#endif
