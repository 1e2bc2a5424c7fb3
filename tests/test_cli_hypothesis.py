"""Never a traceback, never a runaway (issue 16): Hypothesis-generated motion and force files
and option values run through the command line, each ending within seconds with a result or
an ``error:`` line (exit status 1 or 2) and the input files unchanged; mutated URDF text through
urdf2dyn.load ends in a model or a URDFError / ValueError / FileNotFoundError with a message.

CI runs the ``ci`` profile (bounded, derandomized: the same examples every run). For a longer
local hunt: ``HYPOTHESIS_PROFILE=long pytest tests/test_cli_hypothesis.py`` (docs/robustness.rst).
"""
import contextlib
import hashlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import example, given, settings, strategies as st  # noqa: E402

import urdf2dyn  # noqa: E402
from urdf2dyn import cli  # noqa: E402
from urdf2dyn.bundled import data_path  # noqa: E402
from text_edits import edited  # noqa: E402
from cli_here import working_in  # noqa: E402

#: This file's examples per test under each profile of the suite (tests/conftest.py), whose
#: other settings it keeps (registering its own under their names would change the suite's)
_EXAMPLES = {"ci": 40, "long": 2000}
PROFILE = settings(settings.default, max_examples=_EXAMPLES.get(
    os.environ.get("HYPOTHESIS_PROFILE", "ci"), settings.default.max_examples))

#: Seconds one CLI run may take before it counts as a runaway (generous: 2 shared cores).
RUNAWAY_S = 30


class Runaway(Exception):
    pass


@contextlib.contextmanager
def bounded(seconds=RUNAWAY_S):
    """Fail (Runaway) if the block runs longer than seconds."""
    def alarm(signum, frame):
        raise Runaway(f"still running after {seconds} s")
    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run_cli(argv, inputs):
    """Run the CLI in this process; check the contract; returns (status, stdout, stderr)."""
    before = {p: digest(p) for p in inputs}
    out, err = io.StringIO(), io.StringIO()
    with bounded(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings():
        try:
            status = cli.main(argv)
        except SystemExit as e:                   # argparse
            status = e.code
    out, err = out.getvalue(), err.getvalue()
    assert "Traceback" not in err, err
    assert status in (0, 1, 2), (status, err)
    if status and argv[0] == "check":       # a report on stdout, as compilers: 'FILE: error:'
        assert "error:" in err or " errors, " in out or " error, " in out, (out, err)
    elif status:
        assert "error:" in err, err
    assert {p: digest(p) for p in inputs} == before, "an input file changed"
    hypothesis.event(f"exit status {status}")     # --hypothesis-show-statistics: the mix
    return status, out, err


# ----------------------------------------------------------------------------- strategies

DELIMITERS = [",", ";", "\t", " ", "  "]
WEIRD_CELLS = ["", " ", "nan", "NaN", "NA", "abc", "1,5", "-0,25", "1e999", "-1e999", "1e308",
               "-1e-320", "5e-324", "inf", "-inf", '"2"', "#", "1_000", "0x10", "1.5.2", "--",
               "\u00b0", "1e", "."]

number_text = st.one_of(
    st.floats(0.5, 100).map(lambda x: f"{x:.4g}"),
    st.floats(-10, 10).map(repr),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-10**20, 10**20).map(str),
    st.sampled_from(WEIRD_CELLS))
cell = st.one_of(st.floats(-3, 3).map(lambda x: f"{x:.6g}"), number_text,
                 st.text(max_size=4))


@st.composite
def motion_text(draw, names):
    """CSV text: mostly a well-formed table of names, with the classes of trouble labs meet."""
    header = draw(st.one_of(
        st.just(["time", *names]),
        st.lists(st.sampled_from(["time", *names, *names, "foo", "", "x_vel", "Time"]),
                 max_size=6),
        st.permutations(["time", *names]).map(list)))
    n = draw(st.integers(0, 30))
    kind = draw(st.sampled_from(["regular", "regular", "shuffled", "random"]))
    rows = []
    for k in range(n):
        if kind == "random":
            rows.append(draw(st.lists(cell, max_size=len(header) + 2)))
        else:
            row = [f"{0.01 * k:.6g}"] + [draw(st.floats(-2, 2).map(lambda x: f"{x:.6g}"))
                                          for _ in header[1:]]
            if draw(st.integers(0, 9)) == 0:           # a blank or text cell
                row[draw(st.integers(0, max(len(row) - 1, 0)))] = draw(cell)
            rows.append(row)
    if kind == "shuffled":
        rows = draw(st.permutations(rows))
    delim = draw(st.sampled_from(DELIMITERS))
    if draw(st.booleans()) and delim not in (",",):    # decimal commas with ; tab space
        rows = [[c.replace(".", ",") for c in r] for r in rows]
    lines = [delim.join(header)] + [delim.join(r) for r in rows]
    if lines and draw(st.integers(0, 4)) == 0:         # a truncated last line
        lines[-1] = lines[-1][:draw(st.integers(0, len(lines[-1])))]
    if draw(st.integers(0, 5)) == 0:                  # trailing delimiters
        lines = [line + delim for line in lines]
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = eol.join(lines) + draw(st.sampled_from(["", eol, eol + eol]))
    return draw(st.sampled_from(["", "\ufeff"])) + text


