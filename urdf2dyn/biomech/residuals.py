"""Residual reduction: the pass after dynamics that makes a trial dynamically consistent.

Motion capture and force plates never agree exactly with a rigid-body model: the root (a
pelvis) needs residual forces and moments that no joint can produce. This pass changes what
is least certain, within limits, until the equations of motion of the root hold with small
residuals:

* the kinematics, by smooth corrections: for each tracked coordinate j a cubic B-spline
  ``dq_j(t) = sum_k c_jk B_k(t)`` on uniform knots (``knot_interval``, 5 ms by default: the
  impacts of running need it), added to the input (and its derivatives to the velocities
  and accelerations);
* the total mass, every body's mass and inertia scaled by one factor ``1 + s``;
* the centre of mass of one body (OpenSim's ``adjusted_com_body``, usually the torso),
  moved by ``dc`` in the plane of its frame perpendicular to gravity (OpenSim moves it along
  the body's x and z).

A coupler's dependent coordinate (an OpenSim CoordinateCouplerConstraint's, e.g. the
patella's ``knee_angle_r_beta``) is not fitted: it follows its independent coordinate
(:meth:`urdf2dyn.Model.apply_couplers`), which also bears its generalized force
(:meth:`urdf2dyn.Model.project_couplers`), as the constraint does in OpenSim's RRA.

The residuals are the forces of the residual actuators (OpenSim's FX FY FZ MX MY MZ: a
PointActuator or TorqueActuator on the root body, or a CoordinateActuator on a root
coordinate), found at each sample as OpenSim's RRA distributes the generalized forces
``tau = ID(q, v, a, f_ext)`` over all actuators (urdf2dyn.biomech.actuators): the least
``sum (f_k / optimal_force_k)^2`` with ``B(q) f = tau``. The pass
minimizes, by Gauss-Newton least squares::

    mean_t sum_k (f_k / optimal_force_k)^2                     residual actuators
    + sum_j w_j mean_t (dq_j / band_j)^2                       tracking (task weights)
    + sum_j w_j mean_t (ddq_j / (band_j (2 pi 2 Hz)^2))^2      smoothness
    + (s / 5 %)^2 + |dc|^2 / (10 cm)^2                         model changes

with band_j OpenSim's "good" kinematic band (2 degrees, 2 cm) and w_j the task weights
scaled to mean 1: a correction's acceleration costs what its position would cost at 2 Hz,
which keeps the fit away from the large, nearly invisible accelerations a B-spline can
make and that only a model change would reveal. Its Jacobians are analytical: the core's
inverse-dynamics derivatives (:meth:`urdf2dyn.Model.inverse_dynamics_derivatives`) through
the B-spline basis for the kinematics, and the inertial-parameter regressor
(:meth:`urdf2dyn.Model.regressor`, which is linear in the masses and first moments) for the
mass and the centre of mass. A coordinate whose RMS change passes 90 % of its band has its
weight raised until it is back inside. Each step is taken only as far as it lowers the
objective (backtracking). The normal equations are block banded (a knot meets the three on
each side) with the model's changes as a dense border, and are solved as such
(urdf2dyn.biomech.bsplines).

:func:`reduce_residuals` is the pass for any model and trial (t, q, v, a and the external
loads, e.g. a TrialResult's); :mod:`urdf2dyn.biomech.rra` runs it from an OpenSim RRA setup
file and writes what OpenSim's RRA writes.
"""
from __future__ import annotations

import math
import time as _time
from dataclasses import dataclass, field

import numpy as np

from ..warn import report
from .actuators import (actuated_rows, actuator_matrix, default_actuators, distribution,
                        residual_block, root_body, root_dofs)
from .bsplines import Spline, grams, normal_equations

__all__ = ["BANDS", "ResidualError", "ResidualReduction", "ResidualSettings",
           "reduce_residuals"]

