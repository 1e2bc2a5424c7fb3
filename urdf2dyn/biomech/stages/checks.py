"""The checks stage: the plausibility of a processed trial, for every model.

Each check is a function ``check(trial) -> [Finding]`` listed in :data:`CHECKS`: a warning
when the data look wrong (reported as urdf2dyn.Urdf2dynWarning, an error under strict), a note
when the check cannot run on this trial and why (kept in the result, never silently nothing).
Their arithmetic and thresholds are urdf2dyn.biomech.plausibility's.

A new check: a function here, taking the trial (every stage's result is in it: ``motion``,
``kinematics``, ``loads``, ``dynamics``) and returning findings, added to :data:`CHECKS`.
"""
from dataclasses import replace

import numpy as np

from .. import grf as G
from .. import plausibility
from ..gait import CONTACT_THRESHOLD
from .trial import Finding, Trial

__all__ = ["checks", "CHECKS", "opensim_axes", "units", "joint_limits",
           "steps", "arc_switches", "couplers", "sampling", "gravity",
           "residuals", "cop_distance", "missing_loads", "light_loads", "ik_fit", "ik_ranges",
           "unfiltered", "weightless"]


def checks(trial: Trial) -> Trial:
    """The trial with the findings of every check (none when settings.checks is off); each
    warning is reported as it is found."""
    if not trial.settings.checks:
        return trial
    found = []
    for check in CHECKS:
        for finding in check(trial):
            if finding.severity == "warning":
                trial.warn(finding.message)
            found.append(finding)
    return replace(trial, findings=trial.findings + tuple(found))


def _warnings(check, messages):
    return [Finding(check, m) for m in messages]


def opensim_axes(trial):
    """A URDF model with gravity along z on an OpenSim (y-up) motion file."""
    return _warnings("opensim_axes", plausibility.opensim_axes(
        trial.model, trial.motion.trajectory.meta, trial.motion.source,
        trial.settings.columns_named))


def units(trial):
    """Angles that look like degrees read as radians, or the other way round."""
    m = trial.motion
    if m.ik is not None:                  # fitted to markers: radians by construction
        return []
    degrees = bool(trial.settings.degrees) or m.units.startswith("degrees")
    return _warnings("units", plausibility.units(trial.model, trial.kinematics.measured_q,
                                                 degrees, m.source, trial.settings.columns_named))


def joint_limits(trial):
    """Coordinates beyond their joint limits."""
    k = trial.kinematics
    return _warnings("joint_limits", plausibility.joint_limits(
        trial.model, k.measured_t, k.measured_q, trial.motion.source))


def steps(trial):
    """Joint coordinates stepping by more than half a turn between two samples; not said
    of angles that look like degrees read as radians (the units check says what that is)."""
    if units(trial):
        return []
    k = trial.kinematics
    return _warnings("steps", plausibility.steps(trial.model, k.measured_t, k.measured_q,
                                                 trial.motion.source))


def arc_switches(trial):
    """ConstantCurvatureJoints crossing OpenSim's switch between arc and straight segment."""
    k = trial.kinematics
    return _warnings("arc_switches", plausibility.arc_switches(
        trial.model, k.measured_t, k.measured_q, trial.motion.source))


def couplers(trial):
    """Couplers' dependent coordinates written off their constraint's function."""
    m, k = trial.motion, trial.kinematics
    if m.ik is not None:                  # fitted to markers: the couplers hold
        return []
    return _warnings("couplers", plausibility.couplers(
        trial.model, k.measured_t, k.measured_q, set(m.trajectory.names), m.source,
        trial.settings.columns_named))


def sampling(trial):
    """Ground reactions sampled at a rate that is not a multiple of the motion's, or over a
    shorter time."""
    loads = trial.loads
    if loads.reactions is None:
        return []
    own = loads.kind == "motion columns"
    return _warnings("sampling", plausibility.sampling(
        trial.kinematics.t, None if own else loads.reactions.time, loads.source,
        force_rate=loads.reactions.meta.get("force_frame_rate")))


def gravity(trial):
    """The vertical the loads hold the body along, against the model's gravity."""
    d, m = trial.dynamics, trial.motion
    if not trial.loads.f_ext or d.residuals is None:     # no residuals: the residuals check
        return []                                         # says why
    rotation = (trial.settings.rotation or "") if m.ik is not None else None
    k, loads = trial.kinematics, trial.loads
    return _warnings("gravity", plausibility.gravity(
        trial.model, k.t, d.residuals.force, m.source, rotation, q=k.q, f_ext=loads.f_ext,
        loads_source=loads.source, named=trial.settings.columns_named))


