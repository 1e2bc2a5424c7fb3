"""A trial's settings: everything that says how a recording becomes torques, in one frozen,
printable, comparable value (``dataclasses.replace`` makes a variant).

What an OpenSim ``Setup_ID.xml`` (:meth:`TrialSettings.from_id_setup`) and ``Setup_IK.xml``
(:meth:`TrialSettings.from_ik_setup`), the command line's options (urdf2dyn.cli.torques) and a
notebook's keywords (:meth:`TrialSettings.from_keywords`, what ``inverse_dynamics_trial(...,
filter_hz=15)`` calls) describe. The data are not in it: the model and the motion are the
trial's inputs, the loads' source is named here (a file, or the recording's own plates or
columns).

OpenSim's processing is one value of :attr:`TrialSettings.processing`: an object whose column
rule, kinematics and loads steps are OpenSim's (urdf2dyn.biomech.opensim_processing.
OpenSimProcessing) instead of urdf2dyn's (urdf2dyn.biomech.processing.Urdf2dynProcessing); the
stages ask it, they never test its name.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..._input_bytes import refuse_devices
from ...warn import missing_file
from ..formats.ik_setup import IKSetup, read_ik_setup
from ..formats.opensim_setup import IDSetup
from ..ik import IKSettings
from ..markers import rotation_matrix
from ..opensim_processing import PROCESSINGS, processing_named
from ..processing import (DEFAULT_DERIVATIVES, DEFAULT_MAX_GAP, LIBRARY_COLUMNS, ColumnOptions,
                          CutoffNamed)
from ..residuals import ResidualSettings

__all__ = ["TrialSettings", "ColumnOptions", "LIBRARY_COLUMNS", "GroundReactions",
           "ExternalLoadsFile", "ForcePlates", "MotionColumns", "Scaling", "PROCESSINGS",
           "PLATE_RATES", "DEFAULT_DERIVATIVES", "processing_named", "read_setup"]

# ----------------------------------------------------------------------------- the loads' source

@dataclass(frozen=True, eq=False)
class GroundReactions:
    """Ground reactions per foot from a file (any motion format: ``grfX_K .. copX_K ..
    momX_K`` or OpenSim's ``ground_force_*`` columns; urdf2dyn.biomech.grf.read_grf), or from a
    Trajectory read already (compared by identity)."""
    source: Any

    def __eq__(self, other):
        if not isinstance(other, GroundReactions):
            return NotImplemented
        a, b = self.source, other.source
        return a is b or (_is_path(a) and _is_path(b) and os.fspath(a) == os.fspath(b))

    def __hash__(self):
        return hash(os.fspath(self.source)) if _is_path(self.source) else id(self.source)


@dataclass(frozen=True)
class ExternalLoadsFile:
    """An OpenSim ExternalLoads XML file: which forces act on which bodies, in which frames,
    from which data file (urdf2dyn.biomech.formats.read_external_loads). ``loads``: the file
    read already (as :meth:`read` gives, and the settings built from keywords or an ID setup
    hold): its data file is then among the trial's inputs before any work
    (stages.trial_inputs), and the loads pass does not read it again. Two are equal when
    they name the same file, read or not."""
    path: str
    loads: Any = field(default=None, compare=False, repr=False)

    def read(self) -> ExternalLoadsFile:
        """This file read (once: the XML and its data file), as the loads pass uses it."""
        if self.loads is not None:
            return self
        from ..formats.opensim import read_external_loads
        return replace(self, loads=read_external_loads(self.path))

    @property
    def datafile(self) -> str | None:
        """The data file it names (resolved beside it), when read; else None."""
        return None if self.loads is None else self.loads.datafile


@dataclass(frozen=True)
class ForcePlates:
    """The force plates of a C3D recording, each contact applied to the foot standing on it
    (urdf2dyn.biomech.plates)."""


@dataclass(frozen=True)
class MotionColumns:
    """The ground-reaction columns of the motion file itself."""


LOAD_SOURCES = (GroundReactions, ExternalLoadsFile, ForcePlates, MotionColumns)

#: How a C3D's force plates enter a trial (TrialSettings.plate_rate).
PLATE_RATES = ("analog", "marker")


# ----------------------------------------------------------------------------- scaling first

def read_setup(setup: Any, read: Any, strict: bool = False) -> Any:
    """An OpenSim setup read once: ``setup`` itself when it is read already (an object with
    its ``path``), else ``read(setup, strict=strict)``, its warnings said now. What the
    settings keep (an IK setup's names, a Scaling's setup), so the files it names are known
    before the trial runs (no output may replace one) and no pass reads it a second time."""
    if setup is None or _is_path(setup):
        return None if setup is None else read(setup, strict=strict)
    return setup


@dataclass(frozen=True, eq=False)
class Scaling:
    """Scale the model to the subject before the trial (the scale pass,
    urdf2dyn.biomech.scale): an OpenSim ScaleTool ``setup`` (its measurements, manual scales,
    marker set file and marker placement; its path, or the ScaleSetup read already, as
    :meth:`read` gives), ``static`` the static trial instead of the setup's (a .trc or C3D
    recorded in the trial's lab: turned by the trial's ``rotation``), ``mass`` the subject's
    (kg) instead of the setup's, ``output`` where to write the scaled .osim. Two are equal when
    they name the same setup file and the same static trial, mass and output."""
    setup: Any
    static: str | None = None
    mass: float | None = None
    output: str | None = None

    @property
    def setup_path(self) -> str:
        """The setup's file, whether ``setup`` is its path or the setup read."""
        return os.fspath(getattr(self.setup, "path", self.setup))

    @property
    def setup_read(self) -> Any:
        """The ScaleSetup when read already (:meth:`read`), else None."""
        return None if _is_path(self.setup) else self.setup

    def read(self, strict: bool = False) -> Scaling:
        """These settings with the setup read (once, its warnings said now): the files it
        names are then among the trial's inputs (stages.trial_inputs) before any work, and
        the scale pass does not read it again."""
        from ..formats.scale_setup import read_scale_setup
        return replace(self, setup=read_setup(self.setup, read_scale_setup, strict))

    def _key(self):
        return (self.setup_path, self.static, self.mass, self.output)

    def __eq__(self, other):
        if not isinstance(other, Scaling):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        """The setup by its file (read or not: the same settings), then the other fields."""
        setup = (repr(self.setup_path) if self.setup_read is None
                 else f"<ScaleSetup read from {self.setup_path!r}>")
        return (f"Scaling(setup={setup}, static={self.static!r}, mass={self.mass!r}, "
                f"output={self.output!r})")


