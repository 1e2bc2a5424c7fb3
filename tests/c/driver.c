/* driver.c: a standalone test driver of the urdf2dyn C core (no Python).
 *
 *   driver [--quick] [--strict] [FILE.urdf | DIR]...
 *       Generated robots (random trees with every joint type, a deep chain, a wide star)
 *       and the given URDF files (a DIR is searched for *.urdf, recursively) go through
 *       parse -> compile (fixed and floating base) -> every algorithm of harness.h, with
 *       numerical invariants checked; then malformed documents go through the parser.
 *       Files the core rejects are listed; with --strict a rejected file is a failure.
 *       --quick runs fewer random cases (for valgrind) and skips the heavy checks of files
 *       over 20 kB, but for dtau/dq, dtau/dv against differences of RNEA on models with
 *       chain joints (custom, ellipsoid, planar). Exit status 0 when every check held.
 *   driver --parse [--parser NAME] FILE...
 *       Each file through h_exercise() (what the fuzzers run on an input), with the parser
 *       named (urdf, osim: a fuzzer's corpus/NAME/), else the one its extension names (.osim,
 *       .urdf), else its content's: the regression mode for tests/c/regressions/ and the
 *       corpora. Exit status 0 when no contract was violated.
 *   driver --list-functions
 *       The core functions this driver exercises, one per line.
 *
 * Build it with tests/c/build.sh (ASan + UBSan, or plain for valgrind). With
 * U2D_DRIVER_TIMING=1 in the environment it prints each document's time. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <time.h>
#include "harness.h"

/* ---- bookkeeping ------------------------------------------------------------------------- */

static int n_checks = 0, n_failures = 0;
static size_t h_lanes8_samples = 0;   /* samples the 8-lane kernel checked */
/* models with a chain joint (custom, ellipsoid, planar) whose dtau/dq and dtau/dv were
 * checked against differences of RNEA: printed for the files, so a test sees it ran */
static size_t h_chain_models_differenced = 0;
static const char *current = "";            /* the model being checked, for messages */

#define CHECK(cond, ...) do {                                                   \
        n_checks++;                                                             \
        if (!(cond)) {                                                          \
            n_failures++;                                                       \
            if (n_failures <= 200) {                                            \
                fprintf(stderr, "FAIL %s (%s:%d): ", current, __FILE__, __LINE__); \
                fprintf(stderr, __VA_ARGS__);                                   \
                fputc('\n', stderr);                                            \
            }                                                                   \
        }                                                                       \
    } while (0)

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) { fprintf(stderr, "driver: out of memory\n"); exit(2); }
    return p;
}

static double *dalloc(size_t n) { return xmalloc(sizeof(double) * n); }

/* ---- growing text buffer ------------------------------------------------------------------ */

typedef struct { char *s; size_t len, cap; } sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int k = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0) { fprintf(stderr, "driver: vsnprintf failed\n"); exit(2); }
        if (b->s && (size_t)k < room) { b->len += (size_t)k; return; }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + (size_t)k + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) { fprintf(stderr, "driver: out of memory\n"); exit(2); }
        b->s = s;
        b->cap = cap;
    }
}

/* ---- generated robots -------------------------------------------------------------------- */

static void gen_inertial(sbuf *b, uint64_t *r)
{
    /* principal moments satisfying the triangle inequality, turned by a random rpy */
    double i1 = h_unif(r, 0.01, 1.0), i2 = h_unif(r, 0.01, 1.0);
    double i3 = h_unif(r, fabs(i1 - i2) + 1e-3, i1 + i2);
    double off = h_unif(r, -0.2, 0.2) * fmin(i1, fmin(i2, i3));   /* diagonally dominant */
    sb_printf(b, "<inertial><origin xyz=\"%.6f %.6f %.6f\" rpy=\"%.6f %.6f %.6f\"/>"
              "<mass value=\"%.6f\"/><inertia ixx=\"%.6f\" ixy=\"%.6f\" ixz=\"0\" iyy=\"%.6f\" "
              "iyz=\"0\" izz=\"%.6f\"/></inertial>",
              h_unif(r, -0.3, 0.3), h_unif(r, -0.3, 0.3), h_unif(r, -0.3, 0.3),
              h_unif(r, -3, 3), h_unif(r, -1.5, 1.5), h_unif(r, -3, 3),
              h_unif(r, 0.1, 5.0), i1, off, i2, i3);
}

enum { GEN_PLANAR = 1, GEN_FLOATING = 2, GEN_DECOYS = 4 };

/* A random tree of n links: branching, every joint type, fixed joints mid-tree, massless
 * links, unaligned / aligned / negative / omitted axes, joints listed before links. */
static char *gen_tree(uint64_t seed, int n, int flags)
{
    uint64_t r = seed * 7919 + 17;
    sbuf b = {0};
    int *parent = xmalloc(sizeof(int) * (size_t)n);
    sb_printf(&b, "<?xml version=\"1.0\"?>\r\n<!-- generated, seed %llu -->\n<robot name=\"gen%llu\">\n",
              (unsigned long long)seed, (unsigned long long)seed);
    for (int i = 0; i < n; i++)
        parent[i] = i == 0 ? -1 : (h_rand(&r) % 3 == 0 ? (int)(h_rand(&r) % (uint64_t)i) : i - 1);
    int joints_first = (int)(seed & 1);
    for (int pass = 0; pass < 2; pass++) {
        int links = (pass == 0) != joints_first;
        for (int k = 0; k < n; k++) {
            int i = joints_first ? n - 1 - k : k;
            if (links) {
                sb_printf(&b, "<link name=\"l%d\">", i);
                if (i == 0 || h_rand(&r) % 7 != 0) gen_inertial(&b, &r);
                if (flags & GEN_DECOYS)
                    sb_printf(&b, "<visual><geometry><box size=\"1 1 1\"/></geometry></visual>");
                sb_printf(&b, "</link>\n");
                continue;
            }
            if (i == 0) continue;
            static const char *types[] = {"revolute", "revolute", "continuous", "prismatic",
                                          "fixed", "fixed", "planar", "floating"};
            int t = (int)(h_rand(&r) % 8);
            if (t == 6 && !(flags & GEN_PLANAR)) t = 0;
            if (t == 7 && (!(flags & GEN_FLOATING) || h_rand(&r) % 4)) t = 2;
            sb_printf(&b, "<joint name=\"j%d\" type=\"%s\"><parent link=\"l%d\"/><child link=\"l%d\"/>",
                      i, types[t], parent[i], i);
            if (h_rand(&r) % 6)
                sb_printf(&b, "<origin xyz=\"%.5f %.5f %.5f\" rpy=\"%.5f %.5f %.5f\"/>",
                          h_unif(&r, -0.5, 0.5), h_unif(&r, -0.5, 0.5), h_unif(&r, -0.5, 0.5),
                          h_unif(&r, -3, 3), h_unif(&r, -1.5, 1.5), h_unif(&r, -3, 3));
            int ax = (int)(h_rand(&r) % 5);
            if (t == 6) sb_printf(&b, "<axis xyz=\"0 0 1\"/>");
            else if (ax == 0) { /* omitted: (1, 0, 0) */ }
            else if (ax == 1) sb_printf(&b, "<axis xyz=\"%s\"/>",
                                       (const char *[]){"0 0 1", "0 -1 0", "-1 0 0", "0 1 0"}[h_rand(&r) % 4]);
            else sb_printf(&b, "<axis xyz=\"%.4f %.4f %.4f\"/>", h_unif(&r, -1, 1),
                           h_unif(&r, -1, 1), h_unif(&r, 0.1, 1));
            if (t <= 3) sb_printf(&b, "<limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"2\"/>");
            sb_printf(&b, "</joint>\n");
            if ((flags & GEN_DECOYS) && i % 5 == 0)
                sb_printf(&b, "<transmission name=\"t%d\"><joint name=\"j%d\"><hardwareInterface>E"
                          "</hardwareInterface></joint><actuator name=\"m%d\"/></transmission>\n"
                          "<gazebo reference=\"l%d\"><joint name=\"ghost%d\"/><link name=\"ghost%d\"/>"
                          "</gazebo>\n", i, i, i, i, i, i);
        }
    }
    sb_printf(&b, "</robot>\n");
    free(parent);
    return b.s;
}

/* n links: a chain (star = 0) or every link on the root (star = 1). */
static char *gen_simple(int n, int star)
{
    sbuf b = {0};
    sb_printf(&b, "<robot name=\"%s%d\">", star ? "star" : "chain", n);
    for (int i = 0; i < n; i++)
        sb_printf(&b, "<link name=\"l%d\"><inertial><origin xyz=\"0 0 0.05\"/><mass value=\"0.5\"/>"
                  "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/>"
                  "</inertial></link>", i);
    for (int i = 1; i < n; i++)
        sb_printf(&b, "<joint name=\"j%d\" type=\"%s\"><parent link=\"l%d\"/><child link=\"l%d\"/>"
                  "<origin xyz=\"0.01 0 0.1\"/><axis xyz=\"0 %d %d\"/></joint>", i,
                  i % 3 ? "revolute" : "prismatic", star ? 0 : i - 1, i, i % 2, 1 - i % 2);
    sb_printf(&b, "</robot>");
    return b.s;
}

/* ---- states ------------------------------------------------------------------------------ */

static void random_q(const u2d_model *m, uint64_t *r, double *q)
{
    for (int k = 0; k < m->nq; k++) q[k] = h_unif(r, -2.0, 2.0);
    for (int i = 1; i < m->nbody; i++)
        if (m->jtype[i] == U2D_JOINT_FLOATING) {      /* unnormalized on purpose, norm >= 0.5 */
            double *x = q + m->qadr[i] + 3;
            if (fabs(x[3]) < 0.5) x[3] = x[3] < 0 ? x[3] - 0.5 : x[3] + 0.5;
        }
}

static void random_v(const u2d_model *m, uint64_t *r, double *v, double scale)
{
    for (int k = 0; k < m->nv; k++) v[k] = h_unif(r, -scale, scale);
}

static double norm_inf(const double *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s = fmax(s, fabs(x[i]));
    return s;
}

static double max_diff(const double *x, const double *y, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s = fmax(s, fabs(x[i] - y[i]));
    return s;
}

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) if (!isfinite(x[i])) return 0;
    return 1;
}

static const double g0[3] = {0.0, 0.0, -9.81};

/* Algorithm k on one sample (inputs x0, x1, x2 as the table says), through the table's
 * adapter with workspace w; returns the status. */
static u2d_status run(const u2d_model *m, u2d_work *w, int k, const double *x0, const double *x1,
                      const double *x2, const double g[3], const u2d_fext *f, double *out0,
                      double *out1)
{
    h_state s = {{x0, x1, x2}, {g[0], g[1], g[2]}, f, 0, {0, 0, 0}, 1.0};
    u2d_batch_args a = h_args(&s, out0, out1);
    return H_ALGOS[k].one(m, w, &a);
}

/* The same, requiring U2D_OK. */
static void run_ok(const u2d_model *m, u2d_work *w, int k, const double *x0, const double *x1,
                   const double *x2, const double g[3], const u2d_fext *f, double *out0,
                   double *out1)
{
    u2d_status st = run(m, w, k, x0, x1, x2, g, f, out0, out1);
    CHECK(st == U2D_OK, "%s: status %d on a valid state", H_ALGOS[k].name, (int)st);
}

/* M(q) column by column: M e_j = rnea(q, 0, e_j) without gravity. */
static void mass_matrix_by_rnea(const u2d_model *m, u2d_work *w, const double *q, double *M)
{
    size_t nv = (size_t)m->nv;
    double *z = dalloc(nv), *e = dalloc(nv), *col = dalloc(nv);
    static const double nog[3] = {0, 0, 0};
    memset(z, 0, sizeof(double) * nv);
    memset(e, 0, sizeof(double) * nv);
    for (size_t j = 0; j < nv; j++) {
        e[j] = 1.0;
        run_ok(m, w, U2D_ALGO_RNEA, q, z, e, nog, NULL, col, NULL);
        e[j] = 0.0;
        for (size_t i = 0; i < nv; i++) M[i * nv + j] = col[i];
    }
    free(z); free(e); free(col);
}

/* ---- the checks of one compiled model ----------------------------------------------------- */

static void check_jcalc(const u2d_model *m, uint64_t *r)
{
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)m->nv);
    random_q(m, r, q);
    random_v(m, r, v, 1.5);
    for (int i = 1; i < m->nbody; i++) {
        u2d_xform X;
        double S[36], cJ[6], Sdot[36];
        u2d_status st = u2d_jcalc(m, i, q + m->qadr[i], v + m->vadr[i], &X, S, cJ, Sdot);
        CHECK(st == U2D_OK, "u2d_jcalc body %d status %d", i, (int)st);
        double err = 0.0;
        for (int p = 0; p < 3; p++)
            for (int c = 0; c < 3; c++) {
                double d = 0.0;
                for (int k = 0; k < 3; k++) d += X.E[3 * p + k] * X.E[3 * c + k];
                err = fmax(err, fabs(d - (p == c)));
            }
        CHECK(err < 1e-12, "u2d_jcalc body %d: E not orthonormal (%g)", i, err);
        CHECK(all_finite(X.r, 3) && all_finite(S, 6 * (size_t)m->jnv[i]) && all_finite(cJ, 6) &&
              all_finite(Sdot, 6 * (size_t)m->jnv[i]),
              "u2d_jcalc body %d: non-finite output", i);
    }
    free(q); free(v);
}

