"""Malformed, hostile and unknown .osim content: refused with the element and line named, or
read with a warning that says what was done; never a crash, a hang or a traceback of ours.
(No OpenSim needed: tests/test_osim.py compares the good models with OpenSim.)"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn import URDFError

from test_osim import every_joint_model
from text_edits import edited


def _doc(bodies, joints, extra="", version="40000"):
    return (f'<?xml version="1.0"?>\n<OpenSimDocument Version="{version}">\n<Model name="t">\n'
            f'<BodySet><objects>\n{bodies}</objects></BodySet>\n'
            f'<JointSet><objects>\n{joints}</objects></JointSet>\n{extra}'
            '</Model>\n</OpenSimDocument>\n')


def _body(name, mass="1"):
    return (f'<Body name="{name}"><mass>{mass}</mass><mass_center>0 0.1 0</mass_center>'
            '<inertia>0.1 0.1 0.1 0 0 0</inertia></Body>\n')


def _pin(name, parent, child, coord="q", body=""):
    return (f'<PinJoint name="{name}"><socket_parent_frame>{parent}</socket_parent_frame>'
            f'<socket_child_frame>{child}</socket_child_frame><coordinates>'
            f'<Coordinate name="{coord}"/></coordinates></PinJoint>\n')


def _custom(name, parent, child, function, coords="q"):
    axes = f'<TransformAxis name="rotation1"><coordinates>{coords}</coordinates>' \
           f'<axis>0 0 1</axis>{function}</TransformAxis>'
    return (f'<CustomJoint name="{name}"><socket_parent_frame>{parent}</socket_parent_frame>'
            f'<socket_child_frame>{child}</socket_child_frame><coordinates>'
            f'<Coordinate name="q"/></coordinates><SpatialTransform>{axes}</SpatialTransform>'
            f'</CustomJoint>\n')


def _load(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(text)


def _refused(text, *pieces):
    with pytest.raises(URDFError) as e:
        _load(text)
    msg = str(e.value)
    for p in pieces:
        assert re.search(p, msg), (p, msg)
    return msg


def test_a_minimal_model_loads_with_opensims_defaults():
    m = _load(_doc(_body("b"), _pin("j", "/ground", "/bodyset/b")))
    assert m.q_names == ("q",)
    assert m.gravity.tolist() == [0.0, -9.80665, 0.0]       # OpenSim's default gravity
    assert m.joints[0].type == "revolute" and m.joints[0].axis == (0.0, 0.0, 1.0)


def test_missing_body_is_refused_naming_the_joint_and_line():
    _refused(_doc(_body("b"), _pin("j", "/ground", "/bodyset/nobody")),
             r"^line 8: joint 'j': <socket_child_frame>/bodyset/nobody</socket_child_frame>: "
             r"no such body or frame")


def test_body_without_joint_and_body_with_two_joints():
    _refused(_doc(_body("a") + _body("b"), _pin("j", "/ground", "/bodyset/a")),
             r"body 'b' has no joint")
    _refused(_doc(_body("a"), _pin("j", "/ground", "/bodyset/a") +
                  _pin("k", "/ground", "/bodyset/a", coord="r")),
             r"body 'a' is the child of two joints, 'j' and 'k'")


_LOAD_IN_A_CHILD = """
import sys, warnings, urdf2dyn
# only the refusal is printed and read: what the core warns about on the way is not the subject
warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
try:
    urdf2dyn.load(sys.stdin.read())
except urdf2dyn.URDFError as e:
    print(e)
