"""Inverse kinematics (issue 20, item 3): the core's marker fit against closed forms and
against OpenSim 4.6's IK tool.

* robot2r (the thesis' planar arm): exact markers give back the exact angles; locked
  coordinates, ranges, coordinate tasks and missing markers each checked where the answer is
  known in closed form.
* OpenSim as the oracle: the arm7 URDF exported to .osim with markers added by OpenSim's API,
  a trajectory from OpenSim's forward kinematics plus 2 mm noise written by OpenSim's
  TRCFileAdapter (with gaps), a setup written by OpenSim's InverseKinematicsTool (marker
  weights, a locked coordinate, a clamped range, a coordinate task); OpenSim's tool and
  ``urdf2dyn ik --setup`` run the same setup: coordinates within 0.1 deg RMS and 0.5 deg max,
  marker RMS no worse than OpenSim's by 0.1 mm in any frame.
* The published cases of opensim-models: Gait2392's walk with its scaled model; Hamner's
  running and Rajagopal's static trial with models scaled here by urdf2dyn (as OpenSim's
  ScaleTool scales them: tests/biomech/test_scale.py).
* Property-based: the setup reader, the marker-file reader and the solver on arbitrary input.
"""
import dataclasses
import contextlib
import copy
import math
import re
import types
import os
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from urdf2dyn.biomech.trajectory import angle_columns
from hypothesis import HealthCheck, event, example, given, settings, strategies as st

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech import ik
from urdf2dyn.biomech.formats import read_opensim
from urdf2dyn.biomech.formats.ik_setup import IKSetupError, read_ik_setup
from urdf2dyn.biomech.markers import Markers
from urdf2dyn.bundled import data_path
from urdf2dyn.markers import Marker, read_markers
from urdf2dyn.warn import Urdf2dynWarning

import ik_oracle
import robot2r_ik_case
from caller_words import assert_says_the_keyword, flags_named
from cli_here import working_in

FUZZ = settings(max_examples=40, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])

# ---------------------------------------------------------------- robot2r: closed forms

L1 = 2.0                        # robot2r.urdf: joint2 at x = 2 on link1
TIP = Marker("tip", "link2", (2.0, 0.0, 0.0))
MID = Marker("mid", "link1", (1.0, 0.1, 0.0))


def planar(q):
    """robot2r's markers in closed form: tip and mid, (N, 2, 3)."""
    q1, q2 = q[:, 0], q[:, 1]
    z = np.zeros_like(q1)
    tip = np.stack([L1 * np.cos(q1) + 2 * np.cos(q1 + q2),
                    L1 * np.sin(q1) + 2 * np.sin(q1 + q2), z], -1)
    mid = np.stack([np.cos(q1) - 0.1 * np.sin(q1), np.sin(q1) + 0.1 * np.cos(q1), z], -1)
    return np.stack([tip, mid], 1)


@pytest.fixture(scope="module")
def r2():
    return urdf2dyn.load(data_path("robot2r.urdf"))


def arm_motion(n=120):
    s = np.linspace(0, 1, n)
    return np.column_stack([-1 + 2 * s, 0.5 + 0.8 * np.sin(3 * s)])


def test_exact_markers_give_exact_angles(r2):
    q = arm_motion()
    sol = r2.inverse_kinematics(planar(q), markers=[TIP, MID], q0=q[0] + 0.2, threads=1)
    assert np.abs(sol.q - q).max() < 1e-10
    assert sol.rms.max() < 1e-10 and sol.max.max() < 1e-10
    assert sol.marker_names == ["tip", "mid"]
    assert sol.iterations.max() < 20


def test_segments_on_threads_equal_one_thread(r2):
    q = arm_motion(400)
    one = r2.inverse_kinematics(planar(q), markers=[TIP, MID], q0=q[0], threads=1)
    four = r2.inverse_kinematics(planar(q), markers=[TIP, MID], q0=q[0], threads=4)
    assert np.abs(one.q - four.q).max() < 1e-9


def test_missing_marker_is_skipped_in_its_frames(r2):
    q = arm_motion(40)
    x = planar(q)
    x[10:20, 0] = np.nan                    # the tip hidden: q2 unseen there
    sol = r2.inverse_kinematics(x, markers=[TIP, MID], q0=q[0], threads=1)
    seen = np.r_[0:10, 20:40]
    assert np.abs(sol.q[seen] - q[seen]).max() < 1e-9
    assert np.abs(sol.q[10:20, 0] - q[10:20, 0]).max() < 1e-9   # mid still fixes q1
    assert np.allclose(sol.q[10:20, 1], sol.q[9, 1])            # q2 stays where it was
    assert np.isnan(sol.marker_error[10:20, 0]).all()
    assert np.isfinite(sol.rms[10:20]).all() and set(sol.worst[10:20]) == {"mid"}


def test_locked_coordinate_keeps_its_value(r2):
    q = arm_motion(30)
    q[:, 1] = 0.3
    x = planar(q)
    sol = r2.inverse_kinematics(x, markers=[TIP, MID], locked={"joint2": 0.3},
                                q0=[0.0, -1.0], threads=1)
    assert np.all(sol.q[:, 1] == 0.3)
    assert np.abs(sol.q[:, 0] - q[:, 0]).max() < 1e-9


def test_range_holds_the_fit_at_its_bound(r2):
    q = np.array([[0.5, 0.0], [-0.5, 0.0], [0.1, 0.0]])
    x = planar(q)[:, 1:]                    # mid only: depends on q1 alone
    sol = r2.inverse_kinematics(x, markers=[MID], ranges={"joint1": (-0.2, 0.2)},
                                q0=[0.0, 0.0], threads=1)
    assert sol.q[:, 0] == pytest.approx([0.2, -0.2, 0.1], abs=1e-12)


def test_coordinate_task_trades_off_as_opensim(r2):
    """One marker fixing q1 exactly, a task pulling q1 elsewhere: the minimum of
    |x(q1) - t|^2 / w_total * w + u (q1 - r)^2 found by brute force."""
    q = np.array([[0.4, 0.0]])
    x = planar(q)[:, 1:]
    w, u, r = 3.0, 0.7, -0.3
    sol = r2.inverse_kinematics(x, markers=[MID], weights={"mid": w},
                                tasks={"joint1": (u, r)}, q0=[0.0, 0.0], threads=1)
    grid = np.linspace(-1, 1, 200001)
    f = (np.sum((planar(np.column_stack([grid, 0 * grid]))[:, 1] - x[0, 0]) ** 2, 1)
         + u * (grid - r) ** 2)                 # w / w_total = 1 with one marker
    assert sol.q[0, 0] == pytest.approx(grid[np.argmin(f)], abs=2e-5)


def test_floating_base_fit(r2):
    """A free-flying planar arm: the root's quaternion stays unit, the pose is recovered."""
    m = urdf2dyn.load(data_path("robot2r.urdf"), floating_base=True)
    rng = np.random.default_rng(1)
    q = np.zeros((5, m.nq))
    q[:, :3] = rng.normal(0, 0.3, (5, 3))
    quat = rng.normal(0, 1, (5, 4))
    q[:, 3:7] = quat / np.linalg.norm(quat, axis=1, keepdims=True)
    q[:, 7:] = rng.uniform(-1, 1, (5, 2))
    marks = [Marker(f"{link}{k}", link, tuple(rng.uniform(-0.5, 0.5, 3)))
             for link in ("link1", "link2") for k in range(3)]
    pos, rot = m.forward_kinematics(q)
    x = np.stack([pos[:, m.link_names.index(mk.link)]
                  + rot[:, m.link_names.index(mk.link)] @ np.array(mk.position) for mk in marks], 1)
    for s in range(5):      # each pose from a nearby start
        start = q[s].copy()
        start[:3] += 0.05
        start[7:] += 0.1
        sol = m.inverse_kinematics(x[s], markers=marks, q0=start, threads=1)
        assert sol.rms[0] < 1e-9
        assert np.linalg.norm(sol.q[3:7]) == pytest.approx(1.0, abs=1e-12)


FREE_ARM = """<robot name="free_arm"><link name="world"/>
<joint name="float" type="floating"><parent link="world"/><child link="link1"/></joint>
<link name="link1"><inertial><mass value="1"/>
<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="elbow" type="revolute"><parent link="link1"/><child link="link2"/>
<origin xyz="1 0 0"/><axis xyz="0 0 1"/>
<limit lower="-1.5" upper="1.5" effort="1" velocity="1"/></joint>
<link name="link2"><inertial><mass value="1"/>
<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>
"""


# FREE_ARM without its world and floating joint: a root that floats only under floating_base
FIXED_ARM = re.sub(r'<link name="world"/>\s*<joint name="float".*?</joint>\s*', "", FREE_ARM,
                   flags=re.S)


@pytest.mark.parametrize("source", ["floating_base", "floating_joint"])
def test_fit_of_a_floating_urdf_starts_from_a_unit_quaternion(source, tmp_path):
    """A URDF has no default pose; ik.fit's first-frame start took q = 0 for one, a zero
    quaternion for a floating root, and refused the fit ("zero or infinite norm"). It now
    starts from model.neutral() and recovers the pose, whether the root floats because of
    floating_base=True or because of the file's own <joint type="floating">. Both arms have
    a limited elbow: the second start (at mid-range) is only tried for a bounded coordinate."""
    if source == "floating_base":
        (tmp_path / "arm.urdf").write_text(FIXED_ARM)
        m = urdf2dyn.load(tmp_path / "arm.urdf", floating_base=True)
    else:
        (tmp_path / "free_arm.urdf").write_text(FREE_ARM)
        m = urdf2dyn.load(tmp_path / "free_arm.urdf")
    assert m.default_q is None
    assert m.nq == 8 and "elbow" in m.clamped_ranges
    rng = np.random.default_rng(4)
    q = m.neutral()[None, :].repeat(3, axis=0)
    q[:, :3] += rng.normal(0, 0.02, (3, 3))
    q[:, 7:] += rng.uniform(-0.1, 0.1, (3, m.nq - 7))
    marks = [Marker(f"{link}{k}", link, tuple(rng.uniform(-0.5, 0.5, 3)))
             for link in ("link1", "link2") for k in range(3)]
    pos, rot = m.forward_kinematics(q)
    x = np.stack([pos[:, m.link_names.index(mk.link)]
                  + rot[:, m.link_names.index(mk.link)] @ np.array(mk.position) for mk in marks], 1)
    data = Markers(time=np.arange(3) * 0.01, labels=[mk.name for mk in marks], xyz=x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        result = ik.fit(m, data, markers=marks)
    assert np.max(result.solution.rms) < 1e-6
    assert np.allclose(np.linalg.norm(result.motion.q[:, 3:7], axis=1), 1.0, atol=1e-12)


def test_the_fit_builds_the_markers_columns_at_its_start_once(monkeypatch):
    """ik.solve's first-frame helpers (a start outside a range; the mid-range start) each
    built every fitted marker's Jacobian at the start pose: 2 per marker on robot2r with
    ranges. Now they are built once per marker, and the fit is the closed form's as before."""
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    q = np.array([[0.4, 0.3], [0.45, 0.25]])
    data = Markers(0.01 * np.arange(2), ["tip", "mid"], planar(q), {})
    at_start = []
    jacobian = model.jacobian

    def counted(pose, *args, **kwargs):
        if np.ndim(pose) == 1:
            at_start.append(args[0] if args else kwargs.get("link"))
        return jacobian(pose, *args, **kwargs)
    monkeypatch.setattr(model, "jacobian", counted)
    res = ik.solve(model, data, markers=[TIP, MID], q0=np.zeros(2),
                   ranges={"joint1": (-1.0, 1.0), "joint2": (-1.0, 1.0)})
    assert sorted(at_start) == ["link1", "link2"]
    np.testing.assert_allclose(res.motion.q, q, atol=1e-9)


def test_frames_inside_a_long_recording_are_said_apart(r2):
    """A recording 10 000 s long at 1 kHz with the tip hidden in two frames inside it:
    ik.measured_frames says those frames are gaps, naming their times, printed with 6
    significant digits ("t = 10000, 10000 s"): two frames read the same. Now each time is
    printed with the digits that tell the frames apart. Oracle: the frames' own times."""
    q = arm_motion(6)
    x = planar(q)
    x[2:4, 0] = np.nan                      # the tip hidden: q2 unmeasured there
    data = Markers(10000.0 + 0.001 * np.arange(6), ["tip", "mid"], x, {})
    result = ik.solve(r2, data, markers=[TIP, MID], q0=q[0])
    _, said = ik.measured_frames(result, "walk.trc")
    assert len(said) == 1 and "2 frames inside the trial (t = 10000.002, 10000.003 s)" in said[0]


def test_the_fits_checks_say_a_long_recordings_frames_apart(r2, tmp_path):
    """What urdf2dyn ik says of its fit (urdf2dyn.biomech.plausibility: a step of more than
    half a turn, a marker error beyond OpenSim's best practice, an unclamped coordinate
    beyond its range) 10 000 s into a recording at 1 kHz: the frames' times were printed
    with 6 significant digits, "between t = 10000 and 10000 s". Now with the digits that
    tell them apart. Oracle: the frames' own times."""
    from urdf2dyn.biomech import plausibility
    t = 10000.0 + 0.001 * np.arange(6)
    q = np.zeros((6, 2))
    q[3:, 0] = 4.0                                          # a step of 4 rad, frames 2 .. 3
    [said] = plausibility.steps(r2, t, q, "walk.trc")
    assert "between t = 10000.002 and 10000.003 s" in said, said
    rms = np.where(np.arange(6) == 4, 0.03, 0.001)
    [said] = plausibility.ik_fit(t, rms, rms, [""] * 6, "walk.trc")
    assert "at t = 10000.004 s" in said, said
    import gzip
    with gzip.open(os.path.join(DATA, "leg39", "leg39.osim.gz")) as f:
        (tmp_path / "leg39.osim").write_bytes(f.read())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)     # its toes' inertia
        leg = urdf2dyn.load(os.fspath(tmp_path / "leg39.osim"))
    q = np.tile(leg.default_q, (6, 1))
    q[2:4, leg.q_names.index("pelvis_ty")] = 1.5         # beyond its unclamped range -1 .. 1
    [said] = plausibility.ik_ranges(leg, t, q, "walk.trc")
    assert "(t = 10000.002 .. 10000.003 s; 1.5 m at t = 10000.002 s)" in said, said


