"""urdf2dyn's dynamics family (mass matrix, Coriolis, ABA, kinematics, Jacobians, energies,
configuration-space operations) against Pinocchio, an independent oracle.

Real robots from example-robot-data (ur5, panda; talos, solo12, romeo on a floating base) and
random URDF trees (tests/urdfgen.py): fixed base, floating base, a floating joint inside the file,
planar joints (some on a floating base).  Conversions between the two conventions come from
tests/pin_oracle.py:

* continuous joints: same velocity coordinate (Pinocchio's q is (cos, sin));
* planar joints: v_pin = T(q) v_ours with T = blockdiag(R(theta)^T, 1) (po.velocity_transform), so
  M_ours = T^T M_pin T, g_ours = T^T g_pin, h_ours = T^T (h_pin + M_pin Tdot v),
  C_ours = T^T (C_pin T + M_pin Tdot) (Pinocchio's C is sum_bodies J^T (I Jdot + B(v) J), which
  transforms this way since J_ours = J_pin T and Jdot_ours = Jdot_pin T + J_pin Tdot),
  ABA: a_pin = T a_ours + Tdot v, tau_pin = T^-T tau_ours; Jacobians: J_ours = J_pin T.
  Trees with planar joints are therefore compared for every quantity.

Centre of mass, total mass, potential energy: as Pinocchio 4.1's centerOfMass / computeTotalMass /
computePotentialEnergy, which leave out the universe body (``model.inertias[0]``: the root link of a
fixed-base robot and the links welded to it).  NOTE: /tmp/apispec3.md says "of all links (incl. the
root link)" and claims Pinocchio counts the universe body; Pinocchio 4.1 does not, and urdf2dyn
follows Pinocchio (its docstrings say so), which is what is tested here.

The random trees are regular: no movable joint with a massless subtree, and Pinocchio's M is well
conditioned (seeds are bumped deterministically until so; singular M is tested in
test_dynamics_identities.py).  romeo has massless fingers, so its M IS singular: forward_dynamics must
raise ValueError("... singular ..."), which is what its forward-dynamics cases check.
"""

import functools
import math
import os
import sys

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pin_oracle as po  # noqa: E402
from urdfgen import random_urdf  # noqa: E402

import urdf2dyn  # noqa: E402

TOL = 1e-9
N_STATES = 2
N_BATCH = 5
MAX_JAC_LINKS = 10

ROBOT_CASES = ["ur5", "panda", "talos", "solo12", "romeo"]

# (floating_base, floating joint inside the file, planar joints, n_links); 24 random trees
_RANDOM_CONFIGS = [
    (False, False, False, 4), (True, False, False, 6), (False, True, False, 7), (False, False, True, 5),
    (True, False, True, 8), (False, False, False, 10), (True, False, False, 12), (False, True, False, 9),
    (False, False, True, 11), (True, False, True, 6), (False, False, False, 14), (True, False, False, 3),
    (False, True, False, 5), (False, False, True, 13), (True, False, True, 10), (False, False, False, 7),
    (True, False, False, 9), (False, True, True, 8), (False, False, True, 7), (True, False, True, 12),
    (False, False, False, 16), (True, False, False, 15), (False, True, False, 12), (False, False, True, 9),
]
RANDOM_SEEDS = list(range(len(_RANDOM_CONFIGS)))
CASES = [f"robot-{r}" for r in ROBOT_CASES] + [f"random-{s}" for s in RANDOM_SEEDS]


def _has_massless_movable_subtree(pm):
    """True if some joint's subtree has zero mass (singular joint-space inertia)."""
    for j in range(1, pm.njoints):
        if sum(pm.inertias[k].mass for k in pm.subtrees[j]) <= 0.0:
            return True
    return False


