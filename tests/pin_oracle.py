"""Pinocchio as an independent oracle for urdf2dyn.

Everything here converts *between conventions*; nothing calls urdf2dyn's dynamics.  The map
between the two models is built BY JOINT NAME from urdf2dyn's ``model.joints`` (name, type,
q_index, v_index) and Pinocchio's ``model.names`` / ``model.joints[i].idx_q/idx_v/nq/nv``;
the vectors are converted by the shipped ``urdf2dyn.interop`` with Pinocchio's layout (no
permutation is needed any more: the joint order is Pinocchio's, which tests/test_robots.py
asserts without any converter).

Conventions (see the urdf2dyn API contract):

* revolute / prismatic: identical scalar coordinates.
* continuous: urdf2dyn uses the angle theta; Pinocchio (cos theta, sin theta), same velocity.
* floating: identical (q = [x y z qx qy qz qw], v = body-frame twist [v; w], a = dv/dt).
* planar (axis 0 0 1): urdf2dyn q = [x y theta], v = dq/dt (joint/parent-side frame); Pinocchio
  q = [x y cos sin], v_pin = [R(theta)^T [xd yd]; thetad] (child frame), a_pin = d/dt v_pin.
  Generalised forces are dual to velocities, so tau_ours[:2] = R(theta) tau_pin[:2].
* external forces: urdf2dyn takes per-link world wrenches [f; m] with m about the world origin;
  Pinocchio takes one spatial force per joint in that joint's local frame:
  f_local = oMi[j].actInv(Force(f, m)), summed over every link attached to joint j.
"""

import glob
import math
import os
import sys
import sysconfig

from types import SimpleNamespace

import numpy as np

import pinocchio as pin
from urdf2dyn import interop

__all__ = [
    "robots_dir", "robot_path", "build_pin_model", "pin_joint_kind", "JointMap", "random_state",
    "pin_inverse_dynamics", "relative_error", "link_to_pin_joint",
]

ROBOTS = {
    # key: (relative path under example-robot-data/robots, floating_base)
    "ur5": ("ur_description/urdf/ur5_robot.urdf", False),
    "panda": ("panda_description/urdf/panda.urdf", False),
    "talos": ("talos_data/robots/talos_reduced.urdf", True),
    "solo12": ("solo_description/robots/solo12.urdf", True),
    "romeo": ("romeo_description/urdf/romeo.urdf", True),
}


# ----------------------------------------------------------------------------- data location

def robots_dir():
    """Directory ``.../cmeel.prefix/share/example-robot-data/robots`` or None."""
    cands = []
    try:
        cands.append(sysconfig.get_paths()["purelib"])
    except (KeyError, OSError):  # pragma: no cover
        pass
    cands.extend(p for p in sys.path if p)
    for base in cands:
        d = os.path.join(base, "cmeel.prefix", "share", "example-robot-data", "robots")
        if os.path.isdir(d):
            return d
    for base in cands:  # last resort: a cmeel.prefix one level down
        for d in glob.glob(os.path.join(base, "*", "cmeel.prefix", "share", "example-robot-data", "robots")):
            if os.path.isdir(d):
                return d
    return None


def robot_path(key):
    d = robots_dir()
    if d is None:
        return None
    p = os.path.join(d, ROBOTS[key][0])
    return p if os.path.isfile(p) else None


def load_robot(key):
    """(our model, Pinocchio's model, JointMap) of example-robot-data robot key, on the base
    ROBOTS gives it; None when its URDF is not installed."""
    import urdf2dyn
    path = robot_path(key)
    if path is None:
        return None
    floating = ROBOTS[key][1]
    model = urdf2dyn.load(path, floating_base=floating)
    pin_model = build_pin_model(path, floating)
    return model, pin_model, JointMap(model.joints, pin_model, model.nq, model.nv)


# ----------------------------------------------------------------------------- pinocchio model

