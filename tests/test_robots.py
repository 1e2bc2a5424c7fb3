"""Every URDF of example-robot-data, as a robotics user meets them beside Pinocchio:

- each loads (with URDFWarnings where the file is questionable) exactly when Pinocchio loads
  it, and its inverse dynamics and mass matrix match Pinocchio's to 1e-9 at random states,
  q, v, a and tau passed to Pinocchio AS THEY ARE (no permutation: the joint order is
  Pinocchio's) for every robot without continuous joints, through urdf2dyn.interop otherwise;
- the line numbers of the findings and of every link and joint are those of an independent
  XML parser (expat);
- urdf2dyn.interop converts both ways, and its name-free layout is Pinocchio's.
"""
import glob
import os
import sys
import warnings
import xml.parsers.expat
from pathlib import Path

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pin_oracle as po  # noqa: E402
from urdfgen import random_urdf  # noqa: E402

import urdf2dyn  # noqa: E402
from urdf2dyn import interop  # noqa: E402

TOL = 1e-9
ROOT = po.robots_dir()
URDFS = sorted(os.path.relpath(p, ROOT) for p in
               glob.glob(os.path.join(ROOT, "**", "*.urdf"), recursive=True)) if ROOT else []


def _load_quiet(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path, **kw)


def _pin(path, fb):
    try:
        return po.build_pin_model(path, fb)
    except (RuntimeError, ValueError):
        return None


def test_example_robot_data_is_all_there():
    if ROOT is None:
        pytest.skip("example-robot-data not installed")
    assert len(URDFS) >= 69, len(URDFS)


@pytest.mark.parametrize("rel", URDFS)
def test_robot_matches_pinocchio_in_its_order(rel):
    path = os.path.join(ROOT, rel)
    for fb in (False, True):
        pm = _pin(path, fb)
        if pm is None:              # ur3.urdf is an empty <robot>: nothing has a meaning
            with pytest.raises(urdf2dyn.URDFError, match="no <link>"):
                urdf2dyn.load(path, floating_base=fb)
            return
        model = _load_quiet(path, floating_base=fb)
        assert [j.name for j in model.joints] == list(pm.names)[1:]
        assert interop.pinocchio_sizes(model) == (pm.nq, pm.nv)
        if model.nv == 0:           # a fixed-base single body: nothing moves
            continue
        data = pm.createData()
        rng = np.random.default_rng(len(rel) + fb)
        Q, V, A = po.random_state(model, rng, N=3)
        plain = all(j.type in ("revolute", "prismatic", "floating") for j in model.joints)
        tau, M = model.inverse_dynamics(Q, V, A), model.mass_matrix(Q)
        for s in range(3):
            qp = Q[s] if plain else interop.to_pinocchio_q(model, Q[s])
            tau_pin = pin.rnea(pm, data, qp, V[s], A[s])
            M_pin = pin.crba(pm, data, qp)
            M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
            assert po.relative_error(tau[s], tau_pin) < TOL, rel
            assert po.relative_error(M[s], M_pin) < TOL, rel


def _expat_lines(text):
    """Line of every <link>/<joint> child of <robot>, by expat (independent of Mini-XML)."""
    lines, depth = {}, [0]
    parser = xml.parsers.expat.ParserCreate()

    def start(name, attrs):
        depth[0] += 1
        if depth[0] == 2 and name in ("link", "joint"):
            lines[name, attrs.get("name")] = parser.CurrentLineNumber

    def end(name):
        depth[0] -= 1

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.Parse(text.encode(), True)
    return lines


@pytest.mark.parametrize("rel", URDFS)
def test_robot_line_numbers_are_expats(rel):
    path = os.path.join(ROOT, rel)
    text = Path(path).read_text(encoding="utf-8")
    try:
        model = _load_quiet(path)
    except urdf2dyn.URDFError:
        return
    expected = _expat_lines(text)
    links, joints = model._c.document()
    got = {("link", n): line for n, line, *_ in links}
    got.update({("joint", n): line for n, line, *_ in joints})
    assert got == expected
    for line, message in model.findings:
        assert line > 0, message


@pytest.mark.parametrize("rel", URDFS)
def test_interop_round_trips_and_layout(rel):
    path = os.path.join(ROOT, rel)
    pm = _pin(path, True)
    if pm is None:
        return
    model = _load_quiet(path, floating_base=True)
    rng = np.random.default_rng(3)
    Q, V, A = po.random_state(model, rng, N=4)
    qp = interop.to_pinocchio_q(model, Q)
    np.testing.assert_array_equal(qp, interop.to_pinocchio_q(model, Q, pm))
    assert qp.shape == (4, pm.nq) and interop.pinocchio_sizes(model) == (pm.nq, pm.nv)
    np.testing.assert_allclose(interop.from_pinocchio_q(model, qp), Q, atol=1e-15)
    np.testing.assert_allclose(interop.from_pinocchio_q(model, qp, pm), Q, atol=1e-15)
    vp = interop.to_pinocchio_v(model, Q, V, pm)
    np.testing.assert_allclose(interop.from_pinocchio_v(model, Q, vp, pm), V, atol=1e-15)
    # Pinocchio's own neutral configuration comes back as urdf2dyn's
    np.testing.assert_allclose(interop.from_pinocchio_q(model, pin.neutral(pm)), model.neutral(),
                               atol=1e-15)


