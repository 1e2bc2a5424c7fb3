"""MJCF models (MuJoCo) against MuJoCo itself: the public models of issue 32 (vendored in
tests/data/mjcf), and MuJoCo's compiler semantics one by one on small documents."""
import os
import pickle
import re
import shutil
import warnings

import numpy as np
import pytest

import mjcf_oracle as oracle
import urdf2dyn
from urdf2dyn import interop

mujoco = oracle.mujoco
TOL = 1e-9          # of each state's largest torque (largest mass-matrix entry for M)


# ---- the public models ---------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(oracle.PUBLIC))
def test_public_model_matches_mujoco(name):
    """Inverse dynamics, mass matrix and moving mass equal MuJoCo's at 20 random states."""
    path = oracle.public_path(name)
    model = oracle.load_quiet(path)
    m = oracle.mujoco_model(path)
    e_tau, e_M = oracle.compare(model, m, n=20)
    assert e_tau < TOL and e_M < TOL, (e_tau, e_M)
    assert model.total_mass == pytest.approx(oracle.moving_mass(m), rel=1e-12)


@pytest.mark.parametrize("name", sorted(oracle.PUBLIC))
def test_public_model_q_is_mujocos_qpos(name):
    """Joints in MuJoCo's order under their MJCF names; default_q is MuJoCo's qpos0."""
    path = oracle.public_path(name)
    model = oracle.load_quiet(path)
    m = oracle.mujoco_model(path)
    names = [m.joint(k).name for k in range(m.njnt)]
    assert [j.name for j in model.joints][:len(names)] == [n or j.name for n, j in
                                                          zip(names, model.joints)]
    assert [j.q_index for j in model.joints] == list(m.jnt_qposadr)
    assert [j.v_index for j in model.joints] == list(m.jnt_dofadr)
    np.testing.assert_allclose(interop.to_mujoco_qpos(model, model.default_q), m.qpos0,
                               rtol=0, atol=1e-12)


# Pinocchio's MJCF reader agrees where it reads the model as MuJoCo does (the armature
# included): not on the humanoid's and the cheetah's inertia from geoms, the shadow hand's
# inverse dynamics, nor Go2's scene (it cannot read it)
PIN_AGREES = ["franka_emika_panda", "universal_robots_ur5e", "anybotics_anymal_c", "unitree_h1",
              "agility_cassie"]


@pytest.mark.parametrize("name", PIN_AGREES)
def test_public_model_matches_pinocchio(name):
    pin = pytest.importorskip("pinocchio")
    path = oracle.public_path(name)
    model = oracle.load_quiet(path)
    pm = oracle.pinocchio_model(pin, path, model)
    d = pm.createData()
    q, v, a = oracle.random_states(model, 5, seed=1)
    for k in range(5):
        tau = model.inverse_dynamics(q[k], v[k], a[k])
        np.testing.assert_allclose(pin.rnea(pm, d, q[k], v[k], a[k]), tau, rtol=0,
                                   atol=TOL * np.abs(tau).max())
        M = pin.crba(pm, d, q[k])
        M = np.triu(M) + np.triu(M, 1).T
        np.testing.assert_allclose(M, model.mass_matrix(q[k]), rtol=0, atol=TOL * np.abs(M).max())


def test_summary_warning_lists_what_is_not_applied():
    """What changes MuJoCo's own inverse dynamics or mass matrix (damping, tendons, equality
    constraints...) is warned about, and refused under strict; the armature, applied as
    MuJoCo applies it, is not."""
    path = oracle.public_path("franka_emika_panda")
    with pytest.warns(urdf2dyn.URDFWarning) as rec:
        model = urdf2dyn.load(path)
    text = [str(w.message).replace(path, "") for w in rec]     # (the path may hold words)
    assert len(text) == 1
    for word in ("damping on 9 joints", "1 tendon", "1 equality constraint", "mj_inverse"):
        assert word in text[0], text[0]
    for word in ("armature on", "actuator", "contact", "limits"):
        assert word not in text[0], text[0]
    assert list(model.armature) == [0.1] * 9
    with pytest.raises(urdf2dyn.URDFError, match="not applied"):
        urdf2dyn.load(path, strict=True)


def test_summary_warning_counts_gravity_compensated_bodies_in_english():
    """Gravity compensation is counted per body as MuJoCo's body_gravcomp has it, and
    the summary says "bodies" (it said "bodys")."""
    xml = ('<mujoco><worldbody><body name="a" gravcomp="1"><joint/><geom size="0.1"/>'
           '<body name="b" gravcomp="0.5" pos="0 0 0.3"><joint/><geom size="0.1"/></body>'
           '<body name="c" pos="0.3 0 0"><joint/><geom size="0.1"/></body></body>'
           '</worldbody></mujoco>')
    with pytest.warns(urdf2dyn.URDFWarning) as rec:
        urdf2dyn.load(xml)
    m = mujoco.MjModel.from_xml_string(xml)
    count = int((m.body_gravcomp != 0).sum())
    assert count == 2
    assert f"gravity compensation on {count} bodies" in str(rec[0].message), rec[0].message


_SUMMARY = ('<mujoco>{d}<worldbody><body><joint name="h" {j}/><geom size="0.1" pos="0 0 0.3"/>'
            '</body><body pos="0 0 0.6"><joint name="f" type="free" {f}/><geom size="0.1"/>'
            '</body></worldbody><tendon><fixed name="t" {t}><joint joint="h" coef="2"/></fixed>'
            '</tendon><actuator><motor tendon="t" {a}/></actuator></mujoco>')


@pytest.mark.parametrize("parts, in_qM", [
    (dict(j='damping="0.5"'), None),
    (dict(j='stiffness="2" frictionloss="0.1"'), None),
    (dict(a='damping="0.3"'), None),
    (dict(t='stiffness="3" damping="1"'), None),
    (dict(f='armature="0.2"'), "armature on 1 free joint"),
    (dict(a='armature="0.4"', j='damping="0.5"'), "tendon armature on 1 actuator"),
    (dict(t='armature="0.3"'), "armature on 1 tendon"),
    (dict(d='<default><tendon armature="0.3"/></default>'), "armature on 1 tendon"),
])
def test_summary_warning_names_the_mass_matrix_only_for_what_changes_it(parts, in_qM):
    """The summary names what is not applied and says that inverse dynamics differs from
    mj_inverse by it; it says the mass matrix differs from MuJoCo's qM only where it does
    (the armature of a free joint, of a tendon and of a tendon's actuator), naming that
    term: it named the mass matrix for damping alone."""
    xml = _SUMMARY.format(**{k: parts.get(k, "") for k in "djfta"})
    with pytest.warns(urdf2dyn.URDFWarning, match="read but not applied") as rec:
        model = urdf2dyn.load(xml)
    text = " ".join(str(w.message) for w in rec)
    assert "mj_inverse by these terms" in text
    m = oracle.mujoco_model(xml=xml, free_armature=True)
    q, v, a = oracle.random_states(model, 3, seed=5)
    _, M_mj = oracle.mujoco_dynamics(m, model, q, v, a)
    T = interop.mujoco_velocity_map(model, q)
    M = T @ model.mass_matrix(q) @ np.swapaxes(T, -1, -2)
    same_qM = np.abs(M - M_mj).max() < 1e-12 * np.abs(M_mj).max()
    assert same_qM == (in_qM is None)
    assert ("qM" in text) == (in_qM is not None), text
    if in_qM:
        assert f"the mass matrix differs from MuJoCo's qM by the {in_qM}" in text, text


def test_limits_actuators_contacts_and_armature_do_not_make_strict_refuse():
    """Joint limits, actuators and contacts are not rigid-body dynamics (in MuJoCo either:
    mj_inverse's force is what the actuators must give; contacts come in as f_ext), and the
    armature is applied: UR5e, as published, loads under strict."""
    with open(oracle.public_path("universal_robots_ur5e")) as f:
        text = f.read()
    assert text.count(' armature="0.1"') == 1 and "<actuator>" in text and "range=" in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = urdf2dyn.load(text, strict=True)
    assert model.nv == 6 and model.joints[0].limit is not None
    assert list(model.armature) == [0.1] * 6


def test_armature_is_mujocos_and_a_free_joints_is_reported():
    """A rotor's armature adds armature * a to inverse dynamics and armature to the mass
    matrix's diagonal, as mj_inverse and qM do; a negative one is refused. On a free joint
    MuJoCo's acts on the world-frame linear acceleration, which urdf2dyn's body-frame free
    joint does not have: it is reported, not applied."""
    xml = ('<mujoco><worldbody><body name="b"><joint name="h" type="hinge" axis="0 1 0" '
           'armature="{a}"/><geom type="capsule" size="0.05" fromto="0 0 0 0.3 0 0"/>'
           '<body name="c" pos="0.3 0 0"><joint name="s" type="slide" armature="0.25"/>'
           '<geom type="sphere" size="0.05"/></body></body></worldbody></mujoco>')
    plain = urdf2dyn.load(xml.format(a=0))
    rotor = urdf2dyn.load(xml.format(a=0.5))
    assert list(rotor.armature) == [0.5, 0.25] and list(plain.armature) == [0, 0.25]
    q, v, a = np.array([0.3, 0.1]), np.array([-1.0, 2.0]), np.array([0.7, -0.4])
    np.testing.assert_allclose(rotor.inverse_dynamics(q, v, a) - plain.inverse_dynamics(q, v, a),
                               [0.5 * 0.7, 0.0], rtol=0, atol=1e-14)
    np.testing.assert_allclose(rotor.mass_matrix(q) - plain.mass_matrix(q),
                               [[0.5, 0], [0, 0]], rtol=0, atol=1e-14)
    tau = rotor.inverse_dynamics(q, v, a)
    np.testing.assert_allclose(rotor.forward_dynamics(q, v, tau), a, rtol=0, atol=1e-12)
    assert rotor.kinetic_energy(q, v) == pytest.approx(0.5 * v @ rotor.mass_matrix(q) @ v,
                                                       rel=1e-14)
    np.testing.assert_allclose(rotor.regressor(q, v, a) @ rotor.inertial_parameters()
                               + rotor.armature * a, tau, rtol=0, atol=1e-13)
    e, e_M = oracle.compare(rotor, oracle.mujoco_model(xml=xml.format(a=0.5)), n=10)
    assert e < 1e-12 and e_M < 1e-12
    with pytest.raises(urdf2dyn.URDFError, match="armature -1 is negative"):
        urdf2dyn.load(xml.format(a=-1))
    free = ('<mujoco><worldbody><body name="b"><joint type="free" armature="0.2"/>'
            '<geom type="sphere" size="0.1"/></body></worldbody></mujoco>')
    with pytest.warns(urdf2dyn.URDFWarning, match="armature on 1 free joint"):
        floating = urdf2dyn.load(free)
    assert not floating.armature.any()


@pytest.mark.parametrize("name", sorted(oracle.PUBLIC))
def test_public_model_passive_forces_are_mujocos(name):
    """passive_forces is MuJoCo's joint springs and damping (qfrc_spring + qfrc_damper, the
    tendons' left out) at 20 random states: Cassie's and the humanoid's springs, every
    model's damping."""
    path = oracle.public_path(name)
    model = oracle.load_quiet(path)
    m = oracle.mujoco_model(path)
    q, v, _ = oracle.random_states(model, 20, seed=3)
    expected = oracle.mujoco_passive(m, model, q, v)
    got = model.passive_forces(q, v)
    scale = max(np.abs(expected).max(), 1e-300)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12 * scale)
    assert (np.abs(expected).max() > 0) == (m.dof_damping.any() or m.jnt_stiffness.any())


@pytest.mark.parametrize("name", ["unitree_h1", "cheetah", "agility_cassie", "robotiq_2f85_v4"])
def test_inverse_dynamics_minus_passive_forces_is_mj_inverse(name):
    """With the constraints off, mj_inverse's qfrc_inverse is M a + h - qfrc_passive: it
    equals inverse_dynamics - passive_forces on H1 (damping), the cheetah (springs and
    damping), Cassie (springs on the shins and heels, whose equality constraints the
    flag turns off) and the Robotiq 2F-85 gripper (springs, damping, a tendon and
    coupled joints), each state to 1e-9 of its largest force."""
    path = oracle.public_path(name)
    model = oracle.load_quiet(path)
    m = oracle.mujoco_model(path)
    q, v, a = oracle.random_states(model, 20, seed=4)
    expected = oracle.mujoco_inverse(m, model, q, v, a)
    got = model.inverse_dynamics(q, v, a) - model.passive_forces(q, v)
    err = np.abs(got - expected).max(axis=1) / np.abs(expected).max(axis=1)
    assert err.max() < TOL, err.max()
    damping = np.abs(model.passive_forces(q, v)).max(axis=1) / np.abs(expected).max(axis=1)
    assert damping.min() > 1e-3        # the passive forces are not negligible in the check


