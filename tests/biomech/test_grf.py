"""Ground reactions as external loads, root residuals and normalization (urdf2dyn.biomech.grf), and the
free-moment columns of urdf2dyn.io.

Oracles: the definition of the residual (applying it to the root cancels the root's generalized
forces), the prismatic and the floating root of the same human (same wrench), Newton-Euler for a
body at rest on its feet, and hand-computed wrenches."""
import os
import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import grf as G
from urdf2dyn.biomech import formats, trajectory
from urdf2dyn.biomech.human import human_model, humod_subject, root_to_floating, standing_configuration
from urdf2dyn.biomech.trajectory import MotionError

from caller_words import assert_says_the_keyword

MASS, HEIGHT, SEX = 57.3, 1.61, "female"


def random_states(model, n, seed=0):
    rng = np.random.default_rng(seed)
    q = np.tile(standing_configuration(HEIGHT, SEX), (n, 1)) + 0.2 * rng.normal(size=(n, 36))
    return q, rng.normal(size=(n, model.nv)), rng.normal(size=(n, model.nv))


# ----------------------------------------------------------------------------- residuals

def test_residual_cancels_the_root_forces():
    model = humod_subject("A")
    q, v, a = random_states(model, 25)
    tau = model.inverse_dynamics(q, v, a)
    res = G.root_residuals(model, q, tau)
    assert res.force.shape == res.moment.shape == res.point.shape == (25, 3)
    assert res.names == ["pBJX", "pBJY", "pBJZ", "rBJX", "rBJY", "rBJZ"]
    np.testing.assert_array_equal(res.generalized, tau[:, :6])
    # the residual applied to the pelvis (as a wrench about the world origin) removes the root's
    # generalized forces and leaves every other joint alone
    w = np.concatenate([res.force, res.moment + np.cross(res.point, res.force)], axis=1)
    tau2 = model.inverse_dynamics(q, v, a, f_ext={"pelvis": w})
    np.testing.assert_allclose(tau2[:, :6], 0, atol=1e-9 * np.abs(tau[:, :6]).max())
    np.testing.assert_allclose(tau2[:, 6:], tau[:, 6:], rtol=1e-12, atol=1e-9)
    # the root origin is the pelvis frame origin, the LLJ (= the prismatic coordinates here)
    np.testing.assert_allclose(res.point, q[:, :3], atol=1e-12)
    # the prismatic root's first three generalized forces are the world force itself
    np.testing.assert_allclose(res.force, tau[:, :3], atol=1e-9)


def test_residual_same_for_floating_root():
    model = humod_subject("A")
    mf = human_model(HEIGHT, MASS, SEX, root="floating")
    q, v, a = random_states(model, 10, seed=1)
    tau = model.inverse_dynamics(q, v, a)
    qf, vf, af = root_to_floating(q, v, a)
    tauf = mf.inverse_dynamics(qf, vf, af)
    r, rf = G.root_residuals(model, q, tau), G.root_residuals(mf, qf, tauf)
    np.testing.assert_allclose(rf.force, r.force, atol=1e-8)
    np.testing.assert_allclose(rf.moment, r.moment, atol=1e-8)
    assert rf.names == ["BJ_vx", "BJ_vy", "BJ_vz", "BJ_wx", "BJ_wy", "BJ_wz"]
    # floating_base=True on the bundled URDF: the added root_joint above 'ground'
    mb = urdf2dyn.load(urdf2dyn.data_path("humod_subject_a.urdf"), floating_base=True)
    assert G.root_chain(mb)[0][0].name == "root_joint"


