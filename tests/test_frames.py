"""Frame Jacobians, their time derivatives, frame velocities and accelerations in Pinocchio's
three reference frames (LOCAL, WORLD, LOCAL_WORLD_ALIGNED), against Pinocchio's
getFrameJacobian / getFrameJacobianTimeVariation / getFrameVelocity / getFrameAcceleration /
getFrameClassicalAcceleration on real and random robots, at points added to Pinocchio as
OP_FRAMEs; and against finite differences of urdf2dyn's own Jacobians and velocities along
trajectories (an oracle that needs no convention at all)."""
import os
import sys

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pin_oracle as po  # noqa: E402
from urdfgen import random_urdf  # noqa: E402

import urdf2dyn  # noqa: E402

TOL = 1e-9
REFS = [("local", pin.LOCAL), ("world", pin.WORLD),
        ("local_world_aligned", pin.LOCAL_WORLD_ALIGNED)]
CASES = ["ur5", "panda", "talos", "solo12", "romeo", "random-1", "random-2", "random-5"]


def _load(cid):
    if cid.startswith("random-"):
        seed = int(cid.split("-")[1])
        src, fb = random_urdf(seed, n_links=12, floating_root=False), seed % 2 == 1
    else:
        src = po.robot_path(cid)
        if src is None:
            pytest.skip(f"example-robot-data URDF for {cid} not found")
        fb = po.ROBOTS[cid][1]
    return urdf2dyn.load(src, floating_base=fb), po.build_pin_model(src, fb)


def _pin_frame(pm, link, point):
    """Add an OP_FRAME at `point` (link coordinates) on link's BODY frame; its id."""
    fid = pm.getFrameId(link, pin.FrameType.BODY)
    f = pm.frames[fid]
    name = f"u2d_test_{link}_{len(pm.frames)}"
    placement = f.placement * pin.SE3(np.eye(3), np.asarray(point, float))
    return pm.addFrame(pin.Frame(name, f.parentJoint, fid, placement, pin.FrameType.OP_FRAME))


def _rel(x, ref):
    return float(np.max(np.abs(np.asarray(x) - ref)) / max(1.0, float(np.max(np.abs(ref)))))


@pytest.mark.parametrize("cid", CASES)
def test_frames_match_pinocchio(cid):
    model, pm = _load(cid)
    rng = np.random.default_rng(sum(map(ord, cid)))
    links = [model.link_names[i] for i in rng.choice(len(model.link_names), 4, replace=False)]
    points = [None] + [rng.normal(scale=0.2, size=3) for _ in links[1:]]
    fids = [_pin_frame(pm, l, np.zeros(3) if p is None else p) for l, p in zip(links, points)]
    jmap = po.JointMap(model.joints, pm, model.nq, model.nv)
    data = pm.createData()
    Q, V, A = po.random_state(model, rng, N=3)
    got = {}
    for link, point in zip(links, points):
        for name, _ in REFS:
            got[link, name] = (model.frame_jacobian(Q, link, point, name),
                               model.frame_jacobian_time_variation(Q, V, link, point, name),
                               model.frame_velocity(Q, V, link, point, name),
                               model.frame_acceleration(Q, V, A, link, point, name),
                               model.frame_classical_acceleration(Q, V, A, link, point, name))
    worst = 0.0
    for s in range(len(Q)):
        qp, vp, ap = jmap.to_pin(Q[s], V[s], A[s])
        # the planar joints' v differ from Pinocchio's: none in these robots
        assert not any(j.type == "planar" for j in model.joints)
        pin.computeJointJacobians(pm, data, qp)
        pin.computeJointJacobiansTimeVariation(pm, data, qp, vp)
        pin.forwardKinematics(pm, data, qp, vp, ap)
        pin.updateFramePlacements(pm, data)
        for link, fid in zip(links, fids):
            for name, rf in REFS:
                ref = (pin.getFrameJacobian(pm, data, fid, rf),
                       pin.getFrameJacobianTimeVariation(pm, data, fid, rf),
                       pin.getFrameVelocity(pm, data, fid, rf).vector,
                       pin.getFrameAcceleration(pm, data, fid, rf).vector,
                       pin.getFrameClassicalAcceleration(pm, data, fid, rf).vector)
                for what, ours, theirs in zip(("J", "dJ", "vel", "acc", "classical"),
                                              got[link, name], ref):
                    err = _rel(ours[s], theirs)
                    worst = max(worst, err)
                    assert err < TOL, f"{cid} {link} {name} {what}: relative error {err:.2e}"
    print(f"{cid}: worst relative error {worst:.2e}")


