"""OpenSim marker files (.trc): read against OpenSim's own reader on OpenSim's published trials,
files written by OpenSim's API read, ours read back by OpenSim, and fuzzed.

Data: opensim-models' Gait2392 subject01_walk1.trc and Hamner's subject02_running.trc
(tests/data/opensim_models/README.md)."""
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
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
    text = open(WALK).read().splitlines()
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
    text = open(WALK).read().replace("\tmm\t", "\tm\t", 1)
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


# ----------------------------------------------------------------------------- fuzzing

_LINES = open(WALK).read().splitlines()[:12]


@settings(max_examples=150, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 400), st.text(max_size=6)),
                      max_size=6),
       cut=st.integers(0, 12))
def test_fuzzed_trc_is_read_or_refused(tmp_path, edits, cut):
    """Random edits of a real file's first lines: read, or refused with a MotionError or
    ValueError naming the file; never another exception."""
    lines = list(_LINES[:cut or 12])
    for i, pos, text in edits:
        if i < len(lines):
            lines[i] = lines[i][:pos] + text + lines[i][pos + len(text):]
    p = tmp_path / "fuzz.trc"
    p.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        try:
            m = read_trc(p)
        except (MotionError, ValueError) as e:
            assert "fuzz.trc" in str(e) or "xyz" in str(e)
        else:
            assert isinstance(m, Markers) and m.xyz.shape == (len(m.time), len(m.labels), 3)
