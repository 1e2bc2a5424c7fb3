"""The dynamics stage: inverse dynamics with the external loads, and the root residuals."""
from dataclasses import replace

import numpy as np

from .. import grf as G
from .trial import Dynamics, Trial, need

__all__ = ["dynamics"]


def dynamics(trial: Trial) -> Trial:
    """The trial with its :class:`Dynamics`: tau = ID(q, v, a, f_ext); the root residuals for
    a model whose root is free or planar (urdf2dyn.biomech.grf.root_residuals), else the
    reason there are none."""
    model, kin = trial.model, need(trial.kinematics, "kinematics")
    loads, source = need(trial.loads, "loads"), need(trial.motion, "motion").source
    tau = model.inverse_dynamics(kin.q, kin.v, kin.a, f_ext=loads.f_ext)
    bad = np.flatnonzero(~np.all(np.isfinite(tau), axis=1))
    if len(bad):        # NaN in, NaN out: say where, and what to look at
        rows = ", ".join(str(k + 1) for k in bad[:8]) + (" ..." if len(bad) > 8 else "")
        q = kin.q
        big = float(np.nanmax(np.abs(np.where(np.isfinite(q), q, np.nan)), initial=0.0))
        trial.warn(f"{source}: the torques are not finite at {len(bad)} of "
                   f"{len(kin.t)} samples (data rows {rows}): a coordinate, velocity, "
                   "acceleration or load there is NaN, infinite or too large to differentiate "
                   f"(largest |coordinate| {big:g}); fix those rows or cut the trial")
    named = trial.settings.columns_named
    if trial.settings.processing.name == "opensim":
        # its one coordinate per degree of freedom refuses a floating joint's quaternion
        named = named._replace(floating_base=None)
    why = G.root_problem(model, named)
    residuals = None if why else G.root_residuals(model, kin.q, tau)
    return replace(trial, dynamics=Dynamics(tau, residuals, why))
