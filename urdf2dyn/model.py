"""The Python face of a compiled URDF model: names, conventions, f_ext, pickling."""
from __future__ import annotations

import math
import numbers
import os
import re
import reprlib
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

import urdf2dyn._core as _core
from ._input_bytes import read_input
from ._safe_files import note_input, refuse_declared_outputs
from .batch import (_VELOCITY_LIKE, _as_samples, _batch_shape, _check_out, _flatten, _fmt,
                    _name_sample, _plain, _scalar, _stack_wrenches, get_num_threads)
from .warn import URDFWarning, in_file, report, unknown_name

# Coordinate names of multi-DoF joints, appended to the joint's name as "<joint>_<suffix>".
_Q_SUFFIXES = {"floating": ("x", "y", "z", "qx", "qy", "qz", "qw"), "planar": ("x", "y", "theta"),
               "ball": ("qx", "qy", "qz", "qw")}
_V_SUFFIXES = {"floating": ("vx", "vy", "vz", "wx", "wy", "wz"), "planar": ("x", "y", "theta"),
               "ball": ("wx", "wy", "wz")}

#: External wrenches: {link name: [fx fy fz mx my mz] of shape (6,) or (N, 6)}, world frame.
FExt = Mapping[str, ArrayLike]


@dataclass(frozen=True)
class Joint:
    """A movable joint. ``parent`` is None for the floating root added by floating_base.
    ``limit`` is (lower, upper, effort, velocity) or None; ``mimic`` is (joint, multiplier,
    offset) or None (mimic joints are read, then treated as independent, as Pinocchio does);
    ``damping`` and ``friction`` come from a URDF's <dynamics> or an MJCF joint's damping
    (plus gear^2 times that of its actuators, as MuJoCo 4 adds it) and frictionloss,
    ``stiffness`` from an MJCF joint's spring (the linear coefficients, as
    springdamper makes them where it is given), ``spring_reference`` a hinge's or slide's
    rest (rad for a hinge; a ball's or free joint's is its MJCF qpos0). MuJoCo 4's
    polynomial terms (``stiffness="a b c"``, ``damping="a b c"``) are ``stiffness_poly``
    = (b, c), the spring force being -(a x + b x^2 + c x^3) for a hinge's or slide's
    displacement x (-(a + b r + c r^2) d for a ball's or free joint's rotation or
    translation d of length r), and ``damping_poly`` = (b, c), the damping force
    -(a v + b v|v| + c v^3) on each coordinate (b and c gear^2 times an actuator's added).
    None of these enters inverse dynamics: :meth:`Model.passive_forces` gives the damping
    and springs."""
    name: str
    type: str
    q_index: int
    v_index: int
    nq: int
    nv: int
    parent: str | None
    child: str
    axis: tuple[float, float, float]
    limit: tuple[float, float, float, float] | None = None
    mimic: tuple[str, float, float] | None = None
    damping: float = 0.0
    friction: float = 0.0
    stiffness: float = 0.0
    spring_reference: float = 0.0
    stiffness_poly: tuple[float, float] = (0.0, 0.0)
    damping_poly: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Coordinate:
    """An OpenSim coordinate as the .osim file defines it. ``motion`` is "rotational",
    "translational" or "coupled" (OpenSim's motion type: a coordinate that moves its joint
    through anything but a slope-1 linear function is coupled); ``range`` is (lower,
    upper) in rad or m; ``locked`` and ``clamped`` are read, not enforced (inverse dynamics
    takes the motion it is given, as OpenSim's tool does). ``range_written`` is whether the
    file wrote ``<range>``: without one the range is OpenSim's default, -10 10, which no
    file chose (an unclamped coordinate leaving it is not said, and a URDF conversion keeps
    no comment of it). ``nan_ends`` says which ends (lower, upper) the file wrote NaN,
    which OpenSim 4.6 keeps for an unclamped coordinate, a range that bounds nothing there:
    ``lower`` and ``upper`` read such an end as no bound (-inf, inf)."""
    name: str
    joint: str
    motion: str
    default: float
    lower: float
    upper: float
    locked: bool
    clamped: bool
    range_written: bool = True
    nan_ends: tuple[bool, bool] = (False, False)


class Marker(NamedTuple):
    """A point fixed on a link: ``name``, ``link`` (a URDF link / OpenSim body name) and
    ``position`` (3,) in the link frame, m."""
    name: str
    link: str
    position: tuple[float, float, float]


@dataclass(frozen=True)
class Coupler:
    """An OpenSim ``CoordinateCouplerConstraint``: ``dependent = scale * f(independent)``,
    f the file's ``coupled_coordinates_function``; ``name`` and ``line`` say where the file
    defines it."""
    dependent: str
    independent: str
    scale: float
    name: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Force:
    """A force element of an OpenSim model, of its ``ForceSet`` or of a ``<components>``
    list (OpenSim 4's list of any components, where Moco's models declare their contacts and
    muscles): its name and its element (OpenSim's class, e.g. "Thelen2003Muscle",
    "CoordinateActuator", "HuntCrossleyForce"). Read so that tools can name what OpenSim
    would apply; no force element enters urdf2dyn's dynamics. ``component`` is True for one
    under ``<components>``: OpenSim's inverse dynamics tool applies those whatever its
    ``<forces_to_exclude>`` says (that list reaches the ForceSet only)."""
    name: str
    kind: str
    component: bool = field(default=False, compare=False)

    @property
    def actuator(self) -> bool:
        """A muscle or another actuator (OpenSim's ``Muscles`` and ``Actuators`` groups): the
        generalized forces inverse dynamics gives are what the actuators supply. The other
        elements (springs, ligaments, bushings, contact, prescribed forces) are passive:
        OpenSim's tools apply them, urdf2dyn does not."""
        return ("Muscle" in self.kind or "Actuator" in self.kind
                or self.kind in _ACTUATORS_NAMED_OTHERWISE)

    @property
    def pulls_without_control(self) -> bool:
        """Whether it supplies a force in OpenSim's inverse dynamics tool, which gives the
        actuators no control: a passive element, a muscle (at its default state: passive
        fibre force, and active force at its default activation, as a DeGrooteFregly2016Muscle
        ignoring its passive force still pulls) or an ActivationCoordinateActuator (its
        default activation, 0.5); not another actuator, whose force is its control times its
        optimal force (every Actuator of OpenSim 4.6 run through the tool: Coordinate, Path,
        Torque, Point, PointToPoint, Body, McKibben, ClutchedPathSpring)."""
        return (not self.actuator or "Muscle" in self.kind
                or self.kind in _ACTUATORS_ACTIVE_BY_DEFAULT)


# OpenSim's Actuator subclasses whose class names hold neither "Muscle" nor "Actuator"
# (every Force subclass of OpenSim 4.6 checked: issubclass(c, opensim.Actuator))
_ACTUATORS_NAMED_OTHERWISE = frozenset({"ClutchedPathSpring"})

# OpenSim's actuators whose force at the default state has no control in it (an activation
# state, 0.5 by default)
_ACTUATORS_ACTIVE_BY_DEFAULT = frozenset({"ActivationCoordinateActuator"})


@dataclass(frozen=True, eq=False)
class Structure:
    """The compiled tree, as the core evaluates it (read-only copies; see Model.structure).

    Bodies are in topological order, body 0 being the fixed world; body i > 0 hangs from the
    movable joint ``joint[i]``. Transforms follow Featherstone's Plücker convention: ``E``
    rotates parent coordinates into child coordinates and ``r`` is the child origin in parent
    coordinates (a point maps as p_child = E (p_parent - r)). Inertias are about the body
    origin, in body axes: mass, first moment h = m c and 3x3 rotational inertia ``Ib``.
    """
    parent: np.ndarray      # (nb,)      parent body, parent[i] < i; -1 for the world
    joint: tuple            # (nb,)      name of the joint above each body ("" for the world)
    jtype: tuple            # (nb,)      its type: "revolute", ..., "fixed" for the world
    q_index: np.ndarray     # (nb,)      first q index of the joint
    v_index: np.ndarray     # (nb,)      first v index
    nq: np.ndarray          # (nb,)      number of q coordinates of the joint
    nv: np.ndarray          # (nb,)      number of v coordinates
    axis: np.ndarray        # (nb, 3)    joint axis (planar: normal) in the joint frame
    plane: np.ndarray       # (nb, 6)    planar joints: in-plane unit axes u, w
    Xtree_E: np.ndarray     # (nb, 3, 3) parent body frame -> joint frame at q = 0: rotation
    Xtree_r: np.ndarray     # (nb, 3)    ... and the joint origin in the parent body frame
    mass: np.ndarray        # (nb,)      body mass (fixed links merged)
    h: np.ndarray           # (nb, 3)    first moment of mass, body frame
    Ib: np.ndarray          # (nb, 3, 3) rotational inertia about the body origin
    armature: np.ndarray    # (nb,)      rotor inertia on each of the joint's coordinates
    link_names: tuple       # (nl,)      every URDF link, document order
    link_body: np.ndarray   # (nl,)      the body each link rides on
    link_E: np.ndarray      # (nl, 3, 3) body frame -> link frame: rotation
    link_r: np.ndarray      # (nl, 3)    ... and the link origin in the body frame

    @property
    def nbody(self):
        """Number of bodies, the world included."""
        return len(self.parent)


@dataclass
class IKSolution:
    """Inverse kinematics over N frames, with OpenSim's IK report per frame.

    Attributes
    ----------
    q : (N, nq) array
        The fitted coordinates (rad, m).
    marker_names : list of str
        The model markers, in the order of ``marker_error``'s columns.
    marker_error : (N, k) array
        Each marker's distance to its measured position, m (NaN where it is missing).
    squared, rms, max : (N,) arrays
        OpenSim's IK report over the markers with a non-zero weight: the sum of squared
        errors of those present (m²), ``sqrt(squared / k)`` with k the markers fitted,
        missing ones included, as OpenSim's IK tool computes its RMS (m), and the largest
        error (m); NaN when none is present.
    worst : list of str
        The marker at ``max`` per frame ("" when none).
    iterations : (N,) int array
        Levenberg-Marquardt iterations per frame.
    """
    q: NDArray[np.float64]
    marker_names: list[str]
    marker_error: NDArray[np.float64]
    squared: NDArray[np.float64]
    rms: NDArray[np.float64]
    max: NDArray[np.float64]
    worst: list[str]
    iterations: NDArray[np.int64]


_MAX_FILE = 1 << 28          # an MJCF's include or mesh file: 256 MB at most (as the core's)

_JTYPES = ("fixed", "revolute", "continuous", "prismatic", "floating", "planar", "custom", "ball",
           "ellipsoid", "constant_curvature")

# How the .osim loader's finding that counts what inverse dynamics skips begins (the core's
# summarize_skipped, csrc/parse/u2d_osim.c): the jobs that keep or replace those forces
# (scaling, residual reduction) leave it unsaid.
SKIPPED_FOR_ID = "skipped what does not enter inverse dynamics"
# How the loader's warning about an .osim's force elements OpenSim's tools apply begins (its
# passive ones, and its muscles under <components>, which no setup excludes): the jobs that
# keep them (scaling), drop them (residual reduction replacing the force set), say which
# ones a setup leaves on (inverse_dynamics_setup) or are not moved by them (an IK setup's
# run) leave it unsaid.
PASSIVE_FORCES = "that urdf2dyn does not apply"
# How the loader's warning about couplers that cannot be applied ends: a job that refuses
# such a model at once (an IK setup's run) leaves it unsaid, to say the fact once.
COUPLERS_REFUSED = "inverse kinematics refuse the model"


def passive_forces_message(passive: list[Force]) -> str:
    """What the loader says of an .osim's force elements that OpenSim's tools apply
    (applied_by_opensim)."""
    names = ", ".join(f"{f.name!r} ({f.kind}{', in <components>' if f.component else ''})"
                      for f in passive[:6])
    more = f" and {len(passive) - 6} more" if len(passive) > 6 else ""
    message = (f"{len(passive)} force element{'s' if len(passive) > 1 else ''} "
               f"{PASSIVE_FORCES}: {names}{more}. OpenSim's tools apply them "
               "unless <forces_to_exclude> names them, so urdf2dyn's joint moments also hold "
               "what they would supply; compare with OpenSim's excluding them (by name, or All)")
    inside = [f for f in passive if f.component]
    if inside:      # OpenSim 4.6's ID tool: forces_to_exclude disables ForceSet members only
        message += (f"; the {len(inside)} under the model's <components> OpenSim's inverse "
                    "dynamics tool applies even when <forces_to_exclude> names them (or All): "
                    "to compare, remove them from the model or move them into its <ForceSet>")
    return message


def applied_by_opensim(forces: Iterable[Force]) -> list[Force]:
    """The force elements OpenSim's tools apply though the usual setups leave actuators out
    (<forces_to_exclude> Muscles or Actuators): the passive ones, and the actuators under
    <components> that pull without a control (Force.pulls_without_control: muscles at their
    default state, Moco's 2D_gait.osim, 5.9 N·m at the ankle), which OpenSim 4.6's inverse
    dynamics tool applies whatever the list says; another actuator there supplies its control,
    none in that tool."""
    return [f for f in forces if not f.actuator or (f.component and f.pulls_without_control)]


# Beyond this, neighbouring doubles lie more than 1 apart: no angle nor length is resolved
# there, so a limit written that far (1e300, the largest double) can only mean no bound.
_NO_BOUND = 2.0 ** 53


def _drawn_range(joint) -> tuple[float, float]:
    """Where random_configuration draws a limited joint's coordinate: its limits, or, when
    one is beyond _NO_BOUND (URDF's only way to write no bound is a huge number: convert
    writes 1e16, others the largest double; 1e300 is as far from any angle), a window of
    the unlimited draw's width (2 pi, or 2 m for a slide) inside them, about 0 where the
    limits allow."""
    lo, hi = joint.limit[0], joint.limit[1]
    if max(abs(lo), abs(hi)) <= _NO_BOUND:
        return lo, hi
    width = 2.0 if joint.type == "prismatic" else 2 * np.pi
    start = max(lo, min(hi - width, -width / 2))
    return start, min(hi, start + width)


