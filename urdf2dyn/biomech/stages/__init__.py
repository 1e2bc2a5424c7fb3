"""The trial's passes, one module each, each a function ``Trial -> Trial`` adding its typed
result (urdf2dyn.biomech.stages.trial):

=============  ======================================  ====================================
stage          reads                                   returns
=============  ======================================  ====================================
scale          settings.scale (a ScaleTool setup, a    the trial with the model scaled to
               static trial), the model                the subject; Scaled: its report
read           the source (coordinates file,           Motion: coordinates, units; IK
               Trajectory, DataFrame; C3D/.trc         solution, markers and plates of a
               markers through IK), the model          marker recording
kinematics     Motion                                  Kinematics: t, q, v, a (gaps,
                                                       filter, derivatives, time range)
loads          Motion, Kinematics, the loads' source   Loads: f_ext {link: (N, 6)},
                                                       reactions, where from
dynamics       Kinematics, Loads                       Dynamics: tau, root residuals (or
                                                       why none)
residuals      Kinematics, Loads, Dynamics             (when settings.residuals asks) new
                                                       Kinematics and Dynamics, and the
                                                       ResidualReduction
checks         every result                            Findings (warnings, notes)
=============  ======================================  ====================================

:data:`PASSES` is their order; urdf2dyn.biomech.pipeline.inverse_dynamics_trial runs them on a
:class:`Trial` made of the model, the motion and its :class:`TrialSettings`. How to add a
pass, a check or a load source: docs/layout.rst.
"""
from .checks import CHECKS, checks
from .dynamics import dynamics
from .kinematics import kinematics
from .loads import loads
from .read import read
from .residuals import residuals
from .scale import scale
from .settings import (ExternalLoadsFile, ForcePlates, GroundReactions, MotionColumns, Scaling,
                       TrialSettings)
from .trial import Dynamics, Finding, Kinematics, Loads, Motion, Scaled, Trial

__all__ = ["PASSES", "run", "scale", "read", "kinematics", "loads", "dynamics", "residuals",
           "checks", "CHECKS", "Trial", "TrialSettings", "Motion", "Kinematics", "Loads",
           "Dynamics", "Finding", "Scaled", "Scaling", "GroundReactions", "ExternalLoadsFile",
           "ForcePlates", "MotionColumns"]

#: The passes of a trial, in order: scale (which does nothing unless the settings ask) goes
#: first, residuals (likewise) reduces the residuals after dynamics.
PASSES = (scale, read, kinematics, loads, dynamics, residuals, checks)


def run(model, source, settings=None, passes=PASSES) -> Trial:
    """The :class:`Trial` of ``source`` (a path, Trajectory or DataFrame) on ``model`` after
    ``passes`` (default every pass, in order)."""
    trial = Trial(model, source, TrialSettings() if settings is None else settings)
    for stage in passes:
        trial = stage(trial)
    return trial
