"""OpenSim's setup files as XML (the inverse-dynamics, inverse-kinematics and residual
reduction tools' setups, ExternalLoads, force and task sets): the tool's element and the
text of its properties, read as OpenSim reads them. File names inside them are resolved by
:func:`.windows.setup_path`."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from ...warn import missing_file
from .windows import parse_xml, setup_path

__all__ = ["read_tool", "text", "disabled", "number", "flag", "referenced_set"]

UNSET = ("", "unassigned")          # OpenSim writes Unassigned for a property left unset


def read_tool(path: str, tag: str | tuple[str, ...], error: type[Exception],
              what: str) -> ET.Element:
    """The ``<tag>`` element of the OpenSim document at path (the root itself, or a child of
    ``<OpenSimDocument>``); tag may be a tuple of the names it goes by (OpenSim 2's and 4's).

    Raises error naming the file: XML that is not well formed (or neither UTF-8 nor
    Windows-1252), a file that cannot be read, no ``<tag>`` element (``what`` names the kind of
    setup file expected)."""
    tags = (tag,) if isinstance(tag, str) else tuple(tag)
    try:
        root = parse_xml(path)
    except (ET.ParseError, ValueError) as e:
        raise error(f"{path}: not well-formed XML ({e})") from None
    except FileNotFoundError:
        raise error(f"{missing_file(path)} (the OpenSim {what} file)") from None
    except OSError as e:
        raise error(f"{path}: cannot be read ({e.strerror})") from None
    tool = root if root.tag in tags else next((c for c in root if c.tag in tags), None)
    if tool is None:
        held = [c.tag for c in root][:5]
        raise error(f"{path}: no <{tags[0]}> element (the root <{root.tag}> holds {held}): is "
                    f"this an OpenSim {what} file?")
    return tool


def referenced_set(elem: ET.Element | None, tag: str, where: str, strict: bool,
                   error: type[Exception]) -> tuple[ET.Element | None, str]:
    """(the ``<tag>`` set under elem, or the one its ``file=`` attribute names, None if
    absent; the file it was read from). OpenSim reads ``<IKTaskSet file="tasks.xml"/>`` (any
    set's file=) from that file, relative to the setup file's folder; raises error naming the
    setup, the element and the file that cannot be read or holds no ``<tag>``."""
    child = elem.find(tag) if elem is not None else None
    named = child.get("file") if child is not None else None
    if child is None or not named:
        return child, where
    path = setup_path(named, where, tag, strict=strict, error=error)
    try:
        root = parse_xml(path)
    except OSError as e:
        raise error(f"{where}: <{tag} file=\"{named}\">: {path} cannot "
                    f"be read ({e.strerror}); give the file's path relative to {where}'s "
                    "folder") from None
    except ValueError as e:
        raise error(f"{path}: not well-formed XML ({e})") from None
    found = root if root.tag == tag else root.find(tag)
    if found is None:
        raise error(f"{path}: no <{tag}> element (named by <{tag} file=...> in {where})")
    return found, path


def text(elem: ET.Element, tag: str) -> str | None:
    """The stripped text of elem's child ``<tag>``; None when it is absent, empty or
    ``Unassigned``."""
    child = elem.find(tag)
    if child is None or child.text is None:
        return None
    value = child.text.strip()
    return None if value.lower() in UNSET else value


def disabled(elem: ET.Element) -> bool:
    """Whether an OpenSim force element is switched off: OpenSim 3 writes
    ``<isDisabled>true</isDisabled>``, OpenSim 4 ``<appliesForce>false</appliesForce>``."""
    off = (text(elem, "isDisabled") or "false").lower() == "true"
    on = (text(elem, "appliesForce") or "true").lower() == "true"
    return off or not on


def number(value: str, where: str, error: type[Exception]) -> float:
    """A number as OpenSim writes one (``Infinity``, ``-Infinity`` included); error naming
    ``where`` for anything else, NaN included."""
    try:
        x = float(value.replace("Infinity", "inf").replace("infinity", "inf"))
    except ValueError:
        raise error(f"{where}: {value!r} is not a number") from None
    if math.isnan(x):
        raise error(f"{where}: NaN is not allowed")
    return x


def flag(value: str, where: str, error: type[Exception]) -> bool:
    """true / false (or 1 / 0, any case), as OpenSim reads a bool property."""
    t = value.strip().lower()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    raise error(f"{where}: {value!r} is not true or false")
