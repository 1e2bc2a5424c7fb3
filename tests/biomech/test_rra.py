"""urdf2dyn rra on a published RRA setup (opensim-models' gait2354 walk, as written), checked
by OpenSim 4.6: every file read back by OpenSim, and OpenSim's InverseDynamicsTool run on the
adjusted kinematics, model and the same loads finds the residuals urdf2dyn reports. The
reduction is held to issue 30's "done when": OpenSim's good bands, at or below OpenSim's own
RRA, coordinates inside their bands, the total mass within 5 %."""
import math
import os
import re
import shutil
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import urdf2dyn
from urdf2dyn import Urdf2dynWarning, cli
from urdf2dyn.biomech.formats.torques import read_torques
from urdf2dyn.biomech.actuators import actuator_forces
from urdf2dyn.biomech.rra import run_rra
from test_cli_hypothesis import run_cli        # the command line's contract, as there
from cli_here import working_in

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "opensim_models")
SETUP = os.path.join(DATA, "Gait2354_Simbody", "subject01_Setup_RRA.xml")
#: OpenSim 4.6's RRA on this setup (benchmarks/bench_rra.py): the largest component's RMS
#: and peak of the residual forces (N) and moments (N m)
OPENSIM = {"force": (8.31, 19.74), "moment": (7.58, 18.53)}


@pytest.fixture(scope="module")
def rra(tmp_path_factory):
    out = tmp_path_factory.mktemp("rra")
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match="constraints_file") as caught:
        result = run_rra(SETUP, results_directory=os.fspath(out),
                         output_model_file=os.fspath(out / "adjusted.osim"))
    assert len(caught) == 1                 # nothing else to say about a published setup
    return result, out


def test_the_results_are_opensims_files(osim, rra):
    """Each .sto reads in OpenSim 4.6, with OpenSim's names: the model's coordinates (angles
    in degrees, as OpenSim's RRA writes them) in its CoordinateSet's order, as OpenSim's RRA
    writes them, and one column per actuator of the setup."""
    result, out = rra
    red, model = result.reduction, result.model
    theirs = osim.Model(os.path.join(DATA, "Gait2354_Simbody", "subject01_simbody.osim"))
    coordinates = [theirs.getCoordinateSet().get(k).getName()
                   for k in range(theirs.getCoordinateSet().getSize())]
    assert coordinates != model.v_names             # the multibody order would not do
    name = "subject01_walk1_RRA"
    for kind in ("Kinematics_q", "Kinematics_u", "Kinematics_dudt", "Actuation_force"):
        table = osim.TimeSeriesTable(os.fspath(out / f"{name}_{kind}.sto"))
        labels = list(table.getColumnLabels())
        assert table.getNumRows() == len(red.t) == 501
        assert np.allclose(table.getIndependentColumn(), red.t, rtol=0, atol=1e-12)
        data = table.getMatrix().to_numpy()
        if kind == "Actuation_force":
            assert labels == [a.name for a in red.actuators][:len(labels)]
            assert labels[:6] == ["FX", "FY", "FZ", "MX", "MY", "MZ"]
            assert np.allclose(data, red.forces, rtol=1e-14, atol=1e-12)
            continue
        assert labels == coordinates
        assert table.getTableMetaDataAsString("inDegrees") == "yes"
        x = {"Kinematics_q": red.q, "Kinematics_u": red.v, "Kinematics_dudt": red.a}[kind]
        x = x[:, [model.v_names.index(n) for n in labels]]
        rot = [k for k, n in enumerate(labels) if not n.endswith(("_tx", "_ty", "_tz"))]
        x[:, rot] = np.degrees(x[:, rot])
        assert np.allclose(data, x, rtol=1e-13, atol=1e-12)
    text = (out / f"{name}_avgResiduals.txt").read_text()
    assert text.startswith("Average Residuals:") and "MZ average = " in text
    assert "good band" in (out / f"{name}_summary.txt").read_text()


