#!/usr/bin/env bash
# Build the C test programs of the urdf2dyn core (no Python involved).
#
#   tests/c/build.sh asan  [OUTDIR]   driver-asan:  -fsanitize=address,undefined (gcc or clang)
#   tests/c/build.sh plain [OUTDIR]   driver-plain: -O1 -g, for valgrind memcheck
#   tests/c/build.sh fuzz  [OUTDIR]   fuzz_urdf:    clang -fsanitize=fuzzer,address,undefined
#   tests/c/build.sh fuzz-mjcf [OUTDIR]  fuzz_mjcf: the same for the MJCF reader
#
# OUTDIR defaults to tests/c/build. The compiler is $CC, else cc (clang for fuzz); $EXTRA_CFLAGS
# is appended to the compiler flags.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
csrc="$root/csrc"
variant="${1:-asan}"
out="${2:-$here/build}"
mkdir -p "$out"

sources=()
for f in "$csrc"/*/u2d_*.c; do sources+=("$f"); done
[ "$(uname -m)" = x86_64 ] && sources+=("$here/lanes8.c")   # the 8-lane code on AVX2

mxml_cflags="$(pkg-config --cflags mxml 2>/dev/null || true)"
mxml_libs="$(pkg-config --libs mxml 2>/dev/null || echo -lmxml)"
common=(-std=c11 -Wall -Wextra -Wno-unused-function -fno-math-errno -ffp-contract=off
        -I"$csrc" -I"$here" ${EXTRA_CFLAGS:-})
libs=($mxml_libs -lm -pthread)

case "$variant" in
asan)
    cc="${CC:-cc}"
    target="$out/driver-asan"
    san=(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
    # one object per file, kept in $out/asan-obj: tests/test_c_core.py disassembles them
    objdir="$out/asan-obj"
    mkdir -p "$objdir"
    # The AVX-512 unit under GCC: no fake stack (ASAN_OPTIONS=detect_stack_use_after_return=1)
    # for its frames, every other file keeps it. GCC gives that unit's lane vectors (8 doubles)
    # 64-byte alignment on the stack and moves them with vmovapd %zmm; but GCC 12 lays out a
    # frame that may come from ASan's fake stack correctly only for alignments up to 32 bytes
    # (the frame's base is only 32-byte aligned in the real frame, the fake one is 64-byte
    # aligned, so a 64-byte aligned local lands at 32 mod 64: ASan's fake-stack frames were
    # not guaranteed to be aligned as the instrumented frame layout assumed, fixed in the
    # sanitizer runtime in 2025, llvm-project pull 152819 / 153142, which GCC's libsanitizer
    # imports; llvm-project issue 91565 is the same class of fault with clang),
    # so on AVX-512 CPUs the first such move faulted (u2d_rnea_start_avx512). Its frames keep
    # their redzones; its 8-lane code runs with the fake stack through lanes8.c.
    # tests/test_c_core.py::test_asan_frames_need_at_most_32_byte_alignment checks the objects.
    avx512_asan=()
    "$cc" -dM -E -x c /dev/null | grep -q __clang__ || avx512_asan=(--param=asan-use-after-return=0)
    objs=()
    for src in "$here/driver.c" "${sources[@]}"; do
        obj="$objdir/$(basename "${src%.c}").o"
        extra=()
        [ "$(basename "$src")" = u2d_simd_avx512.c ] && extra=("${avx512_asan[@]}")
        "$cc" "${common[@]}" $mxml_cflags -g -O1 -fno-omit-frame-pointer "${san[@]}" \
            ${extra[@]+"${extra[@]}"} -c -o "$obj" "$src"
        objs+=("$obj")
    done
    "$cc" "${san[@]}" -o "$target" "${objs[@]}" "${libs[@]}"
    ;;
plain)
    cc="${CC:-cc}"
    target="$out/driver-plain"
    "$cc" "${common[@]}" $mxml_cflags -g -O1 \
        -o "$target" "$here/driver.c" "${sources[@]}" "${libs[@]}"
    ;;
fuzz|fuzz-mjcf)
    cc="${CC:-clang}"
    harness=fuzz_urdf
    [ "$variant" = fuzz-mjcf ] && harness=fuzz_mjcf
    target="$out/$harness"
    "$cc" "${common[@]}" $mxml_cflags -g -O1 -fno-omit-frame-pointer \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -o "$target" "$here/$harness.c" "${sources[@]}" "${libs[@]}"
    ;;
*)
    echo "usage: $0 asan|plain|fuzz|fuzz-mjcf [OUTDIR]" >&2
    exit 2
    ;;
esac
echo "$target"
