"""OpenSim's text files read as OpenSim 4.6 reads them (opensim.Storage, the InverseDynamicsTool,
TRCFileAdapter): SIMM motion files (a .mot without a version line) in degrees, labels split at
doubled or trailing tabs, row and column counts in a header that disagree with the table, a
.trc header laid out with doubled tabs. The opensim-core files are in tests/data/opensim_core
(its README says where each comes from)."""
import os
import pathlib
import shutil
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn.biomech import formats
from urdf2dyn.biomech.formats.opensim import read_sto_table
from urdf2dyn.biomech.plausibility import units
from urdf2dyn.biomech.processing import LIBRARY_COLUMNS
from urdf2dyn.biomech.trajectory import MotionError
from urdf2dyn.cli.options import TRIAL_COLUMNS
from urdf2dyn.warn import Urdf2dynWarning

CORE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "opensim_core")
MODELS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "opensim_models")


def _storage(osim, path, model=None):
    """(labels, time, data) of opensim.Storage(path), its rotational coordinates converted to
    radians with the model as the InverseDynamicsTool converts them when the file is in
    degrees; and whether Storage read it in degrees."""
    s = osim.Storage(str(path))
    degrees = s.isInDegrees()
    if model is not None and degrees:
        m = osim.Model(str(model))
        m.initSystem()
        m.getSimbodyEngine().convertDegreesToRadians(s)
    labels = [s.getColumnLabels().get(k) for k in range(s.getColumnLabels().getSize())]
    time = np.array([s.getStateVector(r).getTime() for r in range(s.getSize())])
    data = np.array([[s.getStateVector(r).getData().get(k)
                      for k in range(s.getStateVector(r).getData().getSize())]
                     for r in range(s.getSize())])
    return labels, time, data, degrees


@pytest.mark.parametrize("motion, model", [
    ("arm26_InverseKinematics.mot", os.path.join(CORE, "arm26.osim")),
    ("subject01_walk1_ik.mot", os.path.join(MODELS, "Gait2354_Simbody", "subject01_simbody.osim"))])
def test_simm_motion_files_are_in_degrees_as_opensim_reads_them(osim, motion, model):
    """opensim-core's SIMM-style motion files (no version line: arm26's SIMM header with
    datarows/datacolumns/range, gait2354's 'Coordinates / nRows / nColumns' header): OpenSim's
    Storage reads them in degrees and the ID tool converts the model's rotational coordinates;
    urdf2dyn read them as radians (arm26's elbow at 90 'rad'). Only OpenSim's TimeSeriesTable
    (Moco's reader) finds no units in them: said once, with the line to add."""
    path = os.path.join(CORE, motion)
    labels, t, data, degrees = _storage(osim, path, model)
    assert degrees
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = formats.read_opensim(path, model=urdf2dyn.load(model))
    said = [str(w.message) for w in caught]
    assert len(said) == 1 and "Add the line 'inDegrees=yes'" in said[0], said
    assert ours.meta["in_degrees"] and ours.meta["units"].startswith("degrees (SIMM")
    np.testing.assert_allclose(ours.time, t, rtol=0, atol=1e-12)
    for k, name in enumerate(labels[1:]):
        if name in ours.names:
            np.testing.assert_allclose(ours.column(name), data[:, k], rtol=1e-12, atol=1e-12,
                                       err_msg=name)


