/* bench_stream.c: how fast this machine writes new memory from one thread and from two.
 *
 *   cc -O2 -pthread -o bench_stream benchmarks/bench_stream.c   (bench_scaling.py builds it)
 *   ./bench_stream MB       prints one JSON line: GB/s with 1 and 2 threads, and their ratio
 *
 * Each pass allocates a fresh buffer of MB megabytes and fills it, half per thread, as a batch
 * call fills its freshly allocated result array (page faults included); best of 7 passes. An
 * algorithm whose time goes into writing its results cannot speed up more than this ratio. */
#define _POSIX_C_SOURCE 199309L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { char *p; size_t n; } span;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *fill(void *arg)
{
    span *s = arg;
    memset(s->p, 1, s->n);
    return NULL;
}

/* seconds to allocate and fill bytes with nt threads */
static double pass(size_t bytes, int nt)
{
    char *buf = malloc(bytes);
    if (!buf) return -1.0;
    span part[2] = {{buf, bytes / 2}, {buf + bytes / 2, bytes - bytes / 2}};
    if (nt == 1) part[0].n = bytes;
    pthread_t other;
    double t0 = now();
    if (nt == 2 && pthread_create(&other, NULL, fill, &part[1]) != 0) nt = 1, part[0].n = bytes;
    fill(&part[0]);
    if (nt == 2) pthread_join(other, NULL);
    double dt = now() - t0;
    volatile char sink = buf[bytes - 1];
    (void)sink;
    free(buf);
    return dt;
}

int main(int argc, char **argv)
{
    size_t bytes = (size_t)(argc > 1 ? atof(argv[1]) : 100.0) * 1000000;
    double best[3] = {1e30, 1e30, 1e30};
    for (int rep = 0; rep < 7; rep++)              /* alternate, as the machine's speed drifts */
        for (int nt = 1; nt <= 2; nt++) {
            double dt = pass(bytes, nt);
            if (dt < 0) return 1;
            if (dt < best[nt]) best[nt] = dt;
        }
    printf("{\"MB\": %.0f, \"GB/s 1 thread\": %.2f, \"GB/s 2 threads\": %.2f, \"ratio\": %.2f}\n",
           bytes / 1e6, bytes / best[1] / 1e9, bytes / best[2] / 1e9, best[1] / best[2]);
    return 0;
}
