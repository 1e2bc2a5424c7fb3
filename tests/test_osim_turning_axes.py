"""Joints whose one coordinate turns several rotation axes (Rajagopal's and OpenCap's walker
knees), where OpenSim's velocity terms differ from the mechanics (docs/osim_models.rst,
*Rajagopal's knee*; tests/test_osim.py measures the difference): `torques --processing
opensim` says so where a motion moves them and `info` lists them; a load says nothing, the
file being right. The joints named are those OpenSim's own reading of the file shows to be
such (a CustomJoint of one coordinate whose SpatialTransform turns about several axes)."""
import os
import warnings

import numpy as np
import pytest

import urdf2dyn
from cli_here import run_here

DATA = os.path.join(os.path.dirname(__file__), "data", "opensim_models", "Models")
MODELS = ["Rajagopal2016.osim", "gait2392_millard2012muscle.osim",
          "FullBodyModel_Hamner2010_v2_0.osim", "gait10dof18musc.osim"]
SAID = "several rotation axes with one coordinate"


def _opensims_turning_joints(osim, path):
    """OpenSim's reading: the CustomJoints of one coordinate with two or more rotation axes
    driven by a function of it (not a Constant), not all parallel."""
    model = osim.Model(path)
    joints = model.getJointSet()
    names = set()
    for i in range(joints.getSize()):
        joint = osim.CustomJoint.safeDownCast(joints.get(i))
        if joint is None or joint.numCoordinates() != 1:
            continue
        spatial = joint.getSpatialTransform()
        axes = [spatial.getTransformAxis(k).getAxis().to_numpy() for k in range(3)
                if spatial.getTransformAxis(k).getFunction().getConcreteClassName()
                != "Constant"]
        if any(np.linalg.norm(np.cross(axes[0], a)) > 1e-9 for a in axes[1:]):
            names.add(joint.getName())
    return names


def _load(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = urdf2dyn.load(path)
    return model, [w for w in caught if SAID in str(w.message)]


@pytest.mark.parametrize("name", MODELS)
def test_the_joints_named_are_those_opensim_turns_about_several_axes(osim, name):
    """A load says nothing of them (the file is right, and --strict, whose warnings are
    errors, must take Rajagopal's model); the model names them as OpenSim's reading does."""
    path = os.path.join(DATA, name)
    expected = _opensims_turning_joints(osim, path)
    model, said = _load(path)
    assert said == []
    assert set(model.turning_axis_joints()) == expected
    if expected:
        assert expected == {"walker_knee_r", "walker_knee_l"}     # the oracle's own answer


def test_a_floating_root_changes_nothing_of_it():
    path = os.path.join(DATA, "Rajagopal2016.osim")
    model = urdf2dyn.load(path, floating_base=True)
    assert sorted(model.turning_axis_joints()) == ["walker_knee_l", "walker_knee_r"]


def test_info_lists_them_and_strict_takes_the_model():
    path = os.path.join(DATA, "Rajagopal2016.osim")
    status, out, err = run_here(["info", path, "--strict"])
    said = [line for line in out.splitlines() if "several rotation axes" in line]
    assert status == 0 and err == "" and len(said) == 1, (out, err)
    assert said[0].endswith(": walker_knee_l, walker_knee_r"), said


def test_torques_say_it_once_when_the_knees_move(tmp_path):
    """--processing opensim promises OpenSim's tool: where the knees move it says once that
    OpenSim's differs (tests/biomech/test_opencap.py: nothing with the knees held)."""
    path = os.path.join(DATA, "Rajagopal2016.osim")
    model, _ = _load(path)
    n = 12
    q = np.tile(model.default_q, (n, 1))
    for knee in ("knee_angle_r", "knee_angle_l"):
        q[:, model.q_names.index(knee)] = np.linspace(0.2, 0.8, n)
    rows = "".join("\t".join(f"{float(x)!r}" for x in [0.01 * k, *q[k]]) + "\n"
                   for k in range(n))
    (tmp_path / "q.mot").write_text(
        f"q\nversion=1\nnRows={n}\nnColumns={model.nq + 1}\ninDegrees=no\nendheader\n"
        + "\t".join(["time", *model.q_names]) + "\n" + rows)
    status, out, err = run_here(["torques", path, os.fspath(tmp_path / "q.mot"),
                                 "--processing", "opensim", "-o",
                                 os.fspath(tmp_path / "out.sto")])
    said = [line for line in err.splitlines() if SAID in line]
    assert status == 0 and len(said) == 1 and "and they move" in said[0], err
