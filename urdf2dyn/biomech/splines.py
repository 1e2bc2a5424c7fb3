"""Natural splines through samples, as OpenSim's GCVSpline interpolates (NumPy only).

GCVSPL (Woltring 1986) with a known error variance of 0 ends its smoothing-parameter search at
the smallest value it allows: the interpolating *natural* spline to rounding. Two degrees are
used: the quintic (OpenSim's coordinates: :func:`quintic_derivatives` gives its first and
second derivatives at the knots, :func:`quintic_eval` its values and derivatives anywhere,
:func:`natural_quintic` its values from the samples)
and the cubic (OpenSim's external-load columns: :func:`natural_cubic`). A natural spline of
degree 2m - 1 has zero derivatives of order m .. 2m - 2 at both ends and continues beyond them
as a polynomial of degree m - 1.

urdf2dyn's derivative estimator (urdf2dyn.biomech.processing.estimate_derivatives, method
"opensim"), OpenSim's processing (urdf2dyn.biomech.opensim_processing) and the ExternalLoads
reader (urdf2dyn.biomech.formats.opensim) use them. Checked against SciPy's natural splines in
tests/biomech/test_opensim_id.py.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["quintic_derivatives", "quintic_eval", "natural_quintic", "natural_cubic"]


def _affine_scan(c, M):
    """x[i] = c[i] + M[i] x[i-1] with x[-1] = 0, for c (n, 2, k) and M (n, 2, 2): the maps
    composed pairwise in log2(n) vectorized rounds (Hillis-Steele) instead of n small steps."""
    x, M = c.copy(), M.copy()
    M[0] = 0.0
    step = 1
    while step < len(x):
        x[step:] += M[step:] @ x[:-step]
        M[step:] = M[step:] @ M[:-step]
        step *= 2
    return x


def _scan(c, g):
    """x[i] = c[i] + g[i] x[i-1] with x[-1] = 0, for c (n, k) and scalars g (n,): the maps
    composed pairwise in log2(n) vectorized rounds."""
    x, g = np.array(c, dtype=float), np.array(g, dtype=float)
    g[0] = 0.0
    step = 1
    while step < len(x):
        x[step:] = x[step:] + g[step:, None] * x[:-step]
        g[step:] = g[step:] * g[:-step]
        step *= 2
    return x


def _thomas_blocks(L, D, U, r):
    """Solve the block-tridiagonal system L[i] z[i-1] + D[i] z[i] + U[i] z[i+1] = r[i]
    (2 x 2 blocks; L (n, 2, 2), D, U likewise, r (n, 2, k)); returns z (n, 2, k).

    Block Thomas: the pivots D'[i] = D[i] - L[i] G[i-1], G[i] = D'[i]^-1 U[i] in scalar
    arithmetic (they do not depend on the right-hand sides), then the two sweeps
    g[i] = D'[i]^-1 (r[i] - L[i] g[i-1]) and z[i] = g[i] - G[i] z[i+1] as affine scans over
    all columns at once."""
    n = len(D)
    g00 = g01 = g10 = g11 = 0.0
    Ls, Ds, Us = L.tolist(), D.tolist(), U.tolist()       # Python floats: fast scalars
    pivots, gains = [], []
    for i in range(n):
        (l00, l01), (l10, l11) = Ls[i]
        (d00, d01), (d10, d11) = Ds[i]
        d00 -= l00 * g00 + l01 * g10
        d01 -= l00 * g01 + l01 * g11
        d10 -= l10 * g00 + l11 * g10
        d11 -= l10 * g01 + l11 * g11
        det = d00 * d11 - d01 * d10
        i00, i01, i10, i11 = d11 / det, -d01 / det, -d10 / det, d00 / det
        pivots.append(((i00, i01), (i10, i11)))
        (u00, u01), (u10, u11) = Us[i]
        g00, g01 = i00 * u00 + i01 * u10, i00 * u01 + i01 * u11
        g10, g11 = i10 * u00 + i11 * u10, i10 * u01 + i11 * u11
        gains.append(((g00, g01), (g10, g11)))
    P, G = np.array(pivots), np.array(gains)
    g = _affine_scan(P @ r, -(P @ L))
    return _affine_scan(g[::-1], -G[::-1])[::-1]


# The quintic on one interval in Hermite form: p(u) = sum c_k u^k, u = (x - x0) / h, from the
# values y, first derivatives d and second derivatives e (with respect to x) at both ends:
# c0 = y0, c1 = h d0, c2 = h^2 e0 / 2, and with A = y1 - c0 - c1 - c2, B = h d1 - c1 - 2 c2,
# C = h^2 e1 - 2 c2: c3 = 10 A - 4 B + C / 2, c4 = -15 A + 7 B - C, c5 = 6 A - 3 B + C / 2.
# Each coefficient is linear in (y0, d0, e0, y1, d1, e1); _HERMITE[k] holds those weights for
# h = 1 (the time axis is scaled to unit mean step before solving).
def _hermite_weights():
    c = np.zeros((6, 6))               # rows: c0..c5; columns: y0 d0 e0 y1 d1 e1
    c[0, 0], c[1, 1], c[2, 2] = 1.0, 1.0, 0.5
    A = np.array([-1.0, -1.0, -0.5, 1.0, 0.0, 0.0])
    B = np.array([0.0, -1.0, -1.0, 0.0, 1.0, 0.0])
    C = np.array([0.0, 0.0, -1.0, 0.0, 0.0, 1.0])
    c[3] = 10 * A - 4 * B + C / 2
    c[4] = -15 * A + 7 * B - C
    c[5] = 6 * A - 3 * B + C / 2
    return c


_HERMITE = _hermite_weights()


def quintic_derivatives(t, y):
    """First and second derivatives, at the sample times, of the natural quintic spline
    through (t, y): C4 continuous, zero 3rd and 4th derivatives at both ends (OpenSim's
    GCVSplineSet(5, ...) on its coordinates). t (N,) strictly increasing, N >= 6 (GCVSPL's
    minimum for degree 5); y (N, k). Returns (v (N, k), a (N, k)).

    The unknowns are each knot's first and second derivative; the quintic on each interval
    is their Hermite interpolant, and the conditions are the continuity of the 3rd and 4th
    derivatives at the inner knots plus the natural end conditions: a block-tridiagonal
    system (2 x 2 blocks) solved once for all columns."""
    t = np.asarray(t, dtype=float)
    y = np.asarray(y, dtype=float).reshape(len(t), -1)
    n = len(t)
    if n < 6:
        raise ValueError(f"a quintic spline needs at least 6 samples, got {n}")
    scale = (t[-1] - t[0]) / (n - 1)
    h = np.diff(t) / scale                                  # steps on a unit-mean time axis
    # 3rd and 4th derivatives at an interval's left and right ends, as weights on
    # (y0, d0, e0, y1, d1, e1) with d, e in the interval's own unit (p'(u) = h d, ...)
    C = _HERMITE
    d3l, d3r = 6 * C[3], 6 * C[3] + 24 * C[4] + 60 * C[5]
    d4l, d4r = 24 * C[4], 24 * C[4] + 120 * C[5]
    # convert to unknowns in x units: a column of (y, d, e) at an end scales by (1, h, h^2);
    # the derivative itself by 1/h^3 (3rd) or 1/h^4 (4th)
    sc = np.stack([np.ones_like(h), h, h * h, np.ones_like(h), h, h * h], axis=1)   # (n-1, 6)

    def rows(w, power):
        return w[None, :] * sc / h[:, None] ** power        # (n-1, 6)
    R3l, R3r, R4l, R4r = rows(d3l, 3), rows(d3r, 3), rows(d4l, 4), rows(d4r, 4)
    L = np.zeros((n, 2, 2))
    D = np.zeros((n, 2, 2))
    U = np.zeros((n, 2, 2))
    r = np.zeros((n, 2, y.shape[1]))
    # knot 0: the left ends of interval 0 vanish; knot n-1: the right ends of interval n-2;
    # inner knot i: right end of interval i-1 equals left end of interval i
    for eq, (Rl, Rr) in enumerate(((R3l, R3r), (R4l, R4r))):
        D[0, eq], U[0, eq] = Rl[0, 1:3], Rl[0, 4:6]
        r[0, eq] = -(Rl[0, 0] * y[0] + Rl[0, 3] * y[1])
        D[-1, eq], L[-1, eq] = Rr[-1, 4:6], Rr[-1, 1:3]
        r[-1, eq] = -(Rr[-1, 0] * y[-2] + Rr[-1, 3] * y[-1])
        # inner knots 1..n-2: Rr[i-1] (knots i-1, i) - Rl[i] (knots i, i+1) = 0
        L[1:-1, eq] = Rr[:-1, 1:3]
        D[1:-1, eq] = Rr[:-1, 4:6] - Rl[1:, 1:3]
        U[1:-1, eq] = -Rl[1:, 4:6]
        r[1:-1, eq] = -(Rr[:-1, 0, None] * y[:-2] + (Rr[:-1, 3] - Rl[1:, 0])[:, None] * y[1:-1]
                        - Rl[1:, 3, None] * y[2:])
    z = _thomas_blocks(L, D, U, r)
    return z[:, 0] / scale, z[:, 1] / scale ** 2


def natural_quintic(t, y, at):
    """Values at times at (M,) of the natural quintic spline through (t (N,), y (N, k)),
    as OpenSim's GCVSplineSet(5, ...) evaluates it, beyond t too. Returns (M, k)."""
    t = np.asarray(t, dtype=float)
    y = np.asarray(y, dtype=float).reshape(len(t), -1)
    v, a = quintic_derivatives(t, y)
    return quintic_eval(t, y, v, a, at)


