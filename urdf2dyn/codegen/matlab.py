"""MATLAB / Octave output: one function file per algorithm, vectorized over samples
(rows of q, v, a, tau; f_ext is N x NL x 6 or NL x 6)."""
from .common import banner, identifier, joint_table, said_in_a_comment
from .emit import Comment, Let, Out, describe
from .expr import Printer
from .functions import calls_of, matlab_routines


class MPrinter(Printer):
    times = " .* "
    over = " ./ "

    def number(self, x):
        return repr(x)

    def input(self, leaf):
        if leaf.array == "g":
            return f"g({leaf.index[0] + 1})"
        return f"{leaf.array}(:, {', '.join(str(i + 1) for i in leaf.index)})"


_DOC = {
    "rnea": ("tau = {p}_rnea(q, v, a, g, f_ext)",
             "Inverse dynamics: tau (N x NV) = M(q) a + C(q, v) v + g(q) - sum J' f_ext.\n"
             "%   g defaults to the model's gravity; f_ext (N x NL x 6 or NL x 6) to none."),
    "crba": ("M = {p}_crba(q)", "Joint-space inertia matrix M(q): N x NV x NV."),
    "aba": ("qdd = {p}_aba(q, v, tau, g, f_ext)",
            "Forward dynamics: qdd (N x NV) = M^-1 (tau + sum J' f_ext - C v - g)."),
    "fk": ("[pos, rot] = {p}_fk(q)",
           "Every link's world position (N x NL x 3) and rotation (N x NL x 3 x 3,\n"
           "%   columns: the link's axes), links in the order listed below."),
    "jtf": ("tau = {p}_jtf(q, f_ext)",
            "Generalized force of external wrenches: sum over links of J' f_ext (N x NV)."),
}


def _size(s, model):
    sizes = {"NQ": model.nq, "NV": model.nv, "NL": len(model.link_names)}
    return ", ".join(["n"] + [str(sizes.get(d, d)) for d in s.split(",")])


def render(model, functions, name, scalar, regenerate):
    p = identifier(name)
    P = MPrinter()
    cast = "double" if scalar == "double" else "single"
    g = " ".join(repr(float(x)) for x in model.gravity)
    files = {}
    for fn in functions:
        sig, doc = _DOC[fn.kind]
        sig = sig.format(p=p)
        L = [f"function {sig}", f"% {p.upper()}_{fn.kind.upper()}  {doc}", "%"]
        L += ["% " + line for line in banner(model, "MATLAB/Octave", scalar, regenerate)]
        L += ["%", "% Movable joints (name, type, first q index, first v index; 1-based):"]
        L += [f"%   {said_in_a_comment(n)}: {t}, q({qi + 1}), v({vi + 1})"
              for n, t, qi, vi, _, _ in joint_table(model)]
        if fn.kind in ("fk", "jtf", "rnea", "aba"):
            L += ["% Links (rows of pos/rot and f_ext):"]
            L += [f"%   {k + 1}: {said_in_a_comment(n)}" for k, n in enumerate(model.link_names)]
        L += ["% The model, body by body:"] + ["%   " + line for line in describe(model)]
        L.append("")
        for n, s in fn.inputs:
            if n == "g":
                L.append(f"if nargin < 4 || isempty(g), g = [{g}]; end")
            elif n == "f_ext":
                L += ["if ndims(f_ext) == 2, f_ext = reshape(f_ext, [1, size(f_ext)]); end",
                      "f_ext = repmat(f_ext, [size(q, 1) / size(f_ext, 1), 1, 1]);"]
            else:
                L.append(f"{n} = {cast}({n});")
        L.append("n = size(q, 1);")
        if fn.kind == "aba":
            L += ["if nargin >= 5 && ~isempty(f_ext)   % the wrenches act as joint forces J' f",
                  f"  tau = tau + {p}_jtf(q, f_ext);", "end"]
        for n, s in fn.outputs:
            L.append(f"{n} = zeros({_size(s, model)}, '{cast}');")
        for st in fn.body:
            if isinstance(st, Comment):
                L.append(f"% {st.text}")
            elif isinstance(st, Let):
                L.append(f"{st.name} = {P.expr(st.expr)};")
            elif isinstance(st, Out):
                idx = ", ".join(str(i + 1) for i in st.index)
                L.append(f"{st.array}(:, {idx}) = {P.expr(st.expr)};")
        if fn.kind == "rnea":
            L += ["if nargin >= 5 && ~isempty(f_ext)", f"  tau = tau - {p}_jtf(q, f_ext);",
                  "end"]
        L += ["end"]
        L += matlab_routines(*calls_of(model, [fn]))   # local functions of this file
        L.append("")
        files[f"{p}_{fn.kind}.m"] = "\n".join(L)
    return files
