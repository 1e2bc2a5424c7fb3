"""Kinetic energy of free motion, the oracle that needs no one's equations of motion.

With gravity zero, every force removed and every constraint off, the true equations of motion
conserve kinetic energy exactly; a simulator whose velocity-product terms are wrong drifts by
the power they inject, dE/dt = v . (M a + 1/2 dM/dt v) = -v . (c_wrong - c_true)(q, v) (the
Lagrangian's C(q, v) v satisfies v . C v = 1/2 v^T dM/dt v). Used by tests/test_osim.py and
benchmarks/rajagopal_knee_energy.py on Rajagopal 2016's knee, with gait2392 as the control.
"""
from __future__ import annotations

import os
import warnings

import numpy as np

import urdf2dyn

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "opensim_models",
                    "Models")


def load_free(osim, fname):
    """urdf2dyn's model and OpenSim's (model, state), both free: no gravity, no force (muscles,
    ligaments, contact), no constraint (the patella's CoordinateCouplerConstraints)."""
    path = os.path.join(DATA, fname)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        model = urdf2dyn.load(path)
    model.gravity = [0.0, 0.0, 0.0]
    om = osim.Model(path)
    om.setGravity(osim.Vec3(0, 0, 0))
    om.updForceSet().clearAndDestroy()
    constraints = om.updConstraintSet()
    for i in range(constraints.getSize()):
        constraints.get(i).set_isEnforced(False)
    coords = om.updCoordinateSet()
    for i in range(coords.getSize()):
        coords.get(i).set_locked(False)
        coords.get(i).set_clamped(False)
    return model, om, om.initSystem()


def set_state(om, state, names, q, v):
    coords = om.getCoordinateSet()
    for n, qi, vi in zip(names, q, v):
        coords.get(n).setValue(state, float(qi), False)
        coords.get(n).setSpeedValue(state, float(vi))


def get_state(om, state, names):
    coords = om.getCoordinateSet()
    return (np.array([coords.get(n).getValue(state) for n in names]),
            np.array([coords.get(n).getSpeedValue(state) for n in names]))


def initial_state(model, seed=3, knee=0.6, knee_speed=4.0):
    """A random pose and speeds (1 rad/s spread), the knees at knee rad turning at knee_speed
    rad/s: from 0.6 rad at 4 rad/s they stay inside their spline knots (0 to 2.09 rad) for
    0.3 s, where the splines curve."""
    rng = np.random.default_rng(seed)
    q = rng.uniform(-0.5, 0.5, model.nq)
    v = rng.normal(0.0, 1.0, model.nv)
    for k, n in enumerate(model.q_names):
        if n.startswith("knee_angle"):
            q[k], v[k] = knee, knee_speed
    return q, v


def opensim_run(osim, om, state, names, q0, v0, times, accuracy=1e-10):
    """OpenSim's forward simulation (opensim.Manager, its default integrator at the given
    accuracy) from (q0, v0): states (len(times), nq), (len(times), nv) and kinetic energy
    (len(times),) at times (times[0] = 0)."""
    set_state(om, state, names, q0, v0)
    state.setTime(0.0)
    manager = osim.Manager(om)
    manager.setIntegratorAccuracy(accuracy)
    manager.initialize(state)
    Q, V, E = [], [], []
    for k, t in enumerate(times):
        s = state if k == 0 else manager.integrate(float(t))
        om.realizeVelocity(s)
        q, v = get_state(om, s, names)
        Q.append(q)
        V.append(v)
        E.append(om.calcKineticEnergy(s))
    return np.array(Q), np.array(V), np.array(E)


class VelocityTorques:
    """OpenSim's InverseDynamicsSolver at zero acceleration, zero gravity and no force: its
    velocity-product torques c(q, v), in urdf2dyn's coordinate order."""

    def __init__(self, osim, om, state, names):
        self.osim, self.om, self.state, self.names = osim, om, state, names
        tree = om.getCoordinateNamesInMultibodyTreeOrder()
        order = [tree.getElt(i) for i in range(tree.size())]
        self.perm = [order.index(n) for n in names]
        self.solver = osim.InverseDynamicsSolver(om)
        self.zero = osim.Vector(len(names), 0.0)

    def __call__(self, q, v):
        set_state(self.om, self.state, self.names, q, v)
        self.om.realizeDynamics(self.state)
        return self.solver.solve(self.state, self.zero).to_numpy()[self.perm]


def predicted_drift(times, V, power_of):
    """Energy change -integral v . dc dt along a trajectory (trapezoids), power_of(k) giving
    v . dc at sample k."""
    p = np.array([power_of(k) for k in range(len(times))])
    return np.concatenate([[0.0], np.cumsum(0.5 * (p[1:] + p[:-1]) * np.diff(times))])


def rk4_energy(model, q0, v0, dt, steps, velocity_torques=None):
    """Kinetic energy (steps + 1,) along a fixed-step RK4 march of urdf2dyn's free motion,
    M(q) a = -c(q, v) with M urdf2dyn's; c is urdf2dyn's own unless velocity_torques(q, v)
    supplies another model's. The knee and every other joint here are on R^n (no quaternion),
    so q moves by plain addition."""
    def accel(q, v):
        if velocity_torques is None:
            return model.forward_dynamics(q, v, 0.0)
        return np.linalg.solve(model.mass_matrix(q), -velocity_torques(q, v))

    q, v = np.array(q0, float), np.array(v0, float)
    E = [model.kinetic_energy(q, v)]
    for _ in range(steps):
        k1q, k1v = v, accel(q, v)
        k2q, k2v = v + 0.5 * dt * k1v, accel(q + 0.5 * dt * k1q, v + 0.5 * dt * k1v)
        k3q, k3v = v + 0.5 * dt * k2v, accel(q + 0.5 * dt * k2q, v + 0.5 * dt * k2v)
        k4q, k4v = v + dt * k3v, accel(q + dt * k3q, v + dt * k3v)
        q = q + dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q)
        v = v + dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        E.append(model.kinetic_energy(q, v))
    return np.array(E)