def _well_conditioned(pm, seed):
    """Pinocchio's M at a random configuration is far from singular (e.g. a massless free body whose
    mass hangs on further joints is singular although every subtree has mass)."""
    if _has_massless_movable_subtree(pm):
        return False
    rng = np.random.default_rng(seed)
    qp = pin.normalize(pm, rng.uniform(-1.0, 1.0, pm.nq))  # unit quaternions and (cos, sin) pairs
    M = _sym_upper(pin.crba(pm, pm.createData(), qp))
    return np.linalg.cond(M) < 1e10


class Case:
    def __init__(self, cid):
        self.cid = cid
        if cid.startswith("robot-"):
            key = cid[len("robot-"):]
            path = po.robot_path(key)
            if path is None:
                pytest.skip(f"example-robot-data URDF for {key} not found")
            self.floating_base = po.ROBOTS[key][1]
            self.source = path
            self.seed = 7 + sum(map(ord, key))
            self.pin_model = po.build_pin_model(self.source, self.floating_base)
        else:
            k = int(cid[len("random-"):])
            fb, froot, planar, n_links = _RANDOM_CONFIGS[k]
            self.floating_base = fb
            for attempt in range(60):
                seed = 5000 + k + 1000 * attempt
                xml = random_urdf(seed, n_links=n_links, floating_root=froot, planar=planar)
                pm = po.build_pin_model(xml, fb)
                if _well_conditioned(pm, seed):
                    break
            else:  # pragma: no cover
                raise AssertionError(f"no regular tree for {cid}")
            self.source = xml
            self.pin_model = pm
            self.seed = 9000 + k
        self.pin_data = self.pin_model.createData()
        # romeo's fingers and hands are massless: its joint-space inertia is singular
        self.singular = _has_massless_movable_subtree(self.pin_model)
        self.model = urdf2dyn.load(self.source, floating_base=self.floating_base)
        self.jmap = po.JointMap(self.model.joints, self.pin_model, self.model.nq, self.model.nv)
        self.frame_of = {}
        for link in self.model.link_names:
            fid = self.pin_model.getFrameId(link, pin.BODY)
            assert fid < self.pin_model.nframes, f"{cid}: link {link!r} has no Pinocchio BODY frame"
            self.frame_of[link] = fid
        self.joint_id = [self.pin_model.getJointId(j.name) for j in self.model.joints]

    def rng(self, salt):
        return np.random.default_rng([self.seed, salt])

    def pin_state(self, q, v=None, a=None):
        z = np.zeros(self.model.nv)
        return self.jmap.to_pin(q, z if v is None else v, z if a is None else a)

    def jac_links(self, rng):
        links = list(self.model.link_names)
        if len(links) <= MAX_JAC_LINKS:
            return links
        pick = rng.choice(len(links), size=MAX_JAC_LINKS - 1, replace=False)
        return [links[0]] + [links[i] for i in pick if i != 0]

    def fext(self, rng, n=None):
        links = self.model.link_names
        k = min(len(links), 3)
        pick = rng.choice(len(links), size=k, replace=False)
        shape = 6 if n is None else (n, 6)
        return {links[i]: rng.normal(size=shape) * np.array([4, 4, 4, 1.5, 1.5, 1.5]) for i in pick}


@functools.lru_cache(maxsize=None)
def get_case(cid):
    return Case(cid)


def _check(case, got, ref, what, tol=TOL):
    got = np.asarray(got)
    assert got.dtype == np.float64, f"{case.cid} {what}: dtype {got.dtype}"
    ref = np.asarray(ref, float)
    assert got.shape == ref.shape, f"{case.cid} {what}: shape {got.shape} != {ref.shape}"
    err = po.relative_error(got, ref)
    if not err <= tol:
        idx = np.unravel_index(int(np.argmax(np.abs(got - ref))), got.shape)
        pytest.fail(f"{case.cid} {what}: relative error {err:.3e} > {tol:g} at index {idx} "
                    f"(got {got[idx]!r}, reference {ref[idx]!r})")


# ----------------------------------------------------------------------------- Pinocchio references
# Each takes ONE sample in urdf2dyn's conventions and returns the reference in urdf2dyn's conventions.

