"""A trial you can watch: the model as a 3-D stick figure moving through the motion, with the
measured markers and the ground-reaction arrows at the centres of pressure.

Each movable joint of the body is drawn as a segment from its parent link's origin to its child
link's origin (forward kinematics of every frame, computed once); the joints that put the body
in the world (a floating root, the 6-DoF root chain of an OpenSim pelvis or of the human model)
are not drawn. Markers are dots; each load an arrow from its centre of pressure, scaled by
``force_scale`` (m per N). The view is upright in the model's world: up is against gravity
(y for OpenSim models, z for URDFs). Needs matplotlib::

    from urdf2dyn.biomech.animate import animate
    anim = animate(model, t, q, markers=rec.markers, plates=rec.plates, path="trial.gif")
"""
from __future__ import annotations

import os

import numpy as np

from .._figures import new_figure
from .._safe_files import refuse_input, replacing

__all__ = ["animate", "animate_trial", "check_path", "stick_segments", "model_marker_positions",
           "upright"]


def stick_segments(model, q):
    """(N, S, 2, 3) segment end points of the stick figure (one per movable joint of the body:
    parent link origin, child link origin), world frame, m. The root's joints (the floating
    root, or the 6-DoF root chain from the world to the root body, urdf2dyn.biomech.grf.
    root_chain) place the body and are not part of it: they are not drawn."""
    from .grf import root_chain
    pos, _ = model.forward_kinematics(np.asarray(q, dtype=float))
    pos = pos.reshape(-1, len(model.link_names), 3)
    index = {x: k for k, x in enumerate(model.link_names)}
    try:
        root = {j.name for j in root_chain(model)[0]}
    except ValueError:                          # a fixed base: every joint is the robot's
        root = set()
    pairs = [(index[j.parent], index[j.child]) for j in model.joints
             if j.parent is not None and j.parent in index and j.child in index
             and j.name not in root]
    if not pairs:
        raise ValueError(f"model '{model.name}' has no joint between two links to draw")
    a, b = np.array(pairs).T
    return np.stack([pos[:, a], pos[:, b]], axis=2)


def upright(gravity):
    """(R (3, 3), axis labels): the rotation from world to display coordinates that makes
    display z point up, against gravity; each label names the world axis along a display
    axis ("y (m)", "-x (m)") when gravity is along one, else "x'" .. "z' (up)". Zero gravity
    keeps the world as it is."""
    g = np.asarray(gravity, dtype=float)
    names = ("x", "y", "z")
    if not np.any(g):
        return np.eye(3), [f"{n} (m)" for n in names]
    # scaled before its length is taken: the length of (0, 0, 1e-300) rounds to 0 and that
    # of (1e200, 0, 0) overflows, yet each has a direction
    up = -g / np.abs(g).max()
    up /= np.linalg.norm(up)
    k = int(np.argmax(np.abs(up)))
    if abs(abs(up[k]) - 1.0) < 1e-12:
        # axis-aligned: a cyclic permutation puts the up axis last, a half turn about the
        # display x axis when up is the axis' negative direction
        rows = np.eye(3)[[(k + 1) % 3, (k + 2) % 3, k]]
        if up[k] < 0:
            rows[1:] *= -1.0
        labels = []
        for r in rows:
            a = int(np.argmax(np.abs(r)))
            labels.append(f"{'-' if r[a] < 0 else ''}{names[a]} (m)")
        return rows, labels
    z = up
    x = np.cross([0.0, 1.0, 0.0] if abs(z[1]) < 0.9 else [1.0, 0.0, 0.0], z)
    x /= np.linalg.norm(x)
    return np.array([x, np.cross(z, x), z]), ["x' (m)", "y' (m)", "z' (m), up"]


