"""urdf2dyn torques: inverse dynamics of motion files (one, a folder, or an OpenSim setup),
the files written and the summary printed."""
import os
import sys
import warnings

import numpy as np

from .._safe_files import refuse_missing_folders, same_file
from ..biomech.processing import DEFAULT_DERIVATIVES, DEFAULT_MAX_GAP
from ..biomech.trajectory import MotionError
from ..model import load
from ..warn import Urdf2dynWarning, counted, missing_file, shown
from .markers import ik_summary, marker_options
from .options import (CUTOFF, DELIMITER_CHOICES, FILTER_NAMED, GAP, HUMOD_GRAVITY_HELP, JOBS,
                      MASS, SETUP_COLUMNS, SPEED, TRIAL_COLUMNS, UsageError, add_degrees,
                      add_floating_base, add_gravity, add_mapping, add_strict, add_time_range,
                      add_trial_processing, contact, in_flag_words, model_path,
                      need_matplotlib, need_scipy, parse_contacts, refuse_missing_files,
                      refuse_overwriting, set_gravity)


def cmd_torques(args):
    from ..biomech.pipeline import batch_inputs, find_trials, inverse_dynamics_trial, run_trials
    if args.setup:
        return _torques_setup(args)
    if not args.robot or not args.motion:
        raise UsageError("give a model and motion files (urdf2dyn torques ROBOT MOTION ...), "
                         "or an OpenSim setup file (--setup Setup_ID.xml)")
    if args.external_loads and args.grf:
        raise UsageError("--external-loads and --grf both give the loads: use one")
    _refuse_opensim_xml_as_data(args)
    robot = model_path(args.robot)
    jobs = find_trials(args.motion, args.grf, named="--grf")
    _refuse_separators_without_csv(jobs, args)
    multi = len(jobs) > 1 or any(os.path.isdir(m) for m in args.motion)
    refuse_missing_files([("--mapping", args.mapping),
                          ("--external-loads", args.external_loads),
                          ("--ik-setup", args.ik_setup), ("--scale", args.scale),
                          ("--static", args.static)])
    if (args.static or args.scaled_model) and not args.scale:
        raise UsageError("--static and --scaled-model go with --scale SETUP_SCALE.xml (the "
                         "scaling's measurements and marker placement)")
    contacts = parse_contacts(args.contact)
    settings = trial_settings(args, jobs, contacts)     # reads --ik-setup and --scale, once
    # what the trials read, as the library says (setups and the files they name included)
    _check_outputs(args, jobs, multi, [("model", robot)] + batch_inputs(jobs, settings))
    _check_batch_options(args, multi)
    model = load(robot, floating_base=args.floating_base, strict=args.strict,
                 couplers=args.couplers)
    notes = [note for note in [set_gravity(model, args.gravity)] if note]
    _check_mass(model, args)
    if args.output:                     # before a batch's folders are made and its trials run
        from ..biomech.formats.torques import refuse_unwritable_torques
        refuse_unwritable_torques(_out_path(args.output, jobs[0][0], multi, "_torques",
                                            args.format), model)
    for path in (args.output, args.plot, args.residuals):
        if multi and path:
            os.makedirs(path, exist_ok=True)
    if args.plot:
        need_matplotlib()
    if args.processing == "opensim" and args.derivatives != DEFAULT_DERIVATIVES:
        raise ValueError(f"--derivatives {args.derivatives} and --processing opensim: OpenSim's "
                         "processing differentiates natural quintic splines; drop one")
    if args.processing != "opensim" and (args.filter is not None
                                         or args.derivatives in ("savgol", "spline")):
        what = "--filter" if args.filter is not None else f"--derivatives {args.derivatives}"
        need_scipy(what)
    if args.cycles == "events" and not all(os.fspath(m).lower().endswith(".c3d")
                                           for m, _ in jobs):
        raise UsageError("--cycles events cuts the cycles at a C3D's Foot Strike events; the "
                         "motions given are not C3D files: use --cycles plates (the feet's "
                         "loads)")
    try:
        if not multi:
            path, grf = jobs[0]
            results = [inverse_dynamics_trial(model, path, grf, settings=settings)]
        else:
            bar = _progress(len(jobs), args)
            results = run_trials(model, jobs, settings=settings, scheduler=args.scheduler,
                                 max_workers=args.jobs,
                                 progress=(lambda r: bar.update(1)) if bar else None)
            if bar:
                bar.close()
    except ValueError as e:
        raise in_flag_words(e, args) from None
    cycles = [_cycles(model, res, args) for res in results]
    outputs = [_write_outputs(model, res, args, multi, c) for res, c in zip(results, cycles)]
    if not multi:
        _summary(model, args, results[0], outputs[0], notes, cycles[0])
    else:
        _multi_summary(model, args, results, outputs, notes)
    return 0


