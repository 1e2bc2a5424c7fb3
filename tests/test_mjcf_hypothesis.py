"""Hypothesis-drawn MJCF documents: random trees of bodies with every joint type, orientation
form, geom type and default class, with armature on some joints (given, or from the class),
springs and damping (MuJoCo 4's polynomial terms, springdamper, springyield: given, or from
the class), actuators with MuJoCo 4's armature and damping on their joints (given, or from
their class), sites and cameras. Whatever is drawn either loads or is refused with a URDFError
(never another exception, never a crash), refused exactly where MuJoCo refuses it; and where
MuJoCo compiles the same document, urdf2dyn's dynamics and passive forces equal MuJoCo's."""
import os
import re
import shutil
import tempfile
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

import mjcf_oracle as oracle
import urdf2dyn
from test_cli_hypothesis import run_cli
from test_mjcf import _assert_body_inertia_is_mujocos
from text_edits import edited
from cli_here import working_in

mujoco = oracle.mujoco

num = st.floats(-2, 2, allow_nan=False, width=32).map(lambda x: f"{x:.3g}")
pos = st.tuples(num, num, num).map(" ".join)
positive = st.floats(0.02, 0.5, allow_nan=False).map(lambda x: f"{x:.3g}")
axis = st.tuples(num, num, num).map(lambda v: " ".join(v) if any(map(float, v)) else "0 0 1")
# within about 1e-6 of zero, on either side of MuJoCo's 1e-6 under which an inertial frame
# is the body's (body_sameframe)
tiny = st.integers(-15, 15).map(lambda k: f"{k * 1e-7:.1g}")
near_origin = st.tuples(tiny, tiny, tiny).map(" ".join)
near_identity = st.tuples(tiny, tiny, tiny).map(lambda v: f' quat="1 {" ".join(v)}"')


@st.composite
def orientation(draw):
    kind = draw(st.sampled_from(["", "quat", "axisangle", "euler", "xyaxes", "zaxis"]))
    if kind == "quat":
        q = draw(st.tuples(num, num, num, num).map(" ".join))
        # not a quaternion of norm below 1e-7 ("1e-08 0 9.82e-20 0"): MuJoCo's compiler
        # leaves it unnormalized (mjuu_normvec's 1e-14 on the squared norm) and its
        # kinematics turns a body's joint axes by it unnormalized but the body normalized;
        # urdf2dyn refuses such a body, which MuJoCo compiles (tests/test_mjcf.py,
        # test_quaternion_of_norm_below_1e7_is_mujocos_or_refused, draws them one by one)
        if 0 < sum(float(x) ** 2 for x in q.split()) < 1e-14:     # "0 0 0 0" is refused
            q = "1 0 0 0"
        return f' quat="{q}"'
    if kind == "axisangle":
        return f' axisangle="{draw(pos)} {draw(num)}"'
    if kind == "euler":
        return f' euler="{draw(pos)}"'
    if kind == "xyaxes":
        return f' xyaxes="{draw(pos)} {draw(pos)}"'
    if kind == "zaxis":
        return f' zaxis="{draw(pos)}"'
    return ""


@st.composite
def geom(draw):
    t = draw(st.sampled_from(["sphere", "capsule", "cylinder", "box", "ellipsoid"]))
    size = " ".join(draw(st.lists(positive, min_size=3, max_size=3)))
    extra = draw(st.sampled_from(["", ' shellinertia="true"', ' mass="0.7"', ' density="300"',
                                  ' group="4"', ' class="c"']))
    if t != "sphere" and draw(st.booleans()):
        return f'<geom type="{t}" size="{size}" fromto="{draw(pos)} {draw(pos)}"{extra}/>'
    at = draw(st.one_of(pos, near_origin))
    return (f'<geom type="{t}" size="{size}" pos="{at}"'
            f'{draw(st.one_of(orientation(), near_identity))}{extra}/>')


# orientations MuJoCo's compiler cannot resolve (it refuses them on any site or camera)
DEGENERATE = [' axisangle="0 0 0 30"', ' xyaxes="1 0 0 2 0 0"', ' xyaxes="0 0 0 0 1 0"',
              ' zaxis="0 0 0"']


