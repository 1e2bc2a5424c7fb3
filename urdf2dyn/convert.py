"""An OpenSim model (.osim) written as URDF, exactly where URDF can say it.

URDF has revolute, continuous, prismatic and fixed joints and no gravity. An OpenSim joint maps
onto them exactly when each of its coordinates moves one transform axis through ``q`` or ``-q``
plus a constant: PinJoint, SliderJoint, WeldJoint, UniversalJoint, GimbalJoint, PlanarJoint and
most CustomJoints (pelvis, hips, ankles) become chains of 1-DoF joints named after their
coordinates, joined by massless links, with the same generalized coordinates, speeds and forces
(OpenSim's rotations are body-fixed, its translations along the parent frame's axes, both of
which a chain of joints reproduces). A joint's <limit> is a stop to URDF readers, so only a
clamped coordinate's range, which OpenSim holds the coordinate in, is one: an unclamped
rotation is a continuous joint (two configuration numbers to Pinocchio, cos and sin; one angle
to urdf2dyn's reader and MuJoCo's), an unclamped translation a prismatic joint with limits of
+-1e16 (:data:`NO_POSITION_LIMIT`), URDF's "no bound". Anything else cannot be said in URDF:
an axis moved by a spline, a polynomial or a scaled coordinate (a knee's translations,
Rajagopal's knee rotations) is frozen at a pose (by default the coordinates' default values),
and every frozen axis is reported by name, with the coordinate and the value it was frozen at.
"""
from __future__ import annotations

import math
import os
import sys

import numpy as np

from ._safe_files import refuse_input, replacing
from ._xmltext import escape, in_comment
from .warn import Urdf2dynWarning, report

#: A joint's effort or velocity limit where there is none: URDF requires both attributes on a
#: revolute or prismatic joint's <limit>, and 0 is a bound of 0 to ros_control's
#: joint_limits_interface (MuJoCo's import and MoveIt read 0 as none, Pinocchio keeps 0);
#: urdfdom refuses 'inf' (Pinocchio's own "no limit"), so the largest double it reads.
NO_LIMIT = sys.float_info.max

#: A prismatic or revolute joint's position limit where there is none (an unclamped
#: translation, an open end of a clamped range): SDFormat's default joint limit, its "no
#: limit", before 1.10 (sdformat#1112 made it inf). Not the largest double: samplers draw
#: lower + (upper - lower) * u, whose span overflows there (Pinocchio's randomConfiguration,
#: which multiplies it by rand() before dividing by RAND_MAX, returned inf up to 1e300).
NO_POSITION_LIMIT = 1e16

_AXES = ("rotation1", "rotation2", "rotation3", "translation1", "translation2", "translation3")


def _rpy(R):
    """URDF roll, pitch, yaw of a rotation matrix (R = Rz(yaw) Ry(pitch) Rx(roll))."""
    pitch = math.atan2(-R[2, 0], math.hypot(R[0, 0], R[1, 0]))
    if math.hypot(R[0, 0], R[1, 0]) < 1e-12:            # gimbal lock: put it all in roll
        return math.atan2(-R[1, 2], R[1, 1]), pitch, 0.0
    return math.atan2(R[2, 1], R[2, 2]), pitch, math.atan2(R[1, 0], R[0, 0])


def _rot(axis, angle):
    a = np.asarray(axis, float)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def _T(R=None, p=None):
    T = np.eye(4)
    if R is not None:
        T[:3, :3] = R
    if p is not None:
        T[:3, 3] = p
    return T


def _origin(T):
    r, p, y = _rpy(T[:3, :3])
    xyz = " ".join(f"{x:.17g}" for x in T[:3, 3])
    return f'<origin xyz="{xyz}" rpy="{r:.17g} {p:.17g} {y:.17g}"/>'


def _vec(v):
    return " ".join(f"{x:.17g}" for x in v)


# joints whose origin moves with their angles, which URDF cannot express: what they are
_SLIDING = {
    "ellipsoid": "OpenSim's ellipsoid joint (its origin slides on an ellipsoid as it turns)",
    "constant_curvature": "OpenSim's ConstantCurvatureJoint (its origin follows an arc as "
                          "it bends)",
}


def _locked_notes(model, movable):
    """What URDF cannot say of the model's locked coordinates that stay movable joints (of
    the names movable): OpenSim's IK holds each at its default value, an IK of the URDF
    fits it. A frozen one is held where the freeze put it, and not said."""
    held = {n: v for n, v in model.locked_coordinates.items() if n in movable}
    if not held:
        return []
    many = len(held) > 1
    them = "them" if many else "it"
    return [f"coordinate{'s' if many else ''} {', '.join(held)} locked in the .osim: "
            f"OpenSim's IK holds {'each' if many else 'it'} at its default value, but URDF "
            f"cannot lock a joint, so an IK of the URDF fits {them}; hold {them} there "
            f"(urdf2dyn: model.locked_coordinates = {held!r}) or run IK on the .osim"]


def _relative_pose(model, q, parent, child):
    """Link child's pose in link parent's frame at q (4x4)."""
    pos, rot = model.forward_kinematics(q)
    T = [_T(rot[k], pos[k]) for k in (model.link_names.index(n) for n in (parent, child))]
    return np.linalg.solve(T[0], T[1])


