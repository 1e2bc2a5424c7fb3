"""The recursions, written once, unrolled for one robot into straight-line scalar code.

Each algorithm below reads like its table in Featherstone's "Rigid Body Dynamics Algorithms"
(RNEA 5.1, CRBA 6.2, ABA 7.1) but runs over :mod:`expr` scalars instead of numbers: walking
the compiled tree once leaves a list of statements (``Let`` a named temporary, ``Out`` an
entry of an output array, ``Comment``), with every constant of the model folded in. The
language modules (c.py, python.py, matlab.py) only print that list; equations.py evaluates
it with SymPy. One description of each algorithm, three spellings.

Conventions are the core's (u2d_spatial.h): motion [w; v], force [n; f], Xup = (E, r)
with E rotating parent coordinates into body coordinates and r the body origin in the
parent. Gravity enters as the world's acceleration a_0 = -g. External wrenches are
per link, world coordinates, [f; m] with m about the world origin (DESIGN.md); they enter
RNEA and ABA through the generalized force J^T f (function ``jtf``), gathered in world
coordinates where wrenches about one point simply add up the tree.
"""
from dataclasses import dataclass, field

import numpy as np

from .common import said_in_a_comment
from .expr import Input, Var, add, call, div, dot, is_const, mul, neg, sub
from .functions import Functions

ALGORITHMS = ("rnea", "crba", "aba", "fk", "jtf")

_SNAP = 1e-14   # rotation entries within this of 0 or +-1 are taken as exact


@dataclass
class Comment:
    text: str


@dataclass
class Let:
    name: str
    expr: object
    declare: bool       # first assignment of the name (C declares it here)


@dataclass
class Out:
    array: str
    index: tuple
    expr: object


@dataclass
class Function:
    """One unrolled algorithm: ``kind`` names it (rnea, crba, aba, fk, jtf); inputs and
    outputs are (name, shape) with shape in terms of NQ, NV, NL."""
    kind: str
    inputs: list
    outputs: list
    body: list = field(default_factory=list)
    zero_outputs: bool = False      # outputs start at zero (CRBA: entries off the tree)


# ---- the robot's constants ------------------------------------------------------------

def _snap(x):
    x = float(x)
    for target in (0.0, 1.0, -1.0):
        if abs(x - target) < _SNAP:
            return target
    return x


class Constants:
    """The numbers the recursion needs, per body, as plain Python floats (or, for
    symbolic equations, Param expressions): Xtree, axis, plane, inertia, link placements."""

    def __init__(self, model):
        s = model.structure()
        self.structure = s
        self.nb = s.nbody
        self.E = [[_snap(x) for x in s.Xtree_E[b].ravel()] for b in range(self.nb)]
        self.r = [[_snap(x) if abs(x) < _SNAP else float(x) for x in s.Xtree_r[b]]
                  for b in range(self.nb)]
        self.axis = [[float(x) for x in s.axis[b]] for b in range(self.nb)]
        self.plane = [[float(x) for x in s.plane[b]] for b in range(self.nb)]
        self.mass = [float(x) for x in s.mass]
        self.h = [[float(x) for x in s.h[b]] for b in range(self.nb)]
        self.Ib = [[float(x) for x in s.Ib[b].ravel()] for b in range(self.nb)]
        self.link_E = [[_snap(x) for x in E.ravel()] for E in s.link_E]
        self.link_r = [[_snap(x) if abs(x) < _SNAP else float(x) for x in r] for r in s.link_r]
        self.nq, self.nv, self.nl = model.nq, model.nv, len(s.link_names)
        # OpenSim custom joints: their axes and functions (read only when there are some)
        self.functions = Functions(model) if "custom" in s.jtype else None


# what a refused joint type's user does instead of generating code (model.refuse_joint_type)
NOT_GENERATED = "use the model's own functions (model.inverse_dynamics, ...) instead"


def describe(model):
    """Comment text per body: its joint (type, axis) and the URDF links it carries, as a
    comment can hold them (said_in_a_comment)."""
    s = model.structure()
    F = Functions(model) if "custom" in s.jtype else None
    links = {b: [] for b in range(s.nbody)}
    for l, b in enumerate(s.link_body):
        links[int(b)].append(s.link_names[l])
    out = []
    for b in range(s.nbody):
        if b == 0:
            out.append("the world" + (f" (links {', '.join(links[0])})" if links[0] else ""))
            continue
        ax = ""
        if s.jtype[b] in ("revolute", "continuous", "prismatic", "planar"):
            ax = " axis " + " ".join(f"{x:g}" for x in s.axis[b])
        if s.jtype[b] == "custom":
            ax = _custom_axes(model, s, F, b)
        carried = ", ".join(links[b]) if links[b] else "no link"
        out.append(f"joint '{s.joint[b]}' ({s.jtype[b]}{ax}) -> body {b} "
                   f"[{carried}], parent body {int(s.parent[b])}")
    return [said_in_a_comment(line) for line in out]


