"""OpenSim's residual reduction setup files (``Setup_RRA.xml``, an ``RRATool``), with the two
files they name: the tracking tasks (a ``CMC_TaskSet``) and the actuators (a ``ForceSet``).

:func:`read_rra_setup` returns an :class:`RRASetup`; :func:`read_tasks` the tracked
coordinates and their weights; :func:`read_actuators` the residual and reserve actuators
(``PointActuator``, ``TorqueActuator``, ``CoordinateActuator``) with OpenSim's meaning of
each property and its defaults, both OpenSim's own and those of the file's ``<defaults>``.

Paths, as OpenSim 4.x resolves them (``RRATool`` loads the model and the force sets from the
setup file's folder and runs from there): every file is relative to the setup file's folder,
``output_model_file`` included (``adjusted_model.osim`` in that folder when empty). A
``model_file`` found only relative to the current directory is read from there with a
warning. Windows paths follow :func:`.windows.setup_path`. An empty or ``Unassigned`` value
is absent.

OpenSim 4.6 reads the setup from the first element of ``<OpenSimDocument>`` (or the root),
whatever its name: an ``<RRATool>`` there is read, and a ``<CMCTool>`` (OpenSim 2 wrote RRA
setups so before Version 20301; a later one is said to be a CMC setup); another name, or an
``<RRATool>`` behind another element, is refused, saying what to rename or move.

A document of OpenSim 1 (``Version`` before 10904) is read as OpenSim 4.6 reads it
(AbstractTool::updateFromXMLNode): its ``<actuator_set_files>`` are its force set files,
its ``<replace_actuator_set>`` (before 10900) is ``<replace_force_set>``, and its tool-level
``<controls_file>`` is the file of a ``ControlSetController`` of its ControllerSet. In a
later document (from 10900 for ``<replace_actuator_set>``) OpenSim reads none of the three,
and urdf2dyn warns that it does not either.

What the simulation settings say (integrator, optimizer, ``cmc_time_window``, curvature
filter) has no meaning for urdf2dyn's method and is not read.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from ..._input_bytes import refuse_devices
from ...warn import report
from .setup_xml import (disabled, flag, legacy_flag, legacy_flag_of, number, prop_line,
                        read_data_element, read_setup_element, text as _text)
from .windows import setup_path

__all__ = ["RRASetup", "RRASetupError", "Task", "Actuator", "read_rra_setup", "read_tasks",
           "point_tasks", "read_actuators"]


class RRASetupError(ValueError):
    """An RRA setup, task set or actuator file that cannot be run as written (the message
    names the file and element)."""


@dataclass
class RRASetup:
    """An RRATool setup, paths absolute (None when the file leaves them out).

    initial_time, final_time: s (OpenSim's defaults 0 and 1); lowpass_hz: the desired
    kinematics' cutoff (None: not filtered, OpenSim's -1); adjust_com: adjust the mass
    centre of ``adjusted_com_body`` (and then write ``output_model_file``); com_time_range:
    OpenSim's time range for that adjustment, None for the whole run; analyses: the tags of
    the ``AnalysisSet``'s analyses (not run by urdf2dyn); controllers: those of the
    ``ControllerSet`` (not applied by urdf2dyn); set_files: {set tag: the file its
    ``file=`` attribute names} of the ``AnalysisSet`` and ``ControllerSet`` that OpenSim's
    tool reads from a file of their own (unread by urdf2dyn but for the controls files a
    ControllerSet file names); loads_kinematics_file: an OpenSim 2 setup's tool-level
    ``<external_loads_model_kinematics_file>``, which OpenSim moves into the ExternalLoads
    file (unread by OpenSim 4 and urdf2dyn); controls_files: the
    ``<controls_file>`` of each ``ControlSetController`` of the ``ControllerSet`` (in the
    setup or its own file), which OpenSim's controller reads (unread by urdf2dyn, whose RRA
    applies no controller)."""
    path: str
    name: str = ""
    model_file: str | None = None
    force_set_files: list[str] = field(default_factory=list)
    replace_force_set: bool = False     # RRATool's own default, not AbstractTool's
    results_directory: str = ""
    output_precision: int = 8
    initial_time: float = 0.0
    final_time: float = 1.0
    external_loads_file: str | None = None
    desired_kinematics_file: str | None = None
    desired_points_file: str | None = None
    task_set_file: str | None = None
    constraints_file: str | None = None
    lowpass_hz: float | None = None
    adjust_com: bool = False
    com_time_range: tuple[float, float] | None = None
    adjusted_com_body: str | None = None
    output_model_file: str | None = None
    analyses: list[str] = field(default_factory=list)
    controllers: list[str] = field(default_factory=list)
    set_files: dict[str, str] = field(default_factory=dict)
    loads_kinematics_file: str | None = None
    controls_files: list[str] = field(default_factory=list)

    def output(self, kind: str) -> str:
        """The path OpenSim gives a result: ``results_directory/<name>_<kind>``, e.g.
        ``output("Kinematics_q.sto")``."""
        return os.path.join(self.results_directory, f"{self.name}_{kind}")


def check_com_body(setup, where):
    """Refuse (RRASetupError) an RRASetup that adjusts the mass centre of no body: read from
    a file (where: its path) or built by a library caller, it would change the total mass
    with no body to move. (Whether the model has that body is urdf2dyn.biomech.rra's to
    check, once the model is loaded: the model's rules are urdf2dyn.biomech.residuals', which
    imports this module.)"""
    if setup.adjust_com and setup.adjusted_com_body is None:
        raise RRASetupError(f"{where}: <adjust_com_to_reduce_residuals> is true but "
                            "<adjusted_com_body> is empty: name the body whose mass centre "
                            "moves (usually torso)")


@dataclass
class Task:
    """One tracking task of a CMC_TaskSet: a coordinate (``CMC_Joint``) followed with a
    weight; ``active`` is its first component's flag (a joint has one)."""
    name: str
    coordinate: str
    weight: float = 1.0
    active: bool = True


