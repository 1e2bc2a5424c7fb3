"""URDF models out to OpenSim: ``to_opensim(model)`` builds the equivalent ``opensim.Model``
(same bodies, masses, inertias, joint frames, axes and coordinate names) and
``export_osim(urdf, path)`` writes it as a .osim file (``urdf2dyn export-osim`` on the command
line). Both need the ``opensim`` package (``pip install opensim``).
"""
import math
import os
import xml.etree.ElementTree as ET

import numpy as np

from .. import _core
from ..model import OPENSIM_NAME_FORBIDDEN
from .formats.opensim import GROUND
from .processing import LIBRARY_COLUMNS

__all__ = ["to_opensim", "export_osim"]

# Characters OpenSim refuses in a component's name, and the names that are steps of a
# component path, which connect a socket to the wrong component ("/bodyset/.." is the model
# itself).
_FORBIDDEN = OPENSIM_NAME_FORBIDDEN
_PATH_STEPS = (".", "..")
_RULE = ("OpenSim allows no \\ / * + or white space in a name, and no name . or .. (its "
         "component paths use them)")


def _floats(text, n, where):
    values = [float(x) for x in (text or "").split()]
    if len(values) != n or not all(math.isfinite(x) for x in values):
        raise ValueError(f"{where}: expected {n} finite numbers, got {text!r}")
    return np.array(values)


def _rpy_matrix(rpy):
    """URDF's rpy: fixed-axis X then Y then Z, R = Rz(yaw) Ry(pitch) Rx(roll)."""
    r, p, y = rpy
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), \
        math.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def _body_xyz(R):
    """OpenSim's frame orientation: body-fixed X-Y-Z angles (a, b, c), R = Rx(a) Ry(b) Rz(c)."""
    cb = math.hypot(R[0, 0], R[0, 1])
    b = math.atan2(R[0, 2], cb)
    if cb < 1e-12:                          # gimbal lock: only a + c (or a - c) is defined
        return (math.atan2(R[2, 1], R[1, 1]), b, 0.0)
    return (math.atan2(-R[1, 2], R[2, 2]), b, math.atan2(-R[0, 1], R[0, 0]))


def _origin(elem, where):
    """(xyz, R) of a URDF <origin> child of elem (identity when absent)."""
    o = elem.find("origin")
    if o is None:
        return np.zeros(3), np.eye(3)
    xyz = _floats(o.get("xyz", "0 0 0"), 3, f"{where} <origin xyz>")
    rpy = _floats(o.get("rpy", "0 0 0"), 3, f"{where} <origin rpy>")
    return xyz, _rpy_matrix(rpy)