def build_pin_model(urdf, floating_base=False):
    """Pinocchio model from a URDF path or XML text (free-flyer 'root_joint' if floating_base)."""
    is_xml = "<robot" in urdf
    if floating_base:
        if is_xml:
            return pin.buildModelFromXML(urdf, pin.JointModelFreeFlyer())
        return pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer())
    if is_xml:
        return pin.buildModelFromXML(urdf)
    return pin.buildModelFromUrdf(urdf)


def pin_joint_kind(jm):
    """URDF joint type of a Pinocchio joint model (by its class name)."""
    s = jm.shortname()
    if s == "JointModelFreeFlyer":
        return "floating"
    if s == "JointModelPlanar":
        return "planar"
    if s.startswith("JointModelRUB") or s == "JointModelRevoluteUnboundedUnaligned":
        return "continuous"
    if s in ("JointModelRX", "JointModelRY", "JointModelRZ", "JointModelRevoluteUnaligned"):
        return "revolute"
    if s in ("JointModelPX", "JointModelPY", "JointModelPZ", "JointModelPrismaticUnaligned"):
        return "prismatic"
    raise AssertionError(f"unexpected Pinocchio joint model {s}")


_SIZES = {  # type: (our nq, our nv, pinocchio nq, pinocchio nv)
    "revolute": (1, 1, 1, 1),
    "prismatic": (1, 1, 1, 1),
    "continuous": (1, 1, 2, 1),
    "floating": (7, 6, 7, 6),
    "planar": (3, 3, 4, 3),
}


def _frame_parent_joint(frame):
    pj = getattr(frame, "parentJoint", None)
    if pj is None:  # older Pinocchio
        pj = frame.parent
    return int(pj)


def link_to_pin_joint(pin_model, link_name):
    """Index of the Pinocchio joint that carries URDF link ``link_name`` (0 = universe)."""
    fid = pin_model.getFrameId(link_name, pin.FrameType.BODY)
    if fid >= pin_model.nframes:
        raise KeyError(f"link {link_name!r} not found among Pinocchio BODY frames")
    return _frame_parent_joint(pin_model.frames[fid])


def fixed_merged_links(pin_model):
    """URDF links whose parent joint is fixed (Pinocchio BODY frames hanging off a FIXED_JOINT frame)."""
    out = []
    for f in pin_model.frames:
        if f.type == pin.FrameType.BODY and f.parentFrame < pin_model.nframes:
            if pin_model.frames[f.parentFrame].type == pin.FrameType.FIXED_JOINT and f.parentFrame != 0:
                out.append(f.name)
    return out


def body_frames(pin_model):
    return [f.name for f in pin_model.frames if f.type == pin.FrameType.BODY]


# ----------------------------------------------------------------------------- joint map

