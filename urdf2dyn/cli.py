"""The urdf2dyn command line.

    urdf2dyn torques ROBOT.urdf MOTION [MOTION ...] [-o OUT] [--grf FILE] [--filter HZ] ...
    urdf2dyn human --height 1.61 --mass 57.3 --sex female -o HUMAN.urdf
    urdf2dyn info MODEL [--dot TREE.dot]
    urdf2dyn check ROBOT.urdf [--strict]

``python -m urdf2dyn ...`` is the same. ``urdf2dyn COMMAND --help`` describes each command.
"""
import argparse
import os
import sys
import time
import warnings
import xml.etree.ElementTree as ET

import numpy as np

from ._core import URDFError
from .model import load
from .motion import MotionError
from .warn import Urdf2dynWarning

MOTION_EXTENSIONS = (".csv", ".mot", ".sto", ".mat")


# ============================================================================== torques

def _model_path(path):
    """A URDF path, or the name of a file bundled with urdf2dyn (e.g. humod_subject_a.urdf)."""
    if not os.path.exists(path) and not path.lstrip().startswith("<"):
        from . import data_path
        if os.path.exists(data_path(path)):
            return data_path(path)
    return path


def cmd_torques(args):
    model = load(_model_path(args.robot), floating_base=args.floating_base)
    notes = []
    if args.gravity is not None:
        model.gravity = args.gravity
    elif _is_humod(model):
        from .human import GRAVITY
        model.gravity = GRAVITY
        notes.append("gravity (0, -9.81, 0): a HuMoD human model (y up); --gravity overrides")
    contacts = _parse_contacts(args.contact)
    jobs = _jobs(args)
    multi = len(jobs) > 1 or args.motion_dirs
    for path in (args.output, args.plot, args.residuals):
        if multi and path:
            os.makedirs(path, exist_ok=True)
    if args.plot:
        _need_matplotlib()
    if args.filter is not None or args.derivatives != "gradient":
        what = "--filter" if args.filter is not None else f"--derivatives {args.derivatives}"
        _need_scipy(what)
    results = []
    for motion, grf_path in _progress(jobs, args, "motions"):
        res = _torques_one(model, motion, grf_path, args, contacts, multi)
        results.append(res)
        if not multi:
            _summary(model, args, res, notes)
    if multi:
        _multi_summary(model, args, results, notes)
    return 0


def _jobs(args):
    """[(motion path, ground-reaction path or None)] from the motion arguments: files, and
    directories (their motion files, without *_grf.* files, each paired with its sibling
    <stem>_grf.<ext> when there is one and --grf is not given)."""
    jobs = []
    args.motion_dirs = False
    for item in args.motion:
        if os.path.isdir(item):
            args.motion_dirs = True
            names = sorted(n for n in os.listdir(item)
                           if n.lower().endswith(MOTION_EXTENSIONS) and not _is_grf_name(n)
                           and not _stem(n).endswith(("_torques", "_residuals")))
            if not names:
                raise MotionError(f"{item}: no motion files ({', '.join(MOTION_EXTENSIONS)})")
            for n in names:
                path = os.path.join(item, n)
                jobs.append((path, _grf_for(path, args.grf, sibling=True)))
        else:
            if not os.path.exists(item):
                raise MotionError(f"{item}: no such file or directory")
            jobs.append((item, _grf_for(item, args.grf, sibling=False)))
    if args.grf and len(jobs) > 1 and "{stem}" not in args.grf:
        raise MotionError("--grf names one file but there are several motions: use a pattern "
                          "with {stem} (e.g. --grf '{dir}/{stem}_grf.csv'), or put <stem>_grf.csv "
                          "next to each motion in a directory")
    return jobs


def _is_grf_name(name):
    return _stem(name).lower().endswith("_grf")


