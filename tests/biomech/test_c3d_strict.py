"""What --strict refuses in a C3D file: a warning says the result may be wrong, and --strict
refuses at it; what says nothing is wrong is not a warning at all (docs/cli.rst).

The cut vendor files (tests/data/c3d/README.md: a window of the vendor's frames, every other
byte the vendor's) keep FORCE_PLATFORM:ZERO (1, 10) from the whole recording. That the
zeroing check cannot run from frames the file no longer holds says nothing against its
forces (the Guide's ZERO is advisory, and a file with ZERO (0, 0) names no frame either), so
it is a note kept with the reading (C3D.meta["notes"]), not a warning that made
`urdf2dyn convert --strict` exit 1 on a file it had read and written without fault.
"""
import os
import warnings

import numpy as np
import pytest

pytest.importorskip("ezc3d")
c3dpkg = pytest.importorskip("c3d")

from urdf2dyn import Urdf2dynWarning  # noqa: E402
from urdf2dyn.biomech.formats import c3d as C  # noqa: E402
from urdf2dyn.cli import main  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d")
#: c3d.org's Sample01, cut to frames 225-300; ZERO (1, 10). Its plates rest at 22 and 32 N
#: with nobody on them (not zeroed: a warning at the default 20 N threshold); read with a
#: threshold above that, nothing else is to be said about it
EB015 = os.path.join(DATA, "C3Dorg_Eb015pi.c3d")
ABOVE_ITS_REST = "40"
#: Kistler's, cut; ZERO (1, 10), and its plates store the action (a warning: may be wrong)
KISTLER = os.path.join(DATA, "Kistler.c3d")


def held_and_zero(path):
    """The file's frames (first, last) and its FORCE_PLATFORM:ZERO, as the c3d package reads
    them."""
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = c3dpkg.Reader(f)
        return ((r.header.first_frame, r.header.last_frame),
                [int(x) for x in r.get("FORCE_PLATFORM:ZERO").int16_array])


def test_convert_strict_on_a_cut_file_with_nothing_wrong_succeeds(tmp_path, capsys):
    """The file holds frames 226-301 and ZERO names 1-10: `convert --strict` exited 1 ('1
    warning', the ZERO note). It writes both files, exits 0, prints no warning."""
    assert held_and_zero(EB015) == ((226, 301), [1, 10])
    trc, mot = tmp_path / "m.trc", tmp_path / "grf.mot"
    status = main(["convert", EB015, "-o", str(trc), "-o", str(mot), "--strict",
                   "--threshold", ABOVE_ITS_REST])
    err = capsys.readouterr().err
    assert status == 0, err
    assert "warning" not in err
    assert trc.is_file() and mot.is_file()


def test_the_zero_range_a_cut_file_cannot_use_is_a_note():
    """Said in the reading's notes (naming both ranges and what to do), not as a warning;
    strict=True reads the file."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)
        rec = C.read_c3d(EB015, strict=True, threshold=float(ABOVE_ITS_REST))
    assert len(rec.plates) == 2 and rec.plates[0].contact.any()
    assert rec.meta["notes"] == [
        f"{EB015}: FORCE_PLATFORM:ZERO names frames 1-10 to zero the force plates from, but "
        "the file holds frames 226-301 (a trial cut after recording?): whether the plates "
        "were zeroed cannot be checked from those frames. urdf2dyn subtracts no baseline: "
        "make sure the plates were zeroed in the capture software, or set ZERO to frames "
        "the file holds with nobody on the plates (0, 0 if there are none)"]


def test_convert_strict_still_refuses_a_warning(tmp_path, capsys):
    """Kistler's cut file: its plates' force points down into them (the action stored), a
    warning that the result may be wrong: --strict refuses it, naming the plate, and writes
    nothing."""
    mot = tmp_path / "grf.mot"
    assert main(["convert", KISTLER, "-o", str(mot), "--strict"]) == 1
    err = capsys.readouterr().err
    assert "force plate 1: its force points down into the plate" in err
    assert "FORCE_PLATFORM:ZERO" not in err
    assert not mot.exists()
    assert np.isfinite(held_and_zero(KISTLER)[0]).all()


def test_convert_prints_the_note_without_counting_it(tmp_path, capsys):
    """The note was kept in C3D.meta["notes"] and printed nowhere: a user of the command line
    never learnt that the zeroing could not be checked. It is printed as a `note:` line on
    stderr, not counted as a warning, and --strict still exits 0."""
    trc = tmp_path / "m.trc"
    status = main(["convert", EB015, "-o", str(trc), "--strict", "--threshold",
                   ABOVE_ITS_REST])
    err = capsys.readouterr().err
    assert status == 0, err
    assert (f"urdf2dyn convert: note: {EB015}: FORCE_PLATFORM:ZERO names frames 1-10 to zero "
            "the force plates from, but the file holds frames 226-301") in err, err
    assert err.count("note:") == 1 and "warning" not in err
