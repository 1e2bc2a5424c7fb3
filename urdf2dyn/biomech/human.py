"""A 36-DoF human body model, written as URDF text, with the joints of the HuMoD database.

    >>> import urdf2dyn
    >>> text = urdf2dyn.human(1.79, 84.8, "male")               # URDF text
    >>> model = urdf2dyn.human_model(1.79, 84.8, "male")        # loaded, gravity (0, -9.81, 0)
    >>> from urdf2dyn.biomech.human import standing_configuration
    >>> q = standing_configuration(1.79, "male")                # soles on the floor y = 0

Kinematic structure (thesis ch. 4.2 and HuMoD, Wojtusch & von Stryk 2015)
--------------------------------------------------------------------------
The base joint BJ sits at the lower lumbar joint LLJ, as in HuMoD: its child is the pelvis.
Two branches leave the pelvis, the upper body first::

    ground -BJ(6)-> pelvis
    pelvis -LLJ(X,Z)-> abdomen -ULJ(X,Y,Z)-> thorax
        thorax -LNJ(X,Y,Z)-> head
        thorax -SJ_L(X,Y,Z)-> upper_arm_L -EJ_L(Z)-> forearm_L =WJ_L= hand_L
        thorax -SJ_R(X,Y,Z)-> upper_arm_R -EJ_R(Z)-> forearm_R =WJ_R= hand_R
    pelvis -HJ_L(X,Y,Z)-> thigh_L -KJ_L(Z)-> shank_L -AJ_L(X,Y,Z)-> foot_L
    pelvis -HJ_R(X,Y,Z)-> thigh_R -KJ_R(Z)-> shank_R -AJ_R(X,Y,Z)-> foot_R

(``=WJ=`` is a fixed wrist joint: the hand is its own URDF link, merged into the forearm's body.)
A multi-DoF joint is a chain of revolute joints about X, then Y, then Z, all at the joint centre,
joined by massless intermediate links named ``<joint>_link`` (e.g. ``rHJX_L_link``), so the child
segment's orientation relative to its parent is the intrinsic (body-fixed) Cardan product
``R = Rx(qX) Ry(qY) Rz(qZ)``. The root (``root="prismatic"``, the default) is three prismatic joints
pBJX, pBJY, pBJZ along the world x, y, z axes followed by rBJX, rBJY, rBJZ: the pelvis frame origin
(the LLJ) is at (pBJX, pBJY, pBJZ) in the world and its orientation is Rx(rBJX) Ry(rBJY) Rz(rBJZ).
All 36 coordinates are then plain numbers (m or rad) with exactly HuMoD's names.

``root="floating"`` replaces the six root joints by one URDF floating joint named ``BJ``. Its
coordinates follow urdf2dyn's floating convention: q = [BJ_x BJ_y BJ_z BJ_qx BJ_qy BJ_qz BJ_qw]
(position of the LLJ in the world, unit quaternion, scalar last), v = [BJ_vx .. BJ_wz] the twist
in the PELVIS (body) frame, 37 coordinates and 36 velocities. HuMoD's root data then need a
conversion (Cardan angles -> quaternion, world rates -> body twist): :func:`root_to_floating`.

Frames and units
----------------
SI units (m, kg, rad). The world frame is HuMoD's: **y vertical (up)**, gravity (0, -9.81, 0)
(``human_model`` sets it: urdf2dyn's default is (0, 0, -9.81)); at the zero pose every segment
frame is parallel to the world: **x forward** (walking direction), **y up**, **z to the subject's
right** (x cross y = z; this is the ISB convention). Positive rotations follow the right-hand rule:
a positive Z rotation (the flexion axis: elbows and knees have only Z) swings a segment that hangs
down forwards, so hip flexion is positive and knee flexion negative. The zero pose is upright,
arms hanging, feet flat, with the LLJ at the world origin; :func:`standing_configuration` lifts it
so that the soles are on the floor y = 0. Each segment frame has its origin at its proximal joint
centre (the head, abdomen and thorax at their lower joint).

Joint order: names vs. order
----------------------------
``HUMOD_LABELS`` is the order of HuMoD's ``motion.trajectoryLabels`` (and of the rows of
``motion.trajectory.q``): pBJX pBJY pBJZ rBJX rBJY rBJZ, then LNJ, SJ_L, SJ_R, EJ_L, EJ_R, ULJ, LLJ,
HJ_L, HJ_R, KJ_L, KJ_R, AJ_L, AJ_R (36 labels, taken from HuMoD's own processing scripts, which are
BSD-licensed; the thesis' MATLAB code lists them in the same order). That order is not a
topological order of the tree (the neck LNJ comes before its ancestors ULJ and LLJ), so no URDF
model can have it as its q order: urdf2dyn numbers coordinates depth first, children by joint
name (Pinocchio's order), which here gives ``MODEL_ORDER`` (BJ, HJ_L, KJ_L, AJ_L, HJ_R, KJ_R,
AJ_R, LLJ, ULJ, LNJ, SJ_L, EJ_L, SJ_R, EJ_R). The *names* are identical, so HuMoD data map without renaming: match
columns by name (``urdf2dyn.biomech.formats.read_humod`` returns them in HuMoD's order and
``Trajectory.for_model`` reorders them to ``model.q_names``) or use :func:`humod_to_model_index`.

Body-segment parameters
-----------------------
Masses, centre-of-mass positions and radii of gyration: de Leva P. (1996) "Adjustments to
Zatsiorsky-Seluyanov's segment inertia parameters", J. Biomech. 29(9):1223-1230, **Table 4**
(female and male columns), copied below in ``DE_LEVA_TABLE4``. The head row is the head+neck
segment VERTEX -> CERVICALE (C7), the alternative given with Table 4 for a neck joint at C7; the
trunk is split into de Leva's upper (UPT: suprasternale -> xiphion), middle (MPT: xiphion ->
omphalion) and lower (LPT: omphalion -> hip-joint-centre midpoint) parts = HuMoD's thorax, abdomen
and pelvis; so ULJ sits at the xiphion, LLJ at the omphalion, LNJ at C7. Mass fractions are divided
by their sum (female Table 4 fractions add up to 99.99 %) so that the segment masses add up exactly
to the given mass. A segment's CoM lies on its longitudinal axis at the tabulated fraction of its
length from the first endpoint; its inertia is diagonal in the segment frame, I = m (r * length)^2,
with the sagittal radius about x (antero-posterior axis), the transverse radius about z
(medio-lateral axis) and the longitudinal radius about y (for the foot, whose long axis is x: the
longitudinal radius about x, the sagittal one about y).

Segment lengths: the Table 4 lengths of de Leva's reference subjects (Zatsiorsky's samples: females
1.735 m, males 1.741 m stature), scaled by one factor per model so that the vertical chain
floor -> ankle -> knee -> hip -> LLJ -> ULJ -> C7 -> vertex adds up to the given height, with the
ankle-joint height fixed at 0.039 * height (Drillis & Contini's proportions, as tabulated in
Winter D.A., Biomechanics and Motor Control of Human Movement, 4th ed. 2009, fig. 4.1). The same
factor scales the arm, hand and foot lengths. De Leva gives longitudinal data only; the transverse
offsets are our rounded choices, documented where they are defined (``_LATERAL``): shoulder joint
centres at +-0.10 * height beside the midline at the suprasternale level, hip joint centres at
+-0.05 * height, ankle 0.20 foot-length in front of the heel, foot CoM half-way between the ankle
height and the sole.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._xmltext import escape
from ..bundled import data_path

if TYPE_CHECKING:
    from ..model import Model

__all__ = ["human", "human_model", "humod_subject", "humod_subject_path", "segment_parameters",
           "standing_configuration", "root_to_floating", "humod_to_model_index", "HUMOD_LABELS",
           "MODEL_ORDER", "HUMOD_SUBJECTS", "DE_LEVA_TABLE4", "REFERENCE_STATURE", "GRAVITY"]

GRAVITY = (0.0, -9.81, 0.0)

#: HuMoD's ``motion.trajectoryLabels``: the 36 DoF, in the order of the rows of trajectory.q.
HUMOD_LABELS = [
    "pBJX", "pBJY", "pBJZ", "rBJX", "rBJY", "rBJZ",
    "rLNJX", "rLNJY", "rLNJZ",
    "rSJX_L", "rSJY_L", "rSJZ_L", "rSJX_R", "rSJY_R", "rSJZ_R",
    "rEJZ_L", "rEJZ_R",
    "rULJX", "rULJY", "rULJZ",
    "rLLJX", "rLLJZ",
    "rHJX_L", "rHJY_L", "rHJZ_L", "rHJX_R", "rHJY_R", "rHJZ_R",
    "rKJZ_L", "rKJZ_R",
    "rAJX_L", "rAJY_L", "rAJZ_L", "rAJX_R", "rAJY_R", "rAJZ_R",
]

#: The q order of the generated model (root="prismatic"): depth first through the tree.
MODEL_ORDER = [
    "pBJX", "pBJY", "pBJZ", "rBJX", "rBJY", "rBJZ",
    "rHJX_L", "rHJY_L", "rHJZ_L", "rKJZ_L", "rAJX_L", "rAJY_L", "rAJZ_L",
    "rHJX_R", "rHJY_R", "rHJZ_R", "rKJZ_R", "rAJX_R", "rAJY_R", "rAJZ_R",
    "rLLJX", "rLLJZ", "rULJX", "rULJY", "rULJZ", "rLNJX", "rLNJY", "rLNJZ",
    "rSJX_L", "rSJY_L", "rSJZ_L", "rEJZ_L", "rSJX_R", "rSJY_R", "rSJZ_R", "rEJZ_R",
]

#: The two HuMoD subjects: (sex, mass kg, height m).
HUMOD_SUBJECTS = {"A": ("female", 57.3, 1.61), "B": ("male", 84.8, 1.79)}

#: Stature (m) of de Leva's reference subjects (Zatsiorsky's samples), the Table 4 lengths' basis.
REFERENCE_STATURE = {"female": 1.735, "male": 1.741}

#: de Leva (1996), Table 4. Per sex and segment: (length mm, mass % of body mass, CoM position %
#: of the length from the first endpoint, radii of gyration % of the length: sagittal, transverse,
#: longitudinal). Endpoints: head VERT->CERV (head + neck, vertex to C7); UPT SUPR->XYPH; MPT
#: XYPH->OMPH; LPT OMPH->MIDH; upper arm SJC->EJC; forearm EJC->WJC; hand WJC->MET3 (third
#: metacarpale); thigh HJC->KJC; shank KJC->LMAL (lateral malleolus); foot HEEL->TTIP (toe tip).
#: "trunk_cerv" / "trunk_supr" (CERV->MIDH / SUPR->MIDH) are only used for the neck length.
DE_LEVA_TABLE4 = {
    "female": {
        "head":       (243.7, 6.68, 48.41, 27.1, 29.5, 26.1),
        "trunk_cerv": (614.8, 42.57, 49.64, None, None, None),
        "trunk_supr": (529.3, 42.57, 41.51, 35.7, 33.9, 17.1),
        "upt":        (142.5, 15.45, 20.77, 74.6, 50.2, 71.8),
        "mpt":        (205.3, 14.65, 45.12, 43.3, 35.4, 41.5),
        "lpt":        (181.5, 12.47, 49.20, 43.3, 40.2, 44.4),
        "upper_arm":  (275.1, 2.55, 57.54, 27.8, 26.0, 14.8),
        "forearm":    (264.3, 1.38, 45.59, 26.1, 25.7, 9.4),
        "hand":       (78.0, 0.56, 74.74, 53.1, 45.4, 33.5),
        "thigh":      (368.5, 14.78, 36.12, 36.9, 36.4, 16.2),
        "shank":      (432.3, 4.81, 44.16, 27.1, 26.7, 9.3),
        "foot":       (228.3, 1.29, 40.14, 29.9, 27.9, 13.9),
    },
    "male": {
        "head":       (242.9, 6.94, 50.02, 30.3, 31.5, 26.1),
        "trunk_cerv": (603.3, 43.46, 51.38, None, None, None),
        "trunk_supr": (531.9, 43.46, 44.86, 37.2, 34.7, 19.1),
        "upt":        (170.7, 15.96, 29.99, 71.6, 45.4, 65.9),
        "mpt":        (215.5, 16.33, 45.02, 48.2, 38.3, 46.8),
        "lpt":        (145.7, 11.17, 61.15, 61.5, 55.1, 58.7),
        "upper_arm":  (281.7, 2.71, 57.72, 28.5, 26.9, 15.8),
        "forearm":    (268.9, 1.62, 45.74, 27.6, 26.5, 12.1),
        "hand":       (86.2, 0.61, 79.00, 62.8, 51.3, 40.1),
        "thigh":      (422.2, 14.16, 40.95, 32.9, 32.9, 14.9),
        "shank":      (434.0, 4.33, 44.59, 25.5, 24.9, 10.3),
        "foot":       (258.1, 1.37, 44.15, 25.7, 24.5, 12.4),
    },
}

#: Our transverse-geometry choices (fractions of height, or of foot length for the heel).
_LATERAL = {
    "ankle_height": 0.039,     # Winter 2009 fig. 4.1 (Drillis & Contini): ankle-joint height
    "shoulder": 0.10,          # shoulder joint centre, each side of the midline
    "hip": 0.05,               # hip joint centre, each side of the midline
    "heel": 0.20,              # heel behind the ankle joint centre, fraction of foot length
}

#: URDF link of each de Leva segment (both sides for the limbs).
_SEGMENT_LINK = {"head": "head", "upt": "thorax", "mpt": "abdomen", "lpt": "pelvis"}
_LIMBS = ("upper_arm", "forearm", "hand", "thigh", "shank", "foot")
_MASS_ROWS = ("head", "upt", "mpt", "lpt") + _LIMBS      # rows whose masses make up the body

_DATA_FILES = {"A": "humod_subject_a.urdf", "B": "humod_subject_b.urdf"}

# Joint ranges written in the URDF. They are generous (not anatomical): URDF readers require a
# <limit> on revolute/prismatic joints, and dynamics do not use it.
_REV_LIMIT = math.pi
_ROOT_REV_LIMIT = 2 * math.pi
_PRIS_LIMIT = 100.0


def _sex(sex):
    s = str(sex).strip().lower()
    if s in ("f", "female", "woman", "w"):
        return "female"
    if s in ("m", "male", "man"):
        return "male"
    raise ValueError(f"sex: expected 'female' or 'male' (or 'f' / 'm'), got {sex!r}")


#: the least body mass (kg) human() takes, below the lightest newborn on record
MIN_HUMAN_MASS = 0.2


def _check(height, mass):
    height, mass = float(height), float(mass)
    if not (math.isfinite(height) and 0.3 <= height <= 3.0):
        raise ValueError(f"height: expected a stature in metres between 0.3 and 3.0, got {height}")
    # below the lightest newborn on record (about 0.25 kg) it is no person's mass: 1e-300 is
    # a typing slip, not a subject, and 5e-324 leaves segments of mass 0
    if not (math.isfinite(mass) and MIN_HUMAN_MASS <= mass <= 1000):
        raise ValueError(f"mass: expected a body mass in kg from {MIN_HUMAN_MASS:g} to 1000, "
                         f"got {mass:g}")
    return height, mass


def segment_parameters(height: float, mass: float, sex: str) -> dict[str, Any]:
    """Lengths and inertial parameters of every segment, and the joint-centre geometry.

    Returns a dict with

    * ``"scale"``: the factor applied to the Table 4 lengths (in m),
    * ``"lengths"``: {row: length in m} for every row of ``DE_LEVA_TABLE4`` plus ``"neck"``
      (C7 above the suprasternale) and ``"ankle_height"``,
    * ``"segments"``: {link name: (mass kg, com (3,) in the link frame, (Ixx, Iyy, Izz) about
      the CoM)} for the 16 massive links,
    * ``"heights"``: standing heights (m above the floor) of the joint centres AJ, KJ, HJ, LLJ,
      ULJ, SJ (suprasternale level), LNJ (C7) and of the vertex.
    """
    height, mass = _check(height, mass)
    sex = _sex(sex)
    tab = DE_LEVA_TABLE4[sex]
    mm = {k: row[0] * 1e-3 for k, row in tab.items()}
    h_ankle = _LATERAL["ankle_height"] * height
    chain = mm["shank"] + mm["thigh"] + mm["trunk_cerv"] + mm["head"]
    s = (height - h_ankle) / chain
    L = {k: s * v for k, v in mm.items()}
    L["neck"] = s * (mm["trunk_cerv"] - mm["trunk_supr"])
    L["ankle_height"] = h_ankle

    total_pct = sum(tab[k][1] * (2 if k in _LIMBS else 1) for k in _MASS_ROWS)

    def inertial(row, com, axes=("sag", "long", "trans")):
        length, pct, _, r_sag, r_trans, r_long = tab[row]
        m = mass * pct / total_pct
        r = {"sag": r_sag, "trans": r_trans, "long": r_long}
        ell = L[row]
        inertia = tuple(m * (r[a] * 1e-2 * ell) ** 2 for a in axes)   # (Ixx, Iyy, Izz)
        return m, np.asarray(com, dtype=float), inertia

    def c(row):            # CoM fraction from the first endpoint
        return tab[row][2] * 1e-2

    heel = _LATERAL["heel"] * L["foot"]
    segs = {
        # head: VERT -> CERV, frame at C7 (LNJ), CoM c * length below the vertex
        "head": inertial("head", [0, L["head"] * (1 - c("head")), 0]),
        # thorax: frame at the xiphion (ULJ); UPT CoM c * length below the suprasternale
        "thorax": inertial("upt", [0, L["upt"] * (1 - c("upt")), 0]),
        # abdomen: frame at the omphalion (LLJ); MPT CoM c * length below the xiphion
        "abdomen": inertial("mpt", [0, L["mpt"] * (1 - c("mpt")), 0]),
        # pelvis: frame at the omphalion (LLJ); LPT CoM c * length below it
        "pelvis": inertial("lpt", [0, -L["lpt"] * c("lpt"), 0]),
    }
    for side in ("L", "R"):
        for row in ("upper_arm", "forearm", "hand", "thigh", "shank"):
            segs[f"{row}_{side}"] = inertial(row, [0, -L[row] * c(row), 0])
        # foot: long axis x, heel -> toe tip; CoM c * length from the heel, half-way down
        segs[f"foot_{side}"] = inertial("foot", [-heel + c("foot") * L["foot"], -0.5 * h_ankle, 0],
                                        axes=("long", "sag", "trans"))

    z = {"AJ": h_ankle}
    z["KJ"] = z["AJ"] + L["shank"]
    z["HJ"] = z["KJ"] + L["thigh"]
    z["LLJ"] = z["HJ"] + L["lpt"]
    z["ULJ"] = z["LLJ"] + L["mpt"]
    z["SJ"] = z["ULJ"] + L["upt"]
    z["LNJ"] = z["SJ"] + L["neck"]
    z["vertex"] = z["LNJ"] + L["head"]
    return {"scale": s, "lengths": L, "segments": segs, "heights": z, "sex": sex,
            "height": height, "mass": mass}


# ------------------------------------------------------------------------------ URDF writing

def _f(x):
    x = float(x)
    return "0" if x == 0 else f"{x:.9g}"


def _vec(v):
    return " ".join(_f(x) for x in v)


class _Writer:
    def __init__(self, name):
        self.lines = ['<?xml version="1.0"?>', f'<robot name="{escape(name)}">']

    def link(self, name, params=None, comment=None):
        if comment:
            self.lines.append(f"  <!-- {comment} -->")
        if params is None:
            self.lines.append(f'  <link name="{name}"/>')
            return
        m, com, (ixx, iyy, izz) = params
        self.lines += [
            f'  <link name="{name}">',
            "    <inertial>",
            f'      <origin xyz="{_vec(com)}" rpy="0 0 0"/>',
            f'      <mass value="{_f(m)}"/>',
            f'      <inertia ixx="{_f(ixx)}" ixy="0" ixz="0" iyy="{_f(iyy)}" iyz="0" izz="{_f(izz)}"/>',
            "    </inertial>",
            "  </link>",
        ]

    def joint(self, name, jtype, parent, child, xyz=(0, 0, 0), axis=None, limit=None):
        self.lines.append(f'  <joint name="{name}" type="{jtype}">')
        self.lines.append(f'    <parent link="{parent}"/>')
        self.lines.append(f'    <child link="{child}"/>')
        self.lines.append(f'    <origin xyz="{_vec(xyz)}" rpy="0 0 0"/>')
        if axis is not None:
            self.lines.append(f'    <axis xyz="{_vec(axis)}"/>')
        if limit is not None:
            lo, hi, effort, vel = limit
            self.lines.append(f'    <limit lower="{_f(lo)}" upper="{_f(hi)}" effort="{_f(effort)}" '
                              f'velocity="{_f(vel)}"/>')
        self.lines.append("  </joint>")

    def text(self):
        return "\n".join(self.lines + ["</robot>", ""])


_AXES = {"X": (1, 0, 0), "Y": (0, 1, 0), "Z": (0, 0, 1)}


def _multi(w, joint, side, dofs, parent, child, xyz, limit=_REV_LIMIT):
    """A joint of len(dofs) revolute DoF about X, then Y, then Z, at xyz in parent's frame."""
    suffix = f"_{side}" if side else ""
    prev = parent
    for k, d in enumerate(dofs):
        name = f"r{joint}{d}{suffix}"
        last = k == len(dofs) - 1
        nxt = child if last else f"{name}_link"
        if not last:
            w.link(nxt)
        w.joint(name, "revolute", prev, nxt, xyz if k == 0 else (0, 0, 0), _AXES[d],
                (-limit, limit, 1000, 100))
        prev = nxt