def test_the_summarys_title_says_what_the_summary_shows(rra):
    """The summary's title was `urdf2dyn rra SETUP`, a command line, for a library caller of
    run_rra too (who ran no command): it names the setup reduced and what the lines below it
    show, each section in its order, the mass centre moved that of the setup's
    adjusted_com_body."""
    from xml.etree import ElementTree
    result, _ = rra
    title, *rest = result.summary.splitlines()
    body = ElementTree.parse(SETUP).getroot().find(".//adjusted_com_body").text.strip()
    assert title == (f"Residual reduction of {SETUP} by urdf2dyn: residuals before and "
                     f"after, mass change, centre of mass of {body} moved, coordinate change")
    starts = ["residual   unit  before RMS", "total mass", f"centre of mass of {body} moved",
              "coordinate change from"]
    rows = [next(k for k, line in enumerate(rest) if line.startswith(s)) for s in starts]
    assert rows == sorted(rows), rest


def test_a_setup_adjusting_the_com_of_no_body_is_refused_as_its_file_is(rra):
    """An RRASetup given to run_rra (a library caller's, not read from a file) asking the
    mass centre adjusted (adjust_com) with no adjusted_com_body: the run went on, changed the
    total mass (OpenSim's rule: +0.0049 kg here) and its summary said "model unchanged
    (adjust_com_to_reduce_residuals is false)", a setup it was not. It is refused, before
    any other finding, in the words the setup reader refuses such a file in."""
    import dataclasses
    from urdf2dyn.biomech.formats.rra_setup import RRASetupError
    result, _ = rra
    asked = dataclasses.replace(result.setup, adjusted_com_body=None)
    assert asked.adjust_com
    with pytest.raises(RRASetupError, match=re.escape(
            f"{SETUP}: <adjust_com_to_reduce_residuals> is true but <adjusted_com_body> is "
            "empty: name the body whose mass centre moves (usually torso)")):
        run_rra(asked, write=False)


@pytest.mark.parametrize("body", ["torso pelvis", "head"])
def test_an_adjusted_com_body_the_model_lacks_is_named_in_the_setups_words(osim, rra, body):
    """<adjusted_com_body> naming two bodies, or one the model lacks: the run was refused
    with "com_body: 'torso pelvis' is not a moving body", the keyword of
    urdf2dyn.biomech.residuals.reduce_residuals, which neither the setup's user nor
    run_rra's caller passes, and no file. The setup and its element are named. Oracle:
    OpenSim's model of the setup has no such body."""
    import dataclasses
    from urdf2dyn.biomech.formats.rra_setup import RRASetupError
    from caller_words import flags_named
    result, _ = rra
    theirs = osim.Model(result.setup.model_file)
    assert not theirs.getBodySet().contains(body) and theirs.getBodySet().contains("torso")
    asked = dataclasses.replace(result.setup, adjusted_com_body=body)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)       # the published setup's note
        with pytest.raises(RRASetupError) as refused:
            run_rra(asked, write=False)
    said = str(refused.value)
    assert said.startswith(f"{SETUP}: <adjusted_com_body>: '{body}' is not a moving body of "
                           "the model (one of ("), said
    assert "com_body:" not in said and not flags_named(said), said


