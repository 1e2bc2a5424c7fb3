"""The array contract of the Python API: shapes, dtypes, layouts, batches, threads, f_ext,
pickling. Expected values come from closed forms, never from urdf2dyn itself."""
import pickle
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.markers import Marker

REPO = Path(__file__).resolve().parent.parent

ROBOT2R = urdf2dyn.data_path("robot2r.urdf")
ARM7 = urdf2dyn.data_path("arm7.urdf")


@pytest.fixture
def arm():
    return urdf2dyn.load(ARM7)


def random_states(model, n, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-2, 2, (n, model.nq)), rng.normal(size=(n, model.nv)),
            rng.normal(size=(n, model.nv)))


# ---- shapes and dtypes ----------------------------------------------------------

def test_single_sample_and_batch_shapes(arm):
    q, v, a = random_states(arm, 5)
    assert arm.inverse_dynamics(q[0], v[0], a[0]).shape == (7,)
    out = arm.inverse_dynamics(q, v, a)
    assert out.shape == (5, 7) and out.dtype == np.float64 and out.flags.c_contiguous


def test_batch_equals_single_samples(arm):
    q, v, a = random_states(arm, 50)
    batch = arm.inverse_dynamics(q, v, a)
    single = np.array([arm.inverse_dynamics(q[k], v[k], a[k]) for k in range(50)])
    assert np.array_equal(batch, single)


def test_threads_bit_identical_to_serial(arm):
    q, v, a = random_states(arm, 20000, seed=1)
    try:
        urdf2dyn.set_num_threads(1)
        serial = arm.inverse_dynamics(q, v, a)
        for n in (2, 3, 8):
            urdf2dyn.set_num_threads(n)
            assert np.array_equal(arm.inverse_dynamics(q, v, a), serial)
    finally:
        urdf2dyn.set_num_threads(None)


def test_concurrent_python_threads(arm):
    """One model used from several Python threads at once (the GIL is released)."""
    q, v, a = random_states(arm, 3000, seed=2)
    expected = arm.inverse_dynamics(q, v, a)
    results = [None] * 8

    def work(k):
        results[k] = arm.inverse_dynamics(q, v, a)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, expected) for r in results)


def test_any_real_dtype_and_layout(arm):
    q, v, a = random_states(arm, 6)
    expected = arm.inverse_dynamics(q, v, a)
    qf = np.asfortranarray(q)
    strided = np.zeros((6, 14))
    strided[:, ::2] = v
    np.testing.assert_array_equal(arm.inverse_dynamics(qf, strided[:, ::2], a), expected)
    np.testing.assert_allclose(arm.inverse_dynamics(q.astype(np.float32), v, a),
                               arm.inverse_dynamics(q.astype(np.float32).astype(float), v, a))
    ints = arm.inverse_dynamics(np.ones(7, dtype=np.int32), [0] * 7, list(range(7)))
    np.testing.assert_array_equal(ints, arm.inverse_dynamics(np.ones(7), np.zeros(7),
                                                             np.arange(7.0)))


@pytest.mark.parametrize("bad, words", [
    (np.zeros((2, 3, 8)), ["q", "(nq,) = (7,), or (..., 7) for a batch", "(2, 3, 8)"]),
    (np.zeros(6), ["q", "(7,)", "(6,)"]),
    (np.zeros((4, 8)), ["q", "(..., 7)", "(4, 8)"]),
    (np.float64(1.0), ["q", "(7,)", "()", "only v, a and tau may be a scalar"]),
])
def test_wrong_shape(arm, bad, words):
    with pytest.raises(ValueError) as info:
        arm.inverse_dynamics(bad, np.zeros(7), np.zeros(7))
    for w in words:
        assert w in str(info.value)


def test_sample_count_mismatch(arm):
    q, v, a = random_states(arm, 4)
    with pytest.raises(ValueError, match=r"v: shape \(3, 7\) does not broadcast against q's "
                                         r"\(4, 7\)"):
        arm.inverse_dynamics(q, v[:3], a)
    with pytest.raises(ValueError, match=r"v: .*\(nv,\) = \(7,\)"):
        arm.inverse_dynamics(q, v[:, :6], a)


