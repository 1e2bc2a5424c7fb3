"""OpenSim marker files (.trc): read against OpenSim's own reader on OpenSim's published trials,
files written by OpenSim's API read, ours read back by OpenSim, and fuzzed.

Data: opensim-models' Gait2392 subject01_walk1.trc and Hamner's subject02_running.trc
(tests/data/opensim_models/README.md)."""
import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from urdf2dyn import Urdf2dynWarning
from urdf2dyn.biomech.formats import read_trc, write_trc
from urdf2dyn.biomech.markers import Markers, rotation_matrix
from urdf2dyn.biomech.trajectory import MotionError

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "opensim_models")
WALK = os.path.join(DATA, "Gait2392_Simbody", "subject01_walk1.trc")
RUN = os.path.join(DATA, "Hamner", "subject02_running.trc")


def opensim_markers(path):
    """(time, labels, xyz in the file's units) by OpenSim's TimeSeriesTableVec3."""
    osim = pytest.importorskip("opensim")
    t = osim.TimeSeriesTableVec3(path)
    xyz = np.array([[list(t.getRowAtIndex(i)[j].to_numpy()) for j in range(t.getNumColumns())]
                    for i in range(t.getNumRows())])
    return np.array(t.getIndependentColumn()), list(t.getColumnLabels()), xyz, t


@pytest.mark.parametrize("path", [WALK, RUN])
def test_published_trials_match_opensims_reader(path):
    time, labels, xyz, _ = opensim_markers(path)
    m = read_trc(path)
    assert m.labels == labels
    np.testing.assert_allclose(m.time, time, rtol=0, atol=1e-12)
    assert m.meta["units"] == "mm"
    np.testing.assert_allclose(m.xyz, xyz / 1000, rtol=1e-12, atol=1e-12, equal_nan=True)


def test_file_written_by_opensim_is_read(tmp_path):
    osim = pytest.importorskip("opensim")
    _, labels, xyz, table = opensim_markers(WALK)
    # a gap, written by OpenSim itself
    row = table.updRowAtIndex(5)
    row[2] = osim.Vec3(float("nan"), float("nan"), float("nan"))
    path = str(tmp_path / "by_opensim.trc")
    osim.TRCFileAdapter().write(table, path)
    m = read_trc(path)
    assert m.labels == labels
    assert np.all(np.isnan(m.xyz[5, 2]))
    xyz[5, 2] = np.nan
    np.testing.assert_allclose(m.xyz, xyz / 1000, rtol=1e-9, equal_nan=True)


@pytest.mark.parametrize("units", ["mm", "m"])
def test_written_file_is_read_by_opensim(tmp_path, units):
    m = read_trc(WALK)
    m.xyz[3:7, 1] = np.nan                          # a gap: written as empty cells
    path = str(tmp_path / "ours.trc")
    write_trc(path, m, units=units)
    time, labels, xyz, table = opensim_markers(path)
    assert labels == m.labels and table.getTableMetaDataAsString("Units") == units
    np.testing.assert_allclose(time, m.time, atol=1e-6)
    k = 1000.0 if units == "mm" else 1.0
    np.testing.assert_allclose(xyz / k, m.xyz, atol=1e-6 / k * 1.01, equal_nan=True)


def test_header_and_cell_errors_name_the_line(tmp_path):
    text = Path(WALK).read_text().splitlines()
    bad = list(text)
    bad[2] = bad[2].replace("mm", "furlongs")
    p = tmp_path / "units.trc"
    p.write_text("\n".join(bad))
    with pytest.raises(MotionError, match="line 3: Units 'furlongs' is not a length unit"):
        read_trc(p)
    bad = list(text)
    cells = bad[8].split("\t")
    cells[2] = "12a"
    bad[8] = "\t".join(cells)
    p.write_text("\n".join(bad))
    with pytest.raises(MotionError, match="line 9: marker 'R.ASIS' X is not a number: '12a'"):
        read_trc(p)
    bad[8] = "\t".join(cells[:2] + ["1"] * (3 * 41 + 3))
    p.write_text("\n".join(bad))
    with pytest.raises(MotionError, match="line 9: 126 values for 41 markers"):
        read_trc(p)
    p.write_text("hello\n")
    with pytest.raises(MotionError, match="not an OpenSim .trc file"):
        read_trc(p)


