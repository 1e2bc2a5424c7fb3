"""Which element of an ID, IK or Scale setup file OpenSim 4.6 reads as the tool: the first
element of <OpenSimDocument> (or the root itself), whatever its name (XMLDocument::
getRootDataElement; the RRA reader already followed it, tests/biomech/test_rra_setup.py).
The oracle is OpenSim 4.6's own tool reading the same file. urdf2dyn read the tool element
wherever it sat, and refused another name without saying that OpenSim reads it: now both
are refused naming the element OpenSim reads and what to do."""
import os
import re

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from urdf2dyn.biomech.formats.ik_setup import IKSetupError, read_ik_setup
from urdf2dyn.biomech.formats.opensim_setup import SetupError, read_id_setup
from urdf2dyn.biomech.formats.scale_setup import ScaleSetupError, read_scale_setup

#: per tool: its element, urdf2dyn's reader and error, the setup's body with one number
#: {x}, how OpenSim's tool (the opensim module given) reads that number
TOOLS = {
    "ID": ("InverseDynamicsTool", read_id_setup, SetupError,
           "<coordinates_file>c.mot</coordinates_file><lowpass_cutoff_frequency_for_"
           "coordinates>{x}</lowpass_cutoff_frequency_for_coordinates>",
           lambda osim, p: osim.InverseDynamicsTool(p).getLowpassCutoffFrequency()),
    "IK": ("InverseKinematicsTool", read_ik_setup, IKSetupError,
           "<accuracy>{x}</accuracy>",
           lambda osim, p: osim.InverseKinematicsTool(p).get_accuracy()),
    "scale": ("ScaleTool", read_scale_setup, ScaleSetupError,
              "<mass>{x}</mass><ModelScaler><apply>false</apply></ModelScaler>"
              "<MarkerPlacer><apply>false</apply></MarkerPlacer>",
              lambda osim, p: osim.ScaleTool(p).getSubjectMass())}


def _number_read(kind, setup):
    """The number of TOOLS' body as urdf2dyn's reader of kind read it."""
    return {"ID": lambda: setup.lowpass_hz, "IK": lambda: setup.accuracy,
            "scale": lambda: setup.mass}[kind]()


def _write(folder, kind, elements, rootless=False):
    """A setup of tool kind in folder holding elements [(name, number)], in order."""
    tag, _, _, body, _ = TOOLS[kind]
    (folder / "c.mot").write_text("x\nendheader\ntime\ta\n0\t0\n")
    inner = "".join(f'<{name} name="t">{body.format(x=x)}</{name}>' for name, x in elements)
    text = inner if rootless else f'<OpenSimDocument Version="40000">{inner}</OpenSimDocument>'
    path = folder / "setup.xml"
    path.write_text(f'<?xml version="1.0" encoding="UTF-8" ?>\n{text}\n')
    return path


@pytest.mark.parametrize("rootless", [False, True], ids=["document", "rootless"])
@pytest.mark.parametrize("kind", sorted(TOOLS))
def test_another_name_opensim_reads_as_the_setup_is_refused(osim, tmp_path, kind, rootless):
    tag, read, error, _, opensim_reads = TOOLS[kind]
    path = _write(tmp_path, kind, [("FooTool", 7)], rootless)
    assert opensim_reads(osim, os.fspath(path)) == 7             # OpenSim reads <FooTool>
    with pytest.raises(error) as e:
        read(path)
    assert str(e.value).startswith(f"{path}: no <{tag}> element"), e.value
    assert (f"OpenSim 4.6 reads <FooTool> as the {kind} setup whatever its name: if it is "
            f"one, rename it <{tag}>") in str(e.value)


@pytest.mark.parametrize("kind", sorted(TOOLS))
def test_the_tool_behind_another_element_is_refused(osim, tmp_path, kind):
    """<Notes> before the tool: OpenSim reads <Notes>' number, not the tool's; urdf2dyn read
    the tool's, another setup than OpenSim's, unsaid."""
    tag, read, error, _, opensim_reads = TOOLS[kind]
    path = _write(tmp_path, kind, [("Notes", 7), (tag, 9)])
    assert opensim_reads(osim, os.fspath(path)) == 7
    with pytest.raises(error, match=re.escape(
            f"{path}: <Notes> comes first in <OpenSimDocument>: OpenSim 4.6 reads it as the "
            f"{kind} setup, not the <{tag}> after it: move <{tag}> first (or remove <Notes>)")):
        read(path)


