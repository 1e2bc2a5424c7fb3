"""Every option checked in the flag's own words before any work (issue 16): refused with the
flag, the value and what is allowed (exit status 2, as argparse's own errors); outputs that
would overwrite an input refused; outputs written beside and renamed, so a failed run leaves
the old file whole; "did you mean" and valid names for mistyped files, links, joints, columns."""
import hashlib
import os
import re
import shutil
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.bundled import data_path
from urdf2dyn._safe_files import replacing

HUMAN = "humod_subject_a.urdf"


def run(argv, capsys):
    """(exit status, stdout, stderr) of the CLI in this process."""
    try:
        status = cli.main(argv)
    except SystemExit as e:          # argparse's errors
        status = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture
def trial(tmp_path):
    """A short copy of the bundled running trial (and its ground reactions) in tmp_path."""
    for name in ("running_a_3ms.csv", "running_a_3ms_grf.csv"):
        lines = Path(data_path(name)).read_text().splitlines()[:60]
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    return tmp_path / "running_a_3ms.csv", tmp_path / "running_a_3ms_grf.csv"


@pytest.mark.parametrize("options,match", [
    (["--mass", "0"], "argument --mass: 0: a body mass in kg, > 0"),
    (["--per-kg", "--mass", "0"], "argument --mass: 0: a body mass in kg, > 0"),
    (["--mass", "-57"], "argument --mass: -57: a body mass in kg, > 0"),
    (["--mass", "nan"], "argument --mass: nan: a body mass"),
    (["--mass", "heavy"], "argument --mass: 'heavy' is not a number"),
    (["--filter", "0"], "argument --filter: 0: a cut-off frequency in Hz, > 0"),
    (["--filter", "-6"], "argument --filter: -6: a cut-off frequency"),
    (["--filter", "inf"], "argument --filter: inf: a cut-off frequency"),
    (["--max-gap", "-1"], "argument --max-gap: -1: a number of samples, >= 0"),
    (["--max-gap", "2.5"], "argument --max-gap: '2.5' is not an integer"),
    (["--jobs", "0"], "argument --jobs: 0: a number of processes, >= 1"),
    (["--speed", "0"], "argument --speed: 0: a speed in m/s, > 0"),
    (["--gravity", "0", "nan", "0"], "argument --gravity: nan: a finite acceleration"),
    (["--gravity", "0", "1e999", "0"], "argument --gravity: 1e999: a finite acceleration"),
    (["--contact", "foot_R"], "argument --contact: 'foot_R': expected KEY=LINK"),
    (["--delimiter", "|"], "argument --delimiter: invalid choice"),
    (["--decimal", ";"], "argument --decimal: invalid choice"),
])
def test_torques_options_refused_in_the_flags_words(trial, capsys, options, match):
    motion, _ = trial
    before = digest(motion)
    status, out, err = run(["torques", HUMAN, str(motion), *options], capsys)
    assert status == 2
    assert match in err
    assert digest(motion) == before and out == ""


@pytest.mark.parametrize("output,fmt", [("out.csv", "sto"), ("out.sto", "csv"),
                                        ("out.mot", "csv")])
def test_format_that_contradicts_the_one_output_file_is_refused(trial, capsys, monkeypatch,
                                                                 output, fmt):
    """With one motion -o names the file and its extension the format: a --format asking
    for the other one was ignored without a word."""
    motion, grf = trial
    monkeypatch.chdir(motion.parent)
    status, _, err = run(["torques", HUMAN, motion.name, "--grf", grf.name, "-o", output,
                          "--format", fmt], capsys)
    assert status == 2
    assert f"--format {fmt}" in err and f"-o {output} is the file" in err
    assert not (motion.parent / output).exists()


@pytest.mark.parametrize("output,fmt", [("out.sto", "sto"), ("out.mot", "sto"),
                                        ("out.csv", "csv")])
def test_format_that_agrees_with_the_one_output_file_is_taken(trial, capsys, monkeypatch,
                                                              output, fmt):
    motion, grf = trial
    monkeypatch.chdir(motion.parent)
    status, _, err = run(["torques", HUMAN, motion.name, "--grf", grf.name, "-o", output,
                          "--format", fmt, "--no-progress"], capsys)
    assert status == 0, err
    first = (motion.parent / output).read_text().splitlines()[0]
    assert first.startswith("time,") == (fmt == "csv")


