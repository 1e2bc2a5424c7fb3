"""Names a written file cannot hold: a model's or a recording's names are free text (a joint
named with &#10; in its XML, a C3D label holding a tab). Every writer of a text table either
writes a name so its owning tool reads it back whole, or refuses it before writing anything,
naming it. Oracles: OpenSim 4.6's TimeSeriesTableVec3 (TRCFileAdapter), TimeSeriesTable
(STOFileAdapter) and Storage (the reader of its tools); Python's csv module and pandas; for
HuMoD's .mat, SciPy's loadmat and Octave. Names printed on the terminal: Python's repr."""
import os
import re
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cli_here import run_here
from urdf2dyn.biomech.formats import (read_opensim, read_table, read_trc, write_opensim,
                                     write_table, write_trc)
from urdf2dyn.biomech.markers import Markers
from urdf2dyn.biomech.trajectory import MotionError, Trajectory

#: Letters, the blanks and separators, and what ends a line for OpenSim or for str.splitlines.
_CHARACTERS = "ab ,;\"\t\n\r\x0b\x0c\u2028\u00a0\x1c"
_NAMES = st.lists(st.text(_CHARACTERS, max_size=4), min_size=1, max_size=3, unique=True)
_SETTINGS = settings(max_examples=60, derandomize=True, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture])


def _fresh(tmp_path, name):
    """A path in a folder of its own: each Hypothesis example gets the one tmp_path."""
    return os.path.join(tempfile.mkdtemp(dir=tmp_path), name)


def _refused_naming_one_of(error, names, path):
    """The refusal names one of names (as repr) and nothing was written."""
    assert any(repr(n) in str(error) for n in names), str(error)
    assert not os.path.exists(path)


def _storage_labels(osim, path):
    """The column labels (time first) OpenSim 4.6's Storage, the reader of its tools, reads."""
    storage = osim.Storage(str(path))      # kept alive: its labels are a view into it
    labels = storage.getColumnLabels()
    return [labels.get(i) for i in range(labels.getSize())]


@_SETTINGS
@given(names=_NAMES)
@example(names=["a\tb", "c"])
@example(names=["c\nd"])
@example(names=["a b", 'c"d', "e,f"])
def test_a_marker_label_is_read_back_whole_by_opensim_or_refused(osim, tmp_path, names):
    """Before, a label 'a\\tb' or 'c\\nd' was written as it is: OpenSim 4.6's TRCFileAdapter
    refused the file ('Unexpected number of column labels') and urdf2dyn read it shifted."""
    markers = Markers(np.array([0.0, 0.01]), names,
                      np.arange(2 * len(names) * 3, dtype=float).reshape(2, len(names), 3))
    path = _fresh(tmp_path, "names.trc")
    try:
        write_trc(path, markers)
    except MotionError as e:
        _refused_naming_one_of(e, names, path)
        return
    assert list(osim.TimeSeriesTableVec3(path).getColumnLabels()) == names
    assert read_trc(path).labels == names


def test_a_trc_file_named_with_a_line_break_is_refused(osim, tmp_path):
    """A .trc's first line holds its file name. Before, write_trc wrote 'x\ny.trc' there as
    it is: a file OpenSim 4.6's TRCFileAdapter refused ('Incorrect number of keys') and
    urdf2dyn too (line 3 held no Units). A tab there is read by both: written."""
    markers = Markers(np.array([0.0, 0.01]), ["a"], np.ones((2, 1, 3)))
    path = tmp_path / "x\ny.trc"
    with pytest.raises(MotionError, match=r"'x\\ny\.trc'"):
        write_trc(path, markers)
    assert os.listdir(tmp_path) == []
    tab = tmp_path / "x\ty.trc"
    write_trc(tab, markers)
    assert list(osim.TimeSeriesTableVec3(str(tab)).getColumnLabels()) == ["a"]
    assert read_trc(tab).labels == ["a"]

@_SETTINGS
@given(names=_NAMES)
@example(names=["a\tb", "c"])
@example(names=["c\nd"])
@example(names=["a b", "c"])
@example(names=["a\u00a0b", "c"])
@example(names=["Time"])
@example(names=["a", "time"])
def test_a_column_label_is_read_back_whole_by_opensim_or_refused(osim, tmp_path, names):
    """Before, a label 'a\\tb' or 'c\\nd' was written into the .sto as it is: OpenSim 4.6's
    TimeSeriesTable refused the file and its Storage read other columns under the labels;
    and a label 'a b' was written in a file of version 1, whose labels OpenSim's Storage splits
    at blanks: it read 'a', 'b' and the columns after them shifted; and a coordinate named
    'Time' was written beside the times, a column urdf2dyn's reader dropped."""
    traj = Trajectory(np.array([0.0, 0.01]),
                      np.arange(2 * len(names), dtype=float).reshape(2, len(names)), names)
    path = _fresh(tmp_path, "names.sto")
    try:
        write_opensim(path, traj, degrees=False)
    except MotionError as e:
        _refused_naming_one_of(e, names, path)
        return
    assert list(osim.TimeSeriesTable(path).getColumnLabels()) == names
    assert _storage_labels(osim, path) == ["time", *names]
    assert read_opensim(path).names == names



@_SETTINGS
@given(names=_NAMES)
@example(names=["a,b", "c"])
@example(names=['a"b', "c;d", "e\tf"])
def test_a_csv_column_name_is_read_back_whole_by_csv_pandas_and_urdf2dyn_or_refused(tmp_path,
                                                                                   names):
    """Before, a name 'a,b' was written as it is: Python's csv module, pandas and urdf2dyn
    read two columns where one was meant (RFC 4180 quotes such a cell)."""
    import csv

    import pandas as pd
    values = np.arange(2 * len(names), dtype=float).reshape(2, len(names))
    path = _fresh(tmp_path, "names.csv")
    try:
        write_table(path, [0.0, 0.01], values, names)
    except MotionError as e:
        _refused_naming_one_of(e, names, path)
        return
    with open(path, newline="", encoding="utf-8") as f:
        assert next(csv.reader(f)) == ["time", *names]
    assert list(pd.read_csv(path, keep_default_na=False).columns) == ["time", *names]
    header, data = read_table(path)
    assert header == ["time", *names]
    np.testing.assert_array_equal(data[:, 1:], values)


def test_a_csv_column_name_a_spreadsheet_takes_for_a_formula_is_warned_of_and_written(
        tmp_path):
    """Names '=1+2', '+a', '-b', '@c' begin a formula in a spreadsheet's cell (OWASP, "CSV
    Injection"). Before, write_table wrote them without a word; now it warns, naming them,
    and still writes them as they are: Python's csv module, pandas and urdf2dyn read them
    back whole (a quote put before them, as OWASP suggests, would be read as part of them)."""
    import csv

    import pandas as pd

    from urdf2dyn.warn import Urdf2dynWarning
    names = ["=1+2", "+a", "-b", "@c", "d"]
    path = tmp_path / "formulas.csv"
    with pytest.warns(Urdf2dynWarning) as caught:
        write_table(path, [0.0, 0.01], np.zeros((2, 5)), names, origin="model 'r'")
    said = [str(w.message) for w in caught]
    assert len(said) == 1 and str(path) in said[0] and "model 'r'" in said[0], said
    assert "['=1+2', '+a', '-b', '@c']" in said[0] and "formulas" in said[0], said
    with open(path, newline="", encoding="utf-8") as f:
        assert next(csv.reader(f)) == ["time", *names]
    assert list(pd.read_csv(path).columns) == ["time", *names]
    assert read_table(path)[0] == ["time", *names]


