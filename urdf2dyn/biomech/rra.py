"""OpenSim's residual reduction (RRA) from its setup file, by urdf2dyn's method.

    result = urdf2dyn.biomech.rra.run_rra("subject01_Setup_RRA.xml")
    print(result.summary)

:func:`run_rra` reads an RRA setup unchanged (urdf2dyn.biomech.formats.rra_setup), prepares
the desired kinematics as OpenSim's tools do, reduces the residuals
(urdf2dyn.biomech.residuals.reduce_residuals) and writes what OpenSim's RRA writes, under
its names, in ``results_directory``:

* ``<name>_Kinematics_q.sto``, ``_Kinematics_u.sto``, ``_Kinematics_dudt.sto``: the adjusted
  coordinates, speeds and accelerations (rotational ones in degrees, as OpenSim writes them);
* ``<name>_Actuation_force.sto``: every actuator's force, one column per actuator of the
  setup's force sets (the residuals FX .. MZ and the reserve actuators);
* ``<name>_avgResiduals.txt``: the mean of each residual, as OpenSim writes it;
* ``<name>_summary.txt``: residuals before and after against OpenSim's bands, the mass
  change recommended (OpenSim's rule) and applied, the centre-of-mass shift and each
  coordinate's change from the desired kinematics;

and, when the setup asks for the centre-of-mass adjustment, the adjusted model at
``output_model_file`` (total mass and the body's centre of mass written in).

What differs from OpenSim's RRA, by design:

* the method: one least-squares fit over the whole time range instead of a tracking
  simulation (see urdf2dyn.biomech.residuals); the total mass change is applied, not only
  recommended; without the centre-of-mass adjustment, the model is not changed at all
  (neither mass nor centre of mass) and no model is written, as in OpenSim;
* the desired kinematics are filtered as OpenSim's inverse-dynamics tool filters them
  (padded 3rd-order IIR Butterworth, urdf2dyn.biomech.opensim_processing), where OpenSim's
  RRA pads 60 samples and uses a 50th-order FIR filter; both are zero-lag low-pass filters at
  the setup's cutoff. Their natural quintic splines are sampled every 1 ms from
  ``initial_time`` to ``final_time`` (OpenSim's RRA writes every ~1 ms up to final_time - 1 ms);
* numbers are written with 17 significant digits whatever ``output_precision`` says, so that
  a tool differentiating the coordinates again (OpenSim's inverse dynamics) finds the same
  accelerations.
"""
from __future__ import annotations

import math
import os
import time as _time
from dataclasses import dataclass, field

import numpy as np

from .._safe_files import refuse_overwriting_inputs, replacing
from ..warn import counted, report, shown
from .formats._cells import refuse_unwritable_names
from .formats.opensim import (_write_sto, external_loads_inputs, read_external_loads,
                               read_opensim)
from .formats.rra_setup import (RRASetup, RRASetupError, check_com_body, point_tasks,
                                read_actuators, read_rra_setup, read_tasks)
from .opensim_processing import OpenSimProcessing
from .processing import CutoffNamed
from .residuals import BANDS, ResidualReduction, com_body_refusal, reduce_residuals
from .splines import quintic_eval
from .trajectory import MotionError, Trajectory, angle_columns

__all__ = ["RRAResult", "run_rra", "setup_inputs", "result_files"]

#: The rate the results are sampled at, Hz (OpenSim's RRA writes at about 1 kHz).
SAMPLE_RATE = 1000.0
_EXACT = "{:.17g}"


@dataclass
class RRAResult:
    """What :func:`run_rra` did: setup (RRASetup), model (the model reduced, before its
    changes), reduction (urdf2dyn.biomech.residuals.ResidualReduction), files {kind: path}
    written, input_change_rms / input_change_peak {coordinate: rad or m} (the adjusted
    coordinates against the desired kinematics file's own samples in the time range),
    summary (the text of ``<name>_summary.txt``), elapsed_s, warnings [str]."""
    setup: RRASetup
    model: object
    reduction: ResidualReduction
    files: dict = field(default_factory=dict)
    input_change_rms: dict = field(default_factory=dict)
    input_change_peak: dict = field(default_factory=dict)
    summary: str = ""
    elapsed_s: float = 0.0
    warnings: list = field(default_factory=list)


