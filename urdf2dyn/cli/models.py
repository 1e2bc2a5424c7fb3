"""The commands on models: urdf2dyn human, info, check, convert and export-osim."""
import sys

from ..model import Joint, Model, load
from .._safe_files import replacing
from ..tree import dot, edge_label, groups, tree
from ..warn import escaped, shown
from .options import (CONVERT_COLUMNS, HUMAN_MASS, HUMOD_GRAVITY_HELP, THRESHOLD, TRIAL_COLUMNS,
                      UsageError, add_floating_base, add_gravity, add_strict, height, in_flag_words,
                      model_path, refuse_overwriting, set_gravity, sex, suffix)


def cmd_human(args):
    from ..biomech.human import HUMOD_SUBJECTS, human
    if args.subject:
        sex, mass, height = HUMOD_SUBJECTS[args.subject.upper()]
        name = args.name or f"humod_subject_{args.subject.lower()}"
        if any(x is not None for x in (args.height, args.mass, args.sex)):
            raise UsageError("--subject sets height, mass and sex: give either --subject or "
                             "--height/--mass/--sex")
    else:
        missing = [f"--{k}" for k in ("height", "mass", "sex") if getattr(args, k) is None]
        if missing:
            raise UsageError(f"human: missing {' '.join(missing)} (or use --subject A|B)")
        height, mass, sex, name = args.height, args.mass, args.sex, args.name
    refuse_overwriting([("--output", args.output)])
    text = human(height, mass, sex, root=args.root, name=name)
    model = load(text)                 # read back before it is written
    with replacing(args.output) as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.output}: {model!r}")
    from ..biomech.human import _sex
    print(f"  {_sex(sex)}, {float(height):g} m, {float(mass):g} kg (de Leva 1996 segments); "
          f"y up, x forward, z right: use gravity (0, -9.81, 0) "
          f"(urdf2dyn torques does so for this model)")
    return 0


def add_human_parser(sub):
    h = sub.add_parser("human", help="write the URDF of a 36-DoF HuMoD human body",
                       description="Write the 36-DoF human model (HuMoD joints, de Leva 1996 "
                       "segment parameters scaled to height and mass) as URDF. Frames: y up, x "
                       "forward, z right.")
    h.add_argument("--height", type=height, help="stature in m")
    h.add_argument("--mass", type=HUMAN_MASS, help="body mass in kg")
    h.add_argument("--sex", type=sex, help="female or male (f/m)")
    h.add_argument("--subject", choices=("A", "B", "a", "b"),
                   help="a HuMoD subject instead: A (female, 1.61 m, 57.3 kg) or B (male, "
                        "1.79 m, 84.8 kg)")
    h.add_argument("--root", choices=("prismatic", "floating"), default="prismatic",
                   help="root: 3 prismatic + 3 revolute joints named as HuMoD (default), or "
                        "one floating joint BJ")
    h.add_argument("--name", help="robot name in the URDF")
    h.add_argument("-o", "--output", required=True, type=suffix(".urdf"),
                   help="URDF file to write")
    h.set_defaults(func=cmd_human)


def passive_summary(model: Model) -> str:
    """"damping on 3 (1 with v|v| or v^3 terms), springs on 2 of 5 joints": the joints with
    each passive term, a joint whose only terms are MuJoCo 4's polynomial ones included;
    "" when there is none."""
    damped = [j for j in model.joints if j.damping or any(j.damping_poly)]
    sprung = [j for j in model.joints if j.stiffness or any(j.stiffness_poly)]
    if not damped and not sprung:
        return ""

    def count(joints: list[Joint], attr: str, terms: str) -> str:
        poly = sum(1 for j in joints if any(getattr(j, attr)))
        return f"{len(joints)}" + (f" ({poly} with {terms} terms)" if poly else "")

    return (f"damping on {count(damped, 'damping_poly', 'v|v| or v^3')}, springs on "
            f"{count(sprung, 'stiffness_poly', 'x^2 or x^3')} of {len(model.joints)} joints")


