"""One trial of inverse dynamics from recorded files, and many trials at once.

    import urdf2dyn
    model = urdf2dyn.humod_subject("A")
    res = urdf2dyn.inverse_dynamics_trial(model, "running.csv", grf="running_grf.csv",
                                          filter_hz=15)
    res.tau, res.residuals, res.warnings, res.record

    results = urdf2dyn.run_trials(model, "trials/")          # local processes
    results = urdf2dyn.run_trials(model, "trials/", scheduler="tcp://10.0.0.5:8786")   # Dask

:func:`inverse_dynamics_trial` is the whole per-trial job: the passes of
urdf2dyn.biomech.stages in order, on the model, the motion and the trial's settings
(urdf2dyn.biomech.stages.TrialSettings, from its keywords): read the motion (coordinates, or
markers through inverse kinematics; its columns checked against the model), kinematics (gaps
filled, low-pass filter, derivatives, time range), loads (ground reactions, an ExternalLoads
file, a C3D's plates or the file's own columns, as one set of wrenches; filtered like the
coordinates unless ``filter_loads=False``), dynamics (inverse dynamics, root residuals) and the
plausibility checks. The command line's ``urdf2dyn torques``, ``run_trials``,
:func:`inverse_dynamics_setup` and the notebooks call it.

Filtering the loads: by default the ground-reaction wrenches are low-pass filtered at the same
cutoff as the coordinates. Filtering only the kinematics leaves the loads with frequency content
the accelerations no longer have, which produces artificial peaks in the joint moments at impacts
(Kristianslund, Krosshaug & van den Bogert 2012, "Effects of low pass filtering on joint moments
from inverse dynamics: implications for injury prevention", J. Biomech. 45:666-671).
``filter_loads=False`` (``--filter-loads no``) filters the coordinates only, as OpenSim's
InverseDynamicsTool does, to reproduce its results.
"""
import os
import re
import time as _time
import uuid
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._safe_files import check_outputs, guarding
from ..model import applied_by_opensim
from ..warn import MotionError, Urdf2dynWarning, hearing_notes, missing_file, note, report
from . import stages
from .formats.opensim import external_loads_inputs
from .stages.read import MARKER_EXTENSIONS, MOTION_EXTENSIONS, check_columns
from .stages.scale import OUTPUT_ARGUMENT as SCALED_MODEL_ARGUMENT
from .stages.settings import DEFAULT_DERIVATIVES, TrialSettings

__all__ = ["TrialResult", "inverse_dynamics_trial", "inverse_dynamics_setup", "run_trials",
           "find_trials", "TrialSettings", "DEFAULT_DERIVATIVES", "MOTION_EXTENSIONS",
           "MARKER_EXTENSIONS", "check_columns", "batch_inputs", "id_setup_inputs"]


