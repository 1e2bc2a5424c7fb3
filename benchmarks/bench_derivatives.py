"""Per-sample time of the analytical derivatives: urdf2dyn batch vs Pinocchio C++.

    python benchmarks/bench_derivatives.py [--n 5000] [--reps 5] [--robots ur5,panda,talos,human]

One table (reStructuredText on stdout, progress on stderr), nanoseconds per sample, best of
--reps passes, urdf2dyn on one thread: inverse_dynamics_derivatives (dtau/dq, dtau/dv, M) vs
pinocchio::computeRNEADerivatives, and forward_dynamics_derivatives (dqdd/dq, dqdd/dv, M^-1)
vs pinocchio::computeABADerivatives (benchmarks/pin_rnea_bench.cpp, built by _pinbuild.py
against the pin wheel; needs ``pip install ".[bench]"``). Pinocchio is timed "hot" (results
left in its Data) and "store" (each sample's three nv x nv matrices copied into an output
array, as a batched API must deliver them). Ratios are urdf2dyn / pin; the aim (issue 17) is
<= 0.3 for the RNEA derivatives and <= 0.4 for the ABA derivatives against the hot loop, at
N >= 1000. urdf2dyn runs on the SIMD path this CPU picks (printed), reusing its output
buffers (out=) as an optimal-control loop would. The mass matrix (CRBA) is timed beside them,
Pinocchio both with M left in its Data and with M stored per sample. romeo (massless hands:
singular M) is left out of forward dynamics.

On a shared machine one pass is not a measurement: --rounds R (default 3) times urdf2dyn and
Pinocchio R times in turn, each round best of --reps, and the table gives the median of the R
times of each side and the median of the R per-round ratios (each ratio from two timings
taken seconds apart, so that a change of load between the two sides moves it least).
--clock cpu (the default) times both sides in process CPU time (Python's process_time, the
C++ runner's std::clock: its best_cpu_ns), which a machine with more runnable threads than
cores does not inflate by the time a process waits for one; --clock wall times elapsed time.

Pinocchio's generated code (CasADi or CppADCodeGen) is not timed: the PyPI ``pin`` wheel
(4.1.0) has neither backend compiled in (no ``pinocchio.casadi`` / ``pinocchio.cppadcg``
modules, no libpinocchio_casadi library; libpinocchio ships the templates' headers only), and
CppADCodeGen is on neither PyPI nor Debian. See docs/performance.rst.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_rnea import (best_of, cpu_name, fmt_ratio, load_models, log,  # noqa: E402
                        rst_table)

ALGOS = {"rnea_deriv": "inverse_dynamics_derivatives", "aba_deriv": "forward_dynamics_derivatives",
         "crba": "mass_matrix"}
ROBOTS = "ur5,panda,talos,human"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--robots", default=ROBOTS, help=f"comma-separated (default {ROBOTS})")
    ap.add_argument("--rounds", type=int, default=3,
                    help="urdf2dyn and Pinocchio timed in turn this many times; medians (default 3)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="process CPU time (default) or elapsed time, both sides alike")
    args = ap.parse_args(argv)
    import urdf2dyn
    from _pinbuild import get_runner
    runner = get_runner(verbose=True)
    urdf2dyn.set_num_threads(1)
    rng = np.random.default_rng(0)
    header = ["robot", "nv", "algorithm", "urdf2dyn [ns]", "pin hot [ns]", "pin store [ns]",
              "u2d / pin hot", "u2d / pin store"]
    rows = []
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    for name, path, floating, model in load_models(args.robots):
        n = max(1000, args.n * 30 // max(model.nv, 30))
        q = model.random_configuration(n, seed=1)
        v = rng.uniform(-1, 1, (n, model.nv))
        a = rng.uniform(-1, 1, (n, model.nv))
        for algo, method in ALGOS.items():
            if algo == "aba_deriv" and name == "romeo":
                continue
            log(f"{name} {algo} (N={n}, {args.rounds} rounds)")
            fn = getattr(model, method)
            if algo == "crba":
                def call():
                    fn(q)
            else:
                out = fn(q, v, a)                                  # buffers reused (out=)

                def call():
                    fn(q, v, a, out=out)
            t = {"u": [], "hot": [], "store": []}
            key = "best_cpu_ns" if args.clock == "cpu" else "best_ns"
            for _ in range(max(1, args.rounds)):
                t["u"].append(best_of(call, args.reps, clock) / n * 1e9)
                for mode in ("hot", "store"):
                    t[mode].append(runner(path, floating, n=n, reps=args.reps, algo=algo,
                                          mode=mode)[key])
            u, hot, store = (float(np.median(t[k])) for k in ("u", "hot", "store"))
            r_hot = float(np.median(np.divide(t["u"], t["hot"])))
            r_store = float(np.median(np.divide(t["u"], t["store"])))
            rows.append([name, str(model.nv), method, f"{u:.0f}", f"{hot:.0f}", f"{store:.0f}",
                         fmt_ratio(r_hot), fmt_ratio(r_store)])
    urdf2dyn.set_num_threads(None)
    print(f"CPU: {cpu_name()}; urdf2dyn one thread, SIMD path {urdf2dyn.simd_path()}; "
          f"{args.clock} time, ns per sample, medians of {max(1, args.rounds)} rounds "
          f"(each best of {args.reps})\n")
    print(rst_table(header, rows))


if __name__ == "__main__":
    main()