def _sym_upper(Mu):
    Mu = np.array(Mu, float)
    return np.triu(Mu) + np.triu(Mu, 1).T


def ref_mass_matrix(case, q):
    pm, pd = case.pin_model, case.pin_data
    qp, _, _ = case.pin_state(q)
    T, _ = po.velocity_transform(case.jmap, q)
    Mp = _sym_upper(pin.crba(pm, pd, qp))
    return T.T @ Mp @ T


def ref_gravity(case, q):
    pm, pd = case.pin_model, case.pin_data
    qp, _, _ = case.pin_state(q)
    T, _ = po.velocity_transform(case.jmap, q)
    return T.T @ np.asarray(pin.computeGeneralizedGravity(pm, pd, qp))


def ref_nonlinear(case, q, v):
    pm, pd = case.pin_model, case.pin_data
    qp, vp, _ = case.pin_state(q, v)
    T, Td = po.velocity_transform(case.jmap, q, v)
    hp = np.array(pin.nonLinearEffects(pm, pd, qp, vp))
    Mp = _sym_upper(pin.crba(pm, pd, qp))
    return T.T @ (hp + Mp @ (Td @ v))


def ref_coriolis(case, q, v):
    pm, pd = case.pin_model, case.pin_data
    qp, vp, _ = case.pin_state(q, v)
    T, Td = po.velocity_transform(case.jmap, q, v)
    Cp = np.array(pin.computeCoriolisMatrix(pm, pd, qp, vp))
    Mp = _sym_upper(pin.crba(pm, pd, qp))
    return T.T @ (Cp @ T + Mp @ Td)


def ref_aba(case, q, v, tau, f_ext=None):
    pm, pd = case.pin_model, case.pin_data
    qp, vp, _ = case.pin_state(q, v)
    T, Td = po.velocity_transform(case.jmap, q, v)
    tau_p = np.linalg.solve(T.T, tau)
    if f_ext:
        ap = pin.aba(pm, pd, qp, vp, tau_p, po._pin_fext(pm, pd, qp, f_ext))
    else:
        ap = pin.aba(pm, pd, qp, vp, tau_p)
    return np.linalg.solve(T, np.asarray(ap) - Td @ v)


def ref_kinematics(case, q):
    """(link positions (L,3), link rotations (L,3,3), joint positions (J,3))."""
    pm, pd = case.pin_model, case.pin_data
    qp, _, _ = case.pin_state(q)
    pin.framesForwardKinematics(pm, pd, qp)
    pos = np.array([pd.oMf[case.frame_of[l]].translation for l in case.model.link_names])
    rot = np.array([pd.oMf[case.frame_of[l]].rotation for l in case.model.link_names])
    jpos = np.array([pd.oMi[j].translation for j in case.joint_id]).reshape(-1, 3)
    return pos, rot, jpos


def ref_com(case, q):
    """(pin.centerOfMass, pin.computeTotalMass): bodies moved by joints (universe body left out)."""
    pm, pd = case.pin_model, case.pin_data
    qp, _, _ = case.pin_state(q)
    return np.array(pin.centerOfMass(pm, pd, qp)), pin.computeTotalMass(pm)


def ref_jacobian(case, q, link, point=None):
    pm, pd = case.pin_model, case.pin_data
    qp, _, _ = case.pin_state(q)
    T, _ = po.velocity_transform(case.jmap, q)
    pin.computeJointJacobians(pm, pd, qp)
    pin.updateFramePlacements(pm, pd)
    fid = case.frame_of[link]
    J = np.array(pin.getFrameJacobian(pm, pd, fid, pin.LOCAL_WORLD_ALIGNED))
    if point is not None:
        r = pd.oMf[fid].rotation @ np.asarray(point, float)
        rx = np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])
        J[:3] = J[:3] - rx @ J[3:]
    return J @ T