def human(height: float, mass: float, sex: str, root: str = "prismatic", name: str | None = None
          ) -> str:
    """URDF text of the 36-DoF HuMoD human of the given stature (m), mass (kg) and sex.

    root="prismatic" (default): 3 prismatic + 3 revolute root joints named as HuMoD (nq = nv = 36);
    root="floating": one floating joint 'BJ' (nq = 37, nv = 36). See the module docstring for the
    frames (y up, x forward, z right), the joint order and the anthropometric sources.
    """
    if root not in ("prismatic", "floating"):
        raise ValueError(f"root: expected 'prismatic' or 'floating', got {root!r}")
    p = segment_parameters(height, mass, sex)
    height, mass, sex = p["height"], p["mass"], p["sex"]
    L, S, z = p["lengths"], p["segments"], p["heights"]
    if name is None:
        name = f"human_{sex}_{height:.2f}m_{mass:.1f}kg".replace(".", "_")
    try:
        w = _Writer(name)
    except ValueError as e:
        raise ValueError(f"name: {e}") from None
    w.lines.append(
        f"  <!-- urdf2dyn.human(height={height:g}, mass={mass:g}, sex='{sex}', root='{root}'): "
        "36-DoF HuMoD human. Frames: y up, x forward, z right; gravity (0,-9.81,0). Segment "
        "parameters: de Leva 1996, J. Biomech. 29(9):1223-1230, Table 4; lengths scaled from "
        "height. -->")

    w.link("ground", comment="world frame (y up); at the zero pose the LLJ is at its origin")
    if root == "prismatic":
        prev = "ground"
        for axis in "XYZ":
            child = f"pBJ{axis}_link"
            w.link(child)
            w.joint(f"pBJ{axis}", "prismatic", prev, child, axis=_AXES[axis],
                    limit=(-_PRIS_LIMIT, _PRIS_LIMIT, 10000, 100))
            prev = child
        w.link("pelvis", S["pelvis"], "pelvis = de Leva LPT (omphalion -> hip centres); frame at the LLJ")
        _multi(w, "BJ", "", "XYZ", prev, "pelvis", (0, 0, 0), limit=_ROOT_REV_LIMIT)
    else:
        w.link("pelvis", S["pelvis"], "pelvis = de Leva LPT (omphalion -> hip centres); frame at the LLJ")
        w.joint("BJ", "floating", "ground", "pelvis")

    # upper body first (as HuMoD), then the legs
    w.link("abdomen", S["abdomen"], "abdomen = de Leva MPT (xiphion -> omphalion)")
    _multi(w, "LLJ", "", "XZ", "pelvis", "abdomen", (0, 0, 0))
    w.link("thorax", S["thorax"], "thorax = de Leva UPT (suprasternale -> xiphion), up to C7")
    _multi(w, "ULJ", "", "XYZ", "abdomen", "thorax", (0, L["mpt"], 0))
    w.link("head", S["head"], "head + neck (vertex -> C7)")
    _multi(w, "LNJ", "", "XYZ", "thorax", "head", (0, L["upt"] + L["neck"], 0))
    for side, sign in (("L", -1.0), ("R", 1.0)):
        shoulder = (0, L["upt"], sign * _LATERAL["shoulder"] * height)
        w.link(f"upper_arm_{side}", S[f"upper_arm_{side}"])
        _multi(w, "SJ", side, "XYZ", "thorax", f"upper_arm_{side}", shoulder)
        w.link(f"forearm_{side}", S[f"forearm_{side}"])
        _multi(w, "EJ", side, "Z", f"upper_arm_{side}", f"forearm_{side}", (0, -L["upper_arm"], 0))
        w.link(f"hand_{side}", S[f"hand_{side}"])
        w.joint(f"WJ_{side}", "fixed", f"forearm_{side}", f"hand_{side}", (0, -L["forearm"], 0))
    for side, sign in (("L", -1.0), ("R", 1.0)):
        hip = (0, -L["lpt"], sign * _LATERAL["hip"] * height)
        w.link(f"thigh_{side}", S[f"thigh_{side}"])
        _multi(w, "HJ", side, "XYZ", "pelvis", f"thigh_{side}", hip)
        w.link(f"shank_{side}", S[f"shank_{side}"])
        _multi(w, "KJ", side, "Z", f"thigh_{side}", f"shank_{side}", (0, -L["thigh"], 0))
        w.link(f"foot_{side}", S[f"foot_{side}"])
        _multi(w, "AJ", side, "XYZ", f"shank_{side}", f"foot_{side}", (0, -L["shank"], 0))
    return w.text()


