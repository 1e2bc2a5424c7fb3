"""The core on other compilers and systems, checked here on Linux (issue 21):

* Windows: the core and tests/c/bits.c cross-compiled with mingw-w64 against Mini-XML built
  from Debian's source package in a temporary folder, run under Wine: the same bits as the
  native build (RNEA, CRBA, ABA, forward kinematics) on the bundled and on generated models,
  on every SIMD path;
* Clang (zig's, from PyPI's ``ziglang``): the core built natively with it gives the same bits;
  it compiles warning-free for aarch64-macos and x86_64-macos;
* a compiler without vector extensions (``-DU2D_NO_VECTORS``) builds the scalar path only,
  and the cpuid feature detection (every compiler but GCC) agrees with GCC's builtin.

Tools that cannot be installed skip the test with the command that installs them (CI installs
them all: README's second command, .ci/run and the [test] extra)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from urdfgen import random_urdf

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CSRC = REPO / "csrc"
CDIR = HERE / "c"
pytestmark = pytest.mark.skipif(not CSRC.is_dir(), reason="needs the source tree")

FLAGS = ["-std=c11", "-O3", "-Wall", "-Wextra", "-fno-math-errno", "-ffp-contract=off",
         f"-I{CSRC}"]
PATHS = ("scalar", "avx2", "avx512", "neon")


def core_sources():
    return [str(p) for p in sorted(CSRC.glob("*/u2d_*.c"))]


def run(cmd, timeout=600, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    assert proc.returncode == 0, f"{cmd[0]} ...:\n{proc.stdout[-2000:]}{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """(path, floating) of the bundled models and of generated trees (one with a floating
    joint at its root), each regular on every algorithm at bits.c's states."""
    tmp = tmp_path_factory.mktemp("models")
    out = [(str(REPO / "urdf2dyn" / "data" / name), 0)
           for name in ("humod_subject_a.urdf", "arm7.urdf", "robot2r.urdf")]
    for seed, floating in ((3, False), (7, True)):
        path = tmp / f"random_{seed}.urdf"
        path.write_text(random_urdf(seed, n_links=12, floating_root=floating))
        out.append((str(path), 0))
    return out


def all_bits(command, models, env=None):
    """{(model, floating, path): bits.c's output} for every SIMD path the program has here."""
    out = {}
    for urdf, floating in models:
        for path in PATHS:
            proc = subprocess.run([*command, urdf, str(floating), path], capture_output=True,
                                  text=True, timeout=300, env=env)
            if proc.returncode == 2 and "no SIMD path" in proc.stderr:
                continue
            assert proc.returncode == 0, f"{urdf} {path}: {proc.stderr[-2000:]}"
            # RNEA, CRBA, ABA, forward kinematics, the RNEA and ABA derivatives
            assert proc.stdout.count("status 0") == 6, proc.stdout
            out[(Path(urdf).name, floating, path)] = proc.stdout
    return out


@pytest.fixture(scope="module")
def native(tmp_path_factory, models):
    """bits.c built as the extension is (gcc), and its outputs."""
    if shutil.which("gcc") is None:
        pytest.skip("needs gcc")
    exe = tmp_path_factory.mktemp("native") / "bits"
    mxml = subprocess.run(["pkg-config", "--cflags", "--libs", "mxml"], capture_output=True,
                          text=True).stdout.split() or ["-lmxml"]
    run(["gcc", *FLAGS, "-o", str(exe), str(CDIR / "bits.c"), *core_sources(), *mxml, "-lm",
         "-pthread"])
    return all_bits([str(exe)], models)


def same_as_native(native, other, what):
    # every path's bits equal the native scalar path's: one reference per model
    for (name, floating, path), text in other.items():
        assert text == native[(name, floating, "scalar")], f"{what}, {name} {path}:\n{text}"


# ---- Mini-XML for Windows, from Debian's source package ------------------------------------

def debian_source(package, dest):
    """Unpack Debian's source package into dest/src with a private apt state (the deb-src
    twin of this machine's deb822 sources): nothing of the system's apt setup changes."""
    sources = sorted(Path("/etc/apt/sources.list.d").glob("*.sources"))
    if not sources or shutil.which("apt-get") is None or shutil.which("dpkg-source") is None:
        pytest.skip("needs apt-get, dpkg-source and deb822 sources (Debian)")
    parts = dest / "parts"
    (dest / "lists" / "partial").mkdir(parents=True)
    (dest / "cache" / "archives" / "partial").mkdir(parents=True)
    parts.mkdir()
    for src in sources:
        text = src.read_text().replace("Types: deb\n", "Types: deb-src\n")
        (parts / src.name).write_text(text)
    opts = ["-o", "Dir::Etc::SourceList=/dev/null", "-o", f"Dir::Etc::SourceParts={parts}",
            "-o", f"Dir::State::Lists={dest / 'lists'}", "-o", f"Dir::Cache={dest / 'cache'}",
            "-q"]
    for step in (["update"], ["source", "--download-only", package]):
        proc = subprocess.run(["apt-get", *opts, *step], cwd=dest, capture_output=True,
                              text=True, timeout=600)
        if proc.returncode != 0:
            pytest.skip(f"apt-get {step[0]} for Debian's {package} source failed "
                        f"(network?): {proc.stderr[-500:]}")
    (dsc,) = dest.glob(f"{package}_*.dsc")
    run(["dpkg-source", "-q", "-x", "--no-check", str(dsc), str(dest / "src")], cwd=dest)
    return dest / "src"


