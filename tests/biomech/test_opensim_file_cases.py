""".mot/.sto and .trc files that OpenSim 4.6 reads otherwise than their text suggests: each
case is put to OpenSim's own readers (opensim.Storage, the reader of its InverseDynamicsTool, IK
coordinate files and ExternalLoads data; opensim.TimeSeriesTable; TRCFileAdapter) and to its
tools, and urdf2dyn must read the same numbers, or say where and how OpenSim differs, or refuse
naming the line and column."""
import os
import re
import shutil
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urdf2dyn.biomech import formats
from urdf2dyn.biomech.formats.opensim import read_sto_table
from urdf2dyn.biomech.trajectory import MotionError
from urdf2dyn.warn import Urdf2dynWarning

from test_opensim_text_files import arm26_motion, run_id_tool      # tests/biomech, as there

CORE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "opensim_core")
TABLE = "time\tknee\tpelvis_tx\n0\t10\t0.5\n0.01\t20\t0.6\n0.02\t30\t0.7\n"


def _said(call):
    """(result, [urdf2dyn's warnings as text]) of call()."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = call()
    return out, [str(w.message) for w in caught if issubclass(w.category, Urdf2dynWarning)]


@pytest.mark.parametrize("counts, fix", [("nColumns=3", "nRows=11"), ("nRows=11", "nColumns=3"),
                                         ("", "nRows=11' and 'nColumns=3")])
def test_counts_storage_needs_are_asked_for(osim, tmp_path, counts, fix):
    """A header without version=2 or later and without nRows or nColumns: OpenSim 4.6's
    Storage reads no rows of it, or fails, and its InverseDynamicsTool fails on it, while its
    TimeSeriesTable reads the table. urdf2dyn read it silently; it reads it as the
    TimeSeriesTable does and says what to add for OpenSim's tools."""
    header = "arm\nversion=1\n" + (counts + "\n" if counts else "") + "inDegrees=no"
    path = arm26_motion(tmp_path / "arm.sto", header)
    assert not run_id_tool(osim, path)
    theirs = osim.TimeSeriesTable(str(path))
    ours, said = _said(lambda: formats.read_opensim(path))
    np.testing.assert_array_equal(ours.time, np.array(theirs.getIndependentColumn()))
    np.testing.assert_array_equal(ours.column("r_elbow_flex"),
                                  theirs.getDependentColumn("r_elbow_flex").to_numpy())
    assert len(said) == 1 and "arm.sto" in said[0] and "InverseDynamicsTool" in said[0], said
    assert f"Add '{fix}' to the header" in said[0], said[0]


@pytest.mark.parametrize("version, storage_rows", [("1", 0), ("3", 3)])
def test_a_mis_cased_count_is_named_where_storage_needs_it(osim, tmp_path, version,
                                                           storage_rows):
    """'NROWS=3' is no count to OpenSim 4.6's Storage (its keys are case-sensitive): in a file
    of version 1 it reads no rows, in one of version 3 (read by its table reader) all of
    them. urdf2dyn's read_sto_table, the reader of ExternalLoads data, said nothing of the
    first, and read_opensim told the second that OpenSim reads no rows."""
    path = tmp_path / "m.sto"
    path.write_text(f"m\nversion={version}\nNROWS=3\nnColumns=3\ninDegrees=no\nendheader\n"
                    + TABLE)
    assert osim.Storage(str(path)).getSize() == storage_rows
    for reader in (read_sto_table, formats.read_opensim):
        _, said = _said(lambda: reader(path))
        told = [w for w in said if "reads no rows" in w]
        assert len(told) == (storage_rows == 0), (reader, said)
        if told:
            assert "m.sto: line 3: 'NROWS=3'" in told[0] and "Write 'nRows=3'" in told[0]

def test_counts_are_not_needed_from_version_2_on(osim, tmp_path):
    """OpenSim 4's STOFileAdapter writes 'version=3' and no counts; Storage reads such a file
    with that adapter, and the InverseDynamicsTool takes it: nothing to say."""
    path = arm26_motion(tmp_path / "arm.sto", "arm\nversion=3\ninDegrees=no")
    assert run_id_tool(osim, path)
    ours, said = _said(lambda: formats.read_opensim(path))
    assert said == [] and len(ours.time) == 11


@pytest.mark.parametrize("version, storage_rows, lineno", [("3", 1, 7),
                                                          ("1\nnRows=3\nnColumns=3", 3, 9)])
def test_a_blank_line_inside_the_data_is_named(osim, tmp_path, version, storage_rows, lineno):
    """A blank line between data rows ends the data for OpenSim 4.6's TimeSeriesTable, and for
    its Storage in a file of version 2 or later (it reads with that table's adapter): they
    keep the rows before it, without a word. urdf2dyn read every row silently."""
    path = tmp_path / "m.sto"
    path.write_text(f"m\nversion={version}\ninDegrees=no\nendheader\n"
                    + TABLE.replace("0.5\n", "0.5\n\n"))
    assert osim.Storage(str(path)).getSize() == storage_rows
    assert osim.TimeSeriesTable(str(path)).getNumRows() == 1
    (_, data, _, _), said = _said(lambda: read_sto_table(path))
    assert data.shape == (3, 3)
    assert len(said) == 1 and f"m.sto: line {lineno} is blank" in said[0], said
    assert "only the 1 row before it" in said[0] and "delete that line" in said[0]


@pytest.mark.parametrize("cell", ["NaN", "nan", "-inf"])
def test_a_non_finite_cell_in_a_legacy_file_is_named(osim, tmp_path, cell):
    """Storage reads a file without version=2 number by number with C++ streams, which stop at
    'NaN' or 'inf': the InverseDynamicsTool gets the rows before it and zeros. urdf2dyn read
    the NaN silently (a gap) and 'inf' as a number; it names the cell now, and refuses an
    infinite one (no coordinate or load is infinite)."""
    path = tmp_path / "m.sto"
    path.write_text("m\nversion=1\nnRows=3\nnColumns=3\ninDegrees=no\nendheader\n"
                    + TABLE.replace("\t20\t", f"\t{cell}\t"))
    assert osim.Storage(str(path)).getSize() < 3
    if "inf" in cell:
        with pytest.raises(MotionError, match=rf"m.sto: line 9, column 'knee': '{cell}' is not "
                                              r"a finite number"):
            read_sto_table(path)
        return
    (_, data, _, _), said = _said(lambda: read_sto_table(path))
    assert np.isnan(data[1, 1]) and np.isfinite(np.delete(data.ravel(), 4)).all()
    assert len(said) == 1 and f"m.sto: line 9, column 'knee': {cell!r}" in said[0], said
    assert "Storage" in said[0] and "version=3" in said[0]


def test_nan_from_version_2_on_is_read_as_opensim_reads_it(osim, tmp_path):
    """With version=3 Storage reads 'NaN' as a NaN (its table adapter): nothing to say."""
    path = tmp_path / "m.sto"
    path.write_text("m\nversion=3\ninDegrees=no\nendheader\n" + TABLE.replace("\t20\t", "\tNaN\t"))
    theirs = osim.Storage(str(path))
    assert theirs.getSize() == 3 and np.isnan(theirs.getStateVector(1).getData().get(0))
    (_, data, _, _), said = _said(lambda: read_sto_table(path))
    assert said == [] and np.isnan(data[1, 1])


@pytest.mark.parametrize("cell, advice", [("20,5", "decimal point"), ("20abc", "a number"),
                                          ("0x14", "a number")])
