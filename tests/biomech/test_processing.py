"""Missing samples: pandas-written CSVs (NaN as empty cells) read as missing; short gaps are
filled by cubic interpolation with a warning naming rows and columns, long ones stop the trial;
no NaN spreads beyond the samples it came from, with or without --filter; a centre of pressure
missing outside contact is no load, not a gap."""
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import processing, formats, trajectory
from urdf2dyn.cli import main
from urdf2dyn.biomech.human import humod_subject

from recording_files import GRF, HUMAN, MOTION, to_pandas_csv, trial


def test_fill_gaps_is_exact_on_cubics_and_names_what_it_filled():
    t = np.cumsum(np.r_[0, np.random.default_rng(0).uniform(0.008, 0.012, 59)])
    x = np.column_stack([2 - t + 3 * t ** 2 - 5 * t ** 3, np.cos(3 * t)])
    y = x.copy()
    y[20:25, 0] = np.nan
    y[40, 1] = np.nan
    filled, found = processing.fill_gaps(t, y, ["a", "b"])
    np.testing.assert_allclose(filled[:, 0], x[:, 0], rtol=0, atol=1e-12)   # cubic: exact
    assert abs(filled[40, 1] - x[40, 1]) < 1e-6                             # smooth: O(h^4)
    assert [str(g) for g in found] == [
        f"a rows 21-25 (t = {t[20]:g} .. {t[24]:g} s)", f"b row 41 (t = {t[40]:g} s)"]
    assert np.array_equal(filled[~np.isnan(y)], x[~np.isnan(y)])     # valid samples untouched


def test_long_and_edge_gaps_are_refused_with_rows_and_columns():
    t = np.arange(50) * 0.01
    x = np.zeros((50, 2))
    x[10:16, 1] = np.nan
    with pytest.raises(trajectory.MotionError, match=r"m\.csv: .*longer than the 5 samples "
                                             r"filled \(max_gap=5\).*"
                                             r"b rows 11-16 \(t = 0\.1 \.\. 0\.15 s\)"):
        processing.fill_gaps(t, x, ["a", "b"], source="m.csv")
    assert not np.isnan(processing.fill_gaps(t, x, ["a", "b"], max_gap=6)[0]).any()
    x = np.zeros((50, 2))
    x[:2, 0] = np.nan
    with pytest.raises(trajectory.MotionError, match=r"start or end of the trial.*a rows 1-2"):
        processing.fill_gaps(t, x, ["a", "b"])
    x[:2, 0] = 0.0
    x[5, 0] = np.nan
    with pytest.raises(trajectory.MotionError, match=r"the 0 samples filled \(max_gap=0\)"):
        processing.fill_gaps(t, x, ["a", "b"], max_gap=0)


def _with_gap(tmp_path, rows, column="rKJZ_L", index=False):
    motion, _ = trial()
    motion.q[rows, motion.names.index(column)] = np.nan
    path = to_pandas_csv(tmp_path / "gappy.csv", motion, index=index)
    return path


@pytest.mark.parametrize("index", [False, True])
def test_pandas_csv_with_five_missing_rows_is_filled_and_warned(tmp_path, index):
    """Issue 8: 5 NaN rows in a motion file became 9 NaN output rows."""
    path = _with_gap(tmp_path, slice(100, 105), index=index)
    text = Path(path).read_text().splitlines()
    assert ",," in text[101] or text[101].endswith(",")          # pandas: NaN -> empty cell
    raw = formats.read(path)
    assert np.isnan(raw.column("rKJZ_L")[100:105]).all() and raw.names[0] == "pBJX"
    model = humod_subject("A")
    full = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    with pytest.warns(urdf2dyn.Urdf2dynWarning,
                      match=r"filled 1 gap.*rKJZ_L rows 101-105 \(t = 0\.5 \.\. 0\.52 s\)"):
        res = urdf2dyn.inverse_dynamics_trial(model, path, GRF)
    assert np.isfinite(res.tau).all()
    assert res.record["filled_gaps"] == ["rKJZ_L rows 101-105 (t = 0.5 .. 0.52 s)"]
    k = model.q_names.index("rKJZ_L")
    assert np.abs(res.q[100:105, k] - full.q[100:105, k]).max() < 1e-4        # rad
    far = np.r_[0:95, 110:680]
    np.testing.assert_array_equal(res.tau[far], full.tau[far])   # nothing beyond the gap changes