"""


def _refused_in_a_child(text):
    """The message a fresh interpreter prints for text: a crash of the core fails the test
    (its exit status) instead of killing pytest."""
    proc = subprocess.run([sys.executable, "-c", _LOAD_IN_A_CHILD], input=text,
                          capture_output=True, text=True, timeout=60,
                          cwd=tempfile.gettempdir())   # import the installed package
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-2000:]}"
    return proc.stdout


@pytest.mark.parametrize("order", [["b", "a"], ["c", "b", "a"]], ids=["two", "three"])
def test_a_parent_without_joint_listed_after_its_child_is_named(order):
    """check_tree walked from each body to ground through bodies listed after it, reading
    joint[-1] on a parent without a joint (a segfault): a chain listed leaf first."""
    joints = "".join(_pin(f"{p}{c}", f"/bodyset/{p}", f"/bodyset/{c}", coord=f"q{c}")
                     for c, p in zip(order, order[1:]))
    msg = _refused_in_a_child(_doc("".join(_body(b) for b in order), joints))
    assert "body 'a' has no joint: every body needs one" in msg, msg


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_utf16_model_is_told_what_it_is(tmp_path, codec):
    """A UTF-16 .osim declaring its encoding was told to declare its encoding (and one
    without a byte-order mark that its text 'contains a NUL character')."""
    text = _doc(_body("b"), _pin("j", "/ground", "/bodyset/b"))
    family = codec[:6].upper()
    for declared, said in ((family, f'as its encoding="{family}" says'),
                           ("UTF-8", 'although its encoding="UTF-8" says otherwise')):
        path = tmp_path / "m.osim"
        path.write_bytes(text.replace('<?xml version="1.0"?>',
                                      f'<?xml version="1.0" encoding="{declared}"?>')
                         .encode(codec))
        with pytest.raises(URDFError) as e:
            urdf2dyn.load(path)
        assert str(e.value) == (f"{path}: the file is {family} text ({said}); urdf2dyn reads "
                                f"models as UTF-8, and OpenSim reads no {family} model either: "
                                "save it as UTF-8 (e.g. in Notepad: Save As, Encoding: UTF-8)")


def test_cycle_is_refused():
    _refused(_doc(_body("a") + _body("b"), _pin("j", "/bodyset/b", "/bodyset/a") +
                  _pin("k", "/bodyset/a", "/bodyset/b", coord="r")),
             r"the joints form a cycle through body")


def test_cycle_of_offset_frames_is_refused():
    """Each frame the other's parent, by the path OpenSim reads from a joint's frame (its
    sibling is ../name)."""
    frames = ('<frames><PhysicalOffsetFrame name="f1"><socket_parent>../f2</socket_parent>'
              '</PhysicalOffsetFrame><PhysicalOffsetFrame name="f2"><socket_parent>../f1'
              '</socket_parent></PhysicalOffsetFrame></frames>')
    joint = _pin("j", "f1", "/bodyset/b").replace("</PinJoint>", frames + "</PinJoint>")
    _refused(_doc(_body("b"), joint), r"offset frames nest more than 16 deep")


@pytest.mark.parametrize("knots, message", [
    ("<x>0 1 1 2</x><y>0 1 2 3</y>", r"line 8: joint 'j': <SimmSpline><x>: knots must increase, "
     r"but knot 3 \(1\) follows 1"),
    ("<x>0 1 2</x><y>0 1</y>", r"<SimmSpline>: 3 x knots but 2 y values"),
    ("<x>0</x><y>1</y>", r"<SimmSpline>: 1 knot; a function needs at least 2"),
    ("<x>0 nan 2</x><y>0 1 2</y>", r"<x>0 nan 2</x>: number is not finite"),
    ("<x>0 1e999 2</x><y>0 1 2</y>", r"number is not finite"),
    ("<x>0 1 2</x><y>0 one 2</y>", r"<y>0 one 2</y>: not a number"),
    ("<y>0 1 2</y>", r"<SimmSpline> needs <x> and <y> knots"),
])
def test_bad_function_knots_are_refused(knots, message):
    _refused(_doc(_body("b"), _custom("j", "/ground", "/bodyset/b",
                                      f'<SimmSpline name="function">{knots}</SimmSpline>')),
             message)


def test_nan_mass_and_negative_mass_are_refused():
    _refused(_doc(_body("b", mass="nan"), _pin("j", "/ground", "/bodyset/b")),
             r"line 5: body 'b': <mass>nan</mass>: number is not finite")
    _refused(_doc(_body("b", mass="-2"), _pin("j", "/ground", "/bodyset/b")),
             r"<mass>-2</mass>: mass must be >= 0")


def test_hexadecimal_numbers_are_refused():
    """OpenSim reads <mass>0x10</mass> as 0 (and a massless body), strtod as 16: neither
    is what a reader of the file would take it for."""
    _refused(_doc(_body("b", mass="0x10"), _pin("j", "/ground", "/bodyset/b")),
             r"line 5: body 'b': <mass>0x10</mass>: hexadecimal numbers are not read .*decimal")


def test_unknown_function_joint_and_unsupported_features_are_refused_by_name():
    _refused(_doc(_body("b"), _custom("j", "/ground", "/bodyset/b",
                                      '<Sine name="function"><amplitude>1</amplitude></Sine>')),
             r"<Sine>: unsupported function \(urdf2dyn reads Constant, LinearFunction")
    _refused(_doc(_body("b"), _pin("j", "/ground", "/bodyset/b").replace(
        "PinJoint", "CantileverFreeBeamJoint")),
        # a joint of opensim-core after 4.6 (its commit 91c58584e): the readable ones, and
        # what to do
        r"<CantileverFreeBeamJoint>: unsupported joint type \(urdf2dyn reads .*Scapulothoracic, "
        r"ConstantCurvature and Custom joints\); to use the model, replace it in a copy of the "
        r"file by one \(a CustomJoint can express most\)$")
    # a long type name (36 characters) is shortened, not the advice after it
    _refused(_doc(_body("b"), _pin("j", "/ground", "/bodyset/b").replace(
        "PinJoint", "VeryLongExperimentalResearchJoint3Dx")),
        r"<VeryLongExperimentalResearchJoint3Dx>: unsupported joint type",
        r"\(a CustomJoint can express most\)$")
    _refused(_doc(_body("b"), _pin("j", "/ground", "/bodyset/b").replace("PinJoint",
                                                                          "EllipsoidJoint")),
             r"an EllipsoidJoint has 3 coordinates, this one 1")
    _refused(_doc(_body("b"), _pin("j", "/ground", "/bodyset/b").replace(
        "PinJoint", "ConstantCurvatureJoint")),
        r"a ConstantCurvatureJoint has 3 coordinates, this one 1")
    _refused(_doc(_body("b"), _custom("j", "/ground", "/bodyset/b", "", coords="q q2")),
             r"functions of several coordinates \(q q2\) are not supported")
    _refused(_doc(_body("b"), _custom("j", "/ground", "/bodyset/b", "", coords="other")),
             r"<coordinates>other: not a coordinate of this joint")
    rev = _pin("j", "/ground", "/bodyset/b").replace("</PinJoint>",
                                                     "<reverse>true</reverse></PinJoint>")
    # a document older than 30514 swaps the frames of <connectors>, and OpenSim 4.6 fails to
    # load one whose frames are sockets; a newer one's <reverse> is ignored
    _refused(_doc(_body("b"), rev, version="30513"),
             r"<reverse>true</reverse> in a file of version 30513 whose joints name "
             r"<socket_parent_frame>: OpenSim 4.6 fails to load it .*; swap the joint's parent "
             r"and child frames and delete <reverse>$")


def test_collinear_axes_are_refused_as_opensim_does():
    joint = _custom("j", "/ground", "/bodyset/b", "").replace(
        "</SpatialTransform>", '<TransformAxis name="rotation2"><axis>0 0 2</axis>'
        '</TransformAxis></SpatialTransform>')
    _refused(_doc(_body("b"), joint), r"rotation1 and rotation2 are collinear")


def test_not_an_opensim_model():
    _refused('<?xml version="1.0"?><OpenSimDocument Version="40000"></OpenSimDocument>',
             r"<OpenSimDocument> has no <Model>")
    _refused('<OpenSimDocument><Model><BodySet><objects><Body name="a"><mass>1 2</mass>'
             '</Body></objects></BodySet></Model></OpenSimDocument>',
             r"<mass>1 2</mass>: expected 1 number, got 2")


def test_entities_are_not_expanded():
    """An internal DTD's entities (billion laughs) are not Mini-XML's business: the document
    is refused or read literally, at once."""
    lol = ('<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
           '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>\n')
    text = _doc(_body("&c;"), _pin("j", "/ground", "/bodyset/&c;"))
    text = text.replace("<OpenSimDocument", lol + "<OpenSimDocument", 1)
    t0 = time.perf_counter()
    try:
        m = _load(text)
        assert len(max(m.link_names, key=len)) < 100
    except URDFError:
        pass
    assert time.perf_counter() - t0 < 5


def test_a_long_chain_loads_without_recursion():
    n = 3000
    bodies = "".join(_body(f"b{k}") for k in range(n))
    joints = "".join(_pin(f"j{k}", "/ground" if k == 0 else f"/bodyset/b{k - 1}",
                          f"/bodyset/b{k}", coord=f"q{k}") for k in range(n))
    m = _load(_doc(bodies, joints))
    assert m.nq == n and m.q_names[-1] == f"q{n - 1}"


def test_actuators_and_what_drives_them_load_quietly_even_under_strict():
    """Muscles, actuators, controllers, probes and contact geometries change no joint moment
    inverse dynamics gives (it gives what the actuators supply): every published model has
    them, and strict loads it."""
    extra = ('<ForceSet><objects><Thelen2003Muscle name="m1"/><CoordinateActuator name="a"/>'
             '</objects></ForceSet><ContactGeometrySet><objects><ContactSphere name="s"/>'
             '</objects></ContactGeometrySet><ControllerSet><objects>'
             '<PrescribedController name="c"/></objects></ControllerSet>')
    doc = _doc(_body("b"), _pin("j", "/ground", "/bodyset/b"), extra)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = urdf2dyn.load(doc, strict=True)
    assert [(f.name, f.actuator) for f in m.forces] == [("m1", True), ("a", True)]
    assert m.findings == ()


def test_an_actuator_named_without_actuator_or_muscle_is_an_actuator():
    """OpenSim's ClutchedPathSpring is a PathActuator (a controlled clutch): an actuator, in
    OpenSim's Actuators group, though its class names neither; strict loads it."""
    extra = '<ForceSet><objects><ClutchedPathSpring name="clutch"/></objects></ForceSet>'
    doc = _doc(_body("b"), _pin("j", "/ground", "/bodyset/b"), extra)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = urdf2dyn.load(doc, strict=True)
    assert [(f.name, f.actuator) for f in m.forces] == [("clutch", True)]


