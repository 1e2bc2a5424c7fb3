/* u2d_path.c: the lengths of an OpenSim model's geometry paths (muscle-tendon lengths) at one
 * configuration, as OpenSim's GeometryPath computes them.
 *
 * A path runs through its active points in order: fixed points, conditional points while
 * their coordinate is in range (within 1e-5), moving points where their functions of the
 * coordinates (clamped to the coordinates' ranges) put them. Each PathWrap then may replace
 * one segment within its range of points by the wrap over its object (u2d_wrap.c): the
 * segment whose wrap goes through the object, else the one whose wrap lengthens the path
 * least. With several wrap objects this repeats up to 8 times until the length changes by
 * less than 0.5 mm, as OpenSim does. The length is the sum of the straight segments and
 * the wrapped arcs. Wrap cylinders are evaluated; a path over an active sphere, ellipsoid
 * or torus is measured without it and flagged. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "algo/u2d_wrap.h"
#include "model/u2d_model.h"

typedef struct {
    double x[3];            /* world position                                              */
    int point;              /* the path point (u->osim.point), -1 for a wrap point          */
    int wrap;               /* wrap points: the path wrap they belong to, else -1           */
    int second;             /* wrap points: 0 the first of the pair, 1 the second           */
    double arc;             /* a pair's second wrap point: the length wrapped before it     */
} node;

/* Where OpenSim sums a wrap point from: the first world position asked of it in this
 * computation. Its Point caches getLocationInGround and the wrap iterations move the point
 * (setLocation) without refreshing that cache, so with several wrap objects the straight
 * segments run to where the wrap points were first placed while the arcs are the latest
 * (Rajagopal's gasmed_r at the default pose: 6 mm shorter than the path it draws). This
 * computes OpenSim's number. */
typedef struct {
    int cached[2];
    double x[2][3];
} wrap_points;

typedef struct {
    const u2d_model *m;
    const u2d_urdf *u;
    const u2d_work *w;
    const double *q;
    const int *qidx;        /* (ncoord) q index of each coordinate, -1 none                */
} ctx;

/* Link l's frame in the world: its body's, or (a link that is not a body) its offset from
 * that body composed into *X. */
static const u2d_xform *link_frame(const ctx *c, int l, u2d_xform *X)
{
    const u2d_model *m = c->m;
    const u2d_xform *Xb = &c->w->Xa[m->link_body[l]];
    if (m->link_is_body[l]) return Xb;
    u2d_xform_mul(&m->link_X[l], Xb, X);
    return X;
}

static void to_world(const ctx *c, int l, const double p[3], double out[3])
{
    u2d_xform X;
    const u2d_xform *Xl = link_frame(c, l, &X);
    for (int i = 0; i < 3; i++)
        out[i] = Xl->r[i] + Xl->E[i] * p[0] + Xl->E[3 + i] * p[1] + Xl->E[6 + i] * p[2];
}

static void to_link(const ctx *c, int l, const double p[3], double out[3])
{
    u2d_xform X;
    const u2d_xform *Xl = link_frame(c, l, &X);
    double d[3] = {p[0] - Xl->r[0], p[1] - Xl->r[1], p[2] - Xl->r[2]};
    for (int i = 0; i < 3; i++)
        out[i] = Xl->E[3 * i] * d[0] + Xl->E[3 * i + 1] * d[1] + Xl->E[3 * i + 2] * d[2];
}

static double coordinate(const ctx *c, int k)
{
    return k >= 0 && c->qidx[k] >= 0 ? c->q[c->qidx[k]] : 0.0;
}

static int active(const ctx *c, const u2d_osim_point *P)
{
    if (P->kind != U2D_POINT_CONDITIONAL) return 1;
    if (P->coord < 0) return 0;
    double x = coordinate(c, P->coord);
    return x >= P->range[0] - 1e-5 && x <= P->range[1] + 1e-5;
}