class JointMap:
    """Name-based map between urdf2dyn's coordinates and Pinocchio's.

    ``our_joints``: iterable of objects with .name .type .q_index .v_index (urdf2dyn model.joints).
    Raises AssertionError when the two models do not describe the same set of joints.
    """

    def __init__(self, our_joints, pin_model, our_nq, our_nv):
        our_joints = list(our_joints)
        self.pin_model = pin_model
        self.nq, self.nv = int(our_nq), int(our_nv)
        self._model = SimpleNamespace(joints=our_joints, nq=self.nq, nv=self.nv)
        self.entries = []  # (type, name, q_index, v_index, idx_q, idx_v)
        seen = set()
        for j in our_joints:
            name, typ = j.name, j.type
            assert typ in _SIZES, f"joint {name!r}: unknown type {typ!r}"
            assert pin_model.existJointName(name), f"joint {name!r} is not a Pinocchio joint"
            jid = pin_model.getJointId(name)
            assert jid not in seen, f"joint {name!r} listed twice"
            seen.add(jid)
            jm = pin_model.joints[jid]
            kind = pin_joint_kind(jm)
            assert kind == typ, f"joint {name!r}: urdf2dyn says {typ}, Pinocchio has {jm.shortname()}"
            nq, nv, pnq, pnv = _SIZES[typ]
            assert (jm.nq, jm.nv) == (pnq, pnv), (name, jm.nq, jm.nv)
            qi, vi = int(j.q_index), int(j.v_index)
            assert 0 <= qi and qi + nq <= self.nq, f"joint {name!r}: q_index {qi} out of range"
            assert 0 <= vi and vi + nv <= self.nv, f"joint {name!r}: v_index {vi} out of range"
            self.entries.append((typ, name, qi, vi, int(jm.idx_q), int(jm.idx_v)))
        missing = [pin_model.names[i] for i in range(1, pin_model.njoints) if i not in seen]
        assert not missing, f"Pinocchio joints missing from urdf2dyn: {missing}"
        # coordinates must tile [0, nq) and [0, nv) exactly
        qcov = np.zeros(self.nq, int)
        vcov = np.zeros(self.nv, int)
        for typ, _, qi, vi, _, _ in self.entries:
            qcov[qi:qi + _SIZES[typ][0]] += 1
            vcov[vi:vi + _SIZES[typ][1]] += 1
        assert np.all(qcov == 1), f"q indices do not tile [0, nq): {qcov}"
        assert np.all(vcov == 1), f"v indices do not tile [0, nv): {vcov}"
        assert self.nv == pin_model.nv, (self.nv, pin_model.nv)
        extra = sum(_SIZES[t][2] - _SIZES[t][0] for t, *_ in self.entries)
        assert self.nq == pin_model.nq - extra, (self.nq, pin_model.nq, extra)

    def to_pin(self, q, v, a):
        """One sample: our (q, v, a) -> Pinocchio (q, v, a), through the shipped converter
        (urdf2dyn.interop, itself checked against Pinocchio in tests/test_robots.py) with
        Pinocchio's own layout (idx_q / idx_v matched by joint name)."""
        m, pm = self._model, self.pin_model
        return (interop.to_pinocchio_q(m, q, pm), interop.to_pinocchio_v(m, q, v, pm),
                interop.to_pinocchio_a(m, q, v, a, pm))

    def tau_from_pin(self, q, tau_pin):
        """One sample: Pinocchio generalised forces -> ours (dual to our velocities)."""
        return interop.from_pinocchio_tau(self._model, q, tau_pin, self.pin_model)


# ----------------------------------------------------------------------------- states

def _random_quat(rng):
    while True:
        qt = rng.normal(size=4)
        n = np.linalg.norm(qt)
        if n > 1e-3:
            return qt / n


def random_state(our_model, rng, N=None):
    """Random (q, v, a) in urdf2dyn's convention, shapes (nq,), (nv,) or (N, nq), (N, nv)."""
    shape_n = 1 if N is None else int(N)
    q = np.zeros((shape_n, our_model.nq))
    for k in range(shape_n):
        for j in our_model.joints:
            qi = j.q_index
            t = j.type
            if t in ("revolute", "continuous"):
                q[k, qi] = rng.uniform(-math.pi, math.pi)
            elif t == "prismatic":
                q[k, qi] = rng.uniform(-0.5, 0.5)
            elif t == "floating":
                q[k, qi:qi + 3] = rng.normal(scale=0.7, size=3)
                q[k, qi + 3:qi + 7] = _random_quat(rng)
            elif t == "planar":
                q[k, qi:qi + 2] = rng.uniform(-1.0, 1.0, size=2)
                q[k, qi + 2] = rng.uniform(-math.pi, math.pi)
            else:  # pragma: no cover
                raise AssertionError(t)
    v = rng.normal(size=(shape_n, our_model.nv))
    a = rng.normal(size=(shape_n, our_model.nv))
    if N is None:
        return q[0], v[0], a[0]
    return q, v, a


# ----------------------------------------------------------------------------- oracle

