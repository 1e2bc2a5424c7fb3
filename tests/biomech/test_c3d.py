"""C3D reading (urdf2dyn.biomech.formats.c3d) against independent oracles.

* the markers and the raw analog channels as read by the pure-Python ``c3d`` package (another
  implementation of the format than ezc3d, which urdf2dyn builds on);
* the force-plate formulas of the C3D User Guide applied here by hand to those raw channels
  (types 1, 2, 3 and 4), written out below independently of the module under test;
* ezc3d's own force-platform module (``extract_forceplat_data``);
* OpenSim reading the .trc and .mot files that ``urdf2dyn convert`` writes.

Data: ezc3d's test files (tests/data/c3d/README.md).
"""
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def read(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return C.read_c3d(path, **kw)


# ----------------------------------------------------------------------------- the oracle

class Raw:
    """A C3D file as the `c3d` package reads it: raw analog counts turned into physical units
    here, by the C3D rule (raw - OFFSET) * SCALE * GEN_SCALE for integer data; data stored as
    floats are taken as they are (as both ezc3d and the c3d package read them)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            r = c3dpkg.Reader(f)
            frames = list(r.read_frames(analog_transform=False))
            self.labels = [x.strip() for x in r.point_labels]
            self.points = np.array([p for _, p, _ in frames])          # (N, M, 5)
            raw = np.concatenate([a for _, _, a in frames], axis=1)      # (C, S)
            n = raw.shape[0]
            scale = np.asarray(r.get("ANALOG:SCALE").float_array, dtype=float)[:n]
            offset = np.asarray(r.get("ANALOG:OFFSET").int16_array, dtype=float)[:n]
            if r.point_scale < 0:          # float storage
                self.analog = raw
            else:
                gen = r.get("ANALOG:GEN_SCALE").float_value
                self.analog = (raw - offset[:, None]) * scale[:, None] * gen
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
    ex = corners[0] - corners[1]
    ey = corners[0] - corners[3]
    ez = np.cross(ex, ey)
    ey = np.cross(ez, ex)
    R = np.column_stack([v / np.linalg.norm(v) for v in (ex, ey, ez)])
    return (R @ F).T, (R @ cop).T + corners.mean(axis=0), (tz[:, None] * R[:, 2])


# ----------------------------------------------------------------------------- markers

@pytest.mark.parametrize("path", [QUALISYS, TYPE1, TYPE3, VICON])
def test_markers_match_the_c3d_package(path):
    rec = read(path)
    raw = Raw(path)
    mm = 1e-3 if raw.units == "mm" else 1.0
    assert rec.markers.labels[:len(raw.labels)] == raw.labels
    want = raw.points[:, :, :3] * mm
    gone = (raw.points[:, :, 3] < 0) | np.all(raw.points[:, :, :3] == 0, axis=2)
    want[gone] = np.nan
    np.testing.assert_array_equal(np.isnan(rec.markers.xyz), np.isnan(want))
    np.testing.assert_allclose(rec.markers.xyz, want, rtol=1e-6, atol=1e-9, equal_nan=True)
    assert rec.markers.meta["rate"] == pytest.approx(float(c3dpkg.Reader(open(path, "rb")).point_rate))


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
    r = c3dpkg.Reader(open(path, "rb"))
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
    r = c3dpkg.Reader(open(VICON, "rb"))
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


@pytest.mark.parametrize("path", [QUALISYS, TYPE3, VICON])
def test_plates_match_ezc3d_force_platform_module(path):
    rec = read(path, rate="analog")
    ez = ezc3d.c3d(path, extract_forceplat_data=True)["data"]["platform"]
    for p, e in zip(rec.plates, ez):
        on = p.contact
        if not on.any():
            continue
        np.testing.assert_allclose(p.force[on], e["force"].T[on], rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(p.cop[on], e["center_of_pressure"].T[on] / 1000, atol=1e-6)
        tz = (e["Tz"].T[on] / 1000) @ (-p.normal)      # ezc3d: along the plate's z (down)
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
    rec = read(QUALISYS, rotation="x:-90")
    table = osim.TimeSeriesTable(mot)
    labels = list(table.getColumnLabels())
    assert labels[:9] == [f"1_ground_force_v{a}" for a in "xyz"] + \
        [f"1_ground_force_p{a}" for a in "xyz"] + [f"1_ground_torque_{a}" for a in "xyz"]
    assert labels[9].startswith("2_")
    data = table.getMatrix().to_numpy()
    np.testing.assert_allclose(np.array(table.getIndependentColumn()), rec.plates[0].time)
    np.testing.assert_allclose(data[:, 0:3], rec.plates[0].force, rtol=1e-12)
    np.testing.assert_allclose(data[:, 3:6], np.nan_to_num(rec.plates[0].cop), rtol=1e-12)
    np.testing.assert_allclose(data[:, 15:18], rec.plates[1].moment, atol=1e-12)
    # OpenSim's own reader of marker files
    t = osim.TimeSeriesTableVec3(trc)
    assert list(t.getColumnLabels()) == rec.markers.labels
    assert t.getTableMetaDataAsString("Units") == "mm"
    xyz = np.array([[list(t.getRowAtIndex(i)[j].to_numpy()) for j in range(t.getNumColumns())]
                    for i in range(0, t.getNumRows(), 37)]) / 1000
    np.testing.assert_allclose(xyz, rec.markers.xyz[::37], atol=1e-9, equal_nan=True)
    back = read_trc(trc)
    np.testing.assert_allclose(back.xyz, rec.markers.xyz, atol=1e-9, equal_nan=True)


def test_convert_refuses_unknown_outputs(tmp_path, capsys):
    from urdf2dyn.cli import main
    assert main(["convert", QUALISYS, "-o", str(tmp_path / "x.txt")]) == 1
    assert "x.txt: a C3D file converts to .trc (markers) or .mot" in capsys.readouterr().err
    with pytest.raises(ValueError, match="cannot convert a .xyz file"):
        convert("trial.xyz", ["out.trc"])


# ----------------------------------------------------------------------------- hardening

def test_corrupted_plate_calibration_is_named_and_left_out():
    with pytest.warns(Urdf2dynWarning, match=r"FP_Type1.c3d: force plate 2: FORCE_PLATFORM:CORNERS"):
        rec = C.read_c3d(TYPE1)
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
    with pytest.warns(Urdf2dynWarning, match="are they in mm"):
        C.read_c3d(path)


@pytest.mark.parametrize("size", [0, 16, 600, 1500, 5000])
def test_truncated_files_are_refused_or_read_short(tmp_path, size):
    path = tmp_path / "cut.c3d"
    path.write_bytes(open(TYPE3, "rb").read()[:size])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Urdf2dynWarning)
            C.read_c3d(path)
    except (MotionError, Urdf2dynWarning) as e:
        assert "cut.c3d" in str(e)
    else:
        pytest.fail("a truncated file read without a word")


_SMALL = open(TYPE3, "rb").read()      # 9 KB: header, parameters and 2 frames


@settings(max_examples=120, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, len(_SMALL)),
       flips=st.lists(st.tuples(st.integers(0, 2047), st.integers(0, 255)), max_size=8))
def test_mutated_bytes_are_read_or_refused(tmp_path, cut, flips):
    """A real file truncated and with bytes of its header and parameter section changed: read,
    or refused with a MotionError/ValueError naming the file; never a crash (ezc3d alone can
    crash on such files: read_c3d checks their structure first) nor another exception."""
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
        except (MotionError, ValueError) as e:
            assert "mutant.c3d" in str(e)


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rotate=st.one_of(st.none(), st.sampled_from(["x:-90", "y:90,z:45", "x:", "q:9", "x:1e400",
                                                   ",", "x:-90,y"]),
                        st.text(max_size=8)),
       threshold=st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)),
       units=st.sampled_from(["mm", "cm", "m"]),
       suffix=st.sampled_from([".trc", ".mot", ".sto", ".csv", ""]))
def test_convert_options_end_in_a_file_or_a_message(tmp_path, capsys, rotate, threshold, units,
                                                     suffix):
    """Every combination of convert's options: exit 0 with the file written, or exit 1 with
    'urdf2dyn convert: error: ...'; never a traceback."""
    from urdf2dyn.cli import main
    out = tmp_path / f"out{suffix}"
    argv = ["convert", TYPE3, "-o", str(out), "--units", units]
    if rotate is not None:
        argv += [f"--rotate={rotate}"]
    if threshold is not None:
        argv += [f"--threshold={threshold!r}"]
    status = main(argv)
    err = capsys.readouterr().err
    if status == 0:
        assert out.exists()
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
    with pytest.warns(Urdf2dynWarning, match=r"force plate 1: its force points down into the "
                                             r"plate while loaded"):
        C.read_c3d(path)


def test_plates_without_point_units_are_read_in_mm_with_a_warning(tmp_path):
    """FP_Type3 rewritten by ezc3d without markers and without POINT:UNITS (as analog-only
    recordings are): the plates are those of the original file, with a warning naming them."""
    c = ezc3d.c3d(TYPE3)
    c["data"]["points"] = np.zeros((4, 0, 2))
    c["data"]["meta_points"]["residuals"] = np.zeros((1, 0, 2))
    c["data"]["meta_points"]["camera_masks"] = np.zeros((7, 0, 2), dtype=bool)
    c["parameters"]["POINT"]["LABELS"]["value"] = []
    c["parameters"]["POINT"]["UNITS"]["value"] = []
    path = str(tmp_path / "plates_only.c3d")
    c.write(path)
    with pytest.warns(Urdf2dynWarning, match="force plate 1: the file declares no POINT:UNITS"):
        rec = C.read_c3d(path)
    ref = read(TYPE3)
    assert rec.markers.labels == []
    for a, b in zip(rec.plates, ref.plates):
        np.testing.assert_allclose(a.corners, b.corners, rtol=1e-6)
        np.testing.assert_allclose(a.force, b.force, rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(a.cop, b.cop, atol=1e-6, equal_nan=True)
