"""The thesis' robot2R (``urdf2dyn/data/robot2r.urdf``) against a closed-form planar 2R model.

Derivation (Lagrange). Both joints turn about z, the arm moves in the x-y plane and gravity is
``g = (0, -g, 0)``. Link 1: mass m1, CoM at distance r1 from joint 1, length l1 (joint 2 sits at
x = l1 of link 1); link 2: mass m2, CoM at distance r2 from joint 2. I1, I2 are the inertias about
z through the CoMs (URDF ``izz``). With c1 = cos q1, s1 = sin q1, c2 = cos q2, c12 = cos(q1 + q2)::

    p1 = r1 (c1, s1)                    w1 = qd1
    p2 = l1 (c1, s1) + r2 (c12, s12)    w2 = qd1 + qd2

    T = 1/2 m1 |p1'|^2 + 1/2 I1 w1^2 + 1/2 m2 |p2'|^2 + 1/2 I2 w2^2
      = 1/2 qd^T M(q) qd
    V = g (m1 r1 s1 + m2 (l1 s1 + r2 s12))           (potential m g y: gravity along -y)

    M11 = I1 + m1 r1^2 + I2 + m2 (l1^2 + r2^2 + 2 l1 r2 c2)
    M12 = M21 = I2 + m2 (r2^2 + l1 r2 c2)
    M22 = I2 + m2 r2^2

Euler-Lagrange, tau = d/dt dL/dqd - dL/dq = M qdd + C(q, qd) qd + G(q), with h = m2 l1 r2 s2
(= -1/2 dM11/dq2 = -dM12/dq2; M does not depend on q1)::

    C qd = ( -h (2 qd1 qd2 + qd2^2),  h qd1^2 )
    G    = ( g (m1 r1 + m2 l1) c1 + g m2 r2 c12,  g m2 r2 c12 )

Thesis numbers: m1 = 3, l1 = 2, r1 = 1, I1 = 15.6, m2 = 5, r2 = 1, I2 = 10, g = 9.81.
(The thesis' eq. 2.20 has this structure but its printed form has typos: it writes l2 where the
CoM distance belongs, and stray "- Izz q" terms where "Izz qdd" terms belong.)

ixx, iyy (and ixy, ixz, iyz) of either link never enter: the angular velocity is always along z,
so only izz contributes to T, and the z-component of omega x (I omega) vanishes.
"""

import importlib.resources

import numpy as np
import pytest

import urdf2dyn

M1, L1, R1, I1 = 3.0, 2.0, 1.0, 15.6
M2, R2, I2 = 5.0, 1.0, 10.0
G = 9.81
GRAVITY = (0.0, -G, 0.0)


# --------------------------------------------------------------------------- the closed form
def mass_matrix_2r(q):
    """M(q), shape (..., 2, 2)."""
    q = np.asarray(q, dtype=float)
    c2 = np.cos(q[..., 1])
    m12 = I2 + M2 * (R2**2 + L1 * R2 * c2)
    m11 = I1 + M1 * R1**2 + I2 + M2 * (L1**2 + R2**2 + 2.0 * L1 * R2 * c2)
    m22 = np.full_like(c2, I2 + M2 * R2**2)
    return np.stack([np.stack([m11, m12], -1), np.stack([m12, m22], -1)], -2)


def coriolis_2r(q, v):
    """C(q, qd) qd, shape (..., 2)."""
    q, v = np.asarray(q, dtype=float), np.asarray(v, dtype=float)
    h = M2 * L1 * R2 * np.sin(q[..., 1])
    return np.stack([-h * (2.0 * v[..., 0] * v[..., 1] + v[..., 1] ** 2), h * v[..., 0] ** 2], -1)


def gravity_2r(q, g=G):
    """G(q) for gravity (0, -g, 0), shape (..., 2)."""
    q = np.asarray(q, dtype=float)
    c1, c12 = np.cos(q[..., 0]), np.cos(q[..., 0] + q[..., 1])
    return np.stack([g * (M1 * R1 + M2 * L1) * c1 + g * M2 * R2 * c12, g * M2 * R2 * c12], -1)


