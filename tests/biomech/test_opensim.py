"""OpenSim as an oracle (issue 8, item 8), and OpenSim's ExternalLoads setup files.

* (a) urdf2dyn.biomech.opensim_model.to_opensim builds the OpenSim model of the bundled human (and of random
  URDF trees); OpenSim's InverseDynamicsSolver on the same q, v, a with ground reactions (force
  at the centre of pressure plus free moment, applied as OpenSim body forces) agrees with
  model.inverse_dynamics to 1e-9 relative (measured: ~1e-15).
* (b) OpenSim-layout files written by OpenSim itself (STOFileAdapter: coordinates .mot in
  degrees, force-plate .mot with inDegrees=yes, an ExternalLoads XML printed by OpenSim) run
  through OpenSim's InverseDynamicsTool and through urdf2dyn (read_external_loads + wrenches +
  inverse_dynamics with quintic-spline derivatives, as the tool's GCV splines) agree at
  interior samples; ExternalLoads semantics (points and forces in body frames, no point = body
  origin, torque-only forces) are checked there against OpenSim itself.
* (c) every .mot/.sto urdf2dyn writes opens in OpenSim's Storage and TimeSeriesTable with its
  values intact.
Tests that need no OpenSim (the reader's refusals and rules) run without it.
"""
import math
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import formats, processing, trajectory
from urdf2dyn.biomech.formats import ExternalLoadsError, read_external_loads

import opensim_tables
from caller_words import assert_says_the_keyword, flags_named
from urdfgen import random_urdf


@pytest.fixture(scope="module")
def human():
    return urdf2dyn.humod_subject("A")


@pytest.fixture(scope="module")
def human_osim(osim, human):
    from urdf2dyn.biomech.opensim_model import to_opensim
    return to_opensim(human)


# ============================================================================ (a) the solver

def _tree_order(osim_model):
    names = osim_model.getCoordinateNamesInMultibodyTreeOrder()
    return [names.getElt(i) for i in range(names.size())]


def opensim_inverse_dynamics(osim, om, q_names, q, v, a, loads=()):
    """OpenSim's generalized forces in q_names order, for one sample.

    loads: (body, force, point, free moment) in ground, N, m, N·m. InverseDynamicsSolver's
    solve(s, udot) applies the model's forces (gravity); solve(s, udot, mobility forces, body
    forces) applies only the given ones, so the external loads enter as the difference
    solve(s, 0, 0, F) - solve(s, 0, 0, 0) = -J^T F. Body forces are Simbody's: the torque
    about the body origin and the force, in ground, per mobilized body."""
    s = om.initSystem()
    coords = om.getCoordinateSet()
    for i, n in enumerate(q_names):
        c = coords.get(n)
        c.setValue(s, float(q[i]), False)
        c.setSpeedValue(s, float(v[i]))
    om.realizeDynamics(s)
    order = _tree_order(om)
    udot = osim.Vector([float(a[q_names.index(n)]) for n in order])
    solver = osim.InverseDynamicsSolver(om)
    tau = solver.solve(s, udot).to_numpy()
    if loads:
        nb = om.getBodySet().getSize() + 1
        zero = osim.SpatialVec(osim.Vec3(0), osim.Vec3(0))
        forces = osim.VectorOfSpatialVec(nb, zero)
        for body, f, p, m in loads:
            b = om.getBodySet().get(body)
            o = b.getPositionInGround(s).to_numpy()
            mb = b.getMobilizedBodyIndex()
            old = forces.get(mb)
            torque = old.get(0).to_numpy() + np.cross(p - o, f) + m
            force = old.get(1).to_numpy() + f
            forces.set(mb, osim.SpatialVec(osim.Vec3(*torque), osim.Vec3(*force)))
        none = osim.Vector(len(order), 0.0)
        tau += (solver.solve(s, none, none, forces).to_numpy()
                - solver.solve(s, none, none, osim.VectorOfSpatialVec(nb, zero)).to_numpy())
    return np.array([tau[order.index(n)] for n in q_names])


def _rel(ours, theirs):
    return float(np.max(np.abs(ours - theirs)) / np.max(np.abs(theirs)))


def test_human_model_has_the_same_bodies_and_coordinates(osim, human, human_osim):
    om = human_osim
    assert sorted(_tree_order(om)) == sorted(human.q_names)
    bodies = {om.getBodySet().get(i).getName() for i in range(om.getBodySet().getSize())}
    assert bodies == set(human.link_names) - {"ground"}
    mass = sum(om.getBodySet().get(i).getMass() for i in range(om.getBodySet().getSize()))
    assert mass == pytest.approx(human.total_mass, rel=1e-12)
    assert human_osim.getGravity().to_numpy() == pytest.approx([0, -9.81, 0])
    for j in human.joints:
        c = om.getCoordinateSet().get(j.name)
        kind = c.getMotionType()
        assert kind == (osim.Coordinate.Rotational if j.type == "revolute"
                        else osim.Coordinate.Translational)
        assert (c.getRangeMin(), c.getRangeMax()) == (j.limit[0], j.limit[1])


def test_inverse_dynamics_with_ground_reactions_matches_opensim_solver(osim, human, human_osim):
    rng = np.random.default_rng(8)
    worst = 0.0
    for k in range(6):
        q = np.concatenate([rng.uniform(-1, 1, 3), rng.uniform(-1.5, 1.5, human.nq - 3)])
        v = rng.normal(0, 2, human.nv)
        a = rng.normal(0, 5, human.nv)
        loads = [(foot, rng.normal(0, 300, 3) + [0, 600, 0], rng.normal(0, 0.5, 3),
                  rng.normal(0, 5, 3)) for foot in ("foot_L", "foot_R")]
        f_ext = {b: urdf2dyn.wrench_at_point(f, p, m) for b, f, p, m in loads}
        ours = human.inverse_dynamics(q, v, a, f_ext=f_ext)
        theirs = opensim_inverse_dynamics(osim, human_osim, human.q_names, q, v, a, loads)
        worst = max(worst, _rel(ours, theirs))
        # the loads matter: without them the torques differ by far more than the tolerance
        assert _rel(human.inverse_dynamics(q, v, a), theirs) > 1e-3
    print(f"\nhuman vs OpenSim InverseDynamicsSolver: max relative error {worst:.2e}")
    assert worst < 1e-9


@pytest.mark.parametrize("seed", range(5))
def test_random_trees_match_opensim_solver(osim, seed):
    """Random URDF trees: rpy origins, unaligned axes, inertial frames with rpy, fixed joints
    in the middle, massless links, prismatic and continuous joints."""
    from urdf2dyn.biomech.opensim_model import to_opensim
    model = urdf2dyn.load(random_urdf(100 + seed, decoys=True))
    model.gravity = (0.3, -9.5, 1.2)
    om = to_opensim(model)
    rng = np.random.default_rng(seed)
    link = model.link_names[-1]
    worst = 0.0
    for _ in range(3):
        q = model.random_configuration(seed=int(rng.integers(1 << 30)))
        v, a = rng.normal(0, 1, model.nv), rng.normal(0, 3, model.nv)
        f, p, m = rng.normal(0, 20, 3), rng.normal(0, 0.5, 3), rng.normal(0, 2, 3)
        ours = model.inverse_dynamics(q, v, a, f_ext={link: urdf2dyn.wrench_at_point(f, p, m)})
        theirs = opensim_inverse_dynamics(osim, om, model.q_names, q, v, a, [(link, f, p, m)])
        worst = max(worst, _rel(ours, theirs))
    print(f"\nrandom tree {seed} ({model.nv} DoF) vs OpenSim: max relative error {worst:.2e}")
    assert worst < 1e-9


