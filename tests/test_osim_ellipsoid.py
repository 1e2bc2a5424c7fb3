"""OpenSim's ScapulothoracicJoint and EllipsoidJoint (Simbody's Ellipsoid mobilizer), read as
urdf2dyn's ellipsoid joint, against OpenSim 4.6.

Models: the two of OpenSim's own tests with a ScapulothoracicJoint
(tests/data/opensim_core/README.md) and a small EllipsoidJoint model written here by OpenSim.
Oracles: OpenSim's body placements, mass matrix and InverseDynamicsSolver. OpenSim's speeds
for the three ellipsoid coordinates are the angular velocity w = E(q) qd in the mobilizer's
frame (Simbody's RigidBodyNodeSpec_Ellipsoid.h), urdf2dyn's the angles' rates qd; so OpenSim
is given u = E qd and du/dt = E qdd + dE/dt qd, and its generalized forces and mass matrix
are compared through the same map: tau = E^T tau_OpenSim, M = E^T M_OpenSim E (E is the
identity on every other coordinate). Then the joint's own identities: finite differences of
the placements against the Jacobian, ABA against RNEA, the power balance, the SIMD lanes.
"""
from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import urdf2dyn

from osim_oracle import Oracle, opensim_scaled
from test_osim import assert_power_balance, assert_simd_paths_agree

DATA = os.path.join(os.path.dirname(__file__), "data", "opensim_core")
THORACOSCAPULAR = os.path.join(DATA, "ThoracoscapularShoulderModel.osim")
ABDBONEPIN = os.path.join(DATA, "subject1_abdbonepin.osim")
ANGLES = ("scapula_abduction", "scapula_elevation", "scapula_upward_rot")


def _load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path)


def _rate_matrix(q):
    """E(q): body-fixed X-Y-Z angles' rates -> angular velocity in the parent frame."""
    c0, s0, c1, s1 = np.cos(q[0]), np.sin(q[0]), np.cos(q[1]), np.sin(q[1])
    return np.array([[1.0, 0.0, s1], [0.0, c0, -s0 * c1], [0.0, s0, c0 * c1]])


def _rate_matrix_dot(q, qd):
    c0, s0, c1, s1 = np.cos(q[0]), np.sin(q[0]), np.cos(q[1]), np.sin(q[1])
    return np.array([[0.0, 0.0, c1 * qd[1]],
                     [0.0, -s0 * qd[0], -c0 * c1 * qd[0] + s0 * s1 * qd[1]],
                     [0.0, c0 * qd[0], -s0 * c1 * qd[0] - c0 * s1 * qd[1]]])


class Speeds:
    """OpenSim's speeds and accelerations from urdf2dyn's, and back for forces."""

    def __init__(self, model, angles):
        self.k = [model.q_names.index(n) for n in angles]
        self.nv = model.nv

    def E(self, q):
        E = np.eye(self.nv)
        E[np.ix_(self.k, self.k)] = _rate_matrix(q[self.k])
        return E

    def to_opensim(self, q, v, a):
        E = self.E(q)
        udot = E @ a
        udot[self.k] += _rate_matrix_dot(q[self.k], v[self.k]) @ v[self.k]
        return E @ v, udot


