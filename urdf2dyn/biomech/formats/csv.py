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
import re
import warnings

import numpy as np

from ..._safe_files import note_input, replacing
from ...warn import report
from ..processing import LIBRARY_COLUMNS
from ..trajectory import MotionError, _from_table, _to_table
from ._cells import refuse_unwritable_names
from .windows import text_lines

__all__ = ["read_table", "write_table", "read_csv", "write_csv", "to_dataframe",
           "from_dataframe", "MISSING"]

#: CSV files larger than this (bytes) are parsed with pandas' C reader when pandas is
#: installed (about 3x faster); Python's csv module otherwise (same results and messages).
FAST_CSV_BYTES = 1 << 20

#: Cell texts read as a missing sample (NaN): an empty cell (pandas' ``df.to_csv()`` writes NaN
#: so) and the usual spellings of NaN.
MISSING = ("", "nan", "NaN", "NAN", "-nan", "+nan", "NA", "N/A", "null")


#: What --delimiter / ``delimiter=`` accept, and the character each stands for (None: runs of
#: spaces and tabs, as ``str.split()``).
DELIMITERS = {",": ",", "comma": ",", ";": ";", "semicolon": ";", "\t": "\t", "\\t": "\t",
              "tab": "\t", "whitespace": None, "space": None, " ": None}
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", None: "whitespace"}
#: A number written with a decimal comma (what Excel writes in most of Europe): 1,5  -0,25e-3
_DECIMAL_COMMA = re.compile(r"^[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?$")


