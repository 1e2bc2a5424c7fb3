"""OpenSim's RRA and ``urdf2dyn rra`` on the same published setups, side by side.

    python benchmarks/bench_rra.py [--opensim-models DIR] [--cases gait2354,hamner] [--check]

The setups are opensim-models' pipelines that ship an RRA setup, run as written except for
the inputs the pipelines make in earlier steps and ship in their output folders:

* gait2354 and Gait10dof18musc: as vendored in tests/data/opensim_models (the default), or
  from an opensim-models checkout (``--opensim-models``: Gait10dof18musc's model and IK from
  its OutputReference, as its setup expects them beside it);
* gait2392 (checkout): the scaled model ``subject01_simbody.osim`` from OutputReference;
* Hamner's running (checkout): its setup names ``subject01_registered.osim``, which the
  pipeline ships as ``outputReference/subject02_registered.osim``; the IK result from
  ``outputReference/ResultsIK``;
* Rajagopal's walk and run (checkout): the first RRA of each (``rra_setup_walk_1.xml``,
  ``rra_setup_run_1.xml``; the later ones start from the first's model with OpenSim's
  recommended mass change applied by a MATLAB script). Their scaled models and IK results are
  not shipped: they are made here first, as the pipeline's ``scripts/makeSimulation.m`` makes
  them, by OpenSim's ScaleTool and InverseKinematicsTool on the pipeline's setups, from
  ``generic_unscaled.osim`` = ``Models/Rajagopal/Rajagopal2016.osim`` (its README: "By
  default, this model is a copy of 'Rajagopal2016.osim'"); not timed.

Each case is copied to a temporary folder and run there by both tools, each in its own
process: OpenSim's ``RRATool(setup).run()`` and ``urdf2dyn.biomech.rra.run_rra(setup)`` (the
time of that call, files written; the interpreter and imports not counted, for either). Both
results are measured the same way from the files each tool writes: the residual actuators'
forces and moments (the largest component's RMS and peak; OpenSim's good bands are RMS <= 5 N,
peak <= 10 N, RMS <= 30 N m, peak <= 50 N m), the largest change of a rotational (deg) and of
a translational (cm) coordinate from the desired kinematics file's own samples in the time
range (RMS; band 2 deg, 2 cm; a coupler's dependent coordinate follows its independent one
and is not counted), the mass change applied (OpenSim only recommends one: its
recommendation is in parentheses), the shift of the adjusted body's mass centre and the wall
and CPU time. ``--check`` also runs OpenSim's InverseDynamicsTool on urdf2dyn's outputs (its adjusted
kinematics and model) and prints the largest RMS difference from the residuals urdf2dyn
reports.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "data", "opensim_models")

#: case: (setup inside the prepared folder, how to prepare it from a checkout, from the
#: vendored data or None)
CASES = {
    "gait2354": ("subject01_Setup_RRA.xml", "Pipelines/Gait2354_Simbody", "Gait2354_Simbody",
                 {"subject01_simbody.osim": "Models/Gait2354_Simbody/subject01_simbody.osim"}),
    "gait2392": ("subject01_Setup_RRA.xml", "Pipelines/Gait2392_Simbody", None,
                 {"subject01_simbody.osim": "Pipelines/Gait2392_Simbody/OutputReference/"
                                            "subject01_simbody.osim"}),
    "gait10dof18musc": ("RRA/walk_Setup_RRA.xml", "Pipelines/Gait10dof18musc", "Gait10dof18musc",
                        {"subject01.osim": "Pipelines/Gait10dof18musc/OutputReference/"
                                           "subject01.osim",
                         "IK/subject01_walk_IK.mot": "Pipelines/Gait10dof18musc/OutputReference/"
                                                     "IK/subject01_walk_IK.mot"}),
    "hamner": ("Setup_RRA.xml", "Pipelines/Hamner", None,
               {"subject01_registered.osim": "Pipelines/Hamner/outputReference/"
                                             "subject02_registered.osim",
                "ResultsIK/subject02_running_ik.mot": "Pipelines/Hamner/outputReference/"
                                                      "ResultsIK/subject02_running_ik.mot"}),
    "rajagopal_walk": ("RRA/walk/rra_setup_walk_1.xml", "Pipelines/Rajagopal", None,
                       {"generic_unscaled.osim": "Models/Rajagopal/Rajagopal2016.osim"}),
    "rajagopal_run": ("RRA/run/rra_setup_run_1.xml", "Pipelines/Rajagopal", None,
                      {"generic_unscaled.osim": "Models/Rajagopal/Rajagopal2016.osim"}),
}

#: case: the pipeline's earlier steps that make its RRA's inputs, (folder, OpenSim tool,
#: setup) in order, as its scripts run them
EARLIER_STEPS = {
    "rajagopal_walk": [("Scale", "ScaleTool", "scale_setup_walk_scaleOnly.xml"),
                       ("Scale", "ScaleTool", "scale_setup_walk.xml"),
                       ("IK", "InverseKinematicsTool", "ik_setup_walk.xml")],
    "rajagopal_run": [("Scale", "ScaleTool", "scale_setup_run.xml"),
                      ("IK", "InverseKinematicsTool", "ik_setup_run.xml")],
}

_EARLIER = r'''
import os, sys
import opensim as osim
osim.Logger.setLevelString("error")
folder, tool, setup = sys.argv[1:]
os.chdir(folder)
if not getattr(osim, tool)(setup).run():
    sys.exit(f"{tool} {setup} failed")
print("{}")
'''

_OPENSIM = r'''
import json, os, resource, sys, time
import opensim as osim
osim.Logger.setLevelString("info")
osim.Logger.removeFileSink()
setup, log = sys.argv[1:]
osim.Logger.addFileSink(log)
os.chdir(os.path.dirname(setup))
c0, t0 = time.process_time(), time.perf_counter()
tool = osim.RRATool(setup)
ok = tool.run()
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"ok": bool(ok), "wall": wall, "cpu": cpu}))
'''

_OURS = r'''
import json, os, sys, time, warnings
import numpy as np
warnings.simplefilter("ignore")
from urdf2dyn.biomech.rra import run_rra
setup, = sys.argv[1:]
c0, t0 = time.process_time(), time.perf_counter()
r = run_rra(setup, results_directory=os.path.join(os.path.dirname(setup), "urdf2dyn"),
            output_model_file=os.path.join(os.path.dirname(setup), "urdf2dyn", "adjusted.osim"))
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
red = r.reduction
print(json.dumps({"ok": True, "wall": wall, "cpu": cpu, "mass": red.mass_change,
                  "recommended": red.recommended_mass_change,
                  "com": float(np.linalg.norm(red.com_shift)) if red.com_body else None,
                  "mass_scale": red.mass_scale, "com_shift": list(red.com_shift),
                  "com_body": red.com_body, "iterations": red.iterations,
                  "files": r.files}))
'''


def prepare(case, checkout, folder):
    """Copy a case's pipeline into folder (plus the files it needs from the pipeline's
    output folders); returns the setup's path."""
    setup, pipeline, vendored, extra = CASES[case]
    if checkout:
        src = os.path.join(checkout, pipeline)
        for root, dirs, files in os.walk(src):
            dirs[:] = [d for d in dirs if d.lower() != "outputreference"]
            rel = os.path.relpath(root, src)
            os.makedirs(os.path.join(folder, rel), exist_ok=True)
            for f in files:
                shutil.copy2(os.path.join(root, f), os.path.join(folder, rel, f))
        for dst, path in extra.items():
            os.makedirs(os.path.dirname(os.path.join(folder, dst)), exist_ok=True)
            shutil.copy2(os.path.join(checkout, path), os.path.join(folder, dst))
    else:
        shutil.copytree(os.path.join(DATA, vendored), folder, dirs_exist_ok=True)
    for sub, tool, step in EARLIER_STEPS.get(case, ()):
        print(f"{case}: OpenSim's {tool} {step} (its RRA's input) ...", file=sys.stderr,
              flush=True)
        if tool == "InverseKinematicsTool":          # its folder for results must exist
            os.makedirs(os.path.join(folder, sub, "results_" + step.split("_")[-1][:-4]),
                        exist_ok=True)
        run([sys.executable, "-c", _EARLIER, os.path.join(folder, sub), tool, step])
    return os.path.join(folder, setup)