def _external_loads_read(path: str) -> ExternalLoadsFile:
    """``external_loads=path`` read once (ExternalLoadsFile.read): a path that names no file
    is refused naming the keyword (the command line checks its option's file before); a file
    that is no ExternalLoads document by its reader, naming the file and element."""
    refuse_devices(path, "ExternalLoads", named="external_loads")
    if not os.path.isfile(path):
        said = f"{path}: not a file" if os.path.exists(path) else missing_file(path)
        raise ValueError(f"external_loads: {said}; give the OpenSim ExternalLoads XML file")
    return ExternalLoadsFile(path).read()


def _residual_settings(x):
    """reduce_residuals as a ResidualSettings (or None)."""
    if x is None or x is False:
        return None
    if x is True:
        return ResidualSettings()
    if isinstance(x, ResidualSettings):
        return x
    if isinstance(x, dict):
        return ResidualSettings(**x)
    raise TypeError(f"reduce_residuals: expected True, False, a dict of "
                    f"urdf2dyn.biomech.residuals.ResidualSettings' fields or one, got {x!r}")


def _is_path(x):
    return isinstance(x, (str, os.PathLike))


def _pairs(name, x, expected):
    """A dict of names as a sorted tuple of pairs (hashable, comparable); a path or None as
    given; anything else refused, naming the field."""
    if x is None or _is_path(x):
        return x
    try:
        pairs = tuple(sorted(dict(x).items()))
    except (TypeError, ValueError):
        pairs = None
    if pairs is None or not all(isinstance(k, str) and isinstance(v, str) for k, v in pairs):
        raise TypeError(f"{name}: expected {expected}, got {x!r}")
    return pairs


# ----------------------------------------------------------------------------- the settings

#: a trial's filter_hz, as a refusal of it names it (after the trial's file)
TRIAL_FILTER = CutoffNamed("filter_hz")


