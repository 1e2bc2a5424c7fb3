"""Force plates to feet: each plate's load applied to the foot standing on it.

Automated gait pipelines decide per contact, not per sample: a contact is a contiguous stretch
of samples where a plate is loaded (above its threshold, see
:mod:`urdf2dyn.biomech.formats.c3d`), and the foot whose position stays nearest to the centre
of pressure over the contact (the median of the 3-D distance) stands on it. Not the distance
at mid-stance alone: in walking, the other foot swings past the stance foot at that very
moment, a hand's width to the side (on ezc3d's Qualisys trial the swinging left heel is then
nearer, in the floor's plane, to the right plate's centre of pressure than the right heel). The feet's
positions come from the model's forward kinematics or from markers (e.g. the heel markers).
From the model, the point measured is the mid-foot (:func:`midfoot_positions`: midway between
the foot link's origin and its toes' origin), as automated pipelines do, not the foot link's
origin (:func:`foot_positions`): an OpenSim calcaneus' origin is the heel, up to a foot's length
behind a push-off's centre of pressure, under the forefoot with the heel raised (Gait2392's
walk begins with one: 0.26 m from the right heel, 0.17 m from the right mid-foot). What cannot be decided is reported,
with the plate and the times, and never guessed:

* no foot within ``max_distance`` of the centre of pressure (a foot off the plate's edge,
  another body on the plate): the contact's load is left out;
* one foot on two plates at once (a step touching two plates): both loads are applied to it,
  summed into one force at one centre of pressure, and a warning says so.
"""
from __future__ import annotations

import numpy as np

from ..warn import in_file, report
from .trajectory import MotionError, Trajectory

__all__ = ["assign_plates", "foot_positions", "midfoot_positions", "combine_wrenches"]


def foot_positions(model, q, links):
    """{foot: (N, 3)} world positions of the links' origins, by forward kinematics.

    Parameters
    ----------
    model : urdf2dyn.Model
    q : array_like, shape (N, nq)
        The motion at the plates' sample times.
    links : dict
        {foot key: link name}, e.g. {"R": "calcn_r", "L": "calcn_l"}.
    """
    pos, _ = model.forward_kinematics(np.asarray(q, dtype=float))
    pos = pos.reshape(-1, len(model.link_names), 3)
    out = {}
    for key, link in links.items():
        if link not in model.link_names:
            raise MotionError(f"foot {key!r}: {link!r} is not a link of the model "
                              f"'{model.name}'")
        out[key] = pos[:, model.link_names.index(link)]
    return out


def midfoot_positions(model, q, links):
    """{foot: (N, 3)} world positions of each foot's mid-foot, by forward kinematics: midway
    between the foot link's origin and the origin of the link its joints carry (an OpenSim
    model's calcn_r -> toes_r: heel to metatarsal heads; the mean of them if several), the
    link's origin alone when it carries none (a one-link URDF foot).

    Parameters
    ----------
    model : urdf2dyn.Model
    q : array_like, shape (N, nq)
        The motion at the plates' sample times.
    links : dict
        {foot key: link name}, e.g. {"R": "calcn_r", "L": "calcn_l"}.
    """
    heel = foot_positions(model, q, links)
    out = {}
    for key, link in links.items():
        distal = [j.child for j in model.joints if j.parent == link]
        if not distal:
            out[key] = heel[key]
            continue
        toes = foot_positions(model, q, {c: c for c in distal})
        out[key] = (heel[key] + np.mean([toes[c] for c in distal], axis=0)) / 2
    return out


def combine_wrenches(forces, cops, moments, normal, point):
    """The single force, centre of pressure and free moment equivalent to several, on the
    plane through ``point`` with unit ``normal``.

    Each argument but the last two is a list of (N, 3) arrays (NaN centre of pressure = that
    load is absent). The net moment about ``point`` is M = sum (p_i - point) × F_i + T_i; the
    combined centre of pressure is point + r with r = (n × M) / (n · F) (the point of the plane
    about which the moment is along n) and the free moment is (n · (M - r × F)) n."""
    n = np.asarray(normal, dtype=float)
    f = np.zeros_like(forces[0])
    m = np.zeros_like(forces[0])
    for fi, pi, ti in zip(forces, cops, moments):
        ok = np.all(np.isfinite(pi), axis=1)
        f[ok] += fi[ok]
        m[ok] += np.cross(pi[ok] - point, fi[ok]) + ti[ok]
    fn = f @ n
    with np.errstate(all="ignore"):
        r = np.cross(n, m) / fn[:, None]
        tau = np.einsum("ij,j->i", m - np.cross(r, f), n)
    cop = np.where((np.abs(fn) > 0)[:, None], point + r, np.nan)
    return f, cop, np.where(np.isfinite(cop[:, :1]), tau[:, None] * n, 0.0)


