"""The urdf2dyn command line.

    urdf2dyn torques ROBOT.urdf MOTION [MOTION ...] [-o OUT] [--grf FILE] [--filter HZ] ...
    urdf2dyn human --height 1.61 --mass 57.3 --sex female -o HUMAN.urdf
    urdf2dyn info MODEL [--dot TREE.dot] [--plot TREE.png]
    urdf2dyn export-osim MODEL.urdf -o MODEL.osim
    urdf2dyn codegen ROBOT.urdf --lang c|python|matlab [--float] -o DIR
    urdf2dyn equations ROBOT.urdf [--latex] [--parameters]
    urdf2dyn check ROBOT.urdf [--strict]

``python -m urdf2dyn ...`` is the same. ``urdf2dyn COMMAND --help`` describes each command.
"""
import argparse
import os
import sys
import warnings

import numpy as np

from ._core import URDFError
from .biomech.pipeline import DEFAULT_DERIVATIVES
from .biomech.processing import DEFAULT_MAX_GAP
from .biomech.trajectory import MotionError
from .bundled import data_path
from .model import load
from .names import missing_file
from .safe_files import refuse_overwriting_inputs, replacing
from .warn import Urdf2dynWarning


# ============================================================================== validators

class UsageError(ValueError):
    """A command line that cannot be run as written: exit status 2, as argparse's own errors."""


def _number(what, low=None, high=None, low_open=True, integer=False):
    """An argparse type= for a finite number in (low, high] (or [low, high] when not low_open):
    the message names the value and what is allowed; argparse prefixes the flag's name."""
    def parse(text):
        try:
            x = int(text) if integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not {'an integer' if integer else 'a number'} ({what})") from None
        bad = not np.isfinite(x) or (low is not None and (x <= low if low_open else x < low)) \
            or (high is not None and x > high)
        if bad:
            raise argparse.ArgumentTypeError(f"{text}: {what}")
        return x
    return parse


_MASS = _number("a body mass in kg, > 0", low=0.0)
_SPEED = _number("a speed in m/s, > 0", low=0.0)
_CUTOFF = _number("a cut-off frequency in Hz, > 0 (and below half the sampling rate)", low=0.0)
_GAP = _number("a number of samples, >= 0", low=0, low_open=False, integer=True)
_JOBS = _number("a number of processes, >= 1", low=1, low_open=False, integer=True)
_GRAVITY = _number("a finite acceleration component in m/s²")


def _height(text):
    h = _number("a stature in metres, > 0", low=0.0)(text)
    if not 0.3 <= h <= 3.0:
        cm = f" ({h:g} looks like centimetres: {h / 100:g})" if 30 <= h <= 300 else ""
        raise argparse.ArgumentTypeError(f"{text}: a stature in metres, 0.3 to 3{cm}")
    return h


def _suffix(*allowed):
    """An argparse type= for a file to write, with one of the allowed extensions."""
    def parse(text):
        if os.path.splitext(text)[1].lower() not in allowed:
            raise argparse.ArgumentTypeError(f"{text}: expected a file name ending in "
                                             f"{' or '.join(allowed)}")
        if os.path.isdir(text):
            raise argparse.ArgumentTypeError(f"{text}: a directory, expected a file to write")
        return text
    return parse


def _contact(text):
    key, sep, link = text.partition("=")       # KEY may be empty: OpenSim columns without prefix
    if not sep or not link:
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=LINK (e.g. R=foot_R, or "
                                         "=LINK for loads without a key)")
    return text


_DELIMITER_CHOICES = ("comma", "semicolon", "tab", "whitespace", ",", ";")


def _check_outputs(args, jobs, multi, inputs):
    """Before any work: output names with the right suffixes, and no output that is an input."""
    if not multi:
        for flag, path, allowed in (("--output", args.output, (".csv", ".sto", ".mot")),
                                    ("--residuals", args.residuals, (".csv",)),
                                    ("--plot", args.plot, (".png", ".pdf", ".svg"))):
            if path and os.path.splitext(path)[1].lower() not in allowed:
                raise UsageError(f"{flag} {path}: expected a file name ending in "
                                 f"{' or '.join(allowed)}")
            if path and os.path.isdir(path):
                raise UsageError(f"{flag} {path}: a directory; with one motion, name a file")
    outputs = []
    for motion, _ in jobs:
        for flag, target, suffix, fmt in (("--output", args.output, "_torques", args.format),
                                          ("--residuals", args.residuals, "_residuals", "csv"),
                                          ("--plot", args.plot, "_torques", "png")):
            if target:
                out = _out_path(target, motion, multi, suffix, fmt)
                outputs.append((flag, out))
                if flag == "--plot":
                    outputs.append((flag, os.path.splitext(out)[0] + "_momentum.png"))
    try:
        refuse_overwriting_inputs(outputs, inputs)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _reword_cutoff(error, args):
    """The API's cutoff_hz message in the flag's words."""
    text = str(error)
    if args.filter is not None and text.startswith("cutoff_hz: "):
        return MotionError(f"--filter {args.filter:g}: {text[len('cutoff_hz: '):]}")
    return error


# ============================================================================== torques

def _model_path(path):
    """A URDF path, or the name of a file bundled with urdf2dyn (e.g. humod_subject_a.urdf)."""
    if not os.path.exists(path) and not path.lstrip().startswith("<"):
        if os.path.exists(data_path(path)):
            return data_path(path)
        bundled = sorted(n for n in os.listdir(os.path.dirname(data_path("x")))
                         if n.endswith(".urdf"))
        raise FileNotFoundError(missing_file(path, bundled) + f" (bundled models: "
                                f"{', '.join(bundled)})")
    return path