def ref_link_velocities(case, q, v):
    pm, pd = case.pin_model, case.pin_data
    qp, vp, _ = case.pin_state(q, v)
    pin.forwardKinematics(pm, pd, qp, vp)
    pin.updateFramePlacements(pm, pd)
    return np.array([pin.getFrameVelocity(pm, pd, case.frame_of[l], pin.LOCAL_WORLD_ALIGNED).vector
                     for l in case.model.link_names])


def ref_energies(case, q, v):
    """(pin.computeKineticEnergy, pin.computePotentialEnergy)."""
    pm, pd = case.pin_model, case.pin_data
    qp, vp, _ = case.pin_state(q, v)
    return pin.computeKineticEnergy(pm, pd, qp, vp), pin.computePotentialEnergy(pm, pd, qp)


def _floating_entries(case):
    return [e for e in case.jmap.entries if e[0] == "floating"]


def ref_integrate(case, q, v, dt):
    """q (+) v dt: Pinocchio's integrate for floating joints, q + v dt otherwise."""
    out = np.asarray(q, float).copy()
    for typ, _, qi, vi, _, _ in case.jmap.entries:
        n = 1 if typ != "planar" else 3
        if typ != "floating":
            out[qi:qi + n] = q[qi:qi + n] + dt * v[vi:vi + n]
    if _floating_entries(case):
        qp, vp, _ = case.pin_state(q, np.asarray(v, float) * dt)
        qp1 = np.asarray(pin.integrate(case.pin_model, qp, vp))
        for typ, _, qi, _, pq, _ in _floating_entries(case):
            out[qi:qi + 7] = qp1[pq:pq + 7]
    return out


def ref_difference(case, q0, q1):
    out = np.zeros(case.model.nv)
    for typ, _, qi, vi, _, _ in case.jmap.entries:
        n = 1 if typ != "planar" else 3
        if typ != "floating":
            out[vi:vi + n] = q1[qi:qi + n] - q0[qi:qi + n]
    if _floating_entries(case):
        qp0, _, _ = case.pin_state(q0)
        qp1, _, _ = case.pin_state(q1)
        d = np.asarray(pin.difference(case.pin_model, qp0, qp1))
        for typ, _, _, vi, _, pv in _floating_entries(case):
            out[vi:vi + 6] = d[pv:pv + 6]
    return out


def _continuous_v(case):
    return [vi for typ, _, _, vi, _, _ in case.jmap.entries if typ == "continuous"]


def _continuous_q(case):
    return [qi for typ, _, qi, _, _, _ in case.jmap.entries if typ == "continuous"]


def _quat_slices(case):
    return [(qi + 3, qi + 7) for typ, _, qi, _, _, _ in case.jmap.entries if typ == "floating"]


def _align_config(case, got, ref):
    """Make ``got`` comparable with ``ref``: continuous angles and quaternion signs are only defined
    modulo 2 pi / +-1."""
    got = np.array(got, float)
    for qi in _continuous_q(case):
        got[qi] = ref[qi] + math.remainder(got[qi] - ref[qi], 2 * math.pi)
    for a, b in _quat_slices(case):
        if np.dot(got[a:b], ref[a:b]) < 0:
            got[a:b] = -got[a:b]
    return got


# ----------------------------------------------------------------------------- structure

@pytest.mark.parametrize("cid", CASES)
def test_setup_is_regular(cid):
    case = get_case(cid)
    assert case.singular == (cid == "robot-romeo")
    if cid.startswith("random-"):
        assert _well_conditioned(case.pin_model, case.seed)
    assert len(case.model.link_names) == len(set(case.model.link_names))


# ----------------------------------------------------------------------------- joint-space matrices

@pytest.mark.parametrize("cid", CASES)
def test_mass_matrix(cid):
    case = get_case(cid)
    rng = case.rng(1)
    for s in range(N_STATES):
        q, _, _ = po.random_state(case.model, rng)
        M = case.model.mass_matrix(q)
        _check(case, M, ref_mass_matrix(case, q), f"mass_matrix state {s}")
        _check(case, case.model.crba(q), ref_mass_matrix(case, q), f"crba alias state {s}")