def osim_to_urdf(model, output: str | os.PathLike | None = None, q=None,
                 strict: bool = False) -> str:
    """Write an OpenSim model as URDF text (and to ``output`` when given).

    Parameters
    ----------
    model : urdf2dyn.Model or path
        An OpenSim model, loaded or a .osim path.
    output : path, optional
        Where to write the URDF.
    q : array_like (nq,), optional
        The pose at which axes URDF cannot express are frozen (rad, m; q order); default the
        coordinates' default values.
    strict : bool
        Refuse (ValueError) instead of warning when something has to be approximated.

    Returns
    -------
    str
        The URDF document. Its joints are named after OpenSim's coordinates; links after the
        bodies (massless links ``<joint>_<coordinate>`` between the joints of one OpenSim
        joint). A clamped coordinate's range is a ``<limit>``; an unclamped one's binds
        nothing in OpenSim, so it is no stop either in URDF (a turning coordinate is a
        continuous joint, a translation's limit :data:`NO_POSITION_LIMIT` both ways; a range
        the file wrote is kept in a comment), as an infinite end of a clamped range is (a
        turning coordinate free both ways is a continuous joint). Effort and velocity are
        :data:`NO_LIMIT` (OpenSim has none). A Urdf2dynWarning names each frozen axis and the
        locked coordinates (URDF cannot lock a joint). URDF carries no gravity: the model's
        own (gx, gy, gz) is written in the document's opening comment, to be set on the
        model loaded from it where its dynamics are computed
        (``model = urdf2dyn.load(path); model.gravity = (gx, gy, gz)``).
    """
    from .model import load
    if not hasattr(model, "structure"):
        model = load(model)
    info = model._c.osim()
    if info is None:
        raise ValueError("osim_to_urdf: the model was not read from an OpenSim file")
    s = model.structure()
    coords = model.coordinates
    q0 = np.array([coords[n].default if n in coords else 0.0 for n in model.q_names]
                  if q is None else q, dtype=float)
    if q0.shape != (model.nq,):
        raise ValueError(f"osim_to_urdf: q must have shape ({model.nq},), got {q0.shape}")

    own = {}                                   # body -> the link that is the body
    for name, b, E, r in zip(s.link_names, s.link_body, s.link_E, s.link_r):
        if int(b) not in own and np.allclose(E, np.eye(3), 0, 0) and not np.any(r):
            own[int(b)] = name
    links, joints, notes, moving = [], [], [], set()
    inertial = {}
    for b in range(1, s.nbody):
        m = float(s.mass[b])
        if m > 0:
            c = s.h[b] / m
            Ic = s.Ib[b] - m * (np.dot(c, c) * np.eye(3) - np.outer(c, c))
            inertial[own[b]] = (m, c, Ic)

    def coord_name(b, k):
        return model.q_names[int(s.q_index[b]) + k]

    def bounds(name):
        """The range OpenSim holds the coordinate in: a clamped one's; an unclamped one's
        range binds nothing in OpenSim (its IK leaves it, setValue does not clamp), and a
        URDF <limit> is a stop to every URDF reader, so it has none."""
        c = coords.get(name)
        return (c.lower, c.upper) if c is not None and c.clamped else (-math.inf, math.inf)

    def limit(name):
        """URDF requires a revolute or prismatic <limit>, and urdfdom refuses 'inf': an
        end OpenSim leaves open (an unclamped coordinate, an infinite range end), or one
        beyond it, is NO_POSITION_LIMIT; a range wholly beyond it is kept (a stop there),
        an open end NO_POSITION_LIMIT past the other, not reversed by the cut."""
        lower, upper = bounds(name)
        if lower > NO_POSITION_LIMIT:
            upper = min(upper, lower + NO_POSITION_LIMIT)
        elif upper < -NO_POSITION_LIMIT:
            lower = max(lower, upper - NO_POSITION_LIMIT)
        else:
            lower, upper = max(lower, -NO_POSITION_LIMIT), min(upper, NO_POSITION_LIMIT)
        return (f'<limit lower="{lower:.17g}" upper="{upper:.17g}" effort="{NO_LIMIT!r}" '
                f'velocity="{NO_LIMIT!r}"/>')

    def unbound_range(name):
        """An unclamped coordinate's range, kept where a URDF reader reads no stop: in a
        comment (a range OpenSim gave a coordinate without <range> is no one's choice), as
        OpenSim keeps it (a NaN end as NaN, which urdf2dyn reads as no bound)."""
        c = coords.get(name)
        if c is None or c.clamped or not c.range_written:
            return ""
        ends = " ".join("nan" if nan else f"{end:.17g}"
                        for end, nan in zip((c.lower, c.upper), c.nan_ends))
        return (f"<!-- OpenSim range {ends}, not clamped: OpenSim does not hold the "
                "coordinate in it, so no limit here -->")

    def movable(name, kind, parent, child, T, axis):
        moving.add(name)
        if kind == "revolute" and all(map(math.isinf, bounds(name))):
            kind, stops = "continuous", ""              # URDF's revolute without limits
        else:
            stops = limit(name)
        joints.append(f'<joint name="{escape(name)}" type="{kind}"><parent '
                      f'link="{escape(parent)}"/><child link="{escape(child)}"/>{_origin(T)}'
                      f'<axis xyz="{_vec(axis)}"/>{stops}{unbound_range(name)}</joint>')

    def fixed(name, parent, child, T):
        joints.append(f'<joint name="{escape(name)}" type="fixed"><parent '
                      f'link="{escape(parent)}"/><child link="{escape(child)}"/>{_origin(T)}'
                      '</joint>')

    custom = {b: (jname, axes) for jname, b, axes in info["custom"]}
    values = dict(zip(custom, model._c.axis_values(q0)))
    for b in range(1, s.nbody):
        parent, child = own[int(s.parent[b])], own[b]
        T = _T(np.asarray(s.Xtree_E[b]).T, s.Xtree_r[b])     # parent body -> joint frame F
        jtype = s.jtype[b]
        if jtype in ("revolute", "prismatic"):
            movable(coord_name(b, 0), jtype, parent, child, T, s.axis[b])
            continue
        if jtype in _SLIDING:         # its translation follows the angles: no URDF joint
            fixed(f"{s.joint[b]}_to_{child}", parent, child,
                  _relative_pose(model, q0, parent, child))
            names = [coord_name(b, c) for c in range(int(s.nq[b]))]
            notes.append(f"joint '{s.joint[b]}': URDF cannot express {_SLIDING[jtype]}: frozen at "
                         + ", ".join(f"{n} = {q0[model.q_names.index(n)]:g}" for n in names)
                         + f"; coordinates {', '.join(names)} removed")
            continue
        jname, axes = custom[b]
        used, frozen, current = set(), [], parent
        # translations first (along F's axes), then the body-fixed rotations in order
        for k in (3, 4, 5, 0, 1, 2):
            axis, c, lin = axes[k]
            axis = np.array(axis)
            pure = (c >= 0 and lin is not None and abs(lin[0]) == 1.0 and c not in used)
            if pure:
                used.add(c)
                name = coord_name(b, c)
                offset = lin[1] * axis
                T = T @ (_T(p=offset) if k >= 3 else _T(_rot(axis, lin[1])))
                link = f"{jname}_{name}"
                links.append(link)
                movable(name, "prismatic" if k >= 3 else "revolute", current, link, T,
                        lin[0] * axis)
                current, T = link, np.eye(4)
                continue
            value = values[b][k]
            if c >= 0:
                frozen.append(f"{_AXES[k]} (a function of {coord_name(b, c)}) at "
                              f"{coord_name(b, c)} = {q0[int(s.q_index[b]) + c]:g} "
                              f"(value {value:g})")
            T = T @ (_T(p=value * axis) if k >= 3 else _T(_rot(axis, value)))
        fixed(f"{jname}_to_{child}", current, child, T)
        lost = [coord_name(b, c) for c in range(int(s.nq[b])) if c not in used]
        if frozen:
            notes.append(f"joint '{jname}': URDF cannot express " + "; ".join(frozen) +
                         ": frozen there" + (f"; coordinate{'s' if len(lost) > 1 else ''} "
                                             f"{', '.join(lost)} removed" if lost else ""))

    notes += _locked_notes(model, moving)

    for name, b, E, r in zip(s.link_names, s.link_body, s.link_E, s.link_r):
        if name != own[int(b)]:
            fixed(f"{name}_fixed", own[int(b)], name, _T(np.asarray(E).T, r))

    body = []
    for name in list(s.link_names) + links:
        if name in inertial:
            m, c, I = inertial[name]
            body.append(f'<link name="{escape(name)}"><inertial>'
                        f'<origin xyz="{_vec(c)}" rpy="0 0 0"/>'
                        f'<mass value="{m:.17g}"/><inertia ixx="{I[0, 0]:.17g}" '
                        f'ixy="{I[0, 1]:.17g}" ixz="{I[0, 2]:.17g}" iyy="{I[1, 1]:.17g}" '
                        f'iyz="{I[1, 2]:.17g}" izz="{I[2, 2]:.17g}"/></inertial></link>')
        else:
            body.append(f'<link name="{escape(name)}"/>')
    g = " ".join(f"{x:g}" for x in model.gravity)
    text = (f'<?xml version="1.0"?>\n<!-- converted by urdf2dyn from the OpenSim model '
            f'"{in_comment(model.name)}"; gravity {g} (URDF carries none); OpenSim\'s '
            f'coordinates have no effort or velocity limit: written as {NO_LIMIT!r}, the largest '
            'number URDF readers take -->\n'
            f'<robot name="{escape(model.name)}">\n' + "\n".join(body + joints) + "\n</robot>\n")
    where = f"{os.fspath(output)}: " if output is not None else ""
    if output is not None:      # an output refused names no file it was not written to
        refuse_input(os.fspath(output))
    for n in notes:
        report(where + n, strict=strict, category=Urdf2dynWarning, stacklevel=3)
    if output is not None:
        with replacing(output) as tmp, open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    return text
