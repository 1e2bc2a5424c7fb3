"""Models of opensim-core's own tests and bindings (tests/data/opensim_core/README.md) that
OpenSim 4.6 loads, against OpenSim 4.6 or, where OpenSim itself changes the file's numbers, a
closed form."""
from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn

from osim_oracle import Oracle, opensim_scaled

DATA = os.path.join(os.path.dirname(__file__), "data", "opensim_core")
WALKER = os.path.join(DATA, "WalkerModel.osim")


def _load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path)


def _walker_states(model, n=4):
    rng = np.random.default_rng(11)
    return [model.default_q + rng.uniform(-0.8, 0.8, model.nq) for _ in range(n)]


def test_walker_model_mass_matrix_is_its_closed_form():
    """WalkerModel (OpenSim 3, Version 30000): Pelvis_tx slides along the platform's x, the
    massless Pelvis_massless carries Pelvis_ty, a slider turned 1.5707963267949 rad (pi/2 to
    3e-15) from it, so the two slides are perpendicular and the 0.7 kg below both does not
    couple them. Each leg: a thigh and a shank, 0.05 kg, Izz 0.00104166666666667, 0.5 m
    long with its mass centre halfway, pinned about z at their ends."""
    model = _load(WALKER)
    m, izz, half = 0.05, 0.00104166666666667, 0.25
    tx, ty = model.q_names.index("Pelvis_tx"), model.q_names.index("Pelvis_ty")
    for q in _walker_states(model):
        M = model.mass_matrix(q)
        assert M[tx, tx] == pytest.approx(0.7, abs=1e-14)
        assert M[ty, ty] == pytest.approx(0.7, abs=1e-14)
        assert abs(M[tx, ty]) < 1e-14
        for side in "LR":
            hip = model.q_names.index(f"{side}Hip_rz")
            knee = model.q_names.index(f"{side}Knee_rz")
            shank_from_hip_sq = 4 * half**2 + half**2 + 4 * half**2 * np.cos(q[knee])
            assert M[knee, knee] == pytest.approx(izz + m * half**2, abs=1e-15)
            assert M[hip, hip] == pytest.approx(2 * izz + m * half**2 + m * shank_from_hip_sq,
                                                abs=1e-15)


def test_walker_model_differs_from_opensim_by_its_converters_rounding_only(osim, tmp_path):
    """OpenSim 4.6 updates an OpenSim 3 file's inertias and joint frames through text written
    with six significant digits (Body::updateFromXMLNode, XMLDocument::
    addPhysicalOffsetFrame30505_30517): Izz 0.00104166666666667 becomes 0.00104167 and the
    sliders' turn 1.5707963267949 becomes 1.5708, 3.7e-6 rad off a right angle. Its mass
    matrix then couples the two slides by 0.7 kg * sin(3.7e-6) and differs from the file's
    model by 3.7e-6 of its largest entry; the model OpenSim writes back (the numbers it
    uses) gives urdf2dyn OpenSim's matrix and inverse dynamics to 1e-12."""
    model = _load(WALKER)
    oracle = Oracle(osim, WALKER, model.q_names)
    upgraded = str(tmp_path / "WalkerModel_4.osim")
    osim.Model(WALKER).printToXML(upgraded)
    as_opensim_reads_it = _load(upgraded)
    assert as_opensim_reads_it.q_names == model.q_names
    tx, ty = model.q_names.index("Pelvis_tx"), model.q_names.index("Pelvis_ty")
    rng = np.random.default_rng(5)
    for q in _walker_states(model):
        theirs = oracle.mass_matrix(q)
        gap = np.max(np.abs(model.mass_matrix(q) - theirs)) / np.max(np.abs(theirs))
        assert 3.6e-6 < gap < 3.8e-6
        assert theirs[tx, ty] == pytest.approx(-0.7 * np.sin(1.5708 - np.pi / 2), rel=1e-9)
        np.testing.assert_allclose(as_opensim_reads_it.mass_matrix(q), theirs, rtol=0,
                                   atol=1e-12)
        v, a = rng.normal(0, 1, model.nv), rng.normal(0, 3, model.nv)
        np.testing.assert_allclose(as_opensim_reads_it.inverse_dynamics(q, v, a),
                                   oracle.inverse_dynamics(q, v, a), rtol=0, atol=1e-12)


# ------------------------------------------------------------ OpenSim 3 reversed joints

REVERSE = os.path.join(DATA, "double_pendulum_testReverse.osim")


def _body_poses_match(model, oracle, q):
    """Every body's placement in ground, ours against OpenSim's at q."""
    pos, rot = model.forward_kinematics(q)
    oracle.set_state(q)
    oracle.om.realizePosition(oracle.s)
    bodies = oracle.om.getBodySet()
    for i in range(bodies.getSize()):
        b = bodies.get(i)
        T = b.getTransformInGround(oracle.s)
        k = model.link_names.index(b.getName())
        R = np.array([[T.R().get(r, c) for c in range(3)] for r in range(3)])
        np.testing.assert_allclose(pos[k], b.getPositionInGround(oracle.s).to_numpy(),
                                   rtol=0, atol=1e-12)
        np.testing.assert_allclose(rot[k], R, rtol=0, atol=1e-12)


