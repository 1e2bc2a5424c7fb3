"""out= of the batched derivatives: property-based (Hypothesis), any object passed as out
is either used exactly as a fresh output would be, or refused with ValueError/TypeError."""
import numpy as np
import pytest

hyp = pytest.importorskip("hypothesis")
from hypothesis import event, example, given, settings, strategies as st  # noqa: E402

import pin_oracle as po  # noqa: E402

import urdf2dyn  # noqa: E402

MODEL = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
Q, V, A = po.random_state(MODEL, np.random.default_rng(82), N=3)
REF = {fn: getattr(MODEL, fn)(Q, V, A)
       for fn in ("inverse_dynamics_derivatives", "forward_dynamics_derivatives")}


SHAPE = (3, MODEL.nv, MODEL.nv)


def _valid(fill):
    """An out= the derivatives must use: 3 C-ordered float64 arrays of REF's shape, filled
    with what must all be overwritten."""
    return ("valid", tuple(np.full(SHAPE, fill) for _ in range(3)))


VALID = st.floats().map(_valid)          # any float64, NaN and infinities too
ANY = st.builds(
    lambda shape, dtype, count, fortran: (
        "arbitrary",
        tuple(np.zeros(shape, dtype=dtype, order="F" if fortran else "C") for _ in range(count))),
    st.one_of(st.just(list(SHAPE)), st.lists(st.integers(0, 9), min_size=0, max_size=4)),
    st.sampled_from(["f8", "f4", "i8", "c16", ">f8"]), st.integers(0, 4), st.booleans())


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from(sorted(REF)), st.one_of(VALID, ANY))     # about half of them valid
@example("inverse_dynamics_derivatives", _valid(np.nan))
@example("forward_dynamics_derivatives", _valid(np.nan))
def test_out_never_crashes(fn, drawn):
    """Any out= is used or refused with ValueError/TypeError, never a crash or a wrong write;
    a valid one is always used, its arrays returned and holding what the call without out=
    returns."""
    kind, out = drawn
    event(f"out= {kind}")
    if kind == "valid":
        got = getattr(MODEL, fn)(Q, V, A, out=out)
    else:
        try:
            got = getattr(MODEL, fn)(Q, V, A, out=out)
        except (ValueError, TypeError):
            event("out= refused")
            return
    event("out= used")
    assert len(got) == len(out) == 3 and all(g is o for g, o in zip(got, out))
    for g, r in zip(got, REF[fn]):
        np.testing.assert_array_equal(g, r)