def test_frames_on_the_half_second_are_said_apart(r2):
    """A recording at 1 Hz whose frames fall on the half second, 12 345 677.5 s on (some 143
    days into a logger's clock), with a step of more than half a turn between its third and
    fourth frames: the digits chosen to tell its frames apart (8, the step's decade) printed
    "between t = 12345680 and 12345680 s", 12345679.5 and 12345680.5 both rounding to
    12345680. Now one digit more. Oracle: the frames' own times."""
    from urdf2dyn.biomech import plausibility
    t = 12345677.5 + np.arange(6)
    q = np.zeros((6, 2))
    q[3:, 0] = 4.0                                          # a step of 4 rad, frames 2 .. 3
    [said] = plausibility.steps(r2, t, q, "walk.trc")
    assert "between t = 12345679.5 and 12345680.5 s" in said, said


def test_a_coordinate_files_rows_out_of_order_are_said_apart():
    """A coordinate_file read through OpenSim's splines (processing opensim) whose rows at
    10 000 s, 1 ms apart, go back once: the refusal said "time 10000 s (row 3 of the table)
    does not follow 10000 s", two times that read the same. Now each with the digits that
    tell the file's rows apart. Oracle: the rows' own times."""
    time = 10000.0 + 0.001 * np.array([0, 2, 1, 3, 4, 5, 6])
    with pytest.raises(IKSetupError, match=r"coords.mot: time 10000.001 s \(row 3 of the "
                       r"table\) does not follow 10000.002 s"):
        ik._sample(time, np.zeros(7), time, "spline", "coords.mot", "ik")


def test_a_coordinate_files_rows_far_out_of_order_are_refused_naming_them():
    """A coordinate_file of two times, 1e308 s and -1e308 s, its time going back from the
    one to the other: the two are more than any float apart, and working out the digits that
    tell its rows apart ended in an OverflowError (a traceback) instead of the refusal naming
    the row (numpy's overflow warning said too). Oracle: the rows' own times, which 6
    digits print apart."""
    time = np.array([1e308, -1e308, -1e308, 1e308, 1e308, 1e308])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(IKSetupError, match=r"coords.mot: time -1e\+308 s \(row 2 of the "
                           r"table\) does not follow 1e\+308 s"):
            ik._sample(time, np.zeros(6), time, "spline", "coords.mot", "ik")


def test_markers_travel_with_a_pickled_model(r2):
    import pickle
    m = urdf2dyn.load(data_path("robot2r.urdf"))
    m.markers = [TIP, MID]
    m.locked_coordinates = {"joint2": 0.3}
    back = pickle.loads(pickle.dumps(m))
    assert back.markers == (TIP, MID) and back.locked_coordinates == {"joint2": 0.3}
    assert pickle.loads(pickle.dumps(r2)).markers == ()


def test_bad_arguments_are_named(r2):
    with pytest.raises(ValueError, match="targets: expected shape"):
        r2.inverse_kinematics(np.zeros((4, 3, 3)), markers=[TIP, MID])
    with pytest.raises(ValueError, match="link 'nolink'"):
        r2.inverse_kinematics(np.zeros((2, 3)), markers=[TIP, Marker("x", "nolink", (0, 0, 0))])
    with pytest.raises(ValueError, match="weights must be finite"):
        r2.inverse_kinematics(np.zeros((2, 3)), markers=[TIP, MID], weights={"tip": -1})
    with pytest.raises(ValueError, match="no coordinate 'knee'"):
        r2.inverse_kinematics(np.zeros((2, 3)), markers=[TIP, MID], tasks={"knee": (1, 0)})
    with pytest.raises(ValueError, match="no model marker named"):
        r2.inverse_kinematics({"toe": np.zeros(3)}, markers=[TIP, MID])
    with pytest.raises(ValueError, match="lower bound is above"):
        r2.inverse_kinematics(np.zeros((2, 3)), markers=[TIP, MID], ranges={"joint1": (1, 0)})
    with pytest.raises(ValueError, match="q0: expected 2 finite numbers"):
        r2.inverse_kinematics(np.zeros((2, 3)), markers=[TIP, MID], q0=[np.nan, 0])
    with pytest.raises(ValueError, match=r"tasks\['joint1'\]: values must be finite"):
        r2.inverse_kinematics(np.zeros((2, 3)), markers=[TIP, MID], tasks={"joint1": (1, np.nan)})
    with pytest.raises(ValueError, match=r"one per frame \(3\)"):
        r2.inverse_kinematics(np.zeros((3, 2, 3)), markers=[TIP, MID],
                              tasks={"joint1": (1, [0, 1])})
    with pytest.raises(ValueError, match="ik: the model has no markers"):
        ik.solve(r2, Markers(np.zeros(1), ["a"], np.zeros((1, 1, 3))))
    with pytest.raises(TypeError, match="expected urdf2dyn.biomech.markers.Markers"):
        ik.solve(r2, {"a": np.zeros((1, 3))})


# ---------------------------------------------------------------- OpenSim's IK tool

@pytest.fixture(scope="module")
def arm7_case(tmp_path_factory):
    pytest.importorskip("opensim")
    folder = tmp_path_factory.mktemp("ik_arm7")
    case = ik_oracle.build_case(
        os.fspath(folder), data_path("arm7.urdf"), nframe=60,
        lock=("arm7_joint7", 0.3), clamp=("arm7_joint1", -0.3, 0.5),
        task=("arm7_joint5", 1e-3, 0.2))
    ik_oracle.run_opensim(case.setup)
    return case


def opensim_result(case):
    return (read_opensim(os.path.join(case.folder, "opensim_ik.mot")),
            ik_oracle.read_errors(os.path.join(case.folder, "case_ik_marker_errors.sto")))


def test_equals_opensim_ik_tool(arm7_case, tmp_path):
    model = ik_oracle.urdf_model(arm7_case)
    with poor_fit_said(read_ik_setup(arm7_case.setup).marker_file, LARGEST_4CM) as counted:
        res = ik.run_setup(arm7_case.setup, output=os.fspath(tmp_path / "ours.mot"),
                           model=model, read_marker_file=ik_oracle.read_trc)
    theirs, errors = opensim_result(arm7_case)
    # the frames said to miss the band are those OpenSim's own error report puts beyond it
    assert counted == beyond_the_band(errors)
    q_theirs = theirs.q[:, [theirs.names.index(n) for n in model.q_names]]
    assert np.allclose(theirs.time, res.motion.time)
    d = np.degrees(res.motion.q - q_theirs)
    assert np.sqrt(np.mean(d ** 2, axis=0)).max() < 0.1
    assert np.abs(d).max() < 0.5
    assert np.all(res.solution.rms <= errors[:, 2] + 1e-4)
    # the case exercises every rule: a locked coordinate, a bound reached, a gap
    assert np.all(res.motion.q[:, 6] == 0.3)
    assert np.isclose(res.motion.q[:, 0], 0.5).any()
    assert np.isnan(res.solution.marker_error).any()
    # what was written: OpenSim's .mot (degrees) and its marker-error report
    mot = read_opensim(tmp_path / "ours.mot", model=model)
    assert mot.meta["in_degrees"] and np.allclose(mot.q, res.motion.q, atol=1e-12)
    ours_err = ik_oracle.read_errors(os.fspath(tmp_path / "ours_urdf2dyn_marker_errors.sto"))
    assert np.allclose(ours_err[:, 2], res.solution.rms)


def test_cli_ik_setup(tmp_path_factory, tmp_path, capsys):
    """urdf2dyn ik --setup with --model URDF --markers CSV: a URDF has no default pose but
    q = 0, so the case starts there (OpenSim starts at the .osim's default pose). The motion
    from q = 0 takes joints 4 and 6 beyond the URDF's limits, which bind the URDF's fit: the
    oracle's .osim has them clamped too."""
    pytest.importorskip("opensim")
    case = ik_oracle.build_case(os.fspath(tmp_path_factory.mktemp("ik_cli")),
                                data_path("arm7.urdf"), nframe=40, from_zero=True, seed=3)
    ik_oracle.clamp_urdf_limits(case)
    ik_oracle.run_opensim(case.setup)
    out = tmp_path / "cli.mot"
    status = cli.main(["ik", "--setup", case.setup, "--model", case.urdf,
                       "--markers", case.markers_csv, "-o", os.fspath(out)])
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "40 frames" in printed.out and "marker error: RMS" in printed.out
    theirs, errors = opensim_result(case)
    model = urdf2dyn.load(case.urdf)
    ours = read_opensim(out, model=model)
    q_theirs = theirs.q[:, [theirs.names.index(n) for n in model.q_names]]
    for name, (lower, upper) in model.clamped_ranges.items():
        k = model.q_names.index(name)
        assert np.all((ours.q[:, k] >= lower - 1e-9) & (ours.q[:, k] <= upper + 1e-9)), name
    # joint4 at its stop holds the arm straight, where joints 3 and 5 turn about one axis:
    # a bound there is a weak oracle (docs/ik.rst), both fits reach the same objective and
    # the coordinates differ by up to 0.52 deg RMS, 2.09 deg at most (joint3). So the test
    # is the objective (ours no higher than OpenSim's in any frame); coordinates only bounded.
    model.markers = read_markers(case.markers_csv, model)
    data = ik_oracle.read_trc(os.path.join(case.folder, "markers.trc"))
    cost = [_weighted_cost(model, q, data, case.weights) for q in (ours.q, q_theirs)]
    assert np.all(cost[0] <= cost[1] * (1 + 1e-6) + 1e-10), np.max(cost[0] - cost[1])
    d = np.degrees(ours.q - q_theirs)
    assert np.sqrt(np.mean(d ** 2, axis=0)).max() < 1.0 and np.abs(d).max() < 3.0
    cli_err = ik_oracle.read_errors(os.fspath(tmp_path / "cli_urdf2dyn_marker_errors.sto"))
    assert np.all(cli_err[:, 2] <= errors[:, 2] + 1e-4)


