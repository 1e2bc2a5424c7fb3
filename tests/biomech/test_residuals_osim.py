"""Root residuals of OpenSim models (a pelvis CustomJoint with 6 coordinates, and a 2-D model's
planar pelvis), on opensim-models' published inverse-dynamics setups (tests/data/opensim_models).

Oracles: Newton-Euler for the whole body (the residual is what the external loads and gravity
leave of the rate of the centroidal momentum, which urdf2dyn computes by another algorithm than
the RNEA + Jacobian of the residuals), the residual's definition (applied to the pelvis it
cancels the pelvis coordinates' generalized forces), and OpenSim's InverseDynamicsTool itself:
its own pelvis_* columns, put through the root's motion subspace, give the same wrench."""
import os
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech import formats, grf as G
from urdf2dyn.warn import Urdf2dynWarning

import opensim_tables

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "opensim_models")
# (case, folder, setup, folder OpenSim runs from, the pelvis coordinates)
SETUPS = [("gait2354", "Gait2354_Simbody", "subject01_Setup_InverseDynamics.xml", ".",
           ["pelvis_tilt", "pelvis_list", "pelvis_rotation", "pelvis_tx", "pelvis_ty",
            "pelvis_tz"]),
          ("gait10dof18musc", "Gait10dof18musc", "ID/walk_Setup_ID.xml", "ID",
           ["pelvis_tilt", "pelvis_tx", "pelvis_ty"])]


def _run(folder, setup, run_from, tmp_path, monkeypatch):
    work = tmp_path / folder
    shutil.copytree(os.path.join(DATA, folder), work)
    monkeypatch.chdir(work / run_from)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        res = urdf2dyn.inverse_dynamics_setup(str(work / setup))
        model = urdf2dyn.load(res.record["model_file"])
    return work, model, res


def _newton_euler(model, res):
    """The residual wrench about the centre of mass that Newton-Euler leaves: the rate of the
    centroidal momentum minus gravity and the external loads (all about the CoM)."""
    c = model.centroidal(res.q, res.v, res.a)
    com = c["com"]
    w = sum(res.f_ext.values())                     # [F; moment about the world origin]
    force = c["momentum_rate"][:, :3] - model.total_mass * np.asarray(model.gravity) - w[:, :3]
    moment = c["momentum_rate"][:, 3:] - (w[:, 3:] - np.cross(com, w[:, :3]))
    return force, moment


@pytest.mark.parametrize("case,folder,setup,run_from,pelvis", SETUPS, ids=[s[0] for s in SETUPS])
def test_residuals_are_newton_euler(case, folder, setup, run_from, pelvis, tmp_path, monkeypatch):
    _, model, res = _run(folder, setup, run_from, tmp_path, monkeypatch)
    r = res.residuals
    assert r is not None and r.names == pelvis and res.record["no_residuals"] is None
    force, moment = _newton_euler(model, res)
    about_com = G.root_residuals(model, res.q, res.tau, about="com")
    if case == "gait2354":                          # free in space: every component
        np.testing.assert_allclose(about_com.force, force, rtol=0, atol=1e-9 * np.abs(force).max())
        np.testing.assert_allclose(about_com.moment, moment, rtol=0,
                                   atol=1e-9 * np.abs(moment).max())
    else:       # planar (x-y plane, rotation about z): the plane carries the rest, zero
        np.testing.assert_allclose(about_com.force[:, :2], force[:, :2], rtol=0,
                                   atol=1e-9 * np.abs(force).max())
        np.testing.assert_allclose(about_com.moment[:, 2], moment[:, 2], rtol=0,
                                   atol=1e-9 * np.abs(moment).max())
        assert np.all(about_com.force[:, 2] == 0)
        np.testing.assert_allclose(about_com.moment[:, :2], 0, atol=1e-9)
    assert np.abs(force).max() > 50                 # a real imbalance, not a trivial zero
    # the definition: applied to the pelvis it cancels the pelvis' generalized forces
    w = np.concatenate([r.force, r.moment + np.cross(r.point, r.force)], axis=1)
    f_ext = dict(res.f_ext)
    f_ext["pelvis"] = f_ext.get("pelvis", 0) + w
    tau = model.inverse_dynamics(res.q, res.v, res.a, f_ext=f_ext)
    cols = [model.v_names.index(n) for n in pelvis]
    np.testing.assert_allclose(tau[:, cols], 0, atol=1e-9 * np.abs(res.tau[:, cols]).max())