def trial_settings(args, jobs, contacts):
    """The trial settings (urdf2dyn.biomech.stages.TrialSettings) the options describe, the
    --ik-setup and --scale setups read in them (once: the files they name are known before
    any work, and no pass reads them again)."""
    from ..biomech.stages.settings import Scaling, TrialSettings
    scale = None
    if args.scale:
        scale = Scaling(args.scale, args.static, args.mass, args.scaled_model).read(args.strict)
    return TrialSettings.from_keywords(scale=scale,
        processing=args.processing or "urdf2dyn", filter_hz=args.filter,
        filter_named=FILTER_NAMED, columns_named=TRIAL_COLUMNS,
        filter_loads=args.filter_loads == "yes", derivatives=args.derivatives,
        time_range=args.time_range, max_gap=args.max_gap, external_loads=args.external_loads,
        contacts=contacts, mapping=args.mapping, degrees=args.degrees,
        delimiter=args.delimiter, decimal=args.decimal, strict=args.strict,
        reduce_residuals=_residual_settings(args), **marker_options(args, jobs))


def _refuse_opensim_xml_as_data(args):
    """An OpenSim user's .xml where urdf2dyn takes data (the ExternalLoads file as --grf, the
    ID setup as the motion): name the option that takes it, before reading anything."""
    if args.grf and args.grf.lower().endswith(".xml"):
        raise UsageError(f"--grf {args.grf}: an .xml file is an OpenSim ExternalLoads file (the "
                         f"bodies the loads act on, and their data file): give it with "
                         f"--external-loads {args.grf}; --grf takes the data itself (.mot, "
                         ".sto, .csv)")
    for motion in args.motion:
        if motion.lower().endswith(".xml"):
            raise UsageError(f"{motion}: an .xml file is not a motion: run an OpenSim "
                             f"inverse-dynamics setup as urdf2dyn torques --setup {motion}; "
                             "an ExternalLoads file goes to --external-loads, an IK setup to "
                             "--ik-setup (with a .trc or C3D recording as the motion)")