@pytest.mark.parametrize("option", [["--jobs", "2"], ["--scheduler", "tcp://127.0.0.1:1"]])
def test_batch_options_with_one_motion_are_warned_about(trial, capsys, monkeypatch, option):
    """--jobs and --scheduler spread several motions; with one they change nothing, said so
    (a script may pass them to every run, so a warning, not a refusal); the motion runs here,
    without reaching for the scheduler."""
    motion, grf = trial
    monkeypatch.chdir(motion.parent)
    status, _, err = run(["torques", HUMAN, motion.name, "--grf", grf.name, "-o", "out.csv",
                          *option], capsys)
    assert status == 0, err
    assert f"warning: {option[0]} {option[1]}: spreads several motions" in err
    assert "with one motion it changes nothing" in err
    assert (motion.parent / "out.csv").exists()


@pytest.mark.parametrize("argv,match", [
    (["human", "--height", "161", "--mass", "57", "--sex", "f", "-o", "h.urdf"],
     "argument --height: 161: a stature in metres, 0.3 to 3 (161 looks like centimetres: 1.61)"),
    (["human", "--height", "1.61", "--mass", "-57", "--sex", "f", "-o", "h.urdf"],
     "argument --mass: -57: a body mass in kg, 0.2 to 1000"),
    (["human", "--subject", "A", "-o", "h.txt"],
     "argument -o/--output: h.txt: expected a file name ending in .urdf"),
    (["human", "--height", "1.61", "--mass", "57.3", "--sex", "x", "-o", "h.urdf"],
     "argument --sex: 'x': expected female or male (f or m)"),
    (["human", "--height", "1.61", "--mass", "5000", "--sex", "f", "-o", "h.urdf"],
     "argument --mass: 5000: a body mass in kg, 0.2 to 1000"),
    (["animate", "robot2r.urdf", "robot2r_trajectory.csv", "-o", "a.png"],
     "argument -o/--output: a.png: expected a file name ending in .gif or .mp4"),
    (["animate", "robot2r.urdf", "robot2r_trajectory.csv", "--every", "0"],
     "argument --every: 0: a number of samples, >= 1"),
    (["export-osim", HUMAN, "-o", "h.urdf"],
     "argument -o/--output: h.urdf: expected a file name ending in .osim"),
    (["info", HUMAN, "--dot", "tree.png"],
     "argument --dot: tree.png: expected a file name ending in .dot or .gv"),
    (["equations", "robot2r.urdf", "--gravity", "0", "0", "inf"],
     "argument --gravity: inf: a finite acceleration"),
])
def test_other_commands_refuse_in_the_flags_words(tmp_path, monkeypatch, capsys, argv, match):
    monkeypatch.chdir(tmp_path)
    status, _, err = run(argv, capsys)
    assert status == 2 and match in err
    assert not os.listdir(tmp_path)                # nothing written


@pytest.mark.parametrize("flag,name,match", [
    ("-o", "out.txt", "--output out.txt: expected a file name ending in .csv or .sto or .mot"),
    ("--residuals", "r.sto", "--residuals r.sto: expected a file name ending in .csv"),
    ("--plot", "p.csv", "--plot p.csv: expected a file name ending in .png or .pdf or .svg"),
])
def test_output_suffixes(trial, capsys, monkeypatch, flag, name, match):
    motion, _ = trial
    monkeypatch.chdir(motion.parent)
    status, _, err = run(["torques", HUMAN, motion.name, flag, name], capsys)
    assert status == 2 and match in err
    assert not (motion.parent / name).exists()


def test_filter_above_nyquist_in_the_flags_words(trial, capsys):
    motion, _ = trial
    status, _, err = run(["torques", HUMAN, str(motion), "--filter", "150"], capsys)
    assert status == 1
    assert f"error: {motion}: --filter 150: expected 0 < cutoff < Nyquist = 100 Hz" in err
    assert "cutoff_hz" not in err


def _link(kind, src, dst):
    (os.symlink if kind == "symlink" else os.link)(src, dst)


@pytest.mark.parametrize("how", ["same", "relative", "symlink", "hardlink"])
@pytest.mark.parametrize("flag,which", [("-o", "motion"), ("--residuals", "grf"),
                                        ("-o", "grf")])
