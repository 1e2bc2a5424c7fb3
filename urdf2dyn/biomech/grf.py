"""Ground reactions as external loads, root residuals, and torques per kilogram.

    from urdf2dyn.biomech import formats, grf, humod_subject
    model = humod_subject("A")
    motion = formats.read("running.csv")
    reactions = grf.read_grf("running_grf.csv")            # force, CoP (+ free moment) per foot
    t, q, v, a = motion.with_derivatives(model=model).for_model(model)
    f_ext = grf.external_loads(reactions, model, time=t)   # {"foot_L": (N, 6), "foot_R": (N, 6)}
    tau = model.inverse_dynamics(q, v, a, f_ext=f_ext)
    res = grf.root_residuals(model, q, tau)                # residual force (N) and moment (N·m)
    tau_kg = grf.per_kg(tau, model)                        # N·m/kg

Ground reactions
----------------
A ground-reaction file is any trajectory file ``urdf2dyn.biomech.read`` reads (CSV, OpenSim .mot/.sto,
HuMoD .mat) with, per contact ("foot") key K, the columns ``grfX_K grfY_K grfZ_K`` (force on the
body, N, world frame), ``copX_K copY_K copZ_K`` (centre of pressure, m, world frame) and
optionally ``momX_K momY_K momZ_K`` (free moment, N·m). OpenSim's external-loads names are
understood too: ``<prefix>ground_force_vx/vy/vz``, ``<prefix>ground_force_px/py/pz`` and
``<prefix>ground_torque_x/y/z``; the prefix without its trailing ``_`` (e.g. ``r``, ``l``, ``1``,
or empty) is the key. So is the side written inside the names, as OpenSim's own example data
has it (``ground_force_r_vx``, ``ground_force_r_px``, ``ground_torque_r_x``: key ``r``).
Outside contact a force plate reports zero force and an undefined (NaN) CoP: every sample
whose force or CoP is not finite contributes a zero wrench (a NaN free moment counts as zero).
Each force is applied at its CoP to the key's link (``links``): by default ``foot_<K>`` when
the model has that link (the human model's ``foot_L`` and ``foot_R``), else ``calcn_r`` /
``calcn_l`` for OpenSim-style ``r``/``l`` keys; pass ``links={"K": "link"}`` (on the command
line ``--contact K=LINK``) otherwise. A reaction file sampled at other times than the
motion is linearly interpolated (the wrenches, which are linear in force and moment) onto the
motion's times, which must lie inside the file's time span.

Root residuals
--------------
With a 6-DoF root (a floating joint, an OpenSim pelvis CustomJoint, or a chain of joints with 6
DoF in total whose intermediate links are massless, such as the human model's pBJX..rBJZ), the
root's six generalized forces are the wrench the environment would have to add to the root
body for the motion to happen with the given external loads: OpenSim's *residual* forces and
moments ("residual actuators" on the pelvis). They are found through the root joints' motion
subspace (the root body's Jacobian columns): [F; M] = J_root^-T tau_root. A planar root (a 2-D
model's pelvis: one rotation, two translations) gives the force in its plane and the moment
about its axis (the plane carries the rest: zero). Measured data never balance exactly; large
residuals flag inconsistent kinematics, forces or body-segment parameters. :func:`root_residuals` turns
the root's generalized forces into that wrench: a force (N, world axes) and a moment (N·m, world
axes) about the root body's origin (the human model's lower lumbar joint) or, with
``about="com"``, about the whole-body centre of mass. A common rule of thumb (Hicks et al. 2015,
J. Biomech. Eng. 137:020905) asks for peak residual forces below 5 % of the peak external force
and RMS residual moments below 1 % of (CoM height x peak external force).
"""
from __future__ import annotations

import os
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .processing import CUTOFF_HZ, LIBRARY_COLUMNS, ColumnOptions, CutoffNamed
from .trajectory import MotionError, _incomplete_force, opensim_force_column
from ..warn import report

