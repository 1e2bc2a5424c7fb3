"""Planar joints in the analytical derivatives and the centroidal functions.

Oracle: Pinocchio's JointModelPlanar (computeRNEADerivatives, computeABADerivatives,
computeCentroidalMap, computeCentroidalMomentumTimeVariation, centerOfMass) on the same URDF,
matched by joint name. Pinocchio's planar joint has q = [x y cos sin] and its velocity in the
child frame, v_pin = T(theta) v with T = blockdiag(R(theta)^T, 1) (docs/robots.rst), and its
derivatives in q are along its tangent, which our dq maps to through the same T. So each of
our derivatives is Pinocchio's carried through that change of coordinates by the chain rule
(below, with every derivative of T written out), never through our own dynamics.

Pinocchio's external forces are given in the joint frames and turn with the bodies; ours are
fixed in the world (docs/derivatives.rst). The difference is Pinocchio-side too: moving the
tangent coordinate c turns a world wrench f carried by body k by s_c x* f (s_c = column c of
body k's world Jacobian), so the world-fixed dtau/dq is Pinocchio's plus J_k^T (s_c x* f).
Central differences of our own inverse_dynamics / forward_dynamics are a second check.
"""
import numpy as np
import pytest

import pin_oracle as po
from deriv_cases import pin, rel_err, sym

import urdf2dyn

TOL = 1e-9


def _link(name, mass, com, inertia):
    ixx, iyy, izz = inertia
    return (f'<link name="{name}"><inertial><origin xyz="{com}" rpy="0.1 -0.2 0.3"/>'
            f'<mass value="{mass}"/><inertia ixx="{ixx}" ixy="0.01" ixz="-0.02" iyy="{iyy}" '
            f'iyz="0.015" izz="{izz}"/></inertial></link>')


def _joint(name, jtype, parent, child, xyz, rpy, axis):
    limit = '<limit lower="-3" upper="3" effort="1" velocity="1"/>' if jtype != "planar" else ""
    return (f'<joint name="{name}" type="{jtype}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/>'
            f'{limit}</joint>')


LINKS = "".join([_link("base", 2.0, "0.1 0.05 0.02", (0.3, 0.4, 0.5)),
                 _link("l1", 1.5, "0.2 0 0.05", (0.1, 0.2, 0.25)),
                 _link("l2", 1.0, "0.15 0.02 0", (0.05, 0.1, 0.12)),
                 _link("l3", 0.7, "0 0.1 0.03", (0.06, 0.07, 0.08))])

# a planar root (its plane tilted by the joint origin) carrying a chain of three links and
# a branch; Pinocchio's URDF reader moves a planar joint in its frame's x-y plane: axis z
PLANAR_ROOT = ('<robot name="planar_root"><link name="world"/>' + LINKS
               + _joint("root", "planar", "world", "base", "0.1 0.2 0.3", "0.3 0.2 0.1",
                        "0 0 1")
               + _joint("j1", "revolute", "base", "l1", "0.3 0 0.1", "0 0.4 0", "0.3 1 0.2")
               + _joint("j2", "prismatic", "l1", "l2", "0.4 0 0", "0.2 0 0", "1 0.2 0")
               + _joint("j3", "revolute", "base", "l3", "-0.2 0.1 0", "0 0 0.5", "1 0 0")
               + "</robot>")

# the planar joint mid-chain: a hip turning the plane, then two links beyond it
PLANAR_MID = ('<robot name="planar_mid"><link name="world"/>' + LINKS
              + _joint("hip", "revolute", "world", "base", "0 0 0.5", "0 0 0", "0 1 0.3")
              + _joint("plane", "planar", "base", "l1", "0.2 -0.1 0.3", "0.5 -0.3 0.2",
                       "0 0 1")
              + _joint("knee", "revolute", "l1", "l2", "0.4 0 0", "0 0.3 0", "0 0 1")
              + _joint("ankle", "continuous", "l2", "l3", "0.3 0.1 0", "0.2 0 0", "1 0 0")
              + "</robot>")

