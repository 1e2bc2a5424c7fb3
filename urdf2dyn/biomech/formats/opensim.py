"""OpenSim's files: motion/storage tables (.mot, .sto) and ExternalLoads setup files.

OpenSim files (``.mot``/``.sto``) have the header ``name / version=1 / nRows / nColumns /
inDegrees=yes|no / endheader`` and the columns of urdf2dyn.biomech.trajectory after it; their
header says whether angles are in degrees (``inDegrees``, which covers rotational coordinates
only). ``read_external_loads(path)`` reads an OpenSim ExternalLoads setup file, the XML an
OpenSim user writes for the InverseDynamicsTool, and ``ExternalLoads.wrenches(model, time, q)``
turns it into urdf2dyn's ``f_ext``::

    loads = read_external_loads("subject01_walk1_grf.xml")
    f_ext = loads.wrenches(model, t, q, links={"calcn_r": "foot_R", "calcn_l": "foot_L"})
    tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)

The semantics follow OpenSim's ExternalForce (opensim-core,
OpenSim/Simulation/Model/ExternalForce.h and .cpp, read for reference): an identifier names the
three data columns whose labels begin with it, in file order (x, y, z); the force and the
torque are expressed in ``force_expressed_in_body``, the point in ``point_expressed_in_body``
(both ``ground`` by default); without a point identifier the force acts at the origin of
``applied_to_body``; the torque is a free moment. None of this needs the ``opensim`` package.
"""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np

from ...forces import wrench_at_point
from ..._input_bytes import read_input, refuse_devices
from ..._safe_files import note_input, replacing
from ...warn import counted, data_rows, report
from ._cells import refuse_unwritable_names, refuse_unwritable_title, title_from_path
from .setup_xml import disabled, read_setup_element, read_tool, text as _text
from .windows import decode_text, setup_path
from ..trajectory import MotionError, _from_table, _to_table, angle_columns, load_mapping

__all__ = ["read_sto_table", "read_opensim", "write_opensim", "write_external_loads",
           "ExternalForce", "ExternalLoads",
           "ExternalLoadsError", "read_external_loads", "external_loads_inputs"]

# ============================================================================ motion and storage tables

#: Header keys OpenSim's Storage counts rows and columns by (Storage::parseHeaders): the
#: OpenSim ``key=value`` spellings and SIMM's ``key value`` ones.
_ROW_KEYS, _COLUMN_KEYS = ("nrows", "nr", "datarows"), ("ncolumns", "nc", "datacolumns")
#: Header lines without ``=`` whose first word is a key (SIMM motion headers; OpenSim 4.6's
#: Storage also reads ``inDegrees yes``, ``nRows 3`` and ``version 1``).
_SIMM_KEYS = ("name", "datarows", "datacolumns", "nr", "nc", "range", "angles",
              "version", "nrows", "ncolumns", "indegrees")
#: The keys OpenSim 4.6's Storage reads, as it spells them (it compares them case-sensitively:
#: 'InDegrees' or 'NROWS' are no keys to it), by their lower-case forms.
_OPENSIM_KEYS = {k.lower(): k for k in ("version", "nRows", "nColumns", "inDegrees", "nr", "nc",
                                        "datarows", "datacolumns", "Angles")}
#: inDegrees values: those OpenSim 4.6's Storage reads as degrees (in any case), and the other
#: words a header may mean degrees or radians by (OpenSim reads all of them as radians).
_OPENSIM_DEGREES, _SAYS_DEGREES, _SAYS_RADIANS = ("yes", "y"), ("true", "t", "1", "on"), (
    "no", "n", "false", "f", "0", "off")


def _header_entry(line):
    """(key, value) of a header line as OpenSim's Storage splits it (the key up to the first
    blank, tab or ``=``, the value after every blank, tab and ``=`` that follow: it reads
    ``inDegrees==yes`` as yes), or None for a line without one. A key spelt like inDegrees
    in other words (``inDegrees:``, ``in_degrees``) is kept, to be named."""
    s = line.strip()
    if "=" in s:
        key, _, value = s.partition("=")
        return key.strip(), value.lstrip(" \t=").strip()
    key, _, value = s.replace("\t", " ").partition(" ")
    if (key.lower() in _SIMM_KEYS or _like_in_degrees(key)) and value.strip():
        return key, value.strip()
    said, colon, value = s.partition(":")
    if colon and _like_in_degrees(said) and value.strip():      # 'inDegrees:yes'
        return said + colon, value.strip()
    return None


def _like_in_degrees(key):
    """Whether a header key means inDegrees to a reader ('inDegrees:', 'in_degrees', 'In
    Degrees'), whatever OpenSim reads of it (only 'inDegrees' followed by '=' or a blank)."""
    return re.sub(r"[\s_:-]", "", key).lower() == "indegrees"


@dataclass
class _Header:
    """A .mot/.sto header: info (keys lower-cased: what the header says to a reader), exact
    (the entries whose keys OpenSim 4.6 reads, spelt as it spells them: what it says to
    OpenSim), where (lower-cased key: (line number, the line as written)) and the lines whose
    keys OpenSim does not read for their case."""
    info: dict = field(default_factory=dict)
    exact: dict = field(default_factory=dict)
    where: dict = field(default_factory=dict)
    miscased: list = field(default_factory=list)
    labels_line: int = 0
    raw: dict = field(default_factory=dict)     # lower-cased key: its line as written


def read_sto_table(path):
    """(labels, data, header info, name) of an OpenSim motion/storage file (.mot, .sto): the
    one reader of the format, as written, nothing converted.

    Header lines up to ``endheader``: an optional name line, ``key=value`` lines and SIMM's
    ``key value`` lines (``datarows``, ``datacolumns``, ``range``...; keys lower-cased in info),
    then a line of column labels and the numbers. Labels are split at tabs (at blanks without
    tabs), empty ones dropped as OpenSim's Storage drops them (a doubled or trailing tab).
    A row or column count in the header (``nRows``/``datarows``, ``nColumns``/
    ``datacolumns``) that disagrees with the table is warned about, and the table read as it
    is, as OpenSim reads it. OpenSim's keys are case-sensitive: a key it does not read for its
    case (``NROWS``, ``EndHeader``) is applied and warned about, naming the line and the key
    OpenSim expects. Where OpenSim 4.6 reads the numbers otherwise (Storage without the counts
    or at a NaN in a file of version below 2, or at a label holding a blank there; its
    TimeSeriesTable at blank-separated columns; a blank line between rows from version 2 on)
    the table is read as written and the difference warned about; a cell that is empty or
    not a finite number is refused naming its line and column."""
    labels, data, header, name = _read_table(path)
    return labels, data, header.info, name


