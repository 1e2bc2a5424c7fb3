"""Generated Python (NumPy, vectorized over samples) against the core, on the same robots as
the C output; and the properties every generated source must have (same URDF, same bytes;
constants folded; names from the URDF in the comments)."""
import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli, codegen
from caller_words import assert_says_the_keyword, flags_named
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
