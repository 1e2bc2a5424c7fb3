"""Property tests of the recording and setup readers (issue 26): whatever the bytes, a reader
returns a result or raises its own error naming the file, never another exception, within a
time cap (risky inputs also under a memory cap, in a child process); what urdf2dyn writes,
OpenSim's own readers read back as urdf2dyn reads it (TRCFileAdapter, STOFileAdapter); any set
of coordinate couplers, in any order, with loops, is applied exactly or refused by name.

The setup readers are one table (SETUP_READERS): a new setup file (Scale, RRA) is one entry, a
reader and a template, and gets the same mutations."""
from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn import Urdf2dynWarning
from urdf2dyn.biomech.formats import read_sto_table, read_trc, write_trc
from urdf2dyn.biomech.formats.ik_setup import IKSetupError, read_ik_setup
from urdf2dyn.biomech.formats.opensim import (ExternalLoadsError, _write_sto,
                                              read_external_loads)
from urdf2dyn.biomech.formats.opensim_setup import SetupError, read_id_setup
from urdf2dyn.biomech.formats.rra_setup import RRASetupError, read_rra_setup
from urdf2dyn.biomech.formats.scale_setup import ScaleSetupError, read_scale_setup
from urdf2dyn.biomech.markers import LENGTH_UNITS, Markers
from urdf2dyn.biomech.trajectory import MotionError

import opensim_tables
from test_cli_hypothesis import RUNAWAY_S, _memory_cap, bounded
from test_osim_errors import _body, _doc, _pin

CHECKS = settings(max_examples=int(os.environ.get("URDF2DYN_READER_EXAMPLES", 40)),
                  derandomize=True, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow, HealthCheck.data_too_large])
DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data")


def _quiet(fn, *args, **kw):
    """fn(*args, **kw) within the runaway cap, warnings silenced."""
    with bounded(), warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return fn(*args, **kw)


def _refused_by_name(error, path):
    assert os.fspath(path) in str(error) or os.path.basename(os.fspath(path)) in str(error), \
        f"{type(error).__name__} does not name the file: {error}"


# ---- .trc: written, read back by urdf2dyn and OpenSim; damaged, read or refused ---------------

LABEL = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz0123456789._-", min_size=1, max_size=8)


@st.composite
def marker_recordings(draw):
    """Markers in m: 1-5 labels, 1-25 frames at increasing times, gaps anywhere (a marker in a
    frame, a whole frame, a marker in every frame, the first and the last)."""
    labels = draw(st.lists(LABEL, min_size=1, max_size=5, unique=True))
    n = draw(st.integers(1, 25))
    steps = draw(st.lists(st.floats(1e-3, 0.05), min_size=n, max_size=n))
    time = np.cumsum(steps) - steps[0] + draw(st.floats(-2, 2))
    xyz = np.array(draw(st.lists(st.floats(-2.5, 2.5), min_size=3 * n * len(labels),
                                 max_size=3 * n * len(labels)))).reshape(n, len(labels), 3)
    gaps = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, len(labels) - 1)),
                         max_size=6))
    for i, k in gaps:
        xyz[i, k] = np.nan
    if draw(st.booleans()):
        xyz[draw(st.integers(0, n - 1))] = np.nan
    if draw(st.booleans()):
        xyz[:, draw(st.integers(0, len(labels) - 1))] = np.nan
    assume(np.isfinite(xyz).any())
    return Markers(time, labels, xyz, meta={"rate": draw(st.sampled_from([0.0, 60.0, 100.0]))})


@CHECKS
@given(markers=marker_recordings(), units=st.sampled_from(sorted(LENGTH_UNITS)))
def test_trc_we_write_is_read_back_by_opensim_and_by_us(tmp_path, osim, markers, units):
    path = tmp_path / "m.trc"
    write_trc(path, markers, units=units)
    ours = _quiet(read_trc, path)
    scale = LENGTH_UNITS[units]
    tol = 0.6e-6 * scale                        # six decimals in the file's units
    assert ours.labels == markers.labels and len(ours.time) == len(markers.time)
    np.testing.assert_allclose(ours.time, markers.time, atol=1e-6)
    np.testing.assert_allclose(ours.xyz, markers.xyz, atol=tol, equal_nan=True)
    table = osim.TimeSeriesTableVec3(str(path))
    assert list(table.getColumnLabels()) == markers.labels
    assert table.getNumRows() == len(markers.time)
    theirs = np.array([[list(table.getRowAtIndex(i)[j].to_numpy())
                        for j in range(table.getNumColumns())]
                       for i in range(table.getNumRows())]) * scale
    np.testing.assert_allclose(theirs, markers.xyz, atol=tol, equal_nan=True)
    np.testing.assert_allclose(np.array(table.getIndependentColumn()), markers.time, atol=1e-6)


