/* harness.h: what the C test driver (driver.c) and the libFuzzer harnesses (fuzz_*.c) share.
 *
 *  - H_ALGOS: the table of the core's algorithms, indexed by the u2d_algo enum of
 *    csrc/batch/u2d_batch.h. Adding an algorithm to every test is one adapter and one table line
 *    here; an enum value without a line is reported as a failure by the driver, and
 *    tests/test_c_core.py fails when a function declared in the core's headers is not
 *    exercised (driver --list-functions).
 *  - H_PARSERS: the model formats the core reads (one fuzzer each: fuzz_NAME.c).
 *  - h_exercise(): one input, bytes -> parse -> compile (fixed and floating base) -> every
 *    algorithm on nice and on hostile (NaN, inf, huge) states -> free, checking the core's
 *    contract on the way. The fuzzer calls it on every input and `driver --parse FILE` on
 *    every regression file, so a crasher saved in tests/c/regressions/ replays exactly.
 *
 * Contract violations are reported through h_contract_failed() (the fuzzer aborts there). */
#ifndef U2D_TEST_HARNESS_H
#define U2D_TEST_HARNESS_H

#include <math.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "batch/u2d_batch.h"
#include "model/u2d_model.h"
#include "batch/u2d_simd.h"

/* ---- deterministic random numbers (splitmix64) ------------------------------------------ */

static inline uint64_t h_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline double h_unif(uint64_t *s, double lo, double hi)   /* uniform in [lo, hi) */
{
    return lo + (hi - lo) * (double)(h_rand(s) >> 11) * 0x1.0p-53;
}

static inline uint64_t h_hash(const uint8_t *p, size_t n)          /* FNV-1a */
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* ---- the algorithm table ----------------------------------------------------------------- */

/* Every algorithm of the core's u2d_algo enum (csrc/batch/u2d_batch.h), with its inputs and
 * outputs and a one-sample adapter that calls the core's public functions with the
 * caller's workspace. The batch path (u2d_batch) must reproduce the adapter bit for bit.
 * A new enum value without an entry here makes the driver fail ("no entry"), so the tests
 * follow the header. */
typedef size_t (*h_size_fn)(const u2d_model *m);

typedef struct {
    const char *name;               /* NULL: the enum value has no entry (a test failure) */
    const char *in;                 /* one letter per input: 'q' (nq) or 'v' (nv)          */
    h_size_fn out[3];               /* output sizes in doubles; out[1], out[2] may be NULL */
    int fext;                       /* takes external forces                              */
    int singular_ok;                /* may return U2D_ERR_SINGULAR on a valid state       */
    /* one sample: a->in[k] and a->out[k] point at the sample itself */
    u2d_status (*one)(const u2d_model *m, u2d_work *w, const u2d_batch_args *a);
    int max_nv;                     /* > 0: run on models of at most max_nv coordinates
                                       (outputs of nv^2 or nv x 10 nbody numbers and up to
                                       nv^3 work per sample: a 1000-link chain would take
                                       hours through the batch checks)                  */
} h_algo;

static inline size_t h_sz_1(const u2d_model *m) { (void)m; return 1; }
static inline size_t h_sz_3(const u2d_model *m) { (void)m; return 3; }
static inline size_t h_sz_6(const u2d_model *m) { (void)m; return 6; }
static inline size_t h_sz_nq(const u2d_model *m) { return (size_t)m->nq; }
static inline size_t h_sz_nv(const u2d_model *m) { return (size_t)m->nv; }
static inline size_t h_sz_nv2(const u2d_model *m) { return (size_t)m->nv * (size_t)m->nv; }
static inline size_t h_sz_6nv(const u2d_model *m) { return 6 * (size_t)m->nv; }
static inline size_t h_sz_link3(const u2d_model *m) { return 3 * (size_t)m->nlink; }
static inline size_t h_sz_link6(const u2d_model *m) { return 6 * (size_t)m->nlink; }
static inline size_t h_sz_link9(const u2d_model *m) { return 9 * (size_t)m->nlink; }
static inline size_t h_sz_joint3(const u2d_model *m) { return 3 * (size_t)m->njoint; }
static inline size_t h_sz_9(const u2d_model *m) { (void)m; return 9; }
static inline size_t h_sz_12(const u2d_model *m) { (void)m; return 12; }
static inline size_t h_sz_regressor(const u2d_model *m)
{
    return (size_t)m->nv * 10 * (size_t)(m->nbody - 1);
}

static inline const u2d_fext *h_fext_of(const u2d_batch_args *a, u2d_fext *f)
{
    if (a->nfext <= 0) return NULL;
    *f = (u2d_fext){a->nfext, a->fext_body, a->fext_wrench};
    return f;
}

#define H_ONE(fname) static inline u2d_status fname(const u2d_model *m, u2d_work *w, \
                                                     const u2d_batch_args *a)
H_ONE(h_rnea) { u2d_fext f; return u2d_rnea(m, w, a->gravity, a->in[0], a->in[1], a->in[2],
                                            h_fext_of(a, &f), a->out[0]); }
H_ONE(h_crba) { return u2d_crba(m, w, a->in[0], a->out[0]); }
H_ONE(h_nle) { return u2d_rnea(m, w, a->gravity, a->in[0], a->in[1], w->zero, NULL, a->out[0]); }
H_ONE(h_gravity) { return u2d_rnea(m, w, a->gravity, a->in[0], w->zero, w->zero, NULL,
                                   a->out[0]); }
H_ONE(h_coriolis) { return u2d_coriolis(m, w, a->in[0], a->in[1], a->out[0]); }
H_ONE(h_aba) { u2d_fext f; return u2d_aba(m, w, a->gravity, a->in[0], a->in[1], a->in[2],
                                          h_fext_of(a, &f), a->out[0]); }
H_ONE(h_fk)
{
    u2d_status st = u2d_kinematics(m, w, a->in[0], NULL);
    if (st == U2D_OK) u2d_link_poses(m, w, a->out[0], a->out[1]);
    return st;
}
H_ONE(h_joint_pos)
{
    u2d_status st = u2d_kinematics(m, w, a->in[0], NULL);
    if (st == U2D_OK) u2d_joint_positions(m, w, a->out[0]);
    return st;
}
H_ONE(h_com)
{
    u2d_status st = u2d_kinematics(m, w, a->in[0], NULL);
    if (st == U2D_OK) u2d_center_of_mass(m, w, a->out[0]);
    return st;
}
H_ONE(h_jacobian)
{
    if (a->link < 0 || a->link >= m->nlink) return U2D_ERR_ARGUMENT;
    u2d_status st = u2d_kinematics(m, w, a->in[0], NULL);
    if (st == U2D_OK) u2d_jacobian(m, w, a->link, a->point, a->out[0]);
    return st;
}
H_ONE(h_link_vel)
{
    u2d_status st = u2d_kinematics(m, w, a->in[0], a->in[1]);
    if (st == U2D_OK) u2d_link_velocities(m, w, a->out[0]);
    return st;
}
H_ONE(h_kinetic)
{
    u2d_status st = u2d_kinematics(m, w, a->in[0], a->in[1]);
    if (st == U2D_OK) a->out[0][0] = u2d_kinetic_energy(m, w, a->in[1]);
    return st;
}
H_ONE(h_potential)
{
    u2d_status st = u2d_kinematics(m, w, a->in[0], NULL);
    if (st == U2D_OK) a->out[0][0] = u2d_potential_energy(m, w, a->gravity);
    return st;
}
H_ONE(h_integrate) { (void)w; return u2d_integrate(m, a->in[0], a->in[1], a->dt, a->out[0]); }
H_ONE(h_difference) { (void)w; return u2d_difference(m, a->in[0], a->in[1], a->out[0]); }
H_ONE(h_normalize) { (void)w; return u2d_normalize(m, a->in[0], a->out[0]); }
H_ONE(h_passive) { (void)w; return u2d_passive(m, a->in[0], a->in[1], a->out[0]); }
H_ONE(h_rnea_deriv) { u2d_fext f; return u2d_rnea_derivatives(m, w, a->gravity, a->in[0],
                                          a->in[1], a->in[2], h_fext_of(a, &f), a->out[0],
                                          a->out[1], a->out[2]); }