def read_table(path, delimiter=None, decimal=None, named=None):
    """(header, data) of a numeric CSV file with one header line: the one CSV reader.

    Cells that are empty or spell NaN (:data:`MISSING`; pandas' ``df.to_csv()`` writes NaN as an
    empty cell) are read as NaN, i.e. missing samples; what to do about them is the caller's
    choice (urdf2dyn.biomech.processing). Anything else that is not a number is refused, naming
    the row and the column. Files as labs write them read as they are: UTF-8 with or without a
    BOM, Windows-1252 (Excel's "CSV" in Western Europe) or UTF-16 with a BOM; CRLF line ends;
    quoted header cells; a trailing delimiter on every line. Clean files go through NumPy's C
    parser (pandas' for files over FAST_CSV_BYTES when installed).

    Parameters
    ----------
    path : str or os.PathLike
        The CSV file.
    delimiter : str, optional
        ``","``, ``";"``, ``"\t"`` or ``"whitespace"`` (also ``"comma"``, ``"semicolon"``,
        ``"tab"``). Default: detected from the header line; a header holding more than one
        candidate is refused, asking for this argument.
    decimal : {".", ","}, optional
        The decimal separator. Default: ``","`` when the delimiter is not a comma and a cell is
        written so (``0,25``), ``"."`` otherwise. A decimal comma with a comma delimiter is
        refused (ambiguous).
    named : urdf2dyn.biomech.processing.ColumnOptions, optional
        How the caller says the separators, as a refusal advises them (default: these
        keywords; a command line's --delimiter and --decimal; None in it: the caller cannot,
        and the file is to be rewritten).

    Returns
    -------
    header : list of str
        The column names, stripped.
    data : ndarray, shape (N, len(header))
        The numbers, NaN for a missing sample.
    """
    path = os.fspath(path)
    named = LIBRARY_COLUMNS if named is None else named
    sep = _delimiter_arg(delimiter)
    if decimal not in (None, ".", ","):
        raise ValueError(f"decimal: expected '.' or ',', got {decimal!r}")
    lines, encoding, complete = text_lines(path, head_only=os.path.getsize(path) > FAST_CSV_BYTES)
    first = next((k for k, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise MotionError(f"{path}: empty file (expected a header line)")
    head = lines[first]
    if sep is _AUTO:
        sep = _detect_delimiter(path, head, named)
    if decimal == "," and sep == ",":
        raise ValueError(f"{path}: decimal ',' with delimiter ',' is ambiguous: a file with "
                         "decimal commas separates its columns with ';' or tabs"
                         + named.said("delimiter", " ({})", "semicolon"))
    header = [h.strip() for h in _split(head, sep)]
    if len(header) > 1 and header[-1] == "":       # a trailing delimiter (Excel, some loggers)
        header.pop()
    body = lines[first + 1:]
    if decimal is None:
        decimal = "," if sep != "," and _has_decimal_commas(body, sep) else "."
    if not complete:            # a large file: pandas' C parser, else the whole text below
        data = _read_fast(path, len(header), sep, decimal, encoding)
        if data is not None:
            return header, data
        lines = text_lines(path)[0]
        body = lines[first + 1:]
    data = None
    if decimal == "." and not any('"' in line for line in body):
        data = _loadtxt(body, sep, len(header))
    if data is None:
        data = _read_slow(path, header, body, first + 2, sep, decimal, named)
    return header, data.reshape(-1, len(header))


_AUTO = object()


def _delimiter_arg(delimiter):
    if delimiter is None:
        return _AUTO
    if delimiter not in DELIMITERS:
        raise ValueError(f"delimiter: expected one of ',' ';' tab whitespace (or comma, "
                         f"semicolon), got {delimiter!r}")
    return DELIMITERS[delimiter]


def _unquoted(line):
    return re.sub(r'"[^"]*"', "", line)


def _detect_delimiter(path, head, named):
    bare = _unquoted(head)
    seen = [d for d in (",", ";", "\t") if d in bare]
    if len(seen) > 1:
        names = " and ".join(f"{_DELIMITER_NAMES[d]}s ({d!r})" for d in seen)
        advice = (named.said("delimiter", "say which, e.g. {}",
                             "semicolon" if ";" in seen else "tab")
                  or "rewrite the file with one separator")
        raise MotionError(f"{path}: the header line holds {names}: cannot tell which separates "
                          f"the columns; {advice}")
    if seen:
        return seen[0]
    return None if len(bare.split()) > 1 else ","


def _split(line, sep):
    if sep is None:
        return line.split()
    return next(csv.reader([line], delimiter=sep), [])


def _has_decimal_commas(body, sep):
    """Whether a cell of a file not separated by commas is written with a decimal comma (only
    the lines holding a comma are split: a clean file costs one substring search per line)."""
    for line in body:
        if "," in line and any(_DECIMAL_COMMA.match(cell.strip()) for cell in _split(line, sep)):
            return True
    return False


def _loadtxt(body, sep, ncol):
    """NumPy's C parser on a clean table, or None (the slow path words any trouble)."""
    if not any(line.strip() for line in body):
        return np.empty((0, ncol))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            data = np.loadtxt(body, delimiter=sep, ndmin=2, dtype=float, comments=None)
    except ValueError:
        return None
    return data if data.shape[1] == ncol else None


def _read_slow(path, header, body, first_lineno, sep, decimal, named):
    missing = set(MISSING)
    rows = []
    ncol = len(header)
    for lineno, line in enumerate(body, first_lineno):
        if not line.strip():
            continue
        row = _split(line, sep)
        if len(row) == ncol + 1 and not row[-1].strip():        # a trailing delimiter
            row.pop()
        if len(row) != ncol:
            raise MotionError(f"{path}: line {lineno} has {len(row)} values for {ncol} header "
                              f"columns{_delimiter_hint(sep, len(row), ncol, named)}")
        out = []
        for col, cell in zip(header, row):
            cell = cell.strip()
            if cell in missing:
                out.append(math.nan)
                continue
            out.append(_number(path, lineno, col, cell, decimal, sep, named))
        rows.append(out)
    return np.array(rows, dtype=float).reshape(-1, ncol)


def _delimiter_hint(sep, nrow, ncol, named):
    name = _DELIMITER_NAMES[sep]
    if sep == "," and nrow > ncol:
        both = named.delimiter is not None and named.decimal is not None
        return (" (the header is comma-separated; if the numbers use decimal commas, the "
                "columns must be separated by ';' or tabs: check the file"
                + (f", or set {named.delimiter.format('SEP')} and {named.decimal.format(',')}"
                   if both else "") + ")")
    return (f" (columns separated by {name}s, as the header line; "
            + (named.said("delimiter", "set {} if not", "SEP") or "rewrite the file with one "
               "separator if not") + ")")


def _number(path, lineno, col, cell, decimal, sep, named):
    text = cell
    if decimal == ",":
        if "." in cell:
            raise MotionError(f"{path}: line {lineno}, column {col!r}: {cell!r} has a decimal "
                              "point but the file writes decimal commas elsewhere: "
                              + _one_decimal(named))
        text = cell.replace(",", ".")
    try:
        if "_" in text:                 # float() reads 1_000; a table does not mean that
            raise ValueError
        return float(text)
    except ValueError:
        hint = ""
        if decimal == "." and _DECIMAL_COMMA.match(cell):
            hint = (" (a decimal comma with comma-separated columns is ambiguous: separate the "
                    "columns with ';' or tabs)" if sep == "," else
                    " (a decimal comma, but the decimal separator is '.' (given, or seen in "
                    f"the first lines): {_one_decimal(named)})")
        elif sep == "," and any(c in cell for c in ";\t"):
            hint = (" (the header is comma-separated but this line is not: "
                    + (named.said("delimiter", "set {}", "SEP")
                       or "rewrite the file with one separator") + ")")
        raise MotionError(f"{path}: line {lineno}, column {col!r}: {cell!r} is not a number"
                          f"{hint} (not a numeric CSV table; leave a cell empty or write NaN "
                          "for a missing sample)") from None


def _one_decimal(named):
    """What to do about a file whose numbers mix decimal points and commas."""
    if named.decimal is None:
        return "write every number with the same decimal separator"
    return (f"set the one the file uses ({named.decimal.format('.')} or "
            f"{named.decimal.format(',')})")


def _read_fast(path, ncol, sep, decimal, encoding):
    """The numbers of a large clean CSV file via pandas, or None (no pandas, or anything
    unusual: the caller then reads it with NumPy or the csv module, which also word errors)."""
    try:
        import pandas as pd
    except ImportError:
        return None
    if sep is None:
        return None
    try:
        df = pd.read_csv(path, dtype=float, engine="c", keep_default_na=False, sep=sep,
                         decimal=decimal, na_values=list(MISSING), skip_blank_lines=True,
                         encoding=encoding)
    except Exception:          # noqa: BLE001 - any parser trouble: fall back to the csv module
        return None
    if df.shape[1] != ncol:
        return None
    # pandas pads a short row with NaN: count the separators so a short row is refused instead
    with open(path, "rb") as f:
        if any(line.count(sep.encode()) != ncol - 1 for line in f if line.strip()):
            return None
    return np.ascontiguousarray(df.to_numpy(dtype=float))


#: Enough digits for every float64 to read back bit for bit (torques: "read back identically").
_EXACT = "{:.17g}"


def write_table(path, t, values, names, fmt="{:.15g}", index="time", origin=None):
    """Write a CSV with a ``time`` column (or another ``index``, e.g. ``percent`` of a gait
    cycle) and one column per name (values (N, len(names))), 15 significant digits (fmt;
    "{:.17g}" reads back bit for bit), NaN as ``nan``: the one CSV writer. A name holding a
    separator or a quote is quoted (RFC 4180); one that no quoting keeps whole for
    read_table (a line break, blanks at its ends: formats._cells) is refused (MotionError)
    before anything is written, saying origin (where the names came from) when given. A name
    beginning as a spreadsheet formula does is written as it is, with a warning
    (:func:`_warn_of_formulas`)."""
    header = [index, *names]
    refuse_unwritable_names(os.fspath(path), [index], "column label", separator=None)
    refuse_unwritable_names(os.fspath(path), names, "column label", origin, separator=None,
                            index=index)
    _warn_of_formulas(os.fspath(path), header, origin)
    table = np.column_stack([np.asarray(t, dtype=float), np.asarray(values, dtype=float)])
    with replacing(path) as tmp:
        np.savetxt(tmp, table, delimiter=",", header=",".join(map(_header_cell, header)),
                   comments="", fmt="%" + fmt[2:-1])


#: What begins a formula in a spreadsheet's cell (OWASP's "CSV Injection"); a tab and a
#: carriage return, which OWASP lists too, are quoted or refused before.
_FORMULA_STARTS = ("=", "+", "-", "@")


def _warn_of_formulas(path, header, origin=None):
    """Warn of the names in header that a spreadsheet opening the CSV may run as formulas.
    They are written as they are, not prefixed with a quote as OWASP suggests: pandas, the csv
    module and urdf2dyn would read the quote as part of the name."""
    formulas = [name for name in header if name.startswith(_FORMULA_STARTS)]
    if formulas:
        where = f" (from {origin})" if origin else ""
        report(f"{path}: the column labels {formulas}{where} begin with '=', '+', '-' or '@': "
               "a spreadsheet (Excel, LibreOffice Calc) opening this CSV may run them as "
               "formulas. They are written as they are, as pandas, Python's csv module and "
               "urdf2dyn read them; rename them, or open the file as text in a spreadsheet",
               stacklevel=None)


def _header_cell(name):
    """name as a CSV cell: quoted, its quotes doubled (RFC 4180), when it holds a quote or a
    character read_table may take for the separator (a comma, a semicolon, a tab), so pandas,
    the csv module and read_table read it whole."""
    if any(c in name for c in ',;\t"'):
        return '"' + name.replace('"', '""') + '"'
    return name


def read_csv(path, degrees=False, model=None, mapping=None, linear=(), delimiter=None,
             decimal=None, named=None):
    """Read a CSV trajectory (header line, then numbers): ``time``, coordinates, optional
    ``<dof>_vel`` / ``<dof>_acc``, optional ``grfX_L ... copZ_R`` and ``momX_L ... momZ_R``.
    degrees=True: angles (and their rates) are in degrees (see the module docstring for which
    columns are angles). delimiter, decimal, named: as :func:`read_table` (the separators
    detected by default)."""
    header, data = read_table(path, delimiter=delimiter, decimal=decimal, named=named)
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
