"""OpenSim interoperability: external-loads setup files in, OpenSim models out.

``read_external_loads(path)`` reads an OpenSim ExternalLoads setup file, the XML an OpenSim
user writes for the InverseDynamicsTool, and ``ExternalLoads.wrenches(model, time, q)`` turns
it into urdf2dyn's ``f_ext``::

    loads = urdf2dyn.opensim.read_external_loads("subject01_walk1_grf.xml")
    f_ext = loads.wrenches(model, t, q, links={"calcn_r": "foot_R", "calcn_l": "foot_L"})
    tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)

``to_opensim(model)`` builds the equivalent ``opensim.Model`` (same bodies, masses, inertias,
joint frames, axes and coordinate names) and ``export_osim(urdf, path)`` writes it as a .osim
file (``urdf2dyn export-osim`` on the command line). Only ``to_opensim`` and ``export_osim``
need the ``opensim`` package (``pip install opensim``); reading external loads does not.

The semantics follow OpenSim's ExternalForce (opensim-core,
OpenSim/Simulation/Model/ExternalForce.h and .cpp, read for reference): an identifier names the
three data columns whose labels begin with it, in file order (x, y, z); the force and the
torque are expressed in ``force_expressed_in_body``, the point in ``point_expressed_in_body``
(both ``ground`` by default); without a point identifier the force acts at the origin of
``applied_to_body``; the torque is a free moment.
"""
import math
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np

from .forces import wrench_at_point
from .warn import report

__all__ = ["ExternalForce", "ExternalLoads", "ExternalLoadsError", "read_external_loads",
           "to_opensim", "export_osim"]

GROUND = "ground"
#: Force plates report no centre of pressure below a threshold (typically 10-20 N); a larger
#: force without a point is worth a warning.
NO_POINT_FORCE = 20.0
# Characters OpenSim refuses in component names (Component::finalizeFromProperties).
_FORBIDDEN = "\\/*+ \t\n"
# OpenSim treats an identifier that is blank or "Unassigned" as absent (ExternalForce.h).
_UNSET = ("", "unassigned")


class ExternalLoadsError(ValueError):
    """An ExternalLoads setup file, or its data, that cannot be applied as written."""


# ============================================================================ external loads

@dataclass
class ExternalForce:
    """One <ExternalForce> of an ExternalLoads file (OpenSim's property names).

    force_identifier, point_identifier, torque_identifier: column-label prefixes, or None when
    the file leaves them out (blank or ``Unassigned``)."""
    name: str
    applied_to_body: str
    force_expressed_in_body: str = GROUND
    point_expressed_in_body: str = GROUND
    force_identifier: str | None = None
    point_identifier: str | None = None
    torque_identifier: str | None = None
    data_source_name: str | None = None


