"""Inverse kinematics of a recorded trial: measured markers in, joint angles out.

:func:`solve` fits the model's markers (``model.markers``) to a marker recording frame by
frame with OpenSim's semantics (urdf2dyn.markers.inverse_kinematics, in the C core) and
returns the coordinates as a :class:`~urdf2dyn.biomech.Trajectory` beside OpenSim's per-frame
marker report. :func:`run_setup` runs an OpenSim ``Setup_IK.xml`` unchanged (what
``urdf2dyn ik --setup`` does) and writes its ``output_motion_file`` as OpenSim does (a .mot
in degrees) and, with ``report_errors``, its marker errors as
``<motion>_urdf2dyn_marker_errors.sto`` (``<motion>``: the output motion's name without
.mot), a name OpenSim's tool (``<tool name>_ik_marker_errors.sto``) never writes.

Differences from OpenSim's IK tool, written down:

* ``accuracy`` is OpenSim's optimizer tolerance; urdf2dyn always converges until no step
  moves a coordinate by more than 1e-10 (tighter than any accuracy a setup gives), so both
  reach the same minimum;
* of the model's constraints, the coordinate couplers (``CoordinateCouplerConstraint``) are
  the ones urdf2dyn reads, and IK holds them exactly through the fit, as OpenSim 4.6's IK
  tool does whatever the setup's ``constraint_weight`` says (its output is the same with 20,
  1, 0.001 and Inf on Leg39);
* a marker task for a marker the model or the file lacks is warned about and skipped, as
  OpenSim does;
* ranges bind as in OpenSim (clamped coordinates only, locked ones held), but an unclamped
  coordinate that the fit takes beyond its range is warned about (OpenSim says nothing; not
  one whose range is OpenSim's default -10 10, what a coordinate without <range> gets); a
  URDF's joint limits bind as clamped ranges (model.clamped_ranges);
* on a model with couplers, a clamped coordinate that no fitted marker moves is held where
  the first frame's start leaves it (mid-range, when that start fits better), where
  OpenSim's interior-point optimizer moves it in each frame from its start towards
  mid-range by as much as its iterations take: said, naming the coordinate; and so is one
  held through a gap in its markers at its value before it, naming the frames.
"""
from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..markers import IKSolution, Marker, inverse_kinematics
from .._input_bytes import refuse_devices
from .._safe_files import check_outputs, guarding, note_input, note_inputs
from ..warn import counted, in_file, report, time_digits
from .formats.ik_setup import IKSetup, IKSetupError, IKTask, read_ik_setup
from .markers import Markers
from .opensim_processing import processing_named
from .processing import LIBRARY_COLUMNS, ColumnOptions
from .trajectory import Trajectory

if TYPE_CHECKING:
    from ..model import Model

__all__ = ["IKResult", "IKSettings", "solve", "fit", "run_setup", "determined_frames",
           "measured_frames", "coordinate_file_reader", "setup_inputs", "load_model"]


@dataclass
class IKResult:
    """The coordinates over the trial and OpenSim's marker report per frame. determined:
    (M,) bool, whether the markers present in the frame (and the coordinate tasks) determine
    every coordinate the trial's best frames determine (:func:`determined_frames`); None
    when not computed."""
    motion: Trajectory
    solution: IKSolution
    determined: NDArray[np.bool_] | None = None
    #: the files :func:`run_setup` wrote (the motion, then the marker errors)
    written: tuple[str, ...] = ()

    def errors_table(self) -> tuple[list[str], NDArray[np.float64]]:
        """The columns of OpenSim's ``_ik_marker_errors.sto``: total_squared_error,
        marker_error_RMS, marker_error_max (m², m, m) per frame."""
        s = self.solution
        return (["total_squared_error", "marker_error_RMS", "marker_error_max"],
                np.column_stack([s.squared, s.rms, s.max]))


@dataclass(frozen=True)
class IKSettings:
    """How a marker recording's inverse kinematics runs (part of a trial's settings,
    urdf2dyn.biomech.stages.TrialSettings): what an OpenSim ``Setup_IK.xml`` says
    (:meth:`from_setup`) and the threads.

    threads: segments solved in parallel (1, the default: every frame warm-started from the
    previous one, as OpenSim's IK tool; None: urdf2dyn.get_num_threads()); weights: ((marker,
    weight), ...) of the markers fitted (None: every model marker the recording has, weight
    1); tasks: the coordinate tasks applied
    (urdf2dyn.biomech.formats.ik_setup.IKTask); time_range: (t0, t1) of the frames fitted
    (None: all); setup: the Setup_IK.xml they come from; coordinate_file: the values of its
    ``from_file`` tasks; model_file, marker_file: the model and recording it names (a trial
    fits its own: kept as inputs no output may replace, stages.trial_inputs)."""
    threads: int | None = 1
    weights: tuple[tuple[str, float], ...] | None = None
    tasks: tuple[Any, ...] = ()
    time_range: tuple[float, float] | None = None
    setup: str | None = None
    coordinate_file: str | None = None
    model_file: str | None = None
    marker_file: str | None = None

    @classmethod
    def from_setup(cls, setup: IKSetup, threads: int | None = 1) -> IKSettings:
        """The settings of an IK setup read already (urdf2dyn.biomech.formats.read_ik_setup)."""
        t0, t1 = setup.time_range
        return cls(threads=threads, weights=tuple(setup.marker_weights().items()),
                   tasks=tuple(setup.coordinate_tasks()),
                   time_range=None if (math.isinf(t0) and math.isinf(t1)) else (t0, t1),
                   setup=setup.path, coordinate_file=setup.coordinate_file,
                   model_file=setup.model_file, marker_file=setup.marker_file)


def fit(model: Model, data: Markers, settings: IKSettings | None = None,
        markers: Sequence[Marker] | None = None, strict: bool = False,
        coordinate_file_units: str = "header",
        coordinate_file_interpolation: str = "linear",
        undetermined_said: bool = False) -> IKResult:
    """Inverse kinematics of a marker recording as ``settings`` say (the one IK step of
    ``urdf2dyn ik``, :func:`run_setup`, and of a trial read from markers): the coordinate
    tasks' values resolved (the model's default value, a manual value, or the setup's
    coordinate_file interpolated at the frames, its angles in the units its header says or,
    with coordinate_file_units="degrees", in degrees as OpenSim's InverseKinematicsTool reads
    them, linearly or, with coordinate_file_interpolation="spline", through OpenSim's natural
    quintic splines: a trial's processing says which), then :func:`solve` with the model's
    locked coordinates, clamped ranges and default pose (and undetermined_said: a trial,
    which says its undetermined frames by :func:`measured_frames`)."""
    settings = IKSettings() if settings is None else settings
    q0 = model.default_q
    tasks = coordinate_task_values(model, settings.tasks, data.time, settings.coordinate_file,
                                   settings.setup, strict, units=coordinate_file_units,
                                   interpolation=coordinate_file_interpolation)
    return solve(model, data,
                 weights=None if settings.weights is None else dict(settings.weights),
                 coordinate_tasks=tasks, locked=model.locked_coordinates,
                 ranges=model.clamped_ranges, time_range=settings.time_range,
                 markers=list(markers) if markers is not None else None, q0=q0,
                 threads=settings.threads, strict=strict, setup=settings.setup,
                 undetermined_said=undetermined_said)


