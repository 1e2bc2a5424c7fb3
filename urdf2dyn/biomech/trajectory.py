"""The motion container every reader returns, and the column conventions all formats share.

A :class:`Trajectory` holds a recording in SI units (s, m, rad, N): ``time`` (N,), ``q`` (N, n)
with its column ``names``, optional ``v``/``a`` (N, m) with ``v_names``, and optional ground
reaction forces ``grf``, centres of pressure ``cop`` and free moments ``moment`` per foot
({"L": (N, 3), ...}). ``traj.for_model(model)`` returns (t, q, v, a) in the model's coordinate
order, matched by name::

    from urdf2dyn.biomech import formats, human_model
    traj = formats.read_humod("Subject_B/2.1.mat")     # HuMoD: 36 DoF, GRF and CoP per foot
    model = human_model(1.79, 84.8, "male")
    t, q, v, a = traj.for_model(model)
    tau = model.inverse_dynamics(q, v, a, f_ext=traj.f_ext())

Tables (CSV, DataFrame, OpenSim .mot/.sto) share one column layout: ``time`` (s), one column
per coordinate named as ``model.q_names`` (the joint's name for a 1-DoF joint; ``<joint>_x ..
_qw`` for a floating joint, ``<joint>_x _y _theta`` for a planar one), optionally ``<dof>_vel``
and ``<dof>_acc`` columns (dof in ``model.v_names``), and optionally ``grfX_L grfY_L grfZ_L
copX_L copY_L copZ_L`` (and ``_R``: HuMoD's names; N and m) and ``momX_L momY_L momZ_L`` (a free
moment about the centre of pressure, N·m; urdf2dyn's names). OpenSim's external-load columns
``<prefix>ground_force_vx .. _px .. ground_torque_x ..`` are read as forces (key = prefix) too,
and so are ``ground_force_<side>_vx .. ground_torque_<side>_x`` (key = side).

Angles in degrees: which columns are angles is :func:`angle_columns`'s decision: with
``model=`` given, exactly the rotational coordinates from the joint types (revolute/continuous,
planar ``_theta``; for rates also floating ``_wx _wy _wz``); without a model, OpenSim's rule:
coordinates except translations (``*_tx``, HuMoD's ``pBJX``, urdf2dyn's ``*_x``), points
(``*_px``), quaternions (``*_qx .. *_qw``) and anything named a force, moment or torque;
``linear=[names]`` adds names to that set. Forces, moments, centres of pressure and
generalized forces are never converted.

Names: ``mapping`` (a dict, or a JSON object file, or a two-column CSV file ``from,to``) renames
the file's coordinates to the model's on reading (:func:`load_mapping`).
"""
from __future__ import annotations

import csv
import json
import math
import os
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .._input_bytes import read_input
from .._safe_files import note_input
from ..warn import MotionError, data_rows, duplicated
from .processing import estimate_derivatives

if TYPE_CHECKING:
    from ..model import Model

__all__ = ["Trajectory", "MotionError", "load_mapping", "angle_columns"]

_FORCE_RE = re.compile(r"^(grf|cop|mom)([XYZ])_(\w+)$")
#: OpenSim's external-load columns: <prefix>ground_force_v[xyz] (force), ground_force_p[xyz]
#: (point of application), ground_torque_[xyz] (torque); the prefix (e.g. "1_", "l_") is the key.
_OPENSIM_FORCE_RE = re.compile(
    r"^(?P<key>.*?)_?ground_(?P<kind>force_v|force_p|torque_)(?P<ax>[xyz])$")
#: The same columns with the side inside the name (ground_force_r_vx, ground_force_r_px,
#: ground_torque_r_x), as OpenSim's own example data (Moco's example3DWalking, opensim-models'
#: Rajagopal pipeline) and AddBiomechanics write them; the key is the infix ("r", "l").
_OPENSIM_SIDE_FORCE_RE = re.compile(
    r"^ground_(?:force_(?P<key>.+?)_(?P<vp>[vp])|torque_(?P<tkey>.+?)_)(?P<ax>[xyz])$")