static void place_point(const ctx *c, const u2d_osim_point *P, double out[3])
{
    double f[3], p[3];
    memcpy(f, P->location, sizeof f);
    if (P->kind == U2D_POINT_MOVING)
        for (int k = 0; k < 3; k++) {
            double x = 0.0, v[4];
            if (P->mcoord[k] >= 0) {
                const u2d_coordinate *C = &c->u->coord[P->mcoord[k]];
                x = fmin(fmax(coordinate(c, P->mcoord[k]), C->range[0]), C->range[1]);
            }
            f[k] = 0.0;
            if (P->mfunc[k] >= 0) {
                u2d_function_eval(c->u->func, c->u->fdata, P->mfunc[k], x, v);
                f[k] = v[0];
            }
        }
    const double *E = P->X.E, *r = P->X.r;           /* frame point -> link point */
    for (int i = 0; i < 3; i++) p[i] = r[i] + E[i] * f[0] + E[3 + i] * f[1] + E[6 + i] * f[2];
    to_world(c, P->link, p, out);
}

static void world_to_wrap(const ctx *c, const u2d_osim_wrap *W, const double x[3], double o[3])
{
    double b[3], R[9];
    to_link(c, W->link, x, b);
    u2d_rot_xyz(W->rotation, R);      /* the wrap frame's axes in the body */
    for (int k = 0; k < 3; k++) b[k] -= W->translation[k];
    for (int i = 0; i < 3; i++) o[i] = R[i] * b[0] + R[3 + i] * b[1] + R[6 + i] * b[2];
}

static void wrap_to_world(const ctx *c, const u2d_osim_wrap *W, const double x[3], double o[3])
{
    double b[3], R[9];
    u2d_rot_xyz(W->rotation, R);
    for (int i = 0; i < 3; i++)
        b[i] = W->translation[i] + R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
    to_world(c, W->link, b, o);
}

