"""Inertial-parameter regressor and base-parameter identification.

Oracles: Pinocchio's computeJointTorqueRegressor and Inertia.toDynamicParameters (columns matched
by the name of the joint above each body), and Y pi = inverse dynamics (RNEA, itself checked
against Pinocchio and closed forms elsewhere). Identification: a simulated trial of robot2R and
arm7 (sums of sinusoids, exact derivatives), torques from inverse dynamics; the identified base
parameters must equal the model's own (projected) ones and predict the torques of another trial.
"""
import numpy as np
import pytest

from deriv_cases import CASES, Twin, pin, rel_err

import urdf2dyn


@pytest.fixture(scope="module", params=CASES)
def twin(request):
    return Twin(request.param)


def test_regressor_times_parameters_is_inverse_dynamics(twin):
    m = twin.model
    q, v, a = twin.state(1, n=5)
    Y, pi = m.regressor(q, v, a), m.inertial_parameters()
    assert Y.shape == (5, m.nv, 10 * len(m.bodies)) and pi.shape == (10 * len(m.bodies),)
    assert rel_err(Y @ pi, m.inverse_dynamics(q, v, a)) < 1e-12
    np.testing.assert_array_equal(Y[2], m.regressor(q[2], v[2], a[2]))


def test_regressor_matches_pinocchio(twin):
    m, pm, pd = twin.model, twin.pin_model, twin.pin_data
    pi_pin = np.concatenate([pm.inertias[pm.getJointId(j.name)].toDynamicParameters()
                             for j in m.joints])
    assert rel_err(m.inertial_parameters(), pi_pin) < 1e-12
    for seed in range(2):
        q, v, a = twin.state(10 + seed)
        Y = pin.computeJointTorqueRegressor(pm, pd, *twin.to_pin(q, v, a))
        ref = twin.perm.T @ np.asarray(Y)[:, twin.param_cols]
        assert rel_err(m.regressor(q, v, a), ref) < 1e-9


def test_parameter_names_follow_the_bodies():
    m = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    assert m.bodies == ("link1", "link2")
    names = m.parameter_names()
    assert names[:4] == ["link1.m", "link1.mcx", "link1.mcy", "link1.mcz"]
    assert names[10:] == ["link2." + p for p in
                          ("m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz")]
    pi = dict(zip(names, m.inertial_parameters()))
    # link2: mass 5, CoM at x = 1, Izz about the CoM 10 -> about the origin 10 + 5 * 1^2
    assert pi["link2.m"] == 5 and pi["link2.mcx"] == 5 and pi["link2.Izz"] == 15


