"""Paths over wrap objects urdf2dyn does not model (spheres, ellipsoids, tori) are reported
once per measurement, all paths in one warning, and the scale tool does not repeat it for the
scaled model. OpenSim-JAM's lenhart2015 knee (github.com/clnsmith/opensim-jam, commit
fb777056) gave 30 such paths, each reported twice: 60 warnings on `urdf2dyn scale`. The model
here is synthetic: two path springs pass through one active WrapSphere at the default pose.
"""
from __future__ import annotations

import warnings

import urdf2dyn
from urdf2dyn import Urdf2dynWarning
from urdf2dyn.biomech.formats.osim import OsimEdit, path_lengths
from urdf2dyn.biomech.scaling import default_pose, scale_lengths


def _band(name, x):
    return (f'<PathSpring name="{name}"><resting_length>0.3</resting_length><stiffness>10'
            '</stiffness><dissipation>0</dissipation><GeometryPath name="path"><PathPointSet>'
            '<objects><PathPoint name="a"><socket_parent_frame>/ground</socket_parent_frame>'
            f'<location>{x} 0.2 0</location></PathPoint><PathPoint name="b">'
            '<socket_parent_frame>/bodyset/bar</socket_parent_frame><location>0 -0.2 0'
            '</location></PathPoint></objects></PathPointSet><PathWrapSet><objects>'
            '<PathWrap name="w"><wrap_object>knob</wrap_object><method>hybrid</method>'
            '<range>-1 -1</range></PathWrap></objects></PathWrapSet></GeometryPath>'
            '</PathSpring>\n')


OSIM = f"""<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40000"><Model name="wrapped"><gravity>0 -9.80665 0</gravity>
<BodySet><objects><Body name="bar"><mass>1</mass><mass_center>0 -0.2 0</mass_center>
<inertia>0.01 0.01 0.01 0 0 0</inertia><WrapObjectSet><objects><WrapSphere name="knob">
<active>true</active><xyz_body_rotation>0 0 0</xyz_body_rotation><translation>0 0 0
</translation><quadrant>all</quadrant><radius>0.05</radius></WrapSphere></objects>
</WrapObjectSet></Body></objects></BodySet>
<JointSet><objects><SliderJoint name="slide"><socket_parent_frame>/ground</socket_parent_frame>
<socket_child_frame>/bodyset/bar</socket_child_frame><coordinates><Coordinate name="x"/>
</coordinates></SliderJoint></objects></JointSet>
<ForceSet><objects>
{_band("band1", 0.001)}{_band("band2", -0.001)}</objects></ForceSet>
</Model></OpenSimDocument>
"""


def _model():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return urdf2dyn.load(OSIM)


def _wrap_warnings(call):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in record
            if issubclass(w.category, Urdf2dynWarning) and "wrap" in str(w.message)]


def test_one_warning_names_every_path_and_its_wrap():
    model = _model()
    messages = _wrap_warnings(lambda: path_lengths(model, default_pose(model)))
    assert len(messages) == 1, messages
    for word in ("2 paths", "'band1'", "'band2'", "'knob'", "cylinders only", "OpenSim"):
        assert word in messages[0], (word, messages[0])
    # worded for any caller: path_lengths called here, not by the scale tool
    assert "scale tool writes" not in messages[0], messages[0]


def test_scaling_reports_the_paths_once():
    model = _model()
    messages = _wrap_warnings(lambda: scale_lengths(model, model, OsimEdit(model)))
    assert len(messages) == 1, messages
    assert "a scaled model's muscle lengths" in messages[0], messages[0]
