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

from ...warn import MotionError, Urdf2dynWarning, missing_file
from .trial import Scaled, Trial

__all__ = ["scale"]

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
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        setup = read_scale_setup(how.setup, strict=strict)
        static = _static(how, setup, trial.settings.rotation, strict)
        settings = settings_from_setup(setup, trial.model, strict,
                                       **coordinate_file_reading(trial.settings.processing,
                                                                 static))
        if setup.marker_set_file:
            settings.marker_set = read_marker_set_file(setup.marker_set_file, trial.model,
                                                       strict)
        if how.mass is not None:
            settings.mass = how.mass
        result = scale_model(trial.model, static, settings, strict)
    for w in caught:                    # said where the trial says its warnings
        trial.warn(str(w.message))
    if how.output:
        result.write(how.output)
    return result.model, Scaled(result.report, result.text, os.fspath(how.setup))


def _static(how, setup, rotation, strict):
    """The static trial: ``how.static`` (a lab recording, turned by the trial's rotation) or
    the setup's marker file (read as OpenSim reads it, in the model's frame)."""
    from ..formats import read_markers
    if how.static is None:
        path = setup.scale_marker_file or setup.place_marker_file
        if path is None:
            raise ValueError(f"{setup.path}: the setup names no static trial (marker_file): "
                             "give one (urdf2dyn torques ... --static STATIC.c3d)")
        return read_markers(path, strict=strict)
    path = os.fspath(how.static)
    if not os.path.exists(path):
        raise MotionError(f"static (--static) {missing_file(path)} (the scaling's static "
                          "trial: give that .trc or .c3d recording, or leave static out to use "
                          f"the marker_file of {setup.path})")
    return read_markers(path, rotation, strict)
