"""How a C3D file's frames are laid out when the parameters that say so are missing or
disagree with the header, against the c3d package (a pure-Python reader of the format, not
ezc3d, which urdf2dyn builds on) and the C3D User Guide (c3d.org):

* ANALOG:RATE is "the total number of analog data samples per 3D frame" times POINT:RATE; the
  header's word 10 holds the same number of samples a frame ("Analog data storage"), and the
  c3d package lays the frames out from it. ezc3d lays them out from ANALOG:RATE alone: without
  it, no analog sample, and every marker after the first frame is read out of place.
* POINT:SCALE's sign says whether the data are integers or floats (the Guide's "Description"
  of the data section: "the sign of the POINT:SCALE parameter"), the header holding a copy.
  Without the parameter the c3d package takes the header's; ezc3d takes -1 (floats), and reads
  an integer file as garbage.

The files are vendors' files (tests/data/c3d/README.md) with one parameter renamed in place
(same length, so every other byte stays where the vendor wrote it): ANALOG:RATE -> RATX.
"""
import os
import struct
import warnings
from pathlib import Path

import numpy as np
import pytest

ezc3d = pytest.importorskip("ezc3d")
c3dpkg = pytest.importorskip("c3d")

from urdf2dyn import Urdf2dynWarning  # noqa: E402
from urdf2dyn.biomech.formats import c3d as C  # noqa: E402
from test_c3d import _record_start  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d")
#: integer data, 24 markers at 200 Hz, a type-3 plate at 400 Hz (2 samples a frame)
CODA = os.path.join(DATA, "Codamotion_ADemo1.c3d")
#: float data, 22 markers at 100 Hz, 6 type-2 plates at 1000 Hz (10 samples a frame)
BTS = os.path.join(DATA, "BTS.c3d")


def renamed(tmp_path, source, group, name, new):
    """A copy of source with parameter GROUP:NAME renamed new (as long): the file no longer
    has it, and nothing else moves."""
    assert len(new) == len(name)
    data = bytearray(Path(source).read_bytes())
    pos = _record_start(data, (group, name))
    data[pos + 2:pos + 2 + len(name)] = new.encode()
    path = tmp_path / f"no_{group}_{name}_{os.path.basename(source)}"
    path.write_bytes(bytes(data))
    return str(path)


def c3dpkg_reading(path):
    """(points (N, M, 3) in the file's unit, analog (C, S) as the package scales them, the
    analog rate it reports)."""
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = c3dpkg.Reader(f)
        frames = list(r.read_frames())
        rate = r.analog_rate
    points = np.array([p[:, :3] for _, p, _ in frames])
    valid = np.array([p[:, 3] >= 0 for _, p, _ in frames])
    points[~valid | np.all(points == 0, axis=-1)] = np.nan     # the C3D rules for a gap
    return points, np.concatenate([a for _, _, a in frames], axis=1), rate