def test_passive_forces_and_unenforced_constraints_warn_and_strict_refuses():
    """A spring or a ligament would change the joint moments (OpenSim applies it, urdf2dyn
    does not), a weld constraint the inverse kinematics: each is named, strict refuses."""
    extra = ('<ForceSet><objects><Thelen2003Muscle name="m1"/>'
             '<SpringGeneralizedForce name="knee_spring"/><Ligament name="acl"/>'
             '</objects></ForceSet><ConstraintSet><objects><WeldConstraint name="w"/>'
             '</objects></ConstraintSet>')
    doc = _doc(_body("b"), _pin("j", "/ground", "/bodyset/b"), extra)
    with pytest.warns(urdf2dyn.URDFWarning) as rec:
        m = urdf2dyn.load(doc)
    msgs = sorted(str(w.message) for w in rec)
    assert msgs[0].startswith("2 force elements that urdf2dyn does not apply: 'knee_spring' "
                              "(SpringGeneralizedForce), 'acl' (Ligament). OpenSim's tools "
                              "apply them unless <forces_to_exclude> names them"), msgs
    assert msgs[1] == ("skipped what does not enter inverse dynamics: 1 constraint that "
                       "urdf2dyn does not enforce, in inverse kinematics either (OpenSim's "
                       "IK would)")
    assert len(m.findings) == 2
    with pytest.raises(URDFError, match="'knee_spring'|1 constraint that"):
        urdf2dyn.load(doc, strict=True)


