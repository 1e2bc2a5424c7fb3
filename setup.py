"""Build urdf2dyn's C extension: the core (C11, libc + libm + mxml) and its CPython module.

Mini-XML is found, in this order, through
  1. MXML_INCLUDE_DIR and MXML_LIBRARY (a folder holding mxml.h; the library file itself),
  2. pkg-config (mxml4, then mxml: Mini-XML 4 renamed its package),
  3. vcpkg (VCPKG_ROOT or VCPKG_INSTALLATION_ROOT, triplet VCPKG_DEFAULT_TRIPLET),
  4. conda (CONDA_PREFIX, or PREFIX / LIBRARY_PREFIX inside conda-build),
  5. Homebrew (HOMEBREW_PREFIX, /opt/homebrew, /usr/local),
  6. the system's usual folders.
It is linked statically wherever a static library exists (Debian's libmxml-dev ships one,
position-independent), so the module and its wheels run without Mini-XML installed; its
symbols stay private to the module where the linker allows (GNU ld's --exclude-libs on ELF,
ld64's exported-symbol list on macOS; MSVC exports only PyInit__core anyway).
URDF2DYN_MXML=shared links the shared library instead. Compile and link flags are chosen per
compiler: GCC, Clang / AppleClang, MSVC and clang-cl (build_ext below).
Without Mini-XML the build stops with the command that installs it on this system.
"""
import os
import shlex
import shutil
import subprocess
import sys
from glob import glob
from pathlib import Path

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PLATFORM = sys.platform
WINDOWS = PLATFORM == "win32"
MACOS = PLATFORM == "darwin"

INSTALL = {
    "linux": "Debian/Ubuntu: apt-get install libmxml-dev; Fedora: dnf install mxml-devel; "
             "Alpine: apk add mxml-dev; conda: conda install -c conda-forge mxml",
    "darwin": "brew install libmxml (or conda install -c conda-forge mxml)",
    "win32": "vcpkg install mxml:x64-windows-static-md and set VCPKG_ROOT "
             "(or conda install -c conda-forge mxml)",
}


class MxmlNotFound(RuntimeError):
    pass


def missing(why):
    hint = INSTALL.get(PLATFORM, INSTALL["linux"])
    return MxmlNotFound(
        f"urdf2dyn needs Mini-XML (mxml.h and its library) to build, and {why}.\n"
        f"Install it: {hint}.\n"
        "Or point the build at it: MXML_INCLUDE_DIR=<folder with mxml.h> "
        "MXML_LIBRARY=<path of libmxml.a / mxml.lib / the shared library>.")


def static_wanted():
    return os.environ.get("URDF2DYN_MXML", "static") != "shared"


def library_names():
    """File names of Mini-XML's library, preferred first (static before shared)."""
    if WINDOWS:
        static = ["mxml4.lib", "mxml1.lib", "mxml.lib", "libmxml4.a", "libmxml.a"]
        return static                      # a .lib may also be an import library: see find_in
    static = ["libmxml4.a", "libmxml.a"]
    shared = ["libmxml4.dylib", "libmxml.dylib"] if MACOS else ["libmxml4.so", "libmxml.so"]
    return static + shared if static_wanted() else shared + static


def pkg_config(package, *args):
    exe = os.environ.get("PKG_CONFIG", "pkg-config")
    if not shutil.which(exe):
        return None
    proc = subprocess.run([exe, *args, package], capture_output=True, text=True)
    return shlex.split(proc.stdout) if proc.returncode == 0 else None


def from_pkg_config():
    for package in ("mxml4", "mxml"):
        cflags = pkg_config(package, "--cflags")
        if cflags is None:
            continue
        incdirs = [f[2:] for f in cflags if f.startswith("-I")]
        libdirs = [f[2:] for f in pkg_config(package, "--libs-only-L") or []]
        libdirs += pkg_config(package, "--variable=libdir") or []
        found = find_in(incdirs + ["/usr/include", "/usr/local/include"], libdirs)
        if found:
            return found
        return incdirs, pkg_config(package, "--libs") or ["-lmxml"], "pkg-config " + package
    return None


def find_in(incdirs, libdirs, where="pkg-config"):
    """(include dirs, link arguments, where) if mxml.h and a library are in these folders."""
    header = next((d for d in incdirs for sub in ("", "libmxml4")
                   if Path(d, sub, "mxml.h").is_file()), None)
    if header is None:
        return None
    if Path(header, "libmxml4", "mxml.h").is_file() and not Path(header, "mxml.h").is_file():
        header = str(Path(header, "libmxml4"))
    for name in library_names():
        for libdir in libdirs:
            path = Path(libdir, name)
            if path.is_file():
                return [header], [str(path)], where
    return None