def test_passive_forces_on_every_joint_type():
    """A hinge's spring about its springref (in degrees, as the compiler's angle says), a
    slide's, damping on a ball and a free joint (MuJoCo's world-frame linear velocity is
    urdf2dyn's body-frame one turned: the same damping force in either frame), against
    MuJoCo; the warning says what passive_forces gives, and a ball's spring and MuJoCo 4's
    polynomial terms, which it used to leave out, are given too."""
    xml = ('<mujoco><worldbody><body name="f"><joint type="free" damping="0.7"/>'
           '<geom type="box" size="0.1 0.2 0.3"/>'
           '<body name="h" pos="0.2 0 0"><joint name="h" axis="0 1 1" stiffness="3" '
           'springref="30" damping="0.5"/><geom type="capsule" size="0.05" '
           'fromto="0 0 0 0.3 0 0"/>'
           '<body name="s" pos="0.3 0 0"><joint name="s" type="slide" axis="1 0 0" '
           'stiffness="40" springref="0.1" damping="2"/><geom type="sphere" size="0.05"/>'
           '<body name="b" pos="0 0 -0.2"><joint name="b" type="ball" {ball}/>'
           '<geom type="sphere" size="0.05" pos="0 0 -0.1"/>'
           '</body></body></body></body></worldbody></mujoco>')
    with pytest.warns(urdf2dyn.URDFWarning) as rec:
        model = urdf2dyn.load(xml.format(ball='damping="0.25"'))
    text = str(rec[0].message)
    assert "damping on 4 joints, springs on 2 joints" in text and "passive_forces" in text
    assert "but for" not in text, text
    h = model.joints[1]
    assert (h.stiffness, h.damping) == (3.0, 0.5)
    assert h.spring_reference == pytest.approx(np.pi / 6, rel=1e-15)
    m = oracle.mujoco_model(xml=xml.format(ball='damping="0.25"'))
    q, v, _ = oracle.random_states(model, 10, seed=5)
    np.testing.assert_allclose(model.passive_forces(q, v), oracle.mujoco_passive(m, model, q, v),
                               rtol=0, atol=1e-13)
    np.testing.assert_allclose(model.passive_forces(q[0], v[0])[6:8],
                               [-3 * (q[0, 7] - np.pi / 6) - 0.5 * v[0, 6],
                                -40 * (q[0, 8] - 0.1) - 2 * v[0, 7]], rtol=1e-15)
    given = (r"; Model.passive_forces\(q, v\) gives the joints' damping and springs "
             r"\(polynomial and springdamper terms, ball and free joints too\): "
             r"inverse_dynamics minus it matches mj_inverse in them$")
    for ball in ('damping="0.25" stiffness="5"', 'damping="0.25 0.5" stiffness="5 -2 3"'):
        with pytest.warns(urdf2dyn.URDFWarning, match=given):
            model = urdf2dyn.load(xml.format(ball=ball))
        assert model.joints[3].stiffness == 5.0
        m = oracle.mujoco_model(xml=xml.format(ball=ball))
        expected = oracle.mujoco_passive(m, model, q, v)
        assert np.abs(expected[:, 8:]).min() > 1e-3        # the ball's spring is not zero
        np.testing.assert_allclose(model.passive_forces(q, v), expected, rtol=0, atol=1e-13)


# A free joint on a posed body (its spring's rest is that pose, MuJoCo's qpos_spring = qpos0)
# and a ball on a turned one (rest: the identity; MuJoCo ignores a ball's springref), each
# with springs and damping of MuJoCo 4's polynomial form "a b c" below a hinge and a slide.
POLY = ('<mujoco><compiler angle="{angle}"/><worldbody>'
        '<body name="f" pos="0.3 -0.2 1" quat="0.8 0.3 -0.4 0.2"><joint type="free" {free}/>'
        '<geom type="box" size="0.1 0.2 0.3"/>'
        '<body name="b" pos="0 0.1 -0.3" euler="30 0 -20"><joint name="b" type="ball" {ball}/>'
        '<geom type="capsule" size="0.05" fromto="0 0 0 0.1 0.05 -0.3"/>'
        '<body name="h" pos="0 0 -0.3"><joint name="h" axis="0.3 1 0" {hinge}/>'
        '<geom type="sphere" size="0.06" pos="0.1 0 -0.1"/>'
        '<body name="s" pos="0 0 -0.2"><joint name="s" type="slide" axis="1 0 1" {slide}/>'
        '<geom type="sphere" size="0.05" pos="0 0.1 -0.1"/>'
        '</body></body></body></body></worldbody></mujoco>')


def poly_xml(angle="radian", **joints):
    attrs = {"free": "", "ball": "", "hinge": "", "slide": ""}
    attrs.update(joints)
    return POLY.format(angle=angle, **attrs)