@st.composite
def damaged(draw, text):
    """text with one to three structural faults: cut anywhere, a cell dropped, a line
    duplicated or dropped, a header count changed (to anything, 2**31 - 1 included), junk."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["cut", "cell", "dup", "drop", "count", "junk"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if kind == "cut":
            joined = "\n".join(lines)
            lines = joined[:draw(st.integers(0, len(joined)))].split("\n")
        elif kind == "cell" and "\t" in lines[i]:
            cells = lines[i].split("\t")
            del cells[draw(st.integers(0, len(cells) - 1))]
            lines[i] = "\t".join(cells)
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "drop" and len(lines) > 1:
            del lines[i]
        elif kind == "count":
            value = draw(st.sampled_from(["0", "-1", "80", "2147483647", "1e308", "nan", "x",
                                          ""]))
            for k, line in enumerate(lines):
                for key in ("nRows=", "nColumns="):
                    if line.startswith(key):
                        lines[k] = key + value
            if len(lines) > 2 and lines[1].startswith("DataRate"):
                cells = lines[2].split("\t")
                cells[min(2, len(cells) - 1)] = value
                lines[2] = "\t".join(cells)
        else:
            junk = draw(st.sampled_from(["\t\t\t", "nan", "1e999", "\x00", "\ufeff", " ", "\r",
                                         "endheader", "Frame#\tTime", "\t-\t"]))
            lines[i] = lines[i][:3] + junk + lines[i][3:]
    return "\n".join(lines)


_TRC = None


def _a_trc():
    global _TRC
    if _TRC is None:
        m = read_trc(os.path.join(DATA, "opensim_models", "Gait2392_Simbody",
                                  "subject01_walk1.trc"))
        small = Markers(m.time[:8], m.labels[:4], m.xyz[:8, :4], meta={"rate": 60.0})
        small.xyz[2, 3] = np.nan                     # a gap in the last marker
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            write_trc(os.path.join(d, "w.trc"), small)
            _TRC = Path(os.path.join(d, "w.trc")).read_text()
    return _TRC


@CHECKS
@given(data=st.data())
def test_damaged_trc_is_read_or_refused_naming_the_file(tmp_path, data):
    text = data.draw(damaged(_a_trc()))
    path = tmp_path / "d.trc"
    path.write_text(text, encoding="utf-8")
    try:
        m = _quiet(read_trc, path)
    except (MotionError, ValueError) as e:
        _refused_by_name(e, path)
    else:
        assert m.xyz.shape == (len(m.time), len(m.labels), 3) and len(m.time) > 0
        assert np.all(np.diff(m.time) > 0)


# ---- .mot/.sto: written, read back by urdf2dyn and OpenSim; damaged, read or refused ----------

COLUMN = st.text("abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=12)


@CHECKS
@given(labels=st.lists(COLUMN, min_size=1, max_size=6, unique=True),
       n=st.integers(1, 30), degrees=st.booleans(), data=st.data())
def test_sto_we_write_is_read_back_by_opensim_and_by_us(tmp_path, osim, labels, n, degrees,
                                                        data):
    assume("time" not in labels)
    values = np.array(data.draw(st.lists(
        st.floats(-1e6, 1e6, allow_subnormal=False), min_size=n * len(labels),
        max_size=n * len(labels)))).reshape(n, len(labels))
    time = np.arange(n) * data.draw(st.floats(1e-3, 1.0)) + data.draw(st.floats(-5, 5))
    table = np.column_stack([time, values])
    for ext in (".sto", ".mot"):
        path = tmp_path / f"t{ext}"
        _write_sto(path, ["time", *labels], table, degrees, "t")
        got_labels, got, info, _ = _quiet(read_sto_table, path)
        assert got_labels == ["time", *labels] and info["indegrees"] == ("yes" if degrees
                                                                          else "no")
        np.testing.assert_allclose(got, table, rtol=1e-14, atol=1e-300)    # 15 digits
        theirs = osim.TimeSeriesTable(str(path))
        assert list(theirs.getColumnLabels()) == labels
        np.testing.assert_allclose(np.array(theirs.getIndependentColumn()), time, rtol=1e-14)
        np.testing.assert_allclose(theirs.getMatrix().to_numpy(), values, rtol=1e-14,
                                   atol=1e-300)


_STO = ("walk\nversion=1\nnRows=4\nnColumns=3\ninDegrees=yes\nendheader\ntime\tknee\thip\n"
        "0\t1\t2\n0.01\t1.5\t2.5\n0.02\t2\t3\n0.03\t2.5\t3.5\n")


@CHECKS
@given(data=st.data(), ext=st.sampled_from([".sto", ".mot"]))
def test_damaged_sto_is_read_or_refused_naming_the_file(tmp_path, data, ext):
    path = tmp_path / f"d{ext}"
    path.write_text(data.draw(damaged(_STO)), encoding="utf-8")
    try:
        labels, table, _, _ = _quiet(read_sto_table, path)
    except (MotionError, ValueError) as e:
        _refused_by_name(e, path)
    else:
        assert table.ndim == 2 and table.shape[1] == len(labels)


# ---- torque files: OpenSim's inverse-dynamics results, read back by the model's names ----

TORQUE_HEADER = ["time", "joint1", "joint2", "joint1_moment", "joint2_moment", "joint2_force",
                 "x", "", "JOINT1_moment"]
TORQUE_CELL = ["0", "1", "0.01", "0.02", "nan", "", "x", "1e999", "-1", "1,5"]


@CHECKS
@given(n=st.integers(1, 6), data=st.data())
def test_torque_files_opensim_writes_are_read_by_the_models_names(tmp_path, osim, n, data):
    """read_torques had no property test: a .sto of robot2r's generalized forces as OpenSim's
    inverse-dynamics tool names them (<coordinate>_moment), written by OpenSim's own
    STOFileAdapter with its columns in any order, is read in the model's v order, to the bit
    of what OpenSim wrote."""
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    order = data.draw(st.permutations(["joint1_moment", "joint2_moment"]))
    tau = np.array(data.draw(st.lists(st.floats(-1e6, 1e6, allow_subnormal=False),
                                      min_size=2 * n, max_size=2 * n))).reshape(n, 2)
    path = tmp_path / "id.sto"
    opensim_tables.write_sto(osim, path, 0.01 * np.arange(n), tau, order, degrees=False)
    labels, time, written = opensim_tables.read_table(osim, path)
    t, got, names = _quiet(urdf2dyn.biomech.formats.read_torques, path, model)
    assert names == ["joint1", "joint2"]
    np.testing.assert_array_equal(got, written[:, [labels.index("joint1_moment"),
                                                   labels.index("joint2_moment")]])
    np.testing.assert_array_equal(t, time)


@CHECKS
@given(ext=st.sampled_from([".csv", ".sto", ".mot"]),
       header=st.lists(st.sampled_from(TORQUE_HEADER), max_size=5),
       rows=st.lists(st.lists(st.sampled_from(TORQUE_CELL), max_size=5), max_size=5),
       opensim_header=st.booleans(), with_model=st.booleans())
# found by a longer run: a column the model needs missing was refused without the file's name
@example(ext=".sto", header=["time", "joint2_moment"], rows=[["0", "1"], ["0.01", "2"]],
         opensim_header=True, with_model=True)
def test_any_torque_file_is_read_or_refused_naming_the_file(tmp_path, ext, header, rows,
                                                            opensim_header, with_model):
    """Any header and cells, with or without the model whose columns are asked for: read,
    or refused by a ValueError naming the file (a missing column named the columns alone)."""
    sep = "\t" if ext != ".csv" else ","
    text = (f"t\nversion=1\nnRows={len(rows)}\nnColumns={len(header)}\ninDegrees=no\n"
            "endheader\n" if opensim_header else "")
    path = tmp_path / f"tau{ext}"
    path.write_text(text + "".join(sep.join(r) + "\n" for r in [header, *rows]))
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf")) if with_model else None
    try:
        t, tau, names = _quiet(urdf2dyn.biomech.formats.read_torques, path, model)
    except ValueError as e:
        _refused_by_name(e, path)
    else:
        assert tau.shape == (len(t), len(names))


# ---- setup files: one table of readers, one mutation strategy --------------------------------

def _id_setup(folder):
    (folder / "c.mot").write_text(_STO)
    (folder / "g.mot").write_text("g\nversion=1\nendheader\ntime\tf_vx\tf_vy\tf_vz\n0\t1\t2\t3\n"
                                  "0.03\t1\t2\t3\n")
    (folder / "l.xml").write_text(_LOADS)
    return ('<?xml version="1.0"?><OpenSimDocument Version="40000"><InverseDynamicsTool name="t">'
            '<results_directory>r</results_directory><model_file>m.osim</model_file>'
            '<time_range>0 0.03</time_range><external_loads_file>l.xml</external_loads_file>'
            '<coordinates_file>c.mot</coordinates_file>'
            '<lowpass_cutoff_frequency_for_coordinates>6</lowpass_cutoff_frequency_for_coordinates>'
            '<output_gen_force_file>id.sto</output_gen_force_file></InverseDynamicsTool>'
            '</OpenSimDocument>')


def _ik_setup(folder):
    return ('<?xml version="1.0"?><OpenSimDocument Version="40000"><InverseKinematicsTool '
            'name="t"><model_file>m.osim</model_file><marker_file>w.trc</marker_file>'
            '<coordinate_file>c.mot</coordinate_file><time_range>0 1</time_range>'
            '<accuracy>1e-5</accuracy><constraint_weight>20</constraint_weight><IKTaskSet>'
            '<objects><IKMarkerTask name="A"><apply>true</apply><weight>2</weight>'
            '</IKMarkerTask><IKCoordinateTask name="knee"><apply>true</apply><weight>1</weight>'
            '<value_type>manual_value</value_type><value>0.1</value></IKCoordinateTask>'
            '</objects></IKTaskSet><output_motion_file>o.mot</output_motion_file>'
            '<report_errors>true</report_errors></InverseKinematicsTool></OpenSimDocument>')


_LOADS = ('<?xml version="1.0"?><OpenSimDocument Version="40000"><ExternalLoads name="l">'
          '<objects><ExternalForce name="r"><isDisabled>false</isDisabled><applied_to_body>calcn_r'
          '</applied_to_body><force_expressed_in_body>ground</force_expressed_in_body>'
          '<point_expressed_in_body>ground</point_expressed_in_body><force_identifier>f_v'
          '</force_identifier><point_identifier>f_p</point_identifier><torque_identifier>f_t'
          '</torque_identifier></ExternalForce></objects><datafile>g.mot</datafile>'
          '</ExternalLoads></OpenSimDocument>')


def _loads_setup(folder):
    (folder / "g.mot").write_text(
        "g\nversion=1\nendheader\ntime\tf_vx\tf_vy\tf_vz\tf_px\tf_py\tf_pz\tf_tx\tf_ty\tf_tz\n"
        + "".join(f"{t}\t1\t2\t3\t0\t0\t0\t0\t0\t0\n" for t in (0, 0.01, 0.02)))
    return _LOADS


def _scale_setup(folder):
    """The real lab's published ScaleTool setup (tests/data/real_lab), its files beside it."""
    lab = os.path.join(DATA, "real_lab")
    shutil.copy(os.path.join(lab, "model", "model_generic.osim"), folder / "generic.osim")
    shutil.copy(os.path.join(lab, "scale", "markers.xml"), folder / "markers.xml")
    shutil.copy(os.path.join(lab, "experimental_data", "static.trc"), folder / "static.trc")
    with open(os.path.join(lab, "scale", "setup_scale.xml")) as f:
        text = f.read()
    return (text.replace("../model/model_generic.osim", "generic.osim")
            .replace("../experimental_data/static.trc", "static.trc"))