@dataclass
class Actuator:
    """One actuator of an RRA force set, with OpenSim's meaning.

    kind "point" (``PointActuator``): a force along ``direction`` (ground axes when
    ``force_is_global``, else ``body``'s) applied at ``point`` (in ``body``'s frame, or a
    ground point when ``point_is_global``) on ``body``. kind "torque" (``TorqueActuator``):
    a torque about ``axis`` (ground axes when ``torque_is_global``, else ``body``'s) on
    ``body`` (OpenSim's bodyA) and its opposite on ``body_b`` (ground when empty). kind
    "coordinate" (``CoordinateActuator``): a generalized force on ``coordinate``. Its force
    is ``optimal_force`` times its control."""
    name: str
    kind: str
    optimal_force: float = 1.0
    body: str | None = None
    body_b: str | None = None
    point: tuple[float, float, float] = (0.0, 0.0, 0.0)
    point_is_global: bool = False
    direction: tuple[float, float, float] = (1.0, 0.0, 0.0)
    force_is_global: bool = False
    axis: tuple[float, float, float] = (0.0, 0.0, 1.0)
    torque_is_global: bool = True
    coordinate: str | None = None


_KINDS = {"PointActuator": "point", "TorqueActuator": "torque",
          "CoordinateActuator": "coordinate",
          # OpenSim 1's names, which OpenSim 4 still reads (Object::renameType)
          "Force": "point", "Torque": "torque", "GeneralizedForce": "coordinate"}
#: OpenSim 1's property names, as OpenSim 4 renames them (PointActuator and TorqueActuator's
#: updateFromXMLNode for documents before version 10905); the direction is then reversed
_OLD_NAMES = {"Force": {"body": "body_B", "point": "point_B", "direction": "direction_A"},
              "Torque": {"bodyA": "body_B", "bodyB": "body_A", "axis": "direction_A"}}


def _number(text, where):
    return number(text, where, RRASetupError)


def _vector(text, where):
    parts = text.split()
    if len(parts) != 3:
        raise RRASetupError(f"{where}: {text!r}: expected three numbers x y z")
    v = tuple(_number(p, where) for p in parts)
    if not all(math.isfinite(x) for x in v):
        raise RRASetupError(f"{where}: {text!r}: expected finite numbers")
    return v