@pytest.mark.parametrize("kind", sorted(TOOLS))
def test_a_rootless_element_holding_the_tool_is_refused(osim, tmp_path, kind):
    """A root <Wrapper> holding the tool: OpenSim reads <Wrapper> itself (its number), not
    the tool inside it, which urdf2dyn read."""
    tag, read, error, body, opensim_reads = TOOLS[kind]
    path = tmp_path / "c.mot"
    path.write_text("x\nendheader\ntime\ta\n0\t0\n")
    path = tmp_path / "setup.xml"
    path.write_text(f'<Wrapper>{body.format(x=7)}<{tag} name="t">{body.format(x=9)}</{tag}>'
                    "</Wrapper>")
    assert opensim_reads(osim, os.fspath(path)) == 7
    with pytest.raises(error, match=re.escape(f"OpenSim 4.6 reads <Wrapper> as the {kind} "
                                              f"setup whatever its name")):
        read(path)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(TOOLS)),
       first=st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,15}", fullmatch=True),
       second=st.booleans())
@example(kind="ID", first="InverseDynamicsTool", second=True)
@example(kind="IK", first="InverseDynamicsTool", second=False)
def test_the_first_element_is_read_or_refused_as_opensim_reads_it(osim, tmp_path_factory,
                                                                   kind, first, second):
    """Any first element, the tool itself after it or not: OpenSim reads the first one's
    number; urdf2dyn reads that same number when it is the tool and refuses it, naming it,
    when it is not."""
    tag, read, error, _, opensim_reads = TOOLS[kind]
    path = _write(tmp_path_factory.mktemp("root"), kind,
                  [(first, 7)] + ([(tag, 9)] if second else []))
    assert opensim_reads(osim, os.fspath(path)) == 7
    if first == tag:
        assert _number_read(kind, read(path)) == 7
        return
    with pytest.raises(error, match=re.escape(f"<{first}>")):
        read(path)


GRF_XML = os.path.join(os.path.dirname(__file__), os.pardir, "data", "opensim_models",
                       "Gait2354_Simbody", "subject01_walk1_grf.xml")


@pytest.mark.parametrize("first", ["Notes", "ExternalForce", "defaults"])
def test_external_loads_behind_another_element_are_refused(osim, tmp_path, first):
    """gait2354's published ExternalLoads file with another element before <ExternalLoads>:
    OpenSim 4.6 (the oracle: ExternalLoads(file), as its ID tool reads the file) reads that
    element as the loads, so no force and no data file, and its ID tool runs without the
    ground reactions; urdf2dyn applied both feet's, unsaid. Refused now, naming both."""
    import shutil

    from urdf2dyn.biomech.formats.opensim import ExternalLoadsError, read_external_loads
    shutil.copy(GRF_XML.replace(".xml", ".mot"), tmp_path)
    text = open(GRF_XML).read()
    path = tmp_path / "grf.xml"
    path.write_text(re.sub(r"(<OpenSimDocument[^>]*>)", rf'\1<{first} name="x"/>', text,
                           count=1))
    theirs = osim.ExternalLoads(os.fspath(path), True)
    assert (theirs.getSize(), theirs.getDataFileName()) == (0, "")
    assert osim.ExternalLoads(GRF_XML, True).getSize() == 2      # the file as published
    with pytest.raises(ExternalLoadsError, match=re.escape(
            f"{path}: <{first}> comes first in <OpenSimDocument>: OpenSim 4.6 reads it as the "
            "ExternalLoads setup, not the <ExternalLoads> after it: move <ExternalLoads> "
            f"first (or remove <{first}>)")):
        read_external_loads(path)


RRA_FILES = {"tasks": ("gait2354_RRA_Tasks.xml", "CMC_TaskSet", "RRA tasks"),
             "actuators": ("gait2354_RRA_Actuators.xml", "ForceSet", "RRA actuators")}


@pytest.mark.parametrize("which", sorted(RRA_FILES))
def test_an_rra_task_or_force_set_behind_another_element_is_refused(osim, tmp_path, which):
    """gait2354's published RRA task set (23 tasks) or force set (23 actuators) with <Notes>
    before the set: OpenSim 4.6 (the oracle: CMC_TaskSet(file) and ForceSet(file), as its
    RRATool reads them) reads <Notes> as the set, so no task or actuator; urdf2dyn read all
    23, another RRA than OpenSim's, unsaid. Refused now, naming both."""
    from urdf2dyn.biomech.formats.rra_setup import RRASetupError, read_actuators, read_tasks
    name, tag, kind = RRA_FILES[which]
    text = open(GRF_XML.replace("subject01_walk1_grf.xml", name)).read()
    path = tmp_path / name
    path.write_text(re.sub(r"(<OpenSimDocument[^>]*>)", r"\1<Notes/>", text, count=1))
    opensim_set = osim.CMC_TaskSet if which == "tasks" else osim.ForceSet
    assert opensim_set(os.fspath(path)).getSize() == 0
    with pytest.raises(RRASetupError, match=re.escape(
            f"{path}: <Notes> comes first in <OpenSimDocument>: OpenSim 4.6 reads it as the "
            f"{kind} setup, not the <{tag}> after it: move <{tag}> first (or remove <Notes>)")):
        (read_tasks if which == "tasks" else read_actuators)(path)
