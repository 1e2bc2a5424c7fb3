"""C3D motion-capture files: markers, force plates and events, through ezc3d.

``read_c3d(path)`` returns a :class:`C3D`: the markers (:class:`~urdf2dyn.biomech.Markers`,
metres, gaps as NaN), one :class:`Plate` per force plate (ground reaction force, centre of
pressure and free moment in the lab frame, at the marker rate) and the events.

What the C3D format says, and what is done with it (the C3D User Guide, Motion Lab Systems):

* reading: a structural check first (``_c3dcheck``: a corrupted file is refused naming the
  fault), then ezc3d in a reader process of its own (``_c3dread``: a file that crashes ezc3d
  is refused naming the signal, and cannot take the caller down). Parameters whose type is not
  the standard's are read leniently (Vicon Nexus stores EVENT:ICON_IDS as integers).
* one length unit for markers and plates: ``POINT:UNITS`` (mm, cm or m); when absent, mm as
  the standard says, unless the file's markers or plates are a lab's only in metres (then m,
  with one warning: ``_undeclared_unit``). Positions are returned in m.
* markers: ``POINT:LABELS`` (then ``LABELS2``, ... beyond 255 markers); a negative residual
  marks a point not seen in that frame, and so do coordinates that are exactly (0, 0, 0)
  (what many systems write for an occlusion): both become NaN. Vicon's subject prefix
  (``Subject01:LASI``, SUBJECTS:LABEL_PREFIXES) is removed, as models name the markers.
* analog channels: ``(stored - ANALOG:OFFSET) * ANALOG:SCALE * ANALOG:GEN_SCALE``, for data
  stored as floats as for integers (the Guide's ANALOG:SCALE: "the scale calculation applies to
  both Real (floating-point) and Integer formatted C3D files"; ezc3d and the ``c3d`` package
  apply it, and the float files of Qualisys Track Manager 2.7 and Vicon Workstation store
  volts and ADC counts), with OFFSET unsigned when ``ANALOG:FORMAT`` is 'UNSIGNED' and signed
  otherwise (ezc3d subtracts its absolute value: that is corrected). SCALE and OFFSET are
  required for every channel; a file without them (Motion Workshop's Shadow, or any other) has
  its markers read and its analog channels left unused, with a warning; a list shorter than
  the channels leaves the channels after it unused and the plates needing them out, named
  (_analog_calibration; ezc3d, which takes
  each channel's scale from the list unchecked, reads a copy with neutral values added:
  ``_c3dcheck.with_neutral_calibration``; that copy also adds a missing ``ANALOG:RATE``, the
  header's samples a frame times POINT:RATE, and a missing ``POINT:SCALE``, the header's
  scale: ezc3d lays the frames out from those parameters alone, the c3d package from the
  header). Values are in ``ANALOG:UNITS``
  (N, N·mm or N·m, mm or m; a channel without a known unit is taken in N, N·POINT:UNITS or
  POINT:UNITS, with a warning). Beyond 255 channels, ``LABELS``, ``SCALE``,
  ``OFFSET`` and ``UNITS`` continue in ``LABELS2``, ``SCALE2``, ... (ezc3d applies the scales).
* force plates (``FORCE_PLATFORM:TYPE``, ``CHANNEL``, ``CORNERS``, ``ORIGIN``, ``CAL_MATRIX``):
  type 1: Fx Fy Fz Px Py Tz (the centre of pressure measured by the plate); type 2: Fx Fy Fz Mx
  My Mz (about the transducer origin); type 4: the same six channels before calibration,
  ``[F; M] = CAL_MATRIX @ channels`` (where ANALOG:SCALE already holds CAL_MATRIX's diagonal,
  as Vicon Workstation writes, the channels are first reset to unscaled values, as the Guide
  requires, with a warning: ``_unscaled_calibration``); type 3 (Kistler): fx12 fx34 fy14 fy23
  fz1 fz2 fz3 fz4 with ``ORIGIN = (a, b, az0)`` the sensors' offsets. The plate frame has
  x = corner1 - corner2,
  y = corner1 - corner4, z = x × y (into the plate), its origin at the centre of the four
  corners; ``ORIGIN`` is the vector from the transducer to that centre (so its z is negative;
  one with a positive z is the opposite vector, AMTI's ``x0 y0 z0``, and is negated whole). The moment is moved to the surface centre
  (M + F × ORIGIN), and on the surface ``CoP = (-My/Fz, Mx/Fz, 0)`` and the free moment
  ``Tz = Mz - (CoPx Fy - CoPy Fx)`` about the plate's z. A Kistler plate's
  ``FORCE_PLATFORM:FPCOPPOLY`` correction of the centre of pressure is applied when present.
* resampling: the analog channels run at ``ANALOG:RATE``, an integer multiple of the marker
  rate; each marker frame gets the mean force and moment of its analog samples (a box filter,
  so no aliasing from picking one sample), and the centre of pressure and free moment are
  computed from those means.
* contact: where the force along the plate's upward normal is below ``threshold`` (20 N by
  default) there is no contact: the force and free moment are set to 0 and the centre of
  pressure to NaN (it is undefined there). A plate storing the action (see *sign*) has its
  contacts where the force points down into it by at least the threshold; which way a
  plate's loads point is told by their impulse (the sum of its samples beyond the
  threshold). A reading of the threshold the other way is a pull when it leaves the level
  the plate rests at (the median of its samples that are no load) by the threshold, or by
  six times its noise there where that is more, for at least 20 ms (a hand on a handle or
  rail, a foot clipped to a pedal): a contact, with a warning that the plate is pulled
  (``_pulls``, ``_check_pulled``);
  otherwise it is an unzeroed plate's offset, not a contact: left out, with a warning
  (``_load_sign``, ``_check_reads_against_its_loads``); one leaving that level as far for
  less than 20 ms is a glitch, left out with a warning naming it so (``_check_brief``).
* baseline: no baseline is subtracted (the Guide's ``FORCE_PLATFORM:ZERO`` is advisory, and
  ezc3d subtracts none either); a plate reading at least ``threshold`` during the frames ZERO
  declares unloaded was not zeroed, and gets a warning naming its level (``_check_zero_frames``);
  a ZERO naming frames the file does not hold (a trial cut after recording) is noted in
  ``C3D.meta["notes"]``, not warned about: that check cannot run, and nothing is found wrong
  (``_zero_range_note``). A plate reading one level of at least the threshold on every
  sample, never leaving it by the threshold, had nobody step on or off it; when that level
  is at most a tenth of the loads the file's other plates carry, it is the offset of a plate
  nobody stood on that was not zeroed: no contact on any sample, with a warning naming the
  level (``_steady_level``, ``_unloaded_steady_plates``). Beside no larger loads (other
  plates under ten times its level) it is read as any other plate is: somebody may stand
  still on it throughout (a static trial); beside no subject's load (the file's only plate,
  or its others never loaded or at one level lighter than a foot's) with a warning, when it
  is lighter than a foot standing still, that it may be unzeroed with nobody on it, the
  advice for a load pointing down into the plate following in the same warning, the
  file's other plates at one level named, with the sum of their levels and its own as a
  mass (a toddler standing with a foot on each of two plates reads as two unzeroed plates
  do: ``_steady_alone_warning``, ``_steady_company_words``). A plate resting between its loads
  at the threshold or beyond, the way they push, at most a tenth of its largest load, was
  not zeroed: its samples
  within the threshold of that level are no contact, with a warning
  (``_resting_beyond_threshold``, ``_check_rests_beyond_threshold``). A plate whose
  zero drifts the loads' way, resting on contacts for at least 0.5 s after resting lower
  before, keeps those contacts (a light load held still reads the same), with a warning
  naming the levels and times (``_quiet_windows``, ``_check_rest_drifting``).
* sign: the force returned is the one the C3D formulas give in the lab frame, which for the
  usual plates (AMTI, Bertec, Kistler) is the ground's reaction on the subject: upward during
  stance. A plate whose loaded force points down into it gets a warning naming the plate and
  what to do per axis (a file may invert only the vertical channels: Vicon Workstation's
  shd01 has Fz and Mz of the action's polarity and Fx, Fy, Mx, My of the reaction's; no
  parameter says so, so nothing is changed: ``_action_advice``).
* events: ``EVENT:LABELS``, ``CONTEXTS`` (e.g. Left/Right), ``TIMES`` (minutes, seconds) as
  seconds on the same clock as the frames: frame k (0-based from the file's first frame
  ``f0``, 0-based as ezc3d gives it) is at time ``(f0 + k) / POINT:RATE``.
* frames: everything is in the lab frame unless ``rotation`` is given
  (:func:`urdf2dyn.biomech.markers.rotation_matrix`): labs are usually z-up, OpenSim models y-up
  (``rotation="x:-90"``).
"""
from __future__ import annotations

import math
import os
import re
import tempfile
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..._input_bytes import refuse_devices
from ..._safe_files import note_input
from ...warn import missing_file, note as tell_note, report
from ..markers import LENGTH_UNITS, Markers, rotation_matrix
from ..processing import true_runs
from ..trajectory import MotionError
from . import _c3dread
from ._c3dcheck import check_c3d, with_neutral_calibration

__all__ = ["read_c3d", "write_grf", "grf_columns", "C3D", "Plate", "Event", "CONTACT_THRESHOLD"]

#: Below this force (N) along its normal a plate has no contact and no centre of pressure.
CONTACT_THRESHOLD = 20.0
# 'nt' / 'ntmm': the C3D format's own sample files (c3d.org Sample01, 02, 08) spell newtons so
_FORCE_UNITS = ("n", "newton", "newtons", "nt")
_MOMENT_UNITS = {"nm": 1.0, "n.m": 1.0, "n*m": 1.0, "nmm": 1e-3, "n.mm": 1e-3, "n*mm": 1e-3,
                 "ntmm": 1e-3}
_CHANNELS = {1: 6, 2: 6, 3: 8, 4: 6}


@dataclass
class Event:
    """One C3D event: its label (e.g. 'Foot Strike'), context (e.g. 'Left') and time (s)."""
    label: str
    context: str
    time: float


@dataclass
class Plate:
    """One force plate's loads, in the lab frame (or the rotated one), one row per sample.

    Attributes
    ----------
    number : int
        1-based, in FORCE_PLATFORM order.
    type : int
        FORCE_PLATFORM:TYPE (1-4).
    corners : ndarray, shape (4, 3)
        m.
    time : ndarray, shape (N,)
        s.
    force : ndarray, shape (N, 3)
        Ground reaction force, N; 0 where there is no contact.
    cop : ndarray, shape (N, 3)
        Centre of pressure on the plate's surface, m; NaN where there is no contact.
    moment : ndarray, shape (N, 3)
        Free moment about the centre of pressure (along the plate's normal), N·m; 0 where
        there is no contact.
    contact : ndarray of bool, shape (N,)
        The force along the upward normal is at least the threshold.
    normal : ndarray, shape (3,)
        The plate's upward unit normal.
    """
    number: int
    type: int
    corners: NDArray[np.float64]
    time: NDArray[np.float64]
    force: NDArray[np.float64]
    cop: NDArray[np.float64]
    moment: NDArray[np.float64]
    contact: NDArray[np.bool_]
    normal: NDArray[np.float64]

    def contacts(self):
        """The contiguous contacts as (first, last) sample indices, inclusive."""
        return [(start, stop - 1) for start, stop in true_runs(self.contact)]


@dataclass
class C3D:
    """A C3D file read: markers, force plates, events, and where it came from."""
    markers: Markers
    plates: list[Plate]
    events: list[Event]
    meta: dict[str, Any] = field(default_factory=dict)


# ============================================================================ reading

def _need_ezc3d():
    import importlib.util
    if importlib.util.find_spec("ezc3d") is None:
        raise ImportError("reading C3D files needs ezc3d: pip install \"urdf2dyn[c3d]\"")


def _param(params, group, name, default=None):
    g = params.get(group)
    if not isinstance(g, dict) or not isinstance(g.get(name), dict):
        return default
    return g[name].get("value", default)


def _texts(params, group, name):
    """A parameter's values as a list of str (numbers as their text), [] when absent."""
    v = _param(params, group, name)
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    return [str(x) for x in np.ravel(np.asarray(v, dtype=object))]


def _continued(params, group, name, read):
    """A parameter's values continued by NAME2, NAME3, ... (each read by read(params, group,
    name) as a list or 1-D array): a C3D parameter holds at most 255 values, so a file with
    more points (Vicon's full-body models: 332) or analog channels lists the rest in those,
    as the C3D User Guide says."""
    parts, k, more = [], 2, read(params, group, name)
    while len(more):
        parts.append(more)
        more, k = read(params, group, f"{name}{k}"), k + 1
    return parts


def _labels(params, group, name="LABELS"):
    """A group's LABELS (or UNITS, ...) continued by LABELS2, LABELS3, ..., stripped."""
    return [x.strip() for part in _continued(params, group, name, _texts) for x in part]


def _channel_numbers(params, name):
    """ANALOG:SCALE (or another number per channel) continued by SCALE2, ...: one value per
    analog channel."""
    def flat(params, group, name):
        return _numbers(params, group, name).ravel()
    parts = _continued(params, "ANALOG", name, flat)
    return np.concatenate(parts) if parts else np.zeros(0)


def _numbers(params, group, name, integer=False):
    """A parameter's values as an array of its own shape; empty when absent, text, or (for
    integer) not all finite integers: the callers then name it as missing."""
    v = _param(params, group, name)
    try:
        a = np.asarray(v if v is not None else [], dtype=float)
    except (TypeError, ValueError):
        return np.zeros(0, dtype=int if integer else float)
    if integer:
        if not np.all(np.isfinite(a)) or np.any(np.abs(a) > 2**31):
            return np.zeros(0, dtype=int)
        return a.astype(np.int64)
    return a


def _first(params, group, name, default):
    """A parameter's first value as a float, or default."""
    a = _numbers(params, group, name).ravel()
    return float(a[0]) if a.size else default


def _count(params, group, name):
    """A parameter's first value as a count (a USED): 0 where it is absent, not finite (a
    float parameter can hold NaN, which int() refuses without naming the file) or below 0."""
    used = _first(params, group, name, 0.0)
    return int(used) if np.isfinite(used) and used > 0 else 0