def model_marker_positions(model, q, names=None):
    """(N, k, 3) world positions of the model's markers (``model.markers``; those named, in
    that order) at the configurations q (N, nq), m."""
    marks = list(model.markers)
    if names is not None:
        by = {m.name: m for m in marks}
        marks = [by[n] for n in names if n in by]
    pos, rot = model.forward_kinematics(np.atleast_2d(np.asarray(q, dtype=float)))
    idx = [model.link_names.index(m.link) for m in marks]
    local = np.array([m.position for m in marks], dtype=float).reshape(len(marks), 3)
    return pos[:, idx] + np.einsum("nkij,kj->nki", rot[:, idx], local)


def animate_trial(model, result, path=None, every=1, fps=None, force_scale=1e-3, title=None):
    """Watch a trial: the stick figure at the coordinates used, the measured markers (red)
    against the model's markers placed by inverse kinematics (orange), and each foot's ground
    reaction as an arrow from its centre of pressure (green).

    Parameters
    ----------
    model : urdf2dyn.Model
    result : urdf2dyn.TrialResult
        From inverse_dynamics_trial (a C3D/.trc trial has measured markers; any trial with
        ground reactions has arrows).
    path : str or os.PathLike, optional
        .gif or .mp4 to write.
    every, fps, force_scale, title
        As in :func:`animate`.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        ``anim.to_jshtml()`` (or IPython.display.HTML of it) shows it in a notebook.
    """
    names = list(result.ik.marker_names) if getattr(result, "ik", None) is not None else None
    fitted = model_marker_positions(model, result.q, names) if names else None
    loads = _reaction_arrows(result)
    return animate(model, result.t, result.q, markers=getattr(result, "markers", None),
                   plates=loads, path=path, fps=fps, every=every, force_scale=force_scale,
                   title=title or os.path.basename(str(result.path)), model_markers=fitted)


def _reaction_arrows(result):
    """The ground reactions per foot as arrow sources (time, cop, force, contact)."""
    from types import SimpleNamespace
    r = getattr(result, "reactions", None)
    if r is None or not getattr(r, "grf", None):
        return None
    out = []
    for key in sorted(r.grf):
        cop = np.asarray(r.cop[key], dtype=float)
        out.append(SimpleNamespace(time=np.asarray(r.time, dtype=float),
                                   force=np.asarray(r.grf[key], dtype=float), cop=cop,
                                   contact=np.all(np.isfinite(cop), axis=1)))
    return out


