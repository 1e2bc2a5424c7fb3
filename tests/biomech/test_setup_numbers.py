"""Numbers in OpenSim setup files beyond a double's range ('1e400'), read by every setup
reader sharing urdf2dyn's number parser (setup_xml.double) as OpenSim 4.6 reads them.
OpenSim's tools (the oracle: each reads the same file) do not read it, C++'s ``>> double``
failing there: the ID, Scale and RRA tools refuse the setup, the IK tool ignores the value
(keeping its default, with a line in its log). Python's float() took it as infinity, so
urdf2dyn ran with an infinite cut-off, time or weight the file never wrote. Refused now,
naming the file and element; OpenSim's own infinity words (Infinity, inf) are still read as
infinity."""
import os
import re
import shutil

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from urdf2dyn.biomech.formats.ik_setup import IKSetupError, read_ik_setup
from urdf2dyn.biomech.formats.opensim_setup import SetupError, read_id_setup
from urdf2dyn.biomech.formats.rra_setup import RRASetupError, read_rra_setup
from urdf2dyn.biomech.formats.scale_setup import ScaleSetupError, read_scale_setup

TOO_LARGE = ["1e400", "-1e400", " 1.8e308 "]


def _document(tool, body):
    return (f'<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">\n'
            f'<{tool} name="t">\n{body}\n</{tool}>\n</OpenSimDocument>\n')


def _id_setup(folder, cutoff="6", time_range="0 1"):
    (folder / "c.mot").write_text("x\nendheader\ntime\ta\n0\t0\n")
    path = folder / "Setup_ID.xml"
    path.write_text(_document("InverseDynamicsTool", (
        "<coordinates_file>c.mot</coordinates_file>"
        f"<time_range>{time_range}</time_range>"
        f"<lowpass_cutoff_frequency_for_coordinates>{cutoff}"
        "</lowpass_cutoff_frequency_for_coordinates>")))
    return path


def _refused_by_opensim(make_tool, path):
    """Whether OpenSim 4.6's tool refuses to read the setup at path, saying why."""
    try:
        make_tool(os.fspath(path))
    except Exception as e:                      # OpenSim's SWIG wrapper raises plain ones
        return "Couldn't interpret string" in str(e)
    return False


@pytest.mark.parametrize("value", TOO_LARGE)
@pytest.mark.parametrize("element", ["lowpass_cutoff_frequency_for_coordinates",
                                     "time_range"])
def test_an_id_setups_number_beyond_a_double_is_refused(osim, tmp_path, value, element):
    path = (_id_setup(tmp_path, cutoff=value) if element != "time_range"
            else _id_setup(tmp_path, time_range=f"0 {value}"))
    assert _refused_by_opensim(osim.InverseDynamicsTool, path)
    with pytest.raises(SetupError, match=re.escape(f"{path}: <{element}>: {value.strip()!r} "
                                                   "is beyond the largest number a double "
                                                   "holds")):
        read_id_setup(path)


@pytest.mark.parametrize("value", ["Infinity", "inf", "1e-400"])
def test_an_id_setups_infinity_words_are_read_as_opensim_reads_them(osim, tmp_path, value):
    path = _id_setup(tmp_path, cutoff=value)
    assert read_id_setup(path).lowpass_hz == osim.InverseDynamicsTool(
        os.fspath(path)).getLowpassCutoffFrequency()


@pytest.mark.parametrize("value", TOO_LARGE)
@pytest.mark.parametrize("element", ["time_range", "weight"])
def test_an_ik_setups_number_beyond_a_double_is_refused(osim, tmp_path, value, element):
    path = tmp_path / "Setup_IK.xml"
    path.write_text(_document("InverseKinematicsTool", (
        f"<time_range>0 {value if element == 'time_range' else 1}</time_range>"
        "<IKTaskSet><objects><IKMarkerTask name=\"A\"><apply>true</apply>"
        f"<weight>{value if element == 'weight' else 1}</weight></IKMarkerTask></objects>"
        "</IKTaskSet>")))
    tool = osim.InverseKinematicsTool(os.fspath(path))       # it ignores the value
    read = (tool.get_time_range(1) if element == "time_range" else
            osim.IKMarkerTask.safeDownCast(tool.getIKTaskSet().get(0)).getWeight())
    assert read != float(value)                              # not the infinity float() says
    with pytest.raises(IKSetupError, match=re.escape(f"<{element}>: {value.strip()!r} is "
                                                     "beyond the largest number a double")):
        read_ik_setup(path)


