"""Every URDF validation rule raises URDFError naming the element, attribute and reason;
valid-but-unusual documents load with the URDF specification's defaults."""
import re

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import URDFError

INERTIAL = ('<inertial><mass value="1"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>')


def robot(body, name="r"):
    return f'<?xml version="1.0"?>\n<robot name="{name}">{body}</robot>'


def link(name, inertial=INERTIAL):
    return f'<link name="{name}">{inertial}</link>'


LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def joint(name, parent, child, type="revolute", extra='<axis xyz="0 0 1"/>' + LIMIT):
    return (f'<joint name="{name}" type="{type}"><parent link="{parent}"/>'
            f'<child link="{child}"/>{extra}</joint>')


def two_links(**kw):
    return robot(link("a") + link("b") + joint("j", "a", "b", **kw))


def inertia(**attrs):
    vals = {"ixx": "1", "ixy": "0", "ixz": "0", "iyy": "1", "iyz": "0", "izz": "1", **attrs}
    return ("<inertial><mass value=\"1\"/><inertia " +
            " ".join(f'{k}="{v}"' for k, v in vals.items() if v is not None) + "/></inertial>")


CASES = {
    # document level
    "not XML": ("this is not xml <", ["no such file", "this is not xml"]),
    "truncated": (robot(link("a"))[:-5], ["invalid XML"]),
    "mismatched": ('<robot name="r"><link name="a"></joint></robot>', ["invalid XML"]),
    "no robot": ('<?xml version="1.0"?><model name="r"/>', ["no <robot>"]),
    "two robots": (robot(link("a")) + '<robot name="s"><link name="b"/></robot>',
                   ["more than one <robot>"]),
    "lone surrogate": (robot(link("a\ud800")), ["not valid Unicode", "surrogate"]),
    "no link": (robot(""), ["no <link>"]),
    # names
    "link without name": (robot("<link/>"), ["<link>", "name"]),
    "joint without name": (robot(link("a") + link("b") +
                                 '<joint type="fixed"><parent link="a"/><child link="b"/></joint>'),
                           ["<joint>", "name"]),
    "duplicate link": (robot(link("a") + link("a")), ["duplicate link", "'a'"]),
    "duplicate joint": (robot(link("a") + link("b") + link("c") + joint("j", "a", "b") +
                              joint("j", "a", "c")), ["duplicate joint", "'j'"]),
    # joint type, parent, child
    "no type": (robot(link("a") + link("b") +
                      '<joint name="j"><parent link="a"/><child link="b"/></joint>'),
                ["joint 'j'", "type"]),
    "unknown type": (two_links(type="ball"), ["joint 'j'", "ball", "unknown joint type"]),
    "no parent": (robot(link("a") + link("b") +
                        '<joint name="j" type="fixed"><child link="b"/></joint>'),
                  ["joint 'j'", "<parent>"]),
    "no child": (robot(link("a") + link("b") +
                       '<joint name="j" type="fixed"><parent link="a"/></joint>'),
                 ["joint 'j'", "<child>"]),
    "parent without link": (robot(link("a") + link("b") +
                                  '<joint name="j" type="fixed"><parent/><child link="b"/></joint>'),
                            ["joint 'j'", "<parent>", "'link'"]),
    "missing parent link": (robot(link("b") + joint("j", "ghost", "b")),
                            ["joint 'j'", "ghost", "no such link"]),
    "missing child link": (robot(link("a") + joint("j", "a", "ghost")),
                           ["joint 'j'", "ghost", "no such link"]),
    # tree shape
    "self loop": (robot(link("a") + joint("j", "a", "a")), ["joint 'j'", "self-loop"]),
    "two parents": (robot(link("a") + link("b") + link("c") + joint("j1", "a", "c") +
                          joint("j2", "b", "c")), ["link 'c'", "two joints", "j1", "j2"]),
    "two roots": (robot(link("a") + link("b")), ["two root links", "'a'", "'b'"]),
    "cycle": (robot(link("r") + link("a") + link("b") + joint("j1", "a", "b") +
                    joint("j2", "b", "a")), ["cycle"]),
    "cycle, no root": (robot(link("a") + link("b") + joint("j1", "a", "b") +
                             joint("j2", "b", "a")), ["no root link", "cycle"]),
    # numbers
    "xyz count": (two_links(extra='<origin xyz="1 2"/><axis xyz="0 0 1"/>'),
                  ["joint 'j'", "<origin xyz=", "expected 3 numbers, got 2"]),
    "rpy count": (two_links(extra='<origin rpy="1 2 3 4"/>'),
                  ["joint 'j'", "rpy", "expected 3 numbers, got 4"]),
    "axis count": (two_links(extra='<axis xyz="1"/>'), ["<axis xyz=", "expected 3 numbers"]),
    "not a number": (two_links(extra='<origin xyz="1 2 x"/>'), ["xyz", "not a number"]),
    "unit suffix": (robot(link("a", '<inertial><mass value="1.5kg"/>'
                                    '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
                                    '</inertial>')), ["link 'a'", "<mass value=", "not a number"]),
    "nan": (two_links(extra='<origin xyz="0 nan 0"/>'), ["xyz", "not finite"]),
    "inf": (two_links(extra='<origin xyz="0 inf 0"/>'), ["xyz", "not finite"]),
    "overflow": (two_links(extra='<origin xyz="0 1e999 0"/>'), ["xyz", "not finite"]),
    # strtod reads hexadecimal, urdfdom (an istream) does not: "0x10" is refused, not 16
    "hexadecimal": (two_links(extra='<origin xyz="0 0x10 0"/>'),
                    ["joint 'j'", "<origin xyz=", "hexadecimal", "decimal"]),
    "hexadecimal float": (robot(link("a", '<inertial><mass value="-0X1p3"/><inertia ixx="1" '
                                          'ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>')),
                          ["link 'a'", "<mass value=", "hexadecimal"]),
    "empty": (two_links(extra='<origin xyz=""/>'), ["xyz", "expected 3 numbers, got 0"]),
    "zero axis": (two_links(extra='<axis xyz="0 0 0"/>'), ["joint 'j'", "axis", "zero"]),
    "limit not a number": (two_links(extra='<axis xyz="0 0 1"/><limit lower="a" upper="1"/>'),
                           ["joint 'j'", "<limit lower=", "not a number"]),
    # inertial
    "negative mass": (robot(link("a", '<inertial><mass value="-1"/><inertia ixx="1" ixy="0" '
                                      'ixz="0" iyy="1" iyz="0" izz="1"/></inertial>')),
                      ["link 'a'", "mass", ">= 0"]),
    "no mass": (robot(link("a", '<inertial><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
                                'izz="1"/></inertial>')), ["link 'a'", "<mass>"]),
    "mass without value": (robot(link("a", '<inertial><mass/><inertia ixx="1" ixy="0" ixz="0" '
                                           'iyy="1" iyz="0" izz="1"/></inertial>')),
                           ["link 'a'", "<mass>", "'value'"]),
    "no inertia": (robot(link("a", '<inertial><mass value="1"/></inertial>')),
                   ["link 'a'", "<inertia>"]),
    "missing ixy": (robot(link("a", inertia(ixy=None))), ["link 'a'", "<inertia>", "'ixy'"]),
    "negative inertia": (robot(link("a", inertia(ixx="-1"))),
                         ["link 'a'", "<inertia>", "positive semidefinite"]),
    "indefinite inertia": (robot(link("a", inertia(ixy="2"))),
                           ["link 'a'", "positive semidefinite"]),
    # mimic
    "mimic unknown": (two_links(extra=f'<axis xyz="0 0 1"/>{LIMIT}<mimic joint="ghost"/>'),
                      ["joint 'j'", "mimic", "ghost", "no such joint"]),
    "mimic self": (two_links(extra='<axis xyz="0 0 1"/><mimic joint="j"/>'),
                   ["joint 'j'", "mimic", "itself"]),
}


