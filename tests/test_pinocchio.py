"""urdf2dyn inverse dynamics against Pinocchio (an independent oracle).

Real robots from example-robot-data and >= 24 random URDF trees (tests/urdfgen.py), several random
states each, single samples and batches, with and without external wrenches.  Conversions between
the two conventions live in tests/pin_oracle.py; nothing here compares urdf2dyn with itself.
"""

import functools
import os
import sys

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pin_oracle as po  # noqa: E402
from urdfgen import random_urdf, urdf_summary  # noqa: E402

import urdf2dyn  # noqa: E402

TOL = 1e-9
N_BATCH = 7
N_STATES = 3

ROBOT_CASES = ["ur5", "panda", "talos", "solo12", "romeo"]

_SIZES_LINKS = [3, 5, 8, 12, 18, 25, 10]


def _random_config(seed):
    """(floating_base, floating_root, planar, n_links) for random tree number ``seed``."""
    mode = seed % 4
    n_links = _SIZES_LINKS[seed % len(_SIZES_LINKS)]
    if mode == 0:
        return False, False, False, n_links
    if mode == 1:
        return True, False, False, n_links
    if mode == 2:
        return False, True, False, n_links
    # planar joints; every other one also on a floating base
    return (seed % 8 == 7), False, True, n_links


RANDOM_SEEDS = list(range(28))
CASES = [f"robot-{r}" for r in ROBOT_CASES] + [f"random-{s}" for s in RANDOM_SEEDS]


class Case:
    def __init__(self, cid):
        self.cid = cid
        if cid.startswith("robot-"):
            key = cid[len("robot-"):]
            path = po.robot_path(key)
            if path is None:
                pytest.skip(f"example-robot-data URDF for {key} not found")
            self.floating_base = po.ROBOTS[key][1]
            self.source = path
            with open(path, encoding="utf-8") as fh:
                self.xml = fh.read()
            self.seed = sum(map(ord, key))
        else:
            seed = int(cid[len("random-"):])
            fb, froot, planar, n_links = _random_config(seed)
            self.floating_base = fb
            self.xml = random_urdf(seed, n_links=n_links, floating_root=froot, planar=planar)
            self.source = self.xml
            self.seed = 1000 + seed
        self.pin_model = po.build_pin_model(self.source, self.floating_base)
        self.model = urdf2dyn.load(self.source, floating_base=self.floating_base)
        self.jmap = po.JointMap(self.model.joints, self.pin_model, self.model.nq, self.model.nv)
        # links grouped by the Pinocchio joint (body) that carries them
        self.links = po.body_frames(self.pin_model)
        self.by_joint = {}
        for link in self.links:
            self.by_joint.setdefault(po.link_to_pin_joint(self.pin_model, link), []).append(link)
        self.merged = po.fixed_merged_links(self.pin_model)

    def rng(self, salt):
        return np.random.default_rng([self.seed, salt])

    def wrench_sets(self, rng):
        """Lists of links to load: random 1-3 links, then a fixed-merged link together with another
        link of the same body (when the model has them)."""
        sets = []
        k = int(rng.integers(1, 4))
        k = min(k, len(self.links))
        sets.append([self.links[i] for i in rng.choice(len(self.links), size=k, replace=False)])
        moving_merged = [l for l in self.merged if po.link_to_pin_joint(self.pin_model, l) != 0]
        if moving_merged:
            l1 = moving_merged[int(rng.integers(len(moving_merged)))]
            same = [l for l in self.by_joint[po.link_to_pin_joint(self.pin_model, l1)] if l != l1]
            sets.append([l1, same[int(rng.integers(len(same)))]] if same else [l1])
        shared = [ls for j, ls in self.by_joint.items() if j != 0 and len(ls) >= 2]
        if shared:
            grp = shared[int(rng.integers(len(shared)))]
            pick = rng.choice(len(grp), size=min(len(grp), 3), replace=False)
            sets.append([grp[i] for i in pick])
        return sets


@functools.lru_cache(maxsize=None)
def _case(cid):
    return Case(cid)


def get_case(cid):
    return _case(cid)


def _check(case, tau, tau_ref, what):
    tau = np.asarray(tau)
    assert tau.dtype == np.float64, f"{case.cid} {what}: dtype {tau.dtype}"
    assert tau.shape == np.shape(tau_ref), f"{case.cid} {what}: shape {tau.shape} != {np.shape(tau_ref)}"
    err = po.relative_error(tau, tau_ref)
    if err > TOL:
        diff = np.abs(tau - tau_ref)
        if diff.ndim == 2:
            diff = diff.max(axis=0)
        worst = int(np.argmax(diff))
        names = list(getattr(case.model, "v_names", []) or [])
        label = names[worst] if worst < len(names) else f"v[{worst}]"
        pytest.fail(f"{case.cid} {what}: relative error {err:.3e} > {TOL:g}; worst coordinate {label} "
                    f"(|diff| = {diff[worst]:.3e})")


# ----------------------------------------------------------------------------- structure