def _reversed(v: tuple[float, float, float]) -> tuple[float, float, float]:
    return (-v[0], -v[1], -v[2])


def _bool(text, where, line=None):
    return flag(text, where, RRASetupError, line)


def read_rra_setup(path: str | os.PathLike[str], strict: bool = False,
                   check_files: bool = True, need_model: bool = True) -> RRASetup:
    """Read an OpenSim ``Setup_RRA.xml`` (an ``<RRATool>``, or OpenSim 2's ``<CMCTool>``).

    Parameters
    ----------
    path : str or os.PathLike
        The setup XML.
    strict : bool
        Warnings (a model file found only relative to the current directory, a Windows
        path) become RRASetupError.
    check_files : bool
        Refuse a setup naming a file that does not exist (default). False resolves the
        names only (to list what a setup needs).
    need_model : bool
        The setup's <model_file> is read by the run (default). False when the caller brings
        its own model (``--model``, run_rra's model): the file is then not looked at (a
        device or one missing is not refused); model_file is where it is found, to keep
        outputs off it, None when it is nowhere.

    Returns
    -------
    RRASetup

    Raises
    ------
    RRASetupError
        Naming the file and element: not well-formed XML, no <RRATool> (or OpenSim 2's
        <CMCTool>) where OpenSim reads the setup, no
        <desired_kinematics_file> or <task_set_file>, a number (an empty one included,
        which OpenSim refuses too) or flag that is not one,
        final_time before initial_time, adjust_com_to_reduce_residuals without
        <adjusted_com_body>, a named file that does not exist where OpenSim would look,
        a file the run reads that is a device or a named pipe.
    """
    where = os.fspath(path)
    version, tool = _rra_tool(where, strict)
    if version is None:
        report(f"{where}: <OpenSimDocument Version=...> is missing or no whole number: "
               "OpenSim 4.6 refuses this document, urdf2dyn reads it as the latest version: "
               "write the version of the OpenSim that wrote it (Version=\"40000\" for "
               "OpenSim 4.0)", strict=strict, error=RRASetupError)
    old = _old_names(tool, where, version, strict)
    base = os.path.dirname(os.path.abspath(where))

    def resolve(tag, text=None, must_exist=True, read=True, opened=None):
        """The path <tag> names; opened: what urdf2dyn's run reads it as ("force set"), a
        device or named pipe then refused naming the element (its open() would hang)."""
        text = _text(tool, tag) if text is None else text
        if text is None:
            return None
        p = setup_path(text, where, tag, strict=strict, error=RRASetupError, read=read)
        if must_exist and check_files and not os.path.exists(p):
            raise RRASetupError(f"{where}: <{tag}> {text} does not exist: {p} (OpenSim reads "
                                "it relative to the setup file's folder)")
        if opened and check_files:
            refuse_devices(p, opened, named=f"{where}: <{tag}>", error=RRASetupError)
        return p

    s = RRASetup(path=where, name=tool.get("name") or "")
    model = _text(tool, "model_file")
    if model is not None and not need_model:      # the caller's model replaces it: not looked
        beside = resolve("model_file", must_exist=False, read=False)     # at, kept off outputs
        here = os.path.abspath(os.path.relpath(beside, base))
        s.model_file = next((p for p in (beside, here) if os.path.exists(p) or not check_files),
                            None)
    elif model is not None:
        beside = resolve("model_file", must_exist=False, opened="model")
        here = os.path.abspath(os.path.relpath(beside, base))
        if os.path.exists(beside) or not check_files:
            s.model_file = beside
        elif os.path.exists(here):
            report(f"{where}: <model_file> {model} is not beside the setup file; read from the "
                   f"current directory {os.getcwd()}", strict=strict, error=RRASetupError)
            s.model_file = here
        else:
            raise RRASetupError(f"{where}: <model_file> {model} exists neither in the setup "
                                f"file's folder {base} nor in the current directory")
    forces = old.get("force_set_files", "force_set_files")
    s.force_set_files = [resolve(forces, name, opened="force set")
                         for name in (_text(tool, forces) or "").split()]
    s.replace_force_set = legacy_flag_of(tool, old.get("replace_force_set", "replace_force_set"),
                                         f"{where}:", RRASetupError, s.replace_force_set)
    s.results_directory = resolve("results_directory", must_exist=False) or base
    prec = _number_text(tool, "output_precision", where)
    if prec is not None:
        p = _number(prec, f"{where}: <output_precision>")
        if not (1 <= p <= 20 and p == int(p)):      # in range first: int(inf) raises
            raise RRASetupError(f"{where}: <output_precision> {prec}: expected a whole number "
                                "of significant digits from 1 to 20")
        s.output_precision = int(p)
    for tag, attr in (("initial_time", "initial_time"), ("final_time", "final_time")):
        t = _number_text(tool, tag, where)
        if t is not None:
            x = _number(t, f"{where}: <{tag}>")
            if not math.isfinite(x):
                raise RRASetupError(f"{where}: <{tag}> {t}: expected a time in s")
            setattr(s, attr, x)
    if s.final_time <= s.initial_time:
        raise RRASetupError(f"{where}: <final_time> {s.final_time:g} is not after "
                            f"<initial_time> {s.initial_time:g}")
    s.external_loads_file = resolve("external_loads_file", opened="ExternalLoads")
    s.loads_kinematics_file = resolve("external_loads_model_kinematics_file", must_exist=False,
                                      read=False)   # read by no one: kept off the outputs
    s.desired_kinematics_file = resolve("desired_kinematics_file",
                                        opened="desired kinematics (.mot/.sto)")
    s.desired_points_file = resolve("desired_points_file")
    if s.desired_kinematics_file is None:
        raise RRASetupError(f"{where}: <desired_kinematics_file> is missing or empty: name the "
                            ".mot/.sto file of coordinates to track (e.g. the IK result)")
    s.task_set_file = resolve("task_set_file", opened="CMC task set")
    if s.task_set_file is None:
        raise RRASetupError(f"{where}: <task_set_file> is missing or empty: name the "
                            "CMC_TaskSet file of tracked coordinates and their weights (OpenSim "
                            "refuses to run without one too)")
    s.constraints_file = resolve("constraints_file")
    cut = _number_text(tool, "lowpass_cutoff_frequency", where)
    if cut is not None:
        s.lowpass_hz = _cutoff(cut, where)
    s.adjust_com = legacy_flag_of(tool, "adjust_com_to_reduce_residuals", f"{where}:",
                                  RRASetupError, s.adjust_com)
    s.adjusted_com_body = _text(tool, "adjusted_com_body")
    check_com_body(s, where)
    span = []
    for tag in ("initial_time_for_com_adjustment", "final_time_for_com_adjustment"):
        t = _number_text(tool, tag, where)
        span.append(-1.0 if t is None else _number(t, f"{where}: <{tag}>"))
    if span != [-1.0, -1.0]:
        s.com_time_range = (span[0], span[1])
    out = _text(tool, "output_model_file")
    s.output_model_file = (resolve("output_model_file", must_exist=False) if out is not None
                           else os.path.join(base, "adjusted_model.osim"))
    s.analyses, s.controllers = ([a.tag for a in tool.findall(f"{tag}/objects/*")]
                                 for tag in ("AnalysisSet", "ControllerSet"))
    s.set_files = _set_files(tool, where, strict)
    s.controls_files = _controls_files(tool, where, strict, s.set_files.get("ControllerSet"))
    controls = resolve("controls_file", must_exist=False, read=False)
    if controls is not None:          # the user's file, whoever reads it
        s.controls_files.append(controls)
        if version is not None and version < ACTUATOR_NAMES_BEFORE:
            s.controllers.append("ControlSetController")  # as OpenSim 4.6 makes it one
    return s


