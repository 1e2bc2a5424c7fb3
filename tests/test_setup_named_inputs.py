"""Every file an OpenSim setup names is an input of the job, whether or not the job reads it:
no output may replace one, and the refusal names the option (or the setup's element) and the
file. Element by element, against what OpenSim's own tools name (opensim-core 4.x:
InverseDynamicsTool, RRATool/CMCTool over AbstractTool, ScaleTool, ExternalLoads):

- ExternalLoads' ``external_loads_model_kinematics_file``: OpenSim 4 says it no longer reads
  it, but it is the user's file (older OpenSim read it);
- an ID setup's ExternalLoads ``datafile`` when ``<forces_to_exclude>`` holds All (OpenSim's
  tool reads the loads whatever it excludes; urdf2dyn's run does not read them, so the data
  file was not among the inputs);
- an RRA setup's ``desired_points_file`` and ``constraints_file``;
- a ScaleTool set read from the file its ``file=`` attribute names (``<MeasurementSet
  file="...">``, OpenSim's Object reads any set that way).
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import re
import shutil

import pytest

from urdf2dyn import cli
from urdf2dyn.biomech import scale as S

from test_outputs_never_inputs import RRA_CASE, RRA_INPUTS, make_lab

DATA = pathlib.Path(__file__).parent / "data"


@pytest.fixture
def lab(tmp_path, monkeypatch):
    d = tmp_path / "lab"
    d.mkdir()
    make_lab(d)
    monkeypatch.chdir(d)
    return d


def run(argv):
    """(exit status, stderr) of the command line in this process."""
    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = cli.main([str(a) for a in argv])
        except SystemExit as e:              # argparse's own errors
            status = e.code
    assert "Traceback" not in err.getvalue(), err.getvalue()
    return status, err.getvalue()


def digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def _with_kinematics_file(lab):
    """The lab's ExternalLoads file naming a model kinematics file (as OpenSim 2's
    leg69_right_grf.xml of opensim-core's CMC tests does) that exists beside it."""
    shutil.copy(lab / "coords.mot", lab / "kinematics.mot")
    text = (lab / "loads.xml").read_text()
    (lab / "loads.xml").write_text(text.replace(
        "<datafile>", "<external_loads_model_kinematics_file> kinematics.mot "
        "</external_loads_model_kinematics_file><datafile>"))
    return lab / "kinematics.mot"


def test_torques_output_onto_the_loads_kinematics_file_is_refused(lab):
    """-o onto the ExternalLoads file's external_loads_model_kinematics_file: refused before
    any work, naming the option and the file (it was written over)."""
    kinematics = _with_kinematics_file(lab)
    before = digest(kinematics)
    status, err = run(["torques", "robot.urdf", "motion.csv", "--external-loads", "loads.xml",
                       "-o", "kinematics.mot"])
    assert status == 2 and ("--output kinematics.mot: that is the ExternalLoads model "
                            "kinematics file") in err, err
    assert digest(kinematics) == before


def test_id_setup_output_onto_the_loads_kinematics_file_is_refused(lab):
    kinematics = _with_kinematics_file(lab)
    (lab / "id.xml").write_text((lab / "id.xml").read_text().replace("id_out.sto",
                                                                      "kinematics.mot"))
    before = digest(kinematics)
    status, err = run(["torques", "--setup", "id.xml"])
    assert status == 2 and (f"--output {kinematics}: that is the ExternalLoads model "
                            "kinematics file") in err, err
    assert digest(kinematics) == before


def test_id_setup_output_onto_its_tool_level_loads_kinematics_file_is_refused(lab):
    """An OpenSim 2 setup names the model kinematics file at tool level, beside
    <external_loads_file> (AbstractTool moves it into the ExternalLoads file for versions
    before 20201; InverseDynamicsTool copies an old AnalyzeTool's elements as they are):
    output_gen_force_file onto it is refused before any work, naming the file."""
    shutil.copy(lab / "coords.mot", lab / "kinematics.mot")
    text = (lab / "id.xml").read_text().replace("id_out.sto", "kinematics.mot")
    (lab / "id.xml").write_text(text.replace("<coordinates_file>", (
        "<external_loads_model_kinematics_file> kinematics.mot "
        "</external_loads_model_kinematics_file><coordinates_file>")))
    before = digest(lab / "kinematics.mot")
    status, err = run(["torques", "--setup", "id.xml"])
    assert status == 2 and (f"--output {lab / 'kinematics.mot'}: that is the ExternalLoads "
                            "model kinematics file") in err, err
    assert digest(lab / "kinematics.mot") == before