def residual_stats(path, names, kinds):
    """(force RMS, force peak, moment RMS, moment peak): the largest component's, of the
    residual actuators names in an Actuation_force file (OpenSim's repeats its last time)."""
    from urdf2dyn.biomech.formats.opensim import read_sto_table
    labels, data, _, _ = read_sto_table(path)
    out = {"force": [0.0, 0.0], "moment": [0.0, 0.0]}
    for name in names:
        x = data[:, labels.index(name)]
        k = kinds[name]
        out[k][0] = max(out[k][0], float(np.sqrt(np.mean(x ** 2))))
        out[k][1] = max(out[k][1], float(np.abs(x).max()))
    return out["force"] + out["moment"]


def kinematic_change(path, setup, model):
    """The largest RMS change (deg, cm) of a rotational and of a translational coordinate of
    a Kinematics_q file from the desired kinematics' own samples in the time range, and
    the coordinates (read as tables: OpenSim's RRA repeats its last time to 1e-14 s)."""
    from urdf2dyn.biomech.formats.opensim import read_opensim, read_sto_table
    from urdf2dyn.biomech.trajectory import angle_columns
    labels, data, info, _ = read_sto_table(path)
    rot = angle_columns(model.q_names, model)
    t = data[:, 0]
    q = data[:, [labels.index(n) for n in model.q_names]]
    if info.get("indegrees", "no").lower() == "yes":
        q[:, rot] = np.radians(q[:, rot])
    keep = np.r_[np.diff(t) > 1e-9, True]
    t, q = t[keep], q[keep]
    t_raw, q_raw, _, _ = read_opensim(setup.desired_kinematics_file,
                                      model=model).for_model(model)
    inside = (t_raw >= t[0] - 1e-9) & (t_raw <= t[-1] + 1e-9)
    dq = np.column_stack([np.interp(t_raw[inside], t, q[:, j]) for j in range(model.nq)])
    rms = np.sqrt(np.mean((dq - q_raw[inside]) ** 2, axis=0))
    coupled = np.isin(model.q_names, [c.dependent for c in model.couplers])   # follow others
    r, tr = np.where(rot, rms, 0), np.where(rot | coupled, 0, rms)
    return (math.degrees(r.max()), model.q_names[int(r.argmax())], 100 * tr.max(),
            model.q_names[int(tr.argmax())])