def _read_table(path):
    """read_sto_table, its header as a _Header."""
    path = os.fspath(path)
    note_input(path, "OpenSim table")
    raw = read_input(path, "OpenSim table (.mot/.sto)", limit=None)
    try:
        lines = decode_text(raw, path).splitlines()      # CRLF too
    except ValueError as e:
        raise MotionError(str(e)) from None
    try:
        end = next(i for i, line in enumerate(lines) if line.strip().lower() == "endheader")
    except StopIteration:
        raise MotionError(f"{path}: no 'endheader' line (not an OpenSim .mot/.sto file)") from None
    header, name, counts = _Header(), None, {}
    for i, line in enumerate(lines[:end]):
        entry = _header_entry(line)
        if entry is not None:
            key = "indegrees" if _like_in_degrees(entry[0]) else entry[0].lower()
            header.info[key] = entry[1]
            header.where[key] = (i + 1, " ".join(line.split()))
            header.raw[key] = line
            if _OPENSIM_KEYS.get(key, entry[0]) == entry[0]:
                header.exact[key] = entry[1]
            else:
                header.miscased.append((i + 1, line.strip(), _OPENSIM_KEYS[key], entry[1]))
            if key in _ROW_KEYS + _COLUMN_KEYS:          # the last one counts, as in OpenSim
                counts["rows" if key in _ROW_KEYS else "columns"] = (
                    entry[0], entry[1], i + 1, " ".join(line.split()))
        elif line.strip() and i == 0:
            name = line.strip()
    if name is None and "name" in header.info:
        name = header.info["name"]
    if lines[end].strip() != "endheader":
        report(f"{path}: line {end + 1}: {lines[end].strip()!r}: OpenSim 4.6 refuses this file "
               "(its Storage and TimeSeriesTable end a header at 'endheader' in lower case "
               "only); urdf2dyn read it. Write 'endheader' for OpenSim to read it",
               stacklevel=None)
    after = list(enumerate(lines[end + 1:], end + 2))
    body = [(k, line) for k, line in after if line.strip()]
    if not body:
        raise MotionError(f"{path}: no column labels after 'endheader'")
    first, header.labels_line = body[0][1], body[0][0]
    labels = [x.strip() for x in (first.split("\t") if "\t" in first else first.split())]
    labels = [x for x in labels if x]
    try:                                        # the common case in one comprehension
        rows = [[float(x) for x in line.split()] for _, line in body[1:]]
    except ValueError:                          # find the cell at fault
        rows = [_numbers(path, k, line, labels) for k, line in body[1:]]
    bad = [i for i, r in enumerate(rows) if len(r) != len(labels)]
    if bad:
        raise MotionError(_row_length_error(path, body[bad[0] + 1], bad[0] + 1,
                                            len(rows[bad[0]]), labels, body[0][0]))
    data = np.array(rows, dtype=float).reshape(-1, len(labels))
    legacy = _storage_version(header) < 2
    _check_finite(path, body[1:], labels, data, legacy)
    _warn_blank_lines(path, after, body, legacy)
    if not legacy:
        _warn_not_tab_separated(path, body, labels, header)
    if legacy:
        _warn_blank_separated_legacy(path, body, labels)
        _warn_counts_storage_needs(path, header, data.shape)
    for what, actual in (("rows", data.shape[0]), ("columns", len(labels))):
        if what not in counts:
            continue
        key, value, lineno, said = counts[what]
        declared = _atoi(value)
        if declared != actual:
            report(f"{path}: line {lineno}: the header says {said} but the table has "
                   f"{actual} {what}{_storage_count(what, declared, actual, legacy)}; the "
                   f"{actual} {what} were read. Set {key} to {actual} in the header",
                   stacklevel=None)
    return labels, data, header, name


def _storage_version(header):
    """The version OpenSim 4.6's Storage takes the file for (0 without a 'version' line it
    reads): below 2 it reads the numbers itself, by the header's counts (nRows, nColumns);
    from 2 on with the table reader of opensim.TimeSeriesTable (STOFileAdapter), which
    needs no counts and is what OpenSim 4 writes (version=3)."""
    return _atoi(header.exact.get("version", "")) or 0


def _storage_count(what, declared, actual, legacy):
    """What OpenSim 4.6's Storage reads of a table whose header count (rows or columns)
    disagrees with it: '' when it reads the table as it is (more rows declared, or a file of
    version 2 or later, whose counts it ignores)."""
    if not legacy or declared is None or declared <= 0:
        return ""
    if declared < actual:
        return (f" (OpenSim 4.6 reads only the first {declared} "
                + ("rows" if what == "rows" else "values of each row") + ")")
    if what == "columns":
        return (f" (OpenSim 4.6's Storage reads {declared} numbers per row, taking the next "
                "row's first numbers for this row's last values: it runs the rows together)")
    return ""


#: A cell written with a decimal comma (a locale's spelling of 20.5)
_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")


def _numbers(path, lineno, line, labels):
    """The numbers of a data line, or MotionError naming the line, the column and the cell
    that is not one (OpenSim 4.6 reads such a cell without a word: its TimeSeriesTable as the
    number it begins with, '20,5' as 20, its Storage by stopping there)."""
    cells = line.split()
    try:
        return [float(x) for x in cells]
    except ValueError:
        pass
    for k, cell in enumerate(cells):
        try:
            float(cell)
        except ValueError:
            column = f"column {labels[k]!r}" if k < len(labels) else f"value {k + 1}"
            advice = ("it has a decimal comma: write decimals with a decimal point ("
                      f"{cell.replace(',', '.')!r}) throughout the file"
                      if _DECIMAL_COMMA.fullmatch(cell) else
                      "write a number there (NaN for a missing value)")
            raise MotionError(f"{path}: line {lineno}, {column}: {cell[:20]!r} is not a "
                              f"number; {advice}. OpenSim 4.6 would read the number it begins "
                              "with, or stop reading there") from None
    raise AssertionError("unreachable: some cell failed to parse")


def _row_length_error(path, numbered_line, row, count, labels, labels_line):
    """The refusal of a data line with count values for len(labels) labels, naming the empty
    cell between tabs that makes it short by its column (label and number), as a cell that is
    not a number is named. (OpenSim 4.6 reads an empty cell as NaN from version 2 on, and in
    a file of version 1 its Storage takes the next number for it, running the rows together:
    a gap is written NaN, which both read.)"""
    lineno, line = numbered_line
    cells = line.split("\t") if "\t" in line else []
    if len(cells) > 1 and not cells[-1].strip():
        cells = cells[:-1]                      # a tab ending the line adds no cell
    empty = next((k for k, c in enumerate(cells[:len(labels)]) if not c.strip()), None)
    if empty is not None:
        return (f"{path}: line {lineno}, column {empty + 1} {labels[empty]!r}: the cell is "
                "empty; write the value there (NaN for a missing one). OpenSim 4.6 reads an "
                "empty cell as NaN in a file of version 2 or later, and in one of version 1 "
                "its Storage takes the next number for it, running the rows together")
    return (f"{path}: line {lineno} (data row {row}) has {count} values for the "
            f"{len(labels)} column labels of line {labels_line}; give every row one value "
            "per label")


def _check_finite(path, rows, labels, data, legacy):
    """Refuse an infinite cell (no coordinate or load is infinite, and OpenSim 4.6 reads none:
    its TimeSeriesTable reads NaN, its Storage stops there); warn about a NaN in a file of
    version below 2, which OpenSim 4.6's Storage (the reader of its tools) stops reading at."""
    inf = np.argwhere(np.isinf(data))
    if len(inf):
        r, c = inf[0]
        raise MotionError(f"{path}: line {rows[r][0]}, column {labels[c]!r}: "
                          f"{rows[r][1].split()[c]!r} is not a finite number; write the value "
                          "(NaN for a missing one)")
    nan = np.argwhere(np.isnan(data))
    if legacy and len(nan):
        r, c = nan[0]
        report(f"{path}: line {rows[r][0]}, column {labels[c]!r}: {rows[r][1].split()[c]!r}: "
               "OpenSim 4.6's Storage, the reader of its tools (InverseDynamicsTool, IK "
               "coordinate files, ExternalLoads data), stops reading numbers there in a file "
               "without 'version=2' or later: they get the rows before this line and nothing "
               "usable after it. urdf2dyn read it as a missing value (NaN). For OpenSim to "
               "read it so too, write 'version=3' in the header (or fill the gap)",
               stacklevel=None)


