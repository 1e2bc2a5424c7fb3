"""Every URDF of example-robot-data, fixed and floating base, against Pinocchio: the four
quantities a user computes first (inverse dynamics, mass matrix, forward dynamics, the pose
of every link), the joints' limits and <dynamics>, and the command line's ``info`` on each
file.

tests/test_robots.py checks the joint order, RNEA and CRBA with vectors passed as they are;
this module goes through tests/pin_oracle.py's converters (joints matched by name) and adds
ABA and forward kinematics. Where Pinocchio's own mass matrix is singular (a movable joint
with nothing massive beyond it: romeo's fingers), Pinocchio's ABA divides by zero and returns
NaN and infinities for most joints; urdf2dyn refuses, naming the joints that carry no
inertia. Three random states per robot keep the module within seconds.

It fails on a slip of any of them: rotations transposed in forward kinematics, a relative
error of 1e-8 in forward dynamics, or standard gravity (9.80665) instead of Pinocchio's 9.81
fail 130 of the 138 cases or more.
"""
import glob
import os
import sys
import warnings

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pin_oracle as po  # noqa: E402

import urdf2dyn  # noqa: E402
from urdf2dyn import interop  # noqa: E402
from urdf2dyn.cli import main  # noqa: E402

TOL = 1e-10          # relative, as pin_oracle.relative_error measures it
STATES = 3
ROOT = po.robots_dir()
URDFS = sorted(os.path.relpath(p, ROOT) for p in
               glob.glob(os.path.join(ROOT, "**", "*.urdf"), recursive=True)) if ROOT else []
CASES = [pytest.param(rel, fb, id=f"{rel}-{'floating' if fb else 'fixed'}")
         for rel in URDFS for fb in (False, True)]

pytestmark = pytest.mark.skipif(ROOT is None, reason="example-robot-data is not installed")


def _load_both(path, floating):
    """(ours, Pinocchio's) models, or None when Pinocchio refuses the file (then ours must
    refuse it too: a file loads in both or in neither)."""
    try:
        pm = po.build_pin_model(path, floating)
    except (RuntimeError, ValueError):
        with pytest.raises(urdf2dyn.URDFError, match=f"^{path}: "):
            urdf2dyn.load(path, floating_base=floating)
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path, floating_base=floating), pm


def _pin_mass_matrix(pm, data, qp):
    M = pin.crba(pm, data, qp)
    return np.triu(M) + np.triu(M, 1).T


def check_dynamics(model, jmap, q, v, a):
    """RNEA and CRBA against Pinocchio's, in urdf2dyn's coordinates."""
    pm = jmap.pin_model
    data = pm.createData()
    qp, vp, ap = jmap.to_pin(q, v, a)
    tau_pin = jmap.tau_from_pin(q, pin.rnea(pm, data, qp, vp, ap))
    assert po.relative_error(model.inverse_dynamics(q, v, a), tau_pin) < TOL
    T, _ = po.velocity_transform(jmap, q)
    M_pin = T.T @ _pin_mass_matrix(pm, data, qp) @ T
    assert po.relative_error(model.mass_matrix(q), M_pin) < TOL


def check_forward_dynamics(model, jmap, q, v, tau):
    """ABA against Pinocchio's: the backward error in Pinocchio's own M and h (well posed
    whatever M's conditioning), and the forward error against pin.aba within what the
    condition number allows; a singular M (Pinocchio's) must be refused, naming a joint."""
    pm = jmap.pin_model
    data = pm.createData()
    qp, vp, _ = jmap.to_pin(q, v, np.zeros_like(v))
    T, Td = po.velocity_transform(jmap, q, v)
    M_pin = _pin_mass_matrix(pm, data, qp)
    diag = np.diag(T.T @ M_pin @ T)
    dead = [j.name for j in model.joints if diag[j.v_index:j.v_index + j.nv].min()
            <= 1e-12 * diag.max()]
    if dead:
        with pytest.raises(ValueError, match="singular mass matrix.*; here joints? '(%s)'"
                           % "|".join(dead)):
            model.forward_dynamics(q, v, tau)
        return
    qdd = model.forward_dynamics(q, v, tau)
    tau_pin = interop.to_pinocchio_tau(model, q, tau, pm)
    a_pin = T @ qdd + Td @ v                   # our acceleration in Pinocchio's coordinates
    h_pin = pin.nonLinearEffects(pm, data, qp, vp)
    residual = M_pin @ a_pin + h_pin - tau_pin
    scale = max(1.0, np.abs(M_pin @ a_pin).max(), np.abs(h_pin).max(), np.abs(tau_pin).max())
    assert np.abs(residual).max() / scale < TOL
    qdd_pin = np.linalg.solve(T, pin.aba(pm, data, qp, vp, tau_pin) - Td @ v)
    assert po.relative_error(qdd, qdd_pin) < TOL * max(1.0, 1e-6 * np.linalg.cond(M_pin))