def _torques_setup(args):
    """--setup: OpenSim's inverse-dynamics tool from its setup file (the library's
    inverse_dynamics_setup), the torques written where the setup says unless -o."""
    from ..biomech.pipeline import inverse_dynamics_setup
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
    if args.floating_base:      # its quaternion: four coordinates for three degrees of freedom
        raise UsageError("--floating-base and --setup: the setup runs OpenSim's processing, "
                         "which takes one coordinate per degree of freedom, and a floating "
                         "joint's quaternion has four for three; drop --floating-base, or run "
                         "urdf2dyn torques ROBOT MOTION --floating-base with the setup's files")
    if args.derivatives not in (DEFAULT_DERIVATIVES, "opensim"):
        raise UsageError(f"--derivatives {args.derivatives} and --setup: the setup runs OpenSim's "
                         "processing, which differentiates natural quintic splines; drop "
                         "--derivatives, or pass the setup's files to urdf2dyn torques ROBOT "
                         "MOTION instead")
    if not os.path.exists(args.setup):
        raise FileNotFoundError("--setup " + missing_file(args.setup))
    from ..biomech.formats import read_id_setup
    from ..biomech.pipeline import id_setup_inputs
    from ..biomech.stages import TrialSettings
    setup = read_id_setup(args.setup, strict=args.strict, need_model=not args.robot)
    _refuse_separators_beside(setup, args)
    settings = TrialSettings.from_id_setup(     # reads its ExternalLoads file, once
        setup, time_range=args.time_range, strict=args.strict,
        contacts=parse_contacts(args.contact), max_gap=args.max_gap,
        delimiter=args.delimiter, decimal=args.decimal,     # a CSV coordinates_file's
        columns_named=SETUP_COLUMNS, reduce_residuals=_residual_settings(args))
    # what the run reads, as the library says (the setup's own model even when ROBOT is
    # given, the ExternalLoads data file), and the model given instead
    inputs = [("model", args.robot)] + id_setup_inputs(setup, settings)
    created = []
    if not args.output:           # where the setup says, checked like -o; OpenSim creates
        args.output = setup.output          # the results directory: so does urdf2dyn
        created = [("--output", os.path.dirname(args.output))]
    _check_outputs(args, [(setup.coordinates_file, None)], False, inputs, created)
    _check_batch_options(args, multi=False)
    own = setup.model_file and not args.floating_base and (   # the setup's own model
        not args.robot or same_file(model_path(args.robot), setup.model_file))
    if args.robot and not own:
        model = load(model_path(args.robot), floating_base=args.floating_base,
                     strict=args.strict, couplers=args.couplers)
    elif setup.model_file is None:
        raise ValueError(f"{setup.path}: <model_file> is empty: give the model (urdf2dyn "
                         "torques --setup SETUP MODEL)")
    else:       # the passive forces its <forces_to_exclude> leaves on are said by the run
        from ..model import PASSIVE_FORCES, load_leaving_unsaid
        model = load_leaving_unsaid(setup.model_file, lambda m: PASSIVE_FORCES in m,
                                    args.strict, couplers=args.couplers)
    notes = [note for note in [set_gravity(model, args.gravity)] if note]
    _check_mass(model, args)
    res = inverse_dynamics_setup(setup, model, strict=args.strict, settings=settings)
    if created:
        os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
    args.external_loads = res.record.get("loads")
    cycles = _cycles(model, res, args)
    written = _write_outputs(model, res, args, False, cycles)
    _summary(model, args, res, written, notes, cycles)
    return 0


def _refuse_separators_beside(setup, args):
    """--delimiter and --decimal beside --setup read its CSV coordinates_file (its
    ExternalLoads data is read as written): refused for a .mot/.sto one, not ignored."""
    if os.path.splitext(setup.coordinates_file)[1].lower() == ".csv":
        return
    for flag, given in (("--delimiter", args.delimiter), ("--decimal", args.decimal)):
        if given is not None:
            raise UsageError(f"{flag} and --setup: the setup's coordinates_file "
                             f"{setup.coordinates_file} is not a CSV file; drop {flag}")


def _refuse_separators_without_csv(jobs, args):
    """--delimiter and --decimal read the CSV motion and ground-reaction files: refused where
    the trials (jobs: (motion, ground reactions or None)) have none, not ignored."""
    files = [path for job in jobs for path in job if path]
    if any(path.lower().endswith(".csv") for path in files):
        return
    for flag, given in (("--delimiter", args.delimiter), ("--decimal", args.decimal)):
        if given is not None:
            raise UsageError(f"{flag} reads CSV files, and neither the motion nor the ground "
                             f"reactions is one ({', '.join(files[:3])}"
                             f"{' ...' if len(files) > 3 else ''}); drop {flag}")


def _residual_settings(args):
    """--reduce-residuals [--com-body BODY]: the residuals pass's settings (or None)."""
    if not args.reduce_residuals:
        if args.com_body:
            raise UsageError("--com-body moves a mass centre in the residual reduction: add "
                             "--reduce-residuals")
        return None
    return {"com_body": args.com_body}


# The file names each output format may take; the first is what a batch's files are named.
_SUFFIXES = {"csv": (".csv",), "sto": (".sto", ".mot"), "png": (".png", ".pdf", ".svg")}


