"""The commands on marker recordings (C3D, .trc): urdf2dyn ik and urdf2dyn animate, and the
marker options and inverse-kinematics summary that urdf2dyn torques shares with them."""
import os
import sys

import numpy as np

from ..model import load
from ..warn import counted
from .options import (CUTOFF, FILTER_NAMED, HUMOD_GRAVITY_HELP, THREADS, TRIAL_COLUMNS,
                      add_coordinate_file_processing, add_degrees, add_floating_base,
                      add_gravity, add_mapping, add_strict, add_time_range,
                      add_trial_processing, in_flag_words, model_path, need_matplotlib, number,
                      refuse_missing_files, refuse_overwriting, set_gravity, suffix)

EVERY = number("a number of samples, >= 1", low=1, low_open=False, integer=True)


def marker_options(args, jobs):
    """Options of trials recorded as markers (C3D, .trc): the lab-to-model rotation, the IK
    setup, the rate of a C3D's plates."""
    from ..biomech.pipeline import MARKER_EXTENSIONS
    markers = [p for p, _ in jobs if os.fspath(p).lower().endswith(MARKER_EXTENSIONS)]
    if args.rotate and not markers:
        raise ValueError("--rotate turns a marker recording (C3D, .trc) into the model's frame; "
                         "the motions given are coordinate files: drop --rotate")
    if markers and len(markers) != len(jobs):
        raise ValueError("give either marker recordings (.c3d, .trc) or coordinate files, not "
                         f"both in one run (markers: {markers[0]})")
    options = {"rotation": args.rotate} if markers else {}
    rate = getattr(args, "rate", None)
    if rate:
        if not any(os.fspath(p).lower().endswith(".c3d") for p in markers):
            raise ValueError(f"--rate {rate} sets how a C3D's force plates enter the trial; "
                             "the motions given hold no plates: drop --rate")
        options["plate_rate"] = rate
    if getattr(args, "ik_setup", None):
        if not markers:
            raise ValueError("--ik-setup sets the inverse kinematics of marker recordings "
                             "(C3D, .trc); the motions given are coordinate files")
        options["ik_setup"] = args.ik_setup
    return options


def ik_summary(res, out):
    """Inverse kinematics' marker errors of a trial from markers, as OpenSim's IK tool
    reports them."""
    e = res.ik_errors
    if e is None or not len(e["rms"]) or np.all(np.isnan(e["max"])):
        return
    k = int(np.nanargmax(e["max"]))
    print(f"inverse kinematics: marker error RMS {1e3 * np.nanmean(e['rms']):.2f} mm on "
          f"average (worst frame {1e3 * np.nanmax(e['rms']):.2f} mm), max "
          f"{1e3 * e['max'][k]:.2f} mm ({e['worst'][k]} at t = {res.t[k]:g} s)", file=out)


def cmd_ik(args):
    from ..biomech.formats.ik_setup import read_ik_setup
    from ..biomech.ik import load_model, run_setup
    model = markers = None
    if args.markers and not args.model:         # the options first, then the files
        raise ValueError("--markers needs --model (the model the marker file's links "
                         "belong to)")
    setup = read_ik_setup(args.setup, strict=args.strict)       # read once, for its inputs
    refuse_overwriting([("--output", args.output or None)], _ik_inputs(args, setup))
    if args.model:
        model = load_model(model_path(args.model), strict=args.strict)
    if args.markers:
        model, markers = _model_markers(model, model_path(args.model), args.markers,
                                        args.strict)
    result = run_setup(setup, output=args.output, model=model, markers=markers,
                       threads=args.threads, strict=args.strict,
                       marker_file=args.marker_file or None, processing=args.processing)
    s, n = result.solution, len(result.motion.time)
    out = ", ".join(result.written) or "nothing written"
    worst = max(range(n), key=lambda k: np.nan_to_num(s.max[k], nan=-1.0)) if n else 0
    print(f"{args.setup}: {counted(n, 'frame')}, {counted(len(s.marker_names), 'marker')} "
          f"fitted, {counted(result.motion.q.shape[1], 'coordinate')} -> {out}")
    if n:
        print(f"marker error: RMS {1e3 * np.nanmean(s.rms):.2f} mm on average, max "
              f"{1e3 * np.nanmax(s.max):.2f} mm ({s.worst[worst]} at t = "
              f"{result.motion.time[worst]:g} s)")
    return 0


def _ik_inputs(args, setup):
    """What `urdf2dyn ik` reads, as (kind, path): every file the setup names (the library's
    list, urdf2dyn.biomech.ik.setup_inputs: inputs whether or not read) and the files given
    instead, so that -o naming one is refused before any work naming the option."""
    from ..biomech.ik import setup_inputs
    return setup_inputs(setup) + [("model", model_path(args.model) if args.model else None),
                                  ("model-marker", args.markers),
                                  ("marker", args.marker_file or None)]


def _model_markers(model, model_file, path, strict):
    """(model, markers) for --markers: an OpenSim MarkerSet .xml updates an .osim model's
    markers as OpenSim's Model::updateMarkerSet does (OpenCap gives its marker sets beside
    its models); any other file is urdf2dyn's marker CSV."""
    if not os.fspath(path).lower().endswith(".xml"):
        from ..markers import read_markers
        return model, read_markers(path, model)
    from ..biomech.scale import apply_marker_set
    if not os.fspath(model_file).lower().endswith(".osim"):
        raise ValueError(f"--markers {path}: an OpenSim marker set places markers on an .osim "
                         "model's bodies; give the .osim with --model, or the markers as a "
                         "CSV name, link, x, y, z")
    return apply_marker_set(model, path, strict), None


