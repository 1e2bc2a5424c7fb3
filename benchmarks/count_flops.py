"""Floating-point operations per sample of urdf2dyn's algorithms, counted from our code.

    python benchmarks/count_flops.py [--robots ur5,panda,talos,romeo,human] [--json FILE]

benchmarks/flop_driver.c is built against csrc/ as plain scalar code (-O1 -fno-tree-vectorize,
no FMA: each + - * / sqrt is one instruction) and run under valgrind's callgrind with
per-instruction counts for N = 200 and N = 0 samples; the executed arithmetic instructions of
the core (addsd subsd mulsd divsd sqrtsd, and their packed forms as 2) are summed with the
disassembly, and the difference divided by 200 is the count per sample. Sign flips (xorpd),
moves and comparisons are not counted. Needs gcc, valgrind, objdump and libmxml-dev.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

FLOPS = {"addsd": 1, "subsd": 1, "mulsd": 1, "divsd": 1, "sqrtsd": 1,
         "addpd": 2, "subpd": 2, "mulpd": 2, "divpd": 2, "sqrtpd": 2}
ALGOS = ("rnea", "crba", "aba")
N = 200


def build_with_core(exe: Path, program: str, flags: list[str]) -> Path:
    """benchmarks/<program> linked with every source of the core, built with flags."""
    sources = sorted(str(p) for p in (REPO / "csrc").glob("*/u2d_*.c"))
    subprocess.run(["gcc", "-std=c11", *flags, "-fno-math-errno", "-g", f"-I{REPO / 'csrc'}",
                    "-o", str(exe), str(HERE / program), *sources, "-lmxml", "-lm",
                    "-pthread"], check=True)
    return exe


def build(tmp: Path) -> Path:
    return build_with_core(tmp / "flop_driver", "flop_driver.c",
                           ["-O1", "-fno-tree-vectorize", "-ffp-contract=off"])


def disassembly(exe: Path):
    """(address, mnemonic, operands) of every instruction in the executable (objdump)."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(exe)], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m:
            yield int(m.group(1), 16), m.group(2), m.group(3)


def flop_table(exe: Path) -> dict[int, int]:
    """Address -> flops of each arithmetic instruction in the executable."""
    return {a: FLOPS[op.removeprefix("v")] for a, op, _ in disassembly(exe)
            if op.removeprefix("v") in FLOPS}


def executed_per_address(exe: Path, args: list[str], tmp: Path, env=None) -> dict[int, int]:
    """Address -> times executed, of every instruction of exe itself that it runs (valgrind's
    callgrind). Callgrind gives each shared object's addresses as offsets into it, which
    overlap exe's own: lines under another object (`ob=`) are left out."""
    out = tmp / "cg.out"
    subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--dump-line=no",
                    "--compress-pos=no", "--compress-strings=no",
                    f"--callgrind-out-file={out}", str(exe), *args],
                   check=True, capture_output=True, env=env)
    return per_address(out.read_text(), exe)


def per_address(callgrind_out: str, exe: Path) -> dict[int, int]:
    """Address -> times executed, from a callgrind file written with --dump-instr=yes
    --compress-pos=no --compress-strings=no, for exe's own instructions alone."""
    counts, skip_next, ours = {}, False, False
    for line in callgrind_out.splitlines():
        if line.startswith("ob="):
            ours = line[3:] == str(exe)
            continue
        if line.startswith("calls="):
            skip_next = True                # the next line is a call's inclusive cost
            continue
        m = re.match(r"(0x[0-9a-f]+) (\d+)$", line)
        if m:
            if ours and not skip_next:
                a = int(m.group(1), 16)
                counts[a] = counts.get(a, 0) + int(m.group(2))
            skip_next = False
    return counts


def executed_flops(exe: Path, args: list[str], table: dict[int, int], tmp: Path) -> int:
    counts = executed_per_address(exe, args, tmp)
    return sum(table.get(a, 0) * n for a, n in counts.items())


def count(robots: list[str]) -> dict:
    from bench_rnea import robot_table
    files = robot_table()
    result = {}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        exe = build(tmp)
        table = flop_table(exe)
        for name in robots:
            if name not in files:
                continue
            path, floating = files[name]
            result[name] = {}
            for algo in ALGOS:
                if algo == "aba" and name == "romeo":     # massless hands: singular
                    continue
                base = executed_flops(exe, [str(path), str(int(floating)), algo, "0"], table, tmp)
                full = executed_flops(exe, [str(path), str(int(floating)), algo, str(N)], table,
                                      tmp)
                result[name][algo] = round((full - base) / N)
                print(f"{name} {algo}: {result[name][algo]} flops", file=sys.stderr)
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--robots", default="ur5,panda,talos,romeo,human")
    ap.add_argument("--json", default=str(HERE / ".build" / "flops.json"))
    args = ap.parse_args(argv)
    res = count(args.robots.split(","))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(res, indent=1))
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
