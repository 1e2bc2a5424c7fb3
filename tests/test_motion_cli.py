"""Motion files, finite-difference derivatives and the `urdf2dyn torques` command."""
import os
import subprocess
import sys

import hypothesis
import numpy as np
import pytest
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn.cli import main
from urdf2dyn.biomech.trajectory import MotionError
from urdf2dyn.biomech.formats import read_csv
from urdf2dyn.biomech.processing import estimate_derivatives as derivatives
from urdf2dyn.biomech.formats import write_table as write_csv

ROBOT2R = urdf2dyn.data_path("robot2r.urdf")


def quadratic(t):
    """q, v, a of a quadratic trajectory of the 2R robot (finite differences are exact)."""
    c = np.array([[0.3, -1.2, 0.8], [-0.5, 0.4, -2.0]])   # q_i = c0 + c1 t + c2 t^2
    q = c[:, 0] + np.outer(t, c[:, 1]) + np.outer(t ** 2, c[:, 2])
    v = c[:, 1] + 2 * np.outer(t, c[:, 2])
    a = np.tile(2 * c[:, 2], (len(t), 1))
    return q, v, a


def test_derivatives_exact_on_quadratic():
    model = urdf2dyn.load(ROBOT2R)
    t = np.cumsum(np.r_[0, np.random.default_rng(0).uniform(0.005, 0.02, 199)])  # uneven steps
    q, v, a = quadratic(t)
    v_est, a_est = derivatives(t, q, model=model)
    np.testing.assert_allclose(v_est, v, atol=1e-10)
    np.testing.assert_allclose(a_est, a, atol=1e-8)


def test_derivatives_second_order_on_sine():
    model = urdf2dyn.load(ROBOT2R)
    errors = []
    for h in (1e-2, 5e-3):
        t = np.arange(0, 2, h)
        q = np.column_stack([np.sin(3 * t), np.cos(2 * t)])
        v_est, a_est = derivatives(t, q, model=model)
        inner = slice(2, -2)
        a = np.column_stack([-9 * np.sin(3 * t), -4 * np.cos(2 * t)])
        errors.append(np.abs(a_est - a)[inner].max())
    assert errors[1] < errors[0] / 3.5          # halving h divides the error by ~4


def test_floating_derivatives_body_frame():
    """A body spinning about a fixed axis n by theta = 0.4 t^2 while translating: body-frame
    angular velocity n theta', linear velocity R^T p'."""
    model = urdf2dyn.load(ROBOT2R, floating_base=True)
    t = np.arange(0, 1, 1e-3)
    n = np.array([1.0, 2.0, 2.0]) / 3.0
    theta, dtheta = 0.4 * t ** 2, 0.8 * t
    quat = np.column_stack([np.outer(np.sin(theta / 2), n), np.cos(theta / 2)])
    quat[::7] *= -1                                  # the same rotations, sign flipped
    p = np.column_stack([t, t ** 2, np.zeros_like(t)])
    dp = np.column_stack([np.ones_like(t), 2 * t, np.zeros_like(t)])
    q = np.zeros((len(t), model.nq))
    q[:, :3], q[:, 3:7] = p, quat
    v_est, a_est = derivatives(t, q, model=model)
    K = np.array([[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]])
    R = np.eye(3) + np.sin(theta)[:, None, None] * K + (1 - np.cos(theta))[:, None, None] * (K @ K)
    np.testing.assert_allclose(v_est[:, 3:6], np.outer(dtheta, n), atol=1e-5)
    np.testing.assert_allclose(v_est[:, :3], np.einsum("nji,nj->ni", R, dp), atol=1e-5)
    np.testing.assert_allclose(a_est[2:-2, 3:6], np.tile(0.8 * n, (len(t) - 4, 1)), atol=1e-4)


def write_motion(path, t, q, names, extra=None):
    cols = [t, q] + ([extra[1]] if extra else [])
    write_csv(path, t, np.column_stack(cols[1:]), [*names, *(extra[0] if extra else [])])


