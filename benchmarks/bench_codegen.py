"""Generated C against the core and Pinocchio C++: time per sample, code size, compile time.

    python benchmarks/bench_codegen.py [--n 20000] [--reps 5]
        [--robots ur5,panda,talos,romeo,human,gait2392,rajagopal]

For each robot, in nanoseconds per sample (best of --reps passes over N random states):

* gen C: the code of ``urdf2dyn codegen`` (gcc -O2), called in a C loop over the N samples
  by a small timing program written next to it (clock_gettime, one core);
* core: ``model.inverse_dynamics(Q, V, A)`` etc. on the N samples in one call, one thread;
* pin C++: ``pinocchio::rnea`` / ``crba`` / ``aba`` in a C++ loop (benchmarks/pin_rnea_bench.cpp,
  built once against the pin wheel by benchmarks/_pinbuild.py; needs ``pip install ".[bench]"``).

Ratios are gen C / pin C++ (below 1: the generated code is faster). A second table gives the
size of the generated C (all four functions) and the time gcc -O2 takes to compile it: CPU
time (user + system, what an idle machine would wait) and wall-clock time.
Floating-base robots (talos, romeo) get a free-flyer root; gait2392 and Rajagopal 2016
(tests/data/opensim_models) have spline-coupled custom joints and no Pinocchio column.
Progress goes to stderr.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_rnea import _erd_dir, best_of, log, rst_table, u2d_states  # noqa: E402

ALGOS = ("rnea", "crba", "aba")

HARNESS = r"""
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "{p}.h"

static double now(void)
{{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}}

/* bench N REPS < samples (N rows of q v a tau as doubles): best ns per sample of each
 * algorithm, and a checksum so that nothing is optimized away. */
