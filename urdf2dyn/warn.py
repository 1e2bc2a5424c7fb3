"""urdf2dyn's warnings: one category, raised instead of warned under ``strict``.

A questionable but usable input (a non-physical inertia in a real URDF, a gap filled in a
recording, angles that look like degrees, a large root residual) is reported with
``warnings.warn(message, Urdf2dynWarning)`` (or its subclass ``URDFWarning`` for URDF files),
naming where and what, and saying what to do. ``strict=True`` (``--strict`` on the command
line) turns each into an error of the caller's chosen type instead. Silence them all with::

    warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
"""
from __future__ import annotations

import warnings

__all__ = ["Urdf2dynWarning", "URDFWarning", "report"]


class Urdf2dynWarning(UserWarning):
    """A questionable input that urdf2dyn used as given (its message says where and why)."""


class URDFWarning(Urdf2dynWarning):
    """A URDF that loads, as Pinocchio would load it, but is probably not what its author meant."""


def report(message: str, strict: bool = False, error: type[Exception] = ValueError,
           category: type[Warning] = Urdf2dynWarning, stacklevel: int = 3) -> None:
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
    stacklevel : int
        As for warnings.warn: the frame the warning is attributed to.
    """
    if strict:
        raise error(message)
    warnings.warn(message, category, stacklevel=stacklevel)
