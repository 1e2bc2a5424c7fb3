"""Plausibility checks of an inverse-dynamics trial: each returns a list of messages (empty when
the data look right); the checks stage (urdf2dyn.biomech.stages.checks, one function of the
trial per check) reports them as urdf2dyn.Urdf2dynWarning (errors under ``strict``). Every
message names the file, the columns or times, and what to do.

=====================  ====================================================================
check                  warns when
=====================  ====================================================================
:func:`units`          radians expected but a revolute coordinate exceeds 2 pi (360 deg: no
                       joint turns that far; degrees are likely), or degrees declared but no
                       revolute coordinate exceeds pi in the file's numbers (radians likely)
:func:`joint_limits`   a coordinate leaves its URDF <limit> by more than LIMIT_MARGIN_RAD
                       (revolute, 20 deg) or LIMIT_MARGIN_M (prismatic, 5 cm)
:func:`residuals`      root residual force peak > 5 % of the peak ground reaction, or RMS
                       residual moment (about the CoM) > 1 % of CoM height x peak ground
                       reaction: Hicks, Uchida, Seth, Rajagopal & Delp (2015), "Is my model
                       good enough?", J. Biomech. Eng. 137:020905
:func:`cop_distance`   a centre of pressure (during contact) farther than COP_MAX_DISTANCE
                       (0.3 m) from the origin of the link it loads: a foot is ~0.26 m long and
                       its link origin (the ankle) lies above the sole, so a CoP 0.3 m away is
                       under another foot, another plate, or in the wrong frame/units
:func:`sampling`       forces sampled at a rate that is not an integer multiple of the
                       motion's (they are interpolated), or over a shorter time span
:func:`gravity`        with loads, the mean root residual force plus the model's weight
                       (the gravity the data balance) points along another axis than the
                       model's gravity, by more than half the body weight
:func:`opensim_axes`   a URDF model (z-up by convention) with gravity along z runs on an
                       OpenSim .mot/.sto motion (OpenSim's convention is y-up)
=====================  ====================================================================
"""
import math

import numpy as np

__all__ = ["units", "joint_limits", "residuals", "cop_distance", "sampling", "gravity",
           "opensim_axes", "GRAVITY_WEIGHT_FRACTION",
           "LIMIT_MARGIN_RAD", "LIMIT_MARGIN_M", "COP_MAX_DISTANCE",
           "RESIDUAL_FORCE_FRACTION", "RESIDUAL_MOMENT_FRACTION"]

LIMIT_MARGIN_RAD = math.radians(20.0)
LIMIT_MARGIN_M = 0.05
COP_MAX_DISTANCE = 0.3
RESIDUAL_FORCE_FRACTION = 0.05      # Hicks et al. 2015: peak residual force / peak external force
RESIDUAL_MOMENT_FRACTION = 0.01     # Hicks et al. 2015: RMS moment / (CoM height x peak force)
GRAVITY_WEIGHT_FRACTION = 0.5       # gravity check: off-axis weight above half the body weight


def _revolute(model):
    return [j for j in model.joints if j.type == "revolute"]


def units(model, q, degrees, source):
    """Angles that look like degrees read as radians (or radians read as degrees). q in rad
    (after any conversion); degrees: whether the file was declared in degrees."""
    joints = _revolute(model)
    if not joints or len(q) == 0:
        return []
    cols = [j.q_index for j in joints]
    x = np.abs(np.asarray(q, dtype=float)[:, cols])
    if degrees:
        raw = np.degrees(x)          # the numbers as written in the file
        if np.nanmax(raw) <= math.pi and np.nanmax(raw) > 0:
            return [f"{source}: read in degrees, but no revolute coordinate exceeds "
                    f"{np.nanmax(raw):.2f} (as written): the angles look like radians. Drop "
                    "--degrees (degrees=False) if they are"]
        return []
    peak = np.nanmax(x, axis=0)
    wild = [(j.name, p) for j, p in zip(joints, peak) if p > 2 * math.pi]
    if wild:
        names = ", ".join(f"{n} up to {p:.3g}" for n, p in wild[:6])
        more = f" and {len(wild) - 6} more" if len(wild) > 6 else ""
        return [f"{source}: revolute coordinates beyond a full turn (2 pi rad) read as radians: "
                f"{names}{more}. They look like degrees: pass --degrees (degrees=True), or "
                "inDegrees=yes in an OpenSim file"]
    return []


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


