"""Cubic B-splines on uniform knots, and the normal equations of a least-squares fit of
their coefficients, stored and solved as they are shaped (residual reduction's kinematic
corrections: urdf2dyn.biomech.residuals).

A sample touches four basis functions, so the normal matrix of coefficients ordered knot by
knot ("knot-major": knot k, coordinate j at k na + j) is block banded, a knot meeting the three
on each side; a few global parameters add a dense border. :class:`Normal` stores that shape,
:func:`normal_equations` assembles it interval by interval from the residuals' Jacobians, and
:meth:`Normal.solve` solves it by block-tridiagonal elimination over three-knot blocks and the
border's Schur complement: time linear in the number of knots.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Spline", "Normal", "normal_equations", "grams"]


@dataclass
class Spline:
    """Uniform cubic B-splines on [t0, t1] with ``intervals`` knot intervals: K = intervals
    + 3 basis functions, four of them nonzero at any time."""
    t0: float
    t1: float
    intervals: int

    @property
    def size(self):
        return self.intervals + 3

    def locate(self, t):
        """(interval index (N,), u in [0, 1] (N,)) of each time."""
        h = (self.t1 - self.t0) / self.intervals
        x = (np.asarray(t, dtype=float) - self.t0) / h
        i = np.clip(np.floor(x).astype(int), 0, self.intervals - 1)
        return i, x - i

    def local(self, t):
        """(interval (N,), values, first and second derivatives (N, 4) of the four basis
        functions i .. i+3 that are nonzero at each time)."""
        h = (self.t1 - self.t0) / self.intervals
        i, u = self.locate(t)
        w = 1.0 - u
        b = np.stack([w ** 3, 3 * u ** 3 - 6 * u ** 2 + 4, -3 * u ** 3 + 3 * u ** 2 + 3 * u + 1,
                      u ** 3], axis=1) / 6
        d = np.stack([-w ** 2, 3 * u ** 2 - 4 * u, -3 * u ** 2 + 2 * u + 1, u ** 2],
                     axis=1) / (2 * h)
        dd = np.stack([w, 3 * u - 2, 1 - 3 * u, u], axis=1) / h ** 2
        return i, b, d, dd

    def evaluate(self, coef, t, derivative=0):
        """sum_k coef[:, k] B_k^(derivative)(t): (N, m) for coef (m, K)."""
        i, *basis = self.local(t)
        idx = i[:, None] + np.arange(4)
        return np.einsum("ns,mns->nm", basis[derivative], coef[:, idx])


def grams(iv, b, dd, K):
    """mean_t B_k B_l and mean_t B_k'' B_l'' (K, K) over the samples."""
    pairs = (iv[:, None, None] + np.arange(4)[None, :, None],
             iv[:, None, None] + np.arange(4)[None, None, :])
    gram, rough = np.zeros((K, K)), np.zeros((K, K))
    np.add.at(gram, pairs, b[:, :, None] * b[:, None, :])
    np.add.at(rough, pairs, dd[:, :, None] * dd[:, None, :])
    return gram / len(iv), rough / len(iv)


class Normal:
    """The normal equations' matrix of the fit, stored as it is shaped: the coefficients'
    block band (knot k meets knots k .. k+3: ``band[k, o]`` (na, na) couples knot k with
    knot k + o, knot-major), the coefficients' coupling with the model's changes
    ``cross`` (K, na, ng) and the changes' own block ``dense`` (ng, ng): the global
    parameters, such as residual reduction's mass scale and mass-centre shift."""

    def __init__(self, K, na, ng):
        self.band = np.zeros((K, 4, na, na))
        self.cross = np.zeros((K, na, ng))
        self.dense = np.zeros((ng, ng))

    def add_intervals(self, M):
        """Add M (K - 3, 4 na, 4 na): interval i's block on knots i .. i+3."""
        m, na = M.shape[0], self.band.shape[2]
        M4 = M.reshape(m, 4, na, 4, na)
        for o in range(4):
            for s in range(4 - o):
                self.band[s:s + m, o] += M4[:, s, :, s + o, :]

    def solve(self, g):
        """x with A x = g. Three knots make a block that meets only its neighbours (a knot
        meets the three on each side), so the coefficients' part is block tridiagonal:
        block Gaussian elimination; then the model's changes by their Schur complement."""
        K, _, na, _ = self.band.shape
        ng = self.dense.shape[0]
        nb = -(-K // 3)
        band = np.zeros((3 * nb, 4, na, na))
        band[:K] = self.band
        band[K:, 0] = np.eye(na)                        # padding knots: decoupled
        size = 3 * na
        D = np.zeros((nb, 3, na, 3, na))
        U = np.zeros((nb, 3, na, 3, na))
        for s in range(3):
            for s2 in range(3):
                if s2 >= s:
                    D[:, s, :, s2, :] = band[s::3, s2 - s]
                else:
                    D[:, s, :, s2, :] = np.swapaxes(band[s2::3, s - s2], 1, 2)
                if s2 <= s:                                # knot 3I+s with knot 3I+3+s2
                    U[:, s, :, s2, :] = band[s::3, 3 - s + s2]
        D, U = D.reshape(nb, size, size), U.reshape(nb, size, size)
        nk = K * na
        rhs = np.zeros((3 * nb * na, 1 + ng))
        rhs[:nk, 0] = g[:nk]
        rhs[:nk, 1:] = self.cross.reshape(nk, ng)
        rhs = rhs.reshape(nb, size, 1 + ng)
        gain = np.zeros((nb, size, size))                 # S_i^-1 U_i
        z = np.zeros_like(rhs)
        for i in range(nb):                        # S_i = D_i - U_(i-1)^T S_(i-1)^-1 U_(i-1)
            S, y = D[i], rhs[i]
            if i:
                S = S - U[i - 1].T @ gain[i - 1]
                y = y - U[i - 1].T @ z[i - 1]
            sol = np.linalg.solve(S, np.concatenate([U[i], y], axis=1))
            gain[i], z[i] = sol[:, :size], sol[:, size:]
        X = np.zeros_like(rhs)
        X[-1] = z[-1]
        for i in range(nb - 2, -1, -1):
            X[i] = z[i] - gain[i] @ X[i + 1]
        X = X.reshape(-1, 1 + ng)[:nk]
        if ng == 0:
            return X[:, 0]
        cross = self.cross.reshape(nk, ng)
        xg = np.linalg.solve(self.dense - cross.T @ X[:, 1:], g[nk:] - cross.T @ X[:, 0])
        return np.concatenate([X[:, 0] - X[:, 1:] @ xg, xg])


def normal_equations(ev, rw, na, K, nglob):
    """J^T J (a Normal) and J^T r of the weighted residuals (mean over the samples),
    knot-major: coefficient (knot k, coordinate j) at k na + j. A sample touches four knots,
    so its rows are gathered interval by interval."""
    iv, b, d, dd = ev["basis"]
    n = len(iv)
    Jq, Jv, Ja = ev["J"]                                      # (M, nres, na) each
    r = ev["f"] * rw / math.sqrt(n)
    L = (b[:, None, :, None] * Jq[:, :, None, :] + d[:, None, :, None] * Jv[:, :, None, :]
         + dd[:, None, :, None] * Ja[:, :, None, :])          # (M, nres, 4, na)
    L *= rw[None, :, None, None] / math.sqrt(n)
    nres = L.shape[1]
    L = L.reshape(n, nres, 4 * na)
    Gl = ev["Jg"] * rw[None, :, None] / math.sqrt(n) if nglob else None
    A = Normal(K, na, nglob)
    g = np.zeros(na * K + nglob)
    cross = A.cross.reshape(K * na, nglob)
    # samples grouped by interval, padded with zero rows to the largest group
    counts = np.bincount(iv, minlength=K - 3)
    m = counts.max()
    slot = np.arange(n) - np.searchsorted(iv, iv)          # rank of a sample in its interval
    G = np.zeros((K - 3, m, nres, 4 * na))
    G[iv, slot] = L
    Rg = np.zeros((K - 3, m, nres))
    Rg[iv, slot] = r
    G = G.reshape(K - 3, m * nres, 4 * na)
    Gt = np.ascontiguousarray(G.transpose(0, 2, 1))      # matmul of a transposed view is slow
    A.add_intervals(Gt @ G)
    local = (Gt @ Rg.reshape(K - 3, m * nres, 1))[..., 0]
    for s in range(4):                                     # knot i+s of interval i
        g[s * na:(s + K - 3) * na] += local[:, s * na:(s + 1) * na].reshape(-1)
    if nglob:
        Gg = np.zeros((K - 3, m, nres, nglob))
        Gg[iv, slot] = Gl
        Gg = Gg.reshape(K - 3, m * nres, nglob)
        local = Gt @ Gg                                    # (K-3, 4 na, ng)
        for s in range(4):
            cross[s * na:(s + K - 3) * na] += local[:, s * na:(s + 1) * na].reshape(-1, nglob)
    if nglob:
        G2 = Gl.reshape(-1, nglob)
        A.dense += G2.T @ G2
        g[na * K:] += G2.T @ r.reshape(-1)
    return A, g
