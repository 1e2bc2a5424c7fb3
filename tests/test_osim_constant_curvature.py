"""OpenSim's ConstantCurvatureJoint (OpenSim 4.5+), read as urdf2dyn's constant_curvature
joint, against OpenSim 4.6.

Models: a spine of two such joints written here by OpenSim (the first with neutral angles
and turned, offset parent and child frames, under a body on a pin; the second with none),
and one joint alone on the ground.

Oracles. OpenSim's body placements (getTransformInGround) are compared as they are. Its
velocities, mass matrix and dynamics are not those of its placements: its mobilizer's H
is the child's velocity in the child's frame, which Simbody takes as the velocity in the
parent's frame, and it leaves dH/dt out (opensim-core ConstantCurvatureJoint.cpp,
multiplyByHMatrix and multiplyByHDotMatrix); test_opensim_moves_the_child_at_the_pose_rate_
turned_by_the_joint pins that. So urdf2dyn's inverse dynamics, mass matrix and forward
dynamics are checked against Newton-Euler on OpenSim's own placements: each body's
velocity and acceleration by 5-point central differences of its OpenSim pose along the
motion, the Jacobians by central differences in q, the bodies' mass properties as OpenSim
reads them. Then the joint's identities: ABA against RNEA, the power balance, the SIMD lanes.
"""
from __future__ import annotations

import contextlib
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn

from osim_oracle import Oracle, opensim_scaled
from test_osim import assert_power_balance, assert_simd_paths_agree
from test_osim_ellipsoid import _placements, _states

SPINE_Q = ("p", "c1_x", "c1_z", "c1_y", "c2_x", "c2_z", "c2_y")
BOUND = np.pi / 2 - 0.01        # OpenSim holds each angle (q + neutral) within +-BOUND


def _load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path)


def _spine_model(osim, path):
    """A pin, then two ConstantCurvatureJoints, written by OpenSim."""
    m = osim.Model()
    m.setName("spine")
    base = osim.Body("base", 2.3, osim.Vec3(0.0, 0.1, 0.02), osim.Inertia(0.03, 0.02, 0.025))
    s1 = osim.Body("seg1", 1.7, osim.Vec3(0.03, 0.2, 0.05),
                   osim.Inertia(0.02, 0.015, 0.01, 0.001, -0.002, 0.0015))
    s2 = osim.Body("seg2", 1.1, osim.Vec3(-0.02, 0.1, 0.01),
                   osim.Inertia(0.01, 0.012, 0.009, -0.001, 0.0005, 0.001))
    for b in (base, s1, s2):
        m.addBody(b)
    pin = osim.PinJoint("pin", m.getGround(), osim.Vec3(0, 1, 0), osim.Vec3(0.2, 0, 0), base,
                        osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("p")
    m.addJoint(pin)
    c1 = osim.ConstantCurvatureJoint("c1", base, osim.Vec3(0.1, 0.3, -0.05),
                                     osim.Vec3(0.3, -0.2, 0.4), s1, osim.Vec3(0.02, -0.05, 0.01),
                                     osim.Vec3(-0.1, 0.25, 0.2), osim.Vec3(-0.2, 0.15, 0.1), 0.35)
    c2 = osim.ConstantCurvatureJoint("c2", s1, s2, osim.Vec3(0), 0.2)
    for j in (c1, c2):
        for k, axis in enumerate("xzy"):
            j.upd_coordinates(k).setName(f"{j.getName()}_{axis}")
        m.addJoint(j)
    mk = osim.Marker("tip", s2, osim.Vec3(0.05, 0.15, -0.03))
    m.addMarker(mk)
    m.finalizeConnections()
    m.printToXML(str(path))


@pytest.fixture(scope="module")
def spine(osim, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("spine") / "spine.osim")
    _spine_model(osim, path)
    model = _load(path)
    return model, Oracle(osim, path, model.q_names)


def _branch_states():
    """States where OpenSim takes the straight segment instead of the arc: c2 barely bent
    (sin of its bend below 0.001), c1 bent past asin(0.999); and one with c1's x angle
    held at its bound. Slow enough that the differences stay on their side."""
    q, v, a = (np.array([0.3, 0.1, -0.2, 0.4, 2e-4, -3e-4, 0.5]),
               np.array([0.7, -0.4, 0.9, 0.3, 0.05, -0.05, 0.8]),
               np.array([2.0, -3.0, 1.0, 4.0, 0.5, 0.3, -2.0]))
    steep = q.copy()
    steep[2] = 1.543 - 0.15                       # c1's z angle 1.543 (its neutral is 0.15)
    vs = v.copy()
    vs[2] = 0.1
    held = q.copy()
    held[1] = 1.9                                 # c1's x angle 1.7, past the bound
    return [(q, v, a), (steep, vs, a), (held, v, a)]


HELD = (r"ConstantCurvatureJoint '{joint}': {coord} plus its neutral angle {neutral} is "
        r"{angle} rad in {where}, past \+-\(pi/2 - 0\.01\): OpenSim holds the angle at that "
        r"bound, and so does urdf2dyn, so {coord} moves nothing there \(its generalized force "
        r"is 0, its mass-matrix column zero\); keep the coordinates within the bound "
        r"\(in radians\)$")


@contextlib.contextmanager
def _holding():
    """For tests that hold an angle at its bound on purpose: the warning that says so
    (test_an_angle_past_its_bound_is_said) is expected there, not an error."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", HELD.format(joint=".*", coord=".*", neutral=".*",
                                                      angle=".*", where=".*"),
                                urdf2dyn.Urdf2dynWarning)
        yield


# ------------------------------------------------------------------ against OpenSim

def test_constant_curvature_joints_load_with_opensims_coordinates(osim, tmp_path):
    path = tmp_path / "spine.osim"
    _spine_model(osim, path)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        model = urdf2dyn.load(str(path))
    assert model.q_names == SPINE_Q
    assert [j.type for j in model.joints if j.nv] == ["revolute", "constant_curvature",
                                                      "constant_curvature"]
    told = [str(w.message) for w in said if "ConstantCurvatureJoint" in str(w.message)]
    assert len(told) == 2 and all("OpenSim 4.6 turns that velocity by the joint's inverse "
                                  "rotation and drops its rate of change" in t
                                  and t.endswith("(positions agree; docs/osim_models.rst)")
                                  for t in told)


def test_placements_equal_opensims(spine):
    """On the arc, on both straight stretches and with an angle held at its bound."""
    model, oracle = spine
    states = list(_states(model, 6, 1, spread=1.3)) + _branch_states()
    with _holding():
        for q, _, _ in states:
            assert max(_placements(model, oracle, q)) < 1e-14


def test_absent_neutral_angles_and_length_are_opensims_defaults(osim, tmp_path):
    """A joint without <neutral_angle_x_z_y> or <length> (OpenSim's defaults: 0 0 0 and 1)."""
    path = tmp_path / "bare.osim"
    _one_joint_model(osim, path, (0.0, 0.0, 0.0), 1.0)
    text = path.read_text(encoding="utf-8")
    for tag in ("neutral_angle_x_z_y", "length"):
        start, end = text.index(f"<{tag}>"), text.index(f"</{tag}>") + len(f"</{tag}>")
        text = text[:start] + text[end:]
    path.write_text(text, encoding="utf-8")
    model = _load(str(path))
    oracle = Oracle(osim, str(path), model.q_names)
    for q, _, _ in _states(model, 4, 11):
        assert max(_placements(model, oracle, q)) < 1e-14


def _one_joint_model(osim, path, neutral, length):
    m = osim.Model()
    m.setName("one")
    b = osim.Body("b", 2.0, osim.Vec3(0.1, 0.2, 0.3), osim.Inertia(0.1, 0.2, 0.25, 0.01, 0.02,
                                                                    0.03))
    m.addBody(b)
    j = osim.ConstantCurvatureJoint("j", m.getGround(), b, osim.Vec3(*neutral), length)
    m.addJoint(j)
    m.finalizeConnections()
    m.printToXML(str(path))


@pytest.mark.parametrize("neutral, length", [((0.1, 0.2, 0.3), 0.7), ((-0.5, 0.3, -1.0), 0.2)])
def test_opensim_moves_the_child_at_the_pose_rate_turned_by_the_joint(osim, tmp_path, neutral,
                                                                       length):
    """On the arc, OpenSim's velocity of the child is R^T times the rate of its own pose
    (urdf2dyn's): what the docs and the load-time warning say. Should OpenSim correct its
    mobilizer, this fails and urdf2dyn's dynamics can be compared with OpenSim's directly."""
    path = tmp_path / "one.osim"
    _one_joint_model(osim, path, neutral, length)
    model = _load(str(path))
    oracle = Oracle(osim, str(path), model.q_names)
    body = oracle.om.getBodySet().get("b")
    for q, v, _ in _states(model, 5, 2, spread=0.5):      # within the bounds
        oracle.set_state(q, v)
        oracle.om.realizeVelocity(oracle.s)
        R = model.forward_kinematics(q)[1][model.link_names.index("b")]
        ours = model.frame_jacobian(q, "b", reference="local_world_aligned") @ v
        V = body.getVelocityInGround(oracle.s)
        np.testing.assert_allclose(R.T @ ours[3:], V.get(0).to_numpy(), rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(R.T @ ours[:3], V.get(1).to_numpy(), rtol=1e-13, atol=1e-14)
        assert np.abs(ours[3:] - V.get(0).to_numpy()).max() > 1e-3


def _poses(oracle, q):
    """Every OpenSim body's (R, p) in ground at q."""
    oracle.set_state(q)
    oracle.om.realizePosition(oracle.s)
    bodies = oracle.om.getBodySet()
    out = []
    for i in range(bodies.getSize()):
        T = bodies.get(i).getTransformInGround(oracle.s)
        out.append((np.array([[T.R().get(r, c) for c in range(3)] for r in range(3)]),
                    T.p().to_numpy()))
    return out


def _mass_properties(oracle):
    bodies = oracle.om.getBodySet()
    props = []
    for i in range(bodies.getSize()):
        b = bodies.get(i)
        mo, pr = b.getInertia().getMoments().to_numpy(), b.getInertia().getProducts().to_numpy()
        Ic = np.array([[mo[0], pr[0], pr[1]], [pr[0], mo[1], pr[2]], [pr[1], pr[2], mo[2]]])
        props.append((b.getMass(), b.getMassCenter().to_numpy(), Ic))
    return props


def _vee(W):
    return 0.5 * np.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]])