@pytest.mark.parametrize("cid", CASES)
def test_nonlinear_effects_and_gravity(cid):
    case = get_case(cid)
    rng = case.rng(2)
    for s in range(N_STATES):
        q, v, _ = po.random_state(case.model, rng)
        _check(case, case.model.nonlinear_effects(q, v), ref_nonlinear(case, q, v), f"nonlinear_effects {s}")
        _check(case, case.model.gravity_torques(q), ref_gravity(case, q), f"gravity_torques {s}")
        # the same reference through Pinocchio's RNEA (a second route through the conversions)
        h_rnea = po.pin_inverse_dynamics(case.jmap, q, v, np.zeros(case.model.nv))
        _check(case, case.model.nonlinear_effects(q, v), h_rnea, f"nonlinear_effects vs pin.rnea {s}")


@pytest.mark.parametrize("cid", CASES)
def test_coriolis_matrix(cid):
    case = get_case(cid)
    rng = case.rng(3)
    for s in range(N_STATES):
        q, v, _ = po.random_state(case.model, rng)
        _check(case, case.model.coriolis_matrix(q, v), ref_coriolis(case, q, v), f"coriolis_matrix {s}")


@pytest.mark.parametrize("cid", CASES)
def test_forward_dynamics(cid):
    case = get_case(cid)
    rng = case.rng(4)
    if case.singular:
        q, v, _ = po.random_state(case.model, rng)
        with pytest.raises(ValueError, match="(?i)singular"):
            case.model.forward_dynamics(q, v, np.zeros(case.model.nv))
        return
    for s in range(N_STATES):
        q, v, _ = po.random_state(case.model, rng)
        tau = rng.normal(size=case.model.nv) * 3.0
        _check(case, case.model.forward_dynamics(q, v, tau), ref_aba(case, q, v, tau), f"forward_dynamics {s}")
        _check(case, case.model.aba(q, v, tau), ref_aba(case, q, v, tau), f"aba alias {s}")
        f_ext = case.fext(rng)
        _check(case, case.model.forward_dynamics(q, v, tau, f_ext=f_ext), ref_aba(case, q, v, tau, f_ext),
               f"forward_dynamics f_ext on {sorted(f_ext)} state {s}")


# ----------------------------------------------------------------------------- kinematics

@pytest.mark.parametrize("cid", CASES)
def test_forward_kinematics_and_joint_positions(cid):
    case = get_case(cid)
    rng = case.rng(5)
    L, J = len(case.model.link_names), len(case.model.joints)
    for s in range(N_STATES):
        q, _, _ = po.random_state(case.model, rng)
        pos, rot = case.model.forward_kinematics(q)
        rpos, rrot, rjpos = ref_kinematics(case, q)
        assert np.shape(pos) == (L, 3) and np.shape(rot) == (L, 3, 3)
        _check(case, pos, rpos, f"forward_kinematics positions {s}")
        _check(case, rot, rrot, f"forward_kinematics rotations {s}")
        jpos = case.model.joint_positions(q)
        assert np.shape(jpos) == (J, 3)
        _check(case, jpos, rjpos, f"joint_positions {s}")


@pytest.mark.parametrize("cid", CASES)
def test_center_of_mass(cid):
    case = get_case(cid)
    rng = case.rng(6)
    for s in range(N_STATES):
        q, _, _ = po.random_state(case.model, rng)
        com_pin, m_pin = ref_com(case, q)
        _check(case, case.model.center_of_mass(q), com_pin, f"center_of_mass {s}")
    tm = case.model.total_mass
    assert isinstance(tm, float)
    assert abs(tm - m_pin) <= 1e-12 * max(1.0, m_pin), (tm, m_pin)


