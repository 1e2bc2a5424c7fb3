"""Analytical derivatives of inverse and forward dynamics on OpenSim's custom (coupled) joints.

A CustomJoint's motion subspace S(q) moves with its coordinates, so dRNEA/dq needs the axis
functions' second and third derivatives. Oracles (Pinocchio has no such joint):
- fourth-order central differences of inverse_dynamics / forward_dynamics, themselves equal
  to OpenSim 4.6's InverseDynamicsSolver (tests/test_osim.py), on the five published models
  and on the every-joint model of tests/test_osim.py, at random states, to 1e-7 relative;
- a SymPy derivation for a one-coordinate custom joint whose rotations and translation are
  SimmSplines of it: tau = M(q) qdd + M'(q) qd^2 / 2 + V'(q), differentiated symbolically,
  with the spline's value and three derivatives taken from OpenSim's own SimmSpline.
"""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import urdf2dyn

from test_osim import DATA, MODELS, SPLINE, SPLINE3, _states, every_joint_model

TOL = 1e-7


def _load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path)


def _fd(f, x, eps=1e-4):
    """Fourth-order central differences of f along each coordinate of x (all models here
    have plain coordinates: q moves as a vector)."""
    cols = []
    for k in range(x.size):
        e = np.zeros(x.size)
        e[k] = eps
        cols.append((8 * (f(x + e) - f(x - e)) - (f(x + 2 * e) - f(x - 2 * e))) / (12 * eps))
    return np.stack(cols, axis=-1)


def _rel(ours, theirs):
    return float(np.max(np.abs(ours - theirs)) / max(np.max(np.abs(theirs)), 1e-300))


def _check_inverse(m, q, v, a, f_ext=None):
    dq, dv, M = m.inverse_dynamics_derivatives(q, v, a, f_ext=f_ext)
    tau_q = _fd(lambda x: m.inverse_dynamics(x, v, a, f_ext=f_ext), q)
    tau_v = _fd(lambda x: m.inverse_dynamics(q, x, a, f_ext=f_ext), v)
    assert _rel(dq, tau_q) < TOL
    assert _rel(dv, tau_v) < TOL
    np.testing.assert_allclose(M, m.mass_matrix(q), rtol=0, atol=1e-12 * np.abs(M).max())


def _check_forward(m, q, v, tau, f_ext=None):
    fq, fv, Minv = m.forward_dynamics_derivatives(q, v, tau, f_ext=f_ext)
    qdd_q = _fd(lambda x: m.forward_dynamics(x, v, tau, f_ext=f_ext), q)
    qdd_v = _fd(lambda x: m.forward_dynamics(q, x, tau, f_ext=f_ext), v)
    # the published models' light feet and hands make M ill-conditioned: the differences of
    # ABA are then only as good as cond(M) eps / eps_fd allows
    cond = np.linalg.cond(m.mass_matrix(q))
    tol = max(TOL, 1e-16 * cond / 1e-4)
    assert _rel(fq, qdd_q) < tol
    assert _rel(fv, qdd_v) < tol
    np.testing.assert_allclose(Minv @ m.mass_matrix(q), np.eye(m.nv), atol=1e-8 * cond * 1e-6)


@pytest.fixture(scope="module", params=sorted(MODELS))
def published(request):
    return _load(os.path.join(DATA, MODELS[request.param]))


def test_published_inverse_dynamics_derivatives_follow_finite_differences(published):
    m = published
    assert any(j.type == "custom" for j in m.joints)
    for q, v, a in _states(m, 2, 11):
        _check_inverse(m, q, v, a)


def test_published_forward_dynamics_derivatives_follow_finite_differences(published):
    m = published
    rng = np.random.default_rng(12)
    for q, v, _ in _states(m, 1, 13, spread=0.6):
        _check_forward(m, q, v, rng.normal(0, 20, m.nv))


@pytest.fixture(scope="module")
def every_joint(tmp_path_factory):
    path = tmp_path_factory.mktemp("osim") / "every_joint.osim"
    path.write_text(every_joint_model())
    return _load(str(path))


