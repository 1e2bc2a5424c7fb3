"""Trajectory I/O (urdf2dyn.io): every format round-trips on small synthetic files, HuMoD .mat
files written with scipy.io.savemat in HuMoD's layout read back in SI units, name mappings,
and derivative estimation (Savitzky-Golay, spline, differences, Butterworth) on known signals."""
import importlib
import json
import math

import numpy as np
import pytest

from urdf2dyn.biomech import formats, processing, trajectory
from urdf2dyn.warn import Urdf2dynWarning

H = importlib.import_module("urdf2dyn.biomech.human")   # the module (urdf2dyn.human may be the function)

scipy_io = pytest.importorskip("scipy.io")

RATE = 100.0


def humod_like(n=120, rate=RATE, forces=True):
    """A smooth 36-DoF trajectory in HuMoD's label order (SI), with GRF/CoP for both feet."""
    t = np.arange(n) / rate
    k = np.arange(36)
    q = 0.3 * np.sin(2 * math.pi * (0.5 + 0.05 * k) * t[:, None] + 0.1 * k)
    q[:, 0] = 1.2 * t                                  # pBJX: walking forwards, m
    q[:, 1] = 0.95 + 0.02 * np.sin(4 * math.pi * t)    # pBJY: LLJ height, m
    q[:, 2] = 0.01 * np.cos(2 * math.pi * t)
    w = 2 * math.pi * (0.5 + 0.05 * k)
    v = 0.3 * w * np.cos(w * t[:, None] + 0.1 * k)
    a = -0.3 * w ** 2 * np.sin(w * t[:, None] + 0.1 * k)
    v[:, :3] = np.column_stack([np.full(n, 1.2), 0.02 * 4 * math.pi * np.cos(4 * math.pi * t),
                                -0.01 * 2 * math.pi * np.sin(2 * math.pi * t)])
    a[:, :3] = np.column_stack([np.zeros(n), -0.02 * (4 * math.pi) ** 2 * np.sin(4 * math.pi * t),
                                -0.01 * (2 * math.pi) ** 2 * np.cos(2 * math.pi * t)])
    grf = cop = {}
    if forces:
        grf = {s: np.column_stack([10 * np.sin(t + c), 400 + 50 * np.cos(3 * t + c), 5 * t])
               for s, c in (("L", 0.0), ("R", 1.0))}
        cop = {s: np.column_stack([0.1 * t + c, np.zeros(n), np.full(n, c - 0.1)])
               for s, c in (("L", 0.0), ("R", 0.2))}
    return trajectory.Trajectory(t, q, list(H.HUMOD_LABELS), v=v, a=a, grf=grf, cop=cop)


def assert_same(r, traj, atol=1e-12, derivatives=True, forces=True):
    assert r.names == traj.names
    np.testing.assert_allclose(r.time, traj.time, atol=1e-12)
    np.testing.assert_allclose(r.q, traj.q, atol=atol)
    if derivatives:
        assert r.v_names == traj.v_names
        np.testing.assert_allclose(r.v, traj.v, atol=atol * 100)
        np.testing.assert_allclose(r.a, traj.a, atol=atol * 1000)
    if forces:
        assert sorted(r.grf) == sorted(traj.grf) and sorted(r.cop) == sorted(traj.cop)
        for s in traj.grf:
            np.testing.assert_allclose(r.grf[s], traj.grf[s], atol=atol * 1000)
            np.testing.assert_allclose(r.cop[s], traj.cop[s], atol=atol)


# ----------------------------------------------------------------------------- CSV