@dataclass
class ExternalLoads:
    """An OpenSim ExternalLoads setup: the forces and the data file they read.

    path: the XML file; datafile: the data file, resolved relative to the XML's folder;
    forces: the enabled ExternalForce entries; time (M,) and columns {label: (M,)}: the data,
    read with urdf2dyn.io.read (so in SI units: N, m, N·m); kinematics_file: OpenSim's
    optional ``external_loads_model_kinematics_file`` (not used, see wrenches)."""
    path: str
    datafile: str
    forces: list
    time: np.ndarray
    columns: dict
    kinematics_file: str | None = None
    labels: list = field(default_factory=list)

    def _block(self, force, kind):
        """The (M, 3) data of force's identifier of the given kind ('force', 'point', 'torque')."""
        ident = getattr(force, f"{kind}_identifier")
        cols = [c for c in self.labels if c.startswith(ident)]
        if len(cols) != 3:
            found = f"columns {cols}" if cols else "no column"
            raise ExternalLoadsError(
                f"{self.path}: ExternalForce '{force.name}': <{kind}_identifier> '{ident}' "
                f"matches {found} of {self.datafile} (it must begin exactly 3 labels, x y z, "
                f"as OpenSim requires); fix the identifier or the column labels")
        return np.column_stack([self.columns[c] for c in cols])

    def _sample(self, force, kind, time):
        """force's (M, 3) data of the given kind, linearly interpolated at time (N,)."""
        x = self._block(force, kind)
        return np.column_stack([np.interp(time, self.time, x[:, c]) for c in range(3)])

    def _link(self, force, role, model, links):
        """The URDF link named by force's property role (None for the ground)."""
        body = getattr(force, role)
        if body == GROUND and body not in links:
            return None
        link = links.get(body, body)
        if link not in model.link_names:
            raise ExternalLoadsError(
                f"{self.path}: ExternalForce '{force.name}': <{role}> '{body}' is not a link "
                f"of the model '{model.name}'; pass links={{'{body}': '<URDF link>'}} to name "
                "the link it is")
        return link

    def wrenches(self, model, time, q, links=None, strict=False):
        """External wrenches {link: (N, 6)} for ``model.inverse_dynamics(..., f_ext=...)``.

        Each ExternalForce's data is linearly interpolated at the motion's times (exact at
        the data file's own sample times; OpenSim fits a cubic spline through the same
        samples, so the two agree wherever the motion and the loads share their sampling).
        Forces, torques and points expressed in a body are turned into the world frame with
        the model's forward kinematics of that body at q; a force without a point acts at the
        origin of its body. The result is urdf2dyn's convention: [fx fy fz mx my mz] in world
        coordinates, the moment about the world origin (``wrench_at_point``); forces applied
        to the same link add up.

        Samples where the force or the point is not a number give no load (a force plate
        reports no centre of pressure without contact); a warning (an error when strict)
        names the force and the samples where the force itself is missing, or where a force
        above NO_POINT_FORCE (20 N) has no point. A missing torque counts as zero.

        OpenSim's optional ``external_loads_model_kinematics_file`` is not used: a point
        expressed in ground is applied where the data puts it, at each sample (OpenSim
        re-expresses it in the body using those kinematics, which gives the same point at
        the samples when the kinematics agree with q).

        Parameters
        ----------
        model : urdf2dyn.Model
        time : (N,) array
            The motion's times, s.
        q : (N, model.nq) array
            The motion's coordinates in model order (rad, m).
        links : dict, optional
            OpenSim body name -> URDF link name, for bodies whose names differ (default:
            the same name). ``ground`` is the world frame.
        strict : bool
            Raise instead of warning.

        Returns
        -------
        dict
            {link name: (N, 6) array}.
        """
        links = dict(links or {})
        time = np.asarray(time, dtype=float).reshape(-1)
        q = np.asarray(q, dtype=float)
        if q.ndim != 2 or q.shape != (len(time), model.nq):
            raise ValueError(f"q: expected shape ({len(time)}, {model.nq}) (len(time), "
                             f"model.nq), got {q.shape}")
        lo, hi = self.time[0], self.time[-1]
        step = (hi - lo) / max(len(self.time) - 1, 1)
        outside = (time < lo - 0.5 * step) | (time > hi + 0.5 * step)
        if np.any(outside):
            report(f"{self.datafile}: the loads cover {lo:g}..{hi:g} s but the motion runs "
                   f"{time[0]:g}..{time[-1]:g} s; {int(outside.sum())} motion samples outside "
                   "get the nearest load sample", strict=strict, error=ExternalLoadsError)

        frames = _Frames(model, q)
        out = {}
        for ef in self.forces:
            target = self._link(ef, "applied_to_body", model, links)
            if target is None:
                raise ExternalLoadsError(
                    f"{self.path}: ExternalForce '{ef.name}' is applied to ground, where it "
                    "does nothing; name the body it acts on in <applied_to_body>")
            f_link = self._link(ef, "force_expressed_in_body", model, links)
            f = np.zeros((len(time), 3))
            if ef.force_identifier:
                f = frames.to_world(self._sample(ef, "force", time), f_link)
            moment = None
            if ef.torque_identifier:
                moment = frames.to_world(self._sample(ef, "torque", time), f_link)
                moment = np.where(np.isfinite(moment), moment, 0.0)
            if ef.point_identifier:
                point = frames.to_world(self._sample(ef, "point", time),
                                        self._link(ef, "point_expressed_in_body", model, links),
                                        point=True)
            else:
                point = frames.pose(target)[0]
            missing = ~np.all(np.isfinite(f), axis=1)
            ok = ~missing & np.all(np.isfinite(point), axis=1)
            lost = ~ok & ~missing & (np.linalg.norm(np.where(ok[:, None], 0.0, f), axis=1)
                                     > NO_POINT_FORCE)
            for rows, what in ((missing, f"no force '{ef.force_identifier}'"),
                               (lost, f"a force above {NO_POINT_FORCE:g} N but no point "
                                      f"'{ef.point_identifier}'")):
                if np.any(rows):
                    k = np.flatnonzero(rows)
                    report(f"{self.datafile}: ExternalForce '{ef.name}': {len(k)} of "
                           f"{len(time)} motion samples (t = {time[k[0]]:g} s ...) have {what}; "
                           "they get no load from it", strict=strict, error=ExternalLoadsError)
            w = np.zeros((len(time), 6))
            w[ok] = wrench_at_point(f[ok], point[ok], None if moment is None else moment[ok])
            out[target] = out[target] + w if target in out else w
        return out