@pytest.mark.parametrize("with_fext", [False, True])
def test_every_joint_derivatives_follow_finite_differences(every_joint, with_fext):
    """Every joint type and axis function, past the spline knots at both ends, with
    world-fixed external wrenches on a custom-jointed body and the last one."""
    m = every_joint
    rng = np.random.default_rng(21)
    f_ext = ({"b1": rng.normal(0, 20, 6), "b7": rng.normal(0, 20, 6)} if with_fext
             else None)
    for q, v, a in _states(m, 4, 22, spread=2.0):
        _check_inverse(m, q, v, a, f_ext)
        _check_forward(m, q, v, m.inverse_dynamics(q, v, a) + rng.normal(0, 5, m.nv), f_ext)


@pytest.mark.parametrize("which", ["every_joint", "rajagopal"])
def test_custom_joint_derivatives_batch_equals_one_sample_on_every_simd_path(which, every_joint):
    """The custom-joint terms are written over u2d_real like the rest of the derivatives, so
    the SIMD units run them lane by lane (the axis functions evaluated per lane): on every
    path this machine has, with 1 and 2 threads, with and without world wrenches (shared and
    per sample), a batch of 19 samples (two groups of 8 lanes or four of 4, and a tail)
    equals one-sample calls (the portable code) bit for bit."""
    m = every_joint if which == "every_joint" else _load(os.path.join(DATA, MODELS[which]))
    n = 19
    Q, V, A = (np.array(x) for x in zip(*_states(m, n, 23, spread=2.0)))
    rng = np.random.default_rng(24)
    links = [m.link_names[1], m.link_names[-1]]
    cases = {"none": None, "shared": {links[0]: rng.normal(0, 20, 6)},
             "per-sample": {links[0]: rng.normal(0, 20, (n, 6)),
                            links[1]: rng.normal(0, 20, (n, 6))}}
    fns = {"rnea": m.inverse_dynamics_derivatives, "aba": m.forward_dynamics_derivatives}
    try:
        for key, f_ext in cases.items():
            def sample(k):
                return None if f_ext is None else {
                    name: (w if w.ndim == 1 else w[k]) for name, w in f_ext.items()}
            for name, fn in fns.items():
                third = A if name == "rnea" else m.inverse_dynamics(Q, V, A)
                urdf2dyn.set_simd_path("scalar")
                one = [fn(Q[k], V[k], third[k], f_ext=sample(k)) for k in range(n)]
                for path in urdf2dyn.available_simd_paths():
                    urdf2dyn.set_simd_path(path)
                    for threads in (1, 2):
                        urdf2dyn.set_num_threads(threads)
                        batch = fn(Q, V, third, f_ext=f_ext)
                        for k in range(n):
                            for xb, x1 in zip(batch, one[k]):
                                assert np.array_equal(xb[k], x1), (which, key, name, path,
                                                                   threads, k)
                        assert all(np.all(np.isfinite(x)) for x in batch)
    finally:
        urdf2dyn.set_simd_path(None)
        urdf2dyn.set_num_threads(None)


# ------------------------------------------- one coupled joint, derived with SymPy

KNEE = ("<CustomJoint name=\"j\"><socket_parent_frame>/ground</socket_parent_frame>"
        "<socket_child_frame>/bodyset/b</socket_child_frame><coordinates><Coordinate "
        "name=\"q\"><range>-3 3</range></Coordinate></coordinates><SpatialTransform>"
        "<TransformAxis name=\"rotation1\"><coordinates>q</coordinates><axis>0 0 1</axis>"
        f"{SPLINE}</TransformAxis>"
        "<TransformAxis name=\"rotation2\"><coordinates>q</coordinates><axis>1 0 0</axis>"
        f"{SPLINE3}</TransformAxis>"
        "<TransformAxis name=\"rotation3\"><axis>0 1 0</axis><Constant name=\"function\">"
        "<value>0</value></Constant></TransformAxis>"
        "<TransformAxis name=\"translation1\"><coordinates>q</coordinates><axis>1 0 0</axis>"
        f"{SPLINE3}</TransformAxis>"
        "<TransformAxis name=\"translation2\"><axis>0 1 0</axis><Constant name=\"function\">"
        "<value>0</value></Constant></TransformAxis>"
        "<TransformAxis name=\"translation3\"><axis>0 0 1</axis><Constant name=\"function\">"
        "<value>0</value></Constant></TransformAxis>"
        "</SpatialTransform></CustomJoint>")
MASS, COM, INERTIA, GRAVITY = 2.5, (0.1, -0.3, 0.05), (0.2, 0.15, 0.1), (0.0, -9.80665, 0.0)


