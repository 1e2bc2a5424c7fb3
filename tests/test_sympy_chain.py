"""A spatial chain against a symbolic Lagrange model derived with SymPy.

The robot (built from the parameters below, both as URDF text and as SymPy expressions):

    base --j1 (revolute, z)--> link1 --j2 (revolute, (1,1,0)/sqrt2)--> link2
         --j3 (prismatic, (0,1,1)/sqrt2)--> link3 --j4 (revolute, (1,-2,3)/sqrt14)--> link4
         --tool_joint (fixed)--> tool                 link2 --marker_joint (fixed)--> marker

Every joint origin has an offset and a non-trivial rpy, axes are neither parallel nor orthogonal,
every link has an offset CoM, an inertial frame turned by its own rpy and a full inertia tensor.
``tool`` has mass (merged through a fixed joint), ``marker`` is a massless leaf on a fixed joint,
and the root link ``base`` has an inertial that must have no effect (it is welded to the world).

The oracle is independent of any recursive algorithm:
  * URDF conventions: rpy is fixed-axis roll-pitch-yaw, R = Rz(yaw) Ry(pitch) Rx(roll); a joint
    moves its child by the joint origin, then by Rot(axis, q) (revolute) or axis * q (prismatic),
    axis in the joint frame; inertia is about the CoM in the <inertial><origin rpy> frame, so in
    the link frame it is Rc Ic Rc^T.
  * Forward kinematics by products of rotation matrices (Rodrigues' formula for joint rotations):
    R_i(q), o_i(q), CoM c_i = o_i + R_i com_i, all symbolic in q.
  * Kinetic energy T = sum_i 1/2 m_i |dc_i/dt|^2 + 1/2 w_i^T I_i w_i with dc_i/dt = (dc_i/dq) qd
    and the body angular velocity [w_i]x = R_i^T dR_i/dt = sum_j R_i^T (dR_i/dq_j) qd_j, so that
    T = 1/2 qd^T M(q) qd, with M collected symbolically from those Jacobians; potential energy
    V = -sum_i m_i g . c_i (g symbolic, so any gravity can be tested).
  * Euler-Lagrange for L = T - V, the time derivative taken by the chain rule along the motion:
        d/dt(dL/dqd_i) = sum_j M_ij qdd_j + sum_jk (dM_ij/dq_k) qd_j qd_k
        dL/dq_i        = 1/2 sum_jk (dM_jk/dq_i) qd_j qd_k - dV/dq_i
    M, dM/dq and dV/dq are exact symbolic polynomials; only the final sums are done numerically.

SymPy's general expression trees are far too slow for this (building and differentiating L for
4 joints takes minutes), so the symbolic work uses SymPy's sparse polynomial ring in
s_i = sin q_i, c_i = cos q_i (see ``_Symbolic``) and the resulting polynomials are evaluated with a
small NumPy routine instead of ``lambdify`` (``PolynomialBlock``); the derivation takes a few
seconds.
"""

import math
import time

import mpmath
import numpy as np
import pytest
from sympy.polys.domains import RealField
from sympy.polys.rings import ring

import urdf2dyn

# --------------------------------------------------------------------------- parameters


def _unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


# name, type, parent, child, origin xyz, origin rpy, axis (joint frame)
JOINTS = [
    ("j1", "revolute", "base", "link1", (0.05, -0.02, 0.30), (0.10, -0.20, 0.30), _unit((0, 0, 1))),
    ("j2", "revolute", "link1", "link2", (0.25, 0.10, 0.05), (0.40, 0.30, -0.50), _unit((1, 1, 0))),
    ("j3", "prismatic", "link2", "link3", (0.10, 0.30, -0.15), (-0.30, 0.60, 0.20), _unit((0, 1, 1))),
    ("j4", "revolute", "link3", "link4", (0.20, -0.10, 0.10), (0.70, -0.40, 1.10), _unit((1, -2, 3))),
]
FIXED = [
    ("tool_joint", "link4", "tool", (0.00, 0.05, 0.12), (0.20, 0.50, -0.30)),
    ("marker_joint", "link2", "marker", (0.30, -0.20, 0.10), (1.00, 0.00, 0.50)),
]
# link: mass, CoM xyz, inertial rpy, (ixx, iyy, izz, ixy, ixz, iyz) about the CoM, inertial frame
INERTIALS = {
    "base": (7.0, (0.01, 0.02, 0.03), (0.0, 0.0, 0.0), (0.5, 0.4, 0.3, 0.01, 0.02, 0.03)),
    "link1": (2.3, (0.12, -0.03, 0.08), (0.30, -0.10, 0.70),
              (0.031, 0.027, 0.018, 0.0041, -0.0032, 0.0027)),
    "link2": (1.7, (-0.05, 0.14, 0.02), (-0.50, 0.40, 0.20),
              (0.022, 0.035, 0.029, -0.0053, 0.0021, 0.0044)),
    "link3": (1.1, (0.03, 0.06, -0.09), (0.90, 0.20, -0.60),
              (0.015, 0.012, 0.020, 0.0018, -0.0026, -0.0011)),
    "link4": (0.9, (0.07, -0.02, 0.05), (-0.20, -0.70, 0.40),
              (0.008, 0.011, 0.006, -0.0012, 0.0009, 0.0015)),
    "tool": (0.6, (0.02, 0.01, 0.06), (0.40, 0.10, -0.90),
             (0.004, 0.003, 0.005, 0.0007, -0.0004, 0.0006)),
}
PRISMATIC_LIMIT = 0.5


