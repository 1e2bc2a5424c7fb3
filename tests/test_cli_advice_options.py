"""Every refusal and warning a trial command prints names options that command has: animate
reads and checks a trial as torques does but takes fewer options (no loads of another file,
no --contact, no --couplers), so the library's advice comes in each caller's words
(urdf2dyn.biomech.processing.ColumnOptions). Each input below fires one refusal or warning
that advises an option; every --option said is then looked up in the command's own parser
(the oracle: argparse's list of what the command takes), and torques must still advise its
own."""
import argparse
import gzip
import math
import os
import re
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech import formats, trajectory
from urdf2dyn.biomech import grf as G
from urdf2dyn.biomech.processing import LIBRARY_COLUMNS
from urdf2dyn.warn import Urdf2dynWarning

from recording_files import GRF, HUMAN, MOTION

LEG39 = os.path.join(os.path.dirname(__file__), "data", "ik", "leg39")
GAIT2392 = os.path.join(os.path.dirname(__file__), "data", "ik", "gait2392")
RAJAGOPAL = os.path.join(os.path.dirname(__file__), "data", "opensim_models", "Models",
                         "Rajagopal2016.osim")


def _parsers():
    return next(a for a in cli.build_parser()._actions
                if isinstance(a, argparse._SubParsersAction)).choices


def _own_options(command):
    return {flag for action in _parsers()[command]._actions for flag in action.option_strings}


def _options_named(text):
    """Every --option a text names (not a word with '--' inside, such as a file name)."""
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))


def _keywords_said(text):
    """The library's keywords a text advises (contacts=, max_gap=, ...: LIBRARY_COLUMNS'
    words), which a command line cannot pass, and those it names bare ("raising max_gap"):
    the keywords of two words, which no sentence says otherwise (a setup's element, such as
    <time_range>, is its file's word)."""
    keywords = [way.partition("=")[0] for way in LIBRARY_COLUMNS if way and "=" in way]
    given = {word + "=" for word in keywords if word + "=" in text}
    bare = {word for word in keywords if "_" in word
            and re.search(rf"(?<![\w<]){word}(?![\w>])", text)}
    return given | bare


def _sideless_reactions(tmp_path):
    """robot2r's bundled motion with ground-reaction columns grfX_1 ..: the key '1' names no
    foot, so the loads' link must be given."""
    data = np.loadtxt(urdf2dyn.data_path("robot2r_trajectory.csv"), delimiter=",",
                      skiprows=1)
    n = len(data)
    path = tmp_path / "sideless.csv"
    formats.write_csv(path, trajectory.Trajectory(
        data[:, 0], data[:, 1:], ["joint1", "joint2"],
        grf={"1": np.tile([0.0, 0.0, 10.0], (n, 1))}, cop={"1": np.tile([0.1, 0.0, 0.0], (n, 1))}))
    return "robot2r.urdf", path


def _with_own_reactions(tmp_path, name, change):
    """The bundled running trial with its ground reactions, changed by change, written into
    the motion file itself (the loads animate draws), at the motion's times."""
    motion, reactions = formats.read(MOTION), G.read_grf(GRF)
    change(reactions)

    def at_motion(x):
        return np.column_stack([np.interp(motion.time, reactions.time, x[:, c])
                                for c in range(3)])
    path = tmp_path / name
    formats.write_csv(path, trajectory.Trajectory(
        motion.time, motion.q, motion.names,
        grf={k: at_motion(x) for k, x in reactions.grf.items()},
        cop={k: at_motion(x) for k, x in reactions.cop.items()}))
    return HUMAN, path


def _far_right_cop(tmp_path):
    def move(reactions):
        reactions.cop["R"][:, 2] += 0.5                 # half a metre to the side
    return _with_own_reactions(tmp_path, "far_cop.csv", move)


def _weightless_reactions(tmp_path):
    def zero(reactions):
        for x in reactions.grf.values():
            x[:] = 0.0
    return _with_own_reactions(tmp_path, "weightless.csv", zero)


def _reactions_in_kgf(tmp_path):
    def to_kgf(reactions):
        for x in reactions.grf.values():
            x /= 9.81
    return _with_own_reactions(tmp_path, "kgf.csv", to_kgf)


