"""Residual reduction (urdf2dyn.biomech.residuals, .actuators, .bsplines): the actuators'
meaning against OpenSim's,
the residual wrench against urdf2dyn's other root-residual code, the model's changes found
where the data were made with them, kinematic corrections that undo a disturbance, the
banded solver against a dense one, and what cannot run."""
import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import urdf2dyn
from urdf2dyn.biomech.formats.opensim import read_external_loads, read_opensim
from urdf2dyn.biomech.formats.rra_setup import Actuator, read_actuators
from urdf2dyn.biomech.grf import root_residuals
from urdf2dyn.biomech.opensim_processing import id_kinematics
from urdf2dyn.biomech.splines import quintic_eval
from urdf2dyn.biomech.actuators import (actuator_forces, actuator_matrix, default_actuators,
                                        root_body)
from urdf2dyn.biomech.bsplines import Normal
from urdf2dyn.biomech.residuals import ResidualError, _shift_params, reduce_residuals

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "opensim_models",
                    "Gait2354_Simbody")
MODEL = os.path.join(DATA, "subject01_simbody.osim")


@pytest.fixture(scope="module")
def gait2354():
    return urdf2dyn.load(MODEL)


@pytest.fixture(scope="module")
def walk(gait2354):
    """0.4 s of the published walk at 1 kHz (filtered at 6 Hz, OpenSim's splines) and its
    ground reactions."""
    model = gait2354
    traj = read_opensim(os.path.join(DATA, "subject01_walk1_ik.mot"), model=model)
    t, q, _, _ = traj.for_model(model)
    tk, qk, vk, ak = id_kinematics(t, q, 6.0)
    grid = 0.8 + np.arange(401) / 1000
    q, v, a = (quintic_eval(tk, qk, vk, ak, grid, k) for k in range(3))
    loads = read_external_loads(os.path.join(DATA, "subject01_walk1_grf.xml"))
    return grid, q, v, a, loads.wrenches(model, grid, q, interpolation="spline")


# ----------------------------------------------------------------------------- the actuators

def _opensim_columns(osim, path, actuators, Q):
    """B (N, nv, nact) by OpenSim: each actuator's force set to 1 alone (override), the
    generalized force it makes is the difference of two inverse-dynamics solutions."""
    from osim_oracle import Oracle
    model = urdf2dyn.load(path)
    oracle = Oracle(osim, path, model.q_names)
    for a in actuators:
        oracle.om.addForce(a)
    oracle.s = oracle.om.initSystem()
    acts = [osim.ScalarActuator.safeDownCast(oracle.om.getForceSet().get(a.getName()))
            for a in actuators]
    zero = np.zeros(model.nv)
    out = np.zeros((len(Q), model.nv, len(acts)))
    for n, q in enumerate(Q):
        for act in acts:
            act.overrideActuation(oracle.s, True)
            act.setOverrideActuation(oracle.s, 0.0)
        base = oracle.inverse_dynamics(q, zero, zero)
        for k, act in enumerate(acts):
            act.setOverrideActuation(oracle.s, 1.0)
            out[n, :, k] = base - oracle.inverse_dynamics(q, zero, zero)
            act.setOverrideActuation(oracle.s, 0.0)
    return out


def test_actuators_mean_what_opensim_makes_of_them(osim, gait2354):
    """Published residual actuators plus every frame option (a local direction, a point in
    ground, a local axis, a torque between two bodies): the generalized force per unit force
    equals OpenSim's at random poses."""
    path = os.path.join(DATA, "gait2354_RRA_Actuators.xml")
    ours = read_actuators(path)[:6] + [
        Actuator("Plocal", "point", 3.0, body="torso", point=(0.1, 0.3, -0.05),
                 direction=(0.3, -1.0, 0.2), force_is_global=False),
        Actuator("Pground", "point", 1.0, body="femur_r", point=(0.2, 0.9, 0.1),
                 point_is_global=True, direction=(0, 0, 1), force_is_global=True),
        Actuator("Tlocal", "torque", 1.0, body="torso", body_b="pelvis", axis=(1, 1, 0),
                 torque_is_global=False),
        Actuator("knee", "coordinate", 100.0, coordinate="knee_angle_r")]
    theirs = []
    for a in ours:
        if a.kind == "point":
            x = osim.PointActuator(a.body)
            x.set_point(osim.Vec3(*a.point))
            x.set_point_is_global(a.point_is_global)
            x.set_direction(osim.Vec3(*a.direction))
            x.set_force_is_global(a.force_is_global)
        elif a.kind == "torque":
            x = osim.TorqueActuator()
            x.set_bodyA(a.body)
            x.set_bodyB(a.body_b or "ground")
            x.set_axis(osim.Vec3(*a.axis))
            x.set_torque_is_global(a.torque_is_global)
        else:
            x = osim.CoordinateActuator(a.coordinate)
        x.setName(a.name)
        x.set_optimal_force(a.optimal_force)
        theirs.append(x)
    Q = np.random.default_rng(2).uniform(-0.8, 0.8, (4, gait2354.nq))
    expected = _opensim_columns(osim, MODEL, theirs, Q)
    got = actuator_matrix(gait2354, ours, Q)
    assert np.abs(got - expected).max() <= 1e-9 * np.abs(expected).max()


