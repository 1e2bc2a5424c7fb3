"""What OpenSim's scaling changes in a model, changed the same way (OpenSim 4.6's
``Model::scale`` and each component's ``extendScale``).

Every body has three scale factors ``s`` (x, y, z in its own frame; 1 where none is given).
:func:`scale_model` turns them into changes of the model's .osim
(:class:`~urdf2dyn.biomech.formats.osim.OsimEdit`):

* a body's centre of mass ``c * s``; its mass ``m * sx sy sz`` unless the mass distribution
  is preserved; its inertia ``I * s**2`` (times the mass ratio) when ``sx = sy = sz``, else
  OpenSim's cylinder: the smallest principal moment gives the radius, another the length,
  both scaled (the radius by the two factors across the axis) and the moments recomputed,
  products ``I_ij * s_i s_j``;
* then every mass and inertia ``* M / sum(m)`` for the subject's mass ``M``;
* a joint's offset frame: its translation times the factors of the body it is measured on
  (its parent frame's base body); OpenSim 3's ``location_in_parent`` with the parent body's,
  ``location`` with the child's;
* a CustomJoint's translation axes: the function times ``|axis| . s_parent`` (a
  ``MultiplierFunction``), except the identity ``LinearFunction(1, 0)``, whose axis is a
  coordinate of its own (the pelvis translations);
* markers and path points: their location times their body's factors; a moving point's
  functions times the factor of their axis (those moved by a coordinate);
* wrap objects: translation times the body's factors; a cylinder's radius times the mean of
  the factors across its axis (the lengths of its x and y axes scaled), its length by its z
  axis's; a sphere's radius by the mean factor; an ellipsoid's semi-axes by their own axes'; a
  torus's radii as a cylinder's;
* a coordinate coupler whose dependent coordinate is a translation: its scale factor times
  the parent body's x factor;
* display geometry: its scale factors times the body's.

:func:`scale_lengths` then multiplies each muscle's optimal fibre and tendon slack lengths
(a ligament's or path spring's resting length) by the ratio of its path's length in the
scaled model to the generic one, both at the default pose.
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..warn import Urdf2dynWarning
from .formats.osim import OsimEdit, document, path_lengths

if TYPE_CHECKING:
    from ..model import Model

__all__ = ["scaled_inertia", "scale_model", "scale_lengths", "default_pose"]

_EPS = np.finfo(float).eps
_SIGNIFICANT = _EPS ** 0.875        # SimTK's SignificantReal: isNumericallyEqual's tolerance


def _equal(a, b):
    return abs(a - b) <= max(1.0, abs(a), abs(b)) * _SIGNIFICANT


def scaled_inertia(I: NDArray[np.float64], mass: float, s: NDArray[np.float64],
                   scale_mass: bool) -> tuple[float, NDArray[np.float64]]:
    """A body's mass and inertia about its centre of mass (3, 3, body axes) scaled by s as
    OpenSim's ``Body::scaleInertialProperties`` does: (new mass, new inertia)."""
    I = np.array(I, dtype=float)
    s = np.asarray(s, dtype=float)
    ratio = abs(s[0] * s[1] * s[2])
    m = mass * ratio if scale_mass else mass
    if m <= _EPS:
        return m, np.zeros((3, 3))
    if _equal(s[0], s[1]) and _equal(s[1], s[2]):
        return m, I * (ratio if scale_mass else 1.0) * s[0] * s[0]
    d = np.diag(I)          # a cylinder along the axis of the smallest moment
    axis = (0 if d[0] <= d[2] else 2) if d[0] <= d[1] else (1 if d[1] <= d[2] else 2)
    term = 2.0 * d[axis] / mass
    radius = np.sqrt(term) if term >= 0 else 0.0
    other = 1 if axis == 0 else 0
    term = 12.0 * (d[other] - 0.25 * mass * radius * radius) / mass
    length = (np.sqrt(term) if term >= 0 else 0.0) * s[axis]
    across = [k for k in range(3) if k != axis]
    r2 = radius * s[across[0]] * radius * s[across[1]]
    out = np.array(I)
    for k in range(3):
        out[k, k] = 0.5 * m * r2 if k == axis else m * (length * length / 12.0 + 0.25 * r2)
    for i in range(3):
        for j in range(3):
            if i != j:
                out[i, j] = I[i, j] * s[i] * s[j] * (ratio if scale_mass else 1.0)
    return m, out


