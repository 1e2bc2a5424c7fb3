"""Every option of every command, fuzzed (the rule of issue 16: no input may end in a traceback
or a runaway). The options are read from the parser itself, so that an option added to a
command is fuzzed from the day it is added: each case is one command and one of its options,
given a plausible value or an adversarial one (garbage text, NaN, infinities, negative and
huge numbers, empty, binary and missing files, a directory, the value of another option),
possibly twice, beside up to two other options of the same command. Each run ends in exit
status 0, 1 or 2 with ``error:`` lines, no traceback, the input files unchanged
(test_cli_hypothesis.run_cli's contract).

The files are robot2r's small case: its URDF, 8 samples of its trial, ground reactions on
link2 (as a CSV and as an OpenSim ExternalLoads file with its .mot), 5 frames of its two
markers (a .trc, the markers' CSV and an IK setup), a small C3D.
"""
import argparse
import contextlib
import io
import os
import shutil

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from urdf2dyn import cli  # noqa: E402
from urdf2dyn.bundled import data_path  # noqa: E402
from test_cli_hypothesis import PROFILE, WEIRD_CELLS, run_cli  # noqa: E402
import robot2r_ik_case  # noqa: E402
from cli_here import working_in  # noqa: E402

HERE = os.path.dirname(__file__)

LOADS = ('<?xml version="1.0"?><OpenSimDocument Version="40000"><ExternalLoads name="l">'
         '<objects><ExternalForce name="r"><isDisabled>false</isDisabled><applied_to_body>link2'
         '</applied_to_body><force_expressed_in_body>ground</force_expressed_in_body>'
         '<point_expressed_in_body>ground</point_expressed_in_body><force_identifier>f_v'
         '</force_identifier><point_identifier>f_p</point_identifier><torque_identifier>f_t'
         '</torque_identifier></ExternalForce></objects><datafile>g.mot</datafile>'
         '</ExternalLoads></OpenSimDocument>')


def _write_case(folder):
    """robot2r's small case in folder (the files the module docstring lists)."""
    shutil.copy(data_path("robot2r.urdf"), folder / "r.urdf")
    with open(data_path("robot2r_trajectory.csv")) as f:
        (folder / "trial.csv").write_text("".join(f.readlines()[:9]))
    t = np.arange(8) / 100
    (folder / "trial_grf.csv").write_text(
        "time,grfX_R,grfY_R,grfZ_R,copX_R,copY_R,copZ_R\n"
        + "".join(f"{x:g},1,2,30,0.1,0,0\n" for x in t))
    (folder / "g.mot").write_text(
        "g\nversion=1\nendheader\ntime\tf_vx\tf_vy\tf_vz\tf_px\tf_py\tf_pz\tf_tx\tf_ty\tf_tz\n"
        + "".join(f"{x:g}\t1\t2\t30\t0.1\t0\t0\t0\t0\t0\n" for x in t))
    (folder / "loads.xml").write_text(LOADS)
    robot2r_ik_case.write_case(folder)
    (folder / "map.json").write_text('{"joint1": "joint1", "joint2": "joint2"}')
    shutil.copy(os.path.join(HERE, "data", "c3d", "FP_Type3.c3d"), folder / "p.c3d")
    (folder / "empty.csv").write_text("")
    (folder / "junk.xml").write_bytes(bytes(range(256)) * 4)
    (folder / "sub").mkdir()


#: the case's files, by the name a value gives them (made absolute when run)
CASE_FILES = ["r.urdf", "trial.csv", "trial_grf.csv", "g.mot", "loads.xml", "walk.trc",
              "m.csv", "s.xml", "map.json", "p.c3d", "empty.csv", "junk.xml", "sub"]

#: values any option may be given, beside its plausible ones
ADVERSARIAL = CASE_FILES + WEIRD_CELLS + [
    "-1", "0", "1e308", "-1e308", "1e-320", "x:-90", "x:1e400", "q:9", "R=link2", "=", "a=",
    "{stem}_grf.csv", "{bogus}.csv", "{", "nowhere/x.csv", "missing.xml", "/", ".", "..",
    "out.csv", "out.sto", "out.mot", "out.trc", "out.gif", "out.png", "out.osim", "out.urdf",
    "C:\\data\\x.mot", "\u00e9\u00e8.csv", "a" * 300, "\n"]
