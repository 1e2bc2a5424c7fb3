"""Per-sample time of the batched mass matrix and derivatives on every SIMD path, below and above the streaming size, against the write-bandwidth bound and Pinocchio C++.

    python benchmarks/bench_derivatives.py [--robots talos,human] [--mb 4,64] [--paths all]
                                           [--reps 5] [--rounds 3] [--clock cpu|wall]

One table (reStructuredText on stdout, progress on stderr), nanoseconds per sample, one thread
(pin the process: ``taskset -c 1``). For each robot, call and output size (--mb: the megabytes
of the call's outputs; N is the number of samples that makes them, a multiple of 8), and each
SIMD path this CPU has (urdf2dyn.set_simd_path; --paths picks some), with ``out=`` reused as an
optimal-control loop would:

mass_matrix                    (N, nv, nv) M, against pinocchio::crba
inverse_dynamics_derivatives   dtau/dq, dtau/dv, M, against pinocchio::computeRNEADerivatives
forward_dynamics_derivatives   dqdd/dq, dqdd/dv, M^-1, against pinocchio::computeABADerivatives

Columns:

u2d             urdf2dyn's time per sample on that path
bound           the output's bytes per sample at this core's write bandwidth, measured in the
                same run (benchmarks/bench_stream.c ``bw``: one thread filling a buffer of the
                call's output size, written before, in address order; the faster of plain and
                non-temporal stores): no call can write its results faster
u2d/bound       how far from that limit
u2d/lim         u2d / max(the same path's time at the smallest --mb, bound): the issue's target
                above the cache is <= 1.5
pin hot         Pinocchio's loop with its results left in its Data (benchmarks/pin_rnea_bench.cpp,
                built by _pinbuild.py against the pin wheel; ``pip install ".[bench]"``)
pin store       the same loop copying each sample's results into an (N, ...) array, as a batched
                API must deliver them
/hot, /store    u2d / pin hot, u2d / pin store

The streaming size is U2D_STREAM_BYTES (csrc/batch/u2d_simd_impl.h, 8 MB of outputs per
thread): the default --mb 4,64 puts one size below it and one far above the 2 MB L2 of a
Sapphire Rapids core. On a shared machine one pass is not a measurement: --rounds R times
urdf2dyn's paths and Pinocchio R times in turn, each round best of --reps, and the table gives
the median of the R times of each and of the R per-round ratios. --clock cpu (the default)
times both sides in process CPU time (Python's process_time, the C++ runner's std::clock),
which a machine with more runnable threads than cores does not inflate by the time a process
waits for one; --clock wall times elapsed time.

Pinocchio's generated code (CasADi or CppADCodeGen) is not timed: the PyPI ``pin`` wheel
(4.1.0) has neither backend compiled in (no ``pinocchio.casadi`` / ``pinocchio.cppadcg``
modules, no libpinocchio_casadi library; libpinocchio ships the templates' headers only), and
CppADCodeGen is on neither PyPI nor Debian. See docs/performance.rst.
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

from bench_rnea import (best_of, cpu_name, fmt_ratio, load_models, log,  # noqa: E402
                        rst_table)

ALGOS = {"crba": "mass_matrix", "rnea_deriv": "inverse_dynamics_derivatives",
         "aba_deriv": "forward_dynamics_derivatives"}
ROBOTS = "talos,human"
BUILD = HERE / ".build"


def bench_stream():
    """benchmarks/bench_stream.c, built once into benchmarks/.build."""
    BUILD.mkdir(parents=True, exist_ok=True)
    exe, src = BUILD / "bench_stream", HERE / "bench_stream.c"
    if not exe.exists() or exe.stat().st_mtime < src.stat().st_mtime:
        subprocess.run(["cc", "-O2", "-pthread", "-o", str(exe), str(src)], check=True)
    return exe


def write_bandwidth(megabytes, reps=9):
    """This core's write bandwidth (GB/s) into megabytes written before: plain and
    non-temporal stores in address order, medians (bench_stream.c bw)."""
    out = subprocess.run([str(bench_stream()), "bw", f"{megabytes:.3f}", str(reps)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def cpu_description():
    """The CPU's name, and what a virtual machine's name hides: family/model, the vector
    extensions, L2 and L3, and whether it is a guest."""
    info = {}
    try:
        for ln in open("/proc/cpuinfo"):
            k, _, v = ln.partition(":")
            info.setdefault(k.strip(), v.strip())
    except OSError:
        return cpu_name()
    flags = set(info.get("flags", "").split())
    ext = [f for f in ("avx2", "avx512f", "avx512_fp16", "amx_tile") if f in flags]
    caches = []
    for idx in range(8):
        d = Path(f"/sys/devices/system/cpu/cpu0/cache/index{idx}")
        if (d / "level").exists() and (d / "level").read_text().strip() in ("2", "3"):
            caches.append(f"L{(d / 'level').read_text().strip()} {(d / 'size').read_text().strip()}")
    guest = "; virtual machine" if "hypervisor" in flags else ""
    return (f"{cpu_name()} (family {info.get('cpu family', '?')} model {info.get('model', '?')}; "
            f"{' '.join(ext)}; {', '.join(caches)}{guest})")


def main(argv=None):
    import urdf2dyn
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--robots", default=ROBOTS, help=f"comma-separated (default {ROBOTS})")
    ap.add_argument("--algos", default=",".join(ALGOS), help="crba,rnea_deriv,aba_deriv")
    ap.add_argument("--mb", default="4,64",
                    help="output megabytes per call, comma-separated (default 4,64: below and "
                         "above the 8 MB streaming size)")
    ap.add_argument("--n", default=None,
                    help="samples per call, comma-separated, instead of --mb (the sizes of "
                         "the tables in docs/performance.rst before the streaming rework)")
    ap.add_argument("--paths", default="all",
                    help="SIMD paths, comma-separated (default: every one this CPU has)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3,
                    help="urdf2dyn and Pinocchio timed in turn this many times; medians (default 3)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="process CPU time (default) or elapsed time, both sides alike")
    ap.add_argument("--no-pin", action="store_true", help="urdf2dyn and the bound only")
    args = ap.parse_args(argv)
    paths = (urdf2dyn.available_simd_paths() if args.paths == "all"
             else args.paths.split(","))
    sizes = sorted(float(x) for x in (args.n or args.mb).split(","))
    runner = None
    if not args.no_pin:
        from _pinbuild import get_runner
        runner = get_runner(verbose=True)
    urdf2dyn.set_num_threads(1)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    key = "best_cpu_ns" if args.clock == "cpu" else "best_ns"
    rng = np.random.default_rng(0)
    header = ["robot", "nv", "call", "N", "MB", "path", "u2d", "bound", "u2d/bound", "u2d/lim",
              "pin hot", "pin store", "/hot", "/store"]
    rows, bandwidths = [], {}
    for name, path, floating, model in load_models(args.robots):
        nv = model.nv
        for algo in args.algos.split(","):
            method = getattr(model, ALGOS[algo])
            per_sample = (1 if algo == "crba" else 3) * nv * nv * 8
            in_cache = {}
            for size in sizes:
                n = (int(size) if args.n else max(8, int(size * 2**20 / per_sample) // 8 * 8))
                mb = n * per_sample / 2**20
                q = model.random_configuration(n, seed=1)
                v = rng.uniform(-1, 1, (n, nv))
                a = rng.uniform(-1, 1, (n, nv))
                if algo == "crba":
                    out = method(q)

                    def call():
                        method(q, out=out)
                else:
                    out = method(q, v, a)

                    def call():
                        method(q, v, a, out=out)
                log(f"{name} {algo} N={n} ({mb:.1f} MB), {args.rounds} rounds")
                t = {p: [] for p in paths}
                t.update(hot=[], store=[], bw=[])
                for _ in range(max(1, args.rounds)):
                    bw = write_bandwidth(mb)
                    t["bw"].append(max(bw["plain GB/s"], bw["nt GB/s"]))
                    for p in paths:
                        urdf2dyn.set_simd_path(p)
                        t[p].append(best_of(call, args.reps, clock) / n * 1e9)
                    if runner is not None:
                        for mode in ("hot", "store"):
                            t[mode].append(runner(path, floating, n=n, reps=args.reps,
                                                  algo=algo, mode=mode)[key])
                urdf2dyn.set_simd_path(None)
                gbs = float(np.median(t["bw"]))
                bandwidths.setdefault(size, []).append(gbs)
                bound = per_sample / gbs                                  # ns per sample
                hot = float(np.median(t["hot"])) if runner else None
                store = float(np.median(t["store"])) if runner else None
                for p in paths:
                    u = float(np.median(t[p]))
                    in_cache.setdefault(p, u)                             # the smallest size
                    lim = max(in_cache[p], bound)
                    r_hot = (float(np.median(np.divide(t[p], t["hot"]))) if runner else None)
                    r_store = (float(np.median(np.divide(t[p], t["store"]))) if runner else None)
                    rows.append([name, str(nv), ALGOS[algo], str(n),
                                 f"{mb:.1f}", p, f"{u:.0f}", f"{bound:.0f}",
                                 fmt_ratio(u / bound), fmt_ratio(u / lim),
                                 f"{hot:.0f}" if hot else "-", f"{store:.0f}" if store else "-",
                                 fmt_ratio(r_hot), fmt_ratio(r_store)])
    urdf2dyn.set_num_threads(None)
    print(f"CPU: {cpu_description()}; urdf2dyn one thread, paths {', '.join(paths)}; "
          f"{args.clock} time, ns per sample, medians of {max(1, args.rounds)} rounds (each best "
          f"of {args.reps}); write bandwidth of one core (the bound's), GB/s: "
          + ", ".join(f"{min(g):.1f}-{max(g):.1f} at {size:g} {'samples' if args.n else 'MB'}"
                      for size, g in sorted(bandwidths.items())) + "\n")
    print(rst_table(header, rows))


if __name__ == "__main__":
    main()
