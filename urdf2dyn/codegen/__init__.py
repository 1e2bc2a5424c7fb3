"""Code generation: a robot's dynamics as readable, dependency-free C, NumPy or
MATLAB/Octave source, and as SymPy equations for small robots.

    >>> import urdf2dyn
    >>> model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    >>> files = urdf2dyn.codegen.generate(model, language="c")
    >>> sorted(files)
    ['robot_2r.c', 'robot_2r.h']

emit.py holds the one description of each algorithm; c.py, python.py and matlab.py print
it; equations.py evaluates it with SymPy.
"""
from . import c as _c, matlab as _matlab, python as _python
from ..model import refuse_joint_type
from .emit import ALGORITHMS, NOT_GENERATED, build

LANGUAGES = {"c": _c, "python": _python, "matlab": _matlab}
FUNCTIONS = ("rnea", "crba", "aba", "fk")

__all__ = ["generate", "symbolic", "write", "LANGUAGES", "FUNCTIONS"]


def generate(model, language="c", functions=FUNCTIONS, scalar="double", name=None, *,
             floating_base_said="floating_base=True", regenerate=None):
    """Source files computing the model's dynamics, unrolled body by body.

    Parameters
    ----------
    model : urdf2dyn.Model
        The compiled robot; everything is read from ``model.structure()``, so the
        generated code follows the model's joint order (``model.joints``).
    language : {"c", "python", "matlab"}
        C99 (one .c and one .h, libm only, no allocation), a NumPy module vectorized over
        samples, or MATLAB/Octave function files vectorized over rows.
    functions : sequence of {"rnea", "crba", "aba", "fk", "jtf"}
        Algorithms to emit. ``jtf`` (the generalized force of external wrenches) is added
        whenever ``rnea`` or ``aba`` is asked for: both take ``f_ext``.
    scalar : {"double", "float"}
        Floating-point type of the arithmetic (C ``float`` uses sinf, cosf, sqrtf).
    name : str, optional
        Prefix of the functions and files (default: the URDF robot name as an identifier).
    floating_base_said : str
        How the caller loads a model with a free root, as the refusal of a model without
        movable joints advises it (default: urdf2dyn.load's keyword; the command line passes
        its flag).
    regenerate : str, optional
        What regenerates the files, as their banner says it (default: this call, with the
        language, functions, scalar and name given, on ``model``; the command line passes
        its command).

    Returns
    -------
    dict
        {file name: source text}. The same model always gives the same bytes.
    """
    if language not in LANGUAGES:
        raise ValueError(f"generate: language must be one of {sorted(LANGUAGES)}, "
                         f"got {language!r}")
    if scalar not in ("double", "float"):
        raise ValueError(f"generate: scalar must be 'double' or 'float', got {scalar!r}")
    if isinstance(functions, str):
        functions = (functions,)
    bad = [f for f in functions if f not in ALGORITHMS]
    if bad or not functions:
        raise ValueError(f"generate: unknown function(s) {bad} (choose among "
                         f"{', '.join(ALGORITHMS)})")
    if model.nv == 0:
        raise ValueError(f"generate: robot {model.name!r} has no movable joint: its links are "
                         f"welded to the world (load it with {floating_base_said}, for "
                         "the dynamics of one free body)")
    for jtype in ("ellipsoid", "constant_curvature"):
        refuse_joint_type(model, jtype, "generate", NOT_GENERATED)
    if regenerate is None:
        regenerate = _this_call(language, functions, scalar, name)
    return LANGUAGES[language].render(model, build(model, functions), name or model.name,
                                      scalar, regenerate)


def _this_call(language, functions, scalar, name):
    """generate's call with these arguments on the caller's model, as a banner says it."""
    named = f", name={name!r}" if name is not None else ""
    return (f"urdf2dyn.codegen.generate(model, {language!r}, functions={list(functions)!r}, "
            f"scalar={scalar!r}{named})")


def write(files, directory):
    """Write {name: text} files into directory (created if needed); returns the paths."""
    import os
    from .._safe_files import replacing
    os.makedirs(directory, exist_ok=True)
    paths = []
    for fname, text in files.items():
        path = os.path.join(directory, fname)
        with replacing(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        paths.append(path)
    return paths


def symbolic(model, parameters=False, simplify=True):
    """M(q), C(q, qd) qd and g(q) as SymPy matrices (robots up to 6 DoF); see
    :func:`urdf2dyn.codegen.symbolic.equations`."""
    from .equations import equations
    return equations(model, parameters=parameters, simplify=simplify)
