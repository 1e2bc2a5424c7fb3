"""OpenSim's setup files as XML (the inverse-dynamics, inverse-kinematics and residual
reduction tools' setups, ExternalLoads, force and task sets): the tool's element and the
text of its properties, read as OpenSim reads them. File names inside them are resolved by
:func:`.windows.setup_path`."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from ..._input_bytes import InputFileError
from ..._safe_files import note_input
from ...warn import missing_file
from .windows import parse_xml, setup_path, source_line

__all__ = ["read_tool", "read_document", "read_data_element", "read_setup_element",
           "no_tool_element", "text", "disabled", "double", "number", "flag", "legacy_flag",
           "legacy_flag_of", "line_of", "referenced_set"]

UNSET = ("", "unassigned")          # OpenSim writes Unassigned for a property left unset


def read_tool(path: str, tag: str | tuple[str, ...], error: type[Exception],
              what: str) -> ET.Element:
    """The ``<tag>`` element of the OpenSim document at path (the root itself, or a child of
    ``<OpenSimDocument>``); tag may be a tuple of the names it goes by (OpenSim 2's and 4's).

    Raises error naming the file: XML that is not well formed (or neither UTF-8 nor
    Windows-1252 nor UTF-16), a file that cannot be read, no ``<tag>`` element (``what``
    names the kind of setup file expected)."""
    return read_document(path, tag, error, what)[1]


def read_document(path: str, tag: str | tuple[str, ...], error: type[Exception],
                  what: str) -> tuple[int | None, ET.Element]:
    """(the document's version, its ``<tag>`` element) as :func:`read_tool` reads them: the
    version is ``<OpenSimDocument Version=...>``'s, read as :func:`_document_version` (None
    when missing or no whole number: OpenSim 4.6 refuses such a document; the caller says
    so and reads it as the latest), 10500 for a document without that root (as OpenSim
    4.6's XMLDocument takes it: older than OpenSim 1.6)."""
    tags = (tag,) if isinstance(tag, str) else tuple(tag)
    root = _parse_document(path, error, what)
    tool = root if root.tag in tags else next((c for c in root if c.tag in tags), None)
    if tool is None:
        raise error(no_tool_element(path, root, tags[0], what))
    return _version_of(root), tool


def read_data_element(path: str, error: type[Exception],
                      what: str) -> tuple[int | None, ET.Element, ET.Element | None]:
    """(the document's version as :func:`read_document` reads it, its root, the element
    OpenSim 4.6 reads the tool from): XMLDocument::getRootDataElement takes the first element
    inside ``<OpenSimDocument>`` whatever its name, or the root itself in a document without
    that root; None for an ``<OpenSimDocument>`` holding no element. Errors as
    :func:`read_tool`'s, but for the element's name, which the caller judges."""
    root = _parse_document(path, error, what)
    if root.tag != "OpenSimDocument":
        return _version_of(root), root, root
    return _version_of(root), root, next(iter(root), None)


def read_setup_element(path: str, tags: tuple[str, ...], error: type[Exception], what: str,
                       kind: str) -> tuple[int | None, ET.Element]:
    """(the document's version, the tool element) of a setup OpenSim 4.6's tool reads as
    :func:`read_data_element` says: the first element of ``<OpenSimDocument>`` (or the
    root), whatever its name. One named as tags say is read; another is refused naming it,
    as is one of tags behind another element (OpenSim reads that element, not the setup the
    user sees). what: the kind of file, as :func:`no_tool_element` says it; kind: the tool's
    short name ("ID", "RRA", "scale")."""
    version, root, tool = read_data_element(path, error, what)
    if tool is not None and tool.tag in tags:
        return version, tool
    named = next((c for c in root if c.tag in tags), None) if tool is not root else None
    if tool is not None and named is not None:
        raise error(f"{path}: <{tool.tag}> comes first in <OpenSimDocument>: OpenSim 4.6 "
                    f"reads it as the {kind} setup, not the <{named.tag}> after it: move "
                    f"<{named.tag}> first (or remove <{tool.tag}>)")
    said = no_tool_element(path, root, tags[0], what)
    if tool is not None:
        said += (f" OpenSim 4.6 reads <{tool.tag}> as the {kind} setup whatever its name: if "
                 f"it is one, rename it <{tags[0]}>")
    raise error(said)


def no_tool_element(path: str, root: ET.Element, tag: str, what: str) -> str:
    """The refusal of a document without the ``<tag>`` element a reader expects."""
    held = [c.tag for c in root][:5]
    return (f"{path}: no <{tag}> element (the root <{root.tag}> holds {held}): is this an "
            f"OpenSim {what} file?")


def _parse_document(path: str, error: type[Exception], what: str) -> ET.Element:
    """The root element of the OpenSim document at path, error naming the file when it
    cannot be read (see :func:`read_tool`)."""
    try:
        return parse_xml(path)
    except (ET.ParseError, ValueError) as e:
        raise error(f"{path}: not well-formed XML ({e})") from None
    except FileNotFoundError:
        raise error(f"{missing_file(path)} (the OpenSim {what} file)") from None
    except InputFileError as e:         # a device, or too large: its message says all
        raise error(str(e)) from None
    except OSError as e:
        raise error(f"{path}: cannot be read ({e.strerror})") from None


def _version_of(root: ET.Element) -> int | None:
    """The version of the document whose root this is (see :func:`read_document`)."""
    if root.tag != "OpenSimDocument":
        return 10500
    return _document_version(root.get("Version"))


#: what C++'s ``>> int`` reads, as OpenSim 4.6's XMLDocument reads a Version (SimTK
#: String::convertTo<int>): ASCII white space around, a sign, ASCII digits (not '²', not '_')
_CPP_INT = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)[ \t\n\v\f\r]*")


