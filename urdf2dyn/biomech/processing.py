"""Signal processing of recordings: gaps, the low-pass filter, and the derivative estimator.

Gaps
----
Missing samples in recordings: find them, fill the short ones, refuse the long ones.

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
  side), stops the trial with a :class:`urdf2dyn.biomech.MotionError` naming it: cut the trial, or
  fill it with a method that knows the movement (e.g. a marker-based gap filler) first.

Why 5 samples: at the usual motion-capture rates (100-200 Hz) that is 25-50 ms, a small fraction
of a gait event (a running stance lasts ~200 ms); over so short a span a cubic follows joint
angles to well below measurement noise, whereas longer gaps can hide a real event (a heel
strike) that no interpolation recovers. Pass ``max_gap=0`` to refuse any gap.

Ground reactions are different: outside contact a force plate reports no centre of pressure
(NaN), and that is "no load", not a gap (:func:`fill_load_gaps`).

Derivatives
-----------
:func:`estimate_derivatives` (finite differences by default, NumPy only; Savitzky-Golay or a
quintic spline on request) with an optional zero-lag Butterworth low-pass filter
(:func:`lowpass`) is urdf2dyn's one derivative estimator; ``traj.with_derivatives(...)`` calls it.
SciPy is needed for Savitzky-Golay, splines and the filter, and is imported on first use.

A trial's processing
--------------------
:class:`Urdf2dynProcessing` is what a trial (urdf2dyn.biomech.stages) does with its
coordinates and loads by default: this module's filter and estimator, the time range cut
afterwards, the loads interpolated linearly and filtered like the coordinates. OpenSim's is
its alternative (urdf2dyn.biomech.opensim_processing.OpenSimProcessing); a trial's settings
hold one of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, ClassVar, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..warn import MotionError, counted, data_rows
from .splines import quintic_derivatives

if TYPE_CHECKING:
    from ..model import Model

__all__ = ["Urdf2dynProcessing", "DEFAULT_DERIVATIVES", "DEFAULT_MAX_GAP", "Gap", "find_gaps",
           "fill_gaps", "fill_load_gaps", "estimate_derivatives", "lowpass", "CutoffNamed",
           "CutoffError", "ColumnOptions", "LIBRARY_COLUMNS"]

#: The one default derivative method (API and command line): finite differences, NumPy only.
DEFAULT_DERIVATIVES = "gradient"

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


def true_runs(mask):
    """[(start, stop)] of the runs of True in a boolean vector: samples start .. stop - 1.
    The one place runs of samples are found (gaps here, a force plate's stretches in
    formats.c3d)."""
    m = np.concatenate([[False], np.asarray(mask, dtype=bool), [False]])
    d = np.diff(m.astype(np.int8))
    return list(zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)))


def find_gaps(t, x, names):
    """Every run of non-finite samples in x (N, k), as a list of :class:`Gap` (column order)."""
    t = np.asarray(t, dtype=float)
    x = np.asarray(x, dtype=float).reshape(len(t), -1)
    return [Gap(str(names[c]), int(a), int(b), float(t[a]), float(t[b - 1]))
            for c in range(x.shape[1]) for a, b in true_runs(~np.isfinite(x[:, c]))]


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


def fill_gaps(t, x, names, max_gap=DEFAULT_MAX_GAP, source="data", named=None):
    """Fill the short gaps of x (N, k): returns (filled copy, [Gap, ...] that were filled).

    Raises MotionError naming every gap longer than max_gap samples and every gap touching the
    first or last sample (source names the file in the message), advising the caller's
    options as named says (ColumnOptions; default: the library's keywords)."""
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
        problems.append(f"gaps longer than the {max_gap} samples filled"
                        + (named or LIBRARY_COLUMNS).said("max_gap", " ({})", max_gap) + ": "
                        + "; ".join(str(g) for g in long))
    if edge:
        problems.append("gaps at the start or end of the trial (nothing to interpolate from "
                        "on one side): " + "; ".join(str(g) for g in edge))
    if problems:
        advice = []
        if edge or any(g.start == 0 or g.stop == len(t) for g in long):
            advice.append("a gap at the start or end has nothing to interpolate from on one "
                          "side, so filling longer gaps does not help: cut the trial to the part "
                          "that was recorded (keep the rows from the first to the last complete "
                          "one) or fill those samples with a tool that knows the movement")
        if [g for g in long if not (g.start == 0 or g.stop == len(t))]:
            advice.append("for the gaps inside the trial, fill them with a tool that knows the "
                          "movement" + (named or LIBRARY_COLUMNS).said(
                              "max_gap", ", or fill longer ones ({}) if a cubic across them is "
                              "good enough", "N"))
        raise MotionError(f"{source}: missing samples (NaN or empty cells): "
                          + "; ".join(problems) + ". " + "; ".join(advice)[:1].upper()
                          + "; ".join(advice)[1:])
    names = [str(n) for n in names]
    for g in gaps:
        c = names.index(g.column)
        x[g.start:g.stop, c] = _interpolate(t, x[:, c], g.start, g.stop)
    return x, gaps


def fill_load_gaps(t, force, cop, moment=None, key="", max_gap=DEFAULT_MAX_GAP,
                   threshold=20.0, source="ground reactions", named=None):
    """Missing samples of one contact's ground reaction: force, cop (N, 3), moment (N, 3) or
    None. Returns (force, cop, moment, filled gaps, notes).

    * A force sample that is missing where the valid samples around it carry no more than
      ``threshold`` newtons (e.g. urdf2dyn.biomech.gait.CONTACT_THRESHOLD) is no contact: zero force,
      no centre of pressure.
    * A missing centre of pressure (NaN, or exactly 0 0 0 as plate software writes it outside
      contact) where the force is at most threshold is no load (force plates report none
      there): the force is zeroed, as a plate would.
    * Missing force or centre-of-pressure samples inside a contact are gaps: filled like
      :func:`fill_gaps` (at most max_gap samples) or refused. Where a contact starts or ends
      without a centre of pressure (a plate with a higher threshold than ours) the force is
      dropped and a note (for a warning) says how large it was.
    * A refusal advises the caller's options as named says (ColumnOptions; default: the
      library's keywords).
    """
    t = np.asarray(t, dtype=float)
    F = np.array(force, dtype=float)
    P = np.array(cop, dtype=float)
    M = None if moment is None else np.where(np.isfinite(moment), moment, 0.0)
    label = f"{key}_" if key else ""
    named = named or LIBRARY_COLUMNS
    filled, notes = [], []
    mag = np.linalg.norm(F, axis=1)
    # 1. force gaps: contact on either side -> a gap, otherwise no contact
    for a, b in true_runs(~np.all(np.isfinite(F), axis=1)):
        near = [mag[k] for k in (a - 1, b) if 0 <= k < len(t) and np.isfinite(mag[k])]
        if not near or max(near) <= threshold:
            F[a:b], P[a:b] = 0.0, np.nan
            continue
        g = Gap(f"{label}force", int(a), int(b), float(t[a]), float(t[b - 1]))
        if b - a > max_gap or a == 0 or b == len(t):
            raise MotionError(f"{source}: missing force samples {g} during a contact (up to "
                              f"{max(near):.0f} N next to them; longer than the {max_gap} "
                              f"samples filled{named.said('max_gap', ' ({})', max_gap)} or at an "
                              "end of the trial): fix the force-plate data, "
                              + ("or cut the trial to the recorded part (at an end of the trial "
                                 "filling longer gaps does not help)" if a == 0 or b == len(t)
                                 else "cut the trial"
                                 + named.said("max_gap", " or fill longer gaps ({})", "N")))
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
    for a, b in true_runs(~np.all(np.isfinite(P), axis=1) & (mag > threshold)):
        inside = a > 0 and b < len(t) and np.all(np.isfinite(P[[a - 1, b]]))
        if inside:
            if b - a > max_gap:
                g = Gap(f"{label}cop", int(a), int(b), float(t[a]), float(t[b - 1]))
                raise MotionError(f"{source}: no centre of pressure for {g} while the force "
                                  f"is up to {mag[a:b].max():.0f} N (a gap of "
                                  f"{counted(b - a, 'sample')}, "
                                  f"longer than the {max_gap} filled"
                                  f"{named.said('max_gap', ' ({})', max_gap)}): fix the "
                                  "force-plate data"
                                  + named.said("max_gap", " or fill longer gaps ({})", "N"))
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


# ----------------------------------------------------------------------------- derivatives

#: Times within this fraction of a step of a uniform grid are that grid, written rounded: a
#: 60 Hz .trc whose times are printed to the millisecond (OpenSim's published walks) steps
#: 0.016 and 0.017 s.
GRID_ROUNDING = 0.1


def sampling_grid(t: ArrayLike) -> NDArray[np.float64]:
    """The uniform grid t0 + k h (h = (t[-1] - t0) / (N - 1)) when the times t lie within
    GRID_ROUNDING of a step of it (a recording's uniform samples with rounded times), else
    t itself."""
    t = np.asarray(t, dtype=float)
    if len(t) < 2 or not np.all(np.isfinite(t)):
        return t
    grid = t[0] + (t[-1] - t[0]) * np.arange(len(t)) / (len(t) - 1)
    h = (t[-1] - t[0]) / (len(t) - 1)
    return grid if h > 0 and np.max(np.abs(t - grid)) <= GRID_ROUNDING * h else t


def _uniform_step(t, what):
    t = np.asarray(t, dtype=float)
    dt = np.diff(t)
    if len(t) < 2 or np.any(dt <= 0) or not np.all(np.isfinite(t)):
        raise ValueError("t: expected at least 2 finite, strictly increasing times")
    h = (t[-1] - t[0]) / (len(t) - 1)
    if np.max(np.abs(dt - h)) > 1e-4 * h and sampling_grid(t) is t:
        raise ValueError(f"{what} needs uniformly sampled data (time steps vary from "
                         f"{dt.min():g} to {dt.max():g} s); resample first or use method='spline'"
                         " / 'gradient' without cutoff_hz")
    return h


#: the lowest cut-off lowpass takes, as a fraction of the Nyquist frequency: below it the
#: Butterworth coefficients lose their precision in double (the gain at 0 Hz, 1 by design,
#: is off by 1e-5 at 1e-6 of Nyquist, and the denominator is 0, a singular filter, by 1e-10)
MIN_CUTOFF_OF_NYQUIST = 1e-5

#: how far from 1 a designed filter's gain at 0 Hz (sum(b) / sum(a), 1 by design) may be: a
#: higher order loses the coefficients' precision at cut-offs far above the floor (order 4 at
#: 2e-5 of Nyquist, order 6 at 2e-3), and a constant would come out scaled
MAX_DC_GAIN_ERROR = 1e-6


def lowest_cutoff(fs: float, floor_of_nyquist: float) -> float:
    """The lowest cut-off (Hz) a filter takes on data sampled at fs Hz: floor_of_nyquist x
    the Nyquist frequency, as a message prints it (a rate a bit off its nominal value, a step
    one bit short, would otherwise refuse the very cut-off the message names as the lowest)."""
    return float(f"{floor_of_nyquist * fs / 2:g}")


class CutoffNamed(NamedTuple):
    """Who gave a filter's cut-off, as every refusal of it says (refuse_too_low_cutoff and
    the filters' other checks), so that no caller rewords one: ``name``, the argument,
    command-line flag or setup element; ``no_filter``, how that source asks for no filter
    (the library with None, the command line by leaving out --filter, a setup with -1);
    ``file``, the file the cut-off applies to (a trial's motion) or is written in (a setup),
    said first with the value (None: the argument alone, as a library call gave it)."""
    name: str = "cutoff_hz"
    no_filter: str = "None for no filter"
    file: str | None = None

    def said(self, cutoff_hz: float) -> str:
        """The words before a refusal's reason."""
        return self.name if self.file is None else f"{self.file}: {self.name} {cutoff_hz:g}"


#: a cut-off given to lowpass or estimate_derivatives, as a library call names it
CUTOFF_HZ = CutoffNamed()


class ColumnOptions(NamedTuple):
    """The caller's options, as the refusals and warnings advise them: those that change how
    a trial's files and columns meet the model (its columns, CSV separators, gaps, loads,
    couplers and angle units: stages.read.check_columns, formats.csv.read_table, fill_gaps,
    grf.contact_links, the plausibility checks), and those of the jobs around trials (a
    batch's scheduler, the IK and scale setups' runs, the OpenSim export), so that no command
    names an option it lacks, nor the library a flag. ``processing``: how to ask for
    OpenSim's column rule (missing coordinates held at their defaults, unknown columns
    ignored); ``mapping``: how to rename the file's columns; ``floating_base``: how to load the model with the
    floating joint 'root_joint'; ``contact``: how to give ground reactions their links, a
    format of the pairs, each ``contact_pair`` formatted with its key, joined by ", " (the
    library's one dict, the command line's one --contact per key); ``couplers``: how to
    compute coupled coordinates from the ones they follow; ``grf`` and ``external_loads``:
    how to give a trial's ground reactions or its OpenSim ExternalLoads file; ``max_gap``:
    a format of how to set the longest gap filled (the number of samples for {});
    ``delimiter`` and ``decimal``: formats of how to say a CSV file's separators (the value
    for {}); ``degrees``: how to read a CSV file's angles in degrees; ``time_range``: a
    format of how to give the time range (its start and end for {0} and {1}); ``gravity``: a
    format of how to set the model's gravity (its x, y, z for {0}, {1}, {2}); ``rotation``:
    a format of how to give the lab's rotation to the model (its text for {}); ``ik_setup``:
    how to give the OpenSim IK setup whose marker weights a marker trial's inverse kinematics
    follows; ``filter_hz``: a format of how to low-pass filter a trial's coordinates (the
    cut-off in Hz for {}); ``cycles``: a format of how to cut a trial into gait cycles
    (gait.gait_cycles' source, "plates" or "events", for {}); ``static``: a format of how to
    give the scaling's static trial (its file for {}); ``scheduler``: how the caller names
    the Dask scheduler address it gave a batch of trials; ``ik_model`` and ``marker_file``:
    how to give an OpenSim IK setup's run the model and the marker recording its setup
    leaves unassigned; ``root``: how to build a human model whose root is 3 prismatic + 3
    revolute joints; ``derivatives``: a format of how to choose the derivatives' method (its
    name for {}); ``scale_model``, ``marker_set`` and ``scale_static``: formats of how to
    give an OpenSim scale setup's run the generic model, marker set and static trial its
    setup leaves unassigned (an example file for {}); ``marker_fit``: how to fit a model's
    coordinates to a marker recording; ``osim_to_urdf``: how to write an OpenSim model as
    URDF. None: the caller has no such option (`urdf2dyn animate`)."""
    processing: str | None = 'processing="opensim"'
    mapping: str | None = "mapping={file name: model name}"
    floating_base: str | None = "floating_base=True"
    contact: str | None = "contacts={{{}}}"
    contact_pair: str = "{!r}: LINK"
    couplers: str | None = "urdf2dyn.load(MODEL, couplers='eliminate')"
    grf: str | None = "grf=FILE"
    external_loads: str | None = 'external_loads="SETUP.xml"'
    max_gap: str | None = "max_gap={}"
    delimiter: str | None = 'delimiter="{}"'
    decimal: str | None = 'decimal="{}"'
    degrees: str | None = "degrees=True"
    time_range: str | None = "time_range=({0:g}, {1:g})"
    gravity: str | None = "model.gravity = ({0:g}, {1:g}, {2:g})"
    rotation: str | None = 'rotation="{}"'
    ik_setup: str | None = 'ik_setup="Setup_IK.xml"'
    filter_hz: str | None = "filter_hz={:g}"
    cycles: str | None = 'by="{}"'
    static: str | None = 'Scaling(SETUP, static="{}")'
    scheduler: str | None = "run_trials' scheduler"
    ik_model: str | None = "model=urdf2dyn.load(MODEL)"
    marker_file: str | None = 'marker_file="MARKERS.trc"'
    root: str | None = 'urdf2dyn.human(..., root="prismatic")'
    derivatives: str | None = 'derivatives="{}"'
    scale_model: str | None = 'model="{}"'
    marker_set: str | None = 'marker_set="{}"'
    scale_static: str | None = 'static="{}"'
    marker_fit: str | None = "urdf2dyn.biomech.ik.run_setup"
    osim_to_urdf: str | None = "urdf2dyn.convert.osim_to_urdf"

    def said(self, option: str, form: str = "{}", value: object = None) -> str:
        """The caller's option (a field's name; value put in its format, as delimiter's, a
        tuple's items each in its place, as time_range's) in form, or "" when the caller has
        no such option: advice a caller may lack."""
        way = getattr(self, option)
        if way is None:
            return ""
        if value is None:
            return form.format(way)
        return form.format(way.format(*value) if isinstance(value, tuple) else
                           way.format(value))

    def ways_to_give_loads(self) -> str:
        """The ways a trial's external loads are given, as the caller's options name them."""
        ways = ["a C3D with its force plates", "the motion file's own ground-reaction columns"]
        ways += [way for way in (self.grf, self.external_loads) if way is not None]
        return ", ".join(ways[:-1]) + " or " + ways[-1]

    def contacts(self, keys) -> str | None:
        """How to give each of the ground reactions keys its link (None: the caller cannot)."""
        if self.contact is None:
            return None
        return self.contact.format(", ".join(self.contact_pair.format(k) for k in keys))


#: the options of a library call (inverse_dynamics_trial, run_trials), in its keywords
LIBRARY_COLUMNS = ColumnOptions()


class CutoffError(ValueError):
    """A filter's cut-off refused, in the words of whoever gave it (CutoffNamed)."""


def refuse_too_low_cutoff(cutoff_hz: float, fs: float, floor_of_nyquist: float,
                          why: str = "the filter cannot be computed below",
                          named: CutoffNamed = CUTOFF_HZ) -> None:
    """CutoffError naming cutoff_hz when it lies below floor_of_nyquist x the Nyquist
    frequency of data sampled at fs Hz, where a filter cannot be computed in double: the one
    check of both processings' cut-offs (lowpass's MIN_CUTOFF_OF_NYQUIST, OpenSim's IIR
    filter's urdf2dyn.biomech.opensim_processing.MIN_IIR_CUTOFF_OF_NYQUIST). why: the reason
    the message gives, before the lowest cut-off taken; named: who gave the cut-off, in the
    message's words (its name first, how to ask for no filter last)."""
    lowest = lowest_cutoff(fs, floor_of_nyquist)
    if cutoff_hz < lowest:
        raise CutoffError(f"{named.said(cutoff_hz)}: {cutoff_hz:g} Hz is too low to filter data "
                          f"sampled at {fs:g} Hz ({why} {lowest:g} Hz); give a cut-off of a "
                          f"few Hz (6 Hz is usual for gait), or {named.no_filter}")


def _refuse_imprecise(b, a, cutoff_hz, fs, order, named):
    """CutoffError in named's words when the designed coefficients b, a miss the Butterworth
    filter's unit gain at 0 Hz: they have lost their precision in double."""
    gain = np.sum(b) / np.sum(a) if np.sum(a) != 0 else np.inf
    if not abs(gain - 1) <= MAX_DC_GAIN_ERROR:
        raise CutoffError(f"{named.said(cutoff_hz)}: {cutoff_hz:g} Hz is too low for an "
                          f"order-{order} Butterworth filter of data sampled at {fs:g} Hz: "
                          "its coefficients lose their precision in double (run both ways, it "
                          f"would scale a constant by {gain * gain:.6g}); give a higher "
                          "cut-off or a lower order")


def lowpass(t, x, cutoff_hz, order=2, *, named=CUTOFF_HZ):
    """Zero-lag Butterworth low-pass filter of x (N, ...) sampled at times t (uniform).

    A Butterworth filter of the given order (scipy.signal.butter) run forwards and backwards
    (scipy.signal.filtfilt, odd padding): no phase lag, twice the order's roll-off, and gain
    ``|H(f)|^2``, i.e. 0.5 (-6 dB) at cutoff_hz rather than -3 dB; no cutoff correction is applied.
    The default order 2 gives the usual 4th-order zero-lag filter of biomechanics (Winter 2009,
    ch. 3). cutoff_hz must be below the Nyquist frequency. named: who gave cutoff_hz, as its
    refusals (CutoffError) say (a trial's filter_hz, --filter, a setup's element)."""
    from scipy.signal import butter, filtfilt
    h = _uniform_step(t, "the Butterworth filter")
    fs = 1.0 / h
    cutoff_hz = float(cutoff_hz)
    if not (0 < cutoff_hz < fs / 2):
        raise CutoffError(f"{named.said(cutoff_hz)}: expected 0 < cutoff < Nyquist = "
                          f"{fs / 2:g} Hz, got {cutoff_hz:g}")
    refuse_too_low_cutoff(cutoff_hz, fs, MIN_CUTOFF_OF_NYQUIST, named=named)
    b, a = butter(int(order), cutoff_hz / (fs / 2))
    _refuse_imprecise(b, a, cutoff_hz, fs, order, named)
    x = np.asarray(x, dtype=float)
    padlen = 3 * max(len(a), len(b))
    if x.shape[0] <= padlen:
        raise CutoffError(f"{named.said(cutoff_hz)}: the Butterworth filter (order {order}, "
                          f"run both ways) needs more than {padlen} samples, got "
                          f"{x.shape[0]}: drop the filter for so short a recording")
    return filtfilt(b, a, x, axis=0, padtype="odd", padlen=padlen)


# Coordinates near the float limit (1e308) overflow when filtered or differenced: the
# derivatives are then inf or NaN, which the trial's checks name in urdf2dyn's words (the
# rows, the largest coordinate, what to do); NumPy's own overflow warnings would only say it
# again in words a user cannot act on, so they are not raised here.
@np.errstate(over="ignore", invalid="ignore")
def estimate_derivatives(t: ArrayLike, q: ArrayLike, method: str = DEFAULT_DERIVATIVES,
                         cutoff_hz: float | None = None, *, model: Model | None = None,
                         filter_order: int = 2, window: int | None = None, polyorder: int = 3,
                         return_positions: bool = False,
                         named: CutoffNamed = CUTOFF_HZ) -> tuple[NDArray[np.float64], ...]:
    """Velocities and accelerations of sampled coordinates q (N, n) at times t (N,): urdf2dyn's
    one derivative estimator (the command line's ``--derivatives`` / ``--filter`` call it too).

    q must be finite: a NaN would spread to its neighbours (and, filtered, to every sample).
    Fill gaps first (fill_gaps; urdf2dyn.inverse_dynamics_trial does). Coordinates too large
    to differentiate (near 1e308) give infinite or NaN derivatives, without NumPy's overflow
    warnings; inverse_dynamics_trial names those samples.

    Parameters
    ----------
    t : array_like, shape (N,)
        Sample times, s. Times within a tenth of a step of a uniform grid are that grid,
        written rounded (sampling_grid: a 60 Hz .trc printed to the millisecond), for every
        method but "opensim", whose splines take the times as written.
    q : array_like, shape (N, n)
        Coordinates (model.nq columns in model order when ``model`` is given).
    method : {"gradient", "savgol", "spline", "opensim"}
        * "gradient" (the default, NumPy only): second-order finite differences
          (numpy.gradient, edge_order=2: central inside, one-sided at both ends, non-uniform
          steps allowed), applied twice; exact for quadratic trajectories.
        * "savgol": Savitzky-Golay differentiating filters (scipy.signal.savgol_filter,
          deriv=1 and 2, mode="interp"): local least-squares polynomials of degree polyorder
          over window samples. Uniform sampling.
        * "spline": the interpolating quintic spline through the samples
          (scipy.interpolate.make_interp_spline, k=5), differentiated. Any sampling.
        * "opensim" (NumPy only): the natural quintic spline through the samples (third and
          fourth derivatives zero at both ends), as OpenSim's GCVSpline of degree 5 with no
          smoothing interpolates coordinates in its inverse-dynamics tool
          (urdf2dyn.biomech.splines.quintic_derivatives). Any sampling.
    cutoff_hz : float, optional
        First low-pass the positions with the zero-lag Butterworth filter of lowpass()
        (order filter_order, uniform sampling). Without a filter, "spline" and "gradient"
        follow the samples exactly, noise included: filter noisy motion capture.
    model : Model, optional
        With a model the result has model.nv columns and a floating joint's velocity is its
        body-frame twist, v_lin = R^T dp/dt and w = 2 vec(conj(quat) * dquat/dt), from finite
        differences of the (possibly filtered) renormalised, sign-continuous quaternion,
        whatever the method; its acceleration is the derivative of that v. Without a model
        every column is differentiated independently.
    filter_order : int
        Order of the Butterworth filter (see lowpass).
    window : int, optional
        Savitzky-Golay window in samples (odd; default the odd number nearest 0.05 s of
        samples, at least polyorder + 2).
    polyorder : int
        Savitzky-Golay polynomial degree.
    return_positions : bool
        Also return the (filtered) positions.
    named : CutoffNamed
        Who gave cutoff_hz, as its refusals (CutoffError) say: a trial's filter_hz, the
        command line's --filter, a setup's element (default: cutoff_hz).

    Returns
    -------
    tuple of ndarray
        (v, a), or (q_filtered, v, a) with return_positions=True.
    """
    t = np.asarray(t, dtype=float).reshape(-1)
    q = np.asarray(q, dtype=float)
    if q.ndim == 1:
        q = q[:, None]
    if q.shape[0] != len(t):
        raise ValueError(f"q: expected {len(t)} rows (one per time), got shape {q.shape}")
    if len(t) < 3 or np.any(np.diff(t) <= 0) or not np.all(np.isfinite(t)):
        raise ValueError("t: expected at least 3 finite, strictly increasing times")
    if model is not None and q.shape[1] != model.nq:
        raise ValueError(f"q: expected {model.nq} columns (model.nq), got {q.shape[1]}")
    bad = ~np.isfinite(q)
    if bad.any():
        rows, cols = np.nonzero(bad)
        names = model.q_names if model is not None else None
        which = sorted({names[c] if names else c for c in cols}, key=str)
        raise MotionError(f"q: missing (NaN) samples at rows {data_rows(np.unique(rows))} in columns "
                          f"{which}: fill the gaps first (urdf2dyn.biomech.processing.fill_gaps), or cut the "
                          "trial")
    qf = (lowpass(t, q, cutoff_hz, filter_order, named=named) if cutoff_hz is not None
          else q.copy())
    if method != "opensim":                 # OpenSim's splines take the times as written
        t = sampling_grid(t)
    rotating = [j for j in model.joints if j.type in _QUAT_AT] if model is not None else []
    for j in rotating:
        quat = qf[:, j.q_index + _QUAT_AT[j.type]:j.q_index + _QUAT_AT[j.type] + 4]
        quat /= np.linalg.norm(quat, axis=1, keepdims=True)

    if method == "gradient":
        v = np.gradient(qf, t, axis=0, edge_order=2)
        a = np.gradient(v, t, axis=0, edge_order=2)
    elif method == "savgol":
        from scipy.signal import savgol_filter
        h = _uniform_step(t, "method='savgol'")
        if window is None:
            window = int(round(0.05 / h))
            window += 1 - window % 2
            window = max(window, polyorder + 2 + (polyorder + 1) % 2)
        window = int(window)
        if window % 2 == 0 or window <= polyorder:
            raise ValueError(f"window: expected an odd number of samples > polyorder={polyorder}, "
                             f"got {window}")
        if window > len(t):
            raise ValueError(f"window: {window} samples but the trajectory has only {len(t)}")
        v = savgol_filter(qf, window, polyorder, deriv=1, delta=h, axis=0, mode="interp")
        a = savgol_filter(qf, window, polyorder, deriv=2, delta=h, axis=0, mode="interp")
    elif method == "spline":
        from scipy.interpolate import make_interp_spline
        if len(t) < 6:
            raise ValueError("method='spline' needs at least 6 samples")
        spl = make_interp_spline(t, qf, k=5, axis=0)
        v, a = spl.derivative(1)(t), spl.derivative(2)(t)
    elif method == "opensim":
        v, a = quintic_derivatives(t, qf)
    else:
        raise ValueError(f"method: expected 'gradient', 'savgol', 'spline' or 'opensim', got "
                         f"{method!r}")

    if model is not None and model.nv != model.nq:
        vm, am = np.empty((len(t), model.nv)), np.empty((len(t), model.nv))
        for j in model.joints:
            qs, vs = slice(j.q_index, j.q_index + j.nq), slice(j.v_index, j.v_index + j.nv)
            if j.type == "floating":
                vm[:, vs] = _floating_velocity(t, qf[:, qs])
                am[:, vs] = np.gradient(vm[:, vs], t, axis=0, edge_order=2)
            elif j.type == "ball":          # the body-frame angular velocity alone
                vm[:, vs] = _floating_velocity(t, np.hstack([np.zeros((len(t), 3)), qf[:, qs]]))[:, 3:]
                am[:, vs] = np.gradient(vm[:, vs], t, axis=0, edge_order=2)
            else:
                vm[:, vs], am[:, vs] = v[:, qs], a[:, qs]
        v, a = vm, am
    return (qf, v, a) if return_positions else (v, a)


_QUAT_AT = {"floating": 3, "ball": 0}      # where a joint's quaternion starts in its q


def _floating_velocity(t, qj):
    """Body-frame twist [v_lin, w] (N, 6) of a floating joint's samples qj = [p, quat] (N, 7)."""
    p, quat = qj[:, :3], qj[:, 3:7] / np.linalg.norm(qj[:, 3:7], axis=1, keepdims=True)
    flip = np.cumprod(np.where(np.sum(quat[1:] * quat[:-1], axis=1) < 0, -1.0, 1.0))
    quat = quat * np.concatenate([[1.0], flip])[:, None]      # sign-continuous
    dp = np.gradient(p, t, axis=0, edge_order=2)
    dquat = np.gradient(quat, t, axis=0, edge_order=2)
    x, y, z, w = quat.T
    R = np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
    ], axis=1)
    v_lin = np.einsum("nji,nj->ni", R, dp)
    # vector part of conj(quat) * dquat, quaternions as (x, y, z, w)
    dx, dy, dz, dw = dquat.T
    omega = 2 * np.stack([w * dx - x * dw - (y * dz - z * dy),
                          w * dy - y * dw - (z * dx - x * dz),
                          w * dz - z * dw - (x * dy - y * dx)], axis=-1)
    return np.concatenate([v_lin, omega], axis=1)