H_ONE(h_aba_deriv) { u2d_fext f; return u2d_aba_derivatives(m, w, a->gravity, a->in[0],
                                         a->in[1], a->in[2], h_fext_of(a, &f), a->out[0],
                                         a->out[1], a->out[2]); }
H_ONE(h_ccrba) { return u2d_ccrba(m, w, a->in[0], a->out[0]); }
H_ONE(h_centroidal) { return u2d_centroidal(m, w, a->in[0], a->in[1], a->in[2], a->out[0],
                                            a->out[1]); }
H_ONE(h_regressor) { return u2d_regressor(m, w, a->gravity, a->in[0], a->in[1], a->in[2],
                                          a->out[0]); }
static inline u2d_status h_frame_ok(const u2d_model *m, const u2d_batch_args *a)
{
    return a->link < 0 || a->link >= m->nlink || (int)a->reference < 0 ||
           a->reference > U2D_LOCAL_WORLD_ALIGNED ? U2D_ERR_ARGUMENT : U2D_OK;
}
/* Some adapters place the whole tree, others only the frame's path (as u2d_batch does):
 * the driver's cross-checks (J v = velocity, J a + dJ v = acceleration) compare the two. */
H_ONE(h_frame_jacobian)
{
    u2d_status st = h_frame_ok(m, a);
    if (st == U2D_OK) st = u2d_kinematics_path(m, w, m->link_body[a->link], a->in[0], NULL);
    if (st == U2D_OK) u2d_frame_jacobian(m, w, a->link, a->point, a->reference, a->out[0]);
    return st;
}
H_ONE(h_frame_jacobian_dot)
{
    u2d_status st = h_frame_ok(m, a);
    if (st == U2D_OK) st = u2d_kinematics(m, w, a->in[0], a->in[1]);
    if (st == U2D_OK)
        st = u2d_frame_jacobian_dot(m, w, a->in[0], a->in[1], a->link, a->point, a->reference,
                                    a->out[0]);
    return st;
}
H_ONE(h_frame_velocity)
{
    u2d_status st = h_frame_ok(m, a);
    if (st == U2D_OK) st = u2d_kinematics_path(m, w, m->link_body[a->link], a->in[0], a->in[1]);
    if (st == U2D_OK) u2d_frame_velocity(m, w, a->link, a->point, a->reference, a->out[0]);
    return st;
}
static inline u2d_status h_frame_acc(const u2d_model *m, u2d_work *w, const u2d_batch_args *a,
                                     int classical)
{
    u2d_status st = h_frame_ok(m, a);
    if (st == U2D_OK)       /* the whole tree for one, the frame's path for the other */
        st = u2d_accelerations(m, w, classical ? m->link_body[a->link] : -1, a->in[0],
                               a->in[1], a->in[2]);
    if (st == U2D_OK)
        u2d_frame_acceleration(m, w, a->link, a->point, a->reference, classical, a->out[0]);
    return st;
}
H_ONE(h_frame_acceleration) { return h_frame_acc(m, w, a, 0); }
H_ONE(h_frame_classical) { return h_frame_acc(m, w, a, 1); }
#undef H_ONE

static const h_algo H_ALGOS[U2D_NALGO] = {
    [U2D_ALGO_RNEA] = {.name = "rnea", .in = "qvv", .out = {h_sz_nv}, .fext = 1, .one = h_rnea},
    [U2D_ALGO_CRBA] = {.name = "crba", .in = "q", .out = {h_sz_nv2}, .one = h_crba},
    [U2D_ALGO_NLE] = {.name = "nle", .in = "qv", .out = {h_sz_nv}, .one = h_nle},
    [U2D_ALGO_GRAVITY] = {.name = "gravity", .in = "q", .out = {h_sz_nv}, .one = h_gravity},
    [U2D_ALGO_CORIOLIS] = {.name = "coriolis", .in = "qv", .out = {h_sz_nv2},
                           .one = h_coriolis},
    [U2D_ALGO_ABA] = {.name = "aba", .in = "qvv", .out = {h_sz_nv}, .fext = 1,
                      .singular_ok = 1, .one = h_aba},
    [U2D_ALGO_FK] = {.name = "fk", .in = "q", .out = {h_sz_link3, h_sz_link9}, .one = h_fk},
    [U2D_ALGO_JOINT_POS] = {.name = "joint_pos", .in = "q", .out = {h_sz_joint3},
                            .one = h_joint_pos},
    [U2D_ALGO_COM] = {.name = "com", .in = "q", .out = {h_sz_3}, .one = h_com},
    [U2D_ALGO_JACOBIAN] = {.name = "jacobian", .in = "q", .out = {h_sz_6nv}, .one = h_jacobian},
    [U2D_ALGO_LINK_VEL] = {.name = "link_vel", .in = "qv", .out = {h_sz_link6},
                           .one = h_link_vel},
    [U2D_ALGO_KINETIC] = {.name = "kinetic", .in = "qv", .out = {h_sz_1}, .one = h_kinetic},
    [U2D_ALGO_POTENTIAL] = {.name = "potential", .in = "q", .out = {h_sz_1},
                            .one = h_potential},
    [U2D_ALGO_INTEGRATE] = {.name = "integrate", .in = "qv", .out = {h_sz_nq},
                            .one = h_integrate},
    [U2D_ALGO_DIFFERENCE] = {.name = "difference", .in = "qq", .out = {h_sz_nv},
                             .one = h_difference},
    [U2D_ALGO_NORMALIZE] = {.name = "normalize", .in = "q", .out = {h_sz_nq},
                            .one = h_normalize},
    [U2D_ALGO_RNEA_DERIV] = {.name = "rnea_deriv", .in = "qvv",
                             .out = {h_sz_nv2, h_sz_nv2, h_sz_nv2}, .fext = 1,
                             .one = h_rnea_deriv, .max_nv = 100},
    [U2D_ALGO_ABA_DERIV] = {.name = "aba_deriv", .in = "qvv",
                            .out = {h_sz_nv2, h_sz_nv2, h_sz_nv2}, .fext = 1, .singular_ok = 1,
                            .one = h_aba_deriv, .max_nv = 100},
    [U2D_ALGO_CCRBA] = {.name = "ccrba", .in = "q", .out = {h_sz_6nv}, .one = h_ccrba},
    [U2D_ALGO_CENTROIDAL] = {.name = "centroidal", .in = "qvv", .out = {h_sz_9, h_sz_12},
                             .one = h_centroidal},
    [U2D_ALGO_REGRESSOR] = {.name = "regressor", .in = "qvv", .out = {h_sz_regressor},
                            .one = h_regressor, .max_nv = 100},
    [U2D_ALGO_FRAME_JACOBIAN] = {.name = "frame_jacobian", .in = "q", .out = {h_sz_6nv},
                                 .one = h_frame_jacobian},
    [U2D_ALGO_FRAME_JACOBIAN_DOT] = {.name = "frame_jacobian_dot", .in = "qv",
                                     .out = {h_sz_6nv}, .one = h_frame_jacobian_dot},
    [U2D_ALGO_FRAME_VELOCITY] = {.name = "frame_velocity", .in = "qv", .out = {h_sz_6},
                                 .one = h_frame_velocity},
    [U2D_ALGO_FRAME_ACCELERATION] = {.name = "frame_acceleration", .in = "qvv",
                                     .out = {h_sz_6}, .one = h_frame_acceleration},
    [U2D_ALGO_FRAME_CLASSICAL] = {.name = "frame_classical", .in = "qvv", .out = {h_sz_6},
                                  .one = h_frame_classical},
    [U2D_ALGO_PASSIVE] = {.name = "passive", .in = "qv", .out = {h_sz_nv}, .one = h_passive},
};

