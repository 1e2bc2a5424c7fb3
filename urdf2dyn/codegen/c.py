"""C99 output: one header and one source file, libm only, no allocation, no loops over
the tree (it is unrolled), plain arrays in every signature.

Beside each one-sample function, a batched one (``<prefix>_<kind>_batch``) runs the same
unrolled text over n samples with the samples as the inner (contiguous) dimension:
``q[k][s]`` is coordinate k of sample s. Its loop body is straight-line arithmetic, so a C
compiler vectorizes it across samples (``-O3 -fno-math-errno``, and ``-march=native`` or
``-mavx2`` for wide vectors): the sines and cosines, which libm computes one number at a
time, are taken first for a chunk of samples, in a loop of their own."""
from .common import banner, identifier, joint_table, macro_names, said_in_a_comment
from .emit import Comment, Let, Out
from .expr import Input, Op, Printer, leaves
from .functions import c_routines, calls_of, tabulated

CHUNK = 64      # samples per pass of the batched functions (their sine tables live on the stack)


class CPrinter(Printer):
    def __init__(self, scalar, rename=None):
        self.scalar = scalar
        self.rename = rename or {}

    def number(self, x):
        s = repr(x)
        if "e" not in s and "." not in s and "inf" not in s:
            s += ".0"
        return s + ("f" if self.scalar == "float" else "")

    def function(self, name):
        if tabulated(name):                     # a routine printed by c_routines
            return name
        return name + ("f" if self.scalar == "float" else "")

    def input(self, leaf):
        return self.rename.get(leaf.array, leaf.array) + "".join(f"[{i}]" for i in leaf.index)


class BatchPrinter(CPrinter):
    """Inputs of the batched functions: sample s of each entry."""

    def input(self, leaf):
        shared = leaf.array == "g"              # gravity: one for every sample
        return super().input(leaf) + ("" if shared else "[s]")


def _dims(shape, P):
    if shape == "3":
        return "[3]"
    return "".join(f"[{P}_{d}]" if d in ("NQ", "NV", "NL") else f"[{d}]"
                   for d in shape.split(","))


def _body(fn, printer, T, indent="    "):
    lines = []
    for st in fn.body:
        if isinstance(st, Comment):
            lines.append(f"{indent}/* {st.text} */")
        elif isinstance(st, Let):
            decl = f"{T} " if st.declare else ""
            lines.append(f"{indent}{decl}{st.name} = {printer.expr(st.expr)};")
        elif isinstance(st, Out):
            idx = "".join(f"[{i}]" for i in st.index)
            lines.append(f"{indent}{st.array}{idx} = {printer.expr(st.expr)};")
    return lines


_DOC = {
    "rnea": "Inverse dynamics (RNEA): tau = M(q) a + C(q, v) v + g(q) - sum J^T f_ext.\n"
            " * f_ext may be NULL (no external wrenches).",
    "crba": "Joint-space inertia matrix M(q) (CRBA), both triangles.",
    "aba": "Forward dynamics (ABA): qdd = M^-1 (tau + sum J^T f_ext - C v - g).\n"
           " * f_ext may be NULL. A joint carrying no inertia gives inf/NaN (singular M).",
    "fk": "Forward kinematics: every link's origin pos[l] and rotation rot[l] (columns: the\n"
          " * link's axes) in the world, links indexed by the _LINK_ macros.",
    "jtf": "Generalized force of external wrenches, tau = sum over links of J_l^T f_ext[l].",
}


def _signature(fn, prefix, P, T):
    params = [f"const {T} {n}{_dims(s, P)}" for n, s in fn.inputs]
    if fn.kind in ("rnea", "aba"):
        params.append(f"const {T} f_ext[{P}_NL][6]")
    params += [f"{T} {n}{_dims(s, P)}" for n, s in fn.outputs]
    return f"void {prefix}_{fn.kind}({', '.join(params)})"


BATCHED = ("rnea", "crba", "aba", "fk")     # jtf needs f_ext: one-sample functions only