def read_c3d(path, rotation=None, threshold=CONTACT_THRESHOLD, rate="markers", strict=False):
    """Read a C3D file: markers (m), force plates (lab frame, SI units) and events.

    Parameters
    ----------
    path : str or os.PathLike
    rotation : None, (3, 3) array_like or str
        Lab to model frame, applied to markers and plates (see
        :func:`urdf2dyn.biomech.markers.rotation_matrix`; ``"x:-90"``: z-up lab to y-up
        model). None keeps the lab frame.
    threshold : float
        Contact threshold, N (see the module notes).
    rate : {"markers", "analog"}
        Plates at the marker rate (the mean of each frame's analog samples) or at the analog
        rate.
    strict : bool
        Raise instead of warning.

    Returns
    -------
    C3D

    Raises
    ------
    MotionError
        Naming the file (and plate or parameter): not a C3D file, truncated, a plate whose
        parameters are missing or inconsistent, an unknown plate type.
    ImportError
        Without ezc3d (pip install "urdf2dyn[c3d]").
    """
    _need_ezc3d()
    source = os.fspath(path)
    if not (isinstance(threshold, (int, float)) and np.isfinite(threshold) and threshold >= 0):
        raise ValueError(f"threshold: expected a force >= 0 N (e.g. 20), got {threshold!r}")
    if rate not in ("markers", "analog"):
        raise ValueError(f"rate: expected 'markers' or 'analog', got {rate!r}")
    refuse_devices(source, "C3D")
    if not os.path.isfile(source):
        raise MotionError(missing_file(source))
    note_input(source, "C3D")
    absent: list[str] = []
    short = check_c3d(source, absent=absent)   # ezc3d trusts the file's sizes: it could crash
    if short:
        report(short, strict=strict, error=MotionError)
    c = _ezc3d(source, absent)
    r = rotation_matrix(rotation)
    params = c["parameters"]
    units, declared = _length_unit(c, source, strict)
    markers = _markers(c, source, units, declared, strict)
    uncalibrated = _analog_calibration(params, source, strict)
    notes: list[str] = []       # what the reader could not check, with nothing found wrong
    plates = (_plates(c, source, markers, threshold, rate, strict, uncalibrated, notes)
              if uncalibrated is not None else [])
    events = _events(params, source)
    if rotation is not None:
        markers = markers.rotated(r)
        plates = [replace(p, corners=p.corners @ r.T, force=p.force @ r.T, cop=p.cop @ r.T,
                          moment=p.moment @ r.T, normal=r @ p.normal) for p in plates]
    missing = markers.missing()
    if missing:
        report(f"{source}: markers {missing} are missing in every frame", strict=strict,
               error=MotionError)
    segments = _labels(params, "ROTATION")[:_count(params, "ROTATION", "USED")]
    if segments and not markers.labels:
        report(f"{source}: {holdings(segments, plates)}", strict=strict, error=MotionError)
    for text in notes:          # kept in meta for a caller, told to a listener (the CLI)
        tell_note(text)
    return C3D(markers, plates, events, meta={"source": source, "rotation": r,
                                              "threshold": threshold, "segments": segments,
                                              "notes": notes})


def _ezc3d(source, absent):
    """ezc3d's reading of the file, in its reader process; absent: the parameters the file
    lacks (check_c3d), for which ezc3d reads a copy with them added
    (with_neutral_calibration): ANALOG:SCALE and OFFSET neutral, removed again from what it
    read; ANALOG:RATE and POINT:SCALE from the header, kept (they are the file's)."""
    path, added = source, []
    if absent:
        copy, added = with_neutral_calibration(source, absent)
        handle, path = tempfile.mkstemp(suffix=".c3d")
    try:
        if path != source:      # written inside: a failed write (a full disk) removes it too
            with os.fdopen(handle, "wb") as f:
                f.write(copy)
        c = _read_with_ezc3d(source, path)
    finally:
        if path != source:
            os.remove(path)
    for name in added:              # the neutral calibration is not the file's: removed
        if name.startswith(("SCALE", "OFFSET")):
            c["parameters"]["ANALOG"].pop(name, None)
    return c


def _read_with_ezc3d(source, path):
    """ezc3d's reading of path (source or its copy), its failures as MotionErrors naming
    source."""
    try:
        c = _c3dread.read(path)    # ezc3d, in a process of its own: it may crash
    except _c3dread.ReaderCrashed as e:
        raise MotionError(f"{source}: not a readable C3D file: ezc3d crashed reading it ({e}); "
                          "it is corrupted in a way the structural check does not name "
                          "(re-export it from the capture software)") from None
    except RuntimeError as e:        # what ezc3d raised, by type name and message
        kind, why = e.args[0], str(e.args[1])[:200]
        # ezc3d's advice names an option of its C++ API, which no command of ours takes
        why = re.sub(r"\s*If you want to ignore this error, set ignoreBadFormatting to true",
                     "", why)
        typed = re.fullmatch(r"(\w+) parameter is not (?:a |an )?(\w+)", why)
        if typed:                    # ezc3d insists on the standard's type
            raise MotionError(f"{source}: ezc3d cannot read it: parameter {typed[1]} is not "
                              f"stored as {typed[2].lower()} as the C3D standard has it (the "
                              "exporting software's deviation); re-export it, or convert it "
                              "with a C3D editor") from None
        raise MotionError(f"{source}: not a readable C3D file ({kind}: {why}); is it "
                          "truncated or corrupted?") from None
    return c


def holdings(segments, plates):
    """What a C3D file without POINT markers holds, and what to do, in words for its user:
    segments are its ROTATION:LABELS (a markerless system's 4x4 segment poses, such as
    Theia3D's), plates the force plates read."""
    said = "the file holds no POINT markers (POINT:USED 0)"
    if segments:
        names = ", ".join(segments[:4]) + (", ..." if len(segments) > 4 else "")
        said += (f"; it holds the poses of {len(segments)} segments in its ROTATION group "
                 f"({names}), as markerless systems such as Theia3D export them, which urdf2dyn "
                 "does not read")
    if plates:
        said += f"; its {len(plates)} force plate(s) were read (convert them to a .mot)"
    return (said + ". For motion, export markers (or the model's virtual markers) as POINT "
            "data from the capture software, or its joint angles as an OpenSim .mot")


def _length_unit(c, source, strict):
    """The file's one length unit, for its markers and its plates alike, and whether the file
    declares it (POINT:UNITS); without POINT:UNITS, mm as the standard says, unless mm makes
    the file's geometry no lab's and metres make it one (then m, with one warning)."""
    declared = [u.strip() for u in _texts(c["parameters"], "POINT", "UNITS")]
    if not (declared and declared[0]):
        return _undeclared_unit(c, source, strict), False
    units = declared[0]
    if units not in LENGTH_UNITS:
        spelled = _spelled_unit(units)
        if spelled is None:
            raise MotionError(f"{source}: POINT:UNITS {units!r} is not a length unit (expected "
                              f"one of {sorted(LENGTH_UNITS)})")
        report(f"{source}: POINT:UNITS {units!r} read as {spelled}", strict=strict,
               error=MotionError)
        units = spelled
    return units, True


def _undeclared_unit(c, source, strict):
    """'mm' (c3d.org, POINT:UNITS: "the default for this parameter must be mm"), or 'm' where
    the markers or plates are a lab's only in metres and nothing is one only in mm: many
    exporters write metres and leave POINT:UNITS out, and reading their markers in one unit
    and their plates in another would put the feet a thousand times off the plates."""
    in_mm, in_m = _geometry_evidence(c)
    if not in_m or in_mm:
        return "mm"
    report(f"{source}: the file declares no POINT:UNITS, and in mm (the C3D default) its "
           f"{' and '.join(in_m)}: every length (markers, plate corners, centres of pressure, "
           "moments) was read in m, in which they are a lab's; if the file is in mm after all, "
           "or to silence this, set POINT:UNITS in the file (in the capture software's "
           "export, or with a C3D editor)", strict=strict, error=MotionError)
    return "m"


def _geometry_evidence(c):
    """What the file's raw lengths say of its unit: (what is a lab's only in mm, what is one
    only in m), each a list of descriptions in mm. A lab is a few metres across (markers
    spanning 2 cm to 100 m) and a plate's sides are 1 cm to 10 m (_is_plate)."""
    params = c["parameters"]
    in_mm, in_m = [], []
    pts = np.asarray(c["data"]["points"], dtype=float)           # (4, M, N)
    xyz = pts[:3].reshape(3, -1)
    seen = np.all(np.isfinite(xyz), axis=0) & np.any(xyz != 0.0, axis=0)
    if pts.shape[0] > 3:
        seen &= ~(pts[3].reshape(-1) < 0)
    if pts.shape[1] > 1 and seen.sum() > 1:
        span = float(np.max(np.ptp(xyz[:, seen], axis=1)))
        if 0.02 <= span < 20.0:                 # in mm, under 2 cm; in m, 2 cm to 20 m
            in_m.append(f"markers span {span:.3g} mm")
        elif span > 100.0:                      # in m, beyond 100 m
            in_mm.append(f"markers span {span:.3g} mm")
    used = _first(params, "FORCE_PLATFORM", "USED", 0.0)
    corners = _numbers(params, "FORCE_PLATFORM", "CORNERS")
    origin = _numbers(params, "FORCE_PLATFORM", "ORIGIN")
    if not (np.isfinite(used) and corners.ndim == 3 and corners.shape[:2] == (3, 4)
            and origin.ndim == 2 and origin.shape[0] == 3):
        return in_mm, in_m
    for k in range(min(int(max(used, 0)), corners.shape[2], origin.shape[1])):
        box, orig = corners[:, :, k].T, origin[:, k]
        fits_mm = _is_plate(box * LENGTH_UNITS["mm"], orig * LENGTH_UNITS["mm"])
        fits_m = _is_plate(box, orig)
        if fits_m != fits_mm:
            sides = _sides(box)
            said = f"force plate {k + 1} is {sides[0]:.3g} x {sides[1]:.3g} mm"
            (in_m if fits_m else in_mm).append(said)
    return in_mm, in_m


def _markers(c, source, units, declared, strict):
    params = c["parameters"]
    pts = np.asarray(c["data"]["points"], dtype=float)          # (4, M, N)
    labels = _labels(params, "POINT")
    m, n = pts.shape[1], pts.shape[2]
    _say_leading_blanks(params, source, strict, m)
    if len(labels) < m:
        report(f"{source}: POINT:LABELS names {len(labels)} of {m} markers; the others are "
               "called M<k>", strict=strict, error=MotionError)
        labels += [f"M{k + 1}" for k in range(len(labels), m)]
    labels = labels[:m]
    prefix = _subject_prefix(params, labels)
    if prefix:
        labels = [x[len(prefix):] if x.startswith(prefix) else x for x in labels]
    xyz = np.moveaxis(pts[:3], 0, -1).transpose(1, 0, 2) * LENGTH_UNITS[units]   # (N, M, 3)
    res = c["data"].get("meta_points", {}).get("residuals")
    if res is not None and np.size(res) == m * n:
        res = np.asarray(res, dtype=float).reshape(m, n).T
        xyz[res < 0] = np.nan
    xyz[np.all(xyz == 0.0, axis=-1)] = np.nan
    f0 = int(c["header"]["points"]["first_frame"])
    labels, xyz = _one_point_per_label(labels, xyz, source, strict, first=f0 + 1)
    m = len(labels)
    prate = _first(params, "POINT", "RATE", 0.0)
    if not np.isfinite(prate):
        raise MotionError(f"{source}: POINT:RATE is {prate:g}; the markers cannot be timed")
    if m == 0 and not prate > 0:      # an analog-only file (plates, no cameras)
        return Markers(np.zeros(0), [], np.zeros((0, 0, 3)),
                       meta={"source": source, "units": units, "rate": 0.0, "first_frame": f0,
                             "units_declared": declared})
    if n and not prate > 0:
        raise MotionError(f"{source}: POINT:RATE is {prate:g}; the markers cannot be timed")
    time = (f0 + np.arange(n)) / prate if n else np.zeros(0)
    out = Markers(time, labels, xyz, meta={"source": source, "units": units, "rate": prate,
                                           "first_frame": f0, "label_prefix": prefix,
                                           "units_declared": declared})
    from .trc import check_units
    # without POINT:UNITS, metres come from the plates (markers that looked like metres would
    # not be warned about here): say so, not 'the format's default'
    how = declared if declared or units == "mm" else \
        "the file declares no POINT:UNITS; its force plates are a lab's only in it"
    check_units(out, source, units, strict=strict, declared=how)
    return out


def _say_leading_blanks(params, source, strict, count):
    """Say the marker labels (of the first count) that begin with a blank, which urdf2dyn
    reads without it: as OpenSim 4.6 reads them from a .trc (its TRCFileAdapter trims a
    label), but its C3DFileAdapter keeps it (ezc3d's pointNames), a name no marker of an
    OpenSim model can have. The blanks after a label are the C3D's padding: nobody keeps
    them."""
    raw = [x for part in _continued(params, "POINT", "LABELS", _texts) for x in part][:count]
    led = [x for x in raw if x.strip() and x != x.lstrip()]
    if not led:
        return
    shown = ", ".join(f"{x.rstrip()!r}: read as {x.strip()!r}" for x in led[:3])
    more = f" and {len(led) - 3} more" if len(led) > 3 else ""
    report(f"{source}: POINT:LABELS {shown}{more}, as OpenSim 4.6 reads such a label from a "
           ".trc; its C3DFileAdapter (its tools reading the .c3d itself) keeps the blank, "
           f"{led[0].rstrip()!r}, which matches no marker of a model. Rename the markers in "
           "the capture software for both to read the same names",
           strict=strict, error=MotionError)