def _inertia_matrix(p):
    ixx, iyy, izz, ixy, ixz, iyz = p
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def _f(x):
    return repr(float(x))


def _vec(v):
    return " ".join(_f(x) for x in v)


def make_urdf():
    """The URDF text of the chain (every number written with repr, i.e. round-trip exact).

    Elements are deliberately out of order: fixed joints first, then the movable joints from the
    tip to the root, then the links (URDF does not order them; the parser must build the tree).
    """
    out = ['<?xml version="1.0"?>', '<robot name="sympy_chain">']
    for name, parent, child, xyz, rpy in FIXED:
        out += [f'  <joint name="{name}" type="fixed">',
                f'    <parent link="{parent}"/>', f'    <child link="{child}"/>',
                f'    <origin xyz="{_vec(xyz)}" rpy="{_vec(rpy)}"/>', "  </joint>"]
    for name, jtype, parent, child, xyz, rpy, axis in reversed(JOINTS):
        lim = PRISMATIC_LIMIT if jtype == "prismatic" else 4.0
        out += [f'  <joint name="{name}" type="{jtype}">',
                f'    <parent link="{parent}"/>', f'    <child link="{child}"/>',
                f'    <origin xyz="{_vec(xyz)}" rpy="{_vec(rpy)}"/>',
                f'    <axis xyz="{_vec(axis)}"/>',
                f'    <limit lower="{-lim}" upper="{lim}" effort="100" velocity="10"/>',
                "  </joint>"]
    for link in ["base", "link1", "link2", "link3", "link4", "tool", "marker"]:
        if link not in INERTIALS:
            out.append(f'  <link name="{link}"/>')
            continue
        mass, com, rpy, p = INERTIALS[link]
        ixx, iyy, izz, ixy, ixz, iyz = (_f(x) for x in p)
        out += [f'  <link name="{link}">', "    <inertial>",
                f'      <origin xyz="{_vec(com)}" rpy="{_vec(rpy)}"/>',
                f'      <mass value="{_f(mass)}"/>',
                f'      <inertia ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" izz="{izz}"/>',
                "    </inertial>", "  </link>"]
    out.append("</robot>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- symbolic oracle


# The oracle's constants (rotations, unit axes) are computed with 100-bit mpmath numbers from the
# same float64 inputs as the URDF text, so that orthogonality and |axis| = 1 hold to ~1e-30 and
# the exact cancellations in the symbolic products really cancel.
_HP = mpmath.MPContext()
_HP.prec = 100


def rpy_matrix(rpy, lib=math):
    """URDF fixed-axis roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll). lib: math or _HP."""
    r, p, y = (float(x) for x in rpy)
    c, s = lib.cos, lib.sin
    dtype = float if lib is math else object
    rx = np.array([[1, 0, 0], [0, c(r), -s(r)], [0, s(r), c(r)]], dtype=dtype)
    ry = np.array([[c(p), 0, s(p)], [0, 1, 0], [-s(p), 0, c(p)]], dtype=dtype)
    rz = np.array([[c(y), -s(y), 0], [s(y), c(y), 0], [0, 0, 1]], dtype=dtype)
    return rz @ ry @ rx


def _unit_hp(v):
    v = [_HP.mpf(float(x)) for x in v]
    norm = _HP.sqrt(sum(x * x for x in v))
    return np.array([x / norm for x in v], dtype=object)


def _skew(u):
    return np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]], dtype=object)