def _number_text(tool, tag, where):
    """The text of the tool's number element <tag>, None when it is absent. Present but
    empty (or Unassigned) is refused: OpenSim 4.6 cannot read it as a number and refuses the
    whole setup, where taking the default would run another trial than the user meant."""
    if tool.find(tag) is None:
        return None
    said = _text(tool, tag)
    if said is None:
        raise RRASetupError(f"{where}: <{tag}> is empty: OpenSim 4.6 refuses the setup; give "
                            "a number, or remove the element for OpenSim's default")
    return said


def _cutoff(text, where):
    """<lowpass_cutoff_frequency>'s cut-off in Hz, None for none (OpenSim's negative). NaN is
    refused: OpenSim reads it, and its run (which filters a cut-off >= 0) skips the filter
    without a word. The floor below which no filter can be computed depends on the
    kinematics' rate: checked by the run (processing.refuse_too_low_cutoff)."""
    at = f"{where}: <lowpass_cutoff_frequency>"
    try:
        nan = math.isnan(float(text))
    except ValueError:
        nan = False                 # not a number: refused by _number below
    if nan:
        raise RRASetupError(f"{at} {text}: no cut-off (OpenSim 4.6 reads it and leaves the "
                            "kinematics unfiltered without a word); give the cut-off in Hz "
                            "(6 Hz is usual for gait), or -1 for no filter")
    hz = _number(text, at)
    return hz if hz >= 0 else None