def add_ik_parser(sub):
    k = sub.add_parser("ik", help="inverse kinematics: run an OpenSim Setup_IK.xml",
                       description="Fit the model's markers to a marker file frame by frame "
                       "(OpenSim's IK: marker weights, coordinate tasks, locked coordinates, "
                       "clamped ranges, missing markers skipped) as the setup file says, and "
                       "write its output motion (.mot, degrees) and marker errors "
                       "(MOTION_urdf2dyn_marker_errors.sto: not OpenSim's name, so a run of "
                       "both in one folder keeps both).")
    k.add_argument("--setup", required=True, help="OpenSim IK setup file (Setup_IK.xml)")
    k.add_argument("-o", "--output", help=".mot to write (default: the setup's "
                                          "output_motion_file)")
    k.add_argument("--model", help="a URDF to use instead of the setup's model_file (e.g. the "
                                   "one an .osim was exported from)")
    k.add_argument("--markers", help="model markers for --model: an OpenSim MarkerSet .xml "
                                     "(added to an .osim model's markers, replacing those of "
                                     "the same name, as OpenSim's updateMarkerSet) or a CSV "
                                     "name, link, x, y, z (m, link frame)")
    k.add_argument("--marker-file", metavar="MARKERS.trc",
                   help="the marker recording to fit, instead of the setup's marker_file")
    add_coordinate_file_processing(k, "the setup's coordinate_file", "InverseKinematicsTool")
    k.add_argument("--threads", type=THREADS, default=1,
                   help="segments of the trial solved in parallel (default 1: every frame "
                        "warm-started from the previous one, as OpenSim)")
    add_strict(k)
    k.set_defaults(func=cmd_ik)


def cmd_animate(args):
    """A trial you can watch: the library's inverse_dynamics_trial, then urdf2dyn.animate."""
    from ..biomech.animate import animate_trial, check_path
    from ..biomech.pipeline import inverse_dynamics_trial
    from ..biomech.stages import TrialSettings, trial_inputs
    need_matplotlib()
    out = args.output or os.path.splitext(os.path.basename(args.trial))[0] + ".gif"
    refuse_missing_files([("--mapping", args.mapping)])
    settings = TrialSettings.from_keywords(             # reads --ik-setup, once
        processing=args.processing or "urdf2dyn", filter_hz=args.filter,
        filter_named=FILTER_NAMED, columns_named=TRIAL_COLUMNS, mapping=args.mapping,
        degrees=args.degrees, time_range=args.time_range, strict=args.strict,
        **marker_options(args, [(args.trial, None)]))
    refuse_overwriting([("--output", out)], [("model", model_path(args.model)),
                                            ("trial", args.trial)]
                       + trial_inputs(args.trial, settings))
    try:
        check_path(out)             # before the trial: ffmpeg for .mp4
    except ImportError as e:
        raise ImportError(f"--output {e}") from None
    model = load(model_path(args.model), floating_base=args.floating_base, strict=args.strict)
    note = set_gravity(model, args.gravity)      # up in the figure is against it
    try:
        res = inverse_dynamics_trial(model, args.trial, settings=settings)
    except ValueError as e:
        raise in_flag_words(e, args) from None
    animate_trial(model, res, path=out, every=args.every)      # its figure is not pyplot's
    frames = len(range(0, len(res.t), args.every))
    print(f"{out}: {counted(frames, 'frame')} of {res.path}, t = {res.t[0]:g} .. "
          f"{res.t[-1]:g} s")
    if note:
        print(note)
    ik_summary(res, sys.stdout)
    return 0


def add_animate_parser(sub):
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
    a.add_argument("-o", "--output", type=suffix(".gif", ".mp4"),
                   help=".gif or .mp4 to write (default <trial stem>.gif; .mp4 needs ffmpeg)")
    a.add_argument("--rotate", metavar="AXIS:DEG[,AXIS:DEG]",
                   help="lab to model frame rotation of a C3D/.trc trial, e.g. x:-90")
    a.add_argument("--ik-setup", metavar="SETUP_IK.xml",
                   help="marker weights, coordinate tasks and time range of the inverse "
                        "kinematics (an OpenSim IK setup)")
    a.add_argument("--filter", type=CUTOFF, metavar="HZ",
                   help="low-pass the coordinates at HZ as --processing says (urdf2dyn: a "
                        "zero-lag Butterworth filter, needs SciPy)")
    add_trial_processing(a, "the coordinates drawn as urdf2dyn torques processes them: "
                            "urdf2dyn (default) or opensim (OpenSim's inverse-dynamics tool: "
                            "--filter is its padded 3rd-order IIR cut-off, its output rows)")
    add_floating_base(a, "add a floating joint 'root_joint' above a URDF's root link, as "
                         "urdf2dyn torques --floating-base does")
    add_degrees(a)
    add_mapping(a)
    add_gravity(a, HUMOD_GRAVITY_HELP + "; the figure is drawn upright, against it")
    add_time_range(a, "draw only t0 .. t1 (s)")
    a.add_argument("--every", type=EVERY, default=1, metavar="K",
                   help="draw every K-th frame (default 1)")
    add_strict(a)
    a.set_defaults(func=cmd_animate)