def _warn_blank_lines(path, after, body, legacy):
    """Warn about a blank line between the labels and the last data row, or a line of blanks
    (spaces, tabs) anywhere after the labels: OpenSim 4.6's TimeSeriesTable ends the data at
    the one (keeping the rows before it) and refuses the file for the other; so does its
    Storage in a file of version 2 or later, which it reads with that table's reader."""
    if len(body) < 2:
        return
    labels_line, last_row = body[0][0], body[-1][0]
    blank = [(k, line) for k, line in after if k > labels_line and not line.strip()
             and (k < last_row or line.strip("\r"))]
    if not blank:
        return
    lineno, line = blank[0]
    before = sum(1 for k, _ in body[1:] if k < lineno)
    kept = f"only the {before} row{'' if before == 1 else 's'} before it"
    if line.strip("\r"):                          # spaces or tabs: a row of empty cells
        opensim = ("OpenSim 4.6's TimeSeriesTable refuses the file (a line of blanks is a row "
                   "without values to it)" + ("" if legacy else ", and so does its Storage "
                                              "unless the header counts the rows (nRows)"))
        what = "holds only blanks"
    elif legacy:
        opensim = (f"OpenSim 4.6's TimeSeriesTable reads {kept} (its Storage, the reader of "
                   "its tools, reads every row of a file without 'version=2' or later)")
        what = "is blank"
    else:
        opensim = (f"OpenSim 4.6 reads {kept} (its Storage and TimeSeriesTable end the data "
                   "at a blank line), without a word")
        what = "is blank"
    where = "inside the data" if lineno < last_row else "after the data"
    report(f"{path}: line {lineno} {what}, {where}: {opensim}; urdf2dyn read all "
           f"{len(body) - 1} rows. To have OpenSim read them all, delete that line",
           stacklevel=None)


def tab_cells(line):
    """The number of cells OpenSim 4.6's file adapters (STOFileAdapter, TRCFileAdapter) find
    in a data line: they split at tabs only, and a tab ending the line adds no cell."""
    line = line.rstrip("\r\n")
    return line.count("\t") + (0 if line.endswith("\t") else 1)


def _warn_not_tab_separated(path, body, labels, header):
    """Warn about a file of version 2 or later whose labels or values are separated by blanks:
    OpenSim 4.6 reads such a file with its table reader, which splits at tabs only, and so
    refuses it (its Storage falls back on its older reader for a .sto that counts its rows
    and columns)."""
    width = len(labels)                         # every data row has as many values (checked)
    labels_cells = len([c for c in body[0][1].split("\t") if c.strip()])
    k, line = next(((k, line) for k, line in body[1:] if tab_cells(line) != width),
                   (None, None))
    if labels_cells != width:                   # it drops empty labels (doubled tabs)
        k, line = body[0]
    if k is None:
        return
    counted = (any(key in header.exact for key in _ROW_KEYS)
               and any(key in header.exact for key in _COLUMN_KEYS))
    storage = ("its Storage reads it by its older rules (nRows, nColumns)"
               if counted and path.lower().endswith(".sto") else "its Storage refuses it too")
    report(f"{path}: line {k}: values separated by blanks, not tabs: OpenSim 4.6 reads a file "
           "of version 2 or later with its table reader, which splits at tabs only: its "
           f"TimeSeriesTable refuses the file and {storage}; urdf2dyn read it. Separate the "
           "columns with tabs for OpenSim to read it", stacklevel=None)


def _warn_blank_separated_legacy(path, body, labels):
    """Warn about a file of version 1 (or none) whose columns are separated by blanks, or
    whose labels hold a blank. OpenSim 4.6's Storage reads such a file by its own rules,
    labels and numbers split at blanks and tabs alike: the numbers as urdf2dyn reads them,
    but a label 'knee angle' as two, which shifts every label after it. Its TimeSeriesTable
    (STOFileAdapter, the reader of scripts and Moco) splits at tabs only and refuses a file
    separated by blanks."""
    lineno, first = body[0]
    spaced = [x for x in labels if len(x.split()) > 1]
    if spaced and "\t" in first:
        storage = first.split()
        report(f"{path}: line {lineno}: the label {spaced[0]!r} holds a blank: OpenSim 4.6's "
               "Storage, the reader of its tools (InverseDynamicsTool, IK coordinate files, "
               "ExternalLoads data), splits the labels of a file of version 1 at blanks as "
               f"well as tabs: it reads {', '.join(repr(x) for x in spaced[0].split())} "
               f"({len(storage)} labels for {len(labels)} columns), so its tools take the "
               f"columns after it for others; urdf2dyn read {spaced[0]!r}. Rename the column "
               f"without blanks (e.g. {'_'.join(spaced[0].split())!r})", stacklevel=None)
    width = len(labels)
    k = lineno if len([c for c in first.split("\t") if c.strip()]) != width else next(
        (k for k, line in body[1:] if tab_cells(line) != width), None)
    if k is None:
        return
    report(f"{path}: line {k}: values separated by blanks, not tabs: OpenSim 4.6's Storage, "
           "the reader of its tools (InverseDynamicsTool, IK coordinate files, ExternalLoads "
           "data), reads a file of version 1 number by number and reads it as urdf2dyn did, "
           "but its TimeSeriesTable refuses the file (its STOFileAdapter, the reader of "
           "scripts and Moco, splits at tabs only). Separate the columns with tabs for every "
           "OpenSim reader to read it", stacklevel=None)


def _warn_counts_storage_needs(path, header, shape):
    """Warn about a header of version below 2 without a row or column count OpenSim 4.6's
    Storage reads its numbers by: missing, or written in another case (its keys are
    case-sensitive: 'NROWS' is no count to it)."""
    missing = []
    for key, keys, n, then in (
            ("nRows", _ROW_KEYS, shape[0], "finding no row count, reads no rows of the file"),
            ("nColumns", _COLUMN_KEYS, shape[1], "finding no column count, fails to read the "
                                                 "file")):
        if set(keys) & set(header.exact):
            continue
        wrong = [m for m in header.miscased if m[2].lower() in keys]
        if wrong:
            lineno, line, expected, value = wrong[-1]
            _say_miscased(path, lineno, line, expected, value, f"ignores this line and, {then}")
        else:
            missing.append(f"{key}={n}")
    if not missing:
        return
    fix = "' and '".join(missing)
    does = {1: "reads no rows of it" if missing[0].startswith("nRows") else "fails on it",
            2: "refuses it"}[len(missing)]
    report(f"{path}: the header has no {' and no '.join(m.split('=')[0] for m in missing)} "
           "line: OpenSim 4.6's Storage, the reader of its tools (InverseDynamicsTool, IK "
           f"coordinate files, ExternalLoads data), {does} without 'version=2' or later, and "
           f"its InverseDynamicsTool fails on it; urdf2dyn read the {shape[0]} rows and "
           f"{shape[1]} columns there are, as OpenSim's TimeSeriesTable does. Add "
           f"'{fix}' to the header for OpenSim's tools to read it", stacklevel=None)


def _warn_miscased(path, header):
    """Warn about each header line whose key OpenSim 4.6 does not read for its case, saying what
    OpenSim then does (the units are settled by _in_degrees, which refuses a header whose
    angles OpenSim would read in other units; a row or column count is
    _warn_counts_storage_needs')."""
    for lineno, line, expected, value in header.miscased:
        # an 'angles are in radians.' line leaves OpenSim's radians as they are (one that
        # says degrees is refused by _in_degrees)
        if expected.lower() not in _ROW_KEYS + _COLUMN_KEYS + ("angles",):
            _say_miscased(path, lineno, line, expected, value, "ignores this line")


def _say_miscased(path, lineno, line, expected, value, then):
    spelt = _spelt_key(line)
    why = ("its keys are case-sensitive" if spelt.lower() == expected.lower() else
           "followed by '=' or a blank, the only spelling it reads")
    report(f"{path}: line {lineno}: {line!r}: OpenSim 4.6's key is {expected!r} ({why}): it "
           f"{then}; urdf2dyn read the line as {expected}. Write '{expected}={value}' for "
           "OpenSim to read it", stacklevel=None)


def _spelt_key(line):
    """A header line's key as OpenSim's Storage cuts it: up to the first blank, tab or '='."""
    return re.split(r"[ \t=]", line.strip(), maxsplit=1)[0]


