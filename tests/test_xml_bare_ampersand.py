"""A bare '&' in text or in an attribute value (not the start of an entity such as &amp;).

XML requires '&amp;', but real models carry the bare character: the knee model of
OpenSim-JAM (github.com/clnsmith/opensim-jam, commit fb777056, Apache-2.0,
models/lenhart2015/lenhart2015.osim, line 5) credits its authors as "Lenhart, R. L.,
Kaiser, J., Smith, C. R., & Thelen, D. G.". OpenSim 4.6 loads such a file (dropping the
'&'); urdf2dyn loads it too, keeps the '&' as the character and says where it is, instead of
refusing the whole model. The model below is a small synthetic one with that credits line.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import URDFError, URDFWarning
from urdf2dyn.biomech.formats.osim import OsimEdit

CREDITS = "Lenhart, R. L., Kaiser, J., Smith, C. R., & Thelen, D. G."

OSIM = f"""<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40000">
\t<Model name="knee&amp;shank" credits="A & B">
\t\t<credits>{CREDITS}</credits>
\t\t<publications>Annals of biomedical engineering, 43(11) &#38; more &amp so on</publications>
\t\t<gravity>0 -9.8066 0</gravity>
\t\t<BodySet><objects>
\t\t\t<Body name="shank"><mass>3.5</mass><mass_center>0 -0.2 0.01</mass_center>
\t\t\t<inertia>0.05 0.004 0.05 0 0 0</inertia></Body>
\t\t</objects></BodySet>
\t\t<JointSet><objects>
\t\t\t<PinJoint name="knee"><socket_parent_frame>/ground</socket_parent_frame>
\t\t\t<socket_child_frame>/bodyset/shank</socket_child_frame>
\t\t\t<coordinates><Coordinate name="knee_angle"/></coordinates></PinJoint>
\t\t</objects></JointSet>
\t\t<!-- a comment may hold a bare & as it is: no warning for it -->
\t</Model>
</OpenSimDocument>
"""


def _load_quietly(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", URDFWarning)
        return urdf2dyn.load(path)


def test_bare_ampersands_are_read_as_the_character_with_their_lines_named(tmp_path):
    path = tmp_path / "knee.osim"
    path.write_text(OSIM)
    with pytest.warns(URDFWarning) as record:
        model = urdf2dyn.load(path)
    messages = [str(w.message) for w in record if "'&'" in str(w.message)]
    # line 3 (an attribute value), line 4 (credits) and line 5 ('&amp so on' lacks its ';');
    # not the comment on line 16
    assert [m.split(": ")[0] for m in messages] == [f"{path}:3", f"{path}:4", f"{path}:5"], \
        messages
    for message in messages:
        assert "&amp;" in message and "read as the character '&'" in message, message
        # OpenSim 4.6 drops a bare '&' (cmp.py of the review: body 'sh&nk' is 'shnk' there)
        assert "OpenSim drops it" in message and "OpenSim loads it" not in message, message
    assert model.nq == 1
    with pytest.raises(URDFError, match="&amp;"):
        urdf2dyn.load(path, strict=True)


def test_the_dynamics_are_opensims(tmp_path):
    """OpenSim 4.6 loads the same text (it drops the bare '&'); the knee moment of one
    motion agrees."""
    osim = pytest.importorskip("opensim")
    from osim_oracle import Oracle
    path = tmp_path / "knee.osim"
    path.write_text(OSIM)
    model = _load_quietly(path)
    oracle = Oracle(osim, str(path), model.q_names)
    assert oracle.om.getCredits() == CREDITS.replace("&", "")
    q, v, a = np.array([0.7]), np.array([-1.3]), np.array([4.0])
    expected = oracle.inverse_dynamics(q, v, a)
    assert np.allclose(model.inverse_dynamics(q, v, a), expected, rtol=1e-12, atol=1e-12)


def test_a_written_model_keeps_the_credits_and_is_valid_xml(tmp_path):
    """The writer starts from the input's text: the '&' comes out as &amp;, so OpenSim and
    any strict XML parser read the credits back unchanged."""
    import xml.etree.ElementTree as ET
    path = tmp_path / "knee.osim"
    path.write_text(OSIM)
    edit = OsimEdit(_load_quietly(path))
    edit.body("shank", mass=4.0)
    out = tmp_path / "knee_heavier.osim"
    edit.write(out)
    root = ET.parse(out).getroot()
    assert root.find("Model/credits").text == CREDITS
    osim = pytest.importorskip("opensim")
    written = osim.Model(str(out))
    assert written.getCredits() == CREDITS
    assert written.getBodySet().get("shank").getMass() == 4.0


def _ampersand_warnings(record):
    return [str(w.message) for w in record if "'&'" in str(w.message)]


def test_a_bare_ampersand_in_a_doctype_is_read_without_a_note(tmp_path):
    """XML allows a bare '&' in a directive's literal (<!DOCTYPE ... SYSTEM "R&D.dtd">), but
    Mini-XML decodes references there and refused the file; OpenSim 4.6 loads it."""
    path = tmp_path / "knee.osim"
    path.write_text(OSIM.replace("<OpenSimDocument", '<!DOCTYPE OpenSimDocument SYSTEM '
                                 '"R&D.dtd">\n<OpenSimDocument', 1).replace("&", "and")
                    .replace('"Rand', '"R&'))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        model = urdf2dyn.load(path)
    assert model.nq == 1 and _ampersand_warnings(record) == []
    osim = pytest.importorskip("opensim")
    assert osim.Model(str(path)).getBodySet().get(0).getName() == "shank"


def test_many_bare_ampersands_give_three_notes_and_a_summary(tmp_path):
    """One note per bare '&' grew without limit (1 MB of '&': a million warnings)."""
    many = "\n".join(["R & D"] * 10)         # lines 4 to 13 of the file
    path = tmp_path / "knee.osim"
    path.write_text(OSIM.replace(" credits=\"A & B\"", "").replace(CREDITS, many)
                    .replace("&amp so on", "&amp; so on"))
    with pytest.warns(URDFWarning) as record:
        urdf2dyn.load(path)
    messages = _ampersand_warnings(record)
    assert [m.split(": ")[0] for m in messages] == [f"{path}:{k}" for k in (4, 5, 6, 7)], \
        messages
    assert "7 more bare '&'" in messages[3] and "the last on line 13" in messages[3], messages


MJCF_PART = """<mujoco>

