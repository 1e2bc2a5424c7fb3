"""An input path that names a device (the rule of issue 16: no input may end in a traceback or
a runaway). Every reader of a model, setup, mapping or marker file read its file whole: given
/dev/zero, which never ends, a run died of a MemoryError traceback under a memory cap and was
killed by the system without one; an MJCF <include> of /dev/zero passed the include size check
(a device's size is 0) and did the same. Each reader now refuses a device by name, before
reading it, and the .trc reader no longer says 'no such file' of a path that exists.

The runs go in one child process under a memory cap, so that a reader that reads a device
whole fails here with its MemoryError instead of taking the test run with it.
"""
import json
import os
import subprocess
import sys

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from test_cli_every_option import _write_case  # noqa: E402
from test_cli_hypothesis import PROFILE, _memory_cap  # noqa: E402

DEVICES = [d for d in ("/dev/zero", "/dev/urandom", "/dev/full") if os.path.exists(d)]

#: each reader's place on a command line; DEV is the device, the rest robot2r's small case
SLOTS = {
    "model": ["info", "DEV"],
    "model (check)": ["check", "DEV"],
    "MJCF include": ["info", "CASE/inc.xml"],
    "mapping (CSV)": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--mapping", "DEV",
                      "--no-progress"],
    "mapping (JSON)": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--mapping", "CASE/dev.json",
                       "--no-progress"],
    "IK setup": ["ik", "--setup", "DEV"],
    "model markers": ["ik", "--setup", "CASE/s.xml", "--model", "CASE/r.urdf", "--markers",
                      "DEV"],
    "marker file": ["ik", "--setup", "CASE/s.xml", "--model", "CASE/r.urdf", "--markers",
                    "CASE/m.csv", "--marker-file", "DEV"],
    "RRA setup": ["rra", "DEV"],
    "scale setup": ["scale", "DEV"],
    "ExternalLoads": ["torques", "CASE/r.urdf", "CASE/trial.csv", "--external-loads", "DEV",
                      "--no-progress"],
    "OpenSim motion (.mot)": ["torques", "CASE/r.urdf", "CASE/dev.mot", "--no-progress"],
}

#: the slots whose refusal once quoted the device twice ("X: cannot be read (X: a device ...")
SETUPS = ("IK setup", "RRA setup", "scale setup")

CHILD = """
import contextlib, io, json, sys
from urdf2dyn import cli
results = []
for argv in json.loads(sys.argv[1]):
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as e:
            status = e.code
        except BaseException as e:          # MemoryError: what the parent reports
            status = repr(e)[:200]
    results.append([status, err.getvalue()])
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    folder = tmp_path_factory.mktemp("case")
    _write_case(folder)
    return folder


def _case_files(case, device):
    """The files that name the device: an MJCF including it, a .json mapping linked to it."""
    (case / "inc.xml").write_text(f'<mujoco><include file="{device}"/><worldbody><body '
                                  'name="b"><joint/><geom size="0.1"/></body></worldbody>'
                                  '</mujoco>')
    for name in ("dev.json", "dev.mot"):
        link = case / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(device)


@settings(PROFILE, max_examples=3)
@given(device=st.sampled_from(DEVICES), slots=st.permutations(sorted(SLOTS)))
def test_a_device_given_as_any_input_is_refused_by_name(case, device, slots):
    """Every reader slot, in a drawn order (one child process reads them all), given a drawn
    device: exit status 1 or 2, an error line naming the device, no traceback."""
    cases = [(slot, device) for slot in slots]
    _case_files(case, device)
    argvs = [[token.replace("CASE", os.fspath(case)).replace("DEV", device)
              for token in SLOTS[slot]] for slot, _ in cases]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(argvs)], cwd=case,
                          capture_output=True, text=True, timeout=300, preexec_fn=_memory_cap,
                          env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for (slot, _), (status, err) in zip(cases, json.loads(proc.stdout)):
        assert status in (1, 2), (slot, status, err)
        assert "Traceback" not in err and "error:" in err, (slot, err)
        assert device in err or "dev.json" in err or "dev.mot" in err, (slot, err)
        if slot in SETUPS:
            assert "cannot be read" not in err and err.count(device) == 1, (slot, err)
        assert "no such file" not in err, (slot, err)