# Read as written with a URDFWarning, as Pinocchio reads them; refused under strict=True.
WARNED = {"negative inertia", "indefinite inertia", "mimic unknown"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_invalid_urdf(case):
    text, words = CASES[case]
    expected = FileNotFoundError if case == "not XML" else URDFError
    if case in WARNED:
        with pytest.warns(urdf2dyn.URDFWarning) as record:
            urdf2dyn.load(text)
        assert all(w in str(record[0].message) for w in words), str(record[0].message)
    with pytest.raises(expected) as info:
        urdf2dyn.load(text, strict=case in WARNED)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def test_a_link_with_two_parents_of_long_names_is_named_whole():
    """Names of 200 characters: the refusal ran past the 512 characters a message keeps and
    stopped inside the second joint's name; each name is cut at 100 instead."""
    a, b, c, j1, j2 = (letter * 200 for letter in "abcxy")
    text = robot(link(a) + link(b) + link(c) + joint(j1, a, c) + joint(j2, b, c))
    with pytest.raises(URDFError) as info:
        urdf2dyn.load(text)
    assert str(info.value).endswith(f"link '{'c' * 100}' is the child of two joints, "
                                    f"'{'x' * 100}' and '{'y' * 100}'"), str(info.value)


def test_urdf_error_is_value_error():
    assert issubclass(URDFError, ValueError)


def test_floating_base_name_clash():
    text = robot(link("a") + link("b") + joint("root_joint", "a", "b"))
    urdf2dyn.load(text)
    with pytest.raises(URDFError, match="root_joint"):
        urdf2dyn.load(text, floating_base=True)


def test_floating_base_over_a_floating_root_joint_is_refused(tmp_path):
    """A URDF that floats already (world -> floating -> base) with floating_base=True would
    get a second free joint above its massless 'world': 14 coordinates, a singular mass
    matrix. Refused, naming the joint; without floating_base it floats once."""
    text = robot(link("world", "") + "\n" + link("base")
                 + "\n" + joint("float", "world", "base", type="floating", extra=""))
    assert urdf2dyn.load(text).nq == 7
    path = tmp_path / "floats.urdf"
    path.write_text(text)
    with pytest.raises(URDFError) as info:
        urdf2dyn.load(path, floating_base=True)
    message = str(info.value)
    for word in (f"{path}:4: ", "joint 'float'", "root link 'world'", "'base'",
                 "load without floating_base=True"):
        assert word in message, message


def test_nul_character():
    with pytest.raises(URDFError, match="NUL"):
        urdf2dyn.load(robot(link("a")) + "\0")


def test_invalid_utf8(tmp_path):
    path = tmp_path / "bad.urdf"
    path.write_bytes(robot(link("caf\xe9")).encode("latin-1"))
    with pytest.raises(URDFError, match="UTF-8"):
        urdf2dyn.load(path)


# ---- valid documents ----------------------------------------------------------

def test_defaults_and_ignored_elements():
    """No origin = identity, no axis = x, no inertial = massless; transmission, gazebo,
    visual and collision blocks (with their own joint/link names) are ignored."""
    text = ('<?xml version="1.0"?>\n<!-- a comment -->\r\n<robot name="d">\r\n'
            '<link name="base"><visual><geometry><box size="1 1 1"/></geometry></visual></link>'
            '<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
            '<limit lower="-1" upper="1" effort="10" velocity="2"/>'
            '<dynamics damping="0.5" friction="0.1"/></joint>'
            '<link name="arm"><inertial><mass value="2"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
            '<collision><geometry><sphere radius="1"/></geometry></collision></link>'
            '<transmission name="t"><joint name="j"><hardwareInterface>x</hardwareInterface>'
            '</joint><actuator name="m"/></transmission>'
            '<gazebo reference="arm"><joint name="ghost"/><link name="ghost"/></gazebo>'
            '</robot>')
    model = urdf2dyn.load(text)
    assert model.name == "d" and model.nq == 1 and model.link_names == ("base", "arm")
    (j,) = model.joints
    assert j.axis == (1.0, 0.0, 0.0)
    assert j.limit == (-1.0, 1.0, 10.0, 2.0) and j.damping == 0.5 and j.friction == 0.1
    # axis x through the arm's centre of mass with g along -z: tau = I_xx * a, no gravity
    tau = model.inverse_dynamics([0.3], [0.0], [2.0])
    np.testing.assert_allclose(tau, [2.0], rtol=1e-14)


def test_axis_is_normalized():
    # with its <limit>: a revolute joint without one is warned about (not this test's topic)
    m1 = urdf2dyn.load(two_links(extra='<origin xyz="0 0 0.5"/><axis xyz="0 3 4"/>' + LIMIT))
    m2 = urdf2dyn.load(two_links(extra='<origin xyz="0 0 0.5"/><axis xyz="0 0.6 0.8"/>'
                                 + LIMIT))
    assert m1.joints[0].axis == pytest.approx((0, 0.6, 0.8))
    args = ([0.4], [1.1], [-0.3])
    np.testing.assert_allclose(m1.inverse_dynamics(*args), m2.inverse_dynamics(*args), rtol=1e-14)


def test_single_link_robot():
    model = urdf2dyn.load(robot(link("only")))
    assert (model.nq, model.nv, model.link_names) == (0, 0, ("only",))
    assert model.inverse_dynamics(np.zeros(0), np.zeros(0), np.zeros(0)).shape == (0,)


def test_joints_before_links_and_mimic_read():
    text = robot(joint("j2", "b", "c", extra='<axis xyz="0 1 0"/><mimic joint="j1" '
                       'multiplier="2" offset="0.1"/>' + LIMIT) +
                 joint("j1", "a", "b") + link("c") + link("b") + link("a"))
    model = urdf2dyn.load(text)
    assert [j.name for j in model.joints] == ["j1", "j2"]
    assert model.joints[1].mimic == ("j1", 2.0, 0.1)
    assert model.joints[1].parent == "b" and model.joints[1].child == "c"


def test_long_chain_loads():
    """Deep trees load (explicit-stack traversal) and the deepest body feels every joint."""
    n = 10000
    parts = [link(f"l{i}") for i in range(n)]
    parts += [joint(f"j{i}", f"l{i}", f"l{i + 1}", extra='<origin xyz="0 0 0.01"/>'
                    '<axis xyz="0 1 0"/>') for i in range(n - 1)]
    with pytest.warns(urdf2dyn.URDFWarning, match="needs a <limit"):     # one per joint
        model = urdf2dyn.load(robot("".join(reversed(parts))))
    assert model.nv == n - 1
    tau = model.inverse_dynamics(np.zeros(n - 1), np.zeros(n - 1), np.zeros(n - 1))
    assert np.all(np.isfinite(tau))


def test_load_from_path_and_bytes(tmp_path):
    text = two_links()
    path = tmp_path / "r.urdf"
    path.write_text(text)
    for source in (path, str(path), text.encode(), "\ufeff" + text):
        model = urdf2dyn.load(source)
        assert model.nq == 1


def test_inertia_export_noise_loads():
    """A zero diagonal with off-diagonal export noise (example-robot-data's icub head) is
    positive semidefinite up to rounding, not worth a word; a real negative moment is warned
    about (and refused under strict)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", urdf2dyn.URDFWarning)
        urdf2dyn.load(robot(link("head", inertia(ixx="0", iyy="0", izz="0", ixz="2.40741e-35"))))
    with pytest.warns(urdf2dyn.URDFWarning, match="positive semidefinite"):
        urdf2dyn.load(robot(link("head", inertia(ixx="0", iyy="0", izz="0", ixz="1e-6"))))
    with pytest.raises(URDFError, match="positive semidefinite"):
        urdf2dyn.load(robot(link("head", inertia(ixx="0", iyy="0", izz="0", ixz="1e-6"))),
                      strict=True)


@pytest.mark.parametrize("limit", ['<limit lower="0" upper="0" effort="1" velocity="1"/>',
                                   '<limit effort="1" velocity="1"/>',
                                   '<limit lower="0.5" upper="0.5" effort="1" velocity="1"/>'])
@pytest.mark.parametrize("kind", ["revolute", "prismatic"])
def test_a_limit_with_equal_bounds_is_read_as_none_with_a_warning(limit, kind, tmp_path):
    """A <limit> whose lower equals its upper (0, 0 when both are left out) allows no motion:
    urdf2dyn reads it as no limit (IK leaves the joint free), as MuJoCo's URDF import does,
    which says so; Pinocchio keeps it as the joint's position bounds. The reading differs
    between tools, so it is warned about, naming the joint."""
    mujoco = pytest.importorskip("mujoco")
    text = robot(link("a") + link("b") +
                 joint("knee", "a", "b", type=kind, extra='<axis xyz="0 0 1"/>' + limit))
    (tmp_path / "r.urdf").write_text(text)
    assert not mujoco.MjModel.from_xml_path(str(tmp_path / "r.urdf")).jnt_limited[0]
    # the element as written: a <limit> leaving both bounds out is said to
    written = (re.escape("<limit> without lower and upper (both 0, the URDF default)")
               if "lower" not in limit else r"<limit lower=.*upper=.*>")
    with pytest.warns(urdf2dyn.URDFWarning, match=rf"joint 'knee': {written}: "
                      r"equal bounds .* read as no limit"):
        model = urdf2dyn.load(text)
    assert model.clamped_ranges == {}


def test_a_limit_with_a_range_is_not_warned_about():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", urdf2dyn.URDFWarning)
        model = urdf2dyn.load(two_links())
    assert len(model.clamped_ranges) == 1
