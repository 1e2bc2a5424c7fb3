"""Trajectory files in and out: CSV, OpenSim .mot/.sto, HuMoD .mat, pandas DataFrames.

Every reader returns a :class:`Trajectory` in SI units (s, m, rad, N): ``time`` (N,), ``q``
(N, n) with its column ``names``, optional ``v``/``a`` (N, m) with ``v_names``, and optional
ground reaction forces ``grf``, centres of pressure ``cop`` and optional free moments ``moment``
per foot ({"L": (N, 3), ...}).
``traj.for_model(model)`` returns (t, q, v, a) in the model's coordinate order, matched by name::

    from urdf2dyn import io, human_model
    traj = io.read_humod("Subject_B/2.1.mat")          # HuMoD: 36 DoF, GRF and CoP per foot
    model = human_model(1.79, 84.8, "male")
    t, q, v, a = traj.for_model(model)
    tau = model.inverse_dynamics(q, v, a, f_ext=traj.f_ext())

Tables (CSV and DataFrame) share one column layout: ``time`` (s), one column per coordinate
named as ``model.q_names`` (the joint's name for a 1-DoF joint; ``<joint>_x .. _qw`` for a
floating joint, ``<joint>_x _y _theta`` for a planar one), optionally ``<dof>_vel`` and
``<dof>_acc`` columns (dof in ``model.v_names``), and optionally ``grfX_L grfY_L grfZ_L copX_L
copY_L copZ_L`` (and ``_R``: HuMoD's names; N and m) and ``momX_L momY_L momZ_L`` (a free moment
about the centre of pressure, N·m; urdf2dyn's names). OpenSim's external-load columns
``<prefix>ground_force_vx .. _px .. ground_torque_x ..`` are read as forces (key = prefix) too.
OpenSim files (``.mot``/``.sto``) have the header ``name / version=1 / nRows / nColumns /
inDegrees=yes|no / endheader`` and the same columns after it. One reader (:func:`read_table`)
and one writer (:func:`write_table`) handle every CSV; empty and NaN cells are missing samples
(see urdf2dyn.gaps).

Angles in degrees: CSV files and DataFrames carry no unit, so pass ``degrees=True``; OpenSim
files say it in their header (``inDegrees``, which covers rotational coordinates only).
Which columns are angles (:func:`angle_columns`): with ``model=`` given, exactly the rotational
coordinates from the joint types (revolute/continuous, planar ``_theta``; for rates also floating
``_wx _wy _wz``); without a model, OpenSim's rule: coordinates except translations (``*_tx``,
HuMoD's ``pBJX``, urdf2dyn's ``*_x``), points (``*_px``), quaternions (``*_qx .. *_qw``) and
anything named a force, moment or torque; ``linear=[names]`` adds names to that set. Forces,
moments, centres of pressure and generalized forces are never converted.

Torques: :func:`write_torques` writes them (``.sto`` in OpenSim's inverse-dynamics layout,
``<coordinate>_moment`` / ``<coordinate>_force``, ``inDegrees=no``; or ``.csv``) and
:func:`read_torques` reads them back.

Names: ``mapping`` (a dict, or a JSON object file, or a two-column CSV file ``from,to``) renames
the file's coordinates to the model's on reading (:func:`load_mapping`).

Derivatives: :func:`estimate_derivatives` (finite differences by default, NumPy only;
Savitzky-Golay or a quintic spline on request) with an optional zero-lag Butterworth low-pass
filter (:func:`lowpass`), and ``traj.with_derivatives(...)``. SciPy is needed for .mat files,
Savitzky-Golay, splines and the filter; pandas only for DataFrames (and fast reading of large
CSVs). Both are imported on first use.
"""
from __future__ import annotations

import csv
import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

if TYPE_CHECKING:
    from .model import Model

__all__ = ["Trajectory", "MotionError", "read", "write", "read_csv", "write_csv", "read_opensim",
           "write_opensim", "read_humod", "write_humod", "to_dataframe", "from_dataframe",
           "load_mapping", "estimate_derivatives", "lowpass", "HUMOD_LENGTH_SCALE",
           "read_sto_table", "read_columns", "read_table", "write_table", "write_torques",
           "read_torques", "torque_names", "angle_columns"]

#: HuMoD stores lengths (base-joint positions, centres of pressure) in millimetres.
HUMOD_LENGTH_SCALE = 1e-3

#: CSV files larger than this (bytes) are parsed with pandas' C reader when pandas is
#: installed (about 3x faster); Python's csv module otherwise (same results and messages).
FAST_CSV_BYTES = 1 << 20

#: Cell texts read as a missing sample (NaN): an empty cell (pandas' ``df.to_csv()`` writes NaN
#: so) and the usual spellings of NaN.
MISSING = ("", "nan", "NaN", "NAN", "-nan", "+nan", "NA", "N/A", "null")

_FORCE_RE = re.compile(r"^(grf|cop|mom)([XYZ])_(\w+)$")
#: OpenSim's external-load columns: <prefix>ground_force_v[xyz] (force), ground_force_p[xyz]
#: (point of application), ground_torque_[xyz] (torque); the prefix (e.g. "1_", "l_") is the key.
_OPENSIM_FORCE_RE = re.compile(
    r"^(?P<key>.*?)_?ground_(?P<kind>force_v|force_p|torque_)(?P<ax>[xyz])$")
#: Names that are never angles whatever a file's header says (OpenSim's rule: inDegrees covers
#: rotational coordinates only): HuMoD's positions pBJX..; translations *_tx, urdf2dyn's
#: *_x/_y/_z and *_vx..; points *_px..; quaternions *_qx..*_qw; forces, moments, torques.
_NOT_ANGLE_RE = re.compile(r"(^p[A-Z])|(_[tvp]?[xyz]$)|(_q[xyzw]$)|(ground_(force|torque))"
                           r"|(_(force|moment|torque)s?(_[xyz])?$)")
_TORQUE_SUFFIX_RE = re.compile(r"^(?P<dof>.+)_(?P<kind>moment|force)$")


class MotionError(ValueError):
    """A motion or load file that cannot be used as it is (the message names the file, row or
    column and what to do)."""


