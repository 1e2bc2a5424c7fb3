"""How the command line routes warnings: each printed once, when it occurs, counted at the end;
never collected and replayed (which once looped on a foreign warning until memory ran out)."""
import resource
import subprocess
import sys
import warnings

import pytest

import urdf2dyn
from urdf2dyn.cli import main
from urdf2dyn.warn import Urdf2dynWarning

ROBOT2R = urdf2dyn.data_path("robot2r.urdf")


def _limit_memory():
    cap = 2 << 30      # 2 GiB: the runaway grew to 23.5 GB; a normal run needs ~150 MB
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def run_cli(args, cwd, timeout=60):
    """The CLI in a subprocess, outside the source tree, under a memory cap and a time limit."""
    return subprocess.run([sys.executable, "-m", "urdf2dyn", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout, preexec_fn=_limit_memory)


def test_header_only_file_ends_with_one_error(tmp_path):
    """The runaway of issue 16: NumPy warns "input contained no data" on a header-only file."""
    motion = tmp_path / "hdr.csv"
    motion.write_text("time,joint1,joint2\n")
    proc = run_cli(["torques", ROBOT2R, str(motion), "-o", str(tmp_path / "e.csv")], tmp_path)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "need at least 3 samples, got 0" in proc.stderr
    assert "MemoryError" not in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) < 20, proc.stderr[-2000:]
    assert not (tmp_path / "e.csv").exists()


def _command_that_warns(monkeypatch, *found):
    """Make `urdf2dyn check` emit the given warnings (category, message) and succeed
    (build_parser binds cmd_check when main calls it)."""
    import urdf2dyn.cli.models as cli

    def cmd(args):
        for category, message in found:
            warnings.warn(message, category)
            print(f"after {message}", file=sys.stderr)     # printed after its warning
        return 0
    monkeypatch.setattr(cli, "cmd_check", cmd)


def test_each_warning_printed_when_it_occurs_and_counted(monkeypatch, capsys):
    _command_that_warns(monkeypatch, (Urdf2dynWarning, "ours"), (RuntimeWarning, "foreign"))
    with warnings.catch_warnings(record=True) as shown:     # how Python shows warnings here
        assert main(["check", ROBOT2R]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["urdf2dyn check: warning: ours", "after ours", "after foreign",
                   "urdf2dyn check: 2 warnings (above)"]
    assert [str(w.message) for w in shown] == ["foreign"]      # passed on once, as it came


def test_foreign_warning_shown_once_in_a_subprocess(tmp_path):
    motion = tmp_path / "hdr.csv"
    motion.write_text("time,joint1,joint2\n")
    err = run_cli(["torques", ROBOT2R, str(motion)], tmp_path).stderr
    assert err.count("UserWarning: loadtxt") <= 1
    assert err.endswith(("1 warning (above)\n", "got 0\n")), err


def test_strict_turns_any_warning_into_exit_status_1(monkeypatch, capsys):
    _command_that_warns(monkeypatch, (RuntimeWarning, "foreign"))
    with pytest.warns(RuntimeWarning, match="foreign"):
        assert main(["check", ROBOT2R, "--strict"]) == 1
    err = capsys.readouterr().err
    assert "urdf2dyn check: 1 warning (above)" in err
    assert "error: --strict" in err


def test_warnings_do_not_leak_out_of_main(monkeypatch, capsys):
    _command_that_warns(monkeypatch, (Urdf2dynWarning, "ours"))
    before = warnings.showwarning
    main(["check", ROBOT2R])
    assert warnings.showwarning is before
    with pytest.warns(Urdf2dynWarning):        # the caller's own handling is back
        warnings.warn("again", Urdf2dynWarning)


def test_mass_in_grams_is_warned_once_before_the_work(tmp_path, capsys):
    """--mass 57300 for a 57.3 kg model: one warning line, and --strict refuses it before any
    file is written."""
    human = urdf2dyn.data_path("humod_subject_a.urdf")
    motion = urdf2dyn.data_path("running_a_3ms.csv")
    out = tmp_path / "t.csv"
    assert main(["torques", human, motion, "--mass", "57300", "--per-kg", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("warning: mass: 57300 kg is 1000 times the model's 57.3 kg") == 1, err
    out.unlink()
    assert main(["torques", human, motion, "--mass", "57300", "--strict", "-o", str(out)]) == 1
    assert "error: mass: 57300 kg" in capsys.readouterr().err and not out.exists()
