"""Scaling a generic OpenSim model to a subject, as OpenSim's ScaleTool does, from a static
trial: marker-pair distances give each body's scale factors, the masses become the subject's,
and the model's markers are moved onto the subject's (marker placement).

:func:`scale` does it for a model, a static trial and :class:`ScaleSettings` (what a
``Setup_Scale.xml`` says, or keywords in a notebook) and returns a :class:`ScaleResult`: the
scaled model, its .osim text (the generic model's file with the scaled values written in,
everything urdf2dyn does not model kept as it was: :mod:`.formats.osim`) and a
:class:`ScaleReport`. :func:`run_setup` runs an OpenSim ``ScaleTool`` setup unchanged and
writes what OpenSim writes (what ``urdf2dyn scale SETUP`` does).

As OpenSim 4.6 (ModelScaler, Model::scale, MarkerPlacer):

* measurements: each marker pair's distance in the model at its default pose, and in the
  trial frame by frame over the time range (from the last frame at or before its start to the
  first at or after its end) and averaged; a measurement's factor is the mean over its pairs
  of measured / model, set on the axes its bodies name. A pair with a marker missing from the
  model or the trial, or missing in any frame of the range (a gap, however short: the mean
  is not taken over the frames present), leaves its measurement out (warned).
  ``scaling_order`` applies measurements and manual scales in turn: a later one overwrites;
* what the factors change: :mod:`.scaling` (masses, inertias, frames, joint functions,
  markers, path points, wrap objects, then the muscles' lengths by path-length ratio);
* marker placement: the trial averaged over the placement time range (a marker with a gap
  there is missing), the model's markers the trial does not name removed, inverse
  kinematics on that pose with the setup's marker and coordinate tasks, then every marker
  that is not ``fixed`` moved onto its measured position (averaged over the frames it was
  seen). OpenSim's placer solves its IK with the assembler's default accuracy (1e-4) and
  stops up to about 1 cm short of the minimum; urdf2dyn converges (``tolerance``), so its
  markers sit where the converged fit puts them.

The report gives, per measurement, the factor and the marker-pair distances, and per marker
the static-trial error at the fitted pose (how far it was from the subject's, which
placement removes); errors beyond OpenSim's best-practice bands (largest under 2 cm, RMS
under 1 cm) are warned about.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .._input_bytes import refuse_devices
from .._safe_files import (check_outputs, declared_name, guarding, note_input, note_inputs,
                           replacing)
from .._xmltext import escape
from ..warn import in_file, report, shown
from .formats._cells import refuse_unwritable_names
from .formats.osim import OsimEdit, document, read_marker_set
from .formats.scale_setup import (ManualScale, Measurement, ScaleSetup, ScaleSetupError,
                                  read_scale_setup)
from .markers import Markers
from .opensim_processing import processing_named
from .processing import LIBRARY_COLUMNS, ColumnOptions
from .scaling import default_pose, scale_lengths, scale_model

if TYPE_CHECKING:
    from ..model import Model

__all__ = ["ScaleSettings", "ScaleReport", "ScaleResult", "MeasurementResult", "MarkerFit",
           "Measurement", "ManualScale", "scale", "run_setup", "settings_from_setup",
           "apply_marker_set", "read_marker_set_file", "load_generic",
           "coordinate_file_reading", "setup_inputs"]

BANDS = (0.02, 0.01)        # OpenSim's best practice: largest marker error, RMS (m)


@dataclass
class ScaleSettings:
    """How to scale: what a ScaleTool setup says.

    Attributes
    ----------
    mass : float or None
        The subject's mass, kg (None: the masses only scale with the bodies).
    preserve_mass_distribution : bool
        Keep each body's share of the mass (else a body's mass first scales with its volume).
    scaling_order : sequence of "measurements", "manualScale"
        Applied in turn; a later one overwrites an earlier one's factors.
    measurements, manual_scales
        :class:`Measurement` (marker pairs -> bodies and axes), :class:`ManualScale`.
    time_range : (t0, t1) or None
        Of the measurements (None: the whole trial).
    place_markers : bool
        Marker placement after scaling.
    placement_time_range : (t0, t1) or None
        The frames averaged for placement (None: the whole trial).
    marker_weights : dict or None
        {marker: weight} of the placement's inverse kinematics (None: every model marker the
        trial has, weight 1).
    coordinate_tasks : dict
        {coordinate: (weight, value)} pulled towards value (rad or m) in that fit.
    max_marker_movement : float or None
        Warn about a marker that moves more than this (m) within the placement range.
    tolerance : float
        Convergence of the placement's fit (a step moving no coordinate more than this).
    marker_set : list or None
        Markers (name, body, location (m, in the body's frame), fixed) replacing the model's
        of the same name and added after the others (a marker set file: see
        :func:`read_marker_set_file`).
    setup : str or None
        The setup file these settings come from, named in what is said about its
        measurements and scales.
    """
    mass: float | None = None
    preserve_mass_distribution: bool = False
    scaling_order: tuple[str, ...] = ("measurements", "manualScale")
    measurements: list[Measurement] = field(default_factory=list)
    manual_scales: list[ManualScale] = field(default_factory=list)
    time_range: tuple[float, float] | None = None
    place_markers: bool = True
    placement_time_range: tuple[float, float] | None = None
    marker_weights: dict[str, float] | None = None
    coordinate_tasks: dict[str, tuple[float, Any]] = field(default_factory=dict)
    max_marker_movement: float | None = None
    tolerance: float = 1e-10
    marker_set: list[tuple[str, str, tuple, bool]] | None = None
    setup: str | None = None


@dataclass
class MeasurementResult:
    """One measurement: its factor (NaN when it was left out), each pair's distances
    (marker, marker, model at its default pose, measured mean; m) and why it was left out."""
    name: str
    factor: float
    pairs: list[tuple[str, str, float, float]]
    bodies: dict[str, str]
    note: str = ""


@dataclass
class MarkerFit:
    """A marker after placement: ``error`` its distance to the measured one at the fitted
    pose (m; NaN if the trial lacks it there), ``weight`` in the fit (0: not fitted),
    ``moved`` how far placement moved it on its body (m; 0 for a fixed one), and where it is
    now: ``link`` and ``location`` (m, in the link's frame)."""
    name: str
    error: float
    weight: float
    fixed: bool
    moved: float
    link: str = ""
    location: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass
class ScaleReport:
    """What scaling did, for the user to judge it."""
    factors: dict[str, NDArray[np.float64]]
    measurements: list[MeasurementResult]
    mass: tuple[float, float]                     # kg, before and after
    lengths: dict[str, float]                     # muscle: path-length ratio
    markers: list[MarkerFit] = field(default_factory=list)
    removed_markers: list[str] = field(default_factory=list)
    pose: NDArray[np.float64] | None = None       # the static pose (nq,)
    q_names: list[str] = field(default_factory=list)
    rms: float = math.nan                         # over the fitted markers, m
    max: float = math.nan
    worst: str = ""

    def text(self) -> str:
        """The report as the command line prints it."""
        out = ["measurement         factor    pair                          model (mm)  "
               "measured (mm)"]
        for m in self.measurements:
            first = True
            for a, b, dm, de in m.pairs or [("", "", math.nan, math.nan)]:
                head = f"{shown(m.name):<18}  {m.factor:7.4f}" if first else " " * 27
                pair = f"{shown(a)} - {shown(b)}"
                out.append(f"{head}   {pair:<28}  {1e3 * dm:10.1f}  {1e3 * de:13.1f}")
                first = False
            if m.note:
                out.append(f"{'':<27}   ({m.note})")
        out.append(f"mass: {self.mass[0]:.3f} kg -> {self.mass[1]:.3f} kg")
        if self.markers:
            out.append("marker              error (mm)  weight  moved (mm)")
            for f in sorted(self.markers, key=lambda f: -np.nan_to_num(f.error)):
                flag = "  fixed" if f.fixed else ""
                out.append(f"{shown(f.name):<18}  {1e3 * f.error:10.1f}  {f.weight:6g}  "
                           f"{1e3 * f.moved:10.1f}{flag}")
            out.append(f"static trial: marker error RMS {1e3 * self.rms:.1f} mm, largest "
                       f"{1e3 * self.max:.1f} mm ({shown(self.worst)}) (OpenSim's best "
                       f"practice: largest under {1e3 * BANDS[0]:.0f} mm, RMS under "
                       f"{1e3 * BANDS[1]:.0f} mm)")
        if self.removed_markers:
            out.append("removed (not in the static trial): "
                       f"{', '.join(map(shown, self.removed_markers))}")
        return "\n".join(out)


@dataclass
class ScaleResult:
    """The scaled model's .osim text with the markers placed (``text``) and before placement
    (``scaled_text``: OpenSim's ModelScaler output), the report, and the scaled model
    (``model``, loaded from ``text`` when first asked for)."""
    text: str
    scaled_text: str
    report: ScaleReport
    generic: Model = field(repr=False)
    _model: Model | None = field(default=None, repr=False)

    @property
    def model(self) -> Model:
        """The scaled model (markers placed), as urdf2dyn.load reads ``text``."""
        if self._model is None:
            self._model = _load(self.text, self.generic)
        return self._model

    def write(self, path: str | os.PathLike[str]) -> str:
        """Write the scaled model's .osim; returns the path."""
        with replacing(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(self.text)          # never over an input of the work (issue 26)
        return os.fspath(path)


# ---- measurements ---------------------------------------------------------------------

def _frame_range(time, t0, t1):
    """OpenSim's MarkerData::findFrameRange: from the last frame at or before t0 (else the
    first) to the first at or after t1 (else the last)."""
    n = len(time)
    before = np.flatnonzero(time <= t0)
    start = int(before[-1]) if before.size else 0
    after = np.flatnonzero(time[start:] >= t1)
    end = start + int(after[0]) if after.size else n - 1
    return start, end


def _markers(model, marker_set):
    """The model's markers with a marker set's: [(name, link, position in the link frame)]."""
    replaced = {m[0] for m in marker_set or []}
    return ([(m.name, m.link, m.position) for m in model.markers if m.name not in replaced] +
            [(name, body, location) for name, body, location, _ in marker_set or []])


def _model_marker_positions(model, markers, names):
    """World positions of markers [(name, link, position)] at the default pose."""
    q = default_pose(model)
    pos, rot = model.forward_kinematics(q)
    out = {}
    for name, link, p in markers:
        if name in names:
            k = model._link_index[link]
            out[name] = pos[k] + rot[k] @ np.asarray(p, dtype=float)
    return out


def _gap_note(static, a, b, start, end):
    """Why the pair a-b has no mean distance: a marker never seen in the range, or missing in
    some of its frames (each named, with the frames and the file). OpenSim 4.6's ScaleTool
    leaves such a measurement out too: its mean over the range (ModelScaler::
    takeExperimentalMarkerMeasurement) sums every frame's distance, and one missing frame
    makes the sum NaN."""
    t = static.time
    span = f"between {t[start]:g} and {t[end]:g} s"
    source = static.meta.get("source")
    of = f" of {source}" if source else ""
    for x in (a, b):
        if np.all(np.isnan(static.marker(x)[start:end + 1])):
            return f"marker {x!r} is missing in every frame {span}{of}"
    notes = []
    for x in (a, b):
        missing = np.flatnonzero(np.any(np.isnan(static.marker(x)[start:end + 1]), axis=1))
        if missing.size:
            first, last = t[start + missing[0]], t[start + missing[-1]]
            notes.append(f"marker {x!r} is missing in {missing.size} of the {end - start + 1} "
                         f"frames {span}{of} (from {first:g} to {last:g} s)")
    return ("; ".join(notes) + ": OpenSim's ScaleTool leaves the measurement out too (its "
            "mean distance is undefined); fill the gap, or choose a <time_range> of the "
            "measurements without it")


def measure(model: Model, static: Markers, measurements: list[Measurement],
            time_range: tuple[float, float] | None, strict: bool = False,
            marker_set: list | None = None, setup: str | None = None
            ) -> list[MeasurementResult]:
    """Each applied measurement's factor (OpenSim's ModelScaler); ``setup``, the file the
    measurements come from, is named in what is said about them."""
    t = np.asarray(static.time, dtype=float)
    t0, t1 = time_range if time_range is not None else (t[0], t[-1])
    start, end = _frame_range(t, t0, t1)
    names = {a for m in measurements for pair in m.pairs for a in pair}
    model_at = _model_marker_positions(model, _markers(model, marker_set), names)
    results = []
    for m in measurements:
        if not m.apply:
            continue
        pairs, ratios, note = [], [], ""
        for a, b in m.pairs:
            missing = [x for x in (a, b) if x not in model_at]
            if missing:
                note = f"model marker {missing[0]!r} missing"
                break
            absent = [x for x in (a, b) if x not in static.labels]
            if absent:
                note = f"marker {absent[0]!r} is not in the static trial"
                break
            d = np.linalg.norm(static.marker(a)[start:end + 1] - static.marker(b)[start:end + 1],
                               axis=1)
            dm = float(np.linalg.norm(model_at[a] - model_at[b]))
            de = float(np.mean(d))
            pairs.append((a, b, dm, de))
            if not np.isfinite(de):
                note = _gap_note(static, a, b, start, end)
                break
            ratios.append(de / dm)
        if not m.pairs:
            note = "no marker pairs"
        factor = float(np.mean(ratios)) if not note else math.nan
        if note:
            report(f"scale: {in_file(setup)}measurement {m.name!r} not used: {note}",
                   strict=strict)
        results.append(MeasurementResult(m.name, factor, pairs, dict(m.bodies), note))
    return results


def scale_factors(model: Model, settings: ScaleSettings, measured: list[MeasurementResult],
                  strict: bool = False) -> dict[str, NDArray[np.float64]]:
    """{body: (3,)} after the scaling order's steps (every body 1, 1, 1 first)."""
    bodies = document(model).bodies
    factors = {b: np.ones(3) for b in bodies}
    for step in settings.scaling_order:
        if step == "measurements":
            for r in measured:
                if not np.isfinite(r.factor):
                    continue
                for body, axes in r.bodies.items():
                    if body not in factors:
                        report(f"scale: {in_file(settings.setup)}measurement {r.name!r} scales "
                               f"{body!r}, which the model does not have", strict=strict)
                        continue
                    for axis in axes:
                        factors[body]["XYZ".index(axis)] = r.factor
        elif step == "manualScale":
            for sc in settings.manual_scales:
                if not sc.apply:
                    continue
                if sc.body not in factors:
                    report(f"scale: {in_file(settings.setup)}manual scale of {sc.body!r}: the "
                           "model has no such body", strict=strict)
                    continue
                factors[sc.body] = np.array(sc.factors, dtype=float)
        else:
            raise ValueError(f"scale: scaling_order: {step!r}: expected 'measurements' or "
                             "'manualScale'")
    return factors


# ---- marker placement --------------------------------------------------------------------

def _placement_targets(static, time_range):
    """The pose placement fits (OpenSim's averageRow: the rows within the range, clamped to
    the trial; a gap makes the marker missing) and the positions markers move to (its
    averageFrames: OpenSim's frame range, gaps left out)."""
    t = np.asarray(static.time, dtype=float)
    t0, t1 = time_range if time_range is not None else (t[0], t[-1])
    t0, t1 = max(t0, t[0]), min(t1, t[-1])
    rows = (t >= t0) & (t <= t1)
    if not rows.any():
        raise ValueError(f"scale: placement time range {t0:g} - {t1:g} s holds no frame of "
                         f"the static trial ({t[0]:g} - {t[-1]:g} s)")
    fit = np.mean(static.xyz[rows], axis=0)
    start, end = _frame_range(t, t0, t1)
    move = _mean_where_seen(static.xyz[start:end + 1]) if end >= start else fit
    return fit, move, (start, end), (t0, t1)


def _mean_where_seen(xyz):
    """The mean over frames of each coordinate, gaps left out; NaN where a marker is never
    seen (said by place_markers: NumPy's nanmean would add a bare RuntimeWarning)."""
    seen = np.isfinite(xyz)
    count = seen.sum(axis=0)
    total = np.where(seen, xyz, 0.0).sum(axis=0)
    return np.divide(total, count, out=np.full(total.shape, np.nan), where=count > 0)


def _unseen_markers(static, markers, fit, move, t0, t1, strict):
    """Warn once per model marker the placement frames do not show; the names of those left
    out of the pose fit (OpenSim's MarkerPlacer leaves them out and does not move a marker it
    never sees)."""
    left_out = set()
    where = (f"the static trial's placement frames {t0:g} - {t1:g} s"
             f"{' of ' + str(static.meta['source']) if static.meta.get('source') else ''}")
    for m in markers:
        k = static.labels.index(m.name)
        if np.all(np.isfinite(fit[k])):
            continue
        left_out.add(m.name)
        if np.all(np.isfinite(move[k])):
            what, done = "has a gap in", "it is left out of the pose fit"
        else:
            what = "is missing in every one of"
            done = "it is left out of the pose fit and not moved"
        report(f"scale: marker {m.name!r} {what} {where}: {done} (as OpenSim's "
               "MarkerPlacer does); fill the gap or choose other placement frames to use it",
               strict=strict, stacklevel=None)
    return left_out


def place_markers(model: Model, static: Markers, settings: ScaleSettings,
                  edit: OsimEdit | None = None, strict: bool = False
                  ) -> tuple[OsimEdit, list[MarkerFit], dict[str, Any]]:
    """OpenSim's MarkerPlacer on a scaled model: the changes (markers moved, those the trial
    lacks removed), the fit per marker and the pose. The changes go to ``edit`` when given:
    an OsimEdit of the model the scaled one was written from (locations are given in the
    frames the scaled model writes them in)."""
    fit, move, (start, end), (t0, t1) = _placement_targets(static, settings.placement_time_range)
    if settings.max_marker_movement is not None and settings.max_marker_movement > 0:
        seen = static.xyz[start:end + 1]
        with np.errstate(invalid="ignore"):
            spread = np.nanmax(seen, axis=0) - np.nanmin(seen, axis=0)
        for k, label in enumerate(static.labels):
            if np.nanmax(spread[k]) > settings.max_marker_movement:
                report(f"scale: marker {label!r} moves {1e3 * np.nanmax(spread[k]):.1f} mm "
                       f"within the placement frames (max_marker_movement "
                       f"{1e3 * settings.max_marker_movement:.1f} mm)", strict=strict)
    edit = OsimEdit(model) if edit is None else edit
    have = set(static.labels)
    removed = [m.name for m in model.markers if m.name not in have]
    for name in removed:
        edit.remove_marker(name)
    markers = [m for m in model.markers if m.name in have]
    unseen = _unseen_markers(static, markers, fit, move, t0, t1, strict)
    pose = Markers(np.array([t0]), list(static.labels), fit[None])
    weights = settings.marker_weights
    if weights is None:
        weights = {m.name: 1.0 for m in markers}
    fitted = {n: w for n, w in weights.items() if n not in unseen}
    res = _fit_pose(model, pose, fitted, settings, markers, strict)
    q = res.motion.q[0]
    sol = res.solution
    error = dict(zip(sol.marker_names, sol.marker_error[0]))
    pos, rot = model.forward_kinematics(q)
    doc = document(model)
    written = {m.name: m for m in doc.markers}
    fixed = {m.name: m.fixed for m in doc.markers}
    fits = []
    for m in markers:
        k = model._link_index[m.link]
        target = move[static.labels.index(m.name)]
        moved, p = 0.0, np.asarray(m.position, dtype=float)
        if not fixed[m.name] and np.all(np.isfinite(target)):
            p = rot[k].T @ (target - pos[k])
            moved = float(np.linalg.norm(p - np.asarray(m.position)))
            edit.marker(m.name, written[m.name].to_frame(p), in_frame=True)
        elif not fixed[m.name] and m.name not in unseen:
            report(f"scale: marker {m.name!r} has no position in the static trial's placement "
                   "frames; it is not moved", strict=strict)
        here = pos[k] + rot[k] @ np.asarray(m.position)
        err = error.get(m.name, float(np.linalg.norm(here - fit[static.labels.index(m.name)])))
        fits.append(MarkerFit(m.name, float(err), float(weights.get(m.name, 0.0)),
                              fixed[m.name], moved, m.link, (float(p[0]), float(p[1]),
                                                             float(p[2]))))
    return edit, fits, {"q": q, "rms": float(sol.rms[0]), "max": float(sol.max[0]),
                        "worst": sol.worst[0], "removed": removed}


def _cost(model, res, weights, tasks):
    """The placement fit's objective: sum of w e^2 over the markers, plus the tasks'."""
    sol = res.solution
    c = sum(weights.get(n, 0.0) * e * e for n, e in zip(sol.marker_names, sol.marker_error[0])
            if np.isfinite(e))
    q = res.motion.q[0]
    return c + sum(w * (q[model.q_names.index(n)] - float(np.reshape(v, -1)[0])) ** 2
                   for n, (w, v) in tasks.items())


def _fit_pose(model, pose, weights, settings, markers, strict, rounds=3):
    """The static pose's fit, from the default pose (and mid-range: biomech.ik.solve). A fit
    that leaves a bounded coordinate at its bound may be a local minimum the bound made
    (Rajagopal's static trial: the left arm turned against its stop, cost 0.555; OpenSim's
    assembler finds 0.283): the fit starts again from it with those coordinates at mid-range
    and at their other bound, keeping the best, for a few rounds while it improves."""
    from .ik import solve

    def fit(q0, also_mid_range=False):
        res = solve(model, pose, weights=weights, coordinate_tasks=settings.coordinate_tasks,
                    locked=model.locked_coordinates, ranges=model.clamped_ranges, q0=q0,
                    markers=markers, threads=1, strict=strict, also_mid_range=also_mid_range,
                    setup=settings.setup, job="scale")
        return res, _cost(model, res, weights, settings.coordinate_tasks)

    bounded = {model.q_names.index(n): r for n, r in model.clamped_ranges.items()
               if n in model.q_names and n not in model.locked_coordinates
               and np.all(np.isfinite(r))}
    best, cost = fit(model.default_q, also_mid_range=True)
    for _ in range(rounds):
        q = best.motion.q[0]
        stuck = {i: (lo, hi) for i, (lo, hi) in bounded.items()
                 if min(abs(q[i] - lo), abs(q[i] - hi)) < 1e-6}
        if not stuck:
            break
        improved = False
        for where in ("middle", "other bound"):
            q0 = np.array(q, dtype=float)
            for i, (lo, hi) in stuck.items():
                q0[i] = 0.5 * (lo + hi) if where == "middle" else (
                    hi if abs(q[i] - lo) < 1e-6 else lo)
            res, c = fit(q0)
            if c < cost * (1 - 1e-9):
                best, cost, improved = res, c, True
        if not improved:
            break
    return best


# ---- the whole job -----------------------------------------------------------------------

def _load(text, like):
    import warnings
    from ..model import Model
    from ..warn import URDFWarning
    with warnings.catch_warnings():             # said when the generic model was loaded
        warnings.simplefilter("ignore", URDFWarning)
        model = Model(text, like.floating_base)
    model.eliminate_couplers = getattr(like, "eliminate_couplers", False)
    return model


def load_generic(path: str | os.PathLike[str], strict: bool = False) -> Model:
    """The generic model to scale, read by urdf2dyn.load; what the loader says is passed on
    but for the passive forces it does not apply and the other components it does not read;
    constraints urdf2dyn does not enforce are still said (marker placement's inverse
    kinematics ignores them, OpenSim's would not). Scaling keeps the rest: forces,
    controllers and other components are written back into the scaled .osim, the muscles'
    path points and lengths scaled; coordinate couplers are held by marker placement.
    ``strict`` raises the model's findings as load(path, strict=True) does."""
    from ..model import PASSIVE_FORCES, SKIPPED_FOR_ID, load_leaving_unsaid
    return load_leaving_unsaid(path, lambda text: PASSIVE_FORCES in text or (
        SKIPPED_FOR_ID in text and "does not enforce" not in text), strict)


def require_opensim(model: Model) -> None:
    """Refuse a model not read from an .osim: scaling edits the model's own .osim document."""
    if not model.is_opensim:
        raise ValueError(f"scale: model {model.name!r} was not read from an OpenSim .osim "
                         "file: scaling follows OpenSim's ScaleTool and writes the scaled "
                         "model into the generic model's .osim; give the generic OpenSim "
                         "model (e.g. urdf2dyn.load('gait2392.osim'))")


def scale(model: Model, static: Markers | None, settings: ScaleSettings,
          strict: bool = False) -> ScaleResult:
    """Scale an OpenSim model (loaded from its .osim) to the subject of a static trial.

    Parameters
    ----------
    model : urdf2dyn.Model
        The generic model, read from an .osim (its markers are the ones measured and placed).
    static : Markers or None
        The static trial (m, the model's world frame), as urdf2dyn's .trc and C3D readers
        return it; None when no measurement and no placement needs it.
    settings : ScaleSettings
    strict : bool
        Warnings become errors.

    Returns
    -------
    ScaleResult
    """
    require_opensim(model)
    needs_trial = (settings.place_markers or
                   ("measurements" in settings.scaling_order and
                    any(m.apply for m in settings.measurements)))
    if static is None and needs_trial:
        raise ValueError("scale: the settings measure marker pairs or place markers: give the "
                         "static trial")
    measured = []
    if static is not None and "measurements" in settings.scaling_order:
        measured = measure(model, static, settings.measurements, settings.time_range, strict,
                           settings.marker_set, settings.setup)
    factors = scale_factors(model, settings, measured, strict)
    # every change is made on the generic model's document: scaled, then the muscles'
    # lengths, then the markers placed (it is parsed once, written three times)
    edit, info = scale_model(model, factors, settings.mass, settings.preserve_mass_distribution,
                             settings.marker_set)
    scaled_model = _load(edit.text(), model)
    lengths = scale_lengths(model, scaled_model, edit)
    scaled_text = edit.text()
    rep = ScaleReport(factors, measured, info["mass"], lengths)
    if settings.place_markers and static is not None:
        _, fits, pose = place_markers(scaled_model, static, settings, edit, strict)
        text = edit.text()
        rep.markers, rep.pose, rep.q_names = fits, pose["q"], list(scaled_model.q_names)
        rep.rms, rep.max, rep.worst = pose["rms"], pose["max"], pose["worst"]
        rep.removed_markers = pose["removed"]
        if rep.max > BANDS[0] or rep.rms > BANDS[1]:
            report(f"scale: static-trial marker errors RMS {1e3 * rep.rms:.1f} mm, largest "
                   f"{1e3 * rep.max:.1f} mm ({rep.worst}): beyond OpenSim's best practice "
                   f"(largest under {1e3 * BANDS[0]:.0f} mm, RMS under {1e3 * BANDS[1]:.0f} "
                   "mm); check the marker set, the measurements and the static pose",
                   strict=strict)
    else:
        text = scaled_text
    return ScaleResult(text, scaled_text, rep, model)


def settings_from_setup(setup: ScaleSetup, model: Model | None = None,
                        strict: bool = False, *, coordinate_file_units: str = "header",
                        coordinate_file_interpolation: str = "linear",
                        first_time: float = 0.0) -> ScaleSettings:
    """The ScaleSettings a ScaleTool setup says. Coordinate tasks valued ``default_value``
    take the model's default; ``from_file`` ones the setup's coordinate file at the start of
    the placement range, or at ``first_time`` (the static trial's first) when it is later,
    as OpenSim's marker placer does. The file is read and sampled as the trial's processing
    says (urdf2dyn.biomech.ik.coordinate_task_values' units and interpolation: by default
    in the units its header says, interpolated linearly)."""
    from .ik import coordinate_task_values
    tasks: dict[str, Any] = {}
    if model is not None:
        t0 = setup.place_time_range[0]
        tasks = coordinate_task_values(model, setup.coordinate_tasks(), [max(t0, first_time)],
                                       setup.coordinate_file, setup.path, strict, "scale",
                                       units=coordinate_file_units,
                                       interpolation=coordinate_file_interpolation)

    def span(r):
        return None if r[0] == -1.0 and r[1] == -1.0 else r

    return ScaleSettings(
        mass=setup.mass if setup.mass > 0 else None,
        preserve_mass_distribution=setup.preserve_mass_distribution,
        scaling_order=tuple(setup.scaling_order) if setup.scale else (),
        measurements=list(setup.measurements), manual_scales=list(setup.manual_scales),
        time_range=span(setup.scale_time_range), place_markers=setup.place,
        placement_time_range=span(setup.place_time_range),
        marker_weights=setup.marker_weights() if setup.tasks else None,
        coordinate_tasks=tasks, max_marker_movement=None, setup=setup.path)


def coordinate_file_reading(processing: Any, static: Markers | None) -> dict[str, Any]:
    """settings_from_setup's keywords for how the marker placer's coordinate_file is read: as
    the trial's processing reads an IK coordinate_file (OpenSim's marker placer reads it as
    its IK tool does: degrees, natural quintic splines), sampled no earlier than the static
    trial's first frame, where OpenSim's placer starts a time range that begins before the
    trial."""
    from .ik import coordinate_file_reader
    first = float(static.time[0]) if static is not None and len(static.time) else 0.0
    return {**coordinate_file_reader(processing), "first_time": first}


def run_setup(setup: str | os.PathLike[str] | ScaleSetup, output: str | None = None,
              model: Model | str | os.PathLike[str] | None = None,
              static: Markers | str | os.PathLike[str] | None = None,
              strict: bool = False,
              marker_set: str | os.PathLike[str] | None = None,
              processing: str = "urdf2dyn", rotation: Any = None,
              named: ColumnOptions = LIBRARY_COLUMNS) -> ScaleResult:
    """Run an OpenSim ``Setup_Scale.xml`` as OpenSim's ScaleTool does and write what it
    writes: the ModelScaler's ``output_model_file`` (scaled) and ``output_scale_file`` (the
    factors), the MarkerPlacer's ``output_model_file`` (scaled, markers placed; ``output``
    instead when given), ``output_marker_file`` and ``output_motion_file`` (the static pose).

    Parameters
    ----------
    setup : path or ScaleSetup
    output : str, optional
        The scaled model's .osim (default: the setup's last output model).
    model : urdf2dyn.Model or path, optional
        Instead of the setup's model_file (its marker_set_file still applies); a path is
        read with :func:`load_generic` once the outputs are checked.
    static : Markers or path, optional
        Instead of the setup's static trial (both steps use it); a path (.trc or .c3d) is
        read with urdf2dyn.biomech.formats.read_markers once the outputs are checked,
        turned by ``rotation``.
    strict : bool
        Warnings become errors.
    marker_set : path, optional
        The OpenSim marker set to add to the model's markers instead of the setup's
        marker_set_file.
    processing : "urdf2dyn" or "opensim"
        How the marker placer's ``coordinate_file`` (its ``from_file`` coordinate tasks) is
        read, as the trial's processing reads an IK setup's: "urdf2dyn" (default) in the
        units its header says, interpolated linearly; "opensim" in degrees whatever its
        header says, through its natural quintic splines, as OpenSim's MarkerPlacer reads it.
        Either way it is sampled where the placement range starts, moved to the static
        trial's first frame when the range begins before it (as OpenSim's placer does). The
        rest (the time ranges averaged, the static trial's reading) is OpenSim's under both.
    rotation : optional
        With a ``static`` path: the rotation from its lab frame to the model's (as
        urdf2dyn.biomech.formats.read_markers takes it); None reads it as recorded.
    named : ColumnOptions
        How the caller gives the model, marker set and static trial, as the refusal of a
        setup leaving one unassigned says (default: this function's keywords).

    No file it writes may be one it reads (the setup and every file it names, the model,
    marker set and static trial given), or another of its outputs, by any name: refused
    before any work (ValueError naming the output: its option when a caller declared it,
    urdf2dyn._safe_files.name_outputs).
    """
    how = processing_named(processing)
    if rotation is not None and not isinstance(static, (str, os.PathLike)):
        raise ValueError("rotation turns the static trial's markers into the model's frame: "
                         "give static as the trial's file (the setup's .trc is read in the "
                         "model's frame, as OpenSim reads it)")
    with guarding():
        return _run_setup(setup, output, model, static, strict, marker_set, how, rotation,
                          named)


def setup_inputs(setup: ScaleSetup) -> list[tuple[str, str | None]]:
    """The files a scale setup (read already) names, as (what, path): itself, its generic
    model, its marker set, its static trial (the ModelScaler's and the MarkerPlacer's) and
    its marker placer's coordinate file, and the files its sets were read from
    (``<MeasurementSet file="...">``, named by the set's tag). Each is an input whether or
    not a run reads it (a model, marker set or static trial given instead, a placer without
    from_file tasks), as OpenSim's: no output may be one, by any name."""
    return [("setup", setup.path), ("scale setup's model", setup.model_file),
            ("marker set", setup.marker_set_file),
            ("static trial", setup.scale_marker_file),
            ("static trial", setup.place_marker_file),
            ("coordinate", setup.coordinate_file)] + list(setup.set_files)


def _run_setup(setup, output, model, static, strict, marker_set, processing, rotation,
               named):
    s = setup if isinstance(setup, ScaleSetup) else read_scale_setup(setup, strict=strict)
    note_inputs(setup_inputs(s))          # before a marker set given replaces its own
    if marker_set is not None:
        s = replace(s, marker_set_file=os.path.abspath(marker_set))
        note_input(s.marker_set_file, "marker set")
    given = [(what, x) for what, x in (("model", model), ("static trial", static))
             if isinstance(x, (str, os.PathLike))]
    note_inputs(given)                    # read below, once the outputs are checked
    trial_file = s.scale_marker_file or s.place_marker_file
    check_outputs(_outputs(s, output))
    if isinstance(model, (str, os.PathLike)):
        model = load_generic(model, strict)
    if isinstance(static, (str, os.PathLike)):
        from .formats import read_markers
        static = read_markers(static, rotation, strict)
    if model is None:
        if not s.model_file:
            raise ScaleSetupError(f"{s.path}: <model_file> is Unassigned: give the generic "
                                  f"model ({named.said('scale_model', '{}', 'GENERIC.osim')})")
        from ..model import FindingRefused
        try:
            model = load_generic(s.model_file, strict)
        except FindingRefused:
            raise                           # names the model's file and line, says what to do
        except (OSError, ValueError) as e:
            raise ScaleSetupError(f"{s.path}: <model_file> {s.model_file}: cannot be loaded "
                                  f"({e})") from None
    require_opensim(model)
    measured = s.scale and "measurements" in s.scaling_order and any(
        m.apply for m in s.measurements)
    if not model.markers and not s.marker_set_file and (s.place or measured):
        raise ScaleSetupError(f"{s.path}: the model has no markers and <GenericModelMaker> "
                              "<marker_set_file> is Unassigned: give the marker set "
                              f"({named.said('marker_set', '{}', 'MARKERS.xml')})")
    if static is None and (s.place or s.measurements):
        if s.scale_marker_file and s.place_marker_file and \
                os.path.abspath(s.scale_marker_file) != os.path.abspath(s.place_marker_file):
            raise ScaleSetupError(f"{s.path}: the ModelScaler and the MarkerPlacer name two "
                                  f"static trials ({s.scale_marker_file}, "
                                  f"{s.place_marker_file}); urdf2dyn takes one")
        if not trial_file:
            raise ScaleSetupError(f"{s.path}: <marker_file> is Unassigned: give the static "
                                  f"trial ({named.said('scale_static', '{}', 'STATIC.trc')})")
        _exists(s, "<ModelScaler> <marker_file>" if s.scale_marker_file else
                "<MarkerPlacer> <marker_file>", trial_file, "give the static trial "
                f"({named.said('scale_static', '{}', 'STATIC.trc')})")
        from .formats import read_markers
        static = read_markers(trial_file, strict=strict)
    # the coordinate file is sampled at the static trial's start at the earliest: read first
    settings = settings_from_setup(s, model, strict, **coordinate_file_reading(processing,
                                                                              static))
    if s.marker_set_file:
        _exists(s, "<GenericModelMaker> <marker_set_file>", s.marker_set_file,
                "put it there or leave the element empty to keep the model's markers")
        settings.marker_set = read_marker_set_file(s.marker_set_file, model, strict)
    if s.max_marker_movement > 0 and static is not None:
        from .markers import LENGTH_UNITS
        units = LENGTH_UNITS.get(str(static.meta.get("units", "m")), 1.0)
        settings.max_marker_movement = s.max_marker_movement * units
    _refuse_an_unwritable_pose(s, output, model)
    result = scale(model, static, settings, strict)
    _write_outputs(s, result, output)
    return result


def _refuse_an_unwritable_pose(s, output, model):
    """MotionError, before the scaling and placing (the job's work) and any file, when the
    static pose's .mot cannot hold a coordinate's name (formats._cells): the placed model keeps
    the generic model's coordinates, whose names the pose's columns are."""
    motion = _outputs(s, output)[-1][1]
    if motion:
        refuse_unwritable_names(motion, model.q_names, "coordinate", f"model {model.name!r}",
                                index="time")


def _exists(s, element, path, advice):
    """ScaleSetupError naming the setup and its element when the file it names is missing,
    or is a device or a named pipe (said as such: it exists, and is never opened)."""
    refuse_devices(path, "static trial" if "<marker_file>" in element else "marker set",
                   named=f"{s.path}: {element}", error=ScaleSetupError)
    if not os.path.isfile(path):
        raise ScaleSetupError(f"{s.path}: {element} {path} does not exist (OpenSim reads it "
                              f"relative to the setup file's folder): {advice}")


def _body_of_marker_frame(frame: str) -> str | None:
    """The body a marker set file's marker is on: its socket's absolute path (the core's)
    /bodyset/<body> or /ground, or OpenSim 3's <body> name; None for any other frame."""
    if not frame.startswith("/"):
        return frame
    if frame == "/ground":
        return "ground"
    body = frame[len("/bodyset/"):] if frame.startswith("/bodyset/") else ""
    return body if body and "/" not in body else None


def read_marker_set_file(path: str, model: Model, strict: bool = False
                         ) -> list[tuple[str, str, tuple, bool]]:
    """An OpenSim marker set file (GenericModelMaker's marker_set_file, read by the core's
    .osim reader) for a model: [(name, body, location in the body frame, fixed)], markers on
    a frame that is not a body of the model warned about and skipped. A marker's
    <socket_parent_frame> names its body as a model's marker's does, by the path OpenSim 4.6
    reads from /markerset/<marker> (/bodyset/<body>, /ground), never by a last name; OpenSim
    3's <body> by its name."""
    bodies = set(document(model).bodies)
    out = []
    for name, frame, location, fixed in read_marker_set(path, strict):
        body = _body_of_marker_frame(frame)
        if body not in bodies:
            read_as = (f" (its socket's path read from /markerset/{name}, as OpenSim 4.6 "
                       "reads it)" if frame.startswith("/") else "")
            report(f"{path}: marker {name!r} is on {frame!r}{read_as}, which is not a body "
                   "of the model (write /bodyset/<body> or /ground); skipped", strict=strict)
            continue
        out.append((name, body, tuple(location), bool(fixed)))
    return out


def apply_marker_set(model: Model, path: str, strict: bool = False) -> Model:
    """The model with the markers of an OpenSim marker set file: one named as a model marker
    replaces it, and each is written after the model's (OpenSim's Model::updateMarkerSet)."""
    edit = OsimEdit(model)
    names = {m.name for m in model.markers}
    for name, body, location, fixed in read_marker_set_file(path, model, strict):
        if name in names:
            edit.remove_marker(name)
        edit.add_marker(name, body, location, fixed)
    return _load(edit.text(), model)


def _numbers(values):
    return " ".join(repr(float(x)) for x in values)


def scale_set_text(factors: dict[str, NDArray[np.float64]]) -> str:
    """The factors as OpenSim's ModelScaler writes its output_scale_file (a ScaleSet)."""
    rows = "".join(f"\t\t\t<Scale>\n\t\t\t\t<scales> {_numbers(f)}</scales>\n"
                   f"\t\t\t\t<segment>{escape(body)}</segment>\n\t\t\t\t<apply>true</apply>\n"
                   "\t\t\t</Scale>\n" for body, f in factors.items())
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">\n'
            f'\t<ScaleSet name="ScaleSet">\n\t\t<objects>\n{rows}\t\t</objects>\n'
            "\t\t<groups />\n\t</ScaleSet>\n</OpenSimDocument>\n")


def marker_set_text(markers: list[MarkerFit]) -> str:
    """Placed markers as OpenSim writes a marker file (a MarkerSet, OpenSim 4 layout, each
    on its body)."""
    rows = []
    for m in markers:
        frame = "/ground" if m.link == "ground" else f"/bodyset/{m.link}"
        rows.append(f'\t\t\t<Marker name="{escape(m.name)}">\n'
                    f"\t\t\t\t<socket_parent_frame>{escape(frame)}</socket_parent_frame>\n"
                    f"\t\t\t\t<location>{_numbers(m.location)}</location>\n"
                    f"\t\t\t\t<fixed>{'true' if m.fixed else 'false'}</fixed>\n"
                    "\t\t\t</Marker>\n")
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">\n'
            f'\t<MarkerSet name="markerset">\n\t\t<objects>\n{"".join(rows)}\t\t</objects>\n'
            "\t\t<groups />\n\t</MarkerSet>\n</OpenSimDocument>\n")


def _outputs(s: ScaleSetup, output: str | None) -> list[tuple[str, str | None]]:
    """(what, path) of the files the run writes, in OpenSim's tool's order: the ModelScaler's
    model and factors, the final model (``output`` instead of the last model), the
    MarkerPlacer's markers and pose. None where nothing is written, and for the ModelScaler's
    model where the final model is written to the same path (OpenSim's tool writes over it)."""
    scaler, placer = f"{s.path}: <ModelScaler>", f"{s.path}: <MarkerPlacer>"
    out = [(f"{scaler} <output_model_file>",
            s.output_scaled_model if s.scale and (s.place or output is None) else None),
           (f"{scaler} <output_scale_file>", s.output_scale_file if s.scale else None),
           (declared_name(output, "output") if output
            else f"{placer if s.place else scaler} <output_model_file>",
            output or (s.output_model_file if s.place else s.output_scaled_model)),
           (f"{placer} <output_marker_file>", s.output_marker_file if s.place else None),
           (f"{placer} <output_motion_file>", s.output_motion_file if s.place else None)]
    if out[0][1] and out[2][1] and os.path.abspath(out[0][1]) == os.path.abspath(out[2][1]):
        out[0] = (out[0][0], None)
    return out


def _write_outputs(s: ScaleSetup, result: ScaleResult, output: str | None) -> None:
    def put(path, text):
        with replacing(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)

    scaled, factors, final, markers, motion = (p for _, p in _outputs(s, output))
    if scaled:
        put(scaled, result.scaled_text)
    if factors:
        put(factors, scale_set_text(result.report.factors))
    if final:
        put(final, result.text)
    if markers:
        put(markers, marker_set_text(result.report.markers))
    if motion and result.report.pose is not None:
        from .formats import write_opensim
        from .trajectory import Trajectory
        t = s.place_time_range[0] if s.place_time_range[0] != -1.0 else 0.0
        write_opensim(s.output_motion_file, Trajectory(time=np.array([t]),
                                                       q=result.report.pose[None],
                                                       names=list(result.report.q_names)),
                      degrees=True, name="static pose", model=result.generic)
