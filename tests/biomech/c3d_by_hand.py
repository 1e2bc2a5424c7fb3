"""C3D files written by hand, per the C3D User Guide (c3d.org), for what ezc3d's writer gets
wrong: it cannot write more than 255 analog units or scales (it writes ANALOG:SCALE with 4
values and a file it cannot read back). Intel byte order, data stored as floats; a parameter
with more than 255 values is the caller's to split into NAME, NAME2, ... as the guide says."""
import struct

import numpy as np


def _record(kind, values):
    """(type, dimensions, bytes) of a parameter's values; kind 'char', 'int' or 'float'.
    Arrays are given with the C3D dimensions reversed (C order: the first C3D index is the
    last NumPy axis, the fastest)."""
    if kind == "char":
        width = max([len(v) for v in values] + [1])
        return -1, [width, len(values)], b"".join(v.ljust(width).encode() for v in values)
    a = np.asarray(values, dtype="<i2" if kind == "int" else "<f4")
    return (2 if kind == "int" else 4), list(a.shape[::-1]), a.tobytes()


def _parameters(groups):
    """The parameter section: {group: {name: (kind, values)}}, each record's offset pointing
    at the next, the last's 0."""
    records = []
    for gid, (group, params) in enumerate(groups.items(), start=1):
        records.append((bytes([len(group), (-gid) & 0xFF]) + group.encode(), b"\x00"))
        for name, (kind, values) in params.items():
            ptype, dims, data = _record(kind, values)
            records.append((bytes([len(name), gid]) + name.encode(),
                            bytes([ptype & 0xFF, len(dims)]) + bytes(dims) + data + b"\x00"))
    body = bytearray()
    for k, (head, tail) in enumerate(records):
        body += head + struct.pack("<h", 0 if k == len(records) - 1 else len(tail) + 2) + tail
    section = bytes([1, 0x50, (4 + len(body) + 511) // 512, 84]) + bytes(body)
    return section + bytes(-len(section) % 512)


def c3d_bytes(groups, points, analogs, rate, per_frame):
    """A C3D file: groups as for _parameters (POINT:DATA_START is set here), points (F, M, 3)
    in POINT:UNITS, analogs (C, F * per_frame) as stored (ezc3d reads (stored - OFFSET) *
    SCALE * GEN_SCALE), at rate frames per second."""
    frames_, markers, _ = points.shape
    channels = analogs.shape[0]
    start = 2 + len(_parameters(groups)) // 512          # DATA_START's value keeps the size
    groups["POINT"]["DATA_START"] = ("int", start)
    params = _parameters(groups)
    header = bytearray(512)
    header[0], header[1] = 2, 0x50
    struct.pack_into("<HHHHHfHHf", header, 2, markers, channels * per_frame, 1, frames_, 0,
                     -1.0, start, per_frame, rate)
    data = bytearray()
    for f in range(frames_):
        for m in range(markers):
            data += struct.pack("<4f", *points[f, m], 0.0)
        data += analogs[:, f * per_frame:(f + 1) * per_frame].T.astype("<f4").tobytes()
    return bytes(header) + params + bytes(data) + bytes(-len(data) % 512)


def split(values, first=255):
    """NAME's values and NAME2's, as a file lists more than 255."""
    return {"": values[:first], "2": values[first:]}