@dataclass
class TrialResult:
    """The outcome of one trial.

    t (N,), q (N, nq) as used (filled, filtered), v, a (N, nv), tau (N, nv) generalized forces
    (N·m, N), residuals (urdf2dyn.biomech.grf.Residuals about the root origin, or None for a
    model whose root is neither free nor planar: a finding says so), f_ext {link: (N, 6)} the
    applied loads (world frame, about the origin) or None, reactions (the ground-reaction
    Trajectory, or None), warnings [str] (every warning raised for this trial), record {str:
    ...} what was done: ``source``, ``loads`` (file or None), ``units``, ``filled_gaps``
    ([str]), ``filter_hz``, ``filter_loads``, ``derivatives`` (method, or "given in the
    file"), ``no_residuals`` (why there are none, or None), ``elapsed_s``. For a trial read
    from markers (a C3D or .trc file): ik (urdf2dyn.markers.IKSolution over the whole
    recording: per frame marker RMS/max error and the worst marker; :attr:`ik_errors` gives
    those of the rows kept), markers (the measured Markers, model frame), plates (the C3D's
    force plates) and events (the C3D's events: urdf2dyn.biomech.gait.gait_cycles cuts cycles
    from them).
    findings: what the checks found (urdf2dyn.biomech.stages.Finding: warnings, and notes on
    what could not be checked); settings: the TrialSettings the trial ran with; notes [str]:
    under run_trials, the library's notes (urdf2dyn.warn.note, e.g. a C3D's
    meta["notes"]) said while the trial ran, told to the caller's listeners whichever
    process ran it."""
    path: str
    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    tau: np.ndarray
    residuals: object = None
    f_ext: dict | None = None
    reactions: object = None
    warnings: list = field(default_factory=list)
    record: dict = field(default_factory=dict)
    ik: object = None
    markers: object = None
    plates: list | None = None
    findings: list = field(default_factory=list)
    settings: TrialSettings | None = None
    events: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    #: run_trials' own: notes said in another process, which _relay_notes tells here
    _notes_unheard: bool = field(default=False, init=False, repr=False, compare=False)

    @property
    def ik_errors(self):
        """Inverse kinematics' marker errors per frame kept (trials from markers; None
        otherwise): {"rms": (N,) m, "max": (N,) m, "worst": [marker name] (N)}."""
        if self.ik is None:
            return None
        keep = self.record.get("ik_rows")
        rows = slice(None) if keep is None else keep
        return {"rms": np.asarray(self.ik.rms)[rows], "max": np.asarray(self.ik.max)[rows],
                "worst": list(np.asarray(self.ik.worst, dtype=object)[rows])}

    @property
    def load_peak(self):
        """Peak magnitude (N) of the summed external forces, or None without loads."""
        if not self.f_ext:
            return None
        return float(np.linalg.norm(sum(self.f_ext.values())[:, :3], axis=1).max())

    @property
    def filtered(self):
        """True when the coordinates were low-pass filtered."""
        return self.record.get("filter_hz") is not None


# ----------------------------------------------------------------------------- one trial

def inverse_dynamics_trial(model, motion, grf=None, *, settings=None, **keywords):
    """Joint torques of one recorded trial: the whole job, from files to a :class:`TrialResult`.

    Parameters
    ----------
    model : urdf2dyn.Model or path
        The model, or its file (loaded with urdf2dyn.load).
    motion : path, urdf2dyn.biomech.Trajectory or pandas.DataFrame
        Motion file (.csv, OpenSim .mot/.sto, HuMoD .mat), a marker recording (.c3d, .trc:
        its markers fitted by inverse kinematics), a trajectory read already (SI units), or
        a DataFrame (formats.from_dataframe: a ``time`` column or index). Never modified.
    grf : path or Trajectory, optional
        Ground reactions (urdf2dyn.biomech.grf.read_grf); by default those the motion file
        carries (a C3D's force plates, or its own columns).
    settings : urdf2dyn.biomech.stages.TrialSettings, optional
        How the trial is processed (default: urdf2dyn's defaults); the keywords change it.
    **keywords
        The settings' fields by name (urdf2dyn.biomech.stages.TrialSettings:
        ``processing``, ``filter_hz``, ``filter_loads``, ``derivatives``, ``time_range``,
        ``max_gap``, ``contacts``, ``mapping``, ``degrees``, ``rotation``,
        ``plate_threshold``, ``delimiter``, ``decimal``, ``strict``), and
        ``external_loads`` (an OpenSim ExternalLoads file; exclusive with grf),
        ``checks_enabled``, ``ik_threads``, ``ik_setup`` (an OpenSim Setup_IK.xml whose
        marker weights, coordinate tasks and time range the inverse kinematics of a C3D or
        .trc motion follows; its marker file and model are not read) and
        ``reduce_residuals`` (True, or urdf2dyn.biomech.residuals.ResidualSettings' fields as
        a dict: the residuals pass makes the trial dynamically consistent; its result is
        ``record["residual_reduction"]``).

    ``processing="opensim"`` is OpenSim's InverseDynamicsTool exactly
    (urdf2dyn.biomech.opensim_processing.OpenSimProcessing): filter_hz is its
    ``lowpass_cutoff_frequency_for_coordinates`` (a padded 3rd-order IIR filter run both ways),
    derivatives come from natural quintic splines, the loads of an ExternalLoads file are
    natural cubic splines of their data and are not filtered, coordinates missing from the
    file take their default value (the .osim's ``<default_value>``) and extra columns are
    ignored, each with a warning, and the rows are those OpenSim writes (padded rows included
    when the time range reaches them). A C3D's plates are applied to the foot standing on each
    (urdf2dyn.biomech.plates, feet ``contacts`` {"R": link, "L": link}, default the model's
    foot_R/foot_L or calcn_r/calcn_l).

    Returns
    -------
    TrialResult
    """
    start = _time.perf_counter()
    settings = TrialSettings.from_keywords(settings, grf=grf, **keywords)
    with guarding():                    # the model's file is an input too, read here
        trial = stages.run(as_model(model, settings.strict), motion, settings, stages.PASSES)
    return _result(trial, _time.perf_counter() - start)


