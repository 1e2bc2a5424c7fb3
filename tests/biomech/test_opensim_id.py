"""``urdf2dyn torques --setup`` against OpenSim 4.6's InverseDynamicsTool (issue 19, item 3).

Oracle: OpenSim itself, run headless on files OpenSim wrote. The setup file is printed by
``opensim.InverseDynamicsTool`` (its setters, then printToXML), the coordinates and the
force-plate table by ``opensim.STOFileAdapter`` (coordinates in degrees), the ExternalLoads
XML by ``opensim.ExternalLoads``; the model is the bundled HuMoD human exported to .osim.
The data are the bundled running trial (a HuMoD subject at 3 m/s) and its ground reactions.
Both tools' outputs are read back with OpenSim's TimeSeriesTable, and must agree, per
coordinate, to 1e-6 of that coordinate's peak (plus 1e-8 N·m, the 8 decimals OpenSim
prints), on the same rows and in the same column order: unfiltered, 6 Hz over the whole
padded table (time range beyond the data: OpenSim then writes its padded rows too), and 6 Hz
over part of the trial.

urdf2dyn is given the URDF the .osim was made from, and, in the tests that use the .osim files
themselves (this one's and opensim-models' published gait2354 / Gait10dof18musc / Hamner
setups, tests/data/opensim_models), the .osim itself: ``urdf2dyn.load`` must read it (an
exception fails the test; only a missing OpenSim skips).

Also here: the processing steps against independent oracles (SciPy's splines and Butterworth
design), the setup reader's refusals and property-based fuzzing of it and of the new options.
"""
import math
import os
import shutil
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech import formats, grf as G
from urdf2dyn.biomech import opensim_processing as op
from urdf2dyn.biomech.formats import SetupError, osim_coordinate_order, read_id_setup
from urdf2dyn.bundled import data_path
from urdf2dyn.warn import Urdf2dynWarning

import opensim_tables
from cli_here import working_in

FUZZ = settings(max_examples=40, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
ROWS = slice(150, 351)              # 1 s of the 200 Hz running trial (t = 0.75 .. 1.75 s)
DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "opensim_models")

# (name, lowpass cutoff, time range)
CASES = [("unfiltered", -1.0, (0.75, 1.75)),
         ("6Hz-padded", 6.0, (0.0, 5.0)),
         ("6Hz-part", 6.0, (1.0, 1.5))]


@pytest.fixture(scope="module")
def trial(osim, tmp_path_factory):
    """OpenSim-written files in d/: model.osim, ik/coords.mot (degrees), grf/grf.mot and
    grf/loads.xml (its datafile relative to itself), one setup_<case>.xml per case with
    relative paths, and OpenSim's results in d/results/<case>.sto."""
    from urdf2dyn.biomech.opensim_model import to_opensim
    d = tmp_path_factory.mktemp("idtool")
    (d / "ik").mkdir()
    (d / "grf").mkdir()
    human = urdf2dyn.humod_subject("A")
    to_opensim(human).printToXML(str(d / "model.osim"))
    t, q, _, _ = formats.read_csv(data_path("running_a_3ms.csv"), model=human).for_model(human)
    t, q = t[ROWS], q[ROWS]
    rot = np.array([j.type == "revolute" for j in human.joints])
    qdeg = q.copy()
    qdeg[:, rot] = np.degrees(q[:, rot])
    opensim_tables.write_sto(osim, d / "ik" / "coords.mot", t, qdeg, human.q_names, True)
    r = G.read_grf(data_path("running_a_3ms_grf.csv"))
    cols = {}
    for key in ("L", "R"):
        pre = key.lower() + "_"
        for kind, x in (("ground_force_v", r.grf[key]), ("ground_force_p", r.cop[key]),
                        ("ground_torque_", r.moment[key])):
            x = np.nan_to_num(x)        # no contact: no force, and OpenSim's splines need numbers
            cols.update({f"{pre}{kind}{a}": x[:, k] for k, a in enumerate("xyz")})
    opensim_tables.write_sto(osim, d / "grf" / "grf.mot", r.time,
                             np.column_stack(list(cols.values())), list(cols), False)
    loads = osim.ExternalLoads()
    loads.setName("running")
    for key, body in (("L", "foot_L"), ("R", "foot_R")):
        pre = key.lower() + "_"
        ef = osim.ExternalForce()
        ef.setName(key)
        ef.setAppliedToBodyName(body)
        ef.setForceExpressedInBodyName("ground")
        ef.setPointExpressedInBodyName("ground")
        ef.setForceIdentifier(pre + "ground_force_v")
        ef.setPointIdentifier(pre + "ground_force_p")
        ef.setTorqueIdentifier(pre + "ground_torque_")
        loads.cloneAndAppend(ef)
    loads.setDataFileName("grf.mot")
    loads.printToXML(str(d / "grf" / "loads.xml"))
    with working_in(d):                  # OpenSim reads model_file relative to the current directory
        for name, cutoff, (t0, t1) in CASES:
            tool = osim.InverseDynamicsTool()
            tool.setName(name)
            tool.setModelFileName("model.osim")
            tool.setCoordinatesFileName("ik/coords.mot")
            tool.setExternalLoadsFileName("grf/loads.xml")
            tool.setLowpassCutoffFrequency(cutoff)
            tool.setStartTime(t0)
            tool.setEndTime(t1)
            excluded = osim.ArrayStr()
            excluded.append("Muscles")
            tool.setExcludedForces(excluded)
            tool.setResultsDir("results")
            tool.setOutputGenForceFileName(f"{name}.sto")
            tool.printToXML(str(d / f"setup_{name}.xml"))
            assert osim.InverseDynamicsTool(str(d / f"setup_{name}.xml")).run()
    return d, human


def _compare(osim, theirs_path, ours_path):
    """Per-coordinate agreement of two ID .sto files: same labels in the same order, same
    rows; returns {label: max |difference| / peak}."""
    la, ta, A = opensim_tables.read_table(osim, theirs_path)
    lb, tb, B = opensim_tables.read_table(osim, ours_path)
    assert lb == la, "column order differs from OpenSim's"
    assert len(tb) == len(ta) and np.allclose(tb, ta, rtol=0, atol=1e-9)
    peak = np.abs(A).max(axis=0)
    diff = np.abs(A - B).max(axis=0)
    for n, p, e in zip(la, peak, diff):
        assert e <= 1e-6 * p + 1e-8, f"{n}: differs by {e:.3g} (peak {p:.4g})"
    return {n: e / max(p, 1e-300) for n, p, e in zip(la, peak, diff)}


@pytest.mark.parametrize("case", [c[0] for c in CASES])
def test_setup_matches_the_inverse_dynamics_tool(osim, trial, case, tmp_path, monkeypatch,
                                                 capsys):
    d, human = trial
    monkeypatch.chdir(tmp_path)              # paths are resolved from the setup's folder
    out = tmp_path / "ours.sto"
    assert cli.main(["torques", "--setup", str(d / f"setup_{case}.xml"),
                     "humod_subject_a.urdf", "-o", str(out)]) == 0
    err = _compare(osim, d / "results" / f"{case}.sto", out)
    worst = max(err, key=err.get)
    print(f"\n{case}: {len(err)} coordinates, worst {worst} at {err[worst]:.2e} of its peak")


def test_ground_reactions_between_their_samples_are_opensims_splines(osim, trial, tmp_path,
                                                                     monkeypatch):
    """Ground reactions given as a file (grf=, a C3D's plates) at other times than the motion's
    (here the coordinates half a sample later than the forces): OpenSim's processing
    evaluates the force, point and torque columns on OpenSim's natural cubic splines between
    their samples, as its ID tool does with the same file in an ExternalLoads setup."""
    d, human = trial
    labels, t, q = opensim_tables.read_table(osim, d / "ik" / "coords.mot")
    shifted = tmp_path / "shifted.mot"
    opensim_tables.write_sto(osim, shifted, t + 0.0025, q, labels, True)
    monkeypatch.chdir(d)
    tool = osim.InverseDynamicsTool(str(d / "setup_unfiltered.xml"))
    tool.setCoordinatesFileName(str(shifted))
    tool.setStartTime(0.0)
    tool.setEndTime(5.0)
    tool.setResultsDir(str(tmp_path))
    tool.setOutputGenForceFileName("theirs.sto")
    assert tool.run()
    res = urdf2dyn.inverse_dynamics_trial(human, str(shifted), grf=str(d / "grf" / "grf.mot"),
                                          processing="opensim", checks_enabled=False)
    formats.write_torques(str(tmp_path / "ours.sto"), res.t, res.tau, human)
    names, t_theirs, theirs = opensim_tables.read_table(osim, tmp_path / "theirs.sto")
    labels, t_ours, ours = opensim_tables.read_table(osim, tmp_path / "ours.sto")
    assert np.allclose(t_ours, t_theirs, rtol=0, atol=1e-9)
    ours = ours[:, [labels.index(n) for n in names]]
    peak = np.abs(theirs).max(axis=0)
    worst = float((np.abs(ours - theirs).max(axis=0) / peak).max())
    print(f"\nworst {worst:.2e} of its peak")
    assert np.all(np.abs(ours - theirs) <= 1e-6 * peak + 1e-8), worst