def test_export_osim_cli_writes_a_model_opensim_loads(osim, human, tmp_path):
    out = tmp_path / "human.osim"
    r = subprocess.run([sys.executable, "-m", "urdf2dyn", "export-osim", "humod_subject_a.urdf",
                        "-o", str(out)], capture_output=True, text=True,
                       cwd=tmp_path)                    # not the source tree
    assert r.returncode == 0, r.stderr
    assert "36 coordinates" in r.stdout and "gravity 0 -9.81 0" in r.stdout
    om = osim.Model(str(out))          # the file, read back by OpenSim
    rng = np.random.default_rng(3)
    q = rng.uniform(-1, 1, human.nq)
    v, a = rng.normal(0, 1, human.nv), rng.normal(0, 1, human.nv)
    theirs = opensim_inverse_dynamics(osim, om, human.q_names, q, v, a)
    assert _rel(human.inverse_dynamics(q, v, a), theirs) < 1e-9


def test_floating_joints_are_refused(osim):
    from urdf2dyn.biomech.opensim_model import to_opensim
    model = urdf2dyn.load(urdf2dyn.human(1.7, 70.0, "male", root="floating"))
    with pytest.raises(ValueError, match="floating or planar.*3 prismatic \\+ 3 revolute"):
        to_opensim(model)


def test_a_root_floating_by_the_loader_is_advised_to_load_without_it(osim):
    """robot2r loaded with floating_base=True: to_opensim refused it advising a human's
    prismatic root (urdf2dyn.human(..., root="prismatic")), a model other than the caller's.
    The floating root is the loader's, not the file's: it now says to load the model without
    floating_base, and following that, OpenSim builds the robot, its two joints' coordinates
    (OpenSim's model is the oracle)."""
    from urdf2dyn.biomech.opensim_model import to_opensim
    path = urdf2dyn.data_path("robot2r.urdf")
    with pytest.raises(ValueError) as refused:
        to_opensim(urdf2dyn.load(path, floating_base=True))
    said = str(refused.value)
    assert "loaded with floating_base=True" in said and "load it without floating_base" in said
    assert "human" not in said, said
    om = to_opensim(urdf2dyn.load(path))
    assert [om.getCoordinateSet().get(i).getName()
            for i in range(om.getNumCoordinates())] == ["joint1", "joint2"]


@pytest.mark.parametrize("caller", ["to_opensim", "export_osim", "export-osim"])
def test_a_floating_root_is_advised_a_human_root_in_the_callers_words(osim, tmp_path, capsys,
                                                                     caller):
    """A floating root refused by to_opensim advised `urdf2dyn human --root prismatic`, a
    command, to library callers too: they are advised urdf2dyn.human's root= (its signature
    is the oracle), export-osim the human command's --root (its parser)."""
    from urdf2dyn import cli
    from urdf2dyn.biomech.opensim_model import export_osim, to_opensim
    urdf = tmp_path / "floating.urdf"
    urdf.write_text(urdf2dyn.human(1.7, 70.0, "male", root="floating"))
    if caller == "export-osim":
        assert cli.main(["export-osim", str(urdf), "-o", str(tmp_path / "out.osim")]) == 1
        message = " ".join(capsys.readouterr().err.split())
        human = cli.build_parser()._subparsers._group_actions[0].choices["human"]
        assert flags_named(message) == {"--root"} <= {f for a in human._actions
                                                      for f in a.option_strings}, message
        assert "urdf2dyn human --root prismatic" in message and "root=" not in message
    else:
        with pytest.raises(ValueError) as refused:
            if caller == "to_opensim":
                to_opensim(urdf2dyn.load(str(urdf)))
            else:
                export_osim(str(urdf), tmp_path / "out.osim")
        message = str(refused.value)
        assert 'urdf2dyn.human(..., root="prismatic")' in message, message
        assert_says_the_keyword(message, urdf2dyn.human, "root")
    assert "floating or planar" in message and not (tmp_path / "out.osim").exists()


@pytest.mark.parametrize("caller", ["to_opensim", "export-osim"])
def test_an_opensim_model_is_advised_the_callers_converter(osim, tmp_path, capsys, caller):
    """An OpenSim model given to to_opensim was advised `urdf2dyn convert`, a command, in
    Python too: the library is now advised urdf2dyn.convert.osim_to_urdf (which writes it
    as URDF, the oracle: run as advised), export-osim still urdf2dyn convert."""
    from urdf2dyn import cli, convert
    from urdf2dyn.biomech.opensim_model import to_opensim
    arm26 = os.path.join(os.path.dirname(__file__), "..", "data", "opensim_core", "arm26.osim")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        if caller == "export-osim":
            assert cli.main(["export-osim", arm26, "-o", str(tmp_path / "out.osim")]) == 1
            said = " ".join(capsys.readouterr().err.split())
            assert "(urdf2dyn convert writes an .osim model as URDF)" in said, said
            assert "osim_to_urdf" not in said, said
            return
        with pytest.raises(ValueError) as refused:
            to_opensim(urdf2dyn.load(arm26))
        said = str(refused.value)
        assert "(urdf2dyn.convert.osim_to_urdf writes an .osim model as URDF)" in said, said
        assert "urdf2dyn convert " not in said, said
        assert convert.osim_to_urdf(arm26).lstrip().startswith("<")


# ============================================================================ (b) the tool

RATE, DURATION = 200.0, 1.0


def _smooth_motion(model):
    """A smooth walking-like motion: (t, q) with q in model order, rad and m."""
    t = np.arange(int(RATE * DURATION) + 1) / RATE
    k = np.arange(model.nq)
    q = 0.3 * np.sin(2 * math.pi * (0.7 + 0.05 * k) * t[:, None] + 0.3 * k)
    q[:, 0] = 1.2 * t
    q[:, 1] = 0.95 + 0.02 * np.sin(4 * math.pi * t)
    q[:, 2] = 0.01 * np.cos(2 * math.pi * t)
    return t, q