# ----------------------------------------------------------------------------- the container

@dataclass
class Trajectory:
    """A sampled motion. Units: s, m, rad (and m/s, rad/s, ...), N.

    time (N,); q (N, n) with names (n,); v, a (N, m) or None with v_names (default: names);
    grf, cop: {foot: (N, 3)} ground reaction force (N) and centre of pressure (m) in the world
    frame, e.g. {"L": ..., "R": ...}; meta: free-form (source file, frame rates, ...);
    moment: {foot: (N, 3)} optional free moment (N·m, world frame) acting with the force at the CoP.
    """
    time: NDArray[np.float64]
    q: NDArray[np.float64]
    names: list[str]
    v: NDArray[np.float64] | None = None
    a: NDArray[np.float64] | None = None
    v_names: list[str] | None = None
    grf: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    cop: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    moment: dict[str, NDArray[np.float64]] = field(default_factory=dict)

    def __post_init__(self):
        self.time = np.asarray(self.time, dtype=float).reshape(-1)
        self.q = np.asarray(self.q, dtype=float)
        if self.q.ndim == 1:
            self.q = self.q[:, None]
        self.names = [str(n) for n in self.names]
        n = len(self.time)
        if self.q.shape != (n, len(self.names)):
            raise ValueError(f"q: expected shape ({n}, {len(self.names)}) (time samples, names), "
                             f"got {self.q.shape}")
        if len(set(self.names)) != len(self.names):
            dup = sorted({x for x in self.names if self.names.count(x) > 1})
            raise ValueError(f"duplicate coordinate names {dup}")
        if self.v_names is None and (self.v is not None or self.a is not None):
            self.v_names = list(self.names)
        if self.v_names is not None:
            self.v_names = [str(x) for x in self.v_names]
        for key in ("v", "a"):
            arr = getattr(self, key)
            if arr is not None:
                arr = np.asarray(arr, dtype=float)
                if arr.shape != (n, len(self.v_names)):
                    raise ValueError(f"{key}: expected shape ({n}, {len(self.v_names)}), got {arr.shape}")
                setattr(self, key, arr)
        for key in ("grf", "cop", "moment"):
            d = {str(k): np.asarray(x, dtype=float) for k, x in dict(getattr(self, key)).items()}
            for k, x in d.items():
                if x.shape != (n, 3):
                    raise ValueError(f"{key}[{k!r}]: expected shape ({n}, 3), got {x.shape}")
            setattr(self, key, d)

    def __len__(self):
        return len(self.time)

    @property
    def frame_rate(self):
        """Samples per second (from the mean time step)."""
        return (len(self.time) - 1) / (self.time[-1] - self.time[0]) if len(self.time) > 1 else None

    def column(self, name):
        """The q column called name."""
        return self.q[:, self.names.index(name)]

    def renamed(self, mapping):
        """A copy with coordinates renamed by mapping (dict or file, see load_mapping)."""
        m = load_mapping(mapping)
        return replace(self, names=[m.get(n, n) for n in self.names],
                       v_names=None if self.v_names is None else [m.get(n, n) for n in self.v_names])

    def select(self, names, v_names=None):
        """A copy with the q columns (and v/a columns) reordered/restricted to the given names."""
        names = list(names)
        idx = _indices(self.names, names, "coordinates")
        kw = {"q": self.q[:, idx], "names": names}
        if self.v is not None or self.a is not None:
            vn = names if v_names is None else list(v_names)
            vidx = _indices(self.v_names, vn, "velocity columns")
            kw.update(v=None if self.v is None else self.v[:, vidx],
                      a=None if self.a is None else self.a[:, vidx], v_names=vn)
        return replace(self, **kw)

    def for_model(self, model: Model) -> tuple[NDArray[np.float64], NDArray[np.float64],
                                               NDArray[np.float64] | None,
                                               NDArray[np.float64] | None]:
        """(time, q, v, a) in model's order (v, a None if absent), matched by name.

        A trajectory with HuMoD's root coordinates (pBJX .. rBJZ) given to a model whose root is
        the floating joint 'BJ' (``human(..., root="floating")``) is converted on the way
        (urdf2dyn.human.root_to_floating)."""
        names = list(self.names)
        if (model.q_names[:7] == ["BJ_x", "BJ_y", "BJ_z", "BJ_qx", "BJ_qy", "BJ_qz", "BJ_qw"]
                and "pBJX" in names and "BJ_x" not in names):
            from .human import root_to_floating
            order = ["pBJX", "pBJY", "pBJZ", "rBJX", "rBJY", "rBJZ"] + list(model.q_names[7:])
            sub = self.select(order)
            qf, vf, af = root_to_floating(sub.q, sub.v, sub.a if sub.v is not None else None)
            return self.time.copy(), qf, vf, af
        missing = [n for n in model.q_names if n not in names]
        if missing:
            raise MotionError(f"trajectory lacks the model's coordinates {missing} (it has "
                              f"{names}); rename with a mapping")
        q = self.q[:, _indices(names, model.q_names, "coordinates")]
        v = a = None
        if self.v is not None or self.a is not None:
            assert self.v_names is not None          # __post_init__ sets them with v or a
            vmiss = [n for n in model.v_names if n not in self.v_names]
            if vmiss:
                raise MotionError(f"trajectory lacks the model's velocity columns {vmiss}")
            vidx = _indices(self.v_names, model.v_names, "velocity columns")
            v = None if self.v is None else self.v[:, vidx]
            a = None if self.a is None else self.a[:, vidx]
        return self.time.copy(), np.ascontiguousarray(q), v, a

    def with_derivatives(self, method="gradient", cutoff_hz=None, model=None, filter_positions=True,
                         **options):
        """A copy with v and a estimated from q (see estimate_derivatives); with cutoff_hz and
        filter_positions, q is replaced by its low-pass filtered version too. With a model, q's
        columns must be the model's coordinates (in any order): the result is in model order."""
        traj = self
        if model is not None:
            t, q, _, _ = self.for_model(model)
            traj = replace(self, q=q, names=list(model.q_names), v=None, a=None, v_names=None)
        qf, v, a = estimate_derivatives(traj.time, traj.q, method=method, cutoff_hz=cutoff_hz,
                                        model=model, return_positions=True, **options)
        v_names = list(model.v_names) if model is not None else list(traj.names)
        return replace(traj, q=qf if filter_positions else traj.q, v=v, a=a, v_names=v_names)

    def f_ext(self, links=None, sign=1.0):
        """External wrenches {link: (N, 6)} for model.inverse_dynamics from the GRF and CoP.

        links maps a foot key to a URDF link, default {"L": "foot_L", "R": "foot_R"} (the human
        model's feet). Each force is applied at its CoP (urdf2dyn.wrench_at_point), plus the
        foot's free moment when ``moment`` has one; samples where the force or the CoP is not
        finite (no contact) give a zero wrench, a non-finite free moment counts as zero.
        sign=-1 flips forces (and moments) stored as the subject's action on the ground."""
        from .forces import wrench_at_point
        links = {"L": "foot_L", "R": "foot_R"} if links is None else dict(links)
        out = {}
        for key, link in links.items():
            if key not in self.grf:
                raise KeyError(f"no ground reaction force for foot {key!r} (have {sorted(self.grf)})")
            f = sign * self.grf[key]
            p = self.cop.get(key)
            if p is None:
                raise KeyError(f"no centre of pressure for foot {key!r}")
            ok = np.all(np.isfinite(f), axis=1) & np.all(np.isfinite(p), axis=1)
            mo = self.moment.get(key)
            if mo is not None:
                mo = np.where(np.isfinite(mo), sign * mo, 0.0)[ok]
            w = np.zeros((len(f), 6))
            w[ok] = wrench_at_point(f[ok], p[ok], mo)
            out[link] = w
        return out


