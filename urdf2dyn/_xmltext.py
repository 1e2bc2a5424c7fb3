"""Text written into the XML files urdf2dyn makes (URDF, .osim): escaped, so that any name
reads back as it was given."""


def escape(text):
    """text as XML character data or a double-quoted attribute value."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))
