"""Outputs that never destroy what the user brought: the one helper every writer uses.

Every file urdf2dyn writes goes through :func:`replacing`: it is written to a temporary file
beside its destination (same folder, so same file system) and renamed into place with
``os.replace`` only once complete, so a run that fails or is interrupted never leaves a
truncated file where a good one was. :func:`refuse_overwriting_inputs` is called by the command
line before any work: an output that is one of the command's inputs (the same file by another
path, a symbolic or a hard link included) is refused.
"""
from __future__ import annotations

import contextlib
import os
import tempfile

__all__ = ["replacing", "same_file", "refuse_overwriting_inputs"]


@contextlib.contextmanager
def replacing(path):
    """Context manager yielding a temporary path beside ``path`` (same extension, so libraries
    that choose the format by the suffix still do); on a clean exit it replaces ``path``, on an
    exception it is removed and ``path`` is left as it was.

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
