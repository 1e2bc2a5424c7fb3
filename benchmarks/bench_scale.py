"""Scaling a model to a subject: urdf2dyn vs OpenSim 4.6's ScaleTool on the same published
setups, run unchanged.

    python benchmarks/bench_scale.py [--reps 3] [--process] [--cpu] [-v]

For each published case (Hamner 2010, Rajagopal 2016, gait2354, a real lab: test_scale.py)
both tools run the whole setup in this process: OpenSim's ``ScaleTool(setup).run()`` (model
and marker set loaded, measurements, scaling, marker placement, its files written) and
``urdf2dyn.biomech.scale.run_setup`` (the same, the .trc read and the generic model loaded
included); best of --reps after a warm-up. With --process each also runs as a fresh
process, as a user runs it from a shell (``urdf2dyn scale SETUP --model GENERIC``, and
``python -c "import opensim; opensim.ScaleTool(SETUP).run()"``, the interpreter and library
imports included), best of --reps. --cpu: CPU seconds (user + system, the processes' from
their rusage) instead of elapsed ones, for a shared machine. -v also prints how far each
tool's placed markers are from OpenSim's placement with its inverse kinematics converged
(tests/scale_oracle.py).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

import scale_oracle  # noqa: E402
from bench_rnea import best_of, log, rst_table  # noqa: E402
DATA = HERE.parent / "tests" / "data"
CASES = scale_oracle.CASES


def opensim_run(folder, setup, generic):
    import opensim as osim
    here = os.getcwd()
    os.chdir(folder)
    try:
        tool = osim.ScaleTool(setup)
        tool.getGenericModelMaker().setModelFileName(generic)
        tool.getModelScaler().setOutputModelFileName("opensim_scaled.osim")
        tool.getMarkerPlacer().setOutputModelFileName("opensim_placed.osim")
        tool.run()
    finally:
        os.chdir(here)


def ours_run(folder, setup, generic):
    from urdf2dyn.biomech.formats.scale_setup import read_scale_setup
    from urdf2dyn.biomech.scale import run_setup
    s = read_scale_setup(os.path.join(folder, setup))
    s.model_file = generic
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run_setup(s, output=os.path.join(folder, "ours.osim"))


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def process_seconds(argv, cwd, reps, cpu=False):
    """Best of reps fresh processes (after one): elapsed seconds, or with cpu the process'
    CPU seconds (user + system), which a shared machine does not inflate."""
    clock = _children_cpu if cpu else time.perf_counter
    # as a user's installed package runs: from compiled bytecode (pip writes it; the first run
    # writes it here), whatever this shell says of PYTHONDONTWRITEBYTECODE
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times = []
    for _ in range(reps + 1):
        t0 = clock()
        subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True, env=env)
        times.append(clock() - t0)
    return min(times[1:])


def bench(name, reps, process, verbose, tmp, cpu=False):
    folder_rel, setup_rel, generic_rel = CASES[name]
    root = Path(tmp) / name
    shutil.copytree(DATA / folder_rel, root)
    setup = root / setup_rel
    folder, generic = setup.parent, os.fspath((DATA / generic_rel).resolve())
    clock = time.process_time if cpu else time.perf_counter
    t_os = best_of(lambda: opensim_run(folder, setup.name, generic), reps, clock)
    t_ours = best_of(lambda: ours_run(folder, setup.name, generic), reps, clock)
    row = [name, f"{t_os:.3f}", f"{t_ours:.3f}", f"{t_os / t_ours:.1f}x"]
    if process:
        py = sys.executable
        cmd_os = [py, "-c", "import opensim as o; o.Logger.setLevelString('error'); "
                  f"t = o.ScaleTool({setup.name!r}); "
                  f"t.getGenericModelMaker().setModelFileName({generic!r}); t.run()"]
        cmd_ours = [py, "-m", "urdf2dyn", "scale", setup.name, "--model", generic, "-o",
                    "ours_cli.osim"]
        p_os = process_seconds(cmd_os, folder, reps, cpu)
        p_ours = process_seconds(cmd_ours, folder, reps, cpu)
        row += [f"{p_os:.2f}", f"{p_ours:.2f}", f"{p_os / p_ours:.1f}x"]
    if verbose:
        from urdf2dyn.biomech.formats.osim import document
        import opensim as osim
        conv, _ = scale_oracle.converged_placement(os.fspath(folder), setup.name,
                                                   os.fspath(folder / "opensim_scaled.osim"))
        res = ours_run(folder, setup.name, generic)
        ours = {m.name: m.location for m in document(res.model).markers}
        placed = osim.Model(os.fspath(folder / "opensim_placed.osim"))
        theirs = {placed.getMarkerSet().get(k).getName():
                  placed.getMarkerSet().get(k).get_location().to_numpy()
                  for k in range(placed.getMarkerSet().getSize())}
        d_ours = max(np.linalg.norm(ours[n] - conv[n]) for n in conv)
        d_os = max(np.linalg.norm(theirs[n] - conv[n]) for n in conv)
        row += [f"{1e3 * d_os:.2f}", f"{1e3 * d_ours:.4f}"]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--process", action="store_true", help="also time fresh processes")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also the placed markers' distances to OpenSim's converged placement")
    ap.add_argument("--cpu", action="store_true",
                    help="CPU seconds (user + system) instead of elapsed ones")
    ap.add_argument("--cases", default=",".join(CASES))
    args = ap.parse_args()
    import opensim as osim
    osim.Logger.setLevelString("error")
    head = ["setup", "OpenSim s", "urdf2dyn s", "ratio"]
    if args.process:
        head += ["OpenSim process s", "urdf2dyn process s", "ratio (process)"]
    if args.verbose:
        head += ["OpenSim placer: max mm from converged", "urdf2dyn: max mm"]
    rows = []
    tmp_dir = tempfile.gettempdir()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.cases.split(","):
            log(f"{name} ...")
            rows.append(bench(name, args.reps, args.process, args.verbose, tmp, args.cpu))
    print(rst_table(head, rows))
    if args.process:        # what any Python command pays before it does anything
        py, unit = sys.executable, "CPU s" if args.cpu else "s"
        floor = {what: process_seconds([py, "-c", code], tmp_dir, args.reps, args.cpu)
                 for what, code in (("the interpreter", "pass"), ("NumPy", "import numpy"),
                                    ("urdf2dyn", "import urdf2dyn"),
                                    ("OpenSim", "import opensim"))}
        print("a process importing only: " + ", ".join(f"{what} {t:.3f} {unit}"
                                                       for what, t in floor.items()))


if __name__ == "__main__":
    main()