def test_wrong_units_are_warned_about(tmp_path):
    text = Path(WALK).read_text().replace("\tmm\t", "\tm\t", 1)
    p = tmp_path / "metres.trc"
    p.write_text(text)
    with pytest.warns(Urdf2dynWarning, match="are they in mm"):
        read_trc(p)
    with pytest.raises(MotionError, match="are they in mm"):
        read_trc(p, strict=True)


def test_rotation_strings():
    r = rotation_matrix("x:-90")
    np.testing.assert_allclose(r @ [0, 0, 1], [0, 1, 0], atol=1e-15)   # z-up lab -> y-up model
    np.testing.assert_allclose(r @ [0, 1, 0], [0, 0, -1], atol=1e-15)
    np.testing.assert_allclose(rotation_matrix("x:-90,y:90") @ [1, 0, 0], [0, 0, -1], atol=1e-15)
    for bad in ("x", "q:90", "x:nan", "x:90,", np.diag([1, 1, -1]), np.ones((2, 2))):
        with pytest.raises(ValueError, match="rotation"):
            rotation_matrix(bad)


# --------------------------------------------- rows and NumFrames that disagree with the data

def _small(tmp_path, rows=None, frames=None, end="\n", name="small.trc"):
    """A 2-marker .trc (A, B; mm) with the given data rows (default: three full frames)."""
    rows = rows if rows is not None else ["1\t0.00\t10\t200\t300\t400\t500\t600",
                                          "2\t0.01\t10\t200\t300\t400\t500\t600",
                                          "3\t0.02\t10\t200\t300\t400\t500\t600"]
    n = len(rows) if frames is None else frames
    text = (f"PathFileType\t4\t(X/Y/Z)\t{name}\n"
            "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\t"
            f"OrigDataStartFrame\tOrigNumFrames\n100\t100\t{n}\t2\tmm\t100\t1\t{n}\n"
            "Frame#\tTime\tA\t\t\tB\t\t\t\n\t\tX1\tY1\tZ1\tX2\tY2\tZ2\t\n\n"
            + "\n".join(rows) + end)
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("frames", [80, 2147483647, 1])
def test_numframes_that_disagree_with_the_rows_are_warned_about(tmp_path, frames):
    """NumFrames was never checked: 80 or 2**31 - 1 declared for 3 rows passed silently."""
    p = _small(tmp_path, frames=frames)
    said = "it may be truncated after line 9" if frames > 3 else "frames after NumFrames"
    with pytest.warns(Urdf2dynWarning, match=rf"small\.trc: the header \(line 3\) says "
                      rf"NumFrames={frames} but the file holds 3 frames \(lines 7-9\).*{said}"):
        m = read_trc(p)
    assert len(m.time) == 3
    with pytest.raises(MotionError, match=f"NumFrames={frames}"):
        read_trc(p, strict=True)


