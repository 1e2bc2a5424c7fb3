"""Gait analysis for the human model: sagittal joint moments with the clinical sign conventions,
foot-contact events from ground reactions, gait-cycle normalization, peak summaries, and the
whole-body angular momentum as the gait literature normalizes it.

The human model's flexion axis is Z (x forward, y up, z right): hip flexion, knee extension and
ankle dorsiflexion are positive rotations (``urdf2dyn.human``). Clinical gait reports quote
*internal* joint moments as extensor / plantarflexor positive, so:

================  ============  ===============================
joint             coordinate    reported moment
================  ============  ===============================
hip               rHJZ_<side>   extension = -tau (flexion = +tau)
knee              rKJZ_<side>   extension = +tau (flexion = -tau)
ankle             rAJZ_<side>   plantarflexion = -tau
================  ============  ===============================
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

if TYPE_CHECKING:
    from ..model import Model

__all__ = ["SAGITTAL", "is_human", "sagittal_moments", "contact_intervals", "foot_strikes",
           "cycle_average", "peak_moments", "CONTACT_THRESHOLD", "normalized_angular_momentum"]

#: (joint, coordinate prefix, sign making extension/plantarflexion positive, positive name,
#: negative name)
SAGITTAL = (("hip", "rHJZ", -1.0, "extension", "flexion"),
            ("knee", "rKJZ", 1.0, "extension", "flexion"),
            ("ankle", "rAJZ", -1.0, "plantarflexion", "dorsiflexion"))

#: Vertical force (N) above which a foot counts as in contact (a usual force-plate threshold).
CONTACT_THRESHOLD = 20.0


def is_human(model: Model) -> bool:
    """True when the model has the human model's sagittal hip, knee and ankle coordinates."""
    names = set(model.v_names)
    return all(f"{c}_{s}" in names for _, c, *_ in SAGITTAL for s in "LR")


def sagittal_moments(model: Model, tau: ArrayLike, mass: float | None = None
                     ) -> dict[str, NDArray[np.float64]]:
    """{"hip_L": (N,), "hip_R": ..., "knee_L": ..., "ankle_R": ...}: extension (hip, knee) and
    plantarflexion (ankle) positive, in N·m, or N·m/kg when mass (kg) is given."""
    tau = np.asarray(tau, dtype=float)
    scale = 1.0 if mass is None else 1.0 / float(mass)
    out = {}
    for joint, coord, sign, *_ in SAGITTAL:
        for side in "LR":
            k = model.v_names.index(f"{coord}_{side}")
            out[f"{joint}_{side}"] = sign * scale * tau[..., k]
    return out


def contact_intervals(t: ArrayLike, fy: ArrayLike, threshold: float = CONTACT_THRESHOLD
                      ) -> list[tuple[float, float]]:
    """[(t_on, t_off), ...] of the intervals where the vertical force fy (N,) exceeds
    threshold (NaN counts as no contact); an interval open at either end of the record uses the
    first/last time."""
    t = np.asarray(t, dtype=float)
    on = np.nan_to_num(np.asarray(fy, dtype=float), nan=0.0) > threshold
    if not on.any():
        return []
    edges = np.diff(on.astype(np.int8))
    starts = (np.flatnonzero(edges == 1) + 1).tolist()
    stops = (np.flatnonzero(edges == -1) + 1).tolist()
    if on[0]:
        starts.insert(0, 0)
    if on[-1]:
        stops.append(len(on))
    return [(t[a], t[b - 1]) for a, b in zip(starts, stops)]


def foot_strikes(t: ArrayLike, fy: ArrayLike, threshold: float = CONTACT_THRESHOLD
                 ) -> NDArray[np.float64]:
    """Times (s) at which the vertical force rises through threshold (linear interpolation
    between samples); contacts already under way at the first sample are not strikes."""
    t = np.asarray(t, dtype=float)
    f = np.nan_to_num(np.asarray(fy, dtype=float), nan=0.0)
    k = np.flatnonzero((f[:-1] <= threshold) & (f[1:] > threshold))
    frac = (threshold - f[k]) / (f[k + 1] - f[k])
    return t[k] + frac * (t[k + 1] - t[k])


def cycle_average(t: ArrayLike, x: ArrayLike, strikes: Sequence[float] | NDArray[np.float64],
                  n: int = 101
                  ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Time-normalize x (N,) or (N, k) to the gait cycles between consecutive strikes.

    Returns (percent (n,), cycles (n_cycles, n[, k])) with percent 0..100; x is linearly
    interpolated. Fewer than two strikes: no cycles (shape (0, n[, k]))."""
    t = np.asarray(t, dtype=float)
    x = np.asarray(x, dtype=float)
    pct = np.linspace(0.0, 100.0, n)
    cycles = []
    for a, b in zip(strikes[:-1], strikes[1:]):
        tt = a + (b - a) * pct / 100.0
        if x.ndim == 1:
            cycles.append(np.interp(tt, t, x))
        else:
            cycles.append(np.column_stack([np.interp(tt, t, x[:, c]) for c in range(x.shape[1])]))
    shape = (0, n) + x.shape[1:]
    return pct, (np.array(cycles) if cycles else np.zeros(shape))


def peak_moments(model: Model, tau: ArrayLike, mass: float | None
                 ) -> dict[tuple[str, str], dict[str, float]]:
    """Peak sagittal moments (N·m/kg) per joint, direction and side:
    {("hip", "extension"): {"L": .., "R": ..}, ("hip", "flexion"): ..., ...} where each value
    is the largest moment in that direction (a positive number, 0 if never reached)."""
    m = sagittal_moments(model, tau, mass)
    out = {}
    for joint, _, _, pos_name, neg_name in SAGITTAL:
        for name, sign in ((pos_name, 1.0), (neg_name, -1.0)):
            out[(joint, name)] = {s: float(max(0.0, np.nanmax(sign * m[f"{joint}_{s}"])))
                                  for s in "LR"}
    return out


def normalized_angular_momentum(model, q, v, speed, com_height=None):
    """Angular momentum about the centre of mass divided by M V H (Herr & Popovic 2008).

    Herr & Popovic, "Angular momentum in human walking", J. Exp. Biol. 211 (2008) 467-481,
    normalize the angular momentum about the centre of mass by the product of the subject's
    mass M, centre-of-mass height H and self-selected walking speed V (their Fig. 3:
    "normalized by the product of each participant's mass, CM height and gait speed (MVH)"),
    which makes it dimensionless and comparable between subjects.

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
