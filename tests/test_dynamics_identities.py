"""Physics identities for urdf2dyn's dynamics family, independent of any other dynamics library.

Each test relates two DIFFERENT code paths (or a code path and a numerical derivative):
M symmetric positive definite; M a + h = RNEA (also with external wrenches, through J^T f);
ABA inverts RNEA; C v = h - g; Mdot - 2C skew-symmetric (Mdot by central differences);
Jacobians = derivatives of forward kinematics; link velocities = J v; T = v^T M v / 2;
dU/dq = g; U + m g.com constant; d(T+U)/dt = tau.v; energy conservation of a passive RK4
simulation; RK4 reproduces a trajectory from its inverse-dynamics torques with 4th-order
convergence; singular mass matrices are reported; configuration-space operations
(integrate / difference / normalize / neutral / random_configuration).

Configuration perturbations for finite differences use an INDEPENDENT integrator (_int_ref:
scipy's matrix exponential on SE(3) for floating joints, q + v dt otherwise), not model.integrate.
"""

import math
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from scipy.linalg import expm
from scipy.spatial.transform import Rotation

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from urdfgen import random_urdf  # noqa: E402

import urdf2dyn  # noqa: E402

# ----------------------------------------------------------------------------- models

# (name, floating_base, floating joint inside, planar, n_links)
_RANDOM = {
    "rand-fixed": (False, False, False, 8),
    "rand-fixed-big": (False, False, False, 13),
    "rand-floatbase": (True, False, False, 7),
    "rand-floatjoint": (False, True, False, 7),
    "rand-planar": (False, False, True, 7),
    "rand-planar-floatbase": (True, False, True, 6),
}
MODELS = ["arm7", "robot2r"] + list(_RANDOM)
FIXED_BASE_MODELS = [m for m in MODELS if m in ("arm7", "robot2r") or not (_RANDOM[m][0] or _RANDOM[m][1])]


def _subtree_masses_ok(xml, floating_base):
    """Independent check (ElementTree) that M is regular for generic axes: every movable joint carries
    some mass below it, and the rigid body moved by a floating joint has mass of its own (a massless
    free body whose mass hangs on further joints has more freedoms than its mass can resist)."""
    root = ET.fromstring(xml.encode())
    mass = {}
    for l in root.findall("link"):
        m = 0.0
        inert = l.find("inertial")
        if inert is not None and inert.find("mass") is not None:
            m = float(inert.find("mass").get("value"))
        mass[l.get("name")] = m
    children, parent_of, jtype = {}, {}, {}
    for j in root.findall("joint"):
        p, c = j.find("parent").get("link"), j.find("child").get("link")
        children.setdefault(p, []).append(c)
        parent_of[c] = p
        jtype[c] = j.get("type")
    base = [l for l in mass if l not in parent_of][0]

    def sub(l):
        return mass[l] + sum(sub(c) for c in children.get(l, []))

    def own(l):  # the link and everything welded to it
        return mass[l] + sum(own(c) for c in children.get(l, []) if jtype[c] == "fixed")
    movable = [c for c, t in jtype.items() if t != "fixed"]
    if not all(sub(c) > 0.0 for c in movable):
        return False
    free = [c for c, t in jtype.items() if t == "floating"] + ([base] if floating_base else [])
    if not all(own(c) > 0.0 for c in free):
        return False
    # at least two movable joints in a row somewhere (otherwise M may be constant)
    def movable_depth(l):
        d = [movable_depth(c) + (jtype[c] != "fixed") for c in children.get(l, [])]
        return max(d) if d else 0
    return movable_depth(base) >= 2


def _urdf_limits(xml):
    """{joint name: (type, lower, upper)} from the URDF text (ElementTree)."""
    root = ET.fromstring(xml.encode())
    out = {}
    for j in root.findall("joint"):
        lim = j.find("limit")
        lo = hi = None
        if lim is not None and lim.get("lower") is not None and lim.get("upper") is not None:
            lo, hi = float(lim.get("lower")), float(lim.get("upper"))
        out[j.get("name")] = (j.get("type"), lo, hi)
    return out


_CACHE = {}


def get(name):
    """(model, xml text, floating_base)."""
    if name in _CACHE:
        return _CACHE[name]
    if name in ("arm7", "robot2r"):
        with open(urdf2dyn.data_path(f"{name}.urdf"), encoding="utf-8") as fh:
            xml = fh.read()
        fb = False
    else:
        fb, froot, planar, n = _RANDOM[name]
        base = sum(map(ord, name))
        for attempt in range(60):
            xml = random_urdf(base + 977 * attempt, n_links=n, floating_root=froot, planar=planar)
            if _subtree_masses_ok(xml, fb):
                break
        else:  # pragma: no cover
            raise AssertionError(name)
    model = urdf2dyn.load(xml, floating_base=fb)
    _CACHE[name] = (model, xml, fb)
    return _CACHE[name]


# ----------------------------------------------------------------------------- independent helpers

def _skew(w):
    return np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])