class _Frames:
    """World poses of a model's links at q (N, nq), from one forward-kinematics call made
    on first use."""

    def __init__(self, model, q):
        self.model, self.q, self.fk = model, q, None

    def pose(self, link):
        """Position (N, 3) and rotation (N, 3, 3) of link in the world."""
        if self.fk is None:
            self.fk = self.model.forward_kinematics(self.q)
        k = self.model.link_names.index(link)
        return self.fk[0][:, k], self.fk[1][:, k]

    def to_world(self, x, link, point=False):
        """Vectors (or points) x (N, 3) given in link's frame (None: the world), in the world."""
        if link is None:
            return x
        p, R = self.pose(link)
        y = np.einsum("nij,nj->ni", R, x)
        return y + p if point else y


def _text(elem, tag):
    """The stripped text of elem's child tag, or None when absent or unset."""
    child = elem.find(tag)
    if child is None or child.text is None:
        return None
    text = child.text.strip()
    return None if text.lower() in _UNSET else text


def _disabled(elem):
    """OpenSim 3 writes <isDisabled>true</isDisabled>, OpenSim 4 <appliesForce>false</...>."""
    off = (_text(elem, "isDisabled") or "false").lower() == "true"
    on = (_text(elem, "appliesForce") or "true").lower() == "true"
    return off or not on


