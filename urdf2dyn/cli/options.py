"""What every command's arguments share: the argparse validators (each value checked in the
flag's own words before any work), the model argument, and the optional packages a command
needs."""
import argparse
import math
import os

from ..biomech.human import MIN_HUMAN_MASS
from ..biomech.processing import ColumnOptions, CutoffNamed
from ..biomech.trajectory import MotionError
from ..bundled import data_path
from ..model import STRICT_REFUSAL
from .._input_bytes import refuse_devices
from .._safe_files import check_output_paths, name_outputs, refuse_overwriting_inputs
from ..warn import missing_file


class UsageError(ValueError):
    """A command line that cannot be run as written: exit status 2, as argparse's own errors."""


#: The largest integer an integer option takes: counts (samples, processes, threads) go to the
#: C core as C ints; an integer beyond it is refused by name, not overflowed.
INT_LIMIT = 2**31 - 1


def number(what, low=None, high=None, low_open=True, integer=False):
    """An argparse type= for a finite number in (low, high] (or [low, high] when not low_open):
    the message names the value and what is allowed; argparse prefixes the flag's name."""
    def parse(text):
        try:
            x = int(text) if integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not {'an integer' if integer else 'a number'} ({what})") from None
        # an int is finite, and isfinite() of one beyond a float's range raises OverflowError
        bad = not (integer or math.isfinite(x)) \
            or (low is not None and (x <= low if low_open else x < low)) \
            or (high is not None and x > high)
        if bad:
            raise argparse.ArgumentTypeError(f"{text}: {what}")
        if integer and abs(x) > INT_LIMIT:      # beyond what the core's C int counts take
            raise argparse.ArgumentTypeError(f"{text}: too large ({what})")
        return x
    return parse


MASS = number("a body mass in kg, > 0", low=0.0)
HUMAN_MASS = number(f"a body mass in kg, {MIN_HUMAN_MASS:g} to 1000", low=MIN_HUMAN_MASS,
                    low_open=False, high=1000.0)
SPEED = number("a speed in m/s, > 0", low=0.0)
CUTOFF = number("a cut-off frequency in Hz, > 0 (and below half the sampling rate)", low=0.0)
GAP = number("a number of samples, >= 0", low=0, low_open=False, integer=True)
JOBS = number("a number of processes, >= 1", low=1, low_open=False, integer=True)
GRAVITY = number("a finite acceleration component in m/s²")
THREADS = number("a number of threads, >= 1", low=1, low_open=False, integer=True)
THRESHOLD = number("a force in N, >= 0", low=0.0, low_open=False)
TIME = number("a finite time in s")


class TimeRange(argparse.Action):
    """--time-range T0 T1: two finite times (TIME), T0 not after T1, refused in the flag's
    words before any work."""

    def __call__(self, parser, namespace, values, option_string=None):
        t0, t1 = values
        if not t0 <= t1:
            raise argparse.ArgumentError(self, f"{t0:g} {t1:g}: T0 is after T1; give the "
                                               "start time first")
        setattr(namespace, self.dest, values)


def add_time_range(p, help):
    """--time-range T0 T1, as torques and animate take it."""
    p.add_argument("--time-range", type=TIME, nargs=2, action=TimeRange, metavar=("T0", "T1"),
                   help=help)


#: --filter, as a refusal of its cut-off names it (the library's filter_hz otherwise)
FILTER_NAMED = CutoffNamed("--filter", "no --filter")
#: what the refusals and warnings advise on the command line: the flags of `urdf2dyn
#: torques`, and the commands named where another one does the job (urdf2dyn ik, scale,
#: human, convert); every command passes it but animate and torques --setup (below)
TRIAL_COLUMNS = ColumnOptions("--processing opensim", "--mapping FILE", "--floating-base",
                              contact="{}", contact_pair="--contact {}=LINK",
                              couplers="--couplers eliminate", grf="--grf FILE",
                              external_loads="--external-loads SETUP.xml", max_gap="--max-gap {}",
                              delimiter="--delimiter {}", decimal="--decimal {}",
                              degrees="--degrees", time_range="--time-range {0:g} {1:g}",
                              gravity="--gravity {0:g} {1:g} {2:g}", rotation="--rotate {}",
                              ik_setup="--ik-setup SETUP_IK.xml", filter_hz="--filter {:g}",
                              cycles="--cycles {}", static="--static {}",
                              scheduler="--scheduler", ik_model="urdf2dyn ik --model MODEL",
                              marker_file="urdf2dyn ik --marker-file MARKERS.trc",
                              root="urdf2dyn human --root prismatic",
                              derivatives="--derivatives {}",
                              scale_model="urdf2dyn scale SETUP --model {}",
                              marker_set="urdf2dyn scale SETUP --marker-set {}",
                              scale_static="urdf2dyn scale SETUP --static {}",
                              marker_fit="urdf2dyn ik", osim_to_urdf="urdf2dyn convert")