@st.composite
def marker(draw, compiles):
    """A site or a camera: no mass, but its orientation is resolved (a degenerate one drawn
    where documents need not compile)."""
    tag = draw(st.sampled_from(["site", "camera"]))
    bad = st.sampled_from(DEGENERATE) if not compiles else st.nothing()
    return f'<{tag} pos="{draw(pos)}"{draw(st.one_of(orientation(), bad))}/>'


@st.composite
def passive(draw, kind, compiles):
    """A joint's springs and damping: up to three of damping and stiffness of one to three
    terms, springref, springdamper and springyield; where documents need not compile, the
    values MuJoCo refuses too (a non-positive springdamper, a negative springyield or one on
    a free joint)."""
    terms = st.lists(num, min_size=1, max_size=3).map(" ".join)
    damper = st.tuples(positive, positive).map(" ".join)
    options = [st.just(""), terms.map(lambda t: f' damping="{t}"'),
               terms.map(lambda t: f' stiffness="{t}"'), num.map(lambda x: f' springref="{x}"'),
               damper.map(lambda t: f' springdamper="{t}"')]
    if kind != "free" or not compiles:
        options.append(positive.map(lambda x: f' springyield="{x}"'))
    if not compiles:
        options.append(st.sampled_from([' springdamper="0 1"', ' springdamper="-1 0.5"',
                                        ' springyield="-1"']))
    chosen = draw(st.lists(st.one_of(options), max_size=3))
    names = [c.split("=")[0] for c in chosen]
    return "".join(c for k, c in enumerate(chosen) if c and names[k] not in names[:k])


@st.composite
def joints(draw, top, compiles):
    if compiles:                # what MuJoCo compiles: hinges and slides, then at most one
        kinds = draw(st.lists(st.sampled_from(["hinge", "slide"]), max_size=3))   # ball;
        kinds += ["ball"] if draw(st.booleans()) else []                          # a free
        kinds = ["free"] if top and draw(st.integers(0, 3)) == 0 else kinds       # joint alone
    else:                       # anything, refused where MuJoCo refuses it
        kinds = draw(st.lists(st.sampled_from(["hinge", "slide", "ball", "free"]), max_size=3))
    out = []
    for k in kinds:
        extra = draw(st.sampled_from(["", f' ref="{draw(num)}"', f' pos="{draw(pos)}"',
                                      ' class="c"', ' range="-30 40"', ' range="40 -30"',
                                      f' armature="{draw(positive)}"']))
        if compiles and k == "ball" and "range" in extra:     # a ball's range starts at 0
            extra = ' range="0 40"'
        if k == "free" and top and draw(st.booleans()):
            out.append("<freejoint/>")
        else:
            out.append(f'<joint type="{k}" axis="{draw(axis if compiles else pos)}"{extra}'
                       f'{draw(passive(k, compiles))}/>')
    return "".join(out)


@st.composite
def body(draw, depth, compiles):
    kids = draw(st.integers(0, 2)) if depth < 3 else 0
    inner = draw(joints(depth == 0, compiles))
    inner += "".join(draw(st.lists(geom(), min_size=int(compiles), max_size=2)))   # a mass
    inner += "".join(draw(st.lists(marker(compiles), max_size=1)))
    if draw(st.booleans()):     # an inertia MuJoCo refuses below mjMINVAL where not compiling
        diag = draw(st.sampled_from(["0.01 0.012 0.015"] if compiles else
                                    ["0.01 0.012 0.015", "0 0.012 0.015", "1e-16 0.01 0.01"]))
        # a full inertia near a diagonal one, its principal axes near the body's or not
        full = f"{draw(st.sampled_from(['0.015 0.012 0.01', '0.01 0.012 0.015']))} {draw(pos)}"
        full = " ".join(full.split()[:3] + [f"{float(x) * 1e-5:.3g}" for x in full.split()[3:]])
        inertia = draw(st.one_of(st.just(f'diaginertia="{diag}"{draw(orientation())}'),
                                 near_identity.map(lambda q: f'diaginertia="{diag}"{q}'),
                                 st.just(f'fullinertia="{full}"')))
        inner += (f'<inertial pos="{draw(st.one_of(pos, near_origin))}" '
                  f'mass="{draw(positive)}" {inertia}/>')
    inner += "".join(draw(body(depth + 1, compiles)) for _ in range(kids))
    if draw(st.booleans()):
        inner = f'<frame pos="{draw(pos)}"{draw(orientation())}>{inner}</frame>'
    cc = draw(st.sampled_from(["", ' childclass="c"']))
    return f'<body pos="{draw(pos)}"{draw(orientation())}{cc}>{inner}</body>'


