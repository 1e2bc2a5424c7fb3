"""The .osim file of an OpenSim model: what it holds beyond the rigid-body tree, the lengths
of its muscles' paths, and changes written back into it.

:func:`document` gives what the C core's .osim parser read besides the tree (the joints'
offset frames, where each marker is written and whether it is fixed, the forces' geometry
paths with their points and wrap objects, the muscles' lengths, display geometry), as
:class:`Document`. :class:`OsimEdit` writes changed values into the model's .osim::

    >>> model = urdf2dyn.load("subject01.osim")
    >>> edit = OsimEdit(model)
    >>> edit.body("pelvis", mass=11.2, com=(-0.07, 0.0, 0.0))
    >>> edit.marker("RASI", (0.01, 0.0, 0.13))
    >>> edit.write("subject01_adjusted.osim")

The writer (``csrc/parse/u2d_osim_write.c``) loads the very text the model was read from
with Mini-XML, sets each changed value on the element the parser read it from, and saves the
document: everything urdf2dyn does not model (muscle parameters, controllers, display,
comments) stays as written, and OpenSim loads the result as it loads the original. Lengths
are in metres, angles in radians, masses in kg, and a location is given in the frame of the
link it rides on (as :attr:`urdf2dyn.Model.markers` gives it); the writer converts it into
the frame the file writes it in.
"""
from __future__ import annotations

import math
import os
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..._input_bytes import read_input

if TYPE_CHECKING:
    from ...model import Model

__all__ = ["Document", "Frame", "MarkerPlace", "Path", "PathPoint", "Wrap", "PathWrap",
           "EllipsoidShape", "CurvatureArc", "document", "path_lengths", "read_marker_set", "OsimEdit"]

# u2d_edit_kind (csrc/model/u2d_osimdoc.h)
(_BODY_MASS, _BODY_COM, _BODY_INERTIA, _FRAME_TRANSLATION, _FRAME_ORIENTATION, _MARKER,
 _MARKER_REMOVE, _MARKER_ADD, _POINT, _POINT_SCALE, _LENGTHS, _WRAP_TRANSLATION, _WRAP_SIZE,
 _AXIS_SCALE, _COUPLER_SCALE, _GEOMETRY_SCALE, _ELLIPSOID, _CURVATURE) = range(18)


class _Placed:
    """Something written in a frame fixed on a link: ``E`` (3, 3) and ``r`` (3,) take a point
    from the link frame into that frame (p_frame = E (p_link - r))."""

    def to_link(self, p: ArrayLike) -> NDArray[np.float64]:
        """A point of the written frame in the link frame."""
        E, r = self.E, self.r                   # type: ignore[attr-defined]
        return E.T @ np.asarray(p, dtype=float) + r

    def to_frame(self, p: ArrayLike) -> NDArray[np.float64]:
        """A point of the link frame in the written frame."""
        E, r = self.E, self.r                   # type: ignore[attr-defined]
        return E @ (np.asarray(p, dtype=float) - r)


@dataclass
class Frame:
    """A frame a joint is attached by: ``kind`` "offset" (an OpenSim 4
    PhysicalOffsetFrame named ``name``), "in_parent" or "in_child" (an OpenSim 3 joint's
    location in its parent or child body, named "parent" / "child"). ``link`` is the body
    its translation is measured on (scaling multiplies it by that body's factors). A
    PhysicalOffsetFrame of a ``<components>`` list that a joint, marker or path names has
    ``joint`` "" (OsimEdit.frame("", name))."""
    name: str
    joint: str
    kind: str
    link: str
    translation: tuple[float, float, float]
    orientation: tuple[float, float, float]


@dataclass
class MarkerPlace(_Placed):
    """Where a model marker is written: ``location`` in its frame (``E``, ``r`` from the
    link frame), and ``fixed`` (marker placement leaves it where it is)."""
    name: str
    link: str
    E: NDArray[np.float64]
    r: NDArray[np.float64]
    location: NDArray[np.float64]
    fixed: bool