#: the same in `urdf2dyn torques --setup`'s: the setup gives the motion, processing, loads
#: and time range (--time-range overrides it), and its OpenSim processing takes no floating
#: joint (a quaternion) nor a lab rotation or IK setup (its motion is a coordinate file),
#: and its filter is the setup's (--filter is refused beside it)
SETUP_COLUMNS = TRIAL_COLUMNS._replace(
    processing=None, mapping=None, floating_base=None, grf=None, degrees=None, rotation=None,
    ik_setup=None, filter_hz=None,
    external_loads="the setup's <external_loads_file>",
    time_range="the setup's <time_range>{0:g} {1:g}</time_range>, or --time-range {0:g} {1:g}")
#: the same in `urdf2dyn convert`'s, which takes no --gravity: a converted URDF holds none,
#: so the advice names the commands that set it where the model's dynamics are computed
CONVERT_COLUMNS = TRIAL_COLUMNS._replace(
    gravity="--gravity {0:g} {1:g} {2:g} (urdf2dyn torques, animate and export-osim take it)")
#: the same in `urdf2dyn animate`'s, which reads the motion as torques does but takes
#: neither the loads nor their links (it draws the trial's own), --couplers, --max-gap, the
#: CSV separators (detected from the file), --cycles, a scaling's --static nor --derivatives
ANIMATE_COLUMNS = TRIAL_COLUMNS._replace(contact=None, couplers=None, grf=None,
                                         external_loads=None, max_gap=None, delimiter=None,
                                         decimal=None, cycles=None, static=None,
                                         derivatives=None)


def in_flag_words(error, args):
    """A library's refusal of a value the command line passed on, in the flag's words: its
    time range with no sample in it is --time-range's, the gravity OpenSim cannot hold is
    --gravity. (A cut-off is named --filter by the filter itself: FILTER_NAMED.)"""
    text = str(error)
    if getattr(args, "gravity", None) is not None and text.startswith("to_opensim: gravity "):
        return ValueError(f"--gravity {text[len('to_opensim: gravity '):]}")
    if getattr(args, "time_range", None) is not None and ": no sample in the time range " \
            in text:
        t0, t1 = args.time_range
        return MotionError(f"--time-range {t0:g} {t1:g}: {text}")
    return error


def in_strict_words(text):
    """A strict load's refusal of a model finding (urdf2dyn.model.STRICT_REFUSAL, said of
    strict=True) in --strict's words: every loader a command reaches (its model's, a
    setup's) refuses findings, so the command says the one sentence in its own words."""
    return text.replace(STRICT_REFUSAL, "refused because --strict makes the model's findings "
                        "errors: act on it as said, or run without --strict to use the model "
                        "as written, with this as a warning")


def refuse_device_given(flag, path, what):
    """A device or named pipe given to flag, refused in the flag's words before any reader
    opens it (a pipe's open() waits for a writer: the command would hang)."""
    refuse_devices(path, what, named=flag)


def add_floating_base(p, help="add a floating joint 'root_joint' above the root link"):
    """--floating-base, as every command that loads a model takes it."""
    p.add_argument("--floating-base", action="store_true", help=help)


def add_degrees(p):
    """--degrees, as torques and animate read a CSV motion."""
    p.add_argument("--degrees", action="store_true",
                   help="angles (and their rates) in the CSV motion files are in degrees")


def add_mapping(p):
    """--mapping FILE, as torques and animate rename a motion's columns."""
    p.add_argument("--mapping", metavar="FILE",
                   help="rename the motion file's columns to the model's coordinates: a JSON "
                        "object {\"file name\": \"model name\"} or a two-column CSV "
                        "'from,to' (from = the name in the file, to = the model's name)")


def refuse_missing_files(flagged):
    """Before any work: FileNotFoundError naming the flag of the first (flag, path) whose
    file does not exist (a path None: the flag was not given)."""
    for flag, path in flagged:
        if path and not os.path.exists(path):
            raise FileNotFoundError(f"{flag} " + missing_file(path))


def add_strict(p, help="warnings are errors: the first one stops the command, named (exit "
                       "status 1)"):
    """--strict, as every command that reads a model or data files takes it: the library's
    strict=True (a warning raised as the error it names), and exit status 1 after any
    warning that is said all the same (urdf2dyn.cli.main)."""
    p.add_argument("--strict", action="store_true", help=help)


class GravityVector(argparse.Action):
    """--gravity GX GY GZ: three finite components (GRAVITY) whose length is finite, refused
    in the flag's words before any work. Every command takes gravity's length (the advice on
    a model no gravity loads, OpenSim's gravity); past ~1e154 m/s² it overflowed, and torques
    and animate ended in 'gravity: expected 3 finite numbers', which the three were."""

    def __call__(self, parser, namespace, values, option_string=None):
        if not math.isfinite(sum(x * x for x in values)):
            shown = " ".join(f"{x:g}" for x in values)
            raise argparse.ArgumentError(self, f"{shown}: its length overflows (components past "
                                               "~1e154 m/s²); give components of a physical "
                                               "size, such as 0 0 -9.81")
        setattr(namespace, self.dest, values)


