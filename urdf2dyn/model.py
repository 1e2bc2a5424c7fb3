"""The Python face of a compiled URDF model: names, conventions, f_ext, pickling."""
from __future__ import annotations

import os
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _core
from .batch import get_num_threads
from .warn import URDFWarning, report

# Coordinate names of multi-DoF joints, appended to the joint's name as "<joint>_<suffix>".
_Q_SUFFIXES = {"floating": ("x", "y", "z", "qx", "qy", "qz", "qw"), "planar": ("x", "y", "theta")}
_V_SUFFIXES = {"floating": ("vx", "vy", "vz", "wx", "wy", "wz"), "planar": ("x", "y", "theta")}

#: External wrenches: {link name: [fx fy fz mx my mz] of shape (6,) or (N, 6)}, world frame.
FExt = Mapping[str, ArrayLike]


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
    parent: str | None
    child: str
    axis: tuple[float, float, float]
    limit: tuple[float, float, float, float] | None = None
    mimic: tuple[str, float, float] | None = None
    damping: float = 0.0
    friction: float = 0.0


@dataclass(frozen=True)
class Coordinate:
    """An OpenSim coordinate as the .osim file defines it. ``motion`` is "rotational",
    "translational" or "coupled" (OpenSim's motion type: a coordinate that moves its joint
    through anything but a slope-1 linear function is coupled); ``range`` is (lower,
    upper) in rad or m; ``locked`` and ``clamped`` are read, not enforced (inverse dynamics
    takes the motion it is given, as OpenSim's tool does)."""
    name: str
    joint: str
    motion: str
    default: float
    lower: float
    upper: float
    locked: bool
    clamped: bool


@dataclass(frozen=True, eq=False)
class Structure:
    """The compiled tree, as the core evaluates it (read-only copies; see Model.structure).

    Bodies are in topological order, body 0 being the fixed world; body i > 0 hangs from the
    movable joint ``joint[i]``. Transforms follow Featherstone's Plücker convention: ``E``
    rotates parent coordinates into child coordinates and ``r`` is the child origin in parent
    coordinates (a point maps as p_child = E (p_parent - r)). Inertias are about the body
    origin, in body axes: mass, first moment h = m c and 3x3 rotational inertia ``Ib``.
    """
    parent: np.ndarray      # (nb,)      parent body, parent[i] < i; -1 for the world
    joint: tuple            # (nb,)      name of the joint above each body ("" for the world)
    jtype: tuple            # (nb,)      its type: "revolute", ..., "fixed" for the world
    q_index: np.ndarray     # (nb,)      first q index of the joint
    v_index: np.ndarray     # (nb,)      first v index
    nq: np.ndarray          # (nb,)      number of q coordinates of the joint
    nv: np.ndarray          # (nb,)      number of v coordinates
    axis: np.ndarray        # (nb, 3)    joint axis (planar: normal) in the joint frame
    plane: np.ndarray       # (nb, 6)    planar joints: in-plane unit axes u, w
    Xtree_E: np.ndarray     # (nb, 3, 3) parent body frame -> joint frame at q = 0: rotation
    Xtree_r: np.ndarray     # (nb, 3)    ... and the joint origin in the parent body frame
    mass: np.ndarray        # (nb,)      body mass (fixed links merged)
    h: np.ndarray           # (nb, 3)    first moment of mass, body frame
    Ib: np.ndarray          # (nb, 3, 3) rotational inertia about the body origin
    link_names: tuple       # (nl,)      every URDF link, document order
    link_body: np.ndarray   # (nl,)      the body each link rides on
    link_E: np.ndarray      # (nl, 3, 3) body frame -> link frame: rotation
    link_r: np.ndarray      # (nl, 3)    ... and the link origin in the body frame

    @property
    def nbody(self):
        """Number of bodies, the world included."""
        return len(self.parent)


_JTYPES = ("fixed", "revolute", "continuous", "prismatic", "floating", "planar", "custom")