def test_id_setup_tool_level_loads_kinematics_windows_path_is_kept_off_but_not_said(lab):
    """The tool-level file as an OpenSim 2 setup written on Windows names it (an absolute
    C:\\ path): nothing reads it, so no warning says the file of that name beside the setup
    is read instead, and strict reads the setup (the warning refused it); the file of that
    name beside the setup is still kept off the outputs."""
    shutil.copy(lab / "coords.mot", lab / "kinematics.mot")
    text = (lab / "id.xml").read_text().replace("<coordinates_file>", (
        "<external_loads_model_kinematics_file>C:\\Users\\lab\\kinematics.mot"
        "</external_loads_model_kinematics_file><coordinates_file>"))
    (lab / "id.xml").write_text(text)
    import warnings
    from urdf2dyn.biomech.formats import read_id_setup
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        setup = read_id_setup(lab / "id.xml", strict=True)
    assert setup.loads_kinematics_file == os.fspath(lab / "kinematics.mot")
    before = digest(lab / "kinematics.mot")
    status, err = run(["torques", "--setup", "id.xml", "-o", "kinematics.mot"])
    assert status == 2 and "Windows path" not in err and (
        "--output kinematics.mot: that is the ExternalLoads model kinematics file") in err, err
    assert digest(lab / "kinematics.mot") == before


def test_id_setup_excluding_all_forces_still_names_the_loads_data(lab):
    """<forces_to_exclude> All: urdf2dyn leaves the loads out unread, as OpenSim leaves them
    out of the dynamics; the ExternalLoads data file is still the user's file the setup
    names (and OpenSim's tool reads it): output_gen_force_file onto it is refused."""
    text = (lab / "id.xml").read_text().replace("id_out.sto", "loads.mot")
    (lab / "id.xml").write_text(text.replace(
        "<coordinates_file>", "<forces_to_exclude> All </forces_to_exclude><coordinates_file>"))
    before = digest(lab / "loads.mot")
    status, err = run(["torques", "--setup", "id.xml"])
    assert status == 2 and (f"--output {lab / 'loads.mot'}: that is the ExternalLoads data "
                            "file") in err, err
    assert digest(lab / "loads.mot") == before


def test_id_setup_inputs_name_every_file_of_the_external_loads(lab):
    """The library's list, as the command line and a notebook use it, with the loads read
    (the default) and excluded (All): the data and model kinematics files, resolved beside
    the ExternalLoads file."""
    from urdf2dyn.biomech.formats import read_id_setup
    from urdf2dyn.biomech.pipeline import id_setup_inputs
    from urdf2dyn.biomech.stages import TrialSettings
    kinematics = _with_kinematics_file(lab)
    setup = read_id_setup(lab / "id.xml")
    for excluded in ([], ["All"]):
        setup.forces_to_exclude = excluded
        named = id_setup_inputs(setup, TrialSettings.from_id_setup(setup))
        paths = {os.path.realpath(p) for _, p in named}
        assert {os.path.realpath(lab / "loads.mot"), os.path.realpath(kinematics)} <= paths



def test_id_setup_inputs_read_the_external_loads_once(lab, monkeypatch):
    """The settings of an ID setup hold its ExternalLoads read (XML and data file): the
    inputs take their files from them, not from a second reading of the XML; the same
    files are named (the data file resolved beside the XML)."""
    from urdf2dyn.biomech.formats import opensim as O
    from urdf2dyn.biomech.formats import read_id_setup
    from urdf2dyn.biomech.pipeline import id_setup_inputs
    from urdf2dyn.biomech.stages import TrialSettings
    setup = read_id_setup(lab / "id.xml")
    settings = TrialSettings.from_id_setup(setup)
    read = []
    real = O.read_tool
    monkeypatch.setattr(O, "read_tool", lambda path, *a, **k: read.append(path) or real(
        path, *a, **k))
    named = id_setup_inputs(setup, settings)
    assert read == []
    assert ("ExternalLoads data", os.fspath(lab / "loads.mot")) in named


