"""One command from the lab's files to torques (issue 20, item 4): C3D -> IK -> filter -> ID.

Data: opensim-models' Gait2392 subject01 walk (scaled model, markers, IK setup, ground
reactions and their ExternalLoads file; tests/data/ik/README.rst), written as a lab's C3D
file (z up, two type-2 force plates) by ezc3d, the format's owner
(tests/data/ik/gait2392/make_c3d.py; the test checks the bundled file is what it writes).

Oracle: OpenSim 4.6's own chain on the same trial: its IK tool with the published setup, then
its inverse-dynamics tool with the published ExternalLoads at 6 Hz
(tests/biomech/labtorques_oracle.py), run once per module.
"""
import os
import shutil
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech.pipeline import inverse_dynamics_trial, run_trials
from urdf2dyn.warn import Urdf2dynWarning

ezc3d = pytest.importorskip("ezc3d")
sys.path.insert(0, os.path.dirname(__file__))
import labtorques_oracle as oracle          # noqa: E402

DATA = oracle.DATA
C3D = os.path.join(DATA, "subject01_walk1.c3d")
OSIM = os.path.join(DATA, "subject01_simbody.osim")
SETUP = os.path.join(DATA, "subject01_Setup_IK.xml")


@pytest.fixture(scope="module")
def model():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return urdf2dyn.load(OSIM)


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    pytest.importorskip("opensim")
    folder = tmp_path_factory.mktemp("gait2392")
    labels, t, tau = oracle.run_chain(os.fspath(folder))
    return folder, labels, t, tau


