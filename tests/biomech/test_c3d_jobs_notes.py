"""`urdf2dyn torques --jobs N` says what --jobs 1 says: the same warning: and note: lines.

A C3D read notes what it cannot check (C3D.meta["notes"], printed as `note:` lines: here the
FORCE_PLATFORM:ZERO range outside the file's frames). With --jobs 2 the files are read in
worker processes: a forked worker printed the notes itself, into its copy of the caller's
stream (lost wherever that is not the terminal's descriptor, as here under capsys), and a
spawned one (macOS, Windows, Python 3.14's forkserver) has no listener at all. The warnings
already travelled back in the results.

Data: opensim-models' subject01 walk written as a C3D file by ezc3d (test_labtorques.py),
its ZERO (1, 0) set to frames 1000-1010 (the c3d package reads the copy's frames 1-151)."""
import os
import sys
import threading
import warnings

import pytest

c3dpkg = pytest.importorskip("c3d")
sys.path.insert(0, os.path.dirname(__file__))
from test_c3d import patched  # noqa: E402

from urdf2dyn import cli  # noqa: E402
from urdf2dyn.biomech.pipeline import run_trials  # noqa: E402
from urdf2dyn.warn import hearing_notes  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "ik", "gait2392")
C3D = os.path.join(DATA, "subject01_walk1.c3d")
OSIM = os.path.join(DATA, "subject01_simbody.osim")
NOTE = ("FORCE_PLATFORM:ZERO names frames 1000-1010 to zero the force plates from, but the "
        "file holds frames 1-151")


@pytest.fixture(scope="module")
def trials(tmp_path_factory):
    folder = tmp_path_factory.mktemp("zero_outside")
    paths = [patched(folder, C3D, name=n, FORCE_PLATFORM__ZERO=("h", [1000, 1010]))
             for n in ("a.c3d", "b.c3d")]
    with open(paths[0], "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = c3dpkg.Reader(f)
        assert (r.header.first_frame, r.header.last_frame) == (1, 151)
        assert [int(x) for x in r.get("FORCE_PLATFORM:ZERO").int16_array] == [1000, 1010]
    return paths


def said(capsys, trials, jobs):
    status = cli.main(["torques", OSIM, *trials, "--rotate", "x:-90", "--time-range", "0.6",
                       "0.65", "--jobs", jobs])
    err = capsys.readouterr().err
    assert status == 0, err
    return [line for line in err.splitlines() if line.startswith("urdf2dyn torques: ")]


def test_jobs_2_prints_the_notes_and_warnings_of_jobs_1(trials, capsys):
    one = said(capsys, trials, "1")
    notes = [line for line in one if " note: " in line]
    assert [NOTE in line and path in line for line, path in zip(notes, trials)] == [True] * 2
    assert any(" warning: " in line for line in one)
    assert said(capsys, trials, "2") == one


def test_run_trials_in_processes_tells_each_note_once(trials):
    """A library caller listening for notes hears each trial's once, from the caller's
    process, and finds them in the trial's result."""
    heard = []
    with warnings.catch_warnings(), hearing_notes(heard.append):
        warnings.simplefilter("ignore")
        results = run_trials(OSIM, [(p, None) for p in trials], max_workers=2,
                             rotation="x:-90", time_range=(0.6, 0.65))
    assert len(heard) == 2 and all(NOTE in h and p in h for h, p in zip(heard, trials))
    assert [r.notes for r in results] == [[h] for h in heard]


def test_a_dask_worker_in_this_process_tells_each_note_once(trials):
    """A Dask cluster of threads in the caller's process: the caller's listeners hear the
    notes as they are said, in the worker's thread (no listener of the caller's set aside
    while a trial runs), and are not told them a second time afterwards."""
    distributed = pytest.importorskip("distributed")
    heard, threads = [], []

    def listener(message):
        heard.append(message)
        threads.append(threading.current_thread())
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1,
                            dashboard_address=None) as client, \
            warnings.catch_warnings(), hearing_notes(listener):
        warnings.simplefilter("ignore")
        results = run_trials(OSIM, [(p, None) for p in trials], scheduler=client,
                             rotation="x:-90", time_range=(0.6, 0.65))
    assert len(heard) == 2 and all(NOTE in h and p in h for h, p in zip(heard, trials))
    assert [r.notes for r in results] == [[h] for h in heard]
    assert threading.main_thread() not in threads