def _indices(have, want, what):
    pos = {n: k for k, n in enumerate(have)}
    missing = [n for n in want if n not in pos]
    if missing:
        raise MotionError(f"missing {what} {missing}")
    return [pos[n] for n in want]


# ----------------------------------------------------------------------------- names and units

def load_mapping(mapping):
    """A {from: to} name mapping from a dict, a JSON object file or a two-column CSV file.

    CSV: one pair per line, ``from,to``; a first line ``from,to`` (or ``source,target``) is
    skipped, as are blank lines and lines starting with '#'. None gives {}."""
    if mapping is None:
        return {}
    if isinstance(mapping, dict):
        return {str(k): str(v) for k, v in mapping.items()}
    path = os.fspath(mapping)
    if path.lower().endswith(".json"):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a JSON object {{\"from\": \"to\", ...}}")
        return {str(k): str(v) for k, v in data.items()}
    out = {}
    with open(path, newline="", encoding="utf-8") as f:
        for lineno, row in enumerate(csv.reader(f), 1):
            row = [c.strip() for c in row]
            if not row or not any(row) or row[0].startswith("#"):
                continue
            if len(row) != 2:
                raise ValueError(f"{path}:{lineno}: expected two columns 'from,to', got {row}")
            if lineno == 1 and row[0].lower() in ("from", "source") and row[1].lower() in ("to", "target"):
                continue
            out[row[0]] = row[1]
    return out


def angle_columns(names, model=None, linear=(), velocity=False):
    """Boolean mask: which of names are angles (the columns a degrees/radians conversion touches).

    With a model: exactly its rotational coordinates, from the joint types: revolute and
    continuous joints, a planar joint's ``_theta``, and (velocity=True: rates) a floating
    joint's ``_wx _wy _wz``; any other column (translations, quaternions, forces, unknown names)
    is not an angle. Without a model, OpenSim's rule (``inDegrees`` covers rotational coordinates
    only): every column is a coordinate angle except those whose names say otherwise:
    translations (``*_tx``, HuMoD's ``pBJX``, urdf2dyn's ``*_x`` / ``*_vx``), points
    (``*_px``), quaternion components (``*_qx .. *_qw``), forces, moments and torques
    (``ground_force_*``, ``ground_torque_*``, ``*_force``, ``*_moment``). linear: more names that
    are not angles."""
    linear = set(linear or ())
    if model is not None:
        ang = set()
        for j in model.joints:
            if j.type in ("revolute", "continuous"):
                ang.add(j.name)
            elif j.type == "planar":
                ang.add(f"{j.name}_theta")
            elif j.type == "floating" and velocity:
                ang.update(f"{j.name}_{s}" for s in ("wx", "wy", "wz"))
        return np.array([n in ang and n not in linear for n in names], dtype=bool)
    return np.array([n not in linear and not _NOT_ANGLE_RE.search(n) for n in names], dtype=bool)


# ----------------------------------------------------------------------------- tables

def _to_table(traj, degrees=False, model=None, linear=(), derivatives=True, forces=True):
    """(header, data) of the shared column layout."""
    k = 180.0 / math.pi if degrees else 1.0
    cols, header = [traj.time], ["time"]
    qs = traj.q.copy()
    qs[:, angle_columns(traj.names, model, linear)] *= k
    cols.append(qs)
    header += traj.names
    if derivatives and (traj.v is not None or traj.a is not None):
        vmask = angle_columns(traj.v_names, model, linear, velocity=True)
        for arr, suffix in ((traj.v, "_vel"), (traj.a, "_acc")):
            if arr is not None:
                x = arr.copy()
                x[:, vmask] *= k
                cols.append(x)
                header += [f"{n}{suffix}" for n in traj.v_names]
    if forces:
        for side in sorted(set(traj.grf) | set(traj.cop) | set(traj.moment)):
            for kind, d in (("grf", traj.grf), ("cop", traj.cop), ("mom", traj.moment)):
                if side in d:
                    cols.append(d[side])
                    header += [f"{kind}{ax}_{side}" for ax in "XYZ"]
    return header, np.column_stack(cols)


def _from_table(header, data, source, degrees=False, model=None, linear=(), mapping=None,
                meta=None):
    header = [h.strip() for h in header]
    data = np.asarray(data, dtype=float).reshape(-1, len(header))
    lower = [h.lower() for h in header]
    if "time" in lower and lower[0] in ("", "unnamed: 0", "index"):
        # pandas' df.to_csv() writes the (unnamed) index as a first column: not a coordinate
        header, lower, data = header[1:], lower[1:], data[:, 1:]
    if "time" not in lower:
        hint = ""
        if lower and lower[0] in ("", "unnamed: 0"):
            hint = (": its first column has no name (a pandas index written by df.to_csv()?); "
                    "name it 'time' (df.index.name = 'time') if it holds the times")
        raise MotionError(f"{source}: missing columns ['time'] (no 'time' column; columns: "
                          f"{header}){hint}")
    if len(set(header)) != len(header):
        dup = sorted({h for h in header if header.count(h) > 1})
        raise MotionError(f"{source}: duplicate columns {dup}")
    t = data[:, lower.index("time")]
    if len(t) and (not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0)):
        bad = np.flatnonzero(~np.isfinite(t))
        bad = bad if len(bad) else np.flatnonzero(np.diff(t) <= 0) + 1
        raise MotionError(f"{source}: the time column must be finite and strictly increasing "
                          f"(not at data rows {_rows(bad)})")
    qcols, vcols, acols, force = [], [], [], {}
    for k, h in enumerate(header):
        if h.lower() == "time":
            continue
        m = _FORCE_RE.match(h)
        o = _OPENSIM_FORCE_RE.match(h)
        if m:
            force.setdefault((m.group(1), m.group(3)), {})[m.group(2)] = k
        elif o:                      # OpenSim's names: never angles, never coordinates
            kind = {"force_v": "grf", "force_p": "cop", "torque_": "mom"}[o["kind"]]
            force.setdefault((kind, o["key"]), {})[o["ax"].upper()] = k
        elif h.endswith("_vel"):
            vcols.append((h[:-4], k))
        elif h.endswith("_acc"):
            acols.append((h[:-4], k))
        else:
            qcols.append((h, k))
    ren = load_mapping(mapping)
    names = [ren.get(h, h) for h, _ in qcols]
    q = data[:, [k for _, k in qcols]]
    v = a = v_names = None
    if vcols or acols:
        vn = [n for n, _ in vcols] or [n for n, _ in acols]
        if vcols and acols and [n for n, _ in acols] != vn:
            raise MotionError(f"{source}: the '_vel' and '_acc' columns name different coordinates")
        v_names = [ren.get(n, n) for n in vn]
        v = data[:, [k for _, k in vcols]] if vcols else None
        a = data[:, [k for _, k in acols]] if acols else None
    if degrees:
        k = math.pi / 180.0
        q[:, angle_columns(names, model, linear)] *= k
        if v_names is not None:
            vmask = angle_columns(v_names, model, linear, velocity=True)
            for arr in (v, a):
                if arr is not None:
                    arr[:, vmask] *= k
    grf, cop, mom = {}, {}, {}
    for (kind, side), axes in force.items():
        if set(axes) != {"X", "Y", "Z"}:
            raise MotionError(f"{source}: incomplete {kind} columns for {side!r}: have {sorted(axes)}")
        {"grf": grf, "cop": cop, "mom": mom}[kind][side] = data[:, [axes["X"], axes["Y"], axes["Z"]]]
    meta = dict(meta or {})
    meta.setdefault("source", source)
    return Trajectory(t, q, names, v=v, a=a, v_names=v_names, grf=grf, cop=cop, meta=meta,
                      moment=mom)


