"""Whole-body angular momentum as the gait literature reports it.

Herr & Popovic, "Angular momentum in human walking", J. Exp. Biol. 211 (2008) 467-481,
normalize the angular momentum about the centre of mass by the product of the subject's
mass M, centre-of-mass height H and self-selected walking speed V (their Fig. 3: "normalized
by the product of each participant's mass, CM height and gait speed (MVH)"), which makes it
dimensionless and comparable between subjects.
"""
import numpy as np

__all__ = ["normalized_angular_momentum"]


def normalized_angular_momentum(model, q, v, speed, com_height=None):
    """Angular momentum about the centre of mass divided by M V H (Herr & Popovic 2008).

    Parameters
    ----------
    model : urdf2dyn.Model
    q, v : array_like, (N, nq), (N, nv)
        The trial.
    speed : float
        The walking (or running) speed V, m/s, > 0.
    com_height : float, optional
        H, m. Default: the mean height of the centre of mass over the trial, measured
        from the world origin along -gravity (the floor is at the origin in HuMoD's frame).

    Returns
    -------
    ndarray, (N, 3) or (3,)
        L_G / (M V H), world axes (dimensionless).
    """
    if not (np.isfinite(speed) and speed > 0):
        raise ValueError(f"normalized_angular_momentum: speed must be a positive number "
                         f"(m/s), got {speed!r}")
    c = model.centroidal(q, v, np.zeros_like(np.asarray(v, dtype=float)))
    if com_height is None:
        g = np.asarray(model.gravity, dtype=float)
        if not np.any(g):
            raise ValueError("normalized_angular_momentum: gravity is zero, so 'up' is "
                             "undefined: give com_height")
        com_height = float(np.mean(c["com"] @ (-g / np.linalg.norm(g))))
    if not (np.isfinite(com_height) and com_height > 0):
        raise ValueError(f"normalized_angular_momentum: the centre-of-mass height must be "
                         f"positive, got {com_height!r} m (give com_height)")
    return c["momentum"][..., 3:] / (model.total_mass * speed * com_height)
