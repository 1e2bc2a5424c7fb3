"""--strict covers the model a command loads, whichever way it is named: a setup's
<model_file> or --model. A model finding (here a pelvis inertia that breaks the triangle
inequality, a URDFWarning as load() says it) stops the run under --strict before anything is
written, as urdf2dyn.load(path, strict=True) refuses it; without --strict it is warned and
the run goes on. `ik --setup --strict` and `scale --strict` loaded the model without strict:
the finding was only warned, the outputs written, and the exit status 1 came at the end."""
import os
import re
import shutil

import pytest

from cli_here import run_here

DATA = os.path.join(os.path.dirname(__file__), "..", "data")
FINDING = "break the triangle inequality"


def _break_first_inertia(path):
    """The .osim file with its first body's inertia made impossible (Iyy tiny)."""
    text = path.read_text()
    text = re.sub(r"<inertia>\s*([0-9.eE+-]+)\s+[0-9.eE+-]+\s+([0-9.eE+-]+)",
                  r"<inertia>\1 1e-6 \2", text, count=1)
    path.write_text(text)


def _ik(tmp_path, via_option):
    folder = tmp_path / "gait2392"
    shutil.copytree(os.path.join(DATA, "ik", "gait2392"), folder)
    _break_first_inertia(folder / "subject01_simbody.osim")
    argv = ["ik", "--setup", os.fspath(folder / "subject01_Setup_IK.xml"),
            "--output", os.fspath(tmp_path / "out.mot")]
    if via_option:
        argv += ["--model", os.fspath(folder / "subject01_simbody.osim")]
    return argv, tmp_path / "out.mot"


def _scale(tmp_path, via_option):
    folder = tmp_path / "gait2354"
    shutil.copytree(os.path.join(DATA, "scale", "gait2354"), folder)
    _break_first_inertia(folder / "gait2354_simbody.osim")
    argv = ["scale", os.fspath(folder / "subject01_Setup_Scale.xml"),
            "-o", os.fspath(tmp_path / "out.osim")]
    if via_option:
        argv += ["--model", os.fspath(folder / "gait2354_simbody.osim")]
    return argv, tmp_path / "out.osim"


def _torques(tmp_path, via_option):
    import urdf2dyn
    folder = tmp_path / "id"
    folder.mkdir()
    model = folder / "model.osim"
    shutil.copy(os.path.join(DATA, "ik", "gait2392", "subject01_simbody.osim"), model)
    _break_first_inertia(model)
    with pytest.warns(urdf2dyn.URDFWarning, match=FINDING):
        names = urdf2dyn.load(os.fspath(model)).q_names
    rows = "\n".join("\t".join(["%g" % (0.01 * k)] + ["0"] * len(names)) for k in range(10))
    (folder / "q.mot").write_text(
        "q\nversion=1\nnRows=10\nnColumns=%d\ninDegrees=yes\nendheader\n" % (len(names) + 1)
        + "\t".join(["time", *names]) + "\n" + rows + "\n")
    (folder / "setup.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">\n'
        '<InverseDynamicsTool name="id">\n<results_directory>.</results_directory>\n'
        "<model_file>model.osim</model_file>\n<forces_to_exclude>All</forces_to_exclude>\n"
        "<coordinates_file>q.mot</coordinates_file>\n"
        "<lowpass_cutoff_frequency_for_coordinates>-1</lowpass_cutoff_frequency_for_coordinates>\n"
        "<output_gen_force_file>id.sto</output_gen_force_file>\n"
        "</InverseDynamicsTool>\n</OpenSimDocument>\n")
    argv = ["torques", "--setup", os.fspath(folder / "setup.xml"),
            "-o", os.fspath(tmp_path / "out.sto")]
    if via_option:
        argv.insert(1, os.fspath(model))
    return argv, tmp_path / "out.sto"


@pytest.mark.parametrize("via_option", [False, True], ids=["setup-model", "model-option"])
@pytest.mark.parametrize("command", [_ik, _scale, _torques], ids=["ik", "scale", "torques"])
def test_strict_refuses_the_models_findings_before_any_output(tmp_path, command, via_option):
    argv, output = command(tmp_path, via_option)
    status, _, err = run_here(argv)
    assert status == 0 and "warning: " in err and FINDING in err, err
    assert output.exists()
    output.unlink()
    status, _, err = run_here(argv + ["--strict"])
    said = [line for line in err.splitlines() if FINDING in line]
    assert status == 1 and len(said) == 1 and " error: " in said[0], err   # not a warning
    assert "Traceback" not in err and not output.exists(), err
