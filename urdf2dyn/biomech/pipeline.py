"""One trial of inverse dynamics from recorded files, and many trials at once.

    import urdf2dyn
    model = urdf2dyn.humod_subject("A")
    res = urdf2dyn.inverse_dynamics_trial(model, "running.csv", grf="running_grf.csv",
                                          filter_hz=15)
    res.tau, res.residuals, res.warnings, res.record

    results = urdf2dyn.run_trials(model, "trials/")          # local processes
    results = urdf2dyn.run_trials(model, "trials/", scheduler="tcp://10.0.0.5:8786")   # Dask

:func:`inverse_dynamics_trial` is the whole per-trial job, in this order: read the motion
(units by meaning, urdf2dyn.io), check its columns against the model, fill short gaps
(urdf2dyn.biomech.processing), check the units and joint limits, low-pass filter and differentiate
(urdf2dyn.biomech.processing.estimate_derivatives), read the loads (ground reactions or an OpenSim
ExternalLoads file), fill their gaps, filter them like the coordinates (unless
``filter_loads=False``), inverse dynamics, root residuals, and the plausibility checks
(urdf2dyn.biomech.plausibility). The command line's ``urdf2dyn torques`` and the notebooks call it.

Filtering the loads: by default the ground-reaction wrenches are low-pass filtered at the same
cutoff as the coordinates. Filtering only the kinematics leaves the loads with frequency content
the accelerations no longer have, which produces artificial peaks in the joint moments at impacts
(Kristianslund, Krosshaug & van den Bogert 2012, "Effects of low pass filtering on joint moments
from inverse dynamics: implications for injury prevention", J. Biomech. 45:666-671).
``filter_loads=False`` (``--filter-loads no``) filters the coordinates only, as OpenSim's
InverseDynamicsTool does, to reproduce its results.
"""
import os
import time as _time
import warnings
from dataclasses import dataclass, field, replace

import numpy as np

from ..warn import Urdf2dynWarning, missing_file, report
from . import plausibility
from . import grf as G
from .formats.opensim import read_external_loads
from .gait import CONTACT_THRESHOLD
from .opensim_processing import id_rows
from .plates import assign_plates, midfoot_positions
from .processing import DEFAULT_MAX_GAP, estimate_derivatives, fill_gaps, lowpass
from .stages.checks import _com_height
from .stages.kinematics import _opensim_kinematics
from .stages.loads import _fill_reaction_gaps
from .stages.read import (MARKER_EXTENSIONS, MOTION_EXTENSIONS, _motion_from_markers,
                          _opensim_columns, _read_motion, check_columns)
from .trajectory import MotionError, Trajectory

__all__ = ["TrialResult", "inverse_dynamics_trial", "inverse_dynamics_setup", "run_trials",
           "find_trials",
           "DEFAULT_DERIVATIVES", "MOTION_EXTENSIONS"]

#: The one default derivative method (API and command line): finite differences, NumPy only.
DEFAULT_DERIVATIVES = "gradient"


@dataclass
class TrialResult:
    """The outcome of one trial.

    t (N,), q (N, nq) as used (filled, filtered), v, a (N, nv), tau (N, nv) generalized forces
    (N·m, N), residuals (urdf2dyn.biomech.grf.Residuals about the root origin, or None without a 6-DoF
    root), f_ext {link: (N, 6)} the applied loads (world frame, about the origin) or None,
    reactions (the ground-reaction Trajectory, or None), warnings [str] (every warning raised
    for this trial), record {str: ...} what was done: ``source``, ``loads`` (file or None),
    ``units``, ``filled_gaps`` ([str]), ``filter_hz``, ``filter_loads``, ``derivatives``
    (method, or "given in the file"), ``elapsed_s``. For a trial read from markers (a C3D or
    .trc file): ik (urdf2dyn.markers.IKSolution over the whole recording: per frame marker
    RMS/max error and the worst marker; :attr:`ik_errors` gives those of the rows kept),
    markers (the measured Markers, model frame) and plates (the C3D's force plates)."""
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