@pytest.mark.parametrize("seed", [3, 7, 11, 15])
def test_interop_planar_and_continuous_against_pinocchio(seed):
    """Random trees with planar and continuous joints: Pinocchio's RNEA on the converted
    (q, v, a), converted back, is urdf2dyn's tau; and the same with Pinocchio's layout given."""
    text = random_urdf(seed, n_links=10, planar=True)
    model, pm = urdf2dyn.load(text), po.build_pin_model(text)
    assert any(j.type == "planar" for j in model.joints)
    data = pm.createData()
    rng = np.random.default_rng(seed)
    q, v, a = po.random_state(model, rng)
    for layout in (None, pm):
        qp = interop.to_pinocchio_q(model, q, layout)
        vp = interop.to_pinocchio_v(model, q, v, layout)
        ap = interop.to_pinocchio_a(model, q, v, a, layout)
        tau = interop.from_pinocchio_tau(model, q, pin.rnea(pm, data, qp, vp, ap), layout)
        assert po.relative_error(model.inverse_dynamics(q, v, a), tau) < TOL
        tau_ours = model.inverse_dynamics(q, v, a)
        np.testing.assert_allclose(interop.to_pinocchio_tau(model, q, tau_ours, layout),
                                   pin.rnea(pm, data, qp, vp, ap), atol=1e-9)


def test_interop_refuses_a_planar_joint_pinocchio_reads_otherwise():
    """A planar joint without <axis> moves in the plane normal to x (the URDF default axis);
    Pinocchio moves it in the joint frame's x-y plane: the models differ (gravity loads the
    joint's 'x' in one, nothing in the other), so interop refuses rather than relate them."""
    text = ('<robot name="p"><link name="world"/><link name="base"><inertial><mass value="2"/>'
            '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
            '<joint name="plane" type="planar"><parent link="world"/><child link="base"/>'
            '</joint></robot>')
    model, pm = urdf2dyn.load(text), po.build_pin_model(text)
    assert model.joints[0].axis == (1.0, 0.0, 0.0)
    g_pin = pin.rnea(pm, pm.createData(), pin.neutral(pm), np.zeros(3), np.zeros(3))
    assert np.abs(model.gravity_torques(np.zeros(3))).max() > 10 and not g_pin.any()
    for layout in (None, pm):
        with pytest.raises(ValueError, match="joint 'plane': a planar joint whose plane is "
                           "normal to .*Pinocchio ignores <axis>"):
            interop.to_pinocchio_q(model, np.zeros(3), layout)


def test_interop_bad_shapes():
    model = urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))
    with pytest.raises(ValueError, match=r"q: expected shape \(nq,\) = \(7,\), or \(\.\.\., 7\) "
                                         "for a batch"):
        interop.to_pinocchio_q(model, np.zeros(6))
    with pytest.raises(ValueError, match="v_pin: expected shape"):
        interop.from_pinocchio_v(model, np.zeros(7), np.zeros((2, 3)))


@pytest.mark.parametrize("seed", range(6))
def test_random_trees_with_shuffled_names_in_pinocchios_order(seed):
    """Joint names drawn at random (so that name order, document order and tree order all
    differ): urdf2dyn's joints come in Pinocchio's order and RNEA takes Pinocchio's vectors."""
    import re
    text = random_urdf(100 + seed, n_links=15)
    rng = np.random.default_rng(seed)
    names = sorted(set(re.findall(r'<joint name="([^"]+)"', text)))
    new = {n: "".join(rng.choice(list("abcdefghij_XYZ0123"), 6)) + n for n in names}
    text = re.sub(r'(<joint name=|<mimic joint=)"([^"]+)"',
                  lambda m: f'{m.group(1)}"{new.get(m.group(2), m.group(2))}"', text)
    model, pm = _load_quiet(text), po.build_pin_model(text)
    assert [j.name for j in model.joints] == list(pm.names)[1:]
    q, v, a = po.random_state(model, rng)
    tau_pin = pin.rnea(pm, pm.createData(), interop.to_pinocchio_q(model, q), v, a)
    assert po.relative_error(model.inverse_dynamics(q, v, a), tau_pin) < TOL