@pytest.mark.parametrize("broken", ["<ExternalLoads", "<NotExternalLoads/>"])
def test_id_setup_inputs_warn_when_excluded_loads_cannot_be_read(lab, broken):
    """<forces_to_exclude> All: urdf2dyn does not read the loads (OpenSim's tool would, and
    would fail), so an ExternalLoads file it cannot read leaves its data file unknown and
    unprotected: said with the file and why, refused under strict."""
    from urdf2dyn import Urdf2dynWarning
    from urdf2dyn.biomech.formats import read_id_setup
    from urdf2dyn.biomech.formats.opensim import ExternalLoadsError
    from urdf2dyn.biomech.pipeline import id_setup_inputs
    from urdf2dyn.biomech.stages import TrialSettings
    (lab / "loads.xml").write_text(broken)
    setup = read_id_setup(lab / "id.xml")
    setup.forces_to_exclude = ["All"]
    settings = TrialSettings.from_id_setup(setup)
    with pytest.warns(Urdf2dynWarning, match=r"loads\.xml: .*data file is unknown"):
        named = id_setup_inputs(setup, settings)
    assert {what for what, _ in named} >= {"ID setup", "ExternalLoads"}
    with pytest.raises(ExternalLoadsError, match=r"loads\.xml: .*<external_loads_file>"):
        id_setup_inputs(setup, TrialSettings.from_id_setup(setup, strict=True))

def _rra_lab(tmp_path, **elements):
    """gait2354's published RRA setup and its files, the setup's elements replaced."""
    d = tmp_path / "rra"
    d.mkdir()
    for name in RRA_INPUTS:
        shutil.copy(RRA_CASE / name, d / name)
    setup = (d / "subject01_Setup_RRA.xml").read_text()
    for tag, value in elements.items():
        setup, n = re.subn(rf"<{tag}>[^<]*</{tag}>", f"<{tag}> {value} </{tag}>", setup)
        assert n == 1, tag
    (d / "subject01_Setup_RRA.xml").write_text(setup)
    return d


@pytest.mark.parametrize("element, named", [
    ("constraints_file", "constraints"), ("desired_points_file", "desired points")])
def test_rra_adjusted_model_onto_a_named_file_is_refused(tmp_path, element, named):
    """The setup's output_model_file (written: it adjusts the mass centre) naming its
    constraints_file or desired_points_file, which urdf2dyn's method does not read but
    OpenSim's names: refused before any work, naming the element and the file."""
    target = "gait2354_RRA_ControlConstraints.xml"
    d = _rra_lab(tmp_path, output_model_file=target, **{element: target})
    before = digest(d / target)
    setup = d / "subject01_Setup_RRA.xml"
    status, err = run(["rra", setup])
    assert status == 2 and (f"{setup}: <output_model_file> {d / target}: that is the "
                            f"{named} file") in err, err
    assert digest(d / target) == before


#: what _rra_sets puts in each set: one analysis, one controller
SET_OBJECTS = {"AnalysisSet": '<Kinematics name="Kinematics"/>',
               "ControllerSet": '<PrescribedController name="pc"/>'}


def _rra_sets(d, in_files):
    """The RRA lab's setup with one object in its AnalysisSet and its ControllerSet, each
    written in the setup or in a file of its own (<AnalysisSet file="AnalysisSet.xml"/>)."""
    setup = d / "subject01_Setup_RRA.xml"
    text = setup.read_text()
    for tag, held in SET_OBJECTS.items():
        block = f'<{tag} name="s"><objects>{held}</objects></{tag}>'
        if in_files:
            (d / f"{tag}.xml").write_text('<?xml version="1.0"?><OpenSimDocument '
                                          f'Version="40000">{block}</OpenSimDocument>\n')
            block = f'<{tag} name="s" file="{tag}.xml"/>'
        text, n = re.subn(rf"<{tag} name=\"\w+\">.*?</{tag}>", block, text, flags=re.S)
        assert n == 1, tag
    setup.write_text(text)
    return setup