def _agrees_with_opensim(osim, path, seed):
    model = _load(path)
    oracle = Oracle(osim, path, model.q_names)
    rng = np.random.default_rng(seed)
    for _ in range(4):
        q = rng.uniform(-1.2, 1.2, model.nq)
        v, a = rng.normal(0, 2, model.nv), rng.normal(0, 5, model.nv)
        _body_poses_match(model, oracle, q)
        theirs = oracle.mass_matrix(q)
        assert np.max(np.abs(model.mass_matrix(q) - theirs)) <= 1e-12 * np.max(np.abs(theirs))
        theirs = oracle.inverse_dynamics(q, v, a)
        assert np.max(np.abs(model.inverse_dynamics(q, v, a) - theirs)) <= \
            1e-10 * max(1.0, np.max(np.abs(theirs)))
    return model


def test_opensims_reversed_double_pendulum_is_opensims(osim):
    """opensim-core's double_pendulum_testReverse.osim (Version 20302): pin2 hangs rod2 from
    rod1 with <reverse> true </reverse>. OpenSim 4.6 swaps its frames and, rod1 being pin1's
    already, mobilizes it backwards: rod2 moves by the pin's inverse. It was refused."""
    model = _agrees_with_opensim(osim, REVERSE, 1)
    assert model.q_names == ("q1", "q2")


_REVERSED_HINT = ("child of joints '{}' and '{}', no loop: OpenSim mobilizes one backwards. "
                  "Swap socket_parent_frame and socket_child_frame (a pin: negate "
                  "default_value, range lo hi to -hi -lo)")


def test_a_reversed_pin_with_long_names_is_refused_with_the_whole_fix(osim, tmp_path):
    """The reversed-pin refusal with 40-character body and joint names (OpenSim still
    mobilizes the saved model backwards, no constraint) keeps the fix it names to its end:
    urdf2dyn's message ran past its 300 characters there and lost the range's sign flip."""
    saved = tmp_path / "saved.osim"
    osim.Model(REVERSE).printToXML(str(saved))
    names = {old: f"{old}_".ljust(40, "x") for old in ("rod1", "pin1", "pin2")}
    text = saved.read_text()
    for old, new in names.items():
        text = re.sub(rf"\b{old}(?=[_<\"/])", new, text)
    saved.write_text(text)
    om = osim.Model(str(saved))           # kept: the state refers into it
    s = om.initSystem()
    assert (s.getNQ(), s.getNQErr()) == (2, 0)
    with pytest.raises(urdf2dyn.URDFError) as refused:
        _load(str(saved))
    assert str(refused.value).endswith(f"body '{names['rod1']}': " + _REVERSED_HINT.format(
        names["pin1"], names["pin2"])), str(refused.value)


def test_a_reversed_pin_is_refused_as_reversed_beside_a_loop_elsewhere(osim, tmp_path):
    """OpenSim's save of the reversed double pendulum plus bodies c and d pinned to ground
    and to each other: OpenSim cuts that loop (constraint equations), rod1 is on no loop.
    urdf2dyn took any loop in the model for rod1's and called its reversed pin2 'a closed
    loop'; it names the reversed joint and the fix."""
    saved = tmp_path / "saved.osim"
    osim.Model(REVERSE).printToXML(str(saved))
    m = osim.Model(str(saved))
    c, d = (osim.Body(name, 1.0, osim.Vec3(0), osim.Inertia(0.1, 0.1, 0.1)) for name in "cd")
    m.addBody(c)
    m.addBody(d)
    for name, parent, at, child in (("cpin", m.getGround(), (0, 0, 1), c),
                                    ("dpin", m.getGround(), (0, 1, 1), d),
                                    ("close", d, (0, 0, 0), c)):
        m.addJoint(osim.PinJoint(name, parent, osim.Vec3(*at), osim.Vec3(0), child,
                                 osim.Vec3(0, 0, 1) if name == "close" else osim.Vec3(0),
                                 osim.Vec3(0)))
    m.finalizeConnections()
    looped = tmp_path / "looped.osim"
    m.printToXML(str(looped))
    om = osim.Model(str(looped))          # kept: the state refers into it
    s = om.initSystem()
    assert s.getNQErr() > 0               # the c-d loop, cut by a constraint
    with pytest.raises(urdf2dyn.URDFError) as refused:
        _load(str(looped))
    assert str(refused.value).endswith(
        "body 'rod1': " + _REVERSED_HINT.format("pin1", "pin2")), str(refused.value)


def _pinned_loop(osim, path, c="c", d="d", joints=("cpin", "dpin", "close")):
    """Bodies c and d pinned to ground, d pinned to c too, saved by OpenSim at path; OpenSim
    cuts the loop with a constraint (checked)."""
    m = osim.Model()
    bc, bd = (osim.Body(name, 1.0, osim.Vec3(0), osim.Inertia(0.1, 0.1, 0.1)) for name in (c, d))
    m.addBody(bc)
    m.addBody(bd)
    for name, parent, at, child in ((joints[0], m.getGround(), (0, 0, 1), bc),
                                    (joints[1], m.getGround(), (0, 1, 1), bd),
                                    (joints[2], bc, (0, 1, 0), bd)):
        m.addJoint(osim.PinJoint(name, parent, osim.Vec3(*at), osim.Vec3(0), child,
                                 osim.Vec3(0), osim.Vec3(0)))
    m.finalizeConnections()
    m.printToXML(str(path))
    om = osim.Model(str(path))            # kept: the state refers into it
    s = om.initSystem()
    assert s.getNQErr() > 0


