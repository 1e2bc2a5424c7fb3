"""Equations you can read: M(q), C(q, qd) qd and g(q) of a small robot as SymPy matrices.

They come from the same unrolled recursions as the generated code (emit.py), evaluated
with SymPy symbols instead of printed: g(q) = RNEA(q, 0, 0), C(q, qd) qd = RNEA(q, qd, 0)
- g(q) and M(q) = CRBA(q). With ``parameters=True`` the model's masses, centres of mass,
inertias about the centres of mass, joint offsets and gravity become symbols (m1, r1, I1zz,
l1, g, ...) whose values are returned alongside, so the equations read like a textbook's.
"""
from dataclasses import dataclass

import numpy as np

from ..model import refuse_joint_type
from . import emit
from .expr import Input, Op, Param, Var, add, mul
from .functions import routine, tabulated

MAX_DOF = 6
_AXES = "xyz"


@dataclass
class Equations:
    """tau = M qdd + Cqd + g, in SymPy. ``values`` maps every parameter symbol to its number
    (empty unless parameters=True)."""
    M: object
    Cqd: object
    g: object
    q: object
    qd: object
    qdd: object
    values: dict

    @property
    def tau(self):
        return self.M * self.qdd + self.Cqd + self.g

    def numeric(self):
        """The equations with every parameter replaced by its value."""
        import sympy as sp
        sub = {k: sp.nsimplify(v, rational=True) for k, v in self.values.items()}
        return Equations(self.M.subs(sub), self.Cqd.subs(sub), self.g.subs(sub), self.q,
                         self.qd, self.qdd, {})


def _nice(x):
    """A float as an exact SymPy number when its shortest decimal form is short."""
    import sympy as sp
    s = repr(float(x))
    return sp.Rational(s) if len(s) <= 10 and "e" not in s else sp.Float(x)


def _hold_floats(grav):
    """Replace in grav (in place) each gravity component that is a SymPy Float (no short
    decimal form: 1e308, 1e-320, 0.9793658173053843) by a symbol; returns {symbol: value}
    to substitute once the entries are simplified. simplify() on Floats of extreme
    magnitude ran for minutes (urdf2dyn equations --gravity 1e-320 -9.81 1.5); gravity
    enters linearly, so a symbol simplifies at once and loses nothing."""
    import sympy as sp
    held = {}
    for k, x in enumerate(grav):
        if isinstance(x, sp.Float):
            symbol = sp.Symbol(f"_gravity_{'xyz'[k]}", real=True)
            held[symbol], grav[k] = x, symbol
    return held


def _to_sympy(fn, env, inputs, params):
    import sympy as sp
    memo = {}

    def conv(x):
        if isinstance(x, float):
            return _nice(x)
        if isinstance(x, Var):
            return env[x.name]
        if isinstance(x, Input):
            return inputs(x)
        if isinstance(x, Param):
            return params[x.name]
        key = id(x)
        if key in memo:
            return memo[key][1]
        args = [conv(a) for a in x.args]
        k = x.kind
        if k == "+":
            r = sp.Add(*args)
        elif k == "*":
            r = sp.Mul(*args)
        elif k == "neg":
            r = -args[0]
        elif k == "/":
            r = args[0] / args[1]
        elif tabulated(k):      # a spline of a custom joint: an opaque function fn<i>(q)
            f, order = tabulated(k)
            r = sp.Function(routine(f, 0))(args[0])
            if order:
                r = sp.Derivative(r, (args[0], order))
        else:
            r = getattr(sp, k)(args[0])
        memo[key] = (x, r)
        return r

    outputs = {}
    for st in fn.body:
        if isinstance(st, emit.Let):
            env[st.name] = conv(st.expr)
        elif isinstance(st, emit.Out):
            outputs[st.index] = conv(st.expr)
    return outputs


def _parametrize(K, model):
    """Replace the model's numbers by symbols in K; returns {name: value}."""
    s = K.structure
    values = {}

    def sym(name, value):
        values[name] = float(f"{float(value):.12g}")   # drop the rounding of Ic = Ib - m c c
        return Param(name)

    for b in range(1, K.nb):
        m = float(s.mass[b])
        if m == 0.0:
            continue
        c = s.h[b] / m
        Ic = s.Ib[b] - m * (np.dot(c, c) * np.eye(3) - np.outer(c, c))
        nz = [k for k in range(3) if abs(c[k]) > 1e-12]
        cs = [0.0] * 3
        for k in nz:
            cs[k] = sym(f"r{b}" if len(nz) == 1 else f"r{b}{_AXES[k]}", c[k])
        ms = sym(f"m{b}", m)
        Is = [0.0] * 9
        for i in range(3):
            for j in range(i, 3):
                if abs(Ic[i, j]) > 1e-12 * max(1.0, abs(Ic).max()):
                    Is[3 * i + j] = Is[3 * j + i] = sym(f"I{b}{_AXES[i]}{_AXES[j]}", Ic[i, j])
        K.mass[b] = ms
        K.h[b] = [mul(ms, x) for x in cs]
        cc = add(*(mul(x, x) for x in cs))
        K.Ib[b] = [add(Is[3 * i + j], mul(ms, add(cc if i == j else 0.0, mul(-1.0, cs[i], cs[j]))))
                   for i in range(3) for j in range(3)]
    for b in range(1, K.nb):
        p = int(s.parent[b])
        nz = [k for k in range(3) if K.r[b][k] != 0.0]
        siblings = sum(1 for c in range(1, K.nb) if int(s.parent[c]) == p)
        for k in nz:
            name = f"l{p}" if len(nz) == 1 and siblings == 1 else f"l{p}_{b}{_AXES[k]}"
            K.r[b][k] = sym(name, K.r[b][k])
    return values