@pytest.mark.parametrize("which", ["humod", "gait2354"])
def test_default_residuals_are_the_root_wrench(which, gait2354):
    """FX .. MZ of the default actuators (ground axes, at the root body's origin) are the
    root residual wrench urdf2dyn.biomech.grf.root_residuals finds another way, on the HuMoD
    human's 6-DoF root chain and on an OpenSim pelvis (one 6-coordinate custom joint)."""
    if which == "humod":
        model = urdf2dyn.humod_subject("A")
    else:
        model = gait2354
    acts = default_actuators(model)
    assert root_body(model) == "pelvis" and [a.name for a in acts[:6]] == [
        "FX", "FY", "FZ", "MX", "MY", "MZ"]
    rng = np.random.default_rng(0)
    q = rng.normal(0, 0.3, (6, model.nq))
    tau = rng.normal(0, 50, (6, model.nv))
    f = actuator_forces(model, acts, q, tau)
    r = root_residuals(model, q, tau)
    assert np.allclose(f[:, :3], r.force, atol=1e-10)
    assert np.allclose(f[:, 3:6], r.moment, atol=1e-10)
    assert np.allclose(f[:, 6:], tau[:, 6:], atol=1e-12)       # one actuator per coordinate


def test_shared_coordinates_split_by_optimal_force(gait2354):
    """Two actuators on one coordinate share its force as OpenSim's RRA would (least sum of
    squared controls: in proportion to the squared optimal forces); a locked coordinate's
    force is the lock's."""
    acts = default_actuators(gait2354) + [Actuator("knee2", "coordinate", 2.0,
                                                   coordinate="knee_angle_r")]
    knee = next(k for k, a in enumerate(acts) if a.coordinate == "knee_angle_r")
    q = np.zeros((1, gait2354.nq))
    tau = np.arange(1.0, gait2354.nv + 1)[None]
    f = actuator_forces(gait2354, acts, q, tau)
    j = gait2354.v_names.index("knee_angle_r")
    assert f[0, knee] == pytest.approx(tau[0, j] / 5) and f[0, -1] == pytest.approx(
        4 * tau[0, j] / 5)
    B = actuator_matrix(gait2354, acts, q)
    assert np.allclose(B[0] @ f[0], tau[0])


# ----------------------------------------------------------------------------- the fit

def _consistent(model, walk, pi, extra_rows=None):
    """Loads that make (walk's kinematics, the model with parameters pi) exactly consistent:
    the ground reactions plus, on the pelvis, the residual wrench they leave."""
    t, q, v, a, f_ext = walk
    tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)
    tau = tau + model.regressor(q, v, a) @ (pi - model.inertial_parameters())
    acts = default_actuators(model)
    res = actuator_forces(model, acts, q, tau)[:, :6]
    pos, _ = model.forward_kinematics(q)
    o = pos[:, model.link_names.index("pelvis")]
    F, M = res[:, :3], res[:, 3:]
    loads = dict(f_ext)
    loads["pelvis"] = np.concatenate([F, M + np.cross(o, F)], axis=1)   # about the origin
    return loads