class _Symbolic:
    """Polynomial arithmetic for the chain's kinematics and energies.

    A revolute angle q_i enters only through s_i = sin q_i and c_i = cos q_i, a prismatic one as
    itself (x_i), so every position, rotation, Jacobian and energy coefficient is a polynomial in
    (s_i, c_i, x_i, gx, gy, gz). SymPy's sparse polynomial ring (``sympy.polys.rings``, 100-bit
    real coefficients) does the products and derivatives: d/dq_i = c_i d/ds_i - s_i d/dc_i for a
    revolute joint, d/dx_i for a prismatic one. After every product c_i^2 is rewritten as
    1 - s_i^2 (a unique form for functions on the circle), so exact cancellations show up and the
    polynomials stay small.
    """

    def __init__(self, joints):
        names = []
        for i, joint in enumerate(joints):
            names += [f"s{i}", f"c{i}"] if joint[1] == "revolute" else [f"x{i}"]
        names += ["gx", "gy", "gz"]
        self.ring, *gens = ring(names, RealField(100))
        self.sym = dict(zip(names, gens))
        self.index = {name: k for k, name in enumerate(names)}
        self.joints = joints
        self.names = names
        self.pairs = [(self.index[f"s{i}"], self.index[f"c{i}"])
                      for i, j in enumerate(joints) if j[1] == "revolute"]
        self.min_kept, self.max_dropped = math.inf, 0.0  # bookkeeping of reduce()'s pruning

    def reduce(self, p):
        """Rewrite c^2 = 1 - s^2 (exact on the unit circle)."""
        for si, ci in self.pairs:
            if all(m[ci] < 2 for m in p):
                continue  # nothing to rewrite
            acc = {}
            for monom, coeff in p.items():
                k = monom[ci]
                half, rest = divmod(k, 2)
                for j in range(half + 1):  # (1 - s^2)^half
                    mon = list(monom)
                    mon[ci], mon[si] = rest, monom[si] + 2 * j
                    mon = tuple(mon)
                    acc[mon] = acc.get(mon, 0) + coeff * math.comb(half, j) * (-1) ** j
            p = self.ring.from_dict(acc)
        # drop the round-off left where exact cancellations happen (~1e-29 with 100-bit numbers;
        # every genuine coefficient here is > 1e-12, see test_symbolic_coefficients_are_clean)
        kept = {}
        for m, c in p.items():
            if abs(c) > 1e-20:
                kept[m] = c
                self.min_kept = min(self.min_kept, abs(float(c)))
            else:
                self.max_dropped = max(self.max_dropped, abs(float(c)))
        return self.ring.from_dict(kept)

    def reduce_all(self, a):
        return np.vectorize(self.reduce, otypes=[object])(a)

    def const(self, a):
        """An array of numbers (float or mpmath) as an array of constant polynomials."""
        dom = self.ring.domain
        to_poly = np.vectorize(lambda x: self.ring(dom(x)), otypes=[object])
        return to_poly(np.asarray(a, dtype=object))

    def d_dq(self, p, i):
        """Partial derivative with respect to joint coordinate q_i."""
        if self.joints[i][1] == "revolute":
            s, c = self.sym[f"s{i}"], self.sym[f"c{i}"]
            return self.reduce(c * p.diff(s) - s * p.diff(c))
        return p.diff(self.sym[f"x{i}"])

    def d_dq_all(self, a, i):
        return np.vectorize(lambda p: self.d_dq(p, i), otypes=[object])(a)


class PolynomialBlock:
    """Evaluate many ring polynomials at once on N points (the numeric end of the derivation).

    Every distinct monomial is computed once from a table of powers of each variable, then each
    polynomial is a dot product with its (float64) coefficients: values = monomials @ C.
    """

    def __init__(self, polys):
        monomials = sorted({m for p in polys for m in p})
        column = {m: k for k, m in enumerate(monomials)}
        self.exponents = np.array(monomials, dtype=int)  # (U, n_vars)
        self.coefficients = np.zeros((len(monomials), len(polys)))  # (U, P)
        for j, p in enumerate(polys):
            for m, c in p.items():
                self.coefficients[column[m], j] = float(c)

    def __call__(self, x):
        """x: (N, n_vars) -> (N, P)."""
        mono = np.ones((len(x), len(self.exponents)))
        for v in range(x.shape[1]):
            powers = x[:, v:v + 1] ** np.arange(self.exponents[:, v].max() + 1)  # (N, D)
            mono *= powers[:, self.exponents[:, v]]
        return mono @ self.coefficients


