/* u2d_work.c: the per-evaluation workspace, one allocation sized from the model. */
#include <stdlib.h>
#include "u2d_model.h"

u2d_work *u2d_work_new(const u2d_model *m)
{
    size_t nb = (size_t)m->nbody;
    u2d_work *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    size_t nx = 2 * nb * sizeof(u2d_xform), nd = nb * (6 + 6 + 6 + 36 + 6 + 6) * sizeof(double);
    w->buffer = calloc(1, nx + nd);
    if (!w->buffer) { free(w); return NULL; }
    w->nbody = m->nbody;
    w->Xup = w->buffer;
    w->Xa = w->Xup + nb;
    double *d = (double *)(w->Xa + nb);
    w->v = d;         d += 6 * nb;
    w->a = d;         d += 6 * nb;
    w->f = d;         d += 6 * nb;
    w->S = d;         d += 36 * nb;
    w->cJ = d;        d += 6 * nb;
    w->fext = d;
    return w;
}

void u2d_work_free(u2d_work *w)
{
    if (!w) return;
    free(w->buffer);
    free(w);
}