def coordinate_file_reader(processing: Any) -> dict[str, str]:
    """:func:`fit`'s keywords for how a trial's processing (urdf2dyn.biomech.stages.settings
    .PROCESSINGS) reads an IK setup's coordinate_file: urdf2dyn's in the units its header
    says, linearly; OpenSim's in degrees, through natural quintic splines, as its
    InverseKinematicsTool (and its ScaleTool's marker placer) reads it. The one place that
    choice is made for urdf2dyn ik, urdf2dyn scale and a trial read from markers."""
    return {"coordinate_file_units": processing.ik_coordinate_file_units,
            "coordinate_file_interpolation": processing.ik_coordinate_file_interpolation}


def coordinate_task_values(model: Model, tasks: Sequence[IKTask], times: Any,
                           coordinate_file: str | None = None, setup: str | None = None,
                           strict: bool = False, job: str = "ik", units: str = "header",
                           interpolation: str = "linear") -> dict[str, tuple[float, Any]]:
    """{coordinate: (weight, value)} of OpenSim IK coordinate tasks (a Setup_IK.xml's, or a
    scale setup's marker placer's): the model's default value, a manual value, or the
    setup's coordinate_file interpolated at ``times`` (N,); a task of a coordinate the model
    lacks is warned about and skipped. job: the job named at the start of what is said.
    units: "header", the coordinate_file's angles are in the units its header says (a file
    in radians is warned about: OpenSim reads it otherwise); "degrees", they are degrees
    whatever the header says, as OpenSim 4.6's tools read them (OpenSim's processing).
    interpolation: "linear" between the file's rows (np.interp: the end rows held beyond
    them); "spline", the natural quintic spline through them, as OpenSim 4.6's tools sample
    it (GCVSplineSet(5, ...), unfiltered; a parabola beyond the rows; at least 6 rows)."""
    if units not in ("header", "degrees"):
        raise ValueError(f"units: expected 'header' or 'degrees', got {units!r}")
    if interpolation not in ("linear", "spline"):
        raise ValueError(f"interpolation: expected 'linear' or 'spline', got "
                         f"{interpolation!r}")
    q0 = model.default_q
    defaults = dict(zip(model.q_names, np.zeros(model.nq) if q0 is None else q0))
    out: dict[str, tuple[float, Any]] = {}
    file_values = None
    from_file: list[str] = []
    for task in tasks:
        if task.name not in model.q_names:
            report(f"{job}: {in_file(setup)}coordinate task {task.name!r}: the model has no "
                   "such coordinate; skipped", strict=strict)
            continue
        if task.value_type == "manual_value":
            value = task.value
            _check_manual_value(model, task, setup, strict, job)
        elif task.value_type == "default_value":
            value = defaults[task.name]
        else:
            if file_values is None:
                if not coordinate_file:
                    raise IKSetupError(f"{setup}: coordinate task {task.name!r} takes its "
                                       "value from_file but <coordinate_file> is empty")
                from .formats import read_opensim
                refuse_devices(coordinate_file, "OpenSim table (.mot/.sto)",
                               named=f"{in_file(setup)}<coordinate_file>", error=IKSetupError)
                file_values = read_opensim(coordinate_file, model=model)
                if units == "degrees":
                    file_values = _as_opensim_reads(model, coordinate_file, file_values, job,
                                                    strict)
            if task.name not in file_values.names:
                raise IKSetupError(f"{coordinate_file}: no column {task.name!r} for its "
                                   "from_file coordinate task")
            col = file_values.q[:, file_values.names.index(task.name)]
            value = _sample(file_values.time, col, times, interpolation, coordinate_file, job)
            from_file.append(task.name)
        out[task.name] = (task.weight, value)
    if file_values is not None and coordinate_file and units == "header":
        _warn_radians_file(model, coordinate_file, file_values, from_file, job, strict)
    if file_values is not None and units == "degrees":     # OpenSim's processing
        _warn_state_path_columns(coordinate_file, file_values, from_file, job, strict)
    return out


def _warn_state_path_columns(path: str | None, values: Trajectory, names: Sequence[str],
                             job: str, strict: bool) -> None:
    """Warn when from_file tasks take their values from columns named by state path
    (/jointset/knee_r/knee_angle_r/value, a states table's): OpenSim 4.6's
    InverseKinematicsTool and the ScaleTool's marker placer look a task's column up by the
    coordinate's name only, and stop ("value for coordinate ... not found"), where urdf2dyn
    reads the coordinate the path names."""
    paths = [p for p, read_as in values.meta.get("state_paths", ()) if read_as in names]
    if not paths:
        return
    tool, who = (("ScaleTool's marker placer", "MarkerPlacer") if job == "scale" else
                 ("InverseKinematicsTool", "InverseKinematicsTool"))
    shown = ", ".join(repr(p) for p in paths[:3]) + (", ..." if len(paths) > 3 else "")
    one = len(paths) == 1
    first, coordinate = paths[0], paths[0].split("/")[-2]
    columns = "its column" if one else "its columns"
    read = "it as the coordinate it names" if one else "them as the coordinates they name"
    report(f"{job}: {path}: the from_file coordinate tasks read {columns} "
           f"{shown}, named by state path: OpenSim 4.6's {tool} looks a task's column up by "
           f"the coordinate's name only, and stops ('{who}: value for coordinate {coordinate} "
           f"not found'); urdf2dyn read {read}. "
           "For OpenSim's tool to run, rename each column to its coordinate's name "
           f"({first!r} -> {coordinate!r})", strict=strict)


def _sample(time: Any, column: Any, at: Any, interpolation: str, path: str | None,
            job: str) -> Any:
    """A coordinate_file's column at times ``at``: linearly, or through the natural quintic
    spline OpenSim's InverseKinematicsTool and marker placer make of it. OpenSim's spline
    needs 6 rows at increasing times (its tools fail otherwise): fewer are refused."""
    if interpolation == "linear":
        return np.interp(at, time, column)
    tool = "ScaleTool's marker placer" if job == "scale" else "InverseKinematicsTool"
    advice = ("OpenSim's processing samples it through the natural quintic spline OpenSim "
              f"4.6's {tool} makes of it (GCVSplineSet of degree 5)")
    if len(time) < 6:
        raise IKSetupError(f"{path}: {len(time)} rows; {advice}, which needs at least 6 (the "
                           "tool fails on fewer): give at least 6 rows, or run urdf2dyn's "
                           "own processing (it interpolates linearly)")
    with np.errstate(over="ignore"):        # 1e308 .. -1e308: -inf, still not increasing
        steps = np.diff(time)
    if not (steps > 0).all():
        k = int(np.argmax(steps <= 0))
        d = time_digits(time)
        raise IKSetupError(f"{path}: time {time[k + 1]:.{d}g} s (row {k + 2} of the table) "
                           f"does not follow {time[k]:.{d}g} s; {advice}, which needs "
                           "increasing times: remove or correct that row")
    from .splines import natural_quintic
    return natural_quintic(time, column, np.asarray(at, dtype=float))[:, 0]


def _warn_radians_file(model: Model, path: str, values: Trajectory, names: Sequence[str],
                       job: str, strict: bool) -> None:
    """Warn when a coordinate file in radians gives angles to from_file tasks: OpenSim 4.6's
    InverseKinematicsTool and the ScaleTool's marker placer convert their coordinate_file from
    degrees whatever its header says (they call convertDegreesToRadians unconditionally), so
    OpenSim pulls those coordinates towards 1/57 of the values urdf2dyn uses."""
    from .trajectory import angle_columns
    if values.meta.get("in_degrees", True):
        return
    angles = [n for n, a in zip(names, angle_columns(names, model)) if a]
    if not angles:
        return
    shown = ", ".join(repr(n) for n in angles[:3]) + (", ..." if len(angles) > 3 else "")
    tool = "ScaleTool's marker placer" if job == "scale" else "InverseKinematicsTool"
    said = ("inDegrees=no" if "indegrees" in values.meta.get("header", {}) else
            "no inDegrees line")
    report(f"{job}: {path}: its angles are radians ({said}), and urdf2dyn used them so "
           f"for the from_file coordinate tasks of {shown}; OpenSim 4.6's {tool} reads its "
           "coordinate_file as degrees whatever the header says, and would pull them towards "
           "values 57 times smaller. For OpenSim to give the same result, write the file in "
           "degrees with inDegrees=yes", strict=strict)


