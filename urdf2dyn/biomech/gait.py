"""Gait analysis: sagittal joint moments with the clinical sign conventions, foot-contact
events from ground reactions, gait-cycle normalization, peak summaries, and the whole-body
angular momentum as the gait literature normalizes it.

Clinical gait reports quote *internal* joint moments as extensor / plantarflexor positive. Two
families of models name their sagittal coordinates, each with its own signs:

* urdf2dyn's human model (flexion axis Z; x forward, y up, z right: hip flexion, knee
  extension and ankle dorsiflexion are positive rotations, ``urdf2dyn.human``);
* OpenSim's gait models (gait2354, gait2392, gait10dof18musc, Hamner, Rajagopal, ...):
  ``hip_flexion_<side>`` (flexion positive), ``knee_angle_<side>`` (flexion negative in the
  Delp models, whose range is -120..10 degrees, positive in Rajagopal's, 0..120: the side
  of the larger bound is flexion), ``ankle_angle_<side>`` (dorsiflexion positive).

========  =============  ===================  ===============================
joint     human model    OpenSim              reported moment
========  =============  ===================  ===============================
hip       rHJZ_<L|R>     hip_flexion_<l|r>    extension = -tau
knee      rKJZ_<L|R>     knee_angle_<l|r>     extension = +tau (flexion negative)
ankle     rAJZ_<L|R>     ankle_angle_<l|r>    plantarflexion = -tau
========  =============  ===================  ===============================
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

if TYPE_CHECKING:
    from ..model import Model
    from .processing import ColumnOptions

__all__ = ["SAGITTAL", "is_human", "has_sagittal", "sagittal_coordinates", "sagittal_moments",
           "vertical_reactions", "contact_intervals", "foot_strikes", "cycle_average", "peak_moments",
           "CONTACT_THRESHOLD", "normalized_angular_momentum", "Cycle", "CYCLE_SOURCES",
           "event_strikes", "load_strikes", "gait_cycles", "cycle_normalized"]

#: (joint, coordinate prefix, sign making extension/plantarflexion positive, positive name,
#: negative name)
SAGITTAL = (("hip", "rHJZ", -1.0, "extension", "flexion"),
            ("knee", "rKJZ", 1.0, "extension", "flexion"),
            ("ankle", "rAJZ", -1.0, "plantarflexion", "dorsiflexion"))

#: Vertical force (N) above which a foot counts as in contact (a usual force-plate threshold).
CONTACT_THRESHOLD = 20.0


#: OpenSim's standard sagittal coordinates, {joint: (name with {s} for the side, sign)}; the
#: knee's sign comes from its range (sagittal_coordinates)
OPENSIM_SAGITTAL = {"hip": ("hip_flexion_{s}", -1.0), "knee": ("knee_angle_{s}", None),
                    "ankle": ("ankle_angle_{s}", -1.0)}


def is_human(model: Model) -> bool:
    """True when the model has the human model's sagittal hip, knee and ankle coordinates."""
    names = set(model.v_names)
    return all(f"{c}_{s}" in names for _, c, *_ in SAGITTAL for s in "LR")


def sagittal_coordinates(model: Model) -> dict[str, tuple[int, float]] | None:
    """{"hip_L": (v index, sign), ..., "ankle_R": ...}: the model's sagittal hip, knee and
    ankle coordinates with the sign that makes extension (hip, knee) and plantarflexion
    (ankle) positive, by the human model's names or OpenSim's (module docstring); None when
    the model has neither set whole."""
    names = {n: k for k, n in enumerate(model.v_names)}
    if is_human(model):
        return {f"{joint}_{s}": (names[f"{coord}_{s}"], sign)
                for joint, coord, sign, *_ in SAGITTAL for s in "LR"}
    out = {}
    for joint, (pattern, sign) in OPENSIM_SAGITTAL.items():
        for side, s in (("L", "l"), ("R", "r")):
            name = pattern.format(s=s)
            if name not in names:
                return None
            out[f"{joint}_{side}"] = (names[name], sign if sign is not None
                                      else _knee_sign(model, name))
    return out