# (no NUL: a command line cannot carry one, execve's arguments being C strings)

#: plausible values by option (dest): those the case computes with
PLAUSIBLE = {
    "grf": ["trial_grf.csv", "{dir}/{stem}_grf.csv"], "contact": ["R=link2"],
    "filter": ["6", "20"], "gravity": ["0", "-9.81"], "mass": ["8"], "residuals": ["res.csv"],
    "plot": ["t.png", "t.svg"], "speed": ["1.2"], "mapping": ["map.json"],
    "external_loads": ["loads.xml"], "ik_setup": ["s.xml"], "rotate": ["x:-90", "z:90,x:10"],
    "static": ["walk.trc"], "scaled_model": ["scaled.osim"], "max_gap": ["2"],
    "com_body": ["link2"], "jobs": ["1", "2"], "scheduler": ["nowhere:1"],
    "time_range": ["0", "0.05"], "setup": ["s.xml"], "model": ["r.urdf"], "markers": ["m.csv"],
    "marker_file": ["walk.trc"], "threads": ["1", "2"], "every": ["2"], "threshold": ["20"],
    "height": ["1.7"], "sex": ["f"], "name": ["arm"], "dot": ["t.dot"], "functions": ["rnea"],
    "knot_interval": ["0.1"], "results_directory": ["res"], "output_model": ["adj.osim"],
    "marker_set": ["m.csv"], "robot": ["r.urdf"], "motion": ["trial.csv"], "input": ["p.c3d"],
    "trial": ["trial.csv", "walk.trc"],
}

#: each command's arguments that make a run of its own (a required -o among them); rra and
#: scale get the IK setup, which they refuse: a run of theirs fits a gait model for minutes,
#: and their options are fuzzed on their own setups (tests/biomech/test_rra.py, test_scale.py)
BASE = {
    "torques": ["r.urdf", "trial.csv", "--no-progress"],
    "human": ["--height", "1.7", "--mass", "70", "--sex", "f", "-o", "h.urdf"],
    "info": ["r.urdf"], "check": ["r.urdf"], "equations": ["r.urdf"],
    "export-osim": ["r.urdf", "-o", "out.osim"], "codegen": ["r.urdf", "-o", "gen"],
    "convert": ["p.c3d", "-o", "out.trc"],
    "ik": ["--setup", "s.xml", "--model", "r.urdf", "--markers", "m.csv"],
    "animate": ["r.urdf", "trial.csv", "--every", "4"],
    "rra": ["s.xml"], "scale": ["s.xml"],
}

_PARSER = cli.build_parser()
COMMANDS = next(a for a in _PARSER._actions
                if isinstance(a, argparse._SubParsersAction)).choices


def _arguments(command):
    """(command, argparse action) of each argument a user may give, positionals included."""
    return [(command, a) for a in COMMANDS[command]._actions
            if a.dest != "help" and not isinstance(a, argparse._VersionAction)]


CASES = [case for command in sorted(COMMANDS) for case in _arguments(command)]


def _name(action):
    return (action.option_strings or [action.dest])[-1]


#: plausible outputs (-o) by command
OUTPUT = {"torques": ["out.csv", "out.sto", "out.mot"], "human": ["h.urdf"],
          "export-osim": ["out.osim"], "codegen": ["gen"], "convert": ["out.trc", "out.mot"],
          "ik": ["out.mot"], "animate": ["out.gif"], "scale": ["out.osim"]}


@st.composite
def value(draw, command, action, focus):
    """One value for an action: among its choices, a plausible one, or an adversarial one
    (half the time for the option in focus, one time in five for the others: so that the
    focus is seen both refused and computing)."""
    plausible = list(action.choices or ()) + PLAUSIBLE.get(action.dest, [])
    if action.dest == "output":
        plausible = OUTPUT[command]
    odd = draw(st.integers(0, 9)) < (5 if focus else 2)
    return draw(st.sampled_from(ADVERSARIAL if odd or not plausible else plausible))


