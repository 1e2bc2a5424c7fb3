#!/usr/bin/env bash
# Fuzz one parser of the urdf2dyn core with libFuzzer (clang; ASan + UBSan):
#
#   tests/c/fuzz.sh [PARSER] SECONDS [libFuzzer options...]
#
# PARSER: urdf (the default) or osim, one per tests/c/fuzz_PARSER.c. Seeds:
# tests/c/corpus/PARSER/ (read only), dictionary tests/c/PARSER.dict. New inputs go to
# tests/c/build/fuzz-corpus-PARSER/, crashers to tests/c/build/fuzz-artifacts-PARSER/.
# Minimize a crasher with
#   tests/c/build/fuzz_PARSER -minimize_crash=1 -runs=20000 CRASH_FILE
# and save it under tests/c/regressions/ with the parser's extension (.urdf, .osim):
# tests/test_c_core.py replays every file there, and every seed, through `driver --parse`.
# Needs clang and its libFuzzer runtime (Debian 12: apt-get install -y clang libclang-rt-14-dev).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
parser=urdf
case "${1:-}" in [a-z]*) parser="$1"; shift ;; esac
secs="${1:-60}"
shift || true
out="$here/build"
if [ ! -f "$here/fuzz_$parser.c" ]; then
    echo "fuzz.sh: no harness tests/c/fuzz_$parser.c (parsers:" \
         "$(cd "$here" && ls fuzz_*.c | sed 's/fuzz_\(.*\)\.c/\1/' | tr '\n' ' '))" >&2
    exit 2
fi

if ! command -v "${CC:-clang}" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -q clang
        # the libFuzzer runtime of that clang's own version
        major="$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)"
        apt-get install -y -q "libclang-rt-$major-dev"
    else
        echo "fuzz.sh: clang not found (apt-get install -y clang libclang-rt-14-dev)" >&2
        exit 2
    fi
fi
"$here/build.sh" fuzz "$out" >/dev/null
mkdir -p "$out/fuzz-corpus-$parser" "$out/fuzz-artifacts-$parser"
exec "$out/fuzz_$parser" -max_total_time="$secs" -dict="$here/$parser.dict" -max_len=65536 \
    -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$out/fuzz-artifacts-$parser/" "$@" "$out/fuzz-corpus-$parser" \
    "$here/corpus/$parser"
