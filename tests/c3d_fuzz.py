"""Mutation fuzz of the C3D reader: read_c3d (its pre-check, then ezc3d in its reader
process) on C3D files with their header, parameter section and data section mutated.

This process is the caller: read_c3d is called here, and ezc3d runs in the reader process that
read_c3d keeps (urdf2dyn/biomech/formats/_c3dread.py), so a mutant that crashes ezc3d crashes
that process only. Each mutant ends in one of:

* ``read``: read_c3d returned;
* ``refused``: it raised MotionError or ValueError naming the file (a clean refusal);
* ``contained``: ezc3d crashed in the reader process and read_c3d refused the file naming the
  signal (the caller lives on; the mutants are saved under --out/contained);
* ``traceback``: any other exception, or a message not naming the file (a finding);
* ``runaway``: past the time limit, or past the memory cap (MemoryError here, or bad_alloc in
  the reader, which inherits the cap) (a finding).

A crash of the caller ends the run: the summary line is then never printed.

The mutations know the C3D layout (the C3D User Guide, Motion Lab Systems): besides random
bytes, they change one field of a parameter record (its group id, negated as in a group record
or pointing to an undefined group; its type; its dimensions; its offset; its first values),
header words (counts, frames, blocks, scale), data values (NaN, infinities, extremes) and the
file's length. Deterministic for a given seed.

    python tests/c3d_fuzz.py --mutants 20000 [--seed 0] [--out DIR] [--no-check] [FILE.c3d ...]

(default files: every C3D file under tests/data). The test suite runs a small slice
(tests/biomech/test_c3d_fuzz.py).
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import os
import random
import resource
import signal
import struct
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # forked children: one thread each

HERE = os.path.dirname(os.path.abspath(__file__))
BLOCK = 512
OUTCOMES = ("read", "refused", "contained", "traceback", "runaway")
_INT16 = (0, 1, -1, 2, 255, 256, 32767, -32768, 0x7F00, 511, 512, 4096, 65535 - 65536)
_FLOATS = (0.0, -0.0, 1.0, -1.0, float("nan"), float("inf"), -float("inf"), 1e30, -1e30,
           1e-40, 65535.0, 2.0**31)


def default_files():
    return sorted(glob.glob(os.path.join(HERE, "data", "**", "*.c3d"), recursive=True))


class Layout:
    """Where the fields of one C3D file are (only what the mutations need)."""

    def __init__(self, data: bytes):
        self.size = len(data)
        self.pstart = (data[0] - 1) * BLOCK if data[0] >= 2 else BLOCK
        nblocks = data[self.pstart + 2] if self.pstart + 3 < len(data) else 1
        self.little = data[self.pstart + 3] != 86 if self.pstart + 3 < len(data) else True
        self.pend = min(len(data), self.pstart + max(1, nblocks) * BLOCK)
        e = "<" if self.little else ">"
        self.e = e
        words = struct.unpack(e + "256h", data[:BLOCK])
        self.dstart = max(self.pend, (words[8] - 1) * BLOCK)
        self.records = []            # (pos, name_len_pos, gid_pos, offset_pos, type_pos, ...)
        pos = self.pstart + 4
        while pos + 2 <= self.pend:
            nlen, gid = struct.unpack("bb", data[pos:pos + 2])
            if nlen == 0:
                break
            q = pos + 2 + abs(nlen)
            if q + 2 > self.pend:
                break
            (offset,) = struct.unpack(e + "h", data[q:q + 2])
            rec = {"pos": pos, "gid": pos + 1, "offset": q, "group": gid < 0}
            if gid > 0 and q + 4 <= self.pend:
                ptype, ndim = struct.unpack("bb", data[q + 2:q + 4])
                rec.update(type=q + 2, ndim=q + 3, dims=list(range(q + 4, q + 4 + max(0, ndim))),
                           values=q + 4 + max(0, ndim), width=abs(ptype) or 1)
            self.records.append(rec)
            if offset <= 0:
                break
            pos = q + offset


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four mutations of a C3D file's bytes."""
    out = bytearray(data)
    lay = Layout(data)
    e = lay.e
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        kind = rng.random()
        params = [r for r in lay.records if "type" in r]
        if kind < 0.40 and params:                   # a field of a parameter record
            r = rng.choice(params)
            field = rng.choice(("gid", "gid", "type", "ndim", "dims", "offset", "values",
                                "values", "nlen"))
            if field == "gid":
                g = out[r["gid"]] if out[r["gid"]] < 128 else out[r["gid"]] - 256
                out[r["gid"]] = rng.choice((-g, rng.randint(1, 127), -rng.randint(1, 127))) & 0xFF
            elif field == "type":
                out[r["type"]] = rng.choice((-1, 1, 2, 4, 0, 3, 8, -4, rng.randint(-128, 127))) & 0xFF
            elif field == "ndim":
                out[r["ndim"]] = rng.choice((0, 1, 2, 3, 7, 8, 255, rng.randint(0, 255)))
            elif field == "dims" and r["dims"]:
                out[rng.choice(r["dims"])] = rng.choice((0, 1, 2, 255, rng.randint(0, 255)))
            elif field == "offset":
                struct.pack_into(e + "h", out, r["offset"], rng.choice(_INT16 + (rng.randint(-300, 300),)))
            elif field == "nlen":
                out[r["pos"]] = rng.choice((0, 1, 127, 128, 255, rng.randint(0, 255)))
            elif r["values"] + 4 <= len(out):
                at = r["values"] + r["width"] * rng.randint(0, 3)
                if at + 4 > len(out):
                    continue
                if r["width"] == 4:
                    struct.pack_into(e + "f", out, at, rng.choice(_FLOATS))
                elif r["width"] == 2:
                    struct.pack_into(e + "h", out, at, rng.choice(_INT16))
                else:
                    out[at] = rng.randint(0, 255)
        elif kind < 0.50 and lay.records:            # a group record
            r = rng.choice(lay.records)
            out[r["gid"]] = rng.randint(0, 255)
        elif kind < 0.62:                            # any byte of the parameter section
            at = rng.randrange(lay.pstart, max(lay.pstart + 1, lay.pend))
            if at < len(out):
                out[at] = rng.choice((0, 1, 0x7F, 0x80, 0xFF, rng.randint(0, 255)))
        elif kind < 0.72:                            # a header word
            w = rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, rng.randint(0, 255)))
            if w in (6, 10):      # the scale, the frame rate (floats over two words)
                struct.pack_into(e + "f", out, 2 * w, rng.choice(_FLOATS))
            else:
                struct.pack_into(e + "h", out, 2 * w, rng.choice(_INT16))
        elif kind < 0.88 and lay.dstart < len(out) - 4:   # the data section
            at = rng.randrange(lay.dstart, len(out) - 4)
            at -= (at - lay.dstart) % 2
            choice = rng.random()
            if choice < 0.4:
                struct.pack_into(e + "f", out, at - (at - lay.dstart) % 4, rng.choice(_FLOATS))
            elif choice < 0.7:
                struct.pack_into(e + "h", out, at, rng.choice(_INT16))
            else:
                out[at] = rng.randint(0, 255)
        else:                                        # the file's length
            cut = rng.choice((rng.randrange(0, len(out) + 1), lay.pend, lay.dstart,
                              len(out) - rng.randint(1, 2048)))
            del out[max(0, cut):]
            if len(out) < 2 * BLOCK:
                break
            lay = Layout(bytes(out))
    return bytes(out)


