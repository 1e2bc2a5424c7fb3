"""The C core on its own, without Python in the way: tests/c/driver.c built with AddressSanitizer
+ UndefinedBehaviorSanitizer (and plain, under valgrind memcheck when valgrind is installed),
over generated robots, the bundled URDFs, a few example-robot-data robots and malformed
documents; then every file of tests/c/regressions/ (crashers found by the fuzzers) and of the
fuzzers' corpora (tests/c/corpus/PARSER/) replayed through `driver --parse FILE`.

Needs a C compiler (cc / gcc / clang, $CC) and the Mini-XML headers; valgrind is optional.
"""
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CDIR = HERE / "c"
REGRESSIONS = sorted(p for p in (CDIR / "regressions").glob("*") if p.is_file())
# the fuzzers' seed corpora, one folder per parser (tests/c/corpus/urdf, osim, mjcf:
# an MJCF seed carries its include and mesh files in the input, tests/c/make_corpus_mjcf.py)
CORPORA = sorted(p for p in (CDIR / "corpus").iterdir() if p.is_dir())
BUNDLED = sorted(str(p) for p in (REPO / "urdf2dyn" / "data").glob("*.urdf"))
# two published OpenSim models (custom joints, SimmSpline-coupled knees) through the same checks
OSIM = [str(REPO / "tests" / "data" / "opensim_models" / "Models" / name)
        for name in ("gait10dof18musc.osim", "Rajagopal2016.osim")]
# an OpenSim model with a ScapulothoracicJoint (csrc/model/u2d_joint.c's ellipsoid joint)
SHOULDER = str(REPO / "tests" / "data" / "opensim_core" / "ThoracoscapularShoulderModel.osim")
# an OpenSim model with two ConstantCurvatureJoints (csrc/model/u2d_joint.c's curvature joint)
SPINE = str(REPO / "tests" / "data" / "osim_joints" / "constant_curvature_spine.osim")
# example-robot-data robots the driver also runs (those the Pinocchio tests use)
ERD = ["ur_description/urdf/ur5_robot.urdf", "panda_description/urdf/panda.urdf",
       "talos_data/robots/talos_reduced.urdf", "solo_description/robots/solo12.urdf"]

# the extension's flags for the core (setup.py), for the tests that compile it themselves
CORE_CFLAGS = ["-std=c11", "-O3", "-Wall", "-Wextra", "-fno-math-errno", "-ffp-contract=off",
               f"-I{REPO / 'csrc'}"]

SAN_ENV = {
    "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}


def _compiler():
    cc = os.environ.get("CC")
    if cc and shutil.which(cc):
        return cc
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return name
    return None


def _have_mxml_headers(cc):
    probe = subprocess.run([cc, "-E", "-x", "c", "-", *_mxml_cflags()], input="#include <mxml.h>\n",
                           capture_output=True, text=True)
    return probe.returncode == 0


def _mxml_cflags():
    try:
        out = subprocess.run(["pkg-config", "--cflags", "mxml"], capture_output=True, text=True)
        return out.stdout.split() if out.returncode == 0 else []
    except OSError:
        return []


def _erd_paths():
    bases = [sysconfig.get_paths().get("purelib", ""), *sys.path]
    for base in bases:
        d = Path(base or ".") / "cmeel.prefix" / "share" / "example-robot-data" / "robots"
        if d.is_dir():
            return [str(d / rel) for rel in ERD if (d / rel).is_file()]
    return []


def _build(variant, outdir, cc):
    env = dict(os.environ, CC=cc)
    proc = subprocess.run(["bash", str(CDIR / "build.sh"), variant, str(outdir)], env=env,
                          capture_output=True, text=True, timeout=1200)
    if proc.returncode != 0:
        raise AssertionError(f"tests/c/build.sh {variant} failed:\n{proc.stdout}\n{proc.stderr}")
    return Path(proc.stdout.strip().splitlines()[-1])


def _sanitizers_work(cc, tmp):
    """Whether cc links -fsanitize=address,undefined programs (libasan/libubsan installed)."""
    src = tmp / "probe.c"
    src.write_text("int main(void) { return 0; }\n")
    proc = subprocess.run([cc, "-fsanitize=address,undefined", str(src), "-o", str(tmp / "probe")],
                          capture_output=True, text=True)
    return proc.returncode == 0


@pytest.fixture(scope="module")
def cc():
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang; set $CC): the C core tests need one")
    if not _have_mxml_headers(cc):
        pytest.skip("Mini-XML headers (mxml.h) not found: apt-get install libmxml-dev")
    return cc


