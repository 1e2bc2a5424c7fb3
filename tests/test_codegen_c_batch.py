"""The generated C's batched functions (<prefix>_<kind>_batch, samples innermost), compiled
optimized and vectorized (-O3 -fno-math-errno -march=native, as docs/codegen.rst advises)
and called through ctypes on 203 samples (three chunks and a tail): RNEA, CRBA, ABA and forward
kinematics against the core (itself checked against Pinocchio), 1e-12 relative, on small
robots; tests/test_codegen_c.py compiles them (-O0 -std=c99 -pedantic -Werror) for every
robot there, the 36-DoF human, talos and romeo included."""
import ctypes
import subprocess

import numpy as np
import pytest

from codegen_oracle import CFLAGS, cc, random_models
from urdfgen import random_urdf

import urdf2dyn
from urdf2dyn import codegen

pytestmark = pytest.mark.skipif(cc() is None, reason="no C compiler (cc) on PATH")
N = 203


def _models():
    """Small robots (the batched code is for them; large ones compile for minutes at -O3):
    arm7, and random trees with every joint type (tree1: planar joints and massless links,
    so a singular mass matrix; tree2: a floating base; planar1: planar joints and a mass in
    every link, for ABA)."""
    planar = urdf2dyn.load(random_urdf(1, planar=True, massless_prob=0.0))
    return [("arm7", urdf2dyn.load(urdf2dyn.data_path("arm7.urdf")))] + random_models(3)[1:] \
        + [("planar1", planar)]


MODELS = _models()
#: the models whose mass matrix is singular (massless leaves): no forward dynamics to compare
SINGULAR = {"tree1"}


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    d = tmp_path_factory.mktemp("gen_batch")
    objects = []
    for prefix, model in MODELS:
        paths = codegen.write(codegen.generate(model, "c", name=prefix), d)
        src = [p for p in paths if p.endswith(".c")][0]
        obj = src[:-2] + ".o"
        subprocess.run([cc(), *CFLAGS, "-O3", "-fno-math-errno", "-march=native", "-fPIC",
                        "-c", "-o", obj, src], check=True, capture_output=True, text=True)
        objects.append(obj)
    so = str(d / "libbatch.so")
    subprocess.run([cc(), "-shared", "-o", so, *objects, "-lm"], check=True)
    return ctypes.CDLL(so)


def _call(lib, name, n, *arrays):
    f = getattr(lib, name)
    f.restype = None
    f(ctypes.c_size_t(n), *[a.ctypes.data_as(ctypes.c_void_p) for a in arrays])


def _rel(x, ref):
    return float(np.max(np.abs(x - ref)) / max(1.0, float(np.max(np.abs(ref)))))


@pytest.mark.parametrize("k", range(len(MODELS)), ids=[p for p, _ in MODELS])
def test_batched_functions_match_core(lib, k):
    prefix, model = MODELS[k]
    rng = np.random.default_rng(k)
    q = model.random_configuration(N, seed=k)
    v, a = rng.normal(size=(N, model.nv)), rng.normal(size=(N, model.nv))
    g = np.array(model.gravity, dtype=float)
    T = lambda x: np.ascontiguousarray(np.moveaxis(x, 0, -1))      # noqa: E731 samples last
    nv, nl = model.nv, len(model.link_names)

    tau = np.empty((nv, N))
    _call(lib, f"{prefix}_rnea_batch", N, T(q), T(v), T(a), g, tau)
    ref = model.inverse_dynamics(q, v, a)
    assert _rel(tau.T, ref) < 1e-12

    M = np.full((nv, nv, N), np.nan)
    _call(lib, f"{prefix}_crba_batch", N, T(q), M)
    assert _rel(np.moveaxis(M, -1, 0), model.mass_matrix(q)) < 1e-12

    pos, rot = np.empty((nl, 3, N)), np.empty((nl, 3, 3, N))
    _call(lib, f"{prefix}_fk_batch", N, T(q), pos, rot)
    ref_pos, ref_rot = model.forward_kinematics(q)
    assert _rel(np.moveaxis(pos, -1, 0), ref_pos) < 1e-12
    assert _rel(np.moveaxis(rot, -1, 0), ref_rot) < 1e-12

    if prefix in SINGULAR:
        with pytest.raises(ValueError):
            model.forward_dynamics(q, v, ref)
        return
    ref_qdd = model.forward_dynamics(q, v, ref)
    qdd = np.empty((nv, N))
    _call(lib, f"{prefix}_aba_batch", N, T(q), T(v), np.ascontiguousarray(ref.T), g, qdd)
    assert _rel(qdd.T, ref_qdd) < 1e-9 * max(1.0, np.abs(a).max())
    assert _rel(qdd.T, a) < 1e-8


def test_batched_sines_outside_the_polynomial_range(lib):
    """The batched functions take sines and cosines with their own vectorized polynomial for
    |angle| < 2^19 and with libm beyond (and for NaN), per sample: angles of 1e6 and 1e12
    rad, a NaN and ordinary ones side by side in one chunk give, sample by sample, the
    core's results (whose u2d_sincos makes the same split), and NaN stays in its sample."""
    prefix, model = MODELS[0]                                   # arm7: revolute joints
    q = model.random_configuration(N, seed=7)
    q[1::4, 0] = 1e6 + 0.25
    q[2::4, 1] = -1e12 / 3
    q[3::4, 2] = 524288.0                                       # 2^19: the first libm angle
    q[5, 3] = np.nan
    T = lambda x: np.ascontiguousarray(np.moveaxis(x, 0, -1))      # noqa: E731
    nl = len(model.link_names)
    pos, rot = np.empty((nl, 3, N)), np.empty((nl, 3, 3, N))
    _call(lib, f"{prefix}_fk_batch", N, T(q), pos, rot)
    ref_pos, ref_rot = model.forward_kinematics(q)
    got = np.moveaxis(rot, -1, 0)
    ok = np.ones(N, bool)
    ok[5] = False
    assert np.isnan(got[5]).any() and not np.isnan(got[ok]).any()
    assert _rel(got[ok], ref_rot[ok]) < 1e-12
    assert _rel(np.moveaxis(pos, -1, 0)[ok], ref_pos[ok]) < 1e-12


def test_aba_is_compared_for_the_random_trees_joint_types():
    """The models whose ABA test_batched_functions_match_core compares hold every joint type
    of the random trees, planar joints included (ball and custom joints are not in them)."""
    compared = {j.type for prefix, model in MODELS if prefix not in SINGULAR
                for j in model.joints}
    assert {"revolute", "continuous", "prismatic", "planar", "floating"} <= compared
