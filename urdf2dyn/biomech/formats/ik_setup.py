"""OpenSim's inverse-kinematics setup files (``Setup_IK.xml``, an ``InverseKinematicsTool``).

:func:`read_ik_setup` returns an :class:`IKSetup`: the model and marker files, the task set
(``IKMarkerTask`` / ``IKCoordinateTask`` with ``apply`` and ``weight``; coordinate tasks with
``value_type`` default_value / manual_value / from_file and ``value``), ``coordinate_file``,
``time_range``, ``output_motion_file``, ``accuracy`` and ``constraint_weight``. File names
are resolved as OpenSim resolves them: relative to the setup file's folder, the
``<IKTaskSet file="...">`` a task set is read from included.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from .setup_xml import flag, line_of, number, read_setup_element, referenced_set, text as _text
from .windows import setup_path

__all__ = ["IKSetup", "IKTask", "IKSetupError", "read_ik_setup", "read_tasks"]


class IKSetupError(ValueError):
    """An IK setup file that cannot be run as written (names the file and element)."""


@dataclass
class IKTask:
    """One entry of the IKTaskSet: a marker (``kind == "marker"``) or a coordinate task."""
    kind: str                   # "marker" or "coordinate"
    name: str
    apply: bool = True
    weight: float = 1.0
    value_type: str = "default_value"   # coordinate tasks: default_value, manual_value, from_file
    value: float = 0.0


@dataclass
class IKSetup:
    """An InverseKinematicsTool setup, paths absolute (None when not given)."""
    path: str
    name: str = ""
    model_file: str | None = None
    marker_file: str | None = None
    coordinate_file: str | None = None
    output_motion_file: str | None = None
    results_directory: str | None = None
    time_range: tuple[float, float] = (-math.inf, math.inf)
    accuracy: float = 1e-5
    constraint_weight: float = math.inf
    report_errors: bool = True
    tasks: list[IKTask] = field(default_factory=list)
    # (tag, path) of the IKTaskSet when read from the file its file= attribute names
    # (<IKTaskSet file="tasks.xml"/>): an input of the run like the files its elements name
    set_files: list[tuple[str, str]] = field(default_factory=list)

    def marker_weights(self) -> dict[str, float]:
        """{marker: weight} of the marker tasks applied (OpenSim fits only these)."""
        return {t.name: t.weight for t in self.tasks if t.kind == "marker" and t.apply}

    def coordinate_tasks(self) -> list[IKTask]:
        """The coordinate tasks applied."""
        return [t for t in self.tasks if t.kind == "coordinate" and t.apply]


def _number(text, where):
    return number(text, where, IKSetupError)


def read_ik_setup(path: str | os.PathLike[str], strict: bool = False) -> IKSetup:
    """Read an OpenSim ``Setup_IK.xml`` (an ``<InverseKinematicsTool>``).

    File names are read as ``formats.windows.setup_path`` reads them:
    ``\\`` or ``/`` between folders; an absolute Windows path on another system is taken
    from the setup's folder with a warning (an IKSetupError with ``strict``).

    Raises IKSetupError naming the file and element of anything that cannot be run: no
    InverseKinematicsTool first in the document (OpenSim reads its first element whatever
    its name), a number that is not one, a weight below 0, a time range that is
    not two increasing numbers, an unknown coordinate value_type.
    """
    where = os.fspath(path)
    tool = read_setup_element(where, ("InverseKinematicsTool",), IKSetupError,
                              "inverse-kinematics setup", "IK")[1]

    def resolve(tag):
        t = _text(tool, tag)
        if t is None:
            return None
        return setup_path(t, where, tag, strict=strict, error=IKSetupError)

    s = IKSetup(path=where, name=tool.get("name", ""))
    s.model_file = resolve("model_file")
    s.marker_file = resolve("marker_file")
    s.coordinate_file = resolve("coordinate_file")
    s.results_directory = resolve("results_directory")
    s.output_motion_file = resolve("output_motion_file")
    tr = _text(tool, "time_range")
    if tr is not None:
        parts = tr.split()
        if len(parts) != 2:
            raise IKSetupError(f"{where}: <time_range>: expected two numbers, got {tr!r}")
        t0, t1 = (_number(p, f"{where}: <time_range>") for p in parts)
        if t1 < t0:
            raise IKSetupError(f"{where}: <time_range>: {t0} > {t1}: give start then end")
        s.time_range = (t0, t1)
    for tag in ("accuracy", "constraint_weight"):
        t = _text(tool, tag)
        if t is not None:
            x = _number(t, f"{where}: <{tag}>")
            if not x > 0:
                raise IKSetupError(f"{where}: <{tag}>: {t} must be > 0")
            setattr(s, tag, x)
    t = _text(tool, "report_errors")
    if t is not None:
        s.report_errors = flag(t, f"{where}: <report_errors>", IKSetupError,
                               line_of(tool, "report_errors"))

    taskset, source = referenced_set(tool, "IKTaskSet", where, strict, IKSetupError)
    if source != where:
        s.set_files.append(("IKTaskSet", source))
    s.tasks = read_tasks(taskset, source, IKSetupError)
    return s


def read_tasks(taskset, where: str, error: type[Exception] = IKSetupError) -> list[IKTask]:
    """The tasks of an ``<IKTaskSet>`` element (None: none), as the IK tool and the scale
    tool's marker placer read them; error names the file and task of anything unreadable."""
    tasks = []
    objects = taskset.find("objects") if taskset is not None else None
    for elem in (list(objects) if objects is not None else []):
        if elem.tag not in ("IKMarkerTask", "IKCoordinateTask"):
            continue
        name = elem.get("name", "")
        at = f"{where}: <{elem.tag} name=\"{name}\">"
        task = IKTask("marker" if elem.tag == "IKMarkerTask" else "coordinate", name)
        if (text := _text(elem, "apply")) is not None:
            task.apply = flag(text, at + " <apply>", error, line_of(elem, "apply"))
        if (text := _text(elem, "weight")) is not None:
            task.weight = number(text, at + " <weight>", error)
            if not (0 <= task.weight < math.inf):
                raise error(f"{at} <weight>: {task.weight} must be finite and >= 0")
        if task.kind == "coordinate":
            vt = _text(elem, "value_type") or "default_value"
            if vt not in ("default_value", "manual_value", "from_file"):
                raise error(f"{at} <value_type>: {vt!r}: expected default_value, "
                            "manual_value or from_file")
            task.value_type = vt
            if (text := _text(elem, "value")) is not None:
                task.value = number(text, at + " <value>", error)
        if not name:
            raise error(f"{at}: a task without a name")
        tasks.append(task)
    return tasks
