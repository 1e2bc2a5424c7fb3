"""Cut a vendor's C3D file to a window of its frames, keeping every other byte as written.

The vendor's header and parameter section are what the tests are about (each exporter has
its own habits: parameter types, group order, byte order, padding), so nothing is rewritten
through a C3D library: only the frames outside the window are dropped and the three numbers
that count frames follow (header words 4 and 5, the first and last frame; POINT:FRAMES),
so event times and frame numbers keep their meaning; Vicon's TRIAL:ACTUAL_START_FIELD and
ACTUAL_END_FIELD, when present, follow the header; a ROTATION section (Theia3D's segment
poses) is cut to the same frames and its ROTATION:DATA_START follows it. Intel and DEC files
(little-endian integers), as every file trimmed here is.

    python trim_c3d.py SOURCE.c3d FIRST LAST OUT.c3d    # FIRST, LAST: 0-based, inclusive
"""
import struct
import sys
from pathlib import Path

BLOCK = 512


def _parameters(data):
    """{(GROUP, NAME): (byte offset of its value, type)} of the parameter section."""
    start = (data[0] - 1) * BLOCK
    end = start + data[start + 2] * BLOCK
    pos, groups, found = start + 4, {}, {}
    while pos + 2 <= end:
        nlen, gid = struct.unpack("bb", data[pos:pos + 2])
        if nlen == 0:
            break
        q = pos + 2 + abs(nlen)
        name = data[pos + 2:q].decode("latin-1").upper()
        (offset,) = struct.unpack("<h", data[q:q + 2])
        if gid < 0:
            groups[-gid] = name
        else:
            ptype, ndim = struct.unpack("bb", data[q + 2:q + 4])
            found[(gid, name)] = (q + 4 + ndim, ptype)
        if offset == 0:
            break
        pos = q + offset
    return {(groups.get(g, "?"), name): v for (g, name), v in found.items()}


def trim(source, first, last, out):
    data = bytearray(Path(source).read_bytes())
    words = struct.unpack("<256h", data[:BLOCK])
    points, analog = words[1], words[2]
    scale = struct.unpack("<f", data[12:16])[0] if data[(data[0] - 1) * BLOCK + 3] == 84 else \
        struct.unpack("<f", data[14:16] + data[12:14])[0]
    width = 4 if scale < 0 else 2
    frame = (4 * points + analog) * width
    begin = (words[8] - 1) * BLOCK
    nframes = last - first + 1
    body = data[begin + first * frame:begin + (last + 1) * frame]
    assert len(body) == nframes * frame, "the window runs past the file's frames"
    body += bytes(-len(body) % BLOCK)
    f0 = (words[3] & 0xFFFF) + first
    struct.pack_into("<HH", data, 6, f0, f0 + nframes - 1)
    params = _parameters(data)
    if ("POINT", "FRAMES") in params:        # Kistler's analog-only files have none
        at, ptype = params[("POINT", "FRAMES")]
        if ptype == 4:
            struct.pack_into("<f", data, at, float(nframes))
        else:
            struct.pack_into("<H", data, at, nframes)
    for name, value in (("ACTUAL_START_FIELD", f0), ("ACTUAL_END_FIELD", f0 + nframes - 1)):
        if ("TRIAL", name) in params:       # two 16-bit words, low first
            at, ptype = params[("TRIAL", name)]
            assert ptype == 2
            struct.pack_into("<HH", data, at, value & 0xFFFF, value >> 16)
    if ("ROTATION", "DATA_START") in params:     # a section of its own (Theia3D's poses)
        body += _rotations(data, params, first, last, words[8] + len(body) // BLOCK)
    with open(out, "wb") as f:
        f.write(bytes(data[:begin]) + bytes(body))


def _rotations(data, params, first, last, block):
    """The window of the ROTATION section (a frame: USED x RATIO 4x4 float matrices and a
    reliability each, 17 floats), padded to a block; its DATA_START set to block, where it
    follows the points in the cut file."""
    def value(name, fmt):
        at, _ = params[("ROTATION", name)]
        return struct.unpack_from("<" + fmt, data, at)[0]
    at, _ = params[("ROTATION", "DATA_START")]
    start = (value("DATA_START", "H") - 1) * BLOCK
    frame = value("USED", "H") * value("RATIO", "H") * 17 * 4
    section = data[start + first * frame:start + (last + 1) * frame]
    assert len(section) == (last - first + 1) * frame, "the window runs past the rotations"
    struct.pack_into("<H", data, at, block)
    return section + bytes(-len(section) % BLOCK)


if __name__ == "__main__":
    trim(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
