"""Outputs that never destroy what the user brought: the one helper every writer uses.

Every file urdf2dyn writes goes through :func:`replacing`: it is written to a temporary file
beside its destination (same folder, so same file system) and renamed into place with
``os.replace`` only once complete, so a run that fails or is interrupted never leaves a
truncated file where a good one was.

An output may never be one of the files the work reads. Within :func:`guarding` (every
command of the command line, and the library functions that read and write, such as
``biomech.ik.run_setup``) each reader names the file it reads (:func:`note_input`: models,
setups, the files setups name, ExternalLoads data files, markers, motions), and
:func:`replacing` refuses to write over any of them, by the same path, another spelling, a
symbolic or a hard link. :func:`refuse_overwriting_inputs` makes the same check before any
work where the inputs are known up front.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
import threading

__all__ = ["replacing", "same_file", "refuse_overwriting_inputs", "guarding", "note_input",
           "check_outputs"]

# The inputs of the work in progress: (what, path, (device, inode)) of each file read, or None
# outside guarding(). One list for every thread of the work (a batch's workers read too).
_inputs: list[tuple[str, str, tuple[int, int]]] | None = None
_depth = 0
_lock = threading.Lock()


@contextlib.contextmanager
def guarding(inputs=()):
    """Within: no file written through :func:`replacing` may be a file read by the work
    (:func:`note_input`) or one of ``inputs``; nested uses share the outer one's inputs.

    Parameters
    ----------
    inputs : iterable of (what, path)
        Inputs known before any is read (e.g. the command line's files); None paths skipped.
    """
    global _inputs, _depth
    with _lock:
        if _depth == 0:
            _inputs = []
        _depth += 1
    try:
        for what, path in inputs:
            note_input(path, what)
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                _inputs = None


def note_input(path, what):
    """Record that the work reads the file at path (``what`` names it in messages: "model",
    "marker", "setup", ...). Nothing outside :func:`guarding`."""
    if _inputs is None or path is None:
        return
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return
    with _lock:
        if _inputs is not None:
            _inputs.append((what, os.fspath(path), (st.st_dev, st.st_ino)))


def check_outputs(outputs):
    """Before any work: ValueError when an output (flag, path) names a file the guarded work
    has noted as an input (:func:`note_input`), by any name. None paths skipped."""
    for flag, path in outputs:
        if path is not None:
            _refuse_input(path, flag)


def _refuse_input(path, flag=None):
    """ValueError when path names a file the guarded work reads."""
    if not _inputs:
        return
    try:
        st = os.stat(path)              # follows a symbolic link to what it names
    except (OSError, ValueError):
        return                          # a new file cannot be an input
    real = os.path.realpath(path)
    for what, p, ident in list(_inputs):
        if ident == (st.st_dev, st.st_ino) or real == os.path.realpath(p):
            alias = "" if os.fspath(path) == p else f" (the same file as {p})"
            named = f"{flag} {os.fspath(path)}" if flag else os.fspath(path)
            raise ValueError(f"{named}: that is the {what} file{alias}, which this work "
                             "reads; writing there would destroy it: choose another output "
                             "name")


@contextlib.contextmanager
def replacing(path):
    """Context manager yielding a temporary path beside ``path`` (same extension, so libraries
    that choose the format by the suffix still do); on a clean exit it replaces ``path``, on an
    exception it is removed and ``path`` is left as it was. Within :func:`guarding`, a path
    that names an input of the work (by any name) raises ValueError before anything is
    written.

    Parameters
    ----------
    path : str or os.PathLike
        The destination file.

    Yields
    ------
    str
        Where to write the content.
    """
    path = os.fspath(path)
    _refuse_input(path)
    folder, base = os.path.split(os.path.abspath(path))
    ext = os.path.splitext(base)[1]
    fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=f".part{ext}", dir=folder)
    os.close(fd)
    try:
        yield tmp
        if os.path.exists(path):        # keep the permissions the user gave the old file
            with contextlib.suppress(OSError):
                os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            with contextlib.suppress(OSError):
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


def same_file(a, b):
    """True when paths a and b name the same file: same path after resolving links, or the same
    inode (a hard link, a bind mount)."""
    a, b = os.fspath(a), os.fspath(b)
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:                     # one of them does not exist (yet)
        return False


def refuse_overwriting_inputs(outputs, inputs):
    """Raise ValueError when an output would overwrite an input.

    Parameters
    ----------
    outputs : iterable of (flag, path)
        What the command will write, e.g. ``("-o", "trial_torques.csv")``; None paths skipped.
    inputs : iterable of (what, path)
        What it reads, e.g. ``("motion", "trial.csv")``; None paths skipped.
    """
    inputs = [(what, p) for what, p in inputs if p is not None and os.path.isfile(p)]
    for flag, out in outputs:
        if out is None:
            continue
        for what, p in inputs:
            if same_file(out, p):
                alias = "" if os.fspath(out) == os.fspath(p) else f" (the same file as {p})"
                raise ValueError(f"{flag} {out}: that is the {what} file{alias}; writing there "
                                 "would destroy it: choose another output name")