@pytest.fixture(scope="module")
def asan_driver(cc, tmp_path_factory):
    out = tmp_path_factory.mktemp("c_asan")
    if not _sanitizers_work(cc, out):
        pytest.fail(f"{cc} cannot link -fsanitize=address,undefined programs "
                    "(install gcc's libasan/libubsan, e.g. apt-get install -y gcc)")
    return _build("asan", out, cc)


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            return next((line for line in f if line.startswith("flags")), "") + " "
    except OSError:
        return ""


def _run(cmd, timeout, env=None):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))
    return proc, proc.stdout + proc.stderr


def _tail(text, n=60):
    return "\n".join(text.splitlines()[-n:])


def test_driver_asan_ubsan(asan_driver):
    """Every algorithm of the core on generated, bundled and real robots (the shoulder model's
    ellipsoid joint and the spine's constant-curvature joints too), the numerical invariants,
    and the malformed documents: no sanitizer report, no leak, no failure."""
    files = [*BUNDLED, *OSIM, SHOULDER, SPINE, *_erd_paths()]
    proc, out = _run([str(asan_driver), "--strict", *files], 600, SAN_ENV)
    assert proc.returncode == 0, f"driver-asan exit status {proc.returncode}:\n{_tail(out)}"
    assert re.search(r"\b0 failures: OK", out), _tail(out)
    assert "ERROR: AddressSanitizer" not in out and "runtime error:" not in out, _tail(out)
    assert f"files: {len(files)} loaded, 0 rejected" in out
    if platform.machine() == "x86_64" and " avx2" in _cpu_flags():
        # the AVX-512 path's 8-lane code, built for AVX2 (tests/c/lanes8.c), ran here
        checked = re.search(r"8-lane kernel on AVX2: (\d+) samples checked", out)
        assert checked and int(checked.group(1)) > 0, _tail(out)


# VEX/EVEX moves that fault unless their memory operand is aligned to the register's width
_ALIGNED_MOVE = re.compile(r"\bvmov(?:ap[sd]|dqa(?:32|64)?|nt(?:p[sd]|dqa?))\b")


def _fake_stack_wide_aligned_moves(obj):
    """{function: [instructions]} of obj's functions that may take their frame from ASan's fake
    stack (they call __asan_stack_malloc_N) and move a 64-byte zmm register to or from memory
    with an instruction requiring 64-byte alignment (other than a constant, %rip-relative)."""
    funcs = {}
    for name, line in _disassembly(obj, "-dr"):
        cur = funcs.setdefault(name, {"fake_stack": False, "moves": []})
        if "__asan_stack_malloc_" in line:
            cur["fake_stack"] = True
        elif (_ALIGNED_MOVE.search(line) and "%zmm" in line and "(" in line
              and "(%rip)" not in line):                 # constants: not in a frame
            cur["moves"].append(" ".join(line.split()[1:]))
    return {name: f["moves"] for name, f in funcs.items() if f["fake_stack"] and f["moves"]}


def _disassembly(path, flags):
    """(function, line) of each line objdump's flags print inside a function of the object
    or library at path."""
    text = subprocess.run(["objdump", flags, "--no-show-raw-insn", str(path)], check=True,
                          capture_output=True, text=True).stdout
    name = None
    for line in text.splitlines():
        head = re.match(r"[0-9a-f]+ <(.+)>:$", line)
        if head:
            name = head.group(1)
        elif name is not None:
            yield name, line


def _objdump_functions(path, names):
    """{name: [instructions, mnemonic and operands]} of the functions among names in the
    object or library at path (objdump); empty when its symbols are stripped. The parts GCC
    splits off or specializes (name.part.0, name.constprop.1, name.isra.0, name.cold) count
    as their function's: a function's code may live there whole, in another GCC version."""
    funcs = {}
    for name, line in _disassembly(path, "-d"):
        name = name.split(".")[0]
        if name in names and (ins := re.match(r"\s*[0-9a-f]+:\s+(\S.*)", line)):
            funcs.setdefault(name, []).append(ins.group(1).strip())
    return funcs


