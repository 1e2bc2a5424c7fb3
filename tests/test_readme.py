"""README.rst opens with one literal block of exactly two commands that set everything up on a
fresh Debian/Ubuntu machine: the main job on bundled data, then the test suite, which .ci/run
runs verbatim. Both install into a virtual environment they create (a PEP 668 system Python
refuses pip), and the test command recreates it, so CI resolves dependencies as a new machine."""
import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.rst"
pytestmark = pytest.mark.skipif(not README.exists(), reason="needs the source tree")


def first_block():
    text = README.read_text()
    assert text.startswith("::\n\n"), "README.rst must open with a literal block"
    lines = []
    for line in text[4:].splitlines():
        if line and not line.startswith(" "):
            break
        if line.strip():
            lines.append(line.strip())
    return lines


def apt_packages(command):
    match = re.search(r"apt-get install -y(?: -q)? ([\w .+-]+?) &&", command)
    assert match, command
    return set(match.group(1).split())


def test_two_commands():
    assert len(first_block()) == 2


def test_ci_runs_the_readme_test_command():
    test_command = first_block()[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert test_command in ci.splitlines()


def test_commands_install_into_a_venv_they_create():
    main, tests = first_block()
    for command in (main, tests):
        steps = [s.strip() for s in command.split("&&")]
        venv = next(k for k, s in enumerate(steps) if s.startswith("python3 -m venv"))
        after = steps[venv + 1:]
        assert after and all(s.startswith(".venv/bin/") for s in after), command
        assert not any(re.match(r"(python3? -m )?pip ", s) for s in steps), command
        assert {"python3-venv", "python3-dev", "gcc", "pkg-config", "libmxml-dev"} \
            <= apt_packages(command)
    assert "--clear" in tests                   # CI never reuses an earlier run's packages
    assert {"valgrind", "octave"} <= apt_packages(tests)
    # tests/test_portable.py: Windows cross build run under Wine, Mini-XML's Debian source
    assert {"gcc-mingw-w64-x86-64", "wine", "wine64", "dpkg-dev"} <= apt_packages(tests)
    assert tests.endswith(".venv/bin/pytest -q")    # not python -m pytest: see test_packaging


def test_bundled_paths_exist():
    for path in re.findall(r"urdf2dyn/data/[\w./-]+", first_block()[0]):
        assert (ROOT / path).exists(), path


def test_readme_renders_without_warnings():
    # PyPI renders the long description with docutils and shows raw text on any problem
    core = pytest.importorskip("docutils.core")
    with warnings.catch_warnings():     # docutils 0.22 deprecates writer_name, older lack writer=
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        core.publish_string(README.read_text(), writer_name="null",
                            settings_overrides={"report_level": 2, "halt_level": 2})


def test_quick_start_runs_when_pasted(tmp_path, monkeypatch, capsys):
    """The README's Python blocks run as a newcomer pastes them, from any folder (issue 16: a
    path that exists only in the author's folder raised FileNotFoundError)."""
    blocks = re.findall(r"\.\. code-block:: python\n\n((?:    .*\n|\n)+)", README.read_text())
    assert blocks
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        code = "\n".join(line[4:] for line in block.splitlines())
        exec(compile(code, "README.rst", "exec"), {"__name__": "readme"})
    assert "root_joint_qw" in capsys.readouterr().out


def test_readme_says_what_the_bundled_trial_is_and_what_the_job_writes():
    text = " ".join(README.read_text().split())
    assert "torques_momentum.png" in text
    assert "synthetic" in text and "left and right coincide" in text