def _one_point_per_label(labels, xyz, source, strict, first=1):
    """(labels, xyz) with each label once. A point without a label is called M<k> (its number
    in the file), never joined to another. Points sharing a label that are never seen in the
    same frame are fragments of one trajectory (Qualisys Track Manager exports a marker's
    labelled fragments so): they become that marker, each frame from the fragment seen there,
    said (a reused label would join two markers), and a hand-over where the joined marker
    leaves its neighbours is named (_wrong_joins). Points sharing a label that are seen
    together are different points: the second keeps its data as label#2 (the third
    label#3...), said too. first: the file's number of its first frame, to name frames."""
    blank = [k for k, x in enumerate(labels) if not x.strip()]
    if blank:
        labels = [f"M{k + 1}" if not x.strip() else x for k, x in enumerate(labels)]
        report(f"{source}: {len(blank)} point(s) have no label in POINT:LABELS: called "
               f"{', '.join(labels[k] for k in blank[:5])}{' ...' if len(blank) > 5 else ''} "
               "(their numbers in the file); label them in the capture software to use them",
               strict=strict, error=MotionError)
    columns: dict[str, list[int]] = {}
    for k, x in enumerate(labels):
        columns.setdefault(x, []).append(k)
    if len(columns) == len(labels):
        return labels, xyz
    merged, joined, overlapping, jumps = {}, [], [], []
    for x, ks in columns.items():
        seen = ~np.isnan(xyz[:, ks, 0])
        if len(ks) == 1 or seen.sum(axis=1).max(initial=0) <= 1:
            merged[ks[0]] = xyz[:, ks[0]].copy()
            for k, frames in zip(ks[1:], seen[:, 1:].T):
                merged[ks[0]][frames] = xyz[frames, k]
            if len(ks) > 1:
                joined.append(f"{x!r} ({len(ks)} points)")
                others = [k for k in range(xyz.shape[1]) if k not in ks]
                jumps += [f"{x!r} {j}" for j in _wrong_joins(xyz[:, ks], xyz[:, others],
                                                             first)]
        else:
            overlapping.append(f"{x!r} ({len(ks)} points)")
    out_labels, out_cols = [], []
    for k, x in enumerate(labels):          # in the file's order, each at its first point
        ks = columns[x]
        if k in merged:
            out_labels.append(x)
            out_cols.append(merged[k])
        elif len(ks) > 1 and ks[0] not in merged:
            i = ks.index(k)
            out_labels.append(x if i == 0 else f"{x}#{i + 1}")
            out_cols.append(xyz[:, k])
    if joined:
        report(f"{source}: the labels {', '.join(joined)} name points never seen at the same "
               "time: each label is read as one marker, its points joined as fragments of one "
               "trajectory (as Qualisys Track Manager exports them); if they are different "
               "markers, give them names of their own in the capture software (a wrong join "
               "shows where one fragment ends and the next begins: the marker jumps away from "
               "its neighbours there)", strict=strict, error=MotionError)
    if jumps:
        report(f"{source}: joined fragments that are probably different markers: "
               f"{'; '.join(jumps)}. The label was given to another marker in the capture "
               "software: relabel those frames there (or leave the marker out)",
               strict=strict, error=MotionError)
    if overlapping:
        report(f"{source}: the labels {', '.join(overlapping)} name points seen in the same "
               "frames, so they are different points: the second is kept as <label>#2 (the "
               "third as #3...); give them names of their own in the capture software",
               strict=strict, error=MotionError)
    return out_labels, np.stack(out_cols, axis=1)


#: Frames either side of a hand-over over which the neighbours' distances are measured.
_JOIN_WINDOW = 10
#: A neighbour is steady with the marker if its distance varies less than this (m) in the
#: frames before the hand-over ...
_STEADY = 0.003
#: ... and the join is wrong if each of the _NEAREST steady neighbours nearest to the marker
#: is further off than this (m) after it: skin moves a marker by millimetres relative to its
#: segment's other markers, while another marker sits centimetres away.
_MOVED = 0.02
_NEAREST = 3
#: Frames each side must be seen for steadiness to mean anything.
_JOIN_SEEN = 3


def _wrong_joins(parts, others, first):
    """Where fragments parts (N, P, 3) of one label hand over to a different marker: at each
    hand-over (the last frame of a stretch of frames one fragment is seen in, the first of
    the next stretch, another fragment's), the distances to the other points others (N, Q, 3)
    over the frames the first fragment is seen in just before it and the second just after
    it. The nearest neighbours whose distance was steady before (on the marker's segment, or
    the subject still) keep it after a true join; a hand-over where each of them moved by
    more than _MOVED is described ('frames 206 -> 212: its distance ... changes by 82 mm or
    more', numbered from first). A hand-over with no steady neighbour in view, or a stretch
    seen in fewer than _JOIN_SEEN frames next to it, cannot be judged and is not named."""
    out = []
    for end, start, before, after, a, b in _hand_overs(parts):
        if min(len(before), len(after)) < _JOIN_SEEN:
            continue                 # a stretch too short to say what is steady with it
        with np.errstate(all="ignore"):
            da = np.linalg.norm(others[before] - parts[before, a][:, None], axis=-1)
            db = np.linalg.norm(others[after] - parts[after, b][:, None], axis=-1)
            usable = np.all(np.isfinite(da), axis=0) & np.all(np.isfinite(db), axis=0)
            steady = np.flatnonzero(usable & (np.ptp(np.where(usable, da, 0.0), axis=0)
                                              < _STEADY))
            if not steady.size:
                continue             # nothing steady with it in view: the reader cannot tell
            near = steady[np.argsort(np.median(da[:, steady], axis=0))[:_NEAREST]]
            change = np.abs(np.median(db[:, near], axis=0) - np.median(da[:, near], axis=0))
        if change.min() > _MOVED:
            out.append(f"frames {first + end} -> {first + start}: its distance to each of "
                       f"its {near.size} nearest steady neighbours changes by "
                       f"{1e3 * change.min():.0f} mm or more")
    return out


def _hand_overs(parts):
    """Each place where the fragment seen changes from one seen frame to the next, in frame
    order, as (end, start, before, after, a, b): fragment a is last seen at frame end,
    fragment b first seen at frame start; before holds the frames of a's stretch ending at
    end, after those of b's stretch starting at start, each within _JOIN_WINDOW frames of
    the hand-over. Fragments sorted by their first frame would miss a fragment seen in
    another's gap (0-10, 12-18, 20-30 hand over twice), so the owner of every seen frame is
    followed instead; a window never reaches past its stretch into another fragment's."""
    seen = ~np.isnan(parts[..., 0])
    frames = np.flatnonzero(seen.any(axis=1))
    owner = np.argmax(seen[frames], axis=1)     # the fragment seen (the first, if several)
    changes = np.flatnonzero(owner[1:] != owner[:-1])
    bounds = np.concatenate([[0], changes + 1, [len(frames)]])   # stretches of one owner
    out = []
    for k, i in enumerate(changes):
        end, start = frames[i], frames[i + 1]
        own_before = frames[bounds[k]:i + 1]
        own_after = frames[i + 1:bounds[k + 2]]
        out.append((int(end), int(start), own_before[own_before > end - _JOIN_WINDOW],
                    own_after[own_after < start + _JOIN_WINDOW], owner[i], owner[i + 1]))
    return out


def _subject_prefix(params, labels):
    """Vicon's subject prefix ('Subject01:') of the marker labels, to be removed, or ''.

    Nexus and BodyBuilder name a subject's markers 'Subject:Marker' and declare the prefix in
    SUBJECTS:LABEL_PREFIXES (with USES_PREFIXES 1); models name them 'Marker'. One subject's
    prefix is removed from the labels that carry it (the subject is the whole trial); with two
    or more subjects, or where removing it would make two labels equal, nothing is."""
    declared = [x.strip() for x in _texts(params, "SUBJECTS", "LABEL_PREFIXES")]
    uses = _first(params, "SUBJECTS", "USES_PREFIXES", 1.0)
    declared = [x for x in declared if x]
    if declared and uses:
        if len(set(declared)) != 1:
            return ""
        prefix = declared[0]
    else:               # no SUBJECTS group: one 'Name:' shared by every label that has one
        heads = {x.split(":", 1)[0] + ":" for x in labels if ":" in x.strip(":")}
        if len(heads) != 1:
            return ""
        prefix = heads.pop()
    stripped = [x[len(prefix):] if x.startswith(prefix) else x for x in labels]
    carried = sum(x.startswith(prefix) for x in labels)
    if not carried or len(set(stripped)) < len(set(labels)) or carried * 2 < len(labels):
        return ""
    return prefix


def _spelled_unit(text):
    """A length unit written out, or cut short as Peak Performance writes 'mete' (4 bytes of
    'meters'): its symbol, else None."""
    t = text.strip().lower()
    for symbol, word in (("mm", "millimet"), ("cm", "centimet"), ("m", "met")):
        if len(t) >= 3 and (t.startswith(word) or word.startswith(t)):
            return symbol
    return None


def _events(params, source):
    labels = _texts(params, "EVENT", "LABELS")
    contexts = _texts(params, "EVENT", "CONTEXTS")
    times = _numbers(params, "EVENT", "TIMES")
    used = _count(params, "EVENT", "USED")
    if times.ndim != 2 or times.shape[0] != 2:
        return []
    n = min(used, times.shape[1], len(labels))
    out = [Event(str(labels[k]).strip(), str(contexts[k]).strip() if k < len(contexts) else "",
                 float(60.0 * times[0, k] + times[1, k])) for k in range(n)]
    return sorted(out, key=lambda e: e.time)


# ============================================================================ force plates

def _analog_calibration(params, source, strict):
    """The analog channels (0-based) without the ANALOG:SCALE or OFFSET the C3D User Guide
    requires of every channel ("Both the SCALE and OFFSET parameters must exist for every
    analog channel up to the value stored in the ANALOG:USED parameter"), or None when the
    file has none at all. The Guide defines no default, so such a channel has no physical
    value: it is not used, and the channels are named in a warning.

    Motion Workshop's Shadow writes neither parameter (ezc3d then assumes scale 1 and offset
    0, the c3d package too): no plate is read, and the markers are. A list shorter than the
    channels (ezc3d reads past its end, the c3d package fails, BTK gives the rest scale 1,
    silently: a channel in volts read as newtons) leaves the channels after it unused, and
    the plates that need them out (_plates); the others are read."""
    used = _count(params, "ANALOG", "USED")
    sizes = {name: _channel_numbers(params, name).size for name in ("SCALE", "OFFSET")}
    missing = [f"ANALOG:{name}" for name, size in sizes.items() if size == 0 and used]
    if missing:
        plates = _count(params, "FORCE_PLATFORM", "USED")
        lost = (f"its {plates} force plate(s) were left out" if plates else
                "the file declares no force plate, so it gives no ground reaction forces")
        report(f"{source}: {' and '.join(missing)} {'are' if len(missing) > 1 else 'is'} "
               f"missing for its {used} analog channels: the C3D format requires a scale and "
               "an offset for every channel and defines no default, so their values have no "
               f"known unit and were not used ({lost}); the markers were read. For forces, "
               "re-export the trial with the analog calibration from the capture software",
               strict=strict, error=MotionError)
        return None
    for name, size in sizes.items():
        if size < used:
            report(f"{source}: ANALOG:{name} lists {size} values for its {used} analog "
                   f"channels: {_channel_range(size, used)} have no {name.lower()}; the C3D "
                   "format requires one for every channel and defines no default, so those "
                   "channels were not used (a force plate that needs one is left out). "
                   "Re-export the trial with the analog calibration from the capture "
                   "software", strict=strict, error=MotionError)
    return set(range(min(sizes.values()), used))


def _channel_range(first, end):
    """Channels first..end-1 (0-based) as the file numbers them: 'channel 5', 'channels 5-9'."""
    return f"channel {end}" if end - first == 1 else f"channels {first + 1}-{end}"


def _standard_offsets(params, analogs):
    """The analog channels (C, S) with ANALOG:OFFSET applied as the C3D User Guide has it.

    ezc3d subtracts |OFFSET| read as a signed 16-bit integer; the Guide subtracts OFFSET itself,
    read as unsigned when ANALOG:FORMAT is 'UNSIGNED' (Vicon Workstation's files store offsets
    such as 32784, which ezc3d reads as |-32752|) and as signed otherwise (a negative offset is
    added). What ezc3d subtracted too much is added back: (|o| - OFFSET) * SCALE * GEN_SCALE.
    The c3d package applies the Guide's rule."""
    offsets = _channel_numbers(params, "OFFSET")
    scales = _channel_numbers(params, "SCALE")
    n = min(analogs.shape[0], offsets.size, scales.size)
    if n == 0:
        return analogs
    signed = offsets[:n]
    unsigned = [x.strip().upper() for x in _texts(params, "ANALOG", "FORMAT")][:1] == ["UNSIGNED"]
    standard = np.where(signed < 0, signed + 65536, signed) if unsigned else signed
    gen = _first(params, "ANALOG", "GEN_SCALE", 1.0)
    with np.errstate(all="ignore"):
        fix = (np.abs(signed) - standard) * scales[:n] * gen
    if not np.any(fix != 0):
        return analogs
    out = analogs.copy()
    out[:n] += np.where(fix != 0, fix, 0.0)[:, None]
    return out


def _plates(c, source, markers, threshold, rate, strict, uncalibrated=frozenset(),
            notes=None):
    params = c["parameters"]
    used = _count(params, "FORCE_PLATFORM", "USED")
    if used == 0:
        return []
    analogs = np.asarray(c["data"]["analogs"], dtype=float)
    analogs = analogs.reshape(analogs.shape[-2], analogs.shape[-1])        # (C, S)
    analogs = _standard_offsets(params, analogs)
    arate = _first(params, "ANALOG", "RATE", 0.0)
    aunits = _labels(params, "ANALOG", "UNITS")       # channels beyond 255 in UNITS2, ...
    punits = markers.meta["units"]
    prate = markers.meta["rate"]
    types = _numbers(params, "FORCE_PLATFORM", "TYPE", integer=True).ravel()
    channel = _numbers(params, "FORCE_PLATFORM", "CHANNEL", integer=True)
    corners = _numbers(params, "FORCE_PLATFORM", "CORNERS")
    origin = _numbers(params, "FORCE_PLATFORM", "ORIGIN")
    cal = _numbers(params, "FORCE_PLATFORM", "CAL_MATRIX")
    # stored as the C3D format does, first index fastest: 12 coefficients per plate
    poly = _numbers(params, "FORCE_PLATFORM", "FPCOPPOLY").ravel(order="F")
    if used > len(types):
        report(f"{source}: FORCE_PLATFORM:USED declares {used} force plates but "
               f"FORCE_PLATFORM:TYPE lists {len(types)}; the others were left out",
               strict=strict, error=MotionError)
        used = len(types)
    if not analogs.size:
        if not (np.isfinite(arate) and arate > 0):
            why = (f"ANALOG:RATE is {arate:g}, so no analog sample is read: set the analog "
                   "sampling rate in the capture software and re-export")
        else:
            why = ("the file holds no analog samples (ANALOG:USED "
                   f"{_first(params, 'ANALOG', 'USED', 0.0):g})")
        report(f"{source}: FORCE_PLATFORM:USED declares {used} force plates but {why}; the "
               "plates were left out", strict=strict, error=MotionError)
        return []
    if not (np.isfinite(arate) and arate > 0):
        report(f"{source}: ANALOG:RATE is {arate:g}: the force plates cannot be timed; set the "
               "analog sampling rate in the capture software and re-export; the plates were "
               "left out", strict=strict, error=MotionError)
        return []
    note = _zero_range_note(c, source)
    if note and notes is not None:
        notes.append(note)
    ascale = _channel_numbers(params, "SCALE")
    gen = _numbers(params, "ANALOG", "GEN_SCALE").ravel()
    labels = _labels(params, "ANALOG")
    platforms = _PlatformParameters(types, channel, corners, origin, cal, poly, analogs,
                                    aunits, ascale, punits,
                                    markers.meta.get("units_declared", True), labels, gen,
                                    frozenset(uncalibrated))
    options = _PlateOptions(threshold, rate, strict, arate, prate, c["header"], params)
    read = []
    for k in range(used):
        where = f"{source}: force plate {k + 1}"
        try:
            read.append(_plate(k, where, platforms, options))
        except MotionError as e:
            report(f"{e}; the plate was left out", strict=strict, error=MotionError)
    return _unloaded_steady_plates(read, threshold, source, strict)


