"""Random URDF tree generator for oracle tests.

``random_urdf(seed, ...)`` returns the XML text of a random kinematic tree that exercises the
parts of the URDF format urdf2dyn must get right:

* random branching (several children per link at some nodes), not just chains;
* every 1-DoF joint type (revolute with limits, continuous, prismatic), optional planar joints
  (axis 0 0 1 only) and an optional ``type="floating"`` joint inside the file;
* fixed joints in the middle of the tree, including a fixed joint whose child carries movable
  joints and chains of two consecutive fixed joints;
* inertial frames with random xyz *and* rpy, full symmetric positive-definite inertia tensors
  (random rotation times random principal moments that satisfy the triangle inequality);
* random unit joint axes (mostly unaligned, sometimes +-x/y/z, sometimes omitted = default 1 0 0),
  random joint origins (xyz + rpy, sometimes omitted);
* some massless links (no ``<inertial>``);
* elements written in shuffled order (joints before their links, children before parents);
* decoy elements that a URDF reader must ignore: ``<transmission>`` blocks with ``<joint name=...>``
  inside, ``<gazebo>`` blocks (one with a nested ``<joint>``/``<link>`` in a plugin), ``<visual>``,
  ``<collision>``, ``<material>``, ``<dynamics>``, comments and an XML declaration.

``urdf_summary(xml)`` parses a URDF with the standard library (independently of urdf2dyn and of
Pinocchio) and returns its movable joints, fixed joints and links; tests use it for expectations.
"""

import math
import xml.etree.ElementTree as ET

import numpy as np

__all__ = ["random_urdf", "urdf_summary", "random_rotation", "rpy_to_matrix", "matrix_to_rpy"]


# ----------------------------------------------------------------------------- small maths