def test_a_cell_that_is_not_a_number_is_refused_naming_line_and_column(osim, tmp_path, cell,
                                                                       advice):
    """'20,5' (a decimal comma), '20abc', '0x14': OpenSim 4.6's TimeSeriesTable reads the
    number they begin with (20, 20, 0) and its Storage stops reading there, both without a
    word. urdf2dyn refused them without saying where; it names the line, the column and the
    cell."""
    path = tmp_path / "m.sto"
    path.write_text("m\nversion=3\ninDegrees=no\nendheader\n" + TABLE.replace("\t20\t",
                                                                              f"\t{cell}\t"))
    theirs = osim.TimeSeriesTable(str(path))       # kept: its column's numpy view needs it
    assert theirs.getDependentColumn("knee").to_numpy()[1] in (20, 0)
    with pytest.raises(MotionError, match=rf"m.sto: line 7, column 'knee': '{cell}' is not "
                                          rf"a number.*{advice}"):
        read_sto_table(path)


def test_more_columns_in_the_header_than_the_table_says_storage_runs_rows_together(osim,
                                                                                   tmp_path):
    """nColumns above the labels' count: Storage reads that many numbers per row, taking the
    next row's time as a value (its rows run together). urdf2dyn's warning only asked to fix
    the count; it says what OpenSim does."""
    path = tmp_path / "m.sto"
    path.write_text("m\nversion=1\nnRows=3\nnColumns=4\ninDegrees=no\nendheader\n" + TABLE)
    s = osim.Storage(str(path))
    assert s.getStateVector(0).getData().get(2) == 0.01          # the next row's time
    (_, data, _, _), said = _said(lambda: read_sto_table(path))
    assert data.shape == (3, 3)
    assert len(said) == 1 and "runs the rows together" in said[0], said


@pytest.mark.parametrize("name, storage_reads", [("m.mot", False), ("m.sto", True)])
def test_blank_separated_columns_from_version_2_on_are_named(osim, tmp_path, name,
                                                             storage_reads):
    """Columns separated by blanks in a file of version 3 (found by the header-variants test
    below): OpenSim 4.6 reads it with its tab-only table reader, which refuses it; Storage
    then refuses a .mot, and reads a .sto that counts its rows and columns by its older
    rules. urdf2dyn read both silently."""
    path = tmp_path / name
    path.write_text("m\nversion=3\nnRows=3\nnColumns=3\ninDegrees=no\nendheader\n"
                    + TABLE.replace("\t", " "))
    with pytest.raises(RuntimeError):
        osim.TimeSeriesTable(str(path))
    if storage_reads:
        assert osim.Storage(str(path)).getSize() == 3
    else:
        with pytest.raises(RuntimeError):
            osim.Storage(str(path))
    (_, data, _, _), said = _said(lambda: read_sto_table(path))
    assert data.shape == (3, 3)
    assert len(said) == 1 and f"{name}: line 7: values separated by blanks" in said[0], said
    assert ("older rules" in said[0]) == storage_reads


@pytest.mark.parametrize("name", ["m.sto", "m.mot"])
def test_blank_separated_columns_in_a_version_1_file_are_read_as_storage_reads_them(
        osim, tmp_path, name):
    """Columns separated by blanks in a file of version 1: OpenSim 4.6's Storage, the reader
    of its tools, reads it number by number (blanks or tabs alike), the same numbers as
    urdf2dyn; its TimeSeriesTable (STOFileAdapter, the reader of scripts and Moco) splits at
    tabs only and refuses the file. urdf2dyn read it without a word; it names the line."""
    path = tmp_path / name
    path.write_text("m\nversion=1\nnRows=3\nnColumns=3\ninDegrees=no\nendheader\n"
                    + TABLE.replace("\t", " "))
    theirs = _storage_reading(osim, path)[0]
    with pytest.raises(RuntimeError, match="column label"):
        osim.TimeSeriesTable(str(path))
    (_, data, _, _), said = _said(lambda: read_sto_table(path))
    np.testing.assert_array_equal(data, theirs)
    assert len(said) == 1 and f"{name}: line 7: values separated by blanks" in said[0], said
    assert "Storage" in said[0] and "reads it as urdf2dyn" in said[0], said[0]
    assert "TimeSeriesTable refuses" in said[0] and "tabs" in said[0], said[0]


def test_a_label_with_a_blank_in_a_version_1_file_is_named(osim, tmp_path):
    """'knee angle' in a tab-separated file of version 1: OpenSim 4.6's Storage splits its
    labels at blanks as well as tabs ('knee', 'angle': 4 labels for 3 columns of numbers), so
    its tools find 'pelvis_tx' nowhere; its TimeSeriesTable keeps the label. urdf2dyn kept
    it without a word; it names the line and the label."""
    path = tmp_path / "m.sto"
    path.write_text("m\nversion=1\nnRows=3\nnColumns=3\ninDegrees=no\nendheader\n"
                    + TABLE.replace("knee", "knee angle"))
    storage = osim.Storage(str(path))             # kept: its labels are a view into it
    labels = storage.getColumnLabels()
    assert [labels.get(k) for k in range(labels.getSize())] == ["time", "knee", "angle",
                                                                 "pelvis_tx"]
    assert "knee angle" in osim.TimeSeriesTable(str(path)).getColumnLabels()
    (labels, _, _, _), said = _said(lambda: read_sto_table(path))
    assert labels == ["time", "knee angle", "pelvis_tx"]
    assert len(said) == 1 and "m.sto: line 7: the label 'knee angle'" in said[0], said
    assert "Storage" in said[0] and "'knee', 'angle'" in said[0], said[0]


@pytest.mark.parametrize("version, row, lineno, column", [
    ("3", "0.01\t\t0.6", 7, "column 2 'knee'"),
    ("1\nnRows=3\nnColumns=3", "0.01\t\t0.6", 9, "column 2 'knee'"),
    ("3", "0.01\t20\t\t", 7, "column 3 'pelvis_tx'"),
    ("3", "\t20\t0.6", 7, "column 1 'time'")])
def test_an_empty_cell_is_refused_naming_its_column(osim, tmp_path, version, row, lineno,
                                                    column):
    """An empty cell between tabs: OpenSim 4.6's TimeSeriesTable reads it as NaN (so does its
    Storage from version 2 on; in a file of version 1 Storage takes the next number for it
    and runs the rows together). urdf2dyn refused it naming the line only; it names the
    column (its label and number) as for any other bad cell."""
    path = tmp_path / "m.sto"
    path.write_text(f"m\nversion={version}\ninDegrees=no\nendheader\n"
                    + TABLE.replace("0.01\t20\t0.6", row))
    theirs = osim.TimeSeriesTable(str(path))       # kept: its rows' numpy views need it
    cells = [np.nan if c == "" else float(c) for c in row.split("\t")[:3]]
    np.testing.assert_array_equal([theirs.getIndependentColumn()[1]]
                                  + list(theirs.getRowAtIndex(1).to_numpy()), cells)
    with pytest.raises(MotionError, match=rf"m.sto: line {lineno}, {column}: the cell is "
                                          r"empty.*NaN"):
        read_sto_table(path)


@pytest.mark.parametrize("line, opensim_degrees, warned", [
    ("version=1\nnRows=3\nnColumns=3\ninDegrees==yes", True, 1),
    ("version=1\nnRows=3\nnColumns=3\ninDegrees = = yes", True, 1),
    ("nRows=3\nnColumns=3\nAngles are in degrees.", True, 1)])
