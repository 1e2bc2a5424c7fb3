#!/usr/bin/env python3
"""Write the bundled example trajectories (joint positions only) as CSV files.

Every joint follows a short Fourier series, smooth (C-infinity) and known in closed form:

    q_j(t) = c_j + sum_k A_jk * sin(2*pi*f_k*t + phi_jk)

    qd_j(t)  = sum_k  A_jk * (2*pi*f_k)   * cos(2*pi*f_k*t + phi_jk)
    qdd_j(t) = sum_k -A_jk * (2*pi*f_k)^2 * sin(2*pi*f_k*t + phi_jk)

``c_j`` is the centre of the motion, ``f_k`` are a few harmonics of a base frequency, ``A_jk`` and
``phi_jk`` fixed amplitudes and phases (listed below, no random numbers), so the files are
reproducible and anyone can compare finite-difference velocities/accelerations with the exact
ones returned by :func:`evaluate`.

Outputs (in ``urdf2dyn/data/`` next to the URDFs, unless ``--outdir`` is given):

* ``robot2r_trajectory.csv``: columns ``time, joint1, joint2`` for ``robot2r.urdf``,
  2 s sampled at 100 Hz (201 rows).
* ``arm7_trajectory.csv``: columns ``time, arm7_joint1 ... arm7_joint7`` for ``arm7.urdf``,
  5 s sampled at 100 Hz (501 rows). Each joint stays strictly inside its URDF position limits
  (centred in its range, sum of amplitudes <= 60 % of the half range) and its speed stays below
  80 % of its URDF velocity limit (amplitudes scaled down where sum_k |A_jk| 2 pi f_k would exceed
  it); both are checked when writing.

Positions are in rad, time in s, written with 8 significant digits (``%.8g``). Only positions are
stored: the command line estimates velocities and accelerations by finite differences.

Usage: ``python tools/make_trajectories.py [--outdir DIR]``
"""

import argparse
import math
import pathlib

import numpy as np

RATE_HZ = 100.0

#: robot2R: base frequency 0.5 Hz (one period over the 2 s file), harmonics 1, 2, 3.
ROBOT2R = {
    "duration": 2.0,
    "frequencies": [0.5, 1.0, 1.5],
    "joints": {
        # name: (centre c, amplitudes A_k, phases phi_k)
        "joint1": (-0.5, [0.8, 0.25, 0.10], [0.0, 0.7, 1.9]),
        "joint2": (0.6, [0.9, -0.30, 0.15], [1.2, 0.3, -0.8]),
    },
}

#: arm7 position limits (rad), copied from arm7.urdf (Franka datasheet values).
ARM7_LIMITS = [
    (-2.8973, 2.8973),
    (-1.7628, 1.7628),
    (-2.8973, 2.8973),
    (-3.0718, -0.0698),
    (-2.8973, 2.8973),
    (-0.0175, 3.7525),
    (-2.8973, 2.8973),
]
#: arm7: base frequency 0.2 Hz (one period over the 5 s file), harmonics 1, 2, 3, 5.
ARM7_FREQUENCIES = [0.2, 0.4, 0.6, 1.0]
#: relative amplitudes (summing to 1) and phases per joint; scaled to 60 % of the half range.
ARM7_SHAPES = [
    ([0.55, 0.25, 0.12, 0.08], [0.0, 0.5, 1.0, 1.5]),
    ([0.50, 0.30, 0.10, 0.10], [0.9, -0.4, 2.1, 0.3]),
    ([0.60, 0.20, 0.15, 0.05], [1.7, 2.2, -1.0, 0.6]),
    ([0.45, 0.35, 0.10, 0.10], [-0.6, 1.4, 0.2, -2.0]),
    ([0.50, 0.20, 0.20, 0.10], [2.5, -1.1, 0.8, 1.2]),
    ([0.55, 0.30, 0.10, 0.05], [-1.9, 0.1, -0.7, 2.4]),
    ([0.40, 0.30, 0.20, 0.10], [0.4, 2.9, -2.3, -0.2]),
]
ARM7_FILL = 0.6
#: arm7 velocity limits (rad/s), copied from arm7.urdf; the motion uses at most 80 % of them.
ARM7_VELOCITY_LIMITS = [2.1750, 2.1750, 2.1750, 2.1750, 2.6100, 2.6100, 2.6100]
ARM7_SPEED_FILL = 0.8


def _arm7_spec():
    joints = {}
    for j, ((lo, hi), vmax, (shape, phases)) in enumerate(
            zip(ARM7_LIMITS, ARM7_VELOCITY_LIMITS, ARM7_SHAPES), start=1):
        centre = 0.5 * (lo + hi)
        half = 0.5 * (hi - lo)
        amps = [ARM7_FILL * half * s for s in shape]
        speed_bound = sum(abs(a) * 2.0 * math.pi * f for a, f in zip(amps, ARM7_FREQUENCIES))
        scale = min(1.0, ARM7_SPEED_FILL * vmax / speed_bound)
        joints[f"arm7_joint{j}"] = (centre, [a * scale for a in amps], phases)
    return {"duration": 5.0, "frequencies": ARM7_FREQUENCIES, "joints": joints}


ARM7 = _arm7_spec()


def evaluate(spec, t):
    """Exact positions, velocities and accelerations of ``spec`` at times ``t``.

    Returns three arrays of shape ``(len(t), n_joints)`` with the joints in ``spec["joints"]`` order.
    """
    t = np.asarray(t, dtype=float)
    n = len(spec["joints"])
    q = np.zeros((t.size, n))
    qd = np.zeros_like(q)
    qdd = np.zeros_like(q)
    for j, (centre, amps, phases) in enumerate(spec["joints"].values()):
        q[:, j] = centre
        for f, a, phi in zip(spec["frequencies"], amps, phases):
            w = 2.0 * math.pi * f
            s = np.sin(w * t + phi)
            q[:, j] += a * s
            qd[:, j] += a * w * np.cos(w * t + phi)
            qdd[:, j] -= a * w * w * s
    return q, qd, qdd


def sample_times(duration, rate=RATE_HZ):
    """``0, 1/rate, ..., duration`` (inclusive)."""
    n = int(round(duration * rate))
    return np.arange(n + 1) / rate


def write_csv(path, spec, rate=RATE_HZ):
    """Write ``time`` and one position column per joint of ``spec`` to ``path``."""
    t = sample_times(spec["duration"], rate)
    q, _, _ = evaluate(spec, t)
    names = list(spec["joints"])
    with open(path, "w", encoding="ascii", newline="\n") as fh:
        fh.write(",".join(["time"] + names) + "\n")
        for ti, row in zip(t, q):
            fh.write(",".join(f"{x:.8g}" for x in (ti, *row)) + "\n")
    return t, q


def main(argv=None):
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outdir", type=pathlib.Path, default=here.parent / "urdf2dyn" / "data",
                        help="output directory (default: urdf2dyn/data)")
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)

    write_csv(args.outdir / "robot2r_trajectory.csv", ROBOT2R)
    t, q = write_csv(args.outdir / "arm7_trajectory.csv", ARM7)
    _, qd, _ = evaluate(ARM7, t)
    for j, ((lo, hi), vmax) in enumerate(zip(ARM7_LIMITS, ARM7_VELOCITY_LIMITS)):
        assert lo < q[:, j].min() and q[:, j].max() < hi, f"arm7_joint{j + 1} leaves its limits"
        assert np.abs(qd[:, j]).max() < vmax, f"arm7_joint{j + 1} exceeds its velocity limit"
    for name in ("robot2r_trajectory.csv", "arm7_trajectory.csv"):
        path = args.outdir / name
        print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