def test_a_body_pinned_to_ground_and_to_a_sibling_is_refused_as_a_closed_loop(osim, tmp_path):
    """urdf2dyn names d's two joints as a closed loop."""
    looped = tmp_path / "looped.osim"
    _pinned_loop(osim, looped)
    with pytest.raises(urdf2dyn.URDFError, match=r"body 'd' is the child of two joints, "
                       r"'dpin' and 'close' \(a closed loop"):
        _load(str(looped))


def test_a_closed_loop_of_long_names_keeps_what_the_loop_is(osim, tmp_path):
    """Names of 100 characters (OpenSim takes them): the message was cut at 300 characters
    inside the third name, losing what a closed loop is and what OpenSim does with it."""
    looped = tmp_path / "looped.osim"
    c, d, *joints = (letter * 100 for letter in "cdxyz")
    _pinned_loop(osim, looped, c, d, joints)
    with pytest.raises(urdf2dyn.URDFError) as refused:
        _load(str(looped))
    assert str(refused.value).endswith(
        f"body '{'d' * 60}' is the child of two joints, '{'y' * 60}' and '{'z' * 60}' (a "
        "closed loop: OpenSim models one joint of it as a constraint)"), str(refused.value)


def test_opensims_own_save_of_a_reversed_pin_is_refused_as_reversed_not_as_a_loop(osim,
                                                                                 tmp_path):
    """OpenSim 4.6 saves the reversed double pendulum with pin2's sockets swapped (its child
    frame on rod1, nearer ground) and mobilizes it backwards: two mobilities, no constraint,
    no loop. urdf2dyn refused it as 'a closed loop'; it now says what OpenSim does and what
    to change, and the change it names (sockets swapped, q2's default and range negated) is
    OpenSim's model at q2 of the opposite sign."""
    saved = tmp_path / "saved.osim"
    osim.Model(REVERSE).printToXML(str(saved))
    om = osim.Model(str(saved))
    s = om.initSystem()
    assert (s.getNQ(), s.getNQErr()) == (2, 0)              # a cut loop adds constraints
    with pytest.raises(urdf2dyn.URDFError) as refused:
        _load(str(saved))
    said = str(refused.value)
    assert "closed loop" not in said and said.endswith(
        "body 'rod1': " + _REVERSED_HINT.format("pin1", "pin2")), said

    text = saved.read_text()
    pin2 = re.search(r'<PinJoint name="pin2">.*?</PinJoint>', text, re.S).group(0)
    swapped = pin2.replace("<socket_parent_frame>rod2_offset", "<socket_parent_frame>rod1_offset")
    swapped = swapped.replace("<socket_child_frame>rod1_offset", "<socket_child_frame>rod2_offset")
    swapped = re.sub(r"<default_value>(\S+)</default_value>",
                     lambda m: f"<default_value>{-float(m.group(1))!r}</default_value>", swapped)
    swapped = re.sub(r"<range>(\S+) (\S+)</range>",
                     lambda m: f"<range>{-float(m.group(2))!r} {-float(m.group(1))!r}</range>",
                     swapped)
    assert swapped.count("rod2_offset</socket_parent_frame>") == 0
    fixed = tmp_path / "swapped.osim"
    fixed.write_text(text.replace(pin2, swapped))
    model = _load(str(fixed))
    q2 = model.q_names.index("q2")
    theirs = om.getCoordinateSet().get("q2")
    assert model.coordinates["q2"].default == -theirs.getDefaultValue()
    assert (model.coordinates["q2"].lower, model.coordinates["q2"].upper) == \
        (-theirs.getRangeMax(), -theirs.getRangeMin())
    oracle = Oracle(osim, str(saved), model.q_names)
    rng = np.random.default_rng(8)
    for _ in range(4):
        q = rng.uniform(-1.2, 1.2, 2)
        flipped = q.copy()
        flipped[q2] = -q[q2]
        ours_at = model.forward_kinematics(q)
        oracle.set_state(flipped)
        oracle.om.realizePosition(oracle.s)
        for name in ("rod1", "rod2"):
            b = oracle.om.getBodySet().get(name)
            k = model.link_names.index(name)
            np.testing.assert_allclose(ours_at[0][k],
                                       b.getPositionInGround(oracle.s).to_numpy(), atol=1e-12)
            T = b.getTransformInGround(oracle.s).R()
            np.testing.assert_allclose(ours_at[1][k], [[T.get(r, c) for c in range(3)]
                                                       for r in range(3)], atol=1e-12)


COORDINATES = {"WeldJoint": 0, "PinJoint": 1, "SliderJoint": 1, "UniversalJoint": 2,
               "GimbalJoint": 3, "BallJoint": 3, "FreeJoint": 6, "CustomJoint": 3}


