"""What one lane group of a batched algorithm executes, by kind of instruction, and what that
allows of the core's FMA peak.

    python benchmarks/instruction_mix.py [--robot human] [--algo rnea] [--path avx2]

benchmarks/bench_deriv_c.c is built as its header says and again with -ffp-contract=fast (the
compiler fuses multiplies and adds), run on the chosen SIMD path under valgrind's callgrind
(which runs AVX2 and the scalar path, not AVX-512), and the instructions of one group of lanes
are isolated as ((N 72, 3 calls) - (N 72, 1 call)) - ((N 8, 3 calls) - (N 8, 1 call)), divided
by 2 calls x 16 groups: set-up, input generation and per-call costs cancel. Kinds from the
disassembly: vector arithmetic (each a flop per lane), fused multiply-adds (two), vector moves
(loads, stores, broadcasts), shuffles and conversions, masks and logic, and the scalar and
integer rest (tree loops, indices, calls, branches).

Two bounds follow from the counts, for a core whose FMA peak is F vector FP instructions per
cycle (two on Intel's AVX-512 cores and on any AVX2 core with two FMA units):
  ceiling    flops / (2 x FP instructions): the % of the FMA peak reached with the FP ports
             busy every cycle and nothing else in the way (50 % exactly without FMAs);
  IPC @ 50%  instructions per group / (flops per sample / F), F = 2: the instructions per
             cycle the whole stream needs to reach half the peak (the same for 4 lanes or 8,
             as the same source runs one group either way).
"IPC here" is the measured rate on this machine: the group's instructions over its cycles,
from the path's time per sample (best of 20, one thread) and the clock that bench_peak's
AVX2 FMA rate implies (16 flops a cycle on a core with two 256-bit FMA units). Needs gcc,
valgrind, objdump and libmxml-dev.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from bench_rnea import robot_table, rst_table  # noqa: E402
from bench_simd import peak_gflops  # noqa: E402
from count_flops import build_with_core, disassembly, executed_per_address  # noqa: E402

MASK = {"rnea_deriv": 1, "aba_deriv": 2, "aba": 4, "rnea": 8, "crba": 16}
LANES = {"avx2": 4, "scalar": 1}
KINDS = ("arith", "fma", "vmove", "shuffle", "logic", "scalar")
BUILDS = {"as shipped": "-ffp-contract=off", "contraction": "-ffp-contract=fast"}


def build(tmp: Path, contract: str) -> Path:
    return build_with_core(tmp / f"bench_deriv_c{contract}", "bench_deriv_c.c", ["-O3", contract])


def kinds(exe: Path) -> dict[int, str]:
    """Address -> kind of each instruction in the executable."""
    return {a: kind(op, operands) for a, op, operands in disassembly(exe)}


def kind(mnemonic: str, operands: str) -> str:
    vector = "mm" in operands
    if re.match(r"vf(n?)m(add|sub)", mnemonic):
        return "fma"
    if re.match(r"v?(add|sub|mul|div|sqrt)[sp]d$", mnemonic):
        return "arith"
    if not vector:
        return "scalar"
    if re.match(r"v?(mov|broadcast|insert|extract|vbroadcast|vinsert|vextract)", mnemonic):
        return "vmove"
    if re.match(r"v?p?(perm|shuf|unpck|sll|srl|sra|cvt|alignr)", mnemonic):
        return "shuffle"
    return "logic"


def group_mix(exe: Path, table: dict[int, str], args: list[str], path: str) -> Counter:
    env = dict(os.environ, URDF2DYN_SIMD=path)
    runs = {}
    with tempfile.TemporaryDirectory() as t:
        for n in (8, 72):
            for calls in (1, 3):
                runs[n, calls] = executed_per_address(
                    exe, [args[0], str(n), args[1], args[2], str(calls)], Path(t), env)
    mix = Counter()
    for key, sign in (((72, 3), 1), ((72, 1), -1), ((8, 3), -1), ((8, 1), 1)):
        for a, count in runs[key].items():
            mix[table.get(a, "scalar")] += sign * count
    return Counter({k: v / (2 * 16) for k, v in mix.items()})


def ns_per_sample(exe: Path, args: list[str], path: str) -> float:
    env = dict(os.environ, URDF2DYN_SIMD=path)
    out = subprocess.run([str(exe), args[0], "2000", args[1], args[2], "20"], check=True,
                         capture_output=True, text=True, env=env).stdout
    return float(re.search(r"(\d+) ns per sample", out).group(1))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--robot", default="human")
    ap.add_argument("--algo", default="rnea", choices=sorted(MASK))
    ap.add_argument("--path", default="avx2", choices=sorted(LANES))
    args = ap.parse_args(argv)
    urdf, floating = robot_table()[args.robot]
    bench_args = [str(urdf), str(MASK[args.algo]), str(int(floating))]
    ghz = peak_gflops()["avx2_fma"] / 16
    rows = []
    with tempfile.TemporaryDirectory() as t:
        for name, flag in BUILDS.items():
            exe = build(Path(t), flag)
            mix = group_mix(exe, kinds(exe), bench_args, args.path)
            total = sum(mix.values())
            fp = mix["arith"] + mix["fma"]
            flops = mix["arith"] + 2 * mix["fma"]           # per sample: one lane's share
            cycles = ns_per_sample(exe, bench_args, args.path) * LANES[args.path] * ghz
            rows.append([name, f"{total:.0f}", *(f"{mix[k]:.0f}" for k in KINDS),
                         f"{flops:.0f}", f"{100 * flops / (2 * fp):.1f}",
                         f"{total / (flops / 2):.2f}", f"{total / cycles:.2f}"])
    print(f"{args.robot} {args.algo}, {args.path} path, instructions per group of "
          f"{LANES[args.path]} samples (clock {ghz:.2f} GHz from bench_peak)")
    print(rst_table(["build", "instr", *KINDS, "flops", "ceiling %", "IPC @ 50%", "IPC here"],
                    rows))


if __name__ == "__main__":
    main()