def _weighted_cost(model, q, data, weights):
    """(N,) OpenSim's IK objective at q: the weighted sum of squared marker errors over the
    markers present (model.markers placed by forward kinematics)."""
    pos, rot = model.forward_kinematics(q)
    cost = np.zeros(len(q))
    for m in model.markers:
        link = model.link_names.index(m.link)
        where = pos[:, link] + rot[:, link] @ np.asarray(m.position)
        e = np.sum((where - data.xyz[:, data.labels.index(m.name)]) ** 2, axis=1)
        cost += weights[m.name] * np.where(np.isfinite(e), e, 0.0)
    return cost


def test_cli_errors_are_one_line(tmp_path, capsys):
    bad = tmp_path / "Setup_IK.xml"
    bad.write_text("<OpenSimDocument><Nothing/></OpenSimDocument>")
    assert cli.main(["ik", "--setup", os.fspath(bad)]) == 1
    err = capsys.readouterr().err
    assert "urdf2dyn ik: error:" in err and "InverseKinematicsTool" in err
    assert cli.main(["ik", "--setup", os.fspath(bad), "--markers", "m.csv"]) == 1
    assert "--markers needs --model" in capsys.readouterr().err


@pytest.mark.parametrize("taskset, said", [
    ("", "<IKTaskSet> is empty or missing"),
    ("<IKTaskSet><objects/></IKTaskSet>", "<IKTaskSet> is empty or missing"),
    ('<IKTaskSet><objects><IKCoordinateTask name="knee"><apply>true</apply></IKCoordinateTask>'
     '</objects></IKTaskSet>', "has 1 coordinate task(s) but no IKMarkerTask"),
    ('<IKTaskSet><objects><IKMarkerTask name="A"><apply>false</apply></IKMarkerTask>'
     '<IKMarkerTask name="B"><weight>0</weight></IKMarkerTask></objects></IKTaskSet>',
     "applies none of its 2 IKMarkerTasks: 1 not applied (<apply>false</apply>: A), 1 of "
     "weight 0 (B)"),
], ids=["missing", "empty", "coordinates only", "none applied"])
def test_a_setup_without_marker_tasks_is_named(tmp_path, capsys, taskset, said):
    """A setup whose IKTaskSet fits no marker used to end in 'no marker of the model is both
    in the recording and weighted', naming neither the setup nor its task set."""
    setup = tmp_path / "Setup_IK.xml"
    setup.write_text('<?xml version="1.0"?><OpenSimDocument Version="40000">'
                     f'<InverseKinematicsTool name="t"><model_file>m.osim</model_file>'
                     f'<marker_file>walk.trc</marker_file>{taskset}'
                     '</InverseKinematicsTool></OpenSimDocument>')
    with pytest.raises(IKSetupError) as e:
        ik.run_setup(setup)
    assert str(e.value).startswith(f"{setup}: <IKTaskSet> ") and said in str(e.value)
    assert "add one per marker to fit" in str(e.value)
    assert cli.main(["ik", "--setup", os.fspath(setup)]) == 1
    assert said in capsys.readouterr().err


#: setups leaving the run a model or a marker recording to give: (model_file,
#: marker_file, what the refusal says, the keyword of run_setup and the flag of ik it advises)
UNGIVEN = {
    "no model": ("", "walk.trc", "<model_file> is not set (empty or Unassigned): give the "
                 "model", "model", "--model"),
    "a model that cannot be loaded": ("m.osim", "walk.trc", "m.osim: cannot be loaded",
                                      "model", "--model"),
    "no marker file": ("robot2r.urdf", "", "<marker_file> is not set (empty or Unassigned): "
                       "give the marker recording", "marker_file", "--marker-file")}


@pytest.mark.parametrize("caller", ["library", "ik"])
@pytest.mark.parametrize("case", sorted(UNGIVEN))
def test_a_setup_leaving_the_model_or_markers_to_give_advises_the_callers_option(
        tmp_path, monkeypatch, capsys, case, caller):
    """A setup naming no model, one that cannot be loaded, or no marker recording was refused
    advising `urdf2dyn ik --model` or `--marker-file` to run_setup's callers too, who pass
    model= and marker_file=: each caller is now told its own option (run_setup's signature,
    ik's parser)."""
    model_file, marker_file, said, keyword, flag = UNGIVEN[case]
    robot2r_ik_case.write_case(tmp_path)
    (tmp_path / "m.osim").write_text("not a model")
    shutil.copy(data_path("robot2r.urdf"), tmp_path / "robot2r.urdf")
    (tmp_path / "s.xml").write_text(robot2r_ik_case.SETUP.replace(
        "<model_file>m.osim", f"<model_file>{model_file}").replace(
        "<marker_file>walk.trc", f"<marker_file>{marker_file}"))
    monkeypatch.chdir(tmp_path)
    if caller == "library":
        with pytest.raises(IKSetupError) as refused:
            ik.run_setup("s.xml", output="")
        message = str(refused.value)
        assert_says_the_keyword(message, ik.run_setup, keyword)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
            assert cli.main(["ik", "--setup", "s.xml"]) == 1
        message = " ".join(capsys.readouterr().err.split())
        ik_flags = {f for a in cli.build_parser()._subparsers._group_actions[0].choices["ik"]
                    ._actions for f in a.option_strings}
        assert flag in message and flags_named(message) <= ik_flags, message
        assert f"{keyword}=" not in message, message
    assert said in message, message


# ---------------------------------------------------------------- published cases

RMS_2CM, LARGEST_4CM = "marker RMS above 2 cm", "largest marker error above 4 cm"


@contextlib.contextmanager
def poor_fit_said(trc, *kinds):
    """Expect a run's warnings to be exactly its poor-fit warnings of these kinds (RMS_2CM,
    LARGEST_4CM), each naming the marker file trc: published trials fit beyond OpenSim's
    best-practice band, and ik rightly says so. Yields the list of frames counted, as
    {kind: (frames beyond, frames)}."""
    counted = {}
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        yield counted
    fit = re.compile(rf"{re.escape(os.fspath(trc))}: inverse kinematics: ({RMS_2CM}|"
                     rf"{LARGEST_4CM}) in (\d+) of (\d+) frames")
    for w in said:
        m = fit.match(str(w.message))
        assert issubclass(w.category, Urdf2dynWarning) and m, str(w.message)
        counted[m[1]] = int(m[2]), int(m[3])
    assert sorted(counted) == sorted(kinds), [str(w.message) for w in said]


def beyond_the_band(errors):
    """From OpenSim's marker-error report (read_errors): {kind: (frames beyond, frames)} of
    the kinds it has frames beyond, as poor_fit_said counts them."""
    n = len(errors)
    counts = {RMS_2CM: (int((errors[:, 2] > 0.02).sum()), n),
              LARGEST_4CM: (int((errors[:, 3] > 0.04).sum()), n)}
    return {k: c for k, c in counts.items() if c[0]}


DATA = os.path.join(os.path.dirname(__file__), "..", "data", "ik")


def load_osim(path):
    """The .osim model read by urdf2dyn.load (any exception fails the test), its
    model.markers the MarkerSet OpenSim reads in the file, by name and in order."""
    osim = pytest.importorskip("opensim")
    model = urdf2dyn.load(path)
    theirs = osim.Model(path)
    markers = theirs.getMarkerSet()
    assert [m.name for m in model.markers] == [markers.get(i).getName()
                                               for i in range(markers.getSize())]
    assert model.markers
    return model


def test_published_gait2392(tmp_path):
    """opensim-models' Gait2392 subject01_walk1: its scaled model, markers and IK setup
    unchanged; OpenSim's IK tool (at the setup's accuracy 1e-5 and at 1e-8) against ours."""
    osim = pytest.importorskip("opensim")
    import shutil
    folder = tmp_path / "gait2392"
    shutil.copytree(os.path.join(DATA, "gait2392"), folder)
    setup = os.fspath(folder / "subject01_Setup_IK.xml")
    model = load_osim(os.fspath(folder / "subject01_simbody.osim"))
    tight = folder / "tight_Setup_IK.xml"
    tool = osim.InverseKinematicsTool(setup)
    tool.set_accuracy(1e-8)
    tool.setOutputMotionFileName("opensim_tight.mot")
    tool.printToXML(os.fspath(tight))
    ik_oracle.run_opensim(os.fspath(tight))
    theirs = read_opensim(folder / "opensim_tight.mot", model=model)
    errors = ik_oracle.read_errors(os.fspath(folder / "subject01_ik_marker_errors.sto"))
    with poor_fit_said(folder / "subject01_walk1.trc", RMS_2CM, LARGEST_4CM) as counted:
        res = ik.run_setup(setup, output=os.fspath(folder / "ours.mot"), model=model,
                           read_marker_file=ik_oracle.read_trc)
    assert counted == beyond_the_band(errors)
    cols = [theirs.names.index(n) for n in model.q_names]
    rot = np.flatnonzero(angle_columns(model.q_names, model))        # OpenSim's rotational
    assert len(rot) > 15
    d = np.degrees(res.motion.q[:, rot] - theirs.q[:, cols][:, rot])
    print(f"\nGait2392 walk: {len(d)} frames; coordinates ours - OpenSim: RMS <= "
          f"{np.sqrt(np.mean(d ** 2, axis=0)).max():.2e} deg, max {np.abs(d).max():.2e} deg; "
          f"marker RMS mean ours {1e3 * res.solution.rms.mean():.4f} mm, OpenSim "
          f"{1e3 * errors[:, 2].mean():.4f} mm")
    assert np.sqrt(np.mean(d ** 2, axis=0)).max() < 0.1 and np.abs(d).max() < 0.5
    assert np.all(res.solution.rms <= errors[:, 2] + 1e-4)


def test_a_poor_fit_is_warned_about_as_the_trial_pipeline_warns(tmp_path):
    """urdf2dyn ik said nothing however far the model's markers stayed from the measured ones
    (the OpenSim tutorial's arm26 trial on OpenSim 4's arm26.osim: 0.78 m RMS, exit 0), where
    urdf2dyn torques and animate warn on the same recording (OpenSim's best-practice bands,
    plausibility.ik_fit). Gait2392's walk, 4 frames: OpenSim's own IK tool reports a largest
    marker error above 4 cm, and urdf2dyn ik warns with the same figure; strict refuses."""
    pytest.importorskip("opensim")
    import shutil
    folder = tmp_path / "gait2392"
    shutil.copytree(os.path.join(DATA, "gait2392"), folder)
    setup = folder / "subject01_Setup_IK.xml"
    setup.write_text(re.sub(r"<time_range>[^<]*</time_range>",
                            "<time_range>0.5 0.55</time_range>", setup.read_text()))
    ik_oracle.run_opensim(os.fspath(setup))
    theirs = ik_oracle.read_errors(os.fspath(folder / "subject01_ik_marker_errors.sto"))
    assert theirs[:, 3].max() > 0.04
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ik.run_setup(os.fspath(setup), output=os.fspath(folder / "ours.mot"))
    said = [str(w.message) for w in caught if issubclass(w.category, Urdf2dynWarning)
            and "largest marker error above 4 cm" in str(w.message)]
    assert len(said) == 1 and "subject01_walk1.trc" in said[0], said
    up_to = float(re.search(r"up to ([\d.]+) mm", said[0]).group(1))
    assert up_to == pytest.approx(1e3 * theirs[:, 3].max(), abs=1.0)
    with pytest.raises(IKSetupError, match="inverse kinematics: marker RMS above 2 cm"):
        ik.run_setup(os.fspath(setup), output=os.fspath(folder / "strict.mot"), strict=True)