def _batch_signature(fn, prefix, P, T):
    params = ["size_t n"]
    params += [f"const {T} {n}[3]" if n == "g" else f"const {T} {n}[restrict {_dims(s, P)[1:]}[n]"
               for n, s in fn.inputs]
    params += [f"{T} {n}[restrict {_dims(s, P)[1:]}[n]" for n, s in fn.outputs]
    return f"void {prefix}_{fn.kind}_batch({', '.join(params)})"


def _hoisted(fn):
    """The Lets computing sin/cos or a tabulated joint function (functions.py) of an input
    entry (declared once): their names."""
    count = {}
    for st in fn.body:
        if isinstance(st, Let):
            count[st.name] = count.get(st.name, 0) + 1
    out = set()
    for st in fn.body:
        if (isinstance(st, Let) and st.declare and count[st.name] == 1
                and isinstance(st.expr, Op)
                and (st.expr.kind in ("sin", "cos") or tabulated(st.expr.kind))
                and all(isinstance(x, Input) for x in leaves(st.expr, set()))):
            out.add(st.name)
    return out


# The rows of an output (tau[k][s], tau[k + 1][s]) are n apart, n known only at run time: gcc
# cannot prove they do not overlap and gives up on vectorizing once its run-time alias checks
# would exceed 10 (vect-max-version-for-alias-checks), which every model does. Samples are
# independent (restrict arrays, each iteration reads and writes only its sample s), so the
# loops over samples are marked as carrying no dependence (other compilers see neither).
IVDEP = ["#if defined(__clang__)",
         "#pragma clang loop vectorize(assume_safety)",
         "#elif defined(__GNUC__)",
         "#pragma GCC ivdep",
         "#endif"]


def _sincos_source(prefix):
    """Sine and cosine written to vectorize across samples (libm's take one number at a time
    and were half the batched functions' time): the reduction and polynomials of the core's
    u2d_sincos (csrc/model/u2d_real.h: Cody-Waite with pi/2 in three parts, fdlibm's
    __kernel_sin/__kernel_cos minimax coefficients), for |x| < 2^19; the batched functions
    send other arguments (and NaN) to libm in a loop of their own. Only comparisons of
    doubles and no floor(): gcc -O3 vectorizes neither int conditions mixed with doubles nor
    floor (under the default -ftrapping-math)."""
    return f"""/* sin and cos of x for |x| < 2^19 (garbage for other x: see {prefix}_trig_ok_), branch-free
 * so that a loop over samples vectorizes; the operations of urdf2dyn's core (u2d_sincos) */
static inline int {prefix}_trig_ok_(double x) {{ return fabs(x) < 524288.0; }}  /* NaN: 0 */

static inline void {prefix}_sincos_(double x, double *sin_out, double *cos_out)
{{
    const double round = 6755399441055744.0;        /* 2^52 + 2^51: adding it rounds */
    const double k = (x * 6.36619772367581382433e-01 + round) - round;
    const double r = ((x - k * 1.57079632673412561417e+00) - k * 6.07710050630396597660e-11)
                   - k * 2.02226624879595063154e-21;
    const double z = r * r;
    const double ps = 8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04
                    + z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08
                    + z * 1.58969099521155010221e-10)));
    const double s = copysign(r + (z * r) * (-1.66666666666666324348e-01 + z * ps), r);
    const double pc = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03
                    + z * (2.48015872894767294178e-05 + z * (-2.75573143513906633035e-07
                    + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
    const double hz = 0.5 * z, w = 1.0 - hz;
    const double c = w + (((1.0 - w) - hz) + z * pc);
    /* the quadrant k mod 4 (0, 1, 2, 3): k / 4 - 3/8 is never a tie, so it rounds to floor */
    const double q = k - 4.0 * (((0.25 * k - 0.375) + round) - round);
    const double so = fabs(q - 2.0) == 1.0 ? c : s, co = fabs(q - 2.0) == 1.0 ? s : c;
    *sin_out = q >= 2.0 ? -so : so;                 /* odd q swaps, q = 2, 3 negate sin */
    *cos_out = fabs(q - 1.5) < 1.0 ? -co : co;      /* and q = 1, 2 negate cos */
}}
""".split("\n")


