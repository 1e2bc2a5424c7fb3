"""A C3D file whose ANALOG:SCALE lists fewer values than ANALOG:USED channels.

The C3D User Guide (ANALOG:OFFSET): "Both the SCALE and OFFSET parameters must exist for every
analog channel up to the value stored in the ANALOG:USED parameter"; it defines no default.
What the readers do with the channels beyond the list: ezc3d indexes its list past the end
(undefined: urdf2dyn's pre-check exists for that), the c3d package fails ("could not broadcast
input array from shape (33,) into shape (44,)", shown below), and BTK (Mokka's reader) gives
them scale 1 silently, which for a channel stored in volts or ADC counts is a force wrong by
its sensitivity. urdf2dyn reads the channels that have a scale and an offset, leaves the
others unused and says which; a plate that needs one of them is left out, named.

The file is BTS's (tests/data/c3d/README.md: 44 channels, 6 type-2 plates on channels 1-36,
plates 1 and 4 loaded) with ANALOG:SCALE's last 11 values cut out of the parameter section
(its dimension and offset follow), every other byte the vendor's.
"""
import os
import re
import struct
import warnings
from pathlib import Path

import numpy as np
import pytest

ezc3d = pytest.importorskip("ezc3d")
c3dpkg = pytest.importorskip("c3d")

from urdf2dyn import Urdf2dynWarning  # noqa: E402
from urdf2dyn.biomech.formats import c3d as C  # noqa: E402
from urdf2dyn.biomech.trajectory import MotionError  # noqa: E402

BTS = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d", "BTS.c3d")


def shortened(tmp_path, source, group, name, keep):
    """A copy of source whose parameter GROUP:NAME (one dimension) holds its first keep
    values only: the values after them are cut out, the record's offset to the next one
    shortened by as much, and as many zero bytes added at the end of the parameter section,
    so that every record ends where its offset says (ezc3d checks it) and the data stay in
    their blocks."""
    data = bytearray(Path(source).read_bytes())
    start = (data[0] - 1) * 512
    end = start + data[start + 2] * 512
    pos, groups = start + 4, {}
    while True:
        nlen, gid = struct.unpack("bb", data[pos:pos + 2])
        q = pos + 2 + abs(nlen)
        label = data[pos + 2:q].decode("latin-1").upper()
        (offset,) = struct.unpack("<h", data[q:q + 2])
        if gid < 0:
            groups[-gid] = label
        elif groups.get(gid) == group and label == name:
            ptype, ndim = struct.unpack("bb", data[q + 2:q + 4])
            assert ndim == 1 and data[q + 4] > keep
            cut = abs(ptype) * (data[q + 4] - keep)
            values = q + 5
            data[q + 4] = keep
            struct.pack_into("<h", data, q, offset - cut)
            kept = abs(ptype) * keep
            data[values + kept:end] = data[values + kept + cut:end] + bytes(cut)
            break
        pos = q + offset
    path = tmp_path / f"{name.lower()}_{keep}_{os.path.basename(source)}"
    path.write_bytes(bytes(data))
    return str(path)


def test_the_c3d_package_cannot_read_a_short_analog_scale(tmp_path):
    path = shortened(tmp_path, BTS, "ANALOG", "SCALE", 33)
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"shape \(33,\) into shape \(44,\)"):
            list(c3dpkg.Reader(f).read_frames())


def test_channels_without_a_scale_are_left_unused_and_named(tmp_path):
    """Refused whole before ('parameter ANALOG:SCALE has 33 values for 44 analog channels').
    The markers and plates 1-5 (channels 1-30) are read as from the vendor's file; plate 6
    (channels 31-36) needs channels 34-36, which have no scale: left out, named. Channels
    37-44 belong to no plate: named once, with the others."""
    path = shortened(tmp_path, BTS, "ANALOG", "SCALE", 33)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        want = C.read_c3d(BTS)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    said = [str(w.message) for w in caught if "SCALE" in str(w.message)]
    assert len(said) == 2, said
    assert re.search(r"scale_33_BTS.c3d: ANALOG:SCALE lists 33 values for its 44 analog "
                     r"channels: channels 34-44 have no scale.*defines no default.*not used",
                     said[0]), said[0]
    # named as elsewhere, with their labels: ezc3d's channel names of the vendor's file, whose
    # ANALOG:LABELS the copy keeps (ezc3d reads the copy's short SCALE past its end)
    labels = list(ezc3d.c3d(BTS).c3d_swig.channelNames())[33:36]
    assert labels == ["Mx6", "My6", "Mz6"]
    assert re.search(r"force plate 6: its channels 34 \(Mx6\), 35 \(My6\), 36 \(Mz6\) have no "
                     r"ANALOG:SCALE.*the plate was left out", said[1]), said[1]
    np.testing.assert_array_equal(rec.markers.xyz, want.markers.xyz)
    assert [p.number for p in rec.plates] == [1, 2, 3, 4, 5]
    for mine, vendor in zip(rec.plates, want.plates):
        np.testing.assert_array_equal(mine.force, vendor.force)
        np.testing.assert_array_equal(mine.cop, vendor.cop)
        np.testing.assert_array_equal(mine.moment, vendor.moment)
    assert rec.plates[0].contact.any() and rec.plates[3].contact.any()
    with pytest.raises(MotionError, match=r"channels 34-44 have no scale"):
        C.read_c3d(path, strict=True)


def test_channels_without_an_offset_are_left_unused_and_named(tmp_path):
    """The same with ANALOG:OFFSET cut to 40 values: the 6 plates read, channels 41-44 named."""
    path = shortened(tmp_path, BTS, "ANALOG", "OFFSET", 40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        want = C.read_c3d(BTS)
    with pytest.warns(Urdf2dynWarning, match=r"ANALOG:OFFSET lists 40 values for its 44 "
                      r"analog channels: channels 41-44 have no offset"):
        rec = C.read_c3d(path)
    assert len(rec.plates) == 6
    for mine, vendor in zip(rec.plates, want.plates):
        np.testing.assert_array_equal(mine.force, vendor.force)
