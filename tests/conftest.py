"""What a pass count does not show: the SIMD paths this CPU offers, so that a CI log says
which paths tests/test_simd.py and the C driver could test here (the 8-lane code of the
AVX-512 path also runs through AVX2, tests/c/lanes8.c, where AVX-512 itself is missing); and
the OpenSim module every oracle test takes; and the Hypothesis profile every property test
runs under."""
import os

import pytest

try:
    from hypothesis import HealthCheck, settings
except ImportError:                   # the tests that need it skip themselves
    settings = None

if settings is not None:
    # CI and a plain `pytest` run the same examples every time (a red run is the code's, not
    # the draw's); `HYPOTHESIS_PROFILE=long pytest ...` draws new ones each run to hunt
    # (docs/robustness.rst). A test's own @settings changes only what it names. These
    # profiles are the only ones: one a test module registers again under the loaded name
    # would change every test collected after it, so that the suite and a file run alone
    # (where a red run is replayed) would draw differently. 40 examples and no deadline on
    # 2 shared cores: what the suite ran when tests/test_cli_hypothesis.py set them.
    _COMMON = dict(database=None, deadline=None, print_blob=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                          HealthCheck.filter_too_much])
    settings.register_profile("ci", max_examples=40, derandomize=True, **_COMMON)
    settings.register_profile("long", derandomize=False, **_COMMON)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def draw_anew(items, profile):
    """Under a profile that draws new examples (``long``), let every property test among the
    pytest items draw them: many name derandomize=True in their own @settings (from before
    the 'ci' profile derandomized the suite), which would keep them on CI's examples."""
    if profile.derandomize:
        return
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)  # a test class's method: its function's settings
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