@st.composite
def document(draw):
    angle = draw(st.sampled_from(["degree", "radian"]))
    seq = draw(st.sampled_from(["xyz", "zyx", "XYZ", "zYx"]))
    fromgeom = draw(st.sampled_from(["auto", "true"]))
    # every body as MuJoCo compiles it (its joints, their axes and ranges, a geom for its
    # mass), or with joints of any kinds, half the time each (drawn body by body, a document
    # of 3 or more bodies nearly always had one that MuJoCo refuses: 13 of the 80
    # derandomized examples reached the comparison)
    compiles = draw(st.booleans())
    bodies = "".join(draw(st.lists(body(0, compiles), min_size=1, max_size=2)))
    bodies, njoint = named_joints(bodies)
    motors = "".join(draw(st.lists(actuator(njoint, compiles), max_size=4)))
    return (f'<mujoco><compiler angle="{angle}" eulerseq="{seq}" inertiafromgeom="{fromgeom}"/>'
            '<default><default class="c"><joint axis="0 1 0" ref="5" armature="0.05" '
            'damping="0.3 0.1 0.02" stiffness="2 -0.5 0.4"/>'
            '<geom size="0.1 0.2 0.05" euler="10 0 20"/></default>'
            '<default class="a"><general gear="-1.5" armature="0.1" damping="0.2 0.05"/>'
            '<default class="b"><motor damping="0.4"/></default></default></default>'
            f"<worldbody>{bodies}</worldbody><actuator>{motors}</actuator></mujoco>")


def named_joints(bodies):
    """The bodies' joints named j0, j1, ... in document order (actuators name them), and
    how many there are."""
    count = iter(range(1 << 30))
    named = re.sub(r"<(freejoint|joint)\b", lambda m: f'<{m.group(1)} name="j{next(count)}"',
                   bodies)
    return named, next(count)


@st.composite
def actuator(draw, njoint, compiles):
    """An actuator on a joint (joint= or jointinparent=) with MuJoCo 4's armature and
    damping="linear v|v| v^2" and a gear (negative, zero, non-unit), given or from the
    classes a and b; where documents need not compile, one on a joint, tendon, site or body
    that is not there."""
    if njoint == 0 and compiles:
        return ""
    if not compiles and draw(st.integers(0, 4)) == 0:
        return f'<general {draw(st.sampled_from(["tendon", "site", "body"]))}="nowhere"/>'
    kind = draw(st.sampled_from(["general", "motor", 'position kp="5"', 'velocity kv="2"']))
    target = f"j{draw(st.integers(0, njoint - 1))}" if njoint else "nowhere"
    if not compiles and draw(st.integers(0, 3)) == 0:
        target = "nowhere"
    trn = draw(st.sampled_from(["joint", "jointinparent"]))
    terms = st.lists(num, min_size=1, max_size=3).map(" ".join)
    attrs = draw(st.lists(st.one_of(terms.map(lambda t: f' damping="{t}"'),
                                    positive.map(lambda x: f' armature="{x}"'),
                                    num.map(lambda x: f' gear="{x}"'),
                                    st.sampled_from([' class="a"', ' class="b"'])),
                          max_size=3))
    names = [a.split("=")[0] for a in attrs]
    attrs = "".join(a for k, a in enumerate(attrs) if names[k] not in names[:k])
    return f'<{kind} {trn}="{target}"{attrs}/>'


# (the oracle's own warning: MuJoCo's compiler on what the documents draw)
@pytest.mark.filterwarnings("ignore:Inertia matrix is too close to singular:UserWarning")
@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(document())
def test_random_documents_load_or_refuse_and_match_mujoco(xml):
    try:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always", urdf2dyn.URDFWarning)
            model = urdf2dyn.load(xml)
    except urdf2dyn.URDFError:
        model = None
    try:
        m = oracle.mujoco_model(xml=xml)
    except ValueError:
        m = None
    # refused exactly where MuJoCo refuses (urdf2dyn loaded massless moving bodies, ball
    # joints' ranges and sites' orientations MuJoCo refuses)
    assert (model is None) == (m is None), (model is None, xml)
    if model is None:
        return
    if model.nv == 0 or oracle.moving_mass(m) == 0:
        return
    if m.actuator_armature.any() or m.actuator_damping.any() or m.actuator_dampingpoly.any():
        event("actuators with armature or damping compared")
    e_tau, e_M = oracle.compare(model, m, n=3)
    assert e_tau < 1e-9 and e_M < 1e-9, (e_tau, e_M, xml)
    assert_passive_is_mujocos(model, xml, [str(w.message) for w in said])


