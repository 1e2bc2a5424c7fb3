"""A 10-minute, 100 Hz running trial of the 36-DoF human (60 000 samples, with ground reactions):
from files to joint torques and root residuals, stage by stage.

    python benchmarks/bench_humod.py [--minutes 10] [--rate 100] [--reps 5] [--threads 1,2]

The trial is the bundled synthetic run (urdf2dyn/data/running_a_3ms*.csv, HuMoD subject A at
3.0 m/s, periodic) repeated to the requested length and resampled to --rate Hz (every second
sample of the 200 Hz stride), written to a temporary directory as

* ``motion.csv`` (time + 36 coordinates) and ``grf.csv`` (time + force, CoP and free moment per
  foot, NaN CoP in flight): the files ``urdf2dyn torques MOTION --grf GRF`` reads;
* ``trial.mat``: the same in HuMoD's .mat layout (motion, and forces at twice the rate), read with
  SciPy.

For each it measures (best of --reps, in-process, imports done) reading the files, estimating
velocities and accelerations (second-order finite differences, as ``urdf2dyn torques`` does by
default; and with ``--filter 12``: zero-lag Butterworth + finite differences), turning the ground
reactions into wrenches, inverse dynamics, the root residuals, and the total; then it times the
command line end to end (a new Python process: interpreter start-up and imports included).
The table is printed as reStructuredText, ready for README.rst; notes go to stderr.
"""
import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
try:
    import urdf2dyn  # the installed package
except ImportError:     # a source tree built in place
    sys.path.insert(0, str(REPO))
    import urdf2dyn
from urdf2dyn.biomech import grf as G  # noqa: E402
from urdf2dyn.biomech import formats, processing, trajectory  # noqa: E402
from urdf2dyn.biomech.human import humod_subject  # noqa: E402
from urdf2dyn.biomech.processing import estimate_derivatives as derivatives  # noqa: E402


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def make_trial(minutes, rate, outdir):
    """Write motion.csv, grf.csv and trial.mat of a long trial; return (n, paths)."""
    demo = formats.read_csv(urdf2dyn.data_path("running_a_3ms.csv"))
    reac = G.read_grf(urdf2dyn.data_path("running_a_3ms_grf.csv"))
    src_rate = round(1.0 / (demo.time[1] - demo.time[0]))
    period = 136                         # samples per stride in the 200 Hz demo (0.68 s)
    step = src_rate / rate
    if abs(step - round(step)) > 1e-9 or period % round(step):
        raise SystemExit(f"--rate must divide {src_rate} Hz into whole steps of the stride")
    step = int(round(step))
    n = int(round(minutes * 60 * rate))
    idx = (step * np.arange(n)) % period
    t = np.arange(n) / rate
    motion = trajectory.Trajectory(t, demo.q[idx], demo.names)
    forces = trajectory.Trajectory(t, np.zeros((n, 0)), [],
                           grf={k: x[idx] for k, x in reac.grf.items()},
                           cop={k: x[idx] for k, x in reac.cop.items()},
                           moment={k: x[idx] for k, x in reac.moment.items()})
    paths = {"motion": outdir / "motion.csv", "grf": outdir / "grf.csv", "mat": outdir / "trial.mat"}
    formats.write_csv(paths["motion"], motion)
    formats.write_csv(paths["grf"], forces)
    both = trajectory.Trajectory(t, motion.q, motion.names, grf=forces.grf,
                         cop={k: np.nan_to_num(x) for k, x in forces.cop.items()})
    both.meta["frame_rate"] = rate
    formats.write_humod(paths["mat"], both)
    return n, paths


