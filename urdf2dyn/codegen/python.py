"""Python output: one NumPy module; every function takes N samples at once (each
coordinate a column of shape (N,)) and reads like the recursion, body by body."""
from .common import banner, identifier, joint_table
from .emit import Comment, Let, Out, describe
from .expr import Printer
from .functions import calls_of, python_routines, tabulated


class PyPrinter(Printer):
    def __init__(self, scalar):
        self.scalar = scalar

    def number(self, x):
        return repr(x)

    def function(self, name):
        return "_" + name if tabulated(name) else "np." + name

    def input(self, leaf):
        if leaf.array == "g":
            return f"g[{leaf.index[0]}]"
        return f"{leaf.array}[:, {', '.join(str(i) for i in leaf.index)}]"


_SIGS = {
    "rnea": ("rnea(q, v, a, g=GRAVITY, f_ext=None)",
             "Inverse dynamics: tau (N, NV) = M(q) a + C(q, v) v + g(q) - sum J^T f_ext."),
    "crba": ("crba(q)", "Joint-space inertia matrix M(q): (N, NV, NV)."),
    "aba": ("aba(q, v, tau, g=GRAVITY, f_ext=None)",
            "Forward dynamics: qdd (N, NV) = M^-1 (tau + sum J^T f_ext - C v - g)."),
    "fk": ("fk(q)", "Every link's world position (N, NL, 3) and rotation (N, NL, 3, 3)\n"
                    "    (columns: the link's axes), links in LINKS order."),
    "jtf": ("jtf(q, f_ext)", "Generalized force of external wrenches: sum over links of "
                             "J^T f_ext (N, NV)."),
}

_SHAPES = {"NQ": "NQ", "NV": "NV", "NL": "NL"}


def _shape(s):
    return ", ".join(["n"] + [_SHAPES.get(d, d) for d in s.split(",")])


def render(model, functions, name, scalar, regenerate):
    mod = identifier(name)
    dtype = "np.float64" if scalar == "double" else "np.float32"
    P = PyPrinter(scalar)
    g = tuple(float(x) for x in model.gravity)
    L = ['"""' + "\n".join(banner(model, "Python/NumPy", scalar, regenerate)), "",
         "Every function takes one sample ((NQ,), (NV,)) or N samples ((N, NQ), (N, NV))",
         "and returns the matching shape.", "", "The model, body by body:"]
    L += ["    " + line for line in describe(model)]
    L += ['"""', "import numpy as np", "",
          f"NQ, NV, NL = {model.nq}, {model.nv}, {len(model.link_names)}",
          f"GRAVITY = np.array({list(g)!r})",
          f"DTYPE = {dtype}",
          "# movable joints: (name, type, q_index, v_index, nq, nv), in q order",
          "JOINTS = ["]
    L += [f"    {row!r}," for row in joint_table(model)]
    L += ["]", "LINKS = ["]
    L += [f"    {n!r}," for n in model.link_names]
    L += ["]", "", "",
          "def _samples(x, width, name):",
          "    x = np.asarray(x, dtype=DTYPE)",
          "    if x.shape[-1:] != (width,) or x.ndim > 2:",
          "        raise ValueError(f'{name}: expected shape ({width},) or (N, {width}), '",
          "                         f'got {x.shape}')",
          "    return np.atleast_2d(x)", "", "",
          "def _wrenches(f_ext, n):",
          "    f = np.asarray(f_ext, dtype=DTYPE)",
          "    if f.shape[-2:] != (NL, 6) or f.ndim > 3:",
          "        raise ValueError(f'f_ext: expected shape (NL, 6) or (N, NL, 6) with NL = {NL}, '",
          "                         f'got {f.shape}')",
          "    return np.broadcast_to(f, (n, NL, 6))", ""]
    fns, calls = calls_of(model, functions)
    L += python_routines(fns, calls)
    for fn in functions:
        sig, doc = _SIGS[fn.kind]
        L += ["", f"def {sig}:", f'    """{doc}"""']
        ins = [n for n, s in fn.inputs if n != "g"]
        width = {"NQ": "NQ", "NV": "NV"}
        single = ins[0]
        L.append(f"    single = np.ndim({single}) == 1")
        for n, s in fn.inputs:
            if n == "g":
                L.append("    g = np.asarray(g, dtype=DTYPE)")
            elif n == "f_ext":
                L.append("    f_ext = _wrenches(f_ext, q.shape[0])")
            else:
                L.append(f"    {n} = _samples({n}, {width[s]}, {n!r})")
        L.append("    n = q.shape[0]")
        if fn.kind == "aba":
            L += ["    if f_ext is not None:   # the wrenches act as extra joint forces J^T f",
                  "        tau = tau + jtf(q, f_ext)"]
        for n, s in fn.outputs:
            alloc = "zeros" if fn.zero_outputs else "empty"
            L.append(f"    {n} = np.{alloc}(({_shape(s)}), dtype=DTYPE)")
        for st in fn.body:
            if isinstance(st, Comment):
                L.append(f"    # {st.text}")
            elif isinstance(st, Let):
                L.append(f"    {st.name} = {P.expr(st.expr)}")
            elif isinstance(st, Out):
                idx = ", ".join(str(i) for i in st.index)
                L.append(f"    {st.array}[:, {idx}] = {P.expr(st.expr)}")
        if fn.kind == "rnea":
            L += ["    if f_ext is not None:", "        tau -= jtf(q, f_ext)"]
        outs = [n for n, _ in fn.outputs]
        L.append("    if single:")
        L.append("        return " + ", ".join(f"{n}[0]" for n in outs))
        L.append("    return " + ", ".join(outs))
        L.append("")
    return {f"{mod}.py": "\n".join(L)}