def _document_version(said: str | None) -> int | None:
    """An ``OpenSimDocument``'s Version attribute as OpenSim 4.6 reads it ('+10903' and
    ' 10903 ' are 10903); None where OpenSim refuses the document: no attribute, or one that
    is no whole number a C++ int holds ('4.0', '', '1e4', '10_903')."""
    found = _CPP_INT.fullmatch(said or "")
    value = int(found.group(1)) if found else None
    return value if value is not None and -2**31 <= value < 2**31 else None


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
    note_input(path, tag)                 # named by its set in a refusal, not as a setup
    try:
        root = parse_xml(path)
    except InputFileError as e:
        raise error(f"{where}: <{tag} file=\"{named}\">: {e}") from None
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


def disabled(elem: ET.Element, where: str = "", error: type[Exception] = ValueError) -> bool:
    """Whether an OpenSim force element is switched off: OpenSim 3 writes
    ``<isDisabled>true</isDisabled>``, OpenSim 4 ``<appliesForce>false</appliesForce>``; both
    read as OpenSim 4.6 reads a bool property (:func:`flag`), error naming ``where``, the
    element and its line for a value it does not read."""
    said_off, said_on = text(elem, "isDisabled"), text(elem, "appliesForce")
    off = said_off is not None and flag(said_off, f"{where} <isDisabled>", error,
                                        line_of(elem, "isDisabled"))
    on = said_on is None or flag(said_on, f"{where} <appliesForce>", error,
                                 line_of(elem, "appliesForce"))
    return off or not on


def legacy_flag_of(elem: ET.Element, tag: str, where: str, error: type[Exception],
                   default: bool) -> bool:
    """elem's ``<tag>`` read by :func:`legacy_flag` (errors name ``where <tag>`` and the
    line); default when absent. Present but empty, it is refused: OpenSim reads it as
    false."""
    child = elem.find(tag)
    if child is None:
        return default
    return legacy_flag(child.text or "", f"{where} <{tag}>", error, source_line(child))


def line_of(elem: ET.Element | None, tag: str | None = None) -> int | None:
    """The line of its setup file elem (or its child ``<tag>``) starts at, None if unknown."""
    return source_line(elem if tag is None or elem is None else elem.find(tag))


def prop_line(elem: ET.Element, default: ET.Element | None, tag: str,
              old_names: dict[str, str] | None = None) -> int | None:
    """The line of the element a property ``<tag>`` is read from: elem's own (where it has a
    value, see :func:`text`), else its ``<defaults>`` entry's (default, None without one);
    old_names maps a property's name to the one an older file type gives it."""
    tag = (old_names or {}).get(tag, tag)
    own = line_of(elem, tag) if text(elem, tag) is not None else None
    return own or line_of(default, tag)


#: the words OpenSim 4.6 reads as an infinite double (SimTK String::convertTo), a sign before
_INFINITY = re.compile(r"[+-]?(inf|infinity)", re.IGNORECASE)
#: what OpenSim 4.6 and Python's float() read alike: ASCII digits, no '_' (float() reads
#: '1_0' as 10 and Arabic-Indic or full-width digits as digits; OpenSim reads '1_0' as 1 and
#: refuses the others), OpenSim's infinity words, NaN
_READ_ALIKE = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|"
                         r"[+-]?(inf|infinity)|nan", re.IGNORECASE)


