"""Motion files and derivatives.

A motion CSV has a ``time`` column (s) and one column per configuration coordinate, named
as ``model.q_names`` (the joint's name for a 1-DoF joint; ``<joint>_x ... _qw`` for a
floating joint, ``<joint>_x _y _theta`` for a planar one). Velocity and acceleration
columns ``<dof>_vel`` and ``<dof>_acc`` (dof in ``model.v_names``) are optional; missing
ones are estimated from the positions by finite differences (see ``derivatives``).
"""
import csv
import os

import numpy as np

#: CSV files larger than this (bytes) are parsed with pandas' C reader when pandas is
#: installed (about 3x faster than numpy.loadtxt); numpy.loadtxt otherwise, and for every
#: file pandas does not read cleanly (so errors are reported the same way).
FAST_CSV_BYTES = 1 << 20


class MotionError(ValueError):
    """A motion file that does not fit the model."""


def read_csv_columns(path):
    """(header list, (N, C) float array) of a numeric CSV file with one header line."""
    with open(path, newline="") as f:
        header = [h.strip() for h in next(csv.reader(f), [])]
    if not header or header == [""]:
        raise MotionError(f"{path}: empty file (expected a header line)")
    data = _read_fast(path, len(header)) if os.path.getsize(path) > FAST_CSV_BYTES else None
    if data is None:
        try:
            data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=float)
        except ValueError as e:
            raise MotionError(f"{path}: not a numeric CSV table ({e})") from None
    if data.shape[0] and data.shape[1] != len(header):
        raise MotionError(f"{path}: {len(header)} header columns but {data.shape[1]} data columns")
    return header, data.reshape(-1, len(header))


def _read_fast(path, ncol):
    """The numbers of a large CSV file via pandas, or None (no pandas, or anything unusual:
    the caller then reads it with numpy.loadtxt, which also words the errors)."""
    try:
        import pandas as pd
    except ImportError:
        return None
    try:
        df = pd.read_csv(path, dtype=float, engine="c", keep_default_na=False,
                         na_values=["nan", "NaN", "NAN", "-nan", "+nan"])
    except Exception:          # noqa: BLE001 - any parser trouble: fall back to numpy
        return None
    if df.shape[1] != ncol:
        return None
    return np.ascontiguousarray(df.to_numpy(dtype=float))


def read_motion(path, model):
    """Read a motion CSV for model: returns (time (N,), q (N, nq), v or None, a or None).

    Raises MotionError listing missing and unknown columns."""
    header, data = read_csv_columns(path)
    col = {name: k for k, name in enumerate(header)}
    if len(col) != len(header):
        dup = sorted({h for h in header if header.count(h) > 1})
        raise MotionError(f"{path}: duplicate columns {dup}")
    vel = [f"{n}_vel" for n in model.v_names]
    acc = [f"{n}_acc" for n in model.v_names]
    known = {"time", *model.q_names, *vel, *acc}
    missing = [n for n in ["time", *model.q_names] if n not in col]
    unknown = [n for n in header if n not in known]
    problems = []
    if missing:
        problems.append(f"missing columns {missing}")
    if unknown:
        problems.append(f"unknown columns {unknown} (expected 'time', the model's coordinates "
                        f"{model.q_names}, and optionally '<dof>_vel' / '<dof>_acc')")
    for kind, names in (("velocity", vel), ("acceleration", acc)):
        present = [n for n in names if n in col]
        if present and len(present) != len(names):
            problems.append(f"incomplete {kind} columns: missing "
                            f"{[n for n in names if n not in col]}")
    if problems:
        raise MotionError(f"{path}: " + "; ".join(problems))
    if data.shape[0] < 3:
        raise MotionError(f"{path}: need at least 3 samples, got {data.shape[0]}")

    def take(names):
        return np.ascontiguousarray(data[:, [col[n] for n in names]]) if names[0] in col else None

    t = data[:, col["time"]]
    if not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0):
        raise MotionError(f"{path}: the time column must be finite and strictly increasing")
    return t, take(model.q_names), take(vel), take(acc)


def derivatives(t, q, model):
    """Velocities and accelerations (N, nv) of a sampled trajectory q (N, nq).

    Second-order finite differences (``numpy.gradient`` with edge_order=2: central
    differences inside, one-sided at both ends, non-uniform time steps allowed), exact for
    quadratic trajectories. A floating joint's velocity is taken in its body frame, as the
    model expects: v_lin = R^T dp/dt and w = 2 vec(conj(quat) * dquat/dt), after making the
    quaternion sequence sign-continuous; its acceleration is the derivative of that v.
    Noisy motion-capture data should be low-pass filtered before differentiation.
    """
    t = np.asarray(t, dtype=float)
    q = np.asarray(q, dtype=float)
    v = np.empty((q.shape[0], model.nv))
    for j in model.joints:
        qj = q[:, j.q_index:j.q_index + j.nq]
        if j.type == "floating":
            v[:, j.v_index:j.v_index + 6] = _floating_velocity(t, qj)
        else:
            v[:, j.v_index:j.v_index + j.nv] = np.gradient(qj, t, axis=0, edge_order=2)
    a = np.gradient(v, t, axis=0, edge_order=2)
    return v, a


def _floating_velocity(t, qj):
    p, quat = qj[:, :3], qj[:, 3:7] / np.linalg.norm(qj[:, 3:7], axis=1, keepdims=True)
    flip = np.cumprod(np.where(np.sum(quat[1:] * quat[:-1], axis=1) < 0, -1.0, 1.0))
    quat = quat * np.concatenate([[1.0], flip])[:, None]
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


def write_csv(path, t, values, names):
    """Write a ``time`` column and one column per name (values (N, len(names)))."""
    table = np.column_stack([t, values])
    np.savetxt(path, table, delimiter=",", header=",".join(["time", *names]), comments="",
               fmt="%.15g")