def cop_distance(model, t, q, reactions, links, source, threshold):
    """Centres of pressure far from the link they load. reactions: a Trajectory with grf/cop;
    links: {key: link}."""
    pos, _ = model.forward_kinematics(q)
    out = []
    for key, link in links.items():
        if key not in reactions.cop:
            continue
        F, P = reactions.grf[key], reactions.cop[key]
        if len(F) != len(t):
            continue
        on = np.all(np.isfinite(P), axis=1) & (np.linalg.norm(F, axis=1) > threshold)
        if not on.any():
            continue
        d = np.linalg.norm(P - pos[:, model.link_names.index(link)], axis=1)
        d[~on] = 0.0
        k = int(np.argmax(d))
        if d[k] > COP_MAX_DISTANCE:
            out.append(f"{source}: the centre of pressure of {key!r} is {d[k]:.2f} m from the "
                       f"origin of {link!r} at t = {t[k]:g} s ({int((d > COP_MAX_DISTANCE).sum())}"
                       f" samples beyond {COP_MAX_DISTANCE} m): wrong contact link (--contact), "
                       "force-plate frame or length unit (mm?)")
    return out


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


def gravity(model, t, residual_force, source):
    """The gravity the data balance, against the model's.

    With external loads (ground reactions) that carry the body, the mean root residual force
    over a trial is m (g_data - g_model): the loads hold the weight up along the data's
    vertical while the model pulls along its own. g_model + mean residual / m is the gravity
    the data imply; a component of it beyond GRAVITY_WEIGHT_FRACTION of |g| on another axis
    than the model's gravity means the wrong vertical (e.g. a y-up recording run with the
    URDF default (0, 0, -9.81)). residual_force: (N, 3) N, world axes."""
    g = np.asarray(model.gravity, dtype=float)
    mass = float(model.total_mass)
    gn = float(np.linalg.norm(g))
    F = np.asarray(residual_force, dtype=float)
    if not (gn > 0 and mass > 0 and len(F)) or not np.isfinite(F).all():
        return []
    implied = g + F.mean(axis=0) / mass
    axis = int(np.argmax(np.abs(implied)))
    model_axis = int(np.argmax(np.abs(g)))
    if axis == model_axis or abs(implied[axis]) < GRAVITY_WEIGHT_FRACTION * gn:
        return []
    suggest = np.zeros(3)
    suggest[axis] = math.copysign(gn, implied[axis])
    name = "xyz"[axis]
    mean = F.mean(axis=0)
    return [f"{source}: the root residual force averages ({', '.join(f'{x:.0f}' for x in mean)}) "
            f"N over t = {t[0]:g} .. {t[-1]:g} s: the loads hold the body up along "
            f"{'-' if implied[axis] > 0 else '+'}{name} (about its weight, {mass * gn:.0f} N) "
            f"while the model's gravity is ({_gravity_text(g)}). Set the gravity of the data's "
            f"vertical: --gravity {_gravity_text(suggest)} (model.gravity = "
            f"({', '.join(f'{x:g}' for x in suggest)}))"]


def opensim_axes(model, meta, source):
    """A URDF model with gravity along z on an OpenSim-layout motion (.mot/.sto): OpenSim's
    files are y-up (its models' gravity is (0, -9.81, 0)); say so before the numbers do.
    meta: the motion's Trajectory.meta."""
    if (meta or {}).get("format") != "opensim":
        return []
    if model.is_opensim:
        return []                                    # an .osim model carries its own gravity
    g = np.asarray(model.gravity, dtype=float)
    if not np.linalg.norm(g) > 0 or int(np.argmax(np.abs(g))) != 2:
        return []
    return [f"{source}: an OpenSim motion file (y up in OpenSim's convention) with the URDF "
            f"model '{model.name}' whose gravity is ({_gravity_text(g)}) (z up, the URDF "
            "default): if the recording is y-up, pass --gravity 0 -9.81 0 (model.gravity = "
            "(0, -9.81, 0)); if it is z-up, ignore this"]
