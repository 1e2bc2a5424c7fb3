"""Build urdf2dyn's C extension: the core (C11, libc + libm + mxml) and its CPython module.

Mini-XML is linked statically when the build machine has libmxml.a (Debian's libmxml-dev ships
it, built position-independent), so the module and its wheel run on machines without
libmxml1; its symbols are kept private to the module. URDF2DYN_MXML=shared links
libmxml.so instead (the system's library is then needed at run time).
"""
import os
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


def static_mxml():
    """Path of libmxml.a, or None when only the shared library is available (or wanted)."""
    if os.environ.get("URDF2DYN_MXML", "static") == "shared":
        return None
    libdirs = [flag[2:] for flag in pkg_config("--libs-only-L")]
    libdirs += pkg_config("--variable=libdir")
    libdirs += ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/local/lib",
                "/usr/lib"]
    for libdir in libdirs:
        path = os.path.join(libdir, "libmxml.a")
        if os.path.exists(path):
            return path
    return None


archive = static_mxml()
if archive:
    # --exclude-libs hides Mini-XML's symbols, so another module's mxml cannot clash with ours
    mxml_link = [archive, "-Wl,--exclude-libs," + os.path.basename(archive)]
else:
    mxml_link = pkg_config("--libs")

cflags = pkg_config("--cflags")
core = Extension(
    "urdf2dyn._core",
    sources=sorted(glob("csrc/*/*.c")),
    depends=sorted(glob("csrc/*/*.h")),
    include_dirs=["csrc", numpy.get_include()],
    extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra", "-fno-math-errno",
                        "-ffp-contract=off", *cflags],
    extra_link_args=[*mxml_link, "-lm", "-pthread"],
)

setup(ext_modules=[core])