def cmd_torques(args):
    from .biomech.pipeline import find_trials, inverse_dynamics_trial, run_trials
    if args.setup:
        return _torques_setup(args)
    if not args.robot or not args.motion:
        raise UsageError("give a model and motion files (urdf2dyn torques ROBOT MOTION ...), "
                         "or an OpenSim setup file (--setup Setup_ID.xml)")
    if args.external_loads and args.grf:
        raise UsageError("--external-loads and --grf both give the loads: use one")
    robot = _model_path(args.robot)
    jobs = find_trials(args.motion, args.grf)
    multi = len(jobs) > 1 or any(os.path.isdir(m) for m in args.motion)
    for flag, path in (("--mapping", args.mapping), ("--external-loads", args.external_loads)):
        if path and not os.path.exists(path):
            raise FileNotFoundError(f"{flag} " + missing_file(path))
    inputs = [("model", robot), ("mapping", args.mapping), ("setup", args.external_loads)]
    inputs += [(kind, p) for motion, grf in jobs for kind, p in (("motion", motion),
                                                                 ("ground-reaction", grf))]
    _check_outputs(args, jobs, multi, inputs)
    model = load(robot, floating_base=args.floating_base, strict=args.strict)
    notes = [note for note in [_set_gravity(model, args.gravity)] if note]
    if args.per_kg and args.mass is None and not model.total_mass > 0:
        raise UsageError(f"--per-kg: the model {args.robot} has no mass: give the body mass "
                         "with --mass KG")
    contacts = _parse_contacts(args.contact)
    for path in (args.output, args.plot, args.residuals):
        if multi and path:
            os.makedirs(path, exist_ok=True)
    if args.plot:
        _need_matplotlib()
    if args.processing == "opensim" and args.derivatives != DEFAULT_DERIVATIVES:
        raise ValueError(f"--derivatives {args.derivatives} and --processing opensim: OpenSim's "
                         "processing differentiates natural quintic splines; drop one")
    if args.processing != "opensim" and (args.filter is not None
                                         or args.derivatives != "gradient"):
        what = "--filter" if args.filter is not None else f"--derivatives {args.derivatives}"
        _need_scipy(what)
    options = dict(external_loads=args.external_loads, contacts=contacts,
                   mapping=args.mapping, degrees=args.degrees, filter_hz=args.filter,
                   filter_loads=args.filter_loads == "yes", derivatives=args.derivatives,
                   max_gap=args.max_gap, strict=args.strict,
                   processing=args.processing or "urdf2dyn", time_range=args.time_range,
                   delimiter=args.delimiter, decimal=args.decimal)
    options.update(_marker_options(args, jobs))
    try:
        if not multi:
            path, grf = jobs[0]
            results = [inverse_dynamics_trial(model, path, grf, **options)]
        else:
            bar = _progress(len(jobs), args)
            results = run_trials(model, jobs, scheduler=args.scheduler, max_workers=args.jobs,
                                 progress=(lambda r: bar.update(1)) if bar else None, **options)
            if bar:
                bar.close()
    except ValueError as e:
        raise _reword_cutoff(e, args) from None
    outputs = [_write_outputs(model, res, args, multi) for res in results]
    if not multi:
        _summary(model, args, results[0], outputs[0], notes)
    else:
        _multi_summary(model, args, results, outputs, notes)
    return 0


def _marker_options(args, jobs):
    """Options of trials recorded as markers (C3D, .trc): the lab-to-model rotation."""
    from .biomech.pipeline import MARKER_EXTENSIONS
    markers = [p for p, _ in jobs if os.fspath(p).lower().endswith(MARKER_EXTENSIONS)]
    if args.rotate and not markers:
        raise ValueError("--rotate turns a marker recording (C3D, .trc) into the model's frame; "
                         "the motions given are coordinate files: drop --rotate")
    if markers and len(markers) != len(jobs):
        raise ValueError("give either marker recordings (.c3d, .trc) or coordinate files, not "
                         f"both in one run (markers: {markers[0]})")
    options = {"rotation": args.rotate} if markers else {}
    if getattr(args, "ik_setup", None):
        if not markers:
            raise ValueError("--ik-setup sets the inverse kinematics of marker recordings "
                             "(C3D, .trc); the motions given are coordinate files")
        options["ik_setup"] = args.ik_setup
    return options


def _ik_summary(res, out):
    """Inverse kinematics' marker errors of a trial from markers, as OpenSim's IK tool
    reports them."""
    e = res.ik_errors
    if e is None or not len(e["rms"]) or np.all(np.isnan(e["max"])):
        return
    k = int(np.nanargmax(e["max"]))
    print(f"inverse kinematics: marker error RMS {1e3 * np.nanmean(e['rms']):.2f} mm on "
          f"average (worst frame {1e3 * np.nanmax(e['rms']):.2f} mm), max "
          f"{1e3 * e['max'][k]:.2f} mm ({e['worst'][k]} at t = {res.t[k]:g} s)", file=out)