#: OpenSim 4.6 reads a document older than this with OpenSim 1's names (AbstractTool)
ACTUATOR_NAMES_BEFORE = 10904
#: OpenSim 2 wrote its RRA setups as a <CMCTool> before this version (RRATool reads them)
RRA_AS_CMC_BEFORE = 20301


def _rra_tool(where, strict):
    """(the document's version, the element OpenSim 4.6's RRATool reads as the setup): the
    first element of <OpenSimDocument> (or the root), whatever its name. An <RRATool> or
    OpenSim 2's <CMCTool> is read; a later <CMCTool> too, as OpenSim does, said to be a CMC
    setup; any other name is refused, as is an <RRATool> behind another element (OpenSim
    reads that element, not the setup the user sees)."""
    version, tool = read_setup_element(where, ("RRATool", "CMCTool"), RRASetupError,
                                       "residual reduction (RRA) setup", "RRA")
    if tool.tag == "CMCTool" and (version is None or version >= RRA_AS_CMC_BEFORE):
        of = "no version" if version is None else f"Version {version}"
        report(f"{where}: <CMCTool> in a document of {of}: a computed muscle control "
               "setup, which OpenSim 4.6's RRATool reads as an RRA setup (and urdf2dyn too); "
               f"only OpenSim 2 (before Version {RRA_AS_CMC_BEFORE}) wrote RRA setups so: if "
               "it is one, rename it <RRATool>; if not, give the RRA setup",
               strict=strict, error=RRASetupError)
    return version, tool


#: OpenSim 1's tool elements, each read by OpenSim 4.6 only in a document older than its
#: version (AbstractTool::updateFromXMLNode), and what to write in a later one
_OPENSIM1_ELEMENTS = {
    "actuator_set_files": (ACTUATOR_NAMES_BEFORE, "these actuators are not applied: name the "
                                                  "files in <force_set_files>"),
    "replace_actuator_set": (10900, "write <replace_force_set> instead"),
    "controls_file": (ACTUATOR_NAMES_BEFORE, "name it in a ControlSetController's "
                                             "<controls_file> in the <ControllerSet> "
                                             "(urdf2dyn's RRA applies no controller either)")}


def _old_names(tool, where, version, strict):
    """{OpenSim 4's name: OpenSim 1's} of the elements an OpenSim 1 document holds under
    OpenSim 1's name, which OpenSim 4.6 reads as the new one. In a later document (or one
    whose Version is no number, read as the latest) such an element is read by neither
    OpenSim 4.6 (which says nothing) nor urdf2dyn: said, with what to write. With both
    names in an OpenSim 1 document, only the first is read: said too."""
    _say_unread_opensim1_elements(tool, where, version, strict)
    if version is None or version >= ACTUATOR_NAMES_BEFORE:
        return {}
    renamed = {"force_set_files": "actuator_set_files"}
    if version < _OPENSIM1_ELEMENTS["replace_actuator_set"][0]:
        renamed["replace_force_set"] = "replace_actuator_set"
    for new, old in renamed.items():
        _say_the_second_name_unread(tool, where, version, new, old, strict)
    return {new: old for new, old in renamed.items() if _first_of(tool, new, old) == old}


