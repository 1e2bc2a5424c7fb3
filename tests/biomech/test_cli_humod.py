"""The command line on the human model: `urdf2dyn torques` with ground reactions, filters,
degrees, several motions, CSV and .sto output, residuals and plots; `urdf2dyn human`;
`urdf2dyn info` and its Graphviz export. Each result is checked against the Python API."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import grf as G
from urdf2dyn.biomech import formats, processing, trajectory
from urdf2dyn.cli import main
from urdf2dyn.biomech.human import human, humod_subject
from urdf2dyn.biomech.processing import estimate_derivatives as derivatives

HUMAN = urdf2dyn.data_path("humod_subject_a.urdf")
MOTION = urdf2dyn.data_path("running_a_3ms.csv")
GRF = urdf2dyn.data_path("running_a_3ms_grf.csv")


def api_torques(motion=MOTION, grf=GRF, model=None):
    model = model or humod_subject("A")
    traj = formats.read(motion)
    t, q, _, _ = traj.for_model(model)
    v, a = derivatives(t, q, model=model)
    loads = G.external_loads(G.read_grf(grf), model, time=t)
    return model, t, q, model.inverse_dynamics(q, v, a, f_ext=loads)


def read_table(path):
    header = Path(path).read_text().splitlines()[0].strip().split(",")
    return header, np.loadtxt(path, delimiter=",", skiprows=1)


def test_torques_with_grf_matches_api(tmp_path, capsys):
    out = tmp_path / "torques.csv"
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "-o", str(out)]) == 0
    model, t, q, tau = api_torques()
    header, table = read_table(out)
    assert header == ["time", *model.v_names]
    np.testing.assert_allclose(table[:, 0], t)
    np.testing.assert_allclose(table[:, 1:], tau, rtol=1e-9, atol=1e-8)
    text = capsys.readouterr().out
    assert "gravity (0, -9.81, 0)" in text
    assert "peak sagittal joint moments, N·m/kg (body mass 57.3 kg)" in text
    for words in ("hip extension", "knee extension", "ankle plantarflexion", "root residuals",
                  "force  |F|: RMS", "moment |M|: RMS", "% of the peak ground reaction"):
        assert words in text
    # the printed peaks are those of the API
    from urdf2dyn.biomech import gait
    peaks = gait.peak_moments(model, tau, model.total_mass)
    line = next(x for x in text.splitlines() if x.strip().startswith("knee extension"))
    left, right = map(float, line.split()[-2:])
    assert left == pytest.approx(peaks[("knee", "extension")]["L"], abs=0.006)
    assert right == pytest.approx(peaks[("knee", "extension")]["R"], abs=0.006)
    res = G.root_residuals(model, q, tau).summary()
    rms = float(re.search(r"force  \|F\|: RMS\s+([\d.]+)", text).group(1))
    assert rms == pytest.approx(res["force_rms"], abs=0.006)


def test_per_kg_residuals_and_sto(tmp_path):
    sto, res_csv = tmp_path / "tau.sto", tmp_path / "res.csv"
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "-o", str(sto), "--per-kg",
                 "--residuals", str(res_csv)]) == 0
    model, t, q, tau = api_torques()
    back = formats.read_opensim(sto)
    # OpenSim's inverse-dynamics layout: <coordinate>_force / _moment, never in degrees
    assert back.names == [f"{n}_force" for n in ("pBJX", "pBJY", "pBJZ")] + [
        f"{n}_moment" for n in model.v_names[3:]]
    assert back.meta["in_degrees"] is False
    assert "N·m/kg" in Path(sto).read_text(encoding="utf-8").splitlines()[0]
    np.testing.assert_allclose(back.q, tau / model.total_mass, rtol=1e-9, atol=1e-9)
    t_back, tau_back, names = formats.read_torques(sto, model)
    assert names == list(model.v_names)
    np.testing.assert_allclose(tau_back, tau / model.total_mass, rtol=1e-9, atol=1e-9)
    header, table = read_table(res_csv)
    assert header == ["time", "FX", "FY", "FZ", "MX", "MY", "MZ"]
    r = G.root_residuals(model, q, tau)
    np.testing.assert_allclose(table[:, 1:4], r.force, atol=1e-7)
    np.testing.assert_allclose(table[:, 4:], r.moment, atol=1e-7)
    # --mass overrides the body mass used for --per-kg
    out = tmp_path / "tau70.csv"
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "-o", str(out), "--per-kg",
                 "--mass", "70"]) == 0
    np.testing.assert_allclose(read_table(out)[1][:, 1:], tau / 70, rtol=1e-9, atol=1e-9)


def test_degrees_and_grf_in_the_motion_file(tmp_path):
    model = humod_subject("A")
    traj = formats.read(MOTION)
    reac = G.read_grf(GRF)
    both = trajectory.Trajectory(traj.time, traj.q, traj.names, grf=reac.grf, cop=reac.cop,
                         moment=reac.moment)
    deg = tmp_path / "deg.csv"
    formats.write_csv(deg, both, degrees=True, model=model)
    header = Path(deg).read_text().splitlines()[0]
    assert "grfY_R" in header and "momY_L" in header
    out = tmp_path / "tau.csv"
    assert main(["torques", HUMAN, str(deg), "--degrees", "-o", str(out)]) == 0
    _, _, _, tau = api_torques()
    np.testing.assert_allclose(read_table(out)[1][:, 1:], tau, rtol=1e-7, atol=1e-6)
    # without --degrees the angles are read as radians: very different torques
    assert main(["torques", HUMAN, str(deg), "-o", str(out)]) == 0
    assert np.abs(read_table(out)[1][:, 1:] - tau).max() > 100


def test_filter_matches_api(tmp_path):
    pytest.importorskip("scipy")
    out = tmp_path / "tau.csv"
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--filter", "15", "-o", str(out)]) == 0
    model = humod_subject("A")
    traj = formats.read(MOTION)
    t, q, _, _ = traj.for_model(model)
    qf, v, a = processing.estimate_derivatives(t, q, method="gradient", cutoff_hz=15, model=model,
                                       return_positions=True)
    loads = {k: processing.lowpass(t, w, 15) for k, w in
             G.external_loads(G.read_grf(GRF), model, time=t).items()}
    tau = model.inverse_dynamics(qf, v, a, f_ext=loads)
    np.testing.assert_allclose(read_table(out)[1][:, 1:], tau, rtol=1e-8, atol=1e-7)
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--derivatives", "savgol", "-o",
                 str(out)]) == 0


def test_several_motions_and_directories(tmp_path, capsys):
    d = tmp_path / "trials"
    d.mkdir()
    shutil.copy(MOTION, d / "run1.csv")
    shutil.copy(GRF, d / "run1_grf.csv")
    shutil.copy(MOTION, d / "still.csv")                # no ground reactions
    outdir = tmp_path / "out"
    assert main(["torques", HUMAN, str(d), "-o", str(outdir), "--residuals", str(outdir),
                 "--format", "sto", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "2 motions, 1360 samples" in text
    assert sorted(os.listdir(outdir)) == ["run1_residuals.csv", "run1_torques.sto",
                                          "still_residuals.csv", "still_torques.sto"]
    _, _, _, tau = api_torques()
    np.testing.assert_allclose(formats.read_opensim(outdir / "run1_torques.sto").q, tau, rtol=1e-9,
                               atol=1e-8)
    # without ground reactions the root carries the body: residual force ~ body weight on average
    _, res = read_table(outdir / "still_residuals.csv")
    assert np.mean(res[:, 2]) == pytest.approx(57.3 * 9.81, rel=0.02)
    # explicit files with a {stem} pattern for the reactions
    out2 = tmp_path / "out2"
    shutil.copy(MOTION, d / "run2.csv")
    shutil.copy(GRF, d / "run2_grf.csv")
    assert main(["torques", HUMAN, str(d / "run1.csv"), str(d / "run2.csv"), "--grf",
                 "{dir}/{stem}_grf.csv", "-o", str(out2)]) == 0
    for stem in ("run1", "run2"):
        np.testing.assert_allclose(read_table(out2 / f"{stem}_torques.csv")[1][:, 1:], tau,
                                   rtol=1e-9, atol=1e-8)
    capsys.readouterr()
    assert main(["torques", HUMAN, str(d / "run1.csv"), str(d / "still.csv"), "--grf", GRF]) == 1
    assert "{stem}" in capsys.readouterr().err


def test_progress_bar_with_tqdm(tmp_path, capsys, monkeypatch):
    tqdm = pytest.importorskip("tqdm")
    calls = []
    real = tqdm.tqdm

    def spy(*a, **k):
        calls.append(k)
        return real(*a, **k)

    monkeypatch.setattr(tqdm, "tqdm", spy)
    assert main(["torques", HUMAN, MOTION, MOTION, "--grf", "{dir}/{stem}_grf.csv"]) == 0
    assert calls and calls[0]["unit"] == "motion"


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "tau.png"
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
    assert (tmp_path / "tau_momentum.png").stat().st_size > 20_000
    arm = tmp_path / "arm.png"
    assert main(["torques", urdf2dyn.data_path("arm7.urdf"),
                 urdf2dyn.data_path("arm7_trajectory.csv"), "--plot", str(arm)]) == 0
    assert arm.stat().st_size > 10_000
    assert not (tmp_path / "arm_momentum.png").exists()      # not a human: no momentum plot


def test_plot_functions_writing_a_file_leave_no_figure_open(tmp_path):
    """Every biomech.plot function given a path draws outside pyplot: a notebook's loop of
    them, or torques --plot, leaves pyplot's list of figures as it was."""
    plt = pytest.importorskip("matplotlib.pyplot")
    from urdf2dyn.biomech import plot
    before = plt.get_fignums()
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--plot",
                 str(tmp_path / "tau.png")]) == 0
    model = humod_subject("A")
    res = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    L = np.einsum("nij,nj->ni", model.centroidal_momentum_matrix(res.q)[:, 3:], res.v)
    for k, draw in enumerate([
            lambda p: plot.plot_sagittal_moments(res.t, res.tau, model, p),
            lambda p: plot.plot_joint_heights(res.t, res.q, model, path=p),
            lambda p: plot.plot_torques(res.t, res.tau, model.v_names, path=p),
            lambda p: plot.plot_generalized_forces(res.t, res.tau, model, path=p),
            lambda p: plot.plot_angular_momentum(res.t, L, p)]):
        draw(tmp_path / f"{k}.png")
        assert (tmp_path / f"{k}.png").stat().st_size > 10_000
    assert plt.get_fignums() == before