@pytest.mark.parametrize("degrees", [False, True])
def test_csv_round_trip(tmp_path, degrees):
    traj = humod_like()
    path = tmp_path / "walk.csv"
    formats.write_csv(path, traj, degrees=degrees)
    header = path.read_text().splitlines()[0].split(",")
    assert header[:4] == ["time", "pBJX", "pBJY", "pBJZ"]
    assert "rKJZ_L_vel" in header and "rKJZ_L_acc" in header and "grfY_R" in header
    raw = np.loadtxt(path, delimiter=",", skiprows=1)
    col = header.index("rKJZ_L")
    k = 180 / math.pi if degrees else 1.0
    np.testing.assert_allclose(raw[:, col], traj.column("rKJZ_L") * k, rtol=1e-13)
    np.testing.assert_allclose(raw[:, header.index("pBJY")], traj.column("pBJY"), rtol=1e-13)
    assert_same(formats.read_csv(path, degrees=degrees), traj, atol=1e-11)
    assert_same(formats.read(path, degrees=degrees), traj, atol=1e-11)


def test_csv_degrees_with_model(tmp_path):
    """With a model, exactly its revolute coordinates are angles (a prismatic joint whose name
    does not look linear stays in metres)."""
    model = H.human_model(1.61, 57.3, "female")
    t = np.arange(5) / RATE
    path = tmp_path / "deg.csv"
    path.write_text("time,pBJY,rKJZ_L,rKJZ_L_vel\n" + "\n".join(
        f"{x},{0.9},{90.0},{180.0}" for x in t) + "\n")
    r = formats.read_csv(path, degrees=True, model=model)
    np.testing.assert_allclose(r.column("pBJY"), 0.9)
    np.testing.assert_allclose(r.column("rKJZ_L"), math.pi / 2)
    np.testing.assert_allclose(r.v[:, 0], math.pi)
    r2 = formats.read_csv(path, degrees=True, linear=["rKJZ_L"])
    np.testing.assert_allclose(r2.column("rKJZ_L"), 90.0)