def _stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def _grf_for(motion, pattern, sibling):
    if pattern:
        return pattern.format(stem=_stem(motion), dir=os.path.dirname(motion) or ".")
    if sibling:
        base = os.path.join(os.path.dirname(motion), _stem(motion) + "_grf")
        for ext in (".csv", ".sto", ".mot", ".mat"):
            if os.path.exists(base + ext):
                return base + ext
    return None


def _progress(items, args, unit):
    if len(items) < 2 or args.no_progress:
        return items
    try:
        from tqdm import tqdm
    except ImportError:          # the progress bar is optional (pip install tqdm)
        return items
    return tqdm(items, unit=unit[:-1] if unit.endswith("s") else unit, desc="urdf2dyn",
                file=sys.stderr, disable=None)


def _read_motion(path, model, degrees):
    from . import io
    ext = os.path.splitext(path)[1].lower()
    if ext == ".csv":
        return io.read_csv(path, degrees=degrees, model=model)
    if degrees:
        raise MotionError(f"{path}: --degrees applies to CSV files (OpenSim files say "
                          "inDegrees in their header, HuMoD files are in radians)")
    if ext in (".mot", ".sto"):
        return io.read_opensim(path, model=model)
    if ext == ".mat":
        _need_scipy("reading HuMoD .mat files")
        return io.read_humod(path)
    raise MotionError(f"{path}: unknown motion format {ext!r} (expected one of "
                      f"{', '.join(MOTION_EXTENSIONS)})")


def _check_columns(path, traj, model):
    """The same messages as urdf2dyn.motion.read_motion, for every format."""
    from .grf import _OPENSIM_RE
    names = [n for n in traj.names if not _OPENSIM_RE.match(n)]
    floating_from_humod = (any(j.type == "floating" for j in model.joints) and "pBJX" in names
                           and model.q_names[0] == "BJ_x")
    coords = set(model.q_names)
    if floating_from_humod:
        coords = (coords - {f"BJ_{s}" for s in ("x", "y", "z", "qx", "qy", "qz", "qw")}) | {
            "pBJX", "pBJY", "pBJZ", "rBJX", "rBJY", "rBJZ"}
    problems = []
    missing = [n for n in (model.q_names if not floating_from_humod else sorted(coords))
               if n not in names]
    unknown = [n for n in names if n not in coords]
    if missing:
        problems.append(f"missing columns {missing}")
    if unknown:
        problems.append(f"unknown columns {unknown} (expected 'time', the model's coordinates "
                        f"{model.q_names}, optionally '<dof>_vel' / '<dof>_acc', and ground "
                        "reactions grfX_<foot> .. copZ_<foot>)")
    if traj.v_names is not None and not floating_from_humod:
        for kind, arr, suffix in (("velocity", traj.v, "_vel"), ("acceleration", traj.a, "_acc")):
            if arr is not None and sorted(traj.v_names) != sorted(model.v_names):
                miss = [f"{n}{suffix}" for n in model.v_names if n not in traj.v_names]
                extra = [f"{n}{suffix}" for n in traj.v_names if n not in model.v_names]
                problems.append(f"incomplete {kind} columns: missing {miss}"
                                + (f", unknown {extra}" if extra else ""))
    if problems:
        raise MotionError(f"{path}: " + "; ".join(problems))
    if len(traj) < 3:
        raise MotionError(f"{path}: need at least 3 samples, got {len(traj)}")


