"""Inverse kinematics per frame: urdf2dyn's core vs OpenSim 4.6's IK tool, same files.

    python benchmarks/bench_ik.py [--frames 100] [--reps 3]

For each model (the arm7 URDF and the bundled 36-DoF human), tests/ik_oracle.py writes with
OpenSim's API an .osim (the URDF exported, three markers per moving link added), a .trc
made by OpenSim's forward kinematics plus 2 mm noise, and a Setup_IK.xml (accuracy 1e-5,
OpenSim's default). OpenSim's InverseKinematicsTool runs the setup (file reading and writing
included, as its users run it); urdf2dyn runs the same setup through
urdf2dyn.biomech.ik.run_setup on one thread (reading the .trc, solving, writing the .mot and
the marker errors) and, separately, the solver alone (model.inverse_kinematics). Times are
per frame, best of --reps; the ratio is OpenSim / urdf2dyn. The last column is the largest
coordinate difference between the two results (OpenSim stops at its accuracy, urdf2dyn at
1e-10 rad: see docs/ik.rst).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import ik_oracle  # noqa: E402

from urdf2dyn.biomech import ik  # noqa: E402
from urdf2dyn.biomech.formats import read_opensim  # noqa: E402
from urdf2dyn.bundled import data_path  # noqa: E402


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def bench(name, urdf, frames, reps, folder):
    case = ik_oracle.build_case(os.path.join(folder, name), urdf, nframe=frames,
                                accuracy=1e-5, gaps=False)
    model = ik_oracle.urdf_model(case)
    t_os = min(ik_oracle.run_opensim(case.setup) for _ in range(reps)) / frames
    out = os.path.join(case.folder, "urdf2dyn_ik.mot")
    t_setup, t_solve = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        res = ik.run_setup(case.setup, output=out, model=model,
                           read_marker_file=ik_oracle.read_trc)
        t_setup.append((time.perf_counter() - t0) / frames)
    data = ik_oracle.read_trc(os.path.join(case.folder, "markers.trc"))
    cols = [data.labels.index(m.name) for m in model.markers]
    for _ in range(reps):
        t0 = time.perf_counter()
        model.inverse_kinematics(data.xyz[:, cols], weights=case.weights,
                                 q0=model.default_q, threads=1)
        t_solve.append((time.perf_counter() - t0) / frames)
    theirs = read_opensim(os.path.join(case.folder, "opensim_ik.mot"), model=model)
    q_theirs = theirs.q[:, [theirs.names.index(n) for n in model.q_names]]
    dmax = np.degrees(np.abs(res.motion.q - q_theirs)).max()
    return [name, str(model.nv), str(len(model.markers)), str(frames),
            f"{t_os * 1e3:.1f}", f"{min(t_setup) * 1e6:.0f}", f"{min(t_solve) * 1e6:.0f}",
            f"{t_os / min(t_setup):.0f}x", f"{t_os / min(t_solve):.0f}x", f"{dmax:.3f}"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    head = ["model", "DoF", "markers", "frames", "OpenSim ms/frame", "run_setup us/frame",
            "solver us/frame", "ratio (setup)", "ratio (solver)", "max |dq| deg"]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, urdf in (("arm7", data_path("arm7.urdf")),
                           ("human", data_path("humod_subject_a.urdf"))):
            log(f"{name} ...")
            rows.append(bench(name, urdf, args.frames, args.reps, folder))
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(head)]
    line = "  ".join("=" * w for w in widths)
    print(line)
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    print(line)
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    print(line)


if __name__ == "__main__":
    main()
