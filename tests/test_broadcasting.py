"""NumPy's habits in the batched API (issue 16, item 7; docs/conventions.rst, "Batch shapes").

The oracle for the broadcasting layer is the same function called on one sample at a time in
a Python loop (the one-sample path has no broadcasting, reshaping or out= logic), compared
bit for bit; Pinocchio checks one broadcast call of inverse dynamics. Hypothesis draws the
batch shapes (0-3 leading axes, size-1 and size-0 axes, missing axes, scalars): derandomized,
so CI runs the same examples each time; URDF2DYN_HYPOTHESIS_EXAMPLES=500 runs a longer search.
"""
import os
import re

import numpy as np
import pytest

import urdf2dyn

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

EXAMPLES = int(os.environ.get("URDF2DYN_HYPOTHESIS_EXAMPLES", "12"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

# A small tree with inertia on every body, on a floating base: forward dynamics is regular
# (the bundled arms are singular with a floating base: their links carry no rotor inertia).
FLOATING = """<robot name="float3">
  <link name="base"><inertial><mass value="2"/><origin xyz="0.05 0 0"/>
    <inertia ixx="0.2" iyy="0.25" izz="0.3" ixy="0.01" ixz="0" iyz="0.02"/></inertial></link>
  <link name="upper"><inertial><mass value="1"/><origin xyz="0 0 -0.2"/>
    <inertia ixx="0.05" iyy="0.04" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="slider"><inertial><mass value="0.5"/><origin xyz="0.1 0 0"/>
    <inertia ixx="0.01" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tool"/>
  <joint name="hip" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0.1 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="slide" type="prismatic"><parent link="upper"/><child link="slider"/>
    <origin xyz="0 0 -0.4"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="tip" type="fixed"><parent link="slider"/><child link="tool"/>
    <origin xyz="0.2 0 0"/></joint>
</robot>"""


@pytest.fixture(scope="module")
def models():
    return {"robot2r": urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf")),
            "arm7": urdf2dyn.load(urdf2dyn.data_path("arm7.urdf")),
            "float3": urdf2dyn.load(FLOATING, floating_base=True)}


def leaf(m):
    return m.joints[-1].child


# name -> (input kinds, call(model, inputs, **kw), takes f_ext); kinds: q configuration,
# v velocity-like (may be a scalar). Every function of the batch layer is here.
FUNCTIONS = {
    "inverse_dynamics": ("qvv", lambda m, x, **k: m.inverse_dynamics(*x, **k), True),
    "rnea": ("qvv", lambda m, x, **k: m.rnea(*x, **k), True),
    "mass_matrix": ("q", lambda m, x, **k: m.mass_matrix(*x, **k), False),
    "nonlinear_effects": ("qv", lambda m, x, **k: m.nonlinear_effects(*x, **k), False),
    "gravity_torques": ("q", lambda m, x, **k: m.gravity_torques(*x, **k), False),
    "coriolis_matrix": ("qv", lambda m, x, **k: m.coriolis_matrix(*x, **k), False),
    "forward_dynamics": ("qvv", lambda m, x, **k: m.forward_dynamics(*x, **k), True),
    "forward_kinematics": ("q", lambda m, x, **k: m.forward_kinematics(*x, **k), False),
    "joint_positions": ("q", lambda m, x, **k: m.joint_positions(*x, **k), False),
    "center_of_mass": ("q", lambda m, x, **k: m.center_of_mass(*x, **k), False),
    "jacobian": ("q", lambda m, x, **k: m.jacobian(*x, leaf(m), [0.1, 0, 0], **k), False),
    "link_velocities": ("qv", lambda m, x, **k: m.link_velocities(*x, **k), False),
    "kinetic_energy": ("qv", lambda m, x, **k: m.kinetic_energy(*x, **k), False),
    "potential_energy": ("q", lambda m, x, **k: m.potential_energy(*x, **k), False),
    "integrate": ("qv", lambda m, x, **k: m.integrate(*x, 0.1, **k), False),
    "difference": ("qq", lambda m, x, **k: m.difference(*x, **k), False),
    "normalize": ("q", lambda m, x, **k: m.normalize(*x, **k), False),
    "inverse_dynamics_derivatives":
        ("qvv", lambda m, x, **k: m.inverse_dynamics_derivatives(*x, **k), True),
    "forward_dynamics_derivatives":
        ("qvv", lambda m, x, **k: m.forward_dynamics_derivatives(*x, **k), True),
    "centroidal_momentum_matrix":
        ("q", lambda m, x, **k: m.centroidal_momentum_matrix(*x, **k), False),
    "centroidal": ("qvv", lambda m, x, **k: tuple(m.centroidal(*x, **k).values()), False),
    "regressor": ("qvv", lambda m, x, **k: m.regressor(*x, **k), False),
    "frame_jacobian":
        ("q", lambda m, x, **k: m.frame_jacobian(*x, leaf(m), reference="local", **k), False),
    "frame_jacobian_time_variation":
        ("qv", lambda m, x, **k: m.frame_jacobian_time_variation(*x, leaf(m), **k), False),
    "frame_velocity": ("qv", lambda m, x, **k: m.frame_velocity(*x, leaf(m), **k), False),
    "frame_acceleration":
        ("qvv", lambda m, x, **k: m.frame_acceleration(*x, leaf(m), reference="world", **k),
         False),
    "frame_classical_acceleration":
        ("qvv", lambda m, x, **k: m.frame_classical_acceleration(*x, leaf(m), **k), False),
}
WITH_OUT = sorted(set(FUNCTIONS) - {"centroidal"})      # a dict of views: no out=


def as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


def sample_values(m, kind, shape, rng):
    """Random inputs of shape shape + (width,) (kind q: valid configurations)."""
    n = int(np.prod(shape, dtype=int))
    if kind == "q":
        q = m.random_configuration(max(n, 1), seed=int(rng.integers(1 << 31)))[:n]
        return q.reshape(shape + (m.nq,))
    return rng.normal(size=shape + (m.nv,))


def per_sample(m, name, inputs, f_ext, batch):
    """The oracle: the function called on each sample of the broadcast batch, one at a time,
    stacked into arrays of shape batch + (sample shape)."""
    kinds, call, _ = FUNCTIONS[name]
    width = {"q": m.nq, "v": m.nv}
    full = [np.broadcast_to(x, batch + (width[k],)) for x, k in zip(inputs, kinds)]
    wrenches = {link: np.broadcast_to(w, batch + (6,)) for link, w in (f_ext or {}).items()}
    results = None
    for idx in np.ndindex(*batch):
        kw = {"f_ext": {link: w[idx] for link, w in wrenches.items()}} if f_ext else {}
        one = as_tuple(call(m, [x[idx] for x in full], **kw))
        if results is None:
            results = [np.empty(batch + np.shape(r)) for r in one]
        for store, r in zip(results, one):
            store[idx] = r
    return results


def assert_bitwise(got, expected):
    for g, e in zip(as_tuple(got), expected):
        if isinstance(g, float):                # the energies of one sample
            g = np.asarray(g)
        assert g.dtype == np.float64
        assert g.shape == e.shape
        np.testing.assert_array_equal(g, e)     # NaN == NaN here; bit for bit otherwise


# ---- the shapes Hypothesis draws ------------------------------------------------------------

batch_shapes = st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple)


@st.composite
def broadcast_case(draw, kinds, with_fext):
    """A batch shape and, per input, a shape that broadcasts to it: the whole batch, a trailing
    part of it (leading axes missing), size-1 axes, one sample, or a scalar (v-like only)."""
    batch = draw(batch_shapes)
    shapes = []
    for k in kinds + ("f" if with_fext else ""):
        how = draw(st.sampled_from(["full", "suffix", "ones", "single", "scalar"]))
        if how == "scalar" and k not in "vf":
            how = "single"
        if how == "full":
            s = batch
        elif how == "suffix":
            s = batch[draw(st.integers(0, len(batch))):]
        elif how == "ones":
            s = tuple(d if draw(st.booleans()) else 1 for d in batch)
        elif how == "single":
            s = ()
        else:
            s = None
        if k == "f" and s is None:
            s = ()
        shapes.append(s)
    return batch, shapes, draw(st.integers(0, 2 ** 31 - 1))


def make_inputs(m, kinds, shapes, seed):
    rng = np.random.default_rng(seed)
    inputs = []
    for k, s in zip(kinds, shapes):
        inputs.append(float(rng.normal()) if s is None else sample_values(m, k, s, rng))
    f_ext = None
    if len(shapes) > len(kinds):
        f_ext = {leaf(m): rng.normal(size=shapes[-1] + (6,)) * 5.0}
    return inputs, f_ext


def batch_of(inputs, f_ext):
    shapes = [np.shape(x)[:-1] for x in inputs if np.ndim(x)]
    shapes += [np.shape(w)[:-1] for w in (f_ext or {}).values()]
    return np.broadcast_shapes(*shapes) if shapes else ()


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("robot", ["arm7", "float3"])
def test_broadcast_shapes_match_the_per_sample_loop(models, robot, name):
    m = models[robot]
    kinds, call, takes_fext = FUNCTIONS[name]

    @SETTINGS
    @given(broadcast_case(kinds, takes_fext))
    def check(case):
        batch, shapes, seed = case
        inputs, f_ext = make_inputs(m, kinds, shapes, seed)
        kw = {"f_ext": f_ext} if f_ext else {}
        got = call(m, inputs, **kw)
        full = batch_of(inputs, f_ext)
        expected = per_sample(m, name, inputs, f_ext, full)
        if expected is None:                    # an empty batch: shapes from one sample
            one_shapes = [None if s is None else () for s in shapes[:len(kinds)]]
            one = as_tuple(call(m, make_inputs(m, kinds, one_shapes, seed)[0]))
            expected = [np.empty(full + np.shape(r)) for r in one]
        assert_bitwise(got, expected)
        if not full:                            # one sample in, one sample out
            assert all(np.shape(g) == np.shape(e) for g, e in zip(as_tuple(got), expected))

    check()


# ---- the cases of the issue, spelled out -----------------------------------------------------

def test_one_v_and_a_across_a_batch_of_q(models):
    m = models["arm7"]
    rng = np.random.default_rng(1)
    q = m.random_configuration(1000, seed=2)
    v, a = rng.normal(size=(1000, 7)), rng.normal(size=(1000, 7))
    tau = m.inverse_dynamics(q, v[0], a[0])
    assert tau.shape == (1000, 7)
    np.testing.assert_array_equal(tau, m.inverse_dynamics(q, np.tile(v[0], (1000, 1)),
                                                          np.tile(a[0], (1000, 1))))
    np.testing.assert_array_equal(m.inverse_dynamics(q, 0, 0.0), m.gravity_torques(q))
    np.testing.assert_array_equal(m.inverse_dynamics(q, v, 0.0), m.nonlinear_effects(q, v))


def test_leading_axes_and_one_sample(models):
    m = models["arm7"]
    q = m.random_configuration(1000, seed=3).reshape(10, 100, 7)
    tau = m.inverse_dynamics(q, 0, 0)
    assert tau.shape == (10, 100, 7)
    np.testing.assert_array_equal(tau.reshape(1000, 7),
                                  m.inverse_dynamics(q.reshape(1000, 7), 0, 0))
    pos, rot = m.forward_kinematics(q[:2, :3])
    assert pos.shape == (2, 3, len(m.link_names), 3)
    assert rot.shape == (2, 3, len(m.link_names), 3, 3)
    assert m.mass_matrix(q[:2, :3]).shape == (2, 3, 7, 7)
    assert m.inverse_dynamics(q[0, 0], 0, 0).shape == (7,)
    assert m.mass_matrix(q[0, 0]).shape == (7, 7)
    assert isinstance(m.kinetic_energy(q[0, 0], 1.0), float)
    assert m.kinetic_energy(q[:2, :3], 1.0).shape == (2, 3)
    assert m.inverse_dynamics(q[:0], 0, 0).shape == (0, 100, 7)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_empty_batch_gives_an_empty_result_of_the_right_shape(models, name):
    m = models["float3"]
    kinds, call, _ = FUNCTIONS[name]
    rng = np.random.default_rng(13)
    one = as_tuple(call(m, [sample_values(m, k, (), rng) for k in kinds]))
    got = as_tuple(call(m, [sample_values(m, k, (2, 0), rng) for k in kinds]))
    assert [g.shape for g in got] == [(2, 0) + np.shape(r) for r in one]


def test_human_model_broadcasts_like_the_per_sample_loop():
    """The 42-DoF human on a floating base: one v, a scalar a, a wrench per foot of two
    different batch shapes, over a (2, 3) batch of configurations."""
    m = urdf2dyn.load(urdf2dyn.data_path("humod_subject_a.urdf"), floating_base=True)
    rng = np.random.default_rng(14)
    q = m.random_configuration(6, seed=15).reshape(2, 3, m.nq)
    v = rng.normal(size=m.nv)
    feet = [name for name in m.link_names if "foot" in name.lower()][:2]
    assert len(feet) == 2, m.link_names
    f_ext = {feet[0]: rng.normal(size=(3, 6)) * 100, feet[1]: rng.normal(size=6) * 100}
    tau = m.inverse_dynamics(q, v, 0.0, f_ext=f_ext)
    assert tau.shape == (2, 3, m.nv)
    assert_bitwise(tau, per_sample(m, "inverse_dynamics", [q, v, 0.0], f_ext, (2, 3)))


def test_broadcasting_against_pinocchio(models):
    """One broadcast call (q (2, 3, nq), v (nv,), a (3, nv), f_ext (2, 1, 6)) against
    Pinocchio's RNEA on the explicitly repeated samples."""
    pytest.importorskip("pinocchio")
    from pin_oracle import JointMap, build_pin_model, pin_inverse_dynamics
    m = models["arm7"]
    jmap = JointMap(m.joints, build_pin_model(urdf2dyn.data_path("arm7.urdf")), m.nq, m.nv)
    rng = np.random.default_rng(4)
    q = m.random_configuration(6, seed=5).reshape(2, 3, 7)
    v, a, w = rng.normal(size=7), rng.normal(size=(3, 7)), rng.normal(size=(2, 1, 6))
    link = leaf(m)
    tau = m.inverse_dynamics(q, v, a, f_ext={link: w})
    full = [np.broadcast_to(x, (2, 3, x.shape[-1])).reshape(6, -1) for x in (q, v, a, w)]
    ref = pin_inverse_dynamics(jmap, *full[:3], f_ext={link: full[3]})
    np.testing.assert_allclose(tau.reshape(6, 7), ref, rtol=1e-10, atol=1e-9)


def test_float32_and_strided_inputs_broadcast(models):
    m = models["arm7"]
    q = m.random_configuration(12, seed=6).reshape(3, 4, 7)
    v = np.zeros((7, 4, 3)).T                   # a transposed (non-contiguous) view
    v[...] = np.random.default_rng(7).normal(size=(3, 4, 7))
    got = m.inverse_dynamics(q.astype(np.float32), v, np.float32(0.5))
    expected = m.inverse_dynamics(q.astype(np.float32).astype(float), np.ascontiguousarray(v),
                                  np.full(7, 0.5))
    np.testing.assert_array_equal(got, expected)


# ---- wrong shapes: a sentence naming the argument and the shape it should have ---------------

def test_wrong_shapes_name_the_argument(models):
    m = models["arm7"]
    q = np.zeros((4, 7))
    cases = [
        (lambda: m.inverse_dynamics(q, np.zeros((3, 7)), 0), ValueError,
         ["v: shape (3, 7) does not broadcast against q's (4, 7)"]),
        (lambda: m.inverse_dynamics(np.zeros((2, 4, 7)), 0, np.zeros((3, 1, 7))), ValueError,
         ["a: shape (3, 1, 7)", "q's (2, 4, 7)"]),
        (lambda: m.inverse_dynamics(q, np.zeros(6), 0), ValueError,
         ["v: expected shape (nv,) = (7,), or (..., 7) for a batch, got (6,)"]),
        (lambda: m.inverse_dynamics(0.0, 0, 0), ValueError,
         ["q: expected shape (nq,) = (7,)", "only v, a and tau may be a scalar"]),
        (lambda: m.inverse_dynamics(q, 0, 0, f_ext={leaf(m): np.zeros((3, 6))}), ValueError,
         [f"f_ext['{leaf(m)}']: shape (3, 6) does not broadcast against q's (4, 7)"]),
        (lambda: m.inverse_dynamics(q, 0, 0, f_ext={leaf(m): 1.0}), ValueError,
         [f"f_ext['{leaf(m)}']: expected shape (6,)"]),
        (lambda: m.difference(q, np.zeros((5, 7))), ValueError, ["q1: shape (5, 7)", "q0's"]),
        (lambda: m.inverse_dynamics(q, [[0] * 7, [0] * 6], 0), TypeError,
         ["v: expected an array of real numbers"]),
        (lambda: m.mass_matrix(np.zeros((2, 7), dtype=complex)), TypeError,
         ["q: expected an array of real numbers, got dtype complex128"]),
    ]
    for call, exc, words in cases:
        with pytest.raises(exc) as info:
            call()
        for w in words:
            assert w in str(info.value), (str(info.value), w)


@st.composite
def any_shapes(draw):
    """(q, v, f_ext) shapes for robot2r (nq = nv = 2): each most of the time one that
    broadcasts against a drawn batch (a trailing part of it, some axes 1, then the width),
    else arbitrary; v may be a scalar and f_ext absent (None)."""
    batch = tuple(draw(st.lists(st.sampled_from([2, 3, 1, 4, 0]), max_size=3)))
    arbitrary = st.lists(st.integers(0, 9), max_size=4).map(tuple)

    def fitting(width, full=False):
        k = len(batch) if full else draw(st.integers(0, len(batch)))
        part = batch[len(batch) - k:]
        return tuple(1 if draw(st.booleans()) and not full else n for n in part) + (width,)

    q = fitting(2, full=True) if draw(st.sampled_from([True, True, True, True, False])) \
        else draw(arbitrary)
    pick = draw(st.sampled_from(["fits", "fits", "none", "fits", "any"]))
    v = fitting(2) if pick == "fits" else None if pick == "none" else draw(arbitrary)
    pick = draw(st.sampled_from(["fits", "fits", "none", "fits", "any"]))
    f = fitting(6) if pick == "fits" else None if pick == "none" else draw(arbitrary)
    return q, v, f


@SETTINGS
@given(any_shapes())
@hypothesis.example(((3, 2), (1, 2), (2, 1, 6)))                   # broadcasts to (2, 3)
@hypothesis.example(((4, 3), None, None))                          # the wrong width
def test_any_shape_is_a_result_or_a_sentence(models, shapes):
    """Arbitrary shapes, right or wrong: either the per-sample loop's result, or a ValueError
    naming q, v or f_ext with the expected width, never an error from inside NumPy or C."""
    q_shape, v_shape, f_shape = shapes
    m = models["robot2r"]

    def values(shape, start):                   # a different value in every entry
        return start + 0.01 * np.arange(np.prod(shape, dtype=int)).reshape(shape)
    q = values(q_shape, 0.3)
    v = 0.5 if v_shape is None else values(v_shape, 0.5)
    f_ext = None if f_shape is None else {"link2": values(f_shape, 1.0)}
    try:
        tau = m.inverse_dynamics(q, v, 0.0, f_ext=f_ext)
    except ValueError as e:
        hypothesis.event("refused")
        msg = str(e)
        assert re.match(r"(q: expected shape \(nq,\) = \(2,\)|v: expected shape \(nv,\) = "
                        r"\(2,\)|f_ext\['link2'\]: expected shape \(6,\)), or \(\.\.\., [26]\) "
                        r"for a batch, got \(|(v|f_ext\['link2'\]): shape \(.*\) does not "
                        r"broadcast against (q|v)'s \(", msg), msg
        return
    full = batch_of([q, v], f_ext)
    assert tau.shape == full + (2,)
    if 0 < np.prod(full) <= 64:
        hypothesis.event("compared with the per-sample loop")
        np.testing.assert_array_equal(tau, per_sample(m, "inverse_dynamics", [q, v, 0.0],
                                                      f_ext, full)[0])
    else:
        hypothesis.event(f"a result of {np.prod(full)} samples")


# ---- urdf2dyn.interop: the same shapes as the dynamics functions -----------------------------

PLANAR = """<robot name="planar2">
  <link name="a"/>
  <link name="b"><inertial><mass value="2"/><origin xyz="0.3 0.1 0"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="c"><inertial><mass value="1"/><origin xyz="0.5 0 0"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="plane" type="planar"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint>
  <joint name="hinge" type="continuous"><parent link="b"/><child link="c"/>
    <origin xyz="0.4 0 0"/><axis xyz="0 0 1"/></joint>
</robot>"""

FREE = """<mujoco><worldbody><body><freejoint/><geom size="0.1" mass="1" contype="0"
  conaffinity="0"/><body pos="0 0 1"><joint type="ball"/><geom size=".1" mass="1" contype="0"
  conaffinity="0"/></body></body></worldbody></mujoco>"""

# name -> (model, argument kinds): q urdf2dyn's configuration, v a velocity-like vector of
# urdf2dyn's width, p Pinocchio's configuration, w Pinocchio's velocity width
INTEROP = {
    "to_pinocchio_q": ("planar", "q"), "from_pinocchio_q": ("planar", "p"),
    "to_pinocchio_v": ("planar", "qv"), "from_pinocchio_v": ("planar", "qw"),
    "to_pinocchio_a": ("planar", "qvv"), "to_pinocchio_tau": ("planar", "qv"),
    "from_pinocchio_tau": ("planar", "qw"),
    "to_mujoco_qpos": ("free", "q"), "from_mujoco_qpos": ("free", "q"),
    "to_mujoco_qvel": ("free", "qv"), "from_mujoco_qvel": ("free", "qv"),
    "to_mujoco_qacc": ("free", "qvv"), "from_mujoco_qacc": ("free", "qvv"),
    "to_mujoco_qfrc": ("free", "qv"), "from_mujoco_qfrc": ("free", "qv"),
    "mujoco_velocity_map": ("free", "q"),
}


@pytest.fixture(scope="module")
def interop_models():
    return {"planar": urdf2dyn.load(PLANAR), "free": urdf2dyn.load(FREE)}


def interop_inputs(m, kinds, shapes, rng):
    from urdf2dyn import interop
    pin_nq = interop.pinocchio_sizes(m)[0]
    out = []
    for kind, shape in zip(kinds, shapes):
        if kind == "q":
            n = int(np.prod(shape, dtype=int))
            out.append(m.random_configuration(n, seed=int(rng.integers(1 << 31)))
                       .reshape(shape + (m.nq,)))
        else:
            out.append(rng.normal(size=shape + ((pin_nq,) if kind == "p" else (m.nv,))))
    return out


@pytest.mark.parametrize("name", sorted(INTEROP))
def test_interop_broadcasts_like_the_per_sample_loop(interop_models, name):
    """One q with a batch of v, a batch of q with one v, leading axes: each sample as if
    converted alone (the interop functions once took only (n,) or (N, n), the same N)."""
    from urdf2dyn import interop
    robot, kinds = INTEROP[name]
    m, f = interop_models[robot], getattr(interop, name)
    rng = np.random.default_rng(21)
    for shapes in ([(3,)] + [()] * (len(kinds) - 1), [()] + [(3,)] * (len(kinds) - 1),
                   [(2, 3)] + [(3,)] * (len(kinds) - 1), [(2, 1)] + [(1, 4)] * (len(kinds) - 1)):
        shapes = shapes[:len(kinds)]
        x = interop_inputs(m, kinds, shapes, rng)
        got = f(m, *x)
        batch = np.broadcast_shapes(*shapes)
        full = [np.broadcast_to(a, batch + a.shape[-1:]) for a in x]
        for idx in np.ndindex(*batch):           # NumPy's einsum may round per batch size
            np.testing.assert_allclose(got[idx], f(m, *[a[idx] for a in full]), rtol=1e-14,
                                       atol=1e-15)


@pytest.mark.parametrize("call, exc, words", [
    (lambda i, p, fr: i.to_pinocchio_q(p, "a"), TypeError,
     ["q: expected an array of real numbers"]),
    (lambda i, p, fr: i.to_pinocchio_v(p, np.zeros((3, 4)), np.zeros((2, 4))), ValueError,
     ["v: shape (2, 4) does not broadcast against q's (3, 4)"]),
    (lambda i, p, fr: i.from_pinocchio_q(p, np.zeros(4)), ValueError,
     ["q_pin: expected shape (6,), or (..., 6) for a batch, got (4,)"]),
    (lambda i, p, fr: i.to_pinocchio_a(p, np.zeros(4), np.zeros(4), [[1, 2], [3]]), TypeError,
     ["a: expected an array of real numbers"]),
    (lambda i, p, fr: i.to_mujoco_qpos(fr, [[1, 2], [3]]), TypeError,
     ["q: expected an array of real numbers"]),
    (lambda i, p, fr: i.from_mujoco_qfrc(fr, fr.neutral(), np.zeros(5)), ValueError,
     ["qfrc: expected shape (9,), or (..., 9) for a batch, got (5,)"]),
    (lambda i, p, fr: i.to_mujoco_qacc(fr, fr.neutral(), 0, "up"), TypeError,
     ["a: expected an array of real numbers"]),
    (lambda i, p, fr: i.mujoco_velocity_map(fr, 1.0), ValueError,
     ["q: expected shape (nq,) = (11,)", "only v, a and tau may be a scalar"]),
])
def test_interop_names_the_argument(interop_models, call, exc, words):
    from urdf2dyn import interop
    with pytest.raises(exc) as info:
        call(interop, interop_models["planar"], interop_models["free"])
    for w in words:
        assert w in str(info.value), str(info.value)


def test_interop_zero_quaternion_is_refused_as_in_the_dynamics(interop_models):
    """Refused with the sample and the joint, where NumPy divided by zero into NaN; a NaN
    quaternion stays NaN in its sample, as in the dynamics functions."""
    from urdf2dyn import interop
    m = interop_models["free"]
    q = np.tile(m.neutral(), (3, 1))
    q[1, 3:7] = 0.0
    for call in (lambda: interop.to_mujoco_qvel(m, q, 1.0),
                 lambda: interop.from_mujoco_qfrc(m, q, 1.0),
                 lambda: interop.mujoco_velocity_map(m, q)):
        with pytest.raises(ValueError, match=r"^q: sample 1: the quaternion of free joint "
                                             r"'.*' has zero or infinite norm"):
            call()
    q[1, 3:7] = np.nan
    v = interop.to_mujoco_qvel(m, q, 1.0)
    assert np.isnan(v[1, :3]).all() and np.isfinite(v[[0, 2]]).all()


# ---- out= -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", WITH_OUT)
def test_out_is_written_in_place_and_returned(models, name):
    m = models["float3"]
    kinds, call, _ = FUNCTIONS[name]
    rng = np.random.default_rng(8)
    inputs = [sample_values(m, k, (2, 3), rng) for k in kinds]
    expected = as_tuple(call(m, inputs))
    outs = tuple(np.full(e.shape, -7.0) for e in expected)
    got = call(m, inputs, out=outs if len(outs) > 1 else outs[0])
    for g, o, e in zip(as_tuple(got), outs, expected):
        assert g is o
        np.testing.assert_array_equal(o, e)
    # one sample in, into an out of one sample's shape
    one = as_tuple(call(m, [x[1, 2] for x in inputs]))
    outs1 = tuple(np.empty(np.shape(r)) for r in one)
    got1 = call(m, [x[1, 2] for x in inputs], out=outs1 if len(outs1) > 1 else outs1[0])
    for g, o, e in zip(as_tuple(got1), outs1, one):
        assert g is o
        np.testing.assert_array_equal(o, e)


def test_out_sets_the_batch_like_a_ufunc(models):
    """As for np.add(1, 2, out=np.empty(5)): inputs broadcast to out's leading axes."""
    m = models["arm7"]
    q = m.random_configuration(seed=9)
    out = np.empty((4, 2, 7))
    m.inverse_dynamics(q, 0, 0, out=out)
    np.testing.assert_array_equal(out, np.broadcast_to(m.gravity_torques(q), (4, 2, 7)))


@pytest.mark.parametrize("out, exc, words", [
    (np.empty((5, 7), dtype=np.float32), TypeError, ["out: expected dtype float64", "float32"]),
    (np.empty((5, 7), dtype=">f8"), TypeError, ["out: expected dtype float64"]),
    (np.empty((4, 7)), ValueError, ["out: expected shape (5, 7), got (4, 7)"]),
    (np.empty((5, 6)), ValueError, ["out: expected shape (5, 7), got (5, 6)"]),
    (np.empty(7), ValueError, ["out: expected shape (5, 7), got (7,)"]),
    (np.empty((7, 5)).T, ValueError, ["out: expected a C-contiguous array of shape (5, 7)"]),
    (np.empty((5, 14))[:, ::2], ValueError, ["out: expected a C-contiguous array"]),
    ([[0.0] * 7] * 5, TypeError, ["out: expected an array, got list"]),
    ((np.empty((5, 7)), np.empty((5, 7))), TypeError, ["out: expected an array, got tuple"]),
])
def test_bad_out_is_refused(models, out, exc, words):
    m = models["arm7"]
    with pytest.raises(exc) as info:
        m.inverse_dynamics(np.zeros((5, 7)), 0, 0, out=out)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_read_only_and_overlapping_outs_are_refused(models):
    m = models["arm7"]
    q = np.zeros((3, 7))
    ro = np.empty((3, 7))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out: the array is read-only"):
        m.inverse_dynamics(q, 0, 0, out=ro)
    buf = np.empty((3, 7, 7))
    with pytest.raises(ValueError, match=r"out\[0\] and out\[2\] overlap"):
        m.inverse_dynamics_derivatives(q, 0, 0, out=(buf, np.empty((3, 7, 7)), buf))
    with pytest.raises(TypeError, match="out: expected a tuple of 3 arrays, got tuple of "
                                        "length 2"):
        m.inverse_dynamics_derivatives(q, 0, 0, out=(buf, np.empty((3, 7, 7))))
    with pytest.raises(TypeError, match=r"out\[1\]: expected a NumPy array of shape "
                                        r"\(3, 10, 3, 3\)"):
        m.forward_kinematics(q, out=(np.empty((3, 10, 3)), None))


def test_out_aliasing_an_input_reads_the_input_first(models):
    """out may be an input (q += v dt in place, tau written over a): the result is the same as
    with a fresh out, never a mix of old and new values."""
    m = models["float3"]
    rng = np.random.default_rng(10)
    q = m.random_configuration(5, seed=11)
    v = rng.normal(size=(5, m.nv))
    expected = m.integrate(q, v, 0.1)
    q_inplace = q.copy()
    assert m.integrate(q_inplace, v, 0.1, out=q_inplace) is q_inplace
    np.testing.assert_array_equal(q_inplace, expected)
    qn = q * 3.0
    expected = m.normalize(qn)
    assert m.normalize(qn, out=qn) is qn
    np.testing.assert_array_equal(qn, expected)
    a = rng.normal(size=(5, m.nv))
    expected = m.inverse_dynamics(q, v, a)
    assert m.inverse_dynamics(q, v, a, out=a) is a
    np.testing.assert_array_equal(a, expected)
    # an out overlapping part of an input (a view into the same buffer)
    arm = models["arm7"]
    buf = rng.normal(size=(4, 7))
    q7, expected = buf[:, :], arm.inverse_dynamics(buf, buf[::-1], 0.0)
    arm.inverse_dynamics(q7, buf[::-1], 0.0, out=buf)
    np.testing.assert_array_equal(buf, expected)


# ---- NaN in, NaN out, per sample ------------------------------------------------------------

@pytest.mark.parametrize("path", urdf2dyn.available_simd_paths())
@pytest.mark.parametrize("robot", ["arm7", "float3"])
def test_nan_in_one_sample_stays_in_that_sample(models, robot, path):
    """A NaN in sample 5 of 11 (so that a SIMD group holds it beside clean samples) gives NaN
    in sample 5's results of every function that reads that input, and leaves every other
    sample bit-identical; nothing raises."""
    m = models[robot]
    rng = np.random.default_rng(12)
    previous = urdf2dyn.simd_path()
    urdf2dyn.set_simd_path(path)
    try:
        for name, (kinds, call, takes_fext) in FUNCTIONS.items():
            inputs = [sample_values(m, k, (11,), rng) for k in kinds]
            f_ext = {leaf(m): rng.normal(size=(11, 6))} if takes_fext else None
            kw = {"f_ext": f_ext} if f_ext else {}
            clean = as_tuple(call(m, inputs, **kw))
            for k in range(len(inputs) + (1 if f_ext else 0)):
                dirty = [x.copy() for x in inputs]
                dirty_f = {key: w.copy() for key, w in f_ext.items()} if f_ext else None
                if k < len(inputs):
                    dirty[k][5] = np.nan
                else:
                    dirty_f[leaf(m)][5] = np.nan
                got = as_tuple(call(m, dirty, **({"f_ext": dirty_f} if f_ext else {})))
                keep = np.arange(11) != 5
                for g, c in zip(got, clean):
                    np.testing.assert_array_equal(g[keep], c[keep], err_msg=f"{name} input {k}")
                assert any(np.isnan(g[5]).any() for g in got), (name, k)
    finally:
        urdf2dyn.set_simd_path(previous)


def test_a_failing_sample_is_named_by_its_index_in_the_batch(models):
    m = models["float3"]
    q = m.random_configuration(12, seed=16).reshape(3, 4, m.nq)
    q[2, 1, 3:7] = 0.0
    with pytest.raises(ValueError, match=r"^q: sample \(2, 1\): the quaternion of floating "
                                         r"joint 'root_joint'"):
        m.inverse_dynamics(q, 0, 0)


# ---- any value into an argument: a result, or a refusal naming that argument ----------------

from hypothesis.extra import numpy as hnp  # noqa: E402

ANY_SETTINGS = settings(SETTINGS, max_examples=max(EXAMPLES, 60))


def any_value(width):
    """Anything a user might pass: arrays of any dtype whose last axis is often the right
    width (or one off), NaN and infinities, scalars, negative counts, strings, None, ragged
    nested lists."""
    sides = st.sampled_from([width, width, width - 1, width + 1, 0, 1, 3])
    shapes = st.tuples(st.lists(st.sampled_from([0, 1, 2, 3]), max_size=2), sides).map(
        lambda t: tuple(t[0]) + (t[1],)) | hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                                                              max_side=4)
    dtypes = (st.just(np.dtype(float)) | hnp.integer_dtypes() | hnp.floating_dtypes()
              | hnp.boolean_dtypes() | hnp.complex_number_dtypes()
              | hnp.unicode_string_dtypes(max_len=2))
    leaf = (st.floats() | st.integers(-3, 3) | st.text(max_size=2) | st.none()
            | st.complex_numbers(max_magnitude=2))
    return st.one_of(
        hnp.arrays(dtypes, shapes),
        hnp.arrays(float, st.just((width,)), elements=st.floats()),
        st.recursive(leaf, lambda children: st.lists(children, max_size=width + 1),
                     max_leaves=2 * width),
        st.lists(st.floats(), min_size=width, max_size=width),
        leaf, st.booleans(), st.binary(max_size=3), st.just(object()))