if TYPE_CHECKING:
    from ..model import Model
    from .trajectory import Trajectory

__all__ = ["read_grf", "check_times", "external_loads", "sample_wrenches", "contact_links",
           "root_residuals", "root_chain", "root_problem", "Residuals", "per_kg", "body_mass"]


# ----------------------------------------------------------------------------- reading

def read_grf(path: str | os.PathLike[str], mapping: Any = None, *,
             named: ColumnOptions = LIBRARY_COLUMNS, **options: Any) -> Trajectory:
    """Read a ground-reaction file: a Trajectory whose ``grf``, ``cop`` and ``moment`` dicts
    hold (N, 3) arrays per contact key (see the module docstring for the column names).

    Any file ``urdf2dyn.biomech.read`` reads; OpenSim ``ground_force_*`` columns are converted to
    the HuMoD-style names. mapping: {file key: new key} renames contact keys. named: the
    caller's options, as the refusals of the file advise them (a CSV file's reader's, and
    that of a file without ground reactions)."""
    from . import formats
    csv = not hasattr(path, "grf") and os.fspath(path).lower().endswith(".csv")
    traj = (formats.read(path, **({"named": named} if csv else {}), **options)
            if not hasattr(path, "grf") else path)
    traj = _opensim_forces(traj)
    if mapping:
        ren = dict(mapping)
        traj.grf = {ren.get(k, k): x for k, x in traj.grf.items()}
        traj.cop = {ren.get(k, k): x for k, x in traj.cop.items()}
        traj.moment = {ren.get(k, k): x for k, x in traj.moment.items()}
    if not traj.grf:
        raise MotionError(f"{os.fspath(path) if not hasattr(path, 'grf') else 'trajectory'}: no "
                          "ground reaction columns (expected grfX_<foot> grfY_<foot> grfZ_<foot> "
                          "copX_<foot> ... or OpenSim's <prefix>ground_force_vx ... or "
                          "ground_force_<side>_vx ...): rename the columns"
                          + named.said("external_loads", ", or give the trial's ExternalLoads "
                                       "file ({})"))
    if len(traj.time) < 2:          # nothing to interpolate to the motion's samples
        raise MotionError(f"{os.fspath(path) if not hasattr(path, 'grf') else 'trajectory'}: "
                          f"need at least 2 samples of ground reactions, got {len(traj.time)}")
    missing = sorted(k for k in traj.grf if k not in traj.cop)
    if missing:
        where = os.fspath(path) if not hasattr(path, "grf") else traj.meta.get("source",
                                                                                "trajectory")
        cols = ", ".join(f"copX_{k} copY_{k} copZ_{k}" for k in missing)
        raise MotionError(f"{where}: the ground reaction{'s' if len(missing) > 1 else ''} "
                          f"{', '.join(repr(k) for k in missing)} {'have' if len(missing) > 1 else 'has'} a "
                          f"force but no centre of pressure: missing columns {cols} (or "
                          "OpenSim's <prefix>ground_force_px/py/pz): add them")
    return traj


def _opensim_forces(traj):
    """Move OpenSim external-load columns (stored as coordinates by the table readers) into
    grf / cop / moment."""
    found = {}
    for k, name in enumerate(traj.names):
        m = opensim_force_column(name)
        if m:
            key, kind, ax = m
            found.setdefault(key, {})[(kind, ax)] = k
    if not found:
        return traj
    used = set()
    for key, cols in found.items():
        for kind, dest in (("force_v", traj.grf), ("force_p", traj.cop), ("torque_", traj.moment)):
            idx = [cols.get((kind, ax)) for ax in "xyz"]
            if all(i is None for i in idx):
                continue
            if any(i is None for i in idx):
                have = {ax.upper(): traj.names[i] for ax, i in zip("xyz", idx) if i is not None}
                kind3 = {"force_v": "grf", "force_p": "cop", "torque_": "mom"}[kind]
                raise MotionError(_incomplete_force(traj.meta.get("source", "trajectory"),
                                                    kind3, key, have))
            dest[key] = traj.q[:, idx].copy()
            used.update(idx)
    keep = [k for k in range(len(traj.names)) if k not in used]
    traj.q = traj.q[:, keep]
    traj.names = [traj.names[k] for k in keep]
    return traj