def _rra_setup(folder):
    """gait2354's published RRA setup (opensim-models), the files it names beside it."""
    case = os.path.join(DATA, "opensim_models", "Gait2354_Simbody")
    for name in os.listdir(case):
        shutil.copy(os.path.join(case, name), folder / name)
    with open(os.path.join(case, "subject01_Setup_RRA.xml")) as f:
        return f.read()


#: Every OpenSim setup file urdf2dyn reads: name -> (reader, its error, template(folder) -> XML
#: text, writing the files it names into folder). A new setup file: add a line.
SETUP_READERS = {
    "InverseDynamicsTool": (lambda p: read_id_setup(p, need_model=False), SetupError, _id_setup),
    "InverseKinematicsTool": (read_ik_setup, IKSetupError, _ik_setup),
    "ExternalLoads": (read_external_loads, ExternalLoadsError, _loads_setup),
    "ScaleTool": (read_scale_setup, ScaleSetupError, _scale_setup),
    "RRATool": (read_rra_setup, RRASetupError, _rra_setup),
}

TEXTS = ["", " ", "0", "-1", "1e308", "nan", "inf", "-inf", "true", "false", "Unassigned",
         "1 2", "0 -1", "1,5", "..\\..\\x.mot", "C:\\data\\walk.trc", "/nonexistent/x.mot",
         "../g.mot", "c.mot", "g.mot", "l.xml", "\u00e9\u00e8", "x" * 300, "&amp;", "1e-320"]


