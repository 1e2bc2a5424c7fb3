"""How batched evaluations run: on how many threads, on which SIMD path, and how a call's
arguments become the core's batch (the shape logic behind every ``Model`` method).

Threads: the C core splits a batch of samples into blocks, one per thread; results are
bit-identical whatever the number of threads.

SIMD: Which SIMD path batched evaluations use.

Batched RNEA, nonlinear effects and gravity evaluate 8 samples per instruction with AVX-512,
4 with AVX2 + FMA, or one at a time on the portable path. The path is chosen once, from the
CPU's features, or from the environment variable ``URDF2DYN_SIMD`` (``avx512``, ``avx2`` or
``scalar``) read at the first evaluation. Every path gives the same results, bit for bit
(the lanes do the portable code's operations in the same order); see docs/performance.rst.

Shapes: ``Model._compute`` broadcasts its arguments against each other (and against f_ext and
out=) as NumPy's generalized ufuncs do, with the helpers at the end of this file
(:func:`_as_samples`, :func:`_batch_shape`, :func:`_check_out`, ...; docs/conventions.rst).
"""
from __future__ import annotations

import numbers
import os
import re

import numpy as np

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


# ---- arguments to the core's batch (Model._compute) ------------------------------------

_SAMPLE = re.compile(r"\bsample (\d+)")

# Inputs that may be a scalar, the same value for every coordinate (v=0, a=0.0: at rest).
# A configuration may not: a quaternion of four equal numbers is rarely what was meant.
_VELOCITY_LIKE = frozenset({"v", "a", "tau"})
_WIDTH_NAMES = {"q": "nq", "q0": "nq", "q1": "nq", "v": "nv", "v0": "nv", "a": "nv",
                "tau": "nv"}


def _as_samples(x, name, width, scalar_ok, batch=True):
    """x as an array of shape (..., width) of real numbers, not yet converted (the batch
    layer converts once); a scalar stands for a whole sample when scalar_ok; only one sample
    (width,) unless batch."""
    if not isinstance(x, np.ndarray):
        try:
            x = np.asarray(x)
        except (TypeError, ValueError) as e:        # ragged lists, unconvertible objects
            raise TypeError(f"{name}: expected an array of real numbers ({e})") from None
    if x.dtype.kind == "O" and all(isinstance(e, numbers.Real) and
                                   not isinstance(e, (bool, np.bool_)) for e in x.flat):
        x = x.astype(np.float64)      # numbers in an object array: a mixed DataFrame's row
    if x.dtype.kind not in "fiu":
        raise TypeError(f"{name}: expected an array of real numbers, got dtype {x.dtype}")
    if x.ndim == 0 and scalar_ok:
        return np.full(width, x, dtype=np.float64)
    if x.ndim == 0 or x.shape[-1] != width or (not batch and x.ndim != 1):
        what = f"({_WIDTH_NAMES[name]},) = " if name in _WIDTH_NAMES else ""
        # the hint is about the dynamics functions' arguments; a scalar force, wrench or
        # gravity was never meant to stand for a vector
        hint = ("; only v, a and tau may be a scalar" if x.ndim == 0 and batch and
                name in _WIDTH_NAMES and name not in _VELOCITY_LIKE else "")
        batches = f", or (..., {width}) for a batch" if batch else ""
        raise ValueError(f"{name}: expected shape {what}({width},){batches}, got "
                         f"{_fmt(x.shape)}{hint}")
    return x


def _plain(inputs, widths):
    """Whether inputs are ndarrays of real numbers of shapes (width,) each, or (N, width)
    with one N."""
    lead = None
    for x, width in zip(inputs, widths):
        if (type(x) is not np.ndarray or x.ndim not in (1, 2) or x.shape[-1] != width
                or x.dtype.kind not in "fiu"):
            return False
        if lead is None:
            lead = x.shape[:-1]
        elif x.shape[:-1] != lead:
            return False
    return True


def _batch_shape(items):
    """The broadcast of the batch shapes (all axes but the last) of [(label, array, ...)],
    or ValueError naming the first argument that does not fit and the one it clashes with."""
    batch = ()
    for k, (label, a, *_) in enumerate(items):
        joined = _broadcast(batch, a.shape[:-1])
        if joined is None:
            other = next((it for it in items[:k]
                          if _broadcast(it[1].shape[:-1], a.shape[:-1]) is None), items[0])
            raise ValueError(
                f"{label}: shape {_fmt(a.shape)} does not broadcast against {other[0]}'s "
                f"{_fmt(other[1].shape)}: the batch axes (all but the last) must be equal, "
                "1, or missing (NumPy's broadcasting rules)")
        batch = joined
    return batch


