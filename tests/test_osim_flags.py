"""The .osim reader's bool properties against OpenSim 4.6 (opensim.Model): a coordinate's
<locked> and <clamped>, a marker's <fixed> (Property<bool>: 'true' or 'false' in any case, or
a leading whole number 0 or 1 as C++'s ``>> bool`` reads it; anything else ignored, keeping
the default false), and an OpenSim 3 joint's <reverse> (SimTK's tryConvertToBool: the same
words, then ``>> bool``, its answer used even when it fails). urdf2dyn reads what OpenSim
reads, and refuses what OpenSim would ignore (or read as another word than the user wrote),
naming the line and the element."""
from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn import URDFError
from urdf2dyn.biomech.formats.osim import document

ARM26 = os.path.join(os.path.dirname(__file__), "data", "opensim_core", "arm26.osim")

#: each property: (its element in arm26 as published, its line there, what OpenSim reads,
#: what urdf2dyn reads), both as a bool
PROPERTIES = {
    "locked": ("<locked> false </locked>",
               lambda m: m.getCoordinateSet().get("r_shoulder_elev").get_locked(),
               lambda u: "r_shoulder_elev" in u.locked_coordinates),
    "clamped": ("<clamped> true </clamped>",
                lambda m: m.getCoordinateSet().get("r_shoulder_elev").get_clamped(),
                lambda u: "r_shoulder_elev" in u.clamped_ranges),
    "fixed": ("<fixed> false </fixed>",
              lambda m: m.getMarkerSet().get("r_acromion").get_fixed(),
              lambda u: {k.name: k.fixed for k in document(u).markers}["r_acromion"]),
}

#: the spellings the review asked about, and those around them
SPELLINGS = ["true", "True", "TRUE", "1", "0", " true ", "yes", "", "false", "False", "01",
             "+1", "1x", "0x", "-0", "2", "-1", "t", "truex", "true false", "1 0", "on"]


def _arm26(tmp_path, published, text):
    """arm26.osim with its first `published` element holding text: (its path, the line)."""
    with open(ARM26, encoding="utf-8") as f:
        src = f.read()
    elem = re.match(r"<(\w+)>", published).group(1)
    path = tmp_path / "m.osim"
    path.write_text(src.replace(published, f"<{elem}>{text}</{elem}>", 1), encoding="utf-8")
    return os.fspath(path), src[:src.index(published)].count("\n") + 1


def _ours(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                  # arm26's muscles, said elsewhere
        return urdf2dyn.load(path)


def _check(osim, tmp_path, name, text):
    """urdf2dyn reads <name>text</name> as OpenSim does, or refuses it naming the line and
    the element, where OpenSim ignores it (its default, false) or reads one of several
    words."""
    published, theirs_of, ours_of = PROPERTIES[name]
    path, line = _arm26(tmp_path, published, text)
    theirs = bool(theirs_of(osim.Model(path)))
    try:
        ours = ours_of(_ours(path))
    except URDFError as e:
        said = str(e)
        assert f"m.osim:{line}:" in said and f"<{name}>" in said and "true or false" in said, \
            said
        assert not theirs or len(text.split()) > 1, (text, said)
        return None
    assert ours == theirs, (name, text, ours, theirs)
    return ours


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_every_spelling_is_read_as_opensim_reads_it_or_refused(osim, tmp_path, name):
    """'True', 'TRUE', '01', '+1', '1x' are true to OpenSim 4.6 (and 'False', '0x' false):
    urdf2dyn refused them all ('expected true or false'). 'yes', '2', '-1', 't' OpenSim
    ignores, keeping false: refused naming the line and the element, as are several words."""
    read = {text: _check(osim, tmp_path, name, text) for text in SPELLINGS}
    assert {t for t, v in read.items() if v is True} == {"true", "True", "TRUE", "1",
                                                         " true ", "01", "+1", "1x"}
    assert {t for t, v in read.items() if v is False} == {"0", "", "false", "False", "0x",
                                                          "-0"}


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(PROPERTIES)),
       text=st.one_of(st.sampled_from(SPELLINGS),
                      st.text(alphabet="01+-.xeTRUEtruefalsFALS \t\n", max_size=8)))