def test_in_degrees_values_storage_reads_past_extra_equals_signs(osim, tmp_path, line,
                                                                 opensim_degrees, warned):
    """OpenSim 4.6's Storage takes a header value after every blank, tab and '=' following
    its key: 'inDegrees==yes' is degrees to it. urdf2dyn refused it ('=yes' is neither yes
    nor no); it reads it as Storage does, saying only that OpenSim's TimeSeriesTable (Moco's
    reader) reads no inDegrees from such a line, or none at all (SIMM's 'Angles are in
    degrees.')."""
    path = tmp_path / "m.sto"
    path.write_text(f"m\n{line}\nendheader\n" + TABLE)
    assert osim.Storage(str(path)).isInDegrees() == opensim_degrees
    ours, said = _said(lambda: formats.read_opensim(path))
    assert ours.meta["in_degrees"] == opensim_degrees
    assert len(said) == warned and all("its TimeSeriesTable" in w for w in said), said
    np.testing.assert_allclose(ours.column("knee"), np.radians([10, 20, 30]), rtol=1e-15)


@pytest.mark.parametrize("line, lineno, opensim_key", [
    ("version=1\nnRows=3\nnColumns=3\ninDegrees: yes", 5, "'inDegrees'"),
    ("version=1\nnRows=3\nnColumns=3\nin_degrees=yes", 5, "'inDegrees'"),
    ("version=1\nnRows=3\nnColumns=3\ninDegrees:yes", 5, "'inDegrees'"),
    ("nRows=3\nnColumns=3\nangles are in degrees.", 4, "'Angles are in degrees.'")])
def test_a_degrees_line_storage_ignores_is_refused(osim, tmp_path, line, lineno, opensim_key):
    """A header line that says degrees in words OpenSim 4.6's Storage does not read
    ('inDegrees: yes', 'in_degrees=yes'; 'angles are in degrees.', which it reads only
    spelt 'Angles are in degrees.'): Storage, and so its InverseDynamicsTool, takes the angles
    for radians. urdf2dyn read the first two as radians without a word and the third as
    degrees; it refuses them, naming the line and what OpenSim reads."""
    path = tmp_path / "m.sto"
    path.write_text(f"m\n{line}\nendheader\n" + TABLE)
    assert not osim.Storage(str(path)).isInDegrees()
    with pytest.raises(MotionError, match=rf"m.sto: line {lineno}: .*OpenSim 4.6 reads the "
                                          rf"angles of this file as radians.*{opensim_key}"):
        formats.read_opensim(path)


def _table_units(osim, path):
    """What OpenSim 4.6's TimeSeriesTable (STOFileAdapter) and TableUtilities::isInDegrees,
    the units Moco's TableProcessor converts by, make of a file: True / False, or the
    refusal's text."""
    try:
        return osim.TableUtilities.isInDegrees(osim.TimeSeriesTable(str(path)))
    except RuntimeError as e:
        return str(e)


@pytest.mark.parametrize("name, header, degrees, why", [
    ("simm.mot", None, True, "a .mot without a version line"),
    ("m.sto", "m\nnRows=3\nnColumns=3\nAngles are in degrees.", True,
     "line 4: 'Angles are in degrees.'"),
    ("m.mot", "m\nnRows=3\nnColumns=3", True, "a .mot without a version line"),
    ("m.sto", "m\nversion=1\nnRows=3\nnColumns=3", False, "nothing says degrees")])
def test_no_in_degrees_line_is_read_as_storage_reads_it_and_the_table_reader_named(
        osim, tmp_path, name, header, degrees, why):
    """A header without any inDegrees line, as in opensim-core's own example motions
    (subject01_walk1_ik.mot: SIMM's 'Angles are in degrees.', no version): OpenSim 4.6's
    Storage (its IK and ID tools' reader) reads the units by SIMM's rules, but its
    TimeSeriesTable has no inDegrees and isInDegrees (Moco's TableProcessor) refuses the
    file. urdf2dyn read it as Storage does without a word; it still reads it so, and says
    that the table reader refuses it and which line to add. With that line added both
    OpenSim readers agree with urdf2dyn, and nothing is said."""
    path = tmp_path / name
    if header is None:
        shutil.copy(os.path.join(CORE, "subject01_walk1_ik.mot"), path)
    else:
        path.write_text(f"{header}\nendheader\n" + TABLE)
    assert bool(osim.Storage(str(path)).isInDegrees()) == degrees
    assert "Table does not have 'inDegrees' metadata" in _table_units(osim, path)
    ours, said = _said(lambda: formats.read_opensim(path))
    assert ours.meta["in_degrees"] == degrees
    fix = f"inDegrees={'yes' if degrees else 'no'}"
    assert len(said) == 1 and f"{name}: its header has no inDegrees line" in said[0], said
    assert f"({why}" in said[0] and "TableProcessor" in said[0], said[0]
    assert f"Add the line '{fix}'" in said[0], said[0]
    text = path.read_text()
    path.write_text(text.replace("endheader", f"{fix}\nendheader", 1))
    assert bool(osim.Storage(str(path)).isInDegrees()) == degrees
    assert _table_units(osim, path) is degrees
    fixed, said = _said(lambda: formats.read_opensim(path))
    assert said == [] and fixed.meta["in_degrees"] == degrees
    np.testing.assert_array_equal(fixed.q, ours.q)


def _id_moments(osim, coordinates):
    """arm26's generalized forces (N, 2) by OpenSim 4.6's InverseDynamicsTool."""
    assert run_id_tool(osim, coordinates)
    return read_sto_table(coordinates.parent / (coordinates.name + ".id.sto"))[1][:, 1:]


@pytest.mark.parametrize("name, header", [("v1.sto", "arm\nversion=1\nnRows=11\nnColumns=3"),
                                          ("v1.mot", "arm\nversion=1\nnRows=11\nnColumns=3"),
                                          ("v3.sto", "arm\nversion=3"),
                                          ("v3.mot", "arm\nversion=3")])
def test_no_in_degrees_line_is_radians_as_the_id_tool_reads_it(osim, tmp_path, name, header):
    """Without an inDegrees line (and with a version line: a .mot without one is SIMM's, in
    degrees, tested in test_opensim_text_files) OpenSim 4.6's InverseDynamicsTool takes the
    angles for radians, its moments those of the same file with inDegrees=no; urdf2dyn reads
    them so, saying that Moco's TableProcessor refuses such a file (it needs inDegrees to be
    'yes' or 'no') and what to add: test_no_in_degrees_line_is_read_as_storage_reads_it.)"""
    path = arm26_motion(tmp_path / name, header)
    said_no = arm26_motion(tmp_path / ("no_" + name), header + "\ninDegrees=no")
    np.testing.assert_allclose(_id_moments(osim, path), _id_moments(osim, said_no), atol=1e-9)
    ours, said = _said(lambda: formats.read_opensim(path))
    assert len(said) == 1 and "Add the line 'inDegrees=no'" in said[0], said
    assert not ours.meta["in_degrees"]
    np.testing.assert_allclose(ours.column("r_elbow_flex"), 1.0 + 0.5 * np.cos(3 * ours.time),
                               rtol=0, atol=1e-9)

