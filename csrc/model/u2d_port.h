/* u2d_port.h: what the core needs from a compiler beyond C11, in one place.
 *
 * GCC and Clang (clang-cl too) have vector extensions, always_inline and CPU-feature builtins;
 * MSVC has none of them. Everything else in csrc/ is plain C11 and uses these names only:
 *   U2D_ALWAYS_INLINE      a function inlined even where the compiler would not choose to
 *   U2D_NOINLINE           a function kept out of its callers (a rare case off a hot loop)
 *   U2D_FLATTEN            every call in a function inlined where its callee is seen and
 *                          not U2D_NOINLINE (a hot loop over bodies; nothing elsewhere)
 *   U2D_OPAQUE             and its body unseen by them too (a compiler's fault, see below)
 *   U2D_HAVE_VECTORS       the compiler has vector_size vectors: the SIMD lane units exist
 *   U2D_X86_SIMD           and the target is x86-64: the AVX2 / AVX-512 units are compiled
 *   U2D_ARM_SIMD           and the target is arm64: the 2-lane NEON unit is compiled
 *   U2D_GCC_TARGETS        the ISA of a unit is set by #pragma GCC target (GCC only)
 *   u2d_cpu_avx2(), u2d_cpu_avx512()   whether this CPU and OS run those units
 *   u2d_thread_start/join  one worker thread (POSIX or Win32 threads; U2D_PORT_THREADS)
 * Defining U2D_NO_VECTORS (-DU2D_NO_VECTORS) builds as a compiler without vector extensions
 * would: the scalar path only. Defining U2D_CPUID detects features through cpuid even where
 * __builtin_cpu_supports exists. Both are there so the tests can check those builds here. */
#ifndef U2D_PORT_H
#define U2D_PORT_H

#include <stdlib.h>

#if defined(__GNUC__) || defined(__clang__)
#define U2D_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define U2D_ALWAYS_INLINE __forceinline
#else
#define U2D_ALWAYS_INLINE inline
#endif
#if defined(__GNUC__) || defined(__clang__)
#define U2D_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define U2D_NOINLINE __declspec(noinline)
#else
#define U2D_NOINLINE
#endif

#if defined(__GNUC__) || defined(__clang__)
#define U2D_FLATTEN __attribute__((flatten))
#else
#define U2D_FLATTEN
#endif

/* U2D_OPAQUE: out of line, and its callers assume nothing of what it reads or writes beyond
 * what its arguments allow. GCC 12 at -O1 and -O2 (not -O3) miscompiled the derivatives'
 * chain functions without it: IVOPTs addressed a struct member as MEM[0B + offset + ...]
 * (a TARGET_MEM_REF with a zero base), and ipa-modref took that for a NULL dereference,
 * stopped reading the block there and so left the stores after it out of the function's
 * summary; the caller then used the summary and lost those stores (gcc -fdump-tree-modref2-
 * details says "NULL memory access; terminating BB"; later GCCs are reported to build plain
 * MEM_REFs there instead, GCC commit 13dfb01e5c3, not checked here). noipa keeps every
 * caller from using a summary at all; tests/test_c_core.py's plain -O1 build guards it. */
#if defined(__GNUC__) && !defined(__clang__)
#define U2D_OPAQUE __attribute__((noipa))
#else
#define U2D_OPAQUE U2D_NOINLINE
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(U2D_NO_VECTORS)
#define U2D_HAVE_VECTORS 1
#endif
#if defined(U2D_HAVE_VECTORS) && (defined(__x86_64__) || defined(_M_X64))
#define U2D_X86_SIMD 1
#endif
#if defined(U2D_HAVE_VECTORS) && (defined(__aarch64__) || defined(_M_ARM64))
#define U2D_ARM_SIMD 1
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define U2D_GCC_TARGETS 1
#endif

/* Shuffles of two lane vectors by constant indices (the vector types are the SIMD unit's) */
#ifdef __clang__
#define U2D_SHUFFLE(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define U2D_SHUFFLE(a, b, ...) __builtin_shuffle(a, b, (u2d_mask){__VA_ARGS__})
#endif

