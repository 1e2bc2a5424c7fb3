"""Text written into the XML files urdf2dyn makes (URDF, .osim): escaped, so that any name
reads back as it was given."""


def escape(text):
    """text as XML character data or a double-quoted attribute value. Tabs and line breaks
    are written as character references, which a reader keeps (written as such, an attribute
    value's would read back as spaces); the other control characters cannot be in an XML 1.0
    document at all: ValueError."""
    text = _writable(str(text))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;")
            .replace("\r", "&#13;"))


def _writable(text):
    """text, if an XML 1.0 document can hold its characters (anywhere: ValueError if not)."""
    bad = sorted({c for c in text if ord(c) < 0x20 and c not in "\t\n\r"})
    if bad:
        raise ValueError(f"{text!r}: the control character {bad[0]!r} cannot be written in an "
                         "XML file; remove it")
    lone = [c for c in text if 0xD800 <= ord(c) <= 0xDFFF]
    if lone:        # what Python makes of a byte the locale could not decode
        raise ValueError(f"{text!r}: {lone[0]!r} is not a character (an undecodable byte?) "
                         "and cannot be written in an XML file; give the name in UTF-8")
    return text


def in_comment(text):
    """text inside an XML comment, which may hold no "--" and not end in "-" (it would make
    the closing "-->" a "--"): each such hyphen written as the reference &#45; (a comment's
    text is not parsed, so it stays as written there; a reader sees where it was)."""
    text, out = _writable(str(text)), []
    for k, c in enumerate(text):
        hyphen = c == "-" and (k + 1 == len(text) or text[k + 1] == "-")
        out.append("&#45;" if hyphen else c)
    return "".join(out)