/* Core functions exercised outside the table (driver --list-functions adds the table's). */
static const char *const H_OTHER_FUNCTIONS[] = {
    "urdf_parse", "urdf_free", "model_compile", "model_free", "work_new", "work_free",
    "urdf_check",           /* h_parse_urdf: h_check_all_errors against urdf_parse */
    "jcalc", "batch", "rnea", "rnea_start", "rnea_body_motion", "crba", "crba_fill", "aba",
    "coriolis", "kinematics", "link_poses",
    "joint_positions", "link_velocities", "center_of_mass", "jacobian", "kinetic_energy",
    "potential_energy", "integrate", "difference", "normalize", "simulate", "dexpinv", "passive",
    "gather_fext",          /* through rnea and aba with external forces */
    "place_body",           /* through kinematics */
    "place_bodies",         /* the fk batch on every path, against kinematics + link_poses */
    "simd_path", "simd_select", "simd_kernel", "simd_run_avx2", "simd_run_avx512",
    "sincos",               /* against libm, check_sincos */
    "rnea_derivatives", "aba_derivatives", "ccrba", "centroidal", "regressor",
    "inertial_parameters", "world_motion",
    "frame_jacobian", "frame_jacobian_dot", "frame_velocity", "accelerations",
    "frame_acceleration", "kinematics_path", "on_path",
    "ik_work_new", "ik_work_free", "ik_check", "ik_frame", "ik_solve", "batch_ik",
    "is_osim", "osim_parse",  /* h_load: an .osim model takes the same checks as a URDF */
    "osim_write",             /* check_osim_write: edits written, read again */
    "osim_writer_new", "osim_writer_write", "osim_writer_free",   /* a kept writer, too */
    "path_lengths",           /* check_paths: every geometry path of an .osim */
    "markerset_parse",        /* check_markerset: a marker set file, and a refused one */
    "is_mjcf", "mjcf_parse",  /* H_PARSERS: an MJCF model takes the same checks as a URDF */
    "read_file",              /* check_mjcf_from_disk: an include read beside its file */
    "quat_at",                /* the contract's quaternions (free and ball joints) */
    "simm_spline_fit",        /* the .osim reader fits every SimmSpline it reads */
    "function_eval",          /* jcalc on custom joints: every algorithm on an .osim model */
    "joint_chain",            /* the derivatives on the .osim models' custom, ellipsoid and
                                 constant-curvature joints */
    "moves_own_columns",      /* check_new_algorithms: the workspace's chain per such joint */
    "has_constant_columns", "jcalc_work",
    "work_set_columns",       /* check_constant_columns: the columns the lane units set once */
    "gravity_in_range",       /* check_gravity_in_range: what the readers take */
};

/* The SIMD paths (csrc/batch/u2d_simd.h), the portable one first; the driver runs the batch
 * checks on each that the CPU has. */
static const char *const H_SIMD[] = {"scalar", "avx2", "avx512"};
#define H_NSIMD 3

/* The 8-lane code of the AVX-512 path compiled for AVX2 (tests/c/lanes8.c), which the
 * driver runs wherever the CPU has AVX2, AVX-512 or not. */
#if defined(__x86_64__) && defined(__GNUC__)
#define H_LANES8 1
size_t u2d_simd_run_lanes8(const u2d_model *m, u2d_work *w, u2d_algo algo,
                           const u2d_batch_args *a, size_t begin, size_t end);
#endif

/* The one call of u2d_batch (its signature in one place). work: a workspace of the model
 * lent to the calling thread, or NULL. */
static inline u2d_status h_batch(const u2d_model *m, int algo, size_t n, int nthreads,
                                 const u2d_batch_args *a, u2d_work *work, size_t *bad)
{
    return u2d_batch(m, (u2d_algo)algo, n, nthreads, a, work, bad);
}

/* One sample's inputs: x[k] for input k (in[k] == 'q': nq doubles, else nv). */
typedef struct {
    const double *x[3];
    double gravity[3];
    const u2d_fext *fext;
    int link;
    double point[3], dt;
    int reference;                  /* u2d_reference of the frame functions */
} h_state;

static inline u2d_batch_args h_args3(const h_state *s, double *out0, double *out1,
                                     double *out2)
{
    u2d_batch_args a;
    memset(&a, 0, sizeof a);
    for (int k = 0; k < 3; k++) a.in[k] = s->x[k];
    a.out[0] = out0;
    a.out[1] = out1;
    a.out[2] = out2;
    memcpy(a.gravity, s->gravity, sizeof a.gravity);
    if (s->fext) {
        a.nfext = s->fext->n;
        a.fext_body = s->fext->body;
        a.fext_wrench = s->fext->wrench;
    }
    a.link = s->link;
    memcpy(a.point, s->point, sizeof a.point);
    a.dt = s->dt;
    a.reference = (u2d_reference)s->reference;
    return a;
}

static inline u2d_batch_args h_args(const h_state *s, double *out0, double *out1)
{
    return h_args3(s, out0, out1, NULL);
}

static inline size_t h_out_size(const h_algo *A, const u2d_model *m, int k)
{
    return A->out[k] ? A->out[k](m) : 0;
}

/* Is model m beyond what algorithm A is checked on (see max_nv)? */
static inline int h_too_big(const u2d_model *m, const h_algo *A)
{
    return A->max_nv > 0 && m->nv > A->max_nv;
}

/* A status that A may give on any state of m: a singular mass matrix. */
static inline int h_excused(const u2d_model *m, const h_algo *A, u2d_status st)
{
    (void)m;
    return st == U2D_ERR_SINGULAR && A->singular_ok;
}

/* ---- the parsers ------------------------------------------------------------------------- */

/* Every model format the core reads, each with its own fuzzer (tests/c/fuzz_NAME.c, seeds
 * in corpus/NAME/, dictionary NAME.dict; tests/c/fuzz.sh NAME SECONDS). A new parser is one
 * line here and those three files. */
/* An MJCF input's other files (includes, meshes): the bytes after the first NUL, split at
 * each "\0F\0", are piece 0 (the states' bytes), then files 1, 2, ...; a path whose last
 * component starts with the number k reads file k ("2.xml", "meshes/3.stl"). */
typedef struct { const uint8_t *rest; size_t size; } h_files;

