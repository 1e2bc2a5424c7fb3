"""An input path that names a device (the rule of issue 16: no input may end in a traceback or
a runaway). Every reader of a model, setup, mapping or marker file read its file whole: given
/dev/zero, which never ends, a run died of a MemoryError traceback under a memory cap and was
killed by the system without one; an MJCF <include> of /dev/zero passed the include size check
(a device's size is 0) and did the same. Each reader now refuses a device by name, before
reading it, and the .trc reader no longer says 'no such file' of a path that exists.

The runs go in one child process under a memory cap, so that a reader that reads a device
whole fails here with its MemoryError instead of taking the test run with it.
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

import urdf2dyn

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from test_cli_every_option import _write_case  # noqa: E402
from test_cli_hypothesis import PROFILE, _memory_cap  # noqa: E402

DEVICES = [d for d in ("/dev/zero", "/dev/urandom", "/dev/full") if os.path.exists(d)]

#: each reader's place on a command line; DEV is the device, the rest robot2r's small case
SLOTS = {
    "model": ["info", "DEV"],
    "model (check)": ["check", "DEV"],
    "MJCF include": ["info", "CASE/inc.xml"],
    "mapping (CSV)": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--mapping", "DEV",
                      "--no-progress"],
    "mapping (JSON)": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--mapping", "CASE/dev.json",
                       "--no-progress"],
    "animate mapping": ["animate", "CASE/r.urdf", "CASE/trial.csv", "--mapping", "DEV"],
    "IK setup": ["ik", "--setup", "DEV"],
    "model markers": ["ik", "--setup", "CASE/s.xml", "--model", "CASE/r.urdf", "--markers",
                      "DEV"],
    "marker file": ["ik", "--setup", "CASE/s.xml", "--model", "CASE/r.urdf", "--markers",
                    "CASE/m.csv", "--marker-file", "DEV"],
    "RRA setup": ["rra", "DEV"],
    "scale setup": ["scale", "DEV"],
    "ExternalLoads": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--external-loads", "DEV",
                      "--no-progress"],
    "OpenSim motion (.mot)": ["torques", "CASE/r.urdf", "CASE/dev.mot", "--no-progress"],
}

#: the slots whose refusal once quoted the device twice ("X: cannot be read (X: a device ...")
SETUPS = ("IK setup", "RRA setup", "scale setup")

CHILD = """
import contextlib, io, json, sys
from urdf2dyn import cli
results = []
for argv in json.loads(sys.argv[1]):
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as e:
            status = e.code
        except BaseException as e:          # MemoryError: what the parent reports
            status = repr(e)[:200]
    results.append([status, err.getvalue()])
print(json.dumps(results))
"""


def _flag_before(argv, token):
    """The option argv gives token to (None for a positional)."""
    k = argv.index(token) if token in argv else 0
    return argv[k - 1] if k and argv[k - 1].startswith("--") else None


def _child_env():
    """The child's environment: one BLAS thread, and the urdf2dyn under test first on its path
    (run from the case's folder, it would import the installed one)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(urdf2dyn.__file__)))
    path = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    return dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONPATH=path)


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    folder = tmp_path_factory.mktemp("case")
    _write_case(folder)
    return folder


def _case_files(case, device):
    """The files that name the device: an MJCF including it, a .json mapping linked to it."""
    (case / "inc.xml").write_text(f'<mujoco><include file="{device}"/><worldbody><body '
                                  'name="b"><joint/><geom size="0.1"/></body></worldbody>'
                                  '</mujoco>')
    for name in ("dev.json", "dev.mot"):
        link = case / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(device)


