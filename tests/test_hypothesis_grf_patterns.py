"""torques --grf PATTERN (and run_trials' grf=): the pattern names each motion's ground
reactions with {stem} and {dir}. It was filled in by Python's str.format, so that any other
field a user may type ({0}, {}, {stem.x}, {stem[99]}, a width {stem:>99999999999}) ended in an
IndexError, AttributeError or MemoryError traceback, {stem:>999999999} built a gigabyte name
for minutes, and {bogus} was refused as 'error: bogus'. A pattern is filled in by its two
fields only; any other brace in a pattern is refused naming --grf, and a name without the two
fields is one file, whatever its braces. Beside the fields, {{ and }} write one brace, as
they did in str.format.
"""
import os
import shutil
import string

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from urdf2dyn.biomech.pipeline import find_trials  # noqa: E402
from urdf2dyn.warn import MotionError  # noqa: E402
from test_cli_every_option import _write_case  # noqa: E402
from test_cli_hypothesis import PROFILE, bounded  # noqa: E402
from cli_here import run_here, working_in  # noqa: E402

#: what a pattern is made of: its two fields, what str.format would also read as a field or
#: a format spec, stray braces, and plain name parts
PIECES = ["{stem}", "{dir}", "{stem}", "{dir}", "{0}", "{}", "{stem.x}", "{stem[99]}",
          "{stem:>99999999999}", "{stem:>999999999}", "{bogus}", "{stem!r}", "{{stem}}", "{",
          "}", "_grf", ".csv", "/", "trial", "x", " "]

pattern = st.one_of(st.sampled_from(["{dir}/{stem}_grf.csv", "{dir}/trial_grf.csv"]),
                    st.lists(st.sampled_from(PIECES), min_size=1, max_size=5).map("".join))


def _filled(grf, motion):
    """What the pattern names for motion, None where it must be refused. The oracle is
    Python's own format grammar (string.Formatter): a pattern is taken when its only fields
    are {stem} and {dir}, bare (no conversion, format spec, index or attribute), with {{ and
    }} for a brace, and names what str.format makes of it."""
    try:
        parts = list(string.Formatter().parse(grf))
    except ValueError:                      # a lone { or }
        return None
    if any(f is not None and (f not in ("stem", "dir") or spec or conv)
           for _, f, spec, conv in parts):
        return None
    return grf.format(stem=os.path.splitext(os.path.basename(motion))[0],
                      dir=os.path.dirname(motion) or ".")


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    folder = tmp_path_factory.mktemp("case")
    _write_case(folder)
    shutil.copy(folder / "trial.csv", folder / "walk2.csv")
    shutil.copy(folder / "trial_grf.csv", folder / "walk2_grf.csv")
    return folder


@settings(PROFILE, max_examples=60)
@given(grf=pattern, several=st.booleans())
def test_any_grf_pattern_names_its_files_or_is_refused_naming_grf(case, grf, several):
    motions = [os.fspath(case / "trial.csv")] + ([os.fspath(case / "walk2.csv")] if several
                                                 else [])
    fields = "{stem}" in grf or "{dir}" in grf
    with bounded(10):
        try:
            jobs = find_trials(motions, grf)
        except MotionError as e:
            assert str(e).startswith("grf ") and "--grf" not in str(e), e   # the keyword
            if fields and "a pattern names {stem}" in str(e):
                assert _filled(grf, motions[0]) is None, (grf, e)
                hypothesis.event("a pattern with another field: refused")
            elif fields:                    # a pattern taken, naming no file
                assert _filled(grf, motions[0]) is not None, (grf, e)
            return
    assert not fields or _filled(grf, motions[0]) is not None, grf
    for motion, path in jobs:
        assert path == (_filled(grf, motion) if fields else grf)
        assert os.path.exists(path)
        hypothesis.event("paired")


def test_doubled_braces_beside_the_fields_write_one_brace(tmp_path):
    """{{ and }} beside {stem}: one brace, as str.format wrote it before patterns were filled
    in by name (a reviewer's case: '{dir}/{{x}}_{stem}.csv' named ./{x}_t.csv, then was
    refused)."""
    (tmp_path / "t.csv").write_text("x")
    (tmp_path / "{x}_t.csv").write_text("x")
    motion = os.fspath(tmp_path / "t.csv")
    [(_, path)] = find_trials([motion], "{dir}/{{x}}_{stem}.csv")
    assert path == os.fspath(tmp_path / "{x}_t.csv") == _filled("{dir}/{{x}}_{stem}.csv", motion)


@pytest.mark.parametrize("grf,status,says", [
    ("{0}", 1, "error: --grf {0}: no such file"),
    ("{dir}/{stem.x}_grf.csv", 1, "error: --grf '{dir}/{stem.x}_grf.csv': a pattern names "
                                  "{stem}"),
    ("{dir}/{stem:>99999999999}", 1, "error: --grf '{dir}/{stem:>99999999999}': a pattern"),
    ("{dir}/{stem}{bogus}.csv", 1, "error: --grf '{dir}/{stem}{bogus}.csv': a pattern"),
    ("{dir}/{stem}_grf.csv", 0, "written: out.csv"),
])
def test_grf_patterns_on_the_command_line(case, tmp_path, grf, status, says):
    """The command line's run of a few patterns: the refusal names --grf and the pattern, the
    two fields pair the trial with its trial_grf.csv."""
    argv = ["torques", os.fspath(case / "r.urdf"), os.fspath(case / "trial.csv"), "--grf", grf,
            "--contact", "R=link2", "-o", "out.csv", "--no-progress"]
    with working_in(tmp_path):
        got, out, err = _run(argv, case)
    assert got == status and says in out + err, (out, err)


def _run(argv, case):
    with bounded(60):
        status, out, err = run_here(argv)
    assert "Traceback" not in err
    return status, out, err