def as_model(model, strict=False):
    """model itself, or the model file it names loaded (urdf2dyn.load: URDF, .osim, MJCF)."""
    from ..model import Model, load
    if isinstance(model, (str, os.PathLike)):
        return load(model, strict=strict)
    if not isinstance(model, Model):
        raise TypeError(f"model: expected a urdf2dyn.Model or a model file's path, got "
                        f"{type(model).__name__}")
    return model


def _result(trial, elapsed):
    """The TrialResult of a trial that went through the passes, with the record of what was
    done."""
    s, m, k, lo, d = trial.settings, trial.motion, trial.kinematics, trial.loads, trial.dynamics
    record = {"source": m.source, "units": m.units,
              "filled_gaps": list(k.filled_gaps) + list(lo.filled_gaps),
              "filter_hz": k.filter_hz,
              "filter_loads": None if s.filter_hz is None else (
                  bool(s.filter_loads) and s.processing.filters_loads),
              "max_gap": s.max_gap, "processing": s.processing.name,
              "time_range": s.time_range, "derivatives": k.derivatives, "loads": lo.source,
              "no_residuals": d.no_residuals,
              "scaled": trial.scaled, "columns": s.processing.output_order(trial.model)}
    if trial.reduction is not None:
        record["residual_reduction"] = trial.reduction
    if m.ik is not None:
        record["ik_rows"] = np.flatnonzero(np.isin(m.trajectory.time, k.t))
        record["ik_marker_rms_mean"] = float(np.nanmean(m.ik.rms)) if len(m.ik.rms) else None
    record["elapsed_s"] = elapsed
    return TrialResult(m.source, k.t, k.q, k.v, k.a, d.tau, d.residuals, lo.f_ext, lo.reactions,
                       trial.warnings, record, m.ik, m.markers, m.plates, list(trial.findings),
                       s, list(m.events))


