"""Vectors between urdf2dyn and Pinocchio, and between urdf2dyn and MuJoCo.

urdf2dyn numbers its joints as Pinocchio does (depth first, each body's children by joint
name), so for robots of revolute, prismatic and floating joints q, v, a and tau are the same
vectors in both. What still differs, joint by joint:

================  ==========================  ===================================
joint             urdf2dyn                    Pinocchio
================  ==========================  ===================================
continuous        q = angle                   q = (cos, sin); same v, a, tau
floating          q = [x y z qx qy qz qw], v = body-frame twist [v; w]: identical
ball              q = [qx qy qz qw], v = body-frame angular velocity: identical
planar            q = [x y theta],            q = [x y cos sin],
                  v = d/dt q                  v = [R(theta)^T d/dt(x, y), d/dt theta]
================  ==========================  ===================================

Every function takes one sample or a batch (last axis the coordinates), as the dynamics
functions do: the leading axes of its arguments broadcast against each other, velocities,
accelerations and forces may be a scalar (the same for every coordinate), and the result has
the broadcast leading axes. Without ``pin_model`` Pinocchio's layout is derived from
``model`` (its joint order is ours); with it, coordinates are matched by joint name, so a
Pinocchio model built differently (another root joint, reordered) works too.

MuJoCo (an MJCF model, whose q order is MuJoCo's qpos order): hinge and slide joints are the
same numbers; quaternions are scalar first in MuJoCo, and a free joint's linear velocity,
acceleration and force are in world axes (its angular ones in the body's, as here):

================  ==================================  ==================================
joint             urdf2dyn                            MuJoCo
================  ==================================  ==================================
free              q = [p, qx qy qz qw]                qpos = [p, qw qx qy qz]
                  v = [v_body, w_body]                qvel = [R v_body, w_body]
                  a = d/dt v                          qacc = [R (a_lin + w x v_body), dw]
                  tau = [f_body, n_body]              qfrc = [R f_body, n_body]
ball              q = [qx qy qz qw]                   qpos = [qw qx qy qz]; v, a, tau same
================  ==================================  ==================================

so that MuJoCo's mass matrix is T M T^T with qvel = T v (``mujoco_velocity_map``).
"""
import numpy as np

from .batch import _as_samples, _batch_shape

__all__ = ["to_pinocchio_q", "from_pinocchio_q", "to_pinocchio_v", "from_pinocchio_v",
           "to_pinocchio_a", "to_pinocchio_tau", "from_pinocchio_tau", "pinocchio_sizes",
           "to_mujoco_qpos", "from_mujoco_qpos", "to_mujoco_qvel", "from_mujoco_qvel",
           "to_mujoco_qacc", "from_mujoco_qacc", "to_mujoco_qfrc", "from_mujoco_qfrc",
           "mujoco_velocity_map"]

_PIN_NQ = {"continuous": 2, "planar": 4}


def pinocchio_sizes(model):
    """(nq, nv) of the Pinocchio model of the same URDF (and floating_base)."""
    return model.nq + sum(_PIN_NQ.get(j.type, j.nq) - j.nq for j in model.joints), model.nv


def _layout(model, pin_model):
    """[(type, q_index, v_index, pin idx_q, pin idx_v)] per movable joint."""
    rows, pq = [], 0
    for j in model.joints:
        if j.type == "planar" and tuple(j.axis) != (0.0, 0.0, 1.0):
            # Pinocchio's URDF reader makes every planar joint move in its frame's x-y plane
            raise ValueError(f"joint {j.name!r}: a planar joint whose plane is normal to "
                             f"{tuple(j.axis)}, as the URDF's <axis> (or its default, 1 0 0) "
                             "says; Pinocchio ignores <axis> for planar joints and moves them "
                             "in the joint frame's x-y plane, so the two models differ and no "
                             "conversion relates them: give the joint <axis xyz=\"0 0 1\"/> "
                             "and turn its <origin> instead")
        if pin_model is None:
            pin_q, pin_v = pq, j.v_index
        else:
            if not pin_model.existJointName(j.name):
                raise ValueError(f"joint {j.name!r} is not in the Pinocchio model")
            pj = pin_model.joints[pin_model.getJointId(j.name)]
            if (pj.nq, pj.nv) != (_PIN_NQ.get(j.type, j.nq), j.nv):
                raise ValueError(f"joint {j.name!r}: Pinocchio's has nq={pj.nq}, nv={pj.nv}; "
                                 f"a {j.type} joint should have nq={_PIN_NQ.get(j.type, j.nq)}"
                                 f", nv={j.nv}")
            pin_q, pin_v = pj.idx_q, pj.idx_v
        rows.append((j.type, j.q_index, j.v_index, pin_q, pin_v))
        pq += _PIN_NQ.get(j.type, j.nq)
    return rows


