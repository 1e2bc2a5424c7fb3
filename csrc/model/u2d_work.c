/* u2d_work.c: the per-evaluation workspace, one allocation sized from the model. */
#include <stdlib.h>
#include "model/u2d_model.h"

u2d_work *u2d_work_new(const u2d_model *m)
{
    size_t nb = (size_t)m->nbody, nv = (size_t)m->nv, nq = (size_t)m->nq, nchain = 0;
    u2d_work *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    for (int i = 1; i < m->nbody; i++) nchain += (size_t)u2d_moves_own_columns(m->jtype[i]);
    size_t per_body = 6 + 6 + 6 + 36 + 6 + 6 + 6 + 36 + 6 + 36 + 36 + 6;
    size_t bytes = 2 * nb * sizeof(u2d_xform) + nb * sizeof(u2d_inertia)
                 + (nb * per_body + nv + 11 * nv + 2 * nq + 12 * nv) * sizeof(u2d_real)
                 + (nb * (6 + 6 + 6 + 6 + 12) + 18 * nv + nv + nv * nv) * sizeof(u2d_real)
                 + nchain * sizeof(u2d_chain) + (2 * nv + nb) * sizeof(int);
    w->buffer = calloc(1, bytes + U2D_ALIGN_PAD);
    if (!w->buffer) { free(w); return NULL; }
    w->nbody = m->nbody;
    w->nq = m->nq;
    w->nv = m->nv;
    w->Xup = u2d_align(w->buffer);
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
    w->scratch = d;   d += 11 * nv + 2 * nq;
    w->ov = d;        d += 6 * nb;
    w->oa = d;        d += 6 * nb;
    w->oF = d;        d += 6 * nb;
    w->oFx = d;       d += 6 * nb;
    w->oB = d;        d += 12 * nb;
    w->dV = d;        d += 6 * nv;
    w->dA = d;        d += 6 * nv;
    w->dAv = d;       d += 6 * nv;
    w->qdd = d;       d += nv;
    w->L = d;         d += nv * nv;
    w->chain = (u2d_chain *)d;
    w->lambda = (int *)(w->chain + nchain);
    w->subend = w->lambda + nv;
    w->chain_of = w->subend + nv;
    for (int i = 0, k = 0; i < m->nbody; i++)
        w->chain_of[i] = i > 0 && u2d_moves_own_columns(m->jtype[i]) ? k++ : -1;
    for (int i = 1; i < m->nbody; i++) {
        const int p = m->parent[i];
        for (int k = 0; k < m->jnv[i]; k++) {
            w->lambda[m->vadr[i] + k] = k > 0 ? m->vadr[i] + k - 1
                                      : p > 0 ? m->vadr[p] + m->jnv[p] - 1 : -1;
            w->subend[m->vadr[i] + k] = m->vadr[i] + m->nvsub[i];
        }
    }
    return w;
}

void u2d_work_free(u2d_work *w)
{
    if (!w) return;
    u2d_work_free(w->next);
    if (w->lanes) w->lanes_free(w->lanes);
    free(w->buffer);
    free(w);
}