def natural_cubic(t, y, at):
    """Values at times at (M,) of the natural cubic spline through (t (N,), y (N, k)):
    OpenSim's ExternalForce data functions (GCVSpline of degree 3; piecewise linear for 2-3
    samples, constant for 1). Outside t it is the straight line a natural cubic spline
    continues with. Returns (M, k)."""
    t = np.asarray(t, dtype=float)
    y = np.asarray(y, dtype=float).reshape(len(t), -1)
    at = np.asarray(at, dtype=float).reshape(-1)
    n = len(t)
    if n == 1:
        return np.repeat(y, len(at), axis=0)
    if n < 4:
        return np.column_stack([np.interp(at, t, y[:, c]) for c in range(y.shape[1])])
    h = np.diff(t)
    # second derivatives m: natural ends m[0] = m[-1] = 0; inner rows tridiagonal
    sub, diag, sup = h[:-1] / 6, (h[:-1] + h[1:]) / 3, h[1:] / 6
    rhs = np.diff(y, axis=0)[1:] / h[1:, None] - np.diff(y, axis=0)[:-1] / h[:-1, None]
    # Thomas' algorithm: the pivots in scalar arithmetic (they depend on t only), the two
    # sweeps over all columns as scans of x[i] = c[i] + g[i] x[i-1]
    subs, diags, sups = sub.tolist(), diag.tolist(), sup.tolist()
    cp, den = [0.0] * (n - 2), [0.0] * (n - 2)
    prev = 0.0
    for i in range(n - 2):
        den[i] = diags[i] - (subs[i] * prev if i else 0.0)
        prev = cp[i] = sups[i] / den[i]
    den_, cp_ = np.array(den), np.array(cp)
    dp = _scan(rhs / den_[:, None], -sub / den_)
    m = np.zeros_like(y)
    m[1:-1] = _scan(dp[::-1], np.concatenate([[0.0], -cp_[-2::-1]]))[::-1]
    k = np.clip(np.searchsorted(t, at, side="right") - 1, 0, n - 2)
    hk = h[k][:, None]
    u = (at - t[k])[:, None]
    w = (t[k + 1] - at)[:, None]
    out = (m[k] * w ** 3 / (6 * hk) + m[k + 1] * u ** 3 / (6 * hk)
           + (y[k] / hk - m[k] * hk / 6) * w + (y[k + 1] / hk - m[k + 1] * hk / 6) * u)
    # beyond the ends a natural spline of degree 2m - 1 is a polynomial of degree m - 1:
    # a straight line for a cubic (what GCVSPL's splder evaluates there)
    before, after = at < t[0], at > t[-1]
    if before.any():
        slope = (y[1] - y[0]) / h[0] - h[0] * (2 * m[0] + m[1]) / 6
        out[before] = y[0] + (at[before] - t[0])[:, None] * slope
    if after.any():
        slope = (y[-1] - y[-2]) / h[-1] + h[-1] * (m[-2] + 2 * m[-1]) / 6
        out[after] = y[-1] + (at[after] - t[-1])[:, None] * slope
    return out


