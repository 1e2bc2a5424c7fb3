"""Plausibility checks of an inverse-dynamics trial: each returns a list of messages (empty when
the data look right); the checks stage (urdf2dyn.biomech.stages.checks, one function of the
trial per check) reports them as urdf2dyn.Urdf2dynWarning (errors under ``strict``). Every
message names the file, the columns or times, and what to do.

=====================  ====================================================================
check                  warns when
=====================  ====================================================================
:func:`units`          radians expected but a joint angle (a URDF's revolute joint, an
                       .osim's rotational coordinate: custom joints too) exceeds 2 pi (360
                       deg: no joint turns that far; degrees are likely), or a continuous
                       joint swings back and forth by more than a turn; or degrees declared
                       but none exceeds pi in the file's numbers (radians likely)
:func:`joint_limits`   a coordinate leaves its URDF <limit> by more than LIMIT_MARGIN_RAD
                       (revolute, 20 deg) or LIMIT_MARGIN_M (prismatic, 5 cm)
:func:`couplers`       a coupler's dependent coordinate in the file leaves its constraint's
                       function of the independent one by more than COUPLER_MARGIN_RAD (2
                       deg) or COUPLER_MARGIN_M (5 mm): a patella's knee_angle_r_beta in
                       degrees in a radians file (OpenSim's Moco example3DWalking); a
                       rotation 57.3 times its function (within 1 %) is said to be in
                       degrees, a translation 1000 times it (within 3 %) in millimetres
:func:`residuals`      root residual force peak > 5 % of the peak ground reaction, or RMS
                       residual moment (about the CoM) > 1 % of CoM height x peak ground
                       reaction: Hicks, Uchida, Seth, Rajagopal & Delp (2015), "Is my model
                       good enough?", J. Biomech. Eng. 137:020905
:func:`cop_distance`   a load (during contact) whose line of action passes farther than
                       COP_MAX_DISTANCE (0.3 m) from the origin of the link it loads: a foot
                       is ~0.26 m long and its link origin lies at the heel or ankle, so a CoP
                       0.3 m away is under another foot (plates or sides swapped), another
                       plate, or in the wrong frame/units; from the applied wrenches, so at
                       the motion's samples whatever the loads' rate and source
:func:`sampling`       forces sampled at a rate that is not an integer multiple of the
                       motion's (they are interpolated), or over a shorter time span
:func:`gravity`        with loads, the mean root residual force plus the model's weight
                       (the gravity the data balance) lies across the model's gravity, or
                       against it, by more than half the body weight; a marker recording is
                       told the lab rotation that stands it up; a body standing upright
                       along the model's gravity on loads pointing down is told their sign
                       is flipped
:func:`opensim_axes`   a URDF model (z-up by convention) with gravity along z runs on an
                       OpenSim .mot/.sto motion (OpenSim's convention is y-up)
:func:`missing_loads`  no external load on a trial whose feet step down to the floor and
                       lift off it (walking, running)
:func:`light_loads`    loads that never hold up LIGHT_LOADS_FRACTION (half) of the body
                       weight along the vertical: a body walking, running or standing on
                       them puts its weight on them at some point; reactions normalized to
                       body weight or in kgf, a model heavier than the subject, or
                       supports left out
:func:`ik_fit`         inverse kinematics' marker RMS above 2 cm or largest error above 4 cm
                       in a frame (OpenSim's best practice)
:func:`ik_ranges`      inverse kinematics taking an unclamped .osim coordinate beyond its
                       range (OpenSim bounds only clamped ones)
:func:`unfiltered`     coordinates fitted to markers differentiated without a low-pass
                       filter (OpenSim users filter gait at 6 Hz)
:func:`arc_switches`   a ConstantCurvatureJoint's bend crosses one of OpenSim's switches
                       between its arc and a straight segment (the sine of its bend at 0.001
                       or 0.999), where its child jumps (by L theta / 2 or 0.71 L)
:func:`weightless`     gravity parallel to every joint axis over the trial: no joint
                       carries weight (a vertical-plane arm about z with the URDF default
                       gravity)
=====================  ====================================================================
"""
import copy
import math
import os
import warnings

import numpy as np

from ..warn import Urdf2dynWarning, counted, time_digits
from .processing import LIBRARY_COLUMNS

__all__ = ["units", "joint_limits", "couplers", "residuals", "cop_distance", "sampling", "gravity",
           "opensim_axes", "missing_loads", "light_loads", "ik_fit", "ik_ranges",
           "unfiltered", "arc_switches",
           "weightless", "LIGHT_LOADS_FRACTION",
           "GRAVITY_WEIGHT_FRACTION",
           "FOOT_DOWN_BAND", "FOOT_LIFT", "FEET_DOWN_FRACTION", "IK_RMS_MAX", "IK_MAX_MAX",
           "MARKER_CUTOFF_HZ",
           "LIMIT_MARGIN_RAD", "LIMIT_MARGIN_M",
           "COUPLER_MARGIN_RAD", "COUPLER_MARGIN_M", "COP_MAX_DISTANCE",
           "RESIDUAL_FORCE_FRACTION", "RESIDUAL_MOMENT_FRACTION"]