def _custom_axes(model, s, F, b):
    """A custom joint's driven axes, e.g. ``; rotation 0 0 1 = knee_angle_r, translation
    1 0 0 = fn3(knee_angle_r) (SimmSpline)``: which routine moves which axis."""
    J, parts = F.joints[b], []
    for k in range(6):
        if J.coord[k] < 0:
            continue
        q = model.q_names[int(s.q_index[b]) + J.coord[k]]
        scale, f = F.base(J.func[k])
        kind = F.kind_name(f)
        what = {"SimmSpline": f"fn{f}({q})", "PiecewiseLinearFunction": f"fn{f}({q})",
                "LinearFunction": f"linear({q})", "PolynomialFunction": f"polynomial({q})",
                "Constant": "constant"}[kind]
        if kind in ("SimmSpline", "PiecewiseLinearFunction"):
            what += f" ({kind})"
        if scale != 1.0:
            what = f"{scale:g} {what}"
        axis = " ".join(f"{x:g}" for x in J.axis[k])
        parts.append(f"{'rotation' if k < 3 else 'translation'} {axis} = {what}")
    return "; " + ", ".join(parts)


# ---- the builder ------------------------------------------------------------------------

class Builder:
    def __init__(self, fn):
        self.fn = fn
        self.declared = set()

    def comment(self, text):
        """A comment line in the function's body; text may hold the model's names."""
        self.fn.body.append(Comment(said_in_a_comment(text)))

    def let(self, name, x):
        """x as a named temporary (constants and leaves stay inline)."""
        if is_const(x) or isinstance(x, (Var, Input)) or not hasattr(x, "kind"):
            return x
        self.fn.body.append(Let(name, x, name not in self.declared))
        self.declared.add(name)
        return Var(name)

    def lets(self, name, xs):
        return [self.let(f"{name}_{k}", x) for k, x in enumerate(xs)]

    def out(self, array, index, x):
        self.fn.body.append(Out(array, tuple(index), x))


# ---- 3D and spatial algebra over expressions ------------------------------------------

def mv3(M, a):              # M a, M row-major 9
    return [dot(M[3 * i:3 * i + 3], a) for i in range(3)]


def mtv3(M, a):             # M^T a
    return [dot(M[i::3], a) for i in range(3)]


def mm3(A, B):              # A B
    return [dot(A[3 * i:3 * i + 3], B[j::3]) for i in range(3) for j in range(3)]


def mtm3(A, B):             # A^T B
    return [dot(A[i::3], B[j::3]) for i in range(3) for j in range(3)]


def cross3(a, b):
    return [sub(mul(a[1], b[2]), mul(a[2], b[1])), sub(mul(a[2], b[0]), mul(a[0], b[2])),
            sub(mul(a[0], b[1]), mul(a[1], b[0]))]


def vadd(a, b):
    return [add(x, y) for x, y in zip(a, b)]


def vsub(a, b):
    return [sub(x, y) for x, y in zip(a, b)]


def scale(c, a):
    return [mul(c, x) for x in a]


def xmotion(E, r, m):
    """X m for X = (E, r): [E w; E (v - r x w)]."""
    w, v = m[:3], m[3:]
    return mv3(E, w) + mv3(E, vsub(v, cross3(r, w)))


def xforce_T(E, r, f):
    """X^T f: a body-frame force carried to the parent, [E^T n + r x E^T f; E^T f]."""
    n, lin = mtv3(E, f[:3]), mtv3(E, f[3:])
    return vadd(n, cross3(r, lin)) + lin


def crossm(v, m):
    return cross3(v[:3], m[:3]) + vadd(cross3(v[:3], m[3:]), cross3(v[3:], m[:3]))


def crossf(v, f):
    return vadd(cross3(v[:3], f[:3]), cross3(v[3:], f[3:])) + cross3(v[:3], f[3:])


def inertia_mul(m, h, Ib, x):
    """I x for the rigid-body inertia (m, h, Ib): [Ib w + h x v; m v - h x w]."""
    w, v = x[:3], x[3:]
    return vadd(mv3(Ib, w), cross3(h, v)) + vsub(scale(m, v), cross3(h, w))


def inertia_xform_T(E, r, m, h, Ib):
    """X^T I X: a body inertia expressed in the parent frame (RBDA eq. 2.66)."""
    y = mtv3(E, h)
    hA = vadd(y, scale(m, r))
    rot = mtm3(E, mm3(Ib, E))
    s1, s2 = skew_skew(r, y), skew_skew(hA, r)
    return m, hA, [sub(sub(rot[k], s1[k]), s2[k]) for k in range(9)]