def _force_columns(t):
    """Force-plate columns in OpenSim's layout (two plates, the second prefixed 1_), plus a
    push on the right hand expressed in the hand, a pull on the pelvis without a point
    (its origin) expressed in the pelvis, a torque-only load on the head, and a grip on the
    left hand whose point is given in the forearm."""
    cols = {}
    for pre, c in (("", 0.0), ("1_", 0.4)):
        f = [40 * np.sin(3 * t + c), 600 + 100 * np.cos(2 * t + c), 15 * np.sin(t + c)]
        p = [0.2 + 0.3 * t + c, 0 * t, 0.1 * np.cos(t) - c]
        cols.update({f"{pre}ground_force_v{x}": y for x, y in zip("xyz", f)})
        cols.update({f"{pre}ground_force_p{x}": y for x, y in zip("xyz", p)})
    for pre, c in (("", 0.0), ("1_", 0.4)):
        cols.update({f"{pre}ground_torque_{x}": y
                     for x, y in zip("xyz", [0 * t, 5 * np.sin(2 * t + c), 0 * t])})
    cols.update({f"hand_force_{x}": y for x, y in zip("xyz", [10 * np.cos(t), 5 * np.sin(2 * t),
                                                              -8 + 0 * t])})
    cols.update({f"hand_point_{x}": y for x, y in zip("xyz", [0.02 + 0 * t, -0.05 + 0.01 * t,
                                                              0.01 + 0 * t])})
    cols.update({f"pull_{x}": y for x, y in zip("xyz", [20 + 0 * t, 3 * np.sin(t), 0 * t])})
    cols.update({f"twist_{x}": y for x, y in zip("xyz", [0 * t, 2 * np.cos(t), 1 + 0 * t])})
    cols.update({f"grip_f_{x}": y for x, y in zip("xyz", [3 + 0 * t, -4 * np.cos(t), 2 * t])})
    cols.update({f"grip_p_{x}": y for x, y in zip("xyz", [0.01 + 0 * t, -0.2 + 0.02 * t,
                                                           0.02 + 0 * t])})
    return cols


# (name, body, force id, point id, torque id, force expressed in, point expressed in)
LOADS = [("right", "foot_R", "ground_force_v", "ground_force_p", "ground_torque_", "ground",
          "ground"),
         ("left", "foot_L", "1_ground_force_v", "1_ground_force_p", "1_ground_torque_", "ground",
          "ground"),
         ("push", "hand_R", "hand_force_", "hand_point_", None, "hand_R", "hand_R"),
         ("pull", "pelvis", "pull_", None, None, "pelvis", "ground"),
         ("twist", "head", None, None, "twist_", "ground", "ground"),
         ("grip", "hand_L", "grip_f_", "grip_p_", None, "ground", "forearm_L")]


@pytest.fixture(scope="module")
def opensim_files(osim, human, tmp_path_factory):
    """Files written by OpenSim: coords.mot (degrees, 200 Hz), grf.mot (inDegrees=yes,
    400 Hz), loads.xml."""
    d = tmp_path_factory.mktemp("opensim")
    t, q = _smooth_motion(human)
    rot = np.array([j.type == "revolute" for j in human.joints])
    qdeg = q.copy()
    qdeg[:, rot] = np.degrees(q[:, rot])
    opensim_tables.write_sto(osim, d / "coords.mot", t, qdeg, human.q_names, True)
    t_plate = np.arange(2 * len(t) - 1) / (2 * RATE)      # force plates at twice the rate
    cols = _force_columns(t_plate)
    opensim_tables.write_sto(osim, d / "grf.mot", t_plate, np.column_stack(list(cols.values())),
                             list(cols), True)
    write_external_loads(osim, d / "loads.xml", LOADS)
    return d, t, q


def write_external_loads(osim, path, forces, datafile="grf.mot"):
    """An ExternalLoads XML printed by OpenSim itself, one ExternalForce per LOADS entry."""
    loads = osim.ExternalLoads()
    loads.setName("loads")
    for name, body, fid, pid, tid, fin, pin in forces:
        ef = osim.ExternalForce()
        ef.setName(name)
        ef.setAppliedToBodyName(body)
        ef.setForceExpressedInBodyName(fin)
        ef.setPointExpressedInBodyName(pin)
        for setter, ident in ((ef.setForceIdentifier, fid), (ef.setPointIdentifier, pid),
                              (ef.setTorqueIdentifier, tid)):
            if ident:
                setter(ident)
        loads.cloneAndAppend(ef)
    loads.setDataFileName(datafile)
    loads.printToXML(str(path))


def run_inverse_dynamics_tool(osim, om, coords, loads, out_dir, cutoff=-1.0):
    tool = osim.InverseDynamicsTool()
    tool.setModel(om)
    tool.setCoordinatesFileName(str(coords))
    if loads:
        tool.setExternalLoadsFileName(str(loads))
    tool.setLowpassCutoffFrequency(cutoff)
    tool.setStartTime(0.0)
    tool.setEndTime(DURATION)
    tool.setResultsDir(str(out_dir))
    tool.setOutputGenForceFileName("id.sto")
    assert tool.run()
    return osim.TimeSeriesTable(str(out_dir / "id.sto"))


def tool_forces(osim, human, human_osim, coords, loads, out_dir):
    """(column labels, generalized forces (N, nq) in human.q_names order) of the
    InverseDynamicsTool on these files. OpenSim's layout: <coordinate>_moment for rotations,
    <coordinate>_force for translations."""
    table = run_inverse_dynamics_tool(osim, human_osim, coords, loads, out_dir)
    kind = {j.name: "moment" if j.type == "revolute" else "force" for j in human.joints}
    forces = np.column_stack([table.getDependentColumn(f"{n}_{kind[n]}").to_numpy()
                              for n in human.q_names])
    return list(table.getColumnLabels()), forces


def cli_forces(osim, human, cwd, out, *args):
    """Run `urdf2dyn torques humod_subject_a.urdf *args -o out` in cwd (not the source tree)
    and read out as OpenSim's Storage does: (labels, time, forces in human.q_names order)."""
    r = subprocess.run([sys.executable, "-m", "urdf2dyn", "torques", "humod_subject_a.urdf",
                        *map(str, args), "-o", str(out), "--no-progress"],
                       capture_output=True, text=True, cwd=cwd)
    assert r.returncode == 0, r.stderr
    labels, t, values = _storage_columns(osim, out)
    names = [n.removesuffix("_moment").removesuffix("_force") for n in labels[1:]]
    return r, labels, t, values[:, [names.index(n) for n in human.q_names]]


