"""urdf2dyn installs like a real package: the sdist holds everything the test suite needs, the
wheel built from it runs without the system's libmxml (Mini-XML is linked statically), and an
unbuilt source tree says what to do instead of "No module named 'urdf2dyn._core'"."""
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not (ROOT / "setup.py").exists(), reason="needs the source tree")

REQUIRED = ["LICENSE", "LICENSE.Mini-XML", "NOTICE.Mini-XML", "README.rst", "setup.py",
            "pyproject.toml", "MANIFEST.in", ".ci/run", "urdf2dyn/py.typed",
            "urdf2dyn/data/humod_subject_a.urdf", "csrc/model/u2d_spatial.h", "tests/c/driver.c",
            "tests/c/build.sh", "tests/typing/usage.py", "docs/conf.py", "docs/index.rst"]
REQUIRED_DIRS = ["tests/c/corpus", "tests/c/regressions", "notebooks", "benchmarks", "tools"]


def build(hook, source, out):
    """Run setuptools' PEP 517 hook in source (no network, no build isolation)."""
    code = f"from setuptools import build_meta; print(build_meta.{hook}({str(out)!r}))"
    env = {k: v for k, v in os.environ.items() if k != "URDF2DYN_MXML"}
    res = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True,
                         text=True, env=env)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return out / res.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def sdist_tree(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sdist")
    archive = build("build_sdist", ROOT, tmp / "dist")
    with tarfile.open(archive) as tar:
        # extraction filters came with Python 3.11.4 (Debian 12 ships 3.11.2)
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(tmp / "unpacked", **safe)
    (tree,) = (tmp / "unpacked").iterdir()
    return tree


def test_sdist_holds_the_test_suite_docs_and_tools(sdist_tree):
    missing = [p for p in REQUIRED if not (sdist_tree / p).is_file()]
    missing += [d for d in REQUIRED_DIRS if not any((sdist_tree / d).iterdir())]
    assert not missing, f"not in the sdist: {missing}"
    assert not list(sdist_tree.rglob("*.so")) and not list(sdist_tree.rglob("__pycache__"))


@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None,
                    reason="needs a git checkout")
def test_sdist_holds_every_tracked_file(sdist_tree):
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    missing = [p for p in tracked if p != ".gitignore" and (ROOT / p).exists()
               and not (sdist_tree / p).exists()]
    assert not missing, f"tracked but not in the sdist (add them to MANIFEST.in): {missing}"