@pytest.mark.parametrize("case,folder,setup,run_from,pelvis", SETUPS, ids=[s[0] for s in SETUPS])
def test_opensims_own_pelvis_forces_give_the_same_residual(osim, case, folder, setup, run_from,
                                                           pelvis, tmp_path, monkeypatch):
    """OpenSim's InverseDynamicsTool on the same setup: its pelvis_*_moment/_force columns
    are our root's generalized forces, and through the root's motion subspace they give our
    residual wrench (to OpenSim's 8 printed decimals)."""
    work, model, res = _run(folder, setup, run_from, tmp_path, monkeypatch)
    assert osim.InverseDynamicsTool(str(work / setup)).run()
    labels, t, table = opensim_tables.read_table(osim, res.record["output"])
    np.testing.assert_allclose(t, res.t, rtol=0, atol=1e-9)
    theirs = np.zeros_like(res.tau)
    for name in pelvis:
        k = next(i for i, n in enumerate(labels) if n in (f"{name}_moment", f"{name}_force"))
        theirs[:, model.v_names.index(name)] = table[:, k]
    cols = [model.v_names.index(n) for n in pelvis]
    peak = np.abs(res.tau[:, cols]).max()
    np.testing.assert_allclose(theirs[:, cols], res.tau[:, cols], rtol=0, atol=1e-6 * peak)
    r_theirs = G.root_residuals(model, res.q, theirs)
    scale = np.abs(res.residuals.force).max()
    np.testing.assert_allclose(r_theirs.force, res.residuals.force, rtol=0, atol=1e-5 * scale)
    np.testing.assert_allclose(r_theirs.moment, res.residuals.moment, rtol=0, atol=1e-5 * scale)


def test_cli_prints_and_writes_the_residuals_of_an_osim_model(tmp_path, monkeypatch, capsys):
    work = tmp_path / "g"
    shutil.copytree(os.path.join(DATA, "Gait2354_Simbody"), work)
    monkeypatch.chdir(work)
    out, resid = tmp_path / "tau.sto", tmp_path / "residuals.csv"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        assert cli.main(["torques", "--setup", "subject01_Setup_InverseDynamics.xml", "-o",
                         str(out), "--residuals", str(resid)]) == 0
    text = capsys.readouterr().out
    assert "root residuals (pelvis_tilt, pelvis_list, pelvis_rotation, pelvis_tx" in text
    assert "% of the peak ground reaction force" in text
    header, data = formats.read_table(str(resid))
    assert list(header) == ["time", "FX", "FY", "FZ", "MX", "MY", "MZ"] and len(data) == 73
    assert np.abs(data[:, 1:4]).max() > 50


def test_a_model_without_a_free_root_says_so(capsys):
    arm = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    res = urdf2dyn.inverse_dynamics_trial(arm, urdf2dyn.data_path("arm7_trajectory.csv"))
    assert res.residuals is None
    assert "has a fixed base" in res.record["no_residuals"]
    note, = [f for f in res.findings if f.check == "residuals"]
    assert note.severity == "note" and "no root residuals" in note.message
    assert not res.warnings                         # a note, not a warning: a fixed base is fine
    assert cli.main(["torques", "arm7.urdf", urdf2dyn.data_path("arm7_trajectory.csv")]) == 0
    out = capsys.readouterr().out
    assert ("root residuals: none: model 'arm7' has a fixed base (its first joint 'arm7_joint1' "
            "turns about an axis fixed in the world)") in out