/* S and cJ of a joint with constant columns, as Featherstone defines them: the axis n as a
 * rotation (revolute, continuous) or a translation (prismatic), no column when fixed; cJ 0 */
static void expected_constant_columns(const u2d_model *m, int i, double S[6], double cJ[6])
{
    const double *n = &m->axis[3 * i];
    const int prismatic = m->jtype[i] == U2D_JOINT_PRISMATIC;
    for (int k = 0; k < 6; k++) S[k] = cJ[k] = 0.0;
    for (int k = 0; k < 3; k++) S[k + 3 * prismatic] = n[k];
}

/* The lane units set S and cJ of a joint with constant columns once per workspace
 * (u2d_work_set_columns) and u2d_jcalc_work leaves them there: so those must be the joint's
 * columns at every state, and u2d_jcalc_work must place the body as u2d_jcalc does. */
static void check_constant_columns(const u2d_model *m, uint64_t *r)
{
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)m->nv);
    u2d_work *w = u2d_work_new(m);
    CHECK(w != NULL, "u2d_work_new failed");
    if (!w) { free(q); free(v); return; }
    u2d_work_set_columns(m, w);
    for (int trial = 0; trial < 3; trial++) {
        random_q(m, r, q);
        random_v(m, r, v, 1.5);
        for (int i = 1; i < m->nbody; i++) {
            if (!u2d_has_constant_columns(m->jtype[i])) continue;
            const int fixed = m->jtype[i] == U2D_JOINT_FIXED;
            CHECK(m->jnv[i] == !fixed, "body %d (joint type %d) has constant columns but %d dofs",
                  i, m->jtype[i], m->jnv[i]);
            const size_t ns = 6 * (size_t)!fixed;
            const double *qi = q + m->qadr[i], *vi = v + m->vadr[i];
            u2d_xform X;
            double S[36], cJ[6], S_want[6], cJ_want[6];
            expected_constant_columns(m, i, S_want, cJ_want);
            u2d_status st = u2d_jcalc(m, i, qi, vi, &X, S, cJ, NULL);
            CHECK(st == U2D_OK && !memcmp(S, S_want, ns * sizeof *S)
                      && !memcmp(cJ, cJ_want, sizeof cJ),
                  "body %d (joint type %d): u2d_jcalc's S or cJ are not its axis and zero", i,
                  m->jtype[i]);
            CHECK(!memcmp(&w->S[36 * i], S_want, ns * sizeof *S)
                      && !memcmp(&w->cJ[6 * i], cJ_want, sizeof cJ),
                  "body %d (joint type %d): u2d_work_set_columns' S or cJ are not its axis and "
                  "zero", i, m->jtype[i]);
            st = u2d_jcalc_work(m, w, i, qi, vi);
            CHECK(st == U2D_OK && !memcmp(&X, &w->Xup[i], sizeof X),
                  "body %d: u2d_jcalc_work placed it unlike u2d_jcalc (status %d)", i, (int)st);
        }
    }
    u2d_work_free(w);
    free(q); free(v);
}

/* Inputs for algorithm A: 'q' -> q (first) or q2, 'v' -> v (second) or a (third). */
static void bind(const h_algo *A, const double *q, const double *q2, const double *v,
                 const double *a, const double *x[3])
{
    x[0] = x[1] = x[2] = NULL;
    for (int j = 0; A->in[j]; j++) x[j] = A->in[j] == 'q' ? (j ? q2 : q) : (j == 2 ? a : v);
}

/* Every algorithm of the table: finite on a finite state, independent of the workspace's
 * history (fresh vs reused after NaN / huge inputs), no crash on hostile inputs, and the
 * quaternion error for zero, infinite and tiny quaternions. */
static void check_table(const u2d_model *m, uint64_t *r)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    double *q = dalloc(nq), *q2 = dalloc(nq), *v = dalloc(nv), *a = dalloc(nv);
    double *hq = dalloc(nq), *hq2 = dalloc(nq), *hv = dalloc(nv), *ha = dalloc(nv);
    random_q(m, r, q);
    random_q(m, r, q2);
    random_v(m, r, v, 1.5);
    random_v(m, r, a, 1.5);
    h_values vs = {NULL, 0, 0, h_rand(r), 1};
    h_fill(&vs, hq, nq); h_fill(&vs, hq2, nq); h_fill(&vs, hv, nv); h_fill(&vs, ha, nv);
    u2d_work *w = u2d_work_new(m), *w2 = u2d_work_new(m);
    CHECK(w && w2, "u2d_work_new returned NULL");
    if (!w || !w2) goto done;

    for (int k = 0; k < U2D_NALGO; k++) {
        const h_algo *A = &H_ALGOS[k];
        CHECK(A->name != NULL, "u2d_algo value %d has no entry in tests/c/harness.h H_ALGOS", k);
        if (!A->name || h_too_big(m, A)) continue;
        size_t n0 = h_out_size(A, m, 0), n1 = h_out_size(A, m, 1), n2 = h_out_size(A, m, 2);
        double *o1 = dalloc(n0), *p1 = dalloc(n1), *o2 = dalloc(n0), *p2 = dalloc(n1);
        double *r1 = dalloc(n2), *r2 = dalloc(n2);
        const double *x[3], *hx[3];
        bind(A, q, q2, v, a, x);
        bind(A, hq, hq2, hv, ha, hx);
        h_state nice = {{x[0], x[1], x[2]}, {0.0, 0.0, -9.81}, NULL,
                        (int)(h_rand(r) % (uint64_t)m->nlink), {0.1, -0.2, 0.3}, 0.01};
        h_state hostile = {{hx[0], hx[1], hx[2]}, {NAN, 1e308, -INFINITY}, NULL, nice.link,
                           {NAN, 1e300, 0}, INFINITY};
        u2d_batch_args an = h_args3(&nice, o1, n1 ? p1 : NULL, n2 ? r1 : NULL);
        u2d_batch_args a2 = h_args3(&nice, o2, n1 ? p2 : NULL, n2 ? r2 : NULL);
        u2d_batch_args ah = h_args3(&hostile, o2, n1 ? p2 : NULL, n2 ? r2 : NULL);
        u2d_status s1 = A->one(m, w, &an);
        CHECK(s1 == U2D_OK || h_excused(m, A, s1),
              "%s: status %d on a valid state", A->name, (int)s1);
        CHECK(s1 != U2D_OK || (all_finite(o1, n0) && all_finite(p1, n1) && all_finite(r1, n2)),
              "%s: non-finite output on a finite state", A->name);
        u2d_status sh = A->one(m, w2, &ah);
        CHECK(h_status_ok(m, A, &hostile, sh, h_model_has_quaternion(m)),
              "%s: status %d on a hostile state", A->name, (int)sh);
        u2d_status s2 = A->one(m, w2, &a2);
        CHECK(s2 == s1 && (s1 != U2D_OK || (memcmp(o1, o2, sizeof(double) * n0) == 0 &&
                                            memcmp(p1, p2, sizeof(double) * n1) == 0 &&
                                            memcmp(r1, r2, sizeof(double) * n2) == 0)),
              "%s: result depends on the workspace's history", A->name);
        s2 = A->one(m, w2, &a2);
        CHECK(s2 == s1 && (s1 != U2D_OK || memcmp(o1, o2, sizeof(double) * n0) == 0),
              "%s: not deterministic", A->name);

        /* out-of-range links are argument errors for the Jacobian */
        if (k == U2D_ALGO_JACOBIAN || k == U2D_ALGO_FRAME_JACOBIAN) {
            int bad_links[3] = {-1, m->nlink, -1000000};
            for (int b = 0; b < 3; b++) {
                h_state s = nice;
                s.link = bad_links[b];
                u2d_batch_args ab = h_args(&s, o2, NULL);
                CHECK(A->one(m, w2, &ab) == U2D_ERR_ARGUMENT, "jacobian: link %d accepted",
                      bad_links[b]);
            }
        }

        /* floating joints: zero, infinite and tiny quaternions are errors, NaN no crash */
        for (int i = 1; i < m->nbody; i++) {
            if (m->jtype[i] != U2D_JOINT_FLOATING) continue;
            double *xq = q + m->qadr[i] + 3, keep[4];
            memcpy(keep, xq, sizeof keep);
            static const double badq[3][4] = {{0, 0, 0, 0}, {0, 0, 0, INFINITY}, {1e-300, 0, 0, 0}};
            for (int c = 0; c < 3; c++) {
                memcpy(xq, badq[c], sizeof keep);
                u2d_status st = A->one(m, w2, &a2);
                CHECK(st == U2D_ERR_QUATERNION || h_excused(m, A, st),
                      "%s: quaternion (%g %g %g %g) gave status %d", A->name, xq[0], xq[1],
                      xq[2], xq[3], (int)st);
            }
            xq[0] = NAN;
            A->one(m, w2, &a2);
            memcpy(xq, keep, sizeof keep);
        }
        free(o1); free(p1); free(o2); free(p2); free(r1); free(r2);
    }
done:
    u2d_work_free(w); u2d_work_free(w2);
    free(q); free(q2); free(v); free(a); free(hq); free(hq2); free(hv); free(ha);
}

static double total_mass(const u2d_urdf *u)
{
    double s = 0.0;
    for (int l = 0; l < u->nlink; l++) if (u->link[l].has_inertial) s += u->link[l].mass;
    return s;
}

/* Whether a joint of m is one the derivatives take apart into a chain of axes. */
static int has_chain_joint(const u2d_model *m)
{
    for (int i = 1; i < m->nbody; i++)
        if (u2d_moves_own_columns(m->jtype[i])) return 1;
    return 0;
}

/* dtau/dq and dtau/dv from rnea_deriv (Dq, Dv) against 4th-order central differences of
 * RNEA along each coordinate (q moved by integrate, so quaternions stay unit): an oracle
 * outside the derivatives' code, which the batch checks (one path against another) are not.
 * GCC 12's -O1 once lost a chain joint's own block of dtau/dq (csrc/model/u2d_port.h). */
static void check_rnea_partials_by_differences(const u2d_model *m, u2d_work *w,
                                               const double *q, const double *v,
                                               const double *a, const double *Dq,
                                               const double *Dv)
{
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    const double eps = 1e-4, cs[4] = {1.0, -8.0, 8.0, -1.0}, ss[4] = {-2, -1, 1, 2};
    double *e = dalloc(nv), *qs = dalloc(nq), *vs = dalloc(nv), *tau = dalloc(nv);
    double *Fq = dalloc(nv), *Fv = dalloc(nv), errq = 0.0, errv = 0.0, big = 1.0;
    for (size_t i = 0; i < nv * nv; i++) big = fmax(big, fmax(fabs(Dq[i]), fabs(Dv[i])));
    for (size_t c = 0; c < nv; c++) {
        memset(e, 0, sizeof(double) * nv);
        memset(Fq, 0, sizeof(double) * nv);
        memset(Fv, 0, sizeof(double) * nv);
        e[c] = 1.0;
        for (int k = 0; k < 4; k++) {
            h_state s = {{q, e, NULL}, {0, 0, 0}, NULL, 0, {0, 0, 0}, ss[k] * eps};
            u2d_batch_args ia = h_args(&s, qs, NULL);
            CHECK(H_ALGOS[U2D_ALGO_INTEGRATE].one(m, w, &ia) == U2D_OK, "integrate failed");
            run_ok(m, w, U2D_ALGO_RNEA, qs, v, a, g0, NULL, tau, NULL);
            for (size_t i = 0; i < nv; i++) Fq[i] += cs[k] * tau[i] / (12.0 * eps);
            for (size_t i = 0; i < nv; i++) vs[i] = v[i] + ss[k] * eps * e[i];
            run_ok(m, w, U2D_ALGO_RNEA, q, vs, a, g0, NULL, tau, NULL);
            for (size_t i = 0; i < nv; i++) Fv[i] += cs[k] * tau[i] / (12.0 * eps);
        }
        for (size_t i = 0; i < nv; i++) {
            errq = fmax(errq, fabs(Fq[i] - Dq[i * nv + c]));
            errv = fmax(errv, fabs(Fv[i] - Dv[i * nv + c]));
        }
    }
    h_chain_models_differenced += (size_t)has_chain_joint(m);
    CHECK(errq <= 1e-6 * big, "rnea_deriv: dtau/dq differs from differences of rnea by %g "
          "(of %g)", errq, big);
    CHECK(errv <= 1e-6 * big, "rnea_deriv: dtau/dv differs from differences of rnea by %g "
          "(of %g)", errv, big);
    free(e); free(qs); free(vs); free(tau); free(Fq); free(Fv);
}