def cmd_animate(args):
    """A trial you can watch: the library's inverse_dynamics_trial, then urdf2dyn.animate."""
    from .biomech.animate import animate_trial
    from .biomech.pipeline import inverse_dynamics_trial
    _need_matplotlib()
    out = args.output or os.path.splitext(os.path.basename(args.trial))[0] + ".gif"
    if os.path.splitext(out)[1].lower() not in (".gif", ".mp4"):
        raise ValueError(f"-o {out}: expected a .gif or .mp4 file")
    if args.every < 1:
        raise ValueError(f"--every {args.every}: expected a whole number >= 1")
    model = load(_model_path(args.model), strict=args.strict)
    options = _marker_options(args, [(args.trial, None)])
    res = inverse_dynamics_trial(model, args.trial, filter_hz=args.filter,
                                 time_range=args.time_range, strict=args.strict, **options)
    import matplotlib.pyplot as plt
    anim = animate_trial(model, res, path=out, every=args.every)
    plt.close(anim._fig)
    frames = len(range(0, len(res.t), args.every))
    print(f"{out}: {frames} frames of {res.path}, t = {res.t[0]:g} .. {res.t[-1]:g} s")
    _ik_summary(res, sys.stdout)
    return 0


def _add_animate_parser(sub):
    a = sub.add_parser("animate", help="a trial you can watch: stick figure, markers, ground "
                       "reactions -> .gif/.mp4",
                       description="Run the trial (as urdf2dyn torques does: a C3D/.trc "
                       "recording through inverse kinematics, or a coordinate file) and draw "
                       "the model as a stick figure moving through it, the measured markers "
                       "(red) against the model's markers (orange) and the ground reactions as "
                       "arrows at the centres of pressure (green); needs matplotlib (.mp4 "
                       "also ffmpeg).")
    a.add_argument("model", help="the model (.osim with its markers, or a URDF)")
    a.add_argument("trial", help="the trial: C3D, .trc, or a motion file")
    a.add_argument("-o", "--output", help=".gif or .mp4 to write (default <trial stem>.gif)")
    a.add_argument("--rotate", metavar="AXIS:DEG[,AXIS:DEG]",
                   help="lab to model frame rotation of a C3D/.trc trial, e.g. x:-90")
    a.add_argument("--ik-setup", metavar="SETUP_IK.xml",
                   help="marker weights, coordinate tasks and time range of the inverse "
                        "kinematics (an OpenSim IK setup)")
    a.add_argument("--filter", type=float, metavar="HZ",
                   help="low-pass the coordinates at HZ (needs SciPy)")
    a.add_argument("--time-range", type=float, nargs=2, metavar=("T0", "T1"),
                   help="draw only t0 .. t1 (s)")
    a.add_argument("--every", type=int, default=1, metavar="K",
                   help="draw every K-th frame (default 1)")
    a.add_argument("--strict", action="store_true", help="warnings are errors")
    a.set_defaults(func=cmd_animate)


def _torques_setup(args):
    """--setup: OpenSim's inverse-dynamics tool from its setup file (the library's
    inverse_dynamics_setup), the torques written where the setup says unless -o."""
    from .biomech.pipeline import inverse_dynamics_setup
    if args.motion:
        raise UsageError(f"--setup names the motion (its coordinates_file): drop {args.motion}")
    if args.processing == "urdf2dyn":
        raise UsageError("--setup runs OpenSim's processing: drop --processing urdf2dyn, or "
                         "pass the setup's files to urdf2dyn torques ROBOT MOTION instead")
    for flag, given in (("--grf", args.grf), ("--external-loads", args.external_loads),
                        ("--filter", args.filter is not None), ("--mapping", args.mapping),
                        ("--degrees", args.degrees), ("--rotate", args.rotate)):
        if given:
            raise UsageError(f"{flag} and --setup: the setup file gives the loads, cutoff and "
                             f"columns; drop {flag} (or edit the setup)")
    from .biomech.formats import read_id_setup
    setup = read_id_setup(args.setup, strict=args.strict, need_model=not args.robot)
    inputs = [("setup", args.setup), ("model", args.robot or setup.model_file),
              ("motion", setup.coordinates_file), ("setup", setup.external_loads_file)]
    if not args.output:           # where the setup says, checked like -o
        args.output = setup.output
    _check_outputs(args, [(setup.coordinates_file, None)], False, inputs)
    if args.robot:
        model = load(_model_path(args.robot), floating_base=args.floating_base,
                     strict=args.strict)
    elif setup.model_file is None:
        raise ValueError(f"{setup.path}: <model_file> is empty: give the model (urdf2dyn "
                         "torques --setup SETUP MODEL)")
    else:
        model = load(setup.model_file, strict=args.strict)
    notes = [note for note in [_set_gravity(model, args.gravity)] if note]
    res = inverse_dynamics_setup(setup, model, time_range=args.time_range,
                                 contacts=_parse_contacts(args.contact), max_gap=args.max_gap,
                                 strict=args.strict)
    os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
    args.external_loads = res.record.get("loads")
    written = _write_outputs(model, res, args, False)
    _summary(model, args, res, written, notes)
    return 0


def _progress(total, args):
    if total < 2 or args.no_progress:
        return None
    try:
        from tqdm import tqdm
    except ImportError:          # the progress bar is optional (pip install tqdm)
        return None
    return tqdm(total=total, unit="motion", desc="urdf2dyn", file=sys.stderr, disable=None)