@dataclass
class PathPoint(_Placed):
    """A point of a geometry path on ``link``, written in a frame (``E``, ``r``). ``kind``:
    "fixed"; "conditional" (on the path only while ``coordinate`` is within ``range``);
    "moving" (its x, y, z are ``functions`` of ``coordinates`` (indices into the model's
    OpenSim functions, -1 none), clamped to the coordinate's range; an axis without a
    coordinate is its function at 0)."""
    name: str
    kind: str
    link: str
    E: NDArray[np.float64]
    r: NDArray[np.float64]
    location: NDArray[np.float64]
    coordinate: str | None
    range: tuple[float, float]
    coordinates: tuple[str | None, str | None, str | None]
    functions: tuple[int, int, int]


@dataclass
class PathWrap:
    """A wrap object a path may wrap over (index into :attr:`Document.wraps`), between points
    ``range`` (1-based, -1: the path's ends), with OpenSim's ``method``."""
    wrap: int
    range: tuple[int, int]
    method: str


@dataclass
class Path:
    """A force with a geometry path: ``lengths`` says which of its lengths scale with the
    path ("muscle": optimal fibre and tendon slack lengths, "resting", "slack", "none"),
    ``length`` their values (m)."""
    name: str
    type: str
    lengths: str
    length: tuple[float, float]
    points: list[PathPoint]
    wraps: list[PathWrap]


@dataclass
class Wrap:
    """A wrap object on ``link``: ``type`` cylinder (size: radius, length), sphere (radius),
    ellipsoid (three semi-axes), torus (inner, outer radius) or other; ``translation`` and
    ``rotation`` (body-fixed X-Y-Z) in the body frame; ``quadrant`` 0 (all) or +-1, +-2, +-3
    (the +-x, +-y, +-z side only)."""
    name: str
    type: str
    link: str
    translation: tuple[float, float, float]
    rotation: tuple[float, float, float]
    size: tuple[float, float, float]
    quadrant: int
    active: bool


@dataclass
class EllipsoidShape:
    """An EllipsoidJoint's or ScapulothoracicJoint's ellipsoid: ``radii`` (m) along the
    parent frame's x, y, z as written, and a ScapulothoracicJoint's winging axis origin (m,
    x, y in the joint's intermediate frame; None for an EllipsoidJoint). ``parent`` and
    ``child`` are the bodies its frames ride on: OpenSim scales the radii with the parent's
    factors and the winging origin with the child's."""
    joint: str
    index: int
    parent: str
    child: str
    radii: tuple[float, float, float]
    winging_origin: tuple[float, float] | None


@dataclass
class CurvatureArc:
    """A ConstantCurvatureJoint's arc: its ``length`` (m) as written; OpenSim scales it with
    the y factor of ``child``, the body its child frame rides on. ``neutral``: its
    neutral_angle_x_z_y (rad), added to its coordinates before they are held within their
    bound."""
    joint: str
    index: int
    child: str
    length: float
    neutral: tuple[float, float, float]


@dataclass
class Document:
    """What :func:`document` returns: the tables of the C core's parser, in its order."""
    version: int
    bodies: list[str]
    frames: list[Frame]
    markers: list[MarkerPlace]
    paths: list[Path]
    wraps: list[Wrap]
    geometry: list[tuple[str, tuple[float, float, float]]]
    axes: list[tuple[str, tuple[bool, ...]]]
    couplers: int
    ellipsoids: list[EllipsoidShape]
    curvatures: list[CurvatureArc]


_documents: weakref.WeakKeyDictionary[Model, Document] = weakref.WeakKeyDictionary()


def _E(X):
    return np.array(X[0], dtype=float).reshape(3, 3)


def _r(X):
    return np.array(X[1], dtype=float)


