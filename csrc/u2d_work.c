/* u2d_work.c: the per-evaluation workspace, one allocation sized from the model. */
#include <stdlib.h>
#include "u2d_model.h"

u2d_work *u2d_work_new(const u2d_model *m)
{
    size_t nb = (size_t)m->nbody, nv = (size_t)m->nv, nq = (size_t)m->nq;
    u2d_work *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    size_t per_body = 6 + 6 + 6 + 36 + 6 + 6 + 6 + 36 + 6 + 36 + 36 + 6;
    size_t bytes = 2 * nb * sizeof(u2d_xform) + nb * sizeof(u2d_inertia)
                 + (nb * per_body + nv + 11 * nv + 2 * nq + 12 * nv) * sizeof(u2d_real);
    w->buffer = calloc(1, bytes);
    if (!w->buffer) { free(w); return NULL; }
    w->nbody = m->nbody;
    w->nq = m->nq;
    w->nv = m->nv;
    w->Xup = w->buffer;
    w->Xa = w->Xup + nb;
    w->IC = (u2d_inertia *)(w->Xa + nb);
    u2d_real *d = (u2d_real *)(w->IC + nb);
    w->v = d;         d += 6 * nb;
    w->a = d;         d += 6 * nb;
    w->f = d;         d += 6 * nb;
    w->S = d;         d += 36 * nb;
    w->cJ = d;        d += 6 * nb;
    w->c = d;         d += 6 * nb;
    w->fext = d;      d += 6 * nb;
    w->IA = d;        d += 36 * nb;
    w->pA = d;        d += 6 * nb;
    w->U = d;         d += 36 * nb;
    w->Dinv = d;      d += 36 * nb;
    w->u = d;         d += 6 * nb;
    w->zero = d;      d += nv;
    w->S0 = d;        d += 6 * nv;
    w->F = d;         d += 6 * nv;
    w->scratch = d;
    return w;
}

void u2d_work_free(u2d_work *w)
{
    if (!w) return;
    free(w->buffer);
    free(w);
}