def test_ball_and_free_joints_warn_about_their_speeds():
    ball = _pin("j", "/ground", "/bodyset/b").replace("PinJoint", "BallJoint").replace(
        '<Coordinate name="q"/>', '<Coordinate name="x"/><Coordinate name="y"/>'
        '<Coordinate name="z"/>')
    with pytest.warns(urdf2dyn.URDFWarning, match="BallJoint.*angular velocity"):
        m = urdf2dyn.load(_doc(_body("b"), ball))
    assert m.q_names == ("x", "y", "z")


def test_path_errors_name_the_file(tmp_path):
    p = tmp_path / "bad.osim"
    p.write_text(_doc(_body("b"), _pin("j", "/ground", "/bodyset/nobody")))
    with pytest.raises(URDFError, match=r"bad\.osim:8: joint 'j'"):
        urdf2dyn.load(p)


# ------------------------------------------------------------ property-based: no traceback

GOOD = every_joint_model()
TOKENS = ["nan", "inf", "-1", "1e308", "", "0 0", "<x>", "</y>", "&amp;", "/bodyset/b1",
          "ground", "<SimmSpline>", "<Constant/>", "CustomJoint", "<coordinates>c0 c1",
          "\x00", "<!--", "]]>", "<?xml?>", "b1", "0 0 0 0 0 0 0"]