def _states(model, n, seed, spread=1.0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield (rng.uniform(-spread, spread, model.nq), rng.normal(0, 2, model.nv),
               rng.normal(0, 8, model.nv))


def _placements(model, oracle, q):
    """Worst position (m) and rotation difference over OpenSim's bodies at q."""
    oracle.set_state(q)
    oracle.om.realizePosition(oracle.s)
    pos, rot = model.forward_kinematics(q)
    bodies = oracle.om.getBodySet()
    worst_p = worst_r = 0.0
    for i in range(bodies.getSize()):
        b = bodies.get(i)
        T = b.getTransformInGround(oracle.s)
        R = np.array([[T.R().get(r, c) for c in range(3)] for r in range(3)])
        k = model.link_names.index(b.getName())
        worst_p = max(worst_p, np.abs(pos[k] - b.getPositionInGround(oracle.s).to_numpy()).max())
        worst_r = max(worst_r, np.abs(rot[k] - R).max())
    return worst_p, worst_r


def _upgraded(osim, path, tmp_path):
    """The model as OpenSim 4.6 writes it back: OpenSim 3 files' location_in_parent and
    location reach OpenSim with six significant digits (0.02374857 becomes 0.0237486 in
    subject1_abdbonepin.osim); the file OpenSim writes holds the numbers it uses."""
    out = str(tmp_path / "upgraded.osim")
    osim.Model(path).printToXML(out)
    return out


@pytest.fixture(scope="module", params=["thoracoscapular", "abdbonepin"])
def shoulder(request, osim, tmp_path_factory):
    path = THORACOSCAPULAR if request.param == "thoracoscapular" else ABDBONEPIN
    if request.param == "abdbonepin":
        path = _upgraded(osim, path, tmp_path_factory.mktemp("abd"))
    model = _load(path)
    return request.param, model, Oracle(osim, path, model.q_names)


# ------------------------------------------------------------------ against OpenSim

def test_scapulothoracic_joint_loads_with_opensims_coordinates(osim):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        model = urdf2dyn.load(THORACOSCAPULAR)
    assert any("scapulothoracic" in str(w.message) and "E(q)^T" in str(w.message)
               and w.category is urdf2dyn.URDFWarning for w in said)
    assert [j.type for j in model.joints if j.name == "scapulothoracic"] == ["ellipsoid"]
    j = model.joint("scapulothoracic")
    assert model.q_names[j.q_index:j.q_index + 4] == ANGLES + ("scapula_winging",)
    om = osim.Model(THORACOSCAPULAR)
    cs = om.getCoordinateSet()
    for n in ANGLES + ("scapula_winging",):
        assert model.coordinates[n].motion == "rotational"
        assert model.coordinates[n].default == cs.get(n).getDefaultValue()


def test_shoulder_placements_equal_opensims(shoulder):
    name, model, oracle = shoulder
    for q, _, _ in _states(model, 4, 1, spread=1.2):
        worst_p, worst_r = _placements(model, oracle, q)
        assert worst_p < 1e-14 and worst_r < 1e-14, name


def test_opensim_3_shoulder_placements_equal_opensims_to_its_rounding(osim):
    """The OpenSim 3 file itself: urdf2dyn reads every digit of its joint locations, OpenSim
    six (see _upgraded), 3e-8 m apart at the clavicle, 4e-7 m at the hand."""
    model = _load(ABDBONEPIN)
    oracle = Oracle(osim, ABDBONEPIN, model.q_names)
    for q, _, _ in _states(model, 2, 2):
        worst_p, worst_r = _placements(model, oracle, q)
        assert worst_p < 1e-6 and worst_r < 1e-14


def test_shoulder_mass_matrix_equals_opensims_through_the_rate_matrix(shoulder):
    name, model, oracle = shoulder
    speeds = Speeds(model, ANGLES)
    for q, _, _ in _states(model, 3, 3):
        E = speeds.E(q)
        ours, theirs = model.mass_matrix(q), E.T @ oracle.mass_matrix(q) @ E
        assert np.abs(ours - theirs).max() < 1e-13 * np.abs(theirs).max(), name


def test_shoulder_inverse_dynamics_equals_opensims_on_a_smooth_motion(shoulder):
    """q(t) = q0 + A sin(2 pi f t + phi) over a second, every coordinate moving; OpenSim's
    InverseDynamicsSolver at each of 21 samples, its forces mapped by E^T."""
    name, model, oracle = shoulder
    speeds = Speeds(model, ANGLES)
    rng = np.random.default_rng(4)
    q0, amp = rng.uniform(-0.5, 0.5, model.nq), rng.uniform(0.1, 0.6, model.nq)
    freq, phase = rng.uniform(0.5, 2.0, model.nq), rng.uniform(0, 2 * np.pi, model.nq)
    t = np.linspace(0.0, 1.0, 21)[:, None]
    w = 2 * np.pi * freq
    q = q0 + amp * np.sin(w * t + phase)
    v = amp * w * np.cos(w * t + phase)
    a = -amp * w**2 * np.sin(w * t + phase)
    tau = model.inverse_dynamics(q, v, a)
    worst = 0.0
    for k in range(len(t)):
        u, udot = speeds.to_opensim(q[k], v[k], a[k])
        theirs = speeds.E(q[k]).T @ oracle.inverse_dynamics(q[k], u, udot)
        worst = max(worst, np.abs(tau[k] - theirs).max() / np.abs(theirs).max())
    assert worst < 1e-12, name


def test_opensims_own_speeds_differ_from_the_rates(shoulder):
    """Why the map: given the rates as its speeds (as its ID tool does with a motion's
    derivatives), OpenSim's generalized forces on the angles are not urdf2dyn's."""
    name, model, oracle = shoulder
    q, v, a = next(_states(model, 1, 5))
    k = Speeds(model, ANGLES).k
    tau = model.inverse_dynamics(q, v, a)
    assert np.abs(tau[k] - oracle.inverse_dynamics(q, v, a)[k]).max() > 1e-3 * np.abs(tau).max()


def _ellipsoid_model(osim, path):
    """A pendulum on an EllipsoidJoint with turned and offset frames, hanging from a body on
    a pin, written by OpenSim."""
    m = osim.Model()
    m.setName("ellipsoid_pendulum")
    base = osim.Body("base", 2.3, osim.Vec3(0.0, 0.1, 0.02), osim.Inertia(0.03, 0.02, 0.025))
    b = osim.Body("bob", 1.7, osim.Vec3(0.03, -0.2, 0.05), osim.Inertia(0.02, 0.015, 0.01,
                                                                        0.001, -0.002, 0.0015))
    m.addBody(base)
    m.addBody(b)
    pin = osim.PinJoint("pin", m.getGround(), osim.Vec3(0, 1, 0), osim.Vec3(0.2, 0, 0), base,
                        osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("p")
    m.addJoint(pin)
    j = osim.EllipsoidJoint("ell", base, osim.Vec3(0.1, 0.5, -0.05),
                            osim.Vec3(0.3, -0.2, 0.4), b, osim.Vec3(0.02, 0.1, 0.0),
                            osim.Vec3(-0.1, 0.25, 0.2), osim.Vec3(0.12, 0.25, 0.07))
    for k, n in enumerate(("e0", "e1", "e2")):
        j.upd_coordinates(k).setName(n)
    m.addJoint(j)
    m.finalizeConnections()
    m.printToXML(str(path))


def test_ellipsoid_joint_equals_opensim(osim, tmp_path):
    path = tmp_path / "ellipsoid.osim"
    _ellipsoid_model(osim, path)
    model = _load(str(path))
    assert [j.type for j in model.joints] == ["revolute", "ellipsoid"] and model.nv == 4
    oracle = Oracle(osim, str(path), model.q_names)
    speeds = Speeds(model, ("e0", "e1", "e2"))
    for q, v, a in _states(model, 5, 6, spread=1.4):
        assert max(_placements(model, oracle, q)) < 1e-14
        u, udot = speeds.to_opensim(q, v, a)
        theirs = speeds.E(q).T @ oracle.inverse_dynamics(q, u, udot)
        ours = model.inverse_dynamics(q, v, a)
        assert np.abs(ours - theirs).max() < 1e-12 * np.abs(theirs).max()


# ------------------------------------------------------------------ the joint's identities

@pytest.fixture(scope="module")
def thoracoscapular():
    return _load(THORACOSCAPULAR)


@pytest.fixture(scope="module")
def abdbonepin():
    return _load(ABDBONEPIN)


@pytest.mark.parametrize("which", ["thoracoscapular", "abdbonepin"])
def test_ellipsoid_joint_runs_every_algorithm(which, request):
    """ABA inverts RNEA, M is symmetric positive definite and RNEA's a-derivative, the
    Coriolis matrix and the regressor agree with RNEA, the Jacobian is the placements'
    q-derivative, dJ/dt the Jacobian's along v, the frame
    acceleration J a + dJ/dt v, and d/dt of kinetic energy is v . (tau - g)."""
    model = request.getfixturevalue(which)
    for q, v, a in _states(model, 3, 7):
        tau = model.inverse_dynamics(q, v, a)
        np.testing.assert_allclose(model.forward_dynamics(q, v, tau), a, rtol=1e-8, atol=1e-8)
        M = model.mass_matrix(q)
        np.testing.assert_allclose(M, M.T, rtol=0, atol=1e-15 * np.abs(M).max())
        assert np.linalg.eigvalsh(M).min() > 0
        np.testing.assert_allclose(M @ a + model.nonlinear_effects(q, v), tau,
                                   rtol=1e-11, atol=1e-11)
        # C v = h - g, dM/dt - 2 C skew-symmetric (dM/dt by central differences)
        C = model.coriolis_matrix(q, v)
        np.testing.assert_allclose(C @ v, model.nonlinear_effects(q, v)
                                   - model.gravity_torques(q), rtol=1e-10, atol=1e-10)
        h = 1e-6
        N = (model.mass_matrix(q + h * v) - model.mass_matrix(q - h * v)) / (2 * h) - 2 * C
        np.testing.assert_allclose(N, -N.T, atol=1e-7 * max(1.0, np.abs(C).max()))
        np.testing.assert_allclose(model.regressor(q, v, a) @ model.inertial_parameters(),
                                   tau, rtol=1e-10, atol=1e-10)
        h = 1e-6
        for link in ("scapula", "hand"):
            k = model.link_names.index(link)
            fd = np.array([(model.forward_kinematics(q + h * e)[0][k]
                            - model.forward_kinematics(q - h * e)[0][k]) / (2 * h)
                           for e in np.eye(model.nq)]).T
            np.testing.assert_allclose(model.jacobian(q, link)[:3], fd, atol=1e-8)
            dJ = model.frame_jacobian_time_variation(q, v, link, reference="world")
            fd = (model.frame_jacobian(q + h * v, link, reference="world")
                  - model.frame_jacobian(q - h * v, link, reference="world")) / (2 * h)
            np.testing.assert_allclose(dJ, fd, atol=2e-7 * max(1.0, np.abs(fd).max()))
            acc = model.frame_acceleration(q, v, a, link, reference="world")
            J = model.frame_jacobian(q, link, reference="world")
            np.testing.assert_allclose(acc, J @ a + dJ @ v, rtol=1e-10, atol=1e-10)
        assert_power_balance(model, q, v, a, tau)


def test_inverse_kinematics_finds_the_scapula_from_the_markers(thoracoscapular):
    """Markers placed by the model at a pose: IK from the default pose puts them back, and
    the scapula's four coordinates with them."""
    model = thoracoscapular
    q0 = model.default_q.copy()
    q = q0 + np.random.default_rng(13).uniform(-0.15, 0.15, model.nq)
    pos, rot = model.forward_kinematics(q)
    targets = {}
    for mk in model.markers:
        k = model.link_names.index(mk.link)
        targets[mk.name] = pos[k] + rot[k] @ np.array(mk.position)
    sol = model.inverse_kinematics(targets, q0=q0, couplers=False)
    assert sol.max[0] < 1e-10
    j = model.joint("scapulothoracic")
    np.testing.assert_allclose(sol.q[j.q_index:j.q_index + 4], q[j.q_index:j.q_index + 4],
                               atol=1e-8)


def test_ellipsoid_centroidal_momentum_rate_follows_the_momentum(thoracoscapular):
    """momentum_rate = d/dt (A_G(q) v) along q + t v, v + t a (the columns' motion in the
    body enters through the world-frame pass)."""
    model = thoracoscapular
    q, v, a = next(_states(model, 1, 8))
    h = 1e-6
    rate = model.centroidal(q, v, a)["momentum_rate"]
    fd = (model.centroidal(q + h * v, v + h * a, a)["momentum"]
          - model.centroidal(q - h * v, v - h * a, a)["momentum"]) / (2 * h)
    np.testing.assert_allclose(rate, fd, atol=1e-6 * max(1.0, np.abs(fd).max()))


def test_ellipsoid_batch_and_simd_paths_agree(abdbonepin):
    assert_simd_paths_agree(abdbonepin, list(_states(abdbonepin, 9, 9)), forward=True)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.floats(-np.pi, np.pi), min_size=4, max_size=4),
       st.lists(st.floats(-20, 20), min_size=4, max_size=4))