def cmd_info(args):
    path = model_path(args.model)
    refuse_overwriting([("--dot", args.dot), ("--plot", args.plot)], [("model", path)])
    model = load(path, floating_base=args.floating_base, strict=args.strict)
    links, joints, root = tree(model)
    edges = groups(links, joints, root, args.full)
    out = sys.stdout
    print(f"{model!r}", file=out)
    types = {}
    for j in model.joints:
        types[j.type] = types.get(j.type, 0) + 1
    print(f"movable joints: {len(model.joints)} ({', '.join(f'{n} {t}' for t, n in types.items())})"
          f"; nq = {model.nq}, nv = {model.nv}", file=out)
    massive = sum(1 for m in links.values() if m > 0)
    print(f"links: {len(links)} ({massive} with mass); mass of the moving links "
          f"{model.total_mass:.6g} kg", file=out)
    rotors = [x for x in model.armature.tolist() if x]
    if rotors:
        values = sorted(set(rotors))
        print(f"armature (a rotor's inertia on M's diagonal): {len(rotors)} of {model.nv} "
              f"coordinates, {', '.join(f'{x:g}' for x in values[:6])}"
              f"{' ...' if len(values) > 6 else ''}", file=out)
    passive = passive_summary(model)
    if passive:
        print(f"passive forces (model.passive_forces, not in inverse dynamics): {passive}",
              file=out)
    turning = model.turning_axis_joints()
    if turning:
        print(f"joints turning several rotation axes with one coordinate (torques differ from "
              f"OpenSim's tool where they move; docs/osim_models.rst): "
              f"{', '.join(map(shown, turning))}",
              file=out)
    merged = "" if args.full else "; chains of joints through massless links shown as one"
    print(f"tree (joint: type, DoF -> link, mass){merged}:", file=out)
    print(shown(root) + (f"  {links[root]:.4g} kg" if links.get(root) else ""), file=out)
    stack = [(chain, child, "", k == len(edges[root]) - 1)
             for k, (chain, child) in enumerate(edges.get(root, []))][::-1]
    while stack:       # depth first, children in document order
        chain, child, prefix, last = stack.pop()
        name, kind, dof = edge_label(chain)
        mass = links.get(child, 0.0)
        mtxt = f"{mass:.4g} kg" if mass > 0 else "massless"
        branch = "└── " if last else "├── "
        print(f"{prefix}{branch}{shown(name)} ({kind}, {dof} DoF) -> {shown(child)}  {mtxt}",
              file=out)
        sub = edges.get(child, [])
        inner = prefix + ("    " if last else "│   ")
        stack += [(c, ch, inner, k == len(sub) - 1) for k, (c, ch) in enumerate(sub)][::-1]
    if args.dot:
        with replacing(args.dot) as tmp, open(tmp, "w", encoding="utf-8") as f:
            f.write(dot(model, links, edges, root))
        print(f"Graphviz DOT written to {args.dot} (render: dot -Tpng {args.dot} -o tree.png)",
              file=out)
    if getattr(args, "plot", None):
        from ..tree import plot_tree
        plot_tree(model, args.plot, full=args.full)
        print(f"tree drawn in {args.plot}", file=out)
    return 0


def add_info_parser(sub):
    i = sub.add_parser("info", help="print a model's kinematic tree (joints, DoF, masses)",
                       description="Print the kinematic tree of a URDF model: joints with their "
                       "type, axis and DoF, links with their mass; optionally write it as a "
                       "Graphviz DOT graph.")
    i.add_argument("model", help="URDF file (or the name of a bundled one, e.g. "
                                 "humod_subject_a.urdf)")
    add_floating_base(i)
    i.add_argument("--full", action="store_true",
                   help="show every joint and link (default: chains of joints through massless "
                        "links, i.e. multi-DoF joints, are shown as one)")
    i.add_argument("--dot", metavar="FILE", type=suffix(".dot", ".gv"),
                   help="write the tree as a Graphviz DOT file")
    i.add_argument("--plot", metavar="PNG", type=suffix(".png", ".pdf", ".svg"),
                   help="draw the tree with matplotlib (links, joints with type and axis, "
                        "merged fixed joints dashed)")
    add_strict(i, "warnings are errors: a finding about the model (e.g. an inertia no rigid "
                  "body has) stops the command, named, before the tree is printed or drawn")
    i.set_defaults(func=cmd_info)


def cmd_check(args):
    from ..urdf_findings import check
    path = model_path(args.model)
    found = check(path, floating_base=args.floating_base)
    for f in found:     # one line each, the path's line breaks too: FILE:LINE: kind: ...
        where = f"{path}:{f.line}" if f.line else path
        print(escaped(f"{where}: {f.kind}: {f.message}"))
    counts = {k: sum(f.kind == k for f in found) for k in ("error", "warning", "advice")}
    def some(n, word):
        return f"{n} {word}" + ("" if n == 1 else "s")
    print(escaped(f"{path}: {some(counts['error'], 'error')}, "
                  f"{some(counts['warning'], 'warning')}, {counts['advice']} advice"))
    failed = counts["error"] or (args.strict and (counts["warning"] or counts["advice"]))
    return 1 if failed else 0


def add_check_parser(sub):
    c = sub.add_parser("check", help="list what is wrong or risky in a URDF, with line numbers",
                       description="List every finding about a URDF with its line: errors "
                       "(each link and joint it does not load for), warnings (read as "
                       "written, as Pinocchio reads them: non-physical inertias, unknown "
                       "elements, missing limits...) and advice on a file that loads "
                       "(massless moving leaves, tiny masses, bad limits). Exit status 1 on "
                       "an error, or on any finding with --strict.")
    c.add_argument("model", help="URDF file (or the name of a bundled one)")
    add_floating_base(c, "check the model with a floating joint above the root link")
    add_strict(c, "exit with status 1 on any warning or advice too")
    c.set_defaults(func=cmd_check)


