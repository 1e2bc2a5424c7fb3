"""Generated Python (NumPy, vectorized over samples) against the core, on the same robots as
the C output; and the properties every generated source must have (same URDF, same bytes;
constants folded; names from the URDF in the comments)."""
import re
import shlex
import shutil

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli, codegen
from caller_words import assert_says_the_keyword, flags_named
from cli_here import working_in
from codegen_oracle import (bundled_models, compare, import_python, random_inputs, random_models,
                            reference, rel_err)

ROBOTS = bundled_models() + random_models(24)


@pytest.mark.parametrize("k", range(len(ROBOTS)), ids=[p for p, _ in ROBOTS])
def test_python_matches_core(tmp_path, k):
    prefix, model = ROBOTS[k]
    mod = import_python(model, tmp_path, prefix)
    compare(model, mod, 100 + k, 1e-12, n=5)
    q, v, a, tau, g, f = random_inputs(model, 2, k)
    ref = reference(model, q, v, a, tau, g, f)
    # one sample in, one sample out
    one = mod.rnea(q[0], v[0], a[0], g)
    assert one.shape == (model.nv,)
    assert rel_err(one[None], ref["rnea0"][:1]) <= 1e-12


def test_python_float_variant(tmp_path):
    model = urdf2dyn.humod_subject("A")
    mod = import_python(model, tmp_path, "human32", scalar="float")
    q, v, a, tau, g, f = random_inputs(model, 5, 7)
    ref = reference(model, q, v, a, tau, g, f)
    tau32 = mod.rnea(q, v, a, g, f_ext=f)
    assert tau32.dtype == np.float32
    assert rel_err(tau32, ref["rnea"]) <= 1e-4


@pytest.mark.parametrize("language", ["c", "python", "matlab"])
def test_same_urdf_same_bytes(language):
    path = urdf2dyn.data_path("arm7.urdf")
    one = codegen.generate(urdf2dyn.load(path), language)
    two = codegen.generate(urdf2dyn.load(path), language)
    assert one == two
    assert all(isinstance(t, str) and t for t in one.values())


def test_constants_are_folded_and_names_kept():
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    src = codegen.generate(model, "c", functions=("rnea",))["robot_2r.c"]
    # both joints turn about z with identity placements: plane rotations, no general 3x3
    # product, no multiplication by 0 or 1 left in the code
    assert "* 0.0" not in src and "* 1.0 " not in src and "1.0 *" not in src
    assert "cos(q[0])" in src and "cos(q[1])" in src
    assert "joint 'joint1'" in src and "joint 'joint2'" in src and "[link2]" in src
    body = src.split("void robot_2r_rnea(")[1].split("\n}\n")[0]
    assignments = [line for line in body.splitlines() if " = " in line and "for" not in line]
    assert len(assignments) < 25       # the whole 2R inverse dynamics


def test_generate_refuses_bad_arguments():
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    with pytest.raises(ValueError, match="language"):
        codegen.generate(model, "fortran")
    with pytest.raises(ValueError, match="unknown function"):
        codegen.generate(model, "c", functions=("rnea", "jacobian"))
    with pytest.raises(ValueError, match="scalar"):
        codegen.generate(model, "c", scalar="half")
    still = urdf2dyn.load('<robot name="s"><link name="a"/></robot>')
    with pytest.raises(ValueError, match="no movable joint"):
        codegen.generate(still, "c")
    # example-robot-data's quadrotors (hector, iris_simple) are such: say how to free them,
    # with urdf2dyn.load's keyword (a library caller passes no --floating-base)
    with pytest.raises(ValueError, match=r"no movable joint: its links are welded to the world "
                       r"\(load it with floating_base=True, for the dynamics of one free "
                       r"body\)") as refused:
        codegen.generate(still, "python")
    assert_says_the_keyword(str(refused.value), urdf2dyn.load, "floating_base")
    codegen.generate(urdf2dyn.load('<robot name="s"><link name="a"><inertial><mass value="1"/>'
                                   '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
                                   '</inertial></link></robot>', floating_base=True), "python")