def test_any_scapula_angles_give_finite_dynamics(angles, rates):
    """Any angles (gimbal lock included: the placement never divides) give finite
    placements, generalized forces, mass matrix and inverse dynamics derivatives; forward
    dynamics is finite, or refused as singular where the angles' rates lose a direction
    (cos q1 = 0)."""
    model = _load(THORACOSCAPULAR)
    j = model.joint("scapulothoracic")
    q, v = model.neutral(), np.zeros(model.nv)
    q[j.q_index:j.q_index + 4] = angles
    v[j.v_index:j.v_index + 4] = rates
    pos, rot = model.forward_kinematics(q)
    assert np.all(np.isfinite(pos)) and np.all(np.isfinite(rot))
    assert np.all(np.isfinite(model.inverse_dynamics(q, v, v)))
    assert np.all(np.isfinite(model.mass_matrix(q)))
    assert all(np.all(np.isfinite(d)) for d in model.inverse_dynamics_derivatives(q, v, v))
    try:
        assert np.all(np.isfinite(model.forward_dynamics(q, v, v)))
    except ValueError as e:
        assert "singular mass matrix" in str(e)


def test_random_configurations_draw_each_coordinate_of_a_joint(thoracoscapular):
    """Every coordinate of the scapula's joint (and of the thorax's six-coordinate custom
    joint) on its own: angles in [-pi, pi], translations in [-1, 1]."""
    model = thoracoscapular
    q = model.random_configuration(200, seed=3)
    for joint in ("scapulothoracic", "ground_thorax"):
        j = model.joint(joint)
        block = q[:, j.q_index:j.q_index + j.nq]
        assert np.all(np.abs(np.corrcoef(block.T) - np.eye(j.nq)) < 0.3)
    moves = {n: np.abs(q[:, k]).max() for k, n in enumerate(model.q_names)}
    assert 3.0 < moves["scapula_winging"] <= np.pi
    assert 0.9 < moves["ground_thorax_tx"] <= 1.0


