"""What to say when urdf2dyn is imported from a source tree whose C extension is not built."""
from pathlib import Path


def explain_missing_core(init_file: str) -> str:
    """The message of the ImportError raised instead of "No module named 'urdf2dyn._core'"."""
    package = Path(init_file).resolve().parent
    root = package.parent
    if (root / "setup.py").exists() and (root / "csrc").is_dir():
        return (f"urdf2dyn's compiled core (urdf2dyn._core) is not built in the source tree "
                f"{root}, and Python imported urdf2dyn from there because it is the current "
                f"directory (or on sys.path). Either build it in place: `pip install -e .` in "
                f"{root} (rebuild after changing csrc/), or run from another directory so that "
                f"the installed urdf2dyn (`pip install .`) is imported instead; run the tests "
                f"with `pytest`, not `python -m pytest`, from the repository root.")
    return (f"urdf2dyn's compiled core (urdf2dyn._core) is missing from {package}: the "
            f"installation is incomplete. Reinstall it: `pip install --force-reinstall urdf2dyn`.")
