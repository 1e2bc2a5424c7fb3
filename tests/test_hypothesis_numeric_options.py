"""Every numeric option of every command, given the numbers a parser meets at its edges (the
rule of issue 16: no input may end in a traceback or a runaway). test_cli_every_option fuzzes
every option with one list of values; its numbers stop at 1e308, which no integer option
parses, so an integer beyond a C long (ik --threads 99999999999999999999 ended in an
OverflowError traceback) and the other edges of number parsing were never tried.

The numeric options are read from the parser itself: an option whose type parses a number
(not a file name, a choice or KEY=LINK). Each run ends as run_cli's contract says, and a
refusal names the option the user gave (its flag), not an argument of the library (animate
--filter, convert --threshold and --time-range were refused as 'cutoff_hz', 'threshold' and
'time_range', or named the file only).
"""
import argparse
import concurrent.futures
import contextlib
import os
import shutil

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from test_cli_every_option import (BASE, _absolute, _arguments, _run_drawn,  # noqa: E402
                                   _write_case, COMMANDS)
from test_cli_hypothesis import PROFILE  # noqa: E402
from cli_here import run_here, working_in  # noqa: E402


def _takes_a_number(action):
    """An option whose value is a number: its type parses one of a few numbers (a file name,
    a choice or KEY=LINK it refuses; a bounded number, such as a stature in metres or a knot
    spacing in seconds, takes one of them)."""
    if not action.option_strings or action.nargs == 0 or action.choices or action.type is None:
        return False
    for probe in ("2", "1.7", "0.01"):
        try:
            action.type(probe)
            return True
        except (argparse.ArgumentTypeError, ValueError, TypeError):
            pass
    return False


CASES = [(command, action) for command in sorted(COMMANDS)
         for command_, action in _arguments(command) if _takes_a_number(action)]

#: the edges of number parsing: beyond a C long and a double, the non-finite, the signed
#: zero, the subnormal, spellings Python's int() and float() accept (underscores, other
#: scripts' digits, surrounding blanks) and those they refuse
EDGES = ["99999999999999999999", "-99999999999999999999", "9223372036854775808", "1e308",
         "1e309", "-1e308", "nan", "-nan", "inf", "Infinity", "-0", "0", "0.0", "5e-324",
         "1e-300", "1e18", "1_000", "0x10", " 2 ", "\u0968", "1,5", "1.5", "-1", "2", "", "."]


@st.composite
def numeric_command_line(draw, command, focus):
    """The command's base arguments and the numeric option in focus, once or twice, each of
    its values an edge (as --flag=VALUE at times: a value such as -1 stays the value)."""
    argv = list(BASE[command])
    for _ in range(draw(st.integers(1, 2))):
        count = focus.nargs if isinstance(focus.nargs, int) else 1
        values = [draw(st.sampled_from(EDGES)) for _ in range(count)]
        flag = draw(st.sampled_from(focus.option_strings))
        if count == 1 and flag.startswith("--") and draw(st.booleans()):
            argv.append(f"{flag}={values[0]}")
        else:
            argv += [flag, *values]
    return argv


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    folder = tmp_path_factory.mktemp("case")
    _write_case(folder)
    return folder


def test_the_numeric_options_are_found():
    """The selection above is not empty by accident: the options known to be numbers are in
    it, the file and choice options are not."""
    found = {(command, action.option_strings[-1]) for command, action in CASES}
    assert {("ik", "--threads"), ("torques", "--filter"), ("torques", "--jobs"),
            ("animate", "--every"), ("convert", "--threshold"), ("human", "--height"),
            ("rra", "--knot-interval"), ("equations", "--gravity")} <= found
    assert not {("torques", "--grf"), ("torques", "--contact"), ("torques", "--format"),
                ("human", "--sex")} & found


@pytest.mark.parametrize("command,action", CASES,
                         ids=[f"{c} {a.option_strings[-1]}" for c, a in CASES])
@settings(PROFILE, max_examples=3)
@given(data=st.data())
def test_numeric_options_at_their_edges_never_trace_back(case, tmp_path_factory, command,
                                                         action, data):
    argv, status, out, err = _run_drawn(
        [command] + data.draw(numeric_command_line(command, action), label="arguments"),
        case, tmp_path_factory)
    if status and command not in ("rra", "scale"):    # (those two refuse the IK setup)
        # the base case computes (test_each_base_case_computes): what is refused is the
        # option's value, and the refusal names the option as the user gave it
        hypothesis.event("refused")
        refusals = [line for line in err.splitlines() if " error: " in line]
        assert any(flag in line for line in refusals for flag in action.option_strings), \
            (argv, err)