#: what is lost with the second of an OpenSim 1 element and its OpenSim 4 name, unread
_UNREAD_SECOND = {"force_set_files": "its actuators are not applied; name every force set "
                                     "file in the first",
                  "replace_force_set": "its value is not used; keep the one you mean"}


def _say_the_second_name_unread(tool, where, version, new, old, strict):
    """Warn when an OpenSim 1 document holds both old, OpenSim 1's name of a property, and
    new, OpenSim 4's: OpenSim 4.6 renames old to new and reads the first of the two in
    document order, leaving the other unread without a word (its RRATool's force set holds
    only the first's actuators); urdf2dyn reads the same one."""
    if tool.find(new) is None or tool.find(old) is None:
        return
    first = _first_of(tool, new, old)
    second = old if first == new else new
    report(f"{where}: <{old}> and <{new}> both, in a document of Version {version} (older "
           f"than {_OPENSIM1_ELEMENTS[old][0]}, where OpenSim 1's <{old}> is read as <{new}>): "
           f"OpenSim 4.6 reads only the first, <{first}> {_text(tool, first) or ''}, and "
           f"leaves <{second}> {_text(tool, second) or ''} unread without a word, as "
           f"urdf2dyn does: {_UNREAD_SECOND[new]}", strict=strict, error=RRASetupError,
           stacklevel=None)


def _say_unread_opensim1_elements(tool, where, version, strict):
    """Warn of each OpenSim 1 element a document too late for it holds (OpenSim 4.6 and
    urdf2dyn leave it unread), saying what to write instead."""
    for tag, (before, what) in _OPENSIM1_ELEMENTS.items():
        if (version is None or version >= before) and _text(tool, tag) is not None:
            report(f"{where}: <{tag}> {_text(tool, tag)}: OpenSim 4.6 reads it only in a "
                   f"document older than Version {before} (OpenSim 1; this one is "
                   f"{'unnumbered' if version is None else version}), and urdf2dyn does not "
                   f"read it either: {what}", strict=strict, error=RRASetupError)


def _first_of(tool, *tags):
    """The first of tags among tool's children, in document order (None: none of them).
    OpenSim 4.6 renames the first element of the old name to the new one
    (XMLDocument::renameChildNode), then reads the first element of the new name: with both
    names present, whichever comes first is read."""
    return next((child.tag for child in tool if child.tag in tags), None)


def _controls_files(tool, where, strict, set_file=None):
    """The files the ControllerSet's ControlSetControllers read their controls from
    (OpenSim 4.6's ControlSetController reads its ``<controls_file>`` when the tool adds it
    to the model, in the setup file's folder, where RRATool::run works), resolved there;
    urdf2dyn reads none. set_file: the file the ControllerSet is read from, if any."""
    controllers = tool.findall("ControllerSet/objects/ControlSetController")
    controllers += _controllers_in_set_file(set_file)
    names = (_text(controller, "controls_file") for controller in controllers)
    return [setup_path(name, where, "controls_file", strict=strict, error=RRASetupError,
                       read=False)          # unread: kept off the outputs
            for name in names if name is not None]


def _controllers_in_set_file(path):
    """The ControlSetControllers of a ControllerSet file (``<ControllerSet file=...>``), read
    only to keep their controls files off the outputs: OpenSim reads the file's first element
    as the set, whatever its name. None are returned where OpenSim can read no controller
    from it (no file, a device, not XML): nothing of it to keep safe."""
    if path is None:
        return []
    try:
        _, _, found = read_data_element(path, RRASetupError, "ControllerSet")
    except RRASetupError:
        return []
    return found.findall("objects/ControlSetController") if found is not None else []