def derive_inverse_dynamics():
    """Return tau(q, qd, qdd, g) -> (N, n) from the Lagrangian of the chain, and a dict of
    bookkeeping (seconds spent, number of polynomial terms, pruning bounds)."""
    start = time.perf_counter()
    n = len(JOINTS)
    z = _Symbolic(JOINTS)
    g = np.array([z.sym["gx"], z.sym["gy"], z.sym["gz"]], dtype=object)

    # forward kinematics: world rotation and origin of every link, by products of rotations
    rot = {"base": z.const(np.eye(3))}
    org = {"base": z.const(np.zeros(3))}
    for i, (_, jtype, parent, child, xyz, rpy, axis) in enumerate(JOINTS):
        r0 = z.const(rpy_matrix(rpy, _HP))
        if jtype == "revolute":  # Rodrigues: Rot(u, q) = I + s K + (1 - c) K^2
            k = _skew(_unit_hp(axis))
            s, c = z.sym[f"s{i}"], z.sym[f"c{i}"]
            rot_q = z.const(np.eye(3)) + z.const(k) * s + z.const(k @ k) * (1 - c)
            rot[child] = z.reduce_all(z.reduce_all(rot[parent] @ r0) @ rot_q)
            org[child] = org[parent] + rot[parent] @ z.const(xyz)
        else:  # prismatic: slide along the axis, expressed in the joint frame
            rot[child] = z.reduce_all(rot[parent] @ r0)
            slide = z.const(xyz) + z.const(rpy_matrix(rpy, _HP) @ _unit_hp(axis)) * z.sym[f"x{i}"]
            org[child] = z.reduce_all(org[parent] + rot[parent] @ slide)
    for _, parent, child, xyz, rpy in FIXED:
        rot[child] = z.reduce_all(rot[parent] @ z.const(rpy_matrix(rpy, _HP)))
        org[child] = org[parent] + rot[parent] @ z.const(xyz)

    # energies: T = 1/2 qd^T M(q) qd (T is a quadratic form in qd; M collects its coefficients),
    # V = -sum m g . c
    mass_matrix = np.full((n, n), z.ring.zero, dtype=object)
    potential = z.ring.zero
    for link, (mass, com, rpy, p) in INERTIALS.items():
        if link == "base":
            continue  # welded to the world: no motion, constant potential
        rc = rpy_matrix(rpy, _HP)
        inertia = z.const(rc @ _inertia_matrix(p) @ rc.T)  # about the CoM, link-frame axes
        R = rot[link]
        com_w = z.reduce_all(org[link] + R @ z.const(com))
        # dc/dt = sum_j (dc/dq_j) qd_j;  [w]x = R^T dR/dt = sum_j R^T (dR/dq_j) qd_j (body frame)
        jac_c = [z.d_dq_all(com_w, j) for j in range(n)]
        jac_w = []
        for j in range(n):
            skew = z.reduce_all(R.T @ z.d_dq_all(R, j))
            jac_w.append(np.array([skew[2, 1], skew[0, 2], skew[1, 0]], dtype=object))
        for j in range(n):
            for k in range(j, n):
                term = z.reduce(mass * (jac_c[j] @ jac_c[k]) + jac_w[j] @ (inertia @ jac_w[k]))
                mass_matrix[j, k] = mass_matrix[k, j] = mass_matrix[j, k] + term
        potential += -mass * (g @ com_w)

    # Euler-Lagrange with L = 1/2 qd^T M qd - V:
    #   d/dt(dL/dqd_i) = sum_j M_ij qdd_j + sum_jk (dM_ij/dq_k) qd_j qd_k
    #   dL/dq_i        = 1/2 sum_jk (dM_jk/dq_i) qd_j qd_k - dV/dq_i
    d_mass = [[[z.d_dq(mass_matrix[i, j], k) for k in range(n)] for j in range(n)]
              for i in range(n)]
    d_potential = [z.d_dq(potential, i) for i in range(n)]

    polys = PolynomialBlock(mass_matrix.ravel().tolist() + sum(sum(d_mass, []), [])
                            + d_potential)

    def evaluate(q, v, a, gravity):
        cols = []
        for i, joint in enumerate(JOINTS):
            cols += [np.sin(q[:, i]), np.cos(q[:, i])] if joint[1] == "revolute" else [q[:, i]]
        cols += [np.full(len(q), float(x)) for x in gravity]
        values = polys(np.column_stack(cols))
        m = values[:, :n * n].reshape(-1, n, n)
        dm = values[:, n * n:n * n + n**3].reshape(-1, n, n, n)  # dm[:, i, j, k] = dM_ij/dq_k
        dv = values[:, n * n + n**3:]
        return (np.einsum("nij,nj->ni", m, a) + np.einsum("nijk,nj,nk->ni", dm, v, v)
                - 0.5 * np.einsum("njki,nj,nk->ni", dm, v, v) + dv)

    info = {"seconds": time.perf_counter() - start,
            "terms": int(np.count_nonzero(polys.coefficients)),
            "min_kept": z.min_kept, "max_dropped": z.max_dropped}
    return evaluate, info


