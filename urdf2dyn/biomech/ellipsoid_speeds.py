"""OpenSim's generalized speeds of an ellipsoid joint's three angles (EllipsoidJoint,
ScapulothoracicJoint): the angular velocity u = E(q) qd in the joint frame (Simbody's
Ellipsoid mobilizer), where urdf2dyn's speeds are the angles' rates qd (docs/osim_models.rst).

What OpenSim means on those coordinates goes through E: a CoordinateActuator's unit force
on u_i makes the generalized force E^T e_i on the rates (the same power, f u_i), and a
speed or acceleration written for OpenSim is E qd, E qdd + dE/dt qd. Every other coordinate
(the scapula's winging too) is the same in both.
"""
from __future__ import annotations

import numpy as np

__all__ = ["ellipsoid_angles", "rate_matrix", "to_opensim_speeds"]


def ellipsoid_angles(model):
    """Each ellipsoid joint's three angles: a list of (q indices, v indices), 3-lists (they
    differ after a quaternion joint)."""
    return [(list(range(j.q_index, j.q_index + 3)), list(range(j.v_index, j.v_index + 3)))
            for j in model.joints if j.type == "ellipsoid"]


def rate_matrix(angles):
    """E (..., 3, 3): body-fixed X-Y-Z angles' rates -> angular velocity in the joint frame."""
    angles = np.asarray(angles, dtype=float)
    c0, s0 = np.cos(angles[..., 0]), np.sin(angles[..., 0])
    c1, s1 = np.cos(angles[..., 1]), np.sin(angles[..., 1])
    zero, one = np.zeros_like(c0), np.ones_like(c0)
    return np.stack([np.stack([one, zero, s1], -1),
                     np.stack([zero, c0, -s0 * c1], -1),
                     np.stack([zero, s0, c0 * c1], -1)], -2)


def _rate_matrix_dot(angles, rates):
    """dE/dt (..., 3, 3) along the angles' rates."""
    c0, s0 = np.cos(angles[..., 0]), np.sin(angles[..., 0])
    c1, s1 = np.cos(angles[..., 1]), np.sin(angles[..., 1])
    d0, d1 = rates[..., 0], rates[..., 1]
    zero = np.zeros_like(c0)
    return np.stack([np.stack([zero, zero, c1 * d1], -1),
                     np.stack([zero, -s0 * d0, -c0 * c1 * d0 + s0 * s1 * d1], -1),
                     np.stack([zero, c0 * d0, -s0 * c1 * d0 - c0 * s1 * d1], -1)], -2)


def to_opensim_speeds(model, q, v, a):
    """OpenSim's speeds and their rates (N, nv) for urdf2dyn's q, v, a (N, nq/nv): E qd and
    E qdd + dE/dt qd on the ellipsoid angles, the rates themselves elsewhere."""
    q, v, a = (np.array(x, dtype=float) for x in (q, v, a))
    u, udot = v.copy(), a.copy()
    for iq, k in ellipsoid_angles(model):
        E = rate_matrix(q[..., iq])
        u[..., k] = np.einsum("...ij,...j->...i", E, v[..., k])
        udot[..., k] = (np.einsum("...ij,...j->...i", E, a[..., k]) + np.einsum(
            "...ij,...j->...i", _rate_matrix_dot(q[..., iq], v[..., k]), v[..., k]))
    return u, udot