def test_tests_run_from_the_sdist(sdist_tree):
    # the whole suite would take minutes: collect all of it, run two quick files. The working
    # directory is outside the tree, so the installed urdf2dyn is imported, not the sdist's
    # unbuilt copy (pytest still takes its configuration and rootdir from the sdist)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    res = subprocess.run([*run, "--collect-only", str(sdist_tree / "tests")],
                         cwd=sdist_tree.parent, capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "error" not in res.stdout.splitlines()[-1], res.stdout[-3000:]
    assert f"rootdir: {sdist_tree}" in res.stdout or "tests collected" in res.stdout
    res = subprocess.run([*run, str(sdist_tree / "tests" / "test_readme.py"),
                          str(sdist_tree / "tests" / "test_closed_form.py")],
                         cwd=sdist_tree.parent, capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert " passed" in res.stdout and "skipped" not in res.stdout, res.stdout[-2000:]


SMOKE = """
import sys, numpy as np, urdf2dyn
assert urdf2dyn.__file__.startswith(sys.argv[1]), urdf2dyn.__file__
model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
q, v, a = np.array([0.3, -0.7]), np.array([0.5, 1.1]), np.array([-0.2, 0.4])
print(repr(model.inverse_dynamics(q, v, a).tolist()))
with open("/proc/self/maps") as f:
    maps = f.read()
print("libmxml mapped" if "libmxml" in maps else "no libmxml")
import ctypes
try:
    ctypes.CDLL("libmxml.so.1")
    print("system libmxml loadable")
except OSError:
    print("system libmxml absent")
"""


def hide_libmxml(command):
    """command run where the system's libmxml.so* files are unreadable (/dev/null mounted over
    them in a private mount namespace), as on a machine without libmxml1; None if this
    machine does not allow that (unshare needs root or user namespaces)."""
    libs = sorted({str(p) for d in ("/usr/lib", "/usr/local/lib", "/lib")
                   for p in Path(d).rglob("libmxml.so*") if p.is_file()})
    if shutil.which("unshare") is None or subprocess.run(
            ["unshare", "-m", "true"], capture_output=True).returncode != 0:
        return None
    mounts = " && ".join(f"mount --bind /dev/null {lib}" for lib in libs) or "true"
    return ["unshare", "-m", "sh", "-c", f'{mounts} && exec "$0" "$@"', *command]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF and /proc: Linux only")
def test_wheel_runs_without_system_libmxml(sdist_tree, tmp_path):
    import numpy as np
    import urdf2dyn

    wheel = build("build_wheel", sdist_tree, tmp_path / "wheel")      # the sdist builds
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    for needed in ("urdf2dyn/py.typed", "urdf2dyn/data/arm7.urdf"):
        assert needed in names
    for init in sorted((ROOT / "urdf2dyn").rglob("__init__.py")):   # every subpackage listed
        assert init.relative_to(ROOT).as_posix() in names, f"{init.parent} is not in the wheel: " \
            "add it to [tool.setuptools] packages in pyproject.toml"
    for lic in ("LICENSE", "LICENSE.Mini-XML", "NOTICE.Mini-XML"):
        assert any(n.endswith(f".dist-info/{lic}") or n.endswith(f"licenses/{lic}")
                   for n in names), f"{lic} not in {wheel.name}"

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    "--target", str(target), str(wheel)], check=True)
    (core,) = (target / "urdf2dyn").glob("_core*.so")
    dynamic = subprocess.run(["readelf", "-d", str(core)], capture_output=True, text=True,
                             check=True).stdout
    needed = [line for line in dynamic.splitlines() if "(NEEDED)" in line]
    assert needed and not any("mxml" in line for line in needed), needed
    assert "mxmlLoadString" not in subprocess.run(["nm", "-D", str(core)], capture_output=True,
                                                  text=True).stdout   # Mini-XML kept private

    env = {**os.environ, "PYTHONPATH": str(target)}
    command = [sys.executable, "-c", SMOKE, str(target)]
    hidden = hide_libmxml(command)
    res = subprocess.run(hidden or command, cwd=tmp_path, capture_output=True, text=True,
                         env=env)
    assert res.returncode == 0, res.stderr
    tau_line, maps_line, system_line = res.stdout.splitlines()
    assert maps_line == "no libmxml"              # never loaded, even where it is installed
    if hidden:
        assert system_line == "system libmxml absent"       # the masking did hide it
    # the same numbers as the urdf2dyn under test (robot2r's closed form is in test_closed_form)
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    expected = model.inverse_dynamics([0.3, -0.7], [0.5, 1.1], [-0.2, 0.4])
    np.testing.assert_allclose(eval(tau_line), expected, rtol=1e-12)


def test_unbuilt_source_tree_says_what_to_do(tmp_path):
    tree = tmp_path / "checkout"
    shutil.copytree(ROOT / "urdf2dyn", tree / "urdf2dyn",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copytree(ROOT / "csrc", tree / "csrc")
    shutil.copy(ROOT / "setup.py", tree / "setup.py")
    # an editable install's import hook would find the developer's built _core for the copy:
    # drop it, so the copy is what a checkout next to a regular installation looks like
    no_hook = ("import sys; sys.meta_path[:] = [f for f in sys.meta_path "
               "if 'editable' not in str(f).lower()]; ")
    for code in ("import urdf2dyn",                                         # python -c
                 "import runpy; runpy.run_module('urdf2dyn', run_name='__main__')"):  # -m
        res = subprocess.run([sys.executable, "-c", no_hook + code], cwd=tree,
                             capture_output=True, text=True)
        assert res.returncode != 0
        last = res.stderr.strip().splitlines()[-1]
        assert last.startswith("ImportError: urdf2dyn's compiled core"), res.stderr
        assert "pip install -e ." in last and "run from another directory" in last, last