def assert_passive_is_mujocos(model, xml, said):
    """passive_forces equals MuJoCo's qfrc_spring + qfrc_damper at three random states,
    quaternions scaled off unit (MuJoCo compiled with the free joints' armature, with which
    it sizes springdampers), to 1e-9 of each state's largest force (a springdamper is sized
    by M^-1, as exact as M's conditioning allows); but for the slides whose springdamper
    MuJoCo sizes without their armature (body_simple 2), which the loader must then have
    named, and for springdampers on a singular mass matrix, which it names too."""
    if any("mass matrix at qpos0 is singular" in w for w in said):
        event("springdamper on a singular mass matrix")
        return
    m = oracle.mujoco_model(xml=xml, free_armature=True)
    q, v, _ = oracle.random_states(model, 3, seed=1)
    q = oracle.scaled_quaternions(model, q, seed=1)
    expected = oracle.mujoco_passive(m, model, q, v)
    compared = np.ones(model.nv, bool)
    for j in range(m.njnt):
        if m.body_simple[m.jnt_bodyid[j]] == 2 and m.dof_armature[m.jnt_dofadr[j]] != 0:
            compared[m.jnt_dofadr[j]] = not any("springdamper with armature" in w for w in said)
    event("passive forces compared" if np.abs(expected).max() > 0 else "no passive forces")
    got = model.passive_forces(q, v)[:, compared]
    scale = np.maximum(np.abs(expected).max(axis=1, keepdims=True), 1.0)
    assert (np.abs(got - expected[:, compared]) <= 1e-9 * scale).all(), xml


# ---------------------------------------------------------------- damaged public models

MJCF_DAMAGE = ['<include file="scene.xml"/>', '<include file="nowhere.xml"/>',
               '<include file="../../../../etc/passwd"/>', ' class="nope"', ' childclass="x"',
               "<freejoint/>", '<joint type="ball"/>', '<joint type="bogus"/>',
               ' quat="0 0 0 0"', ' mass="-1"', ' mass="nan"', ' diaginertia="1 1 5"',
               "<body>", "</body>", '<geom type="mesh" mesh="x"/>', ' fromto="0 0 0 0 0 0"',
               '<frame euler="90 0 0">', "</frame>", "<default>", '<inertial mass="1"/>',
               ' size="-1"', "1e400", "nan", "<", ">", '"', "&amp;", "\x00", "\ufeff", "é"]


def damaged(text):
    """A real model's text with a few edits of the kinds a hand-edited MJCF file has."""
    return edited(text, st.one_of(st.sampled_from(MJCF_DAMAGE), st.text(max_size=8)),
                  kinds=("delete", "insert", "duplicate", "truncate", "number"),
                  numbers=["0.1", "1", "0", "0.5", "-1"],
                  new_numbers=st.sampled_from(["-0", "1e308", "-1e-320", "inf", "2e", "0x1p3",
                                               "1 2", ""]),
                  edits=3, span=60)


#: a decimal number of an attribute's value, alone or among others (not a part of a name,
#: nor an integer: class counts, flags and contact bits stay as they are)
NUMBER = re.compile(r'(?<=["\s])-?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?(?=["\s])')


@st.composite
def varied(draw, text):
    """A real model's text with one to three of its numbers (masses, sizes, positions,
    ranges, ...) multiplied by a factor near one: a model that MuJoCo most often compiles
    too, of other values than the published one."""
    spans = [m.span() for m in NUMBER.finditer(text)]
    picks = {draw(st.sampled_from(spans)) for _ in range(draw(st.integers(1, 3)))}
    for i, j in sorted(picks, reverse=True):         # from the end: the spans stay valid
        factor = draw(st.floats(0.5, 2))
        text = text[:i] + repr(float(text[i:j]) * factor) + text[j:]
    return text


GO2 = os.path.join(oracle.MJCF, "menagerie", "unitree_go2")
CHEETAH = os.path.join(oracle.MJCF, "dm_control")