int main(int argc, char **argv)
{{
    long n = atol(argv[1]), reps = atol(argv[2]);
    int row = {p_up}_NQ + 3 * {p_up}_NV;
    double *in = malloc(sizeof(double) * (size_t)(n * row));
    double *out = malloc(sizeof(double) * (size_t)(n * {p_up}_NV * {p_up}_NV));
    double g[3] = {{0.0, 0.0, -9.81}}, best[3] = {{1e30, 1e30, 1e30}}, sum = 0.0;
    if (fread(in, sizeof(double), (size_t)(n * row), stdin) != (size_t)(n * row)) return 1;
    for (long r = 0; r <= reps; r++) {{
        double t0 = now();
        for (long k = 0; k < n; k++) {{
            const double *x = in + k * row;
            {p}_rnea(x, x + {p_up}_NQ, x + {p_up}_NQ + {p_up}_NV, g, NULL,
                     out + k * {p_up}_NV);
        }}
        double t1 = now();
        for (long k = 0; k < n; k++)
            {p}_crba(in + k * row, (double (*)[{p_up}_NV])(out + ((k & 7) * {p_up}_NV * {p_up}_NV)));
        double t2 = now();
        for (long k = 0; k < n; k++) {{
            const double *x = in + k * row;
            {p}_aba(x, x + {p_up}_NQ, x + {p_up}_NQ + 2 * {p_up}_NV, g, NULL,
                    out + k * {p_up}_NV);
        }}
        double t3 = now();
        if (r == 0) continue;           /* warm-up */
        if (t1 - t0 < best[0]) best[0] = t1 - t0;
        if (t2 - t1 < best[1]) best[1] = t2 - t1;
        if (t3 - t2 < best[2]) best[2] = t3 - t2;
        sum += out[0];
    }}
    printf("%.3f %.3f %.3f %.17g\n", 1e9 * best[0] / (double)n, 1e9 * best[1] / (double)n,
           1e9 * best[2] / (double)n, sum);
    free(in); free(out);
    return 0;
}}
"""


def robots():
    import urdf2dyn
    erd = _erd_dir()
    table = {"human": (Path(urdf2dyn.data_path("humod_subject_a.urdf")), False)}
    # OpenSim models: custom joints, spline-coupled knees (no Pinocchio column: it reads no .osim)
    osim = HERE.parent / "tests" / "data" / "opensim_models" / "Models"
    table.update({"gait2392": (osim / "gait2392_millard2012muscle.osim", False),
                  "rajagopal": (osim / "Rajagopal2016.osim", False)})
    if erd is not None:
        table = {"ur5": (erd / "ur_description/urdf/ur5_robot.urdf", False),
                 "panda": (erd / "panda_description/urdf/panda.urdf", False),
                 "talos": (erd / "talos_data/robots/talos_reduced.urdf", True),
                 "romeo": (erd / "romeo_description/urdf/romeo.urdf", True), **table}
    return table


def build_generated(model, prefix, directory, cc="gcc"):
    """Generate, compile with -O2, link the harness; (exe, (wall s, CPU s), bytes, lines)."""
    from urdf2dyn import codegen
    files = codegen.generate(model, "c", name=prefix)
    codegen.write(files, directory)
    src = Path(directory) / f"{prefix}.c"
    obj = Path(directory) / f"{prefix}.o"
    t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([cc, "-std=c99", "-O2", "-c", str(src), "-o", str(obj)], check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (time.perf_counter() - t0, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    harness = Path(directory) / f"{prefix}_bench.c"
    harness.write_text(HARNESS.format(p=prefix, p_up=prefix.upper()))
    exe = Path(directory) / f"{prefix}_bench"
    subprocess.run([cc, "-std=c99", "-O2", "-I", str(directory), str(harness), str(obj),
                    "-o", str(exe), "-lm"], check=True)
    text = src.read_text()
    return exe, seconds, len(text.encode()), text.count("\n")


def time_generated(exe, model, n, reps, rng):
    Q, V, A = u2d_states(model, n, rng)
    tau = rng.uniform(-1, 1, size=(n, model.nv))
    data = np.ascontiguousarray(np.hstack([Q, V, A, tau]))
    r = subprocess.run([str(exe), str(n), str(reps)], input=data.tobytes(), capture_output=True,
                       check=True)
    return [float(x) for x in r.stdout.split()[:3]]


def time_core(model, n, reps, rng):
    import urdf2dyn
    Q, V, A = u2d_states(model, n, rng)
    urdf2dyn.set_num_threads(1)
    try:
        out = [best_of(lambda: model.inverse_dynamics(Q, V, A), reps) / n * 1e9,
               best_of(lambda: model.mass_matrix(Q), reps) / n * 1e9, None]
        try:
            out[2] = best_of(lambda: model.forward_dynamics(Q, V, A), reps) / n * 1e9
        except ValueError as e:     # a massless leaf: the core refuses, others return inf
            log(f"core ABA on {model.name}: {e}")
        return out
    finally:
        urdf2dyn.set_num_threads(None)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--robots", default="ur5,panda,talos,romeo,human,gait2392,rajagopal")
    args = ap.parse_args(argv)
    import urdf2dyn
    try:
        from _pinbuild import PinBuildError, get_runner
        runner = get_runner(verbose=True)
    except Exception as e:      # noqa: BLE001 - the table says pin C++ is missing, and why
        log(f"Pinocchio C++ timer unavailable: {e}")
        runner = None
    table = robots()
    rows, sizes = [], []
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for key in args.robots.split(","):
            if key not in table:
                log(f"skipping {key}: example-robot-data not installed")
                continue
            path, floating = table[key]
            model = urdf2dyn.load(str(path), floating_base=floating)
            log(f"{key}: generating and compiling (nv = {model.nv}) ...")
            exe, secs, nbytes, lines = build_generated(model, key, tmp)
            gen = time_generated(exe, model, args.n, args.reps, rng)
            core = time_core(model, args.n, args.reps, rng)
            pin = [None] * 3
            if runner is not None and path.suffix != ".osim":
                for k, algo in enumerate(ALGOS):
                    try:
                        pin[k] = runner(path, floating=floating, n=args.n, reps=args.reps,
                                        algo=algo)["best_ns"]
                    except (PinBuildError, ValueError) as e:   # NaN checksum: singular
                        log(f"pin C++ {algo} on {key}: {e}")
            for k, algo in enumerate(ALGOS):
                ratio = f"{gen[k] / pin[k]:.2f}" if pin[k] else "-"
                rows.append([key if k == 0 else "", str(model.nv) if k == 0 else "", algo,
                             f"{gen[k]:.0f}", f"{core[k]:.0f}" if core[k] else "-",
                             f"{pin[k]:.0f}" if pin[k] else "-", ratio])
            sizes.append([key, str(model.nv), f"{nbytes / 1024:.0f} KiB", str(lines),
                          f"{secs[1]:.1f} s", f"{secs[0]:.1f} s"])
    print(rst_table(["robot", "nv", "algorithm", "gen C ns", "core ns", "pin C++ ns",
                     "gen C / pin"], rows))
    print()
    print(rst_table(["robot", "nv", "generated C (rnea crba aba fk)", "lines",
                     "gcc -O2 CPU", "gcc -O2 wall"],
                    sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
