"""urdf2dyn rra: OpenSim's residual reduction setup run by urdf2dyn's method."""
from .options import add_strict, model_path, number, refuse_overwriting, suffix


def cmd_rra(args):
    from ..biomech.formats.rra_setup import read_rra_setup
    from ..biomech.rra import run_rra
    from ..model import load
    model = None
    # read once, for its files; its model_file is not looked at when --model replaces it
    setup = read_rra_setup(args.setup, strict=args.strict, need_model=not args.model)
    _refuse_overwriting_inputs(args, setup)
    if args.model:
        model = load(model_path(args.model), strict=args.strict)
    result = run_rra(setup, model, results_directory=args.results_directory,
                     output_model_file=args.output_model, knot_interval=args.knot_interval,
                     strict=args.strict)
    print(result.summary, end="")
    print(f"wrote {len(result.files)} files in {result.elapsed_s:.3g} s:")
    for path in result.files.values():
        print(f"  {path}")
    return 0


def _refuse_overwriting_inputs(args, setup):
    """Before any work: no result (the adjusted model, each file of the results directory)
    may be a file the run reads, or another result; each named by the option (or the
    setup's element) that put it there."""
    from ..biomech.rra import result_files, setup_inputs
    folder, where = args.results_directory, "--results-directory"
    if folder is None:
        folder, where = setup.results_directory, f"{setup.path}: <results_directory>"
    model_file, named = args.output_model, "--output-model"
    if model_file is None:          # the setup's, written when it adjusts the mass centre
        model_file = setup.output_model_file if setup.adjust_com else None
        named = f"{setup.path}: <output_model_file>"
    outputs = [(named, model_file)]
    outputs += [(f"{where} (its {kind})", path) for kind, path in result_files(setup, folder)]
    inputs = setup_inputs(setup)
    if args.model:                  # read instead of the setup's model_file
        inputs.append(("model", model_path(args.model)))
    refuse_overwriting(outputs, inputs, created=[(where, folder)])


def add_rra_parser(sub):
    p = sub.add_parser(
        "rra", help="reduce the residuals of an OpenSim RRA setup (Setup_RRA.xml)",
        description="Run an OpenSim residual reduction (RRA) setup file as written: its model, "
        "desired kinematics, external loads, time range, cutoff, task weights and residual "
        "actuators. The kinematics are corrected by smooth splines, the total mass scaled and, "
        "when the setup asks, the adjusted_com_body's mass centre moved, by a least-squares fit "
        "of the root's equations of motion (urdf2dyn.biomech.residuals). Writes OpenSim's "
        "<name>_Kinematics_q/_u/_dudt.sto, <name>_Actuation_force.sto and "
        "<name>_avgResiduals.txt, a <name>_summary.txt, and the adjusted model.")
    p.add_argument("setup", help="the RRATool setup file (Setup_RRA.xml)")
    p.add_argument("--model", help="use this model instead of the setup's model_file")
    p.add_argument("--results-directory", metavar="DIR",
                   help="write the results here instead of the setup's results_directory")
    p.add_argument("--output-model", metavar="FILE.osim", type=suffix(".osim"),
                   help="write the adjusted model here instead of the setup's "
                        "output_model_file")
    p.add_argument("--knot-interval", metavar="S", default=0.005,
                   type=number("a knot spacing in s, 0.0005 to 1", low=0.0005, high=1.0,
                               low_open=False),
                   help="spacing of the kinematic corrections' spline knots, s (default "
                        "0.005)")
    add_strict(p)
    p.set_defaults(func=cmd_rra)
