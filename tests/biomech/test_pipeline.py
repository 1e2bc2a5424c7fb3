"""urdf2dyn.inverse_dynamics_trial is the documented chain of library calls (checked step by
step against them), the command line is that function, --filter-loads no reproduces OpenSim's
choice (coordinates only), the default needs no SciPy, and run_trials gives the same results in
local processes and on a Dask cluster."""
import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import grf as G
from urdf2dyn.biomech import formats, processing
from urdf2dyn.cli import build_parser, main
from urdf2dyn.biomech.human import humod_subject
from urdf2dyn.biomech.pipeline import find_trials

from caller_words import assert_says_the_keyword
from recording_files import GRF, HUMAN, MOTION


@pytest.fixture(scope="module")
def model():
    return humod_subject("A")


def test_trial_is_the_chain_of_library_calls(model):
    res = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    t, q, _, _ = formats.read(MOTION).for_model(model)
    v, a = processing.estimate_derivatives(t, q, model=model)
    f_ext = G.external_loads(G.read_grf(GRF), model, time=t)
    tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)
    np.testing.assert_array_equal(res.tau, tau)
    np.testing.assert_array_equal(res.residuals.force, G.root_residuals(model, q, tau).force)
    assert res.record["derivatives"] == "gradient" and res.record["filter_hz"] is None
    assert res.record["loads"] == GRF and res.record["units"] == "radians"


def test_filter_loads_yes_and_no(model, tmp_path):
    pytest.importorskip("scipy")
    # the trial starts and ends in flight: the filter pulls the accelerations at both ends
    # towards zero (odd padding), and the residual check says where
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match=r"at t = 3.395 s \(an end of the trial"):
        yes = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF, filter_hz=15)
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match="an end of the trial"):
        no = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF, filter_hz=15,
                                             filter_loads=False)
    t, q, _, _ = formats.read(MOTION).for_model(model)
    qf, v, a = processing.estimate_derivatives(t, q, cutoff_hz=15, model=model, return_positions=True)
    raw = G.external_loads(G.read_grf(GRF), model, time=t)
    for link, w in raw.items():
        np.testing.assert_array_equal(no.f_ext[link], w)                   # OpenSim: raw loads
        np.testing.assert_allclose(yes.f_ext[link], processing.lowpass(t, w, 15), rtol=0, atol=1e-9)
    np.testing.assert_allclose(no.tau, model.inverse_dynamics(qf, v, a, f_ext=raw), atol=1e-9)
    np.testing.assert_array_equal(yes.q, no.q)
    assert no.record["filter_loads"] is False and yes.record["filter_loads"] is True
    # at the impacts the unfiltered loads against filtered accelerations give other moments
    assert np.abs(yes.tau - no.tau).max() > 1.0
    out = {}
    for flag in ("yes", "no"):
        path = tmp_path / f"tau_{flag}.csv"
        assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--filter", "15",
                     "--filter-loads", flag, "-o", str(path)]) == 0
        out[flag] = formats.read_torques(path, model)[1]
    np.testing.assert_allclose(out["yes"], yes.tau, atol=1e-9)
    np.testing.assert_allclose(out["no"], no.tau, atol=1e-9)


def test_default_needs_no_scipy(tmp_path):
    code = (
        "import sys; sys.modules['scipy'] = None\n"
        "import urdf2dyn, numpy as np\n"
        f"m = urdf2dyn.humod_subject('A')\n"
        f"r = urdf2dyn.inverse_dynamics_trial(m, {MOTION!r}, {GRF!r})\n"
        "print(r.record['derivatives'], np.isfinite(r.tau).all())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, check=True)
    assert out.stdout.split() == ["gradient", "True"]


def test_mapping_file_on_the_command_line(tmp_path, model):
    """--mapping renames the file's columns (file name -> model name), as CSV or JSON."""
    ref = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    lines = Path(MOTION).read_text().splitlines()
    ren = {"rKJZ_L": "knee_angle_l", "rKJZ_R": "knee_angle_r"}
    header = [ren.get(h, h) for h in lines[0].split(",")]
    renamed = tmp_path / "renamed.csv"
    renamed.write_text(",".join(header) + "\n" + "\n".join(lines[1:]) + "\n")
    assert main(["torques", HUMAN, str(renamed), "--grf", GRF]) == 1     # unknown columns
    back = {v: k for k, v in ren.items()}
    (tmp_path / "map.json").write_text(json.dumps(back))
    (tmp_path / "map.csv").write_text("from,to\n" + "".join(f"{k},{v}\n" for k, v in back.items()))
    for mapping in ("map.json", "map.csv"):
        out = tmp_path / f"tau_{mapping}.csv"
        assert main(["torques", HUMAN, str(renamed), "--grf", GRF, "--mapping",
                     str(tmp_path / mapping), "-o", str(out)]) == 0
        np.testing.assert_allclose(formats.read_torques(out, model)[1], ref.tau, rtol=1e-13, atol=1e-12)


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"urdf2dyn {urdf2dyn.__version__}"


def _folder(tmp_path, n=3):
    for k in range(n):
        shutil.copy(MOTION, tmp_path / f"trial{k}.csv")
        shutil.copy(GRF, tmp_path / f"trial{k}_grf.csv")
    return tmp_path


def test_run_trials_over_no_trials_is_an_empty_list(model):
    """No motion: no result, whatever the workers asked (a reviewer's case: a pool of at most
    one process per motion was asked for zero processes, a ValueError)."""
    assert urdf2dyn.run_trials(model, [], max_workers=2) == []


def test_run_trials_in_local_processes(tmp_path, model):
    folder = _folder(tmp_path)
    one = urdf2dyn.run_trials(model, folder, max_workers=1)
    two = urdf2dyn.run_trials(model, folder, max_workers=2)
    assert [os.path.basename(r.path) for r in two] == ["trial0.csv", "trial1.csv", "trial2.csv"]
    ref = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a.tau, ref.tau)
        np.testing.assert_array_equal(b.tau, ref.tau)
        assert b.record["loads"].endswith("_grf.csv")