def opensim_model_changes(setup, log):
    """OpenSim's recommended mass change (from its log) and its mass-centre shift (m)."""
    import opensim as osim
    dmass = None
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if "Total mass change:" in line:            # OpenSim 4's RRA log
                try:
                    dmass = float(line.split(":")[-1])
                except ValueError:
                    pass
    shift = None
    if setup.adjust_com and os.path.exists(setup.output_model_file):
        models = [osim.Model(p) for p in (setup.model_file, setup.output_model_file)]
        before, after = (m.getBodySet().get(setup.adjusted_com_body).getMassCenter().to_numpy()
                         for m in models)
        shift = float(np.linalg.norm(after - before))
    return dmass, shift


def check_with_opensim_id(setup, result, model, actuators, residual, folder):
    """Largest RMS difference (N or N m) between the residuals urdf2dyn reports and those
    OpenSim's InverseDynamicsTool finds on urdf2dyn's outputs: its kinematics and its adjusted
    model (the setup's model where the setup changes none)."""
    import opensim as osim
    from urdf2dyn.biomech.formats.opensim import read_sto_table
    from urdf2dyn.biomech.formats.torques import read_torques
    from urdf2dyn.biomech.actuators import actuator_forces
    adjusted = result["files"].get("model", setup.model_file)
    labels, data, _, _ = read_sto_table(result["files"]["Actuation_force.sto"])
    t = data[:, 0]
    tool = osim.InverseDynamicsTool()
    tool.setModelFileName(adjusted)
    tool.setCoordinatesFileName(result["files"]["Kinematics_q.sto"])
    if setup.external_loads_file:
        tool.setExternalLoadsFileName(setup.external_loads_file)
    tool.setLowpassCutoffFrequency(-1)
    tool.setStartTime(t[0])
    tool.setEndTime(t[-1])
    tool.setResultsDir(folder)
    tool.setOutputGenForceFileName("check_id.sto")
    excluded = osim.ArrayStr()
    excluded.append("All")
    tool.setExcludedForces(excluded)
    cwd, stdout = os.getcwd(), os.dup(1)
    os.chdir(os.path.dirname(setup.path))
    try:                                         # the tool prints the model's description
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            tool.run()
    finally:
        os.dup2(stdout, 1)
        os.close(stdout)
        os.chdir(cwd)
    t_id, tau, _ = read_torques(os.path.join(folder, "check_id.sto"), model=model)
    from urdf2dyn.biomech.formats.opensim import read_opensim
    q = read_opensim(result["files"]["Kinematics_q.sto"], model=model).for_model(model)[1]
    rows = np.abs(t[:, None] - t_id[None, :]).argmin(axis=0)   # its times (it may drop one)
    if np.abs(t[rows] - t_id).max() > 1e-6:
        raise RuntimeError("OpenSim's InverseDynamicsTool wrote times urdf2dyn did not")
    theirs = actuator_forces(model, actuators, q[rows], tau)[:, residual]
    ours = data[rows][:, [labels.index(actuators[k].name) for k in residual]]
    return float(np.sqrt(np.mean((theirs - ours) ** 2, axis=0)).max())


