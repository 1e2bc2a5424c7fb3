"""The loads stage: a trial's external loads, whatever their source, as one :class:`Loads`.

Sources (TrialSettings.loads): an OpenSim ExternalLoads file (its forces, points and frames,
interpolated as the trial's processing says), a ground-reaction file or Trajectory, a C3D's
force plates (each contact applied to the foot standing on it; at the analog rate unless
``plate_rate`` is "marker"), or the motion file's own ground-reaction columns; by default the
recording's plates or columns, else none. Ground reactions have their gaps filled and become
wrenches on the contact links at the motion's times (urdf2dyn.biomech.grf.external_loads).

Filtering, the same for every source: OpenSim's processing splines the force, centre of
pressure and free moment at the motion's times as its tool splines an ExternalLoads data file,
and never filters them: OpenSim's InverseDynamicsTool takes the forces as given (its
ExternalLoads' ``lowpass_cutoff_frequency_for_load_kinematics`` filtered the *kinematics* used
to re-express points given in ground in the body they act on, and OpenSim 4 reads it and
ignores it). urdf2dyn's processing filters the loads themselves like the coordinates
(Kristianslund et al. 2012) unless ``filter_loads`` is off: the wrenches at the loads' own
samples (an ExternalLoads file's too, formed at its data's times), filtered at the loads' own
rate and then sampled at the motion's times, by one function (grf.sample_wrenches).

A new source: a class beside those of urdf2dyn.biomech.stages.settings, and one branch in
:func:`_reactions` (ground reactions per foot) or :func:`loads` (wrenches directly).
"""
import os
import warnings
from dataclasses import replace

import numpy as np

from ...warn import Urdf2dynWarning
from .. import grf as G
from ..formats.opensim import read_external_loads
from ..gait import CONTACT_THRESHOLD
from ..plates import assign_plates, midfoot_positions
from ..processing import fill_load_gaps
from ..trajectory import Trajectory
from .settings import ExternalLoadsFile, ForcePlates, GroundReactions, MotionColumns
from .trial import Loads, Trial, need

__all__ = ["loads"]


def loads(trial: Trial) -> Trial:
    """The trial with its :class:`Loads`."""
    s, model, kin = trial.settings, trial.model, need(trial.kinematics, "kinematics")
    if isinstance(s.loads, ExternalLoadsFile):
        f_ext, filtered = _external_loads(trial)
        found = Loads(f_ext, None, s.loads.path, "external loads", filtered=filtered)
    else:
        reactions, where, kind, links = _reactions(trial)
        found = Loads()
        if reactions is not None:
            if kind != "motion columns":        # their own clock: the motion's?
                G.check_times(reactions.time, kin.t, where)
            reactions, filled = _fill_reaction_gaps(reactions, s.max_gap, where, trial.warn,
                                                      s.columns_named)
            cutoff = kin.filter_hz if _filtered(trial) else None
            f_ext = G.external_loads(reactions, model, time=kin.t, links=links,
                                     interpolation=s.processing.load_interpolation,
                                     filter_hz=cutoff, filter_named=s.filter_named_in(where),
                                     columns_named=s.columns_named)
            found = Loads(f_ext, reactions, where, kind, filled, cutoff is not None)
    return replace(trial, loads=found)


def _external_loads(trial):
    """(f_ext at the kinematics' times, whether filtered) of the trial's ExternalLoads file.

    OpenSim's processing: each quantity a natural cubic spline at the motion's times, never
    filtered. urdf2dyn's: the wrenches formed at the data file's own times, then filtered and
    sampled by grf.sample_wrenches, as ground reactions are. Quantities expressed in a body
    need the pose at those times: the coordinates are linearly interpolated there, and only
    the data samples spanning the motion are used (the coordinates are known nowhere else)."""
    s, model, kin = trial.settings, trial.model, trial.kinematics
    data = s.loads.loads if s.loads.loads is not None else read_external_loads(s.loads.path)
    G.check_times(data.time, kin.t, data.datafile)
    if s.processing.load_interpolation == "spline":
        return data.wrenches(model, kin.t, kin.q, links=s.contact_links,
                             interpolation="spline"), False
    data.check_cover(kin.t)
    tr = data.time
    if data.needs_kinematics(s.contact_links):
        step = (tr[-1] - tr[0]) / max(len(tr) - 1, 1)
        tr = tr[(tr >= kin.t[0] - 1.5 * step) & (tr <= kin.t[-1] + 1.5 * step)]
    q = _at(tr, kin.t, kin.q)
    f_ext = data.wrenches(model, tr, q, links=s.contact_links, interpolation="linear")
    cutoff = kin.filter_hz if _filtered(trial) else None
    named = s.filter_named_in(data.datafile)
    return G.sample_wrenches(tr, f_ext, kin.t, cutoff, named), cutoff is not None


