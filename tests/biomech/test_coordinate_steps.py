"""A coordinate that steps by more than half a turn between two samples (the trial's
``steps`` check): no sampled motion tells such a step from the shorter one the other way, so
the velocities, accelerations and joint moments around it are artefacts.

Found on Pose2Sim's model (github.com/perfanalytics/pose2sim, Model_Pose2Sim_simple.osim with
its Body25b IK setup, which puts no marker on the hands): `urdf2dyn ik` on a trial made from
the model's own markers took arm_rot_l and arm_flex_l round a turn between two frames (a
346 deg step; OpenSim 4.6's IK tool, at most 63 deg), and `urdf2dyn torques` on that motion
gave 7 kN at the root with no word about the step. Tested here on opensim-models' Gait2354
walk, one column taken round a turn, with OpenSim's forward kinematics as the oracle that the
pose is the same."""
import os
import warnings

import numpy as np
import pytest

from urdf2dyn import cli

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "opensim_models",
                    "Gait2354_Simbody")
MODEL = os.path.join(DATA, "subject01_simbody.osim")
WALK = os.path.join(DATA, "subject01_walk1_ik.mot")


def _with_column_stepped(tmp_path, name, step_deg, from_row):
    """The walk with column name moved by step_deg from data row from_row on."""
    lines = open(WALK).read().splitlines()
    head = lines.index("endheader") + 1
    column = lines[head].split("\t").index(name)
    for r in range(head + 1 + from_row, len(lines)):
        cells = lines[r].split("\t")
        cells[column] = f"{float(cells[column]) + step_deg:.8f}"
        lines[r] = "\t".join(cells)
    path = tmp_path / f"walk_{name}_{step_deg:+g}.mot"
    path.write_text("\n".join(lines) + "\n")
    return path, float(lines[head + 1 + from_row - 1].split()[0]), \
        float(lines[head + 1 + from_row].split()[0])


def _said(capsys, motion, tmp_path):
    status = cli.main(["torques", MODEL, os.fspath(motion), "-o",
                       os.fspath(tmp_path / "out.sto")])
    printed = capsys.readouterr()
    assert status == 0, printed.err
    return [line for line in printed.err.splitlines() if "half a turn" in line]


def test_a_whole_turn_between_samples_is_named_with_unwrap_advice(tmp_path, capsys):
    osim = pytest.importorskip("opensim")
    # the oracle: hip_rotation_r and hip_rotation_r + 360 deg place every body alike
    model = osim.Model(MODEL)
    state = model.initSystem()
    coordinate = model.getCoordinateSet().get("hip_rotation_r")
    where = []
    for value in (0.3, 0.3 + 2 * np.pi):
        coordinate.setValue(state, value)
        model.realizePosition(state)
        where.append([model.getBodySet().get(b).getPositionInGround(state).to_numpy()
                      for b in ("femur_r", "tibia_r", "calcn_r", "toes_r")])
    np.testing.assert_allclose(where[0], where[1], rtol=0, atol=1e-12)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _said(capsys, WALK, tmp_path) == []
        stepped, before, after = _with_column_stepped(tmp_path, "hip_rotation_r", 360, 30)
        said = _said(capsys, stepped, tmp_path)
    assert len(said) == 1, said
    for words in ("hip_rotation_r by +360 deg", f"between t = {before:g} and {after:g} s",
                  "the same pose taken round a turn", "unwrap the column"):
        assert words in said[0], (words, said[0])


