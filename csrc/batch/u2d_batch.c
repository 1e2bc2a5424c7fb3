/* u2d_batch.c: the one loop over samples, and its threads. Each algorithm is called
 * through a few-line adapter that finds sample s in the argument arrays. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#define U2D_PORT_THREADS
#include "model/u2d_port.h"
#include "batch/u2d_batch.h"
#include "batch/u2d_simd.h"

/* Fewer samples than this per thread are not worth a thread's start-up. */
#define U2D_MIN_SAMPLES_PER_THREAD 128

typedef u2d_status (*sample_fn)(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                                size_t s);

#define IN(k) (a->in[k] + s * a->in_size[k])
#define OUT(k) (a->out[k] + s * a->out_size[k])

static const u2d_fext *sample_fext(const u2d_batch_args *a, size_t s, u2d_fext *f)
{
    if (a->nfext <= 0) return NULL;
    f->n = a->nfext;
    f->body = a->fext_body;
    f->wrench = a->fext_wrench + (a->fext_shared ? 0 : s * 6 * (size_t)a->nfext);
    return f;
}

static u2d_status do_rnea(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    u2d_fext f;
    return u2d_rnea(m, w, a->gravity, IN(0), IN(1), IN(2), sample_fext(a, s, &f), OUT(0));
}

static u2d_status do_crba(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    return u2d_crba(m, w, IN(0), OUT(0));
}

static u2d_status do_nle(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    return u2d_rnea(m, w, a->gravity, IN(0), IN(1), w->zero, NULL, OUT(0));
}

static u2d_status do_gravity(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    return u2d_rnea(m, w, a->gravity, IN(0), w->zero, w->zero, NULL, OUT(0));
}

static u2d_status do_coriolis(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    return u2d_coriolis(m, w, IN(0), IN(1), OUT(0));
}

static u2d_status do_aba(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    u2d_fext f;
    return u2d_aba(m, w, a->gravity, IN(0), IN(1), IN(2), sample_fext(a, s, &f), OUT(0));
}

static u2d_status do_fk(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    u2d_status st = u2d_place_bodies(m, w, IN(0));
    if (st == U2D_OK) u2d_link_poses(m, w, OUT(0), OUT(1));
    return st;
}

static u2d_status do_joint_pos(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                               size_t s)
{
    u2d_status st = u2d_kinematics(m, w, IN(0), NULL);
    if (st == U2D_OK) u2d_joint_positions(m, w, OUT(0));
    return st;
}

static u2d_status do_com(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    u2d_status st = u2d_kinematics(m, w, IN(0), NULL);
    if (st == U2D_OK) u2d_center_of_mass(m, w, OUT(0));
    return st;
}

static u2d_status do_jacobian(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                              size_t s)
{
    if (a->link < 0 || a->link >= m->nlink) return U2D_ERR_ARGUMENT;
    u2d_status st = u2d_kinematics(m, w, IN(0), NULL);
    if (st == U2D_OK) u2d_jacobian(m, w, a->link, a->point, OUT(0));
    return st;
}

static u2d_status do_link_vel(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                              size_t s)
{
    u2d_status st = u2d_kinematics(m, w, IN(0), IN(1));
    if (st == U2D_OK) u2d_link_velocities(m, w, OUT(0));
    return st;
}

static u2d_status do_kinetic(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    u2d_status st = u2d_kinematics(m, w, IN(0), IN(1));
    if (st == U2D_OK) *OUT(0) = u2d_kinetic_energy(m, w, IN(1));
    return st;
}

static u2d_status do_potential(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                               size_t s)
{
    u2d_status st = u2d_kinematics(m, w, IN(0), NULL);
    if (st == U2D_OK) *OUT(0) = u2d_potential_energy(m, w, a->gravity);
    return st;
}

static u2d_status do_integrate(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                               size_t s)
{
    (void)w;
    return u2d_integrate(m, IN(0), IN(1), a->dt, OUT(0));
}