@st.composite
def mutated_tree(draw, text):
    """The setup's XML with random edits: an element's text replaced, an element dropped,
    duplicated, renamed or nested in a new one, an attribute set, the root renamed."""
    root = ET.fromstring(text)
    for _ in range(draw(st.integers(1, 5))):
        elems = list(root.iter())
        e = draw(st.sampled_from(elems))
        kind = draw(st.sampled_from(["text", "drop", "dup", "rename", "nest", "attr"]))
        parent = next((p for p in elems if e in list(p)), None)
        if kind == "text":
            e.text = draw(st.one_of(st.sampled_from(TEXTS), st.text(max_size=10)))
        elif kind == "drop" and parent is not None:
            parent.remove(e)
        elif kind == "dup" and parent is not None:
            parent.insert(list(parent).index(e), ET.fromstring(ET.tostring(e)))
        elif kind == "rename":
            e.tag = draw(st.sampled_from(["objects", "x", "ExternalForce", "IKMarkerTask",
                                          "time_range", "datafile", e.tag.upper()]))
        elif kind == "nest" and parent is not None:
            k = list(parent).index(e)
            parent.remove(e)
            wrap = ET.Element("wrapper")
            wrap.append(e)
            parent.insert(k, wrap)
        else:
            e.set(draw(st.sampled_from(["name", "Version", "file"])),
                  draw(st.sampled_from(TEXTS[:8])))
    return ET.tostring(root, encoding="unicode")