def test_output_naming_an_input_is_refused_before_any_work(trial, capsys, monkeypatch, how,
                                                           flag, which):
    motion, grf = trial
    target = motion if which == "motion" else grf
    monkeypatch.chdir(motion.parent)
    if how == "same":
        out = str(target)
    elif how == "relative":
        os.mkdir(motion.parent / "sub")
        out = os.path.join("sub", "..", target.name)
    else:
        out = str(motion.parent / f"alias_{how}.csv")
        _link(how, target, out)
    before = {p: digest(p) for p in (motion, grf)}
    status, stdout, err = run(["torques", HUMAN, str(motion), "--grf", str(grf), flag, out],
                              capsys)
    assert status == 2, err
    assert f"{'--output' if flag == '-o' else flag} {out}: that is the " in err
    assert "would destroy it" in err and stdout == ""
    assert {p: digest(p) for p in (motion, grf)} == before


def test_mapping_file_as_output_refused(trial, capsys):
    motion, _ = trial
    mapping = motion.parent / "map.csv"
    mapping.write_text("from,to\n")
    status, _, err = run(["torques", HUMAN, str(motion), "--mapping", str(mapping), "-o",
                          str(mapping)], capsys)
    assert status == 2 and "that is the mapping file" in err
    assert mapping.read_text() == "from,to\n"


def test_export_osim_onto_its_model_refused(tmp_path, capsys):
    model = tmp_path / "m.osim"            # a URDF under a misleading name: still an input
    shutil.copy(data_path("robot2r.urdf"), model)
    before = digest(model)
    status, _, err = run(["export-osim", str(model), "-o", str(model)], capsys)
    assert status == 2 and "that is the model file" in err
    assert digest(model) == before


def test_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    from urdf2dyn.biomech import formats
    out = tmp_path / "torques.csv"
    out.write_text("a good earlier result\n")
    os.chmod(out, 0o640)

    def broken_savetxt(fname, *args, **kwargs):
        with open(fname, "w") as f:
            f.write("time,half a li")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savetxt", broken_savetxt)
    with pytest.raises(OSError, match="disk full"):
        formats.write_table(out, [0.0], [[1.0]], ["x"])
    assert out.read_text() == "a good earlier result\n"
    assert os.listdir(tmp_path) == ["torques.csv"]          # no temporary left behind
    monkeypatch.undo()
    formats.write_table(out, [0.0], [[1.0]], ["x"])
    assert out.read_text().startswith("time,x")
    assert os.stat(out).st_mode & 0o777 == 0o640           # the user's permissions kept


def test_replacing_is_atomic_on_success_and_failure(tmp_path):
    path = tmp_path / "f.txt"
    with replacing(path) as tmp:
        assert os.path.dirname(tmp) == str(tmp_path) and tmp.endswith(".txt")
        Path(tmp).write_text("new")
        assert not path.exists()
    assert path.read_text() == "new"
    with pytest.raises(KeyboardInterrupt):
        with replacing(path) as tmp:
            Path(tmp).write_text("half")
            raise KeyboardInterrupt
    assert path.read_text() == "new" and os.listdir(tmp_path) == ["f.txt"]


def test_human_and_info_write_through_replacing(tmp_path, capsys):
    out = tmp_path / "h.urdf"
    status, _, _ = run(["human", "--subject", "A", "-o", str(out)], capsys)
    assert status == 0 and urdf2dyn.load(str(out)).nv == 36
    dot = tmp_path / "t.dot"
    status, _, _ = run(["info", str(out), "--dot", str(dot)], capsys)
    assert status == 0 and dot.read_text().startswith("digraph")
    assert sorted(os.listdir(tmp_path)) == ["h.urdf", "t.dot"]


# ----------------------------------------------------------------------------- newcomer findings

def test_did_you_mean_for_a_model_and_a_motion(trial, capsys, monkeypatch):
    motion, _ = trial
    monkeypatch.chdir(motion.parent)
    status, _, err = run(["torques", "humod_subjct_a.urdf", motion.name], capsys)
    assert status == 1
    assert "humod_subjct_a.urdf: no such file: did you mean 'humod_subject_a.urdf'" in err
    assert "bundled models: arm7.urdf" in err
    status, _, err = run(["torques", HUMAN, "runing_a_3ms.csv"], capsys)
    assert status == 1 and "did you mean 'running_a_3ms.csv'" in err