@pytest.mark.parametrize("in_files", [False, True])
def test_rra_says_its_analyses_and_controllers_are_not_run(tmp_path, in_files):
    """OpenSim 4.6's RRATool reads an AnalysisSet and a ControllerSet, in the setup or from
    a file (the oracle: one of each), runs the analyses and adds the controllers to the
    model; urdf2dyn does neither, and says so, naming them or their file."""
    from rra_oracle import opensim_reads
    d = _rra_lab(tmp_path)
    setup = _rra_sets(d, in_files)
    said = opensim_reads(os.fspath(setup))
    assert (said["analyses"], said["controllers"]) == (1, 1)
    status, err = run(["rra", setup])
    assert status == 0, err
    analyses, controllers = ((f"analyses in {d / 'AnalysisSet.xml'}",
                              f"controllers in {d / 'ControllerSet.xml'}") if in_files
                             else ("['Kinematics']", "['PrescribedController']"))
    assert f"{setup}: the AnalysisSet's {analyses} are not run" in err, err
    assert f"{setup}: the ControllerSet's {controllers} are not applied" in err, err


@pytest.mark.parametrize("tag", ["AnalysisSet", "ControllerSet"])
def test_rra_adjusted_model_onto_a_set_file_is_refused(tmp_path, tag):
    """An RRA setup's AnalysisSet and ControllerSet in files of their own (file=), which
    OpenSim 4.6's RRATool reads (the oracle: one analysis and one controller from them);
    urdf2dyn reads neither, but the output_model_file onto one is refused before any work,
    naming the element and the set."""
    from rra_oracle import opensim_reads
    d = _rra_lab(tmp_path, output_model_file=f"{tag}.xml")
    setup = _rra_sets(d, in_files=True)
    said = opensim_reads(os.fspath(setup))
    assert (said["analyses"], said["controllers"]) == (1, 1)
    before = digest(d / f"{tag}.xml")
    status, err = run(["rra", setup])
    assert status == 2 and (f"{setup}: <output_model_file> {d / tag}.xml: that is the "
                            f"{tag} file") in err, err
    assert digest(d / f"{tag}.xml") == before


def test_rra_adjusted_model_onto_a_controls_file_is_refused(tmp_path):
    """A ControlSetController in the RRA setup's ControllerSet reads its <controls_file>
    (opensim-core's ControlSetController::extendFinalizeFromProperties, when RRATool adds
    the set to the model; the oracle: OpenSim 4.6's RRATool holds the controller with that
    file). urdf2dyn applies no controller, but the output_model_file onto that file was
    written over it: refused before any work, naming the element and the file."""
    d = _rra_lab(tmp_path, output_model_file="controls.xml")
    shutil.copy(d / "gait2354_RRA_ControlConstraints.xml", d / "controls.xml")
    controller = ('<ControlSetController name="csc"><controls_file> controls.xml '
                  '</controls_file></ControlSetController>')
    _assert_rra_keeps_off_controls_file(d, rf'<ControllerSet name="\1"><objects>{controller}'
                                           '</objects></ControllerSet>')


def _assert_rra_keeps_off_controls_file(d, controller_set):
    """The lab's RRA setup with its ControllerSet replaced by controller_set (a regular
    expression replacement, \\1 the set's name) holds a ControlSetController reading
    controls.xml, as OpenSim 4.6's RRATool says; the run onto that file is refused, the file
    untouched."""
    from rra_oracle import opensim_controls_files
    setup = d / "subject01_Setup_RRA.xml"
    text, n = re.subn(r"<ControllerSet name=\"(\w+)\">.*?</ControllerSet>", controller_set,
                      setup.read_text(), flags=re.S)
    assert n == 1
    setup.write_text(text)
    assert opensim_controls_files(os.fspath(setup)) == ["controls.xml"]
    before = digest(d / "controls.xml")
    status, err = run(["rra", setup])
    assert status == 2 and (f"{setup}: <output_model_file> {d / 'controls.xml'}: that is the "
                            "ControlSetController controls file") in err, err
    assert digest(d / "controls.xml") == before