def read_external_loads(path):
    """Read an OpenSim ExternalLoads setup file (the ``--external-loads`` XML).

    The layout OpenSim writes and its users edit::

        <OpenSimDocument Version="...">
          <ExternalLoads name="...">
            <objects>
              <ExternalForce name="right">
                <applied_to_body>calcn_r</applied_to_body>
                <force_expressed_in_body>ground</force_expressed_in_body>
                <point_expressed_in_body>ground</point_expressed_in_body>
                <force_identifier>ground_force_v</force_identifier>
                <point_identifier>ground_force_p</point_identifier>
                <torque_identifier>ground_torque_</torque_identifier>
              </ExternalForce> ...
            </objects>
            <datafile>subject01_walk1_grf.mot</datafile>
          </ExternalLoads>
        </OpenSimDocument>

    The data file is resolved relative to the XML's folder (as OpenSim's tools do) and read
    with urdf2dyn.io.read_columns; like OpenSim, no column of it is converted from degrees,
    whatever its header says. Disabled forces (``<isDisabled>``
    true or ``<appliesForce>`` false) are skipped.

    Parameters
    ----------
    path : str or os.PathLike
        The ExternalLoads XML file.

    Returns
    -------
    ExternalLoads

    Raises
    ------
    ExternalLoadsError
        Naming the file and element: not an ExternalLoads document, no <datafile>, an
        ExternalForce without <applied_to_body> or with neither a force nor a torque
        identifier, a point without a force, an identifier that does not match exactly
        three data columns.
    """
    from . import io
    path = os.fspath(path)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise ExternalLoadsError(f"{path}: not well-formed XML ({e})") from None
    loads = root if root.tag == "ExternalLoads" else root.find("ExternalLoads")
    if loads is None:
        raise ExternalLoadsError(f"{path}: no <ExternalLoads> element (root is <{root.tag}>); "
                                 "is this an OpenSim ExternalLoads setup file?")
    datafile = _text(loads, "datafile")
    if datafile is None:
        raise ExternalLoadsError(f"{path}: <ExternalLoads> has no <datafile>; name the .mot/"
                                 ".sto file holding the force columns (relative to this file)")
    datafile = os.path.join(os.path.dirname(os.path.abspath(path)), datafile)
    if not os.path.exists(datafile):
        raise ExternalLoadsError(f"{path}: <datafile> {datafile} does not exist (it is read "
                                 "relative to the folder of the XML file)")
    forces = []
    for k, elem in enumerate(loads.iter("ExternalForce")):
        name = elem.get("name") or f"#{k + 1}"
        if _disabled(elem):
            continue
        body = _text(elem, "applied_to_body")
        if body is None:
            raise ExternalLoadsError(f"{path}: ExternalForce '{name}' has no <applied_to_body>")
        ef = ExternalForce(
            name=name, applied_to_body=body,
            force_expressed_in_body=_text(elem, "force_expressed_in_body") or GROUND,
            point_expressed_in_body=_text(elem, "point_expressed_in_body") or GROUND,
            force_identifier=_text(elem, "force_identifier"),
            point_identifier=_text(elem, "point_identifier"),
            torque_identifier=_text(elem, "torque_identifier"),
            data_source_name=_text(elem, "data_source_name"))
        if ef.force_identifier is None and ef.torque_identifier is None:
            raise ExternalLoadsError(f"{path}: ExternalForce '{name}' has neither a "
                                     "<force_identifier> nor a <torque_identifier>")
        if ef.point_identifier is not None and ef.force_identifier is None:
            raise ExternalLoadsError(f"{path}: ExternalForce '{name}' has a <point_identifier> "
                                     "but no <force_identifier> (a point needs a force)")
        forces.append(ef)
    if not forces:
        raise ExternalLoadsError(f"{path}: no enabled <ExternalForce> under <objects>")
    # OpenSim addresses load columns by label and never converts them (inDegrees concerns
    # coordinates): read the table as written.
    header, data = io.read_columns(datafile)
    lower = [x.lower() for x in header]
    if "time" not in lower:
        raise ExternalLoadsError(f"{datafile}: no 'time' column (the data file of {path})")
    k_time = lower.index("time")
    time = data[:, k_time]
    labels = [x for k, x in enumerate(header) if k != k_time]
    columns = {x: data[:, k] for k, x in enumerate(header) if k != k_time}
    out = ExternalLoads(path=path, datafile=datafile, forces=forces,
                        time=np.asarray(time, dtype=float), columns=columns,
                        kinematics_file=_text(loads, "external_loads_model_kinematics_file"),
                        labels=labels)
    for ef in forces:                       # refuse now, not at the first use
        for kind in ("force", "point", "torque"):
            if getattr(ef, f"{kind}_identifier"):
                out._block(ef, kind)
    return out


# ============================================================================ OpenSim models

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