def _as_opensim_reads(model: Model, path: str, values: Trajectory, job: str,
                      strict: bool) -> Trajectory:
    """A coordinate_file's values as OpenSim 4.6's InverseKinematicsTool (and the ScaleTool's
    marker placer, job "scale") reads them: its
    numbers are degrees whatever its header says (the tool calls convertDegreesToRadians
    unconditionally, on the model's rotational coordinates). A file whose header says radians
    is converted so, and said: its from_file tasks then pull towards values 57 times smaller
    than written, as in OpenSim."""
    from .trajectory import angle_columns
    if values.meta.get("in_degrees", True):
        return values
    angles = angle_columns(values.names, model)
    if not angles.any():
        return values
    shown = [n for n, a in zip(values.names, angles) if a]
    said = ("inDegrees=no" if "indegrees" in values.meta.get("header", {}) else
            "no inDegrees line")
    tool = "ScaleTool's marker placer" if job == "scale" else "InverseKinematicsTool"
    report(f"{job}: {path}: its header says radians ({said}), but OpenSim 4.6's "
           f"{tool} reads its coordinate_file as degrees whatever the header "
           "says, and urdf2dyn's OpenSim processing (asked for, or a setup's) reads it so: the "
           f"angles of {', '.join(repr(n) for n in shown[:3])}{', ...' if len(shown) > 3 else ''}"
           " were taken for degrees. If they are radians, write the file in degrees with "
           "inDegrees=yes", strict=strict)
    q = values.q.copy()
    q[:, angles] = np.radians(q[:, angles])
    return replace(values, q=q)


def _check_manual_value(model: Model, task: IKTask, setup: str | None, strict: bool,
                        job: str) -> None:
    """Warn about a coordinate task's manual value outside its coordinate's range: OpenSim
    takes it in the coordinate's own units (rad or m), so a knee at 30 is 30 rad, and the fit
    would pull the model there without a word. An unclamped coordinate's range does not bind
    the fit (OpenSim's IK leaves it free): a value beyond it is meant, unless it is an angle
    beyond a full turn or a length beyond 100 m."""
    c = model.coordinates.get(task.name)
    value = task.value
    if c is None or not math.isfinite(value) or c.lower <= value <= c.upper:
        return
    turns = c.motion == "rotational" and abs(value) > 2 * math.pi    # no angle in rad
    far = c.motion != "rotational" and abs(value) > 100.0           # no lab in m: mm?
    if not (c.clamped or turns or far):
        return
    unit = {"translational": "m", "rotational": "rad"}.get(c.motion)
    advice = "give it in " + (unit or "the coordinate's units (rad or m)")
    if turns and c.lower <= math.radians(value) <= c.upper:
        advice = (f"it looks like degrees: OpenSim reads manual values in rad, "
                  f"write {math.radians(value):.6g}")
    unit_text = f" {unit}" if unit else ""
    report(f"{job}: {in_file(setup)}coordinate task {task.name!r}: manual_value {value:g} lies "
           f"outside the coordinate's range [{c.lower:g}, {c.upper:g}]{unit_text}; {advice}, "
           "or set the range in the model if the value is meant", strict=strict)


def solve(model: Model, data: Markers, weights: dict[str, float] | None = None,
          coordinate_tasks: Mapping[str, tuple[float, Any]] | None = None,
          locked: Mapping[str, float] | None = None,
          ranges: Mapping[str, tuple[float, float]] | None = None,
          time_range: tuple[float, float] | None = None, markers: list[Marker] | None = None,
          q0: NDArray[np.float64] | None = None, threads: int | None = 1,
          strict: bool = False, also_mid_range: bool = True,
          setup: str | None = None, job: str = "ik",
          undetermined_said: bool = False) -> IKResult:
    """Inverse kinematics of a marker recording.

    The model's coordinate couplers (``model.couplers``, an .osim's enforced
    CoordinateCouplerConstraints) hold through the fit, as in OpenSim's IK tool: each
    dependent coordinate follows its independent one, its derivative in the Jacobian
    (urdf2dyn.markers.inverse_kinematics).

    Parameters
    ----------
    model : urdf2dyn.Model
    data : urdf2dyn.biomech.markers.Markers
        The recording (m, model world frame), as urdf2dyn's .trc and C3D readers return it.
    weights : dict {marker: weight}, optional
        The markers fitted and their weights (OpenSim's applied IKMarkerTasks). Default:
        every model marker the recording has, weight 1. Markers named here that the model
        or the recording lack are warned about and skipped.
    coordinate_tasks : dict {coordinate: (weight, value)}, optional
        value: a number (rad or m) or (N,) per frame of ``data``.
    locked, ranges, q0
        As in urdf2dyn.markers.inverse_kinematics.
    time_range : (t0, t1), optional
        Frames with t0 <= time <= t1 only (OpenSim's time_range).
    markers : list of Marker, optional
        The model markers (default: ``model.markers``).
    threads : int, optional
        Segments solved in parallel (1, the default, is OpenSim's frame-to-frame warm start;
        None: urdf2dyn.get_num_threads()).
    strict : bool
        Warnings become errors.
    also_mid_range : bool
        Also start the first frame from every clamped coordinate at mid-range and keep the
        better fit (the default; False: from q0 only).
    setup : str, optional
        The setup file the weights come from, named in what is said about its marker tasks.
    job : str
        The job named at the start of what is said ("scale" for the marker placement of
        biomech.scale, which fits its static pose with this function).
    undetermined_said : bool
        The caller says the frames whose pose the markers do not determine, and does not
        keep the fit there (:func:`measured_frames`, as a trial does): what is said of a
        coupled model's coordinate held where its markers are missing (in the first frames,
        or a gap after them) leaves those out.

    Returns
    -------
    IKResult
        ``motion``: time (M,) and q (M, nq) named ``model.q_names``; ``solution``: the
        per-frame marker errors.
    """
    if not isinstance(data, Markers):
        raise TypeError(f"{job}: data: expected urdf2dyn.biomech.markers.Markers (what "
                        f"read_trc and read_c3d return), got {type(data).__name__}")
    markers = list(model.markers) if markers is None else list(markers)
    if not markers:
        raise ValueError(f"{job}: the model has no markers: give a marker file (CSV name, link, "
                         "x, y, z; urdf2dyn.markers.read_markers) or load an .osim model with "
                         "a MarkerSet")
    have = {n: k for k, n in enumerate(data.labels)}
    model_names = {m.name for m in markers}
    if weights is None:
        weights = {m.name: 1.0 for m in markers if m.name in have}
    task = f"{in_file(setup)}marker task"
    recording = data.meta.get("source") or "the marker file"
    for name in sorted(set(weights) - model_names):
        report(f"{job}: {task} {name!r}: the model has no such marker; skipped",
               strict=strict)
    for name in sorted((set(weights) & model_names) - set(have)):
        report(f"{job}: {task} {name!r}: {recording} has no such marker; skipped",
               strict=strict)
    used = [m for m in markers if m.name in have and weights.get(m.name, 0) > 0]
    if not used:
        raise ValueError(f"{job}: no marker of the model is both in the recording and weighted: "
                         f"model markers {sorted(model_names)[:6]}..., recording "
                         f"{data.labels[:6]}...")
    t = np.asarray(data.time, dtype=float)
    rows = np.arange(t.size)
    if time_range is not None:
        t0, t1 = time_range
        eps = 1e-9 * max(1.0, abs(t0), abs(t1))
        rows = rows[(t >= t0 - eps) & (t <= t1 + eps)]
        if rows.size == 0:
            raise ValueError(f"{job}: time_range {t0} .. {t1} holds no frame of the recording "
                             f"({t[0] if t.size else 'empty'} .. {t[-1] if t.size else ''} s)")
    xyz = np.asarray(data.xyz, dtype=float)[rows][:, [have[m.name] for m in used]]
    for k, m in enumerate(used):
        if np.all(np.isnan(xyz[:, k])):
            report(f"{job}: marker {m.name!r} is missing in every frame; it is not fitted",
                   strict=strict)
    tasks: dict[str, tuple[float, Any]] = {}
    for name, (weight, value) in (coordinate_tasks or {}).items():
        value = np.asarray(value, dtype=float)
        tasks[name] = (weight, value[rows] if value.ndim == 1 else value)
    for c in model.couplers:
        if c.dependent in (locked or {}):
            report(f"{job}: coordinate {c.dependent!r} is locked and is the dependent coordinate "
                   f"of a coupler (CoordinateCouplerConstraint, from {c.independent!r}): it "
                   "stays locked and the coupler is not kept; unlock it or disable the "
                   "constraint", strict=strict)
    fitted = {m.name: weights[m.name] for m in used}
    present = np.all(np.isfinite(xyz), axis=2)
    moves = _moving_columns(model, _start_pose(model, q0), used)
    unmoved_outside = _unmoved_outside_range(model, moves, present, tasks, locked, ranges, q0)
    unmarked_coupled = _unmarked_at_first_on_coupled_model(model, moves, present, tasks, locked,
                                                           ranges, q0, unmoved_outside)
    gaps_coupled = _gaps_on_coupled_model(model, moves, present, tasks, locked, ranges)
    start_given = q0 is not None
    if also_mid_range:
        q0 = _first_frame_start(model, xyz, used, fitted, tasks, locked, ranges, q0, moves)
    sol = inverse_kinematics(model, xyz, markers=used, weights=fitted, tasks=tasks,
                             locked=locked, ranges=ranges, q0=q0, threads=threads)
    first = np.atleast_2d(sol.q)[0]
    motion = Trajectory(time=t[rows], q=np.atleast_2d(sol.q), names=list(model.q_names))
    determined = determined_frames(model, motion.q, used, present,
                                   [n for n, (w, _) in tasks.items() if w > 0], locked)
    if undetermined_said:           # those frames are said, and not kept, by the caller
        unmarked_coupled = {n: v for n, v in unmarked_coupled.items()
                            if v[0] == len(determined) or determined[:v[0]].any()}
        gaps_coupled = {n: f[determined[f]] for n, f in gaps_coupled.items()
                        if determined[f].any()}
    _warn_held_outside_range(model, unmoved_outside, first, t[rows], start_given, strict, job)
    _warn_unmarked_at_first_on_coupled_model(unmarked_coupled, model, first, t[rows], strict,
                                             job)
    _warn_gaps_on_coupled_model(gaps_coupled, model, motion.q, t[rows], ranges, strict, job)
    return IKResult(motion, sol, determined)