static char *h_read_piece(void *ctx, const char *path, size_t *len, char err[U2D_ERRLEN])
{
    const h_files *fs = ctx;
    if (!fs) {
        snprintf(err, U2D_ERRLEN, "no such file '%s'", path);
        return NULL;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    long want = strtol(base, NULL, 10);
    const uint8_t *p = fs->rest, *end = fs->rest + fs->size;
    for (long k = 0; p && k < want; k++) {
        const uint8_t *at = NULL;
        for (const uint8_t *q = p; q + 3 <= end; q++)
            if (q[0] == 0 && q[1] == 'F' && q[2] == 0) { at = q; break; }
        p = at ? at + 3 : NULL;
    }
    if (!p || want < 1) {
        snprintf(err, U2D_ERRLEN, "no such file '%s'", path);
        return NULL;
    }
    const uint8_t *stop = end;
    for (const uint8_t *q = p; q + 3 <= end; q++)
        if (q[0] == 0 && q[1] == 'F' && q[2] == 0) { stop = q; break; }
    char *out = malloc((size_t)(stop - p) + 1);
    if (!out) { snprintf(err, U2D_ERRLEN, "out of memory"); return NULL; }
    memcpy(out, p, (size_t)(stop - p));
    out[stop - p] = '\0';
    *len = (size_t)(stop - p);
    return out;
}

typedef struct {
    const char *name;
    const char *ext;                            /* its files' extension (driver --parse)   */
    const char *function;                       /* for messages                            */
    /* files: the input's other files (an MJCF's includes and meshes), or NULL */
    u2d_urdf *(*parse)(const char *text, const h_files *files, char err[U2D_ERRLEN]);
    int (*claims)(const char *text);            /* is text of this format? NULL: the rest  */
} h_parser;

static u2d_urdf *h_parse_mjcf(const char *text, const h_files *files, char err[U2D_ERRLEN])
{
    return u2d_mjcf_parse(text, "fuzz.xml", h_read_piece, (void *)files, err);
}

static u2d_urdf *h_parse_osim(const char *text, const h_files *files, char err[U2D_ERRLEN])
{
    (void)files;
    return u2d_osim_parse(text, err);
}

static void h_check_all_errors(const char *text, const u2d_urdf *u, const char *err);

/* u2d_urdf_parse, and u2d_urdf_check on the same text checked against it */
static u2d_urdf *h_parse_urdf(const char *text, const h_files *files, char err[U2D_ERRLEN])
{
    (void)files;
    u2d_urdf *u = u2d_urdf_parse(text, err);
    h_check_all_errors(text, u, err);
    return u;
}

static const h_parser H_PARSERS[] = {
    {"mjcf", ".xml", "u2d_mjcf_parse", h_parse_mjcf, u2d_is_mjcf},
    {"osim", ".osim", "u2d_osim_parse", h_parse_osim, u2d_is_osim},
    {"urdf", ".urdf", "u2d_urdf_parse", h_parse_urdf, NULL},        /* last: the default */
};
#define H_NPARSERS (sizeof H_PARSERS / sizeof H_PARSERS[0])

static inline const h_parser *h_parser_named(const char *name)
{
    for (size_t k = 0; k < H_NPARSERS; k++)
        if (strcmp(H_PARSERS[k].name, name) == 0) return &H_PARSERS[k];
    return NULL;
}

/* The parser of a file: by its extension (a fuzzer's finding replays with the parser that
 * found it, even when the mutation changed the root element), else by its content. path may
 * be NULL. */
static inline const h_parser *h_parser_for(const char *path, const char *text)
{
    size_t n = path ? strlen(path) : 0;
    for (size_t k = 0; k < H_NPARSERS; k++) {
        size_t e = strlen(H_PARSERS[k].ext);
        if (n > e && strcmp(path + n - e, H_PARSERS[k].ext) == 0) return &H_PARSERS[k];
    }
    for (size_t k = 0; k < H_NPARSERS; k++)
        if (!H_PARSERS[k].claims || H_PARSERS[k].claims(text)) return &H_PARSERS[k];
    return &H_PARSERS[H_NPARSERS - 1];
}

/* Models of more coordinates are parsed, checked and compiled but not evaluated: a fuzzer
 * whose seeds are whole human models (37 coordinates: seconds an input under the
 * sanitizers) spends its time on the parser, and the algorithms on the small models its
 * mutations also make. */
#ifndef H_EVAL_MAX_NV
#define H_EVAL_MAX_NV 1000000
#endif

/* ---- contract failures ------------------------------------------------------------------- */

#ifndef H_ON_CONTRACT_FAILURE
#define H_ON_CONTRACT_FAILURE() ((void)0)
#endif

static int h_contract_failures = 0;

static void h_contract_failed(const char *what, const char *detail)
{
    fprintf(stderr, "CONTRACT VIOLATION: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    h_contract_failures++;
    H_ON_CONTRACT_FAILURE();
}

/* u2d_urdf_check agrees with u2d_urdf_parse: no error when it loads (and the same findings),
 * else its first error is the parser's message. */
static void h_check_all_errors(const char *text, const u2d_urdf *u, const char *err)
{
    char err2[U2D_ERRLEN] = "", first[U2D_ERRLEN + 32];
    u2d_urdf *c = u2d_urdf_check(text, err2);
    if (!c) return;                                     /* out of memory */
    if (c->nlink || c->njoint || c->link || c->joint || c->nerror < 0 || c->nfinding < 0)
        h_contract_failed("u2d_urdf_check", "findings only expected");
    for (int k = 0; k < c->nerror; k++)
        if (c->error[k].line < 0 || !c->error[k].message[0])
            h_contract_failed("u2d_urdf_check", "error with a bad line or message");
    if (u && (c->nerror || c->nfinding != u->nfinding))
        h_contract_failed("u2d_urdf_check", "errors or other findings for a URDF that loads");
    if (!u && c->nerror > 0 && strstr(err, "out of memory") == NULL) {
        if (c->error[0].line) snprintf(first, sizeof first, "line %d: %s", c->error[0].line,
                                       c->error[0].message);
        else snprintf(first, sizeof first, "%s", c->error[0].message);
        if (strcmp(first, err) != 0)
            h_contract_failed("u2d_urdf_check", "first error is not u2d_urdf_parse's");
    }
    u2d_urdf_free(c);
}

/* ---- structural checks ------------------------------------------------------------------- */

/* Has m a joint with a quaternion (floating or ball)? Then U2D_ERR_QUATERNION is a valid
 * answer to a state whose quaternion is zero or not finite. */
static int h_model_has_quaternion(const u2d_model *m)
{
    for (int i = 1; i < m->nbody; i++)
        if (u2d_quat_at(m->jtype[i]) >= 0) return 1;
    return 0;
}

static void h_check_urdf(const u2d_urdf *u)
{
    if (u->nlink < 1 || !u->link || u->root < 0 || u->root >= u->nlink || !u->name ||
        u->njoint < 0 || (u->njoint > 0 && !u->joint)) {
        h_contract_failed("u2d_urdf_parse", "inconsistent u2d_urdf header");
        return;
    }
    if (u->nfinding < 0 || (u->nfinding > 0 && !u->finding))
        h_contract_failed("u2d_urdf_parse", "inconsistent findings");
    for (int k = 0; k < u->nfinding; k++)
        if (u->finding[k].line < 0 || !memchr(u->finding[k].message, '\0', U2D_ERRLEN) ||
            !u->finding[k].message[0])
            h_contract_failed("u2d_urdf_parse", "finding with a bad line or message");
    for (int i = 0; i < u->nlink; i++)
        if (!u->link[i].name || !(u->link[i].mass >= 0.0))
            h_contract_failed("u2d_urdf_parse", "link without a name or with a bad mass");
    for (int j = 0; j < u->njoint; j++) {
        const u2d_urdf_joint *J = &u->joint[j];
        if (!J->name || J->parent < 0 || J->parent >= u->nlink || J->child < 0 ||
            J->child >= u->nlink || J->child == u->root || (int)J->type < 0 ||
            J->type > U2D_JOINT_CURVATURE || (J->type == U2D_JOINT_CUSTOM &&
            (J->custom < 0 || J->custom >= u->ncustom)))
            h_contract_failed("u2d_urdf_parse", "joint with a bad name, type or link index");
    }
}

/* What an OpenSim model adds to the document (all zero for a URDF): every index in range,
 * every function's numbers inside the function data, and every function evaluated at
 * ordinary and hostile abscissae (what a coupler's independent coordinate may hold). */
static void h_check_osim(const u2d_urdf *u)
{
    if (u->ncoord < 0 || u->nmarker < 0 || u->ncoupler < 0 || u->nfunc < 0 || u->ncustom < 0 ||
        u->nfdata < 0 || (u->ncoord && !u->coord) || (u->nmarker && !u->marker) ||
        (u->ncoupler && !u->coupler) || (u->nfunc && (!u->func || !u->fdata)) ||
        (u->ncustom && !u->custom)) {
        h_contract_failed("u2d_osim_parse", "inconsistent counts of the OpenSim additions");
        return;
    }
    for (int f = 0; f < u->nfunc; f++) {
        const u2d_function *F = &u->func[f];
        static const int per_n[] = {0, 0, 1, 5, 3, 0}, fixed[] = {1, 2, 0, 0, 0, 0};
        if (F->kind < U2D_FN_CONSTANT || F->kind > U2D_FN_MULTIPLIER || F->n < 0 || F->at < 0 ||
            (F->kind == U2D_FN_MULTIPLIER && (F->inner < 0 || F->inner >= f)) ||
            (size_t)F->at + (size_t)fixed[F->kind] + (size_t)per_n[F->kind] * (size_t)F->n >
                (size_t)u->nfdata) {
            h_contract_failed("u2d_osim_parse", "a function out of its data or of the table");
            return;
        }
    }
    static const double xs[] = {0.0, -0.3, 1.7, -1e6, 1e300, -INFINITY, INFINITY, NAN};
    for (int f = 0; f < u->nfunc; f++)
        for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) {
            double out[4];
            u2d_function_eval(u->func, u->fdata, f, xs[k], out);
        }
    for (int c = 0; c < u->ncoord; c++)
        if (!u->coord[c].name || u->coord[c].joint < 0 || u->coord[c].joint >= u->njoint)
            h_contract_failed("u2d_osim_parse", "a coordinate without a name or joint");
    for (int j = 0; j < u->njoint; j++) {
        const u2d_urdf_joint *J = &u->joint[j];
        if (J->ncoord < 0 || J->coord0 < (J->ncoord ? 0 : -1) ||
            J->coord0 + J->ncoord > u->ncoord)
            h_contract_failed("u2d_osim_parse", "a joint's coordinates out of range");
    }
    for (int c = 0; c < u->ncustom; c++) {
        const u2d_custom *C = &u->custom[c];
        if (C->ncoord < 1 || C->ncoord > 6)
            h_contract_failed("u2d_osim_parse", "a custom joint with 0 or more than 6 coordinates");
        for (int k = 0; k < 6; k++)
            if (C->coord[k] < -1 || C->coord[k] >= C->ncoord || C->func[k] < -1 ||
                C->func[k] >= u->nfunc)
                h_contract_failed("u2d_osim_parse", "a custom axis out of range");
    }
    for (int k = 0; k < u->nmarker; k++)
        if (!u->marker[k].name || u->marker[k].link < 0 || u->marker[k].link >= u->nlink ||
            !isfinite(u->marker[k].location[0] + u->marker[k].location[1] +
                      u->marker[k].location[2]))
            h_contract_failed("u2d_osim_parse", "a marker without a name, link or location");
    for (int k = 0; k < u->ncoupler; k++) {
        const u2d_coupler *K = &u->coupler[k];
        if (K->dependent < 0 || K->dependent >= u->ncoord || K->independent < 0 ||
            K->independent >= u->ncoord || K->func < 0 || K->func >= u->nfunc ||
            K->dependent == K->independent || !isfinite(K->scale) || !K->name || K->line < 0)
            h_contract_failed("u2d_osim_parse", "a coupler out of range");
    }
}

static void h_check_model(const u2d_model *m, const u2d_urdf *u, int floating_base)
{
    int nq = 0, nv = 0;
    if (m->nbody < 1 || m->njoint != m->nbody - 1 || m->nlink != u->nlink ||
        m->parent[0] != -1) {
        h_contract_failed("u2d_model_compile", "inconsistent model header");
        return;
    }
    for (int i = 1; i < m->nbody; i++) {
        if (m->parent[i] < 0 || m->parent[i] >= i)
            h_contract_failed("u2d_model_compile", "parent[i] < i violated");
        if (m->qadr[i] != nq || m->vadr[i] != nv || m->jtype[i] == U2D_JOINT_FIXED ||
            m->jtype[i] < 0 || m->jtype[i] > U2D_JOINT_CURVATURE)
            h_contract_failed("u2d_model_compile", "joint coordinates out of order or bad type");
        if (m->jurdf[i] < -1 || m->jurdf[i] >= u->njoint ||
            (m->jurdf[i] < 0 && !(floating_base && i == 1)))
            h_contract_failed("u2d_model_compile", "jurdf out of range");
        nq += m->jnq[i];
        nv += m->jnv[i];
    }
    if (nq != m->nq || nv != m->nv)
        h_contract_failed("u2d_model_compile", "nq / nv differ from the sum over joints");
    for (int l = 0; l < m->nlink; l++)
        if (m->link_body[l] < 0 || m->link_body[l] >= m->nbody)
            h_contract_failed("u2d_model_compile", "link_body out of range");
}

/* ---- one input through the whole core ---------------------------------------------------- */

/* Values for states: a stream of bytes when the input carries one (after its first NUL),
 * else the input's hash. hostile = 1 mixes in NaN, +-inf, huge, tiny and -0. */
typedef struct {
    const uint8_t *p;
    size_t n, i;
    uint64_t rng;
    int hostile;
} h_values;

static double h_value(h_values *vs)
{
    static const double special[] = {NAN, INFINITY, -INFINITY, 1e308, -1e308, 0.0, -0.0,
                                     4.9e-324, 1e150, -1e150, 1e-300, 3.141592653589793};
    unsigned k;
    if (vs->i < vs->n) k = vs->p[vs->i++];
    else k = (unsigned)(h_rand(&vs->rng) & 0xff);
    if (vs->hostile && k % 4 == 0) return special[(k / 4) % (sizeof special / sizeof special[0])];
    return h_unif(&vs->rng, -3.0, 3.0);
}

static void h_fill(h_values *vs, double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = h_value(vs);
}

/* Is st an acceptable status of algorithm A on state s? */
static int h_status_ok(const u2d_model *m, const h_algo *A, const h_state *s, u2d_status st,
                       int nfloat)
{
    if (st == U2D_OK) return 1;
    if (st == U2D_ERR_QUATERNION) return nfloat;
    if (h_excused(m, A, st)) return 1;
    if (st == U2D_ERR_SINGULAR) return A->singular_ok;
    if (st == U2D_ERR_ARGUMENT) return s->link < 0 || s->link >= m->nlink;
    return 0;
}

/* Algorithm A on state s into a fresh workspace and into a reused one (dirtied by a hostile
 * call first): valid statuses, and results that agree bit for bit. */
static void h_eval_one(const u2d_model *m, const h_algo *A, u2d_work *dirty, const h_state *s,
                       const h_state *hostile, int nfloat)
{
    size_t n[3] = {h_out_size(A, m, 0), h_out_size(A, m, 1), h_out_size(A, m, 2)};
    size_t n0 = n[0], n1 = n[1], n2 = n[2];
    /* exact sizes (+1: never malloc(0)) so that ASan sees any overrun; o[k], o[k + 3] */
    double *o[6];
    int have = 1;
    for (int k = 0; k < 6; k++) {
        o[k] = malloc(sizeof(double) * (n[k % 3] + 1));
        have = have && o[k];
    }
    u2d_work *fresh = u2d_work_new(m);
    if (have && fresh) {
        u2d_batch_args a1 = h_args3(s, o[0], n1 ? o[1] : NULL, n2 ? o[2] : NULL);
        u2d_batch_args ah = h_args3(hostile, o[3], n1 ? o[4] : NULL, n2 ? o[5] : NULL);
        u2d_batch_args a2 = h_args3(s, o[3], n1 ? o[4] : NULL, n2 ? o[5] : NULL);
        u2d_status s1 = A->one(m, fresh, &a1);
        u2d_status sh = A->one(m, dirty, &ah);
        u2d_status s2 = A->one(m, dirty, &a2);
        if (!h_status_ok(m, A, s, s1, nfloat) || !h_status_ok(m, A, hostile, sh, nfloat))
            h_contract_failed(A->name, "unexpected status");
        if (s1 != s2 || (s1 == U2D_OK && (memcmp(o[0], o[3], sizeof(double) * n0) != 0 ||
                                          memcmp(o[1], o[4], sizeof(double) * n1) != 0 ||
                                          memcmp(o[2], o[5], sizeof(double) * n2) != 0)))
            h_contract_failed(A->name, "result depends on the workspace's previous use");
    }
    for (int k = 0; k < 6; k++) free(o[k]);
    u2d_work_free(fresh);
}

/* Algorithm k through u2d_batch on 3 samples (nice, hostile, nice): valid statuses, a
 * failing index in range. */
static void h_eval_batch(const u2d_model *m, int k, const h_state *s, const h_state *hostile,
                         int nfloat)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    const h_algo *A = &H_ALGOS[k];
    {
        u2d_batch_args a = h_args(s, NULL, NULL);
        double *in[3] = {NULL, NULL, NULL}, *out[3] = {NULL, NULL, NULL};
        int ok = 1;
        for (int j = 0; A->in[j]; j++) {
            size_t w = A->in[j] == 'q' ? nq : nv;
            in[j] = malloc(sizeof(double) * (3 * w + 1));
            if (!in[j]) { ok = 0; break; }
            for (int smp = 0; smp < 3; smp++)
                memcpy(in[j] + smp * w, (smp == 1 ? hostile : s)->x[j], sizeof(double) * w);
            a.in[j] = in[j];
            a.in_size[j] = w;
        }
        for (int j = 0; j < 3 && ok; j++) {
            size_t w = h_out_size(A, m, j);
            if (!A->out[j]) continue;
            out[j] = malloc(sizeof(double) * (3 * w + 1));
            if (!out[j]) ok = 0;
            a.out[j] = out[j];
            a.out_size[j] = w;
        }
        if (ok) {
            size_t bad = 12345;
            u2d_status st = h_batch(m, k, 3, 2, &a, NULL, &bad);
            if (!h_status_ok(m, A, s, st, nfloat) && !h_status_ok(m, A, hostile, st, nfloat))
                h_contract_failed(A->name, "u2d_batch: unexpected status");
            if ((st == U2D_OK) != (bad == 3) || bad > 3)
                h_contract_failed(A->name, "u2d_batch: failing sample index out of range");
            st = h_batch(m, k, 0, 4, &a, NULL, &bad);
            if (st != U2D_OK && st != U2D_ERR_ARGUMENT)
                h_contract_failed(A->name, "u2d_batch: empty batch failed");
        }
        for (int j = 0; j < 3; j++) free(in[j]);
        for (int j = 0; j < 3; j++) free(out[j]);
    }
}