def inverse_dynamics_setup(setup, model=None, *, time_range=None, strict=False, settings=None,
                           **options):
    """OpenSim's inverse-dynamics tool run from its setup file (``urdf2dyn torques --setup``).

    Reads the setup (urdf2dyn.biomech.formats.read_id_setup), loads its model_file with
    urdf2dyn.load (or uses model), and runs :func:`inverse_dynamics_trial` on its coordinates
    file with the settings the setup describes (TrialSettings.from_id_setup: OpenSim's
    processing, its external loads, cutoff and time range).
    The result's ``record["output"]`` is where OpenSim would write the generalized forces
    (results_directory / output_gen_force_file) and ``record["columns"]`` the order of its
    columns (the .osim's multibody tree order, urdf2dyn.biomech.formats.osim_coordinate_order;
    None when the model's coordinates are not the .osim's); nothing is written here.

    Parameters
    ----------
    setup : path or urdf2dyn.biomech.formats.IDSetup
        The InverseDynamicsTool setup file, or one read already.
    model : urdf2dyn.Model, optional
        Use this model instead of the setup's model_file (e.g. the URDF an .osim was made
        from; its gravity must be set to the .osim's).
    time_range : (t0, t1), optional
        Overrides the setup's time_range.
    strict : bool
        Warnings become errors.
    settings : urdf2dyn.biomech.stages.TrialSettings, optional
        The settings ``TrialSettings.from_id_setup(setup, ...)`` made already, its
        ExternalLoads file read once (a caller that writes outputs lists the run's inputs
        before any work with :func:`id_setup_inputs`); then give neither time_range nor
        options, which make them.
    **options
        Passed to inverse_dynamics_trial (contacts, max_gap, checks_enabled, ...).

    Returns
    -------
    TrialResult
    """
    from .formats.opensim_setup import IDSetup, read_id_setup, setup_model
    if settings is not None and (time_range is not None or options):
        raise TypeError("inverse_dynamics_setup: give settings, or the time_range and "
                        f"options that make them ({', '.join(sorted(options)) or 'time_range'}"
                        "), not both")
    su = setup if isinstance(setup, IDSetup) else read_id_setup(setup, strict=strict)
    loaded = model is None                  # the setup's own model_file, read here
    if model is None:
        if su.model_file is None:
            raise MotionError(f"{su.path}: <model_file> is empty: name the .osim model (or "
                              "pass a model)")
        # the forces it leaves on are said below, with the setup's own exclusions
        from ..model import PASSIVE_FORCES, load_leaving_unsaid
        model = load_leaving_unsaid(su.model_file, lambda m: PASSIVE_FORCES in m, strict)
    if su.external_loads_file is not None and su.excludes_all:
        report(f"{su.path}: <forces_to_exclude> All also leaves out the external loads "
               f"{su.external_loads_file} (as in OpenSim)", strict=strict, error=MotionError)
    reference = None                # the setup's .osim as the core reads it, for what follows
    if su.model_file and su.model_file.lower().endswith(".osim"):
        reference = model if loaded else setup_model(su.model_file)
    kept = [] if reference is None else _forces_applied(reference.forces, su.forces_to_exclude)
    for component, why in (
            (False, "are not in <forces_to_exclude>: OpenSim would apply them, urdf2dyn "
                    "applies no force element of a model; exclude them (e.g. Muscles, or All) "
                    "to compare"),
            (True, "under its <components> OpenSim's tool applies whatever "
                   "<forces_to_exclude> says (it excludes ForceSet members only), urdf2dyn "
                   "applies no force element of a model; remove them from the model (or move "
                   "them into its <ForceSet> and exclude them) to compare")):
        names = [f.name for f in kept if f.component == component]
        if names:
            report(f"{su.path}: the model's force elements {names[:6]}"
                   f"{' ...' if len(names) > 6 else ''} {why}", strict=strict,
                   error=MotionError)
    if settings is None:
        settings = TrialSettings.from_id_setup(su, time_range=time_range, strict=strict,
                                               **options)
    res = inverse_dynamics_trial(model, su.coordinates_file, settings=settings)
    res.record.update(setup=su.path, output=su.output, model_file=su.model_file)
    if reference is not None and sorted(reference.multibody_order) == sorted(model.v_names):
        res.record["columns"] = reference.multibody_order      # OpenSim's column order
    return res


def id_setup_inputs(setup: Any, settings: TrialSettings) -> list[tuple[str, str]]:
    """The files a run of an OpenSim InverseDynamicsTool setup (read already) with
    ``settings`` (TrialSettings.from_id_setup's) reads or that the setup names, as (what,
    path): the setup, its own <model_file> and <external_loads_file> and the files that
    names (inputs whether or not read: another model given, the loads excluded by
    <forces_to_exclude> All, which OpenSim's tool still reads), and the trial's files
    (stages.trial_inputs of its coordinates file), and an OpenSim 2 setup's tool-level
    <external_loads_model_kinematics_file>. No output of the run may be one, by any name."""
    named = [("ID setup", setup.path), ("ID setup's model", setup.model_file),
             ("ExternalLoads", setup.external_loads_file),
             ("ExternalLoads model kinematics", setup.loads_kinematics_file)]
    if setup.external_loads_file is not None:
        named += external_loads_inputs(setup.external_loads_file,
                                       _loads_read(settings, setup.external_loads_file),
                                       strict=settings.strict)
    named += stages.trial_inputs(setup.coordinates_file, settings)
    return [(what, os.fspath(path)) for what, path in named if path is not None]


def _loads_read(settings: TrialSettings, path: str) -> Any:
    """The ExternalLoads at path as settings hold them read already (from_id_setup reads
    them unless <forces_to_exclude> holds All), else None: read once, not a second time."""
    held = settings.loads
    if (isinstance(held, stages.ExternalLoadsFile) and held.loads is not None
            and os.path.abspath(held.path) == os.path.abspath(path)):
        return held.loads
    return None