def measured_frames(result: IKResult, source: str, named: ColumnOptions = LIBRARY_COLUMNS
                    ) -> tuple[IKResult, list[str]]:
    """The IK result without the frames whose pose the markers do not determine (its
    ``determined``), and the warnings saying so: those at the trial's ends are cut, those
    inside become gaps in the coordinates (NaN), which the trial fills when short (its
    max_gap) and refuses when long. Never used silently: a frame that two markers fit
    exactly carries the previous frame's pose, and its accelerations spikes of kilonewtons.
    named: the trial's options, as the warning names them (ColumnOptions)."""
    det = result.determined
    if det is None or det.all():
        return result, []
    t = result.motion.time
    d = time_digits(t)
    keep = np.flatnonzero(det)
    a, b = keep[0], keep[-1] + 1
    inside = np.flatnonzero(~det[a:b]) + a
    messages = []
    cut = np.r_[np.arange(a), np.arange(b, len(t))]
    if len(cut):
        spans = [f"{t[0]:.{d}g} .. {t[a - 1]:.{d}g} s" if a else "",
                 f"{t[b]:.{d}g} .. {t[-1]:.{d}g} s" if b < len(t) else ""]
        ends = " and ".join(x for x in spans if x)
        messages.append(f"{source}: the markers present do not determine the pose in "
                        f"{len(cut)} frames at the trial's ends ({ends}): cut; the trial runs "
                        f"{t[a]:.{d}g} .. {t[b - 1]:.{d}g} s")
    if len(inside):
        at = ", ".join(f"{t[k]:.{d}g}" for k in inside[:8]) + (" ..." if len(inside) > 8 else "")
        messages.append(f"{source}: the markers present do not determine the pose in "
                        f"{len(inside)} frames inside the trial (t = {at} s): they are gaps "
                        "in the coordinates, filled when short"
                        + named.said("max_gap", " ({})", "N")
                        + ", else the trial stops; mend the marker data there")
    q = np.array(result.motion.q, dtype=float)
    q[inside] = np.nan
    rows = slice(a, b)
    sol = result.solution
    cut_sol = IKSolution(sol.q[rows] if np.ndim(sol.q) == 2 else sol.q, sol.marker_names,
                         sol.marker_error[rows], sol.squared[rows], sol.rms[rows],
                         sol.max[rows], list(sol.worst)[rows], sol.iterations[rows])
    motion = Trajectory(time=t[rows], q=q[rows], names=list(result.motion.names))
    return IKResult(motion, cut_sol, det[rows]), messages


def determined_frames(model: Model, q: NDArray[np.float64], markers: Sequence[Marker],
                      present: NDArray[np.bool_], tasks: Sequence[str] = (),
                      locked: Mapping[str, float] | None = None) -> NDArray[np.bool_]:
    """(N,) bool: whether frame k's fit is determined as well as the trial's best frame.

    The fit at q (N, nq) is determined where the Jacobian of the markers present in the frame
    (present (N, k), markers fitted) and of the coordinate tasks, over the coordinates the fit
    moves (not locked; a coupler's dependent coordinate folded into its independent one),
    has the rank the best frames have. A frame with fewer (e.g. two markers seen at a trial's
    end) leaves coordinates to wherever the previous frame put them: its pose is not measured.
    """
    q = np.atleast_2d(np.asarray(q, dtype=float))
    present = np.atleast_2d(np.asarray(present, dtype=bool))
    J = np.zeros((len(q), 3 * len(markers) + len(tasks), model.nv))
    for k, m in enumerate(markers):
        rows = model.jacobian(q, m.link, point=m.position)[:, :3, :]
        J[:, 3 * k:3 * k + 3] = np.where(present[:, k, None, None], rows, 0.0)
    for r, name in enumerate(tasks):
        J[:, 3 * len(markers) + r, model._v_index(name)[1]] = 1.0
    kept = {c.dependent for c in model.couplers} - set(locked or {})
    for (_, d), (_, i), f in reversed(list(model._coupler_terms(q))):
        if model.v_names[d] in kept:                 # dq_d = s f'(q_i) dq_i
            J[:, :, i] += f[:, 1, None] * J[:, :, d]
    drop = kept | set(locked or {})
    free = [k for k, n in enumerate(model.v_names) if n not in drop]
    A = J[:, :, free]
    sv = np.linalg.svd(A, compute_uv=False)
    scale = sv.max(axis=1, keepdims=True)
    rank = (sv > 1e-9 * np.where(scale > 0, scale, 1.0)).sum(axis=1)
    return rank >= rank.max()