# The joint types an algorithm has no form for: the words that name them, and the way on.
_UNSUPPORTED = {
    "ellipsoid": ("OpenSim's EllipsoidJoint and ScapulothoracicJoint",
                  "{what} is not written for them; {instead}"),
    "constant_curvature": ("OpenSim's ConstantCurvatureJoints",
                           "{what} is not written for them; {instead}"),
}


# OpenSim holds each angle of a ConstantCurvatureJoint (its coordinate plus its neutral angle)
# within +-ARC_BOUND (opensim-core ConstantCurvatureJoint.cpp, clamp), as the core does
ARC_BOUND = math.pi / 2 - 0.01

# OpenSim places a ConstantCurvatureJoint's child by its arc only where the sine of its bend
# lies between these, by a straight segment along its end direction outside them (opensim-core
# ConstantCurvatureJoint.cpp), as the core does
ARC_STRAIGHT = (0.001, 0.999)


def _arc_bend_sine(angles):
    """The sine of a ConstantCurvatureJoint's bend at its angles (..., 3) (coordinates plus
    neutral angles, x z y, held within ARC_BOUND): |(u_x, u_z)| of u = Rx(a0) Rz(a1) y."""
    a0, a1 = np.clip(angles[..., 0], -ARC_BOUND, ARC_BOUND), np.clip(angles[..., 1], -ARC_BOUND,
                                                                     ARC_BOUND)
    return np.hypot(np.sin(a1), np.sin(a0) * np.cos(a1))


def _arc_switch_jump(sine, length):
    """How far OpenSim's child jumps where the sine of the bend crosses `sine`: the arc's end
    ((1 - cos t) L / t, sin t L / t) against the straight segment's (L sin t, L cos t), t the
    bend."""
    t = math.asin(sine)
    return abs(length) * math.hypot((1 - math.cos(t)) / t - sine, sine / t - math.cos(t))


def arc_switches(model, q) -> list[tuple]:
    """Where consecutive samples of q (N, nq), a motion, take a ConstantCurvatureJoint across
    one of OpenSim's switches between its arc and a straight segment (the sine of its bend
    at ARC_STRAIGHT), where its child jumps: per joint that crosses one, (joint name, index
    of its first coordinate in q, first sample before a crossing, crossings, the sine
    crossed there, the jump there in m). A sample missing an angle (NaN) has no branch: the
    pairs beside it cross nothing."""
    q = np.atleast_2d(np.asarray(q, dtype=np.float64))
    out = []
    for name, k, neutral, length in model._arcs:
        sines = _arc_bend_sine(q[:, k:k + 3] + neutral)
        branch = (sines >= ARC_STRAIGHT[0]).astype(int) + (sines > ARC_STRAIGHT[1])
        known = np.isfinite(sines)
        crossed = np.flatnonzero((branch[1:] != branch[:-1])     # 0, 1, 2: straight, arc,
                                 & known[1:] & known[:-1])       # straight
        if len(crossed):
            row = int(crossed[0])
            sine = ARC_STRAIGHT[min(branch[row], branch[row + 1])]
            out.append((name, k, row, len(crossed), sine, _arc_switch_jump(sine, length)))
    return out



def refuse_joint_type(model, jtype: str, what: str, instead: str = "") -> None:
    """Refuse `what` on a model with a joint of type jtype: the call, the first such joint,
    why, and what to do (`instead`: the refuser's own advice)."""
    for j in model.joints:
        if j.type == jtype:
            kind, why = _UNSUPPORTED[jtype]
            raise ValueError(f"{what}: {kind} are not supported (joint {j.name!r}): "
                             + why.format(what=what, instead=instead))


def load(urdf: str | bytes | os.PathLike[str], floating_base: bool = False,
         strict: bool = False, couplers: str = "keep") -> Model:
    """Load a URDF robot, an OpenSim model or a MuJoCo MJCF model: ``urdf`` is a path or the
    XML text itself.

    An OpenSim model (root element ``<OpenSimDocument>``, any file name) is read by the same
    core: q_names are its coordinate names, gravity its own, ``model.markers`` and
    ``model.coordinates`` what the file defines (see the OpenSim models page of the docs).

    An MJCF model (root element ``<mujoco>``) is read with MuJoCo's compiler semantics (its
    ``<include>`` files and meshes found relative to the file, or to the current folder for
    text): q in MuJoCo's qpos order, joints and bodies under their MJCF names, gravity from
    its ``<option>``, ``model.default_q`` MuJoCo's qpos0 (see the MJCF page of the docs;
    ``urdf2dyn.interop`` converts MuJoCo's qpos, qvel and forces).

    floating_base=True adds a floating joint named 'root_joint' above the URDF's root link
    (q = [x y z qx qy qz qw], v = [vx vy vz wx wy wz] in the root body's frame).
    Raises URDFError (a ValueError) naming the element, attribute and reason.

    What loads but is probably not what the author meant (a non-physical inertia, a mimic
    of a missing joint, a revolute or prismatic joint without <limit>, an unknown element or
    attribute, markup that is not well-formed XML but has one meaning, xacro markup left
    unexpanded) is read as written,
    as Pinocchio reads it, with a :class:`urdf2dyn.URDFWarning` naming the file, line,
    link or joint, element and attribute; ``strict=True`` raises URDFError instead.

    couplers="eliminate" makes inverse dynamics eliminate an OpenSim model's
    CoordinateCouplerConstraints (each dependent coordinate computed from its independent
    one, its force moved onto it: ``Model.apply_couplers``, ``Model.project_couplers``);
    the default, "keep", is OpenSim's inverse-dynamics tool: every coordinate a mobility.
    """
    if couplers not in ("keep", "eliminate"):
        raise ValueError(f"load: couplers must be 'keep' or 'eliminate', got {couplers!r}")
    source = None
    if isinstance(urdf, bytes):
        text = _decode(urdf, "the URDF bytes", strict)
    elif isinstance(urdf, str) and urdf.lstrip("\ufeff \t\r\n").startswith("<"):
        text = urdf
    elif isinstance(urdf, (str, os.PathLike)):
        if not os.path.exists(urdf):
            raise FileNotFoundError(f"load: no such file {os.fspath(urdf)!r} (load takes a URDF "
                                    "path or the XML text itself)")
        if os.path.isdir(urdf):
            raise IsADirectoryError(f"load: {os.fspath(urdf)!r} is a directory, not a model file "
                                    "(load takes a URDF path or the XML text itself): give the "
                                    ".urdf, .osim or MJCF .xml file in it")
        note_input(urdf, "model")
        text = _decode(read_input(urdf, "model"), os.fspath(urdf), strict)
        source = os.fspath(urdf)
    else:
        raise TypeError(f"load: expected a path or URDF text, got {type(urdf).__name__}")
    return Model(text, floating_base, strict=strict, source=source, couplers=couplers)



class FindingRefused(_core.URDFError):
    """A model finding refused under strict (its message says why and what to do): a
    URDFError, told apart by a job that would otherwise add advice of its own."""


#: What a strict load adds to a finding it refuses: why it is an error and what to do, in
#: the library's words (a command says its --strict: urdf2dyn.cli.options.in_strict_words).
STRICT_REFUSAL = ("refused because strict=True makes the model's findings errors: act on it "
                  "as said, or pass strict=False to use the model as written, with this as a "
                  "warning")
_USED_AS_WRITTEN = re.compile(r"[;,]? *used as written(?=[.;]|$)")


def finding_refused(message: str) -> FindingRefused:
    """The error of a model finding under strict: the warning's words but for its "used as
    written" (not so: it is refused), then why and what to do (STRICT_REFUSAL)."""
    said = _USED_AS_WRITTEN.sub("", message).rstrip(" .;")
    return FindingRefused(f"{said}; {STRICT_REFUSAL}")


def model_finding(message: str, strict: bool) -> None:
    """Say one finding of the model loader: a URDFWarning, or under strict the refusal
    finding_refused(message), raised. Every load (urdf2dyn.load, a setup's model, the
    commands' --model) says its findings through this one rule."""
    if strict:
        raise finding_refused(message)
    report(message, category=URDFWarning, stacklevel=None)    # at the first caller outside


