"""Inverse dynamics (RNEA) per sample on MJCF models: urdf2dyn vs MuJoCo's mj_rne vs Pinocchio.

    python benchmarks/bench_mjcf.py [--n 20000] [--reps 5] [--models panda,humanoid,...]

The models are the public ones of tests/data/mjcf (tests/mjcf_oracle.py). For each, in
nanoseconds per sample (best of --reps passes):

* urdf2dyn: ``model.inverse_dynamics(Q, V, A)`` on N samples in one call, one thread;
* mj_rne: a C loop (benchmarks/bench_mjrne.c, compiled against the mujoco wheel's headers
  and libmujoco) doing per sample what mj_rne needs and does: mj_kinematics, mj_comPos,
  mj_comVel, mj_rne(flg_acc=1), on the model MuJoCo compiles from the same file (missing
  meshes dropped: tests/mjcf_oracle.py), saved as .mjb; mj_rne leaves out the armature's
  armature * qacc, which urdf2dyn adds (one multiply-add per coordinate);
* pin C++: ``pinocchio::rnea`` in a C++ loop (benchmarks/pin_rnea_bench.cpp, Pinocchio's MJCF
  reader, its armature applied as urdf2dyn's), where Pinocchio reads the model ("n/a" where it cannot; for
  unitree_go2 it reads go2.xml, which scene.xml includes: it does not follow includes).

"err vs mj" is the largest difference of urdf2dyn's torques from mj_rne's at 20 random
states, relative to each state's largest torque: the same problem is being timed. The
ratios are mj_rne / urdf2dyn and pin C++ / urdf2dyn (higher: urdf2dyn faster). Each library
draws its own random states (same model and N).
"""
import argparse
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests"))

from bench_rnea import best_of, cpu_name, fmt_ns, fmt_ratio, log, rst_table  # noqa: E402


# Pinocchio's MJCF reader does not follow <include>: it times go2.xml, the robot scene.xml
# includes (the scene adds a floor and lights, no body that moves)
PIN_FILE = {"unitree_go2": "menagerie/unitree_go2/go2.xml"}


def mjrne_program(build):
    """Compile bench_mjrne.c against the mujoco wheel (once per run)."""
    import mujoco
    pkg = Path(mujoco.__file__).parent
    lib = next(pkg.glob("libmujoco.so*"), None) or next(pkg.glob("libmujoco*.dylib"), None)
    if lib is None:
        raise RuntimeError(f"no libmujoco in {pkg}")
    exe = Path(build) / "bench_mjrne"
    cc = os.environ.get("CC", sysconfig.get_config_var("CC") or "cc").split()[0]
    cmd = [cc, "-O2", "-std=c11", f"-I{pkg / 'include'}", "-o", str(exe),
           str(HERE / "bench_mjrne.c"), str(lib), f"-Wl,-rpath,{lib.parent}", "-lm"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return exe


def main(argv=None):
    import mjcf_oracle as oracle
    import urdf2dyn

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20000, help="samples per batch (default 20000)")
    ap.add_argument("--reps", type=int, default=5, help="passes; the best is kept (default 5)")
    ap.add_argument("--models", default=",".join(oracle.PUBLIC),
                    help="comma-separated subset of %s" % ",".join(oracle.PUBLIC))
    ap.add_argument("--no-cpp", action="store_true", help="skip the Pinocchio C++ program")
    a = ap.parse_args(argv)
    names = [m for m in a.models.split(",") if m]
    bad = [m for m in names if m not in oracle.PUBLIC]
    if bad or a.n <= 0 or a.reps <= 0:
        ap.error(f"unknown models {bad}" if bad else "--n and --reps must be positive")

    mujoco = oracle.mujoco
    run_pin = None
    if not a.no_cpp:
        try:
            from _pinbuild import get_runner
            run_pin = get_runner()
        except Exception as e:          # the table says n/a, and why, below it
            log(f"pin C++: not available: {e}")
    urdf2dyn.set_num_threads(1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        exe = mjrne_program(tmp)
        for name in names:
            path = oracle.public_path(name)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = urdf2dyn.load(path)
                m = oracle.mujoco_model(path)
            err = max(oracle.compare(model, m, n=20))
            Q, V, A = oracle.random_states(model, a.n, seed=1)
            t_u = best_of(lambda: model.inverse_dynamics(Q, V, A), a.reps) / a.n * 1e9
            mjb = os.path.join(tmp, f"{name}.mjb")
            mujoco.mj_saveModel(m, mjb, None)
            out = subprocess.run([str(exe), mjb, str(a.n), str(a.reps)], check=True,
                                 capture_output=True, text=True).stdout
            t_mj = json.loads(out)["best_ns"]
            t_pin = None
            if run_pin is not None:
                try:
                    pin_path = os.path.join(oracle.MJCF, PIN_FILE.get(name, oracle.PUBLIC[name]))
                    t_pin = run_pin(pin_path, False, a.n, a.reps, algo="rnea")["best_ns"]
                except Exception as e:
                    log(f"{name}: pin C++: {str(e).splitlines()[0][:120]}")
            log(f"{name}: urdf2dyn {t_u:.0f} ns, mj_rne {t_mj:.0f} ns, pin "
                f"{'n/a' if t_pin is None else f'{t_pin:.0f} ns'}")
            rows.append([name, model.nv, f"{err:.0e}", fmt_ns(t_u), fmt_ns(t_mj),
                         fmt_ns(t_pin), fmt_ratio(t_mj / t_u),
                         fmt_ratio(None if t_pin is None else t_pin / t_u)])
    header = ["model", "nv", "err vs mj", "urdf2dyn ns", "mj_rne ns", "pin C++ ns",
              "mj_rne / u2d", "pin / u2d"]
    print(rst_table(header, rows))
    print(f"\n{cpu_name()}; N = {a.n}, best of {a.reps}; urdf2dyn 1 thread; "
          f"mujoco {mujoco.__version__}")


if __name__ == "__main__":
    main()