def test_a_flip_that_is_not_a_whole_turn_is_named_with_the_markers_advice(tmp_path, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stepped, before, after = _with_column_stepped(tmp_path, "hip_adduction_r", -200, 40)
        said = _said(capsys, stepped, tmp_path)
    assert len(said) == 1, said
    # -200 deg and the walk's own step there, -199 deg in all
    for words in ("hip_adduction_r by -199 deg", f"between t = {before:g} and {after:g} s",
                  "IKCoordinateTask"):
        assert words in said[0], (words, said[0])
    assert "unwrap" not in said[0]


def _robot2r_following_a_wrapped_file(tmp_path):
    """robot2r's IK case with an IKCoordinateTask pulling joint1 after a coordinate file whose
    angles go round a turn between two rows (as a tool wrapping angles into +-180 deg writes
    them); the markers fit either way. Returns the `urdf2dyn ik` arguments."""
    import robot2r_ik_case
    from urdf2dyn.bundled import data_path
    robot2r_ik_case.write_case(tmp_path)
    task = ('<IKCoordinateTask name="joint1"><apply>true</apply><weight>1000</weight>'
            '<value_type>from_file</value_type></IKCoordinateTask>')
    setup = robot2r_ik_case.SETUP.replace("</objects></IKTaskSet>", task + "</objects>"
                                          "</IKTaskSet><coordinate_file>coords.mot"
                                          "</coordinate_file>")
    (tmp_path / "s.xml").write_text(setup)
    t = np.arange(5) / 100
    joint1 = np.degrees(0.3 * t) + np.where(t > 0.025, 360, 0)
    rows = "".join(f"{a:.4f}\t{b:.6f}\t0\n" for a, b in zip(t, joint1))
    (tmp_path / "coords.mot").write_text("coords\nversion=1\nnRows=5\nnColumns=3\n"
                                         "inDegrees=yes\nendheader\ntime\tjoint1\tjoint2\n"
                                         + rows)
    return ["ik", "--setup", os.fspath(tmp_path / "s.xml"), "--model",
            data_path("robot2r.urdf"), "--markers", os.fspath(tmp_path / "m.csv"),
            "-o", os.fspath(tmp_path / "o.mot")]


def test_urdf2dyn_ik_names_a_turn_it_makes(tmp_path, capsys):
    """`urdf2dyn ik` says it where the turn is made (the task's joint1 follows its file)."""
    status = cli.main(_robot2r_following_a_wrapped_file(tmp_path))
    printed = capsys.readouterr()
    assert status == 0, printed.err
    said = [line for line in printed.err.splitlines() if "half a turn" in line]
    assert len(said) == 1, printed.err
    for words in ("joint1 by +360 deg between t = 0.02 and 0.03 s", "unwrap the column"):
        assert words in said[0], (words, said[0])


def test_ik_does_not_take_a_free_coordinate_round_a_turn(tmp_path, capsys):
    """Where the task takes joint1 round a turn, the solver took joint2 (no task) round two
    turns the other way, -720 deg in a frame: the same pose, a step no derivative survives.
    The fit now brings such a coordinate back by whole turns where every link stays where it
    was (the model's forward kinematics, frame by frame) and says nothing of it."""
    import urdf2dyn
    from urdf2dyn.biomech.formats import read_opensim
    from urdf2dyn.bundled import data_path
    args = _robot2r_following_a_wrapped_file(tmp_path)
    assert cli.main(args) == 0
    printed = capsys.readouterr()
    assert "joint2" not in printed.err, printed.err
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    fit = read_opensim(tmp_path / "o.mot", model=model)
    joint1, joint2 = fit.column("joint1"), fit.column("joint2")
    assert np.abs(np.diff(joint2)).max() < 0.01
    assert np.abs(joint2).max() < 0.02
    assert np.diff(joint1)[2] == pytest.approx(2 * np.pi, abs=0.01)
    # the pose the markers see is the one a joint2 wound round would give
    wound = fit.q.copy()
    wound[3:, model.q_names.index("joint2")] -= 4 * np.pi
    for a, b in zip(model.forward_kinematics(fit.q), model.forward_kinematics(wound)):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-9)


