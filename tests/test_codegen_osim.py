"""Generated code for OpenSim models: CustomJoints whose axes follow spline, linear and
constant functions of a coordinate (coupled knees; Rajagopal's knee also turns about two
spline-driven axes), on the five published models of tests/data/opensim_models/Models and
tests/test_osim.py's model with every joint type and axis function.

The generated C (one sample and batched), NumPy and MATLAB/Octave functions are compared
with the core (RNEA with and without wrenches, M from the core's RNEA, ABA by its backward
error, forward kinematics; tests/codegen_oracle.py) at 1e-12 relative, on states where every
spline-driven coordinate sits inside its knots, exactly on a knot, within OpenSim's 2e-13
rounding of an end knot, and outside the knots (the tangent-line extrapolation, where f''
drops to 0). The core itself is checked against OpenSim 4.6 in tests/test_osim.py. One
compiler run and one Octave session for the module."""
import ctypes
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from codegen_oracle import (CRobot, cc, compare, compile_c, import_python, octave,
                            random_inputs, run_octave)

import urdf2dyn
from urdf2dyn import codegen
from urdf2dyn.codegen.functions import SIMM_SPLINE, Functions

DATA = os.path.join(os.path.dirname(__file__), "data", "opensim_models", "Models")
FILES = {
    "gait2354": "gait2354_simbody_v2.osim",
    "gait2392": "gait2392_millard2012muscle.osim",
    "gait10dof18musc": "gait10dof18musc.osim",
    "rajagopal": "Rajagopal2016.osim",
    "hamner": "FullBodyModel_Hamner2010_v2_0.osim",
}
N = 24      # samples per model: the knot cases below, then random ones


def _load(fname):
    return urdf2dyn.load(os.path.join(DATA, fname))     # OpenSim's published models: silent


def _every_joint():
    """tests/test_osim.py's small model with every OpenSim joint type and every axis
    function (PolynomialFunction, a MultiplierFunction of a PiecewiseLinearFunction, a
    three-knot SimmSpline, an axis with no coordinate), itself checked against OpenSim."""
    from test_osim import every_joint_model
    return urdf2dyn.load(every_joint_model())


MODELS = [(name, _load(f)) for name, f in FILES.items()] + [("every_joint", _every_joint())]


def _driven(model):
    """{q index: knots} of every coordinate that drives a tabulated function."""
    F, s = Functions(model), model.structure()
    out = {}
    for b, J in F.joints.items():
        for k in range(6):
            scale, f = F.base(J.func[k])
            if J.coord[k] >= 0 and F.funcs[f][0] in (SIMM_SPLINE, 4):
                x = np.array(F.tables(f)[0])
                out.setdefault(int(s.q_index[b]) + J.coord[k], []).append(x)
    return out