def _largest_load(plate):
    """N: the largest force a plate's contacts read along its normal (0 without any); a
    channel read as NaN on a sample leaves the other components' share of that sample."""
    with np.errstate(all="ignore"):
        along = np.abs(np.nansum(plate.force * plate.normal, axis=1))
    return float(np.max(np.where(np.isfinite(along), along, 0.0), initial=0.0))


#: A plate reading one level throughout is the offset of a plate that was not zeroed when
#: that level is at most this fraction of the loads the file's other plates carry.
_OFFSET_FRACTION = 0.1


def _unloaded_steady_plates(read, threshold, source, strict):
    """The plates read (read: their _PlateLoads), those that read one level throughout (their
    _SteadyPlate, _steady_level) and are small against the other plates' loads left with no
    contact, with a warning: nobody stepped on or off them and they were not zeroed.

    A steady plate tells nothing by itself: nobody on a plate not zeroed, or somebody
    standing still on it for the whole trial. The subject's loads on the other plates tell
    them apart: the offsets of published trials are 2-4 % of the stance loads on the other
    plates (OpenSim's walking2.c3d: -14 and -20 N against 750-950 N; c3d.org's Sample01: 21
    and 31 N against 770-840 N), while a foot standing still carries a good part of the
    body's weight. Beside no larger loads the plate is left as it reads, with the advice its
    direction called for, if any; beside no subject's load (_shows_a_subject: the file's
    only plate, or its others never loaded or at one level lighter than a foot's) with a
    warning too (_steady_alone_warning), naming the other plates read at one level."""
    def others_largest(r):
        return max((_largest_load(q.plate) for q in read if q is not r), default=0.0)
    held = {r.plate.number: r.steady.level for r in read if r.steady is not None
            and abs(r.steady.level) > _OFFSET_FRACTION * others_largest(r)}
    out = []
    for r in read:
        p, still = r.plate, r.steady
        if still is None:
            out.append(p)
            continue
        level = still.level
        others = others_largest(r)
        if p.number in held:
            alone = not any(_shows_a_subject(q) for q in read if q is not r)
            company = {n: other for n, other in held.items() if n != p.number}
            said = (_steady_alone_warning(p, still, threshold, source, company) if alone
                    else None)
            if said or still.advice:
                report(said or f"{source}: force plate {p.number}: {still.advice}",
                       strict=strict, error=MotionError)
            out.append(p)
            continue
        report(f"{source}: force plate {p.number}: it reads {level:+.3g} N along its upward "
               f"normal {_on_all_samples(still)}, never leaving that level by the "
               f"{threshold:g} N threshold, while the file's other plates carry up to "
               f"{others:.0f} N: nobody stepped on or off it, and it was not zeroed. Its "
               "samples are read as no contact. Zero the plate in the capture software "
               "before recording, or name frames with nobody on it in FORCE_PLATFORM:ZERO "
               f"(then a warning names its offset), or read with a threshold above "
               f"{abs(level):.0f} N", strict=strict, error=MotionError)
        out.append(replace(p, force=np.zeros_like(p.force), cop=np.full_like(p.cop, np.nan),
                           moment=np.zeros_like(p.moment),
                           contact=np.zeros_like(p.contact)))
    return out


def _shows_a_subject(loads):
    """Whether a plate's loads (its _PlateLoads) show a subject was on the plates: it carries
    a load that comes and goes, or one it holds throughout (its _SteadyPlate) as heavy as a
    foot standing still (_LIGHTEST_STANDING_FOOT). A lighter level held throughout may be
    an offset itself: two unzeroed plates nobody stepped on would each pass for the
    other's subject."""
    if loads.steady is not None:
        return abs(loads.steady.level) >= _LIGHTEST_STANDING_FOOT
    return _largest_load(loads.plate) > 0


#: N; with no other plate's loads to weigh it against, a plate reading one level throughout
#: may be unzeroed with nobody on it up to this level: a foot standing still carries more
#: (a 20 kg child's on one foot, half its weight, 98 N; tests/data/real_lab's static.c3d,
#: a 41.5 kg child, reads 186 and 205 N a foot), while unzeroed plates in published trials
#: rest at 14-34 N (OpenSim's walking2.c3d, c3d.org's Sample01).
_LIGHTEST_STANDING_FOOT = 98.0


def _on_all_samples(still):
    """'on all N of its samples' of a plate reading one level throughout (still: its
    _SteadyPlate), saying how many it has in all when some are NaN: the level holds on
    the samples with a reading only."""
    if still.samples == still.total:
        return f"on all {still.samples} of its samples"
    return f"on all {still.samples} finite samples of its {still.total}"


def _samples_carrying(plate, still, threshold):
    """'on every sample' a plate reading one level throughout (still: its _SteadyPlate) is
    read as contact on, else on how many of its samples, those without it counted apart:
    the NaN ones have no reading, the finite ones left read under the threshold (a level
    held within the threshold of itself may dip under it), so no contact and no force."""
    carrying, total = int(plate.contact.sum()), len(plate.contact)
    if carrying == total:
        return "on every sample"
    missing = still.total - still.samples
    light = total - carrying - missing
    apart = [f"its {missing} NaN {'one' if missing == 1 else 'ones'}" if missing else "",
             f"{light} finite {'one' if light == 1 else 'ones'} under the {threshold:g} N "
             "threshold" if light else ""]
    none = " nor on ".join(words for words in apart if words)
    return f"on {carrying} of its {total} samples" + (f" (none on {none})" if none else "")


#: m/s^2, the gravity a subject's weight on the plates is turned into a mass with (the lab's
#: own is within 0.3 % of it anywhere on Earth).
_GRAVITY = 9.81


def _steady_company_words(level, company):
    """(sentence, advice) a lone steady plate's warning (_steady_alone_warning) says of the
    file's other plates kept at one level throughout (company: {number: level N}), both ''
    with none. Two plates each lighter than a foot read the same whether they are unzeroed
    with nobody on them or carry a subject lighter than 20 kg standing still, a foot on
    each (a 15 kg toddler: 74 N a plate): the file holds nothing that tells the two apart
    (a still foot's centre of pressure stays near one point, and so does an unzeroed
    plate's, its moment offsets over its force offset), so the sentence names the other
    readings and, all pushing up, their sum with this plate's as the mass of a subject
    standing on them, which the user knows; the advice says such a subject is read
    right."""
    if not company:
        return "", ""
    numbers = sorted(company)
    named = (str(numbers[0]) if len(numbers) == 1 else
             ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}")
    plates = f"Force plate {named} reads" if len(numbers) == 1 else f"Force plates {named} read"
    readings = ", ".join(f"{company[n]:+.3g} N" for n in numbers)
    sentence = f" {plates} one level throughout too ({readings})"
    levels = [level] + [company[n] for n in numbers]
    if min(levels) <= 0:
        return sentence + ".", ""
    mass = sum(levels) / _GRAVITY
    child = " (a small child with a foot on each)" if len(levels) == 2 else ""
    return (f"{sentence}: with this plate, together {sum(levels):+.3g} N, the weight of "
            f"{mass:.3g} kg standing still.",
            f". If a subject of {mass:.3g} kg stood still on the plates throughout{child}, "
            "they are read right")


def _steady_alone_warning(plate, still, threshold, source, company):
    """The warning (str) that a plate reading one level throughout (_steady_level), beside no
    subject's load on another plate (_shows_a_subject), is read as contact though it may be an
    unzeroed plate nobody stepped on: with nothing to weigh the level against
    (_unloaded_steady_plates), only a level lighter than a foot standing still
    (_LIGHTEST_STANDING_FOOT) says it may be an offset, and even then the file cannot tell
    it from a light load held still for the whole trial: the samples stay as they read and
    the user is told both. A recording shorter than a load lasts (_SHORTEST_PULL:
    FP_Type3.c3d's 2 frames, 8 ms) is too short to show anybody stepping on or off; its
    length is its analog samples' (still: the plate's _SteadyPlate), the same at either
    rate the plate is returned at (two frames at 60 Hz lie 17 ms apart, their 20 analog
    samples at 600 Hz last 33 ms). None when there is nothing to say.

    A level pointing down into the plate also called for the advice about its direction
    (still.advice, _direction_words), which is the second reading's: one warning says both,
    the likelier first, so that --strict refuses the plate with what it most likely is (an
    unzeroed plate's offset is as likely to point down as up: OpenSim's walking2.c3d rests
    at -14 and -20 N).

    company ({number: level N}): the file's other plates kept at one level throughout, named
    with the mass of their levels' sum and its own (_steady_company_words)."""
    level = still.level
    if abs(level) >= _LIGHTEST_STANDING_FOOT or still.seconds < _SHORTEST_PULL * (1 - 1e-9):
        return None
    above = math.ceil(_largest_load(plate))             # the threshold that reads no contact
    held = (f". If a load held still on it throughout did read so instead: {still.advice}"
            if still.advice else "")
    together, light_subject = _steady_company_words(level, company)
    return (f"{source}: force plate {plate.number}: it reads {level:+.3g} N along its upward "
            f"normal {_on_all_samples(still)}, never leaving that level by the "
            f"{threshold:g} N threshold, and no other plate of the file carries a subject's "
            "load (coming and going, or a foot's) to weigh that level against: lighter than a "
            f"foot standing still ({_LIGHTEST_STANDING_FOOT:g} N), it reads as a plate nobody "
            "stepped on that was not zeroed does, or a light load held still on it for the "
            f"whole trial.{together} Its samples are read as contact, as they read: torques "
            f"from this file's loads carry {abs(level):.3g} N "
            f"{_samples_carrying(plate, still, threshold)}"
            ", at its centre of pressure (under the foot if somebody stood on it, wandering as "
            "noise if nobody did), on the foot nearest it (within 0.25 m; else dropped, with "
            "a warning). If nobody stood on it, zero the plate in the capture software before "
            "recording, or name frames with nobody on it in FORCE_PLATFORM:ZERO, or read with "
            f"a threshold above {above} N" + light_subject + held)


def _check_calibrated(ch, where, platforms, options):
    """Refuse a plate (MotionError) if one of its channels ch (0-based, _listed_channels) has
    no ANALOG:SCALE or OFFSET (platforms.uncalibrated: _analog_calibration has said which)."""
    lacking = [int(i) for i in ch if i in platforms.uncalibrated]
    if not lacking:
        return
    names = [name for name in ("SCALE", "OFFSET")
             if _channel_numbers(options.parameters, name).size <= max(lacking)]
    named = _channels_said(_channel_names(lacking, platforms.labels))
    raise MotionError(f"{where}: its {named} {'has' if len(lacking) == 1 else 'have'} no "
                      f"{' or '.join('ANALOG:' + n for n in names)}, so its loads cannot be "
                      "computed; re-export the trial with the analog calibration from the "
                      "capture software")


def _channels_said(names):
    """'channel 8 (Fz1)' or 'channels 7 (Fy1), 8 (Fz1)': one channel is not a plural."""
    return f"channel{'s' if len(names) > 1 else ''} {', '.join(names)}"


def _channel_names(ch, labels):
    """0-based channels ch as a message names them: 1-based, with their ANALOG:LABELS."""
    return [f"{i + 1} ({labels[i]})" if i < len(labels) and labels[i] else str(i + 1)
            for i in ch]


def _check_channels(ch, where, platforms, options):
    """A plate whose channels ch (0-based, _listed_channels, each one of the file's:
    _check_in_the_file) are not numbers: refused naming the parameter that made them so (a
    NaN ANALOG:SCALE or GEN_SCALE), or warned about (samples the file itself left NaN)."""
    analogs, ascale, gen = platforms.analogs, platforms.ascale, platforms.gen_scale
    bad = ~np.isfinite(analogs[ch])              # (channels, samples)
    if not bad.any():
        return
    name = _channel_names(ch, platforms.labels)
    dead = [j for j in range(len(ch)) if bad[j].all()]
    if dead and not np.all(np.isfinite(gen)):
        raise MotionError(f"{where}: ANALOG:GEN_SCALE is {gen[0]:g}, which makes every analog "
                          "channel NaN; fix it in the capture software and re-export")
    # the scale said is one that made a channel NaN: another may be NaN in the file itself
    scaled = [j for j in dead if ch[j] < len(ascale) and not np.isfinite(ascale[ch[j]])]
    if scaled:
        one = len(scaled) == 1
        # each channel's own scale: an infinite one beside a NaN one is not one value
        said = [f"{ascale[ch[j]]:g}" for j in scaled]
        scales = said[0] if len(set(said)) == 1 else f"{', '.join(said)} respectively"
        raise MotionError(f"{where}: ANALOG:SCALE of its "
                          f"{_channels_said([name[j] for j in scaled])} is {scales}, so "
                          f"{'that channel is' if one else 'those channels are'} NaN and the "
                          "plate's loads cannot be computed; fix the scale in the capture "
                          "software and re-export")
    n = int(bad.any(axis=0).sum())
    report(f"{where}: {n} of its {bad.shape[1]} analog samples are NaN or infinite in "
           f"{_channels_said([name[j] for j in range(len(ch)) if bad[j].any()])}; they are "
           "read as no contact (force 0, no centre of pressure)", strict=options.strict,
           error=MotionError)