def _zip(text):
    import io
    import zipfile
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("robot.urdf", text)
    return buf.getvalue()


ROBOT = Path(data_path("robot2r.urdf")).read_bytes()


@pytest.mark.parametrize("name,data,words", [
    ("trial.c3d", Path(os.path.dirname(__file__), "data", "c3d", "BTS.c3d").read_bytes(),
     "a C3D motion-capture recording, not a model (a model is a URDF, OpenSim .osim or MuJoCo "
     "MJCF file: XML text): it is a recording: give it as the motion, after the model"),
    ("model.osim.gz", __import__("gzip").compress(ROBOT),
     "a gzip-compressed file, not a model (a model is a URDF, OpenSim .osim or MuJoCo MJCF "
     "file: XML text): decompress it first"),
    ("robot.zip", _zip(ROBOT), "a zip archive, not a model"),
    ("trial.mat", b"MATLAB 5.0 MAT-file, Platform: GLNXA64" + bytes(100), "a MATLAB .mat file"),
    ("trial.h5", b"\x89HDF\r\n\x1a\n" + bytes(100), "an HDF5 file, not a model"),
    ("robot.urdf", b"", "empty file (0 bytes), not a model (a model is a URDF"),
    ("robot.urdf", b" \r\n\t\n", "empty file (5 bytes, only whitespace), not a model"),
])
def test_a_file_that_is_no_model_is_named_for_what_it_is(trial, capsys, name, data, words):
    """Given as the model, a recording, an archive or an empty file is named for what it is,
    not 'not valid UTF-8 text' or 'invalid XML'."""
    motion, _ = trial
    path = motion.parent / name
    path.write_bytes(data)
    status, _, err = run(["torques", str(path), str(motion)], capsys)
    assert status == 1
    assert err.startswith(f"urdf2dyn torques: error: {path}: {words}"), err
    assert "UTF-8" not in err and "invalid XML" not in err
    with pytest.raises(urdf2dyn.URDFError, match=re.escape(f"{path}: {words}")):
        urdf2dyn.load(path)
    with pytest.raises(urdf2dyn.URDFError, match=re.escape(f"the URDF bytes: {words}")):
        urdf2dyn.load(data)


def test_did_you_mean_for_a_column(trial, capsys):
    motion, _ = trial
    text = motion.read_text().replace("rKJZ_L", "rKJZ_l", 1)
    motion.write_text(text)
    status, _, err = run(["torques", HUMAN, str(motion)], capsys)
    assert status == 1 and "did you mean 'rKJZ_l' -> 'rKJZ_L'?" in err


def test_unknown_link_and_joint_list_the_valid_names():
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    q = np.zeros(model.nq)
    with pytest.raises(ValueError) as e:
        model.jacobian(q, "nolink")
    for name in model.link_names:
        assert repr(name) in str(e.value) or name in str(e.value)
    assert "model.link_names" in str(e.value)
    close = model.link_names[-1][:-1] + "X"
    with pytest.raises(ValueError, match=f"did you mean '{model.link_names[-1]}'"):
        model.jacobian(q, close)
    with pytest.raises(KeyError, match="valid: " + model.joints[0].name):
        model.joint("nojoint")


def test_humod_mat_without_scipy_names_the_extra(tmp_path, monkeypatch):
    from urdf2dyn.biomech import formats
    path = tmp_path / "trial.mat"
    path.write_bytes(b"MATLAB 5.0")
    for name in list(sys.modules):
        if name == "scipy" or name.startswith("scipy."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "scipy", None)        # import scipy -> ImportError
    with pytest.raises(ImportError, match=r'pip install "urdf2dyn\[io\]"'):
        formats.read_humod(path)


def test_gap_at_the_start_does_not_advise_raising_max_gap(trial, capsys):
    motion, _ = trial
    lines = motion.read_text().splitlines()
    cells = lines[1].split(",")
    lines[1] = ",".join([cells[0], ""] + cells[2:])        # pBJX missing in the first row
    motion.write_text("\n".join(lines) + "\n")
    status, _, err = run(["torques", HUMAN, str(motion)], capsys)
    assert status == 1
    assert "filling longer gaps does not help: cut the trial" in err
    assert "--max-gap" not in err and "max_gap" not in err


