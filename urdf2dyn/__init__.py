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
from .urdf_findings import check
from .forces import wrench_at_point
from . import biomech, codegen
from .biomech import (MotionError, Trajectory, TrialResult, human, human_model, humod_subject,
                      inverse_dynamics_trial, inverse_dynamics_setup, run_trials)
from .batch import (available_simd_paths, get_num_threads, set_num_threads, set_simd_path,
                    simd_path)
from .bundled import data_path
from .biomech.animate import animate_trial as animate
from .biomech.gait import normalized_angular_momentum
from .identify import base_parameters, identify
from .model import Joint, Model, load
from .simulate import simulate
from .warn import URDFWarning, Urdf2dynWarning

from ._version import __version__

__all__ = ["load", "Model", "Joint", "URDFError", "wrench_at_point", "get_num_threads",
           "set_num_threads", "simulate", "data_path", "human", "human_model",
           "humod_subject", "biomech", "Trajectory", "MotionError", "Urdf2dynWarning", "URDFWarning", "codegen",
           "inverse_dynamics_trial", "inverse_dynamics_setup", "run_trials", "TrialResult",
           "identify", "base_parameters", "normalized_angular_momentum",
           "check", "simd_path", "set_simd_path", "available_simd_paths", "animate"]