@pytest.mark.parametrize("bad", [
    np.zeros(7, dtype=complex), np.array(["a"] * 7), np.array([object()] * 7),
    np.zeros(7, dtype=bool), ["x"] * 7,
])
def test_non_numeric_dtype(arm, bad):
    with pytest.raises(TypeError, match=r"^a: .*real numbers"):
        arm.inverse_dynamics(np.zeros(7), np.zeros(7), bad)


def test_nan_propagates_per_sample(arm):
    q, v, a = random_states(arm, 3)
    q[1, 2] = np.nan
    tau = arm.inverse_dynamics(q, v, a)
    assert np.all(np.isfinite(tau[[0, 2]])) and np.any(np.isnan(tau[1]))


# ---- gravity, repr, pickle ---------------------------------------------------------

def test_gravity_setting(arm):
    np.testing.assert_array_equal(arm.gravity, [0, 0, -9.81])
    q = np.zeros(7)
    arm.gravity = (0, 0, 0)
    np.testing.assert_array_equal(arm.inverse_dynamics(q, q, q), np.zeros(7))
    for bad in ([0, 0], [0, np.nan, 0], "up"):
        with pytest.raises((ValueError, TypeError), match="gravity"):
            arm.gravity = bad
    # one vector for the model: the message may not offer a batch it would refuse
    for bad in ([0, 0], np.zeros((2, 3))):
        with pytest.raises(ValueError) as info:
            arm.gravity = bad
        assert "gravity: expected shape (3,), got" in str(info.value)
        assert "(N, 3)" not in str(info.value) and "batch" not in str(info.value)


@pytest.mark.parametrize("q0, v0, tau, exc, words", [
    (np.zeros(5), np.zeros(7), np.zeros((3, 7)), ValueError,
     ["q0: expected shape (nq,) = (7,), got (5,)"]),
    (np.zeros((2, 7)), np.zeros(7), np.zeros((3, 7)), ValueError,
     ["q0: expected shape (nq,) = (7,), got (2, 7)"]),
    (np.zeros(7), np.zeros(6), np.zeros((3, 7)), ValueError,
     ["v0: expected shape (nv,) = (7,), got (6,)"]),
    ("up", np.zeros(7), np.zeros((3, 7)), TypeError, ["q0: expected an array of real numbers"]),
    (np.zeros(7), np.zeros(7), "a", TypeError, ["tau: expected an array of real numbers"]),
    (np.zeros(7), np.zeros(7), np.zeros(7), ValueError,
     ["tau must have shape (steps, nv) = (steps, 7), got (7,)"]),
    # a controller: q0 is copied into the first row before any step is taken
    (np.zeros(5), np.zeros(7), lambda t, q, v: np.zeros(7), ValueError,
     ["q0: expected shape (nq,) = (7,), got (5,)"]),
])
def test_simulate_names_the_argument_and_what_it_accepts(arm, q0, v0, tau, exc, words):
    from urdf2dyn.simulate import simulate
    with pytest.raises(exc) as info:
        simulate(arm, q0, v0, tau, 0.01, steps=2)
    for w in words:
        assert w in str(info.value), str(info.value)
    assert "(N, " not in str(info.value) and "batch" not in str(info.value)