def _float_step(qj, vj, dt):
    """Floating joint: pose(q) * exp(dt [v]) with the body twist v = [lin; ang] (scipy expm)."""
    H = np.eye(4)
    H[:3, :3] = Rotation.from_quat(qj[3:7]).as_matrix()
    H[:3, 3] = qj[:3]
    X = np.zeros((4, 4))
    X[:3, :3] = _skew(vj[3:6] * dt)
    X[:3, 3] = vj[:3] * dt
    H1 = H @ expm(X)
    quat = Rotation.from_matrix(H1[:3, :3]).as_quat()  # x y z w
    if np.dot(quat, qj[3:7]) < 0:
        quat = -quat
    return np.concatenate([H1[:3, 3], quat])


def _int_ref(model, q, v, dt):
    q = np.asarray(q, float)
    out = q.copy()
    for j in model.joints:
        qi, vi = j.q_index, j.v_index
        if j.type == "floating":
            out[qi:qi + 7] = _float_step(q[qi:qi + 7], v[vi:vi + 6], dt)
        else:
            n = 3 if j.type == "planar" else 1
            out[qi:qi + n] = q[qi:qi + n] + dt * np.asarray(v[vi:vi + n])
    return out


def _quat_slices(model):
    return [(j.q_index + 3, j.q_index + 7) for j in model.joints if j.type == "floating"]


def _align(model, got, ref):
    """Quaternion signs of ``got`` flipped to match ``ref``; continuous angles taken modulo 2 pi."""
    got = np.array(got, float)
    for a, b in _quat_slices(model):
        if np.dot(got[a:b], ref[a:b]) < 0:
            got[a:b] = -got[a:b]
    for j in model.joints:
        if j.type == "continuous":
            i = j.q_index
            got[i] = ref[i] + math.remainder(got[i] - ref[i], 2 * math.pi)
    return got


def random_state(model, rng, vscale=1.0):
    q = np.zeros(model.nq)
    for j in model.joints:
        i = j.q_index
        if j.type in ("revolute", "continuous"):
            q[i] = rng.uniform(-math.pi, math.pi)
        elif j.type == "prismatic":
            q[i] = rng.uniform(-0.5, 0.5)
        elif j.type == "planar":
            q[i:i + 3] = rng.uniform(-1, 1, 3)
            q[i + 2] *= math.pi
        else:
            q[i:i + 3] = rng.normal(scale=0.5, size=3)
            qt = rng.normal(size=4)
            q[i + 3:i + 7] = qt / np.linalg.norm(qt)
    return q, rng.normal(size=model.nv) * vscale, rng.normal(size=model.nv)


def rel(x, ref, floor=1.0):
    x = np.asarray(x, float)
    ref = np.asarray(ref, float)
    assert x.shape == ref.shape, (x.shape, ref.shape)
    return float(np.max(np.abs(x - ref)) / max(floor, float(np.max(np.abs(ref)))))


def _rng(name, salt):
    return np.random.default_rng([sum(map(ord, name)), salt])


def _random_fext(model, rng, k=2):
    links = model.link_names
    pick = rng.choice(len(links), size=min(k, len(links)), replace=False)
    return {links[i]: rng.normal(size=6) * 3.0 for i in pick}


# ----------------------------------------------------------------------------- mass matrix

@pytest.mark.parametrize("name", MODELS)
def test_mass_matrix_symmetric_positive_definite(name):
    model, _, _ = get(name)
    rng = _rng(name, 1)
    for _ in range(3):
        q, _, _ = random_state(model, rng)
        M = model.mass_matrix(q)
        assert M.shape == (model.nv, model.nv)
        assert np.max(np.abs(M - M.T)) <= 1e-14 * max(1.0, np.max(np.abs(M)))
        ev = np.linalg.eigvalsh(0.5 * (M + M.T))
        assert ev[0] > 1e-10 * max(1.0, ev[-1]), ev


@pytest.mark.parametrize("name", MODELS)
def test_crba_plus_nonlinear_effects_equals_rnea(name):
    model, _, _ = get(name)
    rng = _rng(name, 2)
    for _ in range(3):
        q, v, a = random_state(model, rng)
        M = model.mass_matrix(q)
        h = model.nonlinear_effects(q, v)
        assert rel(M @ a + h, model.inverse_dynamics(q, v, a)) < 1e-11
        z = np.zeros(model.nv)
        assert rel(model.gravity_torques(q), model.inverse_dynamics(q, z, z)) < 1e-11
        assert rel(h, model.inverse_dynamics(q, v, z)) < 1e-11


@pytest.mark.parametrize("name", MODELS)
def test_rnea_external_wrenches_enter_through_jacobian_transpose(name):
    """ID(q,v,a,f) = M a + h - sum_k J_k^T [f_k; m_k - p_k x f_k] (moment moved from the world origin to
    the link origin p_k, where model.jacobian's linear rows apply)."""
    model, _, _ = get(name)
    rng = _rng(name, 3)
    q, v, a = random_state(model, rng)
    f_ext = _random_fext(model, rng, k=3)
    pos, _ = model.forward_kinematics(q)
    idx = {l: i for i, l in enumerate(model.link_names)}
    expect = model.mass_matrix(q) @ a + model.nonlinear_effects(q, v)
    for link, w in f_ext.items():
        p = pos[idx[link]]
        w_at_link = np.concatenate([w[:3], w[3:] - np.cross(p, w[:3])])
        expect -= model.jacobian(q, link).T @ w_at_link
    assert rel(model.inverse_dynamics(q, v, a, f_ext=f_ext), expect) < 1e-11