def _written(folder, before):
    """The files under folder that are not in before (relative paths; OpenSim's log out)."""
    return sorted(os.path.relpath(os.path.join(d, f), folder)
                  for d, _, files in os.walk(folder) for f in files
                  if os.path.relpath(os.path.join(d, f), folder) not in before
                  and f != "opensim.log")


def test_results_directory_as_opensim(tmp_path, capsys):
    """The published Gait2392 IK setup with results_directory "Results" and the output motion
    in it (as Hamner's published Setup_IK.xml has them), run from a fresh folder: OpenSim's IK
    tool creates the results directory and writes the marker errors there; urdf2dyn ik
    --setup writes the motion and its marker errors at the same places, the errors under our
    own name (before, it refused the missing folder and put the errors beside the motion).
    OpenSim 4.6 creates the folder only after writing the motion, so its first run in a fresh
    folder loses the motion ("failed to open"): it runs here with the folder made, ours
    without."""
    osim = pytest.importorskip("opensim")
    import shutil
    runs = {}
    for who in ("opensim", "ours"):
        folder = tmp_path / who
        shutil.copytree(os.path.join(DATA, "gait2392"), folder)
        tool = osim.InverseKinematicsTool(os.fspath(folder / "subject01_Setup_IK.xml"))
        tool.setResultsDir("Results")
        tool.setOutputMotionFileName("Results/walk_ik.mot")
        tool.setStartTime(0.5)
        tool.setEndTime(0.6)
        tool.printToXML(os.fspath(folder / "setup.xml"))
        before = set(_written(folder, set()))
        if who == "opensim":
            os.makedirs(folder / "Results")
            ik_oracle.run_opensim(os.fspath(folder / "setup.xml"))
        else:
            assert cli.main(["ik", "--setup", os.fspath(folder / "setup.xml")]) == 0
        runs[who] = (folder, _written(folder, before))
    printed = capsys.readouterr().out
    theirs_errors = os.path.join("Results", "subject01_ik_marker_errors.sto")
    ours_errors = os.path.join("Results", "walk_ik_urdf2dyn_marker_errors.sto")
    assert runs["opensim"][1] == sorted([os.path.join("Results", "walk_ik.mot"), theirs_errors])
    assert runs["ours"][1] == sorted([os.path.join("Results", "walk_ik.mot"), ours_errors])
    for name in runs["ours"][1]:                    # the paths written, as the summary says
        assert os.fspath(runs["ours"][0] / name) in printed
    ours = ik_oracle.read_errors(os.fspath(runs["ours"][0] / ours_errors))
    theirs = ik_oracle.read_errors(os.fspath(runs["opensim"][0] / theirs_errors))
    assert np.allclose(ours[:, 0], theirs[:, 0]) and len(ours) == 7
    assert np.all(ours[:, 2] <= theirs[:, 2] + 1e-4)


