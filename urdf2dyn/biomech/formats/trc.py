"""OpenSim's marker files (.trc): read and written.

The layout (tab-separated; OpenSim's TRCFileAdapter reads and writes it)::

    PathFileType  4  (X/Y/Z)  walk.trc
    DataRate  CameraRate  NumFrames  NumMarkers  Units  OrigDataRate  OrigDataStartFrame  OrigNumFrames
    60.00     60.00       151        41          mm     60.00         1                   151
    Frame#  Time  R.ASIS        L.ASIS ...
                  X1  Y1  Z1    X2  Y2  Z2 ...
    1       0.000 1012.3 ...

An empty cell (or NaN) is a marker not seen in that frame: it is read as NaN, a gap. Positions
are returned in metres whatever ``Units`` says (mm, cm, m, ...), and written in ``units``.
"""
from __future__ import annotations

import math
import os

import numpy as np

from ...warn import report
from ..markers import LENGTH_UNITS, Markers
from ..trajectory import MotionError
from .windows import decode_text

__all__ = ["read_trc", "write_trc"]

_HEADER_KEYS = ["DataRate", "CameraRate", "NumFrames", "NumMarkers", "Units", "OrigDataRate",
                "OrigDataStartFrame", "OrigNumFrames"]


def _number(text):
    text = text.strip()
    if text == "":
        return math.nan
    try:
        return float(text)
    except ValueError:
        return None


def read_trc(path, strict=False):
    """Read an OpenSim .trc marker file.

    Parameters
    ----------
    path : str or os.PathLike
    strict : bool
        Raise instead of warning (about a header that disagrees with the data, positions whose
        size does not fit the declared units).

    Returns
    -------
    Markers
        time (N,) s, labels (M,), xyz (N, M, 3) in m (NaN = not seen); meta: source, units
        (as declared), rate (DataRate).

    Raises
    ------
    MotionError
        Naming the file and line: not a .trc header, unknown units, a cell that is not a number,
        a row with more values than markers, times not strictly increasing.
    """
    source = os.fspath(path)
    try:
        with open(source, "rb") as f:
            lines = decode_text(f.read(), source).splitlines()     # BOM, CRLF, Windows-1252
    except ValueError as e:
        raise MotionError(str(e)) from None
    if len(lines) < 5 or not lines[0].startswith("PathFileType"):
        raise MotionError(f"{source}: not an OpenSim .trc file (its first line must start with "
                          "'PathFileType' and 5 header lines come before the data)")
    keys = [k.strip() for k in lines[1].split("\t")]
    vals = [v.strip() for v in lines[2].split("\t")]
    header = dict(zip(keys, vals))
    units = header.get("Units", "")
    if units not in LENGTH_UNITS:
        raise MotionError(f"{source}: line 3: Units {units!r} is not a length unit (expected "
                          f"one of {sorted(LENGTH_UNITS)}); fix the header")
    scale = LENGTH_UNITS[units]
    names = lines[3].split("\t")
    if len(names) < 2 or names[0].strip() != "Frame#" or names[1].strip().lower() != "time":
        raise MotionError(f"{source}: line 4: expected 'Frame#<TAB>Time<TAB>marker names...', "
                          f"got {lines[3][:60]!r}")
    labels = [x.strip() for x in names[2:] if x.strip()]
    if not labels:
        raise MotionError(f"{source}: line 4 names no markers")
    if len(set(labels)) != len(labels):
        dup = sorted({x for x in labels if labels.count(x) > 1})
        raise MotionError(f"{source}: line 4: duplicate marker labels {dup}")
    m = len(labels)
    table = _table(lines[5:], 2 + 3 * m)
    if table is not None:                   # every cell a number or empty: NumPy parses them
        times, rows = table[:, 1], table[:, 2:]
    else:                                   # find the cell at fault, naming line and column
        times, rows = _rows(lines, labels, source)
    time = np.array(times, dtype=float)
    if len(time) > 1 and np.any(np.diff(time) <= 0):
        bad = int(np.flatnonzero(np.diff(time) <= 0)[0]) + 1
        raise MotionError(f"{source}: the Time column must increase strictly (it does not at "
                          f"data row {bad + 1}, t = {time[bad]:g})")
    xyz = np.array(rows, dtype=float).reshape(len(time), m, 3)
    xyz[~np.isfinite(xyz)] = np.nan
    xyz *= scale
    declared = _number(header.get("NumMarkers", "")) if "NumMarkers" in header else None
    if declared is not None and declared == declared and int(declared) != m:
        report(f"{source}: the header says NumMarkers={header['NumMarkers']} but line 4 names "
               f"{m} markers; the names were used", strict=strict, error=MotionError)
    out = Markers(time, labels, xyz, meta={"source": source, "units": units,
                                           "rate": _number(header.get("DataRate", "")),
                                           "header": header})
    check_units(out, source, units, strict=strict)
    return out