def _clean(text):
    """Only characters XML 1.0 allows (ElementTree would write others and refuse them)."""
    return "".join(c for c in text if c in "\t\n\r" or (" " <= c <= "\ud7ff") or
                   ("\ue000" <= c <= "\ufffd"))


@CHECKS
@given(which=st.sampled_from(sorted(SETUP_READERS)), data=st.data())
def test_mutated_setups_are_read_or_refused_naming_the_file(tmp_path, which, data):
    reader, error, template = SETUP_READERS[which]
    text = _clean(data.draw(mutated_tree(template(tmp_path))))
    path = tmp_path / "setup.xml"
    path.write_text(text, encoding="utf-8")
    try:
        _quiet(reader, path)
    except error as e:
        _refused_by_name(e, path)
    except MotionError as e:              # a file the setup names (ExternalLoads' data)
        assert "g.mot" in str(e) or "setup.xml" in str(e), e


@pytest.mark.parametrize("which", sorted(SETUP_READERS))
def test_every_setup_template_reads(tmp_path, which):
    """The templates above are good setups: the mutations start from something that reads."""
    reader, _, template = SETUP_READERS[which]
    path = tmp_path / "setup.xml"
    path.write_text(template(tmp_path))
    _quiet(reader, path)


# ---- coupler sets: any order, loops, a coordinate driven twice ----------------------------------

FUNCTIONS = {   # element, f(x), f'(x)
    "linear": ('<LinearFunction><coefficients>{a} {b}</coefficients></LinearFunction>',
               lambda a, b, x: a * x + b, lambda a, b, x: a),
    "quadratic": ('<PolynomialFunction><coefficients>{a} {b} 0.1</coefficients>'
                  '</PolynomialFunction>', lambda a, b, x: a * x * x + b * x + 0.1,
                  lambda a, b, x: 2 * a * x + b),
    "constant": ('<Constant><value>{a}</value></Constant>', lambda a, b, x: a,
                 lambda a, b, x: 0.0),
}


def _coupler(dep, ind):
    """A coupler of q{dep} on q{ind}: any function, coefficients and scale factor."""
    return st.tuples(dep, ind, st.sampled_from(sorted(FUNCTIONS)),
                     st.floats(-2, 2).map(lambda x: round(x, 3)),
                     st.floats(-1, 1).map(lambda x: round(x, 3)),
                     st.sampled_from([1.0, -0.5, 2.0]))