def test_residual_about_com_and_point_and_single_sample():
    model = humod_subject("A")
    q, v, a = random_states(model, 6, seed=2)
    tau = model.inverse_dynamics(q, v, a)
    r = G.root_residuals(model, q, tau)
    rc = G.root_residuals(model, q, tau, about="com")
    com = model.center_of_mass(q)
    np.testing.assert_allclose(rc.point, com)
    np.testing.assert_allclose(rc.moment, r.moment + np.cross(r.point - com, r.force), atol=1e-9)
    rp = G.root_residuals(model, q, tau, about=[0.0, 0.0, 0.0])
    np.testing.assert_allclose(rp.moment, r.moment + np.cross(r.point, r.force), atol=1e-9)
    one = G.root_residuals(model, q[2], tau[2])
    np.testing.assert_allclose(one.force, r.force[2])
    np.testing.assert_allclose(one.moment, r.moment[2])
    s = r.summary()
    mags = np.linalg.norm(r.force, axis=1)
    assert s["force_max"] == pytest.approx(mags.max())
    assert s["force_rms"] == pytest.approx(np.sqrt(np.mean(mags ** 2)))
    table, names = r.table()
    assert table.shape == (6, 6) and names == ["FX", "FY", "FZ", "MX", "MY", "MZ"]
    with pytest.raises(ValueError, match="about"):
        G.root_residuals(model, q, tau, about="pelvis")


def test_standing_still_has_zero_residual():
    """Standing on both feet, each carrying half the weight under the whole-body CoM."""
    model = humod_subject("A")
    q = standing_configuration(HEIGHT, SEX)
    com = model.center_of_mass(q)
    w = model.total_mass * 9.81 / 2
    f_ext = {"foot_L": urdf2dyn.wrench_at_point([0, w, 0], [com[0], 0, -0.06]),
             "foot_R": urdf2dyn.wrench_at_point([0, w, 0], [com[0], 0, 0.06])}
    tau = model.inverse_dynamics(q, np.zeros(36), np.zeros(36), f_ext=f_ext)
    r = G.root_residuals(model, q, tau)
    np.testing.assert_allclose(r.force, 0, atol=1e-9)
    np.testing.assert_allclose(r.moment, 0, atol=1e-9)
    # without the reactions the residual is the weight, upwards, through the CoM
    tau0 = model.inverse_dynamics(q, np.zeros(36), np.zeros(36))
    r0 = G.root_residuals(model, q, tau0, about="com")
    np.testing.assert_allclose(r0.force, [0, model.total_mass * 9.81, 0], rtol=1e-9)
    np.testing.assert_allclose(r0.moment, 0, atol=1e-9)


def test_no_six_dof_root():
    arm = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    with pytest.raises(ValueError, match="'arm7' has a fixed base"):
        G.root_chain(arm)
    r2 = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    with pytest.raises(ValueError, match="'robot_2R' has a fixed base"):
        G.root_chain(r2)
    # a slide then a turn: 2 DoF, neither free nor planar
    with open(urdf2dyn.data_path("robot2r.urdf")) as f:            # joint2 comes first
        text = f.read().replace('type="continuous"', 'type="prismatic"', 1)
    with pytest.warns(urdf2dyn.URDFWarning, match=r"joint 'joint2': a prismatic joint needs a "
                      r"<limit lower upper effort velocity>"):          # a slide without limits
        slide = urdf2dyn.load(text)
    with pytest.raises(ValueError, match="no 6-DoF root .its first joints .* have 2 DoF"):
        G.root_chain(slide)
    q = np.zeros((2, 7))
    with pytest.raises(ValueError, match="floating base"):
        G.root_residuals(arm, q, q)
    # with a floating base it works, and the residual is the whole body's need
    armf = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"), floating_base=True)
    qf = np.tile(armf.neutral(), (2, 1))
    tau = armf.inverse_dynamics(qf, np.zeros((2, armf.nv)), np.zeros((2, armf.nv)))
    r = G.root_residuals(armf, qf, tau)
    np.testing.assert_allclose(r.force, np.tile([0, 0, armf.total_mass * 9.81], (2, 1)),
                               rtol=1e-9)


def test_massive_intermediate_root_links_are_refused():
    text = """<robot name="r">
      <link name="world"/>
      <link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1"
        iyz="0" izz="1"/></inertial></link>
      <link name="b"/><link name="c"/><link name="d"/><link name="e"/>
      <link name="body"><inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1"
        iyz="0" izz="1"/></inertial></link>
      <joint name="j1" type="prismatic"><parent link="world"/><child link="a"/><axis xyz="1 0 0"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <joint name="j3" type="prismatic"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <joint name="j4" type="continuous"><parent link="c"/><child link="d"/><axis xyz="1 0 0"/></joint>
      <joint name="j5" type="continuous"><parent link="d"/><child link="e"/><axis xyz="0 1 0"/></joint>
      <joint name="j6" type="continuous"><parent link="e"/><child link="body"/><axis xyz="0 0 1"/></joint>
    </robot>"""
    model = urdf2dyn.load(text)
    with pytest.raises(ValueError, match=r"intermediate links \['a'\]"):
        G.root_residuals(model, np.zeros((1, 6)), np.zeros((1, 6)))


