"""No output may overwrite an input (issue 26): every file a command reads (models, setups and
the files they name, ExternalLoads data files, markers, motions, the coordinate_file of IK
tasks) is refused as an output by the same path, another spelling, a symbolic or a hard link,
and every writer goes through urdf2dyn._safe_files.replacing.

The walk introspects the command line's parsers: every command must have a base case below
(a new command fails here until it has one), and every option that takes a value, of every
command, is given every input of the case under every name; after each run the inputs must be
byte for byte what they were, and each alias must still name its input. An option that wrote a
file in the base run (an output) must also refuse each of them with a non-zero exit status."""
from __future__ import annotations

import argparse
import ast
import gc
import hashlib
import os
import pathlib
import shutil
import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.bundled import data_path

from test_osim import every_joint_model

PACKAGE = pathlib.Path(urdf2dyn.__file__).parent


# ---- a small lab: a 2-link robot, its motion, loads, setups, markers --------------------------

def _sto(path, labels, rows):
    with open(path, "w") as f:
        f.write(f"{path.name}\nversion=1\nnRows={len(rows)}\nnColumns={len(labels)}\n"
                "inDegrees=no\nendheader\n" + "\t".join(labels) + "\n")
        for r in rows:
            f.write("\t".join(f"{x:.6f}" for x in r) + "\n")


def make_lab(d):
    """The files every base case reads, in folder d (a pathlib.Path)."""
    from urdf2dyn.biomech.formats import write_trc
    from urdf2dyn.biomech.markers import Markers
    from urdf2dyn.markers import read_markers
    shutil.copy(data_path("robot2r.urdf"), d / "robot.urdf")
    (d / "model.osim").write_text(every_joint_model())
    t = np.arange(21) * 0.01
    q = np.column_stack([0.3 * np.sin(3 * t), 0.2 * np.cos(2 * t)])
    (d / "motion.csv").write_text("time,joint1,joint2\n" + "".join(
        f"{a:.4f},{b:.6f},{c:.6f}\n" for a, (b, c) in zip(t, q)))
    _sto(d / "motion.mot", ["time", "joint1", "joint2"], np.column_stack([t, q]))
    _sto(d / "coords.mot", ["time", "joint1", "joint2"], np.column_stack([t, q]))
    _sto(d / "loads.mot", ["time", "f_vx", "f_vy", "f_vz", "f_px", "f_py", "f_pz"],
         np.column_stack([t] + [np.full_like(t, v) for v in (1, 2, 3, 0.1, 0, 0.5)]))
    (d / "loads.xml").write_text(
        '<?xml version="1.0"?><OpenSimDocument Version="40000"><ExternalLoads name="l">'
        '<objects><ExternalForce name="f"><applied_to_body>link2</applied_to_body>'
        '<force_identifier>f_v</force_identifier><point_identifier>f_p</point_identifier>'
        '</ExternalForce></objects><datafile>loads.mot</datafile></ExternalLoads>'
        '</OpenSimDocument>\n')
    (d / "id.xml").write_text(
        '<?xml version="1.0"?><OpenSimDocument Version="40000"><InverseDynamicsTool name="id">'
        '<model_file>robot.urdf</model_file><external_loads_file>loads.xml'
        '</external_loads_file><coordinates_file>motion.mot</coordinates_file>'
        '<lowpass_cutoff_frequency_for_coordinates>-1</lowpass_cutoff_frequency_for_coordinates>'
        '<output_gen_force_file>id_out.sto</output_gen_force_file></InverseDynamicsTool>'
        '</OpenSimDocument>\n')
    (d / "markers.csv").write_text("name,link,x,y,z\nm1,link1,0.1,0,0.05\nm2,link2,0.2,0.05,0\n")
    model = urdf2dyn.load(d / "robot.urdf")
    marks = read_markers(d / "markers.csv", model)
    pos, rot = model.forward_kinematics(q)
    at = {n: k for k, n in enumerate(model.link_names)}
    xyz = np.stack([pos[:, at[m.link]] + rot[:, at[m.link]] @ np.array(m.position)
                    for m in marks], axis=1)
    write_trc(d / "walk.trc", Markers(t, [m.name for m in marks], xyz, meta={"rate": 100.0}))
    (d / "ik.xml").write_text(
        '<?xml version="1.0"?><OpenSimDocument Version="40000"><InverseKinematicsTool name="ik">'
        '<model_file>robot.urdf</model_file><marker_file>walk.trc</marker_file>'
        '<coordinate_file>coords.mot</coordinate_file><IKTaskSet><objects>'
        '<IKMarkerTask name="m1"><weight>1</weight></IKMarkerTask>'
        '<IKMarkerTask name="m2"><weight>1</weight></IKMarkerTask>'
        '<IKCoordinateTask name="joint1"><weight>0.01</weight><value_type>from_file'
        '</value_type></IKCoordinateTask></objects></IKTaskSet>'
        '<output_motion_file>ik_out.mot</output_motion_file><report_errors>true'
        '</report_errors></InverseKinematicsTool></OpenSimDocument>\n')


REAL_LAB = pathlib.Path(__file__).parent / "data" / "real_lab"


def make_scale_lab(d):
    """A published ScaleTool setup (tests/data/real_lab: mitkof6/opensim_automated_pipeline)
    with its model, marker set and static trial beside it, the setup's paths made flat."""
    shutil.copy(REAL_LAB / "model" / "model_generic.osim", d / "scale_generic.osim")
    shutil.copy(REAL_LAB / "scale" / "markers.xml", d / "scale_markers.xml")
    shutil.copy(REAL_LAB / "experimental_data" / "static.trc", d / "static.trc")
    setup = (REAL_LAB / "scale" / "setup_scale.xml").read_text()
    for old, new in (("../model/model_generic.osim", "scale_generic.osim"),
                     ("markers.xml", "scale_markers.xml"),
                     ("../experimental_data/static.trc", "static.trc")):
        assert old in setup
        setup = setup.replace(old, new)
    (d / "setup_scale.xml").write_text(setup)


RRA_CASE = pathlib.Path(__file__).parent / "data" / "opensim_models" / "Gait2354_Simbody"
#: gait2354's published RRA setup and every file it names (opensim-models)
RRA_INPUTS = ["subject01_Setup_RRA.xml", "subject01_simbody.osim", "subject01_walk1_ik.mot",
              "subject01_walk1_grf.xml", "subject01_walk1_grf.mot", "gait2354_RRA_Tasks.xml",
              "gait2354_RRA_Actuators.xml", "gait2354_RRA_ControlConstraints.xml"]


def make_rra_lab(d):
    for name in RRA_INPUTS:
        shutil.copy(RRA_CASE / name, d / name)


@pytest.fixture
def lab(tmp_path, monkeypatch):
    d = tmp_path / "lab"
    d.mkdir()
    make_lab(d)
    make_scale_lab(d)
    make_rra_lab(d)
    monkeypatch.chdir(d)
    return d


def run(argv, capsys):
    """(exit status, stderr) of the command line in this process."""
    try:
        status = cli.main([str(a) for a in argv])   # prints urdf2dyn's warnings: err holds them
    except SystemExit as e:              # argparse's own errors
        status = e.code
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return status, err


def digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


# ---- every command: a base case, the files it reads -----------------------------------------