def _no_reactions(tmp_path):
    shutil.copy(MOTION, tmp_path / "running.csv")
    return HUMAN, tmp_path / "running.csv"


def _coupler_in_degrees(tmp_path):
    """Rajagopal 2016 at its default pose, both knees bending, each knee_angle_<side>_beta
    written in degrees where its CoordinateCouplerConstraint makes it equal to the knee
    angle in radians."""
    model = urdf2dyn.load(RAJAGOPAL)
    t = np.linspace(0.0, 0.5, 51)
    knee = 0.2 + 0.8 * np.sin(np.pi * t) ** 2
    cols = {"time": t}
    for name in model.q_names:
        cols[name] = np.full(len(t), model.coordinates[name].default)
    for side in "rl":
        cols[f"knee_angle_{side}"] = knee
        cols[f"knee_angle_{side}_beta"] = np.degrees(knee)
    path = tmp_path / "knees.mot"
    with open(path, "w") as f:
        f.write(f"motion\nversion=1\nnRows={len(t)}\nnColumns={len(cols)}\ninDegrees=no\n"
                "endheader\n" + "\t".join(cols) + "\n")
        for row in np.column_stack(list(cols.values())):
            f.write("\t".join(f"{x:.10g}" for x in row) + "\n")
    return RAJAGOPAL, path


def _z_up_lab(tmp_path):
    """OpenSim's gait2392 walking trial as its C3D records it, in a z-up lab: run with no
    rotation, or a wrong one, its markers fit badly and its loads hold the body up across
    the y-up model's gravity."""
    return (os.path.join(GAIT2392, "subject01_simbody.osim"),
            Path(GAIT2392) / "subject01_walk1.c3d")


def _robot2r_without_joint1(path, rows):
    """robot2r's bundled motion written to path with joint1's cells of those rows (line
    numbers, the header line 0) empty: (the model, path)."""
    lines = open(urdf2dyn.data_path("robot2r_trajectory.csv")).read().splitlines()
    for k in rows:
        time, _, joint2 = lines[k].split(",")
        lines[k] = f"{time},,{joint2}"
    path.write_text("\n".join(lines) + "\n")
    return "robot2r.urdf", path


def _long_gap(tmp_path):
    """robot2r's bundled motion with 10 empty joint1 cells inside: a gap longer than the 5
    samples filled by default."""
    return _robot2r_without_joint1(tmp_path / "gap.csv", range(50, 60))


def _gap_at_the_end(tmp_path):
    """robot2r's bundled motion with its last two joint1 cells empty: nothing to interpolate
    from after them, however long the gaps filled."""
    return _robot2r_without_joint1(tmp_path / "end.csv", (-2, -1))


