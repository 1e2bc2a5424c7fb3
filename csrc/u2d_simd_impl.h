/* u2d_simd_impl.h: the body of a SIMD translation unit. Not a header to include elsewhere.
 *
 * The including file has set U2D_ISA (a name suffix), U2D_LANES and the vector types of
 * u2d_real.h. The algorithm sources are included here unchanged: each is still written once,
 * and this compiles it over lanes of samples under names suffixed with the ISA. The model
 * is read as the plain build laid it out (every per-body array of u2d_real is doubles there)
 * and broadcast once per call into a lane copy; samples are transposed in and out a group of
 * lanes at a time, so the memory used beyond the outputs does not grow with N. */
#define U2D_CAT_(a, b) a##_##b
#define U2D_CAT(a, b) U2D_CAT_(a, b)
#define u2d_jcalc U2D_CAT(u2d_jcalc, U2D_ISA)
#define u2d_rnea U2D_CAT(u2d_rnea, U2D_ISA)
#define u2d_crba U2D_CAT(u2d_crba, U2D_ISA)
#define u2d_aba U2D_CAT(u2d_aba, U2D_ISA)
#define u2d_gather_fext U2D_CAT(u2d_gather_fext, U2D_ISA)
#define u2d_work_new U2D_CAT(u2d_work_new, U2D_ISA)
#define u2d_work_free U2D_CAT(u2d_work_free, U2D_ISA)
#define u2d_place_body U2D_CAT(u2d_place_body, U2D_ISA)
#define u2d_place_bodies U2D_CAT(u2d_place_bodies, U2D_ISA)
#define u2d_link_poses U2D_CAT(u2d_link_poses, U2D_ISA)
#define u2d_simd_run U2D_CAT(u2d_simd_run, U2D_ISA)

#include <stdlib.h>
#include "u2d_joint.c"
#include "u2d_fext.c"
#include "u2d_rnea.c"
#include "u2d_crba.c"
#include "u2d_aba.c"
#include "u2d_place.c"
#include "u2d_work.c"
#include "u2d_simd.h"

/* Every number of n doubles at src, broadcast into n lanes at dst. */
static void broadcast(const void *src, size_t n, u2d_real *dst)
{
    const double *s = src;
    for (size_t k = 0; k < n; k++) dst[k] = U2D_R(s[k]);
}

/* The lane copy of the model's per-body numbers; the integer arrays are shared. */
static u2d_real *lane_model(const u2d_model *m, u2d_model *lm)
{
    const size_t nb = (size_t)m->nbody, nx = sizeof(u2d_xform) / sizeof(u2d_real),
                 ni = sizeof(u2d_inertia) / sizeof(u2d_real);
    const size_t nl = (size_t)m->nlink;
    const size_t n = nb * (nx + ni + 3 + 1 + 6 + 3 + 9) + nl * nx;
    u2d_real *buf = malloc(n * sizeof *buf), *d = buf;
    if (!buf) return NULL;
    *lm = *m;
    lm->Xtree = (u2d_xform *)d; broadcast(m->Xtree, nb * nx, d); d += nb * nx;
    lm->inertia = (u2d_inertia *)d; broadcast(m->inertia, nb * ni, d); d += nb * ni;
    lm->axis = d; broadcast(m->axis, 3 * nb, d); d += 3 * nb;
    lm->ssign = d; broadcast(m->ssign, nb, d); d += nb;
    lm->plane = d; broadcast(m->plane, 6 * nb, d); d += 6 * nb;
    lm->com = d; broadcast(m->com, 3 * nb, d); d += 3 * nb;
    lm->Icom = d; broadcast(m->Icom, 9 * nb, d); d += 9 * nb;
    lm->link_X = (u2d_xform *)d; broadcast(m->link_X, nl * nx, d);
    return buf;
}

/* Lane l of x[k] = sample s0 + l's row of the (N, n) array src. */
static void gather(const double *src, size_t n, size_t s0, u2d_real *x)
{
    for (size_t k = 0; k < n; k++)
        for (int l = 0; l < U2D_LANES; l++) x[k][l] = src[(s0 + (size_t)l) * n + k];
}