def test_a_row_missing_its_last_markers_cells_is_refused_and_a_gap_is_not(tmp_path):
    short = "2\t0.01\t10\t200\t300"
    with pytest.raises(MotionError, match=r"small\.trc: line 8: 3 of the 6 values of 2 markers "
                       r"\(X Y Z each\); from marker 'B' on the cells are missing: a marker not "
                       r"seen in a frame is written as empty cells"):
        read_trc(_small(tmp_path, rows=["1\t0.00\t10\t200\t300\t400\t500\t600", short,
                                        "3\t0.02\t10\t200\t300\t400\t500\t600"]))
    def read_with_gap(gap):
        m = read_trc(_small(tmp_path, rows=["1\t0.00\t10\t200\t300\t400\t500\t600", gap,
                                            "3\t0.02\t10\t200\t300\t400\t500\t600"]))
        assert np.all(np.isnan(m.xyz[1, 1])) and m.xyz[1, 0].tolist() == [0.01, 0.2, 0.3]

    # a gap as OpenSim writes it: read without a word
    with warnings.catch_warnings():
        warnings.simplefilter("error", Urdf2dynWarning)
        read_with_gap("2\t0.01\t10\t200\t300\t\t\t\t")
    # as urdf2dyn wrote it, without the last tab: read, but OpenSim refuses it, so it warns
    with pytest.warns(Urdf2dynWarning, match=r"small\.trc: line 8: OpenSim 4\.6 refuses the "
                      r"file: its TRCFileAdapter counts 7 cells in this row where Frame#, Time "
                      r"and 2 markers make 8 .* End every row with its last cell and one tab"):
        read_with_gap("2\t0.01\t10\t200\t300\t\t\t")


def test_a_file_truncated_mid_number_is_refused(tmp_path):
    """Cut inside the last row's last number: the partial number was read as a value. The
    header promises more frames and the file ends without a line end."""
    text = Path(WALK).read_text()
    cut = text.index("\n", text.index("\n20\t") + 1) - 3           # in frame 20's last number
    p = tmp_path / "cut.trc"
    p.write_text(text[:cut])
    with pytest.raises(MotionError, match=r"cut\.trc: line 26: the file ends inside this row "
                       r"\(no line end, and NumFrames=151 says more frames follow frame 20\): it "
                       r"is truncated"):
        read_trc(p)
    p.write_text(text[:text.index("\n21\t") + 40])               # inside a row
    with pytest.raises(MotionError, match=r"cut\.trc: line 27: .* from marker '\S+' on the "
                       r"cells are missing: the file ends inside it \(no line end\): it is "
                       r"truncated"):
        read_trc(p)


def test_a_file_without_frames_is_refused(tmp_path):
    for rows, end in (([], ""), ([""], "\n")):
        with pytest.raises(MotionError, match=r"small\.trc: no frames: the header ends at line 5 "
                           r"and no data row follows \(NumFrames=151\)"):
            read_trc(_small(tmp_path, rows=rows, frames=151, end=end))


def test_urdf2dyn_ik_names_the_marker_files_faults(tmp_path, capsys):
    """Through the command line: a truncated marker file is refused naming file and line; a
    NumFrames that promises more is a warning: line and the trial runs."""
    from urdf2dyn import cli
    src = os.path.join(os.path.dirname(__file__), os.pardir, "data", "ik", "gait2392")
    setup = Path(os.path.join(src, "subject01_Setup_IK.xml")).read_text()
    setup = setup.replace("subject01_simbody.osim", os.path.abspath(
        os.path.join(src, "subject01_simbody.osim")))
    setup = setup.replace("<time_range> 0.5 2.5</time_range>", "<time_range>0 0.02</time_range>")
    text = Path(os.path.join(src, "subject01_walk1.trc")).read_text()
    (tmp_path / "Setup_IK.xml").write_text(setup.replace(
        "subject01_walk1.trc", os.fspath(tmp_path / "walk.trc")))
    (tmp_path / "walk.trc").write_text(text[:text.index("\n21\t") + 40])
    argv = ["ik", "--setup", os.fspath(tmp_path / "Setup_IK.xml"), "-o",
            os.fspath(tmp_path / "ik.mot")]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert "walk.trc: line 27:" in err and "it is truncated" in err, err
    (tmp_path / "walk.trc").write_text(text.replace("\t       151\t41", "\t       180\t41", 1))
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "says NumFrames=180 but the file holds 151 frames" in err, err


