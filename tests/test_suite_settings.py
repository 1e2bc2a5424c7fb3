"""How the suite itself runs: the same Hypothesis examples every run unless asked otherwise,
so that a red CI run is the code's and can be replayed (tests/conftest.py)."""
import os
import subprocess
import sys
import types

import pytest

hypothesis = pytest.importorskip("hypothesis")


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci",
                    reason="another Hypothesis profile was asked for")
def test_property_tests_draw_the_same_examples_every_run():
    default = hypothesis.settings.default
    assert default.derandomize, "tests/conftest.py's 'ci' profile is not the one loaded"
    assert default.database is None, "examples saved by an earlier run would be replayed"


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci",
                    reason="another Hypothesis profile was asked for")
def test_a_tests_own_settings_keep_the_profile_it_does_not_name():
    @hypothesis.settings(max_examples=3, deadline=None)
    @hypothesis.given(hypothesis.strategies.integers())
    def drawn(x):
        pass
    assert drawn._hypothesis_internal_use_settings.derandomize


@pytest.mark.parametrize("profile, drawn_anew", [("long", True), ("ci", False)])
def test_a_test_pinning_derandomize_draws_new_examples_under_the_long_profile(profile,
                                                                               drawn_anew):
    """Forty property tests name derandomize=True in their own @settings: under
    HYPOTHESIS_PROFILE=long they kept drawing CI's examples, hunting nothing. The 'long'
    profile lets them draw new ones; 'ci' keeps them on its own."""
    from conftest import draw_anew

    @hypothesis.settings(max_examples=3, deadline=None, derandomize=True)
    @hypothesis.given(hypothesis.strategies.integers())
    def pinned(x):
        pass

    draw_anew([types.SimpleNamespace(obj=pinned)], hypothesis.settings.get_profile(profile))
    own = pinned._hypothesis_internal_use_settings
    assert own.derandomize is not drawn_anew and own.max_examples == 3 and own.deadline is None


def test_a_test_classs_pinned_property_method_draws_new_examples_under_the_long_profile():
    """pytest collects a test class's @given method bound to an instance, and a bound method
    takes no attribute: HYPOTHESIS_PROFILE=long ended every run collecting one in an
    INTERNALERROR (AttributeError). Its function's settings are the ones drawn anew."""
    from conftest import draw_anew

    class TestPinned:
        @hypothesis.settings(max_examples=3, derandomize=True)
        @hypothesis.given(hypothesis.strategies.integers())
        def test_pinned(self, x):
            pass

    draw_anew([types.SimpleNamespace(obj=TestPinned().test_pinned)],
              hypothesis.settings.get_profile("long"))
    assert not TestPinned.test_pinned._hypothesis_internal_use_settings.derandomize


_SETTINGS_SEEN = """
import conftest
from hypothesis import settings
def seen():
    d = settings.default
    return (d.max_examples, d.derandomize, d.deadline, d.database)
alone = seen()
import test_cli_hypothesis
print(alone == seen(), alone, seen())
"""


@pytest.mark.parametrize("profile", ["ci", "long"])
def test_importing_the_cli_property_tests_leaves_the_suites_profile(profile):
    """tests/test_cli_hypothesis.py, which a dozen test files import, registered 'ci' and
    'long' anew (40 and 2 000 examples, no deadline): Hypothesis then loads the new one in
    place of tests/conftest.py's, so that every property test ran other settings in the
    whole suite than in its own file alone, where a red CI run is replayed."""
    here = os.path.dirname(os.path.abspath(__file__))
    run = subprocess.run([sys.executable, "-c", _SETTINGS_SEEN], cwd=here, text=True,
                         capture_output=True, timeout=120,
                         env={**os.environ, "HYPOTHESIS_PROFILE": profile})
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("True "), run.stdout