def _check_outputs(args, jobs, multi, inputs, created=()):
    """Before any work: output names with the right suffixes, each its own file (the derived
    <stem>_cycles.csv and <stem>_momentum.png too), in a directory that exists (with several
    motions, -o, --residuals and --plot name directories, created in one that exists), and no
    output that is an input. ``created``: (flag, folder) created when missing."""
    targets = (("--output", args.output), ("--residuals", args.residuals),
               ("--plot", args.plot))
    created = list(created)
    if not multi:
        for flag, path, allowed in (("--output", args.output, _SUFFIXES["csv"] + _SUFFIXES["sto"]),
                                    ("--residuals", args.residuals, _SUFFIXES["csv"]),
                                    ("--plot", args.plot, _SUFFIXES["png"])):
            if path and os.path.splitext(path)[1].lower() not in allowed:
                raise UsageError(f"{flag} {path}: expected a file name ending in "
                                 f"{' or '.join(allowed)}")
            if path and os.path.isdir(path):
                raise UsageError(f"{flag} {path}: a directory; with one motion, name a file")
    else:
        folders = [(flag, os.path.normpath(t)) for flag, t in targets if t]
        created += folders
        try:                    # each directory named is created in one that exists
            refuse_missing_folders([(flag, t) for flag, t in folders if not os.path.isdir(t)])
        except ValueError as e:
            raise UsageError(str(e)) from None
        stems = {}
        for k, (motion, _) in enumerate(jobs):
            other = stems.setdefault(_stem(motion), (k, motion))[1]
            if stems[_stem(motion)][0] == k or not folders:
                continue
            if same_file(other, motion):
                raise UsageError(f"the motion {motion} is given twice (its outputs would be "
                                 "written twice): give it once")
            raise UsageError(f"motions {other} and {motion} have the same name: their "
                                 f"outputs would be the same files ({_stem(motion)}_torques"
                                 "...): rename one, or run them apart")
    outputs = []
    for motion, _ in jobs:
        for flag, target, suffix, fmt in (("--output", args.output, "_torques", args.format),
                                          ("--residuals", args.residuals, "_residuals", "csv"),
                                          ("--plot", args.plot, "_torques", "png")):
            if target:
                out = _out_path(target, motion, multi, suffix, fmt)
                outputs.append((flag, out))
                if flag == "--output" and args.cycles:
                    outputs.append((f"{flag} (its --cycles table)",
                                    os.path.splitext(out)[0] + "_cycles.csv"))
                if flag == "--plot":
                    outputs.append((f"{flag} (its angular-momentum plot)",
                                    os.path.splitext(out)[0] + "_momentum.png"))
    outputs.append(("--scaled-model", getattr(args, "scaled_model", None)))
    refuse_overwriting(outputs, inputs, created)


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


def _cycles(model, res, args):
    """The trial's gait cycles (--cycles plates|events), or None when not asked."""
    if not args.cycles:
        return None
    from ..biomech.gait import gait_cycles
    try:
        named = SETUP_COLUMNS if args.setup else TRIAL_COLUMNS    # a setup gives the loads
        return gait_cycles(res, model, args.cycles, named=named)
    except ValueError as e:            # no loads or events: the torques are still written
        return str(e)


def _write_outputs(model, res, args, multi, cycles=None):
    """Write the files asked for; returns their paths."""
    from ..biomech import formats
    mass = _mass(model, args)
    written = []
    if args.output:
        out = _out_path(args.output, res.path, multi, "_torques", args.format)
        formats.write_torques(out, res.t, res.tau / mass if args.per_kg else res.tau, model,
                              per_kg=args.per_kg, order=res.record.get("columns"))
        written.append(out)
        if cycles and not isinstance(cycles, str):
            from ..biomech.gait import cycle_normalized
            pct, tau = cycle_normalized(res, cycles)
            if args.per_kg:
                tau = tau / mass
            path = os.path.splitext(out)[0] + "_cycles.csv"
            names = [f"{c.side}{k + 1}_{n}" for k, c in enumerate(cycles) for n in model.v_names]
            formats.write_table(path, pct, np.concatenate(list(tau), axis=1), names,
                                index="percent")
            written.append(path)
    if args.residuals and res.residuals is not None:
        out = _out_path(args.residuals, res.path, multi, "_residuals", "csv")
        table, names = res.residuals.table()
        formats.write_table(out, res.t, table, names)
        written.append(out)
    if args.plot:
        out = _out_path(args.plot, res.path, multi, "_torques", "png")
        from ..biomech import plot
        plot.plot_generalized_forces(res.t, res.tau, model, out, f_ext=res.f_ext, mass=mass,
                                     per_kg=args.per_kg,
                                     title=f"{model.name}: {os.path.basename(res.path)}")
        written.append(out)
        from ..biomech.gait import is_human
        if is_human(model):
            out = os.path.splitext(out)[0] + "_momentum.png"
            _plot_momentum(out, res, model, args.speed)
            written.append(out)
    return written


