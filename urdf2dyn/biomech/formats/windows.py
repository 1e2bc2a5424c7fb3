"""Files as Windows users have them: text in UTF-8 (with or without a byte-order mark) or in
Windows-1252, the ANSI code page of Western-European Windows, which tools that write the system's
code page (OpenSim's GUI and MATLAB scripts among them) use for non-ASCII names, or in UTF-16
with its byte-order mark (Notepad's "Unicode", Excel's "Unicode text"); and paths
written on Windows inside setup files (backslashes, drive letters). CRLF line ends need nothing:
every reader splits lines with str.splitlines."""
from __future__ import annotations

import ntpath
import os
import re
import weakref
import xml.etree.ElementTree as ET
import xml.parsers.expat as expat

from ..._input_bytes import read_input
from ..._safe_files import note_input
from ...warn import MotionError, report

__all__ = ["decode_text", "text_lines", "parse_xml", "source_line", "setup_path"]

_DRIVE = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\)")


#: The byte-order marks of UTF-16 text (Windows' "Unicode": Notepad, Excel's "Unicode text").
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


def is_utf16(data: bytes) -> bool:
    """Whether bytes start with a UTF-16 byte-order mark (little- or big-endian)."""
    return data.startswith(UTF16_MARKS)


def _decode(data: bytes, path: str, save_as: str) -> tuple[str, str]:
    """(text, encoding) of a text file's bytes: UTF-16 when they start with its byte-order
    mark, else UTF-8 (a byte-order mark dropped), else Windows-1252. ValueError naming the
    file and what to save it as (save_as) for bytes that are none of these, and for text
    holding a NUL (UTF-16 without its mark, or not text at all), which no reader can mean."""
    candidates = ("utf-16",) if is_utf16(data) else ("utf-8-sig", "cp1252")
    for encoding in candidates:
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError as e:
            err = e
    else:
        raise ValueError(f"{path}: not text in UTF-8, Windows-1252 or UTF-16 (byte "
                         f"0x{data[err.start]:02x} at offset {err.start}): save it as "
                         f"{save_as}") from None
    text = text.lstrip("\ufeff")           # a BOM that survived decoding (written twice)
    nul = text.find("\x00")
    if nul >= 0:
        raise ValueError(f"{path}: line {text.count(chr(10), 0, nul) + 1}: contains NUL bytes: "
                         "UTF-16 text without its byte-order mark, or not a text file at all; "
                         f"save it as {save_as}")
    return text, encoding


def decode_text(data: bytes, path: str) -> str:
    """The text of an OpenSim file's bytes (.trc, .mot, .sto, setup or marker-set XML):
    UTF-8 (a byte-order mark dropped), Windows-1252, or UTF-16 with its byte-order mark.

    UTF-16 is read and warned about: OpenSim 4.6 reads none of these files in UTF-16 (its
    Storage and TRCFileAdapter refuse them, its TimeSeriesTable never returns, its tools
    read an empty setup). Five bytes unassigned in Windows-1252 (never written by Windows),
    invalid UTF-16 and NUL characters are refused (ValueError), naming the file."""
    text, encoding = _decode(data, path, "UTF-8")
    if encoding == "utf-16":
        report(f"{path}: the file is UTF-16 text (Windows' \"Unicode\"); urdf2dyn read it, "
               "but OpenSim 4.6 cannot: save it as UTF-8 (e.g. in Notepad: Save As, "
               "Encoding: UTF-8) for OpenSim to read it", stacklevel=None)
    return text


#: Bytes read to detect the encoding, delimiter and decimal of a large file.
HEAD_BYTES = 1 << 16


