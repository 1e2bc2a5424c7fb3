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
    pos = pstart + 4
    while pos + 2 <= pend:
        nlen = struct.unpack("b", data[pos:pos + 1])[0]
        if nlen == 0:
            break
        group = struct.unpack("b", data[pos + 1:pos + 2])[0]
        nlen = abs(nlen)
        q = pos + 2 + nlen
        if q + 2 > pend:
            fail(f"a parameter record at byte {pos} runs past its section")
        (offset,) = struct.unpack(end + "h", data[q:q + 2])
        if group > 0:                                   # a parameter: type, dims, data
            r = q + 2
            if r + 2 > pend:
                fail(f"parameter record at byte {pos} is cut")
            ptype, ndim = struct.unpack("bb", data[r:r + 2])
            if ptype not in (-1, 1, 2, 4) or not 0 <= ndim <= 7 or r + 2 + ndim > pend:
                fail(f"parameter record at byte {pos} has type {ptype} and {ndim} dimensions")
            n = abs(ptype)
            for d in data[r + 2:r + 2 + ndim]:
                n *= d
            if r + 2 + ndim + n + 1 > pend:
                fail(f"the values of the parameter at byte {pos} run past its section")
        if offset == 0:
            break
        if offset < 0 or q + offset <= pos:
            fail(f"parameter record at byte {pos} points backwards")
        pos = q + offset
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
