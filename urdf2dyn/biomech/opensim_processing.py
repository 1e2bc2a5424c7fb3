"""OpenSim's inverse-dynamics processing, reproduced (NumPy only).

OpenSim 4.x's ``InverseDynamicsTool::run`` (opensim-core, OpenSim/Tools/InverseDynamicsTool.cpp)
prepares the coordinates in three steps, each reimplemented here from its formulas:

1. with ``lowpass_cutoff_frequency_for_coordinates >= 0``, the coordinate table is **padded**
   with ``N // 2`` samples at each end (``Storage::pad`` / ``Signal::Pad``: the data reflected
   about the end sample and negated, ``2 x[0] - x[k]``, which keeps the end value and slope;
   the time column is extended the same way), **resampled** at its smallest step with the
   quintic spline of step 2 when its steps are not all equal to the last bit
   (``Storage::resample``, as ``lowpassIIR`` does first), and **low-pass filtered**
   (``Storage::lowpassIIR`` / ``Signal::LowpassIIR``): a 3rd-order Butterworth filter from
   the bilinear transform with a pre-warped cutoff, run forwards then backwards, its first
   three outputs copied from the input in each pass. The padded rows stay in the table: they
   are rows of the result when the time range reaches them;
2. each column becomes a **quintic natural spline** through its samples (``GCVSplineSet(5, ...)``:
   Woltring's GCVSPL with a known error variance of 0, whose smoothing parameter search ends at
   the smallest value it allows, 1e-15 relative: the interpolating spline to rounding), and
   velocities and accelerations are its derivatives at the sample times. A natural spline of
   degree 5 has zero 3rd and 4th derivatives at both ends;
3. the external loads' columns become **natural cubic splines** (``ExternalForce``:
   ``GCVSpline(3, ...)``, likewise interpolating; piecewise linear below 4 samples) evaluated at
   the motion's times.

:func:`id_kinematics` does 1-2; :func:`natural_cubic` does 3 (the splines of steps 2 and 3 are in
urdf2dyn.biomech.splines, beside which urdf2dyn's derivative estimator uses them too);
:func:`id_rows` picks the rows
OpenSim writes for a time range (``Storage::findIndex``: the last sample at or before each end).
Checked against OpenSim 4.6 itself (its Storage, GCVSplineSet and InverseDynamicsTool) in
tests/biomech/test_opensim_id.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..warn import MotionError, counted

from .processing import (CUTOFF_HZ, LIBRARY_COLUMNS, CutoffError, Urdf2dynProcessing,
                         estimate_derivatives, lowest_cutoff, refuse_too_low_cutoff)
from .splines import natural_cubic, natural_quintic, quintic_derivatives, quintic_eval

__all__ = ["OpenSimProcessing", "pad", "lowpass_iir", "quintic_derivatives", "quintic_eval",
           "natural_quintic", "resample", "natural_cubic", "id_kinematics", "id_rows"]


def pad(t, x, npad):
    """OpenSim's Signal::Pad of times t (N,) and columns x (N, k): npad samples reflected and
    negated about each end (``2 x[0] - x[npad - i]`` before, ``2 x[-1] - x[-2 - i]`` after).
    Returns (t (N + 2 npad,), x (N + 2 npad, k))."""
    t = np.asarray(t, dtype=float)
    x = np.asarray(x, dtype=float).reshape(len(t), -1)
    n = len(t)
    npad = int(npad)
    if npad <= 0:
        return t.copy(), x.copy()
    if npad >= n:
        raise ValueError(f"pad: {npad} samples of padding for {n} samples (at most {n - 1})")

    def ext(y):
        head = 2.0 * y[0] - y[npad:0:-1]
        tail = 2.0 * y[-1] - y[-2:-2 - npad:-1]
        return np.concatenate([head, y, tail])
    return ext(t), ext(x)


#: the lowest cut-off OpenSim's processing takes, as a fraction of the Nyquist frequency.
#: OpenSim 4.6's own Signal::LowpassIIR (padded, as its tool runs it) changes a constant by
#: more than 1e-6 (the bound urdf2dyn's filter sets on its gain at 0 Hz) below about 3.5e-4
#: of Nyquist, by 1e-3 at 1e-5 (its coefficients' gain at 0 Hz is no longer 1 in double), and
#: at 0 Hz, or 1e-300, it extrapolates the first three samples' parabola; lowpass_iir's FFT
#: form, whose rounding grows as the cut-off falls, follows OpenSim's recursion to 1e-6 of a
#: coordinate only from about 1e-3 of Nyquist up (to 1e-7 from 2e-3; tests/biomech/
#: test_opensim_id.py, OpenSim as the oracle). Below the floor a cut-off is refused, in the
#: words of urdf2dyn's filter below its MIN_CUTOFF_OF_NYQUIST, saying OpenSim's filter is not
#: reproduced there
MIN_IIR_CUTOFF_OF_NYQUIST = 2e-3


def lowpass_iir(dt, x, cutoff_hz):
    """OpenSim's Signal::LowpassIIR of columns x (N, k) sampled every dt seconds.

    3rd-order Butterworth low-pass from the bilinear transform with the cutoff pre-warped
    (``wa = tan(pi fc dt)``), run forwards then backwards (zero lag); in each pass the first
    three outputs are the inputs. A cutoff at or above half the sampling rate is lowered to
    0.49 x the sampling rate, as OpenSim does (it logs a warning; so does the caller).
    Returns the filtered copy (N, k)."""
    x = np.array(x, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    fs = 1.0 / dt
    fc = 0.49 * fs if cutoff_hz >= 0.5 * fs else float(cutoff_hz)
    wa = math.tan(2.0 * math.pi * fc * dt / 2.0)
    wa2, wa3 = wa * wa, wa * wa * wa
    den = (wa + 1.0) * (wa2 + wa + 1.0)
    a = np.array([wa3, 3 * wa3, 3 * wa3, wa3]) / den
    b1 = (3 * wa3 + 2 * wa2 - 2 * wa - 3) / den
    b2 = (3 * wa3 - 2 * wa2 - 2 * wa + 3) / den
    b3 = (wa - 1.0) * (wa2 - wa + 1.0) / den

    n = len(x)
    if n < 4:
        return x
    # The recursion y[i] = sum a[j] x[i-j] - sum b[j] y[i-j] (i >= 3, y[:3] = x[:3]) equals,
    # exactly, the causal convolution y = g * w of the all-pole impulse response g (g[0] = 1,
    # g[i] = -b1 g[i-1] - b2 g[i-2] - b3 g[i-3]) with w[i] = sum a[j] x[i-j] for i >= 3 and
    # w[:3] chosen so that the first three outputs are the inputs. One scalar recursion for g,
    # then one FFT convolution for all columns (the column-wise loop costs 100 times more).
    g = np.empty(n)
    g1 = g2 = g3 = 0.0
    for i in range(n):
        gi = (1.0 if i == 0 else 0.0) - b1 * g1 - b2 * g2 - b3 * g3
        g[i], g3, g2, g1 = gi, g2, g1, gi
    size = 1 << (2 * n - 1).bit_length()
    G = np.fft.rfft(g, size)

    def run(s):
        w = np.empty_like(s)
        w[3:] = a[0] * s[3:] + a[1] * s[2:-1] + a[2] * s[1:-2] + a[3] * s[:-3]
        w[0] = s[0]
        w[1] = s[1] + b1 * s[0]
        w[2] = s[2] + b1 * s[1] + b2 * s[0]
        return np.fft.irfft(np.fft.rfft(w, size, axis=0) * G[:, None], size, axis=0)[:n]
    return run(run(x)[::-1])[::-1].copy()


def _mean_rate(t):
    """The mean sampling rate (Hz) of the times t (at least two)."""
    return (len(t) - 1) / (t[-1] - t[0])


def _refuse_unusable_cutoff(t, cutoff_hz, named):
    """CutoffError in named's words (CutoffNamed: who gave cutoff_hz; None or negative: no
    filter, as in OpenSim) when OpenSim's filter cannot be reproduced at it on the times t:
    NaN, which OpenSim's test (cut-off >= 0) would leave unfiltered unsaid, or below
    MIN_IIR_CUTOFF_OF_NYQUIST of the Nyquist frequency of their mean rate. id_kinematics
    checks it, for every trial and setup as for its own callers."""
    if cutoff_hz is None:
        return
    if math.isnan(cutoff_hz):
        raise CutoffError(f"{named.said(cutoff_hz)}: expected a cut-off frequency in Hz, got "
                          "nan; give one, or None (or a negative one, OpenSim's -1) for no "
                          "filter")
    if cutoff_hz >= 0 and len(t) > 1:
        # OpenSim's own filter runs there: it is urdf2dyn's form of it that strays
        refuse_too_low_cutoff(cutoff_hz, _mean_rate(t), MIN_IIR_CUTOFF_OF_NYQUIST,
                              why="OpenSim's filter is not reproduced below", named=named)


def _refuse_below_the_floor_once_resampled(cutoff_hz, dt, smallest, named):
    """CutoffError in named's words (CutoffNamed) when cutoff_hz lies below the floor at
    1/dt, the rate OpenSim's filter runs at once it has resampled a table at its smallest
    step dt (smallest: where that step is). A row that almost repeats a time raises that rate
    far above the table's mean, at which _refuse_unusable_cutoff checks the cut-off first."""
    lowest = lowest_cutoff(1 / dt, MIN_IIR_CUTOFF_OF_NYQUIST)
    if cutoff_hz < lowest:
        raise CutoffError(f"{named.said(cutoff_hz)}: {cutoff_hz:g} Hz is too low for OpenSim's "
                          f"filter on this table: its smallest time step ({smallest}) makes "
                          f"OpenSim resample it every {dt:.3g} s ({1 / dt:g} Hz) before "
                          f"filtering, where OpenSim's filter is not reproduced below "
                          f"{lowest:g} Hz. Drop the row that almost repeats a time, or "
                          "resample the file at a regular step, or give a cut-off of at least "
                          f"{lowest:g} Hz (or {named.no_filter})")


