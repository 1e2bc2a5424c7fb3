/* u2d_ik.c: inverse kinematics, the pose that best fits measured markers, frame by frame.
 *
 * With model markers x_i(q) (a point fixed on a link), measured positions t_i, marker
 * weights w_i and coordinate tasks (coordinate c_j pulled towards a value r_j with weight
 * u_j), each frame minimises OpenSim's IK objective
 *
 *     f(q) = sum_i w_i |x_i(q) - t_i|^2 / W  +  sum_j u_j (q_cj - r_j)^2,   W = sum_i w_i
 *
 * over the coordinates that are not locked, inside the ranges given (lo <= q <= hi).
 * Markers missing in the frame (a NaN coordinate) drop out of both sums for that frame.
 * The marker term is the weighted mean square error, as Simbody's Markers assembly goal
 * that OpenSim's IK minimises: it is what makes marker and coordinate weights trade off
 * as they do in OpenSim.
 *
 * f is a sum of squares r^T r, r = [sqrt(w_i/W) (x_i - t_i); sqrt(u_j) (q_cj - r_j)], whose
 * Jacobian rows are sqrt(w_i/W) J_i (J_i the linear rows of marker i's frame Jacobian)
 * and sqrt(u_j) e_cj. Levenberg-Marquardt steps solve
 *
 *     (H + mu (diag H + eps)) dq = -g,    H = J^T J,  g = J^T r
 *
 * on the free coordinates (unlocked, and not pressed against a bound by the gradient),
 * move q (+) dq (u2d_integrate, so floating joints stay on their manifold), clip to the
 * ranges, and keep the step only if f went down (mu shrinks) or retry it shorter (mu
 * grows). A frame ends when the step no longer moves any coordinate by more than the
 * tolerance. u2d_ik_solve runs frames in order, each warm-started from the previous one.
 *
 * Coordinate couplers (OpenSim's CoordinateCouplerConstraints, q_d = s f(q_i)) hold in the
 * fit, as in OpenSim's IK tool: q_d follows q_i after every step, so a marker it moves sees
 * dq_d = s f'(q_i) dq_i; a dependent coordinate's column of the Jacobian joins its
 * independent one's, and the steps run over the independent coordinates.
 *
 * Everything lives in a caller-owned u2d_ik_work (one allocation, u2d_ik_work_new), so a
 * frame allocates nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/u2d_model.h"

struct u2d_ik_work_s {
    int nv, nmarker;
    double *s0;             /* (nv,6)     each joint column in world coordinates at the
                                          origin, [w; v_O]                               */
    double *IC;             /* (nbody,13) the markers of each subtree as a rigid body's
                                          inertia about the origin: m0, m1 (3), M2 (9)   */
    double *fC;             /* (nbody,6)  and their pull [fa; fl], summed the same way     */
    double *H, *A;          /* (nv,nv)    J^T J, and the damped system on the free set   */
    double *g, *dq, *b;     /* (nv)       gradient, step, packed right-hand side         */
    double *qtry;           /* (nq)       the trial configuration                        */
    double *pb;             /* (nmarker,3) each marker in its body's frame                */
    int *body;              /* (nmarker)  the body each marker rides on                  */
    int *freev;             /* (nv)       the coordinates a step may move                 */
    void *buffer;
};

