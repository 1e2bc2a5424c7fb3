"""robot2r's small inverse-kinematics case, for the tests that run `urdf2dyn ik` on it: a
Setup_IK.xml fitting two markers (tip, mid) of walk.trc, five frames of the two links turning,
and the model markers as urdf2dyn's marker CSV."""
import numpy as np

SETUP = """<?xml version="1.0"?>
<OpenSimDocument Version="40000"><InverseKinematicsTool name="t">
<model_file>m.osim</model_file><marker_file>walk.trc</marker_file><time_range>0 1</time_range>
<IKTaskSet><objects>
<IKMarkerTask name="tip"><apply>true</apply><weight>1</weight></IKMarkerTask>
<IKMarkerTask name="mid"><apply>true</apply><weight>1</weight></IKMarkerTask>
</objects></IKTaskSet><output_motion_file>out.mot</output_motion_file>
</InverseKinematicsTool></OpenSimDocument>"""


def write_case(folder):
    """s.xml, walk.trc and m.csv in folder (a pathlib.Path); returns folder."""
    from urdf2dyn.biomech.formats.trc import write_trc
    from urdf2dyn.biomech.markers import Markers
    t = np.arange(5) / 100
    xyz = np.zeros((5, 2, 3))
    xyz[:, 0, :2] = np.column_stack([2 * np.cos(0.3 * t) + 2, 2 * np.sin(0.3 * t)])
    xyz[:, 1, :2] = np.column_stack([np.cos(0.3 * t), np.sin(0.3 * t) + 0.1])
    write_trc(folder / "walk.trc", Markers(t, ["tip", "mid"], xyz, {}), units="m")
    (folder / "m.csv").write_text("tip,link2,2,0,0\nmid,link1,1,0.1,0\n")
    (folder / "s.xml").write_text(SETUP)
    return folder