def test_simm_motion_gives_opensims_inverse_dynamics(osim, tmp_path, monkeypatch):
    """The InverseDynamicsTool and urdf2dyn's inverse_dynamics_setup on arm26 and its SIMM
    motion file (the user trial's case: OpenSim's torques peak at a few N m, urdf2dyn's at
    hundreds, the angles taken for radians)."""
    for f in ("arm26.osim", "arm26_InverseKinematics.mot"):
        shutil.copy(os.path.join(CORE, f), tmp_path / f)
    (tmp_path / "setup.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">'
        '<InverseDynamicsTool name="arm26"><model_file>arm26.osim</model_file>'
        '<results_directory>res</results_directory>'
        '<coordinates_file>arm26_InverseKinematics.mot</coordinates_file>'
        '<lowpass_cutoff_frequency_for_coordinates>-1</lowpass_cutoff_frequency_for_coordinates>'
        '<time_range>0 0.25</time_range><forces_to_exclude>Muscles</forces_to_exclude>'
        '<output_gen_force_file>id.sto</output_gen_force_file>'
        '</InverseDynamicsTool></OpenSimDocument>\n')
    monkeypatch.chdir(tmp_path)
    assert osim.InverseDynamicsTool("setup.xml").run()
    la, theirs, _ = read_sto_table("res/id.sto")[:3]
    with (pytest.warns(Urdf2dynWarning, match="are not coordinates of the model 'arm26'"),
          pytest.warns(Urdf2dynWarning, match="no inDegrees line.*Add the line 'inDegrees=yes'")):
        ours = urdf2dyn.inverse_dynamics_setup("setup.xml", checks=False)
    names = list(urdf2dyn.load("arm26.osim").v_names)
    cols = [names.index(n.removesuffix("_moment").removesuffix("_force")) for n in la[1:]]
    assert np.abs(theirs[:, 1:]).max() < 10
    np.testing.assert_allclose(ours.t, theirs[:, 0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.tau[:, cols], theirs[:, 1:], rtol=0, atol=1e-6)


def test_in_degrees_rule_follows_storage(osim, tmp_path):
    """Storage's rule: a .mot without a version is in degrees even when it says inDegrees=no
    (urdf2dyn says so: the user must add version=1 if the angles are radians); a .sto
    without a version follows inDegrees; version=1 follows inDegrees. (A file without any
    inDegrees line is said to lack what OpenSim's TimeSeriesTable needs.)"""
    table = "endheader\ntime\tknee\n0\t10\n0.01\t20\n"
    cases = {"simm_no.mot": ("x\nnRows=2\nnColumns=2\ninDegrees=no\n", True),
             "simm.mot": ("x\nnRows=2\nnColumns=2\n", True),
             "old_no.sto": ("x\nnRows=2\nnColumns=2\ninDegrees=no\n", False),
             "old_yes.sto": ("x\nnRows=2\nnColumns=2\ninDegrees=yes\n", True),
             "v1_no.mot": ("x\nversion=1\nnRows=2\nnColumns=2\ninDegrees=no\n", False),
             "v1_yes.mot": ("x\nversion=1\nnRows=2\nnColumns=2\ninDegrees=yes\n", True)}
    for name, (header, degrees) in cases.items():
        p = tmp_path / name
        p.write_text(header + table)
        assert osim.Storage(str(p)).isInDegrees() == degrees, name
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            ours = formats.read_opensim(p)
        assert ours.meta["in_degrees"] == degrees, name
        told = [str(w.message) for w in said if issubclass(w.category, Urdf2dynWarning)]
        if name == "simm_no.mot":
            assert len(told) == 1 and "add a line 'version=1'" in told[0], told
            assert "simm_no.mot: line 4: inDegrees=no but no 'version=' line" in told[0]
        elif name == "simm.mot":            # no inDegrees line: Moco's reader has no units
            assert len(told) == 1 and "Add the line 'inDegrees=yes'" in told[0], told
        else:
            assert told == [], (name, told)


def test_units_advice_for_opensim_files_is_what_the_user_can_do():
    """The degrees/radians check advised --degrees for a .mot, which urdf2dyn refuses for any
    .mot (and with --setup): an OpenSim file is told to fix its header. A CSV is told the
    caller's option: degrees=True to a library caller, --degrees to `urdf2dyn torques`."""
    model = urdf2dyn.load(os.path.join(CORE, "arm26.osim"))
    q_rad = np.full((3, model.nq), 0.2)
    for source, degrees, q in (("a.mot", True, np.radians(q_rad)), ("a.sto", False, q_rad * 50)):
        for named in (LIBRARY_COLUMNS, TRIAL_COLUMNS):
            said = units(model, q, degrees, source, named)
            assert len(said) == 1 and "degrees=True" not in said[0], said
            assert "--degrees" not in said[0] and "header" in said[0], said
    assert "pass degrees=True" in units(model, q_rad * 50, False, "a.csv")[0]
    assert "pass --degrees" in units(model, q_rad * 50, False, "a.csv", TRIAL_COLUMNS)[0]


def test_labels_with_doubled_and_trailing_tabs(osim, tmp_path):
    """A label line with a trailing tab and doubled tabs: Storage drops the empty labels
    (strtok), urdf2dyn counted them and refused every row ('19 values for 20 columns')."""
    p = tmp_path / "grf.mot"
    p.write_text("name grf.mot\ndatacolumns 3\ndatarows 2\nrange 0 0.01\nendheader\n"
                 "     time\t\t fx\t fy\t\n  0\t 1.5\t 2.5\t\n  0.01\t 3.5\t 4.5\t\n")
    labels, t, data, _ = _storage(osim, p)
    ours_labels, ours, _, _ = read_sto_table(p)
    assert ours_labels == labels == ["time", "fx", "fy"]
    np.testing.assert_array_equal(ours, np.column_stack([t, data]))


@pytest.mark.parametrize("name, key, found", [("subject01_walk_IK.mot", "nRows=151", "7 rows"),
                                              ("DoublePendulum3D_InitialStates.sto",
                                               "nColumns=4", "5 columns")])
def test_counts_that_disagree_with_the_table_are_warned_about(osim, name, key, found):
    """opensim-core's files whose nRows/nColumns disagree with their tables: OpenSim reads
    them (the rows there are, the labels there are), urdf2dyn refused them; it warns now,
    naming the file, the header key and what it found, and reads the table."""
    path = os.path.join(CORE, name)
    labels, t, data, _ = _storage(osim, path)
    with pytest.warns(Urdf2dynWarning, match=rf"{name}: line \d: the header says {key} but the "
                                             rf"table has {found}.*Set {key.split('=')[0]}"):
        ours_labels, ours, _, _ = read_sto_table(path)
    assert ours_labels == labels
    np.testing.assert_array_equal(ours[:, 0], t)
    np.testing.assert_array_equal(ours[:, 1:1 + data.shape[1]], data)


def test_trc_header_with_doubled_tabs(osim, tmp_path):
    """A .trc whose header lines 2-3 use doubled tabs: TRCFileAdapter drops the empty cells
    and reads it (5 frames, 3 markers, mm); urdf2dyn took '5' (NumFrames' cell shifted) for
    Units."""
    p = tmp_path / "double.trc"
    rows = [f"{k + 1}\t{k / 100:.5f}\t" + "\t".join(f"{100 * m + k + 0.5:.3f}" for m in range(9))
            for k in range(5)]
    p.write_text("PathFileType\t4\t(X/Y/Z)\tdouble.trc\n"
                 "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\t"
                 "OrigDataStartFrame\tOrigNumFrames\n"
                 "100.0\t\t100.0\t\t5\t\t3\t\tmm\t100.0\t1\t5\n"
                 "Frame#\tTime\tA\t\t\tB\t\t\tC\t\t\n"
                 "\t\tX1\tY1\tZ1\tX2\tY2\tZ2\tX3\tY3\tZ3\n\n" + "\n".join(rows) + "\n")
    theirs = osim.TimeSeriesTableVec3(str(p))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = formats.read_trc(p)
    assert theirs.getTableMetaDataAsString("Units") == ours.meta["units"] == "mm"
    assert list(theirs.getColumnLabels()) == list(ours.labels)
    assert ours.xyz.shape == (theirs.getNumRows(), 3, 3)
    flat = theirs.flatten()             # kept: a temporary table frees the matrix under numpy
    mat = flat.getMatrix().to_numpy()
    np.testing.assert_allclose(ours.xyz.reshape(5, 9), mat / 1000, rtol=0, atol=1e-12)


def test_simm_counts_that_disagree_are_named_as_written(osim, tmp_path):
    """SIMM's 'datarows N' (no '='), the count OpenSim's Storage reads too: named as written."""
    p = tmp_path / "grf.mot"
    p.write_text("name grf\ndatacolumns 2\ndatarows 9\nrange 0 0.01\nendheader\n"
                 "time\tfx\n0\t1\n0.01\t2\n")
    assert osim.Storage(str(p)).getSize() == 2
    with pytest.warns(Urdf2dynWarning, match=r"grf.mot: line 3: the header says datarows 9 but "
                                             r"the table has 2 rows; the 2 rows were read. Set "
                                             r"datarows to 2 in the header"):
        assert read_sto_table(p)[1].shape == (2, 2)


def arm26_motion(path, header, degrees=False):
    """A coordinates file of arm26 (time, r_shoulder_elev, r_elbow_flex), its angles in degrees
    or radians, with the header lines given (without 'endheader')."""
    t = np.linspace(0, 0.5, 11)
    q = np.column_stack([0.3 + 0.4 * np.sin(4 * t), 1.0 + 0.5 * np.cos(3 * t)])
    q = np.degrees(q) if degrees else q
    rows = "".join(f"{ti:.10f}\t{a:.10f}\t{b:.10f}\n" for ti, (a, b) in zip(t, q))
    path.write_text(header + "\nendheader\ntime\tr_shoulder_elev\tr_elbow_flex\n" + rows)
    return path


def run_id_tool(osim, coordinates):
    """Whether OpenSim 4.6's InverseDynamicsTool computes arm26's generalized forces (its
    muscles excluded) from a coordinates file; they are written beside it."""
    tool = osim.InverseDynamicsTool()
    tool.setModelFileName(os.path.join(CORE, "arm26.osim"))
    tool.setCoordinatesFileName(str(coordinates))
    tool.setLowpassCutoffFrequency(-1)
    tool.setStartTime(0)
    tool.setEndTime(0.5)
    excluded = osim.ArrayStr()
    excluded.append("Muscles")
    tool.setExcludedForces(excluded)
    tool.setResultsDir(str(coordinates.parent))
    tool.setOutputGenForceFileName(coordinates.name + ".id.sto")
    try:
        return bool(tool.run())
    except RuntimeError:
        return False


def _id_tool(osim, coordinates):
    """The generalized forces (N, 2) OpenSim 4.6's InverseDynamicsTool computes for arm26 (its
    muscles excluded) from a coordinates file."""
    assert run_id_tool(osim, coordinates)
    return read_sto_table(coordinates.parent / (coordinates.name + ".id.sto"))[1][:, 1:]


@pytest.mark.parametrize("line, degrees", [("inDegrees=yes", True), ("inDegrees=Yes", True),
                                           ("inDegrees=y", True), ("inDegrees yes", True),
                                           ("inDegrees = YES", True), ("inDegrees=no", False),
                                           ("inDegrees=N", False), ("inDegrees=false", False)])
def test_in_degrees_spellings_opensim_reads(osim, tmp_path, line, degrees):
    """The spellings of inDegrees OpenSim 4.6's Storage reads (the value 'yes' or 'y' in any
    case says degrees, anything else radians; the key 'inDegrees' followed by '=' or a blank),
    and the InverseDynamicsTool computes its moments from: urdf2dyn reads them alike. It read
    'inDegrees yes' (no '=', degrees to OpenSim) as radians. Only 'inDegrees=yes' and
    'inDegrees=no' are read alike by OpenSim's TimeSeriesTable (Moco's reader): the others
    are warned about, that once."""
    path = arm26_motion(tmp_path / "arm.sto", f"arm\nversion=1\nnRows=11\nnColumns=3\n{line}",
                         degrees)
    assert osim.Storage(str(path)).isInDegrees() == degrees
    radians = arm26_motion(tmp_path / "rad.sto", "arm\nversion=1\nnRows=11\nnColumns=3\n"
                                                  "inDegrees=no", False)
    np.testing.assert_allclose(_id_tool(osim, path), _id_tool(osim, radians), atol=1e-6)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = formats.read_opensim(path)
    said = [str(w.message) for w in caught]
    assert len(said) == (line not in ("inDegrees=yes", "inDegrees=no")), said
    assert all("its TimeSeriesTable" in w for w in said), said
    assert ours.meta["in_degrees"] == degrees
    np.testing.assert_allclose(ours.column("r_elbow_flex"), 1.0 + 0.5 * np.cos(3 * ours.time),
                               rtol=0, atol=1e-9)


@pytest.mark.parametrize("line, written, fix", [
    ("inDegrees=true", "inDegrees=true", "inDegrees=yes"),
    ("inDegrees=TRUE", "inDegrees=TRUE", "inDegrees=yes"),
    ("inDegrees=1", "inDegrees=1", "inDegrees=yes"),
    ("InDegrees=yes", "InDegrees=yes", "inDegrees=yes"),
    ("indegrees=y", "indegrees=y", "inDegrees=y")])
def test_in_degrees_that_opensim_reads_as_radians_is_refused(osim, tmp_path, line, written, fix):
    """Headers that say degrees to a reader but radians to OpenSim 4.6 (the value 'true' or '1',
    or the key mis-cased: OpenSim's keys are case-sensitive): its InverseDynamicsTool takes the
    degrees for radians (moments off by hundreds of N m on arm26). urdf2dyn read them as
    degrees, silently disagreeing with OpenSim; it refuses them now, naming the line and what
    to write."""
    path = arm26_motion(tmp_path / "arm.sto", f"arm\nversion=1\nnRows=11\nnColumns=3\n{line}",
                         True)
    assert not osim.Storage(str(path)).isInDegrees()
    radians = arm26_motion(tmp_path / "rad.sto", "arm\nversion=1\nnRows=11\nnColumns=3\n"
                                                  "inDegrees=no", False)
    assert np.abs(_id_tool(osim, path) - _id_tool(osim, radians)).max() > 100
    with pytest.raises(MotionError, match=rf"arm.sto: line 5: '{written}': OpenSim 4.6 reads "
                                          rf"the angles of this file as radians.*"
                                          rf"Write '{fix}' if they are in degrees"):
        formats.read_opensim(path)


def test_mis_cased_version_of_a_mot_is_refused(osim, tmp_path):
    """'Version=1' in a .mot is no version to OpenSim 4.6: it takes the file for a SIMM motion
    file, in degrees, whatever inDegrees=no says, and its ID tool converts radians as if they
    were degrees. urdf2dyn read it as radians (the version key lower-cased); it refuses it."""
    path = arm26_motion(tmp_path / "arm.mot", "arm\nVersion=1\nnRows=11\nnColumns=3\n"
                                               "inDegrees=no", False)
    assert osim.Storage(str(path)).isInDegrees()
    with pytest.raises(MotionError, match=r"arm.mot: line 2: 'Version=1': OpenSim 4.6 reads the "
                                          r"angles of this file as degrees.*Write 'version=1'"):
        formats.read_opensim(path)
    # in a .sto the version decides nothing here: the line at fault is inDegrees=true
    path = arm26_motion(tmp_path / "arm.sto", "arm\nVersion=1\nnRows=11\nnColumns=3\n"
                                               "inDegrees=true", True)
    assert not osim.Storage(str(path)).isInDegrees()
    with pytest.raises(MotionError, match=r"arm.sto: line 5: 'inDegrees=true': OpenSim 4.6 reads "
                                          r"the angles of this file as radians"):
        formats.read_opensim(path)


@pytest.mark.parametrize("line, lineno, expected, opensim", [
    ("NROWS=11", 3, "nRows", "reads no rows"),
    ("nrows=11", 3, "nRows", "reads no rows"),
    ("NCOLUMNS=3", 4, "nColumns", "fails to read the file"),
    ("InDegrees=no", 5, "inDegrees", "ignores this line")])
def test_mis_cased_keys_are_warned_about(osim, tmp_path, line, lineno, expected, opensim):
    """Header keys OpenSim 4.6's Storage does not know in that case (it reads no rows without
    'nRows', fails without 'nColumns'): urdf2dyn applied them silently; it warns, naming the
    line and the key OpenSim expects."""
    header = ["arm", "version=1", "nRows=11", "nColumns=3", "inDegrees=no"]
    header[lineno - 1] = line
    path = arm26_motion(tmp_path / "arm.sto", "\n".join(header), False)
    if expected == "nRows":
        assert osim.Storage(str(path)).getSize() == 0
    elif expected == "nColumns":
        with pytest.raises(RuntimeError):
            osim.Storage(str(path))
    with pytest.warns(Urdf2dynWarning, match=rf"arm.sto: line {lineno}: '{line}': OpenSim "
                                             rf"4.6's key is '{expected}'.*{opensim}.*Write "
                                             rf"'{expected}="):
        ours = formats.read_opensim(path)
    assert len(ours.time) == 11 and not ours.meta["in_degrees"]


@pytest.mark.parametrize("end", ["EndHeader", "ENDHEADER"])
def test_mis_cased_endheader_is_warned_about(osim, tmp_path, end):
    """OpenSim 4.6 refuses a file whose header ends in 'EndHeader' (Storage and
    TimeSeriesTable alike); urdf2dyn reads it and says what OpenSim needs."""
    path = tmp_path / "arm.sto"
    arm26_motion(path, "arm\nversion=1\nnRows=11\nnColumns=3\ninDegrees=no", False)
    path.write_text(path.read_text().replace("endheader", end))
    for reader in (osim.Storage, osim.TimeSeriesTable):
        with pytest.raises(RuntimeError):
            reader(str(path))
    with pytest.warns(Urdf2dynWarning, match=rf"arm.sto: line 6: '{end}': OpenSim 4.6 refuses "
                                             r"this file.*Write 'endheader'"):
        assert len(formats.read_opensim(path).time) == 11


def test_states_file_speeds_are_said_to_be_unused(osim, tmp_path):
    """A states file as OpenSim 4.6's forward simulation writes it (Manager's states table,
    STOFileAdapter): urdf2dyn reads the coordinates from its '/value' columns, and dropped its
    '/speed' columns silently; it now says they are not used and that the velocities and
    accelerations are estimated from the values, and what to do."""
    model = osim.Model(os.path.join(CORE, "arm26.osim"))
    state = model.initSystem()
    model.getCoordinateSet().get("r_elbow_flex").setValue(state, 1.0)
    manager = osim.Manager(model)
    manager.setIntegratorAccuracy(1e-6)
    state.setTime(0)
    manager.initialize(state)
    manager.integrate(0.05)
    table = manager.getStatesTable()
    path = tmp_path / "arm26_states.sto"
    osim.STOFileAdapter.write(table, str(path))
    speeds = [n for n in table.getColumnLabels() if n.endswith("/speed")]
    assert speeds == ["/jointset/r_shoulder/r_shoulder_elev/speed",
                      "/jointset/r_elbow/r_elbow_flex/speed"]
    with pytest.warns(Urdf2dynWarning, match=r"arm26_states.sto: its 2 coordinate speed columns "
                                             r"\('/jointset/r_shoulder/r_shoulder_elev/speed', "
                                             r"'/jointset/r_elbow/r_elbow_flex/speed'\) are not "
                                             r"used: urdf2dyn estimates the velocities and "
                                             r"accelerations by differentiating"):
        ours = formats.read_opensim(path)
    theirs = osim.TimeSeriesTable(str(path))
    assert ours.names == ["r_shoulder_elev", "r_elbow_flex"]
    np.testing.assert_array_equal(ours.time, np.array(theirs.getIndependentColumn()))
    np.testing.assert_array_equal(
        ours.column("r_elbow_flex"),
        theirs.getDependentColumn("/jointset/r_elbow/r_elbow_flex/value").to_numpy())


def _relabel(path, labels):
    """path with its label line replaced."""
    lines = path.read_text().splitlines()
    lines[lines.index("endheader") + 1] = labels
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("labels, hint", [
    ("frame\tr_shoulder_elev\tr_elbow_flex", "if 'frame' counts samples, its times are "
                                             "frame / sampling rate"),
    ("r_elbow_flex\tr_shoulder_elev", "")])
def test_no_time_column_is_refused_as_opensim_refuses_it(osim, tmp_path, labels, hint):
    """A motion file without a 'time' column: OpenSim 4.6's Storage ('no time column found')
    and TimeSeriesTable ('Expected = time') refuse it, and so does urdf2dyn, saying now where
    and what to add (it said 'missing columns ['time']')."""
    path = arm26_motion(tmp_path / "arm.sto", "arm\nversion=1\nnRows=11\nnColumns=3\n"
                                               "inDegrees=no", False)
    if labels.count("\t") == 1:             # two labels: drop the time column of the rows
        text = path.read_text().splitlines()
        k = text.index("endheader") + 2
        text[k:] = ["\t".join(r.split("\t")[1:]) for r in text[k:]]
        path.write_text("\n".join(text).replace("nColumns=3", "nColumns=2") + "\n")
    _relabel(path, labels)
    for reader in (osim.Storage, osim.TimeSeriesTable):
        with pytest.raises(RuntimeError, match="time"):
            reader(str(path))
    with pytest.raises(MotionError, match=rf"arm.sto: line 7: no 'time' column among the "
                                          rf"labels .*OpenSim 4.6 refuses the file too.*"
                                          rf"add the sample times in seconds as the first "
                                          rf"column, labelled 'time'.*{hint}"):
        formats.read_opensim(path)


def test_a_time_column_opensim_does_not_read_is_warned_about(osim, tmp_path):
    """'Time' (OpenSim 4.6 refuses it: its label must be 'time') and a 'time' column that is not
    the first (Storage silently takes the first column for the times, TimeSeriesTable refuses
    it): urdf2dyn reads the times by their label, and says what OpenSim needs."""
    path = arm26_motion(tmp_path / "arm.sto", "arm\nversion=1\nnRows=11\nnColumns=3\n"
                                               "inDegrees=no", False)
    times = formats.read_opensim(path).time
    _relabel(path, "Time\tr_shoulder_elev\tr_elbow_flex")
    for reader in (osim.Storage, osim.TimeSeriesTable):
        with pytest.raises(RuntimeError, match="time"):
            reader(str(path))
    with pytest.warns(Urdf2dynWarning, match=r"arm.sto: line 7: the label 'Time': OpenSim 4.6 "
                                             r"refuses the file.*Write 'time'"):
        np.testing.assert_array_equal(formats.read_opensim(path).time, times)
    text = path.read_text().splitlines()
    k = text.index("endheader") + 1
    text[k:] = ["\t".join(r.split("\t")[1:2] + r.split("\t")[:1] + r.split("\t")[2:])
                for r in text[k:]]
    path.write_text("\n".join(text).replace("Time", "time") + "\n")
    storage = osim.Storage(str(path))
    assert storage.getStateVector(0).getTime() != times[0]      # the shoulder angle
    with pytest.warns(Urdf2dynWarning, match=r"arm.sto: line 7: 'time' is column 2: OpenSim "
                                             r"4.6's Storage takes the first column "
                                             r"\('r_shoulder_elev'\) for the times.*Move 'time' "
                                             r"to the first column"):
        np.testing.assert_array_equal(formats.read_opensim(path).time, times)


@pytest.mark.parametrize("version", [1, 3])
def test_a_column_named_time_in_another_case_is_data_as_opensim_reads_it(osim, tmp_path,
                                                                          version):
    """A 'time' column and another labelled 'Time': OpenSim 4.6's Storage and TimeSeriesTable
    read 'Time' as a column of data; urdf2dyn dropped it silently (it skipped every column
    named time in any case)."""
    path = tmp_path / "two.sto"
    path.write_text(f"two\nversion={version}\nnRows=3\nnColumns=3\ninDegrees=no\nendheader\n"
                    "time\ta\tTime\n0\t1\t10\n0.01\t2\t20\n0.02\t3\t30\n")
    table = osim.TimeSeriesTable(str(path))
    assert list(table.getColumnLabels()) == ["a", "Time"]
    expected = table.getDependentColumn("Time").to_numpy()
    assert _storage(osim, path)[0] == ["time", "a", "Time"]
    ours = formats.read_opensim(path)
    assert ours.names == ["a", "Time"]
    np.testing.assert_array_equal(ours.q[:, 1], expected)
    np.testing.assert_array_equal(ours.time, [0.0, 0.01, 0.02])


def _trc(path, keys="DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\t"
                    "OrigDataStartFrame\tOrigNumFrames", labels="Frame#\tTime"):
    """A .trc of one marker, three frames (mm), its key line and label line as given."""
    rows = "".join(f"{k + 1}\t{k / 100:.2f}\t1\t2\t3\n" for k in range(3))
    path.write_text(f"PathFileType\t4\t(X/Y/Z)\t{path.name}\n{keys}\n"
                    f"100\t100\t3\t1\tmm\t100\t1\t3\n{labels}\tA\t\t\n\t\tX1\tY1\tZ1\n\n{rows}")
    return path


@pytest.mark.parametrize("key, expected", [("units", "Units"), ("numframes", "NumFrames"),
                                           ("DATARATE", "DataRate")])
def test_trc_mis_cased_keys_are_warned_about(osim, tmp_path, key, expected):
    """A .trc header key in another case: OpenSim 4.6's TRCFileAdapter refuses the file
    ('Unexpected key. Expected = Units'); urdf2dyn refused 'units' saying "Units '' is not a
    length unit" and ignored 'numframes' silently. It reads the key and names the line and the
    key OpenSim expects."""
    keys = "\t".join(key if k == expected else k for k in (
        "DataRate", "CameraRate", "NumFrames", "NumMarkers", "Units", "OrigDataRate",
        "OrigDataStartFrame", "OrigNumFrames"))
    path = _trc(tmp_path / "walk.trc", keys=keys)
    with pytest.raises(RuntimeError, match=f"Expected = {expected}"):
        osim.TimeSeriesTableVec3(str(path))
    with pytest.warns(Urdf2dynWarning, match=rf"walk.trc: line 2: the key {key!r}: OpenSim 4.6 "
                                             rf"refuses the file.*Write {expected!r}"):
        ours = formats.read_trc(path)
    assert ours.meta["units"] == "mm" and ours.meta["rate"] == 100
    np.testing.assert_allclose(ours.xyz[:, 0], [[0.001, 0.002, 0.003]] * 3)


def test_trc_lower_case_time_label_is_warned_about(osim, tmp_path):
    """'Frame#<TAB>time': OpenSim 4.6 refuses it ('Expected = Time'); urdf2dyn read it silently."""
    path = _trc(tmp_path / "walk.trc", labels="Frame#\ttime")
    with pytest.raises(RuntimeError, match="Expected = Time"):
        osim.TimeSeriesTableVec3(str(path))
    with pytest.warns(Urdf2dynWarning, match=r"walk.trc: line 4: the label 'time': OpenSim 4.6 "
                                             r"refuses the file.*Write 'Time'"):
        assert len(formats.read_trc(path).time) == 3


def _rra_style_kinematics(path, repeat_last, change=0.0):
    """arm26's coordinates (tests/data/opensim_core) as an OpenSim 4 Kinematics_q.sto, its
    last row written twice as OpenSim's RRA and CMC write it (change: added to the repeated
    row's first angle)."""
    labels, data, _, _ = read_sto_table(os.path.join(CORE, "arm26_InverseKinematics.mot"))
    data = data[:, :3]
    if repeat_last:
        last = data[-1].copy()
        last[1] += change
        data = np.vstack([data, last])
    rows = "\n".join("\t".join(f"{x:.8f}" for x in row) for row in data)
    path.write_text(f"Coordinates\nversion=1\nnRows={len(data)}\nnColumns=3\ninDegrees=yes\n"
                    f"endheader\n{chr(9).join(labels[:3])}\n{rows}\n")


def _arm26_setup(folder, coordinates):
    shutil.copy(os.path.join(CORE, "arm26.osim"), folder / "arm26.osim")
    (folder / f"setup_{coordinates}.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">'
        '<InverseDynamicsTool name="arm26"><model_file>arm26.osim</model_file>'
        '<results_directory>res</results_directory>'
        f'<coordinates_file>{coordinates}</coordinates_file>'
        '<lowpass_cutoff_frequency_for_coordinates>6</lowpass_cutoff_frequency_for_coordinates>'
        # the motion's own time range (0 .. 0.25 s): the filter's padding rows beyond it are
        # not what the test is about
        '<time_range>0 0.25</time_range><forces_to_exclude>Muscles</forces_to_exclude>'
        f'<output_gen_force_file>id_{coordinates}</output_gen_force_file>'
        '</InverseDynamicsTool></OpenSimDocument>\n')
    return str(folder / f"setup_{coordinates}.xml")


@pytest.mark.parametrize("change,said", [
    (0.0, r"data row 32 repeats the row before it \(its time and every value\): dropped"),
    (0.5, r"data row 32 has the time of the row before \(0.25 s\) and other values: it "
          r"replaces that row"),
])
def test_a_time_written_twice_is_read_as_opensims_storage_reads_it(osim, tmp_path, monkeypatch,
                                                                   change, said):
    """OpenSim's RRA writes its last row twice (the Working with Static Optimization tutorial's
    subject_adjusted_Kinematics_q.sto, its own RRA outputs), and its tools read such files:
    opensim.Storage lets a row with the time of the row before it replace that row. urdf2dyn
    refused them ("the time column must be ... strictly increasing"). Now read by Storage's
    rule, with a warning: the torques equal OpenSim's ID tool's on the same file."""
    monkeypatch.chdir(tmp_path)
    _rra_style_kinematics(tmp_path / "twice.sto", repeat_last=True, change=change)
    _rra_style_kinematics(tmp_path / "once.sto", repeat_last=False)
    assert osim.Storage("twice.sto").getSize() == osim.Storage("once.sto").getSize()
    assert osim.InverseDynamicsTool(_arm26_setup(tmp_path, "twice.sto")).run()
    la, theirs, _, _ = read_sto_table("res/id_twice.sto")
    with pytest.warns(Urdf2dynWarning, match="twice.sto: " + said):
        ours = urdf2dyn.inverse_dynamics_setup(_arm26_setup(tmp_path, "twice.sto"),
                                               checks=False)
    names = list(urdf2dyn.load("arm26.osim").v_names)
    cols = [names.index(n.removesuffix("_moment")) for n in la[1:]]
    np.testing.assert_allclose(ours.t, theirs[:, 0], rtol=0, atol=1e-7)
    np.testing.assert_allclose(ours.tau[:, cols], theirs[:, 1:], rtol=0, atol=1e-6)


def test_a_time_written_twice_a_rounding_apart_is_named_as_such(osim):
    """OpenSim's DoublePendulum3D_states.sto (a forward simulation's states, cut to its last
    rows) ends at 2.99999999999998 s and again at 3 s, 2e-14 s apart, where its steps are
    0.01 s: one time written twice, not a clock in other units. urdf2dyn refuses steps that
    short (derivatives across them mean nothing: OpenSim's ID tool, which keeps both rows,
    gives 0.114 N·m at the last where the rows before give 0.01); the refusal said "the time
    column is in seconds", which the file's is. Now it names the two rows and their times,
    as OpenSim's Storage reads them, and says to remove one."""
    path = os.path.join(CORE, "DoublePendulum3D_states_end.sto")
    _, t, _, _ = _storage(osim, path)
    assert len(t) == 8 and 0 < t[7] - t[6] < 1e-13 and np.allclose(np.diff(t[:7]), 0.01)
    with pytest.raises(MotionError) as refused:
        formats.read_opensim(path)
    message = str(refused.value)
    assert message.startswith(
        f"{path}: data row 8 (t = {t[7]:.17g} s) follows data row 7 (t = {t[6]:.17g} s) by "
        f"{t[7] - t[6]:g} s, where the table's steps are 0.01 s: one time written twice"), message
    assert "remove one row of each such pair" in message
    assert "in seconds" not in message


def test_a_coordinate_left_out_is_refused_with_what_to_do(osim, tmp_path, monkeypatch, capsys):
    """arm26's coordinates without r_elbow_flex (a file that leaves out a coordinate that does
    not move, as opensim-core's Moco example3DWalking/coordinates.sto leaves out the mtp
    angles): urdf2dyn's processing refused it with "missing columns ['r_elbow_flex']" and no
    way on. The refusal now says both: add the column, or hold it at its default value as
    OpenSim's inverse-dynamics tool does (--processing opensim), which then gives the tool's
    torques on the same file."""
    from urdf2dyn.cli import main
    monkeypatch.chdir(tmp_path)
    labels, data, _, _ = read_sto_table(os.path.join(CORE, "arm26_InverseKinematics.mot"))
    rows = "\n".join(f"{t:.8f}\t{x:.8f}" for t, x in data[:, :2])
    (tmp_path / "shoulder.sto").write_text(
        f"Coordinates\nversion=1\nnRows={len(data)}\nnColumns=2\ninDegrees=yes\nendheader\n"
        f"{labels[0]}\t{labels[1]}\n{rows}\n")
    assert labels[1] == "r_shoulder_elev"
    setup = _arm26_setup(tmp_path, "shoulder.sto")
    assert osim.InverseDynamicsTool(setup).run()       # holds r_elbow_flex at its default
    la, theirs, _, _ = read_sto_table("res/id_shoulder.sto")
    assert main(["torques", "arm26.osim", "shoulder.sto", "-o", "ours.sto"]) == 1
    err = capsys.readouterr().err
    assert ("shoulder.sto: missing columns ['r_elbow_flex']; add their columns to the file (a "
            "coordinate that does not move: its value in every row), or hold them at their "
            "default values as OpenSim's inverse-dynamics tool does (--processing opensim)"
            ) in err, err
    assert main(["torques", "arm26.osim", "shoulder.sto", "-o", "ours.sto", "--processing",
                 "opensim", "--filter", "6", "--time-range", "0", "0.25"]) == 0
    lo, ours, _, _ = read_sto_table("ours.sto")
    assert lo == la
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-6)


