"""Generated MATLAB/Octave functions against the core, run with octave-cli (Debian's
`octave` package; CI installs it): the bundled robots, the human with both roots and
random trees (every joint type, floating roots, fixed joints mid-chain), all in one Octave
session."""
import pytest

from codegen_oracle import bundled_models, compare, octave, random_models, run_octave

pytestmark = pytest.mark.skipif(
    octave() is None, reason="octave-cli not found: install Debian's 'octave' package to run "
    "the generated MATLAB code")

N = 4
ROBOTS = bundled_models(with_erd=False) + random_models(8)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    cases = [(prefix, model, 300 + k) for k, (prefix, model) in enumerate(ROBOTS)]
    return run_octave(cases, str(tmp_path_factory.mktemp("gen_m")), N)


@pytest.mark.parametrize("k", range(len(ROBOTS)), ids=[p for p, _ in ROBOTS])
def test_octave_matches_core(results, k):
    prefix, model = ROBOTS[k]
    compare(model, results[prefix], 300 + k, 1e-12, n=N)