def inverse_dynamics_trial(model, motion, grf=None, *, external_loads=None, contacts=None,
                           mapping=None, degrees=None, filter_hz=None, filter_loads=True,
                           derivatives=DEFAULT_DERIVATIVES, max_gap=DEFAULT_MAX_GAP,
                           strict=False, checks_enabled=True, processing="urdf2dyn",
                           time_range=None, delimiter=None, decimal=None, rotation=None,
                           ik_threads=None, ik_setup=None, plate_threshold=None):
    """Joint torques of one recorded trial: the whole job, from files to a :class:`TrialResult`.

    Parameters
    ----------
    model : urdf2dyn.Model
    motion : path, urdf2dyn.biomech.Trajectory or pandas.DataFrame
        Motion file (.csv, OpenSim .mot/.sto, HuMoD .mat), a trajectory read already (SI
        units), or a DataFrame (formats.from_dataframe: a ``time`` column or index). Never modified.
    grf : path or Trajectory, optional
        Ground reactions (urdf2dyn.biomech.grf.read_grf); by default those the motion file carries.
    external_loads : path, optional
        An OpenSim ExternalLoads XML file (urdf2dyn.biomech.formats.read_external_loads): which forces
        act on which bodies, in which frames, from which data file. Exclusive with grf.
    contacts : dict, optional
        {ground-reaction key: link}, e.g. {"R": "foot_R"} (default: urdf2dyn.biomech.grf.contact_links).
    mapping : dict or path, optional
        Renames the file's coordinates to the model's (urdf2dyn.biomech.trajectory.load_mapping).
    degrees : bool, optional
        The CSV file's angles are in degrees (OpenSim files say so in their header).
    filter_hz : float, optional
        Zero-lag 4th-order Butterworth low-pass cutoff for the coordinates (and, with
        filter_loads, the loads) before differentiating. Needs SciPy.
    filter_loads : bool
        Filter the loads at the same cutoff (default; see the module docstring) or not (as
        OpenSim's InverseDynamicsTool).
    derivatives : {"gradient", "savgol", "spline", "opensim"}
        How velocities and accelerations are estimated when the file has none
        (urdf2dyn.biomech.processing.estimate_derivatives; the default needs NumPy only).
    max_gap : int
        Longest run of missing samples filled (urdf2dyn.biomech.processing); longer gaps stop the trial.
    strict : bool
        Every warning becomes a MotionError.
    checks_enabled : bool
        Run the plausibility checks (urdf2dyn.biomech.plausibility).
    processing : {"urdf2dyn", "opensim"}
        "urdf2dyn" (default): the steps above. "opensim": OpenSim's InverseDynamicsTool
        exactly (urdf2dyn.biomech.opensim_processing): filter_hz is its
        ``lowpass_cutoff_frequency_for_coordinates`` (a padded 3rd-order IIR filter run both
        ways; None: no filter), derivatives come from natural quintic splines (derivatives
        and filter_loads are not used, nor velocity columns in the file), the loads of an
        ExternalLoads file are natural cubic splines of their data, coordinates missing from
        the file take their default value (0) and extra columns are ignored, each with a
        warning, and the rows are those OpenSim writes (padded rows included when the time
        range reaches them). Needs nq == nv (no quaternion).
    time_range : (t0, t1), optional
        Keep the samples from t0 to t1 (s). The filter and derivatives use the whole trial
        first. With processing="opensim", OpenSim's rule: from the last sample at or
        before t0 to the last sample at or before t1.
    delimiter, decimal : str, optional
        Of the CSV motion and ground-reaction files (urdf2dyn.biomech.formats.read_table):
        detected from the header line by default; say them for a file the detection refuses.
    rotation : str or (3, 3) array_like, optional
        For a C3D or .trc motion: the lab to model frame rotation (e.g. "x:-90": a z-up lab,
        a y-up OpenSim model; urdf2dyn.biomech.markers.rotation_matrix). Default: none.
    ik_threads : int, optional
        For a C3D or .trc motion: threads of the inverse kinematics (default 1: each frame
        warm-started from the previous one, as OpenSim's IK tool).
    ik_setup : path, optional
        For a C3D or .trc motion: an OpenSim ``Setup_IK.xml`` whose marker weights,
        coordinate tasks and time range the inverse kinematics follows (its marker file and
        model are not read: the motion and ``model`` are used; urdf2dyn.biomech.ik.run_setup).
        Default: every model marker the recording has, weight 1, the whole recording.
    plate_threshold : float, optional
        For a C3D motion: the plates' contact threshold, N (default 20; see
        urdf2dyn.biomech.formats.c3d).

    A C3D or .trc ``motion`` is a recording of markers: the model's markers
    (``model.markers``, e.g. an .osim MarkerSet) are fitted frame by frame
    (urdf2dyn.biomech.ik.solve, with the .osim's default values, locked coordinates and
    clamped ranges), and the coordinates found go through the steps above. A C3D file's
    force plates are the loads (unless grf or external_loads is given), each contact applied
    to the foot standing on it (urdf2dyn.biomech.plates.assign_plates, measured from each
    foot's mid-foot, urdf2dyn.biomech.plates.midfoot_positions; feet: ``contacts``
    {"R": link, "L": link}, default the model's foot_R/foot_L or calcn_r/calcn_l).

    Returns
    -------
    TrialResult
    """
    if external_loads is not None and grf is not None:
        raise ValueError("give either grf (ground reactions) or external_loads (an OpenSim "
                         "ExternalLoads file), not both")
    if processing not in ("urdf2dyn", "opensim"):
        raise ValueError(f"processing: expected 'urdf2dyn' or 'opensim', got {processing!r}")
    opensim = processing == "opensim"
    if time_range is not None:
        t0, t1 = (float(x) for x in time_range)
        if not t0 <= t1:
            raise ValueError(f"time_range: expected t0 <= t1, got {t0:g} {t1:g}")
    start = _time.perf_counter()
    messages = []
    source = (os.fspath(motion) if isinstance(motion, (str, os.PathLike))
              else type(motion).__name__)

    def warn(msg):
        messages.append(msg)
        report(msg, strict=strict, error=MotionError, stacklevel=4)

    csv_options = {k: x for k, x in (("delimiter", delimiter), ("decimal", decimal))
                   if x is not None}
    ik = rec_markers = plates = plate_loads = None
    if (isinstance(motion, (str, os.PathLike))
            and os.path.splitext(os.fspath(motion))[1].lower() in MARKER_EXTENSIONS):
        if degrees or mapping:
            raise ValueError(f"{source}: degrees and mapping apply to coordinate files; a "
                             "marker recording goes through inverse kinematics")
        traj, ik, rec_markers, plates = _motion_from_markers(model, source, rotation,
                                                             ik_threads, ik_setup,
                                                             plate_threshold, strict, warn)
        units = "radians (inverse kinematics of the markers)"
        if plates and grf is None and external_loads is None:
            contacts = G.contact_links(["R", "L"], model, contacts)
            feet = midfoot_positions(model, traj.q, contacts)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", Urdf2dynWarning)
                plate_loads = assign_plates(plates, feet, strict=strict, source=source)
            for w in caught:
                warn(str(w.message))
    else:
        if rotation is not None:
            raise ValueError(f"{source}: rotation applies to marker recordings (C3D, .trc), "
                             "not to coordinate files")
        traj, units = _read_motion(motion, model, degrees, mapping, csv_options)
    if opensim:
        for msg in _opensim_columns(source, traj, model):
            warn(msg)
    check_columns(source, traj, model)
    record = {"source": source, "units": units, "filled_gaps": [], "filter_hz": filter_hz,
              "filter_loads": bool(filter_loads) if filter_hz is not None else None,
              "max_gap": max_gap, "processing": processing, "time_range": time_range}

    # gaps in the coordinates (and in given rates), before anything spreads them
    q_raw, filled = fill_gaps(traj.time, traj.q, traj.names, max_gap, source)
    traj.q = q_raw
    for key in ("v", "a"):
        arr = getattr(traj, key)
        if arr is not None:
            suffix = "_vel" if key == "v" else "_acc"
            arr, more = fill_gaps(traj.time, arr, [f"{n}{suffix}" for n in traj.v_names],
                                  max_gap, source)
            setattr(traj, key, arr)
            filled += more
    if filled:
        record["filled_gaps"] = [str(g) for g in filled]
        warn(f"{source}: filled {len(filled)} gap(s) of at most {max_gap} missing samples by "
             f"cubic interpolation: " + "; ".join(str(g) for g in filled[:10])
             + (f"; and {len(filled) - 10} more" if len(filled) > 10 else ""))

    t, q, v, a = traj.for_model(model)
    if checks_enabled:
        for msg in plausibility.opensim_axes(model, traj.meta, source):
            warn(msg)
        for msg in plausibility.units(model, q, degrees or units.startswith("degrees"), source):
            warn(msg)
        for msg in plausibility.joint_limits(model, t, q, source):
            warn(msg)

    # derivatives (with the optional filter): one estimator, or OpenSim's processing
    if opensim:
        t, q, v, a = _opensim_kinematics(source, model, t, q, filter_hz, warn)
        rows = id_rows(t, time_range)
        if time_range is not None and (t1 < t[0] or t0 > t[-1]):
            warn(f"{source}: the time range {t0:g} .. {t1:g} s lies outside the table's "
                 f"{t[0]:g} .. {t[-1]:g} s: OpenSim's rule keeps the one row at "
                 f"t = {t[rows[0]]:g} s; check the time range (--time-range, <time_range>)")
        t, q, v, a = t[rows], q[rows], v[rows], a[rows]
        record["derivatives"] = "natural quintic spline (OpenSim)"
        record["filter_loads"] = False if filter_hz is not None else None
    elif v is None or a is None:
        qf, v_est, a_est = estimate_derivatives(t, q, method=derivatives, cutoff_hz=filter_hz,
                                                   model=model, return_positions=True)
        if filter_hz is not None:
            q = qf
        v = v_est if v is None else v
        a = a_est if a is None else a
        record["derivatives"] = derivatives
    else:
        record["derivatives"] = "given in the file"
        if filter_hz is not None:
            warn(f"{source}: velocities and accelerations are given in the file: they are used "
                 f"as they are, not filtered at {filter_hz:g} Hz")
            record["filter_hz"] = None
    if time_range is not None and not opensim:
        keep = (t >= t0) & (t <= t1)
        if not keep.any():
            raise MotionError(f"{source}: no sample in the time range {t0:g} .. {t1:g} s (the "
                              f"trial runs {t[0]:g} .. {t[-1]:g} s)")
        t, q, v, a = t[keep], q[keep], v[keep], a[keep]

    ik_time = traj.time if ik is not None else None
    # loads
    f_ext, reactions, loads_source = None, None, None
    if external_loads is not None:
        loads = read_external_loads(external_loads)
        f_ext = loads.wrenches(model, t, q, links=contacts,
                               interpolation="spline" if opensim else "linear")
        loads_source = os.fspath(external_loads)
    else:
        if grf is not None:
            is_csv = (isinstance(grf, (str, os.PathLike))
                      and os.fspath(grf).lower().endswith(".csv"))
            reactions = G.read_grf(replace(grf) if isinstance(grf, Trajectory) else grf,
                                   **(csv_options if is_csv else {}))
            loads_source = os.fspath(grf) if isinstance(grf, (str, os.PathLike)) else "trajectory"
        elif plate_loads is not None:
            reactions = plate_loads
            loads_source = f"{source} (force plates)"
        elif traj.grf:
            reactions = traj
            loads_source = source
        if reactions is not None:
            for msg in _fill_reaction_gaps(reactions, max_gap, loads_source, record):
                warn(msg)
            if checks_enabled:
                fr = reactions.meta.get("force_frame_rate")
                for msg in plausibility.sampling(t, reactions.time if reactions is not traj else None,
                                           loads_source, force_rate=fr):
                    warn(msg)
            f_ext = G.external_loads(reactions, model, time=t, links=contacts)
    record["loads"] = loads_source
    if (f_ext is not None and filter_hz is not None and filter_loads and record["filter_hz"]
            and not opensim):
        f_ext = {k: lowpass(t, w, filter_hz) for k, w in f_ext.items()}

    tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)
    bad = np.flatnonzero(~np.all(np.isfinite(tau), axis=1))
    if len(bad):        # NaN in, NaN out: say where, and what to look at
        rows = ", ".join(str(k + 1) for k in bad[:8]) + (" ..." if len(bad) > 8 else "")
        big = float(np.nanmax(np.abs(np.where(np.isfinite(q), q, np.nan)), initial=0.0))
        warn(f"{source}: the torques are not finite at {len(bad)} of {len(t)} samples (data "
             f"rows {rows}): a coordinate, velocity, acceleration or load there is NaN, "
             f"infinite or too large to differentiate (largest |coordinate| {big:g}); fix "
             "those rows or cut the trial")
    try:
        residuals = G.root_residuals(model, q, tau)
    except ValueError:
        residuals = None

    gravity_wrong = []
    if checks_enabled and f_ext and residuals is not None:
        gravity_wrong = plausibility.gravity(model, t, residuals.force, source)
        for msg in gravity_wrong:
            warn(msg)
    if checks_enabled and f_ext and residuals is not None and not gravity_wrong:
        peak = float(np.linalg.norm(sum(f_ext.values())[:, :3], axis=1).max())
        com = model.center_of_mass(q)
        r = residuals                                   # shifted from the root origin to the CoM
        res_com = G.Residuals(r.force, r.moment + np.cross(r.point - com, r.force), com,
                              r.generalized, r.names, "com")
        for msg in plausibility.residuals(model, t, res_com, peak, _com_height(model, com, reactions),
                                    source):
            warn(msg)
    if (checks_enabled and reactions is not None and len(reactions.time) == len(t)
            and np.array_equal(reactions.time, t)):
        links = G.contact_links(sorted(reactions.grf), model, contacts)
        for msg in plausibility.cop_distance(model, t, q, reactions, links, loads_source,
                                       CONTACT_THRESHOLD):
            warn(msg)
    if ik is not None:
        record["ik_rows"] = np.flatnonzero(np.isin(ik_time, t))
        record["ik_marker_rms_mean"] = float(np.nanmean(ik.rms)) if len(ik.rms) else None
    record["elapsed_s"] = _time.perf_counter() - start
    return TrialResult(source, t, q, v, a, tau, residuals, f_ext, reactions, messages, record,
                       ik, rec_markers, plates)