@pytest.mark.parametrize("times,match", [
    (["0", "1e-9", "2e-9", "3e-9"], "time steps of 1e-09 s (at data rows 2, 3, 4)"),
    (["0", "1e300", "2e300", "3e300"], "time steps of 1e+300 s"),
])
def test_time_steps_that_cannot_be_differentiated_are_refused(tmp_path, capsys, times, match):
    # found by tests/test_cli_hypothesis.py: NumPy's gradient overflowed across such steps
    path = tmp_path / "m.csv"
    path.write_text("time,joint1,joint2\n" + "".join(f"{t},0.1,0.2\n" for t in times))
    status, _, err = run(["torques", "robot2r.urdf", str(path)], capsys)
    assert status == 1 and match in err and "seconds" in err


def test_non_finite_torques_are_said_in_our_words(tmp_path, capsys):
    # found by tests/test_cli_hypothesis.py: a 1e308 coordinate gave NaN torques, exit 0,
    # with only NumPy's overflow warnings
    path = tmp_path / "m.csv"
    path.write_text("time,joint1,joint2\n" + "".join(
        f"{0.01 * k},{'1e308' if k == 1 else '0.1'},0.2\n" for k in range(5)))
    with warnings.catch_warnings(record=True) as caught:     # what the CLI does not print
        warnings.simplefilter("always")
        status, _, err = run(["torques", "robot2r.urdf", str(path)], capsys)
    assert status == 0
    assert "warning: " in err and "the torques are not finite at 5 of 5 samples" in err
    assert "largest |coordinate| 1e+308" in err
    # only our words: NumPy's overflow in differentiating 1e308 is not shown, nor counted
    assert [str(w.message) for w in caught] == []
    ours = err.count("urdf2dyn torques: warning: ")
    assert f"urdf2dyn torques: {ours} warnings (above)" in err
    status, _, err = run(["torques", "robot2r.urdf", str(path), "--strict"], capsys)
    assert status == 1 and "error: " in err and "not finite" in err


@pytest.mark.parametrize("options,match", [
    (["--rate", "marker"], "--rate marker sets how a C3D's force plates enter the trial; the "
                           "motions given hold no plates: drop --rate"),
    (["--rotate", "x:-90"], "--rotate turns a marker recording (C3D, .trc) into the model's "
                            "frame; the motions given are coordinate files: drop --rotate"),
])
def test_marker_options_on_coordinate_files_refused(trial, capsys, options, match):
    status, out, err = run(["torques", HUMAN, str(trial[0]), *options], capsys)
    assert status == 1 and match in err and out == ""


@pytest.mark.parametrize("argv", [
    ["torques", HUMAN, "TRIAL", "--mass=--"],
    ["torques", HUMAN, "TRIAL", "--mass=--", "--scale=setup.xml"],
    ["torques", HUMAN, "TRIAL", "--scale=--"],
    ["scale", "setup.xml", "--model=--"],
])
def test_an_option_given_dashdash_is_a_missing_value(argv, trial, capsys):
    """Python 3.11's argparse turns --opt=-- into [] (the '--' dropped, no type applied; the
    CLI fuzz found --mass=-- with --scale ending in a TypeError): refused as a missing value."""
    argv = [os.fspath(trial[0]) if a == "TRIAL" else a for a in argv]
    status, _, err = run(argv, capsys)
    if sys.version_info < (3, 12):
        assert status == 2 and "expected one argument (got '--')" in err, err
    else:                             # a later argparse gives '--' itself: refused as a value
        assert status in (1, 2) and "error:" in err, err


def test_human_name_with_xml_characters_is_written_escaped(tmp_path, capsys):
    """--name is any text: the URDF written loads, with that name (not a file that cannot be
    read back)."""
    out = tmp_path / "h.urdf"
    status, _, err = run(["human", "--subject", "A", "--name", "a\"b<&'c", "-o", str(out)],
                         capsys)
    assert status == 0, err
    assert urdf2dyn.load(str(out)).name == "a\"b<&'c"


