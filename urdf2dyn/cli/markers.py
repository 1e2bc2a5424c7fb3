"""The commands on marker recordings (C3D, .trc): urdf2dyn ik and urdf2dyn animate, and the
marker options and inverse-kinematics summary that urdf2dyn torques shares with them."""
import os
import sys

import numpy as np

from ..biomech.processing import DEFAULT_MAX_GAP
from ..model import load
from ..warn import counted, shown
from .options import (ANIMATE_COLUMNS, CUTOFF, FILTER_NAMED, HUMOD_GRAVITY_HELP, THREADS,
                      TRIAL_COLUMNS, add_coordinate_file_processing, add_degrees,
                      add_floating_base, add_gravity, add_mapping, add_strict, add_time_range,
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
          f"{1e3 * e['max'][k]:.2f} mm ({shown(e['worst'][k])} at t = {res.t[k]:g} s)",
          file=out)


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
                       marker_file=args.marker_file or None, processing=args.processing,
                       named=TRIAL_COLUMNS)
    s, n = result.solution, len(result.motion.time)
    out = ", ".join(result.written) or "nothing written"
    worst = max(range(n), key=lambda k: np.nan_to_num(s.max[k], nan=-1.0)) if n else 0
    print(f"{args.setup}: {counted(n, 'frame')}, {counted(len(s.marker_names), 'marker')} "
          f"fitted, {counted(result.motion.q.shape[1], 'coordinate')} -> {out}")
    if n:
        print(f"marker error: RMS {1e3 * np.nanmean(s.rms):.2f} mm on average, max "
              f"{1e3 * np.nanmax(s.max):.2f} mm ({shown(s.worst[worst])} at t = "
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
        filter_named=FILTER_NAMED, columns_named=ANIMATE_COLUMNS, mapping=args.mapping,
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


_LOADS_GIVEN = ("animate draws the motion and the ground reactions the trial itself carries "
                "(a C3D's force plates, the motion file's own ground-reaction columns), not "
                "another file's")
_NO_TORQUES = "animate draws the motion, no torques"
_ONE_TRIAL = "animate draws one trial, in this process"

#: What animate does instead of each option of urdf2dyn torques it does not take, by the
#: option's dest in torques' parser: a torques command line copied to animate is refused
#: naming each such option and what to do (refuse_torques_options). Which options these are
#: is torques' parser's to say, not a list here (tests/test_cli_validation.py holds the two
#: together).
TORQUES_ONLY = {
    "grf": _LOADS_GIVEN,
    "external_loads": _LOADS_GIVEN,
    "contact": "animate draws each ground reaction of the trial at its centre of pressure, on "
               "the feet it finds by their names (foot_<KEY>, or calcn_r/calcn_l for "
               "OpenSim's r/l)",
    "filter_loads": "animate draws the ground reactions as torques' default --filter-loads yes "
                    "applies them: with --filter, filtered at its cut-off like the coordinates "
                    "(urdf2dyn's processing)",
    "derivatives": "animate draws the coordinates, not their rates: how torques estimates "
                   "velocities and accelerations changes nothing it draws",
    "couplers": "animate draws each coordinate as the trial gives it, a coupled one too (its "
                "column in the motion file, or inverse kinematics of a marker recording, "
                "which holds the couplers); torques' --couplers eliminate computes the coupled "
                "coordinates from the ones they follow for its forces only",
    "per_kg": _NO_TORQUES + ": nothing is divided by the body mass",
    "mass": "animate draws the motion and scales no model: the body mass changes nothing it "
            "draws",
    "residuals": "animate draws the motion, no residuals: write them with urdf2dyn torques "
                 "--residuals",
    "reduce_residuals": "animate draws the coordinates as processed, without the residual "
                        "reduction's kinematic corrections, which only torques applies",
    "com_body": "it goes with --reduce-residuals, which animate does not apply: it draws the "
                "model's mass as given",
    "plot": "animate writes the animation (-o OUT.gif or OUT.mp4), no torque plot: plot them "
            "with urdf2dyn torques --plot",
    "speed": "it normalizes torques' angular-momentum plot, which animate does not draw",
    "format": "animate writes one animation, in the format -o's suffix names (.gif, or .mp4 "
              "with ffmpeg)",
    "cycles": "animate draws the whole trial, not cut into gait cycles: draw part of it with "
              "--time-range T0 T1",
    "scale": "animate draws the model as given: scale it first with urdf2dyn scale "
             "SETUP_SCALE.xml -o SCALED.osim, then animate the scaled model (urdf2dyn animate "
             "SCALED.osim TRIAL)",
    "static": "it goes with --scale, and animate draws the model as given: give the static "
              "trial to urdf2dyn scale SETUP_SCALE.xml --static STATIC -o SCALED.osim, then "
              "animate the scaled model",
    "scaled_model": "animate draws the model as given: write the scaled model with urdf2dyn "
                    "scale SETUP_SCALE.xml -o SCALED.osim, then animate it (urdf2dyn animate "
                    "SCALED.osim TRIAL)",
    "rate": "animate draws a C3D's force plates at the analog rate, evaluated at each frame's "
            "time, as torques' default --rate analog does",
    "max_gap": f"animate fills runs of up to {DEFAULT_MAX_GAP} missing samples, with a "
               "warning, as torques' default does; a longer gap stops it: fill the gap in the "
               "file, or draw the part around it with --time-range T0 T1",
    "jobs": _ONE_TRIAL + ": nothing to run in other processes",
    "scheduler": _ONE_TRIAL + ": nothing to run on a Dask cluster",
    "no_progress": _ONE_TRIAL + ", with no progress bar",
    "delimiter": "animate reads a CSV motion with the separators detected from the file (its "
                 "header line): rewrite one it misreads comma-separated",
    "decimal": "animate reads a CSV motion with the separators detected from the file (its "
               "numbers): rewrite one it misreads with '.' decimals",
    "setup": "animate takes the model and the trial themselves: give the setup's model_file "
             "and coordinates_file (urdf2dyn animate MODEL COORDINATES.mot --processing opensim, "
             "with --filter HZ and --time-range T0 T1 as its lowpass_cutoff_frequency_for_"
             "coordinates and time_range say)",
    "verbose": _NO_TORQUES + ": there is nothing more to print",
}


def _torques_only_action(token, torques, animate):
    """The action of torques' parser that a command-line token names (--opt, --opt=VALUE, or
    a prefix argparse would take for it) when animate's parser has no such option, else
    None."""
    if not token.startswith("-") or token == "-" or token == "--":
        return None
    name = token.split("=", 1)[0]
    own = {flag for action in animate._actions for flag in action.option_strings}
    if name in own:
        return None
    actions = [a for a in torques._actions if a.option_strings]
    exact = [a for a in actions if name in a.option_strings]
    named = exact or [a for a in actions if name.startswith("--") and len(name) > 2
                      and any(f.startswith(name) for f in a.option_strings)]
    if len(named) != 1 or set(named[0].option_strings) & own:
        return None
    return named[0]


def refuse_torques_options(unknown, torques, animate):
    """Refuse (animate.error: its usage, exit status 2) the options of urdf2dyn torques among
    the tokens animate's parser did not recognize, each named with what animate does
    instead (TORQUES_ONLY); nothing when there are none."""
    said = []
    for token in unknown:
        action = _torques_only_action(token, torques, animate)
        if action is None:
            continue
        flag = token.split("=", 1)[0]
        words = TORQUES_ONLY.get(action.dest, "animate does not take it")
        said.append(f"{flag} is an option of urdf2dyn torques: {words}; drop {flag}")
    if said:
        animate.error("\n".join(said))


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
