"""OpenSim 4.6 reading an RRA setup's files, as the oracle of urdf2dyn's readers
(tests/biomech/test_rra_setup.py).

Each setup is read in a fresh process: OpenSim registers a file's ``<defaults>`` entries as
the default objects of their types for the rest of the process (an old ActuatorSet's Force
default makes every later PointActuator global), so what one file says depends on the files
read before it. A fresh process reads them as an RRA run does: the setup, its force sets,
then its task set.
"""
from __future__ import annotations

import json
import subprocess
import sys

_SCRIPT = r'''
import json, os, sys
import opensim as osim
osim.Logger.setLevelString("off")
setup, = sys.argv[1:]
tool = osim.RRATool(setup, False)
files = tool.getForceSetFiles()
here = os.path.dirname(setup)
out = {"name": tool.getName(), "initial_time": tool.getInitialTime(),
       "final_time": tool.getFinalTime(), "lowpass": tool.getLowpassCutoffFrequency(),
       "adjust_com": tool.getAdjustCOMToReduceResiduals(),
       "com_body": tool.getAdjustedCOMBody().strip(), "replace": tool.getReplaceForceSet(),
       "precision": tool.getOutputPrecision(), "model": tool.getModelFilename(),
       "kinematics": tool.getDesiredKinematicsFileName(), "tasks": tool.getTaskSetFileName(),
       "loads": tool.getExternalLoadsFileName(), "results": tool.getResultsDir(),
       "output_model": tool.getOutputModelFileName(),
       "constraints": tool.getConstraintsFileName(),
       "force_sets": [files.get(k) for k in range(files.getSize())], "actuators": [],
       "task_list": [], "analyses": tool.getAnalysisSet().getSize(),
       "controllers": tool.getControllerSet().getSize()}
for name in out["force_sets"]:
    fs = osim.ForceSet(os.path.join(here, name.strip()))
    for k in range(fs.getSize()):
        x = fs.get(k)
        kind = x.getConcreteClassName()
        a = {"name": x.getName(), "class": kind}
        if kind == "PointActuator":
            p = osim.PointActuator.safeDownCast(x)
            a.update(body=p.get_body(), point=list(p.get_point().to_numpy()),
                     direction=list(p.get_direction().to_numpy()),
                     point_is_global=p.get_point_is_global(),
                     force_is_global=p.get_force_is_global(), optimal_force=p.get_optimal_force())
        elif kind == "TorqueActuator":
            p = osim.TorqueActuator.safeDownCast(x)
            a.update(body=p.get_bodyA(), body_b=p.get_bodyB(), axis=list(p.get_axis().to_numpy()),
                     torque_is_global=p.get_torque_is_global(), optimal_force=p.get_optimal_force())
        elif kind == "CoordinateActuator":
            p = osim.CoordinateActuator.safeDownCast(x)
            a.update(coordinate=p.get_coordinate(), optimal_force=p.get_optimal_force())
        out["actuators"].append(a)
ts = osim.CMC_TaskSet(os.path.join(here, out["tasks"].strip()))
for k in range(ts.getSize()):
    j = osim.CMC_Joint.safeDownCast(ts.get(k))
    out["task_list"].append({"name": j.getName(), "coordinate": j.getCoordinateName(),
                             "weight": j.getWeight(0), "active": j.getActive(0) and j.getOn()})
print(json.dumps(out))
'''


def _run_in_a_fresh_process(script, setup):
    """What script prints last (JSON), run on the setup by this Python in a new process: the
    OpenSim objects of one run never meet another's."""
    done = subprocess.run([sys.executable, "-c", script, setup], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def opensim_reads(setup):
    """What OpenSim reads from an RRA setup, its force sets and its task set (a dict; the
    names as written, relative to the setup's folder), in a fresh process."""
    return _run_in_a_fresh_process(_SCRIPT, setup)


_CONTROLS = r'''
import json, sys
import opensim as osim
osim.Logger.setLevelString("off")
tool = osim.RRATool(sys.argv[1], False)
held = tool.getControllerSet()
print(json.dumps([held.get(k).getPropertyByName("controls_file").toString().strip()
                  for k in range(held.getSize())
                  if held.get(k).getConcreteClassName() == "ControlSetController"]))
'''


def opensim_controls_files(setup):
    """The controls_file of each ControlSetController OpenSim 4.6's RRATool holds in its
    ControllerSet after reading the setup (as written), in a fresh process."""
    return _run_in_a_fresh_process(_CONTROLS, setup)


_REFUSES = r'''
import json, sys
import opensim as osim
osim.Logger.setLevelString("off")
try:
    osim.RRATool(sys.argv[1], False)
    print(json.dumps(None))
except Exception as e:
    print(json.dumps(str(e)))
'''


def opensim_refusal(setup):
    """What OpenSim 4.6's RRATool says refusing to read the setup (None: it reads it), in a
    fresh process."""
    return _run_in_a_fresh_process(_REFUSES, setup)


_NAMED = r'''
import json, sys
import opensim as osim
osim.Logger.setLevelString("off")
tool = osim.RRATool(sys.argv[1], False)
print(json.dumps([tool.getName(), tool.getFinalTime()]))
'''


def opensim_name_and_final_time(setup):
    """[name, final_time] of the tool OpenSim 4.6's RRATool reads from the setup (without
    opening the files it names), in a fresh process."""
    return _run_in_a_fresh_process(_NAMED, setup)


_MODEL_FORCES = r'''
import json, sys
import opensim as osim
osim.Logger.setLevelString("off")
model = osim.RRATool(sys.argv[1], True).getModel()
print(json.dumps([model.getForceSet().get(k).getName()
                  for k in range(model.getForceSet().getSize())]))
'''


def opensim_model_forces(setup):
    """The names of the forces in the model OpenSim 4.6's RRATool builds from the setup (its
    model file with the setup's force set files added or put in place, as its run uses
    it), in a fresh process."""
    return _run_in_a_fresh_process(_MODEL_FORCES, setup)


_RUN = r'''
import json, os, sys
import opensim as osim
osim.Logger.setLevelString("off")
setup, = sys.argv[1:]
os.chdir(os.path.dirname(setup))
print(json.dumps(bool(osim.RRATool(os.path.basename(setup)).run())))
'''


def opensim_runs(setup):
    """Whether OpenSim 4.6's RRATool runs the setup (its results written where the setup
    says, relative to its folder), in a fresh process."""
    return _run_in_a_fresh_process(_RUN, setup)
