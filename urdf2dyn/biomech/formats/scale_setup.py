"""OpenSim's scaling setup files (``Setup_Scale.xml``, a ``ScaleTool``).

:func:`read_scale_setup` returns a :class:`ScaleSetup`: the subject's ``mass``;
``GenericModelMaker`` (``model_file``, ``marker_set_file``); ``ModelScaler`` (``apply``,
``scaling_order``, the ``MeasurementSet`` of marker pairs and the bodies and axes each
scales, the manual ``ScaleSet``, ``marker_file``, ``time_range``,
``preserve_mass_distribution``, ``output_model_file``, ``output_scale_file``) and
``MarkerPlacer`` (``apply``, its ``IKTaskSet``, ``marker_file``, ``coordinate_file``,
``time_range``, ``output_motion_file``, ``output_model_file``, ``output_marker_file``,
``max_marker_movement``). File names are resolved as OpenSim resolves them: relative to the
setup file's folder (``formats.windows.setup_path``: Windows paths included); ``file=``
attributes of the sets name files read the same way. Values left ``Unassigned`` are None.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from .ik_setup import IKTask, read_tasks
from .setup_xml import legacy_flag_of, number, read_setup_element, referenced_set, text as _text
from .windows import setup_path

__all__ = ["ScaleSetup", "Measurement", "ManualScale", "ScaleSetupError", "read_scale_setup"]


class ScaleSetupError(ValueError):
    """A scale setup file that cannot be run as written (names the file and element)."""


@dataclass
class Measurement:
    """A scale factor from marker-pair distances: the mean over ``pairs`` of the measured
    distance (averaged over the time range) divided by the model's (at its default pose),
    applied to ``bodies`` {body: axes, e.g. "XYZ"}."""
    name: str
    pairs: list[tuple[str, str]] = field(default_factory=list)
    bodies: dict[str, str] = field(default_factory=dict)
    apply: bool = True


@dataclass
class ManualScale:
    """A body's scale factors given by hand (OpenSim's ``Scale``)."""
    body: str
    factors: tuple[float, float, float]
    apply: bool = True


@dataclass
class ScaleSetup:
    """A ScaleTool setup as written, paths absolute (None where unassigned)."""
    path: str
    name: str = ""
    mass: float = -1.0                   # kg; <= 0: the masses are not normalized
    model_file: str | None = None
    marker_set_file: str | None = None
    scale: bool = False                  # a ModelScaler that applies
    scaling_order: list[str] = field(default_factory=list)
    measurements: list[Measurement] = field(default_factory=list)
    manual_scales: list[ManualScale] = field(default_factory=list)
    scale_marker_file: str | None = None
    scale_time_range: tuple[float, float] = (-1.0, -1.0)
    preserve_mass_distribution: bool = False
    output_scaled_model: str | None = None
    output_scale_file: str | None = None
    place: bool = False                  # a MarkerPlacer that applies
    tasks: list[IKTask] = field(default_factory=list)
    place_marker_file: str | None = None
    coordinate_file: str | None = None
    place_time_range: tuple[float, float] = (-1.0, -1.0)
    output_motion_file: str | None = None
    output_model_file: str | None = None
    output_marker_file: str | None = None
    max_marker_movement: float = -1.0    # in the marker file's units; < 0: no limit
    # (tag, path) of each set read from the file its file= attribute names
    # (<MeasurementSet file="...">): inputs of the run like the files its elements name
    set_files: list[tuple[str, str]] = field(default_factory=list)

    def marker_weights(self) -> dict[str, float]:
        """{marker: weight} of the marker placer's applied marker tasks."""
        return {t.name: t.weight for t in self.tasks if t.kind == "marker" and t.apply}

    def coordinate_tasks(self) -> list[IKTask]:
        """The marker placer's applied coordinate tasks."""
        return [t for t in self.tasks if t.kind == "coordinate" and t.apply]


def _set(elem, tag, where, strict, files):
    """The <tag> set under elem, or the one its file= attribute names (None if absent); the
    file it was read from then added to files as (tag, path) (ScaleSetup.set_files)."""
    found, source = referenced_set(elem, tag, where, strict, ScaleSetupError)
    if source != where:
        files.append((tag, source))
    return found


def _objects(elem):
    objects = elem.find("objects") if elem is not None else None
    return list(objects) if objects is not None else []


def _range(elem, where):
    t = _text(elem, "time_range")
    if t is None:
        return (-1.0, -1.0)
    parts = t.split()
    if len(parts) != 2:
        raise ScaleSetupError(f"{where} <time_range>: expected two numbers, got {t!r}")
    t0, t1 = (number(p, f"{where} <time_range>", ScaleSetupError) for p in parts)
    if t1 < t0:
        raise ScaleSetupError(f"{where} <time_range>: {t0} > {t1}: give start then end")
    return (t0, t1)


def _optional(elem, tag, at, parse, default):
    """elem's <tag> read by parse (flag or number; errors name "at <tag>"), default when
    absent."""
    t = _text(elem, tag)
    return default if t is None else parse(t, f"{at} <{tag}>", ScaleSetupError)