# ------------------------------------------------------------------ analytical derivatives

def _fd4(f, x, eps):
    """Fourth-order central differences of f along each coordinate of x."""
    cols = []
    for e in np.eye(x.size) * eps:
        cols.append((8 * (f(x + e) - f(x - e)) - (f(x + 2 * e) - f(x - 2 * e))) / (12 * eps))
    return np.stack(cols, axis=-1)


def _rel(ours, theirs):
    return float(np.abs(ours - theirs).max() / np.abs(theirs).max())


def test_shoulder_inverse_dynamics_derivatives_follow_opensims(shoulder):
    """Oracle: OpenSim alone. urdf2dyn's tau(q, qd, qdd) is E(q)^T tau_OpenSim(q, u, du/dt)
    with u = E qd, du/dt = E qdd + dE/dt qd (the map of docs/osim_models.rst, written here
    from Simbody's Ellipsoid mobilizer); fourth-order central differences of that function
    of OpenSim's InverseDynamicsSolver in q, qd and qdd are the three derivatives. The
    models' custom joints (the thorax's six coordinates, the clavicle) move too."""
    name, model, oracle = shoulder
    speeds = Speeds(model, ANGLES)

    def theirs(q, v, a):
        u, udot = speeds.to_opensim(q, v, a)
        return speeds.E(q).T @ oracle.inverse_dynamics(q, u, udot)

    for q, v, a in _states(model, 2, 21):
        dq, dv, M = model.inverse_dynamics_derivatives(q, v, a)
        assert _rel(dq, _fd4(lambda x: theirs(x, v, a), q, 1e-3)) < 1e-10, name
        assert _rel(dv, _fd4(lambda x: theirs(q, x, a), v, 1e-3)) < 1e-10, name
        assert _rel(M, _fd4(lambda x: theirs(q, v, x), a, 1.0)) < 1e-12, name