static u2d_status do_passive(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                             size_t s)
{
    (void)w;
    return u2d_passive(m, IN(0), IN(1), OUT(0));
}

static u2d_status do_difference(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                                size_t s)
{
    (void)w;
    return u2d_difference(m, IN(0), IN(1), OUT(0));
}

static u2d_status do_normalize(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                               size_t s)
{
    (void)w;
    return u2d_normalize(m, IN(0), OUT(0));
}

static u2d_status do_rnea_deriv(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                                size_t s)
{
    u2d_fext f;
    return u2d_rnea_derivatives(m, w, a->gravity, IN(0), IN(1), IN(2), sample_fext(a, s, &f),
                                OUT(0), OUT(1), OUT(2));
}

static u2d_status do_aba_deriv(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                               size_t s)
{
    u2d_fext f;
    return u2d_aba_derivatives(m, w, a->gravity, IN(0), IN(1), IN(2), sample_fext(a, s, &f),
                               OUT(0), OUT(1), OUT(2));
}

static u2d_status do_ccrba(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s)
{
    return u2d_ccrba(m, w, IN(0), OUT(0));
}

static u2d_status do_centroidal(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                                size_t s)
{
    return u2d_centroidal(m, w, IN(0), IN(1), IN(2), OUT(0), OUT(1));
}

static u2d_status do_regressor(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                               size_t s)
{
    return u2d_regressor(m, w, a->gravity, IN(0), IN(1), IN(2), OUT(0));
}

static u2d_status check_frame(const u2d_model *m, const u2d_batch_args *a)
{
    int ok = a->link >= 0 && a->link < m->nlink && (int)a->reference >= 0 &&
             a->reference <= U2D_LOCAL_WORLD_ALIGNED;
    return ok ? U2D_OK : U2D_ERR_ARGUMENT;
}

static u2d_status do_frame_jacobian(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                                    size_t s)
{
    u2d_status st = check_frame(m, a);
    if (st == U2D_OK) st = u2d_kinematics_path(m, w, m->link_body[a->link], IN(0), NULL);
    if (st == U2D_OK) u2d_frame_jacobian(m, w, a->link, a->point, a->reference, OUT(0));
    return st;
}

static u2d_status do_frame_jacobian_dot(const u2d_model *m, u2d_work *w,
                                        const u2d_batch_args *a, size_t s)
{
    u2d_status st = check_frame(m, a);
    if (st == U2D_OK) st = u2d_kinematics_path(m, w, m->link_body[a->link], IN(0), IN(1));
    if (st == U2D_OK)
        st = u2d_frame_jacobian_dot(m, w, IN(0), IN(1), a->link, a->point, a->reference,
                                    OUT(0));
    return st;
}

static u2d_status do_frame_velocity(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                                    size_t s)
{
    u2d_status st = check_frame(m, a);
    if (st == U2D_OK) st = u2d_kinematics_path(m, w, m->link_body[a->link], IN(0), IN(1));
    if (st == U2D_OK) u2d_frame_velocity(m, w, a->link, a->point, a->reference, OUT(0));
    return st;
}

static u2d_status frame_acc(const u2d_model *m, u2d_work *w, const u2d_batch_args *a, size_t s,
                            int classical)
{
    u2d_status st = check_frame(m, a);
    if (st == U2D_OK) st = u2d_accelerations(m, w, m->link_body[a->link], IN(0), IN(1), IN(2));
    if (st == U2D_OK)
        u2d_frame_acceleration(m, w, a->link, a->point, a->reference, classical, OUT(0));
    return st;
}

static u2d_status do_frame_acceleration(const u2d_model *m, u2d_work *w,
                                        const u2d_batch_args *a, size_t s)
{
    return frame_acc(m, w, a, s, 0);
}

static u2d_status do_frame_classical(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                                     size_t s)
{
    return frame_acc(m, w, a, s, 1);
}