def _plot_momentum(out, res, model, speed):
    """Whole-body angular momentum about the centre of mass over the gait cycle: normalized
    by mass x speed x CoM height (Herr & Popovic 2008) when the speed is known."""
    from ..biomech import plot
    from ..biomech.gait import normalized_angular_momentum
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


def _check_batch_options(args, multi):
    """The options that shape a batch of several motions, given with one: --format is
    refused where it contradicts the file -o names (the extension decides, and the user
    asked for the other format); --jobs and --scheduler are warned about, as a script may
    pass them to every run: the one motion runs in this process."""
    if multi:
        return
    if args.format and args.output and (os.path.splitext(args.output)[1].lower()
                                        not in _SUFFIXES[args.format]):
        raise UsageError(f"--format {args.format} names the format of the files written in "
                         "an output directory (several motions); with one motion, -o "
                         f"{args.output} is the file and its extension gives the format: drop "
                         f"--format, or end the file name in .{args.format}")
    for flag, value in (("--jobs", args.jobs), ("--scheduler", args.scheduler)):
        if value is not None:
            warnings.warn(f"{flag} {value}: spreads several motions over processes or a "
                          "cluster; with one motion it changes nothing, the motion runs in "
                          f"this process (drop {flag}, or give several motions or a folder)",
                          Urdf2dynWarning, stacklevel=2)


def _out_path(target, motion, multi, suffix, fmt):
    if not multi:
        return target
    return os.path.join(target, _stem(motion) + suffix + _SUFFIXES[fmt or "csv"][0])


def _check_mass(model, args):
    """Before any work: a mass to divide by, and a --mass in kilograms (a unit slip warned
    about once, by the library's check)."""
    from ..biomech.grf import body_mass
    if args.per_kg and args.mass is None and not model.total_mass > 0:
        raise UsageError(f"--per-kg: the model {args.robot} has no mass: give the body mass "
                         "with --mass KG")
    if args.mass is not None:
        body_mass(model, args.mass, strict=args.strict)


def _mass(model, args):
    return args.mass if args.mass is not None else model.total_mass


def _cycle_summary(model, args, cycles, out):
    """The gait cycles found (their table is written with -o)."""
    if cycles is None:
        return
    if isinstance(cycles, str):
        print(f"gait cycles ({args.cycles}): none: {cycles}", file=out)
        return
    if not cycles:
        print(f"gait cycles ({args.cycles}): none complete (a cycle runs from a foot strike "
              "to the next of the same foot)", file=out)
        return
    print(f"gait cycles ({args.cycles}): " + ", ".join(
        f"{c.side} {c.start:.3f}-{c.end:.3f} s ({c.duration:.3f} s)" for c in cycles),
        file=out)