def animate(model, time, q, markers=None, plates=None, path=None, fps=None, every=1,
            force_scale=1e-3, title=None, model_markers=None):
    """Animate a trial; save it as .gif (Pillow) or .mp4 (ffmpeg) when path is given.

    Parameters
    ----------
    model : urdf2dyn.Model
    time : array_like, shape (N,)
        s.
    q : array_like, shape (N, nq)
    markers : urdf2dyn.biomech.Markers, optional
        Drawn as dots at the frame nearest in time.
    plates : list of Plate, optional
        Each contact's force drawn as an arrow from its centre of pressure.
    path : str or os.PathLike, optional
        .gif or .mp4 to write.
    fps : float, optional
        Frames per second of the file (default: the trial's rate / every).
    every : int
        Draw every k-th sample.
    force_scale : float
        Arrow length per newton (m/N).
    model_markers : array_like, shape (N, k, 3), optional
        The model's markers at each sample (e.g. :func:`model_marker_positions`), drawn as
        orange dots beside the measured (red) ones.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        ``anim.to_jshtml()`` shows it in a notebook. With a path its figure is not
        pyplot's (nothing is left open); without one it is, for ``plt.show()``.
    """
    if path is not None:
        check_path(path)            # before the figure: a failure then leaves nothing behind
    from matplotlib import animation
    time = np.asarray(time, dtype=float).reshape(-1)
    R, labels = upright(model.gravity)

    def show(x):                                # world -> display coordinates (z up)
        return np.asarray(x, dtype=float) @ R.T
    seg = show(stick_segments(model, q))
    if len(seg) != len(time):
        raise ValueError(f"q: {len(seg)} samples for {len(time)} times")
    frames = np.arange(0, len(time), max(1, int(every)))
    measured = show(markers.xyz) if markers is not None else None
    pts = [seg.reshape(-1, 3)]
    if measured is not None:
        pts.append(measured.reshape(-1, 3))
    allp = np.concatenate(pts)
    allp = allp[np.all(np.isfinite(allp), axis=1)]
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    centre, half = (lo + hi) / 2, max(float(np.max(hi - lo)) / 2, 0.1)
    fig = new_figure((6, 6), on_screen=path is None)
    ax = fig.add_subplot(projection="3d")
    for set_lim, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre):
        set_lim(c - half, c + half)
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.set_zlabel(labels[2])
    lines = [ax.plot([], [], [], "-o", color="C0", lw=2, ms=3)[0] for _ in range(seg.shape[1])]
    dots = ax.plot([], [], [], ".", color="C3", ms=4)[0] if markers is not None else None
    fitted = None if model_markers is None else show(model_markers)
    fit_dots = ax.plot([], [], [], ".", color="C1", ms=4)[0] if fitted is not None else None
    arrows = [ax.plot([], [], [], "-", color="C2", lw=2)[0] for _ in (plates or [])]
    label = ax.set_title("")

    def draw(i):
        for line, s in zip(lines, seg[i]):
            line.set_data_3d(s[:, 0], s[:, 1], s[:, 2])
        if dots is not None:
            k = int(np.argmin(np.abs(markers.time - time[i])))
            x = measured[k]
            dots.set_data_3d(x[:, 0], x[:, 1], x[:, 2])
        for arrow, p in zip(arrows, plates or []):
            k = int(np.argmin(np.abs(p.time - time[i])))
            if p.contact[k]:
                a = show(p.cop[k])
                b = a + force_scale * show(p.force[k])
                arrow.set_data_3d([a[0], b[0]], [a[1], b[1]], [a[2], b[2]])
            else:
                arrow.set_data_3d([], [], [])
        if fit_dots is not None:
            x = fitted[i]
            fit_dots.set_data_3d(x[:, 0], x[:, 1], x[:, 2])
        label.set_text(f"{title + '  ' if title else ''}t = {time[i]:.3f} s")
        return (lines + arrows + ([dots] if dots is not None else [])
                + ([fit_dots] if fit_dots is not None else []) + [label])

    anim = animation.FuncAnimation(fig, draw, frames=frames, blit=False)
    if path is not None:
        _save(anim, os.fspath(path), time, every, fps, animation)
    return anim


def check_path(path):
    """Before any work: ValueError unless path ends in .gif or .mp4, or when it names a file
    the guarded work reads; ImportError when what writes it is missing (matplotlib; ffmpeg
    for .mp4)."""
    path = os.fspath(path)
    # refused here rather than at the save, after the animation is made: matplotlib warns
    # about an animation deleted unsaved, a second, puzzling word after the refusal
    refuse_input(path)
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".gif", ".mp4"):
        raise ValueError(f"{path}: expected a .gif or .mp4 file")
    try:
        from matplotlib import animation
    except ImportError:
        raise ImportError("animate needs matplotlib: pip install \"urdf2dyn[plot]\"") from None
    if ext == ".mp4" and not animation.writers.is_available("ffmpeg"):
        raise ImportError(f"{path}: writing .mp4 needs ffmpeg, which is not installed (or "
                          "not on the PATH): install ffmpeg, or write a .gif")


def _save(anim, path, time, every, fps, animation):
    ext = os.path.splitext(path)[1].lower()
    rate = (len(time) - 1) / (time[-1] - time[0]) if len(time) > 1 else 10.0
    fps = fps or max(1.0, rate / max(1, int(every)))
    writer = animation.PillowWriter if ext == ".gif" else animation.FFMpegWriter
    # through a file beside path, renamed into place: matplotlib's writers open path itself
    # and would follow a link to a file the animation was made from
    with replacing(path) as tmp:
        anim.save(tmp, writer=writer(fps=fps))
