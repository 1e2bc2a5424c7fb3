"""Analytical derivatives of inverse and forward dynamics.

Oracles: Pinocchio's computeRNEADerivatives / computeABADerivatives (example-robot-data robots,
fixed and floating; random trees; the HuMoD human, fixed and on a floating root), matched by
joint name; and checks that do not use Pinocchio: central finite differences of
inverse_dynamics / forward_dynamics with q moved in the tangent space (model.integrate),
dtau/da = mass_matrix, dqdd/dtau = M^-1, with world-fixed external wrenches.

Pinocchio's external forces are given in the joint frames and so turn with q, while urdf2dyn's
are fixed in the world (DESIGN.md): with forces the derivatives differ by design, and they are
checked by finite differences of our own validated inverse/forward dynamics.
"""
import numpy as np
import pytest

import pin_oracle as po
from deriv_cases import CASES, Twin, pin, rel_err, sym

import urdf2dyn

TOL = 1e-9


@pytest.fixture(scope="module", params=CASES)
def twin(request):
    return Twin(request.param)


def test_rnea_derivatives_match_pinocchio(twin):
    m, pm, pd = twin.model, twin.pin_model, twin.pin_data
    for seed in range(3):
        q, v, a = twin.state(seed)
        dq, dv, M = m.inverse_dynamics_derivatives(q, v, a)
        pin.computeRNEADerivatives(pm, pd, *twin.to_pin(q, v, a))
        assert rel_err(dq, twin.mat(pd.dtau_dq)) < TOL
        assert rel_err(dv, twin.mat(pd.dtau_dv)) < TOL
        assert rel_err(M, twin.mat(sym(pd.M))) < TOL


def test_aba_derivatives_match_pinocchio(twin):
    m, pm, pd = twin.model, twin.pin_model, twin.pin_data
    for seed in range(3):
        q, v, tau = twin.state(10 + seed)
        fq, fv, Minv = m.forward_dynamics_derivatives(q, v, tau)
        qp, vp, _ = twin.to_pin(q, v, tau)
        pin.computeABADerivatives(pm, pd, qp, vp, twin.perm @ tau)
        # Both solve M X = -dtau/dx: the solutions agree to the precision M's conditioning
        # allows (the floating human's light hands and feet give cond(M) ~ 1e9; there our
        # residual M X + dtau/dx is 1e-13 and Pinocchio's 5e-9, relative).
        M = m.mass_matrix(q)
        tol = max(TOL, np.finfo(float).eps * np.linalg.cond(M))
        for ours, theirs in ((fq, pd.ddq_dq), (fv, pd.ddq_dv), (Minv, sym(pd.Minv))):
            assert rel_err(ours, twin.mat(theirs)) < tol
        dq, dv, _ = m.inverse_dynamics_derivatives(q, v, m.forward_dynamics(q, v, tau))
        assert rel_err(M @ fq, -dq) < TOL and rel_err(M @ fv, -dv) < TOL


def test_batch_equals_one_sample_at_a_time(twin):
    m = twin.model
    q, v, a = twin.state(20, n=4)
    for fn in (m.inverse_dynamics_derivatives, m.forward_dynamics_derivatives):
        batch = fn(q, v, a)
        assert all(x.shape == (4, m.nv, m.nv) for x in batch)
        for k in range(4):
            for xb, x1 in zip(batch, fn(q[k], v[k], a[k])):
                np.testing.assert_array_equal(xb[k], x1)


# ---- checks without Pinocchio ------------------------------------------------------------

def _fd_q(f, m, q, eps=1e-6):
    """Central differences of f along each tangent direction of q (q (+) dq)."""
    cols = []
    for k in range(m.nv):
        e = np.zeros(m.nv)
        e[k] = eps
        cols.append((f(m.integrate(q, e)) - f(m.integrate(q, -e))) / (2 * eps))
    return np.stack(cols, axis=-1)


def _fd_v(f, v, eps=1e-6):
    cols = []
    for k in range(v.size):
        e = np.zeros(v.size)
        e[k] = eps
        cols.append((f(v + e) - f(v - e)) / (2 * eps))
    return np.stack(cols, axis=-1)