static const sample_fn algorithms[U2D_NALGO] = {
    [U2D_ALGO_RNEA] = do_rnea,           [U2D_ALGO_CRBA] = do_crba,
    [U2D_ALGO_NLE] = do_nle,             [U2D_ALGO_GRAVITY] = do_gravity,
    [U2D_ALGO_CORIOLIS] = do_coriolis,   [U2D_ALGO_ABA] = do_aba,
    [U2D_ALGO_FK] = do_fk,               [U2D_ALGO_JOINT_POS] = do_joint_pos,
    [U2D_ALGO_COM] = do_com,             [U2D_ALGO_JACOBIAN] = do_jacobian,
    [U2D_ALGO_LINK_VEL] = do_link_vel,   [U2D_ALGO_KINETIC] = do_kinetic,
    [U2D_ALGO_POTENTIAL] = do_potential, [U2D_ALGO_INTEGRATE] = do_integrate,
    [U2D_ALGO_DIFFERENCE] = do_difference, [U2D_ALGO_NORMALIZE] = do_normalize,
    [U2D_ALGO_RNEA_DERIV] = do_rnea_deriv, [U2D_ALGO_ABA_DERIV] = do_aba_deriv,
    [U2D_ALGO_CCRBA] = do_ccrba,         [U2D_ALGO_CENTROIDAL] = do_centroidal,
    [U2D_ALGO_REGRESSOR] = do_regressor,
    [U2D_ALGO_FRAME_JACOBIAN] = do_frame_jacobian,
    [U2D_ALGO_FRAME_JACOBIAN_DOT] = do_frame_jacobian_dot,
    [U2D_ALGO_FRAME_VELOCITY] = do_frame_velocity,
    [U2D_ALGO_FRAME_ACCELERATION] = do_frame_acceleration,
    [U2D_ALGO_FRAME_CLASSICAL] = do_frame_classical,
    [U2D_ALGO_PASSIVE] = do_passive,
};

#undef IN
#undef OUT

/* ---- the loop and its threads ------------------------------------------- */

typedef struct {
    const u2d_model *m;
    u2d_algo algo;
    sample_fn fn;
    const u2d_batch_args *args;
    u2d_work *work;         /* lent by the caller (thread_work), or NULL: allocate one */
    size_t begin, end;
    size_t bad;             /* first failing sample of the block, or end */
    u2d_status status;
} block;

static void *run_block(void *arg)
{
    block *b = arg;
    u2d_work *w = b->work ? b->work : u2d_work_new(b->m);
    b->bad = b->end;
    b->status = U2D_OK;
    if (!w) {
        b->bad = b->begin;
        b->status = U2D_ERR_NOMEM;
        return NULL;
    }
    /* the SIMD kernel takes whole groups of lanes; the rest, and any group that failed, go
     * one sample at a time */
    u2d_simd_fn simd = u2d_simd_kernel();
    size_t done = simd ? simd(b->m, w, b->algo, b->args, b->begin, b->end) : 0;
    for (size_t s = b->begin + done; s < b->end; s++) {
        u2d_status st = b->fn(b->m, w, b->args, s);
        if (st != U2D_OK) {
            b->bad = s;
            b->status = st;
            break;
        }
    }
    if (w != b->work) u2d_work_free(w);
    return NULL;
}

/* The workspace of thread t of a batch lent the workspace w: w's t-th in its chain, made
 * and linked in there when missing (kept for the next call), or NULL (the thread then
 * makes one of its own). */
static u2d_work *thread_work(const u2d_model *m, u2d_work *w, size_t t)
{
    for (; w && t > 0; t--) {
        if (!w->next) w->next = u2d_work_new(m);
        w = w->next;
    }
    return w;
}

static size_t block_start(size_t n, size_t t, size_t nt)
{
    return t == nt ? n : n * t / nt / U2D_SIMD_MAX_LANES * U2D_SIMD_MAX_LANES;
}