def _first_frame_start(model, xyz, used, weights, tasks, locked, ranges, q0, moves):
    """Where the first frame starts: q0, or q0 with every bounded coordinate at mid-range,
    whichever fits the first frame better.

    The fit is local: from a default pose far from the subject's (arms down, an elbow at its
    bound, the pelvis turned), Levenberg-Marquardt can end in another minimum than the one
    OpenSim's assembler finds (Rajagopal's static trial: 44.7 mm marker RMS against 20.4 mm).
    Later frames start from the previous one, so only the first needs a second start.

    A coordinate no marker moves (in the first frame: a marker missing there moves nothing)
    stays where the chosen start puts it, which is where OpenSim's assembler leaves it. For a
    model without constraints it minimises by L-BFGS-B, and a coordinate the objective does
    not depend on keeps its default (lenhart2015 of OpenSim-JAM: the unmarked neck at 0): the
    mid-range start keeps it there too. With constraints (the
    couplers) it minimises by an interior-point method, whose barrier moves such a coordinate
    off its start towards mid-range by as much as its iterations happen to take: all the way
    on LaiUhlrich2022 of OpenCap at accuracy 1e-8 (the unmarked mtp_angle within 0.005 degree
    of mid-range, tests/biomech/test_opencap.py; not at its setup's 1e-5), 0.003 of 0.3 rad
    on a small arm with one coupler. No rule follows both; mid-range, where the published
    model's answer lies, is kept, and said (_warn_unmarked_at_first_on_coupled_model)."""
    ranges = ranges or {}
    base = _start_pose(model, q0)
    if xyz.shape[0] == 0 or moves is None:      # no frame, or a q0 the fit refuses
        return q0
    bounded = {n: (lo, hi) for n, (lo, hi) in ranges.items()
               if n in model.q_names and np.isfinite(lo) and np.isfinite(hi)
               and n not in (locked or {})}
    if not bounded:
        return q0
    middle = base.copy()
    pulled = _pulled(tasks)
    # a marker missing in the first frame moves nothing there: OpenSim's IK leaves what only
    # it would move at its default until it appears
    present = np.all(np.isfinite(xyz[:1]), axis=2)
    held = set() if model.couplers else set(_frames_unmoved(model, moves, present,
                                                            set(bounded) - pulled))
    for n, (lo, hi) in bounded.items():
        if n not in held:
            middle[model.q_names.index(n)] = 0.5 * (lo + hi)
    first = {k: (w, np.asarray(v, dtype=float).reshape(-1)[:1]) for k, (w, v) in tasks.items()}
    w = np.array([weights[m.name] for m in used])
    cost, q = [], []
    for start in (q0, middle):
        sol = inverse_kinematics(model, xyz[:1], markers=used, weights=weights, tasks=first,
                                 locked=locked, ranges=ranges, q0=start, threads=1)
        e = sol.marker_error[0]
        seen = np.isfinite(e)               # the objective the fit minimises (u2d_ik.c)
        c = float(np.sum(w[seen] * e[seen] ** 2) / max(np.sum(w[seen]), 1e-300))
        for name, (weight, value) in first.items():
            c += weight * (sol.q[0, model.q_names.index(name)] - value[0]) ** 2
        cost.append(c)
        q.append(sol.q[0])
    return q[1] if cost[1] < cost[0] else q0


def _start_pose(model, q0):
    """Where the fit starts: q0, else the neutral pose (a URDF has no default pose; not q = 0,
    whose floating root would have a zero quaternion, no pose: the fit refuses it)."""
    return model.neutral() if q0 is None else np.array(q0, dtype=float)


def _pulled(tasks):
    """The coordinates a coordinate task pulls: those of weight > 0 (weight 0 pulls nothing)."""
    return {n for n, (weight, _) in tasks.items() if weight > 0}


def _moved_otherwise(model, tasks, locked):
    """The coordinates something other than a marker moves or holds: a lock, a coupler (either
    end) or a coordinate task that pulls."""
    coupled = {n for c in model.couplers for n in (c.dependent, c.independent)}
    return set(locked or {}) | coupled | _pulled(tasks)


def _unmoved_outside_range(model, moves, present, tasks, locked, ranges, q0):
    """{coordinate: (start, lo, hi, frames)} of the bounded coordinates that start outside
    their range with nothing to move them in their first `frames` frames (every frame, or
    those before a marker that moves it appears; present (N, markers)): no fitted marker
    present, coordinate task, lock or coupler. A URDF's zero pose, its only start, lies
    outside a joint's limits that exclude 0 (an .osim's clamped default never does: OpenSim
    refuses to load it)."""
    base = _start_pose(model, q0)
    if base.shape != (model.nq,):
        return {}                       # inverse_kinematics refuses it, naming q0
    moved_otherwise = _moved_otherwise(model, tasks, locked)
    outside = {n: (lo, hi) for n, (lo, hi) in (ranges or {}).items()
               if n in model.q_names and n not in moved_otherwise
               and not lo <= base[model.q_names.index(n)] <= hi}
    unmoved = _frames_unmoved(model, moves, present, set(outside))
    return {n: (base[model.q_names.index(n)], *outside[n], unmoved[n]) for n in sorted(unmoved)}


def _unmarked_at_first_on_coupled_model(model, moves, present, tasks, locked, ranges, q0,
                                        unmoved_outside):
    """{coordinate: (frames, start, mid-range)} of a model with couplers: the bounded
    coordinates (not in unmoved_outside, said there) that no fitted marker present moves in
    their first `frames` frames (every frame, len(present), when none ever does), and
    nothing else moves (_moved_otherwise). Ours holds such a coordinate where the first
    frame's start leaves it (mid-range when that start wins, _first_frame_start);
    OpenSim's interior-point IK moves it from its start towards mid-range, in each frame
    by as much as its iterations take: 0.3017 from 0.3 towards 0.6 on
    tests/biomech/test_ik_ranges.py's coupled arm, and on OpenCap's LaiUhlrich2022 walk
    the unmarked mtp_angle_r all the way to -7.5 degrees from t = 0 at accuracy 1e-8, but
    -6.1 .. -6.8 degrees at its Setup_IK.xml's 1e-5 and -3.1 .. -3.4 from t = 0.5 s at
    1e-8. No rule gives OpenSim's value, so it is said. One started at mid-range stays
    there in both: nothing differs, nothing is said."""
    base = _start_pose(model, q0)
    if not model.couplers or base.shape != (model.nq,):
        return {}
    moved_otherwise = _moved_otherwise(model, tasks, locked)
    bounded = {n for n, (lo, hi) in (ranges or {}).items()
               if n in model.q_names and np.isfinite(lo) and np.isfinite(hi)
               and n not in moved_otherwise and n not in unmoved_outside
               and abs(base[model.q_names.index(n)] - 0.5 * (lo + hi)) > 1e-9}
    return {n: (k, base[model.q_names.index(n)], 0.5 * sum(ranges[n]))
            for n, k in sorted(_frames_unmoved(model, moves, present, bounded).items())}


