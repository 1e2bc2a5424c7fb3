"""The residual reduction pass, after dynamics: when the settings ask for it
(``TrialSettings.residuals``), the trial's kinematics are corrected (and its total mass and a
body's mass centre adjusted) until its root residuals are small (urdf2dyn.biomech.residuals),
and the trial returns with those kinematics, their dynamics and the reduction's result."""
from dataclasses import replace

from .. import grf as G
from ..residuals import reduce_residuals
from .trial import Dynamics, Trial, need

__all__ = ["residuals"]


def residuals(trial: Trial) -> Trial:
    """The trial made dynamically consistent: new :class:`Kinematics` (q, v, a adjusted),
    :class:`Dynamics` (tau and the root residuals of the adjusted motion and model) and
    ``reduction`` (urdf2dyn.biomech.residuals.ResidualReduction: residuals before and after,
    mass scale, mass-centre shift, each coordinate's change). Unchanged when
    ``settings.residuals`` is None. The model object is not changed: the reduction's
    inertial parameters are the adjusted model's."""
    wanted = trial.settings.residuals
    if wanted is None:
        return trial
    model, kin = trial.model, need(trial.kinematics, "kinematics")
    loads, dyn = need(trial.loads, "loads"), need(trial.dynamics, "dynamics")
    source = need(trial.motion, "motion").source
    if not loads.f_ext:
        raise ValueError(f"{source}: residual reduction needs the trial's external loads "
                         f"({trial.settings.columns_named.ways_to_give_loads()}): without "
                         "them the residuals are the whole load")
    red = reduce_residuals(model, kin.t, kin.q, kin.v, kin.a, loads.f_ext,
                           tracking=None if wanted.tracking is None else dict(wanted.tracking),
                           com_body=wanted.com_body, adjust_mass=wanted.mass,
                           knot_interval=wanted.knot_interval, strict=trial.settings.strict)
    trial.warnings.extend(red.notes)          # reported already, kept with the trial's
    root = None if dyn.no_residuals else G.root_residuals(model, red.q, red.tau)
    return replace(trial, kinematics=replace(kin, q=red.q, v=red.v, a=red.a),
                   dynamics=Dynamics(red.tau, root, dyn.no_residuals), reduction=red)