def opensim_force_column(name: str) -> tuple[str, str, str] | None:
    """(key, kind, axis) of an OpenSim external-load column, kind one of "force_v" (force),
    "force_p" (point) and "torque_" (torque), in either of OpenSim's spellings; None for any
    other name."""
    m = _OPENSIM_FORCE_RE.match(name)
    if m:
        return m["key"], m["kind"], m["ax"]
    m = _OPENSIM_SIDE_FORCE_RE.match(name)
    if m is None:
        return None
    if m["vp"]:
        return m["key"], f"force_{m['vp']}", m["ax"]
    return m["tkey"], "torque_", m["ax"]
#: Names that are never angles whatever a file's header says (OpenSim's rule: inDegrees covers
#: rotational coordinates only): HuMoD's positions pBJX..; translations *_tx, urdf2dyn's
#: *_x/_y/_z and *_vx..; points *_px..; quaternions *_qx..*_qw; forces, moments, torques.
_NOT_ANGLE_RE = re.compile(r"(^p[A-Z])|(_[tvp]?[xyz]$)|(_q[xyzw]$)|(ground_(force|torque))"
                           r"|(_(force|moment|torque)s?(_[xyz])?$)")
_TORQUE_SUFFIX_RE = re.compile(r"^(?P<dof>.+)_(?P<kind>moment|force)$")