def _module_functions(names):
    """_objdump_functions of the built module."""
    import urdf2dyn._core as core
    return _objdump_functions(core.__file__, names)


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 code generation")
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) not installed")
def test_objdump_functions_count_a_gcc_clone_as_its_function(tmp_path):
    """A function GCC compiled only as a specialized clone (scaled.constprop.0, here) is still
    found by its name, with its instructions: otherwise the code checks below would pass
    unseen whatever a clone of u2d_jcalc or u2d_rnea holds."""
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler")
    src = tmp_path / "clone.c"
    src.write_text("static __attribute__((noinline)) long scaled(double x, long k)\n"
                   "{ return (long)x * k; }\n"
                   "long twice(double x) { return scaled(x, 2) + scaled(x + 1.0, 2); }\n")
    obj = tmp_path / "clone.o"
    subprocess.run([cc, "-O2", "-c", str(src), "-o", str(obj)], check=True)
    symbols = subprocess.run(["objdump", "-t", str(obj)], check=True, capture_output=True,
                             text=True).stdout
    if not re.search(r"\bscaled\.\w", symbols):
        pytest.skip(f"{cc} made no clone of scaled here:\n{symbols}")
    funcs = _objdump_functions(obj, {"scaled"})
    assert any(i.startswith("cvttsd2si") for i in funcs.get("scaled", [])), (funcs, symbols)


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 code generation")
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) not installed")
def test_avx2_joint_angles_take_no_lane_by_lane_conversion():
    """The AVX2 unit's RNEA, CRBA and joint model convert no double to an integer one lane at a
    time: AVX2 has no vector instruction for it, and the quadrant of the joint's sine and cosine
    (u2d_sincos) once cost eleven instructions per joint that way, 1.2 % of the human's RNEA
    group (benchmarks/instruction_mix.py); its bits come from the rounding sum instead."""
    names = {"u2d_jcalc_avx2", "u2d_rnea_avx2", "u2d_crba_fill_avx2"}
    funcs = _module_functions(names)
    if not funcs:
        pytest.skip("the module's symbols are stripped or it has no AVX2 unit")
    assert "u2d_jcalc_avx2" in funcs, sorted(funcs)
    scalar = {f: [i for i in ins if i.startswith("vcvttsd2si")] for f, ins in funcs.items()}
    assert not any(scalar.values()), scalar


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 code generation")
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) not installed")
def test_avx2_lane_tests_move_no_lane_to_an_integer_register():
    """The AVX2 unit's RNEA, CRBA and joint model ask whether a comparison holds in any or
    every lane (U2D_ANY, U2D_ALL: the joint sine's range check, once per one-axis body) with
    one instruction for the whole vector: tested lane by lane, GCC moved each lane to an
    integer register (vmovq, vpextrq) and or'ed them, 330 of the human's 31 100 instructions
    per RNEA group of 4 samples (benchmarks/instruction_mix.py)."""
    names = {"u2d_jcalc_avx2", "u2d_rnea_avx2", "u2d_crba_fill_avx2"}
    funcs = _module_functions(names)
    if not funcs:
        pytest.skip("the module's symbols are stripped or it has no AVX2 unit")
    assert set(funcs) == names, sorted(funcs)
    to_integer = re.compile(r"vpextrq\b|vmovq\s+%xmm\d+,%r")
    moves = {f: [i for i in ins if to_integer.match(i)] for f, ins in funcs.items()}
    assert not any(moves.values()), moves


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="an ELF module")
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) not installed")
def test_the_module_exports_its_init_function_alone():
    """The shared library Python loads defines one symbol others may see, PyInit__core: the
    core's functions exported (109 of them) were called through the PLT between its files, as
    another library's symbol of the same name could replace them, and a reader of another
    project's u2d_read_file would have found ours."""
    import urdf2dyn._core as core
    table = subprocess.run(["objdump", "-T", core.__file__], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    defined = sorted(line.split()[-1] for line in table
                     if " g " in line and "*UND*" not in line and " DF " in line)
    assert defined == ["PyInit__core"], defined[:10]


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 code generation")
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) not installed")
def test_lane_units_inline_the_joint_model_in_rnea_and_crba():
    """In the module Python loads, each lane unit's RNEA and CRBA compute the one-axis joints
    in their own loop, with no call of the joint model (u2d_jcalc) per body: exported from
    the shared library it could be interposed, so GCC called it through the PLT and inlined
    nothing, and its frame and the reloads of S and cJ cost the human's AVX2 group about 1 400
    of 37 100 instructions (csrc/batch/u2d_simd_impl.h, U2D_FLATTEN)."""
    import urdf2dyn
    units = [u for u in ("avx2", "avx512") if u in urdf2dyn.available_simd_paths()]
    if not units:
        pytest.skip("no x86-64 lane unit on this CPU")
    names = {f"u2d_{algo}_{u}" for algo in ("rnea", "crba_fill") for u in units}
    funcs = _module_functions(names)
    if not funcs:
        pytest.skip("the module's symbols are stripped")
    assert set(funcs) == names, sorted(funcs)
    calls = {f: [i for i in ins if i.startswith("call") and "u2d_jcalc" in i]
             for f, ins in funcs.items()}
    assert not any(calls.values()), calls


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 code generation")
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) not installed")
def test_lane_units_stream_whole_lines_at_full_width(asan_driver):
    """Each lane unit's non-temporal stores are as wide as its vectors (one 64-byte store a
    line on AVX-512, 32 bytes on AVX2): 16-byte movntpd pieces, interleaved over the rows
    of a group, left lines half written in the write-combining buffers and ran 5-13x slower
    than plain stores on a Sapphire Rapids (csrc/batch/u2d_simd_impl.h, stream_out)."""
    width = {"u2d_simd_avx512": "%zmm", "u2d_simd_avx2": "%ymm", "lanes8": "%ymm"}
    for unit, reg in width.items():
        text = subprocess.run(["objdump", "-d", "--no-show-raw-insn",
                               str(asan_driver.parent / "asan-obj" / f"{unit}.o")],
                              check=True, capture_output=True, text=True).stdout
        nt = [" ".join(line.split()[1:]) for line in text.splitlines()
              if re.search(r"\bv?movntp[sd]\b", line)]
        assert nt, f"{unit}: no non-temporal stores"
        assert all(reg in ins for ins in nt), (unit, [i for i in nt if reg not in i][:4])