/* The differences check alone, at one state: what a run without the heavy checks (--quick
 * on a large model) still does on a model with chain joints, whose own blocks of dtau/dq
 * GCC 12's -O1 once dropped. 8 nv RNEA calls: cheap beside the heavy checks. */
static void check_chain_partials(const u2d_model *m, u2d_work *w, const double *q,
                                 const double *v, const double *a)
{
    size_t nv = (size_t)m->nv;
    double *Dq = dalloc(nv * nv), *Dv = dalloc(nv * nv), *Da = dalloc(nv * nv);
    h_state s = {{q, v, a}, {g0[0], g0[1], g0[2]}, NULL, 0, {0, 0, 0}, 1.0};
    u2d_batch_args ad = h_args3(&s, Dq, Dv, Da);
    CHECK(H_ALGOS[U2D_ALGO_RNEA_DERIV].one(m, w, &ad) == U2D_OK, "rnea_deriv failed");
    check_rnea_partials_by_differences(m, w, q, v, a, Dq, Dv);
    free(Dq); free(Dv); free(Da);
}

/* Derivatives, centroidal momentum and regressor against the algorithms they extend:
 * dtau/da = CRBA's M, Minv M = 1, Y pi = RNEA, h_G = A_G v, p = m dc/dt (planar joints
 * included: their chain of axes in the derivatives, their moving columns in both). */
static void check_new_algorithms(const u2d_model *m, u2d_work *w, const double *q,
                                 const double *v, const double *a, const double *Mc,
                                 double scale)
{
    size_t nv = (size_t)m->nv, np = 10 * (size_t)(m->nbody - 1);
    double *D1 = dalloc(nv * nv), *D2 = dalloc(nv * nv), *D3 = dalloc(nv * nv);
    double *Y = dalloc(nv * np), *pi = dalloc(np), *t1 = dalloc(nv), *t2 = dalloc(nv);
    double *Ag = dalloc(6 * nv), com[9], h[12];
    h_state s = {{q, v, a}, {0.0, 0.0, -9.81}, NULL, 0, {0, 0, 0}, 1.0};

    u2d_batch_args ay = h_args(&s, Y, NULL);
    CHECK(H_ALGOS[U2D_ALGO_REGRESSOR].one(m, w, &ay) == U2D_OK, "regressor failed");
    u2d_inertial_parameters(m, pi);
    run_ok(m, w, U2D_ALGO_RNEA, q, v, a, g0, NULL, t1, NULL);
    double err = 0.0, big = norm_inf(t1, nv) + 1.0;
    for (size_t i = 0; i < nv; i++) {
        double x = 0.0;
        for (size_t k = 0; k < np; k++) x += Y[i * np + k] * pi[k];
        err = fmax(err, fabs(x - t1[i]));
    }
    CHECK(err <= 1e-10 * big, "regressor: Y pi differs from rnea by %g (of %g)", err, big);

    for (int i = 1, k = 0; i < m->nbody; i++)    /* the workspace: a chain per chain joint */
        if (u2d_moves_own_columns(m->jtype[i]))
            CHECK(w->chain_of[i] == k++, "body %d: chain %d, not %d", i, w->chain_of[i], k - 1);
        else
            CHECK(w->chain_of[i] == -1, "body %d: chain %d for a rigid joint", i, w->chain_of[i]);
    u2d_batch_args ad = h_args3(&s, D1, D2, D3);
    CHECK(H_ALGOS[U2D_ALGO_RNEA_DERIV].one(m, w, &ad) == U2D_OK, "rnea_deriv failed");
    CHECK(max_diff(D3, Mc, nv * nv) <= 1e-11 * scale, "rnea_deriv: dtau/da differs from "
          "crba by %g (of %g)", max_diff(D3, Mc, nv * nv), scale);
    check_rnea_partials_by_differences(m, w, q, v, a, D1, D2);
    s.x[2] = t1;                            /* tau = rnea(q, v, a): ABA gives a back */
    u2d_batch_args af = h_args3(&s, D1, D2, D3);
    u2d_status st = H_ALGOS[U2D_ALGO_ABA_DERIV].one(m, w, &af);
    CHECK(st == U2D_OK || st == U2D_ERR_SINGULAR, "aba_deriv: status %d", (int)st);
    if (st == U2D_OK) {
        double e = 0.0;                      /* Minv M = 1 */
        for (size_t i = 0; i < nv; i++)
            for (size_t j = 0; j < nv; j++) {
                double x = 0.0;
                for (size_t k = 0; k < nv; k++) x += D3[i * nv + k] * Mc[k * nv + j];
                e = fmax(e, fabs(x - (i == j)));
            }
        CHECK(e <= 1e-6, "aba_deriv: Minv M differs from 1 by %g", e);
    }
    s.x[2] = a;
    u2d_batch_args ac = h_args(&s, Ag, NULL), ah = h_args(&s, com, h);
    CHECK(H_ALGOS[U2D_ALGO_CCRBA].one(m, w, &ac) == U2D_OK, "ccrba failed");
    CHECK(H_ALGOS[U2D_ALGO_CENTROIDAL].one(m, w, &ah) == U2D_OK, "centroidal failed");
    double e = 0.0, hmax = 1.0, mass = 0.0;
    for (int r = 0; r < 6; r++) {
        double x = 0.0;
        for (size_t k = 0; k < nv; k++) x += Ag[r * nv + k] * v[k];
        e = fmax(e, fabs(x - h[r]));
        hmax = fmax(hmax, fabs(h[r]));
    }
    CHECK(e <= 1e-11 * hmax, "centroidal: A_G v differs from h_G by %g", e);
    for (int i = 1; i < m->nbody; i++) mass += m->inertia[i].m;
    for (int r = 0; r < 3; r++)
        CHECK(fabs(mass * com[3 + r] - h[r]) <= 1e-11 * hmax, "centroidal: p != m dc/dt");
    free(D1); free(D2); free(D3); free(Y); free(pi); free(t1); free(t2); free(Ag);
}

/* Physics: identities between the algorithms, and finite differences along q(t) =
 * integrate(q, v, t) (which moves floating joints along their body twist). */
