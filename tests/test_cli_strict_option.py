"""--strict on every command that loads a model, from one helper (urdf2dyn.cli.options
.add_strict). `codegen` and `info` had none: a model finding was only warned, the code
written or the tree printed, whatever the user asked of the other commands. With --strict
the finding stops them, named, before any output; without it they run with the warning."""
import inspect
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


def _commands():
    """Each command's name and its subparser, from the parser the CLI runs."""
    return next(a for a in build_parser()._actions if hasattr(a, "choices")
                and isinstance(a.choices, dict)).choices


def _reads_a_model_file(subparser):
    """Whether the command reads a model file its user names: its function resolves the
    name with model_path (a bundled name or a path), as every such command does."""
    return "model_path(" in inspect.getsource(subparser.get_default("func"))


def test_every_command_that_loads_a_model_takes_strict():
    """Found from the commands' code, not a list kept by hand: a new command that reads a
    model without --strict fails here (equations and export-osim had none)."""
    loading = {name for name, sub in _commands().items() if _reads_a_model_file(sub)}
    known = {"torques", "info", "codegen", "equations", "check", "export-osim", "ik", "rra",
             "scale", "animate"}
    assert known <= loading, known - loading     # the finding itself still finds them
    for name in sorted(loading):
        options = {o for a in _commands()[name]._actions for o in a.option_strings}
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


@pytest.mark.parametrize("command", ["equations", "export-osim"])
def test_strict_stops_equations_and_export_osim_on_a_model_finding(tmp_path, command):
    """Without --strict the finding is warned and the equations printed (the .osim written);
    with it the run stops, named, exit status 1, with nothing printed or written."""
    pytest.importorskip("sympy" if command == "equations" else "opensim")
    robot = _broken_robot(tmp_path)
    argv = ([command, robot] if command == "equations" else
            [command, robot, "-o", os.fspath(tmp_path / "m.osim")])
    status, out, err = run_here(argv)
    assert status == 0 and f"urdf2dyn {command}: warning: " in err and FINDING in err, err
    assert out and (command == "equations" or _written(tmp_path) == ["m.osim"]), out
    if command == "export-osim":
        (tmp_path / "m.osim").unlink()
    status, out, err = run_here([*argv, "--strict"])
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
