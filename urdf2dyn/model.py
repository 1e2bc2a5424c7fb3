"""The Python face of a compiled URDF model: names, conventions, f_ext, pickling."""
import os
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from . import _core
from .threads import get_num_threads

# Coordinate names of multi-DoF joints, appended to the joint's name as "<joint>_<suffix>".
_Q_SUFFIXES = {"floating": ("x", "y", "z", "qx", "qy", "qz", "qw"), "planar": ("x", "y", "theta")}
_V_SUFFIXES = {"floating": ("vx", "vy", "vz", "wx", "wy", "wz"), "planar": ("x", "y", "theta")}


@dataclass(frozen=True)
class Joint:
    """A movable joint. ``parent`` is None for the floating root added by floating_base.
    ``limit`` is (lower, upper, effort, velocity) or None; ``mimic`` is (joint, multiplier,
    offset) or None (mimic joints are read, then treated as independent, as Pinocchio does);
    ``damping`` and ``friction`` come from <dynamics> and do not enter inverse dynamics."""
    name: str
    type: str
    q_index: int
    v_index: int
    nq: int
    nv: int
    parent: str
    child: str
    axis: tuple
    limit: tuple = None
    mimic: tuple = None
    damping: float = 0.0
    friction: float = 0.0


def load(urdf, floating_base=False):
    """Load a URDF robot: ``urdf`` is a path or the XML text itself.

    floating_base=True adds a floating joint named 'root_joint' above the URDF's root link
    (q = [x y z qx qy qz qw], v = [vx vy vz wx wy wz] in the root body's frame).
    Raises URDFError (a ValueError) naming the element, attribute and reason.
    """
    if isinstance(urdf, bytes):
        text = _decode(urdf, "the URDF bytes")
    elif isinstance(urdf, str) and urdf.lstrip("\ufeff \t\r\n").startswith("<"):
        text = urdf
    elif isinstance(urdf, (str, os.PathLike)):
        if not os.path.exists(urdf):
            raise FileNotFoundError(f"load: no such file {os.fspath(urdf)!r} (load takes a URDF "
                                    "path or the XML text itself)")
        with open(urdf, "rb") as f:
            text = _decode(f.read(), os.fspath(urdf))
    else:
        raise TypeError(f"load: expected a path or URDF text, got {type(urdf).__name__}")
    return Model(text, floating_base)


def _decode(data, where):
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise _core.URDFError(f"{where}: not valid UTF-8 text (byte {e.start})") from None


class Model:
    """A robot, compiled: an immutable tree of bodies plus its names and conventions.

    Every dynamics function takes one sample ((nq,) / (nv,)) or N samples ((N, nq) /
    (N, nv)) and returns the matching shape as new float64 arrays.
    """

    def __init__(self, xml_text, floating_base=False):
        self._xml = xml_text
        self._c = _core.load(xml_text, bool(floating_base))
        self.joints = [Joint(*row) for row in self._c.joints()]
        links = self._c.links()
        self.link_names = [name for name, _ in links]
        self._link_body = dict(links)
        self.q_names = [n for j in self.joints for n in _names(j, _Q_SUFFIXES)]
        self.v_names = [n for j in self.joints for n in _names(j, _V_SUFFIXES)]

    # ---- description -------------------------------------------------------------
    name = property(lambda self: self._c.name, doc="robot name")
    nq = property(lambda self: self._c.nq, doc="number of configuration coordinates")
    nv = property(lambda self: self._c.nv, doc="number of velocity coordinates (DoF)")
    floating_base = property(lambda self: self._c.floating_base)

    @property
    def gravity(self):
        """Gravity (3,) in the URDF world frame, m/s²; default (0, 0, -9.81)."""
        return self._c.gravity

    @gravity.setter
    def gravity(self, g):
        self._c.gravity = g

    def joint(self, name):
        """The movable joint called name."""
        for j in self.joints:
            if j.name == name:
                return j
        raise KeyError(f"no movable joint named {name!r}")

    def __repr__(self):
        base = "floating base" if self.floating_base else "fixed base"
        return (f"<urdf2dyn.Model {self.name!r}: {len(self.joints)} joints, nq={self.nq}, "
                f"nv={self.nv}, {len(self.link_names)} links, {base}>")

    def __reduce__(self):
        return (_rebuild, (self._xml, self.floating_base, tuple(self.gravity)))

    # ---- dynamics ----------------------------------------------------------------
    def inverse_dynamics(self, q, v, a, f_ext=None):
        """Joint forces tau = M(q) a + C(q, v) v + g(q) - sum J^T f_ext (RNEA).

        f_ext: {link_name: (6,) or (N, 6)} wrenches [fx fy fz mx my mz] applied to the
        links, world coordinates, moments about the world origin (see wrench_at_point).
        """
        bodies, wrenches = self._fext(f_ext, q)
        return self._c.rnea(q, v, a, bodies, wrenches, get_num_threads())

    rnea = inverse_dynamics

    def _fext(self, f_ext, q):
        if f_ext is None or (isinstance(f_ext, Mapping) and not f_ext):
            return None, None
        if not isinstance(f_ext, Mapping):
            raise TypeError("f_ext: expected a dict {link_name: wrench of shape (6,) or (N, 6)}, "
                            f"got {type(f_ext).__name__}")
        q_shape = np.shape(q)
        n = q_shape[0] if len(q_shape) == 2 else None
        bodies, wrenches = [], []
        for link, w in f_ext.items():
            if link not in self._link_body:
                raise ValueError(f"f_ext: unknown link {link!r} (model.link_names lists the "
                                 f"{len(self.link_names)} links)")
            w = np.asarray(w)
            if w.dtype.kind not in "fiu":
                raise TypeError(f"f_ext[{link!r}]: expected real numbers, got dtype {w.dtype}")
            if w.shape != (6,) and not (n is not None and w.shape == (n, 6)):
                expected = "(6,)" if n is None else f"(6,) or (N, 6) = ({n}, 6)"
                raise ValueError(f"f_ext[{link!r}]: expected shape {expected}, got {w.shape}")
            bodies.append(self._link_body[link])
            wrenches.append(w.astype(float, copy=False))
        if all(w.ndim == 1 for w in wrenches):
            stacked = np.stack(wrenches)[None]                          # (1, K, 6)
        else:
            stacked = np.stack([np.broadcast_to(w, (n, 6)) for w in wrenches], axis=1)
        return np.asarray(bodies, dtype=np.intc), np.ascontiguousarray(stacked)


def _names(joint, suffixes):
    if joint.type in suffixes:
        return [f"{joint.name}_{s}" for s in suffixes[joint.type]]
    return [joint.name]


def _rebuild(xml_text, floating_base, gravity):
    model = Model(xml_text, floating_base)
    model.gravity = gravity
    return model
