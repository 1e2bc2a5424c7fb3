"""setup.py finds Mini-XML where each platform's package manager puts it, links it statically
when it can, picks flags per compiler, and stops with an actionable message without it.
The install trees are laid out in a temporary folder, as vcpkg, Homebrew and conda lay them."""
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not (ROOT / "setup.py").exists(), reason="needs the source tree")


@pytest.fixture
def setup_py(monkeypatch):
    spec = importlib.util.spec_from_file_location("urdf2dyn_setup", ROOT / "setup.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)                 # not __main__: setup() is not called
    for var in ("MXML_INCLUDE_DIR", "MXML_LIBRARY", "VCPKG_ROOT", "VCPKG_INSTALLATION_ROOT",
                "VCPKG_DEFAULT_TRIPLET", "CONDA_PREFIX", "PREFIX", "LIBRARY_PREFIX",
                "HOMEBREW_PREFIX", "URDF2DYN_MXML"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PKG_CONFIG", "no-such-pkg-config")
    return mod


def lay_out(root, header_dir, libs):
    (root / header_dir).mkdir(parents=True)
    (root / header_dir / "mxml.h").write_text("/* mxml */\n")
    for lib in libs:
        (root / lib).parent.mkdir(parents=True, exist_ok=True)
        (root / lib).write_bytes(b"")


def no_system(mod, monkeypatch):
    real = mod.prefixes
    monkeypatch.setattr(mod, "prefixes", lambda: [p for p in real() if p[0] != "system"])


def test_explicit_variables(setup_py, tmp_path, monkeypatch):
    lay_out(tmp_path, "inc", ["lib/mxml4.lib"])
    monkeypatch.setenv("MXML_INCLUDE_DIR", str(tmp_path / "inc"))
    monkeypatch.setenv("MXML_LIBRARY", str(tmp_path / "lib" / "mxml4.lib"))
    inc, link, where = setup_py.find_mxml()
    assert inc == [str(tmp_path / "inc")] and link == [str(tmp_path / "lib" / "mxml4.lib")]
    assert "MXML_INCLUDE_DIR" in where


def test_explicit_variables_wrong(setup_py, tmp_path, monkeypatch):
    monkeypatch.setenv("MXML_INCLUDE_DIR", str(tmp_path))
    monkeypatch.setenv("MXML_LIBRARY", str(tmp_path / "libmxml.a"))
    with pytest.raises(setup_py.MxmlNotFound, match=r"MXML_INCLUDE_DIR=.* holds no mxml\.h"):
        setup_py.find_mxml()


def test_vcpkg_static_triplet(setup_py, tmp_path, monkeypatch):
    monkeypatch.setattr(setup_py, "WINDOWS", True)
    monkeypatch.setattr(setup_py, "MACOS", False)
    tree = tmp_path / "installed" / "x64-windows-static-md"
    lay_out(tree, "include", ["lib/mxml4.lib"])
    monkeypatch.setenv("VCPKG_ROOT", str(tmp_path))
    inc, link, where = setup_py.find_mxml()
    assert where == "vcpkg" and inc == [str(tree / "include")]
    assert link == [str(tree / "lib" / "mxml4.lib")]
    # MSVC links the .lib by path: no GNU flags, no -lm, no -pthread
    assert setup_py.link_flags("msvc", link) == link
    assert all(not f.startswith("-") for f in setup_py.FLAGS["msvc"])


def test_homebrew_mxml4_static_first(setup_py, tmp_path, monkeypatch):
    monkeypatch.setattr(setup_py, "WINDOWS", False)
    monkeypatch.setattr(setup_py, "MACOS", True)
    monkeypatch.setattr(setup_py.shutil, "which", lambda name: None)   # no brew executable
    monkeypatch.setenv("HOMEBREW_PREFIX", str(tmp_path))
    lay_out(tmp_path, "include/libmxml4", ["lib/libmxml4.a", "lib/libmxml4.dylib"])
    no_system(setup_py, monkeypatch)
    inc, link, where = setup_py.find_mxml()
    assert where == "Homebrew" and inc == [str(tmp_path / "include" / "libmxml4")]
    assert link == [str(tmp_path / "lib" / "libmxml4.a")]
    flags = setup_py.link_flags("clang", link)
    assert not any("--exclude-libs" in f for f in flags)       # GNU ld only: not for ld64
    assert "-Wl,-exported_symbol,_PyInit__core" in flags


def test_conda_prefix_shared_when_asked(setup_py, tmp_path, monkeypatch):
    monkeypatch.setattr(setup_py, "WINDOWS", False)
    monkeypatch.setattr(setup_py, "MACOS", False)
    monkeypatch.setenv("CONDA_PREFIX", str(tmp_path))
    monkeypatch.setenv("URDF2DYN_MXML", "shared")
    lay_out(tmp_path, "include", ["lib/libmxml.a", "lib/libmxml.so"])
    inc, link, where = setup_py.find_mxml()
    assert where == "conda" and link == [str(tmp_path / "lib" / "libmxml.so")]


def test_linux_static_archive_kept_private(setup_py):
    flags = setup_py.link_flags("gcc", ["/usr/lib/x86_64-linux-gnu/libmxml.a"])
    if sys.platform.startswith("linux"):
        assert "-Wl,--exclude-libs,libmxml.a" in flags and "-pthread" in flags


@pytest.mark.parametrize("platform, hint", [("linux", "apt-get install libmxml-dev"),
                                             ("darwin", "brew install libmxml"),
                                             ("win32", "vcpkg install mxml")])
def test_missing_mxml_names_the_package(setup_py, monkeypatch, platform, hint):
    monkeypatch.setattr(setup_py, "PLATFORM", platform)
    monkeypatch.setattr(setup_py, "prefixes", lambda: [])
    with pytest.raises(setup_py.MxmlNotFound) as err:
        setup_py.find_mxml()
    message = str(err.value)
    assert hint in message and "MXML_INCLUDE_DIR" in message and "MXML_LIBRARY" in message


def test_this_machine(setup_py, monkeypatch):
    """On this machine (Debian's libmxml-dev): the static archive, through pkg-config."""
    monkeypatch.delenv("PKG_CONFIG")
    if not Path("/usr/include/mxml.h").exists():
        pytest.skip("needs libmxml-dev")
    inc, link, where = setup_py.find_mxml()
    assert link[0].endswith("libmxml.a"), (link, where)