def test_shoulder_derivatives_follow_differences_with_world_fixed_forces(shoulder):
    """With external wrenches fixed in the world (on the scapula, below the joint, and on
    the thorax, above it), against central differences of inverse_dynamics and
    forward_dynamics (themselves OpenSim's, above); forward: -M^-1 dtau at qdd = ABA."""
    name, model, _ = shoulder
    rng = np.random.default_rng(22)
    f_ext = {"scapula": rng.normal(0, 20, 6), "thorax": rng.normal(0, 20, 6)}
    for q, v, a in _states(model, 2, 23):
        dq, dv, M = model.inverse_dynamics_derivatives(q, v, a, f_ext=f_ext)
        tau_q = _fd4(lambda x: model.inverse_dynamics(x, v, a, f_ext=f_ext), q, 1e-3)
        tau_v = _fd4(lambda x: model.inverse_dynamics(q, x, a, f_ext=f_ext), v, 1e-3)
        assert _rel(dq, tau_q) < 1e-8 and _rel(dv, tau_v) < 1e-8, name
        tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)
        fq, fv, Minv = model.forward_dynamics_derivatives(q, v, tau, f_ext=f_ext)
        np.testing.assert_allclose(Minv @ M, np.eye(model.nv), atol=1e-8)
        cond = np.linalg.cond(M)
        tol = max(1e-7, 1e-16 * cond / 1e-4)
        qdd_q = _fd4(lambda x: model.forward_dynamics(x, v, tau, f_ext=f_ext), q, 1e-4)
        qdd_v = _fd4(lambda x: model.forward_dynamics(q, x, tau, f_ext=f_ext), v, 1e-4)
        assert _rel(fq, qdd_q) < tol and _rel(fv, qdd_v) < tol, name


# A chain written by OpenSim and built again in Pinocchio: a pin (about z), an EllipsoidJoint,
# a pin below it; frames offset but not turned, so that Pinocchio's joint placements are the
# differences of the offsets and its bodies' centres of mass are shifted by the child offsets.
_RADII = (0.12, 0.25, 0.07)
_BODIES = {"base": (2.3, (0.0, 0.1, 0.02), (0.03, 0.02, 0.025, 0.0, 0.0, 0.0)),
           "bob": (1.7, (0.03, -0.2, 0.05), (0.02, 0.015, 0.01, 0.001, -0.002, 0.0015)),
           "tip": (0.6, (0.1, 0.02, -0.03), (0.004, 0.006, 0.005, 0.0003, 0.0001, -0.0002))}
_JOINTS = [("p", "pin", "ground", (0.2, 0.0, 0.0), "base", (0.0, 0.0, 0.0)),
           ("ell", "ellipsoid", "base", (0.1, 0.5, -0.05), "bob", (0.02, 0.1, 0.0)),
           ("t", "pin", "bob", (0.05, -0.3, 0.1), "tip", (-0.02, 0.05, 0.0))]


def _ellipsoid_chain_osim(osim, path):
    m = osim.Model()
    m.setName("ellipsoid_chain")
    frames = {"ground": m.getGround()}
    for name, (mass, com, inertia) in _BODIES.items():
        frames[name] = osim.Body(name, mass, osim.Vec3(*com), osim.Inertia(*inertia))
        m.addBody(frames[name])
    zero = osim.Vec3(0)
    for name, kind, parent, p_off, child, c_off in _JOINTS:
        ends = (frames[parent], osim.Vec3(*p_off), zero, frames[child], osim.Vec3(*c_off), zero)
        if kind == "pin":
            j = osim.PinJoint(name, *ends)
            j.updCoordinate().setName(name)
        else:
            j = osim.EllipsoidJoint(name, *ends, osim.Vec3(*_RADII))
            for k in range(3):
                j.upd_coordinates(k).setName(f"e{k}")
        m.addJoint(j)
    m.finalizeConnections()
    m.printToXML(str(path))


def _ellipsoid_chain_pinocchio(pin, gravity):
    pm = pin.Model()
    pm.gravity.linear[:] = gravity
    parent, above = 0, np.zeros(3)
    for name, kind, _, p_off, child, c_off in _JOINTS:
        joint = pin.JointModelRZ() if kind == "pin" else pin.JointModelEllipsoid(*_RADII)
        parent = pm.addJoint(parent, joint, pin.SE3(np.eye(3), np.array(p_off) - above), name)
        mass, com, (ixx, iyy, izz, ixy, ixz, iyz) = _BODIES[child]
        inertia = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        pm.appendBodyToJoint(parent, pin.Inertia(mass, np.array(com) - c_off, inertia),
                             pin.SE3.Identity())
        above = np.array(c_off)
    return pm