def _inertial(link):
    """(mass, com (3,), inertia about the COM in the link frame (3, 3)) of a URDF <link>."""
    where = f"link '{link.get('name')}'"
    inertial = link.find("inertial")
    if inertial is None:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    m = inertial.find("mass")
    mass = float(m.get("value")) if m is not None else 0.0
    com, R = _origin(inertial, f"{where} <inertial>")
    i = inertial.find("inertia")
    I = np.zeros((3, 3))
    if i is not None:
        g = {k: float(i.get(k, 0.0)) for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")}
        I = np.array([[g["ixx"], g["ixy"], g["ixz"]], [g["ixy"], g["iyy"], g["iyz"]],
                      [g["ixz"], g["iyz"], g["izz"]]])
    return mass, com, R @ I @ R.T


def _complement(axis):
    """Two unit vectors completing axis into a right-handed orthonormal basis."""
    helper = np.eye(3)[int(np.argmin(np.abs(axis)))]
    u = np.cross(axis, helper)
    u /= np.linalg.norm(u)
    return u, np.cross(axis, u)


def to_opensim(model, name=None, gravity=None, *, named=LIBRARY_COLUMNS):
    """The OpenSim model equivalent to a urdf2dyn model (needs the ``opensim`` package).

    Every URDF link becomes a Body of the same name (mass, centre of mass and inertia about
    it in the link frame), every joint a Joint of the same name whose parent frame is the
    URDF joint origin: revolute, continuous and prismatic joints become one-coordinate
    CustomJoints rotating about / sliding along the URDF axis (the coordinate is named after
    the joint, so OpenSim's coordinates are urdf2dyn's q_names), fixed joints WeldJoints. The
    root link is welded to OpenSim's ground, or is the ground when it is called ``ground`` (as
    in the bundled human, whose 6-DoF root is 3 prismatic + 3 revolute joints). Joint limits
    become coordinate ranges; the coordinates urdf2dyn's inverse kinematics clamps
    (model.clamped_ranges: the limits but a zero or whole-turn range, or the ranges assigned)
    are clamped to those ranges, with the default value the stop nearest 0 where 0 lies
    outside. Gravity is model.gravity.

    A name OpenSim does not allow (with ``\\ / * +`` or white space, or ``.`` / ``..``) is
    written with ``_`` in place of each such character, kept unique in its set, and one
    Urdf2dynWarning lists every rename.

    Parameters
    ----------
    model : urdf2dyn.Model
        Loaded without floating_base; floating and planar joints have no one-to-one OpenSim
        coordinates and are refused.
    name : str, optional
        The OpenSim model's name (default: the robot's); one OpenSim does not allow is
        refused (ValueError).
    gravity : (3,) array, optional
        Gravity in ground, m/s² (default: model.gravity).
    named : ColumnOptions
        The caller's options, as the refusals of a floating root and of an OpenSim model
        advise them (default: the library's).

    Returns
    -------
    opensim.Model
        Built, finalized and with its system initialized.
    """
    try:
        import opensim as osim
    except ImportError:
        raise ImportError("building an OpenSim model needs OpenSim's Python package: "
                          "pip install opensim") from None
    if model.floating_base:
        # the loader's root, not the file's: the model without it is what the file says
        raise ValueError("to_opensim: the model was loaded with floating_base=True, whose "
                         "floating root_joint has no one-coordinate-per-DoF OpenSim "
                         "equivalent; load it without floating_base (its root welded to the "
                         "world, as the file says)")
    if any(j.type in ("floating", "planar") for j in model.joints):
        bad = [j.name for j in model.joints if j.type in ("floating", "planar")]
        raise ValueError(f"to_opensim: joints {bad} are floating or planar, which have no "
                         "one-coordinate-per-DoF OpenSim equivalent; model the root as 3 "
                         f"prismatic + 3 revolute joints ({named.root})")
    if model.is_opensim:
        raise ValueError("to_opensim: the model was read from an OpenSim file already: use "
                         f"that .osim file ({named.osim_to_urdf} writes an .osim model as "
                         "URDF)")
    if name is not None and _legal(name) != name:
        raise ValueError(f"to_opensim: name {name!r}: {_RULE}: give a name without them")
    # the reader took a bare '&' as the character; a strict parser wants it escaped first
    doc = ET.fromstring(_core.escape_bare_ampersands(model._xml))
    if doc.tag != "robot":
        doc = doc.find("robot")
    links = {link.get("name"): link for link in doc.findall("link")}
    joints = doc.findall("joint")
    children = {j.find("child").get("link") for j in joints}
    root = next(n for n in links if n not in children)
    body_name = _unique_legal_names([n for n in links if not (n == root == GROUND)])
    joint_name = _unique_legal_names([j.get("name") for j in joints])
    weld = _unused(_legal(f"{root}_to_ground"), set(joint_name.values()))
    model_name = name or _legal(model.name)
    _warn_renamed(model, model_name, body_name, joint_name)

    om = osim.Model()
    om.setName(model_name)
    om.setGravity(osim.Vec3(*_holdable_gravity(model.gravity if gravity is None else gravity)))
    frames = {}
    if root == GROUND:
        frames[root] = om.getGround()
    for lname, link in links.items():
        if lname in frames:
            continue
        mass, com, I = _inertial(link)
        body = osim.Body(body_name[lname], mass, osim.Vec3(*com),
                         osim.Inertia(I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]))
        om.addBody(body)
        frames[lname] = body
    if root != GROUND:
        om.addJoint(osim.WeldJoint(weld, om.getGround(), osim.Vec3(0),
                                   osim.Vec3(0), frames[root], osim.Vec3(0), osim.Vec3(0)))
    limits = {j.name: j.limit for j in model.joints}
    for j in _in_tree_order(joints, root):
        jname, jtype = j.get("name"), j.get("type")
        parent, child = frames[j.find("parent").get("link")], frames[j.find("child").get("link")]
        xyz, R = _origin(j, f"joint '{jname}'")
        coord = joint_name[jname]           # the joint's OpenSim name, and its coordinate's
        args = (coord, parent, osim.Vec3(*xyz), osim.Vec3(*_body_xyz(R)), child,
                osim.Vec3(0), osim.Vec3(0))
        if jtype == "fixed":
            om.addJoint(osim.WeldJoint(*args))
            continue
        a = j.find("axis")
        axis = _floats(a.get("xyz") if a is not None else "1 0 0", 3, f"joint '{jname}' <axis>")
        axis /= np.linalg.norm(axis)
        om.addJoint(osim.CustomJoint(*args, _one_axis(osim, coord, axis,
                                                      rotation=jtype != "prismatic")))
        c = om.updCoordinateSet().get(coord)
        stops = model.clamped_ranges.get(jname)
        if stops is not None:
            # clamped at the stops urdf2dyn's IK binds (the URDF limits unless the user
            # assigned others), so that OpenSim's IK binds the same ones; OpenSim refuses a
            # clamped default outside the range, where q = 0 is for many robots (arm7's
            # joint4, [-176, -4] deg): the default is the nearest stop
            c.setRangeMin(float(stops[0]))
            c.setRangeMax(float(stops[1]))
            c.setDefaultValue(float(np.clip(0.0, *stops)))
            c.setDefaultClamped(True)
        elif limits.get(jname) is not None and jtype != "continuous":
            c.setRangeMin(limits[jname][0])
            c.setRangeMax(limits[jname][1])
            c.setDefaultClamped(False)
    om.finalizeConnections()
    om.initSystem()
    return om


