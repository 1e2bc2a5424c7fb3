"""urdf2dyn's version (one place: the package, the generated code's banners and --version read it)."""
__version__ = "0.1.0"
