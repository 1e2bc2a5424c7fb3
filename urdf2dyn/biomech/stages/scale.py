"""The scale pass: the generic model scaled to the subject before the trial is read (OpenSim's
ScaleTool, urdf2dyn.biomech.scale), when ``settings.scale`` asks for it.

It returns the trial with the scaled model (what every later pass reads) and the
:class:`~urdf2dyn.biomech.stages.trial.Scaled` result (the report, the scaled .osim). A model
scaled once with the same settings is reused for the next trials of a batch (run_trials)."""
from __future__ import annotations

import os
import warnings
import weakref
from dataclasses import replace
from typing import Any

from ..._safe_files import check_outputs, guarding, note_input, note_inputs
from ...warn import MotionError, Urdf2dynWarning, missing_file
from ..processing import LIBRARY_COLUMNS
from .settings import Scaling, read_setup
from .trial import Scaled, Trial

__all__ = ["scale", "scaling_inputs", "OUTPUT_ARGUMENT"]

#: How the scaled model's destination is named in messages: the library's argument.
OUTPUT_ARGUMENT = "settings.scale.output"

# model -> {Scaling: (scaled model, Scaled)}: a batch's trials share one scaling
_done: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def scale(trial: Trial) -> Trial:
    """The trial with its model scaled as ``trial.settings.scale`` says (unchanged without)."""
    how = trial.settings.scale
    if how is None:
        return trial
    known = _done.get(trial.model, {}).get(how)
    if known is None:
        known = _scale(trial, how)
        _done.setdefault(trial.model, {})[how] = known
    model, scaled = known
    return replace(trial, model=model, scaled=scaled)


def _scale(trial, how):
    from ..formats.scale_setup import read_scale_setup
    from ..scale import (coordinate_file_reading, read_marker_set_file, require_opensim,
                         scale as scale_model, settings_from_setup)
    strict = trial.settings.strict
    require_opensim(trial.model)
    # guarded on its own too (a stage may run alone): the scaled model is never written over
    # a file the scaling or the trial reads
    with guarding():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", Urdf2dynWarning)
            note_input(how.setup_path, "scale setup")
            setup = read_setup(how.setup, read_scale_setup, strict)
            note_inputs(scaling_inputs(how, setup))     # no output over one
            check_outputs([(OUTPUT_ARGUMENT, how.output)])      # before any work
            static = _static(how, setup, trial.settings.rotation, strict,
                             trial.settings.columns_named)
            settings = settings_from_setup(setup, trial.model, strict,
                                           **coordinate_file_reading(trial.settings.processing,
                                                                     static))
            if setup.marker_set_file:
                settings.marker_set = read_marker_set_file(setup.marker_set_file, trial.model,
                                                           strict)
            if how.mass is not None:
                settings.mass = how.mass
            result = scale_model(trial.model, static, settings, strict)
        for w in caught:                # said where the trial says its warnings
            trial.warn(str(w.message))
        if how.output:
            result.write(how.output)
    return result.model, Scaled(result.report, result.text, how.setup_path)


def scaling_inputs(how: Scaling, setup: Any) -> list[tuple[str, str | None]]:
    """The files a trial's scaling how reads, as (what, path): those its scale setup (read
    already) names, as the scaling's own run lists them (urdf2dyn.biomech.scale.setup_inputs:
    its model, marker set, static trials and coordinate file, each an input whether or not
    read: the trial scales its own model, and ``how.static`` replaces the setup's static
    trial), and ``how.static``. Not biomech.scale.setup_inputs(setup), which it extends."""
    from ..scale import setup_inputs as named_by_the_setup
    return named_by_the_setup(setup) + [("static trial", how.static)]


def _static(how, setup, rotation, strict, named=LIBRARY_COLUMNS):
    """The static trial: ``how.static`` (a lab recording, turned by the trial's rotation) or
    the setup's marker file (read as OpenSim reads it, in the model's frame); named: the
    caller's options, as a refusal advises them (ColumnOptions)."""
    from ..formats import read_markers
    if how.static is None:
        path = setup.scale_marker_file or setup.place_marker_file
        if path is None:
            give = named.said("static", " ({})", "STATIC.c3d")
            raise ValueError(f"{setup.path}: the setup names no static trial (marker_file): "
                             f"give one{give or ' in the setup'}")
        return read_markers(path, strict=strict)
    path = os.fspath(how.static)
    if not os.path.exists(path):
        # the command line refuses a missing --static first: a library caller's Scaling
        raise MotionError(f"Scaling's static {missing_file(path)} (the scaling's static "
                          "trial: give that .trc or .c3d recording, or leave static out to use "
                          f"the marker_file of {setup.path})")
    return read_markers(path, rotation, strict)