#: a published ScaleTool setup (the torques --scale options): on the 2R arm it is refused
SCALE_SETUP = os.path.join(os.path.dirname(__file__), "data", "scale", "gait2354",
                           "subject01_Setup_Scale.xml")


@st.composite
def torques_options(draw, motion):
    """Random option values, each flag at most once (argparse keeps the last anyway)."""
    groups = {
        "--mass": [draw(number_text)],
        "--filter": [draw(number_text)],
        "--max-gap": [draw(st.one_of(st.integers(-3, 40).map(str), number_text))],
        "--gravity": [draw(number_text) for _ in range(3)],
        "--speed": [draw(number_text)],
        "--derivatives": [draw(st.sampled_from(["gradient", "savgol", "spline", "opensim",
                                                "bogus"]))],
        "--couplers": [draw(st.sampled_from(["keep", "eliminate", "none"]))],
        "--delimiter": [draw(st.sampled_from(["comma", "semicolon", "tab", "whitespace",
                                              ";", "|"]))],
        "--decimal": [draw(st.sampled_from([".", ",", "x"]))],
        "--contact": [draw(st.sampled_from(["R=link2", "R", "=x", "L=nolink"]))],
        "--filter-loads": [draw(st.sampled_from(["yes", "no", "maybe"]))],
        "--rate": [draw(st.sampled_from(["analog", "marker", "frame"]))],
        "--cycles": [draw(st.sampled_from(["plates", "events", "steps"]))],
        "--scale": [draw(st.sampled_from(["missing.xml", motion, SCALE_SETUP, ""]))],
        "--static": [draw(st.sampled_from(["static.trc", motion, "static.c3d"]))],
        "--scaled-model": [draw(st.sampled_from(["scaled.osim", motion, SCALE_SETUP]))],
        "-o": [draw(st.sampled_from(["out.csv", "out.sto", "out.txt", motion, "sub/out.csv"]))],
        "--residuals": [draw(st.sampled_from(["res.csv", "res.png", motion]))],
        "--com-body": [draw(st.sampled_from(["link1", "link2", "nolink", ""]))],
        "--format": [draw(st.sampled_from(["csv", "sto", "xml"]))],
        # the test writes map.json and map.csv (the arm's names renamed to themselves)
        "--mapping": [draw(st.sampled_from(["map.json", "map.csv", "missing.json", motion]))],
        "--jobs": [draw(st.sampled_from(["1", "2", "0", "x"]))],
        # with one motion never reached for: an address that would hang or fail is harmless
        "--scheduler": [draw(st.sampled_from(["tcp://127.0.0.1:1", "nowhere", ""]))],
        "--degrees": [], "--per-kg": [], "--strict": [], "--floating-base": [], "-v": [],
        "--reduce-residuals": [],
    }
    chosen = draw(st.lists(st.sampled_from(sorted(groups)), unique=True, max_size=3))
    argv = []
    for flag in chosen:
        values = groups[flag]
        # --flag=VALUE: a value such as -57 or --x stays the flag's value
        argv += [f"{flag}={values[0]}"] if len(values) == 1 and flag != "-o" else [flag, *values]
    return argv


# ----------------------------------------------------------------------------- the CLI

#: the 2R arm's own trial (its first 60 rows): a motion file that computes
ARM_TRIAL = "".join(Path(data_path("robot2r_trajectory.csv")).read_text()
                    .splitlines(keepends=True)[:61])