def test_every_file_we_write_is_read_by_opensim(tmp_path, osim):
    """Gaps in the first and the last marker, a frame with every marker missing, one marker
    never seen: OpenSim 4.6 reads the file (TRCFileAdapter, and MarkerData, the reader of its
    IK and Scale tools) with the gaps as NaN; before, a gap in the last marker left a row
    OpenSim refused ('Unexpected number of columns in line 7')."""
    m = read_trc(WALK)
    m.xyz[0, -1] = np.nan                    # the first data row (line 7), last marker
    m.xyz[3:7, 0] = np.nan
    m.xyz[9] = np.nan
    m.xyz[:, 5] = np.nan
    path = str(tmp_path / "gaps.trc")
    write_trc(path, m)
    time, labels, xyz, _ = opensim_markers(path)
    assert labels == m.labels
    np.testing.assert_allclose(xyz / 1000, m.xyz, atol=1e-9, equal_nan=True)
    md = osim.MarkerData(path)
    assert md.getNumFrames() == len(m.time) and md.getMarkerNames().getSize() == len(m.labels)
    again = read_trc(path)
    np.testing.assert_array_equal(np.isnan(again.xyz), np.isnan(m.xyz))


# ----------------------------------------------------------------------------- fuzzing

# A complete small .trc, 3 of subject01_walk1.trc's markers over its first 4 frames, a gap
# (empty cells, as OpenSim writes one) in frame 3: NumFrames matches the rows, and the file
# ends in a line end, so that the edits below leave a file that reads as often as not.
SMALL = ("PathFileType\t4\t(X/Y/Z)\tsmall.trc\n"
         "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame"
         "\tOrigNumFrames\n"
         "60.00\t60.00\t4\t3\tmm\t60.00\t1\t4\n"
         "Frame#\tTime\tR.ASIS\t\t\tL.ASIS\t\t\tV.Sacral\t\t\n"
         "\t\tX1\tY1\tZ1\tX2\tY2\tZ2\tX3\tY3\tZ3\n"
         "\n"
         "1\t0.000000\t617.247620\t1055.275020\t170.781980\t639.606380\t1044.258420\t-88.909790"
         "\t430.869840\t1051.264650\t29.966750\n"
         "2\t0.017000\t617.998110\t1053.217530\t168.513170\t641.236210\t1042.278560\t-90.932130"
         "\t432.340610\t1050.237430\t26.846790\n"
         "3\t0.033000\t620.292240\t1051.771240\t165.859380\t\t\t"
         "\t434.099430\t1049.341430\t23.819360\n"
         "4\t0.050000\t621.540410\t1050.552120\t163.532500\t646.751040\t1040.356810\t-96.861880"
         "\t436.279940\t1048.707150\t20.952020\n")
_LINES = SMALL.splitlines()
SMALL_XYZ = np.array([[[617.247620, 1055.275020, 170.781980], [639.606380, 1044.258420, -88.909790],
                       [430.869840, 1051.264650, 29.966750]],
                      [[617.998110, 1053.217530, 168.513170], [641.236210, 1042.278560, -90.932130],
                       [432.340610, 1050.237430, 26.846790]],
                      [[620.292240, 1051.771240, 165.859380], [np.nan] * 3,
                       [434.099430, 1049.341430, 23.819360]],
                      [[621.540410, 1050.552120, 163.532500], [646.751040, 1040.356810, -96.861880],
                       [436.279940, 1048.707150, 20.952020]]]) / 1000


@settings(max_examples=150, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, len(_LINES) - 1), st.integers(0, 120),
                                st.text(max_size=6)), max_size=3),
       cut=st.integers(0, len(_LINES)))