def id_kinematics(t, q, cutoff_hz=None, *, named=CUTOFF_HZ):
    """Coordinates, velocities and accelerations as OpenSim's inverse-dynamics tool makes
    them from a coordinates table: t (N,), q (N, n) in rad / m. cutoff_hz: the setup's
    ``lowpass_cutoff_frequency_for_coordinates`` (None or negative: no filter).

    Returns (t, q, v, a) on the rows of the (padded, when filtered) table: N + 2 (N // 2)
    rows when filtered, N otherwise. With a filter, a table whose time steps are not all
    equal (to the last bit: times written with few decimals are not) is first resampled at
    its smallest step (:func:`resample`), as OpenSim does, which changes the rows. The
    derivatives are urdf2dyn's one estimator's, method "opensim" (the natural quintic
    spline). A NaN cutoff_hz, or one below MIN_IIR_CUTOFF_OF_NYQUIST of the Nyquist
    frequency (0 included), of the table's mean rate or of the rate it is resampled at, is
    refused (CutoffError, in the words of named: who gave cutoff_hz, CutoffNamed)."""
    t = np.asarray(t, dtype=float)
    q = np.asarray(q, dtype=float).reshape(len(t), -1)
    _refuse_unusable_cutoff(t, cutoff_hz, named)
    if cutoff_hz is not None and cutoff_hz >= 0:
        k = int(np.argmin(np.diff(t))) if len(t) > 1 else 0
        smallest = f"between t = {t[k]:.9g} and {t[min(k + 1, len(t) - 1)]:.9g} s"
        t, q = pad(t, q, len(t) // 2)
        dtmin = float(np.min(np.diff(t)))
        if (t[-1] - t[0]) / (len(t) - 1) - dtmin > np.finfo(float).eps:
            # as Storage::lowpassIIR does
            t, q = resample(t, q, dtmin, smallest, cutoff_hz=cutoff_hz, named=named)
            _refuse_below_the_floor_once_resampled(cutoff_hz, dtmin, smallest, named)
        q = lowpass_iir(dtmin, q, cutoff_hz)
    v, a = estimate_derivatives(t, q, method="opensim")
    return t, q, v, a


def resample(t, x, dt, smallest="the smallest", *, cutoff_hz=None, named=CUTOFF_HZ):
    """OpenSim's Storage::resample(dt, 5): the natural quintic spline of each column
    evaluated from t[0] in steps of dt (accumulated as OpenSim adds them) up to t[-1].
    Returns (t_new, x_new). smallest: where the table's smallest step is, for a refusal;
    cutoff_hz: the filter's cut-off it resamples for, a refusal then a CutoffError in the
    words of named, who gave it (CutoffNamed)."""
    t = np.asarray(t, dtype=float)
    x = np.asarray(x, dtype=float).reshape(len(t), -1)
    if (t[-1] - t[0]) / dt > 100000:                    # OpenSim's MAX_RESAMPLE_SIZE
        given = "" if cutoff_hz is None else f"{named.said(cutoff_hz)}: "
        refusal = ValueError if cutoff_hz is None else CutoffError      # in its giver's words
        raise refusal(f"{given}resampling {t[0]:g} .. {t[-1]:g} s every {dt:g} s would "
                         f"take more than 100000 samples: that smallest time step ({smallest}) "
                         f"is far below the mean step ({(t[-1] - t[0]) / (len(t) - 1):.3g} "
                         "s). OpenSim's filter then "
                         "coarsens the step, which urdf2dyn does not reproduce: drop the row "
                         "that almost repeats a time (OpenSim's RRA and CMC write such rows), "
                         "resample the file at a regular step, or run without the low-pass "
                         "filter" + ("" if cutoff_hz is None else f" ({named.no_filter})"))
    times, s = [], float(t[0])
    while s <= t[-1]:
        times.append(s)
        s += dt
    return np.array(times), natural_quintic(t, x, times)


def id_rows(t, time_range=None):
    """Indices of the rows OpenSim's inverse-dynamics tool computes and writes for a time
    range (t0, t1) over the table times t: from the last row at or before max(t0, t[0]) to
    the last row at or before min(t1, t[-1]) (Storage::findIndex)."""
    t = np.asarray(t, dtype=float)
    lo, hi = (-math.inf, math.inf) if time_range is None else map(float, time_range)
    start, final = max(t[0], lo), min(t[-1], hi)

    def find(x):
        return max(int(np.searchsorted(t, x, side="right")) - 1, 0)
    return np.arange(find(start), find(final) + 1)


def _state_path_notes(source, traj, model):
    """What OpenSim's tool does with a states table's coordinates (columns by state path,
    '/jointset/knee_r/knee_angle_r/value', as a forward simulation or Moco writes them): its
    InverseDynamicsTool matches columns by coordinate name only, so it holds each of them at
    its default value, while it reads the coordinates named plainly. urdf2dyn reads them all
    the same (the file says which coordinate each one is; torques of a pose nobody recorded
    help no one) and says how to make OpenSim's tool read them too, under the model's names
    (a mapping's). A path to a coordinate the model lacks is ignored by both (columns says
    so)."""
    read_as = dict(p for p in traj.meta.get("state_paths", ()) if p[1] in model.q_names)
    if not read_as:
        return []
    paths = list(read_as)
    by_name = [n for n in traj.names if n in model.q_names and n not in read_as.values()]
    shown = ", ".join(repr(p) for p in paths[:3]) + (", ..." if len(paths) > 3 else "")
    one = len(paths) == 1
    held = ("holds the coordinate it gives at its default value" if one else
            "holds every coordinate they give at its default value")
    if by_name:                 # OpenSim reads these: not the default pose
        named = ", ".join(repr(n) for n in by_name[:3]) + (", ..." if len(by_name) > 3 else "")
        held += f", while it reads those named plainly ({named})"
    else:
        held += " (its torques are those of the model standing still in its default pose)"
    first = paths[0]
    return [f"{source}: its {counted(len(paths), 'coordinate column')} ({shown}) "
            f"{'is' if one else 'are'} named by state path: OpenSim 4.6's InverseDynamicsTool "
            f"does not read such columns, and {held}; urdf2dyn read "
            f"{'it as the coordinate it names' if one else 'them as the coordinates they name'}. "
            "For OpenSim's tool to compute the same torques, rename each column to its "
            f"coordinate's name ({first!r} -> {read_as[first]!r})"]


def _missing_note(source, missing, tool):
    """What is said of the model's coordinates a coordinates file lacks, held at their
    default values: as OpenSim's InverseDynamicsTool holds them, and not as its RRATool, which
    holds them at 0 (formCompleteStorages: 'Did not find column ...')."""
    shown = f"{missing[:8]}{' ...' if len(missing) > 8 else ''}"
    if tool == "RRATool":
        return (f"{source}: no column for the coordinates {shown}: held at their default "
                "values (the model's <default_value>), where OpenSim 4.6's RRATool holds them "
                "at 0 (it logs 'Did not find column'), a pose that may be none (a pelvis "
                "height of 0): add them to the file for both to track the same pose")
    return (f"{source}: no column for the coordinates {shown}: held at their default values "
            "(the model's <default_value>), as OpenSim's inverse-dynamics tool does; add them "
            "to the file if they move")


@dataclass(frozen=True)
class OpenSimProcessing:
    """OpenSim's InverseDynamicsTool processing of a trial (``processing="opensim"``).

    Columns: a model coordinate the file lacks keeps its default value (an .osim's
    <default_value>), a column the model lacks is ignored, velocity columns are dropped
    (each said). Markers: an IK setup's coordinate_file is read in degrees whatever its
    header says and sampled through natural quintic splines, as OpenSim's
    InverseKinematicsTool reads it. Kinematics:
    :func:`id_kinematics` (the padded IIR filter, natural quintic splines; the derivative
    method is not used), then OpenSim's rows of the time range (:func:`id_rows`, padded rows
    included when the range reaches them). Loads:
    ExternalLoads data as natural cubic splines, never filtered (filter_loads is not used).
    Needs nq == nv (no quaternion)."""
    name: ClassVar[str] = "opensim"
    load_interpolation: ClassVar[str] = "spline"
    filters_loads: ClassVar[bool] = False
    #: An IK setup's coordinate_file is read in degrees whatever its header says, as OpenSim
    #: 4.6's InverseKinematicsTool reads it (urdf2dyn.biomech.ik.coordinate_task_values)
    ik_coordinate_file_units: ClassVar[str] = "degrees"
    #: ... and sampled at the marker frames through its natural quintic splines, unfiltered,
    #: as the tool does (GCVSplineSet(5, ...); urdf2dyn.biomech.splines.natural_quintic)
    ik_coordinate_file_interpolation: ClassVar[str] = "spline"

    def columns(self, source, traj, model, tool="InverseDynamicsTool"):
        """OpenSim's tool on a coordinates file: a model coordinate the file lacks keeps its
        default value (the .osim's <default_value>: the tool's Constant(getDefaultValue()); 0
        for a model without one), a column the model lacks is ignored; both are said. traj is
        changed in place (its rates are dropped: OpenSim differentiates the coordinates
        itself). tool: the OpenSim 4.6 tool whose reading is said, "InverseDynamicsTool"
        (columns named by state path are said: it does not read them) or "RRATool", whose
        desired kinematics go through SimbodyEngine::formCompleteStorages: it finds columns
        by state path too, and holds a coordinate the file lacks at 0, not at its default."""
        notes = [] if tool == "RRATool" else _state_path_notes(source, traj, model)
        names = list(traj.names)
        extra = [n for n in names if n not in model.q_names]
        missing = [n for n in model.q_names if n not in names]
        if extra:
            keep = [k for k, n in enumerate(names) if n in model.q_names]
            traj.q, traj.names = traj.q[:, keep], [names[k] for k in keep]
            notes.append(f"{source}: columns {extra[:8]}{' ...' if len(extra) > 8 else ''} "
                         f"are not coordinates of the model '{model.name}': ignored, as "
                         "OpenSim's inverse-dynamics tool ignores them")
        if missing:
            default = (model.default_q if model.default_q is not None
                       else np.zeros(len(model.q_names)))
            held = np.array([default[model.q_names.index(n)] for n in missing])
            traj.q = np.column_stack([traj.q, np.tile(held, (len(traj.time), 1))])
            traj.names = list(traj.names) + missing
            notes.append(_missing_note(source, missing, tool))
        if traj.v is not None or traj.a is not None:
            traj.v = traj.a = None
            traj.v_names = None
            notes.append(f"{source}: velocity/acceleration columns are not used: OpenSim's "
                         "inverse-dynamics tool differentiates the coordinates (natural quintic "
                         "splines)")
        return notes

    def output_order(self, model):
        """The order OpenSim's tool writes the generalized forces in: an .osim model's
        multibody tree order (model.multibody_order); None for a model that has none."""
        order = tuple(model.multibody_order)
        return order if order and sorted(order) == sorted(model.v_names) else None

    def padding(self, t, first, last, source, named=None):
        """What to say of the rows t computed for a motion that runs first .. last: those of
        the filter's padding (the coordinates mirrored beyond the motion) that OpenSim's rule
        for the motion's own time range would not keep (it keeps the last row at or before
        its start); OpenSim's tool computes and writes them when its time range reaches them.
        None when there are none. named: the caller's options, as the note advises them
        (ColumnOptions; default: the library's keywords)."""
        t = np.asarray(t, dtype=float)
        extra = len(t) - len(id_rows(t, (first, last)))
        if not extra:
            return None
        return (f"{source}: {counted(extra, 'row')} of the {t[0]:g} .. {t[-1]:g} s computed "
                f"{'are' if extra > 1 else 'is'} the filter's padding (the coordinates "
                f"mirrored beyond the motion's {first:g} .. {last:g} s), as OpenSim's "
                "inverse-dynamics tool computes and writes them when its time range reaches "
                "them; their moments are no motion's. To keep the motion's own rows, give the "
                f"time range {first:g} .. {last:g} s"
                + (named or LIBRARY_COLUMNS).said("time_range", " ({})", (first, last)))

    def kinematics(self, model, t, q, v, a, *, filter_hz, derivatives, time_range, source,
                   warn, filter_named=CUTOFF_HZ, columns_named=None):
        """(t, q, v, a, how the rates were found, the cutoff) as OpenSim's tool makes them:
        :func:`id_kinematics` on the coordinates, then its rows of the time range
        (:func:`id_rows`). filter_named: who gave filter_hz, as its refusals say
        (CutoffNamed); columns_named: the caller's options, as the warnings advise them
        (ColumnOptions; default: the library's keywords)."""
        if model.nq != model.nv:
            # in every caller's words: a command line's --processing, a library's keyword
            raise MotionError(f"{source}: OpenSim's processing needs one coordinate per degree "
                              f"of freedom (the model '{model.name}' has nq = {model.nq}, nv = "
                              f"{model.nv}: a quaternion joint, as a floating base adds); run "
                              "urdf2dyn's processing, the default")
        if len(t) < 6:
            raise MotionError(f"{source}: OpenSim's quintic splines need at least 6 samples, "
                              f"got {len(t)}")
        if filter_hz is not None and filter_hz >= 0:      # negative: no filter, as in OpenSim
            fs = _mean_rate(t)
            if filter_hz >= fs / 2:
                given = (filter_named.said(filter_hz) if filter_named.file else
                         f"{filter_named.name} {filter_hz:g}")
                warn(f"{source}: {given} Hz at or above half the sampling rate ({fs / 2:g} Hz):"
                     f" lowered to {0.49 * fs:g} Hz, as OpenSim does")
        try:
            t, q, v, a = id_kinematics(t, q, filter_hz, named=filter_named)
        except CutoffError:
            raise                                   # in the words of whoever gave the cut-off
        except ValueError as e:
            raise MotionError(f"{source}: {e}") from None
        rows = id_rows(t, time_range)
        if time_range is not None and (time_range[1] < t[0] or time_range[0] > t[-1]):
            t0, t1 = time_range
            warn(f"{source}: the time range {t0:g} .. {t1:g} s lies outside the table's "
                 f"{t[0]:g} .. {t[-1]:g} s: OpenSim's rule keeps the one row at "
                 f"t = {t[rows[0]]:g} s; check the time range"
                 + (columns_named or LIBRARY_COLUMNS).said("time_range", " ({})", (t0, t1)))
        t, q, v, a = t[rows], q[rows], v[rows], a[rows]
        turning = [name for name in model.turning_axis_joints()
                   if np.ptp(q[:, model.joint(name).q_index]) > 0]
        if turning:
            warn(f"{source}: {counted(len(turning), 'joint')} {turning} turn several rotation "
                 "axes with one coordinate, and they move: OpenSim's inverse dynamics computes "
                 "their velocity terms otherwise (Simbody's FunctionBased mobilizer; "
                 "docs/osim_models.rst, *Rajagopal's knee*), so these torques differ from "
                 "OpenSim's tool where they move (about 1 % of the legs' peaks on OpenCap's "
                 "walks); urdf2dyn's follow the mechanics")
        return t, q, v, a, "natural quintic spline (OpenSim)", filter_hz


#: The processings a trial can have, by name (``processing="opensim"``).
PROCESSINGS = {"urdf2dyn": Urdf2dynProcessing(), "opensim": OpenSimProcessing()}


def processing_named(processing: Any) -> Any:
    """The trial processing named (a key of PROCESSINGS), refused naming the argument when it
    is not one: the one check of a setup runner's ``processing=`` (ik, scale)."""
    if not isinstance(processing, str) or processing not in PROCESSINGS:
        raise ValueError(f"processing: expected 'urdf2dyn' or 'opensim', got {processing!r}")
    return PROCESSINGS[processing]