def tau_2r(q, v, a, g=G):
    """Closed-form inverse dynamics, shape (..., 2)."""
    a = np.asarray(a, dtype=float)
    m_a = np.einsum("...ij,...j->...i", mass_matrix_2r(q), a)
    return m_a + coriolis_2r(q, v) + gravity_2r(q, g)


# --------------------------------------------------------------------------- helpers
def data_path(name):
    return importlib.resources.files("urdf2dyn") / "data" / name


def load_robot2r(text=None):
    if text is None:
        with importlib.resources.as_file(data_path("robot2r.urdf")) as path:
            model = urdf2dyn.load(str(path))
    else:
        model = urdf2dyn.load(text)
    model.gravity = GRAVITY
    return model


def assert_rel_close(actual, expected, rtol):
    """Elementwise, relative to the largest magnitude of ``expected`` (robust near zeros)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape
    scale = max(1.0, float(np.max(np.abs(expected))))
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale)


def random_states(rng, n):
    q = rng.uniform(-np.pi, np.pi, (n, 2))
    v = rng.normal(0.0, 3.0, (n, 2))
    a = rng.normal(0.0, 10.0, (n, 2))
    return q, v, a


@pytest.fixture(scope="module")
def model():
    return load_robot2r()


# --------------------------------------------------------------------------- the oracle itself
def test_closed_form_matches_numerical_euler_lagrange():
    """Check the derivation: Euler-Lagrange by finite differences of L = T - V built from the
    CoM positions (not from M), independent of the algebra in the docstring."""

    def com_and_omega(q, v):
        c1, s1 = np.cos(q[0]), np.sin(q[0])
        c12, s12 = np.cos(q[0] + q[1]), np.sin(q[0] + q[1])
        p1 = R1 * np.array([c1, s1])
        p2 = L1 * np.array([c1, s1]) + R2 * np.array([c12, s12])
        dp1 = R1 * np.array([-s1, c1]) * v[0]
        dp2 = L1 * np.array([-s1, c1]) * v[0] + R2 * np.array([-s12, c12]) * (v[0] + v[1])
        return p1, p2, dp1, dp2, v[0], v[0] + v[1]

    def lagrangian(q, v):
        p1, p2, dp1, dp2, w1, w2 = com_and_omega(q, v)
        kinetic = 0.5 * (M1 * dp1 @ dp1 + I1 * w1**2 + M2 * dp2 @ dp2 + I2 * w2**2)
        potential = G * (M1 * p1[1] + M2 * p2[1])
        return kinetic - potential

    def grad(f, x, h):
        e = np.eye(len(x))
        return np.array([(f(x + h * e[i]) - f(x - h * e[i])) / (2 * h) for i in range(len(x))])

    rng = np.random.default_rng(20)
    for q, v, a in zip(*random_states(rng, 20)):
        def momentum(q_, v_):
            return grad(lambda w: lagrangian(q_, w), v_, 1e-3)  # L quadratic in v: exact
        h = 1e-5  # d/dt along q(t) = q + v t + a t^2 / 2, v(t) = v + a t
        dp_dt = (momentum(q + v * h + 0.5 * a * h * h, v + a * h)
                 - momentum(q - v * h + 0.5 * a * h * h, v - a * h)) / (2 * h)
        tau = dp_dt - grad(lambda x: lagrangian(x, v), q, 1e-5)
        assert_rel_close(tau_2r(q, v, a), tau, 1e-6)


def test_gravity_at_rest_by_hand():
    # Arm stretched along +x, at rest: tau1 = g (m1 r1 + m2 (l1 + r2)), tau2 = g m2 r2.
    np.testing.assert_allclose(tau_2r([0, 0], [0, 0], [0, 0]), [9.81 * 18, 9.81 * 5], rtol=1e-15)


# --------------------------------------------------------------------------- urdf2dyn
def test_model_structure(model):
    assert model.nq == 2 and model.nv == 2
    assert [j.name for j in model.joints] == ["joint1", "joint2"]
    assert list(model.q_names) == ["joint1", "joint2"]
    assert [(j.parent, j.child) for j in model.joints] == [("world", "link1"), ("link1", "link2")]
    assert [j.q_index for j in model.joints] == [0, 1]
    assert set(model.link_names) == {"world", "link1", "link2"}
    np.testing.assert_array_equal(np.asarray(model.gravity, dtype=float), GRAVITY)


def test_single_samples(model):
    rng = np.random.default_rng(1)
    for q, v, a in zip(*random_states(rng, 200)):
        tau = model.inverse_dynamics(q, v, a)
        assert tau.shape == (2,) and tau.dtype == np.float64
        assert_rel_close(tau, tau_2r(q, v, a), 1e-10)


def test_batch(model):
    rng = np.random.default_rng(2)
    q, v, a = random_states(rng, 5000)
    tau = model.inverse_dynamics(q, v, a)
    assert tau.shape == (5000, 2) and tau.dtype == np.float64
    assert_rel_close(tau, tau_2r(q, v, a), 1e-10)
    # every row also within 1e-10 of its own magnitude
    ref = tau_2r(q, v, a)
    err = np.max(np.abs(tau - ref), axis=1) / np.maximum(1.0, np.max(np.abs(ref), axis=1))
    assert err.max() < 1e-10
    np.testing.assert_array_equal(model.rnea(q, v, a), tau)


def test_terms_separately(model):
    rng = np.random.default_rng(3)
    q, v, a = random_states(rng, 500)
    zero = np.zeros_like(q)
    model.gravity = (0.0, 0.0, 0.0)
    try:
        # M a alone (v = 0, no gravity), column by column of M
        for k in range(2):
            e = np.zeros_like(q)
            e[:, k] = 1.0
            assert_rel_close(model.inverse_dynamics(q, zero, e), mass_matrix_2r(q)[:, :, k], 1e-10)
        # C(q, v) v alone
        assert_rel_close(model.inverse_dynamics(q, v, zero), coriolis_2r(q, v), 1e-10)
    finally:
        model.gravity = GRAVITY
    # G(q) alone
    assert_rel_close(model.inverse_dynamics(q, zero, zero), gravity_2r(q), 1e-10)


def test_default_gravity_is_along_the_joint_axes():
    """urdf2dyn's default gravity (0, 0, -9.81) is parallel to both axes: no gravity torque."""
    model = load_robot2r()
    model.gravity = (0.0, 0.0, -9.81)
    rng = np.random.default_rng(4)
    q, v, a = random_states(rng, 300)
    assert_rel_close(model.inverse_dynamics(q, v, a), tau_2r(q, v, a, g=0.0), 1e-10)