static void scatter(const u2d_real *x, size_t n, size_t s0, double *dst)
{
    for (size_t k = 0; k < n; k++)
        for (int l = 0; l < U2D_LANES; l++) dst[(s0 + (size_t)l) * n + k] = x[k][l];
}

/* Lane l of x[k] = the (nfext, 6) wrenches of sample s0 + l, or the shared ones. */
static void gather_wrenches(const u2d_batch_args *a, size_t s0, u2d_real *x)
{
    const size_t n = 6 * (size_t)a->nfext;
    if (a->fext_shared) broadcast(a->fext_wrench, n, x);
    else gather(a->fext_wrench, n, s0, x);
}

/* Forward kinematics: every link's position (nlink,3) and rotation (nlink,3,3). */
static size_t run_fk(const u2d_model *m, const u2d_batch_args *a, size_t begin, size_t end)
{
    const size_t nq = (size_t)m->nq, npos = 3 * (size_t)m->nlink, nrot = 9 * (size_t)m->nlink;
    u2d_model lm;
    u2d_real *lbuf = lane_model(m, &lm);
    u2d_work *w = lbuf ? u2d_work_new(&lm) : NULL;
    u2d_real *x = malloc((nq + npos + nrot) * sizeof *x);
    size_t s = begin;
    if (w && x) {
        u2d_real *q = x, *pos = q + nq, *rot = pos + npos;
        for (; s + U2D_LANES <= end; s += U2D_LANES) {
            gather(a->in[0], nq, s, q);
            if (u2d_place_bodies(&lm, w, q) != U2D_OK) break;
            u2d_link_poses(&lm, w, pos, rot);
            scatter(pos, npos, s, a->out[0]);
            scatter(rot, nrot, s, a->out[1]);
        }
    }
    free(x);
    u2d_work_free(w);
    free(lbuf);
    return s - begin;
}

size_t u2d_simd_run(const u2d_model *m, u2d_algo algo, const u2d_batch_args *a, size_t begin,
                    size_t end)
{
    if (end - begin < U2D_LANES) return 0;
    if (algo == U2D_ALGO_FK) return run_fk(m, a, begin, end);
    if (algo != U2D_ALGO_RNEA && algo != U2D_ALGO_NLE && algo != U2D_ALGO_GRAVITY
        && algo != U2D_ALGO_CRBA && algo != U2D_ALGO_ABA)
        return 0;
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    const size_t nout = algo == U2D_ALGO_CRBA ? nv * nv : nv;
    const int with_fext = a->nfext > 0 && (algo == U2D_ALGO_RNEA || algo == U2D_ALGO_ABA);
    const size_t nw = with_fext ? 6 * (size_t)a->nfext : 0;
    u2d_model lm;
    u2d_real *lbuf = lane_model(m, &lm);
    u2d_work *w = lbuf ? u2d_work_new(&lm) : NULL;
    u2d_real *x = malloc((nq + 2 * nv + nout + nw) * sizeof *x);
    size_t s = begin;
    if (w && x) {
        u2d_real *q = x, *qd = q + nq, *qdd = qd + nv, *out = qdd + nv, *wr = out + nout;
        u2d_fext f = {a->nfext, a->fext_body, wr};
        const u2d_fext *fext = with_fext ? &f : NULL;
        memset(qd, 0, 2 * nv * sizeof *x);
        for (; s + U2D_LANES <= end; s += U2D_LANES) {
            u2d_status st;
            gather(a->in[0], nq, s, q);
            if (fext) gather_wrenches(a, s, wr);
            if (algo == U2D_ALGO_CRBA) {
                st = u2d_crba(&lm, w, q, out);
            } else {
                if (algo != U2D_ALGO_GRAVITY) gather(a->in[1], nv, s, qd);
                if (algo == U2D_ALGO_RNEA || algo == U2D_ALGO_ABA) gather(a->in[2], nv, s, qdd);
                st = algo == U2D_ALGO_ABA ? u2d_aba(&lm, w, a->gravity, q, qd, qdd, fext, out)
                                          : u2d_rnea(&lm, w, a->gravity, q, qd, qdd, fext, out);
            }
            if (st != U2D_OK) break;
            scatter(out, nout, s, a->out[0]);
        }
    }
    free(x);
    u2d_work_free(w);
    free(lbuf);
    return s - begin;
}
