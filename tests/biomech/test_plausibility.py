"""Plausibility warnings (urdf2dyn.Urdf2dynWarning; errors under strict / --strict): angles that
look like degrees (or radians given with --degrees), joint limits, Hicks et al. (2015) residual
bounds, centres of pressure far from the foot, force and motion sampling rates, and a batch in
which one trial lacks its ground reactions. Each mix-up is made on the bundled running trial;
the clean trial gives no warning at all."""
import math
import os
import re
import shutil
import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import formats, trajectory
from urdf2dyn.cli import main
from urdf2dyn.biomech.human import humod_subject

from recording_files import GRF, HUMAN, MOTION, to_pandas_csv, trial

W = urdf2dyn.Urdf2dynWarning


@pytest.fixture(scope="module")
def model():
    return humod_subject("A")


def run(model, motion=MOTION, grf=GRF, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", W)
        return urdf2dyn.inverse_dynamics_trial(model, motion, grf, **kw)


def test_clean_trial_has_no_warning(model):
    with warnings.catch_warnings():
        warnings.simplefilter("error", W)
        res = urdf2dyn.inverse_dynamics_trial(model, MOTION, GRF)
    assert res.warnings == []
    # the residuals of the bundled trial are within Hicks et al.'s bounds
    s = res.residuals.summary()
    assert s["force_max"] < 0.05 * res.load_peak


def test_degrees_read_as_radians(tmp_path, model, capsys):
    """Issue 8: hip extension 2947 N·m/kg and a residual of 48 000 %, printed without a hint."""
    motion, _ = trial()
    path = to_pandas_csv(tmp_path / "deg.csv", motion, degrees=True, model=model, index=False)
    res = run(model, path)
    assert any("look like degrees: pass degrees=True if they are" in w for w in res.warnings)
    assert any("outside their URDF limits" in w for w in res.warnings)
    assert any("root residual force" in w and "Hicks" in w for w in res.warnings)
    with pytest.raises(trajectory.MotionError, match="look like degrees"):
        urdf2dyn.inverse_dynamics_trial(model, path, GRF, strict=True)
    assert main(["torques", HUMAN, str(path), "--grf", GRF]) == 0
    err = capsys.readouterr().err
    assert "warning: " in err and "look like degrees" in err
    assert main(["torques", HUMAN, str(path), "--grf", GRF, "--strict"]) == 1
    assert "look like degrees" in capsys.readouterr().err
    # declared as degrees: right, and silent
    ok = run(model, path, degrees=True)
    assert ok.warnings == []
    np.testing.assert_allclose(ok.tau, run(model).tau, atol=1e-6)


def test_radians_declared_as_degrees(tmp_path, model):
    res = run(model, MOTION, degrees=True)
    assert any("look like radians" in w for w in res.warnings)


def test_joint_limits(tmp_path):
    arm = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    t = np.arange(30) * 0.01
    lim = arm.joints[1].limit[1]                                  # 1.7628 rad
    for beyond, warned in ((0.2, False), (0.5, True)):
        q = np.zeros((30, arm.nq))
        q[:, 1] = np.linspace(0, lim + beyond, 30)
        path = tmp_path / "arm.csv"
        formats.write_table(path, t, q, arm.q_names)
        res = run(arm, path, None)
        hit = [w for w in res.warnings if "outside their URDF limits" in w]
        assert bool(hit) is warned
        if warned:
            assert f"arm7_joint2: {lim + beyond:.4g} rad at t = 0.29 s" in hit[0]


def test_residual_bound_when_the_ground_reactions_are_too_small(tmp_path, model):
    _, reac = trial()
    for side in "LR":
        reac.grf[side] *= 0.8
        reac.moment[side] *= 0.8
    path = tmp_path / "weak_grf.csv"
    formats.write_csv(path, reac)
    res = run(model, MOTION, path)
    msg = [w for w in res.warnings if "root residual force" in w]
    assert msg and "% of the peak ground reaction" in msg[0] and "Hicks et al. 2015" in msg[0]


def test_residual_moment_bound(tmp_path, model):
    """Moving every centre of pressure 5 cm forward leaves the force balanced but not the
    moment: RMS residual moment above 1 % of CoM height x peak force."""
    _, reac = trial()
    for side in "LR":
        reac.cop[side][:, 0] += 0.05
    path = tmp_path / "shifted_grf.csv"
    formats.write_csv(path, reac)
    res = run(model, MOTION, path)
    assert any("residual moment RMS" in w for w in res.warnings)
    assert not any("residual force" in w for w in res.warnings)


def test_centre_of_pressure_far_from_the_foot(tmp_path, model):
    _, reac = trial()
    reac.cop["R"][:, 2] += 0.5                    # half a metre to the side
    path = tmp_path / "far_grf.csv"
    formats.write_csv(path, reac)
    res = run(model, MOTION, path)
    far = [w for w in res.warnings if "centre of pressure of 'R'" in w]
    assert far and "from the origin of 'foot_R'" in far[0]


def test_centre_of_pressure_in_millimetres(tmp_path, model):
    _, reac = trial()
    for side in "LR":
        reac.cop[side] *= 1000.0
    path = tmp_path / "mm_grf.csv"
    formats.write_csv(path, reac)
    res = run(model, MOTION, path)
    assert any("length unit (mm?)" in w for w in res.warnings)


def _humod_mat(path, motion, reac, factor):
    """A HuMoD .mat file, field by field with scipy.io.savemat: motion.trajectoryLabels,
    motion.trajectory.q (rows = labels, mm for pBJ*), motion.frameRate; force.grfX_L ..,
    force.copX_L .. (mm) at factor x the motion's rate, force.frameRate."""
    sio = pytest.importorskip("scipy.io")
    rate = 200.0
    q = motion.q.copy()
    lin = np.array([n.startswith("pBJ") for n in motion.names])
    q[:, lin] *= 1000.0
    m = {"frameRate": rate, "frames": len(motion.time),
         "trajectoryLabels": np.array(motion.names, dtype=object).reshape(1, -1),
         "trajectory": {"q": q.T}}
    nf = int(math.floor((len(motion.time) - 1) * factor)) + 1
    tf = np.arange(nf) / (factor * rate)
    force = {"frameRate": factor * rate, "frames": nf}
    for side in "LR":
        for kind, d, scale in (("grf", reac.grf, 1.0), ("cop", reac.cop, 1000.0)):
            x = np.nan_to_num(d[side])
            for c, ax in enumerate("XYZ"):
                force[f"{kind}{ax}_{side}"] = (np.interp(tf, motion.time, x[:, c]) * scale
                                               ).reshape(1, -1)
    sio.savemat(path, {"motion": m, "force": force})
    return path


def test_humod_mat_forces_at_twice_the_motion_rate_are_fine(tmp_path, model):
    motion, reac = trial()
    path = _humod_mat(tmp_path / "run.mat", motion, reac, 2)
    res = run(model, path, None)
    assert not any("sampled at" in w for w in res.warnings)
    assert res.record["units"] == "radians (HuMoD)" and res.f_ext
    ref = run(model)
    np.testing.assert_allclose(res.q, ref.q, atol=1e-12)
    # the same ground reactions (the free moment is not part of HuMoD's file)
    on = reac.grf["R"][:, 1] > 20
    np.testing.assert_allclose(res.reactions.grf["R"][on], reac.grf["R"][on], atol=1e-9)


def test_humod_mat_forces_at_a_non_integer_rate_warn(tmp_path, model):
    motion, reac = trial()
    path = _humod_mat(tmp_path / "run.mat", motion, reac, 2.5)
    res = run(model, path, None)
    msg = [w for w in res.warnings if "not an integer multiple" in w]
    assert msg and "500 Hz" in msg[0] and "200 Hz" in msg[0]


def test_force_file_at_a_non_integer_rate_warns(tmp_path, model):
    motion, reac = trial()
    t = np.arange(0, motion.time[-1] + 1e-9, 1 / 300.0)
    grf = {s: np.column_stack([np.interp(t, reac.time, reac.grf[s][:, c]) for c in range(3)])
           for s in "LR"}
    cop = {s: np.column_stack([np.interp(t, reac.time, np.nan_to_num(reac.cop[s][:, c]))
                               for c in range(3)]) for s in "LR"}
    path = tmp_path / "r300_grf.csv"
    formats.write_csv(path, trajectory.Trajectory(t, np.zeros((len(t), 0)), [], grf=grf, cop=cop))
    res = run(model, MOTION, path)
    assert any("300 Hz" in w and "not an integer multiple" in w for w in res.warnings)
    # the 300 Hz clock stops 1.7 ms before the motion's last sample: that sample gets the last
    # force sample, with a warning; a force file a whole sample shorter is refused
    assert any("shorter than the motion's" in w for w in res.warnings)
    short = trajectory.Trajectory(t[:-2], np.zeros((len(t) - 2, 0)), [],
                          grf={s: x[:-2] for s, x in grf.items()},
                          cop={s: x[:-2] for s, x in cop.items()})
    formats.write_csv(path, short)
    with pytest.raises(trajectory.MotionError, match="cut the motion"):
        run(model, MOTION, path)


def test_batch_with_a_missing_force_file(tmp_path, model, capsys):
    """Issue 8: a folder trial without <stem>_grf.* ran with no ground reactions (residual
    3313 N) next to trials that had them, without a note."""
    for stem in ("a", "b", "c"):
        shutil.copy(MOTION, tmp_path / f"{stem}.csv")
    for stem in ("a", "c"):
        shutil.copy(GRF, tmp_path / f"{stem}_grf.csv")
    # the batch's note, and the trial's own: its feet step, so loads were expected
    with (pytest.warns(W, match=r"1 of 3 trials have no ground reactions.*b\.csv"),
          pytest.warns(W, match=r"b\.csv: the feet \(foot_L, foot_R\) step down to the floor "
                                r"and lift off it again.*no ground reaction is given.*Give the "
                                r"loads")):
        results = urdf2dyn.run_trials(model, tmp_path, max_workers=1)
    assert [bool(r.f_ext) for r in results] == [True, False, True]
    batch, = (w for w in results[1].warnings if "no ground reactions" in w)
    assert "(or grf=FILE, a pattern naming {stem})" in batch and "--grf" not in batch
    assert main(["torques", HUMAN, str(tmp_path), "--no-progress", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "warning: 1 of 3 trials have no ground reactions" in err and "b.csv" in err
    assert "(or --grf FILE, a pattern naming {stem})" in err and "grf=" not in err
    assert main(["torques", HUMAN, str(tmp_path), "--no-progress", "--jobs", "1",
                 "--strict"]) == 1


def test_gravity_parallel_to_every_joint_axis():
    """The thesis' 2R arm turns about z in the vertical x-y plane (its URDF says so); run with
    the URDF default gravity along z, no joint carries weight: warned, with the axis that
    loads the joints. With that gravity nothing is said, and the gravity torques are the
    thesis' closed form."""
    arm = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    path = urdf2dyn.data_path("robot2r_trajectory.csv")
    with pytest.warns(W, match=r"gravity \(0 0 -9.81\) no joint carries any weight.*"
                               r"set it: model\.gravity = \(0, -9\.81, 0\)$"):
        res = urdf2dyn.inverse_dynamics_trial(arm, path)
    assert [f.check for f in res.findings if f.severity == "warning"] == ["weightless"]
    np.testing.assert_array_equal(arm.gravity, [0, 0, -9.81])    # the check's probe is a copy
    arm.gravity = (0, -9.81, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", W)
        res = urdf2dyn.inverse_dynamics_trial(arm, path)
    # the thesis' closed form (eq. 2.20), gravity terms at the trial's configurations:
    # g1 = (m1 lc1 + m2 l1) g cos q1 + m2 lc2 g cos(q1 + q2), g2 = m2 lc2 g cos(q1 + q2)
    q = res.q
    g2 = 5 * 1 * 9.81 * np.cos(q[:, 0] + q[:, 1])
    g1 = (3 * 1 + 5 * 2) * 9.81 * np.cos(q[:, 0]) + g2
    np.testing.assert_allclose(arm.gravity_torques(q), np.c_[g1, g2], rtol=1e-12, atol=1e-12)


def test_degrees_on_continuous_joints(tmp_path):
    """A continuous joint may turn any number of times, so its angle alone proves nothing;
    but the 2R arm's trial written in degrees swings each joint back and forth by about 100
    'rad' (16 turns each way): warned. A wheel turning one way through 20 turns is not."""
    arm = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    arm.gravity = (0, -9.81, 0)
    names, table = formats.read_table(urdf2dyn.data_path("robot2r_trajectory.csv"))
    path = tmp_path / "deg.csv"
    formats.write_table(path, table[:, 0], np.degrees(table[:, 1:]), names[1:])
    with pytest.warns(W, match=r"joint1 \(continuous\) swinging back and forth by 10\d.*"
                               r"pass degrees=True"):
        urdf2dyn.inverse_dynamics_trial(arm, path)
    t = np.linspace(0, 2, 201)
    wheel = np.c_[20 * 2 * np.pi * t / 2, 0.3 * np.sin(2 * np.pi * t)]      # joint2: 17 deg
    formats.write_table(tmp_path / "wheel.csv", t, wheel, ["joint1", "joint2"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", W)
        urdf2dyn.inverse_dynamics_trial(arm, tmp_path / "wheel.csv")


def test_ground_reactions_on_another_clock_are_refused(tmp_path, model):
    """A new user's ground reactions with their time in ms (0 .. 3395 "s") ran: the motion's
    3.4 s saw only the first, weightless force samples, warned about as a 0.2 Hz rate and
    as "no ground reaction is given" although --grf was given. Times ~1000x the motion's are
    refused as milliseconds; times that do not overlap the motion's are refused too."""
    _, reac = trial()
    path = tmp_path / "ms_grf.csv"
    formats.write_csv(path, trajectory.Trajectory(reac.time * 1000, np.zeros((len(reac), 0)),
                                                  [], grf=reac.grf, cop=reac.cop,
                                                  moment=reac.moment))
    with pytest.raises(trajectory.MotionError,
                       match=r"ms_grf\.csv: the ground reactions' times \(0 \.\. 3395 s\) span "
                             r"1000 times the motion's \(0 \.\. 3\.395 s\): the ground "
                             r"reactions' time column looks like milliseconds"):
        run(model, MOTION, path)
    assert main(["torques", HUMAN, MOTION, "--grf", str(path)]) == 1
    path = tmp_path / "late_grf.csv"
    formats.write_csv(path, trajectory.Trajectory(reac.time + 100, np.zeros((len(reac), 0)),
                                                  [], grf=reac.grf, cop=reac.cop))
    with pytest.raises(trajectory.MotionError,
                       match=r"late_grf\.csv: the ground reactions' times \(100 \.\. 103\.395 "
                             r"s\) do not overlap the motion's \(0 \.\. 3\.395 s\)"):
        run(model, MOTION, path)

    # a 1000 times longer recording around the motion is on the motion's clock: not ms
    t = reac.time
    long_t = np.concatenate([np.linspace(-1600, t[0], 50, endpoint=False), t,
                             np.linspace(t[-1], t[-1] + 1700, 51)[1:]])
    pad = {s: np.concatenate([np.zeros((50, 3)), x, np.zeros((50, 3))])
           for s, x in reac.grf.items()}
    cop = {s: np.concatenate([np.repeat(x[:1], 50, 0), x, np.repeat(x[-1:], 50, 0)])
           for s, x in reac.cop.items()}
    moment = {s: np.concatenate([np.zeros((50, 3)), x, np.zeros((50, 3))])
              for s, x in reac.moment.items()}
    path = tmp_path / "session_grf.csv"
    formats.write_csv(path, trajectory.Trajectory(long_t, np.zeros((len(long_t), 0)), [],
                                                  grf=pad, cop=cop, moment=moment))
    np.testing.assert_allclose(run(model, MOTION, path, filter_loads=False).tau,
                               run(model, MOTION, GRF, filter_loads=False).tau,
                               rtol=1e-9, atol=1e-9)


def test_weightless_ground_reactions_given_are_not_called_missing(tmp_path, model):
    """Ground reactions given but never bearing weight over the motion: the warning says so,
    naming them, not "no ground reaction is given"."""
    _, reac = trial()
    path = tmp_path / "zero_grf.csv"
    zero = {s: np.zeros_like(x) for s, x in reac.grf.items()}
    formats.write_csv(path, trajectory.Trajectory(reac.time, np.zeros((len(reac), 0)), [],
                                                  grf=zero, cop=reac.cop))
    res = run(model, MOTION, path)
    msg, = [w for w in res.warnings if "step down to the floor" in w]
    assert "no ground reaction is given" not in msg
    assert f"the loads given ({path}) bear no weight over the motion's t = 0 .. 3.395 s" in msg


@pytest.mark.parametrize("unit,divisor", [("kgf", 9.81), ("% body weight", 57.3 * 9.81 / 100)])
def test_ground_reactions_in_another_force_unit_are_warned_about(tmp_path, model, unit,
                                                                 divisor):
    """The bundled running trial's reactions in kgf (peak 139 N-as-written for a 562 N
    body) or in % of body weight (peak ~250): they never hold up half the weight, which
    walking, running or standing always does at some point; the warning names the file and
    the factor that makes them newtons. In N they are quiet (test_clean_trial_has_no_warning)."""
    _, reac = trial()
    path = tmp_path / "grf_other_unit.csv"
    scaled = {s: x / divisor for s, x in reac.grf.items()}
    formats.write_csv(path, trajectory.Trajectory(reac.time, np.zeros((len(reac), 0)), [],
                                                  grf=scaled, cop=reac.cop, moment=reac.moment))
    res = run(model, MOTION, path)
    light, = [f for f in res.findings if f.check == "light_loads"]
    assert light.severity == "warning"
    assert light.message.startswith(f"{path}: the loads hold the body up by ")
    assert "of its weight (562 N, 57.3 kg)" in light.message
    assert ("normalized to body weight need multiplying by 562 N, in % of it by 5.621 N, "
            "kgf by 9.81") in light.message
    with pytest.raises(ValueError, match="the loads hold the body up by"):
        urdf2dyn.inverse_dynamics_trial(model, MOTION, path, strict=True)


def test_ground_reactions_normalized_to_body_weight_are_said_to_bear_nothing(tmp_path, model):
    """Reactions in body weights (peaks of 1-3 'N') are below any contact: the missing-loads
    warning says so, and names their unit among what to check."""
    _, reac = trial()
    path = tmp_path / "grf_bw.csv"
    scaled = {s: x / (57.3 * 9.81) for s, x in reac.grf.items()}
    formats.write_csv(path, trajectory.Trajectory(reac.time, np.zeros((len(reac), 0)), [],
                                                  grf=scaled, cop=reac.cop, moment=reac.moment))
    res = run(model, MOTION, path)
    msg, = [w for w in res.warnings if "step down to the floor" in w]
    assert "their force unit (N" in msg
    assert not [f for f in res.findings if f.check == "light_loads"]


def test_a_robot_pushed_by_a_small_load_is_not_told_about_body_weight():
    """The 2R arm on a floating base (so with root residuals) with a 5 N load on its tip (a
    tool's force, given as a reaction with its contact link): a body without feet stands on
    nothing, so its loads are not compared with its weight."""
    arm = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"), floating_base=True)
    t = np.linspace(0, 1, 51)
    q = np.zeros((len(t), arm.nq))
    q[:, 6] = 1.0                                          # the root's unit quaternion
    q[:, 7:] = np.column_stack([np.sin(t), np.cos(t)])
    motion = trajectory.Trajectory(t, q, list(arm.q_names))
    push = trajectory.Trajectory(t, np.zeros((len(t), 0)), [],
                                 grf={"R": np.tile([0.0, 5.0, 0.0], (len(t), 1))},
                                 cop={"R": np.tile([1.0, 0.0, 0.0], (len(t), 1))})
    res = run(arm, motion, push, contacts={"R": "link2"})
    assert res.residuals is not None
    assert np.abs(res.tau - run(arm, motion, None).tau).max() > 1.0      # the load acts
    assert not [f for f in res.findings if f.check == "light_loads"]


def test_light_loads_are_not_checked_on_a_fixed_base(tmp_path):
    """A fixed-base arm (the world holds it: no root residuals) with a load at its hand:
    nothing is expected to hold up its weight but the world, so no light-loads warning,
    and strict runs it."""
    arm = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    motion = urdf2dyn.data_path("arm7_trajectory.csv")
    t = np.loadtxt(motion, delimiter=",", skiprows=1)[:, 0]
    path = tmp_path / "hand_load.csv"
    formats.write_csv(path, trajectory.Trajectory(
        t, np.zeros((len(t), 0)), [], grf={"R": np.tile([0.0, 0.0, 20.0], (len(t), 1))},
        cop={"R": np.tile([0.5, 0.0, 0.5], (len(t), 1))}))
    res = run(arm, motion, path, contacts={"R": "arm7_hand"})
    assert res.residuals is None
    assert not [f for f in res.findings if f.check == "light_loads"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", W)
        urdf2dyn.inverse_dynamics_trial(arm, motion, path, contacts={"R": "arm7_hand"},
                                        strict=True)


RAJAGOPAL = os.path.join(os.path.dirname(__file__), os.pardir, "data", "opensim_models",
                         "Models", "Rajagopal2016.osim")


def _knee_motion(path, beta_of_knee):
    """A radians .mot of Rajagopal2016's coordinates at their defaults, both knees bending
    0.2 -> 1.0 rad, each knee_angle_<side>_beta written as beta_of_knee(knee)."""
    model = urdf2dyn.load(RAJAGOPAL)
    t = np.linspace(0.0, 0.5, 51)
    knee = 0.2 + 0.8 * np.sin(np.pi * t) ** 2
    cols = {"time": t}
    for n in model.q_names:
        cols[n] = np.full(len(t), model.coordinates[n].default)
    for side in "rl":
        cols[f"knee_angle_{side}"] = knee
        cols[f"knee_angle_{side}_beta"] = beta_of_knee(knee)
    with open(path, "w") as f:
        f.write(f"motion\nversion=1\nnRows={len(t)}\nnColumns={len(cols)}\ninDegrees=no\n"
                "endheader\n" + "\t".join(cols) + "\n")
        for row in np.column_stack(list(cols.values())):
            f.write("\t".join(f"{x:.10g}" for x in row) + "\n")
    return knee


def test_a_coupled_coordinate_off_its_constraint_is_named(tmp_path):
    """OpenSim's own Moco example3DWalking coordinates.sto (a radians file) holds
    knee_angle_r_beta in degrees, 57.3 times knee_angle_r, where the model's
    CoordinateCouplerConstraint says they are equal: the patella then turns through tens of
    radians and the hips' moments come out hundreds of N·m off, with only the residuals'
    warning. Such a column is named, with the factor and what to do. Oracle: OpenSim's
    CoordinateCouplerConstraint function of the same model for the value beta should have."""
    osim = pytest.importorskip("opensim")
    om = osim.Model(RAJAGOPAL)
    con = osim.CoordinateCouplerConstraint.safeDownCast(
        om.getConstraintSet().get("patellofemoral_knee_angle_r_con"))
    fn = con.getFunction()

    def opensims(knee):
        return np.array([fn.calcValue(osim.Vector(1, float(x))) for x in knee])

    good, bad = tmp_path / "good.mot", tmp_path / "bad.mot"
    knee = _knee_motion(good, opensims)
    _knee_motion(bad, lambda k: np.degrees(opensims(k)))
    assert np.abs(np.degrees(opensims(knee)) - opensims(knee)).max() > 10   # off by OpenSim
    for path, expect in ((good, None), (bad, r"knee_angle_r_beta.*57\.3 times")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", W)
            res = urdf2dyn.inverse_dynamics_trial(urdf2dyn.load(RAJAGOPAL), str(path))
        said = [str(w.message) for w in caught if "CoordinateCouplerConstraint" in
                str(w.message)]
        if expect is None:
            assert said == [], said
        else:
            assert len(said) == 1 and re.search(expect, said[0]), said
            assert "knee_angle_l_beta" in said[0], said
            # the library's way: load the model so (inverse_dynamics_trial has no such keyword)
            assert "(urdf2dyn.load(MODEL, couplers='eliminate'))" in said[0], said
            assert any("CoordinateCouplerConstraint" in x for x in res.warnings)


LEG39 = os.path.join(os.path.dirname(__file__), os.pardir, "data", "ik", "leg39", "leg39.osim.gz")


@pytest.fixture(scope="module")
def leg39(tmp_path_factory):
    """opensim-models' Leg39 (Delp's leg, Arnold's knee): CoordinateCouplerConstraints move the
    tibia (tib_tx_r, tib_ty_r: translational) and the patella (pat_tx_r, pat_ty_r; pat_angle_r:
    rotational) with knee_angle_r; with OpenSim's functions of them (the oracle)."""
    import gzip
    osim = pytest.importorskip("opensim")
    osim.Logger.setLevelString("error")
    path = tmp_path_factory.mktemp("leg39") / "leg39.osim"
    with open(LEG39, "rb") as f:
        path.write_bytes(gzip.decompress(f.read()))
    om = osim.Model(os.fspath(path))
    functions = {}
    for k in range(om.getConstraintSet().getSize()):
        con = osim.CoordinateCouplerConstraint.safeDownCast(om.getConstraintSet().get(k))
        assert con.getIndependentCoordinateNames().get(0) == "knee_angle_r"
        functions[con.getDependentCoordinateName()] = con.getFunction().clone()

    def opensims(dependent, knee):
        fn = functions[dependent]
        return np.array([fn.calcValue(osim.Vector(1, float(x))) for x in knee])
    return os.fspath(path), opensims


def _leg39_motion(path, opensims, off, factor):
    """A radians .mot of Leg39, the knee bending -0.2 -> -1.0 rad, every coupler's dependent
    column OpenSim's function of the knee but off's, written factor times it; the time and
    the largest gap |factor - 1| |f(knee)| of that column."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        model = urdf2dyn.load(path)
    t = np.linspace(0.0, 0.5, 51)
    knee = -0.2 - 0.8 * np.sin(np.pi * t) ** 2
    cols = {"time": t}
    for n in model.q_names:
        cols[n] = np.full(len(t), model.coordinates[n].default)
    cols["knee_angle_r"] = knee
    for c in model.couplers:
        cols[c.dependent] = opensims(c.dependent, knee)
    gap = np.abs(cols[off] * (factor - 1.0))
    cols[off] = cols[off] * factor
    with open(path.replace(".osim", f"_{off}.mot"), "w") as f:
        f.write(f"motion\nversion=1\nnRows={len(t)}\nnColumns={len(cols)}\ninDegrees=no\n"
                "endheader\n" + "\t".join(cols) + "\n")
        for row in np.column_stack(list(cols.values())):
            f.write("\t".join(f"{x:.12g}" for x in row) + "\n")
    return f.name, t[np.argmax(gap)], gap.max()


def _coupler_warnings(model_path, motion):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", W)
        urdf2dyn.inverse_dynamics_trial(urdf2dyn.load(model_path), motion)
    return [str(w.message) for w in caught if w.category is W and
            "CoordinateCouplerConstraint" in str(w.message)]


@pytest.mark.parametrize("factor", [math.degrees(1.0), 900.0])
def test_a_translational_coupler_off_its_function_gets_no_degrees_advice(leg39, factor):
    """Leg39's tib_tx_r (a tibia translation, m) written 57.3 times (or 900 times: neither
    degrees nor millimetres) OpenSim's function of the knee: named, its gap given in metres
    as OpenSim's function makes it, the other couplers (held) not named, and no word of
    degrees: a translation is never in degrees, whatever its factor (the advice once went to
    any coordinate whose factor was 57.3); nor of millimetres, 10 % off 1000."""
    path, opensims = leg39
    motion, t_worst, gap = _leg39_motion(path, opensims, "tib_tx_r", factor)
    assert gap > 0.1                                     # far beyond the 5 mm margin
    said = _coupler_warnings(path, motion)
    assert len(said) == 1, said
    m = re.search(r"tib_tx_r up to (\S+) m off knee_tx_r's function of knee_angle_r "
                  r"\(at t = (\S+) s\)", said[0])
    assert m, said[0]
    assert float(m.group(1)) == pytest.approx(gap, rel=5e-3)      # written to 3 digits
    assert float(m.group(2)) == pytest.approx(t_worst, abs=5e-3)
    assert "degrees" not in said[0] and "times it" not in said[0]
    assert "millimetres" not in said[0]
    for held in ("tib_ty_r", "pat_tx_r", "pat_ty_r", "pat_angle_r"):
        assert held not in said[0]


#: Leg39's dependent coordinates, each moved by one CoordinateCouplerConstraint
LEG39_DEPENDENT = ("tib_tx_r", "tib_ty_r", "pat_tx_r", "pat_ty_r", "pat_angle_r")


@pytest.mark.parametrize("coordinate,function,factor,unit,words,other", [
    ("tib_tx_r", "knee_tx_r", 1000.0, "m", "millimetres where metres", "degrees"),
    ("tib_tx_r", "knee_tx_r", 1000.0 * 1.02, "m", "millimetres where metres", "degrees"),
    ("tib_tx_r", "knee_tx_r", 1000.0 / 1.02, "m", "millimetres where metres", "degrees"),
    ("pat_angle_r", "pat_angle_r", math.degrees(1.0), "rad", "degrees where radians",
     "millimetres"),
], ids=["tibia in mm", "tibia in mm +2 %", "tibia in mm -2 %", "patella in degrees"])
def test_a_coupler_in_another_unit_is_told_so(leg39, coordinate, function, factor, unit,
                                              words, other):
    """A Leg39 coupler's dependent coordinate written in another unit than the file's: the
    tibia translation tib_tx_r in millimetres, 1000 times OpenSim's function of the knee
    (give or take 2 %: a function near but not exactly the model's), or the patella rotation
    pat_angle_r in degrees in a radians file, 57.3 times it. Named with its gap in the unit
    OpenSim's function makes it, and told how many times that function it is, so in which
    unit where the file's is read (the warning said only that it was off, leaving the user to
    guess why); the other unit is not suggested, the other couplers not named."""
    path, opensims = leg39
    motion, _, gap = _leg39_motion(path, opensims, coordinate, factor)
    said = _coupler_warnings(path, motion)
    assert len(said) == 1, said
    m = re.search(rf"{coordinate} up to (\S+) {unit} off {function}'s function of "
                  rf"knee_angle_r \(at t = (\S+) s\): it is (\S+) times it, so in {words} "
                  r"are read", said[0])
    assert m, said[0]
    assert float(m.group(1)) == pytest.approx(gap, rel=5e-3)      # written to 3 digits
    assert float(m.group(3)) == pytest.approx(factor, rel=5e-3)
    assert other not in said[0]
    for held in set(LEG39_DEPENDENT) - {coordinate}:
        assert held not in said[0]


def test_a_rotational_coupler_1000_times_its_function_is_not_called_millimetres(leg39):
    """pat_angle_r (a rotation, rad) written 1000 times its function: named, and neither
    degrees (not 57.3) nor millimetres (a rotation has no length unit) suggested."""
    path, opensims = leg39
    motion, _, _ = _leg39_motion(path, opensims, "pat_angle_r", 1000.0)
    said = _coupler_warnings(path, motion)
    assert len(said) == 1 and "pat_angle_r up to" in said[0], said
    assert "millimetres" not in said[0] and "degrees" not in said[0], said[0]
