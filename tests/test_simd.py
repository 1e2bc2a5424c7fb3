"""The SIMD paths (csrc/batch/u2d_simd*.c): every path this CPU has gives the portable path's
results bit for bit, and Pinocchio's (an independent implementation) to 1e-9; the path is
chosen from the CPU and URDF2DYN_SIMD, and reported."""
import os
import subprocess
import sys

import numpy as np
import pytest

import urdf2dyn

pin = pytest.importorskip("pinocchio")

PATHS = urdf2dyn.available_simd_paths()
VECTOR = [p for p in PATHS if p != "scalar"]


def _erd(rel):
    try:
        import example_robot_data  # noqa: F401
    except ImportError:
        pass
    for pre in sys.path:
        p = os.path.join(pre, "cmeel.prefix", "share", "example-robot-data", "robots", rel)
        if os.path.exists(p):
            return p
    pytest.skip(f"example-robot-data's {rel} not installed")


ROBOTS = {
    "ur5": ("ur_description/urdf/ur5_robot.urdf", False),
    "talos": ("talos_data/robots/talos_reduced.urdf", True),
    "human": (None, True),
    # an MJCF model with a rotor's armature on every joint (in RNEA, CRBA, ABA, derivatives),
    # a free joint and ball joints
    "cassie": ("mjcf", False),
    # an .osim model whose joints move their own columns: OpenSim custom joints (the thorax's
    # six coordinates, the clavicle) and a ScapulothoracicJoint (ellipsoid and winging pin)
    "shoulder": ("osim", False),
    # an .osim model with two ConstantCurvatureJoints (the arc's end, lane by lane)
    "spine": ("osim_curvature", False),
}
CASSIE = os.path.join(os.path.dirname(__file__), "data", "mjcf", "menagerie", "agility_cassie",
                      "cassie.xml")
SHOULDER = os.path.join(os.path.dirname(__file__), "data", "opensim_core",
                        "ThoracoscapularShoulderModel.osim")
SPINE = os.path.join(os.path.dirname(__file__), "data", "osim_joints",
                     "constant_curvature_spine.osim")


def _model(name):
    rel, floating = ROBOTS[name]
    if rel in ("mjcf", "osim", "osim_curvature"):
        import warnings
        path = {"mjcf": CASSIE, "osim": SHOULDER, "osim_curvature": SPINE}[rel]
        with warnings.catch_warnings():     # what they hold beyond rigid-body dynamics, reported
            warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
            model = urdf2dyn.load(path)
        kinds = {j.type for j in model.joints}
        assert model.armature.any() if rel == "mjcf" else kinds >= {"custom", "ellipsoid"} \
            if rel == "osim" else "constant_curvature" in kinds
        return path, False, model
    path = urdf2dyn.data_path("humod_subject_a.urdf") if rel is None else _erd(rel)
    return path, floating, urdf2dyn.load(path, floating_base=floating)


def _states(model, n, seed):
    rng = np.random.default_rng(seed)
    q = model.random_configuration(n, seed=seed)
    return q, rng.normal(size=(n, model.nv)), rng.normal(size=(n, model.nv))


@pytest.fixture(autouse=True)
def _restore_path():
    yield
    urdf2dyn.set_simd_path(None)


def _eval(model, q, v, a):
    n = len(q)
    try:
        aba = model.forward_dynamics(q, v, a)
    except ValueError as e:     # the bundled human's massless links: the same error, same sample
        aba = str(e)
    return {"rnea": model.inverse_dynamics(q, v, a), "nle": model.nonlinear_effects(q, v),
            "gravity": model.gravity_torques(q),
            "crba": model.mass_matrix(q).reshape(n, -1),
            "aba": aba}


def _rel(x, ref):
    """Largest error of a sample relative to the sample's largest component."""
    scale = np.maximum(np.max(np.abs(ref), axis=1, keepdims=True), 1e-300)
    return float(np.max(np.abs(x - ref) / scale))


def test_this_machine_has_a_vector_path():
    """Not a skip: on x86-64 with AVX2 (this project's CI machines) a vector path exists."""
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("portable path only off x86-64")
    with open("/proc/cpuinfo") as f:
        flags = f.read()
    if " avx2" in flags and " fma" in flags:
        assert "avx2" in PATHS
    if " avx512f" in flags and " avx512dq" in flags:
        assert "avx512" in PATHS
    assert urdf2dyn.simd_path() in PATHS