def run_rra(setup, model=None, *, results_directory=None, output_model_file=None,
            knot_interval=0.005, sample_rate=SAMPLE_RATE, strict=False, write=True):
    """Run an OpenSim RRA setup file with urdf2dyn's residual reduction.

    Parameters
    ----------
    setup : path or RRASetup
        The ``Setup_RRA.xml`` (an ``<RRATool>``), or one read already.
    model : urdf2dyn.Model, optional
        Instead of the setup's model_file.
    results_directory, output_model_file : path, optional
        Instead of the setup's (e.g. to keep the setup's folder untouched).
    knot_interval : float
        Spacing of the kinematic corrections' knots, s (urdf2dyn.biomech.residuals).
    sample_rate : float
        Rate of the results, Hz (1000 by default, as OpenSim's RRA).
    strict : bool
        Warnings become errors.
    write : bool
        Write the result files (default); False computes only.

    Returns
    -------
    RRAResult
    """
    start = _time.perf_counter()
    su = setup if isinstance(setup, RRASetup) else read_rra_setup(setup, strict=strict,
                                                                   need_model=model is None)
    check_com_body(su, su.path)          # a setup built in Python is not read's
    messages = []

    def warn(msg):
        messages.append(msg)
        # called from run_rra and from the loader's callback: said at the caller's line
        report(msg, strict=strict, error=RRASetupError, stacklevel=None)

    if model is None:
        if su.model_file is None:
            raise RRASetupError(f"{su.path}: <model_file> is empty: name the .osim model (or "
                                "pass a model)")
        # what the loader says is the run's, but for the forces it does not apply when the
        # setup replaces the model's force set (OpenSim drops them too); strict stops on the
        # model's findings, as every command's load (load_leaving_unsaid)
        from ..model import PASSIVE_FORCES, load_leaving_unsaid

        def said_by_the_loader(message, category):
            messages.append(message)
            report(message, category=category, stacklevel=None)   # URDFWarning stays one
        model = load_leaving_unsaid(su.model_file, lambda message: su.replace_force_set and
                                    PASSIVE_FORCES in message, strict, say=said_by_the_loader)
    _check_com_body_of(model, su)        # before the kinematics and the reduction's minutes
    if su.desired_points_file is not None:
        warn(f"{su.path}: <desired_points_file> {su.desired_points_file}: points are not "
             "tracked by urdf2dyn's residual reduction (only the desired kinematics)")
    if su.constraints_file is not None:
        warn(f"{su.path}: <constraints_file> {su.constraints_file}: the control bounds it sets "
             "are not applied (OpenSim deprecates the file in RRA too)")
    for tag, held, kind, undone in (
            ("AnalysisSet", su.analyses, "analyses", "are not run"),
            ("ControllerSet", su.controllers, "controllers", "are not applied (OpenSim's RRA "
                                                             "adds them to the model; "
                                                             "urdf2dyn's has no controllers)")):
        if held or tag in su.set_files:       # a set read from its file: its contents unread
            what = held[:6] if held else f"{kind} in {su.set_files[tag]}"
            warn(f"{su.path}: the {tag}'s {what} {undone}")
    if su.com_time_range is not None:
        warn(f"{su.path}: <initial_time_for_com_adjustment>/<final_time_for_com_adjustment> "
             f"{su.com_time_range}: the mass and centre of mass are fitted over the whole "
             "time range with the kinematics")
    if not su.replace_force_set:
        warn(f"{su.path}: <replace_force_set> false (or left out: OpenSim's RRATool then "
             "takes false): the model's own forces (muscles, springs) would act in OpenSim's "
             "RRA; urdf2dyn applies no force element of a model")

    # actuators and tasks
    actuators = [a for path in su.force_set_files for a in read_actuators(path, strict=strict)]
    if not actuators:
        from .actuators import default_actuators
        warn(f"{su.path}: no actuators in <force_set_files>: OpenSim's usual residuals FX .. MZ "
             "at the root's origin and one actuator per coordinate are used")
        actuators = default_actuators(model)
    tasks = read_tasks(su.task_set_file)
    others = point_tasks(su.task_set_file)
    if others:
        warn(f"{su.task_set_file}: {others[:6]} are not coordinate tasks: not followed")
    tracking = {t.coordinate: t.weight for t in tasks if t.active}
    unknown = [c for c in tracking if c not in model.v_names]
    if unknown:
        warn(f"{su.task_set_file}: tasks for {unknown[:6]}, which the model "
             f"'{model.name}' does not have: ignored")
        tracking = {c: w for c, w in tracking.items() if c in model.v_names}

    # the desired kinematics, filtered and splined as OpenSim's tools do
    opensim = OpenSimProcessing()
    path = su.desired_kinematics_file
    traj = read_opensim(path, model=model)
    for msg in opensim.columns(path, traj, model, tool="RRATool"):
        warn(msg)
    t_raw, q_raw, _, _ = traj.for_model(model)
    if model.nq != model.nv:
        raise MotionError(f"{path}: the model '{model.name}' has a quaternion joint; an RRA "
                          "setup's coordinates are scalars (load the .osim without "
                          "floating_base)")
    if len(t_raw) < 6:
        raise MotionError(f"{path}: OpenSim's quintic splines need at least 6 samples, got "
                          f"{len(t_raw)}")
    t0, t1 = su.initial_time, su.final_time
    if t0 < t_raw[0]:
        warn(f"{su.path}: <initial_time> {t0:g} precedes {path}'s first time {t_raw[0]:g}: "
             f"starting at {t_raw[0]:g}, as OpenSim does")
        t0 = float(t_raw[0])
    if t1 > t_raw[-1]:
        warn(f"{su.path}: <final_time> {t1:g} is past {path}'s last time {t_raw[-1]:g}: "
             f"ending at {t_raw[-1]:g}, as OpenSim does")
        t1 = float(t_raw[-1])
    if not t1 > t0:
        raise MotionError(f"{su.path}: the time range {su.initial_time:g} .. "
                          f"{su.final_time:g} s holds no time of {path} ({t_raw[0]:g} .. "
                          f"{t_raw[-1]:g} s)")
    cutoff = CutoffNamed("<lowpass_cutoff_frequency>", "-1 for no filter", su.path)
    tk, qk, vk, ak = opensim.kinematics(model, t_raw, q_raw, None, None,
                                        filter_hz=su.lowpass_hz, derivatives=None,
                                        time_range=None, source=path, warn=warn,
                                        filter_named=cutoff)[:4]
    count = int(math.floor((t1 - t0) * sample_rate + 1e-6)) + 1
    t = t0 + np.arange(count) / sample_rate
    q0 = quintic_eval(tk, qk, vk, ak, t)
    v0 = quintic_eval(tk, qk, vk, ak, t, 1)
    a0 = quintic_eval(tk, qk, vk, ak, t, 2)

    # the loads: fixed in ground, or following a body
    f_ext = None
    loads = None
    if su.external_loads_file is not None:
        loads = read_external_loads(su.external_loads_file)
    inputs = setup_inputs(su, loads)
    if loads is not None:
        moving = any(f.force_expressed_in_body != "ground" or
                     (f.point_identifier and f.point_expressed_in_body != "ground")
                     for f in loads.forces)
        if moving:
            def f_ext(times, q):
                return loads.wrenches(model, times, q, strict=strict, interpolation="spline")
        else:
            f_ext = loads.wrenches(model, t, q0, strict=strict, interpolation="spline")

    com_body = su.adjusted_com_body if su.adjust_com else None
    if write:       # before the reduction, the job's minutes
        folder = results_directory or su.results_directory
        _refuse_unwritable_columns(su, model, actuators, dict(result_files(su, folder)))
    red = reduce_residuals(model, t, q0, v0, a0, f_ext, actuators=actuators,
                           tracking=tracking, com_body=com_body, adjust_mass=su.adjust_com,
                           knot_interval=knot_interval, strict=strict)
    messages += red.notes

    # the change against the file's own samples in the time range
    inside = (t_raw >= t0 - 1e-9) & (t_raw <= t1 + 1e-9)
    ti = t_raw[inside]
    q_out = quintic_eval(tk, qk, vk, ak, ti) + red.correction(ti)
    if model.couplers:
        q_out = model.apply_couplers(q_out)[0]
    dq = q_out - q_raw[inside]
    rms = np.sqrt(np.mean(dq ** 2, axis=0))
    peak = np.abs(dq).max(axis=0)
    result = RRAResult(su, model, red,
                       input_change_rms=dict(zip(model.v_names, rms.tolist())),
                       input_change_peak=dict(zip(model.v_names, peak.tolist())),
                       warnings=messages)
    for msg in _outside_bands(red, result, model):
        warn(f"{su.path}: {msg}")
    result.summary = summary_text(result)
    if write:
        result.files = _write(result, results_directory or su.results_directory,
                              output_model_file or su.output_model_file, inputs)
    result.elapsed_s = _time.perf_counter() - start
    return result


