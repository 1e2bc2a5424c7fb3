"""OpenSim's inverse-dynamics setup files (``Setup_ID.xml``), read as OpenSim reads them.

The layout ``opensim.InverseDynamicsTool().printToXML(path)`` writes and users edit::

    <OpenSimDocument Version="40000">
      <InverseDynamicsTool name="subject01">
        <results_directory>Results</results_directory>
        <model_file>subject01.osim</model_file>
        <time_range> 0.5 1.8</time_range>
        <forces_to_exclude> Muscles</forces_to_exclude>
        <external_loads_file>subject01_walk1_grf.xml</external_loads_file>
        <coordinates_file>subject01_walk1_ik.mot</coordinates_file>
        <lowpass_cutoff_frequency_for_coordinates>6</lowpass_cutoff_frequency_for_coordinates>
        <output_gen_force_file>subject01_walk1_id.sto</output_gen_force_file>
      </InverseDynamicsTool>
    </OpenSimDocument>

Paths, as OpenSim 4.x resolves them (``InverseDynamicsTool::run`` works from the setup
file's folder): ``coordinates_file``, ``external_loads_file`` and ``results_directory`` are
relative to the setup file's folder, ``output_gen_force_file`` to the results directory, and
an ExternalLoads file's ``datafile`` to the ExternalLoads file's folder. ``model_file`` is
loaded before the tool moves to the setup's folder, so OpenSim reads it relative to the
current directory; urdf2dyn tries the setup's folder first and falls back to the current
directory (and says so). Absolute paths stay as written. An empty or ``Unassigned`` value is
absent, as in OpenSim.
"""
from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass, field

from ..._input_bytes import refuse_devices
from ...warn import report
from .setup_xml import double, read_setup_element, text as _text
from .windows import setup_path

__all__ = ["IDSetup", "SetupError", "read_id_setup", "osim_coordinate_order"]


class SetupError(ValueError):
    """A setup file that cannot be run as written (the message names the file and element)."""


@dataclass
class IDSetup:
    """An InverseDynamicsTool setup, paths resolved (None when the file leaves them out).

    path: the setup file; name: the tool's name; model_file, coordinates_file,
    external_loads_file, results_directory: paths; output: the generalized-force file
    (results_directory / output_gen_force_file); time_range (t0, t1) in s (-inf, inf by
    default); lowpass_hz: the coordinates' cutoff (None: no filter, OpenSim's -1);
    forces_to_exclude: the names as written (OpenSim's keywords All, Actuators, Muscles
    are case-insensitive); joints_to_report_body_forces: as written (not computed by
    urdf2dyn); loads_kinematics_file: the tool-level ``<external_loads_model_kinematics_file>``
    of an OpenSim 2 setup (before ExternalLoads held it), unread by OpenSim 4 and urdf2dyn
    but the user's file."""
    path: str
    name: str
    model_file: str | None
    coordinates_file: str | None
    external_loads_file: str | None
    results_directory: str
    output: str
    time_range: tuple = (-math.inf, math.inf)
    lowpass_hz: float | None = None
    forces_to_exclude: list = field(default_factory=list)
    joints_to_report_body_forces: list = field(default_factory=list)
    loads_kinematics_file: str | None = None

    @property
    def excludes_all(self):
        """``All`` among forces_to_exclude: OpenSim then also leaves out the external loads."""
        return any(f.upper() == "ALL" for f in self.forces_to_exclude)


def _number(path, tag, text):
    """<tag>'s number as OpenSim reads it, NaN included: the reader says what it means."""
    return double(text, f"{path}: <{tag}>", SetupError)