def _stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def _write_outputs(model, res, args, multi):
    """Write the files asked for; returns their paths."""
    from .biomech import formats
    mass = args.mass if args.mass is not None else model.total_mass
    written = []
    if args.output:
        out = _out_path(args.output, res.path, multi, "_torques", args.format)
        formats.write_torques(out, res.t, res.tau / mass if args.per_kg else res.tau, model,
                              per_kg=args.per_kg, order=res.record.get("columns"))
        written.append(out)
    if args.residuals and res.residuals is not None:
        out = _out_path(args.residuals, res.path, multi, "_residuals", "csv")
        table, names = res.residuals.table()
        formats.write_table(out, res.t, table, names)
        written.append(out)
    if args.plot:
        out = _out_path(args.plot, res.path, multi, "_torques", "png")
        _plot(out, res.t, res.tau, model, res.reactions, mass, res.path, res.f_ext)
        written.append(out)
        from .biomech.gait import is_human
        if is_human(model):
            out = os.path.splitext(out)[0] + "_momentum.png"
            _plot_momentum(out, res, model, args.speed)
            written.append(out)
    return written


def _plot_momentum(out, res, model, speed):
    """Whole-body angular momentum about the centre of mass over the gait cycle: normalized
    by mass x speed x CoM height (Herr & Popovic 2008) when the speed is known."""
    from .biomech import plot
    from .centroidal import normalized_angular_momentum
    if speed is not None:
        L = normalized_angular_momentum(model, res.q, res.v, speed)
        title = f"angular momentum / (M V H), V = {speed:g} m/s: {os.path.basename(res.path)}"
    else:
        L = model.centroidal(res.q, res.v, np.zeros_like(res.v))["momentum"][:, 3:]
        title = (f"angular momentum about the CoM (N·m·s; --speed normalizes): "
                 f"{os.path.basename(res.path)}")
    grf_y = {side: w[:, 1] for side in ("L", "R")
             for w in [res.f_ext.get(f"foot_{side}") if res.f_ext else None] if w is not None}
    plot.plot_angular_momentum(res.t, L, out, grf_y=grf_y or None, title=title)


def _out_path(target, motion, multi, suffix, fmt):
    if not multi:
        return target
    ext = {"csv": ".csv", "sto": ".sto", "mot": ".mot", "png": ".png"}[fmt]
    return os.path.join(target, _stem(motion) + suffix + ext)


def _plot(out, t, tau, model, reactions, mass, motion, f_ext):
    from .biomech import gait, plot
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


def _set_gravity(model, gravity):
    """--gravity, or y-up gravity for a HuMoD human model; returns a note when defaulted."""
    if gravity is not None:
        model.gravity = gravity
    elif _is_humod(model):
        from .biomech.human import GRAVITY
        model.gravity = GRAVITY
        return "gravity (0, -9.81, 0): a HuMoD human model (y up); --gravity overrides"
    return None


def _mass(model, args):
    return args.mass if args.mass is not None else model.total_mass


def _summary(model, args, res, written, notes):
    from .biomech import gait
    out = sys.stdout
    t, tau, mass = res.t, res.tau, _mass(model, args)
    print(f"{model!r}", file=out)
    for note in notes:
        print(f"note: {note}", file=out)
    rec = res.record
    extra = f", filtered at {rec['filter_hz']:g} Hz" if res.filtered else ""
    if res.filtered and rec.get("filter_loads") is False:
        extra += " (coordinates only)"
    print(f"motion: {res.path}: {len(t)} samples, t = {t[0]:g} .. {t[-1]:g} s "
          f"({rec['elapsed_s'] * 1e3:.1f} ms from file to torques{extra})", file=out)
    if rec.get("loads"):
        kind = "external loads" if args.external_loads else "ground reactions"
        print(f"{kind}: {rec['loads']}", file=out)
    _ik_summary(res, out)
    for w in written:
        print(f"written: {w}", file=out)
    if gait.is_human(model) and not args.verbose:
        _human_summary(model, tau, mass, out)
    else:
        width = max(len(n) for n in model.v_names)
        unit = " per kg" if args.per_kg else ""
        scale = 1.0 / mass if args.per_kg else 1.0
        print(f"{'DoF':<{width}}  peak |tau|{unit}   at t [s]", file=out)
        peak = np.abs(tau).max(axis=0) * scale
        when = t[np.abs(tau).argmax(axis=0)]
        for name, p, w in zip(model.v_names, peak, when):
            print(f"{name:<{width}}  {p:10.4g}  {w:9.4g}", file=out)
        if gait.is_human(model):
            _human_summary(model, tau, mass, out)
    _residual_summary(res, out)


def _human_summary(model, tau, mass, out):
    from .biomech import gait
    peaks = gait.peak_moments(model, tau, mass)
    print(f"peak sagittal joint moments, N·m/kg (body mass {mass:.1f} kg):", file=out)
    print(f"  {'':<22}{'left':>7} {'right':>7}", file=out)
    for (joint, direction), v in peaks.items():
        label = f"{joint} {direction}"
        print(f"  {label:<22}{v['L']:>7.2f} {v['R']:>7.2f}", file=out)


def _residual_summary(res, out):
    r = res.residuals
    if r is None:
        return
    s = r.summary()
    where = "the root origin" if r.about == "root" else str(r.about)
    print(f"root residuals ({', '.join(r.names)}; moment about {where}):", file=out)
    print(f"  force  |F|: RMS {s['force_rms']:8.2f} N    max {s['force_max']:8.2f} N", file=out)
    print(f"  moment |M|: RMS {s['moment_rms']:8.2f} N·m  max {s['moment_max']:8.2f} N·m",
          file=out)
    if not res.f_ext:
        print("  (no ground reactions given: the residuals are the whole external load)",
              file=out)
    elif res.load_peak:
        print(f"  peak |F| = {100 * s['force_max'] / res.load_peak:.1f} % of the peak ground "
              f"reaction force ({res.load_peak:.0f} N)", file=out)


