"""`urdf2dyn convert model.osim -o model.urdf` (urdf2dyn.convert.osim_to_urdf).

The URDF written is read back by urdf2dyn's URDF parser and compared with the .osim model:
exact where URDF can express the joint (same torques on every state, coordinates matched by
name), and, where an axis had to be frozen, exact at the frozen pose with the frozen
coordinates still, every frozen axis named in a warning. The .osim models themselves are
checked against OpenSim in tests/test_osim.py."""
from __future__ import annotations

import os
import re
import sys
import warnings
from xml.etree import ElementTree

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn.cli import build_parser, main
from urdf2dyn.convert import osim_to_urdf

from test_osim import DATA, every_joint_model

KNEES = ("knee_angle_r", "knee_angle_l")


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
        return fn(*args, **kw)


def _compare(osim_model, urdf_model, frozen, seed, n=4):
    """Torques of both models on random states, frozen coordinates at their defaults and
    still; columns of the coordinates both have, except the frozen ones."""
    urdf_model.gravity = osim_model.gravity
    rng = np.random.default_rng(seed)
    shared = [c for c in urdf_model.q_names if c not in frozen]
    cols_o = [osim_model.q_names.index(c) for c in shared]
    cols_u = [urdf_model.q_names.index(c) for c in shared]
    worst = 0.0
    for _ in range(n):
        q = rng.uniform(-1, 1, osim_model.nq)
        v, a = rng.normal(0, 2, (2, osim_model.nv))
        for c in frozen:
            k = osim_model.q_names.index(c)
            q[k], v[k], a[k] = osim_model.coordinates[c].default, 0.0, 0.0
        qu, vu, au = (np.array([x[osim_model.q_names.index(c)] for c in urdf_model.q_names])
                      for x in (q, v, a))
        to = osim_model.inverse_dynamics(q, v, a)[cols_o]
        tu = urdf_model.inverse_dynamics(qu, vu, au)[cols_u]
        worst = max(worst, float(np.max(np.abs(to - tu)) / np.max(np.abs(to))))
    return worst


@pytest.mark.parametrize("name", ["gait2392_millard2012muscle.osim",
                                  "FullBodyModel_Hamner2010_v2_0.osim",
                                  "gait10dof18musc.osim", "gait2354_simbody_v2.osim"])
def test_gait_models_convert_exactly_but_for_the_knee_translations(name, tmp_path):
    model = _quiet(urdf2dyn.load, os.path.join(DATA, name))
    out = tmp_path / "model.urdf"
    with pytest.warns(urdf2dyn.Urdf2dynWarning) as rec:
        osim_to_urdf(model, out)
    msgs = [str(w.message) for w in rec]
    knees = [k for k in KNEES if k in model.q_names]
    for knee in knees:
        side = knee[-1]
        assert any(f"joint 'knee_{side}': URDF cannot express translation1 (a function of "
                   f"{knee}) at {knee} = 0" in m for m in msgs), msgs
    assert all(str(out) in m for m in msgs)
    urdf = urdf2dyn.load(out)                   # no URDF warning: limits, inertias written
    assert sorted(urdf.q_names) == sorted(model.q_names)       # knees stay revolute
    assert urdf.total_mass == pytest.approx(model.total_mass, rel=1e-14)
    assert _compare(model, urdf, knees, seed=1) < 1e-12


