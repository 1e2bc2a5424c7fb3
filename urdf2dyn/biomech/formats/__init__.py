"""Recordings in and out, one module per file format; :func:`read` and :func:`write` choose by
the file's extension.

* :mod:`.csv`: CSV files and pandas DataFrames;
* :mod:`.opensim`: OpenSim .mot/.sto tables and ExternalLoads setup files;
* :mod:`.opensim_setup`: OpenSim's inverse-dynamics setup files (Setup_ID.xml);
* :mod:`.humod`: HuMoD .mat files;
* :mod:`.torques`: generalized forces as OpenSim's inverse-dynamics .sto or CSV.

Every reader returns a :class:`urdf2dyn.biomech.Trajectory` in SI units.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..trajectory import MotionError, Trajectory
from .csv import from_dataframe, read_csv, read_table, to_dataframe, write_csv, write_table
from .humod import HUMOD_LENGTH_SCALE, read_humod, write_humod
from .opensim import (ExternalForce, ExternalLoads, ExternalLoadsError, read_external_loads,
                      read_opensim, read_sto_table, write_opensim)
from .opensim_setup import IDSetup, SetupError, osim_coordinate_order, read_id_setup
from .torques import read_torques, torque_names, write_torques

__all__ = ["read", "write", "read_columns", "read_csv", "write_csv", "read_table", "write_table",
           "to_dataframe", "from_dataframe", "read_opensim", "write_opensim", "read_sto_table",
           "read_external_loads", "ExternalLoads", "ExternalForce", "ExternalLoadsError",
           "read_humod", "write_humod", "HUMOD_LENGTH_SCALE", "read_torques", "write_torques",
           "torque_names", "read_id_setup", "IDSetup", "SetupError",
           "osim_coordinate_order"]

_READERS: dict[str, Callable[..., Trajectory]] = {
    ".csv": read_csv, ".mot": read_opensim, ".sto": read_opensim, ".mat": read_humod}
_WRITERS: dict[str, Callable[..., None]] = {
    ".csv": write_csv, ".mot": write_opensim, ".sto": write_opensim, ".mat": write_humod}


def read(path: str | os.PathLike[str], **options: Any) -> Trajectory:
    """Read a trajectory file by its extension: .csv, .mot/.sto (OpenSim), .mat (HuMoD)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in _READERS:
        raise ValueError(f"{os.fspath(path)}: unknown trajectory format {ext!r} "
                         f"(expected one of {sorted(_READERS)})")
    return _READERS[ext](path, **options)


def write(path: str | os.PathLike[str], traj: Trajectory, **options: Any) -> None:
    """Write a trajectory file by its extension (see read)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in _WRITERS:
        raise ValueError(f"{os.fspath(path)}: unknown trajectory format {ext!r} "
                         f"(expected one of {sorted(_WRITERS)})")
    _WRITERS[ext](path, traj, **options)


def read_columns(path):
    """(labels, data) of a CSV or OpenSim .mot/.sto file exactly as written (no unit
    conversion, no column interpretation): for callers that address columns by their labels,
    such as OpenSim's ExternalLoads identifiers."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in (".mot", ".sto"):
        labels, data, _, _ = read_sto_table(path)
        return labels, data
    if ext == ".csv":
        return read_table(path)
    raise MotionError(f"{os.fspath(path)}: unknown table format {ext!r} (expected .csv, .mot or "
                      ".sto)")