#: how a refusal of grf's own functions advises their links (a trial's: its contacts)
LINKS_NAMED = LIBRARY_COLUMNS._replace(contact="links={{{}}}")


def contact_links(keys, model, links=None, named: ColumnOptions = LINKS_NAMED):
    """{key: link} for the contact keys: links given explicitly, else ``foot_<key>`` or, for
    OpenSim's r/l, ``calcn_r``/``calcn_l`` when the model has such a link. named: the
    caller's options, as the refusal of a key with no link advises them (ColumnOptions)."""
    links = dict(links or {})
    names = set(model.link_names)
    out, unknown = {}, []
    for key in keys:
        if key in links:
            link = links[key]
        else:
            cands = [f"foot_{key}", f"foot_{key.upper()}", f"calcn_{key.lower()}"]
            if key.lower() in ("r", "right"):
                cands += ["foot_R", "calcn_r"]
            elif key.lower() in ("l", "left"):
                cands += ["foot_L", "calcn_l"]
            link = next((c for c in cands if c in names), None)
            if link is None:
                unknown.append(key)
                continue
        if link not in names:
            raise ValueError(f"contact {key!r}: the model has no link {link!r}")
        out[key] = link
    if unknown:
        raise ValueError(_no_side(unknown, model, named))
    return out


def _no_side(keys, model, named):
    """Ground reactions whose names say no side (OpenSim's unprefixed ground_force_* and
    1_ground_force_*, plates numbered 1, 2): ask for each one's link, all at once, naming the
    model's feet to choose from, by the caller's options (named); a caller without them
    (`urdf2dyn animate`) renames the columns, as the feet are found by their names."""
    def said(key):
        return "'' (the unprefixed ground_force_* columns)" if key == "" else repr(key)
    feet = [n for n in model.link_names if n.lower().startswith(("calcn", "foot"))]
    given = named.contacts(keys)
    if given is None:
        advice = ("Rename the columns to name the foot each loads (OpenSim's "
                  "r_ground_force_vx .. for calcn_r, l_ground_force_vx .. for calcn_l, "
                  "grfX_KEY .. for foot_KEY)" + (f"; the model's feet: {', '.join(feet)}"
                                                  if feet else ""))
    else:
        advice = (f"Give the link each loads: {given}"
                  + (f", LINK one of the model's feet {', '.join(feet)}" if feet else ""))
    return (f"no link for the ground reaction{'s' if len(keys) > 1 else ''} "
            f"{' and '.join(said(k) for k in keys)}: their names say no side. {advice}"
            + ("" if named.external_loads is None else "; or give the trial's ExternalLoads "
               f"file, which says it ({named.external_loads})"))