@_SETTINGS
@given(title=st.text("ab \t\n\r\u2028=", max_size=5).map(lambda t: t + "endheader"))
@example(title="walk\nendheader")
@example(title="walk=1")
@example(title="inDegrees=yes")
@example(title="walk\ttrial")
@example(title=" endheader")
@example(title="EndHeader")
def test_a_sto_title_is_read_back_whole_by_opensim_or_refused(osim, tmp_path, title):
    """A .sto's first line is its title (write_opensim's name, an IK setup's name). Before, a
    title 'walk\nendheader' was written on two lines, and a title ' endheader' as it is: the
    header ended there, and urdf2dyn and OpenSim 4.6's TimeSeriesTable refused the file
    (urdf2dyn: "line 4, column 'version=1': 'nRows=2' is not a number"). And a title 'walk=1'
    was written as it is: OpenSim 4.6's TimeSeriesTable and urdf2dyn read a header key 'walk',
    and no title."""
    traj = Trajectory(np.array([0.0, 0.01]), np.array([[1.0], [2.0]]), ["q"])
    path = _fresh(tmp_path, "titled.sto")
    try:
        write_opensim(path, traj, degrees=False, name=title)
    except MotionError as e:
        _refused_naming_one_of(e, [title], path)
        return
    table = osim.TimeSeriesTable(path)
    assert table.getTableMetaDataAsString("header") == title
    assert list(table.getDependentColumn("q").to_numpy()) == [1.0, 2.0]
    again = read_opensim(path)
    assert again.meta["name"] == title.strip() and list(again.q[:, 0]) == [1.0, 2.0]


def test_a_sto_file_named_with_an_equals_sign_is_titled_with_an_underscore(osim, tmp_path):
    """A .sto written without a title is titled by its file name. Before, 'speed=1.2.sto' was
    titled 'speed=1.2': OpenSim 4.6's TimeSeriesTable read a header key 'speed' and no title,
    and urdf2dyn no title. Now its title is 'speed_1.2', which both read."""
    traj = Trajectory(np.array([0.0, 0.01]), np.array([[1.0], [2.0]]), ["q"])
    path = str(tmp_path / "speed=1.2.sto")
    write_opensim(path, traj, degrees=False)
    table = osim.TimeSeriesTable(path)
    assert table.getTableMetaDataAsString("header") == "speed_1.2"
    assert "speed" not in list(table.getTableMetaDataKeys())
    assert read_opensim(path).meta["name"] == "speed_1.2"


def test_a_column_label_given_twice_is_refused_naming_it_and_where_it_came_from(osim, tmp_path):
    """A library caller's names ['a', 'b', 'a']. Before, write_table and the .sto writer wrote
    them as given: a file urdf2dyn's readers refuse ("duplicate columns ['a']"), pandas reads
    with a column 'a.1' and OpenSim 4.6's TimeSeriesTable finds only the first 'a' by its name
    (its values 1, 3 in the table written by hand below)."""
    from urdf2dyn.biomech.formats.opensim import _write_sto
    by_hand = tmp_path / "by_hand.sto"
    by_hand.write_text("t\nversion=1\nnRows=2\nnColumns=3\ninDegrees=no\nendheader\n"
                       "time\ta\ta\n0\t1\t2\n0.01\t3\t4\n")
    assert list(osim.TimeSeriesTable(str(by_hand)).getDependentColumn("a").to_numpy()) == [1, 3]
    values = np.arange(6, dtype=float).reshape(2, 3)
    csv_path = tmp_path / "twice.csv"
    with pytest.raises(MotionError, match=r"the column label 'a' \(from the caller's list\) "
                                          r"cannot be written: two columns would carry it"):
        write_table(csv_path, [0.0, 0.01], values, ["a", "b", "a"], origin="the caller's list")
    sto_path = tmp_path / "twice.sto"
    with pytest.raises(MotionError, match=r"the column label 'a' cannot be written: two "):
        _write_sto(sto_path, ["time", "a", "b", "a"],
                   np.column_stack([[0.0, 0.01], values]), False, "t")
    assert sorted(os.listdir(tmp_path)) == ["by_hand.sto"]


@pytest.mark.parametrize("output", ["out.sto", "out.csv"])
def test_a_coordinate_named_as_another_ones_speed_is_refused_with_the_speeds(tmp_path, output):
    """Coordinates 'a' and 'a_vel' written with their speeds: 'a_vel' is both a coordinate
    and the speed of 'a'. Before, write_opensim and write_csv wrote the two columns under one
    label, a file urdf2dyn's readers refuse; now the label is refused, nothing written."""
    from urdf2dyn.biomech.formats import write_csv
    names = ["a", "a_vel"]
    traj = Trajectory(np.array([0.0, 0.01]), np.zeros((2, 2)), names, v=np.ones((2, 2)),
                      v_names=names)
    path = tmp_path / output
    with pytest.raises(MotionError, match="the column label 'a_vel' cannot be written"):
        if output.endswith(".csv"):
            write_csv(path, traj)
        else:
            write_opensim(path, traj, degrees=False, derivatives=True)
    assert not path.exists()


@pytest.mark.parametrize("name", ["Time", "TIME"])
def test_a_column_named_time_in_another_case_is_written_and_read_back_as_data(osim, tmp_path,
                                                                              name):
    """A coordinate 'Time' beside the times: OpenSim 4.6's TimeSeriesTable and Storage read
    it as a column of data, and so does urdf2dyn's reader now. Before, the writers refused
    it (the reader used to drop it)."""
    traj = Trajectory(np.array([0.0, 0.01]), np.array([[1.0, 3.0], [2.0, 4.0]]), ["a", name])
    path = _fresh(tmp_path, "named.sto")
    write_opensim(path, traj, degrees=False)
    table = osim.TimeSeriesTable(path)
    assert list(table.getColumnLabels()) == ["a", name]
    assert list(table.getDependentColumn(name).to_numpy()) == [3.0, 4.0]
    assert _storage_labels(osim, path) == ["time", "a", name]
    again = read_opensim(path)
    assert again.names == ["a", name] and list(again.q[:, 1]) == [3.0, 4.0]