@pytest.mark.parametrize("name", MODELS)
def test_forward_dynamics_inverts_inverse_dynamics(name):
    model, _, _ = get(name)
    rng = _rng(name, 4)
    for _ in range(3):
        q, v, a = random_state(model, rng)
        tau = model.inverse_dynamics(q, v, a)
        assert rel(model.forward_dynamics(q, v, tau), a) < 1e-9
        f_ext = _random_fext(model, rng)
        tau_f = model.inverse_dynamics(q, v, a, f_ext=f_ext)
        assert rel(model.forward_dynamics(q, v, tau_f, f_ext=f_ext), a) < 1e-9
        # and against the dense solve
        M, h = model.mass_matrix(q), model.nonlinear_effects(q, v)
        tau2 = rng.normal(size=model.nv)
        assert rel(model.forward_dynamics(q, v, tau2), np.linalg.solve(M, tau2 - h)) < 1e-9


# ----------------------------------------------------------------------------- Coriolis

@pytest.mark.parametrize("name", MODELS)
def test_coriolis_times_v_is_h_minus_g(name):
    model, _, _ = get(name)
    rng = _rng(name, 5)
    for _ in range(3):
        q, v, _ = random_state(model, rng)
        C = model.coriolis_matrix(q, v)
        assert C.shape == (model.nv, model.nv)
        assert rel(C @ v, model.nonlinear_effects(q, v) - model.gravity_torques(q)) < 1e-11


@pytest.mark.parametrize("name", MODELS)
def test_mdot_minus_2c_skew_symmetric(name):
    model, _, _ = get(name)
    rng = _rng(name, 6)
    eps = 1e-6
    for _ in range(2):
        q, v, _ = random_state(model, rng)
        Mp = model.mass_matrix(_int_ref(model, q, v, eps))
        Mm = model.mass_matrix(_int_ref(model, q, v, -eps))
        Mdot = (Mp - Mm) / (2 * eps)
        S = Mdot - 2 * model.coriolis_matrix(q, v)
        scale = max(1.0, float(np.max(np.abs(Mdot))))
        assert np.max(np.abs(S + S.T)) / scale < 1e-6, np.max(np.abs(S + S.T))
        # Mdot is not trivially skew: the check has teeth
        assert np.max(np.abs(Mdot)) > 1e-6 or model.nv == 1


# ----------------------------------------------------------------------------- kinematics

def _fk_fd(model, q, v, eps, links, points):
    """Central differences of link point positions and rotations along _int_ref(q, +-eps v)."""
    pp, Rp = model.forward_kinematics(_int_ref(model, q, v, eps))
    pm, Rm = model.forward_kinematics(_int_ref(model, q, v, -eps))
    idx = {l: i for i, l in enumerate(model.link_names)}
    out = []
    for link, pt in zip(links, points):
        i = idx[link]
        xp = pp[i] + Rp[i] @ pt
        xm = pm[i] + Rm[i] @ pt
        lin = (xp - xm) / (2 * eps)
        ang = Rotation.from_matrix(Rp[i] @ Rm[i].T).as_rotvec() / (2 * eps)
        out.append(np.concatenate([lin, ang]))
    return out


@pytest.mark.parametrize("name", MODELS)
def test_jacobian_is_derivative_of_forward_kinematics(name):
    model, _, _ = get(name)
    rng = _rng(name, 7)
    eps = 1e-6
    links = list(model.link_names)
    for _ in range(2):
        q, v, _ = random_state(model, rng)
        points = [np.zeros(3) if k % 2 == 0 else rng.normal(size=3) * 0.3 for k in range(len(links))]
        fd = _fk_fd(model, q, v, eps, links, points)
        Vl = model.link_velocities(q, v)
        for k, link in enumerate(links):
            pt = points[k]
            J = model.jacobian(q, link) if k % 2 == 0 else model.jacobian(q, link, point=pt)
            assert J.shape == (6, model.nv)
            assert rel(J @ v, fd[k], floor=1.0) < 1e-7, (link, J @ v, fd[k])
            # link velocities = J v at the link origin
            J0 = model.jacobian(q, link)
            assert rel(Vl[k], J0 @ v) < 1e-12, link
        # the point Jacobian is the origin Jacobian shifted by R p (rigid body)
        _, R = model.forward_kinematics(q)
        for k, link in enumerate(links[:5]):
            pt = rng.normal(size=3)
            J0 = model.jacobian(q, link)
            Jp = model.jacobian(q, link, point=pt)
            r = R[k] @ pt
            assert rel(Jp[:3], J0[:3] - _skew(r) @ J0[3:]) < 1e-12
            assert rel(Jp[3:], J0[3:]) < 1e-14