def _atoi(text):
    """The integer a count in a header starts with (as C's atoi reads it), or None."""
    m = re.match(r"\s*[+-]?\d+", text)
    return int(m.group()) if m else None


def _degrees_by(path, keys, lenient):
    """Whether the header entries keys (lower-case key: value) put the angles in degrees, and
    why: OpenSim's Storage's rule. A .mot without a ``version`` of 1 or more is a SIMM motion
    file, in degrees whatever ``inDegrees`` says ("Motion files from SIMM are in degrees",
    Storage.cpp); otherwise ``inDegrees`` (without it, and without a version, a line ``Angles
    are in degrees.``, spelt so) says: 'yes' or 'y' (any case) degrees, anything else radians
    to OpenSim; lenient: also 'true', '1'..., and an ``Angles`` line in any case after a
    version line (what a writer of the file may have meant)."""
    version = _atoi(keys.get("version", "")) or 0
    if version < 1 and ".mot" in os.path.basename(path).lower():
        return True, "degrees (SIMM .mot: no version line)"
    deg = keys.get("indegrees")
    # OpenSim reads the whole line, in that case, before any version line; a reader, always
    if deg is None and (version < 1 or lenient):
        angles = keys.get("angles", "")
        angles = angles.lower() if lenient else angles
        if angles in ("are in degrees.", "are in radians."):
            deg = "yes" if "degrees" in angles else "no"
    said = (deg or "").strip().lower()
    if said in _OPENSIM_DEGREES or (lenient and said in _SAYS_DEGREES):
        return True, "degrees (inDegrees=yes)"
    return False, "radians"


def _in_degrees(path, header):
    """(whether the angles are in degrees, why), as OpenSim 4.6's Storage (and so its
    InverseDynamicsTool) reads them. A header that says degrees to a reader but radians to
    OpenSim, or the other way round (``inDegrees=true``, ``InDegrees=yes``, ``Version=1`` in a
    .mot), is refused: either reading would silently disagree with one of them."""
    info, deg = header.info, header.info.get("indegrees")
    if deg is not None and deg.strip().lower() not in (
            _OPENSIM_DEGREES + _SAYS_DEGREES + _SAYS_RADIANS):
        lineno, line = header.where["indegrees"]
        raise MotionError(f"{path}: line {lineno}: {line!r}: inDegrees={deg!r} is neither yes "
                          "nor no; write 'inDegrees=yes' if the angles are in degrees, "
                          "'inDegrees=no' if they are radians")
    degrees, units = _degrees_by(path, header.exact, lenient=False)
    meant = _degrees_by(path, info, lenient=True)[0]
    if meant != degrees:
        raise MotionError(_units_disagree(path, header, degrees))
    if meant and deg is not None and deg.strip().lower() in _SAYS_RADIANS:
        lineno = header.where["indegrees"][0]
        report(f"{path}: line {lineno}: inDegrees={deg} but no 'version=' line: OpenSim reads a "
               ".mot without a version (a SIMM motion file) in degrees whatever inDegrees says, "
               "and so does urdf2dyn. If its angles are radians, add a line 'version=1' "
               "to its header", stacklevel=None)
    _warn_miscased(path, header)
    _warn_table_reader_disagrees(path, header, degrees)
    return degrees, units


def _table_in_degrees(line):
    """What OpenSim 4.6's TimeSeriesTable (STOFileAdapter) reads as inDegrees from a header
    line: its key is the text before the line's last '=' as written (blanks included), its
    value what follows, trimmed; None when that key is not exactly 'inDegrees'."""
    key, equals, value = line.rpartition("=")
    return value.strip() or None if equals and key == "inDegrees" else None


def _warn_table_reader_disagrees(path, header, degrees):
    """Warn about an inDegrees line that OpenSim 4.6's Storage reads but its TimeSeriesTable
    does not read as 'yes' or 'no' ('inDegrees = yes',
    'inDegrees yes', 'inDegrees=Yes', 'inDegrees=y'): the readers of its IK and
    inverse-dynamics tools and of Moco (TableProcessor, StatesTrajectory:
    TableUtilities::isInDegrees, which accepts 'yes' and 'no' only and refuses a table without
    the key) then disagree. urdf2dyn reads the units as Storage does (its tools' results are
    the ones compared). A header without any inDegrees line is warned about by
    _warn_no_in_degrees_line."""
    if "indegrees" not in header.exact:     # none, or a key Storage ignores (said already)
        return
    said = _table_in_degrees(header.raw["indegrees"])
    if said in ("yes", "no"):
        return
    lineno, line = header.where["indegrees"]
    if said is None:
        what = ("reads no inDegrees from this line (its key is the text before the line's "
                "last '=', and must be exactly 'inDegrees')")
    else:
        what = f"reads inDegrees={said!r}, where it accepts only 'yes' or 'no'"
    report(f"{path}: line {lineno}: {line!r}: OpenSim 4.6's Storage (the reader of its IK and "
           f"inverse-dynamics tools) and urdf2dyn read the angles as "
           f"{'degrees' if degrees else 'radians'}, but its TimeSeriesTable (STOFileAdapter, "
           f"read by Moco's TableProcessor) {what} and refuses the file where it needs the "
           f"units. Write 'inDegrees={'yes' if degrees else 'no'}' (lower case, no blank "
           "around '=') for both to read it alike", stacklevel=None)


def _version_at_fault(path, header, meant):
    """Whether a mis-cased version line alone makes OpenSim read the angles otherwise than the
    header means (spelt as OpenSim spells it, OpenSim would read them as meant)."""
    if "version" not in header.info or "version" in header.exact:
        return False
    spelt = dict(header.exact, version=header.info["version"])
    return _degrees_by(path, spelt, lenient=False)[0] == meant


def _units_disagree(path, header, degrees):
    """The refusal of a header whose angles OpenSim 4.6 reads in other units than it says:
    the line at fault, what OpenSim does and what to write."""
    opensim = "degrees" if degrees else "radians"
    said = "radians" if degrees else "degrees"
    if _version_at_fault(path, header, not degrees):
        lineno, line = header.where["version"]
        why = ("its key is 'version', in that case only, so it takes the file for one without "
               "a version line" + (" (a SIMM motion file, whose angles are degrees)"
                                   if degrees else ""))
        fix = f"Write 'version={header.info['version']}'"
    elif "indegrees" not in header.where:       # the SIMM line 'Angles are in degrees.'
        lineno, line = header.where["angles"]
        why = ("it reads this line only spelt exactly 'Angles are in degrees.', in a file "
               "without a version line (before it)")
        fix = "Write 'inDegrees=yes' if they are in degrees, 'inDegrees=no' if they are radians"
    else:
        lineno, line = header.where["indegrees"]
        value = header.info["indegrees"]
        if "indegrees" not in header.exact and _spelt_key(line).lower() == "indegrees":
            why = "its key is 'inDegrees', in that case only, so it ignores this line"
        elif "indegrees" not in header.exact:
            why = ("its key is 'inDegrees' followed by '=' or a blank, so it ignores this "
                   "line")
        else:
            why = "it reads only 'yes' or 'y' as degrees"
        fix = (f"Write 'inDegrees={value if value.lower() in _OPENSIM_DEGREES else 'yes'}' if "
               "they are in degrees, 'inDegrees=no' if they are radians")
    return (f"{path}: line {lineno}: {line!r}: OpenSim 4.6 reads the angles of this file as "
            f"{opensim}, because {why}, and its InverseDynamicsTool computes its moments from "
            f"them so; the header says {said}. urdf2dyn will not guess which is right: {fix}")


