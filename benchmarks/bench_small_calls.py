"""What a batched call costs beyond its samples: microseconds per call of N samples for a few
N, from one group of lanes to the size where the per-call cost no longer shows.

    taskset -c 1 python benchmarks/bench_small_calls.py [--robot human] [--n 8,32,128,400,2000]
                                                        [--paths all] [--rounds 5]

One thread, ``out=`` reused (the call allocates no output), thread CPU time (a machine with
more runnable threads than cores does not inflate it), the median over --rounds of the best
of several calls, and the same over N. What a call pays whatever its size (the Python
layer, the core's set-up) shows at small N. Comparing two builds: run this script under each
(``PYTHONPATH=...``) in turns.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import urdf2dyn
from bench_rnea import load_models


def calls(model, n, seed=0):
    rng = np.random.default_rng(seed)
    q = model.random_configuration(n, seed=seed)
    v, a = rng.normal(size=(n, model.nv)), rng.normal(size=(n, model.nv))
    nv = model.nv
    tau, qdd = np.empty((n, nv)), np.empty((n, nv))
    M = np.empty((n, nv, nv))
    D = tuple(np.empty((n, nv, nv)) for _ in range(3))
    return {
        "inverse_dynamics": lambda: model.inverse_dynamics(q, v, a, out=tau),
        "mass_matrix": lambda: model.mass_matrix(q, out=M),
        "forward_dynamics": lambda: model.forward_dynamics(q, v, a, out=qdd),
        "inverse_dynamics_derivatives":
            lambda: model.inverse_dynamics_derivatives(q, v, a, out=D),
    }


def best_call(fn, budget=0.02):
    """The best of as many calls as fit in about `budget` seconds of CPU time (at least 3)."""
    best, spent, k = float("inf"), 0.0, 0
    while k < 3 or spent < budget:
        t0 = time.thread_time()
        fn()
        dt = time.thread_time() - t0
        best, spent, k = min(best, dt), spent + dt, k + 1
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--robot", default="human")
    ap.add_argument("--n", default="8,32,128,400,2000")
    ap.add_argument("--paths", default="all")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    urdf2dyn.set_num_threads(1)
    sizes = [int(x) for x in args.n.split(",")]
    paths = urdf2dyn.available_simd_paths() if args.paths == "all" else args.paths.split(",")
    models = list(load_models(args.robot))
    if not models:
        raise SystemExit(f"{args.robot}: not found")
    model = models[0][3]
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.robot}: nv {model.nv}; one thread; microseconds per call (median of "
          f"{args.rounds} rounds of the best call); load average {load_avg:.1f}")
    fns = {n: calls(model, n) for n in sizes}
    times = {}
    for _ in range(args.rounds):
        for path in paths:
            urdf2dyn.set_simd_path(path)
            for n in sizes:
                for name, fn in fns[n].items():
                    times.setdefault((path, name, n), []).append(best_call(fn))
    urdf2dyn.set_simd_path(None)
    print(f"{'path':7s} {'call':29s} {'N':>5s} {'us/call':>9s} {'ns/sample':>10s}")
    for path in paths:
        for name in fns[sizes[0]]:
            for n in sizes:
                t = statistics.median(times[(path, name, n)])
                print(f"{path:7s} {name:29s} {n:5d} {t * 1e6:9.1f} {t / n * 1e9:10.0f}")
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average after: {load_avg:.1f}")


if __name__ == "__main__":
    main()