@st.composite
def coupler_sets(draw):
    """A chain of n pins (q0 .. q{n-1}) and couplers between them in any order: chains,
    loops, two on one coordinate, self-coupled ones; half of the sets applicable (a forest:
    each coordinate driven at most once, by one earlier in a random order), so that the
    values applied are compared with the functions, not only refusals."""
    n = draw(st.integers(2, 5))
    if draw(st.booleans()):
        order = draw(st.permutations(range(n)))
        driven = draw(st.lists(st.integers(1, n - 1), min_size=1, max_size=n - 1, unique=True))
        couplers = [draw(_coupler(st.just(order[k]), st.sampled_from(order[:k])))
                    for k in driven]
        return n, draw(st.permutations(couplers))
    couplers = draw(st.lists(_coupler(st.integers(0, n - 1), st.integers(0, n - 1)),
                             min_size=1, max_size=6))
    return n, couplers


def _coupled_model(n, couplers):
    bodies = "".join(_body(f"b{k}") for k in range(n))
    joints = "".join(_pin(f"j{k}", "/ground" if k == 0 else f"/bodyset/b{k - 1}",
                          f"/bodyset/b{k}", coord=f"q{k}") for k in range(n))
    cs = "".join(
        f'<CoordinateCouplerConstraint name="k{i}"><coupled_coordinates_function>'
        + FUNCTIONS[f][0].format(a=a, b=b) + '</coupled_coordinates_function>'
        f'<independent_coordinate_names>q{ind}</independent_coordinate_names>'
        f'<dependent_coordinate_name>q{dep}</dependent_coordinate_name>'
        f'<scale_factor>{s}</scale_factor></CoordinateCouplerConstraint>\n'
        for i, (dep, ind, f, a, b, s) in enumerate(couplers))
    return _doc(bodies, joints, f"<ConstraintSet><objects>\n{cs}</objects></ConstraintSet>\n")


def _applicable(couplers):
    """Whether some order applies every coupler: no self-coupling, one coupler per dependent
    coordinate, no loop."""
    driver = {}
    for dep, ind, *_ in couplers:
        if dep == ind or dep in driver:
            return False
        driver[dep] = ind
    for start in driver:
        seen, k = set(), start
        while k in driver:
            if k in seen:
                return False
            seen.add(k)
            k = driver[k]
    return True


@CHECKS
@given(sets=coupler_sets(), seed=st.integers(0, 2**16))
def test_any_coupler_set_is_applied_exactly_or_refused_by_name(sets, seed):
    n, couplers = sets
    text = _coupled_model(n, couplers)
    if any(dep == ind for dep, ind, *_ in couplers):
        with pytest.raises(urdf2dyn.URDFError, match="depends on itself"):
            _quiet(urdf2dyn.load, text)
        return
    keep = _quiet(urdf2dyn.load, text)                 # OpenSim's ID: every coordinate kept
    if not _applicable(couplers):
        with pytest.raises(urdf2dyn.URDFError, match=r"CoordinateCouplerConstraints 'k\d+'"):
            _quiet(urdf2dyn.load, text, couplers="eliminate")
        with pytest.raises(urdf2dyn.URDFError, match="form a loop|both drive coordinate"):
            keep.apply_couplers(np.zeros(keep.nq))
        return
    model = _quiet(urdf2dyn.load, text, couplers="eliminate")
    rng = np.random.default_rng(seed)
    q, v = rng.uniform(-1, 1, model.nq), rng.uniform(-1, 1, model.nv)
    qf, vf, _ = model.apply_couplers(q, v, 0.0)
    at = {name: k for k, name in enumerate(model.q_names)}
    for dep, ind, f, a, b, s in couplers:      # every equation holds at the final values
        x = qf[at[f"q{ind}"]]
        assert qf[at[f"q{dep}"]] == pytest.approx(s * FUNCTIONS[f][1](a, b, x), abs=1e-12)
        assert vf[at[f"q{dep}"]] == pytest.approx(s * FUNCTIONS[f][2](a, b, x)
                                                  * vf[at[f"q{ind}"]], abs=1e-11)
    free = [k for k in range(n) if k not in {dep for dep, *_ in couplers}]
    for k in free:                              # independent coordinates are left as given
        assert qf[at[f"q{k}"]] == q[at[f"q{k}"]]
    tau = model.inverse_dynamics(q, v, 0.0)
    assert np.all(np.isfinite(tau)) and all(tau[at[f"q{dep}"]] == 0 for dep, *_ in couplers)