u2d_ik_work *u2d_ik_work_new(const u2d_model *m, int nmarker)
{
    if (nmarker < 0) return NULL;
    size_t nv = (size_t)m->nv, nq = (size_t)m->nq, nk = (size_t)nmarker;
    size_t nd = 6 * nv + 19 * (size_t)m->nbody + 2 * nv * nv + 3 * nv + nq + 3 * nk;
    size_t ni = nk + nv;
    u2d_ik_work *iw = calloc(1, sizeof *iw);
    char *buf = calloc(1, nd * sizeof(double) + ni * sizeof(int) + 1);
    if (!iw || !buf) {
        free(iw);
        free(buf);
        return NULL;
    }
    double *d = (double *)buf;
    iw->s0 = d; d += 6 * nv;
    iw->IC = d; d += 13 * (size_t)m->nbody;
    iw->fC = d; d += 6 * (size_t)m->nbody;
    iw->H = d;  d += nv * nv;
    iw->A = d;  d += nv * nv;
    iw->g = d;  d += nv;
    iw->dq = d; d += nv;
    iw->b = d;  d += nv;
    iw->qtry = d; d += nq;
    iw->pb = d; d += 3 * nk;
    int *k = (int *)d;
    iw->body = k; k += nk;
    iw->freev = k;
    iw->nv = m->nv;
    iw->nmarker = nmarker;
    iw->buffer = buf;
    return iw;
}

void u2d_ik_work_free(u2d_ik_work *iw)
{
    if (!iw) return;
    free(iw->buffer);
    free(iw);
}

u2d_status u2d_ik_check(const u2d_model *m, const u2d_ik_problem *p)
{
    if (p->nmarker < 0 || p->ntask < 0 || p->max_iter < 1 || !(p->tolerance > 0))
        return U2D_ERR_ARGUMENT;
    for (int i = 0; i < p->nmarker; i++)
        if (p->link[i] < 0 || p->link[i] >= m->nlink || !(p->weight[i] >= 0) ||
            !isfinite(p->weight[i]))
            return U2D_ERR_ARGUMENT;
    for (int j = 0; j < p->ntask; j++)
        if (p->task_v[j] < 0 || p->task_v[j] >= m->nv || !(p->task_weight[j] >= 0) ||
            !isfinite(p->task_weight[j]))
            return U2D_ERR_ARGUMENT;
    if (p->ncoupler < 0) return U2D_ERR_ARGUMENT;
    for (int k = 0; k < p->ncoupler; k++) {
        const int *c = &p->coupler[5 * k];
        if (c[0] < 0 || c[0] >= m->nq || c[2] < 0 || c[2] >= m->nq || c[1] < 0 ||
            c[1] >= m->nv || c[3] < 0 || c[3] >= m->nv || c[1] == c[3] || c[4] < 0 ||
            c[4] >= m->nfunc || !isfinite(p->coupler_scale[k]))
            return U2D_ERR_ARGUMENT;
    }
    return U2D_OK;
}

/* ---- coordinate couplers ------------------------------------------------------- */

/* Coupler k's function at q: (s f, s f') of its independent coordinate. */
static void coupler_value(const u2d_model *m, const u2d_ik_problem *p, int k,
                          const double *q, double *value, double *slope)
{
    const int *c = &p->coupler[5 * k];
    double f[4];
    u2d_function_eval(m->func, m->fdata, c[4], q[c[2]], f);
    *value = p->coupler_scale[k] * f[0];
    *slope = p->coupler_scale[k] * f[1];
}

/* Each dependent coordinate computed from its independent one, in order. */
static void apply_couplers(const u2d_model *m, const u2d_ik_problem *p, double *q)
{
    for (int k = 0; k < p->ncoupler; k++) {
        double slope;
        coupler_value(m, p, k, q, &q[p->coupler[5 * k]], &slope);
    }
}

/* The steps' unknowns are the independent coordinates: qdot = T u with T the identity but
 * for column d, T[d][i] = s f'(q_i), so H <- T^T H T and g <- T^T g (a dependent coordinate's
 * column and row added into its independent one's, then zero), folded from the last coupler
 * back so that a chain reaches its root. */