def _outside_bands(red, result, model):
    """Messages for the results OpenSim's best practices would not call good."""
    kinds = red.kinds()
    out = []
    for name, (rms, peak) in red.stats().items():
        k = kinds[name]
        unit = "N" if k == "force" else "N m"
        if rms > BANDS[f"{k}_rms"] or peak > BANDS[f"{k}_peak"]:
            out.append(f"residual {name} after reduction: RMS {rms:.3g} {unit}, peak "
                       f"{peak:.3g} {unit}, outside OpenSim's good band (RMS <= "
                       f"{BANDS[f'{k}_rms']:g}, peak <= {BANDS[f'{k}_peak']:g}); check the "
                       "loads, the model's mass and the tracking weights")
    rot = angle_columns(model.v_names, model, velocity=True)
    follows = _followed(model)
    for name, is_angle in zip(model.v_names, rot):
        if name in follows:                   # a coupler's: its independent one is told
            continue
        rms = result.input_change_rms[name]
        band = BANDS["rotation"] if is_angle else BANDS["translation"]
        if rms > band:
            shown = f"{math.degrees(rms):.3g} deg" if is_angle else f"{100 * rms:.3g} cm"
            out.append(f"coordinate {name} moved {shown} RMS from the desired kinematics, "
                       f"more than OpenSim's band ({'2 deg' if is_angle else '2 cm'})")
    return out