def test_a_states_file_under_opensims_processing_says_what_opensims_tool_reads(
        osim, tmp_path, monkeypatch, capsys):
    """A coordinates file whose columns are state paths, as OpenSim 4 writes states tables
    and as opensim-core's Moco examples give their coordinates (example3DWalking/
    coordinates.sto, example2DWalking/referenceCoordinates.sto), to torques --processing
    opensim: OpenSim 4.6's InverseDynamicsTool does not read those columns (it logs
    "coordinate file does not contain coordinate ...") and holds every coordinate at its
    default value, so its torques are those of the default pose in every row; urdf2dyn read
    the coordinates without a word. It still reads them (a demanding OpenSim user wants the
    torques of the motion in the file, not of a pose nobody recorded), and now says what
    OpenSim's tool does and what to do: renamed as it advises, the file gives OpenSim's
    tool urdf2dyn's torques."""
    from urdf2dyn.cli import main
    monkeypatch.chdir(tmp_path)
    shutil.copy(os.path.join(CORE, "arm26.osim"), tmp_path / "arm26.osim")
    header = "version=1\nnRows=11\nnColumns=3\ninDegrees=no"
    named = arm26_motion(tmp_path / "named.sto", "named\n" + header)
    paths = arm26_motion(tmp_path / "paths.sto", "paths\n" + header)
    _relabel(paths, "time\t/jointset/r_shoulder/r_shoulder_elev/value\t"
                    "/jointset/r_elbow/r_elbow_flex/value")
    held = _id_tool(osim, paths)
    assert np.ptp(held, axis=0).max() == 0                  # the default pose in every row
    theirs = _id_tool(osim, named)
    assert np.ptp(theirs, axis=0).min() > 0.1               # the motion's torques
    assert main(["torques", "arm26.osim", "paths.sto", "-o", "ours.sto",
                 "--processing", "opensim", "--time-range", "0", "0.5"]) == 0
    err = capsys.readouterr().err
    assert ("paths.sto: its 2 coordinate columns "
            "('/jointset/r_shoulder/r_shoulder_elev/value', "
            "'/jointset/r_elbow/r_elbow_flex/value') are named by state path: OpenSim 4.6's "
            "InverseDynamicsTool does not read such columns, and holds every coordinate they "
            "give at its default value") in err, err
    assert ("rename each column to its coordinate's name "
            "('/jointset/r_shoulder/r_shoulder_elev/value' -> 'r_shoulder_elev')") in err, err
    labels, ours, _, _ = read_sto_table("ours.sto")
    assert labels[1:] == ["r_shoulder_elev_moment", "r_elbow_flex_moment"]
    np.testing.assert_allclose(ours[:, 1:], theirs, rtol=0, atol=1e-6)
    assert main(["torques", "arm26.osim", "paths.sto", "-o", "own.sto"]) == 0
    assert "named by state path" not in capsys.readouterr().err    # OpenSim's not promised



