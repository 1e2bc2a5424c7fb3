"""The 36-DoF HuMoD human model generator (urdf2dyn.human).

Oracles: HuMoD's own label list, de Leva's Table 4 (masses), the URDF text itself (parsed with
ElementTree), Pinocchio (mass, CoM, gravity torques, joint placements, inverse dynamics), and
physics (a standing body's root force is its weight).
"""
import importlib
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import urdf2dyn

H = importlib.import_module("urdf2dyn.biomech.human")   # the module (urdf2dyn.human may be the function)

try:
    import pinocchio as pin
except ImportError:  # pragma: no cover
    pin = None
needs_pin = pytest.mark.skipif(pin is None, reason="needs Pinocchio (pip install pin)")

SUBJECTS = [("female", 57.3, 1.61), ("male", 84.8, 1.79)]
G = 9.81


def urdf_masses(text):
    root = ET.fromstring(text)
    out = {}
    for link in root.findall("link"):
        m = link.find("inertial/mass")
        out[link.get("name")] = float(m.get("value")) if m is not None else 0.0
    return out


def urdf_joints(text):
    return {j.get("name"): j for j in ET.fromstring(text).findall("joint")}


# ----------------------------------------------------------------------------- names and order

def test_humod_labels():
    # 6 + 2 + 3 + 3 + 3 + 3 + 1 + 1 + 3 + 3 + 1 + 1 + 3 + 3 = 36
    assert len(H.HUMOD_LABELS) == 36 == len(set(H.HUMOD_LABELS))
    assert H.HUMOD_LABELS[:6] == ["pBJX", "pBJY", "pBJZ", "rBJX", "rBJY", "rBJZ"]
    assert H.HUMOD_LABELS[6:9] == ["rLNJX", "rLNJY", "rLNJZ"]
    assert H.HUMOD_LABELS[-1] == "rAJZ_R"
    assert sorted(H.MODEL_ORDER) == sorted(H.HUMOD_LABELS)
    groups = {}
    for n in H.HUMOD_LABELS[6:]:
        base = n[1:].replace("_L", "L").replace("_R", "R")
        groups.setdefault(base[:-1] if base[-1] in "XYZ" else base[:-2] + base[-1], []).append(n)
    counts = {"LLJ": 2, "ULJ": 3, "LNJ": 3, "EJL": 1, "EJR": 1, "KJL": 1, "KJR": 1}
    for key, n in counts.items():
        assert len(groups[key]) == n, (key, groups[key])
    for key in ("SJL", "SJR", "HJL", "HJR", "AJL", "AJR"):
        assert len(groups[key]) == 3


@pytest.mark.parametrize("sex,mass,height", SUBJECTS)
def test_prismatic_model_names_and_axes(sex, mass, height):
    model = H.human_model(height, mass, sex)
    assert model.nq == model.nv == 36
    assert model.q_names == tuple(H.MODEL_ORDER)
    assert sorted(model.q_names) == sorted(H.HUMOD_LABELS)
    assert tuple(model.gravity) == (0.0, -9.81, 0.0)
    for j in model.joints:
        letter = j.name.split("_")[0][-1]
        expected = {"X": (1, 0, 0), "Y": (0, 1, 0), "Z": (0, 0, 1)}[letter]
        np.testing.assert_allclose(j.axis, expected)
        assert j.type == ("prismatic" if j.name.startswith("p") else "revolute")
    # HuMoD-ordered data reorder into the model's order by name
    data = np.arange(36.0)[None, :]
    reordered = data[:, H.humod_to_model_index(model.q_names)]
    assert tuple(H.HUMOD_LABELS[int(k)] for k in reordered[0]) == model.q_names


def test_floating_model_names():
    model = H.human_model(1.79, 84.8, "male", root="floating")
    assert model.nq == 37 and model.nv == 36
    assert model.q_names[:7] == ("BJ_x", "BJ_y", "BJ_z", "BJ_qx", "BJ_qy", "BJ_qz", "BJ_qw")
    assert model.q_names[7:] == tuple(H.MODEL_ORDER[6:])
    assert model.joints[0].type == "floating"


# ----------------------------------------------------------------------------- masses