def mutated():
    """The small .osim model with a few edits, each inserting or replacing with a token."""
    return edited(GOOD, st.sampled_from(TOKENS),
                  kinds=("delete", "insert", "replace", "duplicate"), edits=4, span=40)


#: <Body name="bK"><mass>..</mass><mass_center>..</mass_center><inertia>..</inertia>: the
#: spans of the values, per body, and of <gravity>'s
_BODY = re.compile(r'<Body name="(\w+)"><mass>([^<]*)</mass><mass_center>([^<]*)</mass_center>'
                   r'<inertia>([^<]*)</inertia>')
_FINITE = st.floats(-2, 2, allow_subnormal=False).map(repr)
_VECTOR = st.tuples(_FINITE, _FINITE, _FINITE).map(" ".join)
_BAD = {"mass": ["nan", "-1", "abc", "", "1e999", "1 2"],
        "mass_center": ["0 nan 0", "0 0", "x 0 0", "0 0 0 0", "inf 0 0"],
        "inertia": ["nan 0.1 0.1 0 0 0", "0.1 0.1 0.1 0 0", "0.1 0.1 0.1 0 0 abc"],
        "gravity": ["0 nan 0", "0 -9.8", "0 -9.8 0 1"]}


def _values(text):
    """{(body, element): (start, end)} of each body's mass, mass centre and inertia, and
    {("", "gravity"): span}."""
    spans = {("", "gravity"): re.search(r"<gravity>([^<]*)</gravity>", text).span(1)}
    for m in _BODY.finditer(text):
        for k, element in enumerate(("mass", "mass_center", "inertia"), 2):
            spans[(m.group(1), element)] = m.span(k)
    return spans


def _put(text, span, value):
    return text[:span[0]] + value + text[span[1]:]


@st.composite
def varied_model(draw):
    """The small .osim model with every body's mass and mass centre and the gravity drawn
    anew (values the model may have). Returns (text, {body: (mass, centre)}, gravity)."""
    text, inertial = GOOD, {}
    gravity = draw(st.tuples(*[st.floats(-20, 20, allow_subnormal=False)] * 3))
    for body in reversed([m.group(1) for m in _BODY.finditer(GOOD)]):   # spans stay valid
        mass = draw(st.floats(0, 100, allow_subnormal=False))
        centre = draw(st.tuples(*[st.floats(-2, 2, allow_subnormal=False)] * 3))
        inertial[body] = (mass, np.array(centre))
        spans = _values(text)
        text = _put(text, spans[(body, "mass_center")], " ".join(map(repr, centre)))
        text = _put(text, spans[(body, "mass")], repr(mass))
    text = _put(text, _values(text)[("", "gravity")], " ".join(map(repr, gravity)))
    return text, inertial, np.array(gravity)


@st.composite
def one_bad_value(draw):
    """The small .osim model with one value a body or <gravity> cannot have. Returns (text,
    what the refusal names)."""
    body, element = draw(st.sampled_from(sorted(_values(GOOD))))
    value = draw(st.sampled_from(_BAD[element]))
    text = _put(GOOD, _values(GOOD)[(body, element)], value)
    line = GOOD.count("\n", 0, _values(GOOD)[(body, element)][0]) + 1
    return text, f"line {line}: " + (f"body '{body}': " if body else "") + f"<{element}>"


_Q = np.linspace(-0.5, 0.5, 13)     # a configuration of every joint model's 13 coordinates
_H = 1e-5