@pytest.mark.parametrize("name,said", [
    ("tab\tline\nbreak\r", None),
    ("a\x01b", "name: 'a\\x01b': the control character '\\x01' cannot be written in an XML file"),
    ("a\udcffb", "is not a character (an undecodable byte?)"),
])
def test_human_name_that_xml_cannot_hold_is_refused_by_name(tmp_path, capsys, name, said):
    """A tab or a line break in --name is written as a character reference, which XML readers
    keep (urdf2dyn's and Python's ElementTree); a control character XML 1.0 has no place for,
    or what Python makes of an undecodable byte, is refused naming the argument, where it was
    written into a URDF that no reader loads."""
    import xml.etree.ElementTree as ET
    out = tmp_path / "h.urdf"
    status, _, err = run(["human", "--subject", "A", "--name", name, "-o", str(out)], capsys)
    if said is None:
        assert status == 0, err
        assert urdf2dyn.load(str(out)).name == name
        assert ET.parse(out).getroot().get("name") == name
    else:
        assert status == 1 and "error: name: " in err and said in err, err
        assert not out.exists()


def test_animate_mp4_without_ffmpeg_is_refused_before_the_trial(tmp_path, capsys,
                                                                 monkeypatch, recwarn):
    """No ffmpeg: refused before the trial is run, saying what to do, and no matplotlib
    warning about an animation never rendered."""
    animation = pytest.importorskip("matplotlib.animation")
    monkeypatch.setattr(animation.writers, "is_available", lambda name: False)
    from urdf2dyn.biomech import pipeline
    monkeypatch.setattr(pipeline, "inverse_dynamics_trial",
                        lambda *a, **k: pytest.fail("the trial ran"))
    out = tmp_path / "h.mp4"
    status, _, err = run(["animate", "robot2r.urdf", data_path("robot2r_trajectory.csv"),
                          "-o", str(out)], capsys)
    assert status == 1
    assert f"--output {out}: writing .mp4 needs ffmpeg" in err and "write a .gif" in err
    assert not out.exists()
    import gc
    gc.collect()                  # an Animation never saved warns when collected
    assert not [w for w in recwarn if "Animation" in str(w.message)]


@pytest.mark.parametrize("flag,name", [("--grf", "running_a_3ms_gfr.csv"), ("--ik-setup", "noik.xml"),
                                       ("--scale", "noscale.xml"), ("--static", "nostatic.trc"),
                                       ("--mapping", "nomap.json"),
                                       ("--external-loads", "noloads.xml")])
def test_a_missing_input_file_is_named_by_its_option(flag, name, trial, capsys):
    """A new user's missing --grf ended in a bare '[Errno 2] No such file or directory': every
    input option's missing file is named with the option and a did-you-mean."""
    motion, grf = trial
    extra = ["--scale", str(grf)] if flag == "--static" else []
    status, _, err = run(["torques", HUMAN, str(motion), flag, str(motion.parent / name)]
                         + extra, capsys)
    assert status == 1 and "Errno" not in err
    assert f"error: {flag} {motion.parent / name}: no such file" in err
    if flag == "--grf":
        assert "did you mean" in err and grf.name in err and "the ground reactions of" in err


def test_a_missing_setup_file_is_named_by_its_option(tmp_path, capsys):
    status, _, err = run(["torques", "--setup", str(tmp_path / "Setup_ID.xml")], capsys)
    assert status == 1 and f"--setup {tmp_path / 'Setup_ID.xml'}: no such file" in err


def test_floating_base_columns_without_floating_base_say_so(tmp_path, capsys):
    """A motion with the columns a floating base adds (root_joint_x .. root_joint_qw, as
    load(..., floating_base=True) names them) given without --floating-base is told to add
    it, not only to rename the columns with a mapping."""
    model = urdf2dyn.load(data_path("robot2r.urdf"), floating_base=True)
    path = tmp_path / "free.csv"
    q = model.neutral()
    path.write_text(",".join(["time", *model.q_names]) + "\n" + "".join(
        ",".join(str(x) for x in [0.01 * k, *q]) + "\n" for k in range(5)))
    status, _, err = run(["torques", "robot2r.urdf", str(path)], capsys)
    assert status == 1 and "unknown columns" in err
    assert "--floating-base" in err and "root_joint" in err
    status, _, err = run(["torques", "robot2r.urdf", str(path), "--floating-base"], capsys)
    assert status == 0, err