def _multi_summary(model, args, results, outputs, notes):
    from .biomech import gait
    out = sys.stdout
    mass = _mass(model, args)
    print(f"{model!r}", file=out)
    for note in notes:
        print(f"note: {note}", file=out)
    human = gait.is_human(model)
    total = sum(len(r.t) for r in results)
    secs = sum(r.record["elapsed_s"] for r in results)
    print(f"{len(results)} motions, {total} samples, {secs:.2f} s from files to torques",
          file=out)
    head = "hip ext  knee ext  ankle pf (N·m/kg)" if human else "peak |tau|"
    print(f"{'motion':<32} {'samples':>8}  {head}  residual RMS F (N) M (N·m)", file=out)
    for r, written in zip(results, outputs):
        name = os.path.basename(r.path)
        if human:
            pk = gait.peak_moments(model, r.tau, mass)
            cols = "  ".join(f"{max(pk[k].values()):7.2f}" for k in (
                ("hip", "extension"), ("knee", "extension"), ("ankle", "plantarflexion")))
        else:
            cols = f"{np.abs(r.tau).max():10.4g}"
        resid = ""
        if r.residuals is not None:
            s = r.residuals.summary()
            resid = f"  {s['force_rms']:8.2f} {s['moment_rms']:8.2f}"
        print(f"{name:<32} {len(r.t):>8}  {cols}{resid}", file=out)
        _ik_summary(r, out)
        for w in written:
            print(f"    written: {w}", file=out)


def _parse_contacts(items):
    return dict(item.partition("=")[::2] for item in items or ())


# ============================================================================== human

def cmd_human(args):
    from .biomech.human import HUMOD_SUBJECTS, human
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
    text = human(height, mass, sex, root=args.root, name=name)
    with replacing(args.output) as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    model = load(text)
    print(f"wrote {args.output}: {model!r}")
    from .biomech.human import _sex
    print(f"  {_sex(sex)}, {float(height):g} m, {float(mass):g} kg (de Leva 1996 segments); "
          f"y up, x forward, z right: use gravity (0, -9.81, 0) "
          f"(urdf2dyn torques does so for this model)")
    return 0


# ============================================================================== info

from .tree import axis_name as _axis_name, dot as _dot, edge_label as _edge_label  # noqa: E402
from .tree import groups as _groups, tree as _tree  # noqa: E402


def cmd_info(args):
    path = _model_path(args.model)
    try:
        refuse_overwriting_inputs([("--dot", args.dot), ("--plot", args.plot)], [("model", path)])
    except ValueError as e:
        raise UsageError(str(e)) from None
    model = load(path, floating_base=args.floating_base)
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
        with replacing(args.dot) as tmp, open(tmp, "w", encoding="utf-8") as f:
            f.write(_dot(model, links, edges, root))
        print(f"Graphviz DOT written to {args.dot} (render: dot -Tpng {args.dot} -o tree.png)",
              file=out)
    if getattr(args, "plot", None):
        from .tree import plot_tree
        plot_tree(model, args.plot, full=args.full)
        print(f"tree drawn in {args.plot}", file=out)
    return 0


# ============================================================================== codegen

def cmd_codegen(args):
    from . import codegen
    path = _model_path(args.robot)
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise UsageError(f"--output {args.output}: a file; codegen writes a directory of files")
    model = load(path, floating_base=args.floating_base)
    files = codegen.generate(model, args.lang, functions=args.functions,
                             scalar="float" if args.float else "double", name=args.name)
    try:
        refuse_overwriting_inputs([("--output", os.path.join(args.output, f)) for f in files],
                                  [("model", path)])
    except ValueError as e:
        raise UsageError(str(e)) from None
    for path in codegen.write(files, args.output):
        print(path)
    return 0


def cmd_equations(args):
    from .codegen.equations import equations
    model = load(_model_path(args.robot), floating_base=args.floating_base)
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


# ============================================================================== export-osim

def cmd_export_osim(args):
    from .biomech.opensim_model import export_osim
    path = _model_path(args.model)
    try:
        refuse_overwriting_inputs([("--output", args.output)], [("model", path)])
    except ValueError as e:
        raise UsageError(str(e)) from None
    model = load(path)
    _set_gravity(model, args.gravity)
    om = export_osim(model, args.output)
    g = " ".join(f"{x:g}" for x in om.getGravity().to_numpy())
    print(f"{args.output}: OpenSim model '{om.getName()}', {om.getNumBodies()} bodies, "
          f"{om.getNumCoordinates()} coordinates (named as the URDF joints), gravity {g}")
    return 0


# ============================================================================== check

def cmd_check(args):
    from .urdf_findings import check
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


# ============================================================================== convert

def cmd_convert(args):
    """A model (.osim -> .urdf) or a lab's recording (.c3d -> .trc / .mot), by the input's
    suffix."""
    if os.path.splitext(args.input)[1].lower() == ".osim":
        return _convert_model(args)
    from .biomech.formats import convert
    options = {"rotation": args.rotate, "threshold": args.threshold, "units": args.units,
               "strict": args.strict}
    for path, what in convert(args.input, args.output, **options):
        print(f"{path}: {what}")
    return 0