def test_inverse_dynamics_tool_on_opensim_files(osim, human, human_osim, opensim_files):
    d, t_true, q_true = opensim_files
    labels, theirs = tool_forces(osim, human, human_osim, d / "coords.mot", d / "loads.xml", d)
    kind = {j.name: "moment" if j.type == "revolute" else "force" for j in human.joints}
    assert sorted(labels) == sorted(f"{n}_{kind[n]}" for n in human.q_names)

    traj = formats.read(d / "coords.mot", model=human)            # degrees -> rad by the header
    t, q, _, _ = traj.for_model(human)
    assert np.max(np.abs(q - q_true)) < 1e-12
    loads = read_external_loads(d / "loads.xml")
    assert [f.name for f in loads.forces] == [x[0] for x in LOADS]
    f_ext = loads.wrenches(human, t, q)
    assert sorted(f_ext) == sorted(x[1] for x in LOADS)
    # the tool differentiates quintic splines through the coordinates (GCVSplineSet(5, ...));
    # urdf2dyn's "spline" method is the interpolating quintic spline too. Both pass through
    # the samples; they differ only by their end conditions (natural vs not-a-knot), whose
    # effect decays into the interior: compare away from the first and last 0.1 s.
    v, a = processing.estimate_derivatives(t, q, method="spline", model=human)
    ours = human.inverse_dynamics(q, v, a, f_ext=f_ext)
    inner = (t > 0.1) & (t < DURATION - 0.1)
    err = _rel(ours[inner], theirs[inner])
    # the loads matter (both feet carry ~600 N): without them the error would be large
    assert _rel(human.inverse_dynamics(q, v, a)[inner], theirs[inner]) > 0.1
    # how far the splines themselves are from the exact derivatives, for scale
    w = 2 * math.pi * (0.7 + 0.05 * np.arange(human.nq))
    v_true = 0.3 * w * np.cos(w * t[:, None] + 0.3 * np.arange(human.nq))
    a_true = -0.3 * w ** 2 * np.sin(w * t[:, None] + 0.3 * np.arange(human.nq))
    v_true[:, :3] = np.column_stack([np.full(len(t), 1.2),
                                     0.08 * math.pi * np.cos(4 * math.pi * t),
                                     -0.02 * math.pi * np.sin(2 * math.pi * t)])
    a_true[:, :3] = np.column_stack([0 * t, -0.02 * (4 * math.pi) ** 2 * np.sin(4 * math.pi * t),
                                     -0.01 * (2 * math.pi) ** 2 * np.cos(2 * math.pi * t)])
    exact = human.inverse_dynamics(q, v_true, a_true, f_ext=f_ext)
    spline_err = _rel(exact[inner], theirs[inner])
    print(f"\nInverseDynamicsTool vs urdf2dyn (interior samples): max relative error {err:.2e};"
          f" OpenSim vs exact derivatives: {spline_err:.2e}")
    assert err < 1e-8
    assert spline_err < 1e-5


def test_cli_on_opensim_files_matches_the_inverse_dynamics_tool(osim, human, human_osim,
                                                               opensim_files, tmp_path):
    """urdf2dyn torques on the coordinates .mot and the force-plate .mot (its OpenSim
    ground_force_* columns, keys '' and '1' put on the feet with --contact), spline
    derivatives, .sto output: the InverseDynamicsTool's numbers on the same files."""
    d, t, _ = opensim_files
    write_external_loads(osim, d / "feet.xml", LOADS[:2])
    _, theirs = tool_forces(osim, human, human_osim, d / "coords.mot", d / "feet.xml", tmp_path)
    _, _, t_cli, ours = cli_forces(osim, human, tmp_path, tmp_path / "tau.sto", d / "coords.mot",
                                   "--grf", d / "grf.mot", "--contact", "=foot_R", "--contact",
                                   "1=foot_L", "--derivatives", "spline")
    np.testing.assert_allclose(t_cli, t, atol=1e-12)
    inner = (t > 0.1) & (t < DURATION - 0.1)
    err = _rel(ours[inner], theirs[inner])
    print(f"\nCLI vs InverseDynamicsTool on OpenSim files (interior): max relative error "
          f"{err:.2e}")
    assert err < 1e-8


def test_cli_external_loads_setup_matches_the_inverse_dynamics_tool(osim, human, human_osim,
                                                                    opensim_files, tmp_path):
    """An OpenSim user's setup unchanged: urdf2dyn torques --external-loads loads.xml (forces
    and points in ground and in bodies, a force without a point, a torque-only load; the data
    file says inDegrees=yes) gives the InverseDynamicsTool's generalized forces."""
    d, t, _ = opensim_files
    _, theirs = tool_forces(osim, human, human_osim, d / "coords.mot", d / "loads.xml",
                            tmp_path)
    r, labels, t_cli, ours = cli_forces(osim, human, tmp_path, tmp_path / "tau.sto",
                                        d / "coords.mot", "--external-loads", d / "loads.xml",
                                        "--derivatives", "spline")
    assert "external loads" in r.stdout.lower() or "loads.xml" in r.stdout
    kind = {j.name: "moment" if j.type == "revolute" else "force" for j in human.joints}
    assert labels[1:] == [f"{n}_{kind[n]}" for n in human.v_names]
    np.testing.assert_allclose(t_cli, t, atol=1e-12)
    inner = (t > 0.1) & (t < DURATION - 0.1)
    err = _rel(ours[inner], theirs[inner])
    print(f"\nCLI --external-loads vs InverseDynamicsTool (interior): max relative error "
          f"{err:.2e}")
    assert err < 1e-8
    # the loads matter: the same run without them is far off
    *_, free = cli_forces(osim, human, tmp_path, tmp_path / "free.sto", d / "coords.mot",
                          "--derivatives", "spline")
    assert _rel(free[inner], theirs[inner]) > 0.1


def test_ground_forces_in_opensim_layout_equal_the_csv_layout(human, opensim_files):
    """The same loads as urdf2dyn's CSV columns (grfX_<foot> .. copX_<foot> .. momX_<foot>)
    give the same wrenches as OpenSim's force-plate file read through the ExternalLoads."""
    d, t, q = opensim_files
    cols = _force_columns(t)
    traj = trajectory.Trajectory(t, q, list(human.q_names),
                         grf={"R": np.column_stack([cols[f"ground_force_v{x}"] for x in "xyz"]),
                              "L": np.column_stack([cols[f"1_ground_force_v{x}"] for x in "xyz"])},
                         cop={"R": np.column_stack([cols[f"ground_force_p{x}"] for x in "xyz"]),
                              "L": np.column_stack([cols[f"1_ground_force_p{x}"] for x in "xyz"])},
                         moment={"R": np.column_stack([cols[f"ground_torque_{x}"] for x in "xyz"]),
                                 "L": np.column_stack([cols[f"1_ground_torque_{x}"]
                                                       for x in "xyz"])})
    formats.write_csv(d / "same.csv", traj)
    expected = formats.read_csv(d / "same.csv").f_ext()
    loads = read_external_loads(d / "loads.xml")
    loads.forces = loads.forces[:2]
    got = loads.wrenches(human, t, q)
    for link in ("foot_L", "foot_R"):
        np.testing.assert_allclose(got[link], expected[link], rtol=1e-12, atol=1e-9)


# ============================================================================ (c) Storage

@pytest.mark.parametrize("ext,degrees", [(".sto", False), (".mot", True), (".sto", True)])
def test_opensim_files_urdf2dyn_writes_open_in_opensim(osim, human, tmp_path, ext, degrees):
    t, q = _smooth_motion(human)
    path = tmp_path / f"motion{ext}"
    formats.write_opensim(path, trajectory.Trajectory(t, q, list(human.q_names)), degrees=degrees,
                     model=human)
    rot = np.array([j.type == "revolute" for j in human.joints])
    expected = q.copy()
    if degrees:
        expected[:, rot] = np.degrees(q[:, rot])
    storage = osim.Storage(str(path))
    assert storage.isInDegrees() == degrees
    assert storage.getSize() == len(t)
    labels = storage.getColumnLabels()
    assert [labels.get(i) for i in range(labels.getSize())] == ["time"] + list(human.q_names)
    for k, name in enumerate(human.q_names):
        col = osim.ArrayDouble()
        storage.getDataColumn(name, col)
        np.testing.assert_allclose([col.get(i) for i in range(col.getSize())], expected[:, k],
                                   rtol=1e-14, atol=1e-14)
    times = osim.ArrayDouble()
    storage.getTimeColumn(times)
    np.testing.assert_allclose([times.get(i) for i in range(times.getSize())], t, rtol=1e-14)
    table = osim.TimeSeriesTable(str(path))
    np.testing.assert_allclose(table.getMatrix().to_numpy(), expected, rtol=1e-14, atol=1e-14)
    assert table.getTableMetaDataString("inDegrees") == ("yes" if degrees else "no")