def external_loads(reactions: Trajectory, model: Model, time: ArrayLike | None = None,
                   links: Any = None, sign: float = 1.0, interpolation: str = "linear",
                   filter_hz: float | None = None, filter_named: CutoffNamed = CUTOFF_HZ,
                   columns_named: ColumnOptions = LINKS_NAMED
                   ) -> dict[str, NDArray[np.float64]]:
    """f_ext {link: (N, 6)} for model.inverse_dynamics from ground reactions.

    reactions: a Trajectory with grf/cop(/moment) (read_grf, a C3D's plates assigned to the
    feet, or a motion file carrying those columns). time: the motion's times (None: the
    reactions' own). Wrenches of keys sharing a link add up. Reactions sampled at other times
    than the motion's (e.g. a C3D's plates at the analog rate) are evaluated at the motion's
    times as ``interpolation`` says:

    * "linear" (urdf2dyn's processing): the wrenches at the reactions' own samples, low-pass
      filtered there at ``filter_hz`` when given (urdf2dyn.biomech.processing.lowpass, the
      coordinates' filter: kinematics and kinetics filtered alike, Kristianslund et al. 2012,
      at the loads' own rate, so no sample is lost to aliasing), then linearly interpolated;
      reactions at the motion's own times are filtered there;
    * "spline" (OpenSim's processing): as OpenSim's inverse-dynamics tool evaluates an
      ExternalLoads data file: the force, the centre of pressure (0 where there is none, as
      a data file holds it) and the free moment each a natural cubic spline through its
      samples (``ExternalForce``'s GCVSpline of degree 3), the wrench formed from their
      values at the motion's times; never filtered (filter_hz is refused).

    filter_named: who gave filter_hz, as a refusal of it says (CutoffNamed); columns_named:
    the caller's options, as the refusal of a key with no link advises them (ColumnOptions)."""
    if interpolation not in ("linear", "spline"):
        raise ValueError(f"interpolation: expected 'linear' or 'spline', got {interpolation!r}")
    if filter_hz is not None and interpolation == "spline":
        raise ValueError("filter_hz: OpenSim's processing does not filter the loads")
    keys = sorted(reactions.grf)
    lmap = contact_links(keys, model, links, columns_named)
    tr = np.asarray(reactions.time, dtype=float)
    t = tr if time is None else np.asarray(time, dtype=float)
    same = len(tr) == len(t) and np.allclose(tr, t, rtol=0, atol=1e-9 * max(1.0, abs(t).max()))
    if not same:
        _check_cover(tr, t)
    if interpolation == "spline" and not same:
        reactions = _splined(reactions, keys, t)
    out: dict[str, Any] = {}
    for key in keys:                                      # Trajectory.f_ext: NaN -> zero
        link = lmap[key]
        w = reactions.f_ext(links={key: link}, sign=sign)[link]
        out[link] = out[link] + w if link in out else w
    if interpolation == "spline":
        return out
    return sample_wrenches(tr, out, t, filter_hz, filter_named)


def sample_wrenches(tr: ArrayLike, wrenches: dict[str, NDArray[np.float64]], time: ArrayLike,
                    filter_hz: float | None = None, filter_named: CutoffNamed = CUTOFF_HZ
                    ) -> dict[str, NDArray[np.float64]]:
    """Wrenches {link: (M, 6)} given at the loads' own times tr (M,), at the motion's times
    ``time`` (N,): low-pass filtered at the loads' own rate at ``filter_hz`` when given
    (urdf2dyn.biomech.processing.lowpass, the coordinates' filter), then linearly
    interpolated (np.interp: times beyond the loads' get the end sample). Loads at the
    motion's own times are filtered there; unevenly sampled loads are interpolated first and
    filtered at the motion's times. urdf2dyn's one way from loads to the motion's times:
    ground reactions (external_loads), a C3D's plates and an OpenSim ExternalLoads file
    (urdf2dyn.biomech.stages.loads) all go through it. filter_named: who gave filter_hz, as
    a refusal of it says (CutoffNamed)."""
    tr = np.asarray(tr, dtype=float)
    t = np.asarray(time, dtype=float)
    if len(tr) == len(t) and np.allclose(tr, t, rtol=0, atol=1e-9 * max(1.0, abs(t).max())):
        return (dict(wrenches) if filter_hz is None
                else _lowpass(t, wrenches, filter_hz, filter_named))
    if filter_hz is not None and _uniform(tr):
        wrenches = _lowpass(tr, wrenches, filter_hz, filter_named)
        filter_hz = None
    out = {link: np.column_stack([np.interp(t, tr, x[:, c]) for c in range(6)])
           for link, x in wrenches.items()}
    if filter_hz is None:
        return out
    return _lowpass(t, out, filter_hz, filter_named)            # unevenly sampled


