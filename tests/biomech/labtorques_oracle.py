"""OpenSim's own chain on opensim-models' Gait2392 walk: its IK tool on the published .trc and
IK setup (the markers on the C3D file's clock), then its inverse-dynamics tool on that motion
with the published ExternalLoads (subject01_walk1_grf.xml/.mot) at 6 Hz over the published ID
setup's time range (0.5-1.6 s)."""
import os
import shutil

import numpy as np

from cli_here import working_in

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "ik", "gait2392")
TIME_RANGE = (0.5, 1.6)
CUTOFF = 6.0


def run_chain(folder):
    """Copies the published files into folder, runs OpenSim's IK then ID; returns (labels,
    time (N,), generalized forces (N, k)) of the ID tool's .sto."""
    import opensim as osim
    osim.Logger.setLevelString("error")
    shutil.copytree(DATA, folder, dirs_exist_ok=True)
    with working_in(folder):
        # the published .trc rounds its times to 1 ms (0.017, 0.033, ...); the C3D clock is
        # exact (k / 60 s): OpenSim's own TRC adapter rewrites the markers on that clock
        table = osim.TimeSeriesTableVec3("subject01_walk1.trc")
        for k in range(table.getNumRows()):
            table.setIndependentValueAtIndex(k, k / 60.0)
        osim.TRCFileAdapter().write(table, "exact_clock.trc")
        ik = osim.InverseKinematicsTool("subject01_Setup_IK.xml")
        ik.setMarkerDataFileName("exact_clock.trc")
        ik.setOutputMotionFileName("opensim_ik.mot")
        ik.printToXML("chain_Setup_IK.xml")
        assert osim.InverseKinematicsTool("chain_Setup_IK.xml").run()
        tool = osim.InverseDynamicsTool()
        tool.setName("chain")
        tool.setModelFileName("subject01_simbody.osim")
        tool.setCoordinatesFileName("opensim_ik.mot")
        tool.setExternalLoadsFileName("subject01_walk1_grf.xml")
        tool.setLowpassCutoffFrequency(CUTOFF)
        tool.setStartTime(TIME_RANGE[0])
        tool.setEndTime(TIME_RANGE[1])
        excluded = osim.ArrayStr()
        excluded.append("Muscles")
        tool.setExcludedForces(excluded)
        tool.setResultsDir("results")
        tool.setOutputGenForceFileName("chain_id.sto")
        tool.printToXML("chain_Setup_ID.xml")
        assert osim.InverseDynamicsTool("chain_Setup_ID.xml").run()
        table = osim.TimeSeriesTable(os.path.join("results", "chain_id.sto"))
        labels = list(table.getColumnLabels())
        t = np.array(table.getIndependentColumn())
        values = table.getMatrix().to_numpy()
        return labels, t, values
