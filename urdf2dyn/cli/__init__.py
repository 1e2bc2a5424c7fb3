"""The urdf2dyn command line.

    urdf2dyn torques ROBOT.urdf MOTION [MOTION ...] [-o OUT] [--grf FILE] [--filter HZ] ...
    urdf2dyn human --height 1.61 --mass 57.3 --sex female -o HUMAN.urdf
    urdf2dyn info MODEL [--dot TREE.dot] [--plot TREE.png]
    urdf2dyn export-osim MODEL.urdf -o MODEL.osim
    urdf2dyn codegen ROBOT.urdf --lang c|python|matlab [--float] -o DIR
    urdf2dyn equations ROBOT.urdf [--latex] [--parameters]
    urdf2dyn check ROBOT.urdf [--strict]
    urdf2dyn convert MODEL.osim|TRIAL.c3d -o OUT
    urdf2dyn ik --setup Setup_IK.xml [-o OUT.mot]
    urdf2dyn rra Setup_RRA.xml [--results-directory DIR] [--output-model OUT.osim]
    urdf2dyn scale Setup_Scale.xml [-o SCALED.osim]
    urdf2dyn animate MODEL TRIAL [-o OUT.gif]

``python -m urdf2dyn ...`` is the same. ``urdf2dyn COMMAND --help`` describes each command.
Each command is a module of this package that parses its arguments, calls the library and
prints; this one builds the parser and prints warnings and errors for all of them.
"""
import argparse
import difflib
import os
import sys
import warnings

from .._core import URDFError
from .._safe_files import OutputRefused, guarding
from ..biomech.trajectory import MotionError
from ..warn import Urdf2dynWarning, escaped, hearing_notes
from . import codegen, markers, models, rra, scale, torques
from .options import UsageError, in_strict_words, refuse_device_given

__all__ = ["main", "build_parser", "UsageError"]


def build_parser():
    parser = argparse.ArgumentParser(prog="urdf2dyn", description=__doc__.split("\n")[0])
    from .._version import __version__
    parser.add_argument("--version", action="version", version=f"urdf2dyn {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (torques.add_torques_parser, models.add_human_parser, models.add_info_parser,
                models.add_export_osim_parser, codegen.add_codegen_parser,
                codegen.add_equations_parser, models.add_check_parser,
                models.add_convert_parser, markers.add_ik_parser, markers.add_animate_parser,
                rra.add_rra_parser,
                scale.add_scale_parser):
        add(sub)
    return parser


def _did_you_mean(unknown, parser):
    """'; did you mean --full?' for a mistyped option of parser's, else ''."""
    options = [o for a in parser._actions for o in a.option_strings]
    close = [m for u in unknown if u.startswith("-")
             for m in difflib.get_close_matches(u.split("=")[0], options, n=1, cutoff=0.75)]
    return f"; did you mean {' or '.join(close)}?" if close else ""


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
            print(f"urdf2dyn {self.command}: warning: {escaped(str(message))}", file=sys.stderr,
                  flush=True)
        else:
            self._show_other(message, category, filename, lineno, file, line)