@pytest.mark.parametrize("path, floating, base", [
    ("urdf2dyn/data/arm7.urdf", False, "fixed base"),
    ("urdf2dyn/data/arm7.urdf", True, "floating base"),
    # six 1-DoF joints through massless links hold the pelvis (HuMoD's layout)
    ("urdf2dyn/data/humod_subject_a.urdf", False, "floating base"),
    ("tests/data/mjcf/mujoco/humanoid.xml", False, "floating base"),      # <freejoint>
    ("tests/data/mjcf/menagerie/unitree_go2/go2.xml", False, "floating base"),
    ("tests/data/opensim_models/Models/gait2354_simbody_v2.osim", False, "floating base"),
    ("tests/data/opensim_models/Models/gait10dof18musc.osim", False, "3-DoF base"),  # planar
])
def test_repr_names_the_base_whatever_the_format_calls_it(path, floating, base):
    """A free joint in the file (MJCF, OpenSim's pelvis) is a floating base as much as
    floating_base=True is: the summary must not call it fixed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
        model = urdf2dyn.load(REPO / path, floating_base=floating)
    assert repr(model).endswith(f" links, {base}>")


def test_repr_and_pickle(arm):
    assert repr(arm) == ("<urdf2dyn.Model 'arm7': 7 joints, nq=7, nv=7, "
                         f"{len(arm.link_names)} links, fixed base>")
    arm.gravity = (0, -9.81, 0)
    clone = pickle.loads(pickle.dumps(arm))
    np.testing.assert_array_equal(clone.gravity, arm.gravity)
    q, v, a = random_states(arm, 3)
    np.testing.assert_array_equal(clone.inverse_dynamics(q, v, a), arm.inverse_dynamics(q, v, a))
    assert [j.name for j in clone.joints] == [j.name for j in arm.joints]


OSIM = REPO / "tests/data/opensim_models/Gait10dof18musc/subject01.osim"
MJCF = REPO / "tests/data/mjcf/menagerie/universal_robots_ur5e/ur5e.xml"


@pytest.mark.parametrize("path", [ARM7, OSIM, MJCF], ids=["urdf", "osim", "mjcf"])
def test_what_a_model_holds_cannot_be_changed_in_place(path):
    """Models are immutable (docs/conventions.rst): no name list, table or array a model
    hands out can be changed in place, so nothing a caller does to one changes the model.
    Settings given after loading (markers, default_q, locked_coordinates, clamped_ranges)
    are set by assignment, and stay frozen too."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
        model = urdf2dyn.load(path)
    for name in ("q_names", "v_names", "link_names", "joints", "bodies", "findings",
                 "markers", "couplers", "forces", "multibody_order", "coordinate_set_order"):
        value = getattr(model, name)
        assert isinstance(value, tuple), (name, type(value))
    for name in ("coordinates", "locked_coordinates", "clamped_ranges"):
        with pytest.raises(TypeError):
            getattr(model, name)["x"] = 1.0
    for name in ("gravity", "default_q"):
        value = getattr(model, name)
        if value is not None:
            with pytest.raises(ValueError, match="read-only"):
                value[0] = 1.0
    # assigned settings are copied and frozen the same way, and survive pickling
    model.markers = [Marker("tip", model.link_names[-1], (0.0, 0.0, 0.1))]
    model.default_q = np.zeros(model.nq)
    model.locked_coordinates = {model.q_names[0]: 0.25}
    clone = pickle.loads(pickle.dumps(model))
    for m in (model, clone):
        assert isinstance(m.markers, tuple) and m.markers[0].name == "tip"
        assert not m.default_q.flags.writeable and m.locked_coordinates == {m.q_names[0]: 0.25}
        with pytest.raises(TypeError):
            m.locked_coordinates[m.q_names[0]] = 0.0


def test_joint_records(arm):
    assert [j.q_index for j in arm.joints] == list(range(7))
    assert arm.q_names == tuple(f"arm7_joint{k}" for k in range(1, 8)) == arm.v_names
    floating = urdf2dyn.load(ARM7, floating_base=True)
    root = floating.joints[0]
    assert (root.name, root.type, root.nq, root.nv, root.parent) == (
        "root_joint", "floating", 7, 6, None)
    assert floating.q_names[:7] == tuple("root_joint_" + s for s in ("x", "y", "z", "qx", "qy",
                                                                      "qz", "qw"))
    assert (floating.nq, floating.nv) == (14, 13)


def test_zero_quaternion_is_an_error():
    model = urdf2dyn.load(ARM7, floating_base=True)
    q = np.zeros((3, 14))
    q[:, 6] = 1.0
    q[2, 6] = 0.0
    with pytest.raises(ValueError, match="sample 2.*root_joint.*zero"):
        model.inverse_dynamics(q, np.zeros((3, 13)), np.zeros((3, 13)))


def test_unnormalized_quaternion_is_normalized():
    model = urdf2dyn.load(ARM7, floating_base=True)
    q, v, a = random_states(model, 4)
    q[:, 3:7] /= np.linalg.norm(q[:, 3:7], axis=1, keepdims=True)
    scaled = q.copy()
    scaled[:, 3:7] *= 3.0
    np.testing.assert_allclose(model.inverse_dynamics(scaled, v, a),
                               model.inverse_dynamics(q, v, a), rtol=1e-12, atol=1e-9)