def test_de_leva_table_consistency():
    """Guards against typos in the copied table: fractions add up, the trunk parts make the
    trunk, and the two head/trunk descriptions put the CoM and the radii at the same place."""
    for sex, total in (("female", 99.99), ("male", 100.00)):
        t = H.DE_LEVA_TABLE4[sex]
        s = t["head"][1] + t["trunk_supr"][1] + 2 * sum(t[k][1] for k in H._LIMBS)
        assert s == pytest.approx(total, abs=1e-9)
        assert t["upt"][1] + t["mpt"][1] + t["lpt"][1] == pytest.approx(t["trunk_supr"][1])
        assert t["upt"][0] + t["mpt"][0] + t["lpt"][0] == pytest.approx(t["trunk_supr"][0])
        # CoM of the trunk measured from C7 and from the suprasternale: same point
        gap = t["trunk_cerv"][0] - t["trunk_supr"][0]
        assert (t["trunk_cerv"][0] * t["trunk_cerv"][2] / 100
                == pytest.approx(gap + t["trunk_supr"][0] * t["trunk_supr"][2] / 100, abs=0.2))
        # the three trunk parts' CoM is the trunk's (within 3 mm)
        com = (t["upt"][1] * t["upt"][0] * t["upt"][2] / 100
               + t["mpt"][1] * (t["upt"][0] + t["mpt"][0] * t["mpt"][2] / 100)
               + t["lpt"][1] * (t["upt"][0] + t["mpt"][0] + t["lpt"][0] * t["lpt"][2] / 100))
        com /= t["trunk_supr"][1]
        assert com == pytest.approx(t["trunk_supr"][0] * t["trunk_supr"][2] / 100, abs=3.0)
    # head+neck (VERT->CERV) vs de Leva's head row VERT->mid-gonion (Table 4): CoM 59.76 % /
    # 58.94 % of 203.3 / 200.2 mm below the vertex, radii 36.2 37.6 31.2 / 33.0 35.9 31.8 %
    for sex, (length, com, radii) in (("male", (203.3, 59.76, (36.2, 37.6, 31.2))),
                                      ("female", (200.2, 58.94, (33.0, 35.9, 31.8)))):
        row = H.DE_LEVA_TABLE4[sex]["head"]
        assert row[0] * row[2] / 100 == pytest.approx(length * com / 100, abs=0.2)
        for r_cerv, r_midg in zip(row[3:], radii):
            assert row[0] * r_cerv / 100 == pytest.approx(length * r_midg / 100, abs=0.3)


@pytest.mark.parametrize("sex,mass,height", SUBJECTS)
def test_total_and_segment_masses(sex, mass, height):
    text = H.human(height, mass, sex)
    masses = urdf_masses(text)
    assert sum(masses.values()) == pytest.approx(mass, rel=1e-8)
    t = H.DE_LEVA_TABLE4[sex]
    total_pct = t["head"][1] + t["trunk_supr"][1] + 2 * sum(t[k][1] for k in H._LIMBS)
    rows = {"head": "head", "thorax": "upt", "abdomen": "mpt", "pelvis": "lpt"}
    for side in "LR":
        rows.update({f"{k}_{side}": k for k in H._LIMBS})
    assert {k for k, m in masses.items() if m > 0} == set(rows)
    for link, row in rows.items():
        assert masses[link] == pytest.approx(mass * t[row][1] / total_pct, rel=1e-8), link
        assert masses[link] == pytest.approx(mass * t[row][1] / 100, rel=2e-4), link
    if hasattr(urdf2dyn.Model, "total_mass"):
        assert urdf2dyn.load(text).total_mass == pytest.approx(mass, rel=1e-8)