def test_run_trials_on_a_dask_cluster(tmp_path, model):
    distributed = pytest.importorskip("distributed")
    folder = _folder(tmp_path, 2)
    ref = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            results = urdf2dyn.run_trials(model, folder, scheduler=client, filter_hz=None)
            assert len(results) == 2
            for r in results:
                np.testing.assert_array_equal(r.tau, ref.tau)
            # by address: run_trials opens (and closes) its own client
            results = urdf2dyn.run_trials(model, folder, scheduler=cluster.scheduler_address)
            np.testing.assert_array_equal(results[1].tau, ref.tau)
            # a warning raised on a worker comes back with the result and is re-emitted here
            os.remove(folder / "trial1_grf.csv")
            with pytest.warns(urdf2dyn.Urdf2dynWarning, match="trial1.csv"):
                results = urdf2dyn.run_trials(model, folder, scheduler=client)
            assert results[1].f_ext is None


class _NotAScheduler:
    """A TCP server on this machine that is not a Dask scheduler: it either never answers
    (as a web server waiting for a request line: Dask's own wait has no end) or answers
    with bytes that Dask reads as the length of a frame of exabytes."""

    def __init__(self, reply):
        import socket
        import threading
        self.reply, self.sock = reply, socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.peers = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                peer, _ = self.sock.accept()
            except OSError:         # closed: the test is over
                return
            self.peers.append(peer)
            if self.reply:
                peer.sendall(self.reply)

    def close(self):
        for peer in self.peers:
            peer.close()
        self.sock.close()


def _refusal_of_the_scheduler(caller, model, folder, scheduler, capsys):
    """What run_trials (caller "library") or torques over the folder's trials (caller
    "torques") says when scheduler is refused, and the options it may name: run_trials'
    keywords (its signature) or torques' flags (its parser)."""
    if caller == "library":
        with pytest.raises((ValueError, ImportError)) as caught:
            urdf2dyn.run_trials(model, folder, scheduler=scheduler)
        return str(caught.value)
    assert main(["torques", HUMAN, os.fspath(folder), "--scheduler", scheduler,
                 "--no-progress", "-o", os.fspath(folder / "out")]) == 1
    return " ".join(capsys.readouterr().err.split())


def _says_the_callers_scheduler(message, caller):
    """run_trials' keyword scheduler to the library, torques' own --scheduler on the command
    line, and not the other's words."""
    if caller == "library":
        assert_says_the_keyword(message, urdf2dyn.run_trials, "scheduler")
    else:
        assert "--scheduler" in message and "run_trials" not in message, message
        torques = next(a for a in build_parser()._actions
                       if isinstance(a, argparse._SubParsersAction)).choices["torques"]
        assert "--scheduler" in {f for a in torques._actions for f in a.option_strings}


@pytest.mark.parametrize("caller", ["library", "torques"])
@pytest.mark.parametrize("reply", [b"", b"\xff" * 64], ids=["silent", "garbage"])
def test_run_trials_refuses_an_address_that_is_no_dask_scheduler(tmp_path, model, reply,
                                                                 caller, capsys):
    """No traceback and no wait without end: Dask's connect timeout (1 s here) and a few
    seconds later, a refusal naming the address, the option and the port to give. The
    option was named "run_trials(scheduler=...); command line: --scheduler" to both
    callers: each is now told its own."""
    pytest.importorskip("distributed")
    import dask
    folder = _folder(tmp_path, 2)
    server = _NotAScheduler(reply)
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
            message = _refusal_of_the_scheduler(caller, model, folder, server.address, capsys)
    finally:
        server.close()
    assert repr(server.address) in message, message
    assert "reached no Dask scheduler" in message and "tcp://HOST:8786" in message
    _says_the_callers_scheduler(message, caller)