# ---- model marker files (CSV name, link, x, y, z): any bytes -----------------------------------

_MARKERS = ("name,link,x,y,z\n# a comment\nRASI,pelvis,0.1,0.02,-0.3\n"
            'LASI,pelvis,-0.1,"0.02",0.3\n\nTIP,link2,1e-3,0,0\n')


@CHECKS
@given(data=st.data(), encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16"]))
def test_damaged_marker_files_are_read_or_refused_naming_the_file(tmp_path, data, encoding):
    from urdf2dyn.markers import read_markers
    text = data.draw(damaged(_MARKERS.replace(",", "\t")).map(lambda t: t.replace("\t", ",")))
    text += data.draw(st.sampled_from(["", '"', "\u00e9,l,1,2,3\n", "a,l," + "1" * 140000]))
    path = tmp_path / "markers.csv"
    path.write_bytes(text.encode(encoding, errors="replace"))
    try:
        markers = _quiet(read_markers, path)
    except ValueError as e:
        _refused_by_name(e, path)
    else:
        assert len({m.name for m in markers}) == len(markers)
        assert all(np.all(np.isfinite(m.position)) and m.name and m.link for m in markers)


@pytest.mark.parametrize("content, message", [
    ("\u00e9,pelvis,1,2,3\n".encode("cp1252"), r"not UTF-8 text \(byte 0: 0xe9\)"),
    ("name,link,x,y,z\n".encode("utf-16"), r"not UTF-8 text \(byte 0: 0xff\)"),
    (b"a,pelvis," + b"1" * 140000 + b",0,0\n", r"line 1: field larger than field limit"),
], ids=["windows-1252", "utf-16", "a-140000-byte-cell"])
def test_marker_files_csv_cannot_read_are_refused_naming_the_file(tmp_path, content, message):
    """A marker file in another encoding, or with a cell past csv's field limit, was a
    UnicodeDecodeError or a csv.Error naming nothing; now a ValueError naming the file."""
    from urdf2dyn.markers import read_markers
    path = tmp_path / "m.csv"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=r"m\.csv: " + message):
        read_markers(path)


def test_a_marker_file_with_a_byte_order_mark_keeps_its_header(tmp_path):
    """Excel's "CSV UTF-8" starts with a byte-order mark: the header was read as a marker
    ("'x' is not a finite number")."""
    from urdf2dyn.markers import read_markers
    path = tmp_path / "m.csv"
    path.write_bytes(b"\xef\xbb\xbfname,link,x,y,z\nRASI,pelvis,0.1,0.2,0.3\n")
    assert [(m.name, m.link, m.position) for m in read_markers(path)] == \
        [("RASI", "pelvis", (0.1, 0.2, 0.3))]


# ---- HuMoD .mat: any value in any field -------------------------------------------------------

def _humod_base():
    return {"motion": {"frameRate": 500.0, "trajectoryLabels": np.array(["qA", "pBJX"], object),
                       "trajectory": {"q": np.ones((2, 5)), "dqdt": np.zeros((2, 5))}},
            "force": {"frameRate": 1000.0, **{f"{k}{a}_L": np.ones(9) for k in ("grf", "cop")
                                               for a in "XYZ"}}}


HUMOD_VALUES = st.sampled_from([
    "fast", "", 0.0, -1.0, np.nan, np.inf, 3.0, np.array([]), np.ones(7), np.ones((2, 0)),
    np.ones((2, 5, 2)), np.full((2, 5), np.nan), np.ones((5, 2)), np.ones(3),
    np.array(["a", "b"], object), {"q": 1.0}, np.array([1.0, 2.0]), None])


@CHECKS
@given(data=st.data())
def test_humod_files_with_any_field_changed_are_read_or_refused_naming_the_file(tmp_path, data):
    """A HuMoD .mat file with one to three fields replaced (by text, numbers, empty, NaN or
    misshapen arrays, structs) or removed: read, or a MotionError naming the file (a
    ValueError, TypeError, KeyError or IndexError from NumPy before)."""
    pytest.importorskip("scipy")
    from scipy.io import savemat
    from urdf2dyn.biomech.formats.humod import read_humod
    mat = _humod_base()
    for _ in range(data.draw(st.integers(1, 3))):
        struct = mat
        for key in data.draw(st.sampled_from([(), ("motion",), ("motion", "trajectory"),
                                              ("force",)])):
            struct = struct.get(key) if isinstance(struct, dict) else None
        if not isinstance(struct, dict) or not struct:
            continue
        key = data.draw(st.sampled_from(sorted(struct)))
        # removed a time in four (None, one of the 18 values, was not drawn in 40 examples)
        value = None if data.draw(st.integers(0, 3)) == 0 else data.draw(HUMOD_VALUES)
        if value is None:
            del struct[key]
        else:
            struct[key] = value
    path = tmp_path / "humod.mat"
    savemat(path, mat)
    try:
        traj = _quiet(read_humod, path)
    except MotionError as e:
        _refused_by_name(e, path)
    else:
        assert traj.q.ndim == 2 and len(traj.q) == len(traj.time) > 0
        assert np.all(np.diff(traj.time) > 0)
        for side in traj.grf:
            assert traj.grf[side].shape == (len(traj.time), 3)