static void fold_couplers(const u2d_model *m, u2d_ik_work *iw, const u2d_ik_problem *p,
                          const double *q)
{
    const int nv = m->nv;
    double *H = iw->H, *g = iw->g;
    for (int k = p->ncoupler - 1; k >= 0; k--) {
        const int d = p->coupler[5 * k + 1], i = p->coupler[5 * k + 3];
        double value, s;
        coupler_value(m, p, k, q, &value, &s);
        for (int a = 0; a < nv; a++) {
            H[(size_t)a * nv + i] += s * H[(size_t)a * nv + d];
            H[(size_t)a * nv + d] = 0;
        }
        for (int a = 0; a < nv; a++) {
            H[(size_t)i * nv + a] += s * H[(size_t)d * nv + a];
            H[(size_t)d * nv + a] = 0;
        }
        g[i] += s * g[d];
        g[d] = 0;
    }
}

/* Marker i's place on its body, from its link (constant for the whole trial). */
static void attach_markers(const u2d_model *m, const u2d_ik_problem *p, u2d_ik_work *iw)
{
    for (int i = 0; i < p->nmarker; i++) {
        const u2d_xform *X = &m->link_X[p->link[i]];        /* body -> link */
        double *pb = &iw->pb[3 * i];
        u2d_multv3(X->E, &p->pos[3 * i], pb);
        for (int k = 0; k < 3; k++) pb[k] += X->r[k];
        iw->body[i] = m->link_body[p->link[i]];
    }
}

static void marker_position(const u2d_work *w, const u2d_ik_work *iw, int i, double x[3])
{
    const u2d_xform *X = &w->Xa[iw->body[i]];               /* world -> body */
    u2d_multv3(X->E, &iw->pb[3 * i], x);
    for (int k = 0; k < 3; k++) x[k] += X->r[k];
}

static int present(const double t[3])
{
    return isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2]);
}

/* W: the total weight of the markers present in the frame (1 when none is). */
static double total_weight(const u2d_ik_problem *p, const double *target)
{
    double W = 0;
    for (int i = 0; i < p->nmarker; i++)
        if (present(&target[3 * i])) W += p->weight[i];
    return W > 0 ? W : 1;
}

/* f(q) at the placement in w, and (when err is given) every marker's distance. */
static double objective(const u2d_work *w, const u2d_ik_work *iw, const u2d_ik_problem *p,
                        const double *q, const double *target, const double *task_value,
                        double *err)
{
    double f = 0;
    const double W = total_weight(p, target);
    for (int i = 0; i < p->nmarker; i++) {
        const double *t = &target[3 * i];
        if (!present(t)) {
            if (err) err[i] = NAN;
            continue;
        }
        double x[3], e2 = 0;
        marker_position(w, iw, i, x);
        for (int k = 0; k < 3; k++) e2 += (x[k] - t[k]) * (x[k] - t[k]);
        f += p->weight[i] / W * e2;
        if (err) err[i] = sqrt(e2);
    }
    for (int j = 0; j < p->ntask; j++) {
        double e = q[p->qadr_task[j]] - task_value[j];
        f += p->task_weight[j] * e * e;
    }
    return f;
}

/* H = J^T J and g = J^T r at the placement in w (u2d_place_bodies done).
 *
 * Marker i's Jacobian column for joint column a is the velocity of the point x_i,
 * v_a + w_a x x_i, from the column's world spatial vector s_a = X_0j^-1 S_j = [w_a; v_a]
 * (the frame Jacobian of u2d_frames.c, world-aligned at the point). Then
 *
 *     sum_i w_i (v_a + w_a x x_i).(v_b + w_b x x_i) = s_a^T I s_b,
 *     I = [ M2  m1x ; m1x^T  m0 ],  m0 = sum w_i, m1 = sum w_i x_i,
 *                                   M2 = sum w_i (|x_i|^2 1 - x_i x_i^T):
 *
 * the markers weigh like point masses of their weights, and H is the mass matrix of that
 * body system, computed as CRBA computes one: each body's markers summed into I_b and into
 * the pull f_b = sum w_i [x_i x r_i; r_i] (r_i = x_i - t_i), composites IC and fC summed up
 * the tree, then H_ab = s_b^T IC_i s_a and g_a = s_a^T fC_i for joint a on body i and b on
 * i or an ancestor. */