def test_the_state_path_warning_of_a_mixed_file_says_what_opensims_tool_moves(osim, tmp_path):
    """A file naming r_shoulder_elev plainly, r_elbow_flex by state path, and a coordinate
    arm26 lacks by state path. OpenSim 4.6's InverseDynamicsTool reads the plain column and
    holds r_elbow_flex at its default: its shoulder torque moves with the motion. The warning
    said its torques were 'those of the model standing still in its default pose', listed
    the lacking coordinate's column among those 'urdf2dyn read as the coordinates they name'
    (both ignore it, as the next warning says) and spoke of one column in the plural. Now it
    names the one column OpenSim holds and the one it reads; renamed as it advises, the file
    gives OpenSim's tool urdf2dyn's torques."""
    header = "mixed\nversion=1\nnRows=11\nnColumns=4\ninDegrees=no"
    mixed = arm26_motion(tmp_path / "mixed.sto", header)
    lines = mixed.read_text().splitlines()
    at = lines.index("endheader") + 1
    lines[at] = ("time\tr_shoulder_elev\t/jointset/r_elbow/r_elbow_flex/value\t"
                 "/jointset/back/lumbar_bending/value")
    lines[at + 1:] = [row + "\t0.2" for row in lines[at + 1:]]
    mixed.write_text("\n".join(lines) + "\n")
    held = _id_tool(osim, mixed)
    assert np.ptp(held[:, 0]) > 0.1 and np.ptp(held[:, 1]) < 0.2    # no pose standing still
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        res = urdf2dyn.inverse_dynamics_trial(urdf2dyn.load(os.path.join(CORE, "arm26.osim")),
                                              str(mixed), checks=False, processing="opensim")
    said = [str(w.message) for w in caught if "named by state path" in str(w.message)]
    assert len(said) == 1, said
    assert said[0] == (
        f"{mixed}: its 1 coordinate column ('/jointset/r_elbow/r_elbow_flex/value') is named "
        "by state path: OpenSim 4.6's InverseDynamicsTool does not read such columns, and "
        "holds the coordinate it gives at its default value, while it reads those named "
        "plainly ('r_shoulder_elev'); urdf2dyn read it as the coordinate it names. For "
        "OpenSim's tool to compute the same torques, rename each column to its coordinate's "
        "name ('/jointset/r_elbow/r_elbow_flex/value' -> 'r_elbow_flex')"), said[0]
    assert any("['lumbar_bending'] are not coordinates of the model" in str(w.message)
               for w in caught)
    renamed = _relabel(mixed, "time\tr_shoulder_elev\tr_elbow_flex\t"
                              "/jointset/back/lumbar_bending/value")
    np.testing.assert_allclose(res.tau, _id_tool(osim, renamed), rtol=0, atol=1e-6)