@pytest.fixture(scope="module")
def ours(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return inverse_dynamics_trial(model, C3D, rotation="x:-90", filter_hz=oracle.CUTOFF,
                                      processing="opensim", time_range=oracle.TIME_RANGE,
                                      ik_setup=SETUP, plate_threshold=1e-6)


def test_bundled_c3d_is_what_ezc3d_writes(tmp_path):
    sys.path.insert(0, DATA)
    try:
        import make_c3d
    finally:
        sys.path.remove(DATA)
    out = make_c3d.main(os.fspath(tmp_path / "walk.c3d"))
    a, b = ezc3d.c3d(out), ezc3d.c3d(C3D)
    np.testing.assert_array_equal(a["data"]["points"], b["data"]["points"])
    np.testing.assert_array_equal(a["data"]["analogs"], b["data"]["analogs"])


def test_c3d_torques_match_opensims_chain(model, chain, ours):
    """Same rows as OpenSim's ID tool; every generalized force within 2 % of its peak + 0.15
    N·m RMS and 5 % + 0.5 N·m at most (both IKs stop at OpenSim's accuracy 1e-5, so their
    angles differ by tenths of a degree; measured: the pelvis residuals differ by <= 1.3 N
    or N·m, the lumbar moments by <= 0.7 N·m); the legs' joint moments within 0.2 N·m
    (measured <= 0.13)."""
    folder, labels, t, tau = chain
    assert len(ours.t) == len(t) and np.allclose(ours.t, t, atol=1e-5)
    base = [x.rsplit("_", 1)[0] for x in labels]
    for k, name in enumerate(model.v_names):
        theirs = tau[:, base.index(name)]
        d = ours.tau[:, k] - theirs
        peak = np.abs(theirs).max()
        assert np.sqrt(np.mean(d ** 2)) <= 0.02 * peak + 0.15, name
        assert np.abs(d).max() <= 0.05 * peak + 0.5, name
        if name.startswith(("hip", "knee", "ankle")):
            assert np.abs(d).max() < 0.2, name


def test_ik_errors_are_kept_beside_the_residuals(chain, ours):
    """The marker errors of the rows kept, no worse than OpenSim's IK tool by 0.1 mm."""
    folder = chain[0]
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    import ik_oracle
    theirs = ik_oracle.read_errors(os.fspath(folder / "subject01_ik_marker_errors.sto"))
    e = ours.ik_errors
    assert len(e["rms"]) == len(ours.t) == len(e["worst"])
    rms = np.interp(ours.t, theirs[:, 0], theirs[:, 2])
    assert np.all(e["rms"] <= rms + 1e-4)
    assert np.all(e["max"] >= e["rms"]) and all(w in ours.ik.marker_names for w in e["worst"])
    assert ours.record["loads"].endswith("(force plates)")


def test_plates_go_to_the_feet(model):
    """Default threshold: each plate's contacts are the foot's whose stream it was made from
    (plate 1 the right foot's, plate 2 the left's)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        r = inverse_dynamics_trial(model, C3D, rotation="x:-90", ik_setup=SETUP)
    feet = {plate: foot for plate, _, _, foot in r.reactions.meta["contacts"] if foot}
    assert feet == {1: "R", 2: "L"}
    assert set(r.f_ext) == {"calcn_r", "calcn_l"}
    assert len(r.plates) == 2 and r.markers is not None


def test_cli_one_command(tmp_path, capsys):
    out = tmp_path / "tau.csv"
    status = cli.main(["torques", OSIM, C3D, "--rotate", "x:-90", "--filter", "6",
                       "--time-range", "0.6", "1.2", "-o", os.fspath(out)])
    text = capsys.readouterr().out
    assert status == 0
    assert "inverse kinematics: marker error RMS" in text and "mm" in text
    assert out.exists()


def test_cli_folder_with_progress(tmp_path, capsys):
    for k in (1, 2):
        shutil.copy(C3D, tmp_path / f"walk{k}.c3d")
    status = cli.main(["torques", OSIM, os.fspath(tmp_path), "--rotate", "x:-90", "--jobs",
                       "1", "--time-range", "0.6", "0.9", "-o", os.fspath(tmp_path / "out")])
    text = capsys.readouterr().out
    assert status == 0
    assert text.count("inverse kinematics: marker error RMS") == 2
    assert sorted(os.listdir(tmp_path / "out")) == ["walk1_torques.csv", "walk2_torques.csv"]


def test_run_trials_on_dask(model, tmp_path):
    """The same per-trial job on a Dask cluster (in-process)."""
    distributed = pytest.importorskip("distributed")
    shutil.copy(C3D, tmp_path / "walk.c3d")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1,
                            dashboard_address=None) as client, warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        got = run_trials(model, [(os.fspath(tmp_path / "walk.c3d"), None)], scheduler=client,
                         rotation="x:-90", time_range=(0.6, 0.9))
        here = inverse_dynamics_trial(model, os.fspath(tmp_path / "walk.c3d"),
                                      rotation="x:-90", time_range=(0.6, 0.9))
    np.testing.assert_allclose(got[0].tau, here.tau)
    np.testing.assert_allclose(got[0].ik_errors["rms"], here.ik_errors["rms"])


def test_rotate_refused_for_coordinate_files(tmp_path, capsys):
    mot = tmp_path / "q.csv"
    mot.write_text("time,a\n0,0\n")
    assert cli.main(["torques", OSIM, os.fspath(mot), "--rotate", "x:-90"]) == 1
    assert "--rotate" in capsys.readouterr().err


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rotate=st.one_of(st.text(max_size=12),
                        st.from_regex(r"[xyzw]:-?[0-9]{1,4}(,[xyz]:[0-9e.]{1,4})?",
                                      fullmatch=True)))
def test_rotate_fuzz_never_a_traceback(rotate, capsys):
    """Any --rotate either runs or ends in one `urdf2dyn torques: error:` line."""
    try:
        status = cli.main(["torques", OSIM, C3D, "--rotate", rotate, "--time-range", "0.6",
                           "0.65"])
    except SystemExit as e:             # argparse: a value starting with '-'
        status = e.code
    err = capsys.readouterr().err
    assert status in (0, 1, 2)
    assert "Traceback" not in err
    if status == 1:
        assert "urdf2dyn torques: error:" in err


def test_trc_trial_takes_the_same_path(model, ours):
    """A .trc recording (OpenSim's markers, already y up: no rotation) goes through the same
    IK: the same angles as from the C3D file (which stores the markers as float32)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        r = inverse_dynamics_trial(model, os.path.join(DATA, "subject01_walk1.trc"),
                                   ik_setup=SETUP)
    rows = ours.record["ik_rows"]
    assert r.f_ext is None and r.plates == [] and r.ik is not None
    np.testing.assert_allclose(r.ik.q[rows], ours.ik.q[rows], atol=2e-4)