static void normal_equations(const u2d_model *m, const u2d_work *w, u2d_ik_work *iw,
                             const u2d_ik_problem *p, const double *q, const double *target,
                             const double *task_value)
{
    const int nv = m->nv, nb = m->nbody;
    memset(iw->H, 0, sizeof(double) * (size_t)nv * nv);
    memset(iw->g, 0, sizeof(double) * (size_t)nv);
    memset(iw->IC, 0, sizeof(double) * 13 * (size_t)nb);
    memset(iw->fC, 0, sizeof(double) * 6 * (size_t)nb);
    const double W = total_weight(p, target);
    for (int i = 0; i < p->nmarker; i++) {
        const double *t = &target[3 * i];
        if (p->weight[i] == 0 || !present(t)) continue;
        const double wi = p->weight[i] / W;
        double x[3], r[3], xr[3], *I = &iw->IC[13 * iw->body[i]], *f = &iw->fC[6 * iw->body[i]];
        marker_position(w, iw, i, x);
        for (int k = 0; k < 3; k++) r[k] = x[k] - t[k];
        u2d_cross3(x, r, xr);
        const double xx = u2d_dot3(x, x);
        I[0] += wi;
        for (int k = 0; k < 3; k++) {
            I[1 + k] += wi * x[k];
            f[k] += wi * xr[k];
            f[3 + k] += wi * r[k];
            for (int l = 0; l < 3; l++) I[4 + 3 * k + l] += wi * ((k == l ? xx : 0) - x[k] * x[l]);
        }
    }
    for (int i = nb - 1; i > 0; i--) {              /* composites, leaves first */
        const int pi = m->parent[i];
        for (int k = 0; k < 13; k++) iw->IC[13 * pi + k] += iw->IC[13 * i + k];
        for (int k = 0; k < 6; k++) iw->fC[6 * pi + k] += iw->fC[6 * i + k];
    }
    for (int j = 1; j < nb; j++)
        for (int k = 0; k < m->jnv[j]; k++)
            u2d_xform_motion_inv(&w->Xa[j], &w->S[36 * j + 6 * k], &iw->s0[6 * (m->vadr[j] + k)]);
    for (int i = 1; i < nb; i++) {
        const double *I = &iw->IC[13 * i], *f = &iw->fC[6 * i];
        if (I[0] == 0) continue;                    /* no marker below: zero rows */
        for (int k = 0; k < m->jnv[i]; k++) {
            const int a = m->vadr[i] + k;
            const double *sa = &iw->s0[6 * a];
            double F[6], t[3];                      /* F = IC s_a */
            u2d_mulmv3(I + 4, sa, F);
            u2d_cross3(I + 1, sa + 3, t);
            for (int l = 0; l < 3; l++) F[l] += t[l];
            u2d_cross3(I + 1, sa, t);
            for (int l = 0; l < 3; l++) F[3 + l] = I[0] * sa[3 + l] - t[l];
            iw->g[a] = u2d_dot3(sa, f) + u2d_dot3(sa + 3, f + 3);
            for (int j = i; j > 0; j = m->parent[j])
                for (int c = m->vadr[j]; c < m->vadr[j] + m->jnv[j]; c++) {
                    if (j == i && c > a) continue;
                    const double *sc = &iw->s0[6 * c];
                    const double h = u2d_dot3(sc, F) + u2d_dot3(sc + 3, F + 3);
                    iw->H[(size_t)a * nv + c] = h;
                    iw->H[(size_t)c * nv + a] = h;
                }
        }
    }
    for (int j = 0; j < p->ntask; j++) {
        const int c = p->task_v[j];
        iw->H[(size_t)c * nv + c] += p->task_weight[j];
        iw->g[c] += p->task_weight[j] * (q[p->qadr_task[j]] - task_value[j]);
    }
}