def test_gravity_magnitude_and_direction(model):
    """Gravity (0, -g', 0) scales G linearly; +y gravity flips its sign."""
    rng = np.random.default_rng(5)
    q, v, a = random_states(rng, 200)
    other = load_robot2r()
    other.gravity = (0.0, -3.7, 0.0)
    assert_rel_close(other.inverse_dynamics(q, v, a), tau_2r(q, v, a, g=3.7), 1e-10)
    other.gravity = (0.0, 9.81, 0.0)
    assert_rel_close(other.inverse_dynamics(q, v, a), tau_2r(q, v, a, g=-9.81), 1e-10)


def test_loads_from_xml_text(model):
    text = data_path("robot2r.urdf").read_text(encoding="utf-8")
    rng = np.random.default_rng(6)
    q, v, a = random_states(rng, 100)
    assert_rel_close(load_robot2r(text).inverse_dynamics(q, v, a), model.inverse_dynamics(q, v, a),
                     1e-14)


@pytest.mark.parametrize("link1, link2", [
    # (ixx, iyy, ixy, ixz, iyz) replacing the thesis' (1.2, 15.6, 0, 0, 0) and (2, 10, 0, 0, 0)
    ((14.5, 3.0, 0.0, 0.0, 0.0), (9.0, 1.5, 0.0, 0.0, 0.0)),
    ((8.0, 9.0, 0.5, 0.7, -0.4), (6.0, 7.0, -0.3, 0.2, 0.6)),
])
def test_out_of_plane_inertia_does_not_matter(model, link1, link2):
    text = data_path("robot2r.urdf").read_text(encoding="utf-8")
    old1 = 'ixx="1.2" ixy="0" ixz="0" iyy="15.6" iyz="0" izz="15.6"'
    old2 = 'ixx="2" ixy="0" ixz="0" iyy="10" iyz="0" izz="10"'
    assert old1 in text and old2 in text

    def fmt(p, izz):
        ixx, iyy, ixy, ixz, iyz = p
        tensor = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        assert np.linalg.eigvalsh(tensor).min() > 0  # still a valid (positive definite) inertia
        return (f'ixx="{ixx!r}" ixy="{ixy!r}" ixz="{ixz!r}" '
                f'iyy="{iyy!r}" iyz="{iyz!r}" izz="{izz!r}"')

    changed = load_robot2r(text.replace(old1, fmt(link1, 15.6)).replace(old2, fmt(link2, 10.0)))
    rng = np.random.default_rng(7)
    q, v, a = random_states(rng, 500)
    tau = changed.inverse_dynamics(q, v, a)
    assert_rel_close(tau, model.inverse_dynamics(q, v, a), 1e-12)
    assert_rel_close(tau, tau_2r(q, v, a), 1e-10)