def inverse_dynamics_setup(setup, model=None, *, time_range=None, strict=False, **options):
    """OpenSim's inverse-dynamics tool run from its setup file (``urdf2dyn torques --setup``).

    Reads the setup (urdf2dyn.biomech.formats.read_id_setup), loads its model_file with
    urdf2dyn.load (or uses model), and runs :func:`inverse_dynamics_trial` with
    ``processing="opensim"`` on its coordinates file, external loads, cutoff and time range.
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
    **options
        Passed to inverse_dynamics_trial (contacts, max_gap, checks_enabled, ...).

    Returns
    -------
    TrialResult
    """
    from .formats.opensim_setup import IDSetup, read_id_setup
    su = setup if isinstance(setup, IDSetup) else read_id_setup(setup, strict=strict)
    if model is None:
        if su.model_file is None:
            raise MotionError(f"{su.path}: <model_file> is empty: name the .osim model (or "
                              "pass a model)")
        from ..model import load
        model = load(su.model_file, strict=strict)
    loads = su.external_loads_file
    if loads is not None and su.excludes_all:
        report(f"{su.path}: <forces_to_exclude> All also leaves out the external loads "
               f"{loads} (as in OpenSim)", strict=strict, error=MotionError)
        loads = None
    if su.model_file and su.model_file.lower().endswith(".osim"):
        kept = _forces_applied(su.model_file, su.forces_to_exclude)
        if kept:
            report(f"{su.path}: the model's force elements {kept[:6]}"
                   f"{' ...' if len(kept) > 6 else ''} are not in <forces_to_exclude>: "
                   "OpenSim would apply them, urdf2dyn applies no force element of a model; "
                   "exclude them (e.g. Muscles, or All) to compare", strict=strict,
                   error=MotionError)
    res = inverse_dynamics_trial(model, su.coordinates_file, external_loads=loads,
                                 filter_hz=su.lowpass_hz, processing="opensim",
                                 time_range=time_range or su.time_range, strict=strict,
                                 **options)
    res.record.update(setup=su.path, output=su.output, model_file=su.model_file,
                      columns=None)
    if su.model_file and su.model_file.lower().endswith(".osim"):
        from .formats.opensim_setup import osim_coordinate_order
        order = osim_coordinate_order(su.model_file)
        if sorted(order) == sorted(model.v_names):
            res.record["columns"] = order            # OpenSim's column order
    return res