def _knee_sign(model, name):
    """+1 when the knee flexes towards negative angles (its range's larger bound is negative,
    the Delp models'), -1 when towards positive ones (Rajagopal's), +1 without a range."""
    c = getattr(model, "coordinates", {}).get(name)
    lo, hi = (c.lower, c.upper) if c is not None else (0.0, 0.0)
    return -1.0 if abs(hi) > abs(lo) else 1.0


def has_sagittal(model: Model) -> bool:
    """True when the model names sagittal hip, knee and ankle coordinates of both legs (the
    human model's, or OpenSim's standard ones)."""
    return sagittal_coordinates(model) is not None


def sagittal_moments(model: Model, tau: ArrayLike, mass: float | None = None
                     ) -> dict[str, NDArray[np.float64]]:
    """{"hip_L": (N,), "hip_R": ..., "knee_L": ..., "ankle_R": ...}: extension (hip, knee) and
    plantarflexion (ankle) positive, in N·m, or N·m/kg when mass (kg) is given."""
    tau = np.asarray(tau, dtype=float)
    scale = 1.0 if mass is None else 1.0 / float(mass)
    coords = sagittal_coordinates(model)
    if coords is None:
        raise ValueError(f"model {model.name!r} names no sagittal hip, knee and ankle "
                         "coordinates of both legs (the human model's rHJZ_L ... or OpenSim's "
                         "hip_flexion_l, knee_angle_l, ankle_angle_l ...)")
    return {key: sign * scale * tau[..., k] for key, (k, sign) in coords.items()}


def vertical_reactions(model: Model, f_ext) -> dict[str, NDArray[np.float64]]:
    """{"L": (N,), "R": (N,)}: the vertical (along -gravity) external force on each foot, from
    f_ext {link: (N, 6)}: the links whose names end in _L/_l and _R/_r (foot_L, calcn_l,
    toes_l ...), summed per side. Sides without such a link are left out."""
    g = np.asarray(model.gravity, dtype=float)
    if not f_ext or not np.any(g):
        return {}
    up = -g / np.linalg.norm(g)
    out: dict[str, NDArray[np.float64]] = {}
    for link, w in f_ext.items():
        side = link[-1].upper() if len(link) > 2 and link[-2] == "_" else ""
        if side in ("L", "R"):
            fy = np.asarray(w, dtype=float)[..., :3] @ up
            out[side] = out[side] + fy if side in out else fy
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


# ----------------------------------------------------------------------------- gait cycles

#: Where gait cycles are cut from (``--cycles``): the feet's vertical loads, or C3D events.
CYCLE_SOURCES = ("plates", "events")
_STRIKE_LABELS = re.compile(r"(?i)^\s*([lr])\s*(hs|fs|ic)\s*$")      # LHS, RFS, LIC ...


@dataclass(frozen=True)
class Cycle:
    """One gait cycle of one side ("L" or "R"): from a foot strike (start, s) to the next
    strike of the same foot (end, s); source: "plates" (the foot's vertical load) or
    "events" (the recording's Foot Strike events)."""
    side: str
    start: float
    end: float
    source: str

    @property
    def duration(self) -> float:
        return self.end - self.start


def event_strikes(events: Sequence[Any]) -> dict[str, NDArray[np.float64]]:
    """{"L": times, "R": times} of the foot strikes among C3D events
    (urdf2dyn.biomech.formats.c3d.Event): Vicon Nexus' 'Foot Strike' with the context 'Left'
    or 'Right', or a label naming side and strike alone (LHS / RHS, LFS, LIC: heel strike, foot
    strike, initial contact), as Qualisys and others write them. Sorted, each side."""
    out: dict[str, list[float]] = {"L": [], "R": []}
    for e in events:
        label, context = str(e.label).strip().lower(), str(e.context).strip().lower()
        side = None
        if "strike" in label or label in ("initial contact", "heel strike"):
            side = {"left": "L", "right": "R"}.get(context)
        m = _STRIKE_LABELS.match(str(e.label))
        if side is None and m:
            side = m[1].upper()
        if side is not None and np.isfinite(e.time):
            out[side].append(float(e.time))
    return {k: np.array(sorted(v)) for k, v in out.items()}