@example(edits=[], cut=0)                                          # the file as it is: read
@example(edits=[(8, 23, "")], cut=0)                               # no edit, also read
@example(edits=[], cut=7)                                          # fewer rows than NumFrames
@example(edits=[(2, 0, "x")], cut=0)                               # a header refused
def test_fuzzed_trc_is_read_or_refused(tmp_path, edits, cut):
    """Random edits of a complete small .trc: read, or refused with a MotionError or
    ValueError naming the file; never another exception. What is read has one time per
    non-blank data line, strictly increasing, distinct marker labels and xyz (N, M, 3) in
    metres, finite or NaN; the file unedited reads as written."""
    lines = list(_LINES[:cut or len(_LINES)])
    for i, pos, text in edits:
        if i < len(lines):
            lines[i] = lines[i][:pos] + text + lines[i][pos + len(text):]
    text = "\n".join(lines) + "\n"
    p = tmp_path / "fuzz.trc"
    p.write_text(text, encoding="utf-8", errors="surrogatepass")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        try:
            m = read_trc(p)
        except (MotionError, ValueError) as e:
            event("refused")
            assert "fuzz.trc" in str(e) or "xyz" in str(e)
            return
    event("read")
    assert isinstance(m, Markers) and m.xyz.shape == (len(m.time), len(m.labels), 3)
    assert len(m.time) >= 1 and np.all(np.isfinite(m.time)) and np.all(np.diff(m.time) > 0)
    assert m.labels and len(set(m.labels)) == len(m.labels)
    assert not np.any(np.isinf(m.xyz))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:                  # surrogates: read as another encoding
        pass
    else:
        assert len(m.time) == sum(1 for line in text.splitlines()[5:] if line.strip())
    if text == SMALL:
        event("read unedited")
        assert m.labels == ["R.ASIS", "L.ASIS", "V.Sacral"] and m.meta["units"] == "mm"
        np.testing.assert_array_equal(m.time, [0.0, 0.017, 0.033, 0.05])
        np.testing.assert_allclose(m.xyz, SMALL_XYZ, rtol=1e-15, atol=0, equal_nan=True)


_UNITS_TRC = ("PathFileType\t4\t(X/Y/Z)\tu.trc\nDataRate\tCameraRate\tNumFrames\tNumMarkers\t"
              "Units\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n100\t100\t2\t1\t{units}\t"
              "100\t1\t2\nFrame#\tTime\tM1\n\t\tX1\tY1\tZ1\n1\t0\t1000\t2000\t3000\n"
              "2\t0.01\t1000\t2000\t3000\n")


@pytest.mark.parametrize("units", ["MM", "millimeters", "MILLIMETERS", "CM", "centimeters",
                                   "M", "meters", "METERS"])
def test_unit_spellings_opensim_reads(tmp_path, units):
    """The spellings of a length unit OpenSim 4.6's MarkerData reads (all lower or all upper
    case, abbreviated or not): urdf2dyn refused 'MM' as no length unit. Both now give the
    same metres."""
    osim = pytest.importorskip("opensim")
    path = tmp_path / "u.trc"
    path.write_text(_UNITS_TRC.format(units=units))
    theirs = osim.MarkerData(str(path))
    assert theirs.getUnits().getType() != osim.Units.UnknownUnits
    theirs.convertToUnits(osim.Units(osim.Units.Meters))
    ours = read_trc(path)
    np.testing.assert_allclose(ours.xyz[0, 0], theirs.getFrame(0).getMarker(0).to_numpy(),
                               rtol=1e-15)


@pytest.mark.parametrize("units", ["Meters", "Mm", "Millimeters", "mms"])
def test_unit_spellings_opensim_does_not_read_are_refused(tmp_path, units):
    osim = pytest.importorskip("opensim")
    path = tmp_path / "u.trc"
    path.write_text(_UNITS_TRC.format(units=units))
    assert osim.Units(units).getType() == osim.Units.UnknownUnits
    with pytest.raises(MotionError, match=rf"line 3: Units '{units}' is not a length unit"):
        read_trc(path)


# ------------------------------------------- NumFrames as OpenSim's two .trc readers take it

_MARKER_DATA = """
import sys
import opensim as osim
osim.Logger.setLevelString("off")
try:
    m = osim.MarkerData(sys.argv[1])
except Exception as e:
    print("refused", str(e).splitlines()[0])
else:
    print(m.getNumFrames(), m.getNumMarkers(), m.getUnits().getAbbreviation())
"""


