"""HuMoD's MATLAB files (.mat; Wojtusch & von Stryk 2015), read and written with SciPy.

SciPy is imported on first use (``pip install "urdf2dyn[io]"``).
"""
from __future__ import annotations

import math
import os
import re

import numpy as np

from ..._safe_files import note_input
from ...warn import report
from ..trajectory import _FORCE_RE, MotionError, Trajectory, load_mapping, rename

__all__ = ["read_humod", "write_humod", "HUMOD_LENGTH_SCALE"]

#: HuMoD stores lengths (base-joint positions, centres of pressure) in millimetres.
HUMOD_LENGTH_SCALE = 1e-3


def _field(struct, *names, where=""):
    for n in names:
        if isinstance(struct, dict) and n in struct:
            return struct[n]
    raise MotionError(f"{where}: no field {' / '.join(names)}")


def _rate(struct, where):
    """A struct's frameRate: one positive finite number (Hz)."""
    x = _field(struct, "frameRate", where=where)
    try:
        rate = float(np.asarray(x, dtype=float).item())
    except (TypeError, ValueError):
        raise MotionError(f"{where}.frameRate must be one number (Hz), got {x!r:.60}") from None
    if not (math.isfinite(rate) and rate > 0):
        raise MotionError(f"{where}.frameRate must be positive, got {rate}")
    return rate


def _numbers(x, where):
    """x as a float array, or MotionError naming where it is."""
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise MotionError(f"{where}: not numbers ({type(x).__name__} "
                          f"{str(x)[:40]!r})") from None


def _strings(x):
    """The labels x holds: a cell array's strings whole (MATLAB and Octave give ' a' back as
    it is), a char matrix's rows without the blanks MATLAB pads their ends with (as cellstr
    takes them off: a leading blank is the label's)."""
    if isinstance(x, str):
        return [x]
    padded = isinstance(x, np.ndarray) and x.dtype.kind == "U"
    labels = [str(np.asarray(s).item() if np.ndim(s) == 0 else "".join(np.ravel(s)))
              for s in np.ravel(np.asarray(x, dtype=object))]
    return [label.rstrip() for label in labels] if padded else labels


def read_humod(path, mapping=None, length_scale=HUMOD_LENGTH_SCALE, forces=True):
    """Read a HuMoD .mat file (Wojtusch & von Stryk 2015) with SciPy.

    ``motion.trajectory.q`` (and ``dqdt``, ``ddqddt`` when present): one row per label of
    ``motion.trajectoryLabels``, one column per frame at ``motion.frameRate`` Hz; time
    t = frame / frameRate from 0. Angles are in rad; the base-joint positions pBJX pBJY pBJZ
    (names ``p`` + capital) and their rates are in mm and are multiplied by length_scale.
    ``force.grfX_L ... grfZ_R`` (N) and ``force.copX_L ... copZ_R`` (mm -> m) are sampled at
    ``force.frameRate`` (twice the motion rate in HuMoD) and resampled to the motion's times:
    every k-th sample when the rate is k times the motion's, linear interpolation otherwise.
    The columns keep HuMoD's order (``urdf2dyn.biomech.human.HUMOD_LABELS``); ``for_model`` reorders.
    """
    path = os.fspath(path)
    try:
        from scipy.io import loadmat
        from scipy.io.matlab import MatReadError
    except ImportError:
        raise ImportError(f"{path}: reading HuMoD .mat files needs SciPy: pip install "
                          "\"urdf2dyn[io]\" (or pip install scipy)") from None
    note_input(path, "HuMoD")
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
    rate = _rate(motion, where)
    if not isinstance(traj, dict):
        raise MotionError(f"{where}.trajectory: a struct with fields q (dqdt, ddqddt) "
                          f"expected, got {type(traj).__name__}")

    def rows(key):
        x = _numbers(_field(traj, key, where=where + ".trajectory"), f"{where}.trajectory.{key}")
        if x.ndim < 2 and labels and x.size % len(labels) == 0:
            x = x.reshape(len(labels), -1)
        if x.ndim != 2:
            raise MotionError(f"{where}.trajectory.{key}: shape {x.shape}: one row per label "
                              f"({len(labels)}) and one column per frame expected")
        if x.shape[0] == len(labels):
            return x.T.copy()
        if x.shape[1] == len(labels):
            return x.copy()
        raise MotionError(f"{where}.trajectory.{key}: shape {x.shape} does not match "
                          f"{len(labels)} labels")

    q = rows("q")
    if len(q) == 0:
        raise MotionError(f"{where}.trajectory.q holds no frame")
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
        frate = _rate(force, f"{path}: force")
        meta["force_frame_rate"] = frate
        sides = sorted({m.group(3) for k in force for m in [_FORCE_RE.match(k)] if m})
        for side in sides:
            for kind, d, scale in (("grf", grf, 1.0), ("cop", cop, length_scale)):
                keys = [f"{kind}{ax}_{side}" for ax in "XYZ"]
                if not all(k in force for k in keys):
                    continue
                cols = [np.ravel(_numbers(force[k], f"{path}: force.{k}")) for k in keys]
                if len({c.size for c in cols}) > 1 or cols[0].size == 0:
                    raise MotionError(f"{path}: force.{keys[0]} .. {keys[-1]}: "
                                      f"{', '.join(str(c.size) for c in cols)} samples; the "
                                      "three axes need the same number, at least one")
                raw = np.column_stack(cols)
                d[side] = _resample(raw * scale, frate, t)
    names = rename(labels, mapping, path, ren)
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


