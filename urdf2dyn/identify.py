"""Identification of inertial parameters from a trial: the base parameters.

Inverse dynamics is linear in the ten inertial parameters of each body (Atkeson, An &
Hollerbach 1986): tau = Y(q, v, a) pi (``model.regressor``, ``model.inertial_parameters``).
Not every parameter shows in the joint forces: some never move the robot (a body's inertia
about a fixed axis it cannot turn about), others only in fixed combinations (the mass of a
distal body adds to the first moment of its parent). The identifiable part is the set of
*base parameters* (Gautier 1991): QR with column pivoting of the stacked regressor
W = [Y(x_1); ...; Y(x_N)] chooses r = rank(W) independent columns b (W_b = W[:, b]) and
expresses every other column d through them, W_d = W_b K. Then

    tau = W pi = W_b (pi_b + K pi_d) = W_b beta,   beta = pi_b + K pi_d

and beta is what least squares recovers from measured torques. ``BaseParameters.combinations``
spells each beta_i as "<body>.<param> + k <body>.<param> + ..." so the identifiable
combinations are documented by the computation itself.
"""
from dataclasses import dataclass

import numpy as np

__all__ = ["identify", "base_parameters", "BaseParameters"]


@dataclass(frozen=True)
class BaseParameters:
    """The identifiable combinations of a model's inertial parameters (see module doc).

    Attributes
    ----------
    names : list of str
        The names of all 10 B standard parameters (``model.parameter_names()``).
    independent : ndarray of int, (r,)
        Indices b of the parameters that head each base parameter.
    dependent : ndarray of int
        Indices d of the parameters folded into them.
    K : ndarray, (r, len(dependent))
        beta = pi[independent] + K @ pi[dependent].
    values : ndarray, (r,) or None
        The estimated base parameters (from identify), else None.
    residual : float or None
        RMS of the torque residual of the fit.
    """
    names: list
    independent: np.ndarray
    dependent: np.ndarray
    K: np.ndarray
    values: np.ndarray | None = None
    residual: float | None = None

    def project(self, pi):
        """The base parameters beta of a full parameter vector pi (10 B,)."""
        pi = np.asarray(pi, dtype=float)
        return pi[self.independent] + self.K @ pi[self.dependent]

    @property
    def combinations(self):
        """Each base parameter as text, e.g. 'link2.m + 1 link3.m + 0.25 link3.mcx'."""
        out = []
        for i, b in enumerate(self.independent):
            terms = [self.names[b]]
            for k, d in enumerate(self.dependent):
                c = self.K[i, k]
                if abs(c) > 1e-10:
                    terms.append(f"{c:+.6g} {self.names[d]}")
            out.append(" ".join(terms))
        return out


def _stack(model, q, v, a):
    Y = model.regressor(q, v, a)
    return Y.reshape(-1, Y.shape[-1]) if Y.ndim == 3 else Y


def base_parameters(model, q, v, a, rtol=1e-8):
    """The base parameters of model excited by the samples (q, v, a), each (N, .).

    rtol: a pivot of the column-pivoted QR below rtol times the largest one ends the rank.
    Returns a BaseParameters without values. Needs SciPy (``pip install urdf2dyn[io]``).
    """
    try:
        from scipy.linalg import qr
    except ImportError as e:  # pragma: no cover
        raise ImportError("base_parameters needs SciPy for QR with column pivoting: "
                          "pip install scipy") from e
    W = _stack(model, q, v, a)
    _, R, perm = qr(W, mode="economic", pivoting=True)
    d = np.abs(np.diag(R))
    if d.size == 0 or d[0] == 0.0:
        raise ValueError("base_parameters: the regressor is zero: the samples excite no "
                         "parameter (give moving samples, or gravity)")
    r = int(np.sum(d > rtol * d[0]))
    K = np.linalg.solve(R[:r, :r], R[:r, r:])
    K[np.abs(K) < 1e-12 * max(1.0, np.abs(K).max(initial=0.0))] = 0.0
    return BaseParameters(model.parameter_names(), perm[:r], perm[r:], K)


def identify(model, trajectory, torques, rtol=1e-8):
    """Least-squares base inertial parameters from a trial.

    Parameters
    ----------
    model : urdf2dyn.Model
    trajectory : tuple (q, v, a)
        The trial's samples, (N, nq), (N, nv), (N, nv). They should excite the robot
        (e.g. sums of sinusoids, Swevers et al. 1997): parameters they leave unexcited are
        folded away as if unidentifiable.
    torques : array_like, (N, nv)
        Measured joint forces (urdf2dyn's convention, as inverse_dynamics returns them).
        The model's armature (an MJCF joint's rotor inertia, not a body's parameter) is
        taken as known: ``model.armature * a`` is removed before the fit.
    rtol : float
        Rank tolerance of the pivoted QR (relative to the largest pivot).

    Returns
    -------
    BaseParameters
        With ``values`` the estimate of beta and ``residual`` the RMS torque residual;
        ``result.project(model.inertial_parameters())`` gives the model's own beta to compare.
    """
    q, v, a = (np.asarray(x, dtype=float) for x in trajectory)
    tau = np.asarray(torques, dtype=float)
    if q.ndim != 2 or tau.shape != (q.shape[0], model.nv):
        raise ValueError(f"identify: torques must have shape (N, nv) = ({len(q)}, {model.nv}) "
                         f"with trajectory (q, v, a) of N samples each; got {tau.shape}")
    base = base_parameters(model, q, v, a, rtol)
    tau = tau - model.armature * a          # Y pi = tau - armature a (model.regressor)
    Wb = _stack(model, q, v, a)[:, base.independent]
    beta, *_ = np.linalg.lstsq(Wb, tau.reshape(-1), rcond=None)
    res = float(np.sqrt(np.mean((Wb @ beta - tau.reshape(-1)) ** 2)))
    return BaseParameters(base.names, base.independent, base.dependent, base.K, beta, res)
