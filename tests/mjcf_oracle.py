"""MuJoCo as the oracle of an MJCF model's dynamics (tests/test_mjcf*.py, benchmarks).

MuJoCo compiles the same file; a free joint's armature is zeroed in the spec before
compiling (MuJoCo's acts on the world-frame linear acceleration, which urdf2dyn's free joint
does not have: urdf2dyn reports it and does not apply it; zeroing it on the compiled model
would leave mj_setConst's constants stale), and mesh geoms whose files are not here (the
vendored models keep their XML only: every one of their bodies has an <inertial>, so the
meshes change nothing) are removed with their meshes, materials and textures. Inverse
dynamics is mj_rne(flg_acc=0)'s bias after mj_fwdPosition and mj_fwdVelocity plus
mj_mulM's M qacc (as mj_inverse has them: M holds the joints' armature and, in MuJoCo 4,
the armature of their actuators), the mass matrix mj_fullM; both through urdf2dyn.interop's
MuJoCo conversions.
"""
import os
import warnings

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")

import urdf2dyn                                            # noqa: E402
from urdf2dyn import interop                               # noqa: E402

HERE = os.path.dirname(__file__)
MJCF = os.path.join(HERE, "data", "mjcf")

# the public models of issue 32 and of the Menagerie trial, vendored (tests/data/mjcf/README.md)
PUBLIC = {
    "franka_emika_panda": "menagerie/franka_emika_panda/panda.xml",
    "universal_robots_ur5e": "menagerie/universal_robots_ur5e/ur5e.xml",
    "unitree_go2": "menagerie/unitree_go2/scene.xml",
    "anybotics_anymal_c": "menagerie/anybotics_anymal_c/anymal_c.xml",
    "unitree_h1": "menagerie/unitree_h1/h1.xml",
    "shadow_hand": "menagerie/shadow_hand/right_hand.xml",
    "agility_cassie": "menagerie/agility_cassie/cassie.xml",
    "apptronik_apollo": "menagerie/apptronik_apollo/apptronik_apollo.xml",
    "robotiq_2f85_v4": "menagerie/robotiq_2f85_v4/2f85.xml",
    "humanoid": "mujoco/humanoid.xml",
    "cheetah": "dm_control/cheetah.xml",
}


def public_path(name):
    return os.path.join(MJCF, PUBLIC[name])


def mujoco_model(path=None, xml=None, files=None, free_armature=False):
    """MuJoCo's compiled model of an MJCF file (or text), free joints' armature (their
    own, and their actuators', which MuJoCo 4 adds to it) zeroed unless free_armature
    (the passive forces' oracle keeps it: MuJoCo's springdamper sizes stiffness and
    damping with it, and urdf2dyn's too); mesh geoms whose file is absent dropped (see
    the module's docstring)."""
    spec = (mujoco.MjSpec.from_file(path) if path is not None
            else mujoco.MjSpec.from_string(xml, assets=files or {}))
    folder = os.path.dirname(path) if path is not None else None
    meshdir = spec.meshdir or ""
    missing = set()
    for m in spec.meshes:
        if m.file and folder is not None and not os.path.exists(
                os.path.join(folder, meshdir, m.file)):
            missing.add(m.name)
    if missing:
        for g in list(spec.geoms):
            if g.meshname in missing:
                spec.delete(g)
        for m in list(spec.meshes):
            if m.name in missing:
                spec.delete(m)
        for g in spec.geoms:
            g.material = ""
        for x in list(spec.textures) + list(spec.materials) + list(spec.skins):
            spec.delete(x)
    free = {j.name for j in spec.joints if j.type == mujoco.mjtJoint.mjJNT_FREE}
    for j in spec.joints:
        if j.type == mujoco.mjtJoint.mjJNT_FREE and not free_armature:
            j.armature = 0
    for a in spec.actuators:       # MuJoCo 4 adds an actuator's armature to its joint's
        if a.target in free and not free_armature and a.trntype in (
                mujoco.mjtTrn.mjTRN_JOINT, mujoco.mjtTrn.mjTRN_JOINTINPARENT):
            a.armature = 0
    with warnings.catch_warnings():
        # MuJoCo 4 deprecates what dm_control's cheetah still writes; the value is applied
        warnings.filterwarnings("ignore", "compiler attribute 'settotalmass' is deprecated",
                                UserWarning)
        return spec.compile()


def random_states(model, n, seed=0):
    """n states (q, v, a) with unit quaternions, coordinates in [-1, 1]."""
    rng = np.random.default_rng(seed)
    q = rng.uniform(-1, 1, (n, model.nq))
    for j in model.joints:
        at = {"floating": 3, "ball": 0}.get(j.type)
        if at is not None:
            k = j.q_index + at
            q[:, k:k + 4] /= np.linalg.norm(q[:, k:k + 4], axis=1, keepdims=True)
    return q, rng.uniform(-1, 1, (n, model.nv)), rng.uniform(-1, 1, (n, model.nv))