@pytest.mark.parametrize("name", ["time", "TIME"])
def test_a_csv_column_named_as_the_times_is_refused(tmp_path, name):
    """Before, write_csv wrote a coordinate named 'time' (or 'TIME') beside the times: a file
    urdf2dyn's read_csv refused ("duplicate columns ['time']"), its own output."""
    from urdf2dyn.biomech.formats import read_csv, write_csv
    traj = Trajectory(np.array([0.0, 0.01]), np.array([[1.0], [2.0]]), [name])
    path = tmp_path / "named.csv"
    try:
        write_csv(path, traj)
    except MotionError as e:
        _refused_naming_one_of(e, [name], path)
        return
    assert read_csv(path).names == [name]

_URDF_NAMED_WITH_A_LINE_BREAK = """<robot name="r">
  <link name="base"/>
  <link name="l1"><inertial><mass value="1"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="knee&#10;left" type="revolute"><parent link="base"/><child link="l1"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


@pytest.mark.parametrize("output", ["out.sto", "out.mot", "out.csv"])
def test_torques_of_a_joint_named_with_a_line_break_are_refused_naming_it(tmp_path, output):
    """A URDF may name a joint with &#10; (urdf2dyn and the URDF spec take any text). Before,
    `urdf2dyn torques -o out.sto` (or .csv) wrote the name as it is: a file neither OpenSim
    nor urdf2dyn reads back (the second half of the name read as the first row)."""
    robot = tmp_path / "r.urdf"
    robot.write_text(_URDF_NAMED_WITH_A_LINE_BREAK)
    motion = tmp_path / "m.csv"
    t = np.linspace(0.0, 1.0, 11)
    np.savetxt(motion, np.column_stack([t, np.sin(t)]), delimiter=",", header="time,q0",
               comments="")
    mapping = tmp_path / "map.json"
    mapping.write_text('{"q0": "knee\\nleft"}')
    status, _, err = run_here(["torques", str(robot), str(motion), "--mapping", str(mapping),
                               "-o", str(tmp_path / output), "--no-progress"])
    assert status != 0 and "Traceback" not in err, err
    column = "knee\nleft" if output.endswith(".csv") else "knee\nleft_moment"
    assert repr(column) in err and "model 'r'" in err, err
    assert not (tmp_path / output).exists()


def test_torques_of_a_batch_refuse_a_joint_name_before_making_its_output_folder(tmp_path):
    """The joint 'knee&#10;left' with two motions and -o a folder: before, torques made the
    folder and computed every trial, then refused the first file for the name, leaving an
    empty folder; now it refuses before, making and computing nothing."""
    robot = tmp_path / "r.urdf"
    robot.write_text(_URDF_NAMED_WITH_A_LINE_BREAK)
    t = np.linspace(0.0, 1.0, 11)
    motions = [tmp_path / "m1.csv", tmp_path / "m2.csv"]
    for motion in motions:
        np.savetxt(motion, np.column_stack([t, np.sin(t)]), delimiter=",",
                   header="time,q0", comments="")
    mapping = tmp_path / "map.json"
    mapping.write_text('{"q0": "knee\\nleft"}')
    out = tmp_path / "torques"
    status, _, err = run_here(["torques", str(robot), *map(str, motions), "--mapping",
                               str(mapping), "-o", str(out), "--no-progress"])
    assert status != 0 and "Traceback" not in err, err
    assert repr("knee\nleft") in err and "model 'r'" in err, err
    assert not out.exists()


def test_convert_refuses_a_c3d_label_holding_a_tab_naming_it_and_the_c3d(tmp_path):
    """A C3D's POINT:LABELS are free text: ezc3d writes and reads a label 'a\\tb' whole, and
    urdf2dyn reads it so too. Before, `urdf2dyn convert X.c3d -o X.trc` wrote it as it is: a
    .trc whose labels OpenSim 4.6 refuses ('Unexpected number of column labels')."""
    ezc3d = pytest.importorskip("ezc3d")
    c = ezc3d.c3d()
    c["parameters"]["POINT"]["RATE"]["value"] = [100]
    c["parameters"]["POINT"]["UNITS"]["value"] = ["mm"]
    c["parameters"]["POINT"]["LABELS"]["value"] = ["a\tb", "c"]
    points = np.ones((4, 2, 5))
    points[:3] = 100.0 * np.arange(30, dtype=float).reshape(3, 2, 5)
    c["data"]["points"] = points
    trial = str(tmp_path / "trial.c3d")
    c.write(trial)
    assert ezc3d.c3d(trial)["parameters"]["POINT"]["LABELS"]["value"][0] == "a\tb"
    status, _, err = run_here(["convert", trial, "-o", str(tmp_path / "trial.trc")])
    assert status != 0 and "Traceback" not in err, err
    assert repr("a\tb") in err and trial in err, err
    assert not (tmp_path / "trial.trc").exists()


# ------------------------------------------------ the sources: an .osim's names

def _pendulum_osim(osim, path, joint, coordinate):
    """A one-body pendulum written by OpenSim's API, its PinJoint and coordinate then renamed
    in the XML (OpenSim's API refuses to write names it refuses to load)."""
    from xml.sax.saxutils import quoteattr
    model = osim.Model()
    model.setName("pendulum")
    rod = osim.Body("rod", 1.0, osim.Vec3(0, -0.5, 0), osim.Inertia(0.1, 0.1, 0.1))
    model.addBody(rod)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(0), osim.Vec3(0), rod,
                        osim.Vec3(0, 0.5, 0), osim.Vec3(0))
    pin.updCoordinate().setName("q")
    model.addJoint(pin)
    model.finalizeConnections()
    model.printToXML(str(path))
    text = path.read_text()
    for old, new in (('<PinJoint name="pin">', f"<PinJoint name={quoteattr(joint)}>"),
                     ('<Coordinate name="q">', f"<Coordinate name={quoteattr(coordinate)}>")):
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)


def _opensim_loads(osim, path):
    try:
        osim.Model(str(path)).initSystem()
    except RuntimeError:
        return False
    return True