def test_limits_written_are_no_bound_to_urdf_readers_and_to_check(tmp_path, capsys):
    """URDF requires effort and velocity on a revolute or prismatic <limit>; convert wrote
    effort="0" velocity="0" for OpenSim's coordinates, which have neither, and `urdf2dyn
    check` then gave 2 advice per joint: to ros_control's joint_limits_interface 0 is a
    bound of 0 (to MuJoCo's import and MoveIt no bound), and Pinocchio (urdfdom) keeps 0 as
    the joint's effortLimit and velocityLimit. Now they are the largest double, which
    urdfdom reads (it refuses 'inf', Pinocchio's own no-limit): Pinocchio reads every
    prismatic and revolute joint with that effort and velocity limit (a continuous joint,
    written without <limit>, with its own no-limit, inf), and check finds nothing."""
    pin = pytest.importorskip("pinocchio")
    path = os.path.join(DATA, "gait10dof18musc.osim")
    out = tmp_path / "g.urdf"
    assert main(["convert", path, "-o", str(out)]) == 0
    robot = pin.buildModelFromUrdf(str(out))
    assert robot.nv == 10
    assert set(robot.effortLimit) <= {sys.float_info.max, np.inf}, robot.effortLimit
    assert set(robot.velocityLimit) <= {sys.float_info.max, np.inf}, robot.velocityLimit
    capsys.readouterr()
    assert main(["check", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"{out}: 0 errors, 0 warnings, 0 advice"


def test_coordinates_without_a_finite_range_convert_to_joints_urdfdom_reads(tmp_path):
    """A clamped coordinate whose <range> has an infinite end (OpenSim 4.6 reads "-inf inf"
    as no bound: test_osim.py) was written as a revolute or prismatic joint without <limit>, which
    urdfdom refuses ("joint xml is not initialized correctly"). Now a pin free both ways is
    URDF's continuous joint and an infinite end 1e16 (SDFormat's "no limit"): Pinocchio
    (urdfdom; not loaded with OpenSim in one process) reads the file with the range's finite
    ends."""
    pin = pytest.importorskip("pinocchio")
    from test_osim_errors import _body, _doc, _pin
    joints = (_pin("j0", "/ground", "/bodyset/b0", "q0") + _pin("j1", "/bodyset/b0",
              "/bodyset/b1", "q1") + _pin("j2", "/bodyset/b1", "/bodyset/b2", "q2").replace(
              "PinJoint", "SliderJoint"))
    text = _doc(_body("b0") + _body("b1") + _body("b2"), joints)
    ranges = {"q0": "-inf inf", "q1": "-inf 1.5", "q2": "-0.25 Infinity"}
    for name, written in ranges.items():         # clamped: OpenSim holds q1 and q2 there
        text = text.replace(f'<Coordinate name="{name}"/>', f'<Coordinate name="{name}">'
                            f'<range>{written}</range><clamped>true</clamped></Coordinate>', 1)
    path = tmp_path / "free.osim"
    path.write_text(text)
    out = tmp_path / "free.urdf"
    model = _quiet(urdf2dyn.load, path)
    assert {n: (c.lower, c.upper) for n, c in model.coordinates.items()} == {
        "q0": (-np.inf, np.inf), "q1": (-np.inf, 1.5), "q2": (-0.25, np.inf)}
    osim_to_urdf(model, out)
    robot = pin.buildModelFromUrdf(str(out))
    assert robot.joints[robot.getJointId("q0")].shortname().startswith("JointModelRUB")
    for name, bounds in (("q1", (-1e16, 1.5)), ("q2", (-0.25, 1e16))):
        at = robot.joints[robot.getJointId(name)].idx_q
        assert (robot.lowerPositionLimit[at], robot.upperPositionLimit[at]) == bounds
    urdf = urdf2dyn.load(out)
    assert sorted(urdf.q_names) == sorted(model.q_names)
    assert _compare(model, urdf, (), seed=2) < 1e-12


@pytest.mark.parametrize("osim", ["gait10dof18musc", "open ends"])
def test_a_converted_model_has_finite_random_configurations_in_pinocchio(tmp_path, osim):
    """An unclamped translation (gait10dof18musc's pelvis_tx, pelvis_ty) and an open end of
    a clamped range were written as limits of +-1.797e308: Pinocchio's randomConfiguration
    draws lower + (upper - lower) * rand() / RAND_MAX, whose span overflows, and it returned
    inf. The limits are now +-1e16, SDFormat's default joint limit ("no limit") before 1.10:
    every draw is finite, and so is Pinocchio's neutral configuration."""
    pin = pytest.importorskip("pinocchio")
    from test_osim_errors import _body, _doc, _pin
    if osim == "gait10dof18musc":
        path = os.path.join(DATA, "gait10dof18musc.osim")
    else:
        text = _doc(_body("b0") + _body("b1"), _pin("j0", "/ground", "/bodyset/b0", "q0")
                    .replace("PinJoint", "SliderJoint") + _pin("j1", "/bodyset/b0",
                    "/bodyset/b1", "q1"))
        for name, written in (("q0", "-inf 1.5"), ("q1", "-0.25 Infinity")):
            text = text.replace(f'<Coordinate name="{name}"/>', f'<Coordinate name="{name}">'
                                f'<range>{written}</range><clamped>true</clamped>'
                                '</Coordinate>', 1)
        path = tmp_path / "open.osim"
        path.write_text(text)
    out = tmp_path / "converted.urdf"
    _quiet(osim_to_urdf, _quiet(urdf2dyn.load, path), out)
    robot = pin.buildModelFromUrdf(str(out))
    bounded = np.isfinite(robot.lowerPositionLimit) & np.isfinite(robot.upperPositionLimit)
    assert bounded.any()
    draws = np.array([pin.randomConfiguration(robot) for _ in range(50)])
    assert np.isfinite(draws).all(), draws[:, ~np.isfinite(draws).all(axis=0)][:3]
    assert np.isfinite(pin.neutral(robot)).all()


@pytest.mark.parametrize("written, default", [("2e16 3e16", 2.5e16), ("-3e16 -2e16", -2.5e16),
                                              ("2e16 inf", 2.5e16), ("-inf -2e16", -2.5e16)])
def test_a_clamped_range_wholly_beyond_1e16_converts_to_an_ordered_limit(tmp_path, written,
                                                                      default):
    """A slider clamped to a range wholly beyond 1e16 (OpenSim 4.6 holds it there: the
    oracle, in a fresh process, its range) had each end cut to +-1e16: a reversed <limit>
    (lower 2e16, upper 1e16), silently, which Pinocchio read as such. Now such a range is
    kept and an open end written 1e16 past the other: Pinocchio reads the range OpenSim
    holds, ordered, its finite ends as written."""
    pin = pytest.importorskip("pinocchio")
    from rra_oracle import _run_in_a_fresh_process
    from test_osim_errors import _body, _doc, _pin
    text = _doc(_body("b0"), _pin("j0", "/ground", "/bodyset/b0", "q0").replace(
        "PinJoint", "SliderJoint").replace(
        '<Coordinate name="q0"/>', f'<Coordinate name="q0"><range>{written}</range><clamped>'
        f'true</clamped><default_value>{default!r}</default_value></Coordinate>', 1))
    path = tmp_path / "far.osim"
    path.write_text(text)
    theirs = [float(end) for end in _run_in_a_fresh_process(_RANGE_SCRIPT, str(path))]
    out = tmp_path / "far.urdf"
    _quiet(osim_to_urdf, _quiet(urdf2dyn.load, path), out)
    robot = pin.buildModelFromUrdf(str(out))
    lower, upper = robot.lowerPositionLimit[0], robot.upperPositionLimit[0]
    assert lower < upper
    for end, ours in zip(theirs, (lower, upper)):
        assert ours == end if np.isfinite(end) else abs(ours) > 1e16


_RANGE_SCRIPT = """
import json, sys
import opensim
model = opensim.Model(sys.argv[1])
model.initSystem()
coordinate = model.getCoordinateSet().get("q0")
print(json.dumps([str(coordinate.getRangeMin()), str(coordinate.getRangeMax())]))
"""


def _urdf_ranges_and_mujoco_limits(path, tmp_path, beyond):
    """The .osim at path converted: {coordinate: (Pinocchio's joint kind, lower, upper)} of
    Pinocchio's reading, {coordinate: (limited, lower, upper)} of MuJoCo's, and the joint
    limits MuJoCo's forward dynamics holds with the coordinates {name: value} in beyond
    (the rest 0). MuJoCo needs a mass and inertia on every moving body (the massless links
    between one OpenSim joint's axes have none): its compiler is told to bound them."""
    pin = pytest.importorskip("pinocchio")
    mujoco = pytest.importorskip("mujoco")
    out = tmp_path / "converted.urdf"
    _quiet(osim_to_urdf, _quiet(urdf2dyn.load, path), out)
    robot = pin.buildModelFromUrdf(str(out))
    theirs = {}
    for j in range(1, robot.njoints):
        at = robot.joints[j].idx_q
        theirs[robot.names[j]] = (robot.joints[j].shortname(), robot.lowerPositionLimit[at],
                                  robot.upperPositionLimit[at])
    text = out.read_text().replace("</robot>", '<mujoco><compiler boundmass="1e-6" '
                                   'boundinertia="1e-9" balanceinertia="true"/></mujoco>'
                                   '</robot>')
    mj = mujoco.MjModel.from_xml_string(text)
    mine = {mj.joint(j).name: (bool(mj.jnt_limited[j]), *mj.jnt_range[j])
            for j in range(mj.njnt)}
    data = mujoco.MjData(mj)
    for name, value in beyond.items():
        data.qpos[mj.jnt_qposadr[mj.joint(name).id]] = value
    mujoco.mj_forward(mj, data)
    held = {mj.joint(int(data.efc_id[k])).name for k in range(data.nefc)
            if data.efc_type[k] == mujoco.mjtConstraint.mjCNSTR_LIMIT_JOINT}
    return theirs, mine, held


def _file_ranges(path):
    """{coordinate: (lower, upper, clamped)} in the .osim's own words."""
    return {c.get("name"): (*map(float, c.findtext("range").split()),
                            c.findtext("clamped") == "true")
            for c in ElementTree.parse(path).iter("Coordinate")}


def test_unclamped_coordinates_convert_to_joints_no_urdf_reader_stops(tmp_path):
    """OpenSim 4.6 holds only a clamped coordinate in its range (its IK bounds it, setValue
    clamps it: tests/biomech/test_ik_ranges.py); convert wrote every range as a <limit>, a
    stop to every URDF reader. gait10dof18musc's coordinates are all unclamped: MuJoCo's
    URDF import limited every joint to the .osim's range, and with pelvis_tx at 7 m and
    hip_flexion_r at 150 deg (beyond the file's 5 m and 120 deg) held both there. Now a
    turning coordinate is a continuous joint (Pinocchio: its unbounded revolute, MuJoCo: an
    unlimited hinge) and a translation a prismatic joint whose <limit> is 1e16 both ways
    (URDF requires one; SDFormat's "no limit"): MuJoCo holds nothing."""
    path = os.path.join(DATA, "gait10dof18musc.osim")
    ranges = _file_ranges(path)
    assert len(ranges) == 10 and not any(clamped for *_, clamped in ranges.values())
    theirs, mine, held = _urdf_ranges_and_mujoco_limits(
        path, tmp_path, {"pelvis_tx": 7.0, "hip_flexion_r": np.radians(150)})
    for name in ranges:
        if name in ("pelvis_tx", "pelvis_ty"):
            assert theirs[name][1:] == (-1e16, 1e16), theirs[name]
            assert mine[name][1:] == (-1e16, 1e16), mine[name]
        else:
            assert theirs[name][0].startswith("JointModelRUB"), theirs[name]
            assert not mine[name][0], mine[name]
    assert held == set()
    text = (tmp_path / "converted.urdf").read_text()
    for name, (lower, upper, _) in ranges.items():      # the ranges kept, as comments
        assert f"<!-- OpenSim range {lower:.17g} {upper:.17g}, not clamped" in text, name


@pytest.mark.parametrize("written", ["nan 1", "-1 NaN", "nan nan"])
@pytest.mark.parametrize("joint", ["PinJoint", "SliderJoint"])
def test_an_unclamped_range_with_a_nan_end_is_commented_as_opensim_keeps_it(tmp_path,
                                                                           written, joint):
    """An unclamped coordinate's <range> with a NaN end: OpenSim 4.6 keeps the NaN (the
    oracle, in a fresh process, its range), and urdf2dyn reads it as no bound there. The
    URDF's comment of the range said "-inf 1", a range no file wrote and OpenSim does not
    keep; it says "nan 1". Pinocchio and MuJoCo read the joint free (a continuous pin, a
    slider limited at 1e16 only) and MuJoCo holds it nowhere."""
    from rra_oracle import _run_in_a_fresh_process
    from test_osim_errors import _body, _doc, _pin
    text = _doc(_body("b0"), _pin("j0", "/ground", "/bodyset/b0", "q0").replace(
        "PinJoint", joint).replace('<Coordinate name="q0"/>', f'<Coordinate name="q0"><range>'
                                   f'{written}</range><clamped>false</clamped></Coordinate>'))
    path = tmp_path / "nan.osim"
    path.write_text(text)
    theirs = [float(end) for end in _run_in_a_fresh_process(_RANGE_SCRIPT, str(path))]
    assert np.isnan(theirs).any()
    pinocchio, mine, held = _urdf_ranges_and_mujoco_limits(path, tmp_path, {"q0": 40.0})
    if joint == "PinJoint":
        assert pinocchio["q0"][0].startswith("JointModelRUB") and not mine["q0"][0]
    else:
        assert pinocchio["q0"][1:] == mine["q0"][1:] == (-1e16, 1e16)
    assert held == set()
    comment = (tmp_path / "converted.urdf").read_text().split("<!-- OpenSim range ")[1]
    ends = [float(end) for end in comment.split(",")[0].split()]
    np.testing.assert_array_equal(ends, theirs)


def test_clamped_coordinates_convert_to_their_range_as_urdf_limits(tmp_path):
    """Rajagopal 2016's coordinates are clamped but for two its knees' couplers drive (the
    URDF freezes those): each one the URDF keeps has the .osim's range as its <limit>, as
    Pinocchio and MuJoCo read it, and MuJoCo holds a coordinate put beyond it there, as
    OpenSim's IK would."""
    path = os.path.join(DATA, "Rajagopal2016.osim")
    ranges = _file_ranges(path)
    theirs, mine, held = _urdf_ranges_and_mujoco_limits(
        path, tmp_path, {"pelvis_tx": 7.0, "hip_flexion_r": np.radians(150)})
    assert len(theirs) == 37 and set(theirs) == set(mine)
    for name in theirs:
        lower, upper, clamped = ranges[name]
        assert clamped, name
        assert theirs[name][1:] == (lower, upper), (name, theirs[name])
        assert mine[name] == (True, lower, upper), (name, mine[name])
    assert held == {"pelvis_tx", "hip_flexion_r"}


def test_every_joint_type_converts(tmp_path):
    """Universal, gimbal, planar, slider, pin (with child offsets) and weld are exact; the
    custom joint whose axes are all functions other than +-q is frozen, its three
    coordinates removed, each axis named."""
    path = tmp_path / "every.osim"
    path.write_text(every_joint_model())
    model = _quiet(urdf2dyn.load, path)
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match=r"joint 'j1': URDF cannot express "
                      r"translation1 \(a function of c0\) at c0 = 0.1 \(value [-0-9.e]+\); "
                      r".*rotation1 \(a function of c0\).*coordinates c0, c1, c2 removed"):
        text = osim_to_urdf(model)
    urdf = urdf2dyn.load(text)
    assert sorted(urdf.q_names) == sorted(n for n in model.q_names if n not in ("c0", "c1", "c2"))
    assert _compare(model, urdf, ["c0", "c1", "c2"], seed=2) < 1e-12


def test_strict_refuses_what_it_would_approximate():
    model = _quiet(urdf2dyn.load, os.path.join(DATA, "gait10dof18musc.osim"))
    with pytest.raises(ValueError, match="joint .knee_[lr].: URDF cannot express.*frozen there"):
        osim_to_urdf(model, strict=True)


def test_a_urdf_model_is_refused():
    with pytest.raises(ValueError, match="not read from an OpenSim file"):
        osim_to_urdf(urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf")))


def test_cli_convert(tmp_path, capsys):
    out = tmp_path / "g.urdf"
    rc = main(["convert", os.path.join(DATA, "gait10dof18musc.osim"), "-o", str(out)])
    cap = capsys.readouterr()
    assert rc == 0
    assert "movable joints named after the coordinates" in cap.out
    # convert takes no --gravity: the advice names the commands that do (their parsers)
    said = re.search(r"where its dynamics are computed, set it with --gravity 0 -9.80665 0 "
                     r"\(urdf2dyn (\S+), (\S+) and (\S+) take it\)\n", cap.out)
    assert said, cap.out
    commands = build_parser()._subparsers._group_actions[0].choices
    def takes_gravity(name):
        return any("--gravity" in a.option_strings for a in commands[name]._actions)
    assert not takes_gravity("convert")
    assert all(takes_gravity(name) for name in said.groups()), said.groups()
    assert "urdf2dyn convert: warning:" in cap.err and "knee_r" in cap.err
    assert urdf2dyn.load(out).nq == 10
    rc = main(["convert", os.path.join(DATA, "gait10dof18musc.osim"), "-o", str(out),
               "--strict"])
    assert rc == 1 and "urdf2dyn convert: error:" in capsys.readouterr().err


def test_library_convert_advises_the_gravity_as_python_not_a_flag(tmp_path):
    """A library caller told the model's gravity is set with Python, not with --gravity:
    running the advice on the URDF loaded gives OpenSim's own gravity of the model."""
    opensim = pytest.importorskip("opensim")
    from urdf2dyn.biomech.formats import convert
    source = os.path.join(DATA, "gait10dof18musc.osim")
    out = tmp_path / "g.urdf"
    [(path, summary)] = _quiet(convert, source, [out])
    assert "--" not in summary
    advice = summary.partition("set it with ")[2]
    model = urdf2dyn.load(path)
    exec(advice, {"model": model})
    g = opensim.Model(source).getGravity()
    np.testing.assert_allclose(model.gravity, [g.get(i) for i in range(3)], atol=1e-12)


def test_osim_to_urdfs_docstring_says_where_the_gravity_is_in_the_librarys_words(tmp_path):
    """osim_to_urdf's docstring said the model's gravity is "to be passed as --gravity", a
    flag no library caller has, and that a warning says it, which none does: it names the
    document's opening comment and the library call, run here as written (it was
    ``urdf2dyn.load(path).gravity = ...``, which sets the gravity of a model it drops).
    Oracle: OpenSim's gravity of the model, read from the comment and set with the call."""
    opensim = pytest.importorskip("opensim")
    import inspect
    from caller_words import flags_named
    doc = inspect.getdoc(osim_to_urdf)
    assert not flags_named(doc), doc
    code = re.search(r"opening comment.*?``(.+?)``", doc, re.S)
    assert code, doc
    source = os.path.join(DATA, "gait10dof18musc.osim")
    path = tmp_path / "g.urdf"
    text = _quiet(osim_to_urdf, source, path)
    said = re.search(r"<!--[^>]*gravity (\S+) (\S+) (\S+) ", text)
    names = {"urdf2dyn": urdf2dyn, "path": path,
             **{f"g{x}": float(v) for x, v in zip("xyz", said.groups())}}
    exec(" ".join(code[1].split()), names)
    g = opensim.Model(source).getGravity()
    np.testing.assert_allclose(names["model"].gravity, [g.get(i) for i in range(3)],
                               atol=1e-12)


def test_cli_convert_names_what_it_reads_and_refuses_c3d_options(tmp_path, capsys):
    """A .urdf input is refused with the suffixes convert does read (.osim among them), and
    an option that only a C3D file uses is refused, not ignored."""
    for flags in ([], ["--units", "mm"]):
        # with a C3D flag too: said as unread, not as a file that "converts without them"
        rc = main(["convert", urdf2dyn.data_path("robot2r.urdf"), "-o",
                   str(tmp_path / "x.osim"), *flags])
        err = capsys.readouterr().err
        assert rc == 1 and "convert reads ['.c3d', '.osim']" in err, err
    model = os.path.join(DATA, "gait10dof18musc.osim")
    for option in (["--rotate", "x:-90"], ["--threshold", "30"], ["--units", "m"],
                   ["--rate", "marker"]):
        rc = main(["convert", model, "-o", str(tmp_path / "g.urdf"), *option])
        err = capsys.readouterr().err
        assert rc == 2 and f"{option[0]}: for a C3D input" in err, (option, err)
        assert "rotation" not in err, err
        assert not (tmp_path / "g.urdf").exists()


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.sampled_from(["", "nan", "<OpenSimDocument/>", "<robot name='r'><link name='a'/>"
                        "</robot>", every_joint_model()[:300], every_joint_model()]),
       st.booleans())
def test_cli_convert_any_input_ends_in_a_status(tmp_path_factory, text, strict):
    """A URDF written that loads, or one `urdf2dyn convert: error:` line and nothing written;
    never a traceback."""
    import contextlib
    import io
    d = tmp_path_factory.mktemp("conv")
    src, out = d / "in.osim", d / "out.urdf"
    src.write_text(text)
    argv = ["convert", str(src), "-o", str(out)] + (["--strict"] if strict else [])
    err = io.StringIO()
    with contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
        status = main(argv)
    err = err.getvalue()
    assert status in (0, 1) and "Traceback" not in err, err
    if status == 0:
        assert out.read_text().lstrip().startswith(("<?xml", "<robot"))
        _quiet(urdf2dyn.load, str(out))
    else:
        assert "urdf2dyn convert: error: " in err and not out.exists(), err


def test_cli_info_takes_an_osim_model(capsys):
    assert main(["info", os.path.join(DATA, "gait10dof18musc.osim")]) == 0
    out = capsys.readouterr().out
    assert "ground_pelvis (custom, 3 DoF) -> pelvis" in out
    assert "knee_r (custom, 1 DoF) -> tibia_r" in out


def test_cli_torques_takes_an_osim_model(tmp_path, capsys):
    model = _quiet(urdf2dyn.load, os.path.join(DATA, "gait10dof18musc.osim"))
    t = np.linspace(0, 1, 51)
    rows = ["time," + ",".join(model.q_names)]
    rows += [f"{x}," + ",".join(f"{0.1 * np.sin(2 * x + k)}" for k in range(model.nq))
             for x in t]
    (tmp_path / "m.csv").write_text("\n".join(rows) + "\n")
    out = tmp_path / "tau.csv"
    assert main(["torques", os.path.join(DATA, "gait10dof18musc.osim"),
                 str(tmp_path / "m.csv"), "-o", str(out)]) == 0
    header = out.read_text().splitlines()[0].split(",")
    assert header[0] == "time" and set(model.q_names) <= {h.strip() for h in header[1:]}


def test_cli_codegen_takes_an_osim_model(tmp_path, capsys):
    """Custom joints generate (tests/test_codegen_osim.py checks the code against the core)."""
    assert main(["codegen", os.path.join(DATA, "gait10dof18musc.osim"), "--lang", "python",
                 "-o", str(tmp_path / "out")]) == 0
    (source,) = (tmp_path / "out").iterdir()
    assert "def _fn" in source.read_text()           # the knee's spline routines


@pytest.mark.parametrize("argv, message", [
    (["export-osim", "MODEL", "-o", "OUT.osim"], "read from an OpenSim file already"),
])
def test_commands_that_cannot_take_an_osim_model_say_so(argv, message, tmp_path, capsys):
    argv = [os.path.join(DATA, "gait10dof18musc.osim") if a == "MODEL" else
            str(tmp_path / "out") if a == "OUT" else
            str(tmp_path / "out.osim") if a == "OUT.osim" else a for a in argv]
    if argv[0] == "export-osim":
        pytest.importorskip("opensim")
    assert main(argv) == 1
    assert message in capsys.readouterr().err


def test_a_scaled_models_pelvis_translations_convert_to_prismatic_joints(osim, tmp_path):
    """OpenSim's ScaleTool writes every transform axis's function inside a
    MultiplierFunction: the IK data's scaled gait2392 (subject01_simbody.osim) moves pelvis_tx
    by scale 1 times the LinearFunction 1 0, q itself. convert took only a bare
    LinearFunction for +-q: it froze the pelvis translations and removed pelvis_tx, _ty and
    _tz, so the URDF of a scaled subject could not translate. Now they are prismatic joints
    (the knees' spline translations stay frozen). Oracle: OpenSim 4.6's inverse dynamics of
    the .osim, with the knees at their default and still, equals that of the URDF but on the
    knees (whose torque the frozen translations' slopes enter)."""
    from osim_oracle import Oracle
    path = os.path.join(os.path.dirname(__file__), "data", "ik", "gait2392",
                        "subject01_simbody.osim")
    text = open(path, encoding="utf-8").read()
    assert "<MultiplierFunction" in text and "<coordinates>pelvis_tx</coordinates>" in text
    model = _quiet(urdf2dyn.load, path)
    out = tmp_path / "subject01.urdf"
    with pytest.warns(urdf2dyn.Urdf2dynWarning) as said:
        osim_to_urdf(model, out)
    assert not [str(w.message) for w in said if "'ground_pelvis'" in str(w.message)]
    joints = {j.get("name"): j.get("type") for j in ElementTree.parse(out).iter("joint")}
    assert {joints.get(n) for n in ("pelvis_tx", "pelvis_ty", "pelvis_tz")} == {"prismatic"}
    urdf = urdf2dyn.load(out)
    urdf.gravity = model.gravity
    assert sorted(urdf.q_names) == sorted(model.q_names)
    oracle = Oracle(osim, path, list(urdf.q_names))
    rng = np.random.default_rng(4)
    knees = [urdf.q_names.index(k) for k in KNEES]
    for _ in range(3):
        q = rng.uniform(-0.5, 0.5, urdf.nq)
        v, a = rng.normal(0, 2, (2, urdf.nv))
        q[knees] = v[knees] = a[knees] = 0.0
        theirs = np.delete(oracle.inverse_dynamics(q, v, a), knees)
        ours = np.delete(urdf.inverse_dynamics(q, v, a), knees)   # the frozen slide moved them
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9 * np.abs(theirs).max())