def mujoco_dynamics(m, model, q, v, a):
    """MuJoCo's inverse dynamics (qfrc) and mass matrix at urdf2dyn states, one per row."""
    d = mujoco.MjData(m)
    qpos = interop.to_mujoco_qpos(model, q)
    qvel = interop.to_mujoco_qvel(model, q, v)
    qacc = interop.to_mujoco_qacc(model, q, v, a)
    tau = np.zeros((len(q), m.nv))
    M = np.zeros((len(q), m.nv, m.nv))
    Ma = np.zeros(m.nv)
    for k in range(len(q)):
        d.qpos[:], d.qvel[:], d.qacc[:] = qpos[k], qvel[k], qacc[k]
        mujoco.mj_fwdPosition(m, d)
        mujoco.mj_fwdVelocity(m, d)
        mujoco.mj_rne(m, d, 0, tau[k])
        mujoco.mj_mulM(m, d, Ma, qacc[k])
        tau[k] += Ma
        mujoco.mj_fullM(m, d, M[k])
    return tau, M


def mujoco_passive(m, model, q, v):
    """MuJoCo's joint springs and damping (qfrc_spring + qfrc_damper, mj_passive) at
    urdf2dyn states, in urdf2dyn's coordinates; tendons' springs and damping, which these
    sums hold too, are zeroed first (on m itself)."""
    m.tendon_stiffness[:] = 0
    m.tendon_damping[:] = 0
    d = mujoco.MjData(m)
    qpos = interop.to_mujoco_qpos(model, q)
    qvel = interop.to_mujoco_qvel(model, q, v)
    qfrc = np.zeros((len(q), m.nv))
    for k in range(len(q)):
        d.qpos[:], d.qvel[:] = qpos[k], qvel[k]
        mujoco.mj_fwdPosition(m, d)
        mujoco.mj_fwdVelocity(m, d)
        qfrc[k] = d.qfrc_spring + d.qfrc_damper
    return interop.from_mujoco_qfrc(model, q, qfrc)


def scaled_quaternions(model, q, seed=0):
    """q with each ball and free joint's quaternion scaled by a factor in [0.2, 5] (not
    unit: MuJoCo's mj_passive normalizes it, and so must urdf2dyn)."""
    rng = np.random.default_rng(seed)
    q = np.array(q, dtype=float)
    for j in model.joints:
        at = {"floating": 3, "ball": 0}.get(j.type)
        if at is not None:
            k = j.q_index + at
            q[..., k:k + 4] *= rng.uniform(0.2, 5, q.shape[:-1] + (1,))
    return q


def mujoco_inverse(m, model, q, v, a):
    """MuJoCo's mj_inverse (qfrc_inverse) at urdf2dyn states, constraints (contacts,
    limits, equalities) disabled, in urdf2dyn's coordinates."""
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    d = mujoco.MjData(m)
    qpos = interop.to_mujoco_qpos(model, q)
    qvel = interop.to_mujoco_qvel(model, q, v)
    qacc = interop.to_mujoco_qacc(model, q, v, a)
    qfrc = np.zeros((len(q), m.nv))
    for k in range(len(q)):
        d.qpos[:], d.qvel[:], d.qacc[:] = qpos[k], qvel[k], qacc[k]
        mujoco.mj_inverse(m, d)
        qfrc[k] = d.qfrc_inverse
    return interop.from_mujoco_qfrc(model, q, qfrc)


def moving_mass(m):
    """MuJoCo's mass of the bodies that its joints move: those whose weld root has degrees
    of freedom (a mocap body is a weld root of its own, without any)."""
    return float(sum(m.body_mass[i] for i in range(1, m.nbody)
                     if m.body_dofnum[m.body_weldid[i]] > 0))


def compare(model, m, n=20, seed=0):
    """The largest errors over n random states, each relative to that state's largest
    torque (inverse dynamics) and largest mass-matrix entry: (tau, M)."""
    assert (model.nq, model.nv) == (m.nq, m.nv)
    q, v, a = random_states(model, n, seed)
    tau_mj, M_mj = mujoco_dynamics(m, model, q, v, a)
    tau = interop.to_mujoco_qfrc(model, q, model.inverse_dynamics(q, v, a))
    T = interop.mujoco_velocity_map(model, q)
    M = T @ model.mass_matrix(q) @ np.swapaxes(T, -1, -2)
    e_tau = np.max(np.abs(tau - tau_mj).max(axis=1) / np.abs(tau_mj).max(axis=1))
    e_M = np.max(np.abs(M - M_mj).max(axis=(1, 2)) / np.abs(M_mj).max(axis=(1, 2)))
    return float(e_tau), float(e_M)


def assert_loads_as_mujoco(xml, n=3):
    """urdf2dyn loads the MJCF text xml (its warnings aside) with MuJoCo's inverse dynamics
    and mass matrix to 1e-10 of their largest entries over n random states (compare)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.Urdf2dynWarning)
        model = urdf2dyn.load(xml)
    e_tau, e_M = compare(model, mujoco_model(xml=xml), n=n)
    assert e_tau < 1e-10 and e_M < 1e-10, (xml, e_tau, e_M)


def pinocchio_model(pin, path, model):
    """Pinocchio's model of an MJCF file (buildModelFromMJCF), its gravity urdf2dyn's. Its
    armature must be urdf2dyn's but on free joints (which urdf2dyn reports and does not
    apply: MuJoCo's acts on the world-frame linear acceleration), where it is zeroed."""
    pm = pin.buildModelFromMJCF(path)
    pm.gravity.linear = model.gravity
    free = np.zeros(model.nv, dtype=bool)
    for j in model.joints:
        if j.type == "floating":
            free[j.v_index:j.v_index + 6] = True
    np.testing.assert_array_equal(pm.armature[~free], model.armature[~free])
    pm.armature[free] = 0
    return pm


def load_quiet(path, **kw):
    """urdf2dyn's model, the not-applied summary warning silenced."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path, **kw)