def _sizes(model, pin_model):
    return (pinocchio_sizes(model) if pin_model is None else (pin_model.nq, pin_model.nv))


_CONFIGURATIONS = frozenset({"q", "q_pin", "qpos"})


def _samples(*items):
    """[(x, width, name)] as float arrays broadcast to their joint batch, each checked by the
    batch layer (TypeError/ValueError naming it); a scalar stands for a sample of anything
    but a configuration."""
    arrays = [(name, _as_samples(x, name, width, name not in _CONFIGURATIONS))
              for x, width, name in items]
    batch = _batch_shape(arrays)
    return [np.broadcast_to(np.asarray(a, dtype=float), batch + a.shape[-1:])
            for _, a in arrays]


def _rot2(theta):
    """R(theta)^T as (..., 2, 2) and its derivative by theta."""
    c, s = np.cos(theta), np.sin(theta)
    RT = np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)
    dRT = np.stack([np.stack([-s, c], -1), np.stack([-c, -s], -1)], -2)
    return RT, dRT


def to_pinocchio_q(model, q, pin_model=None):
    """urdf2dyn configuration(s) -> Pinocchio's (continuous and planar angles as cos, sin)."""
    q, = _samples((q, model.nq, "q"))
    out = np.zeros(q.shape[:-1] + (_sizes(model, pin_model)[0],))
    for kind, qi, _, pq, _ in _layout(model, pin_model):
        if kind == "continuous":
            out[..., pq], out[..., pq + 1] = np.cos(q[..., qi]), np.sin(q[..., qi])
        elif kind == "planar":
            out[..., pq:pq + 2] = q[..., qi:qi + 2]
            out[..., pq + 2], out[..., pq + 3] = np.cos(q[..., qi + 2]), np.sin(q[..., qi + 2])
        else:
            n = {"floating": 7, "ball": 4}.get(kind, 1)
            out[..., pq:pq + n] = q[..., qi:qi + n]
    return out


def from_pinocchio_q(model, q_pin, pin_model=None):
    """Pinocchio configuration(s) -> urdf2dyn's (angles from atan2(sin, cos), in (-pi, pi])."""
    q_pin, = _samples((q_pin, _sizes(model, pin_model)[0], "q_pin"))
    out = np.zeros(q_pin.shape[:-1] + (model.nq,))
    for kind, qi, _, pq, _ in _layout(model, pin_model):
        if kind == "continuous":
            out[..., qi] = np.arctan2(q_pin[..., pq + 1], q_pin[..., pq])
        elif kind == "planar":
            out[..., qi:qi + 2] = q_pin[..., pq:pq + 2]
            out[..., qi + 2] = np.arctan2(q_pin[..., pq + 3], q_pin[..., pq + 2])
        else:
            n = {"floating": 7, "ball": 4}.get(kind, 1)
            out[..., qi:qi + n] = q_pin[..., pq:pq + n]
    return out


def _convert_v(model, q, x, pin_model, direction, name):
    """Velocity-like vectors: the planar joints' in-plane part turns by R(theta)^T (to
    Pinocchio) or R(theta) (back); everything else is copied."""
    nv = _sizes(model, pin_model)[1]
    q, x = _samples((q, model.nq, "q"), (x, model.nv if direction > 0 else nv, name))
    out = np.zeros(x.shape)
    for kind, qi, vi, _, pv in _layout(model, pin_model):
        src, dst = (vi, pv) if direction > 0 else (pv, vi)
        n = {"floating": 6, "planar": 3, "ball": 3}.get(kind, 1)
        out[..., dst:dst + n] = x[..., src:src + n]
        if kind == "planar":
            RT, _ = _rot2(q[..., qi + 2])
            R = RT if direction > 0 else np.swapaxes(RT, -1, -2)
            out[..., dst:dst + 2] = np.einsum("...ij,...j->...i", R, x[..., src:src + 2])
    return out