def _wrenches(m, rng):
    links = [m.link_names[k] for k in rng.choice(len(m.link_names), 2, replace=False)]
    return {link: rng.normal(scale=20.0, size=6) for link in links}


@pytest.mark.parametrize("with_fext", [False, True])
def test_rnea_derivatives_finite_differences(twin, with_fext):
    m = twin.model
    q, v, a = twin.state(30)
    f_ext = _wrenches(m, np.random.default_rng(31)) if with_fext else None
    dq, dv, M = m.inverse_dynamics_derivatives(q, v, a, f_ext=f_ext)
    tau_q = _fd_q(lambda x: m.inverse_dynamics(x, v, a, f_ext=f_ext), m, q)
    tau_v = _fd_v(lambda x: m.inverse_dynamics(q, x, a, f_ext=f_ext), v)
    assert rel_err(dq, tau_q) < 1e-6
    assert rel_err(dv, tau_v) < 1e-6
    np.testing.assert_allclose(M, m.mass_matrix(q), rtol=0, atol=1e-12 * np.abs(M).max())


@pytest.mark.parametrize("with_fext", [False, True])
def test_aba_derivatives_finite_differences(twin, with_fext):
    m = twin.model
    q, v, tau = twin.state(40)
    f_ext = _wrenches(m, np.random.default_rng(41)) if with_fext else None
    fq, fv, Minv = m.forward_dynamics_derivatives(q, v, tau, f_ext=f_ext)
    qdd_q = _fd_q(lambda x: m.forward_dynamics(x, v, tau, f_ext=f_ext), m, q)
    qdd_v = _fd_v(lambda x: m.forward_dynamics(q, x, tau, f_ext=f_ext), v)
    assert rel_err(fq, qdd_q) < 1e-5
    assert rel_err(fv, qdd_v) < 1e-5
    assert rel_err(Minv @ m.mass_matrix(q), np.eye(m.nv)) < 1e-9


def test_rnea_derivatives_closed_form_pendulum():
    """One revolute link about z under gravity along -y: tau = (I + m l^2) a + m g l cos q."""
    mass, l, izz = 2.0, 0.5, 0.1
    xml = f"""<robot name="p"><link name="base"/>
      <link name="arm"><inertial><origin xyz="{l} 0 0"/><mass value="{mass}"/>
        <inertia ixx="0.05" ixy="0" ixz="0" iyy="0.06" iyz="0" izz="{izz}"/></inertial></link>
      <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
        <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint></robot>"""
    m = urdf2dyn.load(xml)
    m.gravity = (0.0, -9.81, 0.0)
    q = np.array([0.3])
    dq, dv, M = m.inverse_dynamics_derivatives(q, np.array([1.5]), np.array([0.7]))
    assert dq[0, 0] == pytest.approx(-mass * 9.81 * l * np.sin(0.3), rel=1e-13)
    assert dv[0, 0] == pytest.approx(0.0, abs=1e-13)
    assert M[0, 0] == pytest.approx(izz + mass * l * l, rel=1e-13)