@pytest.mark.parametrize("in_degrees, cutoff", [("yes", "-1"), ("no", "-1"), ("yes", "6")])
def test_id_coordinates_in_degrees_under_opensims_processing(osim, tmp_path, in_degrees,
                                                             cutoff):
    """OpenSim 4.6's InverseDynamicsTool reads its coordinates file in the units its header
    says (Storage's inDegrees, then convertDegreesToRadians on the rotational coordinates,
    after its filter); 'urdf2dyn torques --processing opensim' reads it so too: the same
    moments for arm26's motion written in degrees (inDegrees=yes) or radians (no), filtered
    or not. (Its IK tool differs: see the IK coordinate-file tests below.)"""
    from urdf2dyn import cli
    path = arm26_motion(tmp_path / "arm.mot", "arm\nversion=1\nnRows=11\nnColumns=3\n"
                        f"inDegrees={in_degrees}", degrees=in_degrees == "yes")
    tool = osim.InverseDynamicsTool()
    tool.setModelFileName(os.path.join(CORE, "arm26.osim"))
    tool.setCoordinatesFileName(str(path))
    tool.setLowpassCutoffFrequency(float(cutoff))
    tool.setStartTime(0)
    tool.setEndTime(0.5)
    excluded = osim.ArrayStr()
    excluded.append("Muscles")                  # urdf2dyn models no muscle
    tool.setExcludedForces(excluded)
    tool.setResultsDir(str(tmp_path))
    tool.setOutputGenForceFileName("id.sto")
    assert tool.run()
    theirs = read_sto_table(tmp_path / "id.sto")[1]
    args = ["torques", os.path.join(CORE, "arm26.osim"), str(path), "--processing", "opensim",
            "--time-range", "0", "0.5", "--no-progress", "-o", str(tmp_path / "ours.sto")]
    assert cli.main(args + (["--filter", cutoff] if cutoff != "-1" else [])) == 0
    ours = read_sto_table(tmp_path / "ours.sto")[1]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-7 * np.abs(theirs).max())


def test_torques_with_a_gap_are_written_as_opensims_storage_reads_them(osim, tmp_path):
    """urdf2dyn wrote 'version=1' files, and a NaN torque (a frame whose coordinates have a
    gap: NaN in gives NaN out) as 'nan', where OpenSim 4.6's Storage stops reading: its tools
    got 2 of the 4 rows. A table with a NaN is written as OpenSim 4 writes its own
    (version=3), which Storage reads with NaN as NaN."""
    import urdf2dyn
    from urdf2dyn.biomech.formats import write_torques
    model = urdf2dyn.load(os.path.join(CORE, "arm26.osim"))
    t = np.arange(4) * 0.01
    tau = np.ones((4, model.nv))
    tau[1, 0] = np.nan
    path = tmp_path / "tau.sto"
    write_torques(path, t, tau, model)
    s = osim.Storage(str(path))
    theirs = np.array([[s.getStateVector(r).getData().get(k) for k in range(model.nv)]
                       for r in range(s.getSize())])
    np.testing.assert_array_equal(theirs, tau)
    (_, data, _, _), said = _said(lambda: read_sto_table(path))
    assert said == []
    np.testing.assert_array_equal(data[:, 1:], tau)

# ---------------------------------------------------------------------------------- .trc files

def _trc(path, rows, markers=2, frames=3):
    """A .trc of markers A, B... in mm at 100 Hz with the data lines given (each ends as
    written: OpenSim ends them in a tab)."""
    names = "".join(f"{chr(65 + k)}\t\t\t" for k in range(markers))
    xyz = "".join(f"X{k}\tY{k}\tZ{k}\t" for k in range(1, markers + 1))
    path.write_text("PathFileType\t4\t(X/Y/Z)\tm.trc\nDataRate\tCameraRate\tNumFrames\t"
                    "NumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n"
                    f"100\t100\t{frames}\t{markers}\tmm\t100\t1\t{frames}\n"
                    f"Frame#\tTime\t{names}\n\t\t{xyz}\n\n" + "".join(r + "\n" for r in rows))
    return path


def _opensim_trc(osim, path):
    """(time, xyz in mm (N, M, 3)) of a .trc as OpenSim 4.6's TRCFileAdapter reads it."""
    table = osim.TimeSeriesTableVec3(str(path))
    xyz = np.array([[list(table.getRowAtIndex(i)[j].to_numpy())
                     for j in range(table.getNumColumns())] for i in range(table.getNumRows())])
    return np.array(table.getIndependentColumn()), xyz.reshape(table.getNumRows(), -1, 3)


ROWS = ["1\t0\t100\t200\t300\t400\t500\t600\t", "2\t0.01\t101\t201\t301\t401\t501\t601\t",
        "3\t0.02\t102\t202\t302\t402\t502\t602\t"]


def test_trc_marker_with_a_missing_coordinate_is_not_seen(osim, tmp_path):
    """A marker whose X is blank but Y and Z are written: OpenSim 4.6 takes the marker as not
    seen in that frame (all three NaN); urdf2dyn kept Y and Z, a marker half seen."""
    path = _trc(tmp_path / "m.trc", [ROWS[0], "2\t0.01\t\t201\t301\t401\t501\t601\t", ROWS[2]])
    _, theirs = _opensim_trc(osim, path)
    assert np.isnan(theirs[1, 0]).all()
    ours = formats.read_trc(path)
    np.testing.assert_allclose(ours.xyz * 1000, theirs, rtol=1e-14, atol=0)


def test_trc_blank_line_inside_the_data_is_named(osim, tmp_path):
    """A blank line between frames ends the data for OpenSim 4.6's TRCFileAdapter (it reads
    the frames before it, without a word); urdf2dyn read them all silently."""
    path = _trc(tmp_path / "m.trc", [ROWS[0], "", ROWS[1], ROWS[2]])
    assert len(_opensim_trc(osim, path)[0]) == 1
    ours, said = _said(lambda: formats.read_trc(path))
    assert len(ours.time) == 3
    assert len(said) == 1 and "m.trc: line 8 is blank, inside the data" in said[0], said
    assert "only the 1 frame before it" in said[0] and "delete that line" in said[0]


@pytest.mark.parametrize("rows, lineno", [
    ([ROWS[0], ROWS[1] + "\t\t", ROWS[2]], 8),                  # two tabs too many
    ([ROWS[0], "2\t0.01\t101\t201\t301\t\t\t", ROWS[2]], 8)])   # a gap, no tab after it
def test_trc_rows_opensim_counts_otherwise_are_named(osim, tmp_path, rows, lineno):
    """OpenSim 4.6 counts a row's cells up to its last tab, plus what follows it if not
    empty: extra tabs at a row's end make it too long, and a gap in the last marker without a
    final tab too short: it refuses the file. urdf2dyn read it silently."""
    path = _trc(tmp_path / "m.trc", rows)
    with pytest.raises(RuntimeError, match="line"):
        osim.TimeSeriesTableVec3(str(path))
    ours, said = _said(lambda: formats.read_trc(path))
    assert len(ours.time) == 3
    assert len(said) == 1 and f"m.trc: line {lineno}:" in said[0], said
    assert "OpenSim 4.6 refuses the file" in said[0]


def test_trc_num_markers_opensim_refuses(osim, tmp_path):
    """NumMarkers other than the markers named: OpenSim 4.6 refuses the file; urdf2dyn's
    warning did not say so."""
    path = _trc(tmp_path / "m.trc", ROWS)
    path.write_text(path.read_text().replace("\t3\t2\tmm", "\t3\t3\tmm"))
    with pytest.raises(RuntimeError):
        osim.TimeSeriesTableVec3(str(path))
    _, said = _said(lambda: formats.read_trc(path))
    assert len(said) == 1 and "NumMarkers=3" in said[0] and "OpenSim 4.6 refuses" in said[0]


