"""Per-sample inverse-dynamics (RNEA) time: urdf2dyn batch vs Pinocchio (C++ and a Python loop).

    python benchmarks/bench_rnea.py [--n 20000] [--reps 5] [--robots robot2r,arm7,ur5,talos,romeo]

For each robot it measures, in nanoseconds per sample (best of --reps passes):

* urdf2dyn: ``model.inverse_dynamics(Q, V, A)`` on all N samples in one call, with
  ``urdf2dyn.set_num_threads(1)`` and ``set_num_threads(2)``;
* pin C++: ``pinocchio::rnea`` called in a C++ loop over N samples (benchmarks/pin_rnea_bench.cpp,
  compiled once against the pin wheel by benchmarks/_pinbuild.py);
* pin python loop: ``pinocchio.rnea(model, data, q, v, a)`` called from a Python ``for`` loop.

The ratio column is urdf2dyn (1 thread) / pin C++ (lower is better for urdf2dyn); the speedup
column is pin python loop / urdf2dyn (1 thread). Each library gets N random states drawn in its
own coordinates (pinocchio uses (cos, sin) for continuous joints): same robot and N, not
identical states. Floating-base robots (talos, romeo) get a free-flyer root joint.

The table is printed to stdout as reStructuredText (``--format simple`` or ``grid``), ready to
paste into README.rst; progress and notes go to stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))  # for _pinbuild
# a checkout built in place (setup.py build_ext --inplace) is what the benchmarks measure, not
# an older urdf2dyn installed in the environment, which `python benchmarks/X.py` would import
if any((REPO / "urdf2dyn").glob("_core*")):
    sys.path.insert(0, str(REPO))

ALL_ROBOTS = ["robot2r", "arm7", "ur5", "talos", "romeo"]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# robots
# --------------------------------------------------------------------------------------------


def _erd_dir():
    """example-robot-data's robots/ directory (shipped in the cmeel prefix of the wheel)."""
    try:
        import example_robot_data as erd  # noqa: F401

        d = Path(erd.getModelPath("ur_description/urdf/ur5_robot.urdf")) if hasattr(erd, "getModelPath") else None
        if d is not None and (d / "ur_description").is_dir():
            return d
    except Exception:
        pass
    try:
        from _pinbuild import find_prefixes

        for pre in find_prefixes():
            d = pre / "share" / "example-robot-data" / "robots"
            if d.is_dir():
                return d
    except Exception:
        pass
    return None


# the robots of bench_rnea, bench_dynamics, bench_derivatives and bench_frames
CLASSIC = "robot2r,arm7,ur5,talos,romeo"


def robot_table():
    """name -> (URDF path, floating base) of every benchmark robot found on this machine:
    the bundled ones, and example-robot-data's when installed (pip install '.[bench]')."""
    erd = _erd_dir()
    bundled = REPO / "urdf2dyn" / "data"
    table = {
        "robot2r": (bundled / "robot2r.urdf", False),
        "arm7": (bundled / "arm7.urdf", False),
        "human": (bundled / "humod_subject_a.urdf", False),
    }
    if erd is not None:
        for name, rel, floating in (("ur5", "ur_description/urdf/ur5_robot.urdf", False),
                                    ("panda", "panda_description/urdf/panda.urdf", False),
                                    ("talos", "talos_data/robots/talos_reduced.urdf", True),
                                    ("romeo", "romeo_description/urdf/romeo.urdf", True)):
            if (erd / rel).exists():
                table[name] = (erd / rel, floating)
    return table


def load_models(names):
    """(name, URDF path, floating base, loaded model) of each named robot found here."""
    import urdf2dyn
    table = robot_table()
    for name in names.split(","):
        if name not in table:
            log(f"skip {name}: not found (pip install '.[bench]' brings example-robot-data)")
            continue
        path, floating = table[name]
        yield name, path, floating, urdf2dyn.load(path, floating_base=floating)


# --------------------------------------------------------------------------------------------
# timers
# --------------------------------------------------------------------------------------------


def best_of(fn, reps, clock=time.perf_counter):
    """Shortest of reps calls of fn (after one warm-up call), in seconds of clock (elapsed by
    default; time.process_time for the CPU time a shared machine does not inflate)."""
    fn()
    best = float("inf")
    for _ in range(reps):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best