/* u2d_simulate with every method, and 3, a method the core does not know. */
static void h_eval_simulate(const u2d_model *m, const h_state *s, const h_state *hostile)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv, steps = 3;
    double *qs = malloc(sizeof(double) * (steps + 1) * nq + 8);
    double *vs = malloc(sizeof(double) * (steps + 1) * nv + 8);
    double *tau = malloc(sizeof(double) * (2 * steps + 1) * nv + 8);
    u2d_work *w = u2d_work_new(m);
    if (qs && vs && tau && w) {
        for (size_t k = 0; k < 2 * steps + 1; k++)
            memcpy(tau + k * nv, (k % 3 ? s : hostile)->x[2], sizeof(double) * nv);
        for (int method = 0; method <= 3; method++) {
            const h_state *st = method == 1 ? hostile : s;
            size_t bad = 0;
            const u2d_fext *f = st->fext;
            u2d_status r = u2d_simulate(m, w, st->gravity, st->x[0], st->x[1], tau, method % 2,
                                        steps, method == 2 ? 1e-3 : st->dt, (u2d_method)method,
                                        f ? f->n : 0, f ? f->body : NULL, f ? f->wrench : NULL,
                                        1, qs, vs, &bad);
            if (r != U2D_OK && bad >= steps)
                h_contract_failed("u2d_simulate", "failing step out of range");
            if (r != U2D_OK && r != U2D_ERR_QUATERNION && r != U2D_ERR_SINGULAR &&
                !(r == U2D_ERR_ARGUMENT && method == 3))
                h_contract_failed("u2d_simulate", "unexpected status");
        }
    }
    free(qs); free(vs); free(tau);
    u2d_work_free(w);
}