def _storage_columns(osim, path):
    """(labels, time (N,), values (N, k)) of a file as OpenSim's Storage reads it."""
    storage = osim.Storage(str(path))
    labels = storage.getColumnLabels()
    labels = [labels.get(i) for i in range(labels.getSize())]
    times = osim.ArrayDouble()
    storage.getTimeColumn(times)
    cols = []
    for name in labels[1:]:
        col = osim.ArrayDouble()
        storage.getDataColumn(name, col)
        cols.append([col.get(i) for i in range(col.getSize())])
    return labels, np.array([times.get(i) for i in range(times.getSize())]), np.array(cols).T


def test_torques_the_cli_writes_as_sto_open_in_opensim(osim, tmp_path):
    """urdf2dyn torques -o x.sto (the bundled running trial): OpenSim reads the same numbers as
    the CSV output holds, and inDegrees=no (generalized forces are never angles)."""
    motion = urdf2dyn.data_path("running_a_3ms.csv")
    grf = urdf2dyn.data_path("running_a_3ms_grf.csv")
    for out in ("tau.sto", "tau.csv"):
        r = subprocess.run([sys.executable, "-m", "urdf2dyn", "torques", "humod_subject_a.urdf",
                            motion, "--grf", grf, "-o", str(tmp_path / out), "--no-progress"],
                           capture_output=True, text=True, cwd=tmp_path)  # not the sources
        assert r.returncode == 0, r.stderr
    labels, t, values = _storage_columns(osim, tmp_path / "tau.sto")
    assert not osim.Storage(str(tmp_path / "tau.sto")).isInDegrees()
    csv = formats.read_csv(tmp_path / "tau.csv")
    model = urdf2dyn.load(urdf2dyn.data_path("humod_subject_a.urdf"))
    assert csv.names == list(model.v_names)
    kind = {j.name: "force" if j.type == "prismatic" else "moment" for j in model.joints}
    assert labels[1:] == [f"{n}_{kind[n]}" for n in csv.names]    # OpenSim's ID layout
    np.testing.assert_allclose(t, csv.time, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(values, csv.q, rtol=1e-13, atol=1e-12)
    table = osim.TimeSeriesTable(str(tmp_path / "tau.sto"))
    np.testing.assert_allclose(table.getMatrix().to_numpy(), csv.q, rtol=1e-13, atol=1e-12)


# ============================================================================ the reader's rules

def _write(path, text):
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


GRF_MOT = """\
    walk_grf
    version=1
    nRows=3
    nColumns=13
    inDegrees=yes
    endheader
    time\tground_force_vx\tground_force_vy\tground_force_vz\tground_force_px\tground_force_py\tground_force_pz\tground_torque_x\tground_torque_y\tground_torque_z\tpush_x\tpush_y\tpush_z
    0.0\t10\t700\t-5\t0.379\t0\t0.1\t0\t3\t0\t1\t0\t0
    0.5\t20\t650\t-5\t0.479\t0\t0.1\t0\t4\t0\t1\t0\t0
    1.0\t30\t600\t-5\t0.579\t0\t0.1\t0\t5\t0\t1\t0\t0
"""

# The layout of opensim-models' Gait2354 subject01_walk1_grf.xml (OpenSim 3, whitespace around
# values, isDisabled, Unassigned, a kinematics file).
LOADS_XML = """\
    <?xml version="1.0" encoding="UTF-8"?>
    <OpenSimDocument Version="20302">
    \t<ExternalLoads name="walk">
    \t\t<objects>
    \t\t\t<ExternalForce name="right">
    \t\t\t\t<isDisabled> false </isDisabled>
    \t\t\t\t<applied_to_body> calcn_r </applied_to_body>
    \t\t\t\t<force_expressed_in_body> ground </force_expressed_in_body>
    \t\t\t\t<point_expressed_in_body> ground </point_expressed_in_body>
    \t\t\t\t<force_identifier> ground_force_v </force_identifier>
    \t\t\t\t<point_identifier> ground_force_p </point_identifier>
    \t\t\t\t<torque_identifier> ground_torque_ </torque_identifier>
    \t\t\t\t<data_source_name> Unassigned </data_source_name>
    \t\t\t</ExternalForce>
    \t\t\t<ExternalForce name="off">
    \t\t\t\t<isDisabled> true </isDisabled>
    \t\t\t\t<applied_to_body> nowhere </applied_to_body>
    \t\t\t\t<force_identifier> nothing </force_identifier>
    \t\t\t</ExternalForce>
    \t\t</objects>
    \t\t<groups/>
    \t\t<datafile> walk_grf.mot </datafile>
    \t\t<external_loads_model_kinematics_file> walk_ik.mot </external_loads_model_kinematics_file>
    \t\t<lowpass_cutoff_frequency_for_load_kinematics> 6 </lowpass_cutoff_frequency_for_load_kinematics>
    \t</ExternalLoads>
    </OpenSimDocument>
"""


@pytest.fixture()
def walk(tmp_path):
    (tmp_path / "data").mkdir()
    _write(tmp_path / "data" / "walk_grf.mot", GRF_MOT)
    return _write(tmp_path / "data" / "walk.xml", LOADS_XML)


def test_opensim3_layout_is_read_with_units_and_disabled_forces(walk, human, monkeypatch,
                                                               tmp_path):
    monkeypatch.chdir(tmp_path)             # the data file is found relative to the XML
    loads = read_external_loads(walk)
    assert [f.name for f in loads.forces] == ["right"]
    ef = loads.forces[0]
    assert (ef.applied_to_body, ef.force_identifier, ef.point_identifier, ef.torque_identifier,
            ef.data_source_name) == ("calcn_r", "ground_force_v", "ground_force_p",
                                     "ground_torque_", None)
    assert loads.kinematics_file == "walk_ik.mot"
    # inDegrees=yes does not touch centres of pressure: 0.379 m stays 0.379 m
    assert loads.columns["ground_force_px"][0] == 0.379
    t = np.array([0.0, 0.25, 1.0])
    q = np.zeros((3, human.nq))
    w = loads.wrenches(human, t, q, links={"calcn_r": "foot_R"})["foot_R"]
    f = np.array([[10, 700, -5], [15, 675, -5], [30, 600, -5]], float)
    p = np.array([[0.379, 0, 0.1], [0.429, 0, 0.1], [0.579, 0, 0.1]])
    m = np.array([[0, 3, 0], [0, 3.5, 0], [0, 5, 0]], float)
    np.testing.assert_allclose(w, urdf2dyn.wrench_at_point(f, p, m), rtol=1e-14)


def test_force_without_point_acts_at_the_body_origin(tmp_path, human):
    _write(tmp_path / "walk_grf.mot", GRF_MOT)
    xml = _write(tmp_path / "push.xml", """\
        <OpenSimDocument Version="40000"><ExternalLoads name="x"><objects>
          <ExternalForce name="push"><applied_to_body>hand_R</applied_to_body>
            <force_expressed_in_body>forearm_R</force_expressed_in_body>
            <force_identifier>push_</force_identifier></ExternalForce>
        </objects><datafile>walk_grf.mot</datafile></ExternalLoads></OpenSimDocument>""")
    rng = np.random.default_rng(0)
    q = rng.uniform(-1, 1, (2, human.nq))
    w = read_external_loads(xml).wrenches(human, [0.0, 1.0], q)["hand_R"]
    pos, rot = human.forward_kinematics(q)
    hand, forearm = human.link_names.index("hand_R"), human.link_names.index("forearm_R")
    f = rot[:, forearm] @ np.array([1.0, 0, 0])
    np.testing.assert_allclose(w, urdf2dyn.wrench_at_point(f, pos[:, hand]), rtol=1e-12,
                               atol=1e-15)


@pytest.mark.parametrize("body,match", [
    ("<applied_to_body>calcn_r</applied_to_body>",
     r"'calcn_r' is not a link of the model 'humod_subject_a'; pass links=\{'calcn_r'"),
    ("<applied_to_body>foot_R</applied_to_body>"
     "<force_expressed_in_body>shoe</force_expressed_in_body>",
     r"<force_expressed_in_body> 'shoe' is not a link"),
    ("<applied_to_body>ground</applied_to_body>", "applied to ground, where it does nothing"),
])
def test_unknown_bodies_are_refused_by_name(tmp_path, human, body, match):
    _write(tmp_path / "walk_grf.mot", GRF_MOT)
    xml = _write(tmp_path / "l.xml", f"""\
        <OpenSimDocument><ExternalLoads><objects><ExternalForce name="right">{body}
        <force_identifier>ground_force_v</force_identifier></ExternalForce></objects>
        <datafile>walk_grf.mot</datafile></ExternalLoads></OpenSimDocument>""")
    loads = read_external_loads(xml)
    with pytest.raises(ExternalLoadsError, match=match):
        loads.wrenches(human, [0.0], np.zeros((1, human.nq)))


@pytest.mark.parametrize("force,match", [
    ("<applied_to_body>foot_R</applied_to_body>",
     "ExternalForce 'f' has neither a <force_identifier> nor a <torque_identifier>"),
    ("<applied_to_body>foot_R</applied_to_body><force_identifier>Unassigned</force_identifier>"
     "<torque_identifier> </torque_identifier>", "has neither a <force_identifier>"),
    ("<force_identifier>ground_force_v</force_identifier>", "'f' has no <applied_to_body>"),
    ("<applied_to_body>foot_R</applied_to_body><point_identifier>ground_force_p</point_identifier>"
     "<torque_identifier>ground_torque_</torque_identifier>", "a point needs a force"),
    ("<applied_to_body>foot_R</applied_to_body><force_identifier>ground_force</force_identifier>",
     r"<force_identifier> 'ground_force' matches columns \['ground_force_vx'.*exactly 3 labels"),
    ("<applied_to_body>foot_R</applied_to_body><force_identifier>grf_</force_identifier>",
     "<force_identifier> 'grf_' matches no column of .*walk_grf.mot"),
])
def test_bad_external_forces_are_refused_naming_the_element(tmp_path, force, match):
    _write(tmp_path / "walk_grf.mot", GRF_MOT)
    xml = _write(tmp_path / "l.xml", f"""\
        <OpenSimDocument><ExternalLoads><objects><ExternalForce name="f">{force}
        </ExternalForce></objects><datafile>walk_grf.mot</datafile></ExternalLoads>
        </OpenSimDocument>""")
    with pytest.raises(ExternalLoadsError, match=match):
        read_external_loads(xml)


@pytest.mark.parametrize("text,match", [
    ("<OpenSimDocument><InverseDynamicsTool/></OpenSimDocument>", "no <ExternalLoads> element"),
    ("<OpenSimDocument><ExternalLoads><objects/></ExternalLoads></OpenSimDocument>",
     "has no <datafile>"),
    ("<ExternalLoads><datafile>missing.mot</datafile></ExternalLoads>",
     "missing.mot does not exist .*relative to the folder of the XML"),
    ("<OpenSimDocument><ExternalLoads>", "not well-formed XML"),
])
def test_bad_documents_are_refused(tmp_path, text, match):
    xml = _write(tmp_path / "l.xml", text)
    with pytest.raises(ExternalLoadsError, match=match):
        read_external_loads(xml)


def test_missing_centre_of_pressure_under_load_warns(tmp_path, human):
    text = GRF_MOT.replace("0.0\t10\t700\t-5\t0.379", "0.0\t10\t700\t-5\tnan")
    _write(tmp_path / "walk_grf.mot", text)
    xml = _write(tmp_path / "l.xml", """\
        <OpenSimDocument><ExternalLoads><objects><ExternalForce name="right">
        <applied_to_body>foot_R</applied_to_body><force_identifier>ground_force_v
        </force_identifier><point_identifier>ground_force_p</point_identifier></ExternalForce>
        </objects><datafile>walk_grf.mot</datafile></ExternalLoads></OpenSimDocument>""")
    # a 'nan' in a file without version=2 is where OpenSim's Storage stops reading: said too
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match="line 8, column 'ground_force_px': "
                      "'nan': OpenSim 4.6's Storage, .* stops reading numbers there") as caught:
        loads = read_external_loads(xml)
    assert len(caught) == 1
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match="force above 20 N but no point"):
        w = loads.wrenches(human, [0.0, 1.0], np.zeros((2, human.nq)))
    assert np.all(w["foot_R"][0] == 0) and np.all(w["foot_R"][1] != 0)
    with pytest.raises(ExternalLoadsError, match="no point"):
        loads.wrenches(human, [0.0, 1.0], np.zeros((2, human.nq)), strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loads.wrenches(human, [1.0], np.zeros((1, human.nq)))      # no gap there: no warning


def test_motion_outside_the_loads_time_range_warns(tmp_path, human):
    _write(tmp_path / "walk_grf.mot", GRF_MOT)
    xml = _write(tmp_path / "l.xml", """\
        <OpenSimDocument><ExternalLoads><objects><ExternalForce name="right">
        <applied_to_body>calcn_r</applied_to_body><force_identifier>ground_force_v
        </force_identifier></ExternalForce></objects><datafile>walk_grf.mot</datafile>
        </ExternalLoads></OpenSimDocument>""")
    loads = read_external_loads(xml)
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match=r"cover 0\.\.1 s but the motion runs "
                      r"0\.\.2 s; 1 motion sample outside gets"):
        w = loads.wrenches(human, [0.0, 1.0, 2.0], np.zeros((3, human.nq)),
                           links={"calcn_r": "foot_R"})
    assert list(w) == ["foot_R"]
    np.testing.assert_array_equal(w["foot_R"][2, :3], [30, 600, -5])