def passive_states(model, seed, n=12):
    """n random states at MuJoCo's speeds ×4 (the polynomial terms then count), half of
    them with quaternions that are not unit."""
    q, v, a = oracle.random_states(model, n, seed=seed)
    q[n // 2:] = oracle.scaled_quaternions(model, q[n // 2:], seed=seed)
    return q, 4 * v, a


def assert_passive_is_mujocos(xml, seed=0, n=12, mj=None, tol=1e-12):
    """passive_forces against MuJoCo's qfrc_spring + qfrc_damper, and inverse_dynamics minus
    it against mj_inverse (constraints off; a free joint's armature, which urdf2dyn does not
    apply, zeroed there, but not in the springdamper stiffness and damping, compiled with
    it), each state to tol (TOL for the inverse) of its largest force; returns MuJoCo's
    passive forces."""
    model = oracle.load_quiet(xml)
    m = mj if mj is not None else oracle.mujoco_model(xml=xml, free_armature=True)
    q, v, a = passive_states(model, seed, n)
    expected = oracle.mujoco_passive(m, model, q, v)
    got = model.passive_forces(q, v)
    scale = np.abs(expected).max(axis=1, keepdims=True)
    assert (np.abs(got - expected) <= tol * np.maximum(scale, 1.0)).all(), \
        np.abs(got - expected).max()
    rigid = oracle.mujoco_model(xml=xml)
    rigid.jnt_stiffness[:], rigid.dof_damping[:] = m.jnt_stiffness, m.dof_damping
    inverse = oracle.mujoco_inverse(rigid, model, q, v, a)
    err = np.abs(model.inverse_dynamics(q, v, a) - got - inverse).max(axis=1)
    assert (err <= TOL * np.abs(inverse).max(axis=1)).all(), err.max()
    return expected


@pytest.mark.parametrize("angle", ["radian", "degree"])
def test_ball_and_free_joint_springs_are_mujocos(angle):
    """A ball's spring pulls by MuJoCo's rotation vector from its rest to its quaternion
    (mju_subQuat, the quaternion normalized first); a free joint's pulls its position back
    to the body's pose in the file (in world axes: in urdf2dyn's body axes turned) and its
    rotation as a ball's: passive_forces is MuJoCo's, unit quaternions or not, and
    inverse_dynamics minus it is mj_inverse's."""
    xml = poly_xml(angle, free='stiffness="30" damping="2"', ball='stiffness="4" springref="1"',
                   hinge='stiffness="3" springref="20" damping="0.5"',
                   slide='stiffness="40" springref="0.1"')
    m = oracle.mujoco_model(xml=xml)
    assert m.qpos_spring[3:7] @ [1, 0, 0, 0] < 0.99         # the free joint's rest is turned
    expected = assert_passive_is_mujocos(xml, seed=11)
    assert np.abs(expected[:, :9]).min(axis=0).max() > 1      # its springs are not zero


def test_polynomial_springs_and_dampers_are_mujocos():
    """MuJoCo 4's stiffness="a b c" and damping="a b c": -(a x + b x^2 + c x^3) on a hinge
    or a slide, -(a + b r + c r^2) times the displacement vector of length r on a ball and
    on a free joint's position and rotation, -(a v + b v|v| + c v^3) on every coordinate
    (a free joint's linear one per world axis): passive_forces is MuJoCo's, which the
    linear terms alone are far from."""
    springs = {"free": 'stiffness="20 -3 5" damping="1 0.5 0.2"',
               "ball": 'stiffness="4 2 -1" damping="0.2 0.3 0.1"',
               "hinge": 'stiffness="3 1.5 2" damping="0.1 -0.05 0.3"',
               "slide": 'stiffness="40 -10 30" damping="2 1 0.5"'}
    xml = poly_xml(**springs)
    m = oracle.mujoco_model(xml=xml)
    assert m.jnt_stiffnesspoly.any() and m.dof_dampingpoly.any()
    expected = assert_passive_is_mujocos(xml, seed=12)
    first_terms = {joint: re.sub(r'="(\S+)[^"]*"', r'="\1"', attrs)
                   for joint, attrs in springs.items()}
    linear = oracle.load_quiet(poly_xml(**first_terms))
    q, v, _ = passive_states(linear, 12)
    assert np.abs(linear.passive_forces(q, v) - expected).max() > 0.1 * np.abs(expected).max()


def test_joint_lists_the_polynomial_terms_as_mujoco_has_them(tmp_path, capsys):
    """Joint.stiffness_poly and Joint.damping_poly are MuJoCo's jnt_stiffnesspoly and
    dof_dampingpoly (plus gear^2 times its actuators' actuator_dampingpoly, as MuJoCo 4
    adds them); urdf2dyn info counts a joint whose only terms are polynomial ones and says
    how many have such terms (Joint listed neither, info counted only linear terms)."""
    springs = {"free": 'stiffness="20 -3 5" damping="0 0.5 0.2"',
               "ball": 'stiffness="4 2 -1"', "hinge": 'damping="0 -0.05 0.3"',
               "slide": 'stiffness="40" damping="2"'}
    xml = poly_xml(**springs).replace(
        "</mujoco>", '<actuator><motor joint="h" gear="3" damping="0 0.1"/></actuator>'
        "</mujoco>")
    m = oracle.mujoco_model(xml=xml)
    model = oracle.load_quiet(xml)
    for k, joint in enumerate(model.joints):
        dof = m.jnt_dofadr[k]
        damping = m.dof_dampingpoly[dof] + sum(
            m.actuator_gear[a, 0] ** 2 * m.actuator_dampingpoly[a] for a in range(m.nu)
            if m.actuator_trnid[a, 0] == k)
        assert joint.stiffness_poly == tuple(m.jnt_stiffnesspoly[k]), joint
        assert joint.damping_poly == tuple(damping), joint
    assert model.joints[2].damping_poly == (-0.05 + 9 * 0.1, 0.3)
    from urdf2dyn.cli import main
    path = tmp_path / "poly.xml"
    path.write_text(xml)
    assert main(["info", str(path)]) == 0
    assert ("damping on 3 (2 with v|v| or v^3 terms), springs on 3 (2 with x^2 or x^3 terms) "
            "of 4 joints") in capsys.readouterr().out


def test_springdamper_sizes_the_spring_from_the_inertia_as_mujoco():
    """springdamper="timeconst dampratio" overrides the linear stiffness and damping with
    inertia / (timeconst dampratio)^2 and 2 inertia / timeconst, the inertia being the
    joint's coordinates over the trace of its block of M^-1 at qpos0 (MuJoCo's
    dof_invweight0), armature in M, a free joint's too: each joint's stiffness and damping
    are MuJoCo's compiled ones, the polynomial terms kept, and passive_forces is MuJoCo's."""
    xml = poly_xml(free='springdamper="0.3 0.8" armature="0.1"',
                   ball='springdamper="0.5 1.2" stiffness="1 2 3" damping="4 5 6"',
                   hinge='springdamper="0.2 0.7" armature="0.05" ref="0.4"',
                   slide='springdamper="0.1 1" stiffness="2 0 7" ref="0.1"')
    model = oracle.load_quiet(xml)
    m = oracle.mujoco_model(xml=xml, free_armature=True)
    assert m.dof_armature[0] == 0.1
    for j, joint in enumerate(model.joints):
        np.testing.assert_allclose([joint.stiffness, joint.damping],
                                   [m.jnt_stiffness[j], m.dof_damping[m.jnt_dofadr[j]]],
                                   rtol=1e-12)
    assert model.joints[1].stiffness < 1                      # not the stiffness="1 ..." given
    assert_passive_is_mujocos(xml, seed=13, mj=m)
    with pytest.warns(urdf2dyn.URDFWarning, match="damping on 4 joints, springs on 4 joints"):
        urdf2dyn.load(xml)


def test_springdamper_on_a_simple_slide_body_with_armature_is_named():
    """MuJoCo sizes a springdamper on a leaf body of axis-aligned slides hanging from the
    world (body_simple 2) by the body's mass alone, leaving out the armature urdf2dyn's mass
    matrix holds: that joint is named in a warning, urdf2dyn's spring being the one of the
    inertia with the armature; without armature, the two are the same."""
    xml = ('<mujoco><worldbody><body pos="0 0 1"><joint type="slide" axis="0 1 0" '
           'springdamper="0.2 0.7"{arm}/><geom type="sphere" size="0.1" mass="2"/></body>'
           '</worldbody></mujoco>')
    with pytest.warns(urdf2dyn.URDFWarning, match="read but not applied: damping on 1 joint, "
                      "springs on 1 joint"), \
            pytest.warns(urdf2dyn.URDFWarning, match="springdamper with armature on 1 slide "
                         "joint of a leaf body of slides along its axes"):
        model = urdf2dyn.load(xml.format(arm=' armature="0.5"'))
    m = oracle.mujoco_model(xml=xml.format(arm=' armature="0.5"'))
    assert m.body_simple[1] == 2
    assert m.jnt_stiffness[0] == pytest.approx(2 / (0.2 * 0.7) ** 2, rel=1e-12)
    assert model.joints[0].stiffness == pytest.approx(2.5 / (0.2 * 0.7) ** 2, rel=1e-12)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        model = urdf2dyn.load(xml.format(arm=""))
    assert not [r for r in rec if "springdamper with armature" in str(r.message)]
    m = oracle.mujoco_model(xml=xml.format(arm=""))
    assert model.joints[0].stiffness == pytest.approx(m.jnt_stiffness[0], rel=1e-12)


def test_springdamper_on_a_singular_mass_matrix_is_mujocos_and_named():
    """A hinge and a ball about the same point turn the body about z twice: the mass matrix
    at qpos0 is singular at the hinge (MuJoCo's compiler warns "at DOF 12" and raises the
    pivot to mjMINVAL); urdf2dyn factors it as MuJoCo's mj_factorM does, so the free
    joint's springdamper above is MuJoCo's, and the warning names the coordinate."""
    ball = '<geom type="sphere" size="0.5"/>'
    xml = ('<mujoco><worldbody><body><freejoint/>' + ball + '</body><body>'
           '<joint type="free" springdamper="0.5 0.5"/>' + ball + '<body><joint type="hinge"/>'
           '<joint type="ball"/>' + ball + '</body></body></worldbody></mujoco>')
    with pytest.warns(urdf2dyn.URDFWarning, match="read but not applied: damping on 1 joint, "
                      "springs on 1 joint"), \
            pytest.warns(urdf2dyn.URDFWarning, match=r"springdamper on a model whose mass "
                         r"matrix at qpos0 is singular \(at coordinate 12; MuJoCo warns"):
        model = urdf2dyn.load(xml)
    with pytest.warns(UserWarning, match="singular.* at DOF 12"):
        m = oracle.mujoco_model(xml=xml)
    np.testing.assert_allclose([model.joints[1].stiffness, model.joints[1].damping],
                               [m.jnt_stiffness[1], m.dof_damping[6]], rtol=1e-12)
    assert m.jnt_stiffness[1] > 1


def test_springyield_keeps_the_rest_where_mujoco_starts_it():
    """MuJoCo 4's springyield moves a spring's rest (mjData.plastic) only as mj_step yields
    it: at any state of fresh data MuJoCo's springs pull to qpos_spring, as passive_forces
    does, and the warning says so; a negative yield or one on a free joint is refused, as
    MuJoCo refuses it."""
    xml = poly_xml("degree", ball='stiffness="4" springyield="5"',
                   hinge='stiffness="3" springref="20" springyield="{y}"')
    with pytest.warns(urdf2dyn.URDFWarning, match="read but not applied: springs on 2 "
                      "joints"), \
            pytest.warns(urdf2dyn.URDFWarning, match=r"springyield on 2 joints: "
                         r"Model.passive_forces\(q, v\) keeps each spring's rest at MuJoCo's "
                         r"qpos_spring, as MuJoCo does until a step yields it"):
        urdf2dyn.load(xml.format(y="2"))
    expected = assert_passive_is_mujocos(xml.format(y="2"), seed=14)
    assert np.abs(expected[:, 6:10]).max() > 1
    for bad, why in [(xml.format(y="-1"), "springyield -1 is negative"),
                     (poly_xml(free='stiffness="1" springyield="0.5"'),
                      "springyield on a free joint")]:
        with pytest.raises(ValueError):
            oracle.mujoco_model(xml=bad)
        with pytest.raises(urdf2dyn.URDFError, match=why):
            urdf2dyn.load(bad)


@pytest.mark.parametrize("geom, words", [
    ('type="capsule" size="0.1" fromto="0 0 0 0 0 0"', ["two points coincide"]),
    ('type="capsule" size="0.1" fromto="0 0 0 0 0 0.1" pos="0 0 1"', ["both pos and fromto"]),
    ('type="sphere" size="0.1" fromto="0 0 0 0 0 0.1"', ["only capsules"]),
    ('type="capsule" size="0.1" fromto="0 0 0 0 0 0.1"', []),
])
@pytest.mark.parametrize("unread", ["inertial", "group"])
def test_geom_fromto_is_checked_where_its_mass_goes_unread(tmp_path, geom, words, unread):
    """MuJoCo's compiler checks every geom's fromto, also where the geom's mass is not read
    (its body has an <inertial>, or it is outside inertiagrouprange): urdf2dyn refuses the
    same, where it loaded them (found by the drawn documents)."""
    inertial = ('<inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>'
                if unread == "inertial" else '<geom size="0.1"/>')
    group = ' group="5"' if unread == "group" else ""
    xml = ('<mujoco><compiler inertiagrouprange="0 3"/><worldbody><body><joint/>'
           f'{inertial}<geom {geom}{group}/></body></worldbody></mujoco>')
    verdict = same_verdict_as_mujoco(tmp_path, xml, words)
    assert (verdict is None) == (not words)


# ---- actuators' armature and damping (MuJoCo 4) ----------------------------------------------

ACTUATED = """
<mujoco>
  <default>
    <general damping="0.3"/>
    <default class="geared">
      <motor gear="-2" armature="0.05"/>
      <position damping="0.4 0.1"/>
      <default class="inner"><general armature="0.2"/></default>
    </default>
  </default>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" armature="0.1" damping="0.2"/>
      <geom type="capsule" size="0.05" fromto="0 0 0 0.3 0 0"/>
      <body name="b" pos="0.3 0 0">
        <joint name="ball" type="ball"/>
        <geom type="sphere" size="0.05" pos="0.1 0 0"/>
        <body name="c" pos="0.2 0 0">
          <joint name="slide" type="slide" axis="1 0 1" springdamper="0.2 0.7"/>
          <geom type="box" size="0.05 0.02 0.03"/>
        </body>
      </body>
    </body>
    <body name="f" pos="1 0 0"><freejoint name="free"/><geom type="box" size="0.1 0.2 0.3"/></body>
  </worldbody>
  <actuator>
    <general joint="hinge" gear="-2" damping="0.7 0.2 0.1" armature="0.3"/>
    <motor class="geared" joint="hinge"/>
    <velocity joint="hinge" kv="2" gear="0.5" armature="0.6"/>
    <position class="inner" jointinparent="ball" gear="1.5 2 3" kp="10"/>
    <motor joint="slide" gear="0.5" armature="0.4"/>
    <position joint="slide" kp="50" kv="3" damping="1"/>
    <general joint="free" gear="3" damping="0.5 0.2 0.1"/>
  </actuator>
</mujoco>
"""


def test_actuator_armature_and_damping_are_mujocos():
    """MuJoCo 4 adds an actuator's armature and damping="linear v|v| v^2", times gear[0]^2,
    to the joint it drives (joint= or jointinparent=), summed over the actuators on one
    joint, whatever their kind: the mass matrix (qM), passive_forces (qfrc_damper) and
    inverse_dynamics - passive_forces (mj_inverse) are MuJoCo's on a hinge with three
    actuators (negative and non-unit gears), a ball, a slide with a motor and a position
    servo (and a springdamper, sized with the actuators' armature, to which MuJoCo adds
    their damping), and a free joint's damping, with attributes from nested default
    classes."""
    m = oracle.mujoco_model(xml=ACTUATED)
    assert m.actuator_armature.any() and m.actuator_damping.any() and \
        m.actuator_dampingpoly.any()
    np.testing.assert_array_equal(m.actuator_damping, [0.7, 0.4, 0.3, 0.4, 0.3, 1, 0.5])
    np.testing.assert_array_equal(m.actuator_armature, [0.3, 0.05, 0.6, 0.2, 0.4, 0, 0])
    model = oracle.load_quiet(ACTUATED)
    hinge = 0.1 + 4 * 0.3 + 4 * 0.05 + 0.25 * 0.6
    np.testing.assert_allclose(model.armature[:5], [hinge, 2.25 * 0.2, 2.25 * 0.2,
                                                   2.25 * 0.2, 0.25 * 0.4], rtol=1e-15)
    q, v, a = passive_states(model, seed=21)
    _, M_mj = oracle.mujoco_dynamics(m, model, q, v, a)
    T = interop.mujoco_velocity_map(model, q)
    M = T @ model.mass_matrix(q) @ np.swapaxes(T, -1, -2)
    np.testing.assert_allclose(M, M_mj, rtol=0, atol=1e-12 * np.abs(M_mj).max())
    np.testing.assert_allclose([j.stiffness for j in model.joints], m.jnt_stiffness,
                               rtol=1e-12)
    expected = assert_passive_is_mujocos(ACTUATED, seed=21)
    assert np.abs(expected).min(axis=0).min() > 0       # every coordinate is damped


def test_actuator_on_a_free_joint_or_a_tendon_is_named():
    """What MuJoCo adds that urdf2dyn does not: a free joint's armature from its actuator
    (reported as the joint's own, and in its springdamper's inertia, as MuJoCo's compiler
    has it) and a tendon actuator's armature and damping (MuJoCo adds them to the tendon):
    each is named in the summary warning, and under strict refused."""
    free = ('<mujoco><worldbody><body><joint name="f" type="free" springdamper="0.3 0.8"/>'
            '<geom type="box" size="0.1 0.2 0.3"/></body></worldbody><actuator>'
            '<motor joint="f" gear="2 0 0 0 0 1" armature="0.5"/></actuator></mujoco>')
    with pytest.warns(urdf2dyn.URDFWarning, match="armature on 1 free joint"):
        model = urdf2dyn.load(free)
    assert not model.armature.any()
    m = oracle.mujoco_model(xml=free, free_armature=True)
    assert m.actuator_armature[0] == 0.5
    np.testing.assert_allclose([model.joints[0].stiffness, model.joints[0].damping],
                               [m.jnt_stiffness[0], m.dof_damping[0]], rtol=1e-12)
    tendon = ('<mujoco><worldbody><body><joint name="h"/><geom size="0.1" pos="0 0 0.3"/>'
              '</body></worldbody><tendon><fixed name="t"><joint joint="h" coef="2"/></fixed>'
              '</tendon><actuator><motor tendon="t" armature="0.5" damping="0.2"/>'
              '<motor joint="h" damping="0.1"/></actuator></mujoco>')
    with pytest.warns(urdf2dyn.URDFWarning, match="damping on 1 actuator, tendon armature on 1 "
                      "actuator, tendon damping on 1 actuator, 1 tendon"):
        model = urdf2dyn.load(tendon)
    assert model.armature[0] == 0 and model.joints[0].damping == 0.1
    with pytest.raises(urdf2dyn.URDFError, match="tendon armature on 1 actuator"):
        urdf2dyn.load(tendon, strict=True)


_SITE_BODY = ('<mujoco><worldbody><body name="b"><joint name="h"/><geom size="0.1" '
              'pos="0 0 0.3"/><site name="s" pos="0 0 0.2"/><site name="r"/></body>'
              '<site name="w" pos="0 0 -1"/></worldbody><actuator>{a}</actuator></mujoco>')


@pytest.mark.parametrize("actuator, refused, words", [
    ('<general site="s" armature="0.1"/>', True, ["actuator 0", "not site="]),
    ('<general site="s" damping="0.1"/>', True, ["not site="]),
    ('<general body="b" armature="0.1"/>', True, ["not body="]),
    ('<general cranksite="s" slidersite="w" cranklength="0.5" damping="1"/>', True,
     ["not cranksite="]),
    ('<general name="x" joint="nothing" armature="0.1"/>', True,
     ["actuator 'x'", 'joint="nothing" names no joint']),
    ('<motor jointinparent="nothing"/>', True, ['jointinparent="nothing" names no joint']),
    ('<general gear="2"/>', True, ["actuator 0 (unnamed) has no transmission target"]),
    ('<general site="s" refsite="r" gear="1 0 0 0 0 0"/>', False, []),
    ('<general joint="h" armature="0.1" damping="-0.5 0.2"/>', False, []),
])
def test_actuator_armature_and_damping_rules_are_mujocos(tmp_path, actuator, refused, words):
    """Armature and damping need a joint or tendon transmission, and every actuator a
    target, a joint that exists for a joint transmission: urdf2dyn refuses the others as
    MuJoCo refuses them (it loaded them), and applies MuJoCo's (a negative damping too)."""
    xml = _SITE_BODY.format(a=actuator)
    verdict = same_verdict_as_mujoco(tmp_path, xml, words)
    assert (verdict is not None) == refused
    if not refused:
        assert_passive_is_mujocos(xml, seed=22)


_TARGETS = ('<mujoco><worldbody><site name="w"/><body name="b"><joint name="h"/><geom size="0.1" '
            'pos="0 0 0.3"/><site name="s"/><frame pos="0 0.1 0"><body name="c"><joint '
            'name="h2" type="slide"/><geom size="0.1"/><frame><site name="s2"/></frame></body>'
            '</frame></body></worldbody><tendon><fixed name="t"><joint joint="h" coef="2"/>'
            '</fixed></tendon><actuator>{a}</actuator></mujoco>')


@pytest.mark.parametrize("actuator, refused, words", [
    ('<motor name="m" tendon="nope"/>', True, ["actuator 'm'", 'tendon="nope" names no tendon']),
    ('<motor site="nope"/>', True, ["actuator 0 (unnamed)", 'site="nope" names no site']),
    ('<general body="nope"/>', True, ['body="nope" names no body']),
    ('<adhesion body="nope" gain="1" ctrlrange="0 1"/>', True, ['body="nope" names no body']),
    ('<motor site="s" refsite="nope"/>', True, ['refsite="nope" names no site']),
    ('<motor cranksite="nope" slidersite="s2" cranklength="1"/>', True,
     ['cranksite="nope" names no site']),
    ('<motor cranksite="s" slidersite="nope" cranklength="1"/>', True,
     ['slidersite="nope" names no site']),
    ('<motor cranksite="s" cranklength="1"/>', True, ["needs slidersite="]),
    ('<motor cranksite="s" slidersite="s2"/>', True, ["cranklength 0 is not positive"]),
    ('<motor joint="h" refsite="s"/>', True, ["refsite= is only for a site= transmission"]),
    ('<motor joint="h" cranklength="1"/>', True, ["only for a cranksite= transmission"]),
    ('<motor body="b"/>', True, ["<motor> has no body= attribute"]),
    ('<adhesion body="b" joint="h" gain="1" ctrlrange="0 1"/>', True,
     ["<adhesion> has no joint= attribute"]),
    ('<muscle site="s"/>', True, ["<muscle> has no site= attribute"]),
    ('<motor tendon=""/>', True, ["has no transmission target"]),
    ('<motor tendon="t"/><motor site="s2" refsite="w"/><general body="world"/>'
     '<general body="c"/><motor cranksite="s" slidersite="s2" cranklength="0.5"/>'
     '<motor site="s" refsite=""/>', False, []),
    ('<motor joint="nope" tendon="t"/>', False, []),
])
def test_actuator_targets_are_checked_as_mujoco_checks_them(tmp_path, actuator, refused,
                                                            words):
    """A tendon, site or body target that is not in the model (sites and bodies inside
    frames count), a slider-crank without its base site or a positive crank length, refsite,
    slidersite or cranklength with another transmission, and a transmission attribute that
    MuJoCo's element does not have are refused as MuJoCo refuses them, naming the actuator
    and the name (urdf2dyn loaded them all); the targets that are there load."""
    xml = _TARGETS.format(a=actuator)
    verdict = same_verdict_as_mujoco(tmp_path, xml, words)
    assert (verdict is not None) == refused, verdict


@pytest.mark.parametrize("actuator, trn, armature", [
    ('<general joint="h" tendon="t" armature="0.5"/>', "mjTRN_TENDON", [0, 0]),
    ('<general joint="h2" jointinparent="h" armature="0.5" gear="2"/>',
     "mjTRN_JOINTINPARENT", [2.0, 0]),
])
def test_two_transmission_targets_drive_the_one_mujoco_drives_and_warn(actuator, trn,
                                                                      armature):
    """MuJoCo takes an actuator with two targets and drives the last of joint,
    jointinparent, tendon, cranksite, site, body (the others unread): urdf2dyn applies the
    armature to that one (a tendon's is reported), and warns naming it."""
    xml = _TARGETS.format(a=actuator)
    with pytest.warns(urdf2dyn.URDFWarning, match="read but not applied: .*1 tendon"), \
            pytest.warns(urdf2dyn.URDFWarning,
                         match=r"2 transmission targets \(.*\): MuJoCo drives"):
        model = urdf2dyn.load(xml)
    m = oracle.mujoco_model(xml=xml)
    assert m.actuator_trntype[0] == getattr(mujoco.mjtTrn, trn)
    np.testing.assert_array_equal(model.armature, armature)
    if trn == "mjTRN_JOINTINPARENT":
        assert max(oracle.compare(model, m, n=3)) < TOL


def test_force_ranges_clamp_neither_inverse_dynamics_nor_mj_inverse():
    """An actuator's forcerange and a joint's actuatorfrcrange limit what MuJoCo's actuators
    give in a simulation; mj_inverse does not clamp to them, nor does urdf2dyn (as its
    documentation says): torques far outside the ranges are mj_inverse's."""
    xml = ('<mujoco><worldbody><body><joint name="h" range="-60 60" actuatorfrcrange="-0.01 '
           '0.01"/><geom size="0.1" pos="0.3 0 0"/></body></worldbody><actuator><motor '
           'joint="h" forcerange="-0.02 0.02" forcelimited="true"/></actuator></mujoco>')
    model = oracle.load_quiet(xml)
    m = oracle.mujoco_model(xml=xml)
    assert m.jnt_actfrclimited[0] and m.actuator_forcelimited[0]
    q, v, a = oracle.random_states(model, 5, seed=3)
    tau = model.inverse_dynamics(q, v, a)
    np.testing.assert_allclose(tau, oracle.mujoco_inverse(m, model, q, v, a), rtol=1e-12)
    assert np.abs(tau).max() > 5 * 0.02


def test_negative_actuator_armature_is_refused():
    """A negative rotor inertia (which MuJoCo takes, making its mass matrix lose positive
    definiteness) is refused, as a joint's is."""
    with pytest.raises(urdf2dyn.URDFError, match="actuator 0 .*armature -0.1 is negative"):
        urdf2dyn.load(_SITE_BODY.format(a='<motor joint="h" armature="-0.1"/>'))


def test_public_model_with_actuator_armature_and_damping_is_mujocos(tmp_path):
    """The Panda with its actuators' class given armature and damping: its seven joint
    actuators add them to their joints (mass matrix, passive forces and mj_inverse are
    MuJoCo's, its tendon actuator's left out of MuJoCo's), the tendon actuator is named; as
    published (no actuator has either) it loads with the same armature and damping."""
    path = oracle.public_path("franka_emika_panda")
    with open(path) as f:
        text = f.read()
    general = '<general dyntype="none" biastype="affine"'
    assert text.count(general) == 1
    (tmp_path / "panda.xml").write_text(
        text.replace(general, general + ' armature="0.2" damping="1.5 0.1"'))
    with pytest.warns(urdf2dyn.URDFWarning, match="damping on 7 actuators, tendon armature on 1 "
                      "actuator, tendon damping on 1 actuator"):
        model = urdf2dyn.load(str(tmp_path / "panda.xml"))
    published = oracle.load_quiet(path)
    np.testing.assert_allclose(model.armature - published.armature, [0.2] * 7 + [0, 0],
                               rtol=0, atol=1e-15)
    np.testing.assert_allclose([j.damping - k.damping for j, k in zip(model.joints,
                                                                       published.joints)],
                               [1.5] * 7 + [0, 0], rtol=0, atol=1e-15)
    m = oracle.mujoco_model(str(tmp_path / "panda.xml"))
    assert m.actuator_trntype[7] == mujoco.mjtTrn.mjTRN_TENDON
    m.actuator_armature[7] = m.actuator_damping[7] = 0
    m.actuator_dampingpoly[7] = 0
    q, v, a = oracle.random_states(model, 10, seed=23)
    _, M_mj = oracle.mujoco_dynamics(m, model, q, v, a)
    np.testing.assert_allclose(model.mass_matrix(q), M_mj, rtol=0, atol=1e-12 * np.abs(M_mj).max())
    passive = oracle.mujoco_passive(m, model, q, v)
    np.testing.assert_allclose(model.passive_forces(q, v), passive, rtol=0,
                               atol=1e-12 * np.abs(passive).max())
    inverse = oracle.mujoco_inverse(m, model, q, v, a)
    got = model.inverse_dynamics(q, v, a) - model.passive_forces(q, v)
    err = np.abs(got - inverse).max(axis=1) / np.abs(inverse).max(axis=1)
    assert err.max() < TOL, err.max()


def test_passive_forces_of_urdf_and_opensim_models():
    """A URDF's <dynamics damping> damps its joint; OpenSim models have none."""
    urdf = urdf2dyn.load(
        '<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/>'
        '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
        '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
        '<dynamics damping="0.3" friction="0.1"/></joint></robot>')
    np.testing.assert_array_equal(urdf.passive_forces([[0.2], [0.5]], [[1.0], [-2.0]]),
                                  [[-0.3], [0.6]])
    assert (urdf.joints[0].damping, urdf.joints[0].friction) == (0.3, 0.1)
    here = os.path.dirname(__file__)
    osim = oracle.load_quiet(os.path.join(here, "data", "opensim_models", "Gait10dof18musc",
                                          "subject01.osim"))
    assert not osim.passive_forces(osim.default_q, np.ones(osim.nv)).any()


def test_pickle_keeps_the_included_files(tmp_path):
    """A model read through <include> pickles with its files: it unpickles once they are gone."""
    src = os.path.join(oracle.MJCF, "dm_control")
    shutil.copytree(src, tmp_path / "dm")
    model = oracle.load_quiet(str(tmp_path / "dm" / "cheetah.xml"))
    blob = pickle.dumps(model)
    shutil.rmtree(tmp_path / "dm")
    again = pickle.loads(blob)
    q, v, a = oracle.random_states(model, 3)
    np.testing.assert_array_equal(again.inverse_dynamics(q, v, a), model.inverse_dynamics(q, v, a))


def test_interop_round_trips_and_mass_matrix_map():
    model = oracle.load_quiet(oracle.public_path("agility_cassie"))
    q, v, a = oracle.random_states(model, 4)
    np.testing.assert_array_equal(interop.from_mujoco_qpos(model, interop.to_mujoco_qpos(model, q)), q)
    for to, back, x in ((interop.to_mujoco_qvel, interop.from_mujoco_qvel, v),
                        (interop.to_mujoco_qfrc, interop.from_mujoco_qfrc, a)):
        np.testing.assert_allclose(back(model, q, to(model, q, x)), x, atol=1e-14)
    qacc = interop.to_mujoco_qacc(model, q, v, a)
    np.testing.assert_allclose(interop.from_mujoco_qacc(model, q, v, qacc), a, atol=1e-14)
    with pytest.raises(ValueError, match="MJCF"):
        interop.to_mujoco_qpos(urdf2dyn.load(os.path.join(
            os.path.dirname(urdf2dyn.__file__), "data", "robot2r.urdf")), np.zeros(2))


# ---- MuJoCo's compiler, feature by feature ------------------------------------------------

def check_doc(tmp_path, xml, files=None, n=10):
    """Write xml (and files: {name: text or bytes}) to tmp_path, load it in both, compare."""
    for name, data in (files or {}).items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data if isinstance(data, bytes) else data.encode())
    path = tmp_path / "model.xml"
    path.write_text(xml)
    model = oracle.load_quiet(str(path))
    m = oracle.mujoco_model(str(path))
    e_tau, e_M = oracle.compare(model, m, n=n)
    assert e_tau < TOL and e_M < TOL, (e_tau, e_M)
    assert model.total_mass == pytest.approx(oracle.moving_mass(m), rel=1e-12)
    return model, m


