"""What loads with a URDFWarning (and is refused under strict=True), with the line it is on;
`urdf2dyn.check` and `urdf2dyn check` list the warnings plus advice on the numbers."""
import subprocess
import tempfile
import sys
import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import URDFError, URDFWarning

LIMIT = '<limit lower="-1" upper="1" effort="10" velocity="2"/>'
INERTIAL = ('<inertial><mass value="{m}"/><inertia ixx="{i}" ixy="0" ixz="0" iyy="{i}" iyz="0" '
            'izz="{i}"/></inertial>')


def document(*lines):
    """A URDF whose line k + 2 is lines[k] (line 1: the declaration, 2: <robot>)."""
    return "\n".join(['<?xml version="1.0"?>', '<robot name="r">', *lines, "</robot>"])


BASE = [f'<link name="a">{INERTIAL.format(m=1, i=0.1)}</link>',
        f'<link name="b">{INERTIAL.format(m=1, i=0.1)}</link>']


def joint(body, type="revolute", name="j", child="b"):
    return f'<joint name="{name}" type="{type}"><parent link="a"/><child link="{child}"/>{body}</joint>'


# case: (document, line of the finding, words the message must contain)
CASES = {
    "indefinite inertia": (document(
        '<link name="a"><inertial><mass value="1"/>',
        '<inertia ixx="1" ixy="2" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>'),
        4, ["link 'a'", "<inertia>", "not positive semidefinite", "principal moments -1, 1, 3"]),
    "triangle inequality": (document(
        '<link name="a">', '<inertial><mass value="1"/>',
        '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="1"/></inertial></link>'),
        5, ["link 'a'", "<inertia>", "triangle inequality", "0.1 + 0.1 < 1"]),
    # example-robot-data's anymal, b1, go1 and hyq: every entry 1e-6, moments 0, 0, 3e-6
    # exactly, which the eigenvalue solver gives as +-4e-22, 3e-6: shown as the zeros they are
    "rank-one inertia": (document(
        '<link name="a"><inertial><mass value="1e-6"/>',
        '<inertia ixx="1e-6" ixy="1e-6" ixz="1e-6" iyy="1e-6" iyz="1e-6" izz="1e-6"/>'
        '</inertial></link>'),
        4, ["link 'a'", "principal moments 0, 0, 3e-06 break", "(0 + 0 < 3e-06)"]),
    # a .xacro read as it is: the joint's origin inside <xacro:if> would be lost unsaid
    "xacro markup in a joint": (document(
        *BASE, joint(LIMIT + '\n<xacro:if value="${right}"><origin xyz="0 1 0"/></xacro:if>')),
        6, ["joint 'j'", "<xacro:if> inside <joint>", "xacro markup, not expanded",
            "run xacro on the file and load its output"]),
    "xacro macro call in the robot": (document(
        *BASE, joint(LIMIT), '<xacro:property name="L" value="1"/>',
        '<xacro:leg prefix="lf"/>', '<xacro:leg prefix="rf"/>'),
        7, ["<xacro:leg> in <robot> (and 1 more)", "xacro markup, not expanded",
            "every link and joint it would make", "run xacro on the file and load its output"]),
    "mimic of a missing joint": (document(
        *BASE, joint(LIMIT + '<mimic joint="ghost" multiplier="2"/>')),
        5, ["joint 'j'", '<mimic joint="ghost">', "no such joint", "independent"]),
    # alex_psyonic_hands.urdf: the mimic names the joint without the prefix its macro added
    "mimic without its prefix": (document(
        *BASE, '<link name="c"/>', '<link name="d"/>',
        joint(LIMIT, name="Right_index_q1"), joint(LIMIT, name="Left_index_q1", child="c"),
        joint(LIMIT + '<mimic joint="index_q1"/>', name="Left_index_q2", child="d")),
        9, ["joint 'Left_index_q2'", '<mimic joint="index_q1">: no such joint (did you mean '
            "'Left_index_q1'?); the joint", "read as an independent joint"]),
    # a name a typo away from the missing one is the mimicking joint's own: not offered
    "mimic a typo from itself": (document(
        *BASE, joint(LIMIT + '<mimic joint="finger_1"/>', name="finger_2")),
        5, ["joint 'finger_2'", '<mimic joint="finger_1">: no such joint; the joint']),
    "missing limit": (document(*BASE, "", joint('<axis xyz="0 0 1"/>')),
                      6, ["joint 'j'", "revolute", "<limit", "Pinocchio refuses"]),
    "misspelt attribute": (document(*BASE, joint(LIMIT + '\n<origin xzy="0 0 1"/>')),
                           6, ["joint 'j'", "<origin xzy=...>", "unknown attribute",
                               "did you mean 'xyz'"]),
    "misspelt element": (document(*BASE, joint('<limits lower="0" upper="1" effort="1" '
                                               'velocity="1"/>', type="continuous")),
                         5, ["joint 'j'", "<limits> inside <joint>", "unknown element",
                             "did you mean 'limit'"]),
    "origin directly in a link": (document(
        '<link name="a">', '  <origin xyz="0 0 1"/>', "</link>"),
        4, ["link 'a'", "<origin> inside <link>", "unknown element", "ignored: a link's "
            "frame is placed by the <origin> of the joint whose child it is (<inertial>, "
            "<visual> and <collision> each take their own)"]),
    "comment before the declaration": (
        '<!-- exported -->\n<?xml version="1.0"?>\n<robot name="r"><link name="a"/></robot>',
        2, ["XML declaration", "must be the very first"]),
    "unquoted attribute": ('<robot name="r">\n<link name=a/>\n</robot>',
                           2, ["attribute 'name'", "not in quotes"]),
    "text after the root": ('<robot name="r"><link name="a"/></robot>\n\ntrailing words',
                            3, ["text outside the root element"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_finding_warns_with_its_line_and_strict_refuses(case, tmp_path):
    text, line, words = CASES[case]
    with pytest.warns(URDFWarning) as record:
        model = urdf2dyn.load(text)
    messages = [str(w.message) for w in record]
    assert len(messages) == 1, messages
    assert messages[0].startswith(f"line {line}: "), messages[0]
    for word in words:
        assert word in messages[0], (word, messages[0])
    assert model.findings == ((line, messages[0][len(f"line {line}: "):]),)
    # from a file, the message starts with file:line like a compiler's
    path = tmp_path / "robot.urdf"
    path.write_text(text)
    with pytest.warns(URDFWarning, match=f"^{path}:{line}: "):
        urdf2dyn.load(path)
    with pytest.raises(URDFError, match=words[-1].replace("(", r"\(").replace(")", r"\)")
                       .replace("+", r"\+").replace("'", "'")):
        urdf2dyn.load(text, strict=True)


def test_numbers_are_used_as_written():
    """A non-physical inertia is not repaired: the mass matrix is the one the file implies
    (Pinocchio does the same), here the joint inertia about z = izz + m d²."""
    text = document('<link name="a"/>', '<link name="b"><inertial><origin xyz="0.5 0 0"/>'
                    '<mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" '
                    'izz="1"/></inertial></link>', joint('<axis xyz="0 0 1"/>' + LIMIT))
    with pytest.warns(URDFWarning, match="triangle inequality"):
        model = urdf2dyn.load(text)
    assert model.mass_matrix(np.zeros(1))[0, 0] == pytest.approx(1 + 2 * 0.25, rel=1e-14)


def test_clean_files_say_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in ("arm7.urdf", "robot2r.urdf", "humod_subject_a.urdf"):
            model = urdf2dyn.load(urdf2dyn.data_path(name))
            assert model.findings == ()
            assert urdf2dyn.check(urdf2dyn.data_path(name)) == []
        # a DOCTYPE with an internal subset is XML (Mini-XML reads it in two pieces)
        model = urdf2dyn.load('<?xml version="1.0"?>\n<!DOCTYPE robot [\n<!ENTITY x "1">\n]>\n'
                              '<robot name="r">\n<link name="a"/></robot>')
        assert model._c.document()[0][0][:2] == ("a", 6)
        # other tools' extensions and namespaced elements pass (but xacro's: a .xacro file
        # read unexpanded loses what its markup would make, test_xacro_markup_is_named)
        urdf2dyn.load(document(*BASE[:1], '<link name="b"><contact><lateral_friction '
                               'value="1"/></contact><drake:foo bar="1"/></link>',
                               joint(LIMIT.replace("/>", ' current="3"/>'), type="prismatic")))


def test_xacro_markup_is_named():
    """What an unexpanded .xacro loses, Pinocchio (the oracle) loses too: the joint is placed
    at the parent's origin, and the links a macro call would make are absent; urdf2dyn says
    so. A xacro expression where a number belongs is refused, naming xacro."""
    pin = pytest.importorskip("pinocchio")
    text = CASES["xacro markup in a joint"][0]
    with pytest.warns(URDFWarning, match="xacro markup, not expanded"):
        model = urdf2dyn.load(text)
    placement = pin.buildModelFromXML(text).jointPlacements[1]
    np.testing.assert_array_equal(placement.translation, np.zeros(3))
    np.testing.assert_array_equal(model.joint_positions(np.zeros(1))[0], np.zeros(3))
    text = CASES["xacro macro call in the robot"][0]
    with pytest.warns(URDFWarning, match="xacro markup, not expanded"):
        assert urdf2dyn.load(text).link_names == ("a", "b")
    frames = pin.buildModelFromXML(text).frames
    assert sorted(f.name for f in frames if f.type == pin.FrameType.BODY) == ["a", "b"]
    for where, markup in (("<origin xyz=", '<origin xyz="0 ${L} 0"/>'),
                          ("<limit lower=", LIMIT.replace('lower="-1"', 'lower="$(arg lo)"'))):
        with pytest.raises(URDFError, match=f"{where}.*: a xacro expression, not a number: "
                           "run xacro on the file and load its output"):
            urdf2dyn.load(document(*BASE, joint(LIMIT + markup if where == "<origin xyz="
                                                 else markup)))


def test_still_errors():
    """What has no meaning stays an error, strict or not."""
    for text, words in [
            (document('<link name="a"><inertial><mass value="-1"/><inertia ixx="1" ixy="0" '
                      'ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>'), "mass must be >= 0"),
            (document(*BASE, joint(LIMIT, child="c")), "no such link"),
            (document(*BASE, joint(LIMIT), joint(LIMIT, name="k").replace(
                '<parent link="a"/><child link="b"/>', '<parent link="b"/><child link="a"/>')),
             "cycle"),
            (document('<link name="a"><inertial><mass value="nan"/></inertial></link>'),
             "not finite")]:
        with pytest.raises(URDFError, match=words):
            urdf2dyn.load(text)


ADVICE = document(
    '<link name="base"/>',
    f'<link name="a">{INERTIAL.format(m=10, i=1)}</link>',
    f'<link name="b">{INERTIAL.format(m=0.001, i=1e-4)}</link>',                       # 5
    '<link name="leaf"/>',
    f'<link name="c">{INERTIAL.format(m=5, i=1e-9)}</link>',                           # 7
    joint('<axis xyz="0 0 1"/><limit lower="1" upper="-1" effort="0" velocity="1"/>'),  # 8
    joint('<axis xyz="1 0 0"/>', type="continuous", name="k", child="leaf"),            # 9
    joint('<axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="-3" velocity="0"/>',
          name="m", child="c"),                                                         # 10
    joint('<axis xyz="1 0 0"/>', type="continuous", name="r", child="a").replace(
        '<parent link="a"/>', '<parent link="base"/>'))                                 # 11


def test_check_gives_advice_with_lines():
    found = [(f.kind, f.line, f.message) for f in urdf2dyn.check(ADVICE)]
    expect = [
        (5, "link 'b': mass 0.001 kg is tiny against its neighbour 'a' (10 kg)"),
        (7, "link 'c': rotational inertia (trace 3e-09 kg m²) is tiny against its neighbour 'a'"),
        (8, "joint 'j': <limit lower=\"1\" upper=\"-1\">: lower > upper"),
        (8, "joint 'j': <limit effort=\"0\">"),
        (9, "joint 'k': link 'leaf' and everything beyond it are massless"),
        (10, "joint 'm': <limit effort=\"-3\">: a limit on the effort's magnitude cannot be "
             "negative (Pinocchio refuses the file, a controller may never move the joint); "
             "give it as 3"),
        (10, "joint 'm': <limit velocity=\"0\">"),
    ]
    assert all(kind == "advice" for kind, _, _ in found), found
    assert [line for _, line, _ in found] == [line for line, _ in expect]
    for (_, _, message), (_, words) in zip(found, expect):
        assert message.startswith(words), (message, words)
    assert "forward dynamics (ABA, simulate) is undefined" in found[4][2]
    # what a limit of 0 is to the readers, and the no-limit value convert writes
    # (test_osim_convert: Pinocchio reads it, check finds nothing)
    assert found[3][2].endswith(
        "ros_control's joint_limits_interface) will never move this joint, while MuJoCo's URDF "
        "import reads 0 as no limit and Pinocchio keeps 0; give the real effort limit, or "
        "1.7976931348623157e+308 for none (the largest number URDF readers take: urdfdom "
        "refuses 'inf')"), found[3][2]
    assert "while MoveIt reads 0 as no limit" in found[6][2]


def test_check_lists_warnings_and_errors(tmp_path):
    text, line, words = CASES["misspelt element"]
    found = urdf2dyn.check(text.replace("continuous", "revolute"))
    assert [(f.kind, f.line) for f in found] == [("warning", line)] * 2
    assert str(found[0]).startswith(f"line {line}: warning: joint 'j': a revolute joint needs")
    assert str(found[1]).startswith(f"line {line}: warning: joint 'j': <limits>")
    bad = urdf2dyn.check(document('<link name="a"/>', '<link name="a"/>'))
    assert [(f.kind, f.line) for f in bad] == [("error", 0)]
    assert "duplicate link name 'a'" in bad[0].message


def test_check_lists_every_error_not_only_the_first(tmp_path):
    """A zero axis, a missing child link and a bad inertia: each with its line (load raises
    the first); the advice needs the loaded model, so the lower > upper limit waits."""
    triangle = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
                'izz="5"/></inertial>')

    def chain(name, parent, child, body):
        return (f'<joint name="{name}" type="revolute"><parent link="{parent}"/>'
                f'<child link="{child}"/>{body}</joint>')
    bad = document(
        f'<link name="l1">{triangle}</link>',
        f'<link name="l2">{INERTIAL.format(m=1, i=0.1)}</link>',
        chain("j1", "l1", "l2", '<axis xyz="0 0 0"/>' + LIMIT),
        chain("j2", "l2", "l3", '<axis xyz="0 0 1"/>' + LIMIT),
        chain("j3", "l1", "l2", '<axis xyz="0 0 1"/>'
              '<limit lower="2" upper="-1" effort="1" velocity="1"/>'))
    found = [(f.kind, f.line, f.message) for f in urdf2dyn.check(bad)]
    assert [(kind, line) for kind, line, _ in found] == [("warning", 3), ("error", 5),
                                                          ("error", 6)], found
    assert found[0][2].startswith("link 'l1': <inertia>: principal moments 1, 1, 5 break the "
                                  "triangle inequality")
    assert found[1][2] == "joint 'j1': <axis xyz>: the axis is zero"
    assert found[2][2] == "joint 'j2': <child link=\"l3\">: no such link"
    with pytest.raises(URDFError, match="^line 5: joint 'j1': <axis xyz>: the axis is zero$"):
        urdf2dyn.load(bad)
    path = tmp_path / "bad.urdf"
    path.write_text(bad)
    res = _cli("check", str(path))
    assert res.returncode == 1
    assert res.stdout.splitlines()[1:] == [
        f"{path}:5: error: joint 'j1': <axis xyz>: the axis is zero",
        f"{path}:6: error: joint 'j2': <child link=\"l3\">: no such link",
        f"{path}: 2 errors, 1 warning, 0 advice"]
    # names used twice: no tree check, whose 'two root links' would only repeat them
    dup = urdf2dyn.check(document('<link name="a"/>', '<link name="a"/>', '<link name="c"/>',
                                  '<link name="c"/>'))
    assert [f.message for f in dup] == ["duplicate link name 'a'"]


def _cli(*args):
    """The command line in a new process, run outside the source tree so that it imports the
    installed package (the tree's urdf2dyn/ has no compiled core in a non-editable install)."""
    return subprocess.run([sys.executable, "-m", "urdf2dyn", *args], capture_output=True,
                          text=True, cwd=tempfile.gettempdir())


def test_cli_check(tmp_path):
    path = tmp_path / "robot.urdf"
    path.write_text(ADVICE.replace('<link name="leaf"/>', '<link name="leaf"><limits/></link>'))
    res = _cli("check", str(path))
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    assert out[0] == (f"{path}:5: advice: link 'b': mass 0.001 kg is tiny against its "
                      "neighbour 'a' (10 kg): the mass matrix is ill-conditioned and forward "
                      "dynamics loses accuracy; check the units (grams written as kg?)")
    assert f"{path}:6: warning: link 'leaf': <limits> inside <link>: unknown element" in out[1]
    assert out[-1] == f"{path}: 0 errors, 1 warning, 7 advice"
    assert _cli("check", "--strict", str(path)).returncode == 1
    clean = _cli("check", "--strict", "arm7.urdf")          # a bundled file, by name
    assert clean.returncode == 0 and clean.stdout.endswith("0 errors, 0 warnings, 0 advice\n")
    path.write_text("<robot name='r'></robot>")
    res = _cli("check", str(path))
    assert res.returncode == 1 and f"{path}: error: <robot> has no <link>" in res.stdout


def test_errors_name_their_line(tmp_path):
    text = document(*BASE, "", joint(LIMIT, child="c"))
    with pytest.raises(URDFError, match=r"^line 6: joint 'j': <child link=\"c\">: no such link"):
        urdf2dyn.load(text)
    path = tmp_path / "robot.urdf"
    path.write_text(text)
    with pytest.raises(URDFError, match=rf"^{path}:6: joint 'j': <child link=\"c\">"):
        urdf2dyn.load(path)


def test_cli_prints_load_warnings_as_warning_lines(tmp_path):
    text, line, _ = CASES["misspelt attribute"]
    path = tmp_path / "robot.urdf"
    path.write_text(text)
    res = _cli("info", str(path))
    assert res.returncode == 0, res.stderr
    assert res.stderr.startswith(f"urdf2dyn info: warning: {path}:{line}: joint 'j': "
                                 "<origin xzy=...>: unknown attribute"), res.stderr


def test_cli_torques_strict_refuses_a_urdf_with_findings(tmp_path):
    """torques --strict: the URDF's findings stop the job like the recording's warnings do."""
    text, line, _ = CASES["misspelt attribute"]
    path = tmp_path / "robot.urdf"
    path.write_text(text)
    with pytest.warns(urdf2dyn.URDFWarning):
        names = urdf2dyn.load(path).q_names
    motion = tmp_path / "m.csv"
    motion.write_text("time," + ",".join(names) + "\n" +
                      "".join(f"{0.01 * k}," + ",".join(["0.1"] * len(names)) + "\n"
                              for k in range(5)))
    res = _cli("torques", str(path), str(motion))
    assert res.returncode == 0, res.stderr
    assert f"urdf2dyn torques: warning: {path}:{line}:" in res.stderr
    res = _cli("torques", str(path), str(motion), "--strict")
    assert res.returncode == 1
    assert f"urdf2dyn torques: error: {path}:{line}: joint 'j': <origin xzy=...>" in res.stderr


def test_check_reads_an_mjcf_include_beside_the_file_from_any_folder(tmp_path, monkeypatch):
    """An MJCF's <include file> is relative to the model's own folder (MuJoCo's rule), as
    MyoSuite's myolegs.xml includes ../scene/...: `check` read it relative to the current
    folder, so it refused a model that load, info and MuJoCo read."""
    mujoco = pytest.importorskip("mujoco")
    (tmp_path / "model" / "parts").mkdir(parents=True)
    (tmp_path / "model" / "parts" / "arm.xml").write_text(
        '<mujoco><body name="arm" pos="0 0 1"><joint name="shoulder" axis="0 1 0"/>'
        '<geom type="capsule" size="0.05" fromto="0 0 0 0.3 0 0" mass="2"/></body></mujoco>')
    path = tmp_path / "model" / "robot.xml"
    path.write_text('<mujoco model="m">\n<worldbody>\n<include file="parts/arm.xml"/>\n'
                    '</worldbody>\n</mujoco>\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert mujoco.MjModel.from_xml_path(str(path)).nv == 1       # MuJoCo reads it from here
    assert urdf2dyn.load(str(path)).nv == 1
    assert [f for f in urdf2dyn.check(str(path)) if f.kind == "error"] == []
    res = _cli("check", str(path))
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.endswith(f"{path}: 0 errors, 0 warnings, 0 advice\n")
    # a missing include is still an error, on its line, named as the file's folder sees it
    (tmp_path / "model" / "parts" / "arm.xml").unlink()
    errors = [f for f in urdf2dyn.check(str(path)) if f.kind == "error"]
    assert len(errors) == 1 and errors[0].line == 3 and "parts/arm.xml" in errors[0].message


def test_icub_collision_max_contacts_passes_silently():
    """robotology's creo2urdf writes <max_contacts>1</max_contacts> first in every collision of
    a hand link (icub-models c74d0c6, iCub_creo2urdf/robots/iCubGazeboV2_10/model.urdf: 39 of
    them), for Gazebo. It changes no dynamics, and the user of a vendor's model cannot act on
    it: loading that file printed 39 'unknown element' warnings. Pinocchio (the oracle) reads
    the same text, with the same inertia."""
    pin = pytest.importorskip("pinocchio")
    collision = ('<collision><max_contacts>1</max_contacts><origin xyz="0 0 0" rpy="3.14159 0 '
                 '0"/><geometry><sphere radius="0.01"/></geometry></collision>')
    text = document(BASE[0], BASE[1].replace("</link>", collision + "</link>"), joint(LIMIT))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = urdf2dyn.load(text)
    assert model.findings == ()
    assert urdf2dyn.check(text) == []
    q = np.array([0.3])
    pm = pin.buildModelFromXML(text)
    np.testing.assert_allclose(model.mass_matrix(q), pin.crba(pm, pm.createData(), q),
                               rtol=1e-14)