_INERTIA = '<inertia ixx="{i}" iyy="{i}" izz="{i}" ixy="0" ixz="0" iyz="0"/>'
_LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def _link(name, mass):
    return (f'<link name="{name}"><inertial><origin xyz="0 0.1 0.2"/><mass value="{mass}"/>'
            f'{_INERTIA.format(i=mass / 10)}</inertial></link>')


def _joint(name, parent, child, kind="revolute", axis="0 0 1"):
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="0.1 0 0.3" rpy="0.2 0 0.1"/><axis xyz="{axis}"/>{_LIMIT}</joint>')


# names OpenSim refuses ('/', ' ', '+', '*', and the path steps '..' and '.'), one legal name
# ('arm_base') that a made-legal one must not take, and the OpenSim name each must get
ILLEGAL_NAMES = "\n".join([
    '<robot name="ns/arm">', _link("arm/base", 4.0), _link("arm_base", 3.0),
    _link("upper arm", 2.0), _link("..", 1.5), _link("tool*", 0.5),
    _joint("arm/yaw", "arm/base", "arm_base"), _joint("shoulder+pitch", "arm_base", "upper arm",
                                                       axis="0 1 0"),
    _joint("elbow", "upper arm", "..", kind="prismatic", axis="1 0 0"),
    _joint(".", "..", "tool*", kind="fixed"), "</robot>"])
