"""--strict on every command that loads a model, from one helper (urdf2dyn.cli.options
.add_strict). `codegen` and `info` had none: a model finding was only warned, the code
written or the tree printed, whatever the user asked of the other commands. With --strict
the finding stops them, named, before any output; without it they run with the warning."""
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urdf2dyn.bundled import data_path
from urdf2dyn.cli import build_parser
from cli_here import run_here

FINDING = "break the triangle inequality"


def _broken_robot(folder):
    """robot2r with link1's inertia one no rigid body has (a URDFWarning when loaded)."""
    with open(data_path("robot2r.urdf"), encoding="utf-8") as f:
        text = f.read()
    bad = text.replace('ixx="1.2" ixy="0" ixz="0" iyy="15.6"', 'ixx="1.2" ixy="0" ixz="0" '
                       'iyy="100"', 1)
    assert bad != text
    path = folder / "broken.urdf"
    path.write_text(bad, encoding="utf-8")
    return os.fspath(path)


def test_every_command_that_loads_a_model_takes_strict():
    commands = next(a for a in build_parser()._actions if hasattr(a, "choices")
                    and isinstance(a.choices, dict)).choices
    loads_a_model = ["torques", "info", "codegen", "check", "ik", "rra", "scale", "animate"]
    for name in loads_a_model:
        options = {o for a in commands[name]._actions for o in a.option_strings}
        assert "--strict" in options, name


def _argv(command, robot, folder, extra=()):
    if command == "codegen":
        return ["codegen", robot, "-o", os.fspath(folder / "gen"), *extra]
    return ["info", robot, "--dot", os.fspath(folder / "tree.dot"), *extra]


def _written(folder):
    return sorted(p.name for p in folder.iterdir() if p.name != "broken.urdf")


@pytest.mark.parametrize("command", ["codegen", "info"])
def test_strict_stops_codegen_and_info_on_a_model_finding(tmp_path, command):
    robot = _broken_robot(tmp_path)
    status, out, err = run_here(_argv(command, robot, tmp_path))
    assert status == 0 and f"urdf2dyn {command}: warning: " in err and FINDING in err, err
    assert _written(tmp_path), "nothing written without --strict"
    for p in (tmp_path / "gen", tmp_path / "tree.dot"):
        if p.is_dir():
            for f in p.iterdir():
                f.unlink()
            p.rmdir()
        elif p.exists():
            p.unlink()
    status, out, err = run_here(_argv(command, robot, tmp_path, ["--strict"]))
    said = [line for line in err.splitlines() if FINDING in line]
    assert status == 1 and len(said) == 1, err
    assert said[0].startswith(f"urdf2dyn {command}: error: {robot}:"), said
    assert "refused because --strict" in said[0], said
    assert out == "" and _written(tmp_path) == [] and "Traceback" not in err, (out, err)


@settings(max_examples=12, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["codegen", "info"]), broken=st.booleans(),
       strict=st.booleans(), floating=st.booleans(),
       where=st.sampled_from(["first", "last"]))
def test_strict_anywhere_among_the_options_decides_the_status(tmp_path_factory, command,
                                                              broken, strict, floating, where):
    """Any place among the options, beside --floating-base: exit status 1 exactly when
    --strict meets a finding (nothing written then), else 0 with the finding warned."""
    folder = tmp_path_factory.mktemp(command)
    robot = _broken_robot(folder) if broken else data_path("robot2r.urdf")
    extra = ["--floating-base"] if floating else []
    if strict:
        extra = ["--strict", *extra] if where == "first" else [*extra, "--strict"]
    status, out, err = run_here(_argv(command, robot, folder, extra))
    assert "Traceback" not in err
    assert status == (1 if broken and strict else 0), err
    assert (FINDING in err) == broken, err
    assert bool(_written(folder)) == (status == 0), err