_STEPS = (-2, -1, 1, 2)
_D1 = np.array([1, -8, 8, -1]) / 12          # 5-point first derivative
_D2 = np.array([-1, 16, 16, -1]) / 12        # and second, with -30/12 at the centre


def newton_euler(oracle, q, v, a, h=1e-3, hq=2e-5):
    """The generalized forces of the motion q + v t + a t^2 / 2 at t = 0 from OpenSim's
    placements alone: each body's angular velocity and acceleration from R' R^T and
    R'' R^T - (R' R^T)^2, its centre of mass's acceleration, all by 5-point central
    differences in t (step h); Newton-Euler forces m (x'' - g) and I alpha + w x I w about
    the centre of mass; projected on each coordinate by central differences in q (step hq)."""
    g = oracle.om.getGravity().to_numpy()
    props = _mass_properties(oracle)
    P0 = _poses(oracle, q)
    Pt = [_poses(oracle, q + v * t * h + 0.5 * a * (t * h) ** 2) for t in _STEPS]
    Pq = [[_poses(oracle, q + e * t * hq) for t in _STEPS] for e in np.eye(len(q))]
    tau = np.zeros(len(q))
    for b, (m, c, Ic) in enumerate(props):
        R0 = P0[b][0]

        def com(P):
            return P[b][1] + P[b][0] @ c
        xdd = (sum(w * com(P) for w, P in zip(_D2, Pt)) - 30 / 12 * com(P0)) / h**2
        Rd = sum(w * P[b][0] for w, P in zip(_D1, Pt)) / h
        Rdd = (sum(w * P[b][0] for w, P in zip(_D2, Pt)) - 30 / 12 * R0) / h**2
        W = Rd @ R0.T
        omega, alpha = _vee(W), _vee(Rdd @ R0.T - W @ W)
        Iw = R0 @ Ic @ R0.T
        force, moment = m * (xdd - g), Iw @ alpha + np.cross(omega, Iw @ omega)
        for j in range(len(q)):
            dx = sum(w * com(P) for w, P in zip(_D1, Pq[j])) / hq
            dR = sum(w * P[b][0] for w, P in zip(_D1, Pq[j])) / hq
            tau[j] += dx @ force + _vee(dR @ R0.T) @ moment
    return tau


def _rel(ours, theirs):
    return np.abs(ours - theirs).max() / np.abs(theirs).max()