def test_an_adjusted_com_body_the_model_lacks_is_refused_before_the_kinematics_are_read(
        osim, rra, tmp_path):
    """The setup's <adjusted_com_body> was checked against the model only by the reduction,
    after the desired kinematics were read, filtered and splined (and their findings said):
    a setup whose kinematics file is missing too was refused for the file, and once that
    was fixed, for the body. It is checked as soon as the model is loaded. Oracle: OpenSim's
    model of the setup has no body 'head'."""
    import dataclasses
    from urdf2dyn.biomech.formats.rra_setup import RRASetupError
    result, _ = rra
    assert not osim.Model(result.setup.model_file).getBodySet().contains("head")
    asked = dataclasses.replace(result.setup, adjusted_com_body="head",
                                desired_kinematics_file=os.fspath(tmp_path / "missing.mot"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)       # the published setup's note
        with pytest.raises(RRASetupError, match=re.escape(
                f"{SETUP}: <adjusted_com_body>: 'head' is not a moving body of the model")):
            run_rra(asked, write=False)


def test_a_setup_keeping_the_com_says_so_and_keeps_the_model(osim, rra):
    """adjust_com_to_reduce_residuals false: the summary's title says the centre of mass was
    kept, no line says one moved, and the model is the one OpenSim 4.6 loads from the
    setup's model_file: its total mass and the adjusted_com_body's mass centre, which the
    setup still names, unchanged."""
    import dataclasses
    result, _ = rra
    body = result.setup.adjusted_com_body
    asked = dataclasses.replace(result.setup, adjust_com=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)       # the published setup's note
        kept = run_rra(asked, write=False)
    title, *rest = kept.summary.splitlines()
    assert title == (f"Residual reduction of {SETUP} by urdf2dyn: residuals before and "
                     "after, mass change, centre of mass kept, coordinate change")
    assert "model unchanged (adjust_com_to_reduce_residuals is false)" in rest
    assert not [line for line in rest if line.startswith("centre of mass of")], rest
    theirs = osim.Model(result.setup.model_file)
    state = theirs.initSystem()
    red = kept.reduction
    ours = red.inertial_parameters.reshape(-1, 10)
    assert math.isclose(ours[:, 0].sum(), theirs.getTotalMass(state), rel_tol=1e-12)
    com = theirs.getBodySet().get(body).getMassCenter().to_numpy()
    k = kept.model.bodies.index(body)
    assert np.allclose(ours[k, 1:4] / ours[k, 0], com, rtol=0, atol=1e-12)


def test_the_adjusted_model_is_opensims(osim, rra):
    """The adjusted .osim loads in OpenSim 4.6 with every body's mass and inertia scaled by
    the reported factor, the torso's mass centre moved by the reported shift and every other
    mass centre where it was; urdf2dyn loads it too, with the adjusted inertial parameters."""
    result, out = rra
    red = result.reduction
    assert result.files["model"] == os.fspath(out / "adjusted.osim")
    before, after = osim.Model(result.setup.model_file), osim.Model(result.files["model"])
    for k in range(before.getBodySet().getSize()):
        b0 = before.getBodySet().get(k)
        b1 = after.getBodySet().get(b0.getName())
        assert b1.getMass() == pytest.approx(b0.getMass() * red.mass_scale, rel=1e-12)
        i0, i1 = b0.getInertia(), b1.getInertia()
        assert np.allclose(i1.getMoments().to_numpy(),
                           i0.getMoments().to_numpy() * red.mass_scale, rtol=1e-12, atol=0)
        c0, c1 = b0.getMassCenter().to_numpy(), b1.getMassCenter().to_numpy()
        shift = red.com_shift if b0.getName() == "torso" else 0.0
        assert np.allclose(c1, c0 + shift, rtol=0, atol=1e-12)
    ours = urdf2dyn.load(result.files["model"])
    assert len(ours.forces) == 54 and all(f.actuator for f in ours.forces)  # muscles, kept
    assert np.allclose(ours.inertial_parameters(), red.inertial_parameters, rtol=1e-10,
                       atol=1e-12)


def test_opensims_inverse_dynamics_finds_the_residuals(osim, rra, tmp_path):
    """OpenSim's InverseDynamicsTool on the adjusted kinematics file, the adjusted model
    urdf2dyn wrote and the setup's loads (no filter: the kinematics are smooth already) finds
    the residual actuators' forces urdf2dyn reports, within 1 N / 1 N m RMS (the ends, where
    OpenSim's natural splines of the written file bend, included)."""
    result, out = rra
    red, su, model = result.reduction, result.setup, result.model
    tool = osim.InverseDynamicsTool()
    tool.setModelFileName(result.files["model"])
    tool.setCoordinatesFileName(result.files["Kinematics_q.sto"])
    tool.setExternalLoadsFileName(su.external_loads_file)
    tool.setLowpassCutoffFrequency(-1)
    tool.setStartTime(red.t[0])
    tool.setEndTime(red.t[-1])
    tool.setResultsDir(os.fspath(tmp_path))
    tool.setOutputGenForceFileName("id.sto")
    excluded = osim.ArrayStr()
    excluded.append("All")
    tool.setExcludedForces(excluded)
    with working_in(os.path.dirname(su.external_loads_file)):
        assert tool.run()
    t, tau, _ = read_torques(tmp_path / "id.sto", model=model)
    assert np.allclose(t, red.t, rtol=0, atol=1e-9)
    theirs = actuator_forces(model, red.actuators, red.q, tau)[:, red.residual]
    diff = np.sqrt(np.mean((theirs - red.residuals) ** 2, axis=0))
    assert np.all(diff < 1.0), dict(zip(red.residual_names, diff))


def test_done_when(rra):
    """Inside OpenSim's good bands and at or below OpenSim's RRA, each coordinate within
    2 deg / 2 cm RMS of the desired kinematics, the total mass within 5 %."""
    result, _ = rra
    red = result.reduction
    kinds = red.kinds()
    for kind, (rms_band, peak_band) in (("force", (5, 10)), ("moment", (30, 50))):
        stats = [v for n, v in red.stats().items() if kinds[n] == kind]
        rms, peak = max(s[0] for s in stats), max(s[1] for s in stats)
        assert rms <= min(rms_band, OPENSIM[kind][0]) and peak <= min(peak_band,
                                                                       OPENSIM[kind][1])
    for name, rms in result.input_change_rms.items():
        band = 0.02 if name.endswith(("_tx", "_ty", "_tz")) else math.radians(2)
        assert rms <= band, name
    assert abs(red.mass_scale - 1) < 0.05
    assert red.com_body == "torso" and np.linalg.norm(red.com_shift) < 0.1


def test_the_output_is_the_desired_kinematics_plus_the_correction(rra):
    """The adjusted coordinates, speeds and accelerations are the desired kinematics as
    OpenSim's tools prepare them (6 Hz, natural quintic splines) plus the correction and its
    derivatives: the correction is one smooth function of time."""
    from urdf2dyn.biomech.formats.opensim import read_opensim
    from urdf2dyn.biomech.opensim_processing import id_kinematics
    from urdf2dyn.biomech.splines import quintic_eval
    result, _ = rra
    red, su, model = result.reduction, result.setup, result.model
    t, q, _, _ = read_opensim(su.desired_kinematics_file, model=model).for_model(model)
    spline = id_kinematics(t, q, su.lowpass_hz)
    for k, x in enumerate((red.q, red.v, red.a)):
        assert np.allclose(x, quintic_eval(*spline, red.t, k) + red.correction(red.t, k),
                           rtol=1e-12, atol=1e-10)
    kept = [j for j in range(model.nv) if j not in red.adjusted]
    assert not np.any(red.correction(red.t)[:, kept])


# ----------------------------------------------------------------------------- the command

def _short_setup(folder, name):
    """Gait2354's RRA setup and its files copied to folder/name, its time range cut to 0.75 ..
    0.8 s (an OpenSim run of seconds); returns the setup's path."""
    shutil.copytree(os.path.dirname(SETUP), folder / name)
    setup = folder / name / os.path.basename(SETUP)
    setup.write_text(re.sub(r"<final_time>[^<]*</final_time>", "<final_time>0.8</final_time>",
                            setup.read_text()))
    return setup


def test_a_coordinate_the_desired_kinematics_lack_is_said_as_opensims_rra_holds_it(tmp_path):
    """Gait2354's setup (0.75 .. 0.8 s) with pelvis_ty (default value 1.015 m) left out of the
    desired kinematics. OpenSim 4.6's RRATool holds it at 0, not at its default
    (SimbodyEngine::formCompleteStorages: 'Did not find column'): its adjusted pelvis height
    starts at 0. urdf2dyn rra holds it at the default and said it did so 'as OpenSim's
    inverse-dynamics tool does', as if OpenSim's RRA would track the same pose. It now says
    what OpenSim's RRA does, and to add the column."""
    from rra_oracle import opensim_runs
    from urdf2dyn.biomech.formats.opensim import read_sto_table
    setup = _short_setup(tmp_path, "missing")
    kinematics = tmp_path / "missing" / "subject01_walk1_ik.mot"
    lines = kinematics.read_text().split("\n")
    at = lines.index("endheader") + 1
    drop = lines[at].split("\t").index("pelvis_ty")
    lines[at:] = ["\t".join(x for k, x in enumerate(line.split("\t")) if k != drop)
                  for line in lines[at:]]
    kinematics.write_text("\n".join(lines).replace("nColumns=24", "nColumns=23"))
    assert opensim_runs(os.fspath(setup))
    labels, q = read_sto_table(os.fspath(tmp_path / "missing" / "ResultsRRA" /
                                         "subject01_walk1_RRA_Kinematics_q.sto"))[:2]
    assert abs(q[0, labels.index("pelvis_ty")]) < 1e-12            # held at 0 by OpenSim
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        ours = run_rra(os.fspath(setup), results_directory=os.fspath(tmp_path / "ours"),
                       output_model_file=os.fspath(tmp_path / "ours.osim"))
    assert abs(ours.reduction.q[0, ours.model.v_names.index("pelvis_ty")] - 1.015) < 0.01
    said = [str(w.message) for w in caught if "no column for the coordinates" in str(w.message)]
    assert said == [f"{kinematics}: no column for the coordinates ['pelvis_ty']: held at their "
                    "default values (the model's <default_value>), where OpenSim 4.6's RRATool "
                    "holds them at 0 (it logs 'Did not find column'), a pose that may be none "
                    "(a pelvis height of 0): add them to the file for both to track the same "
                    "pose"], said

def test_desired_kinematics_named_by_state_path_are_read_as_opensims_rra_reads_them(osim,
                                                                                   tmp_path):
    """Gait2354's setup (0.75 .. 0.8 s) with its desired kinematics' columns named by state
    path (/jointset/ground_pelvis/pelvis_tilt/value ...), as a states table names them.
    OpenSim 4.6's RRATool reads them (SimbodyEngine::formCompleteStorages finds a column by
    the coordinate's state path): its kinematics and forces are those of the file named by
    coordinate, to the bit. urdf2dyn rra warned, as OpenSim's InverseDynamicsTool does not
    read them, that OpenSim holds them at their defaults and that they should be renamed.
    Now it reads them without a word, as OpenSim's RRA does, with the same result as the
    file named by coordinate."""
    from rra_oracle import opensim_runs
    from urdf2dyn.biomech.formats.opensim import read_sto_table
    source = os.path.dirname(SETUP)
    setups = {name: _short_setup(tmp_path, name) for name in ("named", "paths")}
    theirs_model = osim.Model(os.path.join(source, "subject01_simbody.osim"))
    coordinates = theirs_model.getCoordinateSet()
    path_of = {coordinates.get(k).getName(): coordinates.get(k).getAbsolutePathString()
               for k in range(coordinates.getSize())}
    kinematics = tmp_path / "paths" / "subject01_walk1_ik.mot"
    lines = kinematics.read_text().split("\n")
    at = lines.index("endheader") + 1
    labels = lines[at].split("\t")
    lines[at] = "\t".join(f"{path_of[x]}/value" if x in path_of else x for x in labels)
    assert lines[at].count("/value") == len(labels) - 1 == 23
    kinematics.write_text("\n".join(lines))
    theirs = {}
    for name, setup in setups.items():
        assert opensim_runs(os.fspath(setup))
        theirs[name] = [read_sto_table(os.fspath(tmp_path / name / "ResultsRRA" /
                                                 f"subject01_walk1_RRA_{kind}.sto"))[:2]
                        for kind in ("Kinematics_q", "Actuation_force")]
    for (labels_named, named), (labels_paths, paths) in zip(theirs["named"], theirs["paths"]):
        assert labels_named == labels_paths                   # OpenSim reads them alike
        np.testing.assert_array_equal(named, paths)
    ours = {}
    for name, setup in setups.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", Urdf2dynWarning)
            ours[name] = run_rra(os.fspath(setup),
                                 results_directory=os.fspath(tmp_path / name / "ours"),
                                 output_model_file=os.fspath(tmp_path / name / "ours.osim"))
        said = [str(w.message) for w in caught]
        assert not [m for m in said if "state path" in m], said
    np.testing.assert_array_equal(ours["paths"].reduction.q, ours["named"].reduction.q)
    np.testing.assert_array_equal(ours["paths"].reduction.forces,
                                  ours["named"].reduction.forces)

def test_command_line(tmp_path, capsys):
    out = tmp_path / "res"
    status = cli.main(["rra", SETUP, "--results-directory", os.fspath(out), "--output-model",
                       os.fspath(tmp_path / "adj.osim"), "--knot-interval", "0.02"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "FX" in captured.out and "wrote 7 files" in captured.out
    assert (out / "subject01_walk1_RRA_Actuation_force.sto").exists()
    assert "warning: " in captured.err and "constraints_file" in captured.err


def test_command_line_refusals(tmp_path, capsys):
    copy = tmp_path / "setup"
    shutil.copytree(os.path.join(DATA, "Gait2354_Simbody"), copy)
    setup = os.fspath(copy / "subject01_Setup_RRA.xml")
    # an output that would overwrite an input
    status = cli.main(["rra", setup, "--results-directory", os.fspath(copy), "--output-model",
                       os.fspath(copy / "subject01_simbody.osim"), "--knot-interval", "0.05"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert f"--output-model {copy / 'subject01_simbody.osim'}: that is the model file" in err
    status = cli.main(["rra", os.fspath(tmp_path / "none.xml")])
    err = capsys.readouterr().err
    assert status == 1 and "none.xml: no such file (the OpenSim residual reduction" in err
    with pytest.raises(SystemExit) as e:
        cli.main(["rra", setup, "--knot-interval", "0"])
    assert e.value.code == 2
    # OpenSim's published setup names a control constraints file: said before the refusal
    with (pytest.raises(ValueError, match="output_model_file .*that is the model file"),
          pytest.warns(Urdf2dynWarning, match=r"subject01_Setup_RRA.xml: <constraints_file> "
                       r".*gait2354_RRA_ControlConstraints.xml: the control bounds it sets are "
                       r"not applied") as said):
        run_rra(setup, results_directory=os.fspath(tmp_path / "r"),
                output_model_file=os.fspath(copy / "subject01_simbody.osim"),
                knot_interval=0.05)
    # attributed to the caller's line, as Python's warnings are, not to urdf2dyn's inside
    assert {w.filename for w in said} == {__file__}, [(w.filename, w.lineno) for w in said]


@pytest.mark.filterwarnings("ignore::urdf2dyn.Urdf2dynWarning")  # the setup's constraints
def test_a_cutoff_below_opensims_floor_is_refused_naming_the_setups_element(tmp_path, capsys):
    """OpenSim's published RRA setup with <lowpass_cutoff_frequency> 0.001 (60 Hz
    coordinates): below 2e-3 of Nyquist urdf2dyn's form of OpenSim's filter no longer
    follows OpenSim's (tests/biomech/test_opensim_id.py, OpenSim as the oracle; 0 Hz was only
    warned about). Refused naming the setup and its element, not the filter's cutoff_hz the
    setup never wrote, and saying that OpenSim's filter is not reproduced there (OpenSim's
    RRA, whose FIR filter urdf2dyn does not use, runs it), and what turns a setup's filter
    off, -1 (it said "or no filter", which a setup cannot write)."""
    copy = tmp_path / "setup"
    shutil.copytree(os.path.dirname(SETUP), copy)
    setup = copy / os.path.basename(SETUP)
    text = setup.read_text()
    setup.write_text(re.sub(r"<lowpass_cutoff_frequency>[^<]*<",
                            "<lowpass_cutoff_frequency>0.001<", text))
    says = (f"{setup}: <lowpass_cutoff_frequency> 0.001: 0.001 Hz is too low to filter data "
            "sampled at 60 Hz (OpenSim's filter is not reproduced below 0.06 Hz); give a "
            "cut-off of a few Hz (6 Hz is usual for gait), or -1 for no filter")
    with pytest.raises(ValueError) as e:
        run_rra(os.fspath(setup), results_directory=os.fspath(tmp_path / "r"))
    assert str(e.value) == says
    assert cli.main(["rra", os.fspath(setup), "--results-directory",
                     os.fspath(tmp_path / "r")]) == 1
    assert f"error: {says}\n" in capsys.readouterr().err


def _rra(folder, options):
    """urdf2dyn rra SETUP writing into folder: (exit status, stderr, {file written: its text,
    with folder's path written TMP and the summary's wall time left out})."""
    argv = ["rra", SETUP, "--results-directory", os.fspath(folder / "r"),
            "--output-model", os.fspath(folder / "adj.osim")]
    for o in options:
        argv += ["--model", os.fspath(folder / o[1])] if o[1:] == ["generic copy.osim"] else o
    status, _, err = run_cli(argv, [SETUP])
    written = {}
    for d, _, names in os.walk(folder):
        for name in set(names) - {"generic copy.osim"}:
            with open(os.path.join(d, name)) as f:
                text = f.read().replace(os.fspath(folder), "TMP")
            # the summary's wall time is the one thing of a run that varies
            written[os.path.relpath(os.path.join(d, name), folder)] = re.sub(
                r"iterations, [0-9.]+ s", "iterations, (time) s", text)
    return status, err, written


_AS_THE_SETUP_SAYS = {}     # knot interval -> what the setup alone writes


@st.composite
def same_run_options(draw):
    """A knot interval, and options that name what the setup names (its model, as it is or
    a copy of another name) or --strict: (knot interval, options)."""
    knots = draw(st.sampled_from(["0.1", "0.2"]))
    options = [["--knot-interval", knots]]
    if draw(st.booleans()):
        options.append(["--model", draw(st.sampled_from(["generic copy.osim", "setup's"]))])
    if draw(st.sampled_from([False, False, True])):       # refused: once in three
        options.append(["--strict"])
    return knots, options


@settings(max_examples=6, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.one_of(
    st.lists(st.sampled_from([
        ["--knot-interval", "0.05"], ["--knot-interval", "nan"], ["--knot-interval", "-1"],
        ["--knot-interval", "abc"], ["--strict"], ["--model", "nowhere.osim"],
        ["--model", "robot2r.urdf"], ["--output-model", "x.txt"]]), max_size=3)
    .map(lambda options: (None, options)),
    same_run_options()))
def test_command_line_options_never_trace_back(tmp_path_factory, case):
    """Options naming what the setup names write what the setup alone writes, the same
    files to the bit; --strict refuses the published setup naming its <constraints_file>
    (whose bounds are not applied) and writes nothing. Any options: a result or an error
    line, never a traceback (run_cli's contract)."""
    knots, options = case
    folder = tmp_path_factory.mktemp("rra")
    model = os.path.join(DATA, "Gait2354_Simbody", "subject01_simbody.osim")
    shutil.copy(model, folder / "generic copy.osim")
    options = [["--model", model] if o == ["--model", "setup's"] else o for o in options]
    if knots is None and not any(o[0] == "--knot-interval" for o in options):
        options = options + [["--knot-interval", "0.1"]]
    status, err, written = _rra(folder, options)
    assert status in (0, 1, 2)
    if knots is None:
        return
    if ["--strict"] in options:
        assert status == 1 and f"{SETUP}: <constraints_file> " in err and not written, err
        return
    if knots not in _AS_THE_SETUP_SAYS:
        _AS_THE_SETUP_SAYS[knots] = _rra(tmp_path_factory.mktemp("rra"),
                                         [["--knot-interval", knots]])[::2]
    assert (status, written) == _AS_THE_SETUP_SAYS[knots]