#: command -> [(argv, the lab files it reads)]. A command of the parser without an entry fails
#: test_every_command_has_a_base_case: add one when adding a command.
CASES = {
    "torques": [
        (["torques", "robot.urdf", "motion.csv", "-o", "t.csv", "--residuals", "r.csv",
          "--plot", "t.png"], ["robot.urdf", "motion.csv"]),
        (["torques", "robot.urdf", "motion.csv", "--external-loads", "loads.xml", "-o",
          "t.csv"], ["robot.urdf", "motion.csv", "loads.xml", "loads.mot"]),
        (["torques", "--setup", "id.xml", "-o", "t.sto"],
         ["id.xml", "robot.urdf", "motion.mot", "loads.xml", "loads.mot"]),
    ],
    "human": [(["human", "--height", "1.7", "--mass", "70", "--sex", "f", "-o", "h.urdf"],
               [])],
    "info": [(["info", "robot.urdf", "--dot", "t.dot", "--plot", "tree.png"], ["robot.urdf"])],
    "export-osim": [(["export-osim", "robot.urdf", "-o", "r.osim"], ["robot.urdf"])],
    "codegen": [(["codegen", "robot.urdf", "--lang", "c", "-o", "gen"], ["robot.urdf"])],
    "equations": [(["equations", "robot.urdf"], ["robot.urdf"])],
    "check": [(["check", "robot.urdf"], ["robot.urdf"])],
    "convert": [(["convert", "model.osim", "-o", "m.urdf"], ["model.osim"])],
    "ik": [(["ik", "--setup", "ik.xml", "--model", "robot.urdf", "--markers", "markers.csv",
             "-o", "ik.mot"], ["ik.xml", "robot.urdf", "markers.csv", "walk.trc",
                               "coords.mot"])],
    "animate": [(["animate", "robot.urdf", "motion.csv", "-o", "a.gif", "--every", "10"],
                 ["robot.urdf", "motion.csv"])],
    "scale": [(["scale", "setup_scale.xml", "-o", "scaled.osim"],
               ["setup_scale.xml", "scale_generic.osim", "scale_markers.xml", "static.trc"])],
    "rra": [(["rra", "subject01_Setup_RRA.xml", "--results-directory", "rra_out",
              "--output-model", "adjusted.osim"], RRA_INPUTS)],
}


#: Commands without a base case (walked by no test here); the list may only shrink.
WITHOUT_A_CASE: set[str] = set()


def _subparsers():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def _path_options(subparser):
    """The options that take one free-form value (a file could be one): every option but
    flags, fixed choices and several-number options."""
    for a in subparser._actions:
        if not a.option_strings or isinstance(a, argparse._HelpAction) or a.nargs == 0:
            continue
        if a.choices is not None or isinstance(a.nargs, int) and a.nargs > 1:
            continue
        yield a


def test_every_command_has_a_base_case():
    assert sorted(set(_subparsers()) - WITHOUT_A_CASE) == sorted(CASES), \
        "a command without a base case in CASES (or a case of no command): add one"


def _aliases(lab, name, out):
    """Every name of lab/name: itself, another spelling, a symbolic and a hard link."""
    sym, hard = out / f"sym_{name}", out / f"hard_{name}"
    if not sym.exists():
        os.symlink(lab / name, sym)
        os.link(lab / name, hard)
    return {"same path": str(lab / name), "other spelling": str(out / ".." / name),
            "symbolic link": str(sym), "hard link": str(hard)}


def _still_inputs(lab, inputs, before, aliases):
    for name in inputs:
        st = os.stat(lab / name)
        assert (digest(lab / name), st.st_ino) == before[name], f"{name} was overwritten"
    for name, kinds in aliases.items():
        assert os.path.samefile(kinds["symbolic link"], lab / name), f"{name}'s link replaced"
        assert os.path.islink(kinds["symbolic link"])
        assert os.path.samefile(kinds["hard link"], lab / name), f"{name}'s hard link replaced"


def _with(argv, action, value):
    """argv with the option's value replaced (or the option added)."""
    argv = list(argv)
    for k, a in enumerate(argv[:-1]):
        if a in action.option_strings:
            argv[k + 1] = value
            return argv
    return argv + [action.option_strings[-1], value]


@pytest.mark.parametrize("command", sorted(CASES))
def test_no_option_of_any_command_overwrites_an_input(lab, capsys, command):
    out = lab / "aliases"
    out.mkdir()
    sub = _subparsers()[command]
    for argv, inputs in CASES[command]:
        before = {n: (digest(lab / n), os.stat(lab / n).st_ino) for n in inputs}
        existed = set(os.listdir(lab))
        status, err = run(argv, capsys)
        assert status == 0, f"base case {argv}: {err}"
        _still_inputs(lab, inputs, before, {})
        # the options whose value the base run wrote: outputs
        outputs = {a.dest for a in _path_options(sub)
                   for k, x in enumerate(argv[:-1]) if x in a.option_strings
                   and argv[k + 1] not in existed and os.path.exists(lab / argv[k + 1])}
        aliases = {n: _aliases(lab, n, out) for n in inputs}
        turn = 0
        for action in _path_options(sub):
            for name in inputs:
                # an output under every name of every input; another option under one name
                # of each (in turn), which is enough to see it write nothing
                kinds = list(aliases[name].items())
                if action.dest not in outputs:
                    turn += 1
                    kinds = [kinds[turn % len(kinds)]]
                for kind, alias in kinds:
                    status, err = run(_with(argv, action, alias), capsys)
                    _still_inputs(lab, inputs, before, aliases)
                    if action.dest in outputs:
                        assert status != 0, (f"{command} {action.option_strings[-1]} {alias} "
                                             f"({kind} of the input {name}) was not refused")
                        assert name in err or alias in err, err


# ---- the cases, by name ---------------------------------------------------------------

@pytest.mark.parametrize("output", ["walk.trc", "robot.urdf", "ik.xml", "coords.mot"])
def test_ik_output_that_is_an_input_is_refused_before_any_work(lab, capsys, output):
    before = digest(lab / output)
    status, err = run(["ik", "--setup", "ik.xml", "--model", "robot.urdf", "--markers",
                       "markers.csv", "-o", output], capsys)
    assert status == 2 and f"--output {output}: that is the " in err and "destroy" in err, err
    assert digest(lab / output) == before


@pytest.mark.parametrize("target", ["ik.xml", "coords.mot"])
def test_ik_setup_output_motion_file_that_is_an_input_is_refused(lab, capsys, target):
    """The setup's own output_motion_file naming the setup itself, or its coordinate_file."""
    setup = (lab / "ik.xml").read_text().replace("ik_out.mot", target)
    (lab / "ik.xml").write_text(setup)
    before = digest(lab / target)
    status, err = run(["ik", "--setup", "ik.xml", "--model", "robot.urdf", "--markers",
                       "markers.csv"], capsys)
    what = "setup" if target == "ik.xml" else "coordinate"
    assert status == 1 and (f"ik.xml: <output_motion_file> {lab / target}: that is the {what} "
                            "file") in err, err
    assert digest(lab / target) == before