def test_filter_never_spreads_a_gap(tmp_path):
    """Issue 8: with --filter every output row was NaN."""
    pytest.importorskip("scipy")
    path = _with_gap(tmp_path, slice(300, 305))
    out = tmp_path / "tau.csv"
    assert main(["torques", HUMAN, str(path), "--grf", GRF, "--filter", "15", "-o",
                 str(out)]) == 0
    t, tau, _ = formats.read_torques(out)
    assert np.isfinite(tau).all() and len(t) == 680


def test_cli_warns_refuses_and_strict(tmp_path, capsys):
    path = _with_gap(tmp_path, slice(100, 105))
    assert main(["torques", HUMAN, str(path), "--grf", GRF]) == 0
    err = capsys.readouterr().err
    assert "warning: " in err and "rKJZ_L rows 101-105" in err
    assert main(["torques", HUMAN, str(path), "--grf", GRF, "--strict"]) == 1
    assert "error:" in capsys.readouterr().err
    assert main(["torques", HUMAN, str(path), "--grf", GRF, "--max-gap", "4"]) == 1
    err = capsys.readouterr().err
    assert "longer than the 4 samples filled (--max-gap 4)" in err and "rKJZ_L rows 101-105" in err
    long = _with_gap(tmp_path, slice(100, 120))
    assert main(["torques", HUMAN, str(long), "--grf", GRF]) == 1
    assert "rKJZ_L rows 101-120 (t = 0.5 .. 0.595 s)" in capsys.readouterr().err


def test_no_centre_of_pressure_outside_contact_is_no_load_not_a_gap(tmp_path):
    model = humod_subject("A")
    with warnings.catch_warnings():
        warnings.simplefilter("error", urdf2dyn.Urdf2dynWarning)
        res = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)   # NaN CoP in every flight
    assert res.warnings == [] and res.record["filled_gaps"] == []
    _, reac = trial()
    assert np.isnan(reac.cop["R"]).any()


def test_gaps_in_a_force_plate_during_contact(tmp_path):
    """Three force and CoP samples lost in mid-stance are filled; twenty are refused."""
    model = humod_subject("A")
    full = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    _, reac = trial()
    fy = reac.grf["R"][:, 1]
    mid = int(np.argmax(fy))
    for n, ok in ((3, True), (20, False)):
        lines = Path(GRF).read_text().splitlines()
        header = lines[0].split(",")
        cols = [header.index(c) for c in ("grfX_R", "grfY_R", "grfZ_R", "copX_R", "copY_R",
                                          "copZ_R")]
        for r in range(mid - n // 2, mid - n // 2 + n):
            cells = lines[r + 1].split(",")
            for c in cols:
                cells[c] = ""
            lines[r + 1] = ",".join(cells)
        path = tmp_path / f"gap{n}_grf.csv"
        path.write_text("\n".join(lines) + "\n")
        if ok:
            with pytest.warns(urdf2dyn.Urdf2dynWarning, match="ground reaction 'R'"):
                res = urdf2dyn.inverse_dynamics_trial(model, MOTION, path)
            rows = slice(mid - 1, mid + 2)
            np.testing.assert_allclose(res.f_ext["foot_R"][rows], full.f_ext["foot_R"][rows],
                                       rtol=0.02)
            assert np.isfinite(res.tau).all()
        else:
            with pytest.raises(trajectory.MotionError, match=r"R_force rows .* during a contact"):
                urdf2dyn.inverse_dynamics_trial(model, MOTION, path)


def test_velocity_columns_with_gaps_are_filled_too(tmp_path):
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    model.gravity = (0.0, -9.81, 0.0)       # the thesis' vertical plane, as robot2r.urdf says
    t = np.arange(40) * 0.01
    q = np.column_stack([np.sin(t), np.cos(t)])
    v = np.column_stack([np.cos(t), -np.sin(t)])
    a = -q
    table = np.column_stack([t, q, v, a])
    table[10:12, 3] = np.nan
    path = tmp_path / "m.csv"
    formats.write_table(path, t, table[:, 1:], ["joint1", "joint2", "joint1_vel", "joint2_vel",
                                           "joint1_acc", "joint2_acc"])
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match="joint1_vel rows 11-12"):
        res = urdf2dyn.inverse_dynamics_trial(model, path)
    np.testing.assert_allclose(res.v, v, atol=1e-7)
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_dataframe_and_trajectory_inputs_are_not_modified():
    pd = pytest.importorskip("pandas")
    model = humod_subject("A")
    motion, reac = trial()
    motion.q[200:203, 5] = np.nan
    df = pd.DataFrame(motion.q, columns=motion.names, index=pd.Index(motion.time, name="time"))
    before_q, before_cop = motion.q.copy(), reac.cop["R"].copy()
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match="rBJZ rows 201-203"):
        a = urdf2dyn.inverse_dynamics_trial(model, df, reac)
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match="rBJZ rows 201-203"):
        b = urdf2dyn.inverse_dynamics_trial(model, motion, reac)
    np.testing.assert_array_equal(a.tau, b.tau)
    assert np.isfinite(a.tau).all()
    np.testing.assert_array_equal(motion.q, before_q)             # NaN still there: a copy
    np.testing.assert_array_equal(reac.cop["R"], before_cop)
    assert np.isnan(df.to_numpy()[200:203, 5]).all()