# ---- runaways: hostile files under a time and a memory cap, in a child process ---------------

_CHILD = r"""
import sys, warnings
# hostile files: whatever is warned about on the way is not the subject, the time, the memory
# and the refusal are
warnings.simplefilter("ignore")
kind, path = sys.argv[1], sys.argv[2]
from urdf2dyn.biomech import formats
from urdf2dyn.biomech.formats.ik_setup import read_ik_setup
import urdf2dyn
read = {"trc": formats.read_trc, "sto": formats.read_sto_table, "ik": read_ik_setup,
        "mot": formats.read_opensim, "csv": formats.read_csv,
        "osim": lambda p: urdf2dyn.load(p, couplers="eliminate")}[kind]
try:
    read(path)
    print("read")
except (ValueError, OSError) as e:
    print("refused:", str(e)[:300])
"""


def _hostile(folder):
    trc = _a_trc().split("\n")
    big = list(trc)
    big[2] = big[2].replace("\t8\t", "\t2147483647\t", 1)
    wide = list(trc)
    wide[3] = wide[3] + "\tM" * 200000                 # 200 000 marker names, no data
    laughs = ('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
              + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">'
                        for p, c in zip("abcdefgh", "bcdefghi"))
              + ']><OpenSimDocument><InverseKinematicsTool name="&i;"/></OpenSimDocument>')
    chain = [(k, k + 1, "linear", 1.001, 0.0, 1.0) for k in range(1500)]
    files = {
        "trc-numframes": ("trc", "\n".join(big)),
        "trc-200000-names": ("trc", "\n".join(wide)),
        "sto-nrows": ("sto", _STO.replace("nRows=4", "nRows=1000000000000000")),
        "sto-one-line": ("sto", _STO.split("endheader")[0] + "endheader\ntime\t"
                         + "\t".join(f"c{k}" for k in range(300000)) + "\n"),
        "sto-300000-same-names": ("mot", _STO.split("endheader")[0] + "endheader\ntime"
                                  + "\tknee" * 300000 + "\n0" + "\t1" * 300000 + "\n"),
        "csv-300000-same-names": ("csv", "time" + ",knee" * 300000 + "\n"
                                  + "".join(f"{t}" + ",1" * 300000 + "\n" for t in range(3))),
        "setup-billion-laughs": ("ik", laughs),
        "setup-deep": ("ik", "<OpenSimDocument>" + "<x>" * 100000 + "</x>" * 100000
                       + "</OpenSimDocument>"),
        "couplers-1500-reversed": ("osim", _coupled_model(1501, chain[::-1])),
    }
    out = {}
    for name, (kind, text) in files.items():
        path = folder / f"{name}.{'xml' if kind == 'ik' else kind}"
        path.write_text(text)
        out[name] = (kind, path)
    return out


@pytest.mark.parametrize("name", ["trc-numframes", "trc-200000-names", "sto-nrows",
                                  "sto-one-line", "sto-300000-same-names",
                                  "csv-300000-same-names", "setup-billion-laughs", "setup-deep",
                                  "couplers-1500-reversed"])
def test_hostile_files_end_quickly_in_a_child_under_a_memory_cap(tmp_path, name):
    kind, path = _hostile(tmp_path)[name]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", _CHILD, kind, str(path)], capture_output=True,
                          text=True, timeout=RUNAWAY_S, preexec_fn=_memory_cap, env=env,
                          cwd=tmp_path)         # import the installed package, as CI does
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith(("read", "refused:")) and len(proc.stdout) < 1000, proc.stdout
    if proc.stdout.startswith("refused:"):
        assert path.name in proc.stdout, proc.stdout