@pytest.mark.parametrize("given", [[], ["-o", "static.trc"]], ids=["setup's own", "-o"])
def test_scale_exits_2_only_for_a_refusal_of_its_option(lab, capsys, given):
    """docs/cli.rst keeps exit status 2 for mistakes on the command line: `urdf2dyn scale`
    turned every refused output into one, also the setup's own <output_motion_file> naming
    its static trial, which the command line has no part in (urdf2dyn ik exits 1 for the
    same clash). -o onto that file is the command line's mistake: 2, naming -o."""
    setup = (lab / "setup_scale.xml").read_text()
    (lab / "setup_scale.xml").write_text(setup.replace(
        "<output_motion_file>static.mot</output_motion_file>",
        "<output_motion_file>static.trc</output_motion_file>"))
    before = digest(lab / "static.trc")
    status, err = run(["scale", "setup_scale.xml"] + given, capsys)
    if given:
        assert status == 2 and "-o static.trc: that is the static trial file" in err, err
    else:
        assert status == 1 and ("<MarkerPlacer> <output_motion_file> "
                                f"{lab / 'static.trc'}: that is the static trial") in err, err
    assert digest(lab / "static.trc") == before


def test_torques_output_onto_the_external_loads_data_is_refused(lab, capsys):
    before = digest(lab / "loads.mot")
    status, err = run(["torques", "robot.urdf", "motion.csv", "--external-loads", "loads.xml",
                       "-o", "loads.mot"], capsys)
    assert status == 2 and "--output loads.mot: that is the ExternalLoads data file" in err, err
    assert digest(lab / "loads.mot") == before


@pytest.mark.parametrize("target", ["loads.xml", "loads.mot"])
def test_id_setup_writing_onto_its_loads_is_refused(lab, capsys, target):
    (lab / "id.xml").write_text((lab / "id.xml").read_text().replace("id_out.sto", target))
    before = digest(lab / target)
    status, err = run(["torques", "--setup", "id.xml"], capsys)
    said = ("expected a file name ending in .csv or .sto or .mot" if target == "loads.xml"
            else "that is the ExternalLoads data file")
    assert status == 2 and f"--output {lab / target}: {said}" in err, err
    assert digest(lab / target) == before


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard link"])
def test_convert_through_a_link_to_its_input_is_refused(lab, capsys, link):
    link(lab / "model.osim", lab / "m.urdf")
    status, err = run(["convert", "model.osim", "-o", "m.urdf"], capsys)
    assert status == 2 and "that is the input file" in err, err
    assert (lab / "model.osim").read_text() == every_joint_model()
    assert os.path.samefile(lab / "m.urdf", lab / "model.osim")


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard link"])
def test_the_library_writers_never_write_over_an_input(lab, link):
    """Within a guarded job (the command line, ik.run_setup, formats.convert), write_trc,
    osim_to_urdf and the animation's writer refuse a link to a file the job read."""
    from urdf2dyn._safe_files import guarding
    from urdf2dyn.biomech.formats import read_trc, write_trc
    from urdf2dyn.convert import osim_to_urdf
    link(lab / "walk.trc", lab / "copy.trc")
    link(lab / "model.osim", lab / "copy.urdf")
    with guarding():
        markers = read_trc(lab / "walk.trc")
        model = urdf2dyn.load(lab / "model.osim")
        with pytest.raises(ValueError, match="copy.trc: that is the marker file"):
            write_trc(lab / "copy.trc", markers)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(ValueError, match="copy.urdf: that is the model file"):
                osim_to_urdf(model, lab / "copy.urdf")
        # refused before its notes on what URDF cannot express, which would name a file
        # that is not written
        assert not [str(w.message) for w in caught], [str(w.message) for w in caught]
    assert os.path.samefile(lab / "copy.trc", lab / "walk.trc")
    write_trc(lab / "copy.trc", markers)           # outside a guarded job: an ordinary write
    assert not os.path.samefile(lab / "copy.trc", lab / "walk.trc")


def test_animate_does_not_follow_a_link_to_its_trial(lab, capsys):
    """matplotlib's writers open the path they are given, following a link."""
    pytest.importorskip("matplotlib")
    os.symlink(lab / "motion.csv", lab / "a.gif")
    before = digest(lab / "motion.csv")
    status, err = run(["animate", "robot.urdf", "motion.csv", "-o", "a.gif"], capsys)
    assert status == 2 and "that is the trial file" in err, err
    assert digest(lab / "motion.csv") == before
    from urdf2dyn._safe_files import guarding
    from urdf2dyn.biomech.animate import animate
    model = urdf2dyn.load(lab / "robot.urdf")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with guarding([("trial", str(lab / "motion.csv"))]):
            with pytest.raises(ValueError, match="that is the trial file"):
                animate(model, [0.0, 0.1], np.zeros((2, 2)), path=str(lab / "a.gif"))
        gc.collect()        # an unsaved animation, once collected, has matplotlib warn
    assert digest(lab / "motion.csv") == before
    # refused before any animation was made: no word but the refusal
    assert not [str(w.message) for w in caught], [str(w.message) for w in caught]


# ---- every writer goes through replacing --------------------------------------------------------

_WRITE_CALLS = {"savefig", "save", "savetxt", "to_csv", "write_text", "write_bytes", "dump"}


def _unsafe_writes(tree):
    """Calls in tree that write a file other than through `with replacing(...) as tmp`: open()
    in a writing mode, and the savers above, whose first argument is not that tmp."""
    safe = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.With):
            for item in node.items:
                call = item.context_expr
                if (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "replacing"
                        and isinstance(item.optional_vars, ast.Name)):
                    safe.add(item.optional_vars.id)
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        target = node.args[0]
        through_tmp = isinstance(target, ast.Name) and target.id in safe
        if name == "open":
            mode = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "mode"), None)
            writing = isinstance(mode, ast.Constant) and any(c in str(mode.value) for c in "wax+")
            devnull = isinstance(target, ast.Attribute) and target.attr == "devnull"
            if writing and not through_tmp and not devnull:
                bad.append(node.lineno)
        elif name in _WRITE_CALLS and isinstance(node.func, ast.Attribute) and not through_tmp:
            if name == "save" and not node.args:
                continue
            bad.append(node.lineno)
    return sorted(bad)


def test_every_writer_goes_through_replacing():
    offenders = {}
    for path in PACKAGE.rglob("*.py"):
        bad = _unsafe_writes(ast.parse(path.read_text(), str(path)))
        if bad:
            offenders[str(path.relative_to(PACKAGE))] = bad
    assert not offenders, f"writes that bypass _safe_files.replacing (file: lines): {offenders}"


def test_the_writer_check_finds_a_direct_write():
    """The check above can fail: a direct open(path, 'w') and a savefig(path) are found."""
    tree = ast.parse("with open(path, 'w') as f: pass\nfig.savefig(out)\n"
                     "with replacing(p) as tmp, open(tmp, 'w') as f: fig.savefig(tmp)\n")
    assert _unsafe_writes(tree) == [1, 2]


# ---- outputs the work could not write, found before any work ----------------------------------

def _file_outputs(argv, lab):
    """(index in argv, value) of the base case's file outputs: the values of options that name
    no file of the lab yet and have a suffix (so not codegen's or rra's directories, which
    those commands create)."""
    return [(k + 1, v) for k, (a, v) in enumerate(zip(argv, argv[1:]))
            if a.startswith("-") and os.path.splitext(v)[1][1:].isalpha()
            and not os.path.exists(lab / v)]


#: commands whose base case writes no file (codegen: a directory, which it creates)
NO_FILE_OUTPUT = {"check", "equations", "codegen"}