@pytest.mark.parametrize("name", MODELS)
def test_joint_positions_are_child_link_origins(name):
    model, _, _ = get(name)
    rng = _rng(name, 8)
    q, _, _ = random_state(model, rng)
    pos, rot = model.forward_kinematics(q)
    idx = {l: i for i, l in enumerate(model.link_names)}
    jp = model.joint_positions(q)
    assert jp.shape == (len(model.joints), 3)
    for k, j in enumerate(model.joints):
        assert rel(jp[k], pos[idx[j.child]]) < 1e-13
    # rotations are orthonormal
    L = len(model.link_names)
    err = np.abs(np.einsum("lij,lkj->lik", rot, rot) - np.eye(3)[None]).max()
    assert err < 1e-12 and np.allclose(np.linalg.det(rot), np.ones(L))


# ----------------------------------------------------------------------------- energies

@pytest.mark.parametrize("name", MODELS)
def test_kinetic_energy_quadratic_form(name):
    model, _, _ = get(name)
    rng = _rng(name, 9)
    for _ in range(3):
        q, v, _ = random_state(model, rng)
        T = model.kinetic_energy(q, v)
        assert abs(T - 0.5 * v @ model.mass_matrix(q) @ v) <= 1e-12 * max(1.0, abs(T))
        assert T > 0


@pytest.mark.parametrize("name", MODELS)
def test_potential_energy_gradient_is_gravity_torques(name):
    """dU/dq_k along the tangent direction e_k equals g_k (fixed base: plain partial derivatives),
    with the default gravity and with a random one (robot2r moves in a horizontal plane)."""
    model, xml, fb = get(name)
    rng = _rng(name, 10)
    eps = 1e-5
    tilted = urdf2dyn.load(xml, floating_base=fb)
    tilted.gravity = rng.normal(size=3) * 4.0
    for mdl in (model, tilted):
        q, _, _ = random_state(mdl, rng)
        grad = np.zeros(mdl.nv)
        for k in range(mdl.nv):
            e = np.zeros(mdl.nv)
            e[k] = 1.0
            grad[k] = (mdl.potential_energy(_int_ref(mdl, q, e, eps))
                       - mdl.potential_energy(_int_ref(mdl, q, e, -eps))) / (2 * eps)
        g = mdl.gravity_torques(q)
        assert rel(grad, g) < 1e-7, (grad, g)
    assert np.max(np.abs(g)) > 1e-3


@pytest.mark.parametrize("name", MODELS)
def test_potential_energy_and_center_of_mass(name):
    """U(q) + m_total g.com(q) does not depend on q (it is 0 if U counts every link)."""
    model, _, _ = get(name)
    rng = _rng(name, 11)
    g = np.asarray(model.gravity, float)
    vals = []
    for _ in range(4):
        q, _, _ = random_state(model, rng)
        vals.append(model.potential_energy(q) + model.total_mass * g @ model.center_of_mass(q))
    scale = max(1.0, model.total_mass * 9.81)
    assert np.ptp(vals) < 1e-12 * scale * 10, vals


# ----------------------------------------------------------------------------- trajectories

def _hat(xi):
    X = np.zeros((4, 4))
    X[:3, :3] = _skew(xi[3:6])
    X[:3, 3] = xi[:3]
    return X


def _vee(X):
    return np.array([X[0, 3], X[1, 3], X[2, 3], X[2, 1], X[0, 2], X[1, 0]])


def _pose_to_q(H, q_prev):
    quat = Rotation.from_matrix(H[:3, :3]).as_quat()
    if np.dot(quat, q_prev[3:7]) < 0:
        quat = -quat
    return np.concatenate([H[:3, 3], quat])


class Trajectory:
    """Smooth analytic motion.  1-DoF and planar coordinates: q = q0 + A sin(w t + phi).  A floating
    joint: pose H(t) = H0 exp(alpha(t) X1) exp(beta(t) X2) with two random twists X1, X2, whose body
    twist V = Ad_{exp(-beta X2)} (alpha' X1) + beta' X2 and its derivative are in closed form
    (V and dV/dt do not commute, so Lie-group integrators are really exercised)."""

    def __init__(self, model, rng, amp=0.6):
        self.model = model
        self.q0, _, _ = random_state(model, rng)
        self.A = rng.uniform(-amp, amp, size=model.nv)
        self.w = rng.uniform(1.0, 3.0, size=model.nv)
        self.phi = rng.uniform(-math.pi, math.pi, size=model.nv)
        self.flt = {}
        for j in model.joints:
            if j.type == "floating":
                qj = self.q0[j.q_index:j.q_index + 7]
                H0 = np.eye(4)
                H0[:3, :3] = Rotation.from_quat(qj[3:7]).as_matrix()
                H0[:3, 3] = qj[:3]
                self.flt[j.name] = (H0, _hat(rng.normal(size=6) * 0.6), _hat(rng.normal(size=6) * 0.6),
                                    rng.uniform(1.0, 3.0, size=2), rng.uniform(-math.pi, math.pi))

    @staticmethod
    def _floating(H0, X1, X2, w, ph, t):
        al, ald, aldd = t + 0.3 * math.sin(w[0] * t), 1 + 0.3 * w[0] * math.cos(w[0] * t), \
            -0.3 * w[0] ** 2 * math.sin(w[0] * t)
        be, bed, bedd = 0.8 * math.sin(w[1] * t + ph), 0.8 * w[1] * math.cos(w[1] * t + ph), \
            -0.8 * w[1] ** 2 * math.sin(w[1] * t + ph)
        E2 = expm(be * X2)
        E2i = expm(-be * X2)
        H = H0 @ expm(al * X1) @ E2
        Y = E2i @ X1 @ E2
        V = ald * Y + bed * X2
        Vd = aldd * Y + ald * bed * (Y @ X2 - X2 @ Y) + bedd * X2
        return H, _vee(V), _vee(Vd)

    def __call__(self, t):
        m = self.model
        q = self.q0.copy()
        v = np.zeros(m.nv)
        a = np.zeros(m.nv)
        s = np.sin(self.w * t + self.phi)
        c = np.cos(self.w * t + self.phi)
        for j in m.joints:
            qi, vi = j.q_index, j.v_index
            if j.type == "floating":
                H, V, Vd = self._floating(*self.flt[j.name], t)
                q[qi:qi + 7] = _pose_to_q(H, self.q0[qi:qi + 7])
                v[vi:vi + 6] = V
                a[vi:vi + 6] = Vd
            else:
                n = 3 if j.type == "planar" else 1
                sl = slice(vi, vi + n)
                q[qi:qi + n] += self.A[sl] * s[sl]
                v[sl] = self.A[sl] * self.w[sl] * c[sl]
                a[sl] = -self.A[sl] * self.w[sl] ** 2 * s[sl]
        return q, v, a


