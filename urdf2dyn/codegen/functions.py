"""OpenSim's joint functions in generated code: the curves that drive a CustomJoint's axes.

A coupled knee's translations (and Rajagopal's two secondary rotations) are functions f(q)
of the knee angle. The recursions need f, f' (the motion subspace S(q)) and f'' (the bias
term cJ), evaluated exactly as the core evaluates them (csrc/model/u2d_function.c):

- Constant, LinearFunction and PolynomialFunction become plain expressions in q (Horner),
  folded into the unrolled code like any other constant;
- SimmSpline and PiecewiseLinearFunction become calls ``fn<i>(q)``, ``fn<i>_d1(q)``,
  ``fn<i>_d2(q)`` of small routines printed beside the algorithms, their knots and the
  core's fitted coefficients as constant tables: the cubic (or straight segment) of the knot
  interval holding q, the tangent line outside the knots (f'' = 0 there), and the end knot's
  own value within 2e-13 of it (SIMM's rounding rule, kept by OpenSim and the core);
- MultiplierFunction scales either.

The numbers are the core's own (``Model._c.custom_functions()``, spline coefficients already
fitted), printed with 17 significant digits, so the generated routines give the core's
values to the last bits.
"""
import re

from .expr import Op, add, mul

CONSTANT, LINEAR, POLYNOMIAL, SIMM_SPLINE, PIECEWISE_LINEAR, MULTIPLIER = range(6)
KNOT_ROUNDOFF = 2e-13       # SIMM: an abscissa this close to an end knot is on it
_KIND_NAMES = ("Constant", "LinearFunction", "PolynomialFunction", "SimmSpline",
               "PiecewiseLinearFunction", "MultiplierFunction")
_CALL = re.compile(r"^fn(\d+)(?:_d([12]))?$")


def tabulated(kind):
    """(function index, derivative order) when an Op kind is a tabulated function's
    routine, else None."""
    m = _CALL.match(kind)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


def routine(f, order):
    return f"fn{f}" + (f"_d{order}" if order else "")


class CustomJoint:
    """One custom joint as the core holds it: per transform axis k (0-2 rotations, 3-5
    translations) its unit axis, its function and the joint coordinate driving it (-1:
    none, the function is taken at 0)."""

    def __init__(self, coord, func, axis):
        self.coord = list(coord)
        self.func = list(func)
        self.axis = [[float(x) for x in axis[3 * k:3 * k + 3]] for k in range(6)]


class Functions:
    """The model's joint functions and custom joints, read from the core."""

    def __init__(self, model):
        joints, funcs, data = model._c.custom_functions()
        self.joints = {b: CustomJoint(c, f, a) for b, c, f, a in joints}
        self.funcs = funcs                  # (kind, n, at, inner, scale)
        self.data = data

    def base(self, f):
        """(scale, f) with the multipliers above a function folded into one factor."""
        scale = 1.0
        while self.funcs[f][0] == MULTIPLIER:
            scale *= self.funcs[f][4]
            f = self.funcs[f][3]
        return scale, f

    def value(self, f, t, order):
        """The expression of d^order f / dt^order at t (order 0, 1 or 2)."""
        scale, f = self.base(f)
        kind, n, at, _, _ = self.funcs[f]
        p = self.data[at:at + 5 * n] if kind == SIMM_SPLINE else self.data[at:at + 3 * n]
        if kind == CONSTANT:
            x = self.data[at] if order == 0 else 0.0
        elif kind == LINEAR:
            x = (add(mul(p[0], t), p[1]), p[0], 0.0)[order]
        elif kind == POLYNOMIAL:      # Horner, carrying the derivatives along (as the core)
            o = [0.0, 0.0, 0.0]
            for c in self.data[at:at + n]:
                o[2] = add(mul(o[2], t), mul(2.0, o[1]))
                o[1] = add(mul(o[1], t), o[0])
                o[0] = add(mul(o[0], t), c)
            x = o[order]
        elif kind == PIECEWISE_LINEAR and order == 2:
            x = 0.0
        else:
            x = Op(routine(f, order), (t,))
        return mul(scale, x) if scale != 1.0 else x

    def kind_name(self, f):
        return _KIND_NAMES[self.funcs[f][0]]

    def tables(self, f):
        """The numbers of a tabulated function: x, y, b and for a spline c, d."""
        kind, n, at, _, _ = self.funcs[f]
        cols = 5 if kind == SIMM_SPLINE else 3
        return [self.data[at + k * n:at + (k + 1) * n] for k in range(cols)]


def used(functions):
    """The tabulated routines the unrolled Functions call: sorted (f, order)."""
    out = set()

    def walk(x):
        if isinstance(x, Op):
            t = tabulated(x.kind)
            if t:
                out.add(t)
            for a in x.args:
                walk(a)

    for fn in functions:
        for st in fn.body:
            if hasattr(st, "expr"):
                walk(st.expr)
    return sorted(out)


