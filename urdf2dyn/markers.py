"""Model markers, and inverse kinematics: the pose that best fits measured markers.

A model marker is a point fixed on a link: :class:`Marker` ``(name, link, position)``, the
position in the link's frame (m). ``model.markers`` lists them: a URDF carries none, so they
come from a marker file (:func:`read_markers`, CSV ``name, link, x, y, z``) or from the
links' own origins (:func:`link_markers`); an OpenSim model's ``MarkerSet`` gives them too.

:func:`inverse_kinematics` (``model.inverse_kinematics``, written in urdf2dyn/model.py with
the core's other algorithms, as :class:`Marker` and :class:`IKSolution`) solves OpenSim's IK
problem frame by frame in the C core (``csrc/algo/u2d_ik.c``)::

    minimise  sum_i w_i |x_i(q) - t_i|^2  +  sum_j u_j (q_j - r_j)^2

over the coordinates that are not locked, inside the ranges given: marker weights ``w_i``,
coordinate tasks (coordinate ``j`` pulled towards ``r_j`` with weight ``u_j``), markers
missing in a frame (NaN) left out of that frame.
"""
from __future__ import annotations

import csv
import io
import os

import numpy as np

from ._input_bytes import read_input
from ._safe_files import note_input
from .model import IKSolution, Marker, Model
from .warn import missing_file

__all__ = ["Marker", "IKSolution", "read_markers", "link_markers", "inverse_kinematics"]


def read_markers(path: str | os.PathLike[str], model: Model | None = None) -> list[Marker]:
    """Read model markers from a CSV file: one marker a row, ``name, link, x, y, z`` (m, in
    the link frame); a first row ``name,link,x,y,z`` is a header; ``#`` starts a comment.

    With ``model``, links are checked against ``model.link_names``. Raises ``ValueError``
    naming the file, row and column of anything unreadable.
    """
    where = os.fspath(path)
    markers, seen = [], set()
    note_input(where, "model-marker")
    try:
        data = read_input(where, "model-marker")
    except FileNotFoundError:
        raise FileNotFoundError(f"{missing_file(where)} (the model-marker file)") from None
    try:
        content = data.decode("utf-8-sig")     # Excel's "CSV UTF-8" starts with a byte-order mark
    except UnicodeDecodeError as e:
        raise ValueError(f"{where}: not UTF-8 text (byte {e.start}: 0x{data[e.start]:02x}); "
                         "save the marker file as UTF-8") from None
    rows = csv.reader(io.StringIO(content, newline=""))
    try:
        for row_no, row in enumerate(rows, 1):
            cells = [c.strip() for c in row]
            if not cells or not any(cells) or cells[0].startswith("#"):
                continue
            if row_no == 1 and [c.lower() for c in cells[:5]] == ["name", "link", "x", "y", "z"]:
                continue
            if len(cells) != 5:
                raise ValueError(f"{where}: row {row_no}: expected 5 columns name, link, x, y, "
                                 f"z; got {len(cells)}")
            name, link = cells[0], cells[1]
            if not name or not link:
                raise ValueError(f"{where}: row {row_no}: empty marker name or link")
            xyz = []
            for col, text in zip("xyz", cells[2:]):
                try:
                    x = float(text)
                except ValueError:
                    x = float("nan")
                if not np.isfinite(x):
                    raise ValueError(f"{where}: row {row_no}, column {col}: {text!r} is not a "
                                     "finite number (metres in the link frame)")
                xyz.append(x)
            if name in seen:
                raise ValueError(f"{where}: row {row_no}: marker {name!r} is listed twice")
            if model is not None and link not in model._link_index:
                raise ValueError(f"{where}: row {row_no}: marker {name!r} is on link {link!r}, "
                                 f"which the model does not have (links: "
                                 f"{', '.join(model.link_names[:8])}...)")
            seen.add(name)
            markers.append(Marker(name, link, (xyz[0], xyz[1], xyz[2])))
    except csv.Error as e:                  # a field past csv's limit, an open quote at the end
        raise ValueError(f"{where}: line {rows.line_num}: {e}; expected rows name, link, x, "
                         "y, z") from None
    return markers


def link_markers(model: Model, links: list[str] | None = None) -> list[Marker]:
    """A marker at the origin of each link named (default: every link), named as the link:
    the fixed frames of a URDF (tool points, sensors) used as markers."""
    names = model.link_names if links is None else list(links)
    for n in names:
        if n not in model._link_index:
            raise ValueError(f"link_markers: the model has no link {n!r}")
    return [Marker(n, n, (0.0, 0.0, 0.0)) for n in names]


#: ``inverse_kinematics(model, targets, ...)``: the method ``model.inverse_kinematics`` as a
#: function (one implementation, whose docstring gives the arguments).
inverse_kinematics = Model.inverse_kinematics