@pytest.mark.parametrize("name", MODELS)
def test_power_balance(name):
    """d/dt (T + U) = tau . v along a trajectory driven by tau = ID(q, v, a)."""
    model, _, _ = get(name)
    traj = Trajectory(model, _rng(name, 12))
    h = 1e-4

    def energy(t):
        q, v, _ = traj(t)
        return model.kinetic_energy(q, v) + model.potential_energy(q)
    for t in (0.0, 0.3, 0.77):
        q, v, a = traj(t)
        power = model.inverse_dynamics(q, v, a) @ v
        dE = (energy(t + h) - energy(t - h)) / (2 * h)
        scale = max(1.0, abs(power), abs(energy(t)))
        assert abs(dE - power) / scale < 1e-6, (t, dE, power)


def _simulate(model, q0, v0, tau, dt, steps, method="rk4"):
    qs, vs = urdf2dyn.simulate(model, q0, v0, tau, dt, method=method)
    assert qs.shape == (steps + 1, model.nq) and vs.shape == (steps + 1, model.nv)
    return qs, vs


def test_passive_rk4_floating_tree_conserves_energy():
    fb_xml = None
    for attempt in range(60):
        xml = random_urdf(4242 + attempt, n_links=6)
        if _subtree_masses_ok(xml, True):
            fb_xml = xml
            break
    model = urdf2dyn.load(fb_xml, floating_base=True)
    rng = np.random.default_rng(77)
    q0, v0, _ = random_state(model, rng, vscale=0.5)
    dt, steps = 1e-4, 10000
    qs, vs = _simulate(model, q0, v0, np.zeros((steps, model.nv)), dt, steps)
    assert qs.shape == (steps + 1, model.nq) and vs.shape == (steps + 1, model.nv)
    assert np.array_equal(qs[0], q0) and np.array_equal(vs[0], v0)
    T = model.kinetic_energy(qs, vs)
    U = model.potential_energy(qs)
    E = T + U
    scale = max(float(np.max(T)), abs(float(E[0])))
    drift = float(np.max(np.abs(E - E[0])))
    assert drift / scale < 1e-6, (drift, scale)
    # the motion is not trivial: the base falls and exchanges U for T
    assert np.ptp(U) > 1.0 and np.ptp(T) > 1.0
    # quaternions stay normalised
    for a, b in _quat_slices(model):
        assert np.max(np.abs(np.linalg.norm(qs[:, a:b], axis=1) - 1.0)) < 1e-9


@pytest.mark.parametrize("name", ["arm7", "rand-fixed-big", "rand-planar-floatbase"])
def test_rk4_reproduces_inverse_dynamics_trajectory(name):
    """Torques tau = ID(q*(t), v*(t), a*(t)) of a smooth analytic motion, sampled every dt/2
    (simulate(..., half_steps=True) gives RK4 the exact torque at each stage time), make
    simulate(method='rk4') follow q*(t); the error shrinks ~16x when dt halves (4th order).
    On a floating base the body twist and its derivative do not commute, which a Lie-group RK4
    must handle (dexp^-1 correction) to stay 4th order."""
    model, _, _ = get(name)
    traj = Trajectory(model, _rng(name, 13), amp=0.5)
    t_end = 0.8
    errs = []
    for steps in (40, 80, 160):
        dt = t_end / steps
        samples = [traj(k * dt / 2) for k in range(2 * steps + 1)]
        Qr = np.array([s_[0] for s_ in samples])
        Vr = np.array([s_[1] for s_ in samples])
        Ar = np.array([s_[2] for s_ in samples])
        tau = model.inverse_dynamics(Qr, Vr, Ar)
        qs, vs = urdf2dyn.simulate(model, Qr[0], Vr[0], tau, dt, method="rk4", half_steps=True)
        assert qs.shape == (steps + 1, model.nq)
        err = 0.0
        for k in range(steps + 1):  # whole trajectory, at the step boundaries
            err = max(err, np.max(np.abs(_align(model, qs[k], Qr[2 * k]) - Qr[2 * k])),
                      np.max(np.abs(vs[k] - Vr[2 * k])))
        errs.append(err)
    for e0, e1 in zip(errs, errs[1:]):
        assert 11.0 < e0 / e1 < 22.0, (name, errs, e0 / e1)
    assert errs[-1] < 1e-5, errs