def _rows(idx, limit=8):
    """'3, 4, 5 (t = ...)'-style text for data row indices (1 = the first data row)."""
    idx = [int(i) + 1 for i in idx]
    text = ", ".join(str(i) for i in idx[:limit])
    return text + (f", ... ({len(idx)} rows)" if len(idx) > limit else "")


def read_table(path):
    """(header, data) of a numeric CSV file with one header line: the one CSV reader.

    Cells that are empty or spell NaN (:data:`MISSING`; pandas' ``df.to_csv()`` writes NaN as an
    empty cell) are read as NaN, i.e. missing samples; what to do about them is the caller's
    choice (urdf2dyn.gaps). Anything else that is not a number is refused, naming the row and the
    column. Files over FAST_CSV_BYTES go through pandas' C parser when pandas is installed."""
    path = os.fspath(path)
    with open(path, newline="", encoding="utf-8-sig") as f:
        header = [h.strip() for h in next(csv.reader(f), [])]
    if not header or header == [""]:
        raise MotionError(f"{path}: empty file (expected a header line)")
    data = _read_fast(path, len(header)) if os.path.getsize(path) > FAST_CSV_BYTES else None
    if data is None:
        try:                   # NumPy's C parser: a clean table (numbers, nan) in one pass
            data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=float,
                              encoding="utf-8-sig")
            if data.shape[0] and data.shape[1] != len(header):
                data = None
        except ValueError:     # empty cells, words, ragged rows: the csv module words it
            data = None
    if data is None:
        data = _read_slow(path, header)
    return header, data.reshape(-1, len(header))


def _read_slow(path, header):
    missing = set(MISSING)
    rows = []
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        next(reader, None)
        for lineno, row in enumerate(reader, 2):
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != len(header):
                raise MotionError(f"{path}: line {lineno} has {len(row)} values for "
                                  f"{len(header)} header columns")
            out = []
            for col, cell in zip(header, row):
                cell = cell.strip()
                if cell in missing:
                    out.append(math.nan)
                    continue
                try:
                    out.append(float(cell))
                except ValueError:
                    raise MotionError(f"{path}: line {lineno}, column {col!r}: {cell!r} is not "
                                      "a number (not a numeric CSV table; leave a cell empty or "
                                      "write NaN for a missing sample)") from None
            rows.append(out)
    return np.array(rows, dtype=float).reshape(-1, len(header))


