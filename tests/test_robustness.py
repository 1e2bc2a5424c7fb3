"""Hardening: hostile and awkward input at the Python level, the array policies of every
function (layouts, NaN, quaternions), concurrency and memory.

Complements tests/test_urdf_validation.py (one case per URDF validation rule) and
tests/test_api.py (the array contract of inverse_dynamics); cases already there are not
repeated. Inputs that could crash, hang or eat memory run in a subprocess with a timeout.
"""
import ctypes
import gc
import os
import subprocess
import sys
import tempfile
import textwrap
import threading

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import URDFError

ARM7 = urdf2dyn.data_path("arm7.urdf")
INERTIAL = ('<inertial><origin xyz="0 0 0.1"/><mass value="1"/>'
            '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>')


def robot(body, name="r"):
    return f'<robot name="{name}">{body}</robot>'


def link(name, inertial=INERTIAL):
    return f'<link name="{name}">{inertial}</link>'


def joint(name, parent, child, kind="revolute", extra='<axis xyz="0 1 0"/>'):
    """A joint as the URDF specification has it: a revolute or prismatic one with its <limit>
    (without, the loader rightly warns)."""
    if kind in ("revolute", "prismatic") and "<limit" not in extra:
        extra += '<limit lower="-3" upper="3" effort="100" velocity="10"/>'
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="0 0 0.5"/>{extra}</joint>')


TWO = robot(link("a") + link("b") + joint("j", "a", "b"))


