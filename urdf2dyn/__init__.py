"""urdf2dyn: rigid-body dynamics from URDF over whole trajectories, with a C core.

Two halves: rigid-body dynamics for any URDF at the top of the package (model, forces,
frames, centroidal, identification, simulation, code generation), and the analysis of recorded
motion in :mod:`urdf2dyn.biomech` (file formats, signal processing, the trial pipeline, ground
reactions, gait, the human model). The functions called most are here.

    >>> import urdf2dyn
    >>> model = urdf2dyn.load("robot.urdf")
    >>> tau = model.inverse_dynamics(q, v, a)      # (N, nq), (N, nv), (N, nv) -> (N, nv)
"""
try:
    from ._core import URDFError
except ModuleNotFoundError as _missing:
    if _missing.name != "urdf2dyn._core":
        raise
    from ._source_tree import explain_missing_core
    raise ImportError(explain_missing_core(__file__)) from None
from typing import TYPE_CHECKING

from ._lazy import lazy_names
from .batch import (available_simd_paths, get_num_threads, set_num_threads, set_simd_path,
                    simd_path)
from .bundled import data_path
from .forces import wrench_at_point
from .identify import base_parameters, identify
from .model import Joint, Model, load
from .simulate import simulate
from .urdf_findings import check
from .warn import MotionError, URDFWarning, Urdf2dynWarning

# the analysis of recorded motion and the code generator are imported when first used: a
# command pays only for the part it runs (urdf2dyn._lazy)
__getattr__, __dir__ = lazy_names(__name__, {
    "biomech": ".biomech", "codegen": ".codegen",
    "Trajectory": ".biomech.trajectory:Trajectory",
    "human": ".biomech.human:human", "human_model": ".biomech.human:human_model",
    "humod_subject": ".biomech.human:humod_subject",
    "TrialResult": ".biomech.pipeline:TrialResult",
    "inverse_dynamics_trial": ".biomech.pipeline:inverse_dynamics_trial",
    "inverse_dynamics_setup": ".biomech.pipeline:inverse_dynamics_setup",
    "run_trials": ".biomech.pipeline:run_trials",
    "animate": ".biomech.animate:animate_trial",
    "normalized_angular_momentum": ".biomech.gait:normalized_angular_momentum"})
if TYPE_CHECKING:                       # what type checkers see of the names above
    from . import biomech, codegen
    from .biomech.animate import animate_trial as animate
    from .biomech.gait import normalized_angular_momentum
    from .biomech.human import human, human_model, humod_subject
    from .biomech.pipeline import (TrialResult, inverse_dynamics_setup, inverse_dynamics_trial,
                                   run_trials)
    from .biomech.trajectory import Trajectory

from ._version import __version__

__all__ = ["load", "Model", "Joint", "URDFError", "wrench_at_point", "get_num_threads",
           "set_num_threads", "simulate", "data_path", "human", "human_model",
           "humod_subject", "biomech", "Trajectory", "MotionError", "Urdf2dynWarning", "URDFWarning", "codegen",
           "inverse_dynamics_trial", "inverse_dynamics_setup", "run_trials", "TrialResult",
           "identify", "base_parameters", "normalized_angular_momentum",
           "check", "simd_path", "set_simd_path", "available_simd_paths", "animate"]