def _batch_body(fn, prefix, P, T):
    """The batched function: chunks of CHUNK samples; the sines and cosines of a chunk
    first (libm), then the unrolled arithmetic, which vectorizes across samples."""
    printer = BatchPrinter(T)
    trig = _hoisted(fn)
    lines = [f"{_batch_signature(fn, prefix, P, T)}", "{",
             "    " + " ".join(f"(void){n};" for n, _ in fn.inputs)]   # a model may not use all
    if fn.zero_outputs:
        for n, s in fn.outputs:
            size = " * ".join(f"{P}_{d}" if d[0] == "N" else d for d in s.split(","))
            lines.append(f"    for (size_t k = 0; k < (size_t){size} * n; k++) "
                         f"(&{n}[0][0][0])[k] = 0;")
    lines += [f"    for (size_t s0 = 0; s0 < n; s0 += {P}_CHUNK) {{",
              f"        const size_t m = n - s0 < {P}_CHUNK ? n - s0 : {P}_CHUNK;"]
    if trig:
        lines.append(f"        {T} " + ", ".join(f"{t}_[{P}_CHUNK]" for t in sorted(trig)) + ";")
        lets = [st for st in fn.body if isinstance(st, Let) and st.name in trig]
        sines = [st for st in lets if st.expr.kind in ("sin", "cos")] if T == "double" else []
        if sines:
            args = {}                           # one call for the sine and cosine of x
            for st in sines:
                args.setdefault(printer.expr(st.expr.args[0]), []).append(st)
            lines += IVDEP + ["        for (size_t j = 0; j < m; j++) {",
                              "            const size_t s = s0 + j;"]
            for i, (arg, sts) in enumerate(args.items()):
                lines += [f"            double s{i}_, c{i}_;",
                          f"            {prefix}_sincos_({arg}, &s{i}_, &c{i}_);"]
                lines += [f"            {st.name}_[j] = {'s' if st.expr.kind == 'sin' else 'c'}{i}_;"
                          for st in sts]
            lines += ["        }", "        for (size_t j = 0; j < m; j++) {   /* |x| >= 2^19, NaN */",
                      "            const size_t s = s0 + j;"]
            lines += [f"            if (!{prefix}_trig_ok_({printer.expr(st.expr.args[0])})) "
                      f"{st.name}_[j] = {printer.expr(st.expr)};" for st in sines]
            lines.append("        }")
        rest = [st for st in lets if st not in sines]     # libm, or a joint function's table
        if rest:
            lines += ["        for (size_t j = 0; j < m; j++) {",
                      "            const size_t s = s0 + j;"]
            lines += [f"            {st.name}_[j] = {printer.expr(st.expr)};" for st in rest]
            lines.append("        }")
    lines += IVDEP + ["        for (size_t j = 0; j < m; j++) {",
                      "            const size_t s = s0 + j;"]
    for st in fn.body:
        if isinstance(st, Comment):
            lines.append(f"            /* {st.text} */")
        elif isinstance(st, Let) and st.name in trig:
            lines.append(f"            const {T} {st.name} = {st.name}_[j];")
        elif isinstance(st, Let):
            decl = f"{T} " if st.declare else ""
            lines.append(f"            {decl}{st.name} = {printer.expr(st.expr)};")
        elif isinstance(st, Out):
            idx = "".join(f"[{i}]" for i in st.index)
            lines.append(f"            {st.array}{idx}[s] = {printer.expr(st.expr)};")
    lines += ["        }", "    }", "}", ""]
    return lines