def test_mass_and_centre_of_mass_are_found(gait2354, walk):
    """Data made consistent with every mass 2 % larger and the torso's mass centre moved
    2 cm forward and 1 cm sideways (in the plane across gravity at the trial's mean torso
    pose, where the fit moves it): with the kinematics held, the fit finds that model (up
    to the prior's pull towards no change)."""
    model = gait2354
    t, q, v, a, _ = walk
    _, R = model.forward_kinematics(q)
    up = (R[:, model.link_names.index("torso")].transpose(0, 2, 1) @ [0, 1, 0]).mean(axis=0)
    up /= np.linalg.norm(up)
    forward = np.cross([0, 0, 1], up)
    forward /= np.linalg.norm(forward)
    side = np.cross(up, forward)
    shift = 0.02 * forward + 0.01 * side
    pi0 = model.inertial_parameters()
    ib = model.bodies.index("torso")
    pi = pi0 * 1.02
    pi[10 * ib:10 * ib + 10] = _shift_params(pi[10 * ib:10 * ib + 10], shift)
    loads = _consistent(model, walk, pi)
    red = reduce_residuals(model, t, q, v, a, loads, tracking={}, com_body="torso")
    assert red.mass_scale - 1 == pytest.approx(0.02, rel=0.03)
    assert np.linalg.norm(red.com_shift - shift) < 0.03 * np.linalg.norm(shift)
    before = np.sqrt(np.mean(red.residual_before ** 2, axis=0))
    after = np.sqrt(np.mean(red.residuals ** 2, axis=0))
    assert np.all(after < 0.02 * before) and red.change_rms == {}


def _bump(t, at, width, size):
    """A smooth bump (Gaussian) and its first and second derivatives."""
    x = (t - at) / width
    g = size * np.exp(-x * x)
    return g, g * (-2 * x / width), g * (4 * x * x - 2) / width ** 2


def _disturbed(model, walk, coordinate, width, size):
    """walk made consistent, then one coordinate moved by a bump at 1.0 s: (q, v, a of the
    disturbed trial, its loads, the coordinate's index, the bump and its derivatives)."""
    t, q, v, a, _ = walk
    loads = _consistent(model, walk, model.inertial_parameters())
    j = model.q_names.index(coordinate)
    q2, v2, a2 = q.copy(), v.copy(), a.copy()
    bump = _bump(t, 1.0, width, size)
    for x, d in zip((q2, v2, a2), bump):
        x[:, j] += d
    return q2, v2, a2, loads, j, bump


def test_kinematic_disturbance_is_undone(gait2354, walk):
    """Consistent data, then the pelvis moved forward by a smooth 3 mm bump: the residuals
    vanish, the correction takes most of the bump's acceleration back on pelvis_tx itself
    (the cheapest way; the legs share a little of it) and no other coordinate moves as
    much."""
    t, _, _, a, _ = walk
    q2, v2, a2, loads, j, bump = _disturbed(gait2354, walk, "pelvis_tx", 0.04, 0.003)
    red = reduce_residuals(gait2354, t, q2, v2, a2, loads, adjust_mass=False)
    fx = red.residual_names.index("FX")
    assert np.abs(red.residual_before[:, fx]).max() > 100          # N, what the bump makes
    assert np.sqrt(np.mean(red.residuals ** 2, axis=0)).max() < 0.5
    left = red.a[:, j] - a[:, j]
    assert np.sqrt(np.mean(left ** 2)) < 0.15 * np.sqrt(np.mean(bump[2] ** 2))
    assert max(red.change_rms, key=red.change_rms.get) == "pelvis_tx"


def test_a_coordinate_is_held_inside_its_band(gait2354, walk):
    """A disturbance that would take 3 cm RMS to undo, and only pelvis_tx free to move: the
    correction stops inside OpenSim's 2 cm band, and the residuals shrink as far as that
    allows."""
    t = walk[0]
    q2, v2, a2, loads, _, bump = _disturbed(gait2354, walk, "pelvis_tx", 0.08, 0.06)
    assert np.sqrt(np.mean(bump[0] ** 2)) > 0.025
    red = reduce_residuals(gait2354, t, q2, v2, a2, loads, adjust_mass=False,
                           tracking={"pelvis_tx": 1.0})
    assert 0.012 < red.change_rms["pelvis_tx"] <= 0.02
    before = np.sqrt(np.mean(red.residual_before ** 2))
    assert np.sqrt(np.mean(red.residuals ** 2)) < 0.7 * before