def _sides(box):
    """The lengths of the sides of the quadrilateral box (4, 3), corner to corner."""
    return np.linalg.norm(box - np.roll(box, 1, axis=0), axis=1)


def _is_plate(box, orig):
    """Whether corners box (4, 3) and origin orig (3,), in m, can be a force plate's: finite,
    sides from 1 cm to 10 m, within 1 km of the lab's origin, origin within 10 m."""
    if not (np.all(np.isfinite(box)) and np.all(np.isfinite(orig))):
        return False
    side = _sides(box)
    return bool(np.all(np.abs(box) <= 1e3) and np.all(side >= 0.01) and np.all(side <= 10.0)
                and np.all(np.abs(orig) <= 10.0))


def _unit_making_a_plate(corners, origin, punits):
    """The length unit other than punits in which corners (4, 3) and origin (3,) are a
    plate's, the one giving sides nearest a lab plate's half metre; None if there is none
    (the calibration is corrupted, not the unit wrong)."""
    fits = [u for u, f in LENGTH_UNITS.items()
            if u != punits and _is_plate(corners * f, origin * f)]
    if not fits:
        return None
    return min(fits, key=lambda u: abs(math.log(np.max(_sides(corners * LENGTH_UNITS[u]))
                                                / 0.5)))


def _plate(k, where, platforms, options):
    """The _PlateLoads of plate k (0-based) from the file's FORCE_PLATFORM parameters and
    analog channels (platforms: _PlatformParameters), read as options (_PlateOptions) say;
    refused (MotionError) when its parameters cannot place it or turn its channels into
    loads."""
    ptype, ch = _listed_channels(k, where, platforms)
    _check_in_the_file(ch, where, platforms)
    _check_calibrated(ch, where, platforms, options)
    _check_channels(ch, where, platforms, options)
    _check_corners_given(k, where, platforms)
    cm = _plate_calibration(k, where, ptype, ch, platforms, options.strict)
    box, orig = _plate_box(k, where, platforms)
    frame = _plate_frame(box, where)
    raw = _plate_channel_values(ptype, ch, where, platforms, options)
    with np.errstate(all="ignore"):
        f, m = _plate_wrench(ptype, raw, orig, cm, LENGTH_UNITS[platforms.punits])
    poly = platforms.poly
    kpoly = poly[12 * k:12 * k + 12] if ptype == 3 and len(poly) >= 12 * (k + 1) else None
    above = box.mean(axis=0) - frame[:, :2] @ _centre_offset(orig)[:2] if ptype in (2, 4) \
        else None
    site = _PlateSite(k + 1, ptype, box, frame, kpoly, platforms.punits, above, where)
    return _plate_loads(site, f, m, options)


def _listed_channels(k, where, platforms):
    """(type, the analog channels 0-based FORCE_PLATFORM:CHANNEL lists for plate k: its
    type's), refused (MotionError) when FORCE_PLATFORM:TYPE gives no type read here or the
    list holds fewer channels than the type's (none without a column for the plate). A short
    list, or one naming a channel outside the file (_check_in_the_file), is refused before
    the listed channels' calibration and values are checked: a user who recalibrated them
    would meet this refusal next, and the channels the fixed list names may need
    calibrating too."""
    types, channel = platforms.types, platforms.channel
    if k >= len(types):
        raise MotionError(f"{where}: FORCE_PLATFORM:TYPE has {len(types)} entries, fewer "
                          "than FORCE_PLATFORM:USED")
    ptype = int(types[k])
    if ptype not in _CHANNELS:
        raise MotionError(f"{where}: FORCE_PLATFORM:TYPE {ptype} is not supported (types "
                          "1 to 4 are)")
    nch = _CHANNELS[ptype]
    listed = (channel[:nch, k] - 1 if channel.ndim == 2 and channel.shape[1] > k else
              np.zeros(0, dtype=np.int64))
    if len(listed) < nch:
        raise MotionError(f"{where}: FORCE_PLATFORM:CHANNEL does not list the {nch} "
                          f"channels of a type-{ptype} plate ({_listed_words(listed)}); set "
                          "the plate's type and channels in the capture software and "
                          "re-export")
    return ptype, listed


def _listed_words(listed):
    """What FORCE_PLATFORM:CHANNEL lists for a plate (listed: its channels 0-based), as the
    file numbers them. A list with no column for the plate (a CHANNEL of fewer columns
    than FORCE_PLATFORM:USED, or of one dimension, which ezc3d refuses too) lists none."""
    if not len(listed):
        return "it has no column for it"
    return f"it lists {[int(i) for i in listed + 1]} for it"


def _check_in_the_file(ch, where, platforms):
    """Refuse a plate (MotionError) unless each of its channels ch (_listed_channels) is
    one of the file's."""
    analogs = platforms.analogs
    if np.any(ch < 0) or np.any(ch >= analogs.shape[0]):
        raise MotionError(f"{where}: FORCE_PLATFORM:CHANNEL {[int(i) for i in ch + 1]} names "
                          f"analog channels outside 1..{analogs.shape[0]} (the file's "
                          f"{analogs.shape[0]} channels); re-export the trial with the "
                          "plate's analog channels from the capture software (or, if the "
                          "plate was not used, without the plate)")


def _check_corners_given(k, where, platforms):
    """Refuse plate k (MotionError) when FORCE_PLATFORM:CORNERS or ORIGIN has no entry for
    it."""
    corners, origin = platforms.corners, platforms.origin
    if corners.ndim != 3 or corners.shape[:2] != (3, 4) or corners.shape[2] <= k:
        raise MotionError(f"{where}: FORCE_PLATFORM:CORNERS does not give its 4 corners; "
                          "without them the plate cannot be placed in the lab")
    if origin.ndim != 2 or origin.shape[0] != 3 or origin.shape[1] <= k:
        raise MotionError(f"{where}: FORCE_PLATFORM:ORIGIN does not give its origin")


def _plate_calibration(k, where, ptype, ch, platforms, strict):
    """A type-4 plate's CAL_MATRIX as it applies to its channels ch (_unscaled_calibration),
    refused (MotionError) when the file does not give it; None for the other types."""
    if ptype != 4:
        return None
    cal = platforms.cal
    if cal.ndim != 3 or cal.shape[:2] != (6, 6) or cal.shape[2] <= k:
        raise MotionError(f"{where}: a type-4 plate needs its 6x6 "
                          "FORCE_PLATFORM:CAL_MATRIX, which the file does not give; "
                          "without it the channels cannot be turned into forces")
    cm = cal[:, :, k]            # CAL[i, j]: channel j's share of output i (ezc3d's order)
    return _unscaled_calibration(cm, platforms.ascale, ch, where, strict, platforms.labels)


def _plate_box(k, where, platforms):
    """(corners (4, 3), origin (3,)) of plate k in m, refused (MotionError) when they are no
    plate's, naming the POINT:UNITS they would be one's in (_unit_making_a_plate)."""
    corners, origin, punits = platforms.corners, platforms.origin, platforms.punits
    scale = LENGTH_UNITS[punits]
    box = corners[:, :, k].T * scale
    orig = origin[:, k] * scale
    if _is_plate(box, orig):
        return box, orig
    sides = np.array2string(_sides(box), precision=3)
    unit = _unit_making_a_plate(corners[:, :, k].T, origin[:, k], punits)
    if unit:
        said = (f"the file's POINT:UNITS '{punits}'" if platforms.units_declared else
                f"'{punits}', the C3D default (the file declares no POINT:UNITS)")
        raise MotionError(f"{where}: FORCE_PLATFORM:CORNERS and ORIGIN are not a plate's "
                          f"in {said} (sides {sides} m), but are in '{unit}': POINT:UNITS "
                          "is probably wrong; fix it in the file (or the capture "
                          "software's export)")
    raise MotionError(f"{where}: FORCE_PLATFORM:CORNERS or ORIGIN is not a plate's "
                      f"(sides {sides} m); the plate's calibration in the file is missing "
                      "or corrupted")


def _plate_channel_values(ptype, ch, where, platforms, options):
    """(samples, channels): the plate's channels ch (0-based) in N, N·m and m as ANALOG:UNITS
    says (_channel_scales); a type-4 plate's as stored, which its CAL_MATRIX takes to N and
    N·(POINT:UNITS)."""
    if ptype == 4:
        return platforms.analogs[ch].T
    aunits = platforms.aunits
    units = [aunits[i] if i < len(aunits) else None for i in ch]
    labels = platforms.labels
    unsaid = "; ".join(words for words in (_unlisted_units(ch, len(aunits), labels),
                                           _blank_units(ch, units, labels, options.parameters))
                       if words)
    return platforms.analogs[ch].T * _channel_scales(ptype, units, platforms.punits, where,
                                                     options.strict, unsaid)


def _unscaled_calibration(cm, ascale, ch, where, strict, labels):
    """The type-4 plate's CAL_MATRIX cm as it applies to its channels ch (0-based, named with
    their ANALOG:LABELS labels) scaled by ascale (ANALOG:SCALE): cm itself, unless the scales
    already hold its diagonal.

    The C3D User Guide (FORCE_PLATFORM:CAL_MATRIX): "When the CAL_MATRIX parameter is present
    for TYPE-2 and TYPE-4 plates, all software applications must reset the scaling data stored
    in the appropriate ANALOG:SCALE parameters to their 'unscaled' values before applying the
    CAL_MATRIX". Vicon Workstation stores such scaled values: SCALE[j] = CAL[j, j] * u, one
    unscaled u for the three force channels and one for the three moment channels, so its
    channels read N and N·mm already and CAL_MATRIX applied to them counts each sensitivity
    twice (a standing subject of 74 kg read as 417 kg). The fingerprint is six ratios in two
    equal groups while the scales differ within each group: no accident of unscaled volts or
    counts (those have one scale for all six channels, as Motion Analysis Cortex writes, or
    one per group of three, which agrees with any diagonal constant per group).

    The unscaled value is one for all six channels (the force group's ratio r_F per stored
    unit: CAL_MATRIX maps one input unit to N and N·m); the moment group's ratio r_M differs
    from it by the unit of the scaled moments (r_M / r_F = 1000: N·m to N·mm). So channel j
    is multiplied by r_F / SCALE[j] before CAL_MATRIX and the moments after it by r_M / r_F,
    back in the channels' N·(POINT:UNITS): the diagonal gives each channel back unchanged and
    the off-diagonal terms correct the cross-talk in consistent units."""
    if len(ch) != 6 or np.max(ch) >= len(ascale):
        return cm
    scales = np.asarray(ascale, dtype=float)[np.asarray(ch)]
    diagonal = np.diag(cm)
    with np.errstate(all="ignore"):
        ratio = scales / diagonal
    if not (np.all(np.isfinite(ratio)) and np.all(ratio != 0)):
        return cm
    def alike(group):
        return np.ptp(group) / np.max(np.abs(group)) < 1e-3
    # the ratios agreeing is evidence only where the scales differ within each group: scales
    # constant per group (one ADC range for the forces, another for the moments) agree with
    # any diagonal constant per group, an identity matrix's too
    if any(alike(group) for group in (scales[:3], scales[3:])):
        return cm
    if not (alike(ratio[:3]) and alike(ratio[3:])):
        return cm
    named = _channels_said(_channel_names([int(i) for i in ch], labels))
    twice = np.abs(diagonal)
    report(f"{where}: ANALOG:SCALE of its {named} already holds FORCE_PLATFORM:CAL_MATRIX's "
           f"diagonal (SCALE / CAL_MATRIX[j, j] is {ratio[0]:.4g} for every force channel and "
           f"{ratio[3]:.4g} for every moment channel), so the channels are forces and moments "
           "already; as the C3D User Guide says, the scales were reset to their unscaled "
           "values (one unit for all six) before applying CAL_MATRIX, which then corrects the "
           "cross-talk only. Applied to the scaled channels, as some readers do, it would "
           "count each sensitivity twice (each force and moment multiplied once more by its "
           f"diagonal term, {twice.min():.3g} to {twice.max():.3g}). To silence this, export "
           "the trial with unscaled analog scales (volts or ADC counts) from the capture "
           "software", strict=strict, error=MotionError)
    moments = np.diag([1.0, 1.0, 1.0] + [ratio[3] / ratio[0]] * 3)
    return moments @ cm @ np.diag(ratio[0] / scales)


def _plate_frame(box, where):
    """The plate's axes (columns) in the lab: x = c1 - c2, y = c1 - c4, z = x × y."""
    x = box[0] - box[1]
    y = box[0] - box[3]
    z = np.cross(x, y)
    if np.linalg.norm(z) < 1e-9 * max(1.0, np.linalg.norm(x) * np.linalg.norm(y)):
        raise MotionError(f"{where}: FORCE_PLATFORM:CORNERS are degenerate (the corners do not "
                          "span a rectangle); check the file's plate calibration")
    y = np.cross(z, x)
    return np.column_stack([x / np.linalg.norm(x), y / np.linalg.norm(y), z / np.linalg.norm(z)])


def _unlisted_units(ch, listed, labels):
    """Words for the plate's channels (0-based ch) that ANALOG:UNITS and its continuations
    (listed units in all) give no unit, named with their ANALOG:LABELS (labels), or "" when
    each has one: a continuation cut short (UNITS2 ending before ANALOG:USED) leaves the
    last channels without one."""
    missing = [int(i) for i in ch if i >= listed]
    if not missing:
        return ""
    return (f"ANALOG:UNITS, continuations (UNITS2, ...) included, lists {listed} units, none "
            f"for its {_channels_said(_channel_names(missing, labels))}")


def _blank_units(ch, units, labels, params):
    """Words for the plate's channels (0-based ch) whose unit (units, theirs) ANALOG:UNITS or
    a continuation leaves blank, naming that parameter and the channels (labels: their
    ANALOG:LABELS), or "" when none is. The C3D User
    Guide asks one unit per channel, that of its scaled values; a blank one says nothing
    (Visual3D takes analog channels for volts by default, ezc3d's force platforms ignore
    ANALOG:UNITS, and ezc3d writes them blank past 255 channels), so what is assumed is said."""
    blank = [int(i) for i, u in zip(ch, units) if u == ""]
    if not blank:
        return ""
    ends = np.cumsum([len(part) for part in _continued(params, "ANALOG", "UNITS", _texts)])
    by_parameter = {}
    for i in blank:
        part = int(np.searchsorted(ends, i, side="right"))
        by_parameter.setdefault(f"ANALOG:UNITS{part + 1 if part else ''}", []).append(i)
    return "; ".join(f"{name} leaves its {_channels_said(_channel_names(chs, labels))} blank"
                     for name, chs in by_parameter.items())