def _spatial_transform(k, moves):
    """Joint k's SpatialTransform: its coordinates q{k}_0..2 drive its rotations ("turns"),
    its translations ("slides") or both ("both"), through linear functions of slopes other
    than 1 and offsets about axes neither unit nor orthogonal; the others are still."""
    turns = [("1 0 0", 1, 0), ("0 0.6 0.8", -0.5, 0.1), ("0 0 1", 2, 0)]
    slides = [("1 0 0", 1, 0), ("0 1 0", 0.5, -0.2), ("0 0 1", 1, 0)]
    axes = ""
    for group, name, moving in ((turns, "rotation", moves in ("turns", "both")),
                                (slides, "translation", moves in ("slides", "both"))):
        for i, (axis, slope, offset) in enumerate(group):
            function = (f'<LinearFunction><coefficients>{slope} {offset}</coefficients>'
                        '</LinearFunction>' if moving else '<Constant><value>0</value>'
                        '</Constant>')
            axes += (f'<TransformAxis name="{name}{i + 1}"><function>{function}</function>'
                     f'<coordinates>{f"q{k}_{i}" if moving else ""}</coordinates><axis>{axis}'
                     '</axis></TransformAxis>')
    return f"<SpatialTransform>{axes}</SpatialTransform>"


def _v3_chain(joints):
    """An OpenSim 3 file of a chain b1, b2, ... from ground: joints is [(element, reverse)]
    or [(element, reverse, moves)] for a CustomJoint (_spatial_transform), each joint with
    offsets and turns on both sides, each body's mass off its origin."""
    bodies = ""
    for k, (kind, reverse, *moves) in enumerate(joints, 1):
        parent = "ground" if k == 1 else f"b{k - 1}"
        motion = "translational" if kind == "SliderJoint" else "rotational"
        coords = "".join(f'<Coordinate name="q{k}_{c}"><motion_type>{motion}</motion_type>'
                         '</Coordinate>' for c in range(COORDINATES[kind]))
        bodies += (
            f'<Body name="b{k}"><mass>{1.5 + k}</mass><mass_center>0.1 -0.2 0.05</mass_center>'
            '<inertia_xx>0.3</inertia_xx><inertia_yy>0.2</inertia_yy><inertia_zz>0.25'
            '</inertia_zz><inertia_xy>0.01</inertia_xy><inertia_xz>0</inertia_xz><inertia_yz>'
            f'0.02</inertia_yz><Joint><{kind} name="j{k}"><parent_body>{parent}</parent_body>'
            '<location_in_parent>0.03 -0.4 0.1</location_in_parent><orientation_in_parent>'
            '0.2 -0.4 0.1</orientation_in_parent><location>0.05 0.1 -0.02</location>'
            '<orientation>0.3 0.5 -0.1</orientation><CoordinateSet><objects>'
            f'{coords}</objects></CoordinateSet>'
            f'{_spatial_transform(k, *moves) if moves else ""}'
            f'<reverse>{str(reverse).lower()}</reverse>'
            f'</{kind}></Joint></Body>\n')
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="30000">'
            '<Model name="v3"><gravity>0 -9.80665 0</gravity><BodySet><objects>'
            '<Body name="ground"><mass>0</mass><Joint/></Body>\n'
            f'{bodies}</objects></BodySet></Model></OpenSimDocument>\n')


@pytest.mark.parametrize("joints", [
    [("PinJoint", True)],
    [("SliderJoint", True)],
    [("PinJoint", False), ("PinJoint", True), ("PinJoint", False)],
    [("PinJoint", True), ("SliderJoint", True), ("WeldJoint", True), ("PinJoint", True)],
    [("SliderJoint", False), ("WeldJoint", True), ("SliderJoint", True), ("PinJoint", False)],
], ids=["pin_from_ground", "slider_from_ground", "pin_mid_chain", "all_reversed",
        "weld_and_slider"])
def test_reversed_pins_sliders_and_welds_are_opensims(osim, tmp_path, joints):
    """Reversed joints at ground, inside a chain and above bodies of their own, with offsets
    and turns on both sides: body placements, mass matrix and inverse dynamics against
    OpenSim 4.6's reversed mobilizers."""
    path = tmp_path / "reversed.osim"
    path.write_text(_v3_chain(joints))
    _agrees_with_opensim(osim, str(path), 2)


@pytest.mark.parametrize("joints", [
    [("PinJoint", False), ("UniversalJoint", True)],
    [("GimbalJoint", True), ("PinJoint", False)],
    [("UniversalJoint", True), ("GimbalJoint", True), ("SliderJoint", True),
     ("GimbalJoint", False)],
    [("PinJoint", False), ("CustomJoint", True, "turns")],
    [("CustomJoint", False, "turns"), ("CustomJoint", True, "turns"), ("GimbalJoint", True)],
], ids=["universal", "gimbal_at_ground", "universal_gimbal_slider", "custom_turns",
        "custom_after_custom"])