def skew_skew(a, b):        # [a]x [b]x = b a^T - (a.b) 1
    d = dot(a, b)
    return [sub(mul(b[i], a[j]), d if i == j else 0.0) for i in range(3) for j in range(3)]


def inertia_mat6(m, h, Ib):
    hx = [0.0, neg(h[2]), h[1], h[2], 0.0, neg(h[0]), neg(h[1]), h[0], 0.0]
    A = [[0.0] * 6 for _ in range(6)]
    for i in range(3):
        for j in range(3):
            A[i][j] = Ib[3 * i + j]
            A[i][j + 3] = hx[3 * i + j]
            A[i + 3][j] = neg(hx[3 * i + j])
            A[i + 3][j + 3] = m if i == j else 0.0
    return A


def xmat6(E, r):
    """The 6x6 motion transform [E 0; -E [r]x E]."""
    rx = [0.0, neg(r[2]), r[1], r[2], 0.0, neg(r[0]), neg(r[1]), r[0], 0.0]
    B = [neg(x) for x in mm3(E, rx)]
    X = [[0.0] * 6 for _ in range(6)]
    for i in range(3):
        for j in range(3):
            X[i][j] = E[3 * i + j]
            X[i + 3][j] = B[3 * i + j]
            X[i + 3][j + 3] = E[3 * i + j]
    return X


def mat6_vec(A, x):
    return [dot(A[i], x) for i in range(6)]


# ---- joints: Featherstone's jcalc, the only place that looks at the joint type ----------

def axis_angle(n, c, s):
    """Rodrigues' rotation about the constant unit axis n, given cos and sin."""
    k = sub(1.0, c)
    x, y, z = n
    return [add(c, mul(k, x * x)), sub(mul(k, x * y), mul(s, z)), add(mul(k, x * z), mul(s, y)),
            add(mul(k, x * y), mul(s, z)), add(c, mul(k, y * y)), sub(mul(k, y * z), mul(s, x)),
            sub(mul(k, x * z), mul(s, y)), add(mul(k, y * z), mul(s, x)), add(c, mul(k, z * z))]


def quat_rotation(B, b, quat):
    """The rotation matrix of the quaternion (x, y, z, w) scaled to unit norm, as lets."""
    x, y, z, w = quat
    inv = B.let(f"qn{b}", div(1.0, call("sqrt", add(mul(x, x), mul(y, y), mul(z, z),
                                                       mul(w, w)))))
    x, y, z, w = [B.let(f"quat{b}_{k}", mul(e, inv)) for k, e in enumerate((x, y, z, w))]
    two = 2.0
    R = [sub(1.0, mul(two, add(mul(y, y), mul(z, z)))), mul(two, sub(mul(x, y), mul(z, w))),
         mul(two, add(mul(x, z), mul(y, w))), mul(two, add(mul(x, y), mul(z, w))),
         sub(1.0, mul(two, add(mul(x, x), mul(z, z)))), mul(two, sub(mul(y, z), mul(x, w))),
         mul(two, sub(mul(x, z), mul(y, w))), mul(two, add(mul(y, z), mul(x, w))),
         sub(1.0, mul(two, add(mul(x, x), mul(y, y))))]
    return [B.let(f"Rq{b}_{k}", e) for k, e in enumerate(R)]


