"""Symbolic equations (SymPy) against the thesis' robot2R closed form and the core; the
`urdf2dyn equations`, `urdf2dyn codegen` and `urdf2dyn info --plot` commands."""
import sys

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.cli import main

sp = pytest.importorskip("sympy")


def robot2r():
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    model.gravity = (0.0, -9.81, 0.0)       # the thesis' plane is vertical: g along -y
    return model


def test_robot2r_reads_as_thesis_eq_2_20_corrected():
    from urdf2dyn.codegen import symbolic
    eq = symbolic(robot2r(), parameters=True)
    S = {s.name: s for s in eq.values}
    m1, m2, r1, r2, l1, g = (S[k] for k in ("m1", "m2", "r1", "r2", "l1", "g"))
    I1, I2 = S["I1zz"], S["I2zz"]
    q1, q2 = eq.q
    qd1, qd2 = eq.qd
    qdd1, qdd2 = eq.qdd
    c2, s2 = sp.cos(q2), sp.sin(q2)
    # eq. 2.20 with its typos fixed (docs/codegen.rst): the CoM distances r1, r2 where the
    # thesis prints the link lengths, and +Izz qdd where it prints -Izz q
    tau1 = ((I1 + I2 + m1 * r1**2 + m2 * (l1**2 + r2**2 + 2 * l1 * r2 * c2)) * qdd1
            + (I2 + m2 * (r2**2 + l1 * r2 * c2)) * qdd2
            - m2 * l1 * r2 * s2 * (2 * qd1 * qd2 + qd2**2)
            + g * (m1 * r1 + m2 * l1) * sp.cos(q1) + g * m2 * r2 * sp.cos(q1 + q2))
    tau2 = ((I2 + m2 * (r2**2 + l1 * r2 * c2)) * qdd1 + (I2 + m2 * r2**2) * qdd2
            + m2 * l1 * r2 * s2 * qd1**2 + g * m2 * r2 * sp.cos(q1 + q2))
    assert sp.simplify(eq.tau[0] - tau1) == 0
    assert sp.simplify(eq.tau[1] - tau2) == 0
    assert eq.values[m1] == 3 and eq.values[l1] == 2 and eq.values[I1] == 15.6
    # the Coriolis term is the thesis' one: -h (2 qd1 qd2 + qd2^2), h qd1^2
    assert sp.simplify(eq.Cqd[1] - m2 * l1 * r2 * s2 * qd1**2) == 0


@pytest.mark.parametrize("parameters", [False, True])
def test_symbolic_matches_core(parameters):
    from urdf2dyn.codegen import symbolic
    models = [robot2r()] + ([] if parameters else [urdf2dyn.load(_three_dof_tree())])
    for model in models:
        eq = symbolic(model, parameters=parameters)
        num = eq.numeric()
        f = sp.lambdify((eq.q, eq.qd, eq.qdd), list(num.tau), "numpy")
        fM = sp.lambdify((eq.q,), num.M, "numpy")
        rng = np.random.default_rng(3)
        for _ in range(5):
            q, v, a = rng.normal(size=(3, model.nv))
            tau = np.array(f(q, v, a), dtype=float)
            ref = model.inverse_dynamics(q, v, a)
            assert np.abs(tau - ref).max() <= 1e-12 * max(1.0, np.abs(ref).max())
            assert np.allclose(np.array(fM(q), dtype=float), model.mass_matrix(q),
                               rtol=1e-12, atol=1e-12)


def _three_dof_tree():
    """A small branching tree with an offset, a prismatic joint and a tilted axis."""
    return """<robot name="tri">
      <link name="base"/>
      <link name="a"><inertial><origin xyz="0.1 0.2 0" rpy="0.3 0 0"/><mass value="2"/>
        <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.3"/></inertial></link>
      <link name="b"><inertial><origin xyz="0 0 0.3"/><mass value="1"/>
        <inertia ixx="0.05" ixy="0" ixz="0" iyy="0.05" iyz="0" izz="0.01"/></inertial></link>
      <link name="c"><inertial><origin xyz="0.2 0 0"/><mass value="0.5"/>
        <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial></link>
      <joint name="j1" type="revolute"><parent link="base"/><child link="a"/>
        <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
      <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/>
        <origin xyz="0.5 0 0"/><axis xyz="1 0 0"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <joint name="j3" type="continuous"><parent link="a"/><child link="c"/>
        <origin xyz="0 0.4 0" rpy="0 0.5 0"/><axis xyz="0 0.6 0.8"/></joint>
    </robot>"""


# the largest component a gravity may have (its squared length a double: Model.gravity
# refuses 1e300 since its length overflows)
@pytest.mark.parametrize("gravity", [(1e-320, -9.81, 1.5), (1e150, 0.5, -9.81),
                                     (1.5, 1e-320, 0.0)])
