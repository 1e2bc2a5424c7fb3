"""Vectors between urdf2dyn and Pinocchio.

urdf2dyn numbers its joints as Pinocchio does (depth first, each body's children by joint
name), so for robots of revolute, prismatic and floating joints q, v, a and tau are the same
vectors in both. What still differs, joint by joint:

================  ==========================  ===================================
joint             urdf2dyn                    Pinocchio
================  ==========================  ===================================
continuous        q = angle                   q = (cos, sin); same v, a, tau
floating          q = [x y z qx qy qz qw], v = body-frame twist [v; w]: identical
planar            q = [x y theta],            q = [x y cos sin],
                  v = d/dt q                  v = [R(theta)^T d/dt(x, y), d/dt theta]
================  ==========================  ===================================

Every function takes one sample or N samples (last axis the coordinates) and returns the
same shape. Without ``pin_model`` Pinocchio's layout is derived from ``model`` (its joint
order is ours); with it, coordinates are matched by joint name, so a Pinocchio model built
differently (another root joint, reordered) works too.
"""
import numpy as np

__all__ = ["to_pinocchio_q", "from_pinocchio_q", "to_pinocchio_v", "from_pinocchio_v",
           "to_pinocchio_a", "to_pinocchio_tau", "from_pinocchio_tau", "pinocchio_sizes"]

_PIN_NQ = {"continuous": 2, "planar": 4}


def pinocchio_sizes(model):
    """(nq, nv) of the Pinocchio model of the same URDF (and floating_base)."""
    return model.nq + sum(_PIN_NQ.get(j.type, j.nq) - j.nq for j in model.joints), model.nv


def _layout(model, pin_model):
    """[(type, q_index, v_index, pin idx_q, pin idx_v)] per movable joint."""
    rows, pq = [], 0
    for j in model.joints:
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


def _samples(x, width, name):
    x = np.asarray(x, dtype=float)
    if x.ndim not in (1, 2) or x.shape[-1] != width:
        raise ValueError(f"{name}: expected shape ({width},) or (N, {width}), got {x.shape}")
    return x


def _rot2(theta):
    """R(theta)^T as (..., 2, 2) and its derivative by theta."""
    c, s = np.cos(theta), np.sin(theta)
    RT = np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)
    dRT = np.stack([np.stack([-s, c], -1), np.stack([-c, -s], -1)], -2)
    return RT, dRT


def to_pinocchio_q(model, q, pin_model=None):
    """urdf2dyn configuration(s) -> Pinocchio's (continuous and planar angles as cos, sin)."""
    q = _samples(q, model.nq, "q")
    out = np.zeros(q.shape[:-1] + (_sizes(model, pin_model)[0],))
    for kind, qi, _, pq, _ in _layout(model, pin_model):
        if kind == "continuous":
            out[..., pq], out[..., pq + 1] = np.cos(q[..., qi]), np.sin(q[..., qi])
        elif kind == "planar":
            out[..., pq:pq + 2] = q[..., qi:qi + 2]
            out[..., pq + 2], out[..., pq + 3] = np.cos(q[..., qi + 2]), np.sin(q[..., qi + 2])
        else:
            n = {"floating": 7}.get(kind, 1)
            out[..., pq:pq + n] = q[..., qi:qi + n]
    return out


def from_pinocchio_q(model, q_pin, pin_model=None):
    """Pinocchio configuration(s) -> urdf2dyn's (angles from atan2(sin, cos), in (-pi, pi])."""
    q_pin = _samples(q_pin, _sizes(model, pin_model)[0], "q_pin")
    out = np.zeros(q_pin.shape[:-1] + (model.nq,))
    for kind, qi, _, pq, _ in _layout(model, pin_model):
        if kind == "continuous":
            out[..., qi] = np.arctan2(q_pin[..., pq + 1], q_pin[..., pq])
        elif kind == "planar":
            out[..., qi:qi + 2] = q_pin[..., pq:pq + 2]
            out[..., qi + 2] = np.arctan2(q_pin[..., pq + 3], q_pin[..., pq + 2])
        else:
            n = {"floating": 7}.get(kind, 1)
            out[..., qi:qi + n] = q_pin[..., pq:pq + n]
    return out


def _convert_v(model, q, x, pin_model, direction, name):
    """Velocity-like vectors: the planar joints' in-plane part turns by R(theta)^T (to
    Pinocchio) or R(theta) (back); everything else is copied."""
    q = _samples(q, model.nq, "q")
    nv = _sizes(model, pin_model)[1]
    x = _samples(x, model.nv if direction > 0 else nv, name)
    out = np.zeros(x.shape)
    for kind, qi, vi, _, pv in _layout(model, pin_model):
        src, dst = (vi, pv) if direction > 0 else (pv, vi)
        n = {"floating": 6, "planar": 3}.get(kind, 1)
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
    out = _convert_v(model, q, a, pin_model, +1, "a")
    q = _samples(q, model.nq, "q")
    v = _samples(v, model.nv, "v")
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