# ---- external forces ----------------------------------------------------------------

def robot2r_jacobian_T_force(q, point_on_link2, force):
    """-J(p)^T F for the thesis' 2R robot: joint i at o_i, axis z, a force F at p."""
    c1, s1 = np.cos(q[0]), np.sin(q[0])
    c12, s12 = np.cos(q[0] + q[1]), np.sin(q[0] + q[1])
    p = np.array([2 * c1 + point_on_link2 * c12, 2 * s1 + point_on_link2 * s12, 0.0])
    o = [np.zeros(3), np.array([2 * c1, 2 * s1, 0.0])]
    z = np.array([0.0, 0.0, 1.0])
    return p, np.array([-np.cross(z, p - oi) @ force for oi in o])


def test_force_at_point_closed_form():
    model = urdf2dyn.load(ROBOT2R)
    rng = np.random.default_rng(3)
    q, v, a = rng.normal(size=2), rng.normal(size=2), rng.normal(size=2)
    force = np.array([3.0, -7.0, 2.0])
    p, expected = robot2r_jacobian_T_force(q, 1.5, force)
    wrench = urdf2dyn.wrench_at_point(force, p)
    delta = model.inverse_dynamics(q, v, a, f_ext={"link2": wrench}) - model.inverse_dynamics(q, v, a)
    np.testing.assert_allclose(delta, expected, rtol=1e-12, atol=1e-12)
    # a pure moment about z on link2 acts on both joints
    delta = (model.inverse_dynamics(q, v, a, f_ext={"link2": [0, 0, 0, 0, 0, 4.0]})
             - model.inverse_dynamics(q, v, a))
    np.testing.assert_allclose(delta, [-4.0, -4.0], rtol=1e-13)
    # a force on the world link does nothing
    np.testing.assert_array_equal(
        model.inverse_dynamics(q, v, a, f_ext={"world": [1, 2, 3, 4, 5, 6]}),
        model.inverse_dynamics(q, v, a))


def test_force_per_sample_and_broadcast():
    model = urdf2dyn.load(ROBOT2R)
    rng = np.random.default_rng(4)
    n = 6
    q, v, a = rng.normal(size=(n, 2)), rng.normal(size=(n, 2)), rng.normal(size=(n, 2))
    forces = rng.normal(size=(n, 3))
    points, expected = zip(*(robot2r_jacobian_T_force(q[k], 0.7, forces[k]) for k in range(n)))
    free = np.array([0, 0, 0, 0, 0, 1.5])
    tau = model.inverse_dynamics(q, v, a, f_ext={
        "link2": urdf2dyn.wrench_at_point(forces, np.array(points)), "link1": free})
    base = model.inverse_dynamics(q, v, a)
    np.testing.assert_allclose(tau - base, np.array(expected) + [-1.5, 0.0], rtol=1e-12,
                               atol=1e-12)


def test_wrench_at_point_free_moment():
    w = urdf2dyn.wrench_at_point([[0, 0, 10.0]], [[1.0, 0, 0]], moment=[[0, 0, 0.5]])
    np.testing.assert_array_equal(w, [[0, 0, 10, 0, -10, 0.5]])
    with pytest.raises(ValueError, match="shape"):
        urdf2dyn.wrench_at_point([1, 2], [0, 0, 0])


@pytest.mark.parametrize("args, exc, words", [
    (("a", [0, 0, 0]), TypeError, ["force: expected an array of real numbers"]),
    (([1, 0, 0], [[0, 0, 0], [1]]), TypeError, ["point: expected an array of real numbers"]),
    (([1, 0, 0], [0, 0, 0], "up"), TypeError, ["moment: expected an array of real numbers"]),
    (([1, 2], [0, 0, 0]), ValueError, ["force: expected shape (3,), or (..., 3)", "(2,)"]),
    ((np.zeros((2, 3)), np.zeros((3, 3))), ValueError,
     ["point: shape (3, 3) does not broadcast against force's (2, 3)"]),
    ((np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((3, 3))), ValueError,
     ["moment: shape (3, 3) does not broadcast against force's (2, 3)"]),
])
def test_wrench_at_point_names_the_argument(args, exc, words):
    with pytest.raises(exc) as info:
        urdf2dyn.wrench_at_point(*args)
    for w in words:
        assert w in str(info.value), str(info.value)