def copy_model(folder, tmp):
    shutil.copytree(folder, tmp, dirs_exist_ok=True)
    return tmp


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(which=st.sampled_from([("go2.xml", GO2, "scene.xml"), ("scene.xml", GO2, "scene.xml"),
                              ("cheetah.xml", CHEETAH, "cheetah.xml")]), data=st.data())
def test_damaged_public_models_load_or_are_refused_and_match_mujoco(which, data):
    """Edited text of the vendored models (the included file, the including one), with
    other values (numbers scaled: most often a model MuJoCo compiles too) or damaged: a
    model or a URDFError naming what is wrong, never another exception; where MuJoCo
    compiles the same edited files, the same dynamics."""
    edited, folder, top = which
    with tempfile.TemporaryDirectory() as tmp:
        copy_model(folder, tmp)
        path = os.path.join(tmp, edited)
        with open(path, encoding="utf-8") as f:
            original = f.read()
        text = data.draw(st.one_of(varied(original), damaged(original)), label="text")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                model = urdf2dyn.load(os.path.join(tmp, top))
            except urdf2dyn.URDFError as e:
                assert str(e).strip()
                event("refused")
                return
        try:
            m = oracle.mujoco_model(os.path.join(tmp, top))
        except (ValueError, AssertionError):
            m = None
        q = model.neutral()
        assert model.inverse_dynamics(q, np.zeros(model.nv), np.zeros(model.nv)).shape \
            == (model.nv,)
        if m is None or model.nv == 0 or (model.nq, model.nv) != (m.nq, m.nv):
            return
        with np.errstate(all="ignore"):
            e_tau, e_M = oracle.compare(model, m, n=2)
        if np.isfinite(e_tau) and np.isfinite(e_M):
            event("compared with MuJoCo")
            assert e_tau < 1e-9 and e_M < 1e-9, (e_tau, e_M, text)


# ---------------------------------------------------------------- the command line on MJCF

@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(),
       command=st.sampled_from(["info", "check", "torques", "codegen"]),
       flags=st.lists(st.sampled_from([["--floating-base"], ["--strict"], ["--full"],
                                       ["--degrees"], ["--per-kg"], ["--filter", "6"],
                                       ["--derivatives", "spline"], ["--gravity", "0", "0", "0"],
                                       ["--lang", "c"]]), max_size=2))
def test_command_line_on_damaged_mjcf_never_traces_back(data, command, flags):
    """urdf2dyn info / check / torques / codegen on an edited cheetah.xml: a result or an
    ``error:`` line, never a traceback, the input files unchanged."""
    with tempfile.TemporaryDirectory() as tmp:
        copy_model(CHEETAH, tmp)
        path = os.path.join(tmp, "cheetah.xml")
        with open(path, encoding="utf-8") as f:
            original = f.read()
        text = data.draw(st.one_of(st.just(original), damaged(original)), label="text")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
        names = oracle.load_quiet(os.path.join(CHEETAH, "cheetah.xml")).q_names
        t = np.linspace(0, 0.4, 41)
        motion = os.path.join(tmp, "run.csv")
        np.savetxt(motion, np.column_stack([t, 0.3 * np.sin(np.outer(t, np.arange(1, 10)))]),
                   delimiter=",", header=",".join(["time", *names]), comments="")
        argv = [command, path]
        if command == "torques":
            argv += [motion, "-o", os.path.join(tmp, "tau.csv"), "--no-progress"]
        if command == "codegen":
            argv += ["-o", os.path.join(tmp, "gen")]
        allowed = {"info": ["--floating-base", "--full"], "check": ["--floating-base", "--strict"],
                   "codegen": ["--floating-base", "--lang"],
                   "torques": ["--floating-base", "--strict", "--degrees", "--per-kg", "--filter",
                               "--derivatives", "--gravity"]}[command]
        for f in flags:
            argv += f if f[0] in allowed else []
        with working_in(tmp):
            status, out, err = run_cli(argv, [path, motion])
        if text == original and "--floating-base" not in argv and "--strict" not in argv:
            assert status == 0, err


# ---------------------------------------------------------------- mesh files (STL and OBJ)