def load_leaving_unsaid(path: str | os.PathLike[str], unsaid, strict: bool = False,
                        say=None, **options) -> Model:
    """urdf2dyn.load(path, **options), for a job that says itself what some of the loader's
    warnings say: those for which unsaid(message) is true are left out. Under strict the
    first model finding left (a URDFWarning) is refused (model_finding), as load(path,
    strict=True) refuses it; the others are said by say(message, category) (a job that keeps
    its messages; category is the loader's, URDFWarning for a model finding, so a user's
    filter on it works as for load) or else warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = load(path, **options)
    for w in caught:
        message = str(w.message)
        if unsaid(message):
            continue
        if strict and issubclass(w.category, URDFWarning):
            raise finding_refused(message)
        if say is not None:
            say(message, w.category)
        else:
            report(message, category=w.category, stacklevel=None)
    return model

# UTF-16 and UTF-32 text: by its byte-order mark, or by the NULs around a leading '<'
_WIDE = [(b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
         (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
         (b"<\x00\x00\x00", "utf-32-le"), (b"\x00\x00\x00<", "utf-32-be"),
         (b"<\x00", "utf-16-le"), (b"\x00<", "utf-16-be")]


_EXPECTS = "a model is a URDF, OpenSim .osim or MuJoCo MJCF file: XML text"


def _binary_kind(data):
    """What a binary file is, by its first bytes (None for anything else): the files a model
    argument is most often mistaken for."""
    if data.startswith(b"\x1f\x8b"):
        return ("a gzip-compressed file", "decompress it first (gunzip FILE, or 7-Zip on "
                "Windows) and give the file it holds")
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return ("a zip archive", "extract it first and give the model file it holds")
    if data.startswith(b"\x89HDF\r\n\x1a\n"):
        return ("an HDF5 file", "give the model file itself")
    if data.startswith(b"MATLAB ") and b"MAT-file" in data[:128]:
        return ("a MATLAB .mat file", "give the model file itself (a .mat file is data: a "
                "HuMoD motion, given as the motion)")
    # C3D (www.c3d.org): the header's byte 2 is the key 0x50, byte 1 the parameter section's
    # first block (2 when the 512-byte header is block 1); the header holds NUL bytes
    if len(data) >= 512 and data[1] == 0x50 and 0 < data[0] < 0x20 and b"\0" in data[:512]:
        return ("a C3D motion-capture recording", "it is a recording: give it as the motion, "
                "after the model")
    return None


def _text_with_stray_bytes(data, where, strict):
    """Text that is UTF-8 but for stray bytes in its character data or comments (outside
    every tag: an en dash typed in a Windows editor, 0x96, in an .osim's credits), those
    bytes read as Windows-1252 and warned about; None when a stray byte is inside a tag (a
    name or a number, which urdf2dyn will not guess). OpenSim's and URDF parsers pass such
    bytes through."""
    text = data.decode("utf-8", errors="surrogateescape")     # a stray byte b: U+DC00 + b
    if (not text.lstrip("\ufeff \t\r\n").startswith("<")
            or re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", text)):
        return None                                             # not XML text at all
    stray = [k for k, c in enumerate(text) if "\udc80" <= c <= "\udcff"]
    plain = re.sub(r"<!--.*?-->", lambda m: " " * len(m.group()), text, flags=re.S)
    for tag in re.finditer(r"<[^>]*>", plain):
        if any(tag.start() <= k < tag.end() for k in stray):
            return None
    k = stray[0]
    line, column = text.count("\n", 0, k) + 1, k - text.rfind("\n", 0, k)
    byte = bytes([ord(text[k]) - 0xDC00])
    model_finding(f"{where}: line {line}, column {column}: byte 0x{byte.hex()} is not UTF-8 "
                  f"({len(stray)} such byte{'s' if len(stray) > 1 else ''}, outside the tags: "
                  "text or comments); read as Windows-1252, as a Windows editor writes it "
                  f"(this one: {byte.decode('cp1252', errors='replace')!r}). Save the file as "
                  "UTF-8 to silence this", strict)
    return "".join(bytes([ord(c) - 0xDC00]).decode("cp1252", errors="replace")
                   if "\udc80" <= c <= "\udcff" else c for c in text).lstrip("\ufeff")


def _decode(data, where, strict=False):
    kind = _binary_kind(data)
    if kind:
        raise _core.URDFError(f"{where}: {kind[0]}, not a model ({_EXPECTS}): {kind[1]}")
    if not data.strip(b" \t\r\n\f\v"):
        what = "0 bytes" if not data else f"{len(data)} bytes, only whitespace"
        raise _core.URDFError(f"{where}: empty file ({what}), not a model ({_EXPECTS}): "
                              "check the file name, and that the file was saved or written "
                              "completely")
    wide = next((enc for mark, enc in _WIDE if data.startswith(mark)), None)
    if wide:
        # OpenSim's reader takes no UTF-16 model either: say what the file is, whatever its
        # declaration says, and how to save it
        family = wide[:6].upper()                                   # UTF-16 / UTF-32
        head = data[:400].decode(wide, errors="replace").lstrip("\ufeff")
        declared = re.match(r"\s*<\?xml[^>]*encoding=[\"']([\w.-]+)", head)
        said = ""
        if declared:
            agrees = declared.group(1).upper().replace("_", "-").startswith(family)
            said = (f" (as its encoding=\"{declared.group(1)}\" says)" if agrees else
                    f" (although its encoding=\"{declared.group(1)}\" says otherwise)")
        raise _core.URDFError(f"{where}: the file is {family} text{said}; urdf2dyn reads models "
                              f"as UTF-8, and OpenSim reads no {family} model either: save it "
                              "as UTF-8 (e.g. in Notepad: Save As, Encoding: UTF-8)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        # a URDF saved by a Windows editor in the ANSI code page, and declared so
        declared = re.match(rb"\s*<\?xml[^>]*encoding=[\"']([\w.-]+)", data)
        if declared and declared.group(1).lower() in (b"windows-1252", b"cp1252", b"iso-8859-1",
                                                      b"latin-1", b"latin1"):
            return data.decode("cp1252" if b"1252" in declared.group(1) else "latin-1")
        text = _text_with_stray_bytes(data, where, strict)
        if text is None:
            raise _core.URDFError(f"{where}: not valid UTF-8 text (byte {e.start}); save it as "
                                  "UTF-8 or declare its encoding (<?xml ... encoding=\"windows-"
                                  "1252\"?>)") from None
        return text


#: Characters OpenSim 4.6 refuses in a component's name (Component::finalizeFromProperties
#: checks it with ComponentPath's invalid characters): it refuses to load a model holding one.
OPENSIM_NAME_FORBIDDEN = "\\/*+ \t\n"
#: The first .osim document version whose names OpenSim 4.6 reads as written: from an older
#: file (OpenSim 3's) it removes white space from each name instead of refusing the model.
OPENSIM_VERSION_NAMES_KEEP_BLANKS = 30500


def _some_names(named):
    """'marker 'a b', joint 'c+d' and 2 more' for {name: kind}: the first three named."""
    shown = ", ".join(f"{kind} {name!r}" for name, kind in list(named.items())[:3])
    return shown + (f" and {len(named) - 3} more" if len(named) > 3 else "")


#: The suffixes of the mesh files an MJCF's <mesh file=...> names (MuJoCo reads these).
_MESH_SUFFIXES = (".stl", ".obj", ".msh")


def _model_file_kind(path: str) -> str:
    """How a file an MJCF model reads besides its own text is named in messages: a mesh by
    its suffix, else one of its <include> files (the only other files the core reads)."""
    mesh = os.path.splitext(path)[1].lower() in _MESH_SUFFIXES
    return "model's mesh" if mesh else "model's <include>"


class Model:
    """A robot, compiled: an immutable tree of bodies plus its names and conventions.

    ``Model(xml_text)`` takes the XML text itself; :func:`urdf2dyn.load` reads a file (a
    path given here is refused with a pointer to it).

    Every dynamics function takes one sample ((nq,) / (nv,)) or N samples ((N, nq) /
    (N, nv)) and returns the matching shape as new float64 arrays.
    """

    def __init__(self, xml_text: str, floating_base: bool = False, strict: bool = False,
                 source: str | None = None, files: dict[str, bytes] | None = None,
                 couplers: str = "keep") -> None:
        _refuse_a_path(xml_text)
        self._xml = xml_text
        self._source = source
        #: the files an MJCF model read besides its own text (includes, meshes), by path
        self._files: dict[str, bytes] = {}
        try:
            self._c = _core.load(xml_text, bool(floating_base), source,
                                 self._file_reader(files))
        except _core.URDFError as e:
            if source is None:
                raise
            at = re.match(r"line (\d+): ", str(e))     # the core's "line N: " -> "file:N: "
            said = _about_the_file(str(e)[at.end() if at else 0:], source)
            about_the_file = _core.URDFError(_where(source, int(at.group(1)) if at else 0)
                                             + said)
            about_the_file.core_message = str(e)   # for check(), which names lines itself
            raise about_the_file from None
        except UnicodeEncodeError as e:
            raise _core.URDFError(f"the URDF text is not valid Unicode ({e.reason} at "
                                  f"position {e.start})") from None
        if self._files and files is None:
            # the files the core read (noted by the reader) are known only now: an output
            # the work declared over one is refused before any work that follows the load
            refuse_declared_outputs()
        #: What was read as written but looks wrong: (line, message), line 0 if unknown.
        self.findings: tuple[tuple[int, str], ...] = tuple(self._c.findings())
        for line, message in self.findings:
            model_finding(_where(source, line) + message, strict)
        # what the file defines is held in tuples (and read-only arrays and mappings): a
        # model is immutable and shared, so no caller can change one in place
        self.joints: tuple[Joint, ...] = tuple(Joint(*row) for row in self._c.joints())
        links = self._c.links()
        self.link_names: tuple[str, ...] = tuple(name for name, _ in links)
        self._link_body = dict(links)
        self._link_index = {name: k for k, name in enumerate(self.link_names)}
        self.q_names: tuple[str, ...] = tuple(n for j in self.joints
                                              for n in _names(j, _Q_SUFFIXES))
        self.v_names: tuple[str, ...] = tuple(n for j in self.joints
                                              for n in _names(j, _V_SUFFIXES))
        self._signatures: dict[int, tuple] = {}     # algo -> the core's signature()
        self._osim_names()
        for message in self._names_opensim_refuses():
            self.findings += ((0, message),)
            model_finding(_where(source, 0) + message, strict)
        self._arcs = self._arc_angles()
        passive = applied_by_opensim(self.forces)
        if passive:
            message = passive_forces_message(passive)
            self.findings += ((0, message),)
            model_finding(_where(source, 0) + message, strict)
        mjcf = self._c.mjcf()
        if mjcf is not None:
            self.default_q = mjcf["qpos0"]
        self.eliminate_couplers = couplers == "eliminate"
        if self._coupler_problem:
            if self.eliminate_couplers:
                raise _core.URDFError(self._coupler_problem)
            model_finding(self._coupler_problem + "; inverse dynamics keeps every coordinate "
                          "a mobility (couplers='keep', as OpenSim's tool), but "
                          f"couplers='eliminate', apply_couplers, project_couplers and "
                          f"{COUPLERS_REFUSED}", strict)

    def _arc_angles(self) -> tuple:
        """The ConstantCurvatureJoints' (name, index of their first coordinate in q, neutral
        angles, length), whose held angles _compute warns about (and whose switches between
        arc and straight segment a trial's checks find, arc_switches); () for a model without
        one."""
        arcs = [j for j in self.joints if j.type == "constant_curvature"]
        if not arcs:
            return ()
        # the core's rows (joint, index, child, length, neutral angles), read here below the
        # motion-analysis layer that wraps them (urdf2dyn.biomech.formats.osim.CurvatureArc)
        rows = {row[0]: row for row in self._c.osim_doc()["curvatures"]}
        return tuple((j.name, j.q_index, np.array(rows[j.name][4]), rows[j.name][3])
                     for j in arcs)

    def _warn_held_arcs(self, q):
        """Warn where q takes a ConstantCurvatureJoint's angle past its bound: OpenSim holds
        it there, and so does the core, so its coordinate moves nothing and every result
        there is that of the bound (a motion in degrees, or a model used beyond its range).
        Returns the q to hand on: an array of real numbers as the float64 C-contiguous copy
        checked here, which the core takes as it is instead of converting it a second time
        (it force-casts exactly those); anything else as given, for the core to judge."""
        given = q
        if isinstance(q, np.ndarray) and q.dtype.kind == "c":
            return given                        # no real angles to check: the core refuses it
        try:
            if isinstance(q, np.ndarray) and q.dtype.kind in "fiu":
                q = given = np.asarray(q, dtype=np.float64, order="C")
            else:
                q = np.asarray(q, dtype=np.float64)
        except (TypeError, ValueError):
            return given                        # the core refuses it, in its own words
        if q.ndim == 0 or q.shape[-1] != self.nq:
            return given
        samples = q.reshape(-1, self.nq)
        for name, k, neutral, _ in self._arcs:
            angles = samples[:, k:k + 3] + neutral
            held = np.abs(angles) > ARC_BOUND
            if not held.any():
                continue
            row, axis = np.argwhere(held)[0]
            coordinate = self.q_names[k + axis]
            where = (f"in {int(held.any(axis=1).sum())} of {len(samples)} samples of q, the "
                     f"first sample {row}" if len(samples) > 1 else "in q")
            report(f"ConstantCurvatureJoint '{name}': {coordinate} plus its neutral angle "
                   f"{neutral[axis]:g} is {angles[row, axis]:g} rad {where}, past "
                   f"+-(pi/2 - 0.01): OpenSim holds the angle at that bound, and so does "
                   f"urdf2dyn, so {coordinate} moves nothing there (its generalized force is "
                   f"0, its mass-matrix column zero); keep the coordinates within the bound "
                   f"(in radians)", stacklevel=None)
        return given

    def turning_axis_joints(self) -> list[str]:
        """The names of an .osim's joints of one coordinate whose rotation axis turns in
        their body as the coordinate moves (a CustomJoint driving several rotation axes with
        one coordinate, as Rajagopal's and OpenCap's walker knees), where OpenSim's velocity
        terms differ from the mechanics (docs/osim_models.rst, *Rajagopal's knee*): `info`
        lists them, `torques --processing opensim` warns where they move. Seen in the Jacobian:
        the joint's angular column, in its body's frame, at the ends and the middle of the
        coordinate's range (-1, 0, 1 without a finite one), the other coordinates at their
        defaults."""
        names = []
        at = {n: i for i, n in enumerate(self.q_names)}
        q0 = self.neutral()                 # a valid pose under a floating root too
        for n, c in self.coordinates.items():
            q0[at[n]] = c.default
        for j in self.joints:
            if j.type != "custom" or j.nv != 1:
                continue
            coordinate = self.coordinates.get(self.q_names[j.q_index])
            lo, hi = ((coordinate.lower, coordinate.upper) if coordinate is not None
                      else (-1.0, 1.0))
            if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
                lo, hi = -1.0, 1.0
            q = np.tile(q0, (3, 1))
            q[:, j.q_index] = (lo, 0.5 * (lo + hi), hi)
            w = self.frame_jacobian(q, j.child, reference="local")[:, 3:, j.v_index]
            size = np.linalg.norm(w, axis=1)
            turned = np.linalg.norm(np.cross(w[0], w[1:]), axis=1) > 1e-9 * size[0] * size[1:]
            if np.all(size > 0) and np.any(turned):
                names.append(j.name)
        return names

    def _file_reader(self, files):
        """The reader of an MJCF's other files: from files (a pickled model's) or the disk,
        each kept in self._files so that the model pickles whole. A file read from the disk
        is an input of the work in progress (urdf2dyn._safe_files.note_input): no output of
        a guarded job may replace an <include> or a mesh of its model."""
        def read(path):
            if files is not None and path in files:
                data = files[path]
            else:
                if os.path.getsize(path) > _MAX_FILE:
                    raise ValueError(f"{path!r} is larger than {_MAX_FILE >> 20} MB")
                note_input(path, _model_file_kind(path))
                data = read_input(path, _model_file_kind(path), _MAX_FILE)
            self._files[path] = data
            return data
        return read

    def _names_opensim_refuses(self):
        """The findings for an .osim naming a component with a character OpenSim 4.6 allows in
        no name (a joint named with &#10; in its XML): urdf2dyn reads any text as a name, but
        OpenSim refuses to load the model, so its tools never run on it; or, in a file older
        than version 30500, removes the white space from the name (it does so for the files
        of OpenSim 3, whose names could hold blanks), a name the file's other users do not
        know."""
        if not self._opensim:
            return []
        doc = self._c.osim_doc()
        named = {}
        for kind, names in (("joint", [j.name for j in self.joints]),
                            ("body or frame", self.link_names),
                            ("coordinate", self.coordinates),
                            ("marker", [m.name for m in self.markers]),
                            ("force", [f.name for f in self.forces]),
                            ("frame", [f[0] for f in doc["frames"]]),
                            ("wrap object", [w[0] for w in doc["wraps"]]),
                            *((kind, [name]) for kind, name in doc["named"])):
            for name in names:
                if any(c in OPENSIM_NAME_FORBIDDEN for c in name):
                    named.setdefault(name, kind)
        if not named:
            return []
        renamed = {}
        if doc["version"] < OPENSIM_VERSION_NAMES_KEEP_BLANKS:
            renamed = {n: k for n, k in named.items() if not any(c in "\\/*+" for c in n)}
            named = {n: k for n, k in named.items() if n not in renamed}
        findings = []
        if named:
            findings.append(f"OpenSim 4.6 refuses to load this model: {_some_names(named)} "
                            f"{'holds' if len(named) == 1 else 'hold'} a character OpenSim "
                            "allows in no name (\\ / * + or white space); urdf2dyn read the "
                            "names as written. Rename them (e.g. with '_' for those "
                            "characters) for OpenSim to open the model")
        if renamed:
            findings.append(
                f"OpenSim 4.6 reads {_some_names(renamed)} without "
                f"{'its' if len(renamed) == 1 else 'their'} white space (e.g. "
                f"{''.join(next(iter(renamed)).split())!r}): it removes white space from the "
                f"names of a file older than version {OPENSIM_VERSION_NAMES_KEEP_BLANKS} "
                "(this one is older); urdf2dyn read the names as written. Rename them in the "
                "file for both to use the same names")
        return findings

    def _osim_names(self):
        """An OpenSim model's names: q_names/v_names are its coordinate names; markers and
        coordinates as the file gives them (empty for a URDF)."""
        info = self._c.osim()
        self.markers = ()       # markers and the settings below: properties of Model
        #: OpenSim coordinates in q order: {name: Coordinate} (read-only); empty for a URDF.
        self.coordinates: Mapping[str, Coordinate] = MappingProxyType({})
        # what inverse kinematics respects (urdf2dyn.biomech.ik.run_setup): set from an
        # .osim's coordinates below; a URDF's clamped ranges are its joint limits
        self.default_q = None
        self.locked_coordinates = {}
        self.clamped_ranges = {}
        #: An .osim's enforced CoordinateCouplerConstraints (tuple of Coupler), in the order
        #: they apply (one whose independent coordinate another one drives comes after it):
        #: inverse dynamics keeps each dependent coordinate a mobility of its own unless
        #: loaded with couplers="eliminate"; inverse kinematics keeps them (biomech.ik).
        #: Empty for a URDF.
        self.couplers: tuple[Coupler, ...] = ()
        self._coupler_fn = []
        self._coupler_problem = None    # why the couplers cannot be applied, or None
        #: An .osim's ForceSet (tuple of Force, file order); empty for a URDF.
        self.forces: tuple[Force, ...] = ()
        #: An .osim's coordinate names in OpenSim's multibody tree order (the column order
        #: of its inverse-dynamics tool, getCoordinateNamesInMultibodyTreeOrder); empty for
        #: a URDF.
        self.multibody_order: tuple[str, ...] = ()
        #: An .osim's coordinate names in its CoordinateSet order (joint by joint as the file
        #: lists them: the column order of OpenSim's IK and RRA kinematics); empty for a URDF.
        self.coordinate_set_order: tuple[str, ...] = ()
        self._opensim = info is not None
        if info is None:
            self.clamped_ranges = _joint_limit_ranges(self)
            return
        # joint by joint: the coordinates name q and v alike where a joint has as many
        # speeds as positions; a floating root added by floating_base (7 q, 6 v) keeps its
        # default names, and the names after it stay with their own coordinates
        q_names: list[str] = []
        v_names: list[str] = []
        for j in self.joints:
            given = info["q_names"][j.q_index:j.q_index + j.nq]
            # a joint whose every coordinate is OpenSim's keeps their names
            own = j.nq == 1 or j.type in ("custom", "ellipsoid", "constant_curvature")
            qn = [j.name] * j.nq if own else _names(j, _Q_SUFFIXES)
            vn = [j.name] * j.nv if own else _names(j, _V_SUFFIXES)
            q_names += [n if n is not None else d for n, d in zip(given, qn)]
            v_names += ([n if n is not None else d for n, d in zip(given, vn)]
                        if j.nq == j.nv else vn)
        self.q_names, self.v_names = tuple(q_names), tuple(v_names)
        self.markers = [Marker(name, link, tuple(xyz)) for name, link, xyz in info["markers"]]
        self.coordinates = MappingProxyType({
            row[0]: Coordinate(*row[:6], *map(bool, row[6:9]), tuple(map(bool, row[9:])))
            for row in info["coordinates"]})
        # what OpenSim's IK tool takes from the coordinates (urdf2dyn.biomech.ik.run_setup):
        # the default pose it starts from, locked coordinates held at their default value,
        # clamped ones kept in their range
        c = self.coordinates
        self.default_q = np.array([c[n].default if n in c else 0.0 for n in self.q_names])
        self.locked_coordinates = {n: x.default for n, x in c.items() if x.locked}
        self.clamped_ranges = {n: (x.lower, x.upper) for n, x in c.items() if x.clamped}
        couplers = [Coupler(dep, ind, scale, name, line)
                    for dep, ind, _, scale, name, line in info["couplers"]]
        order = _coupler_order(couplers, self._source)
        if isinstance(order, str):
            self.couplers, self._coupler_problem = tuple(couplers), order
            self._coupler_fn = [row[2] for row in info["couplers"]]
        else:           # in the order they apply: each one's independent coordinate is final
            self.couplers = tuple(couplers[k] for k in order)
            self._coupler_fn = [info["couplers"][k][2] for k in order]
        self.forces = tuple(Force(name, kind, component)
                            for name, kind, component in info["forces"])
        self.multibody_order = tuple(info["tree_order"])
        self.coordinate_set_order = tuple(info["file_order"])

    # ---- settings given after loading: set by assignment, held frozen -------------
    @property
    def markers(self) -> tuple[Marker, ...]:
        """Model markers (urdf2dyn.markers.Marker: name, link, position in the link frame, m),
        what inverse_kinematics fits: an .osim model's MarkerSet; none for a URDF until
        given (``model.markers = urdf2dyn.markers.read_markers(...)``)."""
        return self._markers

    @markers.setter
    def markers(self, markers) -> None:
        self._markers = tuple(markers)

    @property
    def default_q(self) -> NDArray[np.float64] | None:
        """The pose inverse kinematics starts from ((nq,), read-only; None: q = 0, unit
        quaternions): an .osim's default coordinate values, an MJCF's qpos0."""
        return self._default_q

    @default_q.setter
    def default_q(self, q: ArrayLike | None) -> None:
        if q is not None:
            q = np.array(q, dtype=float)
            q.flags.writeable = False
        self._default_q = q

    @property
    def locked_coordinates(self) -> Mapping[str, float]:
        """{coordinate: value} inverse kinematics holds locked (read-only; assign a dict)."""
        return self._locked_coordinates

    @locked_coordinates.setter
    def locked_coordinates(self, locked: Mapping[str, float]) -> None:
        self._locked_coordinates = MappingProxyType(dict(locked))

    @property
    def clamped_ranges(self) -> Mapping[str, tuple[float, float]]:
        """{coordinate: (lower, upper)} inverse kinematics keeps in range (read-only; assign a
        dict): an .osim's clamped coordinates, a URDF's (MJCF's) revolute and prismatic joint
        limits."""
        return self._clamped_ranges

    @clamped_ranges.setter
    def clamped_ranges(self, ranges: Mapping[str, tuple[float, float]]) -> None:
        self._clamped_ranges = MappingProxyType(dict(ranges))

    # ---- description -------------------------------------------------------------
    @property
    def name(self) -> str:
        """Robot name (the ``<robot name>`` attribute)."""
        return self._c.name

    @property
    def is_opensim(self) -> bool:
        """True for a model read from an OpenSim file (.osim), False for a URDF."""
        return self._opensim

    @property
    def nq(self) -> int:
        """Number of configuration coordinates."""
        return self._c.nq

    @property
    def nv(self) -> int:
        """Number of velocity coordinates (degrees of freedom)."""
        return self._c.nv

    @property
    def floating_base(self) -> bool:
        """True when load added a floating root joint (``floating_base=True``)."""
        return self._c.floating_base

    @property
    def gravity(self) -> NDArray[np.float64]:
        """Gravity (3,) in the URDF world frame, m/s²; default (0, 0, -9.81). Read-only: set
        it whole (``model.gravity = (0, -9.81, 0)``)."""
        g = self._c.gravity
        g.flags.writeable = False       # a copy: writing into it would change nothing
        return g

    @gravity.setter
    def gravity(self, g: ArrayLike) -> None:
        self._c.gravity = _as_samples(g, "gravity", 3, False, batch=False)

    def joint(self, name: str) -> Joint:
        """The movable joint called name."""
        if not isinstance(name, str):
            raise TypeError("joint: name must be a joint name (a str, one of the names in "
                            f"model.joints), got {type(name).__name__} {reprlib.repr(name)}")
        for j in self.joints:
            if j.name == name:
                return j
        raise KeyError(unknown_name("movable joint", name, [j.name for j in self.joints]))

    def __repr__(self) -> str:
        return (f"<urdf2dyn.Model {self.name!r}: {len(self.joints)} joints, nq={self.nq}, "
                f"nv={self.nv}, {len(self.link_names)} links, {self._base()}>")

    def _base(self) -> str:
        """How the first body with mass is held to the world, in words: the degrees of
        freedom of the joints between them, whatever the format spells them as (a free
        joint of MJCF, OpenSim's 6-DoF pelvis, HuMoD's six 1-DoF joints through massless
        links, floating_base=True)."""
        s = self.structure()
        children: list[list[int]] = [[] for _ in s.parent]
        for b in range(1, s.nbody):
            children[s.parent[b]].append(b)
        dof, translates, b = 0, False, (children[0] or [0])[0]
        while b:
            dof += int(s.nv[b])
            translates |= s.jtype[b] in ("prismatic", "planar", "floating", "custom",
                                          "ellipsoid", "constant_curvature")
            if s.mass[b] > 0 or dof >= 6 or len(children[b]) != 1:
                break
            b = children[b][0]
        if dof == 6:
            return "floating base"
        return f"{dof}-DoF base" if translates and dof > 1 else "fixed base"

    def __reduce__(self):
        # what is set on a model after loading travels with it (markers, what an .osim says
        # about its coordinates: default_q, locked_coordinates, clamped_ranges, and whether
        # inverse dynamics eliminates its couplers), as plain values __setstate__ sets
        extra = {"markers": self.markers, "default_q": self.default_q,
                 "locked_coordinates": dict(self.locked_coordinates),
                 "clamped_ranges": dict(self.clamped_ranges),
                 "eliminate_couplers": self.eliminate_couplers}
        return (_rebuild, (self._xml, self.floating_base, tuple(self.gravity), self._source,
                           self._files), extra)

    def __setstate__(self, state):
        for key, value in state.items():        # through the setters, which freeze them
            setattr(self, key, value)

    def structure(self):
        """The compiled tree the algorithms run on, as a :class:`Structure` of NumPy arrays:
        parents, joint types and axes, fixed placements, merged inertias and the link side
        table. Code generators read the model through this; changing the arrays changes
        nothing in the model."""
        s = self._c.structure()
        for key, value in s.items():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
        return Structure(
            parent=s["parent"], joint=tuple(s["joint"]),
            jtype=tuple(_JTYPES[t] for t in s["jtype"]), q_index=s["qadr"],
            v_index=s["vadr"], nq=s["jnq"], nv=s["jnv"], axis=s["axis"], plane=s["plane"],
            Xtree_E=s["Xtree_E"], Xtree_r=s["Xtree_r"], mass=s["mass"], h=s["h"], Ib=s["Ib"],
            armature=s["armature"], link_names=tuple(self.link_names),
            link_body=s["link_body"], link_E=s["link_E"],
            link_r=s["link_r"])

    # ---- dynamics ----------------------------------------------------------------
    def _compute(self, algo, inputs, f_ext=None, link=-1, point=None, dt=0.0, reference=0,
                 out=None):
        """Run the core's algo over the samples of inputs broadcast against each other
        (and against f_ext and out), as NumPy's generalized ufuncs do: the shape logic of
        every batched function lives here, once (see docs/conventions.rst)."""
        names, widths, shapes = self._signature(algo)
        if self._arcs and names[0] == "q":
            inputs = (self._warn_held_arcs(inputs[0]), *inputs[1:])
        if out is None and f_ext is None and _plain(inputs, widths):
            # the common call, arrays of one sample or of the same N samples: the core checks
            # dtypes and converts by itself, and the layer below costs more than a small RNEA
            return self._c.compute(algo, tuple(inputs), None, None, get_num_threads(), link,
                                   point, dt, reference)
        arrays = [_as_samples(x, name, width, name in _VELOCITY_LIKE)
                  for x, name, width in zip(inputs, names, widths)]
        wrenches = self._wrenches(f_ext)
        batch = _batch_shape([(name, a) for name, a in zip(names, arrays)] + wrenches)
        outs = None
        if out is not None:
            outs, batch = _check_out(out, shapes, batch)
        n = math.prod(batch)
        arrays = [_flatten(a, batch, n) for a in arrays]
        if outs is not None:                    # an input that overlaps out is read from a copy
            arrays = [np.array(a, dtype=np.float64) if any(np.may_share_memory(a, o)
                                                           for o in outs) else a
                      for a in arrays]
            flat_outs = tuple(o.reshape((n,) + o.shape[len(batch):]) if batch else o
                              for o in outs)
        bodies, stacked = _stack_wrenches(wrenches, self._link_body, batch, n)
        try:
            result = self._c.compute(algo, tuple(arrays), bodies, stacked, get_num_threads(),
                                     link, point, dt, reference,
                                     None if outs is None else flat_outs)
        except ValueError as e:
            if len(batch) < 2:
                raise
            raise ValueError(_name_sample(str(e), batch)) from None
        if outs is not None:
            return outs if len(outs) > 1 else outs[0]
        if len(batch) > 1:                      # (N, ...) from the core -> (*batch, ...)
            if len(shapes) == 1:
                result = result.reshape(batch + shapes[0])
            else:
                result = tuple(r.reshape(batch + s) for r, s in zip(result, shapes))
        return result

    def _signature(self, algo):
        """(input names, input widths, output shapes per sample) of a core algorithm."""
        sig = self._signatures.get(algo)
        if sig is None:
            sig = self._signatures[algo] = self._c.signature(algo)
        return sig

    def inverse_dynamics(self, q: ArrayLike, v: ArrayLike, a: ArrayLike,
                         f_ext: FExt | None = None, out: NDArray[np.float64] | None = None
                         ) -> NDArray[np.float64]:
        """Joint forces tau = M(q) a + C(q, v) v + g(q) - sum J^T f_ext (RNEA).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations (rad, m; floating joints [x y z qx qy qz qw]).
        v : array_like, (..., nv) or scalar
            Velocities (rad/s, m/s); a scalar is that value for every coordinate.
        a : array_like, (..., nv) or scalar
            Accelerations (rad/s², m/s²); ``a=0.0`` for the forces at zero acceleration.
        f_ext : dict {link name: array_like (..., 6)}, optional
            Wrenches [fx fy fz mx my mz] applied to the links, world coordinates, moments
            about the world origin (see wrench_at_point); they broadcast like q, v and a.
        out : ndarray (..., nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        tau : ndarray, (..., nv) float64
            Joint forces (N·m, N); the leading axes are q, v, a and f_ext's broadcast
            together (none for one sample).
        """
        if self.eliminate_couplers and self.couplers:
            q, v, a = self.apply_couplers(q, v, a)
            return self._project(q, self._compute(_core.RNEA, (q, v, a), f_ext, out=out))
        return self._compute(_core.RNEA, (q, v, a), f_ext, out=out)

    rnea = inverse_dynamics

    # ---- OpenSim coordinate couplers (docs/osim_models.rst) ------------------------------
    #: Whether inverse_dynamics eliminates the couplers (``load(..., couplers="eliminate")``).
    eliminate_couplers = False

    def _v_index(self, name):
        """The q and v indices of coordinate `name` (they differ after a floating root)."""
        k = self.q_names.index(name)
        j = next(j for j in self.joints if j.q_index <= k < j.q_index + j.nq)
        return k, j.v_index + k - j.q_index

    def _check_couplers(self):
        """Raise URDFError when the couplers cannot be applied (a loop, or two couplers
        driving one coordinate), naming the constraints and the file."""
        if self._coupler_problem:
            raise _core.URDFError(self._coupler_problem)

    def _coupler_terms(self, q, reverse=False):
        """Per coupler, in the order they apply (reverse: the other way): the dependent and
        independent coordinates' (q index, v index), and the (..., 4) values of scale * f
        and its first three derivatives at the independent coordinate, read from q when
        the coupler's turn comes (so a coupler applied before it has set it)."""
        self._check_couplers()
        q = np.asarray(q, dtype=float)
        pairs = list(zip(self.couplers, self._coupler_fn))
        for c, f in reversed(pairs) if reverse else pairs:
            d, i = self._v_index(c.dependent), self._v_index(c.independent)
            x = q[..., i[0]]
            vals = self._c.function_values(f, np.ravel(x)).reshape(np.shape(x) + (4,))
            yield d, i, c.scale * vals

    def apply_couplers(self, q, v=None, a=None):
        """The motion with each coupler's dependent coordinate computed from its independent
        one: q_d = s f(q_i), v_d = s f'(q_i) v_i, a_d = s (f'(q_i) a_i + f''(q_i) v_i^2),
        in dependency order (qa = 2 qb and qb = 3 qc give qb from qc first, then qa from the
        new qb, whatever order the file lists them in).

        Parameters
        ----------
        q : array_like, (..., nq)
        v, a : array_like, (..., nv) or scalar, optional
            Broadcast against q, as for inverse_dynamics; None: not computed.

        Returns
        -------
        q, v, a : ndarray (..., nq), (..., nv), (..., nv) float64, or None
            New arrays, the leading axes the inputs' broadcast together.
        """
        if a is not None and v is None:
            raise ValueError("apply_couplers: a needs v (a_d = s (f' a_i + f'' v_i^2))")
        q = np.asarray(q, dtype=float)
        xs = [None if x is None else np.asarray(x, dtype=float) for x in (v, a)]
        lead = np.broadcast_shapes(q.shape[:-1], *(x.shape[:-1] for x in xs
                                                   if x is not None and x.ndim))
        q = np.array(np.broadcast_to(q, lead + q.shape[-1:]))
        v, a = (None if x is None else np.array(np.broadcast_to(x, lead + (self.nv,)))
                for x in xs)
        for (dq, d), (_, i), f in self._coupler_terms(q):
            q[..., dq] = f[..., 0]
            if v is not None:
                v[..., d] = f[..., 1] * v[..., i]
            if a is not None:
                a[..., d] = f[..., 1] * a[..., i] + f[..., 2] * v[..., i] ** 2
        return q, v, a

    def project_couplers(self, q, tau):
        """Generalized forces with each coupler's dependent force moved onto its independent
        coordinate, tau_i + s f'(q_i) tau_d (the independent coordinate's total, e.g. the
        knee's whole moment), and the dependent entry zero; along a chain of couplers (qa
        from qb from qc) the forces reach the last independent coordinate (tau = J^T tau,
        J the derivative of apply_couplers' q).

        Parameters
        ----------
        q : array_like, (..., nq)
            The configurations tau was computed at (the couplers applied).
        tau : array_like, (..., nv)

        Returns
        -------
        tau : ndarray, (..., nv) float64
            A new array.
        """
        return self._project(q, np.array(tau, dtype=float))

    def _project(self, q, tau):
        """project_couplers in place on the float64 array tau."""
        for (_, d), (_, i), f in self._coupler_terms(q, reverse=True):
            tau[..., i] += f[..., 1] * tau[..., d]
            tau[..., d] = 0.0
        return tau

    def mass_matrix(self, q: ArrayLike, out: NDArray[np.float64] | None = None
                    ) -> NDArray[np.float64]:
        """Joint-space inertia M(q), symmetric, both triangles filled (CRBA), with the
        armature on its diagonal (:attr:`armature`; an MJCF model's as MuJoCo's ``qM``).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        out : ndarray (..., nv, nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        M : ndarray, (..., nv, nv) float64
            kg·m², kg (one matrix per configuration).
        """
        return self._compute(_core.CRBA, (q,), out=out)

    crba = mass_matrix

    def nonlinear_effects(self, q: ArrayLike, v: ArrayLike,
                          out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """h(q, v) = C(q, v) v + g(q): the joint forces that hold the robot at zero
        acceleration.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities, broadcast against q.
        out : ndarray (..., nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        h : ndarray, (..., nv) float64
            N·m, N.
        """
        return self._compute(_core.NLE, (q, v), out=out)

    def gravity_torques(self, q: ArrayLike, out: NDArray[np.float64] | None = None
                        ) -> NDArray[np.float64]:
        """g(q): the joint forces that hold the robot still against gravity.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        out : ndarray (..., nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        g : ndarray, (..., nv) float64
            N·m, N.
        """
        return self._compute(_core.GRAVITY, (q,), out=out)

    def passive_forces(self, q: ArrayLike, v: ArrayLike,
                       out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """The joints' springs and damping, -stiffness (q - spring_reference) - damping v on
        each coordinate in their linear terms (:attr:`Joint.stiffness`,
        :attr:`Joint.damping`): MuJoCo's ``qfrc_spring + qfrc_damper`` for an MJCF model's
        joints, with MuJoCo 4's polynomial terms, springdamper, the springs of ball and
        free joints (about the rotation from their rest quaternion; docs/mjcf.rst) and the
        damping of the actuators driving them (MuJoCo 4's actuator ``damping``, times
        gear^2), the <dynamics> damping of a URDF's, zero for OpenSim models.
        Inverse dynamics leaves them out, as Pinocchio does: ``inverse_dynamics(q, v, a) -
        passive_forces(q, v)`` is what the actuators supply beside them, MuJoCo's
        ``qfrc_inverse`` when the model has no other passive or constraint force.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities, broadcast against q.
        out : ndarray (..., nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        tau : ndarray, (..., nv) float64
            N·m, N.
        """
        return self._compute(_core.PASSIVE, (q, v), out=out)

    def coriolis_matrix(self, q: ArrayLike, v: ArrayLike,
                        out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """C(q, v) with C v = h - g and dM/dt - 2C skew-symmetric (Pinocchio's factorization).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities, broadcast against q.
        out : ndarray (..., nv, nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        C : ndarray, (..., nv, nv) float64
        """
        return self._compute(_core.CORIOLIS, (q, v), out=out)

    def forward_dynamics(self, q: ArrayLike, v: ArrayLike, tau: ArrayLike,
                         f_ext: FExt | None = None, out: NDArray[np.float64] | None = None
                         ) -> NDArray[np.float64]:
        """Joint accelerations qdd = M^-1 (tau + sum J^T f_ext - h) (ABA).

        Raises ValueError naming the sample when the mass matrix is singular, and the
        joints to blame when some movable joint carries no inertia at any configuration
        (Pinocchio's ABA returns NaN and infinities there without a word); a sample
        with NaN in it gives NaN.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities.
        tau : array_like, (..., nv) or scalar
            Joint forces (N·m, N); ``tau=0`` for the free motion.
        f_ext : dict {link name: array_like (..., 6)}, optional
            World wrenches about the world origin, as for inverse_dynamics.
        out : ndarray (..., nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        qdd : ndarray, (..., nv) float64
            rad/s², m/s²; the leading axes are the inputs' broadcast together.
        """
        try:
            return self._compute(_core.ABA, (q, v, tau), f_ext, out=out)
        except ValueError as e:
            raise self._singular_named(e) from None

    aba = forward_dynamics

    # ---- derivatives, centroidal dynamics, regressor (docs/derivatives.rst) -------------
    def inverse_dynamics_derivatives(self, q, v, a, f_ext=None, out=None):
        """Partial derivatives of inverse dynamics (Carpentier & Mansard 2018).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v, a : array_like, (..., nv) or scalar
            Velocities and accelerations, broadcast against q.
        f_ext : dict {link name: array_like (..., 6)}, optional
            As for inverse_dynamics: world wrenches, fixed in the world as q changes.
        out : tuple of 3 ndarray (..., nv, nv) float64, optional
            Three separate C-contiguous arrays the results are written into (and returned).

        Returns
        -------
        dtau_dq, dtau_dv, M : ndarray, (..., nv, nv) float64
            dtau_dq[i, j] is d tau_i / d q_j, q moving in the tangent space
            (``integrate(q, dq)``, body-frame twist for floating joints, as Pinocchio);
            M = d tau / d a is the mass matrix.
        """
        return self._compute(_core.RNEA_DERIV, (q, v, a), f_ext, out=out)

    def forward_dynamics_derivatives(self, q, v, tau, f_ext=None, out=None):
        """Partial derivatives of forward dynamics qdd = ABA(q, v, tau, f_ext).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v, tau : array_like, (..., nv) or scalar
            Velocities and joint forces, broadcast against q.
        f_ext : dict {link name: array_like (..., 6)}, optional
            As for forward_dynamics.
        out : tuple of 3 ndarray (..., nv, nv) float64, optional
            Three separate C-contiguous arrays the results are written into (and returned).

        Returns
        -------
        dqdd_dq, dqdd_dv, Minv : ndarray, (..., nv, nv) float64
            dqdd_dq in the tangent space (as inverse_dynamics_derivatives); Minv = M^-1 =
            d qdd / d tau.
        """
        try:
            return self._compute(_core.ABA_DERIV, (q, v, tau), f_ext, out=out)
        except ValueError as e:
            raise self._singular_named(e) from None

    def _inertialess_joints(self) -> list[Joint]:
        """The movable joints that move no inertia (a zero diagonal of M, so M is singular at
        every configuration): nothing massive beyond them, or all of it on their axis.
        Judged at the neutral configuration and two random ones, so that a mass off the axis
        at one of them counts."""
        q = np.vstack([self.neutral(), self.random_configuration(2, seed=0)])
        diag = np.diagonal(self.mass_matrix(q), axis1=1, axis2=2).max(axis=0)
        scale = max(1e-300, float(diag.max(initial=0.0)))
        return [j for j in self.joints
                if diag[j.v_index:j.v_index + j.nv].min() <= 1e-12 * scale]

    def _singular_named(self, error: ValueError) -> ValueError:
        """The core's "singular mass matrix" error with the joints to blame named (the core
        knows a pivot vanished, not which URDF joint made it); other errors as they are."""
        if "singular mass matrix" not in str(error):
            return error
        dead = self._inertialess_joints()
        if not dead:                            # a configuration-dependent rank loss
            return self._held_arcs_named(error)
        names = ", ".join(f"'{j.name}'" for j in dead[:6])
        more = f" and {len(dead) - 6} more" if len(dead) > 6 else ""
        what = "joint {} moves" if len(dead) == 1 else "joints {} move"
        # the library's check, the model's caller's (no command reaches here), of its file
        fb = ", floating_base=True" if self.floating_base else ""
        check = f"urdf2dyn.check({self._source!r}{fb})" if self._source else \
            f"urdf2dyn.check(urdf{fb})"
        return ValueError(f"{error}; here {what.format(names + more)} no inertia at any "
                          f"configuration: give the links they move an <inertial> (mass and "
                          f"inertia), or make them fixed (`{check}` says why for each)")

    def _held_arcs_named(self, error: ValueError) -> ValueError:
        """A singular mass matrix where the model has ConstantCurvatureJoints: one of their
        angles may be past its bound, where it is held (as OpenSim holds it) and moves
        nothing; the error names them and the bound."""
        arcs = [arc[0] for arc in self._arcs]
        if not arcs:
            return error
        names = ", ".join(f"'{n}'" for n in arcs[:6]) + (" ..." if len(arcs) > 6 else "")
        return ValueError(f"{error}; or an angle of ConstantCurvatureJoint {names} (its "
                          "coordinate plus its neutral angle) is past +-(pi/2 - 0.01), where "
                          "it is held, as OpenSim holds it, and moves nothing: keep the "
                          "coordinates within that bound")

    def centroidal_momentum_matrix(self, q, out=None):
        """Centroidal momentum matrix A_G (Orin, Goswami & Lee 2013): h_G = A_G v, rows 0-2
        the linear momentum, rows 3-5 the angular momentum about the centre of mass, world
        axes (Pinocchio's ccrba layout).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        out : ndarray (..., 6, nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        A_G : ndarray, (..., 6, nv) float64
        """
        return self._compute(_core.CCRBA, (q,), out=out)

    def centroidal(self, q, v, a):
        """Centroidal state: a dict of arrays, each with the leading axes of q, v and a
        broadcast together (none for one sample).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v, a : array_like, (..., nv) or scalar
            Velocities and accelerations.

        Returns
        -------
        dict
            ``com``, ``com_velocity``, ``com_acceleration`` (..., 3): the centre of mass of
            the moving links and its derivatives; ``momentum`` (..., 6): h_G = A_G v =
            [p; L_G], linear momentum then angular momentum about the centre of mass, world
            axes; ``momentum_rate`` (..., 6): dh_G/dt = A_G a + dA_G/dt v (gravity excluded,
            so with a floating base it equals the external wrench plus the weight, at the
            CoM). All float64 views into two arrays.
        """
        com, h = self._compute(_core.CENTROIDAL, (q, v, a))
        return {"com": com[..., 0, :], "com_velocity": com[..., 1, :],
                "com_acceleration": com[..., 2, :], "momentum": h[..., 0, :],
                "momentum_rate": h[..., 1, :]}

    def regressor(self, q, v, a, out=None):
        """Inertial-parameter regressor Y with ``Y @ model.inertial_parameters() +
        model.armature * a == inverse_dynamics(q, v, a)`` (Atkeson, An & Hollerbach 1986;
        the armature, a rotor's inertia and not a body's, is zero but in MJCF models, and
        left out as Pinocchio's computeJointTorqueRegressor leaves it).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v, a : array_like, (..., nv) or scalar
            Velocities and accelerations, broadcast against q.
        out : ndarray (..., nv, 10 B) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        Y : ndarray, (..., nv, 10 B) float64
            Columns: 10 per body of ``model.bodies`` (B of them), in that order.
        """
        return self._compute(_core.REGRESSOR, (q, v, a), out=out)

    def inertial_parameters(self):
        """The inertial parameters pi (10 B,): for each body of ``model.bodies`` (the compiled
        bodies, fixed links merged into them), [m, m cx, m cy, m cz, Ixx, Ixy, Iyy, Ixz, Iyz,
        Izz], c the centre of mass and I the inertia about the body origin, in the body
        frame (the frame of the link named in ``model.bodies``; Pinocchio's order)."""
        return self._c.inertial_parameters().reshape(-1)

    @property
    def bodies(self) -> tuple[str, ...]:
        """Names of the moving bodies, in the regressor's order: for each movable joint, its
        child link (which carries every link welded to it by fixed joints)."""
        return tuple(j.child for j in self.joints)

    def parameter_names(self):
        """Names of the entries of inertial_parameters(): '<body>.m', '<body>.mcx', ...,
        '<body>.Izz'."""
        return [f"{b}.{p}" for b in self.bodies for p in PARAMETERS]

    # ---- kinematics --------------------------------------------------------------
    def forward_kinematics(self, q: ArrayLike,
                           out: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None
                           ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Every link's pose, in model.link_names order (L links).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        out : tuple of ndarray (..., L, 3) and (..., L, 3, 3) float64, optional
            Two C-contiguous arrays the results are written into (and returned).

        Returns
        -------
        pos : ndarray, (..., L, 3) float64
            Positions of the link origins in the world (m).
        rot : ndarray, (..., L, 3, 3) float64
            Rotations whose columns are the link's axes in the world.
        """
        return self._compute(_core.FK, (q,), out=out)

    def joint_positions(self, q: ArrayLike, out: NDArray[np.float64] | None = None
                        ) -> NDArray[np.float64]:
        """World positions of the movable joints' frames, in model.joints order (J joints).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        out : ndarray (..., J, 3) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        ndarray, (..., J, 3) float64
            m.
        """
        return self._compute(_core.JOINT_POS, (q,), out=out)

    def center_of_mass(self, q: ArrayLike, out: NDArray[np.float64] | None = None
                       ) -> NDArray[np.float64]:
        """Centre of mass of the links that move (links welded to a fixed base are left
        out, as in Pinocchio); their mass is model.total_mass.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        out : ndarray (..., 3) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        ndarray, (..., 3) float64
            m, world axes.
        """
        return self._compute(_core.COM, (q,), out=out)

    @property
    def armature(self) -> NDArray[np.float64]:
        """(nv,) rotor inertia on each velocity coordinate (an MJCF joint's ``armature``
        plus, as MuJoCo 4 adds it, gear^2 times that of each actuator driving the joint;
        zero for URDF and OpenSim models), as MuJoCo and Pinocchio (``model.armature``)
        apply it: added to the mass matrix's diagonal, so inverse dynamics adds
        ``armature * a``, forward dynamics, the derivatives and the kinetic energy include
        it. It is not an inertial parameter of a body: ``regressor`` leaves it out."""
        s = self.structure()
        out = np.zeros(self.nv)
        for b in range(1, len(s.parent)):
            out[s.v_index[b]:s.v_index[b] + s.nv[b]] = s.armature[b]
        out.flags.writeable = False
        return out

    @property
    def total_mass(self) -> float:
        """Mass of the links that move (every link with a floating base)."""
        return self._c.total_mass

    def jacobian(self, q: ArrayLike, link: str, point: ArrayLike | None = None,
                 out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """Jacobian of a point on a link: rows 0-2 map v to the point's linear velocity,
        rows 3-5 to the link's angular velocity, both in world-aligned axes. The same as
        frame_jacobian(q, link, point, "local_world_aligned"), which has the other frames.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        link : str
            One of model.link_names.
        point : array_like (3,), optional
            The point in the link's frame (m); default: the link origin.
        out : ndarray (..., 6, nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        J : ndarray, (..., 6, nv) float64
        """
        body, point, _ = self._frame_args("jacobian", link, point, "local_world_aligned")
        return self._compute(_core.JACOBIAN, (q,), link=body, point=point, out=out)

    # ---- frames (Pinocchio's reference frames) -------------------------------------
    def frame_jacobian(self, q, link, point=None, reference="local_world_aligned", out=None):
        """Jacobian of the frame on ``link`` at ``point``.

        The frame has the link's axes and its origin at ``point`` (3,) in link coordinates
        (default: the link origin). Rows are [linear; angular] as in Pinocchio's
        ``getFrameJacobian``; ``reference`` is Pinocchio's ReferenceFrame:

        - ``"local"``: the frame's own axes, linear velocity of its origin;
        - ``"world"``: world axes, the spatial velocity (linear part: the velocity of the
          body point passing through the world origin);
        - ``"local_world_aligned"``: world axes, linear velocity of the frame's origin
          (what :meth:`jacobian` returns).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        link : str
            One of model.link_names.
        point : array_like (3,), optional
            The frame's origin in link coordinates (m).
        reference : str or pinocchio.ReferenceFrame
            "local", "world" or "local_world_aligned".
        out : ndarray (..., 6, nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        J : ndarray, (..., 6, nv) float64
        """
        link_id, point, ref = self._frame_args("frame_jacobian", link, point, reference)
        return self._compute(_core.FRAME_JACOBIAN, (q,), link=link_id, point=point,
                             reference=ref, out=out)

    def frame_jacobian_time_variation(self, q, v, link, point=None,
                                      reference="local_world_aligned", out=None):
        """dJ/dt of :meth:`frame_jacobian` along v, so that ``J @ a + dJ @ v`` is the frame's
        acceleration: spatial in "local" and "world", the origin's classical acceleration
        in "local_world_aligned" (Pinocchio's ``getFrameJacobianTimeVariation``).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities, broadcast against q.
        link, point, reference
            As for :meth:`frame_jacobian`.
        out : ndarray (..., 6, nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        dJ : ndarray, (..., 6, nv) float64
        """
        link_id, point, ref = self._frame_args("frame_jacobian_time_variation", link, point,
                                               reference)
        return self._compute(_core.FRAME_JACOBIAN_DOT, (q, v), link=link_id, point=point,
                             reference=ref, out=out)

    def frame_velocity(self, q, v, link, point=None, reference="local_world_aligned",
                       out=None):
        """The frame's spatial velocity [linear; angular] in ``reference`` (Pinocchio's
        ``getFrameVelocity``).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities, broadcast against q.
        link, point, reference
            As for :meth:`frame_jacobian`.
        out : ndarray (..., 6) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        ndarray, (..., 6) float64
            m/s, rad/s.
        """
        link_id, point, ref = self._frame_args("frame_velocity", link, point, reference)
        return self._compute(_core.FRAME_VELOCITY, (q, v), link=link_id, point=point,
                             reference=ref, out=out)

    def frame_acceleration(self, q, v, a, link, point=None, reference="local_world_aligned",
                           out=None):
        """The frame's spatial acceleration [linear; angular] in ``reference``, gravity left
        out (Pinocchio's ``getFrameAcceleration``).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v, a : array_like, (..., nv) or scalar
            Velocities and accelerations, broadcast against q.
        link, point, reference
            As for :meth:`frame_jacobian`.
        out : ndarray (..., 6) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        ndarray, (..., 6) float64
            m/s², rad/s².
        """
        link_id, point, ref = self._frame_args("frame_acceleration", link, point, reference)
        return self._compute(_core.FRAME_ACCELERATION, (q, v, a), link=link_id, point=point,
                             reference=ref, out=out)

    def frame_classical_acceleration(self, q, v, a, link, point=None,
                                     reference="local_world_aligned", out=None):
        """The frame's classical acceleration [linear; angular]: the spatial acceleration
        with the angular velocity x linear velocity term added to its linear part
        (Pinocchio's ``getFrameClassicalAcceleration``). In "local" and
        "local_world_aligned" the linear part is d²p/dt² of the point (an accelerometer's
        reading without gravity, in the sensor's axes or the world's).

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v, a : array_like, (..., nv) or scalar
            Velocities and accelerations, broadcast against q.
        link, point, reference
            As for :meth:`frame_jacobian`.
        out : ndarray (..., 6) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        ndarray, (..., 6) float64
            m/s², rad/s².
        """
        link_id, point, ref = self._frame_args("frame_classical_acceleration", link, point,
                                               reference)
        return self._compute(_core.FRAME_CLASSICAL, (q, v, a), link=link_id, point=point,
                             reference=ref, out=out)

    def _frame_args(self, fn, link, point, reference):
        if not isinstance(link, str):
            raise TypeError(f"{fn}: link must be a link name (a str, one of model.link_names), "
                            f"got {type(link).__name__} {reprlib.repr(link)}")
        if link not in self._link_index:
            raise ValueError(f"{fn}: " + unknown_name("link", link, self.link_names,
                                                      "model.link_names"))
        if point is not None:
            p = np.asarray(_as_samples(point, f"{fn}: point", 3, False, batch=False),
                           dtype=float)
            if not np.all(np.isfinite(p)):
                raise ValueError(f"{fn}: point must be 3 finite numbers, got {point!r}")
            point = tuple(p.tolist())
        name = getattr(reference, "name", reference)         # also pinocchio.ReferenceFrame
        ref = _REFERENCES.get(str(name).lower()) if isinstance(name, str) else None
        if ref is None:
            raise ValueError(f"{fn}: reference must be 'local', 'world' or "
                             f"'local_world_aligned', got {reference!r}")
        return self._link_index[link], point, ref

    def inverse_kinematics(self, targets: ArrayLike | dict[str, ArrayLike],
                           markers: list[Marker] | None = None,
                           weights: dict[str, float] | None = None,
                           tasks: Mapping[str, tuple[float, Any]] | None = None,
                           locked: Mapping[str, float] | None = None,
                           ranges: Mapping[str, tuple[float, float]] | None = None,
                           q0: ArrayLike | None = None, tolerance: float = 1e-10,
                           max_iter: int = 100, threads: int | None = None,
                           couplers: bool = True) -> IKSolution:
        """Fit the model's markers to measured positions, frame by frame (OpenSim's IK).

        Parameters
        ----------
        targets : (N, k, 3) or (k, 3) array, or dict {marker name: (N, 3) or (3,)}
            Measured marker positions in the model's world frame, m; NaN marks a marker missing
            in a frame (it is skipped there). An array is in the order of ``markers``; a dict
            names the markers measured, and the others are missing in every frame.
        markers : list of Marker, optional
            The model markers (default: ``model.markers``).
        weights : dict {marker name: float}, optional
            Marker weights (default 1); 0 reports a marker without fitting it.
        tasks : dict {coordinate: (weight, value)}, optional
            Coordinate tasks: the coordinate pulled towards ``value`` (a number, or (N,) per frame,
            rad or m) with ``weight``.
        locked : dict {coordinate: value}, optional
            Coordinates held at a value (rad or m).
        ranges : dict {coordinate: (lower, upper)}, optional
            Bounds kept by the fit (OpenSim's clamped coordinates).
        q0 : (nq,) array, optional
            Where the first frame starts (default zeros, unit quaternions); every next frame
            starts at the previous fit.
        tolerance : float
            A frame ends when a step moves no coordinate by more than this (rad or m).
        max_iter : int
            Levenberg-Marquardt iterations per frame at most, 1 to 10000.
        threads : int, optional
            The frames are cut into this many contiguous segments solved in parallel, each
            started at ``q0`` and warm-started within it (default: urdf2dyn.get_num_threads()).
            One thread reproduces OpenSim's frame-to-frame warm start exactly; a later
            segment whose first frame, fitted again from the previous frame's fit, lands
            elsewhere (another minimum) is fitted again from there, so threads give the
            one-thread motion (within the fit's tolerance, about 1e-8, where a seam
            agreed).
        couplers : bool
            Hold the model's coordinate couplers (``model.couplers``, an .osim's enforced
            CoordinateCouplerConstraints, dependent = scale x f(independent)) through the fit,
            as OpenSim's IK tool does (default): each dependent coordinate follows its
            function and its derivative enters the Jacobian. False fits every coordinate as
            one of its own. A coupler whose dependent coordinate is locked is not kept (the
            lock holds).

        Returns
        -------
        IKSolution
            The fit per frame. A joint angle the fit took round a whole turn between two
            frames (a coordinate the markers barely hold, the same pose either way) is
            brought back by whole turns (numpy.unwrap) where every link stays where it was,
            so that its derivatives mean something; not a locked, tasked, ranged or coupled
            coordinate, nor one the turn would take out of its joint limits (a URDF's or
            MJCF's revolute limits) or clamped range (``clamped_ranges``) in a frame the fit
            had inside them (docs/ik.rst).
        """
        threads, max_iter = _ik_threads(threads), _ik_max_iter(max_iter)
        markers = list(self.markers) if markers is None else list(markers)
        names = [mk.name for mk in markers]
        if len(set(names)) != len(names):
            raise ValueError("inverse_kinematics: markers: a marker name is used twice")
        for mk in markers:
            if mk.link not in self._link_index:
                raise ValueError(f"inverse_kinematics: marker {mk.name!r} is on link {mk.link!r}, "
                                 "which the model does not have")
        if isinstance(targets, dict):
            unknown = sorted(set(targets) - set(names))
            if unknown:
                raise ValueError(f"inverse_kinematics: targets: no model marker named {unknown}")
            rows = {n: np.asarray(v, dtype=float) for n, v in targets.items()}
            lens = {r.shape[0] for r in rows.values() if r.ndim == 2}
            if len(lens) > 1:
                raise ValueError("inverse_kinematics: targets: markers have different numbers of "
                                 "frames")
            n = lens.pop() if lens else 1
            single = not any(r.ndim == 2 for r in rows.values())
            t = np.full((n, len(markers), 3), np.nan)
            for k, name in enumerate(names):
                if name in rows:
                    if rows[name].shape[-1] != 3 or rows[name].ndim > 2:
                        raise ValueError(f"inverse_kinematics: targets[{name!r}]: expected shape "
                                         f"(N, 3) or (3,), got {rows[name].shape}")
                    t[:, k] = rows[name]
        else:
            t = np.asarray(targets, dtype=float)
            single = t.ndim == 2
            if single:
                t = t[None]
            if t.ndim != 3 or t.shape[1:] != (len(markers), 3):
                raise ValueError(f"inverse_kinematics: targets: expected shape (N, {len(markers)}, "
                                 f"3) or ({len(markers)}, 3) for {len(markers)} markers, got "
                                 f"{np.shape(targets)}")
        nframe = t.shape[0]
        w = np.ones(len(markers))
        for name, value in (weights or {}).items():
            if name not in names:
                raise ValueError(f"inverse_kinematics: weights: no model marker named {name!r}")
            w[names.index(name)] = value
        if not np.all(np.isfinite(w) & (w >= 0)):
            raise ValueError("inverse_kinematics: weights must be finite and >= 0")

        task_v, task_q, task_w, task_val = [], [], [], []
        for name, (weight, given) in (tasks or {}).items():
            qi, vi = _coordinate(self, name, "tasks")
            try:
                values = np.broadcast_to(np.asarray(given, dtype=float), (nframe,))
            except ValueError:
                raise ValueError(f"inverse_kinematics: tasks[{name!r}]: the value must be a "
                                 f"number or one per frame ({nframe}), got shape "
                                 f"{np.shape(given)}") from None
            if not np.all(np.isfinite(values)):
                raise ValueError(f"inverse_kinematics: tasks[{name!r}]: values must be finite "
                                 "(rad or m)")
            if not (np.isfinite(weight) and weight >= 0):
                raise ValueError(f"inverse_kinematics: tasks[{name!r}]: weight {weight} must be "
                                 "finite and >= 0")
            task_v.append(vi)
            task_q.append(qi)
            task_w.append(float(weight))
            task_val.append(values)
        task_values = np.stack(task_val, axis=1) if task_val else np.zeros((nframe, 0))

        start = np.zeros(self.nq) if q0 is None else np.array(q0, dtype=float).reshape(-1)
        if start.shape != (self.nq,) or not np.all(np.isfinite(start)):
            raise ValueError(f"inverse_kinematics: q0: expected {self.nq} finite numbers, got "
                             f"shape {start.shape}")
        if q0 is None:
            start = self.neutral()
        lock = np.zeros(self.nv, dtype=np.int32)
        for name, value in (locked or {}).items():
            qi, vi = _coordinate(self, name, "locked")
            if not np.isfinite(value):
                raise ValueError(f"inverse_kinematics: locked[{name!r}]: {value} is not finite")
            lock[vi] = 1
            start[qi] = value
        lower = _per_coordinate(self, {k: v[0] for k, v in (ranges or {}).items()}, "ranges",
                                -np.inf)
        upper = _per_coordinate(self, {k: v[1] for k, v in (ranges or {}).items()}, "ranges",
                                np.inf)
        if np.any(lower > upper):
            raise ValueError("inverse_kinematics: ranges: a lower bound is above its upper bound")
        if couplers:
            self._check_couplers()      # a loop, or a coordinate driven twice: named
        kept = [(c, f) for c, f in zip(self.couplers, self._coupler_fn)   # dependency order
                if c.dependent not in (locked or {})] if couplers else []
        coupler = np.array([[*_coordinate(self, c.dependent, "couplers"),
                             *_coordinate(self, c.independent, "couplers"), f]
                            for c, f in kept], dtype=np.int32).reshape(-1, 5)
        scale = np.array([c.scale for c, _ in kept], dtype=float)
        link = np.array([self._link_index[mk.link] for mk in markers], dtype=np.int32)
        pos = np.array([mk.position for mk in markers], dtype=float).reshape(len(markers), 3)
        q, err, rep = self._c.ik(link, pos, w, np.array(task_v, np.int32),
                                  np.array(task_q, np.int32), np.array(task_w, float), lock,
                                  lower, upper, t, task_values, start, float(tolerance),
                                  max_iter, threads,
                                  coupler, scale)
        held = set(locked or {}) | set(tasks or {}) | {c.dependent for c, _ in kept} | {
            c.independent for c, _ in kept} | {n for n, (lo, hi) in (ranges or {}).items()
                                               if np.isfinite(lo) or np.isfinite(hi)}
        q = _unwound(self, q, held)
        worst = [names[int(k)] if k >= 0 else "" for k in rep[:, 3]]
        sol = IKSolution(q, names, err, rep[:, 0], rep[:, 1], rep[:, 2], worst,
                         rep[:, 4].astype(np.int64))
        if single:
            sol.q = sol.q[0]
        return sol

    def link_velocities(self, q: ArrayLike, v: ArrayLike,
                        out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """Linear velocity of each link origin and angular velocity, in world-aligned axes.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities, broadcast against q.
        out : ndarray (..., L, 6) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        ndarray, (..., L, 6) float64
            [vx vy vz wx wy wz] per link of model.link_names (m/s, rad/s).
        """
        return self._compute(_core.LINK_VEL, (q, v), out=out)

    def kinetic_energy(self, q: ArrayLike, v: ArrayLike,
                       out: NDArray[np.float64] | None = None
                       ) -> float | NDArray[np.float64]:
        """Kinetic energy 1/2 v^T M v.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities, broadcast against q.
        out : ndarray (...,) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        float or ndarray (...,) float64
            J; a float for one sample (without ``out``).
        """
        energy = self._compute(_core.KINETIC, (q, v), out=out)
        return energy if out is not None else _scalar(energy)

    def potential_energy(self, q: ArrayLike, out: NDArray[np.float64] | None = None
                         ) -> float | NDArray[np.float64]:
        """Gravitational potential energy -sum m g.c of the moving links.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        out : ndarray (...,) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        float or ndarray (...,) float64
            J; a float for one sample (without ``out``).
        """
        energy = self._compute(_core.POTENTIAL, (q,), out=out)
        return energy if out is not None else _scalar(energy)

    # ---- configurations ---------------------------------------------------------------
    def integrate(self, q: ArrayLike, v: ArrayLike, dt: float = 1.0,
                  out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """q (+) v dt: floating joints move along the SE(3) exponential of the body twist
        v dt; other joints add v dt.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        v : array_like, (..., nv) or scalar
            Velocities (tangent vectors), broadcast against q.
        dt : float
            Time step (s), one finite number for every sample (negative steps back); for a
            step per sample, scale v: ``integrate(q, v * dt[..., None])``.
        out : ndarray (..., nq) float64, optional
            C-contiguous array the result is written into (and returned); it may be q
            itself (q is then read from a copy).

        Returns
        -------
        ndarray, (..., nq) float64
        """
        return self._compute(_core.INTEGRATE, (q, v), dt=_time_step(dt), out=out)

    def difference(self, q0: ArrayLike, q1: ArrayLike,
                   out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """The v with integrate(q0, v, 1) = q1 (the SE(3) logarithm for floating joints).

        Parameters
        ----------
        q0, q1 : array_like, (..., nq)
            Configurations, broadcast against each other.
        out : ndarray (..., nv) float64, optional
            C-contiguous array the result is written into (and returned).

        Returns
        -------
        ndarray, (..., nv) float64
        """
        return self._compute(_core.DIFFERENCE, (q0, q1), out=out)

    def normalize(self, q: ArrayLike, out: NDArray[np.float64] | None = None
                  ) -> NDArray[np.float64]:
        """q with every floating joint's quaternion scaled to unit norm.

        Parameters
        ----------
        q : array_like, (..., nq)
            Configurations.
        out : ndarray (..., nq) float64, optional
            C-contiguous array the result is written into (and returned); it may be q.

        Returns
        -------
        ndarray, (..., nq) float64
        """
        return self._compute(_core.NORMALIZE, (q,), out=out)

    def neutral(self) -> NDArray[np.float64]:
        """The zero configuration: zero angles and offsets, identity quaternions."""
        q = np.zeros(self.nq)
        for j in self.joints:
            if j.type in ("floating", "ball"):
                q[j.q_index + j.nq - 1] = 1.0               # w, last
        return q

    def random_configuration(self, n: int | None = None, seed: int | None = None
                             ) -> NDArray[np.float64]:
        """Uniform random configurations (n of them, or one): within the URDF limits when
        finite and ordered, else angles in [-pi, pi] and lengths in [-1, 1] (an OpenSim
        coordinate's by its motion type, coupled ones as angles; a ConstantCurvatureJoint's
        angles plus its neutral angles within +-(pi/2 - 0.01), where it moves); floating joints
        get a position in [-1, 1]^3 and a uniform random unit quaternion, ball joints the
        quaternion.

        Parameters
        ----------
        n : int >= 0, optional
            How many; the result is then (n, nq), else one configuration (nq,).
        seed : int >= 0, sequence of them, or NumPy Generator/BitGenerator/SeedSequence, optional
            Seed of NumPy's default generator (the same seed, the same configurations).
        """
        n = _count(n, "random_configuration: n")
        if isinstance(seed, (list, tuple)) or (isinstance(seed, np.ndarray) and seed.ndim):
            items = seed.ravel() if isinstance(seed, np.ndarray) else seed
            # NumPy's entropy: several ints (a nested or ragged list is refused item by item)
            seed = [_count(s, "random_configuration: seed") for s in items]
            if None in seed:
                raise TypeError("random_configuration: seed: a sequence of integers >= 0, "
                                "got None among them")
        elif not isinstance(seed, (np.random.Generator, np.random.BitGenerator,
                                   np.random.SeedSequence)):
            seed = _count(seed, "random_configuration: seed")
        rng = np.random.default_rng(seed)
        shape = (1 if n is None else n, self.nq)
        q = np.empty(shape)
        for j in self.joints:
            sl = slice(j.q_index, j.q_index + j.nq)
            if j.type in ("floating", "ball"):
                q[:, sl][:, :-4] = rng.uniform(-1, 1, (shape[0], j.nq - 4))
                quat = rng.normal(size=(shape[0], 4))
                q[:, sl][:, -4:] = quat / np.linalg.norm(quat, axis=1, keepdims=True)
            elif j.type == "constant_curvature":
                # each angle (coordinate plus neutral angle) within OpenSim's bound, past which
                # it is held and moves nothing (_warn_held_arcs)
                neutral = next(arc[2] for arc in self._arcs if arc[0] == j.name)
                q[:, sl] = rng.uniform(-ARC_BOUND - neutral, ARC_BOUND - neutral, (shape[0], 3))
            elif j.limit is not None and j.limit[0] < j.limit[1] and j.type != "continuous":
                q[:, sl] = rng.uniform(*_drawn_range(j), (shape[0], 1))
            elif j.type == "planar":
                q[:, sl] = rng.uniform([-1, -1, -np.pi], [1, 1, np.pi], (shape[0], 3))
            else:       # each coordinate on its own (OpenSim's joints have several)
                names = self.q_names[sl]
                bound = [1.0 if j.type == "prismatic" or (
                    name in self.coordinates
                    and self.coordinates[name].motion == "translational")
                    else np.pi for name in names]
                q[:, sl] = rng.uniform(np.negative(bound), bound, (shape[0], j.nq))
        return q[0] if n is None else q

    def _fext(self, f_ext, q):
        """simulate's wrenches, each (6,) or (n, 6) for the n rows of q (n, nq), as the core
        takes them: bodies (K,) and wrenches (1 or n, K, 6); (None, None) for none."""
        wrenches = self._wrenches(f_ext)
        n = len(q)
        for label, w, _ in wrenches:
            if w.shape[:-1] not in ((), (n,)):
                raise ValueError(f"{label}: expected shape (6,) or (steps, 6) = ({n}, 6), got "
                                 f"{_fmt(w.shape)}")
        return _stack_wrenches(wrenches, self._link_body, (n,), n)

    def _wrenches(self, f_ext):
        """f_ext as [(label, (..., 6) array)], links checked, in the dict's order."""
        if f_ext is None or (isinstance(f_ext, Mapping) and not f_ext):
            return []
        if not isinstance(f_ext, Mapping):
            raise TypeError("f_ext: expected a dict {link_name: wrench of shape (6,) or "
                            f"(..., 6)}}, got {type(f_ext).__name__}")
        wrenches = []
        for link, w in f_ext.items():
            if link not in self._link_body:
                raise ValueError("f_ext: " + unknown_name("link", link, self.link_names,
                                                          "model.link_names"))
            label = f"f_ext[{link!r}]"
            wrenches.append((label, _as_samples(w, label, 6, False), link))
        return wrenches

# Names of the ten inertial parameters of a body, in the regressor's order.
PARAMETERS = ("m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz")

_REFERENCES = {"local": _core.LOCAL, "world": _core.WORLD,
               "local_world_aligned": _core.LOCAL_WORLD_ALIGNED}


#: how the name of a model file ends (a Model given one was given a path)
_MODEL_SUFFIXES = (".urdf", ".xml", ".osim", ".mjcf", ".xacro")


def _refuse_a_path(xml_text):
    """Model takes the XML text itself: a path (the first thing a new user tries) is refused
    with a pointer to load, not with the core's 'no <robot> element'. Only one line without
    '<' that names a file, or ends as a model file's name does, is taken for a path: any other
    text (a file's, from check) goes to the core, which judges and words it."""
    if isinstance(xml_text, (str, bytes)):
        text = xml_text.decode("utf-8", "replace") if isinstance(xml_text, bytes) else xml_text
        text = text.strip("\ufeff \t\r\n")
        if not text or "<" in text or "\n" in text:
            return
        if os.path.isfile(text):
            raise _core.URDFError(f"Model: xml_text: the path of a file ({text!r}), not the "
                                  f"XML text of a model: use urdf2dyn.load({text!r}), which "
                                  "reads a file (Model takes the text itself)")
        if text.lower().endswith(_MODEL_SUFFIXES):
            raise _core.URDFError(f"Model: xml_text: {text!r} looks like the name of a file "
                                  "(and there is no such file), not the XML text of a model: "
                                  "read a file with urdf2dyn.load(path)")
        return
    if isinstance(xml_text, os.PathLike):
        raise TypeError(f"Model: xml_text: the path of a file ({os.fspath(xml_text)!r}), not "
                        f"the XML text of a model: use urdf2dyn.load(path), which reads a file "
                        f"(Model takes the text itself)")
    raise TypeError(f"Model: xml_text: expected the XML text of a model (str), got "
                    f"{type(xml_text).__name__}; urdf2dyn.load(path) reads a file")


def _count(x, what):
    """x, an integer >= 0 or None (a 0-d integer array too), as an int (or None); else
    TypeError/ValueError naming what. Booleans are refused: n=True is a slip, not a count
    of one."""
    if x is None:
        return None
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iu":
        x = x[()]
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        raise TypeError(f"{what} must be an integer >= 0 or None, got {type(x).__name__} "
                        f"{reprlib.repr(x)}")
    if x < 0:
        raise ValueError(f"{what} must be an integer >= 0 or None, got {x}")
    return int(x)


def _time_step(dt):
    """integrate's dt as a float, or TypeError/ValueError saying what dt must be."""
    if (isinstance(dt, (bool, np.bool_)) or
            not (isinstance(dt, numbers.Real) or (isinstance(dt, np.ndarray) and dt.ndim == 0
                                                   and dt.dtype.kind in "fiu"))):
        got = (f"an array of shape {_fmt(dt.shape)}" if isinstance(dt, np.ndarray) else
               f"{type(dt).__name__} {reprlib.repr(dt)}")
        hint = ("; for a step per sample, scale v: integrate(q, v * dt[..., None])"
                if isinstance(dt, (np.ndarray, list, tuple)) else "")
        raise TypeError(f"integrate: dt must be one real number (the time step, s), got "
                        f"{got}{hint}")
    if not math.isfinite(dt):
        raise ValueError(f"integrate: dt must be finite, got {float(dt)}")
    return float(dt)


def _turning_coordinates(model):
    """The q indices of the coordinates that turn a joint about an axis: an .osim's
    rotational coordinates, a URDF's or MJCF's revolute and continuous joints."""
    if model.is_opensim:
        return [k for k, n in enumerate(model.q_names)
                if n in model.coordinates and model.coordinates[n].motion == "rotational"]
    return [j.q_index for j in model.joints
            if j.type in ("revolute", "continuous") and j.nq == 1]


def _unwound(model, q, held):
    """The fit q (N, nq) with each joint angle that steps by more than half a turn between two
    frames brought back by whole turns (numpy.unwrap), where that leaves every link where it
    was: the solver, warm-started from the previous frame, may take a coordinate the markers
    barely hold round a turn (Pose2Sim's model, its arms without hand markers: 346 deg in a
    frame), the same pose, but a step no derivative of the motion survives. The coordinates
    in held (locked, tasked, bounded, coupled: their value matters, not only the pose) stay,
    and so does a coordinate whose unwrapped column would take out of its hard range
    (:func:`_hard_ranges`) a sample the fit had inside it."""
    if len(q) < 2:
        return q
    pose = None
    hard = _hard_ranges(model)
    for k in _turning_coordinates(model):
        x = q[:, k]
        if model.q_names[k] in held or not np.any(np.abs(np.diff(x)) > math.pi):
            continue
        trial = q.copy()
        trial[:, k] = np.unwrap(x)
        if not _stays_in_range(x, trial[:, k], hard.get(k)):
            continue
        if pose is None:
            pose = model.forward_kinematics(q)
        pos, rot = model.forward_kinematics(trial)
        if (np.allclose(pos, pose[0], rtol=0, atol=1e-9)
                and np.allclose(rot, pose[1], rtol=0, atol=1e-9)):
            q = trial
    return q


def _joint_limit_ranges(model):
    """{coordinate: (lower, upper)} of a URDF's (or MJCF's) revolute and prismatic joints
    with a <limit> whose lower bound is below its upper one: the joint's stops, which
    inverse kinematics keeps, as OpenSim's IK keeps a clamped coordinate in its range (an
    angle beyond them is no pose of that robot, whatever the markers say). Left out: a limit
    with lower = upper (a <limit> without lower and upper reads 0, 0), which would hold the
    joint still, what such a file rarely means; and a revolute range of a whole turn or more
    (HuMoD's [-pi, pi] on its Euler-angle chains), which allows every pose of the joint: as
    a bound it only stops the fit from turning the angle round, and traps it there (HuMoD's
    human from q = 0: 63 mm marker RMS instead of OpenSim's 3.3 mm, test_ik_ranges.py)."""
    return {j.name: (float(j.limit[0]), float(j.limit[1])) for j in model.joints
            if j.type in ("revolute", "prismatic") and j.nq == 1 and j.limit is not None
            and j.limit[0] < j.limit[1] and j.name in model.q_names
            and not (j.type == "revolute"
                     and j.limit[1] - j.limit[0] >= 2 * math.pi - _WHOLE_TURN_SLACK)}


# How far short of 2 pi a URDF revolute range may fall and still be read as a whole turn:
# URDF writers give pi rounded (3.14159, 3.14: [-3.14, 3.14] is 3.2 mrad short), and a joint
# whose stops leave less than 10 mrad (0.6 deg) of the turn out is no stop a marker fit
# should be trapped by; 10 mrad is three times the coarsest rounding seen (3.14).
_WHOLE_TURN_SLACK = 1e-2


def _hard_ranges(model):
    """{q index: (lower, upper)} of the turning coordinates whose range is a bound, not a
    guide: a URDF's or MJCF's revolute <limit> / range (the joint's stops: an angle beyond
    them is no pose of that robot, whatever the markers say) and an .osim's clamped
    coordinates (model.clamped_ranges: OpenSim's IK optimizer keeps them in range). An
    .osim's unclamped range is left out on purpose: OpenSim's IK leaves it free and starts
    each frame from the previous fit, so it follows the angle continuously past the range
    (plausibility.ik_ranges says so), which is what the unwrapped column is."""
    hard = {}
    for j in model.joints:
        if j.type == "revolute" and j.nq == 1 and j.limit is not None:
            hard[j.q_index] = (j.limit[0], j.limit[1])
    for name, (lower, upper) in model.clamped_ranges.items():
        if name in model.q_names:
            hard[model.q_names.index(name)] = (lower, upper)
    return hard


def _stays_in_range(fit, unwrapped, bounds):
    """Whether unwrapped (N,) leaves inside bounds (lower, upper) (None: no bound) every
    sample fit (N,) had inside: a sample the fit already took beyond it may move."""
    if bounds is None:
        return True
    lower, upper = bounds
    inside = (fit >= lower) & (fit <= upper)
    return bool(np.all((unwrapped[inside] >= lower) & (unwrapped[inside] <= upper)))


def _per_coordinate(model, given, what, default):
    """A (nv,) array from {coordinate name: value}."""
    out = np.full(model.nv, default, dtype=float)
    for name, value in (given or {}).items():
        out[_coordinate(model, name, what)[1]] = value
    return out


#: The core solves at most this many segments of an IK trial at once (u2d_batch_ik's cap).
_IK_MAX_THREADS = 64


def _ik_threads(threads):
    """inverse_kinematics' threads as the core takes it: None is get_num_threads(); an integer
    >= 1, more than the core's cap solved on the cap (a huge count would overflow a C long)."""
    if threads is None:
        return get_num_threads()
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) or threads < 1:
        raise ValueError(f"inverse_kinematics: threads: expected an integer >= 1 or None, got "
                         f"{threads!r}")
    return min(int(threads), _IK_MAX_THREADS)


#: The most Levenberg-Marquardt steps inverse_kinematics takes per frame: a frame converges
#: in tens (the default is 100); a frame still moving after this many never converges, and a
#: larger count would only let a trial of thousands of frames run for hours (or, beyond a C
#: int, overflow the core's count).
_IK_MAX_ITER = 10_000


def _ik_max_iter(max_iter):
    """inverse_kinematics' max_iter, an integer from 1 to _IK_MAX_ITER, else refused by name."""
    if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral) \
            or not 1 <= max_iter <= _IK_MAX_ITER:
        raise ValueError(f"inverse_kinematics: max_iter: expected an integer from 1 to "
                         f"{_IK_MAX_ITER} (steps per frame; a frame converges in tens), got "
                         f"{max_iter!r}")
    return int(max_iter)


def _coordinate(model, name, what):
    """(q index, v index) of the coordinate called name (model.q_names): one of a joint whose
    q and v coordinates correspond one to one (a quaternion's components do not)."""
    if name in model.q_names:
        k = model.q_names.index(name)
        j = next(j for j in model.joints if j.q_index <= k < j.q_index + j.nq)
        if j.nq != j.nv:
            raise ValueError(f"inverse_kinematics: {what}: {name!r} is a coordinate of the "
                             f"{j.type} joint {j.name!r}, whose q is not its v; only "
                             "coordinates that are their own velocity can be named here")
        return k, j.v_index + (k - j.q_index)
    raise ValueError(f"inverse_kinematics: {what}: the model has no coordinate {name!r} "
                     f"(coordinates: {', '.join(model.q_names[:10])}...)")


def _names(joint, suffixes):
    if joint.type in suffixes:
        return [f"{joint.name}_{s}" for s in suffixes[joint.type]]
    return [joint.name]


def _coupler_order(couplers, source):
    """The indices of couplers in an order that applies them (each one's independent
    coordinate set before it is read), or the message naming the constraints that make
    such an order impossible: two couplers driving one coordinate, or a loop."""
    def named(c):
        at = f", line {c.line}" if c.line else ""
        return f"'{c.name}' ({c.dependent} from {c.independent}{at})"
    file = in_file(source)
    driver = {}
    for k, c in enumerate(couplers):
        if c.dependent in driver:
            first = couplers[driver[c.dependent]]
            return (f"{file}CoordinateCouplerConstraints {named(first)} and {named(c)} both "
                    f"drive coordinate {c.dependent!r}: a coordinate follows one coupler; "
                    "disable the other (<isEnforced>false</isEnforced>)")
        driver[c.dependent] = k
    order, state = [], [0] * len(couplers)     # 0 to do, 1 on the current path, 2 placed
    for start in range(len(couplers)):
        path, k = [], start
        while k is not None and state[k] == 0:          # up the chain of independents
            state[k] = 1
            path.append(k)
            k = driver.get(couplers[k].independent)
        if k is not None and state[k] == 1:
            loop = path[path.index(k):]
            return (f"{file}CoordinateCouplerConstraints "
                    + ", ".join(named(couplers[j]) for j in loop)
                    + " form a loop (each coordinate computed from the next): no order "
                    "applies them; disable one (<isEnforced>false</isEnforced>)")
        for j in reversed(path):                        # the chain's root first
            state[j] = 2
            order.append(j)
    return order


def _about_the_file(message, source):
    """The core's error message, which cannot know the file's path, made about the file at
    source: xacro's command names it, and a robot without links gets the robots beside it.
    Every command reporting a model that does not load (load, info, check) says it so."""
    return message.replace("xacro THIS_FILE >", f"xacro {source} >") + _robots_beside(
        source, message)


def _robots_beside(source, error):
    """For a file refused as a robot without links (an empty xacro output, such as
    example-robot-data's ur3.urdf beside ur3_robot.urdf): the URDF files beside it whose name
    begins with its own and which hold links, as "load one of those" advice; else ""."""
    if not error.startswith("<robot> has no <link>"):
        return ""
    folder, base = os.path.split(source)
    stem = base.rsplit(".", 1)[0]
    try:
        names = sorted(n for n in os.listdir(folder or ".") if n != base
                       and n.startswith(stem) and n.endswith(".urdf"))
    except OSError:
        return ""
    robots = [n for n in names[:20] if _holds_links(os.path.join(folder, n))]
    if not robots:
        return ""
    if len(robots) == 1:
        return f". Beside it: {robots[0]}, which holds links: load that"
    return f". Beside it: {', '.join(robots)}, which hold links: load one of those"


def _holds_links(path):
    # through read_input: a named pipe or a device beside the model is no robot, and opening
    # the pipe would wait for a writer for ever
    try:
        return b"<link" in read_input(path, "model", head=1 << 22)
    except OSError:
        return False


def _where(source, line):
    """'robot.urdf:12: ' / 'line 12: ' / 'robot.urdf: ' / ''."""
    if source is not None:
        return f"{source}:{line}: " if line else f"{source}: "
    return f"line {line}: " if line else ""


def _rebuild(xml_text, floating_base, gravity, source=None, files=None):
    with warnings.catch_warnings():         # said once, when the model was first loaded
        warnings.simplefilter("ignore", URDFWarning)
        model = Model(xml_text, floating_base, source=source, files=files or {})
    model.gravity = gravity
    return model