@pytest.mark.parametrize("path", VECTOR)
@pytest.mark.parametrize("robot", list(ROBOTS))
def test_vector_path_matches_portable_path(path, robot):
    _, _, model = _model(robot)
    q, v, a = _states(model, 1003, 7)           # not a multiple of the lanes: a scalar tail
    urdf2dyn.set_num_threads(1)
    try:
        urdf2dyn.set_simd_path("scalar")
        ref = _eval(model, q, v, a)
        assert urdf2dyn.set_simd_path(path) == path
        got = _eval(model, q, v, a)
    finally:
        urdf2dyn.set_num_threads(None)
    for key in ref:
        if isinstance(ref[key], str):
            assert got[key] == ref[key]
            continue
        assert np.array_equal(got[key], ref[key]), (path, robot, key, _rel(got[key], ref[key]))
        assert not np.array_equal(got[key], np.zeros_like(got[key]))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("robot", ["ur5", "panda", "talos", "romeo"])
def test_every_path_matches_pinocchio(path, robot):
    """Against Pinocchio through tests/pin_oracle.py (maps the joints by name)."""
    import pin_oracle as po
    loaded = po.load_robot(robot)
    if loaded is None:
        pytest.skip(f"example-robot-data URDF for {robot} not found")
    model, _, jmap = loaded
    q, v, a = po.random_state(model, np.random.default_rng(3), N=37)
    ref = po.pin_inverse_dynamics(jmap, q, v, a)
    urdf2dyn.set_simd_path(path)
    assert urdf2dyn.simd_path() == path
    err = po.relative_error(model.inverse_dynamics(q, v, a), ref)
    assert err < 1e-9, (path, robot, err)


@pytest.mark.parametrize("path", VECTOR)
def test_vector_path_results_do_not_depend_on_threads(path):
    _, _, model = _model("talos")
    q, v, a = _states(model, 2053, 11)
    urdf2dyn.set_simd_path(path)
    outs = []
    for n in (1, 2, 3):
        urdf2dyn.set_num_threads(n)
        outs.append(model.inverse_dynamics(q, v, a))
    urdf2dyn.set_num_threads(None)
    assert np.array_equal(outs[0], outs[1]) and np.array_equal(outs[0], outs[2])


@pytest.mark.parametrize("path", VECTOR)
def test_vector_path_bad_quaternion_is_pinned_to_its_sample(path):
    _, _, model = _model("talos")
    q, v, a = _states(model, 40, 5)
    q[21, 3:7] = 0.0
    urdf2dyn.set_simd_path(path)
    with pytest.raises(Exception, match="21"):
        model.inverse_dynamics(q, v, a)


def test_environment_variable_and_bad_names():
    for path in PATHS:
        out = subprocess.run([sys.executable, "-c", "import urdf2dyn; print(urdf2dyn.simd_path())"],
                             capture_output=True, text=True, env=dict(os.environ, URDF2DYN_SIMD=path),
                             check=True, cwd="/")
        assert out.stdout.strip() == path
    with pytest.raises(ValueError, match="unknown path"):
        urdf2dyn.set_simd_path("sse9")
    if "avx512" not in PATHS:
        with pytest.raises(ValueError, match="not available"):
            urdf2dyn.set_simd_path("avx512")


@pytest.mark.parametrize("path", VECTOR)
@pytest.mark.parametrize("shared", [True, False])
def test_vector_path_with_external_forces(path, shared):
    """RNEA and ABA with f_ext (shared by all samples, or one set per sample) on the vector
    path equal the portable path, and the wrenches change the result."""
    _, _, model = _model("talos")
    q, v, a = _states(model, 203, 9)
    rng = np.random.default_rng(4)
    links = [model.link_names[3], model.link_names[-1]]
    w = rng.normal(size=(6,)) if shared else rng.normal(size=(len(q), 6))
    f_ext = {links[0]: w, links[1]: 2 * w}
    urdf2dyn.set_simd_path("scalar")
    ref = model.inverse_dynamics(q, v, a, f_ext=f_ext)
    ref_aba = model.forward_dynamics(q, v, a, f_ext=f_ext)
    assert not np.allclose(ref, model.inverse_dynamics(q, v, a))
    urdf2dyn.set_simd_path(path)
    assert np.array_equal(model.inverse_dynamics(q, v, a, f_ext=f_ext), ref)
    assert np.array_equal(model.forward_dynamics(q, v, a, f_ext=f_ext), ref_aba)


