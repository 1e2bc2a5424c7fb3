"""urdf2dyn: rigid-body dynamics from URDF over whole trajectories, with a C core.

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
from .check import check
from .forces import wrench_at_point
from . import io
from . import codegen
from .human import human, human_model, humod_subject
from .identify import base_parameters, identify
from .centroidal import normalized_angular_momentum
from .model import Joint, Model, load
from .pipeline import TrialResult, inverse_dynamics_trial, run_trials
from .simulate import simulate
from .simd import available_simd_paths, set_simd_path, simd_path
from .threads import get_num_threads, set_num_threads
from .warn import URDFWarning, Urdf2dynWarning

__version__ = "0.1.0"
__all__ = ["load", "Model", "Joint", "URDFError", "wrench_at_point", "get_num_threads",
           "set_num_threads", "simulate", "data_path", "human", "human_model",
           "humod_subject", "io", "Urdf2dynWarning", "URDFWarning", "codegen",
           "inverse_dynamics_trial", "run_trials", "TrialResult",
           "identify", "base_parameters", "normalized_angular_momentum",
           "check", "simd_path", "set_simd_path", "available_simd_paths"]


def data_path(name: str) -> str:
    """Path of a file bundled in urdf2dyn/data.

    Parameters
    ----------
    name : str
        File name, e.g. "robot2r.urdf", "arm7.urdf", "humod_subject_a.urdf",
        "running_a_3ms.csv".

    Returns
    -------
    str
        Its path in the installed package.
    """
    from importlib.resources import files
    return str(files(__name__) / "data" / name)
