"""Draw docs/_static/angular_momentum_running.png: the normalized whole-body angular momentum
of the bundled running trial (HuMoD subject A, 3 m/s) over the gait cycle. Run from the repo root."""
import numpy as np, urdf2dyn
from urdf2dyn.biomech import grf as G, formats
from urdf2dyn.motion import derivatives
from urdf2dyn.biomech.plot import plot_angular_momentum
model = urdf2dyn.humod_subject("A")
t, q, _, _ = formats.read(urdf2dyn.data_path("running_a_3ms.csv")).for_model(model)
v, a = derivatives(t, q, model)
reac = G.read_grf(urdf2dyn.data_path("running_a_3ms_grf.csv"))
L = urdf2dyn.normalized_angular_momentum(model, q, v, speed=3.0)
print(np.abs(L).max(axis=0))
plot_angular_momentum(t, L, "docs/_static/angular_momentum_running.png",
                      grf_y={s: reac.grf[s][:, 1] for s in "LR"},
                      title="HuMoD subject A, synthetic running trial at 3 m/s: L_G / (M V H)")
