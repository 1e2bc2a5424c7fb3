/* u2d_simd.c: which SIMD path the batch loop uses (see u2d_simd.h). */
#include <stdlib.h>
#include <string.h>
#include "batch/u2d_simd.h"
#include "model/u2d_port.h"

typedef struct {
    const char *name;
    u2d_simd_fn fn;
} simd_path;

static const simd_path paths[] = {
#ifdef U2D_X86_SIMD
    {"avx512", u2d_simd_run_avx512},
    {"avx2", u2d_simd_run_avx2},
#endif
#ifdef U2D_ARM_SIMD
    {"neon", u2d_simd_run_neon},
#endif
    {"scalar", NULL},
};
#define NPATHS (sizeof paths / sizeof paths[0])

static int cpu_has(const char *name)
{
#ifdef U2D_X86_SIMD
    if (!strcmp(name, "avx512")) return u2d_cpu_avx512();
    if (!strcmp(name, "avx2")) return u2d_cpu_avx2();
#endif
#ifdef U2D_ARM_SIMD
    if (!strcmp(name, "neon")) return 1;                 /* every arm64 CPU has NEON */
#endif
    return !strcmp(name, "scalar");
}

/* chosen once; a plain int index so that concurrent first calls agree without locks */
static volatile int current = -1;

static int choose(void)
{
    const char *env = getenv("URDF2DYN_SIMD");
    for (size_t k = 0; env && k < NPATHS; k++)
        if (!strcmp(env, paths[k].name) && cpu_has(env)) return (int)k;
    for (size_t k = 0; k < NPATHS; k++)
        if (cpu_has(paths[k].name)) return (int)k;
    return (int)NPATHS - 1;
}

static const simd_path *path(void)
{
    if (current < 0) current = choose();
    return &paths[current];
}

const char *u2d_simd_path(void) { return path()->name; }

u2d_simd_fn u2d_simd_kernel(void) { return path()->fn; }

int u2d_simd_select(const char *name)
{
    if (!name) {
        current = choose();
        return 0;
    }
    for (size_t k = 0; k < NPATHS; k++)
        if (!strcmp(name, paths[k].name) && cpu_has(name)) {
            current = (int)k;
            return 0;
        }
    return -1;
}