def _pin_fext(pin_model, pin_data, qp, wrenches):
    """wrenches: {link: (6,) world wrench about the world origin} -> list of local pin.Force."""
    fext = [pin.Force.Zero() for _ in range(pin_model.njoints)]
    if not wrenches:
        return fext
    pin.forwardKinematics(pin_model, pin_data, qp)
    acc = {}
    for link, w in wrenches.items():
        j = link_to_pin_joint(pin_model, link)
        w = np.asarray(w, float)
        f_world = pin.Force(w[:3].copy(), w[3:].copy())
        f_local = pin_data.oMi[j].actInv(f_world)
        acc[j] = acc.get(j, np.zeros(6)) + f_local.vector
    for j, vec in acc.items():
        fext[j] = pin.Force(vec)
    return fext


def pin_inverse_dynamics(jmap, q, v, a, f_ext=None, gravity=None):
    """Inverse dynamics by Pinocchio, returned in urdf2dyn's velocity coordinates.

    q, v, a: one sample or a batch (N, .); f_ext: {link: (6,) or (N, 6)} world wrenches about
    the world origin; gravity: optional (3,) world gravity.
    """
    pm = jmap.pin_model
    model = pm.copy() if gravity is not None else pm
    if gravity is not None:
        model.gravity = pin.Motion(np.asarray(gravity, float).copy(), np.zeros(3))
    data = model.createData()
    q = np.asarray(q, float)
    single = q.ndim == 1
    Q = np.atleast_2d(q)
    V = np.atleast_2d(np.asarray(v, float))
    A = np.atleast_2d(np.asarray(a, float))
    n = Q.shape[0]
    out = np.zeros((n, jmap.nv))
    for k in range(n):
        qp, vp, ap = jmap.to_pin(Q[k], V[k], A[k])
        if f_ext:
            wk = {}
            for link, w in f_ext.items():
                w = np.asarray(w, float)
                wk[link] = w if w.ndim == 1 else w[k]
            tp = pin.rnea(model, data, qp, vp, ap, _pin_fext(model, data, qp, wk))
        else:
            tp = pin.rnea(model, data, qp, vp, ap)
        out[k] = jmap.tau_from_pin(Q[k], np.asarray(tp))
    return out[0] if single else out


def relative_error(tau, tau_ref):
    tau = np.asarray(tau, float)
    tau_ref = np.asarray(tau_ref, float)
    assert tau.shape == tau_ref.shape, (tau.shape, tau_ref.shape)
    return float(np.max(np.abs(tau - tau_ref)) / max(1.0, float(np.max(np.abs(tau_ref)))))


# ----------------------------------------------------------------------------- velocity maps
# (added for tests/test_dynamics_pinocchio.py; the functions above are unchanged)

def velocity_transform(jmap, q, v=None):
    """(T, Tdot) with v_pin = T(q) v_ours and Tdot = dT/dt along velocity v (zeros if v is None).

    Identity blocks for every joint but planar, whose block is blockdiag(R(theta)^T, 1).
    Generalised forces and matrices follow by duality: tau_ours = T^T tau_pin,
    M_ours = T^T M_pin T, h_ours = T^T (h_pin + M_pin Tdot v).
    """
    nv = jmap.nv
    T = np.zeros((nv, nv))
    Td = np.zeros((nv, nv))
    for typ, _, qi, vi, pq, pv in jmap.entries:
        n = _SIZES[typ][1]
        if typ == "planar":
            th = q[qi + 2]
            c, s = math.cos(th), math.sin(th)
            T[pv:pv + 2, vi:vi + 2] = [[c, s], [-s, c]]
            T[pv + 2, vi + 2] = 1.0
            if v is not None:
                Td[pv:pv + 2, vi:vi + 2] = v[vi + 2] * np.array([[-s, c], [-c, -s]])
        else:
            for k in range(n):
                T[pv + k, vi + k] = 1.0
    return T, Td


def q_from_pin(jmap, qp):
    """One sample: Pinocchio configuration -> ours (continuous/planar angles from atan2)."""
    return interop.from_pinocchio_q(jmap._model, qp, jmap.pin_model)