def test_the_banded_solver_is_a_dense_solve():
    rng = np.random.default_rng(0)
    for K, na, ng in ((11, 3, 2), (12, 2, 0), (13, 4, 3), (4, 2, 1), (40, 5, 3)):
        A = Normal(K, na, ng)
        D = np.zeros((K * na + ng,) * 2)
        M = []
        for i in range(K - 3):
            X = rng.normal(size=(20, 4 * na))
            M.append(X.T @ X)
            D[i * na:(i + 4) * na, i * na:(i + 4) * na] += M[-1]
        A.add_intervals(np.array(M))
        for k in range(K):
            A.band[k, 0] += np.eye(na)
            D[k * na:(k + 1) * na, k * na:(k + 1) * na] += np.eye(na)
        if ng:
            C = rng.normal(size=(K * na, ng))
            A.cross[:] = C.reshape(K, na, ng)
            D[:K * na, K * na:], D[K * na:, :K * na] = C, C.T
            G = rng.normal(size=(ng, ng))
            A.dense[:] = G @ G.T + 50 * np.eye(ng)
            D[K * na:, K * na:] = A.dense
        g = rng.normal(size=K * na + ng)
        assert np.allclose(A.solve(g), np.linalg.solve(D, g), rtol=0, atol=1e-12)


# ----------------------------------------------------------------------------- what cannot run

def test_what_cannot_run_is_named(gait2354, walk):
    t, q, v, a, f = walk
    with pytest.raises(ResidualError, match=r"expected \(N,\), \(N, 23\)"):
        reduce_residuals(gait2354, t, q[:, :5], v, a, f)
    with pytest.raises(ResidualError, match="must increase"):
        reduce_residuals(gait2354, t[::-1], q, v, a, f)
    bad = q.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ResidualError, match=r"q: not finite at 1 samples"):
        reduce_residuals(gait2354, t, bad, v, a, f)
    with pytest.raises(ResidualError, match="no actuator acts on the root 'pelvis'"):
        reduce_residuals(gait2354, t, q, v, a, f, actuators=[
            Actuator("knee", "coordinate", coordinate="knee_angle_r")])
    with pytest.raises(ValueError, match="body 'spine' is not a link"):
        reduce_residuals(gait2354, t, q, v, a, f, actuators=[
            Actuator("F", "point", body="spine")])
    with pytest.raises(ResidualError, match="com_body: 'head' is not a moving body"):
        reduce_residuals(gait2354, t, q, v, a, f, com_body="head")
    with pytest.warns(urdf2dyn.Urdf2dynWarning,
                      match=r"\['lumbar_extension'.*have no actuator") as said:
        reduce_residuals(gait2354, t[:40], q[:40], v[:40], a[:40],
                         {k: x[:40] for k, x in f.items()}, tracking={}, adjust_mass=False,
                         actuators=default_actuators(gait2354)[:6])
    # attributed to the caller's line, not to urdf2dyn's inside
    assert {w.filename for w in said} == {__file__}, [(w.filename, w.lineno) for w in said]


