"""The bytes of an input file, read to a bound. A path naming a device (/dev/zero,
/dev/urandom: they never end) or a named pipe (opening one waits for a writer) is refused by
name before it is opened, and a file beyond what its
reader takes is refused once that much is read, not read until the memory runs out (a
MemoryError, or the system killing the process)."""
from __future__ import annotations

import os
import stat

#: what a model, setup, mapping or marker file may weigh: 256 MB (the core's cap on an MJCF's
#: include and mesh files); a published full-body model is a few MB
MAX_TEXT_FILE = 1 << 28


class InputFileError(OSError):
    """An input that is no file to read (a device) or too large for its reader; its message
    (also its strerror, which readers quote) names the path and what to give instead."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.strerror = message


def read_input(path: str | os.PathLike[str], what: str, limit: int | None = MAX_TEXT_FILE,
               head: int | None = None) -> bytes:
    """The bytes of the file at path, what naming it in messages ("model", "setup", ...);
    limit: the most it may hold (None: no bound, for tables of samples); head: read only
    that many first bytes instead (a reader that looks at a large table's first lines)."""
    refuse_devices(path, what)
    with open(path, "rb") as f:
        if head is not None:
            return f.read(head)
        data = f.read(-1 if limit is None else limit + 1)
    if limit is not None and len(data) > limit:
        raise InputFileError(f"{os.fspath(path)}: more than {limit >> 20} MB, too large for a "
                             f"{what} file: is it the right file?")
    return data


def refuse_devices(path: str | os.PathLike[str], what: str, named: str | None = None,
                   error: type[Exception] = InputFileError) -> None:
    """Refuse a path naming a device, a socket or a named pipe (checked without opening it:
    opening some devices, and any pipe, waits or has effects). named: the words that say who
    named the path ("--grf", "setup.xml: <marker_file>"), put before it in the message;
    error: the class raised (an OSError's strerror, which readers quote, is the message)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return                  # the reader's own open() says what is wrong, in its words
    if stat.S_ISFIFO(mode):
        said = (f"{os.fspath(path)}: a named pipe (FIFO), not a file (reading it waits for a "
                f"writer, maybe for ever): give the {what} file")
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        said = (f"{os.fspath(path)}: a device, not a file (reading it may never end): give the "
                f"{what} file")
    else:
        return
    message = said if named is None else f"{named} {said}"
    raise error(message)