def _simulate(m, **kw):
    from urdf2dyn.simulate import simulate
    args = {"q0": np.zeros(m.nq), "v0": np.zeros(m.nv), "tau": np.zeros((2, m.nv)),
            "dt": 0.01}
    args.update(kw)
    return simulate(m, args.pop("q0"), args.pop("v0"), args.pop("tau"), args.pop("dt"),
                    **args)


def _set_gravity(m, g):
    try:
        m.gravity = g
    finally:
        m.gravity = (0.0, 0.0, -9.81)


# argument -> (robot, width, call(model, value)); the name in the key is what a refusal must
# name
ARGUMENTS = {
    "wrench_at_point force": ("arm7", 3, lambda m, x: urdf2dyn.wrench_at_point(x, [0, 0, 1])),
    "wrench_at_point point": ("arm7", 3, lambda m, x: urdf2dyn.wrench_at_point([1, 0, 0], x)),
    "wrench_at_point moment": ("arm7", 3, lambda m, x: urdf2dyn.wrench_at_point(
        np.ones((2, 3)), [0, 0, 1], moment=x)),
    "simulate q0": ("arm7", 7, lambda m, x: _simulate(m, q0=x)),
    "simulate v0": ("arm7", 7, lambda m, x: _simulate(m, v0=x)),
    "simulate tau": ("arm7", 7, lambda m, x: _simulate(m, tau=x)),
    "simulate dt": ("arm7", 1, lambda m, x: _simulate(m, dt=x)),
    "simulate steps": ("arm7", 1, lambda m, x: _simulate(m, steps=x)),
    "simulate method": ("arm7", 1, lambda m, x: _simulate(m, method=x)),
    "jacobian link": ("arm7", 1, lambda m, x: m.jacobian(np.zeros(7), x)),
    "frame_velocity point": ("arm7", 3, lambda m, x: m.frame_velocity(
        np.zeros(7), 0, m.link_names[-1], x)),
    "Model.gravity gravity": ("arm7", 3, _set_gravity),
    "random_configuration n": ("float3", 1, lambda m, x: m.random_configuration(x)),
    "random_configuration seed": ("float3", 1, lambda m, x: m.random_configuration(2, seed=x)),
    "integrate dt": ("float3", 1, lambda m, x: m.integrate(np.tile(m.neutral(), (2, 1)), 1.0,
                                                               dt=x)),
    "to_pinocchio_q q": ("planar", 4, lambda m, x: interop.to_pinocchio_q(m, x)),
    "from_pinocchio_q q_pin": ("planar", 6, lambda m, x: interop.from_pinocchio_q(m, x)),
    "to_pinocchio_v q": ("planar", 4, lambda m, x: interop.to_pinocchio_v(m, x, np.ones(4))),
    "to_pinocchio_v v": ("planar", 4, lambda m, x: interop.to_pinocchio_v(
        m, np.zeros((2, 4)), x)),
    "to_pinocchio_a a": ("planar", 4, lambda m, x: interop.to_pinocchio_a(m, np.zeros(4), 1, x)),
    "from_pinocchio_tau tau_pin": ("planar", 4, lambda m, x: interop.from_pinocchio_tau(
        m, np.zeros(4), x)),
    "to_mujoco_qpos q": ("free", 11, lambda m, x: interop.to_mujoco_qpos(m, x)),
    "from_mujoco_qpos qpos": ("free", 11, lambda m, x: interop.from_mujoco_qpos(m, x)),
    "from_mujoco_qvel qvel": ("free", 9, lambda m, x: interop.from_mujoco_qvel(
        m, m.neutral(), x)),
    "to_mujoco_qacc v": ("free", 9, lambda m, x: interop.to_mujoco_qacc(m, m.neutral(), x, 0)),
    "from_mujoco_qfrc qfrc": ("free", 9, lambda m, x: interop.from_mujoco_qfrc(
        m, m.neutral()[None], x)),
}

