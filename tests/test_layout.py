"""The package's layout (docs/layout.rst): rigid-body dynamics at the top, motion analysis in
urdf2dyn.biomech built on it, and no module importing one above it."""
import ast
from pathlib import Path

import pytest

import urdf2dyn

PACKAGE = Path(urdf2dyn.__file__).resolve().parent
# the two front doors (the package and its command line), which may import from everywhere
# below them
FRONTS = {"urdf2dyn", "urdf2dyn.__main__", "urdf2dyn.cli"} | {
    n for n in (".".join(["urdf2dyn", *p.relative_to(PACKAGE).with_suffix("").parts])
                for p in (PACKAGE / "cli").glob("*.py")) if not n.endswith("__init__")}


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(["urdf2dyn", *parts]), path


def _imports(name, path):
    """The urdf2dyn modules that the module `name` imports (at any depth of its code)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("urdf2dyn"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("urdf2dyn"):
                continue
            if node.module is None:          # from . import x: the submodules x
                found.update(f"{target}.{a.name}" for a in node.names)
            else:
                found.add(target)
    return found


MODULES = dict(_modules())


@pytest.mark.parametrize("name", sorted(set(MODULES) - FRONTS))
def test_no_module_imports_the_package_front(name):
    assert "urdf2dyn" not in _imports(name, MODULES[name]), (
        f"{name} imports urdf2dyn/__init__.py: import the module that defines the name instead "
        "(data_path: urdf2dyn.bundled, __version__: urdf2dyn._version)")


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n not in FRONTS
                                        and not n.startswith("urdf2dyn.biomech")))
def test_rigid_body_dynamics_does_not_import_motion_analysis(name):
    up = sorted(m for m in _imports(name, MODULES[name]) if m.startswith("urdf2dyn.biomech"))
    assert not up, f"{name} (rigid-body dynamics) imports {up} (motion analysis)"


def test_the_public_face_offers_what_users_call_most():
    for name in ("load", "Model", "inverse_dynamics_trial", "run_trials", "human_model",
                 "Trajectory", "data_path", "check", "simulate", "wrench_at_point"):
        assert name in urdf2dyn.__all__ and hasattr(urdf2dyn, name), name


def test_every_format_module_is_reached_through_formats():
    from urdf2dyn.biomech import formats
    for module in ("csv", "opensim", "humod", "torques"):
        assert f"urdf2dyn.biomech.formats.{module}" in MODULES
        assert hasattr(formats, module)


# One reader per format: the core reads model files (URDF, .osim); Python parses XML only for
# OpenSim's setup files (setup_xml, through windows.parse_xml), writes OpenSim's XML, and
# builds an OpenSim model from a URDF's text (opensim_model.to_opensim, URDF models only).
XML_PARSERS = {"urdf2dyn.biomech.formats.windows", "urdf2dyn.biomech.formats.setup_xml",
               "urdf2dyn.biomech.formats.opensim", "urdf2dyn.biomech.opensim_model"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_only_the_setup_readers_parse_xml(name):
    """An .osim parsed again in Python once broke on what the core reads (element names
    such as HuntCrossleyForce::ContactParametersSet; tests/test_osim_published.py)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    xml = [n.lineno for n in ast.walk(tree)
           if isinstance(n, ast.Import) and any(a.name.startswith("xml") for a in n.names)
           or isinstance(n, ast.ImportFrom) and (n.module or "").startswith("xml")]
    assert not xml or name in XML_PARSERS, (
        f"{name} imports an XML parser (line {xml[0] if xml else 0}): read a model through "
        "the core's model (urdf2dyn.Model: document(), osim(), structure()), not its text")
