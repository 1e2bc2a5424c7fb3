"""Build urdf2dyn's C extension: the core (C11, libc + libm + mxml) and its CPython module."""
import shlex
import subprocess
from glob import glob

import numpy
from setuptools import Extension, setup


def pkg_config(*args):
    """Flags for Mini-XML from pkg-config; plain -lmxml when pkg-config is unavailable."""
    try:
        out = subprocess.run(["pkg-config", *args, "mxml"], check=True, capture_output=True,
                             text=True).stdout
        return shlex.split(out)
    except (OSError, subprocess.CalledProcessError):
        return ["-lmxml"] if "--libs" in args else []


cflags = pkg_config("--cflags")
core = Extension(
    "urdf2dyn._core",
    sources=sorted(glob("csrc/*.c")),
    depends=sorted(glob("csrc/*.h")),
    include_dirs=["csrc", numpy.get_include()],
    extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra", "-fno-math-errno",
                        "-ffp-contract=off", *cflags],
    extra_link_args=[*pkg_config("--libs"), "-lm", "-pthread"],
)

setup(ext_modules=[core])