def jcalc(B, K, b, jtype, q, qd):
    """(E, r) of Xup = X_J(q) Xtree, the columns of S and cJ = (dS/dt) qd for body b."""
    Et, rt, n = K.E[b], K.r[b], K.axis[b]
    zero3 = [0.0, 0.0, 0.0]
    cJ = [0.0] * 6
    if jtype in ("revolute", "continuous"):
        c = B.let(f"cos{b}", call("cos", q[0]))
        s = B.let(f"sin{b}", call("sin", q[0]))
        k = [i for i in range(3) if abs(n[i]) == 1.0 and n[(i + 1) % 3] == 0.0
             and n[(i + 2) % 3] == 0.0]
        if k:       # a plane rotation: only two rows of Xtree turn
            k = k[0]
            s = mul(n[k], s)
            i, j = (k + 1) % 3, (k + 2) % 3
            E = list(Et)
            for col in range(3):
                ei, ej = Et[3 * i + col], Et[3 * j + col]
                E[3 * i + col] = add(mul(c, ei), mul(s, ej))
                E[3 * j + col] = sub(mul(c, ej), mul(s, ei))
        else:
            E = mtm3(axis_angle(n, c, s), Et)
        return E, list(rt), [list(n) + zero3], cJ
    if jtype == "prismatic":
        d = mtv3(Et, [mul(x, q[0]) for x in n])
        return list(Et), vadd(rt, d), [zero3 + list(n)], cJ
    if jtype == "floating":
        R = quat_rotation(B, b, q[3:7])
        S = [[0.0] * 6 for _ in range(6)]
        for c in range(3):
            S[c][3 + c] = 1.0
            S[c + 3][c] = 1.0
        return mtm3(R, Et), vadd(rt, mtv3(Et, q[0:3])), S, cJ
    if jtype == "ball":             # turns about the joint origin; v = body angular velocity
        R = quat_rotation(B, b, q[0:4])
        S = [[1.0 if r == c else 0.0 for r in range(6)] for c in range(3)]
        return mtm3(R, Et), list(rt), S, cJ
    if jtype == "planar":
        u, w = K.plane[b][:3], K.plane[b][3:]
        c = B.let(f"cos{b}", call("cos", q[2]))
        s = B.let(f"sin{b}", call("sin", q[2]))
        R = axis_angle(n, c, s)
        EJ = [R[0], R[3], R[6], R[1], R[4], R[7], R[2], R[5], R[8]]      # R^T
        rJ = vadd(scale(q[0], u), scale(q[1], w))
        Eu, Ew = mv3(EJ, u), mv3(EJ, w)
        Eu = B.lets(f"Su{b}", Eu)
        Ew = B.lets(f"Sw{b}", Ew)
        S = [zero3 + Eu, zero3 + Ew, list(n) + zero3]
        lin = vadd(scale(qd[0], Eu), scale(qd[1], Ew))
        cJ = zero3 + scale(neg(qd[2]), cross3(n, lin))
        return mm3(EJ, Et), vadd(rt, mtv3(Et, rJ)), S, cJ
    if jtype == "custom":
        return jcalc_custom(B, K, b, q, qd)
    raise ValueError(f"code generation: unsupported joint type {jtype!r}")


def jcalc_custom(B, K, b, q, qd):
    """OpenSim's CustomJoint, as the core's jcalc_custom (u2d_joint.c): the rotation
    R = R(a0, f0) R(a1, f1) R(a2, f2), each axis carried by the turns before it, the origin
    at f3 b3 + f4 b4 + f5 b5 in the parent frame, each f_k a function of one coordinate.
    Coordinate j's column of S sums f_k'(q_j) times the unit twist of each axis it drives,
    the axes seen in the body frame (a_k through the turns after it, b_t through all
    three); cJ = sum_k f_k'' qd^2 (unit twist k) + [sum_k<m w_k w_m a_k x a_m; v x w]."""
    J, F = K.functions.joints[b], K.functions
    ax, nv = J.axis, len(q)
    f, df, ddf, rate, acc = [], [], [], [], []
    for k in range(6):
        c = J.coord[k]
        t = q[c] if c >= 0 else 0.0
        f.append(B.let(f"fx{b}_{k}", F.value(J.func[k], t, 0)))
        if c < 0:
            df.append(0.0), ddf.append(0.0), rate.append(0.0), acc.append(0.0)
            continue
        df.append(B.let(f"dfx{b}_{k}", F.value(J.func[k], t, 1)))
        ddf.append(B.let(f"ddfx{b}_{k}", F.value(J.func[k], t, 2)))
        rate.append(mul(df[k], qd[c]))
        acc.append(mul(ddf[k], qd[c], qd[c]))
    R = []
    for k in range(3):
        if is_const(f[k]):
            c, s = call("cos", f[k]), call("sin", f[k])
        else:
            c = B.let(f"cx{b}_{k}", call("cos", f[k]))
            s = B.let(f"sx{b}_{k}", call("sin", f[k]))
        R.append(axis_angle(ax[k], c, s))
    R12 = B.lets(f"Rx{b}_12", mm3(R[1], R[2]))
    R012 = mm3(R[0], R12)
    EJ = B.lets(f"EJ{b}", [R012[3 * j + i] for i in range(3) for j in range(3)])
    am = [B.lets(f"am{b}_0", mtv3(R12, ax[0])), B.lets(f"am{b}_1", mtv3(R[2], ax[1])),
          list(ax[2])]
    rJ = vadd(vadd(scale(f[3], ax[3]), scale(f[4], ax[4])), scale(f[5], ax[5]))
    bm = [B.lets(f"bm{b}_{t}", mv3(EJ, ax[3 + t])) for t in range(3)]
    E, r = mm3(EJ, K.E[b]), vadd(K.r[b], mtv3(K.E[b], rJ))
    S = [[0.0] * 6 for _ in range(nv)]
    for k in range(6):
        c = J.coord[k]
        if c < 0:
            continue
        e, off = (am[k], 0) if k < 3 else (bm[k - 3], 3)
        for i in range(3):
            S[c][off + i] = add(S[c][off + i], mul(df[k], e[i]))
    S = [B.lets(f"Sx{b}_{c}", col) for c, col in enumerate(S)]
    # w_>k: the rate of the body relative to axis k's frame (w_>2 = 0)
    wgt1 = scale(rate[2], am[2])
    wgt0 = vadd(wgt1, scale(rate[1], am[1]))
    w = vadd(wgt0, scale(rate[0], am[0]))
    v = vadd(vadd(scale(rate[3], bm[0]), scale(rate[4], bm[1])), scale(rate[5], bm[2]))
    cJ = [add(*(mul(acc[k], am[k][i]) for k in range(3))) for i in range(3)] + \
         [add(*(mul(acc[3 + t], bm[t][i]) for t in range(3))) for i in range(3)]
    for k, wgt in ((0, wgt0), (1, wgt1)):
        cJ = vadd(cJ, scale(rate[k], cross3(am[k], wgt)) + [0.0] * 3)
    cJ = vadd(cJ, [0.0] * 3 + cross3(v, w))
    return E, r, S, cJ