def _forces_applied(forces, excluded):
    """The force elements (model.forces) that OpenSim's tool would leave on with
    forces_to_exclude (its keywords All, Actuators, Muscles; other names by name) and that
    supply a force there: those of the ForceSet it does not name, and those under
    <components> (applied_by_opensim), which OpenSim 4.6's tool applies whatever the list
    says (it disables ForceSet members only). Not an actuator without a force of its own
    (Force.pulls_without_control): the tool gives it no control."""
    keys = {x.upper() for x in excluded}
    kept = []
    for f in forces:
        if f.component:
            kept += applied_by_opensim([f])
        elif f.pulls_without_control and not ("ALL" in keys or f.name in excluded or (
                "Muscle" in f.kind and "MUSCLES" in keys) or (
                f.actuator and "ACTUATORS" in keys)):
            kept.append(f)
    return kept


# ----------------------------------------------------------------------------- many trials

def _stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def find_trials(items, grf=None, *, named="grf"):
    """[(motion path, ground-reaction path or None)] from files and folders.

    A folder gives its motion files (MOTION_EXTENSIONS; not ``*_grf.*``, ``*_torques.*``,
    ``*_residuals.*``), each paired with the sibling ``<stem>_grf.<ext>`` when there is one. grf:
    one file, or a pattern with ``{stem}`` and ``{dir}`` for several motions. named: grf as
    the caller calls it in a refusal of it (the command line's --grf)."""
    items = [items] if isinstance(items, (str, os.PathLike)) else list(items)
    jobs = []
    for item in map(os.fspath, items):
        if os.path.isdir(item):
            names = sorted(n for n in os.listdir(item)
                           if n.lower().endswith(MOTION_EXTENSIONS)
                           and not _stem(n).lower().endswith(("_grf", "_torques", "_residuals")))
            if not names:
                raise MotionError(f"{item}: no motion files ({', '.join(MOTION_EXTENSIONS)})")
            jobs += [(os.path.join(item, n),
                      _grf_for(os.path.join(item, n), grf, True, named)) for n in names]
        else:
            if not os.path.exists(item):
                raise MotionError(missing_file(item))
            jobs.append((item, _grf_for(item, grf, False, named)))
    if grf and len(jobs) > 1 and "{stem}" not in grf:
        raise MotionError(f"{named} names one file but there are several motions: use a "
                          "pattern with {stem} (e.g. '{dir}/{stem}_grf.csv'), or put "
                          "<stem>_grf.csv next to each motion in a folder")
    for motion, path in jobs:
        if grf and not os.path.exists(path):
            raise MotionError(f"{named} {missing_file(path)} (the ground reactions of "
                              f"{motion}: give that file, or leave {named} out to use the "
                              "motion's own ground-reaction columns or force plates, if any)")
    return jobs


#: a ground-reaction pattern's (find_trials' grf) fields and its doubled braces (str.format's
#: way to write one brace, which patterns took before they were filled in by name)
_GRF_PARTS = re.compile(r"\{(stem|dir)\}|\{\{|\}\}")


def _grf_for(motion, pattern, sibling, named):
    if pattern:
        return _filled_in(pattern, {"stem": _stem(motion), "dir": os.path.dirname(motion) or "."},
                          named)
    if sibling:
        base = os.path.join(os.path.dirname(motion), _stem(motion) + "_grf")
        for ext in (".csv", ".sto", ".mot", ".mat"):
            if os.path.exists(base + ext):
                return base + ext
    return None


def _filled_in(pattern, fields, named):
    """A grf pattern with its {stem} and {dir} replaced; a name without them is one file, as
    written. Not str.format: a user's pattern is no format string ({0}, {stem.x} tracebacks,
    {stem:>999999999} a gigabyte name), so that any other brace beside the fields is refused
    (named: grf, as the caller calls it)."""
    if "{stem}" not in pattern and "{dir}" not in pattern:    # "{{stem}}" is a pattern too
        return pattern
    if any(brace in _GRF_PARTS.sub("", pattern) for brace in "{}"):
        raise MotionError(f"{named} {pattern!r}: a pattern names {{stem}} (each motion "
                          "file's name without its suffix) and {dir} (its folder), nothing "
                          "else in braces ({{ and }} for a brace); e.g. '{dir}/{stem}_grf.csv'")
    return _GRF_PARTS.sub(lambda m: fields[m.group(1)] if m.group(1) else m.group(0)[0],
                          pattern)


