"""The commands that write a model's equations: urdf2dyn codegen (C, Python, MATLAB source)
and urdf2dyn equations (SymPy)."""
import os
import shlex

from ..bundled import data_path
from ..model import load
from .options import (TRIAL_COLUMNS, UsageError, add_floating_base, add_gravity, add_strict,
                      model_path, refuse_overwriting)


def cmd_codegen(args):
    from .. import codegen
    path = model_path(args.robot)
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise UsageError(f"--output {args.output}: a file; codegen writes a directory of files")
    model = load(path, floating_base=args.floating_base, strict=args.strict)
    files = codegen.generate(model, args.lang, functions=args.functions,
                             scalar="float" if args.float else "double", name=args.name,
                             floating_base_said=TRIAL_COLUMNS.floating_base,
                             regenerate=_this_command(args))
    refuse_overwriting([("--output", os.path.join(args.output, f)) for f in files],
                       [("model", path)], created=[("--output", args.output)])
    for path in codegen.write(files, args.output):
        print(path)
    return 0


def _this_command(args):
    """The urdf2dyn codegen command that writes the files these args do, run in their folder
    (their banner says so): the model by its path from there, or by its name when bundled,
    every option that shapes them, and -o . So the same model and options give the same
    bytes from whichever folder the command was typed, as long as the model and the output
    lie where they did."""
    robot = args.robot
    if os.path.exists(robot):
        bundled = os.path.dirname(data_path(os.path.basename(robot)))
        if os.path.dirname(os.path.abspath(robot)) == os.path.abspath(bundled):
            robot = os.path.basename(robot)
        else:
            try:
                robot = os.path.relpath(robot, args.output)
            except ValueError:              # on another drive (Windows): no relative path
                robot = os.path.abspath(robot)
    words = ["urdf2dyn", "codegen", robot, "--lang", args.lang, "--functions",
             *args.functions]
    words += ["--float"] * args.float + ["--floating-base"] * args.floating_base
    words += ["--name", args.name] if args.name is not None else []
    return shlex.join(words + ["-o", "."])


def add_codegen_parser(sub):
    c = sub.add_parser("codegen", help="write a robot's dynamics as C, Python or MATLAB code",
                       description="Generate readable, dependency-free source computing the "
                       "robot's dynamics (RNEA, CRBA, ABA, forward kinematics), unrolled body "
                       "by body with the model's constants folded in.")
    c.add_argument("robot", help="URDF file (or the name of a bundled one)")
    c.add_argument("--lang", choices=("c", "python", "matlab"), default="c")
    c.add_argument("--functions", nargs="+", default=["rnea", "crba", "aba", "fk"],
                   choices=("rnea", "crba", "aba", "fk", "jtf"), metavar="FN",
                   help="algorithms to emit among rnea crba aba fk jtf (default: rnea crba "
                        "aba fk)")
    c.add_argument("--float", action="store_true", help="single precision arithmetic")
    add_floating_base(c)
    c.add_argument("--name", help="prefix of the files and functions (default: robot name)")
    c.add_argument("-o", "--output", required=True, metavar="DIR", help="output directory")
    add_strict(c, "warnings are errors: a finding about the model (e.g. an inertia no rigid "
                  "body has) stops the run, named, before any file is written")
    c.set_defaults(func=cmd_codegen)


def cmd_equations(args):
    from ..codegen.equations import equations
    model = load(model_path(args.robot), floating_base=args.floating_base, strict=args.strict)
    if args.gravity:
        model.gravity = args.gravity
    eq = equations(model, parameters=args.parameters)
    import sympy as sp
    show = sp.latex if args.latex else sp.pretty
    print(f"# {model.name}: tau = M(q) qdd + C(q, qd) qd + g(q), q = "
          f"{', '.join(f'q{k + 1} ({n})' for k, n in enumerate(model.q_names))}")
    for title, mat in (("M(q)", eq.M), ("C(q, qd) qd", eq.Cqd), ("g(q)", eq.g)):
        print(f"\n{title} =")
        print(show(mat))
    if eq.values:
        print("\nparameters: " + ", ".join(f"{k} = {v:g}" for k, v in eq.values.items()))
    return 0


def add_equations_parser(sub):
    e = sub.add_parser("equations", help="print M(q), C(q, qd) qd and g(q) of a small robot",
                       description="Print the symbolic equations of motion (SymPy) of a "
                       "robot with at most 6 DoF.")
    e.add_argument("robot", help="URDF file (or the name of a bundled one)")
    e.add_argument("--latex", action="store_true", help="LaTeX instead of text")
    e.add_argument("--parameters", action="store_true",
                   help="masses, centres of mass, inertias, offsets and g as symbols")
    add_gravity(e)
    add_floating_base(e)
    add_strict(e, "warnings are errors: a finding about the model (e.g. an inertia no rigid "
                  "body has) stops the run, named, before any equation is printed")
    e.set_defaults(func=cmd_equations)