def human_model(height: float, mass: float, sex: str, root: str = "prismatic",
                name: str | None = None) -> Model:
    """``urdf2dyn.load(human(...))`` with gravity set to HuMoD's (0, -9.81, 0)."""
    from ..model import load
    model = load(human(height, mass, sex, root=root, name=name))
    model.gravity = GRAVITY
    return model


def humod_subject_path(subject: str) -> str:
    """Path of the bundled URDF of HuMoD subject 'A' (female, 57.3 kg, 1.61 m) or 'B' (male,
    84.8 kg, 1.79 m), generated by tools/make_humans.py with root="prismatic"."""
    key = str(subject).strip().upper()
    if key not in _DATA_FILES:
        raise ValueError(f"subject: expected 'A' or 'B', got {subject!r}")
    return data_path(_DATA_FILES[key])


def humod_subject(subject: str) -> Model:
    """The bundled model of HuMoD subject 'A' or 'B', loaded, gravity (0, -9.81, 0)."""
    from ..model import load
    model = load(humod_subject_path(subject))
    model.gravity = GRAVITY
    return model


def standing_configuration(height: float, sex: str, root: str = "prismatic") -> NDArray[np.float64]:
    """q of the upright zero pose lifted so that the soles are on the floor (y = 0).

    (All joint angles zero; the LLJ at (0, h, 0), h its standing height above the floor.)"""
    h = segment_parameters(height, 1.0, sex)["heights"]["LLJ"]
    if root == "prismatic":
        q = np.zeros(36)
        q[1] = h
    elif root == "floating":
        q = np.zeros(37)
        q[1], q[6] = h, 1.0
    else:
        raise ValueError(f"root: expected 'prismatic' or 'floating', got {root!r}")
    return q


