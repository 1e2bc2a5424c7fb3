"""<mimic> joints, urdf2dyn against Pinocchio (docs/robots.rst, "Mimic joints").

urdf2dyn reads a mimic joint's <mimic> (``joint.mimic``) and keeps the joint an independent
coordinate: the model is Pinocchio's ``buildModelFromUrdf(path)`` (``mimic=False``, its
default), vectors passed as they are. Pinocchio's ``mimic=True`` model has no coordinate for
the mimic joint (q_mimic = multiplier q_mimicked + offset) and its RNEA and CRBA give the
forces and the mass matrix of the remaining coordinates: G^T tau and G^T M G, where G maps
the reduced velocities onto urdf2dyn's (v = G v_reduced). The multiplier and offset come
from the URDF text below, never from urdf2dyn's reading of it.
"""
import numpy as np
import pytest

import urdf2dyn

pin = pytest.importorskip("pinocchio")

INERTIA = '<inertia ixx="{0}" ixy="0" ixz="0" iyy="{1}" iyz="0" izz="{2}"/>'
MULTIPLIER, OFFSET = -1.5, 0.01
# an arm carrying a two-finger gripper whose right finger mimics the left one, the finger
# joints listed after the mimic (Pinocchio orders joints by name within a parent)
GRIPPER = f"""<?xml version="1.0"?>
<robot name="gripper">
  <link name="base"><inertial><mass value="2"/>{INERTIA.format(0.1, 0.1, 0.1)}</inertial></link>
  <link name="arm"><inertial><origin xyz="0.2 0 0" rpy="0 0.3 0"/><mass value="1.5"/>
    {INERTIA.format(0.02, 0.03, 0.01)}</inertial></link>
  <link name="finger_l"><inertial><origin xyz="0 0.05 0.02"/><mass value="0.3"/>
    {INERTIA.format(0.001, 0.002, 0.001)}</inertial></link>
  <link name="finger_r"><inertial><origin xyz="0 -0.05 0.02"/><mass value="0.4"/>
    {INERTIA.format(0.001, 0.002, 0.0015)}</inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="finger_r_joint" type="prismatic"><parent link="arm"/><child link="finger_r"/>
    <origin xyz="0.4 0 0" rpy="0 0 0.2"/><axis xyz="0 1 0"/>
    <limit lower="-0.05" upper="0" effort="10" velocity="1"/>
    <mimic joint="finger_l_joint" multiplier="{MULTIPLIER}" offset="{OFFSET}"/></joint>
  <joint name="finger_l_joint" type="prismatic"><parent link="arm"/><child link="finger_l"/>
    <origin xyz="0.4 0 0" rpy="0.3 0 0"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.05" effort="10" velocity="1"/></joint>
</robot>
"""


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    p = tmp_path_factory.mktemp("mimic") / "gripper.urdf"
    p.write_text(GRIPPER)
    return str(p)


def _states(n, nv, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-0.5, 0.5, (n, nv)), rng.normal(0, 1, (n, nv)), rng.normal(0, 2, (n, nv))


def test_a_mimic_joint_is_an_independent_joint_as_in_pinocchio_by_default(path):
    model = urdf2dyn.load(path)
    pm = pin.buildModelFromUrdf(path)                   # mimic=False
    data = pm.createData()
    assert [j.name for j in model.joints] == list(pm.names)[1:] == \
        ["shoulder", "finger_l_joint", "finger_r_joint"]
    assert (model.nq, model.nv) == (pm.nq, pm.nv) == (3, 3)
    assert model.joints[2].mimic == ("finger_l_joint", MULTIPLIER, OFFSET)
    for q, v, a in zip(*_states(4, 3, seed=1)):         # any q: the mimic is not imposed
        np.testing.assert_allclose(model.inverse_dynamics(q, v, a),
                                   pin.rnea(pm, data, q, v, a), rtol=0, atol=1e-12)
        np.testing.assert_allclose(model.mass_matrix(q), pin.crba(pm, data, q), rtol=0,
                                   atol=1e-12)


def test_pinocchio_mimic_true_is_urdf2dyn_reduced_by_the_mimic_map(path):
    model = urdf2dyn.load(path)
    pm = pin.buildModelFromUrdf(path, mimic=True)
    data = pm.createData()
    assert (pm.nq, pm.nv) == (model.nq - 1, model.nv - 1) == (2, 2)
    # urdf2dyn's (shoulder, finger_l, finger_r) from Pinocchio's (shoulder, finger_l)
    G = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, MULTIPLIER]])
    offset = np.array([0.0, 0.0, OFFSET])
    for q, v, a in zip(*_states(4, 2, seed=2)):
        tau = model.inverse_dynamics(G @ q + offset, G @ v, G @ a)
        np.testing.assert_allclose(pin.rnea(pm, data, q, v, a), G.T @ tau, rtol=0, atol=1e-12)
        M = pin.crba(pm, data, q)
        M = np.triu(M) + np.triu(M, 1).T                # Pinocchio fills the upper triangle
        np.testing.assert_allclose(M, G.T @ model.mass_matrix(G @ q + offset) @ G, rtol=0,
                                   atol=1e-12)
        # the mimic joint's own force is not zero: Pinocchio's reduced force is not urdf2dyn's
        # force with the mimic entry dropped
        assert abs(tau[2]) > 1e-3
        assert np.abs(pin.rnea(pm, data, q, v, a) - tau[:2]).max() > 1e-3