def test_trc_frames_without_a_frame_number_at_the_start_are_named(osim, tmp_path):
    """OpenSim 4.6's TRCFileAdapter skips the rows before the first with a frame number (and
    never ends reading a file without one); urdf2dyn read them silently."""
    path = _trc(tmp_path / "m.trc", ["\t" + ROWS[0].partition("\t")[2]] + ROWS[1:])
    assert len(_opensim_trc(osim, path)[0]) == 2
    ours, said = _said(lambda: formats.read_trc(path))
    assert len(ours.time) == 3
    assert len(said) == 1 and "m.trc: line 7: no frame number" in said[0], said


def test_trc_decimal_comma_is_refused_with_advice(osim, tmp_path):
    """'101,5': OpenSim 4.6 reads 101 without a word; urdf2dyn refuses it, naming the cell,
    and says to write a decimal point."""
    path = _trc(tmp_path / "m.trc", [ROWS[0], ROWS[1].replace("\t101\t", "\t101,5\t"), ROWS[2]])
    assert _opensim_trc(osim, path)[1][1, 0, 0] == 101
    with pytest.raises(MotionError, match=r"m.trc: line 8: marker 'A' X is not a number: "
                                          r"'101,5'.*decimal point"):
        formats.read_trc(path)


def test_trc_frame_numbers_and_data_rate_are_not_the_times(osim, tmp_path):
    """Frame numbers from 10, a DataRate of 60 for times 0.01 s apart: OpenSim 4.6 takes the
    Time column and ignores both; so does urdf2dyn (its rate is the times')."""
    rows = [f"{k + 10}\t" + r.partition("\t")[2] for k, r in enumerate(ROWS)]
    path = _trc(tmp_path / "m.trc", rows)
    path.write_text(path.read_text().replace("100\t100\t3", "60\t60\t3"))
    t, theirs = _opensim_trc(osim, path)
    ours, said = _said(lambda: formats.read_trc(path))
    assert said == []
    np.testing.assert_array_equal(ours.time, t)
    np.testing.assert_allclose(ours.xyz * 1000, theirs, rtol=1e-14, atol=0)
    assert ours.rate == pytest.approx(100)



@pytest.mark.parametrize("key, value, fix", [
    ("DataRate", "100", "write the capture rate in Hz"),
    ("CameraRate", "100", "write the camera's rate in Hz"),
    ("OrigNumFrames", "3", "write the number of frames")])
def test_trc_an_empty_header_value_is_named(osim, tmp_path, key, value, fix):
    """An empty value in line 3 (DataRate, CameraRate, OrigNumFrames...): OpenSim 4.6's
    TRCFileAdapter refuses the file (as many keys as values, none empty); urdf2dyn read it
    without a word (a DataRate of NaN). It reads the frames by their times, as OpenSim reads
    them, and names the line, the key and what to write."""
    path = _trc(tmp_path / "m.trc", ROWS)
    values = "100\t100\t3\t2\tmm\t100\t1\t3".split("\t")
    k = ["DataRate", "CameraRate", "NumFrames", "NumMarkers", "Units", "OrigDataRate",
         "OrigDataStartFrame", "OrigNumFrames"].index(key)
    assert values[k] == value
    values[k] = ""
    path.write_text(path.read_text().replace("100\t100\t3\t2\tmm\t100\t1\t3", "\t".join(values)))
    with pytest.raises(RuntimeError, match="Number of keys and values do not match"):
        osim.TimeSeriesTableVec3(str(path))
    ours, said = _said(lambda: formats.read_trc(path))
    assert len(ours.time) == 3 and ours.rate == pytest.approx(100)
    assert len(said) == 1 and f"m.trc: line 3: {key} is empty" in said[0], said
    assert "OpenSim 4.6 refuses the file" in said[0] and fix in said[0], said[0]


LINE_3 = "100\t100\t3\t2\tmm\t100\t1\t3"


def _opensim_trc_readers(osim, path):
    """(TRCFileAdapter's error or None, MarkerData's error or None) on a .trc: the readers of
    OpenSim 4.6's IK tool and of its ScaleTool's static trial."""
    errors = []
    for read in (osim.TimeSeriesTableVec3, osim.MarkerData):
        try:
            read(str(path))
            errors.append(None)
        except RuntimeError as e:
            errors.append(str(e))
    return errors


@pytest.mark.parametrize("line_3, trc_adapter, marker_data, said", [
    # a value that is not a number where OpenSim's readers take one
    (LINE_3.replace("100\t100\t3", "abc\t100\t3", 1), None, "marker names",
     r"line 3: DataRate 'abc' is not a number: OpenSim 4.6's ScaleTool refuses the file "
     r".*IK tool reads it.*Write the capture rate in Hz under DataRate"),
    (LINE_3.replace("100\t100\t3", "100\tabc\t3", 1), None, "marker names",
     r"line 3: CameraRate 'abc' is not a number: .*ScaleTool refuses.*"
     r"Write the camera's rate in Hz under CameraRate"),
    (LINE_3.replace("\t3\t2\t", "\tabc\t2\t", 1), None, "marker names",
     r"line 3, column 3 \(NumFrames\): 'abc' is not a whole number of frames: .*ScaleTool "
     r"refuses the file.*Write the number of frames \(3\) under NumFrames"),
    (LINE_3.replace("\t3\t2\t", "\t3\tabc\t", 1), "stoul", "marker names",
     r"line 3: NumMarkers 'abc' is not a number: OpenSim 4.6 refuses the file.*"
     r"Write the number of markers under NumMarkers"),
    (LINE_3.replace("100\t100\t3", "100Hz\t100\t3", 1), None, None,
     r"line 3: DataRate '100Hz' is not a number: OpenSim 4.6 reads it as 100, the number it "
     r"begins with.*Write the capture rate in Hz"),
    # fewer (or more) values than line 2's keys
    ("100\t100\t3\t2\tmm", "Number of keys and values do not match", None,
     r"line 3 holds 5 values for the 8 keys of line 2 \(no value under OrigDataRate, "
     r"OrigDataStartFrame, OrigNumFrames\): OpenSim 4.6 refuses the file.*write OrigDataRate: "
     r"write the original capture rate in Hz"),
    (LINE_3 + "\t7", "Number of keys and values do not match", None,
     r"line 3 holds 9 values for the 8 keys of line 2 \(1 more than keys\).*delete the "
     r"values after the last key's")])
def test_trc_line_3_values_opensim_reads_otherwise_are_named(osim, tmp_path, line_3,
                                                             trc_adapter, marker_data, said):
    """Line 3 as OpenSim 4.6's two .trc readers take it: a value that is not a number under
    DataRate, CameraRate, NumFrames or NumMarkers (its MarkerData refuses the file, and its
    TRCFileAdapter refuses a NumMarkers it cannot read as a whole number; both read the
    number a value begins with), and a line 3 with fewer or more values than line 2 has keys
    (TRCFileAdapter refuses it). urdf2dyn read each as None or left values out without a
    word; it reads the frames by their times, as OpenSim does, and names the line, the key
    and what to write."""
    path = _trc(tmp_path / "m.trc", ROWS)
    path.write_text(path.read_text().replace(LINE_3, line_3))
    theirs = _opensim_trc_readers(osim, path)
    for error, expected in zip(theirs, (trc_adapter, marker_data)):
        assert (error is None) if expected is None else (expected in (error or "")), theirs
    ours, told = _said(lambda: formats.read_trc(path))
    assert len(ours.time) == 3 and ours.rate == pytest.approx(100)
    np.testing.assert_allclose(ours.xyz[-1, -1] * 1000, [402, 502, 602])
    assert len(told) == 1 and re.search(r"m.trc: " + said, told[0]), told
    with pytest.raises(MotionError, match=r"m.trc: " + said):
        formats.read_trc(path, strict=True)