#: Time steps (s) outside this range are refused: no recording samples faster than 1 MHz, and
#: none with a sample per 11 days; finite differences across them overflow or mean nothing.
MIN_TIME_STEP, MAX_TIME_STEP = 1e-6, 1e6


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
            raise ValueError(f"duplicate coordinate names {duplicated(self.names)}")
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
        source = self.meta.get("source", "the trajectory")
        return replace(self, names=rename(self.names, mapping, source, m),
                       v_names=None if self.v_names is None else rename(self.v_names, mapping,
                                                                        source, m))

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
        (urdf2dyn.biomech.human.root_to_floating)."""
        names = list(self.names)
        floating = ("BJ_x", "BJ_y", "BJ_z", "BJ_qx", "BJ_qy", "BJ_qz", "BJ_qw")
        if tuple(model.q_names[:7]) == floating and "pBJX" in names and "BJ_x" not in names:
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
        from ..forces import wrench_at_point
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


_FORCE_WHAT = {"grf": "force", "cop": "centre of pressure", "mom": "free moment"}


def _incomplete_force(source, kind, side, have):
    """The message for a ground reaction's force, centre of pressure or free moment ``kind``
    (grf, cop, mom) of contact ``side`` given by some axes only: have {axis: column name}."""
    one = next(iter(have.values()))
    if _FORCE_RE.match(one):
        name = {ax: f"{kind}{ax}_{side}" for ax in "XYZ"}
    else:                           # OpenSim's: the axis is the name's last letter
        name = {ax: one[:-1] + ax.lower() for ax in "XYZ"}
    missing = [name[ax] for ax in "XYZ" if ax not in have]
    return (f"{source}: missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)}: "
            f"the {_FORCE_WHAT[kind]} of the ground reaction {side!r} has "
            f"{', '.join(have[ax] for ax in sorted(have))} only: add "
            f"{'them' if len(missing) > 1 else 'it'} (a ground reaction's force, centre of "
            "pressure and free moment each take an X, a Y and a Z column)")


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
    note_input(path, "mapping")
    if path.lower().endswith(".json"):
        raw = read_input(path, "mapping")
        try:
            data = json.loads(raw)      # UTF-8 (a BOM too) or UTF-16/32, as JSON allows
        except UnicodeDecodeError as e:
            raise MotionError(f"{path}: not UTF-8 text (byte 0x{raw[e.start]:02x} at offset "
                              f"{e.start}): a JSON file is UTF-8; save it as UTF-8") from None
        except json.JSONDecodeError as e:
            raise MotionError(f"{path}: line {e.lineno} column {e.colno}: not valid JSON "
                              f"({e.msg}): a mapping is a JSON object "
                              "{\"name in the file\": \"model name\", ...}, names in double "
                              "quotes, no comma after the last pair") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a JSON object {{\"from\": \"to\", ...}}")
        return {str(k): str(v) for k, v in data.items()}
    from .formats.windows import text_lines     # UTF-8 (a BOM dropped), cp1252 or UTF-16
    out = {}
    for lineno, row in enumerate(csv.reader(text_lines(path)[0]), 1):
        row = [c.strip() for c in row]
        if not row or not any(row) or row[0].startswith("#"):
            continue
        if len(row) != 2:
            raise ValueError(f"{path}:{lineno}: expected two columns 'from,to', got {row}")
        header = row[0].lower() in ("from", "source") and row[1].lower() in ("to", "target")
        if lineno == 1 and header:
            continue
        out[row[0]] = row[1]
    return out


def rename(names, mapping, source, ren=None):
    """names renamed by mapping (ren: load_mapping(mapping) when read already), refusing,
    with MotionError naming the mapping and the columns, two columns of source renamed to one
    name (two names mapped to one coordinate, or a name mapped onto a column that keeps it)."""
    ren = load_mapping(mapping) if ren is None else ren
    out = [ren.get(n, n) for n in names]
    if len(set(out)) == len(out):
        return out
    from_ = {}
    for old, new in zip(names, out):
        from_.setdefault(new, []).append(old)
    clashes = [f"{' and '.join(repr(o) + ('' if o in ren else ' (not mapped)') for o in olds)}"
               f" -> {new!r}" for new, olds in from_.items() if len(olds) > 1]
    where = (f"the mapping {os.fspath(mapping)}" if isinstance(mapping, (str, os.PathLike))
             else "the mapping")
    raise MotionError(f"{where} gives two columns of {source} one name: {'; '.join(clashes)}: "
                      "map each coordinate from one column (fix or drop one of the pairs)")


def angle_columns(names, model=None, linear=(), velocity=False):
    """Boolean mask: which of names are angles (the columns a degrees/radians conversion touches).

    With an OpenSim model: its coordinates whose motion type is rotational (not translational
    nor coupled, as OpenSim converts them). With a URDF model: exactly its rotational
    coordinates, from the joint types: revolute and
    continuous joints, a planar joint's ``_theta``, and (velocity=True: rates) a floating
    joint's ``_wx _wy _wz``; any other column (translations, quaternions, forces, unknown names)
    is not an angle. Without a model, OpenSim's rule (``inDegrees`` covers rotational coordinates
    only): every column is a coordinate angle except those whose names say otherwise:
    translations (``*_tx``, HuMoD's ``pBJX``, urdf2dyn's ``*_x`` / ``*_vx``), points
    (``*_px``), quaternion components (``*_qx .. *_qw``), forces, moments and torques
    (``ground_force_*``, ``ground_torque_*``, ``*_force``, ``*_moment``). linear: more names that
    are not angles."""
    linear = set(linear or ())
    coordinates = getattr(model, "coordinates", None)
    if coordinates:          # an OpenSim model: its coordinates' motion types decide (a
        # "coupled" one, e.g. knee_angle_r_beta, is never converted, and OpenSim names its
        # generalized force _force)
        ang = {n for n, c in coordinates.items() if c.motion == "rotational"}
        return np.array([n in ang and n not in linear for n in names], dtype=bool)
    if model is not None:
        ang = set()
        for j in model.joints:
            if j.type in ("revolute", "continuous"):
                ang.add(j.name)
            elif j.type == "planar":
                ang.add(f"{j.name}_theta")
            elif j.type in ("floating", "ball") and velocity:
                ang.update(f"{j.name}_{s}" for s in ("wx", "wy", "wz"))
        return np.array([n in ang and n not in linear for n in names], dtype=bool)
    return np.array([n not in linear and not _NOT_ANGLE_RE.search(n) for n in names], dtype=bool)


# ----------------------------------------------------------------------------- the table layout

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


def _odd_steps_message(source, t, odd):
    """Why a table whose time steps at rows odd (indices into t) leave [MIN_TIME_STEP,
    MAX_TIME_STEP] is refused. Steps that are all too short in a table whose usual step is
    not are a time written twice, as a simulation's output repeats an event's time (OpenSim's
    DoublePendulum3D_states.sto: 2.99999999999998 then 3 s, its steps 0.01 s): one row of
    each pair is to go. Otherwise the time column is not in seconds."""
    dt = np.diff(t)
    usual = float(np.median(dt))
    repeated = (np.all(dt[odd - 1] < MIN_TIME_STEP)
                and MIN_TIME_STEP <= usual <= MAX_TIME_STEP)
    if not repeated:
        return (f"{source}: time steps of {dt[odd[0] - 1]:g} s (at data rows "
                f"{data_rows(odd)}): the time column is in seconds and its steps must lie "
                f"between {MIN_TIME_STEP:g} and {MAX_TIME_STEP:g} s")
    k = int(odd[0])
    more = (f", as data rows {data_rows(odd[1:])} do the rows before them" if len(odd) > 1
            else "")
    return (f"{source}: data row {k + 1} (t = {t[k]:.17g} s) follows data row {k} (t = "
            f"{t[k - 1]:.17g} s) by {dt[k - 1]:g} s{more}, where the table's steps are "
            f"{usual:g} s: one time written twice (a simulation's output repeats the time of "
            f"an event); remove one row of each such pair (steps must be at least "
            f"{MIN_TIME_STEP:g} s)")


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
        raise MotionError(f"{source}: duplicate columns {duplicated(header)}")
    k_time = lower.index("time")
    t = data[:, k_time]
    if len(t) and (not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0)):
        bad = np.flatnonzero(~np.isfinite(t))
        bad = bad if len(bad) else np.flatnonzero(np.diff(t) <= 0) + 1
        raise MotionError(f"{source}: the time column must be finite and strictly increasing "
                          f"(not at data rows {data_rows(bad)})")
    dt = np.diff(t)
    odd = np.flatnonzero((dt < MIN_TIME_STEP) | (dt > MAX_TIME_STEP)) + 1
    if len(odd):        # differentiating across such steps overflows or means nothing
        raise MotionError(_odd_steps_message(source, t, odd))
    qcols, vcols, acols, force = [], [], [], {}
    for k, h in enumerate(header):
        if k == k_time:     # another column named 'Time' is data, as OpenSim 4.6 reads it
            continue
        m = _FORCE_RE.match(h)
        o = opensim_force_column(h)
        if m:
            force.setdefault((m.group(1), m.group(3)), {})[m.group(2)] = k
        elif o:                      # OpenSim's names: never angles, never coordinates
            key, kind, ax = o
            kind = {"force_v": "grf", "force_p": "cop", "torque_": "mom"}[kind]
            force.setdefault((kind, key), {})[ax.upper()] = k
        elif h.endswith("_vel"):
            vcols.append((h[:-4], k))
        elif h.endswith("_acc"):
            acols.append((h[:-4], k))
        else:
            qcols.append((h, k))
    ren = load_mapping(mapping)
    names = rename([h for h, _ in qcols], mapping, source, ren)
    q = data[:, [k for _, k in qcols]]
    v = a = v_names = None
    if vcols or acols:
        vn = [n for n, _ in vcols] or [n for n, _ in acols]
        if vcols and acols and [n for n, _ in acols] != vn:
            raise MotionError(f"{source}: the '_vel' and '_acc' columns name different coordinates")
        v_names = rename(vn, mapping, source, ren)
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
            raise MotionError(_incomplete_force(source, kind, side, {a: header[k] for a, k in
                                                                     axes.items()}))
        {"grf": grf, "cop": cop, "mom": mom}[kind][side] = data[:, [axes["X"], axes["Y"], axes["Z"]]]
    meta = dict(meta or {})
    meta.setdefault("source", source)
    return Trajectory(t, q, names, v=v, a=a, v_names=v_names, grf=grf, cop=cop, meta=meta,
                      moment=mom)