def _knee_model():
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">'
            f'<Model name="knee"><gravity>{" ".join(map(str, GRAVITY))}</gravity>'
            '<Ground name="ground"/><BodySet name="bodyset"><objects><Body name="b">'
            f'<mass>{MASS}</mass><mass_center>{" ".join(map(str, COM))}</mass_center>'
            f'<inertia>{" ".join(map(str, INERTIA))} 0 0 0</inertia></Body></objects>'
            f'</BodySet><JointSet name="jointset"><objects>{KNEE}</objects></JointSet>'
            '</Model></OpenSimDocument>\n')


def _knots(xml):
    import re
    x = [float(t) for t in re.search(r"<x>(.*?)</x>", xml).group(1).split()]
    y = [float(t) for t in re.search(r"<y>(.*?)</y>", xml).group(1).split()]
    return x, y


QV = (-0.9, -0.35, 0.05, 0.4, 0.7, 1.2, -1.4, 1.9)   # inside the knots, and past them

SIMM = """
import json, sys
import opensim as osim
knots, points = json.loads(sys.stdin.read())
out = {}
for name, (x, y) in knots.items():
    s = osim.SimmSpline()
    for a, b in zip(x, y):
        s.addPoint(a, b)
    out[name] = [[s.calcValue(osim.Vector(1, p)),
                  s.calcDerivative(osim.StdVectorInt([0]), osim.Vector(1, p)),
                  s.calcDerivative(osim.StdVectorInt([0, 0]), osim.Vector(1, p))] for p in points]
print(json.dumps(out))
"""


def _simm_spline_table(knots, points):
    """{name: [(value, first, second derivative) at each point]} of OpenSim's SimmSpline
    through each (x, y) knot list, computed by OpenSim in a fresh interpreter."""
    import json
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", SIMM], input=json.dumps([knots, points]),
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def knee_oracle():
    """d tau/dq and d tau/dqd of the one-joint model as functions of (q, qd, qdd) and the
    splines' derivatives (from OpenSim's SimmSpline)."""
    sp = pytest.importorskip("sympy")
    pytest.importorskip("opensim", reason="OpenSim's SimmSpline is the spline oracle")
    q, qd, qdd = sp.symbols("q qd qdd")
    f, h = sp.Function("f")(q), sp.Function("h")(q)      # SPLINE, SPLINE3
    Rz = sp.Matrix([[sp.cos(f), -sp.sin(f), 0], [sp.sin(f), sp.cos(f), 0], [0, 0, 1]])
    Rx = sp.Matrix([[1, 0, 0], [0, sp.cos(h), -sp.sin(h)], [0, sp.sin(h), sp.cos(h)]])
    R = Rz * Rx
    p = sp.Matrix([h, 0, 0]) + R * sp.Matrix(COM)        # mass centre in ground
    dp = p.diff(q)
    W = R.T * R.diff(q)                                  # body angular velocity per unit qd
    w = sp.Matrix([W[2, 1], W[0, 2], W[1, 0]])
    Mq = MASS * (dp.T * dp)[0] + (w.T * sp.diag(*INERTIA) * w)[0]
    V = -MASS * (sp.Matrix(GRAVITY).T * p)[0]
    tau = Mq * qdd + Mq.diff(q) * qd**2 / 2 + V.diff(q)
    exprs = [tau, tau.diff(q), tau.diff(qd)]
    # the splines and their derivatives as plain symbols, highest derivative first
    plain = {fn.diff(q, n) if n else fn: sp.Symbol(f"{fn.func.__name__}{n}")
             for fn in (f, h) for n in (3, 2, 1, 0)}
    for d, sym in plain.items():
        exprs = [e.subs(d, sym) for e in exprs]
    numeric = sp.lambdify([q, qd, qdd, *plain.values()], exprs, "math")

    # OpenSim's SimmSpline at every point the test needs, from a fresh interpreter: in a
    # process that has loaded ezc3d's SWIG module first, opensim.StdVectorInt (the argument of
    # calcDerivative) is not accepted (the two modules' std::vector<int> wrappers clash)
    points = sorted({float(x) + e for x in QV for e in (0.0, -1e-3, 1e-3)})
    table = _simm_spline_table({"f": _knots(SPLINE), "h": _knots(SPLINE3)}, points)

    def evaluate(qv, qdv, qddv):
        subs = {}
        for fn, name in ((f, "f"), (h, "h")):
            at = {round(x, 12): row for x, row in zip(points, table[name])}
            value, d1, d2 = at[round(float(qv), 12)]
            # OpenSim gives derivatives up to the second; on one cubic piece (the points
            # below are 0.04 or more from every knot) the second is linear, and its central
            # difference is the third
            subs[fn.diff(q, 3)] = (at[round(qv + 1e-3, 12)][2] - at[round(qv - 1e-3, 12)][2]) / 2e-3
            subs[fn.diff(q, 2)], subs[fn.diff(q, 1)], subs[fn] = d2, d1, value
        return numeric(qv, qdv, qddv, *(subs[d] for d in plain))

    return evaluate