#: a 0.2 x 0.1 x 0.3 box: its corners, and its faces as OBJ quads (1-based, outward)
BOX_CORNERS = [(x, y, z) for x in (0, 0.2) for y in (0, 0.1) for z in (0, 0.3)]
BOX_FACES = [(1, 3, 4, 2), (5, 6, 8, 7), (1, 2, 6, 5), (3, 7, 8, 4), (1, 5, 7, 3), (2, 4, 8, 6)]


def _box_obj():
    return ("".join(f"v {x} {y} {z}\n" for x, y, z in BOX_CORNERS) +
            "".join("f " + " ".join(map(str, face)) + "\n" for face in BOX_FACES)).encode()


def _box_stl():
    """The box as a binary STL: an 80-byte header, a triangle count, 50 bytes a triangle."""
    import struct
    triangles = [(face[0], face[k], face[k + 1]) for face in BOX_FACES for k in (1, 2)]
    data = b"\0" * 80 + struct.pack("<I", len(triangles))
    for triangle in triangles:
        data += struct.pack("<3f", 0, 0, 0) + b"".join(
            struct.pack("<3f", *BOX_CORNERS[k - 1]) for k in triangle) + b"\0\0"
    return data


MESH_INSERTS = [b"nan", b"inf", b"-1", b"0", b"1e999", b"f 1 2 99\n", b"f -1 -2 -3\n",
                b"f 0 0 0\n", b"v 1 2\n", b"\n", b"vn 0 0 1\n", b"f 1/1/1 2//2 3\n", b"\xff\xfe",
                b"o x\n", b"\x00", b"f\n", b"v\n", b"f 1 1 1 1 1\n", b"v 1e308 1e308 1e308\n",
                b"solid x\n", b"\r\n", b"\t"]


@st.composite
def damaged_mesh(draw, kind):
    """The box's mesh file with up to three edits: cut short, a byte changed, a token
    inserted (NaN, huge, an index out of range, a bare keyword, binary junk), and for STL
    the triangle count in the header changed (0, off by one, 2^31, 2^32 - 1)."""
    import struct
    data = bytearray(_box_obj() if kind == "obj" else _box_stl())
    for _ in range(draw(st.integers(0, 3))):
        what = draw(st.sampled_from(["cut", "byte", "insert", "count"]))
        if what == "cut":
            data = data[:draw(st.integers(0, len(data)))]
        elif what == "byte" and data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        elif what == "insert":
            k = draw(st.integers(0, len(data)))
            data[k:k] = draw(st.sampled_from(MESH_INSERTS))
        elif what == "count" and kind == "stl" and len(data) >= 84:
            data[80:84] = struct.pack("<I", draw(st.sampled_from(
                [0, 1, 11, 13, 2**31, 2**32 - 1])))
    return bytes(data)


MESH_DOC = ('<mujoco><asset><mesh name="m" file="{file}"/></asset><worldbody><body name="b">'
            '<joint axis="1 0.2 0.3"/><geom type="mesh" mesh="m" density="1000"/></body>'
            '</worldbody></mujoco>')


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["obj", "stl"]), data=st.data())
def test_damaged_mesh_files_are_weighed_as_mujoco_or_refused_by_name(kind, data):
    """A body weighed by its mesh (no <inertial>), the mesh file damaged: urdf2dyn loads the
    model with MuJoCo's mass, centre of mass and principal moments, or refuses it with a
    URDFError naming the mesh file; never where MuJoCo compiles nothing. urdf2dyn info on
    it: a tree or an error line, never a traceback."""
    raw = data.draw(damaged_mesh(kind), label="mesh")
    with tempfile.TemporaryDirectory() as tmp:
        mesh, path = os.path.join(tmp, f"box.{kind}"), os.path.join(tmp, "model.xml")
        with open(mesh, "wb") as f:
            f.write(raw)
        with open(path, "w") as f:
            f.write(MESH_DOC.format(file=f"box.{kind}"))
        try:
            m = mujoco.MjModel.from_xml_path(path)
        except ValueError:
            m = None
        try:
            model = oracle.load_quiet(path)
        except urdf2dyn.URDFError as e:
            event("refused")
            assert f"box.{kind}" in str(e), e
            model = None
        run_cli(["info", path], [path, mesh])
    if model is None:
        return
    assert m is not None, "loaded what MuJoCo refuses"
    event("weighed as MuJoCo")
    _assert_body_inertia_is_mujocos(model, m, "b")