def test_codegen_advises_its_own_floating_base_flag(tmp_path, capsys):
    """urdf2dyn codegen on a model without movable joints was told "floating_base=True, or
    --floating-base": it is now told its own flag (its parser is the oracle), no keyword."""
    robot = tmp_path / "still.urdf"
    robot.write_text('<robot name="s"><link name="a"/></robot>')
    assert cli.main(["codegen", str(robot), "--lang", "python", "-o", str(tmp_path / "out")]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "load it with --floating-base, for the dynamics of one free body" in err, err
    own = {f for a in cli.build_parser()._subparsers._group_actions[0].choices["codegen"]
           ._actions for f in a.option_strings}
    assert flags_named(err) == {"--floating-base"} <= own and "floating_base" not in err, err


def _regenerate_said(files):
    """The one regeneration every generated file's banner names."""
    [said] = {re.search(r"regenerate with `([^`]*)`", text)[1] for text in files.values()}
    return said


@pytest.mark.parametrize("language", ["c", "python", "matlab"])
def test_the_banner_names_the_command_that_regenerates_the_files(tmp_path, language):
    """The banner said "regenerate with `urdf2dyn codegen`", which its parser refuses without
    a model and -o, and which regenerates other files without the options given: it names
    the command, which, run again in the files' folder, writes the same bytes."""
    robot = tmp_path / "models" / "two arms.urdf"
    robot.parent.mkdir()
    shutil.copy(urdf2dyn.data_path("robot2r.urdf"), robot)
    out = tmp_path / "gen out"
    options = ["--lang", language, "--functions", "rnea", "fk", "--float", "--floating-base",
               "--name", "two arms"]
    assert cli.main(["codegen", str(robot), *options, "-o", str(out)]) == 0
    written = {p.name: p.read_bytes() for p in out.iterdir()}
    said = _regenerate_said({k: v.decode() for k, v in written.items()})
    assert all(f"`{said}` in this file's folder" in v.decode() for v in written.values())
    command = shlex.split(said)
    assert command == ["urdf2dyn", "codegen", "../models/two arms.urdf", *options, "-o", "."]
    shutil.rmtree(out)
    out.mkdir()
    with working_in(out):
        assert cli.main(command[1:]) == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == written


def test_the_same_model_and_options_give_the_same_bytes_from_any_folder(tmp_path):
    """The banner named -o and the model's path as typed: the same files written from
    another folder (a CI job regenerating them to check they are current) differed in their
    banner, and its command, run elsewhere, read another file (a bundled model of the same
    name) and wrote to another folder."""
    robot = tmp_path / "robot.urdf"
    shutil.copy(urdf2dyn.data_path("robot2r.urdf"), robot)
    (tmp_path / "sub").mkdir()
    with working_in(tmp_path):
        assert cli.main(["codegen", "robot.urdf", "--lang", "c", "-o", "gen"]) == 0
    first = {p.name: p.read_bytes() for p in (tmp_path / "gen").iterdir()}
    with working_in(tmp_path / "sub"):
        assert cli.main(["codegen", "../robot.urdf", "--lang", "c", "-o",
                         str(tmp_path / "gen/"), "--strict"]) == 0
    assert {p.name: p.read_bytes() for p in (tmp_path / "gen").iterdir()} == first
    bundled = {}
    for name, robot in (("bare", "robot2r.urdf"), ("path", urdf2dyn.data_path("robot2r.urdf"))):
        assert cli.main(["codegen", robot, "--lang", "c", "-o", str(tmp_path / name)]) == 0
        bundled[name] = {p.name: p.read_bytes() for p in (tmp_path / name).iterdir()}
    assert bundled["bare"] == bundled["path"]
    assert b"`urdf2dyn codegen robot2r.urdf --lang c" in bundled["bare"]["robot_2r.c"]



def test_the_banner_names_the_library_call_that_regenerates_the_files():
    """A library caller's files name generate's call with the arguments given: run on the
    same model, it gives the same files."""
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    files = codegen.generate(model, "matlab", functions=("crba",), scalar="float", name="r2")
    call = _regenerate_said(files)
    assert call.startswith("urdf2dyn.codegen.generate(model, 'matlab', ") and "--" not in call
    assert eval(call, {"urdf2dyn": urdf2dyn, "model": model}) == files


@pytest.mark.parametrize("folder", ["a*", "a\\N"])
def test_a_command_no_comment_can_hold_is_not_written_in_one(tmp_path, folder):
    """A model path with */ (which ends a C comment) or a backslash (an escape in the Python
    module's docstring: \\N is a syntax error) is not written in the banner: the generated
    files stay valid."""
    robot = tmp_path / folder / "r.urdf"
    robot.parent.mkdir()
    shutil.copy(urdf2dyn.data_path("robot2r.urdf"), robot)
    for language in ("c", "python"):
        out = tmp_path / f"N{language}"
        assert cli.main(["codegen", str(robot), "--lang", language, "-o", str(out)]) == 0
        for path in out.iterdir():
            text = path.read_text()
            assert "regenerate with the command or call that wrote it" in text, text[:400]
            if path.suffix == ".py":
                compile(text, str(path), "exec")
            else:       # the banner's comment is whole: it closes where the code begins
                assert text.index("*/") > text.index("the world origin.")


def test_structure_is_read_only_and_consistent():
    model = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    s = model.structure()
    assert s.nbody == len(model.joints) + 1
    assert all(s.parent[b] < b for b in range(1, s.nbody))
    assert sorted(s.joint[1:]) == sorted(j.name for j in model.joints)
    for j in model.joints:
        b = s.joint.index(j.name)
        assert (s.q_index[b], s.v_index[b], s.jtype[b]) == (j.q_index, j.v_index, j.type)
    np.testing.assert_allclose(s.mass[1:].sum(), model.total_mass)
    with pytest.raises(ValueError):
        s.mass[1] = 0.0
    for E in s.Xtree_E:
        np.testing.assert_allclose(E @ E.T, np.eye(3), atol=1e-12)


@pytest.mark.parametrize("key", ["talos", "romeo", "solo12"])
def test_python_matches_pinocchio(tmp_path, key):
    """Generated code against a second, independent oracle: Pinocchio's RNEA with external
    wrenches, joints matched by name (pin_oracle.JointMap), whatever the joint order."""
    po = pytest.importorskip("pin_oracle")
    path = po.robot_path(key)
    if path is None:
        pytest.skip("example-robot-data not installed")
    model = urdf2dyn.load(path, floating_base=True)
    jmap = po.JointMap(model.joints, po.build_pin_model(path, True), model.nq, model.nv)
    mod = import_python(model, tmp_path, key)
    q, v, a, tau, g, f = random_inputs(model, 3, 11)
    fd = {name: f[:, l] for l, name in enumerate(model.link_names) if f[:, l].any()}
    ref = po.pin_inverse_dynamics(jmap, q, v, a, f_ext=fd, gravity=g)
    assert rel_err(mod.rnea(q, v, a, g, f_ext=f), ref) <= 1e-12