@settings(PROFILE, max_examples=3)
@given(device=st.sampled_from(DEVICES), slots=st.permutations(sorted(SLOTS)))
def test_a_device_given_as_any_input_is_refused_by_name(case, device, slots):
    """Every reader slot, in a drawn order (one child process reads them all), given a drawn
    device: exit status 1 or 2, an error line naming the device, no traceback."""
    cases = [(slot, device) for slot in slots]
    _case_files(case, device)
    argvs = [[token.replace("CASE", os.fspath(case)).replace("DEV", device)
              for token in SLOTS[slot]] for slot, _ in cases]
    env = _child_env()
    proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(argvs)], cwd=case,
                          capture_output=True, text=True, timeout=300, preexec_fn=_memory_cap,
                          env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for (slot, _), (status, err) in zip(cases, json.loads(proc.stdout)):
        assert status in (1, 2), (slot, status, err)
        assert "Traceback" not in err and "error:" in err, (slot, err)
        assert device in err or "dev.json" in err or "dev.mot" in err, (slot, err)
        flag = _flag_before(SLOTS[slot], "DEV")
        if flag:                        # in the option's words, not the library argument's
            assert f"{flag} {device}" in err, (slot, err)
        if slot in SETUPS:
            assert "cannot be read" not in err and err.count(device) == 1, (slot, err)
        assert "no such file" not in err, (slot, err)


#: each reader's place on a command line, for a named pipe: PIPE.<suffix> is a FIFO with the
#: suffix the slot reads, CASE robot2r's small case
PIPE_SLOTS = {
    "model (info)": ["info", "PIPE.urdf"],
    "model (check)": ["check", "PIPE.urdf"],
    "model (equations)": ["equations", "PIPE.urdf"],
    "model (codegen)": ["codegen", "PIPE.urdf", "-o", "gen"],
    "model (export-osim)": ["export-osim", "PIPE.urdf", "-o", "out.osim"],
    "OpenSim model": ["info", "PIPE.osim"],
    "MJCF model": ["info", "PIPE.xml"],
    "MJCF include": ["info", "CASE/inc_pipe.xml"],
    "torques model": ["torques", "PIPE.urdf", "CASE/trial.csv", "--no-progress"],
    "motion (CSV)": ["torques", "CASE/r.urdf", "PIPE.csv", "--no-progress"],
    "motion (.mot)": ["torques", "CASE/r.urdf", "PIPE.mot", "--no-progress"],
    "motion (.trc)": ["torques", "CASE/r.urdf", "PIPE.trc", "--no-progress"],
    "motion (C3D)": ["torques", "CASE/r.urdf", "PIPE.c3d", "--no-progress"],
    "--grf (CSV)": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--grf", "PIPE.csv",
                    "--no-progress"],
    "--grf (.mot)": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--grf", "PIPE.mot",
                     "--no-progress"],
    "--mapping (JSON)": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--mapping", "PIPE.json",
                         "--no-progress"],
    "--mapping (CSV)": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--mapping", "PIPE.csv",
                        "--no-progress"],
    "--external-loads": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--external-loads",
                         "PIPE.xml", "--no-progress"],
    "torques --setup": ["torques", "CASE/r.urdf", "--setup", "PIPE.xml", "--no-progress"],
    "torques --scale": ["torques", "CASE/r.urdf", "CASE/walk.trc", "--scale", "PIPE.xml",
                        "--static", "CASE/walk.trc", "--no-progress"],
    "torques --ik-setup": ["torques", "CASE/r.urdf", "CASE/walk.trc", "--ik-setup", "PIPE.xml",
                           "--no-progress"],
    "ik --setup": ["ik", "--setup", "PIPE.xml"],
    "ik --model (URDF)": ["ik", "--setup", "CASE/s.xml", "--model", "PIPE.urdf", "--markers",
                          "CASE/m.csv"],
    "ik --model (.osim)": ["ik", "--setup", "CASE/s.xml", "--model", "PIPE.osim"],
    "ik --markers": ["ik", "--setup", "CASE/s.xml", "--model", "CASE/r.urdf", "--markers",
                     "PIPE.csv"],
    "ik --marker-file (.trc)": ["ik", "--setup", "CASE/s.xml", "--model", "CASE/r.urdf",
                                "--markers", "CASE/m.csv", "--marker-file", "PIPE.trc"],
    "ik --marker-file (C3D)": ["ik", "--setup", "CASE/s.xml", "--model", "CASE/r.urdf",
                               "--markers", "CASE/m.csv", "--marker-file", "PIPE.c3d"],
    "scale setup": ["scale", "PIPE.xml"],
    "scale --model": ["scale", "CASE/s.xml", "--model", "PIPE.osim"],
    "scale --marker-set": ["scale", "CASE/s.xml", "--marker-set", "PIPE.xml"],
    "scale --static": ["scale", "CASE/s.xml", "--static", "PIPE.trc"],
    "torques --static": ["torques", "CASE/r.urdf", "CASE/walk.trc", "--scale", "CASE/s.xml",
                         "--static", "PIPE.trc", "--no-progress"],
    "rra --model": ["rra", "CASE/s.xml", "--model", "PIPE.osim"],
    "rra setup": ["rra", "PIPE.xml"],
    "convert (C3D)": ["convert", "PIPE.c3d", "-o", "out.trc"],
    "convert (.osim)": ["convert", "PIPE.osim", "-o", "out.urdf"],
    "animate model": ["animate", "PIPE.urdf", "CASE/trial.csv"],
    "animate trial": ["animate", "CASE/r.urdf", "PIPE.c3d"],
    "animate --ik-setup": ["animate", "CASE/r.urdf", "CASE/walk.trc", "--ik-setup", "PIPE.xml"],
    "animate --mapping": ["animate", "CASE/r.urdf", "CASE/trial.csv", "--mapping", "PIPE.json"],
}