def knot_inputs(model, seed):
    """random_inputs with each spline-driven coordinate set, sample by sample, to: its
    first and last knot exactly, 1e-13 inside and outside of them (OpenSim's end-knot
    rounding), an interior knot, 0.4 rad beyond each end (extrapolation), and random."""
    q, v, a, tau, g, f = random_inputs(model, N, seed)
    rng = np.random.default_rng(seed)
    for i, knots in _driven(model).items():
        cases = []
        for x in knots[:2]:     # a coordinate may drive several functions: two of them
            cases += [x[0], x[-1], x[0] + 1e-13, x[-1] - 1e-13, x[0] - 1e-13, x[-1] + 1e-13,
                      x[len(x) // 2], x[0] - 0.4, x[-1] + 0.4, x[1]]
        q[:len(cases), i] = cases
        q[len(cases):, i] = rng.uniform(x[0], x[-1], N - len(cases))
    return q, v, a, tau, g, f


INPUTS = {name: knot_inputs(model, 100 + k) for k, (name, model) in enumerate(MODELS)}


def test_models_have_spline_driven_joints():
    """Not vacuous: every model has custom joints with splines, and the states above put
    coordinates on knots and outside them."""
    for name, model in MODELS:
        driven = _driven(model)
        assert driven, name
        q = INPUTS[name][0]
        for i, knots in driven.items():
            assert q[0, i] in knots[0] and q[6, i] in knots[0]
            assert q[7, i] < knots[0][0] and q[8, i] > knots[0][-1]
    assert any(len(_driven(m)) > 2 for _, m in MODELS)       # Rajagopal: rotations too


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    if cc() is None:
        pytest.skip("no C compiler (cc) on PATH")
    return compile_c(MODELS, tmp_path_factory.mktemp("gen_osim_c"), "double")


@pytest.mark.parametrize("k", range(len(MODELS)), ids=[n for n, _ in MODELS])
def test_c_matches_core(lib, k):
    name, model = MODELS[k]
    compare(model, CRobot(lib, name, model), k, 1e-12, n=N, inputs=INPUTS[name])


def test_c_float_matches_core(tmp_path):
    """Single precision (float tables, fabsf, sinf): every joint type and function, 1e-4,
    without the states 1e-13 off an end knot: rounded to float they land on the knot,
    where OpenSim's f'' jumps from the spline's to the tangent line's 0."""
    if cc() is None:
        pytest.skip("no C compiler (cc) on PATH")
    name, model = MODELS[-1]
    lib = compile_c([(name, model)], tmp_path, "float")
    keep = [r for r in range(N) if r % 10 not in (2, 3, 4, 5) or r >= 20]
    inputs = tuple(x if np.ndim(x) == 1 else x[keep] for x in INPUTS[name])
    compare(model, CRobot(lib, name, model, "float"), 5, 1e-4, n=len(keep), inputs=inputs)


class _Module:
    def __init__(self, mod):
        self.mod = mod

    def rnea(self, q, v, a, g, f=None):
        return self.mod.rnea(q, v, a, g, f)

    def aba(self, q, v, tau, g, f=None):
        return self.mod.aba(q, v, tau, g, f)

    def crba(self, q):
        return self.mod.crba(q)

    def fk(self, q):
        return self.mod.fk(q)


@pytest.mark.parametrize("k", range(len(MODELS)), ids=[n for n, _ in MODELS])
def test_python_matches_core(tmp_path, k):
    name, model = MODELS[k]
    mod = import_python(model, str(tmp_path), name)
    compare(model, _Module(mod), k, 1e-12, n=N, inputs=INPUTS[name])


@pytest.fixture(scope="module")
def octave_results(tmp_path_factory):
    if octave() is None:
        pytest.skip("octave-cli not found (Debian's 'octave' package)")
    cases = [(name, model, 0) for name, model in MODELS]
    return run_octave(cases, str(tmp_path_factory.mktemp("gen_osim_m")), N, inputs=INPUTS)


@pytest.mark.parametrize("k", range(len(MODELS)), ids=[n for n, _ in MODELS])
def test_octave_matches_core(octave_results, k):
    name, model = MODELS[k]
    compare(model, octave_results[name], k, 1e-12, n=N, inputs=INPUTS[name])


@pytest.mark.parametrize("k", range(len(MODELS)), ids=[n for n, _ in MODELS])
def test_batched_c_matches_core(lib, k):
    """The batched functions (<prefix>_<kind>_batch, which hoist the spline routines with
    the sines out of the vectorizable loop), from the same library, on 70 samples (a chunk
    of 64 and a tail): the knot cases repeated."""
    name, model = MODELS[k]
    q0, v0, a0, _, g, _ = INPUTS[name]
    q, v, a = (np.tile(x, (6, 1))[:70] for x in (q0, v0, a0))
    n, nv, nl = len(q), model.nv, len(model.link_names)
    T = lambda x: np.ascontiguousarray(np.moveaxis(x, 0, -1))      # noqa: E731 samples last

    def call(fname, *arrays):
        f = getattr(lib, f"{name}_{fname}_batch")
        f.restype = None
        f(ctypes.c_size_t(n), *[x.ctypes.data_as(ctypes.c_void_p) for x in arrays])

    def rel(x, ref):
        return float(np.max(np.abs(x - ref)) / max(1.0, float(np.max(np.abs(ref)))))

    model.gravity = g
    tau = np.empty((nv, n))
    call("rnea", T(q), T(v), T(a), np.asarray(g, float), tau)
    assert rel(tau.T, model.inverse_dynamics(q, v, a)) < 1e-12
    M = np.full((nv, nv, n), np.nan)
    call("crba", T(q), M)
    assert rel(np.moveaxis(M, -1, 0), model.mass_matrix(q)) < 1e-12
    qdd = np.empty((nv, n))
    tau_in = model.inverse_dynamics(q, v, a)
    call("aba", T(q), T(v), T(tau_in), np.asarray(g, float), qdd)
    back = model.inverse_dynamics(q, v, qdd.T)
    assert rel(back, tau_in) < 1e-10
    pos, rot = np.empty((nl, 3, n)), np.empty((nl, 3, 3, n))
    call("fk", T(q), pos, rot)
    ref_pos, ref_rot = model.forward_kinematics(q)
    assert rel(np.moveaxis(pos, -1, 0), ref_pos) < 1e-12
    assert rel(np.moveaxis(rot, -1, 0), ref_rot) < 1e-12


@pytest.mark.parametrize("name", ["rajagopal", "every_joint"])
def test_routines_give_the_cores_axis_values(tmp_path, name):
    """The generated spline routines themselves (NumPy module) against the core's axis
    values f_k(q), on and off the knots: the transform's translations are these values."""
    model = dict(MODELS)[name]
    q = INPUTS[name][0]
    mod = import_python(model, str(tmp_path), name)
    F, s = Functions(model), model.structure()
    ref = np.array([model._c.axis_values(qi) for qi in q])     # (N, joints, 6)
    checked = 0
    for j, (b, J) in enumerate(sorted(F.joints.items())):
        for k in range(6):
            scale, f = F.base(J.func[k])
            fn = getattr(mod, f"_fn{f}", None)
            if fn is None or J.coord[k] < 0:
                continue
            t = q[:, int(s.q_index[b]) + J.coord[k]]
            np.testing.assert_allclose(scale * fn(t), ref[:, j, k], rtol=0, atol=1e-15)
            checked += 1
    assert checked >= 3


def test_symbolic_equations_keep_splines_as_functions(tmp_path):
    """SymPy equations of a 3-DoF custom joint (spline, linear and polynomial rotations, a
    scaled piecewise-linear and a spline translation): the splines stay undefined functions
    fn<i>(q) with their derivatives; given the generated routines' values for them, tau =
    M qdd + Cqd + g equals the core's RNEA."""
    sp = pytest.importorskip("sympy")
    from test_osim import _body, _custom_joint, _frame, _joint
    xml = ('<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">'
           '<Model name="knee3"><gravity>0 -9.80665 0</gravity><Ground name="ground"/>'
           '<BodySet name="bodyset"><objects>'
           + _body("b1", 2.5, "0.03 -0.2 0.01", "0.1 0.12 0.05 0.001 -0.002 0.003")
           + '</objects></BodySet><JointSet name="jointset"><objects>'
           + _joint("CustomJoint", "j1", "ground_offset", "b1_offset", ["c0", "c1", "c2"],
                    _frame("ground_offset", "/ground", "0.1 0.2 -0.05", "0.3 -0.2 0.5")
                    + _frame("b1_offset", "/bodyset/b1", "0.02 0 0", "0 0.2 0"),
                    f"<SpatialTransform>{_custom_joint()}</SpatialTransform>")
           + '</objects></JointSet></Model></OpenSimDocument>\n')
    model = urdf2dyn.load(xml)
    eq = codegen.symbolic(model, simplify=False)
    tau = eq.tau
    assert tau.atoms(sp.Derivative)                 # f' and f'' of the splines
    mod = import_python(model, str(tmp_path), "knee3")
    # each fn<i>(q_j) and derivative becomes a plain symbol, valued by the generated routine
    calls = sorted(tau.atoms(sp.Derivative), key=str) + sorted(
        tau.atoms(sp.core.function.AppliedUndef), key=str)
    names = sp.symbols(f"x0:{len(calls)}")
    flat = tau.xreplace(dict(zip(calls[:len(tau.atoms(sp.Derivative))], names)))
    flat = flat.xreplace(dict(zip(calls[len(tau.atoms(sp.Derivative)):],
                                  names[len(tau.atoms(sp.Derivative)):])))
    assert not flat.atoms(sp.core.function.AppliedUndef)
    run = sp.lambdify([list(eq.q), list(eq.qd), list(eq.qdd), list(names)], flat, "numpy",
                      cse=True)

    def routine_of(call, q):
        inner = call.expr if isinstance(call, sp.Derivative) else call
        order = call.derivative_count if isinstance(call, sp.Derivative) else 0
        f = getattr(mod, "_" + inner.func.__name__ + (f"_d{order}" if order else ""))
        j = list(eq.q).index(inner.args[0])
        return float(f(np.array([q[j]]))[0])

    rng = np.random.default_rng(7)
    for q in ([1.7, 0.3, -0.4], [-1.0, 0.1, 0.2], rng.uniform(-1, 1, 3)):   # past, on a knot
        qd, qdd = rng.normal(size=3), rng.normal(size=3)
        got = np.ravel(run(q, qd, qdd, [routine_of(c, q) for c in calls]))
        ref = model.inverse_dynamics(np.array(q, float), qd, qdd)
        np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)


# ---- random custom joints --------------------------------------------------------------

def _spline(draw, st, kind):
    n = draw(st.integers(2, 7))
    gaps = draw(st.lists(st.floats(0.05, 0.8), min_size=n - 1, max_size=n - 1))
    x0 = draw(st.floats(-1.5, 0.0))
    x = np.concatenate([[x0], x0 + np.cumsum(gaps)])
    y = draw(st.lists(st.floats(-0.3, 0.3), min_size=n, max_size=n))
    return (f'<{kind} name="function"><x>{" ".join(repr(float(v)) for v in x)}</x>'
            f'<y>{" ".join(repr(float(v)) for v in y)}</y></{kind}>')


@st.composite
def _custom_joint_model(draw):
    """A two-body chain whose first joint is a random CustomJoint: 1-3 coordinates, each
    axis driven by a random coordinate through a random SimmSpline (2-7 knots),
    PiecewiseLinearFunction, LinearFunction or PolynomialFunction, or held by a Constant."""
    from test_osim import _axis, _body, _frame, _joint
    ncoord = draw(st.integers(1, 3))
    names = [f"c{k}" for k in range(ncoord)]
    base = ["0 0 1", "1 0 0", "0 1 0", "1 0 0", "0 1 0", "0 0 1"]
    axes = []
    for k in range(6):
        c = draw(st.integers(-1, ncoord - 1)) if k >= ncoord else k   # each coordinate used
        kind = draw(st.sampled_from(["SimmSpline", "PiecewiseLinearFunction", "LinearFunction",
                                     "PolynomialFunction"]))
        tilt = draw(st.lists(st.floats(-0.3, 0.3), min_size=3, max_size=3))
        axis = " ".join(repr(float(a) + t) for a, t in zip(map(float, base[k].split()), tilt))
        if c < 0:
            fn = (f'<Constant name="function"><value>{draw(st.floats(-0.2, 0.2))!r}</value>'
                  '</Constant>')
        elif kind in ("SimmSpline", "PiecewiseLinearFunction"):
            fn = _spline(draw, st, kind)
        elif kind == "LinearFunction":
            fn = (f'<LinearFunction name="function"><coefficients>{draw(st.floats(-2, 2))!r} '
                  f'{draw(st.floats(-0.2, 0.2))!r}</coefficients></LinearFunction>')
        else:
            cs = draw(st.lists(st.floats(-0.5, 0.5), min_size=1, max_size=4))
            fn = (f'<PolynomialFunction name="function"><coefficients>'
                  f'{" ".join(repr(v) for v in cs)}</coefficients></PolynomialFunction>')
        name = f"rotation{k + 1}" if k < 3 else f"translation{k - 2}"
        axes.append(_axis(name, names[c] if c >= 0 else "", axis, fn))
    joints = (_joint("CustomJoint", "j1", "g_off", "b1_off", names,
                     _frame("g_off", "/ground", "0.1 0.2 -0.05", "0.3 -0.2 0.5")
                     + _frame("b1_off", "/bodyset/b1", "0.02 0 0", "0 0.2 0"),
                     f"<SpatialTransform>{''.join(axes)}</SpatialTransform>")
              + _joint("PinJoint", "j2", "b1_o", "/bodyset/b2", ["pin"],
                       _frame("b1_o", "/bodyset/b1", "0 -0.3 0.02", "0.1 0 0")))
    bodies = (_body("b1", 2.5, "0.03 -0.2 0.01", "0.1 0.12 0.05 0.001 -0.002 0.003")
              + _body("b2", 1.5, "0.01 -0.1 0.02", "0.05 0.04 0.03 0.0 0.001 0.0"))
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">'
            '<Model name="random_custom"><gravity>0 -9.80665 0</gravity><Ground name="ground"/>'
            f'<BodySet name="bodyset"><objects>{bodies}</objects></BodySet>'
            f'<JointSet name="jointset"><objects>{joints}</objects></JointSet>'
            '</Model></OpenSimDocument>\n')


@settings(max_examples=12, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(xml=_custom_joint_model(), seed=st.integers(0, 1000))
def test_random_custom_joints_python_matches_core(tmp_path, xml, seed):
    """Generated NumPy code on random custom joints (random knots, axes and functions),
    states on the knots, near and past the ends, against the core."""
    model = urdf2dyn.load(xml)            # a valid model: nothing to warn about
    inputs = knot_inputs(model, seed)
    mod = import_python(model, str(tmp_path), f"rand{seed}")
    compare(model, _Module(mod), seed, 1e-12, n=N, inputs=inputs)
