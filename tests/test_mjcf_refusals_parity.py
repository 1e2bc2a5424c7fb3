"""MJCF inputs MuJoCo refuses, where urdf2dyn loaded them silently (keyframes of the wrong size,
repeated names, a mesh site without its mesh, inverted force and control ranges): each case runs
MuJoCo (the oracle) and urdf2dyn on the same XML, and both refuse it (urdf2dyn naming the
element, its line and what to do) or both load it."""
import re
import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mjcf_oracle as oracle
import urdf2dyn
from urdf2dyn import interop

mujoco = oracle.mujoco

BODY = '<body name="b"><joint name="j"/><geom size="0.1"/></body>'
WORLD = f"<worldbody>{BODY}</worldbody>"
RANGED = ('<worldbody><body name="b"><joint name="j" range="-1 1" limited="true"/>'
          '<geom size="0.1"/></body></worldbody>')
MOCAP = f'<worldbody><body name="m" mocap="true"/>{BODY}</worldbody>'
MESH = '<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>'


def mujoco_error(xml):
    """MuJoCo's message for xml, or None when it compiles it."""
    try:
        mujoco.MjModel.from_xml_string(xml)
    except ValueError as e:
        return str(e)
    return None


def urdf2dyn_error(xml):
    """urdf2dyn's URDFError message for xml, or None when it loads it (any other exception
    propagates: that is a defect)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
            urdf2dyn.load(xml)
    except urdf2dyn.URDFError as e:
        return str(e)
    return None


def assert_as_mujoco(xml, words):
    """MuJoCo and urdf2dyn both refuse xml, urdf2dyn's message holding each of words, or
    both load it (words None)."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (words is None), expected
    assert (got is None) == (words is None), got
    for w in words or []:
        assert w in got, (got, expected)


def doc(*parts):
    return "<mujoco>" + "".join(parts) + "</mujoco>"


def keys(*attrs):
    return "<keyframe>" + "".join(f"<key {a}/>" for a in attrs) + "</keyframe>"


def actuators(*elements):
    return "<actuator>" + "".join(elements) + "</actuator>"


# (xml, words urdf2dyn's refusal holds; None where both load)
KEYFRAMES = {
    "qpos of an empty model": (doc(keys('qpos="1 2 3"')),
                               ["<key>", "qpos", "3 numbers", "model has 0", "line 1",
                                "no <worldbody>", "load the model's file"]),
    "qvel of an empty model": (doc(keys('qvel="1"')), ["qvel", "model has 0"]),
    "act of an empty model": (doc(keys('act="1"')), ["act", "model has 0"]),
    "ctrl of an empty model": (doc(keys('ctrl="1"')), ["ctrl", "model has 0"]),
    "mpos of an empty model": (doc(keys('mpos="1 2 3"')),
                               ["mpos", "model has 0"]),
    "mquat of an empty model": (doc(keys('mquat="1 0 0 0"')),
                                ["mquat", "model has 0"]),
    "qpos too long": (doc(WORLD, keys('name="home" qpos="1 2"')),
                      ["key 'home'", "qpos", "model has 1"]),
    "second key's qpos": (doc(WORLD, keys('qpos="1"', 'qpos="1 2"')),
                          ["key 1", "qpos"]),
    "qvel too long": (doc(WORLD, keys('qpos="1" qvel="1 2"')),
                      ["qvel", "model has 1"]),
    "qpos right": (doc(WORLD, keys('qpos="0.5" qvel="1"')), None),
    "qpos empty": (doc(WORLD, keys('qpos=""')), None),
    "qpos nan": (doc(WORLD, keys('qpos="nan"')), None),
    "qpos inf": (doc(WORLD, keys('qpos="-inf"')), None),
    "qpos not a number": (doc(WORLD, keys('qpos="abc"')), ["qpos", "not a number"]),
    "qpos too large": (doc(WORLD, keys('qpos="1e400"')), ["qpos", "1e400"]),
    "time not a number": (doc(WORLD, keys('time="x"')), ["time", "not a number"]),
    "free joint": (doc('<worldbody><body><freejoint/><geom size="0.1"/></body></worldbody>',
                       keys('qpos="1 2 3 1 0 0 0" qvel="1 2 3 4 5 6"')), None),
    "free joint, qvel of 7": (doc('<worldbody><body><freejoint/><geom size="0.1"/></body>'
                                  '</worldbody>', keys('qvel="1 2 3 4 5 6 7"')),
                              ["qvel", "model has 6"]),
    "ctrl of one motor": (doc(WORLD, actuators('<motor joint="j"/>'), keys('ctrl="0.3"')),
                          None),
    "ctrl of two for one motor": (doc(WORLD, actuators('<motor joint="j"/>'),
                                      keys('ctrl="0.3 1"')), ["ctrl", "model has 1"]),
    "act of a motor": (doc(WORLD, actuators('<motor joint="j"/>'), keys('act="1"')),
                       ["act", "model has 0", "leave it out"]),
    "act of an intvelocity": (doc(WORLD, actuators('<intvelocity joint="j" kp="1"/>'),
                                  keys('act="1"')), None),
    "act of a filtered position": (
        doc(WORLD, actuators('<position joint="j" kp="1" timeconst="1"/>'), keys('act="1"')),
        None),
    "act of a position, dynamics from its class": (
        doc('<default><general dyntype="integrator"/></default>', WORLD,
            actuators('<position joint="j" kp="1"/>'), keys('act="1"')),
        ["act", "model has 0"]),
    "act of a position, none": (
        doc(WORLD, actuators('<position joint="j" kp="1"/>'), keys('act="1"')),
        ["act", "model has 0"]),
    "act of a general filter": (
        doc(WORLD, actuators('<general joint="j" dyntype="filter"/>'), keys('act="1 2"')),
        ["act", "model has 1"]),
    # a class's shortcut sets the dyntype of a <general> of it (a <dcmotor> its actdim): such
    # actuators were left uncounted, and act not checked
    "act of a general under a cylinder default": (
        doc("<default><cylinder/></default>", WORLD, actuators('<general joint="j"/>'),
            keys('act="1 2"')), ["act", "model has 1"]),
    "act of a general under a position default": (
        doc('<default><position kp="1"/></default>', WORLD, actuators('<general joint="j"/>'),
            keys('act="1"')), ["act", "model has 0"]),
    "act of a dcmotor with two states": (
        doc(WORLD, actuators('<dcmotor joint="j" motorconst="1" resistance="1" inductance="1" '
                             'thermal="1 1 1 1 1 1"/>'), keys('act="1 2 3"')),
        ["act", "model has 2"]),
    "act of a dcmotor with two states, two numbers": (
        doc(WORLD, actuators('<dcmotor joint="j" motorconst="1" resistance="1" inductance="1" '
                             'thermal="1 1 1 1 1 1"/>'), keys('act="1 2"')), None),
    # a <dcmotor>'s controller keeps a state for a ki above 0 and one for a slewmax above 0
    "act of a dcmotor with an integral controller": (
        doc(WORLD, actuators('<dcmotor joint="j" motorconst="1" resistance="1" input="pos" '
                             'controller="1 1 0 0 0 0"/>'), keys('act="1"')), None),
    "act of a dcmotor with an integral and slew-limited controller": (
        doc(WORLD, actuators('<dcmotor joint="j" motorconst="1" resistance="1" input="pos" '
                             'controller="1 1 0 2 0 0"/>'), keys('act="1 2 3"')),
        ["act", "model has 2"]),
    "act of a dcmotor whose class's controller is slew-limited": (
        doc('<default><dcmotor motorconst="1" resistance="1" input="pos" '
            'controller="1 0 0 2 0 0"/></default>', WORLD,
            actuators('<dcmotor joint="j" inductance="1"/>'), keys('act="1 2"')), None),
    # a <general> writing a class's dcmotor gains rewrites what a later <dcmotor> inherits
    "act of a dcmotor whose class's <general> gave it a time constant": (
        doc('<default><dcmotor motorconst="1" resistance="1"/><default class="c">'
            '<general dynprm="0.5"/></default></default>', WORLD,
            actuators('<dcmotor joint="j" class="c"/>'), keys('act="1"')), None),
    "act of a general under a dcmotor default": (
        doc('<default><dcmotor motorconst="1" resistance="1" lugre="1 0 0 0"/></default>',
            WORLD, actuators('<general joint="j"/>'), keys('act="1 2"')),
        ["act", "model has 1"]),
    "act of a general of actdim 2": (
        doc(WORLD, actuators('<general joint="j" dyntype="user" actdim="2"/>'),
            keys('act="1 2 3"')), ["act", "model has 2"]),
    "act of an orientation": (
        doc('<worldbody><site name="r"/><body name="b"><joint name="j"/><geom size="0.1"/>'
            '<site name="s"/></body></worldbody>',
            actuators('<orientation site="s" refsite="r" kp="1"/>'), keys('act="1"')),
        ["act", "model has 0"]),
    "act of a mujoco.pid plugin": (
        doc('<extension><plugin plugin="mujoco.pid"/></extension>', WORLD,
            actuators('<plugin plugin="mujoco.pid" joint="j" actdim="1">'
                      '<config key="ki" value="1"/></plugin>'), keys('act="1 2"')),
        ["act", "model has 1"]),
    "mocap": (doc(MOCAP, keys('mpos="1 2 3" mquat="1 0 0 0"')), None),
    "mocap mpos of 4": (doc(MOCAP, keys('mpos="1 2 3 4"')),
                        ["mpos", "model has 3"]),
    "mocap mquat of 3": (doc(MOCAP, keys('mquat="1 0 0"')), None),
    "mocap mquat of 5": (doc(MOCAP, keys('mquat="1 0 0 0 0"')), ["mquat", "model has 4"]),
    "qpos too short": (doc('<worldbody><body><joint/><joint type="slide"/><geom size="0.1"/>'
                           "</body></worldbody>", keys('qpos="1"')), None),
}


@pytest.mark.parametrize("case", sorted(KEYFRAMES))
def test_keyframe_sizes_are_checked_as_mujoco_checks_them(case):
    """A <key>'s qpos, qvel, act, ctrl, mpos and mquat hold at most nq, nv, na, nu,
    3 nmocap and 4 nmocap numbers: MuJoCo 4 refuses more (and fills fewer from the model);
    urdf2dyn loaded them all (a fragment with only a <keyframe> as an empty model)."""
    xml, words = KEYFRAMES[case]
    assert_as_mujoco(xml, words)


DUPLICATES = {
    "actuator": (f"<mujoco>{WORLD}" + actuators('<motor name="a" joint="j"/>',
                                                '<position name="a" joint="j"/>') + "</mujoco>",
                 ["two actuators", "'a'"]),
    "site": ('<mujoco><worldbody><body name="b1"><joint/><geom size="0.1"/><site name="s"/>'
             '</body><body name="b2"><joint/><geom size="0.1"/><frame><site name="s"/></frame>'
             "</body></worldbody></mujoco>", ["two sites", "'s'"]),
    "geom": (f'<mujoco><worldbody><geom name="g" size="1"/>{BODY}<geom name="g" size="1"/>'
             "</worldbody></mujoco>", ["two geoms", "'g'"]),
    "camera": (f'<mujoco><worldbody><camera name="c"/><camera name="c"/>{BODY}</worldbody>'
               "</mujoco>", ["two cameras"]),
    "frame": (f'<mujoco><worldbody><frame name="f"/>{BODY}<frame name="f"/></worldbody>'
              "</mujoco>", ["two frames"]),
    "frame and site share a name": (f'<mujoco><worldbody><frame name="f"><site name="f"/>'
                                    f"</frame>{BODY}</worldbody></mujoco>", None),
    "light": (f'<mujoco><worldbody><light name="c"/>{BODY}<light name="c"/></worldbody>'
              "</mujoco>", ["two lights"]),
    "tendon": (f'<mujoco>{WORLD}<tendon><fixed name="t"><joint joint="j" coef="1"/></fixed>'
               '<fixed name="t"><joint joint="j" coef="1"/></fixed></tendon></mujoco>',
               ["two tendons"]),
    "sensor": (f'<mujoco>{WORLD}<sensor><jointpos name="s" joint="j"/>'
               '<jointvel name="s" joint="j"/></sensor></mujoco>', ["two sensors"]),
    "equality": (f'<mujoco>{WORLD}<equality><joint name="e" joint1="j"/>'
                 '<joint name="e" joint1="j"/></equality></mujoco>', ["two equality"]),
    "key": (f'<mujoco>{WORLD}<keyframe><key name="k"/><key name="k"/></keyframe></mujoco>',
            ["two keys"]),
    "material": (f'<mujoco><asset><material name="m"/><material name="m"/></asset>{WORLD}'
                 "</mujoco>", ["two materials"]),
    "texture": ('<mujoco><asset><texture name="t" builtin="flat" width="2" height="2"/>'
                '<texture name="t" builtin="flat" width="2" height="2"/></asset>'
                f"{WORLD}</mujoco>", ["two textures"]),
    "hfield": ('<mujoco><asset><hfield name="h" nrow="2" ncol="2" size="1 1 1 1"/>'
               '<hfield name="h" nrow="2" ncol="2" size="1 1 1 1"/></asset>'
               f"{WORLD}</mujoco>", ["two height fields"]),
    "numeric": (f'<mujoco><custom><numeric name="n" data="1"/><numeric name="n" data="1"/>'
                f"</custom>{WORLD}</mujoco>", ["two numerics"]),
    "text": (f'<mujoco><custom><text name="n" data="a"/><text name="n" data="a"/></custom>'
             f"{WORLD}</mujoco>", ["two texts"]),
    "tuple": (f'<mujoco><custom><tuple name="n"/><tuple name="n"/></custom>{WORLD}</mujoco>',
              ["two tuples"]),
    "pair": ('<mujoco><worldbody><geom name="g1" size="1"/><geom name="g2" size="1"/>'
             f'{BODY}</worldbody><contact><pair name="p" geom1="g1" geom2="g2"/>'
             '<pair name="p" geom1="g1" geom2="g2"/></contact></mujoco>', ["two contact pairs"]),
    "exclude": (f'<mujoco>{WORLD}<contact><exclude name="p" body1="world" body2="b"/>'
                '<exclude name="p" body1="world" body2="b"/></contact></mujoco>',
                ["two contact excludes"]),
    "geom and site share a name": (f'<mujoco><worldbody><geom name="x" size="1"/>'
                                   f'<site name="x"/>{BODY}</worldbody></mujoco>', None),
    "actuator named as its joint": (f"<mujoco>{WORLD}"
                                    + actuators('<motor name="j" joint="j"/>') + "</mujoco>",
                                    None),
    "two empty names": (f"<mujoco>{WORLD}" + actuators('<motor name="" joint="j"/>',
                                                       '<motor name="" joint="j"/>')
                        + "</mujoco>", None),
    "two unnamed": (f"<mujoco>{WORLD}" + actuators('<motor joint="j"/>', '<motor joint="j"/>')
                    + "</mujoco>", None),
}


@pytest.mark.parametrize("case", sorted(DUPLICATES))
def test_repeated_names_are_refused_as_mujoco_refuses_them(case):
    """MuJoCo refuses two elements of one kind (actuators, sites, geoms, tendons, sensors,
    keys, assets...) under one name; an empty or absent name, or one name on elements of two
    kinds, it compiles. urdf2dyn loaded every repeated name but a body's, a joint's and a
    mesh's."""
    xml, words = DUPLICATES[case]
    assert_as_mujoco(xml, words + ["line 1", "rename"] if words else None)


SITES = {
    "mesh site without a mesh": (f'<mujoco><worldbody><site name="s" type="mesh"/>{BODY}'
                                 "</worldbody></mujoco>", ["site 's'", "mesh=", "line 1"]),
    "mesh site from its class": ('<mujoco><default><site type="mesh"/></default><worldbody>'
                                 f'{BODY}<site/></worldbody></mujoco>', ["<site>", "mesh="]),
    "mesh site with its mesh": (f'<mujoco>{MESH}<worldbody><site type="mesh" mesh="m"/>'
                                f"{BODY}</worldbody></mujoco>", None),
    "mesh site with an unknown mesh": (f'<mujoco>{MESH}<worldbody><site type="mesh" '
                                       f'mesh="zz"/>{BODY}</worldbody></mujoco>',
                                       ["mesh=\"zz\"", "no <mesh>"]),
    "sphere site with a mesh": (f'<mujoco>{MESH}<worldbody><site type="sphere" mesh="m"/>'
                                f"{BODY}</worldbody></mujoco>", ["mesh=", "type=\"mesh\""]),
}


@pytest.mark.parametrize("case", sorted(SITES))
def test_mesh_site_needs_its_mesh_as_in_mujoco(case):
    """MuJoCo refuses a site of type mesh without a mesh= naming a mesh asset, and a mesh= on
    a site of another type; urdf2dyn loaded them."""
    xml, words = SITES[case]
    assert_as_mujoco(xml, words)


def _jbody(attrs):
    return f'<worldbody><body><joint name="k" {attrs}/><geom size="0.1"/></body></worldbody>'


RANGES = {
    "actuatorfrcrange inverted": (
        doc(_jbody('actuatorfrcrange="1 -1" actuatorfrclimited="true"')),
        ["joint 'k'", "actuatorfrcrange", "line 1"]),
    "actuatorfrcrange empty": (
        doc(_jbody('actuatorfrcrange="1 1" actuatorfrclimited="true"')), ["actuatorfrcrange"]),
    "actuatorfrclimited without a range": (
        doc(_jbody('actuatorfrclimited="true"')), ["actuatorfrcrange"]),
    "actuatorfrcrange inverted, auto": (doc(_jbody('actuatorfrcrange="1 -1"')), None),
    "actuatorfrcrange right": (
        doc(_jbody('actuatorfrcrange="-1 1" actuatorfrclimited="true"')), None),
    "actuatorfrcrange without autolimits": (
        doc('<compiler autolimits="false"/>', _jbody('actuatorfrcrange="-1 1"')),
        ["actuatorfrclimited", "autolimits"]),
    "actuatorfrcrange without autolimits, unlimited": (
        doc('<compiler autolimits="false"/>',
            _jbody('actuatorfrcrange="-1 1" actuatorfrclimited="false"')), None),
    "actuatorfrcrange inverted from a class": (
        doc('<default><default class="x"><joint actuatorfrcrange="1 -1" '
            'actuatorfrclimited="true"/></default></default>', _jbody('class="x"')),
        ["actuatorfrcrange"]),
    "forcerange on a joint": (doc(_jbody('forcerange="-1 1"')),
                              ["forcerange", "actuatorfrcrange"]),
    "forcerange on a joint default": (
        doc('<default><joint forcerange="1 2"/></default>', WORLD),
        ["forcerange", "actuatorfrcrange"]),
    "actuator forcerange inverted": (
        doc(WORLD, actuators('<motor name="a" joint="j" forcerange="1 -1" '
                             'forcelimited="true"/>')),
        ["actuator 'a'", "forcerange", "line 1"]),
    "actuator forcelimited without a range": (
        doc(WORLD, actuators('<motor joint="j" forcelimited="true"/>')),
        ["actuator 0", "forcerange"]),
    "actuator ctrlrange inverted": (
        doc(WORLD, actuators('<motor joint="j" ctrlrange="1 -1" ctrllimited="true"/>')),
        ["ctrlrange"]),
    "actuator actrange inverted": (
        doc(WORLD, actuators('<general joint="j" dyntype="integrator" actrange="1 -1" '
                             'actlimited="true"/>')), ["actrange"]),
    "general actrange without dynamics": (
        doc(WORLD, actuators('<general name="a" joint="j" actrange="0 1"/>')),
        ["actuator 'a'", "actrange", "dyntype"]),
    "general actrange limited without dynamics": (
        doc(WORLD, actuators('<general joint="j" actrange="0 1" actlimited="true"/>')),
        ["actrange", "dyntype"]),
    "general actrange with dynamics": (
        doc(WORLD, actuators('<general joint="j" dyntype="integrator" actrange="0 1"/>')),
        None),
    "intvelocity actrange inverted": (
        doc(WORLD, actuators('<intvelocity joint="j" kp="1" actrange="1 -1" '
                             'actlimited="true"/>')), None),
    "actuator ranges inverted, auto": (
        doc(WORLD, actuators('<position joint="j" kp="1" ctrlrange="1 -1" forcerange="2 1"/>')),
        None),
    "actuator forcerange without autolimits": (
        doc('<compiler autolimits="false"/>', WORLD,
            actuators('<motor joint="j" forcerange="-1 1"/>')),
        ["forcelimited", "autolimits"]),
    "actuator ctrlrange without autolimits": (
        doc('<compiler autolimits="false"/>', WORLD,
            actuators('<motor joint="j" ctrlrange="-1 1"/>')),
        ["ctrllimited", "autolimits"]),
    "actuator forcerange inverted from a class": (
        doc('<default><motor forcerange="1 -1" forcelimited="true"/></default>', WORLD,
            actuators('<motor joint="j"/>')), ["forcerange"]),
    "actuator forcerange 0 0 without autolimits": (
        doc('<compiler autolimits="false"/>', WORLD,
            actuators('<motor joint="j" forcerange="0 0"/>')), None),
    "damper without a ctrlrange": (doc(WORLD, actuators('<damper joint="j" kv="1"/>')),
                                   ["actuator 0", "<damper>", "ctrlrange"]),
    "damper with ctrllimited false": (
        doc(WORLD, actuators('<damper joint="j" kv="1" ctrllimited="false"/>')),
        ["<damper> has no ctrllimited= attribute", "unrecognized attribute"]),
    "damper with a negative ctrlrange": (
        doc(WORLD, actuators('<damper joint="j" kv="1" ctrlrange="-1 1"/>')), ["ctrlrange"]),
    "damper with its ctrlrange": (
        doc(WORLD, actuators('<damper joint="j" kv="1" ctrlrange="0 1"/>')), None),
    "adhesion without a ctrlrange": (doc(WORLD, actuators('<adhesion body="b" gain="1"/>')),
                                     ["<adhesion>", "ctrlrange"]),
    "adhesion with its ctrlrange": (
        doc(WORLD, actuators('<adhesion body="b" gain="1" ctrlrange="0 2"/>')), None),
    # a <damper> or <adhesion> default leaves ctrllimited true for every later kind
    "a general of a class whose damper limits its control": (
        doc('<default><damper/></default>', WORLD, actuators('<general joint="j"/>')),
        ["actuator 0", 'ctrlrange="0 0"', "<damper> default", "invalid control range",
         'ctrllimited="false"']),
    "a pid general of a class whose adhesion limits its control": (
        doc('<default><adhesion gain="0"/></default>', WORLD,
            actuators('<general joint="j" gaintype="pid" biastype="affine"/>')),
        ["<adhesion> default", "invalid control range"]),
    "a general of a class whose adhesion default a motor follows": (
        doc('<default><default class="a"><adhesion/><default class="b"><motor/></default>'
            '</default></default>', WORLD, actuators('<general class="b" joint="j"/>')),
        ["<adhesion> default", "invalid control range"]),
    "a position of a damper class with an inverted ctrlrange": (
        doc('<default><damper/></default>', WORLD,
            actuators('<position joint="j" ctrlrange="1 0"/>')), ['ctrlrange="1 0"']),
    "a general of a damper class with a negative ctrlrange": (
        doc('<default><damper/></default>', WORLD,
            actuators('<general joint="j" ctrlrange="-1 1"/>')), None),
    "a general of a damper class, ctrllimited false": (
        doc('<default><damper/></default>', WORLD,
            actuators('<general joint="j" ctrllimited="false"/>')), None),
    "a general of a damper class whose general default unlimits it": (
        doc('<default><damper/><general ctrllimited="auto"/></default>', WORLD,
            actuators('<general joint="j"/>')), None),
    # an inheritrange gives the control range from the target's before MuJoCo checks it
    "a position inheriting its range in a damper class": (
        doc('<default><damper/></default>', RANGED,
            actuators('<position joint="j" inheritrange="1"/>')), None),
    "a filtered position inheriting its range in a damper class": (
        doc('<default><damper/></default>', RANGED,
            actuators('<position joint="j" timeconst="0.1" inheritrange="1"/>')), None),
    "a pid inheriting its range in a damper class": (
        doc('<default><damper/></default>', RANGED,
            actuators('<pid joint="j" inheritrange="1"/>')), None),
    "a position of a class whose position after a damper inherits the range": (
        doc('<default><damper/><position inheritrange="1"/></default>', RANGED,
            actuators('<position joint="j"/>')), None),
    "a general of a class whose position after a damper inherits the range": (
        doc('<default><damper/><position inheritrange="1"/></default>', RANGED,
            actuators('<general joint="j"/>')), None),
    "an intvelocity inheriting its actrange in an adhesion class": (
        doc('<default><adhesion/><intvelocity inheritrange="1"/></default>', RANGED,
            actuators('<intvelocity joint="j"/>')), ["<adhesion> default", "invalid control"]),
    "a position inheriting its range, ctrllimited true": (
        doc(RANGED, actuators('<position joint="j" inheritrange="1" ctrllimited="true"/>')),
        None),
    "a general of a general default inheriting its range, ctrllimited true": (
        doc('<default><general inheritrange="1" biastype="affine" biasprm="0 -1"/></default>',
            RANGED, actuators('<general joint="j" ctrllimited="true"/>')), None),
    # an inheritrange urdf2dyn does not follow may give it too: not refused
    "a pid general of a class whose position inheritrange an adhesion follows": (
        doc('<default><position kp="2" inheritrange="1"/><adhesion gain="1"/></default>',
            RANGED, actuators('<general joint="j" gaintype="pid" biastype="affine" '
                              'dyntype="pid"/>')), None),
    "a pid general of a class whose general inheritrange a cylinder follows": (
        doc('<default><adhesion gain="1"/><general inheritrange="1"/><cylinder/></default>',
            RANGED, actuators('<general joint="j" gaintype="pid" biastype="affine" '
                              'dyntype="pid"/>')), None),
    "a general inheriting its range in an adhesion class": (
        doc('<default><adhesion/></default>', RANGED, actuators(
            '<general joint="j" inheritrange="1" biastype="affine" biasprm="0 -1"/>')), None),
    "a position inheriting its range, autolimits off": (
        doc('<compiler autolimits="false"/>', RANGED,
            actuators('<position joint="j" inheritrange="1"/>')),
        ["inheritrange", "ctrllimited", "autolimits"]),
    "a position of a NaN kp inheriting its range, autolimits off": (
        doc('<compiler autolimits="false"/>', RANGED,
            actuators('<position joint="j" kp="nan" inheritrange="1"/>')), None),
    "a position of a class of a NaN kp inheriting its range, autolimits off": (
        doc('<compiler autolimits="false"/><default><position kp="nan" inheritrange="1"/>'
            '</default>', RANGED, actuators('<position joint="j"/>')), None),
    "a position inheriting its range in a damper class, autolimits off": (
        doc('<compiler autolimits="false"/><default><damper/></default>', RANGED,
            actuators('<position joint="j" inheritrange="1"/>')), None),
    "tendon range inverted": (
        doc(WORLD, '<tendon><fixed name="t" range="1 -1" limited="true">'
            '<joint joint="j" coef="1"/></fixed></tendon>'), ["tendon 't'", "range"]),
    "tendon actuatorfrcrange inverted": (
        doc(WORLD, '<tendon><fixed actuatorfrcrange="1 -1" actuatorfrclimited="true">'
            '<joint joint="j" coef="1"/></fixed></tendon>'), ["actuatorfrcrange"]),
}


@pytest.mark.parametrize("case", sorted(RANGES))
def test_force_and_control_ranges_are_checked_as_mujoco_checks_them(case):
    """A joint's actuatorfrcrange, an actuator's forcerange, ctrlrange and actrange and a
    tendon's range and actuatorfrcrange, limited (explicitly, or by autolimits when the range
    increases), must increase: MuJoCo refuses range[0] >= range[1], a range without its
    limited= when autolimits is off, and forcerange= on a joint (its schema has
    actuatorfrcrange); urdf2dyn did not read them and loaded every case. A <damper> or
    <adhesion> default sets ctrllimited true for the actuators of the class after it,
    whatever their kind (MuJoCo 4.0.0 keeps it until a ctrllimited= says otherwise), which
    urdf2dyn loaded with a ctrlrange of 0 0."""
    xml, words = RANGES[case]
    assert_as_mujoco(xml, words)


def test_convex_mesh_advice_is_given_once(tmp_path):
    """The refusal of a mesh with inertia="convex" says once to give the body an <inertial>
    (it said it twice: the mesh's message and the body's)."""
    (tmp_path / "m.stl").write_text("solid ascii")
    for xml in ['<mujoco><asset><mesh name="m" file="m.stl" inertia="convex"/></asset>',
                '<mujoco><asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" '
                'inertia="convex"/></asset>']:
        path = tmp_path / "a.xml"
        path.write_text(xml + '<worldbody><body name="arm"><joint/><geom type="mesh" '
                        'mesh="m"/></body></worldbody></mujoco>')
        with pytest.raises(urdf2dyn.URDFError) as e:
            urdf2dyn.load(str(path))
        msg = str(e.value)
        assert msg.count("<inertial>") == 1 and "convex" in msg and "body 'arm'" in msg, msg


_KEYFRAME_MODEL = ('<mujoco><worldbody><body name="m" mocap="true"/><body><freejoint/>'
                   '<geom size="0.1"/><body pos="0 0 0.3"><joint name="h"/><geom size="0.1"/>'
                   '<body pos="0 0.3 0"><joint type="ball"/><geom size="0.1"/></body></body>'
                   "</body></worldbody>"
                   '<actuator><motor joint="h"/><intvelocity joint="h" kp="1"/></actuator>'
                   "{keys}</mujoco>")     # nq 12, nv 10, nu 2, na 1, nmocap 1


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["qpos", "qvel", "act", "ctrl", "mpos", "mquat"]),
                       st.lists(st.floats(-1e3, 1e3), max_size=14), max_size=3))
def test_random_keyframe_sizes_refused_exactly_where_mujoco_refuses(arrays):
    """Random keyframe arrays on a model with nq 12, nv 10, na 1, nu 2 and one mocap body:
    urdf2dyn refuses exactly when MuJoCo does, with a URDFError naming the array (never
    another exception)."""
    attrs = " ".join(f'{k}="{" ".join(repr(x) for x in v)}"' for k, v in arrays.items())
    xml = _KEYFRAME_MODEL.format(keys=keys(attrs))
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (expected, got)
    if got is not None:
        assert any(f"{k}=" in got for k in arrays), got


_ACTUATORS = ['<motor joint="j"/>', '<velocity joint="j"/>',
              '<damper joint="j" kv="1" ctrlrange="0 1"/>',
              '<position joint="j" kp="1"/>', '<position joint="j" kp="1" timeconst="0.1"/>',
              '<intvelocity joint="j" kp="1"/>', '<cylinder joint="j"/>',
              '<general joint="j"/>', '<general joint="j" dyntype="none"/>',
              '<general joint="j" dyntype="integrator"/>', '<general joint="j" dyntype="filter"/>',
              '<general joint="j" dyntype="filterexact"/>',
              '<general joint="j" dyntype="user"/>', '<general joint="j" actdim="0"/>',
              '<general joint="j" dyntype="filter" actdim="1"/>',
              '<dcmotor joint="j" motorconst="1" resistance="1"/>',
              '<dcmotor joint="j" motorconst="1" resistance="1" inductance="1" '
              'lugre="1 0 0 0"/>']
# a class's shortcuts set their own dyntype (and a <dcmotor> its actdim) for every actuator
# of it, a <general> among them too
_ACTUATOR_DEFAULTS = ["", '<general dyntype="integrator"/>', '<general dyntype="filter"/>',
                      '<position timeconst="0.1"/>', '<position timeconst="0"/>',
                      "<cylinder/>", '<intvelocity kp="1"/>', "<motor/>",
                      '<dcmotor motorconst="1" resistance="1" thermal="1 1 1 1 1 1"/>',
                      '<general dyntype="filter"/><position kp="2"/>',
                      '<dcmotor motorconst="1" resistance="1" inductance="1"/>'
                      '<general dyntype="filter"/>']


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_ACTUATORS), max_size=4), st.sampled_from(_ACTUATOR_DEFAULTS),
       st.integers(0, 5))
def test_random_actuators_act_size_refused_exactly_where_mujoco_refuses(elements, default, n):
    """A key's act of n numbers on random actuators (of every kind but pid, whose states
    urdf2dyn does not count) under a random actuator default: urdf2dyn refuses exactly when
    MuJoCo does (a <general> under a shortcut default was left unchecked)."""
    xml = doc(f"<default>{default}</default>" if default else "", WORLD, actuators(*elements),
              keys(f'act="{" ".join(["0.5"] * n)}"'))
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


# ---- names: the ones urdf2dyn generates, empty ones, repeated ones across files ----------

def _body(name, *joints, extra=""):
    """A body with a sphere geom and joints (each a name, None for none), hinge axes apart."""
    attr = "" if name is None else f' name="{name}"'
    axes = ["1 0 0", "0 1 0", "0 0 1"]
    js = "".join(f'<joint{"" if j is None else f" name={chr(34)}{j}{chr(34)}"} '
                 f'axis="{axes[k % 3]}"/>' for k, j in enumerate(joints))
    return f'<body{attr}>{js}<geom size="0.1"/>{extra}</body>'


def _world(*bodies):
    return "<worldbody>" + "".join(bodies) + "</worldbody>"


def _names_kept(xml, model):
    """Every body and joint name MuJoCo compiles is urdf2dyn's too; urdf2dyn's link names and
    joint names are each unique."""
    m = mujoco.MjModel.from_xml_string(xml)
    bodies = [m.body(k).name for k in range(m.nbody)]
    joints = [m.joint(k).name for k in range(m.njnt)]
    links, jnames = list(model.link_names), [j.name for j in model.joints]
    assert len(set(links)) == len(links), links
    assert len(set(jnames)) == len(jnames), jnames
    assert {b for b in bodies if b} <= set(links), (bodies, links)
    assert {j for j in joints if j} <= set(jnames), (joints, jnames)


GENERATED = {
    "joint named as an unnamed one's name, after it": doc(_world(_body("b", None, "b_joint0"))),
    "joint named as an unnamed one's name, before it": doc(_world(_body("b", "b_joint1", None))),
    "body named as an unnamed one's name, after it": doc(_world(_body(None, None),
                                                                _body("body1", None))),
    "body named as an unnamed one's name, before it": doc(_world(_body("body2", None),
                                                                 _body(None, None))),
    "body named as an intermediate link": doc(
        '<worldbody><body name="b"><joint name="j" pos="1 0 0"/><joint name="k" axis="0 1 0"/>'
        '<geom size="0.1"/></body>', _body("b/j", "x"), "</worldbody>"),
    "joint named as a weld": doc(_world(_body("b"), _body("c", "b/weld"))),
    "joint named as an anchor": doc(
        '<worldbody><body name="b"><joint pos="1 0 0"/><geom size="0.1"/></body>',
        _body("c", "b/anchor", "b_joint0_2"), "</worldbody>"),
    "empty body and joint names": doc(_world(_body("", "", ""), _body("", ""))),
    "an empty name beside the generated one": doc(_world(_body("b", "", "b_joint0"))),
}


@pytest.mark.parametrize("case", sorted(GENERATED))
def test_generated_names_never_refuse_a_file_mujoco_loads(case):
    """urdf2dyn names unnamed bodies and joints (body<id>, <body>_joint<k>) and the links and
    fixed joints it adds (<body>/<joint>, <body>/weld, <body>/anchor); a file naming its own
    body or joint so was refused as a repeated name, which MuJoCo loads. Now a generated name
    a file's name (or an earlier generated one) has gets _2, _3...: every name MuJoCo keeps
    is kept, and urdf2dyn's link and joint names stay unique."""
    xml = GENERATED[case]
    assert mujoco_error(xml) is None
    assert urdf2dyn_error(xml) is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
        _names_kept(xml, urdf2dyn.load(xml))


def test_generated_name_rule_is_the_documented_one():
    """body<id>, <body>_joint<k>, and _2 after a name the file gives."""
    xml = doc(_world(_body(None, None, "body1_joint1"), _body("body1", None)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
        model = urdf2dyn.load(xml)
    assert [j.name for j in model.joints] == ["body1_2_joint0", "body1_joint1", "body1_joint0"]
    assert "body1_2" in model.link_names and "body1" in model.link_names


NAME_REFUSALS = {
    "actuator on an unnamed joint by its generated name": (
        doc(_world(_body("b", None)), actuators('<motor joint="b_joint0"/>')),
        ["joint=\"b_joint0\"", "names no joint"]),
    "actuator on an unnamed body's joint": (
        doc(_world(_body(None, "j")), actuators('<motor joint="j"/>')), None),
    "body named world": (doc(_world(_body("world", None))), ["'world'", "rename"]),
    "two bodies": (doc(_world(_body("a", None), _body("a", None))),
                   ["two bodies", "'a'", "line 1"]),
    "two joints in two bodies": (doc(_world(_body("a", "j"), _body("b", "j"))),
                                 ["two joints", "'j'", "line 1"]),
    "a freejoint and a joint": (
        doc('<worldbody><body><freejoint name="j"/><geom size="0.1"/></body>',
            _body("b", "j"), "</worldbody>"), ["two joints", "'j'"]),
}


@pytest.mark.parametrize("case", sorted(NAME_REFUSALS))
def test_body_and_joint_names_are_refused_as_mujoco_refuses_them(case):
    """An actuator cannot drive an unnamed joint by the name urdf2dyn gives it (MuJoCo does
    not know that name: urdf2dyn loaded it); a body named 'world' and repeated body or joint
    names are refused, naming both lines."""
    xml, words = NAME_REFUSALS[case]
    assert_as_mujoco(xml, words)


_TEX = 'builtin="flat" width="2" height="2"'
_HF = 'nrow="2" ncol="2" size="1 1 1 1"'
EMPTY_NAMES = {
    "mesh": (doc(f'<asset><mesh name="" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>', WORLD),
             ["<mesh>", "no name", "empty name in mesh", "line 1"]),
    "material": (doc('<asset><material name=""/></asset>', WORLD), ["<material>", "name="]),
    "unnamed material": (doc('<asset><material/></asset>', WORLD), ["<material>"]),
    "texture": (doc(f'<asset><texture name="" type="2d" {_TEX}/></asset>', WORLD),
                ["<texture>", "empty name in texture"]),
    "unnamed texture": (doc(f'<asset><texture {_TEX}/></asset>', WORLD), ["<texture>"]),
    "unnamed cube texture of six files": (
        doc('<asset><texture type="cube" fileright="r.png" fileleft="l.png" fileup="u.png" '
            'filedown="d.png" filefront="f.png" fileback="b.png"/></asset>', WORLD),
        ["<texture>"]),
    "unnamed 2d texture by its class": (
        doc('<default><default class="c"><texture type="2d"/></default></default>',
            f'<asset><texture class="c" {_TEX}/></asset>', WORLD), ["<texture>"]),
    "unnamed skybox": (doc(f'<asset><texture type="skybox" {_TEX}/></asset>', WORLD), None),
    "empty-named skybox": (doc(f'<asset><texture name="" type="skybox" {_TEX}/></asset>',
                               WORLD), None),
    "unnamed skybox by the main class": (
        doc('<default><texture type="skybox"/></default>',
            f'<asset><texture {_TEX}/><texture {_TEX}/></asset>', WORLD), None),
    "height field": (doc(f'<asset><hfield name="" {_HF}/></asset>', WORLD),
                     ["<hfield>", "empty name in hfield"]),
    "unnamed height field": (doc(f'<asset><hfield {_HF}/></asset>', WORLD), ["<hfield>"]),
    "geom, site, camera, light, frame": (
        doc('<worldbody><geom name="" size="1"/><site name=""/><camera name=""/>'
            '<light name=""/><frame name=""/>', BODY, "</worldbody>"), None),
    "tendon, actuator, sensor, equality, key": (
        doc(WORLD, '<tendon><fixed name=""><joint joint="j" coef="1"/></fixed></tendon>',
            actuators('<motor name="" joint="j"/>'),
            '<sensor><jointpos name="" joint="j"/></sensor>',
            '<equality><joint name="" joint1="j"/></equality>',
            '<keyframe><key name=""/></keyframe>'), None),
    "numeric without a name": (doc(WORLD, '<custom><numeric data="1"/></custom>'),
                               ["<numeric>", "name=", "line 1"]),
    "text without a name": (doc(WORLD, '<custom><text data="a"/></custom>'), ["<text>"]),
    "tuple without a name": (doc(WORLD, '<custom><tuple/></custom>'), ["<tuple>"]),
    "numeric, text, exclude": (
        doc(WORLD, '<custom><numeric name="" data="1"/><text name="" data="a"/></custom>',
            '<contact><exclude name="" body1="world" body2="b"/></contact>'), None),
}


@pytest.mark.parametrize("case", sorted(EMPTY_NAMES))
def test_empty_names_are_refused_where_mujoco_refuses_them(case):
    """MuJoCo refuses a mesh, material, height field or texture (but a skybox, whose type
    may come from its class) without a name, name="" being none ("empty name in texture");
    every other element may have an empty name. A custom numeric, text or tuple needs name=,
    which MuJoCo's schema requires (an empty one it loads). urdf2dyn loaded them all."""
    xml, words = EMPTY_NAMES[case]
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (words is None), expected
    assert (got is None) == (words is None), got
    for w in words or []:
        assert w.replace("hfield", "height field") in got.replace("hfield", "height field"), \
            (got, expected)


_NO_2D = "Cannot load 2D texture from separate files"
_NO_CUBE = "No cubefiles_ defined in cube or skybox texture"
_NO_WIDTH = "Invalid width of builtin texture"
_NO_HEIGHT = "Invalid height of builtin texture"
_NO_TYPE = "unsupported content type: "
TEXTURE_SOURCES = {  # the case: <texture> attributes, class defaults, MuJoCo's reason
    "2d, nothing": ('type="2d"', "", _NO_2D,
                    ["texture 't'", "line 1", "file=", "builtin="]),
    "2d, builtin none": ('type="2d" builtin="none"', "", _NO_2D, ["file="]),
    "2d, empty file": ('type="2d" file=""', "", _NO_2D, ["file="]),
    "2d, a cube's file": ('type="2d" fileright="r.png"', "", _NO_2D, ["file="]),
    "2d, class's builtin none over a checker": (
        'type="2d" builtin="none"', '<texture builtin="checker"/>', _NO_2D, ["file="]),
    "2d, class's checker": ('type="2d"', '<texture builtin="checker" width="4" height="4"/>',
                            None, None),
    "cube by default, nothing": ("", "", _NO_CUBE, ["fileright="]),
    "cube, nothing": ('type="cube"', "", _NO_CUBE, ["fileright="]),
    "skybox, nothing": ('type="skybox"', "", _NO_CUBE, ["fileright="]),
    "cube, empty fileright": ('type="cube" fileright=""', "", _NO_CUBE, ["fileright="]),
    "cube by its class, nothing": ("", '<texture type="cube"/>', _NO_CUBE, ["fileright="]),
    "2d by its class, nothing": ("", '<texture type="2d"/>', _NO_2D, ["file="]),
    "2d, builtin checker": ('type="2d" builtin="checker" width="4" height="4"', "", None, None),
    "cube, builtin checker": ('type="cube" builtin="checker" width="4" height="4"', "", None,
                              None),
    # a builtin needs a width (and a 2d one a height) of 1 or more, its own or its class's
    "2d, builtin without width": ('type="2d" builtin="checker"', "", _NO_WIDTH,
                                  ["texture 't'", "line 1", "width 0", "width="]),
    "2d, builtin without height": ('type="2d" builtin="checker" width="4"', "", _NO_HEIGHT,
                                   ["height 0", "height="]),
    "2d, builtin of width -1": ('type="2d" builtin="flat" width="-1" height="4"', "",
                                _NO_WIDTH, ["width -1"]),
    "2d, class's checker without width": ('type="2d"', '<texture builtin="checker"/>',
                                          _NO_WIDTH, ["width="]),
    "2d, builtin, its class's size": ('type="2d" builtin="checker"',
                                      '<texture width="4" height="4"/>', None, None),
    "cube, builtin width only": ('builtin="gradient" width="4"', "", None, None),
    "skybox, builtin height only": ('type="skybox" builtin="gradient" height="4"', "",
                                    _NO_WIDTH, ["width 0"]),
    "cube, builtin six times too wide": ('builtin="checker" width="357913941"', "",
                                         _NO_WIDTH, ["357913941", "six squares"]),
    "2d, builtin over a file of no known type": (
        'type="2d" file=" " builtin="checker" width="2" height="2"', "", None, None),
    "2d, width 4.5": ('type="2d" builtin="checker" width="4.5" height="4"', "",
                      "bad format in attribute 'width'", ["width=", "whole number"]),
    "2d, height of two numbers": ('type="2d" builtin="checker" width="4" height="4 4"', "",
                                  "attribute 'height' has too much data", ["height="]),
    "class's width x": ('type="2d" file="t.png"', '<texture width="x"/>',
                        "bad format in attribute 'width'", ["width="]),
    # a file is a PNG or KTX image by its content_type= or extension, whether there or not
    "2d, file a space": ('type="2d" file=" "', "", _NO_TYPE + "''",
                         ["texture 't'", 'file=" "', "PNG or KTX", ".png"]),
    "2d, file without extension": ('type="2d" file="a"', "", _NO_TYPE + "''", ["file="]),
    "2d, file with a space after .png": ('type="2d" file="a.png "', "", _NO_TYPE, ["file="]),
    "2d, jpeg file": ('type="2d" file="a.jpg"', "", _NO_TYPE, ["file="]),
    "2d, stl file": ('type="2d" file="a.stl"', "", _NO_TYPE + "'model/stl'", ["model/stl"]),
    "2d, jpeg content type": ('type="2d" file="a.png" content_type="image/jpeg"', "",
                              _NO_TYPE + "'image/jpeg'", ["content_type=", "image/jpeg"]),
    "2d, content type of no subtype": ('type="2d" file="a.png" content_type="image/"', "",
                                       _NO_TYPE + "''", ["content_type="]),
    "2d, content type with a bare parameter": (
        'type="2d" file="a" content_type="image/png;x"', "", _NO_TYPE, ["content_type="]),
    # (MuJoCo stops at a.png, not there; were it there, it would refuse b next)
    "cube, second face without extension": ('type="cube" fileright="a.png" fileleft="b"', "",
                                            "Error opening file 'a.png'", ['fileleft="b"']),
    "cube, file of no type and a png face": ('type="cube" file="b" fileleft="a.png"', "",
                                             _NO_TYPE, ['file="b"']),
    "cube, face of no type": ('type="cube" fileright="b"', "", _NO_TYPE, ['fileright="b"']),
}
_FILE_SOURCES = {   # a texture MuJoCo reads from a file, which is not there: it says so
    "2d, png": 'type="2d" file="a.png"', "2d, PNG": 'type="2d" file="a.PNG"',
    "2d, ktx": 'type="2d" file="a.ktx"',
    "2d, png content type with a parameter": 'type="2d" file="a" content_type="image/png;x=1"',
    "2d, png file, empty content type": 'type="2d" file="a.png" content_type=""',
    "cube, png file and a face of no type": 'type="cube" file="a.png" fileleft="b"',
}


@pytest.mark.parametrize("case", sorted(TEXTURE_SOURCES))
def test_texture_needs_a_source_as_mujoco_has_it(case):
    """MuJoCo 4.0.0 refuses a <texture> with neither a file= nor a builtin other than none
    (its own or its class's): a 2d one it cannot load from separate files, a cube or skybox
    (the default type) needs one of fileright, fileleft, fileup, filedown, filefront and
    fileback. urdf2dyn loaded them."""
    attrs, default, reason, words = TEXTURE_SOURCES[case]
    xml = doc(f"<default>{default}</default>", f'<asset><texture name="t" {attrs}/></asset>',
              WORLD)
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


@pytest.mark.parametrize("case", sorted(_FILE_SOURCES))
def test_texture_of_an_image_file_loads_as_mujoco_reads_it(case):
    """MuJoCo 4.0.0 reads a texture's PNG or KTX file (by its content_type= or extension,
    any case): these it refuses only because the file is not there, which urdf2dyn, not
    opening texture files, does not check."""
    xml = doc(f'<asset><texture name="t" {_FILE_SOURCES[case]}/></asset>', WORLD)
    assert "Error opening file" in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert urdf2dyn_error(xml) is None


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["2d", "cube"]), st.sampled_from(["checker", "none"]),
       st.text(alphabet=" +-0123456789.x", max_size=3),
       st.text(alphabet=" +-0123456789.x", max_size=3))
def test_random_builtin_texture_size_refused_exactly_where_mujoco_refuses(kind, builtin, width,
                                                                           height):
    """Random width= and height= text on a texture (at most 3 characters: MuJoCo builds
    the texture): urdf2dyn refuses it exactly where MuJoCo refuses its form or, for a
    builtin, its value; a texture without builtin reads a PNG file, which is not there."""
    xml = doc(f'<asset><texture name="t" type="{kind}" builtin="{builtin}" file="t.png" '
              f'width="{width}" height="{height}"/></asset>', WORLD)
    error = mujoco_error(xml) or ""
    expected = "builtin texture" in error or "attribute 'width'" in error or \
        "attribute 'height'" in error
    assert expected == (urdf2dyn_error(xml) is not None), (error, urdf2dyn_error(xml))


_SQUARE = 'vertex="0 0 0 1 0 0 0 1 0 0 0 1"'
FILE_NAMES = {
    "texture named by its file": (
        doc(f'<asset><texture name="t" type="2d" {_TEX}/><texture type="2d" file="d/t.png"/>'
            "</asset>", WORLD), ["two textures", "'t'"]),
    "texture with an empty name, named by its file": (
        doc(f'<asset><texture name="t" type="2d" {_TEX}/>'
            '<texture name="" type="2d" file="t.png"/></asset>', WORLD), ["two textures"]),
    "skybox named by its file": (
        doc(f'<asset><texture name="t" type="2d" {_TEX}/><texture type="skybox" file="t.png"/>'
            "</asset>", WORLD), ["two textures"]),
    "two textures of one file": (
        doc('<asset><texture type="2d" file="t.png"/><texture type="2d" file="x/t.png"/>'
            "</asset>", WORLD), ["two textures"]),
    "only the last extension goes": (
        doc(f'<asset><texture name="a.b" type="2d" {_TEX}/><texture type="2d" file="a.b.png"/>'
            "</asset>", WORLD), ["'a.b'"]),
    "a folder with a backslash": (
        doc(f'<asset><texture name="t" type="2d" {_TEX}/><texture type="2d" file="a\\t.png"/>'
            "</asset>", WORLD), ["'t'"]),
    "height field named by its file": (
        doc(f'<asset><hfield name="h" {_HF}/><hfield file="h.png" size="1 1 1 1"/></asset>',
            WORLD), ["two height fields", "'h'"]),
    "mesh with an empty name, named by its file": (
        doc(f'<asset><mesh name="m" {_SQUARE}/><mesh name="" file="d/m.stl"/></asset>', WORLD),
        ["two meshes", "'m'"]),
    "mesh of a dotted file": (
        doc(f'<asset><mesh name="n.x" {_SQUARE}/><mesh file="n.x.stl"/></asset>', WORLD),
        ["two meshes", "'n.x'"]),
    "skin named by its file": (
        doc(WORLD, '<asset><skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2">'
            '<bone body="b" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" '
            'vertweight="1 1 1"/></skin><skin file="s.skn"/></asset>'), ["two skins"]),
}


@pytest.mark.parametrize("case", sorted(FILE_NAMES))
def test_assets_named_by_their_file_are_checked_as_mujoco_names_them(case):
    """A mesh, texture, height field or skin without a name (or with name="") is named after
    its file, without folder and last extension, and that name repeats a named one as MuJoCo
    says; urdf2dyn named only meshes so (and refused one with name="" and a file)."""
    xml, words = FILE_NAMES[case]
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert expected is not None and "repeated name" in expected, expected
    assert got is not None
    for w in words + ["line 1", "rename"]:
        assert w in got, (got, expected)


def _act(el, target='joint="j"'):
    return f"<{el} {target} {{attr}}/>"


_ACT_KINDS = {"motor": _act("motor"), "position": _act("position"),
              "velocity": _act("velocity"), "damper": _act("damper").replace(
                  "{attr}", 'ctrlrange="0 1" {attr}'),
              "cylinder": _act("cylinder"), "muscle": _act("muscle"),
              "adhesion": _act("adhesion", 'body="b" ctrlrange="0 1"'), "dcmotor": _act("dcmotor"),
              "pid": _act("pid")}
ACTRANGE = {}
for _el, _tmpl in _ACT_KINDS.items():
    for _attr in ['actrange="-1 1"', 'actlimited="false"']:
        ACTRANGE[f"{_el} {_attr}"] = (doc(WORLD, actuators(_tmpl.format(attr=_attr))),
                                      [f"<{_el}>", _attr.split("=")[0] + "=", "line 1"])
    ACTRANGE[f"{_el} default"] = (doc(f'<default><{_el} actrange="-1 1"/></default>', WORLD),
                                  [f"<{_el}>", "actrange="])
ACTRANGE.update({
    "intvelocity": (doc(WORLD, actuators('<intvelocity joint="j" kp="1" actrange="-1 1" '
                                         'actlimited="true"/>')), None),
    "intvelocity default": (doc('<default><intvelocity actrange="-1 1"/></default>', WORLD),
                            None),
    "general default": (doc('<default><general actlimited="false"/></default>', WORLD), None),
})

ACTDIM_ON_SHORTCUTS = {}
for _el, _tmpl in (_ACT_KINDS | {"intvelocity": _act("intvelocity"),
                                 "orientation": _act("orientation", 'site="s"')}).items():
    _sited = WORLD.replace("</body>", '<site name="s"/></body>')
    ACTDIM_ON_SHORTCUTS[f"{_el} actdim"] = (
        doc(_sited, actuators(_tmpl.format(attr='actdim="1"'))),
        [f"<{_el}>", "actdim=", "line 1", "<general>"])
    for _actdim in ("1", "1.5"):
        ACTDIM_ON_SHORTCUTS[f"{_el} default actdim={_actdim}"] = (
            doc(f'<default><{_el} actdim="{_actdim}"/></default>', WORLD),
            [f"<{_el}>", "has no actdim="])


@pytest.mark.parametrize("case", sorted(ACTDIM_ON_SHORTCUTS))
def test_actdim_only_on_general_and_plugin_as_mujoco_schema_has_it(case):
    """MuJoCo 4's schema has actdim= on <general> and a plugin actuator only: it refuses it
    on each shortcut element, in <actuator> or a <default> ("unrecognized attribute
    'actdim'"). urdf2dyn loaded them, and for actdim="1.5" in a default advised a whole
    number, which MuJoCo would still refuse."""
    xml, words = ACTDIM_ON_SHORTCUTS[case]
    assert "unrecognized attribute: 'actdim'" in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


_DC = 'motorconst="1" resistance="1"'    # a <dcmotor>'s constants, as MuJoCo needs them
_INCONSISTENT = "inconsistent state array dimension in DC motor"
_ABOVE_1 = "actdim > 1 is only allowed for dyntype 'user', 'dcmotor' and 'pid'"
GENERAL_ACTDIM = {   # the case: its <general> attributes and class defaults, MuJoCo's reason
    "none, actdim 1": ('actdim="1"', "", "invalid actdim 1 in stateless actuator",
                       ["actuator 0", "line 1", "actdim 1", "dyntype", '"none"']),
    "none written, actdim 1": ('dyntype="none" actdim="1"', "",
                               "invalid actdim 1 in stateless actuator", ["actdim 1"]),
    "class's actdim 1": ("", '<general actdim="1"/>', "invalid actdim 1 in stateless actuator",
                         ["actdim 1"]),
    "position class, actdim 1": ('actdim="1"', '<position kp="1"/>',
                                 "invalid actdim 1 in stateless actuator", ["actdim 1"]),
    "position timeconst class, actdim 1": ('actdim="1"', '<position kp="1" timeconst="1"/>',
                                           None, None),
    "none, actdim 2": ('actdim="2"', "", _ABOVE_1, ["actdim 2", "user", "dcmotor", "pid"]),
    "integrator, actdim 2": ('dyntype="integrator" actdim="2"', "", _ABOVE_1, ["actdim 2"]),
    "muscle, actdim 2": ('dyntype="muscle" actdim="2"', "", _ABOVE_1, ["actdim 2"]),
    "user, actdim 3": ('dyntype="user" actdim="3"', "", None, None),
    "integrator, actdim 0": ('dyntype="integrator" actdim="0"', "",
                             "invalid actdim 0 in stateful actuator",
                             ["actdim 0", '"integrator"', 'actdim="1"']),
    "user, actdim 0": ('dyntype="user" actdim="0"', "", "invalid actdim 0 in stateful actuator",
                       ["actdim 0"]),
    "filter, actdim 1": ('dyntype="filter" actdim="1"', "", None, None),
    "none, actdim 0": ('actdim="0"', "", None, None),
    # a class's <dcmotor> sets actdim to its states, which a <general> of the class keeps
    "none under a dcmotor with a state": (
        'dyntype="none"', '<dcmotor motorconst="1" resistance="1" inductance="1"/>',
        "invalid actdim 1 in stateless actuator", ["actdim 1", "<dcmotor> states"]),
    "filter under a dcmotor with no state": (
        'dyntype="filter"', '<dcmotor motorconst="1" resistance="1"/>',
        "invalid actdim 0 in stateful actuator", ["actdim 0", "<dcmotor> states"]),
    "filter under a dcmotor with two states": (
        'dyntype="filter"', '<dcmotor motorconst="1" resistance="1" inductance="1" '
                            'lugre="1 0 0 0"/>', _ABOVE_1, ["actdim 2", "without that <dcmotor>"]),
    "dcmotor kept under a dcmotor with two states": (
        "", '<dcmotor motorconst="1" resistance="1" inductance="1" lugre="1 0 0 0"/>',
        None, None),
    # a dcmotor dyntype's actdim must be the states of its DC motor's settings
    "dcmotor with a thermal state, actdim 0": (
        'actdim="0"', '<dcmotor motorconst="1" resistance="1" thermal="1 1 1 1 1 1"/>',
        "require actdim 1, got 0", ["actdim 0", "<dcmotor>", "1 activation state",
                                    'actdim="1"']),
    "dcmotor with a thermal state, actdim 2": (
        'actdim="2"', '<dcmotor motorconst="1" resistance="1" thermal="1 1 1 1 1 1"/>',
        "require actdim 1, got 2", ["actdim 2", 'actdim="1"']),
    "dcmotor with a thermal state, fixed gains, actdim 0": (
        'gaintype="fixed" actdim="0"',
        '<dcmotor motorconst="1" resistance="1" thermal="1 1 1 1 1 1"/>',
        "require actdim 1, got 0", ["actdim 0"]),
    "dcmotor with no state, actdim 1": (
        'actdim="1"', '<dcmotor motorconst="1" resistance="1"/>', "require actdim 0, got 1",
        ["actdim 1", 'actdim="0"']),
    "dcmotor with a thermal state, actdim 1": (
        'actdim="1"', '<dcmotor motorconst="1" resistance="1" thermal="1 1 1 1 1 1"/>',
        None, None),
    "dcmotor states rewritten by dynprm, actdim 1": (
        'actdim="1" dynprm="0.5"', '<dcmotor motorconst="1" resistance="1"/>', None, None),
    "none, actdim -5": ('actdim="-5"', "", None, None),
    # dcmotor gains want their DC motor's states whatever the dyntype, when MuJoCo first
    # runs the model
    "none, actdim 0 under a dcmotor with a state": (
        'dyntype="none" actdim="0"', f'<dcmotor {_DC} inductance="1"/>', _INCONSISTENT,
        ["0 activation state", '"none"', "<dcmotor> gains", "keep 1", "gaintype="]),
    "user, actdim 1 under a dcmotor with two states": (
        'dyntype="user" actdim="1"', f'<dcmotor {_DC} inductance="1" lugre="1"/>',
        _INCONSISTENT, ["1 activation state", "keep 2"]),
    "user, actdim 2 under a dcmotor with two states": (
        'dyntype="user" actdim="2"', f'<dcmotor {_DC} inductance="1" lugre="1"/>', None, None),
    "filter, actdim 1 under a dcmotor with no state": (
        'dyntype="filter" actdim="1"', f"<dcmotor {_DC}/>", _INCONSISTENT, ["keep 0"]),
    "filter under a dcmotor with a state": (
        'dyntype="filter"', f'<dcmotor {_DC} inductance="1"/>', None, None),
    "none, actdim 0, fixed gains under a dcmotor with a state": (
        'dyntype="none" actdim="0" gaintype="fixed"', f'<dcmotor {_DC} inductance="1"/>',
        None, None),
    "none, actdim 0, no bias under a dcmotor with a state": (
        'dyntype="none" actdim="0" biastype="none"', f'<dcmotor {_DC} inductance="1"/>',
        _INCONSISTENT, ["keep 1"]),
}


@pytest.mark.parametrize("case", sorted(GENERAL_ACTDIM))
def test_general_actdim_fits_its_dyntype_as_mujoco_has_it(case):
    """MuJoCo 4 compiles a <general> with an actdim of 1 or more only for a dyntype other
    than none, of more than 1 only for dyntype user, dcmotor or pid, and of 0 only for none
    (the dyntype as its class leaves it); urdf2dyn loaded each."""
    attrs, default, reason, words = GENERAL_ACTDIM[case]
    xml = doc(f'<default><default class="c">{default}</default></default>', WORLD,
              actuators(f'<general joint="j" class="c" {attrs}/>'))
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


_PID_DYN = "pid requires dyntype 'none' or 'pid'"
PID_DYNTYPES = {   # the case: class defaults, the actuator, MuJoCo's reason
    "integrator under a pid default": (
        "<pid/>", '<general joint="j" dyntype="integrator"/>', _PID_DYN,
        ["actuator 0", "line 1", '"integrator"', "<pid>", "leave dyntype out"]),
    "filter under a pid ki default": (
        '<pid kp="1" ki="1"/>', '<general joint="j" dyntype="filter"/>', _PID_DYN,
        ['"filter"']),
    "integrator in the pid default's class": (
        '<pid/><general dyntype="integrator"/>', '<general joint="j"/>', _PID_DYN,
        ['"integrator"']),
    "filterexact in a child class of a pid default": (
        '<pid/><default class="c"><general dyntype="filterexact"/></default>',
        '<general joint="j" class="c"/>', _PID_DYN, ['"filterexact"']),
    "user under a pid default": ("<pid/>", '<general joint="j" dyntype="user"/>', _PID_DYN,
                                 ['"user"']),
    "muscle under a pid default": ("<pid/>", '<general joint="j" dyntype="muscle"/>',
                                   _PID_DYN, ['"muscle"']),
    "gaintype pid with a filter": (
        "", '<general joint="j" gaintype="pid" biastype="affine" dyntype="filter"/>', _PID_DYN,
        ['"filter"', 'gaintype="pid"']),
    "plugin with an integrator under a pid default": (
        "<pid/>", '<plugin plugin="mujoco.pid" joint="j" dyntype="integrator"/>', _PID_DYN,
        ['"integrator"']),
    # every other shortcut, and a <general gaintype>, sets gains of its own
    "integrator under a motor after a pid": (
        "<pid/><motor/>", '<general joint="j" dyntype="integrator"/>', None, None),
    "integrator under fixed gains after a pid": (
        '<pid/><general gaintype="fixed"/>', '<general joint="j" dyntype="integrator"/>',
        None, None),
    "filterexact of a position after a pid": (
        '<pid/><position timeconst="1"/>', '<general joint="j"/>', None, None),
    "filter of a cylinder after a pid": ("<pid/><cylinder/>", '<general joint="j"/>',
                                         None, None),
    "pid default after an integrator": (
        '<general dyntype="integrator"/><pid/>', '<general joint="j"/>', None, None),
    "none under a pid default": ("<pid/>", '<general joint="j" dyntype="none"/>', None, None),
    "pid dyntype of a pid ki default": ('<pid ki="1"/>', '<general joint="j"/>', None, None),
}


@pytest.mark.parametrize("case", sorted(PID_DYNTYPES))
def test_pid_gains_keep_dyntype_none_or_pid_as_mujoco_has_it(case):
    """MuJoCo 4.0.0 compiles an actuator of pid gains (a <pid> sets them, its own or its
    class's, until another shortcut or a <general gaintype> sets others) only with dyntype
    none or pid; urdf2dyn loaded a <general dyntype="integrator"> under a <pid> default."""
    default, element, reason, words = PID_DYNTYPES[case]
    ext = '<extension><plugin plugin="mujoco.pid"/></extension>' if "plugin" in element else ""
    xml = doc(ext, f"<default>{default}</default>", WORLD, actuators(element))
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


_PID_BIAS = "pid requires biastype 'affine'"
PID_KINDS = {   # the case: class defaults, the actuator, MuJoCo's reason (None: loads)
    "dyntype pid with fixed gains": (
        "", '<general joint="j" dyntype="pid"/>', "dyntype 'pid' requires gaintype 'pid'",
        ["actuator 0", "line 1", 'dyntype "pid"', 'gaintype="pid"']),
    "a class's dyntype pid with fixed gains": (
        '<general dyntype="pid"/>', '<general joint="j"/>', "requires gaintype 'pid'",
        ['dyntype "pid"']),
    "pid gains, biastype none": ("<pid/>", '<general joint="j" biastype="none"/>', _PID_BIAS,
                                 ["actuator 0", "biastype", '"affine"']),
    "gaintype pid without biastype": (
        "", '<general joint="j" gaintype="pid" dyntype="pid" gainprm="1"/>', _PID_BIAS,
        ["biastype"]),
    "gaintype pid over a motor's bias": (
        "<motor/>", '<general joint="j" gaintype="pid" dyntype="pid" gainprm="1"/>', _PID_BIAS,
        ["biastype"]),
    "gaintype pid over a dcmotor's bias": (
        f"<dcmotor {_DC}/>", '<general joint="j" gaintype="pid" dyntype="pid" gainprm="1"/>',
        _PID_BIAS, ["biastype"]),
    "gaintype pid over a velocity's bias": (
        "<velocity/>", '<general joint="j" gaintype="pid" dyntype="pid" gainprm="1"/>', None,
        None),
    "gaintype pid over a cylinder's bias": (
        "<cylinder/>", '<general joint="j" gaintype="pid" dyntype="pid" gainprm="1"/>', None,
        None),
    "gaintype and biastype pid's": (
        "", '<general joint="j" gaintype="pid" biastype="affine" dyntype="pid" gainprm="1"/>',
        None, None),
    "a pid actuator under biastype none": ('<general biastype="none"/>', '<pid joint="j"/>',
                                           None, None),
    "biastype none, then a position": ('<pid/><general biastype="none"/><position/>',
                                       '<general joint="j"/>', None, None),
    "a motor after a pid ki": ('<pid ki="1"/><motor/>', '<general joint="j"/>', None, None),
}


@pytest.mark.parametrize("case", sorted(PID_KINDS))
def test_pid_dynamics_and_gains_go_together_as_mujoco_has_it(case):
    """MuJoCo 4.0.0's compiler refuses a pid dyntype without pid gains ("dyntype 'pid'
    requires gaintype 'pid'") and pid gains without an affine bias ("pid requires biastype
    'affine'": a <pid> sets it, a <general biastype> or a <general gaintype="pid"> over
    another shortcut's bias unsets it); urdf2dyn loaded them."""
    default, element, reason, words = PID_KINDS[case]
    xml = doc(f"<default>{default}</default>", WORLD, actuators(element))
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


_PID_GENERAL = '<general joint="j" gaintype="pid" biastype="affine" dyntype="pid" gainprm="1"/>'
UNCHECKED_GAINS = {   # the case: class defaults, the actuator, a key's act, the gains' kind
    "dcmotor gains of a general, a key's act too long": (
        "", '<general joint="j" gaintype="dcmotor" biastype="dcmotor" dyntype="dcmotor" '
            'actearly="true" gainprm="1 1"/>', "0 0", "DC motor"),
    "dcmotor gains of a general, a key's act right": (
        "", '<general joint="j" gaintype="dcmotor" biastype="dcmotor" dyntype="dcmotor" '
            'actearly="true" gainprm="1 1"/>', "0", "DC motor"),
    "a class's dcmotor, a general's zero motor constant and a pos input": (
        f'<dcmotor {_DC} input="pos"/>', '<general joint="j" gainprm="1 0" actearly="true"/>',
        None, "DC motor"),
    "a class's pid ki, a general's negative imax": (
        '<pid kp="1" ki="1"/>', '<general joint="j" dynprm="-1"/>', None, "pid"),
    "a class's pid ki, a general's ki of 0": (
        '<pid kp="1" ki="1"/>', '<general joint="j" gainprm="0"/>', None, "pid"),
    "pid gains of a general": ("", _PID_GENERAL, None, "pid"),
    "pid gains of a general, a key's act too long": ("", _PID_GENERAL, "0 0", "pid"),
}


@pytest.mark.parametrize("case", sorted(UNCHECKED_GAINS))
def test_a_general_writing_dcmotor_or_pid_gains_is_loaded_with_a_warning(case):
    """Where a <general> writes the DC motor or pid gains (gaintype=, or gainprm= or dynprm=
    over a <dcmotor> or <pid> default), urdf2dyn does not follow the numbers MuJoCo's
    compiler checks (K and R, a controller's inputs, ki, imax, slewmax) nor count the
    states they keep; MuJoCo refuses some of these models and loads others. urdf2dyn loaded
    them all without a word; now it warns, naming the actuator and what to do."""
    default, element, act, kind = UNCHECKED_GAINS[case]
    xml = doc(f"<default>{default}</default>", WORLD, actuators(element),
              keys(f'act="{act}"') if act is not None else "")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.load(xml)
    said = [str(w.message) for w in caught if issubclass(w.category, urdf2dyn.Urdf2dynWarning)]
    assert any("actuator 0" in m and f"writes its {kind} gains" in m and
               "compile it in MuJoCo" in m for m in said), (said, mujoco_error(xml))


def test_dcmotor_and_pid_shortcuts_load_without_that_warning():
    """A <dcmotor> or <pid> actuator, or a <general> under their defaults that leaves their
    gains alone, is checked as MuJoCo checks it: no warning of unchecked gains."""
    for default, element in (("", f'<dcmotor joint="j" {_DC} inductance="1"/>'),
                             ("", '<pid joint="j" ki="1" imax="2"/>'),
                             ('<pid ki="1"/>', '<general joint="j" gear="2"/>'),
                             (f"<dcmotor {_DC}/>", '<general joint="j"/>')):
        xml = doc(f"<default>{default}</default>", WORLD, actuators(element))
        assert mujoco_error(xml) is None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            urdf2dyn.load(xml)
        assert not [w for w in caught if "gains" in str(w.message)], element


_PID_CHAIN_DEFAULTS = ['<pid kp="1"/>', '<pid ki="1"/>', '<pid slewmax="1" imax="-1"/>',
                       "<motor/>", "<velocity/>", "<cylinder/>", '<position kv="1"/>',
                       '<general biastype="none"/>', '<general biastype="affine"/>',
                       '<general gaintype="pid"/>', '<general gaintype="fixed"/>',
                       '<general dyntype="pid"/>', '<general dyntype="none"/>']
_PID_CHAIN_ACTUATORS = ['<general joint="j"/>', '<pid joint="j"/>', '<pid joint="j" ki="1"/>',
                        '<pid joint="j" ki="1" imax="-1"/>', '<motor joint="j"/>',
                        '<general joint="j" biastype="affine"/>',
                        '<general joint="j" biastype="none"/>',
                        '<general joint="j" dyntype="pid"/>',
                        '<general joint="j" gaintype="pid" biastype="affine"/>']


def _loaded_as(xml):
    """urdf2dyn's refusal of xml (None: loaded) and whether it warned that MuJoCo may refuse
    the pid gains a <general> writes."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            urdf2dyn.load(xml)
            got = None
        except urdf2dyn.URDFError as e:
            got = str(e)
    return got, any("writes its pid gains" in str(w.message) for w in caught)


# (class c0's defaults, its child c1's or None, the actuator of the last class, words
# urdf2dyn's refusal holds or None where both load): a <pid> without its own ki takes that
# of the default it reads its settings from, a <general>'s gainprm= over pid gains too
_PID_KI_AFTER_A_GENERAL = {
    "a general's gainprm 0 leaves a pid without dynamics": (
        '<pid ki="2"/><general gainprm="0" actrange="0 1"/>', None, "<pid/>",
        ["<pid>", "actrange specified but dyntype is 'none'"]),
    "a general's gainprm 0 over a pid's slewmax keeps it": (
        '<pid slewmax="2"/><general gainprm="0" actrange="0 1"/>', None, "<pid/>", None),
    "a general's slewmax keeps a pid of ki 0 dynamic": (
        '<pid ki="2"/><general dynprm="0 3" gainprm="0" actrange="0 1"/>', None, "<pid/>",
        None),
    "a general of pid gains gives its ki 1": (
        '<general gaintype="pid" biastype="affine" actrange="0 1"/>', None, "<pid/>", None),
    "a general of pid gains and gainprm 0": (
        '<general gaintype="pid" biastype="affine" gainprm="0" actrange="0 1"/>', None,
        "<pid/>", ["actrange specified but dyntype is 'none'"]),
    "a child's pid takes its class's gainprm 3, then dyntype none": (
        '<general gaintype="pid" biastype="affine" gainprm="3"/>', "<pid/>",
        '<general dyntype="none"/>', ["gainprm[0] (their ki) 3",
                                      "ki (gainprm[0]) requires dyntype 'pid'"]),
    "a child's pid takes its class's gainprm 0, then dyntype none": (
        '<general gaintype="pid" biastype="affine" gainprm="0"/>', "<pid/>",
        '<general dyntype="none"/>', None),
}


@pytest.mark.parametrize("case", sorted(_PID_KI_AFTER_A_GENERAL))
def test_pid_ki_after_a_general_is_read_as_mujoco_reads_it(case):
    """A <pid> without its own ki after a <general> wrote gainprm= over pid gains (or set
    them): MuJoCo 4.0.0 takes its ki from the default it reads its settings from (that
    <general>'s gainprm[0], 1 by default), and its dyntype is pid only where that ki or its
    slewmax is nonzero. urdf2dyn took it as pid whatever the numbers, and loaded these
    with a warning that MuJoCo may refuse them."""
    c0, c1, element, words = _PID_KI_AFTER_A_GENERAL[case]
    cls = "c1" if c1 is not None else "c0"
    inner = f'<default class="c1">{c1}</default>' if c1 is not None else ""
    element = element.replace("/>", f' joint="j" class="{cls}"/>')
    xml = doc(f'<default><default class="c0">{c0}{inner}</default></default>', WORLD,
              actuators(element))
    assert_as_mujoco(xml, words)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PID_CHAIN_DEFAULTS), max_size=3),
       st.sampled_from(_PID_CHAIN_ACTUATORS))
def test_random_pid_class_chains_refused_exactly_where_mujoco_refuses(defaults, element):
    """Random class defaults that set, keep or unset pid gains, dynamics and bias, under a
    random actuator: urdf2dyn refuses the model exactly where MuJoCo does, or loads it
    with its warning that a <general> wrote pid gains it does not check."""
    xml = doc(f"<default>{''.join(defaults)}</default>", WORLD, actuators(element))
    got, warned = _loaded_as(xml)
    expected = mujoco_error(xml)
    assert (expected is None) == (got is None) or (got is None and warned), \
        (xml, expected, got)


def _ki_refused_as_mujoco(defaults, element, advice):
    """The actuator element under the class defaults is refused exactly where MuJoCo 4
    refuses it for its ki ("ki (gainprm[0]) requires dyntype 'pid'"), with that reason and
    then advice."""
    xml = doc(f"<default>{defaults}</default>", WORLD, actuators(element))
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)
    if expected is not None:
        assert "ki (gainprm[0]) requires dyntype 'pid'" in expected
        assert f"\"ki (gainprm[0]) requires dyntype 'pid'\"): {advice}" in got, got


@pytest.mark.parametrize("defaults, element", [
    ('<pid ki="1"/><general dyntype="none"/>', '<general joint="j"/>'),
    ('<pid ki="nan"/><general dyntype="none"/>', '<general joint="j"/>'),
    ('<pid ki="1e-300"/><general dyntype="none"/>', '<general joint="j"/>'),
    ('<pid ki="1"/>', '<general joint="j" dyntype="none"/>'),
    ('<pid ki="1"/><general dyntype="none"/>', '<pid joint="j"/>'),
    ('<pid ki="1"/><general dyntype="none"/>', '<pid joint="j" ki="0"/>'),
    ('<pid ki="0"/><general dyntype="none"/>', '<general joint="j"/>'),
    ('<pid slewmax="1"/><general dyntype="none"/>', '<general joint="j"/>'),
])
def test_a_pid_ki_without_the_pid_dyntype_is_refused_where_mujoco_refuses(defaults, element):
    """A <pid>'s nonzero ki (gainprm[0]) under a <general> that writes dyntype="none": MuJoCo
    4 refuses it ("ki (gainprm[0]) requires dyntype 'pid'"), urdf2dyn loaded it without a
    word (found by the random class chains above). Refused exactly where MuJoCo refuses,
    with MuJoCo's reason; a later <pid> (which sets its dyntype again), ki 0 or slewmax
    alone load in both."""
    _ki_refused_as_mujoco(defaults, element, "leave dyntype out")


@pytest.mark.parametrize("defaults, element", [
    ('<general gaintype="pid" biastype="affine"/>', '<general joint="j"/>'),
    ('', '<general joint="j" gaintype="pid" biastype="affine" dyntype="none"/>'),
    ('<general gaintype="pid" biastype="affine" gainprm="0"/>', '<general joint="j" gainprm="3"/>'),
    ('<pid ki="1"/><general dynprm="1" dyntype="none"/>', '<general joint="j"/>'),
    ('<pid ki="1"/><general gainprm=" " dyntype="none"/>', '<general joint="j"/>'),
    ('<pid ki="1"/>', '<general joint="j" dyntype="none" gainprm="2"/>'),
    ('<pid ki="1"/>', '<general joint="j" dyntype="none" gainprm="0 2"/>'),
    ('', '<general joint="j" gaintype="pid" biastype="affine" dyntype="none" gainprm="0 1"/>'),
    ('<position kp="0"/><general gaintype="pid" biastype="affine"/>', '<general joint="j"/>'),
    ('<pid ki="1"/>', '<general joint="j" dyntype="none" gaintype="fixed"/>'),
    ('<position/><general gaintype="pid" biastype="affine"/>', '<general joint="j"/>'),
    ('<motor/><general gaintype="pid" biastype="affine"/>', '<general joint="j"/>'),
    ('<velocity kv="0"/><general gaintype="pid" biastype="affine"/>', '<general joint="j"/>'),
    ('<damper/><general gaintype="pid" biastype="affine"/>',
     '<general joint="j" ctrlrange="0 1"/>'),
    ('<position kp=" "/>', '<general joint="j" gaintype="pid" biastype="affine"/>'),
    # a shortcut without its own gain after a <general>: the gainprm[0] before it
    ('<general gainprm="3"/><position/>', '<general joint="j" gaintype="pid" biastype="affine"/>'),
    ('<velocity kv="3"/><general/><position/>',
     '<general joint="j" gaintype="pid" biastype="affine"/>'),
    ('<general gainprm="0"/><velocity/>', '<general joint="j" gaintype="pid" biastype="affine"/>'),
    ('<damper/><general gaintype="fixed" gainprm="2"/><cylinder/>',
     '<general joint="j" gaintype="pid" biastype="affine" ctrlrange="0 1" dyntype="none"/>'),
])
def test_pid_gains_a_general_wrote_with_a_nonzero_ki_are_refused_where_mujoco_refuses(
        defaults, element):
    """Pid gains whose gainprm[0] (the ki) a <general> left nonzero, with dyntype "none":
    MuJoCo's default gainprm 1 under a <general gaintype="pid">, a <general>'s gainprm=, or a
    <pid>'s ki after a <general> writing dynprm= or a blank gainprm=, or one a shortcut
    without its own gain keeps after a <general>. MuJoCo 4 refuses them ("ki (gainprm[0])
    requires dyntype 'pid'"); urdf2dyn loaded them, saying only that MuJoCo may refuse.
    Refused exactly where MuJoCo refuses, with its reason; a gainprm[0] of 0 and gains that
    are no longer pid load in both."""
    _ki_refused_as_mujoco(defaults, element, 'give dyntype="pid"')


# a shortcut's gain (its gainprm[0]) given, left to its class chain, or fixed by its kind
_GAIN_DEFAULTS = ["<motor/>", "<position/>", '<position kp="0"/>', '<position kp="2"/>',
                  '<position kp=" "/>', "<velocity/>", '<velocity kv="0"/>', "<adhesion/>",
                  '<adhesion gain="0"/>', "<damper/>", '<damper kv="1"/>',
                  '<cylinder area="0"/>', '<cylinder diameter="0"/>', '<intvelocity kp="0"/>',
                  '<general gainprm="0"/>', '<general gainprm="3"/>', '<general dynprm="1"/>',
                  '<general gaintype="fixed"/>', '<pid kp="2"/>', '<pid ki="2"/>']


# those whose gainprm[0] is not 1 (a <pid>'s is its ki, 0 unless given or inherited)
_GAINS_NOT_1 = [e for e in _GAIN_DEFAULTS
                if any(w in e for w in ('="0"', '="2"', '="3"', "<damper", "<pid"))]


def _tag(element):
    return element[1:].split()[0].rstrip("/>")


def _general_under_classes(levels, attributes, kind="general", world=WORLD):
    """A <general joint="j" attributes/> (or another kind) of class c{n-1} under nested
    default classes c0 .. c{n-1}, levels[k] the actuator defaults written in c{k}, in world:
    (the model, urdf2dyn's refusal or None, whether urdf2dyn warned that MuJoCo may refuse
    its pid gains)."""
    xml = "</default>" * len(levels)
    for k in reversed(range(len(levels))):
        xml = f'<default class="c{k}">{"".join(levels[k])}{xml}'
    element = f'<{kind} joint="j" class="c{len(levels) - 1}" {attributes}/>'
    xml = doc(f"<default>{xml}</default>", world, actuators(element))
    return (xml, *_loaded_as(xml))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_GAIN_DEFAULTS), max_size=3, unique_by=_tag),
                min_size=1, max_size=3))
def test_shortcut_gains_followed_through_class_chains_as_mujoco_follows_them(levels):
    """Nested classes whose shortcuts write gainprm[0] (a <position>'s kp, a <motor>'s 1, a
    <damper>'s 0...) or leave it to the chain, under a <general> of pid gains with dyntype
    "none": MuJoCo 4 refuses a nonzero one ("ki (gainprm[0]) requires dyntype 'pid'"), which
    urdf2dyn loaded with a warning that MuJoCo may refuse it (a <position/> or <motor/> before
    gaintype="pid"). Refused where MuJoCo refuses, for the same reason, wherever urdf2dyn
    knows the gain (a <pid>'s ki a <general> rewrote is not followed: then a warning says
    MuJoCo may refuse it). Where MuJoCo loads it, urdf2dyn loads it."""
    xml, got, warned = _general_under_classes(
        levels, 'ctrlrange="0 1" gaintype="pid" biastype="affine" dyntype="none"')
    expected = mujoco_error(xml)
    ki = "ki (gainprm[0]) requires dyntype 'pid'"
    if expected is None:
        assert got is None, (xml, got)
    elif ki in expected:
        assert (got is not None and ki in got) or warned, (xml, expected, got)
        not_1 = any(e in _GAINS_NOT_1 for level in levels for e in level)
        assert got is not None or not_1, (xml, expected)
    else:
        assert (got is not None and ki not in got) or warned, (xml, expected, got)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", '<general gainprm="0"/>', '<general gainprm="3"/>',
                                           '<general gaintype="fixed"/>', "<general/>"]),
                          st.sampled_from(["", "<position/>", "<velocity/>", "<cylinder/>",
                                           "<intvelocity/>", "<adhesion/>", "<motor/>",
                                           "<damper/>", '<position kp="2"/>'])),
                min_size=1, max_size=3))
def test_shortcut_gains_after_a_general_refused_exactly_where_mujoco_refuses(levels):
    """Nested classes, each a <general> default (or none) then a shortcut (or none), under a
    <general> of pid gains with dyntype "none": a shortcut without its own gain after a
    <general> (or first in the chain) keeps the gainprm[0] before it, which urdf2dyn now
    follows; where every shortcut without its own gain comes so, urdf2dyn refuses exactly
    where MuJoCo 4 refuses for the ki ("ki (gainprm[0]) requires dyntype 'pid'"), instead of
    loading with a warning that MuJoCo may refuse it."""
    chain = [[x for x in level if x] for level in levels]
    xml, got, _ = _general_under_classes(
        chain, 'ctrlrange="0 1" gaintype="pid" biastype="affine" dyntype="none"')
    expected = mujoco_error(xml)
    ki = "ki (gainprm[0]) requires dyntype 'pid'"
    if _gains_after_generals([x for level in chain for x in level]):
        assert (expected is not None and ki in expected) == (got is not None and ki in got), \
            (xml, expected, got)
    if expected is None:
        assert got is None, (xml, got)


def _gains_after_generals(elements):
    """Whether each shortcut without its own gain among the actuator defaults comes first or
    after a <general>, over fixed gains (not a <damper>'s, unless a gaintype="fixed" came)."""
    fixed, before = True, None
    for x in elements:
        if x in ("<position/>", "<velocity/>", "<cylinder/>", "<intvelocity/>", "<adhesion/>"):
            if not fixed or not (before is None or before.startswith("<general")):
                return False
        if x.startswith("<general"):
            fixed = fixed or 'gaintype="fixed"' in x
        else:
            fixed = x != "<damper/>"
        before = x
    return True



# a parent class's shortcut (or <general>) of gainprm[0] 0, and a child's without its own gain
_GAIN_0 = {"position": 'kp="0"', "velocity": 'kv="0"', "intvelocity": 'kp="0"', "damper": "",
           "cylinder": 'area="0"', "muscle": 'range="0 1"', "adhesion": 'gain="0"', "motor": "",
           "general": 'gainprm="0"'}
_PID_NONE = 'ctrlrange="0 1" gaintype="pid" biastype="affine" dyntype="none"'


@pytest.mark.parametrize("parent,child", [(p, c) for p in _GAIN_0 for c in _GAIN_0 if p != c])
def test_a_shortcut_reads_its_gain_from_the_class_mujoco_4_reads_it_from(parent, child):
    """A class's shortcut of gainprm[0] 0 (a <general> gainprm="0") and its child class's
    shortcut of another kind without its own gain, under a <general> of pid gains with
    dyntype "none", which MuJoCo 4.0.0 refuses for a nonzero gainprm[0] ("ki (gainprm[0])
    requires dyntype 'pid'"): the child's shortcut takes its gain from the nearest class
    written last by its own kind, or by a <general> over its gain type, else its default
    (a <position kp="0"/> then a child's <velocity/> gives 1). urdf2dyn did not follow that
    rule and loaded these with a warning that MuJoCo may refuse them; it now refuses exactly
    where MuJoCo refuses, for that reason, and loads the others without that warning."""
    levels = [[f"<{parent} {_GAIN_0[parent]}/>"], [f"<{child}/>"]]
    xml, got, warned = _general_under_classes(levels, _PID_NONE)
    expected = mujoco_error(xml)
    ki = "ki (gainprm[0]) requires dyntype 'pid'"
    assert (expected is None) == (got is None), (xml, expected, got)
    assert (expected is not None and ki in expected) == (got is not None and ki in got), \
        (xml, expected, got)


# shortcuts of every kind but <pid> (whose ki follows its own rules), their gain given or not
_SOURCE_DEFAULTS = ["<motor/>", "<position/>", '<position kp="0"/>', '<position kp="2"/>',
                    "<velocity/>", '<velocity kv="0"/>', "<intvelocity/>", '<intvelocity kp="0"/>',
                    "<adhesion/>", '<adhesion gain="0"/>', "<damper/>", '<damper kv="1"/>',
                    "<cylinder/>", '<cylinder area="0"/>', '<cylinder diameter="0"/>',
                    "<muscle/>", '<muscle range="0 1"/>', '<general gainprm="0"/>',
                    '<general gainprm="3"/>', '<general gaintype="fixed"/>',
                    '<general gaintype="affine"/>', '<general gaintype="muscle"/>', "<general/>"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_SOURCE_DEFAULTS), max_size=3, unique_by=_tag),
                min_size=1, max_size=3))
def test_shortcut_gains_of_random_class_chains_refused_exactly_where_mujoco_refuses(levels):
    """Nested classes of shortcuts and <general>s (no <pid>), under a <general> of pid gains
    with dyntype "none": urdf2dyn knows every shortcut's gainprm[0] as MuJoCo 4.0.0 reads
    it, and refuses exactly where MuJoCo refuses for the ki; it loaded many of these with
    a warning that MuJoCo may refuse them."""
    xml, got, _ = _general_under_classes(levels, _PID_NONE)
    expected = mujoco_error(xml)
    ki = "ki (gainprm[0]) requires dyntype 'pid'"
    assert (expected is None) == (got is None), (xml, expected, got)
    assert (expected is not None and ki in expected) == (got is not None and ki in got), \
        (xml, expected, got)



_TENDON = ('<tendon><fixed name="t" range="-1 1"><joint joint="j" coef="1"/></fixed></tendon>')


def _pid_then_limited(parent, element):
    """A class of parent's actuator default, its child class a <general ctrllimited="true"/>
    (no ctrlrange), and element, an actuator of the child class driving tendon t."""
    return doc(f'<default><default class="P">{parent}<default class="C">'
               '<general ctrllimited="true"/></default></default></default>', WORLD, _TENDON,
               actuators(element))


# (parent's actuator default, the actuator of the child class): MuJoCo 4.0.0 loads each,
# its control range the tendon's, which urdf2dyn refused as an empty limited one
_INHERITED_THROUGH_A_CHILD = {
    "a general of pid gains inheriting the range": (
        "<pid/>", '<general class="C" tendon="t" inheritrange="1"/>'),
    "a pid taking its class's pid inheritrange": (
        '<pid inheritrange="1"/>', '<pid class="C" tendon="t"/>'),
    "a position taking its class's position inheritrange": (
        '<position inheritrange="1"/>', '<position class="C" tendon="t"/>'),
}


@pytest.mark.parametrize("case", sorted(_INHERITED_THROUGH_A_CHILD))
def test_inheritrange_through_a_child_class_loads_as_in_mujoco(case):
    """A <pid> (or <position>) default, then a child class's <general ctrllimited="true"/>,
    and a tendon actuator of the child class with an inheritrange, its own or the one its
    kind's default gives it: MuJoCo 4.0.0 gives it the tendon's range as its control range
    and loads it; urdf2dyn did not follow that inheritrange and refused the empty limited
    control range ("ctrlrange[0] must be below ctrlrange[1]")."""
    assert_as_mujoco(_pid_then_limited(*_INHERITED_THROUGH_A_CHILD[case]), None)


# defaults that write, keep, drop or pass on an inheritrange, or set gains a compiler checks
_RANGE_DEFAULTS = ['<general/>', '<general ctrllimited="true"/>', '<general gainprm="2"/>',
                   '<general gaintype="fixed"/>', '<general gaintype="pid"/>',
                   '<general inheritrange="0"/>', '<general inheritrange="1"/>', '<motor/>',
                   '<velocity/>', '<damper/>', '<muscle/>', '<position/>',
                   '<position inheritrange="1"/>', '<position inheritrange="0"/>',
                   '<position kp="2"/>', '<intvelocity/>', '<intvelocity inheritrange="1"/>',
                   '<pid/>', '<pid inheritrange="1"/>', '<pid inheritrange="0"/>',
                   '<cylinder/>', '<adhesion/>']
_UNRANGED = '<worldbody><body name="b"><joint name="j" type="slide"/><geom size="0.1"/></body>' \
            '</worldbody>'
_RANGED_SLIDE = _UNRANGED.replace('type="slide"', 'type="slide" range="-1 1"')


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_RANGE_DEFAULTS), max_size=3, unique_by=_tag),
                min_size=1, max_size=3),
       st.sampled_from(["position", "intvelocity", "pid"]),
       st.sampled_from(["", 'inheritrange="1"', 'inheritrange="0"']),
       st.sampled_from([_UNRANGED, _RANGED_SLIDE]))
def test_inheritrange_of_random_class_chains_followed_as_mujoco_follows_it(levels, kind, own,
                                                                         world):
    """Nested classes that write, keep or drop an inheritrange, under a <position>,
    <intvelocity> or <pid> of a joint with a range or none: each takes the inheritrange of
    the default MuJoCo 4.0.0 reads its settings from (its class's, or the nearest above
    written last by its kind or by a <general> over its gains), so urdf2dyn refuses exactly
    where MuJoCo refuses (a target without a range, an empty limited control range...); it
    followed only the nearest default of the same kind, refusing some MuJoCo loads and
    loading some it refuses."""
    xml, got, _ = _general_under_classes(levels, own, kind=kind, world=world)
    expected = mujoco_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)



# (class defaults, the actuator, whether its joint has a range, words urdf2dyn's refusal
# holds or None where both load): a shortcut that writes the range its inheritrange would
# set drops the inheritrange of the default it reads its settings from
_OWN_RANGE_OVER_A_CLASS_INHERITRANGE = {
    "position, own ctrlrange, joint without a range": (
        '<position inheritrange="1"/>', '<position joint="j" ctrlrange="0 1"/>', False, None),
    "position, own ctrlrange 0 0, joint without a range": (
        '<position inheritrange="1"/>', '<position joint="j" ctrlrange="0 0"/>', False, None),
    "position, own inverted limited ctrlrange": (
        '<position inheritrange="1"/>', '<position joint="j" ctrlrange="1 0" ctrllimited="true"/>',
        True, ["ctrlrange"]),
    "pid, own posrange, joint without a range": (
        '<pid inheritrange="1"/>', '<pid joint="j" posrange="0 1"/>', False, None),
    "pid, own ctrlrange, joint without a range": (
        '<pid inheritrange="1"/>', '<pid joint="j" ctrlrange="0 1"/>', False, None),
    "intvelocity, own actrange, joint without a range": (
        '<intvelocity inheritrange="1"/>', '<intvelocity joint="j" actrange="0 1"/>', False, None),
    "position, a child class's ctrlrange, joint without a range": (
        '<default class="a"><position inheritrange="1"/><default class="b">'
        '<position ctrlrange="0 1"/></default></default>', '<position joint="j" class="b"/>',
        False, None),
}


@pytest.mark.parametrize("case", sorted(_OWN_RANGE_OVER_A_CLASS_INHERITRANGE))
def test_own_range_drops_a_class_inheritrange_as_mujoco_4_drops_it(case):
    """A <position>, <pid> or <intvelocity> (or a child class's default of one) that writes
    its own ctrlrange (a <pid>'s posrange, an <intvelocity>'s actrange), under a class
    default of its kind with inheritrange="1": MuJoCo 4.0.0 drops the class's inheritrange
    and keeps the range written, so it loads one of a joint without a range and refuses an
    inverted limited ctrlrange ("invalid control range for actuator"); urdf2dyn followed
    the class's inheritrange, refusing the first ("inheritrange ... joint has no range") and
    loading the second."""
    defaults, element, ranged, words = _OWN_RANGE_OVER_A_CLASS_INHERITRANGE[case]
    assert_as_mujoco(doc(f"<default>{defaults}</default>", _RANGED_SLIDE if ranged else _UNRANGED,
                         actuators(element)), words)


# (class defaults, the actuator's inheritrange and ctrlrange, words urdf2dyn's refusal holds or
# None where both load): a <general> of a <damper>'s affine gains or an <adhesion>'s bias of
# none takes no inheritrange, so its class's limited control range is checked
_NO_INHERITRANGE_ON_THESE_GAINS = {
    "own inheritrange, damper class, inverted": (
        "<damper/>", 'inheritrange="1" ctrlrange="1 0"', ["ctrlrange", "<damper> default"]),
    "class inheritrange after a damper, inverted": (
        '<damper/><general inheritrange="1"/>', 'ctrlrange="1 0"', ["<damper> default"]),
    "class inheritrange before a damper, inverted": (
        '<general inheritrange="1"/><damper/>', 'ctrlrange="1 0"', ["<damper> default"]),
    "own inheritrange, adhesion class, inverted": (
        "<adhesion/>", 'inheritrange="1" ctrlrange="1 0"', ["<adhesion> default"]),
    "own inheritrange, damper class, negative": (
        "<damper/>", 'inheritrange="1" ctrlrange="-2 -1"', None),
    "own inheritrange, damper class, pid gains": (
        "<damper/>", 'inheritrange="1" gaintype="pid" biastype="affine" ctrlrange="1 0"', None),
}


@pytest.mark.parametrize("case", sorted(_NO_INHERITRANGE_ON_THESE_GAINS))
def test_damper_class_control_range_checked_where_no_inheritrange_applies(case):
    """A <general> under a <damper> (or <adhesion>) default, which sets ctrllimited true for
    it, with an inheritrange of its own or its class's: MuJoCo 4.0.0's compiler applies an
    inheritrange only to fixed or pid gains of affine bias, so on a <damper>'s affine gains
    or an <adhesion>'s bias of none it takes none and refuses an inverted ctrlrange
    ("invalid control range for actuator"; a negative increasing one loads); urdf2dyn left
    the range unchecked wherever an inheritrange it did not follow was written, loading
    these."""
    defaults, attributes, words = _NO_INHERITRANGE_ON_THESE_GAINS[case]
    xml = doc(f"<default>{defaults}</default>", _RANGED_SLIDE,
              actuators(f'<general joint="j" {attributes}/>'))
    assert_as_mujoco(xml, words)


# (the class's defaults, the actuator): an <adhesion> default limits the control of the
# actuators after it to its ctrlrange 0 0, and an inheritrange the class carries does not
# apply to the actuator's gains and bias
_NO_INHERITRANGE_ON_THESE_SHORTCUTS = {
    "motor (bias none)": ('<position inheritrange="1"/><adhesion/>', '<motor joint="j"/>'),
    "velocity (gain 1, biasprm[1] 0)": ('<position inheritrange="1"/><adhesion/>',
                                        '<velocity joint="j"/>'),
    "velocity after a general's inheritrange": ('<adhesion/><general inheritrange="1"/>',
                                                '<velocity joint="j"/>'),
    "motor after an intvelocity": ('<intvelocity inheritrange="1"/><motor/><adhesion/>',
                                   '<motor joint="j"/>'),
}


@pytest.mark.parametrize("case", sorted(_NO_INHERITRANGE_ON_THESE_SHORTCUTS))
def test_adhesion_class_control_range_checked_for_shortcuts_no_inheritrange_applies_to(case):
    """A <motor> or a <velocity> of nonzero gain under an <adhesion> default (which sets
    ctrllimited true, its ctrlrange 0 0) with an inheritrange above 0 written in its chain:
    MuJoCo 4.0.0's compiler applies an inheritrange only to pid gains or fixed
    gains whose gainprm[0] is -biasprm[1], of affine bias, so a <motor>'s (bias none) and
    a <velocity>'s (biasprm[1] 0, its kv 1) take none and it refuses the range ("invalid
    control range for actuator"); urdf2dyn left the range unchecked wherever an
    inheritrange it did not follow was written, loading these without a word."""
    defaults, element = _NO_INHERITRANGE_ON_THESE_SHORTCUTS[case]
    assert_as_mujoco(doc(f"<default>{defaults}</default>", _UNRANGED, actuators(element)),
                     ["ctrlrange", "<adhesion> default"])


# (class c0's defaults, its child c1's or None, the actuator of the last class, words
# urdf2dyn's refusal holds or None where both load): MuJoCo 4.0.0 gives fixed gains an
# inheritrange only where gainprm[0] is -biasprm[1], the numbers its reader leaves
_INHERITRANGE_BY_GAIN_AND_BIAS = {
    "a general of kv 1 after a velocity (biasprm[1] 0)": (
        '<damper/><general biastype="affine"/><velocity/>', None,
        '<general gaintype="fixed" biastype="affine" inheritrange="1"/>',
        ["ctrlrange", "<damper> default"]),
    "a general's own gainprm over a position's inheritrange": (
        '<velocity/><adhesion/>', '<cylinder area="2"/><position inheritrange="1"/>',
        '<general gainprm="2"/>', ["ctrlrange", "<adhesion> default"]),
    "a general's gainprm and biasprm that match": (
        '<adhesion/><general inheritrange="1"/>', None,
        '<general biastype="affine" gainprm="2" biasprm="0 -2"/>', None),
    "a general's biasprm that does not match the class's gainprm": (
        '<adhesion/><general inheritrange="1" gainprm="2"/>', None,
        '<general biastype="affine" biasprm="0 -1"/>', ["ctrlrange", "<adhesion> default"]),
    "a cylinder's gain and bias read from its class's general": (
        '<adhesion/><general gainprm="2" biasprm="0 -2" inheritrange="1"/>',
        '<cylinder/><general dyntype="none"/>', '<general/>', None),
    "a cylinder's own bias": (
        '<adhesion/><general gainprm="2" biasprm="0 -2" inheritrange="1"/>',
        '<cylinder bias="0 -1 0"/><general dyntype="none"/>', '<general/>',
        ["ctrlrange", "<adhesion> default"]),
    "a pid's kp read from its class's pid": (
        '<pid kp="2"/>', '<adhesion/><position kp="3"/><pid/><general gaintype="fixed" '
        'gainprm="2" inheritrange="1"/>', '<general/>', None),
    "a pid's kp of 1 without a pid to read it from": (
        '<position kp="2"/>', '<adhesion/><pid/><general gaintype="fixed" inheritrange="1"/>',
        '<general/>', ["ctrlrange", "<adhesion> default"]),
    "a motor's bias of 0 under a general of affine bias": (
        '<general biasprm="0 -1"/>', '<adhesion/><motor/><general biastype="affine" '
        'inheritrange="1"/>', '<general/>', ["ctrlrange", "<adhesion> default"]),
    "a velocity of kv 0 takes it": (
        '<adhesion/><general inheritrange="1"/>', None, '<velocity kv="0"/>', None),
    "a cylinder takes it through a general, then refuses its filter": (
        '<position inheritrange="1"/><general ctrlrange="1 0"/><cylinder/>', None,
        '<cylinder ctrlrange="1 0"/>', ["inheritrange only available for position"]),
}


@pytest.mark.parametrize("case", sorted(_INHERITRANGE_BY_GAIN_AND_BIAS))
def test_inheritrange_of_fixed_gains_follows_gainprm_and_biasprm_as_mujoco(case):
    """Fixed gains of affine bias and an inheritrange above 0 (their own or a class's),
    under an <adhesion> or <damper> default that limits the control to 0 0: MuJoCo 4.0.0's
    compiler gives them the target's range only where gainprm[0] is -biasprm[1], as its
    reader leaves them through the class chain (a <position>'s -kp, a <velocity>'s or
    <motor>'s 0, a <cylinder>'s or <pid>'s read from the default it reads its settings
    from), and refuses the empty limited control range otherwise ("invalid control range
    for actuator"). urdf2dyn did not follow biasprm[1] and loaded these with the range
    unchecked."""
    c0, c1, element, words = _INHERITRANGE_BY_GAIN_AND_BIAS[case]
    cls = "c1" if c1 is not None else "c0"
    inner = f'<default class="c1">{c1}</default>' if c1 is not None else ""
    element = element.replace("/>", f' joint="j" class="{cls}"/>')
    xml = doc(f'<default><default class="c0">{c0}{inner}</default></default>', _RANGED_SLIDE,
              actuators(element))
    assert_as_mujoco(xml, words)


# defaults that write gainprm[0], biasprm[1] or the types, pass an inheritrange on, or limit
# the control (no <muscle>, whose numbers a <general> may make invalid, nor <orientation>)
_GAIN_AND_BIAS_DEFAULTS = [
    "<damper/>", "<adhesion/>", '<general inheritrange="1"/>', '<general gainprm="2"/>',
    '<general biasprm="0 -2"/>', '<general biasprm="0 -1"/>', '<general biastype="affine"/>',
    '<general gaintype="fixed"/>', '<general gaintype="pid"/>', '<general gaintype="affine"/>',
    '<general gainprm="nan"/>', '<general ctrlrange="1 0"/>', '<general dyntype="filter"/>',
    "<position/>", '<position kp="2"/>', '<position inheritrange="1"/>', "<velocity/>",
    '<velocity kv="0"/>', "<motor/>", "<cylinder/>", '<cylinder bias="0 -1 0"/>',
    '<cylinder area="2"/>', "<intvelocity/>", '<intvelocity kp="2"/>', "<pid/>",
    '<pid kp="2"/>', '<pid kp="2" ki="1"/>']


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_GAIN_AND_BIAS_DEFAULTS), max_size=3, unique_by=_tag),
                min_size=1, max_size=3),
       st.sampled_from(["general", "motor", "velocity", "cylinder", "damper", "adhesion"]),
       st.sampled_from(["", 'inheritrange="1"', 'ctrlrange="1 0"', 'gainprm="2"',
                        'biasprm="0 -2"', 'gainprm="2" biasprm="0 -2"',
                        'gaintype="fixed" biastype="affine"']))
def test_inheritrange_of_random_gain_and_bias_chains_refused_exactly_where_mujoco_refuses(
        levels, kind, own):
    """Nested classes that write gainprm[0] and biasprm[1], pass an inheritrange on and
    limit the control, under an actuator of any kind but a <position>, <intvelocity> or
    <pid>: urdf2dyn gives it the inheritrange exactly where MuJoCo 4.0.0 does, so it refuses
    exactly where MuJoCo refuses; about one chain in a hundred it loaded with the control
    range unchecked."""
    if kind != "general":
        own = "" if "prm" in own or "type" in own or kind == "damper" else own
    xml, got, _ = _general_under_classes(levels, own, kind, _RANGED_SLIDE)
    expected = mujoco_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


@pytest.mark.parametrize("biasprm, words", [("0 -1", None),
                                             ("0 -2", ["ctrlrange", "<adhesion> default"])])
def test_plugin_actuator_takes_its_class_inheritrange_as_mujoco(biasprm, words):
    """A plugin actuator under an <adhesion> default (control limited to 0 0) and a
    <general> default of inheritrange="1", affine bias and biasprm[1] -1 (its gain 1 the
    <adhesion>'s): MuJoCo 4.0.0's compiler gives it the joint's range and loads it, and
    refuses biasprm[1] -2 ("invalid control range for actuator"). urdf2dyn took no
    inheritrange on a plugin actuator, and refused the first once it followed biasprm[1]."""
    defaults = (f'<adhesion/><general inheritrange="1" biastype="affine" '
                f'biasprm="{biasprm}"/>')
    xml = doc('<extension><plugin plugin="mujoco.pid"><instance name="p"><config key="kp" '
              'value="1"/></instance></plugin></extension>',
              f'<default><default class="c">{defaults}</default></default>', _RANGED_SLIDE,
              actuators('<plugin instance="p" joint="j" class="c"/>'))
    assert_as_mujoco(xml, words)


def test_inheritrange_after_a_class_muscle_loads_with_a_warning():
    """A <muscle> default that reads its range from its parent class's <muscle>, then a
    <general> of fixed gains, affine bias and an inheritrange: MuJoCo 4.0.0 applies the
    inheritrange only where gainprm[0] is -biasprm[1], here the inherited range's ends, which
    urdf2dyn does not follow; it loaded this without a word (MuJoCo refuses it), and now
    says the range is not checked."""
    xml = doc('<default><default class="c0"><muscle range="0.5 0.6"/><default class="c1">'
              '<adhesion/><muscle/><general gaintype="fixed" biastype="affine" dyntype="none" '
              'inheritrange="1"/></default></default></default>', _RANGED_SLIDE,
              actuators('<general joint="j" class="c1"/>'))
    assert mujoco_error(xml) is not None
    with pytest.warns(urdf2dyn.Urdf2dynWarning,
                      match=r"inheritrange=\"1\" \(its own or from class 'c1'\).*gainprm\[0\] is -biasprm\[1\].*not checked"):
        urdf2dyn.load(xml)


_AFTER_A_CLASS_MUSCLE = (
    '<default><default class="c0"><muscle range="0.5 0.6"/><default class="c1"><adhesion/>'
    '<muscle/><general gaintype="fixed" biastype="affine" dyntype="none" inheritrange="1"/>'
    '</default></default></default>')


@pytest.mark.parametrize("biasprm, words", [("0 -1", None),
                                             ("0 -2", ["ctrlrange", "<adhesion> default"])])
def test_actuator_biasprm_over_a_class_muscle_decides_its_inheritrange_as_mujoco(biasprm,
                                                                                  words):
    """The class of the test above, under a <general> that writes gainprm="1" and
    biasprm= itself, as that test's warning tells the user to: MuJoCo 4.0.0 gives it the
    joint's range where gainprm[0] is -biasprm[1] and loads it, and refuses the adhesion's
    control range 0 0 otherwise ("invalid control range for actuator"). urdf2dyn took
    biasprm[1] as still unknown after the <muscle>, and loaded both with that warning."""
    xml = doc(_AFTER_A_CLASS_MUSCLE, _RANGED_SLIDE,
              actuators(f'<general joint="j" class="c1" gainprm="1" biasprm="{biasprm}"/>'))
    assert_as_mujoco(xml, words)
    if words is None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            urdf2dyn.load(xml)
        assert not [w for w in caught if "not checked" in str(w.message)], caught[0].message


# defaults that limit the control (a <damper>, an <adhesion>), say so or not, or pass it on
_CTRL_DEFAULTS = ["<damper/>", '<adhesion gain="0"/>', "<motor/>", "<position/>",
                  '<general ctrllimited="false"/>', '<general ctrllimited="true"/>',
                  '<general ctrllimited="auto"/>', '<general ctrlrange="0 1"/>',
                  '<general ctrlrange="1 0"/>', '<general gaintype="pid" biastype="affine"/>']


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_CTRL_DEFAULTS), max_size=3, unique_by=_tag),
                min_size=1, max_size=3),
       st.sampled_from(["", 'ctrlrange="0 1"', 'ctrlrange="1 0"', 'ctrlrange="-1 1"',
                        'ctrllimited="false"', 'ctrllimited="auto"']))
def test_control_limited_by_class_chains_refused_exactly_where_mujoco_refuses(levels, own):
    """Nested classes whose <damper> or <adhesion> defaults set ctrllimited true for the
    actuators after them, which other defaults pass on or a ctrllimited= undoes, under a
    <general> of its own ctrlrange or ctrllimited: urdf2dyn refuses exactly where MuJoCo 4
    refuses ("invalid control range for actuator"); it loaded them all."""
    xml, got, warned = _general_under_classes(levels, own)
    expected = mujoco_error(xml)
    if expected is not None and "invalid control range" in expected:
        assert got is not None and "ctrlrange" in got, (xml, got)
    else:   # pid gains' ki, where urdf2dyn says MuJoCo may refuse them
        assert (expected is None) == (got is None) or (got is None and warned), \
            (xml, expected, got)


# a ranged hinge: MuJoCo computes a muscle's length range from it
_RANGED_WORLD = WORLD.replace('<joint name="j"/>', '<joint name="j" range="-1 1"/>')
_MUSCLE = "0.75 1.05 -1 200 0.5 1.6 1.5 1.3 1.2"     # MuJoCo's muscle defaults


@pytest.mark.parametrize("defaults, element, words", [
    ("", '<general gaintype="muscle"/>',
     ['gaintype "muscle" (gainprm) with range 1 0', "range[0]<range[1] required in muscle",
      "nine muscle numbers"]),
    ("", '<general biastype="muscle"/>', ['biastype "muscle" (biasprm) with range 0 0']),
    ("", f'<general gaintype="muscle" gainprm="{_MUSCLE}"/>', None),
    (f'<general gainprm="{_MUSCLE}"/>', '<general gaintype="muscle" gainprm="0.5 0.4"/>',
     ["range 0.5 0.4", "range[0]<range[1]"]),
    (f'<general gainprm="{_MUSCLE}"/>', '<general gaintype="muscle" gainprm="0.5"/>', None),
    ("", '<general gaintype="muscle" gainprm="0.75 1.05 -1 200 1 1.6 1.5 1.3 1.2"/>',
     ["lmin 1", "lmin<1<lmax required in muscle"]),
    ("", '<general gaintype="muscle" gainprm="0.75 1.05 -1 200 0.5 1.6 1.5 1.3 0"/>',
     ["fvmax 0", "positive scale, vmax, fpmax, fvmax required in muscle"]),
    ("", '<general gaintype="muscle" gainprm="0.75 nan -1 200 0.5 1.6 1.5 1.3 1.2"/>', None),
    ("", "<muscle/>", None),
    ("", '<muscle range="1 0"/>', ["a <muscle> with range 1 0", "an increasing range="]),
    ("", '<muscle range="0.2 0.1"/>', ["range[0]<range[1] required in muscle"]),
    ("", '<muscle lmin="1"/>', ["lmin<1<lmax required in muscle"]),
    ("", '<muscle scale="0"/>', ["positive scale, vmax, fpmax, fvmax required in muscle"]),
    ("", '<muscle lmax="nan"/>', None),
])
def test_muscle_numbers_are_refused_as_mujoco_refuses_them(defaults, element, words):
    """Muscle gains or bias (gaintype or biastype "muscle", a <muscle>) whose range does not
    increase, whose lmin and lmax do not hold 1 between them, or whose scale, vmax, fpmax or
    fvmax is not above 0: MuJoCo 4 refuses them (a <general gaintype="muscle"> keeps the
    gainprm default 1 0 ...); urdf2dyn loaded them. Refused with MuJoCo's reason; a NaN
    passes MuJoCo's checks and loads in both."""
    element = element.replace("/>", ' joint="j"/>')
    xml = doc(f"<default>{defaults}</default>", _RANGED_WORLD, actuators(element))
    assert_as_mujoco(xml, words)


# (the class's actuator default, the actuator, words urdf2dyn's refusal holds or None where
# both load): every shortcut leaves actlimited "auto" in MuJoCo 4.0.0, whatever actlimited=
# says, so its class's increasing actrange is limited
_SHORTCUT_ACTRANGES = {
    "motor": ('<general actrange="0 1"/>', "<motor/>",
              ['actrange="0 1"', "<motor>", "actrange specified but dyntype is 'none'"]),
    "position, actlimited false": ('<general actrange="0 1" actlimited="false"/>',
                                   "<position/>", ["<position>", "whatever actlimited="]),
    "pid without ki": ('<general actrange="0 1"/>', "<pid/>", ["<pid>"]),
    "velocity, actlimited true": ('<general actrange="0 1" actlimited="true"/>',
                                  "<velocity/>", ["<velocity>"]),
    "pid with ki": ('<general actrange="0 1"/>', '<pid ki="1"/>', None),
    "position with timeconst": ('<general actrange="0 1"/>', '<position timeconst="1"/>',
                                None),
    "position, inverted with actlimited true": (
        '<general actrange="1 0" actlimited="true"/>', "<position/>", None),
    "intvelocity, own inverted with actlimited true": (
        "", '<intvelocity actrange="1 0" actlimited="true"/>', None),
    "muscle": ('<general actrange="0 1"/>', "<muscle/>", None),
}


@pytest.mark.parametrize("case", sorted(_SHORTCUT_ACTRANGES))
def test_class_actrange_of_a_shortcut_refused_as_mujoco_refuses_it(case):
    """A class's <general actrange=...> under a shortcut (a <motor>, <position>, <pid>...):
    MuJoCo 4.0.0 limits an increasing actrange whatever actlimited= the class writes, and
    refuses it on dynamics of none ("actrange specified but dyntype is 'none'"); an
    inverted one is not limited and loads. urdf2dyn checked actrange on a <general> alone,
    loading these."""
    default, element, words = _SHORTCUT_ACTRANGES[case]
    element = element.replace("/>", ' joint="j" class="c"/>')
    xml = doc(f'<default><default class="c">{default}</default></default>', _RANGED_WORLD,
              actuators(element))
    assert_as_mujoco(xml, words)


# (the class c0's defaults, its child c1's, the actuator's class, words urdf2dyn's refusal
# holds or None where both load): a <position> without timeconst= is filtered by the
# timeconst of the default it reads its settings from (as its gain), not by the dynamics
# the class's last actuator default left
_POSITION_TIMECONST_SOURCES = {
    "a child's pid": ('<position timeconst="1"/>', '<pid ki="1"/>', "c1", None),
    "a child's motor": ('<position timeconst="1"/>', "<motor/>", "c1", None),
    "a child's general dynprm then pid": (
        '<position timeconst="1"/>', '<general dynprm="7"/><pid ki="1"/>', "c1", None),
    "a child's general without dynamics": (
        '<position timeconst="1"/>', '<general dyntype="none"/>', "c1",
        ["<position>", "actrange specified but dyntype is 'none'"]),
    "the class's own pid after it": ('<position timeconst="1"/><pid ki="1"/>', "", "c0",
                                     ["<position>", "dyntype is 'none'"]),
}


@pytest.mark.parametrize("case", sorted(_POSITION_TIMECONST_SOURCES))
def test_position_takes_its_timeconst_from_the_default_it_reads(case):
    """Under a class actrange="0 1": MuJoCo 4.0.0 filters a <position> of class c1 by c0's
    <position timeconst="1"/> whatever <pid>, <motor> c1 writes after it (found by the
    random-chain test below: urdf2dyn took the pid's dynamics, none, and refused the
    model), and not when its own class wrote a <pid> after the position."""
    c0, c1, cls, words = _POSITION_TIMECONST_SOURCES[case]
    defaults = (f'<default><default class="c0">{c0}<general actrange="0 1"/>'
                f'<default class="c1">{c1}</default></default></default>')
    xml = doc(defaults, _RANGED_WORLD.replace('range="-1 1"', 'range="-1 1" limited="true"'),
              actuators(f'<position joint="j" class="{cls}"/>'))
    assert_as_mujoco(xml, words)


_ACTRANGE_DEFAULTS = ['<general actrange="0 1"/>', '<general actrange="1 0"/>',
                      '<general actrange="0 1" actlimited="false"/>',
                      '<general actlimited="true"/>', '<general dyntype="filter"/>',
                      '<position timeconst="1"/>', '<pid ki="1"/>', '<intvelocity/>',
                      '<intvelocity actrange="0 1"/>', "<motor/>"]


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.lists(st.lists(st.sampled_from(_ACTRANGE_DEFAULTS), max_size=3, unique_by=_tag),
                min_size=1, max_size=3),
       st.sampled_from(["motor", "position", "velocity", "pid", "intvelocity", "cylinder"]),
       st.sampled_from(["", 'inheritrange="1"']),
       st.booleans())
def test_class_actrange_of_random_shortcuts_refused_exactly_where_mujoco_refuses(
        levels, kind, own, autolimits):
    """Nested classes writing actrange, actlimited and dynamics, under a shortcut (with an
    inheritrange where it takes one), compiler autolimits on or off: urdf2dyn refuses
    exactly where MuJoCo 4.0.0 refuses ("actrange specified but dyntype is 'none'",
    "actuator has `actrange` but not `actlimited`"); it loaded every shortcut's."""
    if kind not in ("position", "intvelocity", "pid"):
        own = ""
    world = _RANGED_WORLD.replace('range="-1 1"', 'range="-1 1" limited="true"')
    xml, _, _ = _general_under_classes(levels, own, kind, world)
    if not autolimits:
        xml = xml.replace("<mujoco>", '<mujoco><compiler autolimits="false"/>')
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)




# (class defaults, the actuator, words urdf2dyn's refusal holds or None where both load): a
# <position>, <intvelocity> or <pid> without its own range or inheritrange takes the
# inheritrange of the default it reads its settings from, and MuJoCo 4.0.0 refuses it beside
# the range its class gives (a default of the chain too, used or not)
_RANGE_BESIDE_INHERITED = {
    "general after position": (
        '<position inheritrange="1"/><general ctrlrange="0 1"/>', "<position/>",
        ["<position> of class 'c'", 'inheritrange="1"', "ctrlrange and inheritrange cannot "
         "both be defined", "its own ctrlrange or inheritrange="]),
    "general in a child class": (
        '<position inheritrange="1"/><default class="d"><general ctrlrange="0 1"/></default>',
        '<position class="d"/>', ["class 'd'"]),
    "an unused child class's position": (
        '<position inheritrange="1"/><default class="d"><general ctrlrange="0 1"/>'
        '<position kp="2"/></default>', "<motor/>", ["<default>", "class 'd'"]),
    "a motor between": (
        '<position inheritrange="1"/><default class="d"><general ctrlrange="0 1"/><motor/>'
        '</default>', '<position class="d"/>', ["class 'd'"]),
    "pid": ('<pid inheritrange="1"/><general ctrlrange="0 1"/>', "<pid/>",
            ["posrange and inheritrange", "ctrlrange= or posrange="]),
    "pid, blank posrange": ('<pid inheritrange="1"/><general ctrlrange="0 1"/>',
                            '<pid posrange=""/>', ["posrange and inheritrange"]),
    "intvelocity": ('<intvelocity inheritrange="1"/><general actrange="0 1"/>',
                    "<intvelocity/>", ["actrange and inheritrange"]),
    "NaN range": ('<position inheritrange="1"/><general ctrlrange="nan 0"/>', "<position/>",
                  ["ctrlrange and inheritrange"]),
    "own ctrlrange": ('<position inheritrange="1"/><general ctrlrange="0 1"/>',
                      '<position ctrlrange="0 1"/>', None),
    "own blank ctrlrange": ('<position inheritrange="1"/><general ctrlrange="0 1"/>',
                            '<position ctrlrange=""/>', None),
    "own inheritrange": ('<position inheritrange="1"/><general ctrlrange="0 1"/>',
                         '<position inheritrange="1"/>', None),
    "own inheritrange 0": ('<position inheritrange="1"/><general ctrlrange="0 1"/>',
                           '<position inheritrange="0"/>', None),
    "pid, own blank ctrlrange": ('<pid inheritrange="1"/><general ctrlrange="0 1"/>',
                                 '<pid ctrlrange=""/>', None),
    "intvelocity, own blank actrange": (
        '<intvelocity inheritrange="1"/><general actrange="0 1"/>',
        '<intvelocity actrange=""/>', None),
    "intvelocity, a class ctrlrange": (
        '<intvelocity inheritrange="1"/><general ctrlrange="0 1"/>', "<intvelocity/>", None),
    "pid under a position's inheritrange": (
        '<position inheritrange="1"/><general ctrlrange="0 1"/>', "<pid/>", None),
    "range before the inheritrange": ('<general ctrlrange="0 1"/><position inheritrange="1"/>',
                                      "<position/>", None),
    "general of affine gains after": (
        '<position inheritrange="1"/><general ctrlrange="0 1" gaintype="affine"/>',
        "<position/>", None),
    "own ctrlrange over a target without a range": (
        '<position inheritrange="1"/>', '<position ctrlrange="0 1" tendon="t"/>', None),
    "intvelocity's own inheritrange clears the actrange": (
        '<general actrange="0 1"/><intvelocity inheritrange="1"/>', "<motor/>", None),
}


@pytest.mark.parametrize("case", sorted(_RANGE_BESIDE_INHERITED))
def test_range_beside_an_inherited_inheritrange_refused_as_mujoco_refuses_it(case):
    """A class's inheritrange above 0 and a range (ctrlrange, a <pid>'s posrange, an
    <intvelocity>'s actrange) a <general> of the class or a child class writes after it:
    MuJoCo 4.0.0 refuses the <position>, <intvelocity> or <pid> that takes both (a default
    too, used or not), and an own range or inheritrange avoids it (an own range drops the
    inheritrange: a target without a range then loads). urdf2dyn loaded these, and refused
    an own range over a target without a range."""
    defaults, element, words = _RANGE_BESIDE_INHERITED[case]
    if "tendon=" not in element:
        element = element.replace("/>", ' joint="j"/>')
    if "class=" not in element:
        element = element.replace("/>", ' class="c"/>')
    world = _RANGED_WORLD if "tendon=" not in element else \
        WORLD + '<tendon><fixed name="t"><joint joint="j" coef="1"/></fixed></tendon>'
    xml = doc(f'<default><default class="c">{defaults}</default></default>', world,
              actuators(element))
    assert_as_mujoco(xml, words)


_RANGE_AND_INHERITRANGE_DEFAULTS = [
    '<general ctrlrange="0 1"/>', '<general ctrlrange="0 0"/>', '<general actrange="0 1"/>',
    '<general gaintype="affine"/>', "<motor/>", "<position/>", '<position inheritrange="1"/>',
    '<position ctrlrange="0 1"/>', '<intvelocity inheritrange="1"/>', '<pid inheritrange="1"/>',
    '<pid posrange="0 1"/>', '<general inheritrange="1"/>']


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_RANGE_AND_INHERITRANGE_DEFAULTS), max_size=3,
                         unique_by=_tag), min_size=1, max_size=3),
       st.sampled_from(["position", "intvelocity", "pid"]),
       st.sampled_from(["", 'inheritrange="1"', 'inheritrange="0"', 'ctrlrange=""',
                        'actrange=""']))
@example([['<position inheritrange="1"/>'], ['<general ctrlrange="0 1"/>', "<motor/>"]],
         "position", "")
def test_range_beside_inherited_inheritrange_of_random_class_chains(levels, kind, own):
    """Nested classes writing ranges and inheritranges, under a <position>, <intvelocity> or
    <pid>: urdf2dyn refuses for a range beside an inheritrange ("... and inheritrange
    cannot both be defined") exactly where MuJoCo 4.0.0 does."""
    if own.startswith("actrange") and kind != "intvelocity":
        own = ""
    xml, got, _ = _general_under_classes(levels, own, kind, _RANGED_WORLD)
    expected = mujoco_error(xml)
    both = "and inheritrange cannot both be defined"
    assert (expected is not None and both in expected) == (got is not None and both in got), \
        (xml, expected, got)



# (class defaults, the actuator, words urdf2dyn's refusal holds or None where both load): the
# control range MuJoCo 4.0.0 checks, as its reader leaves it
_CONTROL_RANGE_AS_READ = {
    "a position's inheritrange clears the class's ctrlrange": (
        '<general ctrlrange="0 1" ctrllimited="true"/><position inheritrange="1"/>',
        "<motor/>", ['ctrlrange="0 0"', "ctrlrange[0] must be below ctrlrange[1]"]),
    "a pid's inheritrange clears it": (
        '<general ctrlrange="0 1" ctrllimited="true"/><pid inheritrange="1"/>', "<motor/>",
        ['ctrlrange="0 0"']),
    "a position's own inheritrange of 0 after one that cleared it": (
        '<general ctrlrange="0 1" ctrllimited="true"/><position inheritrange="1"/>',
        '<position inheritrange="0"/>', ['ctrlrange="0 0"']),
    "an intvelocity's inheritrange keeps it": (
        '<general ctrlrange="0 1" ctrllimited="true"/><intvelocity inheritrange="1"/>',
        "<motor/>", None),
    "a general after the inheritrange keeps its own": (
        '<position inheritrange="1"/><general ctrlrange="0 1" ctrllimited="true"/>',
        '<position inheritrange="0"/>', None),
    "a pid's posrange is its control range": ("<adhesion/>", '<pid posrange="0 1"/>', None),
    "a pid's inverted posrange": ("<adhesion/>", '<pid posrange="1 0" ctrlrange="0 1"/>',
                                  ['ctrlrange="1 0"', "<adhesion> default"]),
    "a blank ctrlrange keeps the class's": (
        '<damper/><general ctrlrange="0 1"/>', '<general ctrlrange=""/>', None),
}


@pytest.mark.parametrize("case", sorted(_CONTROL_RANGE_AS_READ))
def test_control_range_checked_as_mujoco_reads_it(case):
    """The control range MuJoCo 4.0.0 checks: a class's <position> or <pid> inheritrange
    above 0 clears the ctrlrange written before it (an <intvelocity>'s does not), a
    <pid>'s own posrange is its ctrlrange, and a blank ctrlrange= keeps the class's. urdf2dyn
    read the class's ctrlrange through all of them, loading an empty limited range MuJoCo
    refuses and refusing a pid's posrange it loads."""
    defaults, element, words = _CONTROL_RANGE_AS_READ[case]
    element = element.replace("/>", ' joint="j" class="c"/>')
    xml = doc(f'<default><default class="c">{defaults}</default></default>', _RANGED_WORLD,
              actuators(element))
    assert_as_mujoco(xml, words)


# muscle numbers and types from <general> defaults (known), a shortcut's (left to MuJoCo)
_MUSCLE_DEFAULTS = [f'<general gainprm="{_MUSCLE}"/>', '<general gainprm="0.5 0.4"/>',
                    '<general gaintype="muscle"/>', '<general biastype="muscle"/>',
                    f'<general biasprm="{_MUSCLE}" gainprm="1 2"/>',
                    '<general gainprm="0.75 1.05 -1 200 1"/>', '<general gaintype="fixed"/>',
                    "<muscle/>", '<muscle range="0.9 0.8"/>', "<motor/>"]


# defaults a <muscle> does not read its numbers from (other shortcuts, <general>s over
# other gains), and those it does (a <muscle>, a <general> over muscle gains)
_NOT_MUSCLE_SOURCES = ["<motor/>", '<position kp="2"/>', "<velocity/>", "<damper/>",
                       "<cylinder/>", '<general gainprm="0.5 0.4 -1 0 2"/>',
                       '<general gaintype="fixed"/>', '<general biastype="muscle"/>',
                       '<general ctrllimited="false"/>']
_MUSCLE_SOURCES = ['<muscle range="0.9 0.8"/>', '<general gaintype="muscle"/>']


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_NOT_MUSCLE_SOURCES + _MUSCLE_SOURCES), max_size=2,
                         unique_by=_tag), min_size=1, max_size=3),
       st.sampled_from(["", 'range="1 0"', 'range="0.5 0.6"', 'lmin="1"', 'lmax="0.9"',
                        'scale="0"', 'vmax="0"', 'fvmax="-0"']))
def test_muscle_numbers_under_other_actuator_defaults_refused_as_mujoco_refuses(levels, own):
    """A <muscle> of a class chain with actuator defaults: MuJoCo 4.0.0 starts it from its
    own defaults (range 0.75 1.05, lmin 0.5...) unless a default of the chain was left by a
    <muscle> or a <general> over muscle gains, so where none was its own numbers are
    checked as MuJoCo checks them ("lmin<1<lmax required in muscle"...); urdf2dyn left
    every <muscle> under actuator defaults to MuJoCo, loading those it refuses. Never
    refused where MuJoCo loads."""
    xml, got, _ = _general_under_classes(levels, own, "muscle", _RANGED_WORLD)
    expected = mujoco_error(xml)
    in_muscle = expected is not None and " required in muscle" in expected
    if in_muscle and all(d in _NOT_MUSCLE_SOURCES for level in levels for d in level):
        assert got is not None and expected.split(" required")[0][7:] in got, (xml, got)
    if got is not None and " required in muscle" in got:    # (or MuJoCo's damper's range)
        assert expected is not None, (xml, got)
    if expected is None:
        assert got is None, (xml, got)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_MUSCLE_DEFAULTS), max_size=2, unique_by=_tag),
                min_size=1, max_size=3),
       st.sampled_from(["general", "muscle"]),
       st.sampled_from(["", 'gaintype="muscle"', 'biastype="muscle"', 'gainprm="0.5 0.4"',
                        f'gaintype="muscle" gainprm="{_MUSCLE}"', 'range="1 0"',
                        'lmin="1"', 'scale="0"']))
def test_muscle_numbers_of_class_chains_refused_where_mujoco_refuses(levels, kind, own):
    """Nested classes of <general> defaults writing muscle types and numbers (and shortcuts,
    whose numbers urdf2dyn leaves to MuJoCo), under a <general> or <muscle>: refused for
    its muscle numbers exactly where MuJoCo 4 refuses them, wherever the chain holds
    <general> defaults alone (a <muscle>: no actuator defaults); never where MuJoCo loads."""
    attributes = {"general": "" if "=" in own and own.split("=")[0] in
                  ("range", "lmin", "scale") else own,
                  "muscle": own if own.split("=")[0] in ("range", "lmin", "scale") else ""}
    xml, got, warned = _general_under_classes(levels, attributes[kind], kind,
                                              _RANGED_WORLD)
    expected = mujoco_error(xml)
    in_muscle = expected is not None and " required in muscle" in expected
    known = all(d.startswith("<general") and kind == "general" for lv in levels for d in lv)
    if in_muscle and known:
        assert got is not None and expected.split(" required")[0][7:] in got, (xml, got)
    if got is not None and " required in muscle" in got:
        assert in_muscle, (xml, expected, got)
    if expected is None:
        assert got is None, (xml, got)


_NEGATIVE_SLEWMAX = "slewmax cannot be negative"
_PID_GAINS_SLEWING_BACK = '<general gaintype="pid" biastype="affine" dynprm="0 -1"/>'


@pytest.mark.parametrize("defaults, element, words", [
    (_PID_GAINS_SLEWING_BACK, '<pid joint="j"/>',
     ["actuator 0", "takes from the pid gains of its class", "-1", _NEGATIVE_SLEWMAX,
      "give slewmax= of 0 or more"]),
    ('<pid slewmax="1"/><general dynprm="0 -1"/>', '<pid joint="j"/>', [_NEGATIVE_SLEWMAX]),
    ('<pid/><general dynprm="0 -1"/>', '<pid joint="j" slewmax=" "/>', [_NEGATIVE_SLEWMAX]),
    (f'<default class="a">{_PID_GAINS_SLEWING_BACK}<default class="b"><motor/></default>'
     '</default>', '<pid class="b" joint="j"/>', [_NEGATIVE_SLEWMAX]),
    (f'<default class="a">{_PID_GAINS_SLEWING_BACK}<default class="b"><pid kp="2"/>'
     '</default></default>', '<general class="b" joint="j"/>',
     ["line 1", "<pid> default", _NEGATIVE_SLEWMAX]),
    ('<pid slewmax="1"/><general dynprm="0 -1"/>', '<pid joint="j" slewmax="2"/>', None),
    ('<general dyntype="pid" dynprm="0 -1"/>', '<pid joint="j"/>', None),
    (_PID_GAINS_SLEWING_BACK + "<motor/>", '<pid joint="j"/>', None),
    ('<general gaintype="pid" biastype="affine" dynprm="0 nan"/>', '<pid joint="j"/>', None),
])
def test_a_pid_inheriting_a_negative_slewmax_is_refused_as_mujoco_refuses_it(
        defaults, element, words):
    """A <pid> without its own slewmax takes the dynprm[1] of the pid gains before it (a
    <general>'s dynprm= over pid gains, in its class or the nearest class above whose gains
    stayed pid); MuJoCo 4 refuses one below 0 as it reads the <pid>, a default too ("slewmax
    cannot be negative"); urdf2dyn loaded it with a warning that MuJoCo may refuse the
    gains. Refused with MuJoCo's reason; a NaN, or gains that are not pid, load in both."""
    xml = doc(f"<default>{defaults}</default>", WORLD, actuators(element))
    assert_as_mujoco(xml, words)


_SLEW_DEFAULTS = [_PID_GAINS_SLEWING_BACK, '<general dynprm="0 -1"/>', '<general dynprm="0 2"/>',
                  "<pid/>", '<pid slewmax="1"/>', "<motor/>", '<general gaintype="fixed"/>',
                  '<general gaintype="pid" biastype="affine"/>', '<general dyntype="pid"/>']


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_SLEW_DEFAULTS), max_size=2, unique_by=_tag),
                min_size=1, max_size=3),
       st.sampled_from(["", 'slewmax="0"', 'slewmax=" "', 'ki="1"']))
def test_pid_slewmax_of_class_chains_refused_exactly_where_mujoco_refuses(levels, own):
    """Nested classes whose defaults write pid gains, a dynprm[1] below 0 or not, and other
    gains, under a <pid> of its own slewmax or not: urdf2dyn refuses a negative slewmax the
    <pid> (or a <pid> default) takes exactly where MuJoCo 4 refuses it, with its reason."""
    xml, got, _ = _general_under_classes(levels, own, "pid")
    expected = mujoco_error(xml)
    refused = expected is not None and _NEGATIVE_SLEWMAX in expected
    assert refused == (got is not None and _NEGATIVE_SLEWMAX in got), (xml, expected, got)


_PID_STATES = "invalid actdim 0 in stateful actuator"
_SLEWMAX = "slewmax (dynprm[1]) must be non-negative"


@pytest.mark.parametrize("defaults, attrs, reason", [
    ("", 'gainprm="0"', _PID_STATES), ("", 'gainprm="-1" dynprm="5 0"', _PID_STATES),
    ("", 'gainprm="nan" dynprm="0 nan"', _PID_STATES), ("", 'dynprm="0 -1"', _SLEWMAX),
    ("", 'gainprm="0" dynprm="0 1"', None), ("", 'dynprm="1"', None), ("", "", None),
    ('<general dynprm="0 1"/>', 'gainprm="0" dynprm="0"', None),
    ('<pid slewmax="2"/>', 'gainprm="0"', None), ('<pid kp="2"/>', 'gainprm="0 1"', _PID_STATES),
    ('<position kp="0"/>', "", _PID_STATES), ("<motor/>", "", None),
    ('<general dynprm="0 1"/><motor/>', 'gainprm="0"', _PID_STATES),
    ('<pid kp="1" ki="1"/>', 'gainprm="0"', _PID_STATES),
])
def test_pid_dyntype_states_of_general_numbers_refused_as_mujoco_refuses(defaults, attrs,
                                                                         reason):
    """A <general> of pid dyntype and pid gains keeps one state each for a ki (gainprm[0])
    and a slewmax (dynprm[1]) above 0: MuJoCo 4 refuses none ("invalid actdim 0 in stateful
    actuator"; a ki of 0, -1 or NaN without a slewmax) and a slewmax below 0, which urdf2dyn
    loaded with a warning that MuJoCo may refuse it. A shorter dynprm= keeps the slewmax
    before it; every other shortcut sets it to 0; a <pid>'s states stand until a dyntype=
    is written. Refused exactly where MuJoCo refuses."""
    xml = doc(f"<default>{defaults}</default>", WORLD, actuators(
        f'<general joint="j" dyntype="pid" gaintype="pid" biastype="affine" {attrs}/>'))
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (reason is None), expected
    assert (got is None) == (reason is None), got
    if reason is not None:
        assert reason in expected and f'"{reason}"): give' in got, (expected, got)


_PID_STATE_DEFAULTS = ['<general gainprm="0"/>', '<general gainprm="-1"/>',
                       '<general gainprm="2"/>', '<general dynprm="0 1"/>',
                       '<general dynprm="0 -1"/>', '<general dynprm="0"/>', '<pid ki="1"/>',
                       '<pid slewmax="1"/>', '<pid kp="2"/>', "<position/>",
                       '<position kp="0"/>', "<motor/>", '<velocity kv="0"/>',
                       '<intvelocity kp="0"/>', '<cylinder area="0"/>']


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PID_STATE_DEFAULTS), max_size=3, unique_by=_tag),
                min_size=1, max_size=3))
def test_random_pid_dyntype_states_refused_where_mujoco_refuses(levels):
    """Nested classes writing ki, slewmax and other shortcuts' gains under a <general> of pid
    dyntype and gains: urdf2dyn loads what MuJoCo 4 loads, refuses for MuJoCo's reason
    where it refuses for no state or a negative slewmax, or (gains it does not follow)
    loads it with its warning that MuJoCo may refuse it."""
    xml, got, warned = _general_under_classes(
        levels, 'dyntype="pid" gaintype="pid" biastype="affine"')
    expected = mujoco_error(xml)
    if expected is None:
        assert got is None, (xml, got)
        return
    reason = next((r for r in (_PID_STATES, _SLEWMAX) if r in expected), None)
    if reason is None:      # e.g. a <pid> taking a <general>'s negative slewmax: warned
        assert got is not None or warned, (xml, expected)
    else:
        assert (got is not None and reason in got) or warned, (xml, expected, got)


def test_pid_gains_without_affine_bias_are_refused_for_the_bias_as_mujoco_refuses_them():
    """A <pid>'s nonzero ki under a <general> writing dyntype="none" and biastype="none":
    MuJoCo 4 refuses it for the bias first ("pid requires biastype 'affine'"); urdf2dyn gave
    the ki's reason, whose advice (leave dyntype out) left the model refused."""
    xml = doc('<default><pid ki="1"/></default>', WORLD,
              actuators('<general joint="j" dyntype="none" biastype="none"/>'))
    assert "pid requires biastype 'affine'" in mujoco_error(xml)
    got = urdf2dyn_error(xml)
    assert "biastype" in got and "ki (gainprm[0])" not in got, got

_DC_EARLY = "actearly cannot be false for DC motor actuator"
_SCHEMA_EARLY = "unrecognized attribute: 'actearly'"
ACTEARLY = {   # the case: class defaults, the actuator, MuJoCo's reason
    "general dcmotor, actearly false": (
        "", '<general joint="j" dyntype="dcmotor" gaintype="dcmotor" biastype="dcmotor" '
            'gainprm="1 1" actearly="false"/>', _DC_EARLY,
        ["actuator 0", "line 1", '"dcmotor"', "actearly false", 'actearly="true"']),
    "general dcmotor, actearly not given": (
        "", '<general joint="j" dyntype="dcmotor"/>', _DC_EARLY, ["actearly false"]),
    "general dcmotor, actearly true": (
        "", '<general joint="j" dyntype="dcmotor" actearly="true"/>', None, None),
    "general actearly false under a dcmotor default": (
        f"<dcmotor {_DC}/>", '<general joint="j" actearly="false"/>', _DC_EARLY,
        ["actearly false"]),
    "general actearly true under a dcmotor default": (
        f"<dcmotor {_DC}/>", '<general joint="j" actearly="true"/>', None, None),
    "general under a dcmotor default": (f"<dcmotor {_DC}/>", '<general joint="j"/>', None,
                                        None),
    "actearly false in the dcmotor default's class": (
        f'<dcmotor {_DC}/><general actearly="false"/>', '<general joint="j"/>', _DC_EARLY,
        ["actearly false"]),
    "dcmotor default after actearly false": (
        f'<general actearly="false"/><dcmotor {_DC}/>', '<general joint="j"/>', None, None),
    "dcmotor actuator under actearly false": (
        f'<dcmotor {_DC}/><general actearly="false"/>', f'<dcmotor joint="j"/>', None, None),
    "child dcmotor default under actearly false": (
        f'<dcmotor {_DC}/><general actearly="false"/><default class="c"><dcmotor/></default>',
        '<general joint="j" class="c"/>', None, None),
    "plugin actearly false under a dcmotor default": (
        f"<dcmotor {_DC}/>", '<plugin plugin="mujoco.pid" joint="j" actearly="false"/>',
        _DC_EARLY, ["actearly false"]),
    # every other shortcut sets actearly false
    "motor after actearly true": ('<general actearly="true"/><motor/>',
                                  '<general joint="j" dyntype="dcmotor"/>', _DC_EARLY,
                                  ["actearly false"]),
    "cylinder after actearly true": ('<general actearly="true"/><cylinder/>',
                                     '<general joint="j" dyntype="dcmotor"/>', _DC_EARLY,
                                     ["actearly false"]),
    "child motor after actearly true": (
        '<general actearly="true"/><default class="c"><motor/></default>',
        '<general joint="j" class="c" dyntype="dcmotor"/>', _DC_EARLY, ["actearly false"]),
    "actearly true, a child's motor unused": (
        '<general actearly="true"/><default class="c"><motor/></default>',
        '<general joint="j" dyntype="dcmotor"/>', None, None),
    # actearly= is a keyword of <general> and a plugin actuator only
    "actearly x": ("", '<general joint="j" actearly="x"/>', "invalid keyword: 'x'",
                   ["<general", "actearly=", "false,true"]),
    "actearly True": ("", '<general joint="j" actearly="True"/>', "invalid keyword",
                      ["actearly="]),
    "actearly blank in a default": ('<general actearly=""/>', "", "invalid keyword",
                                    ["actearly="]),
    "plugin actearly x": ("", '<plugin plugin="mujoco.pid" joint="j" actearly="x"/>',
                          "invalid keyword", ["actearly="]),
    "motor actearly": ("", '<motor joint="j" actearly="true"/>', _SCHEMA_EARLY,
                       ["<motor>", "no actearly="]),
    "dcmotor actearly false": ("", f'<dcmotor joint="j" {_DC} actearly="false"/>',
                               _SCHEMA_EARLY, ["<dcmotor>", "no actearly="]),
    "intvelocity default actearly": ('<intvelocity actearly="true"/>', "", _SCHEMA_EARLY,
                                     ["<intvelocity>", "no actearly="]),
}


@pytest.mark.parametrize("case", sorted(ACTEARLY))
def test_dcmotor_dyntype_needs_actearly_as_mujoco_has_it(case):
    """MuJoCo 4.0.0 compiles a dyntype dcmotor only with actearly true, which a <dcmotor>
    sets and a <general> (false by default) or any other shortcut unsets; actearly= is a
    false|true keyword of <general> and a plugin actuator only. urdf2dyn loaded each."""
    default, element, reason, words = ACTEARLY[case]
    ext = '<extension><plugin plugin="mujoco.pid"/></extension>' if "plugin" in element else ""
    acts = actuators(element) if element else ""
    xml = doc(ext, f"<default>{default}</default>", WORLD, acts)
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


_TOO_MUCH = "has too much data"
SHORTCUT_NUMBERS = {   # the case: class defaults, the actuator, MuJoCo's reason
    "motorconst of three": ("", '<dcmotor joint="j" motorconst="1 1 1" resistance="1"/>',
                            _TOO_MUCH, ["<dcmotor", "motorconst=", "3 numbers", "at most 2",
                                        "line 1"]),
    "resistance of two": ("", '<dcmotor joint="j" motorconst="1" resistance="1 1"/>',
                          _TOO_MUCH, ["resistance=", "exactly 1"]),
    "lugre of six": ("", f'<dcmotor joint="j" {_DC} lugre="1 1 1 1 1 1"/>', _TOO_MUCH,
                     ["lugre="]),
    "thermal of seven": ("", f'<dcmotor joint="j" {_DC} thermal="1 1 1 1 1 1 1"/>', _TOO_MUCH,
                         ["thermal="]),
    "controller of seven": ("", f'<dcmotor joint="j" {_DC} controller="0 0 0 0 0 0 0"/>',
                            _TOO_MUCH, ["controller="]),
    "motorconst not a number": ("", '<dcmotor joint="j" motorconst="a" resistance="1"/>',
                                "bad format in attribute 'motorconst'",
                                ["motorconst=", "not a number"]),
    "inductance not a number": ("", f'<dcmotor joint="j" {_DC} inductance="x"/>',
                                "bad format in attribute 'inductance'", ["inductance="]),
    "cogging with a comma": ("", f'<dcmotor joint="j" {_DC} cogging="1,2"/>',
                             "bad format in attribute 'cogging'", ["cogging="]),
    "cogging too large": ("", f'<dcmotor joint="j" {_DC} cogging="1e400"/>',
                          "number is too large in attribute 'cogging'", ["cogging="]),
    "cogging inf": ("", f'<dcmotor joint="j" {_DC} cogging="inf"/>', None, None),
    "cogging of one": ("", f'<dcmotor joint="j" {_DC} cogging="1"/>', None, None),
    "cogging empty": ("", f'<dcmotor joint="j" {_DC} cogging=""/>', None, None),
    "cogging in hexadecimal": ("", f'<dcmotor joint="j" {_DC} cogging="0x10"/>', None, None),
    "a default's motorconst of three": ('<dcmotor motorconst="1 2 3" resistance="1"/>', "",
                                        _TOO_MUCH, ["<dcmotor", "motorconst="]),
    "a default's cogging not a number": (f'<dcmotor {_DC} cogging="a"/>', "",
                                         "bad format in attribute 'cogging'", ["cogging="]),
    "pid ki not a number": ("", '<pid joint="j" ki="a"/>', "bad format in attribute 'ki'",
                            ["<pid>", "ki=", 'give decimal numbers', 'e.g. ki="0.5"']),
    "pid ki too large": ("", '<pid joint="j" ki="1e400"/>', "number is too large",
                         ["<pid>", "ki=", "too large", "give numbers below 1.7e308"]),
    "pid ki of two": ("", '<pid joint="j" ki="1 2"/>', _TOO_MUCH, ["<pid", "ki="]),
    "pid posrange of one": ("", '<pid joint="j" posrange="1"/>',
                            "attribute 'posrange' does not have enough data",
                            ["posrange=", "exactly 2"]),
    "pid velrange of three": ("", '<pid joint="j" velrange="-1 1 2"/>', _TOO_MUCH,
                              ["velrange="]),
    "a default's pid kp of two": ('<pid kp="1 2"/>', "", _TOO_MUCH, ["<pid", "kp="]),
    "pid kp inf": ("", '<pid joint="j" kp="inf"/>', None, None),
}


@pytest.mark.parametrize("case", sorted(SHORTCUT_NUMBERS))
def test_dcmotor_and_pid_numbers_are_read_as_mujoco_reads_them(case):
    """MuJoCo 4.0.0's reader refuses a <dcmotor>'s or <pid>'s attribute (an actuator or a
    default) holding text that is no number, a number too large for a double, or more
    numbers than it takes (fewer than it takes for a range); urdf2dyn loaded them."""
    default, element, reason, words = SHORTCUT_NUMBERS[case]
    acts = actuators(element) if element else ""
    xml = doc(f"<default>{default}</default>", WORLD, acts)
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(['<dcmotor joint="j" motorconst="1" resistance="1" cogging="{}"/>',
                        '<pid joint="j" kp="{}"/>']),
       st.text(alphabet=" +-0123456789.eaxnif,", max_size=10))
def test_random_dcmotor_and_pid_numbers_refused_exactly_where_mujoco_refuses(element, text):
    """Random text in a <dcmotor>'s cogging= (at most 3 numbers, none checked further) or a
    <pid>'s kp= (one): urdf2dyn refuses it exactly where MuJoCo's reader does."""
    xml = doc(WORLD, actuators(element.format(text)))
    error = mujoco_error(xml) or ""
    assert ("attribute 'cogging'" in error or "attribute 'kp'" in error) == \
        (urdf2dyn_error(xml) is not None), (text, error, urdf2dyn_error(xml))


# every actuator kind's numeric attributes (MuJoCo 4.0.0's read table and shortcuts), the
# numbers each takes: at most that many, exactly that many where the count is negative
_COMMON_NUMBERS = {"group": -1, "nsample": -1, "delay": -1, "ctrlrange": -2, "forcerange": -2,
                   "actrange": -2, "lengthrange": -2, "gear": 6, "damping": 3, "armature": -1}
_OWN_NUMBERS = {
    "general": {"gainprm": 10, "biasprm": 10, "dynprm": 10},
    "motor": {},
    "position": {"kp": -1, "kv": -1, "dampratio": -1, "timeconst": -1, "inheritrange": -1},
    "intvelocity": {"kp": -1, "kv": -1, "dampratio": -1, "inheritrange": -1},
    "velocity": {"kv": -1}, "damper": {"kv": -1}, "adhesion": {"gain": -1},
    "cylinder": {"timeconst": -1, "bias": -3, "area": -1, "diameter": -1},
    "muscle": {"timeconst": -2, "tausmooth": -1, "range": -2, "force": -1, "scale": -1,
               "lmin": -1, "lmax": -1, "vmax": -1, "fpmax": -1, "fvmax": -1},
}
_ACT_WORLD = ('<worldbody><body name="b"><joint name="j" range="-1 1"/><geom size="0.1"/>'
              '</body></worldbody>')


def _kind_and_target(kind):
    """A working actuator of kind on _ACT_WORLD's joint (an adhesion on its body)."""
    return {"adhesion": 'body="b" ctrlrange="0 1"', "damper": 'joint="j" ctrlrange="0 1"'}.get(
        kind, 'joint="j"')


ACTUATOR_NUMBERS = {   # the case: the <default>'s content, the actuator; urdf2dyn's words
    "motor gear of seven": ("", '<motor joint="j" gear="1 2 3 4 5 6 7"/>',
                            ["<motor", "gear=", "7 numbers", "at most 6", "too much data"]),
    "motor gear with a letter": ("", '<motor joint="j" gear="1 2x"/>',
                                 ["<motor>", "gear=", "not a number"]),
    "general gainprm with a letter": ("", '<general joint="j" gainprm="1 x"/>', ["gainprm="]),
    "general dynprm too large": ("", '<general joint="j" dynprm="1e400"/>',
                                 ["dynprm=", "too large"]),
    "general biasprm of eleven": ("", '<general joint="j" biasprm="0 0 0 0 0 0 0 0 0 0 0"/>',
                                  ["biasprm=", "at most 10"]),
    "position kp with a comma": ("", '<position joint="j" kp="1,2"/>', ["<position>", "kp="]),
    "position kp of two": ("", '<position joint="j" kp="1 2"/>', ["kp=", "exactly 1"]),
    "velocity kv not a number": ("", '<velocity joint="j" kv="fast"/>', ["<velocity>", "kv="]),
    "cylinder bias of two": ("", '<cylinder joint="j" bias="1 2"/>', ["bias=", "exactly 3"]),
    "muscle timeconst of one": ("", '<muscle joint="j" timeconst="1"/>',
                                ["<muscle", "timeconst=", "exactly 2", "not have enough"]),
    "motor lengthrange of three": ("", '<motor joint="j" lengthrange="0 1 2"/>',
                                   ["lengthrange="]),
    "motor ctrlrange of one": ("", '<motor joint="j" ctrlrange="1"/>', ["ctrlrange="]),
    "motor group not a whole number": ("", '<motor joint="j" group="1.5"/>',
                                       ["<motor", "group=", "whole number"]),
    "motor group in hexadecimal": ("", '<motor joint="j" group="0x1"/>', ["group="]),
    "motor nsample too large for an int": ("", '<motor joint="j" nsample="3000000000"/>',
                                           ["nsample="]),
    "motor delay of two": ("", '<motor joint="j" delay="0 0"/>', ["delay="]),
    "a default's motor gear with a letter": ('<motor gear="2x"/>', "", ["<motor>", "gear="]),
    "a default's adhesion gain not a number": ('<default class="c"><adhesion gain="g"/>'
                                               '</default>', "", ["<adhesion>", "gain="]),
    "motor gear in hexadecimal": ("", '<motor joint="j" gear="0x10"/>', None),
    "motor group -1": ("", '<motor joint="j" group="-1"/>', None),
    "position kp blank": ("", '<position joint="j" kp=""/>', None),
    "motor gear blank": ("", '<motor joint="j" gear=" "/>', None),
    "motor ctrlrange blank": ("", '<motor joint="j" ctrlrange=""/>', None),
    "general armature blank": ("", '<general joint="j" armature=" "/>', None),
    "a default's motor damping blank": ('<motor damping=" "/>', '<motor joint="j"/>', None),
}


@pytest.mark.parametrize("case", sorted(ACTUATOR_NUMBERS))
def test_every_actuator_kind_numbers_are_read_as_mujoco_reads_them(case):
    """MuJoCo 4.0.0's reader refuses an actuator's numeric attribute, any kind (an actuator
    or a default, used or not), holding text that is no number ("bad format"), a number too
    large for a double, more numbers than it takes or fewer than a range takes, or an int
    attribute that is no whole number; a blank one is not given. urdf2dyn loaded them on
    other kinds than <dcmotor> and <pid>, and refused a blank gear, range, damping or
    armature."""
    default, element, words = ACTUATOR_NUMBERS[case]
    assert_as_mujoco(doc(f"<default>{default}</default>", _ACT_WORLD,
                         actuators(element) if element else ""), words)


ACTUATOR_KEYWORDS = {   # the case: the <default>'s content, the actuator; urdf2dyn's words
    "dyntype unknown": ("", '<general joint="j" dyntype="foo"/>',
                        ["<general", "dyntype=", "expected one of", "filterexact"]),
    "dyntype blank": ("", '<general joint="j" dyntype=""/>', ["dyntype="]),
    "gaintype in capitals": ("", '<general joint="j" gaintype="FIXED"/>', ["gaintype="]),
    "biastype unknown": ("", '<general joint="j" biastype="quadratic"/>', ["biastype="]),
    "interp unknown": ("", '<general joint="j" interp="spline"/>', ["interp=", "cubic"]),
    "a default's dyntype unknown": ('<general dyntype="foo"/>', "", ["dyntype="]),
    "a default's ctrllimited unknown": ('<general ctrllimited="yes"/>', "", ["ctrllimited="]),
    "a default's forcelimited blank": ('<motor forcelimited=""/>', "", ["forcelimited="]),
    "a default's actlimited unknown": ('<general actlimited="1"/>', "", ["actlimited="]),
    "every word MuJoCo reads": (
        '<general ctrllimited="auto" forcelimited="false" actlimited="auto"/>',
        '<general joint="j" dyntype="filterexact" gaintype="affine" biastype="affine" '
        'interp="linear"/>', None),
}


@pytest.mark.parametrize("case", sorted(ACTUATOR_KEYWORDS))
def test_actuator_keywords_are_read_as_mujoco_reads_them(case):
    """MuJoCo 4.0.0's reader refuses a dyntype, gaintype, biastype, interp or a limited=
    flag that is none of its words ("invalid keyword"), in an actuator or a default, used
    or not; urdf2dyn loaded them."""
    default, element, words = ACTUATOR_KEYWORDS[case]
    assert_as_mujoco(doc(f"<default>{default}</default>", _ACT_WORLD,
                         actuators(element) if element else ""), words)


@st.composite
def _actuator_number(draw):
    """An actuator (or a default) of a drawn kind with one of its numeric attributes holding
    drawn text: (xml, attribute)."""
    kind = draw(st.sampled_from(sorted(_OWN_NUMBERS)))
    attr = draw(st.sampled_from(sorted({**_COMMON_NUMBERS, **_OWN_NUMBERS[kind]})))
    text = draw(st.text(alphabet=" +-0123456789.eaxnif,", max_size=12) |
                st.lists(st.sampled_from(["0", "1", "0.5", "2"]), max_size=12).map(" ".join))
    element = f'<{kind} {attr}="{text}"'
    if draw(st.booleans()):
        return doc(f"<default>{element}/></default>", _ACT_WORLD), attr
    return doc(_ACT_WORLD, actuators(f"{element} {_kind_and_target(kind)}/>")), attr


@settings(max_examples=300, deadline=None)
@given(_actuator_number())
def test_random_actuator_numbers_refused_exactly_where_mujoco_refuses(drawn):
    """Random text in any actuator kind's numeric attribute, in <actuator> or a <default>:
    where MuJoCo's reader refuses the attribute's numbers urdf2dyn refuses it, naming it;
    where MuJoCo loads the model, urdf2dyn loads it (but for an inf or a NaN among the
    numbers it applies, a gear, damping, armature or range, and a negative armature: those
    it refuses by design, docs/mjcf.rst)."""
    xml, attr = drawn
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    if expected is None:
        assert got is None or "not a finite number" in got or \
            re.search(r"armature -\S+ is negative", got), (xml, got)
    elif f"attribute '{attr}'" in expected:
        assert got is not None and f"{attr}=" in got, (xml, expected, got)


_BLANK_BODY = ('<worldbody><body name="b" {b}><joint name="j" {j}/><geom size="0.1" {g}/>'
               '<site name="s" {s}/><inertial mass="1" pos="0 0 0" diaginertia="1 1 1" {i}/>'
               '</body></worldbody>')
BLANK_NUMBERS = {   # the element (b, j, g, s, i: _BLANK_BODY's), its blank attribute
    "body pos": ("b", "pos"), "body quat": ("b", "quat"), "body euler": ("b", "euler"),
    "joint axis": ("j", "axis"), "joint range": ("j", "range"), "joint damping": ("j", "damping"),
    "joint armature": ("j", "armature"), "geom pos": ("g", "pos"), "geom quat": ("g", "quat"),
    "geom fromto": ("g", "fromto"), "geom friction": ("g", "friction"),
    "site pos": ("s", "pos"), "inertial quat": ("i", "quat"),
    "inertial fullinertia": ("i", "fullinertia"),
}


@pytest.mark.parametrize("case", sorted(BLANK_NUMBERS))
def test_a_blank_number_is_not_given_as_mujoco_reads_it(case):
    """MuJoCo's reader takes a blank numeric attribute as not given (the default or the
    class's value stands), and loads the model: urdf2dyn refused it ("expected 3 numbers, got
    0")."""
    who, attr = BLANK_NUMBERS[case]
    parts = dict.fromkeys("bjgsi", "")
    parts[who] = f'{attr}=" "'
    assert_as_mujoco(doc(_BLANK_BODY.format(**parts)), None)


_BLANK_POSE = ('<mujoco><default><default class="y"><geom quat="0 0 1 1"/>'
               '<default class="x"><geom euler="0 30 0"/></default></default></default>'
               '<worldbody><body name="a" pos="0 0 1" {b}><freejoint/>'
               '<geom class="x" type="box" size=".1 .2 .3" {g}/><body name="c" pos="0 .2 0">'
               '<joint axis="1 0 0"/><geom size=".1"/>'
               '<inertial mass="1" pos="0 0 .1" diaginertia="1 2 3" {i}/></body></body>'
               '</worldbody></mujoco>')
BLANK_ORIENTATIONS = {   # the element (b, g, i: _BLANK_POSE's), its blank orientation
    "body quat": ("b", 'quat=" "'), "body axisangle": ("b", 'axisangle=" "'),
    "body xyaxes": ("b", 'xyaxes=""'), "body zaxis": ("b", 'zaxis=" "'),
    "body blank axisangle beside a quat": ("b", 'axisangle=" " quat="0 1 0 0"'),
    "geom quat over a class's euler": ("g", 'quat=" "'),
    "geom euler over the class's euler": ("g", 'euler=""'),
    "geom blank euler beside a quat": ("g", 'euler=" " quat="1 2 0 0"'),
    "inertial quat": ("i", 'quat=" "'),
}


@pytest.mark.parametrize("case", sorted(BLANK_ORIENTATIONS))
def test_a_blank_orientation_is_read_as_mujoco_reads_it(case):
    """MuJoCo's reader counts a written quat=, a blank one too, as the element's orientation
    (dropping its class's other form, keeping the quaternion the class chain wrote), and
    takes a blank axisangle=, xyaxes=, zaxis= or euler= as not given: urdf2dyn read a blank
    quat as uninitialized numbers, and refused a blank other form."""
    who, written = BLANK_ORIENTATIONS[case]
    parts = dict.fromkeys("bgi", "")
    parts[who] = written
    xml = _BLANK_POSE.format(**parts)
    model, m = oracle.load_quiet(xml), oracle.mujoco_model(xml=xml)
    assert max(oracle.compare(model, m, n=5)) < 1e-12
    np.testing.assert_allclose(interop.to_mujoco_qpos(model, model.default_q), m.qpos0,
                               rtol=0, atol=1e-15)


BLANK_INERTIAL_FORMS = {   # <inertial>'s attributes beside mass and pos, words refused (None: loads)
    "blank fullinertia beside a quat": ('fullinertia=" " quat="0 1 0 0" diaginertia="1 2 3"',
                                        ["fullinertia and quat cannot both be given"]),
    "blank fullinertia beside an euler": ('fullinertia="" euler="0 1 0" diaginertia="1 2 3"',
                                          ["fullinertia and euler cannot both be given"]),
    "blank euler beside an axisangle": ('diaginertia="1 2 3" euler=" " axisangle="1 0 0 30"',
                                        ["axisangle and euler cannot both be given"]),
    "blank diaginertia beside a fullinertia": ('fullinertia="2 2 3 0.1 0 0" diaginertia=" "',
                                               None),
    "blank fullinertia beside a diaginertia": ('fullinertia=" " diaginertia="1 2 3"', None),
}


@pytest.mark.parametrize("case", sorted(BLANK_INERTIAL_FORMS))
def test_blank_inertial_forms_are_read_as_mujoco_reads_them(case):
    """MuJoCo's schema lets an <inertial> write one of fullinertia= and the orientation
    forms, counting a blank one as written; its reader takes a blank diaginertia= beside a
    fullinertia= as not given (and loads the model as with the fullinertia alone)."""
    attrs, words = BLANK_INERTIAL_FORMS[case]
    xml = _BLANK_POSE.format(b="", g="", i="").replace('diaginertia="1 2 3" ', attrs + " ")
    assert_as_mujoco(xml, words)
    if words is None:
        model, m = oracle.load_quiet(xml), oracle.mujoco_model(xml=xml)
        assert max(oracle.compare(model, m, n=5)) < 1e-12


@pytest.mark.parametrize("written", ['pos=" "', 'mass=""'])
def test_a_blank_required_inertial_number_is_missing(written):
    """An <inertial>'s blank pos= or mass= is a missing one to MuJoCo ("required attribute
    missing"): both refuse it."""
    attr = written.split("=")[0]
    body = _BLANK_BODY.format(**dict.fromkeys("bjgsi", ""))
    xml = doc(re.sub(f' {attr}="[^"]*"', f" {written}", body, count=1))
    assert "required attribute missing" in mujoco_error(xml)
    assert_as_mujoco(xml, ["<inertial> needs pos and mass"])


UNIQUE_DEFAULTS = {   # the case: <default>'s content, the kind MuJoCo finds twice (None: loads)
    "two dcmotors": (f"<dcmotor {_DC}/><dcmotor {_DC}/>", "dcmotor"),
    "two pids": ("<pid/><pid/>", "pid"),
    "two motors": ("<motor/><motor/>", "motor"),
    "two generals": ('<general dyntype="filter"/><general/>', "general"),
    "two joints": ("<joint/><joint/>", "joint"),
    "two geoms with a site between": ('<geom/><site/><geom/>', "geom"),
    "two textures": ("<texture/><texture/>", "texture"),
    "two meshes in a nested class": ('<default class="a"><mesh/><mesh/></default>', "mesh"),
    "two lights": ("<light/><light/>", "light"),
    "a general and a motor": ("<general/><motor/>", None),
    "a joint and a nested class's joint": ('<joint/><default class="a"><joint/></default>',
                                           None),
    "two nested classes": ('<default class="a"/><default class="b"/>', None),
}


@pytest.mark.parametrize("case", sorted(UNIQUE_DEFAULTS))
def test_each_kind_once_in_a_default_as_mujoco_schema_has_it(case):
    """MuJoCo 4's schema has each element of a <default> (but a nested <default>) at most
    once ("unique element 'dcmotor' found 2 times"); urdf2dyn loaded two <dcmotor>, the
    last standing."""
    content, twice = UNIQUE_DEFAULTS[case]
    xml = doc(f"<default>{content}</default>", WORLD)
    reason = twice and f"unique element '{twice}' found 2 times"
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, twice and [f"second <{twice}>", "line 1", "nested <default"])


_NO_RT = "DC motor: thermal resistance must be positive"
_NO_CT = "DC motor: thermal capacitance must be positive"
THERMAL = {   # the case: class defaults, the <dcmotor> actuator's thermal=, MuJoCo's reason
    "capacitance only": ("", "0 1", _NO_RT,
                         ["actuator 0", "line 1", "thermal resistance", "thermal="]),
    "resistance only": ("", "1 0", _NO_CT, ["thermal capacitance"]),
    "time constant only": ("", "0 0 1", _NO_RT, ["thermal resistance"]),
    "negative resistance and a time constant": ("", "-1 1 1", _NO_RT, ["resistance"]),
    "resistance and capacitance": ("", "1 1", None, None),
    "resistance and time constant": ("", "2 0 1", None, None),
    "capacitance and time constant": ("", "0 2 1", None, None),
    "all three, capacitance negative": ("", "1 -1 1", None, None),
    "all zero": ("", "0 0 0 1 1 1", None, None),
    "the default's resistance only, unused": (f'<dcmotor {_DC} thermal="1 0"/>', None, _NO_CT,
                                              ["<dcmotor> default", "capacitance"]),
    "a resistance 0 over the class's": (f'<dcmotor {_DC} thermal="1 1"/>', "0", _NO_RT,
                                        ["resistance"]),
    "a resistance 2 over the class's": (f'<dcmotor {_DC} thermal="1 1"/>', "2", None, None),
    "a resistance 0 over the class's, a motor between": (
        f'<dcmotor {_DC} thermal="1 1"/><motor/>', "0", None, None),
    "a capacitance over the class's, a motor between": (
        f'<dcmotor {_DC} thermal="1 1"/><motor/>', "0 1", _NO_RT, ["resistance"]),
}


@pytest.mark.parametrize("case", sorted(THERMAL))
def test_dcmotor_thermal_model_needs_resistance_and_capacitance_as_mujoco_has_it(case):
    """MuJoCo 4.0.0 refuses a <dcmotor> (an actuator or a default) whose thermal="R C
    timeconst" has one of the three above 0 but, the time constant giving C over an R above
    0 (else R of 0 over C), no R or no C above 0 ("thermal resistance must be positive"); a
    <dcmotor> starts from what its class's <dcmotor> stored while the gains stay dcmotor.
    urdf2dyn loaded them."""
    default, thermal, reason, words = THERMAL[case]
    acts = "" if thermal is None else actuators(
        f'<dcmotor joint="j" {_DC} thermal="{thermal}"/>')
    xml = doc(f"<default>{default}</default>", WORLD, acts)
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["", f'<dcmotor {_DC} thermal="1 1"/>', f'<dcmotor {_DC} thermal="2 0 4"/>',
                        f'<dcmotor {_DC} thermal="1 1"/><motor/>']),
       st.lists(st.sampled_from(["0", "1", "2", "-1", "nan"]), min_size=0, max_size=3))
def test_random_dcmotor_thermal_refused_exactly_where_mujoco_refuses(default, numbers):
    """Random thermal resistance, capacitance and time constant on a <dcmotor> actuator,
    over a class's thermal <dcmotor> or not: urdf2dyn refuses them exactly where MuJoCo
    does (for a NaN resistance MuJoCo's state count refuses it: "require actdim 0, got 1")."""
    thermal = f' thermal="{" ".join(numbers)}"' if numbers else ""
    xml = doc(f"<default>{default}</default>", WORLD,
              actuators(f'<dcmotor joint="j" {_DC}{thermal}/>'))
    error = mujoco_error(xml) or ""
    assert ("DC motor: thermal" in error or "require actdim 0, got 1" in error) == \
        (urdf2dyn_error(xml) is not None), (error, urdf2dyn_error(xml))


DCMOTOR_STATES = {   # the case: class defaults, the <dcmotor>'s attributes, its states
    "thermal capacitance and time constant": ("", 'thermal="0 1 1"', 1),
    "thermal resistance and capacitance": ("", 'thermal="1 1"', 1),
    "the class's thermal under a bare dcmotor": (f'<dcmotor {_DC} thermal="1 1"/>', "", 1),
    "the class's thermal, a motor between": (f'<dcmotor {_DC} thermal="1 1"/><motor/>', "",
                                             0),
    "inductance": ("", 'inductance="1"', 1),
    "inductance underflowing to 0 over a large resistance": (
        "", 'inductance="1e-300" motorconst="1" resistance="1e300"', 0),
    "inductance over an infinite resistance": ("", 'inductance="1" resistance="inf"', 0),
    "inductance over a NaN resistance": ("", 'inductance="1" resistance="nan"', 0),
    "a tiny inductance": ("", 'inductance="1e-320"', 1),
    "inductance over a resistance from nominal": ("", 'inductance="1" nominal="12 1 10"', 1),
    "time constant over an infinite resistance": ("", 'inductance="0 1" resistance="inf"', 1),
    # a <dcmotor> inherits its class's <dcmotor> settings only while the gains are dcmotor
    "the class's inductance under a bare dcmotor": (f'<dcmotor {_DC} inductance="1"/>', "",
                                                    1),
    "the class's inductance, a motor between": (
        f'<dcmotor {_DC} inductance="1"/><motor/>', "", 0),
    "the class's lugre, fixed gains between": (
        f'<dcmotor {_DC} lugre="1"/><general gaintype="fixed"/>', "", 0),
    "the class's controller ki, a motor between": (
        f'<dcmotor {_DC} controller="0 1" input="pos"/><motor/>', "", 0),
    "the class's inductance, a general's gear between": (
        f'<dcmotor {_DC} inductance="1"/><general gear="2"/>', "", 1),
    "the class's inductance in a parent class, a motor in the child": (
        f'<dcmotor {_DC} inductance="1"/><default class="c"><motor/></default>', "", 1),
    # an inherited inductance is the electrical time constant the class's <dcmotor> stored
    # (L / its own R), not L over the actuator's resistance
    "the class's inductance over an infinite resistance": (
        f'<dcmotor {_DC} inductance="1"/>', 'resistance="inf"', 1),
    "the class's inductance over a NaN resistance": (
        f'<dcmotor {_DC} inductance="1"/>', 'resistance="nan"', 1),
    "the class's tiny inductance over a large resistance": (
        f'<dcmotor {_DC} inductance="1e-300"/>', 'resistance="1e300"', 1),
    "its own inductance over the class's, an infinite resistance": (
        f'<dcmotor {_DC} inductance="1"/>', 'inductance="1" resistance="inf"', 0),
    # a blank attribute is not given to MuJoCo's reader: the class's stands
    "a blank lugre over the class's lugre": (f'<dcmotor {_DC} lugre="1"/>', 'lugre=""', 1),
    "a lugre of spaces over the class's lugre": (f'<dcmotor {_DC} lugre="1"/>', 'lugre="  "',
                                                 1),
    "a blank inductance over the class's inductance": (
        f'<dcmotor {_DC} inductance="1"/>', 'inductance=""', 1),
    "a lugre of 0 over the class's lugre": (f'<dcmotor {_DC} lugre="1"/>', 'lugre="0"', 0),
}


@pytest.mark.parametrize("case", sorted(DCMOTOR_STATES))
def test_dcmotor_states_counted_as_mujoco_counts_them(case):
    """A <dcmotor> keeps a current state for an electrical time constant above 0 (L / R,
    0 when it underflows or R is infinite or NaN) and a temperature state for a thermal
    model (any of its resistance, capacitance and time constant above 0, over its class's
    while the gains stay dcmotor), as MuJoCo 4.0.0's actuator_actnum has them: a key's act
    of one more is refused, of that many loaded. urdf2dyn counted the thermal state from
    thermal's first number alone and an inductance as a state whatever R."""
    default, attrs, states = DCMOTOR_STATES[case]
    if "nominal" not in attrs:
        attrs += "" if "motorconst" in attrs else ' motorconst="1"'
        attrs += "" if "resistance" in attrs else ' resistance="1"'
    act = f'<dcmotor joint="j" {attrs}/>'
    for n, words in ((states, None), (states + 1, ["act", f"model has {states}"])):
        key = keys('act="' + " ".join(["0"] * n) + '"') if n else ""
        xml = doc(f"<default>{default}</default>", WORLD, actuators(act), key)
        assert mujoco.MjModel.from_xml_string(xml.replace(key, "")).na == states
        assert_as_mujoco(xml, words)


_DRAWN_DC_NUMBERS = st.lists(st.sampled_from(["0", "1", "2", "-1", "nan", "1e-300", "inf"]),
                             max_size=3)


_DRAWN_DC_ATTRIBUTE = st.none() | _DRAWN_DC_NUMBERS     # None: not written; []: blank


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["", f'<dcmotor {_DC} thermal="1 1" inductance="0 1"/>',
                        f'<dcmotor {_DC} thermal="1 1"/><motor/>',
                        f'<dcmotor {_DC} inductance="1" lugre="1"/>']),
       _DRAWN_DC_ATTRIBUTE, _DRAWN_DC_ATTRIBUTE, _DRAWN_DC_ATTRIBUTE,
       st.sampled_from(["1", "1e300", "inf", "nan"]), st.integers(0, 3))
def test_random_dcmotor_states_refused_exactly_where_mujoco_refuses(default, thermal,
                                                                     inductance, lugre,
                                                                     resistance, n):
    """Random thermal=, inductance=, lugre= (blank too) and resistance= on a <dcmotor>
    actuator, under a class's stateful <dcmotor> or not, and a key's act of n numbers:
    urdf2dyn refuses the model exactly where MuJoCo does (too many act numbers for its
    states, a thermal model or an inductance it refuses)."""
    attrs = "".join(f' {name}="{" ".join(v)}"' for name, v in
                    (("thermal", thermal), ("inductance", inductance), ("lugre", lugre))
                    if v is not None)
    key = keys('act="' + " ".join(["0"] * n) + '"') if n else ""
    xml = doc(f"<default>{default}</default>", WORLD,
              actuators(f'<dcmotor joint="j" motorconst="1" resistance="{resistance}"{attrs}/>'),
              key)
    assert (mujoco_error(xml) is None) == (urdf2dyn_error(xml) is None), \
        (mujoco_error(xml), urdf2dyn_error(xml))


_NO_INPUT = "dcmotor controller gains require a controller input [pos, vel, ff]"
CONTROLLER = {   # the case: class defaults, the actuator, MuJoCo's reason
    "kp without input": ("", f'<dcmotor joint="j" {_DC} controller="1"/>', _NO_INPUT,
                         ["actuator 0", "line 1", 'controller="1"', 'input="voltage"',
                          'input="pos vel"']),
    "kp, input voltage": ("", f'<dcmotor joint="j" {_DC} controller="1" input="voltage"/>',
                          _NO_INPUT, ['input="voltage"']),
    "kp, input none": ("", f'<dcmotor joint="j" {_DC} controller="1" input="none"/>',
                       _NO_INPUT, ['input="none"']),
    "kp, input blank": ("", f'<dcmotor joint="j" {_DC} controller="1" input=""/>', _NO_INPUT,
                        ["controller="]),
    "negative kp without input": ("", f'<dcmotor joint="j" {_DC} controller="-1"/>',
                                  _NO_INPUT, ["controller="]),
    "kd NaN without input": ("", f'<dcmotor joint="j" {_DC} controller="0 0 nan"/>',
                             _NO_INPUT, ["controller="]),
    "slewmax without input": ("", f'<dcmotor joint="j" {_DC} controller="0 0 0 1"/>',
                              "dcmotor slew rate limiting requires a controller input",
                              ["slew rate"]),
    "ki with vel and ff": ("", f'<dcmotor joint="j" {_DC} controller="0 1" input="vel ff"/>',
                           "dcmotor integral gain requires the pos input", ["pos input"]),
    "kp with ff and voltage": (
        "", f'<dcmotor joint="j" {_DC} controller="1" input="ff voltage"/>', None, None),
    "ki with pos": ("", f'<dcmotor joint="j" {_DC} controller="0 1" input="pos"/>', None,
                    None),
    "imax and vmax without input": (
        "", f'<dcmotor joint="j" {_DC} controller="0 0 0 0 1 1"/>', None, None),
    "input from the class": (f'<dcmotor {_DC} input="pos"/>',
                             '<dcmotor joint="j" controller="1"/>', None, None),
    "input from the class, a motor between": (
        f'<dcmotor {_DC} input="pos"/><motor/>', f'<dcmotor joint="j" {_DC} controller="1"/>',
        _NO_INPUT, ["controller="]),
    "a general's voltage input under a class's controller": (
        f'<dcmotor {_DC} controller="1" input="pos"/>', '<general joint="j" input="voltage"/>',
        _NO_INPUT, ["controller="]),
    "a general under a class's controller": (
        f'<dcmotor {_DC} controller="1" input="pos"/>', '<general joint="j"/>', None, None),
    "an unused default's kp without input": (f'<dcmotor {_DC} controller="1"/>', "", None,
                                             None),
}


@pytest.mark.parametrize("case", sorted(CONTROLLER))
def test_dcmotor_controller_needs_its_inputs_as_mujoco_has_it(case):
    """MuJoCo 4.0.0 compiles an actuator of dcmotor gains only if its controller's kp, ki
    and kd (a NaN is nonzero) and slewmax come with a pos, vel or ff input, and a ki above 0
    with pos (input= its own or its class's <dcmotor>'s, the voltage alone when not given);
    urdf2dyn loaded them."""
    default, element, reason, words = CONTROLLER[case]
    acts = actuators(element) if element else ""
    xml = doc(f"<default>{default}</default>", WORLD, acts)
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["0", "1", "-1", "nan"]), max_size=4),
       st.sampled_from([None, "", "none", "pos", "vel", "ff", "voltage", "pos vel",
                        "vel ff voltage", "pos ff"]))
def test_random_dcmotor_controller_refused_exactly_where_mujoco_refuses(controller, inputs):
    """Random controller kp, ki, kd and slewmax and an input= of a <dcmotor>: urdf2dyn
    refuses them exactly where MuJoCo does."""
    attrs = f' controller="{" ".join(controller)}"' if controller else ""
    attrs += "" if inputs is None else f' input="{inputs}"'
    xml = doc(WORLD, actuators(f'<dcmotor joint="j" {_DC}{attrs}/>'))
    assert (mujoco_error(xml) is None) == (urdf2dyn_error(xml) is None), \
        (mujoco_error(xml), urdf2dyn_error(xml))


_PID_MATCH = "pid controller states require matching actdim"
_STATEFUL_0 = "invalid actdim 0 in stateful actuator"
PID_STATES = {   # the case: class defaults, the actuator, its states, MuJoCo's reason
    "ki": ("", '<pid joint="j" ki="1"/>', 1, None),
    "slewmax": ("", '<pid joint="j" slewmax="1"/>', 1, None),
    "ki and slewmax": ("", '<pid joint="j" ki="1" slewmax="1"/>', 2, None),
    "negative ki and a slewmax": ("", '<pid joint="j" ki="-1" slewmax="1"/>', 1, None),
    "ki and a NaN slewmax": ("", '<pid joint="j" ki="1" slewmax="nan"/>', 1, None),
    "negative ki": ("", '<pid joint="j" ki="-1"/>', 0, _STATEFUL_0),
    "NaN ki": ("", '<pid joint="j" ki="nan"/>', 0, _STATEFUL_0),
    "kp only": ("", '<pid joint="j" kp="1"/>', 0, None),
    "a general under a pid ki": ('<pid ki="1"/>', '<general joint="j"/>', 1, None),
    "a general of actdim 0 under a pid ki": ('<pid ki="1"/>', '<general joint="j" actdim="0"/>',
                                             1, None),
    "a general of actdim 2 under a pid ki": ('<pid ki="1"/>', '<general joint="j" actdim="2"/>',
                                             1, _PID_MATCH),
    "a general of actdim 1 under a pid ki and slewmax": (
        '<pid ki="1" slewmax="2"/>', '<general joint="j" actdim="1"/>', 2, _PID_MATCH),
    "a child's pid kp under a pid ki": ('<pid ki="1"/><default class="c"><pid kp="2"/></default>',
                                        '<pid joint="j" class="c"/>', 1, None),
    # a blank number is not given to MuJoCo's reader: the class's stands
    "a blank ki over the class's ki": ('<pid ki="1"/>', '<pid joint="j" ki=""/>', 1, None),
    "a slewmax of spaces over the class's slewmax": (
        '<pid slewmax="1"/>', '<pid joint="j" slewmax="  "/>', 1, None),
}


@pytest.mark.parametrize("case", sorted(PID_STATES))
def test_pid_states_counted_as_mujoco_counts_them(case):
    """A pid dyntype keeps one state each for a ki and a slewmax above 0, as MuJoCo 4.0.0's
    actuator_actnum has them: a key's act of one more is refused, of that many loaded; an
    actdim above 0 that is not that many is refused, and so is a pid dyntype of no state.
    urdf2dyn left a pid dyntype's act uncounted (a key's act was not checked) and loaded
    these actdims."""
    default, element, states, reason = PID_STATES[case]
    plain = doc(f"<default>{default}</default>", WORLD, actuators(element))
    if reason:
        assert reason in (mujoco_error(plain) or ""), mujoco_error(plain)
        assert_as_mujoco(plain, ["actuator 0", "line 1", "ki="])
        return
    assert mujoco.MjModel.from_xml_string(plain).na == states
    for n, words in ((states, None), (states + 1, ["act", f"model has {states}"])):
        key = keys('act="' + " ".join(["0"] * n) + '"') if n else ""
        assert_as_mujoco(plain.replace("</mujoco>", key + "</mujoco>"), words)


_NO_K = "DC motor: motor constant K must be positive"
_NO_R = "DC motor: resistance R must be positive"
DCMOTOR_CONSTANTS = {   # the case: its defaults, its <dcmotor> attributes, MuJoCo's reason
    "nothing": ("", "", _NO_K, ["<dcmotor>", "line 1", "motorconst=", "nominal="]),
    "resistance only": ("", 'resistance="1"', _NO_K, ["motorconst="]),
    "motorconst only": ("", 'motorconst="1"', _NO_R, ["resistance="]),
    "motorconst 0": ("", 'motorconst="0" resistance="1"', _NO_K, ["motorconst="]),
    "motorconst 0 0": ("", 'motorconst="0 0" resistance="1"', _NO_K, ["motorconst="]),
    "negative motorconst": ("", 'motorconst="-1" resistance="1"',
                            "DC motor: motor constants must be non-negative",
                            ["motorconst=", "negative"]),
    "resistance 0": ("", 'motorconst="1" resistance="0"', _NO_R, ["resistance="]),
    "negative resistance": ("", 'motorconst="1" resistance="-1"', _NO_R, ["resistance="]),
    "motorconst 0 1": ("", 'motorconst="0 1" resistance="1"', None, None),
    "both": ("", 'motorconst="1" resistance="1"', None, None),
    "nominal gives both": ("", 'nominal="12 1 100"', None, None),
    "nominal and resistance": ("", 'resistance="2" nominal="12 0 100"', None, None),
    "both from the class": ('<dcmotor motorconst="1" resistance="1"/>', "", None, None),
    "the class's default lacks resistance": ('<dcmotor motorconst="1"/>', 'resistance="1"',
                                             _NO_R, ["resistance="]),
    "unused default without motorconst": ('<dcmotor resistance="1"/>', None, _NO_K,
                                          ["<dcmotor>", "motorconst="]),
    "unused child default inheriting both": (
        '<dcmotor motorconst="1" resistance="1"/><default class="c"><dcmotor inductance="1"/>'
        "</default>", None, None, None),
    # MuJoCo's <dcmotor> inherits its constants from the gains a <general> of gaintype
    # dcmotor wrote, and not from fixed gains
    "both from the class's <general> of dcmotor gains": (
        '<general gaintype="dcmotor" gainprm="1 1"/>', "", None, None),
    "resistance from the class's <general> of dcmotor gains": (
        '<general gaintype="dcmotor" gainprm="0 1"/>', 'resistance="2"', None, None),
    "nothing from the class's <general> of fixed gains": (
        '<general gainprm="1 1"/>', "", _NO_K, ["motorconst="]),
    # MuJoCo takes K from the torque constant when it is above 0, else the back-EMF one, and
    # refuses a K or R of 0 or less (a NaN is neither); a nominal= derives K from its
    # voltage and no-load speed, R from its voltage and stall torque, a saturation= neither
    "resistance NaN": ("", 'motorconst="1" resistance="nan"', None, None),
    "torque constant NaN, back-EMF 1": ("", 'motorconst="nan 1" resistance="1"', None, None),
    "torque constant NaN alone": ("", 'motorconst="nan" resistance="1"', _NO_K,
                                  ["motorconst="]),
    "saturation without resistance": ("", 'motorconst="1" saturation="1 2 3"', _NO_R,
                                      ["resistance="]),
    "nominal without stall torque or resistance": ("", 'nominal="12 0 10"', _NO_R,
                                                   ["resistance="]),
    "nominal without voltage": ("", 'nominal="0 1 10"', _NO_K, ["motorconst=", "nominal="]),
    "nominal without no-load speed": ("", 'resistance="1" nominal="12 1 0"', _NO_K,
                                      ["motorconst="]),
    "nominal stall torque and motorconst": ("", 'motorconst="1" nominal="12 1 0"', None,
                                            None),
    # a passive DC motor (input="none") may have no motor constant
    "resistance only, input none": ("", 'resistance="1" input="none"', None, None),
    "resistance and an inductance, input none": (
        "", 'resistance="1" inductance="1" input="none"', None, None),
    "unused default of resistance only, input none": ('<dcmotor resistance="1" input="none"/>',
                                                      None, None, None),
    "resistance and input none from the class": ('<dcmotor resistance="1" input="none"/>', "",
                                                 None, None),
    "the class's resistance and input none, its own input pos": (
        '<dcmotor resistance="1" input="none"/>', 'input="pos"', _NO_K, ["motorconst="]),
    "input none, no resistance": ("", 'motorconst="0" input="none"', _NO_R, ["resistance="]),
    "input none, negative motorconst": ("", 'motorconst="-1" resistance="1" input="none"',
                                        "DC motor: motor constants must be non-negative",
                                        ["negative"]),
    "negative inductance": ("", 'motorconst="1" resistance="1" inductance="-1"',
                            "DC motor: inductance must be non-negative",
                            ["inductance=", "negative"]),
    "negative electrical time constant": (
        "", 'motorconst="1" resistance="1" inductance="0 -1"',
        "DC motor: electrical time constant must be non-negative", ["electrical time"]),
    "motorconst from the class, a motor between": (
        '<dcmotor motorconst="1" resistance="1"/><motor/>', "", _NO_K, ["motorconst="]),
    "motorconst from the class, a general's gear between": (
        '<dcmotor motorconst="1" resistance="1"/><general gear="2"/>', "", None, None),
    "unused child default inheriting motorconst alone": (
        '<dcmotor motorconst="1"/><default class="c"><dcmotor inductance="1"/></default>',
        None, _NO_R, ["resistance="]),
}


@pytest.mark.parametrize("case", sorted(DCMOTOR_CONSTANTS))
def test_dcmotor_needs_its_constants_as_mujoco_has_it(case):
    """MuJoCo 4.0.0 refuses a <dcmotor>, an actuator or a default (used or not), whose
    motor constant or resistance, written or inherited from its class's <dcmotor>, is not
    positive and that has no nominal= (or saturation=) to derive them from; urdf2dyn
    loaded them."""
    default, attrs, reason, words = DCMOTOR_CONSTANTS[case]
    acts = "" if attrs is None else actuators(f'<dcmotor joint="j" {attrs}/>')
    xml = doc(f"<default>{default}</default>", WORLD, acts)
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


# a <dcmotor> read where the gains are not dcmotor inherits from the nearest class above whose
# gains stayed dcmotor (MuJoCo 4.0.0): the class's defaults, the actuator, its states or None
# where MuJoCo refuses it, urdf2dyn's words then
_DC_ABOVE = {
    "a motor in the child class": (
        '<dcmotor motorconst="1" resistance="1"/><default class="a"><motor/></default>',
        '<dcmotor joint="j" class="a"/>', 0, None),
    "a motor, then a position two classes down": (
        '<dcmotor motorconst="1" resistance="1" inductance="1"/><default class="a"><motor/>'
        '<default class="b"><position/></default></default>',
        '<dcmotor joint="j" class="b"/>', 1, None),
    "the child's own dcmotor cut, the parent's kept": (
        '<dcmotor motorconst="1" resistance="1"/><default class="a">'
        '<dcmotor resistance="2" inductance="1"/><motor/></default>',
        '<dcmotor joint="j" class="a"/>', 0, None),
    "the parent's thermal model": (
        '<dcmotor motorconst="1" resistance="1" thermal="1 1"/><default class="a"><motor/>'
        "</default>", '<dcmotor joint="j" class="a"/>', 1, None),
    "a grandchild's default dcmotor, unused": (
        '<dcmotor motorconst="1" resistance="1"/><default class="a"><motor/>'
        '<default class="b"><dcmotor inductance="1"/></default></default>', "", 0, None),
    "cut in the parent class itself": (
        '<dcmotor motorconst="1" resistance="1"/><motor/><default class="a"><position/>'
        "</default>", '<dcmotor joint="j" class="a"/>', None, ["motorconst="]),
    "the parent's ki wants the pos input": (
        '<dcmotor motorconst="1" resistance="1" controller="0 1" input="pos"/>'
        '<default class="a"><motor/></default>', '<dcmotor joint="j" class="a" input="vel"/>',
        None, ["integral gain requires the pos input"]),
}


@pytest.mark.parametrize("case", sorted(_DC_ABOVE))
def test_dcmotor_inherits_from_the_nearest_class_whose_gains_stayed_dcmotor(case):
    """A <dcmotor>, an actuator or a default, read where a <motor>, <position> or fixed
    gains cut its class's DC motor off, takes the constants and settings of the nearest
    class above whose gains stayed dcmotor, as MuJoCo 4.0.0 reads it (its act counted so);
    urdf2dyn forgot them and refused these models for want of a motor constant."""
    default, act, states, words = _DC_ABOVE[case]
    xml = doc(f"<default>{default}</default>", WORLD, actuators(act) if act else "")
    if states is not None:
        assert mujoco.MjModel.from_xml_string(xml).na == states
        xml = doc(f"<default>{default}</default>", WORLD, actuators(act) if act else "",
                  keys('act="' + " ".join(["0"] * (states + 1)) + '"'))
        words = ["act", f"model has {states}"]
    assert_as_mujoco(xml, words)


# a <pid> inherits ki and slewmax (gainprm[0], dynprm[1]) only while the gains are pid, else
# from the nearest class above whose gains stayed pid (MuJoCo 4.0.0): the class's defaults,
# the actuator, its states, whether urdf2dyn tracks them (a <general>'s gains it does not)
_PID_ABOVE = {
    "a motor after the pid": ('<pid ki="1"/><motor/>', '<pid joint="j" kp="1"/>', 0, True),
    "fixed gains after the pid": ('<pid ki="1"/><general gaintype="fixed"/>',
                                  '<pid joint="j" kp="1"/>', 0, True),
    "a motor in the child class": ('<pid ki="1"/><default class="a"><motor/></default>',
                                   '<pid joint="j" kp="1" class="a"/>', 1, True),
    "a dyntype none between": ('<pid ki="1"/><general dyntype="none"/>',
                               '<pid joint="j" kp="1"/>', 1, True),
    "a general's pid gains, ki from its gainprm": ('<general gaintype="pid"/>',
                                                   '<pid joint="j" kp="1"/>', 1, False),
    "a general's pid gains, slewmax from its dynprm": (
        '<general gaintype="pid" dynprm="1 2"/>', '<pid joint="j" ki="nan"/>', 1, False),
}


@pytest.mark.parametrize("case", sorted(_PID_ABOVE))
def test_pid_inherits_ki_and_slewmax_only_from_pid_gains(case):
    """A <pid> takes an earlier <pid>'s ki and slewmax only while the gains stay pid (else
    from the nearest class above whose gains did), and a <general>'s gainprm and dynprm once
    it set pid gains, as MuJoCo 4.0.0 reads it: a key's act of its states loads, of one more
    is refused where urdf2dyn tracks them. urdf2dyn kept a <pid>'s ki across a <motor> and
    refused what a <general>'s pid gains left as "a pid dyntype that keeps no state"."""
    default, act, states, tracked = _PID_ABOVE[case]
    assert mujoco.MjModel.from_xml_string(
        doc(f"<default>{default}</default>", WORLD, actuators(act))).na == states
    for n in (states, states + 1) if tracked else (states,):
        xml = doc(f"<default>{default}</default>", WORLD, actuators(act),
                  keys('act="' + " ".join(["0"] * n) + '"'))
        assert_as_mujoco(xml, None if n == states else ["act", f"model has {states}"])


# a <dcmotor>'s controller= of fewer than six numbers overwrites those it gives, the rest
# (its class's) kept: the class's defaults, the actuator, its states or None, words then
_DC_CONTROLLER_OVER = {
    "the class's ki under a kp": (
        f'<dcmotor {_DC} controller="0 1" input="pos"/>', '<dcmotor joint="j" controller="2"/>',
        1, None),
    "the class's slewmax under a kp": (
        f'<dcmotor {_DC} controller="0 0 0 1" input="pos"/>',
        '<dcmotor joint="j" controller="2"/>', 1, None),
    "the class's ki over its own ki of 0": (
        f'<dcmotor {_DC} controller="0 1" input="pos"/>',
        '<dcmotor joint="j" controller="0 0"/>', 0, None),
    "the class's ki, its own kp, input vel": (
        f'<dcmotor {_DC} controller="0 1" input="pos"/>',
        '<dcmotor joint="j" controller="2" input="vel"/>', None,
        ["integral gain requires the pos input", "ki 1"]),
}


@pytest.mark.parametrize("case", sorted(_DC_CONTROLLER_OVER))
def test_dcmotor_controller_numbers_overwrite_only_those_given(case):
    """A <dcmotor>'s controller="kp ki kd slewmax ..." of fewer numbers than its class's
    keeps the class's others, as MuJoCo 4.0.0 reads it (its states and the inputs its gains
    want counted so); urdf2dyn took the shorter one as the whole, ki and slewmax 0."""
    default, act, states, words = _DC_CONTROLLER_OVER[case]
    xml = doc(f"<default>{default}</default>", WORLD, actuators(act))
    if states is not None:
        assert mujoco.MjModel.from_xml_string(xml).na == states
        xml = doc(f"<default>{default}</default>", WORLD, actuators(act),
                  keys('act="' + " ".join(["0"] * (states + 1)) + '"'))
        words = ["act", f"model has {states}"]
    assert_as_mujoco(xml, words)


# a <dcmotor> inherits the K and R its class's <dcmotor> stored, nominal= resolved, and
# not that nominal=: the class's defaults, the actuator's attributes, MuJoCo's reason, words
_DC_NOMINAL_ABOVE = {
    "the class's R from its nominal, its own nominal without a stall torque": (
        '<dcmotor nominal="12 1 100"/>', 'nominal="12 0 100"', None, None),
    "the class's K from its nominal, its own nominal without a voltage": (
        '<dcmotor nominal="12 1 100"/>', 'nominal="0 1 100"', None, None),
    "the class's R from its nominal, its own resistance 0": (
        '<dcmotor nominal="12 1 100"/>', 'resistance="0"', _NO_R, ["resistance="]),
    "the class's K from its nominal, its own motorconst 0": (
        '<dcmotor nominal="12 1 100"/>', 'motorconst="0"', _NO_K, ["motorconst="]),
    "a child default's nominal without a stall torque, unused": (
        '<dcmotor nominal="12 1 100"/><default class="c"><dcmotor nominal="12 0 100"/>'
        "</default>", None, None, None),
}


@pytest.mark.parametrize("case", sorted(_DC_NOMINAL_ABOVE))
def test_dcmotor_inherits_the_constants_its_class_derived_from_nominal(case):
    """A <dcmotor> starts from the motor constant and resistance its class's <dcmotor>
    stored (derived from that one's nominal=), its own nominal= read over 0, as MuJoCo
    4.0.0 reads it; urdf2dyn inherited the class's nominal= as text, which the actuator's
    own nominal= replaced, and refused the model for want of a resistance or constant."""
    default, attrs, reason, words = _DC_NOMINAL_ABOVE[case]
    acts = "" if attrs is None else actuators(f'<dcmotor joint="j" {attrs}/>')
    xml = doc(f"<default>{default}</default>", WORLD, acts)
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


_FLAT = '<asset><texture name="t" type="2d" builtin="flat" width="2" height="2"/></asset>'
DEFAULT_MATERIAL_LAYERS = {   # the <default>'s content; urdf2dyn's words, None where both load
    "a layer": ('<material><layer role="rgb" texture="t"/></material>', None),
    "three layers in a class (MuJoCo's test/render/testdata/pbr.xml)": (
        '<default class="m"><material><layer role="rgb" texture="t"/>'
        '<layer role="metallic" texture="t"/><layer role="roughness" texture="t"/>'
        "</material></default>", None),
    "another element": ('<material><foo/></material>', ["<foo>", "<material>", "line 1"]),
    "a layer, then another element": ('<material><layer role="rgb" texture="t"/><foo/>'
                                      "</material>", ["<foo>", "<material>"]),
    "an element in a layer": ('<material><layer role="rgb" texture="t"><foo/></layer>'
                              "</material>", ["<foo>", "<layer>"]),
    "a layer in a geom": ("<geom><layer/></geom>", ["<layer>", "<geom>"]),
}


@pytest.mark.parametrize("case", sorted(DEFAULT_MATERIAL_LAYERS))
def test_a_default_material_holds_layers_as_mujoco_s_schema_has_it(case):
    """MuJoCo 4's schema has <layer> elements in a <default>'s <material> (MuJoCo's own
    test/render/testdata/pbr.xml has them) and no other element inside a default's
    elements; urdf2dyn refused the layers as it refuses the others."""
    default, words = DEFAULT_MATERIAL_LAYERS[case]
    assert_as_mujoco(doc(f"<default>{default}</default>", _FLAT, WORLD), words)


SHORTCUT_SETTINGS = {   # the <default>'s content, the actuator; urdf2dyn's words, None: loads
    "pid slewmax -1": ("", '<pid joint="j" slewmax="-1"/>',
                       ["<pid", "slewmax=", "line 1", "0 or more"]),
    "an unused default's pid slewmax -1": ('<default class="c"><pid slewmax="-1"/></default>',
                                           "", ["<pid", "slewmax="]),
    "pid slewmax 0": ("", '<pid joint="j" slewmax="0"/>', None),
    "dcmotor inputs out of order": ("", f'<dcmotor joint="j" {_DC} input="vel pos"/>',
                                    ["input=", "canonical order", "pos vel"]),
    "dcmotor input repeated": ("", f'<dcmotor joint="j" {_DC} input="pos pos"/>',
                               ["input=", "duplicate keyword"]),
    "dcmotor input unknown": ("", f'<dcmotor joint="j" {_DC} input="POS"/>',
                              ["input=", "invalid keyword"]),
    "dcmotor input none with pos": ("", f'<dcmotor joint="j" {_DC} input="none pos"/>',
                                    ["input=", "invalid keyword"]),
    "an unused default's dcmotor input out of order": (
        f'<default class="c"><dcmotor {_DC} input="ff vel"/></default>', "",
        ["input=", "canonical order"]),
    "dcmotor input pressure": ("", f'<dcmotor joint="j" {_DC} input="pos pressure"/>',
                               ["input=", "pressure", "subset of [pos, vel, ff, voltage]"]),
    "dcmotor input pos vel ff voltage": (
        "", f'<dcmotor joint="j" {_DC} input="pos vel ff voltage"/>', None),
    "dcmotor input blank": ("", f'<dcmotor joint="j" {_DC} input=" "/>', None),
    "pid input none": ("", '<pid joint="j" kp="1" input="none"/>',
                       ["input=", "subset of [pos, vel, ff]"]),
    "pid input voltage": ("", '<pid joint="j" kp="1" input="pos voltage"/>',
                          ["input=", "subset of [pos, vel, ff]"]),
    "pid input vel ff": ("", '<pid joint="j" kp="1" input="vel ff"/>', None),
    "pid input out of order": ("", '<pid joint="j" kp="1" input="ff pos"/>',
                               ["input=", "canonical order"]),
}


_RANGED = '<body name="r"><joint name="k" range="-1 1"/><geom size="0.1"/></body>'
SIGNED_SETTINGS = {   # the <default>'s content, the actuator; urdf2dyn's words, None: loads
    "position kv -1": ("", '<position joint="j" kv="-1"/>',
                       ["<position", "kv=", "line 1", "kv cannot be negative", "0 or more"]),
    "position kv -0": ("", '<position joint="j" kv="-0"/>', None),
    "position kv NaN": ("", '<position joint="j" kv="nan"/>', None),
    "position kv -inf": ("", '<position joint="j" kv="-inf"/>', ["kv="]),
    "position dampratio -1e-300": ("", '<position joint="j" dampratio="-1e-300"/>',
                                   ["dampratio=", "dampratio cannot be negative"]),
    "position timeconst -1": ("", '<position joint="j" timeconst="-1"/>',
                              ["timeconst=", "timeconst cannot be negative"]),
    "intvelocity kv -1": ("", '<intvelocity joint="j" kv="-1"/>', ["<intvelocity", "kv="]),
    "intvelocity dampratio -1": ("", '<intvelocity joint="j" dampratio="-1"/>',
                                 ["dampratio="]),
    "pid kv -1": ("", '<pid joint="j" kv="-1"/>', ["<pid", "kv="]),
    "pid dampratio -1": ("", '<pid joint="j" dampratio="-1"/>', ["<pid", "dampratio="]),
    "muscle tausmooth -1": ("", '<muscle joint="j" tausmooth="-1"/>',
                            ["<muscle", "tausmooth=", "muscle tausmooth cannot be negative"]),
    "damper kv -1": ("", '<damper joint="j" kv="-1" ctrlrange="0 1"/>',
                     ["<damper", "kv=", "damping coefficient cannot be negative"]),
    "adhesion gain -1": ("", '<adhesion body="b" gain="-1" ctrlrange="0 1"/>',
                         ["<adhesion", "gain=", "adhesion gain cannot be negative"]),
    "damper kv 1": ("", '<damper joint="j" kv="1" ctrlrange="0 1"/>', None),
    "an unused default's position kv -1": ('<default class="c"><position kv="-1"/></default>',
                                           "", ["<position", "kv="]),
    "an unused default's damper kv -1": ('<damper kv="-1"/>', "", ["<damper", "kv="]),
    "an unused default's adhesion gain -1": ('<adhesion gain="-1"/>', "", ["gain="]),
    "position kv and dampratio": ("", '<position joint="j" kv="1" dampratio="1"/>',
                                  ["<position", "kv and dampratio cannot both be defined"]),
    "pid kv and dampratio": ("", '<pid joint="j" kv="0" dampratio="0"/>',
                             ["<pid", "kv and dampratio"]),
    "an unused default's intvelocity kv and dampratio": (
        '<intvelocity kv="1" dampratio="1"/>', "", ["<intvelocity", "kv and dampratio"]),
    "position kv blank, a dampratio": ("", '<position joint="j" kv="" dampratio="1"/>',
                                       None),
    "pid kv, dampratio blank": ("", '<pid joint="j" kv="1" dampratio=" "/>', None),
    "the class's kv, the actuator's dampratio": (
        '<position kv="1"/>', '<position joint="j" dampratio="1"/>', None),
    # imax bounds a ki's integral: MuJoCo's compiler refuses a negative one on an actuator
    # of pid dynamics whose <pid> stored it (a nonzero ki)
    "pid ki imax -1": ("", '<pid joint="j" ki="1" imax="-1"/>',
                       ["actuator 0", "imax=", "imax (dynprm[0]) must be non-negative"]),
    "pid ki imax -inf": ("", '<pid joint="j" ki="1" imax="-inf"/>', ["imax="]),
    "pid ki imax NaN": ("", '<pid joint="j" ki="1" slewmax="1" imax="nan"/>', None),
    "pid imax -1 without ki": ("", '<pid joint="j" imax="-1"/>', None),
    "pid imax -1, a slewmax": ("", '<pid joint="j" slewmax="1" imax="-1"/>', None),
    "the class's ki and imax -1": ('<pid ki="1" imax="-1"/>', '<pid joint="j"/>',
                                   ["imax="]),
    "an unused default's ki and imax -1": ('<pid ki="1" imax="-1"/>', "", None),
    "the class's imax -1 over its own": ('<pid ki="1" imax="-1"/>', '<pid joint="j" imax="1"/>',
                                         None),
    "the class's imax -1 without ki, its own ki": ('<pid imax="-1"/>', '<pid joint="j" ki="1"/>',
                                                   None),
    "the class's imax -1 with a slewmax, its own ki": (
        '<pid slewmax="1" imax="-1"/>', '<pid joint="j" ki="1"/>', None),
    "the class's ki and imax -1, its own ki 0 and slewmax": (
        '<pid ki="1" imax="-1"/>', '<pid joint="j" ki="0" slewmax="1"/>', None),
    "the parent class's ki and imax -1, a motor in the child": (
        '<pid ki="1" imax="-1"/><default class="c"><motor/></default>',
        '<pid joint="j" class="c"/>', ["imax="]),
    "the parent class's imax -1, the child's imax 1": (
        '<pid ki="1" imax="-1"/><default class="c"><pid imax="1"/></default>',
        '<pid joint="j" class="c"/>', None),
    "a blank imax over the class's imax -1": ('<pid ki="1" imax="-1"/>',
                                              '<pid joint="j" imax=""/>', ["imax="]),
    "a general of the class's ki and imax -1": ('<pid ki="1" imax="-1"/>',
                                                '<general joint="j"/>', ["imax"]),
}


@pytest.mark.parametrize("case", sorted(SIGNED_SETTINGS))
def test_shortcut_settings_below_0_refused_as_mujoco_refuses_them(case):
    """MuJoCo 4.0.0's shortcuts refuse a kv, a dampratio below 0 (a <position>'s,
    <intvelocity>'s or <pid>'s), both given, a <position>'s timeconst, a <muscle>'s
    tausmooth, a <damper>'s kv and an <adhesion>'s gain below 0 (an actuator or a default,
    used or not; -0 and NaN are not below 0), and its compiler a pid dynamics' imax below 0
    (stored by a <pid> of nonzero ki, here or in its class); urdf2dyn loaded them."""
    default, act, words = SIGNED_SETTINGS[case]
    assert_as_mujoco(doc(f"<default>{default}</default>",
                         f"<worldbody>{BODY}{_RANGED}</worldbody>",
                         actuators(act) if act else ""), words)


_BOTH_DEFINED = "and inheritrange cannot both be defined"
INHERITRANGE_ALONE = {   # the <default>'s content, the actuator; urdf2dyn's words
    "position ctrlrange": ("", '<position joint="k" inheritrange="1" ctrlrange="0 1"/>',
                           ["<position", "inheritrange=", "ctrlrange=", _BOTH_DEFINED]),
    "position ctrlrange, a tiny inheritrange": (
        "", '<position joint="k" inheritrange="1e-300" ctrlrange="-1 0"/>', ["ctrlrange="]),
    "intvelocity actrange": ("", '<intvelocity joint="k" inheritrange="1" actrange="0 1"/>',
                             ["<intvelocity", "actrange="]),
    "intvelocity NaN actrange": ("", '<intvelocity joint="k" inheritrange="2" '
                                     'actrange="nan nan"/>', ["actrange="]),
    "pid posrange": ("", '<pid joint="k" inheritrange="1" posrange="0 1"/>',
                     ["<pid", "posrange and inheritrange"]),
    "pid ctrlrange": ("", '<pid joint="k" inheritrange="1" ctrlrange="0 1"/>',
                      ["<pid", "ctrlrange="]),
    "an unused default's position ctrlrange": (
        '<default class="c"><position inheritrange="1" ctrlrange="0 1"/></default>', "",
        ["<position", "ctrlrange="]),
    "position ctrlrange 0 0": ("", '<position joint="k" inheritrange="1" ctrlrange="0 0"/>',
                               None),
    "position inheritrange 0": ("", '<position joint="k" inheritrange="0" ctrlrange="0 1"/>',
                                None),
    "position inheritrange -1": ("", '<position joint="k" inheritrange="-1" ctrlrange="0 1"/>',
                                 None),
    "position inheritrange NaN": ("", '<position joint="k" inheritrange="nan" '
                                      'ctrlrange="0 1"/>', None),
    "intvelocity ctrlrange": ("", '<intvelocity joint="k" inheritrange="1" ctrlrange="0 1"/>',
                              None),
    "the class's ctrlrange, the actuator's inheritrange": (
        '<position ctrlrange="0 1"/>', '<position joint="k" inheritrange="1"/>', None),
    "the class's posrange, the actuator's inheritrange": (
        '<pid posrange="0 1"/>', '<pid joint="k" inheritrange="1"/>', None),
}


@pytest.mark.parametrize("case", sorted(INHERITRANGE_ALONE))
def test_inheritrange_beside_a_range_refused_as_mujoco_refuses_it(case):
    """MuJoCo 4.0.0's reader refuses a <position>'s, <intvelocity>'s or <pid>'s own
    inheritrange= above 0 beside its own nonzero ctrlrange= (actrange=, posrange=), in an
    actuator or a default, used or not; urdf2dyn loaded it."""
    default, act, words = INHERITRANGE_ALONE[case]
    assert_as_mujoco(doc(f"<default>{default}</default>",
                         f"<worldbody>{BODY}{_RANGED}</worldbody>",
                         actuators(act) if act else ""), words)


_NO_RANGE = "has no range (MuJoCo refuses it"
_ONLY_SERVOS = "inheritrange only available for position and intvelocity actuators"
_TARGETS = ('<body name="t"><joint name="h"{h}/><joint name="s" type="slide"{s}/>'
            '<geom size="0.1"/><site name="x"/>'
            '<body><joint name="ball" type="ball" range="0 1"/><geom size="0.1"/></body></body>')
_TENDON_TARGET = '<tendon><fixed name="f"{f}><joint joint="h" coef="1"/></fixed></tendon>'


def _inheritrange_model(default, act, h="", s="", f=""):
    return doc(f"<default>{default}</default>",
               "<worldbody>" + _TARGETS.format(h=h, s=s) + "</worldbody>",
               _TENDON_TARGET.format(f=f), actuators(act))


INHERITRANGE_TARGET = {   # the <default>'s content, the actuator, the hinge's, slide's and
    # tendon's attributes; urdf2dyn's words (None: both load)
    "a hinge without range": ("", '<position joint="h" inheritrange="1"/>', "", "", "",
                              ["actuator 0", 'inheritrange="1"', 'joint "h"', _NO_RANGE,
                               "give the joint a range="]),
    "a hinge's range 1 1": ("", '<position joint="h" inheritrange="0.5"/>', ' range="1 1"',
                            "", "", ['joint "h"', _NO_RANGE]),
    "a class's inheritrange, a slide without range": (
        '<position inheritrange="2"/>', '<position joint="s"/>', "", "", "",
        ['joint "s"', _NO_RANGE]),
    "a blank inheritrange over its class's 1": (
        '<position inheritrange="1"/>', '<position joint="h" inheritrange=""/>', "", "", "",
        ['inheritrange="1"', _NO_RANGE]),
    "a blank inheritrange over its class's 1, a ranged hinge": (
        '<position inheritrange="1"/>', '<position joint="h" inheritrange=" "/>',
        ' range="-1 1"', "", "", None),
    "an intvelocity on a hinge without range": (
        "", '<intvelocity joint="h" inheritrange="1"/>', "", "", "", [_NO_RANGE]),
    "a pid on a hinge without range": ("", '<pid joint="h" inheritrange="1"/>', "", "", "",
                                       [_NO_RANGE]),
    "a tendon without range": ("", '<position tendon="f" inheritrange="1"/>', "", "", "",
                               ['tendon "f"', _NO_RANGE, "give the tendon a range="]),
    "a ball joint": ("", '<position joint="ball" inheritrange="1"/>', "", "", "",
                     ["only be used with hinge and slide joints"]),
    "a site": ("", '<position site="x" inheritrange="1"/>', "", "", "",
               ["with site=", "only be used with joint and tendon transmission"]),
    "a jointinparent": ("", '<position jointinparent="h" inheritrange="1"/>', "", "", "",
                        ["with jointinparent=", "joint and tendon transmission"]),
    "an unlimited hinge's reversed range": (
        "", '<position joint="h" inheritrange="1"/>', ' range="1 -1" limited="false"', "", "",
        None),
    "a hinge's range from its class": (
        '<joint range="-1 1"/>', '<position joint="h" inheritrange="1"/>', "", "", "", None),
    "a tendon's range from its class": (
        '<tendon range="-1 1"/>', '<position tendon="f" inheritrange="1"/>', "", "", "",
        None),
    "a class's inheritrange on a ranged slide": (
        '<position inheritrange="1"/>', '<position joint="s"/>', "", ' range="-1 1"', "", None),
    "inheritrange 0 on a hinge without range": (
        "", '<position joint="h" inheritrange="0"/>', "", "", "", None),
    "inheritrange -1 on a site": ("", '<position site="x" inheritrange="-1"/>', "", "", "",
                                  None),
    # MuJoCo 4.0.0 keeps the class's inheritrange by the kinds of every actuator default
    # of the chain: a <motor> the class writes after the <position inheritrange> drops it
    "a class's inheritrange a later <motor> of the class drops": (
        '<position inheritrange="1"/><motor/>', '<position joint="h"/>', "", "", "", None),
    "a class's inheritrange a later <intvelocity> of the class drops": (
        '<position inheritrange="1"/><intvelocity/>', '<pid joint="h"/>', "", "", "", None),
    "a class's inheritrange written after its <motor>": (
        '<motor/><position inheritrange="1"/>', '<position joint="h"/>', "", "", "",
        [_NO_RANGE]),
    "a <general>'s own inheritrange without a bias": (
        "", '<general joint="h" inheritrange="1"/>', "", "", "", None),
    # a <general>'s own (or its <general> defaults') on gains like a <position>'s
    "a <general>'s own inheritrange with position-like gains": (
        "", '<general joint="h" inheritrange="1" biastype="affine" biasprm="0 -1 0"/>', "",
        "", "", ['inheritrange="1"', 'joint "h"', _NO_RANGE]),
    "a <general>'s own inheritrange with position-like gains of 0": (
        "", '<general joint="h" inheritrange="1" biastype="affine" gainprm="0"/>', "", "", "",
        [_NO_RANGE]),
    "a <general>'s own inheritrange with pid gains": (
        "", '<general joint="h" inheritrange="1" gaintype="pid" biastype="affine" '
        'gainprm="0"/>', "", "", "", [_NO_RANGE]),
    "a <general>'s own inheritrange with gains unlike a <position>'s": (
        "", '<general joint="h" inheritrange="1" biastype="affine" biasprm="0 -2 0"/>', "",
        "", "", None),
    "a <general>'s own inheritrange with position-like gains, a ranged hinge": (
        "", '<general joint="h" inheritrange="1" biastype="affine" biasprm="0 -1 0"/>',
        ' range="-1 1"', "", "", None),
    "a <general> default's inheritrange with position-like gains": (
        '<general inheritrange="1" biastype="affine"/>', '<general joint="h" biasprm="0 -1"/>',
        "", "", "", [_NO_RANGE]),
    "a <general>'s own inheritrange 0 over its <position> class's": (
        '<position inheritrange="1"/>', '<general joint="h" inheritrange="0"/>', "", "", "",
        None),
    "a <general>'s own inheritrange over its <position> class's": (
        '<position inheritrange="1"/>', '<general joint="h" inheritrange="2"/>', "", "", "",
        ['inheritrange="2"', _NO_RANGE]),
    # MuJoCo gives the range to a position's control or an integrator's activation alone
    "a <general>'s own inheritrange with a filter": (
        "", '<general joint="h" inheritrange="1" biastype="affine" biasprm="0 -1 0" '
        'dyntype="filter"/>', ' range="-1 1"', "", "", [_ONLY_SERVOS, 'dyntype "filter"']),
    "a <general> of a <position> class with a filter": (
        '<position inheritrange="1"/>', '<general joint="h" dyntype="filter"/>',
        ' range="-1 1"', "", "", ["actuator 0", 'inheritrange="1"', _ONLY_SERVOS]),
    "a <general> of a <position> class whose <general> default writes a filter": (
        '<position inheritrange="1"/><general dyntype="filter"/>', '<general joint="h"/>',
        ' range="-1 1"', "", "", [_ONLY_SERVOS]),
    "a <general> of a <position> class with an integrator": (
        '<position inheritrange="1"/>', '<general joint="h" dyntype="integrator"/>',
        ' range="-1 1"', "", "", None),
    "a <cylinder> of a <position> class through a <general> default": (
        '<position inheritrange="1"/><general/>', '<cylinder joint="h"/>', "", "", "",
        [_ONLY_SERVOS, 'dyntype "filter"', "give a ctrlrange instead"]),
    "a <cylinder> of an <intvelocity> class through a <general> default, a ranged hinge": (
        '<intvelocity inheritrange="1"/><general dyntype="none"/>', '<cylinder joint="h"/>',
        ' range="-1 1"', "", "", [_ONLY_SERVOS]),
    # a <general/> default in a child class keeps its parent's shortcut's
    "a <general> of a class whose parent's <position> has inheritrange": (
        '<default class="a"><position inheritrange="1"/><default class="b"><general/>'
        '</default></default>', '<general class="b" joint="h"/>', "", "", "", [_NO_RANGE]),
    "a <cylinder> of a class whose parent's <position> has inheritrange": (
        '<default class="a"><position inheritrange="1"/><default class="b"><general/>'
        '</default></default>', '<cylinder class="b" joint="h"/>', ' range="-1 1"', "", "",
        [_ONLY_SERVOS]),
    "a <general> of a class changing its parent's <position> gains": (
        '<default class="a"><position inheritrange="1"/><default class="b">'
        '<general gainprm="2"/></default></default>', '<general class="b" joint="h"/>', "",
        "", "", None),
    "a <cylinder> of a <position> class": (
        '<position inheritrange="1"/>', '<cylinder joint="h"/>', "", "", "", None),
    "a <cylinder> of its own area, of a <position> class through a <general> default": (
        '<position inheritrange="1"/><general/>', '<cylinder joint="h" area="2"/>', "", "",
        "", None),
    # a <general> takes the inheritrange of its class's <position>, <intvelocity> or <pid>
    "a <general> of a <position> class with inheritrange": (
        '<position inheritrange="1"/>', '<general joint="h"/>', "", "", "",
        ["actuator 0", 'inheritrange="1"', 'joint "h"', _NO_RANGE]),
    "a <general> of a <pid> class, a <general> default after it": (
        '<pid inheritrange="1"/><general dyntype="none"/>', '<general joint="h" gear="2"/>',
        "", "", "", [_NO_RANGE]),
    "a <general> of an <intvelocity> class on a tendon without range": (
        '<intvelocity inheritrange="1"/>', '<general tendon="f"/>', "", "", "",
        ['tendon "f"', _NO_RANGE]),
    "a <general> of a <position> class on a site": (
        '<position inheritrange="1"/>', '<general site="x"/>', "", "", "",
        ["with site=", "joint and tendon transmission"]),
    "a <general> of a <position> class on a ranged hinge": (
        '<position inheritrange="1"/>', '<general joint="h"/>', ' range="-1 1"', "", "", None),
    "a <general> of a class whose <motor> drops the inheritrange": (
        '<position inheritrange="1"/><motor/>', '<general joint="h"/>', "", "", "", None),
    "a <general> of a class whose <general> default holds an inheritrange": (
        '<general inheritrange="1"/>', '<general joint="h"/>', "", "", "", None),
    # MuJoCo applies it by the gains the shortcut set: a <general> changing them drops it
    "a <general> of a <position> class writing its own gainprm": (
        '<position inheritrange="1"/>', '<general joint="h" gainprm="2"/>', "", "", "", None),
    "a <general> of a <position> class whose <general> default writes gainprm": (
        '<position inheritrange="1"/><general gainprm="2"/>', '<general joint="h"/>', "", "",
        "", None),
    "a <general> of an <intvelocity> class whose <general> default writes biasprm": (
        '<intvelocity inheritrange="1"/><general biasprm="0 0 -3"/>', '<general joint="h"/>',
        "", "", "", None),
    "a <general> of a <position> class without a bias": (
        '<position inheritrange="1"/>', '<general joint="h" biastype="none"/>', "", "", "",
        None),
    "a <general> of a <pid> class with fixed gains": (
        '<pid inheritrange="1"/><general gaintype="fixed"/>', '<general joint="h"/>', "", "",
        "", None),
    # a NaN kp is no -biasprm[1]: MuJoCo leaves the range alone, the target unchecked
    "a NaN kp on a hinge without range": (
        "", '<position joint="h" kp="nan" inheritrange="1"/>', "", "", "", None),
    "a class's NaN kp on a hinge without range": (
        '<position kp="nan"/>', '<position joint="h" inheritrange="1"/>', "", "", "", None),
    "its own kp over its class's NaN one on a hinge without range": (
        '<position kp="nan"/>', '<position joint="h" kp="1" inheritrange="1"/>', "", "", "",
        [_NO_RANGE]),
    "a <general> of a <position> class keeping its gains' types and dynamics": (
        '<position inheritrange="1"/><general gaintype="fixed" dynprm="3"/>',
        '<general joint="h" biastype="affine"/>', "", "", "", [_NO_RANGE]),
}


@pytest.mark.parametrize("case", sorted(INHERITRANGE_TARGET))
def test_inheritrange_without_target_range_refused_as_mujoco_refuses_it(case):
    """MuJoCo 4.0.0's compiler refuses a <position>'s, <intvelocity>'s or <pid>'s
    inheritrange above 0 (its own or its class's, or a <general>'s class's <position>,
    <intvelocity> or <pid> written last) on a joint or tendon without a range of two ends,
    on a ball joint and on another transmission; urdf2dyn loaded it. It applies a
    <general>'s own on gains like a <position>'s or pid gains, and refuses one with
    dynamics other than a position's, a pid's or an integrator (a filter, a <cylinder>
    taking a <position>'s through a <general> default: "inheritrange only available for
    position and intvelocity actuators"), which urdf2dyn loaded too. Where both load, the
    mass matrix and inverse dynamics are MuJoCo's."""
    default, act, h, s, f, words = INHERITRANGE_TARGET[case]
    xml = _inheritrange_model(default, act, h, s, f)
    assert_as_mujoco(xml, words)
    if words is None:
        oracle.assert_loads_as_mujoco(xml)


_ACTUATOR_KINDS = ["general", "motor", "velocity", "intvelocity", "cylinder", "pid", "position"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_ACTUATOR_KINDS), st.sampled_from(["", "0", "1"])),
                min_size=1, max_size=2, unique_by=lambda d: d[0]),
       st.lists(st.tuples(st.sampled_from(_ACTUATOR_KINDS), st.sampled_from(["", "0", "1"])),
                max_size=2, unique_by=lambda d: d[0]),
       st.sampled_from(["position", "intvelocity", "pid", "general", "motor"]))
def test_class_chains_of_actuator_defaults_never_refused_where_mujoco_loads(outer, inner, kind):
    """A class and its child class writing random actuator defaults, inheritrange= or not,
    read by a random actuator on a hinge without range: urdf2dyn refused models MuJoCo
    4.0.0 loads (<position inheritrange="1"/><motor/> in one class leaves a <position> no
    inheritrange). It refuses only where MuJoCo does (it may load some that MuJoCo refuses:
    the class's inheritrange depends on the kinds of the chain's defaults)."""
    def defaults(elements):
        return "".join(f'<{k} inheritrange="{v}"/>' if v and k in ("position", "intvelocity",
                                                                   "pid") else f"<{k}/>"
                       for k, v in elements)
    default = (f'<default class="p">{defaults(outer)}'
               f'<default class="q">{defaults(inner)}</default></default>')
    xml = _inheritrange_model(default, f'<{kind} class="q" joint="h"/>')
    got = urdf2dyn_error(xml)
    if got is not None:
        assert mujoco_error(xml) is not None, (xml, got)


# defaults writing an inheritrange, gains like a <position>'s or not, or dynamics
_RANGE_DEFAULTS = ['<position inheritrange="1"/>', '<intvelocity inheritrange="1"/>',
                   '<general inheritrange="1"/>', '<general biastype="affine"/>',
                   '<general biasprm="0 -1 0"/>', '<general gainprm="2"/>',
                   '<general dyntype="filter"/>', '<general dyntype="integrator"/>',
                   '<general gaintype="pid" gainprm="0" biastype="affine"/>', "<motor/>"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_RANGE_DEFAULTS), max_size=2, unique_by=_tag),
                min_size=1, max_size=2),
       st.sampled_from(["general", "cylinder"]),
       st.sampled_from(["", 'inheritrange="1"', 'inheritrange="0"', 'biastype="affine"',
                        'biasprm="0 -1 0" biastype="affine" inheritrange="1"',
                        'dyntype="filter"', 'gainprm="0"']),
       st.sampled_from(["", ' range="-1 1"']))
def test_inheritrange_of_class_chains_refused_where_mujoco_refuses(levels, kind, own, hinge):
    """Nested classes of defaults writing an inheritrange (a <position>'s, an
    <intvelocity>'s, a <general>'s), gains like a <position>'s or not, and dynamics, under a
    <general> of its own inheritrange, gains or dynamics, or a <cylinder>, on a hinge with or
    without range: urdf2dyn never refuses what MuJoCo 4 loads, and refuses for the
    inheritrange exactly where MuJoCo does wherever the chain holds <general> defaults
    alone (MuJoCo's reader keeps a shortcut's by rules of every default of the chain)."""
    world = "<worldbody>" + _TARGETS.format(h=hinge, s="") + "</worldbody>"
    xml, got, _ = _general_under_classes(levels, own if kind == "general" else "", kind,
                                         world.replace('name="h"', 'name="j"'))
    expected = mujoco_error(xml)
    if expected is None:
        assert got is None, (xml, got)
    alone = all(d.startswith("<general") for level in levels for d in level)
    if alone and kind == "general" and expected is not None and "inheritrange" in expected:
        assert got is not None and "inheritrange" in got, (xml, expected, got)
    if got is not None and "inheritrange" in got:
        assert expected is not None and "inheritrange" in expected, (xml, expected, got)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["position", "intvelocity", "pid"]),
       st.sampled_from(['joint="h"', 'joint="s"', 'tendon="f"']),
       st.sampled_from(["", "0", "1", "0.5", "-1"]), st.sampled_from(["", "0", "1"]),
       st.sampled_from(["", ' range="-1 1"', ' range="0 0"', ' range="2 2"',
                        ' range="1 -1" limited="false"']),
       st.sampled_from(["", '<joint range="-1 1"/>', '<tendon range="-1 1"/>',
                        '<joint range="0 0"/>']))
def test_random_inheritrange_targets_refused_exactly_where_mujoco_refuses(
        element, target, own, cls, target_range, target_class):
    """Random own and class inheritrange on a hinge, slide or tendon whose range is its own,
    its class's or none: urdf2dyn refuses the model exactly where MuJoCo does, and where both
    load their mass matrix and inverse dynamics agree."""
    act = f"<{element} {target}" + (f' inheritrange="{own}"' if own else "") + "/>"
    default = (f'<{element} inheritrange="{cls}"/>' if cls else "") + target_class
    attrs = {"h": "", "s": "", "f": ""}
    attrs[target.split('"')[1]] = target_range
    xml = _inheritrange_model(default, act, **attrs)
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)
    if expected is None:
        oracle.assert_loads_as_mujoco(xml)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["position", "intvelocity", "pid", "muscle", "damper"]),
       st.dictionaries(st.sampled_from(["kv", "dampratio", "timeconst", "tausmooth", "ki",
                                        "imax", "slewmax"]),
                       st.sampled_from(["0", "1", "-1", "-0", "nan", "-inf", "1e-300",
                                        "-1e-300", "", " "]), max_size=3),
       st.booleans())
def test_random_shortcut_signs_refused_exactly_where_mujoco_refuses(element, attrs, default):
    """Random signed settings of a servo, pid, muscle or damper, in an actuator or in its
    class: urdf2dyn refuses the model exactly where MuJoCo does (attributes its schema
    leaves out of that element are dropped)."""
    allowed = {"position": "kv dampratio timeconst", "intvelocity": "kv dampratio",
               "pid": "kv dampratio ki imax slewmax", "muscle": "tausmooth",
               "damper": "kv"}[element].split()
    text = " ".join(f'{k}="{v}"' for k, v in attrs.items() if k in allowed)
    target = 'joint="k" ctrlrange="0 1"' if element == "damper" else 'joint="k"'
    own, cls = (f"<{element} {text}/>", "") if not default else ("", f"<{element} {text}/>")
    act = own.replace(f"<{element} ", f"<{element} {target} ") if own else \
        f"<{element} {target}/>"
    if element == "muscle" and default:
        return          # a <muscle> default has no tausmooth= in MuJoCo's schema
    xml = doc(f"<default>{cls}</default>", f"<worldbody>{BODY}{_RANGED}</worldbody>",
              actuators(act))
    assert (mujoco_error(xml) is None) == (urdf2dyn_error(xml) is None), \
        (xml, mujoco_error(xml), urdf2dyn_error(xml))


@pytest.mark.parametrize("case", sorted(SHORTCUT_SETTINGS))
def test_pid_and_dcmotor_settings_refused_as_mujoco_refuses_them(case):
    """MuJoCo 4.0.0 refuses a <pid>'s slewmax below 0 and an input= of words it does not
    know, repeats or lists out of order (pos vel ff voltage pressure), an actuator or a
    default, used or not, and an actuator's inputs its kind does not take (a <dcmotor>'s
    pressure; a <pid>'s none, voltage or pressure); urdf2dyn loaded them."""
    default, act, words = SHORTCUT_SETTINGS[case]
    assert_as_mujoco(doc(f"<default>{default}</default>", WORLD,
                         actuators(act) if act else ""), words)


@pytest.mark.parametrize("case", sorted(ACTRANGE))
def test_actrange_only_where_mujoco_schema_has_it(case):
    """MuJoCo 4's schema has actrange= and actlimited= on <general> and <intvelocity> only;
    it refuses them on every other actuator, in <actuator> or a <default> ("unrecognized
    attribute"). urdf2dyn loaded them."""
    xml, words = ACTRANGE[case]
    assert_as_mujoco(xml, words)


@pytest.mark.parametrize("first", ["main", "part"])
def test_repeated_name_across_included_files_names_both_files(tmp_path, first):
    """A name repeated between the main file and an <include>d one: the message names each
    element's file and line (it said 'the other at line N', a line of another file)."""
    (tmp_path / "part.xml").write_text('<mujoco>\n  <body name="c">\n    <joint name="j"/>\n'
                                       '    <geom size="0.1"/>\n  </body>\n</mujoco>\n')
    own = '<body name="b"><joint name="j"/><geom size="0.1"/></body>\n'
    inc = '<include file="part.xml"/>\n'
    main = tmp_path / "main.xml"
    main.write_text("<mujoco>\n<worldbody>\n" + (own + inc if first == "main" else inc + own)
                    + "</worldbody>\n</mujoco>\n")
    with pytest.raises(ValueError, match="repeated name"):
        mujoco.MjModel.from_xml_path(str(main))
    with pytest.raises(urdf2dyn.URDFError) as e:
        urdf2dyn.load(str(main))
    msg = str(e.value)
    assert "two joints are named 'j'" in msg, msg
    line = 3 if first == "main" else 4
    assert f"{main}, line {line}" in msg and f"{tmp_path / 'part.xml'}, line 3" in msg, msg


_NAMES = st.sampled_from([None, "", "a", "b", "j", "world", "body1", "body2", "a_joint0",
                          "body1_joint0", "body2_joint1", "a/j", "a/weld", "b/anchor",
                          "body1_2"])
_JOINT = st.tuples(_NAMES, st.booleans())           # a name, and an anchor off the origin


@st.composite
def _named_model(draw):
    """Up to three bodies (each nested in the one before or not) with up to two hinges, a
    geom and a site each, a 2d texture and a material, and a motor on a drawn joint name:
    every name drawn from a pool with empty ones, generated patterns and repeats."""
    axes = ["1 0 0", "0 1 0"]
    xml, opened = "", 0
    for _ in range(draw(st.integers(1, 3))):
        name = draw(_NAMES)
        joints = draw(st.lists(_JOINT, max_size=2))
        js = "".join(f'<joint{"" if n is None else f" name={chr(34)}{n}{chr(34)}"} '
                     f'axis="{axes[k]}"{" pos=" + chr(34) + "0 0 0.1" + chr(34) if off else ""}/>'
                     for k, (n, off) in enumerate(joints))
        site = draw(_NAMES)
        site = "<site/>" if site is None else f'<site name="{site}"/>'
        if opened and draw(st.booleans()):
            xml += "</body>"
            opened -= 1
        xml += (f'<body{"" if name is None else f" name={chr(34)}{name}{chr(34)}"}>{js}'
                f'<geom size="0.1"/>{site}')
        opened += 1
    xml += "</body>" * opened
    tex, mat = draw(_NAMES), draw(_NAMES)
    assets = ("<asset>" + ("" if tex is None else f'<texture name="{tex}" type="2d" {_TEX}/>')
              + ("" if mat is None else f'<material name="{mat}"/>') + "</asset>")
    target = draw(st.sampled_from(["", "a", "j", "a_joint0", "body1_joint0", "b/anchor"]))
    motor = actuators(f'<motor joint="{target}"/>') if target else ""
    return doc(assets, f"<worldbody>{xml}</worldbody>", motor)


@settings(max_examples=150, deadline=None)
@given(_named_model())
def test_random_names_refused_exactly_where_mujoco_refuses(xml):
    """Random small models whose body, joint, site, texture and material names (and a
    motor's joint) are drawn from a pool with empty names, names urdf2dyn generates and
    repeats within and across kinds: urdf2dyn refuses exactly when MuJoCo does, never with
    another exception, and where it loads it keeps every name MuJoCo keeps, its own unique."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)
    if got is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
            _names_kept(xml, urdf2dyn.load(xml))


# ---- references to named elements urdf2dyn does not model ---------------------------------

_REF_WORLD = ('<worldbody><body name="b"><joint name="j"/><geom name="g" size="0.1"/>'
              '<site name="s"/><body name="c"><joint name="k"/><geom name="g2" size="0.1"/>'
              '<site name="s2"/></body></body><camera name="cam"/></worldbody>'
              '<tendon><fixed name="t"><joint joint="j" coef="1"/></fixed></tendon>'
              '<actuator><motor name="a" joint="j"/></actuator>')


def _refs(*parts):
    """A two-body model with a joint, geom and site in each body, a camera, a fixed tendon
    't' and a motor 'a', and parts after them."""
    return doc(_REF_WORLD, *parts)


def _section(name, *elements):
    return f"<{name}>" + "".join(elements) + f"</{name}>"


def _sensor(element):
    return _section("sensor", element)


def _missing(element, attr, name="x"):
    """The words of a refusal of a reference to name that the model does not have."""
    return [f"<{element}>", f'{attr}="{name}"', "line 1", "MuJoCo refuses"]


REFERENCES = {
    "exclude": (_refs(_section("contact", '<exclude body1="b" body2="c"/>')), None),
    "exclude with the world": (_refs(_section("contact", '<exclude body1="world" body2="c"/>')),
                               None),
    "exclude body1 unknown": (_refs(_section("contact", '<exclude body1="x" body2="c"/>')),
                              _missing("exclude", "body1") + ["no body"]),
    "exclude body2 unknown": (_refs(_section("contact", '<exclude body1="b" body2="x"/>')),
                              _missing("exclude", "body2")),
    "exclude body1 empty": (_refs(_section("contact", '<exclude body1="" body2="c"/>')),
                            _missing("exclude", "body1", "")),
    "exclude without body2": (_refs(_section("contact", '<exclude body1="b"/>')),
                              ["<exclude>", "body2=", "required"]),
    "exclude of a generated body name": (
        doc('<worldbody><body name="b"><geom size="1"/></body><body><geom size="1"/></body>'
            '</worldbody>', _section("contact", '<exclude body1="b" body2="body2"/>')),
        _missing("exclude", "body2", "body2")),
    "pair": (_refs(_section("contact", '<pair geom1="g" geom2="g2"/>')), None),
    "pair geom1 unknown": (_refs(_section("contact", '<pair geom1="x" geom2="g2"/>')),
                           _missing("pair", "geom1") + ["no geom"]),
    "pair geom2 names a body": (_refs(_section("contact", '<pair geom1="g" geom2="b"/>')),
                                _missing("pair", "geom2", "b")),
    "pair without geom2": (_refs(_section("contact", '<pair geom1="g"/>')),
                           ["<pair>", "geom2="]),
    "pair of an unknown class": (
        _refs(_section("contact", '<pair geom1="g" geom2="g2" class="zz"/>')),
        ["<pair", "class=\"zz\""]),
    "connect": (_refs(_section("equality", '<connect body1="b" body2="c" anchor="0 0 0"/>')),
                None),
    "connect of sites": (_refs(_section("equality", '<connect site1="s" site2="s2"/>')), None),
    "connect body2 empty": (_refs(_section("equality", '<connect body1="b" body2="" '
                                                       'anchor="0 0 0"/>')), None),
    "connect body1 unknown": (_refs(_section("equality", '<connect body1="x" anchor="0 0 0"/>')),
                              _missing("connect", "body1")),
    "connect body2 unknown": (_refs(_section("equality", '<connect body1="b" body2="x" '
                                                         'anchor="0 0 0"/>')),
                              _missing("connect", "body2")),
    "connect site2 unknown": (_refs(_section("equality", '<connect site1="s" site2="x"/>')),
                              _missing("connect", "site2") + ["no site"]),
    "connect site1 names a body": (_refs(_section("equality", '<connect site1="b" site2="s"/>')),
                                   _missing("connect", "site1", "b")),
    "weld": (_refs(_section("equality", '<weld body1="b"/>')), None),
    "weld body1 unknown": (_refs(_section("equality", '<weld body1="x"/>')),
                           _missing("weld", "body1")),
    "weld site1 unknown": (_refs(_section("equality", '<weld site1="x" site2="s"/>')),
                           _missing("weld", "site1")),
    "equality joint": (_refs(_section("equality", '<joint joint1="j" joint2="k"/>')), None),
    "equality joint2 empty": (_refs(_section("equality", '<joint joint1="j" joint2=""/>')), None),
    "equality joint1 unknown": (_refs(_section("equality", '<joint joint1="x"/>')),
                                _missing("joint", "joint1") + ["no joint"]),
    "equality joint2 unknown": (_refs(_section("equality", '<joint joint1="j" joint2="x"/>')),
                                _missing("joint", "joint2")),
    "equality joint1 names a body": (_refs(_section("equality", '<joint joint1="b"/>')),
                                     _missing("joint", "joint1", "b")),
    "equality joint without joint1": (_refs(_section("equality", '<joint joint2="j"/>')),
                                      ["<joint>", "joint1=", "required"]),
    "equality tendon": (_refs(_section("equality", '<tendon tendon1="t"/>')), None),
    "equality tendon1 unknown": (_refs(_section("equality", '<tendon tendon1="x"/>')),
                                 _missing("tendon", "tendon1") + ["no tendon"]),
    "equality tendon2 unknown": (_refs(_section("equality", '<tendon tendon1="t" tendon2="x"/>')),
                                 _missing("tendon", "tendon2")),
    "fixed tendon joint unknown": (
        _refs(_section("tendon", '<fixed name="t2"><joint joint="x" coef="1"/></fixed>')),
        _missing("joint", "joint")),
    "fixed tendon joint names a body": (
        _refs(_section("tendon", '<fixed name="t2"><joint joint="b" coef="1"/></fixed>')),
        _missing("joint", "joint", "b")),
    "fixed tendon without joint=": (
        _refs(_section("tendon", '<fixed name="t2"><joint coef="1"/></fixed>')),
        ["<joint>", "joint=", "required"]),
    "fixed tendon empty": (_refs(_section("tendon", '<fixed name="t2"/>')),
                           ["<fixed>", "empty", "line 1"]),
    "spatial tendon": (
        _refs(_section("tendon", '<spatial><site site="s"/><geom geom="g" sidesite="s"/>'
                                 '<site site="s2"/></spatial>')), None),
    "spatial tendon, sidesite empty": (
        _refs(_section("tendon", '<spatial><site site="s"/><geom geom="g" sidesite=""/>'
                                 '<site site="s2"/></spatial>')), None),
    "spatial tendon site unknown": (
        _refs(_section("tendon", '<spatial><site site="s"/><site site="x"/></spatial>')),
        _missing("site", "site")),
    "spatial tendon geom unknown": (
        _refs(_section("tendon", '<spatial><site site="s"/><geom geom="x"/><site site="s2"/>'
                                 '</spatial>')), _missing("geom", "geom") + ["no geom"]),
    "spatial tendon sidesite unknown": (
        _refs(_section("tendon", '<spatial><site site="s"/><geom geom="g" sidesite="x"/>'
                                 '<site site="s2"/></spatial>')),
        _missing("geom", "sidesite") + ["no site"]),
    "spatial tendon empty": (_refs(_section("tendon", '<spatial name="t2"/>')),
                             ["<spatial>", "empty"]),
    "jointpos": (_refs(_sensor('<jointpos joint="j"/>')), None),
    "jointpos of an unknown joint": (_refs(_sensor('<jointpos joint="x"/>')),
                                     _missing("jointpos", "joint")),
    "jointpos of a body": (_refs(_sensor('<jointpos joint="c"/>')),
                           _missing("jointpos", "joint", "c")),
    "jointpos empty": (_refs(_sensor('<jointpos joint=""/>')), _missing("jointpos", "joint", "")),
    "jointpos without joint=": (_refs(_sensor('<jointpos/>')),
                                ["<jointpos>", "joint=", "required"]),
    "touch of an unknown site": (_refs(_sensor('<touch site="x"/>')), _missing("touch", "site")),
    "gyro": (_refs(_sensor('<gyro site="s"/>')), None),
    "tendonpos of an unknown tendon": (_refs(_sensor('<tendonpos tendon="x"/>')),
                                       _missing("tendonpos", "tendon")),
    "actuatorfrc": (_refs(_sensor('<actuatorfrc actuator="a"/>')), None),
    "actuatorfrc of a joint": (_refs(_sensor('<actuatorfrc actuator="j"/>')),
                               _missing("actuatorfrc", "actuator", "j")),
    "subtreecom of the world": (_refs(_sensor('<subtreecom body="world"/>')), None),
    "subtreecom of an unknown body": (_refs(_sensor('<subtreecom body="x"/>')),
                                      _missing("subtreecom", "body")),
    "framepos": (_refs(_sensor('<framepos objtype="xbody" objname="b" reftype="site" '
                               'refname="s"/>')), None),
    "framepos of a camera": (_refs(_sensor('<framepos objtype="camera" objname="cam"/>')), None),
    "framepos objname unknown": (_refs(_sensor('<framepos objtype="body" objname="x"/>')),
                                 _missing("framepos", "objname") + ["no body"]),
    "framepos objname of another kind": (_refs(_sensor('<framepos objtype="site" objname="b"/>')),
                                         _missing("framepos", "objname", "b") + ["no site"]),
    "framepos refname unknown": (_refs(_sensor('<framepos objtype="body" objname="b" '
                                               'reftype="geom" refname="x"/>')),
                                 _missing("framepos", "refname") + ["no geom"]),
    "user sensor": (_refs(_sensor('<user objtype="joint" objname="j" dim="1"/>')), None),
    "user sensor of nothing": (_refs(_sensor('<user dim="1"/>')), None),
    "user sensor objname unknown": (_refs(_sensor('<user objtype="joint" objname="x" '
                                                  'dim="1"/>')), _missing("user", "objname")),
    "camprojection of an unknown camera": (
        _refs(_sensor('<camprojection site="s" camera="x"/>')),
        _missing("camprojection", "camera") + ["no camera"]),
    "contact sensor": (_refs(_sensor('<contact geom1="g" body2="c"/>')), None),
    "contact sensor, nothing named": (_refs(_sensor('<contact/>')), None),
    "contact sensor subtree1 unknown": (_refs(_sensor('<contact subtree1="x"/>')),
                                        _missing("contact", "subtree1")),
    "contact sensor geom2 unknown": (_refs(_sensor('<contact geom1="g" geom2="x"/>')),
                                     _missing("contact", "geom2")),
    "tuple": (_refs(_section("custom", '<tuple name="tu"><element objtype="body" objname="b"/>'
                                       '</tuple>')), None),
    "tuple empty": (_refs(_section("custom", '<tuple name="tu"/>')),
                    ["<tuple>", "'tu'", "empty", "line 1"]),
    "tuple element unknown": (
        _refs(_section("custom", '<tuple name="tu"><element objtype="body" objname="x"/>'
                                 '</tuple>')), _missing("element", "objname") + ["no body"]),
    "tuple element of another kind": (
        _refs(_section("custom", '<tuple name="tu"><element objtype="joint" objname="b"/>'
                                 '</tuple>')), _missing("element", "objname", "b")),
}


@pytest.mark.parametrize("case", sorted(REFERENCES))
def test_references_are_resolved_as_mujoco_resolves_them(case):
    """Names given in elements urdf2dyn reads but does not model (contact pairs and excludes,
    equality constraints, tendon paths, sensors, custom tuples) name an element of the kind
    MuJoCo looks for, among the file's names (not the names urdf2dyn generates): MuJoCo
    refuses a name it cannot find ("not found", "unknown element", "unrecognized name"), a
    missing required one and an empty path or tuple, where urdf2dyn loaded the file."""
    xml, words = REFERENCES[case]
    assert_as_mujoco(xml, words)


_PID_DECLARED = '<extension><plugin plugin="mujoco.pid"/></extension>'
PLUGIN_ACTRANGE = {
    "plugin actrange without dynamics": (
        doc(WORLD, actuators('<plugin plugin="mujoco.pid" joint="j" actrange="0 1"/>')),
        ["<plugin>", "actrange", "dyntype", "line 1"]),
    "class's position resets its filter": (
        doc(_PID_DECLARED, '<default><default class="c"><general dyntype="filter"/>'
            '<position kp="1"/></default></default>', WORLD,
            actuators('<plugin plugin="mujoco.pid" joint="j" class="c" actrange="0 1"/>')),
        ["<plugin>", "actrange", "dyntype"]),
    "class's intvelocity integrates": (
        doc(_PID_DECLARED, '<default><default class="c"><intvelocity kp="1"/></default>'
            '</default>', WORLD,
            actuators('<plugin plugin="mujoco.pid" joint="j" class="c" actdim="1" '
                      'actrange="0 1"/>')), None),
}


@pytest.mark.parametrize("case", sorted(PLUGIN_ACTRANGE))
def test_plugin_actuator_actrange_needs_dynamics(case):
    """A plugin actuator's limited actrange without a dyntype: MuJoCo refuses it ("actrange
    specified but dyntype is 'none'"), urdf2dyn loaded it."""
    xml, words = PLUGIN_ACTRANGE[case]
    assert_as_mujoco(xml, words)


_SKIN = ('<deformable><skin name="sk" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"><bone body="x" '
         'bindpos="0 0 0" bindquat="1 0 0 0" vertid="0" vertweight="1"/></skin></deformable>')
FORMS = {
    "connect body1 empty": (_refs(_section("equality", '<connect body1="" anchor="0 0 0"/>')),
                            _missing("connect", "body1", "")),
    "weld site1 empty": (_refs(_section("equality", '<weld site1="" site2="s"/>')),
                         _missing("weld", "site1", "")),
    "weld of a body and sites": (
        _refs(_section("equality", '<weld body2="b" site1="s" site2="s2"/>')),
        ["<weld>", "both", "line 1"]),
    "connect of one site": (_refs(_section("equality", '<connect site1="s"/>')),
                            ["<connect>", "site2=", "line 1"]),
    "connect without anchor": (_refs(_section("equality", '<connect body1="b"/>')),
                               ["<connect>", "anchor="]),
    "equality joint of an unknown class": (
        _refs(_section("equality", '<joint joint1="j" class="zz"/>')), ['<joint class="zz">']),
    "equality flex unknown": (_refs(_section("equality", '<flex flex="x"/>')),
                              _missing("flex", "flex") + ["no flex"]),
    "contact sensor site empty": (_refs(_sensor('<contact site=""/>')),
                                  _missing("contact", "site", "")),
    "rangefinder of a camera": (_refs(_sensor('<rangefinder camera="cam"/>')), None),
    "rangefinder site empty": (_refs(_sensor('<rangefinder site=""/>')),
                               _missing("rangefinder", "site", "")),
    "rangefinder camera unknown": (_refs(_sensor('<rangefinder camera="x"/>')),
                                   _missing("rangefinder", "camera")),
    "framepos of a joint": (_refs(_sensor('<framepos objtype="joint" objname="j"/>')),
                            ["<framepos", "objtype", "line 1"]),
    "framepos refname without reftype": (
        _refs(_sensor('<framepos objtype="body" objname="b" refname="s"/>')),
        ["<framepos>", "refname=", "reftype="]),
    "framepos objname of the world": (_refs(_sensor('<framepos objtype="body" '
                                                    'objname="world"/>')), None),
    "user sensor objtype without objname": (_refs(_sensor('<user objtype="joint" dim="1"/>')),
                                            ["<user>", "objtype=", "objname="]),
    "insidesite objname unknown": (
        _refs(_sensor('<insidesite site="s" objtype="geom" objname="x"/>')),
        _missing("insidesite", "objname") + ["no geom"]),
    "tuple objtype unknown": (
        _refs(_section("custom", '<tuple name="tu"><element objtype="zzz" objname="b"/>'
                                 '</tuple>')), ["<element>", 'objtype="zzz"', "object type"]),
    "tuple of a degree of freedom": (
        _refs(_section("custom", '<tuple name="tu"><element objtype="dof" objname="j"/>'
                                 '</tuple>')), _missing("element", "objname", "j")),
    "tuple of an xbody": (
        _refs(_section("custom", '<tuple name="tu"><element objtype="xbody" objname="c"/>'
                                 '</tuple>')), None),
    "skin bone of an unknown body": (_refs(_SKIN), _missing("bone", "body")),
    "exclude body1 empty, an unnamed body": (
        doc('<worldbody><body name="b"><geom size="1"/></body><body><geom size="1"/></body>'
            '</worldbody>', _section("contact", '<exclude body1="" body2="b"/>')), None),
    "fixed tendon joint empty, an unnamed joint": (
        doc(_world(_body("b", None)), _section("tendon", '<fixed><joint joint="" coef="1"/>'
                                                         '</fixed>')), None),
    "jointpos empty, an unnamed joint": (
        doc(_world(_body("b", None)), _sensor('<jointpos joint=""/>')),
        _missing("jointpos", "joint", "") + ["missing name"]),
    "connect of a body to itself": (
        _refs(_section("equality", '<connect body1="b" body2="b" anchor="0 0 0"/>')),
        ["<connect>", "body1=", "body2=", "'b'", "repeated"]),
    "weld of the world to itself": (_refs(_section("equality", '<weld body1="world"/>')),
                                    ["<weld>", "'world'", "repeated"]),
    "weld to the world, body2 empty": (_refs(_section("equality", '<weld body1="b" body2=""/>')),
                                       None),
    "equality joint to itself": (_refs(_section("equality", '<joint joint1="j" joint2="j"/>')),
                                 ["<joint>", "'j'", "repeated"]),
    "tuple element empty, an unnamed joint": (
        doc(_world(_body("b", None)), _section("custom", '<tuple name="tu"><element '
                                                         'objtype="joint" objname=""/></tuple>')),
        _missing("element", "objname", "")),
    "jointpos of a ball joint": (
        doc('<worldbody><body><joint name="r" type="ball"/><geom size="0.1"/></body>'
            '</worldbody>', _sensor('<jointpos joint="r"/>')),
        ["<jointpos>", 'joint="r"', "hinge or slide"]),
    "fixed tendon of a free joint": (
        doc('<worldbody><body><freejoint name="f"/><geom size="0.1"/></body></worldbody>',
            _section("tendon", '<fixed><joint joint="f" coef="1"/></fixed>')),
        ["<joint>", 'joint="f"', "hinge or slide"]),
    "equality joint2 a ball joint": (
        doc('<worldbody><body><joint name="j"/><geom size="0.1"/><body><joint name="r" '
            'type="ball"/><geom size="0.1"/></body></body></worldbody>',
            _section("equality", '<joint joint1="j" joint2="r"/>')),
        ["<joint>", 'joint2="r"', "hinge or slide"]),
    "equality joint of a slide": (
        doc('<worldbody><body><joint name="j" type="slide"/><geom size="0.1"/></body>'
            '</worldbody>', _section("equality", '<joint joint1="j"/>')), None),
    "ballquat of a hinge": (_refs(_sensor('<ballquat joint="j"/>')),
                            ["<ballquat>", 'joint="j"', "ball", "line 1"]),
    "ballangvel of a ball joint": (
        doc('<worldbody><body><joint name="r" type="ball"/><geom size="0.1"/></body>'
            '</worldbody>', _sensor('<ballangvel joint="r"/>')), None),
    "rangefinder of nothing": (_refs(_sensor('<rangefinder/>')),
                               ["<rangefinder>", "site=", "camera="]),
    "weld of a site to itself": (_refs(_section("equality", '<weld site1="s" site2="s"/>')),
                                 ["<weld>", "'s'", "repeated"]),
}


@pytest.mark.parametrize("case", sorted(FORMS))
def test_reference_forms_are_checked_as_mujoco_checks_them(case):
    """What MuJoCo's schema and compiler require of the attributes that name elements: an
    empty body1= or site1= (not an empty body2=, the world) and an empty sensor object name
    are names it looks for and refuses; a <connect> or <weld> names two sites or a body; a
    frame sensor's object types, objtype/objname and reftype/refname pairs; an object type
    MuJoCo does not know; unknown classes; an equality constraint naming one element twice
    (body2= left out is the world). Outside sensors "" is the name of an unnamed element,
    which MuJoCo finds. urdf2dyn loaded each of them."""
    xml, words = FORMS[case]
    assert_as_mujoco(xml, words)


_REF_NAMES = st.sampled_from(["b", "c", "j", "k", "g", "g2", "s", "s2", "t", "a", "cam",
                              "world", "", "x", "body2", "body3", "b_joint0", "c_joint0",
                              "body3_joint0", "r"])
_REF_ELEMENTS = [
    ("contact", '<exclude body1="{}" body2="{}"/>'),
    ("contact", '<pair geom1="{}" geom2="{}"/>'),
    ("equality", '<connect body1="{}" body2="{}" anchor="0 0 0"/>'),
    ("equality", '<connect site1="{}" site2="{}"/>'),
    ("equality", '<weld body1="{}" body2="{}"/>'),
    ("equality", '<joint joint1="{}" joint2="{}"/>'),
    ("equality", '<tendon tendon1="{}" tendon2="{}"/>'),
    ("tendon", '<fixed><joint joint="{}" coef="1"/></fixed>'),
    ("tendon", '<spatial><site site="{}"/><geom geom="g" sidesite="{}"/><site site="s2"/>'
               '</spatial>'),
    ("sensor", '<jointpos joint="{}"/>'),
    ("sensor", '<ballquat joint="{}"/>'),
    ("sensor", '<rangefinder camera="{}"/>'),
    ("equality", '<weld site1="{}" site2="{}"/>'),
    ("custom", '<tuple name="tu{k}"><element objtype="xbody" objname="{}"/></tuple>'),
    ("sensor", '<touch site="{}"/>'),
    ("sensor", '<tendonpos tendon="{}"/>'),
    ("sensor", '<actuatorfrc actuator="{}"/>'),
    ("sensor", '<subtreecom body="{}"/>'),
    ("sensor", '<framepos objtype="xbody" objname="{}" reftype="site" refname="{}"/>'),
    ("sensor", '<contact geom1="{}" body2="{}"/>'),
    ("custom", '<tuple name="tu{k}"><element objtype="joint" objname="{}"/></tuple>'),
]


@st.composite
def _referring_model(draw):
    """A body b (joint j, geom g, site s) holding a body whose name and joint's name are
    drawn (c and k, or none: urdf2dyn then names them body2 and c_joint0 or body2_joint0),
    an unnamed body (body3, body3_joint0 in urdf2dyn), a body d on a ball joint r, a camera,
    a fixed tendon t, a motor a,
    and up to four elements naming things, their names drawn from the file's names of every
    kind, names urdf2dyn generates, 'world', '' and an unknown one."""
    inner = draw(st.sampled_from(['name="c"', ""]))
    joint = draw(st.sampled_from(['name="k"', ""]))
    world = (f'<worldbody><body name="b"><joint name="j"/><geom name="g" size="0.1"/>'
             f'<site name="s"/><body {inner}><joint {joint} axis="0 1 0"/>'
             f'<geom name="g2" size="0.1"/><site name="s2"/></body></body>'
             f'<body><joint axis="1 0 0"/><geom size="0.1"/></body>'
             f'<body name="d"><joint name="r" type="ball"/><geom size="0.1"/></body>'
             f'<camera name="cam"/>'
             f'</worldbody>')
    sections = {}
    for k, (section, text) in enumerate(draw(st.lists(st.sampled_from(_REF_ELEMENTS),
                                                      max_size=4))):
        names = [draw(_REF_NAMES) for _ in range(text.count("{}"))]
        sections.setdefault(section, []).append(text.replace("{k}", str(k)).format(*names))
    parts = [_section(s, *els) for s, els in sections.items() if s != "tendon"]
    tendons = _section("tendon", '<fixed name="t"><joint joint="j" coef="1"/></fixed>',
                       *sections.get("tendon", []))
    return doc(world, tendons, '<actuator><motor name="a" joint="j"/></actuator>', *parts)


@settings(max_examples=200, deadline=None)
@given(_referring_model())
def test_random_references_refused_exactly_where_mujoco_refuses(xml):
    """Random documents whose contact, equality, tendon, sensor and tuple elements name the
    file's elements, elements of another kind, unnamed ones by the names urdf2dyn generates,
    the world, nothing or something unknown: urdf2dyn refuses exactly when MuJoCo does (never
    with another exception), so a file MuJoCo loads is never refused for a name."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


def _ext(*plugins):
    """An <extension> declaring plugins, each 'name' or 'name:instance'."""
    parts = []
    for p in plugins:
        name, _, instance = p.partition(":")
        inner = f'<instance name="{instance}"/>' if instance else ""
        parts.append(f'<plugin plugin="{name}">{inner}</plugin>')
    return _section("extension", *parts)


PLUGINS = {
    "plugin actuator declared": (
        doc(_ext("mujoco.pid"), WORLD, actuators('<plugin plugin="mujoco.pid" joint="j"/>')),
        None),
    "plugin actuator of an instance": (
        doc(_ext("mujoco.pid:i"), WORLD, actuators('<plugin instance="i" joint="j"/>')), None),
    "plugin actuator not declared": (
        doc(WORLD, actuators('<plugin plugin="mujoco.pid" joint="j"/>')),
        ["<plugin>", 'plugin="mujoco.pid"', "<extension>", "line 1"]),
    "plugin actuator unknown": (
        doc(_ext("mujoco.pid"), WORLD, actuators('<plugin plugin="foo.bar" joint="j"/>')),
        ["<plugin>", 'plugin="foo.bar"', "unrecognized plugin"]),
    "plugin actuator instance unknown": (
        doc(_ext("mujoco.pid:i"), WORLD, actuators('<plugin instance="zz" joint="j"/>')),
        ["<plugin>", 'instance="zz"', "<instance"]),
    "plugin actuator of nothing": (
        doc(WORLD, actuators('<plugin joint="j"/>')),
        ["<plugin>", "plugin=", "instance=", "line 1"]),
    "plugin sensor not declared": (
        _refs(_sensor('<plugin plugin="foo.bar" objtype="body" objname="b"/>')),
        ["<plugin>", 'plugin="foo.bar"', "<extension>"]),
    "plugin sensor instance unknown": (_refs(_sensor('<plugin instance="zz"/>')),
                                       ["<plugin>", 'instance="zz"']),
    "plugin sensor of nothing": (_refs(_sensor('<plugin objtype="body" objname="b"/>')),
                                 ["<plugin>", "plugin=", "instance="]),
    "extension plugin without its name": (doc(_section("extension", "<plugin/>"), WORLD),
                                          ["<plugin>", "plugin=", "required", "line 1"]),
}


@pytest.mark.parametrize("case", sorted(PLUGINS))
def test_plugin_references_are_resolved_as_mujoco_resolves_them(case):
    """A plugin actuator or sensor names a plugin the file declares in <extension> (plugin=)
    or an <instance> of one (instance=): MuJoCo refuses anything else ("unrecognized plugin",
    "unrecognized name ... for plugin instance", "neither 'plugin' nor 'instance'"), and an
    <extension><plugin> without plugin=; urdf2dyn loaded each of them. (Which plugins a
    MuJoCo build registers is that build's: urdf2dyn does not judge a declared name.)"""
    xml, words = PLUGINS[case]
    assert_as_mujoco(xml, words)


_LIMITED = ('<worldbody><body name="b"><joint name="j"/><geom size="0.1"/><body>'
            '<joint name="k" range="0 1"/><geom size="0.1"/></body></body>'
            '<body><joint name="r" type="ball" range="0 1"/><geom size="0.1"/></body>'
            '<body><joint name="q" type="ball"/><geom size="0.1"/></body></worldbody>'
            '<tendon><fixed name="t"><joint joint="j" coef="1"/></fixed>'
            '<fixed name="tl" range="0 1"><joint joint="j" coef="1"/></fixed></tendon>')
LIMITS = {
    "jointlimitpos of a limited joint": (doc(_LIMITED, _sensor('<jointlimitpos joint="k"/>')),
                                         None),
    "jointlimitfrc of a limited ball joint": (
        doc(_LIMITED, _sensor('<jointlimitfrc joint="r"/>')), None),
    "jointlimitpos of a joint without a range": (
        doc(_LIMITED, _sensor('<jointlimitpos joint="j"/>')),
        ["<jointlimitpos>", 'joint="j"', "not limited", "line 1"]),
    "jointlimitvel of a ball joint without a range": (
        doc(_LIMITED, _sensor('<jointlimitvel joint="q"/>')),
        ["<jointlimitvel>", 'joint="q"', "not limited"]),
    "jointlimitfrc of a joint limited false": (
        doc(_LIMITED.replace('range="0 1"/>', 'range="0 1" limited="false"/>', 1),
            _sensor('<jointlimitfrc joint="k"/>')), ["<jointlimitfrc>", "not limited"]),
    "jointlimitpos of a range 0 0": (
        doc(_LIMITED.replace('range="0 1"', 'range="0 0"', 1),
            _sensor('<jointlimitpos joint="k"/>')), ["<jointlimitpos>", "not limited"]),
    "jointlimitpos of a class's range": (
        doc('<default><default class="L"><joint range="0 1"/></default></default>',
            _LIMITED.replace('<joint name="j"/>', '<joint name="j" class="L"/>'),
            _sensor('<jointlimitpos joint="j"/>')), None),
    "tendonlimitpos of a limited tendon": (
        doc(_LIMITED, _sensor('<tendonlimitpos tendon="tl"/>')), None),
    "tendonlimitvel of a tendon without a range": (
        doc(_LIMITED, _sensor('<tendonlimitvel tendon="t"/>')),
        ["<tendonlimitvel>", 'tendon="t"', "not limited", "line 1"]),
    "tendonlimitfrc of a tendon limited false": (
        doc(_LIMITED.replace('name="tl" range="0 1"', 'name="tl" range="0 1" limited="false"'),
            _sensor('<tendonlimitfrc tendon="tl"/>')), ["<tendonlimitfrc>", "not limited"]),
    "tendonlimitpos of a class's range": (
        doc('<default><default class="L"><tendon range="0 1"/></default></default>',
            _LIMITED.replace('<fixed name="t">', '<fixed name="t" class="L">'),
            _sensor('<tendonlimitpos tendon="t"/>')), None),
}


@pytest.mark.parametrize("case", sorted(LIMITS))
def test_limit_sensors_need_a_limited_joint_or_tendon(case):
    """<jointlimit*> and <tendonlimit*> sensors measure a limit: MuJoCo refuses one on a joint
    or tendon that is not limited ("joint must be limited in sensor"), limited= and autolimits
    resolved as for the joint (a class's range counts, 0 0 is none); urdf2dyn loaded it."""
    xml, words = LIMITS[case]
    assert_as_mujoco(xml, words)


SCHEMA = {
    "geomdist sensor": (_refs(_sensor('<geomdist geom1="g" geom2="g2"/>')),
                        ["<geomdist>", "<sensor>", "unrecognized element", "line 1"]),
    "unknown sensor": (_refs(_sensor('<foo/>')), ["<foo>", "<sensor>"]),
    "clock sensor": (_refs(_sensor('<clock/>')), None),
    "unknown equality": (_refs(_section("equality", '<flexvert flex="x"/>')),
                         ["<flexvert>", "<equality>"]),
    "unknown contact element": (_refs(_section("contact", '<foo/>')), ["<foo>", "<contact>"]),
    "unknown tendon": (_refs(_section("tendon", '<foo/>')), ["<foo>", "<tendon>"]),
    "site in a fixed tendon": (_refs(_section("tendon", '<fixed><site site="s"/></fixed>')),
                               ["<site>", "<fixed>"]),
    "joint in a spatial tendon": (
        _refs(_section("tendon", '<spatial><site site="s"/><joint joint="j" coef="1"/>'
                                 '<site site="s2"/></spatial>')), ["<joint>", "<spatial>"]),
    "flexstrain of an unknown flex": (_refs(_section("equality", '<flexstrain flex="x"/>')),
                                      _missing("flexstrain", "flex")),
    "unknown custom element": (_refs(_section("custom", '<foo/>')), ["<foo>", "<custom>"]),
    "unknown element in a tuple": (_refs(_section("custom", '<tuple name="u"><foo/></tuple>')),
                                   ["<foo>", "<tuple>"]),
    "unknown extension element": (_refs(_section("extension", '<foo/>')),
                                  ["<foo>", "<extension>"]),
    "custom numeric and text": (_refs(_section("custom", '<numeric name="n" data="1"/>'
                                                         '<text name="x" data="a"/>')), None),
    "distance of a body and a geom": (_refs(_sensor('<distance body1="b" geom2="g2"/>')), None),
    "distance of nothing": (_refs(_sensor('<distance geom2="g2"/>')),
                            ["<distance>", "geom1=", "body1=", "neither", "line 1"]),
    "normal of a geom and a body twice": (
        _refs(_sensor('<normal geom1="g" geom2="g2" body2="c"/>')),
        ["<normal>", "geom2=", "body2=", "both"]),
    "fromto without a second": (_refs(_sensor('<fromto geom1="g"/>')),
                                ["<fromto>", "geom2=", "neither"]),
}


@pytest.mark.parametrize("case", sorted(SCHEMA))
def test_unknown_elements_are_refused_as_mujoco_refuses_them(case):
    """An element MuJoCo 4's schema does not have in <sensor> (<geomdist>, which MuJoCo 4
    does not know), <equality>, <contact>, <tendon>, a tendon's path, <custom>, a <tuple> or
    <extension>, and a <distance>, <normal> or <fromto> sensor without exactly one of geom1=
    and body1= (geom2= and body2=): MuJoCo refuses it ("unrecognized element", "one of ...
    must be specified"), urdf2dyn loaded it."""
    xml, words = SCHEMA[case]
    assert_as_mujoco(xml, words)


_PATH_WORLD = ('<worldbody><body name="b"><joint name="j"/><geom name="g" size="0.1"/>'
               '<site name="s"/><body><joint name="k" axis="0 1 0"/>'
               '<geom name="g2" type="cylinder" size="0.1 0.1"/><site name="s2"/>'
               '<site name="s3"/><geom name="gb" type="box" size="0.1 0.1 0.1"/>'
               '</body></body></worldbody>')


def _path(*items, world=_PATH_WORLD, tendons=""):
    """A model with one spatial tendon through items: 's' a site, 'g' a geom, 'p' a pulley,
    each with its name ('s2', 'g2', 'gb') or attributes after a ':' ('p:divisor="0"'); world
    its <worldbody>, tendons more tendons."""
    parts = []
    for item in items:
        what, _, rest = item.partition(":")
        if what == "p":
            parts.append("<pulley " + (rest or 'divisor="1"') + "/>")
        elif what.startswith("s"):
            parts.append(f'<site site="{what}"/>')
        else:
            parts.append(f'<geom geom="{what}" {rest}/>')
    return doc(world, _section("tendon", tendons, "<spatial>" + "".join(parts) + "</spatial>"))


PATHS = {
    "two sites": (_path("s", "s2"), None),
    "site geom site": (_path("s", "g", "s2"), None),
    "a cylinder with its side site": (_path("s", 'g2:sidesite="s3"', "s2"), None),
    "pulley first": (_path("p", "s", "s2"), None),
    "two branches": (_path("s", "s2", "p", "s", "s3"), None),
    "one site": (_path("s"), ["<spatial>", "two", "line 1"]),
    "starts with a geom": (_path("g", "s2"), ["<geom>", "between two sites", "line 1"]),
    "ends with a geom": (_path("s", "g"), ["<geom>", "between two sites"]),
    "two geoms": (_path("s", "g", "g2", "s2"), ["<geom>", "between two sites"]),
    "a box": (_path("s", "gb", "s2"), ["<geom>", 'geom="gb"', "sphere or cylinder"]),
    "ends with a pulley": (_path("s", "s2", "p"), ["<pulley>", "end"]),
    "two pulleys": (_path("s", "s2", "p", "p", "s", "s3"), ["<pulley>", "consecutive"]),
    "a branch of one site": (_path("s", "s2", "p", "s3"), ["<site>", "pulley"]),
    "a geom after a pulley": (_path("s", "g", "p", "s", "s3"), ["<geom>", "between two sites"]),
    "a site between pulleys": (_path("s", "p", "g", "s3"), ["<site>", "pulley"]),
    "divisor 0": (_path("s", "s2", 'p:divisor="0"', "s", "s3"),
                  ["<pulley>", "divisor", "positive"]),
    "no divisor": (_path("s", "s2", "p: ", "s", "s3"), ["<pulley>", "divisor=", "required"]),
    "one site twice": (_path("s", "s"), ["<site>", "'s'", "repeated"]),
}


@pytest.mark.parametrize("case", sorted(PATHS))
def test_spatial_tendon_paths_are_checked_as_mujoco_checks_them(case):
    """MuJoCo's rules for a spatial tendon's path: at least two elements, a geom (a sphere or
    a cylinder) between two sites, a pulley neither last nor next to another, each site
    beside a site or geom (not only pulleys), no site twice in a row, a pulley's divisor given
    and positive. urdf2dyn loaded paths breaking each of them."""
    xml, words = PATHS[case]
    assert_as_mujoco(xml, words)


MISPLACED = {
    "free joint below a body": (
        doc('<worldbody><body><geom size="1"/><body><freejoint/><geom size="1"/></body></body>'
            '</worldbody>'), ["free joint", "child of the world", "line 1"]),
    "free joint beside a hinge": (
        doc('<worldbody><body><joint/><freejoint/><geom size="1"/></body></worldbody>'),
        ["free joint", "only joint", "line 1"]),
    "free joint in a frame of the world": (
        doc('<worldbody><frame><body><freejoint/><geom size="1"/></body></frame></worldbody>'),
        None),
    "hinge then ball": (
        doc('<worldbody><body><joint/><joint type="ball"/><geom size="1"/></body></worldbody>'),
        None),
}


@pytest.mark.parametrize("case", sorted(MISPLACED))
def test_misplaced_free_joints_are_refused_naming_their_line(case):
    """A free joint below another body, or beside another joint: MuJoCo refuses it ("free
    joint can only be used on top level", "more than 6 dofs"); urdf2dyn refused it without
    the joint's line."""
    xml, words = MISPLACED[case]
    assert_as_mujoco(xml, words)


_PATH_ITEMS = st.sampled_from(["s", "s2", "s3", "g", "g2", "gb", "p", 'g2:sidesite="s3"'])
_SENSED = st.sampled_from(['<jointlimitpos joint="{j}"/>', '<jointlimitfrc joint="{j}"/>',
                           '<tendonlimitvel tendon="{t}"/>', '<geomdist geom1="g" geom2="g2"/>',
                           '<clock/>', '<plugin plugin="foo.bar"/>'])
_PLUGGED = st.sampled_from(['<plugin plugin="{p}" joint="j"/>',
                            '<plugin instance="{i}" joint="j"/>', '<plugin joint="j"/>'])


@st.composite
def _path_and_sensor_model(draw):
    """A spatial tendon through up to six drawn sites, geoms and pulleys, up to three sensors
    of limits or of kinds MuJoCo 4 does not know, naming joints and tendons limited or not,
    and up to two plugin actuators naming plugins and instances declared or not (a declared
    instance of mujoco.pid always drives one: MuJoCo's pid plugin needs it)."""
    world = _PATH_WORLD.replace("</worldbody>", '<body><joint name="r" type="ball" '
                                'range="0 1"/><geom size="0.1"/></body><body><joint name="q" '
                                'type="ball"/><geom size="0.1"/></body></worldbody>')
    world = world.replace('<joint name="k" axis="0 1 0"/>',
                          '<joint name="k" axis="0 1 0" range="0 1"/>')
    tendons = ('<fixed name="t"><joint joint="j" coef="1"/></fixed><fixed name="tl" '
               'range="0 1"><joint joint="j" coef="1"/></fixed>')
    xml = _path(*draw(st.lists(_PATH_ITEMS, min_size=1, max_size=6)), world=world,
                tendons=tendons)
    sensors = [draw(_SENSED).format(j=draw(st.sampled_from(["j", "k", "r", "q"])),
                                    t=draw(st.sampled_from(["t", "tl"])))
               for _ in range(draw(st.integers(0, 3)))]
    plugged = [draw(_PLUGGED).format(p=draw(st.sampled_from(["mujoco.pid", "foo.bar"])),
                                     i=draw(st.sampled_from(["i", "zz"])))
               for _ in range(draw(st.integers(0, 2)))]
    declared = draw(st.sampled_from(["", "mujoco.pid", "mujoco.pid:i"]))
    if declared:
        xml = xml.replace("<mujoco>", "<mujoco>" + _ext(declared), 1)
    if declared.endswith(":i"):
        plugged.append('<plugin instance="i" joint="j"/>')
    if sensors:
        xml = xml.replace("</mujoco>", _section("sensor", *sensors) + "</mujoco>")
    if plugged:
        xml = xml.replace("</mujoco>", actuators(*plugged) + "</mujoco>")
    return xml


@settings(max_examples=200, deadline=None)
@given(_path_and_sensor_model())
def test_random_paths_and_sensors_refused_exactly_where_mujoco_refuses(xml):
    """Random spatial tendon paths, limit sensors on limited and free joints and tendons,
    plugin sensors declared or not, and sensors MuJoCo 4 does not know: urdf2dyn refuses
    exactly when MuJoCo does (never with another exception), so a file MuJoCo loads loads."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


_PID_USED = actuators('<plugin instance="i" joint="j"/>')
REGISTERED = {
    "pid declared": (_refs(_ext("mujoco.pid")), None),
    "touch grid declared": (_refs(_ext("mujoco.sensor.touch_grid")), None),
    "sdf torus declared": (_refs(_ext("mujoco.sdf.torus")), None),
    "elasticity cable declared": (
        _refs(_ext("mujoco.elasticity.cable")),
        ["<plugin>", 'plugin="mujoco.elasticity.cable"', "not found", "mujoco.pid", "line 1",
         "remove"]),
    "unknown plugin declared": (_refs(_ext("mujoco.pid", "foo.bar")),
                                ["<plugin>", 'plugin="foo.bar"', "not found", "line 1"]),
    "pid instance driving an actuator": (_refs(_ext("mujoco.pid:i"), _PID_USED), None),
    "pid instance no actuator uses": (
        _refs(_ext("mujoco.pid:i")),
        ["<instance>", "'i'", "mujoco.pid", "no actuator", "line 1", "<plugin instance="]),
    "second pid instance no actuator uses": (
        _refs(_section("extension", '<plugin plugin="mujoco.pid"><instance name="i"/>'
                                    '<instance name="i2"/></plugin>'), _PID_USED),
        ["<instance>", "'i2'", "no actuator"]),
    "pid as a sensor": (
        _refs(_ext("mujoco.pid"), _sensor('<plugin plugin="mujoco.pid" objtype="body" '
                                          'objname="b"/>')),
        ["<plugin>", "mujoco.pid", "does not support sensors", "line 1", "<actuator>"]),
    "pid instance as a sensor": (
        _refs(_ext("mujoco.pid:i"), _PID_USED,
              _sensor('<plugin instance="i" objtype="body" objname="b"/>')),
        ["<plugin>", "mujoco.pid", "does not support sensors"]),
    "touch grid as an actuator": (
        _refs(_ext("mujoco.sensor.touch_grid"),
              actuators('<plugin plugin="mujoco.sensor.touch_grid" joint="j"/>')),
        ["<plugin>", "mujoco.sensor.touch_grid", "does not support actuators", "<sensor>"]),
    "sdf torus as an actuator": (
        _refs(_ext("mujoco.sdf.torus"), actuators('<plugin plugin="mujoco.sdf.torus" '
                                                  'joint="j"/>')),
        ["<plugin>", "mujoco.sdf.torus", "does not support actuators"]),
}


@pytest.mark.parametrize("case", sorted(REGISTERED))
def test_plugins_are_those_mujoco_registers_used_as_they_support(case):
    """MuJoCo 4.0 registers mujoco.pid (an actuator), mujoco.sensor.touch_grid (a sensor)
    and mujoco.sdf.* (shapes): it refuses any other plugin an <extension> declares ("plugin
    ... not found"), a plugin used as what it does not support ("does not support sensors"),
    and an instance of mujoco.pid no actuator uses (its init fails); urdf2dyn loaded each."""
    xml, words = REGISTERED[case]
    assert_as_mujoco(xml, words)


def _declared(plugin, *instances):
    """An <extension> declaring plugin with instances, each the XML inside its <plugin>."""
    return _section("extension", f'<plugin plugin="{plugin}">' + "".join(instances)
                    + "</plugin>")


_KP = '<config key="kp" value="1"/>'
_NO_NAME, _NO_KEY = "required attribute missing: 'name'", "required attribute missing: 'key'"
_REPEATED, _TWICE = "repeated name 'i' in plugin", "duplicate config key: kp"
_NEITHER = "neither 'plugin' nor 'instance' is specified"
INSTANCES = {       # the case: its XML, MuJoCo's reason, and words urdf2dyn's refusal has
    "unnamed pid instance": (
        _refs(_declared("mujoco.pid", "<instance/>")), _NO_NAME,
        ["<instance>", "name=", "required attribute missing", "line 1", "give it"]),
    "unnamed touch grid instance": (
        _refs(_declared("mujoco.sensor.touch_grid", "<instance/>")), _NO_NAME,
        ["<instance>", "name=", "required attribute missing"]),
    "unnamed sdf instance": (_refs(_declared("mujoco.sdf.torus", "<instance/>")), _NO_NAME,
                             ["<instance>", "name=", "required attribute missing"]),
    "unnamed instance holding a config without key": (
        _refs(_declared("mujoco.sdf.torus", '<instance><config value="1"/></instance>')),
        _NO_NAME, ["<instance>", "name=", "required attribute missing"]),
    "two instances of one name in one plugin": (
        _refs(_declared("mujoco.pid", '<instance name="i"/>\n<instance name="i"/>'),
              _PID_USED), _REPEATED,
        ["two plugin instances", "'i'", "repeated name", "line 2", "other at line 1",
         "rename"]),
    "two instances of one name in two plugins": (
        _refs(_section("extension", '<plugin plugin="mujoco.pid"><instance name="i"/>'
                                    '</plugin><plugin plugin="mujoco.sdf.torus"><instance '
                                    'name="i"/></plugin>'), _PID_USED), _REPEATED,
        ["two plugin instances", "'i'", "repeated name"]),
    "two instances of one name in two extensions": (
        _refs(_declared("mujoco.sdf.torus", '<instance name="i"/>'),
              _declared("mujoco.sdf.torus", '<instance name="i"/>')), _REPEATED,
        ["two plugin instances", "'i'", "repeated name"]),
    "two pid instances of one name no actuator uses": (
        _refs(_declared("mujoco.pid", '<instance name="i"/><instance name="i"/>')), _REPEATED,
        ["two plugin instances", "'i'", "repeated name"]),
    "config without key in an instance": (
        _refs(_declared("mujoco.pid", '<instance name="i"><config value="1"/></instance>'),
              _PID_USED), _NO_KEY,
        ["<config>", "key=", "required attribute missing", "line 1"]),
    "config without value in an instance": (
        _refs(_declared("mujoco.pid", '<instance name="i"><config key="kp"/></instance>'),
              _PID_USED), "required attribute missing: 'value'",
        ["<config>", "value=", "required attribute missing"]),
    "config without key in a plugin actuator": (
        _refs(_ext("mujoco.pid"), actuators('<plugin plugin="mujoco.pid" joint="j"><config '
                                            'value="1"/></plugin>')), _NO_KEY,
        ["<config>", "key=", "required attribute missing"]),
    "config without key in a plugin sensor": (
        _refs(_ext("mujoco.sensor.touch_grid"),
              _sensor('<plugin plugin="mujoco.sensor.touch_grid" objtype="site" objname="s">'
                      '<config value="1"/></plugin>')), _NO_KEY,
        ["<config>", "key=", "required attribute missing"]),
    "one config key twice in an instance": (
        _refs(_declared("mujoco.pid", f'<instance name="i">{_KP}\n{_KP}</instance>'),
              _PID_USED), _TWICE,
        ["<config>", "'kp'", "duplicate config key", "line 2", "other at line 1"]),
    "one config key twice in a plugin actuator": (
        _refs(_ext("mujoco.pid"), actuators(f'<plugin plugin="mujoco.pid" joint="j">{_KP}'
                                            f'{_KP}</plugin>')), _TWICE,
        ["<config>", "'kp'", "duplicate config key"]),
    "two unnamed instances": (      # name="" is a name MuJoCo does not compare
        _refs(_declared("mujoco.sdf.torus", '<instance name=""/><instance name=""/>')), None,
        None),
    "plugin actuator of a plugin with instance empty": (
        _refs(_ext("mujoco.pid"), actuators('<plugin plugin="mujoco.pid" instance="" '
                                            'joint="j"/>')), None, None),
    "plugin actuator of an instance with plugin empty": (
        _refs(_ext("mujoco.pid:i"), actuators('<plugin plugin="" instance="i" joint="j"/>')),
        None, None),
    "plugin actuator of instance empty only": (
        _refs(_ext("mujoco.pid:i"), _PID_USED, actuators('<plugin instance="" joint="j"/>')),
        _NEITHER, ["<plugin>", "neither", "line 1"]),
    "plugin sensor of instance empty only": (
        _refs(_ext("mujoco.pid:i"), _PID_USED, _sensor('<plugin instance="" objtype="body" '
                                                       'objname="b"/>')),
        _NEITHER, ["<plugin>", "neither"]),
    "pid instance named empty driven by instance empty": (
        _refs(_declared("mujoco.pid", '<instance name=""/>'),
              actuators('<plugin instance="" joint="j"/>')), _NEITHER, ["<plugin>", "neither"]),
    "pid instance named empty": (
        _refs(_declared("mujoco.pid", '<instance name=""/>')), "plugin->init failed",
        ["<instance>", 'name=""', "mujoco.pid", "no actuator", "give it a name", "line 1"]),
}


@pytest.mark.parametrize("case", sorted(INSTANCES))
def test_plugin_instances_and_configs_are_checked_as_mujoco_checks_them(case):
    """MuJoCo's schema requires an <instance>'s name= and a <config>'s key= and value=
    ("required attribute missing"), its parser refuses a <config> key given twice in one
    element ("duplicate config key") and its compiler two instances of one name, in one
    plugin or in two ("repeated name ... in plugin"), before it looks for the actuator of a
    pid instance; urdf2dyn loaded each, or told the user to drive an unnamed pid instance
    with instance="" (which MuJoCo refuses too). A plugin actuator's or sensor's plugin=""
    or instance="" is none, as MuJoCo reads it: urdf2dyn refused files MuJoCo loads, and
    loaded one driving a pid instance named "" with instance=""."""
    xml, reason, words = INSTANCES[case]
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)
    if words:
        assert 'instance=""' not in urdf2dyn_error(xml)     # advice MuJoCo would refuse


def _pid_config(key):
    """A pid instance driving an actuator, its <config> giving key."""
    return _refs(_declared("mujoco.pid", f'<instance name="i"><config key="{key}" value="1"/>'
                                         '</instance>'), _PID_USED)


def _sdf_config(shape, key):
    """An instance of mujoco.sdf.<shape> whose <config> gives key."""
    return _refs(_declared(f"mujoco.sdf.{shape}", f'<instance name="i"><config key="{key}" '
                                                  'value="1"/></instance>'))


_PID_KEYS = ["mujoco.pid", "kp, ki, kd, imax, slewmax"]
_ZZ = "unrecognized attribute 'plugin:zz'"
CONFIG_KEYS = {     # the case: its XML, MuJoCo's reason, and words urdf2dyn's refusal has
    "pid instance key unknown": (
        _pid_config("zz"), _ZZ,
        ["<config>", 'key="zz"', "mujoco.pid", "unrecognized attribute", "line 1",
         "kp, ki, kd, imax, slewmax"]),
    "pid instance key empty": (_pid_config(""), "unrecognized attribute 'plugin:'",
                               ["<config>", 'key=""', *_PID_KEYS]),
    "pid instance key in capitals": (_pid_config("KP"), "'plugin:KP'",
                                     ["<config>", 'key="KP"', *_PID_KEYS]),
    "pid instance key with a space": (_pid_config(" kp"), "'plugin: kp'",
                                      ["<config>", 'key=" kp"']),
    "pid instance key of another plugin": (_pid_config("radius"), "'plugin:radius'",
                                           ["<config>", 'key="radius"', *_PID_KEYS]),
    "pid instance key kd": (_pid_config("kd"), None, None),
    "pid instance key imax": (_pid_config("imax"), None, None),
    "pid instance no actuator uses, key unknown": (
        _refs(_declared("mujoco.pid", '<instance name="i"><config key="zz" value="1"/>'
                                      '</instance>')), _ZZ, ["<config>", 'key="zz"']),
    "pid actuator key unknown": (
        _refs(_ext("mujoco.pid"), actuators('<plugin plugin="mujoco.pid" joint="j">\n'
                                            '<config key="zz" value="1"/></plugin>')), _ZZ,
        ["<config>", 'key="zz"', "line 2", *_PID_KEYS, "remove the <config>"]),
    "pid actuator key empty, instance empty": (
        _refs(_ext("mujoco.pid"), actuators('<plugin plugin="mujoco.pid" instance="" '
                                            'joint="j"><config key="" value="1"/></plugin>')),
        "'plugin:'", ["<config>", 'key=""', *_PID_KEYS]),
    "pid actuator key kd": (
        _refs(_ext("mujoco.pid"), actuators('<plugin plugin="mujoco.pid" joint="j"><config '
                                            'key="kd" value="1"/></plugin>')), None, None),
    "pid actuator of an instance, its own key unknown": (     # MuJoCo reads the instance's
        _refs(_ext("mujoco.pid:i"), actuators('<plugin instance="i" joint="j"><config '
                                              'key="zz" value="1"/></plugin>')), None, None),
    "pid actuator of a plugin and an instance, its own key unknown": (
        _refs(_ext("mujoco.pid:i"), actuators('<plugin plugin="mujoco.pid" instance="i" '
                                              'joint="j"><config key="zz" value="1"/>'
                                              '</plugin>')), None, None),
    "touch grid sensor key unknown": (
        _refs(_ext("mujoco.sensor.touch_grid"),
              _sensor('<plugin plugin="mujoco.sensor.touch_grid" objtype="site" objname="s">'
                      '<config key="zz" value="1"/></plugin>')),
        "'plugin:zz' for plugin mujoco.sensor.touch_grid",
        ["<config>", 'key="zz"', "mujoco.sensor.touch_grid", "nchannel, size, fov, gamma"]),
    "torus key of another sdf": (_sdf_config("torus", "radius"), "'plugin:radius'",
                                 ["<config>", 'key="radius"', "mujoco.sdf.torus",
                                  "radius1, radius2"]),
    "unnamed torus instance key unknown": (
        _refs(_declared("mujoco.sdf.torus", '<instance name=""><config key="zz" value="1"/>'
                                            '</instance>')), _ZZ, ["<config>", 'key="zz"']),
    "bolt key unknown": (_sdf_config("bolt", "zz"), _ZZ, ["mujoco.sdf.bolt", "takes radius;"]),
    "bowl key unknown": (_sdf_config("bowl", "zz"), _ZZ,
                         ["mujoco.sdf.bowl", "height, radius, thickness"]),
    "gear key unknown": (_sdf_config("gear", "zz"), _ZZ,
                         ["mujoco.sdf.gear", "alpha, diameter, teeth, thickness, "
                                             "innerdiameter"]),
    "nut key of another sdf": (_sdf_config("nut", "radius1"), "'plugin:radius1'",
                               ["mujoco.sdf.nut", "takes radius;"]),
    **{f"{shape} key {key}": (_sdf_config(shape, key), None, None)
       for shape, keys in [("bolt", ["radius"]), ("bowl", ["height", "radius", "thickness"]),
                           ("gear", ["alpha", "diameter", "teeth", "thickness",
                                     "innerdiameter"]),
                           ("nut", ["radius"]), ("torus", ["radius1", "radius2"])]
       for key in keys},
}


@pytest.mark.parametrize("case", sorted(CONFIG_KEYS))
def test_config_keys_are_the_settings_the_plugin_registers(case):
    """Each plugin MuJoCo 4.0 registers takes the <config> keys it lists (mujoco.pid kp, ki,
    kd, imax, slewmax; touch_grid nchannel, size, fov, gamma; each sdf its shape's sizes):
    MuJoCo refuses any other key, "" too, in an <instance> (used or not) or in a plugin
    actuator or sensor of no instance ("unrecognized attribute 'plugin:zz' for plugin
    mujoco.pid"), and ignores those of one naming an instance; urdf2dyn loaded each."""
    xml, reason, words = CONFIG_KEYS[case]
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


# The keys each plugin takes that need no other to load (mujoco.pid's ki and slewmax need
# an actdim="1" actuator; touch_grid a size and fov), and keys none of them takes.
_SAFE_KEYS = {"mujoco.pid": ["kp", "kd", "imax"], "mujoco.sdf.bolt": ["radius"],
              "mujoco.sdf.bowl": ["height", "radius", "thickness"],
              "mujoco.sdf.gear": ["alpha", "diameter", "teeth", "thickness", "innerdiameter"],
              "mujoco.sdf.nut": ["radius"], "mujoco.sdf.torus": ["radius1", "radius2"]}
_FOREIGN_KEYS = ["zz", "", "KP", "radius3", "plugin:kp"]


@st.composite
def _config_keys_model(draw):
    """A model declaring one plugin MuJoCo 4.0 registers with an <instance> whose <config>
    elements give up to three distinct keys, drawn from those it takes, another plugin's and
    none's; for mujoco.pid, an actuator driven by the instance, or by the plugin with its own
    drawn keys, or by the instance with keys of its own (which MuJoCo ignores)."""
    plugin = draw(st.sampled_from(sorted(_SAFE_KEYS)))
    any_key = st.sampled_from(sorted({k for ks in _SAFE_KEYS.values() for k in ks})
                              + _FOREIGN_KEYS)
    key = st.one_of(st.sampled_from(_SAFE_KEYS[plugin]), any_key)     # often its own

    def configs():
        keys = draw(st.lists(key, max_size=3, unique=True))
        return "".join(f'<config key="{k}" value="1"/>' for k in keys)
    parts = [_declared(plugin, f'<instance name="i">{configs()}</instance>')]
    if plugin == "mujoco.pid":
        parts.append(actuators('<plugin instance="i" joint="j"/>',
                               draw(st.sampled_from(['<plugin plugin="mujoco.pid" joint="k">',
                                                     '<plugin instance="i" joint="k">']))
                               + configs() + "</plugin>"))
    return _refs(*parts)


@settings(max_examples=150, deadline=None)
@given(_config_keys_model())
def test_random_config_keys_refused_exactly_where_mujoco_refuses(xml):
    """Random <config> keys, each a setting of the plugin it configures or not, in an
    <instance> or a plugin actuator: urdf2dyn refuses exactly when MuJoCo does."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


_SKIN = ('<skin vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"><bone body="b" bindpos="0 0 0" '
         'bindquat="1 0 0 0" vertid="0 1 2" vertweight="1 1 1"/>{}</skin>')
_FLEX = '<flex name="f" dim="1" body="b c" vertex="0 0 0 0 0 0" element="0 1">{}</flex>'
SCHEMA_MORE = {
    "unknown element under mujoco": (_refs("<foo/>"), ["<foo>", "<mujoco>", "unrecognized",
                                                       "line 1", "remove it"]),
    "frame and body under mujoco": (_refs("<frame/>", "<body/>"), None),
    "a comment under mujoco": (_refs("<!-- a note -->"), None),
    "skin and flex": (_refs(_section("deformable", _SKIN.format(""),
                                     _FLEX.format("<contact/><edge/>"))), None),
    "unknown element under deformable": (_refs(_section("deformable", "<foo/>")),
                                         ["<foo>", "<deformable>", "unrecognized"]),
    "unknown element in a skin": (_refs(_section("deformable", _SKIN.format("<foo/>"))),
                                  ["<foo>", "<skin>", "unrecognized"]),
    "unknown element in an asset's skin": (_refs(_section("asset", _SKIN.format("<foo/>"))),
                                           ["<foo>", "<skin>", "unrecognized"]),
    "unknown element in a bone": (
        _refs(_section("deformable", _SKIN.format("").replace('"1 1 1"/>', '"1 1 1"><foo/>'
                                                                           '</bone>'))),
        ["<foo>", "<bone>", "unrecognized"]),
    "unknown element in a flex": (_refs(_section("deformable", _FLEX.format("<foo/>"))),
                                  ["<foo>", "<flex>", "unrecognized"]),
    "unknown element in an extension's plugin": (
        _refs(_section("extension", '<plugin plugin="mujoco.pid"><foo/></plugin>')),
        ["<foo>", "<plugin>", "unrecognized", "line 1"]),
    "config directly in an extension's plugin": (
        _refs(_section("extension", '<plugin plugin="mujoco.pid"><config key="kp" '
                                    'value="1"/></plugin>')),
        ["<config>", "<plugin>", "unrecognized", "<instance>"]),
    "unknown element in an instance": (
        _refs(_section("extension", '<plugin plugin="mujoco.pid"><instance name="i"><foo/>'
                                    '</instance></plugin>'), _PID_USED),
        ["<foo>", "<instance>", "unrecognized"]),
    "unknown element in a config": (
        _refs(_section("extension", '<plugin plugin="mujoco.pid"><instance name="i"><config '
                                    'key="kp" value="1"><foo/></config></instance></plugin>'),
              _PID_USED), ["<foo>", "<config>", "unrecognized"]),
    "config in a plugin actuator": (
        _refs(_ext("mujoco.pid"), actuators('<plugin plugin="mujoco.pid" joint="j"><config '
                                            'key="kp" value="2"/></plugin>')), None),
    "unknown element in a plugin actuator": (
        _refs(_ext("mujoco.pid"), actuators('<plugin plugin="mujoco.pid" joint="j"><foo/>'
                                            '</plugin>')), ["<foo>", "<plugin>", "unrecognized"]),
    "unknown element in a plugin sensor": (
        _refs(_ext("mujoco.sensor.touch_grid"),
              _sensor('<plugin plugin="mujoco.sensor.touch_grid" objtype="site" objname="s">'
                      '<foo/></plugin>')), ["<foo>", "<plugin>", "unrecognized"]),
}


@pytest.mark.parametrize("case", sorted(SCHEMA_MORE))
def test_unknown_elements_anywhere_mujoco_checks_are_refused(case):
    """MuJoCo 4's schema (src/xml/mjcf.schema) refuses an element it does not have directly
    under <mujoco>, under <deformable>, in a <skin> (of <deformable> or <asset>), a <bone>,
    a <flex>, an <extension>'s <plugin> (only <instance>), an <instance> or a plugin
    actuator or sensor (only <config>) or a <config> (nothing); urdf2dyn loaded each."""
    xml, words = SCHEMA_MORE[case]
    assert_as_mujoco(xml, words)


SELF = {
    "distance of a geom to itself": (
        _refs(_sensor('<distance geom1="g" geom2="g"/>')),
        ["<distance>", 'geom1="g"', "geom2=", "itself", "must be different", "line 1"]),
    "normal of a geom to itself": (_refs(_sensor('<normal geom1="g2" geom2="g2"/>')),
                                   ["<normal>", "itself"]),
    "fromto of a body to itself": (_refs(_sensor('<fromto body1="b" body2="b"/>')),
                                   ["<fromto>", 'body1="b"', "itself"]),
    "distance of a geom to its own body": (_refs(_sensor('<distance geom1="g" body2="b"/>')),
                                           None),
    "distance of two geoms": (_refs(_sensor('<distance geom1="g" geom2="g2"/>')), None),
    "contact pair of a geom with itself": (_refs(_section("contact", '<pair geom1="g" '
                                                                     'geom2="g"/>')), None),
}


@pytest.mark.parametrize("case", sorted(SELF))
def test_collision_sensors_between_an_object_and_itself_are_refused(case):
    """A <distance>, <normal> or <fromto> sensor measures between two geoms or bodies:
    MuJoCo refuses one naming the same geom (or body) twice ("1st body/geom must be
    different from 2nd body/geom"); urdf2dyn loaded it. A geom and its own body, and a
    contact pair of a geom with itself, load in both."""
    xml, words = SELF[case]
    assert_as_mujoco(xml, words)


_DRAWN_SENSORS = st.sampled_from([
    '<distance geom1="{g}" geom2="{h}"/>', '<normal body1="{b}" body2="{c}"/>',
    '<fromto geom1="{g}" body2="{b}"/>', '<plugin plugin="{p}" objtype="body" objname="b"/>',
    '<plugin instance="{i}" objtype="body" objname="b"/>', '<clock/>', '<foo/>'])
_DRAWN_ACTUATORS = st.sampled_from(['<plugin plugin="{p}" joint="j"/>',
                                    '<plugin instance="{i}" joint="j"/>',
                                    '<plugin plugin="{p}" joint="j"><config key="{k}" '
                                    'value="1"/></plugin>',
                                    '<plugin instance="{i}" joint="j"><config key="{k}" '
                                    'value="1"/></plugin>',
                                    '<plugin plugin="{p}" joint="j"><{x}/></plugin>',
                                    '<plugin plugin="{p}" joint="j"><config value="1"/>'
                                    '</plugin>',
                                    f'<plugin plugin="{{p}}" joint="j">{_KP}{_KP}</plugin>',
                                    '<motor joint="k"/>'])
_DRAWN_DECLARATIONS = st.sampled_from(["mujoco.pid", "mujoco.sdf.torus",
                                       "mujoco.elasticity.cable", "foo.bar"])
_SETTING = {"mujoco.pid": "kp", "mujoco.sdf.torus": "radius1"}     # one each plugin knows
_UNKNOWN_KEYS = ["zz", "", "radius"]    # none a drawn plugin takes ("radius": another's)
_DRAWN_INSTANCES = st.sampled_from([
    '<instance name="{n}"/>', '<instance/>', '<instance name="{n}"><config key="{k}" '
    'value="1"/></instance>', '<instance name="{n}"><config value="1"/></instance>',
    '<instance name="{n}"><config key="{k}"/></instance>', '<instance name="{n}"><config '
    'key="{k}" value="1"/><config key="{k}" value="2"/></instance>'])
_DRAWN_TOP = st.sampled_from(["", "<foo/>", "<frame/>", "<!-- note -->",
                              _section("deformable", _SKIN.format("{inner}")),
                              _section("deformable", _FLEX.format("{inner}")),
                              _section("asset", _SKIN.format("{inner}"))])


@st.composite
def _plugin_model(draw):
    """A model MuJoCo loads (_refs') with up to two drawn plugin declarations (registered by
    MuJoCo 4 or not) of up to two instances each (named, name="" or not, one name in one
    plugin or two, holding <config> elements with or without key= and value=, a key the
    plugin takes or not, or one key twice), up to two plugin or motor actuators and two
    sensors (plugins supporting them or not, declared or not, instances declared, "" or not,
    <config> (with or without key=, a key the plugin takes or not, one key twice) or other
    children; pair sensors of two geoms or bodies or one twice), and an
    element under <mujoco> (known or not, a skin or flex holding a known element or not)."""
    def declaration(plugin):
        keys = st.sampled_from([_SETTING.get(plugin, "kp"), *_UNKNOWN_KEYS])
        instances = [draw(_DRAWN_INSTANCES).format(n=draw(st.sampled_from(["i", "i2", ""])),
                                                   k=draw(keys))
                     for _ in range(draw(st.integers(0, 2)))]
        return f'<plugin plugin="{plugin}">' + "".join(instances) + "</plugin>"

    def fill(template):
        return template.format(g=draw(st.sampled_from(["g", "g2"])),
                               h=draw(st.sampled_from(["g", "g2"])),
                               b=draw(st.sampled_from(["b", "c"])),
                               c=draw(st.sampled_from(["b", "c"])),
                               p=draw(st.sampled_from(["mujoco.pid", "mujoco.sdf.torus",
                                                       "foo.bar"])),
                               i=draw(st.sampled_from(["i", "i2", "zz", ""])),
                               x=draw(st.sampled_from(["config", "instance", "foo"])),
                               k=draw(st.sampled_from(["kp", *_UNKNOWN_KEYS])),
                               inner=draw(st.sampled_from(["", "<foo/>", "<contact/>"])))
    declared = draw(st.lists(_DRAWN_DECLARATIONS, max_size=2, unique=True))
    parts = [_section("extension", *map(declaration, declared))] if declared else []
    parts.append(fill(draw(_DRAWN_TOP)))
    drawn = [fill(draw(_DRAWN_ACTUATORS)) for _ in range(draw(st.integers(0, 2)))]
    if drawn:
        parts.append(actuators(*drawn))
    drawn = [fill(draw(_DRAWN_SENSORS)) for _ in range(draw(st.integers(0, 2)))]
    if drawn:
        parts.append(_section("sensor", *drawn))
    return _refs(*parts)


@settings(max_examples=300, deadline=None)
@given(_plugin_model())
def test_random_plugins_schema_and_pair_sensors_refused_exactly_where_mujoco_refuses(xml):
    """Random plugin declarations, uses and children, elements under <mujoco>, a skin or a
    flex, and pair sensors of one object or two: urdf2dyn refuses exactly when MuJoCo does
    (never with another exception), so a file MuJoCo loads loads."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


def _pid(configs, attrs="", instance=False):
    """A mujoco.pid actuator on joint k (the model's second actuator, after motor 'a') with
    configs, its own or (instance) those of the <instance> 'i' it drives, and attrs."""
    if instance:
        return _refs(_declared("mujoco.pid", f'<instance name="i">{configs}</instance>'),
                     actuators(f'<plugin instance="i" joint="k" {attrs}/>'))
    return _refs(_ext("mujoco.pid"), actuators(f'<plugin plugin="mujoco.pid" joint="k" '
                                               f'{attrs}>{configs}</plugin>'))


def _cfg(key, value):
    return f'<config key="{key}" value="{value}"/>'


_NEEDS_1 = "actuator 1 has actdim 0, expected 1"
PID_INITS = {       # the case: its XML, MuJoCo's reason, and words urdf2dyn's refusal has
    "ki without actdim": (
        _pid(_cfg("ki", "1")), _NEEDS_1,
        ["actuator 1 (unnamed)", "0 activation states", "keeps 1", "nonzero ki",
         'actdim="1"', "line 1"]),
    "ki with actdim 1": (_pid(_cfg("ki", "1"), 'actdim="1"'), None, None),
    "ki 0 without actdim": (_pid(_cfg("ki", "0")), None, None),
    "ki empty without actdim": (_pid(_cfg("ki", "")), None, None),
    "ki not a number without actdim": (_pid(_cfg("ki", "abc")), None, None),
    "ki nan without actdim": (_pid(_cfg("ki", "nan")), _NEEDS_1, ['actdim="1"']),
    "ki in hexadecimal with actdim 1": (_pid(_cfg("ki", "0x1"), 'actdim="1"'), None, None),
    "named actuator, ki without actdim": (
        _pid(_cfg("ki", "1"), 'name="servo"'), _NEEDS_1, ["actuator 'servo'", 'actdim="1"']),
    "slewmax without actdim": (_pid(_cfg("slewmax", "1")), _NEEDS_1,
                               ["slewmax", 'actdim="1"']),
    "slewmax 0 without actdim": (_pid(_cfg("slewmax", "0")), _NEEDS_1, ['actdim="1"']),
    "slewmax empty": (_pid(_cfg("slewmax", "")), None, None),
    "ki and slewmax with actdim 1": (
        _pid(_cfg("ki", "1") + _cfg("slewmax", "1"), 'actdim="1"'),
        "actuator 1 has actdim 1, expected 2", ["1 activation states", 'actdim="2"']),
    "ki and slewmax with actdim 2": (_pid(_cfg("ki", "1") + _cfg("slewmax", "1"),
                                          'actdim="2"'), None, None),
    "actdim 1 without ki": (_pid(_cfg("kp", "1"), 'actdim="1"'),
                            "actuator 1 has actdim 1, expected 0", ['actdim="0"']),
    "ki, integrator, actdim 1": (
        _pid(_cfg("ki", "1"), 'actdim="1" dyntype="integrator"'),
        "actuator 1 has actdim 1, expected 2", ["integrator", 'actdim="2"']),
    "ki, integrator, actdim 2": (_pid(_cfg("ki", "1"), 'actdim="2" dyntype="integrator"'),
                                 None, None),
    "integrator without actdim": (_pid(_cfg("kp", "1"), 'dyntype="integrator"'), None, None),
    "filter from a class, ki, actdim 1": (
        _pid(_cfg("ki", "1"), 'class="f" actdim="1"').replace(
            "<worldbody>", '<default><default class="f"><general dyntype="filter"/>'
                           '</default></default><worldbody>'),
        "actuator 1 has actdim 1, expected 2", ['actdim="2"']),
    "ki with actdim -1": (_pid(_cfg("ki", "1"), 'actdim="-1"'), _NEEDS_1, ['actdim="1"']),
    "ki with actdim 5000": (_pid(_cfg("ki", "1"), 'actdim="5000"'),
                            "actuator 1 has actdim 5000, expected 1", ["5000 activation"]),
}
# a shortcut default sets a dyntype written nowhere (<position timeconst> filterexact,
# <cylinder> filter, <intvelocity> integrator; a later <position> without timeconst resets a
# <general>'s filter to none) and drops an actdim written before it: first refused where
# MuJoCo loads these, then left to MuJoCo, so that the actdim MuJoCo refuses loaded here
_SHORTCUT_CLASSES = (     # (name, the class's defaults, the actdim mujoco.pid takes with ki)
    ("timeconst", '<position kp="1" timeconst="0.1"/>', 2), ("cylinder", "<cylinder/>", 2),
    ("position after general", '<general dyntype="filter"/><position kp="2"/>', 1),
    ("limited intvelocity", '<intvelocity kp="1" actrange="-1 1"/>', 2),
    ("position after filterexact", '<general dyntype="filterexact"/><position kp="2"/>', 2),
    ("motor after general's actdim", '<general dyntype="filter" actdim="2"/><motor/>', 1),
    ("general after intvelocity", '<intvelocity kp="1"/><general gear="2"/>', 2))


def _in_class(xml, default):
    return xml.replace("<worldbody>", f'<default><default class="c">{default}</default>'
                                      "</default><worldbody>")


for _name, _default, _takes in _SHORTCUT_CLASSES:
    PID_INITS[f"ki, class with a {_name} default, actdim {_takes}"] = (
        _in_class(_pid(_cfg("ki", "1"), f'class="c" actdim="{_takes}"'), _default), None, None)
    _wrong = 1 if _takes != 1 else 2
    PID_INITS[f"ki, class with a {_name} default, actdim {_wrong}"] = (
        _in_class(_pid(_cfg("ki", "1"), f'class="c" actdim="{_wrong}"'), _default),
        f"actuator 1 has actdim {_wrong}, expected {_takes}", [f'actdim="{_takes}"'])
PID_INITS["ki, class with a motor default after general's actdim, no actdim"] = (
    _in_class(_pid(_cfg("ki", "1"), 'class="c"'), '<general actdim="1"/><motor/>'), _NEEDS_1,
    ["0 activation states", 'actdim="1"'])
# a dcmotor default keeps a state for each of inductance, thermal and lugre it is given
# (MuJoCo 4.0.0's actuator_actnum): one, as mujoco.pid takes with ki, was refused as none
for _extra in (' inductance="1"', ' thermal="1 1 1 1 1 1"', ' lugre="1 1 1 1"'):
    PID_INITS[f"ki, class with a dcmotor{_extra} default, no actdim"] = (
        _in_class(_pid(_cfg("ki", "1"), 'class="c"'),
                  f'<dcmotor motorconst="1" resistance="1"{_extra}/>'), None, None)
# a blank actdim= is not given, to MuJoCo: the dyntype's (or the class's) count stands
PID_INITS |= {
    "integrator, actdim blank": (_pid(_cfg("kp", "1"), 'dyntype="integrator" actdim=""'),
                                 None, None),
    "integrator, actdim a space": (_pid(_cfg("kp", "1"), 'dyntype="integrator" actdim=" "'),
                                   None, None),
    "ki, class with actdim 1, own actdim blank": (
        _in_class(_pid(_cfg("ki", "1"), 'class="c" actdim=""'), '<general actdim="1"/>'),
        None, None),
    "ki, class with a filter and a blank actdim": (
        _in_class(_pid(_cfg("ki", "1"), 'class="c"'),
                  '<general dyntype="filter" actdim=" "/>'),
        "actuator 1 has actdim 1, expected 2", ["has 1 activation states", 'actdim="2"']),
}
# a <pid> default sets dyntype pid only with a nonzero ki or slewmax (or a pid class's, which
# it inherits); otherwise none, and the plugin counts its states as for any other actuator
PID_INITS |= {
    "ki, class with a pid kp default, no actdim": (
        _in_class(_pid(_cfg("ki", "1"), 'class="c"'), '<pid kp="1"/>'), _NEEDS_1,
        ["0 activation states", 'actdim="1"']),
    "kp, class with a pid kp default, actdim 1": (
        _in_class(_pid(_cfg("kp", "1"), 'class="c" actdim="1"'), '<pid kp="1"/>'),
        "actuator 1 has actdim 1, expected 0", ['actdim="0"']),
    "ki, class with a pid ki=0 default, actdim 1": (
        _in_class(_pid(_cfg("ki", "1"), 'class="c" actdim="1"'), '<pid kp="1" ki="0"/>'),
        None, None),
    "ki, class with a pid ki default, no actdim": (
        _in_class(_pid(_cfg("ki", "1"), 'class="c"'), '<pid ki="1"/>'), None, None),
    "ki, child of a pid ki class with a pid kp default, no actdim": (
        _pid(_cfg("ki", "1"), 'class="c"').replace(
            "<worldbody>", '<default><default class="p"><pid ki="1"/><default class="c">'
                           '<pid kp="2"/></default></default></default><worldbody>'),
        None, None),
}
# a <dcmotor> default sets actdim to its own states, counted from the inductance, thermal
# and lugre its class chain's <dcmotor> defaults write last (each inherited alone, whatever
# the classes write between them): one above 0 each. A dcmotor with none was left to MuJoCo,
# which refuses mujoco.pid's ki there ("actuator 1 has actdim 0, expected 1") and any actdim
# other than the dcmotor's ("inconsistent state array dimension in DC motor")


def _in_classes(xml, classes):
    """xml with nested classes (outermost first) of (name, defaults), the last one 'c'."""
    opened = "".join(f'<default class="{n}">{d}' for n, d in classes)
    return xml.replace("<worldbody>", f"<default>{opened}{'</default>' * len(classes)}"
                                      "</default><worldbody>")


for _name, _classes, _actdim, _reason, _words in (
        ("bare dcmotor", [("c", f"<dcmotor {_DC}/>")], "", _NEEDS_1,
         ["0 activation states", "<dcmotor>", "keep 1 states"]),
        ("bare dcmotor", [("c", f"<dcmotor {_DC}/>")], "1", _INCONSISTENT,
         ["1 activation states", "keeps 0", "<dcmotor>"]),
        ("dcmotor inductance 0", [("c", f'<dcmotor {_DC} inductance="0"/>')], "", _NEEDS_1,
         ["0 activation states"]),
        ("dcmotor time constant only", [("c", f'<dcmotor {_DC} inductance="0 1"/>')], "",
         None, None),
        ("dcmotor thermal without capacitance",
         [("c", f'<dcmotor {_DC} thermal="0 0 0 1 0 0"/>')], "", _NEEDS_1, ["<dcmotor>"]),
        ("dcmotor lugre without stiffness", [("c", f'<dcmotor {_DC} lugre="0 1 1 1"/>')], "",
         _NEEDS_1, ["<dcmotor>"]),
        ("dcmotor inductance and lugre",
         [("c", f'<dcmotor {_DC} inductance="1" lugre="1 1 1 1"/>')], "",
         "actuator 1 has actdim 2, expected 1", ["2 activation states", "<dcmotor>"]),
        ("general dynprm, then a bare dcmotor",
         [("c", f'<general dynprm="1 0 0 0 0 1"/><dcmotor {_DC}/>')], "", _NEEDS_1,
         ["0 activation states"]),
        ("bare dcmotor, then general actdim -1",        # -1: the dcmotor dyntype's one
         [("c", f'<dcmotor {_DC}/><general actdim="-1"/>')], "", _INCONSISTENT,
         ["1 activation states", "keeps 0"]),
        ("dcmotor inductance, then general dyntype none",
         [("c", f'<dcmotor {_DC} inductance="1"/><general dyntype="none"/>')], "", None, None),
        ("child's bare dcmotor under an inductance",
         [("p", f'<dcmotor {_DC} inductance="1"/>'), ("c", f"<dcmotor {_DC}/>")], "",
         None, None),
        ("child's inductance 0 under an inductance",
         [("p", f'<dcmotor {_DC} inductance="1"/>'), ("c", f'<dcmotor {_DC} inductance="0"/>')],
         "", _NEEDS_1, ["0 activation states"]),
        ("child's lugre under an inductance",
         [("p", f'<dcmotor {_DC} inductance="1"/>'), ("c", f'<dcmotor {_DC} lugre="1 0 0 0"/>')],
         "", "actuator 1 has actdim 2, expected 1", ["2 activation states"]),
        ("child's motor under an inductance",
         [("p", f'<dcmotor {_DC} inductance="1"/>'), ("c", "<motor/>")], "", _NEEDS_1,
         ['actdim="1"']),
        ("child's general gear under an inductance",
         [("p", f'<dcmotor {_DC} inductance="1"/>'), ("c", '<general gear="2"/>')], "",
         None, None),
        ("bare dcmotor under a filter under an inductance",
         [("g", f'<dcmotor {_DC} inductance="1"/>'), ("p", '<general dyntype="filter"/>'),
          ("c", f"<dcmotor {_DC}/>")], "", None, None)):
    _attrs = f'class="c" actdim="{_actdim}"' if _actdim else 'class="c"'
    PID_INITS[f"ki, {_name}, actdim {_actdim or 'not given'}"] = (
        _in_classes(_pid(_cfg("ki", "1"), _attrs), _classes), _reason, _words)
# a <pid> default's ki and slewmax are inherited from the class chain's <pid> defaults alone,
# the last written standing (a child's ki="0" turns the parent's off; a <motor> or
# <general dyntype="none"> between them does not): pid with either nonzero, none otherwise
for _name, _classes, _actdim, _reason, _words in (
        ("child's pid ki 0 under a pid ki", [("p", '<pid ki="1"/>'), ("c", '<pid ki="0"/>')],
         "", _NEEDS_1, ["0 activation states", 'actdim="1"']),
        ("child's pid ki 0 under a pid ki", [("p", '<pid ki="1"/>'), ("c", '<pid ki="0"/>')],
         "1", None, None),
        ("child's pid slewmax 0 under a pid slewmax",
         [("p", '<pid slewmax="1"/>'), ("c", '<pid slewmax="0"/>')], "", _NEEDS_1,
         ['actdim="1"']),
        ("child's pid slewmax 0 under a pid ki",
         [("p", '<pid ki="1"/>'), ("c", '<pid slewmax="0"/>')], "", None, None),
        ("child's general none and pid kp under a pid ki",
         [("p", '<pid ki="1"/>'), ("c", '<general dyntype="none"/><pid kp="2"/>')], "",
         None, None),
        ("pid kp under a motor under a pid ki",
         [("g", '<pid ki="1"/>'), ("p", "<motor/>"), ("c", '<pid kp="2"/>')], "", None, None)):
    _attrs = f'class="c" actdim="{_actdim}"' if _actdim else 'class="c"'
    PID_INITS[f"ki, {_name}, actdim {_actdim or 'not given'}"] = (
        _in_classes(_pid(_cfg("ki", "1"), _attrs), _classes), _reason, _words)
# with actdim 0 the DC motor keeps none of its states, which MuJoCo 4.0.0 loads
PID_INITS["kp, class with a dcmotor inductance default, actdim 0"] = (
    _in_class(_pid(_cfg("kp", "1"), 'class="c" actdim="0"'),
              f'<dcmotor {_DC} inductance="1"/>'), None, None)
PID_INITS["ki, class with a dcmotor default, actdim 2"] = (
    _in_class(_pid(_cfg("ki", "1"), 'class="c" actdim="2"'),
              '<dcmotor motorconst="1" resistance="1" inductance="1"/>'),
    "actuator 1 has actdim 2, expected 1", ['actdim="1"'])
PID_INITS |= {
    "instance's ki without actdim": (_pid(_cfg("ki", "1"), instance=True), _NEEDS_1,
                                     ["actuator 1", 'actdim="1"']),
    "instance's ki with actdim 1": (_pid(_cfg("ki", "1"), 'actdim="1"', instance=True),
                                    None, None),
    "negative imax": (_pid(_cfg("ki", "1") + _cfg("imax", "-1"), 'actdim="1"'),
                      "negative imax", ["imax", "negative", "sign of ki", "line 1"]),
    "imax and ki both negative": (_pid(_cfg("ki", "-1") + _cfg("imax", "-1"), 'actdim="1"'),
                                  None, None),
    "positive imax, negative ki": (_pid(_cfg("ki", "-1") + _cfg("imax", "1"), 'actdim="1"'),
                                   "negative imax", ["imax", "sign of ki"]),
    "negative imax without ki": (_pid(_cfg("imax", "-1")), None, None),
    "instance's negative imax": (
        _pid(_cfg("ki", "1") + _cfg("imax", "-1"), 'actdim="1"', instance=True),
        "negative imax", ["imax", "negative"]),
    "negative slewmax": (_pid(_cfg("slewmax", "-1"), 'actdim="1"'),
                         "slewmax must be non-negative", ["slewmax", "negative", "0 or more"]),
}


@pytest.mark.parametrize("case", sorted(PID_INITS))
def test_pid_settings_and_actdim_are_what_its_init_takes(case):
    """mujoco.pid keeps an activation state for a nonzero ki and one for a slewmax, and its
    init (run as MuJoCo compiles) refuses an actuator whose actdim (given, or one for a
    dyntype) is not those plus one for a filter or integrator dyntype, an imax whose bound
    imax/ki is negative and a negative slewmax; urdf2dyn loaded each."""
    xml, reason, words = PID_INITS[case]
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


def _grid(configs, objtype="site", instance=False, used=True):
    """A touch_grid sensor at site s (or of objtype) with configs, its own or (instance)
    those of the <instance> 'i' it uses (used False: no sensor uses the instance)."""
    at = f'objtype="{objtype}" objname="{"s" if objtype == "site" else "b"}"'
    if instance:
        sensor = _sensor(f'<plugin instance="i" {at}/>') if used else ""
        return _refs(_declared("mujoco.sensor.touch_grid",
                               f'<instance name="i">{configs}</instance>'), sensor)
    return _refs(_ext("mujoco.sensor.touch_grid"),
                 _sensor(f'<plugin plugin="mujoco.sensor.touch_grid" {at}>{configs}'
                         '</plugin>'))


_GRID = _cfg("size", "2 3") + _cfg("fov", "10 10")
_NO_SIZE = "Both horizontal and vertical resolutions must be specified"
_NO_FOV = "Both horizontal and vertical fields of view must be specified"
GRID_INITS = {      # the case: its XML, MuJoCo's reason, and words urdf2dyn's refusal has
    "size and fov": (_grid(_GRID), None, None),
    "every setting": (_grid(_GRID + _cfg("nchannel", "6") + _cfg("gamma", "1")), None, None),
    "no settings": (_grid(""), _NO_SIZE, ["touch_grid", "size=", "line 1", "<config"]),
    "no size": (_grid(_cfg("fov", "10 10")), _NO_SIZE, ["size="]),
    "no fov": (_grid(_cfg("size", "2 3")), _NO_FOV, ["fov=", "two angles"]),
    "size of one number": (_grid(_cfg("size", "2") + _cfg("fov", "1 1")), _NO_SIZE,
                           ["size="]),
    "size of three numbers": (_grid(_cfg("size", "2 3 4") + _cfg("fov", "1 1")), _NO_SIZE,
                              ["size="]),
    "size with two spaces": (_grid(_cfg("size", "2  3") + _cfg("fov", "1 1")), _NO_SIZE,
                             ["one space"]),
    "size with a leading space": (_grid(_cfg("size", " 2 3") + _cfg("fov", "1 1")), _NO_SIZE,
                                  ["size="]),
    "size with a trailing space": (_grid(_cfg("size", "2 3 ") + _cfg("fov", "1 1")), None,
                                   None),
    "size of a fraction": (_grid(_cfg("size", "2.5 3") + _cfg("fov", "1 1")), None, None),
    "size zero": (_grid(_cfg("size", "0 3") + _cfg("fov", "1 1")),
                  "resolutions must be positive", ["size=", "1 or more"]),
    "size a half": (_grid(_cfg("size", "0.5 3") + _cfg("fov", "1 1")),
                    "resolutions must be positive", ["size="]),
    "size not numbers": (_grid(_cfg("size", "a b") + _cfg("fov", "1 1")),
                         "resolutions must be positive", ["size="]),
    "size too large": (_grid(_cfg("size", "100000 100000") + _cfg("fov", "1 1")),
                       "resolutions are too large", ["size=", "give fewer"]),
    "size beyond an int": (_grid(_cfg("size", "1e10 1") + _cfg("fov", "1 1")),
                           "resolutions are too large", ["size=", "give fewer"]),
    "size infinite": (_grid(_cfg("size", "inf 1") + _cfg("fov", "1 1")),
                      "resolutions are too large", ["size=", "give fewer"]),
    "size too large with channels": (
        _grid(_cfg("size", "30000 30000") + _cfg("fov", "1 1") + _cfg("nchannel", "3")),
        "resolutions are too large", ["size=", "3 channels"]),
    "size a fraction beyond an int": (
        _grid(_cfg("size", "2147483647.5 1") + _cfg("fov", "1 1")),
        "resolutions are too large", ['size="2147483647.5 1"', "give fewer"]),
    "second size a fraction beyond an int": (
        _grid(_cfg("size", "1 2147483647.5") + _cfg("fov", "1 1")),
        "resolutions are too large", ["size="]),
    "size too large with a fraction of a channel": (
        _grid(_cfg("size", "715827883 1") + _cfg("fov", "1 1") + _cfg("nchannel", "3.5")),
        "resolutions are too large", ["size=", "3 channels"]),
    "fov zero": (_grid(_cfg("size", "2 3") + _cfg("fov", "0 10")), "`fov[0]` must be",
                 ["fov=", "horizontal", "(0, 180]"]),
    "fov 180 90": (_grid(_cfg("size", "2 3") + _cfg("fov", "180 90")), None, None),
    "fov 181": (_grid(_cfg("size", "2 3") + _cfg("fov", "181 10")), "`fov[0]` must be",
                ["fov="]),
    "fov 91 vertical": (_grid(_cfg("size", "2 3") + _cfg("fov", "10 91")),
                        "`fov[1]` must be", ["vertical", "(0, 90]"]),
    "nchannel 7": (_grid(_GRID + _cfg("nchannel", "7")), "nchannel must be between 1 and 6",
                   ["nchannel", "1 to 6"]),
    "nchannel 0": (_grid(_GRID + _cfg("nchannel", "0")), None, None),
    "nchannel a half": (_grid(_GRID + _cfg("nchannel", "0.5")),
                        "nchannel must be between 1 and 6", ["nchannel"]),
    "nchannel not a number": (_grid(_GRID + _cfg("nchannel", "abc")),
                              "Invalid or missing parameters", ["nchannel", "not a number"]),
    "nchannel with spaces": (_grid(_GRID + _cfg("nchannel", "1 2")), None, None),
    "gamma 2": (_grid(_GRID + _cfg("gamma", "2")), "`gamma` must be", ["gamma", "[0, 1]"]),
    "gamma negative": (_grid(_GRID + _cfg("gamma", "-0.1")), "`gamma` must be", ["gamma"]),
    "gamma half a number": (_grid(_GRID + _cfg("gamma", "1x")), "Invalid or missing",
                            ["gamma", "not a number"]),
    "fov checked before gamma": (_grid(_cfg("size", "2 2") + _cfg("gamma", "2")), _NO_FOV,
                                 ["fov="]),
    "at a body": (_grid(_GRID, objtype="body"), "must be attached to a site",
                  ["objtype=\"body\"", 'objtype="site"']),
    "instance with size and fov": (_grid(_GRID, instance=True), None, None),
    "instance without settings": (_grid("", instance=True), _NO_SIZE, ["size="]),
    "instance no sensor uses, without settings": (
        _grid("", instance=True, used=False), _NO_SIZE, ["size="]),
    "instance no sensor uses, with size and fov": (_grid(_GRID, instance=True, used=False),
                                                   None, None),
}


@pytest.mark.parametrize("case", sorted(GRID_INITS))
def test_touch_grid_settings_are_what_its_init_takes(case):
    """mujoco.sensor.touch_grid's init (run as MuJoCo compiles, for every instance, used or
    not) needs size= (two whole numbers of taxels, 1 or more, not too many) and fov= (two
    angles, in (0, 180] and (0, 90] degrees), gamma= in [0, 1], numbers for gamma= and
    nchannel= (1 to 6) and a sensor at a site; urdf2dyn loaded each."""
    xml, reason, words = GRID_INITS[case]
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


# Grids MuJoCo 4.0.0's size check passes (checked by hand under `ulimit -v`: it then fails
# only to allocate the grid, gigabytes, so MuJoCo is not run on them here): the fraction of a
# channel and of a taxel is dropped before the product is counted.
GRID_SIZES_MUJOCO_PASSES = {
    "2.9 channels counted as 2": ("46341 23170", "2.9"),
    "3.0000001 channels counted as 3": ("715827882 1", "3.0000001"),
    "fractional sizes counted whole": ("1073741823.9 2", "0"),
}


@pytest.mark.parametrize("case", sorted(GRID_SIZES_MUJOCO_PASSES))
def test_touch_grid_size_counts_whole_channels_and_taxels(case):
    """touch_grid's size check counts nchannel's and each size's whole part, as MuJoCo 4.0.0
    counts them (it refuses only a size above an int as written): urdf2dyn refused these
    grids, whose product with the fractions is above an int but without them is not."""
    size, nchannel = GRID_SIZES_MUJOCO_PASSES[case]
    xml = _grid(_cfg("size", size) + _cfg("fov", "1 1") + _cfg("nchannel", nchannel))
    assert urdf2dyn_error(xml) is None


def _drawn_configs(draw, choices):
    """<config> elements for some of choices' keys, each with a value drawn from its list."""
    return "".join(_cfg(key, draw(st.sampled_from(values)))
                   for key, values in choices.items() if draw(st.booleans()))


_PID_VALUES = {"kp": ["1"], "ki": ["", "0", "1", "-1", "abc", "nan", " 2"],
               "imax": ["", "-1", "1", "0"], "slewmax": ["", "0", "1", "-1"]}


@st.composite
def _pid_model(draw):
    """A mujoco.pid actuator driving its own drawn settings or an instance's, with a drawn
    dyntype and actdim (given or not, in a class or not)."""
    attrs = " ".join(f'{a}="{draw(st.sampled_from(v))}"' for a, v in
                     [("dyntype", ["none", "integrator", "filter", "filterexact"]),
                      ("actdim", ["-1", "0", "1", "2", "3"])] if draw(st.booleans()))
    in_class = draw(st.booleans())
    xml = _pid(_drawn_configs(draw, _PID_VALUES), 'class="p"' if in_class else attrs,
               instance=draw(st.booleans()))
    if in_class:      # the <general> and shortcuts, each once (as the schema has it), in order
        shortcuts = draw(st.lists(st.sampled_from(_SHORTCUT_DEFAULTS), unique_by=lambda e:
                                  e.split()[0].strip("<>/"), max_size=3))
        shortcuts.insert(draw(st.integers(0, len(shortcuts))), f"<general {attrs}/>")
        xml = xml.replace("<worldbody>", '<default><default class="p">' + "".join(shortcuts) +
                          "</default></default><worldbody>")
    return xml


# the shortcuts a class may write before or after its <general> (a <dcmotor> sets actdim to
# its own states)
_SHORTCUT_DEFAULTS = ['<position kp="1"/>', '<position kp="1" timeconst="0.1"/>',
                      '<position timeconst="0"/>', "<intvelocity/>", "<cylinder/>", "<motor/>",
                      '<velocity kv="1"/>', f"<dcmotor {_DC}/>",
                      f'<dcmotor {_DC} inductance="1"/>',
                      f'<dcmotor {_DC} inductance="1" lugre="1 1 1 1"/>']


@settings(max_examples=200, deadline=None)
@given(_pid_model())
def test_random_pid_settings_refused_exactly_where_mujoco_refuses(xml):
    """Random mujoco.pid settings, dyntypes and actdims: urdf2dyn refuses exactly when
    MuJoCo (its pid plugin's init) does."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


# Sizes stay small, or so large MuJoCo refuses them before it allocates the grid.
_GRID_VALUES = {"size": ["", "2 3", "2", "0 3", "2  3", " 2 3", "2 3 ", "1.5 2", "a b",
                         "100000 100000", "3\t3", "2147483647.5 1"],
                "fov": ["", "10 10", "0 10", "180 90", "10 91", "nan 10", "a", "10 10 10"],
                "nchannel": ["0", "1", "6", "7", "abc", "2.7", "-1", " 3 ", "nan", "6.5"],
                "gamma": ["0", "1", "2", "-1", "1x", "nan", "0 .5"]}


@st.composite
def _grid_model(draw):
    """A touch_grid sensor (at a site or a body) with drawn settings, its own or an
    instance's, or an instance no sensor uses."""
    instance = draw(st.booleans())
    return _grid(_drawn_configs(draw, _GRID_VALUES),
                 objtype=draw(st.sampled_from(["site", "body"])), instance=instance,
                 used=not instance or draw(st.booleans()))


@settings(max_examples=200, deadline=None)
@given(_grid_model())
def test_random_touch_grid_settings_refused_exactly_where_mujoco_refuses(xml):
    """Random touch_grid settings: urdf2dyn refuses exactly when MuJoCo (the plugin's init)
    does."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


_TORUS = _declared("mujoco.sdf.torus", '<instance name="t"/>')
_R1 = '<config key="radius1" value="0.3"/>'


def _geom_plugin(inner, where="body"):
    """A geom holding inner (its <plugin> elements) in body b, in the world or in a frame."""
    geom = f'<geom size="0.1">{inner}</geom>'
    world = {"body": _REF_WORLD.replace('<site name="s"/>', f'<site name="s"/>{geom}', 1),
             "world": _REF_WORLD.replace('<camera name="cam"/>', f'<camera name="cam"/>{geom}'),
             "frame": _REF_WORLD.replace('<camera name="cam"/>',
                                         f'<camera name="cam"/><frame>{geom}</frame>')}[where]
    return doc(_TORUS, _ext("mujoco.pid:p"), world, actuators('<plugin instance="p" joint="k"/>'))


def _mesh_plugin(inner):
    """A mesh asset 'tm' holding inner (its <plugin> elements), which no geom uses."""
    return _refs(_TORUS, _ext("mujoco.pid:p"), actuators('<plugin instance="p" joint="k"/>'),
                 _section("asset", f'<mesh name="tm">{inner}</mesh>'))


SHAPE_PLUGINS = {   # the case: its XML, MuJoCo's reason, and words urdf2dyn's refusal has
    "geom of a torus instance": (_geom_plugin('<plugin instance="t"/>'), None, None),
    "geom of the torus plugin": (_geom_plugin(f'<plugin plugin="mujoco.sdf.torus">{_R1}'
                                              '</plugin>'), None, None),
    "world geom of a torus instance": (_geom_plugin('<plugin instance="t"/>', "world"),
                                       None, None),
    "geom holding an unknown element": (
        _geom_plugin("<foo/>"), "unrecognized element",
        ["<foo>", "<geom>", "unrecognized element", "line 1", "remove it"]),
    "geom's plugin holding an unknown element": (
        _geom_plugin('<plugin instance="t"><foo/></plugin>'), "unrecognized element",
        ["<foo>", "<plugin>", "unrecognized element"]),
    "geom's config holding an element": (
        _geom_plugin(f'<plugin plugin="mujoco.sdf.torus">{_R1[:-2]}><foo/></config></plugin>'),
        "unrecognized element", ["<foo>", "<config>"]),
    "geom's plugin undeclared": (
        _geom_plugin('<plugin plugin="mujoco.sdf.bolt"/>'), "unrecognized plugin",
        ["<plugin>", 'plugin="mujoco.sdf.bolt"', "not declared", "<extension>"]),
    "geom's plugin of an unknown instance": (
        _geom_plugin('<plugin instance="zz"/>'), "unrecognized name 'zz' for plugin instance",
        ["<plugin>", 'instance="zz"', "names no <instance>"]),
    "world geom's plugin of an unknown instance": (
        _geom_plugin('<plugin instance="zz"/>', "world"), "unrecognized name 'zz'",
        ['instance="zz"']),
    "framed geom's plugin of an unknown instance": (
        _geom_plugin('<plugin instance="zz"/>', "frame"), "unrecognized name 'zz'",
        ['instance="zz"']),
    "geom's plugin naming none": (_geom_plugin("<plugin/>"), "neither 'plugin' nor 'instance'",
                                  ["<plugin>", "neither"]),
    "geom's plugin of a pid instance": (
        _geom_plugin('<plugin instance="p"/>'), "does not support sign distance fields",
        ["<plugin>", "<geom>", "mujoco.pid", "does not support sign distance fields"]),
    "geom's plugin with an unknown key": (
        _geom_plugin('<plugin plugin="mujoco.sdf.torus"><config key="zz" value="1"/>'
                     '</plugin>'), "unrecognized attribute 'plugin:zz'",
        ["<config>", 'key="zz"', "radius1, radius2"]),
    "geom's plugin with a config without key": (
        _geom_plugin('<plugin plugin="mujoco.sdf.torus"><config value="1"/></plugin>'),
        "required attribute missing: 'key'", ["<config>", "key="]),
    "geom's plugin with a key twice": (
        _geom_plugin(f'<plugin plugin="mujoco.sdf.torus">{_R1}{_R1}</plugin>'),
        "duplicate config key", ["<config>", "'radius1'", "given twice"]),
    "geom's instance plugin with its own configs unchecked": (
        _geom_plugin(f'<plugin instance="t">{_R1}{_R1}<config value="1"/><config key="zz" '
                     'value="1"/></plugin>'), None, None),
    "geom's second plugin, unchecked": (
        _geom_plugin(f'<plugin instance="t"/><plugin instance="zz">{_R1}{_R1}</plugin>'
                     '<plugin/>'), None, None),
    "geom's second plugin holding an unknown element": (
        _geom_plugin('<plugin instance="t"/><plugin><foo/></plugin>'), "unrecognized element",
        ["<foo>", "<plugin>"]),
    "mesh of a torus instance": (_mesh_plugin('<plugin instance="t"/>'), None, None),
    "mesh of the torus plugin": (_mesh_plugin(f'<plugin plugin="mujoco.sdf.torus">{_R1}'
                                              '</plugin>'), None, None),
    "mesh holding an unknown element": (_mesh_plugin("<foo/>"), "unrecognized element",
                                        ["<foo>", "<mesh>", "unrecognized element"]),
    "mesh's plugin holding an unknown element": (
        _mesh_plugin('<plugin instance="t"><foo/></plugin>'), "unrecognized element",
        ["<foo>", "<plugin>"]),
    "mesh's plugin undeclared": (_mesh_plugin('<plugin plugin="mujoco.sdf.bolt"/>'),
                                 "unrecognized plugin", ['plugin="mujoco.sdf.bolt"']),
    "mesh's plugin of an unknown instance": (_mesh_plugin('<plugin instance="zz"/>'),
                                             "unrecognized name 'zz'", ['instance="zz"']),
    "mesh's plugin naming none": (_mesh_plugin("<plugin/>"), "neither", ["neither"]),
    "mesh's plugin of a pid instance": (
        _mesh_plugin('<plugin instance="p"/>'), "does not support signed distance fields",
        ["<mesh>", "does not support signed distance fields"]),
    "mesh's plugin with a key twice": (
        _mesh_plugin(f'<plugin plugin="mujoco.sdf.torus">{_R1}{_R1}</plugin>'),
        "duplicate config key", ["given twice"]),
    "mesh's second plugin, unchecked": (
        _mesh_plugin('<plugin instance="t"/><plugin instance="zz"/>'), None, None),
    "framed geom holding an unknown element": (       # MuJoCo's schema check stops there
        _geom_plugin('<foo/><plugin instance="t"><foo/></plugin>', "frame"), None, None),
    "framed geom's plugin with a config without key": (
        _geom_plugin('<plugin plugin="mujoco.sdf.torus"><config value="1"/></plugin>', "frame"),
        "required attribute missing: 'key'", ["<config>", "key="]),
    "framed geom's plugin with a key twice": (
        _geom_plugin(f'<plugin plugin="mujoco.sdf.torus">{_R1}<foo/>{_R1}</plugin>', "frame"),
        "duplicate config key", ["given twice"]),
    "mesh of nothing": (_mesh_plugin(""), "at least 4 vertices required",
                        ["<mesh>", "no file, builtin, plugin or vertices", "vertex="]),
    "mesh of three vertices": (
        _refs(_section("asset", '<mesh name="m3" vertex="0 0 0 1 0 0 0 1 0"/>')),
        "at least 4 vertices required", ["<mesh>", "fewer than four vertices"]),
    "mesh of an empty file": (_refs(_section("asset", '<mesh name="m3" file=""/>')),
                              "at least 4 vertices required", ["<mesh>"]),
}
# a vertex list read whole (the review found these loaded, or refused for "no vertices"):
_TETRA = "0 0 0 1 0 0 0 1 0 0 0 1"
for _name, _vertex, _reason, _words in (
        ("four vertices", _TETRA, None, None),
        ("thirteen numbers", _TETRA + " 5", "vertex data must be a multiple of 3",
         ["13 numbers", "three numbers per vertex"]),
        ("a word after four vertices", _TETRA + " x", "bad format in attribute 'vertex'",
         ["item 13 is not a number"]),
        ("commas", "0,0,0 1 0 0 0 1 0 0 0 1", "bad format in attribute 'vertex'",
         ["item 1 is not a number"]),
        ("nan", _TETRA[:-1] + "nan", "is not finite", ["item 12", "not finite"]),
        ("a number too large", _TETRA[:-1] + "1e999", "number is too large",
         ["item 12", "not finite"])):
    SHAPE_PLUGINS[f"mesh vertices: {_name}"] = (
        _refs(_section("asset", f'<mesh name="m4" vertex="{_vertex}"/>')), _reason, _words)
SHAPE_PLUGINS |= {
    "default geom holding a plugin": (
        _refs(_TORUS, '<default><geom><plugin instance="t"/></geom></default>'),
        "unrecognized element", ["<plugin>", "<default>", "<geom>", "attributes only"]),
    "default mesh holding a plugin": (
        _refs(_TORUS, '<default><mesh><plugin instance="t"/></mesh></default>'),
        "unrecognized element", ["<plugin>", "<mesh>"]),
    "default joint holding an element": (_refs("<default><joint><foo/></joint></default>"),
                                         "unrecognized element", ["<foo>", "<joint>"]),
    "body's plugin of a torus instance": (
        _refs(_TORUS).replace('<site name="s"/>', '<site name="s"/><plugin instance="t"/>', 1),
        "does not support passive forces", ["<plugin>", "passive forces", "remove it"]),
    "composite": (
        _refs().replace('<site name="s"/>', '<site name="s"/><composite type="cable" '
                                            'count="4 1 1" curve="s 0 0" size="1"><geom '
                                            'type="capsule" size=".01"/><plugin instance="t"/>'
                                            '</composite>', 1),
        "unrecognized element", ["<composite>", "MuJoCo 4's schema", "unrecognized element"]),
    "flexcomp's plugin of a torus instance": (
        _refs(_TORUS).replace('<site name="s"/>', '<site name="s"/><flexcomp type="grid" '
                                                  'count="2 2 1" spacing="0.1 0.1 0.1" dim="2" '
                                                  'name="f"><plugin instance="t"/></flexcomp>', 1),
        "does not support passive forces", ["<flexcomp>"]),
}


@pytest.mark.parametrize("case", sorted(SHAPE_PLUGINS))
def test_plugins_in_geoms_meshes_and_bodies_are_checked_as_mujoco_checks_them(case):
    """A geom or mesh holds <plugin> elements only, each holding <config> ones (MuJoCo's
    schema); MuJoCo reads the first as it reads a plugin actuator's (declared, an instance
    the file has, an sdf plugin, its own settings keys it takes, once) and ignores the
    others; a <default>'s elements hold none; a body's <plugin> needs a passive-force plugin
    MuJoCo 4 does not register, and <composite> is not MuJoCo 4's. urdf2dyn loaded the
    geoms' and meshes' and defaults' cases MuJoCo refuses."""
    xml, reason, words = SHAPE_PLUGINS[case]
    assert reason is None or reason in (mujoco_error(xml) or ""), mujoco_error(xml)
    assert_as_mujoco(xml, words)


def test_a_second_plugin_of_a_geom_is_ignored_with_a_warning():
    """MuJoCo loads a geom of two <plugin> elements and reads the first only: urdf2dyn loads
    it too, and says the second is ignored (it loaded it silently)."""
    xml = _geom_plugin('<plugin instance="t"/>\n<plugin instance="zz"/>')
    assert mujoco_error(xml) is None
    with warnings.catch_warnings(record=True) as said:    # its tendon is said too
        warnings.simplefilter("always")
        urdf2dyn.load(xml)
    assert any(issubclass(w.category, urdf2dyn.Urdf2dynWarning) and
               re.search(r"line 2.*second <plugin>.*ignores", str(w.message)) for w in said), \
        [str(w.message) for w in said]


INSTANCE_OWN_CONFIGS = {
    "pid actuator of an instance, its config without key": (
        _refs(_ext("mujoco.pid:i"), actuators('<plugin instance="i" joint="j"><config '
                                              'value="1"/></plugin>')), None),
    "pid actuator of an instance, its key twice": (
        _refs(_ext("mujoco.pid:i"), actuators(f'<plugin instance="i" joint="j">{_KP}{_KP}'
                                              '</plugin>')), None),
    "pid actuator of an instance, an element in its config": (
        _refs(_ext("mujoco.pid:i"), actuators(f'<plugin instance="i" joint="j">{_KP[:-2]}>'
                                              '<foo/></config></plugin>')),
        ["<foo>", "<config>", "unrecognized element"]),
    "touch grid sensor of an instance, its config without value": (
        _refs(_declared("mujoco.sensor.touch_grid", f'<instance name="g">{_GRID}</instance>'),
              _sensor('<plugin instance="g" objtype="site" objname="s"><config key="size"/>'
                      '</plugin>')), None),
}


@pytest.mark.parametrize("case", sorted(INSTANCE_OWN_CONFIGS))
def test_configs_of_a_plugin_naming_an_instance_are_only_schema_checked(case):
    """A plugin actuator or sensor naming an instance= has the instance's settings: MuJoCo
    does not read its own <config> elements (a key= or value= missing, a key twice load),
    though its schema still refuses an element inside one; urdf2dyn refused them."""
    xml, words = INSTANCE_OWN_CONFIGS[case]
    assert_as_mujoco(xml, words)


_SHAPE_CHILDREN = st.sampled_from([
    '<plugin instance="t"/>', '<plugin instance="p"/>', '<plugin instance="zz"/>',
    '<plugin instance=""/>', "<plugin/>", '<plugin plugin="mujoco.sdf.torus"/>',
    '<plugin plugin="mujoco.sdf.bolt"/>', '<plugin plugin="mujoco.pid"/>',
    f'<plugin plugin="mujoco.sdf.torus">{_R1}{_R1}</plugin>',
    '<plugin plugin="mujoco.sdf.torus"><config key="zz" value="1"/></plugin>',
    '<plugin plugin="mujoco.sdf.torus"><config value="1"/></plugin>',
    f'<plugin instance="t">{_R1}{_R1}<config value="1"/></plugin>',
    '<plugin instance="t"><foo/></plugin>', "<foo/>"])


@st.composite
def _shape_plugin_model(draw):
    """A geom (in a body, the world or a frame) or a mesh holding up to three drawn
    children: <plugin> elements naming instances and plugins declared or not, of sdf or
    not, with their own <config> elements well formed or not, or other elements."""
    inner = "".join(draw(st.lists(_SHAPE_CHILDREN, max_size=3)))
    if draw(st.booleans()):
        return _mesh_plugin(inner)
    return _geom_plugin(inner, draw(st.sampled_from(["body", "world", "frame"])))


@settings(max_examples=200, deadline=None)
@given(_shape_plugin_model())
def test_random_geom_and_mesh_plugins_refused_exactly_where_mujoco_refuses(xml):
    """Random children of geoms and meshes: urdf2dyn refuses exactly when MuJoCo does."""
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


UNREAD_SCHEMA = {     # inputs MuJoCo 4.0.0 refuses by its schema or its reader (words: ours)
    "unknown element in <default>": (doc("<default><foo/></default>", WORLD),
                                     ["<foo>", "<default>", "line 1", "remove it"]),
    "unknown element in a class": (
        doc('<default><default class="c">\n<bar a="1"/></default></default>', WORLD),
        ["<bar>", "<default>", "line 2"]),
    "<plugin> in <default>": (doc('<default><plugin plugin="mujoco.pid"/></default>', WORLD),
                              ["<plugin>", "<default>"]),
    "<freejoint> in <default>": (doc("<default><freejoint/></default>", WORLD),
                                 ["<freejoint>"]),
    "every default element": (doc("<default>" + "".join(
        f"<{t}/>" for t in "mesh material joint geom site camera light pair equality tendon "
                           "texture general motor position velocity intvelocity cylinder "
                           "orientation pid".split()) + "</default>", WORLD), None),
    "<default> texture builtin": (doc('<default><texture builtin="foo"/></default>', WORLD),
                                  ["builtin", "foo", "checker"]),
}
for _tag in ("joint", "freejoint", "site", "camera", "light", "inertial"):
    _attrs = ' pos="0 0 0" mass="1" diaginertia="1 1 1"' if _tag == "inertial" else ""
    for _child in ("<geom/>", "<foo/>"):
        UNREAD_SCHEMA[f"{_child} in a body's <{_tag}>"] = (
            doc(f'<worldbody><body name="b">\n<{_tag}{_attrs}>\n{_child}</{_tag}>'
                '<geom size="0.1"/></body></worldbody>'),
            [_child[:-2] + ">", f"<{_tag}>", "line 3", "remove it"])
UNREAD_SCHEMA["text in a <joint>"] = (doc('<worldbody><body><joint>hinge</joint>'
                                          '<geom size="0.1"/></body></worldbody>'), None)
UNREAD_SCHEMA["<foo/> in the world's <site>"] = (
    doc('<worldbody><site name="s"><foo/></site></worldbody>'), ["<foo>", "<site>"])
for _builtin, _words in (("", ["builtin", "checker", "line 1"]),
                         ("Checker", ['builtin="Checker"']), ("checker", None),
                         ("gradient", None), ("flat", None)):
    UNREAD_SCHEMA[f"texture builtin={_builtin!r}"] = (
        doc(f'<asset><texture name="t" type="2d" builtin="{_builtin}" width="8" height="8"/>'
            "</asset>", WORLD), _words)
for _actdim, _words in (("1.5", ["actdim", "1.5", "whole number", "line 1"]),
                        ("1.0", ["actdim"]), ("1e0", ["actdim"]), ("0x1", ["actdim"]),
                        ("1 2", ["actdim"]), ("2147483648", ["actdim"]),
                        (" 1 ", None), ("+1", None), ("", None), ("-1", None)):
    UNREAD_SCHEMA[f"actdim={_actdim!r}"] = (
        doc(WORLD, actuators(f'<general joint="j" dyntype="filter" actdim="{_actdim}"/>')),
        _words)
UNREAD_SCHEMA["actdim='1.5' in a default"] = (
    doc('<default><general actdim="1.5"/></default>', WORLD), ["actdim", "1.5"])


@pytest.mark.parametrize("case", sorted(UNREAD_SCHEMA))
def test_schema_of_unread_elements_as_mujoco(case):
    """Elements and attributes urdf2dyn does not model are as MuJoCo 4's schema and reader
    have them: a <default> holds only the elements it gives defaults to, a body's joints,
    sites, cameras, lights and <inertial> hold no element, a texture's builtin= is one of
    MuJoCo's words and actdim= one whole number; urdf2dyn loaded each of these."""
    xml, words = UNREAD_SCHEMA[case]
    assert_as_mujoco(xml, words)


_UNDER_A_FRAME = {      # where a joint, site, ... holding a <foo/> is, below a <frame>
    "a body's frame": '<worldbody><body><frame>\n{}</frame><geom size="0.1"/>{}</body>'
                      "</worldbody>",
    "a body's frame in a frame": '<worldbody><body><frame><frame>\n{}</frame></frame>'
                                 '<geom size="0.1"/>{}</body></worldbody>',
    "a body in the world's frame": '<worldbody><frame><body>\n{}<geom size="0.1"/>{}</body>'
                                   "</frame></worldbody>",
    "the world's frame": "<worldbody><frame>\n{}</frame>{}</worldbody>",
}
SCHEMA_BELOW_A_FRAME = {}
for _tag in ("joint", "freejoint", "site", "camera", "light", "inertial"):
    _attrs = ' pos="0 0 0" mass="1" diaginertia="1 1 1"' if _tag == "inertial" else ""
    _joint = "" if "joint" in _tag else "<joint/>"
    for _place, _xml in _UNDER_A_FRAME.items():
        _joint_here = "" if _place == "the world's frame" else _joint
        SCHEMA_BELOW_A_FRAME[f"<foo/> in a <{_tag}> in {_place}"] = doc(
            _xml.format(f"<{_tag}{_attrs}>\n<foo/></{_tag}>", _joint_here))


@pytest.mark.parametrize("case", sorted(SCHEMA_BELOW_A_FRAME))
def test_schema_check_stops_at_a_frame_as_mujoco_s_does(case):
    """MuJoCo 4's schema check does not descend into a <frame>: a joint, site, camera, light
    or <inertial> holding an unknown element below one loads (a joint or <inertial> of the
    world's frame is refused, as the world's: not for its child); urdf2dyn refused them all."""
    xml = SCHEMA_BELOW_A_FRAME[case]
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (expected, got)
    assert expected is None or "World body cannot" in expected, expected
    assert got is None or "<foo>" not in got, got

@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=" +-0123456789.ex\t", max_size=12))
def test_random_actdim_refused_for_its_form_exactly_where_mujoco_refuses(actdim):
    """Random actdim= text: urdf2dyn refuses it exactly where MuJoCo refuses its form (bad
    format, too much data, too large) or, well-formed, the value (0 on a stateful
    actuator); an actdim too large for MuJoCo's memory is not checked here."""
    xml = doc(WORLD, actuators(f'<general joint="j" dyntype="user" actdim="{actdim}"/>'))
    error = mujoco_error(xml) or ""
    expected = "attribute 'actdim'" in error or "invalid actdim" in error
    assert expected == (urdf2dyn_error(xml) is not None), (actdim, mujoco_error(xml))


def _sdf_torus_model(inertial=""):
    """MuJoCo's model/plugin/sdf/torus.xml in short: a free body whose geom is a
    mujoco.sdf.torus mesh, with inertial (an <inertial> element) or without."""
    return doc('<extension><plugin plugin="mujoco.sdf.torus"><instance name="torus">'
               '<config key="radius1" value="0.35"/><config key="radius2" value="0.15"/>'
               '</instance></plugin></extension>'
               '<asset>\n<mesh name="torus"><plugin instance="torus"/></mesh></asset>'
               f'<worldbody><body pos="0 0 1">{inertial}<freejoint/>'
               '<geom type="sdf" mesh="torus"><plugin instance="torus"/></geom>'
               '</body></worldbody>')


def test_sdf_mesh_without_inertial_is_refused_saying_what_mujoco_weighs():
    """MuJoCo 4.0.0 loads its own sdf examples (model/plugin/sdf/*.xml), weighing the
    surface it builds from the signed distance field by marching cubes; urdf2dyn builds no
    such surface, so it refuses the body's mass, saying why and what to give instead (it
    said the mesh had "neither a file nor vertices")."""
    xml = _sdf_torus_model()
    assert mujoco_error(xml) is None
    assert mujoco.MjModel.from_xml_string(xml).body_mass[1] > 0
    got = urdf2dyn_error(xml)
    assert got is not None
    for words in ("line 2", "mesh 'torus'", "<plugin> mesh", "signed distance field",
                  "<inertial>", "body_mass"):
        assert words in got, got


def test_sdf_geom_with_an_inertial_loads_as_mujoco_computes_it():
    """An sdf geom is a collision shape: with the body's <inertial> the model loads, and its
    dynamics are MuJoCo's (pins the path the refusal above points to)."""
    xml = _sdf_torus_model('<inertial pos="0.01 0.02 0.03" mass="2" diaginertia=".1 .2 .3"/>')
    model = urdf2dyn.load(xml)
    e_tau, e_M = oracle.compare(model, oracle.mujoco_model(xml=xml), n=5)
    assert e_tau < 1e-12 and e_M < 1e-12


_INERTIAL = '<inertial pos="0.01 0.02 0.03" mass="2" diaginertia=".1 .2 .3"/>'


@pytest.mark.parametrize("inertial", ["", _INERTIAL])
def test_sdf_refusal_under_inertiafromgeom_true_says_to_set_it_to_auto(inertial):
    """Under <compiler inertiafromgeom="true"> MuJoCo weighs the sdf geom even where the body
    has an <inertial>; urdf2dyn, which cannot, told such a body to give the <inertial> it
    has. It now says to set inertiafromgeom="auto", with which the <inertial> is used, and
    the model then loads with MuJoCo's dynamics."""
    xml = _sdf_torus_model(inertial).replace(
        "<mujoco>", '<mujoco><compiler inertiafromgeom="true"/>')
    assert mujoco_error(xml) is None
    got = urdf2dyn_error(xml)
    assert got is not None and 'inertiafromgeom="auto"' in got, got
    assert ("give the body an <inertial>" in got) == (not inertial), got
    if inertial:
        auto = xml.replace('inertiafromgeom="true"', 'inertiafromgeom="auto"')
        e_tau, e_M = oracle.compare(urdf2dyn.load(auto), oracle.mujoco_model(xml=auto), n=5)
        assert e_tau < 1e-12 and e_M < 1e-12


# every attribute some actuator kind has in MuJoCo 4's schema, with a value MuJoCo reads
_ACTUATOR_ATTRIBUTES = {
    **dict.fromkeys("name class".split(), "a"), "joint": "j", "jointinparent": "j",
    **dict.fromkeys("tendon cranksite slidersite site refsite".split(), "x"), "body": "b",
    "interp": "zoh", "dyntype": "none", "gaintype": "fixed", "biastype": "none",
    "actearly": "false", "input": "voltage",
    **dict.fromkeys("ctrllimited forcelimited actlimited".split(), "auto"),
    **dict.fromkeys("ctrlrange forcerange actrange lengthrange range posrange velrange "
                    "ffrange".split(), "0 1"),
    **dict.fromkeys("group nsample delay user actdim gear damping armature cranklength "
                    "gainprm biasprm dynprm kp kv dampratio timeconst inheritrange area "
                    "diameter bias tausmooth force scale lmin lmax vmax fpmax fvmax gain "
                    "motorconst resistance nominal saturation inductance cogging controller "
                    "thermal lugre ki imax slewmax".split(), "1"),
}
_SCHEMA_KINDS = ("general motor position velocity intvelocity orientation pid damper cylinder "
                 "muscle adhesion dcmotor").split()


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_SCHEMA_KINDS), st.sampled_from(sorted(_ACTUATOR_ATTRIBUTES)),
       st.booleans())
def test_actuator_attributes_refused_exactly_where_mujoco_schema_refuses(kind, attr, default):
    """MuJoCo 4's schema gives each actuator kind its own attributes, fewer in a <default>
    (no target, name or lengthrange; a <muscle>'s tausmooth only in <actuator>), and
    refuses any other ("unrecognized attribute"), used or not: urdf2dyn loaded them (kp on a
    <motor>, timeconst on an <intvelocity>, lengthrange in a default <motor>)."""
    element = f'<{kind} {attr}="{_ACTUATOR_ATTRIBUTES[attr]}"'
    if default:
        if attr == "class":
            return
        xml = doc(f"<default>{element}/></default>", _ACT_WORLD)
    else:
        target = "" if attr in ("joint", "jointinparent", "body") else _kind_and_target(kind)
        xml = doc(_ACT_WORLD, actuators(f"{element} {target}/>"))
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    if expected and "unrecognized attribute" in expected:
        assert got is not None and attr in got, (xml, expected, got)
    else:
        assert got is None or "unrecognized attribute" not in got, (xml, expected, got)


ACTUATOR_SCHEMA = {   # the case: the <default>'s content, the actuator; urdf2dyn's words
    "kp on a motor": ("", '<motor joint="j" kp="1"/>', ["<motor kp=", "unrecognized attribute"]),
    "timeconst on an intvelocity": ("", '<intvelocity joint="j" timeconst="1"/>',
                                    ["<intvelocity timeconst=", "unrecognized attribute"]),
    "tausmooth in a default muscle": ('<muscle tausmooth="1"/>', "",
                                      ["<muscle tausmooth=", "in a <default>",
                                       "unrecognized attribute"]),
    "lengthrange in a default motor": ('<motor lengthrange="0 1"/>', "",
                                       ["<motor lengthrange=", "in a <default>"]),
    "a misspelt kv": ('<position kvv="1"/>', "", ["<position kvv="]),
    "tausmooth on a muscle": ("", '<muscle joint="j" tausmooth="1"/>', None),
    "lengthrange on a motor": ("", '<motor joint="j" lengthrange="0 1"/>', None),
    "kp in a default position": ('<position kp="2"/>', '<position joint="j"/>', None),
}


@pytest.mark.parametrize("case", sorted(ACTUATOR_SCHEMA))
def test_actuator_attributes_are_those_of_mujoco_schema(case):
    """An attribute MuJoCo 4's schema does not give an actuator kind, in <actuator> or in a
    <default>, is refused as MuJoCo refuses it; its neighbours load in both."""
    default, element, words = ACTUATOR_SCHEMA[case]
    assert_as_mujoco(doc(f"<default>{default}</default>", _ACT_WORLD,
                         actuators(element) if element else ""), words)


@pytest.mark.parametrize("default, act, advice, followed", [
    ('<pid kp="1" ki="0"/><general dyntype="pid"/>', '<general joint="j" class="c"/>',
     'leave dyntype="pid" out', '<pid kp="1" ki="0"/><general/>'),
    ('<pid kp="1" ki="0"/>', '<general joint="j" class="c" dyntype="pid"/>',
     'leave dyntype="pid" out', None),
    ('<pid kp="1" ki="-1"/>', '<general joint="j" class="c"/>', "or both 0",
     '<pid kp="1" ki="0"/>'),
])
def test_a_pid_dyntype_without_state_is_told_a_fix_mujoco_loads(default, act, advice,
                                                                 followed):
    """A <general>'s dyntype="pid" over a <pid> of ki 0 was refused as "a pid dyntype (a
    nonzero ki="0" ...)", advised "or both 0", as they were: MuJoCo still refuses that. It
    is now advised to leave dyntype="pid" out (a <pid> of ki 0 and no slewmax keeps dyntype
    none), a <pid>'s own ki below 0 still "both 0"; MuJoCo loads the model the advice
    gives."""
    xml = doc(f'<default><default class="c">{default}</default></default>', WORLD,
              actuators(act))
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert _PID_STATES in expected and got is not None and advice in got, (expected, got)
    assert 'nonzero ki="0"' not in got
    fixed = (xml.replace(default, followed) if followed else
             xml.replace(' dyntype="pid"', ""))
    assert fixed != xml and mujoco_error(fixed) is None and urdf2dyn_error(fixed) is None


_G = '<geom size="0.1"/>'
SLEEP_PLACES = {     # body trees, the body with sleep= marked {s}; True: MuJoCo takes it
    "a root body with a free joint": (f'<body {{s}}><freejoint/>{_G}</body>', True),
    "a root body with a hinge": (f'<body {{s}}><joint/>{_G}</body>', True),
    "a body with joints under a static body": (f'<body>{_G}<body {{s}}><joint/>{_G}</body>'
                                               '</body>', True),
    "a root body in a <frame>": (f'<frame><body {{s}}><joint/>{_G}</body></frame>', True),
    "a root body without joints": (f'<body {{s}}>{_G}</body>', False),
    "a body under a moving body": (f'<body><freejoint/>{_G}<body {{s}}><joint/>{_G}</body>'
                                   '</body>', False),
    "a static body under a moving one": (f'<body><joint/>{_G}<body {{s}}>{_G}</body></body>',
                                         False),
}


@pytest.mark.parametrize("policy", ["never", "allowed", "init", "auto"])
@pytest.mark.parametrize("place", sorted(SLEEP_PLACES))
def test_a_sleep_policy_is_taken_only_on_a_moving_trees_root_as_mujoco_takes_it(place, policy):
    """MuJoCo 4 takes a body's sleep policy other than "auto" only on a movable root body (a
    body with joints whose ancestors have none): "sleep policy only allowed for movable root
    bodies". urdf2dyn loaded it on any body. Oracle: MuJoCo on the same model; the refusal
    names the body, the policy, MuJoCo's reason and what to do."""
    tree, rooted = SLEEP_PLACES[place]
    xml = doc("<worldbody>" + tree.format(s=f'name="s" sleep="{policy}"') + "</worldbody>")
    words = None if rooted or policy == "auto" else [
        "body 's'", f'sleep="{policy}"', "sleep policy only allowed for movable root bodies",
        "give it on that body, or leave sleep out here"]
    assert_as_mujoco(xml, words)