/* Inverse kinematics: markers on random links placed from the nice q (exact targets, one
 * missing), the fit from the hostile q; then hostile targets, weights, bounds and a bad
 * link. Statuses stay in the contract, frames in range, a nice fit finite. */
static void h_eval_ik(const u2d_model *m, const h_state *s, const h_state *hostile,
                      h_values *vs)
{
    enum { K = 4, N = 3 };
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    int link[K], locked[64] = {0}, task_v[1] = {0}, task_q[1] = {0};
    double pos[3 * K], wt[K] = {1.0, 2.0, 0.5, 1.0}, tw[1] = {0.1}, tv[N] = {0.0, 0.1, 0.2};
    double *target = malloc(sizeof(double) * 3 * K * N), *q = malloc(sizeof(double) * N * nq);
    double *err = malloc(sizeof(double) * K * N), *lo = malloc(sizeof(double) * (nv + 1));
    double *hi = malloc(sizeof(double) * (nv + 1)), *pl = malloc(sizeof(double) * 3 * m->nlink);
    double *rot = malloc(sizeof(double) * 9 * m->nlink), *q0 = malloc(sizeof(double) * nq);
    u2d_ik_report rep[N];
    u2d_work *w = u2d_work_new(m);
    u2d_ik_work *iw = u2d_ik_work_new(m, K);
    if (u2d_ik_work_new(m, -1) != NULL) h_contract_failed("u2d_ik_work_new", "accepted -1");
    if (!target || !q || !err || !lo || !hi || !pl || !rot || !q0 || !w || !iw) goto done;
    for (int k = 0; k < K; k++) {
        link[k] = (int)(h_rand(&vs->rng) % (uint64_t)m->nlink);
        for (int c = 0; c < 3; c++) pos[3 * k + c] = h_unif(&vs->rng, -0.2, 0.2);
    }
    for (size_t c = 0; c < nv; c++) { lo[c] = -INFINITY; hi[c] = INFINITY; }
    u2d_ik_problem p = {K, link, pos, wt, nv > 0, task_v, task_q, tw,
                        nv <= 64 ? locked : NULL, lo, hi, 1e-10, 30, 0, NULL, NULL};
    if (u2d_ik_check(m, &p) != U2D_OK) h_contract_failed("u2d_ik_check", "refused a good problem");
    memcpy(q0, hostile->x[0], sizeof(double) * nq);
    if (u2d_place_bodies(m, w, s->x[0]) == U2D_OK) {
        u2d_link_poses(m, w, pl, rot);
        for (int f = 0; f < N; f++)
            for (int k = 0; k < K; k++)
                for (int c = 0; c < 3; c++) {
                    const double *R = &rot[9 * link[k]];
                    target[3 * (K * f + k) + c] = pl[3 * link[k] + c] + R[3 * c] * pos[3 * k] +
                                                  R[3 * c + 1] * pos[3 * k + 1] +
                                                  R[3 * c + 2] * pos[3 * k + 2];
                }
        target[3 * K] = NAN;                                    /* frame 1 misses marker 0 */
        memcpy(q0, s->x[0], sizeof(double) * nq);
        size_t bad = 0;
        u2d_status st = u2d_ik_solve(m, w, iw, &p, N, target, tv, q0, q, err, rep, &bad);
        if (st != U2D_OK) h_contract_failed("u2d_ik_solve", "failed from the exact pose");
        for (size_t k = 0; k < N * nq; k++)
            if (!isfinite(q[k])) h_contract_failed("u2d_ik_solve", "a nice fit is not finite");
        st = u2d_batch_ik(m, &p, N, 3, target, tv, q0, q, err, rep, &bad);
        if (st != U2D_OK) h_contract_failed("u2d_batch_ik", "failed from the exact pose");
        memcpy(q, hostile->x[0], sizeof(double) * nq);
        st = u2d_ik_frame(m, w, iw, &p, target, tv, q, err, rep);
        if (st != U2D_OK && st != U2D_ERR_QUATERNION)
            h_contract_failed("u2d_ik_frame", "unexpected status from a hostile start");
    }
    for (int k = 0; k < 3 * K * N; k++) target[k] = h_value(vs);
    for (size_t c = 0; c < nv; c++) { lo[c] = h_value(vs); hi[c] = h_value(vs); }
    size_t bad = 0;
    u2d_status st = u2d_batch_ik(m, &p, N, 2, target, tv, q0, q, err, rep, &bad);
    if (st != U2D_OK && st != U2D_ERR_QUATERNION)
        h_contract_failed("u2d_batch_ik", "unexpected status on hostile targets");
    if (st != U2D_OK && bad >= N) h_contract_failed("u2d_batch_ik", "failing frame out of range");
    link[1] = m->nlink;
    if (u2d_batch_ik(m, &p, N, 1, target, tv, q0, q, err, rep, &bad) != U2D_ERR_ARGUMENT)
        h_contract_failed("u2d_batch_ik", "a link out of range was not an argument error");
    link[1] = 0;
    wt[2] = -1.0;
    if (u2d_ik_check(m, &p) != U2D_ERR_ARGUMENT)
        h_contract_failed("u2d_ik_check", "a negative weight was not an argument error");
done:
    free(target); free(q); free(err); free(lo); free(hi); free(pl); free(rot); free(q0);
    u2d_ik_work_free(iw);
    u2d_work_free(w);
}