# ---- the routines, in each language -----------------------------------------------------

_ABOUT = ("OpenSim functions of the custom joints (as csrc/model/u2d_function.c evaluates "
          "them): the cubic of the knot interval holding t (SimmSpline; a straight segment "
          "for PiecewiseLinearFunction), the tangent line outside the knots, an end knot's "
          "own value within 2e-13 of it.")


def _wrap(text):
    import textwrap
    return textwrap.wrap(text, 88)


def _num(x, suffix=""):
    s = repr(float(x))
    if "e" not in s and "." not in s and "inf" not in s and "nan" not in s:
        s += ".0"
    return s + suffix


def c_routines(fns, calls, T):
    """C text: the evaluators, each used function's tables and its routines."""
    if not calls:
        return []
    sfx = "f" if T == "float" else ""
    L = ["/* " + "\n * ".join(_wrap(_ABOUT)) + " */",
         f"static int knot_interval(const {T} *x, int n, {T} t)   /* x[k] <= t < x[k + 1] */",
         "{",
         "    int lo = 0, hi = n - 1;",
         "    while (hi - lo > 1) {",
         "        const int mid = (lo + hi) / 2;",
         "        if (t < x[mid]) hi = mid;",
         "        else lo = mid;",
         "    }",
         "    return lo;",
         "}", ""]
    L += [f"static {T} tabulated(const {T} *x, const {T} *y, const {T} *b, const {T} *c,",
          " " * len(f"static {T} tabulated(") + f"const {T} *d, int n, {T} t, int order)",
          "{   /* c, d null: a PiecewiseLinearFunction (straight segments of slopes b) */",
          "    int e = -1;",
          "    if (!c && order > 1) return 0;",
          "    if (t < x[0] || t > x[n - 1]) {       /* tangent line at the end knot */",
          "        e = t < x[0] ? 0 : n - 1;",
          "        return order == 0 ? y[e] + (t - x[e]) * b[e] : order == 1 ? b[e] : 0;",
          "    }",
          f"    if (fabs{sfx}(t - x[0]) <= {_num(KNOT_ROUNDOFF, sfx)}) e = 0;",
          f"    else if (fabs{sfx}(t - x[n - 1]) <= {_num(KNOT_ROUNDOFF, sfx)}) e = n - 1;",
          "    if (e >= 0) return order == 0 ? y[e] : order == 1 ? b[e] : 2 * c[e];",
          "    const int k = knot_interval(x, n, t);",
          f"    const {T} dx = t - x[k];",
          "    if (!c) return order == 0 ? y[k] + dx * b[k] : b[k];",
          "    if (order == 0) return y[k] + dx * (b[k] + dx * (c[k] + dx * d[k]));",
          "    if (order == 1) return b[k] + dx * (2 * c[k] + 3 * dx * d[k]);",
          "    return 2 * c[k] + 6 * dx * d[k];",
          "}", ""]
    for f in sorted({f for f, _ in calls}):
        kind, n = fns.funcs[f][0], fns.funcs[f][1]
        cols = "xybcd" if kind == SIMM_SPLINE else "xyb"
        L.append(f"/* function {f}: {fns.kind_name(f)}, {n} knots */")
        for name, col in zip(cols, fns.tables(f)):
            L.append(f"static const {T} fn{f}_{name}[{n}] = {{"
                     + ", ".join(_num(x, sfx) for x in col) + "};")
        args = ", ".join(f"fn{f}_{c}" for c in cols)
        if kind != SIMM_SPLINE:
            args += f", (const {T} *)0, (const {T} *)0"
        for order in sorted(o for g, o in calls if g == f):
            L.append(f"static {T} {routine(f, order)}({T} t) {{ return tabulated({args}, {n}, t, "
                     f"{order}); }}")
        L.append("")
    return L