@settings(PROFILE)
@given(data=st.data())
def test_random_motion_files_and_options_never_trace_back(data):
    names = ["joint1", "joint2"]                            # robot2r.urdf
    with tempfile.TemporaryDirectory() as tmp:
        motion = os.path.join(tmp, "trial.csv")
        # the arm's trial (in UTF-8) half the time, and options half the time, so that the
        # options are seen computing too
        good, with_options = data.draw(st.tuples(st.booleans(), st.booleans()), label="kind")
        raw = ARM_TRIAL if good else data.draw(motion_text(names), label="motion")
        encoding = "utf-8" if good else data.draw(st.sampled_from(["utf-8", "cp1252",
                                                                    "utf-16"]), label="encoding")
        with open(motion, "wb") as f:
            f.write(raw.encode(encoding, errors="replace"))
        options = data.draw(torques_options("trial.csv"), label="options") if with_options \
            else []
        with open(os.path.join(tmp, "map.json"), "w") as f:
            json.dump({n: n for n in names}, f)
        with open(os.path.join(tmp, "map.csv"), "w") as f:
            f.write("".join(f"{n},{n}\n" for n in names))
        with working_in(tmp):
            status, out, err = run_cli(["torques", data_path("robot2r.urdf"), "trial.csv",
                                        "--no-progress", *options], [motion])
        if "sub/out.csv" in options:   # no folder sub: refused before the motion is read
            assert status == 2, err
        if raw == ARM_TRIAL and encoding != "utf-16" and not options:
            hypothesis.event("the arm's trial without options: computed")
            assert status == 0, err
        if status == 0:
            assert "motion: trial.csv" in out
        _check_batch_options(options, status, err)
        if "--mapping=missing.json" in options and status != 2:   # not refused earlier
            assert status == 1 and "--mapping missing.json" in err, err


def _check_batch_options(options, status, err):
    """One motion: --format is refused unless it agrees with -o's file (csv; sto or mot),
    --jobs and --scheduler are warned about whenever the trial computed."""
    given = dict(o.split("=", 1) for o in options if o.startswith("--") and "=" in o)
    output = options[options.index("-o") + 1] if "-o" in options else None
    fmt = given.get("--format")
    if fmt == "xml":
        assert status == 2, err
    if status == 0 and fmt and output:
        hypothesis.event("--format with one output file: computed")
        assert os.path.splitext(output)[1] in {"csv": (".csv",), "sto": (".sto", ".mot")}[fmt]
    for flag in ("--jobs", "--scheduler"):
        if status == 0 and flag in given:
            hypothesis.event(f"{flag} with one motion: computed")
            assert f"warning: {flag} {given[flag]}: spreads several motions" in err


def _trial_lines(name, rows=40):
    with open(data_path(name)) as f:
        return f.read().splitlines()[:rows + 1]


MOTION_LINES = _trial_lines("running_a_3ms.csv")
GRF_LINES = _trial_lines("running_a_3ms_grf.csv")


@st.composite
def mutated_table(draw, lines):
    """A real table (the bundled trial or its ground reactions) with lab-style damage."""
    rows = [line.split(",") for line in lines]
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.sampled_from(["blank", "text", "huge", "truncate", "header_only",
                                     "duplicate_column", "drop_column", "shuffle_time",
                                     "semicolon_decimal_comma", "tab", "drop_rows"]))
        if what == "header_only":
            rows = rows[:1]
        elif len(rows) < 2 or not rows[0] or not all(rows):
            continue
        elif what in ("blank", "text", "huge"):
            r = draw(st.integers(1, len(rows) - 1))
            c = draw(st.integers(0, len(rows[r]) - 1))
            rows[r][c] = {"blank": "", "text": draw(st.sampled_from(["abc", "n/a", "-"])),
                          "huge": draw(st.sampled_from(["1e300", "-1e300", "1e-310", "inf"]))
                          }[what]
        elif what == "truncate":
            r = draw(st.integers(1, len(rows) - 1))
            rows[r] = rows[r][:draw(st.integers(0, len(rows[r])))]
        elif what == "duplicate_column":
            c = draw(st.integers(0, len(rows[0]) - 1))
            rows = [r + r[c:c + 1] for r in rows]
        elif what == "drop_column":
            c = draw(st.integers(0, len(rows[0]) - 1))
            rows = [r[:c] + r[c + 1:] for r in rows]
        elif what == "shuffle_time":
            i, j = draw(st.integers(1, len(rows) - 1)), draw(st.integers(1, len(rows) - 1))
            rows[i], rows[j] = rows[j], rows[i]
        elif what == "drop_rows":
            rows = rows[:draw(st.integers(1, len(rows)))]
        elif what == "semicolon_decimal_comma":
            return "\n".join(";".join(c.replace(".", ",") for c in r) for r in rows) + "\n"
        elif what == "tab":
            return "\r\n".join("\t".join(r) for r in rows) + "\r\n"
    return "\n".join(",".join(r) for r in rows) + "\n"


