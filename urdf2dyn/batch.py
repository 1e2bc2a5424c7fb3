"""How batched evaluations run: on how many threads, and on which SIMD path.

Threads: the C core splits a batch of samples into blocks, one per thread; results are
bit-identical whatever the number of threads.

SIMD: Which SIMD path batched evaluations use.

Batched RNEA, nonlinear effects and gravity evaluate 8 samples per instruction with AVX-512,
4 with AVX2 + FMA, or one at a time on the portable path. The path is chosen once, from the
CPU's features, or from the environment variable ``URDF2DYN_SIMD`` (``avx512``, ``avx2`` or
``scalar``) read at the first evaluation. Every path gives the same results, bit for bit
(the lanes do the portable code's operations in the same order); see docs/performance.rst.
"""
from __future__ import annotations

import os

from . import _core

__all__ = ["get_num_threads", "set_num_threads", "simd_path", "set_simd_path",
           "available_simd_paths"]

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


PATHS = ("avx512", "avx2", "neon", "scalar")


def simd_path():
    """The SIMD path in use.

    Returns
    -------
    str
        ``"avx512"``, ``"avx2"``, ``"neon"`` (arm64) or ``"scalar"``.
    """
    return _core.simd_path()


def set_simd_path(name):
    """Use the named SIMD path for the batched evaluations that follow (tests, benchmarks).

    Parameters
    ----------
    name : str or None
        ``"avx512"``, ``"avx2"``, ``"neon"`` (arm64) or ``"scalar"``; None chooses again from ``URDF2DYN_SIMD``
        and the CPU.

    Returns
    -------
    str
        The path now in use.

    Raises
    ------
    ValueError
        When the CPU or the build does not have that path.
    """
    if name is not None and name not in PATHS:
        raise ValueError(f"set_simd_path: unknown path {name!r}; expected one of {PATHS} "
                         "or None")
    return _core.set_simd_path(name)


def available_simd_paths():
    """The SIMD paths this CPU and build can run, widest first.

    Returns
    -------
    list of str
    """
    current = simd_path()
    found = []
    for name in PATHS:
        try:
            _core.set_simd_path(name)
            found.append(name)
        except ValueError:
            pass
    _core.set_simd_path(current)
    return found