static void h_eval_model(const u2d_model *m, h_values *vs)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    int nfloat = h_model_has_quaternion(m);
    double *x = malloc(sizeof(double) * (4 * nq + 4 * nv + 1));
    int body[3];
    double wrench[18];
    u2d_work *w = u2d_work_new(m);
    if (!x || !w) { free(x); u2d_work_free(w); return; }
    double *q = x, *q2 = q + nq, *v = q2 + nq, *a = v + nv;
    double *hq = a + nv, *hq2 = hq + nq, *hv = hq2 + nq, *ha = hv + nv;

    int hostile = vs->hostile;
    vs->hostile = 0;
    h_fill(vs, x, 2 * nq + 2 * nv);
    for (int i = 1; i < m->nbody; i++)          /* nice states get usable quaternions */
        if (u2d_quat_at(m->jtype[i]) >= 0)
            for (double *p = q; p <= q2; p += nq) {
                const int w = m->qadr[i] + u2d_quat_at(m->jtype[i]) + 3;
                if (fabs(p[w]) < 0.5) p[w] += 1.0;
            }
    vs->hostile = 1;
    h_fill(vs, hq, 2 * nq + 2 * nv);
    for (int k = 0; k < 3; k++) body[k] = (int)(h_rand(&vs->rng) % (uint64_t)m->nbody);
    h_fill(vs, wrench, 18);
    double hg[6];
    h_fill(vs, hg, 6);
    vs->hostile = hostile;
    int link = (int)(h_rand(&vs->rng) % (uint64_t)(m->nlink + 2)) - 1;   /* -1 .. nlink */

    u2d_fext fext = {3, body, wrench};
    h_state nice = {.x = {q, v, a}, .gravity = {0.0, 0.0, -9.81}, .link = link,
                    .point = {0.1, -0.2, 0.3}, .dt = 0.01};
    h_state bad = {.x = {hq, hv, ha}, .gravity = {hg[0], hg[1], hg[2]}, .fext = &fext,
                   .link = link, .point = {hg[3], hg[4], hg[5]}, .dt = h_value(vs)};
    for (int k = 0; k < U2D_NALGO; k++) {
        const h_algo *A = &H_ALGOS[k];
        if (!A->name || h_too_big(m, A)) continue;
        /* the second input is q2 for 'q', a for 'v' in third place, v otherwise */
        h_state s1 = nice, s2 = bad;
        for (int j = 0; A->in[j]; j++) {
            s1.x[j] = A->in[j] == 'q' ? (j ? q2 : q) : (j == 2 ? a : v);
            s2.x[j] = A->in[j] == 'q' ? (j ? hq2 : hq) : (j == 2 ? ha : hv);
        }
        h_eval_one(m, A, w, &s1, &s2, nfloat);
        h_eval_batch(m, k, &s1, &s2, nfloat);
        if (A->fext) {                          /* hostile wrenches on a nice state */
            s1.fext = &fext;
            s2.fext = NULL;
            h_eval_one(m, A, w, &s1, &s2, nfloat);
        }
    }
    h_eval_simulate(m, &nice, &bad);
    h_eval_ik(m, &nice, &bad, vs);
    double *out = malloc(sizeof(double) * (nv + 1));
    if (out) {                                  /* dexp^-1 on nice and hostile twists */
        u2d_dexpinv(m, v, a, out);
        u2d_dexpinv(m, hv, ha, out);
        free(out);
    }
    size_t bad_sample;
    u2d_batch_args none;
    memset(&none, 0, sizeof none);
    if (h_batch(m, U2D_NALGO, 1, 1, &none, NULL, &bad_sample) != U2D_ERR_ARGUMENT ||
        h_batch(m, -1, 1, 1, &none, w, &bad_sample) != U2D_ERR_ARGUMENT)
        h_contract_failed("u2d_batch", "an unknown algorithm was not an argument error");
    free(x);
    u2d_work_free(w);
}