def residuals(trial):
    """The root residuals against Hicks et al. (2015), about the centre of mass; skipped when
    the gravity check finds the wrong vertical (the residuals then say that first)."""
    model, k, loads, d = trial.model, trial.kinematics, trial.loads, trial.dynamics
    if d.residuals is None:
        return [Finding("residuals", f"{trial.motion.source}: no root residuals, so neither "
                        f"they nor the gravity are checked: {d.no_residuals}", "note")]
    if not loads.f_ext or gravity(trial):
        return []
    peak = float(np.linalg.norm(sum(loads.f_ext.values())[:, :3], axis=1).max())
    com = model.center_of_mass(k.q)
    r = d.residuals                                 # shifted from the root origin to the CoM
    res_com = G.Residuals(r.force, r.moment + np.cross(r.point - com, r.force), com,
                          r.generalized, r.names, "com")
    return _warnings("residuals", plausibility.residuals(
        model, k.t, res_com, peak, _com_height(model, com, loads.reactions),
        trial.motion.source))


def cop_distance(trial):
    """Loads far from the feet they are applied to, at the motion's samples (from the
    wrenches applied: any loads' source and rate)."""
    k, loads = trial.kinematics, trial.loads
    if not loads.f_ext:
        return []
    names = None
    if loads.reactions is not None:
        try:
            links = G.contact_links(sorted(loads.reactions.grf), trial.model,
                                    trial.settings.contact_links)
            names = {link: key for key, link in links.items()}
        except ValueError:
            names = None
    return _warnings("cop_distance", plausibility.cop_distance(
        trial.model, k.t, k.q, loads.f_ext, loads.source, CONTACT_THRESHOLD, names,
        trial.settings.columns_named))


def missing_loads(trial):
    """No loads on a trial whose feet step (walking, running): none given, or none that ever
    bears weight (plates never in contact)."""
    f_ext = trial.loads.f_ext
    if f_ext and max(float(np.nanmax(np.linalg.norm(np.asarray(w)[:, :3], axis=1),
                                     initial=0.0)) for w in f_ext.values()) > CONTACT_THRESHOLD:
        return []
    try:
        feet = G.contact_links(["R", "L"], trial.model, trial.settings.contact_links)
    except ValueError:                              # no feet: nothing stands on the floor
        return []
    k = trial.kinematics
    given = trial.loads.source if f_ext else None
    return _warnings("missing_loads", plausibility.missing_loads(
        trial.model, k.t, k.q, feet, trial.motion.source, given, trial.settings.columns_named))


def light_loads(trial):
    """Loads that never hold up half the weight of a body with feet and root residuals
    (skipped where the missing-loads check finds loads that bear no weight at all, or the
    gravity check a vertical that is not the data's: they say so; a fixed base, which the
    world holds, or a robot without feet, whose loads are a tool's, need no load to stand)."""
    f_ext = trial.loads.f_ext
    if (not f_ext or trial.dynamics.residuals is None or missing_loads(trial)
            or gravity(trial)):
        return []
    try:
        G.contact_links(["R", "L"], trial.model, trial.settings.contact_links)
    except ValueError:           # no feet: a robot's loads (a tool's force) hold nothing up
        return []
    return _warnings("light_loads", plausibility.light_loads(trial.model, f_ext,
                                                             trial.loads.source))


def ik_fit(trial):
    """Inverse kinematics' marker errors above OpenSim's best-practice bands."""
    m, k = trial.motion, trial.kinematics
    if m.ik is None:
        return []
    rows = np.isin(m.trajectory.time, k.t)
    return _warnings("ik_fit", plausibility.ik_fit(
        m.trajectory.time[rows], np.asarray(m.ik.rms)[rows], np.asarray(m.ik.max)[rows],
        list(np.asarray(m.ik.worst, dtype=object)[rows]), m.source,
        plausibility.ik_fit_advice(trial.settings.columns_named)))


def ik_ranges(trial):
    """Inverse kinematics taking an unclamped .osim coordinate beyond its range (the frames
    fitted, as urdf2dyn ik says it)."""
    m, k = trial.motion, trial.kinematics
    if m.ik is None:
        return []
    return _warnings("ik_ranges", plausibility.ik_ranges(trial.model, k.measured_t,
                                                         k.measured_q, m.source))


def unfiltered(trial):
    """Coordinates fitted to markers, differentiated unfiltered."""
    if trial.motion.ik is None or trial.kinematics.filter_hz is not None:
        return []
    return _warnings("unfiltered", plausibility.unfiltered(trial.motion.source,
                                                           trial.settings.columns_named))


#: Every check, in the order they run (and warn).
def weightless(trial):
    """Gravity parallel to every joint axis: no joint carries weight."""
    return _warnings("weightless", plausibility.weightless(trial.model, trial.kinematics.q,
                                                           trial.motion.source,
                                                           trial.settings.columns_named))


CHECKS = (opensim_axes, units, joint_limits, steps, arc_switches, couplers, unfiltered, ik_fit,
          ik_ranges,
          sampling, missing_loads, light_loads, gravity, residuals, cop_distance, weightless)


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