def run_python(code, timeout=60):
    """Run code in a fresh interpreter (address space capped at 2 GiB); returns stdout."""
    prologue = ("import resource\n"
                "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n")
    proc = subprocess.run([sys.executable, "-c", prologue + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout,
                          cwd=tempfile.gettempdir())   # import the installed package
    assert proc.returncode == 0, f"exit status {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


# ---- bad documents ---------------------------------------------------------------------

BAD_DOCUMENTS = {
    # (input, exception, words in the message)
    "whitespace-only text": ("  \n\t\r\n ", FileNotFoundError,
                             ["no such file", "load takes a URDF path or the XML text"]),
    "empty text": ("", FileNotFoundError, ["no such file"]),
    "whitespace-only bytes": (b" \n\t\r\n ", URDFError,
                              ["empty file (6 bytes, only whitespace)"]),
    "empty bytes": (b"", URDFError, ["empty file (0 bytes)"]),
    "BOM only": (b"\xef\xbb\xbf", URDFError, ["invalid XML"]),
    "binary garbage": (bytes(range(256)) * 4, URDFError, ["the URDF bytes", "not valid UTF-8",
                                                           "byte 128"]),
    "control characters": ("<\x01\x02\x03>&&", URDFError, ["invalid XML", "control character"]),
    "UTF-16 document": (TWO.encode("utf-16"), URDFError, ["the URDF bytes: the file is UTF-16 "
                                                          "text;", "save it as UTF-8"]),
    "invalid UTF-8 bytes": (robot(link("caf\xe9")).encode("latin-1"), URDFError,
                            ["the URDF bytes", "not valid UTF-8", "byte 31"]),
    "UTF-8 encoded surrogate": (b'<robot name="\xed\xa0\x80"><link name="a"/></robot>',
                                URDFError, ["not valid UTF-8", "byte 13"]),
    "overlong UTF-8": (b'<robot name="\xc0\xaf"><link name="a"/></robot>', URDFError,
                       ["not valid UTF-8", "byte 13"]),
    "lone surrogate in str": ('<robot name="\udcff"><link name="a"/></robot>', ValueError,
                              ["surrogates not allowed"]),
    "NUL in bytes": (TWO.encode() + b"\0", URDFError, ["NUL"]),
    "unterminated comment": (robot(link("a")) + "<!-- no end", URDFError,
                             ["invalid XML", "comment"]),
    "bare < after the robot": (robot(link("a")) + " <<<", URDFError, ["invalid XML", "<"]),
    "unknown entity": (robot('<link name="&nope;"/>'), URDFError, ["invalid XML"]),
    "robot inside another element": ("<model>" + robot(link("a")) + "</model>", URDFError,
                                     ["no <robot> element"]),
    "mismatched quotes": ('<robot name="r\'><link name="a"/></robot>', URDFError,
                          ["invalid XML"]),
    "not a type": (12.5, TypeError, ["load: expected a path or URDF text", "float"]),
}


@pytest.mark.parametrize("case", sorted(BAD_DOCUMENTS))
def test_bad_document(case):
    data, exc, words = BAD_DOCUMENTS[case]
    with pytest.raises(exc) as info:
        urdf2dyn.load(data)
    for word in words:
        assert word in str(info.value), f"{word!r} not in {str(info.value)!r}"


@pytest.mark.parametrize("as_str", [False, True])
def test_path_is_a_directory(tmp_path, as_str):
    """Refused as a missing file is: the path, what it is, and what load takes."""
    with pytest.raises(IsADirectoryError) as info:
        urdf2dyn.load(str(tmp_path) if as_str else tmp_path)
    msg = str(info.value)
    assert msg.startswith(f"load: {str(tmp_path)!r} is a directory, not a model file"), msg
    assert "Errno" not in msg


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root reads files whatever their mode (see the /proc/self/mem test)")
def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.urdf"
    path.write_text(TWO)
    path.chmod(0)
    try:
        with pytest.raises(PermissionError):
            urdf2dyn.load(path)
    finally:
        path.chmod(0o600)


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux /proc")
def test_file_that_cannot_be_read():
    """/proc/self/mem opens (even for root) but reading it from offset 0 fails."""
    with pytest.raises(OSError):
        urdf2dyn.load("/proc/self/mem")


def test_path_through_a_file(tmp_path):
    path = tmp_path / "robot.urdf"
    path.write_text(TWO)
    with pytest.raises(FileNotFoundError, match="no such file"):
        urdf2dyn.load(path / "inside.urdf")


ENTITY_ATTACKS = {
    "billion laughs": (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        + "".join(f'<!ENTITY lol{i} "' + (f"&lol{i - 1};" if i > 1 else "&lol;") * 10 + '">'
                  for i in range(1, 10))
        + ']><robot name="&lol9;"><link name="&lol9;"/></robot>'),
    "quadratic blowup": (
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "' + "x" * 50000 + '">]>'
        '<robot name="r"><link name="' + "&a;" * 20000 + '"/></robot>'),
    "external entity": (
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<robot name="&x;"><link name="a"/></robot>'),
}


@pytest.mark.parametrize("case", sorted(ENTITY_ATTACKS))
def test_entity_expansion_is_not_performed(case, tmp_path):
    """DTD entities are never expanded: the document is rejected quickly, within 2 GiB, and
    nothing is read from the file system."""
    path = tmp_path / "attack.urdf"
    path.write_text(ENTITY_ATTACKS[case])
    out = run_python(f"""
        import time, urdf2dyn
        t = time.perf_counter()
        try:
            m = urdf2dyn.load({str(path)!r})
            print("loaded", len(m.name), max(len(n) for n in m.link_names))
        except urdf2dyn.URDFError as e:
            print("URDFError", e)
        print("seconds", time.perf_counter() - t)
        """, timeout=60)
    assert "root:" not in out
    assert "URDFError" in out and "invalid XML" in out, out
    assert float(out.split("seconds")[1]) < 5.0, out


def test_pathological_xml_in_a_subprocess():
    """Deep nesting and many attributes neither crash nor hang."""
    out = run_python("""
        import time, urdf2dyn
        deep = '<robot name="r"><link name="a"/>' + '<x>' * 100000 + '</x>' * 100000 + '</robot>'
        print(urdf2dyn.load(deep).link_names)
        try:
            urdf2dyn.load('<robot name="r"><link name="a"/>' + '<x>' * 100000)
        except urdf2dyn.URDFError as e:
            print("unterminated:", e)
        attrs = " ".join(f'a{i}="{i}"' for i in range(5000))
        print(urdf2dyn.load(f'<robot name="r"><link name="a" {attrs}/></robot>').link_names)
        """, timeout=120)
    assert out.count("('a',)") == 2 and "unterminated: invalid XML" in out, out


# ---- valid but awkward documents ---------------------------------------------------------

def test_prolog_comments_and_instructions_everywhere():
    text = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<?xml-stylesheet href="robot.xsl"?>\n<!-- before -->\n'
            '<!DOCTYPE robot SYSTEM "urdf.dtd">\n<!-- again -->\n'
            '<robot name="r" xmlns:xacro="http://ros.org/wiki/xacro"><!-- inside -->'
            '<xacro:property name="p" value="1"/><![CDATA[<link name="ghost"/>]]>'
            + link("a").replace("<inertial>", "<inertial><!-- in inertial -->")
            + link("b") + joint("j", "a", "b").replace("<parent", "<!-- c --><parent")
            + '</robot>\n<!-- after -->\n')
    model = urdf2dyn.load(text)
    assert model.link_names == ("a", "b") and model.nq == 1
    reference = urdf2dyn.load(TWO)
    q = np.array([0.7])
    np.testing.assert_array_equal(model.inverse_dynamics(q, q, q),
                                  reference.inverse_dynamics(q, q, q))


