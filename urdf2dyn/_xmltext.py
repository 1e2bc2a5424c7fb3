"""Text written into the XML files urdf2dyn makes (URDF, .osim): escaped, so that any name
reads back as it was given."""


def escape(text):
    """text as XML character data or a double-quoted attribute value. Tabs and line breaks
    are written as character references, which a reader keeps (written as such, an attribute
    value's would read back as spaces); the other control characters cannot be in an XML 1.0
    document at all: ValueError."""
    text = str(text)
    bad = sorted({c for c in text if ord(c) < 0x20 and c not in "\t\n\r"})
    if bad:
        raise ValueError(f"{text!r}: the control character {bad[0]!r} cannot be written in an "
                         "XML file; remove it")
    lone = [c for c in text if 0xD800 <= ord(c) <= 0xDFFF]
    if lone:        # what Python makes of a byte the locale could not decode
        raise ValueError(f"{text!r}: {lone[0]!r} is not a character (an undecodable byte?) "
                         "and cannot be written in an XML file; give the name in UTF-8")
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;")
            .replace("\r", "&#13;"))