def test_plot_angular_momentum_over_the_gait_cycle(tmp_path, monkeypatch):
    """A human trial's --plot also draws the whole-body angular momentum about the CoM: with
    --speed normalized by M V H (Herr & Popovic 2008; H the mean CoM height), the momentum
    being the angular rows of A_G times v, over the trial's filled and differentiated q, v."""
    pytest.importorskip("matplotlib")
    from urdf2dyn.biomech import plot
    drawn = {}
    monkeypatch.setattr(plot, "plot_angular_momentum",
                        lambda t, L, path, grf_y=None, title=None: drawn.update(
                            t=t, L=L, grf_y=grf_y, title=title) or path)
    png = tmp_path / "tau.png"
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--plot", str(png), "--speed", "3"]) == 0
    model = humod_subject("A")
    res = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    A = model.centroidal_momentum_matrix(res.q)
    L = np.einsum("nij,nj->ni", A[:, 3:], res.v)
    H = np.mean(model.center_of_mass(res.q)[:, 1])           # y up; the floor at y = 0
    np.testing.assert_allclose(drawn["L"], L / (model.total_mass * 3.0 * H), rtol=1e-12,
                               atol=1e-15)
    assert "V = 3 m/s" in drawn["title"] and set(drawn["grf_y"]) == {"L", "R"}
    # without --speed: the momentum itself, in N·m·s
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--plot", str(png)]) == 0
    np.testing.assert_allclose(drawn["L"], L, rtol=1e-12, atol=1e-12)
    assert "--speed" in drawn["title"]