def test_crlf_and_bom_file(tmp_path):
    path = tmp_path / "windows.urdf"
    path.write_bytes(b"\xef\xbb\xbf" + ('<?xml version="1.0"?>\n' + TWO.replace("><", ">\n<"))
                     .replace("\n", "\r\n").encode())
    model, reference = urdf2dyn.load(path), urdf2dyn.load(TWO)
    q = np.array([0.3])
    np.testing.assert_array_equal(model.mass_matrix(q), reference.mass_matrix(q))


def test_entities_and_unicode_names():
    text = robot(link("a&amp;b") + link("bras_gauche_é_肘_🤖") + link("x&lt;&#65;&#x42;")
                 + joint("j&quot;1", "a&amp;b", "bras_gauche_é_肘_🤖")
                 + joint("j2", "a&amp;b", "x&lt;&#65;&#x42;"), name="robø")
    model = urdf2dyn.load(text)
    assert model.name == "robø"
    assert model.link_names == ("a&b", "bras_gauche_é_肘_🤖", "x<AB")
    assert [j.name for j in model.joints] == ['j"1', "j2"]
    assert model.joints[0].child == "bras_gauche_é_肘_🤖"
    tau = model.inverse_dynamics(np.zeros(2), np.zeros(2), np.zeros(2),
                                 f_ext={"bras_gauche_é_肘_🤖": np.ones(6)})
    assert np.all(np.isfinite(tau))


def test_2000_link_star():
    n = 2000
    text = robot(link("hub") + "".join(link(f"l{i}") + joint(f"j{i}", "hub", f"l{i}")
                                       for i in range(n)))
    model = urdf2dyn.load(text)
    single = urdf2dyn.load(robot(link("hub") + link("l") + joint("j", "hub", "l")))
    assert model.nv == n and len(model.link_names) == n + 1
    rng = np.random.default_rng(0)
    q, v, a = rng.normal(size=(3, n))
    tau = model.inverse_dynamics(q, v, a)
    # every spoke is the same pendulum on a fixed hub: tau_i depends on joint i only
    expected = single.inverse_dynamics(q[:, None], v[:, None], a[:, None])[:, 0]
    np.testing.assert_allclose(tau, expected, rtol=1e-12, atol=1e-12)


def test_4000_character_names():
    la, lb, jn = "a" * 4000, "b" * 3999 + "é", "j" * 4000
    model = urdf2dyn.load(robot(link(la) + link(lb) + joint(jn, la, lb)))
    assert model.link_names == (la, lb) and model.joints[0].name == jn
    assert model.q_names == (jn,)
    # messages quote long names, shortened
    with pytest.raises(URDFError) as info:
        urdf2dyn.load(robot(link(la) + link(la)))
    assert "duplicate link" in str(info.value) and len(str(info.value)) < 600
    with pytest.raises(URDFError) as info:
        urdf2dyn.load(robot(link(la) + joint(jn, la, "c" * 4000)))
    assert "no such link" in str(info.value) and len(str(info.value)) < 600


def test_single_link_robot_every_function():
    model = urdf2dyn.load(robot(link("only")))
    z = np.zeros((3, 0))
    assert model.mass_matrix(z).shape == (3, 0, 0)
    assert model.forward_dynamics(z, z, z).shape == (3, 0)
    pos, rot = model.forward_kinematics(z)
    assert pos.shape == (3, 1, 3) and rot.shape == (3, 1, 3, 3)
    np.testing.assert_array_equal(rot[0, 0], np.eye(3))


# ---- arrays: layouts, NaN, quaternions ------------------------------------------------------

@pytest.fixture(scope="module")
def arm():
    return urdf2dyn.load(ARM7)


