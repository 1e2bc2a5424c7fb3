"""``urdf2dyn.check``: everything worth knowing about a URDF before trusting its dynamics.

Three kinds of findings, each with the line of the file it is about:

- ``error``: the file cannot be loaded: the URDFError's message and, for a URDF, every other
  link or joint the core's reader refuses past it (``_core.urdf_check``);
- ``warning``: what :func:`urdf2dyn.load` reads as written but warns about (non-physical
  inertias, a mimic of a missing joint, a missing ``<limit>``, unknown elements and
  attributes, markup that is not XML);
- ``advice``: a valid file whose numbers will hurt: a movable joint that moves no inertia
  (forward dynamics undefined), a mass or inertia tiny against its neighbours' (an
  ill-conditioned mass matrix, often a unit slip), limits with lower > upper, zero or negative
  effort or velocity limits.
"""
import os
import re
import warnings
from dataclasses import dataclass

from ._core import URDFError, urdf_check
from ._input_bytes import read_input
from ._safe_files import note_input
from .convert import NO_LIMIT
from .model import Model, _decode, _about_the_file
from .warn import URDFWarning

__all__ = ["Finding", "check"]

#: Who reads a zero effort or velocity limit as no limit (MuJoCo ignores velocity limits)
_ZERO_AS_NONE = {"effort": "MuJoCo's URDF import", "velocity": "MoveIt"}

#: A mass below this fraction of a neighbouring link's is reported (grams written as kg...).
TINY_MASS = 1e-3
#: A rotational inertia (trace about the centre of mass) below this fraction of a neighbour's.
TINY_INERTIA = 1e-6


@dataclass(frozen=True)
class Finding:
    """One finding of :func:`check`: ``kind`` is "error", "warning" or "advice"; ``line`` the
    1-based line of the file it is about (0 when unknown); ``message`` names the link or joint
    and says what to do."""
    kind: str
    line: int
    message: str

    def __str__(self):
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.kind}: {self.message}"


def check(urdf, floating_base=False):
    """Every finding about a URDF (a path or the XML text), sorted by line.

    Parameters
    ----------
    urdf : str or os.PathLike
        Path of the URDF file, or its XML text.
    floating_base : bool
        Check the model as loaded with a floating base (a massless root then matters).

    Returns
    -------
    list of Finding
        Errors (the file does not load: for a URDF every link and joint refused, the tree
        checked only when every joint reads; then no advice, which needs the loaded model), the
        load warnings, and advice on the model's numbers.
    """
    source = None
    if isinstance(urdf, (str, os.PathLike)) and not str(urdf).lstrip().startswith("<"):
        source = os.fspath(urdf)
        note_input(urdf, "model")
        data = read_input(urdf, "model")
        try:
            text = _decode(data, os.fspath(urdf))
        except URDFError as e:          # the CLI names the file: the message need not
            return [Finding("error", 0, str(e).removeprefix(f"{os.fspath(urdf)}: "))]
    else:
        text = urdf
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", URDFWarning)
            # the source, so that an MJCF's includes and meshes are read beside the file
            model = Model(text, floating_base, source=source)
    except URDFError as e:
        found = _errors(text, getattr(e, "core_message", str(e)))
        if source is None:
            return found
        return [Finding(f.kind, f.line, _about_the_file(f.message, source))
                if f.kind == "error" else f for f in found]
    found = [Finding("warning", line, msg) for line, msg in model.findings]
    links, joints = model._c.document()
    found += _joint_advice(model, links, joints) + _link_advice(model, links)
    return sorted(found, key=lambda f: f.line)


def _errors(text, message):
    """A file that does not load: the error load raised and, for a URDF, the other errors
    and the warnings of the core's reader going on past each refused link or joint."""
    try:
        errors, warned = urdf_check(text) if isinstance(text, str) else ([], [])
    except (URDFError, MemoryError):
        errors, warned = [], []
    if not errors or _line_message(*errors[0]) != message:    # not a URDF's (.osim, MJCF..)
        at = re.match(r"line (\d+): ", message)
        return [Finding("error", int(at.group(1)) if at else 0, message[at.end() if at else 0:])]
    found = ([Finding("error", line, msg) for line, msg in errors] +
             [Finding("warning", line, msg) for line, msg in warned])
    return sorted(found, key=lambda f: f.line)


def _line_message(line, message):
    """The core's URDFError message for an error at line (0: none)."""
    return f"line {line}: {message}" if line else message