<worldbody><body name="p & q"><joint name="k" type="hinge"/>
<geom type="sphere" size="0.1"/></body></worldbody></mujoco>
"""


def test_an_included_mjcf_file_is_named_with_its_line(tmp_path):
    """The note named the main file and no line for a bare '&' in an <include>d file."""
    (tmp_path / "part.xml").write_text(MJCF_PART)
    main = tmp_path / "main.xml"
    main.write_text('<mujoco model="R&D">\n<include file="part.xml"/>\n<!-- & -->\n</mujoco>\n')
    with pytest.warns(URDFWarning) as record:
        model = urdf2dyn.load(main)
    messages = _ampersand_warnings(record)
    assert len(messages) == 2 and messages[0].startswith(f"{main}:1: "), messages
    assert f"{tmp_path / 'part.xml'}, line 3: " in messages[1], messages
    assert not any("OpenSim" in m for m in messages), messages
    mujoco = pytest.importorskip("mujoco")
    mj = mujoco.MjModel.from_xml_path(str(main))      # MuJoCo keeps the '&' as we do
    assert mj.body(1).name == "p & q" and "p & q" in model.link_names


def test_a_urdf_with_a_bare_ampersand_becomes_an_opensim_model(tmp_path):
    """to_opensim re-read the URDF text with a strict parser and crashed on the '&'."""
    osim = pytest.importorskip("opensim")
    import re
    from urdf2dyn.bundled import data_path
    from urdf2dyn.biomech.opensim_model import to_opensim
    text = re.sub(r'<robot name="[^"]*"', '<robot name="R&D robot"',
                  open(data_path("robot2r.urdf")).read(), count=1)
    path = tmp_path / "rd.urdf"
    path.write_text(text)
    with pytest.warns(URDFWarning) as record:
        model = urdf2dyn.load(path)
    assert [m for m in _ampersand_warnings(record) if "OpenSim" in m] == []
    with pytest.warns(Warning, match="'R&D_robot'"):    # the blank is OpenSim's concern
        built = to_opensim(model)
    out = tmp_path / "rd.osim"
    built.printToXML(str(out))
    back = osim.Model(str(out))
    back.initSystem()
    bodies = back.getBodySet()
    mass = sum(bodies.get(k).getMass() for k in range(bodies.getSize()))
    assert bodies.getSize() > 0 and np.isclose(mass, model.total_mass), mass


@pytest.mark.parametrize("value", ["x --&gt; &lt;!-- y", "x --&gt; <!-- y", "<?y", "<![CDATA[y"])
def test_markup_inside_an_attribute_value_does_not_hide_a_bare_ampersand(value, tmp_path):
    """XML has comments, CDATA and processing instructions only outside tags: a '<!--' in an
    attribute value (a '<' there is not XML, but Mini-XML and OpenSim read it as written) is
    text. The '&' pass took it for a comment, skipped to the next '-->' (here: none) and
    left the credits' bare '&' unescaped, so the file was refused ("Character entity ''
    not terminated"). OpenSim 4.6 loads the same text; the knee moment agrees."""
    path = tmp_path / "knee.osim"
    path.write_text(OSIM.replace('credits="A & B"', f'credits="{value}"')
                    .replace("\t\t<!-- a comment may hold a bare & as it is: no warning for "
                             "it -->\n", ""))
    with pytest.warns(URDFWarning) as record:
        model = urdf2dyn.load(path)
    assert [m.split(": ")[0] for m in _ampersand_warnings(record)] == \
        [f"{path}:4", f"{path}:5"], _ampersand_warnings(record)
    osim = pytest.importorskip("opensim")
    from osim_oracle import Oracle
    oracle = Oracle(osim, str(path), model.q_names)
    assert oracle.om.getCredits() == CREDITS.replace("&", "")
    q, v, a = np.array([0.7]), np.array([-1.3]), np.array([4.0])
    assert np.allclose(model.inverse_dynamics(q, v, a), oracle.inverse_dynamics(q, v, a),
                       rtol=1e-12, atol=1e-12)