@pytest.mark.parametrize("sex,mass,height", SUBJECTS)
def test_geometry(sex, mass, height):
    p = H.segment_parameters(height, mass, sex)
    z = p["heights"]
    assert z["vertex"] == pytest.approx(height, rel=1e-12)
    assert z["AJ"] == pytest.approx(0.039 * height)
    # ordered and close to Drillis & Contini's proportions (knee 0.285 H, hip ~0.53 H,
    # shoulder 0.818 H)
    assert z["AJ"] < z["KJ"] < z["HJ"] < z["LLJ"] < z["ULJ"] < z["SJ"] < z["LNJ"] < z["vertex"]
    assert 0.27 < z["KJ"] / height < 0.30
    assert 0.49 < z["HJ"] / height < 0.54
    assert 0.80 < z["SJ"] / height < 0.84
    # lengths scale with height, masses with mass
    p2 = H.segment_parameters(1.2 * height, mass, sex)
    assert p2["lengths"]["thigh"] == pytest.approx(1.2 * p["lengths"]["thigh"])
    p3 = H.segment_parameters(height, 2 * mass, sex)
    assert p3["segments"]["thigh_L"][0] == pytest.approx(2 * p["segments"]["thigh_L"][0])
    # inertia = m (r * length)^2 about the CoM, thigh: sagittal about x, longitudinal about y
    m, com, (ixx, iyy, izz) = p["segments"]["thigh_R"]
    row = H.DE_LEVA_TABLE4[sex]["thigh"]
    ell = p["lengths"]["thigh"]
    assert ixx == pytest.approx(m * (row[3] / 100 * ell) ** 2)
    assert izz == pytest.approx(m * (row[4] / 100 * ell) ** 2)
    assert iyy == pytest.approx(m * (row[5] / 100 * ell) ** 2)
    assert com[1] == pytest.approx(-row[2] / 100 * ell)


def test_bad_arguments():
    with pytest.raises(ValueError, match="sex"):
        H.human(1.7, 70, "x")
    with pytest.raises(ValueError, match="root"):
        H.human(1.7, 70, "male", root="planar")
    with pytest.raises(ValueError, match="height"):
        H.human(-1.7, 70, "male")
    with pytest.raises(ValueError, match="mass"):
        H.human(1.7, 0, "male")
    with pytest.raises(ValueError, match="subject"):
        H.humod_subject_path("C")


@pytest.mark.parametrize("mass", [1e-300, 5e-324, 0.1])
def test_a_mass_no_person_has_is_refused_by_name(mass):
    """human(mass=1e-300) wrote a body of 1e-302 kg segments without a word (5e-324: of
    segments weighing 0). The lightest newborn on record weighed about 0.25 kg: below 0.2 kg
    the mass is refused, naming the argument and the range."""
    with pytest.raises(ValueError, match=r"mass: expected a body mass in kg from 0.2 to 1000"):
        H.human(1.7, mass, "male")
    assert H.segment_parameters(0.5, 0.25, "female")["segments"]   # a newborn's: taken


@pytest.mark.parametrize("subject", ["A", "B"])
def test_bundled_subjects(subject):
    sex, mass, height = H.HUMOD_SUBJECTS[subject]
    with open(H.humod_subject_path(subject), encoding="utf-8") as f:
        bundled = f.read()
    assert bundled == H.human(height, mass, sex, name=f"humod_subject_{subject.lower()}"), \
        "bundled URDF is stale: rerun tools/make_humans.py"
    model = H.humod_subject(subject)
    assert model.nq == 36 and tuple(model.gravity) == (0.0, -9.81, 0.0)
    assert sum(urdf_masses(bundled).values()) == pytest.approx(mass, rel=1e-8)


def test_urdf_structure():
    text = H.human(1.7, 70, "female")
    joints = urdf_joints(text)
    movable = [n for n, j in joints.items() if j.get("type") != "fixed"]
    assert sorted(movable) == sorted(H.HUMOD_LABELS)
    assert sorted(n for n, j in joints.items() if j.get("type") == "fixed") == ["WJ_L", "WJ_R"]
    # multi-DoF joints: X then Y then Z, chained through massless links at one point
    masses = urdf_masses(text)
    for j in ("rHJX_L", "rHJY_L"):
        child = joints[j].find("child").get("link")
        assert masses[child] == 0.0
    assert joints["rHJY_L"].find("parent").get("link") == joints["rHJX_L"].find("child").get("link")
    assert joints["rHJY_L"].find("origin").get("xyz") == "0 0 0"
    assert joints["rHJZ_L"].find("child").get("link") == "thigh_L"
    # left is -z, right is +z
    assert float(joints["rHJX_L"].find("origin").get("xyz").split()[2]) < 0
    assert float(joints["rHJX_R"].find("origin").get("xyz").split()[2]) > 0


