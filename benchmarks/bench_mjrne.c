/* bench_mjrne.c: MuJoCo's inverse dynamics per sample, in a C loop (benchmarks/bench_mjcf.py
 * compiles it against the mujoco wheel's headers and libmujoco).
 *
 *   bench_mjrne MODEL.mjb N REPS
 *
 * N random states (qpos with normalized quaternions, qvel and qacc uniform in [-1, 1]); per
 * sample the work mj_rne needs and does: mj_kinematics, mj_comPos, mj_comVel, then
 * mj_rne(flg_acc = 1). Prints the best of REPS passes in ns per sample ("best_ns") as JSON
 * on one line. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <mujoco/mujoco.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s MODEL.mjb N REPS\n", argv[0]);
        return 2;
    }
    mjModel *m = mj_loadModel(argv[1], NULL);
    if (!m) {
        fprintf(stderr, "cannot load %s\n", argv[1]);
        return 3;
    }
    mjData *d = mj_makeData(m);
    long n = atol(argv[2]);
    int reps = atoi(argv[3]);
    int nq = m->nq, nv = m->nv;
    double *qpos = malloc(sizeof(double) * n * nq), *qvel = malloc(sizeof(double) * n * nv);
    double *qacc = malloc(sizeof(double) * n * nv), *out = malloc(sizeof(double) * nv);
    srand(42);
    for (long k = 0; k < n * nq; k++) qpos[k] = 2.0 * rand() / RAND_MAX - 1.0;
    for (long k = 0; k < n * nv; k++) {
        qvel[k] = 2.0 * rand() / RAND_MAX - 1.0;
        qacc[k] = 2.0 * rand() / RAND_MAX - 1.0;
    }
    for (long k = 0; k < n; k++) mj_normalizeQuat(m, qpos + k * nq);
    double best = 1e300, sink = 0.0;
    for (int r = 0; r <= reps; r++) {
        double t0 = now();
        for (long k = 0; k < n; k++) {
            mju_copy(d->qpos, qpos + k * nq, nq);
            mju_copy(d->qvel, qvel + k * nv, nv);
            mju_copy(d->qacc, qacc + k * nv, nv);
            mj_kinematics(m, d);
            mj_comPos(m, d);
            mj_comVel(m, d);
            mj_rne(m, d, 1, out);
            sink += out[0];
        }
        double t = now() - t0;
        if (r > 0 && t < best) best = t;           /* pass 0 warms up */
    }
    printf("{\"best_ns\": %.3f, \"nv\": %d, \"sink\": %g}\n", best / n * 1e9, nv, sink);
    free(qpos); free(qvel); free(qacc); free(out);
    mj_deleteData(d);
    mj_deleteModel(m);
    return 0;
}