def _torques_one(model, path, grf_path, args, contacts, multi):
    from . import grf as G
    from . import io
    from .motion import derivatives
    start = time.perf_counter()
    traj = _read_motion(path, model, args.degrees)
    _check_columns(path, traj, model)
    t, q, v, a = traj.for_model(model)
    filtered = False
    if v is None or a is None:
        if args.filter is not None or args.derivatives != "gradient":
            qf, v_est, a_est = io.estimate_derivatives(
                t, q, method=args.derivatives, cutoff_hz=args.filter, model=model,
                return_positions=True)
            if args.filter is not None:
                q, v, a, filtered = qf, v_est, a_est, True
        else:
            v_est, a_est = derivatives(t, q, model)
        v = v_est if v is None else v
        a = a_est if a is None else a
    reactions = None
    if grf_path:
        reactions = G.read_grf(grf_path)
    elif traj.grf:
        reactions = traj
    f_ext = None
    if reactions is not None:
        f_ext = G.external_loads(reactions, model, time=t, links=contacts)
        if filtered:       # the same zero-lag filter on the loads as on the kinematics
            f_ext = {k: io.lowpass(t, w, args.filter) for k, w in f_ext.items()}
    tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)
    try:
        residuals = G.root_residuals(model, q, tau)
    except ValueError:
        residuals = None
    elapsed = time.perf_counter() - start
    mass = args.mass if args.mass is not None else model.total_mass
    out_tau = tau / mass if args.per_kg else tau
    written = []
    if args.output:
        out = _out_path(args.output, path, multi, "_torques", args.format)
        _write_table(out, t, out_tau, model.v_names, args.per_kg)
        written.append(out)
    if args.residuals and residuals is not None:
        out = _out_path(args.residuals, path, multi, "_residuals", "csv")
        table, names = residuals.table()
        _write_table(out, t, table, names, False)
        written.append(out)
    if args.plot:
        out = _out_path(args.plot, path, multi, "_torques", "png")
        _plot(out, t, tau, model, reactions, mass, path, f_ext)
        written.append(out)
    load_peak = None
    if f_ext:
        load_peak = float(np.linalg.norm(sum(f_ext.values())[:, :3], axis=1).max())
    return {"path": path, "grf": grf_path or (path if reactions is not None else None),
            "load_peak": load_peak,
            "t": t, "tau": tau, "residuals": residuals, "elapsed": elapsed, "mass": mass,
            "written": written, "filtered": filtered}


def _out_path(target, motion, multi, suffix, fmt):
    if not multi:
        return target
    ext = {"csv": ".csv", "sto": ".sto", "mot": ".mot", "png": ".png"}[fmt]
    return os.path.join(target, _stem(motion) + suffix + ext)


def _write_table(path, t, values, names, per_kg):
    ext = os.path.splitext(path)[1].lower()
    if ext in (".sto", ".mot"):
        from .io import Trajectory, write_opensim
        unit = "N·m/kg, N/kg" if per_kg else "N·m, N"
        write_opensim(path, Trajectory(t, values, names), degrees=False,
                      name=f"urdf2dyn inverse dynamics ({unit})")
    else:
        from .motion import write_csv
        write_csv(path, t, values, names)


def _plot(out, t, tau, model, reactions, mass, motion, f_ext):
    from . import gait, plot
    title = f"{model.name}: {os.path.basename(motion)}"
    if gait.is_human(model):
        grf_y = None
        if reactions is not None:
            grf_y = {}
            for side in ("L", "R"):
                if side in reactions.grf:
                    link = f"foot_{side}"
                    w = f_ext.get(link) if f_ext else None
                    grf_y[side] = w[:, 1] if w is not None else None
            grf_y = {k: x for k, x in grf_y.items() if x is not None} or None
        plot.plot_sagittal_moments(t, tau, model, out, grf_y=grf_y, mass=mass, title=title)
    else:
        plot.plot_torques(t, tau, model.v_names, out, title=title)


def _need_scipy(what):
    try:
        import scipy.signal  # noqa: F401
    except ImportError:
        raise MotionError(f"{what} needs SciPy: pip install scipy (or pip install "
                          "\"urdf2dyn[cli]\")") from None


def _need_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MotionError("--plot needs matplotlib: pip install matplotlib (or pip install "
                          "\"urdf2dyn[plot]\")") from None


def _is_humod(model):
    names = set(model.q_names)
    return {"pBJX", "rHJZ_L", "rKJZ_R"} <= names or {"BJ_x", "rHJZ_L", "rKJZ_R"} <= names