@pytest.mark.parametrize("command,flag,values,status,says", [
    ("ik", "--threads", ["99999999999999999999"], 2, "argument --threads: 99999999999999999999:"
                                                     " too large (a number of threads, >= 1)"),
    ("ik", "--threads", ["0"], 2, "argument --threads: 0: a number of threads, >= 1"),
    ("convert", "--threshold", ["-5"], 2, "argument --threshold: -5: a force in N, >= 0"),
    ("convert", "--threshold", ["nan"], 2, "argument --threshold: nan: a force in N, >= 0"),
    ("animate", "--filter", ["nan"], 2, "argument --filter: nan: a cut-off frequency in Hz"),
    ("animate", "--filter", ["1e20"], 1, "error: {case}/trial.csv: --filter 1e+20: expected "
                                         "0 < cutoff < Nyquist"),
    # scipy's filtfilt pads 3 * (2 * order + 1) samples each end: 9, more than the trial's 8
    # named with the trial's file: which of many trials is too short
    ("torques", "--filter", ["2"], 1, "error: {case}/trial.csv: --filter 2: the Butterworth "
                                      "filter (order 2, run both ways) needs more than 9 "
                                      "samples, got 8"),
    ("animate", "--filter", ["1e-300"], 1, "error: {case}/trial.csv: --filter 1e-300: 1e-300 "
                                            "Hz is too low to filter data sampled at 100 Hz"),
    ("human", "--mass", ["1e-300"], 2, "argument --mass: 1e-300: a body mass in kg, 0.2 to 1000"),
    ("animate", "--time-range", ["nan", "1"], 2, "argument --time-range: nan: a finite time"),
    ("torques", "--time-range", ["1", "0"], 2,
     "argument --time-range: 1 0: T0 is after T1; give the start time first"),
    ("torques", "--time-range", ["5", "6"], 1,
     "error: --time-range 5 6: " + "{case}" + "/trial.csv: no sample in the time range"),
    # gravity's length overflowed: torques and animate said 'gravity: expected 3 finite
    # numbers (m/s^2)', which they were, naming no flag
    ("export-osim", "--gravity", ["1e200", "0", "0"], 2,
     "argument --gravity: 1e+200 0 0: its length overflows (components past ~1e154 m/s²); "
     "give components of a physical size, such as 0 0 -9.81"),
    ("torques", "--gravity", ["1e154", "1e154", "0"], 2,
     "argument --gravity: 1e+154 1e+154 0: its length overflows"),
    ("animate", "--gravity", ["0", "0", "1e200"], 2,
     "argument --gravity: 0 0 1e+200: its length overflows"),
    ("torques", "--jobs", ["99999999999999999999"], 2, "argument --jobs: 99999999999999999999: "
                                                       "too large (a number of processes, >= 1)"),
], ids=lambda v: (v if v.startswith("-") else "") if isinstance(v, str) else "")
def test_each_edge_once_refused_in_the_flags_words(case, tmp_path, command, flag, values,
                                                   status, says):
    """The refusals the property above found, each said once as the user reads it."""
    argv = [command] + [_absolute(t, case) for t in BASE[command]] + [flag, *values]
    with working_in(tmp_path):
        got, _, err = run_here(argv)
    assert "Traceback" not in err
    assert got == status and says.format(case=case) in err, err

@settings(PROFILE, max_examples=12)
@given(threads=st.one_of(
    st.sampled_from([0, -1, 2**63, 10**20, True, 1.5, "2", None, 1, 64, 65]), st.integers()))
def test_inverse_kinematics_threads_is_a_count_or_refused_by_name(threads):
    """Model.inverse_kinematics(threads=): None or an integer >= 1 fits (a count beyond the
    core's cap of 64 segments solved on the cap: the same fit, frame for frame, as with 64),
    anything else is refused naming the argument; never an OverflowError from the core."""
    import numpy as np
    import urdf2dyn
    from urdf2dyn.bundled import data_path
    from urdf2dyn.markers import Marker
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    markers = [Marker("tip", "link2", (0.0, 0.0, 0.0))]         # at link2's origin
    q = np.linspace(0, 0.3, 6)[:, None] * [1.0, -1.0]
    tip = model.forward_kinematics(q)[0][:, model.link_names.index("link2")]
    counts = isinstance(threads, int) and not isinstance(threads, bool) and threads >= 1
    if threads is not None and not counts:
        with pytest.raises(ValueError, match=r"inverse_kinematics: threads: expected an integer"):
            model.inverse_kinematics(tip[:, None, :], markers=markers, threads=threads)
        return
    fit = model.inverse_kinematics(tip[:, None, :], markers=markers, threads=threads)
    capped = model.inverse_kinematics(tip[:, None, :], markers=markers,
                                      threads=None if threads is None else min(threads, 64))
    assert np.array_equal(fit.q, capped.q)