def equations(model, parameters=False, simplify=True):
    """M(q), C(q, qd) qd and g(q) of a robot with at most 6 DoF, as SymPy matrices.

    Parameters
    ----------
    model : urdf2dyn.Model
        Gravity is the model's (``model.gravity``).
    parameters : bool
        Keep masses (m1, ...), centres of mass (r1 or r1x, r1y, ...), inertias about the
        centres of mass (I1zz, ...), joint offsets (l1, ...) and gravity (g) as symbols;
        their values are in the result's ``values``. Default: the model's numbers.
    simplify : bool
        Simplify every entry (trigonometric identities, collected terms).

    Returns
    -------
    Equations
        With ``M`` (nv x nv), ``Cqd`` and ``g`` (nv x 1), the symbols ``q``, ``qd``, ``qdd``
        (named after the joints' order: q1, q2, ...), and ``tau`` = M qdd + Cqd + g.
        An OpenSim custom joint's spline (or piecewise-linear function) appears as an
        undefined function ``fn<i>(q_j)`` with its derivatives (i indexes the model's joint
        functions, as in the generated code's routines); linear, polynomial and constant
        functions appear as themselves.
    """
    try:
        import sympy as sp
    except ImportError:
        raise ImportError("the symbolic equations need SymPy: pip install "
                          "\"urdf2dyn[symbolic]\"") from None
    # the joints first: for a model with one, generate(), which the DoF advice names, refuses
    for jtype in ("ellipsoid", "constant_curvature"):
        refuse_joint_type(model, jtype, "symbolic", emit.NOT_GENERATED)
    if model.nv > MAX_DOF:
        raise ValueError(f"symbolic: {model.name!r} has {model.nv} DoF; symbolic equations "
                         f"are for robots of at most {MAX_DOF} (use generate() for code)")
    K = emit.Constants(model)
    values = _parametrize(K, model) if parameters else {}
    params = {name: sp.Symbol(name, real=True) for name in values}
    q = sp.Matrix(sp.symbols(f"q1:{model.nq + 1}", real=True))
    qd = sp.Matrix(sp.symbols(f"qd1:{model.nv + 1}", real=True))
    qdd = sp.Matrix(sp.symbols(f"qdd1:{model.nv + 1}", real=True))
    gvec = [float(x) for x in model.gravity]
    nz = [k for k in range(3) if gvec[k] != 0.0]
    if parameters and len(nz) == 1:
        gs = params["g"] = sp.Symbol("g", positive=True)
        values["g"] = abs(gvec[nz[0]])
        grav = [0 if k != nz[0] else (gs if gvec[k] > 0 else -gs) for k in range(3)]
    else:
        grav = [_nice(x) for x in gvec]
    held = _hold_floats(grav)

    def inputs(zero_v):
        def f(leaf):
            i = leaf.index[0]
            if leaf.array == "q":
                return q[i]
            if leaf.array == "g":
                return grav[i]
            if leaf.array == "v":
                return 0 if zero_v else qd[i]
            return 0            # a: zero acceleration
        return f

    rnea = emit.rnea(model, K)
    gq = _to_sympy(rnea, {}, inputs(True), params)
    hq = _to_sympy(rnea, {}, inputs(False), params)
    Mq = _to_sympy(emit.crba(model, K), {}, inputs(True), params)
    nv = model.nv
    G = sp.Matrix([gq.get((i,), 0) for i in range(nv)])
    Cqd = sp.Matrix([hq.get((i,), 0) - gq.get((i,), 0) for i in range(nv)])
    M = sp.Matrix(nv, nv, lambda i, j: Mq.get((i, j), 0))
    if simplify:
        def tidy(e):
            return sp.factor_terms(sp.simplify(e))
        M, Cqd, G = M.applyfunc(tidy), Cqd.applyfunc(tidy), G.applyfunc(tidy)
    M, Cqd, G = M.subs(held), Cqd.subs(held), G.subs(held)
    return Equations(M, Cqd, G, q, qd, qdd, {params[k]: v for k, v in values.items()})