def _forces_applied(osim, excluded):
    """Names of the ForceSet entries of an .osim file that OpenSim's tool would leave on
    with forces_to_exclude (its keywords All, Actuators, Muscles; other names by name)."""
    import xml.etree.ElementTree as ET
    try:
        root = ET.parse(osim).getroot()
    except (ET.ParseError, OSError):
        return []
    keys = {x.upper() for x in excluded}
    if "ALL" in keys:
        return []
    kept = []
    for fs in root.iter("ForceSet"):
        objects = fs.find("objects")
        for elem in (objects if objects is not None else []):
            name = elem.get("name") or elem.tag
            muscle = "Muscle" in elem.tag
            actuator = muscle or "Actuator" in elem.tag
            if name in excluded or (muscle and "MUSCLES" in keys) or (
                    actuator and "ACTUATORS" in keys):
                continue
            kept.append(name)
    return kept


# ----------------------------------------------------------------------------- many trials

def _stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def find_trials(items, grf=None):
    """[(motion path, ground-reaction path or None)] from files and folders.

    A folder gives its motion files (MOTION_EXTENSIONS; not ``*_grf.*``, ``*_torques.*``,
    ``*_residuals.*``), each paired with the sibling ``<stem>_grf.<ext>`` when there is one. grf:
    one file, or a pattern with ``{stem}`` and ``{dir}`` for several motions."""
    items = [items] if isinstance(items, (str, os.PathLike)) else list(items)
    jobs = []
    for item in map(os.fspath, items):
        if os.path.isdir(item):
            names = sorted(n for n in os.listdir(item)
                           if n.lower().endswith(MOTION_EXTENSIONS)
                           and not _stem(n).lower().endswith(("_grf", "_torques", "_residuals")))
            if not names:
                raise MotionError(f"{item}: no motion files ({', '.join(MOTION_EXTENSIONS)})")
            jobs += [(os.path.join(item, n), _grf_for(os.path.join(item, n), grf, True))
                     for n in names]
        else:
            if not os.path.exists(item):
                raise MotionError(missing_file(item))
            jobs.append((item, _grf_for(item, grf, False)))
    if grf and len(jobs) > 1 and "{stem}" not in grf:
        raise MotionError("grf (--grf) names one file but there are several motions: use a "
                          "pattern with {stem} (e.g. '{dir}/{stem}_grf.csv'), or put "
                          "<stem>_grf.csv next to each motion in a folder")
    return jobs


