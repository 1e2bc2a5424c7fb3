"""A deterministic slice of the C3D mutation fuzz (tests/c3d_fuzz.py; the full run's figures
are in docs/c3d.rst): mutants of the small vendor files read by read_c3d in this process,
ezc3d in its reader process. Every mutant is read or refused naming the file: no traceback, no
runaway, and a crash of ezc3d is contained (the test process lives on)."""
import os

import pytest

pytest.importorskip("ezc3d")

import c3d_fuzz  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d")


def test_mutants_are_read_or_refused(tmp_path):
    files = [os.path.join(DATA, f) for f in ("FP_Type3.c3d", "ViconNexus_PiG_Motion3_FF.c3d")]
    counts, findings = c3d_fuzz.fuzz(files, mutants=120, seed=0, out=str(tmp_path), timeout=60)
    assert findings == []
    assert sum(counts.values()) == 120
    assert counts["read"] > 10 and counts["refused"] > 10      # the mutations reach both