@pytest.mark.parametrize("max_iter", [10**20, 2**31, 10_001, 0, -1, 1.5, True, "100", None])
def test_inverse_kinematics_max_iter_is_bounded_or_refused_by_name(max_iter):
    """Model.inverse_kinematics(max_iter=10**20) ended in an OverflowError ('Python int too
    large to convert to C long'), 2**31 in the core's 'too many markers or tasks, or max_iter
    < 1, or tolerance <= 0', 1.5 and True were taken as 1, and any count up to 2**31 - 1 was
    taken: a frame that does not converge then runs for hours. An integer from 1 to 10000 is
    taken; anything else is refused naming max_iter and its range."""
    import numpy as np
    import urdf2dyn
    from urdf2dyn.bundled import data_path
    from urdf2dyn.markers import Marker
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    markers = [Marker("tip", "link2", (0.0, 0.0, 0.0))]
    with pytest.raises(ValueError, match=r"inverse_kinematics: max_iter: expected an integer "
                                         r"from 1 to 10000 \(steps per frame"):
        model.inverse_kinematics(np.zeros((2, 1, 3)), markers=markers, max_iter=max_iter)


def test_inverse_kinematics_takes_the_most_iterations_it_allows():
    """10000 steps per frame (the bound) is taken: the refusal above stops beyond it, and a
    target the marker can reach (where it is at a known pose) is met."""
    import numpy as np
    import urdf2dyn
    from urdf2dyn.bundled import data_path
    from urdf2dyn.markers import Marker
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    markers = [Marker("tip", "link2", (0.0, 0.0, 0.0))]
    q = np.array([[0.3, 0.0]])
    target = model.forward_kinematics(q)[0][:, model.link_names.index("link2")]
    fit = model.inverse_kinematics(target[:, None, :], markers=markers, max_iter=10_000,
                                   threads=1)
    assert fit.max[0] < 1e-9


@settings(PROFILE, max_examples=5)
@given(jobs=st.one_of(st.sampled_from(["3", "1000", "2147483647"]),
                      st.integers(2, 2**31 - 1).map(str)))
def test_jobs_starts_no_more_processes_than_motions(case, tmp_path_factory, jobs):
    """torques --jobs N over two motions: at most two worker processes, whatever N (a pool of
    N processes was asked for: with --jobs 100000, a fork of the interpreter per worker).
    The pool is replaced by threads that record what was asked of it."""
    shutil.copy(case / "trial.csv", case / "walk2.csv")
    out = tmp_path_factory.mktemp("jobs")
    argv = ["torques", os.fspath(case / "r.urdf"), os.fspath(case / "trial.csv"),
            os.fspath(case / "walk2.csv"), "--jobs", jobs, "-o", os.fspath(out),
            "--no-progress"]
    with _recording_pools() as asked:
        status, _, err = run_here(argv)
    assert status == 0, err
    assert asked and max(asked) <= 2, asked


@contextlib.contextmanager
def _recording_pools():
    """concurrent.futures.ProcessPoolExecutor replaced, within the block, by a small thread
    pool recording the max_workers each pool is asked for (the list yielded)."""
    asked = []

    class Recorded(concurrent.futures.ThreadPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            asked.append(max_workers)
            super().__init__(max_workers=min(max_workers or 1, 4))

    real = concurrent.futures.ProcessPoolExecutor
    concurrent.futures.ProcessPoolExecutor = Recorded
    try:
        yield asked
    finally:
        concurrent.futures.ProcessPoolExecutor = real


@pytest.mark.parametrize("flag_type,text,says", [
    ("JOBS", "-99999999999", "-99999999999: a number of processes, >= 1"),
    ("GAP", "-3000000000", "-3000000000: a number of samples, >= 0"),
    ("THREADS", "99999999999999999999", "99999999999999999999: too large (a number of threads"),
    ("THREADS", "1" + "0" * 400, "1" + "0" * 400 + ": too large (a number of threads"),
    ("GAP", "-1" + "0" * 400, "-1" + "0" * 400 + ": a number of samples, >= 0"),
])
def test_an_integer_beyond_a_c_int_is_refused_by_its_own_bound(flag_type, text, says):
    """A negative integer beyond a C int is below the option's bound, not 'too large' (a
    reviewer's case: --jobs -99999999999 was called too large)."""
    from urdf2dyn.cli import options
    with pytest.raises(argparse.ArgumentTypeError) as e:
        getattr(options, flag_type)(text)
    assert str(e.value).startswith(says), e.value
