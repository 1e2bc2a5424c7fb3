"""Motion analysis: recorded human (or robot) motion to joint torques, on the rigid-body
dynamics of :mod:`urdf2dyn`.

* :mod:`.trajectory`: the :class:`Trajectory` every reader returns and the column conventions;
* :mod:`.formats`: one module per file format (CSV/DataFrame, OpenSim, HuMoD .mat, torques);
* :mod:`.processing`: signal processing (gaps, low-pass filter, derivatives), with
  :mod:`.opensim_processing` (OpenSim's) and :mod:`.splines` (natural splines);
* :mod:`.pipeline`: the per-trial job :func:`inverse_dynamics_trial` and :func:`run_trials`,
  which conduct the trial's passes in :mod:`.stages` (read, kinematics, loads, checks);
* :mod:`.grf`: ground reactions applied to the feet, root residuals;
* :mod:`.gait`: gait events, cycle averages, sagittal moments, normalized angular momentum;
* :mod:`.plausibility`: checks of a processed trial (units, limits, residuals, CoP, sampling);
* :mod:`.human`: the 36-DoF human body model (de Leva 1996, HuMoD's joints);
* :mod:`.opensim_model`: URDF models out to OpenSim;
* :mod:`.plot`: the figures of the command line and the notebooks.
"""
from typing import TYPE_CHECKING

from .._lazy import lazy_names
from ..warn import MotionError

# imported when first used (urdf2dyn._lazy)
__getattr__, __dir__ = lazy_names(__name__, {
    "formats": ".formats", "read": ".formats:read", "write": ".formats:write",
    "human": ".human:human", "human_model": ".human:human_model",
    "humod_subject": ".human:humod_subject",
    "TrialResult": ".pipeline:TrialResult",
    "inverse_dynamics_setup": ".pipeline:inverse_dynamics_setup",
    "inverse_dynamics_trial": ".pipeline:inverse_dynamics_trial",
    "run_trials": ".pipeline:run_trials", "Trajectory": ".trajectory:Trajectory"})
if TYPE_CHECKING:                       # what type checkers see of the names above
    from . import formats
    from .formats import read, write
    from .human import human, human_model, humod_subject
    from .pipeline import TrialResult, inverse_dynamics_setup, inverse_dynamics_trial, run_trials
    from .trajectory import Trajectory

__all__ = ["formats", "read", "write", "Trajectory", "MotionError", "human", "human_model",
           "humod_subject", "inverse_dynamics_trial", "inverse_dynamics_setup", "run_trials",
           "TrialResult"]