@pytest.mark.parametrize("f_ext, exc, words", [
    ({"nope": np.zeros(6)}, ValueError, ["f_ext", "unknown link 'nope'"]),
    ({"link2": np.zeros(5)}, ValueError, ["f_ext['link2']", "(6,)", "(5,)"]),
    ({"link2": np.zeros((3, 6))}, ValueError, ["f_ext['link2']", "(3, 6)", "does not broadcast",
                                               "q's (4, 2)"]),
    ({"link2": ["a"] * 6}, TypeError, ["f_ext['link2']", "real numbers"]),
    ([("link2", np.zeros(6))], TypeError, ["f_ext", "dict"]),
])
def test_bad_f_ext(f_ext, exc, words):
    model = urdf2dyn.load(ROBOT2R)
    z = np.zeros((4, 2))
    with pytest.raises(exc) as info:
        model.inverse_dynamics(z, z, z, f_ext=f_ext)
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize("tau, kw, exc, words", [
    # steps and tau's rows disagreeing: which was meant is not for simulate to guess
    (np.zeros((5, 7)), dict(steps=2), ValueError,
     ["simulate: steps: 2, but tau has 5 rows (5 steps)"]),
    (np.zeros((5, 7)), dict(steps=3, half_steps=True), ValueError,
     ["simulate: steps: 3, but tau has 5 rows (2 steps with half_steps=True)"]),
    (np.zeros((5, 7)), dict(dt=True), ValueError, ["simulate: dt must be a positive number"]),
    (np.zeros((5, 7)), dict(dt=-0.1), ValueError, ["simulate: dt must be a positive number"]),
    (np.zeros((5, 7)), dict(method=["rk4"]), ValueError, ["simulate: method must be one of"]),
    (lambda t, q, v: np.zeros(7), dict(steps=True), ValueError,
     ["simulate: steps must be an integer >= 1"]),
    (lambda t, q, v: np.zeros(7), dict(steps=0), ValueError,
     ["simulate: steps must be an integer >= 1"]),
    (lambda t, q, v: np.zeros(7), dict(), ValueError,
     ["simulate: a callable tau needs steps"]),
    (lambda t, q, v: "a", dict(steps=2), TypeError,
     ["simulate: tau(t, q, v): expected an array of real numbers"]),
    (lambda t, q, v: np.zeros(6), dict(steps=2), ValueError,
     ["simulate: tau(t, q, v): expected shape (7,), got (6,)"]),
])
def test_simulate_steps_dt_method_and_controller(arm, tau, kw, exc, words):
    from urdf2dyn.simulate import simulate
    kw = {"dt": 0.01, **kw}
    with pytest.raises(exc) as info:
        simulate(arm, np.zeros(7), np.zeros(7), tau, **kw)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_simulate_takes_numpy_numbers(arm):
    from urdf2dyn.simulate import simulate
    z = np.zeros(7)
    q, _ = simulate(arm, z, z, np.zeros((4, 7)), np.int64(1), steps=np.int64(4))
    assert q.shape == (5, 7)
    q, _ = simulate(arm, z, z, lambda t, q, v: z, np.float32(0.01), steps=np.int64(3))
    assert q.shape == (4, 7)


@pytest.mark.parametrize("kw, exc, words", [
    (dict(n=-1), ValueError, ["random_configuration: n must be an integer >= 0 or None", "-1"]),
    (dict(n=1.5), TypeError, ["random_configuration: n must be an integer >= 0 or None"]),
    (dict(n="3"), TypeError, ["random_configuration: n must be"]),
    (dict(n=True), TypeError, ["random_configuration: n must be"]),
    (dict(n=np.arange(3)), TypeError, ["random_configuration: n must be"]),
    (dict(n=2, seed=-1), ValueError, ["random_configuration: seed must be an integer >= 0 or "
                                      "None", "-1"]),
    (dict(n=2, seed="a"), TypeError, ["random_configuration: seed must be"]),
])
def test_random_configuration_names_the_argument(arm, kw, exc, words):
    with pytest.raises(exc) as info:
        arm.random_configuration(**kw)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_random_configuration_counts(arm):
    assert arm.random_configuration(np.int64(2), seed=np.uint8(1)).shape == (2, 7)
    assert arm.random_configuration(0).shape == (0, 7)
    assert arm.random_configuration(seed=np.random.default_rng(1)).shape == (7,)


