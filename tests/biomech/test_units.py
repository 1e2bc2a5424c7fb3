"""Units by meaning: OpenSim's inDegrees=yes covers rotational coordinates only, never forces,
points or torques; torques are written in OpenSim's inverse-dynamics layout with inDegrees=no
and read back identically by pandas and by OpenSim's Storage."""
import math
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import formats, trajectory
from urdf2dyn.cli import main
from urdf2dyn.biomech.human import humod_subject

from recording_files import (FORCE_PLATE_LABELS, GRF, HUMAN, MOTION, trial,
                             write_coordinates_mot, write_force_plate_mot, write_storage,
                             write_storage_copy)

CONTACTS = {"": "foot_R", "1": "foot_L"}      # OpenSim's plate prefixes -> the model's feet


def test_storage_copy_is_byte_for_byte(tmp_path):
    """The tests' fallback writer (used where the opensim package has no wheel) writes what
    OpenSim's Storage writes."""
    pytest.importorskip("opensim")
    data = np.array([[0.0, -1234.56789012345, 1e-12, np.nan], [0.005, 123456789.123, -0.5, 1e7]])
    labels = ["time", "ground_force_vx", "ground_force_px", "ground_torque_x"]
    (tmp_path / "osim").mkdir()
    a = write_storage(tmp_path / "osim" / "grf.mot", labels, data, True)
    b = write_storage_copy(tmp_path / "grf.mot", labels, data, True)
    assert Path(a).read_bytes() == Path(b).read_bytes()


def test_angle_columns_follow_opensim_rules_without_a_model():
    names = ["pelvis_tilt", "pelvis_tx", "pelvis_ty", "hip_flexion_r", "knee_angle_r",
             "ground_force_vx", "ground_force_px", "1_ground_force_pz", "l_ground_torque_y",
             "hip_flexion_r_moment", "pelvis_tx_force", "BJ_x", "BJ_qw", "pBJX", "rBJX",
             "planar_theta"]
    ang = dict(zip(names, trajectory.angle_columns(names)))
    assert [n for n, a in ang.items() if a] == ["pelvis_tilt", "hip_flexion_r", "knee_angle_r",
                                                  "rBJX", "planar_theta"]


def test_angle_columns_from_the_model_joint_types():
    model = humod_subject("A")
    mask = trajectory.angle_columns([*model.q_names, "ground_force_px"], model)
    assert not mask[:3].any() and mask[3:36].all() and not mask[36]


def test_opensim_force_plate_file_keeps_its_centres_of_pressure(tmp_path):
    """The bug of issue 8: ground_force_px was multiplied by pi/180 (0.379 m -> 0.0066 m)."""
    motion, reac = trial()
    path = write_force_plate_mot(tmp_path / "subject01_walk1_grf.mot", reac)
    text = Path(path).read_text().splitlines()
    assert text[:6] == ["subject01_walk1_grf", "version=1", f"nRows={len(reac.time)}",
                        f"nColumns={len(FORCE_PLATE_LABELS)}", "inDegrees=yes", "endheader"]
    assert text[6].split("\t") == FORCE_PLATE_LABELS
    back = formats.read(path)
    assert back.meta["in_degrees"] is True and back.names == []
    on = reac.grf["R"][:, 1] > 0
    np.testing.assert_allclose(back.cop[""][on], reac.cop["R"][on], atol=1e-8)
    np.testing.assert_allclose(back.grf["1"], reac.grf["L"], atol=1e-7)
    np.testing.assert_allclose(back.moment[""], reac.moment["R"], atol=1e-7)


def test_opensim_files_give_the_same_torques_as_our_csv_layout(tmp_path):
    """Done-when of issue 8: OpenSim's force-plate layout with inDegrees=yes (and a coordinate
    .mot in degrees, both written by OpenSim) gives the same torques as the same data in our
    CSV layout."""
    model = humod_subject("A")
    motion, reac = trial()
    grf_mot = write_force_plate_mot(tmp_path / "run_grf.mot", reac)
    coords = write_coordinates_mot(tmp_path / "run.mot", motion, model)
    ours = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    theirs = urdf2dyn.inverse_dynamics_trial(model, coords, grf_mot, contacts=CONTACTS)
    assert theirs.record["units"] == "degrees (inDegrees=yes)" and theirs.warnings == []
    np.testing.assert_allclose(theirs.q, ours.q, rtol=0, atol=6e-9)   # OpenSim: 8 decimals
    # the loads: identical up to OpenSim's 8 decimals
    for link in ("foot_L", "foot_R"):
        np.testing.assert_allclose(theirs.f_ext[link], ours.f_ext[link], rtol=0, atol=2e-5)
    # the torques: a rounding of 5e-9 m differentiated twice at h = 5 ms (central differences:
    # at most 1/h^2 = 4e4 times; numpy.gradient's one-sided ends: 16/h^2) and carried by the
    # body mass (57.3 kg); the old misreading was 11 times off
    err = np.abs(theirs.tau - ours.tau)
    bound = 57.3 * 5e-9 / 0.005 ** 2
    assert err[2:-2].max() < 1.5 * bound and err.max() < 16 * bound
    tol = 16 * bound
    # the same on the command line
    out = tmp_path / "tau.csv"
    assert main(["torques", HUMAN, str(coords), "--grf", str(grf_mot), "--contact",
                 "=foot_R", "--contact", "1=foot_L", "-o", str(out)]) == 0
    t, tau, names = formats.read_torques(out, model)
    assert np.abs(tau - ours.tau).max() < tol


