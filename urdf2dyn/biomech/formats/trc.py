"""OpenSim's marker files (.trc): read and written.

The layout (tab-separated; OpenSim's TRCFileAdapter reads and writes it)::

    PathFileType  4  (X/Y/Z)  walk.trc
    DataRate  CameraRate  NumFrames  NumMarkers  Units  OrigDataRate  OrigDataStartFrame  OrigNumFrames
    60.00     60.00       151        41          mm     60.00         1                   151
    Frame#  Time  R.ASIS        L.ASIS ...
                  X1  Y1  Z1    X2  Y2  Z2 ...
    1       0.000 1012.3 ...

An empty cell (or NaN) is a marker not seen in that frame: it is read as NaN, a gap; one empty
coordinate makes the whole marker a gap, as OpenSim's TRCFileAdapter reads it. A gap keeps its
cells (OpenSim ends every row with a tab, so empty cells at a row's end stay cells): a row with
fewer cells than its markers need is refused, as OpenSim refuses it. Where OpenSim 4.6 reads the
rows otherwise (a blank line ends its data, rows before the first frame number are skipped, a
row's cells are counted up to its last tab) urdf2dyn reads them all and says so. Positions are
returned in metres whatever ``Units`` says (mm, cm, m, ...), and written in ``units``.
"""
from __future__ import annotations

import math
import os
import re

import numpy as np

from ..._input_bytes import refuse_devices
from ..._safe_files import note_input, replacing
from ...warn import duplicated, missing_file, report
from ..markers import LENGTH_UNITS, Markers
from ..trajectory import MotionError
from ._cells import refuse_a_line_break, refuse_unwritable_names
from .opensim import tab_cells
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