def _summary(model, args, res, written, notes, cycles=None):
    from ..biomech import gait
    out = sys.stdout
    t, tau, mass = res.t, res.tau, _mass(model, args)
    print(f"{model!r}", file=out)
    for note in notes:
        print(f"note: {note}", file=out)
    rec = res.record
    extra = f", filtered at {rec['filter_hz']:g} Hz" if res.filtered else ""
    if res.filtered and rec.get("filter_loads") is False:
        extra += " (coordinates only)"
    print(f"motion: {res.path}: {counted(len(t), 'sample')}, t = {t[0]:g} .. {t[-1]:g} s "
          f"({rec['elapsed_s'] * 1e3:.1f} ms from file to torques{extra})", file=out)
    if rec.get("loads"):
        kind = "external loads" if args.external_loads else "ground reactions"
        print(f"{kind}: {rec['loads']}", file=out)
    if rec.get("scaled") is not None:
        r = rec["scaled"].report
        print(f"scaled to the subject ({rec['scaled'].setup}): mass {r.mass[1]:.2f} kg, "
              f"{sum(1 for f in r.factors.values() if np.any(f != 1.0))} bodies scaled, "
              f"static-trial marker error RMS {1e3 * r.rms:.1f} mm, largest "
              f"{1e3 * r.max:.1f} mm ({shown(r.worst)})" + (f" -> {args.scaled_model}"
                                                     if args.scaled_model else ""), file=out)
    ik_summary(res, out)
    for f in res.findings:
        if f.severity == "note" and f.check != "residuals":      # (the residuals say theirs)
            print(f"note: {f.message}", file=out)
    for w in written:
        print(f"written: {w}", file=out)
    if not model.v_names:
        print(f"no movable joint in model {model.name!r}: no torques to summarise", file=out)
    elif gait.has_sagittal(model) and not args.verbose:
        _sagittal_summary(model, tau, mass, out)
    else:
        from ..biomech.formats import torque_units
        names = [shown(n) for n in model.v_names]
        width = max(len(n) for n in names)
        scale = 1.0 / mass if args.per_kg else 1.0
        print(f"{'DoF':<{width}}  peak |tau|         at t [s]", file=out)
        peak = np.abs(tau).max(axis=0) * scale
        when = t[np.abs(tau).argmax(axis=0)]
        for name, p, w, u in zip(names, peak, when, torque_units(model, args.per_kg)):
            print(f"{name:<{width}}  {p:10.4g} {u:<7} {w:9.4g}", file=out)
        if gait.has_sagittal(model):
            _sagittal_summary(model, tau, mass, out)
    _cycle_summary(model, args, cycles, out)
    _residual_summary(res, out)
    _reduction_summary(res, out)


def _reduction_summary(res, out):
    red = res.record.get("residual_reduction")
    if red is None:
        return
    before, after = red.stats(before=True), red.stats()
    print(f"residual reduction ({red.iterations} iterations, {red.elapsed_s:.2f} s; the "
          "torques above are the adjusted trial's):", file=out)
    for name in red.residual_names:
        print(f"  {shown(name):<6} RMS {before[name][0]:8.2f} -> {after[name][0]:8.2f}   peak "
              f"{before[name][1]:8.2f} -> {after[name][1]:8.2f}", file=out)
    if red.change_rms:
        worst = max(red.change_rms, key=red.change_rms.get)
        rot = worst in red.rotational
        x = red.change_rms[worst]
        print(f"  largest coordinate change: {shown(worst)}, RMS "
              f"{np.degrees(x) if rot else 100 * x:.3g} {'deg' if rot else 'cm'}", file=out)
    print(f"  total mass {red.mass_change:+.3f} kg"
          + (f"; {red.com_body} mass centre moved {100 * np.linalg.norm(red.com_shift):.2f} cm"
             if red.com_body else ""), file=out)


def _sagittal_summary(model, tau, mass, out):
    from ..biomech import gait
    peaks = gait.peak_moments(model, tau, mass)
    print(f"peak sagittal joint moments, N·m/kg (body mass {mass:.1f} kg):", file=out)
    print(f"  {'':<22}{'left':>7} {'right':>7}", file=out)
    for (joint, direction), v in peaks.items():
        label = f"{joint} {direction}"
        print(f"  {label:<22}{v['L']:>7.2f} {v['R']:>7.2f}", file=out)