def test_pandas_csv_without_a_time_column_says_what_to_do(tmp_path):
    pd = pytest.importorskip("pandas")
    motion, _ = trial()
    df = pd.DataFrame(motion.q[:10], columns=motion.names, index=motion.time[:10])
    df.to_csv(tmp_path / "m.csv")                    # the times in an unnamed index column
    with pytest.raises(trajectory.MotionError, match=r"no name .*df\.index\.name = 'time'"):
        formats.read(tmp_path / "m.csv")
    df.index.name = "time"
    df.to_csv(tmp_path / "m.csv")
    np.testing.assert_array_equal(formats.read(tmp_path / "m.csv").q, motion.q[:10])


def test_plate_noise_without_a_centre_of_pressure_is_no_load():
    """Outside contact plate software writes a CoP of 0 0 0 (OpenSim's example files do) next
    to a few newtons of noise: no load there, not 5 N at the lab origin."""
    t = np.arange(10) * 0.01
    F = np.zeros((10, 3))
    F[:, 1] = [5, 3, 400, 800, 900, 800, 400, 4, np.nan, 2]
    P = np.zeros((10, 3))
    P[2:7] = [0.1, 0.0, 0.2]
    P[8] = np.nan
    F2, P2, M2, filled, notes = processing.fill_load_gaps(t, F, P, np.zeros((10, 3)), key="R")
    off = [0, 1, 7, 8, 9]
    assert np.all(F2[off] == 0) and np.isnan(P2[off]).all() and not filled and not notes
    np.testing.assert_array_equal(F2[2:7], F[2:7])


def test_rounded_times_of_a_uniform_recording_are_its_grid():
    """A 60 Hz recording whose times are printed to the millisecond (OpenSim's published
    .trc files: steps of 0.016 and 0.017 s) is uniformly sampled: the filter takes it (it
    refused it) and the derivatives are those of the grid, not of the rounding (3 % jitter in
    the steps: 14 % of a 1 Hz sine's peak acceleration with finite differences on the written
    times). Irregular times stay as they are."""
    from urdf2dyn.biomech.processing import estimate_derivatives, sampling_grid
    grid = 0.5 + np.arange(121) / 60.0
    written = np.round(grid, 3)
    q = np.sin(2 * np.pi * 1.0 * grid)[:, None]
    assert np.array_equal(sampling_grid(written), grid)
    v, a = estimate_derivatives(written, q)
    exact = -(2 * np.pi) ** 2 * q
    assert np.abs(a - exact)[2:-2].max() < 0.01 * np.abs(exact).max()
    pytest.importorskip("scipy")
    qf, v, a = estimate_derivatives(written, q, cutoff_hz=6.0, return_positions=True)
    assert np.abs(a - exact)[10:-10].max() < 0.02 * np.abs(exact).max()
    irregular = np.cumsum(np.r_[0.0, np.tile([0.01, 0.02], 20)])
    assert sampling_grid(irregular) is irregular or np.array_equal(sampling_grid(irregular),
                                                                   irregular)