def _what_to_rename(names):
    """The advice for line 4's first two labels when they are not Frame# and Time (OpenSim's
    TRCFileAdapter refuses any other), or '' when line 4 is not such a line at all."""
    if len(names) < 3 or not all(x.strip() for x in names[:2]):
        return ""
    wrong = [f"{have.strip()!r}: rename it {want!r}"
             for have, want in zip(names[:2], ("Frame#", "Time")) if have.strip() != want]
    return ("; " + "; ".join(wrong) + " (OpenSim's reader takes only these)") if wrong else ""


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
        a row with more or fewer values than markers (a gap is empty cells, not missing ones),
        a file that ends inside a row while NumFrames promises more, no frames at all, times
        not strictly increasing, no value under Units. A NumFrames that disagrees with the
        rows, a line 3 with more or fewer values than line 2's keys and a rate or count in
        it that is not a number are warned about (errors under strict).
    """
    source = os.fspath(path)
    refuse_devices(source, ".trc marker")
    if not os.path.isfile(source):      # a directory or a device: no 'no such file' for it
        raise MotionError(f"{source}: not a file; give the .trc marker file" if
                          os.path.exists(source) else missing_file(source))
    note_input(source, "marker")
    try:
        with open(source, "rb") as f:
            text = decode_text(f.read(), source)      # BOM, CRLF, Windows-1252, UTF-16
    except ValueError as e:
        raise MotionError(str(e)) from None
    lines = text.splitlines()
    ends_in_line = bool(text) and text[-1] not in "\r\n"
    if len(lines) < 5 or not lines[0].startswith("PathFileType"):
        raise MotionError(f"{source}: not an OpenSim .trc file (its first line must start with "
                          "'PathFileType' and 5 header lines come before the data)")
    keys = [k.strip() for k in lines[1].split("\t")]
    vals = [v.strip() for v in lines[2].split("\t")]
    if len([k for k in keys if k]) == len([v for v in vals if v]):
        # OpenSim's TRCFileAdapter drops empty cells (doubled tabs) from both lines
        keys, vals = [k for k in keys if k], [v for v in vals if v]
    keys = _opensim_keys(source, keys)
    header = dict(zip(keys, vals))
    _check_header_length(source, keys, vals, strict)
    _check_header_values(source, header, strict)
    _check_header_numbers(source, header, strict)
    units = _OPENSIM_UNITS.get(header.get("Units", ""), header.get("Units", ""))
    if units not in LENGTH_UNITS:
        raise MotionError(f"{source}: line 3: Units {units!r} is not a length unit (expected "
                          f"one of {sorted(LENGTH_UNITS)}); fix the header")
    scale = LENGTH_UNITS[units]
    names = lines[3].split("\t")
    if len(names) < 2 or names[0].strip() != "Frame#" or names[1].strip().lower() != "time":
        raise MotionError(f"{source}: line 4: expected 'Frame#<TAB>Time<TAB>marker names...', "
                          f"got {lines[3][:60]!r}" + _what_to_rename(names))
    if names[1].strip() != "Time":
        report(f"{source}: line 4: the label {names[1].strip()!r}: OpenSim 4.6 refuses the file "
               "(its TRCFileAdapter expects 'Time', in that case); urdf2dyn read the column as "
               "the times. Write 'Time' for OpenSim to read it", stacklevel=None)
    labels = [x.strip() for x in names[2:] if x.strip()]
    if not labels:
        raise MotionError(f"{source}: line 4 names no markers")
    if len(set(labels)) != len(labels):
        raise MotionError(f"{source}: line 4: duplicate marker labels {duplicated(labels)}")
    m = len(labels)
    declared_frames = _count(header, "NumFrames")
    rows, linenos, blank = [], [], []
    for lineno, line in enumerate(lines[5:], 6):
        cells = line.rstrip("\r\n").split("\t")
        if not line.strip():
            blank.append((lineno, line))
            continue
        last = lineno == len(lines) and ends_in_line
        if len(cells) > 2 + 3 * m and any(c.strip() for c in cells[2 + 3 * m:]):
            raise MotionError(f"{source}: line {lineno}: {len(cells) - 2} values for {m} markers "
                              f"({3 * m} expected: X Y Z per marker)")
        if len(cells) < 2 + 3 * m:
            raise MotionError(_short_row(source, lineno, cells, labels, last))
        if last and declared_frames is not None and declared_frames > len(rows) + 1:
            raise MotionError(f"{source}: line {lineno}: the file ends inside this row (no line "
                              f"end, and NumFrames={declared_frames} says more frames follow "
                              f"frame {len(rows) + 1}): it is truncated, and its last number "
                              "may be cut; copy or export it again")
        rows.append(cells[1:2 + 3 * m])
        linenos.append(lineno)
    try:                    # every cell a number or empty: one comprehension (main's fast path)
        table = np.array([[float(c) if c.strip() else math.nan for c in r] for r in rows],
                         dtype=float).reshape(len(rows), 1 + 3 * m)
        if not np.all(np.isfinite(table[:, 0])):
            raise ValueError
    except ValueError:      # find the cell at fault, naming line and column
        table = np.array([_row(source, n, r, labels) for n, r in zip(linenos, rows)],
                         dtype=float).reshape(len(rows), 1 + 3 * m)
    times, empty = table[:, 0], _empty_cells(rows, table, m)
    if not len(rows):
        raise MotionError(f"{source}: no frames: the header ends at line 5 and no data row "
                          f"follows{f' (NumFrames={declared_frames})' if declared_frames else ''}"
                          "; export the trial again")
    if declared_frames is not None and declared_frames != len(rows):
        more = declared_frames > len(rows)
        report(f"{source}: the header (line 3) says NumFrames={declared_frames} but the file "
               f"holds {len(rows)} frames (lines {linenos[0]}-{linenos[-1]})"
               + (": it may be truncated after line " if more else "; frames after NumFrames "
                  "end at line ") + f"{linenos[-1]}; the {len(rows)} frames were used"
               + _scale_tool_note(declared_frames, len(rows)),
               strict=strict, error=MotionError)
    elif "NumFrames" in header and header["NumFrames"].strip() and declared_frames is None:
        _warn_num_frames(source, keys, header["NumFrames"].strip(), len(rows), strict)
    _warn_what_opensim_reads_otherwise(source, lines, linenos, blank, m)
    rows = table[:, 1:]
    time = np.array(times, dtype=float)
    if len(time) > 1 and np.any(np.diff(time) <= 0):
        bad = int(np.flatnonzero(np.diff(time) <= 0)[0]) + 1
        raise MotionError(f"{source}: the Time column must increase strictly (it does not at "
                          f"data row {bad + 1}, t = {time[bad]:g})")
    xyz = rows.reshape(len(time), m, 3)
    xyz[~np.isfinite(xyz)] = np.nan
    xyz[empty] = np.nan                 # a blank coordinate: the marker is not seen, as in OpenSim
    xyz *= scale
    declared = _number(header.get("NumMarkers", "")) if "NumMarkers" in header else None
    if declared is not None and declared == declared and int(declared) != m:
        report(f"{source}: the header says NumMarkers={header['NumMarkers']} but line 4 names "
               f"{m} markers; the names were used. OpenSim 4.6 refuses the file (its "
               "TRCFileAdapter expects as many names as NumMarkers says): set NumMarkers to "
               f"{m}", strict=strict, error=MotionError)
    out = Markers(time, labels, xyz, meta={"source": source, "units": units,
                                           "rate": _number(header.get("DataRate", "")),
                                           "header": header})
    check_units(out, source, units, strict=strict)
    return out


def _empty_cells(rows, table, m):
    """(N, m) whether a marker has a blank coordinate in a frame: OpenSim 4.6's TRCFileAdapter
    then takes the whole marker as not seen (all three NaN), not two of its coordinates.
    Only the rows with a NaN are looked at (a blank cell is read as one)."""
    empty = np.zeros((len(rows), m), dtype=bool)
    for r in np.flatnonzero(np.isnan(table[:, 1:]).any(axis=1)) if len(rows) else ():
        blank = [not c.strip() for c in rows[r][1:]]
        empty[r] = np.array(blank, dtype=bool).reshape(m, 3).any(axis=1)
    return empty


def _warn_what_opensim_reads_otherwise(source, lines, linenos, blank, m):
    """Warn where OpenSim 4.6's TRCFileAdapter reads the data rows otherwise than urdf2dyn:
    it skips the rows before the first with a frame number (and never ends reading a file
    without one), ends the data at a blank line, and refuses a line of blanks or a row whose
    cells it counts otherwise (extra tabs at its end; a gap in the last marker without the
    tab OpenSim writes after it)."""
    unnumbered = [k for k in linenos if not lines[k - 1].partition("\t")[0].strip()]
    if unnumbered and unnumbered[0] == linenos[0]:
        skipped = next((i for i, k in enumerate(linenos) if k not in unnumbered), None)
        does = ("never ends reading this file (it looks for a first row with one)"
                if skipped is None else f"skips the {skipped} row{'s' if skipped > 1 else ''} "
                "before the first with one")
        report(f"{source}: line {linenos[0]}: no frame number (column 1, Frame#): OpenSim "
               f"4.6's TRCFileAdapter {does}; urdf2dyn read every row by its Time. Number the "
               "frames (1, 2, ...) for OpenSim to read them", stacklevel=None)
    inside = [(k, line) for k, line in blank if linenos and linenos[0] < k
              and (k < linenos[-1] or line.strip("\r"))]
    if inside:
        k, line = inside[0]
        before = sum(1 for n in linenos if n < k)
        where = "inside the data" if k < linenos[-1] else "after the data"
        does = (f"reads only the {before} frame{'' if before == 1 else 's'} before it, "
                "without a word" if not line.strip("\r") else
                "refuses the file (a line of blanks is a row without values to it)")
        report(f"{source}: line {k} is blank, {where}: OpenSim 4.6's TRCFileAdapter {does}; "
               f"urdf2dyn read all {len(linenos)} frames. For OpenSim to read them all, "
               "delete that line", stacklevel=None)
    expected = 2 + 3 * m
    for k in linenos:
        counted = tab_cells(lines[k - 1])
        if counted != expected:
            why = ("extra tabs at its end" if counted > expected else
                   "a gap in the last marker without a tab after it (OpenSim ends every row "
                   "with one)")
            report(f"{source}: line {k}: OpenSim 4.6 refuses the file: its TRCFileAdapter "
                   f"counts {counted} cells in this row where Frame#, Time and {m} markers "
                   f"make {expected} ({why}); urdf2dyn read the row's {expected} cells. End "
                   "every row with its last cell and one tab, as OpenSim writes them",
                   stacklevel=None)
            break


def _row(source, lineno, cells, labels):
    """[time, x1, y1, z1, ...] of a data row's cells, or MotionError naming the cell that is
    not a number."""
    t = _number(cells[0])
    if t is None or not math.isfinite(t):
        raise MotionError(f"{source}: line {lineno}: column 2 (Time) is not a number: "
                          f"{cells[0][:20]!r}")
    vals = [t]
    for k, c in enumerate(cells[1:]):
        x = _number(c)
        if x is None:
            comma = ("; it has a decimal comma: write decimals with a decimal point "
                     f"({c.strip().replace(',', '.')!r}) throughout the file (OpenSim 4.6 would "
                     "read the number before the comma)" if "," in c else "")
            raise MotionError(f"{source}: line {lineno}: marker {labels[k // 3]!r} "
                              f"{'XYZ'[k % 3]} is not a number: {c.strip()[:20]!r}{comma}")
        vals.append(x)
    return vals


#: the other spellings of a length unit OpenSim 4.6's Units reads (all lower or all upper
#: case; 'Meters', 'Mm' are unknown to it): the unit they name
_OPENSIM_UNITS = {spelt: unit for unit, names in (("mm", ("mm", "millimeters")),
                                                   ("cm", ("cm", "centimeters")),
                                                   ("m", ("m", "meters")))
                  for name in names for spelt in (name, name.upper())}


def _opensim_keys(source, keys):
    """The header keys of line 2, each of OpenSim's keys in another case (``units``,
    ``NUMFRAMES``) spelt as OpenSim spells it and warned about: OpenSim 4.6's TRCFileAdapter
    compares them case-sensitively and refuses the file ('Unexpected key')."""
    spelling = {k.lower(): k for k in _HEADER_KEYS}
    out = []
    for key in keys:
        expected = spelling.get(key.lower(), key)
        if expected != key:
            report(f"{source}: line 2: the key {key!r}: OpenSim 4.6 refuses the file (its "
                   f"TRCFileAdapter expects {expected!r}: its keys are case-sensitive); urdf2dyn "
                   f"read it as {expected}. Write {expected!r} for OpenSim to read it",
                   stacklevel=None)
        out.append(expected)
    return out


#: What to write for each header value of line 3 when it is empty
_HEADER_ADVICE = {"DataRate": "write the capture rate in Hz",
                  "CameraRate": "write the camera's rate in Hz",
                  "NumFrames": "write the number of frames",
                  "NumMarkers": "write the number of markers",
                  "OrigDataRate": "write the original capture rate in Hz",
                  "OrigDataStartFrame": "write the number of the first frame (1)",
                  "OrigNumFrames": "write the number of frames of the original recording"}


def _check_header_values(source, header, strict):
    """Refuse an empty Units value (the positions' unit cannot be guessed) and warn about any
    other empty value of line 3: OpenSim 4.6's TRCFileAdapter refuses the file (it needs as
    many values as keys, and drops empty ones), while urdf2dyn takes the frames' times from
    the Time column, as OpenSim does, and needs none of the rates."""
    if "Units" in header and not header["Units"].strip():
        raise MotionError(f"{source}: line 3: Units is empty: write the unit of the positions "
                          f"(mm, m, {', '.join(sorted(set(LENGTH_UNITS) - {'mm', 'm'}))}) "
                          "under 'Units' in line 3; OpenSim 4.6 refuses the file too")
    empty = [k for k, v in header.items() if k in _HEADER_ADVICE and not v.strip()]
    if not empty:
        return
    fix = (f"{_HEADER_ADVICE[empty[0]]} under that key" if len(empty) == 1 else
           "fill them in (" + "; ".join(f"{k}: {_HEADER_ADVICE[k]}" for k in empty) + ")")
    report(f"{source}: line 3: {' and '.join(empty)} {'is' if len(empty) == 1 else 'are'} "
           "empty: OpenSim 4.6 refuses the file (its TRCFileAdapter needs a value under every "
           "key of line 2); urdf2dyn read the frames by their times. For OpenSim to read it, "
           f"{fix}", strict=strict, error=MotionError)


def _check_header_length(source, keys, vals, strict):
    """Line 3 must hold a value under each key of line 2: OpenSim 4.6's TRCFileAdapter (the
    reader of its IK tool) refuses a file with fewer or more ('Number of keys and values do
    not match'; its MarkerData reads the values in order). Without a value under Units the
    positions' unit is unknown: refused; other missing or extra values are warned about
    (urdf2dyn reads the frames by their times)."""
    if len(vals) == len(keys) or not keys:
        return
    said = (f"line 3 holds {len(vals)} {'value' if len(vals) == 1 else 'values'} for the "
            f"{len(keys)} keys of line 2")
    missing = keys[len(vals):]
    if "Units" in missing:
        raise MotionError(f"{source}: {said}: no value under Units: write the unit of the "
                          "positions (mm, m, ...) and a value under every other key, in line "
                          "2's order; OpenSim 4.6 refuses the file too")
    if missing:
        fix = "write " + "; ".join(f"{k}: {_HEADER_ADVICE.get(k, 'its value')}"
                                   for k in missing)
        what = f"no value under {', '.join(missing)}"
    else:
        fix = "delete the values after the last key's"
        what = f"{len(vals) - len(keys)} more than keys"
    report(f"{source}: {said} ({what}): OpenSim 4.6 refuses the file (its TRCFileAdapter "
           "needs one value under each key); urdf2dyn read the frames by their times. For "
           f"OpenSim to read it, {fix} in line 3, tab-separated",
           strict=strict, error=MotionError)


#: The values of line 3 OpenSim 4.6's readers take for numbers (the Orig... ones neither
#: reader needs: both read a file whatever they hold)
_NUMERIC_KEYS = ("DataRate", "CameraRate", "NumMarkers")   # NumFrames: _warn_num_frames


def _check_header_numbers(source, header, strict):
    """Warn about a value of line 3 that is not a number where OpenSim 4.6 reads one
    ('abc' under DataRate): its MarkerData (the ScaleTool's reader of the static trial) then
    refuses the file, and its TRCFileAdapter too when the value is NumMarkers' (it reads
    that one as a whole number); a value that begins with one ('100Hz') is read as that
    number by both. urdf2dyn needs none of them (the frames' times are the Time column's;
    NumFrames and NumMarkers are checked against the rows and names)."""
    for key in _NUMERIC_KEYS:
        text = header.get(key, "").strip()
        if not text or _number(text) is not None:
            continue
        lead = re.match(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text)
        if lead:
            opensim = f"OpenSim 4.6 reads it as {lead.group(0)}, the number it begins with"
        elif key == "NumMarkers":
            opensim = ("OpenSim 4.6 refuses the file (its TRCFileAdapter and MarkerData read "
                       "NumMarkers as a whole number)")
        else:
            opensim = ("OpenSim 4.6's ScaleTool refuses the file (MarkerData, its reader of "
                       "the static trial, reads line 3's first values as numbers), while its "
                       "IK tool reads it")
        advice = _HEADER_ADVICE[key]
        report(f"{source}: line 3: {key} {text!r} is not a number: {opensim}; urdf2dyn "
               f"read the frames by their times. {advice[0].upper()}{advice[1:]} under "
               f"{key}", strict=strict, error=MotionError)


def _count(header, key):
    """A header field written as a whole number (NumFrames: digits, as both of OpenSim 4.6's
    readers take it alike), or None when absent or written otherwise ('2.0', '1e1', '2x')."""
    text = header.get(key, "").strip()
    return int(text) if re.fullmatch(r"\+?\d+", text) else None


def _marker_data_count(text):
    """The frame count OpenSim 4.6's MarkerData (the ScaleTool's reader of a static trial)
    takes from a NumFrames value, as SimmIO's readIntegerFromString reads it: what comes
    before the first digit or '-' skipped, then C's atoi of the run of digits, '-', 'e' and
    'E' there ('2x' 2, 'x2' 2, '1e1' 1, '2.5' 2); None when there is no digit or '-'. Also
    what that leaves of the value for line 3's next fields ('.5')."""
    start = re.search(r"[0-9-]", text)
    if start is None:
        return None, text
    run = re.match(r"[0-9eE-]*", text[start.start():]).group()
    whole = re.match(r"-?\d+", run)
    return (int(whole.group()) if whole else 0), text[start.start() + len(run):]