@pytest.mark.parametrize("where", ["missing", "a file"])
@pytest.mark.parametrize("command", sorted(set(CASES) - NO_FILE_OUTPUT))
def test_an_output_in_a_directory_that_cannot_take_it_is_refused_before_any_work(
        lab, capsys, command, where):
    """Every output of every base case, put in a directory that does not exist (or under a
    file): exit status 2 naming the option's value and the directory, and nothing written
    (not even the outputs before it)."""
    folder = "nowhere" if where == "missing" else "robot.urdf"
    for argv, _ in CASES[command]:
        assert _file_outputs(argv, lab), f"{argv}: no output walked"
        for k, value in _file_outputs(argv, lab):
            line = list(argv)
            line[k] = os.path.join(folder, value)
            existed = set(os.listdir(lab))
            status, err = run(line, capsys)
            what = ("the directory nowhere does not exist; create it first"
                    if where == "missing" else "robot.urdf is a file, not a directory")
            assert status == 2 and f"{line[k]}: {what}" in err, (line, err)
            assert set(os.listdir(lab)) == existed, f"{line}: wrote something"


@pytest.mark.parametrize("argv,flag,folder", [
    (["codegen", "robot.urdf", "--lang", "c", "-o", "robot.urdf/gen"], "--output",
     "robot.urdf/gen"),
    (["codegen", "robot.urdf", "--lang", "c", "-o", "robot.urdf/a/gen"], "--output",
     "robot.urdf/a/gen"),
    (["rra", "subject01_Setup_RRA.xml", "--results-directory", "robot.urdf/out",
      "--output-model", "adjusted.osim"], "--results-directory", "robot.urdf/out"),
])
def test_a_directory_output_under_a_file_is_refused_before_any_work(lab, capsys, argv, flag,
                                                                    folder):
    """codegen's -o and rra's --results-directory name directories the command creates: one
    under a file (found by the fuzz of every option: an OSError 'Not a directory' that named
    neither the option nor what to do) is refused before any work, naming the option and
    the file, and nothing is written."""
    existed = set(os.listdir(lab))
    status, err = run(argv, capsys)
    assert status == 2, err
    assert f"{flag} {folder}: robot.urdf is a file, not a directory: choose another " \
           "name" in err, err
    assert set(os.listdir(lab)) == existed


@pytest.mark.parametrize("argv,first,second", [
    (["torques", "robot.urdf", "motion.csv", "-o", "t.csv", "--residuals", "t.csv"],
     "--output t.csv", "--residuals t.csv"),
    (["torques", "robot.urdf", "motion.csv", "-o", "t.csv", "--residuals", "../lab/t.csv"],
     "--output t.csv", "--residuals ../lab/t.csv"),
    (["torques", "robot.urdf", "motion.csv", "-o", "t.csv", "--cycles", "plates",
      "--residuals", "t_cycles.csv"], "--output (its --cycles table) t_cycles.csv",
     "--residuals t_cycles.csv"),
    (["torques", "robot.urdf", "a/motion.csv", "b/motion.csv", "-o", "out"],
     "motions a/motion.csv and b/motion.csv have the same name", "rename one"),
    (["convert", "model.osim", "-o", "m.urdf", "-o", "m.urdf"], "--output m.urdf",
     "named twice"),
    (["scale", "setup_scale.xml", "-o", "model_scale_set_applied.xml"],
     "-o model_scale_set_applied.xml", "<output_scale_file>"),
])
def test_two_outputs_naming_one_file_are_refused_before_any_work(lab, capsys, argv, first,
                                                                 second):
    """The second would replace the first: exit status 2 naming both, nothing written."""
    for d in ("a", "b"):
        os.mkdir(lab / d)
        shutil.copy(lab / "motion.csv", lab / d / "motion.csv")
    existed = set(os.listdir(lab))
    status, err = run(argv, capsys)
    assert status == 2 and first in err and second in err, err
    assert set(os.listdir(lab)) == existed


def test_two_outputs_through_a_link_are_refused(lab, capsys):
    (lab / "t.csv").write_text("old\n")
    os.symlink(lab / "t.csv", lab / "r.csv")
    status, err = run(["torques", "robot.urdf", "motion.csv", "-o", "t.csv", "--residuals",
                       "r.csv"], capsys)
    assert status == 2 and "--output t.csv and --residuals r.csv name the same file" in err
    assert (lab / "t.csv").read_text() == "old\n" and os.path.islink(lab / "r.csv")


def test_an_output_directory_of_several_motions_is_made_in_one_that_exists(lab, capsys):
    """With several motions -o names a directory, created when missing, in a directory that
    must exist."""
    argv = ["torques", "robot.urdf", "motion.csv", "coords.mot"]
    status, err = run(argv + ["-o", "nowhere/out"], capsys)
    assert status == 2 and "--output nowhere/out: the directory nowhere does not exist" in err
    assert not (lab / "nowhere").exists()
    status, err = run(argv + ["-o", "out", "--no-progress"], capsys)
    assert status == 0, err
    assert sorted(os.listdir(lab / "out")) == ["coords_torques.csv", "motion_torques.csv"]


# ---- every output option of the trial commands, from their parsers ----------------------------

_TORQUES_SCALING = (["torques", "scale_generic.osim", "static.trc", "--scale", "setup_scale.xml",
                     "--scaled-model", "scaled.osim", "-o", "t.sto"],
                    ["scale_generic.osim", "static.trc", "setup_scale.xml", "scale_markers.xml"])

#: command -> {dest of each output option: (argv naming it, the lab files the run reads)}.
#: With NOT_OUTPUTS, every option of these commands that takes a value:
#: test_every_option_is_an_output_or_not fails on a new one until it is placed.
OUTPUT_OPTIONS = {
    "ik": {"output": CASES["ik"][0]},
    "convert": {"output": CASES["convert"][0]},
    "animate": {"output": CASES["animate"][0]},
    "scale": {"output": CASES["scale"][0]},
    "rra": {"output_model": CASES["rra"][0], "results_directory": CASES["rra"][0]},
    "torques": {"output": CASES["torques"][0], "residuals": CASES["torques"][0],
                "plot": CASES["torques"][0], "scaled_model": _TORQUES_SCALING},
}
NOT_OUTPUTS = {
    "ik": {"setup", "model", "markers", "marker_file", "threads"},
    "convert": {"rotate", "threshold"},
    "animate": {"rotate", "ik_setup", "filter", "every", "mapping"},
    "scale": {"model", "marker_set", "static", "rotate"},
    "rra": {"model", "knot_interval"},
    "torques": {"grf", "contact", "filter", "mass", "speed", "mapping", "external_loads",
                "ik_setup", "rotate", "scale", "static", "max_gap", "com_body", "jobs",
                "scheduler", "setup"},
}


@pytest.mark.parametrize("command", sorted(OUTPUT_OPTIONS))
def test_every_option_is_an_output_or_not(command):
    """Each option of the command that takes a value is known as an output (walked below)
    or as not one: an option added to the parser fails here until it is placed."""
    dests = {a.dest for a in _path_options(_subparsers()[command])}
    placed = set(OUTPUT_OPTIONS[command]) | NOT_OUTPUTS[command]
    assert dests == placed, (f"{command}: options not placed: {sorted(dests - placed)}; "
                             f"placed but gone: {sorted(placed - dests)}")


def _output_options():
    return [(command, a) for command in sorted(OUTPUT_OPTIONS)
            for a in _path_options(_subparsers()[command])
            if a.dest in OUTPUT_OPTIONS[command]]