_NAMES_SCRIPT = """
import json, sys
import opensim
model = opensim.Model(sys.argv[1])
model.initSystem()
coordinates = model.getCoordinateSet()
print(json.dumps([model.getName()] + [coordinates.get(k).getName()
                                      for k in range(coordinates.getSize())]))
"""


def test_names_xml_escapes_convert_to_a_urdf_every_reader_reads_with_the_names(tmp_path):
    """An .osim's names hold what XML escapes (&amp; &lt; &gt; &quot;, written so in its
    file), and its model's name a "--", which no XML comment may hold: convert wrote them as
    they read into the URDF's attributes and its opening comment, a file no XML parser reads
    (Pinocchio: "does not contain a valid URDF model"), with exit 0. The oracle: OpenSim 4.6's
    names for the file (in a fresh process), read back from the URDF by Pinocchio (urdfdom),
    MuJoCo's URDF import and Python's XML parser."""
    pin = pytest.importorskip("pinocchio")
    mujoco = pytest.importorskip("mujoco")
    from rra_oracle import _run_in_a_fresh_process
    from test_osim_errors import _body, _doc, _pin
    body, coordinate = "b&amp;&lt;1&gt;", "q&quot;&amp;'x"
    text = _doc(_body(body), _pin("j&amp;0", "/ground", f"/bodyset/{body}", coordinate)).replace(
        '<Model name="t">', '<Model name="gait--&lt;v2&gt;-">')
    path = tmp_path / "names.osim"
    path.write_text(text)
    model_name, *coordinates = _run_in_a_fresh_process(_NAMES_SCRIPT, str(path))
    assert (model_name, coordinates) == ("gait--<v2>-", ["q\"&'x"])
    out = tmp_path / "names.urdf"
    _quiet(osim_to_urdf, _quiet(urdf2dyn.load, path), out)
    root = ElementTree.parse(out).getroot()
    assert root.get("name") == model_name
    robot = pin.buildModelFromUrdf(str(out))
    assert list(robot.names)[1:] == coordinates
    assert "b&<1>" in [f.name for f in robot.frames]
    mj = mujoco.MjModel.from_xml_path(str(out))
    assert [mj.joint(j).name for j in range(mj.njnt)] == coordinates