def load_strikes(model: Model, result: Any, threshold: float = CONTACT_THRESHOLD
                 ) -> dict[str, NDArray[np.float64]]:
    """{"L": times, "R": times} at which the vertical load on each foot rises through
    threshold (:func:`foot_strikes`): from the trial's ground reactions per foot at their own
    rate, unfiltered (a C3D's plates: the analog samples; the foot of each key its contact
    link's side), else from the loads applied (result.f_ext: an ExternalLoads file's)."""
    g = np.asarray(model.gravity, dtype=float)
    if not np.any(g):
        raise ValueError(f"model {model.name!r} has no gravity: no vertical to find foot "
                         "strikes along")
    up = -g / np.linalg.norm(g)
    r = getattr(result, "reactions", None)
    if r is not None and r.grf:
        from .grf import contact_links
        settings = getattr(result, "settings", None)
        links = contact_links(sorted(r.grf), model,
                              settings.contact_links if settings is not None else None)
        forces: dict[str, Any] = {}
        for key, link in links.items():
            side = link[-1].upper() if len(link) > 2 and link[-2] == "_" else key[:1].upper()
            if side in ("L", "R"):
                fy = np.nan_to_num(r.grf[key]) @ up
                forces[side] = forces[side] + fy if side in forces else fy
        t = r.time
    else:
        forces, t = vertical_reactions(model, getattr(result, "f_ext", None)), result.t
    return {side: foot_strikes(t, forces[side], threshold) if side in forces else np.zeros(0)
            for side in ("L", "R")}


def gait_cycles(result: Any, model: Model, by: str = "plates", *,
                named: ColumnOptions | None = None) -> list[Cycle]:
    """The trial's complete gait cycles, each side's from one foot strike to the next, within
    the result's times (result.t), in time order.

    by: "plates" (the foot strikes where the vertical load on each foot rises through
    CONTACT_THRESHOLD, :func:`load_strikes`) or "events" (the C3D's Foot Strike events,
    :func:`event_strikes`). Raises ValueError when the trial has no such loads or events,
    naming what to give in the caller's words (named: processing.ColumnOptions; default the
    library's, LIBRARY_COLUMNS)."""
    from .processing import LIBRARY_COLUMNS
    named = LIBRARY_COLUMNS if named is None else named
    if by not in CYCLE_SOURCES:
        raise ValueError(f"cycles: expected one of {CYCLE_SOURCES}, got {by!r}")
    if by == "events":
        events = getattr(result, "events", None) or []
        if not events:
            raise ValueError(f"{result.path}: no events to cut gait cycles from (a C3D's Foot "
                             "Strike events); cut them from the loads instead"
                             f"{named.said('cycles', ' ({})', 'plates')}")
        strikes = event_strikes(events)
    else:
        if not getattr(result, "f_ext", None) and getattr(result, "reactions", None) is None:
            raise ValueError(f"{result.path}: no ground reactions to find foot strikes in; "
                             f"give them (a C3D's plates{named.said('grf', ', {}')}) or cut "
                             "the cycles from the C3D's events"
                             f"{named.said('cycles', ' ({})', 'events')}")
        strikes = load_strikes(model, result)
    t0, t1 = float(result.t[0]), float(result.t[-1])
    tol = 1e-9 * max(1.0, abs(t0), abs(t1))
    out = []
    for side in ("L", "R"):
        s = strikes[side][(strikes[side] >= t0 - tol) & (strikes[side] <= t1 + tol)]
        out += [Cycle(side, float(a), float(b), by) for a, b in zip(s[:-1], s[1:])]
    return sorted(out, key=lambda c: (c.start, c.side))


def cycle_normalized(result: Any, cycles: Sequence[Cycle], n: int = 101, x: Any = None
                     ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(percent (n,), values (len(cycles), n, k)): x (default result.tau, (N, k) at result.t)
    over each cycle, time-normalized to 0..100 % (:func:`cycle_average`, linear)."""
    x = result.tau if x is None else np.asarray(x, dtype=float)
    pct = np.linspace(0.0, 100.0, n)
    out = np.zeros((len(cycles), n) + np.shape(x)[1:])
    for i, c in enumerate(cycles):
        _, one = cycle_average(result.t, x, [c.start, c.end], n)
        out[i] = one[0]
    return pct, out


def peak_moments(model: Model, tau: ArrayLike, mass: float | None
                 ) -> dict[tuple[str, str], dict[str, float]]:
    """Peak sagittal moments (N·m/kg; N·m when mass is None) per joint, direction and side:
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