def check_kinematics(model, pm, jmap, q):
    """Every URDF link's pose, by name, against Pinocchio's BODY frames."""
    assert set(model.link_names) == set(po.body_frames(pm))
    data = pm.createData()
    pin.framesForwardKinematics(pm, data, interop.to_pinocchio_q(model, q, pm))
    pos, rot = model.forward_kinematics(q)
    for k, name in enumerate(model.link_names):
        oMf = data.oMf[pm.getFrameId(name, pin.FrameType.BODY)]
        assert po.relative_error(pos[k], oMf.translation) < TOL, name
        np.testing.assert_allclose(rot[k], oMf.rotation, rtol=0, atol=TOL, err_msg=name)


def check_joint_data(model, pm):
    """<limit> and <dynamics> as Pinocchio reads them (urdf2dyn applies neither in the
    dynamics, and neither does Pinocchio's RNEA; a continuous joint's position limits are
    Pinocchio's +-inf or its cos/sin bounds, so only its effort and velocity are compared)."""
    for j in model.joints:
        if j.parent is None:                    # the floating root: no URDF joint
            continue
        jm = pm.joints[pm.getJointId(j.name)]
        iq, iv = jm.idx_q, jm.idx_v
        assert (j.damping, j.friction) == (pm.damping[iv], pm.friction[iv]), j.name
        if j.limit is None:
            continue
        theirs = [pm.lowerPositionLimit[iq], pm.upperPositionLimit[iq], pm.effortLimit[iv],
                  pm.velocityLimit[iv]]
        first = 2 if j.type == "continuous" else 0
        assert list(j.limit[first:]) == theirs[first:], j.name


@pytest.mark.parametrize("rel, floating", CASES)
def test_matches_pinocchio(rel, floating):
    both = _load_both(os.path.join(ROOT, rel), floating)
    if both is None:
        return
    model, pm = both
    jmap = po.JointMap(model.joints, pm, model.nq, model.nv)
    check_joint_data(model, pm)
    rng = np.random.default_rng(sum(map(ord, rel)) + floating)
    for _ in range(STATES):
        q, v, a = po.random_state(model, rng)
        if model.nv:                # (a fixed-base single body only has its links' poses)
            check_dynamics(model, jmap, q, v, a)
            check_forward_dynamics(model, jmap, q, v, rng.normal(size=model.nv))
        check_kinematics(model, pm, jmap, q)


@pytest.mark.filterwarnings("ignore::urdf2dyn.URDFWarning")
@pytest.mark.parametrize("rel", URDFS)
def test_cli_info_never_raises(rel, capsys):
    """``urdf2dyn info FILE`` on every file: 0 when it loads, 1 with one line naming the
    file when it does not, never an exception (which the user would see as a traceback)."""
    path = os.path.join(ROOT, rel)
    loads = _loads(path)
    assert main(["info", path]) == (0 if loads else 1)
    out, err = capsys.readouterr()
    if loads:
        assert "movable joints:" in out and "links:" in out
    else:
        assert err.startswith(f"urdf2dyn info: error: {path}: "), err


def _loads(path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
            urdf2dyn.load(path)
    except urdf2dyn.URDFError:
        return False
    return True