def test_trc_line_3_without_units_is_refused(osim, tmp_path):
    """A line 3 that stops before Units: OpenSim 4.6's TRCFileAdapter refuses the file and
    urdf2dyn cannot tell metres from millimetres; it said "Units '' is not a length unit"."""
    path = _trc(tmp_path / "m.trc", ROWS)
    path.write_text(path.read_text().replace(LINE_3, "100\t100\t3\t2"))
    assert "Number of keys and values" in _opensim_trc_readers(osim, path)[0]
    with pytest.raises(MotionError, match=r"m.trc: line 3 holds 4 values for the 8 keys of "
                                          r"line 2: no value under Units: write the unit"):
        formats.read_trc(path)


def test_trc_empty_units_are_refused_with_advice(osim, tmp_path):
    """An empty Units value: OpenSim 4.6's TRCFileAdapter refuses the file, and urdf2dyn
    cannot tell metres from millimetres; it refused it as "Units '' is not a length unit";
    it says the value is empty and what to write."""
    path = _trc(tmp_path / "m.trc", ROWS)
    path.write_text(path.read_text().replace("\t2\tmm\t", "\t2\t\t"))
    with pytest.raises(RuntimeError, match="Number of keys and values do not match"):
        osim.TimeSeriesTableVec3(str(path))
    with pytest.raises(MotionError, match=r"m.trc: line 3: Units is empty: write the unit of "
                                          r"the positions \(mm, m"):
        formats.read_trc(path)


# ------------------------------------------------------------------- IK coordinate files

def _from_file_setup(osim, tmp_path, in_degrees="no", rows=None):
    """An IK setup of arm7 (tests/ik_oracle.py, markers at 0, 0.01, ..., 0.09 s) with a
    from_file task pulling arm7_joint5 towards a coordinate_file whose header says
    inDegrees=in_degrees, run by OpenSim 4.6's InverseKinematicsTool (it writes
    from_file.mot): the setup's path. rows: the file's (time, value) rows (default: 0.2 at
    every marker frame)."""
    import ik_oracle                              # tests/ is on pytest's pythonpath
    from importlib.resources import files
    case = ik_oracle.build_case(os.fspath(tmp_path), os.fspath(files("urdf2dyn") / "data" /
                                                               "arm7.urdf"), nframe=10)
    rows = [(k / 100, 0.2) for k in range(10)] if rows is None else rows
    tool = osim.InverseKinematicsTool(case.setup)
    ik_oracle.pull_from_file(tool, tmp_path, "arm7_joint5", rows, in_degrees)
    tool.setOutputMotionFileName("from_file.mot")
    setup = tmp_path / "from_file.xml"
    tool.printToXML(os.fspath(setup))
    ik_oracle.run_opensim(os.fspath(setup))
    return setup


def test_ik_coordinate_file_in_radians_opensim_reads_as_degrees(osim, tmp_path):
    """OpenSim 4.6's InverseKinematicsTool (and the ScaleTool's marker placer) convert their
    coordinate_file from degrees whatever its header says (InverseKinematicsTool.cpp calls
    convertDegreesToRadians unconditionally): a from_file task on a radians file
    (inDegrees=no) of 0.2 rad pulls the coordinate towards 0.2 deg. urdf2dyn used 0.2 rad
    without a word; it still does, as the header says, and names the difference and the fix."""
    from urdf2dyn.biomech import ik
    setup = _from_file_setup(osim, tmp_path)
    theirs = formats.read_opensim(tmp_path / "from_file.mot").column("arm7_joint5")
    np.testing.assert_allclose(theirs, np.radians(0.2), atol=1e-5)
    # the heavy task pulls the arm off the markers (made without it): the fit says so
    fit = r"markers\.trc: inverse kinematics: {} in 10 of 10 frames"
    with (pytest.warns(Urdf2dynWarning, match=fit.format("marker RMS above 2 cm")),
          pytest.warns(Urdf2dynWarning, match=fit.format("largest marker error above 4 cm")),
          pytest.warns(Urdf2dynWarning, match=r"coords.sto: its angles are radians "
                                              r"\(inDegrees=no\).*arm7_joint5.*"
                                              r"InverseKinematicsTool.*inDegrees=yes") as said):
        ours = ik.run_setup(setup, output="")
    assert sum("InverseKinematicsTool" in str(w.message) for w in said) == 1
    np.testing.assert_allclose(ours.motion.column("arm7_joint5"), 0.2, atol=1e-3)


@pytest.mark.parametrize("in_degrees", ["no", "yes"])
def test_ik_coordinate_file_under_opensims_processing_gives_opensims_moments(osim, tmp_path,
                                                                             capsys,
                                                                             in_degrees):
    """'urdf2dyn torques --ik-setup ... --processing opensim' promises OpenSim's processing:
    OpenSim 4.6's InverseKinematicsTool, then its InverseDynamicsTool on the motion it
    writes. The ID tool reads a coordinates file in the units its header says, as urdf2dyn
    does; the IK tool reads its coordinate_file in degrees whatever the header says. With
    inDegrees=no urdf2dyn took the file's 0.2 for radians under OpenSim's processing too:
    its moments differed from OpenSim's by up to 116 N.m (of 560). It reads the file as
    OpenSim's IK tool does, and says so."""
    from urdf2dyn import cli
    setup = _from_file_setup(osim, tmp_path, in_degrees)
    model = tmp_path / "model.osim"
    tool = osim.InverseDynamicsTool()
    tool.setModelFileName(os.fspath(model))
    tool.setCoordinatesFileName(os.fspath(tmp_path / "from_file.mot"))
    tool.setLowpassCutoffFrequency(-1)
    tool.setStartTime(0)
    tool.setEndTime(1)
    tool.setResultsDir(os.fspath(tmp_path))
    tool.setOutputGenForceFileName("id.sto")
    assert tool.run()
    labels, theirs, _, _ = read_sto_table(tmp_path / "id.sto")
    assert cli.main(["torques", os.fspath(model), os.fspath(tmp_path / "markers.trc"),
                     "--ik-setup", os.fspath(setup), "--processing", "opensim", "--no-progress",
                     "-o", os.fspath(tmp_path / "ours.sto")]) == 0
    told = [line for line in capsys.readouterr().err.splitlines() if "coords.sto" in line]
    ours_labels, ours, _, _ = read_sto_table(tmp_path / "ours.sto")
    assert ours_labels == labels and np.abs(theirs[:, 1:]).max() > 100
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-2)
    if in_degrees == "no":
        assert len(told) == 1 and "its header says radians (inDegrees=no)" in told[0], told
        assert "'arm7_joint5' were taken for degrees" in told[0], told[0]
    else:
        assert told == []