@pytest.mark.parametrize("caller", ["library", "torques"])
def test_a_scheduler_without_dask_says_the_callers_option(tmp_path, model, caller,
                                                          monkeypatch, capsys):
    """Without Dask's distributed package a scheduler was refused as "run_trials(scheduler=
    ...) needs ..." under torques too: each caller is now told its own option."""
    monkeypatch.setitem(sys.modules, "distributed", None)       # import distributed fails
    message = _refusal_of_the_scheduler(caller, model, _folder(tmp_path, 2),
                                        "tcp://127.0.0.1:1", capsys)
    assert "needs Dask's distributed scheduler" in message, message
    _says_the_callers_scheduler(message, caller)


@pytest.mark.parametrize("grf,refusal", [
    ("one_grf.csv", "grf names one file but there are several motions"),
    ("{dir}/{stem}_none.csv", "grf {dir}/trial0_none.csv: no such file"),
    ("{dir}/{stem.x}.csv", "grf '{dir}/{stem.x}.csv': a pattern names {stem}")],
    ids=["one file", "missing", "bad pattern"])
@pytest.mark.parametrize("function", [find_trials, urdf2dyn.run_trials],
                         ids=["find_trials", "run_trials"])
def test_a_refused_grf_is_named_by_the_library_keyword(tmp_path, model, function, grf,
                                                       refusal):
    """A library caller's refused ground reactions were named "grf (--grf)", a flag it cannot
    pass: find_trials and run_trials now say grf, their keyword, and no flag."""
    motions = [os.fspath(p) for p in _folder(tmp_path, 2).glob("trial?.csv")]
    with pytest.raises(urdf2dyn.MotionError) as refused:
        function(*([model] if function is urdf2dyn.run_trials else []), sorted(motions), grf)
    said = str(refused.value).replace(os.fspath(tmp_path), "{dir}")
    assert refusal in said, said
    assert_says_the_keyword(said, function, "grf")


def test_external_loads_and_grf_are_exclusive(model):
    with pytest.raises(ValueError, match="not both"):
        urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF, external_loads="setup.xml")
    assert main(["torques", HUMAN, MOTION, "--grf", GRF, "--external-loads", "x.xml"]) == 2


@pytest.mark.filterwarnings("ignore::urdf2dyn.Urdf2dynWarning")   # sparse loads' residuals
def test_loads_refused_by_the_filter_are_named_by_their_file_and_filter_hz(model, tmp_path,
                                                                           capsys):
    """Ground reactions sampled every 0.425 s (Nyquist 1.18 Hz), filtered at the motion's
    6 Hz at their own rate (scipy.signal.butter takes no cut-off at or above Nyquist): the
    refusal said lowpass's cutoff_hz, which no caller gave, and no file (the library), or
    --filter without the file (the command line). It names the loads' file and the
    setting now, the filter told who gave its cut-off."""
    lines = Path(GRF).read_text().splitlines()
    sparse = tmp_path / "sparse_grf.csv"
    sparse.write_text("\n".join([lines[0]] + lines[1::85]) + "\n")
    says = "expected 0 < cutoff < Nyquist = 1.17647 Hz, got 6"
    with pytest.raises(ValueError) as e:
        urdf2dyn.inverse_dynamics_trial(model, MOTION, sparse, filter_hz=6)
    assert str(e.value) == f"{sparse}: filter_hz 6: {says}"
    assert main(["torques", HUMAN, MOTION, "--grf", str(sparse), "--filter", "6", "-o",
                 str(tmp_path / "out.csv")]) == 1
    assert f"error: {sparse}: --filter 6: {says}\n" in capsys.readouterr().err


def test_a_trial_too_short_for_its_filter_is_refused_naming_the_file_and_filter_hz(tmp_path):
    """Eight samples: SciPy's filtfilt pads 3 * max(len(a), len(b)) = 9 of a 2nd-order
    Butterworth each end and refuses fewer (its own ValueError, checked here). The trial's
    refusal names its file and the filter_hz it was given (it said lowpass's cutoff_hz,
    which the caller never passed, and no file: which of a batch's trials?)."""
    from scipy.signal import butter, filtfilt
    from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
    from urdf2dyn.bundled import data_path
    t = np.arange(8) * 0.01
    b, a = butter(2, 6 / 50)
    with pytest.raises(ValueError, match="padlen"):
        filtfilt(b, a, np.sin(t), padlen=3 * max(len(a), len(b)))
    path = tmp_path / "short.csv"
    path.write_text("time,joint1,joint2\n" + "".join(f"{x:.2f},{0.1 * x:.4f},0\n" for x in t))
    with pytest.raises(ValueError) as e:
        inverse_dynamics_trial(urdf2dyn.load(data_path("robot2r.urdf")), path, filter_hz=6)
    assert str(e.value).startswith(f"{path}: filter_hz 6: the Butterworth filter (order 2, "
                                   "run both ways) needs more than 9 samples, got 8"), e.value
