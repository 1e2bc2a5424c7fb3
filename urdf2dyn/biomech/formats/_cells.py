"""Names as the cells of the text tables urdf2dyn writes (.trc, .mot/.sto, .csv).

A model's and a recording's names are free text: a URDF joint named with ``&#10;`` in its XML,
a C3D label holding a tab. Written into a line of tab-separated cells, such a name ends the
cell or the line early: OpenSim 4.6's TRCFileAdapter and TimeSeriesTable refuse the file, its
Storage (the reader of its tools) reads the columns shifted, and urdf2dyn's readers, which
split lines with str.splitlines, do too. Every writer asks :func:`refuse_unwritable_names`
before it writes anything.
"""
from __future__ import annotations

import os

from ...warn import MotionError

__all__ = ["refuse_unwritable_names", "refuse_unwritable_title", "refuse_a_line_break",
           "title_from_name", "title_from_path", "unwritable_reason"]


def _ends_a_line(c):
    """Whether character c ends a line for str.splitlines (\\n, \\r, \\v, \\f, U+2028, ...)."""
    return len(f"a{c}b".splitlines()) > 1


def unwritable_reason(name, separator="\t"):
    """Why name cannot be written as one cell of a text table whose cells are separated by
    separator (None: a CSV writer quotes what needs quoting) and read back as the same name,
    or None when it can."""
    if not name:
        return "it is empty: the readers drop an empty label, so the columns after it shift"
    broken = _line_break_reason(name)
    if broken is not None:
        return broken
    if separator is not None and separator in name:
        return (f"it holds {separator!r}, which separates the cells: OpenSim 4.6 and urdf2dyn "
                "read the rest as another column")
    if name != name.strip():
        return ("it begins or ends with a blank: OpenSim 4.6 and urdf2dyn read a label without "
                "them, a different name")
    return None


def _line_break_reason(text):
    """Why text cannot stand on one line of a file urdf2dyn and OpenSim read back, or None."""
    broken = next((c for c in text if _ends_a_line(c) or c == "\x00"), None)
    if broken is None:
        return None
    return (f"it holds {broken!r}, which ends a line for urdf2dyn's readers (and '\\n', "
            "'\\r' for OpenSim's): the rest of it is read as the next line")


def _suggested(name):
    """name with what cannot be written replaced by '_' (None when nothing would be left)."""
    cleaned = "".join("_" if _ends_a_line(c) or c in "\t\x00" else c for c in name).strip()
    return cleaned or None


def refuse_unwritable_names(path, names, what, origin=None, separator="\t", index=None):
    """MotionError, before anything is written, for the first of names that path's format
    cannot hold (see unwritable_reason). what: what the names are (e.g. "marker label");
    origin: where they came from when known (e.g. the C3D file), said for the user to rename
    them there; index: the name of the table's first column (its times), which no other
    column may take (in another case it may: OpenSim 4.6 and urdf2dyn read 'Time' beside
    'time' as data); a name given twice is refused too."""
    names = list(names)
    for name in names:
        reason = unwritable_reason(name, separator)
        if reason is None and name == index:
            reason = (f"it is the first column's name, {index!r}: the readers refuse a table "
                      "naming two columns alike")
        if reason is not None:
            raise _refusal(path, what, name, origin, reason)
    twice = _first_repeated(names)
    if twice is not None:
        raise _refusal(path, what, twice, origin,
                       "two columns would carry it: urdf2dyn's readers refuse such a table, "
                       "pandas reads the second one under another name, and OpenSim 4.6 "
                       "finds only one of the two by it")


def _first_repeated(names):
    """The first of names that occurs again after it, or None."""
    seen = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def refuse_unwritable_title(path, title, origin=None):
    """MotionError, before anything is written, for a .mot/.sto title (its first line) that
    would end the header: one holding a line break (the rest read as a header line) or
    reading 'endheader' (OpenSim 4.6 ends the header at that line, urdf2dyn in any case);
    or that would be read as a header key: one holding '='."""
    refuse_a_line_break(path, title, "title", origin)
    if title.strip().lower() == "endheader":
        raise _refusal(path, "title", title, origin,
                       "a line reading 'endheader' ends the header (for urdf2dyn in any case, "
                       "for OpenSim 4.6 in lower case): the lines after it are read as the "
                       "columns")
    if "=" in title:
        where = f" where it comes from ({origin})" if origin else ""
        raise _refusal(path, "title", title, origin,
                       "a header line holding '=' is a key and its value to OpenSim 4.6's "
                       "TimeSeriesTable and to urdf2dyn, which read no title then",
                       f"give a title without '=' (e.g. {title.replace('=', '_')!r}){where}")


def title_from_name(name):
    """The title of a .mot/.sto named after something (a file, a setup): name with each '='
    written '_' (a title holding '=' would be read as a header key). Only a title given as
    such is refused for one: a name that merely titles the file stays valid."""
    return name.replace("=", "_")


def title_from_path(path):
    """The title a .mot/.sto written to path gets when none is given: its file name without
    the extension (title_from_name)."""
    return title_from_name(os.path.splitext(os.path.basename(os.fspath(path)))[0])


def refuse_a_line_break(path, text, what, origin=None, advice=None):
    """MotionError, before anything is written, when text, written on a line of its own or
    within one (a title, the file name a .trc's first line holds), holds a line break.
    advice: what to do instead of renaming it where it comes from."""
    reason = _line_break_reason(text)
    if reason is not None:
        raise _refusal(path, what, text, origin, reason, advice)


def _refusal(path, what, name, origin, reason, advice=None):
    where = f" (from {origin})" if origin else ""
    better = _suggested(name)
    if not better:
        rename = "give it a name"
    else:
        rename = f"rename it (e.g. {better!r})" if better != name else "rename it"
    advice = advice or f"{rename} where it comes from, or in the data before writing"
    return MotionError(f"{path}: the {what} {name!r}{where} cannot be written: {reason}. "
                       f"Nothing was written: {advice}")
