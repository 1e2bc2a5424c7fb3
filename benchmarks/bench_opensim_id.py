"""OpenSim's InverseDynamicsTool and ``urdf2dyn torques --setup`` on the same setup files.

    python benchmarks/bench_opensim_id.py [--trials 6] [--seconds 1.5] [--cutoff 6] [--reps 3]

Builds, in a temporary folder, ``--trials`` trials cut from the bundled running trial (HuMoD
subject A at 3 m/s, 200 Hz, 36 DoF) with the files OpenSim itself writes: the model exported
to .osim, coordinates .mot (degrees), force-plate .mot, an ExternalLoads XML and one
InverseDynamicsTool setup per trial (low-pass cutoff ``--cutoff`` Hz). Then, best of
``--reps``:

* per trial, from a fresh process (what a user waits for: interpreter, imports, model,
  files, solve, output): ``python -c "opensim.InverseDynamicsTool(setup).run()"`` against
  ``python -m urdf2dyn torques --setup setup MODEL -o out``;
* per trial, in one warm process: ``InverseDynamicsTool(setup).run()`` against
  ``urdf2dyn.inverse_dynamics_setup`` + write_torques, and urdf2dyn's time split into reading
  the files, OpenSim's processing (filter and splines), the loads, the dynamics;
* the folder: all trials in one process each way (OpenSim: a loop over the setups;
  urdf2dyn: ``run_trials`` on the coordinate files with ``processing="opensim"``, in this
  process and in local worker processes).

Until ``urdf2dyn.load("*.osim")`` exists, urdf2dyn reads the URDF the .osim was exported from
(the numbers are the same: tests/biomech/test_opensim_id.py). Prints one table with ratios.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from opensim_tables import write_sto  # noqa: E402  (OpenSim writes the .mot files)


def build(d, trials, seconds, cutoff):
    """OpenSim-written files for the trials in folder d; returns [(setup, coords, loads)]."""
    import opensim as osim
    import urdf2dyn
    from urdf2dyn.biomech import formats, grf as G
    from urdf2dyn.biomech.opensim_model import to_opensim
    from urdf2dyn.bundled import data_path
    osim.Logger.setLevelString("error")
    human = urdf2dyn.humod_subject("A")
    to_opensim(human).printToXML(os.path.join(d, "model.osim"))
    t, q, _, _ = formats.read_csv(data_path("running_a_3ms.csv"), model=human).for_model(human)
    rot = np.array([j.type == "revolute" for j in human.joints])

    r = G.read_grf(data_path("running_a_3ms_grf.csv"))
    cols = {}
    for key in ("L", "R"):
        pre = key.lower() + "_"
        for kind, x in (("ground_force_v", r.grf[key]), ("ground_force_p", r.cop[key]),
                        ("ground_torque_", r.moment[key])):
            x = np.nan_to_num(x)
            cols.update({f"{pre}{kind}{a}": x[:, k] for k, a in enumerate("xyz")})
    write_sto(osim, os.path.join(d, "grf.mot"), r.time, np.column_stack(list(cols.values())),
              list(cols), False)
    loads = osim.ExternalLoads()
    for key, body in (("L", "foot_L"), ("R", "foot_R")):
        pre = key.lower() + "_"
        ef = osim.ExternalForce()
        ef.setName(key)
        ef.setAppliedToBodyName(body)
        ef.setForceIdentifier(pre + "ground_force_v")
        ef.setPointIdentifier(pre + "ground_force_p")
        ef.setTorqueIdentifier(pre + "ground_torque_")
        loads.cloneAndAppend(ef)
    loads.setDataFileName("grf.mot")
    loads.printToXML(os.path.join(d, "loads.xml"))
    n = int(round(seconds * 200))
    span = len(t) - n - 1
    out = []
    for k in range(trials):
        a = int(k * span / max(trials - 1, 1))
        qd = q[a:a + n + 1].copy()
        qd[:, rot] = np.degrees(qd[:, rot])
        coords = os.path.join(d, f"trial{k}.mot")
        write_sto(osim, coords, t[a:a + n + 1], qd, list(human.q_names), True)
        tool = osim.InverseDynamicsTool()
        tool.setName(f"trial{k}")
        tool.setModelFileName("model.osim")
        tool.setCoordinatesFileName(os.path.basename(coords))
        tool.setExternalLoadsFileName("loads.xml")
        tool.setLowpassCutoffFrequency(cutoff)
        tool.setStartTime(float(t[a]))
        tool.setEndTime(float(t[a + n]))
        tool.setResultsDir("results")
        tool.setOutputGenForceFileName(f"trial{k}_opensim.sto")
        setup = os.path.join(d, f"setup{k}.xml")
        tool.printToXML(setup)
        out.append((setup, coords, os.path.join(d, "loads.xml")))
    return out


def best(fn, reps):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--cutoff", type=float, default=6.0)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    import opensim as osim
    import urdf2dyn
    from urdf2dyn.biomech import formats
    from urdf2dyn.biomech.formats import read_external_loads, read_id_setup
    from urdf2dyn.biomech.opensim_processing import id_kinematics, id_rows
    from urdf2dyn.bundled import data_path
    osim.Logger.setLevelString("error")
    urdf = data_path("humod_subject_a.urdf")
    with tempfile.TemporaryDirectory() as d:
        jobs = build(d, args.trials, args.seconds, args.cutoff)
        os.chdir(d)                  # OpenSim reads model_file relative to the current folder
        setup = jobs[0][0]
        env = dict(os.environ, PYTHONWARNINGS="ignore")
        cold_osim = best(lambda: subprocess.run(
            [sys.executable, "-c", "import opensim as o; o.Logger.setLevelString('error'); "
             f"assert o.InverseDynamicsTool({setup!r}).run()"], check=True, env=env,
            capture_output=True), args.reps)
        cold_ours = best(lambda: subprocess.run(
            [sys.executable, "-m", "urdf2dyn", "torques", "--setup", setup, urdf, "-o",
             os.path.join(d, "ours.sto")], check=True, env=env, capture_output=True), args.reps)
        # warm, one process
        warm_osim = best(lambda: osim.InverseDynamicsTool(setup).run(), args.reps)
        model = urdf2dyn.humod_subject("A")

        def ours(setup_path, out):
            res = urdf2dyn.inverse_dynamics_setup(setup_path, model, checks_enabled=False)
            formats.write_torques(out, res.t, res.tau, model, order=res.record["columns"])
        warm_ours = best(lambda: ours(setup, os.path.join(d, "ours.sto")), args.reps)
        # urdf2dyn's split
        su = read_id_setup(setup)
        state = {}

        def read():
            state["traj"] = formats.read_opensim(su.coordinates_file, model=model)
            state["loads"] = read_external_loads(su.external_loads_file)
        t_read = best(read, args.reps)
        t0, q0, _, _ = state["traj"].for_model(model)

        def process():
            t, q, v, a = id_kinematics(t0, q0, su.lowpass_hz)
            rows = id_rows(t, su.time_range)
            state["kin"] = t[rows], q[rows], v[rows], a[rows]
        t_proc = best(process, args.reps)
        t, q, v, a = state["kin"]

        def loads():
            state["f"] = state["loads"].wrenches(model, t, q, interpolation="spline")
        t_loads = best(loads, args.reps)
        t_dyn = best(lambda: model.inverse_dynamics(q, v, a, f_ext=state["f"]), args.reps)
        t_write = best(lambda: formats.write_torques(os.path.join(d, "w.sto"), t, v, model),
                       args.reps)
        # the folder
        setups = [j[0] for j in jobs]
        folder_osim = best(lambda: [osim.InverseDynamicsTool(s).run() for s in setups], 1)
        folder_ours = best(lambda: [ours(s, os.path.join(d, f"o{k}.sto"))
                                    for k, s in enumerate(setups)], 1)
        coords = [(j[1], None) for j in jobs]
        opts = dict(external_loads=jobs[0][2], filter_hz=args.cutoff, processing="opensim",
                    checks_enabled=False)
        folder_runs = best(lambda: urdf2dyn.run_trials(model, coords, max_workers=1, **opts), 1)
        folder_pool = best(lambda: urdf2dyn.run_trials(model, coords, **opts), 1)

    rows = [("one trial, fresh process (s)", cold_osim, cold_ours),
            ("one trial, warm process (s)", warm_osim, warm_ours),
            (f"{args.trials} trials, one process (s)", folder_osim, folder_ours),
            (f"{args.trials} trials, run_trials in-process (s)", folder_osim, folder_runs),
            (f"{args.trials} trials, run_trials {os.cpu_count()} processes (s)", folder_osim,
             folder_pool)]
    n = int(round(args.seconds * 200)) + 1
    print(f"InverseDynamicsTool (OpenSim {osim.__version__}) vs urdf2dyn torques --setup: "
          f"{n} samples x 36 DoF per trial, {args.cutoff:g} Hz, 2 external forces; best of "
          f"{args.reps}")
    print(f"{'':<44}{'OpenSim':>10}{'urdf2dyn':>10}{'ratio':>8}")
    for name, a_, b_ in rows:
        print(f"{name:<44}{a_:>10.4f}{b_:>10.4f}{a_ / b_:>7.1f}x")
    total = t_read + t_proc + t_loads + t_dyn + t_write
    print(f"\nurdf2dyn, one trial from files (warm), {1e3 * warm_ours:.1f} ms in all:")
    for name, x in (("read coordinates + external loads", t_read),
                    ("OpenSim processing (pad, IIR filter, quintic splines)", t_proc),
                    ("external loads at the motion's times", t_loads),
                    ("inverse dynamics (C core)", t_dyn), ("write the .sto", t_write)):
        print(f"  {name:<56}{1e3 * x:8.2f} ms  {100 * x / total:5.1f} %")


if __name__ == "__main__":
    main()