def test_inverse_dynamics_is_newton_euler_on_opensims_placements(spine):
    model, oracle = spine
    with _holding():
        for q, v, a in list(_states(model, 4, 3)) + _branch_states():
            theirs = newton_euler(oracle, q, v, a)
            assert _rel(model.inverse_dynamics(q, v, a), theirs) < 2e-9


def test_held_angle_moves_nothing(spine):
    """Past its bound an angle is held, as OpenSim holds it: its column is zero, so inverse
    dynamics gives it no force and forward dynamics finds no inertia behind it."""
    model, _ = spine
    q, v, a = _branch_states()[2]
    with _holding():
        assert model.inverse_dynamics(q, v, a)[1] == 0.0
        assert not model.mass_matrix(q)[1].any()
    with _holding(), pytest.raises(ValueError, match=r"singular mass matrix.*; or an angle of "
                       r"ConstantCurvatureJoint 'c1', 'c2' \(its coordinate plus its neutral "
                       r"angle\) is past \+-\(pi/2 - 0.01\), where it is held, as OpenSim "
                       r"holds it, and moves nothing: keep the coordinates within that bound$"):
        model.forward_dynamics(q, v, np.zeros(model.nv))


def test_an_angle_past_its_bound_is_said(spine):
    """OpenSim holds c1's x angle at its bound past it (its placements there are those at the
    bound) and moves the body as c1_x moves within it; urdf2dyn says so where q holds an
    angle, naming the joint, the coordinate and the first sample, and is silent within."""
    model, oracle = spine
    q, v, a = _branch_states()[2]                   # c1_x 1.9, its neutral angle -0.2
    at_bound, within = q.copy(), q.copy()
    at_bound[1], within[1] = BOUND + 0.2, BOUND + 0.2 - 0.05
    P, Pb, Pw = (_poses(oracle, x) for x in (q, at_bound, within))
    assert all(np.array_equal(R, Rb) and np.array_equal(p, pb)
               for (R, p), (Rb, pb) in zip(P, Pb))
    assert max(np.abs(p - pw).max() for (_, p), (_, pw) in zip(P, Pw)) > 1e-3
    with pytest.warns(urdf2dyn.Urdf2dynWarning,
                      match=HELD.format(joint="c1", coord="c1_x", neutral="-0.2", angle="1.7",
                                        where="q")):
        model.inverse_dynamics(q, v, a)
    Q = np.tile(within, (4, 1))
    Q[2, 5] = -1.6                                  # c2's z angle (no neutral angle)
    with pytest.warns(urdf2dyn.Urdf2dynWarning,
                      match=HELD.format(joint="c2", coord="c2_z", neutral="0", angle="-1.6",
                                        where="1 of 4 samples of q, the first sample 2")):
        model.mass_matrix(Q)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.inverse_dynamics(within, v, a)
        model.mass_matrix(np.delete(Q, 2, axis=0))