def read_opensim(path, model=None, mapping=None, linear=()):
    """Read an OpenSim motion/storage file (.mot, .sto) as a Trajectory (see read_sto_table for
    the layout). Angles in degrees (``inDegrees=yes``, or a SIMM .mot: no ``version`` line, as
    OpenSim's Storage reads it) are converted for the rotational coordinates only
    (angle_columns)."""
    path = os.fspath(path)
    labels, data, header, name = _read_table(path)
    info = header.info
    _check_time_label(path, labels, header.labels_line)
    labels, data, state_paths = _state_values(labels, data, info, path)
    data = _repeated_times(labels, data, path)
    degrees, units = _in_degrees(path, header)
    traj = _from_table(labels, data, path, degrees, model, linear, mapping,
                       {"format": "opensim", "name": name, "in_degrees": degrees,
                        "units": units, "header": info,
                        "state_paths": _read_as(state_paths, mapping)})
    if "indegrees" not in info and angle_columns(traj.names, model, linear).any():
        _warn_no_in_degrees_line(path, header, degrees)
    return traj


def _read_as(state_paths, mapping):
    """((state path label, the coordinate it was read as), ...): the path's coordinate,
    renamed by the mapping as its column was (a mapping file is read again only when the
    file has such columns)."""
    if not state_paths:
        return ()
    renamed = load_mapping(mapping)
    return tuple((p, renamed.get(p.split("/")[-2], p.split("/")[-2])) for p in state_paths)


def _warn_no_in_degrees_line(path, header, degrees):
    """Warn about a file of angles whose header has no inDegrees line at all (SIMM's
    'Angles are in degrees.', a .mot without a version, or nothing: opensim-core's own
    example motions): OpenSim 4.6's Storage, the reader of its IK and inverse-dynamics tools,
    reads its units by SIMM's rules (as urdf2dyn does), but its TimeSeriesTable
    (STOFileAdapter) has no inDegrees for it, and what reads units from that table (Moco's
    TableProcessor, StatesTrajectory: TableUtilities::isInDegrees) refuses the file."""
    version = _atoi(header.exact.get("version", "")) or 0
    if degrees and version < 1 and ".mot" in os.path.basename(path).lower():
        why = "a .mot without a version line is a SIMM motion file, in degrees"
    elif "angles" in header.where:
        lineno, line = header.where["angles"]
        why = f"line {lineno}: {line!r}"
    else:
        why = "nothing says degrees: radians"
    report(f"{path}: its header has no inDegrees line. OpenSim 4.6's Storage (the reader of "
           f"its IK and inverse-dynamics tools) and urdf2dyn read its angles as "
           f"{'degrees' if degrees else 'radians'} ({why}), but its TimeSeriesTable "
           "(STOFileAdapter, read by Moco's TableProcessor) finds no units and refuses the "
           "file where it needs them ('Table does not have 'inDegrees' metadata'). Add the "
           f"line 'inDegrees={'yes' if degrees else 'no'}' to its header, before 'endheader', "
           "for both to read it alike", stacklevel=None)


def _check_time_label(path, labels, lineno):
    """Refuse a table without a 'time' column as OpenSim 4.6 refuses it (Storage: 'no time
    column found', TimeSeriesTable: 'Expected = time'), saying what to add; warn about a time
    column that urdf2dyn reads by its label and OpenSim does not: 'Time' (refused by OpenSim),
    'time' after the first column (Storage takes the first column for the times)."""
    lower = [x.lower() for x in labels]
    if "time" not in lower:
        hint = ""
        if lower and lower[0] in ("frame", "frame#", "frames"):
            hint = (f" (if {labels[0]!r} counts samples, its times are frame / sampling rate; "
                    "replace it by them)")
        raise MotionError(f"{path}: line {lineno}: no 'time' column among the labels "
                          f"{labels}: OpenSim 4.6 refuses the file too (its Storage and "
                          "TimeSeriesTable need 'time' as the first label). To read it, add "
                          f"the sample times in seconds as the first column, labelled 'time'"
                          f"{hint}")
    k = lower.index("time")
    if labels[k] != "time":
        report(f"{path}: line {lineno}: the label {labels[k]!r}: OpenSim 4.6 refuses the file "
               "(its Storage and TimeSeriesTable need the label 'time' in lower case); urdf2dyn "
               f"read it as the times. Write 'time' for OpenSim to read it", stacklevel=None)
    if k > 0:
        report(f"{path}: line {lineno}: 'time' is column {k + 1}: OpenSim 4.6's Storage takes "
               f"the first column ({labels[0]!r}) for the times (its InverseDynamicsTool then "
               "computes nonsense) and its TimeSeriesTable refuses the file; urdf2dyn read the "
               "'time' column. Move 'time' to the first column for OpenSim to read it",
               stacklevel=None)


def _repeated_times(labels, data, path):
    """The table read by opensim.Storage's rule (Storage::append): a row with the time of the
    row before it replaces that row. OpenSim's RRA and CMC write their last row twice, and its
    tools read such files; each replaced row is warned about, naming the row that replaces it.
    Times that go back stay an error (the trajectory's own check)."""
    lower = [h.lower() for h in labels]
    if "time" not in lower or len(data) < 2:
        return data
    t = data[:, lower.index("time")]
    again = np.flatnonzero(t[1:] == t[:-1]) + 1          # rows that replace the one before
    if not len(again):
        return data
    same = [k for k in again if np.array_equal(data[k], data[k - 1], equal_nan=True)]
    other = [k for k in again if k not in same]
    if same:
        report(f"{path}: data row{'s' if len(same) > 1 else ''} {data_rows(same)} "
               f"repeat{'' if len(same) > 1 else 's'} the row before "
               f"{'them' if len(same) > 1 else 'it'} (its time and every value): dropped, as "
               "OpenSim reads it (its RRA and CMC write their last row twice)", stacklevel=None)
    if other:
        report(f"{path}: data row{'s' if len(other) > 1 else ''} {data_rows(other)} "
               f"{'have' if len(other) > 1 else 'has'} the time of the row before "
               f"({t[other[0]]:g} s) and other values: it replaces that row, as OpenSim's "
               "Storage reads the file; check which of the two rows is right", stacklevel=None)
    return np.delete(data, np.asarray(again) - 1, axis=0)


def _state_values(labels, data, info=None, path=None):
    """The coordinates of an OpenSim 4 states table (a forward simulation's or Moco's
    ``*_states.sto``), whose columns are state variable paths: ``/jointset/knee_r/
    knee_angle_r/value`` is the coordinate knee_angle_r; its ``/speed`` and the other states
    (``/forceset/soleus_r/activation``...) are dropped, the velocities and accelerations
    coming from the values as for any motion file (the dropped speeds are warned about).
    OpenSim 4.6's InverseDynamicsTool does not map these paths: it holds every coordinate at
    its default value (OpenSim's processing says so: OpenSimProcessing.columns). Returns
    (labels, data, the path labels read as coordinates). A MocoTrajectory file
    (its header counts ``num_states``...) also has columns by plain name, its kinematic
    constraints' multipliers, slacks and parameters: they are dropped too. A coordinate
    given both by name and by path is refused naming the two columns."""
    if not any(h.startswith("/") and h.endswith("/value") for h in labels):
        return labels, data, ()
    moco = "num_states" in (info or {})
    keep = [k for k, h in enumerate(labels)
            if (h.startswith("/") and h.endswith("/value"))
            or (not h.startswith("/") and (not moco or h.lower() == "time"))]
    names = [h.split("/")[-2] if h.startswith("/") else h for h in (labels[k] for k in keep)]
    seen = {}
    for k, n in zip(keep, names):
        if n in seen:
            raise MotionError(f"{path}: columns {labels[seen[n]]!r} and {labels[k]!r} both "
                              f"give coordinate {n!r}: keep one of them")
        seen[n] = k
    _warn_unused_speeds(labels, path)
    return names, data[:, keep], tuple(labels[k] for k in keep if labels[k].startswith("/"))