def _rra_setup_of_opensim2(folder):
    """The lab's RRA setup as OpenSim 2 wrote it (version 20200): the model kinematics file
    kin.mot named at tool level, beside <external_loads_file>."""
    shutil.copy(folder / "subject01_walk1_ik.mot", folder / "kin.mot")
    setup = folder / "subject01_Setup_RRA.xml"
    text = re.sub(r'Version="\d+"', 'Version="20200"', setup.read_text(), count=1)
    setup.write_text(text.replace("<external_loads_file>", (
        "<external_loads_model_kinematics_file> kin.mot </external_loads_model_kinematics_file>"
        "<external_loads_file>"), 1))
    return setup


def test_rra_adjusted_model_onto_its_tool_level_loads_kinematics_file_is_refused(tmp_path):
    """OpenSim 4.6's RRATool moves an OpenSim 2 setup's tool-level model kinematics file
    into the ExternalLoads file (the oracle, on a copy: it rewrites that file): it is the
    loads' file. The output_model_file onto it is refused before any work, naming it."""
    oracle_side = tmp_path / "oracle"
    oracle_side.mkdir()
    copy = _rra_setup_of_opensim2(_rra_lab(oracle_side))
    from rra_oracle import opensim_reads
    opensim_reads(os.fspath(copy))
    loads = (copy.parent / "subject01_walk1_grf.xml").read_text()
    assert re.search(r"<external_loads_model_kinematics_file>\s*kin\.mot", loads)
    d = _rra_lab(tmp_path, output_model_file="kin.mot")
    setup = _rra_setup_of_opensim2(d)
    before = digest(d / "kin.mot")
    status, err = run(["rra", setup])
    assert status == 2 and (f"{setup}: <output_model_file> {d / 'kin.mot'}: that is the "
                            "ExternalLoads model kinematics file") in err, err
    assert digest(d / "kin.mot") == before