@st.composite
def reformatted_table(draw, lines):
    """The same table (the bundled trial or its ground reactions) as other lab software
    writes it: the columns after time in another order; comma-, tab- or semicolon-separated
    (then with decimal commas); LF or CRLF line ends. The same numbers must be read."""
    rows = [line.split(",") for line in lines]
    order = [0] + draw(st.permutations(range(1, len(rows[0]))))
    rows = [[r[k] for k in order] for r in rows]
    end = draw(st.sampled_from(["\n", "\r\n"]))
    delimiter = draw(st.sampled_from([",", "\t", ";"]))
    if delimiter == ";":
        rows = [[c.replace(".", ",") for c in r] for r in rows]
    return end.join(delimiter.join(r) for r in rows) + end


def _torques(motion, grf, extra):
    """urdf2dyn torques on a motion and a ground-reaction text, with extra options:
    (exit status, {file written: its text})."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, text in (("trial.csv", motion), ("trial_grf.csv", grf)):
            paths.append(os.path.join(tmp, name))
            with open(paths[-1], "w", newline="") as f:
                f.write(text)
        argv = ["torques", "humod_subject_a.urdf", paths[0], "--grf", paths[1], "-o",
                os.path.join(tmp, "out.csv"), "--no-progress"]
        for opt in extra:
            argv += [opt[0], os.path.join(tmp, opt[1])] if opt[0] == "--residuals" else opt
        status, _, _ = run_cli(argv, paths)
        written = {}
        for name in ("out.csv", "res.csv"):
            if os.path.exists(os.path.join(tmp, name)):
                with open(os.path.join(tmp, name)) as f:
                    written[name] = f.read()
        return status, written


_AS_PUBLISHED = {}          # extra options -> what the bundled trial itself gives


@settings(PROFILE, max_examples=PROFILE.max_examples // 2)
# found by the long profile: a header-only ground-reaction file ended in an IndexError
@example(tables=("damaged", "\n".join(MOTION_LINES) + "\n", GRF_LINES[0] + "\n"), extra=[])
@given(tables=st.one_of(
           st.tuples(st.just("damaged"), mutated_table(MOTION_LINES), mutated_table(GRF_LINES)),
           st.tuples(st.just("reformatted"), reformatted_table(MOTION_LINES),
                     reformatted_table(GRF_LINES))),
       extra=st.lists(st.sampled_from([["--filter", "20"], ["--per-kg"], ["--strict"],
                                       ["--max-gap", "0"], ["--mass", "57.3"],
                                       ["--residuals", "res.csv"]]), max_size=3))
def test_damaged_human_trials_never_trace_back(tables, extra):
    """The bundled trial written as other lab software writes it gives, with any options,
    what the trial as published gives (the same exit status, the same files to the bit);
    damaged, a result or an error line, never a traceback."""
    kind, motion, grf = tables
    status, written = _torques(motion, grf, extra)
    if kind == "reformatted":
        key = json.dumps(extra)
        if key not in _AS_PUBLISHED:
            _AS_PUBLISHED[key] = _torques("\n".join(MOTION_LINES) + "\n",
                                          "\n".join(GRF_LINES) + "\n", extra)
        assert (status, written) == _AS_PUBLISHED[key]
    elif status == 0:
        assert "out.csv" in written


OTHER_COMMANDS = {"info": ["--dot", "--plot", "--full", "--floating-base", "--strict"],
                  "check": ["--floating-base", "--strict"],
                  "codegen": ["--lang", "--functions", "--floating-base", "--name", "-o",
                              "--float", "--strict"],
                  "export-osim": ["-o", "--gravity"],
                  "equations": ["--gravity", "--floating-base", "--latex", "--parameters"]}

#: the options that take no value
SWITCHES = ("--full", "--floating-base", "--strict", "--float", "--latex", "--parameters")


@settings(PROFILE)
@given(argv=st.one_of(
    st.tuples(st.just("human"),
              st.lists(st.sampled_from(["--height", "--mass", "--sex", "--subject", "--root",
                                        "--name", "-o"]), unique=True, max_size=5),
              st.lists(st.one_of(number_text, st.sampled_from(
                  ["f", "male", "x", "A", "c", "floating", "h.urdf", "h.txt", ""])),
                  min_size=5, max_size=5)),
    # each command with its own options (with any option of any command, argparse refused
    # nearly every example: unrecognized arguments; the commands were not seen running)
    st.sampled_from(sorted(OTHER_COMMANDS)).flatmap(lambda command: st.tuples(
        st.just(command),
        st.lists(st.sampled_from(OTHER_COMMANDS[command]), unique=True, max_size=3),
        st.lists(st.one_of(number_text, st.sampled_from(
            ["t.dot", "t.png", "out", "x.osim", "c", "matlab", "rnea", "../n", "-"])),
            min_size=5, max_size=5)))))
@example(argv=("human", ["--height", "--mass", "--sex"], ["1.61", "57.3", "x", "", ""]))
@example(argv=("human", ["--height", "--mass", "--sex", "-o"],
               ["1.61", "5000", "f", "nowhere/h.urdf", ""]))
def test_random_options_of_the_other_commands_never_trace_back(argv):
    command, flags, values = argv
    line = [command]
    if command != "human":
        line.append(data_path("robot2r.urdf"))
    for flag, value in zip(flags, values):
        if flag in SWITCHES:
            line.append(flag)
        elif flag == "--gravity":
            line += [flag, value, "0", "-9.81"]
        else:
            line.append(f"{flag}={value}")
    if command in ("codegen", "export-osim", "human") and "-o" not in flags:
        line += ["-o", {"codegen": "gen", "export-osim": "m.osim", "human": "h.urdf"}[command]]
    with tempfile.TemporaryDirectory() as tmp:
        with working_in(tmp):
            status, out, err = run_cli(line, [data_path("robot2r.urdf")])
        code = [Path(os.path.join(d, f)).read_text() for d, _, names in os.walk(tmp)
                for f in names if f.endswith((".c", ".h", ".py", ".m"))]
    if command == "human":          # reads no file: every refusal is a command-line mistake
        assert status in (0, 2), err
    if command == "codegen" and status == 0:      # C, NumPy and MATLAB alike
        hypothesis.event("codegen: written")
        assert code and any("double" in text for text in code) != ("--float" in flags)
    if command == "equations" and status == 0:
        hypothesis.event("equations: printed")
        assert ("begin{matrix}" in out) == ("--latex" in flags)
        assert ("\nparameters: " in out) == ("--parameters" in flags)


def _torques_only_flags():
    """The options of urdf2dyn torques animate's parser lacks, as the two parsers say."""
    import argparse
    commands = next(a for a in cli.build_parser()._actions
                    if isinstance(a, argparse._SubParsersAction)).choices
    own = {f for a in commands["animate"]._actions for f in a.option_strings}
    return sorted(f for a in commands["torques"]._actions if a.option_strings
                  and not set(a.option_strings) & own for f in a.option_strings)