def u2d_states(model, n, rng):
    Q = rng.uniform(-1.0, 1.0, size=(n, model.nq))
    for j in model.joints:
        if j.type == "floating":
            quat = Q[:, j.q_index + 3 : j.q_index + 7]
            quat /= np.linalg.norm(quat, axis=1, keepdims=True)
    V = rng.uniform(-1.0, 1.0, size=(n, model.nv))
    A = rng.uniform(-1.0, 1.0, size=(n, model.nv))
    return Q, V, A


def time_urdf2dyn(urdf2dyn, path, floating, n, reps, threads_list, rng):
    model = urdf2dyn.load(str(path), floating_base=floating)
    Q, V, A = u2d_states(model, n, rng)
    out = {"nv": model.nv}
    have_threads = hasattr(urdf2dyn, "set_num_threads")
    prev = urdf2dyn.get_num_threads() if hasattr(urdf2dyn, "get_num_threads") else None
    try:
        for k in threads_list:
            if have_threads:
                urdf2dyn.set_num_threads(k)
            elif k != 1:
                out[k] = None  # threading API absent: only the default is measured (as "1")
                continue
            t = best_of(lambda: model.inverse_dynamics(Q, V, A), reps)
            out[k] = t / n * 1e9
    finally:
        if have_threads:
            try:
                urdf2dyn.set_num_threads(None)
            except Exception:
                if prev is not None:
                    urdf2dyn.set_num_threads(prev)
    return out


def pin_model(pin, path, floating):
    if floating:
        return pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
    return pin.buildModelFromUrdf(str(path))


def time_pin_python(pin, path, floating, n, reps, rng):
    model = pin_model(pin, path, floating)
    data = model.createData()
    lo = model.lowerPositionLimit.copy()
    hi = model.upperPositionLimit.copy()
    lo[~(np.abs(lo) < 1e10)] = -1.0  # free-flyer translation limits are +-DBL_MAX
    hi[~(np.abs(hi) < 1e10)] = 1.0
    qs = [np.ascontiguousarray(pin.randomConfiguration(model, lo, hi)) for _ in range(n)]
    vs = list(rng.uniform(-1.0, 1.0, size=(n, model.nv)))
    as_ = list(rng.uniform(-1.0, 1.0, size=(n, model.nv)))
    rnea = pin.rnea

    def loop():
        for q, v, a in zip(qs, vs, as_):
            rnea(model, data, q, v, a)

    return model.nv, best_of(loop, reps) / n * 1e9


# --------------------------------------------------------------------------------------------
# table
# --------------------------------------------------------------------------------------------


def fmt_ns(x):
    if x is None:
        return "n/a"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}"


def fmt_ratio(x):
    if x is None:
        return "n/a"
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def rst_table(header, rows, style="simple"):
    cols = list(zip(header, *rows))
    widths = [max(len(str(c)) for c in col) for col in cols]

    def line(cells, align_right):
        parts = []
        for i, (c, w) in enumerate(zip(cells, widths)):
            c = str(c)
            parts.append(c.rjust(w) if (align_right and i > 0) else c.ljust(w))
        return parts

    if style == "grid":
        sep = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
        hsep = "+" + "+".join("=" * (w + 2) for w in widths) + "+"
        out = [sep, "| " + " | ".join(line(header, False)) + " |", hsep]
        for r in rows:
            out += ["| " + " | ".join(line(r, True)) + " |", sep]
        return "\n".join(out)
    rule = "  ".join("=" * w for w in widths)
    out = [rule, "  ".join(line(header, False)).rstrip(), rule]
    out += ["  ".join(line(r, True)).rstrip() for r in rows]
    out.append(rule)
    return "\n".join(out)


