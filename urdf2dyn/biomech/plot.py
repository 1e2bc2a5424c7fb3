"""Figures (matplotlib, drawn off-screen: no display or pyplot state needed).

    from urdf2dyn.biomech.plot import plot_sagittal_moments
    plot_sagittal_moments(t, tau, model, "torques.png", grf_y={"L": fy_l, "R": fy_r})

matplotlib is an optional dependency (``pip install "urdf2dyn[plot]"``).
"""
import numpy as np

from . import gait

__all__ = ["plot_generalized_forces", "plot_sagittal_moments", "sagittal_figure",
           "plot_joint_heights", "plot_torques", "angular_momentum_figure",
           "plot_angular_momentum"]

_COLORS = {"R": "tab:red", "L": "tab:blue"}
_STYLES = {"R": "-", "L": "--"}


def _save(fig, path, **options):
    """fig.savefig through a temporary file beside path (urdf2dyn._safe_files.replacing)."""
    from .._safe_files import replacing
    with replacing(path) as tmp:
        fig.savefig(tmp, **options)


def _figure(nrows, ncols=1, size=(7.0, 8.0)):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("plotting needs matplotlib: pip install matplotlib "
                          "(or pip install \"urdf2dyn[plot]\")") from None
    fig = Figure(figsize=size, layout="constrained")
    axes = fig.subplots(nrows, ncols, sharex=True, squeeze=False)
    return fig, axes[:, 0] if ncols == 1 else axes


def sagittal_figure(t, tau, model, grf_y=None, mass=None, title=None,
                    threshold=gait.CONTACT_THRESHOLD):
    """A Figure of hip, knee and ankle sagittal moments (extension / plantarflexion positive,
    N·m/kg, as gait reports give them) of a model that names them: urdf2dyn's human model, or
    an OpenSim gait model's hip_flexion, knee_angle and ankle_angle (urdf2dyn.biomech.gait).

    With vertical ground reactions grf_y = {"L": (N,), "R": (N,)} each leg is drawn over its
    own gait cycle (0 % = that foot's strike, 100 % = its next strike): every cycle thin, their
    mean thick, the mean stance phase shaded; a fourth panel shows the vertical force in body
    weights. Without them the moments are drawn over time."""
    mass = float(model.total_mass if mass is None else mass)
    m = gait.sagittal_moments(model, tau, mass)
    t = np.asarray(t, dtype=float)
    strikes = {}
    if grf_y:
        strikes = {s: gait.foot_strikes(t, grf_y[s], threshold) for s in "LR" if s in grf_y}
    by_cycle = bool(strikes) and all(len(v) >= 2 for v in strikes.values())
    rows = 4 if (grf_y and by_cycle) else 3
    fig, axes = _figure(rows)
    for ax, (joint, _, _, pos_name, neg_name) in zip(axes, gait.SAGITTAL):
        for side in "RL":                 # left (dashed) drawn over right
            y = m[f"{joint}_{side}"]
            label = {"L": "left", "R": "right"}[side]
            if by_cycle and side in strikes:
                pct, cyc = gait.cycle_average(t, y, strikes[side])
                for c in cyc:
                    ax.plot(pct, c, color=_COLORS[side], lw=0.5, alpha=0.35)
                ax.plot(pct, cyc.mean(axis=0), color=_COLORS[side], lw=2.0,
                        ls=_STYLES[side], label=f"{label} ({len(cyc)} cycles)")
            elif not by_cycle:
                ax.plot(t, y, color=_COLORS[side], lw=1.2, ls=_STYLES[side], label=label)
        ax.axhline(0.0, color="0.5", lw=0.6)
        ax.set_ylabel(f"{joint}\n{pos_name} (+) / {neg_name} (-)\nN·m/kg", fontsize=8)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="upper right")
    if rows == 4:
        ax = axes[3]
        weight = mass * 9.81
        for side in "RL":
            if side in strikes:
                pct, cyc = gait.cycle_average(t, np.nan_to_num(grf_y[side]) / weight,
                                              strikes[side])
                ax.plot(pct, cyc.mean(axis=0), color=_COLORS[side], lw=2.0, ls=_STYLES[side])
        ax.set_ylabel("vertical GRF\nbody weights", fontsize=8)
        ax.grid(alpha=0.3)
        # shade the mean stance of the right foot (of the left when there is no right)
        side = "R" if "R" in strikes else "L"
        pct, cyc = gait.cycle_average(t, np.nan_to_num(grf_y[side]), strikes[side])
        off = np.flatnonzero(cyc.mean(axis=0) <= threshold)
        if len(off) and off[0] > 0:                  # stance: from the strike to the first
            for a in axes:                           # sample below the threshold
                a.axvspan(0, pct[off[0]], color="0.9", zorder=0, lw=0)
        axes[-1].set_xlabel("gait cycle (%), from each foot's strike; shaded: stance")
    else:
        axes[-1].set_xlabel("gait cycle (%)" if by_cycle else "time (s)")
    fig.suptitle(title or f"{model.name}: sagittal joint moments", fontsize=10)
    return fig


def plot_sagittal_moments(t, tau, model, path, grf_y=None, mass=None, title=None, dpi=120):
    """Write sagittal_figure(...) to path (PNG, SVG or PDF by extension); returns path."""
    fig = sagittal_figure(t, tau, model, grf_y=grf_y, mass=mass, title=title)
    _save(fig, path, dpi=dpi)
    return path


