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

Before any work, :func:`check_output_paths` also refuses two outputs that name one file (the
second would silently replace the first) and an output whose folder does not exist, is not a
folder or cannot be written (which :func:`replacing` would otherwise find only once the work is
done, naming its temporary file). Folders are never created here: a command that creates one
says so.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
import threading

__all__ = ["replacing", "same_file", "refuse_overwriting_inputs", "refuse_input", "guarding",
           "note_input", "check_outputs", "check_output_paths", "refuse_same_outputs",
           "refuse_missing_folders", "name_outputs", "refuse_declared_outputs", "note_inputs",
           "OutputRefused", "declared_name"]


class OutputRefused(ValueError):
    """An output refused before anything is written there: a file the work reads, another
    output, or a folder that cannot take it. The message names the output (by the option a
    caller declared, :func:`name_outputs`) and says what to do; a ValueError. ``flags``: the
    names of the outputs it refuses, as the message gives them (a command-line option, a
    setup's element, a library argument), so that a command line can tell a refusal of its
    own option (a usage error) from one of the outputs a setup names."""

    def __init__(self, message: str, *flags: str | None):
        super().__init__(message)
        self.flags = tuple(f for f in flags if f)


# The inputs of the work in progress: (what, path, (device, inode)) of each file read, or None
# outside guarding(). One list for every thread of the work (a batch's workers read too).
_inputs: list[tuple[str, str, tuple[int, int]]] | None = None
# The outputs the work declared before any work, as (flag, resolved path, path as given), the
# first naming of each kept: a refusal found later (at write time, or by a library check nested
# in the work) names the option the user gave (the command line's) rather than none, or the
# library's.
_outputs: list[tuple[str, str, str]] = []
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
            _outputs.clear()
        _depth += 1
    try:
        note_inputs(inputs)
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                _inputs = None
                _outputs.clear()


def name_outputs(outputs):
    """Within :func:`guarding`: the outputs (flag, path) the work will write, so that a
    refusal of one found later (by :func:`replacing` at write time, or by a check of the
    library the work calls) names its flag as given here, the first naming of a path kept.
    Nothing outside :func:`guarding`; None paths skipped."""
    if _inputs is None:
        return
    with _lock:
        for flag, path in outputs:
            if path is not None and flag and _flag_of(path) is None:
                _outputs.append((flag, _resolved(path), os.fspath(path)))


def _resolved(path):
    return os.path.normcase(os.path.realpath(os.fspath(path)))


def _flag_of(path):
    """The flag a declared output (:func:`name_outputs`) at path was named by, or None."""
    real = _resolved(path)
    return next((flag for flag, p, _ in _outputs if p == real), None)


def declared_name(path, name):
    """How to name the output at path that a library function's argument ``name`` gives:
    the flag a caller declared for it (:func:`name_outputs`, the command line's option),
    else ``name``. None paths keep ``name``."""
    return name if path is None else _flag_of(path) or name


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


def note_inputs(named):
    """:func:`note_input` of each (what, path) of named, as the library's lists of the files a
    job names give them (None paths skipped)."""
    for what, path in named:
        note_input(path, what)


def refuse_declared_outputs():
    """Within :func:`guarding`: ValueError when an output declared before the work
    (:func:`name_outputs`) names a file the work has noted as an input since. For the inputs
    known only once read (an MJCF model's <include> files and meshes, known once the core
    has parsed the model): refused as soon as they are known, not once the work is done."""
    for flag, _, given in list(_outputs):
        refuse_input(given, flag)


def check_outputs(outputs, created=()):
    """Before any work: ValueError when an output (flag, path) names a file the guarded work
    has noted as an input (:func:`note_input`), by any name, or fails
    :func:`check_output_paths` (``created`` as there). None paths skipped."""
    # each named as an outer caller declared it (the command line's option) when one did;
    # two outputs of this call naming one file keep their own names (refused as such: the
    # declared name cannot say which of the two the caller's option gave)
    outputs = [(flag, path) for flag, path in outputs if path is not None]
    resolved = [_resolved(path) for _, path in outputs]
    outputs = [(flag if resolved.count(real) > 1 else _flag_of(path) or flag, path)
               for (flag, path), real in zip(outputs, resolved)]
    name_outputs(outputs)
    for flag, path in outputs:
        refuse_input(path, flag)
    check_output_paths(outputs, created)