def _first_frames(times, frames):
    """The first `frames` of the fit, as said: by count and time (with the digits that tell
    the fit's frames apart)."""
    d = time_digits(times)
    if frames == 1:
        return f"the first frame (t = {times[0]:.{d}g} s)"
    return f"the first {frames} frames ({times[0]:.{d}g} .. {times[frames - 1]:.{d}g} s)"


def _opensims_fit(job):
    """OpenSim's tool that does the fit of `job`, as said: the IK tool's, or for scaling its
    marker placer's (MarkerPlacer, which fits the static pose by the same solver)."""
    return ("OpenSim's marker placer (the ScaleTool's MarkerPlacer)" if job == "scale"
            else "OpenSim's IK")


def _warn_held_outside_range(model, unmoved_outside, first, times, start_given, strict, job):
    """Say where the fit held each of unmoved_outside (_unmoved_outside_range), a value no
    marker measured: its first frame's (first), the same in every frame until a marker that
    moves it appears (times: the fit's frames). Without couplers that is the nearest end of
    its range, as OpenSim's IK holds a clamped coordinate started outside its range; a
    coupled model's fit keeps its mid-range start, where OpenSim's interior-point IK puts it
    too (tests/biomech/test_ik_ranges.py)."""
    kind = "coordinate" if model.is_opensim else "joint"
    origin = ("its value in the start pose, model.default_q or q0" if start_given
              else "the zero pose: a URDF has no default" if not model.is_opensim
              and model.default_q is None else "the zero pose: no q0 given")
    for n, (start, lo, hi, frames) in unmoved_outside.items():
        held = first[model.q_names.index(n)]
        where = (f"the nearest end of its range, as {_opensims_fit(job)} holds a clamped "
                 "coordinate started outside its range"
                 if abs(held - min(max(start, lo), hi)) <= 1e-9 else
                 f"where the fit's start at mid-range leaves it, as {_opensims_fit(job)} "
                 "does on a model with couplers")
        when = ("" if frames == len(times) else
                f" in {_first_frames(times, frames)}, where its markers are missing")
        report(f"{job}: {kind} {n!r} starts at {start:g} ({origin}), outside its range "
               f"{lo:g} .. {hi:g}, and no fitted marker nor coordinate task moves it{when}: it "
               f"is held at {held:g}, {where}; give it a marker that moves it, or a start "
               "inside its range (from Python: model.default_q, where fit, run_setup and "
               "scale start; q0= of urdf2dyn.biomech.ik.solve)",
               strict=strict, stacklevel=None)


def _warn_unmarked_at_first_on_coupled_model(unmarked, model, first, times, strict, job):
    """Say that each of unmarked (_unmarked_at_first_on_coupled_model) is held, until its
    markers appear (or in every frame: _warn_unmarked_on_coupled_model), at a value (its
    first frame's, first) that no marker measured and that OpenSim's IK does not give."""
    kind = "coordinate" if model.is_opensim else "joint"
    never = [(n, first[model.q_names.index(n)], start, mid)
             for n, (frames, start, mid) in unmarked.items() if frames == len(times)]
    if len(never) == 1:
        _warn_unmarked_on_coupled_model(kind, *never[0], strict, job)
    elif never:
        _warn_several_unmarked_on_coupled_model(kind, never, strict, job)
    for n, (frames, start, mid) in unmarked.items():
        if frames == len(times):
            continue
        report(f"{job}: {kind} {n!r}: no fitted marker present in "
               f"{_first_frames(times, frames)} moves it, its markers missing there, and the "
               f"model has couplers: it is held at {first[model.q_names.index(n)]:g} there, "
               "where the first frame's start leaves it, a value no marker measured; "
               f"{_opensims_fit(job)} (an interior-point method, on a model with constraints) "
               "moves it there from "
               "its start towards mid-range by as much as its iterations happen to take, so the "
               "two differ in those frames; fit from where its markers appear (time_range) or "
               "give it a marker present from the first frame", strict=strict, stacklevel=None)


def _warn_unmarked_on_coupled_model(kind, name, held, start, mid, strict, job):
    """Say that coordinate `name`, which no fitted marker moves in any frame, is held at a
    value no marker measured (held: where the first frame's start leaves it), and that
    OpenSim's IK of a coupled model gives another (_unmarked_at_first_on_coupled_model)."""
    where = ("the middle of its range, where the first frame's start at mid-range leaves it"
             if abs(held - mid) <= 1e-9 else "its start")
    report(f"{job}: {kind} {name!r}: no fitted marker moves it in any frame, and the model has "
           f"couplers: it is held at {held:g} in every frame, {where}, a value no marker "
           f"measured; {_opensims_fit(job)} (an interior-point method, on a model with "
           "constraints) "
           f"moves it in each frame from its start {start:g} towards mid-range {mid:g} by as "
           "much as its iterations happen to take, so the two differ unless they take it all "
           "the way; give it a marker or a coordinate task (both fits then follow it), or "
           "lock it in the model (both then hold it at its value)",
           strict=strict, stacklevel=None)


def _warn_several_unmarked_on_coupled_model(kind, never, strict, job):
    """_warn_unmarked_on_coupled_model's words for several coordinates at once (never:
    (name, held, start, mid-range) of each), one warning for the one cause (OpenCap's
    LaiUhlrich2022: both mtp angles, no marker on the toes)."""
    names = [repr(n) for n, *_ in never]
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    values = "; ".join(f"{n!r} at {held:g} (start {start:g}, mid-range {mid:g})"
                       for n, held, start, mid in never[:4])
    more = f"; and {len(never) - 4} more" if len(never) > 4 else ""
    report(f"{job}: {kind}s {listed}: no fitted marker moves them in any frame, and the model "
           "has couplers: each is held in every frame where the first frame's start leaves "
           f"it, a value no marker measured ({values}{more}); {_opensims_fit(job)} (an "
           "interior-point method, on a model with constraints) moves each in each frame "
           "from its start towards mid-range by as much as its iterations happen to take, so "
           "the two differ unless they take it all the way; give them markers or coordinate "
           "tasks (both fits then follow them), or lock them in the model (both then hold "
           "them at their values)", strict=strict, stacklevel=None)


def _gaps_on_coupled_model(model, moves, present, tasks, locked, ranges):
    """{coordinate: frames (indices)} of a model with couplers: for each bounded coordinate
    nothing else moves (_moved_otherwise), the frames after a fitted marker that moves it is
    first present in which none is (a gap in its markers, or their end). Ours holds it
    there at the frame before's value, the fit's warm start; OpenSim's interior-point IK
    moves it in each such frame towards mid-range by as much as its iterations take (from
    0.8 to 0.7576 over five frames of tests/biomech/test_ik_ranges.py's coupled arm; a model
    without couplers holds it in both: OpenSim's L-BFGS-B leaves what its objective does not
    depend on where it is)."""
    if not model.couplers or moves is None:
        return {}
    moved_otherwise = _moved_otherwise(model, tasks, locked)
    bounded = {n for n, (lo, hi) in (ranges or {}).items()
               if n in model.q_names and np.isfinite(lo) and np.isfinite(hi)
               and n not in moved_otherwise}
    gaps = {}
    for n, alone in sorted(_unmoved_masks(model, moves, present, bounded).items()):
        if not alone.all():
            seen = int(np.argmin(alone))
            frames = np.flatnonzero(alone[seen:]) + seen
            if frames.size:
                gaps[n] = frames
    return gaps