#: OpenSim's "good" bands for RRA results (Simulation with OpenSim - Best Practices):
#: residual forces (N) and moments (N m), peak and RMS; kinematic change (rad, m).
BANDS = {"force_peak": 10.0, "force_rms": 5.0, "moment_peak": 50.0, "moment_rms": 30.0,
         "rotation": math.radians(2.0), "translation": 0.02}
_MASS_SCALE = 0.05          # a 5 % mass change costs as much as one residual at its optimal force
_COM_SCALE = 0.10           # a 10 cm shift of the centre of mass (OpenSim limits it there)
_SMOOTH_HZ = 2.0            # a correction's acceleration costs as its position would at 2 Hz
_FIT_SAMPLES = 8            # samples per knot interval the corrections are fitted on, at least


class ResidualError(ValueError):
    """Residual reduction that cannot run as asked (the message says what to change)."""


@dataclass(frozen=True)
class ResidualSettings:
    """How a trial's residuals are reduced (part of its settings,
    urdf2dyn.biomech.stages.TrialSettings.residuals): com_body, the body whose mass centre may
    move (None: none); adjust_mass, scale the total mass (None: when com_body is given);
    tracking, ((coordinate, weight), ...) of the coordinates that may change (None: every
    one, weight 1); knot_interval, s. See :func:`reduce_residuals`."""
    com_body: str | None = None
    adjust_mass: bool | None = None
    tracking: tuple[tuple[str, float], ...] | None = None
    knot_interval: float = 0.005

    def __post_init__(self):
        if not (isinstance(self.knot_interval, (int, float)) and self.knot_interval > 0):
            raise ValueError(f"knot_interval: expected a spacing in s, > 0, got "
                             f"{self.knot_interval!r}")
        if self.tracking is not None:
            object.__setattr__(self, "tracking", tuple(sorted(dict(self.tracking).items())))

    @property
    def mass(self) -> bool:
        """Whether the total mass is scaled."""
        return self.com_body is not None if self.adjust_mass is None else bool(self.adjust_mass)


@dataclass
class ResidualReduction:
    """What :func:`reduce_residuals` found.

    t (N,), q, v, a: the adjusted kinematics at the samples; tau (N, nv) their generalized
    forces with the adjusted model; actuators and forces (N, nact): every actuator's force
    (OpenSim's Actuation_force); residual (list of indices into actuators) and
    residual_before (N, nres): the residual actuators' forces for the input kinematics and
    model; mass_scale: every body's mass and inertia were multiplied by it; com_body and
    com_shift (3,): the centre of mass moved, in the body's frame (m); inertial_parameters
    (10 B,): the adjusted model's (model.bodies' order); recommended_mass_change: OpenSim's
    recommendation from the input (the mean vertical residual over g, kg); change_rms,
    change_peak {coordinate: rad or m}: of the correction at the samples; spline, coef: the
    correction dq(t) (:meth:`correction`); iterations, elapsed_s; notes [str]; rotational:
    the names of the rotational coordinates (their changes in rad, the others' in m)."""
    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    tau: np.ndarray
    actuators: list
    forces: np.ndarray
    residual: list
    residual_before: np.ndarray
    mass_scale: float
    total_mass: float
    com_body: str | None
    com_shift: np.ndarray
    inertial_parameters: np.ndarray
    recommended_mass_change: float
    change_rms: dict
    change_peak: dict
    spline: Spline
    coef: np.ndarray
    adjusted: list
    iterations: int = 0
    elapsed_s: float = 0.0
    notes: list = field(default_factory=list)
    rotational: frozenset = frozenset()

    @property
    def residual_names(self):
        return [self.actuators[k].name for k in self.residual]

    @property
    def residuals(self):
        """(N, nres) the residual actuators' forces after reduction."""
        return self.forces[:, self.residual]

    @property
    def mass_change(self):
        """Total mass change applied, kg."""
        return (self.mass_scale - 1.0) * self.total_mass

    def correction(self, t, derivative=0):
        """The kinematic correction (or its derivative) at times t: (N, nv), zero for the
        coordinates not adjusted. Constant beyond the samples' time range is not assumed:
        outside it the end intervals' cubics continue."""
        t = np.asarray(t, dtype=float).reshape(-1)
        out = np.zeros((len(t), self.q.shape[1]))
        if self.adjusted:
            out[:, self.adjusted] = self.spline.evaluate(self.coef, t, derivative)
        return out

    def stats(self, before=False):
        """{name: (rms, peak)} of each residual actuator's force, after (or before)."""
        f = self.residual_before if before else self.residuals
        return {n: (float(np.sqrt(np.mean(f[:, k] ** 2))), float(np.abs(f[:, k]).max()))
                for k, n in enumerate(self.residual_names)}

    def kinds(self):
        """{residual name: "force" or "moment"}."""
        return {self.actuators[k].name: _kind(self.actuators[k], self.rotational)
                for k in self.residual}