@pytest.mark.skipif(shutil.which("nm") is None, reason="nm (binutils) not installed")
def test_spatial_algebra_is_inlined_in_the_module():
    """No function of csrc/model/u2d_spatial.h is left out of line in the built module. GCC
    kept u2d_xform_motion, u2d_inertia_mul, u2d_crossm and the 3x3 products as calls in the
    AVX-512 unit (its cost model counts the 8-lane vectors' instructions as large), and RNEA
    there ran about 10 % slower on the human (benchmarks/bench_deriv_c.c) than with them
    inlined, as they are on the other paths."""
    import urdf2dyn._core as core
    spatial = set(re.findall(r"\bU2D_ALWAYS_INLINE \w+ (u2d_\w+)\(",
                             (REPO / "csrc" / "model" / "u2d_spatial.h").read_text()))
    assert len(spatial) > 20, "the header's functions were not found"
    symbols = subprocess.run(["nm", core.__file__], capture_output=True, text=True).stdout
    if not re.search(r" [tT] u2d_", symbols):
        pytest.skip("the module's symbols are stripped")
    local = set(re.findall(r" t (u2d_\w+?)(?:\.\w+)*$", symbols, re.M))
    assert not local & spatial, sorted(local & spatial)


@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 code generation")
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) not installed")
def test_asan_frames_need_at_most_32_byte_alignment(asan_driver):
    """The fault test_driver_asan_ubsan hit on AVX-512 CPUs, caught where AVX-512 cannot run.

    With detect_stack_use_after_return=1 a function's locals may live in a frame from ASan's
    fake stack (__asan_stack_malloc_N). GCC 12 lays such a frame out right for locals aligned
    to 32 bytes at most: a 64-byte aligned local (GCC gives the AVX-512 unit's lane vectors
    64-byte alignment) then lands 32 bytes off, and an aligned zmm move to it (vmovapd
    %zmm0,-0x1c0(%rdx) in u2d_rnea_start_avx512) faults. 32-byte aligned ymm moves are fine
    there (the AVX2 unit and tests/c/lanes8.c run under the same option on this machine).
    So: no function of the driver's objects, compiled by tests/c/build.sh asan exactly as the
    driver is, may both use the fake stack and make an aligned 64-byte access."""
    objs = sorted((asan_driver.parent / "asan-obj").glob("*.o"))
    names = {o.stem for o in objs}
    assert {"driver", "u2d_simd_avx512", "u2d_simd_avx2", "lanes8"} <= names, names
    bad, fake_stack_seen = {}, False
    for obj in objs:
        bad.update({f"{obj.stem}: {fn}": moves[:3]
                    for fn, moves in _fake_stack_wide_aligned_moves(obj).items()})
        if not fake_stack_seen:
            fake_stack_seen = "__asan_stack_malloc_" in subprocess.run(
                ["objdump", "-dr", str(obj)], capture_output=True, text=True).stdout
    # the parser sees what it looks for: frames from the fake stack, and zmm code
    assert fake_stack_seen
    avx512 = subprocess.run(["objdump", "-d", str(asan_driver.parent / "asan-obj" /
                                                  "u2d_simd_avx512.o")],
                            capture_output=True, text=True).stdout
    assert "%zmm" in avx512
    assert not bad, ("aligned 64-byte moves in functions whose frame may come from ASan's fake "
                     "stack:\n" + "\n".join(f"{k}: {v}" for k, v in sorted(bad.items())))