def check_output_paths(outputs, created=()):
    """Before any work: ValueError when two outputs (flag, path) name the same file
    (:func:`refuse_same_outputs`) or an output's folder cannot take it
    (:func:`refuse_missing_folders`). ``created``: (flag, folder) the work creates when
    missing (as it documents): an output in one is not refused for its folder, a folder that
    is a file is. None paths and folders skipped."""
    outputs = [(flag, path) for flag, path in outputs if path is not None]
    refuse_same_outputs(outputs)
    made = set()
    for flag, folder in created:
        if folder and os.path.exists(folder) and not os.path.isdir(folder):
            raise OutputRefused(f"{flag} {folder}: a file; a directory is written there: "
                                 "choose another name", flag)
        if folder and not os.path.exists(folder):
            _refuse_a_file_above(flag, folder)
            made.add(os.path.realpath(folder))
    refuse_missing_folders([(flag, path) for flag, path in outputs
                            if os.path.realpath(os.path.dirname(os.fspath(path)) or ".")
                            not in made])


def _refuse_a_file_above(flag, folder):
    """ValueError when a folder to create lies under a file (robot.urdf/gen): creating it
    would fail with 'Not a directory' once the work is done."""
    above = os.path.dirname(os.path.normpath(os.fspath(folder)))
    while above and not os.path.exists(above):
        above = os.path.dirname(above)
    if above and not os.path.isdir(above):
        raise OutputRefused(f"{flag} {folder}: {above} is a file, not a directory: choose "
                             "another name", flag)


def refuse_same_outputs(outputs):
    """ValueError when two outputs (flag, path) name the same file, by the same path, another
    spelling, a symbolic or a hard link: the second written would replace the first. None
    paths skipped."""
    seen = {}
    for flag, path in outputs:
        if path is None:
            continue
        path = os.fspath(path)
        keys = [os.path.normcase(os.path.realpath(path))]
        try:
            st = os.stat(path)
            keys.append((st.st_dev, st.st_ino))
        except (OSError, ValueError):
            pass                        # a new file: its resolved path says which it is
        for key in keys:
            if key in seen:
                flag0, path0 = seen[key]
                if flag0 == flag and path0 == path:
                    raise OutputRefused(f"{flag} {path}: named twice as an output; the second "
                                         "would replace the first: give each output its own name",
                                         flag)
                raise OutputRefused(f"{flag0} {path0} and {flag} {path} name the same file; the "
                                     "second would replace the first: give each output its own "
                                     "name", flag0, flag)
        for key in keys:
            seen[key] = (flag, path)


def refuse_missing_folders(outputs):
    """ValueError when an output's (flag, path) folder does not exist, is not a folder, or
    cannot be written. None paths skipped; nothing is created."""
    for flag, path in outputs:
        if path is None:
            continue
        path = os.fspath(path)
        folder = os.path.dirname(path) or "."
        named = f"{flag} {path}" if flag else path
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                raise OutputRefused(f"{named}: {folder} is a file, not a directory: choose "
                                     "another output name", flag)
            raise OutputRefused(f"{named}: the directory {folder} does not exist; create it "
                                 "first", flag)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputRefused(f"{named}: the directory {folder} is not writable: choose "
                                 "another place", flag)


def refuse_input(path, flag=None):
    """ValueError when path names a file the guarded work reads (within :func:`guarding`)."""
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
            raise OutputRefused(f"{named}: that is the {what} file{alias}, which this work "
                                 "reads; writing there would destroy it: choose another output "
                                 "name", flag)


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
    refuse_input(path, _flag_of(path))     # named by its option when the work declared it
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
                raise OutputRefused(f"{flag} {out}: that is the {what} file{alias}; writing there "
                                     "would destroy it: choose another output name", flag)