@st.composite
def given_as(draw, command, action, focus=False):
    """The tokens giving an action on a command line: the flag (one of its spellings, with its
    value in --flag=VALUE form at times) and its values; a positional's values."""
    if action.nargs == 0:
        return [draw(st.sampled_from(action.option_strings))]
    count = action.nargs if isinstance(action.nargs, int) else 1 if action.nargs is None \
        else draw(st.integers({"?": 0, "*": 0, "+": 1}[action.nargs],
                              {"?": 1, "*": 2, "+": 2}[action.nargs]))
    values = [draw(value(command, action, focus)) for _ in range(count)]
    if not action.option_strings:
        return values
    flag = draw(st.sampled_from(action.option_strings))
    if count == 1 and flag.startswith("--") and draw(st.booleans()):
        return [f"{flag}={values[0]}"]          # a value such as -1 or --x stays the value
    return [flag, *values]


@st.composite
def command_line(draw, command, focus):
    """The command's base arguments and the focus action (once or twice), with up to two
    other options of the command, in any order; a positional in focus replaces the base's."""
    options = [a for _, a in _arguments(command) if a.option_strings and a is not focus]
    chosen = [focus] * draw(st.integers(1, 2)) if focus.option_strings else []
    chosen += draw(st.lists(st.sampled_from(options), max_size=2)) if options else []
    chosen = draw(st.permutations(chosen))
    base = list(BASE[command])
    if not focus.option_strings:
        positionals = [a for _, a in _arguments(command) if not a.option_strings]
        k = positionals.index(focus)
        base[k:k + 1] = draw(given_as(command, focus, focus=True))
    return base + [token for action in chosen
                   for token in draw(given_as(command, action, focus=action is focus))]


def _absolute(token, case):
    """A token naming one of the case's files, made the case's absolute path (the run's
    working directory is an empty folder of its own: what it writes lands there)."""
    for name in CASE_FILES:
        if token == name or token.endswith("=" + name):
            return token[:len(token) - len(name)] + os.fspath(case / name)
    return token


#: the options that name what a command writes
OUTPUTS = ("output", "residuals", "plot", "dot", "scaled_model", "results_directory",
           "output_model")


def _outputs(argv):
    """The values argv gives the output options, as the command line parses them (none when
    it refuses the arguments: then nothing is written)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            args = cli.build_parser().parse_args(argv)
    except SystemExit:
        return set()
    values = [getattr(args, dest, None) for dest in OUTPUTS]
    return {v for value in values if value
            for v in (value if isinstance(value, list) else [value])}


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    folder = tmp_path_factory.mktemp("case")
    _write_case(folder)
    return folder


@pytest.mark.parametrize("command,action", CASES, ids=[f"{c} {_name(a)}" for c, a in CASES])
@settings(PROFILE, max_examples=max(2, PROFILE.max_examples // 60))
@given(data=st.data())
def test_every_option_of_every_command_never_traces_back(case, tmp_path_factory, command,
                                                          action, data):
    _run_drawn([command] + data.draw(command_line(command, action), label="arguments"),
               case, tmp_path_factory)


def _run_drawn(argv, case, tmp_path_factory):
    """(the command line run, its status, stdout, stderr): a drawn command line, its case
    files given by path, run by run_cli in a folder of its own (a bare output lands there),
    every case file it does not write left as it was."""
    argv = [_absolute(token, case) for token in argv]
    written = _outputs(argv)            # a case file named as an output may be replaced
    inputs = [os.fspath(case / name) for name in CASE_FILES
              if (case / name).is_file() and os.fspath(case / name) not in written]
    try:
        with working_in(tmp_path_factory.mktemp("run")):
            status, out, err = run_cli(argv, inputs)
    finally:
        if any(os.fspath(case / name) in written for name in CASE_FILES):
            shutil.rmtree(case)         # a case file replaced (human -o r.urdf): the next
            case.mkdir()                # example starts from the case as written
            _write_case(case)
    return argv, status, out, err


@pytest.mark.parametrize("command", sorted(set(COMMANDS) - {"rra", "scale"}))
def test_each_base_case_computes(tmp_path, tmp_path_factory, command):
    """The fuzz above is seen computing, not only refusing: each command's base arguments
    alone run to exit status 0."""
    _write_case(tmp_path)
    argv = [command] + [_absolute(token, tmp_path) for token in BASE[command]]
    err = io.StringIO()
    with working_in(tmp_path_factory.mktemp("run")), \
            contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    assert status == 0, err.getvalue()