def test_one_coupled_joint_derivatives_equal_the_sympy_derivation(knee_oracle, tmp_path):
    path = tmp_path / "knee.osim"
    path.write_text(_knee_model())
    m = _load(str(path))
    rng = np.random.default_rng(31)
    # inside the knots of both splines, and past them on either side (linear extrapolation)
    for qv in QV:
        qdv, qddv = rng.normal(0, 3), rng.normal(0, 10)
        tau, dtau_dq, dtau_dv = knee_oracle(qv, qdv, qddv)
        ours = m.inverse_dynamics_derivatives([qv], [qdv], [qddv])
        assert m.inverse_dynamics([qv], [qdv], [qddv])[0] == pytest.approx(tau, rel=1e-12,
                                                                            abs=1e-12)
        assert ours[0][0, 0] == pytest.approx(dtau_dq, rel=1e-10, abs=1e-10)
        assert ours[1][0, 0] == pytest.approx(dtau_dv, rel=1e-10, abs=1e-10)


# ------------------------------------------------------------- centroidal functions

@pytest.mark.parametrize("name", ["rajagopal", "gait2354"])
def test_centroidal_momentum_equals_opensims(osim, name):
    """Centre of mass, its velocity and the momentum about it against Simbody's
    calcSystemCentralMomentum; A_G v is the momentum."""
    from osim_oracle import Oracle
    path = os.path.join(DATA, MODELS[name])
    m = _load(path)
    oracle = Oracle(osim, path, m.q_names)
    matter = oracle.om.getMatterSubsystem()
    for q, v, a in _states(m, 3, 41):
        oracle.set_state(q, v)
        oracle.om.realizeVelocity(oracle.s)
        hc = matter.calcSystemCentralMomentum(oracle.s)
        theirs = np.concatenate([hc.get(1).to_numpy(), hc.get(0).to_numpy()])   # [p; L]
        c = m.centroidal(q, v, a)
        scale = np.abs(theirs).max()
        np.testing.assert_allclose(c["momentum"], theirs, rtol=0, atol=1e-12 * scale)
        np.testing.assert_allclose(m.centroidal_momentum_matrix(q) @ v, theirs, rtol=0,
                                   atol=1e-12 * scale)
        np.testing.assert_allclose(c["com"], oracle.om.calcMassCenterPosition(
            oracle.s).to_numpy(), rtol=0, atol=1e-13)
        np.testing.assert_allclose(c["com_velocity"], oracle.om.calcMassCenterVelocity(
            oracle.s).to_numpy(), rtol=0, atol=1e-12 * np.abs(v).max())


def test_centroidal_momentum_rate_follows_finite_differences(every_joint):
    """dh_G/dt and the centre of mass acceleration, with the custom joints' bias terms, are
    the time derivatives of h_G and the centre of mass velocity along q(t), v(t)."""
    m = every_joint
    for q, v, a in _states(m, 3, 42, spread=2.0):
        c = m.centroidal(q, v, a)
        dt = 1e-4
        def at(t):
            return m.centroidal(q + t * v + 0.5 * t * t * a, v + t * a, a)
        p2, p1, m1, m2 = at(2 * dt), at(dt), at(-dt), at(-2 * dt)
        for key, rate in (("momentum", "momentum_rate"), ("com_velocity", "com_acceleration")):
            fd = (8 * (p1[key] - m1[key]) - (p2[key] - m2[key])) / (12 * dt)
            assert _rel(c[rate], fd) < 1e-8