OPENSIM_BODY = {"arm/base": "arm_base_2", "arm_base": "arm_base", "upper arm": "upper_arm",
                "..": "__", "tool*": "tool_"}
OPENSIM_COORDINATE = {"arm/yaw": "arm_yaw", "shoulder+pitch": "shoulder_pitch",
                      "elbow": "elbow"}


def test_names_opensim_refuses_are_written_legal_with_a_warning(osim, tmp_path):
    """A URDF whose names OpenSim refuses exports (it was refused, and a '/' in the robot's
    name crashed the command): the .osim, read back by OpenSim, has every link's mass under
    its OpenSim name, every joint, and the inverse dynamics of the URDF; a warning lists the
    renames."""
    import xml.etree.ElementTree as ET
    urdf, out = tmp_path / "arm.urdf", tmp_path / "arm.osim"
    urdf.write_text(ILLEGAL_NAMES)
    r = subprocess.run([sys.executable, "-m", "urdf2dyn", "export-osim", str(urdf), "-o",
                        str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.splitlines()[0] == (
        f"urdf2dyn export-osim: warning: {urdf}: OpenSim allows no \\ / * + or white space in "
        "a name, and no name . or .. (its component paths use them): 8 names changed in the "
        "OpenSim model: robot 'ns/arm' -> model 'ns_arm', link 'arm/base' -> body 'arm_base_2', "
        "link 'upper arm' -> body 'upper_arm', link '..' -> body '__', link 'tool*' -> body "
        "'tool_', joint 'arm/yaw' -> joint and coordinate 'arm_yaw', joint 'shoulder+pitch' -> "
        "joint and coordinate 'shoulder_pitch', joint '.' -> joint '_'. Motion and setup files "
        "for the .osim must use these names; rename them in the URDF to keep one name in both")
    assert "3 coordinates (named as the URDF joints, 2 renamed: see the warning)" in r.stdout

    om = osim.Model(str(out))                       # the file, read back by OpenSim
    om.initSystem()
    assert om.getName() == "ns_arm"
    bodies = om.getBodySet()
    urdf_links = ET.parse(urdf).getroot().findall("link")       # the URDF, read by expat
    assert bodies.getSize() == len(urdf_links) == len(OPENSIM_BODY)
    for link in urdf_links:
        mass = float(link.find("inertial/mass").get("value"))
        assert bodies.get(OPENSIM_BODY[link.get("name")]).getMass() == mass
    assert om.getJointSet().getSize() == len(ET.parse(urdf).getroot().findall("joint")) + 1
    model = urdf2dyn.load(urdf)
    names = [OPENSIM_COORDINATE[n] for n in model.q_names]
    assert sorted(_tree_order(om)) == sorted(names)
    rng = np.random.default_rng(5)
    q, v, a = rng.uniform(-1, 1, model.nq), rng.normal(0, 1, model.nv), rng.normal(0, 1, 3)
    theirs = opensim_inverse_dynamics(osim, om, names, q, v, a)
    assert _rel(model.inverse_dynamics(q, v, a), theirs) < 1e-9


def test_the_root_weld_takes_no_urdf_joint_name(osim, tmp_path):
    """The joint welding the root to ground is named '<root>_to_ground' unless a URDF joint
    has that name: OpenSim would rename the URDF joint (to 'base_to_ground_0', its
    coordinate keeping the old name)."""
    from urdf2dyn.biomech.opensim_model import export_osim
    text = "\n".join(['<robot name="r">', _link("base", 2.0), _link("arm", 1.0),
                      _joint("base_to_ground", "base", "arm"), "</robot>"])
    export_osim(urdf2dyn.load(text), tmp_path / "r.osim")
    om = osim.Model(str(tmp_path / "r.osim"))
    om.initSystem()
    joints = om.getJointSet()
    assert sorted(joints.get(i).getName() for i in range(joints.getSize())) == \
        ["base_to_ground", "base_to_ground_2"]
    urdf_joint = joints.get("base_to_ground")
    assert urdf_joint.getChildFrame().findBaseFrame().getName() == "arm"
    assert urdf_joint.numCoordinates() == 1
    assert urdf_joint.get_coordinates(0).getName() == "base_to_ground"


def test_a_model_name_opensim_refuses_is_refused(osim):
    from urdf2dyn.biomech.opensim_model import to_opensim
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    with pytest.raises(ValueError, match="to_opensim: name 'my robot': OpenSim allows no .* "
                       "give a name without them"):
        to_opensim(model, name="my robot")


def test_export_osim_gravity_leaves_the_model_alone(osim, human, tmp_path):
    from urdf2dyn.biomech.opensim_model import export_osim
    export_osim(human, tmp_path / "z_up.osim", gravity=(0, 0, -9.81))
    assert osim.Model(str(tmp_path / "z_up.osim")).getGravity().to_numpy() == \
        pytest.approx([0, 0, -9.81])
    assert human.gravity == pytest.approx([0, -9.81, 0])


@pytest.mark.parametrize("gravity", [(1e154, 0, 0), (0, 1e-320, 0), (1e155, 0, 0),
                                     (1e154, 1e154, 0), (0, 0, 1e308)])
def test_export_osim_gravity_is_written_or_refused_as_opensim_takes_it(osim, tmp_path, capsys,
                                                                       gravity):
    """Found by the fuzz of every option: export-osim --gravity 1e308 0 0 ended in a
    traceback (OpenSim's RuntimeError: 'A non-finite down direction', its gravity being a
    direction and a length that overflowed). A gravity OpenSim can hold is written and read
    back by OpenSim as given; one whose length overflows is refused in one error line naming
    the --gravity option (argparse's usage error, as every command refuses it), and nothing
    written."""
    from urdf2dyn.cli import main
    out = tmp_path / "r.osim"
    try:
        status = main(["export-osim", "robot2r.urdf", "-o", str(out), "--gravity",
                       *map(repr, map(float, gravity))])
    except SystemExit as e:             # argparse's usage error
        status = e.code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if math.isfinite(sum(x * x for x in gravity)):
        assert status == 0, err
        assert osim.Model(str(out)).getGravity().to_numpy().tolist() == list(gravity)
    else:
        assert status == 2 and not out.exists(), err
        assert "urdf2dyn export-osim: error: argument --gravity: " in err
        assert "its length overflows" in err, err


@pytest.mark.parametrize("gravity", ["1e200 0 0", "1e154 1e154 0", "0 -1e308 1e308",
                                     "1e154 0 0", "0 -9.80665 1e-150"])
def test_an_osim_files_gravity_is_read_or_refused_as_opensim_takes_it(osim, tmp_path, gravity):
    """--gravity refused a length that overflows, but an .osim file's <gravity> of
    1e200 0 0 was read: torques and animate then ended in a RuntimeWarning (overflow) and
    'gravity: expected 3 finite numbers (m/s^2)', naming neither the file nor the element.
    OpenSim 4.6 (initSystem: Simbody keeps gravity as a direction and a length) refuses
    exactly such a gravity: the reader refuses it naming the file, line and <gravity>, and
    reads the others as OpenSim does."""
    from urdf2dyn.biomech.opensim_model import export_osim
    path = tmp_path / "g.osim"
    export_osim(urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf")), path)
    text = path.read_text(encoding="utf-8")
    start, end = text.index("<gravity>") + len("<gravity>"), text.index("</gravity>")
    path.write_text(text[:start] + gravity + text[end:], encoding="utf-8")
    model = osim.Model(str(path))
    try:
        model.initSystem()
    except RuntimeError as e:
        assert "non-finite 'down' direction" in str(e)     # the length overflowed
        with pytest.raises(urdf2dyn.URDFError) as refused:
            urdf2dyn.load(path)
        assert f"g.osim:{text[:start].count(chr(10)) + 1}: <gravity> " in str(refused.value)
        assert "its length overflows" in str(refused.value)
        return
    assert urdf2dyn.load(path).gravity.tolist() == model.getGravity().to_numpy().tolist()


def test_load_columns_are_never_converted_from_degrees(tmp_path, human):
    """OpenSim applies external-load data as written, inDegrees=yes or not: labels that look
    like nothing urdf2dyn knows (F1X ..) stay in N and m too."""
    _write(tmp_path / "plate.mot", """\
        plate
        version=1
        nRows=2
        nColumns=7
        inDegrees=yes
        endheader
        time\tF1X\tF1Y\tF1Z\tCoP1X\tCoP1Y\tCoP1Z
        0\t10\t700\t-5\t0.379\t0\t0.1
        1\t20\t600\t-5\t0.479\t0\t0.1
    """)
    xml = _write(tmp_path / "l.xml", """\
        <OpenSimDocument><ExternalLoads><objects><ExternalForce name="plate1">
        <applied_to_body>foot_R</applied_to_body><force_identifier>F1</force_identifier>
        <point_identifier>CoP1</point_identifier></ExternalForce></objects>
        <datafile>plate.mot</datafile></ExternalLoads></OpenSimDocument>""")
    loads = read_external_loads(xml)
    np.testing.assert_array_equal(loads.columns["F1Y"], [700, 600])
    np.testing.assert_array_equal(loads.columns["CoP1X"], [0.379, 0.479])


def _limited_joint(name, parent, child, kind, lower, upper):
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="0.1 0 0.3"/><axis xyz="0 0 1"/>'
            f'<limit lower="{lower}" upper="{upper}" effort="1" velocity="1"/></joint>')


def test_exported_coordinates_are_clamped_where_the_urdf_limits_bind_ik(osim, tmp_path):
    """A URDF's joint limits bind urdf2dyn's IK (model.clamped_ranges); the exported .osim
    clamps exactly those coordinates, so that OpenSim's IK binds them too. A zero limit
    (lower = upper = 0) and a whole-turn range bind nothing and stay unclamped ranges. A
    clamped range without 0 (OpenSim refuses a clamped default outside it) gets its nearest
    stop as the default value."""
    from urdf2dyn.biomech.opensim_model import export_osim
    links = [_link(n, 1.0) for n in ("base", "a", "b", "c", "d", "e", "f")]
    joints = [_limited_joint("hinge", "base", "a", "revolute", -1.0, 1.2),
              _limited_joint("bent", "e", "f", "revolute", -3.0, -0.1),
              _limited_joint("slide", "a", "b", "prismatic", 0.0, 0.3),
              _limited_joint("zero", "b", "c", "revolute", 0, 0),
              _limited_joint("whole_turn", "c", "d", "revolute", -3.14159, 3.14159),
              _limited_joint("wheel", "d", "e", "continuous", 0, 0)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
        model = urdf2dyn.load("\n".join(['<robot name="r">', *links, *joints, "</robot>"]))
    assert set(model.clamped_ranges) == {"hinge", "slide", "bent"}
    export_osim(model, tmp_path / "r.osim")
    om = osim.Model(str(tmp_path / "r.osim"))
    om.initSystem()
    coords = om.getCoordinateSet()
    clamped = {coords.get(i).getName() for i in range(coords.getSize())
               if coords.get(i).getDefaultClamped()}
    assert clamped == {"hinge", "slide", "bent"}
    hinge, bent = coords.get("hinge"), coords.get("bent")
    assert (hinge.getRangeMin(), hinge.getRangeMax(), hinge.getDefaultValue()) == (-1.0, 1.2, 0)
    assert bent.getDefaultValue() == -0.1


def test_exported_coordinates_are_clamped_to_the_ranges_ik_clamps_them_to(osim, tmp_path):
    """model.clamped_ranges assigned (narrower than the URDF's limit, and on a continuous
    joint): urdf2dyn's IK binds those stops, and OpenSim reads the exported coordinates
    clamped to the same ones (the URDF's limits were written instead, and the continuous
    joint left free), each default value the stop nearest 0."""
    from urdf2dyn.biomech.opensim_model import export_osim
    links = [_link(n, 1.0) for n in ("base", "a", "b")]
    joints = [_limited_joint("hinge", "base", "a", "revolute", -1.0, 1.2),
              _limited_joint("wheel", "a", "b", "continuous", 0, 0)]
    model = urdf2dyn.load("\n".join(['<robot name="r">', *links, *joints, "</robot>"]))
    model.clamped_ranges = {"hinge": (0.2, 0.5), "wheel": (-2.0, 1.5)}
    export_osim(model, tmp_path / "r.osim")
    om = osim.Model(str(tmp_path / "r.osim"))
    om.initSystem()
    coords = om.getCoordinateSet()
    read = {name: (c.getRangeMin(), c.getRangeMax(), c.getDefaultValue(), c.getDefaultClamped())
            for name, c in ((n, coords.get(n)) for n in ("hinge", "wheel"))}
    assert read == {"hinge": (0.2, 0.5, 0.2, True), "wheel": (-2.0, 1.5, 0.0, True)}
