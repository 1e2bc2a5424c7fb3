"""The urdf2dyn command line.

    urdf2dyn torques ROBOT.urdf MOTION.csv -o TORQUES.csv [--floating-base] [--gravity GX GY GZ]
"""
import argparse
import sys
import time

import numpy as np

from ._core import URDFError
from .model import load
from .motion import MotionError, derivatives, read_motion, write_csv


def cmd_torques(args):
    model = load(args.robot, floating_base=args.floating_base)
    if args.gravity is not None:
        model.gravity = args.gravity
    start = time.perf_counter()
    t, q, v, a = read_motion(args.motion, model)
    if v is None or a is None:
        v_est, a_est = derivatives(t, q, model)
        v = v_est if v is None else v
        a = a_est if a is None else a
    tau = model.inverse_dynamics(q, v, a)
    elapsed = time.perf_counter() - start
    if args.output:
        write_csv(args.output, t, tau, model.v_names)
    _summary(model, args, t, tau, elapsed)
    return 0


def _summary(model, args, t, tau, elapsed):
    out = sys.stdout
    print(f"{model!r}", file=out)
    print(f"motion: {args.motion}: {len(t)} samples, t = {t[0]:g} .. {t[-1]:g} s "
          f"({elapsed * 1e3:.1f} ms from file to torques)", file=out)
    if args.output:
        print(f"torques written to {args.output}", file=out)
    width = max(len(n) for n in model.v_names)
    print(f"{'DoF':<{width}}  peak |tau|   at t [s]", file=out)
    peak = np.abs(tau).max(axis=0)
    when = t[np.abs(tau).argmax(axis=0)]
    for name, p, w in zip(model.v_names, peak, when):
        print(f"{name:<{width}}  {p:10.4g}  {w:9.4g}", file=out)


def build_parser():
    parser = argparse.ArgumentParser(prog="urdf2dyn", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("torques", help="joint torques of a motion (inverse dynamics)",
                       description="Inverse dynamics over a motion CSV: a 'time' column and one "
                       "column per joint coordinate (model.q_names); optional '<dof>_vel' and "
                       "'<dof>_acc' columns, otherwise estimated by finite differences.")
    p.add_argument("robot", help="URDF file")
    p.add_argument("motion", help="motion CSV file")
    p.add_argument("-o", "--output", help="torques CSV to write (time + one column per DoF)")
    p.add_argument("--floating-base", action="store_true",
                   help="add a floating joint 'root_joint' above the URDF's root link")
    p.add_argument("--gravity", type=float, nargs=3, metavar=("GX", "GY", "GZ"),
                   help="gravity in the URDF world frame (default 0 0 -9.81)")
    p.set_defaults(func=cmd_torques)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (URDFError, MotionError, OSError, ValueError) as e:
        print(f"urdf2dyn {args.command}: error: {e}", file=sys.stderr)
        return 1