static void check_physics(const u2d_model *m, const u2d_urdf *u, int fb, uint64_t *r,
                          int heavy)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nb = (size_t)m->nbody, nl = (size_t)m->nlink;
    double *q = dalloc(nq), *v = dalloc(nv), *a = dalloc(nv), *z = dalloc(nv);
    double *t1 = dalloc(nv), *t2 = dalloc(nv), *t3 = dalloc(nv), *t4 = dalloc(nv);
    static const double nog[3] = {0, 0, 0};
    u2d_work *w = u2d_work_new(m);
    random_q(m, r, q);
    random_v(m, r, v, 1.5);
    random_v(m, r, a, 1.5);
    memset(z, 0, sizeof(double) * nv);

    /* NLE and gravity are RNEA with zeros, exactly */
    run_ok(m, w, U2D_ALGO_RNEA, q, v, z, g0, NULL, t1, NULL);
    run_ok(m, w, U2D_ALGO_NLE, q, v, NULL, g0, NULL, t2, NULL);
    CHECK(memcmp(t1, t2, sizeof(double) * nv) == 0, "nle != rnea(q, v, 0)");
    run_ok(m, w, U2D_ALGO_RNEA, q, z, z, g0, NULL, t1, NULL);
    run_ok(m, w, U2D_ALGO_GRAVITY, q, NULL, NULL, g0, NULL, t2, NULL);
    CHECK(memcmp(t1, t2, sizeof(double) * nv) == 0, "gravity != rnea(q, 0, 0)");

    if (!heavy && nv > 0 && has_chain_joint(m)) check_chain_partials(m, w, q, v, a);
    if (heavy && nv > 0) {
        double *M = dalloc(nv * nv), *Mc = dalloc(nv * nv), *C = dalloc(nv * nv);
        mass_matrix_by_rnea(m, w, q, M);
        run_ok(m, w, U2D_ALGO_CRBA, q, NULL, NULL, g0, NULL, Mc, NULL);
        double scale = norm_inf(M, nv * nv) + 1e-300, asym = 0.0, mind = INFINITY;
        for (size_t i = 0; i < nv; i++) {
            mind = fmin(mind, M[i * nv + i]);
            for (size_t j = 0; j < i; j++) asym = fmax(asym, fabs(Mc[i * nv + j] - Mc[j * nv + i]));
        }
        CHECK(max_diff(M, Mc, nv * nv) <= 1e-11 * scale, "crba differs from M by RNEA by %g (of %g)",
              max_diff(M, Mc, nv * nv), scale);
        CHECK(asym <= 1e-12 * scale, "crba not symmetric (%g of %g)", asym, scale);
        CHECK(mind >= -1e-12 * scale, "M has a negative diagonal entry %g", mind);
        /* u2d_crba_fill writes exactly the entries of joint pairs one of which is an ancestor
         * of the other, and leaves the others as they were (the SIMD paths zero once a call) */
        {
            double *F = dalloc(nv * nv);
            int *body_of = calloc(nv, sizeof *body_of);
            for (int i = 1; i < m->nbody; i++)
                for (int k = 0; k < m->jnv[i]; k++) body_of[m->vadr[i] + k] = i;
            for (size_t k = 0; k < nv * nv; k++) F[k] = -7.0;
            CHECK(u2d_crba_fill(m, w, q, F) == U2D_OK, "crba_fill failed");
            int wrong = 0;
            for (size_t i = 0; i < nv; i++)
                for (size_t j = 0; j < nv; j++) {
                    const int bi = body_of[i], bj = body_of[j];
                    const int ii = (int)i, jj = (int)j;
                    const int related = (jj >= m->vadr[bi] && jj < m->vadr[bi] + m->nvsub[bi])
                                     || (ii >= m->vadr[bj] && ii < m->vadr[bj] + m->nvsub[bj]);
                    wrong += related ? F[i * nv + j] != Mc[i * nv + j] : F[i * nv + j] != -7.0;
                }
            CHECK(wrong == 0, "crba_fill: %d entries off the tree's pattern written, or wrong",
                  wrong);
            free(F);
            free(body_of);
        }
        for (int trial = 0; trial < 3; trial++) {
            double xMx = 0.0, xx = 0.0;
            random_v(m, r, t1, 1.0);
            for (size_t i = 0; i < nv; i++) {
                double s = 0.0;
                for (size_t j = 0; j < nv; j++) s += Mc[i * nv + j] * t1[j];
                xMx += t1[i] * s;
                xx += t1[i] * t1[i];
            }
            CHECK(xMx >= -1e-10 * scale * xx, "M not positive semidefinite (%g)", xMx);
        }
        check_new_algorithms(m, w, q, v, a, Mc, scale);
        /* tau(q, v, a) = h(q, v) + M a */
        run_ok(m, w, U2D_ALGO_RNEA, q, v, a, g0, NULL, t1, NULL);
        run_ok(m, w, U2D_ALGO_NLE, q, v, NULL, g0, NULL, t2, NULL);
        double err = 0.0, ref = norm_inf(t1, nv) + scale * norm_inf(a, nv);
        for (size_t i = 0; i < nv; i++) {
            double s = t2[i];
            for (size_t j = 0; j < nv; j++) s += Mc[i * nv + j] * a[j];
            err = fmax(err, fabs(s - t1[i]));
        }
        CHECK(err <= 1e-10 * ref, "rnea != nle + M a: %g (scale %g)", err, ref);
        /* C v = h - g */
        run_ok(m, w, U2D_ALGO_CORIOLIS, q, v, NULL, g0, NULL, C, NULL);
        run_ok(m, w, U2D_ALGO_GRAVITY, q, NULL, NULL, g0, NULL, t3, NULL);
        err = 0.0;
        for (size_t i = 0; i < nv; i++) {
            double s = 0.0;
            for (size_t j = 0; j < nv; j++) s += C[i * nv + j] * v[j];
            err = fmax(err, fabs(s - (t2[i] - t3[i])));
        }
        CHECK(err <= 1e-10 * (norm_inf(t2, nv) + norm_inf(t3, nv) + scale),
              "coriolis: C v != h - g by %g", err);
        /* kinetic energy = v' M v / 2 */
        double T = 0.0, vMv = 0.0;
        run_ok(m, w, U2D_ALGO_KINETIC, q, v, NULL, g0, NULL, &T, NULL);
        for (size_t i = 0; i < nv; i++)
            for (size_t j = 0; j < nv; j++) vMv += v[i] * Mc[i * nv + j] * v[j];
        CHECK(fabs(T - 0.5 * vMv) <= 1e-10 * (fabs(T) + scale * norm_inf(v, nv) * norm_inf(v, nv)),
              "kinetic energy %.15g != v'Mv/2 = %.15g", T, 0.5 * vMv);
        /* forward dynamics undoes inverse dynamics, with and without external forces */
        {
            int body[2] = {(int)(h_rand(r) % nb), (int)(h_rand(r) % nb)};
            double W[12];
            for (int k = 0; k < 12; k++) W[k] = h_unif(r, -5, 5);
            u2d_fext f = {2, body, W};
            for (int withf = 0; withf < 2; withf++) {
                random_v(m, r, t1, 5.0);
                u2d_status st = run(m, w, U2D_ALGO_ABA, q, v, t1, g0, withf ? &f : NULL, t4, NULL);
                CHECK(st == U2D_OK || st == U2D_ERR_SINGULAR, "aba status %d", (int)st);
                if (st == U2D_OK) {
                    run_ok(m, w, U2D_ALGO_RNEA, q, v, t4, g0, withf ? &f : NULL, t2, NULL);
                    double e = max_diff(t1, t2, nv);
                    CHECK(e <= 1e-8 * (1.0 + norm_inf(t1, nv) + norm_inf(t2, nv)),
                          "rnea(aba(tau)) - tau = %g (f_ext %d)", e, withf);
                }
            }
        }

        /* derivatives along q(t) = integrate(q, v, t), 4th-order central differences:
         *   dM/dt = C + C',  v'(h - g) = v' dM/dt v / 2,  dU/dt = g(q)' v,
         *   d(link origin)/dt = linear link velocity, J(q) v = link velocity */
        if (nv <= 40) {
            const double eps = 1e-4, cs[4] = {1.0, -8.0, 8.0, -1.0}, ss[4] = {-2, -1, 1, 2};
            double *Mp = dalloc(nv * nv), *Md = dalloc(nv * nv), *qs = dalloc(nq);
            double *pos = dalloc(3 * nl), *rot = dalloc(9 * nl), *vel = dalloc(6 * nl);
            double *dpos = dalloc(3 * nl), *J = dalloc(6 * nv), Ud = 0.0, U;
            memset(Md, 0, sizeof(double) * nv * nv);
            memset(dpos, 0, sizeof(double) * 3 * nl);
            for (int k = 0; k < 4; k++) {
                run_ok(m, w, U2D_ALGO_INTEGRATE, q, v, NULL, g0, NULL, qs, NULL);   /* dt = 1 */
                h_state s = {{q, v, NULL}, {0, 0, 0}, NULL, 0, {0, 0, 0}, ss[k] * eps};
                u2d_batch_args ia = h_args(&s, qs, NULL);
                CHECK(H_ALGOS[U2D_ALGO_INTEGRATE].one(m, w, &ia) == U2D_OK, "integrate failed");
                run_ok(m, w, U2D_ALGO_CRBA, qs, NULL, NULL, g0, NULL, Mp, NULL);
                for (size_t i = 0; i < nv * nv; i++) Md[i] += cs[k] * Mp[i] / (12.0 * eps);
                run_ok(m, w, U2D_ALGO_POTENTIAL, qs, NULL, NULL, g0, NULL, &U, NULL);
                Ud += cs[k] * U / (12.0 * eps);
                run_ok(m, w, U2D_ALGO_FK, qs, NULL, NULL, g0, NULL, pos, rot);
                for (size_t i = 0; i < 3 * nl; i++) dpos[i] += cs[k] * pos[i] / (12.0 * eps);
            }
            double tol = 1e-6 * scale * (1.0 + norm_inf(v, nv)) * (1.0 + norm_inf(v, nv));
            err = 0.0;
            for (size_t i = 0; i < nv; i++)
                for (size_t j = 0; j < nv; j++)
                    err = fmax(err, fabs(Md[i * nv + j] - C[i * nv + j] - C[j * nv + i]));
            CHECK(err <= tol, "dM/dt != C + C' by %g (tol %g)", err, tol);
            double lhs = 0.0, rhs = 0.0, gv = 0.0;
            for (size_t i = 0; i < nv; i++) {
                lhs += v[i] * (t2[i] - t3[i]);
                gv += t3[i] * v[i];
                for (size_t j = 0; j < nv; j++) rhs += 0.5 * v[i] * Md[i * nv + j] * v[j];
            }
            /* t2 was overwritten by the ABA check: recompute h */
            run_ok(m, w, U2D_ALGO_NLE, q, v, NULL, g0, NULL, t2, NULL);
            lhs = 0.0;
            for (size_t i = 0; i < nv; i++) lhs += v[i] * (t2[i] - t3[i]);
            CHECK(fabs(lhs - rhs) <= tol * (1.0 + norm_inf(v, nv)) * nv,
                  "power: v'(h - g) = %.12g, v'dM/dt v/2 = %.12g", lhs, rhs);
            CHECK(fabs(Ud - gv) <= 1e-6 * (1.0 + fabs(gv) + norm_inf(t3, nv) * norm_inf(v, nv) * nv),
                  "dU/dt = %.12g but g(q)'v = %.12g", Ud, gv);
            run_ok(m, w, U2D_ALGO_LINK_VEL, q, v, NULL, g0, NULL, vel, NULL);
            run_ok(m, w, U2D_ALGO_FK, q, NULL, NULL, g0, NULL, pos, rot);
            err = 0.0;
            double rerr = 0.0;
            for (size_t l = 0; l < nl; l++) {
                for (int c = 0; c < 3; c++) err = fmax(err, fabs(dpos[3 * l + c] - vel[6 * l + c]));
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++) {
                        double d = 0.0;
                        for (int k = 0; k < 3; k++) d += rot[9 * l + 3 * k + i] * rot[9 * l + 3 * k + j];
                        rerr = fmax(rerr, fabs(d - (i == j)));
                    }
            }
            CHECK(err <= 1e-6 * (1.0 + norm_inf(vel, 6 * nl)), "d(link origin)/dt != link velocity (%g)", err);
            CHECK(rerr <= 1e-12, "fk: link rotation not orthonormal (%g)", rerr);
            for (int trial = 0; trial < 3 && nl > 0; trial++) {
                int l = (int)(h_rand(r) % nl);
                double Jv[6] = {0, 0, 0, 0, 0, 0};
                h_state s = {{q, NULL, NULL}, {0, 0, 0}, NULL, l, {0, 0, 0}, 0};
                u2d_batch_args ja = h_args(&s, J, NULL);
                CHECK(H_ALGOS[U2D_ALGO_JACOBIAN].one(m, w, &ja) == U2D_OK, "jacobian failed");
                for (int row = 0; row < 6; row++)
                    for (size_t j = 0; j < nv; j++) Jv[row] += J[(size_t)row * nv + j] * v[j];
                double e = max_diff(Jv, vel + 6 * l, 6);
                CHECK(e <= 1e-12 * (1.0 + norm_inf(vel + 6 * l, 6)), "J v != link %d velocity (%g)", l, e);
            }
            /* frames, in each reference: J v = frame velocity, J a + dJ v = acceleration
             * (classical in LOCAL_WORLD_ALIGNED), and the LOCAL_WORLD_ALIGNED Jacobian at a
             * point is u2d_jacobian's */
            for (int ref = 0; ref < 3 && nl > 0; ref++) {
                int l = (int)(h_rand(r) % nl);
                double *dJ = dalloc(6 * nv), *a = dalloc(nv), fv[6], fa[6], Jx[6], Jy[6];
                for (size_t j = 0; j < nv; j++) a[j] = h_unif(r, -1.0, 1.0);
                h_state s = {{q, v, a}, {0, 0, 0}, NULL, l, {0.1, -0.05, 0.2}, 0, ref};
                u2d_batch_args fa_args = h_args(&s, J, NULL);
                static const int algos[4] = {U2D_ALGO_FRAME_JACOBIAN, U2D_ALGO_FRAME_JACOBIAN_DOT,
                                             U2D_ALGO_FRAME_VELOCITY, -1};
                double *outs[3] = {J, dJ, fv};
                for (int k = 0; algos[k] >= 0; k++) {
                    fa_args.out[0] = outs[k];
                    CHECK(H_ALGOS[algos[k]].one(m, w, &fa_args) == U2D_OK, "frame %d failed", k);
                }
                fa_args.out[0] = fa;
                CHECK(H_ALGOS[ref == U2D_LOCAL_WORLD_ALIGNED ? U2D_ALGO_FRAME_CLASSICAL
                                                             : U2D_ALGO_FRAME_ACCELERATION]
                          .one(m, w, &fa_args) == U2D_OK, "frame acceleration failed");
                for (int row = 0; row < 6; row++) {
                    Jx[row] = Jy[row] = 0.0;
                    for (size_t j = 0; j < nv; j++) {
                        Jx[row] += J[(size_t)row * nv + j] * v[j];
                        Jy[row] += J[(size_t)row * nv + j] * a[j] + dJ[(size_t)row * nv + j] * v[j];
                    }
                }
                double e1 = max_diff(Jx, fv, 6), e2 = max_diff(Jy, fa, 6);
                CHECK(e1 <= 1e-12 * (1.0 + norm_inf(fv, 6)), "frame J v != velocity (%g)", e1);
                CHECK(e2 <= 1e-10 * (1.0 + norm_inf(fa, 6)), "frame J a + dJ v != acc (%g)", e2);
                if (ref == U2D_LOCAL_WORLD_ALIGNED) {
                    u2d_batch_args ja = h_args(&s, dJ, NULL);
                    CHECK(H_ALGOS[U2D_ALGO_JACOBIAN].one(m, w, &ja) == U2D_OK, "jacobian failed");
                    CHECK(max_diff(J, dJ, 6 * nv) == 0.0, "frame LWA Jacobian != u2d_jacobian");
                }
                free(dJ); free(a);
            }
            free(Mp); free(Md); free(qs); free(pos); free(rot); free(vel); free(dpos); free(J);
        }
        free(M); free(Mc); free(C);
    }

    /* configurations: difference(q, integrate(q, v, 1)) = v for |w| < pi; unit quaternions */
    {
        double *q1 = dalloc(nq), *vb = dalloc(nv), *qn = dalloc(nq), *qn2 = dalloc(nq);
        random_v(m, r, vb, 1.0);
        run_ok(m, w, U2D_ALGO_INTEGRATE, q, vb, NULL, g0, NULL, q1, NULL);
        run_ok(m, w, U2D_ALGO_DIFFERENCE, q, q1, NULL, g0, NULL, t1, NULL);
        CHECK(max_diff(t1, vb, nv) <= 1e-9, "difference(q, integrate(q, v)) - v = %g",
              max_diff(t1, vb, nv));
        run_ok(m, w, U2D_ALGO_NORMALIZE, q, NULL, NULL, g0, NULL, qn, NULL);
        run_ok(m, w, U2D_ALGO_NORMALIZE, qn, NULL, NULL, g0, NULL, qn2, NULL);
        CHECK(max_diff(qn, qn2, nq) <= 1e-15, "normalize not idempotent");
        for (int i = 1; i < m->nbody; i++)
            if (m->jtype[i] == U2D_JOINT_FLOATING) {
                const double *x = qn + m->qadr[i] + 3;
                double n2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
                CHECK(fabs(n2 - 1.0) <= 1e-14, "normalize: |quaternion|^2 = %.17g", n2);
            }
        /* dexp^-1 is the identity at xi = 0 */
        memset(t2, 0, sizeof(double) * nv);
        u2d_dexpinv(m, t2, vb, t1);
        CHECK(max_diff(t1, vb, nv) <= 1e-15, "dexpinv(0, v) != v (%g)", max_diff(t1, vb, nv));
        /* RNEA normalizes quaternions itself: scaling one changes nothing (to rounding) */
        run_ok(m, w, U2D_ALGO_RNEA, q, v, a, g0, NULL, t1, NULL);
        run_ok(m, w, U2D_ALGO_RNEA, qn, v, a, g0, NULL, t2, NULL);
        CHECK(max_diff(t1, t2, nv) <= 1e-9 * (1.0 + norm_inf(t1, nv)),
              "rnea on an unnormalized quaternion differs by %g", max_diff(t1, t2, nv));
        free(q1); free(vb); free(qn); free(qn2);
    }

    /* external forces: none on the world body counts; the effect is linear in the wrench */
    {
        int body[2] = {0, (int)(h_rand(r) % nb)};
        double W[12], W2[12];
        for (int k = 0; k < 12; k++) { W[k] = h_unif(r, -10, 10); W2[k] = 2.5 * W[k]; }
        u2d_fext f1 = {1, body, W}, f2 = {2, body, W}, f3 = {2, body, W2};
        run_ok(m, w, U2D_ALGO_RNEA, q, v, a, g0, NULL, t1, NULL);
        run_ok(m, w, U2D_ALGO_RNEA, q, v, a, g0, &f1, t2, NULL);
        CHECK(max_diff(t1, t2, nv) == 0.0, "a wrench on the world body changed tau by %g",
              max_diff(t1, t2, nv));
        run_ok(m, w, U2D_ALGO_RNEA, q, v, a, g0, &f2, t3, NULL);
        run_ok(m, w, U2D_ALGO_RNEA, q, v, a, g0, &f3, t4, NULL);
        double err = 0.0, ref = norm_inf(t1, nv) + norm_inf(t4, nv) + 1e-12;
        for (size_t i = 0; i < nv; i++) err = fmax(err, fabs((t4[i] - t1[i]) - 2.5 * (t3[i] - t1[i])));
        CHECK(err <= 1e-10 * ref, "tau not affine in f_ext (%g)", err);
    }

    /* floating base: at rest the root joint carries the whole weight (any posture), its
     * position does not matter, and with the root at the origin its force balances the
     * external wrenches: tau_root = -sum W (world frame, moments about O); the centre of
     * mass and the potential energy agree */
    if (fb && nv >= 6) {
        double *qr = dalloc(nq), com[3], U;
        memcpy(qr, q, sizeof(double) * nq);
        run_ok(m, w, U2D_ALGO_RNEA, q, z, z, g0, NULL, t1, NULL);
        double weight = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]), mt = total_mass(u);
        CHECK(fabs(weight - 9.81 * mt) <= 1e-9 * (9.81 * mt + 1e-300),
              "root force %.15g N, total weight %.15g N", weight, 9.81 * mt);
        run_ok(m, w, U2D_ALGO_COM, q, NULL, NULL, g0, NULL, com, NULL);
        run_ok(m, w, U2D_ALGO_POTENTIAL, q, NULL, NULL, g0, NULL, &U, NULL);
        CHECK(fabs(U - 9.81 * mt * com[2]) <= 1e-9 * (1.0 + fabs(U)), "potential %.15g != m g z %.15g",
              U, 9.81 * mt * com[2]);

        run_ok(m, w, U2D_ALGO_RNEA, q, v, a, g0, NULL, t1, NULL);
        qr[0] += 3.0; qr[1] -= 7.0; qr[2] += 11.0;
        run_ok(m, w, U2D_ALGO_RNEA, qr, v, a, g0, NULL, t2, NULL);
        double err = max_diff(t1, t2, nv);
        CHECK(err <= 1e-9 * (norm_inf(t1, nv) + 1.0), "tau depends on the root position (%g)", err);

        qr[0] = qr[1] = qr[2] = 0.0;
        qr[3] = qr[4] = qr[5] = 0.0; qr[6] = 1.0;
        int body[3] = {0, 1 + (int)(h_rand(r) % (nb - 1)), 1 + (int)(h_rand(r) % (nb - 1))};
        double W[18], sum[6] = {0, 0, 0, 0, 0, 0};
        for (int k = 0; k < 18; k++) W[k] = h_unif(r, -10, 10);
        for (int k = 1; k < 3; k++) for (int c = 0; c < 6; c++) sum[c] += W[6 * k + c];
        u2d_fext f = {3, body, W};
        run_ok(m, w, U2D_ALGO_RNEA, qr, z, z, nog, &f, t1, NULL);
        err = 0.0;
        for (int c = 0; c < 6; c++) err = fmax(err, fabs(t1[c] + sum[c]));
        CHECK(err <= 1e-9 * (norm_inf(sum, 6) + 1.0), "root does not balance f_ext (%g)", err);
        free(qr);
    }

    /* simulation: row 0 is the initial state; without gravity and joint forces, RK4 keeps
     * the kinetic energy */
    if (heavy && nv > 0) {
        size_t steps = 10;
        double *qs = dalloc((steps + 1) * nq), *vs = dalloc((steps + 1) * nv);
        double *tau = dalloc((2 * steps + 1) * nv), T0, T1;
        memset(tau, 0, sizeof(double) * (2 * steps + 1) * nv);
        random_v(m, r, t1, 0.5);
        size_t bad = 0;
        for (int method = 0; method < 3; method++) {
            u2d_status st = u2d_simulate(m, w, method == 2 ? nog : g0, q, t1, tau, method == 1,
                                         steps, 1e-3, (u2d_method)method, 0, NULL, NULL, 0, qs,
                                         vs, &bad);
            CHECK(st == U2D_OK || st == U2D_ERR_SINGULAR, "simulate status %d", (int)st);
            CHECK(memcmp(qs, q, sizeof(double) * nq) == 0 && memcmp(vs, t1, sizeof(double) * nv) == 0,
                  "simulate: row 0 is not the initial state");
            if (st != U2D_OK || method != 2) continue;
            run_ok(m, w, U2D_ALGO_KINETIC, q, t1, NULL, g0, NULL, &T0, NULL);
            run_ok(m, w, U2D_ALGO_KINETIC, qs + steps * nq, vs + steps * nv, NULL, g0, NULL, &T1, NULL);
            CHECK(fabs(T1 - T0) <= 1e-6 * (T0 + 1e-9) || !all_finite(vs, (steps + 1) * nv),
                  "rk4: kinetic energy %.15g -> %.15g", T0, T1);
        }
        u2d_status st = u2d_simulate(m, w, g0, q, t1, tau, 0, 2, 1e-3, (u2d_method)7, 0, NULL,
                                     NULL, 0, qs, vs, &bad);
        CHECK(st == U2D_ERR_ARGUMENT, "simulate: unknown method gave status %d", (int)st);
        free(qs); free(vs); free(tau);
    }
    u2d_work_free(w);
    free(q); free(v); free(a); free(z); free(t1); free(t2); free(t3); free(t4);
}

