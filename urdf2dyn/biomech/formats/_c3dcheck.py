"""A structural check of a C3D file before ezc3d reads it.

ezc3d trusts the file's own sizes and counts: a truncated or corrupted file can make it read
through an empty list, allocate gigabytes or crash. This walks the header and the parameter
section with every offset bounds-checked (the layout of the C3D User Guide, Motion Lab
Systems), checks what ezc3d's C++ reads without checking (a description length it reads as
negative, text without dimensions, counts and rates without a value, analog scales and offsets
for every channel, a frame that fits the file) and names the fault. It is the first line: ezc3d
itself runs in a process of its own (``_c3dread``), so what this misses cannot crash the
caller. It decodes no value beyond the few numbers it needs.
"""
from __future__ import annotations

import math
import os
import struct
from dataclasses import dataclass, field

from ..trajectory import MotionError

_BLOCK = 512
_INTEL, _DEC, _MIPS = 84, 85, 86


def check_c3d(path, absent=None):
    """Raise MotionError naming the file and the fault unless its structure is sound.

    Returns a warning (str) when the data section is shorter than the header's frame count
    (ezc3d then reads the frames that are there, as some systems write such files), else
    None. absent: a list to which the names of ANALOG:SCALE and ANALOG:OFFSET are appended
    where the file has none at all for its channels (its markers can still be read, from a
    copy made by with_neutral_calibration); without a list such a file is refused. "RATE"
    and "POINT:SCALE" are appended too where the file lacks ANALOG:RATE or POINT:SCALE, which
    the copy takes from the header (ezc3d would lay the frames out wrong without them)."""
    source = os.fspath(path)
    with open(source, "rb") as f:
        data = f.read()
    size = len(data)

    fail = _refuse(source)
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
    if proc == _MIPS:
        raise MotionError(f"{source}: written in the SGI/MIPS byte order (processor type 86), "
                          "which ezc3d does not read: convert it to the PC (Intel) order with "
                          "the capture software or a C3D editor, then read that copy")
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
    records = _records(data, pstart, fail)
    groups = {-r.gid: r.name for r in records if r.gid < 0}
    found = {(r.gid, r.name): (r.ptype, r.dims, r.n, r.head) for r in records if r.gid > 0}
    params = {(groups.get(g, "?"), name): v for (g, name), v in found.items()}
    _check_types(params, end, fail, set(groups.values()), absent)
    stored = (points, analog_per_frame, first, last, size - (data_block - 1) * _BLOCK)
    scale = _data_format(params, end, proc, scale, absent, source, stored)
    _check_layout(params, end, proc, (points, analog_per_frame, first, last, scale),
                  size - (data_block - 1) * _BLOCK, fail)
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


@dataclass
class _Record:
    """One record of the parameter section: its group id (negative for a group), name, the
    byte of its offset field (link), and for a parameter its type, dimensions, number of
    values, the byte its values start at and their first value's bytes (head)."""
    gid: int
    name: str
    link: int
    end: int                          # the byte after its description
    ptype: int = 0
    dims: list = field(default_factory=list)
    n: int = 0
    at: int = 0
    head: bytes = b""


def _records(data, pstart, fail):
    """The parameter records in file order, each offset bounds-checked (fail(why) on a fault):
    the one walk of the parameter section, for the check and for the copy with neutral
    calibration alike. ezc3d reads on past the section's declared blocks (as Peak
    Performance's files need), so the walk ends at the first zero-length name or zero offset,
    not at the declared end."""
    size, pos, out = len(data), pstart + 4, []
    while pos + 2 <= size:
        nlen = struct.unpack("b", data[pos:pos + 1])[0]
        if nlen == 0:
            break
        gid = struct.unpack("b", data[pos + 1:pos + 2])[0]
        q = pos + 2 + abs(nlen)
        if q + 3 > size:
            fail(f"a parameter record at byte {pos} runs past the end of the file")
        name = data[pos + 2:q].decode("latin-1").strip().upper()
        (offset,) = struct.unpack("<h", data[q:q + 2])
        record = _Record(gid, name, q, q + 3)
        if gid < 0:
            desc = q + 2
        elif gid > 0:
            desc = _parameter_values(data, record, pos, fail)
        else:
            desc = None
        # a negative length is read as 4 GB by ezc3d (the description is read as unsigned)
        if desc is not None:
            if data[desc] > 127:
                fail(f"the description of {'group' if gid < 0 else 'parameter'} {name} is "
                     f"{data[desc]} characters long, which ezc3d reads as a negative length "
                     "(above 127)")
            record.end = desc + 1 + data[desc]
        out.append(record)
        if offset == 0:
            break
        if offset < 0 or q + offset <= pos:
            fail(f"parameter record at byte {pos} points backwards")
        pos = q + offset
    return out


