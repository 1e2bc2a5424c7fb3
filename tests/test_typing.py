"""urdf2dyn ships type information (PEP 561: py.typed + inline annotations): mypy accepts the
package and a typed user of its public API, and flags each wrong use in tests/typing/misuse.py
(so the annotations are real types, not Any)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TYPING = ROOT / "tests" / "typing"
pytest.importorskip("mypy")
pytestmark = pytest.mark.skipif(not (ROOT / "urdf2dyn").is_dir(), reason="needs the source tree")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("mypy_cache")      # shared: numpy's stubs are parsed once


def mypy(cache, *targets):
    cmd = [sys.executable, "-m", "mypy", "--cache-dir", str(cache),
           "--no-error-summary", "--hide-error-context", *map(str, targets)]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


def test_py_typed_is_shipped():
    assert (ROOT / "urdf2dyn" / "py.typed").exists()


def test_package_and_typed_usage_pass_mypy(cache):
    res = mypy(cache, "urdf2dyn", TYPING / "usage.py")
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_flags_each_misuse(cache):
    misuse = TYPING / "misuse.py"
    expected = {n for n, line in enumerate(misuse.read_text().splitlines(), 1)
                if line.endswith("# error")}
    res = mypy(cache, misuse)
    flagged = {int(m) for m in re.findall(r"misuse\.py:(\d+): error", res.stdout)}
    assert res.returncode == 1, res.stdout + res.stderr
    assert flagged == expected, res.stdout


def test_typed_usage_runs(tmp_path):
    # the example mypy accepts is real code: it runs against the installed package
    res = subprocess.run([sys.executable, str(TYPING / "usage.py")], cwd=tmp_path,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