def test_rra_setup_unread_files_named_by_windows_paths_are_not_said(tmp_path):
    """The RRA setup's tool-level model kinematics file and its AnalysisSet and
    ControllerSet files named by Windows paths: urdf2dyn reads none of them (OpenSim 4.6
    moves the first into the ExternalLoads file, which no longer reads it; the sets' objects
    are said not to run when it runs), so strict reads the setup without the warning that
    the file of that name beside it is read instead; each is still named, beside it."""
    import warnings
    from urdf2dyn.biomech.formats.rra_setup import read_rra_setup
    d = _rra_lab(tmp_path)
    _rra_sets(d, in_files=True)
    setup = _rra_setup_of_opensim2(d)
    text = setup.read_text().replace(" kin.mot </external_loads_model",
                                     "C:\\lab\\kin.mot</external_loads_model")
    for tag in SET_OBJECTS:
        text = text.replace(f'file="{tag}.xml"', f'file="C:\\lab\\{tag}.xml"')
    setup.write_text(text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        su = read_rra_setup(setup, strict=True)
    assert su.loads_kinematics_file == os.fspath(d / "kin.mot")
    assert su.set_files == {tag: os.fspath(d / f"{tag}.xml") for tag in SET_OBJECTS}


def _scale_lab(tmp_path):
    """gait2354's scale setup with its MeasurementSet moved to a file of its own, named by
    the set's file= attribute (as OpenSim's examples ship some of their sets)."""
    d = tmp_path / "gait2354"
    shutil.copytree(DATA / "scale" / "gait2354", d)
    setup = (d / "subject01_Setup_Scale.xml").read_text()
    block = re.search(r"<MeasurementSet name=\"gait2354\">.*?</MeasurementSet>", setup, re.S)
    (d / "measurements.xml").write_text('<?xml version="1.0" encoding="UTF-8" ?>\n'
                                        '<OpenSimDocument Version="30000">\n'
                                        f"{block.group(0)}\n</OpenSimDocument>\n")
    (d / "subject01_Setup_Scale.xml").write_text(
        setup.replace(block.group(0), '<MeasurementSet file="measurements.xml" />'))
    return d


def test_scale_output_onto_a_set_file_is_refused(tmp_path):
    """urdf2dyn scale -o onto the file the setup's MeasurementSet is read from: refused
    before any work, naming -o and the set; the library's run_setup too."""
    d = _scale_lab(tmp_path)
    setup, target = d / "subject01_Setup_Scale.xml", d / "measurements.xml"
    from urdf2dyn.biomech.formats.scale_setup import read_scale_setup
    assert len(read_scale_setup(setup).measurements) > 3      # read from the file
    before = {p.name: digest(p) for p in d.iterdir()}
    status, err = run(["scale", setup, "-o", target])
    assert status == 2 and f"-o {target}: that is the MeasurementSet file" in err, err
    with pytest.raises(ValueError, match=re.escape(f"output {target}: that is the "
                                                   "MeasurementSet file")):
        S.run_setup(os.fspath(setup), output=os.fspath(target))
    assert {p.name: digest(p) for p in d.iterdir()} == before


# ---- urdf2dyn scale: the library's one check, the option named -------------------------------

@pytest.mark.parametrize("target, said", [
    ("subject01_scaleSet_applied.xml", "<output_scale_file>"),
    ("subject01_static_output.mot", "<output_motion_file>"),
    ("given_static.trc", "that is the static trial file"),
    ("given_generic.osim", "that is the model file"),
    ("given_markers.xml", "that is the marker set file"),
    ("subject01_Setup_Scale.xml", "that is the setup file")])
def test_scale_cli_refuses_through_the_library_check(tmp_path, target, said):
    """-o onto another output of the setup, a file given instead of the setup's (--model,
    --static, --marker-set) or the setup: a usage error (exit status 2) naming -o, before
    any work (nothing written, nothing changed), as when the command checked it itself."""
    d = tmp_path / "gait2354"
    shutil.copytree(DATA / "scale" / "gait2354", d)
    shutil.copy(d / "subject01_static.trc", d / "given_static.trc")
    shutil.copy(d / "gait2354_simbody.osim", d / "given_generic.osim")
    shutil.copy(d / "gait2354_Scale_MarkerSet.xml", d / "given_markers.xml")
    before = {p.name: digest(p) for p in d.iterdir()}
    status, err = run(["scale", d / "subject01_Setup_Scale.xml", "-o", d / target,
                       "--model", d / "given_generic.osim", "--static", d / "given_static.trc",
                       "--marker-set", d / "given_markers.xml"])
    assert status == 2 and f"-o {d / target}" in err and said in err, err
    assert "warning" not in err, err              # refused before the model was loaded
    assert {p.name: digest(p) for p in d.iterdir()} == before


def test_scale_library_reads_the_files_given_once_outputs_are_checked(tmp_path):
    """run_setup takes the model and static trial as files (what the command line passes):
    an output onto either is refused before they are read, naming the output."""
    d = tmp_path / "gait2354"
    shutil.copytree(DATA / "scale" / "gait2354", d)
    shutil.copy(d / "subject01_static.trc", d / "given_static.trc")
    shutil.copy(d / "gait2354_simbody.osim", d / "given_generic.osim")
    setup = os.fspath(d / "subject01_Setup_Scale.xml")
    before = {p.name: digest(p) for p in d.iterdir()}
    for kw, target, what in (("static", "given_static.trc", "static trial"),
                             ("model", "given_generic.osim", "model")):
        with pytest.raises(ValueError, match=re.escape(f"output {d / target}: that is the "
                                                       f"{what} file")):
            S.run_setup(setup, output=os.fspath(d / target), **{kw: os.fspath(d / target)})
    assert {p.name: digest(p) for p in d.iterdir()} == before
    with pytest.raises(ValueError, match="rotation turns the static trial's markers"):
        S.run_setup(setup, output=os.fspath(d / "o.osim"), rotation="x:-90")


def _ik_tasks_in_their_own_file(lab, output):
    """The lab's IK setup with its IKTaskSet moved to tasks.xml (<IKTaskSet file=...>, as
    OpenSim's Object reads any set) and its output_motion_file set to output."""
    text = (lab / "ik.xml").read_text()
    start, end = text.index("<IKTaskSet>"), text.index("</IKTaskSet>") + len("</IKTaskSet>")
    (lab / "tasks.xml").write_text('<?xml version="1.0"?><OpenSimDocument Version="40000">'
                                   + text[start:end] + "</OpenSimDocument>")
    setup = text[:start] + '<IKTaskSet file="tasks.xml"/>' + text[end:]
    (lab / "ik.xml").write_text(re.sub(r"<output_motion_file>[^<]*</output_motion_file>",
                                       f"<output_motion_file>{output}</output_motion_file>",
                                       setup))
    return lab / "tasks.xml"


def test_ik_setup_names_the_file_of_its_task_set(lab):
    """biomech.ik.setup_inputs listed the setup, model, markers and coordinate file but not
    the file an <IKTaskSet file=...> was read from: run_setup of the setup read already, its
    output_motion_file that file, wrote the motion over the user's tasks."""
    from urdf2dyn.biomech import ik
    from urdf2dyn.biomech.formats.ik_setup import read_ik_setup
    tasks = _ik_tasks_in_their_own_file(lab, "tasks.xml")
    setup = read_ik_setup(lab / "ik.xml")
    assert ("IKTaskSet", str(tasks)) in ik.setup_inputs(setup)
    before = digest(tasks)
    with pytest.raises(ValueError, match=r"<output_motion_file>.*IKTaskSet"):
        ik.run_setup(setup)
    assert digest(tasks) == before


@pytest.mark.parametrize("kind", ["named pipe", "device", "missing"])
def test_rra_model_option_leaves_the_setups_model_file_unread(tmp_path, kind):
    """`urdf2dyn rra SETUP --model M`: the setup's <model_file> is replaced, so it is not
    looked at (as an ID setup's is when ROBOT is given: read_id_setup's need_model). A
    <model_file> naming a named pipe, a device, or nothing that exists was refused, naming
    <model_file>, though the run would not read it: the run now uses M (no reader waits on
    the pipe: the child has 5 s)."""
    from test_hypothesis_device_inputs import DEVICES, _run_with_alarm
    d = _rra_lab(tmp_path)
    shutil.move(d / "subject01_simbody.osim", d / "other.osim")
    setup = d / "subject01_Setup_RRA.xml"
    if kind == "named pipe":
        os.mkfifo(d / "subject01_simbody.osim")
    elif kind == "device":
        setup.write_text(setup.read_text().replace(" subject01_simbody.osim ", DEVICES[0]))
    argv = ["rra", os.fspath(setup), "--model", os.fspath(d / "other.osim"),
            "--results-directory", os.fspath(d / "out")]
    out, err = _run_with_alarm(tmp_path, "from urdf2dyn import cli\n"
                                         f"print('status', cli.main({argv!r}))\n")
    assert "status 0" in out and "model_file" not in err, out + err
    assert (d / "out" / "subject01_walk1_RRA_Kinematics_q.sto").exists()


def test_run_rra_with_a_model_leaves_the_setups_model_file_unread(tmp_path):
    """run_rra(setup, model): the library's --model. A setup whose <model_file> exists
    nowhere was refused by the setup's reading; now the model given is run."""
    import warnings
    from urdf2dyn import load
    from urdf2dyn.biomech.rra import run_rra
    d = _rra_lab(tmp_path)
    shutil.move(d / "subject01_simbody.osim", d / "other.osim")
    model = load(d / "other.osim")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        result = run_rra(d / "subject01_Setup_RRA.xml", model, write=False)
    assert result.setup.model_file is None
    assert not [w for w in said if "model_file" in str(w.message)], said


def test_rra_adjusted_model_onto_a_controls_file_of_a_controller_set_file_is_refused(tmp_path):
    """A ControlSetController in the ControllerSet file an RRA setup names (<ControllerSet
    file="sets/ControllerSet.xml"/>): OpenSim 4.6's RRATool (the oracle) holds it with its
    controls file, which its run reads from the setup's folder (RRATool::run works there).
    urdf2dyn kept the set file off the outputs but not the controls file inside: the
    output_model_file onto it was written over it. Refused before any work, naming it."""
    d = _rra_lab(tmp_path, output_model_file="controls.xml")
    shutil.copy(d / "gait2354_RRA_ControlConstraints.xml", d / "controls.xml")
    (d / "sets").mkdir()
    (d / "sets" / "ControllerSet.xml").write_text(
        '<?xml version="1.0"?><OpenSimDocument Version="40000"><ControllerSet name="s"><objects>'
        '<ControlSetController name="csc"><controls_file> controls.xml </controls_file>'
        '</ControlSetController></objects></ControllerSet></OpenSimDocument>\n')
    _assert_rra_keeps_off_controls_file(d, r'<ControllerSet name="\1" '
                                           r'file="sets/ControllerSet.xml"/>')
