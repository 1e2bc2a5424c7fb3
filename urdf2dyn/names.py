"""Messages for a name that is not there: the closest ones ("did you mean") and the valid ones."""
from __future__ import annotations

import difflib

__all__ = ["unknown_name"]


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