def _residual_summary(res, out):
    r = res.residuals
    if r is None:
        if res.record.get("no_residuals"):
            print(f"root residuals: none: {res.record['no_residuals']}", file=out)
        return
    s = r.summary()
    where = "the root origin" if r.about == "root" else str(r.about)
    print(f"root residuals ({', '.join(map(shown, r.names))}; moment about {where}):",
          file=out)
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
    from ..biomech import gait
    out = sys.stdout
    mass = _mass(model, args)
    print(f"{model!r}", file=out)
    for note in notes:
        print(f"note: {note}", file=out)
    human = gait.has_sagittal(model)
    total = sum(len(r.t) for r in results)
    secs = sum(r.record["elapsed_s"] for r in results)
    print(f"{len(results)} motions, {counted(total, 'sample')}, {secs:.2f} s from files to "
          "torques", file=out)
    from ..biomech.formats import torque_units
    moment = np.array([u.startswith("N·m") for u in torque_units(model)])
    head = ("hip ext  knee ext  ankle pf (N·m/kg)" if human
            else f"peak moment ({'N·m/kg' if args.per_kg else 'N·m'})  peak force "
                 f"({'N/kg' if args.per_kg else 'N'})")
    print(f"{'motion':<32} {'samples':>8}  {head}  residual RMS F (N) M (N·m)", file=out)
    for r, written in zip(results, outputs):
        name = os.path.basename(r.path)
        if human:
            pk = gait.peak_moments(model, r.tau, mass)
            cols = "  ".join(f"{max(pk[k].values()):7.2f}" for k in (
                ("hip", "extension"), ("knee", "extension"), ("ankle", "plantarflexion")))
        else:
            peak = np.abs(r.tau).max(axis=0) / (mass if args.per_kg else 1.0)
            cols = (f"{peak[moment].max(initial=0.0):>15.4g}  "
                    f"{peak[~moment].max(initial=0.0):>13.4g}")
        resid = ""
        if r.residuals is not None:
            s = r.residuals.summary()
            resid = f"  {s['force_rms']:8.2f} {s['moment_rms']:8.2f}"
        print(f"{name:<32} {len(r.t):>8}  {cols}{resid}", file=out)
        ik_summary(r, out)
        for w in written:
            print(f"    written: {w}", file=out)