def load(urdf: str | bytes | os.PathLike[str], floating_base: bool = False,
         strict: bool = False) -> Model:
    """Load a URDF robot or an OpenSim model: ``urdf`` is a path or the XML text itself.

    An OpenSim model (root element ``<OpenSimDocument>``, any file name) is read by the same
    core: q_names are its coordinate names, gravity its own, ``model.markers`` and
    ``model.coordinates`` what the file defines (see the OpenSim models page of the docs).

    floating_base=True adds a floating joint named 'root_joint' above the URDF's root link
    (q = [x y z qx qy qz qw], v = [vx vy vz wx wy wz] in the root body's frame).
    Raises URDFError (a ValueError) naming the element, attribute and reason.

    What loads but is probably not what the author meant (a non-physical inertia, a mimic
    of a missing joint, a revolute or prismatic joint without <limit>, an unknown element or
    attribute, markup that is not well-formed XML but has one meaning) is read as written,
    as Pinocchio reads it, with a :class:`urdf2dyn.URDFWarning` naming the file, line,
    link or joint, element and attribute; ``strict=True`` raises URDFError instead.
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
        return Model(text, floating_base, strict=strict, source=os.fspath(urdf))
    else:
        raise TypeError(f"load: expected a path or URDF text, got {type(urdf).__name__}")
    return Model(text, floating_base, strict=strict)


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

    def __init__(self, xml_text: str, floating_base: bool = False, strict: bool = False,
                 source: str | None = None) -> None:
        self._xml = xml_text
        try:
            self._c = _core.load(xml_text, bool(floating_base))
        except _core.URDFError as e:
            if source is None:
                raise
            at = re.match(r"line (\d+): ", str(e))     # the core's "line N: " -> "file:N: "
            raise _core.URDFError(_where(source, int(at.group(1)) if at else 0)
                                  + str(e)[at.end() if at else 0:]) from None
        except UnicodeEncodeError as e:
            raise _core.URDFError(f"the URDF text is not valid Unicode ({e.reason} at "
                                  f"position {e.start})") from None
        #: What was read as written but looks wrong: (line, message), line 0 if unknown.
        self.findings = self._c.findings()
        for line, message in self.findings:
            report(_where(source, line) + message, strict=strict, error=_core.URDFError,
                   category=URDFWarning, stacklevel=4)
        self.joints = [Joint(*row) for row in self._c.joints()]
        links = self._c.links()
        self.link_names = [name for name, _ in links]
        self._link_body = dict(links)
        self._link_index = {name: k for k, name in enumerate(self.link_names)}
        self.q_names = [n for j in self.joints for n in _names(j, _Q_SUFFIXES)]
        self.v_names = [n for j in self.joints for n in _names(j, _V_SUFFIXES)]
        self._osim_names()

    def _osim_names(self):
        """An OpenSim model's names: q_names/v_names are its coordinate names; markers and
        coordinates as the file gives them (empty for a URDF)."""
        info = self._c.osim()
        #: Markers {name: (link, (x, y, z) in the link frame, m)}; empty for a URDF.
        self.markers = {}
        #: OpenSim coordinates in q order: {name: Coordinate}; empty for a URDF.
        self.coordinates = {}
        if info is None:
            return
        qn = [n for j in self.joints for n in (_names(j, _Q_SUFFIXES) if j.nq != 1 and
                                               j.type != "custom" else [j.name] * j.nq)]
        vn = [n for j in self.joints for n in (_names(j, _V_SUFFIXES) if j.nv != 1 and
                                               j.type != "custom" else [j.name] * j.nv)]
        self.q_names = [n if n is not None else d for n, d in zip(info["q_names"], qn)]
        self.v_names = [n if n is not None else d for n, d in zip(info["q_names"], vn)]
        self.markers = {name: (link, tuple(xyz)) for name, link, xyz in info["markers"]}
        self.coordinates = {row[0]: Coordinate(*row[:6], bool(row[6]), bool(row[7]))
                            for row in info["coordinates"]}

    # ---- description -------------------------------------------------------------
    @property
    def name(self) -> str:
        """Robot name (the ``<robot name>`` attribute)."""
        return self._c.name

    @property
    def nq(self) -> int:
        """Number of configuration coordinates."""
        return self._c.nq

    @property
    def nv(self) -> int:
        """Number of velocity coordinates (degrees of freedom)."""
        return self._c.nv

    @property
    def floating_base(self) -> bool:
        """True when load added a floating root joint (``floating_base=True``)."""
        return self._c.floating_base

    @property
    def gravity(self) -> NDArray[np.float64]:
        """Gravity (3,) in the URDF world frame, m/s²; default (0, 0, -9.81)."""
        return self._c.gravity

    @gravity.setter
    def gravity(self, g: ArrayLike) -> None:
        self._c.gravity = g

    def joint(self, name: str) -> Joint:
        """The movable joint called name."""
        for j in self.joints:
            if j.name == name:
                return j
        raise KeyError(f"no movable joint named {name!r}")

    def __repr__(self) -> str:
        base = "floating base" if self.floating_base else "fixed base"
        return (f"<urdf2dyn.Model {self.name!r}: {len(self.joints)} joints, nq={self.nq}, "
                f"nv={self.nv}, {len(self.link_names)} links, {base}>")

    def __reduce__(self):
        # what is set on a model after loading travels with it (markers, and what an .osim
        # says about its coordinates: default_q, locked_coordinates, clamped_ranges)
        extra = {k: v for k, v in self.__dict__.items()
                 if k in ("markers", "default_q", "locked_coordinates", "clamped_ranges")}
        return (_rebuild, (self._xml, self.floating_base, tuple(self.gravity)), extra)

    def structure(self):
        """The compiled tree the algorithms run on, as a :class:`Structure` of NumPy arrays:
        parents, joint types and axes, fixed placements, merged inertias and the link side
        table. Code generators read the model through this; changing the arrays changes
        nothing in the model."""
        s = self._c.structure()
        for key, value in s.items():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
        return Structure(
            parent=s["parent"], joint=tuple(s["joint"]),
            jtype=tuple(_JTYPES[t] for t in s["jtype"]), q_index=s["qadr"],
            v_index=s["vadr"], nq=s["jnq"], nv=s["jnv"], axis=s["axis"], plane=s["plane"],
            Xtree_E=s["Xtree_E"], Xtree_r=s["Xtree_r"], mass=s["mass"], h=s["h"], Ib=s["Ib"],
            link_names=tuple(self.link_names), link_body=s["link_body"], link_E=s["link_E"],
            link_r=s["link_r"])

    # ---- dynamics ----------------------------------------------------------------
    def _compute(self, algo, inputs, f_ext=None, link=-1, point=None, dt=0.0, reference=0):
        bodies, wrenches = self._fext(f_ext, inputs[0])
        return self._c.compute(algo, inputs, bodies, wrenches, get_num_threads(), link, point,
                               dt, reference)

    def inverse_dynamics(self, q: ArrayLike, v: ArrayLike, a: ArrayLike,
                         f_ext: FExt | None = None) -> NDArray[np.float64]:
        """Joint forces tau = M(q) a + C(q, v) v + g(q) - sum J^T f_ext (RNEA).

        f_ext: {link_name: (6,) or (N, 6)} wrenches [fx fy fz mx my mz] applied to the
        links, world coordinates, moments about the world origin (see wrench_at_point).
        """
        return self._compute(_core.RNEA, (q, v, a), f_ext)

    rnea = inverse_dynamics

    def mass_matrix(self, q: ArrayLike) -> NDArray[np.float64]:
        """Joint-space inertia M(q): (nv, nv) or (N, nv, nv), symmetric (CRBA)."""
        return self._compute(_core.CRBA, (q,))

    crba = mass_matrix

    def nonlinear_effects(self, q: ArrayLike, v: ArrayLike) -> NDArray[np.float64]:
        """h(q, v) = C(q, v) v + g(q): the joint forces that hold the robot at zero
        acceleration."""
        return self._compute(_core.NLE, (q, v))

    def gravity_torques(self, q: ArrayLike) -> NDArray[np.float64]:
        """g(q): the joint forces that hold the robot still against gravity."""
        return self._compute(_core.GRAVITY, (q,))

    def coriolis_matrix(self, q: ArrayLike, v: ArrayLike) -> NDArray[np.float64]:
        """C(q, v) with C v = h - g and dM/dt - 2C skew-symmetric (Pinocchio's factorization):
        (nv, nv) or (N, nv, nv)."""
        return self._compute(_core.CORIOLIS, (q, v))

    def forward_dynamics(self, q: ArrayLike, v: ArrayLike, tau: ArrayLike,
                         f_ext: FExt | None = None) -> NDArray[np.float64]:
        """Joint accelerations qdd = M^-1 (tau + sum J^T f_ext - h) (ABA). Raises ValueError
        when the mass matrix is singular (a movable joint carrying no inertia)."""
        return self._compute(_core.ABA, (q, v, tau), f_ext)

    aba = forward_dynamics

    # ---- derivatives, centroidal dynamics, regressor (docs/derivatives.rst) -------------
    def _no_planar(self, what):
        planar = [j.name for j in self.joints if j.type == "planar"]
        if planar:
            raise ValueError(f"{what}: planar joints are not supported (joint {planar[0]!r}); "
                             "model the plane with two prismatic joints and a revolute one")
        custom = [j.name for j in self.joints if j.type == "custom"]
        if custom:
            raise ValueError(f"{what}: not yet available for OpenSim custom joints (joint "
                             f"{custom[0]!r}: its motion subspace moves with its coordinates); "
                             "use finite differences of inverse_dynamics / forward_dynamics")

    def inverse_dynamics_derivatives(self, q, v, a, f_ext=None):
        """Partial derivatives of inverse dynamics (Carpentier & Mansard 2018).

        Parameters
        ----------
        q, v, a : array_like, (nq,) / (nv,) or (N, nq) / (N, nv)
        f_ext : dict, optional
            As for inverse_dynamics: world wrenches, fixed in the world as q changes.

        Returns
        -------
        dtau_dq, dtau_dv, M : ndarray, (nv, nv) or (N, nv, nv)
            dtau_dq[i, j] is d tau_i / d q_j, q moving in the tangent space
            (``integrate(q, dq)``, body-frame twist for floating joints, as Pinocchio);
            M = d tau / d a is the mass matrix.
        """
        self._no_planar("inverse_dynamics_derivatives")
        return self._compute(_core.RNEA_DERIV, (q, v, a), f_ext)

    def forward_dynamics_derivatives(self, q, v, tau, f_ext=None):
        """Partial derivatives of forward dynamics qdd = ABA(q, v, tau, f_ext).

        Returns
        -------
        dqdd_dq, dqdd_dv, Minv : ndarray, (nv, nv) or (N, nv, nv)
            dqdd_dq in the tangent space (as inverse_dynamics_derivatives); Minv = M^-1 =
            d qdd / d tau.
        """
        self._no_planar("forward_dynamics_derivatives")
        return self._compute(_core.ABA_DERIV, (q, v, tau), f_ext)

    def centroidal_momentum_matrix(self, q):
        """Centroidal momentum matrix A_G (6, nv) or (N, 6, nv) (Orin, Goswami & Lee 2013):
        h_G = A_G v, rows 0-2 the linear momentum, rows 3-5 the angular momentum about the
        centre of mass, world axes (Pinocchio's ccrba layout)."""
        self._no_planar("centroidal_momentum_matrix")
        return self._compute(_core.CCRBA, (q,))

    def centroidal(self, q, v, a):
        """Centroidal state: a dict of arrays, each with a leading N axis for N samples.

        Returns
        -------
        dict
            ``com``, ``com_velocity``, ``com_acceleration`` (3,): the centre of mass of the
            moving links and its derivatives; ``momentum`` (6,): h_G = A_G v = [p; L_G],
            linear momentum then angular momentum about the centre of mass, world axes;
            ``momentum_rate`` (6,): dh_G/dt = A_G a + dA_G/dt v (gravity excluded, so with
            a floating base it equals the external wrench plus the weight, at the CoM).
        """
        self._no_planar("centroidal")
        com, h = self._compute(_core.CENTROIDAL, (q, v, a))
        return {"com": com[..., 0, :], "com_velocity": com[..., 1, :],
                "com_acceleration": com[..., 2, :], "momentum": h[..., 0, :],
                "momentum_rate": h[..., 1, :]}

    def regressor(self, q, v, a):
        """Inertial-parameter regressor Y (nv, 10 B) or (N, nv, 10 B), with
        ``Y @ model.inertial_parameters() == inverse_dynamics(q, v, a)`` (Atkeson, An &
        Hollerbach 1986). Columns: 10 per body of ``model.bodies``, in that order."""
        return self._compute(_core.REGRESSOR, (q, v, a))

    def inertial_parameters(self):
        """The inertial parameters pi (10 B,): for each body of ``model.bodies`` (the compiled
        bodies, fixed links merged into them), [m, m cx, m cy, m cz, Ixx, Ixy, Iyy, Ixz, Iyz,
        Izz], c the centre of mass and I the inertia about the body origin, in the body
        frame (the frame of the link named in ``model.bodies``; Pinocchio's order)."""
        return self._c.inertial_parameters().reshape(-1)

    @property
    def bodies(self):
        """Names of the moving bodies, in the regressor's order: for each movable joint, its
        child link (which carries every link welded to it by fixed joints)."""
        return [j.child for j in self.joints]

    def parameter_names(self):
        """Names of the entries of inertial_parameters(): '<body>.m', '<body>.mcx', ...,
        '<body>.Izz'."""
        return [f"{b}.{p}" for b in self.bodies for p in PARAMETERS]

    # ---- kinematics --------------------------------------------------------------
    def forward_kinematics(self, q: ArrayLike
                           ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Every link's pose, in model.link_names order: positions (..., L, 3) of the link
        origins and rotations (..., L, 3, 3) whose columns are the link's axes, in the world."""
        return self._compute(_core.FK, (q,))

    def joint_positions(self, q: ArrayLike) -> NDArray[np.float64]:
        """World positions (..., J, 3) of the movable joints' frames, in model.joints order."""
        return self._compute(_core.JOINT_POS, (q,))

    def center_of_mass(self, q: ArrayLike) -> NDArray[np.float64]:
        """Centre of mass (..., 3) of the links that move (links welded to a fixed base are
        left out, as in Pinocchio); their mass is model.total_mass."""
        return self._compute(_core.COM, (q,))

    @property
    def total_mass(self) -> float:
        """Mass of the links that move (every link with a floating base)."""
        return self._c.total_mass

    def jacobian(self, q: ArrayLike, link: str, point: ArrayLike | None = None
                 ) -> NDArray[np.float64]:
        """Jacobian (6, nv) or (N, 6, nv) of a point on a link: rows 0-2 map v to the point's
        linear velocity, rows 3-5 to the link's angular velocity, both in world-aligned axes.
        point: (3,) in the link's frame (default: the link origin). The same as
        frame_jacobian(q, link, point, "local_world_aligned"), which has the other frames."""
        if link not in self._link_index:
            raise ValueError(f"jacobian: unknown link {link!r}")
        if point is not None:
            point = np.asarray(point, dtype=float)
            if point.shape != (3,) or not np.all(np.isfinite(point)):
                raise ValueError(f"jacobian: point must be 3 finite numbers, got {point!r}")
            point = tuple(point.tolist())
        return self._compute(_core.JACOBIAN, (q,), link=self._link_index[link], point=point)

    # ---- frames (Pinocchio's reference frames) -------------------------------------
    def frame_jacobian(self, q, link, point=None, reference="local_world_aligned"):
        """Jacobian (6, nv) or (N, 6, nv) of the frame on ``link`` at ``point``.

        The frame has the link's axes and its origin at ``point`` (3,) in link coordinates
        (default: the link origin). Rows are [linear; angular] as in Pinocchio's
        ``getFrameJacobian``; ``reference`` is Pinocchio's ReferenceFrame:

        - ``"local"``: the frame's own axes, linear velocity of its origin;
        - ``"world"``: world axes, the spatial velocity (linear part: the velocity of the
          body point passing through the world origin);
        - ``"local_world_aligned"``: world axes, linear velocity of the frame's origin
          (what :meth:`jacobian` returns).
        """
        link_id, point, ref = self._frame_args("frame_jacobian", link, point, reference)
        return self._compute(_core.FRAME_JACOBIAN, (q,), link=link_id, point=point,
                             reference=ref)

    def frame_jacobian_time_variation(self, q, v, link, point=None,
                                      reference="local_world_aligned"):
        """dJ/dt (6, nv) or (N, 6, nv) of :meth:`frame_jacobian` along v, so that
        ``J @ a + dJ @ v`` is the frame's acceleration: spatial in "local" and "world", the
        origin's classical acceleration in "local_world_aligned" (Pinocchio's
        ``getFrameJacobianTimeVariation``)."""
        link_id, point, ref = self._frame_args("frame_jacobian_time_variation", link, point,
                                               reference)
        return self._compute(_core.FRAME_JACOBIAN_DOT, (q, v), link=link_id, point=point,
                             reference=ref)

    def frame_velocity(self, q, v, link, point=None, reference="local_world_aligned"):
        """The frame's spatial velocity [linear; angular] (6,) or (N, 6) in ``reference``
        (Pinocchio's ``getFrameVelocity``)."""
        link_id, point, ref = self._frame_args("frame_velocity", link, point, reference)
        return self._compute(_core.FRAME_VELOCITY, (q, v), link=link_id, point=point,
                             reference=ref)

    def frame_acceleration(self, q, v, a, link, point=None, reference="local_world_aligned"):
        """The frame's spatial acceleration [linear; angular] (6,) or (N, 6) in ``reference``,
        gravity left out (Pinocchio's ``getFrameAcceleration``)."""
        link_id, point, ref = self._frame_args("frame_acceleration", link, point, reference)
        return self._compute(_core.FRAME_ACCELERATION, (q, v, a), link=link_id, point=point,
                             reference=ref)

    def frame_classical_acceleration(self, q, v, a, link, point=None,
                                     reference="local_world_aligned"):
        """The frame's classical acceleration [linear; angular] (6,) or (N, 6): the spatial
        acceleration with the angular velocity x linear velocity term added to its linear part
        (Pinocchio's ``getFrameClassicalAcceleration``). In "local" and
        "local_world_aligned" the linear part is d²p/dt² of the point (an accelerometer's
        reading without gravity, in the sensor's axes or the world's)."""
        link_id, point, ref = self._frame_args("frame_classical_acceleration", link, point,
                                               reference)
        return self._compute(_core.FRAME_CLASSICAL, (q, v, a), link=link_id, point=point,
                             reference=ref)

    def _frame_args(self, fn, link, point, reference):
        if link not in self._link_index:
            raise ValueError(f"{fn}: unknown link {link!r} (model.link_names lists the "
                             f"{len(self.link_names)} links)")
        if point is not None:
            point = np.asarray(point, dtype=float)
            if point.shape != (3,) or not np.all(np.isfinite(point)):
                raise ValueError(f"{fn}: point must be 3 finite numbers, got {point!r}")
            point = tuple(point.tolist())
        name = getattr(reference, "name", reference)         # also pinocchio.ReferenceFrame
        ref = _REFERENCES.get(str(name).lower()) if isinstance(name, str) else None
        if ref is None:
            raise ValueError(f"{fn}: reference must be 'local', 'world' or "
                             f"'local_world_aligned', got {reference!r}")
        return self._link_index[link], point, ref

    def inverse_kinematics(self, targets, markers=None, **options):
        """The coordinates whose markers best fit measured ones, frame by frame (OpenSim's
        IK, in the core): see urdf2dyn.markers.inverse_kinematics for the options."""
        from .markers import inverse_kinematics
        return inverse_kinematics(self, targets, markers=markers, **options)

    def link_velocities(self, q: ArrayLike, v: ArrayLike) -> NDArray[np.float64]:
        """(..., L, 6): linear velocity of each link origin and angular velocity, in
        world-aligned axes."""
        return self._compute(_core.LINK_VEL, (q, v))

    def kinetic_energy(self, q: ArrayLike, v: ArrayLike) -> float | NDArray[np.float64]:
        """Kinetic energy 1/2 v^T M v: a float, or (N,)."""
        return _scalar(self._compute(_core.KINETIC, (q, v)))

    def potential_energy(self, q: ArrayLike) -> float | NDArray[np.float64]:
        """Gravitational potential energy -sum m g.c of the moving links: a float, or (N,)."""
        return _scalar(self._compute(_core.POTENTIAL, (q,)))

    # ---- configurations ---------------------------------------------------------------
    def integrate(self, q: ArrayLike, v: ArrayLike, dt: float = 1.0) -> NDArray[np.float64]:
        """q (+) v dt: floating joints move along the SE(3) exponential of the body twist
        v dt; other joints add v dt."""
        return self._compute(_core.INTEGRATE, (q, v), dt=float(dt))

    def difference(self, q0: ArrayLike, q1: ArrayLike) -> NDArray[np.float64]:
        """The v with integrate(q0, v, 1) = q1 (the SE(3) logarithm for floating joints)."""
        return self._compute(_core.DIFFERENCE, (q0, q1))

    def normalize(self, q: ArrayLike) -> NDArray[np.float64]:
        """q with every floating joint's quaternion scaled to unit norm."""
        return self._compute(_core.NORMALIZE, (q,))

    def neutral(self) -> NDArray[np.float64]:
        """The zero configuration: zero angles and offsets, identity quaternions."""
        q = np.zeros(self.nq)
        for j in self.joints:
            if j.type == "floating":
                q[j.q_index + 6] = 1.0
        return q

    def random_configuration(self, n: int | None = None, seed: int | None = None
                             ) -> NDArray[np.float64]:
        """Uniform random configurations (n of them, or one): within the URDF limits when
        finite and ordered, else angles in [-pi, pi] and lengths in [-1, 1]; floating joints
        get a position in [-1, 1]^3 and a uniform random unit quaternion."""
        rng = np.random.default_rng(seed)
        shape = (1 if n is None else n, self.nq)
        q = np.empty(shape)
        for j in self.joints:
            sl = slice(j.q_index, j.q_index + j.nq)
            if j.type == "floating":
                q[:, sl][:, :3] = rng.uniform(-1, 1, (shape[0], 3))
                quat = rng.normal(size=(shape[0], 4))
                q[:, sl][:, 3:] = quat / np.linalg.norm(quat, axis=1, keepdims=True)
            elif j.limit is not None and j.limit[0] < j.limit[1] and j.type != "continuous":
                q[:, sl] = rng.uniform(j.limit[0], j.limit[1], (shape[0], 1))
            elif j.type == "planar":
                q[:, sl] = rng.uniform([-1, -1, -np.pi], [1, 1, np.pi], (shape[0], 3))
            else:
                bound = 1.0 if j.type == "prismatic" else np.pi
                q[:, sl] = rng.uniform(-bound, bound, (shape[0], 1))
        return q[0] if n is None else q

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


# Names of the ten inertial parameters of a body, in the regressor's order.
PARAMETERS = ("m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz")

_REFERENCES = {"local": _core.LOCAL, "world": _core.WORLD,
               "local_world_aligned": _core.LOCAL_WORLD_ALIGNED}


def _scalar(x):
    return float(x) if x.ndim == 0 else x


def _names(joint, suffixes):
    if joint.type in suffixes:
        return [f"{joint.name}_{s}" for s in suffixes[joint.type]]
    return [joint.name]


def _where(source, line):
    """'robot.urdf:12: ' / 'line 12: ' / 'robot.urdf: ' / ''."""
    if source is not None:
        return f"{source}:{line}: " if line else f"{source}: "
    return f"line {line}: " if line else ""


def _rebuild(xml_text, floating_base, gravity):
    with warnings.catch_warnings():         # said once, when the model was first loaded
        warnings.simplefilter("ignore", URDFWarning)
        model = Model(xml_text, floating_base)
    model.gravity = gravity
    return model