def _summary(model, args, res, notes):
    from . import gait
    out = sys.stdout
    t, tau = res["t"], res["tau"]
    print(f"{model!r}", file=out)
    for note in notes:
        print(f"note: {note}", file=out)
    extra = ", filtered" if res["filtered"] else ""
    print(f"motion: {res['path']}: {len(t)} samples, t = {t[0]:g} .. {t[-1]:g} s "
          f"({res['elapsed'] * 1e3:.1f} ms from file to torques{extra})", file=out)
    if res["grf"]:
        print(f"ground reactions: {res['grf']}", file=out)
    for w in res["written"]:
        print(f"written: {w}", file=out)
    if gait.is_human(model) and not args.verbose:
        _human_summary(model, res, out)
    else:
        width = max(len(n) for n in model.v_names)
        unit = " per kg" if args.per_kg else ""
        scale = 1.0 / res["mass"] if args.per_kg else 1.0
        print(f"{'DoF':<{width}}  peak |tau|{unit}   at t [s]", file=out)
        peak = np.abs(tau).max(axis=0) * scale
        when = t[np.abs(tau).argmax(axis=0)]
        for name, p, w in zip(model.v_names, peak, when):
            print(f"{name:<{width}}  {p:10.4g}  {w:9.4g}", file=out)
        if gait.is_human(model):
            _human_summary(model, res, out)
    _residual_summary(res, out)


def _human_summary(model, res, out):
    from . import gait
    peaks = gait.peak_moments(model, res["tau"], res["mass"])
    print(f"peak sagittal joint moments, N·m/kg (body mass {res['mass']:.1f} kg):", file=out)
    print(f"  {'':<22}{'left':>7} {'right':>7}", file=out)
    for (joint, direction), v in peaks.items():
        label = f"{joint} {direction}"
        print(f"  {label:<22}{v['L']:>7.2f} {v['R']:>7.2f}", file=out)


def _residual_summary(res, out):
    r = res["residuals"]
    if r is None:
        return
    s = r.summary()
    where = "the root origin" if r.about == "root" else str(r.about)
    print(f"root residuals ({', '.join(r.names)}; moment about {where}):", file=out)
    print(f"  force  |F|: RMS {s['force_rms']:8.2f} N    max {s['force_max']:8.2f} N", file=out)
    print(f"  moment |M|: RMS {s['moment_rms']:8.2f} N·m  max {s['moment_max']:8.2f} N·m",
          file=out)
    if res["grf"] is None:
        print("  (no ground reactions given: the residuals are the whole external load)",
              file=out)
    elif res.get("load_peak"):
        print(f"  peak |F| = {100 * s['force_max'] / res['load_peak']:.1f} % of the peak ground "
              f"reaction force ({res['load_peak']:.0f} N)", file=out)


def _multi_summary(model, args, results, notes):
    from . import gait
    out = sys.stdout
    print(f"{model!r}", file=out)
    for note in notes:
        print(f"note: {note}", file=out)
    human = gait.is_human(model)
    total = sum(len(r["t"]) for r in results)
    secs = sum(r["elapsed"] for r in results)
    print(f"{len(results)} motions, {total} samples, {secs:.2f} s from files to torques",
          file=out)
    head = "hip ext  knee ext  ankle pf (N·m/kg)" if human else "peak |tau|"
    print(f"{'motion':<32} {'samples':>8}  {head}  residual RMS F (N) M (N·m)", file=out)
    for r in results:
        name = os.path.basename(r["path"])
        if human:
            pk = gait.peak_moments(model, r["tau"], r["mass"])
            cols = "  ".join(f"{max(pk[k].values()):7.2f}" for k in (
                ("hip", "extension"), ("knee", "extension"), ("ankle", "plantarflexion")))
        else:
            cols = f"{np.abs(r['tau']).max():10.4g}"
        resid = ""
        if r["residuals"] is not None:
            s = r["residuals"].summary()
            resid = f"  {s['force_rms']:8.2f} {s['moment_rms']:8.2f}"
        print(f"{name:<32} {len(r['t']):>8}  {cols}{resid}", file=out)
        for w in r["written"]:
            print(f"    written: {w}", file=out)


