"""Sphinx configuration of urdf2dyn's documentation (built by tests/test_docs.py with -W)."""
import os
import shutil
from pathlib import Path

import urdf2dyn

project = "urdf2dyn"
author = "the urdf2dyn developers"
copyright = "2026, the urdf2dyn developers"
release = version = urdf2dyn.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "numpydoc", "myst_nb", "sphinxarg.ext"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
html_theme = "alabaster"
html_static_path: list[str] = []

# API reference: docstrings in numpydoc style; types come from the signatures' annotations
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
numpydoc_show_class_members = False
numpydoc_xref_param_type = False

# Tutorials: the notebooks/ of the repository, shown as they are stored (the test suite
# executes them; set URDF2DYN_DOCS_EXECUTE=1 to execute them here too and show their figures).
nb_execution_mode = "force" if os.environ.get("URDF2DYN_DOCS_EXECUTE") == "1" else "off"
nb_execution_timeout = 300

_here = Path(__file__).resolve().parent
_notebooks, _tutorials = _here.parent / "notebooks", _here / "tutorials"
if _notebooks.is_dir():
    shutil.rmtree(_tutorials, ignore_errors=True)
    _tutorials.mkdir()
    for nb in sorted(_notebooks.glob("*.ipynb")):
        shutil.copy2(nb, _tutorials / nb.name)