@pytest.mark.parametrize("cutoff", [1e-300, 1e-10, 4e-4])
def test_a_cutoff_too_low_to_compute_is_refused_by_name(cutoff):
    """A Butterworth cut-off of 1e-300 Hz at 100 Hz: the filter's denominator is 0 in double
    precision and filtfilt stopped on 'Singular matrix' (at 1e-8 of Nyquist it ran, with a
    gain at 0 Hz of 1.11: every sample scaled by 11 %). Below 1e-5 of Nyquist (5e-4 Hz here) it
    is refused, naming cutoff_hz and the lowest cut-off."""
    from urdf2dyn.biomech.processing import lowpass
    t = np.arange(200) / 100
    with pytest.raises(ValueError, match=r"cutoff_hz: .* Hz is too low to filter data sampled "
                                         r"at 100 Hz \(the filter cannot be computed below "
                                         r"0.0005 Hz\)"):
        lowpass(t, np.ones((200, 2)), cutoff)


def test_the_lowest_cutoff_taken_keeps_a_constant():
    """At the lowest cut-off taken, the filter is still the Butterworth one: its gain at 0 Hz
    is 1 (the design's closed form), so a constant comes out unchanged."""
    from urdf2dyn.biomech.processing import lowpass
    t = np.arange(200) / 100
    out = lowpass(t, np.full((200, 2), 3.0), 5e-4)
    assert np.allclose(out, 3.0, rtol=1e-6, atol=0)


@pytest.mark.parametrize("order,cutoff", [(4, 1e-3), (3, 5e-3), (6, 0.1)])
def test_a_higher_order_filter_that_loses_its_precision_is_refused(order, cutoff):
    """The floor above is order 2's. lowpass(order=4) at 1e-3 Hz (2e-5 of Nyquist, above the
    floor) turned a constant 3 into 0.0009, order 6 at 0.1 Hz into 2.958, without a word:
    their coefficients lose their precision in double. A Butterworth filter's gain at 0 Hz is
    1 by design (closed form: sum(b) = sum(a)); a design that misses it by more than 1e-6 is
    refused, naming cutoff_hz and the order, and so is estimate_derivatives' filter_order."""
    from urdf2dyn.biomech.processing import estimate_derivatives, lowpass
    t = np.arange(2000) / 100
    match = (rf"cutoff_hz: {cutoff:g} Hz is too low for an order-{order} Butterworth filter of "
             r"data sampled at 100 Hz")
    with pytest.raises(ValueError, match=match):
        lowpass(t, np.full((2000, 2), 3.0), cutoff, order)
    with pytest.raises(ValueError, match=match):
        estimate_derivatives(t, np.full((2000, 2), 3.0), cutoff_hz=cutoff, filter_order=order)


@pytest.mark.parametrize("order,cutoff", [(4, 6.0), (6, 6.0), (2, 6e-4), (1, 6e-4)])
def test_a_filter_of_any_order_that_keeps_its_precision_is_taken(order, cutoff):
    """The refusal above stops where the precision is lost: 6 Hz at order 4 or 6, and the
    cut-offs just above the floor at orders 1 and 2, keep a constant (gain 1 at 0 Hz, closed
    form)."""
    from urdf2dyn.biomech.processing import lowpass
    t = np.arange(2000) / 100
    out = lowpass(t, np.full((2000, 2), 3.0), cutoff, order)
    assert np.allclose(out, 3.0, rtol=1e-6, atol=0)


def test_the_lowest_cutoff_the_refusal_names_is_taken():
    """The refusal says 'the filter cannot be computed below 0.0005 Hz' of data at 100 Hz;
    2000 samples at 100 Hz have a step one bit under 0.01 s (a rate of 100.00000000000001
    Hz), and lowpass(..., 5e-4) was refused with '0.0005 Hz is too low ... below 0.0005 Hz'.
    The floor is the number the message gives: 0.0005 Hz is taken, and keeps a constant
    (gain 1 at 0 Hz, the design's closed form)."""
    from urdf2dyn.biomech.processing import lowpass
    t = np.arange(2000) / 100
    assert 1 / (t[-1] / 1999) > 100             # the rate is a bit above 100 Hz
    out = lowpass(t, np.full((2000, 2), 3.0), 5e-4)
    assert np.allclose(out, 3.0, rtol=1e-6, atol=0)
