"""Recordings in and out, one module per file format; :func:`read` and :func:`write` choose by
the file's extension.

* :mod:`.csv`: CSV files and pandas DataFrames;
* :mod:`.opensim`: OpenSim .mot/.sto tables and ExternalLoads setup files;
* :mod:`.opensim_setup`: OpenSim's inverse-dynamics setup files (Setup_ID.xml);
* :mod:`.rra_setup`: OpenSim's residual reduction setups (Setup_RRA.xml), task sets and
  actuator sets;
* :mod:`.humod`: HuMoD .mat files;
* :mod:`.torques`: generalized forces as OpenSim's inverse-dynamics .sto or CSV;
* :mod:`.c3d`: C3D motion-capture files (markers, force plates, events; needs ezc3d);
* :mod:`.trc`: OpenSim's marker files.

Every reader returns a :class:`urdf2dyn.biomech.Trajectory` in SI units.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..._lazy import lazy_names
from ..._safe_files import check_outputs, guarding
from ...warn import MotionError, counted

if TYPE_CHECKING:
    from ..trajectory import Trajectory

# each reader and writer imported when first used (urdf2dyn._lazy): the names each module
# gives this package, and every format module itself
_EXPORTS = {
    "csv": "from_dataframe read_csv read_table to_dataframe write_csv write_table",
    "humod": "HUMOD_LENGTH_SCALE read_humod write_humod",
    "opensim": "ExternalForce ExternalLoads ExternalLoadsError read_external_loads "
               "read_opensim read_sto_table write_external_loads write_opensim",
    "opensim_setup": "IDSetup SetupError osim_coordinate_order read_id_setup",
    "rra_setup": "RRASetup RRASetupError read_actuators read_rra_setup read_tasks",
    "torques": "read_torques torque_names torque_units write_torques",
    "c3d": "C3D Event Plate read_c3d write_grf",
    "trc": "read_trc write_trc"}
_NAMES = {name: f".{module}:{name}" for module, names in _EXPORTS.items()
          for name in names.split()}
_NAMES.update({module: f".{module}" for module in (
    *_EXPORTS, "osim", "ik_setup", "scale_setup", "setup_xml", "windows")})
__getattr__, __dir__ = lazy_names(__name__, _NAMES)

__all__ = ["read", "write", "read_columns", "read_csv", "write_csv", "read_table", "write_table",
           "to_dataframe", "from_dataframe", "read_opensim", "write_opensim", "read_sto_table",
           "read_external_loads", "ExternalLoads", "ExternalForce", "ExternalLoadsError",
           "read_humod", "write_humod", "HUMOD_LENGTH_SCALE", "read_torques", "write_torques",
           "torque_names", "torque_units", "read_id_setup", "IDSetup", "SetupError",
           "read_rra_setup", "RRASetup", "RRASetupError", "read_tasks", "read_actuators",
           "osim_coordinate_order", "read_c3d", "write_grf", "C3D", "Plate", "Event", "read_trc",
           "write_trc", "read_markers", "convert", "CONVERTERS", "write_external_loads"]

# by suffix, the names of this package's reader and writer
_READERS = {".csv": "read_csv", ".mot": "read_opensim", ".sto": "read_opensim",
            ".mat": "read_humod"}
_WRITERS = {".csv": "write_csv", ".mot": "write_opensim", ".sto": "write_opensim",
            ".mat": "write_humod"}


def read(path: str | os.PathLike[str], **options: Any) -> Trajectory:
    """Read a trajectory file by its extension: .csv, .mot/.sto (OpenSim), .mat (HuMoD)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in _READERS:
        raise ValueError(f"{os.fspath(path)}: unknown trajectory format {ext!r} "
                         f"(expected one of {sorted(_READERS)})")
    return __getattr__(_READERS[ext])(path, **options)


def write(path: str | os.PathLike[str], traj: Trajectory, **options: Any) -> None:
    """Write a trajectory file by its extension (see read)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in _WRITERS:
        raise ValueError(f"{os.fspath(path)}: unknown trajectory format {ext!r} "
                         f"(expected one of {sorted(_WRITERS)})")
    __getattr__(_WRITERS[ext])(path, traj, **options)


def read_markers(path: str | os.PathLike[str], rotation: Any = None,
                 strict: bool = False) -> Any:
    """The markers of a recording, .trc (urdf2dyn's reader of OpenSim's marker files) or .c3d,
    turned into the model's frame by ``rotation`` (as :func:`read_c3d` takes it; None: as
    recorded, the way OpenSim reads a .trc). A static trial's, an IK setup's marker file."""
    path = os.fspath(path)
    if path.lower().endswith(".c3d"):
        return __getattr__("read_c3d")(path, rotation=rotation, strict=strict).markers
    markers = __getattr__("read_trc")(path, strict=strict)
    return markers.rotated(rotation) if rotation is not None else markers


def read_columns(path):
    """(labels, data) of a CSV or OpenSim .mot/.sto file exactly as written (no unit
    conversion, no column interpretation): for callers that address columns by their labels,
    such as OpenSim's ExternalLoads identifiers."""
    from ..processing import LIBRARY_COLUMNS
    from .csv import read_table
    from .opensim import read_sto_table
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in (".mot", ".sto"):
        labels, data, _, _ = read_sto_table(path)
        return labels, data
    if ext == ".csv":   # no caller's option sets its separators: its refusals say rewrite it
        return read_table(path, named=LIBRARY_COLUMNS._replace(delimiter=None, decimal=None))
    raise MotionError(f"{os.fspath(path)}: unknown table format {ext!r} (expected .csv, .mot or "
                      ".sto)")


