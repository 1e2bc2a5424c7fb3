"""How a batch speeds up from one thread to two: the core's own threads over whole trajectories.

    python benchmarks/bench_scaling.py [--n 1000,10000,100000] [--reps 7]
                                       [--robots ur5,talos,human] [--algos rnea,crba,aba,fk]

One table (reStructuredText on stdout, progress on stderr). For each robot, algorithm and batch
size N, on the default SIMD path (urdf2dyn.simd_path()), the time per sample with
urdf2dyn.set_num_threads(1) and (2), and their ratio, the speed-up. The two settings alternate
within each of --reps passes and each keeps its best time (allocation of the result included):
this virtual machine's speed drifts by tens of percent over a minute, and timing one setting
after the other would measure the drift. Two free cores give at most 2.0; on a shared machine
other tenants take their share, so the header prints the load average before and after.

A control comes first: benchmarks/bench_stream.c fills 100 MB from one thread and from two,
freshly allocated (as a batch's result array is) and written before. An algorithm whose time
goes into writing a large result (CRBA: nv^2 numbers per sample, forward kinematics: 12 per
link) cannot speed up more than those ratios.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_rnea import cpu_name, load_models, log, rst_table  # noqa: E402
from bench_simd import ALGOS, u2d_call  # noqa: E402


def stream_control(megabytes=100):
    """bench_stream.c's JSON: GB/s writing new and reused memory from 1 and 2 threads."""
    build = HERE / ".build"
    build.mkdir(parents=True, exist_ok=True)
    exe, src = build / "bench_stream", HERE / "bench_stream.c"
    if not exe.exists() or exe.stat().st_mtime < src.stat().st_mtime:
        subprocess.run(["cc", "-O2", "-pthread", "-o", str(exe), str(src)], check=True)
    out = subprocess.run([str(exe), str(megabytes)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def best_alternating(fn, reps):
    """Best seconds of fn on 1 and on 2 threads, the two taking turns."""
    import urdf2dyn
    best = [float("inf")] * 2
    for _ in range(reps):
        for t in (0, 1):
            urdf2dyn.set_num_threads(t + 1)
            t0 = time.perf_counter()
            fn()
            best[t] = min(best[t], time.perf_counter() - t0)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="1000,10000,100000", help="batch sizes, comma-separated")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--robots", default="ur5,talos,human")
    ap.add_argument("--algos", default=",".join(ALGOS))
    args = ap.parse_args(argv)
    import urdf2dyn
    rng = np.random.default_rng(0)
    load_before = os.getloadavg()[0]
    stream = stream_control()
    rows = []
    for name, _, _, model in load_models(args.robots):
        for algo in args.algos.split(","):
            for n in (int(s) for s in args.n.split(",")):
                fn = u2d_call(model, algo, n, rng)
                try:
                    fn()
                except ValueError as e:                  # romeo's singular mass matrix
                    log(f"{name} {algo}: {e}")
                    break
                reps = max(args.reps, 2_000_000 // (n * model.nv) + 1)
                best = best_alternating(fn, reps)
                ns = [b / n * 1e9 for b in best]
                log(f"{name} {algo} N={n}: {ns[0]:.0f} / {ns[1]:.0f} ns")
                rows.append([name, algo, str(n), f"{ns[0]:.0f}", f"{ns[1]:.0f}",
                             f"{ns[0] / ns[1]:.2f}"])
    urdf2dyn.set_num_threads(None)
    print(f"CPU: {cpu_name()}; path {urdf2dyn.simd_path()}; load average "
          f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after; ns per sample")
    for kind in ("new", "reused"):
        c = stream[kind]
        print(f"control: filling {stream['MB']:.0f} MB of {kind} memory, {c['GB/s 1 thread']} GB/s "
              f"on 1 thread, {c['GB/s 2 threads']} on 2: speed-up {c['ratio']}")
    print()
    print(rst_table(["robot", "algo", "N", "1 thread", "2 threads", "speed-up"], rows))


if __name__ == "__main__":
    main()