def humod_to_model_index(names: Sequence[str] | None = None) -> NDArray[np.intp]:
    """Column indices that reorder HuMoD-ordered data into a model's q order.

    ``data[:, humod_to_model_index(model.q_names)]`` with data columns in ``HUMOD_LABELS``
    order; names defaults to ``MODEL_ORDER`` (the prismatic-root model's q order)."""
    names = MODEL_ORDER if names is None else list(names)
    pos = {n: k for k, n in enumerate(HUMOD_LABELS)}
    missing = [n for n in names if n not in pos]
    if missing:
        raise KeyError(f"not HuMoD labels: {missing}")
    return np.array([pos[n] for n in names], dtype=int)


# ------------------------------------------------------------------ prismatic root -> floating

def _rot(axis, angle):
    c, s = np.cos(angle), np.sin(angle)
    o, i = np.zeros_like(angle), np.ones_like(angle)
    if axis == 0:
        rows = [[i, o, o], [o, c, -s], [o, s, c]]
    elif axis == 1:
        rows = [[c, o, s], [o, i, o], [-s, o, c]]
    else:
        rows = [[c, -s, o], [s, c, o], [o, o, i]]
    return np.moveaxis(np.array(rows), (0, 1), (-2, -1))


def _quat_from_matrix(R):
    """Unit quaternions (x, y, z, w), w >= 0, of rotation matrices (N, 3, 3)."""
    R = np.asarray(R, dtype=float)
    diag = np.stack([R[:, 0, 0], R[:, 1, 1], R[:, 2, 2]], -1)
    tr = diag.sum(-1)
    # 4 * {w^2, x^2, y^2, z^2}: compute from the largest one, per sample, for accuracy
    big = np.stack([1 + tr, 1 + 2 * diag[:, 0] - tr, 1 + 2 * diag[:, 1] - tr,
                    1 + 2 * diag[:, 2] - tr], -1)
    k = np.argmax(big, axis=-1)
    s = 2 * np.sqrt(np.maximum(big[np.arange(len(R)), k], 1e-300))     # 4 * |largest|
    a21, a12 = R[:, 2, 1], R[:, 1, 2]
    a02, a20 = R[:, 0, 2], R[:, 2, 0]
    a10, a01 = R[:, 1, 0], R[:, 0, 1]
    cases = [  # (x, y, z, w) when w, x, y or z is the largest
        ((a21 - a12) / s, (a02 - a20) / s, (a10 - a01) / s, s / 4),
        (s / 4, (a01 + a10) / s, (a02 + a20) / s, (a21 - a12) / s),
        ((a01 + a10) / s, s / 4, (a12 + a21) / s, (a02 - a20) / s),
        ((a02 + a20) / s, (a12 + a21) / s, s / 4, (a10 - a01) / s),
    ]
    q = np.zeros((len(R), 4))
    for case, comps in enumerate(cases):
        mask = k == case
        q[mask] = np.stack(comps, -1)[mask]
    q *= np.where(q[:, 3:4] < 0, -1.0, 1.0)
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def root_to_floating(q: ArrayLike, v: ArrayLike | None = None, a: ArrayLike | None = None
                     ) -> tuple[NDArray[np.float64], NDArray[np.float64] | None,
                                NDArray[np.float64] | None]:
    """Convert prismatic-root coordinates to the floating-root model's (root="floating").

    q (36,) or (N, 36) in the prismatic model's q order (``MODEL_ORDER``; the six root
    coordinates pBJX pBJY pBJZ rBJX rBJY rBJZ first), v, a likewise (time derivatives of q).
    Returns (q_f (.., 37), v_f (.., 36) or None, a_f (.., 36) or None): the root becomes
    [p, quaternion of Rx(rBJX) Ry(rBJY) Rz(rBJZ)], its velocity the pelvis-frame twist
    [R^T dp/dt, omega_body] and its acceleration d/dt of that twist (urdf2dyn's and Pinocchio's
    free-flyer convention); the 30 other coordinates are copied unchanged (same order).
    """
    q = np.asarray(q, dtype=float)
    single = q.ndim == 1
    q2 = np.atleast_2d(q)
    if q2.shape[-1] != 36:
        raise ValueError(f"q: expected shape (36,) or (N, 36), got {q.shape}")
    p, ang = q2[:, :3], q2[:, 3:6]
    Rx, Ry, Rz = _rot(0, ang[:, 0]), _rot(1, ang[:, 1]), _rot(2, ang[:, 2])
    R = Rx @ Ry @ Rz
    qf = np.concatenate([p, _quat_from_matrix(R), q2[:, 6:]], axis=1)
    vf = af = None
    if v is not None:
        v2 = np.atleast_2d(np.asarray(v, dtype=float))
        if v2.shape != q2.shape:
            raise ValueError(f"v: expected shape {q.shape}, got {np.shape(v)}")
        dp, rates = v2[:, :3], v2[:, 3:6]
        # body angular velocity: rates about the X axis seen from the body (Rz^T Ry^T e1),
        # the Y axis (Rz^T e2) and the Z axis (e3)
        RyRz_T = np.swapaxes(Ry @ Rz, -1, -2)
        Rz_T = np.swapaxes(Rz, -1, -2)
        u1, u2 = RyRz_T[:, :, 0], Rz_T[:, :, 1]
        u3 = np.broadcast_to(np.array([0.0, 0.0, 1.0]), u1.shape)
        omega = u1 * rates[:, :1] + u2 * rates[:, 1:2] + u3 * rates[:, 2:3]
        RT = np.swapaxes(R, -1, -2)
        vlin = np.einsum("nij,nj->ni", RT, dp)
        vf = np.concatenate([vlin, omega, v2[:, 6:]], axis=1)
        if a is not None:
            a2 = np.atleast_2d(np.asarray(a, dtype=float))
            if a2.shape != q2.shape:
                raise ValueError(f"a: expected shape {q.shape}, got {np.shape(a)}")
            ddp, acc = a2[:, :3], a2[:, 3:6]
            e3 = u3
            du2 = -rates[:, 2:3] * np.cross(e3, u2)
            du1 = -rates[:, 2:3] * np.cross(e3, u1) - rates[:, 1:2] * np.cross(u2, u1)
            domega = (u1 * acc[:, :1] + u2 * acc[:, 1:2] + e3 * acc[:, 2:3]
                      + du1 * rates[:, :1] + du2 * rates[:, 1:2])
            # d/dt (R^T dp) = R^T ddp - omega x (R^T dp)
            alin = np.einsum("nij,nj->ni", RT, ddp) - np.cross(omega, vlin)
            af = np.concatenate([alin, domega, a2[:, 6:]], axis=1)
    if single:
        qf = qf[0]
        vf = None if vf is None else vf[0]
        af = None if af is None else af[0]
    return qf, vf, af