/* A workspace lent to batches keeps what they make, the SIMD path's lane copy of the model
 * and lane workspace and the other threads' workspaces, and the next call reuses them
 * instead of allocating and zeroing them again; calls on other paths and of other
 * algorithms in between do not change the results. */
static void check_kept_workspace(const u2d_model *m, uint64_t *r)
{
    const size_t n = 2 * 128 + 5, nq = (size_t)m->nq, nv = (size_t)m->nv;  /* two threads */
    double *q = dalloc(n * nq), *v = dalloc(n * nv), *a = dalloc(n * nv);
    double *t1 = dalloc(n * nv), *t2 = dalloc(n * nv), *M = dalloc(n * nv * nv);
    for (size_t s = 0; s < n; s++) {
        random_q(m, r, q + s * nq);
        random_v(m, r, v + s * nv, 1.5);
        random_v(m, r, a + s * nv, 1.5);
    }
    u2d_work *w = u2d_work_new(m);
    u2d_batch_args in;
    memset(&in, 0, sizeof in);
    in.in[0] = q; in.in_size[0] = nq;
    in.in[1] = v; in.in_size[1] = nv;
    in.in[2] = a; in.in_size[2] = nv;
    in.gravity[2] = -9.81;
    for (int p = 0; p < H_NSIMD; p++) {
        if (u2d_simd_select(H_SIMD[p]) != 0) continue;
        const int vector = u2d_simd_kernel() != NULL;
        size_t bad;
        in.out[0] = t1; in.out_size[0] = nv;
        u2d_status st = h_batch(m, U2D_ALGO_RNEA, n, 2, &in, w, &bad);
        if (st != U2D_OK) continue;                 /* the hostile models: checked elsewhere */
        void *lanes = w->lanes;
        u2d_work *next = w->next;
        CHECK(next != NULL, "%s: the second thread's workspace is not kept", H_SIMD[p]);
        CHECK(!vector || (lanes && next && next->lanes),
              "%s: the lane workspaces are not kept", H_SIMD[p]);
        in.out[0] = M; in.out_size[0] = nv * nv;
        h_batch(m, U2D_ALGO_CRBA, n, 2, &in, w, &bad);
        in.out[0] = t2; in.out_size[0] = nv;
        st = h_batch(m, U2D_ALGO_RNEA, n, 2, &in, w, &bad);
        CHECK(st == U2D_OK && w->lanes == lanes && w->next == next,
              "%s: a second call made its workspaces again", H_SIMD[p]);
        CHECK(memcmp(t1, t2, sizeof(double) * n * nv) == 0,
              "%s: a call with a used workspace differs", H_SIMD[p]);
    }
    u2d_simd_select(NULL);
    u2d_work_free(w);
    free(q); free(v); free(a); free(t1); free(t2); free(M);
}

/* Batches: bit-identical to one-sample calls whatever the number of threads; a NaN stays
 * in its sample; the lowest failing sample is reported; N = 0 is fine. */
static void check_batches(const u2d_model *m, uint64_t *r, size_t n)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    double *Q = dalloc(n * nq), *Q2 = dalloc(n * nq), *V = dalloc(n * nv), *A = dalloc(n * nv);
    int body[2] = {(int)(h_rand(r) % (uint64_t)m->nbody), (int)(h_rand(r) % (uint64_t)m->nbody)};
    double *Wn = dalloc(n * 12), Ws[12];
    for (size_t s = 0; s < n; s++) {
        random_q(m, r, Q + s * nq);
        random_q(m, r, Q2 + s * nq);
        random_v(m, r, V + s * nv, 1.5);
        random_v(m, r, A + s * nv, 1.5);
        for (int k = 0; k < 12; k++) Wn[s * 12 + k] = h_unif(r, -3, 3);
    }
    for (int k = 0; k < 12; k++) Ws[k] = h_unif(r, -3, 3);
    u2d_work *w = u2d_work_new(m);
    int link = (int)(h_rand(r) % (uint64_t)m->nlink);

    for (int k = 0; k < U2D_NALGO; k++) {
        const h_algo *Al = &H_ALGOS[k];
        if (!Al->name || h_too_big(m, Al)) continue;
        size_t w0 = h_out_size(Al, m, 0), w1 = h_out_size(Al, m, 1), w2 = h_out_size(Al, m, 2);
        double *ref0 = dalloc(n * w0), *ref1 = dalloc(n * w1), *ref2 = dalloc(n * w2);
        double *out0 = dalloc(n * w0), *out1 = dalloc(n * w1), *out2 = dalloc(n * w2);
        const double *X[3];
        bind(Al, Q, Q2, V, A, X);
        u2d_batch_args in;
        memset(&in, 0, sizeof in);
        for (int j = 0; Al->in[j]; j++) {
            in.in[j] = X[j];
            in.in_size[j] = Al->in[j] == 'q' ? nq : nv;
        }
        in.out[0] = out0; in.out_size[0] = w0;
        in.out[1] = w1 ? out1 : NULL; in.out_size[1] = w1;
        in.out[2] = w2 ? out2 : NULL; in.out_size[2] = w2;
        in.gravity[0] = 0.3; in.gravity[1] = -0.2; in.gravity[2] = -9.81;
        in.link = link;
        in.point[0] = 0.05; in.point[1] = -0.1; in.point[2] = 0.2;
        in.dt = 0.02;
        int batch_ok = 1;

        for (int fmode = 0; fmode < (Al->fext ? 3 : 1); fmode++) {   /* none, shared, per sample */
            in.nfext = fmode ? 2 : 0;
            in.fext_shared = fmode == 1;
            in.fext_body = body;
            in.fext_wrench = fmode == 1 ? Ws : fmode == 2 ? Wn : NULL;
            u2d_status want = U2D_OK;
            size_t want_bad = n;
            if (fmode == 0) batch_ok = 1;
            for (size_t s = 0; s < n; s++) {
                u2d_fext f = {2, body, fmode == 1 ? Ws : Wn + 12 * s};
                h_state st = {{X[0] ? X[0] + s * in.in_size[0] : NULL,
                               X[1] ? X[1] + s * in.in_size[1] : NULL,
                               X[2] ? X[2] + s * in.in_size[2] : NULL},
                              {0.3, -0.2, -9.81}, fmode ? &f : NULL, link, {0.05, -0.1, 0.2}, 0.02};
                u2d_batch_args a1 = h_args3(&st, ref0 + s * w0, w1 ? ref1 + s * w1 : NULL,
                                            w2 ? ref2 + s * w2 : NULL);
                u2d_status r1 = Al->one(m, w, &a1);
                if (r1 != U2D_OK && want == U2D_OK) { want = r1; want_bad = s; batch_ok = 0; }
            }
            static const int threads[] = {1, 2, 3, 8};
            /* every SIMD path this CPU has reproduces the one-sample calls bit for bit */
            for (int p = 0; p < H_NSIMD; p++) {
                if (u2d_simd_select(H_SIMD[p]) != 0) continue;
                CHECK(!strcmp(u2d_simd_path(), H_SIMD[p]), "simd path %s not selected", H_SIMD[p]);
                CHECK((u2d_simd_kernel() == NULL) == (p == 0), "simd kernel of %s", H_SIMD[p]);
                for (int t = 0; t < 4; t++) {
                    size_t bad = 999;
                    memset(out0, 0xff, sizeof(double) * n * w0);
                    memset(out1, 0xff, sizeof(double) * n * w1);
                    memset(out2, 0xff, sizeof(double) * n * w2);
                    u2d_status st = h_batch(m, k, n, threads[t], &in, t % 2 ? w : NULL, &bad);
                    CHECK(st == want && bad == want_bad,
                          "%s batch (%s): status %d, bad %zu; one by one: %d, %zu", Al->name,
                          H_SIMD[p], (int)st, bad, (int)want, want_bad);
                    CHECK(want != U2D_OK || (memcmp(ref0, out0, sizeof(double) * n * w0) == 0 &&
                                             memcmp(ref1, out1, sizeof(double) * n * w1) == 0 &&
                                             memcmp(ref2, out2, sizeof(double) * n * w2) == 0),
                          "%s batch (%s) with %d threads, fext mode %d: differs from one-sample "
                          "calls", Al->name, H_SIMD[p], threads[t], fmode);
                }
            }
            u2d_simd_select(NULL);
#ifdef H_LANES8
            /* the AVX-512 path's 8-lane code, run here through AVX2: every whole group of 8
             * (or none, for algorithms it has no kernel for) equals the one-sample calls */
            if (want == U2D_OK && __builtin_cpu_supports("avx2") &&
                __builtin_cpu_supports("fma")) {
                memset(out0, 0xff, sizeof(double) * n * w0);
                memset(out1, 0xff, sizeof(double) * n * w1);
                memset(out2, 0xff, sizeof(double) * n * w2);
                size_t done = u2d_simd_run_lanes8(m, w, (u2d_algo)k, &in, 0, n);
                const int vector = k == U2D_ALGO_RNEA || k == U2D_ALGO_NLE || k == U2D_ALGO_GRAVITY
                                || k == U2D_ALGO_CRBA || k == U2D_ALGO_ABA || k == U2D_ALGO_FK
                                || k == U2D_ALGO_RNEA_DERIV || k == U2D_ALGO_ABA_DERIV;
                CHECK(done == (vector ? n / 8 * 8 : 0), "%s lanes8: %zu of %zu samples done",
                      Al->name, done, n);
                CHECK(memcmp(ref0, out0, sizeof(double) * done * w0) == 0 &&
                      memcmp(ref1, out1, sizeof(double) * done * w1) == 0 &&
                      memcmp(ref2, out2, sizeof(double) * done * w2) == 0,
                      "%s lanes8, fext mode %d: differs from one-sample calls", Al->name, fmode);
                h_lanes8_samples += done;
            }
#endif
        }
        in.nfext = 0;
        /* a NaN in sample k spoils sample k only */
        if (nv && Al->in[1] == 'v' && n >= 3) {
            size_t k1 = n / 3;
            double *x = (double *)X[1] + k1 * nv, keep = x[0];
            x[0] = NAN;
            size_t bad = 0;
            u2d_status st = h_batch(m, k, n, 3, &in, w, &bad);
            CHECK(st == U2D_OK || h_excused(m, Al, st),
                  "%s batch: status %d with a NaN", Al->name, (int)st);
            int spread = 0;
            for (size_t s = 0; s < n && st == U2D_OK; s++)
                if (s != k1 && (!all_finite(out0 + s * w0, w0) || !all_finite(out1 + s * w1, w1) ||
                                !all_finite(out2 + s * w2, w2)))
                    spread = 1;
            CHECK(!spread, "%s batch: a NaN spread to other samples", Al->name);
            x[0] = keep;
        }
        /* zero quaternions in two samples: the lower index is reported, whatever the threads */
        for (int i = 1; i < m->nbody && n >= 3 && Al->in[0] == 'q' && batch_ok; i++) {
            if (m->jtype[i] != U2D_JOINT_FLOATING) continue;
            size_t s1 = n / 3, s2 = n - 1, bad = 0;
            double save1[4], save2[4];
            double *x1 = Q + s1 * nq + m->qadr[i] + 3, *x2 = Q + s2 * nq + m->qadr[i] + 3;
            memcpy(save1, x1, sizeof save1); memcpy(save2, x2, sizeof save2);
            memset(x1, 0, sizeof save1); memset(x2, 0, sizeof save2);
            for (int th = 1; th <= 4; th *= 2) {
                u2d_status st = h_batch(m, k, n, th, &in, th == 2 ? w : NULL, &bad);
                CHECK(st == U2D_ERR_QUATERNION && bad == s1,
                      "%s batch: zero quaternion in samples %zu, %zu: status %d, bad %zu (%d threads)",
                      Al->name, s1, s2, (int)st, bad, th);
            }
            memcpy(x1, save1, sizeof save1);
            u2d_status st = h_batch(m, k, n, 4, &in, w, &bad);
            CHECK(st == U2D_ERR_QUATERNION && bad == s2, "%s batch: zero quaternion in sample %zu: "
                  "status %d, bad %zu", Al->name, s2, (int)st, bad);
            memcpy(x2, save2, sizeof save2);
            break;
        }
        size_t bad = 0;
        u2d_status st = h_batch(m, k, 0, 4, &in, w, &bad);
        CHECK(st == U2D_OK && bad == 0, "%s: empty batch, status %d, bad %zu", Al->name, (int)st, bad);
        free(ref0); free(ref1); free(ref2); free(out0); free(out1); free(out2);
    }
    u2d_work_free(w);
    free(Q); free(Q2); free(V); free(A); free(Wn);
}