def _check_com_body_of(model, setup):
    """Refuse (RRASetupError, naming the setup's <adjusted_com_body>) a body whose mass
    centre the model cannot move alone, in reduce_residuals' words for its com_body."""
    if not setup.adjust_com:
        return
    unmovable = com_body_refusal(model, setup.adjusted_com_body)
    if unmovable is not None:
        raise RRASetupError(f"{setup.path}: <adjusted_com_body>: {unmovable}")


def _followed(model):
    """{dependent coordinate: its independent one} of the model's couplers."""
    return {c.dependent: c.independent for c in getattr(model, "couplers", ())}


def _summary_title(setup, com_body):
    """The summary's first line: what was reduced and what the lines below show. It names
    no command: a library caller ran none, and `urdf2dyn rra` with --model is not the setup's
    run alone."""
    com = f"centre of mass of {com_body} moved" if com_body is not None else \
        "centre of mass kept"
    return (f"Residual reduction of {setup} by urdf2dyn: residuals before and after, mass "
            f"change, {com}, coordinate change")


def summary_text(result):
    """The summary a user reads: residuals, mass, centre of mass, kinematic change."""
    red, su, model = result.reduction, result.setup, result.model
    before, after = red.stats(before=True), red.stats()
    kinds = red.kinds()
    t = red.t
    lines = [_summary_title(su.path, red.com_body),
             f"model {model.name!r}; {counted(len(t), 'sample')} from {t[0]:g} to {t[-1]:g} s; "
             f"{red.iterations} iterations, {red.elapsed_s:.3g} s", "",
             "residual   unit  before RMS    peak   after RMS    peak   good band (RMS, peak)"]
    for name in red.residual_names:
        k = kinds[name]
        unit = "N" if k == "force" else "N m"
        lines.append(f"{shown(name):<10} {unit:<4} {before[name][0]:10.3f} {before[name][1]:7.3f} "
                     f"{after[name][0]:11.3f} {after[name][1]:7.3f}   <= {BANDS[k + '_rms']:g}, "
                     f"<= {BANDS[k + '_peak']:g}")
    lines.append("")
    m = red.total_mass
    lines.append(f"total mass {m:.4f} kg; recommended change (OpenSim's rule: mean vertical "
                 f"residual / g) {red.recommended_mass_change:+.4f} kg; applied "
                 f"{red.mass_change:+.4f} kg ({100 * (red.mass_scale - 1):+.3f} %)")
    if red.com_body is not None:
        dc = red.com_shift
        lines.append(f"centre of mass of {shown(red.com_body)} moved by ({dc[0]:+.4f}, {dc[1]:+.4f}, "
                     f"{dc[2]:+.4f}) m in its frame")
    else:
        lines.append("model unchanged (adjust_com_to_reduce_residuals is false)")
    lines += ["", f"coordinate change from {su.desired_kinematics_file} (RMS, peak; band "
              "2 deg, 2 cm RMS):"]
    rot = angle_columns(model.v_names, model, velocity=True)
    follows = _followed(model)
    for name, is_angle in zip(model.v_names, rot):
        rms, peak = result.input_change_rms[name], result.input_change_peak[name]
        if name in follows:                   # in the file's units, whatever its motion
            lines.append(f"  {shown(name):<22} {rms:8.4f}     {peak:8.4f}      (coupled: "
                         f"follows {shown(follows[name])})")
        elif is_angle:
            lines.append(f"  {shown(name):<22} {math.degrees(rms):8.4f} deg "
                         f"{math.degrees(peak):8.4f} deg")
        else:
            lines.append(f"  {shown(name):<22} {100 * rms:8.4f} cm  {100 * peak:8.4f} cm")
    kept = [n for k, n in enumerate(model.v_names) if k not in red.adjusted]
    if kept:
        lines.append(f"not adjusted (no active task, locked, coupled or a quaternion): "
                     f"{kept}")
    if result.warnings:
        lines += ["", "warnings:"] + [f"  {w}" for w in result.warnings]
    return "\n".join(lines) + "\n"


