"""Missing samples in recordings: find them, fill the short ones, refuse the long ones.

A recording marks a missing sample with NaN (an empty cell in a CSV file: pandas'
``df.to_csv()`` writes NaN so). Filtering and differentiation would spread one NaN to its
neighbours (finite differences: two samples either side; a zero-lag Butterworth filter: the
whole trial), so gaps are dealt with first:

* a gap of at most ``max_gap`` consecutive samples (default :data:`DEFAULT_MAX_GAP` = 5) inside
  the trial is filled by cubic interpolation: the cubic polynomial through the two valid samples
  on each side of the gap (exact for cubic signals, error O(h^4) on smooth ones; linear when a
  side has a single valid sample before another gap). Each filled gap is reported (column, data
  rows, times) so a warning can name it;
* a longer gap, or one touching the first or last sample (nothing to interpolate from on one
  side), stops the trial with a :class:`urdf2dyn.io.MotionError` naming it: cut the trial, or
  fill it with a method that knows the movement (e.g. a marker-based gap filler) first.

Why 5 samples: at the usual motion-capture rates (100-200 Hz) that is 25-50 ms, a small fraction
of a gait event (a running stance lasts ~200 ms); over so short a span a cubic follows joint
angles to well below measurement noise, whereas longer gaps can hide a real event (a heel
strike) that no interpolation recovers. Pass ``max_gap=0`` to refuse any gap.

Ground reactions are different: outside contact a force plate reports no centre of pressure
(NaN), and that is "no load", not a gap (:func:`fill_load_gaps`).
"""
from dataclasses import dataclass

import numpy as np

from .io import MotionError

__all__ = ["DEFAULT_MAX_GAP", "Gap", "find_gaps", "fill_gaps", "fill_load_gaps"]

#: Longest run of missing samples that is filled (see the module docstring for why).
DEFAULT_MAX_GAP = 5


@dataclass
class Gap:
    """A run of missing samples: ``column`` name, data rows ``start`` .. ``stop - 1`` (0-based),
    times ``t0`` .. ``t1`` (s)."""
    column: str
    start: int
    stop: int
    t0: float
    t1: float

    def __len__(self):
        return self.stop - self.start

    def __str__(self):
        if len(self) == 1:
            return f"{self.column} row {self.start + 1} (t = {self.t0:g} s)"
        return f"{self.column} rows {self.start + 1}-{self.stop} (t = {self.t0:g} .. {self.t1:g} s)"


def _runs(mask):
    """[(start, stop)] of the runs of True in a boolean vector."""
    m = np.concatenate([[False], np.asarray(mask, dtype=bool), [False]])
    d = np.diff(m.astype(np.int8))
    return list(zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)))


def find_gaps(t, x, names):
    """Every run of non-finite samples in x (N, k), as a list of :class:`Gap` (column order)."""
    t = np.asarray(t, dtype=float)
    x = np.asarray(x, dtype=float).reshape(len(t), -1)
    return [Gap(str(names[c]), int(a), int(b), float(t[a]), float(t[b - 1]))
            for c in range(x.shape[1]) for a, b in _runs(~np.isfinite(x[:, c]))]


def _interpolate(t, y, a, b):
    """Values of column y at rows a..b-1 from the (up to) two valid samples on each side."""
    left = [k for k in (a - 2, a - 1) if k >= 0 and np.isfinite(y[k])]
    right = [k for k in (b, b + 1) if k < len(y) and np.isfinite(y[k])]
    if len(left) < 2 or len(right) < 2:            # a neighbouring gap: linear, 1 + 1 samples
        left, right = left[-1:], right[:1]
    knots = np.array(left + right)
    tk, yk = t[knots], y[knots]
    tt = t[a:b]
    out = np.zeros(len(tt))
    for i in range(len(knots)):                    # Lagrange form (2 or 4 knots)
        basis = np.ones(len(tt))
        for j in range(len(knots)):
            if j != i:
                basis *= (tt - tk[j]) / (tk[i] - tk[j])
        out += yk[i] * basis
    return out


def fill_gaps(t, x, names, max_gap=DEFAULT_MAX_GAP, source="data"):
    """Fill the short gaps of x (N, k): returns (filled copy, [Gap, ...] that were filled).

    Raises MotionError naming every gap longer than max_gap samples and every gap touching the
    first or last sample (source names the file in the message)."""
    t = np.asarray(t, dtype=float)
    x = np.array(x, dtype=float).reshape(len(t), -1)
    gaps = find_gaps(t, x, names)
    if not gaps:
        return x, []
    max_gap = int(max_gap)
    long = [g for g in gaps if len(g) > max_gap]
    edge = [g for g in gaps if len(g) <= max_gap and (g.start == 0 or g.stop == len(t))]
    problems = []
    if long:
        problems.append(f"gaps longer than max_gap = {max_gap} samples: "
                        + "; ".join(str(g) for g in long))
    if edge:
        problems.append("gaps at the start or end of the trial (nothing to interpolate from "
                        "on one side): " + "; ".join(str(g) for g in edge))
    if problems:
        raise MotionError(f"{source}: missing samples (NaN or empty cells): "
                          + "; ".join(problems) + ". Cut the trial to the part that was "
                          "recorded, fill the gaps with a tool that knows the movement, or raise "
                          "max_gap (--max-gap) if a cubic across them is good enough")
    names = [str(n) for n in names]
    for g in gaps:
        c = names.index(g.column)
        x[g.start:g.stop, c] = _interpolate(t, x[:, c], g.start, g.stop)
    return x, gaps


