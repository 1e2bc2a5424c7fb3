"""Marker trajectories: what the .trc and C3D readers return and inverse kinematics fits.

A :class:`Markers` holds M labelled 3-D points sampled N times, in metres: ``time`` (N,),
``labels`` (M,), ``xyz`` (N, M, 3). A marker that was not seen in a frame (occluded, or a C3D
residual < 0) is NaN there: a gap, never a zero.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .trajectory import MotionError

__all__ = ["Markers", "rotation_matrix", "LENGTH_UNITS"]

#: Length units a marker file may declare, and their size in metres.
LENGTH_UNITS = {"mm": 1e-3, "cm": 1e-2, "dm": 1e-1, "m": 1.0, "in": 0.0254, "ft": 0.3048}


@dataclass
class Markers:
    """Labelled marker positions.

    Attributes
    ----------
    time : ndarray, shape (N,)
        Seconds.
    labels : list of str, length M
        Marker names, unique.
    xyz : ndarray, shape (N, M, 3)
        Positions in metres; NaN where the marker was not seen.
    meta : dict
        Source file, frame rate, the units the file was written in, ...
    """
    time: NDArray[np.float64]
    labels: list[str]
    xyz: NDArray[np.float64]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        self.time = np.asarray(self.time, dtype=float).reshape(-1)
        self.labels = [str(x) for x in self.labels]
        self.xyz = np.asarray(self.xyz, dtype=float)
        n, m = len(self.time), len(self.labels)
        if self.xyz.shape != (n, m, 3):
            raise ValueError(f"xyz: expected shape ({n}, {m}, 3) (frames, markers, xyz), got "
                             f"{self.xyz.shape}")
        if len(set(self.labels)) != m:
            dup = sorted({x for x in self.labels if self.labels.count(x) > 1})
            raise MotionError(f"{self.meta.get('source', 'markers')}: duplicate marker labels "
                              f"{dup}; rename them so each marker has its own label")

    def __len__(self):
        return len(self.time)

    @property
    def rate(self):
        """Frames per second (from the mean time step), or None for fewer than 2 frames."""
        return (len(self.time) - 1) / (self.time[-1] - self.time[0]) if len(self.time) > 1 else None

    def marker(self, label):
        """The (N, 3) positions of one marker (m)."""
        if label not in self.labels:
            raise KeyError(f"no marker {label!r} in {self.meta.get('source', 'the markers')} "
                           f"(it has {self.labels})")
        return self.xyz[:, self.labels.index(label)]

    def select(self, labels):
        """A copy with only the given markers, in that order."""
        idx = [self.labels.index(x) if x in self.labels else -1 for x in labels]
        missing = [x for x, k in zip(labels, idx) if k < 0]
        if missing:
            raise MotionError(f"{self.meta.get('source', 'markers')}: no markers {missing} "
                              f"(it has {self.labels})")
        return replace(self, labels=list(labels), xyz=self.xyz[:, idx])

    def rotated(self, rotation):
        """A copy with every position mapped by ``rotation`` (see :func:`rotation_matrix`)."""
        r = rotation_matrix(rotation)
        return replace(self, xyz=self.xyz @ r.T)

    def missing(self):
        """Labels of the markers never seen in any frame."""
        seen = np.any(np.all(np.isfinite(self.xyz), axis=2), axis=0)
        return [x for x, s in zip(self.labels, seen) if not s]


def rotation_matrix(rotation):
    """The 3x3 rotation R taking lab coordinates to model coordinates: ``x_model = R @ x_lab``.

    Parameters
    ----------
    rotation : None, (3, 3) array_like, or str
        None: identity. A string: rotations about the lab's axes applied in order, each
        ``AXIS:DEGREES`` and separated by commas, e.g. ``"x:-90"`` takes a z-up lab (most
        motion-capture systems) to a y-up model (OpenSim's): the lab's z becomes the model's y
        and the lab's y becomes the model's -z. ``"x:-90,y:90"`` then also turns about the
        model's vertical, taking the lab's x to the model's -z.

    Raises
    ------
    ValueError
        A malformed string, or a matrix that is not a proper rotation (orthonormal, det +1).
    """
    if rotation is None:
        return np.eye(3)
    if isinstance(rotation, str):
        r = np.eye(3)
        for part in rotation.replace(" ", "").split(","):
            axis, _, deg = part.partition(":")
            try:
                a = np.radians(float(deg))
            except ValueError:
                a = float("nan")
            if axis.lower() not in ("x", "y", "z") or not np.isfinite(a):
                raise ValueError(f"rotation {rotation!r}: expected AXIS:DEGREES[,AXIS:DEGREES...] "
                                 f"with AXIS one of x, y, z (e.g. 'x:-90' for z-up to y-up), got "
                                 f"{part!r}")
            c, s = np.cos(a), np.sin(a)
            i = "xyz".index(axis.lower())
            j, k = (i + 1) % 3, (i + 2) % 3
            step = np.eye(3)
            step[j, j], step[j, k], step[k, j], step[k, k] = c, -s, s, c
            r = step @ r
        return np.round(r, 15) + 0.0
    r = np.asarray(rotation, dtype=float)
    if r.shape != (3, 3) or not np.all(np.isfinite(r)):
        raise ValueError(f"rotation: expected a (3, 3) rotation matrix, got shape {r.shape}")
    if not np.allclose(r @ r.T, np.eye(3), atol=1e-6) or np.linalg.det(r) < 0:
        raise ValueError("rotation: the matrix is not a proper rotation (R R^T = I, det R = +1); "
                         "a mirror would swap left and right")
    return r