def read_id_setup(path, strict=False, need_model=True):
    """Read an OpenSim InverseDynamicsTool setup file.

    Parameters
    ----------
    path : str or os.PathLike
        The setup XML (an ``<OpenSimDocument>`` holding an ``<InverseDynamicsTool>`` first,
        or the tool element alone: OpenSim 4.6 reads the first element whatever its name).
    strict : bool
        Warnings (a model file found only relative to the current directory, body forces
        asked for) become SetupError.
    need_model : bool
        A model_file that cannot be found is an error (default); False when the caller
        brings its own model (model_file is then None if missing).

    Returns
    -------
    IDSetup

    Raises
    ------
    SetupError
        Naming the file and element: not well-formed XML, no <InverseDynamicsTool> first, no
        <coordinates_file>, a <time_range> that is not two numbers t0 <= t1, a cutoff that
        is not a number, a file that does not exist where OpenSim would look, or a file the
        run reads that is a device or a named pipe.
    """
    path = os.fspath(path)
    tool = read_setup_element(path, ("InverseDynamicsTool",), SetupError,
                              "inverse-dynamics setup", "ID")[1]
    base = os.path.dirname(os.path.abspath(path))

    def resolve(tag, text):
        return setup_path(text, path, tag, strict=strict, error=SetupError)

    def refuse_devices_in(tag, p, what):
        """A device or named pipe the run would read, refused naming the element (its
        open() would wait for a writer, or never end)."""
        refuse_devices(p, what, named=f"{path}: <{tag}>", error=SetupError)

    coords = _text(tool, "coordinates_file")
    if coords is None:
        raise SetupError(f"{path}: <coordinates_file> is missing or empty: name the .mot/.sto "
                         "file of coordinates (relative to the setup file's folder)")
    coords = resolve("coordinates_file", coords)
    if not os.path.exists(coords):
        raise SetupError(f"{path}: <coordinates_file> {coords} does not exist (OpenSim reads "
                         "it relative to the setup file's folder)")
    refuse_devices_in("coordinates_file", coords, "OpenSim table (.mot/.sto)")

    loads = _text(tool, "external_loads_file")
    if loads is not None:
        loads = resolve("external_loads_file", loads)
        if not os.path.exists(loads):
            raise SetupError(f"{path}: <external_loads_file> {loads} does not exist (OpenSim "
                             "reads it relative to the setup file's folder)")
        refuse_devices_in("external_loads_file", loads, "ExternalLoads")

    model = _text(tool, "model_file")
    if model is not None and not os.path.isabs(model):
        beside = resolve("model_file", model)
        here = os.path.relpath(beside, base)           # the name with this system's separators
        if os.path.exists(beside):
            model = beside
            if need_model:
                refuse_devices_in("model_file", model, "model")
        elif os.path.exists(here):
            report(f"{path}: <model_file> {model} is not beside the setup file; read from the "
                   f"current directory {os.getcwd()}, as OpenSim does", strict=strict,
                   error=SetupError)
            model = os.path.abspath(here)
        elif need_model:
            raise SetupError(f"{path}: <model_file> {model} exists neither in the setup file's "
                             f"folder {base} nor in the current directory")
        else:
            model = None

    t_range = (-math.inf, math.inf)
    text = _text(tool, "time_range")
    if text is not None:
        parts = text.split()
        if len(parts) != 2:
            raise SetupError(f"{path}: <time_range> is {text!r}: expected two numbers, the "
                             "first and last time in s")
        t0, t1 = (_number(path, "time_range", x) for x in parts)
        if math.isnan(t0) or math.isnan(t1) or t0 > t1:
            raise SetupError(f"{path}: <time_range> {t0:g} {t1:g}: expected t0 <= t1")
        t_range = (t0, t1)

    cutoff = None
    text = _text(tool, "lowpass_cutoff_frequency_for_coordinates")
    if text is not None:
        cutoff = _number(path, "lowpass_cutoff_frequency_for_coordinates", text)
        if math.isnan(cutoff):
            raise SetupError(f"{path}: <lowpass_cutoff_frequency_for_coordinates> is NaN; "
                             "use -1 for no filter")
        if cutoff < 0:
            cutoff = None                               # OpenSim: negative means no filter

    results = resolve("results_directory", _text(tool, "results_directory") or ".")
    out_name = _text(tool, "output_gen_force_file") or "inverse_dynamics.sto"
    excluded = (_text(tool, "forces_to_exclude") or "").split()
    joints = (_text(tool, "joints_to_report_body_forces") or "").split()
    if joints:
        report(f"{path}: <joints_to_report_body_forces> {' '.join(joints)}: the equivalent "
               "body forces at joints are not computed by urdf2dyn (only the generalized "
               "forces are written)", strict=strict, error=SetupError)
    return IDSetup(path=path, name=tool.get("name") or "", model_file=model,
                   coordinates_file=coords, external_loads_file=loads,
                   results_directory=results, output=setup_path(out_name, path, "output_gen_force_file", strict,
                                                    SetupError, folder=results),
                   time_range=t_range, lowpass_hz=cutoff, forces_to_exclude=excluded,
                   joints_to_report_body_forces=joints,
                   loads_kinematics_file=_tool_level_loads_kinematics(tool, path, strict))


def _tool_level_loads_kinematics(tool, path, strict):
    """The file an OpenSim 2 setup names in its tool-level (not ExternalLoads')
    ``<external_loads_model_kinematics_file>``, beside the setup file; None when empty.
    Nothing reads it, so a Windows path is no warning (nor, under strict, a refusal)."""
    text = _text(tool, "external_loads_model_kinematics_file")
    return None if text is None else setup_path(
        text, path, "external_loads_model_kinematics_file", strict, SetupError, read=False)


# ----------------------------------------------------------------------------- column order

def setup_model(path):
    """The .osim model a setup file names, as the core reads it (its warnings unsaid: a
    setup's model is read for what OpenSim's tool would do, not run), or None when path
    cannot be read as a model."""
    from ... import _core
    from ...model import load
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return load(os.fspath(path))
    except (_core.URDFError, OSError, ValueError):
        return None


def osim_coordinate_order(path):
    """The coordinate names of an .osim model in the order OpenSim's inverse-dynamics tool
    writes their generalized forces (the multibody tree order): ``model.multibody_order``
    of the model the core reads from path (OpenSim 4.6's
    ``getCoordinateNamesInMultibodyTreeOrder`` on every model of opensim-models' Models/
    folder). Returns [] when the file cannot be read as a model."""
    model = setup_model(path)
    return list(model.multibody_order) if model is not None else []
