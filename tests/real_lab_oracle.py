"""OpenSim 4.6's side of a real lab's C3D trial run end to end (issue 27's done-when), for the
test (tests/biomech/test_real_lab.py, on the trimmed copy in tests/data/real_lab) and the full
comparison (tools/compare_real_lab_c3d.py, on a checkout of the published pipeline).

The trial is the Vicon walk of mitkof6/opensim_automated_pipeline (``simple/``: folders
``model``, ``scale``, ``experimental_data``, ``inverse_kinematics``, ``inverse_dynamics``).
OpenSim runs from the pipeline's own setup files:

1. its ScaleTool on ``scale/setup_scale.xml`` (the subject's model, ``scale/model_scaled.osim``);
2. ``experimental_data/task.c3d`` as ezc3d reads it (this OpenSim wheel has no
   C3DFileAdapter): the markers written by OpenSim's TRC adapter, and ezc3d's own
   force-platform wrenches (force, centre of pressure, free moment) at the analog rate as a
   .mot for the pipeline's ``setup_grf.xml`` (plate 1 left, plate 2 right, as the pipeline's
   script says), both turned x:-90 as that script turns them. Below 20 N of vertical force a
   plate has no contact: its force, point and torque are written as 0 (the C3D reader's rule:
   urdf2dyn.biomech.formats.c3d.CONTACT_THRESHOLD along the plate's normal);
3. its IK tool on ``inverse_kinematics/setup_ik.xml`` over ``ik_range`` at accuracy 1e-8, the
   setup printed by OpenSim (``out/setup_ik.xml``: the one urdf2dyn's side reads too);
4. its ID tool on ``inverse_dynamics/setup_id.xml`` (its 6 Hz cutoff) over ``id_range`` on
   that IK's motion, the loads of 2 (``out/id.sto``).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np

#: Lab (z up) to OpenSim (y up): x:-90, as the pipeline's c3d_to_opensim.py turns its data.
ROTATION = np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]], float)
THRESHOLD = 20.0


def scaled_model(osim, folder):
    """OpenSim's ScaleTool on folder/scale/setup_scale.xml; the scaled model's path."""
    here = os.getcwd()
    os.chdir(os.path.join(folder, "scale"))
    try:
        assert osim.ScaleTool("setup_scale.xml").run()
    finally:
        os.chdir(here)
    return os.path.join(folder, "scale", "model_scaled.osim")


def write_opensim_inputs(osim, c3d, out):
    """out/task.trc (markers, m) and out/task_grf.mot (plate wrenches at the analog rate)
    from c3d as ezc3d reads it."""
    import ezc3d
    c = ezc3d.c3d(c3d, extract_forceplat_data=True)
    R = ROTATION
    rate = float(c["parameters"]["POINT"]["RATE"]["value"][0])
    labels = [s.strip() for s in c["parameters"]["POINT"]["LABELS"]["value"]]
    xyz = c["data"]["points"][:3] / 1000.0
    first = int(c["header"]["points"]["first_frame"])
    table = osim.TimeSeriesTableVec3()
    table.setColumnLabels(list(labels))
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
        F = (R @ pl["force"]).T
        P = (R @ pl["center_of_pressure"]).T / 1e3
        T = (R @ pl["Tz"]).T / 1e3
        off = ~(F[:, 1] >= THRESHOLD)              # vertical (y up) force below threshold
        for x in (F, P, T):
            x[off] = 0.0
        for pre, x in (("ground_force_v", F), ("ground_force_p", P), ("ground_torque_", T)):
            for a, axis in enumerate("xyz"):
                names.append(f"{side}_{pre}{axis}")
                cols.append(np.nan_to_num(x[:, a]))
    data = np.column_stack(cols)
    table = osim.TimeSeriesTable()
    table.setColumnLabels(list(names[1:]))
    for row in data:
        table.appendRow(float(row[0]), osim.RowVector([float(x) for x in row[1:]]))
    table.addTableMetaDataString("inDegrees", "no")
    osim.STOFileAdapter.write(table, os.path.join(out, "task_grf.sto"))
    os.replace(os.path.join(out, "task_grf.sto"), os.path.join(out, "task_grf.mot"))


def run(osim, folder, out, ik_range, id_range):
    """OpenSim's scale, IK and ID of folder's task.c3d (module notes); returns the scaled
    model's path. Writes out/setup_ik.xml, ik.mot, setup_grf.xml, setup_id.xml, id.sto."""
    osim.Logger.setLevelString("error")
    model = scaled_model(osim, folder)
    write_opensim_inputs(osim, os.path.join(folder, "experimental_data", "task.c3d"), out)
    shutil.copy(os.path.join(folder, "experimental_data", "setup_grf.xml"),
                os.path.join(out, "setup_grf.xml"))
    here = os.getcwd()
    os.chdir(out)
    try:
        ik = osim.InverseKinematicsTool(os.path.join(folder, "inverse_kinematics",
                                                     "setup_ik.xml"))
        ik.set_model_file(model)
        ik.setMarkerDataFileName(os.path.join(out, "task.trc"))
        ik.set_accuracy(1e-8)
        ik.setStartTime(ik_range[0])
        ik.setEndTime(ik_range[1])
        ik.setResultsDir(out)
        ik.setOutputMotionFileName(os.path.join(out, "ik.mot"))
        ik.printToXML(os.path.join(out, "setup_ik.xml"))
        assert osim.InverseKinematicsTool(os.path.join(out, "setup_ik.xml")).run()
        idt = osim.InverseDynamicsTool(os.path.join(folder, "inverse_dynamics", "setup_id.xml"))
        idt.setModelFileName(model)
        idt.setCoordinatesFileName(os.path.join(out, "ik.mot"))
        idt.setExternalLoadsFileName(os.path.join(out, "setup_grf.xml"))
        idt.setStartTime(id_range[0])
        idt.setEndTime(id_range[1])
        idt.setResultsDir(out)
        idt.setOutputGenForceFileName("id.sto")
        idt.printToXML(os.path.join(out, "setup_id.xml"))
        assert osim.InverseDynamicsTool(os.path.join(out, "setup_id.xml")).run()
    finally:
        os.chdir(here)
    return model


def differences(t, tau, t_ref, tau_ref, names):
    """[(largest |difference| / peak of the reference, name, peak, time of the largest)] per
    coordinate, worst first; the rows must be the reference's."""
    assert len(t) == len(t_ref) and np.allclose(t, t_ref, rtol=0, atol=1e-9), "rows differ"
    rows = []
    for c, name in enumerate(names):
        peak = float(np.abs(tau_ref[:, c]).max())
        d = np.abs(tau[:, c] - tau_ref[:, c])
        rows.append((float(d.max()) / peak, name, peak, float(t_ref[int(d.argmax())])))
    return sorted(rows, reverse=True)


def run_in_a_child(folder, out, ik_range, id_range):
    """run() in a fresh interpreter; returns the scaled model's path. OpenSim's and ezc3d's
    SWIG modules share one type table, so whichever is imported second cannot pass a
    std::vector<std::string> (setColumnLabels here): in a test session that has imported
    ezc3d, OpenSim's side runs alone."""
    code = ("import sys, opensim, real_lab_oracle as o; "
            "print(o.run(opensim, sys.argv[1], sys.argv[2], "
            "tuple(map(float, sys.argv[3:5])), tuple(map(float, sys.argv[5:7]))))")
    proc = subprocess.run([sys.executable, "-c", code, folder, out, *map(str, ik_range),
                           *map(str, id_range)], capture_output=True, text=True, timeout=900,
                          cwd=os.path.dirname(os.path.abspath(__file__)))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]
