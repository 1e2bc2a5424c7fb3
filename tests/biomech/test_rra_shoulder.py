"""urdf2dyn rra end to end on a model with an ellipsoid joint: OpenSim's own
ThoracoscapularShoulderModel (tests/data/opensim_core), its ground-thorax coordinates
unlocked, on a synthetic motion, every input file written by OpenSim 4.6 (model, motion,
external loads, actuators, tasks, setup).

The trial: each coordinate swings (0.3 s, 100 Hz) with the thorax held still; an external
load on the thorax holds it on that motion with 3 % more mass than the model's; the desired
kinematics are the motion off by 1 degree sinusoids. Oracle: OpenSim's InverseDynamicsSolver
on the adjusted model urdf2dyn writes, with the setup's ExternalLoads and its actuators (the
residuals on the thorax, a CoordinateActuator per other coordinate) driven by the forces
urdf2dyn reports, at the adjusted kinematics it reports: nothing is left over on any
coordinate. OpenSim's speeds for the scapula's three angles are its angular velocity u =
E(q) qd (docs/osim_models.rst), so the state is set through that map (the InverseDynamicsTool
would take the rates as speeds: a different motion of the scapula).
"""
import os
import warnings

import numpy as np
import pytest

from urdf2dyn.biomech.rra import run_rra

from test_osim_ellipsoid import ANGLES, THORACOSCAPULAR, Speeds, _load

import opensim_tables

T_DATA = np.arange(31) / 100.0                 # the motion's and the loads' samples


def _shoulder_model(osim, folder):
    om = osim.Model(THORACOSCAPULAR)
    cs = om.updCoordinateSet()
    for k in range(cs.getSize()):
        cs.get(k).set_locked(False)            # the root's translations are locked as published
    om.printToXML(os.path.join(folder, "shoulder.osim"))
    return _load(os.path.join(folder, "shoulder.osim"))


def _motion_and_loads(osim, folder, model):
    """The desired kinematics and the loads that hold the thorax on the true motion (a wrench
    w at the thorax origin, world axes, with J_root^T w = 1.03 tau_root)."""
    t, k = T_DATA, np.arange(model.nq)
    q = model.default_q + 0.15 * np.sin(2 * np.pi * (1.0 + 0.1 * k) * t[:, None] + k)
    root = [i for i, n in enumerate(model.q_names) if n.startswith("ground_thorax")]
    q[:, root] = model.default_q[root]
    off = np.radians(1.0) * np.sin(2 * np.pi * 3.0 * t[:, None] + 2 * k)
    off[:, root] = 0.0
    opensim_tables.write_sto(osim, os.path.join(folder, "desired.mot"), t, q + off,
                             model.q_names, False)
    v = np.gradient(q, t, axis=0)
    a = np.gradient(v, t, axis=0)
    tau = model.inverse_dynamics(q, v, a)
    J = model.jacobian(q, "thorax")[:, :, root]
    w = 1.03 * np.linalg.solve(np.swapaxes(J, 1, 2), tau[:, root][:, :, None])[:, :, 0]
    origin = model.forward_kinematics(q)[0][:, model.link_names.index("thorax")]
    labels = [f"thorax_force_v{x}" for x in "xyz"] + [f"thorax_force_p{x}" for x in "xyz"]
    labels += [f"thorax_torque_{x}" for x in "xyz"]
    opensim_tables.write_sto(osim, os.path.join(folder, "loads.mot"), t,
                             np.column_stack([w[:, :3], origin, w[:, 3:]]), labels, False)
    ef = osim.ExternalForce()
    ef.setName("hold")
    ef.set_applied_to_body("thorax")
    ef.set_force_expressed_in_body("ground")
    ef.set_point_expressed_in_body("ground")
    ef.set_force_identifier("thorax_force_v")
    ef.set_point_identifier("thorax_force_p")
    ef.set_torque_identifier("thorax_torque_")
    loads = osim.ExternalLoads()
    loads.setDataFileName("loads.mot")
    loads.cloneAndAppend(ef)
    loads.printToXML(os.path.join(folder, "loads.xml"))