def _pan(joint_type, limit):
    """One link turning about z on a joint of joint_type; limit: the URDF's <limit> bounds."""
    import urdf2dyn
    bounds = f'lower="{-limit}" upper="{limit}" ' if limit is not None else ""
    return urdf2dyn.load(
        '<robot name="r"><link name="base"/><link name="l1"><inertial><mass value="1"/>'
        '<origin xyz="0.5 0 0"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" '
        f'iyz="0"/></inertial></link><joint name="pan" type="{joint_type}"><parent '
        'link="base"/><child link="l1"/><axis xyz="0 0 1"/>'
        f'<limit {bounds}effort="1" velocity="1"/></joint></robot>')


# a fit that steps by -5.6 rad between the third and fourth frame: the same poses as
# 2.6 .. 3.583, a joint near its stop at +-2.8973 rad (a Franka Panda's first joint)
_FLIPPED = np.array([[2.6], [2.7], [2.8], [-2.8], [-2.7]])


def test_unwrapping_keeps_a_joint_within_its_urdf_limits():
    """The URDF's <limit> is the joint's stop: 3.483 rad is no pose of that robot, so the
    fit's -2.8 and -2.7 (inside the limits) stay as they are, the step with them."""
    from urdf2dyn.model import _unwound
    model = _pan("revolute", 2.8973)
    np.testing.assert_array_equal(_unwound(model, _FLIPPED.copy(), set()), _FLIPPED)


def test_unwrapping_still_turns_a_limited_joint_back_within_its_limits():
    """A joint whose limits span more than a turn (anymal's +-3 pi) is unwrapped: every
    sample stays within them."""
    from urdf2dyn.model import _unwound
    model = _pan("revolute", 3 * np.pi)
    unwound = _unwound(model, _FLIPPED.copy(), set())
    np.testing.assert_allclose(unwound[3:, 0], _FLIPPED[3:, 0] + 2 * np.pi, rtol=0,
                               atol=1e-12)


def test_unwrapping_keeps_a_clamped_coordinate_in_its_range():
    """model.clamped_ranges bind as the URDF's limits do (OpenSim's optimizer keeps a
    clamped coordinate in range); a continuous joint without them is unwrapped."""
    from urdf2dyn.model import _unwound
    model = _pan("continuous", None)
    unwound = _unwound(model, _FLIPPED.copy(), set())
    np.testing.assert_allclose(unwound[3:, 0], _FLIPPED[3:, 0] + 2 * np.pi, rtol=0,
                               atol=1e-12)
    model.clamped_ranges = {"pan": (-2.8973, 2.8973)}
    np.testing.assert_array_equal(_unwound(model, _FLIPPED.copy(), set()), _FLIPPED)


def test_unwrapping_follows_an_unclamped_coordinate_past_its_range():
    """An .osim's unclamped range does not bind: OpenSim's IK, each frame started from the
    previous fit, follows hip_rotation_r continuously to 2.15 rad past its 2.094 (the range
    check names it), and so does the unwrapped column."""
    import urdf2dyn
    from urdf2dyn.model import _unwound
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = urdf2dyn.load(MODEL)
    assert not model.coordinates["hip_rotation_r"].clamped
    k = model.q_names.index("hip_rotation_r")
    fit = np.zeros((3, model.nq))
    fit[:, k] = [2.0, 2.05, 2.15 - 2 * np.pi]
    unwound = _unwound(model, fit.copy(), set())
    np.testing.assert_allclose(unwound[:, k], [2.0, 2.05, 2.15], rtol=0, atol=1e-12)


def test_inverse_kinematics_says_what_it_returns_of_a_whole_turn():
    """What the fit returns of a coordinate it took round a turn is said where a caller looks
    (the docstring's Returns, as docs/ik.rst says it)."""
    import urdf2dyn
    doc = urdf2dyn.Model.inverse_kinematics.__doc__
    returns = " ".join(doc.split("Returns\n")[1].split())
    for words in ("round a whole turn", "back by whole turns", "every link stays",
                  "joint limits", "clamped"):
        assert words in returns, (words, returns)
