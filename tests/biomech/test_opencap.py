"""OpenCap's published models and motions (Stanford NMBL's video-based motion capture) through
urdf2dyn, against OpenSim 4.6 run here on the same files: OpenSim's InverseDynamicsTool, its
InverseDynamicsSolver and its IK tool.

Files: tests/data/opencap (its README: opencap-core's LaiUhlrich2022 models, marker set and
setups, opencap-processing's LaiArnoldModified2017_contacts model and two motions, a squat cut
to its first 3 s and a walk; Apache License 2.0).

The models' ``walker_knee`` joints turn three rotation axes with one coordinate, where
OpenSim's velocity terms are off (docs/osim_models.rst, *Rajagopal's knee*): where the knees
move, OpenSim's and urdf2dyn's moments of the legs and the pelvis differ by up to about 1 % of
their peaks. The tests here separate that from everything else: the coordinates the knees do
not reach agree to OpenSim's printing, OpenSim's tool equals OpenSim's own solver on
urdf2dyn's kinematics (the processing is OpenSim's), and with the knees' speeds zero the
solver equals urdf2dyn (the dynamics are).
"""
from __future__ import annotations

import gzip
import math
import os
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech.scale import run_setup

import opensim_tables
from caller_words import assert_says_the_keyword, flags_named
from osim_oracle import Oracle
from cli_here import working_in

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "opencap")
SQUAT, WALK = "squats1_videoAndMocap_0-3s.mot", "walking1_videoAndMocap.mot"
END = {SQUAT: 3.0, WALK: 1.57}          # the motions' last samples (both start at 0)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A folder holding the models (decompressed) and every other file of the data folder."""
    d = tmp_path_factory.mktemp("opencap")
    for name in sorted(os.listdir(DATA)):
        if name.endswith(".osim.gz"):
            (d / name[:-3]).write_bytes(gzip.decompress(Path(DATA, name).read_bytes()))
        elif name != "README.md":
            shutil.copy(os.path.join(DATA, name), d / name)
    return d


def _load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(str(path))


def opensim_id(osim, model, motion, cutoff, out, excluded="All"):
    """OpenSim's InverseDynamicsTool on model and motion over the motion's own time range
    (the filter's padding not written), writing out; excluded: its forces_to_exclude."""
    tool = osim.InverseDynamicsTool()
    tool.setModelFileName(str(model))
    tool.setCoordinatesFileName(str(motion))
    tool.setLowpassCutoffFrequency(cutoff)
    tool.setStartTime(0.0)
    tool.setEndTime(END[os.path.basename(motion)])
    names = osim.ArrayStr()
    names.append(excluded)
    tool.setExcludedForces(names)
    tool.setResultsDir(str(out.parent))
    tool.setOutputGenForceFileName(out.name)
    assert tool.run()
    return out


def urdf2dyn_torques(model, motion, cutoff, out):
    """``urdf2dyn torques --processing opensim`` with the same filter and time range."""
    args = ["torques", str(model), str(motion), "--processing", "opensim", "--no-progress",
            "--time-range", "0", f"{END[os.path.basename(motion)]:g}", "-o", str(out)]
    if cutoff > 0:
        args += ["--filter", f"{cutoff:g}"]
    assert cli.main(args) == 0
    return out


def differences(osim, theirs, ours):
    """({column: max |ours - theirs| / peak of theirs}, {column: peak}), columns matched by
    name, after checking that both tables have the same columns and the same rows."""
    la, ta, A = opensim_tables.read_table(osim, theirs)
    lb, tb, B = opensim_tables.read_table(osim, ours)
    assert sorted(lb) == sorted(la)
    assert len(tb) == len(ta) and np.allclose(tb, ta, rtol=0, atol=1e-9)
    B = B[:, [lb.index(n) for n in la]]
    peak = np.maximum(np.abs(A).max(axis=0), 1e-8)
    return dict(zip(la, np.abs(A - B).max(axis=0) / peak)), dict(zip(la, peak))


