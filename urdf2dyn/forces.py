"""External wrenches in urdf2dyn's convention: [fx fy fz mx my mz] in world coordinates,
the moment taken about the world origin."""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .batch import _as_samples, _batch_shape


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
    given = [("force", force), ("point", point)] + ([] if moment is None else
                                                     [("moment", moment)])
    items = [(name, _as_samples(x, name, 3, False)) for name, x in given]
    batch = _batch_shape(items)
    f, p, *mo = (np.asarray(a, dtype=float) for _, a in items)     # broadcast as assigned
    out = np.empty(batch + (6,))
    out[..., :3] = f
    # point x force by components: np.cross (and broadcast_to) cost ~80 us a call
    for k in range(3):
        i, j = (k + 1) % 3, (k + 2) % 3
        out[..., 3 + k] = p[..., i] * f[..., j] - p[..., j] * f[..., i]
    if mo:
        out[..., 3:] += mo[0]
    return out