@pytest.mark.parametrize("kind, lower, upper", [
    ("revolute", -1.7976931348623157e308, 1.7976931348623157e308),
    ("revolute", -1.7976931348623157e308, 1.5),
    ("revolute", 5.0, 1.7976931348623157e308),
    ("prismatic", -1.7976931348623157e308, 1.7976931348623157e308),
    ("revolute", -1e300, 1e300),            # far short of overflow, as far from any angle
    ("prismatic", -1e300, 1.5),
    ("revolute", -1e17, 1e17),              # doubles 16 apart there: no angle resolved
])
def test_random_configuration_within_limits_spanning_more_than_a_double(kind, lower, upper):
    """URDF has no word for no bound: convert writes the largest double (urdfdom reads it,
    and refuses inf). Drawing between such limits overflowed (NumPy's OverflowError: the
    span is beyond a double) or, with one such bound, drew angles near 1e308; now the draw
    stays within them, finite, in a window about 0 where they allow. So does one beyond
    2**53, where doubles lie more than 1 apart (1e300 drew angles near 1e300)."""
    urdf = (f'<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/>'
            f'<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
            f'<joint name="j" type="{kind}"><parent link="a"/><child link="b"/>'
            f'<axis xyz="0 0 1"/><limit lower="{lower!r}" upper="{upper!r}" effort="1" '
            f'velocity="1"/></joint></robot>')
    q = urdf2dyn.load(urdf.encode()).random_configuration(200, seed=3)[:, 0]
    assert np.all(np.isfinite(q)) and np.all((q >= lower) & (q <= upper))
    assert np.ptp(q) > 1.0 and np.all(np.abs(q) < 12)          # a window, not the span


@pytest.mark.parametrize("dt, exc, words", [
    (np.ones(7), TypeError, ["integrate: dt must be one real number", "got an array of shape "
                             "(7,)", "v * dt[..., None]"]),
    ([0.1, 0.2], TypeError, ["integrate: dt must be one real number", "list"]),
    ("0.1", TypeError, ["integrate: dt must be one real number", "str '0.1'"]),
    (True, TypeError, ["integrate: dt must be one real number"]),
    (np.nan, ValueError, ["integrate: dt must be finite, got nan"]),
    (-np.inf, ValueError, ["integrate: dt must be finite, got -inf"]),
])
def test_integrate_dt_is_one_number(arm, dt, exc, words):
    with pytest.raises(exc) as info:
        arm.integrate(np.zeros((3, 7)), np.ones(7), dt=dt)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_integrate_dt_any_real_scalar(arm):
    q = arm.integrate(np.zeros(7), np.ones(7), dt=0.5)
    for dt in (np.float32(0.5), np.array(0.5), np.int64(1) / 2):
        np.testing.assert_array_equal(arm.integrate(np.zeros(7), np.ones(7), dt=dt), q)
    np.testing.assert_array_equal(arm.integrate(np.zeros(7), np.ones(7), dt=-1), -np.ones(7))