def _read_fast(path, ncol):
    """The numbers of a large CSV file via pandas, or None (no pandas, or anything unusual:
    the caller then reads it with the csv module, which also words the errors)."""
    try:
        import pandas as pd
    except ImportError:
        return None
    try:
        df = pd.read_csv(path, dtype=float, engine="c", keep_default_na=False,
                         na_values=list(MISSING), skip_blank_lines=True)
    except Exception:          # noqa: BLE001 - any parser trouble: fall back to the csv module
        return None
    if df.shape[1] != ncol:
        return None
    # pandas pads a short row with NaN: count the separators so a short row is refused instead
    with open(path, "rb") as f:
        if any(line.count(b",") != ncol - 1 for line in f if line.strip()):
            return None
    return np.ascontiguousarray(df.to_numpy(dtype=float))


#: Enough digits for every float64 to read back bit for bit (torques: "read back identically").
_EXACT = "{:.17g}"


def write_table(path, t, values, names, fmt="{:.15g}"):
    """Write a CSV with a ``time`` column and one column per name (values (N, len(names))), 15
    significant digits (fmt; "{:.17g}" reads back bit for bit), NaN as ``nan``: the one CSV
    writer."""
    table = np.column_stack([np.asarray(t, dtype=float), np.asarray(values, dtype=float)])
    np.savetxt(path, table, delimiter=",", header=",".join(["time", *names]), comments="",
               fmt="%" + fmt[2:-1])


def read_csv(path, degrees=False, model=None, mapping=None, linear=()):
    """Read a CSV trajectory (header line, then numbers): ``time``, coordinates, optional
    ``<dof>_vel`` / ``<dof>_acc``, optional ``grfX_L ... copZ_R`` and ``momX_L ... momZ_R``.
    degrees=True: angles (and their rates) are in degrees (see the module docstring for which
    columns are angles)."""
    header, data = read_table(path)
    return _from_table(header, data, os.fspath(path), degrees, model, linear, mapping,
                       {"format": "csv"})


def write_csv(path, traj, degrees=False, model=None, linear=(), derivatives=True, forces=True):
    """Write traj as CSV (the layout read_csv reads; 15 significant digits)."""
    header, data = _to_table(traj, degrees, model, linear, derivatives, forces)
    write_table(path, data[:, 0], data[:, 1:], header[1:])


# ----------------------------------------------------------------------------- OpenSim

def read_sto_table(path):
    """(labels, data, header info, name) of an OpenSim motion/storage file (.mot, .sto): the
    one reader of the format, as written, nothing converted.

    Header lines up to ``endheader``: an optional name line, ``key=value`` lines (keys
    lower-cased in info; ``nRows``/``nColumns`` are checked when present), then a line of column
    labels (tab-separated, or whitespace-separated without tabs) and the numbers."""
    path = os.fspath(path)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    try:
        end = next(i for i, line in enumerate(lines) if line.strip().lower() == "endheader")
    except StopIteration:
        raise MotionError(f"{path}: no 'endheader' line (not an OpenSim .mot/.sto file)") from None
    info, name = {}, None
    for i, line in enumerate(lines[:end]):
        s = line.strip()
        if "=" in s:
            key, _, value = s.partition("=")
            info[key.strip().lower()] = value.strip()
        elif s and i == 0:
            name = s
    body = [line for line in lines[end + 1:] if line.strip()]
    if not body:
        raise MotionError(f"{path}: no column labels after 'endheader'")
    labels = body[0].split("\t") if "\t" in body[0] else body[0].split()
    labels = [x.strip() for x in labels]
    try:
        rows = [[float(x) for x in line.split()] for line in body[1:]]
    except ValueError as e:
        raise MotionError(f"{path}: not a numeric table after the labels ({e})") from None
    bad = [i for i, r in enumerate(rows) if len(r) != len(labels)]
    if bad:
        raise MotionError(f"{path}: data row {bad[0] + 1} has {len(rows[bad[0]])} values for "
                          f"{len(labels)} columns")
    data = np.array(rows, dtype=float).reshape(-1, len(labels))
    for key, actual in (("nrows", data.shape[0]), ("ncolumns", len(labels))):
        if key in info:
            try:
                declared = int(info[key])
            except ValueError:
                raise MotionError(f"{path}: {key}={info[key]!r} is not an integer") from None
            if declared != actual:
                raise MotionError(f"{path}: header says {key}={declared} but the table has {actual}")
    return labels, data, info, name