def test_the_state_path_warning_names_the_coordinates_a_mapping_gives(osim, tmp_path):
    """A states table of another naming ('/jointset/r_shoulder/shoulder/value'), read with
    the mapping {'shoulder': 'r_shoulder_elev'} under OpenSim's processing. OpenSim 4.6's
    InverseDynamicsTool reads neither path column (the default pose in every row). The
    warning advised renaming the column to 'shoulder', a name OpenSim's tool does not know
    either (and, once paths to coordinates the model lacks were left out, it forgot that
    column and said OpenSim read 'r_shoulder_elev' by name). Now it names both columns and
    the model's name: renamed so, the file gives OpenSim's tool urdf2dyn's torques."""
    shoulder, elbow = "/jointset/r_shoulder/shoulder/value", "/jointset/r_elbow/r_elbow_flex/value"
    motion = _relabel(arm26_motion(tmp_path / "states.sto", "states\nversion=1\nnRows=11\n"
                                   "nColumns=3\ninDegrees=no"), f"time\t{shoulder}\t{elbow}")
    assert np.ptp(_id_tool(osim, motion), axis=0).max() == 0       # the default pose
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Urdf2dynWarning)
        res = urdf2dyn.inverse_dynamics_trial(urdf2dyn.load(os.path.join(CORE, "arm26.osim")),
                                              str(motion), checks=False, processing="opensim",
                                              mapping={"shoulder": "r_shoulder_elev"})
    said = [str(w.message) for w in caught if "named by state path" in str(w.message)]
    assert len(said) == 1, said
    assert f"its 2 coordinate columns ({shoulder!r}, {elbow!r}) are named" in said[0], said
    assert "(its torques are those of the model standing still" in said[0], said
    assert f"({shoulder!r} -> 'r_shoulder_elev')" in said[0], said
    renamed = _relabel(motion, "time\tr_shoulder_elev\tr_elbow_flex")
    np.testing.assert_allclose(res.tau, _id_tool(osim, renamed), rtol=0, atol=1e-6)

