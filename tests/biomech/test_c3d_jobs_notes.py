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