@pytest.mark.parametrize("cid", CASES)
def test_jacobian(cid):
    case = get_case(cid)
    rng = case.rng(7)
    q, _, _ = po.random_state(case.model, rng)
    for link in case.jac_links(rng):
        J = case.model.jacobian(q, link)
        assert np.shape(J) == (6, case.model.nv)
        _check(case, J, ref_jacobian(case, q, link), f"jacobian {link}")
        point = rng.normal(size=3) * 0.4
        _check(case, case.model.jacobian(q, link, point=point), ref_jacobian(case, q, link, point),
               f"jacobian {link} point {point}")


@pytest.mark.parametrize("cid", CASES)
def test_link_velocities(cid):
    case = get_case(cid)
    rng = case.rng(8)
    for s in range(N_STATES):
        q, v, _ = po.random_state(case.model, rng)
        Vl = case.model.link_velocities(q, v)
        _check(case, Vl, ref_link_velocities(case, q, v), f"link_velocities {s}")


@pytest.mark.parametrize("cid", CASES)
def test_energies(cid):
    case = get_case(cid)
    rng = case.rng(9)
    for s in range(N_STATES):
        q, v, _ = po.random_state(case.model, rng)
        T_ref, U_ref = ref_energies(case, q, v)
        T = case.model.kinetic_energy(q, v)
        U = case.model.potential_energy(q)
        assert isinstance(T, float) and isinstance(U, float), (type(T), type(U))
        _check(case, np.array([T]), np.array([T_ref]), f"kinetic_energy {s}")
        _check(case, np.array([U]), np.array([U_ref]), f"potential_energy {s}")


# ----------------------------------------------------------------------------- configuration space

@pytest.mark.parametrize("cid", CASES)
def test_integrate_difference(cid):
    case = get_case(cid)
    rng = case.rng(10)
    m = case.model
    for s in range(N_STATES):
        q0, v, _ = po.random_state(m, rng)
        for dt in (1.0, 0.37):
            q1 = m.integrate(q0, v, dt=dt)
            ref = ref_integrate(case, q0, v, dt)
            _check(case, _align_config(case, q1, ref), ref, f"integrate dt={dt} state {s}")
        q1 = m.integrate(q0, v)
        _check(case, _align_config(case, q1, ref_integrate(case, q0, v, 1.0)), ref_integrate(case, q0, v, 1.0),
               f"integrate default dt state {s}")
        qa, _, _ = po.random_state(m, rng)
        qb, _, _ = po.random_state(m, rng)
        d = m.difference(qa, qb)
        ref = ref_difference(case, qa, qb)
        d = np.array(d, float)
        for vi in _continuous_v(case):  # any representative of the angle difference
            d[vi] = ref[vi] + math.remainder(d[vi] - ref[vi], 2 * math.pi)
        _check(case, d, ref, f"difference state {s}")


# ----------------------------------------------------------------------------- batches