@settings(max_examples=30, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(joint=st.text("ab+*/\\ \t\n\r-", min_size=1, max_size=4).filter(lambda n: n.strip("\r")),
       coordinate=st.sampled_from(["q", "q x", "q\rx"]))
@example(joint="pi\nn", coordinate="q")
@example(joint="pin", coordinate="q\tx")
@example(joint="pi\rn", coordinate="q")
@example(joint="a/b", coordinate="q")
def test_an_osim_name_opensim_refuses_to_load_is_warned_about(osim, tmp_path, joint,
                                                              coordinate):
    """An .osim's names are free text in its XML: a joint named 'pi&#10;n'. OpenSim 4.6
    refuses to load such a model ('contains invalid characters'); before, urdf2dyn loaded it
    without a word, so a user learnt only from OpenSim that the model is not one it opens."""
    import warnings

    import urdf2dyn
    from urdf2dyn import URDFWarning
    path = tmp_path / "pendulum.osim"
    _pendulum_osim(osim, path, joint, coordinate)
    if "/" in joint:        # its relative socket paths, read from it, name other components
        assert not _opensim_loads(osim, path)
        with pytest.raises(urdf2dyn.URDFError) as refused:
            urdf2dyn.load(path)
        assert f"the name '{joint}' holds '/', which OpenSim 4.6 refuses" in str(refused.value)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.load(path)
    said = [str(w.message) for w in caught if issubclass(w.category, URDFWarning)
            and "OpenSim 4.6 refuses to load this model" in str(w.message)]
    if _opensim_loads(osim, path):
        assert not said, said
        return
    assert len(said) == 1, [str(w.message) for w in caught]
    refused = [n for n in (joint, coordinate) if any(c in "\\/*+ \t\n" for c in n)]
    assert all(repr(n) in said[0] for n in refused), said
    with pytest.raises(urdf2dyn.URDFError, match="OpenSim 4.6 refuses to load this model"):
        urdf2dyn.load(path, strict=True)


def test_a_muscle_name_opensim_refuses_to_load_is_warned_about(osim, tmp_path):
    """Rajagopal2016.osim (version 40000) with its muscle soleus_r named 'soleus r': OpenSim
    4.6 refuses to load it ('contains invalid characters'). Before, urdf2dyn's warning looked
    at the joints, bodies, coordinates and markers only, and said nothing."""
    import urdf2dyn
    source = os.path.join(os.path.dirname(__file__), os.pardir, "data", "opensim_models",
                          "Models", "Rajagopal2016.osim")
    with open(source, encoding="utf-8") as f:
        text = f.read()
    muscle = '<Millard2012EquilibriumMuscle name="soleus_r">'
    assert muscle in text
    path = tmp_path / "rajagopal.osim"
    path.write_text(text.replace(muscle, muscle.replace("soleus_r", "soleus r")))
    assert not _opensim_loads(osim, path)
    with pytest.warns(urdf2dyn.URDFWarning, match=r"OpenSim 4.6 refuses to load this model: "
                                                  r"force 'soleus r' holds"):
        urdf2dyn.load(path)


def _refused_by_opensim_loaded_by_urdf2dyn_saying(osim, path):
    """What urdf2dyn warns loading the .osim path, which OpenSim 4.6 refuses to load for a
    name holding an invalid character (the oracle, checked here)."""
    import warnings

    import urdf2dyn
    with pytest.raises(RuntimeError, match="contains invalid characters"):
        osim.Model(str(path)).initSystem()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.load(path)
    return [str(w.message) for w in caught if issubclass(w.category, urdf2dyn.URDFWarning)]


_OTHER_COMPONENTS = {   # kind said: (the element named {} goes before, the element)
    "constraint": ("<ControllerSet", '<ConstraintSet name="constraintset"><objects><WeldConstraint '
                   'name="{}"><socket_frame1>/ground</socket_frame1><socket_frame2>/bodyset/rod'
                   '</socket_frame2></WeldConstraint></objects></ConstraintSet>'),
    "contact geometry": ("<ControllerSet", '<ContactGeometrySet name="contactgeometryset"><objects>'
                         '<ContactSphere name="{}"><socket_frame>/ground</socket_frame><radius>'
                         '0.1</radius></ContactSphere></objects></ContactGeometrySet>'),
    "wrap object": ("</Body>", '<WrapObjectSet name="wrapobjectset"><objects><WrapCylinder '
                    'name="{}"><radius>0.1</radius><length>0.2</length></WrapCylinder></objects>'
                    '</WrapObjectSet>'),
    "component": ("<BodySet", '<components><PhysicalOffsetFrame name="{}"><socket_parent>'
                  '/bodyset/rod</socket_parent></PhysicalOffsetFrame></components>'),
    "frame": ("</frames>", '<PhysicalOffsetFrame name="{}"><socket_parent>/bodyset/rod'
              '</socket_parent></PhysicalOffsetFrame>'),
}


@pytest.mark.parametrize("kind", list(_OTHER_COMPONENTS))
@pytest.mark.parametrize("name", ["a+b", "a b"])
def test_a_name_opensim_refuses_beyond_the_tree_is_warned_about(osim, tmp_path, kind, name):
    """The pendulum with a constraint, a contact geometry, a wrap object, a Model's
    <components> frame or an unused joint frame named 'a+b' or 'a b': OpenSim 4.6 refuses to
    load it ('contains invalid characters', the oracle). urdf2dyn checked the joints, bodies,
    coordinates, markers and forces only, and loaded these without a word."""
    path = tmp_path / "pendulum.osim"
    _pendulum_osim(osim, path, "pin", "q")
    at, element = _OTHER_COMPONENTS[kind]
    text = path.read_text()
    assert text.count(at) == 1
    path.write_text(text.replace(at, element.format(name) + at))
    said = _refused_by_opensim_loaded_by_urdf2dyn_saying(osim, path)
    assert any(f"OpenSim 4.6 refuses to load this model: {kind} '{name}' holds a character"
               in m for m in said), said


@pytest.mark.parametrize("name", ["r acromion", "r&#9;acromion", " r acromion "])
def test_an_opensim_3_name_holding_blanks_is_said_read_without_them_not_refused(osim, tmp_path,
                                                                                name):
    """opensim-core's arm26.osim (document version 10901) with its marker r_acromion named
    with white space: OpenSim 4.6 loads it, removing the white space from the name (it does
    so for files older than version 30500). Before, urdf2dyn warned that OpenSim refuses to
    load the model; it says now the name OpenSim reads."""
    import warnings

    import urdf2dyn
    from urdf2dyn import URDFWarning
    source = os.path.join(os.path.dirname(__file__), os.pardir, "data", "opensim_core",
                          "arm26.osim")
    with open(source, encoding="utf-8") as f:
        text = f.read()
    assert 'Version="10901"' in text and '<Marker name="r_acromion">' in text
    path = tmp_path / "arm26.osim"
    path.write_text(text.replace('<Marker name="r_acromion">', f'<Marker name="{name}">'))
    model = osim.Model(str(path))
    model.initSystem()
    opensims = model.getMarkerSet().get(0).getName()
    assert opensims == "racromion"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urdf2dyn.load(path)
    said = [str(w.message) for w in caught if issubclass(w.category, URDFWarning)]
    assert not any("refuses to load" in m for m in said), said
    assert any(f"reads marker {name.replace('&#9;', chr(9))!r} without its white space (e.g. "
               f"{opensims!r})" in m for m in said), said


# ------------------------------------------------ a job of several files: none or all

def _rra_setup_with_a_tab_in_FY(tmp_path):
    """Gait2354's published RRA setup folder, its actuator FY named 'F&#9;Y'."""
    return _published_setup_renamed(tmp_path, ("opensim_models", "Gait2354_Simbody"),
                                    ("gait2354_RRA_Actuators.xml",),
                                    '<PointActuator name="FY">', '<PointActuator name="F&#9;Y">')


def test_rra_refuses_an_actuator_name_holding_a_tab_before_writing_any_result(tmp_path):
    """Gait2354's RRA setup (0.75 .. 0.8 s) with its actuator FY named 'F&#9;Y' in the force
    set. Before, rra wrote the three Kinematics files, then refused Actuation_force.sto for
    the name: a results directory that looked like a run's. Now nothing is written."""
    import re
    folder = _rra_setup_with_a_tab_in_FY(tmp_path)
    setup = folder / "subject01_Setup_RRA.xml"
    setup.write_text(re.sub(r"<final_time>[^<]*</final_time>", "<final_time>0.8</final_time>",
                            setup.read_text()))
    actuators = folder / "gait2354_RRA_Actuators.xml"
    results = tmp_path / "results"
    status, _, err = run_here(["rra", str(setup), "--results-directory", str(results)])
    assert status != 0 and "Traceback" not in err, err
    assert not results.exists() or not os.listdir(results), os.listdir(results)
    assert repr("F\tY") in err and str(actuators) in err, err


def test_rra_refuses_an_actuator_name_holding_a_tab_before_reducing(tmp_path, monkeypatch):
    """The same setup: before, rra reduced the residuals over the whole time range (the job's
    minutes), then refused the name when writing; now it refuses before reducing."""
    import re
    import warnings

    from urdf2dyn.biomech import rra
    from urdf2dyn.warn import Urdf2dynWarning
    folder = _rra_setup_with_a_tab_in_FY(tmp_path)
    actuators = folder / "gait2354_RRA_Actuators.xml"

    def reduced(*args, **kwargs):
        raise AssertionError("the residuals were reduced before the refusal")

    monkeypatch.setattr(rra, "reduce_residuals", reduced)
    results = tmp_path / "results"
    with warnings.catch_warnings(), \
            pytest.raises(MotionError, match=re.escape(repr("F\tY"))):
        warnings.simplefilter("ignore", Urdf2dynWarning)     # the setup's, said by the CLI test
        rra.run_rra(folder / "subject01_Setup_RRA.xml", results_directory=results)
    assert not results.exists()


def _published_setup_renamed(tmp_path, data, files, old="mtp_angle_r",
                             new="mtp&#x2028;angle_r"):
    """A copy of the published setup folder tests/data/<data> (a path's parts) as
    tmp_path/setup, where each of files has old written new: the folder. By default the
    coordinate mtp_angle_r named 'mtp&#x2028;angle_r', a character OpenSim 4.6 allows in a
    name and which ends a line for str.splitlines, hence for urdf2dyn's readers."""
    import shutil
    folder = tmp_path / "setup"
    shutil.copytree(os.path.join(os.path.dirname(__file__), os.pardir, "data", *data), folder)
    for name in files:
        path = folder / name
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new))
    return folder