def test_ik_coordinate_file_under_opensims_processing_is_sampled_by_opensims_splines(
        osim, tmp_path):
    """OpenSim 4.6's InverseKinematicsTool makes natural quintic splines of its
    coordinate_file (GCVSplineSet(5, ...), unfiltered) and evaluates them at the marker
    frames; urdf2dyn interpolated it linearly, also under OpenSim's processing. On a file of
    8 unevenly spaced rows between and around arm7's 10 marker frames (the first and last
    frames beyond them), a from_file task of weight 1e4 put arm7_joint5 up to 0.07 rad
    (4 degrees) away from OpenSim's IK. Under OpenSim's processing urdf2dyn now samples the
    file as OpenSim does; its own processing keeps the linear interpolation."""
    from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
    times = [0.004, 0.013, 0.027, 0.036, 0.052, 0.071, 0.078, 0.086]
    rows = [(t, round(30 + 40 * np.sin(25 * t), 6)) for t in times]
    setup = _from_file_setup(osim, tmp_path, "yes", rows)
    theirs = formats.read_opensim(tmp_path / "from_file.mot")
    joint = theirs.names.index("arm7_joint5")
    trc, model = os.fspath(tmp_path / "markers.trc"), os.fspath(tmp_path / "model.osim")
    ours, said = _said(lambda: inverse_dynamics_trial(model, trc, processing="opensim",
                                                       ik_setup=os.fspath(setup)))
    assert not [w for w in said if "coords.sto" in w], said
    np.testing.assert_array_equal(ours.t, theirs.time)
    np.testing.assert_allclose(ours.q, theirs.q, rtol=0, atol=1e-6)    # 2e-8 rad here
    linear = np.radians(np.interp(theirs.time, *zip(*rows)))
    own = _said(lambda: inverse_dynamics_trial(model, trc, ik_setup=os.fspath(setup)))[0]
    np.testing.assert_allclose(own.q[:, joint], linear, rtol=0, atol=1e-3)
    assert np.abs(linear - theirs.q[:, joint]).max() > 0.05


def test_ik_coordinate_file_of_five_rows_is_refused_under_opensims_processing(osim,
                                                                               tmp_path):
    """OpenSim 4.6's InverseKinematicsTool fails on a coordinate_file of fewer than 6 rows
    (GCVSpline needs 6 for degree 5); under OpenSim's processing urdf2dyn refuses it naming
    the file, what OpenSim needs and the way out."""
    from urdf2dyn.biomech.ik import IKSetupError
    from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
    rows = [(k / 50, 10.0 * k) for k in range(5)]
    with pytest.raises(RuntimeError, match="InverseKinematicsTool Failed"):
        _from_file_setup(osim, tmp_path, "yes", rows)
    setup = tmp_path / "from_file.xml"                  # written before OpenSim ran it
    trc, model = os.fspath(tmp_path / "markers.trc"), os.fspath(tmp_path / "model.osim")
    with pytest.raises(IKSetupError, match=r"coords.sto: 5 rows; OpenSim's processing .*"
                                           r"at least 6 .*give at least 6 rows"):
        _said(lambda: inverse_dynamics_trial(model, trc, processing="opensim",
                                             ik_setup=os.fspath(setup)))


# ------------------------------------------------------- header variants against Storage

LABELS = ["time", "hip_flexion_r", "pelvis_tx"]


@st.composite
def motion_files(draw):
    """(file name, text, rows (N, 3) as written): a motion file whose header lines are drawn
    from those real files have (a name or a comment first, version 1 or 3 or none, counts
    right, wrong, missing or mis-cased, inDegrees in OpenSim's spellings or missing, keys
    OpenSim does not know, in any order), with tabs or blanks, LF or CRLF, blank lines at
    the end; its numbers are printed with 6 significant digits, perhaps a NaN among them,
    a tab ending each row, a blank line or a line of blanks between two rows."""
    n = draw(st.integers(2, 5))
    values = draw(st.lists(st.lists(st.integers(-99999, 99999), min_size=2, max_size=2),
                           min_size=n, max_size=n))
    rows = np.array([[0.01 * k] + [v / 1000 for v in r] for k, r in enumerate(values)])
    count = lambda actual: draw(st.sampled_from([None, actual, actual, actual - 1,  # noqa
                                                 actual + 1]))
    nrows, ncols = count(n), count(3)
    keys = []
    if nrows is not None:
        keys.append(draw(st.sampled_from(["nRows={}", "nRows = {}", "datarows {}", "nr={}",
                                          "NROWS={}"])).format(nrows))
    if ncols is not None:
        keys.append(draw(st.sampled_from(["nColumns={}", "datacolumns {}", "nc={}",
                                          "nColumns ={}"])).format(ncols))
    version = draw(st.sampled_from([None, "version=1", "version=3", "version 1", "version=0"]))
    if version:
        keys.append(version)
    degrees = draw(st.sampled_from([None, "inDegrees=yes", "inDegrees=no", "inDegrees=Y",
                                    "inDegrees = no", "inDegrees yes"]))
    if degrees:
        keys.append(degrees)
    keys += draw(st.lists(st.sampled_from(["DataType=double", "OpenSimVersion=4.6",
                                           "units=m", "subject=s01"]), max_size=2, unique=True))
    keys = draw(st.permutations(keys))
    first = draw(st.sampled_from(["walk", "name walk", "# exported by a script", ""]))
    sep = draw(st.sampled_from(["\t", "\t", " ", "   "]))
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    lines = ([first] if first else []) + list(keys) + ["endheader", sep.join(LABELS)]
    if draw(st.booleans()):                               # a gap: NaN in one cell
        rows[draw(st.integers(0, n - 1)), draw(st.integers(1, 2))] = np.nan
    end = draw(st.sampled_from(["", "", "\t"]))            # a tab ending each row
    data = [sep.join(f"{x:.6g}" for x in r) + end for r in rows]
    if draw(st.booleans()):                               # a blank line inside the data
        data.insert(draw(st.integers(1, n - 1)), draw(st.sampled_from(["", " ", "\t"])))
    lines += data
    text = eol.join(lines) + eol + eol * draw(st.integers(0, 2))
    name = "m" + draw(st.sampled_from([".sto", ".mot"]))
    return name, text, rows


def _storage_reading(osim, path):
    """(time and values (N, 3), in degrees) as opensim.Storage reads a file, or None when it
    refuses it."""
    try:
        s = osim.Storage(str(path))
    except RuntimeError:
        return None
    rows = [[s.getStateVector(r).getTime()]
            + [s.getStateVector(r).getData().get(k)
               for k in range(s.getStateVector(r).getData().getSize())]
            for r in range(s.getSize())]
    return rows, s.isInDegrees()


@settings(max_examples=int(os.environ.get("URDF2DYN_READER_EXAMPLES", 60)), derandomize=True,
          deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=motion_files())