def prefixes():
    """(where, prefix) of the package managers' install trees on this machine."""
    out = []
    vcpkg = os.environ.get("VCPKG_ROOT") or os.environ.get("VCPKG_INSTALLATION_ROOT")
    if vcpkg:
        triplets = [os.environ.get("VCPKG_DEFAULT_TRIPLET")] + sorted(
            p.name for p in Path(vcpkg, "installed").glob("*") if p.is_dir())
        out += [("vcpkg", Path(vcpkg, "installed", t)) for t in triplets if t]
    for var in ("LIBRARY_PREFIX", "PREFIX", "CONDA_PREFIX"):
        if os.environ.get(var):
            root = Path(os.environ[var])
            out += [("conda", root / "Library"), ("conda", root)] if WINDOWS else [("conda", root)]
    if MACOS:
        brew = shutil.which("brew")
        if brew:
            proc = subprocess.run([brew, "--prefix", "libmxml"], capture_output=True, text=True)
            if proc.returncode == 0:
                out.append(("Homebrew", Path(proc.stdout.strip())))
        for root in (os.environ.get("HOMEBREW_PREFIX"), "/opt/homebrew", "/usr/local"):
            if root:
                out.append(("Homebrew", Path(root)))
    for root in ("/usr/local", "/usr"):
        out.append(("system", Path(root)))
    return out


def find_mxml():
    """(include dirs, link arguments, where found) for Mini-XML, or MxmlNotFound."""
    inc, lib = os.environ.get("MXML_INCLUDE_DIR"), os.environ.get("MXML_LIBRARY")
    if inc or lib:
        if not (inc and Path(inc, "mxml.h").is_file()):
            raise missing(f"MXML_INCLUDE_DIR={inc!r} holds no mxml.h")
        if not (lib and Path(lib).is_file()):
            raise missing(f"MXML_LIBRARY={lib!r} is not a file")
        return [inc], [lib], "MXML_INCLUDE_DIR / MXML_LIBRARY"
    found = None if WINDOWS else from_pkg_config()
    if found:
        return found
    multiarch = [str(p) for p in Path("/usr/lib").glob("*-linux-*")]     # Debian's lib folders
    for where, root in prefixes():
        libdirs = [root / "lib", root / "lib64"] + (multiarch if where == "system" else [])
        found = find_in([str(root / "include")], [str(d) for d in libdirs], where)
        if found:
            return found
    raise missing("none was found through MXML_INCLUDE_DIR / MXML_LIBRARY, pkg-config, vcpkg, "
                  "conda, Homebrew or the system's folders")


def compiler_family(compiler):
    """'msvc', 'clang-cl', 'clang' or 'gcc' for a distutils compiler object."""
    if compiler.compiler_type == "msvc":
        cc = os.environ.get("CC", "") + " " + str(getattr(compiler, "cc", ""))
        return "clang-cl" if "clang-cl" in cc else "msvc"
    cc = (compiler.compiler or ["cc"])[0]
    try:
        version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    except OSError:
        version = ""
    return "clang" if "clang" in version.lower() else "gcc"


# -ffp-contract=off: no fused multiply-adds, so every build (and every SIMD lane) rounds alike;
# -fvisibility=hidden: the module exports PyInit__core alone, so the core's calls between its
# files are plain calls, not through the PLT of a symbol another library could interpose
FLAGS = {
    "gcc": ["-std=c11", "-O3", "-Wall", "-Wextra", "-fno-math-errno", "-ffp-contract=off",
            "-fvisibility=hidden"],
    "clang": ["-std=c11", "-O3", "-Wall", "-Wextra", "-fno-math-errno", "-ffp-contract=off",
              "-fvisibility=hidden"],
    # /fp:precise contracts nothing since Visual Studio 2022 (it needs /fp:contract)
    "msvc": ["/std:c11", "/O2", "/W3", "/fp:precise"],
    "clang-cl": ["/std:c11", "/O2", "/W3", "/clang:-fno-math-errno", "/clang:-ffp-contract=off"],
}


def link_flags(family, mxml_link):
    """Linker arguments: Mini-XML (kept private where the linker can), libm and threads."""
    if family in ("msvc", "clang-cl"):
        return list(mxml_link)
    archive = next((a for a in mxml_link if a.endswith(".a")), None)
    if MACOS:
        return [*mxml_link, "-Wl,-exported_symbol,_PyInit__core"]
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        hide = [f"-Wl,--exclude-libs,{Path(archive).name}"] if archive else []
        return [*mxml_link, *hide, "-lm", "-pthread"]
    return [*mxml_link, "-lm"]                    # MinGW and others: Win32 threads, no -pthread


class BuildExt(build_ext):
    """Flags chosen for the compiler setuptools picked; Mini-XML located once, here, so that
    commands that compile nothing (sdist, egg_info) run without it."""

    def build_extensions(self):
        family = compiler_family(self.compiler)
        incdirs, mxml_link, where = find_mxml()
        print(f"urdf2dyn: Mini-XML from {where}: {' '.join(mxml_link)}; compiler {family}")
        for ext in self.extensions:
            ext.include_dirs += incdirs
            ext.extra_compile_args += FLAGS[family]
            ext.extra_link_args += link_flags(family, mxml_link)
        super().build_extensions()


def extension():
    return Extension(
        "urdf2dyn._core",
        sources=sorted(glob("csrc/*/*.c")),
        depends=sorted(glob("csrc/*/*.h")),
        include_dirs=["csrc", numpy.get_include()],
    )


if __name__ == "__main__":          # setuptools runs this file as __main__; tests import it
    setup(ext_modules=[extension()], cmdclass={"build_ext": BuildExt})