def _warn_gaps_on_coupled_model(gaps, model, q, times, ranges, strict, job):
    """Say, for gaps (_gaps_on_coupled_model), the frames where the fit holds each
    coordinate at its value in the frame before, a value no marker measured there and not
    OpenSim's (q: the fit's coordinates, times: its frames'): one warning for all the
    coordinates of the same frames (a recording without any marker there names every one).
    One held at mid-range is OpenSim's too (its barrier's minimum): nothing differs, nothing
    is said."""
    kind = "coordinate" if model.is_opensim else "joint"
    alike: dict[tuple[int, ...], list[str]] = {}
    for n, frames in gaps.items():
        if np.any(np.abs(q[frames, model.q_names.index(n)] - 0.5 * sum(ranges[n])) > 1e-9):
            alike.setdefault(tuple(frames), []).append(n)
    for frames, names in alike.items():
        frames = np.array(frames)
        shown = ", ".join(f"{n!r} (mid-range {0.5 * sum(ranges[n]):g})" for n in names[:4])
        more = f" and {len(names) - 4} more" if len(names) > 4 else ""
        one = len(names) == 1
        report(f"{job}: {kind if one else kind + 's'} {shown}{more}: no fitted marker present "
               f"moves {'it' if one else 'them'} in {counted(len(frames), 'frame')} after "
               f"{'its' if one else 'their'} markers were first seen (t = "
               f"{_frame_spans(times, frames)} s), the markers missing there, and the model has "
               f"couplers: {'it is' if one else 'each is'} held there at its value in the frame "
               f"before, a value no marker measured; {_opensims_fit(job)} (an interior-point "
               f"method, on a model with constraints) moves {'it' if one else 'each'} there "
               "towards its "
               "mid-range by as much as its iterations happen to take, so the two differ there; "
               "mend the markers there (fill their gaps)", strict=strict, stacklevel=None)


def _frame_spans(times, frames, limit=4):
    """'0.03 .. 0.07, 0.12'-style text of frames (increasing indices into times): each run
    of consecutive frames by its first and last time, the first `limit` runs, with the
    digits that tell the frames apart."""
    d = time_digits(times)
    runs = np.split(frames, np.flatnonzero(np.diff(frames) > 1) + 1)
    text = ", ".join(f"{times[r[0]]:.{d}g}" + (f" .. {times[r[-1]]:.{d}g}" if len(r) > 1 else "")
                     for r in runs[:limit])
    return text + (", ..." if len(runs) > limit else "")


def _moving_columns(model, q, used):
    """(len(used), nv) bool: which coordinates' velocity each fitted marker's position moves
    (its Jacobian column at pose q, the fit's start, is not zero). Built once per fit and
    read by every first-frame helper; None when q is not a pose of the model (wrong size:
    inverse_kinematics refuses it, naming q0)."""
    if q.shape != (model.nq,):
        return None
    return np.array([np.any(model.jacobian(q, m.link, point=m.position)[:3] != 0.0, axis=0)
                     for m in used]).reshape(len(used), model.nv)


def _frames_unmoved(model, moves, present, names):
    """{coordinate: frames} of those of `names` (ranges') that no fitted marker present moves
    (moves: _moving_columns) in the first `frames` frames, frames >= 1 (every frame,
    len(present), when none ever does). present: (N, len(used)) bool. A name whose q is not
    its own velocity (a floating root's quaternion) is refused as inverse_kinematics refuses
    it in ranges: it has no column."""
    unmoved = {}
    for n, alone in _unmoved_masks(model, moves, present, names).items():
        frames = int(np.argmin(alone)) if not alone.all() else len(present)
        if frames:
            unmoved[n] = frames
    return unmoved


def _unmoved_masks(model, moves, present, names):
    """{coordinate: (N,) bool} of `names`: the frames in which no fitted marker present moves
    it (_frames_unmoved's moves and present)."""
    from ..model import _coordinate
    return {n: ~np.any(present[:, moves[:, _coordinate(model, n, "ranges")[1]]], axis=1)
            for n in names}


def load_model(path: str | os.PathLike[str], strict: bool = False) -> Model:
    """urdf2dyn.load(path, strict=strict) for a marker fit: the model's force elements are
    left unsaid, even under strict (a spring, ligament or foot contact moves no marker, and
    OpenSim's IK tool leaves them out too, so the moments they would add are no concern of a
    fit), and couplers that cannot be applied are refused (URDFError naming them) instead of
    warned about first. What `urdf2dyn ik` loads, from a setup's model_file or --model."""
    model = _load_unchecked(path, strict)
    model._check_couplers()
    return model


def _load_unchecked(path, strict):
    """load_model before its coupler check: the file's own faults, apart from the refusal."""
    from ..model import COUPLERS_REFUSED, PASSIVE_FORCES, load_leaving_unsaid
    return load_leaving_unsaid(
        path, lambda text: COUPLERS_REFUSED in text or PASSIVE_FORCES in text, strict)


def run_setup(setup: str | os.PathLike[str] | IKSetup, output: str | None = None,
              model: Model | None = None, markers: Sequence[Marker] | None = None,
              marker_data: Markers | None = None,
              read_marker_file: Callable[[str], Markers] | None = None,
              threads: int | None = 1, strict: bool = False,
              marker_file: str | os.PathLike[str] | None = None,
              processing: str = "urdf2dyn",
              named: ColumnOptions = LIBRARY_COLUMNS) -> IKResult:
    """Run an OpenSim ``Setup_IK.xml`` as OpenSim's IK tool does.

    Parameters
    ----------
    setup : path or IKSetup
    output : str, optional
        The .mot to write (default: the setup's output_motion_file; "" writes nothing).
    model : urdf2dyn.Model, optional
        Instead of loading the setup's model_file (e.g. the URDF an .osim was exported from).
    markers : list of Marker, optional
        The model markers (default: ``model.markers``).
    marker_data : urdf2dyn.biomech.markers.Markers, optional
        Instead of reading the setup's marker_file.
    read_marker_file : callable, optional
        path -> Markers (default: urdf2dyn's .trc and .c3d readers, in the recording's
        frame as OpenSim reads them).
    threads, strict
        As in :func:`solve`.
    marker_file : path, optional
        The marker recording to fit instead of the setup's marker_file (read as that is).
    processing : "urdf2dyn" or "opensim"
        How the setup's ``coordinate_file`` (its ``from_file`` coordinate tasks' values) is
        read: "urdf2dyn" (default) in the units its header says, interpolated linearly at
        the marker frames; "opensim" in degrees whatever its header says, through its
        natural quintic splines, as OpenSim's InverseKinematicsTool reads it
        (:func:`coordinate_file_reader`). The rest of the fit is the same under both.
    named : ColumnOptions
        How the caller gives the model and the marker recording, as the refusal of a setup
        leaving one unassigned says (default: this function's keywords).

    Returns
    -------
    IKResult
    """
    reading = coordinate_file_reader(processing_named(processing))
    with guarding():
        return _run_setup(setup, output, model, markers, marker_data, read_marker_file,
                          threads, strict, marker_file, reading, named)


def setup_inputs(setup: IKSetup) -> list[tuple[str, str | None]]:
    """The files an IK setup (read already) names, as (what, path): itself, its model, its
    marker recording, its from_file tasks' coordinate file and the file its IKTaskSet was
    read from (``<IKTaskSet file="...">``, named by the tag). Each is an input whether or
    not a run reads it (a model or recording given instead), so no output may be one."""
    return [("setup", setup.path), ("model", setup.model_file),
            ("marker", setup.marker_file),
            ("coordinate", setup.coordinate_file)] + list(setup.set_files)


