"""The bundled synthetic running trial (urdf2dyn/data/running_a_3ms*.csv, written by
tools/make_running_demo.py): its ground reactions are consistent with the model and look like
running, its joint moments fall in the ranges of the running literature, and the generator
reproduces the bundled files."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import gait
from urdf2dyn.biomech import grf as G
from urdf2dyn.biomech import formats, processing
from urdf2dyn.biomech.human import humod_subject, segment_parameters

ROOT = Path(__file__).resolve().parents[2]
MOTION = urdf2dyn.data_path("running_a_3ms.csv")
GRF = urdf2dyn.data_path("running_a_3ms_grf.csv")
SPEED, STRIDE = 3.0, 0.68


@pytest.fixture(scope="module")
def trial():
    model = humod_subject("A")
    traj = formats.read(MOTION)
    reac = G.read_grf(GRF)
    t, q, _, _ = traj.for_model(model)
    v, a = processing.estimate_derivatives(t, q, model=model)   # what `urdf2dyn torques` does by default
    loads = G.external_loads(reac, model, time=t)
    tau = model.inverse_dynamics(q, v, a, f_ext=loads)
    return dict(model=model, t=t, q=q, v=v, reac=reac, loads=loads, tau=tau,
                res=G.root_residuals(model, q, tau), weight=model.total_mass * 9.81)


def test_files(trial):
    sizes = [os.path.getsize(p) for p in (MOTION, GRF)]
    assert sum(sizes) < 1_000_000
    t = trial["t"]
    assert len(t) == 680 and np.allclose(np.diff(t), 0.005)
    assert formats.read(MOTION).names == list(trial["model"].q_names)
    header = Path(GRF).read_text().splitlines()[0].strip().split(",")
    assert header == ["time"] + [f"{k}{ax}_{s}" for s in "LR" for k in ("grf", "cop", "mom")
                                 for ax in "XYZ"]


def test_ground_reactions_look_like_running(trial):
    """Munro, Miller & Fuglevand (1987) "Ground reaction forces in running: a reexamination",
    J. Biomech. 20:147-155: at 3.0 m/s the vertical force peaks at about 2.5 body weights,
    braking and propulsive peaks a few tenths of body weight, contact about a quarter second."""
    t, reac, W = trial["t"], trial["reac"], trial["weight"]
    for side in "LR":
        f, p = reac.grf[side], reac.cop[side]
        assert 2.2 < f[:, 1].max() / W < 2.8
        assert -0.45 < f[:, 0].min() / W < -0.1 and 0.1 < f[:, 0].max() / W < 0.45
        assert np.abs(f[:, 2]).max() / W < 0.15
        contact = gait.contact_intervals(t, f[:, 1])
        full = [(a, b) for a, b in contact if a > t[0] and b < t[-1]]
        assert len(full) >= 4
        for a, b in full:
            assert 0.18 < b - a < 0.30
        # flight: zero force, undefined centre of pressure
        off = f[:, 1] == 0
        assert off.any() and np.all(np.isnan(p[off])) and np.all(f[off] == 0)
        assert np.all(np.isfinite(p[f[:, 1] > 0]))
        # a small free moment, about the vertical only
        m = reac.moment[side]
        assert np.abs(m[:, 1]).max() < 0.1 * trial["model"].total_mass
        assert np.all(m[:, [0, 2]] == 0)
    # never both feet on the ground; a flight phase in every step
    both = (reac.grf["L"][:, 1] > 0) & (reac.grf["R"][:, 1] > 0)
    assert not both.any()
    strikes = gait.foot_strikes(t, reac.grf["R"][:, 1])
    assert np.allclose(np.diff(strikes), STRIDE, atol=0.006)
    # over whole strides the feet carry the body weight and add no net horizontal impulse
    a, b = np.searchsorted(t, [strikes[0], strikes[-1]])
    total = reac.grf["L"][a:b] + reac.grf["R"][a:b]
    assert total[:, 1].mean() == pytest.approx(W, rel=0.01)
    assert abs(total[:, 0].mean()) < 0.01 * W


def test_centre_of_pressure_under_the_stance_foot(trial):
    model, q, reac = trial["model"], trial["q"], trial["reac"]
    par = segment_parameters(1.61, 57.3, "female")
    L = par["lengths"]["foot"]
    pos, rot = model.forward_kinematics(q)
    for side in "LR":
        on = reac.grf[side][:, 1] > 0
        k = model.link_names.index(f"foot_{side}")
        heel = pos[:, k] + np.einsum("nij,j->ni", rot[:, k], [-0.2 * L, 0, 0])
        toe = pos[:, k] + np.einsum("nij,j->ni", rot[:, k], [0.8 * L, 0, 0])
        p = reac.cop[side]
        lo = np.minimum(heel[:, 0], toe[:, 0]) - 0.01
        hi = np.maximum(heel[:, 0], toe[:, 0]) + 0.01
        assert np.all((p[on, 0] >= lo[on]) & (p[on, 0] <= hi[on]))
        assert np.all(np.abs(p[on, 2] - pos[on, k, 2]) <= 0.04 + 1e-9)
        assert np.all(p[on, 1] == 0)                      # on the belt


def test_root_residuals_are_small(trial):
    """Hicks, Uchida, Seth, Rajagopal & Delp (2015) "Is my model good enough?", J. Biomech. Eng.
    137:020905: peak residual forces below 5 % of the peak external force, RMS residual moments
    below 1 % of (CoM height x peak external force). Here the only errors are the finite
    differences of the 200 Hz positions (the generator balanced the exact dynamics)."""
    res = trial["res"].summary()
    peak = max(np.linalg.norm(trial["reac"].grf[s], axis=1).max() for s in "LR")
    com_height = trial["model"].center_of_mass(trial["q"])[:, 1].mean()
    assert res["force_max"] < 0.05 * peak
    assert res["force_rms"] < 10.0
    assert res["moment_rms"] < 0.01 * com_height * peak
    assert res["moment_rms"] < 2.0 and res["moment_max"] < 6.0


def test_joint_moments_in_literature_ranges(trial):
    """Peak sagittal net joint moments (N·m/kg) of running at about 3-3.5 m/s, as reported by
    Novacheck (1998) "The biomechanics of running", Gait & Posture 7:77-95 (3.2 m/s), Schache,
    Blanch, Dorn, Brown, Rosemond & Pandy (2011) "Effect of running speed on lower limb joint
    kinetics", Med. Sci. Sports Exerc. 43:1260-1271 (3.5 m/s), and Hamner & Delp (2013)
    "Muscle contributions to fore-aft and vertical body mass center accelerations over a range
    of running speeds", J. Biomech. 46:780-787 (3 m/s): roughly 1.5-2.5 hip extension,
    2-3 knee extension and 2.5-3 ankle plantarflexion. The ranges below are those, widened
    for a small synthetic subject with a midfoot landing (which moves load from the knee to
    the ankle)."""
    model, tau = trial["model"], trial["tau"]
    peaks = gait.peak_moments(model, tau, model.total_mass)
    ranges = {("hip", "extension"): (1.0, 3.5), ("knee", "extension"): (1.5, 3.5),
              ("ankle", "plantarflexion"): (2.0, 4.0), ("hip", "flexion"): (0.5, 3.0)}
    for key, (lo, hi) in ranges.items():
        for side in "LR":
            assert lo < peaks[key][side] < hi, (key, side, peaks[key][side])
    # where the peaks are: knee and ankle in stance, the ankle silent in swing
    m = gait.sagittal_moments(model, tau, model.total_mass)
    on = trial["reac"].grf["R"][:, 1] > 0
    assert m["knee_R"][on].max() == pytest.approx(m["knee_R"].max())
    assert m["ankle_R"][on].max() == pytest.approx(m["ankle_R"].max())
    assert np.abs(m["ankle_R"][~on]).max() < 0.1


def test_treadmill_kinematics(trial):
    model, t, q, v = trial["model"], trial["t"], trial["q"], trial["v"]
    n = int(round(STRIDE / 0.005))
    np.testing.assert_allclose(q[n:], q[:-n], atol=1e-6)          # periodic, stride 0.68 s
    assert abs(v[:, 0].mean()) < 0.01                               # on the treadmill
    y = q[:, 1]
    assert 0.05 < y.max() - y.min() < 0.12                          # vertical oscillation
    # the lowest point of the sole (heel to the ball of the foot) is on the belt and moves with
    # it: from 30 % of stance on (the generator's foot lands up to 7 cm short of a planted
    # position and catches up by then)
    par = segment_parameters(1.61, 57.3, "female")
    L, h = par["lengths"]["foot"], par["lengths"]["ankle_height"]
    fr = np.linspace(0.0, 0.78, 27)
    pts = np.column_stack([(fr - 0.2) * L, np.full_like(fr, -h), np.zeros_like(fr)])
    k = model.link_names.index("foot_R")
    pos, rot = model.forward_kinematics(q)
    sole = pos[:, k][:, None, :] + np.einsum("nij,pj->npi", rot[:, k], pts)
    vel = np.gradient(sole[:, :, 0], t, axis=0)
    low = sole[:, :, 1].argmin(axis=1)
    rows = np.arange(len(t))
    checked = 0
    for a, b in gait.contact_intervals(t, trial["reac"].grf["R"][:, 1]):
        if a == t[0] or b == t[-1]:
            continue
        mid = (t > a + 0.3 * (b - a)) & (t < a + 0.9 * (b - a))
        assert np.all(np.abs(vel[rows, low][mid] + SPEED) < 0.3)
        assert np.all(np.abs(sole[rows, low, 1][mid]) < 0.015)
        checked += 1
    assert checked >= 4


def test_generator_reproduces_the_bundled_files(tmp_path):
    pytest.importorskip("scipy")
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "make_running_demo.py"),
                          "--outdir", str(tmp_path)], capture_output=True, text=True, check=True,
                         cwd=tmp_path)
    assert "residual moment RMS" in res.stdout
    new = formats.read(tmp_path / "running_a_3ms.csv")
    old = formats.read(MOTION)
    assert new.names == old.names
    np.testing.assert_allclose(new.q, old.q, atol=1e-3, rtol=1e-4)
    new, old = G.read_grf(tmp_path / "running_a_3ms_grf.csv"), G.read_grf(GRF)
    for side in "LR":
        np.testing.assert_allclose(new.grf[side], old.grf[side], atol=1e-3, rtol=1e-4)
        np.testing.assert_allclose(new.moment[side], old.moment[side], atol=1e-3, rtol=1e-4)
        # a centre of pressure exists only where the vertical force exceeds the force-plate
        # threshold (in both files); it is compared only there, where it is well conditioned
        for r in (new, old):
            on = r.grf[side][:, 1] > gait.CONTACT_THRESHOLD
            assert np.all(np.isfinite(r.cop[side][on])) and np.all(np.isnan(r.cop[side][~on]))
            assert np.all(r.grf[side][~on] == 0)
        both = (new.grf[side][:, 1] > 2 * gait.CONTACT_THRESHOLD) & (
            old.grf[side][:, 1] > 2 * gait.CONTACT_THRESHOLD)
        assert both.sum() > 100
        np.testing.assert_allclose(new.cop[side][both], old.cop[side][both], atol=1e-3)


def test_generator_is_importable_and_documented():
    spec = importlib.util.spec_from_file_location("make_running_demo",
                                                  ROOT / "tools" / "make_running_demo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    doc = mod.__doc__
    for words in ("Novacheck (1998)", "spring-mass", "least-squares", "treadmill"):
        assert words in doc
    assert mod.SPEED == SPEED and mod.STRIDE_TIME == STRIDE
