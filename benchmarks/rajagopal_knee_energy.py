"""Who is right about Rajagopal 2016's knee velocity terms, urdf2dyn or OpenSim 4.6: kinetic
energy decides (docs/osim_models.rst, "Rajagopal's knee").

With gravity zero, every force removed and every constraint off, the true equations of motion
conserve kinetic energy exactly. From the same state (knees at 0.6 rad turning at 4 rad/s,
inside their spline knots, the rest random), over 0.3 s, side by side:

* OpenSim's own forward simulation (opensim.Manager) at integrator accuracy 1e-10 and 1e-8;
* the drift that the inverse-dynamics difference predicts along OpenSim's trajectory,
  -integral v . (c_OpenSim - c_urdf2dyn) dt, c the torques at zero acceleration;
* urdf2dyn.simulate (RK4, 1 ms) with urdf2dyn's dynamics;
* an RK4 (2 ms) with urdf2dyn's mass matrix but OpenSim's velocity torques: it reproduces
  OpenSim's drift, so the drift is the velocity terms and nothing else;
* gait2392 as the control: its custom joints turn each rotation axis with the coordinate of
  the same index, where OpenSim's velocity terms are right.

Energies relative to the initial one, largest |E(t) - E(0)| / E(0) over the run.

    python benchmarks/rajagopal_knee_energy.py [-v]      (-v: the energy curves)
"""
import os
import sys

import numpy as np

import urdf2dyn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import osim_energy as oe  # noqa: E402

T_END, SAMPLES = 0.3, 30


def run(osim, fname):
    model, om, state = oe.load_free(osim, fname)
    names = model.q_names
    q0, v0 = oe.initial_state(model)
    times = np.linspace(0.0, T_END, SAMPLES + 1)
    Qo, Vo, Eo = oe.opensim_run(osim, om, state, names, q0, v0, times)
    Eo8 = oe.opensim_run(osim, om, state, names, q0, v0, times, accuracy=1e-8)[2]
    c_osim = oe.VelocityTorques(osim, om, state, names)
    zero = np.zeros(model.nv)
    pred = oe.predicted_drift(times, Vo, lambda k: -Vo[k] @ (
        c_osim(Qo[k], Vo[k]) - model.inverse_dynamics(Qo[k], Vo[k], zero)))
    steps = int(round(T_END / 1e-3))
    Qu, Vu = urdf2dyn.simulate(model, q0, v0, np.zeros((steps, model.nv)), 1e-3, method="rk4")
    Eu = model.kinetic_energy(Qu, Vu)
    Es = oe.rk4_energy(model, q0, v0, 2e-3, steps // 2, velocity_torques=c_osim)
    dtau = max(np.max(np.abs(c_osim(q, v) - model.inverse_dynamics(q, v, zero)))
               / np.max(np.abs(model.inverse_dynamics(q, v, zero))) for q, v in zip(Qo, Vo))
    return dict(E0=Eo[0], opensim=Eo - Eo[0], opensim8=Eo8 - Eo8[0], predicted=pred,
                ours=Eu - Eu[0], swapped=Es - Es[0], dtau=dtau)


def main():
    import opensim as osim
    osim.Logger.setLevelString("error")
    cols = ("OpenSim 1e-10", "OpenSim 1e-8", "predicted", "urdf2dyn", "u2d+OpenSim c",
            "|dc|/|c|")
    print(f"{'model':15s} {'E0 (J)':>8s} " + " ".join(f"{c:>13s}" for c in cols))
    for label, fname in (("Rajagopal 2016", "Rajagopal2016.osim"),
                         ("gait2392", "gait2392_millard2012muscle.osim")):
        r = run(osim, fname)
        e0 = r["E0"]
        vals = [np.max(np.abs(r[k])) / e0 for k in
                ("opensim", "opensim8", "predicted", "ours", "swapped")] + [r["dtau"]]
        print(f"{label:15s} {e0:8.3f} " + " ".join(f"{x:13.2e}" for x in vals))
        if "-v" in sys.argv:
            print(f"{'t (s)':>8s} {'OpenSim dE':>12s} {'predicted':>12s} {'urdf2dyn dE':>12s} "
                  f"{'u2d+OS c dE':>12s}   (J)")
            for k in range(0, SAMPLES + 1, 5):
                print(f"{times_at(k):8.2f} {r['opensim'][k]:12.4e} {r['predicted'][k]:12.4e} "
                      f"{r['ours'][10 * k]:12.4e} {r['swapped'][5 * k]:12.4e}")


def times_at(k):
    return k * T_END / SAMPLES


if __name__ == "__main__":
    main()