def _filtered(trial):
    """Whether the trial's loads are low-pass filtered like its coordinates."""
    s, kin = trial.settings, trial.kinematics
    return kin.filter_hz is not None and s.filter_loads and s.processing.filters_loads


def _reactions(trial):
    """(ground reactions Trajectory, where from, kind, contact links {key: link} or None for
    the default ones) of the trial's loads source, gaps not yet filled; None for each when the
    trial has none."""
    s, motion = trial.settings, need(trial.motion, "motion")
    source = s.loads
    if source is None:                       # what the recording carries
        source = ForcePlates() if motion.plates else (
            MotionColumns() if motion.trajectory.grf else None)
    if isinstance(source, GroundReactions):
        given = source.source
        csv = isinstance(given, (str, os.PathLike)) and os.fspath(given).lower().endswith(".csv")
        # csv_options hold the caller's options (named) beside the CSV separators
        reactions = G.read_grf(replace(given) if isinstance(given, Trajectory) else given,
                               **(s.csv_options if csv else {"named": s.columns_named}))
        where = os.fspath(given) if isinstance(given, (str, os.PathLike)) else "trajectory"
        return reactions, where, "ground reactions", s.contact_links
    if isinstance(source, ForcePlates):
        feet = G.contact_links(["R", "L"], trial.model, s.contact_links, s.columns_named)
        positions = midfoot_positions(trial.model, motion.trajectory.q, feet)
        times = motion.plates[0].time if motion.plates else motion.trajectory.time
        positions = {k: _at(times, motion.trajectory.time, x) for k, x in positions.items()}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", Urdf2dynWarning)
            reactions = assign_plates(motion.plates or [], positions, strict=s.strict,
                                      source=motion.source)
        for w in caught:
            trial.warn(str(w.message))
        return reactions, f"{motion.source} (force plates)", "force plates", feet
    if isinstance(source, MotionColumns):
        traj = motion.trajectory
        return traj, motion.source, "motion columns", s.contact_links
    return None, None, None, None


def _at(times, t, x):
    """x (N, 3) sampled at t, linearly interpolated at times (the plates' samples)."""
    if len(times) == len(t) and np.array_equal(times, t):
        return x
    return np.column_stack([np.interp(times, t, x[:, c]) for c in range(x.shape[1])])


def _fill_reaction_gaps(reactions, max_gap, source, warn, named):
    """(a copy of reactions with the gaps of each foot's force, CoP and free moment filled,
    the gaps filled as text); a refusal advises the caller's options as named says."""
    reactions = replace(reactions, grf=dict(reactions.grf), cop=dict(reactions.cop),
                        moment=dict(reactions.moment))
    filled_all = []
    for key in sorted(reactions.grf):
        F, P, M, filled, more = fill_load_gaps(
            reactions.time, reactions.grf[key], reactions.cop[key], reactions.moment.get(key),
            key=key, max_gap=max_gap, threshold=CONTACT_THRESHOLD, source=source,
            named=named)
        reactions.grf[key], reactions.cop[key] = F, P
        if M is not None:
            reactions.moment[key] = M
        if filled:
            filled_all += [str(g) for g in filled]
            warn(f"{source}: filled {len(filled)} gap(s) in the ground reaction {key!r} by "
                 "cubic interpolation: " + "; ".join(str(g) for g in filled))
        for msg in more:
            warn(msg)
    return reactions, tuple(filled_all)
