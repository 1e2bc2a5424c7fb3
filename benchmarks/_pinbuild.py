"""Build and run ``benchmarks/pin_rnea_bench.cpp`` against the Pinocchio shipped in the ``pin`` wheel.

The ``pin`` / ``libpinocchio`` wheels use the cmeel layout: headers under
``<site-packages>/cmeel.prefix/include`` and shared libraries under ``cmeel.prefix/lib``. Two
header-only dependencies are *build* extras of those wheels and are not installed with a plain
``pip install pin``:

* Eigen headers            -> ``pip install cmeel-eigen``             (``include/eigen3``)
* urdfdom_headers          -> ``pip install cmeel-urdfdom-headers``   (``include/urdfdom_headers``)

A system Eigen (``/usr/include/eigen3``, Debian ``libeigen3-dev``) is accepted as a fallback.

Compile definitions are read from Pinocchio's exported CMake targets
(``lib/cmake/pinocchio/pinocchioTargets.cmake``: ``pinocchio_headers``, ``pinocchio_default``,
``pinocchio_parsers``); include directories from the pkg-config files (``eigen3.pc``,
``urdfdom_headers.pc``, ``urdfdom.pc``), parsed here without needing the ``pkg-config`` tool. The
collision definitions (``PINOCCHIO_WITH_COLLISION``/``PINOCCHIO_WITH_HPP_FCL``) are dropped: the
program uses no geometry, and this avoids needing coal's headers.

The binary is compiled once (g++ -O3 -DNDEBUG, ~2-3 minutes) and cached in
``benchmarks/.build/`` under a name that hashes the source, flags, compiler and Pinocchio version,
with an rpath to the wheel's lib dir(s) (``LD_LIBRARY_PATH`` is set too when running).

API::

    from _pinbuild import get_runner, PinBuildError
    run = get_runner()              # builds if needed; raises PinBuildError saying precisely why not
    res = run(urdf_path, floating=True, n=20000, reps=5, algo="rnea")   # -> dict, res["best_ns"]
    tau = run.eval_rnea(urdf_path, floating, Q, V, A)   # (N, nv) tau from the C++ program

Command line: ``python benchmarks/_pinbuild.py [--rebuild] [--print-flags] [URDF FLOATING N REPS [ALGO]]``.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "pin_rnea_bench.cpp"
BUILD_DIR = HERE / ".build"
ALGOS = ("rnea", "crba", "aba", "fk", "fkva", "rnea_deriv", "aba_deriv", "framejac",
         "framejacdot", "frameacc")

# Used only if pinocchioTargets.cmake cannot be read (values of pinocchio 4.1's export).
_FALLBACK_DEFINES = [
    "BOOST_MPL_LIMIT_LIST_SIZE=30",
    "BOOST_MPL_LIMIT_VECTOR_SIZE=30",
    "BOOST_MPL_CFG_NO_PREPROCESSED_HEADERS",
    "BOOST_FUSION_INVOKE_MAX_ARITY=12",
    "PINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION",
    "PINOCCHIO_WITH_URDFDOM",
]
_DROPPED_DEFINES = {"PINOCCHIO_WITH_COLLISION", "PINOCCHIO_WITH_HPP_FCL"}


class PinBuildError(RuntimeError):
    """The Pinocchio C++ benchmark program cannot be built or run; the message says why."""


# --------------------------------------------------------------------------------------------
# Locating the cmeel prefix(es)
# --------------------------------------------------------------------------------------------


def find_prefixes() -> list[Path]:
    """All existing ``cmeel.prefix`` directories, the one holding Pinocchio first."""
    cands: list[Path] = []
    try:  # the prefix that actually holds the imported pinocchio python package
        import importlib.util

        spec = importlib.util.find_spec("pinocchio")
        if spec is not None and spec.origin:
            p = Path(spec.origin).resolve()
            for parent in p.parents:
                if parent.name == "cmeel.prefix":
                    cands.append(parent)
                    break
    except Exception:  # pragma: no cover - broken pinocchio install; other candidates remain
        pass
    dirs = [sysconfig.get_paths().get("purelib"), sysconfig.get_paths().get("platlib")]
    dirs += list(sys.path)
    try:
        import site

        dirs += site.getsitepackages() + [site.getusersitepackages()]
    except Exception:  # pragma: no cover
        pass
    for d in dirs:
        if d:
            cands.append(Path(d) / "cmeel.prefix")
    out: list[Path] = []
    for c in cands:
        try:
            c = c.resolve()
        except OSError:
            continue
        if c.is_dir() and c not in out:
            out.append(c)
    return out


def _first(prefixes, rel_candidates):
    for pre in prefixes:
        for rel in rel_candidates:
            p = pre / rel
            if p.exists():
                return pre, p
    return None, None


def _parse_pc(pc: Path) -> dict:
    """Minimal pkg-config parser: variables and Cflags/Libs (no Requires resolution)."""
    vars_ = {"pcfiledir": str(pc.parent)}
    fields = {}

    def expand(s):
        for _ in range(10):
            s2 = re.sub(r"\$\{(\w+)\}", lambda m: vars_.get(m.group(1), ""), s)
            if s2 == s:
                break
            s = s2
        return s

    for line in pc.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^([\w.]+)\s*=\s*(.*)$", line)
        if m:
            vars_[m.group(1)] = expand(m.group(2))
            continue
        m = re.match(r"^([\w.]+)\s*:\s*(.*)$", line)
        if m:
            fields[m.group(1)] = expand(m.group(2))
    return fields


def _pc_include_dirs(pc: Path) -> list[str]:
    cflags = _parse_pc(pc).get("Cflags", "")
    out = []
    for tok in shlex.split(cflags):
        if tok.startswith("-I"):
            d = os.path.normpath(tok[2:])
            if os.path.isdir(d):  # eigenpy.pc e.g. lists the wheel builder's temp dirs
                out.append(d)
    return out


def _cmake_target_defines(targets_file: Path, target: str) -> list[str] | None:
    text = targets_file.read_text()
    m = re.search(
        r"set_target_properties\(pinocchio::%s PROPERTIES(.*?)\n\)" % re.escape(target), text, re.S
    )
    if not m:
        return None
    d = re.search(r'INTERFACE_COMPILE_DEFINITIONS\s+"([^"]*)"', m.group(1))
    if not d:
        return []
    out = []
    for item in d.group(1).split(";"):
        item = item.strip()
        if not item or "$<" in item or item.startswith("\\$"):  # generator expressions
            continue
        out.append(item)
    return out


def detect() -> dict:
    """Find headers, libraries and flags. Raises PinBuildError naming exactly what is missing."""
    prefixes = find_prefixes()
    if not prefixes:
        raise PinBuildError(
            "no cmeel.prefix directory found on sys.path (is the 'pin' wheel installed? "
            "`pip install pin`); searched: " + ", ".join(map(str, sys.path))
        )
    missing = []
    include_dirs: list[str] = []
    lib_dirs: list[str] = []

    def add_inc(d):
        d = os.path.normpath(str(d))
        if d not in include_dirs:
            include_dirs.append(d)

    pin_pre, pin_hdr = _first(prefixes, ["include/pinocchio/parsers/urdf.hpp"])
    if pin_hdr is None:
        missing.append(
            "Pinocchio headers (include/pinocchio/parsers/urdf.hpp) in "
            + ", ".join(map(str, prefixes))
            + " -- install the 'libpinocchio' wheel (`pip install pin`)"
        )
    else:
        add_inc(pin_pre / "include")

    libs = {}
    for lib in ("pinocchio_default", "pinocchio_parsers", "urdfdom_model"):
        pre, p = _first(prefixes, [f"lib/lib{lib}.so", f"lib64/lib{lib}.so"])
        if p is None:
            missing.append(f"lib{lib}.so (in <cmeel.prefix>/lib of {', '.join(map(str, prefixes))})")
        else:
            libs[lib] = p
            if str(p.parent) not in lib_dirs:
                lib_dirs.append(str(p.parent))
    # libraries pulled in transitively (boost, coal, ...) live there too
    for pre in prefixes:
        for sub in ("lib", "lib64"):
            d = pre / sub
            if d.is_dir() and str(d) not in lib_dirs:
                lib_dirs.append(str(d))

    # Eigen: cmeel-eigen's eigen3.pc, else include/eigen3 in a prefix, else the system's.
    eig_pre, eig_pc = _first(prefixes, ["share/pkgconfig/eigen3.pc", "lib/pkgconfig/eigen3.pc"])
    eigen_dirs = _pc_include_dirs(eig_pc) if eig_pc else []
    eigen_dirs = [d for d in eigen_dirs if os.path.exists(os.path.join(d, "Eigen", "Core"))]
    if not eigen_dirs:
        _, p = _first(prefixes, ["include/eigen3/Eigen/Core"])
        if p is not None:
            eigen_dirs = [str(p.parent.parent)]
    if not eigen_dirs:
        for d in ("/usr/include/eigen3", "/usr/local/include/eigen3"):
            if os.path.exists(os.path.join(d, "Eigen", "Core")):
                eigen_dirs = [d]
                break
    if not eigen_dirs:
        missing.append(
            "Eigen headers (Eigen/Core): not in any cmeel.prefix (include/eigen3) nor "
            "/usr/include/eigen3. The pin wheel lists Eigen only as a build extra; install it with "
            "`pip install cmeel-eigen` (or `apt-get install libeigen3-dev`)"
        )
    for d in eigen_dirs:
        add_inc(d)

    # urdfdom_headers (urdf_model/model.h), included by pinocchio/parsers/urdf.hpp
    uh_pre, uh_pc = _first(prefixes, ["lib/pkgconfig/urdfdom_headers.pc", "share/pkgconfig/urdfdom_headers.pc"])
    uh_dirs = _pc_include_dirs(uh_pc) if uh_pc else []
    uh_dirs = [d for d in uh_dirs if os.path.exists(os.path.join(d, "urdf_model", "model.h"))]
    if not uh_dirs:
        _, p = _first(prefixes, ["include/urdfdom_headers/urdf_model/model.h", "include/urdf_model/model.h"])
        if p is not None:
            uh_dirs = [str(p.parent.parent)]
    if not uh_dirs:
        missing.append(
            "urdfdom_headers (urdf_model/model.h, included by pinocchio/parsers/urdf.hpp): not in "
            "any cmeel.prefix. It is a build extra of the pin/cmeel-urdfdom wheels; install it with "
            "`pip install cmeel-urdfdom-headers` (version 3.x, matching "
            "PINOCCHIO_URDFDOM_HEADERS_MAJOR_VERSION of the wheel)"
        )
    for d in uh_dirs:
        add_inc(d)
    ud_pre, ud_pc = _first(prefixes, ["lib/pkgconfig/urdfdom.pc"])
    for d in _pc_include_dirs(ud_pc) if ud_pc else []:
        add_inc(d)

    # boost headers (cmeel-boost); usually the same include dir as pinocchio
    _, bh = _first(prefixes, ["include/boost/version.hpp"])
    if bh is None and not os.path.exists("/usr/include/boost/version.hpp"):
        missing.append("Boost headers (boost/version.hpp) -- `pip install cmeel-boost`")
    elif bh is not None:
        add_inc(bh.parent.parent)

    # compile definitions from the exported CMake targets
    defines: list[str] = []
    define_source = "fallback list in _pinbuild.py (pinocchioTargets.cmake not found/parsed)"
    _, tf = _first(prefixes, ["lib/cmake/pinocchio/pinocchioTargets.cmake"])
    if tf is not None:
        parsed = []
        ok = True
        for t in ("pinocchio_headers", "pinocchio_default", "pinocchio_parsers"):
            got = _cmake_target_defines(tf, t)
            if got is None:
                ok = False
                break
            parsed += got
        if ok and parsed:
            defines = parsed
            define_source = str(tf)
    if not defines:
        defines = list(_FALLBACK_DEFINES)
    seen = set()
    defines = [d for d in defines if not (d in seen or seen.add(d)) and d.split("=")[0] not in _DROPPED_DEFINES]
    if "PINOCCHIO_WITH_URDFDOM" not in defines:
        defines.append("PINOCCHIO_WITH_URDFDOM")
    if not any(d.startswith("PINOCCHIO_URDFDOM_HEADERS_MAJOR_VERSION") for d in defines):
        ver = _parse_pc(uh_pc).get("Version", "") if uh_pc else ""
        parts = (ver.split(".") + ["0", "0", "0"])[:3] if ver else []
        if parts:
            for name, val in zip(("MAJOR", "MINOR", "PATCH"), parts):
                defines.append(f"PINOCCHIO_URDFDOM_HEADERS_{name}_VERSION={val}")

    cxx = os.environ.get("CXX") or shutil.which("g++")
    if not cxx:
        missing.append("a C++ compiler: g++ not found on PATH (apt-get install g++), CXX not set")

    if missing:
        raise PinBuildError(
            "cannot build benchmarks/pin_rnea_bench.cpp; missing:\n  - " + "\n  - ".join(missing)
        )

    try:
        import pinocchio

        pin_version = pinocchio.__version__
    except Exception:
        pin_version = "unknown"

    return {
        "prefixes": [str(p) for p in prefixes],
        "cxx": cxx,
        "include_dirs": include_dirs,
        "lib_dirs": lib_dirs,
        "defines": defines,
        "define_source": define_source,
        "pinocchio_version": pin_version,
    }


def compile_command(info: dict, output: str) -> list[str]:
    cmd = [info["cxx"], "-std=c++17", "-O3", "-DNDEBUG"]
    cmd += ["-D" + d for d in info["defines"]]
    cmd += ["-I" + d for d in info["include_dirs"]]
    cmd += [str(SOURCE), "-o", output]
    cmd += ["-L" + d for d in info["lib_dirs"]]
    cmd += ["-Wl,-rpath," + d for d in info["lib_dirs"]]
    cmd += ["-lpinocchio_parsers", "-lpinocchio_default", "-lurdfdom_model"]
    return cmd


def _compiler_version(cxx: str) -> str:
    try:
        return subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except Exception:
        return cxx


def _env(info: dict) -> dict:
    env = dict(os.environ)
    old = env.get("LD_LIBRARY_PATH", "")
    env["LD_LIBRARY_PATH"] = os.pathsep.join(info["lib_dirs"] + ([old] if old else []))
    return env


def build(rebuild: bool = False, verbose: bool = True) -> tuple[Path, dict]:
    """Compile (once) and return (binary path, info). Raises PinBuildError with the reason."""
    if not SOURCE.exists():
        raise PinBuildError(f"source file {SOURCE} is missing")
    info = detect()
    probe = compile_command(info, "OUT")
    key = hashlib.sha256(
        "\0".join(
            [SOURCE.read_text(), " ".join(probe), _compiler_version(info["cxx"]), info["pinocchio_version"]]
        ).encode()
    ).hexdigest()[:16]
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    gi = BUILD_DIR / ".gitignore"
    if not gi.exists():
        gi.write_text("*\n")
    exe = BUILD_DIR / f"pin_rnea_bench-{key}"
    info["binary"] = str(exe)
    info["compile_command"] = compile_command(info, str(exe))
    with open(BUILD_DIR / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # concurrent callers wait for one build
        if exe.exists() and not rebuild:
            return exe, info
        tmp = exe.with_name(exe.name + f".tmp{os.getpid()}")
        cmd = compile_command(info, str(tmp))
        if verbose:
            print(
                "[_pinbuild] compiling the Pinocchio C++ benchmark (takes a few minutes, cached in "
                f"{BUILD_DIR}):\n  " + shlex.join(cmd),
                file=sys.stderr,
                flush=True,
            )
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or not tmp.exists():
            err = (r.stderr or r.stdout).strip().splitlines()
            errors = [ln for ln in err if "error" in ln.lower()]
            excerpt = "\n".join((errors or err)[:25])
            log = BUILD_DIR / "last_build_error.log"
            log.write_text(shlex.join(cmd) + "\n\n" + r.stdout + r.stderr)
            tmp.unlink(missing_ok=True)
            raise PinBuildError(
                f"compiling {SOURCE.name} failed (exit {r.returncode}). Command:\n  {shlex.join(cmd)}\n"
                f"First errors:\n{excerpt}\n(full log: {log})"
            )
        os.replace(tmp, exe)
        # remove stale binaries from older sources/flags
        for old in BUILD_DIR.glob("pin_rnea_bench-*"):
            if old != exe and ".tmp" not in old.name:
                old.unlink(missing_ok=True)
    return exe, info


class Runner:
    """Callable wrapper around the compiled program."""

    def __init__(self, exe: Path, info: dict):
        self.exe = Path(exe)
        self.info = info
        self.env = _env(info)

    def __call__(self, urdf, floating=False, n=20000, reps=5, algo="rnea", seed=42, timeout=None,
                 mode="hot") -> dict:
        """Time one algorithm. mode "hot": results stay in pinocchio::Data; "store": each
        sample's result is written into a fresh output array, as a batched API must."""
        if algo not in ALGOS:
            raise ValueError(f"algo must be one of {ALGOS}, got {algo!r}")
        if mode not in ("hot", "store"):
            raise ValueError(f"mode must be 'hot' or 'store', got {mode!r}")
        cmd = [str(self.exe), str(urdf), "1" if floating else "0", str(int(n)), str(int(reps)), algo,
               str(int(seed)), mode]
        r = subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=timeout)
        if r.returncode != 0:
            raise PinBuildError(
                f"{shlex.join(cmd)} exited with {r.returncode}: {(r.stderr or r.stdout).strip()}"
            )
        lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
        if not lines:
            raise PinBuildError(f"{shlex.join(cmd)} printed no result line; stdout: {r.stdout!r}")
        return json.loads(lines[-1])

    def eval_rnea(self, urdf, floating, Q, V, A):
        """tau = pinocchio::rnea for each row of (Q, V, A), computed by the C++ program (validation)."""
        import numpy as np

        Q, V, A = (np.atleast_2d(np.asarray(x, dtype=float)) for x in (Q, V, A))
        data = np.hstack([Q, V, A])
        text = "\n".join(" ".join(repr(float(x)) for x in row) for row in data) + "\n"
        cmd = [str(self.exe), str(urdf), "1" if floating else "0", "--eval-rnea"]
        r = subprocess.run(cmd, input=text, capture_output=True, text=True, env=self.env)
        if r.returncode != 0:
            raise PinBuildError(f"{shlex.join(cmd)} exited with {r.returncode}: {r.stderr.strip()}")
        return np.array([[float(x) for x in ln.split()] for ln in r.stdout.strip().splitlines()])


def get_runner(rebuild: bool = False, verbose: bool = True) -> Runner:
    exe, info = build(rebuild=rebuild, verbose=verbose)
    return Runner(exe, info)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rebuild", action="store_true", help="recompile even if a cached binary exists")
    ap.add_argument("--print-flags", action="store_true", help="print the detected flags and exit")
    ap.add_argument("args", nargs="*", help="URDF FLOATING(0|1) N REPS [ALGO]: run one timing")
    a = ap.parse_args(argv)
    try:
        if a.print_flags:
            info = detect()
            print(json.dumps(info, indent=2))
            print(shlex.join(compile_command(info, str(BUILD_DIR / "pin_rnea_bench"))))
            return 0
        run = get_runner(rebuild=a.rebuild)
    except PinBuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print("binary:", run.exe)
    print("compile command:", shlex.join(run.info["compile_command"]))
    if a.args:
        if len(a.args) < 4:
            ap.error("need URDF FLOATING N REPS [ALGO]")
        urdf, fl, n, reps = a.args[:4]
        algo = a.args[4] if len(a.args) > 4 else "rnea"
        print(json.dumps(run(urdf, fl not in ("0", "false", "False"), int(n), int(reps), algo)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