def _body_frames():
    """Every body's frame (position, rotation) in the unedited model at _Q and at _Q +- _H
    along each coordinate: kinematics do not depend on the masses drawn."""
    model = _load(GOOD)
    frames = []
    for q in [_Q] + [_Q + s * _H * e for e in np.eye(model.nq) for s in (1, -1)]:
        pos, rot = model.forward_kinematics(q)
        frames.append({name: (pos[k], rot[k]) for k, name in enumerate(model.link_names)})
    return frames


_FRAMES = _body_frames()


def _potential(frames, inertial, gravity):
    """-sum m g.c over the bodies, c each body's mass centre in the world: by hand."""
    return -sum(mass * gravity @ (frames[b][0] + frames[b][1] @ centre)
                for b, (mass, centre) in inertial.items())


@settings(max_examples=80, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(mutated().map(lambda v: ("mutated", v)),
                 varied_model().map(lambda v: ("varied", v)),
                 one_bad_value().map(lambda v: ("bad value", v))))
def test_mutated_models_load_right_or_are_refused_naming_the_place(case):
    """Bodies' masses and mass centres and the gravity drawn anew: the model's total mass,
    gravity, centre of mass and potential energy are what those numbers give by hand (with
    the unedited model's body frames), and its gravity torques are the potential's
    derivative. One value a body cannot have: refused naming the line, the body and the
    element. Edits anywhere: a usable model or a refusal, never another exception."""
    kind, value = case
    if kind == "varied":
        text, inertial, gravity = value
        m = _load(text)
        mass = sum(mass for mass, _ in inertial.values())
        assert m.total_mass == pytest.approx(mass, rel=1e-12)
        np.testing.assert_array_equal(m.gravity, gravity)
        u = [_potential(frames, inertial, gravity) for frames in _FRAMES]
        scale = 1 + sum(mass * 4 * np.linalg.norm(gravity) for mass, _ in inertial.values())
        assert m.potential_energy(_Q) == pytest.approx(u[0], rel=1e-9, abs=1e-12 * scale)
        if mass > 0:
            com = sum(mass * (_FRAMES[0][b][0] + _FRAMES[0][b][1] @ c)
                      for b, (mass, c) in inertial.items()) / mass
            np.testing.assert_allclose(m.center_of_mass(_Q), com, rtol=1e-9, atol=1e-12)
        slope = (np.array(u[1::2]) - np.array(u[2::2])) / (2 * _H)
        np.testing.assert_allclose(m.gravity_torques(_Q), slope, rtol=1e-5, atol=1e-8 * scale)
        return
    if kind == "bad value":
        text, place = value
        with pytest.raises(URDFError) as e:
            _load(text)
        assert place in str(e.value), (place, str(e.value))
        return
    try:
        m = _load(value.encode("utf-8", "surrogatepass"))     # bytes: always the text itself
    except (URDFError, ValueError) as e:
        assert str(e)
        return
    # what loads is a usable model
    q = np.zeros(m.nq)
    assert m.inverse_dynamics(q, q, q).shape == (m.nv,)


def test_non_physical_inertia_is_read_with_a_warning():
    body = _body("b").replace("<inertia>0.1 0.1 0.1 0 0 0</inertia>",
                              "<inertia>0.09 0.01 0.011 0 0 0</inertia>")
    with pytest.warns(urdf2dyn.URDFWarning, match=r"line 5: body 'b': <inertia> 0.09 0.01 "
                      r"0.011 0 0 0: principal moments 0.01, 0.011, 0.09 break the triangle "
                      r"inequality \(0.01 \+ 0.011 < 0.09\): no rigid body has this inertia"):
        urdf2dyn.load(_doc(body, _pin("j", "/ground", "/bodyset/b")))


@pytest.mark.parametrize("inertia, fault", [
    ("0.1 0.1 0.1 0.09 0.09 0.09", "break the triangle inequality"),    # a diagonal that keeps it
    ("0.1 0.1 0.1 0.2 0 0", "not positive semidefinite"),
    ("0.1 0.1 0.1 0.01 0.02 -0.01", None)])
