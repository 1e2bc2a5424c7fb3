"""The worked examples in notebooks/ run from top to bottom (nbclient + an IPython kernel), so
they cannot rot. Each notebook checks its own results with asserts."""
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    nb = nbformat.read(path, as_version=4)
    # run where a user runs it: c3d_to_moments reads the repository's test data from
    # notebooks/ (it writes nothing); the others write their figures, so into tmp_path
    cwd = path.parent if path.name == "c3d_to_moments.ipynb" else tmp_path
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(cwd)}})
    client.execute()            # raises CellExecutionError, with the traceback, on any error
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    if path.name == "c3d_to_moments.ipynb":     # the moment plot, and the animation as HTML
        assert len(images) >= 1
        assert any("<script" in "".join(o.get("data", {}).get("text/html", ""))
                   for o in outputs)
        return
    assert len(images) >= 2      # the torque figure and the joint heights


def test_notebooks_exist():
    assert any(p.name == "humod_running.ipynb" for p in NOTEBOOKS)
    assert any(p.name == "c3d_to_moments.ipynb" for p in NOTEBOOKS)