def _convert_model(args):
    from .convert import osim_to_urdf
    if len(args.output) != 1 or not args.output[0].lower().endswith(".urdf"):
        raise ValueError(f"convert {args.input}: an OpenSim model converts to one URDF file: "
                         f"give -o MODEL.urdf (got {' '.join(args.output)})")
    output = args.output[0]
    model = load(args.input)
    text = osim_to_urdf(model, output, strict=args.strict)
    g = " ".join(f"{x:g}" for x in model.gravity)
    movable = text.count("<joint ") - text.count('type="fixed"')
    print(f"{output}: URDF '{model.name}', {text.count('<link ')} links, {movable} movable "
          f"joints named after the coordinates; the model's gravity is {g}: pass it as "
          f"--gravity {g}")
    return 0


# ============================================================================== ik

def cmd_ik(args):
    from .biomech.ik import run_setup
    from .markers import read_markers
    model = markers = None
    if args.model:
        model = load(_model_path(args.model))
    if args.markers:
        if model is None:
            raise ValueError("--markers needs --model (the model the marker file's links "
                             "belong to)")
        markers = read_markers(args.markers, model)
    result = run_setup(args.setup, output=args.output, model=model, markers=markers,
                       threads=args.threads, strict=args.strict)
    s, n = result.solution, len(result.motion.time)
    out = args.output if args.output is not None else "the setup's output_motion_file"
    worst = max(range(n), key=lambda k: np.nan_to_num(s.max[k], nan=-1.0)) if n else 0
    print(f"{args.setup}: {n} frames, {len(s.marker_names)} markers fitted, "
          f"{result.motion.q.shape[1]} coordinates -> {out}")
    if n:
        print(f"marker error: RMS {1e3 * np.nanmean(s.rms):.2f} mm on average, max "
              f"{1e3 * np.nanmax(s.max):.2f} mm ({s.worst[worst]} at t = "
              f"{result.motion.time[worst]:g} s)")
    return 0


def _add_ik_parser(sub):
    k = sub.add_parser("ik", help="inverse kinematics: run an OpenSim Setup_IK.xml",
                       description="Fit the model's markers to a marker file frame by frame "
                       "(OpenSim's IK: marker weights, coordinate tasks, locked coordinates, "
                       "clamped ranges, missing markers skipped) as the setup file says, and "
                       "write its output motion (.mot, degrees) and marker errors.")
    k.add_argument("--setup", required=True, help="OpenSim IK setup file (Setup_IK.xml)")
    k.add_argument("-o", "--output", help=".mot to write (default: the setup's "
                                          "output_motion_file)")
    k.add_argument("--model", help="a URDF to use instead of the setup's model_file (e.g. the "
                                   "one an .osim was exported from)")
    k.add_argument("--markers", help="model markers for --model: CSV name, link, x, y, z "
                                     "(m, link frame)")
    k.add_argument("--threads", type=int, default=1,
                   help="segments of the trial solved in parallel (default 1: every frame "
                        "warm-started from the previous one, as OpenSim)")
    k.add_argument("--strict", action="store_true", help="warnings are errors")
    k.set_defaults(func=cmd_ik)


# ============================================================================== parser