@pytest.mark.parametrize("command,action", _output_options(),
                         ids=[f"{c} {a.option_strings[-1]}" for c, a in _output_options()])
def test_each_output_option_naming_an_input_is_refused_naming_both(lab, capsys, command,
                                                                   action):
    """Every output option of ik, convert, animate, scale, rra and torques, given each file
    the run reads: refused (exit status 2, before any work: nothing written), in a message
    naming the option as the user gave it and the file; the input unchanged."""
    argv, inputs = OUTPUT_OPTIONS[command][action.dest]
    before = {n: digest(lab / n) for n in inputs}
    existed = set(os.listdir(lab))
    for name in inputs:
        status, err = run(_with(argv, action, name), capsys)
        said = [line for line in err.splitlines() if " error: " in line]
        assert status == 2 and len(said) == 1, (action.option_strings, name, err)
        assert any(flag in said[0] for flag in action.option_strings), said[0]
        assert name in said[0], said[0]
        assert {n: digest(lab / n) for n in inputs} == before, f"{name} was overwritten"
        assert set(os.listdir(lab)) == existed, f"{command} {name}: wrote something"


def test_rra_results_named_as_its_inputs_are_refused_before_any_work(lab, capsys):
    """A second RRA pass whose desired kinematics are the first pass's <name>_Kinematics_q.sto
    in the same results directory: that result would be written over its own input. Refused
    before the reduction, naming --results-directory, the file and what it is."""
    (lab / "rra_out").mkdir()
    previous = lab / "rra_out" / "subject01_walk1_RRA_Kinematics_q.sto"
    shutil.copy(lab / "subject01_walk1_ik.mot", previous)
    setup = (lab / "subject01_Setup_RRA.xml").read_text()
    (lab / "subject01_Setup_RRA.xml").write_text(setup.replace(
        "subject01_walk1_ik.mot", "rra_out/subject01_walk1_RRA_Kinematics_q.sto"))
    before = digest(previous)
    status, err = run(["rra", "subject01_Setup_RRA.xml", "--results-directory", "rra_out",
                       "--output-model", "adjusted.osim"], capsys)
    assert status == 2, err
    assert ("--results-directory (its Kinematics_q.sto) "
            "rra_out/subject01_walk1_RRA_Kinematics_q.sto: that is the desired kinematics "
            "file") in err, err
    assert digest(previous) == before
    assert os.listdir(lab / "rra_out") == ["subject01_walk1_RRA_Kinematics_q.sto"]


@pytest.mark.parametrize("argv,flag", [
    (["scale", "setup_scale.xml", "-o", "coords.mot"], "-o"),
    (["torques", "scale_generic.osim", "static.trc", "--scale", "setup_scale.xml", "-o",
      "coords.mot"], "--output"),
], ids=["scale -o", "torques --scale -o"])
def test_an_output_over_the_scale_setups_coordinate_file_is_refused(lab, capsys, argv, flag):
    """The MarkerPlacer's <coordinate_file> is an input of the scaling whether or not its
    tasks read it (as an IK setup's is): `scale -o` wrote the scaled model over it."""
    setup = (lab / "setup_scale.xml").read_text()
    (lab / "setup_scale.xml").write_text(setup.replace(
        "<coordinate_file></coordinate_file>", "<coordinate_file>coords.mot</coordinate_file>"))
    before = digest(lab / "coords.mot")
    existed = set(os.listdir(lab))
    status, err = run(argv, capsys)
    assert status == 2, err
    assert f"{flag} coords.mot: that is the coordinate file" in err, err
    assert digest(lab / "coords.mot") == before and set(os.listdir(lab)) == existed


def test_the_scale_runs_output_over_its_coordinate_file_is_refused_in_the_library(lab):
    """biomech.scale.run_setup (guarded like every job) refuses it too, naming the file."""
    from urdf2dyn.biomech.scale import run_setup
    setup = (lab / "setup_scale.xml").read_text()
    (lab / "setup_scale.xml").write_text(setup.replace(
        "<coordinate_file></coordinate_file>", "<coordinate_file>coords.mot</coordinate_file>"))
    before = digest(lab / "coords.mot")
    with pytest.raises(ValueError, match="output coords.mot: that is the coordinate file"):
        run_setup("setup_scale.xml", output="coords.mot")
    assert digest(lab / "coords.mot") == before


def make_leg39_lab(d):
    """Leg39's published swing trial, model and IK setup in folder d, the setup's
    <coordinate_file> naming coords.mot (beside them)."""
    import gzip
    leg39 = pathlib.Path(__file__).parent / "data" / "ik" / "leg39"
    (d / "leg39.osim").write_bytes(gzip.decompress((leg39 / "leg39.osim.gz").read_bytes()))
    shutil.copy(leg39 / "leg39_swing_short.trc", d)
    setup = (leg39 / "leg39_swing_short_IK_Setup.xml").read_text()
    assert "<coordinate_file />" in setup
    (d / "ik.xml").write_text(setup.replace("<coordinate_file />",
                                            "<coordinate_file>coords.mot</coordinate_file>"))
    _sto(d / "coords.mot", ["time", "knee_angle_r"], [[0.0, 0.0], [1.0, 0.0]])


def test_torques_output_over_its_ik_setups_coordinate_file_is_refused(tmp_path, capsys,
                                                                       monkeypatch):
    """What an --ik-setup names is an input whether or not its tasks read it (as for
    `urdf2dyn ik`): `torques MODEL TRIAL.trc --ik-setup SETUP -o` wrote the torques over the
    setup's <coordinate_file>. Leg39's published swing trial and IK setup."""
    make_leg39_lab(tmp_path)
    monkeypatch.chdir(tmp_path)
    before, existed = digest("coords.mot"), set(os.listdir(tmp_path))
    status, err = run(["torques", "leg39.osim", "leg39_swing_short.trc", "--ik-setup", "ik.xml",
                       "-o", "coords.mot"], capsys)
    assert status == 2 and "--output coords.mot: that is the IK setup's coordinate file" in err, \
        err
    assert digest("coords.mot") == before and set(os.listdir(tmp_path)) == existed


# ---- the library's trial owns the check (the command line only parses and prints) ------------

@pytest.mark.parametrize("target,what", [
    ("scale_markers.xml", "marker set"), ("coords.mot", "coordinate"),
    ("static.trc", "static trial"), ("setup_scale.xml", "scale setup"),
    ("scale_generic.osim", "model")],
    ids=["marker set", "coordinate file", "static trial", "setup", "model"])
def test_the_trials_scaled_model_over_a_file_the_scaling_reads_is_refused(lab, target, what):
    """inverse_dynamics_trial(..., scale=Scaling(output=...)) called directly wrote the scaled
    model over the scale setup's marker set (or its coordinate file, its static trial, the
    setup itself): only the command line checked. Refused before any work, naming the
    argument and the file."""
    from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
    from urdf2dyn.biomech.stages import Scaling
    setup = (lab / "setup_scale.xml").read_text()
    (lab / "setup_scale.xml").write_text(setup.replace(
        "<coordinate_file></coordinate_file>", "<coordinate_file>coords.mot</coordinate_file>"))
    shutil.copy(lab / "static.trc", lab / "walk.trc")      # the trial, apart from the static
    before, existed = digest(lab / target), set(os.listdir(lab))
    with pytest.raises(ValueError, match=f"settings.scale.output {target}: that is the {what} "
                                         "file"):
        inverse_dynamics_trial("scale_generic.osim", "walk.trc",
                               scale=Scaling("setup_scale.xml", output=target))
    assert digest(lab / target) == before and set(os.listdir(lab)) == existed