def quiet_read(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return C.read_c3d(path, **kw)


@pytest.mark.parametrize("source, samples", [(CODA, 2), (BTS, 10)])
def test_a_file_without_analog_rate_is_laid_out_by_the_headers_samples_a_frame(tmp_path,
                                                                             source, samples):
    """Without ANALOG:RATE (SCALE and OFFSET present, no SHADOW group) ezc3d read the frames
    with no analog samples: the markers after the first frame came from the analog bytes
    (the check below shows it on the same file). They are read as the c3d package reads them
    (the header's samples a frame), and so are the plates: the same as from the vendor's file
    with its ANALOG:RATE, which is the header's samples a frame times POINT:RATE."""
    path = renamed(tmp_path, source, "ANALOG", "RATE", "RATX")
    theirs, analog, rate = c3dpkg_reading(path)
    original, original_analog, original_rate = c3dpkg_reading(source)
    np.testing.assert_array_equal(analog, original_analog)
    assert rate == original_rate
    misread = ezc3d.c3d(path)["data"]["points"][:3, :, 1].T
    assert not np.allclose(misread, theirs[1], equal_nan=True)

    rec = quiet_read(path)
    unit = 1e-3                                  # both files' POINT:UNITS are mm
    np.testing.assert_allclose(rec.markers.xyz, theirs * unit, rtol=1e-6, equal_nan=True)
    want = quiet_read(source)
    assert len(rec.plates) == len(want.plates) > 0
    for mine, vendor in zip(rec.plates, want.plates):
        np.testing.assert_array_equal(mine.time, vendor.time)
        np.testing.assert_array_equal(mine.force, vendor.force)
        np.testing.assert_array_equal(mine.cop, vendor.cop)
        np.testing.assert_array_equal(mine.moment, vendor.moment)
    assert original_rate == samples * rec.markers.meta["rate"]
    at_analog_rate = quiet_read(path, rate="analog").plates[0].time
    np.testing.assert_allclose(np.diff(at_analog_rate), 1.0 / original_rate)


def test_an_integer_file_without_point_scale_takes_the_headers(tmp_path):
    """Codamotion's file stores integers (POINT:SCALE 0.1, the header's scale too). Without
    POINT:SCALE, ezc3d took -1 (floats): 81 frames of garbage for 141. The header's scale is
    used, as by the c3d package: the markers are the package's, every frame."""
    path = renamed(tmp_path, CODA, "POINT", "SCALE", "SCALX")
    theirs, _, _ = c3dpkg_reading(path)
    assert theirs.shape[0] == 141
    assert ezc3d.c3d(path)["data"]["points"].shape[-1] != 141
    rec = quiet_read(path)
    np.testing.assert_allclose(rec.markers.xyz, theirs * 1e-3, rtol=1e-6, equal_nan=True)
    assert len(rec.plates) == 1


def test_a_header_scale_whose_sign_disagrees_with_point_scale_is_refused(tmp_path):
    """The Guide: one flag says integers or floats, "the sign of the POINT:SCALE parameter",
    the header holding a copy. ezc3d reads the points by the parameter and the analog samples
    by the header (its Point.cpp and Channel.cpp), so a file whose two signs disagree is read
    half as integers, half as floats; the c3d package refuses it ("inconsistent scale
    factor"). A header saying floats (negative) over Codamotion's integer POINT:SCALE 0.1 was
    read as a truncated file (a warning that 70 of 141 frames were there) and misread by
    ezc3d (113 frames). It is refused naming both values and what to do."""
    data = bytearray(Path(CODA).read_bytes())
    struct.pack_into("<f", data, 12, -0.1)
    path = tmp_path / "header_says_float.c3d"
    path.write_bytes(bytes(data))
    assert ezc3d.c3d(str(path))["data"]["points"].shape[-1] != 141
    with pytest.raises(C.MotionError, match=r"header_says_float.c3d: the header's scale "
                       r"factor -0.1 \(floats\) and POINT:SCALE 0.1 \(integers\) disagree"):
        C.read_c3d(str(path))


def test_an_analog_only_file_without_analog_rate_takes_the_headers_frame_rate(tmp_path):
    """Kistler's file has no markers and POINT:RATE 0; the header's frame rate (words 11-12)
    is 60 Hz and its word 10 says 10 samples a frame. Without ANALOG:RATE the file was
    refused ('... and POINT:RATE 0 do not agree on a rate'). The c3d package reads it at
    10 x 60 = 600 Hz with the vendor's channels; so are its plates read: as from the vendor's
    file."""
    source = os.path.join(DATA, "Kistler.c3d")
    path = renamed(tmp_path, source, "ANALOG", "RATE", "RATX")
    _, analog, rate = c3dpkg_reading(path)
    _, original_analog, original_rate = c3dpkg_reading(source)
    assert rate == original_rate == 600.0
    np.testing.assert_array_equal(analog, original_analog)
    mine, vendor = quiet_read(path, rate="analog"), quiet_read(source, rate="analog")
    assert len(mine.plates) == len(vendor.plates) == 2
    for a, b in zip(mine.plates, vendor.plates):
        np.testing.assert_array_equal(a.time, b.time)
        np.testing.assert_array_equal(a.force, b.force)
        np.testing.assert_array_equal(a.cop, b.cop)