def _joint_advice(model, links, joints):
    out = []
    line_of = {name: line for name, line, *_ in joints}
    mass_of = {name: (m or 0.0) for name, _, m, _, _ in links}
    children = {}
    for name, _, _, parent, child, _ in joints:
        children.setdefault(parent, []).append(child)

    def subtree_mass(link):
        total, stack = 0.0, [link]
        while stack:
            ln = stack.pop()
            total += mass_of[ln]
            stack += children.get(ln, [])
        return total

    for name, line, kind, _, child, limit in joints:
        if kind in ("revolute", "prismatic") and limit is not None:
            lower, upper, effort, velocity = limit
            if lower > upper:
                out.append(Finding("advice", line, f"joint '{name}': <limit lower=\"{lower:g}\" "
                                   f"upper=\"{upper:g}\">: lower > upper, so no position is "
                                   "allowed; swap them"))
        if kind != "fixed" and limit is not None and model._c.mjcf() is None:
            # (an MJCF joint's range has no effort or velocity: its actuators have forces)
            for what, value in (("effort", limit[2]), ("velocity", limit[3])):
                if value == 0:
                    out.append(Finding("advice", line, f"joint '{name}': <limit {what}=\"0\">: "
                                       "a controller that honours the limit (ros_control's "
                                       "joint_limits_interface) will never move this joint, "
                                       f"while {_ZERO_AS_NONE[what]} reads 0 as no limit and "
                                       f"Pinocchio keeps 0; give the real {what} limit, or "
                                       f"{NO_LIMIT!r} for none (the largest number URDF "
                                       "readers take: urdfdom refuses 'inf')"))
                elif value < 0:
                    # a bound on |effort| or |velocity|: Pinocchio refuses the file
                    out.append(Finding("advice", line, f"joint '{name}': <limit {what}="
                                       f"\"{value:g}\">: a limit on the {what}'s magnitude "
                                       "cannot be negative (Pinocchio refuses the file, a "
                                       "controller may never move the joint); give it as "
                                       f"{-value:g}"))
    # A joint that moves no inertia: M has a zero row, forward dynamics is undefined.
    for j in model._inertialess_joints():
        line = line_of.get(j.name, 0)
        if subtree_mass(j.child) == 0.0:
            why = (f"link '{j.child}' and everything beyond it are massless (no <inertial>, or "
                   "mass 0)")
            fix = f"give link '{j.child}' its <inertial>, or make the joint fixed"
        else:
            why = "the mass beyond it lies on its axis, so it moves no inertia"
            fix = "check the <inertial> of the links beyond it"
        out.append(Finding("advice", line, f"joint '{j.name}': {why}: the mass matrix is "
                           f"singular and forward dynamics (ABA, simulate) is undefined; {fix}"))
    return out


def _link_advice(model, links):
    """Bodies (a movable joint's child link and every link welded to it) much lighter than a
    body they are jointed to: light links welded to a heavy one (sensor frames) do no harm."""
    out = []
    line_of = {name: line for name, line, *_ in links}
    mass, trace = {}, {}
    link_body = dict(model._c.links())
    for name, _, m, _, icom in links:
        b = link_body[name]
        mass[b] = mass.get(b, 0.0) + (m or 0.0)
        trace[b] = trace.get(b, 0.0) + (icom[0] + icom[4] + icom[8] if m else 0.0)
    body_link = {link_body[j.child]: j.child for j in model.joints}
    neighbours = {b: [] for b in body_link}
    for j in model.joints:
        if j.parent is None or link_body[j.parent] == 0:
            continue
        a, b = link_body[j.parent], link_body[j.child]
        neighbours[a].append(b)
        neighbours[b].append(a)
    for b, link in body_link.items():
        if not mass[b] or not neighbours[b]:
            continue
        big, who = max((mass[n], n) for n in neighbours[b])
        if mass[b] < TINY_MASS * big:
            out.append(Finding("advice", line_of[link], f"link '{link}': mass {mass[b]:g} kg "
                               f"is tiny against its neighbour '{body_link[who]}' ({big:g} kg): "
                               "the mass matrix is ill-conditioned and forward dynamics loses "
                               "accuracy; check the units (grams written as kg?)"))
            continue
        big, who = max((trace[n], n) for n in neighbours[b])
        if 0 < trace[b] < TINY_INERTIA * big:
            out.append(Finding("advice", line_of[link], f"link '{link}': rotational inertia "
                               f"(trace {trace[b]:g} kg m²) is tiny against its neighbour "
                               f"'{body_link[who]}' ({big:g} kg m²): check the units (kg mm² "
                               "written as kg m²?)"))
    return out