def test_columns_in_opensims_coordinate_order(tmp_path):
    """OpenSim's IK tool writes the coordinates in its CoordinateSet's order (the joints as the
    file lists them), not in the multibody tree's or urdf2dyn's q order: model.
    coordinate_set_order is OpenSim's on every published model, the published IK outputs of
    opensim-models (Gait10dof18musc, Hamner) have their columns so, and urdf2dyn ik --setup on
    the published Gait2392 setup writes the header of OpenSim's IK tool on the same setup
    (before: pelvis, lumbar, left leg, right leg, where OpenSim has the right leg first)."""
    osim = pytest.importorskip("opensim")
    import glob
    import gzip
    import shutil
    root = os.path.join(os.path.dirname(__file__), "..", "data")
    models = sorted(glob.glob(os.path.join(root, "opensim_models", "**", "*.osim"),
                              recursive=True) + glob.glob(os.path.join(root, "ik", "*", "*.osim"))
                    + glob.glob(os.path.join(root, "real_lab", "model", "*.osim")))
    for k, path in enumerate(sorted(glob.glob(os.path.join(root, "**", "*.osim.gz"),
                                              recursive=True))):
        models.append(os.fspath(tmp_path / f"unzipped{k}.osim"))
        with gzip.open(path) as f:
            Path(models[-1]).write_bytes(f.read())
    osim.Logger.setLevelString("error")
    assert len(models) > 20
    for path in models:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)
            ours = urdf2dyn.load(path)
        theirs = osim.Model(path)                   # alive while its set is read
        cs = theirs.getCoordinateSet()
        assert ours.coordinate_set_order == tuple(cs.get(i).getName() for i in range(cs.getSize()))

    def header(path):
        with open(path, encoding="utf-8") as f:
            return f.read().split("endheader", 1)[1].split()[:1 + len(model.q_names)]

    for published, osim_file in (
            (("Gait10dof18musc", "IK", "subject01_walk_IK.mot"), ("Gait10dof18musc", "subject01.osim")),
            (("Hamner", "subject02_running_ik.mot"), ("Hamner", "FullBodyModel_Hamner2010_v2_0.osim"))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)
            model = urdf2dyn.load(os.path.join(PUBLISHED, *osim_file))
        assert header(os.path.join(PUBLISHED, *published)) == ["time", *model.coordinate_set_order]

    folder = tmp_path / "gait2392"
    shutil.copytree(os.path.join(DATA, "gait2392"), folder)
    tool = osim.InverseKinematicsTool(os.fspath(folder / "subject01_Setup_IK.xml"))
    tool.setStartTime(0.5)
    tool.setEndTime(0.55)
    for who in ("opensim", "ours"):
        tool.setOutputMotionFileName(f"{who}.mot")
        tool.printToXML(os.fspath(folder / f"{who}.xml"))
    ik_oracle.run_opensim(os.fspath(folder / "opensim.xml"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        model = urdf2dyn.load(os.fspath(folder / "subject01_simbody.osim"))
        ik.run_setup(os.fspath(folder / "ours.xml"))
    theirs = header(folder / "opensim.mot")
    assert header(folder / "ours.mot") == theirs != ["time", *model.q_names]
    a = read_opensim(folder / "ours.mot", model=model)
    b = read_opensim(folder / "opensim.mot", model=model)
    assert a.names == b.names and np.abs(np.degrees(a.q - b.q)).max() < 0.5


PUBLISHED = os.path.join(os.path.dirname(__file__), "..", "data", "opensim_models")


def scaled_here(tmp_path_factory, name, scale_setup, generic, sub="."):
    """The published files of tests/data/ik/<name> copied to a fresh folder and the subject's
    model made there by urdf2dyn's scaling (urdf2dyn.biomech.scale.run_setup) on the
    published scale setup from the generic model (a path under tests/data/opensim_models; the
    scaled models are not published). That scaling equals OpenSim 4.6's ScaleTool on these
    very setups (tests/biomech/test_scale.py); OpenSim's IK tool below loads its output."""
    import shutil
    from urdf2dyn.biomech import scale
    from urdf2dyn.biomech.formats.scale_setup import read_scale_setup
    folder = tmp_path_factory.mktemp(name.lower())
    shutil.copytree(os.path.join(DATA, name.lower()), folder, dirs_exist_ok=True)
    setup = read_scale_setup(folder / sub / scale_setup)
    setup.model_file = os.path.abspath(os.path.join(PUBLISHED, generic))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)    # the generic model's notes
        scale.run_setup(setup)
    return folder


def ik_by_opensim(folder, setup, model_file, time_range, marker_file=None):
    """The published IK setup with the scaled model, a time range and (optionally) another
    marker file, written by OpenSim's API twice: as the user runs it (ours) and at accuracy
    1e-8 (OpenSim's, run here). OpenSim's optimizer stops at its accuracy, up to a degree
    short of its own converged answer on badly conditioned fits, where urdf2dyn always
    converges (docs/ik.rst); at 1e-8 both reach the same minimum."""
    import opensim as osim
    tool = osim.InverseKinematicsTool(os.fspath(folder / setup))
    tool.set_model_file(model_file)
    if marker_file:
        tool.setMarkerDataFileName(marker_file)
    tool.setStartTime(time_range[0])
    tool.setEndTime(time_range[1])
    tool.setResultsDir(".")
    tool.setOutputMotionFileName("ours.mot")
    ours = folder / f"ours_{setup}"
    tool.printToXML(os.fspath(ours))
    tool.set_accuracy(1e-8)
    tool.setOutputMotionFileName("opensim_tight.mot")
    tight = folder / f"tight_{setup}"
    tool.printToXML(os.fspath(tight))
    ik_oracle.run_opensim(os.fspath(tight))
    errors = ik_oracle.read_errors(os.fspath(folder / f"{tool.getName()}_ik_marker_errors.sto"))
    os.replace(folder / f"{tool.getName()}_ik_marker_errors.sto", folder / "opensim_errors.sto")
    return os.fspath(ours), errors


def opensim_from(folder, setup, model_file, model, q):
    """OpenSim's IK tool on its tight setup (ik_by_opensim) from the pose q of ours (the
    model's default pose set to it, so that OpenSim's first frame starts there): does
    OpenSim stay at our minimum? Writes opensim_from_ours.mot; returns its marker errors."""
    import opensim as osim
    m = osim.Model(os.fspath(folder / model_file))
    cs = m.getCoordinateSet()
    for name, x in zip(model.q_names, q):
        if cs.contains(name):
            cs.get(name).setDefaultValue(float(x))
    m.printToXML(os.fspath(folder / "from_ours.osim"))
    tool = osim.InverseKinematicsTool(os.fspath(folder / f"tight_{setup}"))
    tool.set_model_file("from_ours.osim")
    tool.setOutputMotionFileName("opensim_from_ours.mot")
    tool.printToXML(os.fspath(folder / f"from_ours_{setup}"))
    ik_oracle.run_opensim(os.fspath(folder / f"from_ours_{setup}"))
    return ik_oracle.read_errors(os.fspath(folder / f"{tool.getName()}_ik_marker_errors.sto"))


def compare_with_opensim(folder, setup, model, errors, case, motion="opensim_tight.mot",
                         res=None):
    """Ours through ik.run_setup (urdf2dyn's own .trc reader; res if already run) against
    OpenSim's motion: (per-coordinate RMS, max) in degrees over the rotational coordinates,
    marker RMS ours minus OpenSim's per frame (m). The table is printed (pytest -s shows
    it)."""
    theirs = read_opensim(folder / motion, model=model)
    res = res or ik.run_setup(setup, model=model)
    assert np.allclose(res.motion.time, theirs.time, atol=1e-6)
    cols = [theirs.names.index(n) for n in model.q_names]
    rot = np.flatnonzero(angle_columns(model.q_names, model))
    d = np.degrees(res.motion.q[:, rot] - theirs.q[:, cols][:, rot])
    rms, mx = np.sqrt(np.mean(d ** 2, axis=0)), np.abs(d).max(axis=0)
    ours, osim = res.solution.rms, errors[:, 2]
    k = int(np.argmax(mx))
    print(f"\n{case}: {len(ours)} frames, {len(rot)} rotational coordinates; coordinates "
          f"ours - OpenSim: RMS <= {rms.max():.2e} deg, max {mx.max():.2e} deg "
          f"({model.q_names[rot[k]]}); marker RMS mean ours {1e3 * ours.mean():.4f} mm, "
          f"OpenSim {1e3 * osim.mean():.4f} mm, largest excess {1e3 * (ours - osim).max():+.4f} mm")
    return rms, mx, ours - osim


@pytest.fixture(scope="module")
def hamner(tmp_path_factory):
    """Hamner's running trial (opensim-models Pipelines/Hamner): the generic
    FullBodyModel_Hamner2010_v2_0 scaled and its markers placed by urdf2dyn's scaling on
    Setup_Scale.xml with subject02_static.trc (-> subject02_registered.osim, the model the
    published IK setup means: it names it subject01_registered.osim), then Setup_IK.xml over
    one right stride (heel strike 1.117 s to the next, 1.783 s)."""
    folder = scaled_here(tmp_path_factory, "Hamner", "Setup_Scale.xml",
                               os.path.join("Hamner", "FullBodyModel_Hamner2010_v2_0.osim"))
    trial = os.path.abspath(os.path.join(PUBLISHED, "Hamner", "subject02_running.trc"))
    setup, errors = ik_by_opensim(folder, "Setup_IK.xml", "subject02_registered.osim",
                                  (1.117, 1.783), marker_file=trial)
    return folder, setup, errors


def test_published_hamner_running(hamner):
    folder, setup, errors = hamner
    model = load_osim(os.fspath(folder / "subject02_registered.osim"))
    assert len(model.markers) > 40 and model.locked_coordinates   # arms, locked wrists
    with poor_fit_said(read_ik_setup(setup).marker_file, RMS_2CM, LARGEST_4CM) as counted:
        rms, mx, dmarker = compare_with_opensim(folder, setup, model, errors, "Hamner running")
    assert counted == beyond_the_band(errors)
    assert len(rms) > 30 and len(errors) == 41
    assert rms.max() < 0.1 and mx.max() < 0.5
    assert np.all(dmarker <= 1e-4)


@pytest.fixture(scope="module")
def rajagopal(tmp_path_factory):
    """Rajagopal's static trial (opensim-models Pipelines/Rajagopal, walking subject): the
    generic Rajagopal2016 model (Models/Rajagopal; its scale factors from this setup equal the
    published Scale/scaleSet_applied_walk.xml) scaled and its markers placed by urdf2dyn's
    scaling on Scale/scale_setup_walk_scaleOnly.xml with static_walk_1.trc (the pipeline's
    scaling step; scale_setup_walk.xml only re-places markers on that output). Then the
    pipeline's own IK setup, IK/ik_setup_walk.xml, on the static trial: what a Rajagopal user
    runs to check a scaled model (the IK task weights chosen for this marker set, the model
    the setup names); three frames, as OpenSim's constrained solve takes ~8 s a frame.
    OpenSim runs twice, at accuracy 1e-8 and 1e-11: the second tells which coordinates its
    answer determines (below)."""
    import opensim as osim
    folder = scaled_here(tmp_path_factory, "Rajagopal", "scale_setup_walk_scaleOnly.xml",
                               os.path.join("Models", "Rajagopal2016.osim"), sub="Scale")
    ik = folder / "IK"
    setup, errors = ik_by_opensim(ik, "ik_setup_walk.xml", "../Scale/subject_scaled_walk.osim",
                                  (0.0, 0.02), marker_file="../ExpData/static_walk_1.trc")
    tool = osim.InverseKinematicsTool(os.fspath(ik / "tight_ik_setup_walk.xml"))
    tool.set_accuracy(1e-11)
    tool.setOutputMotionFileName("opensim_1e-11.mot")
    tool.printToXML(os.fspath(ik / "tighter_ik_setup_walk.xml"))
    ik_oracle.run_opensim(os.fspath(ik / "tighter_ik_setup_walk.xml"))
    errors_11 = ik_oracle.read_errors(os.fspath(ik / f"{tool.getName()}_ik_marker_errors.sto"))
    return ik, setup, errors, errors_11


def test_published_rajagopal_static(rajagopal):
    """The arms and forearms of this static pose are not determined by OpenSim's answer: at
    accuracy 1e-8 and 1e-11 its IK tool ends in different minima (arm_flex_l -88.6 deg and
    +56.5 deg, pro_sup_l 60 and 66 deg; marker RMS 20.36 and 20.46 mm). So the coordinates are
    compared where OpenSim's two answers agree (the legs, pelvis and trunk), and everywhere
    our fit must be as good as OpenSim's best: marker RMS no more than 0.1 mm above it in any
    frame. Ours starts the first frame from the default pose and from mid-range and keeps the
    better (biomech.ik). On the model scaled here (markers placed at the converged minimum,
    not where OpenSim's placer stops) ours reaches 20.12 mm where OpenSim's two runs stop at
    20.24 mm with the left arm turned 148 deg away: so OpenSim runs a third time from our
    answer, stays there (the compared coordinates within 0.1 deg), and ours is compared
    with that run."""
    folder, setup, errors, errors_11 = rajagopal
    model = load_osim(os.fspath(folder.parent / "Scale" / "subject_scaled_walk.osim"))
    assert len(model.markers) > 60
    with poor_fit_said(read_ik_setup(setup).marker_file, RMS_2CM, LARGEST_4CM) as counted:
        res = ik.run_setup(setup, model=model)
    assert counted == beyond_the_band(errors)
    errors_from = opensim_from(folder, "ik_setup_walk.xml", "../Scale/subject_scaled_walk.osim",
                               model, res.motion.q[0])
    rms, mx, dmarker = compare_with_opensim(folder, setup, model, errors_from,
                                            "Rajagopal static", "opensim_from_ours.mot", res)
    assert len(errors) == len(errors_11) == len(errors_from) == 3
    best = np.minimum(np.minimum(errors[:, 2], errors_11[:, 2]), errors_from[:, 2])
    assert np.all(dmarker + errors_from[:, 2] <= best + 1e-4)
    a = read_opensim(folder / "opensim_tight.mot", model=model)
    b = read_opensim(folder / "opensim_1e-11.mot", model=model)
    rot = np.flatnonzero(angle_columns(model.q_names, model))
    qa = a.q[:, [a.names.index(model.q_names[k]) for k in rot]]
    qb = b.q[:, [b.names.index(model.q_names[k]) for k in rot]]
    determined = np.degrees(np.abs(qa - qb)).max(axis=0) < 0.1         # the test's tolerance
    undetermined = [model.q_names[k] for k in rot[~determined]]
    print(f"Rajagopal static: OpenSim's answers at 1e-8 and 1e-11 differ by >= 0.1 deg in "
          f"{undetermined}")
    assert determined.sum() >= 20 and not any(n.startswith(("hip", "knee", "ankle", "pelvis"))
                                              for n in undetermined)
    assert rms[determined].max() < 0.1 and mx[determined].max() < 0.5


def test_coordinate_couplers_read_as_opensim_reads_them():
    """Rajagopal2016's patellofemoral CoordinateCouplerConstraints, from our .osim reader and
    from OpenSim's API: dependent, independent, scale factor x the LinearFunction's slope and
    intercept."""
    osim = pytest.importorskip("opensim")
    path = os.path.join(PUBLISHED, "Models", "Rajagopal2016.osim")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        model = urdf2dyn.load(path)
    theirs = []
    om = osim.Model(path)               # kept: the set lives in it
    cs = om.getConstraintSet()
    for i in range(cs.getSize()):
        c = osim.CoordinateCouplerConstraint.safeDownCast(cs.get(i))
        if c is None or not c.get_isEnforced():
            continue
        f = osim.LinearFunction.safeDownCast(c.getFunction())
        scale = float(c.getPropertyByName("scale_factor").toString())
        theirs.append((c.getDependentCoordinateName(), c.getIndependentCoordinateNames().get(0),
                       scale * f.getSlope(), scale * f.getIntercept()))
    assert len(theirs) == 2
    assert [(c.dependent, c.independent) for c in model.couplers] == [t[:2] for t in theirs]
    q = model.default_q + np.random.default_rng(0).uniform(-0.5, 0.5, model.nq)
    coupled = model.apply_couplers(q)[0]
    for dep, ind, slope, intercept in theirs:
        x = q[model.q_names.index(ind)]
        assert coupled[model.q_names.index(dep)] == pytest.approx(slope * x + intercept,
                                                                  rel=1e-14, abs=1e-15)
    assert urdf2dyn.load(data_path("robot2r.urdf")).couplers == ()


def test_ik_keeps_coupled_coordinates_as_opensim(rajagopal):
    """No marker rides on Rajagopal's patella: OpenSim's IK keeps knee_angle_r_beta =
    knee_angle_r through its constraint, ours sets it from the fitted knee angle."""
    folder, setup, _, _ = rajagopal
    model = urdf2dyn.load(os.fspath(folder.parent / "Scale" / "subject_scaled_walk.osim"))
    theirs = read_opensim(folder / "opensim_tight.mot", model=model)
    with poor_fit_said(read_ik_setup(setup).marker_file, RMS_2CM, LARGEST_4CM):
        res = ik.run_setup(setup, model=model, output="")
    for side in "rl":
        dep, ind = model.q_names.index(f"knee_angle_{side}_beta"), model.q_names.index(
            f"knee_angle_{side}")
        assert np.all(res.motion.q[:, dep] == res.motion.q[:, ind])
        assert np.abs(res.motion.q[:, ind]).min() > 0.01          # the knee is bent
        t = theirs.q[:, [theirs.names.index(model.q_names[k]) for k in (dep, ind)]]
        assert np.allclose(t[:, 0], t[:, 1], atol=1e-6)


def _rajagopal_generic():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return urdf2dyn.load(os.path.join(PUBLISHED, "Models", "Rajagopal2016.osim"))


def test_a_coupled_coordinate_holds_where_its_markers_pull_away():
    """Markers on Rajagopal's patella, measured where the patella is off its coupler: the fit
    keeps knee_angle_r_beta = knee_angle_r exactly (a strict constraint, as OpenSim's IK
    default), the knee moving to fit the patella markers in its place. The old fit moved the
    patella alone, off its coupler, with a warning."""
    model = _rajagopal_generic()
    marks = [Marker(f"pat{k}", "patella_r", p) for k, p in
             enumerate([(0.02, 0.0, 0.0), (0.0, 0.02, 0.0), (0.0, 0.0, 0.02)])]
    marks += [Marker(f"tib{k}", "tibia_r", p) for k, p in
              enumerate([(0.03, -0.1, 0.0), (0.0, -0.2, 0.03), (-0.03, -0.3, 0.0)])]
    knee, beta = model.q_names.index("knee_angle_r"), model.q_names.index("knee_angle_r_beta")
    q = model.default_q.copy()
    q[knee], q[beta] = 0.6, 0.9                    # the patella 0.3 rad off its coupler
    pos, rot = model.forward_kinematics(q)
    xyz = np.array([pos[model.link_names.index(m.link)] + rot[model.link_names.index(m.link)]
                    @ np.array(m.position) for m in marks])
    data = Markers([0.0], [m.name for m in marks], xyz[None])
    locked = {n: q[k] for k, n in enumerate(model.q_names)     # all else, couplers aside
              if n not in ("knee_angle_r", "knee_angle_r_beta", "knee_angle_l_beta")}
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)
        res = ik.solve(model, data, markers=marks, locked=locked, q0=model.default_q)
    fit = res.motion.q[0]
    assert fit[beta] == fit[knee]                  # knee_angle_r_beta = 1 x knee_angle_r
    assert 0.6 < fit[knee] < 0.9 and res.solution.rms[0] > 1e-3
    # with the coupler dropped the same markers are fitted exactly, off the coupler
    loose = urdf2dyn.markers.inverse_kinematics(model, xyz, markers=marks, locked=locked,
                                                q0=model.default_q, couplers=False)
    assert loose.q[knee] == pytest.approx(0.6, abs=1e-8)
    assert loose.q[beta] == pytest.approx(0.9, abs=1e-8)