def run(cmd, timeout=3600):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONWARNINGS="ignore"))
    if done.returncode:
        raise RuntimeError(f"{cmd[:3]} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opensim-models", metavar="DIR",
                    help="an opensim-models checkout (default: the vendored gait2354 and "
                         "Gait10dof18musc only)")
    ap.add_argument("--cases", help=f"comma-separated, of {', '.join(CASES)}")
    ap.add_argument("--check", action="store_true",
                    help="also run OpenSim's InverseDynamicsTool on urdf2dyn's outputs")
    ap.add_argument("--reps", type=int, default=1, help="runs of urdf2dyn (best of)")
    args = ap.parse_args()
    import warnings
    warnings.simplefilter("ignore")
    import opensim as osim
    osim.Logger.setLevelString("error")
    import urdf2dyn
    from urdf2dyn.biomech.formats.rra_setup import read_actuators, read_rra_setup
    from urdf2dyn.biomech.actuators import actuator_matrix, root_dofs
    cases = args.cases.split(",") if args.cases else [
        c for c in CASES if args.opensim_models or CASES[c][2]]
    rows = []
    for case in cases:
        if case not in CASES:
            sys.exit(f"unknown case {case!r}: one of {', '.join(CASES)}")
        if not args.opensim_models and not CASES[case][2]:
            sys.exit(f"{case}: needs --opensim-models DIR (its inputs are not vendored)")
        with tempfile.TemporaryDirectory() as d:
            inputs = prepare(case, args.opensim_models, os.path.join(d, "inputs"))
            setups = {}
            for tool in ("opensim", "urdf2dyn"):
                shutil.copytree(os.path.join(d, "inputs"), os.path.join(d, tool))
                setups[tool] = os.path.join(d, tool, os.path.relpath(inputs,
                                                                     os.path.join(d, "inputs")))
            su = {tool: read_rra_setup(s) for tool, s in setups.items()}
            model = urdf2dyn.load(su["urdf2dyn"].model_file)
            actuators = [a for f in su["urdf2dyn"].force_set_files for a in read_actuators(f)]
            B = actuator_matrix(model, actuators, np.zeros((1, model.nq)))
            root = root_dofs(model)
            residual = [k for k in range(len(actuators)) if np.any(B[0, root, k] != 0)]
            names = [actuators[k].name for k in residual]
            rot = {n for n in model.v_names if not n.endswith(("_tx", "_ty", "_tz"))}
            kinds = {a.name: ("force" if a.kind == "point" or (
                a.kind == "coordinate" and a.coordinate not in rot) else "moment")
                for a in actuators}
            print(f"{case}: OpenSim's RRA ...", file=sys.stderr, flush=True)
            log = os.path.join(d, "opensim.log")
            theirs = run([sys.executable, "-c", _OPENSIM, setups["opensim"], log])
            theirs["stats"] = residual_stats(su["opensim"].output("Actuation_force.sto"),
                                             names, kinds)
            theirs["dq"] = kinematic_change(su["opensim"].output("Kinematics_q.sto"),
                                            su["opensim"], model)
            theirs["recommended"], theirs["com"] = opensim_model_changes(su["opensim"], log)
            print(f"{case}: urdf2dyn rra ...", file=sys.stderr, flush=True)
            ours = min((run([sys.executable, "-c", _OURS, setups["urdf2dyn"]])
                        for _ in range(args.reps)), key=lambda r: r["wall"])
            ours["stats"] = residual_stats(ours["files"]["Actuation_force.sto"], names, kinds)
            ours["dq"] = kinematic_change(ours["files"]["Kinematics_q.sto"], su["urdf2dyn"],
                                          model)
            check = (check_with_opensim_id(su["urdf2dyn"], ours, model, actuators, residual, d)
                     if args.check else None)
            rows.append((case, theirs, ours, check))
            print(f"{case}: {json.dumps({'opensim': theirs, 'urdf2dyn': ours, 'check': check})}",
                  file=sys.stderr, flush=True)      # each case's figures as it ends
    print()
    head = (f"{'case':16s} {'tool':9s} {'wall s':>7s} {'cpu s':>7s} {'F rms':>6s} "
            f"{'F peak':>6s} {'M rms':>6s} {'M peak':>6s} {'dq deg':>7s} {'dq cm':>6s} "
            f"{'mass kg':>15s} {'COM cm':>6s}")
    print(head)
    print("-" * len(head))
    for case, theirs, ours, check in rows:
        for tool, r in (("OpenSim", theirs), ("urdf2dyn", ours)):
            f_rms, f_pk, m_rms, m_pk = r["stats"]
            deg, _, cm, _ = r["dq"]
            if tool == "OpenSim":
                rec = r["recommended"]
                mass = f"0 ({rec:+.3f})" if rec is not None else "0"
            else:
                mass = f"{r['mass']:+.3f} ({r['recommended']:+.3f})"
            com = "-" if r["com"] is None else f"{100 * r['com']:.2f}"
            print(f"{case if tool == 'OpenSim' else '':16s} {tool:9s} {r['wall']:7.2f} "
                  f"{r['cpu']:7.2f} {f_rms:6.2f} {f_pk:6.2f} {m_rms:6.2f} {m_pk:6.2f} "
                  f"{deg:7.2f} {cm:6.2f} {mass:>15s} {com:>6s}")
        print(f"{'':16s} {'ratio':9s} {theirs['wall'] / ours['wall']:7.1f} "
              f"{theirs['cpu'] / ours['cpu']:7.1f}"
              + (f"   OpenSim ID on urdf2dyn's outputs: residuals within {check:.3f} "
                 "RMS" if check is not None else ""))
    print("\nF, M: the largest residual component's RMS and peak (N, N m); good: F RMS <= 5, "
          "peak <= 10; M RMS <= 30, peak <= 50.\ndq: the largest RMS change of a rotational "
          "(deg) and a translational (cm) coordinate from the desired kinematics (good <= 2).\n"
          "mass: applied (recommended by OpenSim's rule); COM: the adjusted body's mass-centre "
          "shift.")


if __name__ == "__main__":
    main()