def cross_mxml(source, dest, host):
    """Mini-XML built for host (a GNU triplet) from Debian's source, static: the folder
    holding mxml.h and libmxml.a."""
    shutil.copytree(source, dest)
    run(["./configure", "-q", f"--host={host}", "--disable-shared", "--disable-threads"],
        cwd=dest)
    objs = []
    for c in sorted(dest.glob("mxml-*.c")):
        obj = c.with_suffix(".o")
        run([f"{host}-gcc", "-O2", "-w", f"-I{dest}", "-c", str(c), "-o", str(obj)])
        objs.append(str(obj))
    run([f"{host}-ar", "rcs", str(dest / "libmxml.a"), *objs])
    return dest


@pytest.fixture(scope="module")
def mingw_mxml(tmp_path_factory):
    """Mini-XML built for Windows x86-64 (static)."""
    if shutil.which("x86_64-w64-mingw32-gcc") is None:
        pytest.skip("no mingw-w64: apt-get install gcc-mingw-w64-x86-64")
    source = tmp_path_factory.getbasetemp()
    return cross_mxml(mxml_source_dir(tmp_path_factory), source / "mxml-win",
                      "x86_64-w64-mingw32")


_SOURCE = {}


def mxml_source_dir(tmp_path_factory):
    if "mxml" not in _SOURCE:
        _SOURCE["mxml"] = debian_source("mxml", tmp_path_factory.mktemp("mxml-src"))
    return _SOURCE["mxml"]


