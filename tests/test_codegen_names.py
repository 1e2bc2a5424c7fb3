"""A URDF's names are free text, and the generated code carries them in its comments: a name
holding what ends a comment (*/, \"\"\", a line break) must leave the generated C compiling,
the Python importing and the MATLAB running, with nothing of the name read as code. The
oracles: the C compiler, Python's import, octave-cli, and the closed form of the one-joint
robot below (a link spinning about its own principal axis: tau = Izz qdd, whatever q, v and
gravity)."""
import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import codegen
from urdf2dyn.codegen.common import said_in_a_comment
from codegen_oracle import CRobot, cc, compile_c, import_python, octave

# After each line break (&#10; in the XML) a statement every language refuses or runs visibly:
# read as code, it fails the compiler, the import or octave.
INJECTED = "&#10;error('injected');"
URDF = f"""<robot name="r */ &quot;&quot;&quot; \\ ??/{INJECTED}">
  <link name="base"/>
  <link name="l */ /* &quot;&quot;&quot;&quot; \\n{INJECTED}">
    <inertial><mass value="1"/>
      <inertia ixx="0.2" iyy="0.2" izz="0.3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="j */ \\{INJECTED}" type="revolute">
    <parent link="base"/><child link="l */ /* &quot;&quot;&quot;&quot; \\n{INJECTED}"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
"""
Q, V, A = np.array([[0.4]]), np.array([[-1.5]]), np.array([[2.0]])
G = np.array([0.0, -9.81, 0.0])
TAU = 0.3 * A                                     # Izz qdd


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    path = tmp_path_factory.mktemp("names") / "hostile.urdf"
    path.write_text(URDF)
    m = urdf2dyn.load(str(path))
    assert "\n" in m.name and "\n" in m.joints[0].name and "*/" in m.link_names[1]
    return m


def test_generated_c_compiles_and_computes_with_the_names_in_its_comments(model, tmp_path):
    if cc() is None:
        pytest.skip("no C compiler")
    robot = CRobot(compile_c([("hostile", model)], str(tmp_path)), "hostile", model)
    assert robot.rnea(Q, V, A, G) == pytest.approx(TAU, abs=1e-15)


def test_generated_python_imports_and_computes_with_the_names_in_its_comments(model, tmp_path):
    mod = import_python(model, tmp_path, "hostile")
    assert mod.rnea(Q, V, A, G) == pytest.approx(TAU, abs=1e-15)
    assert mod.LINKS[1] == model.link_names[1]    # the names as data, whole


@pytest.mark.skipif(octave() is None, reason="octave-cli not found: install Debian's 'octave'")
def test_generated_matlab_runs_with_the_names_in_its_comments(model, tmp_path):
    import subprocess
    codegen.write(codegen.generate(model, "matlab", name="hostile"), str(tmp_path))
    script = tmp_path / "run.m"
    script.write_text("tau = hostile_rnea(0.4, -1.5, 2.0, [0 -9.81 0]);\n"
                      "printf('%.17g\\n', tau);\n")
    run = subprocess.run([octave(), "--no-gui", "--quiet", "--no-init-file", "run.m"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert float(run.stdout.split()[-1]) == pytest.approx(TAU[0, 0], abs=1e-15)


@pytest.mark.parametrize("text, said", [
    ("base_link/arm 1", "base_link/arm 1"),
    ("a */ b", "a *<U+002F> b"),
    ("a /* b", "a /<U+002A> b"),
    ('x """ y', 'x ""<U+0022> y'),
    ("c:\\n", "c:<U+005C>n"),
    ("l??/", "l??<U+002F>"),
    ("two\nlines\t", "two<U+000A>lines<U+0009>"),
    ("épaule gauche", "épaule gauche"),
])
def test_said_in_a_comment_writes_what_breaks_a_comment_by_its_code_point(text, said):
    assert said_in_a_comment(text) == said
    assert said_in_a_comment(said) == said        # said once, the same said again