def build_parser():
    parser = argparse.ArgumentParser(prog="urdf2dyn", description=__doc__.split("\n")[0])
    from ._version import __version__
    parser.add_argument("--version", action="version", version=f"urdf2dyn {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "torques", help="joint torques of motions (inverse dynamics), with ground reactions",
        description="Inverse dynamics over motion files (CSV, OpenSim .mot/.sto, HuMoD .mat): a "
        "'time' column and one column per joint coordinate (model.q_names); optional "
        "'<dof>_vel' and '<dof>_acc' columns, otherwise estimated from the positions. Ground "
        "reactions (force, centre of pressure and free moment per foot) are applied to the foot "
        "links; the root's residual force and moment are reported.")
    p.add_argument("robot", nargs="?",
                   help="URDF file (or the name of a bundled one, e.g. humod_subject_a.urdf); "
                        "with --setup, a model to use instead of the setup's model_file")
    p.add_argument("motion", nargs="*",
                   help="motion file(s), or directories of them (files named <stem>_grf.<ext> "
                        "there are the ground reactions of the motion with the same stem)")
    p.add_argument("-o", "--output",
                   help="torques to write: a .csv or .sto file (time + one column per DoF); "
                        "with several motions a directory (<stem>_torques.csv, see --format)")
    p.add_argument("--grf", metavar="FILE",
                   help="ground reactions: grfX_<foot> grfY_<foot> grfZ_<foot> copX_<foot> .. "
                        "[momX_<foot> ..] columns (N, m, N·m, world frame; NaN CoP = no contact), "
                        "or OpenSim <prefix>ground_force_vx .. columns; with several motions a "
                        "pattern using {stem} and {dir}")
    p.add_argument("--contact", action="append", metavar="KEY=LINK", type=_contact,
                   help="link that carries the ground reaction KEY (default foot_<KEY>, or "
                        "calcn_r/calcn_l for OpenSim r/l); repeatable")
    p.add_argument("--filter", type=_CUTOFF, metavar="HZ",
                   help="zero-lag 4th-order Butterworth low-pass of positions and ground-reaction "
                        "loads at HZ before differentiating (needs SciPy)")
    p.add_argument("--derivatives", choices=("gradient", "savgol", "spline", "opensim"),
                   default=DEFAULT_DERIVATIVES,
                   help="how velocities and accelerations are estimated (default: second-order "
                        "finite differences; savgol and spline need SciPy; opensim: the natural "
                        "quintic spline of OpenSim's tools)")
    p.add_argument("--degrees", action="store_true",
                   help="angles (and their rates) in the CSV motion files are in degrees")
    p.add_argument("--floating-base", action="store_true",
                   help="add a floating joint 'root_joint' above the URDF's root link")
    p.add_argument("--gravity", type=_GRAVITY, nargs=3, metavar=("GX", "GY", "GZ"),
                   help="gravity in the URDF world frame (default 0 0 -9.81; 0 -9.81 0 for a "
                        "HuMoD human model)")
    p.add_argument("--per-kg", action="store_true",
                   help="write torques divided by the body mass (N·m/kg)")
    p.add_argument("--mass", type=_MASS, metavar="KG",
                   help="body mass for --per-kg and the summary (default: the model's mass)")
    p.add_argument("--residuals", metavar="FILE",
                   help="write the root residual force and moment (time, FX FY FZ MX MY MZ; "
                        "world axes, moment about the root origin) to this CSV (a directory "
                        "with several motions)")
    p.add_argument("--plot", metavar="PNG",
                   help="plot the torques (human model: hip, knee and ankle sagittal moments "
                        "over the gait cycle, and the whole-body angular momentum in "
                        "<PNG stem>_momentum.png); needs matplotlib")
    p.add_argument("--speed", type=_SPEED, metavar="M/S",
                   help="walking or running speed (treadmill belt speed): the angular-momentum "
                        "plot is then normalized by mass x speed x CoM height (Herr & Popovic "
                        "2008)")
    p.add_argument("--format", choices=("csv", "sto"), default="csv",
                   help="output format in an output directory (default csv)")
    p.add_argument("--mapping", metavar="FILE",
                   help="rename the motion file's columns to the model's coordinates: a JSON "
                        "object {\"file name\": \"model name\"} or a two-column CSV "
                        "'from,to' (from = the name in the file, to = the model's name)")
    p.add_argument("--external-loads", metavar="SETUP.xml",
                   help="an OpenSim ExternalLoads file (forces, points, torques, the bodies "
                        "they act on and their data file) instead of --grf")
    p.add_argument("--filter-loads", choices=("yes", "no"), default="yes",
                   help="with --filter, also filter the loads at the same cutoff (yes, default: "
                        "Kristianslund et al. 2012) or the coordinates only (no: as OpenSim's "
                        "inverse-dynamics tool)")
    p.add_argument("--ik-setup", metavar="SETUP_IK.xml",
                   help="for C3D/.trc trials: an OpenSim IK setup whose marker weights, "
                        "coordinate tasks and time range the inverse kinematics follows")
    p.add_argument("--rotate", metavar="AXIS:DEG[,AXIS:DEG]",
                   help="for C3D/.trc trials: rotation from the lab frame to the model frame, "
                        "about the lab's axes in order, e.g. x:-90 for a z-up lab and a y-up "
                        "OpenSim model (default: the lab frame)")
    p.add_argument("--max-gap", type=_GAP, default=DEFAULT_MAX_GAP, metavar="N",
                   help="fill runs of up to N missing samples (NaN or empty cells) by cubic "
                        f"interpolation, with a warning; longer gaps stop the trial (default "
                        f"{DEFAULT_MAX_GAP})")
    p.add_argument("--strict", action="store_true",
                   help="treat every warning (filled gaps, angles that look like degrees, large "
                        "residuals, ...) as an error")
    p.add_argument("--jobs", type=_JOBS, metavar="N",
                   help="with several motions, run them in N local processes (default: one "
                        "per core)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with several motions, run them on this Dask cluster (e.g. "
                        "tcp://host:8786; pip install \"urdf2dyn[dask]\")")
    p.add_argument("--delimiter", choices=_DELIMITER_CHOICES, metavar="SEP",
                   help="column separator of the CSV motion and ground-reaction files: comma, "
                        "semicolon, tab or whitespace (default: detected from the header line)")
    p.add_argument("--decimal", choices=(".", ","), metavar="{.|,}",
                   help="decimal separator of the CSV files (default: ',' when the columns are "
                        "not comma-separated and the numbers are written so, else '.')")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--setup", metavar="SETUP_ID.xml",
                   help="run an OpenSim InverseDynamicsTool setup file as OpenSim does: its "
                        "model_file, coordinates_file, external_loads_file, time_range, "
                        "lowpass_cutoff_frequency_for_coordinates and output (results_directory"
                        "/output_gen_force_file, unless -o); implies --processing opensim")
    p.add_argument("--processing", choices=("urdf2dyn", "opensim"),
                   help="urdf2dyn (default): the filter, derivatives and load interpolation "
                        "above; opensim: OpenSim's inverse-dynamics tool exactly (--filter is "
                        "then its padded 3rd-order IIR cutoff, natural quintic splines, cubic "
                        "splines of the external loads, its output rows)")
    p.add_argument("--time-range", type=float, nargs=2, metavar=("T0", "T1"),
                   help="keep the samples from T0 to T1 s (the filter and derivatives see the "
                        "whole trial); with --setup it overrides the setup's time_range")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also print every DoF's peak torque for a human model")
    p.set_defaults(func=cmd_torques)

    h = sub.add_parser("human", help="write the URDF of a 36-DoF HuMoD human body",
                       description="Write the 36-DoF human model (HuMoD joints, de Leva 1996 "
                       "segment parameters scaled to height and mass) as URDF. Frames: y up, x "
                       "forward, z right.")
    h.add_argument("--height", type=_height, help="stature in m")
    h.add_argument("--mass", type=_MASS, help="body mass in kg")
    h.add_argument("--sex", help="female or male (f/m)")
    h.add_argument("--subject", choices=("A", "B", "a", "b"),
                   help="a HuMoD subject instead: A (female, 1.61 m, 57.3 kg) or B (male, "
                        "1.79 m, 84.8 kg)")
    h.add_argument("--root", choices=("prismatic", "floating"), default="prismatic",
                   help="root: 3 prismatic + 3 revolute joints named as HuMoD (default), or "
                        "one floating joint BJ")
    h.add_argument("--name", help="robot name in the URDF")
    h.add_argument("-o", "--output", required=True, type=_suffix(".urdf"),
                   help="URDF file to write")
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
    i.add_argument("--dot", metavar="FILE", type=_suffix(".dot", ".gv"),
                   help="write the tree as a Graphviz DOT file")
    i.add_argument("--plot", metavar="PNG", type=_suffix(".png", ".pdf", ".svg"), help="draw the tree with matplotlib (links, "
                   "joints with type and axis, merged fixed joints dashed)")
    i.set_defaults(func=cmd_info)

    x = sub.add_parser("export-osim", help="write the equivalent OpenSim model (.osim)",
                       description="Write an OpenSim model with the URDF's bodies, masses, "
                       "inertias, joint frames and axes; each movable joint becomes a "
                       "coordinate of the same name (needs: pip install opensim).")
    x.add_argument("model", help="URDF file (or the name of a bundled one, e.g. "
                                 "humod_subject_a.urdf)")
    x.add_argument("-o", "--output", required=True, type=_suffix(".osim"),
                   help=".osim file to write")
    x.add_argument("--gravity", type=_GRAVITY, nargs=3, metavar=("GX", "GY", "GZ"),
                   help="gravity in the URDF world frame (default 0 0 -9.81; 0 -9.81 0 for a "
                        "HuMoD human model)")
    x.set_defaults(func=cmd_export_osim)

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
    c.add_argument("--floating-base", action="store_true",
                   help="add a floating joint 'root_joint' above the root link")
    c.add_argument("--name", help="prefix of the files and functions (default: robot name)")
    c.add_argument("-o", "--output", required=True, metavar="DIR", help="output directory")
    c.set_defaults(func=cmd_codegen)

    e = sub.add_parser("equations", help="print M(q), C(q, qd) qd and g(q) of a small robot",
                       description="Print the symbolic equations of motion (SymPy) of a "
                       "robot with at most 6 DoF.")
    e.add_argument("robot", help="URDF file (or the name of a bundled one)")
    e.add_argument("--latex", action="store_true", help="LaTeX instead of text")
    e.add_argument("--parameters", action="store_true",
                   help="masses, centres of mass, inertias, offsets and g as symbols")
    e.add_argument("--gravity", type=_GRAVITY, nargs=3, metavar=("GX", "GY", "GZ"),
                   help="gravity in the world frame (default 0 0 -9.81)")
    e.add_argument("--floating-base", action="store_true",
                   help="add a floating joint 'root_joint' above the root link")
    e.set_defaults(func=cmd_equations)

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
    v.add_argument("--threshold", type=float, metavar="N",
                   help="contact threshold of the force plates: below it no centre of "
                        "pressure, and force and free moment 0 (default 20)")
    v.add_argument("--units", default="mm", choices=("mm", "cm", "m"),
                   help="length unit of the .trc written (default mm)")
    v.add_argument("--strict", action="store_true",
                   help="treat every warning (missing markers, plates left out, a joint "
                        "frozen in the URDF, ...) as an error")
    v.set_defaults(func=cmd_convert)


    _add_ik_parser(sub)
    _add_animate_parser(sub)
    return parser