def document(model: Model) -> Document:
    """What an OpenSim model's file holds besides the tree, as the core read it (read once
    per model). Raises ValueError for a model not read from an .osim."""
    cached = _documents.get(model)
    if cached is not None:
        return cached
    raw = model._c.osim_doc()
    if raw is None:
        raise ValueError(f"model {model.name!r} was not read from an OpenSim .osim file")
    markers = [MarkerPlace(name, link, _E(X), _r(X), np.array(loc, dtype=float), bool(fixed))
               for name, link, X, loc, fixed in raw["markers"]]
    points = [PathPoint(name, kind, link, _E(X), _r(X), np.array(loc, dtype=float), coord,
                        rng, coords, funcs)
              for name, kind, link, X, loc, coord, rng, coords, funcs in raw["points"]]
    wraps = [PathWrap(*w) for w in raw["pathwraps"]]
    paths = [Path(name, type_, lengths, length, points[p0:p0 + np_], wraps[w0:w0 + nw])
             for name, type_, lengths, length, p0, np_, w0, nw in raw["paths"]]
    doc = Document(raw["version"], [name for _, name in raw["bodies"]],
                   [Frame(*f) for f in raw["frames"]], markers, paths,
                   [Wrap(*w) for w in raw["wraps"]], list(raw["geometry"]), list(raw["axes"]),
                   raw["couplers"], [EllipsoidShape(*e) for e in raw["ellipsoids"]],
                   [CurvatureArc(*c) for c in raw["curvatures"]])
    _documents[model] = doc
    return doc


def path_lengths(model: Model, q: ArrayLike) -> NDArray[np.float64]:
    """The length of every geometry path of :attr:`Document.paths` (muscle-tendon lengths,
    m) at q ((nq,) -> (npath,), (N, nq) -> (N, npath)), as OpenSim computes them: conditional
    points while their coordinate is in range, moving points, wrap cylinders (with OpenSim's
    iteration over several wrap objects on one path). A path over an active wrap sphere,
    ellipsoid or torus is measured without it, with one warning naming them all."""
    doc = document(model)
    lengths, flags = model._c.path_lengths(np.asarray(q, dtype=float))
    _report_unwrapped([p for p, f in zip(doc.paths, flags) if f], doc.wraps)
    return lengths


def _report_unwrapped(paths: list[Path], wraps: list[Wrap], shown: int = 6) -> None:
    """One warning for all the paths measured without some of their wrap objects (a knee
    model has dozens of ligaments over one sphere: one line each buried the rest)."""
    from ...warn import report
    if not paths:
        return
    named = []
    for path in paths[:shown]:
        skipped = [wraps[w.wrap].name for w in path.wraps if wraps[w.wrap].type != "cylinder"]
        named.append(f"{path.name!r} ({', '.join(repr(n) for n in skipped)})")
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    report(f"{len(paths)} path{'s' if len(paths) > 1 else ''} measured without the wrap "
           f"objects they touch: {', '.join(named)}{more} (urdf2dyn wraps over cylinders "
           "only). Their lengths, and what is computed from them (a scaled model's muscle "
           "lengths among others), differ from OpenSim's where the path touches these "
           "objects; compare those muscles with OpenSim's if they matter to you")


def read_marker_set(path: str | os.PathLike[str], strict: bool = False
                    ) -> list[tuple[str, str, tuple, bool]]:
    """An OpenSim marker set file (a ``<MarkerSet>`` of ``<Marker>`` s, OpenSim 3 or 4), read
    by the core's .osim reader: (name, frame, location (m, in that frame), fixed) per
    marker, the frame a <socket_parent_frame>'s absolute path as OpenSim 4.6 reads it from
    the marker (/markerset/<name>: the file's markers join the model's MarkerSet), an
    OpenSim 3 <body> as written. ValueError naming the file and marker of what cannot be read; what
    is read as written but questionable (a bare '&'...) is warned about as in a model file
    (URDFWarning, refused under strict)."""
    from ... import _core
    from ...model import _where, model_finding
    from .windows import decode_text
    where = os.fspath(path)
    text = decode_text(read_input(where, "marker set"), where)     # a pipe or device refused
    try:
        markers, findings = _core.read_markerset(text)
    except _core.URDFError as e:
        raise ValueError(f"{where}: {e}") from None
    for line, message in findings:
        model_finding(_where(where, line) + message, strict)
    return markers


def _vector(value, n, what):
    try:
        v = [float(x) for x in np.asarray(value, dtype=float).reshape(-1)]
    except (TypeError, ValueError):
        v = []
    if len(v) != n or not all(math.isfinite(x) for x in v):
        raise ValueError(f"{what}: expected {n} finite numbers, got {value!r}")
    return np.array(v)