def test_the_trials_scaled_model_over_its_motion_is_refused(lab):
    """The scale pass runs before the motion is read: a scaled model written over the motion
    (or its ground reactions) would be read as the motion. Refused before any work."""
    from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
    from urdf2dyn.biomech.stages import Scaling
    shutil.copy(lab / "static.trc", lab / "walk.trc")
    before = digest(lab / "walk.trc")
    with pytest.raises(ValueError, match="settings.scale.output walk.trc: that is the motion "
                                         "file"):
        inverse_dynamics_trial("scale_generic.osim", "walk.trc",
                               scale=Scaling("setup_scale.xml", static="static.trc",
                                             output="walk.trc"))
    assert digest(lab / "walk.trc") == before


def test_a_batchs_scaled_model_over_another_trials_motion_is_refused(lab):
    """run_trials: the first trial writes the scaled model, which another trial of the batch
    reads as its motion; each trial guards its own files only, so the batch checks them all
    before any trial runs."""
    from urdf2dyn.biomech.pipeline import run_trials
    from urdf2dyn.biomech.stages import Scaling, TrialSettings
    for name in ("walk1.trc", "walk2.trc"):
        shutil.copy(lab / "static.trc", lab / name)
    before = digest(lab / "walk2.trc")
    settings = TrialSettings(scale=Scaling("setup_scale.xml", output="walk2.trc"))
    with pytest.raises(ValueError, match="settings.scale.output walk2.trc: that is the motion "
                                         "file"):
        run_trials("scale_generic.osim", [("walk1.trc", None), ("walk2.trc", None)],
                   settings=settings, max_workers=1)
    assert digest(lab / "walk2.trc") == before


def test_the_trials_scaled_model_over_its_ik_setups_files_is_refused(lab):
    """What an ik_setup names is an input of the trial whether or not the trial reads it (as
    for `urdf2dyn ik`): the scaled model may not be written over its <coordinate_file>, its
    <model_file> or its <marker_file> (the last two were not counted), nor over the setup."""
    from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
    from urdf2dyn.biomech.stages import Scaling
    setup = (pathlib.Path(__file__).parent / "data" / "ik" / "leg39" /
             "leg39_swing_short_IK_Setup.xml").read_text()
    for old, new in (("<coordinate_file />", "<coordinate_file>coords.mot</coordinate_file>"),
                     ("leg39.osim", "model.osim"), ("leg39_swing_short.trc", "ik_walk.trc")):
        assert old in setup
        setup = setup.replace(old, new)
    (lab / "ik.xml").write_text(setup)
    shutil.copy(lab / "static.trc", lab / "walk.trc")
    shutil.copy(lab / "static.trc", lab / "ik_walk.trc")
    for target, what in (("coords.mot", "IK setup's coordinate"), ("ik.xml", "IK setup"),
                         ("model.osim", "IK setup's model"), ("ik_walk.trc", "IK setup's marker")):
        before = digest(lab / target)
        with pytest.raises(ValueError, match=f"settings.scale.output {target}: that is the "
                                             f"{what} file"):
            inverse_dynamics_trial("scale_generic.osim", "walk.trc", ik_setup="ik.xml",
                                   scale=Scaling("setup_scale.xml", output=target))
        assert digest(lab / target) == before


def test_the_scale_runs_output_over_its_setups_own_model_is_refused_in_the_library(lab):
    """biomech.scale.run_setup given a model object: the setup's <model_file> stays an input."""
    from urdf2dyn.biomech.scale import load_generic, run_setup
    shutil.copy(lab / "scale_generic.osim", lab / "generic_copy.osim")
    model = load_generic(lab / "generic_copy.osim")
    before = digest(lab / "scale_generic.osim")
    with pytest.raises(ValueError, match="output scale_generic.osim: that is the scale "
                                         "setup's model file"):
        run_setup("setup_scale.xml", output="scale_generic.osim", model=model)
    assert digest(lab / "scale_generic.osim") == before


def test_the_scale_setups_own_model_is_an_input_when_the_trial_scales_another(lab):
    """The trial scales the model it is given (here a model object, loaded from a copy), not
    the scale setup's <model_file>: that file was no input, and settings.scale.output naming
    it wrote the scaled model over the user's generic model. Refused before any work."""
    from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
    from urdf2dyn.biomech.stages import Scaling
    shutil.copy(lab / "scale_generic.osim", lab / "generic_copy.osim")
    shutil.copy(lab / "static.trc", lab / "walk.trc")
    model = urdf2dyn.load(lab / "generic_copy.osim")
    before, existed = digest(lab / "scale_generic.osim"), set(os.listdir(lab))
    with pytest.raises(ValueError, match="settings.scale.output scale_generic.osim: that is "
                                         "the scale setup's model file"):
        inverse_dynamics_trial(model, "walk.trc",
                               scale=Scaling("setup_scale.xml", output="scale_generic.osim"))
    assert digest(lab / "scale_generic.osim") == before and set(os.listdir(lab)) == existed


@pytest.mark.parametrize("argv,flag", [
    (["torques", "generic_copy.osim", "static.trc", "--scale", "setup_scale.xml",
      "--scaled-model", "scale_generic.osim"], "--scaled-model"),
    (["scale", "setup_scale.xml", "--model", "generic_copy.osim", "-o", "scale_generic.osim"],
     "-o")], ids=["torques --scaled-model", "scale -o"])
def test_an_output_over_the_scale_setups_own_model_is_refused(lab, capsys, argv, flag):
    """`torques COPY.osim STATIC --scale SETUP --scaled-model GENERIC.osim` (or `scale SETUP
    --model COPY.osim -o GENERIC.osim`), GENERIC.osim the setup's <model_file>: the scaled
    model was written over it. Refused before any work, naming the option."""
    shutil.copy(lab / "scale_generic.osim", lab / "generic_copy.osim")
    before, existed = digest(lab / "scale_generic.osim"), set(os.listdir(lab))
    status, err = run(argv, capsys)
    assert status == 2, err
    assert f"{flag} scale_generic.osim: that is the scale setup's model file" in err, err
    assert digest(lab / "scale_generic.osim") == before and set(os.listdir(lab)) == existed


