#!/usr/bin/env bash
# Build the C test programs of the urdf2dyn core (no Python involved).
#
#   tests/c/build.sh asan  [OUTDIR]   driver-asan:  -fsanitize=address,undefined (gcc or clang)
#   tests/c/build.sh plain [OUTDIR]   driver-plain: -O1 -g, for valgrind memcheck
#   tests/c/build.sh fuzz  [OUTDIR]   fuzz_urdf:    clang -fsanitize=fuzzer,address,undefined
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
for f in "$csrc"/u2d_*.c; do sources+=("$f"); done
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
    objs=()
    for src in "$here/driver.c" "${sources[@]}"; do
        obj="$objdir/$(basename "${src%.c}").o"
        "$cc" "${common[@]}" $mxml_cflags -g -O1 -fno-omit-frame-pointer "${san[@]}" \
            -c -o "$obj" "$src"
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
fuzz)
    cc="${CC:-clang}"
    target="$out/fuzz_urdf"
    "$cc" "${common[@]}" $mxml_cflags -g -O1 -fno-omit-frame-pointer \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -o "$target" "$here/fuzz_urdf.c" "${sources[@]}" "${libs[@]}"
    ;;
*)
    echo "usage: $0 asan|plain|fuzz [OUTDIR]" >&2
    exit 2
    ;;
esac
echo "$target"
