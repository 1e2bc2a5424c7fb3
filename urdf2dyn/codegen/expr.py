"""Scalar expressions with the model's constants folded in as they are built.

An expression is a Python float (a constant), a leaf (:class:`Var`: a named temporary,
:class:`Input`: one entry of an input array, :class:`Param`: a named model parameter, kept
symbolic by :func:`urdf2dyn.codegen.symbolic`) or an :class:`Op` node. The constructors
``add``, ``mul``, ``neg``, ``div`` and ``call`` fold as they go: a product with a zero
constant vanishes, a factor of one disappears, constants combine. That folding is what
turns a general recursion into the short straight-line code of one particular robot.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Var:
    """A temporary computed earlier in the function."""
    name: str


@dataclass(frozen=True)
class Input:
    """Entry ``index`` (a tuple) of the input array ``array``."""
    array: str
    index: tuple


@dataclass(frozen=True)
class Param:
    """A model parameter left as a symbol (symbolic equations only)."""
    name: str


@dataclass(frozen=True)
class Op:
    """kind: '+' (args: terms), '*' (args: factors, a constant first if any), 'neg',
    '/' (numerator, denominator) or a function name ('sin', 'cos', 'sqrt')."""
    kind: str
    args: tuple


def is_const(x):
    return isinstance(x, float)


def add(*terms):
    """The folded sum of the terms."""
    flat, const = [], 0.0
    for t in terms:
        if is_const(t):
            const += t
        elif isinstance(t, Op) and t.kind == "+":
            for u in t.args:
                if is_const(u):
                    const += u
                else:
                    flat.append(u)
        else:
            flat.append(t)
    if const != 0.0:
        flat.append(const)
    if not flat:
        return 0.0
    return flat[0] if len(flat) == 1 else Op("+", tuple(flat))


def neg(x):
    if is_const(x):
        return -x
    if isinstance(x, Op):
        if x.kind == "neg":
            return x.args[0]
        if x.kind == "*" and is_const(x.args[0]):
            return _product(-x.args[0], x.args[1:])
    return Op("neg", (x,))


def sub(a, b):
    return add(a, neg(b))


def _product(const, factors):
    if const == 0.0:
        return 0.0
    if not factors:
        return const
    if const == 1.0:
        return factors[0] if len(factors) == 1 else Op("*", tuple(factors))
    if const == -1.0:
        return Op("neg", (_product(1.0, factors),))
    return Op("*", (const,) + tuple(factors))


def mul(*xs):
    """The folded product of the factors."""
    const, factors, sign = 1.0, [], 1.0
    for x in xs:
        if is_const(x):
            const *= x
            continue
        while isinstance(x, Op) and x.kind == "neg":
            sign, x = -sign, x.args[0]
        if isinstance(x, Op) and x.kind == "*":
            for u in x.args:
                if is_const(u):
                    const *= u
                else:
                    factors.append(u)
        else:
            factors.append(x)
    if const == 0.0:
        return 0.0
    return _product(sign * const, factors)


def div(a, b):
    if is_const(b):
        return mul(1.0 / b, a) if b not in (0.0,) else Op("/", (a, b))
    if is_const(a) and a == 0.0:
        return 0.0
    return Op("/", (a, b))


def call(fn, x):
    """fn(x) for fn in sin, cos, sqrt; folded when x is a constant."""
    if is_const(x):
        import math
        return getattr(math, fn)(x)
    return Op(fn, (x,))


def dot(a, b):
    return add(*(mul(x, y) for x, y in zip(a, b)))


def leaves(x, out):
    """Collect the leaves of x into the set out."""
    if isinstance(x, Op):
        for a in x.args:
            leaves(a, out)
    elif not is_const(x):
        out.add(x)
    return out


class Printer:
    """Prints expressions in one language's infix syntax; subclasses set the spelling."""
    times = " * "
    over = " / "

    def number(self, x):
        return repr(x)

    def input(self, leaf):
        raise NotImplementedError

    def function(self, name):
        return name

    def expr(self, x, prec=0):
        """x as text; prec is the binding of the context (0 sum, 1 product, 2 unary)."""
        if is_const(x):
            s = self.number(x)
            return f"({s})" if x < 0 and prec > 0 else s
        if isinstance(x, Var):
            return x.name
        if isinstance(x, Param):
            return x.name
        if isinstance(x, Input):
            return self.input(x)
        k = x.kind
        if k == "+":
            out = self.expr(x.args[0], 0)
            for t in x.args[1:]:
                negative = (is_const(t) and t < 0) or (isinstance(t, Op) and (
                    t.kind == "neg" or (t.kind == "*" and t.args[0].__class__ is float
                                        and t.args[0] < 0)))
                out += (" - " + self.expr(neg(t), 1)) if negative else (" + " + self.expr(t, 0))
            return f"({out})" if prec > 0 else out
        if k == "*":
            parts = [self.expr(a, 1) for a in x.args]
            if is_const(x.args[0]) and x.args[0] < 0:
                parts[0] = "-" + self.number(-x.args[0])
                s = self.times.join(parts)
                return f"({s})" if prec > 0 else s
            s = self.times.join(parts)
            return f"({s})" if prec > 1 else s
        if k == "neg":      # negation is exact: -a * b prints without parentheses
            inner = x.args[0]
            s = "-" + self.expr(inner, 1 if isinstance(inner, Op) and inner.kind in "*/" else 2)
            return f"({s})" if prec > 0 else s
        if k == "/":
            s = self.expr(x.args[0], 1) + self.over + self.expr(x.args[1], 2)
            return f"({s})" if prec > 1 else s
        return f"{self.function(k)}({self.expr(x.args[0], 0)})"