def _draw_process_token():
    global _PROCESS_TOKEN
    _PROCESS_TOKEN = uuid.uuid4().hex


# Which process runs a trial, by a token no other process has: a process id is not one (a
# Dask worker on another machine can have the caller's), and a forked worker, a copy of the
# caller's memory, draws its own.
_draw_process_token()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_draw_process_token)


def _run_one(job, model, settings, caller=None):
    """One trial in a worker (a local process or a Dask worker): its warnings travel back in
    the result (the caller re-emits them), not to the worker's stderr. Its notes are kept in
    the result too; caller: the token of the process that runs the batch (_PROCESS_TOKEN):
    in another one the notes are heard by nobody else there, and _relay_notes tells them to
    the caller's listeners."""
    path, grf = job
    away = caller is not None and caller != _PROCESS_TOKEN
    heard = []
    with warnings.catch_warnings(), hearing_notes(heard.append, alone=away, this_thread=True):
        warnings.simplefilter("ignore", Urdf2dynWarning)
        result = inverse_dynamics_trial(model, path, grf, settings=settings)
    result.notes = heard
    result._notes_unheard = away
    return result


def _relay_notes(results):
    """Tell this process's note listeners the notes of the trials run in other processes,
    in the trials' order, as a trial run here tells them while it runs."""
    for r in results:
        if r._notes_unheard:
            for message in r.notes:
                note(message)


def run_trials(model, trials, grf=None, *, settings=None, scheduler=None, max_workers=None,
               strict=None, progress=None, **options):
    """inverse_dynamics_trial over many trials; returns [TrialResult] in the trials' order.

    Parameters
    ----------
    model : urdf2dyn.Model or path
        The model, or its file (loaded once, here, with urdf2dyn.load).
    trials : path, folder, or list of them
        Motion files and folders (see :func:`find_trials`: a folder pairs each motion with its
        ``<stem>_grf.*`` file).
    grf : str, optional
        Ground reactions for every motion: a pattern with ``{stem}`` / ``{dir}``.
    scheduler : None, str or distributed.Client
        None: local processes (concurrent.futures.ProcessPoolExecutor, max_workers of them
        and at most one per motion; max_workers=1 runs in this process). A Dask scheduler
        address (``"tcp://host:8786"``)
        or a ``distributed.Client``: the trials run on that cluster (pip install
        "urdf2dyn[dask]").
    settings : urdf2dyn.biomech.stages.TrialSettings, optional
        Every trial's settings (each with its own ground reactions).
    strict : bool, optional
        Warnings are errors (the first one stops the batch); default: the settings' (False).
    progress : callable, optional
        Called with each TrialResult as it completes (e.g. to advance a progress bar).
    **options
        Settings as inverse_dynamics_trial's keywords (filter_hz, derivatives, contacts,
        mapping, ...), checked before any trial runs.

    Each trial's warnings are re-emitted here (category urdf2dyn.Urdf2dynWarning) and kept in
    its result; so are its notes (urdf2dyn.warn.note, heard with urdf2dyn.warn.hearing_notes:
    a trial run in another process has them told here, after the batch, in the trials'
    order; one run in this process, as they are said). A batch in which some trials have ground reactions and others have none warns,
    naming the latter: their torques carry the whole external load as root residuals.
    """
    jobs = find_trials(trials, grf) if not _is_job_list(trials) else list(trials)
    if strict is not None:
        options["strict"] = strict
    settings = TrialSettings.from_keywords(settings, **options)
    with guarding(batch_inputs(jobs, settings)):   # a worker knows its own trial's files only
        model = as_model(model, settings.strict)
        if settings.scale is not None:
            check_outputs([(SCALED_MODEL_ARGUMENT, settings.scale.output)])
        if scheduler is None:
            results = _run_local(jobs, model, settings, max_workers, progress)
        else:
            results = _run_dask(jobs, model, settings, scheduler, progress)
    _relay_notes(results)
    for r in results:
        for msg in r.warnings:
            warnings.warn(msg, Urdf2dynWarning, stacklevel=2)
    with_loads = [r for r in results if r.f_ext]
    without = [r.path for r in results if not r.f_ext]
    if with_loads and without:
        msg = (f"{len(without)} of {len(results)} trials have no ground reactions while the "
               f"others do: {', '.join(without[:10])}{' ...' if len(without) > 10 else ''}. "
               "Their torques and residuals carry the whole external load: add their "
               "<stem>_grf.* files"
               f"{settings.columns_named.said('grf', ' (or {}, a pattern naming {{stem}})')}, "
               "or run them separately")
        for r in results:
            if not r.f_ext:
                r.warnings.append(msg)
        report(msg, strict=settings.strict, error=MotionError)
    return results