def excitation(model, n, seed, duration=10.0, harmonics=4):
    """A periodic trial: q_j(t) = sum_k a_jk sin(k w t) + b_jk cos(k w t), with exact v, a."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, duration, n)
    w = 2 * np.pi / duration
    k = np.arange(1, harmonics + 1)
    A = rng.normal(scale=0.8 / k, size=(model.nv, harmonics))
    B = rng.normal(scale=0.8 / k, size=(model.nv, harmonics))
    s, c = np.sin(np.outer(t, k * w)), np.cos(np.outer(t, k * w))
    q = s @ A.T + c @ B.T
    v = (c * (k * w)) @ A.T - (s * (k * w)) @ B.T
    a = -(s * (k * w) ** 2) @ A.T - (c * (k * w) ** 2) @ B.T
    return q, v, a


@pytest.mark.parametrize("name, rank", [("robot2r", 6), ("arm7", None)])
def test_identify_recovers_base_parameters(name, rank):
    m = urdf2dyn.load(urdf2dyn.data_path(f"{name}.urdf"))
    m.gravity = (0.0, -9.81, 0.0)
    q, v, a = excitation(m, 400, seed=3)
    tau = m.inverse_dynamics(q, v, a)
    result = urdf2dyn.identify(m, (q, v, a), tau)
    truth = result.project(m.inertial_parameters())
    if rank is not None:        # planar 2R with gravity: ZZ1R, MX1R, MY1, ZZ2, MX2, MY2
        assert len(result.values) == rank
    assert rel_err(result.values, truth) < 1e-8
    assert result.residual < 1e-9 * np.abs(tau).max()
    # the base parameters predict the torques of another trial
    q2, v2, a2 = excitation(m, 100, seed=4)
    Y2 = m.regressor(q2, v2, a2)[..., result.independent]
    assert rel_err(Y2 @ result.values, m.inverse_dynamics(q2, v2, a2)) < 1e-8
    assert len(result.combinations) == len(result.values)
    # noisy torques: the estimate degrades gracefully
    noisy = tau + np.random.default_rng(5).normal(scale=1e-3 * np.abs(tau).max(), size=tau.shape)
    est = urdf2dyn.identify(m, (q, v, a), noisy).values
    assert rel_err(est, truth) < 0.05


def test_identify_robot2r_combinations():
    """link2's mass sits on joint2's axis, 2 m along link1: to the torques it is the same as a
    point mass on link1 at (2, 0, 0), i.e. link1's m, mcx, Izz (and Iyy) growing by m2, 2 m2,
    4 m2 (4 m2). So moving mass that way changes no torque and no base parameter
    (ZZ1R = Izz1 + 4 m2 and MX1R = mcx1 + 2 m2 of the textbook, Khalil & Dombre)."""
    m = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    m.gravity = (0.0, -9.81, 0.0)
    q, v, a = excitation(m, 200, seed=1)
    base = urdf2dyn.base_parameters(m, q, v, a)
    idx = {n: k for k, n in enumerate(m.parameter_names())}
    n = np.zeros(20)
    n[idx["link2.m"]] = 1.0
    for name, c in (("link1.m", 1.0), ("link1.mcx", 2.0), ("link1.Izz", 4.0), ("link1.Iyy", 4.0)):
        n[idx[name]] = -c
    pi = m.inertial_parameters()
    assert np.abs(m.regressor(q, v, a) @ n).max() < 1e-9
    np.testing.assert_allclose(base.project(pi + 0.7 * n), base.project(pi), atol=1e-9)
    # and a parameter that shows alone (link2.Izz) does change one
    e = np.zeros(20)
    e[idx["link2.Izz"]] = 1.0
    assert np.abs(base.project(pi + e) - base.project(pi)).max() > 0.5


def test_identify_rejects_bad_shapes():
    m = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    q, v, a = excitation(m, 10, seed=0)
    with pytest.raises(ValueError, match="torques must have shape"):
        urdf2dyn.identify(m, (q, v, a), np.zeros((9, 2)))


def test_identify_takes_the_armature_as_known():
    """An MJCF joint's armature is in inverse dynamics but not in the regressor (Y pi +
    armature * a): identify removes the model's armature * a from the torques before the
    fit, so torques from inverse_dynamics give the model's own base parameters back."""
    xml = """<mujoco><worldbody>
      <body name="l1"><joint name="j1" axis="0 0 1" armature="0.3"/>
        <geom type="capsule" fromto="0 0 0 1 0 0" size="0.05" mass="2"/>
        <body name="l2" pos="1 0 0"><joint name="j2" axis="0 0 1" armature="0.1"/>
          <geom type="capsule" fromto="0 0 0 1 0 0" size="0.05" mass="1"/>
        </body></body></worldbody></mujoco>"""
    m = urdf2dyn.load(xml)
    assert m.armature.tolist() == [0.3, 0.1]
    m.gravity = (0.0, -9.81, 0.0)
    q, v, a = excitation(m, 200, seed=3)
    tau = m.inverse_dynamics(q, v, a)
    result = urdf2dyn.identify(m, (q, v, a), tau)
    assert rel_err(result.values, result.project(m.inertial_parameters())) < 1e-8
    assert result.residual < 1e-9 * np.abs(tau).max()