def _fk_models():
    """ur5 (fixed base), talos (floating base), the bundled human as a user loads it, and a
    floating-base human (a free-flyer root: the quaternion on the vector path)."""
    yield "ur5", _model("ur5")[2]
    yield "talos", _model("talos")[2]
    yield "human", urdf2dyn.humod_subject("A")
    yield "human-floating", urdf2dyn.load(urdf2dyn.data_path("humod_subject_a.urdf"),
                                          floating_base=True)


@pytest.mark.parametrize("path", VECTOR)
def test_vector_path_forward_kinematics_matches_portable_path(path):
    """Link positions and rotations: every vector path equals the portable path bit for bit,
    with a scalar tail (N not a multiple of the lanes) and for 1, 2 and 3 threads."""
    for name, model in _fk_models():
        q = model.random_configuration(1003, seed=5)
        urdf2dyn.set_simd_path("scalar")
        urdf2dyn.set_num_threads(1)
        ref_pos, ref_rot = model.forward_kinematics(q)
        assert np.all(np.isfinite(ref_pos)) and np.ptp(ref_pos, axis=0).max() > 0.1  # moves
        urdf2dyn.set_simd_path(path)
        try:
            for n in (1, 2, 3):
                urdf2dyn.set_num_threads(n)
                pos, rot = model.forward_kinematics(q)
                assert np.array_equal(pos, ref_pos), (path, name, n, _rel(pos, ref_pos))
                assert np.array_equal(rot, ref_rot), (path, name, n)
        finally:
            urdf2dyn.set_num_threads(None)


@pytest.mark.parametrize("path", VECTOR)
def test_vector_path_forward_kinematics_bad_quaternion_is_pinned_to_its_sample(path):
    _, _, model = _model("talos")
    q = model.random_configuration(40, seed=2)
    q[13, 3:7] = 0.0
    urdf2dyn.set_simd_path(path)
    with pytest.raises(Exception, match="13"):
        model.forward_kinematics(q)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("robot", ["ur5", "talos"])
def test_every_path_forward_kinematics_matches_pinocchio(path, robot):
    """Every link frame against pin.framesForwardKinematics (oMf of the link's BODY frame)."""
    import pin_oracle as po
    loaded = po.load_robot(robot)
    if loaded is None:
        pytest.skip(f"example-robot-data URDF for {robot} not found")
    model, pm, jmap = loaded
    pd = pm.createData()
    q, v, a = po.random_state(model, np.random.default_rng(8), N=37)
    urdf2dyn.set_simd_path(path)
    pos, rot = model.forward_kinematics(q)
    fids = [pm.getFrameId(name, pin.FrameType.BODY) for name in model.link_names]
    err = 0.0
    for k in range(len(q)):
        pin.framesForwardKinematics(pm, pd, jmap.to_pin(q[k], v[k], a[k])[0])
        for l, fid in enumerate(fids):
            err = max(err, np.abs(pos[k, l] - pd.oMf[fid].translation).max(),
                      np.abs(rot[k, l] - pd.oMf[fid].rotation).max())
    assert err < 1e-12, (path, robot, err)


@pytest.mark.parametrize("path", VECTOR)
@pytest.mark.parametrize("robot", ROBOTS)
def test_vector_path_derivatives_match_portable_path(path, robot):
    """dRNEA/d(q, v, a) and dABA/d(q, v, tau) with M^-1, without and with external wrenches
    (shared, per sample): every vector path equals the portable path bit for bit, with a
    scalar tail and for 1 and 2 threads. (Pinocchio and finite differences on every path:
    tests/test_derivatives.py.)"""
    _, floating, model = _model(robot)
    n = 67
    q, v, a = _states(model, n, 13)
    rng = np.random.default_rng(14)
    links = [model.link_names[2], model.link_names[-1]]
    cases = {"none": None, "shared": {links[0]: rng.normal(size=6)},
             "per-sample": {links[0]: rng.normal(size=(n, 6)), links[1]: rng.normal(size=(n, 6))}}
    fns = {"rnea": model.inverse_dynamics_derivatives, "aba": model.forward_dynamics_derivatives}
    try:
        for threads in (1, 2):
            urdf2dyn.set_num_threads(threads)
            for key, f_ext in cases.items():
                for name, fn in fns.items():
                    urdf2dyn.set_simd_path("scalar")
                    try:
                        ref = fn(q, v, a, f_ext=f_ext)
                    except ValueError as e:      # the floating human: massless links, singular M
                        assert "singular mass matrix" in str(e), (robot, name, str(e))
                        urdf2dyn.set_simd_path(path)
                        with pytest.raises(ValueError, match=str(e).split(":")[0]):
                            fn(q, v, a, f_ext=f_ext)
                        continue
                    urdf2dyn.set_simd_path(path)
                    got = fn(q, v, a, f_ext=f_ext)
                    for g, r in zip(got, ref):
                        assert np.array_equal(g, r), (path, robot, threads, key, name,
                                                      _rel(g.reshape(n, -1), r.reshape(n, -1)))
                        assert np.all(np.isfinite(r)) and np.abs(r).max() > 0
    finally:
        urdf2dyn.set_num_threads(None)