def test_humod_mat_and_floating_root(tmp_path):
    pytest.importorskip("scipy")
    model = humod_subject("A")
    traj = formats.read(MOTION)
    reac = G.read_grf(GRF)
    both = trajectory.Trajectory(traj.time, traj.q, traj.names, grf=reac.grf,
                         cop={k: np.nan_to_num(x) for k, x in reac.cop.items()})
    both.meta["frame_rate"] = 200.0
    mat = tmp_path / "trial.mat"
    formats.write_humod(mat, both)
    out = tmp_path / "tau.csv"
    assert main(["torques", HUMAN, str(mat), "-o", str(out)]) == 0
    # no free moment in HuMoD files; the CoP at 0 in flight carries no force
    loads = G.external_loads(both, model)
    t, q, _, _ = both.for_model(model)
    v, a = derivatives(t, q, model=model)
    tau = model.inverse_dynamics(q, v, a, f_ext=loads)
    np.testing.assert_allclose(read_table(out)[1][:, 1:], tau, rtol=1e-6, atol=1e-5)
    # a floating-root human reads the same HuMoD-named CSV (converted on the way)
    fl = tmp_path / "floating.urdf"
    assert main(["human", "--subject", "A", "--root", "floating", "-o", str(fl)]) == 0
    res_p, res_f = tmp_path / "rp.csv", tmp_path / "rf.csv"
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--residuals", str(res_p)]) == 0
    assert main(["torques", str(fl), MOTION, "--grf", GRF, "--residuals", str(res_f)]) == 0
    rp, rf = read_table(res_p)[1], read_table(res_f)[1]
    inner = slice(3, -3)       # derivative estimates of quaternions differ a little at the ends
    np.testing.assert_allclose(rf[inner], rp[inner], atol=0.5)