def _pinocchio_chain(osim, tmp_path):
    """The chain of _JOINTS as urdf2dyn reads OpenSim's file and as Pinocchio builds it, or a
    skip where Pinocchio has no ellipsoid joint."""
    pin = pytest.importorskip("pinocchio")
    if not hasattr(pin, "JointModelEllipsoid"):
        pytest.skip("this Pinocchio has no JointModelEllipsoid (4.1 has)")
    path = tmp_path / "chain.osim"
    _ellipsoid_chain_osim(osim, path)
    model = _load(str(path))
    assert model.q_names == ("p", "e0", "e1", "e2", "t")
    return pin, model, _ellipsoid_chain_pinocchio(pin, model.gravity)


def test_ellipsoid_joint_derivatives_follow_pinocchios_dynamics(osim, tmp_path):
    """Oracle: Pinocchio 4.1's JointModelEllipsoid, the same joint as urdf2dyn's (X-Y-Z
    body-fixed angles, the origin at diag(radii) R z, the angles' rates as speeds: same q,
    same placements and forces, asserted first). Pinocchio's own computeRNEADerivatives and
    computeABADerivatives take a joint's motion subspace to be fixed in its frame, which
    this joint's is not (they differ from central differences of its rnea by O(1) in the
    ellipsoid's columns), so the oracle is fourth-order central differences of Pinocchio's
    rnea and aba."""
    pin, model, pm = _pinocchio_chain(osim, tmp_path)
    pd = pm.createData()
    offsets = {child: np.array(c_off) for *_, child, c_off in _JOINTS}
    for q, v, a in _states(model, 3, 24, spread=1.4):
        pin.forwardKinematics(pm, pd, q)
        pos, rot = model.forward_kinematics(q)
        for j, (*_, child, _) in enumerate(_JOINTS, start=1):
            body = pd.oMi[j] * pin.SE3(np.eye(3), -offsets[child])
            k = model.link_names.index(child)
            np.testing.assert_allclose(pos[k], body.translation, atol=1e-15)
            np.testing.assert_allclose(rot[k], body.rotation, atol=1e-15)
        tau = model.inverse_dynamics(q, v, a)
        assert _rel(tau, pin.rnea(pm, pd, q, v, a)) < 1e-13

        dq, dv, M = model.inverse_dynamics_derivatives(q, v, a)
        assert _rel(dq, _fd4(lambda x: pin.rnea(pm, pd, x, v, a), q, 1e-3)) < 1e-10
        assert _rel(dv, _fd4(lambda x: pin.rnea(pm, pd, q, x, a), v, 1e-3)) < 1e-10
        upper = pin.crba(pm, pd, q)                 # its upper triangle
        theirs_M = np.triu(upper) + np.triu(upper, 1).T
        assert _rel(M, theirs_M) < 1e-13
        fq, fv, Minv = model.forward_dynamics_derivatives(q, v, tau)
        assert _rel(fq, _fd4(lambda x: pin.aba(pm, pd, x, v, tau), q, 1e-3)) < 1e-9
        assert _rel(fv, _fd4(lambda x: pin.aba(pm, pd, q, x, tau), v, 1e-3)) < 1e-9
        assert _rel(Minv, np.linalg.inv(theirs_M)) < 1e-12


def _world_wrenches_in_joint_frames(pin, pm, pd, q, f_ext):
    """Pinocchio's fext at q: urdf2dyn's wrenches [f, n] (world axes, moments about the world
    origin, fixed in the world as q moves) as spatial forces in each joint's local frame
    (oMi^-1 acting on the force); joint j of the chain carries the body _JOINTS[j - 1] moves."""
    pin.forwardKinematics(pm, pd, q)
    fext = pin.StdVec_Force()
    fext.extend(pin.Force.Zero() for _ in range(pm.njoints))
    for j, (*_, child, _) in enumerate(_JOINTS, start=1):
        if child in f_ext:
            w = f_ext[child]
            fext[j] = pd.oMi[j].actInv(pin.Force(w[:3], w[3:]))
    return fext