def _warn_unused_speeds(labels, path):
    """Say that a states table's coordinate speeds are not used: a user who simulated them
    may take them for the velocities urdf2dyn's inverse dynamics uses."""
    speeds = [h for h in labels if h.startswith("/jointset/") and h.endswith("/speed")]
    if not speeds:
        return
    shown = ", ".join(repr(h) for h in speeds[:3]) + (", ..." if len(speeds) > 3 else "")
    report(f"{path}: its {counted(len(speeds), 'coordinate speed column')} ({shown}) "
           f"{'is' if len(speeds) == 1 else 'are'} not used: "
           "urdf2dyn estimates the velocities and accelerations by differentiating the "
           "coordinates' '/value' columns, as for any motion file. The estimates match the "
           "speeds only where the time steps are small against the motion: write the states "
           "at a finer reporting interval if they are not", stacklevel=None)


def write_opensim(path, traj, degrees=None, name=None, model=None, linear=(), derivatives=False,
                  forces=False):
    """Write an OpenSim .mot/.sto file: header ``name`` (by default the file's name without
    its extension, '=' written '_'; a name holding '=' is refused, as OpenSim reads such a line
    as a key, not the title), ``version=1`` (3 when a value is NaN,
    which OpenSim's Storage reads only so), ``nRows``, ``nColumns``,
    ``inDegrees=yes|no``, ``endheader``, then tab-separated labels and values.

    degrees: write angles in degrees (``inDegrees=yes``, OpenSim's usual choice for
    coordinates); which columns are angles: see :func:`angle_columns` (with a model, exactly its
    rotational coordinates). The default None means yes with a model and no without one, so a
    table that is not a motion (torques, forces) is never multiplied by 180/pi: write torques with
    :func:`write_torques`. Lengths stay in m. A label the file cannot hold (a tab, a line
    break, blanks at its ends: formats._cells) is refused (MotionError) before anything is
    written."""
    if degrees is None:
        degrees = model is not None
    header, data = _to_table(traj, degrees, model, linear, derivatives, forces)
    _write_sto(path, header, data, degrees, name or title_from_path(path))


def coordinate_set_columns(names, model):
    """The indices that put columns ``names`` in an OpenSim model's CoordinateSet order
    (``model.coordinate_set_order``: the order OpenSim's IK tool and RRA write their
    coordinates in), names the set lacks after them as they were; the identity for a URDF."""
    names = list(names)
    at = {n: k for k, n in enumerate(names)}
    first = [at[n] for n in getattr(model, "coordinate_set_order", ()) if n in at]
    taken = set(first)
    return first + [k for k in range(len(names)) if k not in taken]


def _write_sto(path, header, data, degrees, name, fmt="{:.15g}", origin=None):
    """Write a .mot/.sto titled name; origin: where the column labels came from, said when
    one of them cannot be written (refuse_unwritable_names)."""
    refuse_unwritable_title(path, name)
    refuse_unwritable_names(path, header[:1], "column label")
    refuse_unwritable_names(path, header[1:], "column label", origin, index=header[0])
    # OpenSim 4.6's Storage reads a file of version 1 number by number and stops at a 'nan',
    # and splits its labels at blanks ('knee angle' read as two labels, the columns after it
    # shifted); from version 2 on it reads it with its table reader, which reads NaN and
    # splits at tabs only (OpenSim 4 writes version=3). Version 1 stays for the rest: what
    # every OpenSim release reads.
    blank = any(len(label.split()) > 1 for label in header)
    version = 1 if np.all(np.isfinite(data)) and not blank else 3
    with replacing(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"{name}\nversion={version}\nnRows={data.shape[0]}\nnColumns={data.shape[1]}\n"
                f"inDegrees={'yes' if degrees else 'no'}\nendheader\n")
        f.write("\t".join(header) + "\n")
        for row in data:
            f.write("\t".join(fmt.format(x) for x in row) + "\n")


# ============================================================================ external loads

GROUND = "ground"
#: Force plates report no centre of pressure below a threshold (typically 10-20 N); a larger
#: force without a point is worth a warning.
NO_POINT_FORCE = 20.0


class ExternalLoadsError(ValueError):
    """An ExternalLoads setup file, or its data, that cannot be applied as written."""

@dataclass
class ExternalForce:
    """One <ExternalForce> of an ExternalLoads file (OpenSim's property names).

    force_identifier, point_identifier, torque_identifier: column-label prefixes, or None when
    the file leaves them out (blank or ``Unassigned``)."""
    name: str
    applied_to_body: str
    force_expressed_in_body: str = GROUND
    point_expressed_in_body: str = GROUND
    force_identifier: str | None = None
    point_identifier: str | None = None
    torque_identifier: str | None = None
    data_source_name: str | None = None