def test_callable_controller_sees_the_simulated_state():
    """A callable tau(t, q, v) is sampled at the start of each step (held over it) with the state
    the simulation returns; a computed-torque controller drives arm7 towards a set point."""
    model, _, _ = get("arm7")
    rng = np.random.default_rng(8)
    q0, v0, _ = random_state(model, rng, vscale=0.2)
    q_goal = q0 + 0.1
    seen = []
    dt, steps = 2e-3, 400

    def ctrl(t, q, v):
        seen.append((t, q.copy(), v.copy()))
        return model.mass_matrix(q) @ (25.0 * (q_goal - q) - 10.0 * v) + model.nonlinear_effects(q, v)
    qs, vs = urdf2dyn.simulate(model, q0, v0, ctrl, dt, method="rk4", steps=steps)
    assert qs.shape == (steps + 1, model.nq) and len(seen) == steps
    for k, (t, q, v) in enumerate(seen):
        assert abs(t - k * dt) < 1e-12 and np.array_equal(q, qs[k]) and np.array_equal(v, vs[k])
    # held torques: identical to the array form with the same per-step torques
    tau = np.array([model.mass_matrix(q) @ (25.0 * (q_goal - q) - 10.0 * v) + model.nonlinear_effects(q, v)
                    for _, q, v in seen])
    qa, va = urdf2dyn.simulate(model, q0, v0, tau, dt, method="rk4")
    assert np.max(np.abs(qa - qs)) < 1e-12 and np.max(np.abs(va - vs)) < 1e-12
    assert np.max(np.abs(qs[-1] - q_goal)) < 2e-2


# A physical body (principal moments 0.148, 0.198, 0.304 satisfy the triangle inequality: a
# 2 kg brick of sides 1.03 x 0.87 x 0.36 m about its centre), tilted by the products and the rpy.
_BRICK_INERTIA = np.array([[0.3, 0.02, 0.0], [0.02, 0.2, 0.01], [0.0, 0.01, 0.15]])
_BRICK = """<robot name="brick"><link name="b"><inertial>
<origin xyz="0.1 -0.05 0.2" rpy="0.3 0.2 0.1"/><mass value="2"/>
<inertia ixx="0.3" ixy="0.02" ixz="0" iyy="0.2" iyz="0.01" izz="0.15"/></inertial></link></robot>"""


def test_rk4_free_rigid_body_fourth_order():
    """A free tumbling rigid body (floating base, no gravity) against an independent Newton-Euler
    solution (scipy DOP853, tight tolerances): RK4's error must shrink ~16x when dt halves."""
    from scipy.integrate import solve_ivp
    from urdfgen import rpy_to_matrix
    model = urdf2dyn.load(_BRICK, floating_base=True)
    model.gravity = [0.0, 0.0, 0.0]
    mass, c = 2.0, np.array([0.1, -0.05, 0.2])
    R = rpy_to_matrix((0.3, 0.2, 0.1))
    Ic = R @ _BRICK_INERTIA @ R.T
    cx = _skew(c)
    I6 = np.block([[mass * np.eye(3), -mass * cx], [mass * cx, Ic - mass * cx @ cx]])  # [lin; ang]
    q0 = np.array([0.1, 0.2, -0.3, 0.0, 0.0, 0.0, 1.0])
    v0 = np.array([0.3, -0.2, 0.5, 2.0, 1.0, -1.5])

    def rhs(t, y):
        H = y[:12].reshape(4, 3)  # rotation rows 0-2, position row 3
        Rm, p = H[:3], H[3]
        V = y[12:]
        h = I6 @ V
        force = np.concatenate([np.cross(V[3:], h[:3]), np.cross(V[3:], h[3:]) + np.cross(V[:3], h[:3])])
        dV = np.linalg.solve(I6, -force)
        dR = Rm @ _skew(V[3:])
        dp = Rm @ V[:3]
        return np.concatenate([dR.ravel(), dp, dV])
    y0 = np.concatenate([np.eye(3).ravel(), q0[:3], v0])
    t_end = 1.0
    sol = solve_ivp(rhs, (0, t_end), y0, method="DOP853", rtol=1e-13, atol=1e-13)
    Rf, pf, vf = sol.y[:9, -1].reshape(3, 3), sol.y[9:12, -1], sol.y[12:, -1]
    errs = []
    for steps in (50, 100, 200):
        qs, vs = _simulate(model, q0, v0, np.zeros((steps, 6)), t_end / steps, steps)
        Rq = Rotation.from_quat(qs[-1, 3:]).as_matrix()
        errs.append(max(np.abs(qs[-1, :3] - pf).max(), np.abs(Rq - Rf).max(), np.abs(vs[-1] - vf).max()))
    for e0, e1 in zip(errs, errs[1:]):
        assert 11.0 < e0 / e1 < 22.0, (errs, e0 / e1)
    assert errs[-1] < 1e-5, errs


