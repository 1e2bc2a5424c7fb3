"""The trial's passes, one module each, each a function ``Trial -> Trial`` adding its typed
result (urdf2dyn.biomech.stages.trial):

=============  ======================================  ====================================
stage          reads                                   returns
=============  ======================================  ====================================
scale          settings.scale (a ScaleTool setup, a    the trial with the model scaled to
               static trial), the model                the subject; Scaled: its report
read           the source (coordinates file,           Motion: coordinates, units; IK
               Trajectory, DataFrame; C3D/.trc         solution, markers and plates of a
               markers through IK), the model          marker recording
kinematics     Motion                                  Kinematics: t, q, v, a (gaps,
                                                       filter, derivatives, time range)
loads          Motion, Kinematics, the loads' source   Loads: f_ext {link: (N, 6)},
                                                       reactions, where from
dynamics       Kinematics, Loads                       Dynamics: tau, root residuals (or
                                                       why none)
residuals      Kinematics, Loads, Dynamics             (when settings.residuals asks) new
                                                       Kinematics and Dynamics, and the
                                                       ResidualReduction
checks         every result                            Findings (warnings, notes)
=============  ======================================  ====================================

:data:`PASSES` is their order; urdf2dyn.biomech.pipeline.inverse_dynamics_trial runs them on a
:class:`Trial` made of the model, the motion and its :class:`TrialSettings`. How to add a
pass, a check or a load source: docs/layout.rst.
"""
import os

from ..._safe_files import guarding
from ..formats.opensim import external_loads_inputs
from .checks import CHECKS, checks
from .dynamics import dynamics
from .kinematics import kinematics
from .loads import loads
from .read import read
from .residuals import residuals
from .scale import scale
from .scale import scaling_inputs as _scaling_inputs
from .settings import (ExternalLoadsFile, ForcePlates, GroundReactions, MotionColumns, Scaling,
                       TrialSettings)
from .trial import Dynamics, Finding, Kinematics, Loads, Motion, Scaled, Trial

__all__ = ["PASSES", "run", "trial_inputs", "scale", "read", "kinematics", "loads", "dynamics",
           "residuals", "checks", "CHECKS", "Trial", "TrialSettings", "Motion", "Kinematics",
           "Loads", "Dynamics", "Finding", "Scaled", "Scaling", "GroundReactions",
           "ExternalLoadsFile", "ForcePlates", "MotionColumns"]

#: The passes of a trial, in order: scale (which does nothing unless the settings ask) goes
#: first, residuals (likewise) reduces the residuals after dynamics.
PASSES = (scale, read, kinematics, loads, dynamics, residuals, checks)


def run(model, source, settings=None, passes=PASSES) -> Trial:
    """The :class:`Trial` of ``source`` (a path, Trajectory or DataFrame) on ``model`` after
    ``passes`` (default every pass, in order). No file a pass writes (the scaled model) may
    be one the trial reads: the motion, its loads and mapping are inputs from the start (the
    scale pass runs before they are read)."""
    settings = TrialSettings() if settings is None else settings
    trial = Trial(model, source, settings)
    with guarding(trial_inputs(source, settings)):
        for stage in passes:
            trial = stage(trial)
    return trial


def trial_inputs(source, settings):
    """The files a trial reads that its settings name, as (what, path): the motion, its
    ground reactions or ExternalLoads file and the files that names (its data file and
    model kinematics file: formats.opensim.external_loads_inputs), the mapping, the
    IK setup and the model, marker and coordinate files it names (read or not, as
    OpenSim's), the scale setup and static trial, and when the scale setup is read already
    (Scaling.read) the files it names (the scale pass's scaling_inputs; else they are noted
    when the pass reads it)."""
    loads, ik = settings.loads, settings.ik
    named = [("motion", source), ("mapping", settings.mapping),
             ("ground-reaction", getattr(loads, "source", None)),
             ("ExternalLoads", getattr(loads, "path", None)),
             ("IK setup", ik.setup), ("IK setup's model", ik.model_file),
             ("IK setup's marker", ik.marker_file),
             ("IK setup's coordinate", ik.coordinate_file)]
    if isinstance(loads, ExternalLoadsFile):
        named += external_loads_inputs(loads.path, loads.loads)
    how = settings.scale
    if how is not None:
        named += [("scale setup", how.setup_path), ("static trial", how.static)]
        if how.setup_read is not None:
            named += _scaling_inputs(how, how.setup_read)
    return [(what, os.fspath(path)) for what, path in named
            if isinstance(path, (str, os.PathLike))]