def test_ellipsoid_derivatives_with_world_fixed_forces_follow_pinocchios(osim, tmp_path):
    """The f_ext path of inverse_dynamics_derivatives and forward_dynamics_derivatives
    against Pinocchio 4.1 (independent of urdf2dyn's own inverse dynamics): wrenches on the
    ellipsoid's child (bob), on the body above it (base) and the one below (tip), held fixed
    in the world (DESIGN.md), so Pinocchio is given them in its joints' local frames anew at
    every q of the differences. Oracle: fourth-order central differences of Pinocchio's
    rnea(q, v, a, fext) and aba(q, v, tau, fext) (its analytical derivatives take the
    ellipsoid's motion subspace as fixed; see the test above); the forces and accelerations
    themselves are asserted equal first, so the frames and the sign are Pinocchio's."""
    pin, model, pm = _pinocchio_chain(osim, tmp_path)
    pd = pm.createData()
    rng = np.random.default_rng(25)
    f_ext = {body: rng.normal(0, 15, 6) for body in ("base", "bob", "tip")}

    def rnea(q, v, a):
        return pin.rnea(pm, pd, q, v, a, _world_wrenches_in_joint_frames(pin, pm, pd, q, f_ext))

    def aba(q, v, tau):
        return pin.aba(pm, pd, q, v, tau, _world_wrenches_in_joint_frames(pin, pm, pd, q, f_ext))

    for q, v, a in _states(model, 3, 26, spread=1.4):
        tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)
        assert _rel(tau, rnea(q, v, a)) < 1e-13
        assert _rel(tau, model.inverse_dynamics(q, v, a)) > 1e-2      # the loads count
        np.testing.assert_allclose(aba(q, v, tau), a, rtol=1e-9, atol=1e-9)

        dq, dv, M = model.inverse_dynamics_derivatives(q, v, a, f_ext=f_ext)
        theirs_q = _fd4(lambda x: rnea(x, v, a), q, 1e-3)
        assert _rel(dq, theirs_q) < 1e-10
        assert _rel(dq, _fd4(lambda x: pin.rnea(pm, pd, x, v, a), q, 1e-3)) > 1e-3
        assert _rel(dv, _fd4(lambda x: rnea(q, x, a), v, 1e-3)) < 1e-10
        assert _rel(M, _fd4(lambda x: rnea(q, v, x), a, 1.0)) < 1e-12
        fq, fv, Minv = model.forward_dynamics_derivatives(q, v, tau, f_ext=f_ext)
        assert _rel(fq, _fd4(lambda x: aba(x, v, tau), q, 1e-3)) < 1e-9
        assert _rel(fv, _fd4(lambda x: aba(q, x, tau), v, 1e-3)) < 1e-9
        assert _rel(Minv, np.linalg.inv(M)) < 1e-12


# ------------------------------------------------------------------ what is refused

def test_scaled_ellipsoid_joint_equals_opensims(osim, tmp_path):
    from urdf2dyn.biomech.formats.osim import document
    from urdf2dyn.biomech.scaling import scale_model
    path = str(tmp_path / "ellipsoid.osim")
    _ellipsoid_model(osim, path)
    model = _load(path)
    factors = {"base": np.array([1.2, 0.8, 1.1]), "bob": np.array([0.9, 1.3, 1.05])}
    ours = scale_model(model, factors)[0].load()
    out = str(tmp_path / "scaled_by_opensim.osim")
    om = opensim_scaled(osim, path, factors, out)        # kept: it owns the joint
    joint = osim.EllipsoidJoint.safeDownCast(om.getJointSet().get("ell"))
    np.testing.assert_allclose(document(ours).ellipsoids[0].radii,
                               joint.get_radii_x_y_z().to_numpy(), rtol=1e-15)
    oracle = Oracle(osim, out, ours.q_names)
    for q, _, _ in _states(ours, 3, 12):
        assert max(_placements(ours, oracle, q)) < 1e-14


@pytest.mark.parametrize("which", ["thoracoscapular", "abdbonepin"])
def test_scaled_shoulder_equals_opensims_scaled_model(which, osim, tmp_path):
    """OpenSim's Model.scale on the same factors (its ScapulothoracicJoint scales the radii
    with the thorax, the winging origin with the scapula): the written radii and winging
    origin, then placements and mass matrix of the two scaled models."""
    from urdf2dyn.biomech.formats.osim import document
    from urdf2dyn.biomech.scaling import scale_model
    path = THORACOSCAPULAR if which == "thoracoscapular" else _upgraded(osim, ABDBONEPIN,
                                                                          tmp_path)
    model = _load(path)
    rng = np.random.default_rng(10)
    factors = {b: rng.uniform(0.8, 1.25, 3) for b in document(model).bodies if b != "ground"}
    edit, _ = scale_model(model, factors)
    ours = edit.load()
    out = str(tmp_path / "scaled_by_opensim.osim")
    om = opensim_scaled(osim, path, factors, out)
    joint = osim.ScapulothoracicJoint.safeDownCast(om.getJointSet().get("scapulothoracic"))
    shape = document(ours).ellipsoids[0]
    np.testing.assert_allclose(shape.radii, joint.get_thoracic_ellipsoid_radii_x_y_z()
                               .to_numpy(), rtol=1e-15)
    np.testing.assert_allclose(shape.winging_origin, [joint.get_scapula_winging_axis_origin(k)
                                                      for k in range(2)], rtol=1e-15)
    assert shape.radii != document(model).ellipsoids[0].radii
    _assert_shoulder_equals_opensims(ours, Oracle(osim, out, ours.q_names), seed=11)


def _assert_shoulder_equals_opensims(ours, oracle, seed):
    """Placements and mass matrix (through the rate matrix E) of the model urdf2dyn has and
    of the one OpenSim read, on three states."""
    speeds = Speeds(ours, ANGLES)
    for q, _, _ in _states(ours, 3, seed):
        worst_p, worst_r = _placements(ours, oracle, q)
        assert worst_p < 1e-14 and worst_r < 1e-14
        E = speeds.E(q)
        theirs = E.T @ oracle.mass_matrix(q) @ E
        assert np.abs(ours.mass_matrix(q) - theirs).max() < 1e-12 * np.abs(theirs).max()