def _index(names, name, what):
    try:
        return names.index(name)
    except ValueError:
        shown = ", ".join(map(str, names[:8])) + (", ..." if len(names) > 8 else "")
        raise ValueError(f"the model has no {what} {name!r} ({what}s: {shown})") from None


class OsimEdit:
    """Changes to an OpenSim model, written into the .osim it was read from.

    Each method records a change (checked at once: names the model lacks and values that are
    not finite raise ValueError); :meth:`text` and :meth:`write` make the document. A later
    change to the same value replaces an earlier one. Locations are in the link frame of the
    body they ride on, m; angles in radians.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.doc = doc = document(model)
        self._edits: dict[tuple, tuple] = {}      # (kind, target) -> edit; insertion order
        self._added: list[tuple] = []
        self._marker = {m.name: k for k, m in enumerate(doc.markers)}
        self._path = {p.name: k for k, p in enumerate(doc.paths)}
        self._points_all = [q for p in doc.paths for q in p.points]
        first = np.cumsum([0] + [len(p.points) for p in doc.paths])
        self._point_at = {(p.name, q.name): int(first[k]) + j for k, p in enumerate(doc.paths)
                          for j, q in enumerate(p.points)}
        self._frame_at: dict[tuple[str, str], int] = {}
        for k, f in enumerate(doc.frames):
            self._frame_at.setdefault((f.joint, f.name), k)
            self._frame_at.setdefault((f.joint, f.kind.replace("in_", "")), k)

    def _put(self, kind, target, values=(), name=None, flag=False):
        self._edits[(kind, target)] = (kind, target, tuple(float(x) for x in values), name,
                                       bool(flag))

    # ---- the tree ------------------------------------------------------------------
    def body(self, name: str, mass: float | None = None, com: ArrayLike | None = None,
             inertia: ArrayLike | None = None) -> None:
        """A body's mass (kg), centre of mass (3, m, body frame) and inertia about it
        ((6,) xx yy zz xy xz yz or (3, 3), kg m², body axes)."""
        link = self.model._link_index.get(name)
        if name not in self.doc.bodies or link is None:
            _index(self.doc.bodies, name, "body")
        if mass is not None:
            m = float(mass)
            if not (np.isfinite(m) and m >= 0):
                raise ValueError(f"body {name!r}: mass {mass!r} must be finite and >= 0")
            self._put(_BODY_MASS, link, (m,))
        if com is not None:
            self._put(_BODY_COM, link, _vector(com, 3, f"body {name!r}: com"))
        if inertia is not None:
            I = np.asarray(inertia, dtype=float)
            if I.shape == (3, 3):
                I = np.array([I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]])
            self._put(_BODY_INERTIA, link, _vector(I, 6, f"body {name!r}: inertia"))

    def _frame(self, joint, frame):
        k = self._frame_at.get((joint, frame))
        if k is None:
            have = [f"{f.joint}/{f.name}" for f in self.doc.frames]
            return _index(have, f"{joint}/{frame}", "joint frame")
        return k

    def frame(self, joint: str, frame: str, translation: ArrayLike | None = None,
              orientation: ArrayLike | None = None) -> None:
        """A joint's frame: ``frame`` the PhysicalOffsetFrame's name (OpenSim 4) or "parent"
        / "child" (either layout); translation (m) in its parent frame, orientation
        (body-fixed X-Y-Z, rad)."""
        k = self._frame(joint, frame)
        what = f"joint {joint!r} frame {frame!r}"
        if translation is not None:
            self._put(_FRAME_TRANSLATION, k, _vector(translation, 3, what + ": translation"))
        if orientation is not None:
            self._put(_FRAME_ORIENTATION, k, _vector(orientation, 3, what + ": orientation"))

    # ---- markers -------------------------------------------------------------------
    def marker(self, name: str, location: ArrayLike, in_frame: bool = False) -> None:
        """Move a model marker (or one added by :meth:`add_marker`) to ``location`` (3, m, in
        its link's frame; in the frame the file writes it in with ``in_frame``)."""
        p = _vector(location, 3, f"marker {name!r}: location")
        added = [k for k, a in enumerate(self._added) if a[3] == name]
        if added:
            a = self._added[added[0]]
            self._added[added[0]] = (a[0], a[1], tuple(p), a[3], a[4])
            return
        k = self._marker.get(name)
        if k is None:
            k = _index([m.name for m in self.doc.markers], name, "marker")
        self._put(_MARKER, k, p if in_frame else self.doc.markers[k].to_frame(p))

    def remove_marker(self, name: str) -> None:
        """Remove a model marker (or one added by :meth:`add_marker`)."""
        added = [a for a in self._added if a[3] == name]
        if added:
            self._added.remove(added[0])
            return
        k = self._marker.get(name)
        if k is None:
            k = _index([m.name for m in self.doc.markers], name, "marker")
        self._edits.pop((_MARKER, k), None)
        self._put(_MARKER_REMOVE, k)

    def add_marker(self, name: str, body: str, location: ArrayLike, fixed: bool = False
                   ) -> None:
        """A new marker on a body (location (3, m) in its frame), written at the end of the
        MarkerSet in the document's layout."""
        if not name or name in [m[3] for m in self._added]:
            raise ValueError(f"add_marker: {name!r}: a new marker needs a name of its own")
        link = self.model._link_index.get(body)
        if body not in self.doc.bodies or link is None:
            _index(self.doc.bodies, body, "body")
        self._added.append((_MARKER_ADD, link, tuple(_vector(location, 3, f"marker {name!r}")),
                            name, bool(fixed)))

    # ---- paths ---------------------------------------------------------------------
    def _path_index(self, name):
        k = self._path.get(name)
        if k is None:
            return _index([p.name for p in self.doc.paths], name, "path (muscle or path force)")
        return k

    def _point(self, path, point):
        k = self._point_at.get((path, point))
        if k is None:
            names = [p.name for p in self.doc.paths[self._path_index(path)].points]
            return _index(names, point, f"point of {path!r}")
        return k

    def _points(self):
        return self._points_all

    def path_point(self, path: str, point: str, location: ArrayLike) -> None:
        """A path point's location (3, m, in its link's frame); for a moving point, the
        location of its axes that no coordinate moves."""
        k = self._point(path, point)
        p = _vector(location, 3, f"path {path!r} point {point!r}")
        self._put(_POINT, k, self._points()[k].to_frame(p))

    def muscle(self, path: str, optimal_fiber_length: float | None = None,
               tendon_slack_length: float | None = None) -> None:
        """A muscle's optimal fibre length and tendon slack length (m); a ligament's or path
        spring's resting (or slack) length is ``optimal_fiber_length``."""
        k = self._path_index(path)
        P = self.doc.paths[k]
        if P.lengths == "none":
            raise ValueError(f"path {path!r}: a {P.type} has no fibre, tendon or resting "
                             "length")
        old = self._edits.get((_LENGTHS, k), (0, 0, (np.nan, np.nan)))[2]
        new = [old[0] if optimal_fiber_length is None else float(optimal_fiber_length),
               old[1] if tendon_slack_length is None else float(tendon_slack_length)]
        if P.lengths != "muscle":
            new[1] = np.nan
        for x in new:
            if not np.isnan(x) and not (np.isfinite(x) and x > 0):
                raise ValueError(f"path {path!r}: lengths {new} must be finite and > 0")
        self._put(_LENGTHS, k, new)

    # ---- what scaling changes besides -------------------------------------------------
    def wrap(self, index: int, translation: ArrayLike | None = None,
             size: ArrayLike | None = None) -> None:
        """Wrap object ``index`` (of :attr:`Document.wraps`): translation (3, m, body frame)
        and size (as :class:`Wrap`)."""
        if not 0 <= index < len(self.doc.wraps):
            raise ValueError(f"wrap: no wrap object {index}")
        if translation is not None:
            self._put(_WRAP_TRANSLATION, index, _vector(translation, 3, "wrap translation"))
        if size is not None:
            self._put(_WRAP_SIZE, index, _vector(size, 3, "wrap size"))

    def scale_axis(self, joint: str, axis: int, factor: float) -> None:
        """Multiply transform axis ``axis`` (0-5: rotation1..3, translation1..3) of custom
        joint ``joint`` by ``factor``: its MultiplierFunction's scale, or the function
        wrapped in one (OpenSim's scaling of translations)."""
        names = [j for j, _ in self.doc.axes]
        c = _index(names, joint, "custom joint")
        if not (0 <= axis < 6 and self.doc.axes[c][1][axis]):
            raise ValueError(f"scale_axis: joint {joint!r} axis {axis} has no function")
        prev = self._edits.get((_AXIS_SCALE, 6 * c + axis), (0, 0, (1.0,)))[2][0]
        self._put(_AXIS_SCALE, 6 * c + axis, (prev * float(factor),))

    def ellipsoid(self, joint: str, radii: ArrayLike,
                  winging_origin: ArrayLike | None = None) -> None:
        """An EllipsoidJoint's or ScapulothoracicJoint's radii (3, m, along its parent
        frame's axes) and a ScapulothoracicJoint's winging axis origin (2, m; None: kept)."""
        shapes = {e.joint: e for e in self.doc.ellipsoids}
        if joint not in shapes:
            _index(list(shapes), joint, "ellipsoid joint")
        e = shapes[joint]
        values = list(_vector(radii, 3, f"joint {joint!r}: radii"))
        if min(values) < 0:
            raise ValueError(f"joint {joint!r}: radii {radii!r} must be >= 0")
        if winging_origin is not None:
            if e.winging_origin is None:
                raise ValueError(f"joint {joint!r} is an EllipsoidJoint: it has no winging axis")
            values += list(_vector(winging_origin, 2, f"joint {joint!r}: winging origin"))
        else:
            values += [float("nan")] * 2
        self._put(_ELLIPSOID, e.index, values)

    def curvature(self, joint: str, length: float) -> None:
        """A ConstantCurvatureJoint's length (m)."""
        arcs = {c.joint: c for c in self.doc.curvatures}
        if joint not in arcs:
            _index(list(arcs), joint, "constant-curvature joint")
        self._put(_CURVATURE, arcs[joint].index, _vector(length, 1, f"joint {joint!r}: length"))

    def scale_moving_point(self, path: str, point: str, factors: ArrayLike) -> None:
        """Multiply a moving path point's x, y, z functions by factors (3; 1 leaves one)."""
        k = self._point(path, point)
        if self._points()[k].kind != "moving":
            raise ValueError(f"path {path!r} point {point!r} is not a MovingPathPoint")
        self._put(_POINT_SCALE, k, _vector(factors, 3, f"point {point!r}: factors"))

    def coupler_scale(self, index: int, scale_factor: float) -> None:
        """The scale_factor of coordinate coupler ``index`` (model.couplers' order)."""
        if not 0 <= index < self.doc.couplers:
            raise ValueError(f"coupler_scale: no coupler {index}")
        self._put(_COUPLER_SCALE, index, (float(scale_factor),))

    def geometry_scale(self, index: int, factors: ArrayLike) -> None:
        """The scale_factors of display geometry ``index`` (of :attr:`Document.geometry`)."""
        if not 0 <= index < len(self.doc.geometry):
            raise ValueError(f"geometry_scale: no geometry {index}")
        self._put(_GEOMETRY_SCALE, index, _vector(factors, 3, "geometry scale factors"))

    # ---- the document ---------------------------------------------------------------
    def text(self) -> str:
        """The .osim text with every change made."""
        edits = list(self._edits.values()) + self._added
        return self.model._c.osim_write(self.model._xml, edits)

    def write(self, path: str | os.PathLike[str]) -> str:
        """Write the changed model to path (UTF-8, replaced only once complete, never over a
        file the work reads: urdf2dyn._safe_files.replacing); returns the path."""
        from ..._safe_files import replacing
        text = self.text()
        with replacing(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return os.fspath(path)

    def load(self) -> Model:
        """The changed model, loaded (as urdf2dyn.load would load the written file)."""
        import warnings
        from ...model import Model
        from ...warn import URDFWarning
        with warnings.catch_warnings():         # said when the model itself was loaded
            warnings.simplefilter("ignore", URDFWarning)
            model = Model(self.text(), self.model.floating_base)
        model.eliminate_couplers = getattr(self.model, "eliminate_couplers", False)
        return model