@pytest.fixture(scope="module")
def floating():
    """A small tree with inertia everywhere, on a floating base (forward dynamics regular)."""
    text = robot(link("base") + link("a") + link("b") + link("c")
                 + joint("j1", "base", "a") + joint("j2", "a", "b", "prismatic",
                                                    '<axis xyz="1 0 0"/>')
                 + joint("j3", "base", "c", "continuous", '<axis xyz="0.6 0 0.8"/>'))
    return urdf2dyn.load(text, floating_base=True)


def states(model, n, seed=0):
    rng = np.random.default_rng(seed)
    q = rng.uniform(-1.5, 1.5, (n, model.nq))
    if model.floating_base:
        q[:, 3:7] /= np.linalg.norm(q[:, 3:7], axis=1, keepdims=True)
    return q, rng.normal(size=(n, model.nv)), rng.normal(size=(n, model.nv))


# name -> f(model, q, v, a) returning an array or a tuple of arrays
FUNCTIONS = {
    "mass_matrix": lambda m, q, v, a: m.mass_matrix(q),
    "nonlinear_effects": lambda m, q, v, a: m.nonlinear_effects(q, v),
    "gravity_torques": lambda m, q, v, a: m.gravity_torques(q),
    "coriolis_matrix": lambda m, q, v, a: m.coriolis_matrix(q, v),
    "forward_dynamics": lambda m, q, v, a: m.forward_dynamics(q, v, a),
    "forward_kinematics": lambda m, q, v, a: m.forward_kinematics(q),
    "jacobian": lambda m, q, v, a: m.jacobian(q, m.link_names[-1], point=[0.1, 0, 0]),
    "kinetic_energy": lambda m, q, v, a: m.kinetic_energy(q, v),
    "integrate": lambda m, q, v, a: m.integrate(q, v, 0.01),
}


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_layouts_and_dtypes(arm, name):
    """Fortran order, negative and non-unit strides, read-only, big-endian and float32
    inputs give exactly the results of C-contiguous float64 (float32: of its float64 copy)."""
    f = FUNCTIONS[name]
    q, v, a = states(arm, 5, seed=1)
    expected = as_tuple(f(arm, q, v, a))
    wide = np.zeros((5, 2 * arm.nq))
    wide[:, ::2] = q
    flipped = q[::-1].copy()[::-1]
    readonly = q.copy()
    readonly.flags.writeable = False
    for qq in (np.asfortranarray(q), wide[:, ::2], flipped, readonly, q.astype(">f8")):
        got = as_tuple(f(arm, qq, np.asfortranarray(v), a[::-1][::-1]))
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)
            assert g.dtype == np.float64 and g.flags.c_contiguous and g.flags.writeable
    q32 = q.astype(np.float32)
    for g, e in zip(as_tuple(f(arm, q32, v, a)), as_tuple(f(arm, q32.astype(float), v, a))):
        np.testing.assert_array_equal(g, e)
    assert not np.shares_memory(as_tuple(f(arm, q, v, a))[0], q)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_long_double_and_out_of_memory(arm, name):
    """np.longdouble is a real dtype and converts as float32 does (it was refused as 'expected
    an array of real numbers'); a batch too large to copy raises MemoryError naming the
    argument, not a TypeError saying it holds no real numbers."""
    f = FUNCTIONS[name]
    q, v, a = states(arm, 5, seed=1)
    q_long = q.astype(np.longdouble)
    for g, e in zip(as_tuple(f(arm, q_long, v, a)), as_tuple(f(arm, q_long.astype(float), v, a))):
        np.testing.assert_array_equal(g, e)
    huge = np.broadcast_to(np.float32(0.5), (1 << 40, arm.nq))    # 56 TiB as float64
    with pytest.raises(MemoryError) as info:
        f(arm, huge, v[0], a[0])
    assert "allocate" in str(info.value)


def test_long_double_state_and_gravity(arm):
    """The core's own conversions (simulate's state, gravity) take np.longdouble too."""
    q0 = np.full(arm.nq, 0.25, dtype=np.longdouble)
    tau = np.ones((3, arm.nv), dtype=np.longdouble)
    for g, e in zip(urdf2dyn.simulate(arm, q0, 0 * q0, tau, 0.01),
                    urdf2dyn.simulate(arm, q0.astype(float), 0 * q0.astype(float),
                                      tau.astype(float), 0.01)):
        np.testing.assert_array_equal(g, e)
    model = urdf2dyn.load(arm._xml)
    model.gravity = np.array([0, -9.81, 0], dtype=np.longdouble)
    assert model.gravity.tolist() == [0, -9.81, 0]


