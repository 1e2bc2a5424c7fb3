/* lanes8.c: the AVX-512 path's 8-lane code, compiled for AVX2 so that it runs on any CPU
 * with AVX2, including ones without AVX-512 (the machine the tests are written on).
 *
 * It includes csrc/batch/u2d_simd_impl.h exactly as csrc/batch/u2d_simd_avx512.c does, with the same
 * lane type (8 doubles); only the instruction set differs, and GCC then carries each 8-lane
 * operation out as two 4-lane ones. The driver checks this kernel against the one-sample
 * calls, so the 8-lane logic (groups of 8, the broadcast model, the transposes, the tail,
 * the per-lane branches) is tested even where u2d_simd_run_avx512 itself cannot run. */
#if defined(__x86_64__) && defined(__GNUC__)
#ifdef __clang__
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC target("avx2,fma,tune=haswell")
#endif
#pragma GCC diagnostic ignored "-Wpsabi"     /* 64-byte vectors in static functions only */
#define U2D_ISA lanes8
#define U2D_LANES 8
#include "batch/u2d_simd_impl.h"
#ifdef __clang__
#pragma clang attribute pop
#endif
#endif