def test_cli_torques_on_quadratic(tmp_path, capsys):
    model = urdf2dyn.load(ROBOT2R)
    t = np.linspace(0, 1, 101)
    q, v, a = quadratic(t)
    motion, out = tmp_path / "m.csv", tmp_path / "tau.csv"
    write_motion(motion, t, q, model.q_names)
    assert main(["torques", ROBOT2R, str(motion), "-o", str(out)]) == 0
    header = out.read_text().splitlines()[0]
    assert header == "time,joint1,joint2"
    table = np.loadtxt(out, delimiter=",", skiprows=1)
    np.testing.assert_allclose(table[:, 0], t)
    np.testing.assert_allclose(table[:, 1:], model.inverse_dynamics(q, v, a), rtol=1e-7,
                               atol=1e-6)
    printed = capsys.readouterr().out
    assert "peak |tau|" in printed and "joint1" in printed and "101 samples" in printed


def test_cli_uses_given_velocities_and_gravity(tmp_path):
    model = urdf2dyn.load(ROBOT2R)
    model.gravity = (0, -9.81, 0)
    t = np.linspace(0, 1, 11)
    rng = np.random.default_rng(5)
    q, v, a = rng.normal(size=(11, 2)), rng.normal(size=(11, 2)), rng.normal(size=(11, 2))
    motion, out = tmp_path / "m.csv", tmp_path / "tau.csv"
    names = ["joint1_vel", "joint2_vel", "joint1_acc", "joint2_acc"]
    write_motion(motion, t, q, model.q_names, (names, np.column_stack([v, a])))
    assert main(["torques", ROBOT2R, str(motion), "-o", str(out), "--gravity", "0", "-9.81",
                 "0"]) == 0
    table = np.loadtxt(out, delimiter=",", skiprows=1)
    np.testing.assert_allclose(table[:, 1:], model.inverse_dynamics(q, v, a), rtol=1e-9)


@pytest.mark.parametrize("header, words", [
    ("time,joint1", ["missing columns ['joint2']"]),
    ("time,joint1,joint2,elbow", ["unknown columns ['elbow']"]),
    ("joint1,joint2", ["missing columns ['time']"]),
    ("time,joint1,joint2,joint1_vel", ["incomplete velocity columns", "joint2_vel"]),
])
def test_cli_column_errors(tmp_path, capsys, header, words):
    motion = tmp_path / "m.csv"
    ncol = len(header.split(","))
    rows = "\n".join(",".join(str(0.1 * (r + c)) for c in range(ncol)) for r in range(5))
    motion.write_text(header + "\n" + rows + "\n")
    assert main(["torques", ROBOT2R, str(motion)]) == 1
    err = capsys.readouterr().err
    for w in words:
        assert w in err


def test_motion_file_errors(tmp_path):
    model = urdf2dyn.load(ROBOT2R)
    bad = tmp_path / "bad.csv"
    bad.write_text("time,joint1,joint2\n0,1,2\n0,1,2\n0.1,1,2\n")
    with pytest.raises(MotionError, match="strictly increasing"):
        read_csv(bad, model=model)
    bad.write_text("time,joint1,joint2\n0,1,x\n")
    with pytest.raises(MotionError, match="numeric"):
        read_csv(bad, model=model)
    bad.write_text("")
    with pytest.raises(MotionError, match="empty"):
        read_csv(bad, model=model)


def test_module_entry_point_on_bundled_data(tmp_path):
    out = tmp_path / "tau.csv"
    res = subprocess.run([sys.executable, "-m", "urdf2dyn", "torques", urdf2dyn.data_path(
        "arm7.urdf"), urdf2dyn.data_path("arm7_trajectory.csv"), "-o", str(out)],
        capture_output=True, text=True, check=True, cwd=tmp_path)   # not the source tree
    assert "arm7_joint7" in res.stdout
    assert np.loadtxt(out, delimiter=",", skiprows=1).shape[1] == 8


