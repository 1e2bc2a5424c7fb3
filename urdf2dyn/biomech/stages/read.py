"""The read stage: a trial's motion as coordinates, from a coordinates file (CSV, OpenSim
.mot/.sto, HuMoD .mat), a Trajectory or a DataFrame, or from a marker recording (C3D, .trc)
through inverse kinematics (urdf2dyn.biomech.ik.fit); the processing's column rule; and the
check of the columns against the model."""
import difflib
import os
import warnings
from dataclasses import replace

import numpy as np

from ...warn import MotionError, Urdf2dynWarning, missing_file
from .. import formats
from ..ik import coordinate_file_reader, fit, measured_frames
from ..processing import LIBRARY_COLUMNS
from ..trajectory import Trajectory
from .trial import Motion, Trial

__all__ = ["read", "read_coordinates", "motion_from_markers", "check_columns",
           "MOTION_EXTENSIONS", "MARKER_EXTENSIONS"]

MOTION_EXTENSIONS = (".csv", ".mot", ".sto", ".mat", ".c3d", ".trc")
#: Recordings of markers: inverse kinematics first, then the same stages.
MARKER_EXTENSIONS = (".c3d", ".trc")


def read(trial: Trial) -> Trial:
    """The trial with its :class:`Motion`: the coordinates of its source, the columns
    checked against the model."""
    s, model, source = trial.settings, trial.model, trial.name
    if is_marker_recording(trial.source):
        if s.degrees or s.mapping:
            raise ValueError(f"{source}: {_coordinate_options_given(s)}")
        motion = motion_from_markers(model, source, s, trial.warn)
    else:
        if s.rotation is not None:
            raise ValueError(f"{source}: rotation applies to marker recordings (C3D, .trc), "
                             "not to coordinate files")
        traj, units = read_coordinates(trial.source, model, s.degrees, s.mapping_given,
                                       s.csv_options)
        motion = Motion(source, traj, units)
    for msg in s.processing.columns(source, motion.trajectory, model):
        trial.warn(msg)
    check_columns(source, motion.trajectory, model, s.columns_named)
    return replace(trial, motion=motion)


def _coordinate_options_given(s):
    """Why a marker recording refuses the options of a coordinate file settings s give: those
    given, in the caller's words (s.columns_named: --degrees on a command line, degrees=True
    in Python), not both whatever was given."""
    given = [s.columns_named.said(option) or option
             for option, value in (("degrees", s.degrees), ("mapping", s.mapping)) if value]
    one = len(given) == 1
    return (f"{' and '.join(given)} appl{'ies' if one else 'y'} to coordinate files (CSV, "
            ".mot, .sto, .mat); a marker recording goes through inverse kinematics, whose "
            "coordinates come in the model's names and radians: leave "
            f"{'it' if one else 'them'} out")


def is_marker_recording(motion):
    """Whether motion names a marker recording (C3D, .trc) rather than coordinates."""
    return (isinstance(motion, (str, os.PathLike))
            and os.path.splitext(os.fspath(motion))[1].lower() in MARKER_EXTENSIONS)


def read_coordinates(path, model, degrees=None, mapping=None, csv_options=None):
    """(Trajectory, how its angles were read) of a coordinates file (CSV, OpenSim .mot/.sto,
    HuMoD .mat), a Trajectory (copied) or a pandas DataFrame."""
    if isinstance(path, Trajectory):                 # read already: SI units, a copy
        if degrees:
            raise ValueError("degrees=True: a Trajectory is in radians already (convert when "
                             "reading it, e.g. formats.read_csv(path, degrees=True, model=model))")
        return replace(path.renamed(mapping) if mapping else path), "radians (trajectory)"
    if hasattr(path, "to_numpy") and hasattr(path, "columns"):       # a pandas DataFrame
        traj = formats.from_dataframe(path, degrees=bool(degrees), model=model, mapping=mapping)
        return traj, "degrees" if degrees else "radians"
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if not os.path.exists(path):
        raise MotionError(missing_file(path))
    if ext == ".csv":
        return formats.read_csv(path, degrees=bool(degrees), model=model, mapping=mapping,
                                **(csv_options or {})), (
            "degrees" if degrees else "radians")
    if degrees:
        named = (csv_options or {}).get("named", LIBRARY_COLUMNS)    # --degrees, degrees=True
        raise MotionError(f"{path}: {named.said('degrees') or 'degrees'} applies to CSV files "
                          "(OpenSim files say inDegrees in their header, a .mot without a "
                          "version line is in degrees, HuMoD files are in radians): leave it "
                          "out")
    if ext in (".mot", ".sto"):
        traj = formats.read_opensim(path, model=model, mapping=mapping)
        return traj, traj.meta["units"]
    if ext == ".mat":
        return formats.read_humod(path, mapping=mapping), "radians (HuMoD)"
    raise MotionError(f"{path}: unknown motion format {ext!r} (expected one of "
                      f"{', '.join(MOTION_EXTENSIONS)})")