@pytest.mark.parametrize("gravity", [(1e200, 0, 0), (1e154, -1e154, 0), (0, 0, -1e308)])
def test_gravity_whose_length_overflows_is_refused_in_words(arm, gravity):
    """model.gravity = (1e200, 0, 0) was taken: its length, which the analyses take (the
    direction up, a body weight, OpenSim's gravity), overflowed downstream. No physical
    gravity is that long: refused naming gravity and what to give, the model unchanged."""
    model = urdf2dyn.load(arm._xml)
    before = model.gravity.tolist()
    with pytest.raises(ValueError, match=r"^gravity: \(.*\) m/s\^2: its length overflows "
                                         r"\(components past ~1e154 m/s\^2\); give "):
        model.gravity = gravity
    assert model.gravity.tolist() == before
    model.gravity = (1e154, 0, -1e-300)             # long, yet its length is finite
    assert model.gravity.tolist() == [1e154, 0, -1e-300]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_zero_samples(arm, name):
    q, v, a = (np.zeros((0, arm.nq)),) * 3
    for g in as_tuple(FUNCTIONS[name](arm, q, v, a)):
        assert g.shape[0] == 0


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_nan_stays_in_its_sample(arm, name):
    q, v, a = states(arm, 4, seed=2)
    q[2, 3] = np.nan
    for g in as_tuple(FUNCTIONS[name](arm, q, v, a)):
        rows = g.reshape(4, -1)
        assert np.all(np.isfinite(rows[[0, 1, 3]])), name
        if name != "integrate":
            assert np.any(np.isnan(rows[2])), name
        else:
            assert np.isnan(rows[2, 3]) and np.isfinite(np.delete(rows[2], 3)).all()


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_unnormalized_quaternion_is_normalized(floating, name):
    f = FUNCTIONS[name]
    q, v, a = states(floating, 3, seed=3)
    scaled = q.copy()
    scaled[:, 3:7] *= np.array([[0.01], [7.0], [123.0]])
    for g, e in zip(as_tuple(f(floating, scaled, v, a)), as_tuple(f(floating, q, v, a))):
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("bad", [(0.0, 0.0, 0.0, 0.0), (0.0, np.inf, 0.0, 1.0)],
                         ids=["zero", "infinite"])
def test_zero_or_infinite_quaternion_is_an_error(floating, name, bad):
    q, v, a = states(floating, 4, seed=4)
    q[3, 3:7] = bad
    q[1, 3:7] = bad
    with pytest.raises(ValueError) as info:
        FUNCTIONS[name](floating, q, v, a)
    for word in ("q: sample 1", "root_joint", "zero or infinite norm"):
        assert word in str(info.value)


def test_nan_quaternion_gives_nan_not_an_error(floating):
    q, v, a = states(floating, 3, seed=5)
    q[1, 4] = np.nan
    tau = floating.inverse_dynamics(q, v, a)
    assert np.all(np.isnan(tau[1])) and np.all(np.isfinite(tau[[0, 2]]))


# ---- concurrency ------------------------------------------------------------------------------