def fill_load_gaps(t, force, cop, moment=None, key="", max_gap=DEFAULT_MAX_GAP,
                   threshold=20.0, source="ground reactions"):
    """Missing samples of one contact's ground reaction: force, cop (N, 3), moment (N, 3) or
    None. Returns (force, cop, moment, filled gaps, notes).

    * A force sample that is missing where the valid samples around it carry no more than
      ``threshold`` newtons (e.g. urdf2dyn.gait.CONTACT_THRESHOLD) is no contact: zero force,
      no centre of pressure.
    * A missing centre of pressure (NaN, or exactly 0 0 0 as plate software writes it outside
      contact) where the force is at most threshold is no load (force plates report none
      there): the force is zeroed, as a plate would.
    * Missing force or centre-of-pressure samples inside a contact are gaps: filled like
      :func:`fill_gaps` (at most max_gap samples) or refused. Where a contact starts or ends
      without a centre of pressure (a plate with a higher threshold than ours) the force is
      dropped and a note (for a warning) says how large it was.
    """
    t = np.asarray(t, dtype=float)
    F = np.array(force, dtype=float)
    P = np.array(cop, dtype=float)
    M = None if moment is None else np.where(np.isfinite(moment), moment, 0.0)
    label = f"{key}_" if key else ""
    filled, notes = [], []
    mag = np.linalg.norm(F, axis=1)
    # 1. force gaps: contact on either side -> a gap, otherwise no contact
    for a, b in _runs(~np.all(np.isfinite(F), axis=1)):
        near = [mag[k] for k in (a - 1, b) if 0 <= k < len(t) and np.isfinite(mag[k])]
        if not near or max(near) <= threshold:
            F[a:b], P[a:b] = 0.0, np.nan
            continue
        g = Gap(f"{label}force", int(a), int(b), float(t[a]), float(t[b - 1]))
        if b - a > max_gap or a == 0 or b == len(t):
            raise MotionError(f"{source}: missing force samples {g} during a contact (up to "
                              f"{max(near):.0f} N next to them; longer than max_gap = {max_gap} "
                              "samples or at an end of the trial): fix the force-plate data, "
                              "cut the trial or raise max_gap")
        for c in range(3):
            F[a:b, c] = _interpolate(t, F[:, c], a, b)
        filled.append(g)
    mag = np.linalg.norm(F, axis=1)
    # 2. no centre of pressure (NaN, or the 0 0 0 plate software writes instead): no load
    # below the threshold (a few newtons of plate noise at the lab origin would add a moment),
    # a gap above it
    nocop = ~np.all(np.isfinite(P), axis=1) | np.all(P == 0, axis=1)
    off = nocop & (mag <= threshold)
    F[off], P[off] = 0.0, np.nan
    if M is not None:
        M[off] = 0.0
    for a, b in _runs(~np.all(np.isfinite(P), axis=1) & (mag > threshold)):
        inside = a > 0 and b < len(t) and np.all(np.isfinite(P[[a - 1, b]]))
        if inside:
            if b - a > max_gap:
                g = Gap(f"{label}cop", int(a), int(b), float(t[a]), float(t[b - 1]))
                raise MotionError(f"{source}: no centre of pressure for {g} while the force "
                                  f"is up to {mag[a:b].max():.0f} N (a gap of {b - a} samples, "
                                  f"longer than max_gap = {max_gap}): fix the force-plate "
                                  "data or raise max_gap")
            for c in range(3):
                P[a:b, c] = _interpolate(t, P[:, c], a, b)
            filled.append(Gap(f"{label}cop", int(a), int(b), float(t[a]), float(t[b - 1])))
        else:
            notes.append(f"{source}: contact {key or '(no prefix)'!r} has a force of up to "
                         f"{mag[a:b].max():.0f} N without a centre of pressure at rows "
                         f"{a + 1}-{b} (t = {t[a]:g} .. {t[b - 1]:g} s), at the start or end of "
                         "a contact: applied as no load there")
            F[a:b] = 0.0
            if M is not None:
                M[a:b] = 0.0
    return F, P, M, filled, notes