def test_izz_does_matter(model):
    """Control for the test above: izz of link 2 does matter; 10 -> 8.5 changes both torques by
    (10 - 8.5) (qdd1 + qdd2). 8.5 keeps the body physical (ixx + izz >= iyy with ixx = 2,
    iyy = 10): a non-physical izz would be warned about, and is not what this test is about."""
    text = data_path("robot2r.urdf").read_text(encoding="utf-8")
    changed = load_robot2r(text.replace('iyy="10" iyz="0" izz="10"',
                                        'iyy="10" iyz="0" izz="8.5"'))
    rng = np.random.default_rng(8)
    q, v, a = random_states(rng, 100)
    diff = model.inverse_dynamics(q, v, a) - changed.inverse_dynamics(q, v, a)
    expected = 1.5 * np.stack([a[:, 0] + a[:, 1], a[:, 0] + a[:, 1]], -1)
    assert_rel_close(diff, expected, 1e-10)


def test_external_force_on_link2(model):
    """A force f applied at a point of link 2 (world coordinates): tau = tau_2r - J^T f, with
    J^T f = ((p x f)_z, ((p - p_joint2) x f)_z) for a planar arm."""
    rng = np.random.default_rng(9)
    q, v, a = random_states(rng, 300)
    f = np.zeros((300, 3))
    f[:, :2] = rng.normal(0.0, 20.0, (300, 2))
    f[:, 2] = rng.normal(0.0, 20.0, 300)  # out of plane: no torque about z (the point has z = 0)
    s = rng.uniform(0.0, 2.0, 300)  # point at distance s along link 2's x axis
    c1, s1 = np.cos(q[:, 0]), np.sin(q[:, 0])
    c12, s12 = np.cos(q[:, 0] + q[:, 1]), np.sin(q[:, 0] + q[:, 1])
    joint2 = L1 * np.stack([c1, s1, np.zeros(300)], -1)
    point = joint2 + s[:, None] * np.stack([c12, s12, np.zeros(300)], -1)
    wrench = urdf2dyn.wrench_at_point(f, point)
    assert wrench.shape == (300, 6)
    np.testing.assert_allclose(wrench[:, :3], f)
    np.testing.assert_allclose(wrench[:, 3:], np.cross(point, f))

    jt_f = np.stack([np.cross(point, f)[:, 2], np.cross(point - joint2, f)[:, 2]], -1)
    tau = model.inverse_dynamics(q, v, a, f_ext={"link2": wrench})
    assert_rel_close(tau, tau_2r(q, v, a) - jt_f, 1e-10)
