"""MJCF attributes MuJoCo 4's schema does not give an element where it stands (mj_printSchema):
MuJoCo refuses them ("unrecognized attribute"), used or not, and urdf2dyn loaded them silently
(a <body mass=...> whose mass was never read, a MuJoCo 3 <camera orthographic=...>, a <fixed>
tendon's rgba=). Each case runs MuJoCo (the oracle) and urdf2dyn on the same XML."""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjcf_oracle as oracle
from test_mjcf_refusals_parity import (assert_as_mujoco, doc, mujoco, mujoco_error,
                                       urdf2dyn_error)

_J = '<joint name="j"/><geom size="0.1"/>'


def _in_body(content, body_attrs=""):
    return f'<worldbody><body name="b"{body_attrs}>{_J}{content}</body></worldbody>'


_TENDON = '<tendon><fixed name="t"{a}><joint joint="j" coef="1"{b}/></fixed></tendon>'
_SPATIAL = ('<tendon><spatial{a}><site site="s1"{b}/><site site="s2"/></spatial></tendon>')
_SITES = '<site name="s1"/><site name="s2" pos="0 0 1"/>'

# the case: the XML, urdf2dyn's words (None where both load)
ATTRIBUTES = {
    "a body's mass": (doc(_in_body("", ' mass="1"')),
                      ["<body mass=", "unrecognized attribute: 'mass'", "<inertial mass="]),
    "a joint's misspelt axis": (doc(_in_body('<joint name="k" axes="0 0 1"/>')),
                                ["<joint axes=", "unrecognized attribute: 'axes'",
                                 "correct its name"]),
    "MuJoCo 3's camera orthographic": (
        doc(_in_body('<camera orthographic="true"/>')),
        ["<camera orthographic=", "unrecognized attribute", 'projection="orthographic"']),
    "the camera projection MuJoCo 4 reads": (doc(_in_body('<camera projection="orthographic"/>')),
                                             None),
    "a fixed tendon's width": (doc(_in_body(""), _TENDON.format(a=' width="0.1"', b="")),
                               ["<fixed width=", "unrecognized attribute", "<spatial>"]),
    "a fixed tendon's rgba": (doc(_in_body(""), _TENDON.format(a=' rgba="1 0 0 1"', b="")),
                              ["<fixed rgba=", "unrecognized attribute: 'rgba'"]),
    "a spatial tendon's width and rgba": (
        doc(_in_body(_SITES), _SPATIAL.format(a=' width="0.1" rgba="1 0 0 1"', b="")), None),
    "a fixed tendon joint's name": (doc(_in_body(""), _TENDON.format(a="", b=' name="x"')),
                                    ["<joint name=", "in <fixed>"]),
    "an equality joint's axis": (doc(_in_body(""), '<equality><joint joint1="j" axis="0 0 1"/>'
                                                   '</equality>'),
                                 ["<joint axis=", "in <equality>"]),
    "a default joint's name": (doc('<default><joint name="x"/></default>', _in_body("")),
                               ["<joint name=", "in a <default>"]),
    "a default joint's class": (doc('<default><joint class="x"/></default>', _in_body("")),
                                ["<joint class=", "in a <default>"]),
    "an inertial's name": (doc(_in_body('<inertial name="i" mass="1" diaginertia="1 1 1" '
                                        'pos="0 0 0"/>')), ["<inertial name="]),
    "a compiler setting of another element": (doc('<compiler gravity="0 0 -1"/>', _in_body("")),
                                              ["<compiler gravity="]),
    "an option setting of another element": (doc('<option angle="degree"/>', _in_body("")),
                                             ["<option angle="]),
    "a sensor's misspelt noise": (doc(_in_body(""), '<sensor><jointpos joint="j" nois="1"/>'
                                                    '</sensor>'),
                                  ["<jointpos nois=", "in <sensor>"]),
    "a mesh asset's size": (doc('<asset><mesh name="m" size="1" vertex="0 0 0 1 0 0 0 1 0 0 0 '
                                '1"/></asset>', _in_body("")), ["<mesh size="]),
    "the root's name": (doc(_in_body("")).replace("<mujoco>", '<mujoco name="x">'),
                        ["<mujoco name=", "unrecognized attribute: 'name'"]),
    "a body's mass below a frame, where MuJoCo's check stops": (
        doc('<worldbody><frame><body mass="1"><joint/><geom size="0.1"/></body></frame>'
            '</worldbody>'), None),
    "a misspelt pos on <worldbody>'s alias": (
        doc('<body poss="0 0 1"><body><joint/><geom size="0.1"/></body></body>'),
        ["<body poss=", "unrecognized attribute: 'poss'"]),
    "the root's model": (doc(_in_body("")).replace("<mujoco>", '<mujoco model="x">'), None),
}


@pytest.mark.parametrize("case", sorted(ATTRIBUTES))
def test_attributes_are_those_of_mujoco_schema(case):
    """An attribute MuJoCo 4's schema does not give an element where it stands is refused as
    MuJoCo refuses it, naming the element, the attribute and what to do; its neighbours that
    the schema has load in both."""
    xml, words = ATTRIBUTES[case]
    assert_as_mujoco(xml, words)


def _schema_attribute_names():
    """Every attribute name mj_printSchema lists, for any element."""
    names = set()
    for line in mujoco.mj_printSchema(False, False).splitlines():
        m = re.match(r"^ *(?:\S+ \(.\))?\s*(.*)$", line)
        names.update(m.group(1).split())
    return sorted(names)