def _force_gap_in_a_contact(tmp_path):
    """The running trial's own ground reactions with 10 force samples of 'R' missing in the
    middle of its first contact: longer than the 5 samples filled by default."""
    def cut(reactions):
        loaded = np.flatnonzero(np.linalg.norm(reactions.grf["R"], axis=1) > 200)
        middle = loaded[len(loaded) // 4]
        reactions.grf["R"][middle:middle + 10] = np.nan
    return _with_own_reactions(tmp_path, "force_gap.csv", cut)


def _robot2r_rows(tmp_path, name, rewrite):
    """robot2r's bundled motion (a comma-separated CSV) with its lines rewritten."""
    lines = open(urdf2dyn.data_path("robot2r_trajectory.csv")).read().splitlines()
    path = tmp_path / name
    path.write_text("\n".join(rewrite(lines)) + "\n")
    return "robot2r.urdf", path


def _robot2r_motion(tmp_path):
    """robot2r's bundled motion as it is."""
    return _robot2r_rows(tmp_path, "robot2r.csv", lambda lines: lines)


def _two_separators(tmp_path):
    """A header holding commas and semicolons: which separates the columns?"""
    return _robot2r_rows(tmp_path, "two.csv", lambda lines: ["time;joint1,joint2"] + [
        line.replace(",", ";") for line in lines[1:]])


def _mixed_decimals(tmp_path):
    """Semicolon-separated with decimal commas, and one cell written with a point."""
    def rewrite(lines):
        lines = [line.replace(",", ";").replace(".", ",") for line in lines]
        lines[30] = lines[30].replace(",", ".", 1)
        return lines
    return _robot2r_rows(tmp_path, "mixed.csv", rewrite)


def _row_of_semicolons(tmp_path):
    """Comma-separated, but one row separated by semicolons."""
    def rewrite(lines):
        lines[20] = lines[20].replace(",", ";")
        return lines
    return _robot2r_rows(tmp_path, "row.csv", rewrite)


def _angles_in_degrees(tmp_path):
    """robot2r's motion written in degrees, read as radians: its joints swing by 16 turns."""
    return _robot2r_rows(tmp_path, "degrees.csv", lambda lines: lines[:1] + [
        ",".join([row.split(",")[0]] + [f"{math.degrees(float(x)):.6f}"
                                        for x in row.split(",")[1:]]) for row in lines[1:]])


def _undetermined_frames(tmp_path):
    """OpenSim's leg39 swing (14 frames of 41 markers) with every marker of frames 6 and 7
    missing: no pose is determined there, and inverse kinematics leaves gaps."""
    with gzip.open(os.path.join(LEG39, "leg39.osim.gz")) as f:
        (tmp_path / "leg39.osim").write_bytes(f.read())
    lines = open(os.path.join(LEG39, "leg39_swing_short.trc")).read().split("\n")
    for k, line in enumerate(lines):
        cells = line.split("\t")
        if k >= 6 and cells[0] in ("6", "7"):
            lines[k] = "\t".join(cells[:2] + [""] * (len(cells) - 2))
    (tmp_path / "gaps.trc").write_text("\n".join(lines))
    return str(tmp_path / "leg39.osim"), tmp_path / "gaps.trc"


def _loads_without_reactions(tmp_path):
    """robot2r's bundled motion, given as its own ground reactions too (--grf robot2r.mot,
    an OpenSim table of its joint angles): the file has no ground-reaction columns."""
    model, motion = _robot2r_motion(tmp_path)
    formats.write(tmp_path / "robot2r.mot", formats.read(motion))
    return model, motion


class Advice(NamedTuple):
    """An input firing a refusal or warning that advises options: what writes it (model,
    trial), words of what it fires, the options the advice names under torques and under
    torques --setup (None: not an input a setup takes), the torques options it needs
    besides, and whether animate, which lacks them, runs it too."""
    write: Callable[[Path], tuple[str, Path]]
    fired: str
    torques: set[str]
    setup: set[str] | None
    extra: tuple[str, ...] = ()
    animate: bool = True


ADVICE = {
    "no side": Advice(_sideless_reactions, "their names say no side",
                      {"--contact", "--external-loads"}, {"--contact"}),
    "far centre of pressure": Advice(_far_right_cop, "the centre of pressure of 'R' is",
                                     {"--contact"}, {"--contact"}),
    "weightless loads": Advice(_weightless_reactions, "bear no weight over the motion",
                               {"--contact"}, {"--contact"}),
    "no loads": Advice(_no_reactions, "no ground reaction is given",
                       {"--grf", "--external-loads"}, set()),
    "no loads to reduce residuals": Advice(
        _no_reactions, "residual reduction needs the trial's external loads",
        {"--grf", "--external-loads"}, set(), ("--reduce-residuals",), animate=False),
    "coupler off": Advice(_coupler_in_degrees, "not held by their CoordinateCouplerConstraint",
                          {"--couplers"}, {"--couplers"}),
    "loads in kgf": Advice(_reactions_in_kgf, "the loads hold the body up by", set(), set()),
    "long gap": Advice(_long_gap, "gaps longer than the 5 samples filled", {"--max-gap"},
                       {"--max-gap"}),
    "gap at the end": Advice(_gap_at_the_end, "filling longer gaps does not help", set(),
                             set()),
    "force gap in a contact": Advice(_force_gap_in_a_contact, "missing force samples",
                                     {"--max-gap"}, None),   # the setup's loads are its own
    "two separators": Advice(_two_separators, "cannot tell which separates the columns",
                             {"--delimiter"}, {"--delimiter"}),
    "mixed decimals": Advice(_mixed_decimals, "has a decimal point but the file writes "
                             "decimal commas elsewhere", {"--decimal"}, {"--decimal"}),
    "a row of semicolons": Advice(_row_of_semicolons, "line 21 has 1 values for 3 header "
                                  "columns", {"--delimiter"}, {"--delimiter"}),
    "angles in degrees": Advice(_angles_in_degrees, "They look like degrees", {"--degrees"},
                                set()),
    "a quaternion under OpenSim's processing": Advice(
        _robot2r_motion, "needs one coordinate per degree of freedom", set(), None,
        ("--processing", "opensim", "--floating-base"), animate=False),
    "the filter's padding": Advice(
        _robot2r_motion, "the filter's padding", {"--time-range"}, None,    # a setup's: -1
        ("--processing", "opensim", "--filter", "6"), animate=False),
    "a time range beyond the table": Advice(
        _robot2r_motion, "lies outside the table", {"--time-range"}, {"--time-range"},
        ("--processing", "opensim", "--time-range", "5", "6"), animate=False),
    "undetermined frames": Advice(_undetermined_frames, "do not determine the pose in 2 "
                                  "frames inside the trial", {"--max-gap"},
                                  None),      # a setup takes no .trc
    "a gravity along every joint axis": Advice(_robot2r_motion, "no joint carries any weight",
                                               {"--gravity"}, {"--gravity"}),
    "loads without reactions": Advice(
        _loads_without_reactions, "no ground reaction columns", {"--external-loads"},
        None, ("--grf", "robot2r.mot"), animate=False),   # a setup gives its own loads
    "a wrong lab rotation": Advice(
        _z_up_lab, "The lab's vertical is not the model's", {"--rotate", "--ik-setup"},
        None, ("--rotate", "x:-180", "--ik-setup",      # a setup takes no C3D
               os.path.join(GAIT2392, "subject01_Setup_IK.xml"), "--filter", "6")),
}


#: what animate, lacking the options, says instead: the words its users see, for each input
#: it runs
ANIMATE_SAYS = {
    "no side": "their names say no side. Rename the columns to name the foot each loads",
    "far centre of pressure": "plates or sides swapped: the ground-reaction columns' names",
    "weightless loads": "their contact links (the ground-reaction columns' names)",
    "no loads": "Give the loads: a C3D with its force plates or the motion file's own "
                "ground-reaction columns",
    "coupler off": "moves their bodies as the file says: correct the columns",
    "loads in kgf": "the model's mass (the subject's? if not, scale the model to the subject)",
    "long gap": "For the gaps inside the trial, fill them with a tool that knows the movement",
    "gap at the end": "cut the trial to the part that was recorded",
    "force gap in a contact": "fix the force-plate data, cut the trial",
    "two separators": "cannot tell which separates the columns; rewrite the file with one "
                      "separator",
    "mixed decimals": "decimal commas elsewhere: write every number with the same decimal "
                      "separator",
    "a row of semicolons": "as the header line; rewrite the file with one separator if not",
    "angles in degrees": "They look like degrees: pass --degrees if they are",
    "undetermined frames": "they are gaps in the coordinates, filled when short, else the "
                           "trial stops",
    "a gravity along every joint axis": "if the model's vertical is y, set it: --gravity 0 "
                                        "-9.81 0",
    "a wrong lab rotation": "The lab's vertical is not the model's with no rotation: use "
                            "--rotate x:-90",
}


#: an OpenSim inverse-dynamics setup of the model and the trial, over the whole trial
ID_SETUP = """<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40600">
  <InverseDynamicsTool name="advice">
    <model_file>{model}</model_file>
    <time_range>{t0!r} {t1!r}</time_range>
    <coordinates_file>{motion}</coordinates_file>
    <lowpass_cutoff_frequency_for_coordinates>-1</lowpass_cutoff_frequency_for_coordinates>
    <output_gen_force_file>id.sto</output_gen_force_file>
  </InverseDynamicsTool>
</OpenSimDocument>
"""

#: a value for each option the advice may name, to try it beside --setup
SAMPLE_VALUES = {"--contact": ["1=foot_R"], "--couplers": ["eliminate"], "--grf": ["g.csv"],
                 "--external-loads": ["el.xml"], "--max-gap": ["10"],
                 "--delimiter": ["semicolon"], "--decimal": [","], "--degrees": [],
                 "--gravity": ["0", "-9.81", "0"], "--time-range": ["0", "1"]}


def _command_line(mode, model, trial, tmp_path, extra):
    """The command line of mode (animate, torques, or torques running an ID setup that names
    the model and the trial) on model and trial, with torques' extra options."""
    if mode == "animate":
        return ["animate", model, str(trial), "-o", "out.gif", "--every", "100000"]
    if mode == "torques":
        return ["torques", model, str(trial), *extra]
    try:
        time = formats.read(str(trial)).time
        t0, t1 = float(time[0]), float(time[-1])
    except trajectory.MotionError:      # a file the run refuses: any range inside its times
        t0, t1 = 0.0, 0.5
    setup = tmp_path / "id_setup.xml"
    setup.write_text(ID_SETUP.format(model=urdf2dyn.data_path(model) if model == "robot2r.urdf"
                                     else model, motion=trial, t0=t0, t1=t1))
    return ["torques", "--setup", str(setup), *extra]


def _refused_beside_setup(flag, setup_line, capsys):
    """Whether torques refuses flag beside --setup (the setup gives what it would)."""
    if flag not in SAMPLE_VALUES:
        pytest.fail(f"{flag} advised: give it a value in SAMPLE_VALUES to try beside --setup")
    cli.main(setup_line + [flag, *SAMPLE_VALUES[flag]])
    return f"{flag} and --setup" in capsys.readouterr().err


@pytest.mark.parametrize("case,mode", [
    (case, mode) for case in sorted(ADVICE) for mode in ("animate", "torques", "torques --setup")
    if (mode != "torques --setup" or ADVICE[case].setup is not None)
    and (mode != "animate" or ADVICE[case].animate)])
def test_the_advice_names_only_options_of_the_command(tmp_path, monkeypatch, capsys, mode,
                                                      case):
    """Under animate the refusal of sideless ground reactions advised --contact and
    --external-loads, the coupler warning --couplers eliminate, the loads' warnings --grf,
    --external-loads, --contact: options animate does not take; under torques --setup the
    loads' warnings advised --grf and --external-loads, which it refuses beside the setup.
    Each now says what the command can do (animate: rename the columns, correct them), and
    torques its own options."""
    if mode == "animate":
        pytest.importorskip("matplotlib")
    advice = ADVICE[case]
    model, trial = advice.write(tmp_path)
    monkeypatch.chdir(tmp_path)
    line = _command_line(mode, model, trial, tmp_path, advice.extra)
    try:
        cli.main(line)
    except SystemExit as e:             # argparse's own errors: none expected
        pytest.fail(f"exit {e.code}: {capsys.readouterr().err}")
    err = " ".join(capsys.readouterr().err.split())
    assert advice.fired in err, err
    named = _options_named(err)
    own = _own_options(line[0])
    assert named <= own, (named - own, err)
    keywords = _keywords_said(err)
    assert not keywords, (keywords, err)
    if mode == "animate":
        assert ANIMATE_SAYS[case] in err, err
    if mode == "torques":
        assert advice.torques <= named, err
    if mode == "torques --setup":
        assert advice.setup <= named, err
        refused = {flag for flag in named - {"--setup"}
                   if _refused_beside_setup(flag, line, capsys)}
        assert not refused, (refused, err)


def test_the_light_loads_warning_asks_for_the_models_mass_not_mass(tmp_path, monkeypatch,
                                                                    capsys):
    """Ground reactions in kgf never hold the body up: the warning advised checking "the
    body mass (--mass)", but it weighs the model, whatever --mass says (--mass 80 leaves its
    562 N, HuMoD subject A's 57.3 kg, as it was): it asks whether the model's mass is the
    subject's, naming no option."""
    model, trial = _reactions_in_kgf(tmp_path)
    monkeypatch.chdir(tmp_path)
    said = []
    for mass in ([], ["--mass", "57.3"], ["--mass", "80"]):
        assert cli.main(["torques", model, str(trial), *mass]) == 0
        err = " ".join(capsys.readouterr().err.split())
        light = [w for w in err.split("urdf2dyn torques: warning: ")
                 if "the loads hold the body up by" in w]
        assert len(light) == 1, err
        said.append(light[0])
    assert said[0] == said[1] == said[2]
    assert "of its weight (562 N, 57.3 kg)" in said[0] and "--mass" not in said[0], said[0]
    assert "the model's mass (the subject's? if not, scale the model" in said[0], said[0]


EXTERNAL_LOADS = """<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40600">
  <ExternalLoads name="loads">
    <objects>
      <ExternalForce name="push">
        <applied_to_body>link2</applied_to_body>
        <force_identifier>f</force_identifier>
      </ExternalForce>
    </objects>
    <datafile>{datafile}</datafile>
  </ExternalLoads>
</OpenSimDocument>
"""


def test_an_external_loads_csv_with_two_separators_advises_no_option_that_cannot_help(
        tmp_path, monkeypatch, capsys):
    """An ExternalLoads file's CSV data file whose header holds commas and semicolons was
    refused advising delimiter="semicolon", under torques too (the library's words on the
    command line): but its data file is read as written, by neither --delimiter nor
    delimiter= (given, the same refusal follows). The refusal now says what helps: rewrite
    the file with one separator."""
    (tmp_path / "forces.csv").write_text("time,fx;fy,fz\n" + "".join(
        f"{0.01 * k:g},0,0,10\n" for k in range(201)))
    (tmp_path / "loads.xml").write_text(EXTERNAL_LOADS.format(datafile="forces.csv"))
    monkeypatch.chdir(tmp_path)
    motion = urdf2dyn.data_path("robot2r_trajectory.csv")
    said = []
    for given in ([], ["--delimiter", "semicolon"]):
        assert cli.main(["torques", "robot2r.urdf", motion, "--external-loads", "loads.xml",
                         *given]) != 0
        said.append(" ".join(capsys.readouterr().err.split()))
    for given in ({}, {"delimiter": "semicolon"}):
        with pytest.raises(trajectory.MotionError) as refused:
            urdf2dyn.biomech.inverse_dynamics_trial("robot2r.urdf", motion,
                                                    external_loads="loads.xml", **given)
        said.append(str(refused.value))
    for message in said:
        assert "forces.csv: the header line holds commas (',') and semicolons (';')" in message
        assert "rewrite the file with one separator" in message, message
        assert "delimiter" not in message, message


@pytest.mark.parametrize("mode", ["torques", "torques --processing opensim", "torques --setup"])
def test_a_fixed_base_advises_what_the_command_can_load(tmp_path, monkeypatch, capsys, mode):
    """A fixed-base arm has no root residuals, and the summary said what to do: "load it with
    a floating base (command line: --floating-base; ...)", under torques --setup too, which
    refuses --floating-base, and under --processing opensim, whose one coordinate per degree
    of freedom refuses its quaternion. Each caller is now advised what it can do, and the
    oracle is the command itself: --floating-base is its option where it is advised, and
    refused where it is not."""
    model = urdf2dyn.data_path("arm7.urdf")
    motion = urdf2dyn.data_path("arm7_trajectory.csv")
    monkeypatch.chdir(tmp_path)
    line = {"torques": ["torques", model, motion],
            "torques --processing opensim": ["torques", model, motion, "--processing",
                                             "opensim"],
            "torques --setup": _command_line("torques --setup", model, motion, tmp_path, ())
            }[mode]
    assert cli.main(line + ["-o", "tau.sto"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    said, = [line for line in out.split("root residuals: none: ")[1:]]
    assert "has a fixed base" in said, out
    named = _options_named(said)
    assert not _keywords_said(said), said
    if mode == "torques":
        assert named == {"--floating-base"} and named <= _own_options("torques"), said
    else:
        assert not named, said
        assert "give a model whose root joint moves it freely" in said, said
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)    # the root's columns missing
            assert cli.main(line + ["--floating-base", "-o", "floating.sto"]) != 0
        assert "one coordinate per degree of freedom" in capsys.readouterr().err


def test_a_fixed_base_under_opensims_processing_advises_no_floating_base_to_the_library():
    """The library under processing="opensim" was advised floating_base=True, a quaternion its
    processing refuses (MotionError): it is advised a model whose root joint moves it."""
    arm = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    motion = urdf2dyn.data_path("arm7_trajectory.csv")
    res = urdf2dyn.inverse_dynamics_trial(arm, motion, processing="opensim")
    why = res.record["no_residuals"]
    assert "floating" not in why and "give a model whose root joint moves it freely" in why
    with (warnings.catch_warnings(),
          pytest.raises(trajectory.MotionError, match="one coordinate per degree of freedom")):
        warnings.simplefilter("ignore", Urdf2dynWarning)        # the root's columns missing
        urdf2dyn.inverse_dynamics_trial(urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"),
                                                      floating_base=True), motion,
                                        processing="opensim")
    assert "floating_base=True" in urdf2dyn.inverse_dynamics_trial(
        arm, motion).record["no_residuals"]


@pytest.mark.parametrize("given", ["degrees", "mapping", "both"])
@pytest.mark.parametrize("caller", ["torques", "animate", "library"])
def test_a_marker_recording_names_the_coordinate_options_given_in_the_callers_words(
        tmp_path, monkeypatch, capsys, caller, given):
    """A marker recording with --degrees was refused as "degrees and mapping apply to
    coordinate files": neither the flag given nor only what was given. The refusal now names
    each option given, as the caller passes it: the command's own flags (its parser is the
    oracle) and no library keyword on the command line, degrees=True and mapping= to the
    library."""
    model, trial = _undetermined_frames(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.json").write_text('{"a": "b"}')
    flags = {"degrees": ["--degrees"], "mapping": ["--mapping", "m.json"]}
    keywords = {"degrees": {"degrees": True}, "mapping": {"mapping": {"a": "b"}}}
    names = ["degrees", "mapping"] if given == "both" else [given]
    if caller == "library":
        with (warnings.catch_warnings(), pytest.raises(ValueError) as refused):
            warnings.simplefilter("ignore", Urdf2dynWarning)
            urdf2dyn.inverse_dynamics_trial(
                urdf2dyn.load(model), str(trial),
                **{k: v for name in names for k, v in keywords[name].items()})
        said = str(refused.value)
        assert _options_named(said) == set(), said
        expected = {"degrees": "degrees=True", "mapping": "mapping={file name: model name}"}
        assert all(expected[name] in said for name in names), said
    else:
        line = _command_line(caller, model, trial, tmp_path, ())
        if caller == "torques":
            line += ["-o", "tau.sto"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)
            assert cli.main(line + [f for name in names for f in flags[name]]) != 0
        said, = [line.partition(": error: ")[2] for line in capsys.readouterr().err.split("\n")
                 if ": error: " in line]
        assert _options_named(said) == {flags[name][0] for name in names}, said
        assert _options_named(said) <= _own_options(caller), said
        assert not _keywords_said(said), said
    options, _, why = said.partition(" to coordinate files")
    assert why and (given == "both") == (" and " in options), said


@pytest.mark.parametrize("caller", ["torques", "animate", "library"])
def test_degrees_on_an_opensim_motion_is_refused_in_the_callers_words(tmp_path, monkeypatch,
                                                                     capsys, caller):
    """--degrees on a .mot motion was refused as "--degrees applies to CSV files (degrees=True
    in Python; ...)": a library keyword on the command line and a flag in Python. Each caller
    is now told the option it passed: the command's own flag (its parser is the oracle), or
    degrees=True."""
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    motion = tmp_path / "robot2r.mot"
    formats.write_opensim(motion, formats.read_csv(urdf2dyn.data_path("robot2r_trajectory.csv"),
                                                   model=model), model=model)
    monkeypatch.chdir(tmp_path)
    if caller == "library":
        with pytest.raises(trajectory.MotionError) as refused:
            urdf2dyn.inverse_dynamics_trial(model, str(motion), degrees=True)
        said = str(refused.value)
        assert "degrees=True applies to CSV files" in said and not _options_named(said), said
    else:
        line = _command_line(caller, "robot2r.urdf", motion, tmp_path, ())
        assert cli.main(line + ["--degrees"]) != 0
        said, = [line.partition(": error: ")[2] for line in capsys.readouterr().err.split("\n")
                 if ": error: " in line]
        assert "--degrees applies to CSV files" in said, said
        assert _options_named(said) == {"--degrees"} <= _own_options(caller), said
        assert not _keywords_said(said) and "in Python" not in said, said