@settings(PROFILE)
@given(flags=st.lists(st.sampled_from(_torques_only_flags()), min_size=1, max_size=4),
       values=st.lists(st.one_of(number_text, st.sampled_from(
           ["g.csv", "s.xml", "=", "-", "--", "eliminate", "marker", ""])), min_size=4,
           max_size=4),
       joined=st.lists(st.booleans(), min_size=4, max_size=4), first=st.booleans())
def test_torques_options_given_to_animate_never_trace_back(flags, values, joined, first):
    """A torques command line copied to animate (any of torques' options animate lacks, with
    any value, as --opt=VALUE or --opt VALUE, before or after the files): refused with exit
    status 2 naming the first option, never a traceback. (--opt=VALUE with a space in VALUE
    is a positional argument to argparse, not an option: written --opt VALUE here.)"""
    extra = []
    for flag, value, eq in zip(flags, values, joined):
        extra += [f"{flag}={value}"] if eq and " " not in value else [flag, value]
    files = [data_path("robot2r.urdf"), data_path("robot2r_trajectory.csv")]
    line = ["animate", *(extra + files if first else files + extra)]
    with tempfile.TemporaryDirectory() as tmp:
        with working_in(tmp):
            status, _, err = run_cli(line, files)
        assert not os.listdir(tmp)
    assert status == 2 and f"{flags[0]} is an option of urdf2dyn torques" in err, err


@settings(PROFILE, max_examples=min(PROFILE.max_examples, 20))
@given(fmt=st.sampled_from([None, "csv", "sto"]), ext=st.sampled_from([".csv", ".sto", ".mot"]),
       jobs=st.sampled_from([None, "1", "3"]),
       scheduler=st.sampled_from([None, "tcp://127.0.0.1:1", "nowhere"]))