def test_cli_counts_one_sample_in_the_singular(tmp_path, capsys):
    """--time-range keeping one sample printed 'motion: ...: 1 samples'."""
    model = urdf2dyn.load(ROBOT2R)
    t = np.linspace(0, 0.09, 10)
    motion, out = tmp_path / "m.csv", tmp_path / "tau.csv"
    write_motion(motion, t, quadratic(t)[0], model.q_names)
    assert main(["torques", ROBOT2R, str(motion), "-o", str(out), "--time-range", "0.02",
                 "0.02"]) == 0
    assert len(np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)) == 1
    printed = capsys.readouterr().out
    assert "m.csv: 1 sample, t = 0.02 .. 0.02 s" in printed, printed


def test_filtering_unevenly_sampled_coordinates_names_the_file_and_the_flag(tmp_path, capsys):
    """An integrator's output (OpenSim's RRA and CMC Kinematics_q.sto) has uneven time steps.
    urdf2dyn torques --filter refused it in the library's words, without the file ("the
    Butterworth filter needs uniformly sampled data ...; resample first or use
    method='spline' / 'gradient' without cutoff_hz"); the message names the file and the
    command line's options."""
    model = urdf2dyn.load(ROBOT2R)
    t = np.sort(np.r_[np.linspace(0, 1, 101), 0.50002])
    q, _, _ = quadratic(t)
    motion = tmp_path / "uneven.csv"
    write_motion(motion, t, q, model.q_names)
    assert main(["torques", ROBOT2R, str(motion), "--filter", "6"]) == 1
    err = capsys.readouterr().err
    assert f"{motion}: time steps vary from 2e-05 to 0.01 s" in err, err
    assert "--filter" in err and "cutoff_hz" not in err and "method=" not in err


def test_a_filter_refused_on_uneven_steps_is_named_as_its_caller_gave_it(tmp_path, capsys):
    """The refusal named the filter "(--filter, filter_hz)" and advised "drop the filter"
    whoever gave it: the library's caller now reads filter_hz and None, the command line's
    --filter and leaving it out (CutoffNamed, as every other refusal of a cut-off)."""
    model = urdf2dyn.load(ROBOT2R)
    t = np.sort(np.r_[np.linspace(0, 1, 101), 0.50002])
    motion = tmp_path / "uneven.csv"
    write_motion(motion, t, quadratic(t)[0], model.q_names)
    with pytest.raises(MotionError) as refused:
        urdf2dyn.inverse_dynamics_trial(model, str(motion), filter_hz=6)
    said = str(refused.value)
    assert "the Butterworth filter (filter_hz) needs" in said and "None for no filter" in said
    assert "--filter" not in said, said
    assert main(["torques", ROBOT2R, str(motion), "--filter", "6"]) == 1
    err = capsys.readouterr().err
    assert "the Butterworth filter (--filter) needs" in err and "or no --filter" in err, err
    assert "filter_hz" not in err, err