def test_header_variants_read_as_opensims_storage_reads_them_or_said(osim, tmp_path, case):
    """urdf2dyn reads every drawn file's numbers as written, or refuses it; where it says
    nothing, OpenSim 4.6's Storage (the reader of its tools) reads the same numbers (to the
    printed precision) in the same units; where Storage refuses a file or reads other
    numbers, urdf2dyn warns or refuses."""
    name, text, rows = case
    path = tmp_path / name
    path.write_bytes(text.encode())
    theirs = _storage_reading(osim, path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ours = formats.read_opensim(path)
            _, data, _, _ = read_sto_table(path)
        except MotionError as e:
            assert str(path) in str(e)
            return
    said = [str(w.message) for w in caught if issubclass(w.category, Urdf2dynWarning)]
    np.testing.assert_allclose(data, rows, rtol=1e-5, atol=1e-9)
    same = (theirs is not None and len(theirs[0]) == len(rows)
            and all(len(r) == 3 for r in theirs[0])
            and np.allclose(theirs[0], data, rtol=1e-15, atol=0, equal_nan=True))
    if theirs is not None and not said:
        assert theirs[1] == ours.meta["in_degrees"], (text, theirs[1])
    if not same:
        assert said, (text, theirs)


@st.composite
def marker_files(draw):
    """(text, time (N,), xyz (N, 2, 3) in the file's units with NaN gaps, metres per unit):
    a .trc of markers A and B whose header and rows vary as real files do: the unit's
    spelling, NumFrames and NumMarkers right or not, DataRate other than the times', frame
    numbers from 0, 1 or 10 (the first perhaps missing), gaps of a whole marker or of one
    coordinate, a tab ending each row or not, a blank line between rows, LF or CRLF."""
    n = draw(st.integers(2, 5))
    units, scale = draw(st.sampled_from([("mm", 1e-3), ("m", 1.0), ("MM", 1e-3),
                                         ("millimeters", 1e-3)]))
    xyz = np.array(draw(st.lists(st.integers(100, 2000), min_size=6 * n, max_size=6 * n)),
                   dtype=float).reshape(n, 2, 3) * (1.0 if scale < 1 else 1e-3)
    gaps = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 1),
                                   st.sampled_from([None, 0, 1, 2])), max_size=2))
    blank = np.zeros((n, 2, 3), dtype=bool)
    for r, m, c in gaps:
        blank[r, m, slice(None) if c is None else c] = True
    time = np.arange(n) / 100.0
    frames = [draw(st.sampled_from([0, 1, 10])) + k for k in range(n)]
    first_frame = draw(st.sampled_from(["", str(frames[0])]))
    end = draw(st.sampled_from(["\t", "\t", ""]))
    rate = draw(st.sampled_from(["100", "100", "60"]))
    nframes = draw(st.sampled_from([n, n, n + 1, n - 1]))
    nmarkers = draw(st.sampled_from([2, 2, 3]))
    rows = []
    for r in range(n):
        cells = ["" if blank[r, m, c] else f"{xyz[r, m, c]:.6g}"
                 for m in range(2) for c in range(3)]
        frame = first_frame if r == 0 else str(frames[r])
        rows.append(f"{frame}\t{time[r]:.6g}\t" + "\t".join(cells) + end)
    if draw(st.booleans()):
        rows.insert(draw(st.integers(1, n - 1)), "")
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    lines = ["PathFileType\t4\t(X/Y/Z)\tm.trc",
             "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\t"
             "OrigDataStartFrame\tOrigNumFrames",
             f"{rate}\t{rate}\t{nframes}\t{nmarkers}\t{units}\t{rate}\t1\t{nframes}",
             "Frame#\tTime\tA\t\t\tB\t\t\t", "\t\tX1\tY1\tZ1\tX2\tY2\tZ2\t", ""] + rows
    xyz[blank.any(axis=2)] = np.nan                   # a blank coordinate hides its marker
    return eol.join(lines) + eol, time, xyz, scale


@settings(max_examples=int(os.environ.get("URDF2DYN_READER_EXAMPLES", 60)), derandomize=True,
          deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=marker_files())
def test_trc_variants_read_as_opensims_trc_adapter_reads_them_or_said(osim, tmp_path, case):
    """urdf2dyn reads every drawn .trc's markers as written (a blank coordinate hiding its
    marker, as OpenSim reads it), or refuses it; where it says nothing, OpenSim 4.6's
    TRCFileAdapter reads the same times and positions; where OpenSim refuses the file or
    reads other numbers, urdf2dyn warns or refuses. (A file whose frame numbers are all
    missing is not drawn: OpenSim never ends reading it.)"""
    text, time, xyz, scale = case
    path = tmp_path / "m.trc"
    path.write_bytes(text.encode())
    try:
        theirs = _opensim_trc(osim, path)
    except RuntimeError:
        theirs = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ours = formats.read_trc(path)
        except MotionError as e:
            assert str(path) in str(e)
            return
    said = [str(w.message) for w in caught if issubclass(w.category, Urdf2dynWarning)]
    np.testing.assert_allclose(ours.time, time, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.xyz, xyz * scale, rtol=1e-12, atol=0)
    same = (theirs is not None and theirs[1].shape == xyz.shape
            and np.allclose(theirs[0], time, rtol=0, atol=1e-12)
            and np.allclose(theirs[1], xyz, rtol=1e-12, atol=0, equal_nan=True))
    if not same:
        assert said, (text, theirs)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["inDegrees", "InDegrees", "indegrees"]),
       separator=st.sampled_from(["=", " = ", "\t=\t", "= ", " =", "==", " ", "\t"]),
       value=st.sampled_from(["yes", "Yes", "YES", "y", "Y", "no", "No", "NO", "n"]),
       lead=st.sampled_from(["", " ", "\t"]), trail=st.sampled_from(["", " ", "\t", "  "]),
       crlf=st.booleans(), ext=st.sampled_from([".sto", ".mot"]),
       head=st.sampled_from(["version=1\nnRows=3\nnColumns=3", "nRows=3\nnColumns=3",
                             "version=3"]))
def test_in_degrees_header_variants_as_opensims_two_readers_take_them(
        osim, tmp_path_factory, key, separator, value, lead, trail, crlf, ext, head):
    """Oracle: OpenSim 4.6's Storage (the reader of its IK and inverse-dynamics tools:
    getInDegrees) and its TimeSeriesTable (STOFileAdapter: the 'inDegrees' metadata Moco's
    TableProcessor accepts as 'yes' or 'no' only) on an inDegrees line in every spelling of
    blanks, tabs, '=', case and line ends. urdf2dyn reads the angles as Storage does (or
    refuses a line whose words say otherwise than Storage reads them); where the table reader
    reads no 'yes' or 'no' from the line ('inDegrees = yes', 'inDegrees=Yes', 'inDegrees
    yes', ' inDegrees=yes'), or reads other units than Storage (a SIMM .mot), it says so.
    urdf2dyn said nothing of the table reader before."""
    line = f"{lead}{key}{separator}{value}{trail}"
    text = f"m\n{head}\n{line}\nendheader\n" + TABLE
    path = tmp_path_factory.mktemp("in_degrees") / f"m{ext}"
    path.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode())
    storage = osim.Storage(str(path)).isInDegrees()
    table = osim.TimeSeriesTable(str(path))
    tst = (table.getTableMetaDataAsString("inDegrees")
           if table.hasTableMetaDataKey("inDegrees") else None)
    try:
        ours, said = _said(lambda: formats.read_opensim(path))
    except MotionError as e:
        meant = value.lower() in ("y", "yes")
        assert meant != storage, (line, storage, str(e))   # refused only where they differ
        assert "OpenSim 4.6 reads the angles of this file as" in str(e)
        return
    assert ours.meta["in_degrees"] == storage, (line, storage)
    told = [w for w in said if "TimeSeriesTable" in w]
    if tst in ("yes", "no"):
        assert told == [], (line, told)
        if (tst == "yes") != storage:                       # a SIMM .mot: 'no' is degrees
            assert said, (line, tst, storage)
    elif key != "inDegrees":                    # the key, as Storage needs it, said instead
        assert told == [] and any("OpenSim 4.6's key is 'inDegrees'" in w for w in said), said
    else:
        assert len(told) == 1 and "m" + ext in told[0], (line, tst, said)
        assert f"Write 'inDegrees={'yes' if storage else 'no'}'" in told[0], told[0]