def test_batch_options_with_one_motion(fmt, ext, jobs, scheduler):
    """--format, --jobs and --scheduler shape a batch of several motions. With the arm's one
    trial: a --format that contradicts -o's extension is refused and nothing written; else
    the file is written in its extension's format, and --jobs / --scheduler are warned about
    (never reached for: the address would hang or fail)."""
    agrees = fmt is None or ext in {"csv": (".csv",), "sto": (".sto", ".mot")}[fmt]
    argv = ["torques", data_path("robot2r.urdf"), "trial.csv", "-o", "out" + ext,
            "--no-progress"]
    for flag, value in (("--format", fmt), ("--jobs", jobs), ("--scheduler", scheduler)):
        argv += [flag, value] if value else []
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "trial.csv"), "w") as f:
            f.write(ARM_TRIAL)
        with working_in(tmp):
            status, _, err = run_cli(argv, [os.path.join(tmp, "trial.csv")])
        written = os.path.join(tmp, "out" + ext)
        first = (Path(written).read_text().splitlines()[0] if os.path.exists(written)
                 else None)
    if not agrees:
        assert status == 2 and f"--format {fmt}" in err and first is None, err
        return
    assert status == 0, err
    assert first.startswith("time,") == (ext == ".csv")
    for flag, value in (("--jobs", jobs), ("--scheduler", scheduler)):
        assert (f"warning: {flag} {value}: spreads several motions" in err) == bool(value)


_MAPPED_REFERENCE = {}      # the arm's trial as published: its torques file


@settings(PROFILE, max_examples=min(PROFILE.max_examples, 20), deadline=None)
@given(columns=st.lists(st.sampled_from(["joint1", "joint2", "q1", "Shoulder", "elbow angle",
                                         "x"]), min_size=2, max_size=2, unique=True),
       kind=st.sampled_from(["json", "csv"]),
       damage=st.sampled_from([None, None, None, "missing", "not_a_mapping", "no_such_coord"]))
def test_mapping_option_renames_the_columns(columns, kind, damage):
    """--mapping FILE: the arm's trial with its columns renamed (swapped, or lab names) and a
    mapping back to the model's names gives the published trial's torques to the bit; a
    missing file, a file that is no mapping, or a mapping to no coordinate of the model is
    refused naming the option or the file."""
    header, *rows = ARM_TRIAL.splitlines()
    assert header.split(",") == ["time", "joint1", "joint2"]
    pairs = dict(zip(columns, ["joint1", "joint2"]))
    if damage == "no_such_coord":
        pairs[columns[1]] = "joint9"
    text = (json.dumps(pairs) if kind == "json" else
            "".join(f"{a},{b}\n" for a, b in pairs.items()))
    if damage == "not_a_mapping":
        text = "[1, 2" if kind == "json" else "just one column\n"
    with tempfile.TemporaryDirectory() as tmp:
        def torques(motion_text, mapping):
            with open(os.path.join(tmp, "trial.csv"), "w") as f:
                f.write(motion_text)
            out = os.path.join(tmp, "out.csv")
            if os.path.exists(out):
                os.remove(out)
            argv = ["torques", data_path("robot2r.urdf"), os.path.join(tmp, "trial.csv"),
                    "-o", out, "--no-progress"] + (["--mapping", mapping] if mapping else [])
            status, _, err = run_cli(argv, [os.path.join(tmp, "trial.csv")])
            return status, err, Path(out).read_text() if os.path.exists(out) else None
        if not _MAPPED_REFERENCE:
            _MAPPED_REFERENCE["out"] = torques(ARM_TRIAL, None)[2]
        mapping = os.path.join(tmp, f"map.{kind}")
        if damage != "missing":
            with open(mapping, "w") as f:
                f.write(text)
        renamed = "\n".join([",".join(["time", *columns]), *rows]) + "\n"
        status, err, written = torques(renamed, mapping)
    if damage is None:
        assert status == 0, err
        assert written == _MAPPED_REFERENCE["out"]
    elif damage == "missing":
        assert status == 1 and f"--mapping {mapping}" in err, err
    else:                       # the message names the mapping file, or the name it gives
        assert status != 0 and written is None, err
        assert os.path.basename(mapping) in err or "joint9" in err, err


@settings(PROFILE, max_examples=min(PROFILE.max_examples, 12), deadline=None)
@given(st.one_of(
    st.tuples(st.just("codegen"), st.sampled_from(["c", "python", "matlab"]), st.booleans(),
              st.lists(st.sampled_from(["rnea", "crba", "aba", "fk", "jtf"]), min_size=1,
                       max_size=3, unique=True)),
    st.tuples(st.just("equations"), st.booleans(), st.booleans(), st.booleans())))