@dataclass
class ExternalLoads:
    """An OpenSim ExternalLoads setup: the forces and the data file they read.

    path: the XML file; datafile: the data file, resolved relative to the XML's folder;
    forces: the enabled ExternalForce entries; time (M,) and columns {label: (M,)}: the data,
    read with urdf2dyn.biomech.read (so in SI units: N, m, N·m); kinematics_file: OpenSim's
    optional ``external_loads_model_kinematics_file`` (not used, see wrenches)."""
    path: str
    datafile: str
    forces: list
    time: np.ndarray
    columns: dict
    kinematics_file: str | None = None
    labels: list = field(default_factory=list)

    def _block(self, force, kind):
        """The (M, 3) data of force's identifier of the given kind ('force', 'point', 'torque')."""
        ident = getattr(force, f"{kind}_identifier")
        cols = [c for c in self.labels if c.startswith(ident)]
        if len(cols) != 3:
            found = f"columns {cols}" if cols else "no column"
            raise ExternalLoadsError(
                f"{self.path}: ExternalForce '{force.name}': <{kind}_identifier> '{ident}' "
                f"matches {found} of {self.datafile} (it must begin exactly 3 labels, x y z, "
                f"as OpenSim requires); fix the identifier or the column labels")
        return np.column_stack([self.columns[c] for c in cols])

    def _sample(self, force, kind, time, interpolation="linear"):
        """force's (N, 3) data of the given kind at time (N,): linearly interpolated, or
        OpenSim's natural cubic spline (exact at the data's own sample times either way)."""
        x = self._block(force, kind)
        if interpolation == "spline":
            from ..splines import natural_cubic
            hit = np.searchsorted(self.time, time).clip(0, len(self.time) - 1)
            if np.all(self.time[hit] == time):           # the data's own samples: no spline
                return x[hit]
            return natural_cubic(self.time, x, time)
        return np.column_stack([np.interp(time, self.time, x[:, c]) for c in range(3)])

    def _link(self, force, role, model, links):
        """The URDF link named by force's property role (None for the ground)."""
        body = getattr(force, role)
        if body == GROUND and body not in links:
            return None
        link = links.get(body, body)
        if link not in model.link_names:
            raise ExternalLoadsError(
                f"{self.path}: ExternalForce '{force.name}': <{role}> '{body}' is not a link "
                f"of the model '{model.name}'; pass links={{'{body}': '<URDF link>'}} to name "
                "the link it is")
        return link

    def check_cover(self, time, strict=False, interpolation="linear"):
        """Warn (raise when strict) when motion times lie beyond the data's own by more than
        half a sample: those get the nearest load sample (linearly), or loads extrapolated
        along the splines' end lines (as OpenSim does)."""
        time = np.asarray(time, dtype=float).reshape(-1)
        lo, hi = self.time[0], self.time[-1]
        step = (hi - lo) / max(len(self.time) - 1, 1)
        outside = (time < lo - 0.5 * step) | (time > hi + 0.5 * step)
        if np.any(outside):
            report(f"{self.datafile}: the loads cover {lo:g}..{hi:g} s but the motion runs "
                   f"{time[0]:g}..{time[-1]:g} s; "
                   f"{counted(int(outside.sum()), 'motion sample')} outside "
                   + ("get" if outside.sum() > 1 else "gets")
                   + (" loads extrapolated along the splines' end lines (as OpenSim does)"
                      if interpolation == "spline" else " the nearest load sample"),
                   strict=strict, error=ExternalLoadsError)

    def needs_kinematics(self, links=None):
        """Whether the wrenches depend on the model's pose: a force, torque or point expressed
        in a body, or a force without a point (it acts at its body's origin). False: every
        quantity is in the ground frame, and the wrenches can be formed at the data's own
        times without coordinates there."""
        links = dict(links or {})
        ground = (lambda body: body == GROUND and body not in links)
        return any(not ground(ef.force_expressed_in_body)
                   or (ef.force_identifier and not ef.point_identifier)
                   or (ef.point_identifier and not ground(ef.point_expressed_in_body))
                   for ef in self.forces)

    def wrenches(self, model, time, q, links=None, strict=False, interpolation="linear"):
        """External wrenches {link: (N, 6)} for ``model.inverse_dynamics(..., f_ext=...)``.

        Each ExternalForce's data is linearly interpolated at the motion's times (exact at
        the data file's own sample times; OpenSim fits a cubic spline through the same
        samples, so the two agree wherever the motion and the loads share their sampling).
        Forces, torques and points expressed in a body are turned into the world frame with
        the model's forward kinematics of that body at q; a force without a point acts at the
        origin of its body. The result is urdf2dyn's convention: [fx fy fz mx my mz] in world
        coordinates, the moment about the world origin (``wrench_at_point``); forces applied
        to the same link add up.

        Samples where the force or the point is not a number give no load (a force plate
        reports no centre of pressure without contact); a warning (an error when strict)
        names the force and the samples where the force itself is missing, or where a force
        above NO_POINT_FORCE (20 N) has no point. A missing torque counts as zero.

        OpenSim's optional ``external_loads_model_kinematics_file`` is not used: a point
        expressed in ground is applied where the data puts it, at each sample (OpenSim
        re-expresses it in the body using those kinematics, which gives the same point at
        the samples when the kinematics agree with q).

        Parameters
        ----------
        model : urdf2dyn.Model
        time : (N,) array
            The motion's times, s.
        q : (N, model.nq) array
            The motion's coordinates in model order (rad, m).
        links : dict, optional
            OpenSim body name -> URDF link name, for bodies whose names differ (default:
            the same name). ``ground`` is the world frame.
        strict : bool
            Raise instead of warning.
        interpolation : {"linear", "spline"}
            How the data are sampled at the motion's times: linearly, or with OpenSim's
            natural cubic splines (``ExternalForce``'s GCVSpline of degree 3; what
            ``processing="opensim"`` uses). Both are exact at the data's own sample times.

        Returns
        -------
        dict
            {link name: (N, 6) array}.
        """
        links = dict(links or {})
        time = np.asarray(time, dtype=float).reshape(-1)
        q = np.asarray(q, dtype=float)
        if q.ndim != 2 or q.shape != (len(time), model.nq):
            raise ValueError(f"q: expected shape ({len(time)}, {model.nq}) (len(time), "
                             f"model.nq), got {q.shape}")
        self.check_cover(time, strict=strict, interpolation=interpolation)
        frames = _Frames(model, q)
        out = {}
        for ef in self.forces:
            target = self._link(ef, "applied_to_body", model, links)
            if target is None:
                raise ExternalLoadsError(
                    f"{self.path}: ExternalForce '{ef.name}' is applied to ground, where it "
                    "does nothing; name the body it acts on in <applied_to_body>")
            f_link = self._link(ef, "force_expressed_in_body", model, links)
            f = np.zeros((len(time), 3))
            if ef.force_identifier:
                f = frames.to_world(self._sample(ef, "force", time, interpolation), f_link)
            moment = None
            if ef.torque_identifier:
                moment = frames.to_world(self._sample(ef, "torque", time, interpolation), f_link)
                moment = np.where(np.isfinite(moment), moment, 0.0)
            if ef.point_identifier:
                point = frames.to_world(self._sample(ef, "point", time, interpolation),
                                        self._link(ef, "point_expressed_in_body", model, links),
                                        point=True)
            else:
                point = frames.pose(target)[0]
            missing = ~np.all(np.isfinite(f), axis=1)
            ok = ~missing & np.all(np.isfinite(point), axis=1)
            lost = ~ok & ~missing & (np.linalg.norm(np.where(ok[:, None], 0.0, f), axis=1)
                                     > NO_POINT_FORCE)
            for rows, what in ((missing, f"no force '{ef.force_identifier}'"),
                               (lost, f"a force above {NO_POINT_FORCE:g} N but no point "
                                      f"'{ef.point_identifier}'")):
                if np.any(rows):
                    k = np.flatnonzero(rows)
                    report(f"{self.datafile}: ExternalForce '{ef.name}': {len(k)} of "
                           f"{len(time)} samples (t = {time[k[0]]:g} s ...) have {what}; "
                           "they get no load from it", strict=strict, error=ExternalLoadsError)
            w = np.zeros((len(time), 6))
            w[ok] = wrench_at_point(f[ok], point[ok], None if moment is None else moment[ok])
            out[target] = out[target] + w if target in out else w
        return out


class _Frames:
    """World poses of a model's links at q (N, nq), from one forward-kinematics call made
    on first use."""

    def __init__(self, model, q):
        self.model, self.q, self.fk = model, q, None

    def pose(self, link):
        """Position (N, 3) and rotation (N, 3, 3) of link in the world."""
        if self.fk is None:
            self.fk = self.model.forward_kinematics(self.q)
        k = self.model.link_names.index(link)
        return self.fk[0][:, k], self.fk[1][:, k]

    def to_world(self, x, link, point=False):
        """Vectors (or points) x (N, 3) given in link's frame (None: the world), in the world."""
        if link is None:
            return x
        p, R = self.pose(link)
        y = np.einsum("nij,nj->ni", R, x)
        return y + p if point else y


