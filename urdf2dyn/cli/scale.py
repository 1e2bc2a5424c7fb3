"""urdf2dyn scale: an OpenSim ScaleTool setup run unchanged (urdf2dyn.biomech.scale)."""

from .._safe_files import same_file
from ..warn import counted
from .options import (UsageError, add_coordinate_file_processing, add_strict, model_path,
                      refuse_overwriting)


def cmd_scale(args):
    from ..biomech.formats.scale_setup import read_scale_setup
    from ..biomech.scale import load_generic, run_setup, setup_inputs
    setup = read_scale_setup(args.setup, strict=args.strict)
    # what the setup names, as the library lists it (inputs whether or not read), and the
    # files given instead
    refuse_overwriting([("-o", args.output)],
                       setup_inputs(setup) + [("model", args.model),
                                              ("marker set", args.marker_set),
                                              ("static trial", args.static)])
    for tag, path, written in (
            ("ModelScaler's <output_scale_file>", setup.output_scale_file, setup.scale),
            ("MarkerPlacer's <output_marker_file>", setup.output_marker_file, setup.place),
            ("MarkerPlacer's <output_motion_file>", setup.output_motion_file, setup.place)):
        if args.output and path and written and same_file(args.output, path):
            raise UsageError(f"-o {args.output}: the setup's {tag} is that file, also "
                             "written by this run: choose another name")
    model = static = None
    if args.model:
        model = load_generic(model_path(args.model), strict=args.strict)
    if args.static:
        from ..biomech.formats import read_markers
        static = read_markers(args.static, args.rotate, args.strict)
    elif args.rotate:
        raise ValueError("--rotate turns --static's markers into the model's frame: give "
                         "--static (the setup's .trc is read in the model's frame, as OpenSim "
                         "reads it)")
    result = run_setup(setup, output=args.output, model=model, static=static,
                       strict=args.strict, marker_set=args.marker_set or None,
                       processing=args.processing)
    report = result.report
    written = args.output or (setup.output_model_file if setup.place
                              else setup.output_scaled_model)
    print(report.text())
    bodies = f"{len(report.factors)} {'body' if len(report.factors) == 1 else 'bodies'}"
    print(f"{args.setup}: {bodies} scaled, {counted(len(report.lengths), 'muscle length')}, "
          f"{counted(len(report.markers), 'marker')} placed -> "
          f"{written or 'nothing written (the setup names no output model; give -o)'}")
    return 0


def add_scale_parser(sub):
    p = sub.add_parser(
        "scale", help="scale a generic OpenSim model to a subject: run a Setup_Scale.xml",
        description="Run an OpenSim ScaleTool setup unchanged: marker-pair measurements and "
        "manual scales give each body's factors, the masses become the subject's, and the "
        "model's markers are placed on the static trial (inverse kinematics converged). The "
        "scaled model is the generic .osim with the scaled values written in. Prints the "
        "factors, the marker-pair distances and each marker's static-trial error, and writes "
        "what OpenSim's tool writes (the setup's output files).")
    p.add_argument("setup", metavar="SETUP_SCALE.xml", help="OpenSim ScaleTool setup file")
    p.add_argument("-o", "--output", metavar="SCALED.osim",
                   help="the scaled model (default: the setup's output_model_file)")
    p.add_argument("--model", metavar="GENERIC.osim",
                   help="the generic model, instead of the setup's model_file")
    p.add_argument("--marker-set", metavar="MARKERS.xml",
                   help="the OpenSim marker set to add to the generic model's markers, instead "
                        "of the setup's marker_set_file (OpenCap gives its marker sets beside "
                        "its models)")
    p.add_argument("--static", metavar="STATIC.trc|.c3d",
                   help="the static trial, instead of the setup's marker_file")
    p.add_argument("--rotate", metavar="AXIS:DEG[,AXIS:DEG]",
                   help="with --static: rotation from the lab frame to the model frame, e.g. "
                        "x:-90 for a z-up lab and a y-up OpenSim model")
    add_coordinate_file_processing(p, "the marker placer's coordinate_file", "MarkerPlacer")
    add_strict(p, "treat every warning (a measurement left out, markers beyond "
                  "OpenSim's best-practice errors, ...) as an error")
    p.set_defaults(func=cmd_scale)
    return p
