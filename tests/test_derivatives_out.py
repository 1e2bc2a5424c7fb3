"""out= of the batched derivatives: property-based (Hypothesis), any object passed as out
is either used exactly as a fresh output would be, or refused with ValueError/TypeError."""
import numpy as np
import pytest

hyp = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

import pin_oracle as po  # noqa: E402

import urdf2dyn  # noqa: E402

MODEL = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
Q, V, A = po.random_state(MODEL, np.random.default_rng(82), N=3)
REF = {fn: getattr(MODEL, fn)(Q, V, A)
       for fn in ("inverse_dynamics_derivatives", "forward_dynamics_derivatives")}


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from(sorted(REF)),
       st.one_of(st.just([3, MODEL.nv, MODEL.nv]),             # the right shape, often
                 st.lists(st.integers(0, 9), min_size=0, max_size=4)),
       st.sampled_from(["f8", "f4", "i8", "c16", ">f8"]), st.integers(0, 4), st.booleans())
def test_out_never_crashes(fn, shape, dtype, count, fortran):
    """Any out= is used or refused with ValueError/TypeError, never a crash or a wrong write."""
    out = tuple(np.zeros(shape, dtype=dtype, order="F" if fortran else "C") for _ in range(count))
    try:
        got = getattr(MODEL, fn)(Q, V, A, out=out)
    except (ValueError, TypeError):
        return
    assert all(g is o for g, o in zip(got, out))
    for g, r in zip(got, REF[fn]):
        np.testing.assert_array_equal(g, r)