def test_a_model_without_movable_joints_prints_its_summary(tmp_path, capsys):
    """A model that moves nothing has no torques to summarise: said, after writing the file
    (the summary's column width was max() of no names: 'error: max() arg is an empty
    sequence', exit status 1, the file written)."""
    robot = tmp_path / "block.urdf"
    robot.write_text('<robot name="block"><link name="a"><inertial><mass value="1"/>'
                     '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
                     '</link></robot>')
    motion = tmp_path / "still.csv"
    motion.write_text("time\n0\n0.1\n0.2\n")
    out_csv = tmp_path / "tau.csv"
    status, out, err = run(["torques", str(robot), str(motion), "-o", str(out_csv)], capsys)
    assert status == 0, err
    assert "max()" not in err and "no movable joint" in out
    assert out_csv.read_text().splitlines()[0] == "time"


G2354 = os.path.join(os.path.dirname(__file__), "data", "opensim_models", "Gait2354_Simbody")


@pytest.mark.parametrize("where,said", [
    ("grf", "give it with --external-loads"),
    ("motion", "urdf2dyn torques --setup"),
])
def test_an_opensim_xml_given_as_data_names_the_option_that_takes_it(capsys, where, said):
    """An OpenSim user's first tries: the ExternalLoads .xml given to --grf, the ID setup given
    as the motion. Both were refused as an "unknown trajectory format" (exit 1), which says
    nothing of what to do; the answer names the option that takes the file (exit 2, a
    command-line mistake)."""
    model = os.path.join(G2354, "subject01_simbody.osim")
    motion = os.path.join(G2354, "subject01_walk1_ik.mot")
    xml = os.path.join(G2354, "subject01_walk1_grf.xml" if where == "grf"
                       else "subject01_Setup_InverseDynamics.xml")
    argv = ["torques", model] + ([motion, "--grf", xml] if where == "grf" else [xml])
    status, _, err = run(argv, capsys)
    assert status == 2, err
    assert said in err and xml in err


@pytest.mark.parametrize("argv, command, said", [
    (["torques", HUMAN, "m.csv", "--bogus"], "torques", "unrecognized arguments: --bogus"),
    (["info", HUMAN, "--fulll"], "info",
     "unrecognized arguments: --fulll; did you mean --full?"),
    (["ik", "--setup"], "ik", "argument --setup: expected one argument"),
    (["info"], "info", "the following arguments are required: model"),
    (["codegen", HUMAN, "--lang", "fortran", "-o", "out"], "codegen",
     "argument --lang: invalid choice: 'fortran'"),
    (["--bogus"], None, "unrecognized arguments: --bogus (a command comes first"),
    (["bogus"], None, "argument command: invalid choice: 'bogus'"),
    ([], None, "the following arguments are required: command"),
])
def test_argparse_errors_name_the_command_with_its_usage(capsys, argv, command, said):
    """argparse's own refusals as ours: `urdf2dyn CMD: error: ...` after that command's usage
    line, exit status 2, no traceback. An unknown option used to be blamed on the top-level
    parser (`urdf2dyn: error:` and its usage), and one given before any command was reported
    as a missing command."""
    status, out, err = run(argv, capsys)
    prog = "urdf2dyn" + (f" {command}" if command else "")
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith(f"usage: {prog} "), err
    assert lines[-1].startswith(f"{prog}: error: {said}"), err


def _torques_only_flags():
    """Every option of urdf2dyn torques that animate's parser does not have, as torques'
    parser says (its longest spelling), found without the code under test's list."""
    import argparse
    commands = next(a for a in cli.build_parser()._actions
                    if isinstance(a, argparse._SubParsersAction)).choices
    own = {f for a in commands["animate"]._actions for f in a.option_strings}
    return sorted(a.option_strings[-1] for a in commands["torques"]._actions
                  if a.option_strings and not set(a.option_strings) & own)