def _channel_scales(ptype, units, punits, where, strict, unsaid=""):
    """Per channel factor to N, N·m or m from ANALOG:UNITS (None: a channel it lists no unit
    for; "": a blank one; unsaid, _unlisted_units' and _blank_units' words, names those)."""
    # F: a force (N), M: a moment (N·m), L: a length (m)
    kinds = {1: "FFFLLM", 2: "FFFMMM", 3: "FFFFFFFF"}[ptype]
    # without a unit of its kind: N, N·(POINT:UNITS) and POINT:UNITS, as ezc3d assumes
    assumed_factor = {"F": 1.0, "M": LENGTH_UNITS[punits], "L": LENGTH_UNITS[punits]}
    out, guessed, taken = [], [], set()
    for kind, u in zip(kinds, units):
        factor = _unit_factor(kind, u)
        if factor is None:                       # a blank or missing unit included
            guessed.append(u)
            taken.add(kind)
            factor = assumed_factor[kind]
        out.append(factor)
    if guessed:
        # only the kinds this plate has: a type-3 plate's eight channels are all forces
        assumed = {"F": "forces in N", "M": f"moments in N·{punits}",
                   "L": f"lengths in {punits}"}
        said = [assumed[kind] for kind in "FML" if kind in taken]
        has = "/".join(name for kind, name in (("F", "force"), ("M", "moment"), ("L", "length"))
                       if kind in kinds)
        # a channel beyond the list (None) or blank ("") is said as such (unsaid)
        named = sorted({u for u in guessed if u})
        what = "; ".join(
            ([f"ANALOG:UNITS {named} are not {has} units of a type-{ptype} plate"] if named
             else []) + ([unsaid] if unsaid else []))
        report(f"{where}: {what}; {', '.join(said)} were assumed. Compare the plate's "
               "peak vertical force with the subject's weight; if they disagree, correct "
               "ANALOG:UNITS or ANALOG:SCALE in the capture software's export",
               strict=strict, error=MotionError)
    return np.array(out)


def _unit_factor(kind, unit):
    """The factor to N, N·m or m of a channel of kind F (force), M (moment) or L (length)
    whose ANALOG:UNITS is unit, or None when unit is no unit of that kind."""
    folded = (unit or "").lower().replace(" ", "").replace("·", ".")
    if kind == "F":
        return 1.0 if folded in _FORCE_UNITS else None
    if kind == "M":
        return _MOMENT_UNITS.get(folded)
    return LENGTH_UNITS.get(unit)


def _plate_wrench(ptype, raw, orig, cm, length):
    """Force and moment about the plate's surface centre, in plate axes, per analog sample
    (length: metres per POINT:UNITS, the unit of a type-4 plate's calibrated moments)."""
    if ptype == 1:
        f = raw[:, 0:3]
        cop = np.column_stack([raw[:, 3], raw[:, 4], np.zeros(len(raw))])
        tz = np.column_stack([np.zeros(len(raw)), np.zeros(len(raw)), raw[:, 5]])
        return f, np.cross(cop, f) + tz            # M about the centre = CoP × F + Tz
    if ptype == 3:
        fx12, fx34, fy14, fy23, fz1, fz2, fz3, fz4 = raw.T
        a, b, az0 = orig[0], orig[1], -abs(orig[2])
        f = np.column_stack([fx12 + fx34, fy14 + fy23, fz1 + fz2 + fz3 + fz4])
        m = np.column_stack([b * (fz1 + fz2 - fz3 - fz4), a * (-fz1 + fz2 + fz3 - fz4),
                             b * (-fx12 + fx34) + a * (fy14 - fy23)])
        return f, m + np.cross(f, [0.0, 0.0, az0])    # sensors at depth az0 below the surface
    w = raw if cm is None else raw @ cm.T
    moment = w[:, 3:] * (length if cm is not None else 1.0)
    return w[:, :3], moment + np.cross(w[:, :3], _centre_offset(orig))


def _centre_offset(orig):
    """FORCE_PLATFORM:ORIGIN as the vector from the transducer to the surface centre, in plate
    axes: up, i.e. of negative plate z; a file with z > 0 gives the opposite vector (AMTI's
    x0 y0 z0: centre -> transducer), negated whole."""
    return -orig if orig[2] > 0 else orig


@dataclass(frozen=True)
class _PlateReading:
    """A plate's vertical reading at the rate it is returned and what each of its samples is
    read as (_classified): what the plate's checks weigh and name. Masks hold one flag a
    sample; the checks' warnings are raised as errors under strict."""
    up: NDArray[np.float64]          # N along the plate's upward normal (NaN: no sample)
    loads: float                     # +1: its loads push up, -1: down into it (_load_sign)
    time: NDArray[np.float64]        # s
    threshold: float                 # N, the contact threshold
    where: str                       # "<file>: force plate k", naming it in a warning
    strict: bool
    contact: NDArray[np.bool_]
    pulled: NDArray[np.bool_]        # against its loads, leaving its rest as a load: contact
    brief: NDArray[np.bool_]         # against its loads, shorter than a load: a glitch
    offset_against: NDArray[np.bool_]    # against its loads at its rest: an unzeroed offset
    rest_level: float | None         # N along the loads it rests at, at the threshold or beyond
    resting: NDArray[np.bool_]       # the samples at that rest: no contact


@dataclass(frozen=True)
class _SteadyPlate:
    """A plate reading one level throughout (_steady_level), left to _unloaded_steady_plates
    to tell an unzeroed plate nobody stood on from somebody standing still on it."""
    level: float                     # N along the upward normal
    samples: int                     # its samples with a reading
    total: int                       # its samples in all, NaN ones included
    seconds: float                   # how long its analog samples last, whatever the rate
    advice: str | None               # what its direction called for (_direction_words)


@dataclass(frozen=True)
class _PlateSite:
    """Where a force plate lies and what a warning calls it: what _plate_loads needs of it
    beside its wrench."""
    number: int                      # 1-based, in FORCE_PLATFORM order
    type: int                        # FORCE_PLATFORM:TYPE
    box: NDArray[np.float64]         # (4, 3) m, its corners in the lab
    frame: NDArray[np.float64]       # (3, 3) its axes in the lab (_plate_frame)
    poly: NDArray[np.float64] | None     # a Kistler plate's FPCOPPOLY, or None
    punits: str                      # POINT:UNITS, the unit FPCOPPOLY and the advice use
    above: NDArray[np.float64] | None    # m, its surface above the transducer (types 2, 4)
    where: str                       # "<file>: force plate k", naming it in a warning


@dataclass(frozen=True)
class _PlatformParameters:
    """What a file says of all its force plates, that _plate reads each one from."""
    types: NDArray[np.int_]          # FORCE_PLATFORM:TYPE, one per plate
    channel: NDArray[np.int_]        # FORCE_PLATFORM:CHANNEL, 1-based, (channels, plates)
    corners: NDArray[np.float64]     # FORCE_PLATFORM:CORNERS, (3, 4, plates) POINT:UNITS
    origin: NDArray[np.float64]      # FORCE_PLATFORM:ORIGIN, (3, plates) POINT:UNITS
    cal: NDArray[np.float64]         # FORCE_PLATFORM:CAL_MATRIX, (6, 6, plates) if given
    poly: NDArray[np.float64]        # FORCE_PLATFORM:FPCOPPOLY, 12 a plate in a row
    analogs: NDArray[np.float64]     # (channels, samples) scaled, offsets corrected
    aunits: list[str]                # ANALOG:UNITS, continuations included
    ascale: NDArray[np.float64]      # ANALOG:SCALE, continuations included
    punits: str                      # POINT:UNITS, the corners' and origin's unit
    units_declared: bool             # whether the file gives POINT:UNITS (else the default)
    labels: list[str]                # ANALOG:LABELS, continuations included
    gen_scale: NDArray[np.float64]   # ANALOG:GEN_SCALE
    uncalibrated: frozenset[int]     # channels 0-based without SCALE or OFFSET


@dataclass(frozen=True)
class _PlateOptions:
    """How a file's plates are read: what read_c3d was asked, and the file's clocks."""
    threshold: float                 # N, the contact threshold
    returned_at: str                 # 'markers' or 'analog': the rate plates are returned at
    strict: bool                     # warnings raised as errors
    analog_rate: float               # ANALOG:RATE, Hz
    point_rate: float                # POINT:RATE, Hz
    header: dict[str, Any]           # the file's header, as ezc3d read it
    parameters: dict[str, Any]       # the file's parameters, as ezc3d read them


class _PlateLoads(NamedTuple):
    """What _plate_loads computes of one plate."""
    plate: Plate
    steady: _SteadyPlate | None      # when it reads one level throughout (_steady_level)


def _plate_loads(site, f, m, options):
    """The _PlateLoads of a plate (site: _PlateSite) from its per-analog-sample force and
    moment (plate axes, about the surface centre): resampled, its samples classified
    (contact or not), checked, and its centre of pressure and free moment put in the lab.
    A plate reading one level throughout comes with its _SteadyPlate, the advice its
    direction calls for left to _unloaded_steady_plates; any other plate's is warned here."""
    raw = f
    loads = _load_sign(-raw[:, 2], options.threshold)      # plate z points into the plate
    f, m, time = _resampled(f, m, options, site.where)
    reading = _classified(-f[:, 2], loads, time, options.threshold, site.where,
                          options.strict)
    cop, tz = _surface_centre_of_pressure(f, m, reading.contact, site.poly,
                                          LENGTH_UNITS[site.punits])
    offset_said = _check_zero_frames(reading, raw, options)
    if not offset_said:
        _check_reads_against_its_loads(reading)
        _check_brief(reading)
        _check_rests_beyond_threshold(reading)
        _check_rest_drifting(reading)
    _check_pulled(reading)
    advice = _direction_words(reading, site.type, site.above, site.box.mean(axis=0),
                              site.punits)
    still = None if offset_said else _steady_plate(-raw[:, 2], reading, options.analog_rate,
                                                   advice)
    if still is None and advice:
        report(f"{site.where}: {advice}", strict=options.strict, error=MotionError)
    return _PlateLoads(_lab_plate(site, time, f, cop, tz, reading.contact), still)


def _steady_plate(up, reading, arate, advice):
    """The _SteadyPlate of a plate whose analog samples `up` (N along its upward normal) hold
    one level throughout (_steady_level), or None. reading: its _PlateReading at the rate it
    is returned; advice: what its direction calls for (_direction_words)."""
    level = _steady_level(up, reading.threshold)
    if level is None:
        return None
    seconds = len(up) / arate if arate else 0.0
    return _SteadyPlate(level, int(np.isfinite(reading.up).sum()), len(reading.up), seconds,
                        advice)


def _resampled(f, m, options, where):
    """(f, m, time): the per-analog-sample force and moment at the rate asked for
    (options.returned_at): at the marker rate each frame the mean of its analog samples, at
    the analog rate as they are."""
    s = len(f)
    arate, prate, rate = options.analog_rate, options.point_rate, options.returned_at
    header = options.header
    if rate == "markers" and prate and arate:
        ratio = arate / prate
        if abs(ratio - round(ratio)) > 1e-6 or ratio < 1:
            raise MotionError(f"{where}: ANALOG:RATE {arate:g} is not an integer multiple of "
                              f"POINT:RATE {prate:g}; read with rate='analog'")
        ratio = int(round(ratio))
        if ratio > s:
            raise MotionError(f"{where}: ANALOG:RATE {arate:g} is {ratio} times POINT:RATE "
                              f"{prate:g}, but the file holds {s} analog samples in all: one "
                              "of the two rates is wrong; fix it in the capture software")
        nframes = s // ratio
        f = f[:nframes * ratio].reshape(nframes, ratio, 3).mean(axis=1)
        m = m[:nframes * ratio].reshape(nframes, ratio, 3).mean(axis=1)
        t0 = int(header["points"]["first_frame"]) / prate
        return f, m, t0 + np.arange(nframes) / prate
    if rate in ("markers", "analog"):
        t0 = int(header["analogs"]["first_frame"]) / arate if arate else 0.0
        return f, m, (t0 + np.arange(s) / arate if arate else np.arange(s, dtype=float))
    raise ValueError(f"rate: expected 'markers' or 'analog', got {rate!r}")


def _classified(up, loads, time, threshold, where, strict):
    """The _PlateReading of a plate reading `up` (N along its upward normal): a contact is a
    sample at least the threshold the way its loads push, off the level an unzeroed plate
    rests at beyond the threshold (_resting_beyond_threshold), or a pull (_pulls); a reading
    of the threshold against its loads that is no pull is a glitch when it lasts less than a
    load (_away_from_rest), else the offset of a plate that was not zeroed."""
    with np.errstate(all="ignore"):
        against = np.isfinite(up) & (-loads * up >= threshold)
        pulled = against & _pulls(up, loads, threshold, time)
        rest_level, resting = _resting_beyond_threshold(up, loads, threshold, time)
        contact = (np.isfinite(up) & (loads * up >= threshold) & ~resting) | pulled
        _, reaching = _away_from_rest(up, loads, threshold)
        brief = against & ~pulled & reaching
    return _PlateReading(up=up, loads=loads, time=time, threshold=threshold, where=where,
                         strict=strict, contact=contact, pulled=pulled, brief=brief,
                         offset_against=against & ~pulled & ~brief, rest_level=rest_level,
                         resting=resting)


def _surface_centre_of_pressure(f, m, contact, poly, unit):
    """(cop, tz): the centre of pressure on the plate's surface (plate axes, NaN off contact)
    and the free moment about it, from the force and moment about the surface centre.
    unit: POINT:UNITS in m, the unit FPCOPPOLY's coefficients are for."""
    with np.errstate(all="ignore"):
        fz = np.where(contact, f[:, 2], np.nan)
        cop = np.column_stack([-m[:, 1] / fz, m[:, 0] / fz, np.zeros(len(f))])
        if poly is not None and np.any(poly):
            cop = _kistler_cop_correction(cop / unit, poly) * unit
        tz = m[:, 2] - (cop[:, 0] * f[:, 1] - cop[:, 1] * f[:, 0])
    return cop, tz