@pytest.fixture(scope="module")
def leg39(tmp_path_factory):
    """Leg39 (opensim-models Pipelines/Leg39: Delp's lower limb with Arnold's knee; five
    CoordinateCouplerConstraints move the tibia and patella with knee_angle_r, and the shank
    and foot markers ride on them), its published 14-frame swing and IK setup, run by
    OpenSim's IK tool at accuracy 1e-8 with the setup's constraint_weight (20) and with
    OpenSim's default, infinite."""
    import gzip
    import shutil
    osim = pytest.importorskip("opensim")
    osim.Logger.setLevelString("error")
    folder = tmp_path_factory.mktemp("leg39")
    src = os.path.join(DATA, "leg39")
    for f in ("leg39_swing_short.trc", "leg39_swing_short_IK_Setup.xml"):
        shutil.copy(os.path.join(src, f), folder / f)
    (folder / "leg39.osim").write_bytes(gzip.decompress(
        Path(os.path.join(src, "leg39.osim.gz")).read_bytes()))
    setups = {}
    for name, weight in (("w20", 20.0), ("strict", math.inf)):
        tool = osim.InverseKinematicsTool(os.fspath(folder / "leg39_swing_short_IK_Setup.xml"))
        tool.set_constraint_weight(weight)
        tool.set_accuracy(1e-8)
        tool.setResultsDir(".")
        tool.setOutputMotionFileName(f"opensim_{name}.mot")
        setups[name] = os.fspath(folder / f"{name}_IK_Setup.xml")
        tool.printToXML(setups[name])
        ik_oracle.run_opensim(setups[name])
    return folder, setups


@pytest.mark.parametrize("name", ["w20", "strict"])
def test_published_leg39_couplers(leg39, name):
    """Our IK on OpenSim's setups equals OpenSim's IK tool, every coordinate within 0.01
    degree and 0.1 mm (measured: 8e-5 degree, 4e-4 mm), and the couplers hold to 1e-12.
    OpenSim 4.6 holds them exactly whatever constraint_weight says: its two outputs are
    the same. Fitted as free coordinates (the old fit), the tibia translations leave their
    functions and the knee is off by more than 0.01 degree."""
    folder, setups = leg39
    # the published model's toes hold an inertia no rigid body has (OpenSim reads it as is)
    with pytest.warns(urdf2dyn.URDFWarning, match=r"leg39\.osim:\d+: body 'toes_r': <inertia> "
                      r"0 0 0\.00090462 0 0 0: .*triangle inequality"):
        model = load_osim(os.fspath(folder / "leg39.osim"))
    assert [c.dependent for c in model.couplers] == ["tib_tx_r", "tib_ty_r", "pat_tx_r",
                                                     "pat_ty_r", "pat_angle_r"]
    assert read_ik_setup(setups[name]).constraint_weight == (20.0 if name == "w20" else math.inf)
    theirs = read_opensim(folder / f"opensim_{name}.mot", model=model)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)
        # the swing trial fits at 3-4 cm RMS, beyond OpenSim's best-practice band, and the
        # lab's origin puts the pelvis 1.13 m below it, beyond pelvis_ty's unclamped range
        # [-1, 1] m (OpenSim's answer too): only those
        warnings.filterwarnings("ignore", r".*inverse kinematics: (marker RMS|largest marker "
                                r"error) above", Urdf2dynWarning)
        warnings.filterwarnings("ignore", r".*inverse kinematics: coordinate 'pelvis_ty' "
                                r"\(not clamped\) leaves its range \[-1, 1\] m in 14 of 14",
                                Urdf2dynWarning)
        res = ik.run_setup(setups[name], model=model, output="")
    assert theirs.q[:, theirs.names.index("pelvis_ty")].max() < -1.0
    assert np.allclose(res.motion.time, theirs.time, atol=1e-6) and len(theirs.time) == 14
    d = res.motion.q - theirs.q[:, [theirs.names.index(n) for n in model.q_names]]
    rot = angle_columns(model.q_names, model)
    print(f"\nleg39 {name}: ours - OpenSim max {np.degrees(np.abs(d[:, rot])).max():.2e} deg, "
          f"{1e3 * np.abs(d[:, ~rot]).max():.2e} mm")
    assert np.degrees(np.abs(d[:, rot])).max() < 0.01
    assert np.abs(d[:, ~rot]).max() < 1e-4
    assert np.abs(model.apply_couplers(res.motion.q)[0] - res.motion.q).max() < 1e-12
    other = read_opensim(folder / f"opensim_{'strict' if name == 'w20' else 'w20'}.mot",
                         model=model)
    np.testing.assert_array_equal(other.q, theirs.q)
    from urdf2dyn.biomech.formats.trc import read_trc
    data = read_trc(os.fspath(folder / "leg39_swing_short.trc"))
    su = read_ik_setup(setups[name])
    used = [m for m in model.markers if su.marker_weights().get(m.name, 0) > 0]
    loose = urdf2dyn.markers.inverse_kinematics(
        model, data.xyz[:, [data.labels.index(m.name) for m in used]], markers=used,
        weights=su.marker_weights(), locked=model.locked_coordinates,
        ranges=model.clamped_ranges, q0=res.motion.q[0], threads=1, couplers=False)
    assert np.abs(model.apply_couplers(loose.q)[0] - loose.q).max() > 1e-4
    assert np.degrees(np.abs(loose.q - res.motion.q)[:, rot]).max() > 1.0


# ---------------------------------------------------------------- the readers, fuzzed

SETUP = """<?xml version="1.0"?>
<OpenSimDocument Version="40000"><InverseKinematicsTool name="t">
<model_file>m.osim</model_file><marker_file>walk.trc</marker_file>
<time_range> {t0} {t1}</time_range><accuracy>{acc}</accuracy>
<IKTaskSet><objects>
<IKMarkerTask name="A"><apply>{apply}</apply><weight>{w}</weight></IKMarkerTask>
<IKCoordinateTask name="knee"><apply>true</apply><weight>5</weight>
<value_type>{vt}</value_type><value>0.1</value></IKCoordinateTask>
</objects></IKTaskSet><output_motion_file>out.mot</output_motion_file>
</InverseKinematicsTool></OpenSimDocument>"""


def test_setup_reader_reads_opensim_semantics(tmp_path):
    p = tmp_path / "s.xml"
    p.write_text(SETUP.format(t0=0.5, t1=2.5, acc="1e-005", apply="false", w=10,
                              vt="manual_value"))
    s = read_ik_setup(p)
    assert s.model_file == os.fspath(tmp_path / "m.osim")
    assert s.time_range == (0.5, 2.5) and s.accuracy == 1e-5
    assert s.marker_weights() == {}                  # apply false: not fitted
    (task,) = s.coordinate_tasks()
    assert (task.name, task.weight, task.value_type, task.value) == ("knee", 5, "manual_value",
                                                                      0.1)


def test_published_setup_reads():
    """OpenSim's own Gait2392 setup file (opensim-models, tests/data/ik)."""
    s = read_ik_setup(os.path.join(DATA, "gait2392", "subject01_Setup_IK.xml"))
    assert s.time_range == (0.5, 2.5) and s.constraint_weight == 20 and s.accuracy == 1e-5
    assert s.model_file.endswith(os.path.join("gait2392", "subject01_simbody.osim"))
    assert s.marker_weights()["R.ASIS"] == 10 and s.marker_weights()["Top.Head"] == 0.1
    assert {t.name for t in s.coordinate_tasks()} >= {"subtalar_angle_r", "mtp_angle_l"}


_ANY = st.one_of(st.floats(allow_nan=True), st.text(max_size=5))


@FUZZ
@given(fields=st.one_of(    # every entry valid (so that setups are read), or any text
           st.tuples(st.floats(0, 1), st.floats(1, 10), st.floats(1e-9, 1), st.floats(0, 1e3),
                     st.sampled_from(["true", "false"]),
                     st.sampled_from(["default_value", "manual_value", "from_file"])),
           st.tuples(_ANY, _ANY, _ANY, _ANY, st.sampled_from(["true", "false", "yes", "", "1"]),
                     st.sampled_from(["default_value", "manual_value", "from_file", "other",
                                      ""]))))
@example(fields=(0.0, 0.0, 1.0, 0.0, "", "default_value"))      # <apply></apply>
def test_setup_reader_fuzz(tmp_path, fields):
    """Read, or refused with an IKSetupError naming the file; what is read is what the
    setup says where it says a number."""
    from xml.sax.saxutils import escape
    t0, t1, acc, w, apply, vt = fields
    p = tmp_path / "s.xml"
    p.write_text(SETUP.format(t0=escape(str(t0)), t1=escape(str(t1)), acc=escape(str(acc)),
                              apply=apply, w=escape(str(w)), vt=vt))
    try:
        s = read_ik_setup(p)
    except IKSetupError as e:
        event("refused")
        assert "s.xml" in str(e)
        return
    event("read")
    assert s.time_range[0] <= s.time_range[1] and s.accuracy > 0
    assert all(0 <= t.weight < math.inf for t in s.tasks)
    if isinstance(t0, float) and isinstance(t1, float):
        assert s.time_range == (t0, t1)
    if isinstance(acc, float):
        assert s.accuracy == acc
    marker = next(t for t in s.tasks if t.kind == "marker")
    # an empty <apply> keeps the task's default, true, as OpenSim 4.6 reads it
    # (test_setup_flags.py's oracle)
    assert marker.name == "A" and marker.apply == (apply in ("true", "1", ""))
    if isinstance(w, float):
        assert marker.weight == w


@FUZZ
@given(st.binary(max_size=300))
@example(b"\xfe\xff")
def test_setup_reader_any_bytes(tmp_path, data):
    p = tmp_path / "s.xml"
    p.write_bytes(data)
    with warnings.catch_warnings(record=True) as said, pytest.raises(IKSetupError):
        warnings.simplefilter("always")
        read_ik_setup(p)        # a UTF-16 mark is said (OpenSim cannot read it), then refused
    assert all(str(w.message).startswith(f"{p}: ") for w in said), said


def test_marker_file(tmp_path, r2):
    p = tmp_path / "m.csv"
    p.write_text("name,link,x,y,z\n# a comment\ntip, link2, 2, 0, 0\nmid,link1,1,0.1,0\n")
    assert read_markers(p, r2) == [TIP, MID]
    p.write_text("tip,link2,2,0\n")
    with pytest.raises(ValueError, match="m.csv: row 1: expected 5 columns"):
        read_markers(p)
    p.write_text("tip,link2,2,0,zero\n")
    with pytest.raises(ValueError, match="row 1, column z"):
        read_markers(p)
    p.write_text("tip,link9,2,0,0\n")
    with pytest.raises(ValueError, match="link 'link9'"):
        read_markers(p, r2)
    with pytest.raises(FileNotFoundError, match=r"m\.cvs: no such file: did you mean .*m\.csv'\? "
                       r"\(the model-marker file\)"):
        read_markers(tmp_path / "m.cvs")


_JUNK_ROW = st.lists(st.one_of(st.floats(allow_nan=True).map(repr), st.text(max_size=6)),
                     max_size=7).map(",".join)


@st.composite
def marker_files(draw):
    """A marker file and the markers it holds (None: rows that may be refused): rows of a
    name, a link and three numbers, blank lines, comments and a header most of the time,
    rows of any cells or any text otherwise."""
    if draw(st.integers(0, 3)) == 0:
        return draw(st.text(max_size=200)), None
    lines = ["name,link,x,y,z"] if draw(st.booleans()) else []
    expected = []
    for k in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["marker", "marker", "marker", "blank", "comment", "junk"]))
        if kind == "marker":
            xyz = tuple(draw(st.floats(-10, 10)) for _ in range(3))
            name, link = f"m{k}", draw(st.sampled_from(["link1", "link2"]))
            expected.append(Marker(name, link, xyz))
            lines.append(f"{name}, {link}," + ",".join(map(repr, xyz)))
        elif kind == "junk":
            lines.append(draw(_JUNK_ROW))
            expected = None if expected is None else expected + [None]
        else:
            lines.append("" if kind == "blank" else "# " + draw(st.text(
                st.characters(blacklist_characters="\r\n"), max_size=8)))
    if expected is not None and None in expected:
        expected = None
    return "\n".join(lines), expected