def test_reversed_universal_gimbal_and_custom_joints_are_opensims(osim, tmp_path, joints):
    """OpenSim 4.6 mobilizes a reversed joint by its inverse, with the joint's own q and u
    (the rates of q for these types): rotations undone in the other order about the
    opposite axes. They were refused by type; body placements, mass matrix and inverse
    dynamics against OpenSim's, at ground and inside chains."""
    path = tmp_path / "reversed.osim"
    path.write_text(_v3_chain(joints))
    _agrees_with_opensim(osim, str(path), 3)


def test_a_published_reversed_custom_shoulder_is_opensims(osim, tmp_path):
    """opensim-core's arm26.osim (an OpenSim 3 file) with its r_shoulder CustomJoint, which
    turns about z, reversed: OpenSim 4.6 mobilizes it backwards; urdf2dyn refused it."""
    text = (Path(DATA) / "arm26.osim").read_text(encoding="utf-8")
    assert text.count("<reverse> false </reverse>") >= 1
    path = tmp_path / "arm26_reversed.osim"
    path.write_text(text.replace("<reverse> false </reverse>", "<reverse>true</reverse>", 1))
    om = osim.Model(str(path))
    assert om.getJointSet().get("r_shoulder").getParentFrame().getName() == "r_humerus_offset"
    _agrees_with_opensim(osim, str(path), 4)


def test_a_scaled_reversed_turning_custom_joint_reads_back_as_opensims(osim, tmp_path):
    """urdf2dyn's scaling of a chain with a reversed CustomJoint that only turns wraps its
    still translations in MultiplierFunctions; read back, they are still still (they were
    taken for slides and the file refused). Oracle: OpenSim 4.6 on the file written, and
    OpenSim's own scaling of the chain placing the bodies alike."""
    from urdf2dyn.biomech.scaling import scale_model
    path = tmp_path / "reversed.osim"
    path.write_text(_v3_chain([("PinJoint", False), ("CustomJoint", True, "turns"),
                               ("PinJoint", False)]))
    factors = {"b1": [1.5, 0.7, 1.2], "b2": [0.6, 1.3, 0.9]}
    edit, _ = scale_model(_load(str(path)), {b: np.array(f) for b, f in factors.items()})
    ours = tmp_path / "scaled.osim"
    edit.write(ours)
    assert "MultiplierFunction" in ours.read_text()
    model = _agrees_with_opensim(osim, str(ours), 6)
    theirs = tmp_path / "theirs.osim"
    opensim_scaled(osim, path, factors, theirs)
    q = np.random.default_rng(7).uniform(-1, 1, model.nq)
    _body_poses_match(model, Oracle(osim, str(theirs), model.q_names), q)


@pytest.mark.parametrize("joints, why", [
    ([("PinJoint", False), ("CustomJoint", True, "both")], " that slides"),
    ([("CustomJoint", True, "slides"), ("PinJoint", False)], " that slides"),
    ([("PinJoint", False), ("BallJoint", True)], ": urdf2dyn reads reversed Pin, Slider, "
     "Weld, Universal, Gimbal and Custom joints only"),
    ([("FreeJoint", True)], ": urdf2dyn reads reversed Pin, Slider, Weld, Universal, Gimbal "
     "and Custom joints only"),
])
def test_other_reversed_joints_are_refused_naming_why(osim, tmp_path, joints, why):
    """OpenSim 4.6 loads these reversed; their inverse is no joint urdf2dyn reads (a slide
    turned by the rotations, or speeds that are not q's rates): refused with what to do."""
    path = tmp_path / "reversed.osim"
    path.write_text(_v3_chain(joints))
    osim.Model(str(path)).initSystem()
    kind = next(kind for kind, reverse, *_ in joints if reverse)
    with pytest.raises(urdf2dyn.URDFError, match=rf"reversed.osim:\d+: .*<reverse>true"
                       rf"</reverse> on a <{kind}>{re.escape(why)}.*; swap the joint's parent "
                       r"and child frames in a copy of the file"):
        _load(str(path))


# ------------------------------------------------------------- the OpenSim 4.0 beta layout

BETA = os.path.join(DATA, "double_pendulum_4beta.osim")


def test_a_4_0_beta_file_is_refused_naming_its_layout_and_the_update(osim, tmp_path):
    """opensim-core's double_pendulum.osim (Version 30501) names its joints' frames in
    <connectors>, as OpenSim 4.0's betas wrote them, and OpenSim 4.6 updates it. It was
    refused as 'needs <socket_parent_frame>', which the file cannot have; the message names
    the layout and the update, and the update it names gives OpenSim's model."""
    with pytest.raises(urdf2dyn.URDFError) as refused:
        _load(BETA)
    said = str(refused.value)
    assert said.startswith(f"{BETA}:153: joint 'pin1': <PinJoint> names its frames as the "
                           "OpenSim 4.0 betas wrote them (<connectors> or <..._connectee_name>;"
                           " this file is version 30501); "), said
    assert "opensim.Model(path).printToXML(new_path)" in said, said
    updated = str(tmp_path / "double_pendulum.osim")
    osim.Model(BETA).printToXML(updated)
    _agrees_with_opensim(osim, updated, 3)


