"""A real lab's C3D trial end to end against OpenSim 4.6 (issue 27's done-when), on the Vicon
walk of mitkof6/opensim_automated_pipeline (``simple/``: a child with cerebral palsy, two
plates, Apache-2.0; github.com/mitkof6/opensim_automated_pipeline).

    python tools/compare_real_lab_c3d.py CHECKOUT [--loads plates|file]

1. OpenSim's ScaleTool on the pipeline's ``scale/setup_scale.xml`` (the scaled model is not
   published).
2. The oracle: ``task.c3d`` as ezc3d reads it (this OpenSim wheel has no C3DFileAdapter):
   markers and ezc3d's own force-platform wrenches (force, centre of pressure, free moment,
   at the analog rate; plate 1 left, plate 2 right as the pipeline's script says), turned x:-90
   as that script does, written with OpenSim's TRC adapter and as a .mot for the pipeline's
   ``setup_grf.xml``; OpenSim's IK tool on the pipeline's IK setup (accuracy 1e-8, frames
   2.3-4.0 s: both plates) and its ID tool on the pipeline's ID setup (6 Hz, 2.5-3.8 s).
3. urdf2dyn: ``inverse_dynamics_trial(model, task.c3d, rotation="x:-90", ik_setup=<the IK
   setup written in 2>, processing="opensim", filter_hz=6, time_range=(2.5, 3.8))`` with the
   C3D's own plates (--loads plates) or OpenSim's loads file of 2 (--loads file).

Prints each coordinate's largest difference in % of OpenSim's peak.
"""
import argparse
import os
import sys
import tempfile
import warnings

import numpy as np


def oracle(src, out):
    import ezc3d
    import opensim as osim
    osim.Logger.setLevelString("error")
    here = os.getcwd()
    os.chdir(os.path.join(src, "scale"))
    try:
        assert osim.ScaleTool("setup_scale.xml").run()
    finally:
        os.chdir(here)
    model = os.path.join(src, "scale", "model_scaled.osim")
    c = ezc3d.c3d(os.path.join(src, "experimental_data", "task.c3d"), extract_forceplat_data=True)
    R = np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]], float)           # x:-90
    rate = float(c["parameters"]["POINT"]["RATE"]["value"][0])
    labels = [s.strip() for s in c["parameters"]["POINT"]["LABELS"]["value"]]
    xyz = c["data"]["points"][:3] / 1000.0
    first = int(c["header"]["points"]["first_frame"])
    table = osim.TimeSeriesTableVec3()
    table.setColumnLabels(osim.StdVectorString(labels))
    for i in range(xyz.shape[2]):
        row = osim.RowVectorVec3(len(labels))
        for k in range(len(labels)):
            p = R @ xyz[:, k, i]
            row[k] = osim.Vec3(*map(float, p)) if np.all(np.isfinite(p)) else osim.Vec3(np.nan)
        table.appendRow(float((first + i) / rate), row)
    table.addTableMetaDataString("DataRate", str(rate))
    table.addTableMetaDataString("Units", "m")
    osim.TRCFileAdapter().write(table, os.path.join(out, "task.trc"))
    arate = float(c["parameters"]["ANALOG"]["RATE"]["value"][0])
    plates = c["data"]["platform"]
    ta = first / rate + np.arange(plates[0]["force"].shape[1]) / arate
    names, cols = ["time"], [ta]
    for side, pl in (("left", plates[0]), ("right", plates[1])):
        F, P, T = (R @ pl["force"]).T, (R @ pl["center_of_pressure"]).T / 1e3, (R @ pl["Tz"]).T / 1e3
        off = np.linalg.norm(F, axis=1) < 20.0
        for x in (F, P, T):
            x[off] = 0.0
        for pre, x in (("ground_force_v", F), ("ground_force_p", P), ("ground_torque_", T)):
            for a, axis in enumerate("xyz"):
                names.append(f"{side}_{pre}{axis}")
                cols.append(np.nan_to_num(x[:, a]))
    data = np.column_stack(cols)
    with open(os.path.join(out, "task_grf.mot"), "w") as f:
        f.write(f"task_grf\nversion=1\nnRows={len(ta)}\nnColumns={len(names)}\ninDegrees=no\n"
                "endheader\n" + "\t".join(names) + "\n")
        for row in data:
            f.write("\t".join(repr(float(x)) for x in row) + "\n")
    with open(os.path.join(src, "experimental_data", "setup_grf.xml")) as f:
        grf_xml = f.read()
    with open(os.path.join(out, "setup_grf.xml"), "w") as f:
        f.write(grf_xml)
    os.chdir(out)
    try:
        ik = osim.InverseKinematicsTool(os.path.join(src, "inverse_kinematics", "setup_ik.xml"))
        ik.set_model_file(model)
        ik.setMarkerDataFileName(os.path.join(out, "task.trc"))
        ik.set_accuracy(1e-8)
        ik.setStartTime(2.3)
        ik.setEndTime(4.0)
        ik.setResultsDir(out)
        ik.setOutputMotionFileName(os.path.join(out, "ik.mot"))
        ik.printToXML(os.path.join(out, "setup_ik.xml"))
        osim.InverseKinematicsTool(os.path.join(out, "setup_ik.xml")).run()
        idt = osim.InverseDynamicsTool(os.path.join(src, "inverse_dynamics", "setup_id.xml"))
        idt.setModelFileName(model)
        idt.setCoordinatesFileName(os.path.join(out, "ik.mot"))
        idt.setExternalLoadsFileName(os.path.join(out, "setup_grf.xml"))
        idt.setStartTime(2.5)
        idt.setEndTime(3.8)
        idt.setResultsDir(out)
        idt.setOutputGenForceFileName("id.sto")
        idt.printToXML(os.path.join(out, "setup_id.xml"))
        osim.InverseDynamicsTool(os.path.join(out, "setup_id.xml")).run()
    finally:
        os.chdir(here)
    return model


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkout", help="an opensim_automated_pipeline checkout")
    p.add_argument("--loads", choices=("plates", "file"), default="plates")
    args = p.parse_args(argv)
    import urdf2dyn
    from urdf2dyn.biomech.formats import read_torques
    src = os.path.join(os.path.abspath(args.checkout), "simple")
    out = tempfile.mkdtemp(prefix="real_lab_")
    model_file = oracle(src, out)
    warnings.simplefilter("ignore")
    model = urdf2dyn.load(model_file)
    kw = dict(rotation="x:-90", ik_setup=os.path.join(out, "setup_ik.xml"),
              processing="opensim", filter_hz=6, time_range=(2.5, 3.8))
    if args.loads == "file":
        kw["external_loads"] = os.path.join(out, "setup_grf.xml")
    res = urdf2dyn.inverse_dynamics_trial(model, os.path.join(src, "experimental_data",
                                                              "task.c3d"), **kw)
    t, tau, _ = read_torques(os.path.join(out, "id.sto"), model=model)
    assert np.allclose(t, res.t), "rows differ"
    rows = []
    for c, n in enumerate(model.v_names):
        peak = float(np.abs(tau[:, c]).max())
        rows.append((float(np.abs(res.tau[:, c] - tau[:, c]).max()) / peak, n, peak))
    for frac, n, peak in sorted(rows, reverse=True):
        print(f"{n:24s} {100 * frac:9.4f} % of its peak ({peak:.3g})")
    worst = max(rows)[0]
    print(f"{len(rows)} coordinates, {len(t)} rows: worst {100 * worst:.4f} % of peak")
    return 0 if worst < 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