@pytest.mark.parametrize("argv,kind", [
    (["torques", "scale_generic.osim", "static.trc", "--scale", "setup_scale.xml", "-o",
      "t.sto"], "scale"),
    (["torques", "leg39.osim", "leg39_swing_short.trc", "--ik-setup", "ik.xml", "-o",
      "t.csv"], "ik"),
    (["animate", "leg39.osim", "leg39_swing_short.trc", "--ik-setup", "ik.xml", "-o",
      "a.gif", "--every", "10"], "ik"),
], ids=["torques --scale", "torques --ik-setup", "animate --ik-setup"])
def test_a_trials_setup_is_read_once_by_the_command_line(lab, capsys, monkeypatch, argv, kind):
    """The command line needs a --scale or --ik-setup setup's file names before any work (no
    output over one) and the trial needs the setup: it was read twice, once quietly for the
    names. The settings read it once and keep what it names; the run still succeeds."""
    import urdf2dyn.biomech.stages.settings as settings_module
    from urdf2dyn.biomech.formats import ik_setup, scale_setup
    if kind == "ik":
        pytest.importorskip("matplotlib")
        make_leg39_lab(lab)
    reads = []

    def counting(read):
        def spy(path, *args, **kwargs):
            reads.append(os.fspath(path))
            return read(path, *args, **kwargs)
        return spy
    if kind == "scale":
        monkeypatch.setattr(scale_setup, "read_scale_setup",
                            counting(scale_setup.read_scale_setup))
    else:
        spy = counting(ik_setup.read_ik_setup)
        monkeypatch.setattr(ik_setup, "read_ik_setup", spy)
        monkeypatch.setattr(settings_module, "read_ik_setup", spy)
    status, err = run(argv, capsys)
    assert status == 0, err
    assert reads == [argv[argv.index(f"--{kind}" if kind == "scale" else "--ik-setup") + 1]]


@pytest.mark.parametrize("argv,flag,target", [
    (["torques", "robot.urdf", "motion.csv", "-o", "motion.csv"], "--output", "motion.csv"),
    (["torques", "scale_generic.osim", "static.trc", "--scale", "setup_scale.xml",
      "--scaled-model", "scale_markers.xml"], "--scaled-model", "scale_markers.xml"),
], ids=["-o at write time", "--scaled-model in the scale pass"])
def test_a_refusal_found_after_the_command_lines_check_names_the_option(
        lab, capsys, monkeypatch, argv, flag, target):
    """Should the command line's list of inputs miss one (here the library's list is emptied),
    the guard still refuses the output when the work writes it, or when the scale pass checks
    it: that refusal named the file only ("motion.csv: that is the ...") or the library's
    argument (settings.scale.output), not the option the user gave. It names the option, and
    exits 2 as the command line's own check does (a mistake on the command line, as urdf2dyn
    scale says of -o; it exited 1)."""
    import urdf2dyn.biomech.pipeline as pipeline
    monkeypatch.setattr(pipeline, "batch_inputs", lambda jobs, settings: [])
    before = digest(lab / target)
    status, err = run(argv, capsys)
    assert status == 2, err
    assert f"urdf2dyn torques: error: {flag} {target}: that is the " in err, err
    assert digest(lab / target) == before


@pytest.mark.parametrize("given,target", [
    (["--model", "other.urdf"], "robot.urdf"), (["--marker-file", "walk2.trc"], "walk.trc")],
    ids=["--model given", "--marker-file given"])
def test_ik_output_over_a_file_its_setup_names_but_the_run_does_not_read_is_refused(
        lab, capsys, given, target):
    """`ik --setup ik.xml --model OTHER -o MODEL`, MODEL the setup's <model_file> (or
    --marker-file and its <marker_file>): the run reads the file given instead, and the
    setup's own was not counted (the command line's list) or not noted (the library's, for
    the marker file): the motion was written over it. Both are inputs whether or not read,
    the library's list (biomech.ik.setup_inputs) says so, and -o naming one is refused before
    any work, by the command line (naming -o) and by the library alone (naming output)."""
    from urdf2dyn.biomech.ik import run_setup
    shutil.copy(lab / "robot.urdf", lab / "other.urdf")
    shutil.copy(lab / "walk.trc", lab / "walk2.trc")
    argv = ["ik", "--setup", "ik.xml", "--model", "robot.urdf", "--markers", "markers.csv"]
    argv = _with(argv, argparse.Namespace(option_strings=[given[0]]), given[1])
    before, existed = digest(lab / target), set(os.listdir(lab))
    status, err = run(argv + ["-o", target], capsys)
    assert status == 2 and f"--output {target}: that is the " in err, err
    assert digest(lab / target) == before and set(os.listdir(lab)) == existed
    if given[0] == "--marker-file":
        with pytest.raises(ValueError, match=f"output {target}: that is the marker file"):
            run_setup("ik.xml", output=target, marker_file="walk2.trc")
        assert digest(lab / target) == before and set(os.listdir(lab)) == existed


# ---- the files a job reads, as the library lists them ---------------------------------------

@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard link"])
@pytest.mark.parametrize("flag,name", [("--output", "t.sto"), ("--residuals", "r.csv")])
def test_an_output_over_the_id_setups_own_model_is_refused_when_another_is_given(
        lab, capsys, link, flag, name):
    """`torques --setup ID.xml OTHER.urdf -o OUT`, OUT another name of the setup's own
    <model_file>: that file was no input when a model was given (it is not read), and the
    torques replaced it. It is an input whether or not read (as an IK or scale setup's
    model): refused before any work, naming the option."""
    shutil.copy(lab / "robot.urdf", lab / "other.urdf")
    link(lab / "robot.urdf", lab / name)
    before, existed = digest(lab / "robot.urdf"), set(os.listdir(lab))
    status, err = run(["torques", "--setup", "id.xml", "other.urdf", flag, name], capsys)
    assert status == 2, err
    assert f"{flag} {name}: that is the ID setup's model file" in err, err
    assert os.path.samefile(lab / name, lab / "robot.urdf"), f"{name} was replaced"
    assert digest(lab / "robot.urdf") == before and set(os.listdir(lab)) == existed


@pytest.mark.parametrize("argv", [
    ["torques", "robot.urdf", "motion.csv", "--external-loads", "loads.xml", "-o", "t.csv"],
    ["torques", "--setup", "id.xml", "-o", "t.sto"]], ids=["--external-loads", "--setup"])
def test_an_external_loads_file_is_read_once_by_the_command_line(lab, capsys, monkeypatch,
                                                                  argv):
    """The command line needs the ExternalLoads data file's name before any work (no output
    over it) and the trial needs the loads: the XML (and its data) were read twice, once by
    the command line for the name. The settings read it once and keep it; the run succeeds."""
    import importlib
    from urdf2dyn.biomech.formats import opensim
    loads_stage = importlib.import_module("urdf2dyn.biomech.stages.loads")  # not the pass
    reads = []
    read = opensim.read_external_loads

    def spy(path, *args, **kwargs):
        reads.append(os.path.basename(path))
        return read(path, *args, **kwargs)
    monkeypatch.setattr(opensim, "read_external_loads", spy)
    monkeypatch.setattr(loads_stage, "read_external_loads", spy)
    status, err = run(argv, capsys)
    assert status == 0, err
    assert reads == ["loads.xml"]


@pytest.mark.parametrize("given,target,what", [
    (["--marker-set", "markers_copy.xml"], "scale_markers.xml", "marker set"),
    (["--static", "static_copy.trc"], "static.trc", "static trial")],
    ids=["--marker-set given", "--static given"])
def test_scale_output_over_a_file_its_setup_names_but_the_run_does_not_read_is_refused(
        lab, capsys, given, target, what):
    """`scale SETUP --marker-set COPY -o MARKERS`, MARKERS the setup's <marker_set_file> (or
    --static and its <marker_file>): the run reads the file given instead, the setup's own
    was counted neither by the command line nor by biomech.scale, and the scaled model was
    written over it. Every file the setup names is an input whether or not read (the
    library's one list, biomech.scale.setup_inputs): refused before any work, by the command
    line (naming -o) and by the library alone (naming output)."""
    from urdf2dyn.biomech.formats import read_markers
    from urdf2dyn.biomech.scale import run_setup
    shutil.copy(lab / target, lab / given[1])
    before, existed = digest(lab / target), set(os.listdir(lab))
    status, err = run(["scale", "setup_scale.xml"] + given + ["-o", target], capsys)
    assert status == 2 and f"-o {target}: that is the {what} file" in err, err
    assert digest(lab / target) == before and set(os.listdir(lab)) == existed
    instead = ({"marker_set": given[1]} if given[0] == "--marker-set"
               else {"static": read_markers(given[1])})
    with pytest.raises(ValueError, match=f"output {target}: that is the {what} file"):
        run_setup("setup_scale.xml", output=target, **instead)
    assert digest(lab / target) == before and set(os.listdir(lab)) == existed