def test_planar_root_needs_one_rotation_across_two_translations():
    # a 2-D chain of three revolute joints (a planar arm from the ground) is not a planar root
    text = """<robot name="arm3">
      <link name="world"/><link name="a"/><link name="b"/>
      <link name="c"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1"
        iyz="0" izz="1"/></inertial></link>
      <joint name="j1" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/></joint>
      <joint name="j2" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
        <origin xyz="1 0 0"/></joint>
      <joint name="j3" type="continuous"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/>
        <origin xyz="1 0 0"/></joint>
    </robot>"""
    with pytest.raises(ValueError, match=r"arm3' has a fixed base \(its first joint 'j1' turns"):
        G.root_chain(urdf2dyn.load(text))
    # a slide along the turning axis then two turns: 3 DoF, not in a plane
    lifted = text.replace('type="continuous"><parent link="world"/><child link="a"/>',
                          'type="prismatic"><parent link="world"/><child link="a"/>'
                          '<limit lower="-9" upper="9" effort="1" velocity="1"/>')
    with pytest.raises(ValueError, match="have 3 DoF that do not move the body in a plane"):
        G.root_chain(urdf2dyn.load(lifted))
    planar = text.replace('type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 0 1"/>',
                          'type="prismatic"><parent link="world"/><child link="a"/><axis xyz="1 0 0"/>'
                          '<limit lower="-9" upper="9" effort="1" velocity="1"/>')
    planar = planar.replace('type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>',
                            'type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/>'
                            '<limit lower="-9" upper="9" effort="1" velocity="1"/>')
    model = urdf2dyn.load(planar)
    joints, root = G.root_chain(model)
    assert [j.name for j in joints] == ["j1", "j2", "j3"] and root == "c"
    q = np.array([[0.3, -0.2, 0.7]])
    tau = model.inverse_dynamics(q, np.zeros((1, 3)), np.zeros((1, 3)))
    r = G.root_residuals(model, q, tau, about="com")
    np.testing.assert_allclose(r.force, [[0, 0, 0]], atol=1e-12)   # gravity along -z: the plane
    np.testing.assert_allclose(r.moment, 0, atol=1e-12)            # holds the weight


def test_residuals_are_the_heaviest_trees_not_a_ball_before_it(osim, tmp_path):
    """A model with two trees from the ground: gait2354 with a ball on a free joint of its own,
    added by OpenSim's API (OpenSim's multibody order puts the ball first, as in
    opensim-models' SoccerKickingModel). The residuals are the body's (the tree carrying the
    most mass): the pelvis', equal to those of the model without the ball; the ball's were
    reported before."""
    folder = os.path.join(DATA, "Gait2354_Simbody")
    plain = os.path.join(folder, "subject01_simbody.osim")
    m = osim.Model(plain)
    ball = osim.Body("ball", 0.43, osim.Vec3(0), osim.Inertia(0.002))
    m.addBody(ball)
    m.addJoint(osim.FreeJoint("ball_free", m.getGround(), osim.Vec3(0.5, 0.11, 0), osim.Vec3(0),
                              ball, osim.Vec3(0), osim.Vec3(0)))
    m.finalizeConnections()
    m.printToXML(str(tmp_path / "with_ball.osim"))
    runs = []
    for path in (plain, str(tmp_path / "with_ball.osim")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)
            model = urdf2dyn.load(path)
            runs.append((model, urdf2dyn.inverse_dynamics_trial(
                model, os.path.join(folder, "subject01_walk1_ik.mot"), processing="opensim",
                external_loads=os.path.join(folder, "subject01_walk1_grf.xml"), filter_hz=6)))
    (_, alone), (model, both) = runs
    assert model.joints[0].name == "ball_free"                    # the ball comes first
    assert both.residuals.names == alone.residuals.names == SETUPS[0][4]
    scale = np.abs(alone.residuals.force).max()
    np.testing.assert_allclose(both.residuals.force, alone.residuals.force, atol=1e-9 * scale)
    np.testing.assert_allclose(both.residuals.moment, alone.residuals.moment, atol=1e-9 * scale)


def test_a_heaviest_tree_without_a_free_root_is_said():
    """opensim-models' SoccerKickingModel: the ball's free joint first, the body on one
    revolute joint: no residuals, and the note names the trees."""
    import gzip
    path = os.path.join(DATA, "Models", "gz", "SoccerKickingModel.osim.gz")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        model = urdf2dyn.load(gzip.decompress(Path(path).read_bytes()))
    assert model.joints[0].name == "free"                         # the ball's
    assert G.root_problem(model) == (
        "model 'SoccerBallKickingModel' has no 6-DoF root (its first joints ['ground_pelvis'] "
        "have 1 DoF; of its 2 trees from the ground the heaviest (ground_pelvis, 70.2 kg) "
        "carries the residuals, not free (0.25 kg)): root residuals need a floating base "
        "(floating_base=True), a 6-DoF root joint or chain of joints through massless links, "
        "or a planar root (one rotation, two translations across it)")