def _need_even_steps(t, source, filter_hz, derivatives, filter_named=CUTOFF_HZ,
                     columns_named=LIBRARY_COLUMNS):
    """A trial's coordinates filtered (filter_hz) or differentiated by Savitzky-Golay
    (derivatives "savgol") must be evenly sampled: else refused naming the file and each of
    the two asked for, in the words of the caller that asked (filter_named, columns_named),
    with what that caller gives instead."""
    try:
        _uniform_step(t, "")
    except ValueError:
        dt = np.diff(np.asarray(t, dtype=float))
        needs, instead = [], []
        if filter_hz is not None:
            needs.append(f"the Butterworth filter ({filter_named.name})")
            instead.append(filter_named.no_filter)
        if derivatives == "savgol":
            method = partial(columns_named.said, "derivatives", "{}")
            needs.append(f"Savitzky-Golay derivatives ({method('savgol')})")
            instead.append(f"choose {method('gradient')} or {method('spline')}")
        raise MotionError(f"{source}: time steps vary from {dt.min():g} to {dt.max():g} s (an "
                          "integrator's output, such as OpenSim's RRA or CMC Kinematics_q.sto?):"
                          f" {' and '.join(needs)} need{'s' if len(needs) == 1 else ''} evenly "
                          "sampled coordinates; resample the file to one step, or "
                          f"{', and '.join(instead)} (finite differences and splines take uneven "
                          "steps)") from None