def assign_plates(plates, feet, max_distance=0.25, strict=False, source=""):
    """Apply each plate's contacts to the nearest foot.

    Parameters
    ----------
    plates : list of urdf2dyn.biomech.formats.Plate
        All on one time axis (read at the marker rate).
    feet : dict
        {foot key: (N, 3) positions} at the plates' sample times, in the plates' frame (from
        :func:`foot_positions`, or a marker: ``{"R": markers.marker("R_HEE"), ...}``; NaN
        samples are skipped).
    max_distance : float
        m; a contact whose nearest foot stays farther from its centre of pressure (median
        over the contact) is applied to no foot.
    strict : bool
        Raise MotionError instead of warning.
    source : str
        Named in the messages (e.g. the C3D file).

    Returns
    -------
    Trajectory
        No coordinates; ``grf``, ``cop``, ``moment`` per foot key (N, 3) in the plates' frame
        (N, m, N·m; NaN centre of pressure where the foot touches no plate), ready for
        ``traj.f_ext(links)``; ``meta["contacts"]``: [(plate, first time, last time, foot or
        None)].
    """
    if not plates:
        raise MotionError(f"{source}: no force plates to assign")
    time = plates[0].time
    n = len(time)
    for p in plates:
        if len(p.time) != n:
            raise MotionError(f"{source}: the plates have different sample counts")
    keys = list(feet)
    pos = {}
    for k in keys:
        x = np.asarray(feet[k], dtype=float)
        if x.shape != (n, 3):
            raise ValueError(f"feet[{k!r}]: expected shape ({n}, 3) (the plates' samples), got "
                             f"{x.shape}")
        pos[k] = x
    where = in_file(source)
    owner = {k: [] for k in keys}          # foot -> [(plate, first, last)]
    contacts = []
    for p in plates:
        for a, b in p.contacts():
            span = f"t = {time[a]:.3f}-{time[b]:.3f} s"
            dist = {}
            for k in keys:
                d = np.linalg.norm(pos[k][a:b + 1] - p.cop[a:b + 1], axis=1)
                d = d[np.isfinite(d)]
                if len(d):
                    dist[k] = float(np.median(d))
            if not dist:
                report(f"{where}force plate {p.number}, {span}: no foot position is known "
                       "during this contact; its load was left out", strict=strict,
                       error=MotionError)
                contacts.append((p.number, time[a], time[b], None))
                continue
            foot = min(dist, key=dist.get)
            if dist[foot] > max_distance:
                report(f"{where}force plate {p.number}, {span}: no foot within "
                       f"{max_distance:g} m of the centre of pressure (nearest: {foot!r} at "
                       f"{dist[foot]:.3f} m); its load was left out. Another body on the "
                       "plate, or a foot off its edge?", strict=strict, error=MotionError)
                contacts.append((p.number, time[a], time[b], None))
                continue
            owner[foot].append((p, a, b))
            contacts.append((p.number, time[a], time[b], foot))
    grf, cop, mom = {}, {}, {}
    for k in keys:
        on = {}
        for p, a, b in owner[k]:
            on.setdefault(p.number, (p, np.zeros(n, dtype=bool)))[1][a:b + 1] = True
        masks = [m for _, m in on.values()]
        if len(masks) > 1:
            both = np.sum(masks, axis=0) > 1
            if both.any():
                i = np.flatnonzero(both)
                report(f"{where}foot {k!r} stands on force plates "
                       f"{sorted(on)} at once at t = {time[i[0]]:.3f}-{time[i[-1]]:.3f} s (a "
                       "step touching two plates): their loads were added", strict=strict,
                       error=MotionError)
        fs, ps, ts = [], [], []
        for p, m in on.values():
            fs.append(np.where(m[:, None], p.force, 0.0))
            ps.append(np.where(m[:, None], p.cop, np.nan))
            ts.append(np.where(m[:, None], p.moment, 0.0))
        if not fs:
            grf[k], cop[k], mom[k] = np.zeros((n, 3)), np.full((n, 3), np.nan), np.zeros((n, 3))
            continue
        ref = next(iter(on.values()))[0]
        f, c, t = combine_wrenches(fs, ps, ts, ref.normal, ref.corners.mean(axis=0))
        grf[k], cop[k], mom[k] = f, c, t
    return Trajectory(time, np.zeros((n, 0)), [], grf=grf, cop=cop, moment=mom,
                      meta={"source": source, "contacts": contacts})