def default_pose(model: Model) -> NDArray[np.float64]:
    """The model's default pose as OpenSim assembles it: the coordinates' default values,
    each coupled coordinate set from its independent one."""
    q = np.array(model.default_q if model.default_q is not None else np.zeros(model.nq))
    if model.couplers:
        q = np.asarray(model.apply_couplers(q)[0])
    return q


def _rotation(a):
    """Body-fixed X-Y-Z angles: R = Rx Ry Rz (columns: the frame's axes)."""
    cx, sx, cy, sy, cz, sz = np.cos(a[0]), np.sin(a[0]), np.cos(a[1]), np.sin(a[1]), \
        np.cos(a[2]), np.sin(a[2])
    return np.array([[cy * cz, -cy * sz, sy],
                     [cx * sz + sx * sy * cz, cx * cz - sx * sy * sz, -sx * cy],
                     [sx * sz - cx * sy * cz, sx * cz + cx * sy * sz, cx * cy]])


def _refuse_station_defined_frames(model: Model) -> None:
    """OpenSim scales a StationDefinedFrame's stations with their body and builds the frame
    again from them (Station::extendScale); the edit scales no Station, so a joint or marker
    on such a frame would keep its unscaled place."""
    if "<StationDefinedFrame" in (model._xml or ""):
        raise ValueError("scale: the model has a StationDefinedFrame, which urdf2dyn cannot "
                         "scale as OpenSim does (it scales the frame's stations and rebuilds "
                         "the frame); scale the model in OpenSim, or replace the frame by a "
                         "PhysicalOffsetFrame with the placement OpenSim gives it")