@FUZZ
@given(marker_files())
def test_marker_file_fuzz(tmp_path, drawn):
    """Read, or refused with a ValueError naming the file; a file of well-formed rows is read
    as written."""
    text, expected = drawn
    p = tmp_path / "m.csv"
    p.write_text(text, encoding="utf-8")
    try:
        markers = read_markers(p)
    except ValueError as e:
        event("refused")
        assert "m.csv" in str(e)
        assert expected is None, e
        return
    event("read")
    assert all(np.isfinite(mk.position).all() for mk in markers)
    if expected is not None:
        event("compared with the rows written")
        assert markers == expected


@FUZZ
@given(x=st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=6,
                  max_size=6),
       q0=st.lists(st.floats(-10, 10), min_size=2, max_size=2))
def test_solver_on_any_targets(r2, x, q0):
    """NaN or infinite coordinates are missing markers; anything finite is fitted; never a
    crash, the fit finite."""
    sol = r2.inverse_kinematics(np.array(x).reshape(2, 3), markers=[TIP, MID], q0=q0,
                                threads=1, max_iter=20)
    assert np.isfinite(sol.q).all()
    present = np.isfinite(np.array(x).reshape(2, 3)).all(1)
    assert (np.isnan(sol.marker_error[0]) == ~present).all()   # inf: a marker 1e154 m away


def _r2_ik_case(folder):
    """robot2r's IK case in folder: s.xml (5 frames of walk.trc) and the markers m.csv."""
    if not (folder / "s.xml").exists():
        robot2r_ik_case.write_case(folder)
    return folder


@FUZZ
@given(options=st.lists(st.tuples(
           st.sampled_from(["--setup", "--setup", "--model", "--markers", "-o", "--threads",
                            "--strict", "--marker-file"]),
           st.sampled_from(["good"] * 4 + ["x.xml", "s.xml", "robot2r.urdf", "0", "-3", "m.csv",
                                           "walk.trc", ""])),
           max_size=3))
def test_cli_options_fuzz(tmp_path, options, capsys):
    """Any combination of the ik options on robot2r's case (each option's value good, another
    option's or a bad one, after good --setup, --model and --markers): the fit written, or an
    exit status with an error line; never a traceback."""
    folder = _r2_ik_case(tmp_path)
    good = {"--setup": folder / "s.xml", "--model": data_path("robot2r.urdf"),
            "--markers": folder / "m.csv", "-o": folder / "q.mot", "--threads": "2",
            "--marker-file": folder / "walk.trc"}
    argv = [x for flag in ("--setup", "--model", "--markers")     # what follows may replace
            for x in (flag, os.fspath(good[flag]))]
    for flag, value in options:
        argv += [flag] if flag == "--strict" else [flag, os.fspath(good[flag]) if value == "good"
                                                   else value]
    outputs = [v for f, v in zip(argv, argv[1:]) if f == "-o"]
    out = folder / ((outputs[-1] if outputs else "") or "out.mot")     # else the setup's
    with working_in(folder):            # a bare value (-o 0) lands there, not in the tree
        try:
            status = cli.main(["ik"] + argv)
        except SystemExit as e:         # argparse's usage errors
            status = e.code
    printed = capsys.readouterr()
    event(f"exit status {status}")
    assert status in (0, 1, 2) and "Traceback" not in printed.err
    recordings = [v for f, v in options if f == "--marker-file"]
    # a file that is no recording is never fitted ('' is not given: the setup's walk.trc)
    if recordings and recordings[-1] not in ("good", "walk.trc", ""):
        assert status != 0, printed.out
    if status == 0 and outputs and not outputs[-1]:
        assert "-> nothing written" in printed.out      # -o '': OpenSim's empty file name
    elif status == 0:
        assert out.is_file()
    else:
        assert "urdf2dyn ik: error:" in printed.err, printed.err
    for p in folder.iterdir():          # the next example starts from the case alone
        if p.name not in ("s.xml", "m.csv", "walk.trc"):
            p.unlink()


def test_manual_value_outside_the_range_is_warned_about():
    """OpenSim reads an IK coordinate task's manual_value in the coordinate's own units:
    a hip at 30 (degrees meant) is 30 rad, outside Gait2392's range [-0.698, 2.094]."""
    model = urdf2dyn.load(os.path.join(DATA, "gait2392", "subject01_simbody.osim"))
    task = ik.IKTask("coordinate", "hip_flexion_r", weight=1.0, value_type="manual_value", value=30.0)
    with pytest.warns(Urdf2dynWarning, match=r"s\.xml: coordinate task 'hip_flexion_r': "
                      r"manual_value 30 lies outside .*looks like degrees.*write 0\.523599"):
        out = ik.coordinate_task_values(model, [task], np.zeros(2), setup="s.xml")
    assert out["hip_flexion_r"] == (1.0, 30.0)          # warned, not changed
    with pytest.raises(ValueError, match="knee_angle_r.*manual_value -200 .*give it in rad"):
        ik.coordinate_task_values(model, [ik.IKTask("coordinate", "knee_angle_r", value_type="manual_value", value=-200.0)],
                                  np.zeros(2), strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # in range: no word
        ik.coordinate_task_values(model, [ik.IKTask("coordinate", "hip_flexion_r", value_type="manual_value", value=0.5)],
                                  np.zeros(2))


def test_setup_tasks_the_model_lacks_name_the_setup(tmp_path, capsys):
    """A marker task and a coordinate task of Gait2392's IK setup (copied, 4 frames) naming
    what the model lacks: each warning names the setup file the task is in."""
    import shutil
    work = tmp_path / "g"
    shutil.copytree(os.path.join(DATA, "gait2392"), work)
    setup = work / "subject01_Setup_IK.xml"
    text = setup.read_text()
    text = text.replace("<objects>", "<objects><IKMarkerTask name=\"NOPE\"><apply>true</apply>"
                        "<weight>1</weight></IKMarkerTask><IKCoordinateTask name=\"nocoord\">"
                        "<apply>true</apply><weight>1</weight></IKCoordinateTask>", 1)
    setup.write_text(re.sub(r"<time_range>[^<]*</time_range>",
                            "<time_range>0.5 0.55</time_range>", text))
    assert cli.main(["ik", "--setup", str(setup)]) == 0
    err = capsys.readouterr().err
    assert f"{setup}: marker task 'NOPE': the model has no such marker" in err
    assert f"{setup}: coordinate task 'nocoord': the model has no such coordinate" in err


def test_manual_value_out_of_an_unclamped_range_in_rad_is_taken():
    """OpenSim's IK leaves an unclamped coordinate free beyond its range, so a manual value
    there in rad is meant (Gait2392's pelvis_rotation, range +-pi/2 and unclamped, at pi: a
    subject facing the other way): no warning, and strict runs. A clamped coordinate's range
    binds the fit: a value beyond it is warned about, in rad without 'looks like degrees'
    (0.3 rad just past the knee's 0.17 is not 0.3 degrees)."""
    model = urdf2dyn.load(os.path.join(DATA, "gait2392", "subject01_simbody.osim"))
    assert not model.coordinates["pelvis_rotation"].clamped
    task = ik.IKTask("coordinate", "pelvis_rotation", value_type="manual_value", value=math.pi)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ik.coordinate_task_values(model, [task], np.zeros(2), strict=True)
    assert not model.coordinates["pelvis_ty"].clamped       # in mm: still said
    task = ik.IKTask("coordinate", "pelvis_ty", value_type="manual_value", value=950.0)
    with pytest.raises(ValueError, match=r"manual_value 950 lies outside .*2\]; give it in the coordinate's units"):
        ik.coordinate_task_values(model, [task], np.zeros(2), strict=True)
    # the same model with its knee clamped (a model's coordinates are read-only: a copy's
    # attribute is replaced)
    clamped = copy.copy(model)
    coords = dict(model.coordinates)
    coords["knee_angle_r"] = dataclasses.replace(coords["knee_angle_r"], clamped=True)
    clamped.coordinates = types.MappingProxyType(coords)
    task = ik.IKTask("coordinate", "knee_angle_r", value_type="manual_value", value=0.3)
    with pytest.warns(Urdf2dynWarning, match="manual_value 0.3 lies outside") as got:
        ik.coordinate_task_values(clamped, [task], np.zeros(2))
    assert "degrees" not in str(got[0].message) and "give it in rad" in str(got[0].message)


def test_setup_task_set_from_file(tmp_path):
    """<IKTaskSet file="tasks.xml"/>: OpenSim reads the task set from that file, relative to
    the setup's folder; urdf2dyn said '<IKTaskSet> is empty or missing'. gait2392's setup
    (0.5-0.6 s) with its task set moved to a file gives the tasks, and the IK result, of the
    setup with them inline; OpenSim's IK tool gives the same motion from both setups."""
    pytest.importorskip("opensim")
    import shutil
    import xml.etree.ElementTree as ET
    folder = tmp_path / "gait2392"
    shutil.copytree(os.path.join(DATA, "gait2392"), folder)
    tree = ET.parse(folder / "subject01_Setup_IK.xml")
    tool = tree.getroot().find("InverseKinematicsTool")
    tool.find("time_range").text = "0.5 0.6"
    tool.find("output_motion_file").text = "inline.mot"
    tree.write(folder / "inline.xml")
    tasks = tool.find("IKTaskSet")
    doc = ET.Element("OpenSimDocument", Version="40000")
    doc.append(tasks)
    (folder / "tasks").mkdir()
    ET.ElementTree(doc).write(folder / "tasks" / "ik_tasks.xml")
    index = list(tool).index(tasks)
    tool.remove(tasks)
    tool.insert(index, ET.Element("IKTaskSet", file="tasks/ik_tasks.xml"))
    tool.find("output_motion_file").text = "by_file.mot"
    tree.write(folder / "by_file.xml")
    inline, by_file = (read_ik_setup(folder / f"{n}.xml") for n in ("inline", "by_file"))
    assert len(by_file.tasks) == len(inline.tasks) == 35 and by_file.tasks == inline.tasks
    model = urdf2dyn.load(os.fspath(folder / "subject01_simbody.osim"))
    with poor_fit_said(folder / "subject01_walk1.trc", RMS_2CM, LARGEST_4CM):
        ours = [ik.run_setup(folder / f"{n}.xml", model=model, output="").motion.q
                for n in ("inline", "by_file")]
    np.testing.assert_array_equal(ours[0], ours[1])
    for n in ("inline", "by_file"):
        ik_oracle.run_opensim(os.fspath(folder / f"{n}.xml"))
    theirs = [read_opensim(folder / f"{n}.mot", model=model).q for n in ("inline", "by_file")]
    np.testing.assert_array_equal(theirs[0], theirs[1])
    (folder / "tasks" / "ik_tasks.xml").unlink()
    with pytest.raises(IKSetupError, match=r"by_file.xml: <IKTaskSet file=\"tasks/ik_tasks.xml"
                                           r"\">: .*ik_tasks.xml cannot be read"):
        read_ik_setup(folder / "by_file.xml")


def test_opensims_marker_errors_survive_our_run_in_the_same_folder(tmp_path):
    """OpenSim's IK tool and urdf2dyn ik run on one setup in one folder (a user comparing the
    two): OpenSim 4.6 writes its marker errors as <tool name>_ik_marker_errors.sto
    (_ik_marker_errors.sto for a setup without a name, as a user writes one by hand);
    urdf2dyn wrote the same name and overwrote OpenSim's report. Ours is named after our
    motion, <motion>_urdf2dyn_marker_errors.sto, and OpenSim's stays as it wrote it. Oracle:
    the files OpenSim's tool writes on that setup."""
    import gzip
    import shutil
    pytest.importorskip("opensim")
    src = os.path.join(DATA, "leg39")
    text = open(os.path.join(src, "leg39_swing_short_IK_Setup.xml")).read()
    unnamed = text.replace('<InverseKinematicsTool name="leg39_IKTool">',
                           "<InverseKinematicsTool>")
    assert "<InverseKinematicsTool>" in unnamed
    for setup_text, theirs_name in ((unnamed, "_ik_marker_errors.sto"),
                                    (text, "leg39_IKTool_ik_marker_errors.sto")):
        folder = tmp_path / theirs_name.replace(".", "_")
        folder.mkdir()
        shutil.copy(os.path.join(src, "leg39_swing_short.trc"), folder)
        (folder / "leg39.osim").write_bytes(gzip.decompress(
            open(os.path.join(src, "leg39.osim.gz"), "rb").read()))
        (folder / "setup.xml").write_text(setup_text)
        before = set(os.listdir(folder))
        ik_oracle.run_opensim(os.fspath(folder / "setup.xml"))
        made = sorted(set(os.listdir(folder)) - before - {"opensim.log"})
        assert theirs_name in made, made
        theirs = (folder / theirs_name).read_bytes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)
            res = ik.run_setup(os.fspath(folder / "setup.xml"),
                               output=os.fspath(folder / "ours.mot"))
        assert (folder / theirs_name).read_bytes() == theirs
        ours = folder / "ours_urdf2dyn_marker_errors.sto"
        assert res.written == (os.fspath(folder / "ours.mot"), os.fspath(ours))
        assert np.allclose(ik_oracle.read_errors(os.fspath(ours))[:, 2], res.solution.rms)


