"""OpenSim's setup files as XML (the inverse-dynamics and inverse-kinematics tools' setups,
ExternalLoads): the tool's element and the text of its properties, read as OpenSim reads them.
File names inside them are resolved by :func:`.windows.setup_path`."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from .windows import parse_xml

__all__ = ["read_tool", "text", "number", "flag"]

UNSET = ("", "unassigned")          # OpenSim writes Unassigned for a property left unset


def read_tool(path: str, tag: str, error: type[Exception], what: str) -> ET.Element:
    """The ``<tag>`` element of the OpenSim document at path (the root itself, or a child of
    ``<OpenSimDocument>``).

    Raises error naming the file: XML that is not well formed (or neither UTF-8 nor
    Windows-1252), a file that cannot be read, no ``<tag>`` element (``what`` names the kind of
    setup file expected)."""
    try:
        root = parse_xml(path)
    except (ET.ParseError, ValueError) as e:
        raise error(f"{path}: not well-formed XML ({e})") from None
    except OSError as e:
        raise error(f"{path}: cannot be read ({e.strerror})") from None
    tool = root if root.tag == tag else root.find(tag)
    if tool is None:
        held = [c.tag for c in root][:5]
        raise error(f"{path}: no <{tag}> element (the root <{root.tag}> holds {held}): is this "
                    f"an OpenSim {what} file?")
    return tool


def text(elem: ET.Element, tag: str) -> str | None:
    """The stripped text of elem's child ``<tag>``; None when it is absent, empty or
    ``Unassigned``."""
    child = elem.find(tag)
    if child is None or child.text is None:
        return None
    value = child.text.strip()
    return None if value.lower() in UNSET else value


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
    t = value.lower()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    raise error(f"{where}: {value!r} is not true or false")
