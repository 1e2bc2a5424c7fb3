"""The checks stage: the plausibility of a processed trial."""
import numpy as np


def _com_height(model, com, reactions):
    """Mean height (m, against gravity) of the CoM com (N, 3) above the mean centre of
    pressure."""
    g = np.asarray(model.gravity, dtype=float)
    if not np.linalg.norm(g) > 0:
        return 0.0
    up = -g / np.linalg.norm(g)
    com = com @ up
    ground = 0.0
    if reactions is not None:
        cops = [p for p in reactions.cop.values() if np.isfinite(p).any()]
        if cops:
            ground = float(np.nanmean(np.concatenate(cops) @ up))
    return float(np.mean(com) - ground)