@pytest.mark.parametrize("filtered", [False, True])
def test_savgol_refused_on_uneven_steps_is_named_as_its_caller_gave_it(tmp_path, capsys,
                                                                       filtered):
    """Savitzky-Golay derivatives on unevenly sampled coordinates were refused naming the
    command line's "--derivatives savgol" and advising "--derivatives gradient or spline"
    to a library caller too, whose option is the keyword derivatives; asked for with the
    filter, only the filter was named, so dropping it met the next refusal. The library's
    caller now reads its keywords, the command line its flags (CutoffNamed and
    ColumnOptions), each of the two that need even steps named with what to give instead."""
    model = urdf2dyn.load(ROBOT2R)
    t = np.sort(np.r_[np.linspace(0, 1, 101), 0.50002])
    motion = tmp_path / "uneven.csv"
    write_motion(motion, t, quadratic(t)[0], model.q_names)
    cutoff = {"filter_hz": 6} if filtered else {}
    with pytest.raises(MotionError) as refused:
        urdf2dyn.inverse_dynamics_trial(model, str(motion), derivatives="savgol", **cutoff)
    said = str(refused.value)
    assert f"{motion}: time steps vary from 2e-05 to 0.01 s" in said, said
    assert 'Savitzky-Golay derivatives (derivatives="savgol") need' in said, said
    assert 'choose derivatives="gradient" or derivatives="spline"' in said, said
    assert "--" not in said, said
    assert ("the Butterworth filter (filter_hz) and Savitzky" in said
            and "None for no filter, and choose" in said) == filtered, said
    flags = ["--filter", "6"] if filtered else []
    assert main(["torques", ROBOT2R, str(motion), "--derivatives", "savgol", *flags]) == 1
    err = capsys.readouterr().err
    assert "Savitzky-Golay derivatives (--derivatives savgol) need" in err, err
    assert "choose --derivatives gradient or --derivatives spline" in err, err
    assert "derivatives=" not in err and "filter_hz" not in err, err
    assert ("the Butterworth filter (--filter) and Savitzky" in err
            and "no --filter, and choose" in err) == filtered, err


