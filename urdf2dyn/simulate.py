"""Forward simulation: integrate forward dynamics (ABA) under given joint forces."""
from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

import urdf2dyn._core as _core
from .batch import _as_samples

if TYPE_CHECKING:
    from .model import FExt, Model

#: A controller: joint forces (nv,) from time t and state (q, v).
Controller = Callable[[float, NDArray[np.float64], NDArray[np.float64]], ArrayLike]

_METHODS = {"euler": _core.EULER, "semi-implicit": _core.SEMI_IMPLICIT, "rk4": _core.RK4}


def simulate(model: Model, q0: ArrayLike, v0: ArrayLike, tau: ArrayLike | Controller,
             dt: float, method: str = "rk4", f_ext: FExt | None = None, steps: int | None = None,
             half_steps: bool = False) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """March the state (q, v) of model from (q0, v0) with time step dt.

    Parameters
    ----------
    model : Model
        The robot.
    q0, v0 : array_like, shapes (nq,) and (nv,)
        The initial state.
    tau : array_like or callable
        The joint forces, one of

        * an array (steps, nv): each row held over its step;
        * an array (2 steps + 1, nv) with half_steps=True: sampled every dt/2 from t = 0, so
          RK4 gets the exact forces at its stage times (feed it inverse dynamics of a motion
          sampled at dt/2 and the motion comes back with RK4's fourth-order error);
        * a callable tau(t, q, v) -> (nv,), a controller sampled at the start of each step
          and held over it (give ``steps``).
    dt : float
        Time step, s.
    method : {"euler", "semi-implicit", "rk4"}
        Positions move along model.integrate, so floating-base quaternions stay unit.
    f_ext : dict, optional
        {link: (6,) or (steps, 6)} wrenches as in inverse_dynamics, held over each step.
    steps : int, optional
        Number of steps: needed with a callable tau; with an array, if given, it must agree
        with tau's rows.
    half_steps : bool
        tau is sampled every dt/2 (see tau).

    Returns
    -------
    q : ndarray, shape (steps + 1, nq)
    v : ndarray, shape (steps + 1, nv)
        Row 0 is the initial state. The stepping
    loop runs in C (one step per call for a callable).
    """
    if not isinstance(method, str) or method not in _METHODS:
        raise ValueError(f"simulate: method must be one of {sorted(_METHODS)}, got {method!r}")
    if (isinstance(dt, (bool, np.bool_)) or not isinstance(dt, numbers.Real)
            or not (math.isfinite(dt) and dt > 0)):
        raise ValueError(f"simulate: dt must be a positive number (s), got {dt!r}")
    if steps is not None:
        if (isinstance(steps, (bool, np.bool_)) or not isinstance(steps, numbers.Integral)
                or steps < 1):
            raise ValueError(f"simulate: steps must be an integer >= 1, got {steps!r}")
        steps = int(steps)
    q0 = _as_samples(q0, "q0", model.nq, False, batch=False)
    v0 = _as_samples(v0, "v0", model.nv, False, batch=False)
    if callable(tau):
        return _simulate_controller(model, q0, v0, tau, float(dt), method, f_ext, steps)
    taus = _as_samples(tau, "tau", model.nv, False)
    if taus.ndim != 2:
        rows = "2 steps + 1" if half_steps else "steps"
        raise ValueError(f"simulate: tau must have shape ({rows}, nv) = ({rows}, {model.nv}), "
                         f"got {taus.shape}")
    n = (taus.shape[0] - 1) // 2 if half_steps else taus.shape[0]
    if steps is not None and steps != n:
        how = f"{n} steps with half_steps=True" if half_steps else f"{n} steps"
        raise ValueError(f"simulate: steps: {steps}, but tau has {taus.shape[0]} rows ({how}): "
                         "give tau one row per step (2 steps + 1 with half_steps), or leave "
                         "steps out")
    bodies, wrenches = model._fext(f_ext, np.zeros((n, model.nq)))
    try:
        return model._c.simulate(q0, v0, taus, bool(half_steps), float(dt), _METHODS[method],
                                 bodies, wrenches)
    except ValueError as e:
        raise model._singular_named(e) from None


def _simulate_controller(model, q0, v0, controller, dt, method, f_ext, steps):
    if steps is None:
        raise ValueError("simulate: a callable tau needs steps (a positive integer)")
    q = np.empty((steps + 1, model.nq))
    v = np.empty((steps + 1, model.nv))
    q[0], v[0] = q0, v0
    for k in range(steps):
        tau = np.asarray(_as_samples(controller(k * dt, q[k].copy(), v[k].copy()),
                                     "simulate: tau(t, q, v)", model.nv, False, batch=False),
                         dtype=float)
        step_fext = None
        if f_ext:
            step_fext = {link: (w[k] if np.ndim(w) == 2 else w) for link, w in f_ext.items()}
        qs, vs = simulate(model, q[k], v[k], tau[None], dt, method, step_fext)
        q[k + 1], v[k + 1] = qs[1], vs[1]
    return q, v