LIMIT_MARGIN_RAD = math.radians(20.0)
LIMIT_MARGIN_M = 0.05
COUPLER_MARGIN_RAD = math.radians(2.0)
COUPLER_MARGIN_M = 0.005
COP_MAX_DISTANCE = 0.3
RESIDUAL_FORCE_FRACTION = 0.05      # Hicks et al. 2015: peak residual force / peak external force
RESIDUAL_MOMENT_FRACTION = 0.01     # Hicks et al. 2015: RMS moment / (CoM height x peak force)
GRAVITY_WEIGHT_FRACTION = 0.5       # gravity check: off-axis weight above half the body weight
FOOT_DOWN_BAND = 0.03               # missing loads: a foot within 3 cm of its lowest point
FOOT_LIFT = 0.08                    # ... and lifted 8 cm above it (a step's clearance)
FEET_DOWN_FRACTION = 0.1            # ... each in a tenth of the samples at least
LIGHT_LOADS_FRACTION = 0.5          # light loads: their peak support below half the weight
IK_RMS_MAX = 0.02                   # OpenSim's IK best practice: marker RMS below 2 cm
IK_MAX_MAX = 0.04                   # ... and the largest marker error below 2-4 cm
MARKER_CUTOFF_HZ = 6.0              # the cutoff of OpenSim's gait examples (Setup_ID.xml)


def _hinges(model):
    """(name, q index) of the coordinates that turn a joint through a bounded angle: a URDF's
    revolute joints, an .osim's rotational coordinates (custom joints' included; not a
    continuous joint, which may turn any number of times)."""
    if model.is_opensim:
        return [(n, k) for k, n in enumerate(model.q_names)
                if n in model.coordinates and model.coordinates[n].motion == "rotational"]
    return [(j.name, j.q_index) for j in model.joints if j.type == "revolute"]


def units(model, q, degrees, source, named=LIBRARY_COLUMNS):
    """Angles that look like degrees read as radians (or radians read as degrees). q in rad
    (after any conversion); degrees: whether the file was declared in degrees; named: the
    caller's options, as the advice names them (ColumnOptions). Every
    coordinate that turns a joint counts (:func:`_hinges`: an OpenSim model's custom joints
    too, whose knees once read degrees as radians without a word), and a continuous joint
    that swings back and forth by more than a turn (:func:`_swinging_turns`)."""
    joints = _hinges(model)
    if len(q) == 0:
        return []
    opensim = os.path.splitext(str(source))[1].lower() in (".mot", ".sto")
    cols = [k for _, k in joints]
    x = np.abs(np.asarray(q, dtype=float)[:, cols])
    if degrees:
        raw = np.degrees(x)          # the numbers as written in the file
        if joints and np.nanmax(raw) <= math.pi and np.nanmax(raw) > 0:
            return [f"{source}: read in degrees, but no joint angle exceeds "
                    f"{np.nanmax(raw):.2f} (as written): the angles look like radians. "
                    + ("If they are, put the lines 'version=1' and 'inDegrees=no' in its "
                       "header (OpenSim reads them so too)" if opensim else
                       "Read them as radians if they are" + named.said("degrees", " (drop {})"))]
        return []
    peak = np.nanmax(x, axis=0) if joints else []
    wild = sorted(((f"{n} up to", p) for (n, _), p in zip(joints, peak) if p > 2 * math.pi),
                  key=lambda x: -x[1])                    # the largest first
    wild += _swinging_turns(model, q)
    if wild:
        names = ", ".join(f"{n} {p:.3g}" for n, p in wild[:6])
        more = f" and {len(wild) - 6} more" if len(wild) > 6 else ""
        return [f"{source}: joint angles beyond a full turn (2 pi rad) read as radians: "
                f"{names}{more}. They look like degrees: "
                + ("if they are, put 'inDegrees=yes' in its header (OpenSim reads them so too)"
                   if opensim else named.said("degrees", "pass {} if they are")
                   or "if they are, write them in radians")]
    return []


def _swinging_turns(model, q):
    """(name, swing) of the continuous joints that swing back and forth (two reversals at
    least) through more than a full turn between reversals: a joint that may turn any number
    of times does not oscillate by turns; degrees read as radians make a 20 deg swing 20 rad.
    """
    out = []
    for j in model.joints:
        if j.type != "continuous":
            continue
        x = np.asarray(q, dtype=float)[:, j.q_index]
        x = x[np.isfinite(x)]
        step = np.diff(x)
        step = step[step != 0]
        ends = np.flatnonzero(np.diff(np.sign(step)) != 0)   # the last step before a reversal
        if len(ends) < 2:
            continue
        at = x[np.concatenate(([0], ends + 1))]              # start, then each turning point
        swing = float(np.abs(np.diff(at)).max())
        if swing > 2 * math.pi:
            out.append((f"{j.name} (continuous) swinging back and forth by", swing))
    return out


def joint_limits(model, t, q, source):
    """Coordinates outside their URDF limits by more than the margin."""
    q = np.asarray(q, dtype=float)
    out = []
    for j in model.joints:
        if j.type not in ("revolute", "prismatic") or j.limit is None:
            continue
        lo, hi = j.limit[0], j.limit[1]
        if not lo < hi:
            continue
        margin = LIMIT_MARGIN_RAD if j.type == "revolute" else LIMIT_MARGIN_M
        x = q[:, j.q_index]
        excess = np.maximum(lo - x, x - hi)
        k = int(np.nanargmax(excess)) if np.isfinite(excess).any() else 0
        if excess[k] > margin:
            unit = "rad" if j.type == "revolute" else "m"
            out.append(f"{j.name}: {x[k]:.4g} {unit} at t = {t[k]:g} s")
    if not out:
        return []
    return [f"{source}: joint coordinates outside their URDF limits by more than "
            f"{math.degrees(LIMIT_MARGIN_RAD):.0f} deg / {LIMIT_MARGIN_M * 100:.0f} cm: "
            + "; ".join(out[:6]) + (f"; and {len(out) - 6} more" if len(out) > 6 else "")
            + ". Check the units (degrees?), the column mapping and the model's joint axes"]