def _set_files(tool, where, strict):
    """{tag: path} of the tool's sets read from a file of their own: OpenSim's Object reads
    any object property from the file its element's ``file=`` attribute names
    (Object::readObjectFromXMLNodeOrFile), beside the setup file."""
    named = {}
    for tag in ("AnalysisSet", "ControllerSet"):
        elem = tool.find(tag)
        text = elem.get("file", "").strip() if elem is not None else ""
        if text:
            named[tag] = setup_path(text, where, f"{tag} file=", strict=strict,
                                    error=RRASetupError, read=False)    # unread: kept off
    return named


def _objects(path, root_tag, error_what, kind):
    """(objects [element], {type: default element}) of an OpenSim set file whose first
    element, which OpenSim reads as the set whatever its name, is one of root_tag (kind:
    the set's short name, as read_setup_element says it)."""
    found = read_setup_element(path, root_tag, RRASetupError, error_what, kind)[1]
    block = found.find("defaults")
    defaults = {_tag(d): d for d in (block if block is not None else [])}
    objects = found.find("objects")
    return (list(objects) if objects is not None else []), defaults


def _tag(elem):
    """An element's type as OpenSim 4 names it (OpenSim 2's rdCMC_Joint is a CMC_Joint)."""
    return elem.tag[2:] if elem.tag.startswith("rdCMC_") else elem.tag


def read_tasks(path: str | os.PathLike[str]) -> list[Task]:
    """The coordinate tasks (``CMC_Joint``) of an OpenSim ``CMC_TaskSet`` file, in file order.

    A property a task leaves out takes the value of the file's ``<defaults>`` entry of the
    same type, then OpenSim's (weight 1, active). OpenSim 2's names (``rdCMC_TaskSet``,
    ``rdCMC_Joint``, its ``<on>`` switch) are read as OpenSim 4 reads them. Tasks of other
    kinds (``CMC_Point``: points followed in space) are not returned: the caller says they
    are not followed (:func:`point_tasks` names them)."""
    where = os.fspath(path)
    objects, defaults = _objects(where, ("CMC_TaskSet", "rdCMC_TaskSet"), "CMC task set",
                                  "RRA tasks")
    tasks = []
    for elem in objects:
        if _tag(elem) != "CMC_Joint":
            continue
        name = elem.get("name") or ""
        at = f"{where}: <CMC_Joint name=\"{name}\">"

        def prop(tag):
            t = _text(elem, tag)
            if t is None and "CMC_Joint" in defaults:
                t = _text(defaults["CMC_Joint"], tag)
            return t

        def line(tag):                  # of the element prop(tag) read
            return prop_line(elem, defaults.get("CMC_Joint"), tag)
        coord = prop("coordinate") or name
        if not coord:
            raise RRASetupError(f"{at}: no <coordinate>: name the coordinate it tracks")
        weight = 1.0
        if prop("weight") is not None:
            weight = _number(prop("weight").split()[0], f"{at} <weight>")
            if not (0 <= weight < math.inf):
                raise RRASetupError(f"{at} <weight>: {weight:g} must be finite and >= 0")
        active = True
        if prop("active") is not None:
            # a bool array (one per axis): only 'true', so spelt, is true to OpenSim
            active = [legacy_flag(word, f"{at} <active>", RRASetupError, line("active"),
                                  lower_case_only=True) for word in prop("active").split()][0]
        if prop("on") is not None:              # OpenSim 2's switch for the whole task
            active = active and legacy_flag(prop("on"), f"{at} <on>", RRASetupError,
                                            line("on"))
        tasks.append(Task(name, coord, weight, active))
    return tasks


def point_tasks(path: str | os.PathLike[str]) -> list[str]:
    """Names of the tasks of a CMC_TaskSet file that are not coordinate tasks."""
    objects, _ = _objects(os.fspath(path), ("CMC_TaskSet", "rdCMC_TaskSet"), "CMC task set",
                          "RRA tasks")
    return [f"{_tag(e)} {e.get('name') or ''}".strip() for e in objects
            if _tag(e) != "CMC_Joint"]


