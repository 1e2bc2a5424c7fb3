"""A C3D file whose header scale factor and POINT:SCALE disagree in sign (floats or integers).

What the readers do: the c3d package refuses it (shown below); BTK keeps the header's value
and warns ("The point scaling factor written in the header and in the parameter POINT:SCALE
are not the same. The first value is kept"); ezc3d reads the markers by the parameter and
the analog samples by the header. The C3D User Guide (POINT:SCALE) makes the parameter's
sign the flag and calls the header's a copy that "should always be identical", without
saying which wins when they differ: no rule to apply, so urdf2dyn refuses the file, and says
which storage the data section's size fits (the header's frames at 2 or 4 bytes a value,
padded to a block) and the value to set both to.

Files: Qualisys' (floats: 340 frames of 55 markers and 690 analog values) with either sign
flipped, and Codamotion's (integers: 141 frames of 24 markers and 32 analog values) with its
header's flipped, every other byte the vendor's.
"""
import os
import re
import struct
import sys
import warnings
from pathlib import Path

import pytest

c3dpkg = pytest.importorskip("c3d")
sys.path.insert(0, os.path.dirname(__file__))
from test_c3d import patched  # noqa: E402

from urdf2dyn.biomech.formats import c3d as C  # noqa: E402
from urdf2dyn.biomech.trajectory import MotionError  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d")
QUALISYS = os.path.join(DATA, "Qualisys.c3d")
CODA = os.path.join(DATA, "Codamotion_ADemo1.c3d")


def with_header_scale(tmp_path, source, value):
    """A copy of source whose header scale factor (words 7-8, Intel order) is value."""
    data = bytearray(Path(source).read_bytes())
    struct.pack_into("<f", data, 12, value)
    path = tmp_path / "header_scale.c3d"
    path.write_bytes(bytes(data))
    return str(path)


def layout(path):
    """(header scale, POINT:SCALE, frames, values per frame, data bytes) as the c3d package
    reads the vendor's file."""
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = c3dpkg.Reader(f)
        h = r.header
        frames = h.last_frame - h.first_frame + 1
        values = 4 * h.point_count + h.analog_count
        data = os.path.getsize(path) - (h.data_block - 1) * 512
        return h.scale_factor, r.get("POINT:SCALE").float_value, frames, values, data


@pytest.mark.parametrize("source, flip, floats", [(QUALISYS, "header", True),
                                                  (QUALISYS, "parameter", True),
                                                  (CODA, "header", False)])
def test_disagreeing_scale_signs_are_refused_naming_the_one_to_fix(tmp_path, source, flip,
                                                                   floats):
    header, param, frames, values, data = layout(source)
    assert header == param and (param < 0) == floats
    width = 4 if floats else 2
    assert 0 <= data - frames * values * width < 512       # the vendor's own storage fits
    if flip == "header":
        path = with_header_scale(tmp_path, source, -header)
    else:
        path = patched(tmp_path, source, POINT__SCALE=("f", [-param]))
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(AssertionError, match="inconsistent scale factor"):
            c3dpkg.Reader(f)                                # the c3d package refuses too
    with pytest.raises(MotionError) as e:
        C.read_c3d(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}: the header's scale factor")
    assert (f"The data section ({data} bytes for the header's {frames} frames of {values} "
            f"values) fits {'floats' if floats else 'integers'} ({width} bytes a value): "
            f"{'the header' if flip == 'header' else 'POINT:SCALE'}'s sign is probably the "
            f"wrong one; set both to {param:.6g}; make them agree with a C3D editor") in msg


def test_a_data_section_fitting_neither_storage_says_so(tmp_path):
    """Qualisys' file cut to its first blocks of data: neither storage fits the header's 340
    frames, and the message says the file cannot tell."""
    path = with_header_scale(tmp_path, QUALISYS, 0.5)
    data = Path(path).read_bytes()
    start = (struct.unpack("<H", data[16:18])[0] - 1) * 512
    Path(path).write_bytes(data[:start + 20 * 512])
    with pytest.raises(MotionError, match=re.escape(
            "fits neither storage exactly, so which is right cannot be told from the file")):
        C.read_c3d(path)


def test_a_data_section_fitting_both_storages_says_so(tmp_path):
    """ezc3d's file of 10 frames of one marker (floats, 160 bytes; as integers 80) in one
    512-byte block: both storages fit the section, so the file cannot tell which sign is
    wrong, and the message says it fits both, not neither."""
    ezc3d = pytest.importorskip("ezc3d")
    import numpy as np
    c = ezc3d.c3d()
    c["parameters"]["POINT"]["RATE"]["value"] = [100]
    c["parameters"]["POINT"]["LABELS"]["value"] = ["M1"]
    c["data"]["points"] = np.random.default_rng(0).random((4, 1, 10))
    source = str(tmp_path / "small.c3d")
    c.write(source)
    header, param, frames, values, data = layout(source)
    assert (header, param, frames, values, data) == (-1, -1, 10, 4, 512)
    assert all(0 <= data - frames * values * width < 512 for width in (2, 4))
    path = with_header_scale(tmp_path, source, 1.0)
    with pytest.raises(MotionError) as e:
        C.read_c3d(path)
    assert ("The data section (512 bytes for the header's 10 frames of 4 values) fits both "
            "storages (its frames end within the same padded block either way), so which is "
            "right cannot be told from the file; make them agree") in str(e.value)