def test_gravity_of_extreme_magnitude_is_simplified_and_right(gravity):
    """Found by the fuzz of every option (urdf2dyn equations --gravity): a gravity component
    with no short decimal form of extreme magnitude (a SymPy Float such as 1e300 or 1e-320)
    kept SymPy's simplify busy for 1.5 to 5 minutes a run on robot2r. Now the equations end
    within test_cli_hypothesis's runaway bound and g(q) and M(q) qdd + C qd + g are the
    core's at random states (relative to the largest entry: 1e150 g is 1e150-sized)."""
    from test_cli_hypothesis import bounded
    from urdf2dyn.codegen import symbolic
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    model.gravity = gravity
    with bounded():
        eq = symbolic(model)
    f = sp.lambdify((eq.q, eq.qd, eq.qdd), list(eq.tau), "mpmath")
    rng = np.random.default_rng(5)
    for _ in range(4):
        q, v, a = rng.normal(size=(3, model.nv))
        tau = np.array([float(x) for x in f(q, v, a)])
        ref = model.inverse_dynamics(q, v, a)
        assert np.abs(tau - ref).max() <= 1e-12 * np.abs(ref).max(), (tau, ref)


def test_symbolic_refuses_big_robots():
    from urdf2dyn.codegen import symbolic
    with pytest.raises(ValueError, match="at most 6"):
        symbolic(urdf2dyn.load(urdf2dyn.data_path("arm7.urdf")))


def test_equations_command(capsys):
    assert main(["equations", "robot2r.urdf", "--parameters", "--gravity", "0", "-9.81", "0",
                 "--latex"]) == 0
    out = capsys.readouterr().out
    assert "M(q) =" in out and "g(q) =" in out and "\\cos" in out and "l_{1}" in out
    assert "m1 = 3" in out


def test_codegen_command(tmp_path, capsys):
    assert main(["codegen", "arm7.urdf", "--lang", "c", "--functions", "rnea", "--float",
                 "-o", str(tmp_path)]) == 0
    src = (tmp_path / "arm7.c").read_text()
    assert "sinf(" in src and "void arm7_rnea(const float q[ARM7_NQ]" in src
    assert "arm7_crba" not in src
    assert main(["codegen", "robot2r.urdf", "--lang", "matlab", "--floating-base", "-o",
                 str(tmp_path / "m")]) == 0
    assert (tmp_path / "m" / "robot_2r_aba.m").exists()
    with pytest.raises(SystemExit):       # argparse refuses an unknown function
        main(["codegen", "robot2r.urdf", "--functions", "jacobian", "-o", str(tmp_path)])


def test_info_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "tree.png"
    assert main(["info", "humod_subject_a.urdf", "--plot", str(png)]) == 0
    assert png.stat().st_size > 10_000
    from urdf2dyn.tree import groups, layout, tree
    links, joints, root = tree(urdf2dyn.humod_subject("A"))
    edges = groups(links, joints, root, False)
    pos = layout(edges, root)
    assert set(pos) == {root} | {child for out in edges.values() for _, child in out}
    assert pos[root][1] == 0 and len({p for p in pos.values()}) == len(pos)


def test_plot_tree_to_a_file_leaves_no_figure_open_and_the_backend_as_it_was(tmp_path):
    """Writing the tree to a file (urdf2dyn info --plot, plot_tree(model, path)) left a pyplot
    figure open each call (matplotlib warns after 20, a notebook's loop leaks them) and
    switched the caller's backend to Agg; drawing on the caller's axes leaves their figure."""
    plt = pytest.importorskip("matplotlib.pyplot")
    from urdf2dyn.tree import plot_tree
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    backend = plt.get_backend()
    plt.switch_backend("svg")                 # a backend of the caller's that is not Agg
    try:
        before = plt.get_fignums()
        assert main(["info", "robot2r.urdf", "--plot", str(tmp_path / "cli.png")]) == 0
        for k in range(3):
            plot_tree(model, tmp_path / f"tree{k}.svg")
        assert plt.get_fignums() == before
        assert plt.get_backend() == "svg"
        assert (tmp_path / "tree2.svg").read_text().lstrip().startswith("<?xml")
        fig, ax = plt.subplots()
        assert plot_tree(model, tmp_path / "on_ax.png", ax=ax) is fig
        assert fig.number in plt.get_fignums()           # the caller's: theirs to close
        plt.close(fig)
        shown = plot_tree(model)                         # no file: for plt.show()
        assert shown.number in plt.get_fignums()
        plt.close(shown)
    finally:
        plt.switch_backend(backend)


def test_cli_without_sympy_says_which_extra_to_install(monkeypatch, capsys):
    """SymPy is an optional extra: without it the command names the extra, not a module."""
    monkeypatch.setitem(sys.modules, "sympy", None)         # import sympy raises ImportError
    assert main(["equations", "robot2r.urdf"]) == 1
    assert 'pip install "urdf2dyn[symbolic]"' in capsys.readouterr().err