MODELS = {"planar-root": PLANAR_ROOT, "planar-mid": PLANAR_MID}


class PlanarTwin:
    """Our model, Pinocchio's, and the change of coordinates between them at one state."""

    def __init__(self, xml):
        self.model = urdf2dyn.load(xml)
        self.pm = po.build_pin_model(xml)
        self.pd = self.pm.createData()
        self.jmap = po.JointMap(self.model.joints, self.pm, self.model.nq, self.model.nv)
        # (our theta column, Pinocchio's in-plane rows, our in-plane columns) per planar joint
        self.planar = [(vi + 2, slice(pv, pv + 2), slice(vi, vi + 2))
                       for typ, _, _, vi, _, pv in self.jmap.entries if typ == "planar"]
        assert self.planar

    def state(self, seed):
        return po.random_state(self.model, np.random.default_rng(seed))

    def maps(self, q, v):
        """T (v_pin = T v), and for each planar joint its theta column, rows, columns,
        dR^T/dtheta and R^T (R^T = [[c, s], [-s, c]])."""
        T, Td = po.velocity_transform(self.jmap, q, v)
        out = []
        for c, rows, cols in self.planar:
            th = q[self._q_of_theta(c)]
            co, si = np.cos(th), np.sin(th)
            out.append((c, rows, cols, np.array([[-si, co], [-co, -si]]),
                        np.array([[co, si], [-si, co]])))
        return T, Td, out

    def _q_of_theta(self, c):
        for j in self.model.joints:
            if j.type == "planar" and j.v_index + 2 == c:
                return j.q_index + 2
        raise AssertionError(c)

    def local_forces(self, qp, f_ext):
        return po._pin_fext(self.pm, self.pm.createData(), qp, f_ext) if f_ext else None

    def world_fixed_correction(self, qp, f_ext):
        """d tau_pin / d q_tangent (world-fixed wrenches) - Pinocchio's (body-fixed): the sum
        over wrenches of J_k^T (s_c x* f) with J_k the world Jacobian of the carrying joint."""
        nv = self.pm.nv
        corr = np.zeros((nv, nv))
        if not f_ext:
            return corr
        pin.computeJointJacobians(self.pm, self.pd, qp)
        for link, w in f_ext.items():
            jid = po.link_to_pin_joint(self.pm, link)
            J = pin.getJointJacobian(self.pm, self.pd, jid, pin.ReferenceFrame.WORLD)
            f = pin.Force(np.asarray(w[:3], float), np.asarray(w[3:], float))
            turned = np.stack([pin.Motion(J[:, c]).cross(f).vector for c in range(nv)], -1)
            corr += J.T @ turned
        return corr


@pytest.fixture(scope="module", params=list(MODELS))
def twin(request):
    return PlanarTwin(MODELS[request.param])


def _wrenches(seed):
    rng = np.random.default_rng(seed)
    return {"l2": rng.normal(scale=20.0, size=6), "base": rng.normal(scale=20.0, size=6)}


def _pin_rnea_derivatives_ours(tw, q, v, a, f_ext):
    """Pinocchio's computeRNEADerivatives in our coordinates (see the module docstring):
    tau = T^T tau_pin(q_pin, T v, T a + Tdot v)."""
    qp, vp, ap = tw.jmap.to_pin(q, v, a)
    fl = tw.local_forces(qp, f_ext)
    args = (tw.pm, tw.pd, qp, vp, ap) + ((fl,) if fl else ())
    pin.computeRNEADerivatives(*args)
    Dq = np.asarray(tw.pd.dtau_dq) + tw.world_fixed_correction(qp, f_ext)
    Dv, Mp = np.asarray(tw.pd.dtau_dv), sym(tw.pd.M)
    tau_p = np.asarray(pin.rnea(*args))
    T, Td, planar = tw.maps(q, v)
    dvp_dq, dap_dq, dap_dv = np.zeros_like(T), np.zeros_like(T), Td.copy()
    dTt_tau = np.zeros_like(T)                      # (d T^T / d q) tau_pin
    for c, rows, cols, dRT, RT in planar:
        vxy, axy, thd = v[cols], a[cols], v[c]
        dvp_dq[rows, c] = dRT @ vxy
        dap_dq[rows, c] = dRT @ axy - thd * RT @ vxy     # d2 R^T / dtheta2 = -R^T
        dap_dv[rows, c] = dRT @ vxy
        dTt_tau[cols, c] = dRT.T @ tau_p[rows]
    dq = dTt_tau + T.T @ (Dq @ T + Dv @ dvp_dq + Mp @ dap_dq)
    dv = T.T @ (Dv @ T + Mp @ dap_dv)
    return dq, dv, T.T @ Mp @ T