def add_torques_parser(sub):
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
                        "or OpenSim <prefix>ground_force_vx .. (or ground_force_<side>_vx ..) "
                        "columns; with several motions a "
                        "pattern using {stem} and {dir}")
    p.add_argument("--contact", action="append", metavar="KEY=LINK", type=contact,
                   help="link that carries the ground reaction KEY (default foot_<KEY>, or "
                        "calcn_r/calcn_l for OpenSim r/l); repeatable")
    p.add_argument("--filter", type=CUTOFF, metavar="HZ",
                   help="zero-lag 4th-order Butterworth low-pass of positions and ground-reaction "
                        "loads at HZ before differentiating (needs SciPy)")
    p.add_argument("--derivatives", choices=("gradient", "savgol", "spline", "opensim"),
                   default=DEFAULT_DERIVATIVES,
                   help="how velocities and accelerations are estimated (default: second-order "
                        "finite differences; savgol and spline need SciPy; opensim: the natural "
                        "quintic spline of OpenSim's tools)")
    add_degrees(p)
    add_floating_base(p, "add a floating joint 'root_joint' above the URDF's root link")
    p.add_argument("--couplers", choices=("keep", "eliminate"), default="keep",
                   help="an OpenSim model's CoordinateCouplerConstraints in inverse dynamics: "
                        "keep (default, as OpenSim's inverse-dynamics tool: each dependent "
                        "coordinate a DoF with its own force) or eliminate (dependent "
                        "coordinates computed from their independent ones, their forces moved "
                        "onto them); inverse kinematics (--ik-setup) holds them either way, as "
                        "OpenSim's IK tool")
    add_gravity(p, HUMOD_GRAVITY_HELP)
    p.add_argument("--per-kg", action="store_true",
                   help="write torques divided by the body mass (N·m/kg)")
    p.add_argument("--mass", type=MASS, metavar="KG",
                   help="body mass for --per-kg and the summary (default: the model's mass; "
                        "one outside half to twice the model's is warned about as a unit "
                        "slip)")
    p.add_argument("--residuals", metavar="FILE",
                   help="write the root residual force and moment (time, FX FY FZ MX MY MZ; "
                        "world axes, moment about the root origin) to this CSV (a directory "
                        "with several motions)")
    p.add_argument("--plot", metavar="PNG",
                   help="plot the torques: a model that names the legs' sagittal coordinates "
                        "(the human model, or OpenSim's hip_flexion, knee_angle, ankle_angle) "
                        "gets the hip, knee and ankle moments over the gait cycle (N·m/kg; "
                        "the human model also the whole-body angular momentum in <PNG "
                        "stem>_momentum.png), any other every coordinate but the root's, "
                        "each in its unit (per kg with --per-kg); needs matplotlib")
    p.add_argument("--speed", type=SPEED, metavar="M/S",
                   help="walking or running speed (treadmill belt speed): the angular-momentum "
                        "plot is then normalized by mass x speed x CoM height (Herr & Popovic "
                        "2008)")
    p.add_argument("--format", choices=("csv", "sto"),
                   help="output format in an output directory, with several motions "
                        "(default csv; one motion's -o file has the format its extension "
                        "names)")
    add_mapping(p)
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
    p.add_argument("--scale", metavar="SETUP_SCALE.xml",
                   help="first scale the (generic OpenSim) model to the subject as this "
                        "OpenSim ScaleTool setup says (measurements, manual scales, marker "
                        "placement: urdf2dyn scale); --mass then is the subject's mass")
    p.add_argument("--static", metavar="STATIC.c3d|.trc",
                   help="with --scale: the static trial, instead of the setup's marker_file "
                        "(turned by --rotate like the trials)")
    p.add_argument("--scaled-model", metavar="SCALED.osim",
                   help="with --scale: write the scaled model there")
    p.add_argument("--rate", choices=("analog", "marker"),
                   help="for C3D trials: the force plates' loads at the analog rate (default), "
                        "evaluated at the motion's times as --processing says (opensim: the "
                        "cubic splines of OpenSim's ExternalLoads; urdf2dyn: filtered at the "
                        "analog rate with --filter, then sampled), or each marker frame's mean "
                        "(marker: what urdf2dyn did before)")
    p.add_argument("--cycles", choices=("plates", "events"),
                   help="cut the trial into gait cycles, each side's from a foot strike to the "
                        "next: plates (where the vertical load on the foot rises through 20 N) "
                        "or events (a C3D's Foot Strike events); printed, and with -o written "
                        "time-normalized (0-100 %%) per cycle to <OUT stem>_cycles.csv "
                        "(columns <side><n>_<coordinate>)")
    p.add_argument("--max-gap", type=GAP, default=DEFAULT_MAX_GAP, metavar="N",
                   help="fill runs of up to N missing samples (NaN or empty cells) by cubic "
                        f"interpolation, with a warning; longer gaps stop the trial (default "
                        f"{DEFAULT_MAX_GAP})")
    p.add_argument("--reduce-residuals", action="store_true",
                   help="make the trial dynamically consistent: smooth kinematic corrections "
                        "fitted so that the root's residuals vanish (urdf2dyn.biomech."
                        "residuals; needs loads); the torques are the adjusted trial's")
    p.add_argument("--com-body", metavar="BODY",
                   help="with --reduce-residuals: also scale the total mass and move this "
                        "body's mass centre (OpenSim RRA's adjusted_com_body, e.g. torso)")
    add_strict(p, "treat every warning (filled gaps, angles that look like degrees, large "
                  "residuals, ...) as an error")
    p.add_argument("--jobs", type=JOBS, metavar="N",
                   help="with several motions, run them in N local processes (default: one "
                        "per core)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with several motions, run them on this Dask cluster (e.g. "
                        "tcp://host:8786; pip install \"urdf2dyn[dask]\")")
    p.add_argument("--delimiter", choices=DELIMITER_CHOICES, metavar="SEP",
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
    add_trial_processing(p, "urdf2dyn (default): the filter, derivatives and load "
                            "interpolation above; opensim: OpenSim's inverse-dynamics tool "
                            "exactly (--filter is then its padded 3rd-order IIR cutoff, natural "
                            "quintic splines, cubic splines of the external loads, its output "
                            "rows)")
    add_time_range(p, "keep the samples from T0 to T1 s (the filter and derivatives see the "
                      "whole trial); with --setup it overrides the setup's time_range")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also print every DoF's peak torque for a human model")
    p.set_defaults(func=cmd_torques)