def _table(lines, width):
    """The data rows as an (N, width) float array (empty cells NaN), or None when a row has
    values beyond the markers, a cell that is not a number or no time (the cell-by-cell
    reader then names it)."""
    rows = []
    for line in lines:
        if not line.strip():
            continue
        cells = line.rstrip("\r\n").split("\t")
        if len(cells) < width:
            cells += [""] * (width - len(cells))
        elif len(cells) > width:
            if any(c.strip() for c in cells[width:]):
                return None
            del cells[width:]
        rows.append(cells)
    if not rows:
        return np.zeros((0, width))
    try:
        table = np.array([[float(c) if c.strip() else math.nan for c in r] for r in rows])
    except ValueError:
        return None
    return table if np.all(np.isfinite(table[:, 1])) else None


def _rows(lines, labels, source):
    """The data rows cell by cell, as (times, rows); MotionError naming the line and cell
    of anything that is not a number."""
    m = len(labels)
    rows, times = [], []
    for lineno, line in enumerate(lines[5:], 6):
        cells = line.rstrip("\r\n").split("\t")
        if not line.strip():
            continue
        if len(cells) > 2 + 3 * m and any(c.strip() for c in cells[2 + 3 * m:]):
            raise MotionError(f"{source}: line {lineno}: {len(cells) - 2} values for {m} markers "
                              f"({3 * m} expected: X Y Z per marker)")
        t = _number(cells[1]) if len(cells) > 1 else None
        if t is None or not math.isfinite(t):
            raise MotionError(f"{source}: line {lineno}: column 2 (Time) is not a number: "
                              f"{(cells[1] if len(cells) > 1 else '')[:20]!r}")
        vals = [math.nan] * (3 * m)
        for k, c in enumerate(cells[2:2 + 3 * m]):
            x = _number(c)
            if x is None:
                raise MotionError(f"{source}: line {lineno}: marker {labels[k // 3]!r} "
                                  f"{'XYZ'[k % 3]} is not a number: {c.strip()[:20]!r}")
            vals[k] = x
        times.append(t)
        rows.append(vals)
    return times, rows


def check_units(markers, source, units, strict=False):
    """Warn when positions (in m) do not look like a lab's for the declared units: a lab is a
    few metres across; metres declared as mm give a lab of millimetres, and mm declared as
    metres a lab of kilometres."""
    finite = markers.xyz[np.all(np.isfinite(markers.xyz), axis=-1)]
    if len(finite) < 2:
        return
    extent = float(np.max(np.ptp(finite, axis=0)))
    if extent > 100.0:
        report(f"{source}: the markers span {extent:.4g} m with units '{units}': are they in "
               "mm? Fix the file's units (or the header) before using them", strict=strict,
               error=MotionError)
    elif 0 < extent < 0.02 and len(markers.labels) > 1:
        report(f"{source}: the markers span only {extent * 1000:.3g} mm with units '{units}': "
               "are they in m? Fix the file's units (or the header) before using them",
               strict=strict, error=MotionError)


def write_trc(path, markers, units="mm", fmt="{:.6f}"):
    """Write markers as an OpenSim .trc file (NaN positions as empty cells, as OpenSim does).

    Parameters
    ----------
    path : str or os.PathLike
    markers : Markers
        Positions in m.
    units : str
        Length unit of the file (one of mm, cm, m, ...); positions are converted to it.
    """
    if units not in LENGTH_UNITS:
        raise ValueError(f"units: expected one of {sorted(LENGTH_UNITS)}, got {units!r}")
    path = os.fspath(path)
    n, m = len(markers.time), len(markers.labels)
    rate = markers.rate or markers.meta.get("rate") or 0.0
    xyz = markers.xyz / LENGTH_UNITS[units]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"PathFileType\t4\t(X/Y/Z)\t{os.path.basename(path)}\n")
        f.write("\t".join(_HEADER_KEYS) + "\n")
        f.write(f"{rate:.6g}\t{rate:.6g}\t{n}\t{m}\t{units}\t{rate:.6g}\t1\t{n}\n")
        f.write("Frame#\tTime\t" + "\t".join(f"{x}\t\t" for x in markers.labels) + "\n")
        f.write("\t\t" + "\t".join(f"X{k}\tY{k}\tZ{k}" for k in range(1, m + 1)) + "\n\n")
        for i in range(n):
            cells = ["" if not math.isfinite(x) else fmt.format(x) for x in xyz[i].ravel()]
            f.write(f"{i + 1}\t{markers.time[i]:.6f}\t" + "\t".join(cells) + "\n")