/* ---- the .osim writer ---------------------------------------------------------------------- */

/* An edit of each kind the document allows, written, read again and found; then a refused one. */
static void check_osim_write(const u2d_urdf *u, const char *text)
{
    const u2d_osimdoc *d = &u->osim;
    if (!u->has_gravity || !d->link_node) return;
    char err[U2D_ERRLEN];
    u2d_osim_edit e[6];
    int n = 0, body = -1, path = -1;
    for (int l = 1; l < u->nlink && body < 0; l++)
        if (d->link_node[l] >= 0) body = l;
    for (int k = 0; k < d->npath && path < 0; k++)
        if (d->path[k].lengths == U2D_LENGTHS_MUSCLE) path = k;
    if (body < 0) return;
    e[n++] = (u2d_osim_edit){U2D_EDIT_BODY_MASS, body, {2.5}, NULL, 0};
    e[n++] = (u2d_osim_edit){U2D_EDIT_MARKER_ADD, body, {0.25, -0.125, 0.5}, "driver_marker", 1};
    if (d->nframe) e[n++] = (u2d_osim_edit){U2D_EDIT_FRAME_TRANSLATION, 0, {0.1, 0.2, 0.3}, NULL, 0};
    if (u->nmarker) e[n++] = (u2d_osim_edit){U2D_EDIT_MARKER, 0, {0.5, 0.25, 0.125}, NULL, 0};
    if (path >= 0) e[n++] = (u2d_osim_edit){U2D_EDIT_LENGTHS, path, {0.0625, 0.375}, NULL, 0};
    char *out = u2d_osim_write(text, u, e, n, err);
    CHECK(out != NULL, "osim_write: %s", err);
    if (!out) return;
    u2d_urdf *v = u2d_osim_parse(out, err);
    CHECK(v != NULL, "the written document is not read again: %s", err);
    if (v) {
        CHECK(v->link[body].mass == 2.5, "written mass read as %g", v->link[body].mass);
        CHECK(v->nmarker == u->nmarker + 1 && v->osim.marker[u->nmarker].fixed &&
              v->osim.marker[u->nmarker].location[1] == -0.125, "the new marker is not read");
        if (d->nframe)
            CHECK(v->osim.frame[0].translation[2] == 0.3, "written frame read as %g",
                  v->osim.frame[0].translation[2]);
        if (u->nmarker)
            CHECK(v->osim.marker[0].location[0] == 0.5, "written marker read as %g",
                  v->osim.marker[0].location[0]);
        if (path >= 0)
            CHECK(v->osim.path[path].length[0] == 0.0625 && v->osim.path[path].length[1] == 0.375,
                  "written muscle lengths read as %g %g", v->osim.path[path].length[0],
                  v->osim.path[path].length[1]);
        u2d_urdf_free(v);
    }
    /* a kept writer: the same text each time, its changes taken back in between */
    u2d_osim_writer *wr = u2d_osim_writer_new(text, u, err);
    CHECK(wr != NULL, "osim_writer_new: %s", err);
    if (wr) {
        char *plain = u2d_osim_writer_write(wr, NULL, 0, err);
        char *again = u2d_osim_writer_write(wr, e, n, err);
        char *plain2 = u2d_osim_writer_write(wr, NULL, 0, err);
        CHECK(plain && again && plain2 && out && !strcmp(again, out) && !strcmp(plain, plain2),
              "a kept writer does not take its changes back");
        free(plain); free(again); free(plain2);
        u2d_osim_writer_free(wr);
    }
    free(out);
    u2d_osim_edit bad = {U2D_EDIT_MARKER, 1 << 20, {0}, NULL, 0};
    out = u2d_osim_write(text, u, &bad, 1, err);
    CHECK(out == NULL && strstr(err, "no marker"), "an edit of a missing marker: %s", err);
    free(out);
}

/* The geometry paths' lengths at the default pose: finite and not negative. */
static void check_paths(const u2d_urdf *u, const u2d_model *m)
{
    const u2d_osimdoc *d = &u->osim;
    if (!d->npath) return;
    u2d_work *w = u2d_work_new(m);
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *L = calloc((size_t)d->npath, sizeof *L);
    int *flag = calloc((size_t)d->npath, sizeof *flag);
    CHECK(w && q && L && flag, "out of memory");
    if (w && q && L && flag) {
        for (int b = 1; b < m->nbody; b++) {
            int j = m->jurdf[b];
            if (j < 0 || u->joint[j].coord0 < 0) continue;
            for (int k = 0; k < u->joint[j].ncoord && k < m->jnq[b]; k++)
                q[m->qadr[b] + k] = u->coord[u->joint[j].coord0 + k].default_value;
        }
        u2d_status st = u2d_path_lengths(m, u, w, q, L, flag);
        CHECK(st == U2D_OK, "path_lengths: status %d", (int)st);
        for (int p = 0; p < d->npath && st == U2D_OK; p++)
            CHECK(isfinite(L[p]) && L[p] >= 0.0, "path %s: length %g", d->path[p].name, L[p]);
    }
    free(q); free(L); free(flag);
    u2d_work_free(w);
}

/* Gravity the readers and Model.gravity take: up to ~1e154 m/s^2 a component (whose
 * squared length is still a double), not beyond, not NaN or infinite (OpenSim 4.6 refuses
 * the same: "A non-finite 'down' direction"). */