def test_simulate_methods_orders():
    """Passive arm7: rk4 converges to a fine rk4 solution; euler and semi-implicit are first order
    (error ~halves with dt)."""
    model, _, _ = get("arm7")
    rng = np.random.default_rng(5)
    q0, v0, _ = random_state(model, rng, vscale=0.3)
    t_end = 0.2
    fine = 1600
    q_fine, v_fine = _simulate(model, q0, v0, np.zeros((fine, model.nv)), t_end / fine, fine, "rk4")
    q_rk, _ = _simulate(model, q0, v0, np.zeros((200, model.nv)), t_end / 200, 200, "rk4")
    assert np.max(np.abs(q_rk[-1] - q_fine[-1])) < 1e-8
    for method in ("euler", "semi-implicit"):
        errs = []
        for steps in (200, 400):
            qm, vm = _simulate(model, q0, v0, np.zeros((steps, model.nv)), t_end / steps, steps, method)
            assert qm.shape == (steps + 1, model.nq) and np.array_equal(qm[0], q0)
            errs.append(max(np.max(np.abs(qm[-1] - q_fine[-1])), np.max(np.abs(vm[-1] - v_fine[-1]))))
        assert 1.6 < errs[0] / errs[1] < 2.5, (method, errs)


# ----------------------------------------------------------------------------- singular inertia

_MASSLESS_LEAF = """<robot name="massless_leaf">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0.2 0 0"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial></link>
  <link name="tip"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="wrist" type="continuous"><parent link="arm"/><child link="tip"/><origin xyz="0.4 0 0"/><axis xyz="0 1 0"/></joint>
</robot>"""


@pytest.mark.parametrize("floating_base", [False, True])
def test_a_singular_mass_matrix_of_a_file_advises_the_librarys_check(tmp_path, floating_base):
    """A model loaded from a file with a joint moving no inertia was told to run `urdf2dyn
    check [--floating-base] FILE`, a command, by forward dynamics, which no command calls:
    the caller is told urdf2dyn.check of the file, in Python, and the advice, followed,
    names the joint."""
    path = tmp_path / "massless_leaf.urdf"
    path.write_text(_MASSLESS_LEAF)
    model = urdf2dyn.load(str(path), floating_base=floating_base)
    with pytest.raises(ValueError) as refused:
        model.forward_dynamics(model.neutral(), 0, 0)
    said = str(refused.value)
    given = f", floating_base={floating_base}" if floating_base else ""
    assert f"(`urdf2dyn.check({str(path)!r}{given})` says why for each)" in said, said
    assert "--" not in said and "urdf2dyn check " not in said, said
    found = urdf2dyn.check(str(path), floating_base=floating_base)
    assert any("wrist" in f.message for f in found), found


def test_massless_leaf_on_movable_joint_is_singular():
    model = urdf2dyn.load(_MASSLESS_LEAF)
    q, v, tau = np.array([0.3, -0.2]), np.array([0.5, 1.0]), np.array([1.0, 0.0])
    with pytest.raises(ValueError, match="(?i)singular"):
        model.forward_dynamics(q, v, tau)
    with pytest.raises(ValueError, match="(?i)singular"):
        model.forward_dynamics(np.tile(q, (3, 1)), np.tile(v, (3, 1)), np.tile(tau, (3, 1)))
    # the rest of the family still works: M has a zero row/column for the massless joint
    M = model.mass_matrix(q)
    assert M[1, 1] == 0.0 and np.all(M[1] == 0.0) and M[0, 0] > 0


def test_gimbal_lock_is_singular_and_named():
    """The human's shoulder is three revolute joints through one point with massless links
    between them: at rSJY_L = -pi/2 the rSJX_L and rSJZ_L axes line up and M loses rank
    (its smallest eigenvalue is rounding noise), so ABA refuses and says why."""
    model = urdf2dyn.load(urdf2dyn.data_path("humod_subject_a.urdf"))
    names = [j.name for j in model.joints if j.type != "fixed"]
    q = np.zeros(model.nq)
    q[names.index("rSJY_L")] = -math.pi / 2
    eig = np.linalg.eigvalsh(model.mass_matrix(q))
    assert eig[0] < 1e-12 * eig[-1]
    with pytest.raises(ValueError, match="gimbal lock"):
        model.forward_dynamics(q, np.zeros(model.nv), np.zeros(model.nv))
    q[names.index("rSJY_L")] = -1.2                     # away from the lock it is regular
    assert np.all(np.isfinite(model.forward_dynamics(q, np.zeros(model.nv),
                                                     np.zeros(model.nv))))


# ----------------------------------------------------------------------------- configuration space