def to_pinocchio_v(model, q, v, pin_model=None):
    """urdf2dyn velocity(ies) at configuration(s) q (urdf2dyn's) -> Pinocchio's."""
    return _convert_v(model, q, v, pin_model, +1, "v")


def from_pinocchio_v(model, q, v_pin, pin_model=None):
    """Pinocchio velocity(ies) -> urdf2dyn's; q is urdf2dyn's configuration."""
    return _convert_v(model, q, v_pin, pin_model, -1, "v_pin")


def to_pinocchio_a(model, q, v, a, pin_model=None):
    """urdf2dyn acceleration(s) -> Pinocchio's (d/dt of Pinocchio's velocity: planar joints
    gain the rate of their rotation)."""
    q, v, a = _samples((q, model.nq, "q"), (v, model.nv, "v"), (a, model.nv, "a"))
    out = _convert_v(model, q, a, pin_model, +1, "a")
    for kind, qi, vi, _, pv in _layout(model, pin_model):
        if kind == "planar":
            _, dRT = _rot2(q[..., qi + 2])
            out[..., pv:pv + 2] += v[..., vi + 2, None] * np.einsum(
                "...ij,...j->...i", dRT, v[..., vi:vi + 2])
    return out


def to_pinocchio_tau(model, q, tau, pin_model=None):
    """urdf2dyn generalized forces -> Pinocchio's (dual to the velocities: the same turn)."""
    return _convert_v(model, q, tau, pin_model, +1, "tau")


def from_pinocchio_tau(model, q, tau_pin, pin_model=None):
    """Pinocchio generalized forces -> urdf2dyn's; q is urdf2dyn's configuration."""
    return _convert_v(model, q, tau_pin, pin_model, -1, "tau_pin")


# ---- MuJoCo ---------------------------------------------------------------------------------

def _mjcf_joints(model):
    if model._c.mjcf() is None:
        raise ValueError("the MuJoCo conversions need a model loaded from MJCF (its q order is "
                         "MuJoCo's qpos order)")
    return model.joints


def _quat_matrix(x):
    """Rotation matrices (..., 3, 3) of unit quaternions (..., 4) as (x, y, z, w)."""
    x = x / np.linalg.norm(x, axis=-1, keepdims=True)
    a, b, c, w = x[..., 0], x[..., 1], x[..., 2], x[..., 3]
    return np.stack([
        np.stack([1 - 2 * (b * b + c * c), 2 * (a * b - c * w), 2 * (a * c + b * w)], -1),
        np.stack([2 * (a * b + c * w), 1 - 2 * (a * a + c * c), 2 * (b * c - a * w)], -1),
        np.stack([2 * (a * c - b * w), 2 * (b * c + a * w), 1 - 2 * (a * a + b * b)], -1)], -2)


def _free_rotation(q, joint):
    """R (..., 3, 3) of a free joint's quaternion in q, or ValueError for a zero or infinite
    one (as the dynamics functions refuse it); a NaN one gives NaN in its sample."""
    x = q[..., joint.q_index + 3:joint.q_index + 7]
    norm = np.linalg.norm(x, axis=-1)
    bad = (norm == 0) | np.isinf(norm)
    if bad.any():
        first = np.argwhere(bad)[0]          # named as the dynamics functions name samples
        at = ("" if q.ndim == 1 else
              f"sample {int(first[0]) if q.ndim == 2 else tuple(int(i) for i in first)}: ")
        raise ValueError(f"q: {at}the quaternion of free joint {joint.name!r} has zero or "
                         "infinite norm")
    return _quat_matrix(x)