KITCHEN = """
<mujoco model="kitchen">
  <compiler angle="degree" eulerseq="zyx"/>
  <option gravity="0.5 -1 -9"/>
  <default>
    <geom type="capsule" size="0.05 0.1" density="800"/>
    <joint axis="0 1 0"/>
    <default class="arm">
      <joint axis="1 0 0" ref="10"/>
      <geom size="0.04" rgba="1 0 0 1"/>
      <default class="box">
        <geom type="box" size="0.1 0.2 0.05" euler="10 20 30"/>
      </default>
    </default>
    <default class="shell"><geom shellinertia="true" group="1"/></default>
    <default class="ghost"><geom group="4" mass="3"/></default>
  </default>
  <worldbody>
    <geom type="plane" size="1 1 1"/>
    <body name="base" pos="0.1 0.2 1" axisangle="1 1 0 30" childclass="arm">
      <freejoint name="root"/>
      <geom class="box"/>
      <geom type="sphere" size="0.1" pos="0 0 0.2" class="shell"/>
      <geom type="cylinder" fromto="0 0 0 0.3 0.1 -0.2"/>
      <geom type="ellipsoid" size="0.1 0.05 0.07" xyaxes="0 1 0 -1 0 0" class="shell"/>
      <geom class="ghost" type="sphere" size="0.3"/>
      <frame pos="0.2 0 0" zaxis="1 1 1" childclass="box">
        <body name="arm1" euler="0 45 0">
          <joint name="j1" pos="0.05 0 0.1" range="-30 60"/>
          <joint name="j2" type="slide" axis="0 0 1" ref="0.1"/>
          <joint name="j3" type="hinge" pos="0 0.02 0" axis="0 1 1"/>
          <geom fromto="0 0 0 0 0 0.4" type="capsule"/>
          <geom type="box" fromto="0 0 0 0.2 0.1 0.1" size="0.02"/>
          <body name="weld" pos="0 0 0.4" quat="0 1 0 0">
            <geom type="ellipsoid" fromto="0 0 0 0.1 0 0" size="0.03"/>
            <body name="ballbody" pos="0.1 0 0">
              <joint name="ball" type="ball" pos="0 0.03 0"/>
              <joint name="after" type="slide" axis="1 0 0"/>
              <geom type="box" size="0.02 0.03 0.04" mass="0.7"/>
            </body>
          </body>
        </body>
      </frame>
      <body name="leg" pos="0 0 -0.3" xyaxes="0 0 1 0 1 0" childclass="shell">
        <inertial pos="0.01 0.02 0.03" mass="2" fullinertia="0.1 0.2 0.15 0.01 -0.02 0.03"/>
        <joint name="knee" class="arm" pos="0 0 0.05"/>
        <geom type="capsule" size="0.04 0.2"/>
        <body name="foot" pos="0 0 -0.4">
          <inertial pos="0 0 0" mass="0.5" diaginertia="0.01 0.02 0.025" euler="10 0 5"/>
          <joint name="ankle" pos="0.02 0 0" axis="0 0 1"/>
        </body>
      </body>
    </body>
    <body name="pendulum" pos="0 1 1" euler="90 0 0">
      <joint name="swing" axis="1 0 0" ref="-20"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.02"/>
      <body name="mocap" mocap="false">
        <geom size="0.05"/>
      </body>
    </body>
    <body name="target" mocap="true" pos="1 1 1"><geom type="sphere" size="0.1"/></body>
  </worldbody>
</mujoco>
"""


def test_compiler_semantics_match_mujoco(tmp_path):
    """Classes and childclass (partial sizes, inherited orientation), every orientation form
    in degrees with a custom euler sequence, frames, fromto on all four types, shell inertia,
    geom groups out of inertiagrouprange, fullinertia and diaginertia, chains of joints with
    anchors and refs, a ball then a slide, welded and mocap bodies, gravity."""
    model, m = check_doc(tmp_path, KITCHEN)
    assert [j.name for j in model.joints] == ["root", "j1", "j2", "j3", "ball", "after", "knee",
                                             "ankle", "swing"]
    assert [j.type for j in model.joints][:6] == ["floating", "revolute", "prismatic",
                                                 "revolute", "ball", "prismatic"]
    np.testing.assert_array_equal(model.gravity, [0.5, -1, -9])
    np.testing.assert_allclose(interop.to_mujoco_qpos(model, model.default_q), m.qpos0,
                               atol=1e-12)
    assert model.joint("j1").limit[:2] == pytest.approx(np.radians([-30, 60]))


@pytest.mark.parametrize("compiler", [
    'inertiafromgeom="true"', 'inertiafromgeom="false"', 'inertiagrouprange="0 1"',
    'boundmass="0.5" boundinertia="0.01"', 'settotalmass="7"', 'angle="radian"',
    'balanceinertia="true"'])
