"""Everything on an MJCF model: derivatives, forward dynamics, frames and centroidal quantities
against Pinocchio's MJCF reader (Cassie: a free joint and two ball joints, where Pinocchio reads
the model as MuJoCo does), generated code against the core, and the command line."""
import csv
import os

import numpy as np
import pytest

import mjcf_oracle as oracle
from codegen_oracle import CRobot, compare, compile_c, import_python

pin = pytest.importorskip("pinocchio")

CASSIE = oracle.public_path("agility_cassie")


@pytest.fixture(scope="module")
def cassie():
    model = oracle.load_quiet(CASSIE)
    pm = oracle.pinocchio_model(pin, CASSIE, model)
    return model, pm, pm.createData()


def test_derivatives_and_forward_dynamics_match_pinocchio(cassie):
    model, pm, d = cassie
    q, v, a = oracle.random_states(model, 4, seed=5)
    for k in range(4):
        dq, dv, M = model.inverse_dynamics_derivatives(q[k], v[k], a[k])
        pin.computeRNEADerivatives(pm, d, q[k], v[k], a[k])
        scale = np.abs(d.dtau_dq).max()
        np.testing.assert_allclose(dq, d.dtau_dq, rtol=0, atol=1e-9 * scale)
        np.testing.assert_allclose(dv, d.dtau_dv, rtol=0, atol=1e-9 * np.abs(d.dtau_dv).max())
        tau = model.inverse_dynamics(q[k], v[k], a[k])
        np.testing.assert_allclose(pin.aba(pm, d, q[k], v[k], tau), a[k], atol=1e-8)
        np.testing.assert_allclose(model.forward_dynamics(q[k], v[k], tau), a[k], atol=1e-8)
        fq, fv, Minv = model.forward_dynamics_derivatives(q[k], v[k], tau)
        pin.computeABADerivatives(pm, d, q[k], v[k], tau)
        np.testing.assert_allclose(fq, d.ddq_dq, rtol=0, atol=1e-8 * np.abs(d.ddq_dq).max())
        np.testing.assert_allclose(fv, d.ddq_dv, rtol=0, atol=1e-8 * np.abs(d.ddq_dv).max())


def test_frames_configuration_and_centroidal_match_pinocchio(cassie):
    model, pm, d = cassie
    q, v, a = oracle.random_states(model, 3, seed=6)
    body = pin.FrameType.BODY
    for k in range(3):
        pin.forwardKinematics(pm, d, q[k], v[k], a[k])
        pin.computeJointJacobians(pm, d, q[k])
        pin.updateFramePlacements(pm, d)
        for link in ("left-foot", "right-achilles-rod", "cassie-pelvis"):
            fid = pm.getFrameId(link, body)
            for ref, pref in (("world", pin.WORLD), ("local", pin.LOCAL),
                              ("local_world_aligned", pin.LOCAL_WORLD_ALIGNED)):
                J = model.frame_jacobian(q[k], link, reference=ref)
                np.testing.assert_allclose(J, pin.getFrameJacobian(pm, d, fid, pref), atol=1e-12)
        q1 = model.integrate(q[k], v[k])
        np.testing.assert_allclose(q1, pin.integrate(pm, q[k], v[k]), atol=1e-12)
        np.testing.assert_allclose(model.difference(q[k], q1), v[k], atol=1e-12)
        pin.ccrba(pm, d, q[k], v[k])
        np.testing.assert_allclose(model.centroidal_momentum_matrix(q[k]), d.Ag, atol=1e-12)


def test_generated_code_matches_the_core(tmp_path):
    """Python and C generated for Cassie (ball joints) and the humanoid (chains of hinges)."""
    for k, name in enumerate(("agility_cassie", "humanoid")):
        model = oracle.load_quiet(oracle.public_path(name))
        mod = import_python(model, tmp_path, f"mjcf_{k}")
        compare(model, mod, 200 + k, 1e-12, n=3)
    model = oracle.load_quiet(CASSIE)
    os.makedirs(tmp_path / "c")
    lib = compile_c([("cassie", model)], str(tmp_path / "c"))
    compare(model, CRobot(lib, "cassie", model), 300, 1e-12, n=3)


def test_command_line_on_an_mjcf_model(tmp_path, capsys):
    from urdf2dyn.cli import main
    assert main(["info", CASSIE]) == 0
    out = capsys.readouterr().out
    assert "left-achilles-rod (ball, 3 DoF)" in out and "world" in out
    model = oracle.load_quiet(CASSIE)
    rotors = sorted({x for x in model.armature if x})
    assert (f"armature (a rotor's inertia on M's diagonal): {sum(model.armature > 0)} of "
            f"{model.nv} coordinates, {rotors[0]:g}") in out
    assert ("passive forces (model.passive_forces, not in inverse dynamics): damping on 18, "
            f"springs on 4 of {len(model.joints)} joints") in out
    assert main(["check", CASSIE]) == 0
    model = oracle.load_quiet(CASSIE)
    t = np.linspace(0, 1, 51)
    q = np.tile(model.default_q, (51, 1))
    q[:, model.q_names.index("left-knee")] += 0.3 * np.sin(2 * np.pi * t)
    motion = tmp_path / "walk.csv"
    with open(motion, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["time", *model.q_names])
        w.writerows(np.column_stack([t, q]).tolist())
    out = tmp_path / "tau.csv"
    assert main(["torques", CASSIE, str(motion), "-o", str(out), "--no-progress"]) == 0
    rows = list(csv.reader(open(out)))
    assert rows[0][1:] == list(model.v_names) and len(rows) == 52
    assert np.isfinite(np.array(rows[1:], dtype=float)).all()
    assert os.path.getsize(out) > 0