def _published_from_file_case(osim, tmp_path):
    """Gait2392's published IK setup (0.5 to 0.6 s of its walk) with a from_file task on
    knee_angle_r, in a coordinate_file of uneven rows whose numbers are degrees and whose
    header says radians (inDegrees=no), run by OpenSim 4.6's InverseKinematicsTool at
    accuracy 1e-8 (it writes opensim_from_file.mot). Returns (the setup, the folder, the
    model, OpenSim's knee_angle_r in radians at its rows)."""
    import shutil
    folder = tmp_path / "gait2392"
    shutil.copytree(os.path.join(DATA, "gait2392"), folder)
    tool = osim.InverseKinematicsTool(os.fspath(folder / "subject01_Setup_IK.xml"))
    times = [0.47, 0.508, 0.523, 0.551, 0.566, 0.589, 0.63]
    ik_oracle.pull_from_file(tool, folder, "knee_angle_r",
                             [(t, f"{-35 + 15 * math.sin(40 * t):.6f}") for t in times])
    tool.setStartTime(0.5)
    tool.setEndTime(0.6)
    tool.set_accuracy(1e-8)
    tool.setOutputMotionFileName("opensim_from_file.mot")
    setup = folder / "from_file_Setup_IK.xml"
    tool.printToXML(os.fspath(setup))
    ik_oracle.run_opensim(os.fspath(setup))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        model = urdf2dyn.load(os.fspath(folder / "subject01_simbody.osim"))
    theirs = read_opensim(folder / "opensim_from_file.mot", model=model)
    return setup, folder, model, theirs.column("knee_angle_r")


def test_cli_ik_processing_opensim_reads_the_coordinate_file_as_opensim(tmp_path, capsys):
    """Oracle: OpenSim 4.6's InverseKinematicsTool on Gait2392's published setup with a
    from_file knee task (above). 'urdf2dyn ik' had no --processing (scale and torques have
    one): it read the coordinate_file in its header's units (radians: -35 rad) and linearly,
    whatever the user wanted. 'urdf2dyn ik --setup SETUP --processing opensim' reads it as
    OpenSim's IK tool does (degrees, natural quintic splines) and gives OpenSim's knee angle
    to 1e-5 rad; the default, urdf2dyn's processing, still reads the header's units."""
    osim = pytest.importorskip("opensim")
    setup, folder, model, theirs = _published_from_file_case(osim, tmp_path)
    assert cli.main(["ik", "--setup", os.fspath(setup), "--processing", "opensim",
                     "-o", os.fspath(folder / "ours.mot")]) == 0
    err = capsys.readouterr().err
    assert "its header says radians (inDegrees=no)" in err, err
    assert "(--processing opensim, --setup)" not in err, err    # ik's --setup is its own
    ours = read_opensim(folder / "ours.mot", model=model).column("knee_angle_r")
    assert len(ours) == len(theirs) > 5
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-5)
    assert cli.main(["ik", "--setup", os.fspath(setup), "-o", os.fspath(folder / "u.mot")]) == 0
    capsys.readouterr()
    own = read_opensim(folder / "u.mot", model=model).column("knee_angle_r")
    assert np.abs(own - theirs).max() > 0.1


def test_ik_run_setup_processing_opensim_reads_the_coordinate_file_as_opensim(tmp_path):
    """The library call under the CLI: ik.run_setup(processing="opensim") gives OpenSim 4.6's
    knee angle on the published from_file case (it had no such keyword), the default the
    header's units; another processing name is refused naming the argument."""
    osim = pytest.importorskip("opensim")
    setup, folder, model, theirs = _published_from_file_case(osim, tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = ik.run_setup(os.fspath(setup), output="", model=model, processing="opensim")
    told = [str(w.message) for w in caught if "coords.sto" in str(w.message)]
    assert len(told) == 1 and "were taken for degrees" in told[0], told
    np.testing.assert_allclose(ours.motion.column("knee_angle_r"), theirs, rtol=0, atol=1e-5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        own = ik.run_setup(os.fspath(setup), output="", model=model)
    assert np.abs(own.motion.column("knee_angle_r") - theirs).max() > 0.1
    with pytest.raises(ValueError, match=r"processing: expected 'urdf2dyn' or 'opensim', got "
                                         r"'OpenSim'"):
        ik.run_setup(os.fspath(setup), output="", model=model, processing="OpenSim")



def test_a_coordinate_file_named_by_state_path_is_said_where_opensims_ik_stops(tmp_path):
    """Gait2392's published IK setup with a from_file task on knee_angle_r whose
    coordinate_file (degrees, inDegrees=yes) names its column by state path
    (/jointset/knee_r/knee_angle_r/value, as a states table does). OpenSim 4.6's
    InverseKinematicsTool looks the column up by the coordinate's name and stops ('value for
    coordinate knee_angle_r not found'); urdf2dyn ik --processing opensim read the column
    without a word, a result OpenSim's tool does not give. It still reads it, and now says
    so under OpenSim's processing, with the rename that lets OpenSim's tool run: renamed so,
    OpenSim's knee angle is urdf2dyn's. urdf2dyn's own processing promises no OpenSim
    result and stays quiet."""
    osim = pytest.importorskip("opensim")
    import shutil
    folder = tmp_path / "gait2392"
    shutil.copytree(os.path.join(DATA, "gait2392"), folder)
    tool = osim.InverseKinematicsTool(os.fspath(folder / "subject01_Setup_IK.xml"))
    times = [0.47, 0.508, 0.523, 0.551, 0.566, 0.589, 0.63]
    coords = Path(ik_oracle.pull_from_file(
        tool, folder, "knee_angle_r", [(t, f"{-35 + 15 * math.sin(40 * t):.6f}") for t in times],
        in_degrees="yes"))
    tool.setStartTime(0.5)
    tool.setEndTime(0.6)
    tool.set_accuracy(1e-8)
    tool.setOutputMotionFileName("opensim_from_file.mot")
    setup = folder / "from_file_Setup_IK.xml"
    tool.printToXML(os.fspath(setup))
    named = coords.read_text()
    path = "/jointset/knee_r/knee_angle_r/value"
    coords.write_text(named.replace("time\tknee_angle_r", f"time\t{path}"))
    with pytest.raises(RuntimeError, match="InverseKinematicsTool Failed"):
        ik_oracle.run_opensim(os.fspath(setup))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        model = urdf2dyn.load(os.fspath(folder / "subject01_simbody.osim"))
    runs = {}
    for processing in ("opensim", "urdf2dyn"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", Urdf2dynWarning)
            runs[processing] = ik.run_setup(os.fspath(setup), output="", model=model,
                                            processing=processing)
        said = [str(w.message) for w in caught if "state path" in str(w.message)]
        if processing == "urdf2dyn":
            assert not said, said
            continue
        assert said == [
            f"ik: {coords}: the from_file coordinate tasks read its column '{path}', named by "
            "state path: OpenSim 4.6's InverseKinematicsTool looks a task's column up by the "
            "coordinate's name only, and stops ('InverseKinematicsTool: value for coordinate "
            "knee_angle_r not found'); urdf2dyn read it as the coordinate it names. For "
            "OpenSim's tool to run, rename each column to its coordinate's name "
            f"('{path}' -> 'knee_angle_r')"], said
    coords.write_text(named)                                 # renamed as advised
    ik_oracle.run_opensim(os.fspath(setup))
    theirs = read_opensim(folder / "opensim_from_file.mot", model=model).column("knee_angle_r")
    np.testing.assert_allclose(runs["opensim"].motion.column("knee_angle_r"), theirs, rtol=0,
                               atol=1e-5)

def test_a_models_force_elements_are_left_unsaid_by_ik(tmp_path, capsys):
    """A force element urdf2dyn does not apply (a spring, a ligament, a foot contact:
    Pose2Sim's Model_Pose2Sim_simple.osim carries 12 SmoothSphereHalfSpaceForces) moves no
    marker: OpenSim's IK tool gives the same coordinates with it as without. `urdf2dyn ik`
    warned that 'urdf2dyn's joint moments also hold what they would supply', about moments an
    IK run does not compute, and under --strict refused the model for it. Oracle: OpenSim
    4.6's InverseKinematicsTool on the arm7 case with and without a SpringGeneralizedForce."""
    osim = pytest.importorskip("opensim")
    case = ik_oracle.build_case(os.fspath(tmp_path), data_path("arm7.urdf"), nframe=20, seed=5)
    sprung = osim.Model(os.path.join(case.folder, "model.osim"))
    spring = osim.SpringGeneralizedForce("arm7_joint2")
    spring.setName("elbow_spring")
    spring.setStiffness(50)
    sprung.addForce(spring)
    sprung.finalizeConnections()
    sprung.printToXML(os.path.join(case.folder, "sprung.osim"))
    setup = Path(case.setup).read_text()
    assert setup.count("<model_file>model.osim</model_file>") == 1
    for name, model in (("plain", "model.osim"), ("sprung", "sprung.osim")):
        text = setup.replace("<model_file>model.osim", f"<model_file>{model}").replace(
            "<output_motion_file>opensim_ik.mot", f"<output_motion_file>opensim_{name}.mot")
        Path(case.folder, f"{name}_Setup_IK.xml").write_text(text)
        ik_oracle.run_opensim(os.path.join(case.folder, f"{name}_Setup_IK.xml"))
    plain, theirs = (read_opensim(os.path.join(case.folder, f"opensim_{name}.mot"))
                     for name in ("plain", "sprung"))
    np.testing.assert_array_equal(theirs.q, plain.q)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        ours = ik.run_setup(os.path.join(case.folder, "sprung_Setup_IK.xml"),
                            output=os.fspath(tmp_path / "ours.mot"), strict=True)
    assert not [str(w.message) for w in said if "elbow_spring" in str(w.message)]
    q_theirs = theirs.q[:, [theirs.names.index(n) for n in ours.motion.names]]
    d = np.degrees(ours.motion.q - q_theirs)
    assert np.sqrt(np.mean(d ** 2, axis=0)).max() < 0.1 and np.abs(d).max() < 0.5
    # the model given instead of the setup's (urdf2dyn ik --model) is loaded the same way
    capsys.readouterr()
    status = cli.main(["ik", "--setup", os.path.join(case.folder, "plain_Setup_IK.xml"),
                       "--model", os.path.join(case.folder, "sprung.osim"), "--strict",
                       "-o", os.fspath(tmp_path / "cli.mot")])
    assert status == 0 and "elbow_spring" not in capsys.readouterr().err
    np.testing.assert_allclose(read_opensim(os.fspath(tmp_path / "cli.mot")).q,
                               read_opensim(os.fspath(tmp_path / "ours.mot")).q,
                               atol=1e-9)