def text_lines(path, head_only=False):
    """(lines (any line end), the encoding they were read with, whether they are the whole
    file) of a table as spreadsheets save it: UTF-8 (a byte-order mark dropped), Windows-1252,
    or UTF-16 with its byte-order mark (Excel's "Unicode text"); head_only: the complete lines
    of the first HEAD_BYTES only."""
    note_input(path, "CSV table")
    raw = read_input(path, "CSV table", limit=None, head=HEAD_BYTES if head_only else None)
    complete = not head_only or len(raw) < HEAD_BYTES
    if not complete:
        if is_utf16(raw):                   # a cut may split a character: read it all
            return text_lines(path)
        raw = raw[:raw.rfind(b"\n") + 1]    # whole lines only
    try:
        text, encoding = _decode(raw, path, "CSV (UTF-8)")
    except ValueError as e:
        raise MotionError(str(e)) from None
    return text.splitlines(), encoding, complete


def parse_xml(path: str) -> ET.Element:
    """The root element of an XML file: UTF-16 with its byte-order mark (warned about as
    decode_text does, whatever its declaration says: Notepad keeps an encoding="UTF-8" when it
    saves as "Unicode"), else its declared encoding, else UTF-8, else Windows-1252 (a file
    saved by a Windows editor in the ANSI code page, without a declaration).

    Raises ET.ParseError for XML that is not well formed, ValueError for bytes that are
    neither UTF-8 nor Windows-1252 nor UTF-16, OSError for a file that cannot be read."""
    note_input(path, "setup")
    data = read_input(path, "setup")
    if is_utf16(data):
        return _parse(decode_text(data, path))
    try:
        return _parse(data)
    except ET.ParseError:
        if re.match(rb"\s*<\?xml[^>]*encoding", data.lstrip(b"\xef\xbb\xbf")):
            raise                                 # its declaration was honoured: truly broken
        return _parse(decode_text(data, path))


#: The line each element parse_xml returned starts at in its file (for messages naming it)
_LINES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def source_line(elem: ET.Element | None) -> int | None:
    """The line of its file an element read by parse_xml starts at (None if unknown)."""
    return None if elem is None else _LINES.get(elem)


def _parse(data: bytes | str) -> ET.Element:
    """ET.fromstring(data), with each element's line noted (source_line): the same expat
    parser ElementTree runs, building the same tree (comments and processing instructions
    left out, names in ElementTree's {namespace}name form)."""
    builder = ET.TreeBuilder()
    # text is given to expat as UTF-8, whatever its declaration says (as ET.fromstring does)
    parser = expat.ParserCreate("utf-8" if isinstance(data, str) else None,
                                namespace_separator="}")

    def name(key):
        return "{" + key if "}" in key else key

    def start(tag, attrs):
        elem = builder.start(name(tag), {name(k): v for k, v in attrs.items()})
        _LINES[elem] = parser.CurrentLineNumber

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: builder.end(name(tag))
    parser.CharacterDataHandler = builder.data
    parser.buffer_text = True
    try:
        parser.Parse(data, True)
    except expat.ExpatError as e:
        raise ET.ParseError(str(e)) from None
    return builder.close()


def setup_path(text: str, setup_file: str, element: str, strict: bool = False,
               error: type[Exception] = ValueError, folder: str | None = None,
               read: bool = True) -> str:
    """The file a setup file names, as a path on this system.

    Relative paths are relative to ``folder`` (default: the setup file's folder), with ``\\``
    or ``/`` between folders. An absolute Windows path (drive letter or ``\\\\server``) read on another system
    cannot be opened as written: its file name in the setup file's folder is used instead, with
    a warning naming both (an error with ``strict``); read: False for a file the setup names
    that this reading does not read (only kept off the outputs), resolved without the
    warning, which would say a file is read in its place."""
    name = text.strip()
    base = folder if folder is not None else os.path.dirname(os.path.abspath(setup_file))
    if os.name == "nt" or os.path.isabs(name):
        return os.path.normpath(os.path.join(base, name))
    if _DRIVE.match(name):
        local = os.path.join(base, ntpath.basename(name))
        if read:
            report(f"{setup_file}: <{element}> {name} is a Windows path; reading {local} (the "
                   "file of that name beside the setup file) instead", strict=strict, error=error)
        return local
    return os.path.normpath(os.path.join(base, *re.split(r"[\\/]+", name)))