ARM26_PATHS = {"r_shoulder_elev": "/jointset/r_shoulder/r_shoulder_elev/value",
               "r_elbow_flex": "/jointset/r_elbow/r_elbow_flex/value"}


@settings(max_examples=20, derandomize=True, deadline=None)
@given(by_path=st.lists(st.sampled_from(sorted(ARM26_PATHS)), unique=True),
       opensim=st.booleans())
def test_the_state_path_warning_names_exactly_the_columns_named_so(by_path, opensim):
    """arm26's coordinates, each named by coordinate or by state path: the torques are the
    same whichever names the file uses, and OpenSim's processing warns iff a column is named
    by state path, naming exactly those (OpenSim's tool reads the others), urdf2dyn's never."""
    import tempfile
    labels = ["time"] + [ARM26_PATHS[n] if n in by_path else n for n in ARM26_PATHS]
    with tempfile.TemporaryDirectory() as folder:
        path = arm26_motion(pathlib.Path(folder) / "arm.sto",
                            "arm\nversion=1\nnRows=11\nnColumns=3\ninDegrees=no")
        _relabel(path, "\t".join(labels))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", Urdf2dynWarning)
            res = urdf2dyn.inverse_dynamics_trial(
                urdf2dyn.load(os.path.join(CORE, "arm26.osim")), str(path), checks=False,
                processing="opensim" if opensim else "urdf2dyn")
    said = [str(w.message) for w in caught if "named by state path" in str(w.message)]
    if opensim and by_path:
        named = [ARM26_PATHS[n] for n in ARM26_PATHS if n in by_path]
        assert len(said) == 1 and f"({', '.join(repr(p) for p in named)}) " in said[0], said
    else:
        assert not said, said
    plain = _plain_torques(opensim)
    np.testing.assert_allclose(res.tau, plain, rtol=0, atol=1e-12)


_PLAIN = {}


def _plain_torques(opensim):
    """arm26's torques on arm26_motion with its columns named by coordinate."""
    if opensim not in _PLAIN:
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            path = arm26_motion(pathlib.Path(folder) / "arm.sto",
                                "arm\nversion=1\nnRows=11\nnColumns=3\ninDegrees=no")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Urdf2dynWarning)
                _PLAIN[opensim] = urdf2dyn.inverse_dynamics_trial(
                    urdf2dyn.load(os.path.join(CORE, "arm26.osim")), str(path), checks=False,
                    processing="opensim" if opensim else "urdf2dyn").tau
    return _PLAIN[opensim]