def test_ellipsoid_codegen_is_refused_by_name(thoracoscapular):
    model = thoracoscapular
    from urdf2dyn.codegen import generate
    with pytest.raises(ValueError, match="generate: OpenSim's EllipsoidJoint and "
                       "ScapulothoracicJoint are not supported \\(joint 'scapulothoracic'\\): "
                       "generate is not written for them; use the model's own functions"):
        generate(model)


def test_symbolic_equations_refuse_a_small_ellipsoid_model_by_name(osim, tmp_path):
    pytest.importorskip("sympy")
    from urdf2dyn.codegen import symbolic
    from urdf2dyn.codegen.equations import equations      # what `urdf2dyn equations` calls
    path = tmp_path / "ellipsoid.osim"
    _ellipsoid_model(osim, path)
    model = _load(str(path))
    assert model.nv <= 6
    for fn in (symbolic, equations):
        with pytest.raises(ValueError, match="symbolic: OpenSim's EllipsoidJoint and "
                           "ScapulothoracicJoint are not supported \\(joint 'ell'\\)"):
            fn(model)


def test_osim_to_urdf_freezes_the_ellipsoid_joint_where_it_is(thoracoscapular, tmp_path):
    from urdf2dyn.convert import osim_to_urdf
    model = thoracoscapular
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        text = osim_to_urdf(model)
    said = [str(w.message) for w in said if issubclass(w.category, urdf2dyn.Urdf2dynWarning)]
    assert len(said) == 2, said
    assert re.search("'scapulothoracic'.*frozen at scapula_abduction = -0.311561", said[0])
    # the published model locks its thorax and forearm: URDF cannot (test_ik_ranges.py)
    assert said[1].startswith("coordinates ground_thorax_tx, ground_thorax_ty, "
                              "ground_thorax_tz, elbow_flexion, pro_sup locked"), said[1]
    path = tmp_path / "shoulder.urdf"
    path.write_text(text)
    urdf = _load(str(path))
    assert "scapula_winging" not in urdf.q_names
    q = np.array([model.coordinates[n].default for n in model.q_names])
    qu = np.array([model.coordinates[n].default for n in urdf.q_names])
    pos, _ = model.forward_kinematics(q)
    pos_u, _ = urdf.forward_kinematics(qu)
    k, ku = model.link_names.index("hand"), urdf.link_names.index("hand")
    np.testing.assert_allclose(pos_u[ku], pos[k], atol=1e-14)


def test_a_scapulothoracic_joint_without_radii_is_refused(tmp_path):
    text = Path(THORACOSCAPULAR).read_text(encoding="utf-8")
    start = text.index("<thoracic_ellipsoid_radii_x_y_z>")
    end = text.index("</thoracic_ellipsoid_radii_x_y_z>") + len("</thoracic_ellipsoid_radii_x_y_z>")
    path = tmp_path / "no_radii.osim"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(ValueError, match="scapulothoracic.*thoracic_ellipsoid_radii_x_y_z.*"
                       "three radii"):
        _load(str(path))


@pytest.mark.parametrize("which", ["thoracoscapular", "abdbonepin"])
def test_written_scaled_shoulder_is_read_by_opensim_as_scaled(which, osim, tmp_path):
    """The scaled model urdf2dyn writes, read back by OpenSim (the format's owner): its
    ScapulothoracicJoint carries the scaled radii and winging origin OpenSim's own Model.scale
    gives, and OpenSim's placements and mass matrix of our file equal urdf2dyn's model."""
    from urdf2dyn.biomech.scaling import scale_model
    path = THORACOSCAPULAR if which == "thoracoscapular" else _upgraded(osim, ABDBONEPIN,
                                                                          tmp_path)
    model = _load(path)
    rng = np.random.default_rng(12)
    factors = {b: rng.uniform(0.8, 1.25, 3) for b in
               urdf2dyn.biomech.formats.osim.document(model).bodies if b != "ground"}
    edit, _ = scale_model(model, factors)
    ours = edit.load()
    written = str(tmp_path / "scaled_by_urdf2dyn.osim")
    edit.write(written)
    om = opensim_scaled(osim, path, factors, str(tmp_path / "by_opensim.osim"))  # owns it
    theirs = osim.ScapulothoracicJoint.safeDownCast(om.getJointSet().get("scapulothoracic"))
    read = osim.Model(written)
    read.initSystem()
    joint = osim.ScapulothoracicJoint.safeDownCast(read.getJointSet().get("scapulothoracic"))
    np.testing.assert_allclose(joint.get_thoracic_ellipsoid_radii_x_y_z().to_numpy(),
                               theirs.get_thoracic_ellipsoid_radii_x_y_z().to_numpy(),
                               rtol=1e-15)
    np.testing.assert_allclose([joint.get_scapula_winging_axis_origin(k) for k in range(2)],
                               [theirs.get_scapula_winging_axis_origin(k) for k in range(2)],
                               rtol=1e-15)
    _assert_shoulder_equals_opensims(ours, Oracle(osim, written, ours.q_names), seed=13)