def _legal(name):
    """name with each character OpenSim refuses written '_' (a path step '.' or '..': '_'
    for each dot)."""
    legal = "".join("_" if c in _FORBIDDEN else c for c in name)
    return "_" * len(legal) if legal in _PATH_STEPS else legal


def _unused(name, taken):
    """name, or name_2, name_3, ...: the first not in taken."""
    k, candidate = 1, name
    while candidate in taken:
        k += 1
        candidate = f"{name}_{k}"
    return candidate


def _unique_legal_names(names):
    """{URDF name: OpenSim name} for the components of one OpenSim set (bodies, or joints):
    legal names stay, the others are made legal without taking a name already in the set
    (a URDF with both 'arm/base' and 'arm_base' gets 'arm_base_2')."""
    given = {n: n for n in names if _legal(n) == n}
    taken = set(given)
    for n in names:
        if n not in given:
            given[n] = _unused(_legal(n), taken)
            taken.add(given[n])
    return given


def _warn_renamed(model, model_name, body_name, joint_name, limit=12):
    """One warning listing every URDF name the OpenSim model writes otherwise."""
    from ..warn import counted, in_file, report
    renamed = [f"link '{a}' -> body '{b}'" for a, b in body_name.items() if a != b]
    renamed += [f"joint '{a}' -> joint and coordinate '{b}'" if _moves(model, a) else
                f"joint '{a}' -> joint '{b}'" for a, b in joint_name.items() if a != b]
    if model_name != (model.name or model_name):
        renamed.insert(0, f"robot '{model.name}' -> model '{model_name}'")
    if not renamed:
        return
    more = f", and {len(renamed) - limit} more" if len(renamed) > limit else ""
    report(f"{in_file(model._source)}{_RULE}: {counted(len(renamed), 'name')} changed in the "
           f"OpenSim model: {', '.join(renamed[:limit])}{more}. Motion and setup files for "
           "the .osim must use these names; rename them in the URDF to keep one name in both",
           stacklevel=None)


def _moves(model, joint):
    return any(j.name == joint for j in model.joints)


def _holdable_gravity(gravity):
    """gravity as three floats, or a ValueError when OpenSim cannot hold it: Simbody keeps
    gravity as a direction and a length, and a length that overflows (components past
    ~1e154 m/s²) made initSystem fail with 'A non-finite down direction'."""
    g = [float(x) for x in gravity]
    if not math.isfinite(sum(x * x for x in g)):
        raise ValueError(f"to_opensim: gravity ({', '.join(f'{x:g}' for x in g)}) m/s²: "
                         "OpenSim keeps gravity as a direction and a length, and its length "
                         "overflows: give finite components of a physical size")
    return g


def _in_tree_order(joints, root):
    """URDF joints parents first (OpenSim adds a joint only once its parent body is placed)."""
    by_parent = {}
    for j in joints:
        by_parent.setdefault(j.find("parent").get("link"), []).append(j)
    order, stack = [], [root]
    while stack:
        for j in by_parent.get(stack.pop(), []):
            order.append(j)
            stack.append(j.find("child").get("link"))
    return order


def _one_axis(osim, coord, axis, rotation):
    """A SpatialTransform with one coordinate: a rotation about (or translation along) axis;
    the other five axes complete orthonormal bases and stay at zero."""
    st = osim.SpatialTransform()
    u, w = _complement(axis)
    rot = [st.upd_rotation1(), st.upd_rotation2(), st.upd_rotation3()]
    tra = [st.upd_translation1(), st.upd_translation2(), st.upd_translation3()]
    for axes, free in ((rot, rotation), (tra, not rotation)):
        for k, (ta, direction) in enumerate(zip(axes, (axis, u, w))):
            ta.setAxis(osim.Vec3(*direction))
            if free and k == 0:
                names = osim.ArrayStr()
                names.append(coord)
                ta.setCoordinateNames(names)
                ta.set_function(osim.LinearFunction(1.0, 0.0))
            else:
                ta.set_function(osim.Constant(0.0))
    return st


def export_osim(urdf, path, gravity=None, name=None, *, named=LIBRARY_COLUMNS):
    """Write the OpenSim model (.osim) equivalent to a URDF file (see to_opensim).

    Parameters
    ----------
    urdf : str, os.PathLike or urdf2dyn.Model
        A URDF path (or text), or a loaded model.
    path : str or os.PathLike
        The .osim file to write.
    gravity : (3,) array, optional
        Gravity in the URDF world frame, m/s² (default: the model's, which is (0, 0, -9.81)
        for a URDF path; the y-up HuMoD humans need (0, -9.81, 0), which ``urdf2dyn
        export-osim`` sets for them).
    name : str, optional
        The OpenSim model's name.
    named : ColumnOptions
        The caller's options, as to_opensim's refusals advise them.

    Returns
    -------
    opensim.Model
    """
    from ..model import Model, load
    model = urdf if isinstance(urdf, Model) else load(urdf)
    om = to_opensim(model, name=name, gravity=gravity, named=named)
    from .._safe_files import replacing
    with replacing(path) as tmp:
        om.printToXML(tmp)
    return om