def _pin_aba_derivatives_ours(tw, q, v, tau, f_ext):
    """Pinocchio's computeABADerivatives in our coordinates: a = T^T (a_pin(q_pin, T v,
    T tau) - Tdot v) (T is orthogonal, so tau_pin = T^-T tau = T tau)."""
    qp, vp, _ = tw.jmap.to_pin(q, v, np.zeros_like(v))
    T, Td, planar = tw.maps(q, v)
    tau_p = T @ tau
    fl = tw.local_forces(qp, f_ext)
    args = (tw.pm, tw.pd, qp, vp, tau_p) + ((fl,) if fl else ())
    pin.computeABADerivatives(*args)
    Minv_p = sym(tw.pd.Minv)
    Fq = np.asarray(tw.pd.ddq_dq) - Minv_p @ tw.world_fixed_correction(qp, f_ext)
    Fv = np.asarray(tw.pd.ddq_dv)
    a_p = np.asarray(pin.aba(*args))
    rest = a_p - Td @ v                             # a_pin - Tdot v, whose T^T is our a
    dvp_dq, dtaup_dq, dTdv_dq, dTdv_dv = (np.zeros_like(T), np.zeros_like(T),
                                          np.zeros_like(T), Td.copy())
    dTt_rest = np.zeros_like(T)
    for c, rows, cols, dRT, RT in planar:
        vxy, thd = v[cols], v[c]
        dvp_dq[rows, c] = dRT @ vxy
        dtaup_dq[rows, c] = dRT @ tau[cols]
        dTdv_dq[rows, c] = -thd * RT @ vxy
        dTdv_dv[rows, c] = dRT @ vxy
        dTt_rest[cols, c] = dRT.T @ rest[rows]
    fq = dTt_rest + T.T @ (Fq @ T + Fv @ dvp_dq + Minv_p @ dtaup_dq - dTdv_dq)
    fv = T.T @ (Fv @ T - dTdv_dv)
    return fq, fv, T.T @ Minv_p @ T


@pytest.mark.parametrize("with_fext", [False, True])
def test_rnea_derivatives_match_pinocchio(twin, with_fext):
    m = twin.model
    for seed in range(3):
        q, v, a = twin.state(seed)
        f_ext = _wrenches(100 + seed) if with_fext else None
        ours = m.inverse_dynamics_derivatives(q, v, a, f_ext=f_ext)
        theirs = _pin_rnea_derivatives_ours(twin, q, v, a, f_ext)
        for name, x, y in zip(("dtau_dq", "dtau_dv", "M"), ours, theirs):
            assert rel_err(x, y) < TOL, (name, seed, rel_err(x, y))


@pytest.mark.parametrize("with_fext", [False, True])
def test_aba_derivatives_match_pinocchio(twin, with_fext):
    m = twin.model
    for seed in range(3):
        q, v, tau = twin.state(10 + seed)
        f_ext = _wrenches(110 + seed) if with_fext else None
        ours = m.forward_dynamics_derivatives(q, v, tau, f_ext=f_ext)
        theirs = _pin_aba_derivatives_ours(twin, q, v, tau, f_ext)
        for name, x, y in zip(("dqdd_dq", "dqdd_dv", "Minv"), ours, theirs):
            assert rel_err(x, y) < TOL, (name, seed, rel_err(x, y))