# ---- the algorithms ------------------------------------------------------------------

def _coords(K, b, array, adr, count):
    return [Input(array, (adr + k,)) for k in range(count)]


def _forward_joint(B, K, s, b, q, qd=None):
    """Comment, jcalc and named Xup for body b; returns (E, r, S, cJ)."""
    jt = s.jtype[b]
    qb = _coords(K, b, "q", int(s.q_index[b]), int(s.nq[b]))
    qdb = _coords(K, b, qd, int(s.v_index[b]), int(s.nv[b])) if qd else [0.0] * int(s.nv[b])
    E, r, S, cJ = jcalc(B, K, b, jt, qb, qdb)
    E = B.lets(f"E{b}", E)
    r = B.lets(f"r{b}", r)
    return E, r, S, cJ, qdb


def _v_cross_vJ(vparent, v, vJ):
    """v x vJ, known to vanish when the parent is still (v = vJ: a root joint)."""
    if all(is_const(x) and x == 0.0 for x in vparent):
        return [0.0] * 6
    return crossm(v, vJ)


def rnea(model, K=None, gravity=None):
    """tau = RNEA(q, v, a, g) without external forces (``jtf`` adds them)."""
    K = K or Constants(model)
    s, names = K.structure, describe(model)
    fn = Function("rnea", [("q", "NQ"), ("v", "NV"), ("a", "NV"), ("g", "3")],
                  [("tau", "NV")])
    B = Builder(fn)
    g = gravity or [Input("g", (k,)) for k in range(3)]
    v = {0: [0.0] * 6}
    a = {0: [0.0, 0.0, 0.0, neg(g[0]), neg(g[1]), neg(g[2])]}
    f, X, Ss = {}, {}, {}
    B.comment("forward: velocities, accelerations and the forces each body needs")
    for b in range(1, K.nb):
        p = int(s.parent[b])
        B.comment(names[b])
        E, r, S, cJ, qd = _forward_joint(B, K, s, b, "q", "v")
        qdd = _coords(K, b, "a", int(s.v_index[b]), int(s.nv[b]))
        vJ = [add(*(mul(S[k][i], qd[k]) for k in range(len(S)))) for i in range(6)]
        aJ = [add(cJ[i], *(mul(S[k][i], qdd[k]) for k in range(len(S)))) for i in range(6)]
        vb = B.lets(f"v{b}", vadd(xmotion(E, r, v[p]), vJ))
        ab = B.lets(f"a{b}", vadd(vadd(xmotion(E, r, a[p]), aJ), _v_cross_vJ(v[p], vb, vJ)))
        m, h, Ib = K.mass[b], K.h[b], K.Ib[b]
        Iv = B.lets(f"Iv{b}", inertia_mul(m, h, Ib, vb))      # momentum, read twice below
        fb = vadd(inertia_mul(m, h, Ib, ab), crossf(vb, Iv))
        f[b] = B.lets(f"f{b}", fb)
        v[b], a[b], X[b], Ss[b] = vb, ab, (E, r), S
    B.comment("backward: joint forces, and each body's force carried to its parent")
    for b in range(K.nb - 1, 0, -1):
        p = int(s.parent[b])
        B.comment(names[b])
        qdd = _coords(K, b, "a", int(s.v_index[b]), int(s.nv[b]))
        for k, col in enumerate(Ss[b]):      # S^T f, and the rotor's armature * qdd
            B.out("tau", (int(s.v_index[b]) + k,),
                  _plus_armature(s, b, dot(col, f[b]), qdd[k]))
        if p > 0:
            f[p] = B.lets(f"f{p}", vadd(f[p], xforce_T(*X[b], f[b])))
    return fn