def test_compiler_options_match_mujoco(tmp_path, compiler):
    xml = KITCHEN.replace('<compiler angle="degree" eulerseq="zyx"/>',
                          f'<compiler eulerseq="zyx" {compiler}/>' if "angle" in compiler
                          else f'<compiler angle="degree" eulerseq="zyx" {compiler}/>')
    if "balance" in compiler:       # an inertia MuJoCo refuses without balanceinertia
        xml = xml.replace('diaginertia="0.01 0.02 0.025"', 'diaginertia="0.01 0.01 0.025"')
    if "false" in compiler:         # no geoms: every moving body needs its inertial
        xml = xml.replace("<freejoint", '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>'
                          '<freejoint')
        for b in ("arm1", "ballbody", "pendulum"):
            at = xml.index(f'name="{b}"')
            at = xml.index("<joint", at)
            xml = (xml[:at] + '<inertial pos="0 0 0.1" mass="1" diaginertia="0.1 0.1 0.1"/>'
                   + xml[at:])
    check_doc(tmp_path, xml)


@pytest.mark.parametrize("inertia", ['diaginertia="0.01 0.012 0.015" euler="0 30 0"',
                                     'fullinertia="0.1 0.2 0.15 0.01 -0.02 0.03"'])
def test_inertial_inside_a_frame(tmp_path, inertia):
    """An <inertial> inside a <frame> is placed by the frame, as MuJoCo places it (found by
    the Hypothesis test: it was read in the body frame)."""
    check_doc(tmp_path, f"""<mujoco><worldbody><body><frame pos="0 0 1" euler="0 0 90">
        <joint type="hinge" axis="0 1 0"/><joint type="hinge" axis="0 0 1"/>
        <inertial pos="0.1 0 0" mass="0.5" {inertia}/></frame></body></worldbody></mujoco>""")


def test_include_relative_to_the_including_file(tmp_path):
    """A nested include is found beside the file that includes it; defaults and assets from
    included files apply."""
    files = {
        "parts/robot.xml": """<mujoco><include file="limb.xml"/></mujoco>""",
        "parts/limb.xml": """<mujoco><worldbody><body name="a" pos="0 0 1">
              <joint name="h" class="c"/><geom size="0.1"/></body></worldbody></mujoco>""",
        "defaults.xml": """<mujoco><default><default class="c"><joint axis="1 0 0"/>
              <geom type="box" size="0.1 0.2 0.3"/></default></default></mujoco>""",
    }
    xml = """<mujoco><include file="defaults.xml"/><include file="parts/robot.xml"/></mujoco>"""
    model, _ = check_doc(tmp_path, xml, files)
    assert model.joint("h").axis == pytest.approx((1, 0, 0))


def test_mesh_inertia_matches_mujoco(tmp_path):
    """Bodies without <inertial> weigh their meshes as MuJoCo does: binary STL and OBJ
    (public meshes), legacy, exact and shell inertia, scale and refquat, mass or density."""
    panda = os.path.join(oracle.MJCF, "menagerie", "franka_emika_panda", "assets")
    anymal = os.path.join(oracle.MJCF, "menagerie", "anybotics_anymal_c", "assets")
    xml = f"""<mujoco><compiler meshdir="{panda}"/>
      <asset>
        <mesh name="hand" file="hand.stl"/>
        <mesh name="hand_exact" file="hand.stl" inertia="exact" scale="1.2 1 0.8"/>
        <mesh name="hand_shell" file="hand.stl" inertia="shell" refquat="1 0.2 0 0.1"/>
        <mesh name="link5" file="link5_collision_1.obj"/>
        <mesh name="battery" file="{anymal}/battery.obj" scale="2 2 2"/>
      </asset>
      <worldbody>
        <body name="b1"><freejoint/><geom type="mesh" mesh="hand" pos="0.1 0 0" euler="0 30 0"/>
          <body name="b2" pos="0 0 0.2"><joint axis="1 0 0"/>
            <geom type="mesh" mesh="hand_exact" mass="0.3"/>
            <geom type="mesh" mesh="link5" density="500"/>
            <body name="b3" pos="0.1 0 0"><joint type="ball"/>
              <geom type="mesh" mesh="hand_shell" density="3"/>
              <geom type="mesh" mesh="battery"/></body></body></body>
      </worldbody></mujoco>"""
    model, m = check_doc(tmp_path, xml)
    s = model.structure()
    np.testing.assert_allclose(sorted(s.mass[1:]), sorted(m.body_mass[1:]), rtol=1e-9)


def _prism_obj(cap, height=0.3, z_wobble=None):
    """A prism on the polygon cap (its corners in order), each cap one OBJ face of len(cap)
    corners, the sides quads; z_wobble lifts the top cap's corners (a non-planar face)."""
    n = len(cap)
    top = [0.0] * n if z_wobble is None else z_wobble
    lines = [f"v {x:.6f} {y:.6f} 0" for x, y in cap]
    lines += [f"v {x:.6f} {y:.6f} {height + dz:.6f}" for (x, y), dz in zip(cap, top)]
    lines.append("f " + " ".join(str(k) for k in range(n, 0, -1)))
    lines.append("f " + " ".join(str(n + k) for k in range(1, n + 1)))
    lines += [f"f {k + 1} {(k + 1) % n + 1} {n + (k + 1) % n + 1} {n + k + 1}" for k in range(n)]
    return "\n".join(lines) + "\n"


def _star(n, r_out=0.2, r_in=0.07, turn=0.3):
    angles = [turn + 2 * np.pi * k / n for k in range(n)]
    return [((r_out if k % 2 == 0 else r_in) * np.cos(a), (r_out if k % 2 == 0 else r_in) *
             np.sin(a)) for k, a in enumerate(angles)]


@pytest.mark.parametrize("cap, wobble", [
    (_star(10), None),                                  # non-convex: a fan leaves the shape
    (_star(36, turn=1.1), None),
    ([(0, 0), (0.3, 0), (0.3, 0.1), (0.1, 0.1), (0.1, 0.3), (0, 0.3)], None),   # an L
    ([(0.2 * np.cos(a), 0.15 * np.sin(a)) for a in np.linspace(0, 6, 7)],
     [0, 0.05, -0.04, 0.08, 0, -0.06, 0.03]),           # convex but not planar
    ([(0.2 * np.cos(a), 0.2 * np.sin(a)) for a in np.linspace(0, 6.2, 101)], None),
])
def test_obj_polygons_are_triangulated_as_mujoco(tmp_path, cap, wobble):
    """A face of more than four corners is cut into triangles as MuJoCo's OBJ reader
    (tinyobjloader's ear clipping) cuts it, not as a fan from its first corner: on a
    non-convex or non-planar face the two weigh differently; one of more than 100 corners
    MuJoCo 4 drops (the 101-gon prism weighs its sides only). Mass, centre of mass and
    principal moments to 1e-12; the dynamics to TOL where MuJoCo's principal axes are
    accurate to it (on the non-planar prism, whose two principal moments are within 10%,
    mjuu_eig3 turns them to ~5e-8)."""
    xml = """<mujoco><asset><mesh name="p" file="p.obj"/></asset><worldbody>
      <body name="b"><joint axis="1 0.3 0.2"/><geom type="mesh" mesh="p" pos="0.2 0 0"/>
      </body></worldbody></mujoco>"""
    (tmp_path / "p.obj").write_text(_prism_obj(cap, z_wobble=wobble))
    (tmp_path / "model.xml").write_text(xml)
    model = oracle.load_quiet(str(tmp_path / "model.xml"))
    m = oracle.mujoco_model(str(tmp_path / "model.xml"))
    _assert_body_inertia_is_mujocos(model, m, "b")
    if wobble is None:
        e_tau, e_M = oracle.compare(model, m, n=10)
        assert e_tau < TOL and e_M < TOL, (e_tau, e_M)



def test_obj_whose_faces_mujoco_drops_is_refused_saying_why(tmp_path):
    """An OBJ whose only face has more than 100 corners has no faces for MuJoCo (it takes
    the convex hull's inertia then, which urdf2dyn does not compute): the refusal says
    which faces were dropped and what to do, once."""
    ring = "".join(f"v {np.cos(k / 17):.6f} {np.sin(k / 17):.6f} 0\n" for k in range(101))
    (tmp_path / "ring.obj").write_text(ring + "v 0 0 1\nf " + " ".join(map(str, range(1, 102))))
    xml = ('<mujoco><asset><mesh name="m" file="ring.obj"/></asset><worldbody><body name="arm">'
           '<joint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>')
    m = mujoco.MjModel.from_xml_string(xml.replace("ring.obj", str(tmp_path / "ring.obj")))
    assert m.mesh_facenum[0] == 200          # MuJoCo's: the hull of the ring and the apex
    msg = load_error(tmp_path, xml)
    for words in ("ring.obj", "body 'arm'", "(1) have more than 100 corners", "drops",
                  "split each into faces of at most 100 corners", "<inertial>"):
        assert words in msg, msg
    assert msg.count("give the body an <inertial>") == 1, msg

def _body_inertia(model, body):
    """A body's mass, centre of mass and principal moments (about the centre) in urdf2dyn."""
    p = dict(zip(model.parameter_names(), model.inertial_parameters()))
    mass = p[body + ".m"]
    com = np.array([p[body + ".mcx"], p[body + ".mcy"], p[body + ".mcz"]]) / mass
    I = np.array([[p[body + ".Ixx"], p[body + ".Ixy"], p[body + ".Ixz"]],
                  [p[body + ".Ixy"], p[body + ".Iyy"], p[body + ".Iyz"]],
                  [p[body + ".Ixz"], p[body + ".Iyz"], p[body + ".Izz"]]])
    return mass, com, np.linalg.eigvalsh(I - mass * (com @ com * np.eye(3) - np.outer(com, com)))


def _assert_body_inertia_is_mujocos(model, m, body):
    """The body's mass, centre of mass (body frame) and principal moments equal MuJoCo's
    (body_mass, body_ipos, body_inertia) to 1e-12."""
    k = m.body(body).id
    mass, com, moments = _body_inertia(model, body)
    assert mass == pytest.approx(m.body_mass[k], rel=1e-12)
    np.testing.assert_allclose(com, m.body_ipos[k], rtol=0, atol=1e-12 * np.abs(com).max())
    np.testing.assert_allclose(moments, np.sort(m.body_inertia[k]), rtol=1e-12)


@pytest.mark.parametrize("mesh", ["base_link_collision.002.obj", "link_3_collision.obj"])
def test_public_obj_polygons_weigh_as_in_mujoco(tmp_path, mesh):
    """Two of Trossen WXAI's collision meshes (Menagerie), whose OBJ faces have up to 9
    corners: mass, centre of mass and principal moments are MuJoCo's to 1e-12 (cut as fans,
    their masses were 7e-4 and 8e-4 away). MuJoCo's principal axes are mjuu_eig3's, to ~1e-8."""
    folder = os.path.join(oracle.MJCF, "menagerie", "trossen_wxai", "assets", "meshes")
    xml = f"""<mujoco><compiler meshdir="{folder}"/><asset><mesh name="m" file="{mesh}"/>
      </asset><worldbody><body name="b"><joint axis="1 0.2 0.3"/>
      <geom type="mesh" mesh="m" density="1200"/></body></worldbody></mujoco>"""
    (tmp_path / "model.xml").write_text(xml)
    model = oracle.load_quiet(str(tmp_path / "model.xml"))
    m = oracle.mujoco_model(str(tmp_path / "model.xml"))
    _assert_body_inertia_is_mujocos(model, m, "b")

# ---- what is refused, and how ------------------------------------------------------------------

def load_error(tmp_path, xml, files=None):
    for name, data in (files or {}).items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(data)
    path = tmp_path / "model.xml"
    path.write_text(xml)
    with pytest.raises(urdf2dyn.URDFError) as e:
        urdf2dyn.load(str(path))
    return str(e.value)


BODY = '<worldbody><body name="b"><joint/><geom size="0.1"/></body></worldbody>'


@pytest.mark.parametrize("xml, files, words", [
    ('<mujoco><include file="a.xml"/></mujoco>', {"a.xml": '<mujoco><include file="a.xml"/></mujoco>'},
     ["already part of the model", "a.xml"]),
    ('<mujoco><include file="a.xml"/></mujoco>', {"a.xml": '<mujoco><include file="./b/../a.xml"/></mujoco>'},
     ["already part of the model"]),
    ('<mujoco><include file="missing.xml"/>' + BODY + '</mujoco>', {}, ["missing.xml", "model.xml:1:"]),
    ('<mujoco><include file="a.xml"/></mujoco>', {"a.xml": "<mujoco><worldbody><body>"},
     ["a.xml", "invalid XML"]),
    ('<mujoco><worldbody><body><geom class="nope" size="1"/></body></worldbody></mujoco>', {},
     ['class="nope"', "no <default"]),
    ('<mujoco><include file="a.xml"/></mujoco>',
     {"a.xml": '<mujoco><worldbody>\n<body><geom class="zz" size="1"/></body></worldbody></mujoco>'},
     ["a.xml, line 2", 'class="zz"']),
    ('<mujoco><worldbody><body childclass="x"/></worldbody></mujoco>', {}, ['childclass="x"']),
    ('<mujoco><worldbody><body><joint/><geom size="a"/></body></worldbody></mujoco>', {},
     ['size="a"', "not a number"]),
    ('<mujoco><worldbody><body quat="0 0 0 0"/></worldbody></mujoco>', {}, ["zero quaternion"]),
    ('<mujoco><worldbody><body><body><freejoint/></body></body></worldbody></mujoco>', {},
     ["free joint", "child of the world"]),
    ('<mujoco><worldbody><body><joint type="ball"/><joint/></body></worldbody></mujoco>', {},
     ["ball joint followed by a rotation"]),
    ('<mujoco><worldbody><body><wheel/></body></worldbody></mujoco>', {}, ["<wheel>"]),
    ('<mujoco><worldbody><body><replicate count="2"/></body></worldbody></mujoco>', {},
     ["<replicate>", "not read"]),
    ('<mujoco><asset><mesh name="m" file="none.stl"/></asset><worldbody><body name="arm">'
     '<joint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>', {},
     ["body 'arm'", "none.stl", "<inertial>"]),
    ('<mujoco><asset><mesh name="m" file="m.stl" inertia="convex"/></asset><worldbody>'
     '<body name="arm"><joint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>',
     {"m.stl": "solid ascii"}, ["convex", "<inertial>"]),
    ('<mujoco><asset><mesh name="m" file="m.stl"/></asset><worldbody>'
     '<body name="arm"><joint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>',
     {"m.stl": "solid ascii\nendsolid"}, ["binary STL"]),
    ('<mujoco><compiler autolimits="false"/><worldbody><body><joint range="0 1"/>'
     '<geom size="1"/></body></worldbody></mujoco>', {}, ["autolimits"]),
    ('<mujoco><worldbody><body><inertial pos="0 0 0" mass="1" diaginertia="1 1 3"/><joint/>'
     '</body></worldbody></mujoco>', {}, ["A + B >= C", "balanceinertia"]),
])
def test_bad_models_are_refused_by_name(tmp_path, xml, files, words):
    msg = load_error(tmp_path, xml, files)
    for w in words:
        assert w in msg, msg