@pytest.mark.parametrize("path", VECTOR)
def test_vector_path_calls_in_any_order_on_one_model(path):
    """A model's calls keep the lane workspace the vector path makes at the first one and
    reuse it (csrc/batch/u2d_simd_impl.h, lane_space): the ABA derivatives' dense matrices
    then the mass matrix and the RNEA derivatives (which write only the entries that can be
    non-zero), gravity and nonlinear effects (zero velocities, accelerations) after RNEA,
    wrenches after none, another path in between. Each call equals the portable path's bit
    for bit."""
    _, _, model = _model("talos")
    n = 29
    q, v, a = _states(model, n, 21)
    f_ext = {model.link_names[-1]: np.random.default_rng(22).normal(size=(n, 6))}
    calls = [
        ("daba", lambda: model.forward_dynamics_derivatives(q, v, a)),
        ("crba", lambda: model.mass_matrix(q)),
        ("drnea", lambda: model.inverse_dynamics_derivatives(q, v, a)),
        ("daba", lambda: model.forward_dynamics_derivatives(q, v, a, f_ext=f_ext)),
        ("drnea", lambda: model.inverse_dynamics_derivatives(q, v, a)),
        ("rnea", lambda: model.inverse_dynamics(q, v, a, f_ext=f_ext)),
        ("gravity", lambda: model.gravity_torques(q)),
        ("rnea", lambda: model.inverse_dynamics(q, v, a)),
        ("nle", lambda: model.nonlinear_effects(q, v)),
        ("crba", lambda: model.mass_matrix(q)),
        ("fk", lambda: model.forward_kinematics(q)),
        ("aba", lambda: model.forward_dynamics(q, v, a)),
    ]
    urdf2dyn.set_simd_path("scalar")
    refs = [call() for _, call in calls]
    other = [p for p in VECTOR if p != path]
    for k, ((name, call), ref) in enumerate(zip(calls, refs)):
        urdf2dyn.set_simd_path(other[0] if other and k == 6 else path)
        got = call()
        for g, r in zip(got if isinstance(got, tuple) else (got,),
                        ref if isinstance(ref, tuple) else (ref,)):
            assert np.array_equal(g, r), (path, k, name)


def _at_offset(shape, k):
    """An array of NaN of this shape starting k doubles after a 64-byte line."""
    size = int(np.prod(shape))
    backing = np.full(size + 16, np.nan)
    start = (-backing.ctypes.data % 64) // 8 + k
    out = backing[start:start + size].reshape(shape)
    assert out.ctypes.data % 64 == 8 * k
    return out