static void check_gravity_in_range(void)
{
    static const struct { double g[3]; int in; } cases[] = {
        {{0, 0, -9.81}, 1}, {{0, 0, 0}, 1}, {{1e154, 0, 0}, 1}, {{5e-324, 0, 0}, 1},
        {{1e200, 0, 0}, 0}, {{1e154, 1e154, 0}, 0}, {{0, -1e308, 1e308}, 0},
        {{NAN, 0, 0}, 0}, {{0, INFINITY, 0}, 0}, {{0, 0, -INFINITY}, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        CHECK(u2d_gravity_in_range(cases[k].g) == cases[k].in, "gravity case %zu", k);
}

/* A marker set file in either layout, and text that is not one. */
static void check_markerset(void)
{
    static const char *text =
        "<?xml version=\"1.0\"?>\n<OpenSimDocument Version=\"30000\"><MarkerSet><objects>"
        "<Marker name=\"RASI\"><body>pelvis</body><location>0.01 0.02 0.13</location>"
        "<fixed>true</fixed></Marker><Marker name=\"RKNE\"><socket_parent_frame>"
        "/bodyset/femur_r</socket_parent_frame><location>0 -0.4 0.05</location></Marker>"
        "</objects></MarkerSet></OpenSimDocument>";
    char err[U2D_ERRLEN];
    u2d_markerset_entry *list = NULL;
    u2d_finding *notes = NULL;
    int nnotes = 0;
    int n = u2d_markerset_parse(text, &list, &notes, &nnotes, err);
    CHECK(n == 2 && list && !strcmp(list[0].frame, "pelvis") && list[0].fixed &&
          !strcmp(list[1].frame, "/bodyset/femur_r") && !list[1].fixed &&
          list[1].location[1] == -0.4, "marker set read as %d entries: %s", n, err);
    CHECK(nnotes == 0 && !notes, "a clean marker set noted %d things", nnotes);
    free(list);
    n = u2d_markerset_parse("<OpenSimDocument><Model/></OpenSimDocument>", &list, &notes,
                            &nnotes, err);
    CHECK(n == -1 && strstr(err, "no <MarkerSet>"), "a file without a MarkerSet: %d %s", n, err);
}

/* An MJCF file read from disk: its <include> found beside it through u2d_read_file (the
 * fuzzer hands includes over in its input instead), and a missing file named. */
static void check_mjcf_from_disk(void)
{
    char dir[] = "/tmp/u2d_driver_XXXXXX", main_path[64], part_path[64], err[U2D_ERRLEN];
    if (!mkdtemp(dir)) { CHECK(0, "mkdtemp: %s", strerror(errno)); return; }
    snprintf(main_path, sizeof main_path, "%s/robot.xml", dir);
    snprintf(part_path, sizeof part_path, "%s/arm.xml", dir);
    FILE *f = fopen(part_path, "w");
    if (f) {
        fputs("<mujoco><worldbody><body name=\"arm\"><joint name=\"j\" type=\"ball\"/>"
              "<inertial pos=\"0 0 0.1\" mass=\"1\" diaginertia=\"0.1 0.1 0.1\"/></body>"
              "</worldbody></mujoco>", f);
        fclose(f);
    }
    const char *text = "<mujoco model=\"m\"><include file=\"arm.xml\"/></mujoco>";
    CHECK(u2d_is_mjcf(text) && !u2d_is_mjcf("<robot name=\"r\"/>"), "u2d_is_mjcf");
    u2d_urdf *u = u2d_mjcf_parse(text, main_path, NULL, NULL, err);
    CHECK(u && u->nlink == 2, "an include read from disk: %s", u ? "wrong links" : err);
    if (u) {
        u2d_model *m = u2d_model_compile(u, 0, err);
        CHECK(m && m->nq == 4 && u2d_quat_at(m->jtype[m->nbody - 1]) == 0,
              "the included ball joint: %s", m ? "wrong coordinates" : err);
        u2d_model_free(m);
        u2d_urdf_free(u);
    }
    size_t len = 0;
    char *none = u2d_read_file(NULL, "/nonexistent/u2d/arm.xml", &len, err);
    CHECK(!none && strstr(err, "arm.xml"), "a missing file: %s", err);
    free(none);
    remove(part_path);
    rmdir(dir);
}

/* ---- one document ------------------------------------------------------------------------- */

typedef struct { int loaded, rejected; } tally;
static tally files_tally;

/* Returns 1 when the document loaded. heavy: mass-matrix level checks (size permitting). */
static int check_document(const char *name, const char *text, int heavy, size_t nbatch,
                          uint64_t seed)
{
    char err[U2D_ERRLEN];
    char label[300];
    snprintf(label, sizeof label, "%.250s", name);
    current = label;
    double t0 = seconds();
    u2d_urdf *u = h_parser_for(name, text)->parse(text, NULL, err);
    if (!u) {
        printf("  rejected %s: %s\n", name, err);
        current = "";
        return 0;
    }
    h_check_urdf(u);
    h_check_osim(u);
    check_osim_write(u, text);
    for (int fb = 0; fb <= 1; fb++) {
        snprintf(label, sizeof label, "%.250s [%s base]", name, fb ? "floating" : "fixed");
        u2d_model *m = u2d_model_compile(u, fb, err);
        if (!m) {
            printf("  %s: not compiled: %s\n", label, err);
            /* refused by name: a joint already called root_joint, or floating_base above
             * a floating joint at the root (the robot would float twice) */
            CHECK(strstr(err, "root_joint") != NULL ||
                  (fb && strstr(err, "floating_base=True adds a floating joint") != NULL),
                  "compile failed: %s", err);
            continue;
        }
        h_check_model(m, u, fb);
        if (!fb) check_paths(u, m);
        uint64_t r = seed * 1000003 + (uint64_t)fb;
        check_jcalc(m, &r);
        check_constant_columns(m, &r);
        check_table(m, &r);
        check_physics(m, u, fb, &r, heavy && m->nv <= 200);
        check_batches(m, &r, nbatch);
        check_kept_workspace(m, &r);
        u2d_model_free(m);
    }
    current = "";
    u2d_urdf_free(u);
    if (getenv("U2D_DRIVER_TIMING")) printf("  %s: %.2f s\n", name, seconds() - t0);
    return 1;
}

/* ---- files -------------------------------------------------------------------------------- */

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    sbuf b = {0};
    char chunk[65536];
    size_t k;
    sb_printf(&b, "%s", "");
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.len + k + 1 > b.cap) {
            size_t cap = b.cap;
            while (cap < b.len + k + 1) cap *= 2;
            char *s = realloc(b.s, cap);
            if (!s) { free(b.s); fclose(f); return NULL; }
            b.s = s;
            b.cap = cap;
        }
        memcpy(b.s + b.len, chunk, k);
        b.len += k;
        b.s[b.len] = '\0';
    }
    fclose(f);
    *size = b.len;
    return b.s;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.urdf under dir, sorted, appended to list. */
static void collect(const char *dir, char ***list, size_t *n, size_t *cap)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = xmalloc(len);
        snprintf(path, len, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect(path, list, n, cap);
            free(path);
        } else if (ends_with(path, ".urdf")) {
            if (*n == *cap) {
                *cap = *cap ? 2 * *cap : 64;
                char **l = realloc(*list, sizeof(char *) * *cap);
                if (!l) { fprintf(stderr, "driver: out of memory\n"); exit(2); }
                *list = l;
            }
            (*list)[(*n)++] = path;
        } else {
            free(path);
        }
    }
    closedir(d);
}

/* ---- malformed documents ------------------------------------------------------------------ */

/* A small document with a bit of everything, for truncation and mutation. */
static const char *SMALL =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- small -->\r\n"
    "<!DOCTYPE robot>\n<robot name=\"small\">\n"
    "<link name=\"base\"><inertial><origin xyz=\"0 0 0.1\" rpy=\"0.1 0.2 0.3\"/><mass value=\"2\"/>"
    "<inertia ixx=\"0.1\" ixy=\"0.01\" ixz=\"0\" iyy=\"0.2\" iyz=\"0\" izz=\"0.25\"/></inertial></link>\n"
    "<joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"a\"/>"
    "<origin xyz=\"0 0 0.5\" rpy=\"0 0 1\"/><axis xyz=\"0 1 0\"/>"
    "<limit lower=\"-1\" upper=\"1\" effort=\"5\" velocity=\"1\"/><dynamics damping=\"0.1\"/></joint>\n"
    "<link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" "
    "iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial></link>\n"
    "<joint name=\"j2\" type=\"planar\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 1\"/></joint>\n"
    "<link name=\"b\"><inertial><mass value=\"0.5\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" "
    "iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>\n"
    "<joint name=\"j3\" type=\"floating\"><parent link=\"b\"/><child link=\"c\"/></joint>\n"
    "<link name=\"c\"><inertial><mass value=\"0.3\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" "
    "iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>\n"
    "<joint name=\"j4\" type=\"fixed\"><parent link=\"c\"/><child link=\"tip\"/><origin xyz=\"0.1 0 0\"/></joint>\n"
    "<link name=\"tip\"/>\n"
    "<joint name=\"j5\" type=\"prismatic\"><parent link=\"base\"/><child link=\"d\"/><axis xyz=\"1 1 0\"/>"
    "<mimic joint=\"j1\" multiplier=\"2\"/></joint>\n"
    "<link name=\"d\"/>\n"
    "<transmission name=\"t\"><joint name=\"j1\"/><actuator name=\"m\"/></transmission>\n"
    "<gazebo><joint name=\"g\"/><link name=\"g\"/></gazebo>\n"
    "</robot>\n";

#define LINK_A "<link name=\"a\"/>"
#define ROBOT(body) "<robot name=\"r\">" body "</robot>"

static const char *const MALFORMED[] = {
    "", " ", "\n\t \r\n", "\xef\xbb\xbf", "<", ">", "<>", "</>", "<<<<", "&", "&amp;", "<!--",
    "<?xml", "<?xml version=\"1.0\"?>", "<!DOCTYPE", "<![CDATA[", "<robot", "<robot>",
    "<robot name=\"x\">", "<robot/>", "<robot></robot>", "</robot>", "<robot name=",
    "<robot name=\"", "<robot name=\"x", "<robot name='x'/>", "<robot name=x/>",
    "<robot name=\"a\" name=\"b\"/>", "<robot =\"a\"/>", "<robot \"a\"/>",
    "\xff\xfe<\0r\0o\0b\0o\0t\0", "\xfe\xff\0<\0r", "\x80\x81\x82\xc3\x28\xa0\xa1",
    "<robot name=\"\xc3\x28\"><link name=\"\xe2\x28\xa1\"/></robot>",
    "<robot name=\"\xc0\xaf\"><link name=\"\xf8\x88\x80\x80\x80\"/></robot>",
    "<robot name=\"\xed\xa0\x80\"><link name=\"\xf4\x90\x80\x80\"/></robot>",
    "<r\xc3\xb6\x62ot><link name=\"a\"/></r\xc3\xb6\x62ot>",
    ROBOT(LINK_A "</robot>"), ROBOT(LINK_A "<link"), ROBOT("<link name=\"a\">"),
    "<robot><link name=\"a\"/>", "<robot><link name=\"a\"/><joint", "<robot><link name=\"a\"></robot>",
    ROBOT("<link name=\"&amp;&lt;&gt;&quot;&apos;\"/>"), ROBOT("<link name=\"&#0;\"/>"),
    ROBOT("<link name=\"&#x0;\"/>"), ROBOT("<link name=\"&#xFFFFFFFF;\"/>"),
    ROBOT("<link name=\"&#99999999999999999999;\"/>"), ROBOT("<link name=\"&unknown;\"/>"),
    ROBOT("<link name=\"&#xD800;\"/>"), ROBOT("<link name=\"&;\"/>"), ROBOT("<link name=\"&#;\"/>"),
    ROBOT("<link name=\"&#x;\"/>"), ROBOT("<link name=\"&"),
    "<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
    "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>"
    "<robot name=\"&d;\"><link name=\"&d;\"/></robot>",
    "<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><robot name=\"x\"><link name=\"a\"/></robot>",
    ROBOT("<![CDATA[<link name=\"a\"/>]]>" LINK_A), ROBOT(LINK_A "<![CDATA["),
    ROBOT(LINK_A "<!-- unterminated"), ROBOT(LINK_A "<?pi unterminated"),
    ROBOT("<link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"1e308\" ixy=\"1e308\" "
          "ixz=\"1e308\" iyy=\"1e308\" iyz=\"1e308\" izz=\"1e308\"/></inertial></link>"),
    ROBOT("<link name=\"a\"><inertial><mass value=\"1e308\"/><origin xyz=\"1e308 -1e308 1e308\" "
          "rpy=\"1e308 1e308 1e308\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" "
          "izz=\"1\"/></inertial></link>" "<link name=\"b\"/><joint name=\"j\" type=\"planar\">"
          "<parent link=\"a\"/><child link=\"b\"/><axis xyz=\"1e-300 0 1e-300\"/>"
          "<origin xyz=\"1e308 1e308 1e308\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/>"
          "<child link=\"b\"/><axis xyz=\"1e-13 0 0\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/>"
          "<child link=\"b\"/><axis xyz=\"1e200 1e200 1e200\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/>"
          "<child link=\"b\"/><axis xyz=\"4.9e-324 0 0\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"planar\"><parent link=\"a\"/>"
          "<child link=\"b\"/><axis xyz=\"0 0 -1\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"planar\"><parent link=\"a\"/>"
          "<child link=\"b\"/><axis xyz=\"0 1e-9 -1\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/>"
          "<child link=\"b\"/><origin xyz=\"0x1p3 0X10 1e-5\" rpy=\"  1\t\n2\r 3  \"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/>"
          "<child link=\"b\"/><origin xyz=\"1,2,3\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/>"
          "<child link=\"b\"/><origin xyz=\"infinity nan(1) -nan\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/>"
          "<child link=\"b\"/><origin xyz=\"1 2 3 \xc2\xa0\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"\"><parent link=\"\"/><child link=\"\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"REVOLUTE\"><parent link=\"a\"/><child link=\"b\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><parent link=\"b\"/>"
          "<child link=\"b\"/><child link=\"a\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>"
          "<mimic joint=\"\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>"
          "<mimic/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><link name=\"c\"/><joint name=\"j\" type=\"fixed\"><parent link=\"a\"/>"
          "<child link=\"b\"/><mimic joint=\"k\"/></joint><joint name=\"k\" type=\"fixed\">"
          "<parent link=\"b\"/><child link=\"c\"/><mimic joint=\"j\"/></joint>"),
    ROBOT(LINK_A "<link name=\"b\"/><joint name=\"root_joint\" type=\"floating\"><parent link=\"a\"/>"
          "<child link=\"b\"/></joint>"),
    ROBOT(LINK_A "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"a\"/></joint>"),
    ROBOT("<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/><joint name=\"j1\" type=\"fixed\">"
          "<parent link=\"b\"/><child link=\"c\"/></joint><joint name=\"j2\" type=\"fixed\">"
          "<parent link=\"c\"/><child link=\"b\"/></joint>"),
    ROBOT("<link name=\"a\"/><link name=\"b\"/><joint name=\"j1\" type=\"fixed\">"
          "<parent link=\"a\"/><child link=\"b\"/></joint><joint name=\"j2\" type=\"fixed\">"
          "<parent link=\"a\"/><child link=\"b\"/></joint>"),
    ROBOT("<link name=\"a\"/><link name=\"a\"/><link name=\"a\"/>"),
    ROBOT("<link name=\"\"/>"), ROBOT("<link/>"), ROBOT("<joint/>"), ROBOT("<joint name=\"j\"/>"),
    "<robot name=\"r\"><robot name=\"inner\"><link name=\"a\"/></robot></robot>",
    "<robot name=\"one\"><link name=\"a\"/></robot><robot name=\"two\"><link name=\"b\"/></robot>",
    "<robot name=\"one\"><link name=\"a\"/></robot>trailing garbage <<<",
    "text before <robot name=\"one\"><link name=\"a\"/></robot>",
    "<model><robot name=\"nested\"><link name=\"a\"/></robot></model>",
    ROBOT("<link name=\"a\"><inertial/></link>"),
    ROBOT("<link name=\"a\"><inertial><mass value=\"1\"/><mass value=\"2\"/><inertia ixx=\"1\" "
          "ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/><origin/><origin xyz=\"1\"/></inertial></link>"),
    ROBOT("<link name=\"a\"><inertial><mass value=\"0\"/><inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" "
          "iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial></link>"),
    ROBOT("<link name=\"a\"><inertial><mass value=\"-0\"/><inertia ixx=\"-0\" ixy=\"-0\" ixz=\"1e-320\" "
          "iyy=\"-0\" iyz=\"0\" izz=\"4.9e-324\"/></inertial></link>"),
};
#define NMALFORMED (sizeof MALFORMED / sizeof MALFORMED[0])