def read_external_loads(path):
    """Read an OpenSim ExternalLoads setup file (the ``--external-loads`` XML).

    The layout OpenSim writes and its users edit::

        <OpenSimDocument Version="...">
          <ExternalLoads name="...">
            <objects>
              <ExternalForce name="right">
                <applied_to_body>calcn_r</applied_to_body>
                <force_expressed_in_body>ground</force_expressed_in_body>
                <point_expressed_in_body>ground</point_expressed_in_body>
                <force_identifier>ground_force_v</force_identifier>
                <point_identifier>ground_force_p</point_identifier>
                <torque_identifier>ground_torque_</torque_identifier>
              </ExternalForce> ...
            </objects>
            <datafile>subject01_walk1_grf.mot</datafile>
          </ExternalLoads>
        </OpenSimDocument>

    The data file is resolved relative to the XML's folder (as OpenSim's tools do) and read
    with urdf2dyn.biomech.formats.read_columns; like OpenSim, no column of it is converted from degrees,
    whatever its header says. Disabled forces (``<isDisabled>``
    true or ``<appliesForce>`` false) are skipped.

    Parameters
    ----------
    path : str or os.PathLike
        The ExternalLoads XML file.

    Returns
    -------
    ExternalLoads

    Raises
    ------
    ExternalLoadsError
        Naming the file and element: not an ExternalLoads document (or one whose first element,
        which OpenSim reads as the loads, is not <ExternalLoads>), no <datafile>, an
        ExternalForce without <applied_to_body> or with neither a force nor a torque
        identifier, a point without a force, an identifier that does not match exactly
        three data columns.
    """
    from . import read_columns
    path = os.fspath(path)
    # OpenSim's tools read the document's first element as the loads, whatever its name
    loads = read_setup_element(path, ("ExternalLoads",), ExternalLoadsError,
                               "ExternalLoads setup", "ExternalLoads")[1]
    datafile = _text(loads, "datafile")
    if datafile is None:
        raise ExternalLoadsError(f"{path}: <ExternalLoads> has no <datafile>; name the .mot/"
                                 ".sto file holding the force columns (relative to this file)")
    datafile = setup_path(datafile, path, "datafile")
    if not os.path.exists(datafile):
        raise ExternalLoadsError(f"{path}: <datafile> {datafile} does not exist (it is read "
                                 "relative to the folder of the XML file)")
    refuse_devices(datafile, "ExternalLoads data (.mot/.sto)", named=f"{path}: <datafile>",
                   error=ExternalLoadsError)
    forces = []
    for k, elem in enumerate(loads.iter("ExternalForce")):
        name = elem.get("name") or f"#{k + 1}"
        if disabled(elem, f"{path}: ExternalForce '{name}'", ExternalLoadsError):
            continue
        body = _text(elem, "applied_to_body")
        if body is None:
            raise ExternalLoadsError(f"{path}: ExternalForce '{name}' has no <applied_to_body>")
        ef = ExternalForce(
            name=name, applied_to_body=body,
            force_expressed_in_body=_text(elem, "force_expressed_in_body") or GROUND,
            point_expressed_in_body=_text(elem, "point_expressed_in_body") or GROUND,
            force_identifier=_text(elem, "force_identifier"),
            point_identifier=_text(elem, "point_identifier"),
            torque_identifier=_text(elem, "torque_identifier"),
            data_source_name=_text(elem, "data_source_name"))
        if ef.force_identifier is None and ef.torque_identifier is None:
            raise ExternalLoadsError(f"{path}: ExternalForce '{name}' has neither a "
                                     "<force_identifier> nor a <torque_identifier>")
        if ef.point_identifier is not None and ef.force_identifier is None:
            raise ExternalLoadsError(f"{path}: ExternalForce '{name}' has a <point_identifier> "
                                     "but no <force_identifier> (a point needs a force)")
        forces.append(ef)
    if not forces:
        raise ExternalLoadsError(f"{path}: no enabled <ExternalForce> under <objects>")
    # OpenSim addresses load columns by label and never converts them (inDegrees concerns
    # coordinates): read the table as written.
    header, data = read_columns(datafile)
    lower = [x.lower() for x in header]
    if "time" not in lower:
        raise ExternalLoadsError(f"{datafile}: no 'time' column (the data file of {path})")
    k_time = lower.index("time")
    time = data[:, k_time]
    labels = [x for k, x in enumerate(header) if k != k_time]
    columns = {x: data[:, k] for k, x in enumerate(header) if k != k_time}
    out = ExternalLoads(path=path, datafile=datafile, forces=forces,
                        time=np.asarray(time, dtype=float), columns=columns,
                        kinematics_file=_text(loads, "external_loads_model_kinematics_file"),
                        labels=labels)
    for ef in forces:                       # refuse now, not at the first use
        for kind in ("force", "point", "torque"):
            if getattr(ef, f"{kind}_identifier"):
                out._block(ef, kind)
    return out


def external_loads_inputs(path, loads=None, strict=False):
    """(what, path) of each file an ExternalLoads file names, resolved as its reader resolves
    them (beside it): its ``<datafile>`` and its ``<external_loads_model_kinematics_file>``.
    OpenSim 4 no longer reads the second (it says so) and urdf2dyn does not either, but it
    is the user's file, named in a file the job reads: no output may replace either.

    ``loads``: the file read already (read_external_loads); else only its XML is read (not
    its data: a job whose setup excludes the loads still names them). Only such a job gets
    here with an XML it cannot read, and it does not read the loads: it is warned (refused
    under ``strict``) that their files are unknown, hence unprotected from its outputs."""
    path = os.fspath(path)
    if loads is not None:
        datafile, kinematics = loads.datafile, loads.kinematics_file
    else:
        try:
            root = read_tool(path, "ExternalLoads", ExternalLoadsError, "ExternalLoads setup")
        except (OSError, ValueError) as e:
            report(f"{e}: the job does not read these loads, but their data file is unknown, "
                   "so no output is kept off it: fix or empty <external_loads_file>, or check "
                   "that no output names the loads' data file", strict=strict,
                   error=ExternalLoadsError, stacklevel=None)
            return []
        datafile, kinematics = (_text(root, tag) for tag in
                                ("datafile", "external_loads_model_kinematics_file"))
    # not read here: a Windows path is said when the file is read
    named = [("ExternalLoads data", datafile and setup_path(datafile, path, "datafile",
                                                            read=False)),
             ("ExternalLoads model kinematics",
              kinematics and setup_path(kinematics, path, "external_loads_model_kinematics_file",
                                        read=False))]
    return [(what, p) for what, p in named if p]


def write_external_loads(path, loads, bodies, datafile=None):
    """Write ground reactions per foot as an OpenSim ExternalLoads pair: the XML setup file and
    its .mot data file, as OpenSim's inverse-dynamics tool takes them.

    Parameters
    ----------
    path : str or os.PathLike
        The XML file.
    loads : Trajectory
        ``grf``, ``cop``, ``moment`` per foot key (e.g. from
        urdf2dyn.biomech.plates.assign_plates), world frame, N, m, N·m.
    bodies : dict
        {foot key: OpenSim body} (e.g. {"R": "calcn_r", "L": "calcn_l"}): one ExternalForce
        per foot, named after its key, applied to that body.
    datafile : str or os.PathLike, optional
        The .mot to write (default: the XML's name with ``.mot``); the XML names it relative
        to its own folder.

    The data columns are ``<key>_ground_force_v[xyz]``, ``<key>_ground_force_p[xyz]``,
    ``<key>_ground_torque_[xyz]`` (force and point expressed in ground, the torque a free
    moment); where a foot has no contact the force, point and torque are written as 0.
    """
    path = os.fspath(path)
    datafile = os.fspath(datafile) if datafile else os.path.splitext(path)[0] + ".mot"
    labels, cols = ["time"], [loads.time]
    for key in bodies:
        if key not in loads.grf:
            raise ExternalLoadsError(f"{path}: no ground reaction for foot {key!r} (have "
                                     f"{sorted(loads.grf)})")
        for kind, x in (("ground_force_v", loads.grf[key]), ("ground_force_p", loads.cop[key]),
                        ("ground_torque_", loads.moment.get(key, np.zeros_like(loads.grf[key])))):
            labels += [f"{key}_{kind}{ax}" for ax in "xyz"]
            cols.append(np.where(np.isfinite(x), x, 0.0))
    _write_sto(datafile, labels, np.column_stack(cols), False, title_from_path(datafile))
    root = ET.Element("OpenSimDocument", Version="40000")
    el = ET.SubElement(root, "ExternalLoads", name="externalloads")
    objects = ET.SubElement(el, "objects")
    for key, body in bodies.items():
        f = ET.SubElement(objects, "ExternalForce", name=str(key))
        for tag, text in (("applied_to_body", body), ("force_expressed_in_body", GROUND),
                          ("point_expressed_in_body", GROUND),
                          ("force_identifier", f"{key}_ground_force_v"),
                          ("point_identifier", f"{key}_ground_force_p"),
                          ("torque_identifier", f"{key}_ground_torque_")):
            ET.SubElement(f, tag).text = text
    ET.SubElement(el, "groups")
    rel = os.path.relpath(os.path.abspath(datafile), os.path.dirname(os.path.abspath(path)))
    ET.SubElement(el, "datafile").text = rel
    ET.indent(root)
    with replacing(path) as tmp:
        ET.ElementTree(root).write(tmp, encoding="UTF-8", xml_declaration=True)
