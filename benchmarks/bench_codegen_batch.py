"""The batched functions of ``urdf2dyn codegen`` against the core, per sample, one thread.

    python benchmarks/bench_codegen_batch.py [--n 4000] [--reps 5] [--rounds 3]
                                             [--robots ur5,panda,human] [--cflags "..."]

For each robot, ``urdf2dyn codegen`` C is compiled once with ``gcc -O3 -fno-math-errno
-march=native`` (what docs/codegen.rst advises; change with --cflags) into a shared library;
its ``<prefix>_rnea_batch``, ``_crba_batch``, ``_aba_batch`` and ``_fk_batch`` (samples
innermost: arrays (..., N)) are called through ctypes on N samples, and the core's
``inverse_dynamics``, ``mass_matrix``, ``forward_dynamics`` and ``forward_kinematics`` on the same
samples (arrays (N, ...), the core's SIMD path, one thread). Times are process CPU time
(not inflated on a machine with more runnable threads than cores), nanoseconds per sample,
each the best of --reps calls; --rounds times both sides in turn and gives the medians and
the median per-round ratio (gen / core: below 1, the generated code is faster). The largest
relative difference of the two results is printed beside each row (the tests hold it to
1e-12: tests/test_codegen_c_batch.py). Compile time is printed on stderr.
"""
from __future__ import annotations

import argparse
import ctypes
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_rnea import best_of, cpu_name, fmt_ratio, load_models, log, rst_table  # noqa: E402

CFLAGS = "-O3 -fno-math-errno -march=native"


def build(model, prefix, directory, cflags):
    from urdf2dyn import codegen
    paths = codegen.write(codegen.generate(model, "c", name=prefix), directory)
    src = [p for p in paths if str(p).endswith(".c")][0]
    so = Path(directory) / f"lib{prefix}.so"
    t0 = time.perf_counter()
    subprocess.run(["gcc", "-std=c99", *cflags.split(), "-fPIC", "-shared", "-o", str(so),
                    str(src), "-lm"], check=True)
    log(f"{prefix}: gcc {cflags} took {time.perf_counter() - t0:.1f} s")
    return ctypes.CDLL(str(so))


def rel(x, ref):
    return float(np.max(np.abs(x - ref)) / max(1.0, float(np.max(np.abs(ref)))))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--robots", default="ur5,panda,human")
    ap.add_argument("--cflags", default=CFLAGS)
    args = ap.parse_args(argv)
    import urdf2dyn
    urdf2dyn.set_num_threads(1)
    rng = np.random.default_rng(0)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, _path, _floating, model in load_models(args.robots):
            lib = build(model, name, tmp, args.cflags)
            n, nv, nl = args.n, model.nv, len(model.link_names)
            q = model.random_configuration(n, seed=1)
            v, a = rng.uniform(-1, 1, (n, nv)), rng.uniform(-1, 1, (n, nv))
            g = np.array(model.gravity, dtype=float)
            T = lambda x: np.ascontiguousarray(np.moveaxis(x, 0, -1))     # noqa: E731
            qT, vT, aT = T(q), T(v), T(a)
            tau, M = np.empty((nv, n)), np.empty((nv, nv, n))
            qdd, pos, rot = np.empty((nv, n)), np.empty((nl, 3, n)), np.empty((nl, 3, 3, n))
            ptr = lambda x: x.ctypes.data_as(ctypes.c_void_p)              # noqa: E731
            N = ctypes.c_size_t(n)
            cases = {
                "rnea": (lambda: lib[f"{name}_rnea_batch"](N, ptr(qT), ptr(vT), ptr(aT), ptr(g),
                                                           ptr(tau)),
                         lambda: model.inverse_dynamics(q, v, a), lambda: tau.T),
                "crba": (lambda: lib[f"{name}_crba_batch"](N, ptr(qT), ptr(M)),
                         lambda: model.mass_matrix(q), lambda: np.moveaxis(M, -1, 0)),
                "aba": (lambda: lib[f"{name}_aba_batch"](N, ptr(qT), ptr(vT), ptr(aT), ptr(g),
                                                         ptr(qdd)),
                        lambda: model.forward_dynamics(q, v, a), lambda: qdd.T),
                "fk": (lambda: lib[f"{name}_fk_batch"](N, ptr(qT), ptr(pos), ptr(rot)),
                       lambda: model.forward_kinematics(q)[1],
                       lambda: np.moveaxis(rot, -1, 0)),
            }
            for algo, (gen, core, result) in cases.items():
                log(f"{name} {algo} (N={n})")
                tg, tc = [], []
                for _ in range(max(1, args.rounds)):
                    tg.append(best_of(gen, args.reps, time.process_time) / n * 1e9)
                    tc.append(best_of(core, args.reps, time.process_time) / n * 1e9)
                err = rel(result(), core())
                rows.append([name, str(nv), algo, f"{np.median(tg):.0f}", f"{np.median(tc):.0f}",
                             fmt_ratio(float(np.median(np.divide(tg, tc)))), f"{err:.1e}"])
    urdf2dyn.set_num_threads(None)
    print(f"CPU: {cpu_name()}; gcc {args.cflags}; core SIMD path {urdf2dyn.simd_path()}, one "
          f"thread; CPU time, ns per sample, medians of {args.rounds} rounds (each best of "
          f"{args.reps})\n")
    print(rst_table(["robot", "nv", "algorithm", "gen C batch [ns]", "core [ns]", "gen / core",
                     "max rel diff"], rows))


if __name__ == "__main__":
    main()