static void exercise_text(const char *text)
{
    h_exercise(NULL, (const uint8_t *)text, strlen(text));
}

static void check_malformed(int quick)
{
    int before = h_contract_failures;
    size_t count = 0;
    double t0 = seconds(), t1;
    current = "malformed inputs";
    for (size_t k = 0; k < NMALFORMED; k++, count++) exercise_text(MALFORMED[k]);

    /* every prefix of the small document */
    size_t n = strlen(SMALL);
    char *buf = xmalloc(n + 1);
    for (size_t k = 0; k <= n; k += quick ? 7 : 1, count++) {
        memcpy(buf, SMALL, k);
        buf[k] = '\0';
        exercise_text(buf);
    }
    /* byte mutations: overwrite, delete, insert one to three bytes */
    uint64_t r = 42;
    int nmut = quick ? 300 : 4000;
    char *mut = xmalloc(n + 8);
    static const char alphabet[] = "<>/=\"' \n&;!?-[]\x80\xff\xc3\0ab01.e+";
    for (int t = 0; t < nmut; t++, count++) {
        memcpy(mut, SMALL, n + 1);
        size_t len = n;
        int edits = 1 + (int)(h_rand(&r) % 3);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)(h_rand(&r) % len);
            char c = alphabet[h_rand(&r) % (sizeof alphabet - 1)];
            switch (h_rand(&r) % 3) {
            case 0: mut[at] = c; break;
            case 1: memmove(mut + at, mut + at + 1, len - at); len--; break;
            default: memmove(mut + at + 1, mut + at, len - at + 1); mut[at] = c; len++; break;
            }
        }
        mut[len] = '\0';
        /* bytes after an inserted NUL become the value stream, as in the fuzzer */
        h_exercise(NULL, (const uint8_t *)mut, len);
    }
    free(mut);

    t1 = seconds();
    /* big and deep: 100 000 nested elements, a 1 MB attribute, 20 000 links on one root,
     * 3 000 attributes on one element, long names */
    sbuf b = {0};
    int depth = quick ? 20000 : 100000;
    sb_printf(&b, "<robot name=\"deep\"><link name=\"a\"/>");
    for (int k = 0; k < depth; k++) sb_printf(&b, "<x>");
    for (int k = 0; k < depth; k++) sb_printf(&b, "</x>");
    sb_printf(&b, "</robot>");
    exercise_text(b.s);
    b.len = 0;
    sb_printf(&b, "<robot name=\"deep\"><link name=\"a\"/>");
    for (int k = 0; k < depth; k++) sb_printf(&b, "<x>");       /* unterminated */
    exercise_text(b.s);
    b.len = 0;
    sb_printf(&b, "<robot name=\"");
    {
        char chunk[1025];
        for (int k = 0; k < 1024; k++) chunk[k] = (char)('a' + k % 26);
        chunk[1024] = '\0';
        for (int k = 0; k < 1024; k++) sb_printf(&b, "%s", chunk);      /* 1 MB */
    }
    sb_printf(&b, "\"><link name=\"a\"/></robot>");
    exercise_text(b.s);
    b.len = 0;
    sb_printf(&b, "<robot name=\"wide\"><link name=\"a\"");
    for (int k = 0; k < 3000; k++) sb_printf(&b, " at%d=\"%d\"", k, k);
    sb_printf(&b, "/></robot>");
    exercise_text(b.s);
    b.len = 0;
    sb_printf(&b, "<robot name=\"long\"><link name=\"");
    for (int k = 0; k < 5000; k++) sb_printf(&b, "n");
    sb_printf(&b, "\"/><link name=\"b\"/><joint name=\"");
    for (int k = 0; k < 5000; k++) sb_printf(&b, "j");
    sb_printf(&b, "\" type=\"floating\"><parent link=\"b\"/><child link=\"");
    for (int k = 0; k < 4999; k++) sb_printf(&b, "n");
    sb_printf(&b, "\"/></joint></robot>");                       /* no such link */
    exercise_text(b.s);
    count += 5;
    free(b.s);
    free(buf);
    CHECK(h_contract_failures == before, "%d contract violations on malformed inputs",
          h_contract_failures - before);
    printf("malformed inputs: %zu documents through the parser (%.1f s, of which %.1f s for "
           "the big ones)\n", count, seconds() - t0, seconds() - t1);
    current = "";
}

/* ---- main --------------------------------------------------------------------------------- */

static int parse_mode(int argc, char **argv)
{
    int bad = 0, first = 2;
    const h_parser *parser = NULL;             /* NULL: each file's own (h_parser_for) */
    if (argc > 3 && !strcmp(argv[2], "--parser")) {
        parser = h_parser_named(argv[3]);
        if (!parser) {
            fprintf(stderr, "--parser %s: no such parser (", argv[3]);
            for (size_t k = 0; k < H_NPARSERS; k++)
                fprintf(stderr, "%s%s", k ? ", " : "", H_PARSERS[k].name);
            fprintf(stderr, ")\n");
            return 2;
        }
        first = 4;
    }
    for (int i = first; i < argc; i++) {
        size_t size = 0;
        char *data = read_file(argv[i], &size);
        if (!data) {
            fprintf(stderr, "%s: cannot read: %s\n", argv[i], strerror(errno));
            bad = 1;
            continue;
        }
        int before = h_contract_failures;
        h_exercise(parser ? parser : h_parser_for(argv[i], data), (const uint8_t *)data, size);
        printf("%s: %zu bytes, %s\n", argv[i], size,
               h_contract_failures == before ? "ok" : "CONTRACT VIOLATION");
        if (h_contract_failures != before) bad = 1;
        free(data);
    }
    return bad;
}

/* u2d_sincos (csrc/model/u2d_real.h) against libm, an independent implementation: at most 1 ulp
 * apart for joint-sized angles, 2 ulp up to 2000 rad; exact at 0; libm's own results beyond
 * 2^19 rad and for NaN and infinities. Returns the worst distance in ulp. */
static double ulp_distance(double got, double want)
{
    if (got == want) return 0.0;
    return fabs(got - want) / (nextafter(fabs(want), INFINITY) - fabs(want));
}

static void check_sincos(uint64_t *r)
{
    double worst_small = 0.0, worst_large = 0.0;
    for (int k = 0; k < 200000; k++) {
        double x = k % 2 ? h_unif(r, -7.0, 7.0) : h_unif(r, -2000.0, 2000.0), s, c;
        u2d_sincos(x, &s, &c);
        double e = fmax(ulp_distance(s, sin(x)), ulp_distance(c, cos(x)));
        if (k % 2) worst_small = fmax(worst_small, e);
        else worst_large = fmax(worst_large, e);
    }
    CHECK(worst_small <= 1.0, "u2d_sincos: %.2f ulp from libm on [-7, 7]", worst_small);
    CHECK(worst_large <= 2.0, "u2d_sincos: %.2f ulp from libm on [-2000, 2000]", worst_large);
    const double odd[] = {0.0, -0.0, 1e6, -3e7, 1e300, INFINITY, -INFINITY, NAN};
    for (size_t k = 0; k < sizeof odd / sizeof *odd; k++) {
        double s, c, x = odd[k];
        u2d_sincos(x, &s, &c);
        CHECK((isnan(s) && isnan(sin(x))) || (s == sin(x) && signbit(s) == signbit(sin(x))),
              "u2d_sincos: sin(%g) = %.17g, libm %.17g", x, s, sin(x));
        CHECK((isnan(c) && isnan(cos(x))) || c == cos(x), "u2d_sincos: cos(%g) = %.17g", x, c);
    }
    printf("sincos: %.2f ulp from libm on [-7, 7], %.2f on [-2000, 2000]\n", worst_small,
           worst_large);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 2 && !strcmp(argv[1], "--parse")) return parse_mode(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "--list-functions")) {
        for (int k = 0; k < U2D_NALGO; k++)
            if (H_ALGOS[k].name) printf("U2D_ALGO_%s\n", H_ALGOS[k].name);
        for (size_t k = 0; k < sizeof H_OTHER_FUNCTIONS / sizeof *H_OTHER_FUNCTIONS; k++)
            printf("u2d_%s\n", H_OTHER_FUNCTIONS[k]);
        return 0;
    }
    int quick = 0, strict = 0;
    char **files = NULL;
    size_t nfiles = 0, cap = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--strict")) strict = 1;
        else if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            size_t first = nfiles;
            collect(argv[i], &files, &nfiles, &cap);
            qsort(files + first, nfiles - first, sizeof *files, cmp_str);
        } else {
            if (nfiles == cap) {
                cap = cap ? 2 * cap : 64;
                char **l = realloc(files, sizeof(char *) * cap);
                if (!l) return 2;
                files = l;
            }
            size_t len = strlen(argv[i]) + 1;
            files[nfiles] = xmalloc(len);
            memcpy(files[nfiles++], argv[i], len);
        }
    }
    printf("algorithms:");
    for (int k = 0; k < U2D_NALGO; k++) printf(" %s", H_ALGOS[k].name ? H_ALGOS[k].name : "(missing)");
    printf("\n");

    check_markerset();
    check_gravity_in_range();
    check_mjcf_from_disk();

    /* generated robots */
    double t0 = seconds();
    int ntree = quick ? 4 : 40;
    for (int s = 0; s < ntree; s++) {
        int n = 2 + (int)((s * 37) % 23), flags = GEN_DECOYS;
        if (s % 2) flags |= GEN_PLANAR;
        if (s % 3 == 0) flags |= GEN_FLOATING;
        char *text = gen_tree((uint64_t)s, n, flags), name[64];
        snprintf(name, sizeof name, "random tree %d (%d links)", s, n);
        /* 260 samples: enough for u2d_batch to start 2 threads */
        size_t nbatch = s < (quick ? 1 : 3) ? 260 : 4;
        CHECK(check_document(name, text, 1, nbatch, (uint64_t)s), "did not load");
        free(text);
    }
    uint64_t rs = 99;
    check_sincos(&rs);
    struct { int n, star; size_t nbatch; } big[] = {
        {quick ? 200 : 1200, 0, 2}, {quick ? 200 : 1000, 1, 2}, {1, 0, 4}, {2, 1, 260}};
    for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
        char *text = gen_simple(big[k].n, big[k].star), name[64];
        snprintf(name, sizeof name, "%s of %d links", big[k].star ? "star" : "chain", big[k].n);
        CHECK(check_document(name, text, big[k].n <= 300, big[k].nbatch, 1000 + k), "did not load");
        free(text);
    }
    printf("generated robots: %d random trees, a chain, a star, tiny ones (%.1f s)\n", ntree,
           seconds() - t0);
    t0 = seconds();

    /* files */
    const size_t differenced_before_files = h_chain_models_differenced;
    for (size_t k = 0; k < nfiles; k++) {
        size_t size = 0;
        char *text = read_file(files[k], &size);
        if (!text) {
            fprintf(stderr, "%s: cannot read: %s\n", files[k], strerror(errno));
            n_failures++;
            continue;
        }
        /* 260 samples: with 37 coordinates or more (Rajagopal 2016 has 39) the three
         * derivative outputs exceed U2D_STREAM_BYTES, so one thread streams them */
        int ok = strlen(text) == size &&
                 check_document(files[k], text, !quick || size < 20000, quick ? 4 : 260, k);
        if (ok) files_tally.loaded++;
        else {
            files_tally.rejected++;
            if (strict) { n_failures++; fprintf(stderr, "FAIL %s: rejected (--strict)\n", files[k]); }
        }
        free(text);
        free(files[k]);
    }
    free(files);
    printf("files: %d loaded, %d rejected (%.1f s)\n", files_tally.loaded, files_tally.rejected,
           seconds() - t0);
    printf("files: rnea_deriv against differences of rnea on %zu models with chain joints\n",
           h_chain_models_differenced - differenced_before_files);

    check_malformed(quick);

    n_failures += h_contract_failures;
    printf("8-lane kernel on AVX2: %zu samples checked\n", h_lanes8_samples);
    printf("%d checks, %d failures%s\n", n_checks, n_failures, n_failures ? "" : ": OK");
    return n_failures ? 1 : 0;
}