def test_scale_refuses_a_coordinate_its_motion_file_cannot_hold_before_writing_a_model(
        tmp_path):
    """Gait2354's scale setup with the coordinate mtp_angle_r named 'mtp&#x2028;angle_r' (a
    character OpenSim 4.6 allows in a name, and which ends a line for str.splitlines, hence
    for urdf2dyn's readers). Before, scale wrote the scaled models and scale set, then refused
    the static pose's .mot for the name: models that looked like a run's result. Now nothing
    is written."""
    folder = _published_setup_renamed(tmp_path, ("scale", "gait2354"),
                                      ("gait2354_simbody.osim", "subject01_Setup_Scale.xml"))
    before = set(os.listdir(folder))
    status, _, err = run_here(["scale", str(folder / "subject01_Setup_Scale.xml")])
    assert status != 0 and "Traceback" not in err, err
    assert set(os.listdir(folder)) == before, set(os.listdir(folder)) - before
    assert repr("mtp\u2028angle_r") in err and "3DGaitModel2354" in err, err


def test_scale_refuses_a_coordinate_its_motion_file_cannot_hold_before_scaling(tmp_path,
                                                                              monkeypatch):
    """The same setup: before, scale measured, scaled and placed the markers (the job's
    work), then refused the name when writing; now it refuses before, as ik and rra do."""
    import importlib
    import re
    import warnings

    from urdf2dyn.warn import Urdf2dynWarning
    scale = importlib.import_module("urdf2dyn.biomech.scale")
    folder = _published_setup_renamed(tmp_path, ("scale", "gait2354"),
                                      ("gait2354_simbody.osim", "subject01_Setup_Scale.xml"))

    def scaled(*args, **kwargs):
        raise AssertionError("the model was scaled before the refusal")

    monkeypatch.setattr(scale, "scale", scaled)
    before = set(os.listdir(folder))
    with warnings.catch_warnings(), \
            pytest.raises(MotionError, match=re.escape(repr("mtp\u2028angle_r"))):
        warnings.simplefilter("ignore", Urdf2dynWarning)     # the model's, said elsewhere
        scale.run_setup(folder / "subject01_Setup_Scale.xml")
    assert set(os.listdir(folder)) == before, set(os.listdir(folder)) - before


def test_external_loads_refuse_a_foot_key_holding_a_tab_writing_neither_file(tmp_path):
    """write_external_loads writes the .mot, then the XML naming its columns by the foot keys.
    Before, a key 'R\\tx' was written into the .mot's labels as it is (a file OpenSim 4.6's
    TimeSeriesTable refuses) and the XML pointed at it: now neither file is written."""
    from urdf2dyn.biomech.formats import write_external_loads
    t = np.array([0.0, 0.01, 0.02])
    force = np.tile([0.0, 700.0, 0.0], (3, 1))
    loads = Trajectory(t, np.zeros((3, 1)), ["q"], grf={"R\tx": force},
                       cop={"R\tx": np.zeros((3, 3))})
    path = tmp_path / "loads.xml"
    with pytest.raises(MotionError, match=r"'R\\tx_ground_force_vx'"):
        write_external_loads(path, loads, {"R\tx": "calcn_r"})
    assert os.listdir(tmp_path) == []


def test_ik_refuses_a_coordinate_its_motion_cannot_hold_before_fitting(tmp_path, monkeypatch):
    """Gait2392's IK setup with the coordinate mtp_angle_r named 'mtp&#x2028;angle_r' (a
    character OpenSim 4.6 allows in a name, and which ends a line for str.splitlines, hence
    for urdf2dyn's readers). Before, the IK fitted every frame and created the results
    directory, then refused the .mot for the name; now it refuses first, fitting and creating
    nothing."""
    import re

    from urdf2dyn.biomech import ik
    folder = _published_setup_renamed(tmp_path, ("ik", "gait2392"),
                                      ("subject01_simbody.osim", "subject01_Setup_IK.xml"))
    setup = folder / "subject01_Setup_IK.xml"
    setup.write_text(re.sub(r"<results_directory>[^<]*</results_directory>",
                            "<results_directory>results</results_directory>",
                            setup.read_text()))

    def fitted(*args, **kwargs):
        raise AssertionError("the IK fitted the markers before refusing")

    monkeypatch.setattr(ik, "fit", fitted)
    before = set(os.listdir(folder))
    with pytest.raises(MotionError, match=re.escape(repr("mtp\u2028angle_r"))):
        ik.run_setup(setup)
    assert set(os.listdir(folder)) == before, set(os.listdir(folder)) - before