def test_csv_errors(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("t,a\n0,1\n1,2\n")
    with pytest.raises(trajectory.MotionError, match="time"):
        formats.read_csv(p)
    p.write_text("time,a\n0,1\n0,2\n")
    with pytest.raises(trajectory.MotionError, match="increasing"):
        formats.read_csv(p)
    p.write_text("time,grfX_L,grfY_L\n0,1,2\n1,2,3\n")
    with pytest.raises(trajectory.MotionError, match=r"missing column grfZ_L: the force of the ground reaction .L. has grfX_L, grfY_L only"):
        formats.read_csv(p)
    with pytest.raises(ValueError, match="format"):
        formats.read(tmp_path / "x.txt")


# ----------------------------------------------------------------------------- OpenSim

@pytest.mark.parametrize("ext", [".mot", ".sto"])
@pytest.mark.parametrize("degrees", [True, False])
def test_opensim_round_trip(tmp_path, ext, degrees):
    traj = humod_like(forces=False)
    path = tmp_path / f"walk{ext}"
    formats.write_opensim(path, traj, degrees=degrees, name="walking")
    lines = path.read_text().splitlines()
    assert lines[:6] == ["walking", "version=1", f"nRows={len(traj)}", "nColumns=37",
                         f"inDegrees={'yes' if degrees else 'no'}", "endheader"]
    assert lines[6].split("\t")[:2] == ["time", "pBJX"]
    r = formats.read_opensim(path)
    assert r.meta["in_degrees"] is degrees and r.meta["name"] == "walking"
    assert_same(r, traj, atol=1e-11, derivatives=False, forces=False)
    assert r.v is None
    assert_same(formats.read(path), traj, atol=1e-11, derivatives=False, forces=False)
    # with derivatives
    formats.write_opensim(path, traj, degrees=degrees, derivatives=True)
    assert_same(formats.read(path), traj, atol=1e-11, forces=False)


def test_opensim_classic_header(tmp_path):
    """An OpenSim 3 style .mot: no version line, whitespace-separated, OpenSim names."""
    path = tmp_path / "gait.mot"
    path.write_text("Coordinates\nnRows=3\nnColumns=3\ninDegrees=yes\n\nUnits are S.I. units\n"
                    "endheader\ntime   pelvis_ty   knee_angle_r\n"
                    "0.0  0.95  -10\n0.01 0.96 -20\n0.02 0.97 -30\n")
    # OpenSim's Storage reads such a file; its TimeSeriesTable does not: warned each time
    blanks = r"gait.mot: line 8: values separated by blanks, not tabs: .* Separate the columns"
    with pytest.warns(Urdf2dynWarning, match=blanks):
        r = formats.read(path)
    assert r.names == ["pelvis_ty", "knee_angle_r"]
    np.testing.assert_allclose(r.column("pelvis_ty"), [0.95, 0.96, 0.97])       # metres kept
    np.testing.assert_allclose(r.column("knee_angle_r"), np.radians([-10, -20, -30]))
    with pytest.warns(Urdf2dynWarning, match=blanks):
        r = formats.read_opensim(path, mapping={"knee_angle_r": "rKJZ_R", "pelvis_ty": "pBJY"})
    assert r.names == ["pBJY", "rKJZ_R"]


def test_opensim_errors(tmp_path):
    p = tmp_path / "bad.sto"
    p.write_text("x\nversion=1\ntime\ta\n0\t1\n")
    with pytest.raises(trajectory.MotionError, match="endheader"):
        formats.read_opensim(p)
    # nColumns given: the warning asserted is the row count's alone
    p.write_text("x\nnRows=5\nnColumns=2\ninDegrees=no\nendheader\ntime\ta\n0\t1\n1\t2\n")
    with pytest.warns(Urdf2dynWarning, match=r"bad.sto: line 2: the header says nRows=5 but "
                      r"the table has 2 rows"):                 # OpenSim reads it: so do we
        assert len(formats.read_opensim(p).time) == 2
    p.write_text("x\ninDegrees=no\nendheader\ntime\ta\n0\t1\t3\n")
    with pytest.raises(trajectory.MotionError, match="row 1"):
        formats.read_opensim(p)


# ----------------------------------------------------------------------------- HuMoD .mat

def save_humod_file(path, traj, force_factor=2):
    """Write a .mat file in HuMoD's layout directly with scipy.io.savemat (independent of
    formats.write_humod): rows = labels, lengths in mm, labels as a MATLAB cell array, forces at
    force_factor x the motion rate given as functions of time."""
    lin = np.array([n.startswith("p") for n in traj.names])

    def rows(x):
        x = x.copy()
        x[:, lin] *= 1000.0
        return x.T

    motion = {"frameRate": RATE, "frames": len(traj),
              "trajectory": {"q": rows(traj.q), "dqdt": rows(traj.v), "ddqddt": rows(traj.a)},
              "trajectoryLabels": np.array(traj.names, dtype=object).reshape(1, -1)}
    nf = force_factor * len(traj)
    tf = np.arange(nf) / (force_factor * RATE)
    force = {"frameRate": force_factor * RATE, "frames": nf}
    for side, c in (("L", 0.0), ("R", 1.0)):
        force[f"grfX_{side}"] = 10 * np.sin(tf + c)
        force[f"grfY_{side}"] = 400 + 50 * np.cos(3 * tf + c)
        force[f"grfZ_{side}"] = 5 * tf
    for side, c in (("L", 0.0), ("R", 0.2)):
        force[f"copX_{side}"] = 1000 * (0.1 * tf + c)
        force[f"copY_{side}"] = np.zeros(nf)
        force[f"copZ_{side}"] = np.full(nf, 1000 * (c - 0.1))
    scipy_io.savemat(path, {"motion": motion, "force": force})


def test_humod_read(tmp_path):
    traj = humod_like()
    path = tmp_path / "B_2.1.mat"
    save_humod_file(path, traj)
    r = formats.read_humod(path)
    assert r.names == H.HUMOD_LABELS
    assert r.meta["frame_rate"] == RATE and r.meta["force_frame_rate"] == 2 * RATE
    np.testing.assert_allclose(r.time, np.arange(len(traj)) / RATE)
    # mm -> m for pBJ*, radians untouched
    assert_same(r, traj, atol=1e-12)
    # forces: the motion-time samples of the 200 Hz signals (every second sample)
    r2 = formats.read(path)
    np.testing.assert_allclose(r2.grf["R"][:, 1], 400 + 50 * np.cos(3 * traj.time + 1.0), atol=1e-9)
    r3 = formats.read_humod(path, mapping={"rKJZ_L": "knee_L"})
    assert r3.names[H.HUMOD_LABELS.index("rKJZ_L")] == "knee_L" and r3.v_names == r3.names
    bad = tmp_path / "text.mat"
    bad.write_text("not a mat file")
    with pytest.raises(trajectory.MotionError, match="MATLAB"):
        formats.read_humod(bad)


def test_humod_force_interpolation(tmp_path):
    """A force rate that is not a multiple of the motion's is linearly interpolated."""
    traj = humod_like(n=50)
    path = tmp_path / "odd.mat"
    save_humod_file(path, traj, force_factor=1)
    mat = scipy_io.loadmat(path, simplify_cells=True)
    # rewrite the force at 250 Hz: linear signals are interpolated exactly
    nf = 130
    tf = np.arange(nf) / 250.0
    force = {"frameRate": 250.0, "frames": nf}
    for s in "LR":
        force[f"grfX_{s}"], force[f"grfY_{s}"], force[f"grfZ_{s}"] = 2 * tf, 3 + tf, -tf
        force[f"copX_{s}"], force[f"copY_{s}"], force[f"copZ_{s}"] = 1000 * tf, 0 * tf, 500 + 0 * tf
    scipy_io.savemat(path, {"motion": mat["motion"], "force": force})
    r = formats.read_humod(path)
    t = r.time
    np.testing.assert_allclose(r.grf["L"], np.column_stack([2 * t, 3 + t, -t]), atol=1e-12)
    np.testing.assert_allclose(r.cop["R"], np.column_stack([t, 0 * t, 0.5 + 0 * t]), atol=1e-12)


def test_humod_round_trip_and_model(tmp_path):
    traj = humod_like()
    path = tmp_path / "rt.mat"
    formats.write_humod(path, traj)
    r = formats.read(path)
    assert_same(r, traj, atol=1e-12)
    # the model's order, by name
    model = H.human_model(1.79, 84.8, "male")
    t, q, v, a = r.for_model(model)
    for k, name in enumerate(model.q_names):
        np.testing.assert_array_equal(q[:, k], r.column(name))
        np.testing.assert_array_equal(v[:, k], r.v[:, r.names.index(name)])
    tau = model.inverse_dynamics(q, v, a, f_ext=r.f_ext())
    assert tau.shape == (len(traj), 36) and np.all(np.isfinite(tau))
    # a floating-root model gets the converted root
    mf = H.human_model(1.79, 84.8, "male", root="floating")
    tf, qf, vf, af = r.for_model(mf)
    assert qf.shape == (len(traj), 37)
    np.testing.assert_allclose(mf.inverse_dynamics(qf, vf, af)[:, 6:],
                               model.inverse_dynamics(q, v, a)[:, 6:], atol=1e-8)


def test_humod_errors(tmp_path):
    p = tmp_path / "x.mat"
    scipy_io.savemat(p, {"other": np.zeros(3)})
    with pytest.raises(trajectory.MotionError, match="motion"):
        formats.read_humod(p)
    scipy_io.savemat(p, {"motion": {"frameRate": 100.0, "trajectory": {"q": np.zeros((3, 5))},
                                    "trajectoryLabels": np.array(["a", "b"], dtype=object)}})
    with pytest.raises(trajectory.MotionError, match="does not match"):
        formats.read_humod(p)


# ----------------------------------------------------------------------------- pandas

def test_dataframe_round_trip():
    pd = pytest.importorskip("pandas")
    traj = humod_like()
    df = formats.to_dataframe(traj)
    assert df.index.name == "time" and list(df.columns[:2]) == ["pBJX", "pBJY"]
    assert "rAJZ_R_acc" in df.columns and "copZ_L" in df.columns
    assert_same(formats.from_dataframe(df), traj, atol=0)
    # a time column instead of the index, degrees
    df2 = formats.to_dataframe(traj, degrees=True, derivatives=False, forces=False).reset_index()
    assert isinstance(df2, pd.DataFrame) and df2.columns[0] == "time"
    np.testing.assert_allclose(df2["rKJZ_L"], np.degrees(traj.column("rKJZ_L")))
    r = formats.from_dataframe(df2, degrees=True)
    assert_same(r, traj, atol=1e-13, derivatives=False, forces=False)


# ----------------------------------------------------------------------------- mappings

def test_mappings(tmp_path):
    m = {"knee_r": "rKJZ_R", "pelvis_ty": "pBJY"}
    j = tmp_path / "map.json"
    j.write_text(json.dumps(m))
    c = tmp_path / "map.csv"
    c.write_text("from,to\n# comment\n\nknee_r,rKJZ_R\npelvis_ty , pBJY\n")
    assert trajectory.load_mapping(j) == m == trajectory.load_mapping(c) == trajectory.load_mapping(m)
    assert trajectory.load_mapping(None) == {}
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,c\n")
    with pytest.raises(ValueError, match="two columns"):
        trajectory.load_mapping(bad)
    p = tmp_path / "m.csv"
    p.write_text("time,knee_r,pelvis_ty,knee_r_vel,pelvis_ty_vel\n0,1,2,3,4\n1,1,2,3,4\n")
    for mapping in (m, j, c):
        r = formats.read_csv(p, mapping=mapping)
        assert r.names == ["rKJZ_R", "pBJY"] and r.v_names == ["rKJZ_R", "pBJY"]
    r = formats.read_csv(p).renamed(c)
    assert r.names == ["rKJZ_R", "pBJY"]
    sel = r.select(["pBJY", "rKJZ_R"])
    np.testing.assert_array_equal(sel.q[0], [2, 1])
    np.testing.assert_array_equal(sel.v[0], [4, 3])
    with pytest.raises(trajectory.MotionError, match="rHJX_L"):
        r.for_model(H.human_model(1.7, 70, "male"))


# ----------------------------------------------------------------------------- derivatives

def sine(t, f=1.3):
    w = 2 * math.pi * f
    return (np.column_stack([np.sin(w * t), 0.5 * np.cos(w * t)]),
            np.column_stack([w * np.cos(w * t), -0.5 * w * np.sin(w * t)]),
            np.column_stack([-w * w * np.sin(w * t), -0.5 * w * w * np.cos(w * t)]))


@pytest.mark.parametrize("method,v_tol,a_tol", [("savgol", 2e-3, 0.3), ("spline", 1e-6, 1e-3),
                                                  ("gradient", 0.015, 0.3),
                                                  ("opensim", 2e-6, 1e-3)])  # natural ends
def test_derivatives_on_sine(method, v_tol, a_tol):
    t = np.arange(0, 3, 1 / RATE)
    q, v, a = sine(t)
    v_est, a_est = processing.estimate_derivatives(t, q, method=method)
    inner = slice(10, -10)
    assert np.abs(v_est - v)[inner].max() < v_tol       # |v| ~ 8 rad/s
    assert np.abs(a_est - a)[inner].max() < a_tol       # |a| ~ 67 rad/s^2
    assert np.all(np.isfinite(v_est)) and np.all(np.isfinite(a_est))


def test_derivatives_with_filter_on_noisy_sine():
    """Noise: differentiating raw samples amplifies it; the 6 Hz zero-lag Butterworth filter
    brings velocity and acceleration back close to the truth for every method."""
    t = np.arange(0, 4, 1 / 200.0)
    q, v, a = sine(t)
    noisy = q + np.random.default_rng(0).normal(scale=1e-3, size=q.shape)
    inner = slice(60, -60)
    for method in ("savgol", "spline", "gradient", "opensim"):
        v_raw, a_raw = processing.estimate_derivatives(t, noisy, method=method)
        qf, v_f, a_f = processing.estimate_derivatives(t, noisy, method=method, cutoff_hz=6.0,
                                               return_positions=True)
        err_raw = np.abs(a_raw - a)[inner].max()
        err_f = np.abs(a_f - a)[inner].max()
        assert err_f < err_raw / 5, (method, err_raw, err_f)
        assert np.abs(v_f - v)[inner].max() < 0.05
        assert err_f < 1.0                               # 1.5 % of |a| ~ 67
        assert np.abs(qf - q)[inner].max() < 4e-3


def test_lowpass_zero_lag():
    t = np.arange(0, 5, 1 / 100.0)
    slow = np.sin(2 * math.pi * 1.0 * t)
    fast = 0.5 * np.sin(2 * math.pi * 30.0 * t)
    y = processing.lowpass(t, slow + fast, 6.0)
    inner = slice(50, -50)
    np.testing.assert_allclose(y[inner], slow[inner], atol=0.02)   # no lag, fast part gone
    # gain at the cutoff is 1/2 (-6 dB): zero-lag doubling of a 2nd-order Butterworth
    at_cut = processing.lowpass(t, np.sin(2 * math.pi * 6.0 * t), 6.0)
    assert np.abs(at_cut[inner]).max() == pytest.approx(0.5, abs=0.02)
    with pytest.raises(ValueError, match="Nyquist"):
        processing.lowpass(t, slow, 60.0)
    with pytest.raises(ValueError, match="uniformly"):
        processing.lowpass(np.r_[0, 0.01, 0.05, np.arange(0.06, 1, 0.01)], np.zeros(97), 5.0)


def test_derivatives_nonuniform_and_errors():
    t = np.cumsum(np.r_[0, np.random.default_rng(1).uniform(0.005, 0.015, 300)])
    q, v, a = sine(t)
    v_est, a_est = processing.estimate_derivatives(t, q, method="spline")
    assert np.abs(v_est - v)[10:-10].max() < 1e-4
    with pytest.raises(ValueError, match="uniformly"):
        processing.estimate_derivatives(t, q, method="savgol")
    with pytest.raises(ValueError, match="method"):
        processing.estimate_derivatives(t, q, method="magic")
    with pytest.raises(ValueError, match="window"):
        processing.estimate_derivatives(np.arange(20.0), np.zeros(20), method="savgol", window=4)


def test_derivatives_with_floating_model():
    """With a model, a floating root's velocity is the body-frame twist (nv columns)."""
    mf = H.human_model(1.61, 57.3, "female", root="floating")
    t = np.arange(0, 2, 1 / RATE)
    qp = np.zeros((len(t), 36))
    qp[:, 0], qp[:, 4], qp[:, 20] = t, 0.5 * np.sin(t), 0.3 * np.sin(2 * t)
    vp = np.zeros_like(qp)
    vp[:, 0], vp[:, 4], vp[:, 20] = 1.0, 0.5 * np.cos(t), 0.6 * np.cos(2 * t)
    qf, vf, _ = H.root_to_floating(qp, vp)
    v_est, a_est = processing.estimate_derivatives(t, qf, method="savgol", model=mf)
    assert v_est.shape == (len(t), 36) and a_est.shape == (len(t), 36)
    np.testing.assert_allclose(v_est[5:-5], vf[5:-5], atol=2e-3)
    traj = trajectory.Trajectory(t, qf, mf.q_names).with_derivatives(model=mf, method="spline")
    assert traj.v_names == list(mf.v_names)
    np.testing.assert_allclose(traj.v[5:-5], vf[5:-5], atol=2e-3)


def test_trajectory_with_derivatives_and_standing_forces():
    """Standing still on both feet, each carrying half the weight at a CoP under the CoM's x:
    the root (pBJ*, rBJ*) needs no generalized force."""
    sex, mass, height = "male", 84.8, 1.79
    model = H.human_model(height, mass, sex)
    q0 = H.standing_configuration(height, sex)
    pin = pytest.importorskip("pinocchio")
    pm = pin.buildModelFromXML(H.human(height, mass, sex))
    qp = np.zeros(pm.nq)
    for j in model.joints:
        qp[pm.joints[pm.getJointId(j.name)].idx_q] = q0[j.q_index]
    com = pin.centerOfMass(pm, pm.createData(), qp)
    n = 40
    t = np.arange(n) / RATE
    w = mass * 9.81 / 2
    traj = trajectory.Trajectory(t, np.tile(q0, (n, 1)), model.q_names,
                         grf={"L": np.tile([0, w, 0], (n, 1)), "R": np.tile([0, w, 0], (n, 1))},
                         cop={"L": np.tile([com[0], 0, -0.08], (n, 1)),
                              "R": np.tile([com[0], 0, 0.08], (n, 1))})
    traj.cop["R"][3] = np.nan                       # a sample without contact data
    traj = traj.with_derivatives(method="gradient")
    np.testing.assert_allclose(traj.v, 0, atol=1e-12)
    tt, q, v, a = traj.for_model(model)
    tau = model.inverse_dynamics(q, v, a, f_ext=traj.f_ext())
    ok = np.ones(n, bool)
    ok[3] = False
    np.testing.assert_allclose(tau[ok, :6], 0, atol=1e-9 * mass * 9.81)
    assert tau[3, 1] == pytest.approx(w)            # only the left foot carried it there


def test_trajectory_validation():
    with pytest.raises(ValueError, match="q: expected shape"):
        trajectory.Trajectory(np.arange(3.0), np.zeros((3, 2)), ["a"])
    with pytest.raises(ValueError, match="duplicate"):
        trajectory.Trajectory(np.arange(3.0), np.zeros((3, 2)), ["a", "a"])
    with pytest.raises(ValueError, match="grf"):
        trajectory.Trajectory(np.arange(3.0), np.zeros((3, 1)), ["a"], grf={"L": np.zeros((2, 3))})


def test_missing_marker_and_setup_files_are_named(tmp_path):
    """A missing .trc, static trial or OpenSim setup file: the file and what it is, not a
    bare '[Errno 2]'."""
    import os
    from types import SimpleNamespace

    from urdf2dyn.biomech.formats import ik_setup, trc
    from urdf2dyn.biomech.pipeline import find_trials
    from urdf2dyn.biomech.stages.scale import _static
    from urdf2dyn.biomech.stages.settings import Scaling
    from urdf2dyn.warn import MotionError
    with pytest.raises(MotionError, match=r"none\.trc: no such file"):
        trc.read_trc(tmp_path / "none.trc")
    with pytest.raises(ik_setup.IKSetupError,
                       match=r"none\.xml: no such file \(the OpenSim inverse-kinematics setup"):
        ik_setup.read_ik_setup(tmp_path / "none.xml")
    motion = tmp_path / "walk.csv"
    motion.write_text("time,a\n0,0\n")
    (tmp_path / "walk_grf.csv").write_text("time\n0\n")
    with pytest.raises(MotionError, match=r"^grf .*walk_gfr\.csv: no such file: did "
                                          r"you mean .*walk_grf\.csv"):
        find_trials([motion], os.fspath(tmp_path / "walk_gfr.csv"))
    with pytest.raises(MotionError, match=r"Scaling's static .*still\.trc: no such file "
                                          r"\(the scaling's static trial"):
        _static(Scaling("Setup_Scale.xml", os.fspath(tmp_path / "still.trc")),
                SimpleNamespace(path="Setup_Scale.xml"), None, False)


def test_a_setup_without_a_static_trial_is_advised_in_the_callers_words():
    """The library is advised Scaling's static=, torques its --static (in its parser)."""
    from types import SimpleNamespace

    from urdf2dyn.biomech.stages.scale import _static
    from urdf2dyn.biomech.stages.settings import Scaling
    from urdf2dyn.cli.options import TRIAL_COLUMNS
    setup = SimpleNamespace(path="Setup_Scale.xml", scale_marker_file=None,
                            place_marker_file=None)
    with pytest.raises(ValueError, match="names no static trial") as library:
        _static(Scaling("Setup_Scale.xml"), setup, None, False)
    assert 'give one (Scaling(SETUP, static="STATIC.c3d"))' in str(library.value)
    assert "--" not in str(library.value)
    with pytest.raises(ValueError, match="names no static trial") as command:
        _static(Scaling("Setup_Scale.xml"), setup, None, False, TRIAL_COLUMNS)
    assert "give one (--static STATIC.c3d)" in str(command.value)


def test_a_broken_or_clashing_mapping_is_named(tmp_path):
    """A new user's broken JSON mapping gave json's bare 'Expecting property name ...: line 2
    column 1', and two names mapped to one coordinate 'duplicate coordinate names', neither
    naming the mapping file: both now name it, the line and column, or the two columns."""
    broken = tmp_path / "map.json"
    broken.write_text('{"knee_r": "rKJZ_R",\n}\n')
    with pytest.raises(trajectory.MotionError,
                       match=r"map\.json: line 2 column 1: not valid JSON \(Expecting property"):
        trajectory.load_mapping(broken)
    p = tmp_path / "m.csv"
    p.write_text("time,knee_r,knee_l,hip_r\n0,1,2,3\n1,1,2,3\n")
    clash = tmp_path / "clash.json"
    clash.write_text(json.dumps({"knee_r": "joint1", "knee_l": "joint1"}))
    with pytest.raises(trajectory.MotionError,
                       match=r"the mapping .*clash\.json gives two columns of .*m\.csv one name: "
                             r"'knee_r' and 'knee_l' -> 'joint1'"):
        formats.read_csv(p, mapping=clash)
    with pytest.raises(trajectory.MotionError,
                       match=r"the mapping gives .* 'knee_r' and 'hip_r' \(not mapped\) -> "
                             r"'hip_r'"):
        formats.read_csv(p).renamed({"knee_r": "hip_r"})


MOCO = """inDegrees=no
num_controls=1
num_derivatives=0
num_input_controls=0
num_multipliers=1
num_parameters=1
num_slacks=0
num_states=2
DataType=double
version=3
OpenSimVersion=4.6
endheader
time\t/jointset/knee_r/knee_angle_r/value\t/jointset/knee_r/knee_angle_r/speed\t/forceset/soleus_r\tlambda_cid0_p0\ttorso_mass
0\t0.1\t0.5\t0.2\t0.3\t70
0.01\t0.2\t0.5\t0.2\t0.3\tnan
0.02\t0.3\t0.5\t0.2\t0.3\tnan
"""


def test_moco_trajectory_gives_its_coordinates(tmp_path):
    """A MocoTrajectory file (as opensim.MocoTrajectory.write lays it out: states and controls
    by path, then the kinematic constraints' multipliers, slacks and the parameters by plain
    name, a parameter's value in the first row only): its coordinates by name, the rest
    dropped; the multipliers and parameters were read as unknown coordinates and refused."""
    path = tmp_path / "solution.sto"
    path.write_text(MOCO)
    with pytest.warns(Urdf2dynWarning, match=r"solution.sto: its 1 coordinate speed column "
                                             r"\('/jointset/knee_r/knee_angle_r/speed'\) is "
                                             r"not used"):
        r = formats.read_opensim(path)
    assert r.names == ["knee_angle_r"]
    np.testing.assert_array_equal(r.q[:, 0], [0.1, 0.2, 0.3])


def test_a_coordinate_given_by_name_and_by_path_is_named(tmp_path):
    """A table with a coordinate both as a plain column and as a state path: refused naming
    the two columns (it said 'duplicate columns ['knee_angle_r']', a column the file lacks)."""
    path = tmp_path / "both.sto"
    path.write_text("nRows=2\nnColumns=3\ninDegrees=no\nendheader\ntime\tknee_angle_r\t"
                    "/jointset/knee_r/knee_angle_r/value\n0\t0\t0\n0.01\t0\t0\n")
    with pytest.raises(trajectory.MotionError,
                       match=r"both.sto: columns 'knee_angle_r' and "
                             r"'/jointset/knee_r/knee_angle_r/value' both give coordinate "
                             r"'knee_angle_r'"):
        formats.read_opensim(path)