def test_code_and_equation_switches(case):
    """codegen --float writes single precision in every language (no 'double' left: C float,
    NumPy float32, MATLAB single), without it double; equations --latex prints LaTeX
    matrices, --parameters the symbols' values."""
    with tempfile.TemporaryDirectory() as tmp:
        if case[0] == "codegen":
            _, lang, single, functions = case
            argv = ["codegen", data_path("robot2r.urdf"), "--lang", lang, "--functions",
                    *functions, "-o", os.path.join(tmp, "gen")] + (["--float"] if single else [])
        else:
            _, latex, parameters, floating = case
            argv = ["equations", data_path("robot2r.urdf")] + [
                flag for flag, on in (("--latex", latex), ("--parameters", parameters),
                                      ("--floating-base", floating)) if on]
        status, out, err = run_cli(argv, [data_path("robot2r.urdf")])
        code = [Path(os.path.join(d, f)).read_text() for d, _, names in os.walk(tmp)
                for f in names]
    if case[0] == "equations" and case[3]:      # 2 + 6 DoF: above the equations' limit
        assert status != 0 and "Traceback" not in err
        return
    assert status == 0, err
    if case[0] == "codegen":
        assert code and any("double" in text for text in code) != single
    else:
        assert ("begin{matrix}" in out) == latex
        assert ("\nparameters: " in out) == parameters


STO_HEADER = "trial\nversion=1\nnRows=3\nnColumns=3\ninDegrees=no\nendheader\n"


@st.composite
def good_table(draw):
    """A well-formed OpenSim table of robot2r's coordinates (its header counts what follows),
    and the (time, q) it holds."""
    n = draw(st.integers(1, 8))
    time = [0.01 * k for k in range(n)]
    q = [[draw(st.floats(-3, 3)) for _ in range(2)] for _ in range(n)]
    rows = "".join(f"{t!r}\t{a!r}\t{b!r}\n" for t, (a, b) in zip(time, q))
    header = STO_HEADER.replace("nRows=3", f"nRows={n}") + "time\tjoint1\tjoint2\n"
    return header, rows, (time, q)


@st.composite
def good_mapping(draw):
    """A {from: to} mapping, and its CSV and JSON texts (names with accents as labs write
    them, not escaped in the JSON)."""
    name = st.text("abcxyz_0123\u00e9\u00c5", min_size=1, max_size=6)
    pairs = draw(st.dictionaries(name, name, max_size=4))
    return (pairs, "".join(f"{a},{b}\n" for a, b in pairs.items()),
            json.dumps(pairs, ensure_ascii=False))


#: how a mapping file may be saved: Excel's "CSV UTF-8" (with a BOM), its "CSV" in Western
#: Europe (Windows-1252), "Unicode" (UTF-16 with a BOM)
MAPPING_ENCODINGS = ["utf-8", "utf-8-sig", "cp1252", "utf-16"]


