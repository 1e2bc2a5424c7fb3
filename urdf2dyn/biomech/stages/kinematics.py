"""The kinematics stage: the coordinates' gaps filled, then the trial's processing
(urdf2dyn's filter and derivative estimator, or OpenSim's) and its time range."""
from dataclasses import replace

from ..processing import fill_gaps
from .trial import Kinematics, Trial, need

__all__ = ["kinematics"]


def kinematics(trial: Trial) -> Trial:
    """The trial with its :class:`Kinematics` (t, q, v, a as the dynamics use them)."""
    s, model, motion = trial.settings, trial.model, need(trial.motion, "motion")
    source, traj = motion.source, motion.trajectory
    # gaps in the coordinates (and in given rates), before anything spreads them
    q, filled = fill_gaps(traj.time, traj.q, traj.names, s.max_gap, source, s.columns_named)
    rates = {}
    for key, suffix in (("v", "_vel"), ("a", "_acc")):
        x = getattr(traj, key)
        if x is not None:
            x, more = fill_gaps(traj.time, x, [f"{n}{suffix}" for n in traj.v_names],
                                s.max_gap, source, s.columns_named)
            filled += more
        rates[key] = x
    if filled:
        trial.warn(f"{source}: filled {len(filled)} gap(s) of at most {s.max_gap} missing "
                   f"samples by cubic interpolation: " + "; ".join(str(g) for g in filled[:10])
                   + (f"; and {len(filled) - 10} more" if len(filled) > 10 else ""))
    t, q, v, a = replace(traj, q=q, **rates).for_model(model)
    measured_t, measured_q = t, q
    time_range = s.time_range
    if time_range is None and motion.ik is not None:
        # a marker recording's rows are its frames fitted, whatever the processing pads
        # (OpenSim's tool writes its padded rows for a coordinates file without a range)
        time_range = (float(t[0]), float(t[-1]))
    t, q, v, a, how, cutoff = s.processing.kinematics(
        model, t, q, v, a, filter_hz=s.filter_hz, derivatives=s.derivatives,
        time_range=time_range, source=source, warn=trial.warn,
        filter_named=s.filter_named_in(source), columns_named=s.columns_named)
    note = s.processing.padding(t, float(measured_t[0]), float(measured_t[-1]), source,
                                s.columns_named)
    if note:
        trial.warn(note)
    return replace(trial, kinematics=Kinematics(t, q, v, a, measured_t, measured_q,
                                                tuple(str(g) for g in filled), how, cutoff))