def _kind(act, rotational):
    if act.kind == "point":
        return "force"
    if act.kind == "torque":
        return "moment"
    return "moment" if act.coordinate in rotational else "force"


def _rotational_names(model):
    from .trajectory import angle_columns
    ang = angle_columns(model.v_names, model, velocity=True)
    return frozenset(n for n, a in zip(model.v_names, ang) if a)


# ----------------------------------------------------------------------------- the pass

def _com_basis(model, body, q):
    """(2, 3) body-frame directions perpendicular to gravity at the trial's mean pose (the
    plane the centre of mass moves in)."""
    g = np.asarray(model.gravity, dtype=float)
    if not np.linalg.norm(g) > 0:
        return np.eye(3)[[0, 2]]
    _, R = model.forward_kinematics(q)
    R = R[:, model.link_names.index(body)]
    up = np.einsum("nji,j->ni", R, -g / np.linalg.norm(g)).mean(axis=0)
    up /= np.linalg.norm(up)
    e = np.eye(3)[np.argsort(np.abs(up))[:2]]       # the two axes least along gravity
    e -= np.outer(e @ up, up)
    e[0] /= np.linalg.norm(e[0])
    e[1] -= (e[1] @ e[0]) * e[0]
    e[1] /= np.linalg.norm(e[1])
    return e


def _shift_params(p, dc):
    """A body's 10 inertial parameters [m, mc, I about the origin] with its centre of mass
    moved by dc (3,), its inertia about the centre of mass kept."""
    m, h = p[0], p[1:4]
    c = h / m
    Io = np.array([[p[4], p[5], p[7]], [p[5], p[6], p[8]], [p[7], p[8], p[9]]])
    Ic = Io - m * (c @ c * np.eye(3) - np.outer(c, c))
    c2 = c + dc
    I2 = Ic + m * (c2 @ c2 * np.eye(3) - np.outer(c2, c2))
    return np.array([m, *(m * c2), I2[0, 0], I2[0, 1], I2[1, 1], I2[0, 2], I2[1, 2], I2[2, 2]])


def com_body_refusal(model, body):
    """Why the model's body cannot have its centre of mass moved alone (not one of its
    moving bodies; links welded to it, whose mass centres a fit cannot tell from its own),
    or None when it can. reduce_residuals' com_body and an RRA setup's <adjusted_com_body>
    (urdf2dyn.biomech.rra) are refused in these words."""
    bodies = model.bodies
    if body not in bodies:
        return (f"'{body}' is not a moving body of the model (one of {bodies[:8]}"
                f"{' ...' if len(bodies) > 8 else ''})")
    lb = model.structure().link_body
    owner = lb[model.link_names.index(body)]
    if sum(1 for x in lb if x == owner) > 1:
        return (f"links are welded to '{body}': its own mass centre cannot be told from "
                "theirs; choose a body without welded links")
    return None