def read_columns(path):
    """(labels, data) of a CSV or OpenSim .mot/.sto file exactly as written (no unit
    conversion, no column interpretation): for callers that address columns by their labels,
    such as OpenSim's ExternalLoads identifiers."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in (".mot", ".sto"):
        labels, data, _, _ = read_sto_table(path)
        return labels, data
    if ext == ".csv":
        return read_table(path)
    raise MotionError(f"{os.fspath(path)}: unknown table format {ext!r} (expected .csv, .mot or "
                      ".sto)")


def read_opensim(path, model=None, mapping=None, linear=()):
    """Read an OpenSim motion/storage file (.mot, .sto) as a Trajectory (see read_sto_table for
    the layout). ``inDegrees=yes`` converts the rotational coordinates only (angle_columns)."""
    path = os.fspath(path)
    labels, data, info, name = read_sto_table(path)
    deg = info.get("indegrees", "no").lower()
    if deg not in ("yes", "no", "true", "false"):
        raise MotionError(f"{path}: inDegrees={info['indegrees']!r} (expected yes or no)")
    degrees = deg in ("yes", "true")
    return _from_table(labels, data, path, degrees, model, linear, mapping,
                       {"format": "opensim", "name": name, "in_degrees": degrees, "header": info})


def write_opensim(path, traj, degrees=None, name=None, model=None, linear=(), derivatives=False,
                  forces=False):
    """Write an OpenSim .mot/.sto file: header ``name``, ``version=1``, ``nRows``, ``nColumns``,
    ``inDegrees=yes|no``, ``endheader``, then tab-separated labels and values.

    degrees: write angles in degrees (``inDegrees=yes``, OpenSim's usual choice for
    coordinates); which columns are angles: see :func:`angle_columns` (with a model, exactly its
    rotational coordinates). The default None means yes with a model and no without one, so a
    table that is not a motion (torques, forces) is never multiplied by 180/pi: write torques with
    :func:`write_torques`. Lengths stay in m."""
    if degrees is None:
        degrees = model is not None
    header, data = _to_table(traj, degrees, model, linear, derivatives, forces)
    _write_sto(path, header, data, degrees,
               name or os.path.splitext(os.path.basename(os.fspath(path)))[0])


def _write_sto(path, header, data, degrees, name, fmt="{:.15g}"):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"{name}\nversion=1\nnRows={data.shape[0]}\nnColumns={data.shape[1]}\n"
                f"inDegrees={'yes' if degrees else 'no'}\nendheader\n")
        f.write("\t".join(header) + "\n")
        for row in data:
            f.write("\t".join(fmt.format(x) for x in row) + "\n")


# ----------------------------------------------------------------------------- torques

def torque_names(model):
    """OpenSim's inverse-dynamics column names of the model's generalized forces, in v order:
    ``<coordinate>_moment`` for a rotational DoF (revolute, continuous, a planar joint's theta, a
    floating joint's wx wy wz), ``<coordinate>_force`` for a translational one."""
    ang = angle_columns(model.v_names, model, velocity=True)
    return [f"{n}_{'moment' if a else 'force'}" for n, a in zip(model.v_names, ang)]


def write_torques(path, t, tau, model, per_kg=False, name=None):
    """Write generalized forces tau (N, model.nv) at times t (N,): the one way to save torques.

    ``.sto``/``.mot``: OpenSim's inverse-dynamics layout, ``inDegrees=no`` (forces are never
    angles), columns ``time`` + :func:`torque_names` (``<coordinate>_moment`` in N·m,
    ``<coordinate>_force`` in N): OpenSim and its users read it as one of their own. ``.csv``:
    ``time`` + ``model.v_names``. 17 significant digits: the values read back bit for bit. per_kg only names the unit in the .sto title (N·m/kg): divide
    tau yourself (urdf2dyn.grf.per_kg). :func:`read_torques` reads both back."""
    tau = np.asarray(tau, dtype=float)
    t = np.asarray(t, dtype=float).reshape(-1)
    if tau.ndim != 2 or tau.shape != (len(t), model.nv):
        raise ValueError(f"tau: expected shape ({len(t)}, {model.nv}) (samples, model.nv), got "
                         f"{tau.shape}")
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in (".sto", ".mot"):
        unit = "N·m/kg, N/kg" if per_kg else "N·m, N"
        _write_sto(path, ["time", *torque_names(model)], np.column_stack([t, tau]), False,
                   name or f"urdf2dyn inverse dynamics ({unit})", fmt=_EXACT)
    elif ext == ".csv":
        write_table(path, t, tau, model.v_names, fmt=_EXACT)
    else:
        raise ValueError(f"{os.fspath(path)}: torques are written as .sto, .mot or .csv, not "
                         f"{ext!r}")


def read_torques(path, model=None):
    """(t (N,), tau (N, k), names) of a torque file written by :func:`write_torques` (or by
    OpenSim's inverse-dynamics tool): ``<dof>_moment`` / ``<dof>_force`` names are mapped back to
    the DoF names. With a model, the columns are returned in ``model.v_names`` order (all of them
    must be there)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in (".sto", ".mot"):
        traj = read_opensim(path)
        if traj.meta.get("in_degrees"):
            raise MotionError(f"{os.fspath(path)}: inDegrees=yes in a torque file (generalized "
                              "forces are never in degrees): rewrite it with inDegrees=no")
    else:
        traj = read(path)
    names = []
    for n in traj.names:
        m = _TORQUE_SUFFIX_RE.match(n)
        names.append(m["dof"] if m else n)
    tau = traj.q
    if model is not None:
        tau = tau[:, _indices(names, model.v_names, "torque columns")]
        names = list(model.v_names)
    return traj.time, np.ascontiguousarray(tau), names


# ----------------------------------------------------------------------------- HuMoD .mat

def _field(struct, *names, where=""):
    for n in names:
        if isinstance(struct, dict) and n in struct:
            return struct[n]
    raise MotionError(f"{where}: no field {' / '.join(names)}")


def _strings(x):
    if isinstance(x, str):
        return [x]
    return [str(np.asarray(s).item() if np.ndim(s) == 0 else "".join(np.ravel(s))).strip()
            for s in np.ravel(np.asarray(x, dtype=object))]


def read_humod(path, mapping=None, length_scale=HUMOD_LENGTH_SCALE, forces=True):
    """Read a HuMoD .mat file (Wojtusch & von Stryk 2015) with SciPy.

    ``motion.trajectory.q`` (and ``dqdt``, ``ddqddt`` when present): one row per label of
    ``motion.trajectoryLabels``, one column per frame at ``motion.frameRate`` Hz; time
    t = frame / frameRate from 0. Angles are in rad; the base-joint positions pBJX pBJY pBJZ
    (names ``p`` + capital) and their rates are in mm and are multiplied by length_scale.
    ``force.grfX_L ... grfZ_R`` (N) and ``force.copX_L ... copZ_R`` (mm -> m) are sampled at
    ``force.frameRate`` (twice the motion rate in HuMoD) and resampled to the motion's times:
    every k-th sample when the rate is k times the motion's, linear interpolation otherwise.
    The columns keep HuMoD's order (``urdf2dyn.human.HUMOD_LABELS``); ``for_model`` reorders.
    """
    from scipy.io import loadmat
    from scipy.io.matlab import MatReadError
    path = os.fspath(path)
    try:
        mat = loadmat(path, simplify_cells=True)
    except (MatReadError, ValueError, OSError, NotImplementedError) as e:
        raise MotionError(f"{path}: not a MATLAB .mat file SciPy can read ({e}; MATLAB v7.3 "
                          "files are HDF5: save them with -v7 or read them with h5py)") from None
    if "motion" not in mat:
        found = sorted(k for k in mat if not k.startswith("__"))
        raise MotionError(f"{path}: no 'motion' struct (variables: {found})")
    motion = mat["motion"]
    where = f"{path}: motion"
    traj = _field(motion, "trajectory", where=where)
    labels = _strings(motion["trajectoryLabels"] if "trajectoryLabels" in motion
                      else _field(traj, "trajectoryLabels", "labels", where=where + ".trajectory"))
    rate = float(_field(motion, "frameRate", where=where))
    if not (math.isfinite(rate) and rate > 0):
        raise MotionError(f"{where}.frameRate must be positive, got {rate}")

    def rows(key):
        x = np.asarray(traj[key], dtype=float)
        x = x.reshape(len(labels), -1) if x.ndim < 2 else x
        if x.shape[0] == len(labels):
            return x.T.copy()
        if x.shape[1] == len(labels):
            return x.copy()
        raise MotionError(f"{where}.trajectory.{key}: shape {x.shape} does not match "
                          f"{len(labels)} labels")

    q = rows("q")
    lin = np.array([bool(re.match(r"^p[A-Z]", n)) for n in labels])
    q[:, lin] *= length_scale
    ren = load_mapping(mapping)
    v = a = None
    if "dqdt" in traj:
        v = rows("dqdt")
        v[:, lin] *= length_scale
    if "ddqddt" in traj:
        a = rows("ddqddt")
        a[:, lin] *= length_scale
    n = q.shape[0]
    for name, arr in (("dqdt", v), ("ddqddt", a)):
        if arr is not None and arr.shape[0] != n:
            raise MotionError(f"{where}.trajectory.{name}: {arr.shape[0]} frames, q has {n}")
    t = np.arange(n) / rate
    meta = {"format": "humod", "source": path, "frame_rate": rate, "labels": list(labels)}
    grf, cop = {}, {}
    if forces and "force" in mat:
        force = mat["force"]
        frate = float(_field(force, "frameRate", where=f"{path}: force"))
        meta["force_frame_rate"] = frate
        sides = sorted({m.group(3) for k in force for m in [_FORCE_RE.match(k)] if m})
        for side in sides:
            for kind, d, scale in (("grf", grf, 1.0), ("cop", cop, length_scale)):
                keys = [f"{kind}{ax}_{side}" for ax in "XYZ"]
                if not all(k in force for k in keys):
                    continue
                raw = np.column_stack([np.ravel(np.asarray(force[k], dtype=float)) for k in keys])
                d[side] = _resample(raw * scale, frate, t)
    names = [ren.get(n, n) for n in labels]
    return Trajectory(t, q, names, v=v, a=a, v_names=names if v is not None or a is not None else None,
                      grf=grf, cop=cop, meta=meta)


def _resample(x, rate, t):
    """Samples x (M, k) taken at rate Hz from t = 0, evaluated at times t."""
    ratio = rate * (t[1] - t[0]) if len(t) > 1 else 1.0
    k = int(round(ratio))
    if k >= 1 and abs(ratio - k) < 1e-9 * max(1, k) and len(x) >= k * (len(t) - 1) + 1:
        return x[::k][:len(t)].copy()
    tx = np.arange(len(x)) / rate
    return np.column_stack([np.interp(t, tx, x[:, c]) for c in range(x.shape[1])])


def write_humod(path, traj, length_scale=HUMOD_LENGTH_SCALE, force_rate_factor=2):
    """Write traj in HuMoD's .mat layout (for tests and exchange): ``motion.frameRate``,
    ``motion.frames``, ``motion.trajectoryLabels``, ``motion.trajectory.q/dqdt/ddqddt`` (rows =
    labels; lengths divided by length_scale: mm), ``force.frameRate`` = force_rate_factor x the
    motion's and ``force.grfX_L ...``, ``force.copX_L ...`` (mm) linearly interpolated to it
    (read_humod takes every k-th sample back: the round trip is exact)."""
    from scipy.io import savemat
    rate = traj.meta.get("frame_rate") or traj.frame_rate
    lin = np.array([bool(re.match(r"^p[A-Z]", n)) for n in traj.names])

    def rows(x):
        x = x.copy()
        x[:, lin] /= length_scale
        return x.T

    tr = {"q": rows(traj.q)}
    if traj.v is not None or traj.a is not None:
        if traj.v_names != traj.names:
            raise ValueError("write_humod: v/a columns must match the coordinates")
        if traj.v is not None:
            tr["dqdt"] = rows(traj.v)
        if traj.a is not None:
            tr["ddqddt"] = rows(traj.a)
    motion = {"frameRate": float(rate), "frames": len(traj), "trajectory": tr,
              "trajectoryLabels": np.array(traj.names, dtype=object).reshape(1, -1)}
    out = {"motion": motion}
    if traj.grf or traj.cop:
        frate = force_rate_factor * float(rate)
        nf = force_rate_factor * len(traj)
        tf = np.arange(nf) / frate
        force = {"frameRate": frate, "frames": nf}
        for kind, d, scale in (("grf", traj.grf, 1.0), ("cop", traj.cop, length_scale)):
            for side, x in d.items():
                for c, ax in enumerate("XYZ"):
                    force[f"{kind}{ax}_{side}"] = (np.interp(tf, traj.time - traj.time[0], x[:, c])
                                                   / scale).reshape(1, -1)
        out["force"] = force
    savemat(path, out)


# ----------------------------------------------------------------------------- pandas

def to_dataframe(traj, degrees=False, model=None, linear=(), derivatives=True, forces=True):
    """A pandas DataFrame indexed by ``time`` with the table columns (see the module docstring)."""
    import pandas as pd
    header, data = _to_table(traj, degrees, model, linear, derivatives, forces)
    return pd.DataFrame(data[:, 1:], columns=header[1:], index=pd.Index(data[:, 0], name="time"))


def from_dataframe(df, degrees=False, model=None, mapping=None, linear=()):
    """A Trajectory from a DataFrame: a ``time`` column, or else the index, is the time."""
    cols = [str(c) for c in df.columns]
    if "time" in [c.lower() for c in cols]:
        header, data = cols, df.to_numpy(dtype=float)
    else:
        header = ["time"] + cols
        data = np.column_stack([np.asarray(df.index, dtype=float), df.to_numpy(dtype=float)])
    return _from_table(header, data, "DataFrame", degrees, model, linear, mapping,
                       {"format": "dataframe"})


# ----------------------------------------------------------------------------- dispatch

_READERS: dict[str, Callable[..., Trajectory]] = {
    ".csv": read_csv, ".mot": read_opensim, ".sto": read_opensim, ".mat": read_humod}
_WRITERS: dict[str, Callable[..., None]] = {
    ".csv": write_csv, ".mot": write_opensim, ".sto": write_opensim, ".mat": write_humod}


def read(path: str | os.PathLike[str], **options: Any) -> Trajectory:
    """Read a trajectory file by its extension: .csv, .mot/.sto (OpenSim), .mat (HuMoD)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in _READERS:
        raise ValueError(f"{os.fspath(path)}: unknown trajectory format {ext!r} "
                         f"(expected one of {sorted(_READERS)})")
    return _READERS[ext](path, **options)


def write(path: str | os.PathLike[str], traj: Trajectory, **options: Any) -> None:
    """Write a trajectory file by its extension (see read)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in _WRITERS:
        raise ValueError(f"{os.fspath(path)}: unknown trajectory format {ext!r} "
                         f"(expected one of {sorted(_WRITERS)})")
    _WRITERS[ext](path, traj, **options)


# ----------------------------------------------------------------------------- derivatives

def _uniform_step(t, what):
    t = np.asarray(t, dtype=float)
    dt = np.diff(t)
    if len(t) < 2 or np.any(dt <= 0) or not np.all(np.isfinite(t)):
        raise ValueError("t: expected at least 2 finite, strictly increasing times")
    h = (t[-1] - t[0]) / (len(t) - 1)
    if np.max(np.abs(dt - h)) > 1e-4 * h:
        raise ValueError(f"{what} needs uniformly sampled data (time steps vary from "
                         f"{dt.min():g} to {dt.max():g} s); resample first or use method='spline'"
                         " / 'gradient' without cutoff_hz")
    return h


def lowpass(t, x, cutoff_hz, order=2):
    """Zero-lag Butterworth low-pass filter of x (N, ...) sampled at times t (uniform).

    A Butterworth filter of the given order (scipy.signal.butter) run forwards and backwards
    (scipy.signal.filtfilt, odd padding): no phase lag, twice the order's roll-off, and gain
    ``|H(f)|^2``, i.e. 0.5 (-6 dB) at cutoff_hz rather than -3 dB; no cutoff correction is applied.
    The default order 2 gives the usual 4th-order zero-lag filter of biomechanics (Winter 2009,
    ch. 3). cutoff_hz must be below the Nyquist frequency."""
    from scipy.signal import butter, filtfilt
    h = _uniform_step(t, "the Butterworth filter")
    fs = 1.0 / h
    cutoff_hz = float(cutoff_hz)
    if not (0 < cutoff_hz < fs / 2):
        raise ValueError(f"cutoff_hz: expected 0 < cutoff < Nyquist = {fs / 2:g} Hz, got {cutoff_hz:g}")
    b, a = butter(int(order), cutoff_hz / (fs / 2))
    x = np.asarray(x, dtype=float)
    padlen = 3 * max(len(a), len(b))
    if x.shape[0] <= padlen:
        raise ValueError(f"the Butterworth filter needs more than {padlen} samples, got {x.shape[0]}")
    return filtfilt(b, a, x, axis=0, padtype="odd", padlen=padlen)


def estimate_derivatives(t: ArrayLike, q: ArrayLike, method: str = "gradient",
                         cutoff_hz: float | None = None, *, model: Model | None = None,
                         filter_order: int = 2, window: int | None = None, polyorder: int = 3,
                         return_positions: bool = False) -> tuple[NDArray[np.float64], ...]:
    """Velocities and accelerations of sampled coordinates q (N, n) at times t (N,): urdf2dyn's
    one derivative estimator (the command line's ``--derivatives`` / ``--filter`` call it too).

    q must be finite: a NaN would spread to its neighbours (and, filtered, to every sample).
    Fill gaps first (urdf2dyn.gaps.fill_gaps; urdf2dyn.inverse_dynamics_trial does).

    Parameters
    ----------
    t : array_like, shape (N,)
        Sample times, s.
    q : array_like, shape (N, n)
        Coordinates (model.nq columns in model order when ``model`` is given).
    method : {"gradient", "savgol", "spline"}
        * "gradient" (the default, NumPy only): second-order finite differences
          (numpy.gradient, edge_order=2: central inside, one-sided at both ends, non-uniform
          steps allowed), applied twice; exact for quadratic trajectories.
        * "savgol": Savitzky-Golay differentiating filters (scipy.signal.savgol_filter,
          deriv=1 and 2, mode="interp"): local least-squares polynomials of degree polyorder
          over window samples. Uniform sampling.
        * "spline": the interpolating quintic spline through the samples
          (scipy.interpolate.make_interp_spline, k=5), differentiated. Any sampling.
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
        raise MotionError(f"q: missing (NaN) samples at rows {_rows(np.unique(rows))} in columns "
                          f"{which}: fill the gaps first (urdf2dyn.gaps.fill_gaps), or cut the "
                          "trial")
    qf = lowpass(t, q, cutoff_hz, filter_order) if cutoff_hz is not None else q.copy()
    floating = [j for j in model.joints if j.type == "floating"] if model is not None else []
    for j in floating:
        quat = qf[:, j.q_index + 3:j.q_index + 7]
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
    else:
        raise ValueError(f"method: expected 'savgol', 'spline' or 'gradient', got {method!r}")

    if model is not None and model.nv != model.nq:
        vm, am = np.empty((len(t), model.nv)), np.empty((len(t), model.nv))
        for j in model.joints:
            qs, vs = slice(j.q_index, j.q_index + j.nq), slice(j.v_index, j.v_index + j.nv)
            if j.type == "floating":
                vm[:, vs] = _floating_velocity(t, qf[:, qs])
                am[:, vs] = np.gradient(vm[:, vs], t, axis=0, edge_order=2)
            else:
                vm[:, vs], am[:, vs] = v[:, qs], a[:, qs]
        v, a = vm, am
    return (qf, v, a) if return_positions else (v, a)


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