def _parameter_values(data, record, pos, fail):
    """Fill in a parameter record's type, dimensions and values (checked to be in the file);
    returns the byte of its description's length."""
    size, name, r = len(data), record.name, record.link + 2
    if r + 2 > size:
        fail(f"parameter record at byte {pos} is cut")
    ptype, ndim = struct.unpack("bb", data[r:r + 2])
    if ptype not in (-1, 1, 2, 4) or not 0 <= ndim <= 7 or r + 2 + ndim > size:
        fail(f"parameter {name} has type {ptype} and {ndim} dimensions")
    if ptype == -1 and ndim == 0:               # ezc3d indexes its first dimension
        fail(f"parameter {name} is text without dimensions")
    dims = list(data[r + 2:r + 2 + ndim])
    n, walk = 1, 1
    for d in dims:
        n *= d
        walk = max(walk, n)
    if n == 0 and walk > 65536:     # ezc3d loops over the dimensions before the 0
        fail(f"parameter {name} has dimensions {dims}: no value, but {walk} "
             "combinations of its dimensions before the 0")
    at = r + 2 + ndim
    desc = at + abs(ptype) * n
    if desc + 1 > size:
        fail(f"the values of parameter {name} run past the end of the file")
    record.ptype, record.dims, record.n, record.at = ptype, dims, n, at
    record.head = data[at:at + abs(ptype)] if n else b""
    return desc


#: Parameters ezc3d's C++ reads as numbers. Only these: the others (FORCE_PLATFORM, EVENT, ...)
#: it hands over whatever their type, and read_c3d reads them leniently.
_NUMERIC = {("POINT", x) for x in ("USED", "SCALE", "RATE", "FRAMES")} | \
    {("ANALOG", x) for x in ("USED", "RATE", "GEN_SCALE", "SCALE", "OFFSET")} | \
    {("ROTATION", x) for x in ("USED", "DATA_START", "RATE", "RATIO")} | \
    {("TRIAL", "ACTUAL_START_FIELD"), ("TRIAL", "ACTUAL_END_FIELD")}
#: ... and their first value, without checking there is one.
_ONE_VALUE = {("POINT", x) for x in ("USED", "SCALE", "RATE", "FRAMES")} | \
    {("ANALOG", x) for x in ("USED", "RATE", "GEN_SCALE")} | \
    {("ROTATION", x) for x in ("USED", "DATA_START", "RATE", "RATIO")}
#: ... and as text. Only these: ezc3d reads every other parameter whatever its type (Vicon
#: Nexus stores EVENT:ICON_IDS as integers, the standard says text), and so does read_c3d.
_TEXT = {(g, x) for g in ("POINT", "ANALOG") for x in ("LABELS", "DESCRIPTIONS", "UNITS")}