def render(model, functions, name, scalar, regenerate):
    prefix = identifier(name)
    P = prefix.upper()
    T = scalar
    head = ["/* " + "\n * ".join(banner(model, "C99", scalar, regenerate)) + " */"]
    h = head + [f"#ifndef {P}_H", f"#define {P}_H", "",
                f"#define {P}_NQ {model.nq}   /* configuration coordinates */",
                f"#define {P}_NV {model.nv}   /* velocity coordinates (DoF) */",
                f"#define {P}_NL {len(model.link_names)}   /* URDF links */", "",
                "/* movable joints: first q and v index (type, nq, nv) */"]
    joints = joint_table(model)
    for (jn, jt, qi, vi, nq, nv), m in zip(joints, macro_names([j[0] for j in joints])):
        h.append(f"#define {P}_Q_{m} {qi}   /* {said_in_a_comment(jn)}: {jt}, nq = {nq} */")
        h.append(f"#define {P}_V_{m} {vi}")
    h += ["", "/* links: row of pos/rot (fk) and f_ext */"]
    for k, (ln, m) in enumerate(zip(model.link_names, macro_names(model.link_names))):
        h.append(f"#define {P}_LINK_{m} {k}   /* {said_in_a_comment(ln)} */")
    h.append("")
    for fn in functions:
        h += [f"/* {_DOC[fn.kind]} */", _signature(fn, prefix, P, T) + ";", ""]
    batched = [fn for fn in functions if fn.kind in BATCHED]
    if batched:
        h += ["/* Batched: the same over n samples, samples innermost (q[k][s] is coordinate k",
              " * of sample s; every array is (its one-sample shape) x n, C order), without",
              " * external wrenches; gravity g (3) is shared. Written to vectorize across samples: compile with -O3",
              " * -fno-math-errno (and -march=native). Arrays must not overlap (restrict). */",
              "#include <stddef.h>",
              f"#define {P}_CHUNK {CHUNK}   /* samples per pass (sine tables on the stack) */"]
        h += [_batch_signature(fn, prefix, P, T) + ";" for fn in batched] + [""]
    h += [f"#endif /* {P}_H */", ""]

    c = head + ["#include <math.h>", "#include <stddef.h>", f'#include "{prefix}.h"', ""]
    c.append("/* The joint-by-joint table of the model these functions were unrolled from:")
    from .emit import describe
    for line in describe(model):
        c.append(" *   " + line)
    c.append(" */")
    c.append("")
    c += c_routines(*calls_of(model, functions), T)
    for fn in functions:
        c += [f"/* {_DOC[fn.kind]} */", _signature(fn, prefix, P, T), "{"]
        printer = CPrinter(scalar)
        names = [n for n, _ in fn.inputs] + (["f_ext"] if fn.kind in ("rnea", "aba") else [])
        c.append("    " + " ".join(f"(void){n};" for n in names))
        if fn.kind == "aba":
            c += [f"    {T} tau_f[{P}_NV];",
                  "    if (f_ext) {   /* the wrenches act as extra joint forces J^T f */",
                  f"        {prefix}_jtf(q, f_ext, tau_f);",
                  f"        for (int k = 0; k < {P}_NV; k++) tau_f[k] += tau[k];",
                  "    } else {",
                  f"        for (int k = 0; k < {P}_NV; k++) tau_f[k] = tau[k];",
                  "    }"]
            printer = CPrinter(scalar, {"tau": "tau_f"})
        if fn.zero_outputs:
            for n, s in fn.outputs:
                size = " * ".join(f"{P}_{d}" if d[0] == "N" else d for d in s.split(","))
                c.append(f"    for (int k = 0; k < {size}; k++) (&{n}[0][0])[k] = 0;")
        c += _body(fn, printer, T)
        if fn.kind == "rnea":
            c += ["    if (f_ext) {",
                  f"        {T} e[{P}_NV];",
                  f"        {prefix}_jtf(q, f_ext, e);",
                  f"        for (int k = 0; k < {P}_NV; k++) tau[k] -= e[k];",
                  "    }"]
        c += ["}", ""]
    if T == "double" and any(_hoisted(fn) for fn in batched):
        c += _sincos_source(prefix)
    for fn in batched:
        c += [f"/* {_DOC[fn.kind].splitlines()[0]} Batched (see {prefix}.h). */"]
        c += _batch_body(fn, prefix, P, T)
    return {f"{prefix}.h": "\n".join(h), f"{prefix}.c": "\n".join(c)}
