"""What a pass count does not show: the SIMD paths this CPU offers, so that a CI log says
which paths tests/test_simd.py and the C driver could test here (the 8-lane code of the
AVX-512 path also runs through AVX2, tests/c/lanes8.c, where AVX-512 itself is missing); and
the OpenSim module every oracle test takes; and the Hypothesis profile every property test
runs under."""
import os

import pytest

try:
    from hypothesis import settings
except ImportError:                   # the tests that need it skip themselves
    settings = None

if settings is not None:
    # CI and a plain `pytest` run the same examples every time (a red run is the code's, not
    # the draw's); `HYPOTHESIS_PROFILE=long pytest ...` draws new ones each run to hunt
    # (docs/robustness.rst). A test's own @settings changes only what it names.
    settings.register_profile("ci", derandomize=True, database=None)
    settings.register_profile("long", derandomize=False, database=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def draw_anew(items, profile):
    """Under a profile that draws new examples (``long``), let every property test among the
    pytest items draw them: many name derandomize=True in their own @settings (from before
    the 'ci' profile derandomized the suite), which would keep them on CI's examples."""
    if profile.derandomize:
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)   # @given's settings
        if own is not None and own.derandomize:
            test._hypothesis_internal_use_settings = settings(own, derandomize=False)


def pytest_collection_modifyitems(items):
    if settings is not None:
        draw_anew(items, settings.default)


@pytest.fixture(scope="session")
def osim():
    """The opensim package (the oracle for ID, IK, file formats), quiet: only its errors are
    printed (its tools' progress messages are not results), and no opensim.log is written
    in the working directory. Skips the test where it is not importable."""
    osim = pytest.importorskip("opensim", reason="OpenSim (the oracle) is not importable")
    osim.Logger.setLevelString("error")
    osim.Logger.removeFileSink()
    return osim


def pytest_terminal_summary(terminalreporter):
    try:
        import urdf2dyn
        paths = urdf2dyn.available_simd_paths()
    except Exception as e:            # an unbuilt tree: the tests themselves say so
        terminalreporter.write_line(f"urdf2dyn SIMD paths: unknown ({type(e).__name__})")
        return
    missing = [p for p in ("avx512", "avx2") if p not in paths]
    note = f"; not on this CPU: {', '.join(missing)}" if missing else ""
    terminalreporter.write_line(f"urdf2dyn SIMD paths here: {', '.join(paths)}{note} "
                                "(tests/test_simd.py compares each with the portable one)")