def crba(model, K=None):
    """M(q) by the composite-rigid-body algorithm (both triangles)."""
    K = K or Constants(model)
    s, names = K.structure, describe(model)
    fn = Function("crba", [("q", "NQ")], [("M", "NV,NV")], zero_outputs=True)
    B = Builder(fn)
    X, Ss, IC = {}, {}, {}
    B.comment("joint transforms")
    for b in range(1, K.nb):
        B.comment(names[b])
        E, r, S, _, _ = _forward_joint(B, K, s, b, "q")
        X[b], Ss[b] = (E, r), S
        IC[b] = (K.mass[b], list(K.h[b]), list(K.Ib[b]))
    B.comment("composite inertias, leaves first; then each joint's column up the tree")
    for b in range(K.nb - 1, 0, -1):
        p = int(s.parent[b])
        B.comment(names[b])
        m, h, Ib = IC[b]
        m = B.let(f"Ic{b}_m", m)
        h = B.lets(f"Ic{b}_h", h)
        Ib = _sym_lets(B, f"Ic{b}_I", Ib)
        if p > 0:
            mp, hp, Ip = IC[p]
            m2, h2, I2 = inertia_xform_T(*X[b], m, h, Ib)
            IC[p] = (add(mp, m2), vadd(hp, h2), vadd(Ip, I2))
        F = [B.lets(f"F{b}_{b}_{k}", inertia_mul(m, h, Ib, col)) for k, col in enumerate(Ss[b])]
        vi = int(s.v_index[b])
        for k in range(len(F)):
            for l in range(len(Ss[b])):
                B.out("M", (vi + k, vi + l), _plus_armature(s, b, dot(Ss[b][l], F[k]), 1.0)
                      if k == l else dot(Ss[b][l], F[k]))
        j = b
        while int(s.parent[j]) > 0:
            up = int(s.parent[j])   # F seen from the next body up: new names, as F is read
            F = [B.lets(f"F{b}_{up}_{k}", xforce_T(*X[j], Fk)) for k, Fk in enumerate(F)]
            j = up
            vj = int(s.v_index[j])
            for k in range(len(F)):
                for l in range(len(Ss[j])):
                    x = B.let(f"M{vi + k}_{vj + l}", dot(Ss[j][l], F[k]))
                    B.out("M", (vi + k, vj + l), x)
                    B.out("M", (vj + l, vi + k), x)
    return fn


def _plus_armature(s, b, x, factor):
    """x + armature_b * factor: the rotor inertia of body b's joint on a diagonal term (of M,
    of ABA's D) or times the coordinate's acceleration (RNEA); x alone without armature."""
    arm = float(s.armature[b])
    return add(x, mul(arm, factor)) if arm else x


def _sym_lets(B, name, M):
    """A symmetric 3x3 named by its upper triangle."""
    out = [0.0] * 9
    for i in range(3):
        for j in range(i, 3):
            out[3 * i + j] = out[3 * j + i] = B.let(f"{name}{i}{j}", M[3 * i + j])
    return out


def _sym6_lets(B, name, A):
    out = [[0.0] * 6 for _ in range(6)]
    for i in range(6):
        for j in range(i, 6):
            out[i][j] = out[j][i] = B.let(f"{name}_{i}{j}", A[i][j])
    return out


def _inverse_spd(B, name, D):
    """D^-1 for a small symmetric positive definite D, by Cholesky, as named scalars."""
    n = len(D)
    L = [[0.0] * n for _ in range(n)]
    for j in range(n):
        d = sub(D[j][j], add(*(mul(L[j][k], L[j][k]) for k in range(j))))
        L[j][j] = B.let(f"{name}L_{j}{j}", call("sqrt", d))
        for i in range(j + 1, n):
            x = sub(D[i][j], add(*(mul(L[i][k], L[j][k]) for k in range(j))))
            L[i][j] = B.let(f"{name}L_{i}{j}", div(x, L[j][j]))
    Li = [[0.0] * n for _ in range(n)]
    for j in range(n):
        Li[j][j] = B.let(f"{name}Li_{j}{j}", div(1.0, L[j][j]))
        for i in range(j + 1, n):
            x = neg(add(*(mul(L[i][k], Li[k][j]) for k in range(j, i))))
            Li[i][j] = B.let(f"{name}Li_{i}{j}", div(x, L[i][i]))
    Dinv = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            Dinv[i][j] = Dinv[j][i] = B.let(f"{name}_{i}{j}", add(
                *(mul(Li[k][i], Li[k][j]) for k in range(i, n))))
    return Dinv


