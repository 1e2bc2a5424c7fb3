"""A package's names imported when first used, so that a process pays for the part it runs:
``urdf2dyn scale`` needs the .osim writer, not the code generator or the trial pipeline
(issue 29: half of a short command's time was ``import urdf2dyn``)."""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, names: dict[str, str]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (PEP 562) for ``names``: each maps a
    public name to ``".module"`` (that submodule) or ``".module:attribute"``, imported
    relative to the package on first use and kept in the package's namespace."""
    def __getattr__(name: str) -> Any:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module_name, _, attribute = where.partition(":")
        module = importlib.import_module(module_name, package)
        value = getattr(module, attribute) if attribute else module
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