@settings(PROFILE, max_examples=PROFILE.max_examples // 2)
@given(table=st.one_of(     # a well-formed table half the time, so that tables are read too
           good_table(),
           st.tuples(st.one_of(st.just(STO_HEADER), st.text(max_size=80),
                               st.sampled_from([STO_HEADER.replace("no", "yes"),
                                                STO_HEADER.replace("endheader\n", ""),
                                                STO_HEADER.replace("nRows=3", "nRows=-1")])),
                     motion_text(["joint1", "joint2"]), st.none())),
       ext=st.sampled_from([".sto", ".mot"]),
       mapping=st.one_of(good_mapping(), st.text(max_size=40).map(lambda t: (None, t, t))),
       encoding=st.sampled_from(MAPPING_ENCODINGS))
def test_random_opensim_tables_and_mappings_are_read_or_refused(table, ext, mapping,
                                                                encoding):
    """The other text readers: OpenSim .sto/.mot tables and --mapping files; a well-formed
    one is read as written, in any encoding a CSV is saved in (a JSON file, which is UTF-8
    or UTF-16 by its standard, refused naming the file when Windows-1252 is not ASCII);
    a mapping refused names its file."""
    from urdf2dyn.biomech import formats
    from urdf2dyn.biomech.trajectory import load_mapping
    header, body, expected = table
    pairs, as_csv, as_json = mapping
    with tempfile.TemporaryDirectory() as tmp, bounded(), warnings.catch_warnings():
        # drawn tables and mappings: whatever they are warned about is not the subject (read
        # as written, or refused naming the file, is)
        warnings.simplefilter("ignore")
        path = os.path.join(tmp, "t" + ext)
        with open(path, "w", encoding="utf-8", errors="replace") as f:
            f.write(header + body)
        for read, arg, text in ((formats.read_opensim, path, None),
                                (load_mapping, "m.csv", as_csv),
                                (load_mapping, "m.json", as_json)):
            good = expected if read is formats.read_opensim else pairs
            if read is load_mapping:
                arg = os.path.join(tmp, arg)
                with open(arg, "w", encoding=encoding, errors="replace") as f:
                    f.write(text)
                if arg.endswith(".json") and encoding == "cp1252" and not text.isascii():
                    good = None
            try:
                got = read(arg)
            except ValueError as e:             # MotionError, ExternalLoadsError, JSON errors
                assert str(e).strip()
                assert good is None, e
                if read is load_mapping:
                    assert os.path.basename(arg) in str(e), e
                continue
            if read is load_mapping and good is not None:
                hypothesis.event("a mapping read as written")
                assert got == good
            elif good is not None:
                hypothesis.event("a table read as written")
                assert got.names == ["joint1", "joint2"]
                assert got.time.tolist() == good[0] and got.q.tolist() == good[1]


# ----------------------------------------------------------------------------- URDF text

with open(data_path("robot2r.urdf")) as _f:
    ROBOT2R = _f.read()


def mutated_urdf():
    """The 2R robot's URDF with a few edits."""
    return edited(ROBOT2R, st.one_of(st.text(max_size=12), st.sampled_from(
                      ["<", ">", "\"", "&amp;", "<link name=\"x\"/>", "nan", "-1e400", "\x00",
                       "<joint", "</robot>", "\ufeff", "é"])),
                  kinds=("delete", "insert", "duplicate", "truncate", "number"),
                  numbers=["0.5", "1", "0", "1.0"], new_numbers=number_text, edits=4, span=40)


@settings(PROFILE, max_examples=PROFILE.max_examples * 3)
@given(text=st.one_of(mutated_urdf(), st.text(max_size=60).map(lambda s: "<" + s)))
def test_random_urdf_text_loads_or_is_refused_with_a_message(text):
    import numpy as np
    with bounded(), warnings.catch_warnings():
        # mutated URDF text: its warnings are expected and not the subject (a model or a
        # refusal with a message is)
        warnings.simplefilter("ignore")
        try:
            model = urdf2dyn.load(text)
        except (urdf2dyn.URDFError, ValueError, FileNotFoundError) as e:
            assert str(e).strip()
            return
        q = np.zeros(model.nq)
        if model.nq:
            model.inverse_dynamics(q, q[:model.nv] if model.nv else q, q[:model.nv])


# ----------------------------------------------------------------------------- subprocesses

def _memory_cap():
    cap = 3 << 30                            # 3 GiB of address space: a runaway dies quickly
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The issue's cases as files: header only, semicolons, decimal commas, binary junk."""
    import numpy as np
    tmp = tmp_path_factory.mktemp("subprocess")
    lines = _trial_lines("running_a_3ms.csv", rows=60)
    (tmp / "hdr.csv").write_text(lines[0] + "\n")
    (tmp / "trial.csv").write_text("\n".join(lines) + "\n")
    (tmp / "semi.csv").write_text("\n".join(line.replace(",", ";") for line in lines) + "\n")
    (tmp / "comma.csv").write_text("\n".join(
        line.replace(",", "\t").replace(".", ",") for line in lines) + "\n")
    (tmp / "junk.csv").write_bytes(np.random.default_rng(0).bytes(4000))
    return tmp


@pytest.mark.parametrize("argv,status,expect", [
    (["hdr.csv", "-o", "e.csv"], 1, "error: hdr.csv: need at least 3 samples, got 0"),
    (["trial.csv", "--per-kg", "--mass", "0", "-o", "e.csv"], 2, "argument --mass: 0:"),
    (["trial.csv", "--mass", "-57"], 2, "argument --mass: -57:"),
    (["semi.csv", "-o", "semi_t.csv"], 0, "written: semi_t.csv"),
    (["comma.csv", "-o", "comma_t.csv"], 0, "written: comma_t.csv"),
    (["trial.csv", "-o", "trial.csv"], 2, "--output trial.csv: that is the motion file"),
    (["junk.csv"], 1, "error: junk.csv:"),
], ids=["header-only", "mass-0", "mass-negative", "semicolon", "decimal-comma", "o-is-input",
        "binary"])
def test_issue_cases_in_a_subprocess_under_a_memory_cap(files, argv, status, expect):
    before = {p.name: digest(p) for p in files.iterdir()}
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-m", "urdf2dyn", "torques", "humod_subject_a.urdf",
                           *argv], cwd=files, capture_output=True, text=True, timeout=120,
                          preexec_fn=_memory_cap, env=env)
    assert proc.returncode == status, proc.stderr
    assert expect in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    assert {p.name: digest(p) for p in files.iterdir() if p.name in before} == before
