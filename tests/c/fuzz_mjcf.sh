#!/usr/bin/env bash
# Fuzz the MJCF reader with libFuzzer (clang; ASan + UBSan):
#
#   tests/c/fuzz_mjcf.sh SECONDS [libFuzzer options...]
#
# Seeds: tests/c/corpus_mjcf/ (read only; make_corpus_mjcf.py writes them). New inputs go to
# tests/c/build/fuzz-mjcf-corpus/, crashers to tests/c/build/fuzz-mjcf-artifacts/. Save a
# minimized crasher under tests/c/regressions/ (tests/test_c_core.py replays every file
# there). Needs clang and the libFuzzer runtime, as fuzz.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
secs="${1:-60}"
shift || true
out="$here/build"
"$here/build.sh" fuzz-mjcf "$out" >/dev/null
mkdir -p "$out/fuzz-mjcf-corpus" "$out/fuzz-mjcf-artifacts"
exec "$out/fuzz_mjcf" -max_total_time="$secs" -dict="$here/mjcf.dict" -max_len=65536 \
    -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$out/fuzz-mjcf-artifacts/" "$@" "$out/fuzz-mjcf-corpus" "$here/corpus_mjcf"
