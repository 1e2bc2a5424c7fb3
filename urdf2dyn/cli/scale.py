"""urdf2dyn scale: an OpenSim ScaleTool setup run unchanged (urdf2dyn.biomech.scale)."""

from .._safe_files import name_outputs
from ..warn import counted
from .options import TRIAL_COLUMNS, add_coordinate_file_processing, add_strict, model_path


def cmd_scale(args):
    from ..biomech.formats.scale_setup import read_scale_setup
    from ..biomech.scale import run_setup
    if args.rotate and not args.static:
        raise ValueError("--rotate turns --static's markers into the model's frame: give "
                         "--static (the setup's .trc is read in the model's frame, as OpenSim "
                         "reads it)")
    setup = read_scale_setup(args.setup, strict=args.strict)
    # the library checks every output against every file the setup names and the files
    # given instead, before any work: its refusal names -o as declared here (exit status 2,
    # by the command line's one rule for OutputRefused) or the setup's own output (status 1)
    name_outputs([("-o", args.output)])
    result = run_setup(setup, output=args.output,
                       model=model_path(args.model) if args.model else None,
                       static=args.static, rotation=args.rotate, strict=args.strict,
                       marker_set=args.marker_set or None, processing=args.processing,
                       named=TRIAL_COLUMNS)
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