def _run_setup(setup, output, model, markers, marker_data, read_marker_file, threads, strict,
               marker_file, reading, named):
    s = setup if isinstance(setup, IKSetup) else read_ik_setup(setup, strict=strict)
    note_inputs(setup_inputs(s))             # before a marker_file given replaces its own
    if marker_file is not None:
        s = replace(s, marker_file=os.path.abspath(marker_file))
        note_input(s.marker_file, "marker")
    if not any(w > 0 for w in s.marker_weights().values()):
        raise IKSetupError(f"{s.path}: <IKTaskSet> {_no_marker_task(s)}: OpenSim's IK fits "
                           "only the markers its IKMarkerTasks name; add one per marker to "
                           "fit (<IKMarkerTask name=\"RASI\"><apply>true</apply><weight>1"
                           "</weight></IKMarkerTask>)")
    out = s.output_motion_file if output is None else output
    results = _results_directory(s)
    if os.path.exists(results) and not os.path.isdir(results):
        raise IKSetupError(f"{s.path}: <results_directory> {results}: a file, not a "
                           "directory: name another")
    errors = _errors_path(out, s, output is not None) if out and s.report_errors else None
    made = results if output is None and not os.path.isdir(results) else None
    check_outputs([(f"{s.path}: <output_motion_file>" if output is None else "output",
                    out or None), ("report_errors", errors)],
                  created=[(f"{s.path}: <results_directory>", made)])
    if model is None:
        if not s.model_file:
            raise IKSetupError(f"{s.path}: <model_file> is not set (empty or Unassigned): "
                               f"give the model ({named.ik_model})")
        from ..model import FindingRefused
        try:
            model = _load_unchecked(s.model_file, strict)
        except FindingRefused:
            raise                           # names the model's file and line, says what to do
        except (OSError, ValueError) as e:
            raise IKSetupError(f"{s.path}: <model_file> {s.model_file}: cannot be loaded "
                               f"({e}); give another ({named.ik_model})") from None
        model._check_couplers()             # names the couplers and the model's file
    if out:
        _refuse_an_unwritable_motion(out, model, s)
    if marker_data is None:
        if not s.marker_file:
            raise IKSetupError(f"{s.path}: <marker_file> is not set (empty or Unassigned): "
                               f"give the marker recording ({named.marker_file})")
        if marker_file is None:             # the setup's: named by its element
            refuse_devices(s.marker_file, "marker (.trc/.c3d)",
                           named=f"{s.path}: <marker_file>", error=IKSetupError)
        if read_marker_file is None:
            from .formats import read_markers
            marker_data = read_markers(s.marker_file, strict=strict)
        else:
            marker_data = read_marker_file(s.marker_file)
    result = fit(model, marker_data, IKSettings.from_setup(s, threads), markers, strict,
                 **reading)
    source = marker_data.meta.get("source") or s.marker_file or s.path
    _report_poor_fit(result, source, strict)
    _report_unclamped_beyond_range(result, model, source, strict)
    _report_steps(result, model, source, strict)
    if out:
        if made:                        # OpenSim's IK tool creates its results directory
            os.makedirs(made, exist_ok=True)
        _write(out, result, model, s, errors)
        result.written = tuple(os.path.abspath(p) for p in (out, errors) if p)
    return result


def _report_poor_fit(result, source, strict):
    """Marker errors beyond OpenSim's best-practice bands, warned about as urdf2dyn torques
    warns (plausibility.ik_fit): a model and a recording that do not belong together (another
    model version, units, lab axes) must not pass with exit status 0 and no word."""
    from .plausibility import ik_fit
    sol = result.solution
    advice = ("check that the marker file and the model belong together (the markers' units "
              "and lab axes: OpenSim models are y-up), the model's scale and marker placement, "
              "and the setup's marker weights")
    for message in ik_fit(result.motion.time, sol.rms, sol.max, list(sol.worst), source,
                          advice):
        report(message, strict=strict, error=IKSetupError, stacklevel=None)


def _report_unclamped_beyond_range(result, model, source, strict):
    """Coordinates that are not clamped and that the fit takes beyond their range
    (urdf2dyn.biomech.plausibility.ik_ranges)."""
    from .plausibility import ik_ranges
    for message in ik_ranges(model, result.motion.time, result.motion.q, source):
        report(message, strict=strict, error=IKSetupError, stacklevel=None)


def _report_steps(result, model, source, strict):
    """Coordinates the fit steps by more than half a turn between two frames
    (urdf2dyn.biomech.plausibility.steps): said here, where the turn is made, and not only by
    the torques computed from the motion later."""
    from .plausibility import steps
    for message in steps(model, result.motion.time, result.motion.q, source):
        report(message, strict=strict, error=IKSetupError, stacklevel=None)


def _no_marker_task(s):
    """What the setup's IKTaskSet lacks, in words."""
    markers = [t for t in s.tasks if t.kind == "marker"]
    if not s.tasks:
        return "is empty or missing"
    if not markers:
        return f"has {len(s.tasks)} coordinate task(s) but no IKMarkerTask"
    off = [t.name for t in markers if not t.apply]
    zero = [t.name for t in markers if t.apply and not t.weight > 0]
    parts = ([f"{len(off)} not applied (<apply>false</apply>: {', '.join(off[:4])}"
              f"{', ...' if len(off) > 4 else ''})"] if off else []) + \
        ([f"{len(zero)} of weight 0 ({', '.join(zero[:4])}{', ...' if len(zero) > 4 else ''})"]
         if zero else [])
    return f"applies none of its {len(markers)} IKMarkerTasks: " + ", ".join(parts)


def _results_directory(s):
    """The setup's results_directory (relative to its folder; the folder when empty)."""
    return s.results_directory or os.path.dirname(os.path.abspath(s.path))


def _errors_path(out, s, given=False):
    """Where the marker errors go: the setup's results_directory, as OpenSim's IK tool
    writes them, or beside the output motion when it was given instead of the setup's
    (``given``). The name is the motion's, ``<motion>_urdf2dyn_marker_errors.sto``, and not
    OpenSim's ``<tool name>_ik_marker_errors.sto``: a user who runs both on one setup in one
    folder keeps both reports (the two names never meet: the words before
    ``_marker_errors.sto`` end in ``urdf2dyn`` in ours, ``_ik`` in OpenSim's)."""
    folder = os.path.dirname(os.path.abspath(out)) if given else _results_directory(s)
    motion = os.path.splitext(os.path.basename(out))[0]
    return os.path.join(folder, f"{motion}_urdf2dyn_marker_errors.sto")


def _refuse_an_unwritable_motion(out, model, s):
    """Refuse, before reading the markers and fitting them, a coordinate name or a title the
    .mot cannot hold (formats._cells): the fit of a long trial takes minutes, and its results
    directory would be left behind empty."""
    from .formats._cells import refuse_unwritable_names, refuse_unwritable_title
    refuse_unwritable_title(out, _title(s), s.path)
    refuse_unwritable_names(out, model.q_names, "coordinate", f"model {model.name!r}",
                            index="time")


def _title(s):
    """The title of the .mot: the setup's name (OpenSim 4.6 runs a tool named 'a=1', whose
    '=' is written '_' here, formats._cells.title_from_name)."""
    from .formats._cells import title_from_name
    return title_from_name(s.name or "ik")


def _write(out, result, model, s, errors):
    from .formats import write_opensim
    from .formats.opensim import _write_sto, coordinate_set_columns
    m = result.motion
    cols = coordinate_set_columns(m.names, model)       # OpenSim's IK tool's column order
    write_opensim(out, Trajectory(m.time, m.q[:, cols], [m.names[k] for k in cols]),
                  degrees=True, name=_title(s), model=model)
    if errors:
        names, values = result.errors_table()
        _write_sto(errors, ["time"] + names,
                   np.column_stack([result.motion.time, values]), False, "ik_marker_errors")