def test_inertia_is_judged_by_its_principal_moments(inertia, fault):
    """The products of inertia count: a tensor whose diagonal obeys the triangle inequality
    can have principal moments (numpy's eigenvalues, the oracle) that break it, or a negative
    one. The .osim reader judged the diagonal alone, where the URDF reader judges the
    principal moments; both now share one check."""
    xx, yy, zz, xy, xz, yz = map(float, inertia.split())
    lam = np.linalg.eigvalsh([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    assert (lam[0] < 0 or lam[0] + lam[1] < lam[2]) == (fault is not None)
    body = _body("b").replace("<inertia>0.1 0.1 0.1 0 0 0</inertia>",
                              f"<inertia>{inertia}</inertia>")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.load(_doc(body, _pin("j", "/ground", "/bodyset/b")))
    said = [str(w.message) for w in caught if "<inertia>" in str(w.message)]
    if fault is None:
        assert said == []
    else:
        assert len(said) == 1 and fault in said[0] and "principal moments" in said[0], said


def test_a_published_models_inertias_are_judged_by_their_principal_moments():
    """OpenSim's thoracoscapular shoulder model (opensim-core's test model): the bodies whose
    principal moments (numpy) break the triangle inequality are named, and only they: the
    clavicle and the scapula keep it on their diagonals, the radius not even there."""
    path = os.path.join(os.path.dirname(__file__), "data", "opensim_core",
                        "ThoracoscapularShoulderModel.osim")
    text = Path(path).read_text()
    broken = set()
    for name, numbers in re.findall(r'<Body name="(\w+)">.*?<inertia>([^<]*)</inertia>', text,
                                    flags=re.S):
        xx, yy, zz, xy, xz, yz = map(float, numbers.split())
        lam = np.linalg.eigvalsh([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
        if lam[0] + lam[1] < lam[2] - 1e-6 * np.abs([xx, yy, zz]).sum():
            broken.add(name)
    assert {"clavicle", "scapula", "radius"} <= broken
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.load(path)
    named = {m.group(1) for w in caught
             for m in [re.search(r"body '(\w+)': <inertia>", str(w.message))] if m}
    assert named == broken


ARM26 = os.path.join(os.path.dirname(__file__), "data", "opensim_core", "arm26.osim")


@pytest.mark.parametrize("where, stray", [
    (b"Model authors names..", b"Model authors \x96 names.."),       # a typed en dash
    (b"<credits>", b"<!-- caf\xe9 --><credits>")])                     # Latin-1 in a comment
def test_stray_windows_bytes_outside_the_tags_are_read_and_said(osim, tmp_path, where, stray):
    """A model that is UTF-8 but for a Windows editor's byte in its text or comments (a
    published model had an en dash, 0x96, in its credits): OpenSim reads it; urdf2dyn
    refused it. It reads it now, the same model as without the byte, saying the line and
    column; strict refuses it."""
    data = Path(ARM26).read_bytes()
    assert where in data
    path = tmp_path / "arm26.osim"
    path.write_bytes(data.replace(where, stray, 1))
    assert osim.Model(str(path)).getBodySet().getSize() == 2          # OpenSim reads it
    with pytest.warns(urdf2dyn.URDFWarning, match=r"arm26.osim: line 4, column \d+: byte 0x"
                      r"(96|e9) is not UTF-8 .*read as Windows-1252"):
        model = urdf2dyn.load(path)
    clean = urdf2dyn.load(ARM26)
    q = np.random.default_rng(0).uniform(-1, 1, (4, clean.nq))
    np.testing.assert_array_equal(model.mass_matrix(q), clean.mass_matrix(q))
    with pytest.raises(URDFError, match="not UTF-8"):
        urdf2dyn.load(path, strict=True)


def test_a_stray_byte_inside_a_tag_is_still_refused(tmp_path):
    """Inside a tag (a name, a number) a stray byte is not guessed at: refused as before."""
    data = Path(ARM26).read_bytes().replace(b'<Body name="r_humerus"',
                                            b'<Body name="r_hum\x96erus"', 1)
    path = tmp_path / "arm26.osim"
    path.write_bytes(data)
    with pytest.raises(URDFError, match=r"arm26.osim: not valid UTF-8 text \(byte \d+\)"):
        urdf2dyn.load(path)