def double(value: str, where: str, error: type[Exception]) -> float:
    """A number as OpenSim 4.6 reads a double property: ``Infinity`` or ``inf`` (any case,
    signed) for an infinite one, NaN read as NaN; error naming ``where`` for anything else,
    and for a finite number beyond a double's range ('1e400'), which Python would read as
    infinite and OpenSim does not read (C++'s ``>> double`` fails there: an older tool's
    property refuses the setup, a current one is ignored with a line in OpenSim's log), and
    for a number float() reads otherwise than OpenSim (_READ_ALIKE)."""
    try:
        x = float(value.replace("Infinity", "inf").replace("infinity", "inf"))
    except ValueError:
        raise error(f"{where}: {value!r} is not a number") from None
    if not _READ_ALIKE.fullmatch(value.strip()):
        raise error(f"{where}: {value.strip()!r} is not a number as OpenSim 4.6 reads one "
                    f"({_read_otherwise(value)})")
    if math.isinf(x) and not _INFINITY.fullmatch(value.strip()):
        raise error(f"{where}: {value.strip()!r} is beyond the largest number a double holds "
                    "(about 1.8e308), which OpenSim 4.6 does not read; give a smaller "
                    "number (or Infinity, if no bound is meant)")
    return x


def _read_otherwise(value: str) -> str:
    """Why OpenSim 4.6 does not read value as float() does (value not _READ_ALIKE), and
    what to write: each of the three ways float() reads more than OpenSim."""
    if "_" in value:
        return "it reads '1_0' as 1, the digits before '_'; write it without '_'"
    if any(c.isdigit() and not c.isascii() for c in value):
        return "it reads no digit but 0-9; write it with the digits 0-9"
    return "it reads no sign before NaN; write a number"


def number(value: str, where: str, error: type[Exception]) -> float:
    """A number as OpenSim writes one (:func:`double`), NaN refused too, naming ``where``."""
    x = double(value, where, error)
    if math.isnan(x):
        raise error(f"{where}: NaN is not allowed")
    return x


def flag(value: str, where: str, error: type[Exception], line: int | None = None) -> bool:
    """A bool property as OpenSim 4.6 reads one declared the current way (OpenSim_DECLARE_
    PROPERTY: IK tasks' <apply>, <report_errors>, actuators' <point_is_global>, a force's
    <appliesForce>): 'true' or 'false' in any case, or a whole number 0 or 1 where C++'s
    ``>> bool`` reads one ('1', '01', '+1'). Anything else OpenSim ignores (keeping the
    default, with a line in its log): refused, as is a value of several words (OpenSim reads
    the first), naming where (the file and element) and its line."""
    words = value.split()
    word = words[0].lower() if words else ""
    digits = re.match(r"[+-]?\d+", word)
    if len(words) == 1 and word in ("true", "false"):
        return word == "true"
    if len(words) == 1 and digits and int(digits.group()) in (0, 1):
        return int(digits.group()) == 1         # '1x', '1.0': >> bool stops after the 1
    said = ("holds several words (OpenSim reads only the first)" if len(words) > 1 else
            "is not true or false (OpenSim ignores it and keeps the property's default)")
    raise error(f"{_at(where, line)}: {value.strip()!r} {said}; write true or false")


def legacy_flag(value: str, where: str, error: type[Exception], line: int | None = None,
                lower_case_only: bool = False) -> bool:
    """A bool property of OpenSim's older kind (the ScaleTool's <apply> and
    <preserve_mass_distribution>, RRA's <replace_force_set>, <adjust_com_to_reduce_residuals>,
    a task's <on>; Object::updateFromXMLNode): 'true' in any case is true and everything
    else, '1' and 'yes' included, false (in a bool array, such as a CMC task's <active>,
    only 'true' spelt so: ``lower_case_only``). So only 'true' or 'false' is read; anything
    else is refused naming where (the file and element) and its line, saying that OpenSim
    reads it as false."""
    word = value.strip()
    said = word if lower_case_only else word.lower()
    if said in ("true", "false"):
        return said == "true"
    spelling = "'true' in lower case" if lower_case_only else "'true' (in any case)"
    raise error(f"{_at(where, line)}: {word!r}: OpenSim 4.6 reads this property as false "
                f"unless it says {spelling}; write true or false")


def _at(where: str, line: int | None) -> str:
    return where if line is None else f"{where} (line {line})"