def plot_joint_heights(t, q, model, joints=("rLLJX", "rULJX", "rLNJX"), path=None, title=None):
    """Vertical (y) position over time of the origins of the given joints (as the thesis'
    figures 4.2-4.4 show LLJ, ULJ and LNJ); returns the Figure (written to path if given)."""
    names = [j.name for j in model.joints]
    pos = model.joint_positions(q)
    fig, axes = _figure(len(joints), size=(7.0, 2.2 * len(joints)))
    for ax, name in zip(axes, joints):
        ax.plot(t, pos[:, names.index(name), 1], lw=1.2)
        ax.set_ylabel(f"{name}\ny (m)", fontsize=8)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    fig.suptitle(title or "joint heights", fontsize=10)
    if path is not None:
        _save(fig, path, dpi=120)
    return fig


def plot_torques(t, tau, names, path=None, title=None, max_panels=12, units=None):
    """Every DoF's generalized force over time, one panel each (at most max_panels: the DoF
    with the largest peaks), its unit on its axis when units (one per name, e.g.
    formats.torque_units) are given; returns the Figure (written to path if given)."""
    tau = np.asarray(tau, dtype=float)
    keep = np.argsort(-np.nanmax(np.abs(tau), axis=0))[:max_panels]
    keep = np.sort(keep)
    fig, axes = _figure(len(keep), size=(7.0, 1.4 * len(keep) + 1.0))
    for ax, k in zip(axes, keep):
        ax.plot(t, tau[:, k], lw=1.0)
        ax.set_ylabel(names[k] + (f"\n{units[k]}" if units is not None else ""), fontsize=8)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    fig.suptitle(title or ("generalized forces" if units is not None
                           else "generalized forces (N·m or N)"), fontsize=10)
    if path is not None:
        _save(fig, path, dpi=120)
    return fig


def plot_generalized_forces(t, tau, model, path=None, f_ext=None, mass=None, per_kg=False,
                            title=None):
    """The figure of a trial's inverse dynamics, as ``urdf2dyn torques --plot`` draws it: the
    legs' sagittal moments when the model names them (sagittal_figure, N·m/kg, over each gait
    cycle when f_ext {link: (N, 6)} gives the feet's loads, urdf2dyn.biomech.gait.
    vertical_reactions), else every coordinate's generalized force but the 6-DoF root's
    (its residuals; plot_torques), each with its unit, divided by mass when per_kg.
    Returns the Figure (written to path if given)."""
    from .formats.torques import torque_units
    from .grf import root_chain
    mass = float(model.total_mass if mass is None else mass)
    if gait.has_sagittal(model):
        reactions = gait.vertical_reactions(model, f_ext)
        fig = sagittal_figure(t, tau, model, grf_y=reactions or None, mass=mass, title=title)
    else:
        tau = np.asarray(tau, dtype=float) / (mass if per_kg else 1.0)
        units = torque_units(model, per_kg)
        try:
            root = {n for j in root_chain(model)[0]
                    for n in model.v_names[j.v_index:j.v_index + j.nv]}
        except ValueError:
            root = set()
        cols = [k for k, n in enumerate(model.v_names) if n not in root] or \
            list(range(model.nv))
        fig = plot_torques(t, tau[:, cols], [model.v_names[k] for k in cols], title=title,
                           units=[units[k] for k in cols])
    if path is not None:
        _save(fig, path, dpi=120)
    return fig


# HuMoD's world axes: x forward, y up, z to the right (see urdf2dyn.human)
HUMAN_AXES = ("about x (forward): frontal", "about y (vertical): transverse",
              "about z (right): sagittal")


def angular_momentum_figure(t, L, grf_y=None, axes_names=HUMAN_AXES, title=None,
                            threshold=gait.CONTACT_THRESHOLD):
    """A Figure of the whole-body angular momentum L (N, 3) about the centre of mass, e.g.
    urdf2dyn.normalized_angular_momentum(...), one panel per world axis.

    With vertical ground reactions grf_y = {"R": (N,), ...} giving two strikes or more, it is
    drawn over the right foot's gait cycle (the left's without a right): each cycle thin,
    their mean thick, as Herr & Popovic (2008, Fig. 3); else over time."""
    t = np.asarray(t, dtype=float)
    L = np.asarray(L, dtype=float)
    strikes = []
    if grf_y:
        side = "R" if "R" in grf_y else next(iter(grf_y))
        strikes = gait.foot_strikes(t, grf_y[side], threshold)
    fig, axes = _figure(3, size=(7.0, 6.5))
    for k, ax in enumerate(axes):
        if len(strikes) >= 2:
            pct, cyc = gait.cycle_average(t, L[:, k], strikes)
            for c in cyc:
                ax.plot(pct, c, color="tab:gray", lw=0.5, alpha=0.5)
            ax.plot(pct, cyc.mean(axis=0), color="k", lw=2.0,
                    label=f"mean of {len(cyc)} cycles" if k == 0 else None)
        else:
            ax.plot(t, L[:, k], color="k", lw=1.2)
        ax.axhline(0.0, color="0.5", lw=0.6)
        ax.set_ylabel(axes_names[k], fontsize=8)
        ax.grid(alpha=0.3)
    if len(strikes) >= 2:
        axes[0].legend(fontsize=8, loc="upper right")
        axes[-1].set_xlabel("gait cycle (%), from the foot strike")
    else:
        axes[-1].set_xlabel("time (s)")
    fig.suptitle(title or "whole-body angular momentum about the centre of mass", fontsize=10)
    return fig


def plot_angular_momentum(t, L, path, grf_y=None, title=None, dpi=120):
    """Write angular_momentum_figure(...) to path (PNG, SVG or PDF by extension); returns
    path."""
    fig = angular_momentum_figure(t, L, grf_y=grf_y, title=title)
    _save(fig, path, dpi=dpi)
    return path