def scale_model(model: Model, factors: dict[str, NDArray[np.float64]],
                mass: float | None = None, preserve_mass_distribution: bool = False,
                marker_set: list[tuple[str, str, tuple, bool]] | None = None
                ) -> tuple[OsimEdit, dict]:
    """The changes that scale an OpenSim model by per-body factors {body: (3,)} (bodies not
    named keep 1, 1, 1), and the subject's mass (None: the masses scale with the bodies
    only). marker_set: markers (name, body, location in its frame, fixed) that replace the
    model's of the same name and are added after the others (OpenSim's marker set file),
    scaled with their body. Returns the OsimEdit and {"mass": (before, after)}."""
    _refuse_station_defined_frames(model)
    doc = document(model)
    edit = OsimEdit(model)
    ones = np.ones(3)

    def s_of(link):
        return np.asarray(factors.get(link, ones), dtype=float)

    # bodies: centre of mass, mass and inertia, then the subject's mass
    links = {row[0]: row for row in model._c.document()[0]}
    new = {}
    for body in doc.bodies:
        row = links[body]
        if body == "ground" or row[2] is None:
            continue
        s = s_of(body)
        m, I = scaled_inertia(np.array(row[4]).reshape(3, 3), row[2], s,
                              not preserve_mass_distribution)
        new[body] = [m, np.asarray(row[3]) * s, I]
    before = sum(links[b][2] for b in new)
    total = sum(v[0] for v in new.values())
    if mass is not None and mass > 0 and total > 0:
        for v in new.values():
            v[0] *= mass / total
            v[2] = v[2] * (mass / total)
    for body, (m, com, I) in new.items():
        edit.body(body, mass=m, com=com, inertia=I)

    for f in doc.frames:
        edit.frame(f.joint, f.name, translation=np.asarray(f.translation) * s_of(f.link))

    # custom joints' translation functions, with the parent body's factors
    parent = {j.name: j.parent for j in model.joints}
    custom = {}
    joints_c, funcs, data = model._c.custom_functions()
    body_of = {j.name: model._link_body[j.child] for j in model.joints}
    for b, coords, fn, axes in joints_c:
        custom[b] = (fn, np.array(axes).reshape(6, 3))
    for joint, written in doc.axes:
        if joint not in body_of or body_of[joint] not in custom:
            continue
        fn, axes = custom[body_of[joint]]
        s = s_of(parent[joint])           # the parent frame's base body (the reader's parent)
        for k in range(3, 6):
            if not written[k]:
                continue
            kind, n, at = funcs[fn[k]][:3]
            if kind == 1 and data[at] == 1.0 and data[at + 1] == 0.0:   # LinearFunction(1, 0)
                continue
            edit.scale_axis(joint, k, float(np.abs(axes[k]) @ s))

    # ellipsoid joints as their extendScale does (opensim-core EllipsoidJoint.cpp,
    # ScapulothoracicJoint.cpp): the radii by the parent body's factors; the winging origin's
    # x, y by the child body's, and only when the parent body is scaled too
    for e in doc.ellipsoids:
        if e.parent not in factors:
            continue
        origin = None
        if e.winging_origin is not None and e.child in factors:
            origin = np.asarray(e.winging_origin) * s_of(e.child)[:2]
        edit.ellipsoid(e.joint, np.asarray(e.radii) * s_of(e.parent), origin)
    # constant-curvature joints' lengths by the child body's y factor (opensim-core
    # ConstantCurvatureJoint.cpp, extendScale), only when that body is scaled
    for arc in doc.curvatures:
        if arc.child in factors:
            edit.curvature(arc.joint, arc.length * s_of(arc.child)[1])

    replaced = {m[0] for m in marker_set or []}
    for mk in doc.markers:
        if mk.name in replaced:
            edit.remove_marker(mk.name)
        else:
            edit.marker(mk.name, mk.location * s_of(mk.link), in_frame=True)
    for name, body, location, fixed in marker_set or []:
        edit.add_marker(name, body, np.asarray(location, dtype=float) * s_of(body), fixed)
    for path in doc.paths:
        for p in path.points:
            s = s_of(p.link)
            if p.kind == "moving":
                moving = [s[k] if p.coordinates[k] else 1.0 for k in range(3)]
                if moving != [1.0, 1.0, 1.0]:
                    edit.scale_moving_point(path.name, p.name, moving)
            else:
                edit.path_point(path.name, p.name, p.to_link(p.location * s))
    for k, w in enumerate(doc.wraps):
        s = s_of(w.link)
        axes = _rotation(w.rotation).T * s        # each row: a wrap axis, scaled
        lengths = np.linalg.norm(axes, axis=1)
        size = np.array(w.size)
        if w.type in ("cylinder", "torus"):
            across = 0.5 * (lengths[0] + lengths[1])
            size = (np.array([size[0] * across, size[1] * lengths[2], 0.0]) if w.type ==
                    "cylinder" else np.array([size[0] * across, size[1] * across, 0.0]))
        elif w.type == "sphere":
            size = np.array([size[0] * s.sum() / 3.0, 0.0, 0.0])
        elif w.type == "ellipsoid":
            size = size * lengths
        edit.wrap(k, translation=np.asarray(w.translation) * s,
                  size=size if w.type != "other" else None)
    for k, c in enumerate(model.couplers):
        coord = model.coordinates.get(c.dependent)
        if coord is not None and coord.motion == "translational":
            joint = coord.joint
            edit.coupler_scale(k, c.scale * s_of(parent[joint])[0])
    for k, (link, scale) in enumerate(doc.geometry):
        if np.any(s_of(link) != 1.0):
            edit.geometry_scale(k, np.asarray(scale) * s_of(link))
    return edit, {"mass": (before, sum(v[0] for v in new.values()))}


def scale_lengths(generic: Model, scaled: Model, edit: OsimEdit) -> dict[str, float]:
    """Each muscle's (ligament's, path spring's) lengths times its path's length ratio,
    scaled over generic, both at their default pose, added to edit (of the scaled model).
    Returns {path: ratio} for the paths changed."""
    doc = document(generic)
    before = path_lengths(generic, default_pose(generic))
    with warnings.catch_warnings():     # the same paths over the same wraps: said just above
        warnings.filterwarnings("ignore", message=r".* measured without the wrap objects",
                                category=Urdf2dynWarning)
        after = path_lengths(scaled, default_pose(scaled))
    ratios = {}
    for k, path in enumerate(doc.paths):
        if path.lengths == "none" or not before[k] > 0:
            continue
        r = after[k] / before[k]
        ratios[path.name] = r
        if path.lengths == "muscle":
            edit.muscle(path.name, path.length[0] * r, path.length[1] * r)
        else:
            edit.muscle(path.name, path.length[0] * r)
    return ratios