def _fd(f, x, eps=1e-6, step=np.add):
    """Central differences of f along each coordinate of x, moved by step(x, dx)."""
    return np.stack([(f(step(x, e)) - f(step(x, -e))) / (2 * eps)
                     for e in np.eye(x.size) * eps], -1)


def test_derivatives_by_central_differences(twin):
    m = twin.model
    q, v, a = twin.state(30)
    f_ext = _wrenches(31)
    dq, dv, M = m.inverse_dynamics_derivatives(q, v, a, f_ext=f_ext)
    assert rel_err(dq, _fd(lambda x: m.inverse_dynamics(x, v, a, f_ext=f_ext), q,
                           step=m.integrate)) < 1e-7
    assert rel_err(dv, _fd(lambda x: m.inverse_dynamics(q, x, a, f_ext=f_ext), v)) < 1e-7
    assert rel_err(M, m.mass_matrix(q)) < 1e-13
    fq, fv, Minv = m.forward_dynamics_derivatives(q, v, a, f_ext=f_ext)
    assert rel_err(fq, _fd(lambda x: m.forward_dynamics(x, v, a, f_ext=f_ext), q,
                           step=m.integrate)) < 1e-7
    assert rel_err(fv, _fd(lambda x: m.forward_dynamics(q, x, a, f_ext=f_ext), v)) < 1e-7


def test_centroidal_matches_pinocchio(twin):
    m, pm, pd = twin.model, twin.pm, twin.pd
    for seed in range(3):
        q, v, a = twin.state(20 + seed)
        qp, vp, ap = twin.jmap.to_pin(q, v, a)
        T, _, _ = twin.maps(q, v)
        Ag_pin = np.asarray(pin.computeCentroidalMap(pm, pd, qp))
        assert rel_err(m.centroidal_momentum_matrix(q), Ag_pin @ T) < TOL   # h = Ag_pin T v
        c = m.centroidal(q, v, a)
        pin.computeCentroidalMomentumTimeVariation(pm, pd, qp, vp, ap)
        assert rel_err(c["momentum"], pd.hg.vector) < TOL
        assert rel_err(c["momentum_rate"], pd.dhg.vector) < TOL
        pin.centerOfMass(pm, pd, qp, vp, ap)
        for key, ref in (("com", pd.com[0]), ("com_velocity", pd.vcom[0]),
                         ("com_acceleration", pd.acom[0])):
            assert rel_err(c[key], ref) < TOL, key


@pytest.mark.parametrize("path", urdf2dyn.available_simd_paths())
def test_every_path_equals_one_sample_calls_bit_for_bit(twin, path):
    """11 samples (lane groups and a scalar tail) on each SIMD path against one-sample calls
    on the portable path, with per-sample wrenches: the chain code compiled over lanes."""
    m, n = twin.model, 11
    q, v, a = po.random_state(m, np.random.default_rng(40), n)
    rng = np.random.default_rng(41)
    f_ext = {"l2": rng.normal(scale=20.0, size=(n, 6)), "l1": rng.normal(size=(n, 6))}
    fns = (m.inverse_dynamics_derivatives, m.forward_dynamics_derivatives)
    urdf2dyn.set_simd_path("scalar")
    try:
        ref = [[fn(q[k], v[k], a[k], f_ext={kk: w[k] for kk, w in f_ext.items()})
                for k in range(n)] for fn in fns]
        urdf2dyn.set_simd_path(path)
        for fn, r in zip(fns, ref):
            got = fn(q, v, a, f_ext=f_ext)
            for k in range(n):
                for g, x in zip(got, r[k]):
                    assert np.array_equal(g[k], x), (path, fn.__name__, k)
    finally:
        urdf2dyn.set_simd_path(None)