def test_opensim_pelvis_is_a_root_and_its_translations_carry_the_residual_force():
    """An .osim's ground_pelvis (one custom joint: three rotations, then translations along
    ground's axes) is a 6-DoF root; the residual force is then, by virtual work, the
    generalized forces of pelvis_tx, _ty, _tz (OpenSim's ID columns). The residuals once
    came from the model's text parsed again in Python, which raised for any .osim."""
    path = os.path.join(os.path.dirname(__file__), "..", "data", "opensim_models", "Models",
                        "gait2392_millard2012muscle.osim")
    model = urdf2dyn.load(path)                     # OpenSim's published model: read silently
    rng = np.random.default_rng(5)
    q = model.default_q + rng.normal(0, 0.3, (4, model.nq))
    tau = model.inverse_dynamics(q, rng.normal(0, 1, (4, model.nv)),
                                 rng.normal(0, 5, (4, model.nv)))
    r = G.root_residuals(model, q, tau)
    t = [model.v_names.index(f"pelvis_t{a}") for a in "xyz"]
    np.testing.assert_allclose(r.force, tau[:, t], rtol=1e-12, atol=1e-9)
    assert r.names == ["pelvis_tilt", "pelvis_list", "pelvis_rotation", "pelvis_tx",
                       "pelvis_ty", "pelvis_tz"]


# ----------------------------------------------------------------------------- reactions

def test_external_loads_nan_and_free_moment():
    model = humod_subject("A")
    n = 5
    t = np.arange(n) * 0.01
    f = np.tile([10.0, 500.0, -3.0], (n, 1))
    p = np.tile([0.1, 0.0, 0.08], (n, 1))
    mom = np.tile([0.0, 2.5, 0.0], (n, 1))
    p[1] = np.nan                               # no contact: CoP undefined
    f[2] = np.nan
    mom[3] = np.nan                             # a missing free moment counts as zero
    reac = trajectory.Trajectory(t, np.zeros((n, 0)), [], grf={"R": f}, cop={"R": p},
                         moment={"R": mom})
    loads = G.external_loads(reac, model)
    assert list(loads) == ["foot_R"]
    w = loads["foot_R"]
    np.testing.assert_array_equal(w[1], 0)
    np.testing.assert_array_equal(w[2], 0)
    np.testing.assert_allclose(w[0], np.r_[f[0], np.cross(p[0], f[0]) + mom[0]])
    np.testing.assert_allclose(w[3], np.r_[f[3], np.cross(p[3], f[3])])


def test_external_loads_interpolation_and_links():
    model = humod_subject("A")
    tr = np.linspace(0, 1, 11)
    f = np.column_stack([tr, 100 + 10 * tr, np.zeros(11)])
    p = np.column_stack([np.zeros(11), np.zeros(11), np.full(11, 0.1)])
    reac = trajectory.Trajectory(tr, np.zeros((11, 0)), [], grf={"L": f, "X": f}, cop={"L": p, "X": p})
    t = np.array([0.05, 0.5, 0.95])
    loads = G.external_loads(reac, model, time=t, links={"X": "foot_L"})
    assert list(loads) == ["foot_L"]                    # two keys on one link add up
    expect = 2 * np.column_stack([t, 100 + 10 * t, 0 * t, -0.1 * (100 + 10 * t), 0.1 * t, 0 * t])
    np.testing.assert_allclose(loads["foot_L"], expect, atol=1e-12)
    with pytest.raises(MotionError, match="cover"):
        G.external_loads(reac, model, time=[0.5, 1.5], links={"X": "foot_L"})
    with pytest.raises(ValueError, match=r"links=\{'X': LINK\}"):       # a library call's words
        G.external_loads(reac, model)
    with pytest.raises(ValueError, match="no link 'shoe'"):
        G.external_loads(reac, model, links={"X": "shoe"})