# --------------------------------------------------------------------------- fixtures, helpers


@pytest.fixture(scope="module")
def derivation():
    return derive_inverse_dynamics()


@pytest.fixture(scope="module")
def oracle(derivation):
    fn, _ = derivation

    def tau(q, v, a, g=(0.0, 0.0, -9.81)):
        q, v, a = (np.atleast_2d(np.asarray(x, dtype=float)) for x in (q, v, a))
        return fn(q, v, a, g)
    return tau


@pytest.fixture(scope="module")
def urdf_text():
    return make_urdf()


@pytest.fixture(scope="module")
def model(urdf_text):
    return urdf2dyn.load(urdf_text)


def random_states(rng, n):
    q = rng.uniform(-math.pi, math.pi, (n, len(JOINTS)))
    q[:, 2] = rng.uniform(-0.4, 0.4, n)  # j3 is prismatic (metres)
    v = rng.normal(0.0, 2.0, (n, len(JOINTS)))
    a = rng.normal(0.0, 5.0, (n, len(JOINTS)))
    return q, v, a


def assert_rel_close(actual, expected, rtol):
    """Each sample within rtol of its own largest torque magnitude."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape
    scale = np.maximum(1e-3, np.max(np.abs(expected), axis=-1, keepdims=True))
    err = np.abs(actual - expected) / scale
    assert err.max() < rtol, f"max relative error {err.max():.3e}"


# --------------------------------------------------------------------------- the parameters


def test_parameters_are_physical():
    for link, (mass, _, _, p) in INERTIALS.items():
        eig = np.linalg.eigvalsh(_inertia_matrix(p))
        assert mass > 0 and eig.min() > 0, link
        assert eig[0] + eig[1] >= eig[2], link  # triangle inequality
    axes = [j[6] for j in JOINTS]
    for a in axes:
        assert abs(np.linalg.norm(a) - 1.0) < 1e-15


def test_rpy_convention():
    """R = Rz(y) Ry(p) Rx(r): compare with the closed-form entries of that product."""
    r, p, y = 0.3, -0.7, 1.1
    cr, sr, cp, sp_ = math.cos(r), math.sin(r), math.cos(p), math.sin(p)
    cy, sy = math.cos(y), math.sin(y)
    expected = [[cy * cp, cy * sp_ * sr - sy * cr, cy * sp_ * cr + sy * sr],
                [sy * cp, sy * sp_ * sr + cy * cr, sy * sp_ * cr - cy * sr],
                [-sp_, cp * sr, cp * cr]]
    np.testing.assert_allclose(rpy_matrix((r, p, y)), expected, atol=1e-15)
    # roll about x first: rpy (pi/2, 0, pi/2) sends y to z and then z stays z; x goes to y
    quarter = rpy_matrix((math.pi / 2, 0, math.pi / 2))
    np.testing.assert_allclose(quarter @ [0, 1, 0], [0, 0, 1], atol=1e-15)
    np.testing.assert_allclose(quarter @ [1, 0, 0], [0, 1, 0], atol=1e-15)


def test_symbolic_coefficients_are_clean(derivation):
    """The pruning in _Symbolic.reduce only ever removed round-off, never a real term."""
    _, info = derivation
    assert info["max_dropped"] < 1e-25 and info["min_kept"] > 1e-12, info


def test_oracle_identities(oracle):
    """Physics checks of the oracle alone: M symmetric positive definite; without gravity,
    power balance qd . tau = dT/dt along a motion (finite differences); gravity torques form a
    conservative field (their Jacobian is symmetric)."""
    rng = np.random.default_rng(15)
    q, v, a = random_states(rng, 30)
    zero = np.zeros_like(q)
    g = (0.3, -0.4, -9.81)
    mass = np.stack([oracle(q, zero, e, (0, 0, 0)) for e in np.eye(len(JOINTS))], axis=-1)
    np.testing.assert_allclose(mass, np.swapaxes(mass, 1, 2), atol=1e-13)
    assert np.linalg.eigvalsh(mass).min() > 0
    # tau(q, v, 0) with no gravity = C(q, v) v; with M symmetric, qd . C qd = 1/2 qd . Mdot qd, so
    # d/dt (1/2 qd^T M qd) = qd . (M qdd + C qd) = qd . tau  (power balance without gravity)
    h = 1e-6
    for k in range(len(q)):
        def kinetic(t):
            qt, vt = q[k] + v[k] * t + 0.5 * a[k] * t * t, v[k] + a[k] * t
            m = np.stack([oracle(qt, np.zeros_like(qt), e, (0, 0, 0))[0]
                          for e in np.eye(len(JOINTS))], -1)
            return 0.5 * vt @ m @ vt
        d_kinetic = (kinetic(h) - kinetic(-h)) / (2 * h)
        power = oracle(q[k], v[k], a[k], (0, 0, 0))[0] @ v[k]
        assert abs(d_kinetic - power) < 1e-6 * max(1.0, abs(power))
    # gravity torques are the gradient of the potential, whose value we do not have: check that
    # they are a conservative field instead (d G_i / dq_j symmetric)
    gq = oracle(q, zero, zero, g)
    for k in range(3):
        jac = np.stack([(oracle(q[k] + h * e, zero[k], zero[k], g)[0]
                         - oracle(q[k] - h * e, zero[k], zero[k], g)[0]) / (2 * h)
                        for e in np.eye(len(JOINTS))], -1)
        np.testing.assert_allclose(jac, jac.T, atol=1e-6 * max(1.0, np.abs(gq).max()))


def test_oracle_against_pinocchio(oracle, urdf_text):
    """Cross-check of the oracle itself (skipped without Pinocchio). All joints are revolute or
    prismatic with limits, so Pinocchio's coordinates are the plain angles/displacements."""
    pin = pytest.importorskip("pinocchio")
    pmodel = pin.buildModelFromXML(urdf_text)
    assert list(pmodel.names)[1:] == [j[0] for j in JOINTS]
    data = pmodel.createData()
    rng = np.random.default_rng(10)
    q, v, a = random_states(rng, 50)
    ref = np.array([pin.rnea(pmodel, data, *s) for s in zip(q, v, a)])
    assert_rel_close(oracle(q, v, a), ref, 1e-9)


