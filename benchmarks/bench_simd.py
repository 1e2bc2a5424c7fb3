"""Per-sample time of RNEA, CRBA, ABA and forward kinematics on every SIMD path, against Pinocchio C++ and the peak.

    python benchmarks/bench_simd.py [--n 2000] [--reps 7] [--robots ur5,panda,talos,romeo,human]
                                    [--algos rnea,crba,aba,fk] [--clock cpu|wall]

One table (reStructuredText on stdout, progress on stderr). For each robot, algorithm and
dispatch path (urdf2dyn.set_simd_path: avx512, avx2, scalar, whichever this CPU has), one
thread, a batch of --n samples, best of --rounds x --reps passes (Pinocchio and urdf2dyn take
turns, --rounds times):

ns           urdf2dyn's time per sample (allocation of the result included)
pin ns       Pinocchio C++'s hot loop in the same run (benchmarks/pin_rnea_bench.cpp; its
             results stay in pinocchio::Data, CRBA fills the upper triangle only; fk is
             forwardKinematics + updateFramePlacements, every URDF link's frame, against
             model.forward_kinematics: every link's position and rotation)
ratio        ns / pin ns: below 1 is faster than Pinocchio
flops        floating-point operations per sample of our scalar code (benchmarks/count_flops.py,
             read from benchmarks/.build/flops.json when present)
% peak       flops / ns against this core's peak FMA throughput measured by
             benchmarks/bench_peak.c (the widest vector unit, 2 flops per FMA)

The human is the bundled HuMoD subject A (36 degrees of freedom, prismatic root). romeo's
hands are massless, so its mass matrix is singular and ABA is skipped there. On a shared
virtual machine the speed drifts by tens of percent within a minute, hence the turns: each
figure is the best of all its passes, and the ratios are taken in the same run. --clock cpu
(the default) times urdf2dyn in process CPU time and Pinocchio in its runner's std::clock, as
bench_peak does the peak: a machine with more runnable threads than cores does not inflate
them by the time spent waiting for a core (elapsed time, --clock wall, did by 2-30x at a load
of 10 on 2 cores).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_rnea import best_of, fmt_ratio, load_models, log, rst_table  # noqa: E402

ALGOS = ("rnea", "crba", "aba", "fk")
BUILD = HERE / ".build"


def peak_gflops():
    """Best GFLOP/s of benchmarks/bench_peak.c (built once into benchmarks/.build)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    exe = BUILD / "bench_peak"
    src = HERE / "bench_peak.c"
    if not exe.exists() or exe.stat().st_mtime < src.stat().st_mtime:
        subprocess.run(["cc", "-O2", "-o", str(exe), str(src)], check=True)
    best = {}
    for _ in range(10):
        for k, v in json.loads(subprocess.run([str(exe)], capture_output=True, text=True,
                                              check=True).stdout).items():
            best[k] = max(best.get(k, 0.0), v)
    return best


def u2d_call(model, algo, n, rng):
    # within 1 rad of the neutral pose: random angles over the whole circle sometimes put
    # the human's shoulder in gimbal lock (rSJY = +-pi/2), where ABA rightly refuses
    q = model.integrate(np.tile(model.neutral(), (n, 1)), rng.uniform(-1, 1, size=(n, model.nv)))
    v = rng.uniform(-1, 1, size=(n, model.nv))
    a = rng.uniform(-1, 1, size=(n, model.nv))
    return {"rnea": lambda: model.inverse_dynamics(q, v, a),
            "crba": lambda: model.mass_matrix(q),
            "aba": lambda: model.forward_dynamics(q, v, a),
            "fk": lambda: model.forward_kinematics(q)}[algo]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--robots", default="ur5,panda,talos,romeo,human")
    ap.add_argument("--algos", default=",".join(ALGOS))
    ap.add_argument("--rounds", type=int, default=3,
                    help="Pinocchio and urdf2dyn take turns this many times, --reps passes each "
                         "time; each keeps its best (the machine's speed drifts)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="process CPU time (default) or elapsed time, both sides alike")
    args = ap.parse_args(argv)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    key = "best_cpu_ns" if args.clock == "cpu" else "best_ns"
    from bench_derivatives import cpu_description
    import urdf2dyn
    from _pinbuild import get_runner
    runner = get_runner(verbose=True)
    peak = peak_gflops()
    top = max(peak.values())
    flops_file = BUILD / "flops.json"
    flops = json.loads(flops_file.read_text()) if flops_file.exists() else {}
    paths = urdf2dyn.available_simd_paths()
    rng = np.random.default_rng(0)
    urdf2dyn.set_num_threads(1)
    header = ["robot", "nv", "algo", "pin ns", "flops"]
    for p in paths:
        header += [f"{p} ns", f"{p} ratio", f"{p} % peak"]
    rows = []
    for name, path, floating, model in load_models(args.robots):
        for algo in args.algos.split(","):
            if algo == "aba" and name == "romeo":
                continue
            log(f"{name} {algo}")
            call = u2d_call(model, algo, args.n, rng)
            pin_ns, ns = float("inf"), {p: float("inf") for p in paths}
            for _ in range(args.rounds):
                pin_ns = min(pin_ns, runner(path, floating, n=args.n, reps=args.reps, algo=algo,
                                            mode="hot")[key])
                for p in paths:
                    urdf2dyn.set_simd_path(p)
                    ns[p] = min(ns[p], best_of(call, args.reps, clock) / args.n * 1e9)
            fl = flops.get(name, {}).get(algo)
            row = [name, str(model.nv), algo, f"{pin_ns:.0f}", str(fl) if fl else "-"]
            for p in paths:
                row += [f"{ns[p]:.0f}", fmt_ratio(ns[p] / pin_ns),
                        f"{100 * fl / ns[p] / top:.1f}" if fl else "-"]
            rows.append(row)
    urdf2dyn.set_simd_path(None)
    urdf2dyn.set_num_threads(None)
    print(f"CPU: {cpu_description()}; one thread; N = {args.n}; {args.clock} time; best of "
          f"{args.rounds} x {args.reps}; "
          "peak FMA "
          + ", ".join(f"{k} {v:.1f}" for k, v in peak.items()) + " GFLOP/s\n")
    print(rst_table(header, rows))


if __name__ == "__main__":
    main()