@pytest.mark.parametrize("name", MODELS)
def test_integrate_difference_round_trip(name):
    model, _, _ = get(name)
    rng = _rng(name, 14)
    for _ in range(3):
        q0, v, _ = random_state(model, rng)
        v = 0.5 * v
        q1 = model.integrate(q0, v, dt=0.7)
        ref = _int_ref(model, q0, v, 0.7)
        assert rel(_align(model, q1, ref), ref) < 1e-12
        assert rel(model.difference(q0, q1), 0.7 * v) < 1e-10  # |rotation| < pi
        qb, _, _ = random_state(model, rng)
        d = model.difference(q0, qb)
        assert rel(_align(model, model.integrate(q0, d), qb), qb) < 1e-10
        assert np.max(np.abs(model.difference(q0, q0))) < 1e-14
        # composition of small steps along a constant velocity (a one-parameter subgroup)
        qh = model.integrate(model.integrate(q0, v, dt=0.35), v, dt=0.35)
        assert rel(_align(model, qh, q1), q1) < 1e-12


@pytest.mark.parametrize("name", ["rand-floatbase", "rand-floatjoint", "rand-planar-floatbase", "arm7"])
def test_normalize_and_neutral(name):
    model, _, _ = get(name)
    rng = _rng(name, 15)
    q, _, _ = random_state(model, rng)
    scaled = q.copy()
    for a, b in _quat_slices(model):
        scaled[a:b] *= rng.uniform(0.3, 3.0)
    n = model.normalize(scaled)
    assert rel(n, q) < 1e-14
    batch = model.normalize(np.stack([scaled, 2 * q - q]))
    assert batch.shape == (2, model.nq) and rel(batch[0], q) < 1e-14 and rel(batch[1], q) < 1e-14
    q0 = model.neutral()
    assert q0.shape == (model.nq,)
    expect = np.zeros(model.nq)
    for j in model.joints:
        if j.type == "floating":
            expect[j.q_index + 6] = 1.0
    assert np.array_equal(q0, expect)


@pytest.mark.parametrize("name", MODELS)
def test_random_configuration_within_limits(name):
    model, xml, _ = get(name)
    limits = _urdf_limits(xml)
    Q = model.random_configuration(n=300, seed=3)
    assert Q.shape == (300, model.nq)
    assert np.array_equal(Q, model.random_configuration(n=300, seed=3))
    assert not np.array_equal(Q, model.random_configuration(n=300, seed=4))
    q1 = model.random_configuration(seed=3)
    assert q1.shape == (model.nq,)
    for j in model.joints:
        i = j.q_index
        if j.type == "floating":
            assert np.all(np.abs(Q[:, i:i + 3]) <= 1.0)
            assert np.max(np.abs(np.linalg.norm(Q[:, i + 3:i + 7], axis=1) - 1.0)) < 1e-12
            continue
        if j.type == "planar":
            assert np.all(np.abs(Q[:, i:i + 2]) <= 1.0) and np.all(np.abs(Q[:, i + 2]) <= math.pi)
            cols = [i, i + 1, i + 2]
        else:
            typ, lo, hi = limits[j.name]
            assert typ == j.type
            if lo is None or j.type == "continuous":
                lo, hi = (-math.pi, math.pi) if j.type != "prismatic" else (-1.0, 1.0)
            assert np.all(Q[:, i] >= lo) and np.all(Q[:, i] <= hi), (j.name, lo, hi, Q[:, i].min(), Q[:, i].max())
            # spread over the interval, not a constant
            assert np.ptp(Q[:, i]) > 0.5 * (hi - lo), j.name
            cols = [i]
        assert np.all(np.std(Q[:, cols], axis=0) > 0)


def test_singular_mass_matrix_names_the_joint_that_moves_no_inertia():
    """The massless tip on 'wrist': forward dynamics, its derivatives and simulate refuse,
    naming 'wrist' (not 'shoulder') and what to do, rather than leave the user to search
    the file (romeo.urdf of example-robot-data has 24 such joints)."""
    model = urdf2dyn.load(_MASSLESS_LEAF)
    q, v, tau = np.array([0.3, -0.2]), np.array([0.5, 1.0]), np.array([1.0, 0.0])
    named = (r"singular mass matrix: .*; here joint 'wrist' moves no inertia at any "
             r"configuration: give the links they move an <inertial> \(mass and inertia\), or "
             r"make them fixed \(`urdf2dyn.check\(urdf\)` says why for each\)$")
    for call in (lambda: model.forward_dynamics(q, v, tau),
                 lambda: model.forward_dynamics(np.tile(q, (2, 3, 1)), v, tau),
                 lambda: model.forward_dynamics_derivatives(q, v, tau),
                 lambda: urdf2dyn.simulate(model, q, v, np.tile(tau, (3, 1)), dt=0.01)):
        with pytest.raises(ValueError, match=named):
            call()
    # the same check under the floating base; a rank loss that no joint explains by itself
    # (the shoulder's gimbal lock above) keeps the core's message alone
    floating = urdf2dyn.load(_MASSLESS_LEAF, floating_base=True)
    with pytest.raises(ValueError, match=r"'wrist' moves no inertia.*`urdf2dyn.check\(urdf, "
                       r"floating_base=True\)`"):
        floating.forward_dynamics(floating.neutral(), 0, 0)