u2d_status u2d_batch(const u2d_model *m, u2d_algo algo, size_t n, int nthreads,
                     const u2d_batch_args *args, u2d_work *work, size_t *bad)
{
    *bad = 0;
    if ((int)algo < 0 || algo >= U2D_NALGO) return U2D_ERR_ARGUMENT;
    size_t nt = nthreads > 1 ? (size_t)nthreads : 1;
    if (nt > n / U2D_MIN_SAMPLES_PER_THREAD) nt = n / U2D_MIN_SAMPLES_PER_THREAD;
    if (nt < 1) nt = 1;

    block one, *blocks = nt == 1 ? &one : calloc(nt, sizeof *blocks);
    u2d_thread *tid = nt == 1 ? NULL : calloc(nt, sizeof *tid);
    char *started = nt == 1 ? NULL : calloc(nt, 1);
    if (!blocks || (nt > 1 && (!tid || !started))) {
        if (blocks != &one) free(blocks);
        free(tid);
        free(started);
        return U2D_ERR_NOMEM;
    }
    /* blocks start at multiples of the widest SIMD group, so that every sample meets the
     * same kernel (vector lane or scalar tail), and the same bits, whatever the threads */
    for (size_t t = 0; t < nt; t++)
        blocks[t] = (block){m, algo, algorithms[algo], args, thread_work(m, work, t),
                            block_start(n, t, nt), block_start(n, t + 1, nt), 0, U2D_OK};

    /* Block 0 runs on the calling thread; a thread that cannot start leaves its block
     * to the caller too, so a failure to spawn costs speed, never results. */
    for (size_t t = 1; t < nt; t++)
        started[t] = u2d_thread_start(&tid[t], run_block, &blocks[t]) == 0;
    run_block(&blocks[0]);
    for (size_t t = 1; t < nt; t++) {
        if (started[t]) u2d_thread_join(tid[t]);
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

/* ---- inverse kinematics: segments of a trial ------------------------------ */

/* A segment needs this many frames before a thread pays off (a frame costs tens of
 * microseconds; a cold start costs a few frames' iterations). */
#define U2D_MIN_FRAMES_PER_THREAD 32

typedef struct {
    const u2d_model *m;
    const u2d_ik_problem *p;
    const double *target, *task_value, *q0;
    double *q, *err;
    u2d_ik_report *report;
    size_t begin, end, bad;
    u2d_status status;
} ik_segment;

static void *run_ik_segment(void *arg)
{
    ik_segment *g = arg;
    const size_t nk = (size_t)g->p->nmarker, nt = (size_t)g->p->ntask, nq = (size_t)g->m->nq;
    u2d_work *w = u2d_work_new(g->m);
    u2d_ik_work *iw = u2d_ik_work_new(g->m, g->p->nmarker);
    g->status = U2D_ERR_NOMEM;
    g->bad = g->begin;
    if (w && iw) {
        size_t bad = 0;
        g->status = u2d_ik_solve(g->m, w, iw, g->p, g->end - g->begin,
                                 g->target + 3 * nk * g->begin, g->task_value + nt * g->begin,
                                 g->q0, g->q + nq * g->begin, g->err + nk * g->begin,
                                 g->report + g->begin, &bad);
        g->bad = g->begin + bad;
    }
    u2d_ik_work_free(iw);
    u2d_work_free(w);
    return NULL;
}

/* A segment's first frame, fitted from q0, can land in another minimum than the previous
 * frame's fit reaches when it warm-starts it (one thread, OpenSim's IK): an arm that the
 * markers barely hold turned over (Pose2Sim's Body25b demo: arm_flex_l 108 deg away from
 * OpenSim, with larger marker errors). At each seam, in order, the first frame is fitted again
 * from the previous frame's fit; where that differs from the segment's own start by more than
 * U2D_IK_SEAM (rad or m; a quaternion that only changed sign counts as a difference, which
 * costs time, not accuracy), the segment is fitted again from there, on this thread. The
 * result is then the one thread's minimum: bit for bit where a seam was redone, within the
 * fit's tolerance where it agreed (the later frames keep their own start; 5e-9 to 9e-9
 * measured on the bundled arm and human); a seam that agrees costs one frame, one that
 * differs the rest of its segment again, after the threads. */
#define U2D_IK_SEAM 1e-6

static u2d_status join_ik_seams(ik_segment *seg, size_t nt, size_t *bad)
{
    const u2d_model *m = seg[0].m;
    const u2d_ik_problem *p = seg[0].p;
    const size_t nk = (size_t)p->nmarker, ntask = (size_t)p->ntask, nq = (size_t)m->nq;
    u2d_work *w = u2d_work_new(m);
    u2d_ik_work *iw = u2d_ik_work_new(m, p->nmarker);
    double *q = malloc(sizeof(double) * (nq ? nq : 1));
    double *err = malloc(sizeof(double) * (nk ? nk : 1));
    u2d_status st = U2D_ERR_NOMEM;
    if (!w || !iw || !q || !err) goto done;
    st = U2D_OK;
    for (size_t t = 1; t < nt && st == U2D_OK; t++) {
        size_t b = seg[t].begin;
        u2d_ik_report report;
        memcpy(q, seg[t].q + nq * (b - 1), sizeof(double) * nq);
        st = u2d_ik_frame(m, w, iw, p, seg[t].target + 3 * nk * b,
                          seg[t].task_value + ntask * b, q, err, &report);
        if (st != U2D_OK) {
            *bad = b;
            break;
        }
        int same = 1;
        for (size_t i = 0; i < nq && same; i++)
            same = fabs(q[i] - seg[t].q[nq * b + i]) <= U2D_IK_SEAM;
        if (same) continue;
        size_t failed = 0;
        st = u2d_ik_solve(m, w, iw, p, seg[t].end - b, seg[t].target + 3 * nk * b,
                          seg[t].task_value + ntask * b, seg[t].q + nq * (b - 1),
                          seg[t].q + nq * b, seg[t].err + nk * b, seg[t].report + b, &failed);
        if (st != U2D_OK) *bad = b + failed;
    }
done:
    free(err);
    free(q);
    u2d_ik_work_free(iw);
    u2d_work_free(w);
    return st;
}

u2d_status u2d_batch_ik(const u2d_model *m, const u2d_ik_problem *p, size_t nframe,
                        int nthreads, const double *target, const double *task_value,
                        const double *q0, double *q, double *err, u2d_ik_report *report,
                        size_t *bad)
{
    *bad = 0;
    u2d_status st = u2d_ik_check(m, p);
    if (st != U2D_OK) return st;
    size_t nt = nthreads > 1 ? (size_t)nthreads : 1;
    if (nt > nframe / U2D_MIN_FRAMES_PER_THREAD) nt = nframe / U2D_MIN_FRAMES_PER_THREAD;
    if (nt < 1) nt = 1;
    ik_segment *seg = calloc(nt, sizeof *seg);
    u2d_thread *tid = calloc(nt, sizeof *tid);
    char *started = calloc(nt, 1);
    if (!seg || !tid || !started) {
        free(seg);
        free(tid);
        free(started);
        return U2D_ERR_NOMEM;
    }
    for (size_t t = 0; t < nt; t++)
        seg[t] = (ik_segment){m, p, target, task_value, q0, q, err, report,
                              nframe * t / nt, nframe * (t + 1) / nt, 0, U2D_OK};
    /* as u2d_batch: segment 0 on the calling thread, one that cannot start runs here too */
    for (size_t t = 1; t < nt; t++)
        started[t] = u2d_thread_start(&tid[t], run_ik_segment, &seg[t]) == 0;
    run_ik_segment(&seg[0]);
    for (size_t t = 1; t < nt; t++) {
        if (started[t]) u2d_thread_join(tid[t]);
        else run_ik_segment(&seg[t]);
    }
    for (size_t t = 0; t < nt && st == U2D_OK; t++)
        if (seg[t].status != U2D_OK) {
            st = seg[t].status;
            *bad = seg[t].bad;
        }
    if (st == U2D_OK && nt > 1) st = join_ik_seams(seg, nt, bad);
    free(seg);
    free(tid);
    free(started);
    return st;
}