def to_opensim(model, name=None, gravity=None):
    """The OpenSim model equivalent to a urdf2dyn model (needs the ``opensim`` package).

    Every URDF link becomes a Body of the same name (mass, centre of mass and inertia about
    it in the link frame), every joint a Joint of the same name whose parent frame is the
    URDF joint origin: revolute, continuous and prismatic joints become one-coordinate
    CustomJoints rotating about / sliding along the URDF axis (the coordinate is named after
    the joint, so OpenSim's coordinates are urdf2dyn's q_names), fixed joints WeldJoints. The
    root link is welded to OpenSim's ground, or is the ground when it is called ``ground`` (as
    in the bundled human, whose 6-DoF root is 3 prismatic + 3 revolute joints). Joint limits
    become coordinate ranges (unclamped). Gravity is model.gravity.

    Parameters
    ----------
    model : urdf2dyn.Model
        Loaded without floating_base; floating and planar joints have no one-to-one OpenSim
        coordinates and are refused.
    name : str, optional
        The OpenSim model's name (default: the robot's).
    gravity : (3,) array, optional
        Gravity in ground, m/s² (default: model.gravity).

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
    if model.floating_base or any(j.type in ("floating", "planar") for j in model.joints):
        bad = [j.name for j in model.joints if j.type in ("floating", "planar")] or \
            ["root_joint (floating_base=True)"]
        raise ValueError(f"to_opensim: joints {bad} are floating or planar, which have no "
                         "one-coordinate-per-DoF OpenSim equivalent; model the root as 3 "
                         "prismatic + 3 revolute joints (urdf2dyn human --root prismatic)")
    doc = ET.fromstring(model._xml)
    if doc.tag != "robot":
        doc = doc.find("robot")
    links = {link.get("name"): link for link in doc.findall("link")}
    joints = doc.findall("joint")
    for kind, elems in (("link", links.values()), ("joint", joints)):
        for e in elems:
            bad = sorted(set(e.get("name")) & set(_FORBIDDEN))
            if bad:
                raise ValueError(f"to_opensim: {kind} '{e.get('name')}' has characters OpenSim "
                                 f"does not allow in names ({' '.join(map(repr, bad))}); "
                                 "rename it in the URDF")
    children = {j.find("child").get("link") for j in joints}
    root = next(n for n in links if n not in children)

    om = osim.Model()
    om.setName(name or model.name)
    om.setGravity(osim.Vec3(*map(float, model.gravity if gravity is None else gravity)))
    frames = {}
    if root == GROUND:
        frames[root] = om.getGround()
    for lname, link in links.items():
        if lname in frames:
            continue
        mass, com, I = _inertial(link)
        body = osim.Body(lname, mass, osim.Vec3(*com),
                         osim.Inertia(I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]))
        om.addBody(body)
        frames[lname] = body
    if root != GROUND:
        om.addJoint(osim.WeldJoint(f"{root}_to_ground", om.getGround(), osim.Vec3(0),
                                   osim.Vec3(0), frames[root], osim.Vec3(0), osim.Vec3(0)))
    limits = {j.name: j.limit for j in model.joints}
    for j in _in_tree_order(joints, root):
        jname, jtype = j.get("name"), j.get("type")
        parent, child = frames[j.find("parent").get("link")], frames[j.find("child").get("link")]
        xyz, R = _origin(j, f"joint '{jname}'")
        args = (jname, parent, osim.Vec3(*xyz), osim.Vec3(*_body_xyz(R)), child,
                osim.Vec3(0), osim.Vec3(0))
        if jtype == "fixed":
            om.addJoint(osim.WeldJoint(*args))
            continue
        a = j.find("axis")
        axis = _floats(a.get("xyz") if a is not None else "1 0 0", 3, f"joint '{jname}' <axis>")
        axis /= np.linalg.norm(axis)
        om.addJoint(osim.CustomJoint(*args, _one_axis(osim, jname, axis,
                                                      rotation=jtype != "prismatic")))
        if limits.get(jname) is not None and jtype != "continuous":
            coord = om.updCoordinateSet().get(jname)
            coord.setRangeMin(limits[jname][0])
            coord.setRangeMax(limits[jname][1])
            coord.setDefaultClamped(False)
    om.finalizeConnections()
    om.initSystem()
    return om


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


def export_osim(urdf, path, gravity=None, name=None):
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

    Returns
    -------
    opensim.Model
    """
    from .model import Model, load
    model = urdf if isinstance(urdf, Model) else load(urdf)
    om = to_opensim(model, name=name, gravity=gravity)
    om.printToXML(os.fspath(path))
    return om
