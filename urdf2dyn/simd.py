"""Which SIMD path batched evaluations use.

Batched RNEA, nonlinear effects and gravity evaluate 8 samples per instruction with AVX-512,
4 with AVX2 + FMA, or one at a time on the portable path. The path is chosen once, from the
CPU's features, or from the environment variable ``URDF2DYN_SIMD`` (``avx512``, ``avx2`` or
``scalar``) read at the first evaluation. Every path gives the same results, bit for bit
(the lanes do the portable code's operations in the same order); see docs/performance.rst.
"""
from . import _core

PATHS = ("avx512", "avx2", "scalar")


def simd_path():
    """The SIMD path in use.

    Returns
    -------
    str
        ``"avx512"``, ``"avx2"`` or ``"scalar"``.
    """
    return _core.simd_path()


def set_simd_path(name):
    """Use the named SIMD path for the batched evaluations that follow (tests, benchmarks).

    Parameters
    ----------
    name : str or None
        ``"avx512"``, ``"avx2"`` or ``"scalar"``; None chooses again from ``URDF2DYN_SIMD``
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