def test_shoulder_coordinates_the_motion_lacks_are_held_where_opensim_holds_them(osim, files,
                                                                                   tmp_path):
    """OpenCap's shoulder model on a motion of the model without it (the squat's arm_flex_r ..
    columns, no sh_* ones): OpenSim's tool holds each coordinate the file lacks at its
    <default_value> (sh_elev_r and sh_elev_l at 0.1745 rad) and ignores the columns the model
    lacks; urdf2dyn held them at 0 and its shoulder moments differed by far more than the
    walker knee's."""
    model, motion = files / "LaiUhlrich2022_shoulder.osim", files / SQUAT
    theirs = opensim_id(osim, model, motion, -1.0, tmp_path / "theirs.sto")
    ours = urdf2dyn_torques(model, motion, -1.0, tmp_path / "ours.sto")
    rel, _ = differences(osim, theirs, ours)
    shoulders = {n: e for n, e in rel.items() if n.startswith(("sh_", "elbow", "pro_sup"))}
    assert len(shoulders) == 16
    assert max(shoulders.values()) <= 1e-6, shoulders


def test_opensim_processing_writes_opensims_column_order(osim, files, tmp_path):
    """``--processing opensim`` writes the columns in OpenSim's multibody tree order, as the
    tool does (docs/opensim.rst) and as ``--setup`` did; without a setup it wrote urdf2dyn's q
    order (lumbar_extension_moment seventh where OpenSim has hip_flexion_r_moment)."""
    model, motion = files / "LaiUhlrich2022.osim", files / WALK
    theirs = opensim_id(osim, model, motion, -1.0, tmp_path / "theirs.sto")
    ours = urdf2dyn_torques(model, motion, -1.0, tmp_path / "ours.sto")
    assert opensim_tables.read_table(osim, ours)[0] == opensim_tables.read_table(osim,
                                                                                 theirs)[0]


def _renamed(src, dst, renames):
    """src's text with its header's columns renamed {old: new}, written to dst."""
    lines = src.read_text().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line.strip() == "time" or
             line.startswith("time\t"))
    lines[k] = "\t".join(renames.get(c, c) for c in lines[k].rstrip("\r\n").split("\t")) + "\n"
    dst.write_text("".join(lines))
    return dst


