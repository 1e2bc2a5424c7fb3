"""The files shipped in urdf2dyn/data (robots, the human models, example trials)."""
from importlib.resources import files

__all__ = ["data_path"]


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
    return str(files("urdf2dyn") / "data" / name)