def _actuators_and_tasks(osim, folder, model):
    fs = osim.ForceSet()
    for i, x in enumerate("XYZ"):
        pa = osim.PointActuator("thorax")
        pa.setName(f"F{x}")
        pa.set_direction(osim.Vec3(*np.eye(3)[i]))
        pa.set_force_is_global(True)
        pa.setOptimalForce(1.0)
        fs.cloneAndAppend(pa)
        ta = osim.TorqueActuator()
        ta.setName(f"M{x}")
        ta.set_bodyA("thorax")
        ta.set_bodyB("ground")
        ta.set_axis(osim.Vec3(*np.eye(3)[i]))
        ta.set_torque_is_global(True)
        ta.setOptimalForce(1.0)
        fs.cloneAndAppend(ta)
    ts = osim.CMC_TaskSet()
    for n in model.q_names:
        task = osim.CMC_Joint(n)
        task.setName(n)
        task.setWeight(1.0)
        task.setActive(True, False, False)
        ts.cloneAndAppend(task)
        if not n.startswith("ground_thorax"):
            ca = osim.CoordinateActuator(n)
            ca.setName(f"{n}_act")
            ca.setOptimalForce(100.0)
            fs.cloneAndAppend(ca)
    fs.printToXML(os.path.join(folder, "actuators.xml"))
    ts.printToXML(os.path.join(folder, "tasks.xml"))


def _setup(osim, folder):
    tool = osim.RRATool()
    tool.setName("shoulder_RRA")
    tool.setModelFilename("shoulder.osim")
    tool.setReplaceForceSet(True)
    files = osim.ArrayStr()
    files.append("actuators.xml")
    tool.setForceSetFiles(files)
    tool.setResultsDir("results")
    tool.setInitialTime(0.02)
    tool.setFinalTime(0.28)
    tool.setDesiredKinematicsFileName("desired.mot")
    tool.setTaskSetFileName("tasks.xml")
    tool.setExternalLoadsFileName("loads.xml")
    tool.setLowpassCutoffFrequency(-1)
    tool.setAdjustCOMToReduceResiduals(True)
    tool.setAdjustedCOMBody("thorax")
    tool.setOutputModelFileName("adjusted.osim")
    path = os.path.join(folder, "setup.xml")
    tool.printToXML(path)
    return path


@pytest.fixture(scope="module")
def shoulder_rra(osim, tmp_path_factory):
    osim.Logger.setLevelString("error")
    folder = os.fspath(tmp_path_factory.mktemp("shoulder_rra"))
    model = _shoulder_model(osim, folder)
    _motion_and_loads(osim, folder, model)
    _actuators_and_tasks(osim, folder, model)
    setup = _setup(osim, folder)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run_rra(setup)
    return result, folder, [str(w.message) for w in caught]


def test_rra_reduces_the_shoulders_residuals(shoulder_rra):
    """The residuals end inside OpenSim's good bands, far below where they began, the
    coordinates within their 2 degree / 2 cm bands, and nothing is said but the model's own
    warnings (its inertias, the ellipsoid's speeds, the constraint it does not enforce)."""
    result, _, said = shoulder_rra
    red = result.reduction
    before, after = red.stats(before=True), red.stats()
    kinds = red.kinds()
    assert max(before[n][0] for n in before if kinds[n] == "force") > 5.0
    for name, (rms, peak) in after.items():
        assert rms <= 1.0 and peak <= 2.0, name        # N and N m
    for name, rms in result.input_change_rms.items():
        assert rms <= (0.02 if name.endswith(("_tx", "_ty", "_tz")) else np.radians(2)), name
    assert all("inertia" in m or "ScapulothoracicJoint" in m or "constraint" in m
               for m in said), said


def _opensim_with_actuators(osim, result, folder):
    """The adjusted model as OpenSim reads it, with the setup's actuators (their forces
    overridden) and its external loads."""
    cwd = os.getcwd()
    os.chdir(folder)                   # the loads' data file is relative to the setup
    try:
        om = osim.Model(result.files["model"])
        actuators = osim.ForceSet("actuators.xml")
        for k in range(actuators.getSize()):
            om.addForce(actuators.get(k).clone())
        om.addModelComponent(osim.ExternalLoads("loads.xml", True))
        state = om.initSystem()
    finally:
        os.chdir(cwd)
    return om, state