def test_random_configurations_move_every_angle(spine):
    """random_configuration keeps each angle within its bound, where OpenSim moves the body
    both ways as each curvature coordinate moves (past it, nothing moves)."""
    model, oracle = spine
    Q = model.random_configuration(200, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.inverse_dynamics(Q, np.zeros_like(Q), np.zeros_like(Q))
    for q in Q[:8]:
        P = _poses(oracle, q)
        for k in range(1, model.nq):
            for step in (-1e-4, 1e-4):
                moved = _poses(oracle, q + step * np.eye(model.nq)[k])
                assert max(np.abs(R - Rm).max() for (R, _), (Rm, _) in zip(P, moved)) > 1e-6


def test_mass_matrix_and_forward_dynamics_are_newton_eulers(spine):
    """M's columns are Newton-Euler's forces for unit accelerations less those for none
    (bias); forward dynamics' accelerations then give the forces back: M a + bias = tau (the
    residual against M a's size, which M's conditioning near a right-angle bend does not
    magnify)."""
    model, oracle = spine
    for q, v, a in list(_states(model, 2, 4)) + _branch_states()[:2]:
        zero = np.zeros(model.nv)
        bias = newton_euler(oracle, q, zero, zero)
        M = np.array([newton_euler(oracle, q, zero, e) - bias for e in np.eye(model.nv)]).T
        assert _rel(model.mass_matrix(q), M) < 2e-9
        tau = newton_euler(oracle, q, v, a)
        bias = newton_euler(oracle, q, v, zero)
        inertial = M @ model.forward_dynamics(q, v, tau)
        assert np.abs(inertial + bias - tau).max() < 2e-9 * np.abs(inertial).max()


def test_inverse_kinematics_finds_the_spine_from_opensims_marker(spine):
    """The marker where OpenSim places it at a pose: IK from a nearby pose with every other
    coordinate known (three coordinates, three marker coordinates) finds c2's angles."""
    model, oracle = spine
    q = np.array([0.2, 0.3, -0.1, 0.2, 0.25, -0.3, 0.4])
    oracle.set_state(q)
    oracle.om.realizePosition(oracle.s)
    tip = oracle.om.getMarkerSet().get("tip").getLocationInGround(oracle.s).to_numpy()
    q0 = q.copy()
    q0[4:] += np.array([0.05, -0.04, 0.03])
    sol = model.inverse_kinematics({"tip": tip}, q0=q0,
                                   locked={n: q[k] for k, n in enumerate(SPINE_Q[:4])})
    np.testing.assert_allclose(sol.q, q, atol=1e-8)


# ------------------------------------------------------------------ the joint's identities

def test_constant_curvature_joint_runs_every_algorithm(spine):
    """ABA inverts RNEA, M is symmetric, the Coriolis matrix and the regressor agree with
    RNEA, dJ/dt is the Jacobian's rate along v, and d/dt of kinetic energy is v . (tau - g)."""
    model, _ = spine
    for q, v, a in list(_states(model, 3, 7)) + _branch_states()[:2]:
        tau = model.inverse_dynamics(q, v, a)
        np.testing.assert_allclose(model.forward_dynamics(q, v, tau), a, rtol=1e-8, atol=1e-8)
        M = model.mass_matrix(q)
        np.testing.assert_allclose(M, M.T, rtol=0, atol=1e-15 * np.abs(M).max())
        C = model.coriolis_matrix(q, v)
        np.testing.assert_allclose(C @ v, model.nonlinear_effects(q, v)
                                   - model.gravity_torques(q), rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(model.regressor(q, v, a) @ model.inertial_parameters(),
                                   tau, rtol=1e-10, atol=1e-10)
        h = 1e-6
        dJ = model.frame_jacobian_time_variation(q, v, "seg2", reference="world")
        fd = (model.frame_jacobian(q + h * v, "seg2", reference="world")
              - model.frame_jacobian(q - h * v, "seg2", reference="world")) / (2 * h)
        np.testing.assert_allclose(dJ, fd, atol=2e-7 * max(1.0, np.abs(fd).max()))
        assert_power_balance(model, q, v, a, tau)


def test_constant_curvature_centroidal_momentum_rate_follows_the_momentum(spine):
    """momentum_rate = d/dt (A_G(q) v) along q + t v, v + t a (the columns' motion in the
    body enters through the world-frame pass)."""
    model, _ = spine
    q, v, a = next(_states(model, 1, 9))
    h = 1e-6
    rate = model.centroidal(q, v, a)["momentum_rate"]
    fd = (model.centroidal(q + h * v, v + h * a, a)["momentum"]
          - model.centroidal(q - h * v, v - h * a, a)["momentum"]) / (2 * h)
    np.testing.assert_allclose(rate, fd, atol=1e-7 * max(1.0, np.abs(fd).max()))


def test_constant_curvature_batch_and_simd_paths_agree(spine):
    """Samples on the arc, on the straight stretches and held at a bound in one batch."""
    model, _ = spine
    states = list(_states(model, 5, 8, spread=1.6)) + _branch_states()
    with _holding():
        assert_simd_paths_agree(model, states)


# ------------------------------------------------------------------ what has no form for it

def _fd(f, x, eps=1e-5):
    """Fourth-order central differences of f along each coordinate of x."""
    cols = []
    for k in range(x.size):
        e = np.zeros(x.size)
        e[k] = eps
        cols.append((8 * (f(x + e) - f(x - e)) - (f(x + 2 * e) - f(x - 2 * e))) / (12 * eps))
    return np.stack(cols, axis=-1)


def test_analytical_derivatives_follow_central_differences(spine):
    """The arc's columns move with its angles, so d(tau)/dq needs the arc's end to third
    order. Against fourth-order central differences of inverse and forward dynamics (which
    test_inverse_dynamics_is_newton_euler_on_opensims_placements and
    test_mass_matrix_and_forward_dynamics_are_newton_eulers hold to OpenSim's placements), to
    1e-6 relative: on the arc at random states, on both straight stretches and with an angle
    held at its bound (its row and column zero, as the differences find)."""
    model, _ = spine
    rng = np.random.default_rng(31)
    states = list(_states(model, 12, 30, spread=1.3)) + _branch_states()
    with _holding():
        for q, v, a in states:
            dq, dv, M = model.inverse_dynamics_derivatives(q, v, a)
            assert _rel(dq, _fd(lambda x: model.inverse_dynamics(x, v, a), q)) < 1e-6
            assert _rel(dv, _fd(lambda x: model.inverse_dynamics(q, x, a), v)) < 1e-6
            np.testing.assert_allclose(M, model.mass_matrix(q), rtol=0,
                                       atol=1e-12 * np.abs(M).max())
            if np.abs(q[1:4] + (-0.2, 0.15, 0.1)).max() > BOUND:
                assert not dq[1].any() and not dq[:, 1].any()     # c1_x held
                continue                                 # M singular: no forward dynamics
            tau = model.inverse_dynamics(q, v, a) + rng.normal(0, 2, model.nv)
            fq, fv, Minv = model.forward_dynamics_derivatives(q, v, tau)
            assert _rel(fq, _fd(lambda x: model.forward_dynamics(x, v, tau), q)) < 1e-6
            assert _rel(fv, _fd(lambda x: model.forward_dynamics(q, x, tau), v)) < 1e-6
            np.testing.assert_allclose(Minv @ M, np.eye(model.nv), atol=1e-9)


def _barely_bent_states():
    """States whose joints' bend sines lie just past OpenSim's straight stretch (0.001) and
    across the range where the core sums the arc's factors as series (sine below 0.1)."""
    rng = np.random.default_rng(33)
    for sine in (0.00102, 0.0015, 0.004, 0.03, 0.0995, 0.1005):
        turn = rng.uniform(0, 2 * np.pi)                      # the plane it bends in
        q = np.array([0.3, 0.2, -0.15, 0.4, 0.0, 0.0, 0.5])   # c1's neutral angles undone
        for k in (1, 4):
            q[k:k + 2] += np.arcsin(sine) * np.array([np.cos(turn), np.sin(turn)])
        yield q, rng.normal(0, 1, 7), rng.normal(0, 3, 7)


def _arc_end_50_digits(a0, a1, length):
    """The arc's end (OpenSim's formula, ConstantCurvatureJoint.cpp) in 50 digits."""
    import mpmath
    with mpmath.workdps(50):
        a0, a1 = mpmath.mpf(float(a0)), mpmath.mpf(float(a1))
        ux, uz = -mpmath.sin(a1), mpmath.sin(a0) * mpmath.cos(a1)
        s = mpmath.sqrt(ux * ux + uz * uz)
        th = mpmath.asin(s)
        f = length * (1 - mpmath.cos(th)) / th / s
        return np.array([float(f * ux), float(length * s / th), float(f * uz)])


def test_barely_bent_joints_placements_and_derivatives(spine, osim, tmp_path):
    """Just past the straight stretch the arc's closed forms divide by the sine of the bend
    and its powers: the end lost up to 3e-11 of its size there, its derivatives up to 1e-3.
    The core sums the arc's factors as series there: a lone joint's end is OpenSim's formula
    taken in 50 digits, to 1e-14 relative; the spine's placements are OpenSim's to the
    digits OpenSim's own 1 - cos(theta) keeps (L eps / theta); and central differences of
    inverse dynamics confirm the derivatives to 1e-6."""
    model, oracle = spine
    path = tmp_path / "one.osim"
    _one_joint_model(osim, path, (0.0, 0.0, 0.0), 0.2)
    lone = _load(str(path))
    for q, v, a in _barely_bent_states():
        sine = np.hypot(np.sin(q[5]), np.sin(q[4]) * np.cos(q[5]))
        end = lone.forward_kinematics(q[4:])[0][lone.link_names.index("b")]
        np.testing.assert_allclose(end, _arc_end_50_digits(q[4], q[5], 0.2), rtol=1e-14)
        assert max(_placements(model, oracle, q)) < 1e-14 + 2 * 0.35 * 2.2e-16 / sine
        dq, dv, _ = model.inverse_dynamics_derivatives(q, v, a)
        assert _rel(dq, _fd(lambda x: model.inverse_dynamics(x, v, a), q, 1e-6)) < 1e-6
        assert _rel(dv, _fd(lambda x: model.inverse_dynamics(q, x, a), v, 1e-6)) < 1e-6


def test_analytical_derivatives_batch_equals_one_sample_on_every_simd_path(spine):
    """The arc's partials are taken lane by lane (the branch differs between samples): a
    batch across the arc, both straight stretches and a held angle equals one-sample calls
    on every SIMD path, bit for bit."""
    model, _ = spine
    states = list(_states(model, 9, 32, spread=1.3)) + _branch_states() * 2
    Q, V, A = (np.array(x) for x in zip(*states))
    try:
        with _holding():
            urdf2dyn.set_simd_path("scalar")
            one = [model.inverse_dynamics_derivatives(*s) for s in states]
            for path in urdf2dyn.available_simd_paths():
                urdf2dyn.set_simd_path(path)
                batch = model.inverse_dynamics_derivatives(Q, V, A)
                for k in range(len(states)):
                    assert all(np.array_equal(xb[k], x1) for xb, x1 in zip(batch, one[k])), path
    finally:
        urdf2dyn.set_simd_path(None)


def test_code_generation_and_symbolic_equations_refuse_the_joint_by_name(osim, tmp_path):
    pytest.importorskip("sympy")
    from urdf2dyn.codegen import generate, symbolic
    path = tmp_path / "one.osim"
    _one_joint_model(osim, path, (0.1, 0.2, 0.3), 0.7)
    model = _load(str(path))
    for fn, what in ((generate, "generate"), (symbolic, "symbolic")):
        with pytest.raises(ValueError, match=f"{what}: OpenSim's ConstantCurvatureJoints are "
                           "not supported \\(joint 'j'\\): .*use the model's own functions"):
            fn(model)


def _swaying_spine(model, t):
    """q, v, a (closed form) of the spine swaying at 2.5 Hz, every angle within its bound and
    on its arc, the floating root still."""
    w = 2 * np.pi * 2.5
    q = np.tile(model.neutral(), (len(t), 1))
    v, a = np.zeros((len(t), model.nv)), np.zeros((len(t), model.nv))
    for k, (name, amp) in enumerate(zip(SPINE_Q, (0.3, 0.25, 0.2, 0.1, 0.3, -0.25, 0.2))):
        c, phase = model.q_names.index(name), 0.5 * k
        q[:, c] += amp * (np.sin(w * t + phase) + 0.4)
        v[:, c - 1] = amp * w * np.cos(w * t + phase)          # the root has 7 q, 6 v
        a[:, c - 1] = -amp * w * w * np.sin(w * t + phase)
    return q, v, a


def test_residual_reduction_undoes_a_disturbed_curvature_angle(osim, tmp_path):
    """Its Gauss-Newton steps are the inverse-dynamics derivatives, which it refused the joint
    for. Loads that make the swaying spine consistent (the root's residual wrench put back
    as a load, so no residual is left), then c1's z angle moved by a smooth 0.01 rad bump:
    residual reduction, adjusting the spine's coordinates, takes the bump's residuals away."""
    from urdf2dyn.biomech.actuators import actuator_forces, default_actuators, root_body
    from urdf2dyn.biomech.residuals import reduce_residuals
    path = tmp_path / "spine.osim"
    _spine_model(osim, path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        model = urdf2dyn.load(str(path), floating_base=True)
    t = np.arange(401) / 1000
    q, v, a = _swaying_spine(model, t)
    residual = actuator_forces(model, default_actuators(model), q,
                               model.inverse_dynamics(q, v, a))[:, :6]
    root = root_body(model)
    origin = model.forward_kinematics(q)[0][:, model.link_names.index(root)]
    force, moment = residual[:, :3], residual[:, 3:]
    loads = {root: np.concatenate([force, moment + np.cross(origin, force)], axis=1)}
    c = model.q_names.index("c1_z")
    x = (t - 0.2) / 0.04
    bump = 0.01 * np.exp(-x * x)
    q[:, c] += bump
    v[:, c - 1] += bump * (-2 * x / 0.04)
    a[:, c - 1] += bump * (4 * x * x - 2) / 0.04 ** 2
    red = reduce_residuals(model, t, q, v, a, loads, adjust_mass=False,
                           tracking={name: 1.0 for name in SPINE_Q})
    before, after = (np.sqrt(np.mean(np.sum(r ** 2, axis=1)))
                     for r in (red.residual_before, red.residuals))      # RMS of |residual|
    assert before > 5 and after < 0.06 * before, (before, after)


def test_symbolic_equations_of_a_large_model_refuse_the_joint_not_the_size(spine):
    """The 7-DoF spine is past the symbolic equations' size, whose advice (generate()) it
    cannot take: the joint is named instead."""
    pytest.importorskip("sympy")
    from urdf2dyn.codegen import symbolic
    model, _ = spine
    assert model.nv > 6
    with pytest.raises(ValueError, match="symbolic: OpenSim's ConstantCurvatureJoints are not "
                       "supported \\(joint 'c1'\\)"):
        symbolic(model)


@pytest.mark.parametrize("scaled", [("base", "seg1", "seg2"), ("base", "seg2")])
def test_scaled_spine_equals_opensims_scaled_model(osim, tmp_path, scaled):
    """OpenSim's Model.scale on the same factors (a ConstantCurvatureJoint's length by its
    child body's y factor, left when that body is not scaled): the written lengths, then the
    placements of the two scaled models, and OpenSim's of the file urdf2dyn writes."""
    from urdf2dyn.biomech.formats.osim import document
    from urdf2dyn.biomech.scaling import scale_model
    path = str(tmp_path / "spine.osim")
    _spine_model(osim, path)
    model = _load(path)
    rng = np.random.default_rng(13)
    factors = {b: rng.uniform(0.7, 1.4, 3) for b in scaled}
    edit, _ = scale_model(model, factors)
    ours = edit.load()
    out = str(tmp_path / "scaled_by_opensim.osim")
    om = opensim_scaled(osim, path, factors, out)         # kept: it owns the joints
    for c in document(ours).curvatures:
        joint = osim.ConstantCurvatureJoint.safeDownCast(om.getJointSet().get(c.joint))
        assert c.length == pytest.approx(joint.get_length(), rel=1e-15)
    written = str(tmp_path / "scaled_by_urdf2dyn.osim")
    edit.write(written)
    for theirs in (out, written):
        oracle = Oracle(osim, theirs, ours.q_names)
        for q, _, _ in _states(ours, 3, 14):
            assert max(_placements(ours, oracle, q)) < 1e-14


def test_osim_to_urdf_freezes_the_joint_where_it_is(spine, tmp_path):
    from urdf2dyn.convert import osim_to_urdf
    model, _ = spine
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        text = osim_to_urdf(model)
    told = [str(w.message) for w in said if issubclass(w.category, urdf2dyn.Urdf2dynWarning)]
    for j in ("c1", "c2"):
        assert any(t.startswith(f"joint '{j}': URDF cannot express OpenSim's "
                                f"ConstantCurvatureJoint") and f"frozen at {j}_x = 0" in t
                   for t in told)
    path = tmp_path / "spine.urdf"
    path.write_text(text)
    urdf = _load(str(path))
    assert urdf.q_names == ("p",)
    pos, _ = model.forward_kinematics(np.zeros(model.nq))
    pos_u, _ = urdf.forward_kinematics(np.zeros(1))
    k, ku = model.link_names.index("seg2"), urdf.link_names.index("seg2")
    np.testing.assert_allclose(pos_u[ku], pos[k], atol=1e-14)


def test_a_trial_says_a_held_angle_once(tmp_path):
    """A trial whose c1_x passes the bound was said twice: by its inverse dynamics over the
    101 samples, and again over 50 of them by the weightless check's own gravity torques, with
    other counts. The trial's dynamics say it, for all its samples, once."""
    model = _load(Path(__file__).parent / "data" / "osim_joints" / "constant_curvature_spine.osim")
    t = np.arange(101) / 100
    q = np.zeros((101, model.nq))
    q[:, 1] = np.linspace(0, 2.0, 101)              # c1_x + its neutral -0.2 passes 1.56
    motion = tmp_path / "held.mot"
    motion.write_text("held\nversion=1\nnRows=101\nnColumns=8\ninDegrees=no\nendheader\n"
                      + "time\t" + "\t".join(SPINE_Q) + "\n"
                      + "".join(f"{x:g}\t" + "\t".join(f"{v:.6f}" for v in row) + "\n"
                                for x, row in zip(t, q)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.inverse_dynamics_trial(model, motion)
    held = [str(w.message) for w in caught if "ConstantCurvatureJoint 'c1'" in str(w.message)
            and "past +-(pi/2 - 0.01)" in str(w.message)]
    assert len(held) == 1 and "in 12 of 101 samples of q" in held[0], held


@pytest.mark.parametrize("length", [1e308, -1e200, 1.5e100, 1e8, -2e3, 1000.5])
def test_a_too_long_arc_is_refused_naming_the_joint(osim, tmp_path, length):
    """A length whose square overflows gave NaN dynamics without a word (1e154 already makes
    the mass matrix NaN), and from 1e5 m on the mass matrix and forward dynamics were wrong
    without a word (test_the_longest_arc_taken_keeps_its_dynamics): it is refused at load
    beyond 1 km, naming the joint, the value and the fix."""
    path = tmp_path / "huge.osim"
    _one_joint_model(osim, path, (0.1, 0.2, 0.3), length)
    with pytest.raises(urdf2dyn.URDFError, match=f"huge.osim:[0-9]+: joint 'j': <length>"
                       f"{re.escape(f'{length:g}')}: too long an arc \\(beyond 1000 m\\): "
                       "bending it swings the child's mass over it, which drowns the twist's "
                       "inertia in rounding in the mass matrix and forward dynamics; give the "
                       "segment's length in metres$"):
        _load(str(path))


def _lone_dynamics_50_digits(q, v, a, length, gravity):
    """The mass matrix and inverse dynamics of _one_joint_model's body (neutral angles
    (0.1, 0.2, 0.3)) in 50 digits: Newton-Euler on OpenSim's placements (body-fixed turns
    about x, z, y; the arc's end as in _arc_end_50_digits), velocities and Jacobians by
    mpmath's differentiation of those placements."""
    import mpmath as mp
    mass, com = mp.mpf(2), mp.matrix(["0.1", "0.2", "0.3"])
    inertia = mp.matrix([["0.1", "0.01", "0.02"], ["0.01", "0.2", "0.03"],
                         ["0.02", "0.03", "0.25"]])

    def turn(axis, angle):
        c, s = mp.cos(angle), mp.sin(angle)
        i, j = [(1, 2), (2, 0), (0, 1)][axis]
        R = mp.eye(3)
        R[i, i], R[i, j], R[j, i], R[j, j] = c, -s, s, c
        return R

    def pose(x):
        a0, a1, a2 = (x[k] + mp.mpf(n) for k, n in enumerate(("0.1", "0.2", "0.3")))
        ux, uz = -mp.sin(a1), mp.sin(a0) * mp.cos(a1)
        s = mp.sqrt(ux * ux + uz * uz)
        th = mp.asin(s)
        f = length * (1 - mp.cos(th)) / th / s
        return turn(0, a0) * turn(2, a1) * turn(1, a2), mp.matrix([f * ux, length * s / th,
                                                                   f * uz])

    def along(x, dx, ddx=(0, 0, 0)):
        return lambda t: [x[k] + dx[k] * t + ddx[k] * t * t / 2 for k in range(3)]

    def com_at(x):
        R, p = pose(x)
        return p + R * com

    def spin(path, t):                       # the body's angular velocity in ground
        R = pose(path(t))[0]
        Rd = mp.matrix(3, 3)
        for i in range(3):
            for j in range(3):
                Rd[i, j] = mp.diff(lambda s: pose(path(s))[0][i, j], t)
        W = Rd * R.T
        return mp.matrix([W[2, 1], W[0, 2], W[1, 0]])

    with mp.workdps(50):
        q, v, a = ([mp.mpf(float(x)) for x in y] for y in (q, v, a))
        length = mp.mpf(float(length))
        moving = along(q, v, a)
        acc = mp.matrix([mp.diff(lambda t: com_at(moving(t))[k], 0, 2) for k in range(3)])
        w = spin(moving, 0)
        wd = mp.matrix([mp.diff(lambda t: spin(moving, t)[k], 0) for k in range(3)])
        R = pose(q)[0]
        I_world = R * inertia * R.T
        Iw = I_world * w
        force = mass * (acc - mp.matrix([float(g) for g in gravity]))
        torque = I_world * wd + mp.matrix([w[1] * Iw[2] - w[2] * Iw[1],
                                           w[2] * Iw[0] - w[0] * Iw[2],
                                           w[0] * Iw[1] - w[1] * Iw[0]])
        units = [[1 if k == i else 0 for k in range(3)] for i in range(3)]
        Jv = [mp.matrix([mp.diff(lambda t: com_at(along(q, e)(t))[k], 0) for k in range(3)])
              for e in units]
        Jw = [spin(along(q, e), 0) for e in units]
        tau = [sum(force[k] * Jv[i][k] + torque[k] * Jw[i][k] for k in range(3))
               for i in range(3)]
        M = [[mass * sum(Jv[i][k] * Jv[j][k] for k in range(3))
              + (Jw[i].T * I_world * Jw[j])[0] for j in range(3)] for i in range(3)]
        return (np.array([[float(x) for x in row] for row in M]),
                np.array([float(x) for x in tau]))


@pytest.mark.parametrize("length", [0.35, 1e3, -1e3])
def test_the_longest_arc_taken_keeps_its_dynamics(osim, tmp_path, length):
    """Bending the arc swings the child's mass over its length, so the bends' mass matrix
    entries outgrow the twist's inertia by mass x length² and their rounding lands on the
    twist's entries (the mass matrix's errors, relative to its smallest diagonal, grow as
    length²: 2e-9 at 1 km, 9e-8 at 10 km, 1.4e-5 at 100 km, all digits from 1e8 m; inverse
    dynamics keeps them). At the longest
    length taken the mass matrix (each entry against its diagonal's scale), inverse
    dynamics and forward dynamics are those of OpenSim's placements in 50 digits to 1e-8."""
    path = tmp_path / "long.osim"
    _one_joint_model(osim, path, (0.1, 0.2, 0.3), length)
    model = _load(str(path))
    q, v, a = np.array([0.3, 0.2, 0.1]), np.array([0.5, -0.4, 0.7]), np.array([1.1, -0.6, 0.9])
    M, tau = _lone_dynamics_50_digits(q, v, a, length, model.gravity)
    scale = np.sqrt(np.outer(np.diag(M), np.diag(M)))
    assert np.abs(model.mass_matrix(q) - M).max() / scale.min() < 1e-8
    np.testing.assert_allclose(model.inverse_dynamics(q, v, a), tau, rtol=1e-8)
    np.testing.assert_allclose(model.forward_dynamics(q, v, tau), a, rtol=1e-8)


class _CoreSpy:
    """The model's core, recording the q each compute call is handed."""

    def __init__(self, core):
        self._core, self.handed = core, []

    def __getattr__(self, name):
        return getattr(self._core, name)

    def compute(self, algo, inputs, *rest):
        self.handed.append(inputs[0])
        return self._core.compute(algo, inputs, *rest)


@pytest.mark.parametrize("dtype, order", [(np.int32, "C"), (np.float32, "C"),
                                          (np.float64, "F")])
def test_the_held_angle_check_converts_q_once(spine, monkeypatch, dtype, order):
    """The held-angle check reads q as float64 on every call of a model with the joint; the
    core converted it a second time. It now takes the array the check read, as it is (a
    float64 C-contiguous array it does not copy), and the results are the same."""
    model, _ = spine
    Q = np.asarray(model.random_configuration(6, seed=4).astype(dtype), order=order)
    V = np.zeros(Q.shape)
    expected = model.inverse_dynamics(np.array(Q, dtype=np.float64), V, V)
    spy = _CoreSpy(model._c)
    monkeypatch.setattr(model, "_c", spy)
    np.testing.assert_array_equal(model.inverse_dynamics(Q, V, V), expected)
    handed = spy.handed[-1]
    assert handed.dtype == np.float64 and handed.flags.c_contiguous
    np.testing.assert_array_equal(handed, Q)


SWITCH = (r"{source}: ConstantCurvatureJoint '{joint}' crosses OpenSim's switch between its "
          r"arc and a straight segment \(the sine of its bend at {sine}\) between t = 0\.02 and "
          r"0\.03 s \({coords} = {before}, then {after} rad\); 2 crossings in all: its child "
          r"jumps {jump} m there, in OpenSim and in urdf2dyn alike, so the velocities, "
          r"accelerations and joint moments differentiated across it are artefacts; keep the "
          r"joint's bend on one side of the switch \(another neutral angle, or the coordinates "
          r"kept off it\), or judge the results there apart$")

# c2's z angle crosses asin(0.001), c1's asin(0.999), between the third and fourth samples
# and back between the eighth and ninth (none on a switch itself); c1's x angle 0 (its
# neutral angle is -0.2, its z angle's 0.15)
_CROSSING = [("c2", 2, 5, 0.001, 0.0), ("c1", 1, 2, 0.999, 0.15)]
_CROSSING_STEPS = 1e-4 * np.array([-7.5, -4.5, -1.5, 1.5, 4.5, 7.5, 4.5, 1.5, -1.5, -4.5, -7.5])


def _crossing_motion():
    q = np.tile([0.0, 0.2, 0.5, 0.0, 0.0, 0.3, 0.0], (len(_CROSSING_STEPS), 1))
    for _, _, k, sine, neutral in _CROSSING:
        q[:, k] = np.arcsin(sine) + _CROSSING_STEPS - neutral
    return np.arange(len(_CROSSING_STEPS)) / 100, q


def _write_mot(path, t, q):
    path.write_text(f"m\nversion=1\nnRows={len(t)}\nnColumns=8\ninDegrees=no\nendheader\n"
                    + "time\t" + "\t".join(SPINE_Q) + "\n"
                    + "".join(f"{x:.17g}\t" + "\t".join(f"{v:.17g}" for v in row) + "\n"
                              for x, row in zip(t, q)))


def _trial_says(model, path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.inverse_dynamics_trial(model, path)
    return [str(w.message) for w in caught if "switch between its arc" in str(w.message)]


def test_a_trial_crossing_a_branch_switch_is_told_opensims_jump(spine, tmp_path):
    """OpenSim's child jumps where the sine of the bend crosses 0.001 (by L theta / 2) and
    0.999 (by 0.71 L), and urdf2dyn's with it: a trial across one is told so once per joint,
    naming the joint, the times and its coordinates at the first crossing, and the jump,
    which OpenSim's own placements on both sides of each switch give."""
    model, oracle = spine
    t, q = _crossing_motion()
    jumps = {}
    for joint, body, k, sine, neutral in _CROSSING:
        below, above = q[0].copy(), q[0].copy()
        below[k] = np.arcsin(sine) - 1e-9 - neutral
        above[k] = np.arcsin(sine) + 1e-9 - neutral
        jumps[joint] = np.linalg.norm(_poses(oracle, above)[body][1]
                                      - _poses(oracle, below)[body][1])
    assert jumps["c2"] == pytest.approx(0.2 * np.arcsin(0.001) / 2, rel=1e-4)
    assert jumps["c1"] == pytest.approx(0.71 * 0.35, rel=1e-2)
    motion = tmp_path / "crossing.mot"
    _write_mot(motion, t, q)
    told = _trial_says(model, motion)
    assert len(told) == 2, told
    for message, (joint, _, k, sine, _) in zip(sorted(told, reverse=True), _CROSSING):
        j = 1 if joint == "c1" else 4
        before, after = (", ".join(f"{x:g}" for x in q[r, j:j + 3]) for r in (2, 3))
        assert re.match(SWITCH.format(source=re.escape(str(motion)), joint=joint,
                                      sine=f"{sine:g}", coords=", ".join(SPINE_Q[j:j + 3]),
                                      before=re.escape(before), after=re.escape(after),
                                      jump=re.escape(f"{jumps[joint]:.3g}")), message), message


def test_a_trial_on_one_side_of_every_switch_is_not_told(spine, tmp_path):
    """On the arc throughout, or straight throughout: nothing to say; nor by the model's own
    functions, whose samples need not be a motion (random configurations cross freely)."""
    model, _ = spine
    t, q = _crossing_motion()
    arc, straight = q.copy(), q.copy()
    arc[:, 5] = np.abs(arc[:, 5]) + 0.01                   # c2's bend sine above 0.001
    arc[:, 2] = np.linspace(0.1, 1.2, len(t))              # c1's below 0.999
    straight[:, 5] = np.linspace(0, 5e-4, len(t))          # c2's below 0.001
    straight[:, 2] = arc[:, 2]
    for name, x in (("arc", arc), ("straight", straight)):
        _write_mot(tmp_path / f"{name}.mot", t, x)
        assert _trial_says(model, tmp_path / f"{name}.mot") == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.inverse_dynamics(q, np.zeros_like(q), np.zeros_like(q))


def test_a_missing_sample_is_no_branch_switch(spine):
    """A sample with a missing (NaN) coordinate has no bend and no branch: the check once
    read it as OpenSim's straight segment and told a motion on the arc throughout (the one
    test_a_trial_on_one_side_of_every_switch_is_not_told passes) of two crossings and a jump.
    Real crossings beside a gap are still told, and counted without the gap's two."""
    from urdf2dyn.biomech import plausibility
    model, _ = spine
    t, q = _crossing_motion()
    arc = q.copy()
    arc[:, 5] = np.abs(arc[:, 5]) + 0.01                   # c2's bend sine above 0.001
    arc[:, 2] = np.linspace(0.1, 1.2, len(t))              # c1's below 0.999
    arc[6, 4:7] = np.nan
    assert plausibility.arc_switches(model, t, arc, "arc.mot") == []
    gap = q.copy()
    gap[5, 4:7] = np.nan                # c2 on its arc from the fourth sample to the eighth
    told = plausibility.arc_switches(model, t, gap, "gap.mot")
    assert len(told) == 2 and all("between t = 0.02 and 0.03 s" in m for m in told), told
    assert "'c2'" in told[1] and "; 2 crossings in all" in told[1], told


def test_a_complex_q_is_refused_without_numpys_cast_warning(spine):
    """The held-angle check cast a complex q to float64 first, so a model with the joint gave
    NumPy's ComplexWarning (and a held-angle warning about the real parts) before the core
    refused the array; it now leaves the array to the core, which says what is wrong."""
    model, _ = spine
    q = np.full(model.nq, 2.0 + 1e-20j)                  # real parts past the bound
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match="^q: expected an array of real numbers, got dtype "
                                            "complex128"):
            model.inverse_dynamics(q, np.zeros(model.nv), np.zeros(model.nv))


@pytest.mark.parametrize("length", [350.0, 50.5, 999.0])
def test_an_arc_longer_than_any_body_is_read_as_opensim_reads_it_and_said(osim, tmp_path,
                                                                        length):
    """A spine segment's length written in millimetres (350 for 35 cm): OpenSim 4.6 reads
    metres and puts the body at the end of a 350 m arc, as urdf2dyn does (the placements
    equal OpenSim's), right dynamics of a wrong model, and urdf2dyn said nothing. An arc
    longer than 50 m is longer than any animal's whole body (the longest, blue whales and
    sauropods, reach 30 to 40 m), so it is said, with the length in metres if it was mm."""
    path = tmp_path / "mm.osim"
    _one_joint_model(osim, path, (0.1, 0.2, 0.3), length)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        model = urdf2dyn.load(str(path))
    said = [str(w.message) for w in said if issubclass(w.category, urdf2dyn.URDFWarning)
            and "<length>" in str(w.message)]
    assert len(said) == 1, said
    assert re.search(rf"mm.osim:\d+: joint 'j': <length>{re.escape(f'{length:g}')}: an arc of "
                     rf"{re.escape(f'{length:g}')} m, longer than any animal's whole body .* "
                     r"urdf2dyn reads metres, as OpenSim does: write "
                     rf"{re.escape(f'{length / 1000:g}')} if it is in mm$", said[0]), said[0]
    oracle = Oracle(osim, str(path), model.q_names)
    q = np.array([0.3, 0.2, 0.1])
    oracle.set_state(q)
    oracle.om.realizePosition(oracle.s)
    theirs = oracle.om.getBodySet().get("b").getPositionInGround(oracle.s).to_numpy()
    assert np.linalg.norm(theirs) > 0.9 * length
    np.testing.assert_allclose(model.forward_kinematics(q)[0][model.link_names.index("b")],
                               theirs, rtol=1e-12)


@pytest.mark.parametrize("length", [0.35, 15.0, 50.0])
def test_an_arc_an_animal_may_have_is_read_without_a_word(osim, tmp_path, length):
    """A human spine segment (0.35 m) and a sauropod's whole neck (15 m): nothing said of
    the length (the joint's own warning, on OpenSim's velocities, stays)."""
    path = tmp_path / "right.osim"
    _one_joint_model(osim, path, (0.1, 0.2, 0.3), length)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        urdf2dyn.load(str(path))
    said = [str(w.message) for w in said]
    assert len(said) == 1 and "<length>" not in said[0], said