def _data_format(params, end, proc, header_scale, absent, source, stored):
    """The scale whose sign says whether the data are floats: POINT:SCALE's (the C3D User
    Guide's one flag, "the sign of the POINT:SCALE parameter"), the header's where the file has
    none. ezc3d reads points by the parameter and analog samples by the header, so a file
    whose two signs disagree is refused (the c3d package refuses it too; BTK keeps the
    header's and warns; the Guide calls the header's a copy that "should always be identical"
    and says no more), saying which of the two the data section's size fits (stored: the
    header's markers, analog values per frame, first and last frame, and the bytes from the
    data block to the end of the file), so that the user knows which one to fix. Appends to
    absent
    (a list) the parameters ezc3d needs to lay the frames out that the file lacks, to be taken
    from the header: "POINT:SCALE" where there are markers, "RATE" (ANALOG:RATE) where there
    are analog channels."""
    v = params.get(("POINT", "SCALE"))
    scale = _value(v, end, proc) if v is not None else None
    if scale is not None and math.isfinite(scale) and (scale < 0) != (header_scale < 0):
        def kind(x):
            return "floats" if x < 0 else "integers"
        raise MotionError(f"{source}: the header's scale factor {header_scale:.6g} "
                          f"({kind(header_scale)}) and POINT:SCALE {scale:.6g} ({kind(scale)}) "
                          "disagree on how the data are stored (the C3D User Guide makes "
                          "POINT:SCALE's sign the flag, the header holding a copy; ezc3d would "
                          "read the markers by one and the analog samples by the other). "
                          f"{_fitting_storage(stored, header_scale, scale)}; make them agree "
                          "with a C3D editor, or re-export the trial")
    if absent is not None:
        def used(group):
            u = params.get((group, "USED"))
            x = _value(u, end, proc) if u is not None else None
            return x is not None and math.isfinite(x) and x >= 1
        if used("POINT") and ("POINT", "SCALE") not in params:
            absent.append("POINT:SCALE")
        if used("ANALOG") and ("ANALOG", "RATE") not in params:
            absent.append("RATE")
    return header_scale if scale is None else scale


def _fitting_storage(stored, header_scale, scale):
    """Which of the two disagreeing scales the data section's size fits, as a sentence: the
    header's frames at 2 bytes a value (integers) or 4 (floats), the unused rest under a
    block (the section is padded to whole blocks). A file cut short, or one with blocks after
    its frames, fits neither and is said to; so is a short trial whose frames end within the
    same block either way, which fits both."""
    points, analog_per_frame, first, last, available = stored
    frames = last - first + 1
    values = (4 * points + analog_per_frame) * frames
    if frames < 1 or values == 0:
        return ("The header counts no frames of data (or more than 65535), so which is right "
                "cannot be told from the data section's size")
    fits = [width for width in (2, 4) if 0 <= available - values * width < _BLOCK]
    if len(fits) != 1:
        fitted = ("fits neither storage exactly" if not fits else
                  "fits both storages (its frames end within the same padded block either way)")
        return (f"The data section ({available} bytes for the header's {frames} frames of "
                f"{values // frames} values) {fitted}, so which is right cannot be told from "
                "the file")
    floats = fits[0] == 4
    wrong = ("the header's" if (header_scale < 0) != floats else "POINT:SCALE's") + " sign"
    return (f"The data section ({available} bytes for the header's {frames} frames of "
            f"{values // frames} values) fits {'floats' if floats else 'integers'} "
            f"({fits[0]} bytes a value): {wrong} is probably the wrong one; set both to "
            f"{scale if (scale < 0) == floats else header_scale:.6g}")


def _value(v, end, proc):
    """The first value of a numeric parameter record (ptype, dims, n, first bytes), or None."""
    ptype, _, n, head = v
    if ptype == -1 or not n or len(head) < abs(ptype):
        return None
    if ptype == 4:
        if proc == _DEC:          # a DEC float: IEEE with its 16-bit halves swapped, times 4
            return struct.unpack("<f", head[2:4] + head[0:2])[0] / 4.0
        return struct.unpack(end + "f", head)[0]
    return struct.unpack(end + {1: "b", 2: "h"}[ptype], head)[0]


