"""urdf2dyn: rigid-body dynamics from URDF over whole trajectories, with a C core.

    >>> import urdf2dyn
    >>> model = urdf2dyn.load("robot.urdf")
    >>> tau = model.inverse_dynamics(q, v, a)      # (N, nq), (N, nv), (N, nv) -> (N, nv)
"""
from ._core import URDFError
from .forces import wrench_at_point
from . import io
from .human import human, human_model, humod_subject
from .model import Joint, Model, load
from .simulate import simulate
from .simd import available_simd_paths, set_simd_path, simd_path
from .threads import get_num_threads, set_num_threads
from .warn import URDFWarning, Urdf2dynWarning

__version__ = "0.1.0"
__all__ = ["load", "Model", "Joint", "URDFError", "wrench_at_point", "get_num_threads",
           "set_num_threads", "simulate", "data_path", "human", "human_model",
           "humod_subject", "io", "Urdf2dynWarning", "URDFWarning", "simd_path",
           "set_simd_path", "available_simd_paths"]


def data_path(name):
    """Path of a file bundled in urdf2dyn/data (e.g. "robot2r.urdf")."""
    from importlib.resources import files
    return str(files(__name__) / "data" / name)