def test_torques_errors(tmp_path, capsys):
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--contact", "R=shoe"]) == 1
    assert "no link 'shoe'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:    # a malformed option: argparse's exit status 2
        main(["torques", HUMAN, MOTION, "--grf", GRF, "--contact", "R"])
    assert e.value.code == 2
    assert "argument --contact: 'R': expected KEY=LINK" in capsys.readouterr().err
    sto = tmp_path / "m.sto"
    formats.write_opensim(sto, formats.read(MOTION), model=humod_subject("A"))
    assert main(["torques", HUMAN, str(sto), "--degrees"]) == 1
    assert "--degrees applies to CSV" in capsys.readouterr().err
    assert main(["torques", HUMAN, str(sto), "--grf", GRF]) == 0   # inDegrees=yes in the header
    capsys.readouterr()
    short = tmp_path / "short_grf.csv"
    lines = Path(GRF).read_text().splitlines()
    short.write_text("\n".join(lines[:100]) + "\n")
    assert main(["torques", HUMAN, MOTION, "--grf", str(short)]) == 1
    assert "cover" in capsys.readouterr().err
    assert main(["torques", HUMAN, str(tmp_path / "nope.csv")]) == 1
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("time,pBJX\n0,0\n1,0\n2,0\n")
    assert main(["torques", HUMAN, str(bad)]) == 1
    assert "missing columns ['pBJY'" in capsys.readouterr().err


def test_readme_command_in_a_new_process(tmp_path):
    """The README's first command (after installing): runs on the bundled demo, writes the CSV
    and the plot, prints the peaks and residuals."""
    cmd = [sys.executable, "-m", "urdf2dyn", "torques", HUMAN, MOTION, "--grf", GRF, "-o",
           str(tmp_path / "torques.csv")]
    try:
        import matplotlib
    except ImportError:
        matplotlib = None
    if matplotlib is not None:
        cmd += ["--plot", str(tmp_path / "torques.png")]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tmp_path)
    assert "ankle plantarflexion" in res.stdout and "root residuals" in res.stdout
    assert (tmp_path / "torques.csv").exists()


