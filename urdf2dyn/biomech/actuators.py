"""Actuators as OpenSim means them, on a urdf2dyn model: the generalized force each makes per
newton (or newton metre), how OpenSim's RRA shares a trial's generalized forces among them, and
the root the residual actuators act on.

An actuator is a urdf2dyn.biomech.formats.rra_setup.Actuator: a ``PointActuator`` (a force
along a direction, in ground or body axes, at a point fixed in the body or in ground), a
``TorqueActuator`` (a torque about an axis on a body, its reaction on another or on ground) or
a ``CoordinateActuator`` (a generalized force on a coordinate), each with its optimal force.
:func:`actuator_matrix` gives B (N, nv, nact), the generalized forces of unit actuator
forces, from the model's frame Jacobians; :func:`actuator_forces` the forces f with the least
sum (f / optimal force)^2 such that B f = tau, which is what OpenSim's RRA minimizes at each
instant. Checked against OpenSim 4.6's own forces in tests/biomech/test_residuals.py.
"""
from __future__ import annotations

import numpy as np

from .ellipsoid_speeds import ellipsoid_angles, rate_matrix
from .formats.rra_setup import Actuator

__all__ = ["ActuatorError", "root_dofs", "root_body", "default_actuators", "actuator_matrix",
           "actuator_forces"]


class ActuatorError(ValueError):
    """An actuator that does not fit the model, or a model without a free root (the message
    names the actuator, body or coordinate)."""


def root_dofs(model):
    """Indices (into v) of the root's degrees of freedom: the first joint when it has 3 or
    more (an OpenSim ground-pelvis joint, a floating or planar root), else the serial chain
    of 1-DoF joints from the base that adds up to 6 through massless links (a URDF human,
    urdf2dyn.biomech.grf.root_chain). Raises ActuatorError for a model without a free root."""
    j0 = model.joints[0]
    if j0.nv >= 3:
        return list(range(j0.v_index, j0.v_index + j0.nv))
    from .grf import root_chain
    try:
        joints, _ = root_chain(model)
    except ValueError as e:
        raise ActuatorError(str(e)) from None
    return [k for j in joints for k in range(j.v_index, j.v_index + j.nv)]


def root_body(model):
    """The root body: the child of the joint that holds the last root degree of freedom."""
    last = max(root_dofs(model))
    return next(j.child for j in model.joints if j.v_index <= last < j.v_index + j.nv)


def default_actuators(model):
    """OpenSim's usual RRA actuators for a model: FX FY FZ (ground axes, at the root body's
    origin) and MX MY MZ (ground axes) on the root body, optimal force 1, and one
    CoordinateActuator per other coordinate (not locked, not a coupler's dependent one: its
    independent coordinate bears its force)."""
    root = root_body(model)
    acts = [Actuator(f"F{x}", "point", 1.0, body=root, direction=tuple(np.eye(3)[k]),
                     force_is_global=True) for k, x in enumerate("XYZ")]
    acts += [Actuator(f"M{x}", "torque", 1.0, body=root, body_b=None,
                      axis=tuple(np.eye(3)[k]), torque_is_global=True)
             for k, x in enumerate("XYZ")]
    skip = set(root_dofs(model))
    locked = set(getattr(model, "locked_coordinates", {}))
    locked |= {c.dependent for c in getattr(model, "couplers", ())}
    acts += [Actuator(n, "coordinate", 1.0, coordinate=n) for k, n in enumerate(model.v_names)
             if k not in skip and n not in locked]
    return acts


def _body(model, name, what):
    """The link a body name refers to (None for OpenSim's ground / the world)."""
    if name is None or name.lower() == "ground" and name not in model.link_names:
        return None
    if name not in model.link_names:
        more = " ..." if len(model.link_names) > 8 else ""
        raise ActuatorError(f"{what}: body '{name}' is not a link of the model '{model.name}' "
                            f"(it has {model.link_names[:8]}{more})")
    return name