class _Runaway(BaseException):
    pass


def _alarm(signum, frame):
    raise _Runaway


def run_one(data: bytes, workdir: str, timeout: int = 20):
    """(outcome, detail) of read_c3d on these bytes, called here: this process is the caller
    that a crash must not take down (ezc3d runs in read_c3d's reader process)."""
    import warnings
    from urdf2dyn.biomech.formats.c3d import read_c3d
    from urdf2dyn.biomech.trajectory import MotionError
    path = os.path.join(workdir, "mutant.c3d")
    with open(path, "wb") as f:
        f.write(data)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        with warnings.catch_warnings():
            # mutated bytes: any warning (ours, NumPy's on garbage numbers) is expected and
            # not the subject; only a crash, a hang or an unnamed refusal is
            warnings.simplefilter("ignore")
            read_c3d(path)
        return "read", ""
    except (MotionError, ValueError) as e:
        if "mutant.c3d" not in str(e):
            return "traceback", f"message without the file's name: {e}"
        if "ezc3d crashed" in str(e):
            return "contained", str(e)
        return "refused", ""
    except MemoryError:
        return "runaway", "MemoryError"
    except _Runaway:
        return "runaway", f"over {timeout} s"
    except Exception:
        return "traceback", traceback.format_exc()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def fuzz(files, mutants, seed=0, out=None, log=None, timeout=20, memory=6 << 30):
    """Mutate the files round-robin; returns {outcome: count} and [(file, outcome, detail,
    mutant path or None)] of the findings."""
    limit = resource.getrlimit(resource.RLIMIT_AS)
    try:       # a memory runaway ends in MemoryError here and bad_alloc in the reader
        resource.setrlimit(resource.RLIMIT_AS, (memory, limit[1]))
    except (ValueError, OSError):
        pass
    try:
        return _fuzz(files, mutants, seed, out, log, timeout)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limit)