def _grf_for(motion, pattern, sibling):
    if pattern:
        return pattern.format(stem=_stem(motion), dir=os.path.dirname(motion) or ".")
    if sibling:
        base = os.path.join(os.path.dirname(motion), _stem(motion) + "_grf")
        for ext in (".csv", ".sto", ".mot", ".mat"):
            if os.path.exists(base + ext):
                return base + ext
    return None


def _run_one(job, model, options):
    """One trial in a worker (a local process or a Dask worker): its warnings travel back in
    the result (the caller re-emits them), not to the worker's stderr."""
    path, grf = job
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return inverse_dynamics_trial(model, path, grf, **options)


def run_trials(model, trials, grf=None, *, scheduler=None, max_workers=None, strict=False,
               progress=None, **options):
    """inverse_dynamics_trial over many trials; returns [TrialResult] in the trials' order.

    Parameters
    ----------
    model : urdf2dyn.Model
    trials : path, folder, or list of them
        Motion files and folders (see :func:`find_trials`: a folder pairs each motion with its
        ``<stem>_grf.*`` file).
    grf : str, optional
        Ground reactions for every motion: a pattern with ``{stem}`` / ``{dir}``.
    scheduler : None, str or distributed.Client
        None: local processes (concurrent.futures.ProcessPoolExecutor, max_workers of them;
        max_workers=1 runs in this process). A Dask scheduler address (``"tcp://host:8786"``)
        or a ``distributed.Client``: the trials run on that cluster (pip install
        "urdf2dyn[dask]").
    strict : bool
        Warnings are errors (the first one stops the batch).
    progress : callable, optional
        Called with each TrialResult as it completes (e.g. to advance a progress bar).
    **options
        Passed to inverse_dynamics_trial (filter_hz, derivatives, contacts, mapping, ...).

    Each trial's warnings are re-emitted here (category urdf2dyn.Urdf2dynWarning) and kept in
    its result. A batch in which some trials have ground reactions and others have none warns,
    naming the latter: their torques carry the whole external load as root residuals.
    """
    jobs = find_trials(trials, grf) if not _is_job_list(trials) else list(trials)
    options = dict(options, strict=strict)
    if scheduler is None:
        results = _run_local(jobs, model, options, max_workers, progress)
    else:
        results = _run_dask(jobs, model, options, scheduler, progress)
    for r in results:
        for msg in r.warnings:
            warnings.warn(msg, Urdf2dynWarning, stacklevel=2)
    with_loads = [r for r in results if r.f_ext]
    without = [r.path for r in results if not r.f_ext]
    if with_loads and without:
        msg = (f"{len(without)} of {len(results)} trials have no ground reactions while the "
               f"others do: {', '.join(without[:10])}{' ...' if len(without) > 10 else ''}. "
               "Their torques and residuals carry the whole external load: add their "
               "<stem>_grf.* files (or --grf PATTERN), or run them separately")
        for r in results:
            if not r.f_ext:
                r.warnings.append(msg)
        report(msg, strict=strict, error=MotionError)
    return results


def _is_job_list(trials):
    return (isinstance(trials, list) and trials and all(isinstance(x, tuple) for x in trials))


def _run_local(jobs, model, options, max_workers, progress):
    if max_workers == 1 or len(jobs) == 1:
        out = []
        for job in jobs:
            out.append(_run_one(job, model, options))
            if progress:
                progress(out[-1])
        return out
    from concurrent.futures import ProcessPoolExecutor
    workers = max_workers or min(len(jobs), os.cpu_count() or 1)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return _collect([pool.submit(_run_one, job, model, options) for job in jobs], progress)


def _collect(futures, progress):
    """The futures' results in submission order (local or Dask futures alike)."""
    out = []
    for f in futures:
        out.append(f.result())
        if progress:
            progress(out[-1])
    return out


def _run_dask(jobs, model, options, scheduler, progress):
    try:
        from distributed import Client
    except ImportError:
        raise ImportError("run_trials(scheduler=...) needs Dask's distributed scheduler: pip "
                          "install \"urdf2dyn[dask]\"") from None
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    try:
        return _collect(client.map(_run_one, jobs, model=model, options=options, pure=False),
                        progress)
    finally:
        if own:
            client.close()