@settings(max_examples=6, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(amp=st.lists(st.floats(-0.01, 0.01), min_size=3, max_size=3),
       at=st.floats(0.85, 1.1), mass=st.booleans())
def test_the_fit_only_goes_downhill(gait2354, walk, amp, at, mass):
    """Any smooth disturbance of three coordinates: the residuals never end larger than
    they began, and no coordinate leaves its band."""
    t, q, v, a, f = walk
    q2, v2, a2 = q.copy(), v.copy(), a.copy()
    for j, size in zip((3, 6, 10), amp):
        for x, d in zip((q2, v2, a2), _bump(t, at, 0.03, size)):
            x[:, j] += d
    red = reduce_residuals(gait2354, t, q2, v2, a2, f, adjust_mass=mass,
                           com_body="torso" if mass else None)
    w = 1 / np.array([a.optimal_force for a in red.actuators])[red.residual]
    assert np.mean((red.residuals * w) ** 2) <= np.mean((red.residual_before * w) ** 2)
    rot = {n for n in gait2354.v_names if not n.endswith(("_tx", "_ty", "_tz"))}
    for name, rms in red.change_rms.items():
        assert rms <= (math.radians(2) if name in rot else 0.02) * 1.001


# ----------------------------------------------------------------------------- the trial stage

def test_the_residuals_pass_on_a_urdf_human():
    """inverse_dynamics_trial(..., reduce_residuals=True) on the bundled HuMoD running trial
    (a URDF human, 200 Hz, ground reactions): the residuals pass runs after dynamics, the
    adjusted trial's torques are inverse dynamics of its adjusted kinematics, its root
    residuals shrink, the model is left alone; without the keyword the pass does nothing."""
    from urdf2dyn.bundled import data_path
    human = urdf2dyn.humod_subject("A")
    plain = urdf2dyn.inverse_dynamics_trial(human, data_path("running_a_3ms.csv"),
                                            data_path("running_a_3ms_grf.csv"),
                                            filter_hz=15, time_range=(1.0, 1.6))
    res = urdf2dyn.inverse_dynamics_trial(human, data_path("running_a_3ms.csv"),
                                          data_path("running_a_3ms_grf.csv"),
                                          filter_hz=15, time_range=(1.0, 1.6),
                                          reduce_residuals=True)
    assert "residual_reduction" not in plain.record
    red = res.record["residual_reduction"]
    assert red.mass_scale == 1.0 and red.com_body is None
    assert np.allclose(res.tau, human.inverse_dynamics(res.q, res.v, res.a, f_ext=res.f_ext),
                       atol=1e-9)
    assert np.allclose(red.residual_before, np.concatenate(
        [plain.residuals.force, plain.residuals.moment], axis=1), atol=1e-9)
    before, after = plain.residuals.summary(), res.residuals.summary()
    assert after["force_rms"] < 0.2 * before["force_rms"]
    assert after["moment_rms"] < 0.2 * before["moment_rms"]
    with pytest.raises(ValueError, match="needs the trial's external loads"):
        urdf2dyn.inverse_dynamics_trial(human, data_path("running_a_3ms.csv"),
                                        time_range=(1.0, 1.1), reduce_residuals=True)
    with pytest.raises(TypeError, match="reduce_residuals: expected True"):
        urdf2dyn.inverse_dynamics_trial(human, data_path("running_a_3ms.csv"),
                                        reduce_residuals="yes")


def test_the_command_line_option(capsys):
    from urdf2dyn import cli
    argv = ["torques", MODEL, os.path.join(DATA, "subject01_walk1_ik.mot"), "--external-loads",
            os.path.join(DATA, "subject01_walk1_grf.xml"), "--filter", "6", "--time-range",
            "0.75", "1.25", "--reduce-residuals", "--com-body", "torso"]
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert "residual reduction (" in text and "torso mass centre moved" in text
    assert cli.main(argv[:-3] + ["--com-body", "torso"]) == 2
    assert "add --reduce-residuals" in capsys.readouterr().err


def test_a_coupled_coordinate_follows_its_independent_one():
    """Rajagopal's patella (knee_angle_r_beta = knee_angle_r, a CoordinateCouplerConstraint):
    a knee motion made consistent by a pelvis wrench, then the knee bent by a bump, its
    patella with it. The correction bends the knee back and the patella follows (as OpenSim's
    RRA holds the constraint); the knee's actuator bears the patella's force too, and the
    patella has no actuator of its own."""
    path = os.path.join(DATA, "..", "Models", "Rajagopal2016.osim")
    model = urdf2dyn.load(path)
    knee, beta = (model.v_names.index(n) for n in ("knee_angle_r", "knee_angle_r_beta"))
    t = np.arange(301) / 1000
    w = 2 * math.pi * 1.5
    q, v, a = (np.zeros((len(t), model.nv)) for _ in range(3))
    q[:, model.v_names.index("pelvis_ty")] = 0.95
    q[:, knee], v[:, knee], a[:, knee] = (0.6 + 0.4 * np.sin(w * t), 0.4 * w * np.cos(w * t),
                                          -0.4 * w * w * np.sin(w * t))
    q, v, a = model.apply_couplers(q, v, a)
    loads = _consistent(model, (t, q, v, a, {}), model.inertial_parameters())
    q2, v2, a2 = q.copy(), v.copy(), a.copy()
    for x, d in zip((q2, v2, a2), _bump(t, 0.15, 0.03, 0.08)):
        x[:, knee] += d
    q2, v2, a2 = model.apply_couplers(q2, v2, a2)
    red = reduce_residuals(model, t, q2, v2, a2, loads, adjust_mass=False,
                           tracking={"knee_angle_r": 1.0})
    before = np.sqrt(np.mean(red.residual_before ** 2))
    assert before > 5 and np.sqrt(np.mean(red.residuals ** 2)) < 0.2 * before
    assert red.change_rms["knee_angle_r"] > 0.01 and beta not in red.adjusted
    for x, y in zip((red.q, red.v, red.a), model.apply_couplers(red.q, red.v, red.a)):
        assert np.allclose(x, y, atol=1e-12)
    assert "knee_angle_r_beta" not in [x.name for x in red.actuators]
    k = [x.name for x in red.actuators].index("knee_angle_r")
    assert np.allclose(red.forces[:, k], red.tau[:, knee] + red.tau[:, beta], atol=1e-8)