static double distance(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The world position OpenSim's length sums use for node a (see wrap_points). */
static const double *ground(const node *a, wrap_points *wp)
{
    if (a->wrap < 0) return a->x;
    wrap_points *p = &wp[a->wrap];
    if (!p->cached[a->second]) {
        memcpy(p->x[a->second], a->x, sizeof a->x);
        p->cached[a->second] = 1;
    }
    return p->x[a->second];
}

static double total(const node *n, int len, wrap_points *wp)
{
    double L = 0.0;
    const double *prev = len ? ground(&n[0], wp) : NULL;
    for (int i = 1; i < len; i++) {
        const double *x = ground(&n[i], wp);
        L += n[i].wrap >= 0 && n[i].wrap == n[i - 1].wrap ? n[i].arc : distance(prev, x);
        prev = x;
    }
    return L;
}

/* Remove path wrap k's two points, if the path holds them. */
static void unwrap(node *n, int *len, int k)
{
    for (int i = 0; i < *len; i++)
        if (n[i].wrap == k) {
            memmove(&n[i], &n[i + 2], sizeof *n * (size_t)(*len - i - 2));
            *len -= 2;
            return;
        }
}

/* OpenSim's GeometryPath::applyWrapObjects over path p's nodes. */
static void apply_wraps(const ctx *c, const u2d_osim_path *p, node *n, int *len,
                        wrap_points *wp, int *flag)
{
    const u2d_osimdoc *d = &c->u->osim;
    int nw = p->nwrap, order[2] = {0, 1}, result[2] = {0, 0};
    if (nw < 1) return;
    double last = INFINITY;
    for (int kk = 0; kk < (nw < 2 ? 1 : 8); kk++) {
        for (int i = 0; i < nw; i++) {
            int k = i < 2 ? order[i] : i;
            const u2d_osim_pathwrap *pw = &d->pathwrap[p->wrap0 + k];
            const u2d_osim_wrap *W = &d->wrap[pw->wrap];
            if (i < 2) result[i] = U2D_WRAPS_NOT;
            unwrap(n, len, k);
            if (!W->active) continue;
            if (W->type != U2D_WRAP_CYLINDER) { *flag = 1; continue; }
            int from = pw->range[0] < 1 ? 0 : pw->range[0] - 1;
            int to = pw->range[1] < 1 ? p->npoint - 1 : pw->range[1] - 1;
            if (to > p->npoint - 1) to = p->npoint - 1;
            int jf = from, jr = to;
            while (jf <= to && !active(c, &d->point[p->point0 + jf])) jf++;
            while (jr >= from && !active(c, &d->point[p->point0 + jr])) jr--;
            if (jf > to || jr < from) return;
            int start = -1, end = -1;
            for (int j = 0; j < *len; j++) {
                if (n[j].point == p->point0 + jf) start = j;
                if (n[j].point == p->point0 + jr) end = j;
            }
            if (start < 0 || end < 0) return;
            u2d_wrap_result best, wr;
            int found = -1, code = U2D_WRAPS_NOT;
            double least = INFINITY;
            for (int a = start; a < end; a++) {
                const node *A = &n[a], *B = &n[a + 1];
                if (A->wrap >= 0 && B->wrap >= 0 &&
                    d->pathwrap[p->wrap0 + A->wrap].wrap == d->pathwrap[p->wrap0 + B->wrap].wrap)
                    continue;
                double p1[3], p2[3], r1[3], r2[3];
                world_to_wrap(c, W, A->x, p1);
                world_to_wrap(c, W, B->x, p2);
                code = u2d_wrap_cylinder(W->size[0], W->size[1], W->quadrant, nw == 1, p1, p2,
                                         &wr);
                if (code == U2D_WRAPS_MANDATORY) { best = wr; found = a; break; }
                if (code != U2D_WRAPS) continue;
                wrap_to_world(c, W, wr.r1, r1);
                wrap_to_world(c, W, wr.r2, r2);
                const double *a1 = ground(A, wp), *b1 = ground(B, wp);
                double change = distance(a1, r1) + wr.length + distance(r2, b1) -
                                distance(a1, b1);
                if (change < least) { least = change; best = wr; found = a; }
            }
            if (i < 2) result[i] = code;
            if (found < 0) continue;
            memmove(&n[found + 3], &n[found + 1], sizeof *n * (size_t)(*len - found - 1));
            *len += 2;
            n[found + 1] = (node){{0, 0, 0}, -1, k, 0, 0.0};
            n[found + 2] = (node){{0, 0, 0}, -1, k, 1, best.length};
            wrap_to_world(c, W, best.r1, n[found + 1].x);
            wrap_to_world(c, W, best.r2, n[found + 2].x);
        }
        double L = total(n, *len, wp);
        if (fabs(L - last) < 0.0005) break;
        last = L;
        if (kk == 0 && nw > 1 && result[0] == U2D_WRAPS_NOT && result[1] == U2D_WRAPS_INSIDE) {
            order[0] = 1;
            order[1] = 0;
            unwrap(n, len, 0);
        }
    }
}

u2d_status u2d_path_lengths(const u2d_model *m, const u2d_urdf *u, u2d_work *w,
                            const double *q, double *length, int *flag)
{
    const u2d_osimdoc *d = &u->osim;
    int most = 0;
    for (int p = 0; p < d->npath; p++)
        if (d->path[p].npoint + 2 * d->path[p].nwrap > most)
            most = d->path[p].npoint + 2 * d->path[p].nwrap;
    int *qidx = malloc(sizeof(int) * (size_t)(u->ncoord + 1));
    node *n = malloc(sizeof(node) * (size_t)(most + 1));
    wrap_points *wp = malloc(sizeof(wrap_points) * (size_t)(d->npathwrap + 1));
    if (!qidx || !n || !wp) {
        free(qidx);
        free(n);
        free(wp);
        return U2D_ERR_NOMEM;
    }
    for (int k = 0; k < u->ncoord; k++) qidx[k] = -1;
    for (int b = 1; b < m->nbody; b++) {
        int j = m->jurdf[b];
        if (j < 0 || u->joint[j].coord0 < 0) continue;
        for (int k = 0; k < u->joint[j].ncoord && k < m->jnq[b]; k++)
            qidx[u->joint[j].coord0 + k] = m->qadr[b] + k;
    }
    u2d_status st = u2d_place_bodies(m, w, q);
    ctx c = {m, u, w, q, qidx};
    for (int p = 0; p < d->npath && st == U2D_OK; p++) {
        const u2d_osim_path *P = &d->path[p];
        int len = 0;
        flag[p] = 0;
        for (int k = 0; k < P->npoint; k++) {
            const u2d_osim_point *pt = &d->point[P->point0 + k];
            if (!active(&c, pt)) continue;
            n[len] = (node){{0, 0, 0}, P->point0 + k, -1, 0, 0.0};
            place_point(&c, pt, n[len++].x);
        }
        memset(wp, 0, sizeof *wp * (size_t)(P->nwrap + 1));
        apply_wraps(&c, P, n, &len, wp, &flag[p]);
        length[p] = total(n, len, wp);
    }
    free(qidx);
    free(n);
    free(wp);
    return st;
}