/* ---- what else reads an OpenSim document: its writer and its geometry paths --------------- */

/* u2d_osim_write on the text u was read from, with one edit of every kind that has a target
 * (index 0 of its table), then with an edit of a missing target: a new text that reads
 * again, or NULL with a message. */
static void h_exercise_osim_write(const u2d_urdf *u, const char *text)
{
    const u2d_osimdoc *d = &u->osim;
    if (!d->link_node || u->nlink < 2) return;
    int have[U2D_EDIT_KINDS] = {
        [U2D_EDIT_BODY_MASS] = 1, [U2D_EDIT_BODY_COM] = 1, [U2D_EDIT_BODY_INERTIA] = 1,
        [U2D_EDIT_FRAME_TRANSLATION] = d->nframe, [U2D_EDIT_FRAME_ORIENTATION] = d->nframe,
        [U2D_EDIT_MARKER] = u->nmarker, [U2D_EDIT_MARKER_REMOVE] = u->nmarker > 1,
        [U2D_EDIT_MARKER_ADD] = 1, [U2D_EDIT_POINT] = d->npoint,
        [U2D_EDIT_POINT_SCALE] = d->npoint, [U2D_EDIT_LENGTHS] = d->npath,
        [U2D_EDIT_WRAP_TRANSLATION] = d->nwrap, [U2D_EDIT_WRAP_SIZE] = d->nwrap,
        [U2D_EDIT_AXIS_SCALE] = u->ncustom, [U2D_EDIT_COUPLER_SCALE] = u->ncoupler,
        [U2D_EDIT_GEOMETRY_SCALE] = d->ngeometry};
    u2d_osim_edit e[U2D_EDIT_KINDS + 1];
    int n = 0;
    for (int k = 0; k < U2D_EDIT_KINDS; k++) {
        if (!have[k]) continue;
        int link = k <= U2D_EDIT_BODY_INERTIA || k == U2D_EDIT_MARKER_ADD;
        e[n++] = (u2d_osim_edit){k, link ? 1 : 0, {1.5, 0.25, 0.5, 0.125, 0.0625, 0.03125},
                                 "fuzz_marker", 1};
    }
    char *err = malloc(U2D_ERRLEN);
    if (!err) return;
    for (int round = 0; round < 2; round++) {
        if (round) e[0] = (u2d_osim_edit){U2D_EDIT_MARKER, u->nmarker + 7, {0}, NULL, 0};
        err[0] = '\0';
        char *out = u2d_osim_write(text, u, e, round ? 1 : n, err);
        if (!out) {
            if (!memchr(err, 0, U2D_ERRLEN) || !err[0])
                h_contract_failed("u2d_osim_write", "NULL without a message");
            continue;
        }
        if (round) h_contract_failed("u2d_osim_write", "an edit of a missing marker was made");
        u2d_urdf *v = u2d_osim_parse(out, err);
        if (!v) h_contract_failed("u2d_osim_write", "its text is not read again");
        u2d_urdf_free(v);
        free(out);
    }
    free(err);
}

/* Every geometry path's length at q = 0 and at a hostile q: a status of the contract, and
 * lengths that are finite and not negative when q is. */
static void h_eval_paths(const u2d_model *m, const u2d_urdf *u, h_values *vs)
{
    if (!u->osim.npath) return;
    size_t np = (size_t)u->osim.npath;
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *L = malloc(np * sizeof *L);
    int *flag = malloc(np * sizeof *flag);
    u2d_work *w = u2d_work_new(m);
    for (int round = 0; q && L && flag && w && round < 2; round++) {
        int hostile = vs->hostile;
        vs->hostile = round;
        if (round) h_fill(vs, q, (size_t)m->nq);
        vs->hostile = hostile;
        u2d_status st = u2d_path_lengths(m, u, w, q, L, flag);
        if (st != U2D_OK && st != U2D_ERR_QUATERNION && st != U2D_ERR_ARGUMENT)
            h_contract_failed("u2d_path_lengths", "a status outside the contract");
        for (size_t p = 0; round == 0 && st == U2D_OK && p < np; p++)
            if (!(L[p] >= 0.0) || !isfinite(L[p]))
                h_contract_failed("u2d_path_lengths", "a length not finite or negative at q = 0");
    }
    free(q); free(L); free(flag);
    u2d_work_free(w);
}

/* A copy of the n bytes at data plus a NUL that ends exactly where an inaccessible page
 * begins: Mini-XML is not built with the sanitizers, so a read past the end of the text
 * must crash to be seen. */
typedef struct { char *text; void *map; size_t maplen; } h_guarded;

static int h_guard(h_guarded *g, const uint8_t *data, size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), body = (n + 1 + page - 1) / page * page;
    g->maplen = body + page;
    g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED) return -1;
    if (mprotect((char *)g->map + body, page, PROT_NONE) != 0) {
        munmap(g->map, g->maplen);
        return -1;
    }
    g->text = (char *)g->map + body - (n + 1);
    memcpy(g->text, data, n);
    g->text[n] = '\0';
    return 0;
}

static void h_unguard(h_guarded *g)
{
    munmap(g->map, g->maplen);
}

/* data: the input bytes; the model text is everything before the first NUL (or all of it),
 * the bytes after the first NUL feed the states (and an MJCF's files, h_read_piece). parser: the one to read it with (a
 * fuzzer's own), or NULL for the one the text's content names (h_parser_for). */
static void h_exercise(const h_parser *parser, const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t tlen = nul ? (size_t)(nul - data) : size;
    h_guarded g;
    char *err = malloc(U2D_ERRLEN);             /* exact size: ASan watches the boundary */
    if (!err || h_guard(&g, data, tlen) != 0) { free(err); return; }
    const char *text = g.text;

    /* every parser builds the same u2d_urdf: same contract, same model */
    if (!parser) parser = h_parser_for(NULL, text);
    h_files files = {nul ? nul + 1 : data + size, nul ? size - tlen - 1 : 0};
    u2d_urdf *u = parser->parse(text, &files, err);
    if (!u) {
        if (!memchr(err, 0, U2D_ERRLEN) || !err[0])
            h_contract_failed(parser->function, "NULL without a message");
    } else {
        h_check_urdf(u);
        h_check_osim(u);
        h_exercise_osim_write(u, text);
        for (int fb = 0; fb <= 1; fb++) {
            memset(err, 'x', U2D_ERRLEN);
            u2d_model *m = u2d_model_compile(u, fb, err);
            if (!m) {
                if (!memchr(err, 0, U2D_ERRLEN) || !err[0])
                    h_contract_failed("u2d_model_compile", "NULL without a message");
                continue;
            }
            h_check_model(m, u, fb);
            h_values vs = {nul ? nul + 1 : NULL, nul ? size - tlen - 1 : 0, 0,
                           h_hash(data, size) + (uint64_t)fb, 0};
            if (m->nv <= H_EVAL_MAX_NV) h_eval_model(m, &vs);
            h_eval_paths(m, u, &vs);
            u2d_model_free(m);
        }
        u2d_urdf_free(u);
    }
    h_unguard(&g);
    free(err);
}

#endif