def _lab_plate(site, time, f, cop, tz, contact):
    """The Plate: force, centre of pressure and free moment in the lab, on contacts only."""
    frame = site.frame
    force = np.where(contact[:, None], f @ frame.T, 0.0)
    cop_lab = np.where(contact[:, None], cop @ frame.T + site.box.mean(axis=0), np.nan)
    moment = np.where(contact[:, None], tz[:, None] * frame[:, 2], 0.0)
    return Plate(site.number, site.type, site.box, time, force, cop_lab, moment, contact,
                 -frame[:, 2])


def _direction_words(r, ptype, above, centre, punits):
    """The warning (str, after the plate's name) for a plate whose loads point down into it,
    or None: either a pull loads it, read right, or it stores the subject's action
    (_action_advice)."""
    if not (np.any(r.contact) and r.loads < 0):
        return None
    return (f"its force points down into the plate while loaded (median "
            f"{np.median(r.up[r.contact]):.4g} N along the upward normal). If nothing but "
            "a pull loads it (a hand pulling on a handle or rail, a foot clipped to a "
            "pedal, nobody standing on it), it is read right as it is. Otherwise "
            f"{_action_advice(ptype, above, centre, punits)}")


def _steady_level(up, threshold):
    """The level (N, the median) a plate reads on every sample, never leaving it by the
    threshold, when it is at least the threshold: nobody stepped on or off the plate, which
    either was not zeroed or carried somebody standing still throughout
    (_unloaded_steady_plates tells which). None otherwise."""
    with np.errstate(all="ignore"):
        finite = up[np.isfinite(up)]
        if len(finite) < 2:
            return None
        level = float(np.median(finite))
        if abs(level) < threshold or np.max(np.abs(finite - level)) >= threshold:
            return None
        return level


def _resting_beyond_threshold(up, loads, threshold, time):
    """(level, samples), the pair _PlateReading keeps as rest_level and resting: the level
    (N along the loads) a plate with loads rests at when that is at least the threshold, and
    the samples that stay within the threshold of it; (None, no sample) for a plate resting
    below the threshold, as a zeroed plate does.

    The rest level is the median of the samples within the threshold of the plate's lowest
    reading along its loads, held for at least _SHORTEST_PULL (a single low glitch is no
    rest). It is a rest, not a foot standing still, when it is at most _OFFSET_FRACTION of
    the plate's own largest load: c3d.org's Sample01 (Eb015pi) rests at 22 and 32 N against
    loads of 770-840 N, while a foot standing on a plate carries a good part of the body's
    weight. Counted from that level, the threshold tells a load from the offset as it does
    on a zeroed plate."""
    none = (None, np.zeros(len(up), dtype=bool))
    with np.errstate(all="ignore"):
        finite = np.isfinite(up)
        along = np.where(finite, loads * up, np.nan)
        if finite.sum() < 2:
            return none
        low = float(np.nanmin(along))
        near = finite & (along < low + threshold)
        if not np.any(_lasting(near, time, near)):
            return none
        level = float(np.median(along[near]))
        if level < threshold or level > _OFFSET_FRACTION * float(np.nanmax(along)):
            return none
        return level, finite & (along < level + threshold)


def _runs_text(mask, time):
    """'t = a-b s' for each run of True in mask (the first three, then how many more)."""
    runs = [f"{time[a]:.3f}-{time[b - 1]:.3f} s" for a, b in true_runs(mask)]
    more = f" and {len(runs) - 3} more stretches" if len(runs) > 3 else ""
    return "t = " + ", ".join(runs[:3]) + more


def _check_rests_beyond_threshold(r):
    """Warn that a plate rests at or beyond the threshold on its loads' side (r.rest_level,
    _resting_beyond_threshold): its quiet samples would read as contacts carrying the offset
    alone (on Eb015pi a 22-34 N force at a centre of pressure off the foot, moving the
    knee's and hip's torques by 10-25 N m); they are read as no contact."""
    if r.rest_level is None or not np.any(r.resting):
        return
    sense, _ = _load_senses(r.loads)
    highest = math.ceil(float(np.max(r.loads * r.up[r.resting])))  # the threshold reading none
    report(f"{r.where}: with nobody on it, it rests at {r.rest_level:.3g} N {sense}, the way "
           f"its loads push, at or beyond the {r.threshold:g} N contact threshold: the plate "
           f"was not zeroed. Its {int(r.resting.sum())} of {len(r.up)} samples within "
           f"{r.threshold:g} N of that level ({_runs_text(r.resting, r.time)}) are read as no "
           "contact; the loaded ones carry the offset too. Zero the plate in the capture "
           "software before recording, or name frames with nobody on it in "
           f"FORCE_PLATFORM:ZERO, or read with a threshold above {highest:.0f} N",
           strict=r.strict, error=MotionError)


#: s; a plate's rest level is read over windows this long, each starting half of one after
#: the last: a load's edges rise and fall through hundreds of N in that time, a zero
#: drifting with temperature moves a few N.
_REST_WINDOW = 0.05

#: A window whose reading spreads by less than this fraction of the plate's largest load
#: is quiet (_quiet_windows).
_QUIET_SPREAD = 0.05


class _RestWindow(NamedTuple):
    """One _REST_WINDOW window where a plate rests (_quiet_windows)."""
    start: int                       # its first sample
    stop: int                        # one past its last
    level: float                     # N along the loads, its median