def _check_layout(params, end, proc, header, available, fail):
    """One frame as ezc3d will read it fits the file.

    ezc3d lays a frame out from the parameters, not the header (POINT:USED markers, ANALOG:USED
    channels times ANALOG:RATE / POINT:RATE samples; the header's analog count where
    POINT:RATE is 0) and reads frames until the file ends, value by value: a corrupted rate
    or count makes one frame of millions of values, each allocated and read past the end
    (minutes, gigabytes). Refused when one frame is larger than twice the file's data."""
    points, analog_per_frame = header[0], header[1]

    def get(group, name, default):
        v = params.get((group, name))
        x = _value(v, end, proc) if v is not None else None
        return default if x is None else x

    npoints, channels = get("POINT", "USED", 0), get("ANALOG", "USED", 0)
    for name, used in (("POINT:USED", npoints), ("ANALOG:USED", channels)):
        # a float USED holding NaN or infinity compares false with everything below: it
        # would pass as no count at all (and skip the checks that need one)
        if not math.isfinite(used):
            fail(f"{name} is {used:g}, which is not a count (set the file's number of "
                 f"{'markers' if name.startswith('POINT') else 'analog channels'} there)")
    prate, arate = get("POINT", "RATE", 0.0), get("ANALOG", "RATE", 0.0)
    if npoints < 0 or channels < 0:
        fail(f"POINT:USED {npoints} or ANALOG:USED {channels} is negative")
    if prate and channels:
        ratio = arate / prate
        if not math.isfinite(ratio) or ratio < 0:
            fail(f"ANALOG:RATE {arate:g} and POINT:RATE {prate:g} give {ratio:g} analog "
                 "samples per frame")
        per_frame = int(ratio) * channels
    else:
        per_frame = analog_per_frame
    frame = (4 * npoints + per_frame) * 2          # 2 bytes a value at least
    if frame > 2 * max(0, available) + 65536:
        fail(f"ANALOG:RATE {arate:g}, POINT:RATE {prate:g}, ANALOG:USED {channels} and "
             f"POINT:USED {npoints} make one frame {frame} bytes long at least, but the file "
             f"holds {max(0, available)} bytes of data")
    if ("ROTATION", "USED") in params:     # a frame's rotations: RATIO (or RATE / POINT:RATE)
        used = get("ROTATION", "USED", 0)  # subframes of USED 4x4 matrices and a reliability
        ratio = get("ROTATION", "RATIO", None)
        if ratio is None:
            rate = get("ROTATION", "RATE", 0.0)
            ratio = rate / prate if prate else 0.0
        if not math.isfinite(ratio) or not 0 <= ratio <= 10000 or used < 0:
            # ezc3d makes RATIO subframes a frame, even of no rotation
            fail(f"ROTATION:USED {used} and ROTATION:RATIO (or RATE) {ratio:g} are not counts "
                 "of rotations a frame")
        rotations = used * int(ratio) * 17 * 4
        if rotations > 2 * max(0, available) + 65536:
            fail(f"ROTATION:USED {used} and ROTATION:RATIO (or RATE) {ratio:g} make one frame's "
                 f"rotations {rotations} bytes long, but the file holds {max(0, available)} "
                 "bytes of data")


def _check_types(params, end, fail, groups=(), absent=None):
    """Every parameter ezc3d reads as a number is a number (and the reverse), and the
    per-channel analog parameters cover the channels (or, with absent a list, are named in
    it where the file has none at all)."""
    for key, (ptype, dims, n, _) in params.items():
        if key in _NUMERIC and ptype == -1:
            fail(f"parameter {key[0]}:{key[1]} is text where a number is expected")
        if key in _TEXT and ptype != -1 and n:
            fail(f"parameter {key[0]}:{key[1]} is a number where text is expected")
        if key in _ONE_VALUE and ptype != -1 and n == 0:     # ezc3d reads value 0, unchecked
            fail(f"parameter {key[0]}:{key[1]} has no value")

    def count(group):
        v = params.get((group, "USED"))
        if v is None or not v[3]:
            return 0
        fmt = {1: "b", 2: "h", 4: "f"}[abs(v[0])]
        return int(abs(struct.unpack(end + fmt, v[3])[0])) if v[0] != 4 else 0

    analogs = count("ANALOG")
    # Motion Workshop's Shadow writes neither, and ezc3d, knowing it, gives every channel
    # scale 1 and offset 0 when the file has a SHADOW group (read_c3d then leaves the channels
    # unused, the calibration being unknown); in any other file it reads past an empty list,
    # so where the caller asks (absent), it reads a copy with them added instead
    shadow = "SHADOW" in groups
    for name in ("SCALE", "OFFSET"):       # ezc3d takes channel k's from value k, unchecked
        values = sum(params[("ANALOG", x)][2] for x in [name] + [f"{name}{i}" for i in
                     range(2, 100)] if ("ANALOG", x) in params)
        if shadow and values == 0:
            continue
        if analogs and values < analogs and absent is not None:
            absent.append(name)           # the copy completes the list (read_c3d names them)
            continue
        if analogs and values < analogs:
            where = ("is missing from the ANALOG group" if ("ANALOG", name) not in params
                     else f"has {values} values")
            fail(f"parameter ANALOG:{name} {where} for {analogs} analog channels")