@dataclass(frozen=True)
class TrialSettings:
    """How one trial is processed. Every field has the default urdf2dyn documents.

    Attributes
    ----------
    processing : Urdf2dynProcessing or OpenSimProcessing (or their names)
        urdf2dyn's steps (default) or OpenSim's InverseDynamicsTool exactly (its padded IIR
        filter, natural quintic splines, cubic splines of the ExternalLoads data, its rows,
        its column rule; see urdf2dyn.biomech.opensim_processing).
    filter_hz : float, optional
        Low-pass cutoff of the coordinates (urdf2dyn: zero-lag 4th-order Butterworth, needs
        SciPy; OpenSim: its ``lowpass_cutoff_frequency_for_coordinates``). None: no filter.
    filter_loads : bool
        Filter the ground reactions at the same cutoff (urdf2dyn's processing only).
    derivatives : {"gradient", "savgol", "spline", "opensim"}
        How velocities and accelerations are estimated when the file has none (urdf2dyn's
        processing; urdf2dyn.biomech.processing.estimate_derivatives).
    time_range : (t0, t1), optional
        The samples kept (s); the filter and derivatives see the whole trial first.
    max_gap : int
        Longest run of missing samples filled; longer gaps stop the trial.
    loads : GroundReactions, ExternalLoadsFile, ForcePlates, MotionColumns or None
        Where the external loads come from; None: what the recording carries (a C3D's plates,
        or the motion file's ground-reaction columns), else none.
    contacts : ((key, link), ...), optional
        The link of each ground reaction (default urdf2dyn.biomech.grf.contact_links).
    mapping : ((file name, model name), ...) or path, optional
        Renames the file's coordinates (urdf2dyn.biomech.trajectory.load_mapping).
    degrees : bool, optional
        The CSV file's angles are in degrees.
    rotation : str or ((3,), (3,), (3,)), optional
        The lab to model frame rotation of a marker recording (e.g. "x:-90").
    ik : urdf2dyn.biomech.ik.IKSettings
        The inverse kinematics of a marker recording (threads; a Setup_IK.xml's marker
        weights, coordinate tasks and time range).
    plate_threshold : float, optional
        A C3D's plates' contact threshold, N (default 20).
    plate_rate : {"analog", "marker"}
        How a C3D's plates enter the trial: "analog" (default) at their own rate, each
        contact's samples evaluated at the motion's times as the processing says (OpenSim's:
        the natural cubic spline of each load column, as its inverse-dynamics tool evaluates
        an ExternalLoads data file; urdf2dyn's: the wrenches low-pass filtered at the analog
        rate with the coordinates' cutoff, then sampled); "marker": each marker frame's mean
        of its analog samples (urdf2dyn before issue 27).
    delimiter, decimal : str, optional
        Of CSV motion and ground-reaction files (default: detected).
    residuals : urdf2dyn.biomech.residuals.ResidualSettings, optional
        Reduce the root residuals after the dynamics (the residuals pass: kinematic
        corrections, and with a com_body the total mass and that body's mass centre); None:
        not (the keyword ``reduce_residuals=True`` asks with the defaults).
    strict : bool
        Every warning becomes a MotionError.
    checks : bool
        Run the plausibility checks (urdf2dyn.biomech.stages.checks).
    scale : Scaling, optional
        Scale the model to the subject first (the scale pass); None: the model as given.
    filter_named : urdf2dyn.biomech.processing.CutoffNamed
        Who gave filter_hz, as a refusal of it says (the trial's file and filter_hz by
        default; the command line's --filter, a setup's element in its file).
    columns_named : ColumnOptions
        The options a refusal of the motion's columns advises (the library's keywords by
        default; a command's own flags, none where it has none).
    """
    processing: Any = PROCESSINGS["urdf2dyn"]
    filter_hz: float | None = None
    filter_loads: bool = True
    derivatives: str = DEFAULT_DERIVATIVES
    time_range: tuple[float, float] | None = None
    max_gap: int = DEFAULT_MAX_GAP
    loads: Any = None
    contacts: Any = None
    mapping: Any = None
    degrees: bool = False
    rotation: Any = None
    ik: IKSettings = field(default_factory=IKSettings)
    plate_threshold: float | None = None
    plate_rate: str = "analog"
    delimiter: str | None = None
    decimal: str | None = None
    residuals: ResidualSettings | None = None
    strict: bool = False
    checks: bool = True
    scale: Scaling | None = None
    filter_named: CutoffNamed = TRIAL_FILTER
    columns_named: ColumnOptions = LIBRARY_COLUMNS

    def __post_init__(self):
        """Names given as text become the objects they name; dicts become sorted pairs (the
        settings stay hashable); a value of the wrong kind is refused, naming the field."""
        processing = self.processing
        if isinstance(processing, str) and processing in PROCESSINGS:
            processing = PROCESSINGS[processing]
        elif not isinstance(processing, tuple(type(p) for p in PROCESSINGS.values())):
            raise ValueError(f"processing: expected 'urdf2dyn' or 'opensim', got "
                             f"{processing!r}")
        time_range = self.time_range
        if time_range is not None:
            try:
                t0, t1 = (float(x) for x in time_range)
            except (TypeError, ValueError):
                raise ValueError(f"time_range: expected (t0, t1) in seconds, got "
                                 f"{time_range!r}") from None
            if not t0 <= t1:
                raise ValueError(f"time_range: expected t0 <= t1, got {t0:g} {t1:g}")
            time_range = (t0, t1)
        rotation = self.rotation
        if rotation is not None:
            try:
                matrix = rotation_matrix(rotation)
            except (TypeError, ValueError) as e:
                text = str(e)
                raise ValueError(text if text.startswith("rotation") else
                                 f"rotation: {text}") from None
            if not isinstance(rotation, str):
                rotation = tuple(tuple(float(x) for x in row) for row in matrix)
        if self.plate_rate not in PLATE_RATES:
            raise ValueError(f"plate_rate: expected one of {PLATE_RATES}, got "
                             f"{self.plate_rate!r}")
        if self.loads is not None and not isinstance(self.loads, LOAD_SOURCES):
            raise TypeError(f"loads: expected one of {[c.__name__ for c in LOAD_SOURCES]} or "
                            f"None, got {self.loads!r}")
        if self.ik is not None and not isinstance(self.ik, IKSettings):
            raise TypeError(f"ik: expected urdf2dyn.biomech.ik.IKSettings, got {self.ik!r}")
        if not isinstance(self.filter_named, CutoffNamed):
            raise TypeError(f"filter_named: expected urdf2dyn.biomech.processing.CutoffNamed, "
                            f"got {self.filter_named!r}")
        if self.residuals is not None and not isinstance(self.residuals, ResidualSettings):
            raise TypeError(f"residuals: expected urdf2dyn.biomech.residuals.ResidualSettings "
                            f"or None, got {self.residuals!r}")
        for name, value in (("processing", processing), ("time_range", time_range),
                            ("rotation", rotation),
                            ("contacts", _pairs("contacts", self.contacts,
                                                "a dict {ground-reaction key: link}")),
                            ("mapping", _pairs("mapping", self.mapping,
                                               "a dict {file name: model name} or a file")),
                            ("degrees", bool(self.degrees)),
                            ("filter_loads", bool(self.filter_loads)),
                            ("strict", bool(self.strict)), ("checks", bool(self.checks))):
            object.__setattr__(self, name, value)

    # --- what the stages read -------------------------------------------------------------
    @property
    def contact_links(self) -> dict[str, str] | None:
        """contacts as a dict {ground-reaction key: link}, or None."""
        return None if self.contacts is None else dict(self.contacts)

    @property
    def mapping_given(self) -> dict[str, str] | str | None:
        """mapping as the readers take it: a dict, a path, or None."""
        m = self.mapping
        return m if m is None or _is_path(m) else dict(m)

    @property
    def csv_options(self) -> dict[str, Any]:
        """delimiter and decimal as the CSV readers' keywords (only those given), and how
        their refusals name them (columns_named)."""
        return {"named": self.columns_named, **{
            k: x for k, x in (("delimiter", self.delimiter), ("decimal", self.decimal))
            if x is not None}}

    def filter_named_in(self, file: str) -> CutoffNamed:
        """Who gave filter_hz, as a refusal of it says: filter_named, said in the file the
        cut-off applies to (the trial's motion, its loads), unless it names the file that
        holds it (a setup)."""
        named = self.filter_named
        return named if named.file is not None else named._replace(file=str(file))

    # --- the ways to build it ---------------------------------------------------------------
    #: inverse_dynamics_trial's keywords that are not fields (from_keywords turns them into
    #: loads, checks, ik and residuals)
    KEYWORDS = ("grf", "external_loads", "checks_enabled", "ik_threads", "ik_setup",
                "reduce_residuals")

    @classmethod
    def from_keywords(cls, settings: TrialSettings | None = None, **keywords: Any
                      ) -> TrialSettings:
        """The settings that inverse_dynamics_trial's keywords describe, over ``settings``
        (default: urdf2dyn's defaults): the fields by name, and ``grf`` (a ground-reaction
        file or Trajectory), ``external_loads`` (an ExternalLoads file, read here: its data
        file is known before any work), ``checks_enabled``,
        ``ik_threads``, ``ik_setup`` (a Setup_IK.xml, read here) and ``reduce_residuals``
        (True, a ResidualSettings, or a dict of its fields such as ``{"com_body": "torso"}``).
        A filter_hz given without filter_named is named filter_hz, whoever gave settings'.
        Raises TypeError for an unknown keyword, ValueError for values that contradict each
        other."""
        base = cls() if settings is None else settings
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(keywords) - names - set(cls.KEYWORDS))
        if unknown:
            raise TypeError(f"inverse_dynamics_trial() got an unexpected keyword argument "
                            f"{unknown[0]!r}")
        grf = keywords.pop("grf", None)
        external = keywords.pop("external_loads", None)
        if grf is not None and (external is not None or (
                isinstance(base.loads, ExternalLoadsFile) and "loads" not in keywords)):
            raise ValueError("give either grf (ground reactions) or external_loads (an OpenSim "
                             "ExternalLoads file), not both")
        if grf is not None:
            keywords["loads"] = GroundReactions(grf)
        elif external is not None:
            if not _is_path(external):
                raise TypeError(f"external_loads: expected the path of an OpenSim ExternalLoads "
                                f"file, got {external!r}")
            keywords["loads"] = _external_loads_read(os.fspath(external))
        if "filter_hz" in keywords:
            # a cut-off given here is the caller's, not whoever gave base's (a setup's)
            keywords.setdefault("filter_named", TRIAL_FILTER)
        if "checks_enabled" in keywords:
            keywords["checks"] = keywords.pop("checks_enabled")
        if "reduce_residuals" in keywords:
            keywords["residuals"] = _residual_settings(keywords.pop("reduce_residuals"))
        ik = base.ik
        threads = keywords.pop("ik_threads", None)
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or threads < 1):
            raise ValueError(f"ik_threads: expected a whole number >= 1, got {threads!r}")
        setup = keywords.pop("ik_setup", None)
        if setup is not None:
            strict = keywords.get("strict", base.strict)
            ik = IKSettings.from_setup(read_setup(setup, read_ik_setup, strict), ik.threads)
        if threads is not None:
            ik = replace(ik, threads=threads)
        keywords["ik"] = ik
        return replace(base, **keywords)

    @classmethod
    def from_id_setup(cls, setup: IDSetup, time_range: tuple[float, float] | None = None,
                      strict: bool = False, **keywords: Any) -> TrialSettings:
        """The settings an OpenSim InverseDynamicsTool setup describes: OpenSim's processing,
        its cutoff, time range (or ``time_range``) and ExternalLoads file (read here; none
        when ``<forces_to_exclude>`` holds All, as in OpenSim); keywords as :meth:`from_keywords`
        (contacts, max_gap, checks_enabled, ...)."""
        loads = setup.external_loads_file
        if setup.excludes_all:
            loads = None
        named = CutoffNamed("<lowpass_cutoff_frequency_for_coordinates>", "-1 for no filter",
                            setup.path)
        settings = cls(processing="opensim", filter_hz=setup.lowpass_hz, filter_named=named,
                       time_range=time_range or setup.time_range, strict=strict,
                       loads=None if loads is None else ExternalLoadsFile(loads).read())
        return cls.from_keywords(settings, **keywords)

    @classmethod
    def from_ik_setup(cls, setup: IKSetup, threads: int | None = 1,
                      **keywords: Any) -> TrialSettings:
        """The settings an OpenSim InverseKinematicsTool setup describes (its marker weights,
        coordinate tasks and time range), keywords as :meth:`from_keywords`."""
        return cls.from_keywords(cls(ik=IKSettings.from_setup(setup, threads)), **keywords)

