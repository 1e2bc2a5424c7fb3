"""What NumPy's habits cost per call: the batch layer of Model (broadcasting, leading axes,
out=) against the bare core call it wraps, on one sample and on N samples.

    python benchmarks/bench_overhead.py [--robot arm7] [--n 1000] [--reps 100]

Rows, each timed in the same run (best of --reps, microseconds per call):

* core: ``model._c.compute(...)`` on float64 (N, nq) arrays, no Python layer: what
  ``inverse_dynamics`` cost before the batch layer (it added only a ``f_ext is None`` test);
* same shapes: ``model.inverse_dynamics(q, v, a)`` with q, v, a of one shape (the common call;
  it takes a short path to the core);
* broadcast: ``model.inverse_dynamics(q, v[0], 0.0)``, one v and a scalar a across the batch;
* leading axes: q, v, a of shape (10, N/10, nq);
* out=: ``inverse_dynamics(q, v, a, out=tau)`` into a preallocated array.

The ratio column is the row over core (1.00 = no overhead). Threads are set to 1 so that the
core's time is steady; the table is reStructuredText on stdout.
"""
from __future__ import annotations

import argparse
import timeit

import numpy as np

import urdf2dyn
from urdf2dyn import _core


def best(fn, reps):
    # many short repeats: on a shared machine the best of them is the one not preempted
    number = 1
    while timeit.timeit(fn, number=number) < 0.002:     # calls per repeat: about 2 ms
        number *= 2
    return min(timeit.repeat(fn, number=number, repeat=reps)) / number * 1e6


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--robot", default="arm7", help="a bundled URDF (default arm7)")
    ap.add_argument("--n", type=int, default=1000, help="samples of the batch rows")
    ap.add_argument("--reps", type=int, default=100)
    args = ap.parse_args(argv)
    model = urdf2dyn.load(urdf2dyn.data_path(f"{args.robot}.urdf"))
    urdf2dyn.set_num_threads(1)
    rng = np.random.default_rng(0)
    rows = []
    for n in (1, args.n):
        q = model.random_configuration(n, seed=1)
        v, a = rng.normal(size=(2, n, model.nv))
        if n == 1:
            q, v, a = q[0], v[0], a[0]
        tau = np.empty(q.shape[:-1] + (model.nv,))
        core = best(lambda: model._c.compute(_core.RNEA, (q, v, a), None, None, 1, -1, None,
                                             0.0), args.reps)
        cases = [("core", core),
                 ("same shapes", best(lambda: model.inverse_dynamics(q, v, a), args.reps)),
                 ("broadcast", best(lambda: model.inverse_dynamics(q, v[..., 0, :] if n > 1
                                                                   else v, 0.0), args.reps))]
        if n > 1 and n % 10 == 0:
            q3, v3, a3 = (x.reshape(10, n // 10, -1) for x in (q, v, a))
            cases.append(("leading axes", best(lambda: model.inverse_dynamics(q3, v3, a3),
                                               args.reps)))
        cases.append(("out=", best(lambda: model.inverse_dynamics(q, v, a, out=tau),
                                   args.reps)))
        rows += [(n, name, t, t / core) for name, t in cases]
    print(f"inverse_dynamics on {args.robot} (nv = {model.nv}), 1 thread, "
          f"best of {args.reps}\n")
    print("=====  ============  ===========  =====")
    print("N      call          us per call  ratio")
    print("=====  ============  ===========  =====")
    for n, name, t, r in rows:
        print(f"{n:<5}  {name:<12}  {t:11.2f}  {r:5.2f}")
    print("=====  ============  ===========  =====")


if __name__ == "__main__":
    main()
