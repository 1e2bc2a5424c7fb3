"""A structural check of a C3D file before ezc3d reads it.

ezc3d trusts the file's own sizes: a truncated or corrupted file can make it read past its
buffers and crash the interpreter. This walks the header and the parameter section with every
offset bounds-checked (the layout of the C3D User Guide, Motion Lab Systems) and checks that
the data section is as long as the header says, so that only a well-formed file reaches ezc3d.
It decodes no value beyond the few integers it needs.
"""
from __future__ import annotations

import os
import struct

from ..trajectory import MotionError

_BLOCK = 512
_INTEL, _DEC, _MIPS = 84, 85, 86


def check_c3d(path):
    """Raise MotionError naming the file and the fault unless its structure is sound.

    Returns a warning (str) when the data section is shorter than the header's frame count
    (ezc3d then reads the frames that are there, as some systems write such files), else
    None."""
    source = os.fspath(path)
    with open(source, "rb") as f:
        data = f.read()
    size = len(data)

    def fail(why):
        raise MotionError(f"{source}: not a readable C3D file: {why}; is it truncated or "
                          "corrupted? (re-export it from the capture software)")

    if size < 2 * _BLOCK:
        fail(f"{size} bytes, shorter than a header and a parameter block")
    first_param, key = data[0], data[1]
    if key != 0x50:
        fail("byte 2 of the header is not the C3D key 0x50")
    if first_param < 2:
        fail(f"the header puts the parameters at block {first_param}")
    pstart = (first_param - 1) * _BLOCK
    if pstart + 4 > size:
        fail(f"the parameter section (block {first_param}) is beyond the end of the file")
    nblocks, proc = data[pstart + 2], data[pstart + 3]
    if proc not in (_INTEL, _DEC, _MIPS):
        fail(f"unknown processor type {proc} in the parameter section")
    end = "<" if proc != _MIPS else ">"
    pend = pstart + max(1, nblocks) * _BLOCK
    if pend > size:
        fail(f"the parameter section ({nblocks} blocks) runs past the end of the file")
    words = struct.unpack(end + "256h", data[:_BLOCK])
    points, analog_per_frame = words[1] & 0xFFFF, words[2] & 0xFFFF
    first, last = words[3] & 0xFFFF, words[4] & 0xFFFF
    # only the sign of the scale matters (negative: float data); a DEC float is an IEEE one
    # with its 16-bit halves swapped, up to a factor 4
    scale_bytes = data[12:16] if proc != _DEC else data[14:16] + data[12:14]
    scale = struct.unpack(end + "f", scale_bytes)[0]
    data_block = words[8] & 0xFFFF
    # walk the parameter records: each offset must land inside the section
    groups, found = {}, {}
    pos = pstart + 4
    while pos + 2 <= pend:
        nlen = struct.unpack("b", data[pos:pos + 1])[0]
        if nlen == 0:
            break
        gid = struct.unpack("b", data[pos + 1:pos + 2])[0]
        nlen = abs(nlen)
        q = pos + 2 + nlen
        if q + 2 > pend:
            fail(f"a parameter record at byte {pos} runs past its section")
        name = data[pos + 2:q].decode("latin-1").strip().upper()
        (offset,) = struct.unpack(end + "h", data[q:q + 2])
        if gid < 0:
            groups[-gid] = name
        elif gid > 0:                                   # a parameter: type, dims, data
            r = q + 2
            if r + 2 > pend:
                fail(f"parameter record at byte {pos} is cut")
            ptype, ndim = struct.unpack("bb", data[r:r + 2])
            if ptype not in (-1, 1, 2, 4) or not 0 <= ndim <= 7 or r + 2 + ndim > pend:
                fail(f"parameter {name} has type {ptype} and {ndim} dimensions")
            dims = list(data[r + 2:r + 2 + ndim])
            n = 1
            for d in dims:
                n *= d
            if r + 2 + ndim + abs(ptype) * n + 1 > pend:
                fail(f"the values of parameter {name} run past the parameter section")
            head = data[r + 2 + ndim:r + 2 + ndim + abs(ptype)] if n else b""
            found[(gid, name)] = (ptype, dims, n, head)
        if offset == 0:
            break
        if offset < 0 or q + offset <= pos:
            fail(f"parameter record at byte {pos} points backwards")
        pos = q + offset
    params = {(groups.get(g, "?"), name): v for (g, name), v in found.items()}
    _check_types(params, end, fail)
    if points or analog_per_frame:
        if last < first:
            return      # more than 65535 frames: the parameters count them (ezc3d reads them)
        if data_block < 2:
            fail(f"the header puts the data at block {data_block}")
        width = 4 if scale < 0 else 2
        frame = (4 * points + analog_per_frame) * width
        need = (data_block - 1) * _BLOCK + (last - first + 1) * frame
        if need > size:
            got = max(0, (size - (data_block - 1) * _BLOCK) // frame) if frame else 0
            return (f"{source}: the header announces {last - first + 1} frames but the file "
                    f"holds {got}: it is truncated (or its header is wrong); the {got} frames "
                    "were read")
    return None


#: Parameters ezc3d reads as numbers (it indexes their values without checking their type).
_NUMERIC = {("POINT", x) for x in ("USED", "SCALE", "RATE", "FRAMES", "DATA_START")} | \
    {("ANALOG", x) for x in ("USED", "RATE", "GEN_SCALE", "SCALE", "OFFSET", "BITS")} | \
    {("FORCE_PLATFORM", x) for x in ("USED", "TYPE", "CHANNEL", "CORNERS", "ORIGIN",
                                     "CAL_MATRIX", "ZERO", "FPCOPPOLY")} | \
    {("TRIAL", "ACTUAL_START_FIELD"), ("TRIAL", "ACTUAL_END_FIELD"), ("EVENT", "USED"),
     ("EVENT", "TIMES"), ("EVENT", "STATUS")}
#: ... and as text. Only these: ezc3d reads every other parameter whatever its type (Vicon
#: Nexus stores EVENT:ICON_IDS as integers, the standard says text), and so does read_c3d.
_TEXT = {(g, x) for g in ("POINT", "ANALOG") for x in ("LABELS", "DESCRIPTIONS", "UNITS")}


def _check_types(params, end, fail):
    """Every parameter ezc3d reads as a number is a number (and the reverse), and the
    per-channel analog parameters cover the channels."""
    for key, (ptype, dims, n, _) in params.items():
        if key in _NUMERIC and ptype == -1:
            fail(f"parameter {key[0]}:{key[1]} is text where a number is expected")
        if key in _TEXT and ptype != -1 and n:
            fail(f"parameter {key[0]}:{key[1]} is a number where text is expected")
        if key in _NUMERIC and ptype != -1 and len(dims) > 0 and n == 0 and key[1] in (
                "USED", "SCALE", "RATE", "GEN_SCALE") and key[0] != "ANALOG":
            fail(f"parameter {key[0]}:{key[1]} has no value")

    def count(group):
        v = params.get((group, "USED"))
        if v is None or not v[3]:
            return 0
        fmt = {1: "b", 2: "h", 4: "f"}[abs(v[0])]
        return int(abs(struct.unpack(end + fmt, v[3])[0])) if v[0] != 4 else 0

    analogs = count("ANALOG")
    for name in ("SCALE", "OFFSET"):
        v = params.get(("ANALOG", name))
        if analogs and v is not None and v[2] and v[2] < analogs:
            fail(f"parameter ANALOG:{name} has {v[2]} values for {analogs} channels")