def cmd_convert(args):
    """A model (.osim -> .urdf) or a lab's recording (.c3d -> .trc / .mot), by the input's
    suffix."""
    refuse_overwriting([("--output", out) for out in args.output], [("input", args.input)])
    from ..biomech.formats import convert, options_not_taken
    options = {"rotation": args.rotate, "threshold": args.threshold, "units": args.units,
               "rate": args.rate}
    # the library refuses them by its keywords; a command-line user reads the flags given
    flags = [f"--{'rotate' if k == 'rotation' else k}"
             for k in options_not_taken(args.input, options)]
    if flags:
        raise UsageError(f"{' and '.join(flags)}: for a C3D input; {args.input} converts "
                         "without them")
    for path, what in convert(args.input, args.output, strict=args.strict,
                              named=CONVERT_COLUMNS, **options):
        print(f"{path}: {what}")
    return 0


def add_convert_parser(sub):
    v = sub.add_parser("convert", help="convert a file by its suffix: an OpenSim model to "
                       "URDF, C3D to .trc markers and .mot force plates",
                       description="Convert an OpenSim model to URDF (-o MODEL.urdf): every "
                       "joint URDF can express exactly (each coordinate moving one axis by +-q "
                       "plus a constant) becomes revolute and prismatic joints named after the "
                       "coordinates; axes moved by splines, polynomials or scaled coordinates "
                       "are frozen at the coordinates' default values, each one named in a "
                       "warning (--strict refuses instead). Or convert a lab's file for OpenSim "
                       "users: a C3D file's "
                       "markers to a .trc file (-o TRIAL.trc) and its force plates to an "
                       "OpenSim .mot (-o TRIAL_grf.mot: per plate ground_force_v*, "
                       "ground_force_p*, ground_torque_* in N, m, N·m, the free moment about "
                       "the centre of pressure); the lab frame unless --rotate is given "
                       "(needs: pip install \"urdf2dyn[c3d]\").")
    v.add_argument("input", help="the file to convert (.osim or .c3d)")
    v.add_argument("-o", "--output", action="append", required=True, metavar="FILE",
                   help="a file to write, its suffix saying what (.urdf: the model; .trc: "
                        "markers; .mot/.sto: force plates); repeatable")
    v.add_argument("--rotate", metavar="AXIS:DEG[,AXIS:DEG]",
                   help="rotation from the lab frame to the model frame, about the lab's axes "
                        "in order, e.g. x:-90 for a z-up lab and a y-up OpenSim model "
                        "(default: the lab frame)")
    v.add_argument("--threshold", type=THRESHOLD, metavar="N",
                   help="contact threshold of the force plates: below it no centre of "
                        "pressure, and force and free moment 0 (default 20)")
    v.add_argument("--units", choices=("mm", "cm", "m"),
                   help="length unit of the .trc written (default mm)")
    v.add_argument("--rate", choices=("analog", "marker"),
                   help="sampling of the force plates' .mot: analog, the plates' own rate "
                        "(default; what OpenSim's C3DFileAdapter gives), or marker, each "
                        "marker frame's mean of its analog samples")
    add_strict(v, "treat every warning (missing markers, plates left out, a joint "
                  "frozen in the URDF, ...) as an error")
    v.set_defaults(func=cmd_convert)


def cmd_export_osim(args):
    from ..biomech.opensim_model import export_osim
    path = model_path(args.model)
    refuse_overwriting([("--output", args.output)], [("model", path)])
    model = load(path, strict=args.strict)
    set_gravity(model, args.gravity)
    try:
        om = export_osim(model, args.output, named=TRIAL_COLUMNS)
    except ValueError as e:
        raise in_flag_words(e, args) from None
    g = " ".join(f"{x:g}" for x in om.getGravity().to_numpy())
    coords = om.getCoordinateSet()
    renamed = sum(not coords.contains(n) for n in model.q_names)
    named = "named as the URDF joints" + (f", {renamed} renamed: see the warning" if renamed
                                          else "")
    print(f"{args.output}: OpenSim model '{om.getName()}', {om.getNumBodies()} bodies, "
          f"{om.getNumCoordinates()} coordinates ({named}), gravity {g}")
    return 0


def add_export_osim_parser(sub):
    x = sub.add_parser("export-osim", help="write the equivalent OpenSim model (.osim)",
                       description="Write an OpenSim model with the URDF's bodies, masses, "
                       "inertias, joint frames and axes; each movable joint becomes a "
                       "coordinate of the same name (needs: pip install opensim).")
    x.add_argument("model", help="URDF file (or the name of a bundled one, e.g. "
                                 "humod_subject_a.urdf)")
    x.add_argument("-o", "--output", required=True, type=suffix(".osim"),
                   help=".osim file to write")
    add_gravity(x, HUMOD_GRAVITY_HELP)
    add_strict(x, "warnings are errors: a finding about the model (e.g. an inertia no rigid "
                  "body has) stops the run, named, before the .osim is written")
    x.set_defaults(func=cmd_export_osim)
