"""Model markers, and inverse kinematics: the pose that best fits measured markers.

A model marker is a point fixed on a link: :class:`Marker` ``(name, link, position)``, the
position in the link's frame (m). ``model.markers`` lists them: a URDF carries none, so they
come from a marker file (:func:`read_markers`, CSV ``name, link, x, y, z``) or from the
links' own origins (:func:`link_markers`); an OpenSim model's ``MarkerSet`` gives them too.

:func:`inverse_kinematics` (also ``model.inverse_kinematics``) solves OpenSim's IK problem
frame by frame in the C core (``csrc/algo/u2d_ik.c``)::

    minimise  sum_i w_i |x_i(q) - t_i|^2  +  sum_j u_j (q_j - r_j)^2

over the coordinates that are not locked, inside the ranges given: marker weights ``w_i``,
coordinate tasks (coordinate ``j`` pulled towards ``r_j`` with weight ``u_j``), markers
missing in a frame (NaN) left out of that frame.
"""
from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

if TYPE_CHECKING:
    from .model import Model

__all__ = ["Marker", "IKSolution", "read_markers", "link_markers", "inverse_kinematics"]


class Marker(NamedTuple):
    """A point fixed on a link: ``name``, ``link`` (a URDF link / OpenSim body name) and
    ``position`` (3,) in the link frame, m."""
    name: str
    link: str
    position: tuple[float, float, float]


def read_markers(path: str | os.PathLike[str], model: Model | None = None) -> list[Marker]:
    """Read model markers from a CSV file: one marker a row, ``name, link, x, y, z`` (m, in
    the link frame); a first row ``name,link,x,y,z`` is a header; ``#`` starts a comment.

    With ``model``, links are checked against ``model.link_names``. Raises ``ValueError``
    naming the file, row and column of anything unreadable.
    """
    where = os.fspath(path)
    markers, seen = [], set()
    with open(where, newline="", encoding="utf-8") as f:
        for row_no, row in enumerate(csv.reader(f), 1):
            cells = [c.strip() for c in row]
            if not cells or not any(cells) or cells[0].startswith("#"):
                continue
            if row_no == 1 and [c.lower() for c in cells[:5]] == ["name", "link", "x", "y", "z"]:
                continue
            if len(cells) != 5:
                raise ValueError(f"{where}: row {row_no}: expected 5 columns name, link, x, y, "
                                 f"z; got {len(cells)}")
            name, link = cells[0], cells[1]
            if not name or not link:
                raise ValueError(f"{where}: row {row_no}: empty marker name or link")
            xyz = []
            for col, text in zip("xyz", cells[2:]):
                try:
                    x = float(text)
                except ValueError:
                    x = float("nan")
                if not np.isfinite(x):
                    raise ValueError(f"{where}: row {row_no}, column {col}: {text!r} is not a "
                                     "finite number (metres in the link frame)")
                xyz.append(x)
            if name in seen:
                raise ValueError(f"{where}: row {row_no}: marker {name!r} is listed twice")
            if model is not None and link not in model._link_index:
                raise ValueError(f"{where}: row {row_no}: marker {name!r} is on link {link!r}, "
                                 f"which the model does not have (links: "
                                 f"{', '.join(model.link_names[:8])}...)")
            seen.add(name)
            markers.append(Marker(name, link, (xyz[0], xyz[1], xyz[2])))
    return markers


def link_markers(model: Model, links: list[str] | None = None) -> list[Marker]:
    """A marker at the origin of each link named (default: every link), named as the link:
    the fixed frames of a URDF (tool points, sensors) used as markers."""
    names = model.link_names if links is None else list(links)
    for n in names:
        if n not in model._link_index:
            raise ValueError(f"link_markers: the model has no link {n!r}")
    return [Marker(n, n, (0.0, 0.0, 0.0)) for n in names]