#: a child running each command line under an alarm: a reader that opens the pipe waits for a
#: writer that never comes, and is reported as a runaway instead of hanging the test run
PIPE_CHILD = """
import contextlib, io, json, signal, sys
from urdf2dyn import cli

class Runaway(Exception):
    pass

def alarm(signum, frame):
    raise Runaway()

signal.signal(signal.SIGALRM, alarm)
results = []
for argv in json.loads(sys.argv[1]):
    err = io.StringIO()
    signal.alarm(5)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as e:
            status = e.code
        except Runaway:
            status = "still waiting after 5 s"
        except BaseException as e:
            status = repr(e)[:200]
    signal.alarm(0)
    results.append([status, err.getvalue()])
print(json.dumps(results))
"""


def test_a_named_pipe_given_as_any_input_is_refused_by_name(case, tmp_path):
    """A FIFO in every reader slot: opening one waits until something writes into it (for
    ever, from a command line); each run ends at once in exit status 1 or 2 with an error line
    naming the pipe and saying it is no file, no traceback."""
    pipes = {}
    for argv in PIPE_SLOTS.values():
        for token in argv:
            if token.startswith("PIPE."):
                pipes[token] = tmp_path / token.replace("PIPE", "pipe")
    for path in pipes.values():
        os.mkfifo(path)
    (case / "inc_pipe.xml").write_text(
        f'<mujoco><include file="{pipes["PIPE.xml"]}"/><worldbody><body name="b"><joint/>'
        '<geom size="0.1"/></body></worldbody></mujoco>')
    argvs = [[os.fspath(pipes[token]) if token in pipes
              else token.replace("CASE", os.fspath(case)) for token in argv]
             for argv in PIPE_SLOTS.values()]
    env = _child_env()
    proc = subprocess.run([sys.executable, "-c", PIPE_CHILD, json.dumps(argvs)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    failures = []
    for slot, argv, (status, err) in zip(PIPE_SLOTS, argvs, json.loads(proc.stdout)):
        pipe = next((t for t in argv if t.startswith(os.fspath(tmp_path))),
                    os.fspath(pipes["PIPE.xml"]))
        if (status not in (1, 2) or "Traceback" in err or "error:" not in err
                or pipe not in err or "named pipe" not in err
                or _flag_before(argv, pipe) and f"{_flag_before(argv, pipe)} {pipe}" not in err):
            failures.append((slot, status, err.strip()[-300:]))
    assert not failures, "\n".join(map(str, failures))


def _run_with_alarm(tmp_path, code):
    """code run in a child under a 5 s alarm: its (stdout, stderr), stdout saying 'still
    waiting after 5 s' when it opened a pipe no one writes (a runaway, reported instead of
    hanging the test run)."""
    child = ("import signal, sys\n"
             "def alarm(signum, frame):\n"
             "    print('still waiting after 5 s'); sys.stdout.flush(); raise SystemExit(0)\n"
             "signal.signal(signal.SIGALRM, alarm)\n"
             "signal.alarm(5)\n" + code)
    proc = subprocess.run([sys.executable, "-c", child], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env=_child_env())
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return proc.stdout, proc.stderr


def test_a_named_pipe_beside_a_model_without_links_is_not_opened(tmp_path):
    """A URDF without links is refused with the robots beside it whose name begins with its
    own (ur3.urdf: 'Beside it: ur3_robot.urdf'), each opened to look for <link>: a named pipe
    among them (ur3_pipe.urdf) was opened, and `urdf2dyn info ur3.urdf` waited for a writer
    for ever. It is no robot to suggest: the refusal comes at once, the real robot named."""
    (tmp_path / "ur3.urdf").write_text('<robot name="ur3"></robot>')
    (tmp_path / "ur3_robot.urdf").write_text(
        '<robot name="ur3"><link name="base"/></robot>')
    os.mkfifo(tmp_path / "ur3_pipe.urdf")
    out, err = _run_with_alarm(tmp_path, "from urdf2dyn import cli\n"
                                         "print('status', cli.main(['info', 'ur3.urdf']))\n")
    assert out.strip() == "status 1", out
    assert "Beside it: ur3_robot.urdf, which holds links: load that" in err, err


def test_the_marker_set_reader_refuses_a_named_pipe_by_name(tmp_path):
    """read_marker_set (urdf2dyn.biomech.formats.osim; scale's apply_marker_set and
    read_marker_set_file read through it) opened its file with open() and read it whole: given
    a named pipe it waited for a writer for ever. It reads through _input_bytes as every other
    reader does: the pipe refused by name, saying what to give."""
    os.mkfifo(tmp_path / "markers.xml")
    out, _ = _run_with_alarm(tmp_path, "from urdf2dyn.biomech.formats.osim import "
                                       "read_marker_set\n"
                                       "try:\n"
                                       "    read_marker_set('markers.xml')\n"
                                       "except OSError as e:\n"
                                       "    print(e)\n")
    assert out.strip() == ("markers.xml: a named pipe (FIFO), not a file (reading it waits for "
                           "a writer, maybe for ever): give the marker set file"), out


@pytest.mark.parametrize("element", ["marker_set_file", "marker_file"])
@pytest.mark.parametrize("kind", ["named pipe", "device"])
def test_a_scale_setup_naming_a_pipe_or_device_says_what_it_is(tmp_path, element, kind):
    """A scale setup whose <marker_set_file> or static trial <marker_file> names a named pipe
    or a device was refused saying '/dev/zero does not exist': it exists, and the user is
    sent looking for a missing file. The refusal names the setup, the element and the path,
    and says what it is."""
    folder = tmp_path / "scale"
    shutil.copytree(os.path.join(os.path.dirname(__file__), "data", "scale", "gait2354"), folder)
    setup = folder / "subject01_Setup_Scale.xml"
    if kind == "named pipe":
        target = os.fspath(folder / "pipe")
        os.mkfifo(target)
    else:
        target = DEVICES[0]
    text = setup.read_text()
    if element == "marker_set_file":
        text = text.replace("<marker_set_file> gait2354_Scale_MarkerSet.xml </marker_set_file>",
                            f"<marker_set_file> {target} </marker_set_file>")
    else:
        text = text.replace("<marker_file> subject01_static.trc </marker_file>",
                            f"<marker_file> {target} </marker_file>")
    assert target in text
    setup.write_text(text)
    _, err = _run_with_alarm(tmp_path, "from urdf2dyn import cli\n"
                                       f"print('status', cli.main(['scale', {os.fspath(setup)!r}, "
                                       f"'-o', {os.fspath(folder / 'out.osim')!r}]))\n")
    assert f"error: {setup}: " in err and f"<{element}> {target}: a {kind}" in err, err
    assert "does not exist" not in err, err


def test_external_loads_keyword_naming_a_pipe_is_refused_in_the_keyword_words(tmp_path):
    """external_loads= (the library's keyword, read when the settings are built) naming a named
    pipe is refused as --external-loads is on the command line: the keyword before the pipe,
    then what it is and what to give (the keyword was once folded into 'give the ...')."""
    from urdf2dyn.biomech.stages import TrialSettings
    pipe = tmp_path / "loads.xml"
    os.mkfifo(pipe)
    with pytest.raises(OSError) as caught:
        TrialSettings.from_keywords(external_loads=pipe)
    assert str(caught.value) == (f"external_loads {pipe}: a named pipe (FIFO), not a file "
                                 "(reading it waits for a writer, maybe for ever): give the "
                                 "ExternalLoads file")


#: (setup kind, file of the setup's folder, element) of each file a setup names that a run
#: reads: a named pipe there was refused naming the pipe but not the element that named it
SETUP_PIPES = [("rra", "subject01_Setup_RRA.xml", tag) for tag in (
    "model_file", "force_set_files", "external_loads_file", "desired_kinematics_file",
    "task_set_file")] + [("rra", "subject01_walk1_grf.xml", "datafile")] + [
    ("id", "id.xml", tag) for tag in ("model_file", "coordinates_file", "external_loads_file")
] + [("id", "loads.xml", "datafile")] + [("ik", "ik.xml", tag)
                                         for tag in ("marker_file", "coordinate_file")]


def _setup_with_a_pipe(folder, kind, file, tag):
    """(command line, the file naming the pipe, the pipe) of a setup of kind whose file's
    <tag> names a named pipe, in a folder of its own."""
    import re
    from test_outputs_never_inputs import RRA_CASE, RRA_INPUTS, make_lab
    folder.mkdir()
    if kind == "rra":
        for name in RRA_INPUTS:
            shutil.copy(RRA_CASE / name, folder / name)
        argv = ["rra", folder / "subject01_Setup_RRA.xml", "--results-directory",
                folder / "out"]
    else:
        make_lab(folder)
        argv = (["torques", "--setup", folder / "id.xml", "--no-progress"] if kind == "id"
                else ["ik", "--setup", folder / "ik.xml"])
    suffix = {"model_file": ".osim" if kind == "rra" else ".urdf", "marker_file": ".trc"}.get(
        tag, ".mot" if tag in ("datafile", "coordinates_file", "coordinate_file",
                              "desired_kinematics_file") else ".xml")
    pipe = folder / f"pipe_{tag}{suffix}"      # what its reader reads: no other refusal first
    os.mkfifo(pipe)
    text, n = re.subn(rf"<{tag}>[^<]*</{tag}>", f"<{tag}> {pipe.name} </{tag}>",
                      (folder / file).read_text())
    assert n == 1, (file, tag)
    (folder / file).write_text(text)
    return [os.fspath(a) for a in argv], os.fspath(folder / file), os.fspath(pipe)


def test_a_named_pipe_a_setup_names_is_refused_naming_its_element(tmp_path):
    """An RRA setup's model, force set, ExternalLoads, desired kinematics and task set files,
    an ID setup's model, coordinates and ExternalLoads files, an IK setup's marker and
    coordinate files and an ExternalLoads file's <datafile>, each a named pipe: refused at
    once (no reader waits for a writer) naming the file, the element and the pipe, as a
    scale setup's <marker_file> is, so that the user knows which line to fix."""
    cases = [_setup_with_a_pipe(tmp_path / f"{k}_{kind}_{tag}", kind, file, tag)
             for k, (kind, file, tag) in enumerate(SETUP_PIPES)]
    proc = subprocess.run([sys.executable, "-c", PIPE_CHILD, json.dumps([a for a, _, _ in cases])],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env=_child_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    failures = []
    for (kind, _, tag), (_, file, pipe), (status, err) in zip(SETUP_PIPES, cases,
                                                                 json.loads(proc.stdout)):
        said = f"error: {file}: <{tag}> {pipe}: a named pipe (FIFO), not a file"
        if status != 1 or "Traceback" in err or said not in err:
            failures.append((kind, tag, status, err.strip()[-300:]))
    assert not failures, "\n".join(map(str, failures))
