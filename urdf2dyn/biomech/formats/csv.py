"""CSV files and pandas DataFrames: the table layout of urdf2dyn.biomech.trajectory.

One reader (:func:`read_table`) and one writer (:func:`write_table`) handle every CSV; empty and
NaN cells are missing samples (see urdf2dyn.biomech.processing). CSV files and DataFrames carry
no unit: pass ``degrees=True`` when their angles are in degrees. pandas is needed only for
DataFrames (and reads large CSV files faster when installed); it is imported on first use.
"""
from __future__ import annotations

import csv
import math
import os

import numpy as np

from ..trajectory import MotionError, _from_table, _to_table

__all__ = ["read_table", "write_table", "read_csv", "write_csv", "to_dataframe",
           "from_dataframe", "MISSING"]

#: CSV files larger than this (bytes) are parsed with pandas' C reader when pandas is
#: installed (about 3x faster); Python's csv module otherwise (same results and messages).
FAST_CSV_BYTES = 1 << 20

#: Cell texts read as a missing sample (NaN): an empty cell (pandas' ``df.to_csv()`` writes NaN
#: so) and the usual spellings of NaN.
MISSING = ("", "nan", "NaN", "NAN", "-nan", "+nan", "NA", "N/A", "null")


def read_table(path):
    """(header, data) of a numeric CSV file with one header line: the one CSV reader.

    Cells that are empty or spell NaN (:data:`MISSING`; pandas' ``df.to_csv()`` writes NaN as an
    empty cell) are read as NaN, i.e. missing samples; what to do about them is the caller's
    choice (urdf2dyn.biomech.processing). Anything else that is not a number is refused, naming the row and the
    column. Files over FAST_CSV_BYTES go through pandas' C parser when pandas is installed."""
    path = os.fspath(path)
    with open(path, newline="", encoding="utf-8-sig") as f:
        header = [h.strip() for h in next(csv.reader(f), [])]
    if not header or header == [""]:
        raise MotionError(f"{path}: empty file (expected a header line)")
    data = _read_fast(path, len(header)) if os.path.getsize(path) > FAST_CSV_BYTES else None
    if data is None:
        try:                   # NumPy's C parser: a clean table (numbers, nan) in one pass
            data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=float,
                              encoding="utf-8-sig")
            if data.shape[0] and data.shape[1] != len(header):
                data = None
        except ValueError:     # empty cells, words, ragged rows: the csv module words it
            data = None
    if data is None:
        data = _read_slow(path, header)
    return header, data.reshape(-1, len(header))


def _read_slow(path, header):
    missing = set(MISSING)
    rows = []
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        next(reader, None)
        for lineno, row in enumerate(reader, 2):
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != len(header):
                raise MotionError(f"{path}: line {lineno} has {len(row)} values for "
                                  f"{len(header)} header columns")
            out = []
            for col, cell in zip(header, row):
                cell = cell.strip()
                if cell in missing:
                    out.append(math.nan)
                    continue
                try:
                    out.append(float(cell))
                except ValueError:
                    raise MotionError(f"{path}: line {lineno}, column {col!r}: {cell!r} is not "
                                      "a number (not a numeric CSV table; leave a cell empty or "
                                      "write NaN for a missing sample)") from None
            rows.append(out)
    return np.array(rows, dtype=float).reshape(-1, len(header))


def _read_fast(path, ncol):
    """The numbers of a large CSV file via pandas, or None (no pandas, or anything unusual:
    the caller then reads it with the csv module, which also words the errors)."""
    try:
        import pandas as pd
    except ImportError:
        return None
    try:
        df = pd.read_csv(path, dtype=float, engine="c", keep_default_na=False,
                         na_values=list(MISSING), skip_blank_lines=True)
    except Exception:          # noqa: BLE001 - any parser trouble: fall back to the csv module
        return None
    if df.shape[1] != ncol:
        return None
    # pandas pads a short row with NaN: count the separators so a short row is refused instead
    with open(path, "rb") as f:
        if any(line.count(b",") != ncol - 1 for line in f if line.strip()):
            return None
    return np.ascontiguousarray(df.to_numpy(dtype=float))


#: Enough digits for every float64 to read back bit for bit (torques: "read back identically").
_EXACT = "{:.17g}"


def write_table(path, t, values, names, fmt="{:.15g}"):
    """Write a CSV with a ``time`` column and one column per name (values (N, len(names))), 15
    significant digits (fmt; "{:.17g}" reads back bit for bit), NaN as ``nan``: the one CSV
    writer."""
    table = np.column_stack([np.asarray(t, dtype=float), np.asarray(values, dtype=float)])
    np.savetxt(path, table, delimiter=",", header=",".join(["time", *names]), comments="",
               fmt="%" + fmt[2:-1])


def read_csv(path, degrees=False, model=None, mapping=None, linear=()):
    """Read a CSV trajectory (header line, then numbers): ``time``, coordinates, optional
    ``<dof>_vel`` / ``<dof>_acc``, optional ``grfX_L ... copZ_R`` and ``momX_L ... momZ_R``.
    degrees=True: angles (and their rates) are in degrees (see the module docstring for which
    columns are angles)."""
    header, data = read_table(path)
    return _from_table(header, data, os.fspath(path), degrees, model, linear, mapping,
                       {"format": "csv"})


def write_csv(path, traj, degrees=False, model=None, linear=(), derivatives=True, forces=True):
    """Write traj as CSV (the layout read_csv reads; 15 significant digits)."""
    header, data = _to_table(traj, degrees, model, linear, derivatives, forces)
    write_table(path, data[:, 0], data[:, 1:], header[1:])


def to_dataframe(traj, degrees=False, model=None, linear=(), derivatives=True, forces=True):
    """A pandas DataFrame indexed by ``time`` with the table columns (see the module docstring)."""
    import pandas as pd
    header, data = _to_table(traj, degrees, model, linear, derivatives, forces)
    return pd.DataFrame(data[:, 1:], columns=header[1:], index=pd.Index(data[:, 0], name="time"))


def from_dataframe(df, degrees=False, model=None, mapping=None, linear=()):
    """A Trajectory from a DataFrame: a ``time`` column, or else the index, is the time."""
    cols = [str(c) for c in df.columns]
    if "time" in [c.lower() for c in cols]:
        header, data = cols, df.to_numpy(dtype=float)
    else:
        header = ["time"] + cols
        data = np.column_stack([np.asarray(df.index, dtype=float), df.to_numpy(dtype=float)])
    return _from_table(header, data, "DataFrame", degrees, model, linear, mapping,
                       {"format": "dataframe"})