def test_another_models_columns_are_not_offered_as_renames(files, capsys):
    """The shoulder model on the squat: the file's arm_flex_r, arm_add_r, arm_rot_r are
    Rajagopal's shoulder angles (Z-X-Y), the model's glenohumeral joint turns by
    sh_plane_elev_r, sh_elev_r, sh_axial_rot_r (Y-Z-Y) and its scapula moves by sh_tx_r ..:
    no renaming makes one the other. The refusal said "did you mean 'arm_rot_r' ->
    'sh_axial_rot_r'", a rename that gives wrong angles; it says what the columns are and the
    two ways on."""
    model, motion = files / "LaiUhlrich2022_shoulder.osim", files / SQUAT
    assert cli.main(["torques", str(model), str(motion), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "did you mean" not in err and "sh_axial_rot_r" in err
    assert "no renaming of the unknown columns" in err and "another model" in err
    assert "--processing opensim" in err and "urdf2dyn ik" in err


@pytest.mark.parametrize("renames, guessed", [
    ({"hip_flexion_r": "hip_flexon_r"}, ["'hip_flexon_r' -> 'hip_flexion_r'"]),
    ({"hip_flexion_r": "hip_flexon_r", "hip_adduction_r": "hip_aduction_r",
      "hip_rotation_r": "hip_rotaton_r"},
     ["'hip_flexon_r' -> 'hip_flexion_r'", "'hip_aduction_r' -> 'hip_adduction_r'",
      "'hip_rotaton_r' -> 'hip_rotation_r'"]),
])
def test_a_joints_mistyped_columns_are_still_offered(files, tmp_path, capsys, renames,
                                                      guessed):
    """A rename is offered when it covers every coordinate of the joint the file lacks: one
    mistyped angle of the hip, or all three."""
    motion = _renamed(files / WALK, tmp_path / "walk.mot", renames)
    assert cli.main(["torques", str(files / "LaiUhlrich2022.osim"), str(motion),
                     "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert f"did you mean {', '.join(guessed)}?" in err, err


#: (model, motion, lowpass cutoff of both tools: -1 none)
ID_CASES = [("LaiUhlrich2022", SQUAT, -1.0), ("LaiUhlrich2022", SQUAT, 6.0),
            ("LaiUhlrich2022", WALK, -1.0), ("LaiUhlrich2022", WALK, 6.0),
            ("LaiArnoldModified2017_contacts", SQUAT, 6.0),
            ("LaiArnoldModified2017_contacts", WALK, 6.0)]
#: The coordinates whose moments the walker knees' velocity terms reach: the legs' and the
#: root's (every body between a knee and the ground, and the knees' children).
LEGS_AND_ROOT = ("pelvis_", "hip_", "knee_", "ankle_", "subtalar_", "mtp_")


@pytest.mark.parametrize("name, motion, cutoff", ID_CASES,
                         ids=[f"{m}-{f.split('_')[0]}-{c:g}Hz" for m, f, c in ID_CASES])
def test_torques_equal_opensims_inverse_dynamics_tool(osim, files, tmp_path, name, motion,
                                                      cutoff):
    """``urdf2dyn torques --processing opensim`` against OpenSim's InverseDynamicsTool, same
    filter, same rows. The trunk and arms agree to OpenSim's printing (8 decimals); the legs
    and the root differ where the knees move, by OpenSim's walker-knee velocity terms (the
    next two tests), measured at most 1.4 % of a coordinate's peak (LaiArnold's walk at 6 Hz,
    knee_angle_l; docs/osim_models.rst, OpenCap). OpenSim excludes every force (All): the
    Moco model's foot contacts, which urdf2dyn does not apply and names when it loads it."""
    model, motion = files / f"{name}.osim", files / motion
    theirs = opensim_id(osim, model, motion, cutoff, tmp_path / "theirs.sto")
    ours = urdf2dyn_torques(model, motion, cutoff, tmp_path / "ours.sto")
    rel, peak = differences(osim, theirs, ours)
    legs = {n: e for n, e in rel.items() if n.startswith(LEGS_AND_ROOT)}
    rest = {n: e for n, e in rel.items() if n not in legs}
    assert len(rest) == 13 and len(legs) == 22
    assert all(e * peak[n] <= 1e-6 * peak[n] + 1e-8 for n, e in rest.items()), rest
    assert max(legs.values()) <= 0.015, sorted(legs.items(), key=lambda x: -x[1])[:4]


def _opensim_kinematics(model, motion, cutoff):
    """(q, v, a) as urdf2dyn's OpenSim processing makes them from motion, on the tool's rows."""
    from urdf2dyn.biomech import formats, opensim_processing as op
    t, q, _, _ = formats.read_opensim(str(motion), model=model).for_model(model)
    T, Q, V, A = op.id_kinematics(t, q, cutoff)
    rows = op.id_rows(T, (0.0, END[os.path.basename(motion)]))
    return Q[rows], V[rows], A[rows]


@pytest.mark.parametrize("motion, cutoff", [(SQUAT, 6.0), (WALK, -1.0)])
def test_the_difference_is_opensims_knee_velocity_terms(osim, files, tmp_path, motion,
                                                        cutoff):
    """On LaiUhlrich2022: OpenSim's InverseDynamicsSolver on urdf2dyn's kinematics gives the
    tool's output to its printing (the processing is OpenSim's: filter, splines, degrees, the
    coupled knee_angle_r_beta in radians); urdf2dyn's inverse dynamics differs from that
    solver only where the knees turn: with the knees' speeds zero they agree to 1e-9."""
    path = files / "LaiUhlrich2022.osim"
    model = _load(path)
    q, v, a = _opensim_kinematics(model, files / motion, cutoff)
    oracle = Oracle(osim, str(path), model.q_names)
    labels, _, tool = opensim_tables.read_table(
        osim, opensim_id(osim, path, files / motion, cutoff, tmp_path / "theirs.sto"))
    tool = tool[:, [labels.index(next(n for n in labels if n.rsplit("_", 1)[0] == c))
                    for c in model.q_names]]
    solver = np.array([oracle.inverse_dynamics(*s) for s in zip(q, v, a)])
    assert np.abs(solver - tool).max(axis=0).max() <= 1e-7
    knees = [model.q_names.index(n) for n in model.q_names if n.startswith("knee_angle")]
    still = v.copy()
    still[:, knees] = 0.0
    solver = np.array([oracle.inverse_dynamics(*s) for s in zip(q, still, a)])
    ours = model.inverse_dynamics(q, still, a)
    assert np.abs(ours - solver).max() <= 1e-9 * np.abs(solver).max()
    moving = np.abs(model.inverse_dynamics(q, v, a) - tool).max(axis=0)
    assert moving[model.q_names.index("knee_angle_r")] > 1e-3     # the knees' terms, visible


def _knees_held(src, dst):
    """src's motion with the knee_angle_r and knee_angle_l columns held at their first value."""
    lines = src.read_text().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line.startswith("time\t"))
    header = lines[k].rstrip("\r\n").split("\t")
    knees = [header.index(n) for n in ("knee_angle_r", "knee_angle_l")]
    first = lines[k + 1].rstrip("\r\n").split("\t")
    for i in range(k + 1, len(lines)):
        cells = lines[i].rstrip("\r\n").split("\t")
        for c in knees:
            cells[c] = first[c]
        lines[i] = "\t".join(cells) + "\n"
    dst.write_text("".join(lines))
    return dst


def test_opensim_processing_names_the_joints_opensim_computes_otherwise(files, tmp_path,
                                                                        capsys):
    """``--processing opensim`` promises OpenSim's tool; where the two differ (the walker
    knees, moving: the test above) it says so, naming both knees and neither patellofemoral
    joint (one coordinate, one rotation axis); with the knees held still, where OpenSim
    agrees to 1e-9, it says nothing of it."""
    model = files / "LaiUhlrich2022.osim"
    args = ["torques", str(model), "", "--processing", "opensim", "--no-progress", "-o", ""]
    said = {}
    for name, motion in (("moving", files / WALK),
                         ("held", _knees_held(files / WALK, tmp_path / "held.mot"))):
        args[2], args[-1] = str(motion), str(tmp_path / f"{name}.sto")
        assert cli.main(args) == 0
        said[name] = [line for line in capsys.readouterr().err.splitlines()
                      if "rotation axes" in line]
    assert len(said["moving"]) == 1, said
    assert said["moving"][0].startswith(f"urdf2dyn torques: warning: {files / WALK}: 2 joints "
                                        "['walker_knee_l', 'walker_knee_r'] turn several rotation "
                                        "axes with one coordinate, and they move")
    assert said["held"] == []


# ============================================================ inverse kinematics (OpenCap's IK)

MARKER_SET = "LaiUhlrich2022_markers_augmenter.xml"
IK_END = 0.1                            # OpenSim's IK at accuracy 1e-8: 11 frames of the walk


@pytest.fixture(scope="module")
def synthetic_walk(osim, files):
    """OpenSim's side of OpenCap's IK: the generic LaiUhlrich2022 with OpenCap's marker set
    (Model.updateMarkerSet, written by OpenSim), the markers where OpenSim's own kinematics
    puts them on the published walk (TRCFileAdapter, m), and OpenSim's IK tool on them with
    OpenCap's Setup_IK.xml (its marker weights) at accuracy 1e-8 over t = 0 .. IK_END s.
    Returns (folder, OpenSim's IK table)."""
    import math
    d = files / "ik"
    d.mkdir()
    model = osim.Model(str(files / "LaiUhlrich2022.osim"))
    model.updateMarkerSet(osim.MarkerSet(str(files / MARKER_SET)))
    model.finalizeConnections()
    model.printToXML(str(d / "with_markers.osim"))
    s = model.initSystem()
    motion = osim.TimeSeriesTable(str(files / WALK))
    labels, cs, ms = list(motion.getColumnLabels()), model.getCoordinateSet(), \
        model.getMarkerSet()
    names = [ms.get(i).getName() for i in range(ms.getSize())]
    table = osim.TimeSeriesTableVec3()
    table.setColumnLabels(list(names))
    for r, t in enumerate(motion.getIndependentColumn()):
        row = motion.getRowAtIndex(r)
        for k, name in enumerate(labels):
            c = cs.get(name)
            rotational = c.getMotionType() == osim.Coordinate.Rotational
            c.setValue(s, math.radians(row[k]) if rotational else row[k], False)
        model.realizePosition(s)
        out = osim.RowVectorVec3(len(names))
        for i in range(len(names)):
            out[i] = ms.get(i).getLocationInGround(s)
        table.appendRow(float(t), out)
    table.addTableMetaDataString("DataRate", "100")
    table.addTableMetaDataString("Units", "m")
    osim.TRCFileAdapter().write(table, str(d / "walk.trc"))
    ik = osim.InverseKinematicsTool(str(files / "Setup_IK.xml"))
    ik.set_model_file(str(d / "with_markers.osim"))
    ik.setMarkerDataFileName(str(d / "walk.trc"))
    ik.set_accuracy(1e-8)
    ik.setStartTime(0.0)
    ik.setEndTime(IK_END)
    ik.setResultsDir(str(d))
    ik.setOutputMotionFileName(str(d / "ik_opensim.mot"))
    ik.printToXML(str(d / "setup_ik.xml"))
    assert osim.InverseKinematicsTool(str(d / "setup_ik.xml")).run()
    return d, opensim_tables.read_table(osim, d / "ik_opensim.mot")


def test_ik_runs_opencaps_setup_with_its_marker_set(osim, files, synthetic_walk, tmp_path):
    """``urdf2dyn ik`` on OpenCap's own Setup_IK.xml (model_file and marker_file Unassigned,
    as OpenCap's scripts fill them in), the generic model and the marker set OpenCap gives
    beside it (--markers, an OpenSim MarkerSet .xml: the model's markers updated as OpenSim's
    Model.updateMarkerSet does) and the recording (--marker-file). Its coordinates are
    OpenSim's IK tool's to 0.01 degree, and the pose the markers were made from to 1e-4 degree
    (the .mot's printing), but mtp_angle: no marker is on the toes, so no fit moves it from
    where the first frame starts, the middle of its clamped range (-7.5 degrees; OpenSim's
    within 0.005 degree of it)."""
    d, (labels, t_ref, theirs) = synthetic_walk
    out = tmp_path / "ik.mot"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        assert cli.main(["ik", "--setup", str(files / "Setup_IK.xml"),
                         "--model", str(files / "LaiUhlrich2022.osim"),
                         "--markers", str(files / MARKER_SET),
                         "--marker-file", str(d / "walk.trc"), "-o", str(out)]) == 0
    names, t, ours = opensim_tables.read_table(osim, out)
    assert names == labels and len(t) == 158
    rows = t <= IK_END + 1e-9
    assert np.allclose(t[rows], t_ref, rtol=0, atol=1e-9)
    assert np.abs(ours[rows] - theirs).max() <= 0.01
    truth_labels, _, truth = opensim_tables.read_table(osim, files / WALK)
    truth = truth[:, [truth_labels.index(n) for n in names]]
    toes = [k for k, n in enumerate(names) if n.startswith("mtp_angle")]
    observed = [k for k in range(len(names)) if k not in toes]
    assert np.abs(ours[:, observed] - truth[:, observed]).max() <= 1e-4
    mtp = _load(files / "LaiUhlrich2022.osim").coordinates["mtp_angle_r"]
    assert np.allclose(ours[:, toes], np.degrees(0.5 * (mtp.lower + mtp.upper)), rtol=0,
                       atol=1e-6)


def test_ik_says_opencaps_unmarked_mtp_angles_which_opensim_leaves_elsewhere(
        osim, files, synthetic_walk, tmp_path, capsys):
    """No marker moves mtp_angle (no marker is on the toes) and the model has couplers: ours
    holds it at the middle of its range in every frame, which OpenSim's IK reaches at
    accuracy 1e-8 from t = 0 (test_ik_runs_opencaps_setup_with_its_marker_set), but not at
    the accuracy of OpenCap's own Setup_IK.xml, 1e-5, where its interior-point method stops
    on the way from the default 0 (0.7 to 1.4 degrees short of -7.5 here). Ours said
    nothing of a value no marker measured; now ``urdf2dyn ik`` names both coordinates, in one
    warning (one per side said the one cause twice).
    Oracle: OpenSim's IK tool with OpenCap's setup as published (its accuracy)."""
    d, _ = synthetic_walk
    tool = osim.InverseKinematicsTool(str(files / "Setup_IK.xml"))
    tool.set_model_file(str(d / "with_markers.osim"))
    tool.setMarkerDataFileName(str(d / "walk.trc"))
    tool.setStartTime(0.0)
    tool.setEndTime(0.03)
    tool.setResultsDir(str(tmp_path))
    tool.setOutputMotionFileName(str(tmp_path / "published_accuracy.mot"))
    tool.printToXML(str(tmp_path / "setup_ik.xml"))
    assert osim.InverseKinematicsTool(str(tmp_path / "setup_ik.xml")).run()
    labels, _, theirs = opensim_tables.read_table(osim, tmp_path / "published_accuracy.mot")
    mtp = _load(files / "LaiUhlrich2022.osim").coordinates["mtp_angle_r"]
    middle = math.degrees(0.5 * (mtp.lower + mtp.upper))
    assert np.all(theirs[:, labels.index("mtp_angle_r")] > middle + 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        assert cli.main(["ik", "--setup", str(files / "Setup_IK.xml"),
                         "--model", str(files / "LaiUhlrich2022.osim"),
                         "--markers", str(files / MARKER_SET),
                         "--marker-file", str(d / "walk.trc"),
                         "-o", str(tmp_path / "ours.mot")]) == 0
    said = capsys.readouterr().err
    # one warning for the one cause (it was one per side)
    assert said.count("no fitted marker moves") == 1, said
    held = rf"at {math.radians(middle):g} \(start 0, mid-range {math.radians(middle):g}\)"
    assert re.search(rf"coordinates 'mtp_angle_l' and 'mtp_angle_r': no fitted marker moves "
                     rf"them in any frame, .* \('mtp_angle_l' {held}; 'mtp_angle_r' {held}\); "
                     r"OpenSim's IK .* moves each in each frame from its start towards "
                     r"mid-range ", said), said


def test_ik_says_how_to_give_what_opencaps_setup_leaves_unassigned(files, tmp_path, capsys):
    """OpenCap's Setup_IK.xml names no model and no marker file (Unassigned): each refusal
    names the option that gives it (it said "<marker_file> is empty: give the marker file",
    and urdf2dyn ik had no way to give one). An OpenSim marker set needs an .osim model."""
    setup, model = str(files / "Setup_IK.xml"), str(files / "LaiUhlrich2022.osim")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        assert cli.main(["ik", "--setup", setup]) == 1
        assert "<model_file> is not set (empty or Unassigned): give the model (urdf2dyn ik " \
            "--model MODEL)" in capsys.readouterr().err
        assert cli.main(["ik", "--setup", setup, "--model", model]) == 1
        assert "<marker_file> is not set (empty or Unassigned): give the marker recording " \
            "(urdf2dyn ik --marker-file MARKERS.trc)" in capsys.readouterr().err
        urdf = tmp_path / "model.urdf"
        assert cli.main(["convert", model, "-o", str(urdf)]) == 0
        capsys.readouterr()
        assert cli.main(["ik", "--setup", setup, "--model", str(urdf), "--markers",
                         str(files / MARKER_SET)]) == 1
        err = capsys.readouterr().err
        assert "an OpenSim marker set places markers on an .osim model's bodies" in err


# ================================================================ scaling (OpenCap's ScaleTool)

#: The subject the synthetic static trial is made from: OpenSim's Model.scale of the generic
#: model with these factors (mass distribution kept), standing in OpenCap's placement pose.
SUBJECT = {"pelvis": 1.05, "femur_r": 1.10, "femur_l": 1.10, "tibia_r": 0.95, "tibia_l": 0.95,
           "patella_r": 1.1, "patella_l": 1.1, "talus_r": 1.02, "talus_l": 1.02,
           "calcn_r": 1.02, "calcn_l": 1.02, "toes_r": 1.02, "toes_l": 1.02, "torso": 1.04}


@pytest.fixture(scope="module")
def opencap_scaling(osim, files):
    """OpenSim's side of OpenCap's scaling: a static trial (t = 3.4 .. 3.7 s, the setup's
    3.41 .. 3.66 s inside) of the markers of a subject OpenSim scaled by SUBJECT, OpenSim's
    ScaleTool on OpenCap's Setup_scaling_LaiUhlrich2022.xml with the generic model, the
    marker set and that trial, and the converged placement of tests/scale_oracle.py.
    Returns (folder, the setup OpenSim printed with those files)."""
    d = files / "scale"
    d.mkdir()
    subject = osim.Model(str(files / "LaiUhlrich2022.osim"))
    subject.updateMarkerSet(osim.MarkerSet(str(files / MARKER_SET)))
    state = subject.initSystem()
    factors = osim.ScaleSet()
    for body, f in SUBJECT.items():
        scale = osim.Scale()
        scale.setSegmentName(body)
        scale.setScaleFactors(osim.Vec3(f))
        scale.setApply(True)
        factors.cloneAndAppend(scale)
    assert subject.scale(state, factors, True, -1.0)
    state = subject.initSystem()
    for name, value in (("ankle_angle_r", 0.0873), ("ankle_angle_l", 0.0873),
                        ("pelvis_ty", 0.95)):
        subject.getCoordinateSet().get(name).setValue(state, value, False)
    subject.realizePosition(state)
    ms = subject.getMarkerSet()
    names = [ms.get(i).getName() for i in range(ms.getSize())]
    table = osim.TimeSeriesTableVec3()
    table.setColumnLabels(list(names))
    for k in range(31):
        row = osim.RowVectorVec3(len(names))
        for i in range(len(names)):
            row[i] = ms.get(i).getLocationInGround(state)
        table.appendRow(3.4 + 0.01 * k, row)
    table.addTableMetaDataString("DataRate", "100")
    table.addTableMetaDataString("Units", "m")
    osim.TRCFileAdapter().write(table, str(d / "static.trc"))
    # names relative to the setup's folder, run from there: OpenSim 4.6's placer puts the
    # setup's folder before an absolute marker_file ("Unable to open marker file d//d/...")
    tool = osim.ScaleTool(str(files / "Setup_scaling_LaiUhlrich2022.xml"))
    tool.getGenericModelMaker().setModelFileName("../LaiUhlrich2022.osim")
    tool.getGenericModelMaker().setMarkerSetFileName(f"../{MARKER_SET}")
    tool.getModelScaler().setMarkerFileName("static.trc")
    tool.getModelScaler().setOutputModelFileName("opensim_scaled.osim")
    tool.getMarkerPlacer().setMarkerFileName("static.trc")
    tool.getMarkerPlacer().setOutputModelFileName("opensim_placed.osim")
    tool.printToXML(str(d / "setup_scale.xml"))
    with working_in(d):
        assert osim.ScaleTool("setup_scale.xml").run()
    return d, d / "setup_scale.xml"


def _bodies_and_joints(osim, path):
    """{body: (mass, centre of mass, principal moments)}, {joint: parent frame offset} of
    the model at path, as OpenSim reads it."""
    model = osim.Model(str(path))
    model.initSystem()
    bodies = {b.getName(): np.r_[b.getMass(), b.getMassCenter().to_numpy(),
                                 b.getInertia().getMoments().to_numpy()]
              for b in model.getBodySet()}
    joints = {j.getName(): j.get_frames(0).get_translation().to_numpy()
              for j in model.getJointSet()}
    return bodies, joints


def test_scale_runs_opencaps_setup_as_opensims_scale_tool(osim, files, opencap_scaling,
                                                           tmp_path):
    """``urdf2dyn scale`` on OpenCap's own setup (model_file, marker_set_file and marker_file
    Unassigned) with --model, --marker-set (GenericModelMaker's marker_set_file) and --static:
    every body's mass, mass centre and inertia and every joint frame of the scaled model equal
    OpenSim's ScaleTool's to 1e-12 (the factors recover SUBJECT's), and the markers are placed
    where OpenSim's placer puts them with its fit converged, to 0.01 mm (its own placer stops
    at the assembler's accuracy, up to 2.2 mm short here: docs/scale.rst)."""
    from scale_oracle import converged_placement
    d, setup = opencap_scaling
    out = tmp_path / "scaled.osim"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        assert cli.main(["scale", str(files / "Setup_scaling_LaiUhlrich2022.xml"),
                         "--model", str(files / "LaiUhlrich2022.osim"),
                         "--marker-set", str(files / MARKER_SET),
                         "--static", str(d / "static.trc"), "-o", str(out)]) == 0
    theirs, their_joints = _bodies_and_joints(osim, d / "opensim_scaled.osim")
    ours, our_joints = _bodies_and_joints(osim, out)
    assert sorted(ours) == sorted(theirs) and sorted(our_joints) == sorted(their_joints)
    for name, x in theirs.items():
        assert np.abs(ours[name] - x).max() <= 1e-12 * max(1.0, np.abs(x).max()), name
    for name, x in their_joints.items():
        assert np.abs(our_joints[name] - x).max() <= 1e-12, name
    placed, _ = converged_placement(str(d), "setup_scale.xml", str(d / "opensim_scaled.osim"))
    model = osim.Model(str(out))
    ms = model.getMarkerSet()
    assert ms.getSize() == len(placed) == 43
    worst = max(np.abs(ms.get(i).get_location().to_numpy() - placed[ms.get(i).getName()]).max()
                for i in range(ms.getSize()))
    assert worst <= 1e-5


def test_scale_says_how_to_give_what_opencaps_setup_leaves_unassigned(files, capsys):
    """OpenCap's scaling setup with the generic model alone: the model has no markers and
    the setup names no marker set, which was said as eleven measurements left out and then
    "give a marker file (CSV name, link, x, y, z; urdf2dyn.markers.read_markers)"; it is
    refused first, naming --marker-set. Then the static trial, naming --static. Each
    refusal named both run_setup's keyword and the flag, to both callers: each is now told
    its own (the scale parser's flags, run_setup's signature)."""
    setup = str(files / "Setup_scaling_LaiUhlrich2022.xml")
    generic = str(files / "LaiUhlrich2022.osim")
    model = ["--model", generic]
    flags = {f for a in cli.build_parser()._subparsers._group_actions[0].choices["scale"]
             ._actions for f in a.option_strings}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        assert cli.main(["scale", setup]) == 1
        err = " ".join(capsys.readouterr().err.split())
        assert "<model_file> is Unassigned: give the generic model (urdf2dyn scale SETUP " \
            "--model GENERIC.osim)" in err, err
        assert flags_named(err) == {"--model"} <= flags and "model=" not in err
        with pytest.raises(urdf2dyn.biomech.formats.scale_setup.ScaleSetupError) as refused:
            run_setup(setup)
        said = str(refused.value)
        assert 'give the generic model (model="GENERIC.osim")' in said, said
        assert_says_the_keyword(said, run_setup, "model")
        assert cli.main(["scale", setup, *model]) == 1
        err = " ".join(capsys.readouterr().err.split())
        assert "measurement" not in err and "the model has no markers and <GenericModelMaker> " \
            "<marker_set_file> is Unassigned: give the marker set (urdf2dyn scale SETUP " \
            "--marker-set MARKERS.xml)" in err, err
        assert flags_named(err) == {"--marker-set"} <= flags and "marker_set=" not in err
        assert cli.main(["scale", setup, *model, "--marker-set", str(files / MARKER_SET)]) == 1
        err = " ".join(capsys.readouterr().err.split())
        assert "<marker_file> is Unassigned: give the static trial (urdf2dyn scale SETUP " \
            "--static STATIC.trc)" in err, err
        assert flags_named(err) == {"--static"} <= flags and "static=" not in err
        with pytest.raises(urdf2dyn.biomech.formats.scale_setup.ScaleSetupError) as refused:
            run_setup(setup, model=generic)
        said = str(refused.value)
        assert 'give the marker set (marker_set="MARKERS.xml")' in said, said
        assert_says_the_keyword(said, run_setup, "marker_set")
        with pytest.raises(urdf2dyn.biomech.formats.scale_setup.ScaleSetupError) as refused:
            run_setup(setup, model=generic, marker_set=str(files / MARKER_SET))
        said = str(refused.value)
        assert 'give the static trial (static="STATIC.trc")' in said, said
        assert_says_the_keyword(said, run_setup, "static")


@pytest.mark.parametrize("name", ["LaiUhlrich2022", "LaiUhlrich2022_shoulder",
                                  "LaiArnoldModified2017_contacts"])
def test_dynamics_equal_opensims_on_random_states(osim, files, name):
    """Each model's inverse dynamics and mass matrix against OpenSim's (forces removed) on
    random states, the knees' speeds zero (their velocity terms: see the module's notes):
    the shoulder model's scapulothoracic translations and Y-Z-Y glenohumeral joint too."""
    model = _load(files / f"{name}.osim")
    oracle = Oracle(osim, str(files / f"{name}.osim"), model.q_names)
    knees = [model.q_names.index(n) for n in model.q_names if n.startswith("knee_angle")]
    rng = np.random.default_rng(11)
    for _ in range(4):
        q = model.default_q + rng.uniform(-0.5, 0.5, model.nq)
        v, a = rng.normal(0, 2, model.nv), rng.normal(0, 10, model.nv)
        v[knees] = 0.0
        theirs = oracle.inverse_dynamics(q, v, a)
        assert np.abs(model.inverse_dynamics(q, v, a) - theirs).max() <= \
            1e-9 * np.abs(theirs).max()
        assert np.abs(model.mass_matrix(q) - oracle.mass_matrix(q)).max() <= 1e-10