def aba(model, K=None):
    """qdd = ABA(q, v, tau, g) without external forces (the wrapper adds J^T f to tau)."""
    K = K or Constants(model)
    s, names = K.structure, describe(model)
    fn = Function("aba", [("q", "NQ"), ("v", "NV"), ("tau", "NV"), ("g", "3")],
                  [("qdd", "NV")])
    B = Builder(fn)
    g = [Input("g", (k,)) for k in range(3)]
    v = {0: [0.0] * 6}
    X, Ss, c, IA, pA = {}, {}, {}, {}, {}
    B.comment("pass 1, outward: velocities, bias accelerations and rigid-body forces")
    for b in range(1, K.nb):
        p = int(s.parent[b])
        B.comment(names[b])
        E, r, S, cJ, qd = _forward_joint(B, K, s, b, "q", "v")
        vJ = [add(*(mul(S[k][i], qd[k]) for k in range(len(S)))) for i in range(6)]
        vb = B.lets(f"v{b}", vadd(xmotion(E, r, v[p]), vJ))
        c[b] = B.lets(f"cb{b}", vadd(cJ, _v_cross_vJ(v[p], vb, vJ)))
        m, h, Ib = K.mass[b], K.h[b], K.Ib[b]
        IA[b] = inertia_mat6(m, h, Ib)
        pA[b] = crossf(vb, B.lets(f"Iv{b}", inertia_mul(m, h, Ib, vb)))
        v[b], X[b], Ss[b] = vb, (E, r), S
    B.comment("pass 2, inward: articulated inertias and bias forces")
    U, Dinv, u = {}, {}, {}
    for b in range(K.nb - 1, 0, -1):
        p = int(s.parent[b])
        B.comment(names[b])
        A = _sym6_lets(B, f"IA{b}", IA[b])
        pAb = B.lets(f"pA{b}", pA[b])
        S, nv, vi = Ss[b], len(Ss[b]), int(s.v_index[b])
        Ub = [B.lets(f"U{b}_{k}", mat6_vec(A, col)) for k, col in enumerate(S)]
        ub = [B.let(f"u{b}_{k}", sub(Input("tau", (vi + k,)), dot(S[k], pAb)))
              for k in range(nv)]
        D = [[_plus_armature(s, b, dot(S[k], Ub[l]), 1.0) if k == l else dot(S[k], Ub[l])
              for l in range(nv)] for k in range(nv)]
        Di = _inverse_spd(B, f"Dinv{b}", D)
        U[b], Dinv[b], u[b] = Ub, Di, ub
        if p == 0:
            continue
        UD = [[add(*(mul(Ub[k][i], Di[k][l]) for k in range(nv))) for l in range(nv)]
              for i in range(6)]
        UD = [B.lets(f"UD{b}_{i}", row) for i, row in enumerate(UD)]
        Ia = [[sub(A[i][j], add(*(mul(UD[i][l], Ub[l][j]) for l in range(nv))))
               for j in range(6)] for i in range(6)]
        Ia = _sym6_lets(B, f"Ia{b}", Ia)
        Du = [add(*(mul(Di[l][k], ub[k]) for k in range(nv))) for l in range(nv)]
        pa = [add(pAb[i], dot(Ia[i], c[b]), *(mul(Ub[l][i], Du[l]) for l in range(nv)))
              for i in range(6)]
        pa = B.lets(f"pa{b}", pa)
        XT = xmat6(*X[b])
        XT = [[B.let(f"X{b}_{i}{j}", XT[i][j]) for j in range(6)] for i in range(6)]
        T = [[add(*(mul(Ia[i][k], XT[k][j]) for k in range(6))) for j in range(6)]
             for i in range(6)]
        T = [B.lets(f"T{b}_{i}", row) for i, row in enumerate(T)]
        for i in range(6):
            for j in range(i, 6):
                x = add(IA[p][i][j], *(mul(XT[k][i], T[k][j]) for k in range(6)))
                IA[p][i][j] = IA[p][j][i] = x
        pA[p] = vadd(pA[p], xforce_T(*X[b], pa))
    B.comment("pass 3, outward: accelerations")
    a = {0: [0.0, 0.0, 0.0, neg(g[0]), neg(g[1]), neg(g[2])]}
    for b in range(1, K.nb):
        p = int(s.parent[b])
        B.comment(names[b])
        S, nv, vi = Ss[b], len(Ss[b]), int(s.v_index[b])
        a1 = B.lets(f"ap{b}", vadd(xmotion(*X[b], a[p]), c[b]))
        rhs = [sub(u[b][k], dot(U[b][k], a1)) for k in range(nv)]
        qdd = [B.let(f"qdd{vi + l}", add(*(mul(Dinv[b][l][k], rhs[k]) for k in range(nv))))
               for l in range(nv)]
        for l in range(nv):
            B.out("qdd", (vi + l,), qdd[l])
        a[b] = B.lets(f"a{b}", vadd(a1, [add(*(mul(S[k][i], qdd[k]) for k in range(nv)))
                                         for i in range(6)]))
    return fn


