"""MJCF inputs MuJoCo refuses, where urdf2dyn loaded them silently (keyframes of the wrong size,
repeated names, a mesh site without its mesh, inverted force and control ranges): each case runs
MuJoCo (the oracle) and urdf2dyn on the same XML, and both refuse it (urdf2dyn naming the
element, its line and what to do) or both load it."""
import warnings

import pytest

import mjcf_oracle as oracle
import urdf2dyn

mujoco = oracle.mujoco

BODY = '<body name="b"><joint name="j"/><geom size="0.1"/></body>'
WORLD = f"<worldbody>{BODY}</worldbody>"
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


def doc(*parts):
    return "<mujoco>" + "".join(parts) + "</mujoco>"


def actuators(*elements):
    return "<actuator>" + "".join(elements) + "</actuator>"


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