@pytest.mark.parametrize("cid", ["talos", "panda", "random-3"])
def test_frames_against_finite_differences(cid):
    """dJ/dt and accelerations are the time derivatives of J and of the velocity along a
    trajectory q(t) = q0 (+) v t + a t²/2 (central differences, step 1e-5)."""
    model, _ = _load(cid)
    rng = np.random.default_rng(7)
    q0, v0, a0 = po.random_state(model, rng)
    h = 1e-5

    def state(t):
        return model.integrate(q0, v0 * t + 0.5 * a0 * t * t), v0 + a0 * t

    for link in [model.link_names[i] for i in rng.choice(len(model.link_names), 3, replace=False)]:
        point = rng.normal(scale=0.3, size=3)
        for name, _ in REFS:
            # q(t) moves along a straight line in the tangent space; its velocity is v0 + a0 t
            # only for vector-space joints, so differentiate J along v at t = 0 with a = 0
            qp, qm = model.integrate(q0, v0 * h), model.integrate(q0, -v0 * h)
            Jp, Jm = (model.frame_jacobian(x, link, point, name) for x in (qp, qm))
            dJ = model.frame_jacobian_time_variation(q0, v0, link, point, name)
            fd = (Jp - Jm) / (2 * h)
            assert np.allclose(dJ, fd, atol=1e-6 * max(1.0, np.abs(fd).max())), (link, name)
            if model.floating_base:
                continue        # the floating base's v is not dq/dt along a curved path
            (qa, va), (qb, vb) = state(h), state(-h)
            acc_fd = (model.frame_velocity(qa, va, link, point, name)
                      - model.frame_velocity(qb, vb, link, point, name)) / (2 * h)
            acc = model.frame_acceleration(q0, v0, a0, link, point, name)
            classical = model.frame_classical_acceleration(q0, v0, a0, link, point, name)
            J = model.frame_jacobian(q0, link, point, name)
            assert np.allclose(J @ a0 + dJ @ v0,
                               classical if name == "local_world_aligned" else acc, atol=1e-9)
            if name == "world":        # the spatial acceleration is d/dt of the world twist
                assert np.allclose(acc, acc_fd, atol=1e-5 * max(1.0, np.abs(acc).max()))
            if name == "local_world_aligned":   # the point's classical acceleration: d²p/dt²
                assert np.allclose(classical[:3], acc_fd[:3],
                                   atol=1e-5 * max(1.0, np.abs(acc_fd).max()))


def test_frames_local_world_aligned_is_the_old_jacobian():
    model = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    q = model.random_configuration(5, seed=1)
    for link in model.link_names:
        np.testing.assert_allclose(model.frame_jacobian(q, link, (0.1, 0.2, -0.3)),
                                   model.jacobian(q, link, (0.1, 0.2, -0.3)), atol=1e-14)


def test_frames_bad_arguments():
    model = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    q = model.neutral()
    link = model.link_names[-1]
    with pytest.raises(ValueError, match="reference must be 'local', 'world'"):
        model.frame_jacobian(q, link, reference="global")
    with pytest.raises(ValueError, match="unknown link 'nope'"):
        model.frame_velocity(q, np.zeros(model.nv), "nope")
    with pytest.raises(ValueError, match="point must be 3 finite numbers"):
        model.frame_acceleration(q, q, q, link, point=(0, np.nan, 0))
    # Pinocchio's enum is accepted as well as its name
    np.testing.assert_array_equal(model.frame_jacobian(q, link, reference=pin.LOCAL),
                                  model.frame_jacobian(q, link, reference="LOCAL"))


@pytest.mark.parametrize("cid", ["talos", "romeo"])
def test_joint_jacobians_are_the_child_links_frames(cid):
    """Pinocchio's getJointJacobian / getJointJacobianTimeVariation is the frame of the
    joint's child link (whose origin is the joint frame)."""
    model, pm = _load(cid)
    data = pm.createData()
    jmap = po.JointMap(model.joints, pm, model.nq, model.nv)
    q, v, a = po.random_state(model, np.random.default_rng(5))
    qp, vp, _ = jmap.to_pin(q, v, a)
    pin.computeJointJacobians(pm, data, qp)
    pin.computeJointJacobiansTimeVariation(pm, data, qp, vp)
    for j in model.joints:
        jid = pm.getJointId(j.name)
        for name, rf in REFS:
            J = model.frame_jacobian(q, j.child, reference=name)
            dJ = model.frame_jacobian_time_variation(q, v, j.child, reference=name)
            assert _rel(J, pin.getJointJacobian(pm, data, jid, rf)) < TOL, (j.name, name)
            assert _rel(dJ, pin.getJointJacobianTimeVariation(pm, data, jid, rf)) < TOL