def test_driver_covers_the_core_headers(asan_driver):
    """Every algorithm of the u2d_algo enum and every function of the core's headers is
    exercised by the driver (tests/c/harness.h), so new ones cannot slip by untested."""
    proc, out = _run([str(asan_driver), "--list-functions"], 60, SAN_ENV)
    assert proc.returncode == 0, out
    listed = {line.strip().lower() for line in out.splitlines() if line.strip()}
    headers = ((REPO / "csrc" / "model" / "u2d_model.h").read_text()
               + (REPO / "csrc" / "batch" / "u2d_batch.h").read_text())
    algos = {f"u2d_algo_{n.lower()}" for n in re.findall(r"\bU2D_ALGO_(\w+)\s*[,=]", headers)}
    functions = set(re.findall(r"^[A-Za-z_][\w \t\*]*?\b(u2d_\w+)\s*\(", headers, re.M))
    missing = sorted(algos - listed) + sorted(f for f in functions if f.lower() not in listed)
    assert not missing, ("declared in csrc/model/u2d_model.h / batch/u2d_batch.h but not exercised by "
                         f"tests/c/driver.c: {missing}; add an adapter and a line to H_ALGOS or "
                         "H_OTHER_FUNCTIONS in tests/c/harness.h")


@pytest.fixture(scope="module")
def plain_driver(cc, tmp_path_factory):
    return _build("plain", tmp_path_factory.mktemp("c_plain"), cc)


def test_driver_plain_o1_chain_joints(plain_driver):
    """The plain build (-O1, no sanitizer) on the models whose joints the derivatives take
    apart into chains of axes (custom, ellipsoid, constant curvature): every SIMD path's batches equal its
    one-sample calls, and on each model (fixed and floating base) dtau/dq and dtau/dv equal
    differences of RNEA, an oracle outside the derivatives' code that --quick keeps for
    chain joints (8 nv RNEA calls a model) where it skips the other heavy checks. GCC 12 at
    -O1 once dropped the scalar derivatives' own-block terms (csrc/model/u2d_port.h,
    U2D_OPAQUE) in this build only: the sanitizers' -O1 and the extension's -O3 compiled
    the same code right; a fault every path shares only the differences see."""
    proc, out = _run([str(plain_driver), "--quick", *OSIM, SHOULDER, SPINE], 600)
    assert proc.returncode == 0, _tail(out)
    assert re.search(r"\b0 failures: OK", out), _tail(out)
    differenced = re.search(r"files: rnea_deriv against differences of rnea on (\d+) models", out)
    assert differenced and int(differenced.group(1)) == 2 * len(OSIM + [SHOULDER, SPINE]), \
        _tail(out)


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_driver_valgrind_memcheck(plain_driver):
    driver = plain_driver
    proc, out = _run(["valgrind", "--error-exitcode=99", "--leak-check=full",
                      "--errors-for-leak-kinds=definite", str(driver), "--quick",
                      *BUNDLED[:2]], 600)
    assert proc.returncode == 0, f"valgrind exit status {proc.returncode}:\n{_tail(out, 80)}"
    assert re.search(r"ERROR SUMMARY: 0 errors", out), _tail(out)
    assert ("All heap blocks were freed" in out or
            re.search(r"definitely lost: 0 bytes in 0 blocks", out)), _tail(out)
    assert re.search(r"\b0 failures: OK", out), _tail(out)