@pytest.mark.parametrize("cid", CASES)
def test_batch(cid):
    """N=5 samples at once: equal to the per-sample Pinocchio references and to single calls."""
    case = get_case(cid)
    m = case.model
    rng = case.rng(11)
    n = N_BATCH
    Q, V, _ = po.random_state(m, rng, N=n)
    TAU = rng.normal(size=(n, m.nv)) * 2.0
    fext = case.fext(rng, n)
    link = m.link_names[-1]
    point = np.array([0.1, -0.2, 0.3])
    Q1, _, _ = po.random_state(m, rng, N=n)

    def same(got, singles, ref, what):
        got = np.asarray(got)
        singles = np.asarray(singles)
        assert got.shape == singles.shape, f"{cid} batch {what}: shape {got.shape} != {singles.shape}"
        _check(case, got, ref, f"batch {what} vs Pinocchio")
        scale = max(1.0, float(np.max(np.abs(singles))))
        assert np.max(np.abs(got - singles)) <= 1e-13 * scale, f"{cid} batch {what} != single calls"

    rows = range(n)
    same(m.mass_matrix(Q), [m.mass_matrix(Q[k]) for k in rows], [ref_mass_matrix(case, Q[k]) for k in rows], "M")
    same(m.nonlinear_effects(Q, V), [m.nonlinear_effects(Q[k], V[k]) for k in rows],
         [ref_nonlinear(case, Q[k], V[k]) for k in rows], "h")
    same(m.gravity_torques(Q), [m.gravity_torques(Q[k]) for k in rows], [ref_gravity(case, Q[k]) for k in rows], "g")
    if case.singular:
        with pytest.raises(ValueError, match="(?i)singular"):
            m.forward_dynamics(Q, V, TAU)
    else:
        same(m.forward_dynamics(Q, V, TAU), [m.forward_dynamics(Q[k], V[k], TAU[k]) for k in rows],
             [ref_aba(case, Q[k], V[k], TAU[k]) for k in rows], "forward_dynamics")
        same(m.forward_dynamics(Q, V, TAU, f_ext=fext),
             [m.forward_dynamics(Q[k], V[k], TAU[k], f_ext={l: w[k] for l, w in fext.items()}) for k in rows],
             [ref_aba(case, Q[k], V[k], TAU[k], {l: w[k] for l, w in fext.items()}) for k in rows],
             "forward_dynamics f_ext")
    pos, rot = m.forward_kinematics(Q)
    refs = [ref_kinematics(case, Q[k]) for k in rows]
    singles = [m.forward_kinematics(Q[k]) for k in rows]
    same(pos, [s_[0] for s_ in singles], [r[0] for r in refs], "fk positions")
    same(rot, [s_[1] for s_ in singles], [r[1] for r in refs], "fk rotations")
    same(m.joint_positions(Q), [m.joint_positions(Q[k]) for k in rows], [r[2] for r in refs], "joint_positions")
    same(m.center_of_mass(Q), [m.center_of_mass(Q[k]) for k in rows], [ref_com(case, Q[k])[0] for k in rows], "com")
    same(m.jacobian(Q, link), [m.jacobian(Q[k], link) for k in rows],
         [ref_jacobian(case, Q[k], link) for k in rows], "jacobian")
    same(m.jacobian(Q, link, point=point), [m.jacobian(Q[k], link, point=point) for k in rows],
         [ref_jacobian(case, Q[k], link, point) for k in rows], "jacobian point")
    same(m.link_velocities(Q, V), [m.link_velocities(Q[k], V[k]) for k in rows],
         [ref_link_velocities(case, Q[k], V[k]) for k in rows], "link_velocities")
    en = [ref_energies(case, Q[k], V[k]) for k in rows]
    same(m.kinetic_energy(Q, V), [m.kinetic_energy(Q[k], V[k]) for k in rows], [e[0] for e in en], "kinetic_energy")
    same(m.potential_energy(Q), [m.potential_energy(Q[k]) for k in rows], [e[1] for e in en], "potential_energy")
    Qi = m.integrate(Q, V, dt=0.5)
    assert np.shape(Qi) == (n, m.nq)
    for k in rows:
        ref = ref_integrate(case, Q[k], V[k], 0.5)
        _check(case, _align_config(case, Qi[k], ref), ref, f"batch integrate sample {k}")
        assert np.max(np.abs(Qi[k] - m.integrate(Q[k], V[k], dt=0.5))) <= 1e-13 * max(1.0, np.max(np.abs(Qi[k])))
    D = m.difference(Q, Q1)
    assert np.shape(D) == (n, m.nv)
    for k in rows:
        assert np.max(np.abs(D[k] - m.difference(Q[k], Q1[k]))) <= 1e-13 * max(1.0, np.max(np.abs(D[k])))
        ref = ref_difference(case, Q[k], Q1[k])
        d = D[k].copy()
        for vi in _continuous_v(case):
            d[vi] = ref[vi] + math.remainder(d[vi] - ref[vi], 2 * math.pi)
        _check(case, d, ref, f"batch difference sample {k}")
    # last, so that a Coriolis failure does not hide the others
    same(m.coriolis_matrix(Q, V), [m.coriolis_matrix(Q[k], V[k]) for k in rows],
         [ref_coriolis(case, Q[k], V[k]) for k in rows], "C")