#: The files a run writes in its results directory, as <name>_<kind>
RESULT_KINDS = ("Kinematics_q.sto", "Kinematics_u.sto", "Kinematics_dudt.sto",
                "Actuation_force.sto", "avgResiduals.txt", "summary.txt")


def result_files(setup, folder):
    """(kind, path) of each file a run of the RRASetup writes in folder (its results
    directory; the adjusted model aside)."""
    return [(kind, os.path.join(folder, f"{setup.name}_{kind}")) for kind in RESULT_KINDS]


def setup_inputs(setup, loads=None):
    """(kind, path) of each file a run of the RRASetup reads or names (its model_file even
    when another model is given; its desired_points_file and constraints_file, which
    urdf2dyn's method does not read, as the user's files OpenSim's would, and the files its
    AnalysisSet and ControllerSet are read from and its ControlSetControllers' controls
    files, by OpenSim's, and an OpenSim 2 setup's tool-level
    external_loads_model_kinematics_file): no result may be one.
    loads: its ExternalLoads, if read (its data and model kinematics files named)."""
    inputs = [("setup", setup.path), ("model", setup.model_file),
              ("desired kinematics", setup.desired_kinematics_file),
              ("desired points", setup.desired_points_file),
              ("task set", setup.task_set_file), ("constraints", setup.constraints_file)]
    inputs += [("force set", f) for f in setup.force_set_files]
    inputs += list(setup.set_files.items())
    inputs += [("ControlSetController controls", f) for f in setup.controls_files]
    inputs += [("ExternalLoads model kinematics", setup.loads_kinematics_file)]
    if setup.external_loads_file is not None:
        if loads is None:
            loads = read_external_loads(setup.external_loads_file)
        inputs += [("external loads", setup.external_loads_file)]
        inputs += external_loads_inputs(setup.external_loads_file, loads)
    return [(kind, path) for kind, path in inputs if path is not None]