def test_the_last_betas_connectee_names_are_refused_naming_the_update(osim, tmp_path):
    """Versions 30510 to 30516 wrote <socket_parent_frame_connectee_name> where release 4.0
    (30517) writes <socket_parent_frame>; OpenSim 4.6 renames them. The double pendulum as
    OpenSim 4.6 writes it, in that spelling (OpenSim loads it): refused naming the update,
    not as missing its <socket_parent_frame>."""
    written = tmp_path / "written.osim"
    osim.Model(BETA).printToXML(str(written))
    text = re.sub(r'Version="\d+"', 'Version="30516"', written.read_text(), count=1)
    text = re.sub(r"<(socket_\w+)>([^<]*)</\1>", r"<\1_connectee_name>\2</\1_connectee_name>",
                  text)
    beta = tmp_path / "beta.osim"
    beta.write_text(text)
    om = osim.Model(str(beta))
    assert om.getJointSet().get("pin2").getSocket("parent_frame").getConnecteePath() == \
        "rod1_offset"
    with pytest.raises(urdf2dyn.URDFError, match=r"beta.osim:\d+: joint 'pin1': <PinJoint> "
                       r"names its frames as the OpenSim 4.0 betas wrote them .* this file "
                       r"is version 30516\); .*printToXML"):
        _load(str(beta))


# ------------------------------------------------------------------- StationDefinedFrames

ADVANCED = os.path.join(DATA, "StationDefinedFrames_Advanced.osim")


def test_opensims_station_defined_frames_place_the_bodies_as_opensim(osim, tmp_path):
    """opensim-core's StationDefinedFrames_Advanced.osim: a FreeJoint from one
    StationDefinedFrame (stations on three offset frames of root_body, <ab_axis> z,
    <ab_x_ac_axis> x) to another on child_body. Its two FreeJoints name their coordinates
    alike, which urdf2dyn refuses: the second's are renamed. Free joints' speeds differ from
    OpenSim's (docs), so the placements are compared. It was refused ('only
    PhysicalOffsetFrame frames are supported')."""
    text = open(ADVANCED, encoding="utf-8").read()
    second = text.index('<FreeJoint name="freejoint_2">')
    path = tmp_path / "advanced.osim"
    path.write_text(text[:second] + re.sub(r'<Coordinate name="(\w+)">', r'<Coordinate '
                                           r'name="\1_2">', text[second:]))
    model = _load(str(path))
    oracle = Oracle(osim, str(path), model.q_names)
    rng = np.random.default_rng(4)
    for _ in range(4):
        _body_poses_match(model, oracle, rng.uniform(-1, 1, model.nq))


def _station(name, frame, location):
    return (f'<Station name="{name}"><socket_parent_frame>{frame}</socket_parent_frame>'
            f'<location>{location}</location></Station>')


def _sdf(name, points, ab=None, ab_x_ac=None):
    axes = (f"<ab_axis>{ab}</ab_axis>" if ab is not None else "") + (
        f"<ab_x_ac_axis>{ab_x_ac}</ab_x_ac_axis>" if ab_x_ac is not None else "")
    sockets = "".join(f"<socket_{s}>{p}</socket_{s}>" for s, p in zip(
        ("point_a", "point_b", "point_c", "origin_point"), points))
    return f'<StationDefinedFrame name="{name}">{sockets}{axes}</StationDefinedFrame>'


def _sdf_model(axes, stations=None):
    """Ground - pin - b1 - pin - b2, each pin from a StationDefinedFrame to one: on ground
    (stations on ground), on b1 (stations on b1 and on an offset frame of it, origin at a
    fourth station), on b2 (origin at point b). axes: the (ab, ab_x_ac) of the five frames."""
    st = stations or {
        "g": [("/ground", "0.1 0.2 0"), ("/ground", "0.5 -0.1 0.2"),
              ("/ground", "0 0.3 0.4"), ("/ground", "0.2 0.1 -0.1")],
        "b1c": [("/bodyset/b1", "0 0 0"), ("/bodyset/b1/o1", "0.1 0 0"),
                ("/bodyset/b1", "-0.2 0.3 0.1"), ("/bodyset/b1", "0.05 0.02 0.01")],
        "b1p": [("/bodyset/b1/o1", "0 0.2 0"), ("/bodyset/b1", "0.3 -0.4 0.1"),
                ("/bodyset/b1", "0.1 -0.6 -0.2"), ("/bodyset/b1", "0.2 -0.5 0")],
        "b2c": [("/bodyset/b2", "0.3 0.1 0"), ("/bodyset/b2", "0 0.4 0.1"),
                ("/bodyset/b2", "-0.1 0 0.3"), None],
    }
    comps = []
    for key, pts in st.items():
        names = []
        for k, p in enumerate(pts):
            if p is None:
                names.append(names[1])
                continue
            comps.append(_station(f"{key}{k}", *p))
            names.append(f"/{key}{k}")
        ab, ab_x_ac = axes.get(key, (None, None))
        comps.append(_sdf(f"sdf_{key}", names, ab, ab_x_ac))
    body = ('<Body name="{0}"><mass>{1}</mass><mass_center>0.1 -0.2 0.05</mass_center>'
            '<inertia>0.3 0.2 0.25 0.01 0 0.02</inertia>{2}</Body>')
    o1 = ('<components><PhysicalOffsetFrame name="o1"><socket_parent>..</socket_parent>'
          '<translation>0.1 0.2 -0.1</translation><orientation>0.3 -0.2 0.5</orientation>'
          '</PhysicalOffsetFrame></components>')
    pin = ('<PinJoint name="{0}"><socket_parent_frame>{1}</socket_parent_frame>'
           '<socket_child_frame>{2}</socket_child_frame><coordinates><Coordinate '
           'name="q_{0}"/></coordinates></PinJoint>')
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40600">'
            f'<Model name="sdf"><components>{"".join(comps)}</components><BodySet><objects>'
            f'{body.format("b1", 2, o1)}{body.format("b2", 1.5, "")}</objects></BodySet>'
            f'<JointSet><objects>{pin.format("j1", "/sdf_g", "/sdf_b1c")}'
            f'{pin.format("j2", "/sdf_b1p", "/sdf_b2c")}</objects></JointSet>'
            '<MarkerSet><objects><Marker name="m"><socket_parent_frame>/sdf_b2c'
            '</socket_parent_frame><location>0.1 0.2 0.3</location></Marker></objects>'
            '</MarkerSet></Model></OpenSimDocument>\n')