def test_external_forces_in_both_conventions(twin):
    """Pinocchio's computeRNEADerivatives takes forces in the joint frames: they turn with q.
    Its dtau/dq must then be the tangent-space derivative of OUR inverse dynamics with the
    force carried by the body (re-expressed in the world at each perturbed q by our forward
    kinematics); dtau/dv does not depend on the convention and must agree exactly."""
    import pin_oracle as po
    m, pm, pd = twin.model, twin.pin_model, twin.pin_data
    q, v, a = twin.state(50)
    link = m.joints[-1].child                        # its frame is its joint's frame
    k = m.link_names.index(link)
    rng = np.random.default_rng(51)
    f_loc, n_loc = rng.normal(scale=20.0, size=3), rng.normal(scale=5.0, size=3)

    def world(qx):                                   # the body-fixed force, seen in the world
        pos, rot = m.forward_kinematics(qx)
        f = rot[k] @ f_loc
        return {link: np.concatenate([f, rot[k] @ n_loc + np.cross(pos[k], f)])}

    qp, vp, ap = twin.to_pin(q, v, a)
    fext = po._pin_fext(pm, pm.createData(), qp, world(q))
    jid = pm.getJointId(m.joints[-1].name)
    np.testing.assert_allclose(fext[jid].linear, f_loc, atol=1e-12)   # same local force
    pin.computeRNEADerivatives(pm, pd, qp, vp, ap, fext)
    fd = _fd_q(lambda x: m.inverse_dynamics(x, v, a, f_ext=world(x)), m, q)
    assert rel_err(twin.mat(pd.dtau_dq), fd) < 1e-6
    dq, dv, _ = m.inverse_dynamics_derivatives(q, v, a, f_ext=world(q))
    assert rel_err(dv, twin.mat(pd.dtau_dv)) < TOL
    # and ours (world-fixed force) differs from Pinocchio's by the force's turning
    fd_world = _fd_q(lambda x: m.inverse_dynamics(x, v, a, f_ext=world(q)), m, q)
    assert rel_err(dq, fd_world) < 1e-6


# ---- every SIMD path (csrc/batch/u2d_simd*.c) ---------------------------------------------
# The vector paths evaluate whole groups of 4 or 8 samples; 11 samples give groups and a
# scalar tail on each. Bit identity with the portable path is in tests/test_simd.py and
# tests/c (driver.c, bits.c); here each path meets the oracles itself.

PATHS = urdf2dyn.available_simd_paths()
NS = 11


@pytest.fixture(params=PATHS)
def path(request):
    urdf2dyn.set_simd_path(request.param)
    assert urdf2dyn.simd_path() == request.param
    yield request.param
    urdf2dyn.set_simd_path(None)


def test_every_path_matches_pinocchio(twin, path):
    m, pm, pd = twin.model, twin.pin_model, twin.pin_data
    q, v, a = twin.state(60, n=NS)
    dq, dv, M = m.inverse_dynamics_derivatives(q, v, a)
    tau = m.inverse_dynamics(q, v, a)
    fq, fv, Minv = m.forward_dynamics_derivatives(q, v, tau)
    for k in range(NS):
        qp, vp, ap = twin.to_pin(q[k], v[k], a[k])
        pin.computeRNEADerivatives(pm, pd, qp, vp, ap)
        assert rel_err(dq[k], twin.mat(pd.dtau_dq)) < TOL, (path, k)
        assert rel_err(dv[k], twin.mat(pd.dtau_dv)) < TOL, (path, k)
        assert rel_err(M[k], twin.mat(sym(pd.M))) < TOL, (path, k)
        pin.computeABADerivatives(pm, pd, qp, vp, twin.perm @ tau[k])
        tol = max(TOL, np.finfo(float).eps * np.linalg.cond(M[k]))   # as above
        for ours, theirs in ((fq[k], pd.ddq_dq), (fv[k], pd.ddq_dv), (Minv[k], sym(pd.Minv))):
            assert rel_err(ours, twin.mat(theirs)) < tol, (path, k)


def _fd_q_batch(f, m, q, eps=1e-6):
    """_fd_q for N samples at once: (N, nv_out, nv)."""
    cols = []
    for k in range(m.nv):
        e = np.zeros((len(q), m.nv))
        e[:, k] = eps
        cols.append((f(m.integrate(q, e)) - f(m.integrate(q, -e))) / (2 * eps))
    return np.stack(cols, axis=-1)


def _fd_v_batch(f, v, eps=1e-6):
    cols = []
    for k in range(v.shape[1]):
        e = np.zeros_like(v)
        e[:, k] = eps
        cols.append((f(v + e) - f(v - e)) / (2 * eps))
    return np.stack(cols, axis=-1)