def test_read_grf_humod_and_opensim_names(tmp_path):
    t = np.arange(4) * 0.1
    cols = {"time": t}
    for ax, val in zip("XYZ", (1.0, 700.0, -2.0)):
        cols[f"grf{ax}_L"] = np.full(4, val)
        cols[f"cop{ax}_L"] = np.full(4, 0.1)
        cols[f"mom{ax}_L"] = np.full(4, 0.5 if ax == "Y" else 0.0)
    path = tmp_path / "g.csv"
    np.savetxt(path, np.column_stack(list(cols.values())), delimiter=",", comments="",
               header=",".join(cols))
    r = G.read_grf(path)
    assert sorted(r.grf) == ["L"] and r.moment["L"][0, 1] == 0.5
    # OpenSim external-loads names, in a .mot file, keys "r" and "l"
    names = ["r_ground_force_vx", "r_ground_force_vy", "r_ground_force_vz", "r_ground_force_px",
             "r_ground_force_py", "r_ground_force_pz", "r_ground_torque_x", "r_ground_torque_y",
             "r_ground_torque_z", "l_ground_force_vx", "l_ground_force_vy", "l_ground_force_vz",
             "l_ground_force_px", "l_ground_force_py", "l_ground_force_pz"]
    data = np.column_stack([t] + [np.full(4, k + 1.0) for k in range(len(names))])
    mot = tmp_path / "g.mot"
    with open(mot, "w") as f:
        f.write(f"grf\nversion=1\nnRows=4\nnColumns={len(names) + 1}\ninDegrees=no\nendheader\n")
        f.write("\t".join(["time"] + names) + "\n")
        for row in data:
            f.write("\t".join(f"{x:g}" for x in row) + "\n")
    r = G.read_grf(mot)
    assert sorted(r.grf) == ["l", "r"] and r.names == []
    np.testing.assert_array_equal(r.grf["r"][0], [1, 2, 3])
    np.testing.assert_array_equal(r.cop["l"][0], [13, 14, 15])
    np.testing.assert_array_equal(r.moment["r"][0], [7, 8, 9])
    assert "l" not in r.moment
    model = humod_subject("A")
    assert G.contact_links(["r", "l"], model) == {"r": "foot_R", "l": "foot_L"}
    r2 = G.read_grf(mot, mapping={"r": "R"})
    assert sorted(r2.grf) == ["R", "l"]
    bad = tmp_path / "none.csv"
    bad.write_text("time,a\n0,1\n1,2\n")
    with pytest.raises(MotionError, match="no ground reaction columns"):
        G.read_grf(bad)


@pytest.mark.parametrize("suffix", [".csv", ".mot"])
def test_a_file_without_ground_reactions_advises_the_librarys_external_loads(tmp_path,
                                                                             suffix):
    """A ground-reaction file without their columns advised "the trial's ExternalLoads file
    (--external-loads)", a flag, to the library: inverse_dynamics_trial's caller is now told
    its keyword external_loads (its signature is the oracle), read_grf's too."""
    motion = urdf2dyn.data_path("robot2r_trajectory.csv")
    loads = tmp_path / f"no_reactions{suffix}"
    formats.write(loads, formats.read(motion))         # joint angles, no ground reaction
    said = []
    for read in (lambda: G.read_grf(loads),
                 lambda: urdf2dyn.inverse_dynamics_trial(urdf2dyn.data_path("robot2r.urdf"),
                                                         motion, loads)):
        with pytest.raises(MotionError, match="no ground reaction columns") as refused:
            read()
        said.append(str(refused.value))
    for message in said:
        assert "or give the trial's ExternalLoads file (external_loads=" in message, message
        assert_says_the_keyword(message, urdf2dyn.inverse_dynamics_trial, "external_loads")


def test_io_free_moment_round_trip(tmp_path):
    t = np.arange(3) * 0.01
    tr = trajectory.Trajectory(t, np.zeros((3, 1)), ["a"], grf={"R": np.ones((3, 3))},
                       cop={"R": np.zeros((3, 3))}, moment={"R": np.full((3, 3), 2.0)})
    for ext in ("csv", "sto"):
        path = tmp_path / f"m.{ext}"
        formats.write(path, tr, **({"forces": True} if ext == "sto" else {}))
        back = formats.read(path)
        np.testing.assert_array_equal(back.moment["R"], tr.moment["R"])
    header = (tmp_path / "m.csv").read_text().splitlines()[0]
    assert "momX_R" in header
    with pytest.raises(ValueError, match="moment"):
        trajectory.Trajectory(t, np.zeros((3, 1)), ["a"], moment={"R": np.zeros((2, 3))})