def _fuzz(files, mutants, seed, out, log, timeout):
    rng = random.Random(seed)
    sources = [(f, Path(f).read_bytes()) for f in files]
    counts = dict.fromkeys(OUTCOMES, 0)
    findings, contained = [], []
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as wd:
        for k in range(mutants):
            name, data = sources[k % len(sources)]
            mutant = mutate(data, rng)
            outcome, detail = run_one(mutant, wd, timeout)
            if outcome == "contained":
                contained.append(mutant)
            counts[outcome] += 1
            if outcome in ("traceback", "runaway"):
                saved = None
                if out:
                    os.makedirs(out, exist_ok=True)
                    saved = os.path.join(out, hashlib.sha1(mutant).hexdigest()[:16] + ".c3d")
                    with open(saved, "wb") as f:
                        f.write(mutant)
                findings.append((name, outcome, detail.strip().splitlines()[-1:] or [""], saved))
                if log:
                    log(f"{k}: {os.path.basename(name)}: {outcome}: {detail.strip()[-300:]} "
                        f"{saved or ''}")
    if out and contained:        # the mutants that crashed ezc3d (in its own process)
        os.makedirs(os.path.join(out, "contained"), exist_ok=True)
        for m in contained:
            with open(os.path.join(out, "contained", hashlib.sha1(m).hexdigest()[:16] + ".c3d"),
                      "wb") as f:
                f.write(m)
    return counts, findings


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="C3D files to mutate (default: tests/data's)")
    ap.add_argument("--mutants", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="folder to save the findings' mutants in")
    ap.add_argument("--timeout", type=int, default=20, help="seconds per mutant")
    ap.add_argument("--no-check", action="store_true",
                    help="switch the structural pre-check off: every mutant reaches ezc3d, and "
                         "its crashes are contained by the reader process alone")
    args = ap.parse_args(argv)
    if args.no_check:
        from urdf2dyn.biomech.formats import c3d
        c3d.check_c3d = lambda path, **_: None
    files = args.files or default_files()
    start = time.perf_counter()
    counts, findings = fuzz(files, args.mutants, args.seed, args.out,
                            log=lambda s: print(s, flush=True), timeout=args.timeout)
    took = time.perf_counter() - start
    print(f"{args.mutants} mutants of {len(files)} files (seed {args.seed}) in {took:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