def _lowpass(t, wrenches, cutoff_hz, named):
    from .processing import lowpass
    return {link: lowpass(t, w, cutoff_hz, named=named) for link, w in wrenches.items()}


def _uniform(t):
    """Whether the times t are evenly spaced (to the rounding of a recording's times)."""
    from .processing import sampling_grid
    d = np.diff(sampling_grid(t))
    return len(d) > 0 and float(np.ptp(d)) <= 1e-4 * float(np.mean(d))


def check_times(tr, t, source):
    """Refuse, with MotionError naming source, ground reactions at times tr whose clock is not
    the motion's (times t): a span about 1000 times the motion's (times in ms, not s; or the
    motion's so), or no time in common."""
    tr, t = np.asarray(tr, dtype=float), np.asarray(t, dtype=float)
    if len(tr) < 2 or len(t) < 2:
        return
    span_r, span_t = tr[-1] - tr[0], t[-1] - t[0]
    loads = f"the ground reactions' times ({tr[0]:g} .. {tr[-1]:g} s)"
    motion = f"the motion's ({t[0]:g} .. {t[-1]:g} s)"
    # in ms, one clock divided by 1000 is the other: same start and end, within a tenth of
    # the span (a long recording around a short motion has the span ratio, not the ends)
    for ratio, long, short, which, a, b in (
            (span_r / span_t, loads, motion, "ground reactions'", tr, t),
            (span_t / span_r, motion, loads, "motion's", t, tr)):
        ends = np.abs(np.array([a[0], a[-1]]) / 1000 - [b[0], b[-1]])
        if 300 <= ratio <= 3000 and ends.max() <= 0.1 * (b[-1] - b[0]):
            raise MotionError(f"{source}: {long} span {ratio:.0f} times {short}: the {which} "
                              "time column looks like milliseconds: write it in seconds "
                              "(divide it by 1000)")
    if tr[-1] < t[0] or tr[0] > t[-1]:
        raise MotionError(f"{source}: {loads} do not overlap {motion}: give the ground "
                          "reactions of this motion, recorded on its clock (or shift one time "
                          "column so that both start together)")


def _check_cover(tr, t):
    """Refuse motion times beyond the reactions' own. A motion that outlasts the forces by
    less than one force sample (clocks at different rates rarely stop together) gets the
    nearest force sample there (np.interp holds the ends; urdf2dyn.biomech.plausibility.
    sampling warns); any more is refused."""
    tol = (1 + 1e-6) * (tr[-1] - tr[0]) / max(len(tr) - 1, 1)
    if t.min() < tr[0] - tol or t.max() > tr[-1] + tol:
        raise MotionError(f"the ground reactions cover t = {tr[0]:g} .. {tr[-1]:g} s but the "
                          f"motion spans t = {t.min():g} .. {t.max():g} s: cut the motion to "
                          "the time the forces were recorded")


def _splined(reactions, keys, t):
    """The reactions at times t, each column of force, centre of pressure (0 where there is
    none) and free moment evaluated on its natural cubic spline, as OpenSim's ExternalForce
    reads a data file."""
    from dataclasses import replace

    from .splines import natural_cubic
    grf, cop, moment = {}, {}, {}
    for key in keys:
        f = np.nan_to_num(np.asarray(reactions.grf[key], dtype=float))
        p = np.nan_to_num(np.asarray(reactions.cop[key], dtype=float))
        m = reactions.moment.get(key)
        m = np.zeros_like(f) if m is None else np.nan_to_num(np.asarray(m, dtype=float))
        f, p, m = np.split(natural_cubic(reactions.time, np.hstack([f, p, m]), t), 3, axis=1)
        grf[key], cop[key], moment[key] = f, p, m
    return replace(reactions, time=t, q=np.zeros((len(t), 0)), names=[], v=None, a=None,
                   v_names=None, grf=grf, cop=cop, moment=moment)