def _scale_tool_frames(count, rows):
    """What OpenSim 4.6's ScaleTool does with a static trial whose NumFrames it reads as count
    for rows data rows (its MarkerData stops reading at count frames, then indexes the last
    one read), in words following 'its ScaleTool'; None where it reads every row, as its IK
    tool (TRCFileAdapter) always does."""
    if count <= 0:
        return (f"reads {count} frames, then asks for the last one, which does not exist (it "
                "may crash, or go on without a static pose)")
    if count < rows:
        return (f"keeps only the first {count} {'frame' if count == 1 else 'frames'} (its "
                "MarkerData stops at NumFrames)")
    return None


def _scale_tool_note(count, rows):
    """_scale_tool_frames as a sentence ending a warning ('' where the ScaleTool reads every
    row)."""
    said = _scale_tool_frames(count, rows)
    return f". OpenSim 4.6's ScaleTool {said}, its IK tool reads every row" if said else ""


def _warn_num_frames(source, keys, text, rows, strict):
    """Warn about a NumFrames that is not written as a whole number ('2x', '2.0', '1e1', '-1',
    'abc'), naming line 3 and its column: OpenSim 4.6's IK tool ignores the value (its
    TRCFileAdapter reads every row), its ScaleTool reads the number as MarkerData does
    (_marker_data_count), which may keep fewer frames, misread line 3's later values, refuse
    the file or crash."""
    count, rest = _marker_data_count(text)
    if count is None:
        scale_tool = ("its ScaleTool refuses the file (its MarkerData finds no number there and "
                      "reads line 3's next values in its place)")
    elif rest[:1] == ".":
        scale_tool = (f"its ScaleTool's MarkerData reads {count} and takes the rest ({rest!r}) "
                      "for line 3's next values (NumMarkers, Units): it refuses the file or "
                      "misreads the units")
    else:
        frames = _scale_tool_frames(count, rows)
        scale_tool = (f"its ScaleTool {frames}" if frames else
                      f"its ScaleTool's MarkerData reads it as {count}")
    column = keys.index("NumFrames") + 1
    report(f"{source}: line 3, column {column} (NumFrames): {text!r} is not a whole number of "
           f"frames: OpenSim 4.6's IK tool reads every row whatever it says (TRCFileAdapter), "
           f"{scale_tool}; urdf2dyn read the {rows} frames by their times. Write the number "
           f"of frames ({rows}) under NumFrames", strict=strict, error=MotionError)


