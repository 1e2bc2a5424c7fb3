"""How many threads batched evaluations may use (the C core splits samples into blocks)."""
from __future__ import annotations

import os

_num_threads: int | None = None
_default_threads: int | None = None


def _default() -> int:
    global _default_threads
    if _default_threads is None:
        _default_threads = _read_default()
    return _default_threads


def _read_default() -> int:
    env = os.environ.get("URDF2DYN_NUM_THREADS")
    if env:
        return max(1, int(env))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


def get_num_threads() -> int:
    """Threads used for large batches.

    Returns
    -------
    int
        set_num_threads()'s value, else $URDF2DYN_NUM_THREADS, else the CPUs this process may
        run on (both read once). Small batches run on the calling thread.
    """
    return _num_threads if _num_threads is not None else _default()


def set_num_threads(n: int | None) -> None:
    """Use at most n threads for batched evaluations.

    Parameters
    ----------
    n : int or None
        At least 1; None restores the default (see get_num_threads). Results are
        bit-identical whatever n is.
    """
    global _num_threads
    if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
        raise ValueError(f"set_num_threads: expected an integer >= 1 or None, got {n!r}")
    _num_threads = n
