"""The C core builds warning-free as C11 with -Wall -Wextra, depends on libc, libm and mxml
only, and keeps every Mini-XML call in one file."""
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import numpy as np
import pytest

CSRC = Path(__file__).resolve().parent.parent / "csrc"
pytestmark = pytest.mark.skipif(not CSRC.is_dir(), reason="needs the source tree")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_compiles_without_warnings():
    for src in sorted(CSRC.glob("*/*.c")):
        cmd = ["gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
               f"-I{CSRC}", f"-I{sysconfig.get_paths()['include']}", f"-I{np.get_include()}",
               str(src)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        assert res.returncode == 0, f"{src.name}:\n{res.stderr}"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_benchmark_programs_compile_without_warnings():
    """The C benchmark programs (benchmarks/*.c, built by hand from the line in each header,
    and sharing benchmarks/bench_model.h) still compile against the core's headers: nothing
    else builds them."""
    progs = sorted((CSRC.parent / "benchmarks").glob("*.c"))
    assert {"bench_deriv_c.c", "bench_lanes.c", "flop_driver.c"} <= {p.name for p in progs}
    for src in progs:
        cmd = ["gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
               f"-I{CSRC}", *_third_party_includes(src), str(src)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        assert res.returncode == 0, f"{src.name}:\n{res.stderr}"


def _third_party_includes(src):
    """bench_mjrne.c times MuJoCo itself: its headers come with the mujoco wheel (the test
    extra installs it)."""
    if "<mujoco/mujoco.h>" not in src.read_text():
        return []
    import mujoco
    return [f"-I{Path(mujoco.__file__).parent / 'include'}"]


def test_core_includes_only_libc_libm_mxml():
    allowed = {"math.h", "string.h", "stdio.h", "stdlib.h", "stdarg.h", "stddef.h", "stdint.h",
               "pthread.h", "mxml.h",
               # parse/u2d_mesh.c only: FLT_EPSILON, as MuJoCo's OBJ reader tests a polygon
               # in single precision (the compiler's own header, C89)
               "float.h",
               # parse/u2d_urdf.c only: localeconv, so numbers read with '.' whatever
               # LC_NUMERIC the process runs under (libc, C89)
               "locale.h",
               # model/u2d_port.h only: Win32 threads, MSVC's and GCC/Clang's cpuid
               "windows.h", "intrin.h", "cpuid.h",
               # batch/u2d_simd_impl.h only: the non-temporal stores of SSE2, AVX and AVX-512
               # (the compiler's own intrinsics header, in every x86-64 compiler)
               "immintrin.h"}
    for src in sorted(CSRC.glob("*/u2d_*.[ch]")):
        system = set(re.findall(r'#include <([^>]+)>', src.read_text()))
        assert system <= allowed, f"{src.name} includes {system - allowed}"
        if src.name != "u2d_port.h":
            assert not system & {"windows.h", "intrin.h", "cpuid.h", "pthread.h"}, src.name
        if src.name != "u2d_simd_impl.h":
            assert "immintrin.h" not in system, src.name


def test_mxml_calls_in_one_file():
    users = [p.name for p in CSRC.glob("*/*.[ch]") if re.search(r"\bmxml[A-Z]", p.read_text())]
    assert users == ["u2d_xml.c"]


# The core's layers (docs/layout.rst), lowest first: a folder includes only its own layer's
# headers and those of the layers below it, so a parser or the CPython module never leaks
# into an algorithm.
LAYERS = ["model", "parse", "algo", "batch", "python"]


def test_core_layers_include_only_downwards():
    assert sorted(p.name for p in CSRC.iterdir() if p.is_dir()) == sorted(LAYERS)
    assert not list(CSRC.glob("*.[ch]")), "every core file belongs to a layer's folder"
    for src in sorted(CSRC.glob("*/*.[ch]")):
        layer = LAYERS.index(src.parent.name)
        for folder in re.findall(r'#include "(\w+)/', src.read_text()):
            assert folder in LAYERS, f"{src}: includes from unknown folder {folder!r}"
            assert LAYERS.index(folder) <= layer, (f"{src.relative_to(CSRC)} includes from "
                                                   f"{folder}/, a layer above {src.parent.name}/")
