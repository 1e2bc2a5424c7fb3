"""README.rst opens with one literal block of exactly two commands: the main job on bundled
data, then the test suite, which .ci/run runs verbatim. Paths they name must exist."""
import re
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


def test_two_commands():
    assert len(first_block()) == 2


def test_ci_runs_the_readme_test_command():
    test_command = first_block()[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert test_command in ci.splitlines()


def test_bundled_paths_exist():
    for path in re.findall(r"urdf2dyn/data/[\w./-]+", first_block()[0]):
        assert (ROOT / path).exists(), path
