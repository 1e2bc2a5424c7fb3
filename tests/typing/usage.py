"""A typed user of urdf2dyn: mypy must accept every line (tests/test_typing.py)."""
import numpy as np
from numpy.typing import NDArray

import urdf2dyn
from urdf2dyn.biomech import grf, formats

model: urdf2dyn.Model = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"), floating_base=False)
nq: int = model.nq
names: list[str] = [j.name for j in model.joints]
q_names: tuple[str, ...] = model.q_names
q: NDArray[np.float64] = model.random_configuration(100, seed=1)
v = np.zeros((100, model.nv))
hand = urdf2dyn.wrench_at_point(force=[0.0, 0.0, -20.0], point=[0.5, 0.0, 0.3])
tau: NDArray[np.float64] = model.inverse_dynamics(q, v, v, f_ext={"arm7_hand": hand})
M: NDArray[np.float64] = model.mass_matrix(q)
qdd: NDArray[np.float64] = model.forward_dynamics(q, v, tau)
pos, rot = model.forward_kinematics(q)
J: NDArray[np.float64] = model.jacobian(q, "arm7_hand", point=[0.0, 0.0, 0.1])
energy = model.kinetic_energy(q, v)
lower, upper, effort, speed = model.joints[0].limit or (0.0, 0.0, 0.0, 0.0)
model.gravity = (0.0, -9.81, 0.0)
qs, vs = urdf2dyn.simulate(model, q[0], v[0], np.zeros((10, model.nv)), 1e-3)
urdf2dyn.set_num_threads(2)
threads: int = urdf2dyn.get_num_threads()

human: urdf2dyn.Model = urdf2dyn.humod_subject("A")
urdf_text: str = urdf2dyn.human(1.75, 70.0, "male", root="floating")
traj = formats.read(urdf2dyn.data_path("running_a_3ms.csv"))
reactions = grf.read_grf(urdf2dyn.data_path("running_a_3ms_grf.csv"))


def hold(t: float, q: NDArray[np.float64], v: NDArray[np.float64]) -> NDArray[np.float64]:
    return -10.0 * q - v


qc, vc = urdf2dyn.simulate(model, q[0], v[0], hold, 1e-3, method="semi-implicit", steps=10)