def _parse(argv):
    """The parsed arguments. An unknown option is refused by the command's parser (its usage,
    `urdf2dyn CMD: error:`), not by the top-level one argparse would blame; before any
    command, it is named rather than reported as a missing command. Python 3.11's argparse
    drops a value '--' given as --opt=-- and leaves [] in the option (never converted by its
    type): refused as a missing value. An option of torques given to animate (a torques
    command line copied) is named with what animate does instead
    (markers.refuse_torques_options). With the arguments, the command's own parser."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands.required = False                   # said below, after any unknown option
    args, unknown = parser.parse_known_args(argv)
    if args.command is None:
        if unknown:
            parser.error(f"unrecognized arguments: {' '.join(unknown)} (a command comes "
                         "first: urdf2dyn COMMAND ...; urdf2dyn -h lists them)")
        parser.error("the following arguments are required: command")
    sub = commands.choices[args.command]
    if unknown and args.command == "animate":   # a torques command line copied to animate
        markers.refuse_torques_options(unknown, commands.choices["torques"], sub)
    if unknown:
        sub.error(f"unrecognized arguments: {' '.join(unknown)}{_did_you_mean(unknown, sub)}")
    for a in sub._actions:
        if a.option_strings and a.nargs is None and getattr(args, a.dest, None) == []:
            sub.error(f"argument {'/'.join(a.option_strings)}: expected one argument "
                      "(got '--')")
    return args, sub


class _NotePrinter:
    """The library's notes (urdf2dyn.warn.note: what could not be checked, nothing found
    wrong) as `urdf2dyn CMD: note:` lines, each once (a file read twice notes twice); not
    warnings: not counted, and --strict does not refuse them."""

    def __init__(self, command):
        self.command, self._said = command, set()

    def __call__(self, message):
        if message not in self._said:
            self._said.add(message)
            print(f"urdf2dyn {self.command}: note: {escaped(message)}", file=sys.stderr,
                  flush=True)


def main(argv=None):
    args, command = _parse(argv)
    with warnings.catch_warnings():         # restores showwarning and the filters on exit
        warnings.simplefilter("always", Urdf2dynWarning)
        printer = _WarningPrinter(args.command, warnings.showwarning)
        warnings.showwarning = printer
        with hearing_notes(_NotePrinter(args.command)):
            status = _run(args, command)
    if printer.count:
        s = "s" if printer.count > 1 else ""
        print(f"urdf2dyn {args.command}: {printer.count} warning{s} (above)", file=sys.stderr)
        if status == 0 and getattr(args, "strict", False):
            print(f"urdf2dyn {args.command}: error: --strict: exit status 1 because of the "
                  f"warning{s} above", file=sys.stderr)
            status = 1
    return status


#: the options that name a file a command reads, by dest: what the file is
INPUT_OPTIONS = {"grf": "ground-reaction", "mapping": "mapping", "external_loads": "ExternalLoads",
                 "ik_setup": "IK setup", "scale": "scale setup", "static": "static trial",
                 "setup": "setup", "model": "model", "markers": "model-marker",
                 "marker_file": "marker", "marker_set": "marker set"}


def _options_of(command):
    """Every spelling of every option of a command's parser (-o and --output both)."""
    return {flag for action in command._actions for flag in action.option_strings}


def _refuse_devices_given(args, command):
    """A device or named pipe given to an input option of the command's parser, refused
    naming the option before any reader meets it (the readers refuse it too, but in the
    library's words)."""
    for action in command._actions:
        value = getattr(args, action.dest, None)
        if action.option_strings and action.dest in INPUT_OPTIONS and isinstance(value, str):
            refuse_device_given(action.option_strings[-1], value, INPUT_OPTIONS[action.dest])


def _run(args, command):
    """args.func(args), its failures said as `urdf2dyn CMD: error:` lines and an exit status;
    command: the command's parser (_parse), whose options are the command line's."""
    try:
        _refuse_devices_given(args, command)
        with guarding():        # no output over a file the command reads, by any name
            return args.func(args)
    except BrokenPipeError:        # e.g. `urdf2dyn info MODEL | head`: stop quietly
        sys.stdout = open(os.devnull, "w")
        return 1
    except OutputRefused as e:
        # the library checks outputs against inputs found while it works: its refusal of one
        # of this command's own options (-o) is a command-line mistake, exit status 2; of an
        # output a setup names, the setup's fault, status 1
        print(f"urdf2dyn {args.command}: error: {escaped(str(e))}", file=sys.stderr)
        return 2 if set(e.flags) & _options_of(command) else 1
    except UsageError as e:
        print(f"urdf2dyn {args.command}: error: {escaped(str(e))}", file=sys.stderr)
        return 2
    except (URDFError, MotionError, OSError, ValueError, KeyError, ImportError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"urdf2dyn {args.command}: error: {escaped(in_strict_words(str(msg)))}",
              file=sys.stderr)
        return 1