@dataclass
class IKSolution:
    """Inverse kinematics over N frames, with OpenSim's IK report per frame.

    Attributes
    ----------
    q : (N, nq) array
        The fitted coordinates (rad, m).
    marker_names : list of str
        The model markers, in the order of ``marker_error``'s columns.
    marker_error : (N, k) array
        Each marker's distance to its measured position, m (NaN where it is missing).
    squared, rms, max : (N,) arrays
        OpenSim's IK report over the markers with a non-zero weight: the sum of squared
        errors of those present (m²), ``sqrt(squared / k)`` with k the markers fitted,
        missing ones included, as OpenSim's IK tool computes its RMS (m), and the largest
        error (m); NaN when none is present.
    worst : list of str
        The marker at ``max`` per frame ("" when none).
    iterations : (N,) int array
        Levenberg-Marquardt iterations per frame.
    """
    q: NDArray[np.float64]
    marker_names: list[str]
    marker_error: NDArray[np.float64]
    squared: NDArray[np.float64]
    rms: NDArray[np.float64]
    max: NDArray[np.float64]
    worst: list[str]
    iterations: NDArray[np.int64]


def _per_coordinate(model, given, what, default):
    """A (nv,) array from {coordinate name: value}."""
    out = np.full(model.nv, default, dtype=float)
    for name, value in (given or {}).items():
        out[_coordinate(model, name, what)[1]] = value
    return out


def _coordinate(model, name, what):
    """(q index, v index) of the coordinate called name (model.q_names): one of a joint whose
    q and v coordinates correspond one to one (a quaternion's components do not)."""
    if name in model.q_names:
        k = model.q_names.index(name)
        j = next(j for j in model.joints if j.q_index <= k < j.q_index + j.nq)
        if j.nq != j.nv:
            raise ValueError(f"inverse_kinematics: {what}: {name!r} is a coordinate of the "
                             f"{j.type} joint {j.name!r}, whose q is not its v; only "
                             "coordinates that are their own velocity can be named here")
        return k, j.v_index + (k - j.q_index)
    raise ValueError(f"inverse_kinematics: {what}: the model has no coordinate {name!r} "
                     f"(coordinates: {', '.join(model.q_names[:10])}...)")


def _coupler_order(model):
    """The model's couplers as (dependent, independent, function, scale), each after the
    coupler that computes its independent coordinate (a chain's root first). Raises
    ValueError for a loop or for two couplers driving one coordinate."""
    rows = {c.dependent: (c.dependent, c.independent, f, c.scale)
            for c, f in zip(model.couplers, model._coupler_fn)}
    if len(rows) < len(model.couplers):
        twice = sorted({c.dependent for c in model.couplers
                        if sum(d.dependent == c.dependent for d in model.couplers) > 1})
        raise ValueError(f"inverse_kinematics: coordinates {twice} are the dependent "
                         "coordinate of two couplers (CoordinateCouplerConstraints); keep one")
    order: list[tuple] = []
    placed: set[str] = set()
    for dep in rows:
        chain = [dep]
        while rows[chain[-1]][1] in rows and rows[chain[-1]][1] not in placed:
            nxt = rows[chain[-1]][1]
            if nxt in chain:
                raise ValueError(f"inverse_kinematics: the couplers of {sorted(chain)} form a "
                                 "loop (each coordinate computed from another of them)")
            chain.append(nxt)
        for d in reversed(chain):
            if d not in placed:
                placed.add(d)
                order.append(rows[d])
    return order


