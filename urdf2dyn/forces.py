"""External wrenches in urdf2dyn's convention: [fx fy fz mx my mz] in world coordinates,
the moment taken about the world origin."""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def wrench_at_point(force: ArrayLike, point: ArrayLike, moment: ArrayLike | None = None
                    ) -> NDArray[np.float64]:
    """Wrench of a force applied at a point (plus an optional free moment, e.g. a foot's
    free torque), as urdf2dyn's f_ext expects it.

    Parameters
    ----------
    force : array_like, shape (..., 3)
        Force in world coordinates, N.
    point : array_like, shape (..., 3)
        Where it acts, world coordinates, m.
    moment : array_like, shape (..., 3), optional
        A free moment acting with it, N·m.

    Returns
    -------
    ndarray, shape (..., 6)
        ``[f, point x f + moment]``: the moment about the world origin.

    Examples
    --------
    A ground reaction force at the centre of pressure:
    ``f_ext={"foot": wrench_at_point(grf, cop, free_moment)}``.
    """
    f = np.asarray(force, dtype=float)
    p = np.asarray(point, dtype=float)
    if f.shape[-1:] != (3,) or p.shape[-1:] != (3,):
        raise ValueError(f"wrench_at_point: force and point must have shape (..., 3), got "
                         f"{f.shape} and {p.shape}")
    m = np.cross(p, f)
    if moment is not None:
        mo = np.asarray(moment, dtype=float)
        if mo.shape[-1:] != (3,):
            raise ValueError(f"wrench_at_point: moment must have shape (..., 3), got {mo.shape}")
        m = m + mo
    f, m = np.broadcast_arrays(f, m)
    return np.concatenate([f, m], axis=-1)