# ----------------------------------------------------------------------------- residuals

class Residuals:
    """Root residuals of a trajectory: ``force`` (N, 3) N and ``moment`` (N, 3) N·m (world axes,
    about ``point`` (N, 3)), and the root's raw generalized forces ``generalized`` (N, 6) named
    ``names`` (what OpenSim lists as FX FY FZ MX MY MZ for its pelvis coordinates)."""

    def __init__(self, force, moment, point, generalized, names, about):
        self.force, self.moment, self.point = force, moment, point
        self.generalized, self.names, self.about = generalized, names, about

    @staticmethod
    def _stats(x):
        n = np.linalg.norm(x, axis=-1)
        ok = np.isfinite(n)
        if not ok.any():
            return float("nan"), float("nan")
        return float(np.sqrt(np.mean(n[ok] ** 2))), float(n[ok].max())

    def summary(self):
        """{"force_rms", "force_max", "moment_rms", "moment_max"} of the vector magnitudes."""
        fr, fm = self._stats(self.force)
        mr, mm = self._stats(self.moment)
        return {"force_rms": fr, "force_max": fm, "moment_rms": mr, "moment_max": mm}

    def table(self):
        """(N, 6) [FX FY FZ MX MY MZ] with column names."""
        return (np.concatenate([self.force, self.moment], axis=-1),
                ["FX", "FY", "FZ", "MX", "MY", "MZ"])


_ROOT_CACHE: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def root_chain(model):
    """(joints, root link) of the model's root: the joints from the ground to the first body
    that carries mass (of the tree carrying the most mass, when several hang from the
    ground), when they move it freely in space (6 DoF: a floating joint, an OpenSim
    pelvis CustomJoint, or a chain of 1-DoF joints through massless links such as the human
    model's pBJX..rBJZ) or in a plane (3 DoF: one rotation and two translations across its
    axis, e.g. a 2-D OpenSim model's pelvis). Raises ValueError, naming why, for any other
    model (e.g. a fixed-base arm)."""
    joints, why = _root_joints(model)
    if why:
        raise ValueError(why)
    return joints, joints[-1].child


def root_problem(model, named: ColumnOptions = LIBRARY_COLUMNS) -> str | None:
    """Why the model has no root whose residuals can be computed (see :func:`root_chain`), or
    None when it has one; what to do instead is said in the caller's options as named says
    (ColumnOptions: a floating base where the caller can load one, else a model whose root
    joint moves it freely)."""
    return _root_joints(model, named)[1]


def _trees(model):
    """[(mass, index in model.joints of its first joint)] of each tree hanging from the world
    (a model may have several: opensim-models' SoccerKickingModel's ball on a free joint of
    its own comes first in q order, before the body), heaviest first."""
    s = model._c.structure()                      # flat per body, topological: parent < body
    parent, mass, joint = s["parent"], s["mass"], s["joint"]
    root = np.arange(len(parent))
    for b in range(1, len(parent)):
        if parent[b] > 0:
            root[b] = root[parent[b]]
    index = {j.name: k for k, j in enumerate(model.joints)}
    trees = [(float(mass[root == r].sum()), index[joint[r]])
             for r in range(1, len(parent)) if parent[r] == 0 and joint[r] in index]
    return sorted(trees, key=lambda x: (-x[0], x[1]))


def _free_root(named):
    """How to give a model a root whose residuals can be computed, in named's options: a
    floating base where the caller can load one, else a model whose root joint moves it."""
    return (named.said("floating_base", "load it with a floating base ({})") or
            "give a model whose root joint moves it freely (6 coordinates, as OpenSim's "
            "FreeJoint or a pelvis CustomJoint does)")


