"""OpenSim 4.6's ScaleTool as the oracle of urdf2dyn's scaling (tests and bench_scale).

run_scale_tool runs a published ScaleTool setup unchanged (the generic model given, as the
published setups leave it unassigned or name an unpublished copy), writing OpenSim's scaled
model (ModelScaler) and its marker-placed model (MarkerPlacer). converged_placement places the
markers where OpenSim's own marker placer would with its inverse kinematics converged: the
placer stops at the assembler's accuracy (1e-4), up to about 1 cm short of the minimum; this
runs OpenSim's IK tool on the same averaged static pose with the placer's tasks at accuracy
1e-9 and moves the markers as the placer does (the trial averaged over the frames each
marker is seen in, expressed in the marker's frame at the fitted pose).
"""
from __future__ import annotations

import os
import time

import numpy as np

#: The published cases: (folder under tests/data, the setup in it, the generic model under
#: tests/data): Hamner 2010, Rajagopal 2016, gait2354 (tests/data/scale/README.rst).
CASES = {
    "hamner": ("ik/hamner", "Setup_Scale.xml",
               "opensim_models/Hamner/FullBodyModel_Hamner2010_v2_0.osim"),
    "rajagopal": ("ik/rajagopal", "Scale/scale_setup_walk_scaleOnly.xml",
                  "opensim_models/Models/Rajagopal2016.osim"),
    "gait2354": ("scale/gait2354", "subject01_Setup_Scale.xml",
                 "scale/gait2354/gait2354_simbody.osim"),
    "real_lab": ("real_lab", "scale/setup_scale.xml", "real_lab/model/model_generic.osim"),
}


def run_scale_tool(folder, setup, generic, place=True, scaled="opensim_scaled.osim",
                   placed="opensim_placed.osim"):
    """OpenSim's ScaleTool on folder/setup with the generic model (a path); returns
    (scaled model path, placed model path or None, seconds)."""
    import opensim as osim
    here = os.getcwd()
    os.chdir(folder)
    try:
        t0 = time.perf_counter()
        tool = osim.ScaleTool(setup)
        tool.getGenericModelMaker().setModelFileName(os.path.abspath(generic))
        tool.getModelScaler().setOutputModelFileName(scaled)
        tool.getModelScaler().setOutputScaleFileName("opensim_scale_set.xml")
        tool.getMarkerPlacer().setApply(place)
        tool.getMarkerPlacer().setOutputModelFileName(placed)
        tool.getMarkerPlacer().setOutputMotionFileName("opensim_static.mot")
        tool.getMarkerPlacer().setOutputMarkerFileName("Unassigned")
        ok = tool.run()
        seconds = time.perf_counter() - t0
    finally:
        os.chdir(here)
    assert ok or not place, f"OpenSim's ScaleTool failed on {setup}"
    return (os.path.join(folder, scaled), os.path.join(folder, placed) if place else None,
            seconds)


def converged_placement(folder, setup, scaled_model, accuracy=1e-9):
    """{marker: location in its parent frame} where OpenSim's marker placer puts the markers
    with its IK converged, on OpenSim's scaled model; and the fitted pose {coordinate: q}."""
    import opensim as osim
    here = os.getcwd()
    os.chdir(folder)
    try:
        tool = osim.ScaleTool(setup)
        placer = tool.getMarkerPlacer()
        trc = placer.getStaticPoseFileName()
        t0, t1 = placer.getTimeRange().get(0), placer.getTimeRange().get(1)
        table = osim.TimeSeriesTableVec3(trc)
        times = table.getIndependentColumn()
        t0, t1 = max(t0, times[0]), min(t1, times[-1])
        row = table.averageRow(t0, t1)
        one = osim.TimeSeriesTableVec3()
        one.setColumnLabels(table.getColumnLabels())
        one.appendRow(t0, row)
        for key in ("DataRate", "Units"):
            one.addTableMetaDataString(key, table.getTableMetaDataAsString(key))
        osim.TRCFileAdapter().write(one, "oracle_static.trc")
        ik = osim.InverseKinematicsTool()
        ik.set_model_file(os.path.abspath(scaled_model))
        ik.setMarkerDataFileName("oracle_static.trc")
        for k in range(placer.getIKTaskSet().getSize()):
            ik.getIKTaskSet().cloneAndAppend(placer.getIKTaskSet().get(k))
        ik.setStartTime(t0)
        ik.setEndTime(t0)
        ik.set_accuracy(accuracy)
        ik.setResultsDir(".")
        ik.set_report_errors(False)
        ik.setOutputMotionFileName("oracle_static_ik.mot")
        ik.printToXML("oracle_ik_setup.xml")
        osim.InverseKinematicsTool("oracle_ik_setup.xml").run()
        motion = osim.Storage("oracle_static_ik.mot")
        model = osim.Model(os.path.abspath(scaled_model))
        state = model.initSystem()
        if motion.isInDegrees():
            model.getSimbodyEngine().convertDegreesToRadians(motion)
        labels = motion.getColumnLabels()
        values = motion.getStateVector(0).getData()
        pose = {}
        for k in range(1, labels.getSize()):
            name = labels.get(k)
            pose[name] = values.get(k - 1)
            model.getCoordinateSet().get(name).setValue(state, pose[name], False)
        model.realizePosition(state)
        data = osim.MarkerData(trc)
        data.averageFrames(-1.0, t0, t1)
        data.convertToUnits(model.getLengthUnits())
        frame = data.getFrame(0)
        names = data.getMarkerNames()
        out = {}
        ms = model.getMarkerSet()
        for k in range(ms.getSize()):
            m = ms.get(k)
            i = names.findIndex(m.getName())
            if i < 0:
                continue
            where = frame.getMarker(i).to_numpy()
            if m.get_fixed() or not np.all(np.isfinite(where)):
                out[m.getName()] = m.get_location().to_numpy()
                continue
            out[m.getName()] = model.getGround().findStationLocationInAnotherFrame(
                state, osim.Vec3(*where), m.getParentFrame()).to_numpy()
        return out, pose
    finally:
        os.chdir(here)