def read_actuators(path: str | os.PathLike[str],
                   strict: bool = False) -> list[Actuator]:
    """The enabled actuators of an OpenSim ``ForceSet`` file (an RRA setup's
    ``force_set_files``), in file order.

    ``PointActuator``, ``TorqueActuator`` and ``CoordinateActuator`` are read with OpenSim's
    defaults (a point actuator pushes along x of its body at its origin; a torque actuator's
    axis is z in ground axes; optimal force 1), overridden by the file's ``<defaults>`` entry
    of the same type. OpenSim 1's ``<ActuatorSet>`` of ``Force``, ``Torque`` and
    ``GeneralizedForce`` is read as OpenSim 4 reads it: a Force is a point actuator on
    ``body_B`` at ``point_B`` along ``-direction_A`` in ground axes, a Torque a torque
    actuator on ``body_B`` (its reaction on ``body_A``) about ``-direction_A``. Another force
    type is left out with a warning naming it (an RRASetupError with strict). Raises
    RRASetupError naming the file and element for a property that cannot be read, an optimal
    force that is not a positive number, or an actuator without its body or coordinate."""
    where = os.fspath(path)
    objects, defaults = _objects(where, ("ForceSet", "ActuatorSet"), "force set",
                                  "RRA actuators")
    out, skipped = [], []
    for elem in objects:
        kind = _KINDS.get(elem.tag)
        name = elem.get("name") or ""
        if kind is None:
            skipped.append(f"{elem.tag} {name}".strip())
            continue
        at = f"{where}: <{elem.tag} name=\"{name}\">"
        if disabled(elem, at, RRASetupError):
            continue
        dflt = defaults.get(elem.tag)
        old = _OLD_NAMES.get(elem.tag, {})

        def prop(tag):
            tag = old.get(tag, tag)
            t = _text(elem, tag)
            if t is None and dflt is not None:
                t = _text(dflt, tag)
            return t

        def line(tag):                  # of the element prop(tag) read
            return prop_line(elem, dflt, tag, old)
        a = Actuator(name, kind)
        if elem.tag == "Force":                 # OpenSim 1: along -direction_A, in ground
            a.force_is_global = True
        if prop("optimal_force") is not None:
            a.optimal_force = _number(prop("optimal_force"), f"{at} <optimal_force>")
            if not (0 < a.optimal_force < math.inf):
                raise RRASetupError(f"{at} <optimal_force>: {a.optimal_force:g} must be a "
                                    "positive number")
        if kind == "point":
            a.body = prop("body")
            for tag in ("point", "direction"):
                if prop(tag) is not None:
                    setattr(a, tag, _vector(prop(tag), f"{at} <{tag}>"))
            for tag in ("point_is_global", "force_is_global"):
                if prop(tag) is not None:
                    setattr(a, tag, _bool(prop(tag), f"{at} <{tag}>", line(tag)))
            if not any(a.direction):
                raise RRASetupError(f"{at} <direction>: 0 0 0 is no direction")
            if old:
                a.direction = _reversed(a.direction)
        elif kind == "torque":
            a.body = prop("bodyA")
            a.body_b = prop("bodyB")
            if prop("axis") is not None:
                a.axis = _vector(prop("axis"), f"{at} <axis>")
            if prop("torque_is_global") is not None:
                a.torque_is_global = _bool(prop("torque_is_global"), f"{at} <torque_is_global>",
                                           line("torque_is_global"))
            if not any(a.axis):
                raise RRASetupError(f"{at} <axis>: 0 0 0 is no axis")
            if old:
                a.axis = _reversed(a.axis)
        else:
            a.coordinate = prop("coordinate")
            if not a.coordinate:
                raise RRASetupError(f"{at}: no <coordinate>: name the coordinate it drives")
        if kind != "coordinate" and not a.body:
            raise RRASetupError(f"{at}: no <{'body' if kind == 'point' else 'bodyA'}>: name "
                                "the body it acts on")
        out.append(a)
    if skipped:
        report(f"{where}: {skipped[:6]}{' ...' if len(skipped) > 6 else ''} are not point, "
               "torque or coordinate actuators: left out (residual reduction reads "
               "PointActuator, TorqueActuator and CoordinateActuator)", strict=strict,
               error=RRASetupError)
    return out