def in_threads(work, n):
    """Run work(k) for k < n, each on its own thread, and wait for all."""
    threads = [threading.Thread(target=work, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_one_model_many_python_threads_every_function(arm):
    """8 Python threads share one Model, each running a different mix of functions on large
    batches (the GIL is released inside); results are bit-identical to a serial run."""
    q, v, a = states(arm, 2000, seed=6)
    jobs = [(name, FUNCTIONS[name]) for name in sorted(FUNCTIONS)]
    serial = {name: as_tuple(f(arm, q, v, a)) for name, f in jobs}
    results, errors = {}, []

    def work(k):
        try:
            for name, f in jobs[k % len(jobs):] + jobs[:k % len(jobs)]:
                results[(k, name)] = as_tuple(f(arm, q, v, a))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    in_threads(work, 8)
    assert not errors, errors
    for (k, name), got in results.items():
        for g, e in zip(got, serial[name]):
            assert np.array_equal(g, e), (k, name)
    assert len(results) == 8 * len(jobs)


def test_loading_from_many_threads():
    with open(ARM7) as f:
        text = f.read()
    models, errors = [None] * 8, []

    def work(k):
        try:
            models[k] = urdf2dyn.load(text, floating_base=bool(k % 2))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    in_threads(work, 8)
    assert not errors, errors
    q = np.full(7, 0.3)
    assert all(np.array_equal(m.mass_matrix(np.r_[[0, 0, 0, 0, 0, 0, 1], q] if m.floating_base
                                            else q),
                              models[k % 2].mass_matrix(np.r_[[0, 0, 0, 0, 0, 0, 1], q]
                                                        if m.floating_base else q))
               for k, m in enumerate(models))


# ---- memory -----------------------------------------------------------------------------------

def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


needs_statm = pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                                 reason="needs Linux /proc/self/statm")


@needs_statm
def test_many_single_sample_calls_do_not_grow_memory(arm):
    q, v, a = states(arm, 1, seed=7)
    q, v, a = q[0], v[0], a[0]
    for _ in range(2000):                       # warm up caches and allocators
        arm.inverse_dynamics(q, v, a)
    gc.collect()
    before = rss_bytes()
    for _ in range(200_000):
        arm.inverse_dynamics(q, v, a)
    gc.collect()
    assert rss_bytes() - before < 20 * 2**20


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def malloc_in_use():
    """The bytes malloc has handed out and not had back (glibc's mallinfo2: in chunks and in
    mmapped blocks, every arena), None without glibc's mallinfo2."""
    try:
        f = ctypes.CDLL(None).mallinfo2
    except (AttributeError, OSError, TypeError):
        return None
    f.restype = _Mallinfo2
    m = f()
    return m.uordblks + m.hblkhd


@needs_statm
@pytest.mark.skipif(malloc_in_use() is None, reason="needs glibc's mallinfo2")
def test_failing_calls_do_not_leak(floating):
    """Each of three failing paths (a zero quaternion, a wrong width, one sample against N)
    taken N times in each of two rounds after a warm-up: in the second round the bytes malloc
    has out and RSS grow by less than N x 16 bytes and the Python blocks alive by less than
    N / 4, so 64 bytes (a short message string) or an object kept per failing call by any one
    path shows. malloc's count is the one a freed and reused heap cannot hide (RSS does not
    grow while a leak is served from pages freed earlier)."""
    q, v, a = states(floating, 1, seed=8)
    q[0, 3:7] = 0.0
    n, grown = 10_000, []
    for rounds in (2000, n, n):
        gc.collect()
        before = (malloc_in_use(), sys.getallocatedblocks(), rss_bytes())
        for _ in range(rounds):
            for bad in ((q, v, a), (q[:, :5], v, a), (q[0], v, a)):
                with pytest.raises(ValueError):
                    floating.inverse_dynamics(*bad)
        gc.collect()
        after = (malloc_in_use(), sys.getallocatedblocks(), rss_bytes())
        grown.append([x - y for x, y in zip(after, before)])
    heap, blocks, rss = grown[2]
    assert heap < n * 16 and blocks < n // 4 and rss < n * 16, grown


@needs_statm
def test_deleting_models_frees_them():
    with open(ARM7) as f:
        text = f.read()
    for _ in range(200):                        # warm up
        urdf2dyn.load(text)
    gc.collect()
    before = rss_bytes()
    for k in range(3000):
        m = urdf2dyn.load(text, floating_base=bool(k % 2))
        m.mass_matrix(m.neutral())
        del m
    gc.collect()
    assert rss_bytes() - before < 10 * 2**20


# ---- the process's locale ----------------------------------------------------------------

def _comma_locale(tmp_path):
    """Environment of a process that can set a locale whose decimal point is a comma (as a
    German desktop's, which a Qt application or locale.setlocale(LC_ALL, "") puts in force):
    (locale name, environment), or None. Made with localedef when none is installed."""
    probe = ("import locale, sys\n"
             "try:\n    locale.setlocale(locale.LC_ALL, sys.argv[1])\n"
             "except locale.Error:\n    sys.exit(1)\n"
             "sys.exit(locale.localeconv()['decimal_point'] != ',')\n")
    env = dict(os.environ)
    for name in ("de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"):
        if subprocess.run([sys.executable, "-c", probe, name], env=env).returncode == 0:
            return name, env
    localedef = "/usr/bin/localedef"
    if os.path.exists(localedef) and os.path.exists("/usr/share/i18n/locales/de_DE"):
        where = tmp_path / "locales"
        where.mkdir()
        subprocess.run([localedef, "-i", "de_DE", "-f", "UTF-8", str(where / "de_DE.UTF-8")],
                       capture_output=True)
        env["LOCPATH"] = str(where)
        if subprocess.run([sys.executable, "-c", probe, "de_DE.UTF-8"], env=env).returncode == 0:
            return "de_DE.UTF-8", env
    return None


def test_numbers_read_and_written_whatever_the_locale(tmp_path):
    """Under a locale whose decimal point is a comma, a URDF, an MJCF with an OBJ mesh and
    an .osim read the same numbers as in the C locale (strtod alone reads '0.5' as 0 there,
    and every model failed to load), and an .osim edit writes '1.25', not '1,25'."""
    found = _comma_locale(tmp_path)
    if found is None:
        pytest.skip("no locale with a decimal comma can be set here")
    name, env = found
    (tmp_path / "tet.obj").write_text("v 0.5 0 0\nv 0 0.25 0\nv 0 0 0.75\nv 0 0 0\n"
                                      "f 1 2 3\nf 1 4 2\nf 1 3 4\nf 2 4 3\n")
    (tmp_path / "tet.xml").write_text(
        '<mujoco><asset><mesh name="t" file="tet.obj"/></asset><worldbody>'
        '<body name="b" pos="0.1 0.2 0.3"><joint axis="0.6 0.8 0"/>'
        '<geom type="mesh" mesh="t" density="1000.5"/></body></worldbody></mujoco>')
    osim = os.path.join(os.path.dirname(__file__), "data", "opensim_models", "Models",
                        "gait10dof18musc.osim")
    code = textwrap.dedent(f"""
        import locale, sys, warnings
        import numpy as np
        import urdf2dyn
        from urdf2dyn.biomech.formats.osim import OsimEdit
        # the three load silently in the C locale: a warning in another locale is a number
        # it misread
        warnings.simplefilter("error", urdf2dyn.Urdf2dynWarning)
        if sys.argv[1] != "C":
            locale.setlocale(locale.LC_ALL, sys.argv[1])
        out = []
        for path in ({urdf2dyn.data_path("arm7.urdf")!r}, {str(tmp_path / "tet.xml")!r},
                     {osim!r}):
            m = urdf2dyn.load(path)
            q = np.linspace(0.1, 0.9, m.nq)
            out += [m.inertial_parameters(), m.mass_matrix(q).ravel()]
        edit = OsimEdit(m)
        edit.body("pelvis", mass=1.25)
        text = edit.text()
        print("1.25</mass>" in text, "1,25" in text)
        np.save(sys.argv[2], np.concatenate(out))
        """)
    runs = {}
    for loc in ("C", name):
        # cwd: not the source tree, whose urdf2dyn has no built core where CI installs it
        proc = subprocess.run([sys.executable, "-c", code, loc, str(tmp_path / f"{loc}.npy")],
                              capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
        assert proc.returncode == 0, f"{loc}:\n{proc.stdout}\n{proc.stderr}"
        assert proc.stdout.split() == ["True", "False"], (loc, proc.stdout)
        runs[loc] = np.load(tmp_path / f"{loc}.npy")
    assert np.array_equal(runs["C"], runs[name])


@pytest.mark.parametrize("given", ["path", "pathlib", "missing"])
def test_model_given_a_path_points_to_load(tmp_path, given):
    """urdf2dyn.Model takes the XML text (urdf2dyn.load reads files): a new user who passes
    it a path was told 'no <robot> element' (a str) or 'a bytes-like object is required, not
    PosixPath' (a Path); now the message names the argument and says to call load."""
    path = tmp_path / "two.urdf"
    path.write_text(TWO)
    arg = {"path": str(path), "pathlib": path, "missing": "robot.urdf"}[given]
    exc = TypeError if given == "pathlib" else URDFError
    with pytest.raises(exc) as info:
        urdf2dyn.Model(arg)
    msg = str(info.value)
    assert msg.startswith("Model: xml_text: "), msg
    assert "urdf2dyn.load(" in msg, msg
    if given == "missing":
        assert "'robot.urdf' looks like the name of a file (and there is no such file)" in msg
    else:
        assert f"the path of a file ({str(path)!r})" in msg, msg
    assert urdf2dyn.Model(" \n" + TWO).nq == 1        # the text itself, as before
    with pytest.raises(URDFError, match="^no <robot> element$"):    # words: the core's say
        urdf2dyn.Model("two links and a joint")