def quintic_eval(t, y, v, a, at, derivative=0):
    """Values (or first or second derivatives, ``derivative`` 1 or 2) at times at (M,) of
    the quintic spline with values y, first derivatives v and second derivatives a (N, k)
    at the knots t (N,) (from :func:`quintic_derivatives`): each interval's Hermite quintic.
    Beyond the knots, the parabola a natural quintic spline continues with (what GCVSPL's
    splder evaluates there; its 3rd and 4th derivatives vanish at the ends). Returns (M, k)."""
    t = np.asarray(t, dtype=float)
    at = np.asarray(at, dtype=float).reshape(-1)
    if derivative not in (0, 1, 2):
        raise ValueError(f"derivative: expected 0, 1 or 2, got {derivative!r}")
    k = np.clip(np.searchsorted(t, at, side="right") - 1, 0, len(t) - 2)
    h = (t[k + 1] - t[k])[:, None]
    ends = [y[k], h * v[k], h * h * a[k], y[k + 1], h * v[k + 1], h * h * a[k + 1]]
    u = ((at - t[k])[:, None]) / h
    out = np.zeros((len(at), y.shape[1]))
    for power in range(5, derivative - 1, -1):           # Horner on d^n/du^n of sum c u^p
        c = sum(_HERMITE[power, j] * ends[j] for j in range(6))
        out = out * u + c * math.perm(power, derivative)
    out /= h ** derivative
    for beyond, end in ((at < t[0], 0), (at > t[-1], -1)):
        if beyond.any():
            out[beyond] = _parabola(y[end], v[end], a[end], (at[beyond] - t[end])[:, None],
                                    derivative)
    return out


def _parabola(y0, v0, a0, dt, derivative):
    """The value (or derivative) at dt from an end of y0 + v0 dt + a0 dt^2 / 2."""
    if derivative == 2:
        return np.broadcast_to(a0, (len(dt), len(a0))).copy()
    if derivative == 1:
        return v0 + a0 * dt
    return y0 + dt * (v0 + 0.5 * a0 * dt)