def wine_command():
    for name in ("wine", "wine64", "/usr/lib/wine/wine64"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def test_windows_build_gives_the_same_bits_under_wine(native, mingw_mxml, models, tmp_path):
    """The core, cross-compiled for Windows (Win32 threads, the same AVX2 / AVX-512 units and
    dispatch), computes bit for bit what the Linux build computes, on every path."""
    wine = wine_command()
    if wine is None:
        pytest.skip("no Wine: apt-get install wine wine64")
    exe = tmp_path / "bits.exe"
    run(["x86_64-w64-mingw32-gcc", *FLAGS, "-Werror", "-static", f"-I{mingw_mxml}", "-o",
         str(exe), str(CDIR / "bits.c"), *core_sources(), str(mingw_mxml / "libmxml.a"),
         "-lm"])
    env = {**os.environ, "WINEPREFIX": str(tmp_path / "wineprefix"), "WINEDEBUG": "-all",
           "WINEDLLOVERRIDES": "mscoree,mshtml="}
    windows = all_bits([wine, str(exe)], models, env)
    assert {p for (_, _, p) in windows} == {p for (_, _, p) in native}, "paths differ"
    same_as_native(native, windows, "Windows under Wine")


def test_actdim_beyond_an_int_is_refused_where_a_long_is_32_bits(tmp_path):
    """The MJCF reader's whole_int (actdim=), compiled for Windows, where a long has 32 bits,
    and run under Wine: "2147483648" is beyond an int, as MuJoCo refuses it. With strtol it
    saturated to LONG_MAX, an int there, and was accepted."""
    wine = wine_command()
    if shutil.which("x86_64-w64-mingw32-gcc") is None or wine is None:
        pytest.skip("no mingw-w64 or Wine: apt-get install gcc-mingw-w64-x86-64 wine wine64")
    source = (CSRC / "parse" / "u2d_mjcf.c").read_text()

    def function(name):                 # its text, from its signature to its closing brace
        start = source.index(f"static int {name}(const char *s)")
        return source[start:source.index("\n}\n", start) + 3]
    harness = tmp_path / "whole_int.c"
    harness.write_text("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" +
                       function("whole_ints") + function("whole_int") +
                       'int main(void) { printf("%d %d %d %d", (int)sizeof(long), '
                       'whole_int("2147483648"), whole_int("-2147483649"), '
                       'whole_int("2147483647")); return 0; }\n')
    exe = tmp_path / "whole_int.exe"
    run(["x86_64-w64-mingw32-gcc", *FLAGS, "-Werror", "-o", str(exe), str(harness)])
    env = {**os.environ, "WINEPREFIX": str(tmp_path / "wineprefix"), "WINEDEBUG": "-all",
           "WINEDLLOVERRIDES": "mscoree,mshtml="}
    assert run([wine, str(exe)], env=env).stdout.split() == ["4", "-1", "-1", "1"]


def test_arm64_neon_gives_the_same_bits_under_qemu(native, models, tmp_path_factory):
    """arm64 (Linux aarch64; Apple silicon runs the same unit): the 2-lane NEON path and the
    scalar path, run under qemu-user, give the x86-64 build's bits."""
    if shutil.which("aarch64-linux-gnu-gcc") is None or shutil.which("qemu-aarch64") is None:
        pytest.skip("needs apt-get install gcc-aarch64-linux-gnu qemu-user")
    mxml = cross_mxml(mxml_source_dir(tmp_path_factory),
                      tmp_path_factory.getbasetemp() / "mxml-a64", "aarch64-linux-gnu")
    exe = tmp_path_factory.mktemp("a64") / "bits"
    run(["aarch64-linux-gnu-gcc", *FLAGS, "-Werror", "-Wno-psabi", "-static", f"-I{mxml}",
         "-o", str(exe), str(CDIR / "bits.c"), *core_sources(), str(mxml / "libmxml.a"), "-lm",
         "-pthread"])
    arm = all_bits(["qemu-aarch64", str(exe)], models)
    assert {p for (_, _, p) in arm} == {"scalar", "neon"}
    same_as_native(native, arm, "arm64 under qemu")


# ---- Clang, through zig ------------------------------------------------------------------

def zig_cc():
    try:
        import ziglang  # noqa: F401
    except ImportError:
        pytest.skip("no zig: pip install ziglang (in the [test] extra)")
    return [sys.executable, "-m", "ziglang", "cc"]


@pytest.mark.parametrize("target", ["aarch64-macos", "x86_64-macos"])
def test_core_compiles_for_macos_with_clang(target, tmp_path):
    """Every core file compiles warning-free for macOS with Clang (zig's cross toolchain)."""
    inc = tmp_path / "include"
    inc.mkdir()
    shutil.copy("/usr/include/mxml.h" if Path("/usr/include/mxml.h").exists()
                else pytest.skip("needs mxml.h: apt-get install libmxml-dev"), inc)
    for src in [*core_sources(), str(CDIR / "bits.c")]:
        run([*zig_cc(), "-target", target, *FLAGS[:1], "-O2", *FLAGS[2:], "-Werror",
             f"-I{inc}", "-c", src, "-o", str(tmp_path / (Path(src).stem + ".o"))])


def test_clang_build_gives_the_same_bits(native, models, tmp_path):
    """Built by Clang (its vector extensions, #pragma clang attribute targets, cpuid feature
    detection), the core gives GCC's bits on every path this CPU has."""
    archive = Path("/usr/lib/x86_64-linux-gnu/libmxml.a")
    if not archive.exists() or os.uname().machine != "x86_64":
        pytest.skip("needs Debian's x86-64 libmxml.a (libmxml-dev)")
    inc = tmp_path / "include"
    inc.mkdir()
    shutil.copy("/usr/include/mxml.h", inc)
    exe = tmp_path / "bits-clang"
    run([*zig_cc(), "-target", "x86_64-linux-gnu.2.31", *FLAGS, f"-I{inc}", "-o", str(exe),
         str(CDIR / "bits.c"), *core_sources(), str(archive), "-lm", "-lpthread"])
    clang = all_bits([str(exe)], models)
    assert {p for (_, _, p) in clang} == {p for (_, _, p) in native}, "paths differ"
    same_as_native(native, clang, "Clang")


# ---- builds without the GCC builtins -------------------------------------------------------

def test_build_without_vector_extensions_is_scalar_only(native, models, tmp_path):
    """A compiler without vector extensions (MSVC) gets the scalar path alone, dispatched as
    usual, with the same bits."""
    exe = tmp_path / "bits-novec"
    mxml = subprocess.run(["pkg-config", "--cflags", "--libs", "mxml"], capture_output=True,
                          text=True).stdout.split() or ["-lmxml"]
    run(["gcc", *FLAGS, "-Werror", "-DU2D_NO_VECTORS", "-o", str(exe), str(CDIR / "bits.c"),
         *core_sources(), *mxml, "-lm", "-pthread"])
    novec = all_bits([str(exe)], models)
    assert {p for (_, _, p) in novec} == {"scalar"}
    same_as_native(native, novec, "no vector extensions")


CPU_PROBE = """
#include <stdio.h>
#include "model/u2d_port.h"
int main(void) { printf("avx2 %d avx512 %d\\n", u2d_cpu_avx2(), u2d_cpu_avx512()); return 0; }
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="x86-64 feature detection")
def test_cpuid_detection_agrees_with_gcc_builtin(tmp_path):
    (tmp_path / "probe.c").write_text(CPU_PROBE)
    outs = []
    for extra in ([], ["-DU2D_CPUID"]):
        exe = tmp_path / f"probe{len(extra)}"
        run(["gcc", *FLAGS, "-Werror", *extra, "-o", str(exe), str(tmp_path / "probe.c")])
        outs.append(run([str(exe)]).stdout)
    assert outs[0] == outs[1]
    # and both agree with the kernel's view of this CPU
    flags = Path("/proc/cpuinfo").read_text().split()
    avx2 = "avx2" in flags and "fma" in flags
    assert outs[0].startswith(f"avx2 {int(avx2)} ")