def _short_row(source, lineno, cells, labels, last):
    """Why a data row with too few cells is refused: a marker not seen in a frame is written
    as empty cells between tabs (OpenSim's own files), never as missing cells."""
    have = max(0, len(cells) - 2)
    first = labels[min(have // 3, len(labels) - 1)]
    why = ("the file ends inside it (no line end): it is truncated; copy or export it again"
           if last else "a marker not seen in a frame is written as empty cells between tabs "
           "(as OpenSim writes a gap), so this row is cut short; fix or export it again")
    return (f"{source}: line {lineno}: {have} of the {3 * len(labels)} values of "
            f"{len(labels)} markers (X Y Z each); from marker {first!r} on the cells are "
            f"missing: {why}")


def check_units(markers, source, units, strict=False, declared=True):
    """Warn when positions (in m) do not look like a lab's for the declared units: a lab is a
    few metres across; metres declared as mm give a lab of millimetres, and mm declared as
    metres a lab of kilometres. declared=False: the file names no unit, units is its
    format's default; a str: how units was chosen instead (e.g. from the file's geometry)."""
    finite = markers.xyz[np.all(np.isfinite(markers.xyz), axis=-1)]
    if len(finite) < 2:
        return
    extent = float(np.max(np.ptp(finite, axis=0)))
    if isinstance(declared, str):
        said = f"read in '{units}' ({declared})"
    else:
        said = (f"with units '{units}'" if declared else
                f"read in '{units}', the format's default (the file declares no unit)")
    if extent > 100.0:
        report(f"{source}: the markers span {extent:.4g} m {said}: are they in mm? Fix the "
               "file's units (or the header) before using them", strict=strict,
               error=MotionError)
    elif 0 < extent < 0.02 and len(markers.labels) > 1:
        question = "are they in m?" if units != "m" else "is that their unit?"
        report(f"{source}: the markers span only {extent * 1000:.3g} mm {said}: {question} "
               "Fix the file's units (or the header) before using them",
               strict=strict, error=MotionError)


def write_trc(path, markers, units="mm", fmt="{:.6f}"):
    """Write markers as an OpenSim .trc file: NaN positions (gaps) as empty cells, every row
    ending in a tab as OpenSim's TRCFileAdapter writes them (without it, a gap in the last
    marker leaves a row OpenSim reads as short). The file is replaced only once complete
    (urdf2dyn._safe_files.replacing). A label the file cannot hold (a tab, a line break, blanks
    at its ends: formats._cells) is refused (MotionError) before anything is written.

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
    refuse_unwritable_names(path, markers.labels, "marker label", markers.meta.get("source"))
    # its first line holds its file name
    refuse_a_line_break(path, os.path.basename(path), "file name",
                        advice="write it under a name without line breaks")
    n, m = len(markers.time), len(markers.labels)
    rate = markers.rate or markers.meta.get("rate") or 0.0
    xyz = markers.xyz / LENGTH_UNITS[units]
    with replacing(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"PathFileType\t4\t(X/Y/Z)\t{os.path.basename(path)}\n")
        f.write("\t".join(_HEADER_KEYS) + "\n")
        f.write(f"{rate:.6g}\t{rate:.6g}\t{n}\t{m}\t{units}\t{rate:.6g}\t1\t{n}\n")
        f.write("Frame#\tTime\t" + "".join(f"{x}\t\t\t" for x in markers.labels) + "\n")
        f.write("\t\t" + "".join(f"X{k}\tY{k}\tZ{k}\t" for k in range(1, m + 1)) + "\n\n")
        for i in range(n):
            cells = ["" if not math.isfinite(x) else fmt.format(x) for x in xyz[i].ravel()]
            f.write(f"{i + 1}\t{markers.time[i]:.6f}\t" + "".join(c + "\t" for c in cells)
                    + "\n")