@pytest.mark.parametrize("axes", [
    {},
    {"g": ("z", "x"), "b1c": ("-y", "+z"), "b1p": ("+x", "-z"), "b2c": ("-z", "-y")},
    {"g": ("Y", "-X"), "b1c": ("+z", "y"), "b1p": ("-x", "+y"), "b2c": ("y", "-x")},
], ids=["defaults", "mixed", "upper_case"])
def test_joints_and_markers_on_station_defined_frames_are_opensims(osim, tmp_path, axes):
    """Pins between StationDefinedFrames on ground and on bodies (stations on offset frames,
    the origin a fourth station or point b), axes of either sign, and a marker on one:
    placements, the marker, mass matrix and inverse dynamics against OpenSim 4.6."""
    path = tmp_path / "sdf.osim"
    path.write_text(_sdf_model(axes))
    model = _agrees_with_opensim(osim, str(path), 5)
    om = osim.Model(str(path))
    s = om.initSystem()
    q = np.array([0.4, -0.7])
    for n, x in zip(model.q_names, q):
        om.getCoordinateSet().get(n).setValue(s, float(x))
    om.realizePosition(s)
    theirs = om.getMarkerSet().get("m").getLocationInGround(s).to_numpy()
    marker = {mk.name: mk for mk in model.markers}["m"]
    pos, rot = model.forward_kinematics(q)
    k = model.link_names.index(marker.link)
    np.testing.assert_allclose(pos[k] + rot[k] @ np.asarray(marker.position), theirs, rtol=0,
                               atol=1e-12)


@pytest.mark.parametrize("change,message", [
    ({"g": ("+w", "x")}, r"<ab_axis>\+w</ab_axis>: give \+x, -x, \+y, -y, \+z or -z"),
    ({"g": ("xy", "z")}, r"<ab_axis>xy</ab_axis>: give \+x"),
    ({"b2c": ("z", "-z")}, r"<StationDefinedFrame name=\"sdf_b2c\">: <ab_axis> and "
                           r"<ab_x_ac_axis> name the same axis"),
], ids=["no_axis", "two_letters", "same_axis"])
def test_axes_opensim_replaces_are_refused_naming_the_element(tmp_path, change, message):
    """OpenSim 4.6 logs a line and uses another axis where it reads none, or reads the first
    letter of 'xy': a frame the file does not describe; refused, naming the line."""
    path = tmp_path / "sdf.osim"
    path.write_text(_sdf_model(change))
    with pytest.raises(urdf2dyn.URDFError, match=r"sdf.osim:\d+: .*" + message):
        _load(str(path))


@pytest.mark.parametrize("station,where,message", [
    ("b1p2", ("/bodyset/b2", "0.3 0.1 0"),
     r"its stations are on different bodies \('b1' and 'b2'\)"),
    ("b1p2", ("/bodyset/b1", "0.3 -0.4 0.1"), r"points a, b and c make no triangle"),
    ("b2c2", ("/bodyset/b2", "-0.3 0.7 0.2"), r"points a, b and c make no triangle"),
    ("b1p2", ("/bodyset/b1/nowhere", "0 0 0"), r"names '/bodyset/b1/nowhere': no such frame"),
], ids=["two_bodies", "c_on_b", "on_a_line", "no_frame"])
def test_frames_opensim_cannot_build_are_refused_naming_them(tmp_path, station, where,
                                                              message):
    """Point c of a frame moved: onto another body (OpenSim 4.6 refuses it), onto point b or
    the line through a and b (OpenSim divides by zero), onto a frame that is not there."""
    published = {"b1p2": ("/bodyset/b1", "0.1 -0.6 -0.2"), "b2c2": ("/bodyset/b2", "-0.1 0 0.3")}
    text = _sdf_model({})
    assert _station(station, *published[station]) in text
    path = tmp_path / "sdf.osim"
    path.write_text(text.replace(_station(station, *published[station]),
                                 _station(station, *where)))
    with pytest.raises(urdf2dyn.URDFError, match=message):
        _load(str(path))