def with_neutral_calibration(path, absent):
    """The bytes of a copy of the C3D file at path (one check_c3d passed) with the parameters
    named in absent (check_c3d's) added, and the names of what was added:

    * "SCALE", "OFFSET": ANALOG:SCALE 1 and ANALOG:OFFSET 0 for every channel. ezc3d would
      take each channel's from an empty list. These are not the file's values: the caller
      removes them from what ezc3d read and leaves the channels unused.
    * "RATE": ANALOG:RATE, the header's analog samples a frame (word 10, "the number of
      analog measurements per 3D frame" of the User Guide's analog data storage) times
      POINT:RATE (the header's frame rate where that is 0), as the c3d package reads such a
      file. ezc3d lays the frames out from
      ANALOG:RATE alone: without it, with no analog sample, and the markers after the first
      frame are read from the analog bytes. This is the file's own rate.
    * "POINT:SCALE": the header's scale factor, its copy of POINT:SCALE (the c3d package reads
      it so). ezc3d takes -1 (floats) without the parameter, and misreads an integer file.

    The parameter records are appended after the last one, and the data section moved to the
    first block after them (the header's data block and any POINT or ROTATION DATA_START
    follow it)."""
    source = os.fspath(path)
    with open(source, "rb") as f:
        data = f.read()
    pstart = (data[0] - 1) * _BLOCK
    proc = data[pstart + 3]
    records = _records(data, pstart, _refuse(source))
    groups = {-r.gid: r.name for r in records if r.gid < 0}
    values = {(r.gid, r.name): (r.ptype, r.at, r.n) for r in records if r.gid > 0}
    last = (records[-1].link, records[-1].end)           # its offset field, its end
    added = []                                           # (group id, name, type, values)
    if "POINT:SCALE" in absent:
        point = next(g for g, n in groups.items() if n == "POINT")
        added.append((point, "SCALE", 4, [_header_scale(data, proc)]))
    if any(name in absent for name in ("SCALE", "OFFSET", "RATE")):
        added += _analog_additions(data, groups, values, absent, proc, source)
    records = b"".join(_record(name, gid, ptype, vals, proc, k == len(added) - 1, source)
                       for k, (gid, name, ptype, vals) in enumerate(added))
    q, end = last
    params = bytearray(data[pstart:end]) + records
    struct.pack_into("<h", params, q - pstart, end - q)     # the last record: on to ours
    params += bytes(-len(params) % _BLOCK)
    old_block = struct.unpack("<H", data[16:18])[0]
    new_block = (pstart + len(params)) // _BLOCK + 1
    params[2] = min(255, len(params) // _BLOCK)
    for (gid, name), (ptype, at, _) in values.items():      # block numbers: follow the data
        if name == "DATA_START" and groups.get(gid) in ("POINT", "ROTATION") and ptype == 2:
            block = struct.unpack_from("<H", params, at - pstart)[0]
            struct.pack_into("<H", params, at - pstart, (block + new_block - old_block) & 0xFFFF)
    header = bytearray(data[:pstart])
    struct.pack_into("<H", header, 16, new_block)
    named = [("POINT:" if groups[gid] == "POINT" else "") + name for gid, name, _, _ in added]
    return bytes(header + params) + data[(old_block - 1) * _BLOCK:], named


def _analog_additions(data, groups, values, absent, proc, source):
    """The ANALOG records with_neutral_calibration adds, as (group id, name, type, values):
    neutral SCALE and OFFSET where absent names them, and RATE where the file has none."""
    # the ANALOG group whose USED check_c3d counted (a name may be given to two group ids)
    analog = next(g for g, n in groups.items() if n == "ANALOG" and (g, "USED") in values)
    point = next((g for g, n in groups.items() if n == "POINT" and (g, "RATE") in values), 0)
    channels = _int_value(data, values[(analog, "USED")], proc)
    added = [_neutral_values(name, analog, values, channels)
             for name in absent if name in ("SCALE", "OFFSET")]
    if (analog, "RATE") not in values and channels:
        measurements, samples = struct.unpack("<H", data[4:6])[0], struct.unpack("<H",
                                                                                   data[18:20])[0]
        # an analog-only file may have POINT:RATE 0 (Kistler's): the header's frame rate
        point_rate = (_float_value(data, values.get((point, "RATE")), proc)
                      or _header_rate(data, proc))
        if samples == 0 or samples * channels != measurements or not point_rate > 0:
            raise MotionError(f"{source}: ANALOG:RATE is missing, and the header's "
                              f"{measurements} analog measurements a frame, {samples} samples "
                              f"a frame (words 3 and 10), {channels} channels (ANALOG:USED) "
                              f"and frame rate {point_rate:g} (POINT:RATE, else the header's) "
                              "do not agree on a rate: the frames cannot be laid out to read "
                              "them; re-export the trial from the capture software")
        added.append((analog, "RATE", 4, [point_rate * samples]))
    return added


def _neutral_values(name, analog, values, channels):
    """(group id, name, type, values) of the neutral SCALE (1) or OFFSET (0) for the channels
    the file's NAME, NAME2, ... leave without one: the whole list where it has none, else the
    next continuation (NAME2 after NAME, ...) for the channels after the listed ones, which
    ezc3d appends to the list as it does the file's own continuations."""
    listed, k = 0, 1
    while (analog, name + (str(k) if k > 1 else "")) in values:
        listed += values[(analog, name + (str(k) if k > 1 else ""))][2]
        k += 1
    value = 1.0 if name == "SCALE" else 0
    return (analog, name + (str(k) if k > 1 else ""), 4 if name == "SCALE" else 2,
            [value] * max(0, channels - listed))


def _header_rate(data, proc):
    """The header's frame rate (words 11-12), 0 where it is not a finite number."""
    raw = data[20:24] if proc != _DEC else data[22:24] + data[20:22]
    rate = struct.unpack("<f", raw)[0] / (4.0 if proc == _DEC else 1.0)
    return rate if math.isfinite(rate) else 0.0


def _header_scale(data, proc):
    """The header's scale factor (words 7-8), as a number in the file's float format."""
    raw = data[12:16] if proc != _DEC else data[14:16] + data[12:14]
    scale = struct.unpack("<f", raw)[0]
    return scale / 4.0 if proc == _DEC else scale


def _refuse(source):
    """fail(why) for a walk of source's parameters: a MotionError naming the file."""
    def fail(why):
        raise MotionError(f"{source}: not a readable C3D file: {why}; is it truncated or "
                          "corrupted? (re-export it from the capture software)")
    return fail


def _int_value(data, where, proc):
    """An integer parameter's first value, from (type, position of its values, count)."""
    ptype, at, _ = where
    return abs(int(_value((ptype, [], 1, data[at:at + abs(ptype)]), "<", proc) or 0))


def _float_value(data, where, proc):
    """A numeric parameter's first value as a float (0 where there is none)."""
    if where is None:
        return 0.0
    ptype, at, _ = where
    x = _value((ptype, [], 1, data[at:at + abs(ptype)]), "<", proc)
    return float(x) if x is not None and math.isfinite(x) else 0.0


def _record(name, gid, ptype, vals, proc, last, source):
    """One parameter record: name, group id, offset to the next (0 for the last), type,
    dimensions (up to 255 values a dimension), values, an empty description."""
    n = len(vals)
    dims = [n] if n <= 255 else [255, -(-n // 255)]
    vals = list(vals) + [vals[0] if vals else 0] * (math.prod(dims) - n)
    if ptype == 4:
        blob = b"".join(_float_bytes(v, proc) for v in vals)
    else:
        blob = struct.pack(f"<{len(vals)}h", *(int(v) for v in vals))
    tail = bytes([ptype, len(dims)]) + bytes(dims) + blob + b"\x00"
    if len(tail) + 2 > 32767:
        raise MotionError(f"{source}: its {n} analog channels have no ANALOG:{name}, and "
                          "too many for urdf2dyn to read the markers around them; re-export "
                          "the trial with the analog calibration from the capture software")
    offset = 0 if last else len(tail) + 2
    return bytes([len(name), gid]) + name.encode() + struct.pack("<h", offset) + tail


def _float_bytes(x, proc):
    """x as the file's float: IEEE, or DEC's (IEEE of 4x with its 16-bit halves swapped)."""
    if proc == _DEC:
        b = struct.pack("<f", 4.0 * x)
        return b[2:4] + b[0:2]
    return struct.pack("<f", x)