/* CPU features. GCC's __builtin_cpu_supports reads what libgcc found at start-up; Clang's
 * needs compiler-rt's copy, which MSVC's linker does not bring and some runtimes leave empty
 * (zig's: every feature absent). So every compiler but GCC, and GCC with U2D_CPUID, asks
 * cpuid itself (leaf 7 for the features, xgetbv for the OS saving the wide registers). */
#ifdef U2D_X86_SIMD
#if defined(U2D_GCC_TARGETS) && !defined(U2D_CPUID)
static inline int u2d_cpu_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
static inline int u2d_cpu_avx512(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
}
#else
#ifdef _MSC_VER
#include <intrin.h>
static inline void u2d_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    int x[4];
    __cpuidex(x, (int)leaf, (int)sub);
    for (int k = 0; k < 4; k++) r[k] = (unsigned)x[k];
}
static inline unsigned long long u2d_xgetbv0(void) { return _xgetbv(0); }
#else
#include <cpuid.h>
static inline void u2d_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}
static inline unsigned long long u2d_xgetbv0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}
#endif
/* features: bit of ECX in leaf 1 (fma 12, osxsave 27), of EBX in leaf 7 (avx2 5, avx512f 16,
 * avx512dq 17); XCR0: SSE and AVX state (bits 1, 2), opmask and ZMM state (bits 5-7) */
static inline int u2d_cpu_os_saves(unsigned long long xcr0_bits)
{
    unsigned r[4];
    u2d_cpuid(0, 0, r);
    if (r[0] < 7) return 0;
    u2d_cpuid(1, 0, r);
    if (!(r[2] >> 27 & 1) || !(r[2] >> 12 & 1)) return 0;
    return (u2d_xgetbv0() & xcr0_bits) == xcr0_bits;
}
static inline int u2d_cpu_avx2(void)
{
    unsigned r[4];
    if (!u2d_cpu_os_saves(0x6)) return 0;
    u2d_cpuid(7, 0, r);
    return r[1] >> 5 & 1;
}
static inline int u2d_cpu_avx512(void)
{
    unsigned r[4];
    if (!u2d_cpu_os_saves(0xe6) || !u2d_cpu_avx2()) return 0;
    u2d_cpuid(7, 0, r);
    return (r[1] >> 16 & 1) && (r[1] >> 17 & 1);
}
#endif
#endif

/* One worker thread running fn(arg). Win32 threads on Windows (MinGW included: no
 * libwinpthread to ship beside the module), POSIX threads elsewhere. 0 when started.
 * Only where U2D_PORT_THREADS is defined first: <windows.h> is not for every file. */
#if defined(U2D_PORT_THREADS) && defined(_WIN32)
#include <windows.h>
#undef IN                /* windef.h's empty annotations: names u2d_batch.c uses */
#undef OUT
typedef HANDLE u2d_thread;
typedef struct { void *(*fn)(void *); void *arg; } u2d_thread_call;
static inline DWORD WINAPI u2d_thread_main(LPVOID p)
{
    u2d_thread_call c = *(u2d_thread_call *)p;
    free(p);
    c.fn(c.arg);
    return 0;
}
static inline int u2d_thread_start(u2d_thread *t, void *(*fn)(void *), void *arg)
{
    u2d_thread_call *c = malloc(sizeof *c);
    if (!c) return -1;
    c->fn = fn;
    c->arg = arg;
    *t = CreateThread(NULL, 0, u2d_thread_main, c, 0, NULL);
    if (!*t) free(c);
    return *t ? 0 : -1;
}
static inline void u2d_thread_join(u2d_thread t)
{
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
}
#elif defined(U2D_PORT_THREADS)
#include <pthread.h>
typedef pthread_t u2d_thread;
static inline int u2d_thread_start(u2d_thread *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg) == 0 ? 0 : -1;
}
static inline void u2d_thread_join(u2d_thread t) { pthread_join(t, NULL); }
#endif

#endif
