"""Centre of mass and centroidal momentum.

Oracles: Pinocchio's ccrba (A_G, h_G), computeCentroidalMomentumTimeVariation (dh_G) and
centerOfMass(q, v, a) (CoM position, velocity, acceleration), on the same models as the
derivative tests; and checks without Pinocchio: h_G = A_G v, p = M dc/dt and dc/dt, d2c/dt2 and
dh_G/dt by finite differences along a motion, and conservation of h_G for a free-floating
body simulated under zero gravity and no external force.
"""
import numpy as np
import pytest

from deriv_cases import CASES, Twin, pin, rel_err

import urdf2dyn
from urdf2dyn.biomech.human import standing_configuration

TOL = 1e-9


@pytest.fixture(scope="module", params=CASES)
def twin(request):
    return Twin(request.param)


def test_centroidal_matches_pinocchio(twin):
    m, pm, pd = twin.model, twin.pin_model, twin.pin_data
    for seed in range(2):
        q, v, a = twin.state(seed)
        qp, vp, ap = twin.to_pin(q, v, a)
        Ag = m.centroidal_momentum_matrix(q)
        pin.ccrba(pm, pd, qp, vp)
        assert rel_err(Ag, np.asarray(pd.Ag) @ twin.perm) < TOL
        c = m.centroidal(q, v, a)
        pin.computeCentroidalMomentumTimeVariation(pm, pd, qp, vp, ap)
        assert rel_err(c["momentum"], pd.hg.vector) < TOL
        assert rel_err(c["momentum_rate"], pd.dhg.vector) < TOL
        pin.centerOfMass(pm, pd, qp, vp, ap)
        assert rel_err(c["com"], pd.com[0]) < TOL
        assert rel_err(c["com_velocity"], pd.vcom[0]) < TOL
        assert rel_err(c["com_acceleration"], pd.acom[0]) < TOL


def test_centroidal_identities(twin):
    m = twin.model
    q, v, a = twin.state(5, n=3)
    Ag, c = m.centroidal_momentum_matrix(q), m.centroidal(q, v, a)
    assert Ag.shape == (3, 6, m.nv)
    assert rel_err(c["momentum"], np.einsum("nij,nj->ni", Ag, v)) < 1e-12
    assert rel_err(c["momentum"][:, :3], m.total_mass * c["com_velocity"]) < 1e-12
    np.testing.assert_allclose(c["com"], m.center_of_mass(q), atol=1e-12)
    one = m.centroidal(q[1], v[1], a[1])
    for key in c:
        np.testing.assert_array_equal(c[key][1], one[key])


def test_rates_by_finite_differences(twin):
    """Along q(t) = q0 (+) t v0 + t^2/2 ... : march q with v(t) = v0 + t a0 (constant a in
    the tangent space), and differentiate h_G and the CoM numerically."""
    m = twin.model
    q0, v0, a0 = twin.state(7)
    h = 1e-5

    def at(t):
        # exact for the velocity; for the position, integrate(q0, v0 t + a0 t^2 / 2) agrees
        # to O(t^2) in the tangent space, enough for the central difference at t = 0
        return m.integrate(q0, v0 * t + 0.5 * a0 * t * t), v0 + a0 * t

    c0 = m.centroidal(q0, v0, a0)
    cp, cm = (m.centroidal(*at(s), a0) for s in (h, -h))
    dcom = (cp["com"] - cm["com"]) / (2 * h)
    dvcom = (cp["com_velocity"] - cm["com_velocity"]) / (2 * h)
    dh = (cp["momentum"] - cm["momentum"]) / (2 * h)
    assert rel_err(c0["com_velocity"], dcom) < 1e-6
    assert rel_err(c0["com_acceleration"], dvcom) < 1e-5
    assert rel_err(c0["momentum_rate"], dh) < 1e-5


def test_momentum_is_conserved_in_free_flight():
    """A floating random tree, no gravity, no joint forces, no external force: h_G constant."""
    from urdfgen import random_urdf
    m = urdf2dyn.load(random_urdf(21, n_links=6, massless_prob=0.0), floating_base=True)
    m.gravity = (0.0, 0.0, 0.0)
    rng = np.random.default_rng(2)
    q0, v0 = m.random_configuration(seed=3), rng.normal(size=m.nv)
    steps, dt = 400, 1e-3
    qs, vs = urdf2dyn.simulate(m, q0, v0, np.zeros((steps, m.nv)), dt, method="rk4")
    hg = m.centroidal(qs, vs, np.zeros_like(vs))["momentum"]
    drift = np.abs(hg - hg[0]).max() / np.abs(hg[0]).max()
    assert drift < 1e-8
    # the joints did move: the test is not vacuous
    assert np.abs(vs[-1] - vs[0]).max() > 1e-2


def test_normalized_angular_momentum():
    m = urdf2dyn.humod_subject("A")
    q0 = standing_configuration(1.61, "female")
    q = np.tile(q0, (3, 1))
    v = np.random.default_rng(0).normal(size=(3, m.nv))
    L = m.centroidal(q, v, np.zeros_like(v))["momentum"][:, 3:]
    H = m.center_of_mass(q0)[1]                        # HuMoD: y up, floor at y = 0
    got = urdf2dyn.normalized_angular_momentum(m, q, v, speed=1.5)
    np.testing.assert_allclose(got, L / (m.total_mass * 1.5 * H), rtol=1e-12)
    got = urdf2dyn.normalized_angular_momentum(m, q, v, speed=1.5, com_height=1.0)
    np.testing.assert_allclose(got, L / (m.total_mass * 1.5), rtol=1e-12)
    with pytest.raises(ValueError, match="speed must be a positive"):
        urdf2dyn.normalized_angular_momentum(m, q, v, speed=0.0)


def test_angular_momentum_figure(tmp_path):
    pytest.importorskip("matplotlib")
    from urdf2dyn.biomech.plot import angular_momentum_figure, plot_angular_momentum
    t = np.linspace(0.0, 2.0, 401)
    L = np.column_stack([np.sin(2 * np.pi * t), np.cos(2 * np.pi * t), t])
    fy = np.where(np.sin(2 * np.pi * t) > 0, 600.0, 0.0)        # strikes just after 0 s and 1 s
    fig = angular_momentum_figure(t, L, grf_y={"R": fy})
    assert len(fig.axes) == 3 and "gait cycle" in fig.axes[-1].get_xlabel()
    fig = angular_momentum_figure(t, L)
    assert fig.axes[-1].get_xlabel() == "time (s)"
    path = plot_angular_momentum(t, L, tmp_path / "L.png")
    assert path.stat().st_size > 1000