def _parse_contacts(items):
    out = {}
    for item in items or ():
        key, sep, link = item.partition("=")
        if not sep or not link:
            raise ValueError(f"--contact: expected KEY=LINK (e.g. R=foot_R), got {item!r}")
        out[key] = link
    return out


# ============================================================================== human

def cmd_human(args):
    from .human import HUMOD_SUBJECTS, human
    if args.subject:
        sex, mass, height = HUMOD_SUBJECTS[args.subject.upper()]
        name = args.name or f"humod_subject_{args.subject.lower()}"
        if any(x is not None for x in (args.height, args.mass, args.sex)):
            raise ValueError("--subject sets height, mass and sex: give either --subject or "
                             "--height/--mass/--sex")
    else:
        missing = [f"--{k}" for k in ("height", "mass", "sex") if getattr(args, k) is None]
        if missing:
            raise ValueError(f"human: missing {' '.join(missing)} (or use --subject A|B)")
        height, mass, sex, name = args.height, args.mass, args.sex, args.name
    text = human(height, mass, sex, root=args.root, name=name)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    model = load(text)
    print(f"wrote {args.output}: {model!r}")
    from .human import _sex
    print(f"  {_sex(sex)}, {float(height):g} m, {float(mass):g} kg (de Leva 1996 segments); "
          f"y up, x forward, z right: use gravity (0, -9.81, 0) "
          f"(urdf2dyn torques does so for this model)")
    return 0


# ============================================================================== info

def _tree(model):
    """(links {name: mass}, joints [(name, type, parent, child, axis, dof)], root link) of the
    URDF text behind the model, plus the floating root joint when floating_base."""
    doc = ET.fromstring(model._xml)
    if doc.tag != "robot":
        doc = doc.find("robot")
    links = {}
    for link in doc.findall("link"):
        m = link.find("inertial/mass")
        links[link.get("name")] = float(m.get("value", 0)) if m is not None else 0.0
    dof = {j.name: j.nv for j in model.joints}
    joints = []
    for j in doc.findall("joint"):
        axis = j.find("axis")
        ax = tuple(float(x) for x in axis.get("xyz").split()) if axis is not None else None
        joints.append((j.get("name"), j.get("type"), j.find("parent").get("link"),
                       j.find("child").get("link"), ax, dof.get(j.get("name"), 0)))
    children = {j[3] for j in joints}
    roots = [n for n in links if n not in children]
    root = roots[0] if roots else None
    if model.floating_base and root is not None:
        joints.insert(0, ("root_joint", "floating", "<world>", root, None, 6))
        links = {"<world>": 0.0, **links}
        root = "<world>"
    return links, joints, root


def _axis_name(axis):
    if axis is None:
        return ""
    names = {(1.0, 0.0, 0.0): "x", (0.0, 1.0, 0.0): "y", (0.0, 0.0, 1.0): "z",
             (-1.0, 0.0, 0.0): "-x", (0.0, -1.0, 0.0): "-y", (0.0, 0.0, -1.0): "-z"}
    return names.get(tuple(round(a, 9) + 0.0 for a in axis), " ".join(f"{a:g}" for a in axis))