def best(fn, reps):
    times, out = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def pipeline(model, paths, fmt, filt):
    """Stage functions of one run (each returns what the next needs)."""
    state = {}

    def read():
        if fmt == "csv":
            state["traj"] = formats.read_csv(paths["motion"])
            state["reac"] = G.read_grf(paths["grf"])
        else:
            state["traj"] = formats.read_humod(paths["mat"])
            state["reac"] = state["traj"]
        state["t"], state["q"], _, _ = state["traj"].for_model(model)

    def deriv():
        t, q = state["t"], state["q"]
        if filt:
            qf, v, a = processing.estimate_derivatives(t, q, method="gradient", cutoff_hz=filt,
                                               model=model, return_positions=True)
            state["qd"] = (qf, v, a)
        else:
            v, a = derivatives(t, q, model=model)
            state["qd"] = (q, v, a)

    def loads():
        state["f_ext"] = G.external_loads(state["reac"], model, time=state["t"])
        if filt:
            state["f_ext"] = {k: processing.lowpass(state["t"], w, filt) for k, w in state["f_ext"].items()}

    def dynamics():
        q, v, a = state["qd"]
        state["tau"] = model.inverse_dynamics(q, v, a, f_ext=state["f_ext"])

    def residuals():
        state["res"] = G.root_residuals(model, state["qd"][0], state["tau"])

    return [("read files", read), ("derivatives", deriv), ("ground reactions", loads),
            ("inverse dynamics", dynamics), ("root residuals", residuals)], state


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=100.0)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--no-cli", action="store_true", help="skip the end-to-end command timing")
    args = ap.parse_args(argv)
    model = humod_subject("A")
    threads = [int(x) for x in args.threads.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        n, paths = make_trial(args.minutes, args.rate, tmp)
        sizes = {k: os.path.getsize(p) / 1e6 for k, p in paths.items()}
        log(f"trial: {n} samples ({args.minutes:g} min at {args.rate:g} Hz); files: motion.csv "
            f"{sizes['motion']:.1f} MB, grf.csv {sizes['grf']:.1f} MB, trial.mat "
            f"{sizes['mat']:.1f} MB")
        for fmt, filt in (("csv", None), ("csv", 12.0), ("mat", None)):
            for nt in threads:
                urdf2dyn.set_num_threads(nt)
                stages, state = pipeline(model, paths, fmt, filt)
                for _, fn in stages:          # warm up (imports, caches)
                    fn()
                times = {}
                for name, fn in stages:
                    times[name], _ = best(fn, args.reps)
                total, _ = best(lambda: [fn() for _, fn in stages], args.reps)
                label = {"csv": "CSV motion + CSV ground reactions",
                         "mat": "HuMoD .mat (motion + forces)"}[fmt]
                if filt:
                    label += f", --filter {filt:g}"
                rows.append((label, nt, times, total))
                res = state["res"].summary()
                log(f"{label}, {nt} thread(s): total {total * 1e3:.0f} ms; residual force RMS "
                    f"{res['force_rms']:.2f} N, moment RMS {res['moment_rms']:.2f} N·m")
        cli = None
        if not args.no_cli:
            urdf2dyn.set_num_threads(max(threads))
            cmd = [sys.executable, "-m", "urdf2dyn", "torques", urdf2dyn.data_path(
                "humod_subject_a.urdf"), str(paths["motion"]), "--grf", str(paths["grf"]),
                "-o", str(tmp / "tau.csv")]
            walls = []
            for _ in range(max(1, min(args.reps, 3))):
                t0 = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True, text=True)
                walls.append(time.perf_counter() - t0)
            cli = min(walls)
            cmd0 = [sys.executable, "-c", "import urdf2dyn, urdf2dyn.cli, pandas"]
            t0 = time.perf_counter()
            subprocess.run(cmd0, check=True)
            startup = time.perf_counter() - t0
            log(f"command line, end to end (incl. writing the 60k x 37 torques CSV): "
                f"{cli:.2f} s; of which interpreter start-up + imports ~{startup:.2f} s")

    names = ["read files", "derivatives", "ground reactions", "inverse dynamics",
             "root residuals"]
    head = ["input", "threads"] + names + ["total"]
    table = [[lab, str(nt)] + [f"{times[k] * 1e3:.0f} ms" for k in names] + [f"{tot * 1e3:.0f} ms"]
             for lab, nt, times, tot in rows]
    widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(head)]
    sep = "  ".join("=" * w for w in widths)
    print(f"{n} samples ({args.minutes:g} min at {args.rate:g} Hz), HuMoD subject A "
          f"(36 DoF), {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}, NumPy {np.__version__}")
    print()
    print(sep)
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    print(sep)
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    print(sep)
    if cli is not None:
        print()
        print(f"``urdf2dyn torques`` on the CSV files, end to end in a new process (start-up, "
              f"imports and writing the torques included): {cli:.2f} s")


if __name__ == "__main__":
    main()
