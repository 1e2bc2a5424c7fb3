"""The instruction counts the benchmarks publish (benchmarks/count_flops.py: flops per sample;
benchmarks/instruction_mix.py: instructions per lane group) come from one callgrind parser.
Checked on a synthetic callgrind file and on a program whose loop count is known."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from count_flops import executed_per_address, per_address  # noqa: E402

# Two objects, each with an instruction at offset 0x1000 (callgrind gives shared objects'
# addresses as offsets into them), and a call line whose next cost line is the call's
# inclusive cost, not the calling instruction's own.
CALLGRIND = """\
positions: instr
events: Ir
ob=/usr/lib/libm.so.6
fn=cos
0x1000 500
ob=/tmp/prog
fn=main
0x1000 7
0x1004 3
calls=2 0x2000
0x1004 900
ob=/usr/lib/libm.so.6
fn=sin
0x1004 11
"""


def test_only_the_programs_own_instructions_are_counted():
    assert per_address(CALLGRIND, Path("/tmp/prog")) == {0x1000: 7, 0x1004: 3}


@pytest.mark.skipif(not (shutil.which("valgrind") and shutil.which("cc")),
                    reason="needs valgrind and a C compiler")
def test_a_loop_run_a_known_number_of_times(tmp_path):
    """A loop of 1234 turns, each calling libm's cos, counted by callgrind: the loop's add
    instruction runs exactly 1234 times, whatever libm executes at the same offsets."""
    src = tmp_path / "loop.c"
    src.write_text("#include <math.h>\n#include <stdlib.h>\n"
                   "int main(int argc, char **argv) {\n"
                   "    volatile double x = 0; int n = atoi(argv[1]);\n"
                   "    for (int i = 0; i < n; i++) x = cos(x) + 0.5;\n"
                   "    return x > 1e300; }\n")
    exe = tmp_path / "loop"
    subprocess.run(["cc", "-O1", "-o", str(exe), str(src), "-lm"], check=True)
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(exe)], check=True,
                         capture_output=True, text=True).stdout
    adds = [int(line.split(":")[0], 16) for line in dis.splitlines()
            if line.strip().split(":")[0:1] and "\taddsd" in line]
    assert len(adds) == 1
    counts = executed_per_address(exe, ["1234"], tmp_path)
    assert counts[adds[0]] == 1234