def _groups(links, joints, root, full):
    """Tree edges, each a list of consecutive joints: with full=False a chain through massless
    links that have exactly one child joint collapses into one edge (a multi-DoF joint)."""
    by_parent = {}
    for j in joints:
        by_parent.setdefault(j[2], []).append(j)
    edges = {}

    def walk(link):
        out = []
        for j in by_parent.get(link, []):
            chain = [j]
            child = j[3]
            while (not full and links.get(child, 0.0) == 0.0 and len(by_parent.get(child, [])) == 1
                   and by_parent[child][0][1] in _ONE_DOF and j[1] in _ONE_DOF):
                nxt = by_parent[child][0]
                chain.append(nxt)
                child = nxt[3]
            out.append((chain, child))
        edges[link] = out
        for _, child in out:
            walk_stack.append(child)

    walk_stack = [root]
    while walk_stack:
        link = walk_stack.pop()
        if link not in edges:              # (a valid URDF is a tree; be safe anyway)
            walk(link)
    return edges


_ONE_DOF = ("revolute", "continuous", "prismatic")


def _edge_label(chain):
    dof = sum(j[5] for j in chain)
    if len(chain) == 1:
        name, jtype, *_ = chain[0]
        ax = _axis_name(chain[0][4])
        return name, f"{jtype}{' ' + ax if ax and jtype != 'fixed' else ''}", dof
    runs = []                      # consecutive joints of one type: "3 x prismatic xyz"
    for j in chain:
        if runs and runs[-1][0] == j[1]:
            runs[-1][1].append(_axis_name(j[4]))
        else:
            runs.append((j[1], [_axis_name(j[4])]))
    kind = " + ".join(f"{len(ax)} x {t}" + (f" {''.join(ax)}" if any(ax) else "")
                      for t, ax in runs)
    return " ".join(j[0] for j in chain), kind, dof


def cmd_info(args):
    model = load(_model_path(args.model), floating_base=args.floating_base)
    links, joints, root = _tree(model)
    edges = _groups(links, joints, root, args.full)
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
    print(f"tree (joint: type, DoF -> link, mass){'' if args.full else '; chains of joints through massless links shown as one'}:",
          file=out)
    print(f"{root}" + (f"  {links[root]:.4g} kg" if links.get(root) else ""), file=out)
    stack = [(chain, child, "", k == len(edges[root]) - 1)
             for k, (chain, child) in enumerate(edges.get(root, []))][::-1]
    while stack:       # depth first, children in document order
        chain, child, prefix, last = stack.pop()
        name, kind, dof = _edge_label(chain)
        mass = links.get(child, 0.0)
        mtxt = f"{mass:.4g} kg" if mass > 0 else "massless"
        print(f"{prefix}{'└── ' if last else '├── '}{name} ({kind}, {dof} DoF) -> {child}  "
              f"{mtxt}", file=out)
        sub = edges.get(child, [])
        inner = prefix + ("    " if last else "│   ")
        stack += [(c, ch, inner, k == len(sub) - 1) for k, (c, ch) in enumerate(sub)][::-1]
    if args.dot:
        with open(args.dot, "w", encoding="utf-8") as f:
            f.write(_dot(model, links, edges, root))
        print(f"Graphviz DOT written to {args.dot} (render: dot -Tpng {args.dot} -o tree.png)",
              file=out)
    return 0


def _dot(model, links, edges, root):
    """Graphviz DOT text: links are boxes (mass in kg; massless ones dashed), joints are
    labelled edges (name, type and axes, DoF)."""
    def q(text):
        esc = str(text).replace("\\", "\\\\").replace('"', '\\"')
        return '"' + esc.replace("\n", "\\n") + '"'

    lines = [f"digraph {q(model.name)} {{", "  rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontsize=10];',
             "  edge [fontsize=9];"]
    order, seen = [root], set()
    while order:
        link = order.pop(0)
        if link in seen:
            continue
        seen.add(link)
        mass = links.get(link, 0.0)
        if mass > 0:
            lines.append(f"  {q(link)} [label={q(f'{link}' + chr(10) + f'{mass:.4g} kg')}];")
        else:
            lines.append(f'  {q(link)} [fillcolor="#ffffff", style="rounded,dashed"];')
        for chain, child in edges.get(link, []):
            name, kind, dof = _edge_label(chain)
            label = q(f"{name}" + chr(10) + f"{kind}, {dof} DoF")
            style = ", style=dashed" if dof == 0 else ""
            lines.append(f"  {q(link)} -> {q(child)} [label={label}{style}];")
            order.append(child)
    lines.append("}")
    return "\n".join(lines) + "\n"