def batch_inputs(jobs: list[tuple[Any, Any]], settings: TrialSettings
                 ) -> list[tuple[str, str]]:
    """Every file the trials ``jobs`` [(motion, ground reactions or None), ...] read that
    they and their settings name (urdf2dyn.biomech.stages.trial_inputs), as (what, path):
    the scaled model (written by the first trial) may be none of them, nor may any output a
    caller writes after the trials (the command line's torques)."""
    return [named for path, grf in jobs
            for named in stages.trial_inputs(path, settings) + [("ground-reaction", grf)]
            if isinstance(named[1], (str, os.PathLike))]


def _is_job_list(trials):
    return (isinstance(trials, list) and trials and all(isinstance(x, tuple) for x in trials))


def _run_local(jobs, model, settings, max_workers, progress):
    if max_workers == 1 or len(jobs) <= 1:
        out = []
        for job in jobs:
            out.append(_run_one(job, model, settings))
            if progress:
                progress(out[-1])
        return out
    from concurrent.futures import ProcessPoolExecutor
    # never more processes than motions: each is a fork of this interpreter, and a pool
    # starts all of them (--jobs 100000 over two motions started 100000)
    workers = min(max_workers or os.cpu_count() or 1, len(jobs))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return _collect([pool.submit(_run_one, job, model, settings, _PROCESS_TOKEN)
                         for job in jobs], progress)


def _collect(futures, progress):
    """The futures' results in submission order (local or Dask futures alike)."""
    out = []
    for f in futures:
        out.append(f.result())
        if progress:
            progress(out[-1])
    return out


def _connect(Client, address, named):
    """A client of the Dask scheduler at address. Whatever goes wrong in reaching it (no
    such address, nothing listening, a service that is not a Dask scheduler, such as its
    dashboard, whose bytes Dask can read as a frame of exabytes, or which never answers
    Dask's handshake: Dask then waits for ever) is one refusal naming the address, the
    option that gave it as the caller names it (named: ColumnOptions), and what to give
    instead, within Dask's connect timeout and a few seconds."""
    import threading

    from dask.config import get
    from dask.utils import parse_timedelta
    limit = parse_timedelta(get("distributed.comm.timeouts.connect"), default="s") + 5.0
    outcome = {}

    def attempt():
        try:
            outcome["client"] = Client(address)
        except Exception as e:      # noqa: BLE001 (every cause gets the same advice)
            outcome["error"] = e
    reaching = threading.Thread(target=attempt, name="urdf2dyn-dask-connect", daemon=True)
    reaching.start()
    reaching.join(limit)
    if "client" in outcome:
        return outcome["client"]
    e = outcome.get("error")
    reason = ((str(e).strip() or type(e).__name__) if e is not None else
              f"no answer to Dask's handshake within {limit:g} s")
    raise ValueError(
        f"the Dask scheduler address {address!r}{named.said('scheduler', ' ({})')} reached "
        f"no Dask scheduler: {reason}. Start one (dask scheduler, and "
        "dask worker on each machine) and give the address it prints, tcp://HOST:8786, not "
        "its dashboard's port (8787); or drop it to run the trials in local processes")


def _run_dask(jobs, model, settings, scheduler, progress):
    try:
        from distributed import Client
    except ImportError:
        raise ImportError(f"{settings.columns_named.scheduler} needs Dask's distributed "
                          "scheduler: pip install \"urdf2dyn[dask]\"") from None
    own = not isinstance(scheduler, Client)
    client = _connect(Client, scheduler, settings.columns_named) if own else scheduler
    try:
        return _collect(client.map(_run_one, jobs, model=model, settings=settings,
                                   caller=_PROCESS_TOKEN, pure=False),
                        progress)
    finally:
        if own:
            client.close()