def couplers(model, t, q, columns, source, named=LIBRARY_COLUMNS):
    """Couplers' dependent coordinates whose values in the file (columns: the file's
    coordinate names; one it lacks is not its to answer for) leave their constraint's
    function of the independent coordinate: OpenSim's inverse dynamics, and urdf2dyn's with
    the couplers kept, move the dependent body as written. q: (N, nq) as read, in rad / m.
    named: the caller's options, as the advice names them (ColumnOptions)."""
    if not model.couplers or model.eliminate_couplers or len(q) == 0:
        return []
    q = np.asarray(q, dtype=float)
    should, _, _ = model.apply_couplers(q)
    off = []
    for c in model.couplers:
        if c.dependent not in columns:
            continue
        k = model.q_names.index(c.dependent)
        coord = getattr(model, "coordinates", {}).get(c.dependent)
        margin, unit = ((COUPLER_MARGIN_M, "m") if coord is not None and
                        coord.motion == "translational" else (COUPLER_MARGIN_RAD, "rad"))
        gap = np.abs(q[:, k] - should[:, k])
        if not np.nanmax(gap, initial=0.0) > margin:
            continue
        i = int(np.nanargmax(gap))
        said = (f"{c.dependent} up to {gap[i]:.3g} {unit} off {c.name}'s function of "
                f"{c.independent} (at t = {t[i]:.3g} s)")
        off.append(said + _likely_unit(unit, _ratio(q[:, k], should[:, k])))
    if not off:
        return []
    return [f"{source}: coordinates not held by their CoordinateCouplerConstraint: "
            + "; ".join(off) + ". OpenSim's inverse dynamics (and urdf2dyn's with the couplers "
            "kept) moves their bodies as the file says: correct the columns"
            + ("" if named.couplers is None else ", or compute them from the coordinates they "
               f"follow ({named.couplers})")]


# The factor a column written in another unit has over its function, how near it must be
# (relative) and what the column is then likely in: degrees read as radians (the factor is
# exact); millimetres read as metres (a few % allowed: a lab's model's function may differ
# from this model's a little, as its bone lengths do).
_UNIT_FACTORS = {"rad": (math.degrees(1.0), 0.01, "{:.1f}", "degrees where radians"),
                 "m": (1000.0, 0.03, "{:.0f}", "millimetres where metres")}


def _likely_unit(unit, ratio):
    """What a coupler's off column is likely in, from its ratio to its function (None where
    the function is ~0), for the message: '' when no unit explains it."""
    factor, tolerance, form, unit_words = _UNIT_FACTORS[unit]
    if ratio is None or abs(ratio / factor - 1.0) >= tolerance:
        return ""
    return f": it is {form.format(ratio)} times it, so in {unit_words} are read"


def _ratio(have, should):
    """The least-squares factor from should to have, or None where should is ~0."""
    ok = np.isfinite(have) & np.isfinite(should)
    den = float(np.dot(should[ok], should[ok]))
    return float(np.dot(have[ok], should[ok])) / den if den > 1e-12 else None