# ============================================================================== check

def cmd_check(args):
    from .check import check
    path = _model_path(args.model)
    found = check(path, floating_base=args.floating_base)
    for f in found:
        where = f"{path}:{f.line}" if f.line else path
        print(f"{where}: {f.kind}: {f.message}")
    counts = {k: sum(f.kind == k for f in found) for k in ("error", "warning", "advice")}
    print(f"{path}: {counts['error']} errors, {counts['warning']} warnings, "
          f"{counts['advice']} advice")
    failed = counts["error"] or (args.strict and (counts["warning"] or counts["advice"]))
    return 1 if failed else 0


# ============================================================================== parser

def build_parser():
    parser = argparse.ArgumentParser(prog="urdf2dyn", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "torques", help="joint torques of motions (inverse dynamics), with ground reactions",
        description="Inverse dynamics over motion files (CSV, OpenSim .mot/.sto, HuMoD .mat): a "
        "'time' column and one column per joint coordinate (model.q_names); optional "
        "'<dof>_vel' and '<dof>_acc' columns, otherwise estimated from the positions. Ground "
        "reactions (force, centre of pressure and free moment per foot) are applied to the foot "
        "links; the root's residual force and moment are reported.")
    p.add_argument("robot", help="URDF file (or the name of a bundled one, e.g. "
                                 "humod_subject_a.urdf)")
    p.add_argument("motion", nargs="+",
                   help="motion file(s), or directories of them (files named *_grf.* there are "
                        "the ground reactions of the motion with the same stem)")
    p.add_argument("-o", "--output",
                   help="torques to write: a .csv or .sto file (time + one column per DoF); "
                        "with several motions a directory (<stem>_torques.csv, see --format)")
    p.add_argument("--grf", metavar="FILE",
                   help="ground reactions: grfX_<foot> grfY_<foot> grfZ_<foot> copX_<foot> .. "
                        "[momX_<foot> ..] columns (N, m, N·m, world frame; NaN CoP = no contact), "
                        "or OpenSim <prefix>ground_force_vx .. columns; with several motions a "
                        "pattern using {stem} and {dir}")
    p.add_argument("--contact", action="append", metavar="KEY=LINK",
                   help="link that carries the ground reaction KEY (default foot_<KEY>, or "
                        "calcn_r/calcn_l for OpenSim r/l); repeatable")
    p.add_argument("--filter", type=float, metavar="HZ",
                   help="zero-lag 4th-order Butterworth low-pass of positions and ground-reaction "
                        "loads at HZ before differentiating (needs SciPy)")
    p.add_argument("--derivatives", choices=("gradient", "savgol", "spline"), default="gradient",
                   help="how velocities and accelerations are estimated (default: second-order "
                        "finite differences; savgol and spline need SciPy)")
    p.add_argument("--degrees", action="store_true",
                   help="angles (and their rates) in the CSV motion files are in degrees")
    p.add_argument("--floating-base", action="store_true",
                   help="add a floating joint 'root_joint' above the URDF's root link")
    p.add_argument("--gravity", type=float, nargs=3, metavar=("GX", "GY", "GZ"),
                   help="gravity in the URDF world frame (default 0 0 -9.81; 0 -9.81 0 for a "
                        "HuMoD human model)")
    p.add_argument("--per-kg", action="store_true",
                   help="write torques divided by the body mass (N·m/kg)")
    p.add_argument("--mass", type=float, metavar="KG",
                   help="body mass for --per-kg and the summary (default: the model's mass)")
    p.add_argument("--residuals", metavar="FILE",
                   help="write the root residual force and moment (time, FX FY FZ MX MY MZ; "
                        "world axes, moment about the root origin) to this CSV (a directory "
                        "with several motions)")
    p.add_argument("--plot", metavar="PNG",
                   help="plot the torques (human model: hip, knee and ankle sagittal moments "
                        "over the gait cycle); needs matplotlib")
    p.add_argument("--format", choices=("csv", "sto"), default="csv",
                   help="output format in an output directory (default csv)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also print every DoF's peak torque for a human model")
    p.set_defaults(func=cmd_torques)

    h = sub.add_parser("human", help="write the URDF of a 36-DoF HuMoD human body",
                       description="Write the 36-DoF human model (HuMoD joints, de Leva 1996 "
                       "segment parameters scaled to height and mass) as URDF. Frames: y up, x "
                       "forward, z right.")
    h.add_argument("--height", type=float, help="stature in m")
    h.add_argument("--mass", type=float, help="body mass in kg")
    h.add_argument("--sex", help="female or male (f/m)")
    h.add_argument("--subject", choices=("A", "B", "a", "b"),
                   help="a HuMoD subject instead: A (female, 1.61 m, 57.3 kg) or B (male, "
                        "1.79 m, 84.8 kg)")
    h.add_argument("--root", choices=("prismatic", "floating"), default="prismatic",
                   help="root: 3 prismatic + 3 revolute joints named as HuMoD (default), or "
                        "one floating joint BJ")
    h.add_argument("--name", help="robot name in the URDF")
    h.add_argument("-o", "--output", required=True, help="URDF file to write")
    h.set_defaults(func=cmd_human)

    i = sub.add_parser("info", help="print a model's kinematic tree (joints, DoF, masses)",
                       description="Print the kinematic tree of a URDF model: joints with their "
                       "type, axis and DoF, links with their mass; optionally write it as a "
                       "Graphviz DOT graph.")
    i.add_argument("model", help="URDF file (or the name of a bundled one, e.g. "
                                 "humod_subject_a.urdf)")
    i.add_argument("--floating-base", action="store_true",
                   help="add a floating joint 'root_joint' above the root link")
    i.add_argument("--full", action="store_true",
                   help="show every joint and link (default: chains of joints through massless "
                        "links, i.e. multi-DoF joints, are shown as one)")
    i.add_argument("--dot", metavar="FILE", help="write the tree as a Graphviz DOT file")
    i.set_defaults(func=cmd_info)

    c = sub.add_parser("check", help="list what is wrong or risky in a URDF, with line numbers",
                       description="List every finding about a URDF with its line: errors "
                       "(it does not load), warnings (read as written, as Pinocchio reads "
                       "them: non-physical inertias, unknown elements, missing limits...) and "
                       "advice (massless moving leaves, tiny masses, bad limits). Exit status "
                       "1 on an error, or on any finding with --strict.")
    c.add_argument("model", help="URDF file (or the name of a bundled one)")
    c.add_argument("--floating-base", action="store_true",
                   help="check the model with a floating joint above the root link")
    c.add_argument("--strict", action="store_true",
                   help="exit with status 1 on any warning or advice too")
    c.set_defaults(func=cmd_check)
    return parser


def _warning_printer(command):
    """showwarning: urdf2dyn's own warnings as 'urdf2dyn COMMAND: warning: ...' lines."""
    default = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, Urdf2dynWarning):
            print(f"urdf2dyn {command}: warning: {message}", file=sys.stderr)
        else:
            default(message, category, filename, lineno, file, line)
    return show


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _warning_printer(args.command)
            return args.func(args)
    except BrokenPipeError:        # e.g. `urdf2dyn info MODEL | head`: stop quietly
        sys.stdout = open(os.devnull, "w")
        return 1
    except (URDFError, MotionError, OSError, ValueError, KeyError, ImportError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"urdf2dyn {args.command}: error: {msg}", file=sys.stderr)
        return 1