#: The longest field name SciPy's savemat writes (MATLAB 5 files; MATLAB reads up to 63).
_FIELD_LENGTH = 31


def _refuse_unwritable_feet(path, feet):
    """MotionError, before anything is written, for a foot key that cannot end the name of a
    force struct's field (grfX_<foot>): MATLAB names a field with ASCII letters, digits and
    '_' only (SciPy writes another name, which read_humod then skips, or fails on it), and
    SciPy's savemat with _FIELD_LENGTH characters at most."""
    for foot in sorted(map(str, feet)):
        field = f"grfX_{foot}"
        if not re.fullmatch(r"[A-Za-z0-9_]+", foot):
            why = "MATLAB names a field with ASCII letters, digits and '_' only"
        elif len(field) > _FIELD_LENGTH:
            why = f"SciPy writes a field name of {_FIELD_LENGTH} characters at most"
        else:
            continue
        raise MotionError(f"{path}: the foot {foot!r} (the ground reactions' key) cannot be "
                          f"written: its force fields would be named {field!r} ..., and {why}. "
                          "Nothing was written: rename the key (e.g. 'L', 'R') before writing")


def write_humod(path, traj, length_scale=HUMOD_LENGTH_SCALE, force_rate_factor=2):
    """Write traj in HuMoD's .mat layout (for tests and exchange): ``motion.frameRate``,
    ``motion.frames``, ``motion.trajectoryLabels``, ``motion.trajectory.q/dqdt/ddqddt`` (rows =
    labels; lengths divided by length_scale: mm), ``force.frameRate`` = force_rate_factor x the
    motion's and ``force.grfX_L ...``, ``force.copX_L ...`` (mm) linearly interpolated to it
    (read_humod takes every k-th sample back: the round trip is exact). Free moments are not
    written (HuMoD has no field for them), with a warning. A foot key a MATLAB
    field name cannot end with is refused (MotionError) before anything is written."""
    try:
        from scipy.io import savemat
    except ImportError:
        raise ImportError(f"{os.fspath(path)}: writing HuMoD .mat files needs SciPy: pip "
                          "install \"urdf2dyn[io]\" (or pip install scipy)") from None
    _refuse_unwritable_feet(os.fspath(path), {*traj.grf, *traj.cop})
    if traj.moment:
        report(f"{os.fspath(path)}: the free moments of the feet {sorted(traj.moment)} are not "
               "written: HuMoD's force struct has no field for them (read_humod reads the "
               "forces and centres of pressure only). Write them with write_csv or as "
               "OpenSim external loads (write_external_loads) to keep them", stacklevel=None)
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
    from ..._safe_files import replacing
    with replacing(path) as tmp:
        savemat(tmp, out)
