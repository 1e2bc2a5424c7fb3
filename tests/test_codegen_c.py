"""Generated C against the core: compiled with cc -std=c99 -Wall -Wextra -Werror -pedantic,
called through ctypes, on the bundled robots, the 36-DoF human (prismatic and floating
roots), talos and romeo (example-robot-data) and 24 random trees (every joint type, floating
roots, fixed joints mid-chain), with external wrenches. 1e-12 relative in double, 1e-4 in
float. One compiler run per precision: every robot goes into one shared library."""
import pytest

from codegen_oracle import CRobot, bundled_models, cc, compare, compile_c, random_models

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler (cc) on PATH")

N_TREES = 24
ROBOTS = bundled_models() + random_models(N_TREES)
FLOAT_ROBOTS = [r for r in ROBOTS if r[0] in ("robot2r", "arm7", "human", "human_fb")] + \
    random_models(6)
IDS = [p for p, _ in ROBOTS]


@pytest.fixture(scope="module")
def lib_double(tmp_path_factory):
    return compile_c(ROBOTS, tmp_path_factory.mktemp("gen_c"), "double")


@pytest.fixture(scope="module")
def lib_float(tmp_path_factory):
    return compile_c(FLOAT_ROBOTS, tmp_path_factory.mktemp("gen_cf"), "float")


@pytest.mark.parametrize("k", range(len(ROBOTS)), ids=IDS)
def test_c_double_matches_core(lib_double, k):
    prefix, model = ROBOTS[k]
    compare(model, CRobot(lib_double, prefix, model), k, 1e-12)


@pytest.mark.parametrize("k", range(len(FLOAT_ROBOTS)), ids=[p for p, _ in FLOAT_ROBOTS])
def test_c_float_matches_core(lib_float, k):
    prefix, model = FLOAT_ROBOTS[k]
    compare(model, CRobot(lib_float, prefix, model, "float"), k, 1e-4)


def test_random_trees_cover_every_joint_type():
    types = {j.type for _, m in ROBOTS for j in m.joints}
    assert types >= {"revolute", "continuous", "prismatic", "floating", "planar"}
    assert any(m.floating_base for _, m in ROBOTS)
    assert len([p for p in IDS if p.startswith("tree")]) >= 20