def test_a_marker_set_file_with_a_bare_ampersand_is_warned_about_as_a_model(tmp_path):
    """A marker set file (GenericModelMaker's marker_set_file) went through the same '&'
    pass as a model but without its notes: a marker named 'Stern&um' was read silently,
    where OpenSim 4.6 reads 'Sternum'. It now gets the model's warning, with its line, and
    is refused under strict."""
    import os
    from urdf2dyn.biomech.formats.osim import read_marker_set
    published = os.path.join(os.path.dirname(__file__), "data", "scale", "gait2354",
                             "gait2354_Scale_MarkerSet.xml")
    with open(published, encoding="utf-8") as f:
        text = f.read()
    path = tmp_path / "markers.xml"
    path.write_text(text.replace('<Marker name="Sternum">', '<Marker name="Stern&um">', 1))
    with pytest.warns(URDFWarning) as record:
        markers = read_marker_set(path)
    messages = _ampersand_warnings(record)
    assert len(messages) == 1 and messages[0].startswith(f"{path}:5: "), messages
    assert "OpenSim drops it" in messages[0] and "&amp;" in messages[0], messages
    assert markers[0][0] == "Stern&um"
    with pytest.raises(ValueError, match="&amp;"):
        read_marker_set(path, strict=True)
    osim = pytest.importorskip("opensim")
    theirs = osim.MarkerSet(str(path))
    assert theirs.getSize() == len(markers) and theirs.get(0).getName() == "Sternum"