def _root_joints(model, named=LIBRARY_COLUMNS):
    """(root joints, None), or (None, why the model has neither a free nor a planar root).
    With several trees from the world, the root is that of the tree carrying the most mass
    (the body the trial is about, not a ball or a tool moving freely beside it)."""
    trees = _trees(model)
    first = trees[0][1] if trees else 0
    chain, dof = [], 0
    for j in model.joints[first:]:               # q order: the tree depth first from the root
        if chain and j.parent != chain[-1].child:
            break
        chain.append(j)
        dof += j.nv
        if dof >= 6:
            break
    if len(trees) == 1 and chain and all(j.type in ("revolute", "continuous") for j in chain):
        # a robot bolted down: the world holds its base, nothing is left to explain
        return None, (f"model {model.name!r} has a fixed base (its first joint "
                      f"{chain[0].name!r} turns about an axis fixed in the world): the "
                      f"world holds it; for residuals, {_free_root(named)}")
    mass = model._c.structure()["mass"]                 # per body, welded links merged
    dofs = np.cumsum([j.nv for j in chain])
    why = []
    for kind, want in (("free", 6), ("planar", 3)):
        joints = chain[:int(np.searchsorted(dofs, want)) + 1]
        heavy = [j.child for j in joints[:-1] if mass[model._link_body[j.child]] > 0]
        if want not in dofs:
            reason = f"its first joints {[j.name for j in chain]} have {dof} DoF"
        elif heavy:
            reason = (f"the intermediate links {heavy} of its first joints "
                      f"{[j.name for j in joints]} have mass")
        elif kind == "planar" and not _moves_in_a_plane(model, joints):
            reason = (f"its first joints {[j.name for j in joints]} have 3 DoF that do not "
                      "move the body in a plane")
        else:
            return joints, None
        if reason not in why:
            why.append(reason)
    others = ""
    if len(trees) > 1:
        others = (f"; of its {len(trees)} trees from the ground the heaviest "
                  f"({model.joints[first].name}, {trees[0][0]:.3g} kg) carries the residuals, "
                  "not " + ", ".join(f"{model.joints[k].name} ({m:.3g} kg)"
                                     for m, k in trees[1:]))
    return None, (f"model {model.name!r} has no 6-DoF root ({'; '.join(why)}{others}): root "
                  "residuals need " + named.said("floating_base", "a floating base ({}), ")
                  + "a 6-DoF root joint or chain of joints through massless links, or a planar "
                  "root (one rotation, two translations across it)")


def _moves_in_a_plane(model, joints):
    """Whether the root joints (3 DoF) turn the body about one axis and translate it across
    that axis: their motion subspace at the model's default pose, [v; w] columns."""
    cols = np.concatenate([np.arange(j.v_index, j.v_index + j.nv) for j in joints])
    q0 = model.default_q if getattr(model, "default_q", None) is not None else model.neutral()
    J = model.jacobian(q0, joints[-1].child)[:, cols]
    lin, ang = J[:3], J[3:]
    if np.linalg.matrix_rank(ang, tol=1e-9) != 1:
        return False
    axis = ang[:, np.argmax(np.linalg.norm(ang, axis=0))]
    axis = axis / np.linalg.norm(axis)
    across = lin - np.outer(axis, axis @ lin)             # the translations across the axis
    return (np.linalg.matrix_rank(np.vstack([across, ang]), tol=1e-9) == 3
            and np.allclose(axis @ lin[:, np.linalg.norm(ang, axis=0) < 1e-12], 0, atol=1e-9))


def _root(model):
    """(root link, the root chain's velocity columns, their names), cached per model."""
    cached = _ROOT_CACHE.get(model)
    if cached is None:
        joints, root = root_chain(model)
        cols = np.concatenate([np.arange(j.v_index, j.v_index + j.nv) for j in joints])
        cached = _ROOT_CACHE[model] = (root, cols, [model.v_names[k] for k in cols])
    return cached