def test_opensims_actuators_driven_by_the_reported_forces_make_the_adjusted_motion(
        osim, shoulder_rra):
    """OpenSim's InverseDynamicsSolver on the adjusted model, with the loads and every
    actuator at the force urdf2dyn reports, at the adjusted kinematics (at the loads' own
    samples, where any interpolation holds them): no generalized force is left over on any
    coordinate (the residuals on the thorax, the CoordinateActuators on the arm and on the
    scapula's angles, whose OpenSim speeds are the angular velocity)."""
    result, folder, _ = shoulder_rra
    red, model = result.reduction, result.model
    om, state = _opensim_with_actuators(osim, result, folder)
    forces = om.getForceSet()
    acts = [osim.ScalarActuator.safeDownCast(forces.get(a.name)) for a in red.actuators]
    for act in acts:
        act.overrideActuation(state, True)
    names = om.getCoordinateNamesInMultibodyTreeOrder()
    order = [names.getElt(i) for i in range(names.size())]
    coords = om.getCoordinateSet()
    speeds = Speeds(model, ANGLES)
    solver = osim.InverseDynamicsSolver(om)
    samples = [i for i, t in enumerate(red.t) if np.min(np.abs(T_DATA - t)) < 1e-9]
    assert len(samples) == 27
    worst = np.zeros(model.nv)
    for i in samples:
        u, udot = speeds.to_opensim(red.q[i], red.v[i], red.a[i])
        state.setTime(float(red.t[i]))
        for j, n in enumerate(model.q_names):
            coords.get(n).setValue(state, float(red.q[i, j]), False)
            coords.get(n).setSpeedValue(state, float(u[j]))
        for act, f in zip(acts, red.forces[i]):
            act.setOverrideActuation(state, float(f))
        om.realizeDynamics(state)
        left = solver.solve(state, osim.Vector([float(udot[model.q_names.index(n)])
                                                for n in order])).to_numpy()
        worst = np.maximum(worst, np.abs(left[[order.index(n) for n in model.q_names]]))
    assert np.abs(red.forces).max() > 1.0
    assert worst.max() < 1e-9, dict(zip(model.q_names, worst))


def test_the_written_speeds_are_opensims(osim, shoulder_rra):
    """Kinematics_u.sto as OpenSim reads it, put into OpenSim's state with Kinematics_q.sto,
    moves every body as urdf2dyn's adjusted motion does (OpenSim's scapula's angular velocity
    in ground against the model's Jacobian times the rates), which takes OpenSim's speeds for
    the scapula's angles, u = E(q) qd, not the rates; Kinematics_dudt.sto is the written
    speeds' rate of change (central differences of Kinematics_u.sto over its 1 ms)."""
    result, _, _ = shoulder_rra
    red, model = result.reduction, result.model
    om = osim.Model(result.files["model"])
    state = om.initSystem()
    tables = {k: opensim_tables.read_table(osim, result.files[f"Kinematics_{k}.sto"])
              for k in ("q", "u", "dudt")}
    labels = tables["q"][0]
    assert tables["u"][0] == labels == tables["dudt"][0]
    rotational = [om.getCoordinateSet().get(n).getMotionType() == 1 for n in labels]
    q_, u_, dudt_ = (np.where(rotational, np.radians(tables[k][2]), tables[k][2])
                     for k in ("q", "u", "dudt"))
    coords = om.getCoordinateSet()
    bodies = ("scapula", "humerus", "radius", "clavicle")
    worst = 0.0
    for i in range(0, len(red.t), 50):
        for j, n in enumerate(labels):
            coords.get(n).setValue(state, float(q_[i, j]), False)
            coords.get(n).setSpeedValue(state, float(u_[i, j]))
        om.realizeVelocity(state)
        for b in bodies:
            theirs = om.getBodySet().get(b).getAngularVelocityInGround(state).to_numpy()
            ours = model.jacobian(red.q[i], b)[3:] @ red.v[i]
            worst = max(worst, np.abs(theirs - ours).max())
    assert worst < 1e-9
    h = red.t[1] - red.t[0]
    rate = (u_[2:] - u_[:-2]) / (2 * h)
    # measured 3e-4 (the differences' own error); 6e-2 with dE/dt qd left out of du/dt
    assert np.abs(rate - dudt_[1:-1]).max() < 5e-3 * np.abs(dudt_).max()


def test_a_locked_root_is_said(shoulder_rra):
    """The published model locks the thorax's translations: the residual forces along them
    are the locks', and FX .. FZ report 0; that is said, naming the coordinates and what to
    do, instead of a clean 0 N."""
    from urdf2dyn import Urdf2dynWarning
    result, folder, _ = shoulder_rra
    published = _load(THORACOSCAPULAR)
    with pytest.warns(Urdf2dynWarning, match=r"the root's coordinates \['ground_thorax_tx', "
                      r"'ground_thorax_ty', 'ground_thorax_tz'\] are locked: .*unlock them"):
        locked = run_rra(result.setup, model=published, write=False)
    red = locked.reduction
    forces = [k for k, n in enumerate(red.residual_names) if n.startswith("F")]
    assert np.abs(red.forces[:, [red.residual[k] for k in forces]]).max() < 1e-9
    assert "locked" in locked.summary