def inverse_kinematics(model: Model, targets: ArrayLike | dict[str, ArrayLike],
                       markers: list[Marker] | None = None,
                       weights: dict[str, float] | None = None,
                       tasks: Mapping[str, tuple[float, Any]] | None = None,
                       locked: dict[str, float] | None = None,
                       ranges: dict[str, tuple[float, float]] | None = None,
                       q0: ArrayLike | None = None, tolerance: float = 1e-10,
                       max_iter: int = 100, threads: int | None = None,
                       couplers: bool = True) -> IKSolution:
    """Fit the model's markers to measured positions, frame by frame (OpenSim's IK).

    Parameters
    ----------
    model : urdf2dyn.Model
    targets : (N, k, 3) or (k, 3) array, or dict {marker name: (N, 3) or (3,)}
        Measured marker positions in the model's world frame, m; NaN marks a marker missing
        in a frame (it is skipped there). An array is in the order of ``markers``; a dict
        names the markers measured, and the others are missing in every frame.
    markers : list of Marker, optional
        The model markers (default: ``model.markers``).
    weights : dict {marker name: float}, optional
        Marker weights (default 1); 0 reports a marker without fitting it.
    tasks : dict {coordinate: (weight, value)}, optional
        Coordinate tasks: the coordinate pulled towards ``value`` (a number, or (N,) per frame,
        rad or m) with ``weight``.
    locked : dict {coordinate: value}, optional
        Coordinates held at a value (rad or m).
    ranges : dict {coordinate: (lower, upper)}, optional
        Bounds kept by the fit (OpenSim's clamped coordinates).
    q0 : (nq,) array, optional
        Where the first frame starts (default zeros, unit quaternions); every next frame
        starts at the previous fit.
    tolerance : float
        A frame ends when a step moves no coordinate by more than this (rad or m).
    max_iter : int
        Levenberg-Marquardt iterations per frame at most.
    threads : int, optional
        The frames are cut into this many contiguous segments solved in parallel, each
        started at ``q0`` and warm-started within it (default: urdf2dyn.get_num_threads()).
        One thread reproduces OpenSim's frame-to-frame warm start exactly.
    couplers : bool
        Hold the model's coordinate couplers (``model.couplers``, an .osim's enforced
        CoordinateCouplerConstraints, dependent = scale x f(independent)) through the fit,
        as OpenSim's IK tool does (default): each dependent coordinate follows its function
        and its derivative enters the Jacobian. False fits every coordinate as one of its
        own. A coupler whose dependent coordinate is locked is not kept (the lock holds).

    Returns
    -------
    IKSolution
    """
    from .batch import get_num_threads
    markers = list(model.markers) if markers is None else list(markers)
    names = [mk.name for mk in markers]
    if len(set(names)) != len(names):
        raise ValueError("inverse_kinematics: markers: a marker name is used twice")
    for mk in markers:
        if mk.link not in model._link_index:
            raise ValueError(f"inverse_kinematics: marker {mk.name!r} is on link {mk.link!r}, "
                             "which the model does not have")
    if isinstance(targets, dict):
        unknown = sorted(set(targets) - set(names))
        if unknown:
            raise ValueError(f"inverse_kinematics: targets: no model marker named {unknown}")
        rows = {n: np.asarray(v, dtype=float) for n, v in targets.items()}
        lens = {r.shape[0] for r in rows.values() if r.ndim == 2}
        if len(lens) > 1:
            raise ValueError("inverse_kinematics: targets: markers have different numbers of "
                             "frames")
        n = lens.pop() if lens else 1
        single = not any(r.ndim == 2 for r in rows.values())
        t = np.full((n, len(markers), 3), np.nan)
        for k, name in enumerate(names):
            if name in rows:
                if rows[name].shape[-1] != 3 or rows[name].ndim > 2:
                    raise ValueError(f"inverse_kinematics: targets[{name!r}]: expected shape "
                                     f"(N, 3) or (3,), got {rows[name].shape}")
                t[:, k] = rows[name]
    else:
        t = np.asarray(targets, dtype=float)
        single = t.ndim == 2
        if single:
            t = t[None]
        if t.ndim != 3 or t.shape[1:] != (len(markers), 3):
            raise ValueError(f"inverse_kinematics: targets: expected shape (N, {len(markers)}, "
                             f"3) or ({len(markers)}, 3) for {len(markers)} markers, got "
                             f"{np.shape(targets)}")
    nframe = t.shape[0]
    w = np.ones(len(markers))
    for name, value in (weights or {}).items():
        if name not in names:
            raise ValueError(f"inverse_kinematics: weights: no model marker named {name!r}")
        w[names.index(name)] = value
    if not np.all(np.isfinite(w) & (w >= 0)):
        raise ValueError("inverse_kinematics: weights must be finite and >= 0")

    task_v, task_q, task_w, task_val = [], [], [], []
    for name, (weight, given) in (tasks or {}).items():
        qi, vi = _coordinate(model, name, "tasks")
        try:
            values = np.broadcast_to(np.asarray(given, dtype=float), (nframe,))
        except ValueError:
            raise ValueError(f"inverse_kinematics: tasks[{name!r}]: the value must be a number "
                             f"or one per frame ({nframe}), got shape {np.shape(given)}") from None
        if not np.all(np.isfinite(values)):
            raise ValueError(f"inverse_kinematics: tasks[{name!r}]: values must be finite "
                             "(rad or m)")
        if not (np.isfinite(weight) and weight >= 0):
            raise ValueError(f"inverse_kinematics: tasks[{name!r}]: weight {weight} must be "
                             "finite and >= 0")
        task_v.append(vi)
        task_q.append(qi)
        task_w.append(float(weight))
        task_val.append(values)
    task_values = np.stack(task_val, axis=1) if task_val else np.zeros((nframe, 0))

    start = np.zeros(model.nq) if q0 is None else np.array(q0, dtype=float).reshape(-1)
    if start.shape != (model.nq,) or not np.all(np.isfinite(start)):
        raise ValueError(f"inverse_kinematics: q0: expected {model.nq} finite numbers, got "
                         f"shape {start.shape}")
    if q0 is None:
        for j in model.joints:
            if j.type == "floating":
                start[j.q_index + 6] = 1.0
    lock = np.zeros(model.nv, dtype=np.int32)
    for name, value in (locked or {}).items():
        qi, vi = _coordinate(model, name, "locked")
        if not np.isfinite(value):
            raise ValueError(f"inverse_kinematics: locked[{name!r}]: {value} is not finite")
        lock[vi] = 1
        start[qi] = value
    lower = _per_coordinate(model, {k: v[0] for k, v in (ranges or {}).items()}, "ranges",
                            -np.inf)
    upper = _per_coordinate(model, {k: v[1] for k, v in (ranges or {}).items()}, "ranges",
                            np.inf)
    if np.any(lower > upper):
        raise ValueError("inverse_kinematics: ranges: a lower bound is above its upper bound")
    kept = [c for c in _coupler_order(model) if c[0] not in (locked or {})] if couplers else []
    coupler = np.array([[*_coordinate(model, dep, "couplers"), *_coordinate(model, ind, "couplers"),
                         f] for dep, ind, f, _ in kept], dtype=np.int32).reshape(-1, 5)
    scale = np.array([s for *_, s in kept], dtype=float)
    link = np.array([model._link_index[mk.link] for mk in markers], dtype=np.int32)
    pos = np.array([mk.position for mk in markers], dtype=float).reshape(len(markers), 3)
    q, err, rep = model._c.ik(link, pos, w, np.array(task_v, np.int32),
                              np.array(task_q, np.int32), np.array(task_w, float), lock,
                              lower, upper, t, task_values, start, float(tolerance),
                              int(max_iter), get_num_threads() if threads is None else threads,
                              coupler, scale)
    worst = [names[int(k)] if k >= 0 else "" for k in rep[:, 3]]
    sol = IKSolution(q, names, err, rep[:, 0], rep[:, 1], rep[:, 2], worst,
                     rep[:, 4].astype(np.int64))
    if single:
        sol.q = sol.q[0]
    return sol
