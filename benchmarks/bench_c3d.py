"""C3D reading: urdf2dyn.biomech.formats.read_c3d (the structural check, ezc3d's parser in
read_c3d's reader process, the plate formulas in NumPy) against ezc3d's own reader with its
force-platform module (``ezc3d.c3d(path, extract_forceplat_data=True)``), on the test files,
best of 5 runs::

    python benchmarks/bench_c3d.py [FILE.c3d ...]

Both compute every plate's force, moment/free moment and centre of pressure at the analog rate
(urdf2dyn with ``rate="analog"``), so the ratio compares the same work; ``markers`` is urdf2dyn
at the marker rate (averaged frames). The second table is the price of running ezc3d in a
process of its own (formats/_c3dread.py: a crash of ezc3d cannot take the caller down):
ezc3d's parse in this process against the same parse through the reader process (warm: the
pickle through the pipe), and the reader's start (once per session: an interpreter and
``import ezc3d``).
"""
import os
import sys
import time
import warnings

import ezc3d

from urdf2dyn import Urdf2dynWarning
from urdf2dyn.biomech.formats import _c3dread, read_c3d

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = [os.path.join(HERE, os.pardir, "tests", "data", "c3d", f)
         for f in ("Qualisys.c3d", "FP_Type1.c3d", "FP_Type3.c3d", "BTS.c3d",
                   "ViconNexus_PiG_Motion3_FF.c3d")]


def best(fn, reps=5):
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out)


def main(files):
    warnings.simplefilter("ignore", Urdf2dynWarning)
    _c3dread._stop()
    _c3dread._READER.clear()
    t0 = time.perf_counter()
    _c3dread.read(files[0])
    start = time.perf_counter() - t0
    print(f"{'file':<30} {'plates':>6} {'analog':>8} {'urdf2dyn ms':>12} {'ezc3d ms':>9} "
          f"{'ratio':>6} {'markers ms':>11}")
    isolation = []
    for path in files:
        rec = read_c3d(path, rate="analog")
        n = len(rec.plates[0].time) if rec.plates else 0
        ours = best(lambda: read_c3d(path, rate="analog"))
        ref = best(lambda: ezc3d.c3d(path, extract_forceplat_data=True))
        slow = best(lambda: read_c3d(path))
        print(f"{os.path.basename(path):<30} {len(rec.plates):>6} {n:>8} {ours * 1e3:>12.2f} "
              f"{ref * 1e3:>9.2f} {ours / ref:>6.2f} {slow * 1e3:>11.2f}")
        isolation.append((path, best(lambda: ezc3d.c3d(path)), best(lambda: _c3dread.read(path))))
    print(f"\nezc3d in its own process (the reader's start: {start * 1e3:.0f} ms, once)")
    print(f"{'file':<30} {'size KB':>8} {'in-process ms':>14} {'reader ms':>10} {'extra ms':>9}")
    for path, inproc, reader in isolation:
        print(f"{os.path.basename(path):<30} {os.path.getsize(path) // 1024:>8} "
              f"{inproc * 1e3:>14.2f} {reader * 1e3:>10.2f} {(reader - inproc) * 1e3:>9.2f}")


if __name__ == "__main__":
    main(sys.argv[1:] or FILES)