def reduce_residuals(model, t, q, v, a, f_ext=None, *, actuators=None, tracking=None,
                     com_body=None, adjust_mass=True, knot_interval=0.005, max_iterations=20,
                     tolerance=5e-3, strict=False):
    """Reduce the root residuals of a trial: kinematics, total mass and a body's centre of
    mass adjusted (see the module docstring for the method).

    Parameters
    ----------
    model : urdf2dyn.Model
        With a free root (root_dofs). Scalar coordinates are adjusted; a quaternion joint
        (a floating base) is kept as given.
    t : (N,) array
        Sample times, s, increasing: where the residuals are made small (e.g. 1 kHz). The
        corrections are fitted on every k-th sample (keeping eight or more per knot interval
        where there are as many) and the result is evaluated at all of them.
    q, v, a : (N, nq), (N, nv), (N, nv) arrays
        The input kinematics at t (rad, m and their rates).
    f_ext : dict {link: (N, 6)} or callable, optional
        External wrenches (world frame, about the origin, as for inverse_dynamics), fixed in
        the world; or a function (t (M,), q (M, nq)) -> such a dict (loads expressed in a
        body).
    actuators : list of urdf2dyn.biomech.formats.rra_setup.Actuator, optional
        The residual and reserve actuators (default_actuators by default).
    tracking : dict {coordinate: weight}, optional
        The coordinates that may change and their weights (an RRA task set's); the others
        are kept. Default: every coordinate not locked, weight 1.
    com_body : str, optional
        The body whose centre of mass moves (None: none does).
    adjust_mass : bool
        Scale the total mass too.
    knot_interval : float
        Spacing of the B-spline knots, s (at least three sample intervals).
    max_iterations : int
        Gauss-Newton iterations at most.
    tolerance : float
        Stop when an iteration lowers the objective by less than this fraction.
    strict : bool
        Warnings become ResidualError.

    Returns
    -------
    ResidualReduction
    """
    start = _time.perf_counter()
    t = np.asarray(t, dtype=float).reshape(-1)
    q0 = np.array(q, dtype=float, ndmin=2)
    v0 = np.array(v, dtype=float, ndmin=2)
    a0 = np.array(a, dtype=float, ndmin=2)
    n = len(t)
    if n < 4 or q0.shape != (n, model.nq) or v0.shape != (n, model.nv) or a0.shape != v0.shape:
        raise ResidualError(f"t, q, v, a: expected (N,), (N, {model.nq}), (N, {model.nv}), "
                            f"(N, {model.nv}) with N >= 4 samples, got {t.shape}, {q0.shape}, "
                            f"{v0.shape}, {a0.shape}")
    if not np.all(np.diff(t) > 0):
        raise ResidualError("t: the sample times must increase")
    for name, x in (("q", q0), ("v", v0), ("a", a0)):
        if not np.all(np.isfinite(x)):
            raise ResidualError(f"{name}: not finite at {int((~np.isfinite(x)).any(1).sum())} "
                                "samples; fill or cut them first")
    notes = []

    def warn(msg):
        notes.append(msg)
        report(msg, strict=strict, error=ResidualError, stacklevel=None)   # the caller's line

    # a coupler's dependent coordinate follows its independent one, which bears its force
    # (OpenSim's RRA holds the constraint): it is neither fitted nor actuated
    couplers = [(model.v_names.index(c.dependent), model.v_names.index(c.independent))
                for c in getattr(model, "couplers", ())]
    dependent = {d for d, _ in couplers}

    def project(q, tau):
        return model.project_couplers(q, tau) if couplers else tau

    # the actuators: which are residuals, and the block of coordinates they share
    actuators = default_actuators(model) if actuators is None else list(actuators)
    root = sorted(root_dofs(model))
    opt = np.array([x.optimal_force for x in actuators], dtype=float)
    B0 = actuator_matrix(model, actuators, q0)
    res = [k for k in range(len(actuators)) if np.any(B0[:, root, k] != 0)]
    if not res:
        raise ResidualError(f"no actuator acts on the root {root_body(model)!r} (residual "
                            "actuators: a PointActuator or TorqueActuator on the root body, or a "
                            "CoordinateActuator on a root coordinate): nothing to reduce")
    rows = actuated_rows(model, B0)
    block_rows, block = residual_block(B0, res, rows)
    res_in_block = [block.index(k) for k in res]
    block_acts = [actuators[k] for k in block]
    locked = set(getattr(model, "locked_coordinates", {}))
    held_root = [model.v_names[j] for j in root if model.v_names[j] in locked]
    if held_root:
        warn(f"the root's coordinates {held_root} are locked: the residuals along them are the "
             "locks' forces, not the residual actuators' (those report 0 there); unlock them "
             "in the model (<locked>false</locked>) to reduce and report them")
    bare = [model.v_names[j] for j in range(model.nv) if j not in rows and
            model.v_names[j] not in locked and j not in dependent]
    if bare:
        warn(f"coordinates {bare[:8]}{' ...' if len(bare) > 8 else ''} have no actuator: their "
             "generalized forces are left out of the actuator forces (add CoordinateActuators "
             "to report them)")

    # which coordinates move, and how much each is held
    scalar = {k for j in model.joints if j.nq == j.nv for k in range(j.v_index, j.v_index + j.nv)
              if k not in dependent}
    if tracking is None:
        tracking = {nm: 1.0 for nm in model.v_names if nm not in locked}
    unknown = [c for c in tracking if c not in model.v_names]
    if unknown:
        warn(f"tracked coordinates {unknown[:8]} are not the model's: ignored")
    adj = [j for j, nm in enumerate(model.v_names)
           if tracking.get(nm, 0) > 0 and nm not in locked and j in scalar]
    held = [model.v_names[j] for j in range(model.nv) if j not in scalar and
            j not in dependent and model.v_names[j] in tracking]
    if held:
        warn(f"coordinates {held[:6]} belong to a joint with a quaternion: kept as given")
    rot = _rotational_names(model)
    band = np.array([BANDS["rotation"] if model.v_names[j] in rot else BANDS["translation"]
                     for j in adj])
    w = np.array([tracking[model.v_names[j]] for j in adj], dtype=float)
    w = w / w.mean() if len(w) else w
    na = len(adj)

    # the model's changes: total mass scale s, centre-of-mass shift along two axes
    pi0 = model.inertial_parameters()
    bodies = model.bodies
    axes = cols = None
    if com_body is not None:
        unmovable = com_body_refusal(model, com_body)
        if unmovable is not None:
            raise ResidualError(f"com_body: {unmovable}")
        ib = bodies.index(com_body)
        cols = slice(10 * ib, 10 * ib + 10)
        axes = _com_basis(model, com_body, q0)
    nglob = int(adjust_mass) + (2 if com_body is not None else 0)

    def params(x):
        """(pi, dpi/dx (10B, nglob)) of the adjusted model."""
        s = x[na * K] if adjust_mass else 0.0
        pi = pi0 * (1.0 + s)
        dpi = np.zeros((len(pi0), nglob))
        if adjust_mass:
            dpi[:, 0] = pi0
        if com_body is not None:
            pi[cols] = _shift_params(pi[cols], x[-2:] @ axes)
            eps = 1e-6                            # the inertia is quadratic in the shift
            for k in range(2):
                dpi[cols, nglob - 2 + k] = (_shift_params(pi[cols], eps * axes[k])
                                            - _shift_params(pi[cols], -eps * axes[k])) / (2 * eps)
        return pi, dpi

    # the corrections' B-splines, fitted on every stride-th sample
    spline = Spline(t[0], t[-1], max(1, min(int(round((t[-1] - t[0]) / knot_interval)),
                                            (n - 1) // 3)))
    K = spline.size
    npar = na * K + nglob
    stride = max(1, int(n / spline.intervals / _FIT_SAMPLES))
    fit = np.unique(np.r_[np.arange(0, n, stride), n - 1])
    def loads(rows, q):
        if callable(f_ext):
            return f_ext(t[rows], q)
        return None if f_ext is None else {k: np.asarray(x)[rows] for k, x in f_ext.items()}

    def evaluate(x, rows, derivatives_next=True):
        """The residual actuators' forces f (M, nres) at x on the samples rows, and what
        derivatives() needs (the regressor, unless derivatives_next is False)."""
        iv, b, d, dd = spline.local(t[rows])
        C = x[:na * K].reshape(K, na)
        q, v_, a_ = q0[rows], v0[rows], a0[rows]
        if na:
            idx = iv[:, None] + np.arange(4)
            for out, basis in ((q, b), (v_, d), (a_, dd)):
                out[:, adj] += np.einsum("ns,nsj->nj", basis, C[idx])
        if couplers:
            q, v_, a_ = model.apply_couplers(q, v_, a_)
        fx = loads(rows, q)
        tau = model.inverse_dynamics(q, v_, a_, f_ext=fx)
        pi, dpi = params(x)
        Y = None
        if nglob and (derivatives_next or np.any(pi != pi0)):
            Y = model.regressor(q, v_, a_)       # the model's changes: linear in pi
            tau = tau + Y @ (pi - pi0)
        B = actuator_matrix(model, block_acts, q)
        P = distribution(B[:, block_rows, :], opt[block], slice(None))[:, res_in_block, :]
        f = (P @ project(q, tau)[:, block_rows, None])[..., 0]
        return {"x": x, "f": f, "q": q, "v": v_, "a": a_, "tau": tau, "pi": pi, "dpi": dpi,
                "Y": Y, "P": P, "f_ext": fx, "basis": (iv, b, d, dd)}

    def derivatives(ev):
        """ev with the Jacobians of f: J = [df/dq, df/dv, df/da] (M, nres, na) of the
        adjusted coordinates (the model's own inverse-dynamics derivatives) and Jg
        (M, nres, nglob) of the mass scale and centre-of-mass shift."""
        dq, dv, M = model.inverse_dynamics_derivatives(ev["q"], ev["v"], ev["a"],
                                                        f_ext=ev["f_ext"])
        P, r = ev["P"], block_rows
        if couplers:      # a dependent coordinate moves with its independent one: q_d, v_d
            # and a_d change by f' times its change (the curvature terms f'' v_i are left
            # out of the direction; each step is still checked downhill)
            slope = model.apply_couplers(ev["q"], np.ones(model.nv))[1]
            for D in (dq, dv, M):
                for d, i in couplers:
                    D[:, :, i] += D[:, :, d] * slope[:, d, None]
                    D[:, i, :] += D[:, d, :] * slope[:, d, None]      # its force, projected
                    D[:, d, :] = 0.0
        ev["J"] = [P @ dq[:, r][:, :, adj], P @ dv[:, r][:, :, adj], P @ M[:, r][:, :, adj]]
        ev["Jg"] = P @ (ev["Y"][:, r] @ ev["dpi"]) if nglob else None
        return ev

    # the objective: residuals / optimal force, tracking, smoothness, model changes
    rw = 1.0 / opt[res]
    iv, b, _, dd = spline.local(t[fit])
    gram, rough = grams(iv, b, dd, K)
    hold = w / band ** 2
    omega4 = (2 * math.pi * _SMOOTH_HZ) ** 4
    lam = np.ones(na)
    prior = np.array([1 / _MASS_SCALE ** 2] * int(adjust_mass)
                     + [1 / _COM_SCALE ** 2] * (2 if com_body is not None else 0))

    def penalize(A=None, x=None):
        """The penalties: added to the normal matrix A (in place) and, for x, their value
        and gradient. Coefficient (knot k, coordinate j) is held by
        hold_j (lam_j gram_kl + rough_kl / omega^4) (knot-major, so a diagonal per knot
        pair); the model's changes by their priors."""
        d_gram, d_rough = hold * lam, hold / omega4
        if A is not None:
            j = np.arange(na)
            for o in range(4):
                k = np.arange(K - o)
                A.band[k[:, None], o, j, j] += (gram[k, k + o][:, None] * d_gram
                                                + rough[k, k + o][:, None] * d_rough)
            A.dense += np.diag(prior)
        if x is None:
            return None
        C = x[:na * K].reshape(K, na)
        grad_c = gram @ C * d_gram + rough @ C * d_rough
        grad = np.concatenate([grad_c.reshape(-1), prior * x[na * K:]])
        return float(x @ grad), grad

    def objective(ev):
        return float(np.mean(np.sum((ev["f"] * rw) ** 2, axis=1)) + penalize(x=ev["x"])[0])

    x = np.zeros(npar)
    ev = evaluate(x, fit)
    F = objective(ev)
    iterations = 0
    for iterations in range(1, max_iterations + 1):
        A, g = normal_equations(derivatives(ev), rw, na, K, nglob)
        penalize(A)
        step = -A.solve(g + penalize(x=x)[1])
        alpha = 1.0
        while True:                               # backtracking: only downhill
            trial = evaluate(x + alpha * step, fit)
            Ft = objective(trial)
            if Ft <= F or alpha < 1e-3:
                break
            alpha *= 0.5
        if Ft > F:                                # no descent along the step: converged
            break
        x, ev = trial["x"], trial
        decrease = (F - Ft) / max(F, 1e-300)
        F = Ft
        # a coordinate out of its band is held harder (and the objective re-measured)
        change = _changes(x, na, K, iv, b)
        over = change / band > 0.9
        if np.any(over):
            lam[over] *= (change[over] / (0.8 * band[over])) ** 2
            F = objective(ev)
            decrease = 1.0
        if decrease < tolerance:
            break

    # the result, at every sample
    every = np.arange(n)
    ev = evaluate(x, every, False)
    before = evaluate(np.zeros(npar), every, False)["f"]
    iv, b, _, _ = spline.local(t)
    change = _changes(x, na, K, iv, b, peak=True)
    f_all = np.einsum("nkj,nj->nk",
                      distribution(actuator_matrix(model, actuators, ev["q"]), opt, rows),
                      project(ev["q"], ev["tau"]))
    s = x[na * K] if adjust_mass else 0.0
    dc = x[-2:] @ axes if com_body is not None else np.zeros(3)
    g = np.asarray(model.gravity, dtype=float)
    recommended = 0.0
    names = [actuators[k].name for k in res]
    if np.linalg.norm(g) > 0:                 # OpenSim: dmass = mean FY / g_y
        vertical = int(np.argmax(np.abs(g)))
        fy = f"F{'XYZ'[vertical]}"
        if fy in names:
            recommended = float(np.mean(before[:, names.index(fy)]) / g[vertical])
    out = ResidualReduction(
        t=t, q=ev["q"], v=ev["v"], a=ev["a"], tau=ev["tau"], actuators=actuators, forces=f_all,
        residual=res, residual_before=before, mass_scale=1.0 + s,
        total_mass=float(pi0[0::10].sum()), com_body=com_body, com_shift=dc,
        inertial_parameters=ev["pi"], recommended_mass_change=recommended,
        change_rms={model.v_names[j]: float(change[0][jj]) for jj, j in enumerate(adj)},
        change_peak={model.v_names[j]: float(change[1][jj]) for jj, j in enumerate(adj)},
        spline=spline, coef=x[:na * K].reshape(K, na).T.copy(), adjusted=adj,
        iterations=iterations, elapsed_s=_time.perf_counter() - start, notes=notes)
    out.rotational = rot
    return out


def _changes(x, na, K, iv, b, peak=False):
    """RMS (and peak) over the samples of each adjusted coordinate's correction."""
    C = x[:na * K].reshape(K, na)
    dq = np.einsum("ns,nsj->nj", b, C[iv[:, None] + np.arange(4)])
    rms = np.sqrt(np.mean(dq ** 2, axis=0))
    return (rms, np.abs(dq).max(axis=0)) if peak else rms