def _convert_c3d(source, outputs, rotation=None, threshold=None, units=None, strict=False,
                 rate=None, named=None):
    # named (the caller's words) is unused: a C3D's summaries advise no option
    from .c3d import CONTACT_THRESHOLD, holdings, read_c3d, write_grf
    from .trc import write_trc
    units, rate = units or "mm", rate or "analog"
    if rate not in ("analog", "marker"):
        raise ValueError(f"rate: expected 'analog' (the plates' own rate, as OpenSim's "
                         f"C3DFileAdapter gives them) or 'marker', got {rate!r}")
    rec = read_c3d(source, rotation=rotation, strict=strict,
                   threshold=CONTACT_THRESHOLD if threshold is None else threshold,
                   rate="analog" if rate == "analog" else "markers")
    done = []
    for out in outputs:
        ext = os.path.splitext(os.fspath(out))[1].lower()
        if ext == ".trc":
            if not rec.markers.labels:
                # read_c3d has warned of the segment poses it does not read: not said twice
                why = ("the file holds no POINT markers, only segment poses (see the warning "
                       "above)" if rec.meta.get("segments") else holdings([], rec.plates))
                raise MotionError(f"{source}: no markers to write to {os.fspath(out)}: {why}")
            write_trc(out, rec.markers, units=units)
            prefix = rec.markers.meta.get("label_prefix")
            done.append((os.fspath(out), f"{counted(len(rec.markers.labels), 'marker')}, "
                                         f"{counted(len(rec.markers), 'frame')}" +
                         (f" (labels without the subject prefix '{prefix}', as models name "
                          "them)" if prefix else "")))
        elif ext in (".mot", ".sto"):
            write_grf(out, rec.plates)
            done.append((os.fspath(out), f"{counted(len(rec.plates), 'force plate')}, "
                                         f"{counted(len(rec.plates[0].time), 'sample')}"))
        else:
            raise ValueError(f"{os.fspath(out)}: a C3D file converts to .trc (markers) or .mot "
                             f"(force plates), not {ext or 'a file without a suffix'}")
    return done


def _convert_osim(source, outputs, strict=False, named=None, **c3d_options):
    from ...convert import osim_to_urdf
    from ...model import load
    from ..processing import LIBRARY_COLUMNS
    given = sorted(options_not_taken(source, c3d_options))
    if given:
        raise ValueError(f"{os.fspath(source)}: the options {', '.join(given)} are for C3D "
                         "files; an OpenSim model converts without them")
    if len(outputs) != 1 or not outputs[0].lower().endswith(".urdf"):
        raise ValueError(f"{os.fspath(source)}: an OpenSim model converts to one URDF file: "
                         f"give -o MODEL.urdf (got {' '.join(outputs)})")
    model = load(source)
    text = osim_to_urdf(model, outputs[0], strict=strict)
    g = " ".join(f"{x:g}" for x in model.gravity)
    # a URDF holds no gravity: say how this caller gives it to the model loaded from it
    set_gravity = (LIBRARY_COLUMNS if named is None else named).said(
        "gravity", "; where its dynamics are computed, set it with {}", tuple(model.gravity))
    movable = text.count("<joint ") - text.count('type="fixed"')
    return [(outputs[0], f"URDF '{model.name}', {text.count('<link ')} links, {movable} "
                         f"movable joints named after the coordinates; the model's gravity is "
                         f"{g}, which the URDF does not hold{set_gravity}")]


def options_not_taken(source, options):
    """The options given (not None), in their order, that converting source does not take: a
    C3D file's (rotation, threshold, units, rate) beside a model; none for a C3D file or a
    suffix convert does not read (convert refuses that, naming the suffixes it reads)."""
    ext = os.path.splitext(os.fspath(source))[1].lower()
    if ext == ".c3d" or ext not in CONVERTERS:
        return []
    return [k for k, v in options.items() if v is not None]


#: convert's readers by input suffix: each takes (source, outputs, named=, **options) and
#: returns [(written path, what it holds)].
CONVERTERS: dict[str, Callable[..., list[tuple[str, str]]]] = {".c3d": _convert_c3d,
                                                               ".osim": _convert_osim}


def convert(source, outputs, *, named=None, **options):
    """Convert a file by its suffix (``urdf2dyn convert``): a C3D file to a .trc (markers)
    and/or an OpenSim .mot (force plates: ground_force_v*, _p*, ground_torque_* per plate);
    an OpenSim model to one .urdf (urdf2dyn.convert.osim_to_urdf).

    Parameters
    ----------
    source : str or os.PathLike
    outputs : list of str or os.PathLike
        The files to write; their suffixes say what goes in each.
    **options
        strict (refuse what would otherwise be a warning); for C3D also rotation (lab to
        model, e.g. "x:-90"), threshold (N), units (of the .trc, default "mm"), rate
        ("analog", the default: the plates at the analog rate, as OpenSim's C3DFileAdapter
        writes them; "marker": each marker frame's mean). None is the default.
    named : urdf2dyn.biomech.processing.ColumnOptions, optional
        The caller's words for the options a summary advises (the model's gravity, which a
        URDF does not hold); default: the library's (LIBRARY_COLUMNS).

    Returns
    -------
    list of (str, str)
        Each file written and a one-line summary of it.
    """
    ext = os.path.splitext(os.fspath(source))[1].lower()
    if ext not in CONVERTERS:
        raise ValueError(f"{os.fspath(source)}: cannot convert a {ext or 'suffix-less'} file "
                         f"(convert reads {sorted(CONVERTERS)})")
    outputs = [os.fspath(o) for o in outputs]
    with guarding([("input", os.fspath(source))]):    # no output over the source, by any name
        check_outputs(("output", o) for o in outputs)
        return CONVERTERS[ext](os.fspath(source), outputs, named=named, **options)