@pytest.mark.parametrize("value", TOO_LARGE)
@pytest.mark.parametrize("element", ["mass", "time_range"])
def test_a_scale_setups_number_beyond_a_double_is_refused(osim, tmp_path, value, element):
    path = tmp_path / "Setup_Scale.xml"
    path.write_text(_document("ScaleTool", (
        f"<mass>{value if element == 'mass' else 70}</mass>"
        "<ModelScaler><apply>false</apply></ModelScaler>"
        "<MarkerPlacer><apply>true</apply>"
        f"<time_range>0 {value if element == 'time_range' else 1}</time_range>"
        "</MarkerPlacer>")))
    assert _refused_by_opensim(osim.ScaleTool, path)
    with pytest.raises(ScaleSetupError, match=re.escape(f"<{element}>: {value.strip()!r} is "
                                                        "beyond the largest number a double")):
        read_scale_setup(path)


@pytest.mark.parametrize("value", TOO_LARGE)
@pytest.mark.parametrize("element", ["lowpass_cutoff_frequency", "initial_time"])
def test_an_rra_setups_number_beyond_a_double_is_refused(osim, tmp_path, value, element):
    from rra_oracle import opensim_refusal
    from test_outputs_never_inputs import RRA_CASE, RRA_INPUTS
    for name in RRA_INPUTS:
        shutil.copy(RRA_CASE / name, tmp_path / name)
    setup = tmp_path / "subject01_Setup_RRA.xml"
    setup.write_text(re.sub(f"<{element}>[^<]*<", f"<{element}>{value}<", setup.read_text()))
    assert "Couldn't interpret string" in (opensim_refusal(os.fspath(setup)) or "")
    with pytest.raises(RRASetupError, match=re.escape(f"{setup}: <{element}>: "
                                                      f"{value.strip()!r} is beyond the "
                                                      "largest number a double holds")):
        read_rra_setup(setup)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.from_regex(r"[+-]?[1-9](\.[0-9]{1,17})?[eE][+-]?3[0-3][0-9]", fullmatch=True))
@example(value="1.7976931348623158e308")             # rounds down to the largest double
@example(value="1.797693134862316e308")              # rounds up beyond it
@example(value="4.9e-324")                           # the smallest subnormal: read
def test_a_number_near_a_doubles_limits_is_read_or_refused_as_opensim_does(
        osim, tmp_path_factory, value):
    """Numbers near a double's largest and smallest: OpenSim 4.6's InverseDynamicsTool (the
    oracle) refuses those beyond the largest and reads the rest (a subnormal, or 0 below it);
    urdf2dyn refuses the same ones and reads the same number from the others (None: a
    negative cut-off, OpenSim's no filter)."""
    path = _id_setup(tmp_path_factory.mktemp("limits"), cutoff=value)
    try:
        theirs = osim.InverseDynamicsTool(os.fspath(path)).getLowpassCutoffFrequency()
    except Exception as e:                      # OpenSim's SWIG wrapper raises plain ones
        assert "Couldn't interpret string" in str(e)
        with pytest.raises(SetupError, match="beyond the largest number a double holds"):
            read_id_setup(path)
        return
    assert read_id_setup(path).lowpass_hz == (theirs if theirs >= 0 else None)


@pytest.mark.parametrize("value", ["1_0", "1_000.5", "\u0661\u0662", "\uff11\uff12"])
def test_a_number_float_reads_otherwise_than_opensim_is_refused(osim, tmp_path, value):
    """Python's float() reads '1_0' as 10 and Arabic-Indic or full-width digits as 12, where
    OpenSim 4.6's InverseDynamicsTool (the oracle) reads 1 (the digits before the '_') or
    refuses the setup: urdf2dyn ran with another cut-off than OpenSim's, unsaid. Refused
    now, naming the file and element (a reader of every setup shares the parser)."""
    path = _id_setup(tmp_path, cutoff=value)
    try:
        theirs = osim.InverseDynamicsTool(os.fspath(path)).getLowpassCutoffFrequency()
    except Exception as e:                      # OpenSim's SWIG wrapper raises plain ones
        assert "Couldn't interpret string" in str(e)
    else:
        assert theirs != float(value)
    with pytest.raises(SetupError, match=re.escape(
            f"{path}: <lowpass_cutoff_frequency_for_coordinates>: {value!r} is not a number "
            "as OpenSim 4.6 reads one")):
        read_id_setup(path)


@pytest.mark.parametrize("value", ["-nan", "+NaN"])
def test_a_signed_nan_is_refused_saying_what_opensim_does_not_read(osim, tmp_path, value):
    """float() reads '-nan' as NaN; OpenSim 4.6's InverseDynamicsTool (the oracle) refuses
    the setup. urdf2dyn refused it too, but said to write the digits 0-9 without '_', which
    '-nan' holds neither of: it says the sign now."""
    path = _id_setup(tmp_path, cutoff=value)
    assert _refused_by_opensim(osim.InverseDynamicsTool, path)
    with pytest.raises(SetupError, match=re.escape(
            f"{path}: <lowpass_cutoff_frequency_for_coordinates>: {value!r} is not a number "
            "as OpenSim 4.6 reads one (it reads no sign before NaN; write a number)")):
        read_id_setup(path)