@pytest.mark.parametrize("call, exc, words", [
    (lambda m, L: m.jacobian(np.zeros(7), [L]), TypeError,
     ["jacobian: link must be a link name (a str, one of model.link_names), got list"]),
    (lambda m, L: m.frame_jacobian(np.zeros(7), np.zeros(2)), TypeError,
     ["frame_jacobian: link must be a link name", "ndarray"]),
    (lambda m, L: m.jacobian(np.zeros(7), L, "a"), TypeError,
     ["jacobian: point: expected an array of real numbers"]),
    (lambda m, L: m.frame_velocity(np.zeros(7), 0, L, [[1], [2, 3]]), TypeError,
     ["frame_velocity: point: expected an array of real numbers"]),
    (lambda m, L: m.frame_jacobian(np.zeros(7), L, [1, 2]), ValueError,
     ["frame_jacobian: point: expected shape (3,), got (2,)"]),
    (lambda m, L: m.jacobian(np.zeros(7), L, [0, np.inf, 0]), ValueError,
     ["jacobian: point must be 3 finite numbers"]),
    (lambda m, L: m.joint(np.zeros(2)), TypeError,
     ["joint: name must be a joint name (a str, one of the names in model.joints)"]),
])
def test_link_point_and_joint_name_arguments(arm, call, exc, words):
    with pytest.raises(exc) as info:
        call(arm, arm.link_names[-1])
    for w in words:
        assert w in str(info.value), str(info.value)


def test_set_num_threads_validation():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="set_num_threads"):
            urdf2dyn.set_num_threads(bad)


def test_numbers_numpy_and_python_take_as_before(arm):
    """Arguments the checks must not refuse: a Fraction dt (a numbers.Real: simulate said
    NumPy's "ufunc 'isfinite' not supported"), a 0-d integer array n, and a NumPy seed of
    several integers (np.random.default_rng's documented entropy: both ran before the checks,
    and were refused by them)."""
    from fractions import Fraction
    from urdf2dyn.simulate import simulate
    z = np.zeros(7)
    q, _ = simulate(arm, z, z, np.zeros((2, 7)), Fraction(1, 100))
    assert q.shape == (3, 7)
    assert arm.random_configuration(np.array(3)).shape == (3, 7)
    a = arm.random_configuration(2, seed=[1, 2, 3])
    np.testing.assert_array_equal(a, arm.random_configuration(2, seed=np.array([1, 2, 3])))
    assert not np.array_equal(a, arm.random_configuration(2, seed=[1, 2, 4]))
    for seed, exc in (([1, -2], ValueError), ([1.5], TypeError), ([True], TypeError)):
        with pytest.raises(exc, match="random_configuration: seed must be"):
            arm.random_configuration(2, seed=seed)


def test_object_arrays_of_real_numbers_are_taken(arm):
    """A row of a pandas DataFrame with a text column is an object array of floats
    (df.iloc[k][["fx", "fy", "fz"]]): wrench_at_point took it before its arguments were
    checked by the batch layer, which refused it ('got dtype object'); numbers in an object
    array are taken, anything else in one still refused naming the argument."""
    from fractions import Fraction
    force = np.array([1.0, 0.0, 700.0], dtype=object)
    point = np.array([0.1, np.float32(0.0), Fraction(1, 5)], dtype=object)
    np.testing.assert_allclose(urdf2dyn.wrench_at_point(force, point),
                               urdf2dyn.wrench_at_point([1.0, 0.0, 700.0], [0.1, 0.0, 0.2]))
    q = np.full(7, 0.1)
    np.testing.assert_allclose(arm.inverse_dynamics(q.astype(object), 0, 0),
                               arm.inverse_dynamics(q, 0, 0))
    for bad in (np.array([1.0, "a", 2.0], dtype=object), np.array([1.0, None, 2.0]),
                np.array([1.0, True, 2.0], dtype=object)):
        with pytest.raises(TypeError, match="force: expected an array of real numbers"):
            urdf2dyn.wrench_at_point(bad, point)


def test_a_floating_base_over_a_massless_root_is_explained_in_forward_dynamics():
    """arm7 with floating_base=True: its root link has no mass and one joint moves it, so the
    mass matrix is singular everywhere (the free joint and joint 1 turn the same body).
    Inverse dynamics is exact there; forward dynamics refuses, saying what to change."""
    arm = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"), floating_base=True)
    q, zero = arm.neutral(), np.zeros(arm.nv)
    assert np.isfinite(arm.inverse_dynamics(q, zero, zero)).all()
    assert np.linalg.matrix_rank(arm.mass_matrix(q)) == arm.nv - 1
    with pytest.raises(ValueError, match=r"singular mass matrix: .*a floating base over a "
                       r"massless root link that one joint moves: load without "
                       r"floating_base=True or give that link a mass"):
        arm.forward_dynamics(q, zero, zero)