def test_the_trials_scaled_model_over_its_scale_setups_own_static_trial_is_refused(lab):
    """A trial's Scaling with a static trial of its own: the setup's <marker_file> is still
    an input (as urdf2dyn scale now counts it), and the scaled model may not replace it."""
    from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
    from urdf2dyn.biomech.stages import Scaling
    shutil.copy(lab / "static.trc", lab / "walk.trc")
    shutil.copy(lab / "static.trc", lab / "static_copy.trc")
    before, existed = digest(lab / "static.trc"), set(os.listdir(lab))
    with pytest.raises(ValueError, match="settings.scale.output static.trc: that is the "
                                         "static trial file"):
        inverse_dynamics_trial("scale_generic.osim", "walk.trc",
                               scale=Scaling("setup_scale.xml", static="static_copy.trc",
                                             output="static.trc"))
    assert digest(lab / "static.trc") == before and set(os.listdir(lab)) == existed


#: A two-link MJCF arm in a file of its own, included by the scene the commands load: its
#: joints are the lab's motion's (joint1, joint2).
MJCF_ARM = """<mujoco><worldbody>
  <body name="link1"><joint name="joint1" type="hinge" axis="0 0 1"/>
    <geom type="sphere" size="0.05" mass="3" pos="0.5 0 0"/>
    <body name="link2" pos="1 0 0"><joint name="joint2" type="hinge" axis="0 0 1"/>
      <geom type="sphere" size="0.05" mass="5" pos="0.5 0 0"/></body></body>
</worldbody></mujoco>
"""


def make_mjcf_lab(d):
    (d / "arm.xml").write_text(MJCF_ARM)
    (d / "scene.xml").write_text('<mujoco model="scene"><include file="arm.xml"/></mujoco>\n')


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard link"])
def test_an_output_over_an_mjcf_include_is_refused(lab, capsys, link):
    """The C core reads an MJCF's <include> files (and meshes) through the model's file
    reader: they were never noted as inputs, and `torques scene.xml MOTION -o OUT`, OUT
    another name of the included arm.xml, replaced it. Noted as the model reads them: the
    output is refused once the model is loaded, before the trial (whose warning about the
    arm's horizontal plane is then never said), naming the option and the file: a mistake
    on the command line, exit status 2 (it exited 1, unlike urdf2dyn scale's -o)."""
    make_mjcf_lab(lab)
    link(lab / "arm.xml", lab / "t.csv")
    before, existed = digest(lab / "arm.xml"), set(os.listdir(lab))
    status, err = run(["torques", "scene.xml", "motion.csv", "-o", "t.csv"], capsys)
    assert status == 2, err
    assert "--output t.csv: that is the model's <include> file" in err, err
    assert "no joint carries any weight" not in err, err
    assert os.path.samefile(lab / "t.csv", lab / "arm.xml"), "t.csv was replaced"
    assert digest(lab / "arm.xml") == before and set(os.listdir(lab)) == existed


def test_the_library_refuses_writing_over_an_mjcf_include(lab):
    """In the library too: within a guarded job, a model's included file is an input. The
    scene is the arm, as MuJoCo reads it (the oracle: the include is read, not skipped)."""
    from urdf2dyn._safe_files import guarding, replacing
    make_mjcf_lab(lab)
    with guarding():
        model = urdf2dyn.load("scene.xml")
        mujoco = pytest.importorskip("mujoco")
        m = mujoco.MjModel.from_xml_path("scene.xml")
        assert model.q_names == tuple(m.joint(k).name for k in range(m.njnt))
        assert model.total_mass == pytest.approx(float(m.body_mass.sum()))
        with pytest.raises(ValueError, match="arm.xml: that is the model's <include> file"):
            with replacing("arm.xml"):
                pass
    assert (lab / "arm.xml").read_text() == MJCF_ARM


#: each command with an option naming an output: its arguments (that option giving OUT, with
#: the suffix it takes), and the module attribute of the function that runs it
OUTPUT_COMMANDS = {
    "torques": (["r.urdf", "m.csv", "-o", "OUT.csv"], "torques.cmd_torques"),
    "human": (["--height", "1.7", "--mass", "70", "--sex", "f", "--output", "OUT.urdf"],
              "models.cmd_human"),
    "export-osim": (["r.urdf", "-o", "OUT.osim"], "models.cmd_export_osim"),
    "codegen": (["r.urdf", "-o", "OUT"], "codegen.cmd_codegen"),
    "convert": (["p.c3d", "-o", "OUT.trc"], "models.cmd_convert"),
    "ik": (["--setup", "s.xml", "--output", "OUT.mot"], "markers.cmd_ik"),
    "animate": (["r.urdf", "m.csv", "-o", "OUT.gif"], "markers.cmd_animate"),
    "scale": (["s.xml", "-o", "OUT.osim"], "scale.cmd_scale"),
    "info": (["r.urdf", "--dot", "OUT.dot"], "models.cmd_info"),
    "rra": (["s.xml", "--output-model", "OUT.osim"], "rra.cmd_rra"),
}


@pytest.mark.parametrize("command", sorted(OUTPUT_COMMANDS))
@pytest.mark.parametrize("named_by", ["option", "setup"])
def test_a_refusal_found_while_working_exits_2_only_for_the_command_line_s_option(
        tmp_path, monkeypatch, capsys, command, named_by):
    """docs/cli.rst keeps exit status 2 for the command line's mistakes. An output found to be
    an input only while the work runs (a file the work reads once it has parsed a setup or a
    model) is refused by the library's guard at write time, naming the output as the caller
    declared it: the command's own option is a command-line mistake (status 2, as urdf2dyn
    scale and the up-front checks say), a setup's element the setup's fault (status 1). Each
    command stands in as a job that reads OUT and then writes it."""
    from urdf2dyn._safe_files import name_outputs, note_input, replacing
    argv, where = OUTPUT_COMMANDS[command]
    out = next(a for a in argv if a.startswith("OUT"))
    target = tmp_path / out.replace("OUT", "clash")
    target.write_text("read by the work\n")
    flag = argv[argv.index(out) - 1]
    declared = flag if named_by == "option" else "<output_motion_file>"

    def reads_then_writes(args):
        name_outputs([(declared, target)])
        note_input(target, "marker")
        with replacing(target) as tmp:
            pathlib.Path(tmp).write_text("written\n")
        return 0

    module, name = where.split(".")
    monkeypatch.setattr(getattr(cli, module), name, reads_then_writes)
    status, err = run([command] + [os.fspath(target) if a == out else a for a in argv],
                      capsys)
    assert f"{declared} {target}: that is the marker file" in err, err
    assert status == (2 if named_by == "option" else 1), err
    assert target.read_text() == "read by the work\n"