class _WarningPrinter:
    """warnings.showwarning for the command line: each warning printed when it occurs (a long
    batch reports a bad trial while it runs), urdf2dyn's own as `urdf2dyn CMD: warning:` lines,
    anything else as Python shows it, and counted for the closing line. Nothing is collected
    and replayed, so a warning raised while printing cannot feed itself."""

    def __init__(self, command, show_other):
        self.command, self.count, self._show_other = command, 0, show_other

    def __call__(self, message, category, filename, lineno, file=None, line=None):
        self.count += 1
        if issubclass(category, Urdf2dynWarning):
            print(f"urdf2dyn {self.command}: warning: {message}", file=sys.stderr, flush=True)
        else:
            self._show_other(message, category, filename, lineno, file, line)


def main(argv=None):
    args = build_parser().parse_args(argv)
    with warnings.catch_warnings():         # restores showwarning and the filters on exit
        warnings.simplefilter("always", Urdf2dynWarning)
        printer = _WarningPrinter(args.command, warnings.showwarning)
        warnings.showwarning = printer
        status = _run(args)
    if printer.count:
        s = "s" if printer.count > 1 else ""
        print(f"urdf2dyn {args.command}: {printer.count} warning{s} (above)", file=sys.stderr)
        if status == 0 and getattr(args, "strict", False):
            print(f"urdf2dyn {args.command}: error: --strict: exit status 1 because of the "
                  f"warning{s} above", file=sys.stderr)
            status = 1
    return status


def _run(args):
    try:
        return args.func(args)
    except BrokenPipeError:        # e.g. `urdf2dyn info MODEL | head`: stop quietly
        sys.stdout = open(os.devnull, "w")
        return 1
    except UsageError as e:
        print(f"urdf2dyn {args.command}: error: {e}", file=sys.stderr)
        return 2
    except (URDFError, MotionError, OSError, ValueError, KeyError, ImportError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"urdf2dyn {args.command}: error: {msg}", file=sys.stderr)
        return 1