def cpu_name():
    try:
        for ln in open("/proc/cpuinfo"):
            if ln.startswith("model name"):
                return ln.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20000, help="samples per batch (default 20000)")
    ap.add_argument("--reps", type=int, default=5, help="repetitions; the best is kept (default 5)")
    ap.add_argument(
        "--robots",
        default=",".join(ALL_ROBOTS),
        help="comma-separated subset of %s (default: all)" % ",".join(ALL_ROBOTS),
    )
    ap.add_argument("--py-n", type=int, default=None, help="samples for the pin python loop (default: --n)")
    ap.add_argument("--no-cpp", action="store_true", help="skip the Pinocchio C++ program")
    ap.add_argument("--format", choices=["simple", "grid"], default="simple", help="RST table style")
    a = ap.parse_args(argv)
    if a.n <= 0 or a.reps <= 0:
        ap.error("--n and --reps must be positive")
    py_n = a.py_n or a.n
    names = [r.strip() for r in a.robots.split(",") if r.strip()]
    unknown = [r for r in names if r not in ALL_ROBOTS]
    if unknown:
        ap.error(f"unknown robot(s) {unknown}; choose from {ALL_ROBOTS}")

    notes = []
    try:
        import urdf2dyn
    except Exception as e:  # the package is being built by someone else
        urdf2dyn = None
        notes.append(f"urdf2dyn not importable ({type(e).__name__}: {e}): its columns are n/a")
    if urdf2dyn is not None and not hasattr(urdf2dyn, "set_num_threads"):
        notes.append("urdf2dyn.set_num_threads missing: '1 thread' is the default threading, 2 threads n/a")
    try:
        import pinocchio as pin
    except Exception as e:
        pin = None
        notes.append(f"pinocchio not importable ({type(e).__name__}: {e}): pin python loop is n/a")

    runner = None
    if not a.no_cpp:
        try:
            from _pinbuild import PinBuildError, get_runner

            try:
                runner = get_runner()
            except PinBuildError as e:
                notes.append(f"Pinocchio C++ program unavailable: {e}")
        except Exception as e:  # pragma: no cover
            notes.append(f"Pinocchio C++ program unavailable: {type(e).__name__}: {e}")

    robots = robot_table()
    rows = []
    for name in names:
        if name not in robots:
            log(f"[bench_rnea] skipping {name}: example-robot-data robots directory not found")
            continue
        path, floating = robots[name]
        if not Path(path).exists():
            log(f"[bench_rnea] skipping {name}: {path} does not exist")
            continue
        log(f"[bench_rnea] {name} ({path.name}, {'floating' if floating else 'fixed'} base)")
        rng = np.random.default_rng(12345)
        nv = None
        u1 = u2 = cpp = py = None
        if urdf2dyn is not None:
            try:
                r = time_urdf2dyn(urdf2dyn, path, floating, a.n, a.reps, [1, 2], rng)
                nv, u1, u2 = r["nv"], r.get(1), r.get(2)
                log(f"    urdf2dyn 1t {fmt_ns(u1)} ns, 2t {fmt_ns(u2)} ns")
            except Exception as e:
                notes.append(f"{name}: urdf2dyn failed: {type(e).__name__}: {e}")
        if runner is not None:
            try:
                res = runner(path, floating, a.n, a.reps, "rnea")
                cpp = res["best_ns"]
                if nv is None:
                    nv = res["nv"]
                elif res["nv"] != nv:
                    notes.append(f"{name}: nv differs (urdf2dyn {nv}, pinocchio {res['nv']})")
                log(f"    pin C++ {fmt_ns(cpp)} ns")
            except Exception as e:
                notes.append(f"{name}: pin C++ failed: {e}")
        if pin is not None:
            try:
                pnv, py = time_pin_python(pin, path, floating, py_n, a.reps, rng)
                if nv is None:
                    nv = pnv
                log(f"    pin python loop {fmt_ns(py)} ns")
            except Exception as e:
                notes.append(f"{name}: pin python loop failed: {type(e).__name__}: {e}")
        ratio = u1 / cpp if (u1 and cpp) else None
        speed = py / u1 if (u1 and py) else None
        rows.append(
            [
                name,
                str(nv) if nv is not None else "?",
                fmt_ns(u1),
                fmt_ns(u2),
                fmt_ns(cpp),
                fmt_ns(py),
                fmt_ratio(ratio),
                fmt_ratio(speed),
            ]
        )

    header = [
        "robot",
        "nv",
        "urdf2dyn 1 thread [ns]",
        "urdf2dyn 2 threads [ns]",
        "pin C++ [ns]",
        "pin python loop [ns]",
        "ratio u2d(1t)/pin C++",
        "speedup vs python loop",
    ]
    pin_ver = getattr(pin, "__version__", "n/a") if pin is not None else "n/a"
    u2d_ver = getattr(urdf2dyn, "__version__", "?") if urdf2dyn is not None else "n/a"
    print(
        f"RNEA time per sample, best of {a.reps}; N = {a.n} samples per urdf2dyn batch and per "
        f"C++ loop, {py_n} for the Python loop. urdf2dyn {u2d_ver}, Pinocchio {pin_ver}; "
        f"{cpu_name()}, {os.cpu_count()} CPUs; Python {platform.python_version()}. "
        "Speedup = pin python loop / urdf2dyn 1 thread."
    )
    print()
    if rows:
        print(rst_table(header, rows, a.format))
    else:
        print("(no robot could be benchmarked)")
    for n_ in notes:
        log("note: " + n_)
    return 0


if __name__ == "__main__":
    sys.exit(main())