def _marker_data(path):
    """OpenSim 4.6's MarkerData (the ScaleTool's reader of a static trial) on path, in its own
    process (it crashes on some NumFrames): 'crashed', ('refused', why) or (frames, markers,
    units)."""
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", _MARKER_DATA, os.fspath(path)],
                         capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        return "crashed"
    said = run.stdout.strip().splitlines()[-1].split()
    return ("refused", " ".join(said[1:])) if said[0] == "refused" else (
        int(said[0]), int(said[1]), said[2])


@pytest.mark.parametrize("value", ["3", " 3", "+3", "3x", "x3", "3.0", "2.5", "1e1", "2",
                                   "0", "-1", "abc"])
def test_numframes_as_opensims_readers_take_it(osim, tmp_path, value):
    """Oracle: OpenSim 4.6's TRCFileAdapter (its IK tool's reader: every row, whatever
    NumFrames says) and MarkerData (its ScaleTool's: NumFrames' leading integer, as SimmIO
    reads it, is how many frames it reads). urdf2dyn read '3.0', '2.5' and '-1' for 3 rows
    without a word, while the ScaleTool misreads the units ('3.0': NumMarkers 0, units
    unknown), refuses ('2.5') or asks for a frame it does not have ('-1', '0': a crash, or
    none); it called 'x3' refused (MarkerData
    reads 3) and '1e1' ten frames (MarkerData reads 1). Now it reads every row, as the IK
    tool, and says, naming line 3 and the NumFrames column, what the ScaleTool does, unless
    both readers read the 3 frames."""
    p = _small(tmp_path, frames=value)
    theirs = opensim_markers(os.fspath(p))[0]
    scale_tool = _marker_data(p)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = read_trc(p)
    np.testing.assert_array_equal(m.time, theirs)                   # the IK tool's rows
    said = [str(w.message) for w in caught]
    if scale_tool == (3, 2, "mm"):
        assert said == [] if value.strip().lstrip("+").isdigit() else (
            len(said) == 1 and "MarkerData reads it as 3" in said[0]), (scale_tool, said)
        return
    assert len(said) == 1 and "small.trc" in said[0] and "line 3" in said[0], said
    assert "NumFrames" in said[0], said
    if scale_tool == "crashed" or isinstance(scale_tool[0], int) and scale_tool[0] <= 0:
        # asking a MarkerData of no frames for its last is undefined: a crash, or no frame
        assert "ScaleTool reads " in said[0] and "asks for the last one" in said[0], said
    elif scale_tool[0] == "refused":
        assert "refuses the file" in said[0], (scale_tool, said)
    elif scale_tool[2] != "mm" or scale_tool[1] != 2:
        assert "misreads the units" in said[0], (scale_tool, said)
    else:
        assert f"keeps only the first {scale_tool[0]} frame" in said[0], (scale_tool, said)
    with pytest.raises(MotionError, match="NumFrames"):
        read_trc(p, strict=True)


def test_a_time_column_labelled_otherwise_is_refused_saying_what_to_rename(tmp_path):
    """AddBiomechanics' stairdown test trial (server/engine/tests/data/stairdown/markers.trc;
    its license asks for data sharing, so the file is not copied: its line 4 is reproduced
    on opensim-models' walk) labels the time column 'Times'. OpenSim 4.6's TRCFileAdapter
    refuses it too ("Unexpected column label. Expected = Time"); the refusal says what to
    rename, not only what it expected."""
    osim = pytest.importorskip("opensim")
    text = open(WALK).read().splitlines()
    cells = text[3].split("\t")
    assert cells[:2] == ["Frame#", "Time"]
    text[3] = "\t".join(["Frame#", "Times"] + cells[2:])
    p = tmp_path / "times.trc"
    p.write_text("\n".join(text) + "\n")
    with pytest.raises(RuntimeError, match="Expected = Time"):
        osim.TimeSeriesTableVec3(os.fspath(p))
    with pytest.raises(MotionError, match=r"line 4: .*'Times'.* rename it 'Time'"):
        read_trc(p)