def motion_from_markers(model, source, settings, warn):
    """The :class:`Motion` of a C3D or .trc recording: its markers (turned by
    settings.rotation into the model's frame) fitted by inverse kinematics as settings.ik says,
    the C3D's plates (at settings.plate_rate) kept from the first frame fitted to the last,
    its events. Frames whose pose the markers present do not determine are cut at the ends
    and gaps inside (urdf2dyn.biomech.ik.measured_frames). The IK's warnings are the
    trial's."""
    s = settings
    if source.lower().endswith(".c3d"):
        from ..formats.c3d import read_c3d
        rec = read_c3d(source, rotation=s.rotation, strict=s.strict,
                       rate="analog" if s.plate_rate == "analog" else "markers",
                       **({} if s.plate_threshold is None else {"threshold": s.plate_threshold}))
        markers, plates, events = rec.markers, rec.plates, tuple(rec.events)
    else:
        from ..formats.trc import read_trc
        markers, plates, events = read_trc(source), [], ()
        if s.rotation is not None:
            markers = markers.rotated(s.rotation)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        result = fit(model, markers, s.ik, strict=s.strict, undetermined_said=True,
                     **coordinate_file_reader(s.processing))
    for w in caught:
        warn(f"{source}: {w.message}")
    # the frames the markers determine
    result, messages = measured_frames(result, source, s.columns_named)
    for msg in messages:
        warn(msg)
    plates = [_plate_over(p, result.motion.time) for p in plates]   # a setup's time range
    return Motion(source, result.motion, "radians (inverse kinematics of the markers)",
                  result.solution, markers, plates, events)


def _plate_over(plate, times):
    """The plate's samples from the first to the last of times (the frames fitted), at
    whatever rate it was read."""
    tol = 1e-9 * max(1.0, float(np.max(np.abs(times))))
    rows = (plate.time >= times[0] - tol) & (plate.time <= times[-1] + tol)
    if rows.all():
        return plate
    return replace(plate, time=plate.time[rows], force=plate.force[rows], cop=plate.cop[rows],
                   moment=plate.moment[rows], contact=plate.contact[rows])


def _renames(model, unknown, missing):
    """[(column, coordinate)]: the file's unknown columns that look like a mistyped name of a
    coordinate the model lacks. A joint's coordinates are one model's angles (a shoulder's
    Z-X-Y or Y-Z-Y), so a joint's renames are offered only when they cover every coordinate
    of it that the file lacks: one name alike among another model's columns is no rename."""
    pairs = [(u, close[0]) for u in unknown
             for close in [difflib.get_close_matches(u, missing, n=1)] if close]
    renamed = {c for _, c in pairs}
    joint_of = {n: j.name for j in model.joints
                for n in model.q_names[j.q_index:j.q_index + j.nq]}
    lacking: dict[str, set[str]] = {}
    for n in missing:
        lacking.setdefault(joint_of.get(n, n), set()).add(n)
    return [(u, c) for u, c in pairs if lacking[joint_of.get(c, c)] <= renamed]


def check_columns(path, traj, model, named=LIBRARY_COLUMNS):
    """Raise MotionError naming the model's missing columns and the file's unknown ones, and
    what to do: the options it advises are the caller's, as named says (ColumnOptions)."""
    names = list(traj.names)
    floating_from_humod = (any(j.type == "floating" for j in model.joints) and "pBJX" in names
                           and model.q_names[0] == "BJ_x")
    coords = set(model.q_names)
    if floating_from_humod:
        coords = (coords - {f"BJ_{s}" for s in ("x", "y", "z", "qx", "qy", "qz", "qw")}) | {
            "pBJX", "pBJY", "pBJZ", "rBJX", "rBJY", "rBJZ"}
    problems = []
    missing = [n for n in (model.q_names if not floating_from_humod else sorted(coords))
               if n not in names]
    unknown = [n for n in names if n not in coords]
    if missing:
        problems.append(f"missing columns {missing}")
    guesses = _renames(model, unknown, missing)
    if guesses:
        problems.append(f"did you mean {', '.join(f'{u!r} -> {c!r}' for u, c in guesses)}?")
    elif unknown and missing:
        problems.append("no renaming of the unknown columns (below) covers the joints the "
                        "model lacks: the motion was made for another model. Fit this model's "
                        f"coordinates ({named.marker_fit} on the markers)" + (
                            "" if named.processing is None else
                            ", or hold the missing ones at their default values and ignore "
                            "those columns as OpenSim's inverse-dynamics tool does "
                            f"({named.processing})"))
    elif missing:       # a file that leaves out the coordinates that do not move
        problems.append("add their columns to the file (a coordinate that does not move: its "
                        "value in every row)" + (
                            "" if named.processing is None else
                            ", or hold them at their default values as OpenSim's "
                            f"inverse-dynamics tool does ({named.processing})"))
    free = [f"root_joint_{s}" for s in ("x", "y", "z", "qx", "qy", "qz", "qw")]
    if not any(j.type == "floating" for j in model.joints) and all(n in unknown for n in free):
        problems.append(f"the columns {free} are the floating joint 'root_joint' that "
                        "urdf2dyn.load(..., floating_base=True) adds above the root link" + (
                            ", which this command does not add" if named.floating_base is None
                            else f": load the model with it ({named.floating_base})"))
    if unknown:
        rename = ("rename them in the file" if named.mapping is None else
                  f"rename with a mapping: {named.mapping}")
        problems.append(f"unknown columns {unknown} (expected 'time', the model's coordinates "
                        f"{model.q_names}, optionally '<dof>_vel' / '<dof>_acc', and ground "
                        f"reactions grfX_<foot> .. copZ_<foot>; {rename})")
    if traj.v_names is not None and not floating_from_humod:
        for kind, arr, suffix in (("velocity", traj.v, "_vel"), ("acceleration", traj.a, "_acc")):
            if arr is not None and sorted(traj.v_names) != sorted(model.v_names):
                miss = [f"{n}{suffix}" for n in model.v_names if n not in traj.v_names]
                extra = [f"{n}{suffix}" for n in traj.v_names if n not in model.v_names]
                problems.append(f"incomplete {kind} columns: missing {miss}"
                                + (f", unknown {extra}" if extra else ""))
    if problems:
        raise MotionError(f"{path}: " + "; ".join(problems))
    if len(traj) < 3:
        raise MotionError(f"{path}: need at least 3 samples, got {len(traj)}")