@pytest.mark.parametrize("method", ["savgol", "spline"])
def test_derivatives_with_an_id_setup_are_refused_not_ignored(tmp_path, capsys, method):
    """urdf2dyn torques --setup runs OpenSim's processing, which differentiates natural
    quintic splines: --derivatives savgol or spline beside it was ignored, the torques
    written from OpenSim's derivatives with nothing said (torques ROBOT MOTION --processing
    opensim refuses the pair). It is now refused before any work, naming the flag and the
    setup, as --filter beside --setup is."""
    setup = os.path.join(os.path.dirname(__file__), "data", "opensim_models",
                         "Gait10dof18musc", "ID", "walk_Setup_ID.xml")
    out = tmp_path / "out.sto"
    assert main(["torques", "--setup", setup, "--derivatives", method, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--derivatives {method} and --setup: the setup runs OpenSim's processing" in err, err
    assert not out.exists()


def _id_setup(folder, coordinates_file, name="s.xml"):
    """An ID setup in folder running robot2r on coordinates_file over 0 .. 1 s, unfiltered,
    writing tau.sto: its path."""
    setup = folder / name
    setup.write_text(f"""<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40600">
  <InverseDynamicsTool name="{setup.stem}">
    <model_file>{ROBOT2R}</model_file>
    <time_range>0 1</time_range>
    <coordinates_file>{coordinates_file}</coordinates_file>
    <lowpass_cutoff_frequency_for_coordinates>-1</lowpass_cutoff_frequency_for_coordinates>
    <output_gen_force_file>tau.sto</output_gen_force_file>
  </InverseDynamicsTool>
</OpenSimDocument>
""")
    return setup


def test_csv_separators_beside_an_id_setup_are_used_not_ignored(tmp_path, capsys):
    """urdf2dyn torques --setup read a CSV coordinates_file with the separators detected,
    whatever --delimiter and --decimal said: --delimiter comma on a semicolon-separated file
    ran, the option ignored with nothing said. They now read it as without --setup: that
    file refused as comma-separated (one header column), read as what it is with
    --delimiter semicolon --decimal ,."""
    t = np.linspace(0, 1, 101)
    q = quadratic(t)[0]
    rows = [f"{x:.6f};{a:.8f};{b:.8f}".replace(".", ",") for x, (a, b) in zip(t, q)]
    (tmp_path / "m.csv").write_text("time;joint1;joint2\n" + "\n".join(rows) + "\n")
    setup = _id_setup(tmp_path, "m.csv")
    out = tmp_path / "tau.sto"
    assert main(["torques", "--setup", str(setup), "--delimiter", "comma", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"error: {tmp_path / 'm.csv'}: line 2 has " in err and "for 1 header columns" in err
    assert not out.exists()
    assert main(["torques", "--setup", str(setup), "--delimiter", "semicolon", "--decimal", ",",
                 "-o", str(out)]) == 0
    assert out.exists()


#: the column separators torques takes, and the file's written with each (whitespace: spaces)
SEPARATORS = {"comma": ",", "semicolon": ";", "tab": "\t", "whitespace": " "}


def _reads(given, written):
    """Whether --delimiter given reads columns written with separator written: its own, or
    whitespace, which tabs are too."""
    return given is None or SEPARATORS[given] == written or (
        given == "whitespace" and written == "\t")


@hypothesis.settings(max_examples=25, derandomize=True, deadline=None, database=None)
@hypothesis.given(
    written=st.sampled_from(sorted(SEPARATORS.values())), comma=st.booleans(),
    delimiter=st.one_of(st.none(), st.sampled_from(sorted(SEPARATORS))),
    decimal=st.sampled_from([None, ".", ","]))
def test_csv_separators_beside_an_id_setup_read_the_file_or_refuse_it(
        tmp_path_factory, written, comma, delimiter, decimal):
    """A setup's CSV coordinates_file in any dialect torques reads (separators comma,
    semicolon, tab or spaces; decimal commas where the columns are not comma-separated) with
    any --delimiter and --decimal: the run computes exactly the torques of the same numbers
    in a plain comma-separated file when the options agree with the file (given or left to
    detection), and is refused naming the file when they do not: never an option ignored."""
    comma = comma and written != ","
    tmp = tmp_path_factory.mktemp("dialect")
    t = np.linspace(0, 1, 101)
    rows = [[f"{x:.6f}", f"{a:.8f}", f"{b:.8f}"] for x, (a, b) in zip(t, quadratic(t)[0])]
    setups = {}
    for name, sep, dec in (("plain", ",", "."), ("dialect", written, "," if comma else ".")):
        (tmp / f"{name}.csv").write_text("\n".join(
            sep.join(cell.replace(".", dec) for cell in row)
            for row in [["time", "joint1", "joint2"]] + rows) + "\n")
        setups[name] = _id_setup(tmp, f"{name}.csv", f"{name}.xml")
    options = [*(["--delimiter", delimiter] if delimiter else []),
               *(["--decimal", decimal] if decimal else [])]
    assert main(["torques", "--setup", str(setups["plain"]), "-o",
                 str(tmp / "tau_plain.csv")]) == 0
    status = main(["torques", "--setup", str(setups["dialect"]), *options,
                   "-o", str(tmp / "tau_dialect.csv")])
    agree = _reads(delimiter, written) and decimal in (None, "," if comma else ".")
    assert status == (0 if agree else 1), (options, written, comma)
    if agree:
        hypothesis.event("options agree: computed")
        np.testing.assert_array_equal(
            np.loadtxt(tmp / "tau_dialect.csv", delimiter=",", skiprows=1),
            np.loadtxt(tmp / "tau_plain.csv", delimiter=",", skiprows=1))
    else:
        hypothesis.event("options disagree: refused")


@pytest.mark.parametrize("given", [["--delimiter", "semicolon"], ["--decimal", ","]])
def test_csv_separators_beside_an_id_setup_of_a_mot_file_are_refused_not_ignored(
        tmp_path, capsys, given):
    """With --setup, --delimiter and --decimal read a CSV coordinates_file; the setup's .mot
    file (the usual one: OpenSim's tool reads no CSV) ran with them ignored, nothing said, as
    its ExternalLoads data is read as written. They are now refused naming the file they
    cannot apply to, as --degrees is for a file that is not a CSV."""
    t = np.linspace(0, 1, 101)
    urdf2dyn.biomech.formats.write(
        tmp_path / "m.mot", urdf2dyn.biomech.Trajectory(t, quadratic(t)[0],
                                                        ["joint1", "joint2"]))
    setup = _id_setup(tmp_path, "m.mot")
    out = tmp_path / "tau.csv"
    assert main(["torques", "--setup", str(setup), "-o", str(out)]) == 0    # it runs as is
    out.unlink()
    capsys.readouterr()
    assert main(["torques", "--setup", str(setup), *given, "-o", str(out)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"error: {given[0]} and --setup: the setup's coordinates_file " in err, err
    assert f"m.mot is not a CSV file; drop {given[0]}" in err, err
    assert not out.exists()


@pytest.mark.parametrize("robot", [[], [ROBOT2R]])
def test_floating_base_beside_an_id_setup_is_refused_not_ignored(tmp_path, capsys, robot):
    """urdf2dyn torques --setup SETUP --floating-base loaded the setup's model without the
    floating joint, the option ignored with nothing said; given the model too (SETUP ROBOT),
    the run stopped on the library's words "use processing='urdf2dyn'", which --setup
    refuses. OpenSim's processing, which a setup runs, takes one coordinate per degree of
    freedom, and the floating joint's quaternion has four for three (the oracle:
    urdf2dyn.load(ROBOT2R, floating_base=True)'s nq and nv): --floating-base is refused
    beside --setup before any work, with what to do instead."""
    floating = urdf2dyn.load(ROBOT2R, floating_base=True)
    assert floating.nq == floating.nv + 1
    t = np.linspace(0, 1, 101)
    write_csv(tmp_path / "m.csv", t, quadratic(t)[0], ["joint1", "joint2"])
    setup = _id_setup(tmp_path, "m.csv")
    out = tmp_path / "tau.csv"
    assert main(["torques", "--setup", str(setup), *robot, "--floating-base", "-o",
                 str(out)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "error: --floating-base and --setup: " in err, err
    assert "drop --floating-base, or run urdf2dyn torques ROBOT MOTION --floating-base" in err
    assert "processing=" not in err, err
    assert not out.exists()


def test_a_cutoff_lowered_to_opensims_049_fs_is_named_as_the_command_line_gave_it(tmp_path,
                                                                                  capsys):
    """OpenSim's processing lowers a cut-off at or above half the rate to 0.49 of it, with a
    warning that said "cutoff 60 Hz" whoever gave it; the command line's says --filter."""
    model = urdf2dyn.load(ROBOT2R)
    t = np.linspace(0, 1, 101)
    motion = tmp_path / "m.csv"
    write_motion(motion, t, quadratic(t)[0], model.q_names)
    assert main(["torques", ROBOT2R, str(motion), "--processing", "opensim", "--filter", "60",
                 "-o", str(tmp_path / "tau.csv")]) == 0
    err = capsys.readouterr().err
    assert "warning: " in err and "--filter 60 Hz at or above half the sampling rate" in err, err


@pytest.mark.parametrize("given", [["--delimiter", "semicolon"], ["--decimal", ","]])
def test_csv_separators_with_no_csv_file_are_refused_not_ignored(tmp_path, capsys, given):
    """urdf2dyn torques ROBOT m.mot --delimiter semicolon ran with the option ignored and
    nothing said: it reads the CSV motion and ground-reaction files, and this trial has none.
    Refused now before any work, naming the files; with a CSV motion it is read."""
    t = np.linspace(0, 1, 101)
    urdf2dyn.biomech.formats.write(
        tmp_path / "m.mot", urdf2dyn.biomech.Trajectory(t, quadratic(t)[0],
                                                        ["joint1", "joint2"]))
    out = tmp_path / "tau.csv"
    assert main(["torques", ROBOT2R, str(tmp_path / "m.mot"), *given, "-o", str(out)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"error: {given[0]} reads CSV files, and neither the motion nor the ground "
            f"reactions is one ({tmp_path / 'm.mot'}); drop {given[0]}") in err, err
    assert not out.exists()
    write_csv(tmp_path / "m.csv", t, quadratic(t)[0], ["joint1", "joint2"])
    as_written = {"--delimiter": "comma", "--decimal": "."}[given[0]]
    assert main(["torques", ROBOT2R, str(tmp_path / "m.csv"), given[0], as_written,
                 "-o", str(out)]) == 0
    assert out.exists()