def test_any_text_is_read_as_opensim_reads_it_or_refused(osim, tmp_path, name, text):
    """Oracle: opensim.Model on the same file."""
    _check(osim, tmp_path, name, text)


def _parent(osim, path):
    model = osim.Model(path)            # kept: SWIG frees a temporary model under its joints
    joint = model.getJointSet().get("r_shoulder")
    return joint.getSocket("parent_frame").getConnecteePath()


@pytest.mark.parametrize("text,reversed_", [
    ("true", True), ("True", True), ("1", True), ("1x", True), ("2", True),
    ("false", False), ("FALSE", False), ("", False), ("yes", False), ("true false", False)])
def test_an_opensim3_reverse_is_read_as_opensim_reads_it_or_refused(osim, tmp_path, text,
                                                                     reversed_):
    """An OpenSim 3 joint's <reverse> (arm26 is such a file): OpenSim 4.6 swaps the joint's
    frames when SimTK's tryConvertToBool says true ('True', '1x', and '2', which C++'s
    >> bool fails on but sets to true). urdf2dyn reads arm26's shoulder, a CustomJoint
    turning about z, reversed as OpenSim mobilizes it (test_osim_opensim_core.py compares
    the two); 'True' was refused as 'expected true or false', '1x' too. A value OpenSim
    does not read as a bool ('yes', several words) is refused naming the element, and so
    is '2', which only C++'s failed read makes true."""
    path, line = _arm26(tmp_path, "<reverse> false </reverse>", text)
    assert (_parent(osim, path) == "r_humerus_offset") == reversed_
    if text.strip().lower() in ("false", "", "true", "1", "1x"):
        _ours(path)
        return
    with pytest.raises(URDFError) as refused:
        _ours(path)
    said = str(refused.value)
    assert f"m.osim:{line}:" in said and "<reverse>" in said and "true or false" in said, said


GAIT2354 = os.path.join(os.path.dirname(__file__), "data", "scale", "gait2354",
                        "gait2354_simbody.osim")


@pytest.mark.parametrize("text", ["true", "false", "yes"])
def test_a_4x_reverse_is_ignored_as_opensim_ignores_it_with_a_warning(osim, tmp_path, text):
    """A joint's <reverse> in a file of version 30514 or later (gait2354 is 40000): OpenSim
    4.6 reads it only for older documents (Joint::updateFromXMLNode) and ignores it here,
    whatever it says. urdf2dyn refused it (true, and 'yes' as not a bool): it now reads the
    model as OpenSim does, the bodies placed where OpenSim places them, and warns once,
    naming the file, the line and the joint."""
    with open(GAIT2354, encoding="utf-8") as f:
        src = f.read()
    opening = '<CustomJoint name="knee_r">'
    path = tmp_path / "knee_reversed.osim"
    path.write_text(src.replace(opening, f"{opening}\n<reverse>{text}</reverse>", 1),
                    encoding="utf-8")
    line = src[:src.index(opening)].count("\n") + 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = urdf2dyn.load(os.fspath(path))
    said = [str(w.message) for w in caught if "<reverse>" in str(w.message)]
    assert len(said) == 1 and f"knee_reversed.osim:{line}:" in said[0], said
    assert "joint 'knee_r'" in said[0] and "delete the element" in said[0], said
    assert issubclass(next(w.category for w in caught if "<reverse>" in str(w.message)),
                      urdf2dyn.URDFWarning)
    om = osim.Model(os.fspath(path))
    assert om.getJointSet().get("knee_r").getParentFrame().findBaseFrame().getName() == "femur_r"
    s = om.initSystem()
    q = np.array([om.getCoordinateSet().get(n).getDefaultValue() for n in model.q_names])
    q = q + np.linspace(0.05, 0.3, len(q))            # away from zero: a pose, not a layout
    for n, x in zip(model.q_names, q):
        om.getCoordinateSet().get(n).setValue(s, float(x), False)
    om.realizePosition(s)
    pos, _ = model.forward_kinematics(q)
    bodies = om.getBodySet()
    for i in range(bodies.getSize()):
        b = bodies.get(i)
        np.testing.assert_allclose(pos[model.link_names.index(b.getName())],
                                   b.getPositionInGround(s).to_numpy(), atol=1e-12)
