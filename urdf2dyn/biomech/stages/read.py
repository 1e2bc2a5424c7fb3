"""The read stage: a trial's motion as coordinates, from a coordinates file (CSV, OpenSim
.mot/.sto, HuMoD .mat), a Trajectory or a DataFrame, or from a marker recording (C3D, .trc)
through inverse kinematics; and the check of its columns against the model."""
import difflib
import os
import warnings
from dataclasses import replace

import numpy as np

from ...warn import MotionError, Urdf2dynWarning, missing_file
from .. import formats
from ..trajectory import Trajectory

__all__ = ["MOTION_EXTENSIONS", "MARKER_EXTENSIONS", "check_columns"]

MOTION_EXTENSIONS = (".csv", ".mot", ".sto", ".mat", ".c3d", ".trc")
#: Recordings of markers: inverse kinematics first, then the same pipeline.
MARKER_EXTENSIONS = (".c3d", ".trc")


def _read_motion(path, model, degrees, mapping, csv_options=None):
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
        raise MotionError(f"{path}: --degrees applies to CSV files (degrees=True in Python; OpenSim "
                          "files say inDegrees in their header, HuMoD files are in radians)")
    if ext in (".mot", ".sto"):
        traj = formats.read_opensim(path, model=model, mapping=mapping)
        return traj, "degrees (inDegrees=yes)" if traj.meta["in_degrees"] else "radians"
    if ext == ".mat":
        return formats.read_humod(path, mapping=mapping), "radians (HuMoD)"
    raise MotionError(f"{path}: unknown motion format {ext!r} (expected one of "
                      f"{', '.join(MOTION_EXTENSIONS)})")


def check_columns(path, traj, model):
    """Raise MotionError naming the model's missing columns and the file's unknown ones."""
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
    guesses = [f"{u!r} -> {close[0]!r}" for u in unknown
               for close in [difflib.get_close_matches(u, missing, n=1)] if close]
    if guesses:
        problems.append(f"did you mean {', '.join(guesses)}?")
    if unknown:
        problems.append(f"unknown columns {unknown} (expected 'time', the model's coordinates "
                        f"{model.q_names}, optionally '<dof>_vel' / '<dof>_acc', and ground "
                        "reactions grfX_<foot> .. copZ_<foot>; rename with a mapping: "
                        "--mapping FILE)")
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


def _motion_from_markers(model, source, rotation, threads, ik_setup, threshold, strict, warn):
    """(coordinates Trajectory, IKSolution, Markers, plates) of a C3D or .trc recording."""
    from ..ik import run_setup, solve
    if source.lower().endswith(".c3d"):
        from ..formats.c3d import read_c3d
        rec = read_c3d(source, rotation=rotation, strict=strict,
                       **({} if threshold is None else {"threshold": threshold}))
        markers, plates = rec.markers, rec.plates
    else:
        from ..formats.trc import read_trc
        markers, plates = read_trc(source), []
        if rotation is not None:
            markers = markers.rotated(rotation)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        if ik_setup is not None:
            result = run_setup(ik_setup, output="", model=model, marker_data=markers,
                               threads=1 if threads is None else threads, strict=strict)
        else:
            result = solve(model, markers, locked=model.locked_coordinates,
                           ranges=model.clamped_ranges, q0=model.default_q,
                           threads=1 if threads is None else threads, strict=strict)
    for w in caught:
        warn(f"{source}: {w.message}")
    rows = np.isin(markers.time, result.motion.time)      # a setup's time range
    if plates and not rows.all():
        plates = [replace(p, time=p.time[rows], force=p.force[rows], cop=p.cop[rows],
                          moment=p.moment[rows], contact=p.contact[rows]) for p in plates]
    return result.motion, result.solution, markers, plates


def _opensim_columns(source, traj, model):
    """OpenSim's tool on a coordinates file: a model coordinate the file lacks keeps its
    default value (0), a column the model lacks is ignored; both are said. traj is changed
    in place (its rates are dropped: OpenSim differentiates the coordinates itself)."""
    notes = []
    names = list(traj.names)
    extra = [n for n in names if n not in model.q_names]
    missing = [n for n in model.q_names if n not in names]
    if extra:
        keep = [k for k, n in enumerate(names) if n in model.q_names]
        traj.q, traj.names = traj.q[:, keep], [names[k] for k in keep]
        notes.append(f"{source}: columns {extra[:8]}{' ...' if len(extra) > 8 else ''} are not "
                     f"coordinates of the model '{model.name}': ignored, as OpenSim's "
                     "inverse-dynamics tool ignores them")
    if missing:
        traj.q = np.column_stack([traj.q, np.zeros((len(traj.time), len(missing)))])
        traj.names = list(traj.names) + missing
        notes.append(f"{source}: no column for the coordinates {missing[:8]}"
                     f"{' ...' if len(missing) > 8 else ''}: held at 0 (their default value), "
                     "as OpenSim's inverse-dynamics tool does; add them to the file if they move")
    if traj.v is not None or traj.a is not None:
        traj.v = traj.a = None
        traj.v_names = None
        notes.append(f"{source}: velocity/acceleration columns are not used: OpenSim's "
                     "inverse-dynamics tool differentiates the coordinates (natural quintic "
                     "splines)")
    return notes