# ----------------------------------------------------------------------------- Pinocchio

def pin_model(text):
    pm = pin.buildModelFromXML(text)
    pm.gravity.linear = np.array([0.0, -G, 0.0])
    return pm


def to_pin(model, pm, q, v=None):
    """Our q (and v) -> Pinocchio's, by joint name (revolute, prismatic, floating only)."""
    qp, vp = np.zeros(pm.nq), np.zeros(pm.nv)
    for j in model.joints:
        jid = pm.getJointId(j.name)
        jm = pm.joints[jid]
        qp[jm.idx_q:jm.idx_q + jm.nq] = q[j.q_index:j.q_index + j.nq]
        if v is not None:
            vp[jm.idx_v:jm.idx_v + jm.nv] = v[j.v_index:j.v_index + j.nv]
    return qp, vp


def from_pin_v(model, pm, vp):
    out = np.zeros(model.nv)
    for j in model.joints:
        jm = pm.joints[pm.getJointId(j.name)]
        out[j.v_index:j.v_index + j.nv] = vp[jm.idx_v:jm.idx_v + jm.nv]
    return out


@needs_pin
@pytest.mark.parametrize("root", ["prismatic", "floating"])
@pytest.mark.parametrize("sex,mass,height", SUBJECTS)
def test_pinocchio_mass_com_and_dynamics(sex, mass, height, root):
    text = H.human(height, mass, sex, root=root)
    model = H.human_model(height, mass, sex, root=root)
    pm = pin_model(text)
    data = pm.createData()
    assert pm.nv == model.nv == 36
    assert sum(I.mass for I in pm.inertias) == pytest.approx(mass, rel=1e-8)

    # standing: CoM at 0.55-0.58 of the stature, above the feet
    q = H.standing_configuration(height, sex, root)
    qp, _ = to_pin(model, pm, q)
    com = pin.centerOfMass(pm, data, qp)
    assert 0.55 < com[1] / height < 0.58
    assert abs(com[0]) < 0.02 * height and abs(com[2]) < 1e-12
    if hasattr(model, "center_of_mass"):
        np.testing.assert_allclose(model.center_of_mass(q), com, atol=1e-10)

    # gravity torques at the neutral pose: finite; the root carries the weight
    g_ours = (model.gravity_torques(q) if hasattr(model, "gravity_torques")
              else model.inverse_dynamics(q, np.zeros(36), np.zeros(36)))
    assert np.all(np.isfinite(g_ours))
    g_pin = from_pin_v(model, pm, pin.computeGeneralizedGravity(pm, data, qp))
    np.testing.assert_allclose(g_ours, g_pin, atol=1e-9 * mass * G * height)
    assert g_ours[1] == pytest.approx(mass * G, rel=1e-9)     # pBJY / body-frame y force
    assert abs(g_ours[0]) < 1e-9 and abs(g_ours[2]) < 1e-9

    # random states: inverse dynamics by name against Pinocchio
    rng = np.random.default_rng(7)
    for _ in range(3):
        q = rng.uniform(-1.0, 1.0, model.nq)
        if root == "floating":
            q[3:7] /= np.linalg.norm(q[3:7])
        v, a = rng.normal(size=36), rng.normal(size=36)
        qp, vp = to_pin(model, pm, q, v)
        _, ap = to_pin(model, pm, q, a)
        tau_pin = from_pin_v(model, pm, pin.rnea(pm, data, qp, vp, ap))
        np.testing.assert_allclose(model.inverse_dynamics(q, v, a), tau_pin,
                                   atol=1e-8 * max(1.0, np.abs(tau_pin).max()))


