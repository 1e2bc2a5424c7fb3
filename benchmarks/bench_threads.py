"""Do two Python threads calling urdf2dyn overlap? (The C core releases the GIL.)

    python benchmarks/bench_threads.py [--n 20000] [--reps 5] [--robot arm7]

For each function it times, with urdf2dyn.set_num_threads(1) (so that the core itself stays on
one thread):

* 1 call:        one call on N samples, on the main thread;
* 2 sequential:  two such calls one after the other;
* 2 concurrent:  two such calls from two Python threads started together.

If the GIL is released inside the calls, "2 concurrent" takes about as long as "1 call" on a
machine with two free cores (overlap ~ 100 %); if it were held, it would take as long as
"2 sequential" (overlap ~ 0 %), like the pure-Python control row.
overlap = (2 sequential - 2 concurrent) / (2 sequential - 1 call).
Times are the best of --reps, in milliseconds; the table is reStructuredText.
"""
import argparse
import os
import sys
import threading

import numpy as np

import urdf2dyn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_rnea import best_of  # noqa: E402


def concurrently(fn):
    barrier = threading.Barrier(2)

    def work():
        barrier.wait()
        fn()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20000, help="samples per call")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--robot", default="arm7", help="a bundled robot (urdf2dyn/data) or a path")
    args = ap.parse_args()
    path = args.robot if os.path.exists(args.robot) else urdf2dyn.data_path(args.robot + ".urdf")
    model = urdf2dyn.load(path)
    rng = np.random.default_rng(0)
    q = rng.uniform(-2, 2, (args.n, model.nq))
    v, a = rng.normal(size=(2, args.n, model.nv))
    calls = {
        "inverse_dynamics": lambda: model.inverse_dynamics(q, v, a),
        "mass_matrix": lambda: model.mass_matrix(q),
        "forward_dynamics": lambda: model.forward_dynamics(q, v, a),
        "forward_kinematics": lambda: model.forward_kinematics(q),
        # control: pure Python holds the GIL, so two threads cannot overlap
        "(control) Python loop": lambda: sum(i * i for i in range(50 * args.n)),
    }
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count()
    urdf2dyn.set_num_threads(1)
    print(f"{model.name}: N = {args.n} samples per call, best of {args.reps}, {cpus} CPUs, "
          "urdf2dyn.set_num_threads(1)\n")
    rows = []
    for name, fn in calls.items():
        try:
            fn()                                              # warm up
        except ValueError as e:                               # e.g. a singular mass matrix
            rows.append((name, "n/a", "n/a", "n/a", str(e)[:40]))
            continue
        one = best_of(fn, args.reps)
        seq = best_of(lambda: (fn(), fn()), args.reps)
        par = best_of(lambda: concurrently(fn), args.reps)
        overlap = (seq - par) / (seq - one) if seq > one else float("nan")
        rows.append((name, f"{1e3 * one:.1f}", f"{1e3 * seq:.1f}", f"{1e3 * par:.1f}",
                     f"{100 * overlap:.0f} %"))
    head = ("function", "1 call (ms)", "2 sequential (ms)", "2 concurrent (ms)", "overlap")
    widths = [max(len(str(r[k])) for r in rows + [head]) for k in range(len(head))]
    rule = "  ".join("=" * w for w in widths)
    print(rule)
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    print(rule)
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    print(rule)
    if cpus < 2:
        print("\n(one CPU: the concurrent calls cannot overlap whatever the GIL does)")


if __name__ == "__main__":
    main()