# the elements urdf2dyn reads, each where it may stand ({a}: the attribute under test)
_PLACES = [
    doc(_in_body("", "{a}")), doc(_in_body('<joint name="k"{a}/>')),
    doc(_in_body('<geom size="0.1"{a}/>')), doc(_in_body('<site{a}/>')),
    doc(_in_body('<camera{a}/>')), doc(_in_body('<light{a}/>')),
    doc(_in_body('<inertial mass="1" diaginertia="1 1 1" pos="0 0 0"{a}/>')),
    doc('<worldbody><body><freejoint{a}/><geom size="0.1"/></body></worldbody>'),
    doc("<default><joint{a}/></default>", _in_body("")),
    doc("<default><geom{a}/></default>", _in_body("")),
    doc("<default><site{a}/></default>", _in_body("")),
    doc("<default><tendon{a}/></default>", _in_body("")),
    doc("<default><equality{a}/></default>", _in_body("")),
    doc("<default><motor{a}/></default>", _in_body("")),
    doc('<default><default class="c"{a}/></default>', _in_body("")),
    doc(_in_body(""), _TENDON.replace("{b}", "")),
    doc(_in_body(""), _TENDON.replace("{a}", "").replace("{b}", "{a}")),
    doc(_in_body(_SITES), _SPATIAL.replace("{b}", "")),
    doc(_in_body(""), '<equality><joint joint1="j"{a}/></equality>'),
    doc(_in_body(_SITES), '<equality><connect site1="s1" site2="s2"{a}/></equality>'),
    doc(_in_body(""), '<sensor><jointpos joint="j"{a}/></sensor>'),
    doc(_in_body(""), '<actuator><motor joint="j"{a}/></actuator>'),
    doc('<compiler{a}/>', _in_body("")), doc('<option{a}/>', _in_body("")),
    doc('<size{a}/>', _in_body("")), doc(_in_body(""), '<keyframe><key{a}/></keyframe>'),
    doc('<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"{a}/></asset>', _in_body("")),
    doc('<asset><material name="m"{a}/></asset>', _in_body("")),
    "<mujoco{a}>" + _in_body("") + "</mujoco>",
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_PLACES),
       st.sampled_from(_schema_attribute_names() + ["foo", "Name", "rgb"]),
       st.sampled_from(["1", "0 0 1", "true", "x", ""]))
def test_random_attributes_refused_exactly_where_mujoco_schema_refuses(place, attr, value):
    """Any attribute name MuJoCo's schema has somewhere, on any element urdf2dyn reads: where
    MuJoCo refuses it as unrecognized, urdf2dyn refuses it naming it; where MuJoCo's schema
    has it, urdf2dyn never calls it unrecognized (and never ends in a traceback). The
    schema is checked first, as MuJoCo checks it: no reader reads an attribute the element
    does not have (biastype= on a <motor>, class= on a <freejoint>)."""
    xml = place.replace("{a}", f' {attr}="{value}"')
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    if expected and "unrecognized attribute" in expected:
        assert got is not None and f"{attr}=" in got and "unrecognized attribute" in got, (
            xml, expected, got)
    else:
        assert got is None or "unrecognized attribute" not in got, (xml, expected, got)


def _default(content):
    return f'<default><default class="c">{content}</default></default>'


_CAMERA = ' resolution="10 10" focal="1 1"'
# the case: the XML, urdf2dyn's words (None where both load): pairs MuJoCo 4's schema lets an
# element write at most one of, a blank one counted; split between a class and the element,
# both load
EXCLUSIVE = {
    "a light's directional and type": (
        doc(_in_body('<light directional="true" type="spot"/>')),
        ['<light directional="true" type="spot">', "at most one of 'directional', 'type'",
         "give type= alone"]),
    "a light's blank directional beside type": (
        doc(_in_body('<light directional="" type="spot"/>')), ["at most one of"]),
    "a default light's directional and type": (
        doc(_default('<light directional="false" type="point"/>'), _in_body("<light/>")),
        ["<light directional=", "at most one of 'directional', 'type'"]),
    "a light's directional beside its class's type": (
        doc(_default('<light type="spot"/>'), _in_body('<light class="c" directional="true"/>')),
        None),
    "a camera's fovy and sensorsize": (
        doc(_in_body(f'<camera fovy="40" sensorsize="1 1"{_CAMERA}/>')),
        ['<camera fovy="40" sensorsize="1 1">', "at most one of 'fovy', 'sensorsize'",
         "give fovy=, or sensorsize="]),
    "a camera's blank sensorsize beside fovy": (
        doc(_in_body('<camera fovy="40" sensorsize=""/>')), ["at most one of"]),
    "a default camera's fovy and sensorsize": (
        doc(_default('<camera fovy="40" sensorsize="1 1"/>'), _in_body("<camera/>")),
        ["<camera fovy=", "at most one of 'fovy', 'sensorsize'"]),
    "a camera's sensorsize beside its class's fovy": (
        doc(_default('<camera fovy="40"/>'),
            _in_body(f'<camera class="c" sensorsize="1 1"{_CAMERA}/>')), None),
}


@pytest.mark.parametrize("case", sorted(EXCLUSIVE))
def test_attributes_mujoco_schema_lets_one_element_write_one_of(case):
    """Two attributes MuJoCo 4's schema lets an element write at most one of, both written on
    one element or default, are refused as MuJoCo refuses them, naming the element, both
    attributes and what to do; one from a class and one written loads in both, with MuJoCo's
    mass matrix and inverse dynamics."""
    xml, words = EXCLUSIVE[case]
    assert_as_mujoco(xml, words)
    if words is None:
        oracle.assert_loads_as_mujoco(xml)