def _long_named_refusals():
    """Refusals whose fix comes after a name, each with names of 200 characters: the XML and
    how the refusal ends."""
    from test_mjcf_refusals_parity import _DC, _cfg, _in_classes, _pid
    n = "n" * 200
    hinge = '<worldbody><body name="b"><joint name="j"/><geom size="0.1"/></body></worldbody>'
    pid_ext = '<extension><plugin plugin="mujoco.pid"/></extension>'
    return {
        "undeclared plugin": (f'<mujoco>{hinge}<actuator><plugin plugin="{n}" joint="j"/>'
                              '</actuator></mujoco>', "</extension>, or remove the <plugin>"),
        "unknown instance": (f'<mujoco>{pid_ext}{hinge}<actuator><plugin instance="{n}" '
                             'joint="j"/></actuator></mujoco>',
                             "give the name= of an <instance> inside <extension><plugin>"),
        "unregistered plugin": (f'<mujoco><extension><plugin plugin="{n}"/></extension>{hinge}'
                                '</mujoco>',
                                "remove the declaration and the elements that use it"),
        "idle instance": ('<mujoco><extension><plugin plugin="mujoco.pid"><instance '
                          f'name="{n}"/></plugin></extension>{hinge}</mujoco>',
                          '</actuator>, or remove it'),
        "cube texture without faces": (f'<mujoco><asset><texture name="{n}" type="cube"/>'
                                       f'</asset>{hinge}</mujoco>',
                                       'a builtin= such as "checker" with width= and height='),
        "controller without input": (f'<mujoco>{hinge}<actuator><dcmotor name="{n}" joint="j" '
                                     f'{_DC} controller="0 0 0 1"/></actuator></mujoco>',
                                     'give input= the setpoints it follows (e.g. input="pos vel"), '
                                     'or gains of 0'),
        "pid states beside a dcmotor": (
            _in_classes(_pid(_cfg("ki", "1"), f'class="c" name="{n}"'),
                        [("c", f"<dcmotor {_DC}/>")]),
            "use a class whose <dcmotor> settings keep 1 states, or one without"),
    }


@pytest.mark.parametrize("case", sorted(_long_named_refusals()))
def test_refusals_with_long_names_keep_their_fix(tmp_path, case):
    """With names of 200 characters these refusals ran past the 380 characters a message
    keeps and lost their end, the fix: the names are cut (an actuator's or texture's at 40)
    and the longest texts shortened instead."""
    xml, ending = _long_named_refusals()[case]
    said = load_error(tmp_path, xml)
    assert said.endswith(ending), said


def test_an_include_loop_of_a_long_file_name_keeps_its_explanation(tmp_path):
    """A file of a 200-character name including itself: the refusal ran past the 380
    characters a message keeps and lost what is wrong (an include loop), and the included
    file's path, cut at 120, its line. The path's end (the file's name) is kept instead."""
    name = "i" * 196 + ".xml"
    said = load_error(tmp_path, f'<mujoco><include file="{name}"/></mujoco>',
                      {name: f'<mujoco><include file="{name}"/></mujoco>'})
    assert f": ...{'i' * 83}.xml, line 1: <include file=" in said, said
    assert said.endswith("is already part of the model (MuJoCo includes a file once; an "
                         "include loop?)"), said


def test_floating_base_is_refused():
    with pytest.raises(urdf2dyn.URDFError, match="freejoint"):
        urdf2dyn.load("<mujoco>" + BODY + "</mujoco>", floating_base=True)


def test_deep_nesting_loads(tmp_path):
    """A chain of 5000 nested bodies: explicit stacks, no recursion."""
    n = 5000
    xml = ("<mujoco><worldbody>" + '<body pos="0 0 0.1"><joint/><geom size="0.01"/>' * n
           + "</body>" * n + "</worldbody></mujoco>")
    model = urdf2dyn.load(xml)
    assert model.nv == n
    assert np.isfinite(model.inverse_dynamics(np.zeros(n), 0.0, 0.0)).all()


def test_huge_include_is_refused(tmp_path):
    big = tmp_path / "big.xml"
    with open(big, "wb") as f:                   # sparse: no disk is used
        f.truncate((1 << 28) + 1)
    (tmp_path / "model.xml").write_text('<mujoco><include file="big.xml"/></mujoco>')
    with pytest.raises(urdf2dyn.URDFError, match="larger than 256 MB"):
        urdf2dyn.load(str(tmp_path / "model.xml"))


ORIENTATIONS = {"quat": "0.9 0.1 0.3 0.2", "axisangle": "1 2 3 40",
                "xyaxes": "1 0.2 0 -0.1 1 0.3", "zaxis": "0.2 0.3 1", "euler": "10 20 30"}


@pytest.mark.parametrize("in_class", ["", *ORIENTATIONS])
def test_element_orientation_replaces_its_class_orientation(tmp_path, in_class):
    """quat, axisangle, xyaxes, zaxis and euler are one attribute in five forms: an element
    that gives any of them replaces the orientation its class gives in any form (a geom's
    quat="1 0 0 0" under a class's euler was read as the class's euler). Each form on a geom
    and on a body (whose childclass sets the geom form in_class) against the class's form,
    compared with MuJoCo."""
    cls = f' {in_class}="{ORIENTATIONS[in_class]}"' if in_class else ""
    trees = []
    for form in ["", "quat=\"1 0 0 0\"", *(f'{k}="{v}"' for k, v in ORIENTATIONS.items())]:
        trees.append(f"""<body pos="0 0.2 0" {form} childclass="c">
            <joint type="hinge" axis="0 1 0"/>
            <geom type="box" size="0.1 0.2 0.05" pos="0.1 0 0" {form}/>
            <body pos="0.3 0 0" {form}><joint type="hinge" axis="1 0 0"/>
              <geom type="capsule" size="0.05 0.2" pos="0 0.1 0" {form}/>
              <geom type="box" size="0.1 0.2 0.05" pos="0 0.1 0"/></body></body>""")
    xml = f"""<mujoco><compiler angle="degree" eulerseq="zyx"/>
        <default><default class="c"><geom{cls}/></default></default>
        <worldbody>{"".join(trees)}</worldbody></mujoco>"""
    check_doc(tmp_path, xml)





@pytest.mark.parametrize("element", [
    '<geom size="0.1" quat="1 0 0 0" euler="0 0 10"/>',
    '<geom type="capsule" fromto="0 0 0 0 0 1" size="0.1" zaxis="0 0 1" axisangle="0 0 1 5"/>',
    '<geom size="0.1" class="c"/>',
    '<geom size="0.1"/>',
    '<frame quat="1 0 0 0" xyaxes="1 0 0 0 1 0"><geom size="0.1"/></frame>',
    '<geom size="0.1"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1" quat="1 0 0 0" '
    'euler="0 0 1"/>',
    '<geom size="0.1"/><inertial pos="0 0 0" mass="1" fullinertia="1 1 1 0 0 0" '
    'quat="0 1 0 0"/>',
    '<geom size="0.1"/><site quat="1 0 0 0" zaxis="0 0 1"/>',
    '<geom size="0.1"/><camera xyaxes="1 0 0 0 1 0" zaxis="0 0 1"/>',
    '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><geom size="0.1" quat="1 0 0 0" '
    'euler="0 0 1"/>'])
def test_two_orientations_on_one_element_are_refused(element):
    """At most one of quat, axisangle, xyaxes, zaxis, euler (and fullinertia on an
    <inertial>) on one element or default, as MuJoCo refuses more ("multiple orientation
    specifiers are not allowed"): on the element, on its body, in its class, in an unused
    class, on a geom whose mass is not read (they were read, the alternative winning over
    quat, or not looked at)."""
    plain = element == '<geom size="0.1"/>'
    body = (f'<body euler="0 0 1" quat="1 0 0 0"><joint/>{element}</body>' if plain
            else f"<body><joint/>{element}</body>")
    two = ' euler="0 0 1"' if "class" in element else ""
    unused = '<default class="u"><geom zaxis="0 0 1" euler="0 0 1"/></default>' * plain
    xml = (f'<mujoco><default><default class="c"><geom quat="1 0 0 0"{two}/></default>'
           f"{unused}</default><worldbody>{body}</worldbody></mujoco>")
    with pytest.raises(ValueError, match="multiple orientation|at most one"):
        oracle.mujoco_model(xml=xml)
    with pytest.raises(urdf2dyn.URDFError, match="at most one|cannot both"):
        oracle.load_quiet(xml)
    zero = xml.replace('quat="1 0 0 0" euler="0 0 1"', 'quat="0 0 0 0"')
    if zero != xml:     # a zero quat, on an element whose mass is read or not
        with pytest.raises(ValueError, match="zero quaternion"):
            oracle.mujoco_model(xml=zero)
        with pytest.raises(urdf2dyn.URDFError, match="zero quaternion"):
            oracle.load_quiet(zero)
    if plain:   # the body alone, then the unused class alone
        for xml in (xml.replace(unused, ""), xml.replace(' euler="0 0 1" quat="1 0 0 0"', "")):
            with pytest.raises(ValueError, match="multiple orientation"):
                oracle.mujoco_model(xml=xml)
            with pytest.raises(urdf2dyn.URDFError, match="at most one"):
                oracle.load_quiet(xml)





@pytest.mark.parametrize("parent, cls, element", [
    ('euler="0 0 30"', "", 'fromto="0 0 0 0.3 0.1 0.2"'),
    ("", 'quat="0 1 0 0"', 'fromto="0 0 0 0.3 0.1 0.2" pos="0 0 0"'),
    ("", 'fromto="0 0 0 0.3 0.1 0.2"', 'xyaxes="0 1 0 1 0 0"'),
    ('fromto="0 0 0 0 0 1"', 'pos="0 0 0"', 'euler="1 2 3"'),
    ("", 'fromto="0 0 0 0.3 0.1 0.2"', 'pos="0.1 0 0"'),
    ("", 'pos="0.1 0 0"', 'fromto="0 0 0 0.3 0.1 0.2"')])
def test_fromto_against_pos_and_orientation_from_classes(tmp_path, parent, cls, element):
    """A geom's fromto, on it or from its class, places and turns it whatever orientation
    the element or a class gives; a nonzero pos with it, from wherever, is refused, as in
    MuJoCo."""
    xml = f"""<mujoco><default><default class="p"><geom {parent}/><default class="c">
        <geom {cls}/></default></default></default><worldbody><body><joint type="ball"/>
        <geom type="box" size="0.1 0.2 0.3" class="c" {element}/>
        <geom type="capsule" size="0.1 0.2" class="c" {element}/></body></worldbody></mujoco>"""
    if 'pos="0.1' in xml:
        with pytest.raises(ValueError, match="both pos and fromto"):
            oracle.mujoco_model(xml=xml)
        with pytest.raises(urdf2dyn.URDFError, match="both pos and fromto"):
            oracle.load_quiet(xml)
    else:
        check_doc(tmp_path, xml)





@pytest.mark.parametrize("geom", ['<geom size="0.1" zaxis="0 0 0"/>',
                                  '<geom size="0.1" xyaxes="1 0 0 1 0 0"/>',
                                  '<geom size="0.1" class="z"/>',
                                  '<geom type="capsule" fromto="0 0 0 0 0 1" size="0.1" '
                                  'axisangle="0 0 0 1"/>',
                                  '<geom type="box" fromto="0 0 0 0 0 1" size="0.1" class="z"/>'])
@pytest.mark.parametrize("where", ["world", "body with an inertial", "body"])
def test_bad_geom_orientation_refused_unless_fromto_replaces_it(tmp_path, geom, where):
    """MuJoCo resolves every geom's orientation, its mass used or not (in the world body, or
    beside an <inertial>), and refuses a degenerate one; fromto replaces it unresolved, so a
    fromto geom with one compiles (urdf2dyn refused it, and loaded the others)."""
    inner = {"world": geom, "body with an inertial":
             f'<body><joint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>{geom}</body>',
             "body": f"<body><joint/>{geom}</body>"}[where]
    xml = ('<mujoco><default><default class="z"><geom zaxis="0 0 0"/></default></default>'
           f'<worldbody>{inner}<body><joint/><geom size="1"/></body></worldbody></mujoco>')
    if "fromto" in geom:
        check_doc(tmp_path, xml)
    else:
        with pytest.raises(ValueError, match="too small"):
            oracle.mujoco_model(xml=xml)
        with pytest.raises(urdf2dyn.URDFError, match="too small"):
            oracle.load_quiet(xml)


