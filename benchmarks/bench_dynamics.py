"""Per-sample time of the dynamics family: urdf2dyn batch vs Pinocchio C++.

    python benchmarks/bench_dynamics.py [--n 20000] [--reps 5] [--part robots,bodies,samples]

Three tables (reStructuredText on stdout, progress on stderr), nanoseconds per sample, best of
--reps passes, urdf2dyn on one thread:

robots   RNEA, CRBA, ABA and forward kinematics (every link's pose) on the bundled robots, ur5,
         talos and romeo. Pinocchio C++ is timed two ways (benchmarks/pin_rnea_bench.cpp):
         "hot", its usual loop whose results stay in pinocchio::Data, and "store", which also
         copies each sample's result into an output array allocated and touched before timing,
         as a batched call must deliver them (urdf2dyn's own timings include allocating its
         result arrays, and it fills both triangles of M). Ratios are urdf2dyn / pin; the
         targets are ratios <= 0.7 against the hot loop. romeo's hands are massless, so its
         mass matrix is singular and ABA is skipped there.
bodies   the same algorithms on generated chains and binary trees of 10 to 1000 bodies
         (revolute joints with unaligned axes), against Pinocchio's hot loop. Pinocchio is
         not run at 1000 bodies: its Data for a 1000-joint chain outgrows 24 GB of memory
         (0.9 GB at 300 joints), so those rows give urdf2dyn's times alone.
samples  urdf2dyn alone: per-sample time of one batched call as N grows, on 1 and 2 threads
         (per-call overhead amortized, threads engaged for large N).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_rnea import (CLASSIC, best_of, cpu_name, fmt_ratio, load_models, log,  # noqa: E402
                        robot_table, rst_table)

ALGOS = ["rnea", "crba", "aba", "fk"]


def u2d_call(model, algo, n, rng):
    q = model.random_configuration(n, seed=int(rng.integers(1 << 31)))
    v = rng.normal(size=(n, model.nv))
    a = rng.normal(size=(n, model.nv))
    return {"rnea": lambda: model.inverse_dynamics(q, v, a),
            "crba": lambda: model.mass_matrix(q),
            "aba": lambda: model.forward_dynamics(q, v, a),
            "fk": lambda: model.forward_kinematics(q)}[algo]


def time_u2d(model, algo, n, reps, rng):
    return best_of(u2d_call(model, algo, n, rng), reps) / n * 1e9


def time_pin(runner, path, floating, algo, n, reps, mode):
    return runner(path, floating, n=n, reps=reps, algo=algo, mode=mode)["best_ns"]


def chain_urdf(n, branching):
    """n revolute bodies in a chain (branching=1) or a binary tree (branching=2)."""
    rng = np.random.default_rng(n * 10 + branching)
    parts = ['<robot name="gen"><link name="l0"/>']
    for i in range(1, n + 1):
        parent = (i - 1) // branching if branching > 1 else i - 1
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        c = rng.uniform(-0.1, 0.1, 3)
        parts.append(
            f'<link name="l{i}"><inertial><origin xyz="{c[0]:.4f} {c[1]:.4f} {c[2]:.4f}"/>'
            f'<mass value="{rng.uniform(0.5, 2):.4f}"/><inertia ixx="0.02" ixy="0.001" '
            f'ixz="0" iyy="0.03" iyz="0.002" izz="0.025"/></inertial></link>'
            f'<joint name="j{i}" type="revolute"><parent link="l{parent}"/>'
            f'<child link="l{i}"/><origin xyz="0 0 0.1" rpy="0.1 0.2 0.3"/>'
            f'<axis xyz="{axis[0]:.6f} {axis[1]:.6f} {axis[2]:.6f}"/>'
            f'<limit lower="-3" upper="3" effort="1" velocity="1"/></joint>')
    parts.append("</robot>")
    return "".join(parts)


def part_robots(urdf2dyn, runner, args, rng):
    header = ["robot", "nv", "algo", "urdf2dyn [ns]", "pin hot [ns]", "pin store [ns]",
              "u2d / pin hot", "u2d / pin store"]
    rows = []
    for name, path, floating, model in load_models(CLASSIC):
        for algo in ALGOS:
            if algo == "aba" and name == "romeo":
                continue
            log(f"{name} {algo}")
            u = time_u2d(model, algo, args.n, args.reps, rng)
            hot = time_pin(runner, path, floating, algo, args.n, args.reps, "hot")
            store = time_pin(runner, path, floating, algo, args.n, args.reps, "store")
            rows.append([name, str(model.nv), algo, f"{u:.0f}", f"{hot:.0f}", f"{store:.0f}",
                         fmt_ratio(u / hot), fmt_ratio(u / store)])
    return header, rows


def part_bodies(urdf2dyn, runner, args, rng):
    header = ["tree", "bodies"] + [f"{a} u2d/pin" for a in ALGOS] + [f"{a} u2d [ns]"
                                                                      for a in ALGOS]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind, branching in (("chain", 1), ("binary", 2)):
            for nb in (10, 30, 100, 300, 1000):
                path = Path(tmp) / f"{kind}{nb}.urdf"
                path.write_text(chain_urdf(nb, branching))
                model = urdf2dyn.load(path)
                n = max(200, args.n * 10 // nb)
                log(f"{kind} {nb} (N={n})")
                ratios, times = [], []
                for algo in ALGOS:
                    u = time_u2d(model, algo, n, args.reps, rng)
                    p = time_pin(runner, path, False, algo, n, args.reps, "hot") if nb <= 300 \
                        else None
                    ratios.append(fmt_ratio(u / p if p else None))
                    times.append(f"{u:.0f}")
                rows.append([kind, str(nb)] + ratios + times)
    return header, rows


def part_samples(urdf2dyn, args, rng):
    path, floating = robot_table()["arm7"]
    model = urdf2dyn.load(path, floating_base=floating)
    header = ["N", "rnea 1 thread [ns]", "rnea 2 threads [ns]", "crba 1 thread [ns]",
              "crba 2 threads [ns]"]
    rows = []
    for n in (1, 10, 100, 1000, 10_000, 100_000):
        row = [str(n)]
        for algo in ("rnea", "crba"):
            fn = u2d_call(model, algo, n, rng)
            for threads in (1, 2):
                urdf2dyn.set_num_threads(threads)
                reps = max(args.reps, 200_000 // (n * 10) + 1)
                row.append(f"{best_of(fn, reps) / n * 1e9:.0f}")
        rows.append(row)
    urdf2dyn.set_num_threads(None)
    return header, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--part", default="robots,bodies,samples")
    args = ap.parse_args(argv)
    import urdf2dyn
    rng = np.random.default_rng(0)
    parts = args.part.split(",")
    runner = None
    if "robots" in parts or "bodies" in parts:
        from _pinbuild import get_runner
        runner = get_runner(verbose=True)
    print(f"CPU: {cpu_name()}; urdf2dyn one thread unless stated; ns per sample\n")
    if "robots" in parts:
        urdf2dyn.set_num_threads(1)
        print(rst_table(*part_robots(urdf2dyn, runner, args, rng)))
    if "bodies" in parts:
        urdf2dyn.set_num_threads(1)
        print(rst_table(*part_bodies(urdf2dyn, runner, args, rng)))
    if "samples" in parts:
        print(rst_table(*part_samples(urdf2dyn, args, rng)))
    urdf2dyn.set_num_threads(None)


if __name__ == "__main__":
    main()