@pytest.mark.parametrize("path", VECTOR)
@pytest.mark.parametrize("robot", ["talos", "arm7"])
def test_vector_path_outputs_at_every_place_in_a_line(path, robot):
    """Outputs below the streaming size are written with stores aligned to the vector's width
    wherever a sample's row starts in a line (csrc/batch/u2d_simd_impl.h, scatter_aligned):
    into out= buffers of NaN starting at each of the 8 doubles of a line, talos' rows of 38
    (RNEA) and 38 x 38 doubles (every other row half a line on) and arm7's of 7 x 7 (no two
    rows of a group at the same place), with a tail of samples, every entry equals the
    portable path's bit for bit."""
    if robot == "talos":
        _, _, model = _model("talos")
    else:
        model = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    nv, n = model.nv, 37
    q, v, a = _states(model, n, 31)
    calls = {
        "crba": (lambda out: model.mass_matrix(q, out=out), [(n, nv, nv)]),
        "rnea": (lambda out: model.inverse_dynamics(q, v, a, out=out), [(n, nv)]),
        "drnea": (lambda out: model.inverse_dynamics_derivatives(q, v, a, out=out),
                  [(n, nv, nv)] * 3),
        "daba": (lambda out: model.forward_dynamics_derivatives(q, v, a, out=out),
                 [(n, nv, nv)] * 3),
    }
    urdf2dyn.set_num_threads(1)
    try:
        for name, (call, shapes) in calls.items():
            urdf2dyn.set_simd_path("scalar")
            ref = call(None)
            ref = ref if isinstance(ref, tuple) else (ref,)
            urdf2dyn.set_simd_path(path)
            for k in range(8):
                out = tuple(_at_offset(s, k) for s in shapes)
                got = call(out if len(out) > 1 else out[0])
                got = got if isinstance(got, tuple) else (got,)
                for g, o, r in zip(got, out, ref):
                    assert g is o
                    assert np.array_equal(g, r), (path, robot, name, k)
    finally:
        urdf2dyn.set_num_threads(None)


def _stream_threshold():
    """U2D_STREAM_BYTES from csrc/batch/u2d_simd_impl.h: outputs larger than this (per thread)
    are written with non-temporal stores on x86."""
    import re
    src = os.path.join(os.path.dirname(__file__), "..", "csrc", "batch", "u2d_simd_impl.h")
    with open(src) as f:
        m = re.search(r"#define U2D_STREAM_BYTES \(\(size_t\)(\d+) << (\d+)\)", f.read())
    assert m, "U2D_STREAM_BYTES not found: update this test with the source"
    return int(m.group(1)) << int(m.group(2))


@pytest.mark.parametrize("path", VECTOR)
@pytest.mark.parametrize("robot", ["talos", "arm7"])
def test_vector_path_large_derivative_outputs_into_dirty_buffers(path, robot):
    """Derivative outputs larger than the cache (streamed with non-temporal stores where the
    CPU has them: each group staged, then copied out in whole lines) and out= buffers full of
    NaN: every entry is written, the structural zeros of the RNEA derivatives included (the
    lane matrices are zeroed once per call, not per group), equal to the portable path bit for
    bit; also into rows that are only 8-byte aligned (out= a view one double into a larger
    buffer), whose groups start and end inside a line, and, on arm7 (nv = 7), into rows of an
    odd number of doubles, where no two rows start at the same place in a line."""
    if robot == "talos":
        _, _, model = _model("talos")
    else:
        model = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    nv = model.nv
    n = _stream_threshold() // (3 * nv * nv * 8) + 7          # one thread streams; odd tail
    assert 3 * n * nv * nv * 8 > _stream_threshold()
    q, v, a = _states(model, n, 21)
    urdf2dyn.set_num_threads(1)
    try:
        for fn in (model.inverse_dynamics_derivatives, model.forward_dynamics_derivatives):
            urdf2dyn.set_simd_path("scalar")
            ref = fn(q, v, a)
            urdf2dyn.set_simd_path(path)
            dirty = tuple(np.full((n, nv, nv), np.nan) for _ in range(3))
            backing = [np.full(n * nv * nv + 1, np.nan) for _ in range(3)]
            shifted = tuple(b[1:].reshape(n, nv, nv) for b in backing)
            assert all(s.ctypes.data % 16 == 8 for s in shifted)
            for out in (dirty, shifted):
                got = fn(q, v, a, out=out)
                for g, o, r in zip(got, out, ref):
                    assert g is o
                    assert np.array_equal(g, r), (path, fn.__name__)
            if robot == "talos":
                assert (ref[0] == 0).any()                  # there are structural zeros
        # the mass matrix alone: one (nv, nv) output, a third as large; streamed from 3 n
        q3 = np.concatenate([q, q, q])
        urdf2dyn.set_simd_path("scalar")
        ref = model.mass_matrix(q3)
        urdf2dyn.set_simd_path(path)
        for out in (np.full((3 * n, nv, nv), np.nan),
                    np.full(3 * n * nv * nv + 1, np.nan)[1:].reshape(3 * n, nv, nv)):
            assert model.mass_matrix(q3, out=out) is out
            assert np.array_equal(out, ref), path
    finally:
        urdf2dyn.set_num_threads(None)