def _swap_quat(model, x, width, to_mujoco):
    out = np.array(_samples((x, width, "qpos" if not to_mujoco else "q"))[0])
    for j in _mjcf_joints(model):
        at = {"floating": 3, "ball": 0}.get(j.type)
        if at is None:
            continue
        k = j.q_index + at
        src = out[..., k:k + 4].copy()
        out[..., k:k + 4] = np.roll(src, 1 if to_mujoco else -1, axis=-1)
    return out


def to_mujoco_qpos(model, q):
    """urdf2dyn configuration(s) of an MJCF model -> MuJoCo's qpos (w-first quaternions)."""
    return _swap_quat(model, q, model.nq, True)


def from_mujoco_qpos(model, qpos):
    """MuJoCo's qpos -> urdf2dyn's q (x, y, z, w quaternions, not normalized)."""
    return _swap_quat(model, qpos, model.nq, False)


def _free_turn(model, q, x, name, inverse):
    """x with every free joint's first three entries turned by R (body -> world) or R^T."""
    q, x = _samples((q, model.nq, "q"), (x, model.nv, name))
    out = np.array(x)
    for j in _mjcf_joints(model):
        if j.type != "floating":
            continue
        R = _free_rotation(q, j)
        k = j.v_index
        out[..., k:k + 3] = np.einsum("...ji,...j->...i" if inverse else "...ij,...j->...i",
                                      R, out[..., k:k + 3])
    return out


def to_mujoco_qvel(model, q, v):
    """urdf2dyn velocity(ies) at q (urdf2dyn's) -> MuJoCo's qvel (free joints' linear
    velocity in world axes)."""
    return _free_turn(model, q, v, "v", False)


def from_mujoco_qvel(model, q, qvel):
    """MuJoCo's qvel -> urdf2dyn's v; q is urdf2dyn's configuration."""
    return _free_turn(model, q, qvel, "qvel", True)


def to_mujoco_qfrc(model, q, tau):
    """urdf2dyn generalized forces -> MuJoCo's qfrc (free joints' force in world axes)."""
    return _free_turn(model, q, tau, "tau", False)


def from_mujoco_qfrc(model, q, qfrc):
    """MuJoCo's qfrc (e.g. mj_rne's result, qfrc_inverse) -> urdf2dyn's tau."""
    return _free_turn(model, q, qfrc, "qfrc", True)


def _free_coriolis(model, v, sign):
    """sign * (w x v_lin) in every free joint's linear slots, zeros elsewhere."""
    v, = _samples((v, model.nv, "v"))
    out = np.zeros(v.shape)
    for j in _mjcf_joints(model):
        if j.type == "floating":
            k = j.v_index
            out[..., k:k + 3] = sign * np.cross(v[..., k + 3:k + 6], v[..., k:k + 3])
    return out


def to_mujoco_qacc(model, q, v, a):
    """urdf2dyn acceleration(s) -> MuJoCo's qacc: a free joint's linear part is the body
    origin's acceleration in world axes, R (a_lin + w x v_lin)."""
    q, v, a = _samples((q, model.nq, "q"), (v, model.nv, "v"), (a, model.nv, "a"))
    return _free_turn(model, q, a + _free_coriolis(model, v, 1.0), "a", False)


def from_mujoco_qacc(model, q, v, qacc):
    """MuJoCo's qacc -> urdf2dyn's a; q and v are urdf2dyn's."""
    q, v, qacc = _samples((q, model.nq, "q"), (v, model.nv, "v"), (qacc, model.nv, "qacc"))
    return _free_turn(model, q, qacc, "qacc", True) + _free_coriolis(model, v, -1.0)


def mujoco_velocity_map(model, q):
    """T (..., nv, nv) with MuJoCo's qvel = T v at configuration(s) q (urdf2dyn's): the
    identity but for each free joint's R (body -> world) on its linear block. MuJoCo's mass
    matrix is T M T^T, and its qfrc = T tau."""
    q, = _samples((q, model.nq, "q"))
    T = np.broadcast_to(np.eye(model.nv), q.shape[:-1] + (model.nv, model.nv)).copy()
    for j in _mjcf_joints(model):
        if j.type == "floating":
            k = j.v_index
            T[..., k:k + 3, k:k + 3] = _free_rotation(q, j)
    return T
