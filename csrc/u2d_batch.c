/* u2d_batch.c: the one loop over samples, and its threads. */
#include <pthread.h>
#include <stdlib.h>
#include "u2d_batch.h"

/* Fewer samples than this per thread are not worth a thread's start-up. */
#define U2D_MIN_SAMPLES_PER_THREAD 128

typedef struct {
    const u2d_model *m;
    u2d_sample_fn fn;
    const void *ctx;
    size_t begin, end;
    size_t bad;             /* first failing sample of the block, or end */
    u2d_status status;
} block;

static void *run_block(void *arg)
{
    block *b = arg;
    u2d_work *w = u2d_work_new(b->m);
    b->bad = b->end;
    b->status = U2D_OK;
    if (!w) {
        b->bad = b->begin;
        b->status = U2D_ERR_NOMEM;
        return NULL;
    }
    for (size_t s = b->begin; s < b->end; s++) {
        u2d_status st = b->fn(b->m, w, b->ctx, s);
        if (st != U2D_OK) {
            b->bad = s;
            b->status = st;
            break;
        }
    }
    u2d_work_free(w);
    return NULL;
}

u2d_status u2d_batch_run(const u2d_model *m, size_t n, int nthreads, u2d_sample_fn fn,
                         const void *ctx, size_t *bad)
{
    size_t nt = nthreads > 1 ? (size_t)nthreads : 1;
    if (nt > n / U2D_MIN_SAMPLES_PER_THREAD) nt = n / U2D_MIN_SAMPLES_PER_THREAD;
    if (nt < 1) nt = 1;

    block one, *blocks = nt == 1 ? &one : calloc(nt, sizeof *blocks);
    pthread_t *tid = nt == 1 ? NULL : calloc(nt, sizeof *tid);
    if (!blocks || (nt > 1 && !tid)) {
        if (blocks != &one) free(blocks);
        free(tid);
        *bad = 0;
        return U2D_ERR_NOMEM;
    }
    for (size_t t = 0; t < nt; t++)
        blocks[t] = (block){m, fn, ctx, n * t / nt, n * (t + 1) / nt, 0, U2D_OK};

    /* Block 0 runs on the calling thread; a thread that cannot start leaves its block
     * to the caller too, so a failure to spawn costs speed, never results. */
    char *started = nt == 1 ? NULL : calloc(nt, 1);
    for (size_t t = 1; t < nt && started; t++)
        started[t] = pthread_create(&tid[t], NULL, run_block, &blocks[t]) == 0;
    run_block(&blocks[0]);
    for (size_t t = 1; t < nt; t++) {
        if (started && started[t]) pthread_join(tid[t], NULL);
        else run_block(&blocks[t]);
    }

    u2d_status status = U2D_OK;
    *bad = n;
    for (size_t t = 0; t < nt; t++)
        if (blocks[t].status != U2D_OK) {   /* blocks are in sample order: first is lowest */
            status = blocks[t].status;
            *bad = blocks[t].bad;
            break;
        }
    if (blocks != &one) free(blocks);
    free(tid);
    free(started);
    return status;
}

/* ---- algorithms over samples ------------------------------------------- */

static u2d_status rnea_sample(const u2d_model *m, u2d_work *w, const void *ctx, size_t s)
{
    const u2d_rnea_args *a = ctx;
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    u2d_fext fext = {a->nfext, a->fext_body,
                     a->fext_wrench ? a->fext_wrench + (a->fext_shared ? 0 : s * 6 * (size_t)a->nfext)
                                    : NULL};
    return u2d_rnea(m, w, a->gravity, a->q + s * nq, a->qd + s * nv, a->qdd + s * nv,
                    a->nfext > 0 ? &fext : NULL, a->tau + s * nv);
}

u2d_status u2d_rnea_batch(const u2d_model *m, size_t n, int nthreads, const u2d_rnea_args *args,
                          size_t *bad)
{
    return u2d_batch_run(m, n, nthreads, rnea_sample, args, bad);
}