# ---- passive forces, drawn --------------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

_COEF = st.one_of(st.just(0.0), st.floats(0.01, 50, allow_nan=False)).map(lambda x: f"{x:.4g}")
_HIGHER = st.one_of(st.just(0.0), st.floats(-20, 20, allow_nan=False)).map(lambda x: f"{x:.4g}")
_JOINT = st.sampled_from(["hinge", "slide", "ball", "free"])
_QUAT = st.tuples(*[st.floats(-1, 1)] * 4).filter(lambda x: sum(c * c for c in x) > 0.1) \
    .map(lambda x: " ".join(f"{c:.3g}" for c in x))


@st.composite
def _terms(draw, name):
    """A stiffness or damping of one to three terms: linear, then MuJoCo 4's polynomial."""
    terms = [draw(_COEF)] + draw(st.lists(_HIGHER, max_size=2))
    return f' {name}="{" ".join(terms)}"'


@st.composite
def _sprung_chain(draw):
    """A chain of posed bodies, each moved by one joint (a free joint first, if drawn) with
    damping and a spring of one to three terms, springref (which MuJoCo ignores on a ball),
    a springdamper on some, armature on some; the compiler's angle unit drawn."""
    degree = draw(st.booleans())
    types = draw(st.lists(_JOINT.filter(lambda t: t != "free"), min_size=1, max_size=4))
    if draw(st.booleans()):
        types = ["free"] + types
    body = ""
    for k, t in reversed(list(enumerate(types))):
        attrs = (f'type="{t}"{draw(_terms("damping"))}{draw(_terms("stiffness"))} '
                 f'springref="{draw(st.floats(-40, 40)):.4g}"')
        if t in ("hinge", "slide"):
            axis = draw(st.sampled_from(["1 0 0", "0 1 0", "0 0 1", "0.3 -0.5 1"]))
            attrs += f' axis="{axis}"'
        if draw(st.integers(0, 3)) == 0:
            attrs += (f' springdamper="{draw(st.floats(0.05, 2)):.3g} '
                      f'{draw(st.floats(0.1, 3)):.3g}"')
        if draw(st.booleans()):
            attrs += f' armature="{draw(st.floats(0.01, 1)):.3g}"'
        body = (f'<body name="b{k}" pos="0 0 -0.2" quat="{draw(_QUAT)}"><joint name="j{k}" '
                f'{attrs}/><geom type="capsule" size="0.04" fromto="0 0 0 0.1 0.05 -0.15"/>'
                f'{body}</body>')
    angle = "degree" if degree else "radian"
    return f'<mujoco><compiler angle="{angle}"/><worldbody>{body}</worldbody></mujoco>'


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(xml=_sprung_chain(), seed=st.integers(0, 2**16))
def test_drawn_springs_and_damping_are_mujocos(xml, seed):
    """Every drawn chain is valid MJCF: passive_forces equals MuJoCo's qfrc_spring +
    qfrc_damper at three random states, quaternions unit or not (springref in the
    compiler's angle unit, free joints' damping across the two tools' velocity frames,
    springdamper sized from the inertia with every armature), and inverse_dynamics minus it
    mj_inverse; to 1e-10 of the largest force (a springdamper is sized by M^-1, as exact
    as M's conditioning allows)."""
    assert_passive_is_mujocos(xml, seed=seed, n=4, tol=1e-10)


def test_an_included_file_that_is_not_utf8_is_refused_by_name(tmp_path):
    """An included MJCF file with a byte that is not UTF-8: refused naming the file and the
    byte's offset, never a decoding error."""
    (tmp_path / "top.xml").write_text('<mujoco model="a">\n  <include file="part.xml"/>\n'
                                      '</mujoco>\n')
    (tmp_path / "part.xml").write_bytes(b'<mujoco>\n<worldbody><body name="b\xff"><joint '
                                        b'name="j" type="hinge"/><geom size="0.1"/></body>'
                                        b'</worldbody>\n</mujoco>\n')
    with pytest.raises(urdf2dyn.URDFError, match=r"part.xml'?: invalid XML: byte 0xFF at "
                                                 r"offset 33 is not UTF-8"):
        urdf2dyn.load(tmp_path / "top.xml")


@pytest.mark.parametrize("prefix", ["", "a", "ab"])
def test_a_message_cut_inside_a_character_is_still_the_message(prefix):
    """The core cuts a long name it quotes at a byte count, which may fall inside a
    character (a name of euro signs, three bytes each): the message reached Python as a
    UnicodeDecodeError instead of the URDFError. The cut character is now replaced."""
    name = prefix + "\u20ac" * 71
    with pytest.raises(urdf2dyn.URDFError, match=r"<joint type=\"bogus\">: unknown joint"):
        urdf2dyn.load(f'<robot name="r"><link name="a"/><link name="b"/><joint name="{name}" '
                      'type="bogus"><parent link="a"/><child link="b"/></joint></robot>')


@pytest.mark.parametrize("prefix", ["", "a", "ab"])
def test_a_finding_cut_inside_a_character_is_still_the_warning(prefix):
    """The same cut in a load warning's text (a link of euro signs whose inertia breaks the
    triangle inequality): the warning is given, the cut character replaced."""
    name = prefix + "\u20ac" * 300
    text = (f'<robot name="r"><link name="a"/><link name="{name}"><inertial><mass value="1"/>'
            '<inertia ixx="1" iyy="1" izz="5" ixy="0" ixz="0" iyz="0"/></inertial></link>'
            f'<joint name="j" type="revolute"><parent link="a"/><child link="{name}"/><axis '
            'xyz="0 0 1"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint></robot>')
    with pytest.warns(urdf2dyn.URDFWarning, match="principal moments 1, 1, 5"):
        urdf2dyn.load(text)


# ---- MuJoCo's validity rules: refused exactly where MuJoCo refuses -------------------------

def mujoco_error(xml):
    """MuJoCo's compiler message for xml, or None when it compiles it."""
    try:
        oracle.mujoco_model(xml=xml)
    except ValueError as e:
        return str(e)
    return None


def same_verdict_as_mujoco(tmp_path, xml, words):
    """urdf2dyn refuses xml exactly when MuJoCo does, with a message holding every one of
    words; where MuJoCo compiles it, the dynamics and moving mass are MuJoCo's. Returns
    (MuJoCo's message, urdf2dyn's), None where it loads."""
    expected = mujoco_error(xml)
    if expected is None:
        check_doc(tmp_path, xml, n=3)
        return None
    with pytest.raises(urdf2dyn.URDFError) as e:
        oracle.load_quiet(xml)
    for w in words:
        assert w in str(e.value), (str(e.value), expected)
    return expected, str(e.value)


_MOVING = '<body name="m"><joint name="h"/><geom size="0.1"/></body>'
_BAD_ORIENTATIONS = ['axisangle="0 0 0 1"', 'xyaxes="1 0 0 2 0 0"', 'xyaxes="0 0 0 0 1 0"',
                     'zaxis="0 0 0"', 'zaxis="1e-8 0 0"']


@pytest.mark.parametrize("tag", ["site", "camera"])
@pytest.mark.parametrize("orient", _BAD_ORIENTATIONS + ['quat="1e-8 0 0 0"', 'euler="0 0 0"'])
@pytest.mark.parametrize("where", ["body", "world", "class", "childclass", "frame",
                                   "unused class"])
def test_degenerate_site_and_camera_orientation_refused_as_mujoco(tmp_path, tag, orient,
                                                                    where):
    """A site's or camera's orientation that MuJoCo's compiler cannot resolve (an axis of
    zero length, x and y axes along one line) is refused, on the element or from its class,
    as MuJoCo refuses it; a class that no element uses is not resolved (MuJoCo compiles it).
    urdf2dyn loaded every one of them."""
    attr = orient.split("=")[0]
    element = {"body": f'<{tag} name="s" {orient}/>', "world": f'<{tag} name="s" {orient}/>',
               "class": f'<{tag} name="s" class="d"/>', "childclass": f'<{tag} name="s"/>',
               "frame": f'<frame><{tag} name="s" {orient}/></frame>',
               "unused class": ""}[where]
    cc = ' childclass="d"' if where == "childclass" else ""
    inner = f'<body name="b"{cc}><joint/><geom size="0.1"/>{element}</body>'
    if where == "world":
        inner = element + _MOVING
    xml = (f'<mujoco><default><default class="d"><{tag} {orient}/></default></default>'
           f'<worldbody>{inner}</worldbody></mujoco>')
    verdict = same_verdict_as_mujoco(tmp_path, xml, [tag, attr, "too small", "give "])
    assert (verdict is None) == (where == "unused class" or orient in (
        'quat="1e-8 0 0 0"', 'euler="0 0 0"'))
    if verdict is not None and where != "class":
        assert f"{tag} 's'" in verdict[1] and "line 1" in verdict[1], verdict


@pytest.mark.parametrize("compiler, body, refused", [
    ("", '<body name="a"><joint/></body>', True),
    ("", '<body name="a"><freejoint/></body>', True),
    ("", '<body name="a"><joint/><body name="c"><joint/><geom size="0.1"/></body></body>', True),
    ("", '<body name="a"><joint/><body name="c"><geom size="0.1"/></body></body>', False),
    ("", '<body name="a"><joint/><body><body><geom size="0.1"/></body></body></body>', False),
    ("", '<body name="a"><joint/><body><joint/><body><geom size="0.1"/></body></body></body>',
     True),
    ("", '<body name="a"><joint/><inertial pos="0 0 0" mass="1" diaginertia="0 1 1"/></body>',
     True),
    ("", '<body name="a"><joint/><inertial pos="0 0 0" mass="1" diaginertia="1e-16 1 1"/>'
     '</body>', True),
    ("", '<body name="a"><joint/><inertial pos="0 0 0.1" mass="1" diaginertia="1e-15 1 1" '
     'euler="0.3 0.2 0.1"/></body>', False),
    ("", '<body name="a"><joint/><inertial pos="0 0 0" mass="1e-16" diaginertia="1 1 1"/>'
     '</body>', True),
    ("", '<body name="a"><joint/><inertial pos="0 0 0" mass="0" diaginertia="1 1 1"/></body>',
     True),
    ('boundmass="1e-3"', '<body name="a"><joint/><inertial pos="0 0 0" mass="1e-16" '
     'diaginertia="1 1 1"/></body>', False),
    ('boundinertia="1e-3"', '<body name="a"><joint/><inertial pos="0 0 0" mass="1" '
     'diaginertia="0 1 1"/></body>', False),
    ('balanceinertia="true"', '<body name="a"><joint/><inertial pos="0 0 0" mass="1" '
     'diaginertia="0 0 0"/></body>', True),
    ("", '<body name="a"><joint/><geom size="0.1" mass="0"/></body>', True),
    ("", '<body name="a"><joint/><geom size="0.1" density="0"/></body>', True),
    ("", '<body name="a"><joint/><geom size="1e-6"/></body>', True),
    ('inertiagrouprange="0 0"', '<body name="a"><joint/><geom size="0.1" group="1"/></body>',
     True),
    ('inertiafromgeom="false"', '<body name="a"><joint/><geom size="0.1"/></body>', True),
    ("", '<body name="a" mocap="true"/><body name="w"><body/></body>', False),
])
def test_moving_body_mass_and_inertia_below_mjminval_refused_as_mujoco(tmp_path, compiler,
                                                                         body, refused):
    """MuJoCo refuses a body with joints whose mass or a principal moment of inertia is below
    mjMINVAL (1e-15), after boundmass, boundinertia and balanceinertia, unless one of the
    bodies welded to it (jointless children, their jointless children...) has both. urdf2dyn
    loaded them all."""
    xml = (f"<mujoco><compiler {compiler}/><worldbody>{body}"
           f"{_MOVING}</worldbody></mujoco>")
    verdict = same_verdict_as_mujoco(tmp_path, xml, ["body 'a'", "line 1", "1e-15",
                                                     "<inertial>"])
    assert (verdict is not None) == refused, verdict


@pytest.mark.parametrize("joint, refused, words", [
    ('type="ball" range="-0.1 1"', True, ["range", "ball", "0"]),
    ('type="ball" range="0.1 1"', True, ["range", "ball"]),
    ('type="ball" range="-1 1" limited="true"', True, ["range", "ball"]),
    ('type="ball" range="-2 -1"', True, ["range", "ball"]),
    ('type="ball" range="0 1"', False, []),
    ('type="ball" range="0 -1"', False, []),
    ('type="ball" range="-1 -2"', False, []),
    ('type="ball" range="-1 1" limited="false"', False, []),
    ('type="ball" class="r"', True, ["range", "ball"]),
    ('range="1 0"', False, []),
    ('range="1 1"', False, []),
    ('type="slide" range="1 0"', False, []),
    ('range="1 0" limited="true"', True, ["range[0]", "range[1]"]),
    ('type="free" range="-1 1"', False, []),
    ('springdamper="-1 1"', True, ["springdamper", "positive"]),
    ('springdamper="0 1"', True, ["springdamper", "positive"]),
    ('springdamper="0.2 1"', False, []),
])
def test_joint_range_and_springdamper_rules_are_mujocos(tmp_path, joint, refused, words):
    """A limited ball joint's range is "0 angle" (MuJoCo refuses another range[0]); a range
    with limited="auto" limits the joint only when range[0] < range[1] (MuJoCo compiles
    range="1 0" as unlimited; urdf2dyn refused it), a springdamper's two values are positive
    (urdf2dyn loaded "-1 1")."""
    xml = ('<mujoco><compiler autolimits="true"/><default><default class="r">'
           '<joint range="-1 1"/></default></default><worldbody>'
           f'<body name="b"><joint name="j" {joint}/><geom size="0.1"/></body>'
           f"{_MOVING}</worldbody></mujoco>")
    verdict = same_verdict_as_mujoco(tmp_path, xml, ["joint 'j'", "line 1", *words])
    assert (verdict is not None) == refused, verdict
    if not refused:
        model = oracle.load_quiet(xml)
        m = oracle.mujoco_model(xml=xml)
        if model.joint("j").type != "ball" and model.joint("j").type != "floating":
            assert (model.joint("j").limit is not None) == bool(m.jnt_limited[0]), \
                (model.joint("j").limit, m.jnt_limited[0])