def test_core_builds_for_aarch64(tmp_path):
    """aarch64 (portable and NEON paths): every core file compiles for it, warning-free with
    the extension's flags; the AVX2/AVX-512 units compile to nothing and the dispatcher
    refers to neither. (tests/c/README.md: the whole driver under qemu-aarch64.)"""
    cross = shutil.which("aarch64-linux-gnu-gcc")
    if cross is None:
        pytest.skip("no aarch64 cross compiler: apt-get install gcc-aarch64-linux-gnu")
    for src in [*sorted((REPO / "csrc").glob("*/u2d_*.c")), CDIR / "bits.c"]:
        obj = tmp_path / (src.stem + ".o")
        proc = subprocess.run([cross, *CORE_CFLAGS, "-Werror", "-c", str(src), "-o", str(obj)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, f"{src.name} for aarch64:\n{proc.stderr}"
    nm = shutil.which("aarch64-linux-gnu-nm") or "nm"
    symbols = {name: subprocess.run([nm, str(tmp_path / f"{name}.o")], capture_output=True,
                                    text=True, check=True).stdout
               for name in ("u2d_simd", "u2d_simd_avx2", "u2d_simd_avx512")}
    assert " T " not in symbols["u2d_simd_avx2"] + symbols["u2d_simd_avx512"]
    assert "u2d_simd_path" in symbols["u2d_simd"] and "avx" not in symbols["u2d_simd"]


@pytest.mark.parametrize("model", [str(REPO / "urdf2dyn" / "data" / "humod_subject_a.urdf"),
                                   OSIM[1], SHOULDER], ids=["human", "rajagopal", "shoulder"])
def test_every_path_gives_the_same_bits(cc, tmp_path, model):
    """tests/c/bits.c hashes the exact results of RNEA, CRBA, ABA, forward kinematics and the
    RNEA and ABA derivatives (with an external wrench): the same on every SIMD path this CPU has (and, by the recipe of tests/c/README.md, on aarch64);
    on the human URDF, on Rajagopal 2016 (custom joints: the axis functions and the
    custom-joint derivative terms, lane by lane) and on the thoracoscapular shoulder (an
    ellipsoid joint's chain of axes in the derivatives)."""
    exe = tmp_path / "bits"
    mxml = subprocess.run(["pkg-config", "--cflags", "--libs", "mxml"], capture_output=True,
                          text=True).stdout.split() or ["-lmxml"]
    subprocess.run([cc, *CORE_CFLAGS, "-o", str(exe), str(CDIR / "bits.c"),
                    *map(str, sorted((REPO / "csrc").glob("*/u2d_*.c"))), *mxml, "-lm",
                    "-pthread"], check=True, capture_output=True)
    outputs = {}
    for path in ("scalar", "avx2", "avx512"):
        proc = subprocess.run([str(exe), model, "0", path], capture_output=True, text=True)
        if proc.returncode == 2 and "no SIMD path" in proc.stderr:
            continue                                   # not on this CPU
        assert proc.returncode == 0, proc.stderr
        outputs[path] = proc.stdout
    if len(outputs) < 2:
        pytest.skip("no vector path on this CPU to compare with the portable one")
    assert outputs["scalar"].count("status 0") == 6 and outputs["scalar"].count("bits") == 6
    for path, out in outputs.items():
        assert out == outputs["scalar"], f"{path}:\n{out}\nscalar:\n{outputs['scalar']}"


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_regression_inputs(asan_driver, path):
    """Inputs that once crashed the core (or broke its contract) go through the fuzzer's
    pipeline again: parse, compile, every algorithm on nice and hostile states, free."""
    proc, out = _run([str(asan_driver), "--parse", str(path)], 120, SAN_ENV)
    assert proc.returncode == 0, f"{path.name}: exit status {proc.returncode}:\n{_tail(out)}"
    assert f"{path}: " in out and ", ok" in out, out


@pytest.mark.parametrize("corpus", CORPORA, ids=[p.name for p in CORPORA])
def test_fuzz_corpus_replays(asan_driver, corpus):
    """Every input a fuzzer keeps (its seeds and what it merged in for new coverage) goes
    through the fuzzer's pipeline with that fuzzer's parser, under ASan and UBSan: what the
    fuzzer reached stays reachable without a finding."""
    files = sorted(str(p) for p in corpus.iterdir() if p.is_file())
    assert files, f"{corpus}: empty"
    fuzzer = CDIR / f"fuzz_{corpus.name}.c"
    assert fuzzer.is_file() and (CDIR / f"{corpus.name}.dict").is_file(), \
        f"corpus/{corpus.name}/ without its harness fuzz_{corpus.name}.c and {corpus.name}.dict"
    proc, out = _run([str(asan_driver), "--parse", "--parser", corpus.name, *files], 600,
                     SAN_ENV)
    assert proc.returncode == 0, f"exit status {proc.returncode}:\n{_tail(out)}"
    assert out.count(", ok\n") == len(files), _tail(out)
