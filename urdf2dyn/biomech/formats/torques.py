"""Generalized forces to and from files: OpenSim's inverse-dynamics layout (.sto/.mot) or CSV.

:func:`write_torques` writes them (``.sto`` in OpenSim's inverse-dynamics layout,
``<coordinate>_moment`` / ``<coordinate>_force``, ``inDegrees=no``; or ``.csv``) and
:func:`read_torques` reads them back, or reads OpenSim's own inverse-dynamics results.
"""
from __future__ import annotations

import os

import numpy as np

from ..trajectory import MotionError, _indices, _TORQUE_SUFFIX_RE, angle_columns
from ._cells import refuse_unwritable_names
from .csv import _EXACT, write_table
from .opensim import _write_sto, read_opensim

__all__ = ["torque_names", "torque_units", "write_torques", "read_torques"]


def torque_names(model):
    """OpenSim's inverse-dynamics column names of the model's generalized forces, in v order:
    ``<coordinate>_moment`` for a rotational DoF (revolute, continuous, a planar joint's theta, a
    floating joint's wx wy wz), ``<coordinate>_force`` for a translational one."""
    ang = angle_columns(model.v_names, model, velocity=True)
    return [f"{n}_{'moment' if a else 'force'}" for n, a in zip(model.v_names, ang)]


def torque_units(model, per_kg=False):
    """The unit of each generalized force, in v order: "N·m" for a coordinate that turns its
    joint (a rotational one; a coupled one, e.g. Rajagopal's knee_angle_r_beta, when it
    drives one of its custom joint's rotation axes), "N" for one that translates it; with
    per_kg "N·m/kg" and "N/kg". (OpenSim's column names call every coupled coordinate's
    generalized force ``_force``: :func:`torque_names`.)"""
    turns = angle_columns(model.v_names, model, velocity=True)
    info = model._c.osim() if model.is_opensim else None
    for joint, _, axes in (info or {}).get("custom", []):
        j = model.joint(joint)
        for _, coord, _ in axes[:3]:                            # the three rotation axes
            name = model.v_names[j.v_index + coord] if coord >= 0 else None
            if name in model.coordinates and model.coordinates[name].motion == "coupled":
                turns[j.v_index + coord] = True
    kg = "/kg" if per_kg else ""
    return [("N·m" if a else "N") + kg for a in turns]


_ORIGIN = "the coordinates of model {!r}"


def refuse_unwritable_torques(path, model):
    """MotionError when the torques of model cannot be written to path (.sto/.mot: its
    torque_names, .csv: its v_names; formats._cells): for a caller to learn it before
    computing them, which write_torques learns only when writing them."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext in (".sto", ".mot"):
        names, separator = torque_names(model), "\t"
    elif ext == ".csv":
        names, separator = list(model.v_names), None
    else:
        return                                  # write_torques refuses the suffix
    refuse_unwritable_names(os.fspath(path), names, "column label", _ORIGIN.format(model.name),
                            separator=separator, index="time")


def write_torques(path, t, tau, model, per_kg=False, name=None, order=None):
    """Write generalized forces tau (N, model.nv) at times t (N,): the one way to save torques.

    ``.sto``/``.mot``: OpenSim's inverse-dynamics layout, ``inDegrees=no`` (forces are never
    angles), columns ``time`` + :func:`torque_names` (``<coordinate>_moment`` in N·m,
    ``<coordinate>_force`` in N): OpenSim and its users read it as one of their own. ``.csv``:
    ``time`` + ``model.v_names``. 17 significant digits: the values read back bit for bit. per_kg only names the unit in the .sto title (N·m/kg): divide
    tau yourself (urdf2dyn.biomech.grf.per_kg). :func:`read_torques` reads both back.
    order: the DoF names (model.v_names) in the column order to write, e.g. OpenSim's tree
    order (urdf2dyn.biomech.formats.osim_coordinate_order); default model.v_names."""
    tau = np.asarray(tau, dtype=float)
    t = np.asarray(t, dtype=float).reshape(-1)
    if tau.ndim != 2 or tau.shape != (len(t), model.nv):
        raise ValueError(f"tau: expected shape ({len(t)}, {model.nv}) (samples, model.nv), got "
                         f"{tau.shape}")
    names, cols = list(model.v_names), torque_names(model)
    if order is not None:
        if sorted(order) != sorted(names):
            raise ValueError(f"order: expected a permutation of model.v_names {names}, got "
                             f"{list(order)}")
        k = [names.index(n) for n in order]
        tau, names, cols = tau[:, k], [names[i] for i in k], [cols[i] for i in k]
    ext = os.path.splitext(os.fspath(path))[1].lower()
    origin = _ORIGIN.format(model.name)
    if ext in (".sto", ".mot"):
        unit = "N·m/kg, N/kg" if per_kg else "N·m, N"
        _write_sto(path, ["time", *cols], np.column_stack([t, tau]), False,
                   name or f"urdf2dyn inverse dynamics ({unit})", fmt=_EXACT, origin=origin)
    elif ext == ".csv":
        write_table(path, t, tau, names, fmt=_EXACT, origin=origin)
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
            raise MotionError(f"{os.fspath(path)}: {traj.meta['units']} in a torque file "
                              "(generalized forces are never in degrees): rewrite its header "
                              "with version=1 and inDegrees=no")
    else:
        from . import read          # the package's dispatcher (imports this module)
        traj = read(path)
    names = []
    for n in traj.names:
        m = _TORQUE_SUFFIX_RE.match(n)
        names.append(m["dof"] if m else n)
    tau = traj.q
    if model is not None:
        try:
            tau = tau[:, _indices(names, model.v_names, "torque columns")]
        except MotionError as e:
            raise MotionError(f"{os.fspath(path)}: {e} of model {model.name!r} (columns named "
                              "<coordinate>, <coordinate>_moment or <coordinate>_force; read "
                              "it without the model for the columns as they are)") from None
        names = list(model.v_names)
    return traj.time, np.ascontiguousarray(tau), names