def _world_poses(B, K, s, names, X):
    """World placement of every body: R (body axes in world, columns) and p (origin)."""
    R = {0: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]}
    P = {0: [0.0, 0.0, 0.0]}
    for b in range(1, K.nb):
        p = int(s.parent[b])
        B.comment(names[b])
        E, r, S, _, _ = _forward_joint(B, K, s, b, "q")
        X[b] = (E, r, S)
        Rb = [dot(R[p][3 * i:3 * i + 3], E[3 * j:3 * j + 3]) for i in range(3)
              for j in range(3)]                                  # R_p E^T
        R[b] = B.lets(f"R{b}", Rb)
        P[b] = B.lets(f"p{b}", vadd(P[p], mv3(R[p], r)))
    return R, P


def fk(model, K=None):
    """Every link's world position (NL, 3) and rotation (NL, 3, 3), columns its axes."""
    K = K or Constants(model)
    s, names = K.structure, describe(model)
    fn = Function("fk", [("q", "NQ")], [("pos", "NL,3"), ("rot", "NL,3,3")])
    B = Builder(fn)
    B.comment("body placements in the world")
    R, P = _world_poses(B, K, s, names, {})
    B.comment("links: each rides on its body at a constant placement")
    for l, name in enumerate(s.link_names):
        b = int(s.link_body[l])
        E, r = K.link_E[l], K.link_r[l]
        B.comment(f"link '{name}' on body {b}")
        pos = vadd(P[b], mv3(R[b], r))
        rot = [dot(R[b][3 * i:3 * i + 3], E[3 * j:3 * j + 3]) for i in range(3)
               for j in range(3)]
        for k in range(3):
            B.out("pos", (l, k), pos[k])
        for k in range(9):
            B.out("rot", (l, k // 3, k % 3), rot[k])
    return fn


def jtf(model, K=None):
    """The generalized force of external wrenches, sum over links of J_l^T f_l: wrenches
    about the world origin add up the tree unchanged, and each joint takes the power
    product of its world-frame motion columns with the sum over its subtree."""
    K = K or Constants(model)
    s, names = K.structure, describe(model)
    fn = Function("jtf", [("q", "NQ"), ("f_ext", "NL,6")], [("tau", "NV")])
    B = Builder(fn)
    B.comment("body placements in the world")
    X = {}
    R, P = _world_poses(B, K, s, names, X)
    B.comment("wrenches [n; f] about the world origin, summed over each subtree")
    W = {b: [0.0] * 6 for b in range(K.nb)}
    for l, b in enumerate(s.link_body):
        b = int(b)
        if b > 0:
            f = [Input("f_ext", (l, k)) for k in range(6)]
            W[b] = vadd(W[b], f[3:] + f[:3])
    for b in range(K.nb - 1, 0, -1):
        p = int(s.parent[b])
        B.comment(names[b])
        W[b] = B.lets(f"w{b}", W[b])
        for k, col in enumerate(X[b][2]):
            w0 = mv3(R[b], col[:3])                     # the column in world coordinates
            v0 = vadd(mv3(R[b], col[3:]), cross3(P[b], w0))
            B.out("tau", (int(s.v_index[b]) + k,), add(dot(w0, W[b][:3]), dot(v0, W[b][3:])))
        if p > 0:
            W[p] = vadd(W[p], W[b])
    return fn


def prune(fn):
    """Drop temporaries nothing reads (a leaf's transform, say), then mark the first
    assignment of each name as its declaration."""
    from .expr import leaves
    live, kept = set(), []
    for st in reversed(fn.body):
        if isinstance(st, Let):
            if st.name not in live:
                continue
            live.discard(st.name)
            live |= {x.name for x in leaves(st.expr, set()) if isinstance(x, Var)}
        elif isinstance(st, Out):
            live |= {x.name for x in leaves(st.expr, set()) if isinstance(x, Var)}
        kept.append(st)
    kept.reverse()
    seen = set()
    for st in kept:
        if isinstance(st, Let):
            st.declare = st.name not in seen
            seen.add(st.name)
    fn.body = kept
    return fn


BUILDERS = {"rnea": rnea, "crba": crba, "aba": aba, "fk": fk, "jtf": jtf}


def build(model, functions):
    """The unrolled Functions for the requested algorithms (jtf added for rnea and aba)."""
    K = Constants(model)
    wanted = list(functions)
    if any(f in wanted for f in ("rnea", "aba")) and "jtf" not in wanted:
        wanted.append("jtf")
    return [prune(BUILDERS[f](model, K)) for f in ALGORITHMS if f in wanted]