def test_torques_sto_layout_and_round_trip_in_pandas(tmp_path):
    pd = pytest.importorskip("pandas")
    model = humod_subject("A")
    res = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    path = tmp_path / "run_torques.sto"
    formats.write_torques(path, res.t, res.tau, model)
    lines = Path(path).read_text().splitlines()
    end = lines.index("endheader")
    assert "inDegrees=no" in lines[:end]
    # pandas 3 parses floats exactly by default; pandas 2 needs float_precision="round_trip"
    exact = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
    df = pd.read_csv(path, sep="\t", skiprows=end + 1, **exact)
    assert list(df.columns) == ["time"] + formats.torque_names(model)
    assert formats.torque_names(model)[:4] == ["pBJX_force", "pBJY_force", "pBJZ_force",
                                          "rBJX_moment"]
    np.testing.assert_array_equal(df["time"].to_numpy(), res.t)
    np.testing.assert_array_equal(df.to_numpy()[:, 1:], res.tau)          # bit for bit
    t, tau, names = formats.read_torques(path, model)
    assert names == list(model.v_names)
    np.testing.assert_array_equal(tau, res.tau)
    csv = tmp_path / "run_torques.csv"
    formats.write_torques(csv, res.t, res.tau, model)
    df = pd.read_csv(csv, **exact)
    assert list(df.columns) == ["time", *model.v_names]
    np.testing.assert_array_equal(df.to_numpy()[:, 1:], res.tau)
    np.testing.assert_array_equal(formats.read_torques(csv, model)[1], res.tau)


def test_torques_sto_opens_in_opensim_storage(tmp_path):
    osim = pytest.importorskip("opensim")
    osim.Logger.removeFileSink()          # no opensim.log in the working directory
    model = humod_subject("A")
    res = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    path = tmp_path / "tau.sto"
    formats.write_torques(path, res.t, res.tau, model)
    sto = osim.Storage(str(path))
    assert not sto.isInDegrees()
    labels = [sto.getColumnLabels().get(i) for i in range(sto.getColumnLabels().getSize())]
    assert labels == ["time"] + formats.torque_names(model)
    assert sto.getSize() == len(res.t)
    col = osim.ArrayDouble()
    sto.getDataColumn("rKJZ_L_moment", col)
    knee = np.array([col.get(i) for i in range(col.getSize())])
    np.testing.assert_array_equal(knee, res.tau[:, model.v_names.index("rKJZ_L")])


def test_io_write_sto_never_multiplies_a_table_that_is_not_a_motion(tmp_path):
    """formats.write("x.sto", Trajectory(...)) used to write inDegrees=yes and multiply every column
    by 57.3, torques included."""
    t = np.arange(5) * 0.01
    tau = np.column_stack([np.linspace(1, 2, 5), np.linspace(-3, 3, 5)])
    path = tmp_path / "x.sto"
    formats.write(path, trajectory.Trajectory(t, tau, ["hip", "knee"]))
    assert "inDegrees=no" in Path(path).read_text()
    np.testing.assert_allclose(formats.read(path).q, tau, rtol=1e-15)
    # with a model, coordinates go in degrees and come back in radians; translations stay in m
    model = humod_subject("A")
    motion, _ = trial()
    formats.write(tmp_path / "m.mot", motion, model=model)
    back = formats.read_opensim(tmp_path / "m.mot", model=model)
    assert back.meta["in_degrees"] is True
    np.testing.assert_allclose(back.q, motion.q, atol=1e-12)
    raw = formats.read_opensim(tmp_path / "m.mot", model=model)
    assert math.isclose(raw.column("pBJY")[0], motion.column("pBJY")[0])