def test_ik_titles_the_motion_of_a_setup_named_with_an_equals_sign_with_an_underscore(osim,
                                                                                   tmp_path):
    """Gait2392's IK setup named 'subject=01' (OpenSim 4.6 runs it: a tool may be named so,
    and its IK titles the .mot 'Coordinates'), over 0.5 .. 0.52 s. The name titles the .mot
    urdf2dyn writes; a title 'subject=01' would be read as a header key by OpenSim 4.6's
    TimeSeriesTable. Before, the IK refused the setup; now it writes the .mot titled
    'subject_01', as a file named 'subject=01.mot' is titled."""
    import warnings

    from urdf2dyn.biomech import ik
    from urdf2dyn.warn import Urdf2dynWarning
    folder = _published_setup_renamed(tmp_path, ("ik", "gait2392"), ("subject01_Setup_IK.xml",),
                                      '<InverseKinematicsTool name="subject01">',
                                      '<InverseKinematicsTool name="subject=01">')
    setup = folder / "subject01_Setup_IK.xml"
    setup.write_text(re.sub(r"<time_range>[^<]*</time_range>",
                            "<time_range> 0.5 0.52</time_range>", setup.read_text()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)   # the trial's marker errors
        ik.run_setup(setup)
    motion = str(folder / "subject01_walk1_ik.mot")
    table = osim.TimeSeriesTable(motion)
    assert table.getTableMetaDataAsString("header") == "subject_01"
    assert "subject" not in list(table.getTableMetaDataKeys())
    again = read_opensim(motion)
    assert again.meta["name"] == "subject_01" and table.getNumRows() == len(again.time) > 1
    assert "mtp_angle_r" in list(table.getColumnLabels())


def test_a_marker_named_with_a_slash_is_refused_naming_it_where_its_path_is_relative(osim,
                                                                                 tmp_path):
    """A marker 'm/x' whose <socket_parent_frame> is relative (../../bodyset/b0, read from
    /markerset/m/x as OpenSim reads it) would have its path read one level too deep: OpenSim
    4.6 refuses the model for the name; urdf2dyn refuses it naming the name, not a frame it
    cannot find. Written absolute, the path needs no owner: loaded, with the name warned of."""
    import warnings

    import urdf2dyn
    from test_osim_errors import _body, _doc, _pin
    for socket, loads in (("../../bodyset/b0", False), ("/bodyset/b0", True)):
        marker = (f'<MarkerSet><objects><Marker name="m/x"><socket_parent_frame>{socket}'
                  '</socket_parent_frame><location>0 0 0</location></Marker></objects>'
                  '</MarkerSet>')
        path = tmp_path / "marker.osim"
        path.write_text(_doc(_body("b0"), _pin("j0", "/ground", "/bodyset/b0", "q0"), marker))
        assert not _opensim_loads(osim, path)
        if loads:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                model = urdf2dyn.load(path)
            assert [m.name for m in model.markers] == ["m/x"]
            assert any("'m/x'" in str(w.message) and "OpenSim 4.6 refuses" in str(w.message)
                       for w in caught), [str(w.message) for w in caught]
            continue
        with pytest.raises(urdf2dyn.URDFError, match="the name 'm/x' holds '/', which OpenSim "
                           "4.6 refuses in a name"):
            urdf2dyn.load(path)


# ------------------------------------------------ HuMoD's .mat: names as MATLAB reads them

def _octave_labels(path):
    """motion.trajectoryLabels of the .mat file path as Octave reads them (each between [])."""
    import shutil
    import subprocess
    octave = shutil.which("octave-cli")
    if octave is None:
        pytest.skip("octave-cli not found: install Debian's 'octave' package")
    script = (f"m = load('{path}'); l = cellstr(m.motion.trajectoryLabels); "
              "for i = 1:numel(l), printf('[%s]\\n', l{i}); end")
    run = subprocess.run([octave, "--no-gui", "--quiet", "--no-init-file", "--eval", script],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return [line[1:-1] for line in run.stdout.splitlines()]


def test_a_humod_label_with_end_blanks_is_read_back_whole(tmp_path):
    """write_humod stores the labels as a cell array: Octave and SciPy give ' b' back as it is.
    Before, read_humod read every label without its end blanks, as if it were a row of a char
    matrix (which MATLAB pads with blanks): 'a ' and ' b' came back 'a' and 'b'."""
    from scipy.io import loadmat

    from urdf2dyn.biomech.formats import read_humod, write_humod
    names = ["a ", " b", "c"]
    path = tmp_path / "labels.mat"
    write_humod(path, Trajectory(np.array([0.0, 0.01]), np.zeros((2, 3)), names))
    assert _octave_labels(path) == names
    assert list(loadmat(path, simplify_cells=True)["motion"]["trajectoryLabels"]) == names
    assert read_humod(path).names == names


def test_a_humod_char_matrix_label_is_read_without_the_blanks_matlab_pads_it_with(tmp_path):
    """Labels saved by Octave as a char matrix, char('ab', 'c'): its rows are padded with
    blanks to one length (SciPy reads 'c '), which read_humod leaves out, as MATLAB's
    cellstr does."""
    import shutil
    import subprocess

    from scipy.io import loadmat

    from urdf2dyn.biomech.formats import read_humod
    octave = shutil.which("octave-cli")
    if octave is None:
        pytest.skip("octave-cli not found: install Debian's 'octave' package")
    path = tmp_path / "matrix.mat"
    script = ("motion.frameRate = 100; motion.trajectoryLabels = char('ab', 'c'); "
              f"motion.trajectory.q = zeros(2, 3); save('-v6', '{path}', 'motion')")
    run = subprocess.run([octave, "--no-gui", "--quiet", "--no-init-file", "--eval", script],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    labels = loadmat(path, simplify_cells=True)["motion"]["trajectoryLabels"]
    assert list(labels) == ["ab", "c "]
    assert read_humod(path).names == ["ab", "c"]



@pytest.mark.parametrize("foot", ["R x", "R-x", "\u00e9", "R" * 27])
def test_a_humod_foot_key_no_matlab_field_name_ends_with_is_refused(tmp_path, foot):
    """write_humod names the force fields grfX_<foot> ... . Before, a foot 'R x' was written
    as a field 'grfX_R x' (a name MATLAB does not give a field), whose forces read_humod
    then skipped without a word; a foot '\u00e9' or one of 27 letters ended in SciPy's
    UnicodeEncodeError or ValueError ('Field names are restricted to 31 characters')."""
    from urdf2dyn.biomech.formats import write_humod
    force = np.tile([0.0, 700.0, 0.0], (2, 1))
    traj = Trajectory(np.array([0.0, 0.01]), np.zeros((2, 1)), ["q"], grf={foot: force},
                      cop={foot: np.zeros((2, 3))})
    path = tmp_path / "feet.mat"
    with pytest.raises(MotionError, match=re.escape(f"the foot {foot!r}")):
        write_humod(path, traj)
    assert not path.exists()


def test_a_humod_foot_key_of_letters_digits_and_underscores_is_read_back(tmp_path):
    """A foot 'R_2' ends the field names grfX_R_2 ..., which SciPy reads back, and so does
    read_humod: the forces of the foot."""
    from scipy.io import loadmat

    from urdf2dyn.biomech.formats import read_humod, write_humod
    force = np.tile([0.0, 700.0, 0.0], (2, 1))
    traj = Trajectory(np.array([0.0, 0.01]), np.zeros((2, 1)), ["q"], grf={"R_2": force},
                      cop={"R_2": np.zeros((2, 3))})
    path = tmp_path / "feet.mat"
    write_humod(path, traj)
    assert "grfY_R_2" in loadmat(path, simplify_cells=True)["force"]
    np.testing.assert_allclose(read_humod(path).grf["R_2"], force)


def test_a_humod_file_written_with_free_moments_says_it_leaves_them_out(tmp_path):
    """HuMoD's force struct holds forces and centres of pressure, no free moment. Before,
    write_humod left a trajectory's free moments out without a word: SciPy reads no field of
    them back, nor read_humod. Now it warns, naming the feet."""
    from scipy.io import loadmat

    from urdf2dyn.biomech.formats import read_humod, write_humod
    from urdf2dyn.warn import Urdf2dynWarning
    force = np.tile([0.0, 700.0, 0.0], (2, 1))
    traj = Trajectory(np.array([0.0, 0.01]), np.zeros((2, 1)), ["q"], grf={"R": force},
                      cop={"R": np.zeros((2, 3))}, moment={"R": np.ones((2, 3))})
    path = tmp_path / "moments.mat"
    with pytest.warns(Urdf2dynWarning, match=r"the free moments of the feet \['R'\] are not "
                                             "written"):
        write_humod(path, traj)
    fields = loadmat(path, simplify_cells=True)["force"]
    assert "grfX_R" in fields and not any(f.startswith("mom") for f in fields), list(fields)
    assert read_humod(path).moment == {}

# ------------------------------------------------ names printed on the terminal

_URDF_NAMED_WITH_A_LINE_BREAK_AND_A_RETURN = _URDF_NAMED_WITH_A_LINE_BREAK.replace(
    '"l1"', '"l&#13;1"')


@pytest.mark.parametrize("command", ["info", "torques"])
def test_the_summary_prints_a_name_holding_a_line_break_escaped(tmp_path, command):
    """The joint 'knee&#10;left' and the link 'l&#13;1'. Before, `urdf2dyn info` printed them
    as they are, 'knee' ending a line of the tree and '1' written over 'l', and `urdf2dyn
    torques` printed 'left' on a line of its own in the table of peaks; now each is printed
    as Python's repr writes it, on its line."""
    robot = tmp_path / "r.urdf"
    robot.write_text(_URDF_NAMED_WITH_A_LINE_BREAK_AND_A_RETURN)
    argv = ["info", str(robot)]
    if command == "torques":
        motion = tmp_path / "m.csv"
        t = np.linspace(0.0, 1.0, 11)
        np.savetxt(motion, np.column_stack([t, np.sin(t)]), delimiter=",", header="time,q0",
                   comments="")
        mapping = tmp_path / "map.json"
        mapping.write_text('{"q0": "knee\\nleft"}')
        argv = ["torques", str(robot), str(motion), "--mapping", str(mapping), "--no-progress"]
    status, out, err = run_here(argv)
    assert status == 0, err
    assert "\r" not in out and not any(line.strip() == "left" for line in out.splitlines()), out
    shown = [line for line in out.splitlines() if repr("knee\nleft") in line]
    assert shown, out
    if command == "info":
        assert shown[0].endswith(f"(revolute z, 1 DoF) -> {repr('l' + chr(13) + '1')}  1 kg")
    else:
        assert shown[0].split()[:2] == [repr("knee\nleft"), "0.07992"], shown


def test_check_prints_a_finding_about_a_name_holding_a_line_break_on_one_line(tmp_path):
    """A link 'l&#10;1' of negative mass under the joint 'knee&#10;left', whose axis is zero:
    the core's findings quote the names as they are. Before, `urdf2dyn check` printed them so,
    each finding broken over two lines ("link 'l" then "1': <mass ...>"); now each finding is
    one line, its line breaks written as Python's repr writes them."""
    robot = tmp_path / "r.urdf"
    robot.write_text(_URDF_NAMED_WITH_A_LINE_BREAK.replace('"l1"', '"l&#10;1"')
                     .replace('<mass value="1"/>', '<mass value="-1"/>')
                     .replace('xyz="0 0 1"', 'xyz="0 0 0"'))
    status, out, err = run_here(["check", str(robot)])
    assert status == 1, err
    lines = out.splitlines()
    assert len(lines) == 3 and lines[-1].endswith(": 2 errors, 0 warnings, 0 advice"), out
    assert "link 'l\\n1': <mass" in lines[0] and "joint 'knee\\nleft': <axis" in lines[1], out


def test_an_error_naming_a_name_holding_a_line_break_is_printed_on_one_line(tmp_path):
    """The link 'l&#10;1' of negative mass: the core refuses the model, quoting the name as it
    is. Before, `urdf2dyn info` printed the error over two lines, the second ("1': <mass
    ...") without the 'urdf2dyn info: error:' a script looks for; now on one line."""
    robot = tmp_path / "r.urdf"
    robot.write_text(_URDF_NAMED_WITH_A_LINE_BREAK.replace('"l1"', '"l&#10;1"')
                     .replace('<mass value="1"/>', '<mass value="-1"/>'))
    status, out, err = run_here(["info", str(robot)])
    assert status == 1 and out == "", out
    assert err.splitlines() == [f"urdf2dyn info: error: {robot}:3: link 'l\\n1': "
                                '<mass value="-1">: mass must be >= 0'], err


def test_a_note_naming_a_file_named_with_a_line_break_is_printed_on_one_line(tmp_path):
    """c3d.org's Eb015pi, whose FORCE_PLATFORM:ZERO names frames the cut file no longer holds
    (a note, tests/biomech/test_c3d.py), copied to a file named 'eb&#10;015.c3d'. Before,
    `urdf2dyn convert` printed the note naming it over two lines, the second without the
    'urdf2dyn convert: note:' a reader looks for; now on one line."""
    import shutil
    source = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d",
                          "C3Dorg_Eb015pi.c3d")
    trial = tmp_path / "eb\n015.c3d"
    shutil.copyfile(source, trial)
    status, _, err = run_here(["convert", str(trial), "-o", str(tmp_path / "out.trc"),
                               "--threshold", "40"])
    assert status == 0, err
    said = [line for line in err.splitlines() if "FORCE_PLATFORM:ZERO" in line]
    assert len(said) == 1, err
    assert said[0].startswith(f"urdf2dyn convert: note: {tmp_path}/eb\\n015.c3d: "), said


def test_scale_prints_a_marker_name_holding_a_control_character_escaped(tmp_path):
    """Gait2354's scale setup with its marker Top.Head, the worst placed, named with U+202E
    (right-to-left override: OpenSim 4.6 loads the name; a terminal shows the text after it
    reversed). Before, `urdf2dyn scale` printed it as it is in its table of markers, its
    closing line and its warning of the errors beyond OpenSim's best practice; now escaped
    as Python's repr escapes it."""
    name = "Top\u202eHead"
    folder = _published_setup_renamed(tmp_path, ("scale", "gait2354"),
                                      ("gait2354_Scale_MarkerSet.xml",
                                       "subject01_Setup_Scale.xml", "subject01_static.trc"),
                                      old="Top.Head", new=name)
    status, out, err = run_here(["scale", str(folder / "subject01_Setup_Scale.xml")])
    assert status == 0, err
    assert "\u202e" not in out + err
    assert any(line.startswith(repr(name) + " ") for line in out.splitlines()), out
    assert f"({repr(name)}) (OpenSim's best practice" in out, out
    said = [line for line in err.splitlines() if "beyond OpenSim's best practice" in line]
    assert len(said) == 1 and "(Top\\u202eHead)" in said[0], err


def test_rra_prints_an_actuator_name_holding_a_control_character_escaped(tmp_path):
    """Gait2354's RRA setup (0.75 .. 0.8 s) with its residual actuator FY named 'F&#x202E;Y'
    (right-to-left override: a terminal shows what follows it reversed). Before, `urdf2dyn
    rra` printed it as it is in the summary's table of residuals; now as Python's repr
    writes it."""
    folder = _published_setup_renamed(tmp_path, ("opensim_models", "Gait2354_Simbody"),
                                      ("gait2354_RRA_Actuators.xml",),
                                      '<PointActuator name="FY">',
                                      '<PointActuator name="F&#x202E;Y">')
    setup = folder / "subject01_Setup_RRA.xml"
    setup.write_text(re.sub(r"<final_time>[^<]*</final_time>", "<final_time>0.8</final_time>",
                            setup.read_text()))
    status, out, err = run_here(["rra", str(setup), "--results-directory",
                                 str(tmp_path / "results")])
    assert status == 0, err
    assert "\u202e" not in out + err
    assert any(line.startswith(repr("F\u202eY") + " ") for line in out.splitlines()), out


def test_scale_refuses_a_coordinate_named_time_before_scaling(tmp_path, monkeypatch):
    """Gait2354's scale setup with its coordinate mtp_angle_r named 'time', the name of the
    static pose's first column, a .mot urdf2dyn's readers refuse with two such columns.
    Before, scale's check before scaling let it pass, and the job scaled and placed the
    markers, then refused it when writing the pose; now it refuses it before, as ik does."""
    import importlib
    import warnings

    from urdf2dyn.warn import Urdf2dynWarning
    scale = importlib.import_module("urdf2dyn.biomech.scale")
    folder = _published_setup_renamed(tmp_path, ("scale", "gait2354"),
                                      ("gait2354_simbody.osim", "subject01_Setup_Scale.xml"),
                                      new="time")

    def scaled(*args, **kwargs):
        raise AssertionError("the model was scaled before the refusal")

    monkeypatch.setattr(scale, "scale", scaled)
    before = set(os.listdir(folder))
    with warnings.catch_warnings(), \
            pytest.raises(MotionError, match="the coordinate 'time' .* it is the first "
                                             "column's name"):
        warnings.simplefilter("ignore", Urdf2dynWarning)
        scale.run_setup(folder / "subject01_Setup_Scale.xml")
    assert set(os.listdir(folder)) == before, set(os.listdir(folder)) - before


def test_check_prints_its_findings_about_a_file_named_with_a_line_break_on_one_line_each(
        tmp_path):
    """A link of negative mass and a joint whose axis is zero in a file named 'r&#10;1.urdf'.
    Before, `urdf2dyn check` escaped the findings' messages but printed the path before them
    as it is: each finding, and the count closing them, over two lines, the second
    without the 'FILE:LINE: kind:' an editor or a script reads; now each on one line, its
    line break written as Python's repr writes it, as the notes and errors are."""
    robot = tmp_path / "r\n1.urdf"
    robot.write_text(_URDF_NAMED_WITH_A_LINE_BREAK.replace('<mass value="1"/>',
                                                           '<mass value="-1"/>')
                     .replace('xyz="0 0 1"', 'xyz="0 0 0"'))
    status, out, err = run_here(["check", str(robot)])
    assert status == 1, err
    shown = f"{tmp_path}/r\\n1.urdf"
    lines = out.splitlines()
    assert len(lines) == 3 and all(line.startswith(shown + ":") for line in lines), out
    assert lines[0].startswith(f"{shown}:3: error: ") and lines[1].startswith(f"{shown}:5: "), out
    assert lines[2] == f"{shown}: 2 errors, 0 warnings, 0 advice", out


def test_a_humod_char_matrix_label_keeps_its_leading_blanks_as_cellstr_does(tmp_path):
    """Labels saved by Octave as a char matrix, char(' a', 'bc'): MATLAB and Octave pad its
    rows with blanks at their ends only, and cellstr, which takes them off, gives ' a' back.
    Before, read_humod took the blanks off both ends, reading 'a'; now ' a', as Octave."""
    import shutil
    import subprocess

    from urdf2dyn.biomech.formats import read_humod
    octave = shutil.which("octave-cli")
    if octave is None:
        pytest.skip("octave-cli not found: install Debian's 'octave' package")
    path = tmp_path / "matrix.mat"
    # cellstr in the session that saves the file: Octave 7.3 fails to load it back ("invalid
    # element type = 224") when the struct holds a char matrix and a nested struct
    script = ("motion.frameRate = 100; motion.trajectoryLabels = char(' a', 'bc'); "
              f"motion.trajectory.q = zeros(2, 3); save('-v6', '{path}', 'motion'); "
              "l = cellstr(motion.trajectoryLabels); printf('[%s]\\n', l{:});")
    run = subprocess.run([octave, "--no-gui", "--quiet", "--no-init-file", "--eval", script],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert [line[1:-1] for line in run.stdout.splitlines()] == [" a", "bc"], run.stdout
    assert read_humod(path).names == [" a", "bc"]


@pytest.mark.parametrize("name", ["a+b", "a b"])
def test_a_grounds_wrap_object_named_as_opensim_refuses_is_warned_about(osim, tmp_path, name):
    """The pendulum with a wrap object on the ground (<Ground>'s WrapObjectSet) named 'a+b' or
    'a b': OpenSim 4.6 refuses to load it ('contains invalid characters', the oracle).
    urdf2dyn checked the bodies' wrap objects only, and loaded this one without a word."""
    path = tmp_path / "pendulum.osim"
    _pendulum_osim(osim, path, "pin", "q")
    text = path.read_text()
    assert text.count("</Ground>") == 1
    path.write_text(text.replace("</Ground>", _OTHER_COMPONENTS["wrap object"][1].format(name)
                                 + "</Ground>"))
    said = _refused_by_opensim_loaded_by_urdf2dyn_saying(osim, path)
    assert any(f"OpenSim 4.6 refuses to load this model: wrap object '{name}' holds a "
               "character" in m for m in said), said