@pytest.mark.parametrize("cid", CASES)
def test_structure_matches_pinocchio(cid):
    case = get_case(cid)
    m, pm = case.model, case.pin_model
    # JointMap (built in Case) asserts: same joint names, same types, indices tile [0,nq) / [0,nv).
    n_extra = sum(1 for j in m.joints if j.type in ("continuous", "planar"))
    assert m.nv == pm.nv
    assert m.nq == pm.nq - n_extra
    ours = [j.name for j in m.joints]
    assert len(ours) == len(set(ours))
    assert ours == list(pm.names[1:])          # the same order: Pinocchio's
    if case.floating_base:
        assert "root_joint" in ours
        root = [j for j in m.joints if j.name == "root_joint"][0]
        assert root.type == "floating"
    summary = urdf_summary(case.xml)
    expect = set(summary["movable"]) | ({"root_joint"} if case.floating_base else set())
    assert set(ours) == expect
    child_of = {jn: c for c, (jn, _, _) in summary["parent_of"].items()}
    for j in m.joints:
        if j.name != "root_joint":
            assert j.type == summary["movable"][j.name]
            assert j.child == child_of[j.name]
            assert j.parent == summary["parent_of"][j.child][2]
        else:
            assert j.child == summary["root"]
    assert set(summary["links"]) <= set(m.link_names)
    assert "gz_decoy_link" not in set(m.link_names)
    assert len(m.q_names) == m.nq and len(m.v_names) == m.nv


# ----------------------------------------------------------------------------- single samples

@pytest.mark.parametrize("cid", CASES)
def test_rnea_single(cid):
    case = get_case(cid)
    rng = case.rng(1)
    for s in range(N_STATES):
        q, v, a = po.random_state(case.model, rng)
        tau = case.model.inverse_dynamics(q, v, a)
        _check(case, tau, po.pin_inverse_dynamics(case.jmap, q, v, a), f"state {s}")
    # the alias, and the static case (gravity torques only)
    q, v, a = po.random_state(case.model, rng)
    z = np.zeros(case.model.nv)
    _check(case, case.model.rnea(q, z, z), po.pin_inverse_dynamics(case.jmap, q, z, z), "static")
    _check(case, case.model.rnea(q, v, a), po.pin_inverse_dynamics(case.jmap, q, v, a), "rnea alias")


@pytest.mark.parametrize("cid", CASES)
def test_rnea_single_fext(cid):
    case = get_case(cid)
    rng = case.rng(2)
    for s in range(N_STATES):
        q, v, a = po.random_state(case.model, rng)
        for links in case.wrench_sets(rng):
            f_ext = {l: rng.normal(size=6) * np.array([5, 5, 5, 2, 2, 2]) for l in links}
            tau = case.model.inverse_dynamics(q, v, a, f_ext=f_ext)
            _check(case, tau, po.pin_inverse_dynamics(case.jmap, q, v, a, f_ext), f"state {s} f_ext on {links}")


# ----------------------------------------------------------------------------- batches

@pytest.mark.parametrize("cid", CASES)
def test_rnea_batch(cid):
    case = get_case(cid)
    rng = case.rng(3)
    q, v, a = po.random_state(case.model, rng, N=N_BATCH)
    tau = case.model.inverse_dynamics(q, v, a)
    _check(case, tau, po.pin_inverse_dynamics(case.jmap, q, v, a), "batch")
    for links in case.wrench_sets(rng):
        f_ext = {l: rng.normal(size=(N_BATCH, 6)) * 3.0 for l in links}
        tau = case.model.inverse_dynamics(q, v, a, f_ext=f_ext)
        _check(case, tau, po.pin_inverse_dynamics(case.jmap, q, v, a, f_ext), f"batch f_ext on {links}")


@pytest.mark.parametrize("cid", ["robot-panda", "robot-solo12", "random-2", "random-3", "random-7"])
def test_rnea_batch_fext_shared_wrench(cid):
    """A (6,) wrench given with a batch applies to every sample."""
    case = get_case(cid)
    rng = case.rng(4)
    q, v, a = po.random_state(case.model, rng, N=N_BATCH)
    links = case.wrench_sets(rng)[0]
    f_ext = {l: (rng.normal(size=6) if i % 2 == 0 else rng.normal(size=(N_BATCH, 6)))
             for i, l in enumerate(links)}
    tau = case.model.inverse_dynamics(q, v, a, f_ext=f_ext)
    _check(case, tau, po.pin_inverse_dynamics(case.jmap, q, v, a, f_ext), f"batch shared f_ext on {links}")


# ----------------------------------------------------------------------------- gravity

@pytest.mark.parametrize("cid", ["robot-ur5", "robot-talos", "random-1", "random-3", "random-6"])
def test_rnea_custom_gravity(cid):
    case = get_case(cid)
    model = urdf2dyn.load(case.source, floating_base=case.floating_base)  # fresh: gravity is mutated
    np.testing.assert_allclose(np.asarray(model.gravity, float), [0.0, 0.0, -9.81])
    rng = case.rng(5)
    g = rng.normal(size=3) * 5.0
    model.gravity = g
    q, v, a = po.random_state(model, rng, N=3)
    _check(case, model.inverse_dynamics(q, v, a),
           po.pin_inverse_dynamics(case.jmap, q, v, a, gravity=g), "custom gravity")
