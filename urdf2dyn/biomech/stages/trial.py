"""The trial that flows through the stages, and what each stage adds to it.

A :class:`Trial` starts as a model, a motion (a path, a Trajectory or a DataFrame) and its
:class:`~urdf2dyn.biomech.stages.settings.TrialSettings`; each stage is a function
``Trial -> Trial`` that adds its typed result (``dataclasses.replace``) and leaves the others
as they are::

    scale       -> trial.model, trial.scaled  Scaled  the model scaled to the subject (if asked)
    read        -> trial.motion      Motion      the coordinates as read (or fitted to markers)
    kinematics  -> trial.kinematics  Kinematics  gaps filled, filtered, differentiated, cut
    loads       -> trial.loads       Loads       the external loads, whatever their source
    dynamics    -> trial.dynamics    Dynamics    generalized forces, root residuals
    residuals   -> trial.reduction   ResidualReduction   (when asked) new kinematics and
                                                     dynamics too
    checks      -> trial.findings    (Finding, ...)

A pass that changes the model (scaling, before) returns the trial with another ``model``; one
that changes the motion (residual reduction, after) returns new kinematics and dynamics. Every
warning a stage gives goes through :meth:`Trial.warn`: kept in the trial, and raised as a
MotionError under ``strict``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from ...warn import MotionError, report
from ..residuals import ResidualReduction
from .settings import TrialSettings

__all__ = ["Trial", "Scaled", "Motion", "Kinematics", "Loads", "Dynamics", "Finding", "need"]

T = TypeVar("T")


@dataclass(frozen=True)
class Scaled:
    """The scale pass's result: report (urdf2dyn.biomech.scale.ScaleReport: factors, marker
    pairs, the static trial's marker errors), text (the scaled model's .osim) and setup (the
    ScaleTool setup it followed)."""
    report: Any
    text: str
    setup: str


@dataclass(frozen=True)
class Motion:
    """The read stage's result. source: the motion's name (its path, or the type given);
    trajectory: the coordinates as read, the model's columns (SI units, not filled);
    units: how its angles were read; for a marker recording (C3D, .trc): ik (the
    urdf2dyn.markers.IKSolution of the frames fitted), markers (the measured Markers, model
    frame), plates (the C3D's force plates over those frames) and events (the C3D's, e.g.
    Foot Strike / Foot Off per side)."""
    source: str
    trajectory: Any
    units: str
    ik: Any = None
    markers: Any = None
    plates: Any = None
    events: tuple = ()


@dataclass(frozen=True)
class Kinematics:
    """The kinematics stage's result: t (N,), q (N, nq), v, a (N, nv) as used by the dynamics
    (filled, filtered, differentiated, in the time range); measured_t, measured_q: the
    coordinates over the whole recording with their gaps filled, before filter and time range
    (what the checks of units and limits read); filled_gaps: each gap filled, as text;
    derivatives: how v and a were found; filter_hz: the cutoff applied to the coordinates (None:
    none)."""
    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    measured_t: np.ndarray
    measured_q: np.ndarray
    filled_gaps: tuple[str, ...] = ()
    derivatives: str = ""
    filter_hz: float | None = None


@dataclass(frozen=True)
class Loads:
    """The loads stage's result, the same whatever the source: f_ext {link: (N, 6)} world
    wrenches about the origin at the kinematics' times (None: no loads); reactions: the ground
    reactions as a Trajectory (force, CoP, free moment per foot; None for an ExternalLoads
    file); source: where they came from (a path, "<motion> (force plates)", or None); kind:
    "ground reactions", "external loads", "force plates", "motion columns" or None;
    filled_gaps: gaps filled in the reactions; filtered: low-pass filtered like the
    coordinates."""
    f_ext: dict | None = None
    reactions: Any = None
    source: str | None = None
    kind: str | None = None
    filled_gaps: tuple[str, ...] = ()
    filtered: bool = False


@dataclass(frozen=True)
class Dynamics:
    """The dynamics stage's result: tau (N, nv) generalized forces (N·m, N); residuals: the root
    residuals (urdf2dyn.biomech.grf.Residuals about the root origin), or None with
    ``no_residuals`` saying why (a model whose root is neither free nor planar)."""
    tau: np.ndarray
    residuals: Any = None
    no_residuals: str | None = None


@dataclass(frozen=True)
class Finding:
    """What a check found: check (its name), message (names the file, columns or times and
    what to do) and severity: "warning" (reported as a urdf2dyn.Urdf2dynWarning, an error under
    strict) or "note" (kept in the result: e.g. a check that could not run, and why)."""
    check: str
    message: str
    severity: str = "warning"


@dataclass(frozen=True)
class Trial:
    """A trial on its way through the stages (see the module docstring)."""
    model: Any
    source: Any
    settings: TrialSettings = field(default_factory=TrialSettings)
    scaled: Scaled | None = None
    motion: Motion | None = None
    kinematics: Kinematics | None = None
    loads: Loads | None = None
    dynamics: Dynamics | None = None
    reduction: ResidualReduction | None = None
    findings: tuple[Finding, ...] = ()
    warnings: list[str] = field(default_factory=list, compare=False)

    @property
    def name(self) -> str:
        """The motion's name in messages: its path, or the type of what was given."""
        if isinstance(self.source, (str, os.PathLike)):
            return os.fspath(self.source)
        return type(self.source).__name__

    def warn(self, message: str) -> None:
        """Keep a warning in the trial and report it (an urdf2dyn.Urdf2dynWarning attributed
        to the caller outside urdf2dyn; a MotionError under strict)."""
        self.warnings.append(message)
        report(message, strict=self.settings.strict, error=MotionError, stacklevel=None)


def need(result: T | None, what: str) -> T:
    """An earlier stage's result, or a ValueError saying which is missing (a stage run before
    the ones it reads)."""
    if result is None:
        raise ValueError(f"this stage reads the trial's {what}, which an earlier pass adds: run "
                         "the passes in order (urdf2dyn.biomech.stages.PASSES)")
    return result
