"""Models and their Pinocchio twins for the derivative, centroidal and regressor tests.

Vectors and matrices are matched BY NAME: ``perm`` maps our velocity index to Pinocchio's
(from tests/pin_oracle.py's JointMap), ``param_cols`` picks Pinocchio's regressor columns of
each of our bodies by the name of the joint above it. No urdf2dyn dynamics is called here.
"""
import os
import sys

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pin_oracle as po  # noqa: E402
from urdfgen import random_urdf  # noqa: E402

import urdf2dyn  # noqa: E402
from urdf2dyn.biomech.human import GRAVITY as HUMAN_GRAVITY, human, humod_subject_path  # noqa: E402

ROBOTS = ["ur5", "panda", "talos", "solo12"]
# random trees: (seed, n_links, floating_base, floating joint inside the file); no planar joints
RANDOM = [(11, 6, False, False), (12, 9, True, False), (13, 12, False, True), (14, 15, True, False)]
CASES = ([f"robot-{r}" for r in ROBOTS] + [f"random-{k}" for k in range(len(RANDOM))]
         + ["human-fixed", "human-floating"])


class Twin:
    """Our model and Pinocchio's, from the same URDF, and the maps between their orders."""

    def __init__(self, cid):
        gravity = None
        if cid.startswith("robot-"):
            key = cid[len("robot-"):]
            source = po.robot_path(key)
            if source is None:
                pytest.skip(f"example-robot-data URDF for {key} not found")
            fb = po.ROBOTS[key][1]
        elif cid.startswith("random-"):
            seed, n, fb, froot = RANDOM[int(cid[len("random-"):])]
            source = _regular_tree(seed, n, fb, froot)
        else:   # HuMoD subject A: the bundled model, and the same body on a floating joint
            fb = False
            source = (humod_subject_path("A") if cid == "human-fixed"
                      else human(1.61, 57.3, "female", root="floating"))
            gravity = HUMAN_GRAVITY
        self.model = urdf2dyn.load(source, floating_base=fb)
        self.pin_model = po.build_pin_model(source, fb)
        if gravity is not None:
            self.model.gravity = gravity
            self.pin_model.gravity = pin.Motion(np.asarray(gravity, float), np.zeros(3))
        self.pin_data = self.pin_model.createData()
        self.jmap = po.JointMap(self.model.joints, self.pin_model, self.model.nq, self.model.nv)
        nv = self.model.nv
        self.perm = np.zeros((nv, nv))        # v_pin = perm @ v_ours
        for typ, _, qi, vi, pq, pv in self.jmap.entries:
            for k in range(6 if typ == "floating" else 1):
                self.perm[pv + k, vi + k] = 1.0
        self.param_cols = []
        for j in self.model.joints:
            jid = self.pin_model.getJointId(j.name)
            self.param_cols += list(range(10 * (jid - 1), 10 * jid))

    def mat(self, X):
        """A Pinocchio nv x nv matrix in our order (both triangles)."""
        return self.perm.T @ np.asarray(X) @ self.perm

    def vec(self, x):
        return self.perm.T @ np.asarray(x)

    def state(self, seed, n=None):
        return po.random_state(self.model, np.random.default_rng(seed), n)

    def to_pin(self, q, v, a):
        return self.jmap.to_pin(q, v, a)


def _regular_tree(seed, n, fb, froot):
    """A random tree whose mass matrix is well conditioned (seeds bumped until so)."""
    for attempt in range(60):
        xml = random_urdf(seed + 1000 * attempt, n_links=n, floating_root=froot)
        pm = po.build_pin_model(xml, fb)
        if any(sum(pm.inertias[k].mass for k in pm.subtrees[j]) <= 0 for j in range(1, pm.njoints)):
            continue
        qp = pin.normalize(pm, np.random.default_rng(seed).uniform(-1, 1, pm.nq))
        M = pin.crba(pm, pm.createData(), qp)
        M = np.triu(M) + np.triu(M, 1).T
        if np.linalg.cond(M) < 1e8:
            return xml
    raise AssertionError("no regular random tree")  # pragma: no cover


def sym(M):
    """Pinocchio fills the upper triangle of M and Minv only."""
    M = np.asarray(M)
    return np.triu(M) + np.triu(M, 1).T


def rel_err(x, ref):
    x, ref = np.asarray(x), np.asarray(ref)
    assert x.shape == ref.shape, (x.shape, ref.shape)
    return float(np.max(np.abs(x - ref)) / max(1.0, float(np.max(np.abs(ref)))))