@pytest.mark.parametrize("site, words", [
    ('size="-1"', ["size 0 is -1"]),
    ('size="0.1 -2" type="capsule"', ["size 1 is -2"]),
    ('size="0.1 0.1 0" type="ellipsoid"', ["size 2 is 0"]),
    ('size="0.1 0 0.2" type="box"', ["size 1 is 0"]),
    ('class="neg"', ["size 0 is -0.1"]),
    ('size="1 2 3 4"', ["expected 1 to 3 numbers"]),
    ('type="plane"', ["cannot be a plane"]),
    ('type="hfield"', ["height field"]),
    ('size="0.1" type="capsule"', None),
    ('size="0.1 0.1 0" type="capsule"', None),
    ('size="0.1 -3" type="sphere"', None),
    ('size="0.1 -1" type="capsule" fromto="0 0 0 0 0 1"', None),
    ('size="0.1 -1 -1" type="box" fromto="0 0 0 0 0 1"', None),
    ('class="neg" size="0.2"', None),
    ('type="box"', None),
])
@pytest.mark.parametrize("where", ["body", "world"])
def test_site_size_and_type_are_checked_as_mujoco_checks_them(tmp_path, site, words, where):
    """MuJoCo refuses a site whose type is a plane or a height field, or whose sizes that
    its type uses (with its class's and the default 0.005 each) are not positive (only the
    radius with fromto), and a size of more than three numbers: urdf2dyn refuses the same,
    naming the site's body and line (it loaded them all); the others load."""
    site = f"<site {site}/>"
    xml = ('<mujoco><default><default class="neg"><site size="-0.1"/></default></default>'
           f'<worldbody>{site if where == "world" else ""}<body name="a"><joint/>'
           f'<geom size="0.1"/>{site if where == "body" else ""}</body></worldbody></mujoco>')
    verdict = same_verdict_as_mujoco(tmp_path, xml, ["line 1"] + (words or []))
    assert (verdict is not None) == (words is not None), verdict


@pytest.mark.parametrize("site, refused", [
    ('type="capsule" size="0.1" fromto="0 0 0 0 0 1" zaxis="0 0 0"', False),
    ('type="capsule" size="0.1" fromto="0 0 0 0 0 1" class="d"', False),
    ('type="capsule" size="0.1" fromto="0 0 0 0 0 0"', True),
    ('size="0.1" fromto="0 0 0 0 0 1"', True),
    ('type="box" size="0.1" fromto="0 0 0 0 0 1" pos="0 0.1 0"', True),
])
def test_site_fromto_replaces_its_orientation_as_in_mujoco(tmp_path, site, refused):
    """A site's fromto replaces its orientation unresolved, as a geom's does (a degenerate
    one passes); a fromto MuJoCo refuses (coincident points, a sphere, with a pos) is
    refused."""
    xml = ('<mujoco><default><default class="d"><site zaxis="0 0 0"/></default></default>'
           f'<worldbody><body name="b"><joint/><geom size="0.1"/><site name="s" {site}/>'
           "</body></worldbody></mujoco>")
    verdict = same_verdict_as_mujoco(tmp_path, xml, ["site", "fromto", "line 1"])
    assert (verdict is not None) == refused, verdict


_TINY = {
    "hinge body": '<body name="a" pos="0 0 1" quat="{q}"><joint axis="1 0 0" pos="0 0 0.1"/>'
                  '<geom type="box" size="0.1 0.2 0.3" pos="0.1 0 0"/></body>',
    "slide body": '<body name="a" quat="{q}"><joint type="slide" axis="1 0 0"/>'
                  '<geom type="box" size="0.1 0.2 0.3" pos="0.1 0 0"/></body>',
    "ball body": '<body name="a" quat="{q}"><joint type="ball"/>'
                 '<geom type="box" size="0.1 0.2 0.3" pos="0.1 0 0"/></body>',
    "free body": '<body name="a" pos="0 0 1" quat="{q}"><freejoint/>'
                 '<geom type="box" size="0.1 0.2 0.3" pos="0.1 0 0"/></body>',
    "welded body": '<body pos="0 0 1"><joint axis="1 0 0"/><geom size="0.1"/>'
                   '<body name="a" pos="0.1 0 0.2" quat="{q}"><geom type="box" '
                   'size="0.1 0.2 0.3" pos="0.1 0 0"/><body pos="0 0.1 0"><joint axis="0 1 0"/>'
                   '<geom size="0.1" pos="0 0 0.2"/></body></body></body>',
    "welded top body": '<body name="a" pos="0 0 1" quat="{q}"><geom size="0.1"/>'
                       '<body pos="0.1 0 0.2"><joint axis="0 1 0"/>'
                       '<geom type="box" size="0.1 0.2 0.3" pos="0.1 0 0"/></body></body>',
    "frame around a body": '<body pos="0 0 1"><joint axis="1 0 0"/><geom size="0.1"/>'
                           '<frame quat="{q}"><body name="a" pos="0.1 0 0.2"><joint/>'
                           '<geom size="0.1"/></body></frame></body>',
    "lone geom": '<body><joint axis="1 0 0" pos="0 0 0.1"/><geom type="box" '
                 'size="0.1 0.2 0.3" pos="0.1 0 0" quat="{q}"/></body>',
    "geom": '<body><joint axis="1 0 0"/><geom type="box" size="0.1 0.2 0.3" pos="0.1 0 0" '
            'quat="{q}"/><geom size="0.1"/></body>',
    "inertial": '<body><joint axis="1 0 0"/><inertial pos="0 0 0.2" mass="1" '
                'diaginertia="0.1 0.2 0.25" quat="{q}"/></body>',
    "frame around a geom": '<body><joint axis="1 0 0"/><frame quat="{q}"><geom type="box" '
                           'size="0.1 0.2 0.3" pos="0.1 0 0"/></frame></body>',
}


# (the oracle's own warning: MuJoCo's compiler on a frame's tiny quaternion)
@pytest.mark.filterwarnings("ignore:Inertia matrix is too close to singular:UserWarning")
@pytest.mark.parametrize("q", ["0 1e-8 0 0", "1e-8 0 0 0", "0 1e-20 0 0", "0 3e-7 0 1e-7"])
@pytest.mark.parametrize("where", sorted(_TINY))
def test_quaternion_of_norm_below_1e7_is_mujocos_or_refused(tmp_path, q, where):
    """MuJoCo's compiler normalises a quaternion from norm 1e-7 up and keeps a smaller
    non-zero one as written; its kinematics normalises a body's orientation (to the identity
    below 1e-15) but turns the body's hinge, slide and ball axes by the quaternion as written.
    Where that is one consistent model (a geom's, an inertial's or a frame's quaternion, a
    welded or free body's) urdf2dyn's dynamics are MuJoCo's (a lone geom's inertia is
    MuJoCo's copy of it; a welded body is turned as MuJoCo turns it: urdf2dyn refused the
    lone geom and loaded the bodies unturned); where it is not (a body that such joints
    move, a body under another that MuJoCo turns to the world's orientation), MuJoCo compiles
    it and urdf2dyn refuses it, naming the body and the norm."""
    xml = f"<mujoco><worldbody>{_TINY[where].format(q=q)}</worldbody></mujoco>"
    norm = np.linalg.norm([float(x) for x in q.split()])
    inconsistent = norm < 1e-7 and (where in ("hinge body", "slide body", "ball body",
                                              "frame around a body")
                                    or norm < 1e-15 and where == "welded body")
    assert mujoco_error(xml) is None
    if inconsistent:
        with pytest.raises(urdf2dyn.URDFError) as e:
            oracle.load_quiet(xml)
        for w in ("body 'a'", "line 1", f"{norm:g}", "unit quaternion"):
            assert w in str(e.value), str(e.value)
    else:
        check_doc(tmp_path, xml, n=3)


@pytest.mark.parametrize("inertia, refused", [
    ('diaginertia="1 1 2.0000000000000004"', True),
    ('diaginertia="1 1 2.000000000001" euler="0.3 0.2 0.1"', True),
    ('diaginertia="1 1 2"', False),
    ('diaginertia="1 1 2" euler="0.3 0.2 0.1"', False),
    ('diaginertia="0.5 1 -0.0000000000001"', True),
])
def test_triangle_inequality_and_sign_of_a_given_inertia_exactly_as_mujoco(tmp_path, inertia,
                                                                           refused):
    """A diagonal inertia is checked as MuJoCo checks it, without a tolerance: A + B = C
    loads, A + B a rounding error below C is refused (urdf2dyn allowed 1e-12 of the trace)."""
    xml = (f'<mujoco><worldbody><body name="a"><joint/><inertial pos="0 0 0" mass="1" '
           f"{inertia}/></body></worldbody></mujoco>")
    verdict = same_verdict_as_mujoco(tmp_path, xml, ["body 'a'", "line 1"])
    assert (verdict is not None) == refused, verdict


# ---- the inertial frame MuJoCo takes as the body's ------------------------------------------

SAME_BODY, SAME_AXES, SAME_NONE = 1, 3, 0    # mjSAMEFRAME_BODY, _BODYROT, _NONE

_DIAG = 'mass="2" diaginertia="0.1 0.2 0.25"'


@pytest.mark.parametrize("content, sameframe", [
    (f'<inertial pos="3e-7 -2e-7 5e-7" {_DIAG}/>', SAME_BODY),
    (f'<inertial pos="3e-7 0 0" quat="1 4e-7 0 -3e-7" {_DIAG}/>', SAME_BODY),
    (f'<inertial pos="-2e-7 0 0" quat="-1 0 2e-7 0" {_DIAG}/>', SAME_BODY),
    (f'<inertial pos="0 0 0.5" quat="1 3e-7 0 0" {_DIAG}/>', SAME_AXES),
    (f'<inertial pos="1.1e-6 0 0" quat="1 3e-7 0 0" {_DIAG}/>', SAME_AXES),
    (f'<inertial pos="0 0 0" quat="1 1.5e-6 0 0" {_DIAG}/>', SAME_NONE),
    ('<inertial pos="4e-7 0 0" mass="2" fullinertia="0.3 0.25 0.2 2e-9 -1e-9 3e-9"/>', SAME_BODY),
    ('<inertial pos="4e-7 0 0" mass="2" fullinertia="0.2 0.25 0.3 2e-9 -1e-9 3e-9"/>', SAME_NONE),
    ('<geom type="capsule" size="0.05 0.2" pos="0 4e-7 0" quat="1 0 5e-7 0"/>', SAME_BODY),
    ('<geom type="box" size="0.05 0.1 0.2" pos="3e-7 0 0"/>'
     '<geom type="sphere" size="0.05" pos="3e-7 0 -1e-7"/>', SAME_BODY),
])
def test_inertial_frame_within_1e6_of_the_body_frame_is_it_as_in_mujoco(content, sameframe):
    """MuJoCo takes an inertial frame whose quaternion is within 1e-6 of +-identity (every
    coordinate) as the body's axes, and then an offset within 1e-6 as none (body_sameframe:
    its quaternion as it finds the principal axes, for a full inertia or several geoms);
    urdf2dyn kept the small offset and rotation: 1e-9 to 1e-6 of MuJoCo's torques and mass
    matrix. Just above either bound nothing is snapped, as in MuJoCo."""
    xml = ('<mujoco><worldbody><body pos="0.1 0 0.3"><joint axis="0 1 0"/>'
           '<geom type="capsule" size="0.05 0.2"/><body name="b" pos="0.4 0 0">'
           '<joint axis="1 0 0"/><joint type="slide" axis="0 0 1"/>'
           f"{content}</body></body></worldbody></mujoco>")
    m = oracle.mujoco_model(xml=xml)
    assert m.body_sameframe[m.body("b").id] == sameframe
    e_tau, e_M = oracle.compare(oracle.load_quiet(xml), m, n=5)
    assert e_tau < 1e-12 and e_M < 1e-12, (e_tau, e_M)


@pytest.mark.parametrize("gravity, refused", [("0 0 -1e200", True), ("1e154 1e154 0", True),
                                              ("1e154 0 -9.81", False)])
def test_option_gravity_whose_length_overflows_is_refused_naming_the_element(tmp_path,
                                                                             gravity, refused):
    """<option gravity="0 0 -1e200"> was read, and its length (the direction up, a body
    weight, OpenSim's gravity when exported) overflowed downstream in words naming no file.
    No physical gravity is that long: refused naming the file, line and element; one whose
    length is finite is read as MuJoCo reads it."""
    import mujoco
    path = tmp_path / "g.xml"
    path.write_text(f'<mujoco>\n<option gravity="{gravity}"/>\n<worldbody><body><joint/>'
                    '<geom size="0.1" mass="1"/></body></worldbody></mujoco>\n')
    if refused:
        with pytest.raises(urdf2dyn.URDFError, match=r'g\.xml:2: <option gravity="[^"]+">: '
                                                      r"its length overflows"):
            urdf2dyn.load(path)
        return
    expected = mujoco.MjModel.from_xml_path(str(path)).opt.gravity.tolist()
    assert urdf2dyn.load(path).gravity.tolist() == expected
