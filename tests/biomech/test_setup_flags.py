"""Bool properties of OpenSim setup files (true/false, 1/0, True, yes/no, blanks) read as
OpenSim 4.6 reads them, against OpenSim itself. OpenSim has two kinds of bool property:
those declared the current way (OpenSim_DECLARE_PROPERTY: the IK tool's <report_errors>, an
IK task's <apply>, actuators' <*_is_global>, a force's <appliesForce>) read 'true'/'false'
in any case or a whole number 0 or 1 and ignore anything else (keeping the default); the
older kind (the ScaleTool's <apply> and <preserve_mass_distribution>, RRA's
<replace_force_set> and <adjust_com_to_reduce_residuals>) reads 'true' in any case as true
and anything else, '1' included, as false. urdf2dyn reads what OpenSim reads and refuses
what it would ignore or read as false without saying so, naming the file, the element and
its line."""
import re

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from urdf2dyn.biomech.formats.ik_setup import IKSetupError, read_ik_setup
from urdf2dyn.biomech.formats.scale_setup import ScaleSetupError, read_scale_setup

#: values to try: OpenSim's spellings, numbers, words, blanks
VALUES = st.one_of(
    st.sampled_from(["true", "false", "True", "FALSE", " true ", "\n\ttrue\n", "1", "0", "01",
                     "+1", "-0", "1.0", "0.5", "1x", "2", "-1", "10", "yes", "no", "Y", "on",
                     "off", "t", "", "   ", "truex"]),
    st.from_regex(r"[ \t]{0,2}[+-]?[01TtRrUuEeFfAaLlSsYyNnOo.]{1,5}[ \t]{0,2}", fullmatch=True))

IK = """<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40000">
<InverseKinematicsTool name="ik">
<report_errors>{v}</report_errors>
<report_marker_locations>{v}</report_marker_locations>
<IKTaskSet>
<objects>
<IKMarkerTask name="A">
<apply>{v}</apply>
<weight>1</weight>
</IKMarkerTask>
</objects>
</IKTaskSet>
</InverseKinematicsTool>
</OpenSimDocument>
"""

SCALE = """<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40000">
<ScaleTool name="s">
<mass>70</mass>
<ModelScaler>
<apply>{v}</apply>
<preserve_mass_distribution>{v}</preserve_mass_distribution>
</ModelScaler>
<MarkerPlacer>
<apply>false</apply>
</MarkerPlacer>
</ScaleTool>
</OpenSimDocument>
"""

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(value=VALUES)
@example(value="1")
@example(value="yes")
@example(value="2")
@example(value="True")
def test_current_kind_of_bool_as_opensim_reads_it(osim, tmp_path_factory, value):
    """Oracle: OpenSim 4.6's InverseKinematicsTool read from the setup: a value it reads is
    the same in <report_errors> (default true) and <report_marker_locations> (default
    false); one it ignores leaves each at its default. urdf2dyn's <report_errors> and the
    task's <apply> are what OpenSim reads, and a value OpenSim ignores is refused naming
    the file, the element and its line (4). A value of several words, of which OpenSim reads
    the first, is refused too; an empty one is the default, to OpenSim and urdf2dyn."""
    path = tmp_path_factory.mktemp("flags") / "Setup_IK.xml"
    path.write_text(IK.format(v=value))
    tool = osim.InverseKinematicsTool(str(path), False)
    theirs = tool.get_report_errors()
    read = theirs == tool.get_report_marker_locations()
    task = osim.IKMarkerTask.safeDownCast(tool.getIKTaskSet().get(0)).getApply()
    if (read and len(value.split()) == 1) or not value.strip():    # empty: the default
        s = read_ik_setup(path)
        assert s.report_errors == theirs and s.tasks[0].apply == task == theirs, value
        return
    with pytest.raises(IKSetupError, match=re.escape(f"{path}: <report_errors> (line 4): ")):
        read_ik_setup(path)