def _quiet_windows(up, loads, time):
    """[_RestWindow]: the _REST_WINDOW windows where the plate rests: its reading stays
    within _QUIET_SPREAD of its largest load and at most _OFFSET_FRACTION of it (a foot
    standing still carries a good part of the body's weight; a foot rising or landing sweeps
    hundreds of N)."""
    with np.errstate(all="ignore"):
        along = np.where(np.isfinite(up), loads * up, np.nan)
        if np.isfinite(along).sum() < 2 or len(time) < 2 or not time[1] > time[0]:
            return []
        peak = float(np.nanmax(along))
        size = max(3, int(round(_REST_WINDOW / float(time[1] - time[0]))))
        if len(up) < size:
            return []
        starts = np.arange(0, len(up) - size + 1, max(1, size // 2))
        parts = np.lib.stride_tricks.sliding_window_view(along, size)[starts]
        levels = np.median(parts, axis=1)
        quiet = (np.all(np.isfinite(parts), axis=1)
                 & (np.ptp(parts, axis=1) < _QUIET_SPREAD * peak)
                 & (levels <= _OFFSET_FRACTION * peak))
    # the first window of a foot's last hundred N, after it left the ground's bulk, is as
    # still as a rest: a rest is one whose neighbours rest too
    padded = np.concatenate([[True], quiet, [True]])
    rests = quiet & padded[:-2] & padded[2:]
    return [_RestWindow(int(a), int(a) + size, float(level))
            for a, level in zip(starts[rests], levels[rests])]


#: s; a plate resting on contacts for at least this long has drifted (_check_rest_drifting).
#: The published trials in tests/data rest on contacts for up to 0.2 s (Kistler.c3d's light
#: touches at 36-74 N) and 0.37 s (PeakPerformance_FP1 at a 5 N threshold, between its
#: loads): a foot does not stand that still, that lightly, for long; a zero drifts for the
#: rest of the trial.
_DRIFT_SPAN = 0.5


def _lasting_rests(windows, along, contact, time):
    """The windows (_quiet_windows) in runs of overlapping ones whose rest lasts _DRIFT_SPAN,
    with the samples of each rest (_rest_stretch)."""
    out, run, span = [], [], np.zeros(len(along), dtype=bool)
    for w in windows + [None]:
        if w is not None and run and w.start < run[-1].stop:
            run.append(w)
            continue
        if run:
            start, stop = _rest_stretch(run, along, contact)
            if (stop - start) * float(time[1] - time[0]) >= _DRIFT_SPAN * (1 - 1e-9):
                out.extend(run)
                span[start:stop] = True
        run = [w]
    return out, span


def _rest_stretch(run, along, contact):
    """[start, stop): the samples a run of overlapping rest windows lies in, grown over the
    contacts beside it that stay as near its level as its own samples do: the windows sit on
    their own grid, up to most of one inside the rest's ends, and would cut a 0.54 s rest to
    less than _DRIFT_SPAN."""
    start, stop = run[0].start, run[-1].stop
    low, high = np.nanmin(along[start:stop]), np.nanmax(along[start:stop])
    while start > 0 and contact[start - 1] and low <= along[start - 1] <= high:
        start -= 1
    while stop < len(along) and contact[stop] and low <= along[stop] <= high:
        stop += 1
    return start, stop


def _check_rest_drifting(r):
    """Warn when the plate rests on contacts: windows where it stays quiet, small against its
    loads (_quiet_windows), read as contact. The rest level of _resting_beyond_threshold is
    the plate's lowest; a zero drifting the loads' way during the trial (Qualisys.c3d's
    plate 1 given 0 -> 40 N over its 1.7 s: 2874 contacts against 1085 stance samples) or
    stepping there after a load leaves later rests beyond the threshold, read as contacts
    carrying nothing but the drift, at a centre of pressure made of noise. Whether such a
    stretch is the zero or a light load held still cannot be told from the level alone
    (a toe resting on a second plate in a static trial reads the same), so the contacts are
    kept and the user told where."""
    windows = _quiet_windows(r.up, r.loads, r.time)
    along = np.where(np.isfinite(r.up), r.loads * r.up, np.nan)
    on_contacts = [w for w in windows if r.contact[w.start:w.stop].mean() > 0.5]
    drifted, span = _lasting_rests(on_contacts, along, r.contact, r.time)
    if not drifted:
        return
    lowest = min(windows, key=lambda w: w.level)
    highest = max(drifted, key=lambda w: w.level)
    with np.errstate(all="ignore"):
        top = math.ceil(float(np.nanmax(r.loads * r.up[span])))   # the threshold reading none
    sense, _ = _load_senses(r.loads)
    report(f"{r.where}: {_rest_levels_text(lowest, highest, r.time, sense)}, beyond the "
           f"{r.threshold:g} N contact threshold: its zero drifted during the trial (unless a "
           "light load was held still on it). "
           f"Its {int((r.contact & span).sum())} of {len(r.up)} samples resting there "
           f"({_runs_text(span, r.time)}) are read as contact, carrying the drift at a centre "
           "of pressure made of noise. Zero the plate in the capture software before each "
           "trial (and name frames with nobody on it in FORCE_PLATFORM:ZERO), or read with a "
           f"threshold above {top:.0f} N", strict=r.strict, error=MotionError)


def _rest_levels_text(lowest, highest, time, sense):
    """The plate's lowest and highest _RestWindow, in the order they came: a rest that
    falls back later (a zero that stepped, then was zeroed again) has not moved the loads'
    way from its lowest level, but lay above it first."""
    t_low, t_high = time[lowest.start], time[highest.start]
    if lowest.start < highest.start:
        return (f"the level it rests at moves the way its loads push, from {lowest.level:.3g} "
                f"N {sense} at t = {t_low:.3f} s to {highest.level:.3g} N at t = "
                f"{t_high:.3f} s")
    return (f"it rests at {highest.level:.3g} N {sense} at t = {t_high:.3f} s, the way its "
            f"loads push, above the {lowest.level:.3g} N it rests at later (t = "
            f"{t_low:.3f} s)")


def _load_sign(up, threshold):
    """+1 where the plate's loads push along its upward normal (the ground's reaction, as the
    usual plates store it), -1 where they point down into it (the subject's action): the sign
    of the impulse of its samples beyond the threshold (their sum). A plate that was not
    zeroed reads its offset, of either sign, whenever nobody is on it, and a glitch can read
    more than the loads for a few samples; a subject's loads outweigh both, being both large
    and long. The sign of the most samples would be the offset's on a trial with more frames
    off the plate than on it (OpenSim's walking2.c3d: -20 N on 429 frames, 747 N up in
    stance), the sign of the largest ones a 2 ms spike's: the stance would then be dropped."""
    with np.errstate(all="ignore"):
        beyond = np.where(np.isfinite(up) & (np.abs(up) >= threshold), up, 0.0)
        return -1.0 if float(np.sum(beyond)) < 0 else 1.0


def _pulls(up, loads, threshold, time):
    """Where a load pulls the plate (a hand on a handle or rail, a foot clipped to a pedal)
    rather than the plate reading its offset or a glitch: at least the threshold beyond the
    level the plate rests at, and beyond its noise there, within a stretch lasting as a load
    does (_SHORTEST_PULL) away from that level.

    The rest level is the median of the samples that are no load (below the threshold along
    the loads), its noise their median absolute deviation (1.4826 of it: one standard
    deviation of Gaussian noise), taken 6 times so that noise alone crosses it on no
    sample. A plate that was not zeroed rests at its offset (OpenSim's walking2.c3d: plate 2
    at -19 N, noise 1-3 N, down to -27 N), whose samples stay within that band; a pull leaves
    it as a load does, and a pull on a minority of the quiet samples moves neither the median
    nor the deviation much. The stretch is where the reading is beyond half that distance,
    so that noise on a pull's rising and falling edges does not cut it into short runs; all
    of its samples beyond the threshold are the pull's."""
    away, reaching = _away_from_rest(up, loads, threshold)
    return _lasting(away, time, reaching)


def _away_from_rest(up, loads, threshold):
    """(away, reaching): the samples beyond half the distance a pull leaves the plate's rest
    level by against its loads (_pulls), and those beyond all of it."""
    with np.errstate(all="ignore"):
        quiet = up[np.isfinite(up) & (loads * up < threshold)]
        rest = float(np.median(quiet)) if len(quiet) else 0.0
        noise = 1.4826 * float(np.median(np.abs(quiet - rest))) if len(quiet) else 0.0
        offset = max(-loads * rest, 0.0)
        beyond = max(threshold, 6.0 * noise)
        away = np.isfinite(up) & (-loads * up >= offset + 0.5 * beyond)
        return away, -loads * up >= offset + beyond


#: s; a load pulling a plate lasts at least this long (a hand's or a foot's pull rises over
#: tens of ms): a shorter reading against the loads is a glitch, not a pull.
_SHORTEST_PULL = 0.02


def _lasting(mask, time, reaching):
    """mask where its runs of True span at least _SHORTEST_PULL on the samples' clock and
    hold a sample where `reaching` is True."""
    if not np.any(mask) or len(time) < 2:
        return mask & reaching
    step = float(time[1] - time[0])
    need = max(1, int(math.ceil(_SHORTEST_PULL / step - 1e-9))) if step > 0 else 1
    out = np.zeros_like(mask)
    for start, stop in true_runs(mask):
        if stop - start >= need and np.any(reaching[start:stop]):
            out[start:stop] = True
    return out


def _load_senses(loads):
    """(the way a plate's loads push, the way against them) in words; loads: +1 up, -1 down
    into the plate (_load_sign)."""
    return ("up", "down into the plate") if loads > 0 else ("down into the plate", "up")


def _most_against(r, samples):
    """N: the most plate r (_PlateReading) reads against its loads on the samples given."""
    with np.errstate(all="ignore"):
        return float(np.max(-r.loads * r.up[samples]))


def _most_along(r):
    """N: the most plate r (_PlateReading) reads the way its loads push, a NaN sample as 0."""
    with np.errstate(all="ignore"):
        return float(np.max(r.loads * np.where(np.isfinite(r.up), r.up, 0.0)))


def _check_pulled(r):
    """Warn that a plate is pulled (_pulls) on the samples r.pulled: those are contacts,
    but a plate pulled where nothing could pull it has a channel of the wrong polarity."""
    if not np.any(r.pulled):
        return
    peak, pushed = _most_against(r, r.pulled), _most_along(r)
    at = np.flatnonzero(r.pulled)
    along, against = _load_senses(r.loads)
    report(f"{r.where}: it is pulled: it reads up to {peak:.4g} N {against} on {len(at)} of "
           f"{len(r.up)} samples (t = {r.time[at[0]]:.3f}-{r.time[at[-1]]:.3f} s) while its "
           "loads "
           f"push {along} (up to {pushed:.4g} N), leaving the level the plate rests at as "
           "a load does, not staying at it as the offset of a plate that was not zeroed: "
           "read as contact. A hand pulling on a handle or rail, or a foot clipped to a "
           "pedal, does that; if nothing could pull the plate, check the polarity of its "
           "vertical channel", strict=r.strict, error=MotionError)


def _check_brief(r):
    """Warn that a plate leaves the level it rests at against its loads for less than a
    load lasts (samples r.brief, _pulls): a glitch or a knock, not a pull and not an
    unzeroed plate's offset (it returns to its rest level). Those samples are no contact."""
    if not np.any(r.brief):
        return
    worst = _most_against(r, r.brief)
    _, against = _load_senses(r.loads)
    report(f"{r.where}: it reads up to {worst:.3g} N {against}, against its loads, on "
           f"{int(r.brief.sum())} of {len(r.up)} samples ({_runs_text(r.brief, r.time)}), each "
           f"time for less than the {_SHORTEST_PULL * 1000:g} ms a load lasts, and returns to "
           "the level it rests at: a glitch or a knock on the plate, not a load nor an "
           "unzeroed offset. Those samples are read as no contact. If it recurs, check the "
           "plate's cable and amplifier", strict=r.strict, error=MotionError)


def _check_reads_against_its_loads(r):
    """Warn when a plate reads at least the threshold against the direction of its loads
    while staying at the level it rests at (samples r.offset_against, see _pulls): no
    contact does that, the plate's offset does (it was not zeroed). Those samples are left
    out as contacts; the loaded ones carry the offset too, which urdf2dyn does not remove."""
    if not np.any(r.offset_against):
        return
    worst, peak = _most_against(r, r.offset_against), _most_along(r)
    along, against = _load_senses(r.loads)
    report(f"{r.where}: it reads up to {worst:.3g} N {against} on {int(r.offset_against.sum())} "
           f"of {len(r.up)} samples while its loads push {along} (up to {peak:.4g} N): no "
           "contact does that, the offset of a plate that was not zeroed does. Those samples "
           "are read as no contact; the loaded ones carry the offset too. Zero the plate in "
           "the capture software before recording (or subtract the offset, read with nobody "
           "on the plate, from its channels)", strict=r.strict, error=MotionError)


def _action_advice(ptype, above, centre, punits):
    """What to do with a plate whose vertical force points down into it, for a type-ptype plate
    (above: for types 2 and 4, the lab point (m) of its surface above the transducer; centre:
    the plate's centre, m).

    The vertical channel shows the action; whether the others do cannot be told from the plate
    alone, and the two cases need different corrections. Vicon Workstation's shd01 has only
    its Fz and Mz channels of the action's polarity (its horizontal force follows the body's
    acceleration as a reaction, its centre of pressure lies mirrored): negating the whole
    wrench there would turn its horizontal force the wrong way. For types 2 and 4 (Fx Fy Fz Mx
    My Mz) both cases are spelled out, with the point the centre of pressure is mirrored
    through. Mx and My are measured about the transducer and moved to the surface centre with
    M + F x o (o: transducer -> centre, _plate_wrench), whose Fz terms take Fz's wrong sign:
    the Mx read is off by 2 Fz o_y and the My by -2 Fz o_x, so the centre of pressure read
    (-My/Fz, Mx/Fz with Fz negated) is -CoP - 2 o_xy, the true one mirrored through -o_xy from
    the centre: the point above the transducer, the plate's centre only where ORIGIN's x and
    y are 0."""
    if ptype not in (2, 4):
        return ("its vertical force stores the subject's action on the plate, not the ground's "
                "reaction; negate the force and free moment before applying them to the feet "
                "(check first that its horizontal force follows the body's acceleration the "
                "other way, as an action does)")
    return ("its vertical channel (Fz) stores the subject's action on the plate, not the "
            "ground's reaction. Check the other channels before applying it to the feet: if "
            "every channel stores the action (its horizontal force then runs against the "
            "body's acceleration), negate the force and the free moment; if only its vertical "
            "channels (Fz, Mz) do (its horizontal force follows the body's acceleration as a "
            "reaction, and its centre of pressure lies mirrored through the point of its "
            "surface above the transducer, away from the body above it), negate the vertical "
            "force and the free moment and mirror the centre of pressure through that point: "
            f"{_lab_point(above, punits)} in the file's lab frame, {_mirror_point(above, centre)}"
            "; the true centre of pressure is 2 * point - the one read, in the plate's plane. "
            "Better: fix the channels' polarity in the capture software and re-export")


def _mirror_point(above, centre):
    """Where the point a centre of pressure read with Fz and Mz inverted is mirrored through
    (_action_advice) lies on the plate: its centre where ORIGIN's x and y are 0."""
    if np.allclose(above, centre, rtol=0, atol=1e-9):
        return "the plate's centre (FORCE_PLATFORM:ORIGIN's x and y are 0)"
    return "the plate's centre moved by FORCE_PLATFORM:ORIGIN's x and y"


def _lab_point(point, punits):
    """A lab point (m) in the file's length unit, as (x, y, z) unit."""
    x, y, z = np.asarray(point) / LENGTH_UNITS[punits]
    return f"({x:.6g}, {y:.6g}, {z:.6g}) {punits}"


def _zero_samples(params, header, arate, prate, samples):
    """The analog samples (a slice) of the frames FORCE_PLATFORM:ZERO names, or None when it
    names none (both 0, or an empty range), or frames the file does not wholly hold (a trial
    cut after recording), or the rates cannot map frames to samples."""
    named = _zero_frames(params)
    if named is None or not (prate and arate):
        return None
    per = arate / prate
    if abs(per - round(per)) > 1e-6 or per < 1:
        return None
    first, last = named
    start = (first - 1) * int(round(per)) - int(header["analogs"]["first_frame"])
    stop = last * int(round(per)) - int(header["analogs"]["first_frame"])
    if start < 0 or stop > samples:
        return None                   # frames the file does not hold: _zero_range_note
    return slice(start, stop)


def _zero_frames(params):
    """The 1-based frames (first, last) FORCE_PLATFORM:ZERO names, or None when it names none:
    absent, both 0 (the Guide: "no zero correction should be performed") or an empty range."""
    zero = _numbers(params, "FORCE_PLATFORM", "ZERO", integer=True).ravel()
    if zero.size < 2 or (zero[0] == 0 and zero[1] == 0):
        return None
    first, last = max(int(zero[0]), 1), int(zero[1])       # the Guide: 0,10 means 1 to 10
    return None if last < first else (first, last)


def _held_frames(c):
    """The 1-based frames (first, last) the file holds (ezc3d's header counts from 0)."""
    points = c["header"]["points"]
    first = int(points["first_frame"]) + 1
    last = points.get("last_frame")
    if last is None:                       # a reply without it: the frames ezc3d read
        return first, first + np.shape(c["data"]["points"])[-1] - 1
    return first, int(last) + 1


def _zero_range_note(c, source):
    """A note (str) when FORCE_PLATFORM:ZERO names frames the file does not hold (a trial cut
    after recording keeps the ZERO of the whole recording): the check that the plates were
    zeroed (_check_zero_frames) cannot run from them, and nothing else can stand in for them.
    Not a warning: a warning says the result may be wrong (and --strict refuses it), and this
    finds nothing wrong (the Guide's ZERO is advisory, a file with ZERO 0, 0 names no frame
    either, and most cut trials keep it). read_c3d keeps it in C3D.meta["notes"]."""
    named = _zero_frames(c["parameters"])
    if named is None:
        return None
    held = _held_frames(c)
    if held[0] <= named[0] and named[1] <= held[1]:
        return None
    return (f"{source}: FORCE_PLATFORM:ZERO names frames {named[0]}-{named[1]} to zero the "
           f"force plates from, but the file holds frames {held[0]}-{held[1]} (a trial cut "
           "after recording?): whether the plates were zeroed cannot be checked from those "
           "frames. urdf2dyn subtracts no baseline: make sure the plates were zeroed in the "
           "capture software, or set ZERO to frames the file holds with nobody on the plates "
           "(0, 0 if there are none)")


def _check_zero_frames(r, f, options):
    """Warn when the plate reads a contact's force during the frames FORCE_PLATFORM:ZERO names.

    The C3D User Guide defines ZERO as "the range of analog data that is expected to have no
    physical forces or moment present", for a reader that may average and subtract it; it
    also says the parameter's presence does not mean any correction was or must be done.
    urdf2dyn subtracts nothing (ezc3d neither), so a plate the lab did not zero keeps its
    offset; where the file itself declares the plate unloaded and it reads at least the
    contact threshold there, the offset alone is taken as a contact (or, against the plate's
    loads, the sign _load_sign gives, left out but carried by the loaded samples): that is
    said, with the level. A range outside the file's frames (a cut trial) tells nothing:
    _zero_range_note says so, once for the file. f: the force at the analog rate (ZERO
    names frames of it); r: the plate's reading, whose rest_level, when set, is that offset
    between its loads (_resting_beyond_threshold), its samples then no contact; options:
    the _PlateOptions with the file's clocks and parameters. True when it warned."""
    params = options.parameters
    window = _zero_samples(params, options.header, options.analog_rate, options.point_rate,
                           len(f))
    if window is None:
        return False
    with np.errstate(all="ignore"):
        level = float(np.nanmean(-f[window, 2]))      # along the upward normal
    if not (np.isfinite(level) and abs(level) >= r.threshold):
        return False
    zero = _numbers(params, "FORCE_PLATFORM", "ZERO", integer=True).ravel()
    read_as = ("against its loads, read as no contact, but the loaded ones carry it too"
               if level * r.loads <= 0 else
               f"read as no contact (those within {r.threshold:g} N of the level it rests "
               "at between its loads), but the loaded ones carry it too"
               if r.rest_level is not None else
               f"read as contact (the threshold is {r.threshold:g} N)")
    report(f"{r.where}: it reads {level:.3g} N along its normal during frames "
           f"{max(int(zero[0]), 1)}-{int(zero[1])}, which FORCE_PLATFORM:ZERO declares "
           f"unloaded: the plate was not zeroed, and samples near that level are {read_as}. "
           "urdf2dyn subtracts no baseline; zero "
           "the plate in the capture software before recording (or subtract the offset from "
           "its channels), and make sure ZERO names frames with nobody on the plate",
           strict=r.strict, error=MotionError)
    return True


def _kistler_cop_correction(cop, p):
    """Kistler's polynomial correction of the centre of pressure (FPCOPPOLY, 12 coefficients)."""
    x, y = cop[:, 0], cop[:, 1]
    dx = (p[0] * y**4 + p[1] * y**2 + p[2]) * x**3 + (p[3] * y**4 + p[4] * y**2 + p[5]) * x
    dy = (p[6] * x**4 + p[7] * x**2 + p[8]) * y**3 + (p[9] * x**4 + p[10] * x**2 + p[11]) * y
    return np.column_stack([x - dx, y - dy, cop[:, 2]])


# ============================================================================ writing

def grf_columns(plates, prefix="{n}_"):
    """(labels, data) of the plates' loads in OpenSim's layout: per plate in plate order,
    ``<n>_ground_force_vx vy vz``, ``<n>_ground_force_px py pz``, ``<n>_ground_torque_x y z``
    (N, m, N·m; the torque is the free moment about the centre of pressure). Where a plate
    has no contact the force and torque are 0 and the point is written as 0 too (OpenSim's
    tools cannot read a missing value, and a zero force applied anywhere does nothing)."""
    labels, cols = [], []
    for p in plates:
        pre = prefix.format(n=p.number)
        for kind, x in (("ground_force_v", p.force), ("ground_force_p", p.cop),
                        ("ground_torque_", p.moment)):
            labels += [f"{pre}{kind}{ax}" for ax in "xyz"]
            cols.append(np.where(np.isfinite(x), x, 0.0))
    return labels, (np.column_stack(cols) if cols else np.zeros((0, 0)))


def write_grf(path, plates, name=None):
    """Write force plates as an OpenSim .mot (``inDegrees=no``): ``time`` then
    :func:`grf_columns`. Every plate must share one time axis (read with the same rate)."""
    from ._cells import title_from_path
    from .opensim import _write_sto
    if not plates:
        raise MotionError(f"{os.fspath(path)}: no force plates to write")
    time = plates[0].time
    if any(len(p.time) != len(time) for p in plates):
        raise MotionError(f"{os.fspath(path)}: the plates have different sample counts")
    labels, data = grf_columns(plates)
    _write_sto(os.fspath(path), ["time"] + labels, np.column_stack([time, data]), False,
               name or title_from_path(path))