def rpy_to_matrix(rpy):
    """URDF convention: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    r, p, y = rpy
    cr, sr = math.cos(r), math.sin(r)
    cp, sp = math.cos(p), math.sin(p)
    cy, sy = math.cos(y), math.sin(y)
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def matrix_to_rpy(R):
    pitch = math.asin(max(-1.0, min(1.0, -R[2, 0])))
    roll = math.atan2(R[2, 1], R[2, 2])
    yaw = math.atan2(R[1, 0], R[0, 0])
    return roll, pitch, yaw


def random_rotation(rng):
    """Uniformly distributed rotation matrix (from a random unit quaternion)."""
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def _random_unit(rng):
    while True:
        u = rng.normal(size=3)
        n = np.linalg.norm(u)
        if n > 1e-3:
            return u / n


def _fmt(x):
    # repr() of a Python float round-trips exactly through strtod.
    return repr(float(x))


def _vec(v):
    return " ".join(_fmt(x) for x in v)


# ----------------------------------------------------------------------------- pieces

def _inertial_xml(rng, indent="    "):
    mass = rng.uniform(0.1, 5.0)
    # Principal moments from the second moments of a random mass distribution:
    # I1 = m(s2 + s3), I2 = m(s1 + s3), I3 = m(s1 + s2), s_i > 0, which satisfies the
    # triangle inequality I1 <= I2 + I3 (and permutations) automatically.
    s = rng.uniform(0.002, 0.08, size=3)
    principal = mass * np.array([s[1] + s[2], s[0] + s[2], s[0] + s[1]])
    R = random_rotation(rng)
    inertia = R @ np.diag(principal) @ R.T
    inertia = 0.5 * (inertia + inertia.T)
    xyz = rng.uniform(-0.3, 0.3, size=3)
    rpy = rng.uniform(-math.pi, math.pi, size=3)
    rpy[1] = rng.uniform(-1.4, 1.4)
    i = inertia
    return (
        f"{indent}<inertial>\n"
        f'{indent}  <origin xyz="{_vec(xyz)}" rpy="{_vec(rpy)}"/>\n'
        f'{indent}  <mass value="{_fmt(mass)}"/>\n'
        f'{indent}  <inertia ixx="{_fmt(i[0, 0])}" ixy="{_fmt(i[0, 1])}" ixz="{_fmt(i[0, 2])}" '
        f'iyy="{_fmt(i[1, 1])}" iyz="{_fmt(i[1, 2])}" izz="{_fmt(i[2, 2])}"/>\n'
        f"{indent}</inertial>\n"
    )


def _visual_xml(rng, name, indent="    "):
    kind = rng.integers(3)
    if kind == 0:
        geom = f'<box size="{_vec(rng.uniform(0.01, 0.2, size=3))}"/>'
    elif kind == 1:
        geom = f'<cylinder radius="{_fmt(rng.uniform(0.01, 0.1))}" length="{_fmt(rng.uniform(0.05, 0.3))}"/>'
    else:
        geom = f'<mesh filename="package://decoy_description/meshes/{name}.stl" scale="1 1 1"/>'
    xyz = rng.uniform(-0.2, 0.2, size=3)
    rpy = rng.uniform(-3, 3, size=3)
    out = (
        f"{indent}<visual>\n"
        f'{indent}  <origin xyz="{_vec(xyz)}" rpy="{_vec(rpy)}"/>\n'
        f"{indent}  <geometry>{geom}</geometry>\n"
        f'{indent}  <material name="decoy_grey"/>\n'
        f"{indent}</visual>\n"
    )
    if rng.random() < 0.5:
        out += (
            f"{indent}<collision>\n"
            f'{indent}  <origin xyz="{_vec(-xyz)}" rpy="0 0 0"/>\n'
            f"{indent}  <geometry>{geom}</geometry>\n"
            f"{indent}</collision>\n"
        )
    return out


def _origin_xml(rng, indent="    "):
    """Random joint origin; sometimes omitted (identity) or without rpy."""
    u = rng.random()
    if u < 0.07:
        return "", np.zeros(3), np.zeros(3)
    xyz = rng.uniform(-0.5, 0.5, size=3)
    if u < 0.14:
        return f'{indent}<origin xyz="{_vec(xyz)}"/>\n', xyz, np.zeros(3)
    rpy = rng.uniform(-math.pi, math.pi, size=3)
    rpy[1] = rng.uniform(-1.5, 1.5)
    return f'{indent}<origin xyz="{_vec(xyz)}" rpy="{_vec(rpy)}"/>\n', xyz, rpy


def _axis_xml(rng, indent="    "):
    u = rng.random()
    if u < 0.08:
        return ""  # URDF default axis (1 0 0)
    if u < 0.30:
        axis = np.zeros(3)
        axis[rng.integers(3)] = rng.choice([-1.0, 1.0])
    else:
        axis = _random_unit(rng)
    return f'{indent}<axis xyz="{_vec(axis)}"/>\n'


# ----------------------------------------------------------------------------- generator

def random_urdf(seed, n_links=None, floating_root=False, planar=False, massless_prob=0.15,
                decoys=True, fixed_prob=0.2, name=None):
    """Return the XML text of a random URDF tree.

    seed          -- integer seed (the output is a deterministic function of the arguments)
    n_links       -- number of links of the tree proper (3..25; random in [4, 18] when None).
                     With ``floating_root`` one extra massless ``world`` link is added on top.
    floating_root -- put a ``type="floating"`` joint between an extra root link and the tree.
    planar        -- allow ``type="planar"`` joints (axis 0 0 1); at least one is created.
    massless_prob -- probability that a (non-root) link has no ``<inertial>``.
    decoys        -- add transmission / gazebo / visual / collision / material decoys.
    fixed_prob    -- base probability of a fixed joint.
    """
    rng = np.random.default_rng(seed)
    if n_links is None:
        n_links = int(rng.integers(4, 19))
    n_links = int(max(3, min(25, n_links)))
    robot_name = name or f"random_tree_{seed}"

    # ---- topology: parent[i] < i; bias towards recent links (chains) with some branching
    parent = [-1]
    for i in range(1, n_links):
        if i == 1 or rng.random() < 0.45:
            p = i - 1
        else:
            p = int(rng.integers(0, i))
        parent.append(p)
    # ensure some branching: at least one (two for bigger trees) link with >= 2 children
    children = [[] for _ in range(n_links)]
    for i in range(1, n_links):
        children[parent[i]].append(i)
    want_branch = 1 if n_links < 8 else 2
    n_branch = sum(1 for c in children if len(c) >= 2)
    tries = 0
    while n_branch < want_branch and n_links >= 3 and tries < 50:
        tries += 1
        # re-hang a leaf (not link 1) under a link that already has exactly one child
        leaves = [i for i in range(2, n_links) if not children[i]]
        single = [i for i in range(n_links) if len(children[i]) == 1]
        cand = [(l, s) for l in leaves for s in single if s < l and parent[l] != s]
        if not cand:
            break
        l, s = cand[int(rng.integers(len(cand)))]
        children[parent[l]].remove(l)
        parent[l] = s
        children[s].append(l)
        n_branch = sum(1 for c in children if len(c) >= 2)

    # ---- joint types (joint i connects parent[i] -> i)
    jtype = [None]
    kinds = ["revolute", "continuous", "prismatic", "fixed"] + (["planar"] if planar else [])
    weights = np.array([0.32, 0.22, 0.2, fixed_prob] + ([0.12] if planar else []))
    weights = weights / weights.sum()
    for i in range(1, n_links):
        jtype.append(str(rng.choice(kinds, p=weights)))
    # required features, as far as the tree size allows
    depth = [0] * n_links
    for i in range(1, n_links):
        depth[i] = depth[parent[i]] + 1
    def make_fixed_above_movable(c):
        jtype[c] = "fixed"
        for k in children[c]:
            if jtype[k] == "fixed":
                jtype[k] = str(rng.choice(["revolute", "continuous", "prismatic"]))

    inner = [i for i in range(1, n_links) if children[i]]
    deep_inner = [i for i in inner if depth[i] >= 2]
    if inner and (n_links >= 6 or not deep_inner):
        # a fixed joint whose child has movable children
        make_fixed_above_movable(inner[int(rng.integers(len(inner)))])
    if deep_inner:
        # a chain of two fixed joints whose last child carries movable joints
        k = deep_inner[int(rng.integers(len(deep_inner)))]
        jtype[parent[k]] = "fixed"
        make_fixed_above_movable(k)
    if planar:
        cand = [i for i in range(1, n_links) if jtype[i] != "fixed"]
        if not any(jtype[i] == "planar" for i in range(1, n_links)) and cand:
            jtype[cand[int(rng.integers(len(cand)))]] = "planar"
    if all(t == "fixed" for t in jtype[1:]):
        jtype[-1] = "revolute"

    # ---- names (a few unusual but legal characters)
    suffix = ["", "_link", ".lnk", "-body", "_L"]
    link_name = [f"{'base' if i == 0 else 'l%d' % i}{suffix[int(rng.integers(len(suffix)))]}"
                 for i in range(n_links)]
    joint_name = [None] + [f"j{i}_{jtype[i][:3]}" for i in range(1, n_links)]

    # ---- elements
    elements = []  # (kind, text)
    massless_root = rng.random() < 0.3
    for i in range(n_links):
        body = ""
        massless = (i == 0 and massless_root) or (i > 0 and rng.random() < massless_prob)
        if decoys and rng.random() < 0.5:
            body += _visual_xml(rng, link_name[i])
        if not massless:
            body += _inertial_xml(rng)
        if decoys and rng.random() < 0.3:
            body += _visual_xml(rng, link_name[i])
        if body:
            elements.append(("link", i, f'  <link name="{link_name[i]}">\n{body}  </link>\n'))
        else:
            elements.append(("link", i, f'  <link name="{link_name[i]}"/>\n'))

    for i in range(1, n_links):
        t = jtype[i]
        parts = []
        origin, _, _ = _origin_xml(rng)
        parts.append(origin)
        parts.append(f'    <parent link="{link_name[parent[i]]}"/>\n')
        parts.append(f'    <child link="{link_name[i]}"/>\n')
        if t == "planar":
            parts.append('    <axis xyz="0 0 1"/>\n')
        elif t != "fixed":
            parts.append(_axis_xml(rng))
        elif rng.random() < 0.3:
            parts.append(_axis_xml(rng))  # an axis on a fixed joint is meaningless; ignore it
        if t in ("revolute", "prismatic"):
            lo = -rng.uniform(0.1, 3.0)
            hi = rng.uniform(0.1, 3.0)
            parts.append(f'    <limit lower="{_fmt(lo)}" upper="{_fmt(hi)}" effort="{_fmt(rng.uniform(1, 100))}" '
                         f'velocity="{_fmt(rng.uniform(1, 10))}"/>\n')
        elif t == "continuous" and rng.random() < 0.5:
            parts.append(f'    <limit effort="{_fmt(rng.uniform(1, 100))}" velocity="{_fmt(rng.uniform(1, 10))}"/>\n')
        if t != "fixed" and decoys and rng.random() < 0.25:
            parts.append(f'    <dynamics damping="{_fmt(rng.uniform(0, 2))}" friction="{_fmt(rng.uniform(0, 1))}"/>\n')
        # shuffle the sub-elements too
        order = rng.permutation(len(parts))
        inner_xml = "".join(parts[k] for k in order)
        elements.append(("joint", i, f'  <joint name="{joint_name[i]}" type="{t}">\n{inner_xml}  </joint>\n'))

    if floating_root:
        wname = "world"
        elements.append(("link", -1, f'  <link name="{wname}"/>\n'))
        origin, _, _ = _origin_xml(rng)
        elements.append(("joint", -1,
                         f'  <joint name="free_base" type="floating">\n{origin}'
                         f'    <parent link="{wname}"/>\n    <child link="{link_name[0]}"/>\n  </joint>\n'))

    # ---- shuffled order: children before parents, joints before their links
    order = list(rng.permutation(len(elements)))
    # first element: a joint of the deepest link (its links come later); last: the root link
    deepest = max(range(1, n_links), key=lambda i: depth[i])
    idx_first = next(k for k, e in enumerate(elements) if e[0] == "joint" and e[1] == deepest)
    idx_root = next(k for k, e in enumerate(elements)
                    if e[0] == "link" and e[1] == (-1 if floating_root else 0))
    order.remove(idx_first)
    order.remove(idx_root)
    order = [idx_first] + order + [idx_root]
    body = [elements[k][2] for k in order]

    # ---- decoys interleaved
    if decoys:
        movable = [i for i in range(1, n_links) if jtype[i] not in ("fixed",)]
        dec = []
        dec.append('  <material name="decoy_grey">\n    <color rgba="0.5 0.5 0.5 1"/>\n  </material>\n')
        for k, i in enumerate(movable[:3]):
            dec.append(
                f'  <transmission name="trans_{k}">\n'
                f'    <type>transmission_interface/SimpleTransmission</type>\n'
                f'    <joint name="{joint_name[i]}">\n'
                f'      <hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>\n'
                f'    </joint>\n'
                f'    <actuator name="motor_{k}">\n'
                f'      <mechanicalReduction>{_fmt(rng.uniform(1, 100))}</mechanicalReduction>\n'
                f'    </actuator>\n'
                f'  </transmission>\n')
        dec.append(
            '  <transmission name="trans_ghost">\n'
            '    <type>transmission_interface/SimpleTransmission</type>\n'
            '    <joint name="ghost_joint"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>\n'
            '    <actuator name="ghost_motor"/>\n'
            '  </transmission>\n')
        dec.append(f'  <gazebo reference="{link_name[int(rng.integers(n_links))]}">\n'
                   f'    <material>Gazebo/Grey</material>\n    <mu1>0.9</mu1>\n  </gazebo>\n')
        dec.append(
            '  <gazebo>\n'
            '    <plugin name="decoy_plugin" filename="libdecoy.so">\n'
            f'      <joint name="gz_decoy_joint" type="revolute"><parent link="{link_name[0]}"/>'
            '<child link="gz_decoy_link"/><axis xyz="0 0 1"/></joint>\n'
            '      <link name="gz_decoy_link"><inertial><mass value="100"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>\n'
            '    </plugin>\n'
            '  </gazebo>\n')
        dec.append("  <!-- a comment with <joint name=\"comment_joint\" type=\"revolute\"/> inside -->\n")
        for d in dec:
            body.insert(int(rng.integers(len(body) + 1)), d)

    return ('<?xml version="1.0" encoding="utf-8"?>\n'
            f'<robot name="{robot_name}">\n' + "".join(body) + "</robot>\n")


# ----------------------------------------------------------------------------- independent summary

def urdf_summary(xml_text):
    """Parse ``xml_text`` with ElementTree (direct children of <robot> only).

    Returns a dict: ``links`` (names), ``movable`` ({joint name: type}), ``fixed`` ({joint: (parent, child)}),
    ``parent_of`` ({child link: (joint name, type, parent link)}), ``root`` (root link name).
    """
    root = ET.fromstring(xml_text.encode() if isinstance(xml_text, str) else xml_text)
    links = [e.get("name") for e in root.findall("link")]
    movable, fixed, parent_of = {}, {}, {}
    for j in root.findall("joint"):
        t = j.get("type")
        p = j.find("parent").get("link")
        c = j.find("child").get("link")
        parent_of[c] = (j.get("name"), t, p)
        if t == "fixed":
            fixed[j.get("name")] = (p, c)
        else:
            movable[j.get("name")] = t
    roots = [l for l in links if l not in parent_of]
    assert len(roots) == 1, roots
    return {"links": links, "movable": movable, "fixed": fixed, "parent_of": parent_of, "root": roots[0]}