def test_every_path_finite_differences_with_external_forces(twin, path):
    """Per-sample world wrenches on two links: both derivatives against central differences
    of inverse and forward dynamics (themselves checked against Pinocchio)."""
    m = twin.model
    q, v, a = twin.state(70, n=NS)
    rng = np.random.default_rng(71)
    links = [m.link_names[k] for k in rng.choice(len(m.link_names), 2, replace=False)]
    f_ext = {link: rng.normal(scale=20.0, size=(NS, 6)) for link in links}
    dq, dv, M = m.inverse_dynamics_derivatives(q, v, a, f_ext=f_ext)
    assert rel_err(dq, _fd_q_batch(lambda x: m.inverse_dynamics(x, v, a, f_ext=f_ext), m, q)) < 1e-6
    assert rel_err(dv, _fd_v_batch(lambda x: m.inverse_dynamics(q, x, a, f_ext=f_ext), v)) < 1e-6
    assert rel_err(M, m.mass_matrix(q)) < 1e-12
    tau = m.inverse_dynamics(q, v, a)
    fq, fv, Minv = m.forward_dynamics_derivatives(q, v, tau, f_ext=f_ext)
    assert rel_err(fq, _fd_q_batch(lambda x: m.forward_dynamics(x, v, tau, f_ext=f_ext), m,
                                   q)) < 1e-5
    assert rel_err(fv, _fd_v_batch(lambda x: m.forward_dynamics(q, x, tau, f_ext=f_ext), v)) < 1e-5
    tol = max(1e-9, np.finfo(float).eps * np.linalg.cond(M).max())     # the floating human
    assert rel_err(Minv @ M, np.broadcast_to(np.eye(m.nv), M.shape)) < tol


# ---- out= ---------------------------------------------------------------------------------

def test_out_arrays_are_filled_and_returned():
    m = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    q, v, a = po.random_state(m, np.random.default_rng(80), N=13)
    for fn in (m.inverse_dynamics_derivatives, m.forward_dynamics_derivatives):
        ref = fn(q, v, a)
        out = tuple(np.full((13, m.nv, m.nv), np.nan) for _ in range(3))
        got = fn(q, v, a, out=out)
        assert all(g is o for g, o in zip(got, out))
        for g, r in zip(got, ref):
            np.testing.assert_array_equal(g, r)
        one = tuple(np.empty((m.nv, m.nv)) for _ in range(3))      # one sample: (nv, nv)
        for g, r in zip(fn(q[4], v[4], a[4], out=one), ref):
            np.testing.assert_array_equal(g, r[4])


def test_out_arrays_that_do_not_fit_are_refused():
    m = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    n, nv = 5, m.nv
    q, v, a = po.random_state(m, np.random.default_rng(81), N=n)
    good = lambda: np.empty((n, nv, nv))                                # noqa: E731
    bad = {"shape": np.empty((n + 1, nv, nv)), "dtype": np.empty((n, nv, nv), np.float32),
           "layout": np.empty((n, nv, nv), order="F"), "view": np.empty((n, nv, 2 * nv))[:, :, ::2],
           "type": [[0.0] * nv] * nv}
    ro = good()
    ro.flags.writeable = False
    bad["readonly"] = ro
    for what, x in bad.items():          # refused by the batch layer, naming out[1]
        with pytest.raises((ValueError, TypeError), match=r"out\[1\]"):
            m.inverse_dynamics_derivatives(q, v, a, out=(good(), x, good()))
    with pytest.raises(ValueError, match=rf"out\[1\]: expected shape \({n}, {nv}, {nv}\)"):
        m.inverse_dynamics_derivatives(q, v, a, out=(good(), bad["shape"], good()))
    with pytest.raises(TypeError, match="out: expected a tuple of 3 arrays"):
        m.forward_dynamics_derivatives(q, v, a, out=(good(), good()))
    shared = good()
    with pytest.raises(ValueError, match=r"out\[1\] and out\[2\] overlap"):
        m.inverse_dynamics_derivatives(q, v, a, out=(good(), shared, shared))
    big = np.zeros((n, nv, nv))                       # the inputs live inside an output:
    qv = big.reshape(-1)[: n * nv].reshape(n, nv)     # read from a copy before writing
    qv[:] = q
    want = m.inverse_dynamics_derivatives(q, v, a)
    got = m.inverse_dynamics_derivatives(qv, v, a, out=(big, good(), good()))
    for w, g in zip(want, got):
        np.testing.assert_array_equal(w, g)