# --------------------------------------------------------------------------- urdf2dyn


def test_structure(model):
    assert model.nq == model.nv == len(JOINTS)
    assert [j.name for j in model.joints] == [j[0] for j in JOINTS]
    assert [j.type for j in model.joints] == [j[1] for j in JOINTS]
    assert [j.q_index for j in model.joints] == list(range(len(JOINTS)))
    assert set(model.link_names) == {"base", "link1", "link2", "link3", "link4", "tool", "marker"}
    np.testing.assert_array_equal(np.asarray(model.gravity, dtype=float), (0.0, 0.0, -9.81))


def test_single_samples(model, oracle):
    rng = np.random.default_rng(11)
    for q, v, a in zip(*random_states(rng, 40)):
        tau = model.inverse_dynamics(q, v, a)
        assert tau.shape == (len(JOINTS),) and tau.dtype == np.float64
        assert_rel_close(tau, oracle(q, v, a)[0], 1e-9)


def test_batch(model, oracle):
    rng = np.random.default_rng(12)
    q, v, a = random_states(rng, 2000)
    tau = model.inverse_dynamics(q, v, a)
    assert tau.shape == (2000, len(JOINTS)) and tau.dtype == np.float64
    assert_rel_close(tau, oracle(q, v, a), 1e-9)


def test_static_gravity_only(model, oracle):
    rng = np.random.default_rng(13)
    q, _, _ = random_states(rng, 200)
    zero = np.zeros_like(q)
    assert_rel_close(model.inverse_dynamics(q, zero, zero), oracle(q, zero, zero), 1e-9)


@pytest.mark.parametrize("g", [(0.0, 0.0, 0.0), (1.5, -2.0, -9.0), (0.0, 9.81, 0.0)])
def test_other_gravity(urdf_text, oracle, g):
    model = urdf2dyn.load(urdf_text)
    model.gravity = g
    rng = np.random.default_rng(14)
    q, v, a = random_states(rng, 300)
    assert_rel_close(model.inverse_dynamics(q, v, a), oracle(q, v, a, g), 1e-9)