#: what animate says it does instead of each torques option a copied command line gives it
ANIMATE_INSTEAD = {
    "--grf g.csv": "the ground reactions the trial itself carries (a C3D's force plates, the "
                   "motion file's own ground-reaction columns), not another file's",
    "--external-loads el.xml": "the ground reactions the trial itself carries",
    "--contact R=foot_R": "on the feet it finds by their names (foot_<KEY>, or "
                          "calcn_r/calcn_l for OpenSim's r/l)",
    "--filter-loads no": "the ground reactions as torques' default --filter-loads yes "
                         "applies them: with --filter, filtered at its cut-off",
    "--derivatives savgol": "not their rates: how torques estimates velocities and "
                            "accelerations changes nothing it draws",
    "--couplers eliminate": "draws each coordinate as the trial gives it, a coupled one too",
    "--per-kg": "no torques: nothing is divided by the body mass",
    "--mass 70": "scales no model: the body mass changes nothing it draws",
    "--residuals r.csv": "no residuals: write them with urdf2dyn torques --residuals",
    "--reduce-residuals": "without the residual reduction's kinematic corrections",
    "--com-body torso": "it goes with --reduce-residuals",
    "--plot p.png": "no torque plot: plot them with urdf2dyn torques --plot",
    "--speed 1.2": "angular-momentum plot, which animate does not draw",
    "--format sto": "in the format -o's suffix names (.gif, or .mp4 with ffmpeg)",
    "--cycles plates": "not cut into gait cycles: draw part of it with --time-range T0 T1",
    "--scale s.xml": "animate draws the model as given: scale it first with urdf2dyn scale "
                     "SETUP_SCALE.xml -o SCALED.osim, then animate the scaled model",
    "--static st.c3d": "give the static trial to urdf2dyn scale SETUP_SCALE.xml --static",
    "--scaled-model s.osim": "write the scaled model with urdf2dyn scale SETUP_SCALE.xml -o "
                             "SCALED.osim, then animate it",
    "--rate marker": "at the analog rate, evaluated at each frame's time",
    "--max-gap 10": "fills runs of up to 5 missing samples",
    "--jobs 2": "one trial, in this process: nothing to run in other processes",
    "--scheduler tcp://h:8786": "nothing to run on a Dask cluster",
    "--no-progress": "with no progress bar",
    "--delimiter tab": "separators detected from the file (its header line)",
    "--decimal ,": "separators detected from the file (its numbers)",
    "--setup id.xml": "give the setup's model_file and coordinates_file (urdf2dyn animate "
                      "MODEL COORDINATES.mot --processing opensim",
    "--verbose": "no torques: there is nothing more to print",
}


def test_every_torques_only_option_has_animates_words():
    """ANIMATE_INSTEAD covers every option torques' parser has and animate's lacks: a new
    torques option without words of its own fails here."""
    assert sorted(o.split()[0] for o in ANIMATE_INSTEAD) == _torques_only_flags()


@pytest.mark.parametrize("option", sorted(ANIMATE_INSTEAD))
def test_a_torques_option_given_to_animate_says_what_animate_does(tmp_path, monkeypatch, capsys,
                                                                   option):
    """A torques command line copied to animate: each torques-only option was refused with
    argparse's bare "unrecognized arguments"; it is now named with what animate does instead
    (exit status 2, before any work: nothing written)."""
    monkeypatch.chdir(tmp_path)
    flag, *value = option.split()
    status, _, err = run(["animate", "robot2r.urdf", data_path("robot2r_trajectory.csv"),
                          flag, *value], capsys)
    assert status == 2 and not os.listdir(tmp_path)
    assert f"urdf2dyn animate: error: {flag} is an option of urdf2dyn torques: " in err, err
    assert ANIMATE_INSTEAD[option] in " ".join(err.split()), err
    assert err.rstrip().endswith(f"drop {flag}") and "unrecognized" not in err, err


@pytest.mark.parametrize("argv, said", [
    (["-v", "--grf=g.csv"], ["-v is an option of urdf2dyn torques", "--grf is an option"]),
    (["--ext", "el.xml"], ["--ext is an option of urdf2dyn torques: animate draws the motion "
                           "and the ground reactions"]),
    (["--scale", "s.xml", "--bogus"], ["--scale is an option of urdf2dyn torques"]),
])
def test_torques_options_given_to_animate_are_named_as_written(tmp_path, monkeypatch, capsys,
                                                               argv, said):
    """Several torques options, one as --opt=VALUE, one abbreviated as argparse takes it in
    torques: each is named as the command line wrote it."""
    monkeypatch.chdir(tmp_path)
    status, _, err = run(["animate", "robot2r.urdf", data_path("robot2r_trajectory.csv"),
                          *argv], capsys)
    assert status == 2 and all(words in err for words in said), err
