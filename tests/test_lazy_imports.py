"""`import urdf2dyn` loads the dynamics only; the analysis of recorded motion, the code
generator and each file format are imported when first used (urdf2dyn._lazy), so that a
short command does not pay for the whole package (issue 29), while every public name still
reads as before."""
import json
import subprocess
import sys
import tempfile

import pytest

import urdf2dyn
import urdf2dyn.biomech
import urdf2dyn.biomech.formats

PACKAGES = [urdf2dyn, urdf2dyn.biomech, urdf2dyn.biomech.formats]


def _modules_after(code):
    probe = code + "; import sys, json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=tempfile.gettempdir(), check=True).stdout
    return set(json.loads(out))


def test_import_loads_the_dynamics_only():
    loaded = _modules_after("import urdf2dyn")
    assert "urdf2dyn.model" in loaded
    for heavy in ("urdf2dyn.biomech.pipeline", "urdf2dyn.biomech.stages",
                  "urdf2dyn.biomech.formats", "urdf2dyn.codegen", "urdf2dyn.cli"):
        assert heavy not in loaded, heavy


def test_a_format_loads_alone():
    loaded = _modules_after("from urdf2dyn.biomech.formats import read_trc")
    assert "urdf2dyn.biomech.formats.trc" in loaded
    for other in ("urdf2dyn.biomech.formats.c3d", "urdf2dyn.biomech.pipeline",
                  "urdf2dyn.biomech.formats.rra_setup"):
        assert other not in loaded, other


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_public_name_resolves(package):
    for name in package.__all__:
        assert getattr(package, name) is not None, name
        assert name in dir(package), name


def test_lazy_names_are_the_modules_own_objects():
    from urdf2dyn.biomech import pipeline, trajectory
    from urdf2dyn.biomech.formats import trc
    assert urdf2dyn.run_trials is pipeline.run_trials
    assert urdf2dyn.Trajectory is trajectory.Trajectory is urdf2dyn.biomech.Trajectory
    assert urdf2dyn.biomech.formats.read_trc is trc.read_trc


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_an_unknown_name_is_an_attribute_error(package):
    with pytest.raises(AttributeError, match="no_such_name"):
        package.no_such_name