from urdf2dyn import interop  # noqa: E402


@pytest.mark.parametrize("argument", sorted(ARGUMENTS))
def test_any_value_is_a_result_or_a_refusal_naming_the_argument(models, interop_models,
                                                                argument):
    """Strings, NaN, negative counts, wrong shapes, ragged nested lists: either a result, or
    a ValueError/TypeError whose message names the argument; never NumPy's or Python's own
    wording from inside a conversion."""
    robot, width, call = ARGUMENTS[argument]
    m = {**models, **interop_models}[robot]
    name = argument.split()[-1]
    named = re.compile(rf"(^|[ (']){re.escape(name)}(:| must|'s| ')")

    @ANY_SETTINGS
    @given(any_value(width))
    @hypothesis.example("a")
    @hypothesis.example(-1)
    @hypothesis.example(np.nan)
    @hypothesis.example([[0.0] * width, [0.0]])
    def check(x):
        import warnings
        with warnings.catch_warnings():
            # infinite or overflowing numbers give inf and NaN, as in the core; NumPy's
            # arithmetic warns about them on the way, which is not what is tested here
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                call(m, x)
            except (ValueError, TypeError) as e:
                hypothesis.event("refused")
                assert named.search(str(e)), (type(e).__name__, str(e))
                return
        hypothesis.event("a result")

    check()
