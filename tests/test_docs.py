"""The Sphinx site in docs/ builds with every warning an error: docstrings that are not valid
numpydoc, broken references, pages missing from the contents, notebooks that do not render."""
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
pytestmark = pytest.mark.skipif(not (DOCS / "conf.py").exists(), reason="needs the source tree")


def test_docs_build_without_warnings(tmp_path):
    for module in ("sphinx", "numpydoc", "myst_nb", "sphinxarg"):
        pytest.importorskip(module)
    res = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                          "html", "-d", str(tmp_path / "doctrees"), str(DOCS),
                          str(tmp_path / "html")], capture_output=True, text=True,
                         cwd=tmp_path)
    assert res.returncode == 0, res.stderr[-6000:]
    pages = {p.stem for p in DOCS.glob("*.rst")}
    built = {p.stem for p in (tmp_path / "html").glob("*.html")}
    assert pages <= built, pages - built
    index = (tmp_path / "html" / "index.html").read_text()
    for page in pages - {"index"}:                  # every page is reachable from the contents
        assert f'href="{page}.html"' in index, page
    assert (tmp_path / "html" / "tutorials" / "humod_running.html").exists()
    api = (tmp_path / "html" / "api.html").read_text()
    assert "inverse_dynamics" in api and "estimate_derivatives" in api