/* Solve A x = b in place (A: n x n symmetric positive definite, Cholesky); 0 on success. */
static int cholesky_solve(double *A, double *b, int n)
{
    for (int j = 0; j < n; j++) {
        double d = A[(size_t)j * n + j];
        for (int k = 0; k < j; k++) d -= A[(size_t)j * n + k] * A[(size_t)j * n + k];
        if (!(d > 0)) return -1;
        d = sqrt(d);
        A[(size_t)j * n + j] = d;
        for (int i = j + 1; i < n; i++) {
            double s = A[(size_t)i * n + j];
            for (int k = 0; k < j; k++) s -= A[(size_t)i * n + k] * A[(size_t)j * n + k];
            A[(size_t)i * n + j] = s / d;
        }
    }
    for (int i = 0; i < n; i++) {                   /* L y = b */
        double s = b[i];
        for (int k = 0; k < i; k++) s -= A[(size_t)i * n + k] * b[k];
        b[i] = s / A[(size_t)i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {              /* L^T x = y */
        double s = b[i];
        for (int k = i + 1; k < n; k++) s -= A[(size_t)k * n + i] * b[k];
        b[i] = s / A[(size_t)i * n + i];
    }
    return 0;
}

/* Whether velocity coordinate c follows a coupler. */
static int is_dependent(const u2d_ik_problem *p, int c)
{
    for (int k = 0; k < p->ncoupler; k++)
        if (p->coupler[5 * k + 1] == c) return 1;
    return 0;
}

/* The coordinates a step may move: not locked, not a coupler's dependent, and not
 * held at a bound that the gradient pushes against (a descent step -g would leave the range
 * there). */
static int free_set(const u2d_model *m, u2d_ik_work *iw, const u2d_ik_problem *p,
                    const double *q)
{
    int nf = 0;
    for (int i = 1; i < m->nbody; i++)
        for (int k = 0; k < m->jnv[i]; k++) {
            const int c = m->vadr[i] + k;
            if (p->locked && p->locked[c]) continue;
            if (is_dependent(p, c)) continue;
            if (m->jnq[i] == m->jnv[i] && p->lower) {
                const double qc = q[m->qadr[i] + k];
                if (qc <= p->lower[c] && iw->g[c] > 0) continue;
                if (qc >= p->upper[c] && iw->g[c] < 0) continue;
            }
            iw->freev[nf++] = c;
        }
    return nf;
}

static void clip_to_ranges(const u2d_model *m, const u2d_ik_problem *p, double *q)
{
    if (!p->lower) return;
    for (int i = 1; i < m->nbody; i++)
        if (m->jnq[i] == m->jnv[i])
            for (int k = 0; k < m->jnq[i]; k++) {
                const int c = m->vadr[i] + k;
                double *qc = &q[m->qadr[i] + k];
                if (*qc < p->lower[c]) *qc = p->lower[c];
                if (*qc > p->upper[c]) *qc = p->upper[c];
            }
}

/* The damped step on the free set: dq = -(H + mu (diag H + eps))^-1 g, zero elsewhere. */
static int damped_step(u2d_ik_work *iw, int nf, double mu, double eps)
{
    const int nv = iw->nv;
    memset(iw->dq, 0, sizeof(double) * (size_t)nv);
    for (int a = 0; a < nf; a++) {
        const int ca = iw->freev[a];
        for (int b = 0; b < nf; b++)
            iw->A[(size_t)a * nf + b] = iw->H[(size_t)ca * nv + iw->freev[b]];
        iw->A[(size_t)a * nf + a] += mu * (iw->H[(size_t)ca * nv + ca] + eps) + eps;
        iw->b[a] = -iw->g[ca];
    }
    if (cholesky_solve(iw->A, iw->b, nf)) return -1;
    for (int a = 0; a < nf; a++) iw->dq[iw->freev[a]] = iw->b[a];
    return 0;
}

u2d_status u2d_ik_frame(const u2d_model *m, u2d_work *w, u2d_ik_work *iw,
                        const u2d_ik_problem *p, const double *target,
                        const double *task_value, double *q, double *err,
                        u2d_ik_report *report)
{
    attach_markers(m, p, iw);
    clip_to_ranges(m, p, q);
    apply_couplers(m, p, q);
    u2d_status st = u2d_place_bodies(m, w, q);
    if (st != U2D_OK) return st;
    double f = objective(w, iw, p, q, target, task_value, NULL), mu = 1e-3;
    int it = 0;
    for (; it < p->max_iter && isfinite(f); it++) {
        normal_equations(m, w, iw, p, q, target, task_value);
        fold_couplers(m, iw, p, q);
        const int nf = free_set(m, iw, p, q);
        double hmax = 0;                            /* eps: H's scale, for zero rows */
        for (int c = 0; c < m->nv; c++) hmax = fmax(hmax, iw->H[(size_t)c * m->nv + c]);
        const double eps = 1e-12 * (hmax > 0 ? hmax : 1);
        int accepted = 0;
        double moved = 0;
        for (int tries = 0; tries < 30 && !accepted; tries++) {
            if (damped_step(iw, nf, mu, eps)) {
                mu *= 10;
                continue;
            }
            st = u2d_integrate(m, q, iw->dq, 1.0, iw->qtry);
            if (st != U2D_OK) return st;
            clip_to_ranges(m, p, iw->qtry);
            apply_couplers(m, p, iw->qtry);
            if ((st = u2d_place_bodies(m, w, iw->qtry)) != U2D_OK) return st;
            const double ftry = objective(w, iw, p, iw->qtry, target, task_value, NULL);
            moved = 0;
            for (int c = 0; c < m->nv; c++) moved = fmax(moved, fabs(iw->dq[c]));
            if (ftry <= f) {
                accepted = 1;
                f = ftry;
                memcpy(q, iw->qtry, sizeof(double) * (size_t)m->nq);
                mu = fmax(mu / 3, 1e-12);
            } else if (moved < p->tolerance) {
                break;                              /* nowhere left to go downhill */
            } else {
                mu *= 10;                           /* shorter, and closer to -g */
            }
        }
        if (!accepted || moved < p->tolerance) break;
    }
    if ((st = u2d_place_bodies(m, w, q)) != U2D_OK) return st;   /* q's placement again */
    objective(w, iw, p, q, target, task_value, err);

    /* OpenSim's report, over the markers fitted (weight > 0): the sum and the maximum over
     * those present, the RMS as the IK tool's, sum / (markers fitted, missing ones too) */
    double sum = 0, worst = -1;
    int n = 0, fitted = 0, iworst = -1;
    for (int i = 0; i < p->nmarker; i++) {
        if (p->weight[i] == 0) continue;
        fitted++;
        if (!isfinite(err[i])) continue;
        sum += err[i] * err[i];
        n++;
        if (err[i] > worst) worst = err[i], iworst = i;
    }
    report->squared = sum;
    report->rms = n ? sqrt(sum / fitted) : NAN;
    report->max = n ? worst : NAN;
    report->worst = iworst;
    report->iterations = it;
    return U2D_OK;
}

u2d_status u2d_ik_solve(const u2d_model *m, u2d_work *w, u2d_ik_work *iw,
                        const u2d_ik_problem *p, size_t nframe, const double *target,
                        const double *task_value, const double *q0, double *q, double *err,
                        u2d_ik_report *report, size_t *bad)
{
    const size_t nq = (size_t)m->nq, nk = (size_t)p->nmarker, nt = (size_t)p->ntask;
    for (size_t s = 0; s < nframe; s++) {
        double *qs = q + s * nq;
        memcpy(qs, s == 0 ? q0 : qs - nq, sizeof(double) * nq);     /* warm start */
        u2d_status st = u2d_ik_frame(m, w, iw, p, target + 3 * nk * s, task_value + nt * s,
                                     qs, err + nk * s, &report[s]);
        if (st != U2D_OK) {
            *bad = s;
            return st;
        }
    }
    return U2D_OK;
}