@needs_pin
@pytest.mark.parametrize("sex,mass,height", SUBJECTS)
def test_joint_centres_standing(sex, mass, height):
    """Joint centres of the standing pose where segment_parameters says (Pinocchio's and, when
    available, urdf2dyn's kinematics)."""
    model = H.human_model(height, mass, sex)
    pm = pin_model(H.human(height, mass, sex))
    data = pm.createData()
    q = H.standing_configuration(height, sex)
    qp, _ = to_pin(model, pm, q)
    pin.forwardKinematics(pm, data, qp)
    z = H.segment_parameters(height, mass, sex)["heights"]
    expect = {
        "rKJZ_L": (0, z["KJ"], -0.05 * height), "rKJZ_R": (0, z["KJ"], 0.05 * height),
        "rAJX_R": (0, z["AJ"], 0.05 * height), "rHJX_L": (0, z["HJ"], -0.05 * height),
        "rLLJX": (0, z["LLJ"], 0), "rULJX": (0, z["ULJ"], 0), "rLNJX": (0, z["LNJ"], 0),
        "rSJX_L": (0, z["SJ"], -0.10 * height), "rSJZ_R": (0, z["SJ"], 0.10 * height),
    }
    for name, xyz in expect.items():
        np.testing.assert_allclose(data.oMi[pm.getJointId(name)].translation, xyz, atol=1e-12)
    if hasattr(model, "joint_positions"):
        jpos = model.joint_positions(q)
        for name, xyz in expect.items():
            k = [j.name for j in model.joints].index(name)
            np.testing.assert_allclose(jpos[k], xyz, atol=1e-12)


# ----------------------------------------------------------------------------- floating root

def test_root_to_floating_matches_prismatic_root():
    """The same motion through both roots: identical joint torques for the 30 body joints, and
    the root force of the floating model is the prismatic one seen in the pelvis frame."""
    mp = H.human_model(1.61, 57.3, "female")
    mf = H.human_model(1.61, 57.3, "female", root="floating")
    rng = np.random.default_rng(3)
    n = 6
    q = rng.uniform(-1.0, 1.0, (n, 36))
    q[:, 3:6] = rng.uniform(-math.pi, math.pi, (n, 3))     # all quaternion branches,
    q[:3, 3:6] = np.diag([math.pi, math.pi, math.pi - 1e-9])  # half turns about x, y, z
    v, a = rng.normal(size=(n, 36)), rng.normal(size=(n, 36))
    qf, vf, af = H.root_to_floating(q, v, a)
    assert qf.shape == (n, 37)
    np.testing.assert_allclose(np.linalg.norm(qf[:, 3:7], axis=1), 1.0)
    tp, tf = mp.inverse_dynamics(q, v, a), mf.inverse_dynamics(qf, vf, af)
    np.testing.assert_allclose(tf[:, 6:], tp[:, 6:], atol=1e-9 * np.abs(tp).max())
    R = H._rot(0, q[:, 3]) @ H._rot(1, q[:, 4]) @ H._rot(2, q[:, 5])
    np.testing.assert_allclose(tf[:, :3], np.einsum("nji,nj->ni", R, tp[:, :3]),
                               atol=1e-9 * np.abs(tp).max())
    # quaternion <-> matrix
    x, y, z, w = qf[:, 3:7].T
    Rq = np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                   np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                   np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], 1)
    np.testing.assert_allclose(Rq, R, atol=1e-12)
    # one sample in, one sample out
    q1, v1, a1 = H.root_to_floating(q[0], v[0])
    assert q1.shape == (37,) and v1.shape == (36,) and a1 is None
    np.testing.assert_allclose(q1, qf[0])


def test_root_to_floating_velocity_by_differences():
    """Body twist of the root = finite differences of the converted configuration."""
    mf = H.human_model(1.79, 84.8, "male", root="floating")
    from urdf2dyn.biomech.processing import estimate_derivatives as derivatives
    t = np.linspace(0, 1, 2001)
    q = np.zeros((len(t), 36))
    q[:, 0], q[:, 1], q[:, 2] = 0.3 * t, 1.0 + 0.05 * np.sin(3 * t), 0.1 * t ** 2
    q[:, 3], q[:, 4], q[:, 5] = 0.4 * np.sin(2 * t), -1.2 + t, 0.3 * np.cos(t)
    v = np.gradient(q, t, axis=0, edge_order=2)
    qf, vf, _ = H.root_to_floating(q, v)
    v_fd, _ = derivatives(t, qf, model=mf)
    np.testing.assert_allclose(vf[5:-5, :6], v_fd[5:-5, :6], atol=1e-5)
