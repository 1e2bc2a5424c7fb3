#!/usr/bin/env bash
# Fuzz the urdf2dyn core with libFuzzer (clang; ASan + UBSan):
#
#   tests/c/fuzz.sh SECONDS [libFuzzer options...]
#
# Seeds: tests/c/corpus/ (read only). New inputs go to tests/c/build/fuzz-corpus/, crashers
# to tests/c/build/fuzz-artifacts/. Minimize a crasher with
#   tests/c/build/fuzz_urdf -minimize_crash=1 -runs=20000 CRASH_FILE
# and save it under tests/c/regressions/ (tests/test_c_core.py replays every file there).
# Needs clang and the libFuzzer runtime (Debian 12: apt-get install -y clang libclang-rt-14-dev).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
secs="${1:-60}"
shift || true
out="$here/build"

if ! command -v "${CC:-clang}" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -q clang "$(apt-cache search --names-only '^libclang-rt-[0-9]+-dev$' |
                                       sort -V | tail -n 1 | cut -d' ' -f1)"
    else
        echo "fuzz.sh: clang not found (apt-get install -y clang libclang-rt-14-dev)" >&2
        exit 2
    fi
fi
"$here/build.sh" fuzz "$out" >/dev/null
mkdir -p "$out/fuzz-corpus" "$out/fuzz-artifacts"
exec "$out/fuzz_urdf" -max_total_time="$secs" -dict="$here/urdf.dict" -max_len=65536 \
    -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$out/fuzz-artifacts/" "$@" "$out/fuzz-corpus" "$here/corpus"