def _broadcast(s1, s2):
    """NumPy's broadcast of two shapes, or None; in Python because np.broadcast_shapes costs
    more than a one-sample RNEA."""
    if s1 == s2 or not s2:
        return s1
    if not s1:
        return s2
    n = max(len(s1), len(s2))
    s1, s2 = (1,) * (n - len(s1)) + s1, (1,) * (n - len(s2)) + s2
    out = []
    for x, y in zip(s1, s2):
        if x != y and x != 1 and y != 1:
            return None
        out.append(y if x == 1 else x)
    return tuple(out)


def _check_out(out, shapes, batch):
    """The out= arrays as a tuple and the batch shape they fix (which the inputs' batch must
    broadcast to, as for a ufunc's out), or TypeError/ValueError naming out."""
    nout = len(shapes)
    if isinstance(out, np.ndarray) and nout == 1:
        outs = (out,)
    elif isinstance(out, tuple) and len(out) == nout:
        outs = out
    else:
        want = "an array" if nout == 1 else f"a tuple of {nout} arrays"
        raise TypeError(f"out: expected {want}, got {type(out).__name__}"
                        + (f" of length {len(out)}" if isinstance(out, tuple) else ""))
    labels = ["out"] if nout == 1 else [f"out[{k}]" for k in range(nout)]
    target = None
    for label, o, core in zip(labels, outs, shapes):
        expected = (batch if target is None else target) + core
        if not isinstance(o, np.ndarray):
            raise TypeError(f"{label}: expected a NumPy array of shape {_fmt(expected)} and dtype "
                            f"float64, got {type(o).__name__}")
        k = o.ndim - len(core)
        ok = k >= 0 and o.shape[k:] == core
        if ok and target is None:
            ok = _broadcast(batch, o.shape[:k]) == o.shape[:k]
            target = o.shape[:k] if ok else None
        elif ok:
            ok = o.shape[:k] == target
        if not ok:
            raise ValueError(f"{label}: expected shape {_fmt(expected)}, got {_fmt(o.shape)}")
        if o.dtype != np.float64:
            raise TypeError(f"{label}: expected dtype float64 (native byte order), got "
                            f"{o.dtype}; results are float64, cast them afterwards")
        if not o.flags.c_contiguous:
            raise ValueError(f"{label}: expected a C-contiguous array of shape {_fmt(expected)} "
                             "(e.g. np.empty of that shape), got a strided view")
        if not o.flags.writeable:
            raise ValueError(f"{label}: the array is read-only")
    for i in range(nout):
        for j in range(i + 1, nout):
            if np.may_share_memory(outs[i], outs[j]):
                raise ValueError(f"{labels[i]} and {labels[j]} overlap: give {nout} separate "
                                 "arrays")
    return outs, target


def _flatten(a, batch, n):
    """a (..., width) broadcast to batch and viewed as (n, width) float64 C-contiguous, the
    core's layout (copied only when needed); one sample stays (width,)."""
    if not batch:
        return a
    width = a.shape[-1]
    a = np.broadcast_to(a, batch + (width,))
    return np.ascontiguousarray(a, dtype=np.float64).reshape(n, width)


def _stack_wrenches(wrenches, link_body, batch, n):
    """[(label, (..., 6), link)] -> the core's bodies (K,) and wrenches (1 or n, K, 6)."""
    if not wrenches:
        return None, None
    bodies = np.array([link_body[link] for _, _, link in wrenches], dtype=np.intc)
    if all(w.ndim == 1 for _, w, _ in wrenches):
        stacked = np.stack([w for _, w, _ in wrenches])[None]        # one for every sample
    else:
        stacked = np.stack([np.broadcast_to(w, batch + (6,)).reshape(n, 6)
                            for _, w, _ in wrenches], axis=1)
    return bodies, np.ascontiguousarray(stacked, dtype=np.float64)


def _name_sample(message, batch):
    """The core's 'sample 17' (it counts samples flat) as the index in batch, 'sample (2, 1)'."""
    def index(m):
        return "sample " + str(tuple(int(i) for i in np.unravel_index(int(m.group(1)), batch)))
    return _SAMPLE.sub(index, message)


def _fmt(shape):
    return str(tuple(shape))


def _scalar(x):
    return float(x) if x.ndim == 0 else x