@SETTINGS
@given(value=VALUES)
@example(value="1")
@example(value="True")
@example(value="")
@example(value="yes")
def test_older_kind_of_bool_as_opensim_reads_it(osim, tmp_path_factory, value):
    """Oracle: OpenSim 4.6's ScaleTool read from the setup: its ModelScaler's <apply> and
    <preserve_mass_distribution> are true for 'true' in any case and false for anything
    else. urdf2dyn read '1' as true (OpenSim: false, the model left unscaled) and an empty
    <apply/> as true; it reads 'true' and 'false' as OpenSim does and refuses the rest,
    naming the file, the element and its line (6)."""
    path = tmp_path_factory.mktemp("flags") / "Setup_Scale.xml"
    path.write_text(SCALE.format(v=value))
    scaler = osim.ScaleTool(str(path)).getModelScaler()
    theirs = scaler.getApply()
    assert scaler.getPreserveMassDist() == theirs
    if value.strip().lower() in ("true", "false"):
        s = read_scale_setup(path)
        assert s.scale == s.preserve_mass_distribution == theirs, value
        return
    assert not theirs, value                       # what urdf2dyn refuses, OpenSim reads false
    with pytest.raises(ScaleSetupError, match=re.escape(f"{path}: <ModelScaler> <apply> "
                                                        "(line 6): ") + ".*reads this property "
                                                                         "as false"):
        read_scale_setup(path)


LOADS = """<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40000">
<ExternalLoads name="l">
<objects>
<ExternalForce name="r">
<appliesForce>{v}</appliesForce>
<applied_to_body>link2</applied_to_body>
<force_expressed_in_body>ground</force_expressed_in_body>
<point_expressed_in_body>ground</point_expressed_in_body>
<force_identifier>f_v</force_identifier>
<point_identifier>f_p</point_identifier>
</ExternalForce>
</objects>
<datafile>g.mot</datafile>
</ExternalLoads>
</OpenSimDocument>
"""


@pytest.mark.parametrize("value", ["true", "FALSE", "1", "0", "yes", "2"])
def test_applies_force_of_external_loads_as_opensim_reads_it(osim, tmp_path, value):
    """Oracle: OpenSim 4.6's ExternalLoads read from the file (a force's <appliesForce> is
    of the current kind). urdf2dyn compared the value with 'true': '1', which OpenSim
    applies, left the force out without a word; 'yes', which OpenSim ignores (the force
    applies), did too. It now applies the force where OpenSim does and refuses what OpenSim
    ignores, naming the file, the force, the element and its line (6)."""
    from urdf2dyn.biomech.formats import read_external_loads
    from urdf2dyn.biomech.formats.opensim import ExternalLoadsError
    (tmp_path / "g.mot").write_text(
        "g\nversion=1\nnRows=2\nnColumns=7\ninDegrees=no\nendheader\n"
        "time\tf_vx\tf_vy\tf_vz\tf_px\tf_py\tf_pz\n0\t1\t2\t30\t0\t0\t0\n1\t1\t2\t30\t0\t0\t0\n")
    path = tmp_path / "loads.xml"
    path.write_text(LOADS.format(v=value))
    loads = osim.ExternalLoads.safeDownCast(osim.OpenSimObject.makeObjectFromFile(str(path)))
    applies = osim.ExternalForce.safeDownCast(loads.get(0)).get_appliesForce()
    if value in ("yes", "2"):                      # ignored by OpenSim: the default, true
        assert applies
        with pytest.raises(ExternalLoadsError, match=re.escape(
                f"{path}: ExternalForce 'r' <appliesForce> (line 6): {value!r} is not true "
                "or false")):
            read_external_loads(path)
        return
    if applies:
        assert len(read_external_loads(path).forces) == 1, value
    else:                                           # the only force off: nothing to read
        with pytest.raises(ExternalLoadsError, match="no enabled <ExternalForce>"):
            read_external_loads(path)


def test_a_unicode_setup_file_keeps_its_line_numbers(tmp_path):
    """A setup saved as UTF-16 (Notepad's "Unicode") is read with a warning (OpenSim cannot
    read it); its refusals still name the element's line, as in the UTF-8 file (UTF-16 was
    parsed without the line numbers: '<report_errors> (line None)')."""
    import warnings
    from urdf2dyn import Urdf2dynWarning
    path = tmp_path / "Setup_IK.xml"
    path.write_bytes(IK.format(v="yes").replace('encoding="UTF-8"', 'encoding="UTF-16"')
                     .encode("utf-16"))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "(?s).*UTF-16", Urdf2dynWarning)
        with pytest.raises(IKSetupError, match=re.escape("<report_errors> (line 4): ")):
            read_ik_setup(path)