def actuator_matrix(model, actuators, q):
    """B (N, nv, nact): the generalized force each actuator makes per unit force (N or N m)
    at the configurations q (N, nq), with OpenSim's meaning of each actuator (see
    urdf2dyn.biomech.formats.rra_setup.Actuator)."""
    q = np.atleast_2d(np.asarray(q, dtype=float))
    n = len(q)
    B = np.zeros((n, model.nv, len(actuators)))
    fk = None
    jac = {}

    def pose(link):
        nonlocal fk
        if fk is None:
            fk = model.forward_kinematics(q)
        k = model.link_names.index(link)
        return fk[0][:, k], fk[1][:, k]

    def jacobian(link):                       # world axes, at the link origin
        if link not in jac:
            jac[link] = model.jacobian(q, link)
        return jac[link]
    for k, act in enumerate(actuators):
        what = f"actuator '{act.name}'"
        if act.kind == "coordinate":
            if act.coordinate not in model.v_names:
                raise ActuatorError(f"{what}: coordinate '{act.coordinate}' is not one of the "
                                    f"model's {model.v_names}")
            _coordinate_column(model, act.coordinate, q, B[:, :, k])
            continue
        link = _body(model, act.body, what)
        if link is None:
            raise ActuatorError(f"{what}: acts on ground, where it does nothing; name a body")
        o, R = pose(link)
        J = jacobian(link)
        if act.kind == "point":
            d = np.asarray(act.direction, dtype=float)
            d = d / np.linalg.norm(d)
            d = np.broadcast_to(d, (n, 3)) if act.force_is_global else R @ d
            p = np.asarray(act.point, dtype=float)
            r = p - o if act.point_is_global else R @ p       # from the link origin, world axes
            # the velocity of the body point at r: v_o + w x r, so J_p = J_v - [r]x J_w
            Jp = J[:, :3] - np.cross(r[:, :, None], J[:, 3:], axisa=1, axisb=1, axisc=1)
            B[:, :, k] = np.einsum("nij,ni->nj", Jp, d)
        else:
            axis = np.asarray(act.axis, dtype=float)
            axis = axis / np.linalg.norm(axis)
            axis = np.broadcast_to(axis, (n, 3)) if act.torque_is_global else R @ axis
            Jw = J[:, 3:].copy()
            other = _body(model, act.body_b, what)
            if other is not None:
                Jw -= jacobian(other)[:, 3:]
            B[:, :, k] = np.einsum("nij,ni->nj", Jw, axis)
    return B


def _coordinate_column(model, coordinate, q, column):
    """A CoordinateActuator's generalized forces per unit force, into column (N, nv): 1 on its
    coordinate, but on an ellipsoid joint's angle, whose OpenSim speed is a component of the
    angular velocity (u = E(q) qd), E^T e_i on the three angles' rates."""
    j = model.v_names.index(coordinate)
    for iq, angles in ellipsoid_angles(model):
        if j in angles:
            column[:, angles] = rate_matrix(q[:, iq])[:, angles.index(j), :]
            return
    column[:, j] = 1.0


def distribution(B, weights, rows):
    """P (N, nact, nv): the actuator forces f = P tau with the least sum (f / w)^2 such that
    B f = tau on the coordinates rows (the other coordinates' forces are not the actuators'
    to make: locked ones, or those without an actuator)."""
    Br = B[:, rows, :]
    BW = Br * (weights ** 2)
    G = BW @ np.swapaxes(Br, 1, 2)
    try:
        X = np.linalg.solve(G, BW)                       # (N, rows, nact) = G^-1 B W
    except np.linalg.LinAlgError:
        X = np.linalg.pinv(G) @ BW
    P = np.zeros((B.shape[0], B.shape[2], B.shape[1]))
    P[:, :, rows] = np.swapaxes(X, 1, 2)
    return P


def actuator_forces(model, actuators, q, tau):
    """The actuators' forces (N, nact) that make the generalized forces tau (N, nv) at q
    (N, nq), shared as OpenSim's RRA shares them (least sum of squared controls,
    force / optimal_force); locked coordinates and coordinates without an actuator are left
    out (their force is not an actuator's)."""
    q = np.atleast_2d(np.asarray(q, dtype=float))
    tau = np.atleast_2d(np.asarray(tau, dtype=float))
    B = actuator_matrix(model, actuators, q)
    rows = actuated_rows(model, B)
    P = distribution(B, np.array([a.optimal_force for a in actuators]), rows)
    return np.einsum("nkj,nj->nk", P, tau)


def residual_block(B, res, rows):
    """(coordinates, actuators) that share forces with the residual actuators res: the root's
    block of the distribution, closed under "an actuator touches a coordinate" (rows: the
    coordinates the actuators are to make)."""
    touches = np.any(B != 0, axis=0)                       # (nv, nact)
    acts, coords = set(res), set()
    while True:
        more = {j for j in rows for k in acts if touches[j, k]} - coords
        coords |= more
        grow = {k for k in range(B.shape[2]) for j in coords if touches[j, k]} - acts
        acts |= grow
        if not more and not grow:
            return sorted(coords), sorted(acts)


def actuated_rows(model, B):
    locked = set(getattr(model, "locked_coordinates", {}))
    return [j for j, n in enumerate(model.v_names)
            if n not in locked and np.any(B[:, j, :] != 0)]