def root_residuals(model: Model, q: ArrayLike, tau: ArrayLike, about: str = "root") -> Residuals:
    """Residual wrench on the root: Residuals(force, moment, point, generalized, names).

    q (N, nq) or (nq,), tau the inverse-dynamics result (N, nv) or (nv,) computed with the
    external loads. force (world axes) and moment (world axes, about ``about``: "root" = the
    root body's origin, "com" = the whole-body centre of mass, or a world point (3,)) such
    that the root's generalized forces are exactly that wrench's virtual work on the root
    coordinates: tau_root = J_root^T [force; moment], J_root the root joints' columns of the
    root body's Jacobian (their motion subspace in world axes, at its origin). A planar root
    (3 DoF) determines the force in its plane and the moment about its axis; the other
    components are zero (the plane carries them)."""
    q = np.asarray(q, dtype=float)
    tau = np.asarray(tau, dtype=float)
    single = q.ndim == 1
    q2, tau2 = np.atleast_2d(q), np.atleast_2d(tau)
    root, cols, names = _root(model)
    J = model.jacobian(q2, root)[:, :, cols]               # (N, 6, k): [v_P; w] = J qdot_root
    pos, _ = model.forward_kinematics(q2)
    P = pos[:, model._link_index[root]]
    g = tau2[:, cols]
    # g = J^T [F; M_P]  ->  [F; M_P] = J^-T g (the least-norm wrench for a planar root, whose
    # components out of its plane are zero)
    JT = np.swapaxes(J, 1, 2)
    if len(cols) == 6:
        w = np.linalg.solve(JT, g[..., None])[..., 0]
    else:
        w = (np.linalg.pinv(JT) @ g[..., None])[..., 0]
    F, M = w[:, :3], w[:, 3:]
    if isinstance(about, str):
        if about == "root":
            point = P
        elif about == "com":
            point = model.center_of_mass(q2)
        else:
            raise ValueError(f"about: expected 'root', 'com' or a point (3,), got {about!r}")
    else:
        point = np.broadcast_to(np.asarray(about, dtype=float), P.shape)
    if point is not P:
        M = M + np.cross(P - point, F)                    # moment about point = M_P + (P - point) x F
    res = Residuals(F, M, np.asarray(point), g, names, about)
    if single:
        res.force, res.moment, res.point, res.generalized = F[0], M[0], res.point[0], g[0]
    return res


# ----------------------------------------------------------------------------- normalization

def body_mass(model, mass=None, strict=False):
    """The body mass (kg) to normalize by: ``mass`` when given, else the model's (the mass of
    every moving link, model.total_mass). A given mass outside half to twice the model's is
    more likely a unit (grams, pounds) than a subject: warned about (refused when strict),
    since every per-kg figure would be off by that factor."""
    own = float(model.total_mass)
    if mass is None:
        return own
    mass = float(mass)
    if not (np.isfinite(mass) and mass > 0):
        raise ValueError(f"mass: expected a positive body mass in kg, got {mass:g}")
    ratio = mass / own if own > 0 else 1.0
    if not 0.5 <= ratio <= 2.0:
        times = f"{ratio:.0f}" if ratio >= 10 else f"{ratio:.2g}"
        report(f"mass: {mass:g} kg is {times} times the model's {own:.1f} kg, so every per-kg "
               "figure would be off by that factor: give the subject's mass in kilograms (a "
               "pound is 0.4536 kg), or scale the model to the subject", strict)
    return mass


def per_kg(tau, model_or_mass):
    """Generalized forces per kilogram of body mass (N·m/kg, N/kg): tau / mass, where the mass
    is a number or a model's body_mass."""
    mass = model_or_mass if np.isscalar(model_or_mass) else body_mass(model_or_mass)
    mass = float(mass)
    if not (np.isfinite(mass) and mass > 0):
        raise ValueError(f"mass: expected a positive body mass in kg, got {mass}")
    return np.asarray(tau, dtype=float) / mass