def test_setup_output_goes_where_the_setup_says(osim, trial, tmp_path, monkeypatch, capsys):
    """Without -o: results_directory (relative to the setup) / output_gen_force_file."""
    d, _ = trial
    work = tmp_path / "case"
    shutil.copytree(d, work, ignore=shutil.ignore_patterns("results"))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["torques", "--setup", str(work / "setup_unfiltered.xml"),
                     "humod_subject_a.urdf"]) == 0
    assert (work / "results" / "unfiltered.sto").exists()
    _compare(osim, d / "results" / "unfiltered.sto", work / "results" / "unfiltered.sto")


def _load_osim(osim, path):
    """urdf2dyn's model of the .osim at path, whose coordinates must be the ones OpenSim
    reads there (any exception of the loader fails the test)."""
    model = urdf2dyn.load(str(path))
    theirs = osim.Model(str(path))
    coords = theirs.getCoordinateSet()
    assert sorted(model.q_names) == sorted(coords.get(i).getName() for i in range(coords.getSize()))
    return model


def test_setup_with_its_own_osim_model(osim, trial, tmp_path, monkeypatch, capsys):
    d, _ = trial
    _load_osim(osim, d / "model.osim")
    monkeypatch.chdir(d)
    out = tmp_path / "ours.sto"
    assert cli.main(["torques", "--setup", str(d / "setup_6Hz-part.xml"), "-o", str(out)]) == 0
    _compare(osim, d / "results" / "6Hz-part.sto", out)


# (case, folder under tests/data/opensim_models, setup file, folder OpenSim runs from)
PUBLISHED = [("gait2354", "Gait2354_Simbody", "subject01_Setup_InverseDynamics.xml", "."),
             ("gait10dof18musc", "Gait10dof18musc", "ID/walk_Setup_ID.xml", "ID"),
             ("hamner-running", "Hamner", "Setup_ID.xml", ".")]


def _hamner_setup(osim, folder):
    """Hamner's running pipeline publishes no ID setup: write one with OpenSim's API on its
    model, IK result and ExternalLoads (its IK times have 8 decimals, so OpenSim resamples
    before filtering: that path is exercised too)."""
    tool = osim.InverseDynamicsTool()
    tool.setName("subject02_running")
    tool.setModelFileName("FullBodyModel_Hamner2010_v2_0.osim")
    tool.setCoordinatesFileName("subject02_running_ik.mot")
    tool.setExternalLoadsFileName("External_Loads.xml")
    tool.setLowpassCutoffFrequency(6.0)
    tool.setStartTime(1.0)
    tool.setEndTime(3.0)
    excluded = osim.ArrayStr()
    excluded.append("Muscles")
    tool.setExcludedForces(excluded)
    tool.setResultsDir("Results")
    tool.setOutputGenForceFileName("subject02_running_id.sto")
    tool.printToXML(str(folder / "Setup_ID.xml"))


