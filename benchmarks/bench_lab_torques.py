"""From the lab's files to torques, per trial: urdf2dyn's one call vs OpenSim 4.6's chain.

    python benchmarks/bench_lab_torques.py [--reps 3]

The trial is opensim-models' Gait2392 subject01_walk1 (tests/data/ik/gait2392: the scaled
model, the IK setup, the markers and plates as a C3D file written by ezc3d). urdf2dyn:
``inverse_dynamics_trial(model, "subject01_walk1.c3d", rotation="x:-90", ik_setup=...,
filter_hz=6, processing="opensim", time_range=(0.5, 1.6))`` (C3D reading, IK, plates to feet,
filter, ID), the model loaded once outside the timing (as in a batch). OpenSim: its IK tool on
the same markers (.trc) and setup, then its inverse-dynamics tool with the published
ExternalLoads, files written as its users run them (tests/biomech/labtorques_oracle.py; the
model is loaded by each tool). Best of --reps; the ratio is OpenSim / urdf2dyn.
"""
import argparse
import os
import sys
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "tests", "biomech"))

import labtorques_oracle as oracle  # noqa: E402

import urdf2dyn  # noqa: E402
from urdf2dyn import Urdf2dynWarning, URDFWarning  # noqa: E402


def best(fn, reps):
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    data = oracle.DATA
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", URDFWarning)
        model = urdf2dyn.load(os.path.join(data, "subject01_simbody.osim"))

    def ours():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)
            return urdf2dyn.inverse_dynamics_trial(
                model, os.path.join(data, "subject01_walk1.c3d"), rotation="x:-90",
                ik_setup=os.path.join(data, "subject01_Setup_IK.xml"),
                filter_hz=oracle.CUTOFF, processing="opensim", time_range=oracle.TIME_RANGE)

    res = ours()
    t_ours = best(ours, args.reps)
    with tempfile.TemporaryDirectory() as tmp:
        t_theirs = best(lambda: oracle.run_chain(os.path.join(tmp, "chain")), args.reps)
    frames = len(res.ik.q)
    print(f"trial: subject01_walk1 (Gait2392, {frames} IK frames, {len(res.t)} ID rows)")
    print(f"{'':<28}{'urdf2dyn':>12}{'OpenSim':>12}{'ratio':>9}")
    print(f"{'C3D -> torques, s/trial':<28}{t_ours:>12.4f}{t_theirs:>12.4f}"
          f"{t_theirs / t_ours:>8.1f}x")
    print(f"{'per IK frame, ms':<28}{1e3 * t_ours / frames:>12.3f}"
          f"{1e3 * t_theirs / frames:>12.3f}")


if __name__ == "__main__":
    main()