@pytest.mark.parametrize("alone", [False, True])
def test_trials_in_threads_side_by_side_each_hear_their_own_notes(alone):
    """Two trials in two threads of one process (a Dask worker has a thread per core), in
    step: both start listening, each says its note, the first stops first. Each hears its
    own note only; set aside (alone, a worker process away from the caller), the caller's
    listener hears neither, and stopping in either order is no error (it was: the second
    thread set aside the first's listener, whose removal then failed)."""
    from urdf2dyn.warn import note
    shared, own, errors = [], {}, []
    started, said = threading.Barrier(2), threading.Barrier(2)

    def trial(name, stop_after):
        heard = own.setdefault(name, [])
        try:
            with hearing_notes(heard.append, alone=alone, this_thread=True):
                started.wait()
                note(name)
                said.wait()
                stop_after.wait()
        except Exception as e:     # noqa: BLE001 (the failure is what the test shows)
            errors.append(e)

    first_done = threading.Event()
    first_done.set()
    second_waits = threading.Event()
    with hearing_notes(shared.append):
        a = threading.Thread(target=trial, args=("a", first_done))
        b = threading.Thread(target=trial, args=("b", second_waits))
        a.start(), b.start()
        a.join()
        second_waits.set()
        b.join()
    assert errors == []
    assert own == {"a": ["a"], "b": ["b"]}
    assert sorted(shared) == ([] if alone else ["a", "b"])


def test_a_dask_worker_process_with_two_threads_keeps_each_trial_its_notes(trials):
    """A Dask worker process running two trials at once (dask worker's default: a thread per
    core): each trial's result holds its own note, told to the caller once; it failed with
    ValueError (list.remove) from the notes' listeners."""
    distributed = pytest.importorskip("distributed")
    heard = []
    with distributed.Client(processes=True, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client, \
            warnings.catch_warnings(), hearing_notes(heard.append):
        warnings.simplefilter("ignore")
        results = run_trials(OSIM, [(p, None) for p in trials * 2], scheduler=client,
                             rotation="x:-90", time_range=(0.6, 0.65))
    assert [len(r.notes) for r in results] == [1] * 4
    assert all(NOTE in r.notes[0] and p in r.notes[0] for r, p in zip(results, trials * 2))
    assert heard == [r.notes[0] for r in results]


def test_a_trial_result_declares_whether_its_notes_are_unheard():
    """_relay_notes reads each result's _notes_unheard, which _run_one sets: it is a field of
    TrialResult (False until a worker away from the caller sets it), not an attribute added
    to some results and looked up with a default, and it stays out of the result's repr."""
    import dataclasses

    import numpy as np

    from urdf2dyn.biomech.pipeline import TrialResult, _relay_notes
    empty = np.zeros((0, 1))
    result = TrialResult("trial.mot", np.zeros(0), empty, empty, empty, empty, notes=["n"])
    assert "_notes_unheard" in {f.name for f in dataclasses.fields(TrialResult)}
    assert result._notes_unheard is False and "_notes_unheard" not in repr(result)
    heard = []
    with hearing_notes(heard.append):
        _relay_notes([result])
        result._notes_unheard = True
        _relay_notes([result])
    assert heard == ["n"]


def _a_worker_with_the_callers_pid(pid):
    """A spawned process's start-up: it plays a Dask worker on another machine whose
    process happens to have the caller's id (os.getpid, as urdf2dyn's pipeline sees it)."""
    import types

    from urdf2dyn.biomech import pipeline
    pipeline.os = types.SimpleNamespace(**{**vars(os), "getpid": lambda: pid})


class _ClusterOfAnotherMachine:
    """Dask's Client as run_trials uses it (map, then each future's result), its workers
    spawned processes that each play one on another machine with the caller's pid."""

    def __init__(self):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_a_worker_with_the_callers_pid,
                                        initargs=(os.getpid(),))

    def map(self, fn, jobs, pure=True, **keywords):
        return [self.pool.submit(fn, job, **keywords) for job in jobs]


def test_a_dask_worker_on_another_machine_with_the_callers_pid_tells_its_notes(trials,
                                                                             monkeypatch):
    """A worker on another machine may have the caller's process id: the trial was taken
    for one run in the caller's process, its notes left to listeners there, and the
    caller heard none of them. The caller tells them now (its process is known by a token
    no other process has)."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(distributed, "Client", _ClusterOfAnotherMachine)
    cluster = _ClusterOfAnotherMachine()
    heard = []
    try:
        with warnings.catch_warnings(), hearing_notes(heard.append):
            warnings.simplefilter("ignore")
            results = run_trials(OSIM, [(p, None) for p in trials], scheduler=cluster,
                                 rotation="x:-90", time_range=(0.6, 0.65))
    finally:
        cluster.pool.shutdown()
    assert len(heard) == 2 and all(NOTE in h and p in h for h, p in zip(heard, trials))
    assert [r.notes for r in results] == [[h] for h in heard]