def add_gravity(p, help="gravity in the world frame (default 0 0 -9.81)"):
    """--gravity GX GY GZ, each a finite number (GRAVITY), their length too (GravityVector)."""
    p.add_argument("--gravity", type=GRAVITY, nargs=3, action=GravityVector,
                   metavar=("GX", "GY", "GZ"), help=help)


HUMOD_GRAVITY_HELP = ("gravity in the URDF world frame (default 0 0 -9.81; 0 -9.81 0 for a "
                      "HuMoD human model)")


def add_trial_processing(p, help):
    """--processing of a trial (torques, animate): urdf2dyn's or OpenSim's filter, splines and
    output rows. No default: torques' --setup implies opensim, so None means not given."""
    p.add_argument("--processing", choices=("urdf2dyn", "opensim"), help=help)


def add_coordinate_file_processing(p, what, reader):
    """--processing of a setup runner (ik, scale): how what, a coordinate_file, is read."""
    p.add_argument("--processing", choices=("urdf2dyn", "opensim"), default="urdf2dyn",
                   help=f"how {what} (its from_file coordinate tasks) is read: urdf2dyn "
                        "(default) in the units its header says, interpolated linearly; "
                        "opensim: in degrees whatever its header says, through natural quintic "
                        f"splines, as OpenSim's {reader} reads it")


def height(text):
    h = number("a stature in metres, > 0", low=0.0)(text)
    if not 0.3 <= h <= 3.0:
        cm = f" ({h:g} looks like centimetres: {h / 100:g})" if 30 <= h <= 300 else ""
        raise argparse.ArgumentTypeError(f"{text}: a stature in metres, 0.3 to 3{cm}")
    return h


def sex(text):
    """--sex of the human model: female or male (f/m), as urdf2dyn.biomech.human reads it."""
    from ..biomech.human import _sex
    try:
        return _sex(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected female or male (f or m)") from None


def suffix(*allowed):
    """An argparse type= for a file to write, with one of the allowed extensions."""
    def parse(text):
        if os.path.splitext(text)[1].lower() not in allowed:
            raise argparse.ArgumentTypeError(f"{text}: expected a file name ending in "
                                             f"{' or '.join(allowed)}")
        if os.path.isdir(text):
            raise argparse.ArgumentTypeError(f"{text}: a directory, expected a file to write")
        return text
    return parse


def contact(text):
    key, sep, link = text.partition("=")       # KEY may be empty: OpenSim columns without prefix
    if not sep or not link:
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=LINK (e.g. R=foot_R, or "
                                         "=LINK for loads without a key)")
    return text


DELIMITER_CHOICES = ("comma", "semicolon", "tab", "whitespace", ",", ";")


def refuse_overwriting(outputs, inputs=(), created=()):
    """Before any work: no output (flag, path) may be one of the inputs (kind, path), or
    another output, by any name, and each goes in a writable directory that exists
    (``urdf2dyn._safe_files``): a UsageError, exit status 2. ``created``: (flag, folder) the
    command creates when missing (as it documents): an output in one is not refused for its
    folder, a folder that is a file is."""
    outputs = [(flag, path) for flag, path in outputs if path is not None]
    name_outputs(outputs)       # a refusal found later, at write time, names the option too
    try:
        refuse_overwriting_inputs(outputs, inputs)
        check_output_paths(outputs, created)
    except ValueError as e:
        raise UsageError(str(e)) from None


def model_path(path):
    """A URDF path, or the name of a file bundled with urdf2dyn (e.g. humod_subject_a.urdf)."""
    if not os.path.exists(path) and not path.lstrip().startswith("<"):
        if os.path.exists(data_path(path)):
            return data_path(path)
        bundled = sorted(n for n in os.listdir(os.path.dirname(data_path("x")))
                         if n.endswith(".urdf"))
        raise FileNotFoundError(missing_file(path, bundled) + f" (bundled models: "
                                f"{', '.join(bundled)})")
    return path


def need_scipy(what):
    try:
        import scipy.signal  # noqa: F401
    except ImportError:
        raise MotionError(f"{what} needs SciPy: pip install scipy (or pip install "
                          "\"urdf2dyn[cli]\")") from None


def need_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MotionError("--plot needs matplotlib: pip install matplotlib (or pip install "
                          "\"urdf2dyn[plot]\")") from None


def is_humod(model):
    names = set(model.q_names)
    return {"pBJX", "rHJZ_L", "rKJZ_R"} <= names or {"BJ_x", "rHJZ_L", "rKJZ_R"} <= names


def set_gravity(model, gravity):
    """--gravity, or y-up gravity for a HuMoD human model; returns a note when defaulted."""
    if gravity is not None:
        model.gravity = gravity
    elif is_humod(model):
        from ..biomech.human import GRAVITY as Y_UP
        model.gravity = Y_UP
        return "gravity (0, -9.81, 0): a HuMoD human model (y up); --gravity overrides"
    return None


def parse_contacts(items):
    return dict(item.partition("=")[::2] for item in items or ())