def _apply(elem, at):
    """elem's <apply>: true when absent, as in OpenSim (an older kind of bool property to
    OpenSim: only 'true' or 'false' read, setup_xml.legacy_flag)."""
    return legacy_flag_of(elem, "apply", at, ScaleSetupError, True)


def _measurement(elem, where, strict, files):
    name = elem.get("name", "")
    at = f"{where}: <Measurement name=\"{name}\">"
    m = Measurement(name, apply=_apply(elem, at))
    for pair in _objects(_set(elem, "MarkerPairSet", where, strict, files)):
        names = (_text(pair, "markers") or "").split()
        if len(names) != 2:
            raise ScaleSetupError(f"{at} <MarkerPair><markers>: expected two marker names, "
                                  f"got {names}")
        m.pairs.append((names[0], names[1]))
    for body in _objects(_set(elem, "BodyScaleSet", where, strict, files)):
        axes = "".join((_text(body, "axes") or "").split()).upper()
        if not body.get("name") or set(axes) - set("XYZ"):
            raise ScaleSetupError(f"{at} <BodyScale name=\"{body.get('name', '')}\"> <axes>: "
                                  f"expected a body name and axes among X Y Z, got {axes!r}")
        m.bodies[body.get("name")] = axes
    return m


def read_scale_setup(path: str | os.PathLike[str], strict: bool = False) -> ScaleSetup:
    """Read an OpenSim ``Setup_Scale.xml`` (a ``<ScaleTool>``).

    Raises ScaleSetupError naming the file and element of anything that cannot be run: no
    ScaleTool first in the document (OpenSim reads its first element whatever its name), a
    number that is not one, a scaling order other than measurements and
    manualScale, a marker pair that is not two names, a time range that is not two
    increasing numbers, a set's file= that cannot be read.
    """
    where = os.fspath(path)
    tool = read_setup_element(where, ("ScaleTool",), ScaleSetupError,
                              "scale (ScaleTool) setup", "scale")[1]

    def resolve(elem, tag):
        t = _text(elem, tag) if elem is not None else None
        return setup_path(t, where, tag, strict=strict, error=ScaleSetupError) if t else None

    s = ScaleSetup(path=where, name=tool.get("name", ""))
    s.mass = _optional(tool, "mass", f"{where}:", number, s.mass)
    maker = tool.find("GenericModelMaker")
    s.model_file = resolve(maker, "model_file")
    s.marker_set_file = resolve(maker, "marker_set_file")

    scaler = tool.find("ModelScaler")
    if scaler is not None:
        at = f"{where}: <ModelScaler>"
        s.scale = _apply(scaler, at)
        s.scaling_order = (_text(scaler, "scaling_order") or "").split()
        for step in s.scaling_order:
            if step not in ("measurements", "manualScale"):
                raise ScaleSetupError(f"{at} <scaling_order>: {step!r}: expected "
                                      "'measurements' and/or 'manualScale'")
        s.measurements = [_measurement(m, where, strict, s.set_files)
                          for m in _objects(_set(scaler, "MeasurementSet", where, strict,
                                                 s.set_files))
                          if m.tag == "Measurement"]
        for sc in _objects(_set(scaler, "ScaleSet", where, strict, s.set_files)):
            body = _text(sc, "segment") or ""
            factors = (_text(sc, "scales") or "").split()
            at_sc = f"{at} <Scale segment=\"{body}\">"
            if not body or len(factors) != 3:
                raise ScaleSetupError(f"{at_sc}: expected a <segment> and three <scales>")
            xyz = tuple(number(x, at_sc + " <scales>", ScaleSetupError) for x in factors)
            s.manual_scales.append(ManualScale(body, (xyz[0], xyz[1], xyz[2]), _apply(sc, at_sc)))
        s.scale_marker_file = resolve(scaler, "marker_file")
        s.scale_time_range = _range(scaler, at)
        s.preserve_mass_distribution = legacy_flag_of(scaler, "preserve_mass_distribution", at,
                                                      ScaleSetupError,
                                                      s.preserve_mass_distribution)
        s.output_scaled_model = resolve(scaler, "output_model_file")
        s.output_scale_file = resolve(scaler, "output_scale_file")

    placer = tool.find("MarkerPlacer")
    if placer is not None:
        at = f"{where}: <MarkerPlacer>"
        s.place = _apply(placer, at)
        s.tasks = read_tasks(_set(placer, "IKTaskSet", where, strict, s.set_files),
                             where, ScaleSetupError)
        s.place_marker_file = resolve(placer, "marker_file")
        s.coordinate_file = resolve(placer, "coordinate_file")
        s.place_time_range = _range(placer, at)
        s.output_motion_file = resolve(placer, "output_motion_file")
        s.output_model_file = resolve(placer, "output_model_file")
        s.output_marker_file = resolve(placer, "output_marker_file")
        s.max_marker_movement = _optional(placer, "max_marker_movement", at, number,
                                          s.max_marker_movement)
    if not math.isfinite(s.mass):
        raise ScaleSetupError(f"{where}: <mass> {s.mass}: give the subject's mass in kg (or -1 "
                              "to keep the model's)")
    return s
