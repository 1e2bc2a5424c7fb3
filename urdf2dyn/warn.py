"""What urdf2dyn says when an input is questionable or wrong: its warnings (one category,
raised instead of warned under ``strict``), the error of motion analysis, and the wording of
"not there" messages (an unknown name, a missing file, data rows).

A questionable but usable input (a non-physical inertia in a real URDF, a gap filled in a
recording, angles that look like degrees, a large root residual) is reported with
``warnings.warn(message, Urdf2dynWarning)`` (or its subclass ``URDFWarning`` for URDF files),
naming where and what, and saying what to do. ``strict=True`` (``--strict`` on the command
line) turns each into an error of the caller's chosen type instead. Silence them all with::

    warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)

A file that cannot be used raises an error naming it: ``urdf2dyn.URDFError`` for a model (the
core's), :class:`MotionError` for a recording (urdf2dyn.biomech.MotionError).
"""
from __future__ import annotations

import contextlib
import difflib
import math
import sys
import threading
import warnings
from collections import Counter

import numpy as np

__all__ = ["Urdf2dynWarning", "URDFWarning", "MotionError", "report", "note",
           "hearing_notes", "unknown_name", "missing_file", "shown", "escaped"]


class Urdf2dynWarning(UserWarning):
    """A questionable input that urdf2dyn used as given (its message says where and why)."""


class URDFWarning(Urdf2dynWarning):
    """A URDF that loads, as Pinocchio would load it, but is probably not what its author meant."""


class MotionError(ValueError):
    """A motion or load file that cannot be used as it is (the message names the file, row or
    column and what to do)."""


def report(message: str, strict: bool = False, error: type[Exception] = ValueError,
           category: type[Warning] = Urdf2dynWarning, stacklevel: int | None = 3) -> None:
    """Warn with message, or raise error(message) when strict.

    Parameters
    ----------
    message : str
        What is questionable, where (file, line, element, column...) and what to do.
    strict : bool
        Raise instead of warning.
    error : type of Exception
        The exception raised under strict (e.g. URDFError for a URDF file).
    category : type of Warning
        Urdf2dynWarning, or URDFWarning for findings in URDF files.
    stacklevel : int or None
        As for warnings.warn: the frame the warning is attributed to; None: the first caller
        outside urdf2dyn (for code that warns at varying depths, such as a trial's stages).
    """
    if strict:
        raise error(message)
    if stacklevel is None:
        frame, stacklevel = sys._getframe(1), 2
        while frame.f_back is not None and _ours(frame.f_globals.get("__name__", "")):
            frame, stacklevel = frame.f_back, stacklevel + 1
    warnings.warn(message, category, stacklevel=stacklevel)


# Who hears a note (note()): the command line prints each; a library caller reads the notes
# where the function keeps them (C3D.meta["notes"]) instead. One list for every thread, and
# each thread's own: a trial run in a thread beside others hears its notes only.
_note_listeners: list = []
_note_lock = threading.Lock()
_this_thread = threading.local()        # .listeners: [(listener, alone)], this thread's own


def note(message: str) -> None:
    """Tell whoever listens (:func:`hearing_notes`) what could not be checked while nothing
    was found wrong: not a warning (a warning says the result may be wrong, and strict
    refuses it), so nothing is shown unless someone listens. The function that notes keeps
    the note for its own callers too (C3D.meta["notes"])."""
    own = list(getattr(_this_thread, "listeners", ()))
    with _note_lock:
        shared = [] if any(alone for _, alone in own) else list(_note_listeners)
    for listener in shared + [listener for listener, _ in own]:
        listener(message)


@contextlib.contextmanager
def hearing_notes(listener, alone=False, this_thread=False):
    """Within the block, listener(message) is called for each :func:`note`, whichever thread
    says it; this_thread: for the notes said in this thread only (a trial's own, when trials
    run in threads side by side, as on a Dask worker); alone (this thread's notes too): by
    it only, the other listeners not told this thread's notes meanwhile (a worker process
    forked from a listening one inherits copies of its listeners, which would print into a
    stream nobody reads), while other threads' notes are told as before."""
    if alone or this_thread:
        own = _this_thread.__dict__.setdefault("listeners", [])
        entry = (listener, alone)
        own.append(entry)
        try:
            yield
        finally:
            own.remove(entry)
        return
    with _note_lock:
        _note_listeners.append(listener)
    try:
        yield
    finally:
        with _note_lock:
            _note_listeners.remove(listener)