def python_routines(fns, calls):
    """Python text: vectorized evaluators over an array of t, tables as module constants."""
    if not calls:
        return []
    L = ["", ""] + ["# " + line for line in _wrap(_ABOUT)] + [
        "def _tabulated(x, y, b, c, d, t, order):",
        "    \"\"\"f, f' or f'' (order 0, 1, 2) at the samples t of a SimmSpline (cubic",
        "    coefficients b, c, d) or a PiecewiseLinearFunction (slopes b; c, d None).\"\"\"",
        "    n = len(x)",
        "    k = np.clip(np.searchsorted(x, t, side='right') - 1, 0, max(n - 2, 0))  # x[k] <= t",
        "    dx = t - x[k]",
        "    if c is None:",
        "        f = (y[k] + dx * b[k], b[k] + 0 * dx, 0 * dx)[order]",
        "        c = np.zeros(n)",
        "    else:",
        "        f = (y[k] + dx * (b[k] + dx * (c[k] + dx * d[k])),",
        "             b[k] + dx * (2 * c[k] + 3 * dx * d[k]),",
        "             2 * c[k] + 6 * dx * d[k])[order]",
        "    first, last = (y[0], b[0], 2 * c[0])[order], (y[-1], b[-1], 2 * c[-1])[order]",
        "    if n < 2:",
        "        return first + 0 * t",
        "    # an end knot's own value within the rounding, then the tangent lines outside",
        f"    f = np.where(np.abs(t - x[-1]) <= {KNOT_ROUNDOFF!r}, last, f)",
        f"    f = np.where(np.abs(t - x[0]) <= {KNOT_ROUNDOFF!r}, first, f)",
        "    f = np.where(t > x[-1], (y[-1] + (t - x[-1]) * b[-1], b[-1], 0.0)[order], f)",
        "    return np.where(t < x[0], (y[0] + (t - x[0]) * b[0], b[0], 0.0)[order], f)"]
    for f in sorted({f for f, _ in calls}):
        kind, n = fns.funcs[f][0], fns.funcs[f][1]
        cols = fns.tables(f)
        L += ["", "", f"# function {f}: {fns.kind_name(f)}, {n} knots",
              f"_FN{f} = ("]
        L += [f"    np.array([{', '.join(repr(float(x)) for x in col)}], dtype=DTYPE),"
              for col in cols]
        if kind != SIMM_SPLINE:
            L.append("    None, None,")
        L.append(")")
        for order in sorted(o for g, o in calls if g == f):
            L += ["", "", f"def _{routine(f, order)}(t):",
                  f"    return _tabulated(*_FN{f}, t, {order})"]
    return L


def matlab_routines(fns, calls):
    """MATLAB/Octave text: local functions at the end of a function file."""
    if not calls:
        return []
    L = [""] + ["% " + line for line in _wrap(_ABOUT)] + [
        "function f = tabulated(x, y, b, c, d, t, order)",
        "n = numel(x);",
        "k = ones(size(t));",
        "for j = 2:n - 1",
        "  k(t >= x(j)) = j;   % x(k) <= t < x(k + 1)",
        "end",
        "dx = t - reshape(x(k), size(t));",
        "yk = reshape(y(k), size(t)); bk = reshape(b(k), size(t));",
        "if isempty(c)   % PiecewiseLinearFunction: straight segments",
        "  pieces = {yk + dx .* bk, bk, 0 * t};",
        "  ce = [0, 0];",
        "else",
        "  ck = reshape(c(k), size(t)); dk = reshape(d(k), size(t));",
        "  pieces = {yk + dx .* (bk + dx .* (ck + dx .* dk)), bk + dx .* (2 * ck + 3 * dx .* dk), "
        "2 * ck + 6 * dx .* dk};",
        "  ce = 2 * [c(1), c(n)];",
        "end",
        "f = pieces{order + 1};",
        "ends = {[y(1), y(n)], [b(1), b(n)], ce};",
        "e = ends{order + 1};",
        f"f(abs(t - x(n)) <= {KNOT_ROUNDOFF!r}) = e(2);",
        f"f(abs(t - x(1)) <= {KNOT_ROUNDOFF!r}) = e(1);",
        "above = t > x(n); below = t < x(1);",
        "tangent = {y(n) + (t(above) - x(n)) * b(n), b(n), 0};",
        "f(above) = tangent{order + 1};",
        "tangent = {y(1) + (t(below) - x(1)) * b(1), b(1), 0};",
        "f(below) = tangent{order + 1};",
        "if n < 2",
        "  f(:) = e(1);",
        "end",
        "end"]
    for f in sorted({f for f, _ in calls}):
        kind, n = fns.funcs[f][0], fns.funcs[f][1]
        names = "xybcd" if kind == SIMM_SPLINE else "xyb"
        out = ", ".join(names)
        L += ["", f"function [{out}] = fn{f}_knots()",
              f"% function {f}: {fns.kind_name(f)}, {n} knots"]
        L += [f"{c} = [" + "; ".join(repr(float(x)) for x in col) + "];"
              for c, col in zip(names, fns.tables(f))]
        L.append("end")
        args = out if kind == SIMM_SPLINE else out + ", [], []"
        for order in sorted(o for g, o in calls if g == f):
            L += ["", f"function f = {routine(f, order)}(t)", f"[{out}] = fn{f}_knots();",
                  f"f = tabulated({args}, t, {order});", "end"]
    return L


def calls_of(model, functions):
    """(Functions, the routines the unrolled functions call) for a model; (None, []) when
    it has no custom joint."""
    if "custom" not in {j.type for j in model.joints}:
        return None, []
    return Functions(model), used(functions)