@dataclass(frozen=True)
class Urdf2dynProcessing:
    """urdf2dyn's processing of a trial (``processing="urdf2dyn"``, the default).

    Kinematics: velocities and accelerations from :func:`estimate_derivatives` (its method,
    with the optional zero-lag Butterworth filter of the coordinates) unless the file gives
    them, then the samples of the time range kept. Loads (ground reactions, plates,
    ExternalLoads data): the wrenches at their own samples filtered there at the coordinates'
    cutoff unless ``filter_loads`` is off (urdf2dyn.biomech.pipeline's docstring says why),
    then linearly interpolated at the motion's times (urdf2dyn.biomech.grf.sample_wrenches).
    The file's columns must be the model's coordinates."""
    name: ClassVar[str] = "urdf2dyn"
    load_interpolation: ClassVar[str] = "linear"
    filters_loads: ClassVar[bool] = True
    #: An IK setup's coordinate_file (its from_file tasks' values) is read in the units its
    #: header says (urdf2dyn.biomech.ik.coordinate_task_values)
    ik_coordinate_file_units: ClassVar[str] = "header"
    #: ... and interpolated linearly at the marker frames (np.interp)
    ik_coordinate_file_interpolation: ClassVar[str] = "linear"

    def columns(self, source, traj, model):
        """Notes on the motion's columns against the model's (none: check_columns decides)."""
        return []

    def padding(self, t, first, last, source, named=None):
        """None: this processing computes no row beyond the motion (see OpenSim's)."""
        return None

    def output_order(self, model):
        """None: the torques are written in the model's own order (model.v_names)."""
        return None

    def kinematics(self, model, t, q, v, a, *, filter_hz, derivatives, time_range, source,
                   warn, filter_named=CUTOFF_HZ, columns_named=None):
        """(t, q, v, a, how the rates were found, the cutoff applied or None) of the
        coordinates t (N,), q (N, nq) and the rates v, a the file gave (or None).
        filter_named: who gave filter_hz, as its refusals say (CutoffNamed); columns_named:
        the caller's options, as OpenSim's processing advises them (ColumnOptions)."""
        if v is None or a is None:
            if filter_hz is not None or derivatives == "savgol":
                _need_even_steps(t, source, filter_hz, derivatives, filter_named,
                                 columns_named or LIBRARY_COLUMNS)
            qf, v_est, a_est = estimate_derivatives(t, q, method=derivatives,
                                                    cutoff_hz=filter_hz, model=model,
                                                    return_positions=True, named=filter_named)
            if filter_hz is not None:
                q = qf
            v = v_est if v is None else v
            a = a_est if a is None else a
            how = derivatives
        else:
            how = "given in the file"
            if filter_hz is not None:
                warn(f"{source}: velocities and accelerations are given in the file: they are "
                     f"used as they are, not filtered at {filter_hz:g} Hz")
                filter_hz = None
        if time_range is not None:
            t0, t1 = time_range
            keep = (t >= t0) & (t <= t1)
            if not keep.any():
                raise MotionError(f"{source}: no sample in the time range {t0:g} .. {t1:g} s "
                                  f"(the trial runs {t[0]:g} .. {t[-1]:g} s)")
            t, q, v, a = t[keep], q[keep], v[keep], a[keep]
        return t, q, v, a, how, filter_hz