def residuals(model, t, res_com, peak_force, com_height, source):
    """Root residuals against Hicks et al. (2015). res_com: urdf2dyn.biomech.grf.Residuals about the
    centre of mass; peak_force: peak magnitude (N) of the summed ground reactions; com_height:
    mean height (m) of the CoM above the ground contacts."""
    if res_com is None or not peak_force or peak_force <= 0:
        return []
    s = res_com.summary()
    out = []
    if s["force_max"] > RESIDUAL_FORCE_FRACTION * peak_force:
        n = np.linalg.norm(res_com.force, axis=1)
        k = int(np.nanargmax(n))
        edge = min(k, len(n) - 1 - k) < max(3, len(n) // 50)
        where = f" at t = {t[k]:g} s" + (" (an end of the trial: a filter's edge effect? trim "
                                         "the ends)" if edge else "")
        out.append(f"{source}: root residual force up to {s['force_max']:.0f} N{where} = "
                   f"{100 * s['force_max'] / peak_force:.0f} % of the peak ground reaction "
                   f"({peak_force:.0f} N; Hicks et al. 2015 advise below "
                   f"{100 * RESIDUAL_FORCE_FRACTION:.0f} %): check the units of the angles, "
                   "the body mass, the ground-reaction frame and sign, and the filter")
    bound = RESIDUAL_MOMENT_FRACTION * com_height * peak_force
    if com_height > 0 and s["moment_rms"] > bound:
        out.append(f"{source}: root residual moment RMS {s['moment_rms']:.1f} N·m about the CoM "
                   f"exceeds 1 % of CoM height x peak ground reaction ({bound:.1f} N·m; Hicks "
                   "et al. 2015): check the centres of pressure, the contact links and the "
                   "kinematics")
    return out


def cop_distance(model, t, q, f_ext, source, threshold, names=None, named=LIBRARY_COLUMNS):
    """Loads that act far from the link they are applied to, at the motion's samples, from
    the loads themselves (f_ext {link: (N, 6)} world wrenches about the origin, whatever
    their source and rate): while the load's component against gravity exceeds threshold, the
    distance from the link's origin to its line of action (the vertical through the centre of
    pressure for a ground reaction; the central axis F x M / |F|^2 + s F). names: {link:
    the reaction's key} for the messages; named: the caller's options, as the advice names
    them (ColumnOptions)."""
    if not f_ext:
        return []
    g = np.asarray(model.gravity, dtype=float)
    up = -g / np.linalg.norm(g) if np.linalg.norm(g) > 0 else np.array([0.0, 0.0, 1.0])
    pos, _ = model.forward_kinematics(q)
    out = []
    for link, w in f_ext.items():
        if link not in model._link_index:
            continue
        w = np.asarray(w, dtype=float)
        F, M = w[:, :3], w[:, 3:]
        f2 = np.einsum("ij,ij->i", F, F)
        on = (F @ up > threshold) & np.isfinite(f2)
        if not on.any():
            continue
        p0 = np.cross(F, M) / np.where(on, f2, 1.0)[:, None]      # the point of the axis
        x = pos[:, model._link_index[link]]                       # nearest the origin
        d = np.linalg.norm(np.cross(x - p0, F), axis=1) / np.sqrt(np.where(on, f2, 1.0))
        d[~on] = 0.0
        k = int(np.argmax(d))
        if d[k] > COP_MAX_DISTANCE:
            what = (f"the centre of pressure of {names[link]!r}" if names and link in names
                    else f"the load on {link!r}")
            out.append(f"{source}: {what} is {d[k]:.2f} m from the origin of {link!r} at "
                       f"t = {t[k]:g} s "
                       f"({counted(int((d > COP_MAX_DISTANCE).sum()), 'sample')} beyond "
                       f"{COP_MAX_DISTANCE} m): the load of another foot (plates or sides "
                       f"swapped: {_where_linked(named, (names or {}).get(link))}), or its "
                       "frame or length unit (mm?)")
    return out


def _where_linked(named, key):
    """Where the caller says which link a load acts on (key: the reaction's, None: unknown),
    as the caller's options name it (ColumnOptions)."""
    given = named.contacts(["KEY" if key is None else key])
    return ", ".join(
        ([given] if given is not None else ["the ground-reaction columns' names"])
        + (["an ExternalLoads file's applied_to_body"] if named.external_loads is not None
           else []))


def sampling(t_motion, t_forces, source, force_rate=None, motion_rate=None):
    """Forces at a rate that is not an integer multiple of the motion's, or a shorter span."""
    def rate(t):
        return 1.0 / float(np.median(np.diff(t))) if len(t) > 1 else None

    motion_rate = motion_rate or rate(np.asarray(t_motion))
    force_rate = force_rate or (rate(np.asarray(t_forces)) if t_forces is not None else None)
    out = []
    if motion_rate and force_rate:
        ratio = force_rate / motion_rate
        k = round(ratio)
        if k < 1 or abs(ratio - k) > 1e-3 * k:
            out.append(f"{source}: forces sampled at {force_rate:.6g} Hz, the motion at "
                       f"{motion_rate:.6g} Hz: not an integer multiple (ratio {ratio:.4g}); the "
                       "forces are linearly interpolated onto the motion's times. Check that "
                       "both clocks start together")
    if t_forces is not None and len(t_forces) > 1:
        tf, tm = np.asarray(t_forces), np.asarray(t_motion)
        if tf[-1] - tf[0] < (tm[-1] - tm[0]) * (1 - 1e-9):
            out.append(f"{source}: the forces span t = {tf[0]:g} .. {tf[-1]:g} s, shorter than "
                       f"the motion's {tm[0]:g} .. {tm[-1]:g} s: the motion's samples outside "
                       "get the nearest force sample (more than one force sample beyond is "
                       "refused)")
    return out


def _gravity_text(g):
    return " ".join(f"{x:g}" for x in g)


def _set_gravity(g, named):
    """How the caller sets the model's gravity to g, in its words (named: ColumnOptions):
    --gravity on a command line, model.gravity in Python."""
    g = tuple(float(x) + 0.0 for x in g)                     # + 0.0: no -0 in the advice
    return named.said("gravity", "{}", g) or f"set the model's gravity to {g}"


def gravity(model, t, residual_force, source, rotation=None, *, q=None, f_ext=None,
            loads_source=None, named=LIBRARY_COLUMNS):
    """The gravity the data balance, against the model's.

    With external loads (ground reactions) that carry the body, the mean root residual force
    over a trial is m (g_data - g_model): the loads hold the weight up along the data's
    vertical while the model pulls along its own. g_data = g_model + mean residual / m; a
    component of it across the model's gravity beyond GRAVITY_WEIGHT_FRACTION of |g|, or
    one as large against it (the data upside down), means the wrong vertical: e.g. a y-up
    recording run with the URDF default (0, 0, -9.81), or a marker recording turned by the
    wrong lab rotation. residual_force: (N, 3) N, world axes. rotation: the trial's lab to
    model rotation when its motion is a marker recording (a string or matrix, or "" for
    none): the advice is then the rotation that stands the data up, else the gravity.

    Loads whose sign is flipped (the force the foot applies on the plate, not the plate's on
    the foot) look the same in the residual: g_data against g_model. The motion tells the
    two apart, given q (N, nq) and the loads f_ext {link: (N, 6)}: when the body stands
    upright along the model's gravity (its centre of mass above the loaded links, on average)
    and the loads' mean force points down along it by more than GRAVITY_WEIGHT_FRACTION of
    the weight, the gravity is right and the loads' sign is wrong, and the advice says so
    (loads_source: where the loads came from, for the message). named: the caller's options,
    as the advice names them (ColumnOptions)."""
    g = np.asarray(model.gravity, dtype=float)
    mass = float(model.total_mass)
    gn = float(np.linalg.norm(g))
    F = np.asarray(residual_force, dtype=float)
    if not (gn > 0 and mass > 0 and len(F)) or not np.isfinite(F).all():
        return []
    implied = g + F.mean(axis=0) / mass
    along = float(implied @ g) / gn
    across = float(np.linalg.norm(implied - along * g / gn))
    limit = GRAVITY_WEIGHT_FRACTION * gn
    if across <= limit and along >= -limit:
        return []
    axis = int(np.argmax(np.abs(implied)))
    mean = F.mean(axis=0)
    if across <= limit and q is not None and f_ext:
        flipped = _flipped_loads(model, q, f_ext, source, loads_source, mean, t)
        if flipped:
            return [flipped]
    if axis == int(np.argmax(np.abs(g))) and implied[axis] * g[axis] > 0:
        return [_tilted(g, implied, mean, mass, source, t)]
    head = (f"{source}: the root residual force averages "
            f"({', '.join(f'{x:.0f}' for x in mean)}) N over t = {t[0]:g} .. {t[-1]:g} s: the "
            f"loads hold the body up along {'-' if implied[axis] > 0 else '+'}{'xyz'[axis]} "
            f"(about its weight, {mass * gn:.0f} N) while the model's gravity is "
            f"({_gravity_text(g)}). ")
    if rotation is not None:
        return [head + _rotation_advice(implied, g, rotation, named)]
    suggest = np.zeros(3)
    suggest[axis] = math.copysign(gn, implied[axis])
    if model.is_opensim:
        return [head + "The loads are in another frame than the model's (an OpenSim model's "
                "is y up): express the ground reactions in it, or give their frame "
                "(ExternalLoads' force_expressed_in_body)"]
    return [head + f"Set the gravity of the data's vertical: {_set_gravity(suggest, named)}"]


def _tilted(g, implied, mean, mass, source, t):
    """The advice when the data's vertical is the model's axis, tilted: no other axis or sign
    would stand the data up, so the gravity is right and the loads carry a mean horizontal
    force that a body running or walking in place does not have."""
    gn = float(np.linalg.norm(g))
    cos = float(implied @ g) / (float(np.linalg.norm(implied)) * gn)
    angle = math.degrees(math.acos(min(1.0, max(-1.0, cos))))
    across = mass * (implied - (implied @ g) / gn**2 * g)
    return (f"{source}: the root residual force averages "
            f"({', '.join(f'{x:.0f}' for x in mean)}) N over t = {t[0]:g} .. {t[-1]:g} s: the "
            f"loads hold the body up {angle:.0f} deg away from the model's vertical (gravity "
            f"({_gravity_text(g)})), with a mean force of "
            f"({', '.join(f'{x:.0f}' for x in -across)}) N across it that the motion does not "
            "balance. The gravity is right; check that the loads are expressed in the model's "
            "frame (the plates' orientation, ExternalLoads' force_expressed_in_body), that "
            "they cover the motion's times (loads held at their last sample past the data), "
            "and their contact links")


def _flipped_loads(model, q, f_ext, source, loads_source, mean, t):
    """The advice for loads pointing down on a body standing upright along the model's
    gravity (see gravity), or None when the motion does not say so."""
    g = np.asarray(model.gravity, dtype=float)
    gn, mass = float(np.linalg.norm(g)), float(model.total_mass)
    up = -g / gn
    links = [x for x in f_ext if x in model._link_index]
    if not links:
        return None
    total = sum(np.nan_to_num(np.asarray(f_ext[x], dtype=float)[:, :3]) for x in links)
    load = total.mean(axis=0)
    if not float(load @ up) < -GRAVITY_WEIGHT_FRACTION * mass * gn:
        return None
    q = np.asarray(q, dtype=float)
    pos, _ = model.forward_kinematics(q)
    feet = np.mean([pos[:, model._link_index[x]] @ up for x in links], axis=0)
    height = float(np.mean(model.center_of_mass(q) @ up - feet))
    if not height > 0:                   # upside down against the model's gravity: its vertical
        return None
    where = loads_source or "the loads"
    return (f"{source}: the loads push the body down: their mean force is "
            f"({', '.join(f'{x:.0f}' for x in load)}) N, about minus its weight "
            f"({mass * gn:.0f} N), while its centre of mass stays {height:.2f} m above the "
            f"loaded links along the model's gravity ({_gravity_text(g)}), so the gravity is "
            f"right (the root residual force averages ({', '.join(f'{x:.0f}' for x in mean)}) N "
            f"over t = {t[0]:g} .. {t[-1]:g} s). The ground reactions' sign is flipped: {where} "
            "holds the force the foot applies on the plate instead of the plate's on the foot; "
            "negate its force columns (the vertical one, or all three and the free moments "
            "when every axis has the foot's sign; urdf2dyn has no option for it)")


def _rotation_advice(implied, g, rotation, named):
    """The rotation from the lab to the model that puts the data's vertical (implied, model
    frame) along the model's gravity g, in urdf2dyn.biomech.markers.rotation_matrix's text:
    the first quarter or half turn (or two) that stands the data up, composed with the
    rotation given, in the caller's words (named: ColumnOptions)."""
    from .markers import rotation_matrix
    current = rotation_matrix(rotation or None)
    down, target = implied / np.linalg.norm(implied), g / np.linalg.norm(g)
    given = (named.said("rotation", value=rotation) or f"the rotation {rotation}"
             if isinstance(rotation, str) and rotation else
             "the rotation given" if rotation else "no rotation")
    advice = "another rotation"
    for text in _TURNS:
        R = rotation_matrix(text)
        if (R @ down) @ target > 0.9:
            total = _rotation_text(R @ current)
            advice = ("no rotation" if total == "" else
                      named.said("rotation", value=total) or f"the rotation {total}" if total
                      else f"{named.said('rotation', value=text) or text} after {given}")
            break
    return (f"The lab's vertical is not the model's with {given}: use {advice} (the rotation "
            "from the lab's axes to the model's: a z-up lab to an OpenSim model is x:-90, a "
            "y-up lab needs none)")


_STEPS = [f"{a}:{d}" for a in "xyz" for d in (90, -90, 180)]
#: Quarter and half turns about the axes, one or two: the rotations advice is given in.
_TURNS = _STEPS + [f"{x},{y}" for x in _STEPS for y in _STEPS]


def _rotation_text(R):
    """The shortest text of rotation R in quarter and half turns ("" for none), or None."""
    from .markers import rotation_matrix
    if np.allclose(R, np.eye(3)):
        return ""
    return next((text for text in _TURNS if np.allclose(rotation_matrix(text), R, atol=1e-9)),
                None)


def missing_loads(model, t, q, feet, source, loads_source=None, named=LIBRARY_COLUMNS):
    """A trial that looks like walking or running (each foot goes down to the floor and
    lifts off it again: its lowest point reached in FEET_DOWN_FRACTION of the samples and
    left by more than FOOT_LIFT) with no external load: its joint moments would hold the
    body up by its root alone. feet: {side: link}; call it only when the trial has no
    loads, or loads (from loads_source) that never bear weight over its times. named: the
    caller's options, as the advice names them (ColumnOptions)."""
    g = np.asarray(model.gravity, dtype=float)
    if not feet or not np.linalg.norm(g) > 0 or len(t) < 3:
        return []
    up = -g / np.linalg.norm(g)
    pos, _ = model.forward_kinematics(q)
    stepping = []
    for side, link in sorted(feet.items()):
        h = pos[:, model._link_index[link]] @ up
        low = h <= np.nanmin(h) + FOOT_DOWN_BAND
        high = h >= np.nanmin(h) + FOOT_LIFT
        if low.mean() >= FEET_DOWN_FRACTION and high.mean() >= FEET_DOWN_FRACTION:
            stepping.append(link)
    if len(stepping) < len(feet):
        return []
    if loads_source is not None:
        return [f"{source}: the feet ({', '.join(stepping)}) step down to the floor and lift "
                "off it again, as in walking or running, but the loads given "
                f"({loads_source}) bear no weight over the motion's t = {t[0]:g} .. {t[-1]:g} "
                "s: the joint moments are those of a body held up by its root alone. Check "
                "that the loads belong to this motion and share its clock (time in seconds), "
                "their force unit (N, not body weights), and their contact links "
                f"({_where_linked(named, None)})"]
    return [f"{source}: the feet ({', '.join(stepping)}) step down to the floor and lift off "
            "it again, as in walking or running, but no ground reaction is given: the joint "
            "moments are those of a body held up by its root alone (the root residuals carry "
            "its weight). Give the loads: " + named.ways_to_give_loads()]


def light_loads(model, f_ext, loads_source):
    """Loads f_ext {link: (N, 6)} (world frame) whose total force never holds the body up by
    LIGHT_LOADS_FRACTION of its weight along the model's vertical. Walking and running load
    the feet with about the weight (1-1.3 times in walking, 2-3 in running), standing with
    the weight itself; a trial whose reactions never reach half of it has them in another
    unit (normalized to body weight: peaks near 1-3; kgf: a tenth), a body mass that is not
    the subject's, or supports the recording leaves out."""
    g = np.asarray(model.gravity, dtype=float)
    gn, mass = float(np.linalg.norm(g)), float(model.total_mass)
    if not (gn > 0 and mass > 0 and f_ext):
        return []
    force = sum(np.asarray(w, dtype=float)[:, :3] for w in f_ext.values())
    support = force @ (-g / gn)
    if not np.isfinite(support).any():
        return []
    peak, weight = float(np.nanmax(support)), mass * gn
    if peak >= LIGHT_LOADS_FRACTION * weight:
        return []
    return [f"{loads_source}: the loads hold the body up by {max(peak, 0.0):.3g} N at most "
            f"along its vertical, {100 * max(peak, 0.0) / weight:.0f} % of its weight "
            f"({weight:.0f} N, {mass:.1f} kg), where walking, running or standing puts about "
            "the weight or more on the ground at some point. Check their force unit (N: "
            f"reactions normalized to body weight need multiplying by {weight:.0f} N, in % of "
            f"it by {weight / 100:.4g} N, kgf by 9.81), the model's mass (the subject's? if "
            "not, scale the model to the subject), and supports the recording leaves out (a "
            "harness, handrails, a seat, plates the feet miss)"]


def ik_fit_advice(named=LIBRARY_COLUMNS):
    """What to check when a trial's markers fit poorly, in the caller's words (named:
    ColumnOptions)."""
    return (f"check the lab rotation{named.said('rotation', ' ({})', 'AXIS:DEG')}, the model's "
            "scale and marker placement, and the marker weights"
            f"{named.said('ik_setup', ' ({})')}")


def ik_fit(t, rms, worst_error, worst_marker, source, advice=None):
    """Inverse kinematics' marker errors against OpenSim's best practice for a gait trial:
    marker RMS below IK_RMS_MAX (2 cm) and the largest error below IK_MAX_MAX (4 cm) in every
    frame. t, rms, worst_error (N,), worst_marker [name] per frame; advice: what the user
    should check, in the words of the caller that ran the fit (default: a library trial's,
    ik_fit_advice())."""
    advice = ik_fit_advice() if advice is None else advice
    d = time_digits(t)
    rms = np.asarray(rms, dtype=float)
    worst_error = np.asarray(worst_error, dtype=float)
    out = []
    for what, x, limit in (("marker RMS", rms, IK_RMS_MAX),
                           ("largest marker error", worst_error, IK_MAX_MAX)):
        over = np.nan_to_num(x, nan=0.0) > limit
        if not over.any():
            continue
        k = int(np.nanargmax(x))
        who = f", {worst_marker[k]}" if what.startswith("largest") and worst_marker[k] else ""
        out.append(f"{source}: inverse kinematics: {what} above {100 * limit:.0f} cm in "
                   f"{int(over.sum())} of {len(x)} frames (up to {1e3 * x[k]:.1f} mm{who} at "
                   f"t = {t[k]:.{d}g} s; OpenSim's best practice: RMS below 2 cm, largest error "
                   f"below 2-4 cm): {advice}")
    return out


#: how far beyond its range an unclamped coordinate is said to be (rad or m): the IK
#: solver's own rounding stays far below; anything above is a pose outside the range
RANGE_TOLERANCE = 1e-6


def ik_ranges(model, t, q, source):
    """Coordinates that are not clamped and that inverse kinematics takes beyond their range:
    one message per coordinate of model (an .osim's CoordinateSet: a URDF model has none,
    and its IK holds its joint limits as clamped ranges) that q (N, nq), the fit at times t
    (N,), takes beyond its range in any frame: its name, range, the frames and how far.
    OpenSim's IK
    bounds only clamped coordinates (AssemblySolver restricts their q to the range), so it
    takes an unclamped one beyond its range as well, without a word; the user should know
    (the markers barely determine it, or the model's range or axes are wrong). Locked
    coordinates and a coupler's dependent coordinates are not fitted and not named, nor are
    those whose file wrote no <range> (``Coordinate.range_written``; their range is OpenSim's
    default, -10 10, which its printToXML leaves out): the model sets no range there to
    leave (a pelvis_tx without one on a 30 m walk). A range the file wrote is named,
    -10 10 included."""
    t = np.asarray(t, dtype=float)
    q = np.atleast_2d(np.asarray(q, dtype=float))
    skip = set(model.locked_coordinates) | {c.dependent for c in model.couplers}
    d = time_digits(t)
    out = []
    for k, name in enumerate(model.q_names):
        c = model.coordinates.get(name)
        if c is None or c.clamped or name in skip or not c.lower <= c.upper \
                or not c.range_written:
            continue
        x = q[:, k]
        excess = np.nan_to_num(np.maximum(c.lower - x, x - c.upper), nan=0.0)
        beyond = np.flatnonzero(excess > RANGE_TOLERANCE)
        if beyond.size == 0:
            continue
        w = beyond[int(np.argmax(excess[beyond]))]
        unit, f = (" deg", math.degrees) if c.motion == "rotational" else (" m", float)
        # an end the file wrote NaN is read as no bound, and said as the file wrote it
        lower, upper = ("nan" if nan else f"{f(end):.6g}"
                        for end, nan in zip((c.lower, c.upper), c.nan_ends))
        span = (f"t = {t[beyond[0]]:.{d}g} s" if beyond.size == 1
                else f"t = {t[beyond[0]]:.{d}g} .. {t[beyond[-1]]:.{d}g} s")
        out.append(f"{source}: inverse kinematics: coordinate {name!r} (not clamped) leaves "
                   f"its range [{lower}, {upper}]{unit} in {beyond.size} of "
                   f"{len(x)} frames ({span}; {f(x[w]):.6g}{unit} at t = {t[w]:.{d}g} s): "
                   "OpenSim's IK bounds only clamped coordinates, so it leaves it free too. "
                   "The markers may barely determine it, or the range does not suit this "
                   "recording (a lab origin far from the model's moves a pelvis translation "
                   "out): to hold it in its range, set <clamped>true</clamped> on it in the "
                   "model or give it an IKCoordinateTask; to accept the pose, widen the range")
    return out


#: how close to whole turns a step is said to be whole turns and a small move (rad): what is
#: left after the turns is then a step a sampled motion may take; an eighth of a turn (a
#: quarter of the half turn beyond which a step is named)
WHOLE_TURN_TOLERANCE = math.radians(45)


def steps(model, t, q, source):
    """Coordinates that turn a joint (:func:`_hinges`, and a URDF's continuous joints) and
    step by more than half a turn between two samples of q (N, nq) at t (N,). No sampled
    motion tells such a step from the shorter one the other way round, so the velocities,
    accelerations and joint moments around it are artefacts. A step of whole turns give or
    take a small move (:data:`WHOLE_TURN_TOLERANCE`) is the same pose taken round a turn
    (inverse kinematics turning a coordinate round where the markers barely hold it, or
    angles wrapped into +-180 deg by the file's writer): unwrapping the column leaves the
    small move. Any other is the pose flipping between two the data barely tell apart (or a
    wrong column)."""
    t = np.asarray(t, dtype=float)
    q = np.atleast_2d(np.asarray(q, dtype=float))
    if len(q) < 2:
        return []
    turning = _hinges(model) + [(j.name, j.q_index) for j in model.joints
                                if j.type == "continuous"]
    whole, other = [], []
    d = time_digits(t)
    for name, k in turning:
        step = np.diff(q[:, k])
        big = np.flatnonzero(np.abs(np.nan_to_num(step)) > math.pi)
        if big.size == 0:
            continue
        i = big[int(np.argmax(np.abs(step[big])))]
        said = (f"{name} by {math.degrees(step[i]):+.0f} deg between t = {t[i]:.{d}g} and "
                f"{t[i + 1]:.{d}g} s" + (f" ({big.size} such steps)" if big.size > 1 else ""))
        left = step[big] - 2 * math.pi * np.round(step[big] / (2 * math.pi))
        (whole if np.all(np.abs(left) <= WHOLE_TURN_TOLERANCE) else other).append(said)
    if not whole and not other:
        return []
    listed = whole + other
    message = (f"{source}: joint coordinates step by more than half a turn between two "
               f"samples: {'; '.join(listed[:6])}"
               + (f"; and {len(listed) - 6} more" if len(listed) > 6 else "")
               + ". No sampled motion tells such a step from the shorter one the other way "
               "round, so the velocities, accelerations and joint moments around it are "
               "artefacts.")
    if whole:
        message += (" A step of whole turns, give or take a small move, is the same pose "
                    "taken round a turn (inverse kinematics turning a coordinate round where "
                    "the markers barely hold it, or angles wrapped into +-180 deg): unwrap the "
                    "column (numpy.unwrap on its radians) before computing torques.")
    if other:
        message += (" A step of another size is the pose flipping between two that the data "
                    "barely tell apart: if the motion comes from inverse kinematics, give the "
                    "coordinate a marker that holds it, an IKCoordinateTask, or lock it; "
                    "otherwise check the column.")
    return [message]


def arc_switches(model, t, q, source):
    """ConstantCurvatureJoints whose motion q (N, nq) at t (N,) crosses one of OpenSim's
    switches between the joint's arc and a straight segment (urdf2dyn.model.arc_switches):
    the child's position jumps there, in OpenSim and in urdf2dyn alike, and differences across
    the jump are no velocity of the motion. One message per joint, at its first crossing."""
    from ..model import arc_switches as crossings
    t = np.asarray(t, dtype=float)
    q = np.atleast_2d(np.asarray(q, dtype=float))
    out = []
    for name, k, row, count, sine, jump in crossings(model, q):
        coords = ", ".join(model.q_names[k:k + 3])
        before, after = (", ".join(f"{x:g}" for x in q[r, k:k + 3]) for r in (row, row + 1))
        out.append(f"{source}: ConstantCurvatureJoint '{name}' crosses OpenSim's switch between "
                   f"its arc and a straight segment (the sine of its bend at {sine:g}) between "
                   f"t = {t[row]:g} and {t[row + 1]:g} s ({coords} = {before}, then {after} "
                   f"rad){f'; {count} crossings in all' if count > 1 else ''}: its child jumps "
                   f"{jump:.3g} m there, in OpenSim and in urdf2dyn alike, so the velocities, "
                   "accelerations and joint moments differentiated across it are artefacts; keep "
                   "the joint's bend on one side of the switch (another neutral angle, or the "
                   "coordinates kept off it), or judge the results there apart")
    return out


def unfiltered(source, named=LIBRARY_COLUMNS):
    """Coordinates fitted to markers and differentiated twice without a low-pass filter.
    named: the caller's options, as the advice names them (ColumnOptions)."""
    return [f"{source}: coordinates fitted to markers are differentiated without a low-pass "
            "filter: the markers' noise reaches the accelerations and the joint moments (tens "
            f"of % of their peaks); filter them at {MARKER_CUTOFF_HZ:g} Hz, as OpenSim users "
            f"do{named.said('filter_hz', ': {}', MARKER_CUTOFF_HZ)} (OpenSim's gait examples' "
            "lowpass_cutoff_frequency_for_coordinates; running and jumping are filtered "
            "higher, 10-15 Hz)"]


def opensim_axes(model, meta, source, named=LIBRARY_COLUMNS):
    """A URDF model with gravity along z on an OpenSim-layout motion (.mot/.sto): OpenSim's
    files are y-up (its models' gravity is (0, -9.81, 0)); say so before the numbers do.
    meta: the motion's Trajectory.meta; named: the caller's options (ColumnOptions)."""
    if (meta or {}).get("format") != "opensim":
        return []
    if model.is_opensim:
        return []                                    # an .osim model carries its own gravity
    g = np.asarray(model.gravity, dtype=float)
    if not np.linalg.norm(g) > 0 or int(np.argmax(np.abs(g))) != 2:
        return []
    return [f"{source}: an OpenSim motion file (y up in OpenSim's convention) with the URDF "
            f"model '{model.name}' whose gravity is ({_gravity_text(g)}) (z up, the URDF "
            f"default): if the recording is y-up, {_set_gravity((0, -9.81, 0), named)}; if it "
            "is z-up, ignore this"]


def weightless(model, q, source, named=LIBRARY_COLUMNS):
    """Gravity parallel to every joint axis: over the trial's configurations q (N, nq) no
    joint carries any weight (a URDF robot drawn in a vertical plane about z, run with the
    URDF default gravity along z). Right for an arm that moves in a horizontal plane, wrong
    when the model's vertical is another axis; the advice names the axis whose gravity would
    load the joints most."""
    g = np.asarray(model.gravity, dtype=float)
    gn, mass = float(np.linalg.norm(g)), float(model.total_mass)
    q = np.asarray(q, dtype=float)
    if not (gn > 0 and mass > 0 and model.nv and len(q)) or not np.isfinite(q).all():
        return []
    q = q[np.linspace(0, len(q) - 1, min(len(q), 50)).astype(int)]
    with warnings.catch_warnings():     # what q holds is said by the trial's own dynamics
        warnings.simplefilter("ignore", Urdf2dynWarning)
        loaded = np.abs(model.gravity_torques(q)).max() > 1e-9 * mass * gn
    if loaded:
        return []
    load = []
    probe = copy.copy(model)                   # the trial's model keeps its gravity
    for axis in range(3):
        probe.gravity = -gn * np.eye(3)[axis]
        load.append(np.abs(probe.gravity_torques(q)).max())
    axis = int(np.argmax(load))
    if not load[axis] > 1e-9 * mass * gn:
        return []                              # no gravity loads it: nothing to advise
    suggest = -gn * np.eye(3)[axis] + 0.0             # + 0.0: no -0 in the advice
    return [f"{source}: with the model's gravity ({_gravity_text(g)}) no joint carries any "
            f"weight: gravity is parallel to every joint axis. Right for an arm that moves in "
            f"a horizontal plane; if the model's vertical is {'xyz'[axis]}, set it: "
            f"{_set_gravity(suggest, named)}"]