def _ours(module):
    return module == "urdf2dyn" or module.startswith("urdf2dyn.")


def unknown_name(what, name, names, where="", limit=12):
    """A message for an unknown name: what it is, the close matches and the valid names.

    Parameters
    ----------
    what : str
        e.g. ``"link"``, ``"joint"``, ``"column"``.
    name : str
        The name asked for.
    names : sequence of str
        The valid names.
    where : str
        Where to look for the full list, e.g. ``"model.link_names"``.
    limit : int
        List at most this many valid names.

    Returns
    -------
    str
        e.g. ``unknown link 'fot_L': did you mean 'foot_L'? (valid: base, ..., 39 links in
        model.link_names)``
    """
    names = [str(n) for n in names]
    close = difflib.get_close_matches(str(name), names, n=3)
    hint = f": did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    shown = ", ".join(names[:limit]) + (", ..." if len(names) > limit else "")
    total = f"; {len(names)} {what}s" + (f" in {where}" if where else "")
    return f"unknown {what} {name!r}{hint} (valid: {shown}{total})"


def missing_file(path, also=()):
    """``"PATH: no such file"``, with the closest names in its folder (and in ``also``, e.g.
    the bundled files) as "did you mean"."""
    import os
    path = os.fspath(path)
    folder, base = os.path.split(path)
    try:
        here = os.listdir(folder or ".")
    except OSError:
        here = []
    close = difflib.get_close_matches(base, [*here, *also], n=3, cutoff=0.6)
    hint = (f": did you mean {' or '.join(repr(os.path.join(folder, c) if c in here else c) for c in close)}?"
            if close else "")
    return f"{path}: no such file{hint}"


def in_file(path):
    """A message's prefix naming the file it is about (``"PATH: "``), empty without one."""
    return f"{path}: " if path else ""


def data_rows(idx, limit=8):
    """'3, 4, 5 (t = ...)'-style text for data row indices (1 = the first data row)."""
    idx = [int(i) + 1 for i in idx]
    text = ", ".join(str(i) for i in idx[:limit])
    return text + (f", ... ({len(idx)} rows)" if len(idx) > limit else "")


def time_digits(times):
    """The significant digits that print each of `times` (s, a recording's frames) apart from
    every other: 6 (what ``:g`` prints), or as many more as the two closest times need (frames
    0.001 s apart at 10 000 s need 9: ``:g`` prints 10000 for both 10000 and 10000.001, and 8
    digits print 12345678 for both 12345677.5 and 12345678.5, 1 s apart).
    Print them with ``f"{t:.{digits}g}"``."""
    t = np.unique(np.asarray(times, dtype=float).ravel())
    t = t[np.isfinite(t)]
    with np.errstate(over="ignore"):        # -1e308 .. 1e308: a step beyond any float
        step = np.diff(t)
    step = step[np.isfinite(step)]
    largest = float(np.abs(t).max()) if t.size else 0.0
    if step.size == 0 or largest == 0.0:
        return 6
    # the last digit printed sits a decade strictly below the closest step: two times that
    # far apart never round to the same text (at the step's own decade two halves, n + 0.5
    # and n + 1.5, may both round to n + 1)
    last = math.ceil(math.log10(float(step.min()))) - 1
    digits = math.floor(math.log10(largest)) - last + 1
    return min(max(6, digits), 17)


def counted(n, noun):
    """'1 sample', '3 samples': a count and its noun, the noun in the plural unless n is 1."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def duplicated(names, limit=8):
    """"['a', 'b']"-style text of the names that occur more than once, in one pass (a header
    may hold hundreds of thousands of names), the first `limit` of them."""
    dup = sorted(x for x, k in Counter(names).items() if k > 1)
    more = f" and {len(dup) - limit} more" if len(dup) > limit else ""
    return f"{dup[:limit]}{more}"


def shown(name):
    """A name as a line printed to a terminal shows it: as it is when each of its characters
    prints as itself; else as Python's repr writes it, in quotes, its line breaks, tabs and
    escape characters written \\n, \\t, \\x1b (printed raw, they would break the line or
    move the cursor, and the name read would not be the name)."""
    return name if name.isprintable() else repr(name)


def escaped(text):
    """text (a message naming names) on one line: each character that does not print as
    itself written as Python's repr writes it (a line break as \\n), the rest as it is."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
