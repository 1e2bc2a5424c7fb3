"""Per-sample time of the frame functions: urdf2dyn batch vs Pinocchio C++.

    python benchmarks/bench_frames.py [--n 20000] [--reps 5]

One table (reStructuredText on stdout, progress on stderr), nanoseconds per sample, best of
--reps passes, urdf2dyn on one thread, for the frame of the last URDF link in Pinocchio's
frame list (a hand or foot) of each robot:

framejac     the frame Jacobian in LOCAL: urdf2dyn ``model.frame_jacobian``; Pinocchio
             ``computeFrameJacobian`` (kinematics and the Jacobian of the one frame).
framejacdot  its time variation in LOCAL_WORLD_ALIGNED: urdf2dyn
             ``model.frame_jacobian_time_variation``; Pinocchio
             ``computeJointJacobiansTimeVariation`` (every joint's) +
             ``getFrameJacobianTimeVariation``.
frameacc     the frame origin's classical acceleration: urdf2dyn
             ``model.frame_classical_acceleration``; Pinocchio ``forwardKinematics(q, v, a)``
             + ``getFrameClassicalAcceleration``.

Pinocchio is timed in "store" mode (benchmarks/pin_rnea_bench.cpp): each sample's result is
copied into an output array, as a batched call must deliver it. Ratios are urdf2dyn / pin.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_rnea import (CLASSIC, best_of, cpu_name, fmt_ratio, load_models, log,  # noqa: E402
                        rst_table)

ALGOS = ["framejac", "framejacdot", "frameacc"]


def last_body_frame(path, floating):
    """The link the C++ timer uses: Pinocchio's last BODY frame."""
    import pinocchio as pin
    pm = (pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer()) if floating
          else pin.buildModelFromUrdf(str(path)))
    return [f.name for f in pm.frames if f.type == pin.FrameType.BODY][-1]


def u2d_call(model, link, algo, n, rng):
    q = model.random_configuration(n, seed=int(rng.integers(1 << 31)))
    v = rng.normal(size=(n, model.nv))
    a = rng.normal(size=(n, model.nv))
    return {"framejac": lambda: model.frame_jacobian(q, link, reference="local"),
            "framejacdot": lambda: model.frame_jacobian_time_variation(q, v, link),
            "frameacc": lambda: model.frame_classical_acceleration(q, v, a, link)}[algo]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    import urdf2dyn
    from _pinbuild import get_runner
    runner = get_runner(verbose=True)
    rng = np.random.default_rng(0)
    urdf2dyn.set_num_threads(1)
    print(f"CPU: {cpu_name()}; urdf2dyn one thread; ns per sample\n")
    header = ["robot", "link", *[f"{a} u2d / pin / ratio" for a in ALGOS]]
    rows = []
    for name, path, floating, model in load_models(CLASSIC):
        link = last_body_frame(path, floating)
        row = [name, link]
        for algo in ALGOS:
            log(f"{name} {algo}")
            ours = best_of(u2d_call(model, link, algo, args.n, rng), args.reps) / args.n * 1e9
            pin = runner(path, floating, n=args.n, reps=args.reps, algo=algo,
                         mode="store")["best_ns"]
            row.append(f"{ours:.0f} / {pin:.0f} / {fmt_ratio(ours / pin)}")
        rows.append(row)
    print(rst_table(header, rows))
    urdf2dyn.set_num_threads(None)


if __name__ == "__main__":
    main()
