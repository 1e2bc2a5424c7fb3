"""Joints whose one coordinate turns several rotation axes (Rajagopal's and OpenCap's walker
knees), where OpenSim's velocity terms differ from the mechanics (docs/osim_models.rst,
*Rajagopal's knee*; tests/test_osim.py measures the difference): only `torques
--processing opensim` said so, when a motion moved them; `info` and urdf2dyn.load were
silent. Every load now says it once, naming the joints OpenSim's own reading of the file
shows to be such joints (a CustomJoint of one coordinate whose SpatialTransform turns about
several axes with it)."""
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
def test_a_load_names_the_joints_opensim_turns_about_several_axes(osim, name):
    path = os.path.join(DATA, name)
    expected = _opensims_turning_joints(osim, path)
    model, said = _load(path)
    assert len(said) == (1 if expected else 0), [str(w.message) for w in said]
    if expected:
        assert expected == {"walker_knee_r", "walker_knee_l"}     # the oracle's own answer
        message = str(said[0].message)
        assert issubclass(said[0].category, urdf2dyn.URDFWarning)
        assert message.startswith(f"{path}: 2 joints "), message
        assert all(repr(j) in message for j in expected), message
        assert any(SAID in m for _, m in model.findings)


def test_info_says_it_once():
    status, out, err = run_here(["info", os.path.join(DATA, "Rajagopal2016.osim")])
    said = [line for line in err.splitlines() if SAID in line]
    assert status == 0 and len(said) == 1 and "warning: " in said[0], err
    assert "walker_knee_r" in said[0] and "walker_knee_l" in said[0], said


def test_torques_say_it_once_when_the_knees_move(tmp_path):
    """The motion moves both knees: torques said it (processing opensim) and says it once,
    from the model's load."""
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
    assert status == 0 and len(said) == 1, err


def test_a_floating_root_changes_nothing_of_it():
    """Under floating_base=True the pose the joints are looked at in must hold a valid root
    quaternion (it was all zeros: the load failed)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.load(os.path.join(DATA, "gait2392_millard2012muscle.osim"), floating_base=True)
        urdf2dyn.load(os.path.join(DATA, "Rajagopal2016.osim"), floating_base=True)
    said = [str(w.message) for w in caught if SAID in str(w.message)]
    assert len(said) == 1 and "Rajagopal2016.osim" in said[0], said