def test_per_kg():
    model = humod_subject("A")
    tau = np.arange(12.0).reshape(2, 6)
    np.testing.assert_allclose(G.per_kg(tau, model), tau / model.total_mass)
    np.testing.assert_allclose(G.per_kg(tau, 10.0), tau / 10)
    assert G.body_mass(model) == pytest.approx(MASS)
    with pytest.raises(ValueError, match="mass"):
        G.per_kg(tau, 0.0)


@pytest.mark.parametrize("given, times", [(57300.0, "1000 times"), (126.3, "2.2 times"),
                                          (5.73, "0.1 times")])
def test_a_mass_far_from_the_models_is_taken_for_a_unit_slip(given, times):
    """Grams or pounds given as kilograms would scale every per-kg figure: warned, refused
    under strict; a subject heavier or lighter than the generic model is not."""
    model = humod_subject("A")                                   # 57.3 kg
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match=f"{times} the model's 57.3 kg"):
        assert G.body_mass(model, given) == given
    with pytest.raises(ValueError, match="kilograms"):
        G.body_mass(model, given, strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert G.body_mass(model, 80.0) == 80.0 and G.body_mass(model, 40.0) == 40.0


def test_fast_csv_reader_matches_the_csv_module(tmp_path, monkeypatch):
    pytest.importorskip("pandas")
    from urdf2dyn.biomech.formats import csv as csv_format
    rng = np.random.default_rng(3)
    data = rng.normal(size=(50, 4))
    data[3, 2] = np.nan
    path = tmp_path / "x.csv"
    np.savetxt(path, data, delimiter=",", header="a,b,c,d", comments="", fmt="%.17g")
    slow = csv_format.read_table(path)[1]
    monkeypatch.setattr(csv_format, "FAST_CSV_BYTES", 0)
    fast = csv_format.read_table(path)[1]
    np.testing.assert_array_equal(np.isnan(fast), np.isnan(slow))
    np.testing.assert_allclose(fast, slow, rtol=1e-15)
    # anything pandas does not read cleanly goes through the csv module, with its messages
    path.write_text("a,b\n1,2\n3,x\n")
    with pytest.raises(MotionError, match="line 3, column 'b': 'x' is not a number"):
        formats.read_table(path)
    path.write_text("a,b\n1,2\n3\n")
    with pytest.raises(MotionError, match="line 3 has 1 values"):
        formats.read_table(path)


def test_reactions_named_without_a_side_are_asked_for_all_at_once():
    """OpenSim's published subject01_walk1_grf.mot names its first foot ground_force_v* (no
    prefix) and its second 1_ground_force_v*: one refusal names both and the model's feet."""
    model = urdf2dyn.load(os.path.join(os.path.dirname(__file__), os.pardir, "data", "ik",
                                       "gait2392", "subject01_simbody.osim"))
    reactions = G.read_grf(os.path.join(os.path.dirname(__file__), os.pardir, "data", "ik",
                                        "gait2392", "subject01_walk1_grf.mot"))
    assert sorted(reactions.grf) == ["", "1"]
    with pytest.raises(ValueError, match=r"ground reactions '' \(the unprefixed ground_force_\* "
                                         r"columns\) and '1'.*links=\{'': LINK, '1': "
                                         r"LINK\}.*feet calcn_r, calcn_l.*external_loads="):
        G.contact_links(sorted(reactions.grf), model)
    assert G.contact_links(["", "1"], model, {"": "calcn_r", "1": "calcn_l"}) == {
        "": "calcn_r", "1": "calcn_l"}


def test_a_missing_ground_reaction_column_is_named(tmp_path):
    """A new user's ground reactions without grfY_L gave "incomplete grf columns for 'L':
    have ['X', 'Z']": the file and the missing columns by their names, OpenSim's too."""
    p = tmp_path / "walk_grf.csv"
    p.write_text("time,grfX_L,grfZ_L,copX_L,copY_L,copZ_L\n0,1,2,0,0,0\n1,1,2,0,0,0\n")
    with pytest.raises(MotionError, match=r"walk_grf\.csv: missing column grfY_L: the force of "
                                          r"the ground reaction 'L' has grfX_L, grfZ_L only: "
                                          r"add it"):
        G.read_grf(p)
    p.write_text("time,grfX_L,grfY_L,grfZ_L,copX_L\n0,1,2,3,0\n1,1,2,3,0\n")
    with pytest.raises(MotionError, match=r"missing columns copY_L, copZ_L: the centre of "
                                          r"pressure"):
        G.read_grf(p)
    p.write_text("time,grfX_L,grfY_L,grfZ_L\n0,1,2,3\n1,1,2,3\n")
    with pytest.raises(MotionError, match=r"walk_grf\.csv: the ground reaction 'L' has a force "
                                          r"but no centre of pressure: missing columns copX_L "
                                          r"copY_L copZ_L"):
        G.read_grf(p)
    mot = tmp_path / "walk_grf.mot"
    mot.write_text("walk_grf\nversion=1\nnRows=2\nnColumns=4\ninDegrees=no\nendheader\n"
                   "time\t1_ground_force_vx\t1_ground_force_vz\t1_ground_torque_x\n"
                   "0\t1\t2\t0\n1\t1\t2\t0\n")
    with pytest.raises(MotionError, match=r"walk_grf\.mot: missing column 1_ground_force_vy: "
                                          r"the force of the ground reaction '1' has "
                                          r"1_ground_force_vx, 1_ground_force_vz only"):
        G.read_grf(mot)


OPENSIM_CORE = os.path.join(os.path.dirname(__file__), "..", "data", "opensim_core")


def _opensim_external_forces(osim, folder, times):
    """OpenSim's own reading of grf_walk.xml + grf_walk.mot: {body: (force, point, torque)},
    each (len(times), 3), from ExternalForce on a model holding just the two feet."""
    om = osim.Model()
    for side in "rl":
        body = osim.Body(f"calcn_{side}", 1.0, osim.Vec3(0), osim.Inertia(0.1))
        om.addBody(body)
        om.addJoint(osim.WeldJoint(f"weld_{side}", om.getGround(), body))
    loads = osim.ExternalLoads(os.path.join(folder, "grf_walk.xml"), True)
    data = osim.Storage(os.path.join(folder, "grf_walk.mot"))
    for i in range(loads.getSize()):
        ef = loads.get(i).clone()
        ef.setDataSource(data)
        om.addForce(ef)
    om.initSystem()
    out = {}
    for i in range(om.getForceSet().getSize()):
        ef = osim.ExternalForce.safeDownCast(om.getForceSet().get(i))
        get = (ef.getForceAtTime, ef.getPointAtTime, ef.getTorqueAtTime)
        out[ef.get_applied_to_body()] = [np.array([g(t).to_numpy() for t in times]) for g in get]
    return out


def test_opensim_side_infix_names_are_ground_reactions():
    """OpenSim's own examples name the sides inside the columns (ground_force_r_vx,
    ground_force_r_px, ground_torque_r_x: Moco's example3DWalking, opensim-models' Rajagopal
    pipeline, AddBiomechanics' exports); they are read as keys r and l on calcn_r / calcn_l,
    each column where OpenSim's ExternalForce (the example's own grf_walk.xml) takes it."""
    osim = pytest.importorskip("opensim")
    path = os.path.join(OPENSIM_CORE, "grf_walk.mot")
    r = G.read_grf(path)
    assert sorted(r.grf) == ["l", "r"] and r.names == []
    theirs = _opensim_external_forces(osim, OPENSIM_CORE, r.time)
    for key in "rl":
        force, point, torque = theirs[f"calcn_{key}"]
        np.testing.assert_allclose(r.grf[key], force, rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(r.cop[key], point, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(r.moment[key], torque, rtol=1e-12, atol=1e-12)
    model = urdf2dyn.load(os.path.join(OPENSIM_CORE, "..", "opensim_models", "Gait10dof18musc",
                                       "subject01.osim"))
    assert G.contact_links(["r", "l"], model) == {"r": "calcn_r", "l": "calcn_l"}