def _long_named_sdf_model(change):
    """_sdf_model with body b1 renamed to 200 characters, b2 to 200 others, then change."""
    return change(_sdf_model({})).replace("b1", "B" * 200).replace("b2", "C" * 200)


@pytest.mark.parametrize("change,ending", [
    (lambda text: text.replace(_station("b1p2", "/bodyset/b1", "0.1 -0.6 -0.2"),
                               _station("b1p2", "/bodyset/b2", "0.3 0.1 0")),
     f"its stations are on different bodies ('{'B' * 50}' and '{'C' * 50}'); OpenSim 4.6 "
     "refuses them too: put all four on one body"),
    (lambda text: text.replace("<socket_parent>..</socket_parent>",
                               "<socket_parent>" + "../" * 40 + "</socket_parent>"),
     f"</socket_parent> of '/bodyset/{'B' * 81}': no such frame (the path climbs above the "
     "model, or is too long)"),
    (lambda text: text.replace('<Model name="sdf"><components>',
                               f'<Model name="sdf"><components><PhysicalFrame name="{"m" * 200}"/>')
     .replace("<socket_parent_frame>/sdf_g</socket_parent_frame>",
              f"<socket_parent_frame>/{'m' * 200}</socket_parent_frame>"),
     f'<PhysicalFrame name="{"m" * 60}">: only PhysicalOffsetFrame and StationDefinedFrame '
     "frames are supported; replace it with a PhysicalOffsetFrame on the same parent, with "
     "the translation and orientation OpenSim gives it"),
], ids=["two_bodies", "above_the_model", "other_frame"])
def test_frame_refusals_with_long_names_keep_their_fix(tmp_path, change, ending):
    """Names of 200 characters: the message ran past fail_at's 300 characters and lost its
    end, the fix (put all four stations on one body, replace the frame) or the reason; names
    are cut instead."""
    path = tmp_path / "sdf.osim"
    path.write_text(_long_named_sdf_model(change))
    with pytest.raises(urdf2dyn.URDFError) as refused:
        _load(str(path))
    assert str(refused.value).endswith(ending), str(refused.value)


def test_a_model_with_a_station_defined_frame_is_not_scaled_unlike_opensim(tmp_path):
    """OpenSim scales the frame's stations and rebuilds it; urdf2dyn's scaling edits no
    Station, so the joints on it would keep their unscaled places: refused, saying so."""
    from urdf2dyn.biomech.scaling import scale_model
    path = tmp_path / "sdf.osim"
    path.write_text(_sdf_model({}))
    with pytest.raises(ValueError, match="StationDefinedFrame, which urdf2dyn cannot scale"):
        scale_model(_load(str(path)), {"b1": np.array([1.1, 0.9, 1.0])})


def test_a_station_defined_frame_in_a_joints_frames_is_refused_as_opensim_fails(osim,
                                                                                tmp_path):
    """A joint's <frames> holds PhysicalOffsetFrames: OpenSim 4.6 does not find a
    StationDefinedFrame there and fails to load the model; refused, saying where it goes."""
    text = _sdf_model({})
    sdf = re.search(r'<StationDefinedFrame name="sdf_b1p">.*?</StationDefinedFrame>',
                    text).group(0)
    text = text.replace(sdf, "").replace(
        "<socket_parent_frame>/sdf_b1p</socket_parent_frame>",
        "<socket_parent_frame>sdf_b1p</socket_parent_frame>").replace(
        "</coordinates></PinJoint></objects>",
        f"</coordinates><frames>{sdf.replace('>/b1p', '>../../../b1p')}</frames></PinJoint>"
        "</objects>")
    path = tmp_path / "inner.osim"
    path.write_text(text)
    with pytest.raises(RuntimeError, match="could not find 'sdf_b1p'"):
        osim.Model(str(path)).initSystem()
    with pytest.raises(urdf2dyn.URDFError, match=r"joint 'j2': <StationDefinedFrame "
                       r"name=\"sdf_b1p\">: a joint's <frames> holds PhysicalOffsetFrames only"
                       r" .*; move it to the Model's <components>"):
        _load(str(path))


def test_a_marker_as_a_frames_station_is_opensims(osim, tmp_path):
    """A Marker is a Station: OpenSim 4.6 connects one as point a (/markerset/mk)."""
    text = _sdf_model({"b2c": ("-z", "x")})
    path = tmp_path / "marker.osim"
    path.write_text(text.replace(_station("b2c0", "/bodyset/b2", "0.3 0.1 0"), "").replace(
        "<socket_point_a>/b2c0</socket_point_a>",
        "<socket_point_a>/markerset/mk</socket_point_a>").replace(
        "</objects></MarkerSet>", '<Marker name="mk"><socket_parent_frame>/bodyset/b2'
        '</socket_parent_frame><location>0.3 0.1 0</location></Marker></objects></MarkerSet>'))
    _agrees_with_opensim(osim, str(path), 6)