def _write(result, folder, model_file, inputs):
    """Write the result files (none of them over an input: ValueError first); returns
    {kind: path}."""
    red, su, model = result.reduction, result.setup, result.model
    outputs = result_files(su, folder)
    paths = dict(outputs)
    if red.com_body is not None:
        outputs.append(("output_model_file", model_file))
    refuse_overwriting_inputs(outputs, inputs)
    _refuse_unwritable_columns(su, model, red.actuators, paths)
    os.makedirs(folder, exist_ok=True)
    files = {}
    from .ellipsoid_speeds import to_opensim_speeds
    from .formats.opensim import coordinate_set_columns, write_opensim
    cols = coordinate_set_columns(model.v_names, model)   # OpenSim's RRA's column order
    # OpenSim's speeds: on an ellipsoid joint's angles the angular velocity, not the rates
    u, udot = to_opensim_speeds(model, red.q, red.v, red.a)
    for kind, x, title in (("Kinematics_q.sto", red.q, "Coordinates"),
                           ("Kinematics_u.sto", u, "Speeds"),
                           ("Kinematics_dudt.sto", udot, "Accelerations")):
        files[kind] = paths[kind]
        write_opensim(files[kind], Trajectory(red.t, np.asarray(x)[:, cols],
                                              [model.v_names[k] for k in cols]),
                      degrees=True, model=model, name=title)
    files["Actuation_force.sto"] = paths["Actuation_force.sto"]
    _write_sto(files["Actuation_force.sto"], ["time"] + [a.name for a in red.actuators],
               np.column_stack([red.t, red.forces]), False, "ActuatorForces", fmt=_EXACT)
    files["avgResiduals.txt"] = paths["avgResiduals.txt"]
    with replacing(files["avgResiduals.txt"]) as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write("Average Residuals:\n\n")
        for k, name in zip(red.residual, red.residual_names):
            f.write(f"{name} average = {np.mean(red.forces[:, k]):g}\n")
    files["summary.txt"] = paths["summary.txt"]
    with replacing(files["summary.txt"]) as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write(result.summary)
    if red.com_body is not None:
        written = write_adjusted_model(model, red, model_file)
        if written is not None:
            files["model"] = written
    return files


def _refuse_unwritable_columns(su, model, actuators, paths):
    """Refuse, before the reduction and again before the first file is written, a
    coordinate or an actuator name that a result table cannot hold (formats._cells): a job
    refused halfway leaves files that look like a result."""
    refuse_unwritable_names(paths["Kinematics_q.sto"], model.v_names, "coordinate",
                            f"model {model.name!r}")
    refuse_unwritable_names(paths["Actuation_force.sto"], [a.name for a in actuators],
                            "actuator name", ", ".join(su.force_set_files) or None)


def write_adjusted_model(model, reduction, path):
    """Write the adjusted model: the .osim the model was read from with every body's mass and
    inertia scaled and the adjusted body's mass centre moved (urdf2dyn.biomech.formats.osim's
    writer: everything else stays as written). Returns the path, or None (with a warning)
    where this build has no .osim writer."""
    try:
        from .formats.osim import OsimEdit
    except ImportError:
        report(f"{path}: not written: this urdf2dyn cannot write .osim models (the summary "
               f"gives the mass scale {reduction.mass_scale:.6f} and the "
               f"{reduction.com_body} mass centre shift to apply)", stacklevel=4)
        return None
    edit = OsimEdit(model)
    links, _ = model._c.document()           # each body as written: mass, com, inertia
    s = reduction.mass_scale
    for name, _, mass, com, inertia in links:
        if mass is None or name not in edit.doc.bodies:
            continue
        moved = name == reduction.com_body
        edit.body(name, mass=mass * s,
                  com=np.asarray(com) + reduction.com_shift if moved else None,
                  inertia=np.asarray(inertia).reshape(3, 3) * s)
    return edit.write(path)