# ----------------------------------------------------------------------------- human

def test_human_command(tmp_path, capsys):
    out = tmp_path / "h.urdf"
    assert main(["human", "--height", "1.7", "--mass", "65", "--sex", "f", "-o", str(out)]) == 0
    assert out.read_text() == human(1.7, 65, "female")
    assert "female, 1.7 m, 65 kg" in capsys.readouterr().out
    assert main(["human", "--subject", "a", "-o", str(out)]) == 0
    assert out.read_text() == Path(HUMAN).read_text()
    # command-line mistakes exit with status 2, as argparse's own errors (issue 16)
    assert main(["human", "--height", "1.7", "-o", str(out)]) == 2
    assert "missing --mass --sex" in capsys.readouterr().err
    assert main(["human", "--subject", "A", "--height", "1.7", "-o", str(out)]) == 2
    assert "either --subject" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["human", "--height", "7", "--mass", "65", "--sex", "f", "-o", str(out)])
    assert e.value.code == 2
    assert "argument --height: 7: a stature in metres" in capsys.readouterr().err


# ----------------------------------------------------------------------------- info

def test_info_tree_and_dot(tmp_path, capsys):
    dot = tmp_path / "tree.dot"
    assert main(["info", "humod_subject_a.urdf", "--dot", str(dot)]) == 0
    text = capsys.readouterr().out
    assert "movable joints: 36 (3 prismatic, 33 revolute); nq = 36, nv = 36" in text
    assert "links: 39 (16 with mass); mass of the moving links 57.3 kg" in text
    assert ("pBJX pBJY pBJZ rBJX rBJY rBJZ (3 x prismatic xyz + 3 x revolute xyz, 6 DoF) -> "
            "pelvis") in text
    assert "rHJX_R rHJY_R rHJZ_R (3 x revolute xyz, 3 DoF) -> thigh_R  8.47 kg" in text
    assert "rKJZ_L (revolute z, 1 DoF) -> shank_L" in text
    assert "WJ_L (fixed, 0 DoF) -> hand_L" in text
    model = humod_subject("A")
    segments = [n for n in model.link_names if not n.endswith("_link") and n != "ground"]
    # the tree drawing: ground, then one line per segment, indented by depth
    tree = text[text.index("\nground\n") + 1:].splitlines()
    assert len([x for x in tree if "->" in x]) == len(segments) == 16
    dot_text = dot.read_text()
    assert dot_text.startswith('digraph "humod_subject_a" {')
    assert dot_text.count("->") == 16
    for seg in segments:
        assert f'"{seg}" [label="{seg}\\n' in dot_text
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg", str(dot), "-o", str(tmp_path / "t.svg")], check=True)
    # --full: every joint, massless intermediate links included
    full = tmp_path / "full.dot"
    assert main(["info", HUMAN, "--full", "--dot", str(full)]) == 0
    text = capsys.readouterr().out
    assert len([x for x in text.splitlines() if "->" in x and "DoF)" in x]) == 38
    assert full.read_text().count("->") == 38


def test_info_other_robots(capsys):
    assert main(["info", "arm7.urdf"]) == 0
    text = capsys.readouterr().out
    assert "movable joints: 7 (7 revolute)" in text and "arm7_joint7 (revolute z, 1 DoF)" in text
    assert main(["info", "robot2r.urdf", "--floating-base"]) == 0
    text = capsys.readouterr().out
    assert "<world>" in text and "root_joint (floating, 6 DoF) -> world" in text
    assert main(["info", "no_such_robot.urdf"]) == 1
    assert "no such file" in capsys.readouterr().err


def test_module_help_lists_commands(tmp_path):
    res = subprocess.run([sys.executable, "-m", "urdf2dyn", "--help"], capture_output=True,
                         text=True, check=True, cwd=tmp_path)   # not the source tree
    for cmd in ("torques", "human", "info"):
        assert cmd in res.stdout