@pytest.mark.parametrize("case,folder,setup,run_from", PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_published_setups(osim, case, folder, setup, run_from, tmp_path, monkeypatch, capsys):
    """opensim-models' own setup files, run unchanged by OpenSim 4.6 and by urdf2dyn."""
    src = os.path.join(DATA, folder)
    if not os.path.isdir(src):
        pytest.skip(f"{src}: not vendored")
    work = tmp_path / folder
    shutil.copytree(src, work)
    if case == "hamner-running":
        _hamner_setup(osim, work)
    su = read_id_setup(work / setup)
    _load_osim(osim, su.model_file)
    monkeypatch.chdir(work / run_from)
    assert osim.InverseDynamicsTool(str(work / setup)).run()
    theirs = tmp_path / "theirs.sto"
    shutil.move(su.output, theirs)
    assert cli.main(["torques", "--setup", str(work / setup)]) == 0
    err = _compare(osim, theirs, su.output)
    print(f"\n{case}: worst {max(err.values()):.2e} of a coordinate's peak")


def test_strict_runs_published_setups_and_refuses_a_spring_opensim_applies(osim, tmp_path,
                                                                           monkeypatch, capsys):
    """Gait10dof18musc's own setup (forces_to_exclude: Muscles) runs under strict (the
    trial's data checks off: its published residuals are just above Hicks' bands): its
    muscles change nothing inverse dynamics gives. A spring added to the model with OpenSim's
    API (SpringGeneralizedForce on knee_angle_r, 50 N m/rad about 0.2 rad, no damping) is
    applied by OpenSim's tool: its knee moment is urdf2dyn's minus the spring's -k (q - q0),
    every other coordinate equal; urdf2dyn warns naming the spring and --strict refuses."""
    work = tmp_path / "g"
    shutil.copytree(os.path.join(DATA, "Gait10dof18musc"), work)
    setup = work / "ID" / "walk_Setup_ID.xml"
    monkeypatch.chdir(work / "ID")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        urdf2dyn.load(work / "subject01.osim", strict=True)
        urdf2dyn.inverse_dynamics_setup(setup, strict=True, checks=False)
    model = osim.Model(str(work / "subject01.osim"))
    spring = osim.SpringGeneralizedForce("knee_angle_r")
    spring.setName("knee_spring")
    spring.setStiffness(50.0)
    spring.setRestLength(0.2)
    spring.setViscosity(0.0)
    model.addForce(spring)
    model.printToXML(str(work / "subject01.osim"))
    su = read_id_setup(setup)
    assert osim.InverseDynamicsTool(str(setup)).run()
    theirs = tmp_path / "theirs.sto"
    shutil.move(su.output, theirs)
    assert cli.main(["torques", "--setup", str(setup), "--strict"]) == 1
    assert "knee_spring" in capsys.readouterr().err
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        ours = urdf2dyn.inverse_dynamics_setup(setup)
    named = [str(w.message) for w in said if "knee_spring" in str(w.message)]
    assert len(named) == 1 and "OpenSim would apply them" in named[0], named
    la, t, A = opensim_tables.read_table(osim, theirs)
    assert np.allclose(t, ours.t, rtol=0, atol=1e-9)
    with pytest.warns(urdf2dyn.URDFWarning, match="knee_spring"):
        names = list(urdf2dyn.load(work / "subject01.osim").v_names)
    B = ours.tau[:, [names.index(n.removesuffix("_moment").removesuffix("_force"))
                     for n in la]]
    knee = la.index("knee_angle_r_moment")
    q_knee = ours.q[:, names.index("knee_angle_r")]
    expected = B.copy()
    expected[:, knee] += 50.0 * (q_knee - 0.2)
    peak = np.abs(A).max(axis=0)
    assert np.all(np.abs(A - expected).max(axis=0) <= 1e-6 * peak + 1e-8)
    assert np.abs(A[:, knee] - B[:, knee]).max() > 1.0        # the spring is felt


def test_cli_setup_run_leaves_unsaid_a_spring_its_forces_to_exclude_names(tmp_path,
                                                                          monkeypatch, capsys):
    """urdf2dyn torques --setup reads the setup's model itself: a passive force element the
    setup's <forces_to_exclude> names is not applied by OpenSim's tool either, so it is not
    said (as inverse_dynamics_setup does when it reads the model), and --strict does not
    refuse it (what --strict refuses here is the trial's root residual, a data check)."""
    work = tmp_path / "g"
    shutil.copytree(os.path.join(DATA, "Gait10dof18musc"), work)
    osim_file = work / "subject01.osim"
    text = osim_file.read_text()
    at = text.index("<objects>", text.index("<ForceSet")) + len("<objects>")
    osim_file.write_text(text[:at] + '<SpringGeneralizedForce name="knee_spring"><coordinate>'
                         "knee_angle_r</coordinate><stiffness>50</stiffness><rest_length>0.2"
                         "</rest_length></SpringGeneralizedForce>" + text[at:])
    setup = work / "ID" / "walk_Setup_ID.xml"
    setup.write_text(setup.read_text().replace("<forces_to_exclude> Muscles</forces_to_exclude>",
                                               "<forces_to_exclude> Muscles knee_spring"
                                               "</forces_to_exclude>"))
    monkeypatch.chdir(work / "ID")
    out = str(tmp_path / "tau.sto")
    assert cli.main(["torques", "--setup", str(setup), "-o", out]) == 0
    err = capsys.readouterr().err
    assert "root residual" in err and "knee_spring" not in err, err
    assert cli.main(["torques", "--setup", str(setup), "-o", out, "--strict"]) == 1
    err = capsys.readouterr().err
    assert "root residual" in err and "knee_spring" not in err, err
    # the setup's own model given again as ROBOT is read as the setup's
    assert cli.main(["torques", "--setup", str(setup), "../subject01.osim", "-o", out]) == 0
    err = capsys.readouterr().err
    assert "root residual" in err and "knee_spring" not in err, err
    # another model given as ROBOT is loaded as any model: its passive forces are named
    other = tmp_path / "other.osim"
    shutil.copy(osim_file, other)
    assert cli.main(["torques", "--setup", str(setup), str(other), "-o", out]) == 0
    assert "1 force element that urdf2dyn does not apply: 'knee_spring'" in \
        capsys.readouterr().err


def test_published_models_column_order(osim):
    """osim_coordinate_order is OpenSim's multibody tree order on the vendored models."""
    models = [os.path.join(DATA, "Gait2354_Simbody", "subject01_simbody.osim"),
              os.path.join(DATA, "Gait10dof18musc", "subject01.osim"),
              os.path.join(DATA, "Hamner", "FullBodyModel_Hamner2010_v2_0.osim")]
    models = [m for m in models if os.path.exists(m)]
    if not models:
        pytest.skip("opensim-models files not vendored")
    for path in models:
        m = osim.Model(path)
        m.initSystem()
        names = m.getCoordinateNamesInMultibodyTreeOrder()
        assert osim_coordinate_order(path) == [names.getElt(i) for i in range(names.size())]


@pytest.mark.parametrize("cutoff", [6.0, 15.0])
def test_processing_equals_opensims_storage_and_splines(osim, cutoff):
    """Oracle: OpenSim's own Storage.pad + Storage.lowpassIIR and GCVSplineSet(5, ...) on
    Hamner's published running IK (60 Hz, times written with 8 decimals, so OpenSim resamples
    the padded table before filtering) against id_kinematics: the same rows, the same
    filtered coordinates, the same spline derivatives."""
    path = os.path.join(DATA, "Hamner", "subject02_running_ik.mot")
    if not os.path.exists(path):
        pytest.skip("opensim-models files not vendored")
    labels, data, _, _ = formats.read_sto_table(path)
    t, q, v, a = op.id_kinematics(data[:, 0], data[:, 1:], cutoff)
    s = osim.Storage(path)
    s.pad(s.getSize() // 2)
    s.lowpassIIR(cutoff)
    n, k = s.getSize(), q.shape[1]
    padded = op.pad(data[:, 0], data[:, 1:], len(data) // 2)[0]
    assert n == len(t) and not np.array_equal(t, padded)               # resampled
    T = np.array([s.getStateVector(i).getTime() for i in range(n)])
    Q = np.array([[s.getStateVector(i).getData().get(j) for j in range(k)] for i in range(n)])
    assert np.abs(T - t).max() <= 1e-12
    scale = np.maximum(np.abs(Q).max(axis=0), 1e-9)
    assert (np.abs(Q - q).max(axis=0) / scale).max() <= 1e-9
    splines = osim.GCVSplineSet(5, s)
    # derivative orders as tuples: an opensim.StdVectorInt passed to OpenSim leaves SWIG's
    # shared std::vector<int> conversion broken for ezc3d's module in the same process
    # (ezc3d's c3d.write then fails in tests/biomech/test_c3d.py)
    first, second = (0,), (0, 0)
    for j in range(0, k, 6):                       # every 6th column: the SWIG calls are slow
        f = splines.get(j)
        V = np.array([f.calcDerivative(first, osim.Vector(1, float(x))) for x in T])
        A = np.array([f.calcDerivative(second, osim.Vector(1, float(x))) for x in T])
        assert np.abs(V - v[:, j]).max() <= 1e-9 * max(np.abs(V).max(), 1e-9), labels[j + 1]
        assert np.abs(A - a[:, j]).max() <= 1e-9 * max(np.abs(A).max(), 1e-9), labels[j + 1]


def test_quintic_spline_beyond_its_samples_is_opensims(osim, tmp_path):
    """Oracle: OpenSim's GCVSplineSet(5, Storage) evaluated before, between and after its
    unevenly spaced samples. Beyond them GCVSPL's splder continues the natural quintic as
    the parabola of its end value, slope and curvature; quintic_eval continued the end
    interval's quintic instead (0.25 off, 0.05 s before the first sample). OpenSim's IK and
    marker placer sample a coordinate_file so, at marker frames that may lie beyond it."""
    rng = np.random.default_rng(3)
    t = np.cumsum(rng.uniform(0.5, 1.5, 9)) * 0.01
    y = np.sin(17 * t) + 3 * t ** 2
    path = tmp_path / "s.sto"
    path.write_text(f"s\nversion=1\nnRows={len(t)}\nnColumns=2\ninDegrees=no\nendheader\n"
                    "time\tc\n" + "".join(f"{a!r}\t{b!r}\n" for a, b in
                                         zip(t.tolist(), y.tolist())))
    storage = osim.Storage(str(path))
    splines = osim.GCVSplineSet(5, storage)     # kept: the spline below is one of its items
    spline = splines.get(0)
    at = np.concatenate([t[0] - [0.05, 0.001], (t[:-1] + t[1:]) / 2, t[-1] + [0.001, 0.05]])
    first = (0,)
    theirs = np.array([spline.calcValue(osim.Vector(1, float(x))) for x in at])
    slope = np.array([spline.calcDerivative(first, osim.Vector(1, float(x))) for x in at])
    np.testing.assert_allclose(op.natural_quintic(t, y, at)[:, 0], theirs, rtol=0, atol=1e-9)
    v, a = op.quintic_derivatives(t, y[:, None])
    np.testing.assert_allclose(op.quintic_eval(t, y[:, None], v, a, at, 1)[:, 0], slope,
                               rtol=0, atol=1e-6 * np.abs(slope).max())


# ============================================================================ the steps

def test_quintic_spline_is_scipys_natural_quintic():
    """Independent oracle: SciPy's interpolating B-spline of degree 5 with zero 3rd and 4th
    derivatives at both ends (the natural end conditions)."""
    from scipy.interpolate import make_interp_spline
    rng = np.random.default_rng(1)
    for t in (np.linspace(0.2, 1.7, 151), np.cumsum(rng.uniform(0.5, 1.5, 40)) * 0.01):
        y = np.column_stack([np.sin(7 * t), rng.normal(size=len(t)), t ** 5])
        v, a = op.quintic_derivatives(t, y)
        zero = np.zeros(y.shape[1])
        natural = [(3, zero), (4, zero)]
        s = make_interp_spline(t, y, k=5, bc_type=(natural, natural))
        for ours, k in ((v, 1), (a, 2)):
            ref = s(t, k)
            assert np.abs(ours - ref).max() <= 1e-8 * np.abs(ref).max()
        at = np.linspace(t[0], t[-1], 97)
        assert np.allclose(op.quintic_eval(t, y, v, a, at), s(at), rtol=0,
                           atol=1e-9 * np.abs(y).max())
        for k in (1, 2):                      # between the knots too (residual reduction)
            ref = s(at, k)
            assert np.abs(op.quintic_eval(t, y, v, a, at, k) - ref).max() <= (
                1e-8 * np.abs(ref).max())


def test_natural_cubic_is_scipys_and_straight_beyond_the_ends():
    from scipy.interpolate import CubicSpline
    t = np.linspace(0, 1, 31)
    y = np.column_stack([np.cos(5 * t), t ** 3])
    at = np.linspace(0, 1, 200)
    assert np.allclose(op.natural_cubic(t, y, at), CubicSpline(t, y, bc_type="natural")(at),
                       rtol=0, atol=1e-13)
    # beyond the ends: the straight line a natural cubic continues with (second differences
    # vanish, and it meets the spline with the spline's end slope)
    far = op.natural_cubic(t, y, [-0.3, -0.2, -0.1])
    assert np.allclose(far[0] - 2 * far[1] + far[2], 0, atol=1e-12)
    slope = CubicSpline(t, y, bc_type="natural")(0.0, 1)
    assert np.allclose(far[2], y[0] - 0.1 * slope, atol=1e-12)
    # 2 or 3 samples: piecewise linear, as OpenSim's ExternalForce
    assert np.allclose(op.natural_cubic([0, 1, 2], [[0], [2], [2]], [0.5, 1.5]), [[1], [2]])
    # uneven steps, the fewest samples a cubic takes, many columns
    rng = np.random.default_rng(3)
    for n in (4, 5, 6, 1000):
        t = np.cumsum(rng.uniform(0.2, 1.0, n))
        y = rng.normal(size=(n, 7))
        at = np.linspace(t[0], t[-1], 301)
        ref = CubicSpline(t, y, bc_type="natural")(at)
        assert np.abs(op.natural_cubic(t, y, at) - ref).max() <= 1e-10 * np.abs(ref).max()


def test_iir_filter_is_a_third_order_butterworth():
    """Independent oracle for the design: scipy.signal.butter(3) (bilinear transform with a
    pre-warped cutoff) has the coefficients OpenSim's recursion uses; the whole filter
    (two passes) on a long sine keeps the gain |H|^2 of that design."""
    from scipy.signal import butter, freqz
    fs, fc = 200.0, 6.0
    b, a = butter(3, fc / (fs / 2))
    t = np.arange(2000) / fs
    for f in (2.0, 6.0, 15.0):
        x = np.sin(2 * math.pi * f * t)
        y = op.lowpass_iir(1 / fs, x, fc)[:, 0]
        gain = abs(freqz(b, a, worN=[f], fs=fs)[1][0]) ** 2
        mid = slice(600, 1400)
        assert np.abs(y[mid]).max() == pytest.approx(gain, rel=2e-3, abs=2e-3)


def _recursion(dt, x, fc):
    """OpenSim's Signal::LowpassIIR as its documentation states it: the difference equation
    sample by sample (first three outputs = inputs), forwards then backwards."""
    wa = math.tan(math.pi * fc * dt)
    den = (wa + 1) * (wa * wa + wa + 1)
    a = np.array([1, 3, 3, 1]) * wa ** 3 / den
    b = [(3 * wa ** 3 + 2 * wa ** 2 - 2 * wa - 3) / den,
         (3 * wa ** 3 - 2 * wa ** 2 - 2 * wa + 3) / den, (wa - 1) * (wa * wa - wa + 1) / den]

    def run(s):
        y = s.copy()
        for i in range(3, len(s)):
            y[i] = a @ s[i - 3:i + 1][::-1] - b[0] * y[i - 1] - b[1] * y[i - 2] - b[2] * y[i - 3]
        return y
    return run(run(x)[::-1])[::-1]


@pytest.mark.parametrize("fc", [1.0, 6.0, 40.0])
def test_iir_filter_is_the_difference_equation(fc):
    """The FFT form (convolution with the all-pole impulse response) equals the recursion."""
    rng = np.random.default_rng(3)
    x = np.cumsum(rng.normal(size=(301, 3)), axis=0)
    ref = np.column_stack([_recursion(1 / 200, x[:, c], fc) for c in range(3)])
    assert np.abs(op.lowpass_iir(1 / 200, x, fc) - ref).max() <= 1e-10 * np.abs(x).max()


def _opensims_filter(osim, path, cutoff):
    """OpenSim 4.6's Signal::LowpassIIR on the table at path, padded by half its rows as its
    inverse-dynamics tool pads it (TableUtilities.filterLowpass, padData: on uniform times
    the same numbers as the tool's Storage.pad + Storage.lowpassIIR)."""
    table = osim.TimeSeriesTable(str(path))
    osim.TableUtilities.filterLowpass(table, float(cutoff), True)
    return np.array(table.getMatrix().to_numpy())


def _uniform_table(tmp_path, n=5000, fs=128.0):
    """n samples at fs Hz (times exact in binary): two constants and two sines, written as
    OpenSim reads a .sto."""
    t = np.arange(n) / fs
    cols = np.column_stack([np.full(n, 1.0), np.full(n, 3.0),
                            10 + np.sin(2 * np.pi * 0.3 * t), 0.5 * np.sin(2 * np.pi * 1.1 * t)])
    path = tmp_path / "uniform.sto"
    path.write_text(f"uniform\nversion=1\nnRows={n}\nnColumns=5\ninDegrees=no\nendheader\n"
                    "time\ta\tb\tc\td\n" + "".join(
                        "\t".join(repr(v) for v in row) + "\n"
                        for row in np.column_stack([t, cols]).tolist()))
    return path, t, cols


def test_iir_floor_is_where_lowpass_iir_follows_opensims_filter(osim, tmp_path):
    """Oracle: OpenSim 4.6's own IIR filter on 5000 samples at 128 Hz (padded to 10000, as
    its tool pads). Far below the floor OpenSim's processing takes (2e-3 of Nyquist), OpenSim
    itself changes a constant by more than 1e-6 (urdf2dyn's filter's bound on its gain at
    0 Hz), by its rounding, not by design; from the floor up it keeps a constant to 1e-6 and
    lowpass_iir follows it to 1e-6 of each column's peak (lowpass_iir strays from it first:
    1.2e-6 at 1e-3 of Nyquist here)."""
    path, t, cols = _uniform_table(tmp_path)
    nyquist = 64.0
    for below in (1.8e-4, 1e-4):
        theirs = _opensims_filter(osim, path, below * nyquist)
        assert np.abs(theirs[:, :2] / cols[0, :2] - 1).max() > 1e-6, below
    for above in (op.MIN_IIR_CUTOFF_OF_NYQUIST, 5e-3, 0.1):
        theirs = _opensims_filter(osim, path, above * nyquist)
        assert np.abs(theirs[:, :2] / cols[0, :2] - 1).max() <= 1e-6, above
        _, ours, _, _ = op.id_kinematics(t, cols, above * nyquist)
        assert (np.abs(ours - theirs).max(axis=0) / np.abs(cols).max(axis=0)).max() <= 1e-6, above


@pytest.mark.filterwarnings("ignore:.*no joint carries any weight")    # robot2r is planar
@pytest.mark.parametrize("cutoff", [1e-300, 0.0, 0.09])
def test_opensims_processing_refuses_a_cutoff_below_its_floor(tmp_path, capsys, cutoff):
    """--processing opensim --filter 1e-300 ran: OpenSim's recursion then extrapolates the
    first samples' parabola (and lowpass_iir's numbers were no longer OpenSim's, up to 100
    times a coordinate's peak at 1e-5 of Nyquist; see the oracle test above). Below 2e-3 of
    Nyquist (0.1 Hz at 100 Hz) it is refused in the words of urdf2dyn's filter, naming the
    trial's file and filter_hz in the library, --filter on the command line; 0 Hz too (it
    was only warned about). The reason given is OpenSim's filter not reproduced there, not
    that no filter can be computed: OpenSim's own runs, and keeps a constant to 1e-6 down to
    about 3.5e-4 of Nyquist (the oracle test above)."""
    motion = tmp_path / "slow.csv"
    t = np.arange(300) / 100
    motion.write_text("time,joint1,joint2\n" + "".join(
        f"{x:.2f},{0.3 * np.sin(x):.6f},{0.1 * x:.6f}\n" for x in t))
    says = (f"{cutoff:g} Hz is too low to filter data sampled at 100 Hz (OpenSim's filter is "
            "not reproduced below 0.1 Hz); give a cut-off of a few Hz (6 Hz is usual for gait), "
            "or ")
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    with pytest.raises(ValueError) as e:
        urdf2dyn.inverse_dynamics_trial(model, motion, processing="opensim", filter_hz=cutoff)
    assert str(e.value) == f"{motion}: filter_hz {cutoff:g}: {says}None for no filter"
    if cutoff > 0:                           # --filter itself refuses 0 (argparse, status 2)
        assert cli.main(["torques", data_path("robot2r.urdf"), str(motion), "--processing",
                         "opensim", "--filter", repr(cutoff), "-o",
                         str(tmp_path / "out.csv")]) == 1
        assert (f"error: {motion}: --filter {cutoff:g}: {says}no --filter\n"
                in capsys.readouterr().err)
    # the lowest cut-off taken is still OpenSim's filter; a negative one is none, as in OpenSim
    urdf2dyn.inverse_dynamics_trial(model, motion, processing="opensim", filter_hz=0.1,
                                    time_range=(0, 2.99))
    unfiltered = urdf2dyn.inverse_dynamics_trial(model, motion, processing="opensim")
    negative = urdf2dyn.inverse_dynamics_trial(model, motion, processing="opensim", filter_hz=-1)
    assert np.array_equal(negative.tau, unfiltered.tau)


@pytest.mark.parametrize("cutoff, says", [
    (float("nan"), "expected a cut-off frequency in Hz, got nan"),
    (0.0, "0 Hz is too low to filter data sampled at 100 Hz"),
    (0.09, "0.09 Hz is too low to filter data sampled at 100 Hz (OpenSim's filter is not "
           "reproduced below 0.1 Hz)")])
def test_id_kinematics_refuses_the_cutoffs_a_trial_refuses(osim, tmp_path, cutoff, says):
    """id_kinematics, the public form of OpenSim's processing, took what every trial and
    setup refuses (OpenSimProcessing.kinematics): a NaN cut-off ran unfiltered, 0 Hz or one
    below the floor (2e-3 of Nyquist) filtered silently. Oracle for 0 Hz: OpenSim 4.6's own
    filter extrapolates the first samples' parabola, nothing a low-pass gives (a column
    within 1 of 10 comes out up to 9.8 off); the floor's oracle is
    test_iir_floor_is_where_lowpass_iir_follows_opensims_filter. Refused now in the words a
    trial's refusal uses, naming cutoff_hz."""
    path, t, cols = _uniform_table(tmp_path, n=300, fs=100.0)
    theirs = _opensims_filter(osim, path, 0.0)
    assert np.abs(theirs[:, 2] - 10).max() > 5
    with pytest.raises(ValueError) as e:
        op.id_kinematics(t, cols, cutoff)
    assert str(e.value).startswith(f"cutoff_hz: {says}"), e.value
    op.id_kinematics(t, cols, 0.1)                       # the floor itself is taken


def _uneven_table(tmp_path, step):
    """300 samples at 100 Hz (a constant, a sine about 10) and one more row `step` s after
    t = 1.5 s, written as OpenSim reads a .sto: (path, t, columns)."""
    t = np.arange(300) / 100
    t = np.sort(np.concatenate([t, [t[150] + step]]))
    cols = np.column_stack([np.full(len(t), 1.0), 10 + np.sin(2 * np.pi * 0.3 * t)])
    path = tmp_path / "uneven.sto"
    path.write_text(f"uneven\nversion=1\nnRows={len(t)}\nnColumns=3\ninDegrees=no\nendheader\n"
                    "time\ta\tb\n" + "".join("\t".join(repr(v) for v in row) + "\n"
                                             for row in np.column_stack([t, cols]).tolist()))
    return path, t, cols


def _opensims_resampled_filter(osim, path, cutoff):
    """OpenSim 4.6's inverse-dynamics tool's own steps on the table at path: Storage.pad by
    half its rows, then Storage.lowpassIIR (which resamples an uneven table at its smallest
    step first): (times, columns)."""
    s = osim.Storage(str(path))
    s.pad(s.getSize() // 2)
    s.lowpassIIR(float(cutoff))
    rows = range(s.getSize())
    return (np.array([s.getStateVector(i).getTime() for i in rows]),
            np.array([[s.getStateVector(i).getData().get(j) for j in range(2)] for i in rows]))


@pytest.mark.filterwarnings("ignore:.*no joint carries any weight")    # robot2r is planar
def test_the_floor_holds_at_the_rate_opensims_filter_runs_at(osim, tmp_path, capsys):
    """A 100 Hz table with one row 65 us after another: OpenSim resamples it at that step
    (15.4 kHz) before filtering, so 0.15 Hz, above the floor at the mean rate (0.1 Hz), is
    2e-5 of the Nyquist frequency the filter runs at. It ran unsaid: oracle OpenSim 4.6's
    Storage.pad + lowpassIIR, which lowpass_iir at that rate (what id_kinematics ran) misses
    by more than the column's peak. Refused now, naming the smallest step and what to do;
    6 Hz on a table resampled at 1 kHz (floor 1 Hz) is still taken, and equals OpenSim's."""
    path, t, cols = _uneven_table(tmp_path, 6.5e-5)
    _, theirs = _opensims_resampled_filter(osim, path, 0.15)
    padded_t, padded = op.pad(t, cols, len(t) // 2)
    dt = float(np.min(np.diff(padded_t)))
    assert 1 / dt > 15000
    unchecked = op.lowpass_iir(dt, op.resample(padded_t, padded, dt)[1], 0.15)
    assert np.abs(unchecked - theirs).max() > np.abs(cols).max()
    says = ("0.15 Hz is too low for OpenSim's filter on this table: its smallest time step "
            "(between t = 1.5 and 1.500065 s) makes OpenSim resample it every 6.5e-05 s "
            "(15384.6 Hz) before filtering, where OpenSim's filter is not reproduced below "
            "15.3846 Hz. Drop the row that almost repeats a time, or resample the file at a "
            "regular step, or give a cut-off of at least 15.3846 Hz (or ")
    with pytest.raises(ValueError) as e:
        op.id_kinematics(t, cols, 0.15)
    assert str(e.value) == f"cutoff_hz: {says}None for no filter)"
    motion = tmp_path / "uneven.csv"
    motion.write_text("time,joint1,joint2\n" + "".join(
        f"{x!r},{0.3 * math.sin(x)!r},{0.1 * x!r}\n" for x in t.tolist()))
    with pytest.raises(ValueError) as e:
        urdf2dyn.inverse_dynamics_trial(urdf2dyn.load(data_path("robot2r.urdf")), motion,
                                        processing="opensim", filter_hz=0.15)
    assert str(e.value) == f"{motion}: filter_hz 0.15: {says}None for no filter)"
    assert cli.main(["torques", data_path("robot2r.urdf"), str(motion), "--processing",
                     "opensim", "--filter", "0.15", "-o", str(tmp_path / "out.csv")]) == 1
    assert f"error: {motion}: --filter 0.15: {says}no --filter)" in capsys.readouterr().err
    path, t, cols = _uneven_table(tmp_path, 1e-3)
    T, theirs = _opensims_resampled_filter(osim, path, 6.0)
    ours_t, ours, _, _ = op.id_kinematics(t, cols, 6.0)
    assert np.array_equal(ours_t, T)
    assert np.abs(ours - theirs).max() <= 1e-9 * np.abs(cols).max()


@pytest.mark.filterwarnings("ignore:.*no joint carries any weight")    # robot2r is planar
def test_opensims_processing_refuses_a_nan_cutoff(tmp_path):
    """filter_hz=nan with OpenSim's processing ran unfiltered without a word (OpenSim's
    'cut-off >= 0' is false for NaN); urdf2dyn's processing refuses it. Refused, naming the
    trial's file and filter_hz."""
    motion = tmp_path / "m.csv"
    motion.write_text("time,joint1,joint2\n" + "".join(
        f"{k / 100:.2f},{0.3 * math.sin(k / 100):.6f},{k / 1000:.6f}\n" for k in range(300)))
    with pytest.raises(ValueError) as e:
        urdf2dyn.inverse_dynamics_trial(urdf2dyn.load(data_path("robot2r.urdf")), motion,
                                        processing="opensim", filter_hz=float("nan"))
    assert str(e.value) == (f"{motion}: filter_hz nan: expected a cut-off frequency in Hz, "
                            "got nan; give one, or None (or a negative one, OpenSim's -1) for "
                            "no filter")


@pytest.mark.filterwarnings("ignore:.*no joint carries any weight")    # robot2r is planar
def test_a_setups_cutoff_below_the_floor_is_refused_naming_its_element(tmp_path, capsys):
    """An ID setup whose <lowpass_cutoff_frequency_for_coordinates> is 0.001 Hz, below the
    floor of OpenSim's filter (2e-3 of Nyquist, 0.1 Hz at 100 Hz; the oracle test above):
    refused naming the setup and its element, not the library's filter_hz, which the setup
    never wrote (the command line refuses --filter with --setup), and saying what turns a
    setup's filter off, -1 (it said "or no filter", which a setup cannot write)."""
    setup = _setup(tmp_path, cutoff="0.001", time_range="0 2.99")
    _write_motion(tmp_path)
    says = (f"{setup}: <lowpass_cutoff_frequency_for_coordinates> 0.001: 0.001 Hz is too low "
            "to filter data sampled at 100 Hz (OpenSim's filter is not reproduced below 0.1 "
            "Hz); give a cut-off of a few Hz (6 Hz is usual for gait), or -1 for no filter")
    with pytest.raises(ValueError) as e:
        urdf2dyn.inverse_dynamics_setup(setup, urdf2dyn.load(data_path("robot2r.urdf")))
    assert str(e.value) == says
    assert cli.main(["torques", "--setup", str(setup), data_path("robot2r.urdf")]) == 1
    assert f"error: {says}\n" in capsys.readouterr().err


@pytest.mark.filterwarnings("ignore:.*no joint carries any weight")    # robot2r is planar
def test_a_filter_hz_given_over_a_setup_is_refused_as_filter_hz(tmp_path):
    """inverse_dynamics_setup(setup, filter_hz=0.001) over a setup whose own cut-off is 6 Hz:
    the 0.001 Hz refused is the caller's keyword, which the refusal names, not the setup's
    <lowpass_cutoff_frequency_for_coordinates> (it said the setup held 0.001, and -1 to turn
    the filter off, which would not have)."""
    setup = _setup(tmp_path, cutoff="6", time_range="0 2.99")
    _write_motion(tmp_path)
    with pytest.raises(ValueError) as e:
        urdf2dyn.inverse_dynamics_setup(setup, urdf2dyn.load(data_path("robot2r.urdf")),
                                        filter_hz=0.001)
    assert str(e.value) == (f"{tmp_path / 'c.mot'}: filter_hz 0.001: 0.001 Hz is too low to "
                            "filter data sampled at 100 Hz (OpenSim's filter is not "
                            "reproduced below 0.1 Hz); give a cut-off of a few Hz (6 Hz is "
                            "usual for gait), or None for no filter")


def test_a_setups_cutoff_lowered_to_049_fs_is_named_by_the_setup(tmp_path):
    """OpenSim lowers a cut-off at or above half the rate to 0.49 of it; the warning named
    the setup's element after the motion file, without the setup that holds it."""
    setup = _setup(tmp_path, cutoff="60", time_range="0 2.99")
    _write_motion(tmp_path)
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    with pytest.warns(urdf2dyn.Urdf2dynWarning) as caught:
        urdf2dyn.inverse_dynamics_setup(setup, model)
    said = [str(w.message) for w in caught if "lowered" in str(w.message)]
    assert said and (f"{setup}: <lowpass_cutoff_frequency_for_coordinates> 60 Hz at or above "
                     "half the sampling rate (50 Hz): lowered to 49 Hz") in said[0], said


def test_pad_reflects_and_negates_about_the_ends():
    t = np.arange(5.0)
    x = np.array([[0.0], [1.0], [4.0], [9.0], [16.0]])
    tp, xp = op.pad(t, x, 2)
    assert tp.tolist() == [-2, -1, 0, 1, 2, 3, 4, 5, 6]
    assert xp[:, 0].tolist() == [-4, -1, 0, 1, 4, 9, 16, 23, 28]


def test_rows_follow_storage_find_index():
    t = np.arange(10) * 0.125
    assert op.id_rows(t, (0.3, 0.7)).tolist() == [2, 3, 4, 5]        # at or before each end
    assert op.id_rows(t, (-5, 5)).tolist() == list(range(10))
    assert op.id_rows(t, (0.375, 0.375)).tolist() == [3]
    assert op.id_rows(t, (-5, -4)).tolist() == [0]                     # as findIndex clamps


def test_time_range_keeps_the_samples_inside(tmp_path):
    human = urdf2dyn.humod_subject("A")
    full = urdf2dyn.inverse_dynamics_trial(human, data_path("running_a_3ms.csv"),
                                           grf=data_path("running_a_3ms_grf.csv"))
    part = urdf2dyn.inverse_dynamics_trial(human, data_path("running_a_3ms.csv"),
                                           grf=data_path("running_a_3ms_grf.csv"),
                                           time_range=(1.0, 1.5))
    keep = (full.t >= 1.0) & (full.t <= 1.5)
    assert part.t.tolist() == full.t[keep].tolist() and len(part.t) == 101
    assert np.allclose(part.tau, full.tau[keep], rtol=0, atol=1e-9)
    with pytest.raises(urdf2dyn.biomech.MotionError, match="no sample in the time range"):
        urdf2dyn.inverse_dynamics_trial(human, data_path("running_a_3ms.csv"),
                                        time_range=(10, 11))
    with pytest.warns(Urdf2dynWarning, match="lies outside the table") as caught:
        res = urdf2dyn.inverse_dynamics_trial(human, data_path("running_a_3ms.csv"),
                                              time_range=(10, 11), processing="opensim")
    assert len(res.t) == 1
    # in the library's keyword, not the command line's --time-range
    outside = [str(w.message) for w in caught if "lies outside the table" in str(w.message)]
    assert outside[0].endswith("check the time range (time_range=(10, 11))"), outside


# ============================================================================ setup reader

SETUP = """<?xml version="1.0" encoding="UTF-8" ?>
<OpenSimDocument Version="40600">
  <InverseDynamicsTool name="x">
    <results_directory>{results}</results_directory>
    <model_file>{model}</model_file>
    <time_range>{time_range}</time_range>
    <forces_to_exclude> Muscles</forces_to_exclude>
    <external_loads_file>{loads}</external_loads_file>
    <coordinates_file>{coords}</coordinates_file>
    <lowpass_cutoff_frequency_for_coordinates>{cutoff}</lowpass_cutoff_frequency_for_coordinates>
    <output_gen_force_file>{out}</output_gen_force_file>
  </InverseDynamicsTool>
</OpenSimDocument>
"""


def _setup(tmp_path, **kw):
    (tmp_path / "c.mot").write_text("x\nendheader\ntime\ta\n0\t0\n")
    fields = dict(results="res", model="", time_range="0 1", loads="", coords="c.mot",
                  cutoff="-1", out="id.sto")
    fields.update(kw)
    p = tmp_path / "s.xml"
    p.write_text(SETUP.format(**fields))
    return p


def _write_motion(tmp_path):
    """robot2r's coordinates for 3 s at 100 Hz (300 rows, joint1 a sine, joint2 a ramp) as
    the c.mot a _setup names, over its placeholder: a rate that the setups' cut-offs are
    judged against."""
    t = np.arange(300) / 100
    (tmp_path / "c.mot").write_text("c\nversion=1\nnRows=300\nnColumns=3\ninDegrees=no\n"
                                    "endheader\ntime\tjoint1\tjoint2\n" + "".join(
                                        f"{x:.2f}\t{0.3 * np.sin(x):.6f}\t{0.1 * x:.6f}\n"
                                        for x in t))


def test_setup_paths_resolve_like_opensim(tmp_path, monkeypatch):
    monkeypatch.chdir("/")
    s = read_id_setup(_setup(tmp_path, cutoff="6", time_range=" 0.5 1.25"))
    assert s.coordinates_file == str(tmp_path / "c.mot")
    assert s.output == str(tmp_path / "res" / "id.sto")
    assert s.lowpass_hz == 6 and s.time_range == (0.5, 1.25)
    assert read_id_setup(_setup(tmp_path, cutoff="-1")).lowpass_hz is None


@pytest.mark.parametrize("kw,match", [
    (dict(coords="Unassigned"), "coordinates_file> is missing"),
    (dict(coords="nope.mot"), "nope.mot does not exist"),
    (dict(loads="nope.xml"), "external_loads_file> .*nope.xml does not exist"),
    (dict(model="nope.osim"), "model_file> nope.osim exists neither"),
    (dict(time_range="1"), "time_range> is '1'"),
    (dict(time_range="2 1"), "expected t0 <= t1"),
    (dict(time_range="a b"), "not a number"),
    (dict(cutoff="six"), "not a number"),
])
def test_bad_setups_are_refused_naming_the_element(tmp_path, kw, match):
    with pytest.raises(SetupError, match=match):
        read_id_setup(_setup(tmp_path, **kw))


def _robot_setup(tmp_path, excluded, loads=False):
    """A setup on robot2r's trajectory with an .osim model_file holding a muscle and a spring
    (urdf2dyn is given robot2r.urdf as the model)."""
    (tmp_path / "m.osim").write_text(
        "<OpenSimDocument><Model name='m'><ForceSet><objects>"
        "<Thelen2003Muscle name='soleus'/><PointToPointSpring name='spring'/>"
        "</objects></ForceSet></Model></OpenSimDocument>")
    # headers as OpenSim writes them (with their counts, which its Storage needs)
    (tmp_path / "c.mot").write_text("c\nversion=1\nnRows=30\nnColumns=3\ninDegrees=no\n"
                                    "endheader\ntime\tjoint1\t"
                                    "joint2\n" + "".join(f"{k / 50:g}\t{math.sin(k / 9):g}\t"
                                                         f"{math.cos(k / 7):g}\n"
                                                         for k in range(30)))
    text = SETUP.format(results="res", model="m.osim", time_range="0 1", coords="c.mot",
                        cutoff="-1", out="id.sto", loads="l.xml" if loads else "")
    text = text.replace("<forces_to_exclude> Muscles</forces_to_exclude>",
                        f"<forces_to_exclude>{excluded}</forces_to_exclude>")
    if loads:
        (tmp_path / "l.xml").write_text(
            "<OpenSimDocument><ExternalLoads><objects><ExternalForce name='f'>"
            "<applied_to_body>link2</applied_to_body><force_identifier>f_</force_identifier>"
            "</ExternalForce></objects><datafile>d.mot</datafile></ExternalLoads>"
            "</OpenSimDocument>")
        (tmp_path / "d.mot").write_text("d\nversion=1\nnRows=2\nnColumns=4\nendheader\n"
                                        "time\tf_x\tf_y\tf_z\n"
                                        "0\t0\t100\t0\n1\t0\t100\t0\n")
    (tmp_path / "s.xml").write_text(text)
    return tmp_path / "s.xml"


@pytest.mark.parametrize("excluded,kept", [("Muscles", ["spring"]), ("muscles spring", []),
                                           ("Actuators", ["spring"]), ("All", [])])
def test_forces_the_setup_leaves_on_are_named(tmp_path, excluded, kept):
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", Urdf2dynWarning)
        urdf2dyn.inverse_dynamics_setup(_robot_setup(tmp_path, excluded), model)
    named = [str(x.message) for x in w if "force elements" in str(x.message)]
    assert bool(named) == bool(kept) and all(k in named[0] for k in kept)


@pytest.mark.parametrize("excluded", ["All", "Muscles spring", "Muscles"])
def test_forces_under_components_are_named_whatever_the_setup_excludes(tmp_path, excluded):
    """OpenSim's tool applies the forces under the model's <components> whatever its
    <forces_to_exclude> says (tests/test_osim.py shows it on OpenSim): the setup says so."""
    setup = _robot_setup(tmp_path, excluded)
    (tmp_path / "m.osim").write_text(
        "<OpenSimDocument><Model name='m'><components><PointToPointSpring name='spring'/>"
        "</components><ForceSet><objects><Thelen2003Muscle name='soleus'/></objects>"
        "</ForceSet></Model></OpenSimDocument>")
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", Urdf2dynWarning)
        urdf2dyn.inverse_dynamics_setup(setup, model)
    named = [str(x.message) for x in w if "force elements" in str(x.message)]
    assert len(named) == 1 and "['spring'] under its <components>" in named[0], named
    assert "whatever <forces_to_exclude> says" in named[0]
    with pytest.raises(urdf2dyn.biomech.MotionError, match="under its <components>"):
        urdf2dyn.inverse_dynamics_setup(setup, model, strict=True)


def test_exclude_all_drops_the_external_loads(tmp_path):
    model = urdf2dyn.load(data_path("robot2r.urdf"))
    model.gravity = (0, -9.81, 0)       # y up, as the OpenSim files given to it
    # Muscles leaves the model's spring in: OpenSim would apply it, urdf2dyn says it does not
    with pytest.warns(Urdf2dynWarning, match=r"force elements \['spring'\] are not in "
                                             r"<forces_to_exclude>.*e\.g\. Muscles, or All"):
        with_loads = urdf2dyn.inverse_dynamics_setup(_robot_setup(tmp_path, "Muscles", True),
                                                     model)
    with pytest.warns(Urdf2dynWarning, match="All also leaves out the external loads"):
        without = urdf2dyn.inverse_dynamics_setup(_robot_setup(tmp_path, "All", True), model)
    assert with_loads.f_ext and not without.f_ext
    assert not np.allclose(with_loads.tau, without.tau)


@pytest.mark.parametrize("text,match", [
    ("<a><b></a>", "not well-formed"),
    ("<OpenSimDocument><ExternalLoads/></OpenSimDocument>", "no <InverseDynamicsTool>"),
])
def test_other_documents_are_refused(tmp_path, text, match):
    p = tmp_path / "s.xml"
    p.write_text(text)
    with pytest.raises(SetupError, match=match):
        read_id_setup(p)


_xml_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=20)


# what each element of a setup may validly hold, with the files it names (written below)
_VALID_FIELDS = {
    "results": st.sampled_from(["res", "", "."]),
    "model": st.sampled_from(["", "m.osim"]),
    "time_range": st.tuples(st.floats(-10, 10), st.floats(0, 10)).map(
        lambda t: f"{t[0]!r} {t[0] + t[1]!r}"),
    "loads": st.sampled_from(["", "loads.xml"]),
    "coords": st.just("c.mot"),
    "cutoff": st.floats(-1, 100).map(repr),
    "out": st.sampled_from(["id.sto", ""])}


@FUZZ
@given(fields=st.fixed_dictionaries(_VALID_FIELDS),
       other=st.fixed_dictionaries({k: _xml_text for k in _VALID_FIELDS}),
       spoiled=st.lists(st.sampled_from(sorted(_VALID_FIELDS)), max_size=3),
       tail=st.sampled_from(["", "</OpenSimDocument>", "<x>"]))
@example(fields=dict(results="res", model="m.osim", time_range="0.5 1.5", loads="loads.xml",
                     coords="c.mot", cutoff="6.0", out="id.sto"), other={}, spoiled=[], tail="")
@example(fields=dict(results="res", model="m.osim", time_range="1.5 0.5", loads="loads.xml",
                     coords="c.mot", cutoff="6.0", out="id.sto"), other={}, spoiled=[], tail="")
def test_setup_reader_fuzz_refuses_or_reads(tmp_path, fields, other, spoiled, tail):
    """Any content of the setup's elements (and broken documents): an IDSetup or a
    SetupError naming the file, nothing else. Valid entries, some of them (spoiled)
    replaced by any text, so that setups are read as well as refused; what is read is what
    the valid entries say."""
    from xml.sax.saxutils import escape
    for name in ("c.mot", "m.osim", "loads.xml"):
        (tmp_path / name).write_text("")
    fields = {**fields, **{k: other[k] for k in spoiled}}
    p = tmp_path / "s.xml"
    text = SETUP.format(**{k: escape(v) for k, v in fields.items()})
    if tail:
        text = text.replace("</OpenSimDocument>", tail)
    p.write_text(text, encoding="utf-8")
    try:
        s = read_id_setup(p)
    except SetupError as e:
        event("refused")
        assert str(p) in str(e)
        return
    event("read")
    assert s.time_range[0] <= s.time_range[1] and os.path.exists(s.coordinates_file)
    valid = {k: v for k, v in fields.items() if k not in spoiled}
    if "coords" in valid:
        assert s.coordinates_file == os.fspath(tmp_path / "c.mot")
    if "model" in valid:
        assert s.model_file == (os.fspath(tmp_path / "m.osim") if valid["model"] else None)
    if "loads" in valid:
        assert s.external_loads_file == (os.fspath(tmp_path / "loads.xml") if valid["loads"]
                                         else None)
    if "time_range" in valid:
        assert s.time_range == tuple(float(x) for x in valid["time_range"].split())
    if "cutoff" in valid:
        hz = float(valid["cutoff"])
        assert s.lowpass_hz == (hz if hz >= 0 else None)
    if "out" in valid and "results" in valid:
        assert s.output == os.path.normpath(os.path.join(
            tmp_path, valid["results"] or ".", valid["out"] or "inverse_dynamics.sto"))


@FUZZ
@given(fields=st.one_of(    # a time range within the trial and a cutoff, or any text
    st.fixed_dictionaries({
        "time_range": st.tuples(st.floats(-0.1, 0.5), st.floats(0, 0.5)).map(
            lambda t: f"{t[0]!r} {t[0] + t[1]!r}"),
        "cutoff": _VALID_FIELDS["cutoff"], "model": _xml_text}),
    st.fixed_dictionaries({k: _xml_text for k in ("time_range", "cutoff", "model")})))
def test_setup_option_fuzz(tmp_path, capsys, fields):
    """urdf2dyn torques --setup on setups with any time range, cutoff and model entries (and a
    coordinates file of robot2r's trajectory, 0 .. 0.58 s): exit 0, or 1 with a message."""
    from xml.sax.saxutils import escape
    # headers as OpenSim writes them (with their counts, which its Storage needs)
    (tmp_path / "c.mot").write_text("c\nversion=1\nnRows=30\nnColumns=3\ninDegrees=no\n"
                                    "endheader\ntime\tjoint1\t"
                                    "joint2\n" + "".join(f"{k / 50:g}\t{math.sin(k / 9):g}\t"
                                                         f"{math.cos(k / 7):g}\n"
                                                         for k in range(30)))
    text = SETUP.format(results="res", loads="", coords="c.mot", out="id.sto",
                        **{k: escape(v) for k, v in fields.items()})
    (tmp_path / "s.xml").write_text(text, encoding="utf-8")
    status = cli.main(["torques", "--setup", str(tmp_path / "s.xml"), "robot2r.urdf", "-o",
                       str(tmp_path / "tau.sto")])
    err = capsys.readouterr().err
    assert status == 0 or (status == 1 and "error:" in err), err


_TIME = st.one_of(st.floats(-0.125, 0.5, width=32),    # about the trial's 0 .. 0.39 s
                  st.floats(allow_nan=True, allow_infinity=True, width=32))


@FUZZ
@given(t0=_TIME, t1=_TIME, processing=st.sampled_from(["urdf2dyn", "opensim"]))
def test_time_range_and_processing_options_fuzz(tmp_path, capsys, t0, t1, processing):
    """--time-range and --processing with any numbers: exit 0, or 1 with a message; never
    a traceback. The trial is robot2r's coordinates, so that a time range within it runs."""
    motion = tmp_path / "m.csv"
    if not motion.exists():
        rng = np.arange(40) / 100
        motion.write_text("time,joint1,joint2\n" + "".join(
            f"{x:g},{math.sin(x):g},{math.cos(x):g}\n" for x in rng))
    try:
        status = cli.main(["torques", "robot2r.urdf", str(motion), "--time-range", str(t0),
                           str(t1), "--processing", processing])
    except SystemExit as e:           # argparse's usage error (e.g. '-6e-05' read as a flag)
        status = e.code
        assert status == 2 and "--time-range" in capsys.readouterr().err
        return
    err = capsys.readouterr().err
    assert status == 0 or (status == 1 and "error:" in err), err


# ============================================================================ item 6: no SciPy

NO_SCIPY = """
import sys
from urdf2dyn import cli
from urdf2dyn.bundled import data_path
args = {args!r}
assert cli.main(args) == 0
heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('scipy', 'pandas', 'matplotlib'))
assert not heavy, heavy
"""


@pytest.mark.parametrize("derivatives", ["gradient", "opensim"])
def test_default_torques_job_does_not_import_scipy(tmp_path, derivatives):
    """urdf2dyn torques with its defaults (running trial, ground reactions, CSV output), in a
    fresh interpreter: SciPy (and pandas, matplotlib) are never imported; nor with OpenSim's
    natural quintic derivatives."""
    args = ["torques", "humod_subject_a.urdf", data_path("running_a_3ms.csv"), "--grf",
            data_path("running_a_3ms_grf.csv"), "-o", str(tmp_path / "tau.csv"),
            "--derivatives", derivatives]
    r = subprocess.run([sys.executable, "-c", NO_SCIPY.format(args=args)], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_setup_job_does_not_import_scipy(osim, trial, tmp_path):
    """torques --setup (OpenSim's processing: filter, splines) is NumPy only too."""
    d, _ = trial
    args = ["torques", "--setup", str(d / "setup_6Hz-part.xml"), "humod_subject_a.urdf", "-o",
            str(tmp_path / "tau.sto")]
    r = subprocess.run([sys.executable, "-c", NO_SCIPY.format(args=args)], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_a_states_file_gives_its_coordinates(osim, tmp_path, monkeypatch, capsys):
    """An OpenSim 4 states table (columns named by state path, /jointset/<joint>/<coordinate>
    /value, as forward simulations and Moco write them), made by OpenSim's own TableProcessor
    from Gait10dof18musc's published IK result: urdf2dyn reads its coordinates by name and
    gives the InverseDynamicsTool's torques on the original file. (Given the states file, the
    tool itself holds every coordinate at its default value: asserted, so that this test says
    when OpenSim starts mapping the paths too.)"""
    src = os.path.join(DATA, "Gait10dof18musc")
    if not os.path.isdir(src):
        pytest.skip(f"{src}: not vendored")
    work = tmp_path / "g10"
    shutil.copytree(src, work)
    model = osim.Model(str(work / "subject01.osim"))
    model.initSystem()
    states = osim.TableProcessor(str(work / "IK" / "subject01_walk_IK.mot"))
    states.append(osim.TabOpUseAbsoluteStateNames())
    table = states.process(model)
    assert list(table.getColumnLabels())[0] == "/jointset/ground_pelvis/pelvis_tilt/value"
    osim.STOFileAdapter.write(table, str(work / "IK" / "walk_states.sto"))
    setup = (work / "ID" / "walk_Setup_ID.xml").read_text()
    assert "subject01_walk_IK.mot" in setup
    (work / "ID" / "states_Setup_ID.xml").write_text(
        setup.replace("subject01_walk_IK.mot", "walk_states.sto")
             .replace("subject01_walk_ID.sto", "states_id.sto"))
    monkeypatch.chdir(work / "ID")
    assert osim.InverseDynamicsTool(str(work / "ID" / "walk_Setup_ID.xml")).run()
    theirs = read_id_setup(work / "ID" / "walk_Setup_ID.xml").output
    assert osim.InverseDynamicsTool(str(work / "ID" / "states_Setup_ID.xml")).run()
    ours = read_id_setup(work / "ID" / "states_Setup_ID.xml").output
    _, _, defaults = opensim_tables.read_table(osim, ours)
    _, _, right = opensim_tables.read_table(osim, theirs)
    assert np.abs(defaults - right).max() > 0.1 * np.abs(right).max()
    os.remove(ours)
    assert cli.main(["torques", "--setup", str(work / "ID" / "states_Setup_ID.xml")]) == 0
    err = _compare(osim, theirs, ours)
    print(f"\nstates file: worst {max(err.values()):.2e} of a coordinate's peak")


@pytest.mark.filterwarnings("ignore:.*no joint carries any weight")    # robot2r is planar
def test_a_step_too_small_to_resample_names_its_rows_and_the_ways_out(tmp_path, capsys):
    """A table whose times almost repeat once (OpenSim's RRA writes such rows): OpenSim's
    filter would resample it at that step, beyond its 100000 samples, and coarsen the step,
    which is not reproduced. The refusal names the two times and what to do, turning the
    filter off in the words of who gave it: it said "--filter; the setup's
    lowpass_cutoff_frequency_for_coordinates = -1" to everyone, --filter to a setup's run,
    which refuses it beside --setup."""
    from urdf2dyn.biomech.opensim_processing import id_kinematics
    t = np.concatenate([np.arange(0, 1, 0.01), [0.99 + 1e-6]])
    q = np.sin(t)[:, None]
    with pytest.raises(ValueError, match=r"^cutoff_hz: resampling .*smallest time step "
                                         r"\(between t = 0.99 and 0.990001 s\) is far below "
                                         r"the mean step.*drop the row that almost repeats a "
                                         r"time.*\(None for no filter\)$"):
        id_kinematics(t, q, cutoff_hz=6)
    setup = _setup(tmp_path, cutoff="6", time_range="0 0.99",
                   model=data_path("robot2r.urdf"))
    (tmp_path / "c.mot").write_text(
        "c\nversion=1\nnRows=101\nnColumns=3\ninDegrees=no\nendheader\ntime\tjoint1\tjoint2\n"
        + "".join(f"{x:.9g}\t{np.sin(x):.9g}\t{0.1 * x:.9g}\n" for x in t))
    for line, said, no_filter in (
            (["--setup", str(setup)], f"{setup}: <lowpass_cutoff_frequency_for_coordinates> 6",
             "(-1 for no filter)"),
            ([data_path("robot2r.urdf"), str(tmp_path / "c.mot"), "--processing", "opensim",
              "--filter", "6"], f"{tmp_path / 'c.mot'}: --filter 6", "(no --filter)")):
        assert cli.main(["torques", *line]) == 1
        err = capsys.readouterr().err
        assert f"error: {said}: resampling " in err, err
        assert err.rstrip().endswith(f"run without the low-pass filter {no_filter}"), err
        assert ("--filter" in err) == ("--filter" in line), err


def test_the_filters_padding_among_the_rows_computed_is_said():
    """OpenSim's tool pads the coordinates (mirrored) before its filter and, when its time
    range reaches them, computes and writes the padded rows: their moments are no motion's.
    urdf2dyn does as OpenSim does and says so, with the time range that keeps the motion's
    own rows, which then draws no such warning: in the library's keyword (it said the command
    line's --time-range 0 2 to a library call)."""
    arm = urdf2dyn.load(data_path("robot2r.urdf"))
    motion = data_path("robot2r_trajectory.csv")                       # t = 0 .. 2 s
    # robot2r's joints are all along gravity (a horizontal arm): the trial says so too
    with (pytest.warns(Urdf2dynWarning, match="no joint carries any weight"),
          pytest.warns(Urdf2dynWarning, match=r"200 rows of the -1 \.\. 3 s computed are the "
                       r"filter's padding .* beyond the motion's 0 \.\. 2 s.*give the time "
                       r"range 0 \.\. 2 s \(time_range=\(0, 2\)\)$") as caught):
        res = urdf2dyn.inverse_dynamics_trial(arm, motion, processing="opensim", filter_hz=6)
    assert not [w for w in caught if "padding" in str(w.message) and "--" in str(w.message)]
    assert res.t[0] == pytest.approx(-1) and res.t[-1] == pytest.approx(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = urdf2dyn.inverse_dynamics_trial(arm, motion, processing="opensim", filter_hz=6,
                                              time_range=(0, 2))
    assert not [w for w in caught if "padding" in str(w.message)]
    assert (res.t[0], res.t[-1]) == (0, 2)
