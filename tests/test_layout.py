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


def _import_graph():
    """{module: the package's modules it imports}, at any depth of its code (type-checking
    and function-level imports included: a circle hidden in a function is still a circle)."""
    return {name: {m for m in _imports(name, path) if m in MODULES and m != name}
            for name, path in MODULES.items()}


def _circles(graph):
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_circles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_no_import_circles():
    circles = _circles(_import_graph())
    assert not circles, (
        f"modules importing each other (directly or around a circle): {circles}; move what "
        "both need into a module below them (docs/layout.rst)")


def test_at_most_15_public_modules_at_the_top():
    public = sorted(p.stem if p.suffix == ".py" else p.name for p in PACKAGE.iterdir()
                    if not p.name.startswith("_")
                    and (p.suffix == ".py" or (p / "__init__.py").is_file()))
    assert len(public) <= 15, (
        f"{len(public)} public modules at the top of urdf2dyn/: {public}; fold or group private "
        "helpers (a leading underscore) or move a module where it belongs")


def test_model_keeps_the_model_and_batch_the_batching():
    from urdf2dyn import batch, model
    defined_in_model = {n.name for n in ast.parse(MODULES["urdf2dyn.model"].read_text()).body
                        if isinstance(n, ast.FunctionDef)}
    for name in ("_as_samples", "_broadcast", "_batch_shape", "_check_out", "_flatten",
                 "_stack_wrenches"):
        assert callable(getattr(batch, name, None)) and name not in defined_in_model, name


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
