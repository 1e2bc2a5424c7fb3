"""MJCF number attributes MuJoCo 4's reader checks and urdf2dyn did not read (a geom's rgba=,
an integer group=, a <fixed> tendon joint's coef=, an equality's polycoef=, a sensor's noise=,
<option timestep=...>): MuJoCo refuses a malformed number ("bad format"), too many ("has too
much data") or too few of an exact count ("does not have enough data"), used or not. Each case
runs MuJoCo (the oracle) and urdf2dyn on the same XML; where both load, their mass matrix and
inverse dynamics agree."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjcf_oracle as oracle
from test_mjcf_refusals_parity import assert_as_mujoco, doc, mujoco, mujoco_error, urdf2dyn_error

_SITES = '<site name="s1"/><site name="s2" pos="0 0 1"/>'
_BODY = ('<worldbody><body name="b" pos="0 0 1"><joint name="j" axis="0 1 0"/>'
         '<geom type="capsule" size="0.05" fromto="0 0 0 0.3 0 0"/>' + _SITES +
         '{inside}</body></worldbody>')


def _model(inside="", after="", default=""):
    head = f"<default>{default}</default>" if default else ""
    return doc(head, _BODY.format(inside=inside), after)


# the elements and attributes, {a} standing for the attribute under test
_PLACES = {
    "geom": _model('<geom size="0.1"{a}/>'),
    "site": _model("<site{a}/>"),
    "camera": _model("<camera{a}/>"),
    "light": _model("<light{a}/>"),
    "joint": _model('<body><joint name="k"{a}/><geom size="0.1"/></body>'),
    "default geom": _model(default="<geom{a}/>"),
    "default camera": _model(default="<camera{a}/>"),
    "default tendon": _model(default="<tendon{a}/>"),
    "fixed": _model(after='<tendon><fixed{a}><joint joint="j" coef="1"/></fixed></tendon>'),
    "fixed joint": _model(after='<tendon><fixed><joint joint="j"{a}/></fixed></tendon>'),
    "spatial": _model(after='<tendon><spatial{a}><site site="s1"/><site site="s2"/></spatial>'
                            '</tendon>'),
    "equality joint": _model(after='<equality><joint joint1="j"{a}/></equality>'),
    "equality weld": _model(after='<equality><weld site1="s1" site2="s2"{a}/></equality>'),
    "pair": _model('<geom name="g1" size="0.1"/><geom name="g2" size="0.1"/>',
                   '<contact><pair geom1="g1" geom2="g2"{a}/></contact>'),
    "jointpos": _model(after='<sensor><jointpos joint="j"{a}/></sensor>'),
    "framepos": _model(after='<sensor><framepos objtype="site" objname="s1"{a}/></sensor>'),
    "touch": _model(after='<sensor><touch site="s1"{a}/></sensor>'),
    "option": doc("<option{a}/>", _BODY.format(inside="")),
    "size": doc("<size{a}/>", _BODY.format(inside="")),
    "mesh": _model(after='<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"{a}/></asset>'),
    "material": _model(after='<asset><material name="m"{a}/></asset>'),
}

# the place, the attribute: those MuJoCo 4.0.0 reads as numbers and urdf2dyn does not read
_ATTRIBUTES = [
    ("geom", "rgba"), ("geom", "friction"), ("geom", "group"), ("geom", "condim"),
    ("geom", "contype"), ("geom", "priority"), ("geom", "solref"), ("geom", "solimp"),
    ("geom", "margin"), ("geom", "fluidcoef"), ("geom", "surfacevel"), ("site", "rgba"),
    ("site", "group"), ("site", "pos"), ("camera", "fovy"), ("camera", "resolution"),
    ("camera", "sensorsize"), ("light", "diffuse"), ("light", "dir"), ("joint", "group"),
    ("joint", "margin"), ("joint", "solreflimit"), ("joint", "solimplimit"),
    ("default geom", "rgba"), ("default geom", "friction"), ("default tendon", "width"),
    ("default tendon", "range"), ("fixed", "stiffness"), ("fixed", "springlength"),
    ("fixed", "group"), ("fixed joint", "coef"), ("spatial", "width"), ("spatial", "rgba"),
    ("equality joint", "polycoef"), ("equality joint", "solref"), ("equality weld", "solimp"),
    ("equality weld", "torquescale"), ("pair", "friction"), ("pair", "condim"),
    ("jointpos", "noise"), ("jointpos", "cutoff"), ("jointpos", "nsample"),
    ("jointpos", "interval"), ("framepos", "noise"), ("touch", "delay"),
    ("option", "timestep"), ("option", "wind"), ("option", "iterations"),
    ("option", "o_friction"), ("size", "nuser_geom"), ("mesh", "scale"), ("mesh", "refpos"),
    ("material", "rgba"), ("material", "texrepeat"),
]

_READ_FORMS = ("bad format", "has too much data", "does not have enough data",
               "number is too large")


def _xml(place, attr, value):
    return _PLACES[place].replace("{a}", f' {attr}="{value}"')


# the case: the place, the attribute, its value; urdf2dyn's words (None: both load)
NUMBERS = {
    "three numbers in a geom's rgba": ("geom", "rgba", "1 0 0",
                                       ["<geom rgba=", "exactly 4", "does not have enough data"]),
    "five in a site's rgba": ("site", "rgba", "1 0 0 1 1", ["<site rgba=", "has too much data"]),
    "a fractional joint group": ("joint", "group", "1.5",
                                 ["<joint group=", "whole number", "bad format"]),
    "a geom's contype in hex": ("geom", "contype", "0x1", ["<geom contype=", "whole number"]),
    "two coefficients for one tendon joint": ("fixed joint", "coef", "1 2",
                                              ["<joint coef=", "exactly 1"]),
    "six polynomial coefficients": ("equality joint", "polycoef", "0 1 0 0 0 0",
                                    ["<joint polycoef=", "at most 5"]),
    "two time steps": ("option", "timestep", "0.002 0.001", ["<option timestep="]),
    "a malformed sensor noise": ("jointpos", "noise", "0.1x",
                                 ["<jointpos>", 'noise="0.1x"', "not a number"]),
    "two mesh scale factors": ("mesh", "scale", "1 1", ["<mesh scale=", "exactly 3"]),
    "three numbers in a default geom's rgba": ("default geom", "rgba", "1 0 0",
                                               ["<geom rgba=", "exactly 4"]),
    "a spatial tendon's two widths": ("spatial", "width", "0.1 0.2", ["<spatial width="]),
    "two friction numbers of three": ("geom", "friction", "1 0.01", None),
    "a nan in a material's rgba": ("material", "rgba", "1 nan 0 1", None),
    "a blank rgba": ("geom", "rgba", " ", None),
    # two ints (the Menagerie's ALOHA, Kinova Gen3, TIAGo... write resolution="640 480")
    "a camera's resolution in pixels": ("camera", "resolution", "640 480", None),
    "a default camera's resolution": ("default camera", "resolution", " 96  60 ", None),
    "a camera's negative resolution": ("camera", "resolution", "-1 -2", None),
    "a fractional camera resolution": ("camera", "resolution", "640 480.5",
                                       ["<camera resolution=", "whole numbers", "bad format"]),
    "a camera resolution in exponent form": ("camera", "resolution", "1e3 2",
                                             ["<camera resolution=", "whole numbers"]),
    "a camera resolution beyond an int": ("camera", "resolution", "640 2147483648",
                                          ["<camera resolution=", "number is too large"]),
    # MuJoCo's reader: a number running into other characters is "bad format", in range or not
    "a geom condim beyond an int running into a letter": (
        "geom", "condim", "3000000000x", ["<geom condim=", "whole number", "bad format"]),
    "a camera resolution beyond an int with a fraction": (
        "camera", "resolution", "640 3000000000.5",
        ["<camera resolution=", "whole numbers", "bad format"]),
    "one camera resolution number": ("camera", "resolution", "640",
                                     ["<camera resolution=", "exactly 2"]),
    "three camera resolution numbers": ("camera", "resolution", "640 480 3",
                                        ["<camera resolution=", "exactly 2"]),
}


@pytest.mark.parametrize("case", sorted(NUMBERS))
def test_numbers_are_read_as_mujoco_reads_them(case):
    """A number attribute MuJoCo reads and refuses malformed, too many or too few is refused
    as MuJoCo refuses it, naming the element, the attribute and how many to give; its
    neighbours that MuJoCo reads load in both."""
    place, attr, value, words = NUMBERS[case]
    assert_as_mujoco(_xml(place, attr, value), words)


_TOKENS = st.sampled_from(["1", "0.5", "-2", "3e2", "1.5", "0", "inf", "nan", "1x", "0x2",
                           "1e999", "+4"])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_ATTRIBUTES), st.lists(_TOKENS, min_size=0, max_size=7))
def test_random_numbers_refused_exactly_where_mujoco_reader_refuses(place_attr, tokens):
    """Random numbers (a malformed one, too many, too few, a fraction where MuJoCo reads an
    int) in an attribute urdf2dyn does not read: where MuJoCo's reader refuses it, urdf2dyn
    refuses it naming the attribute; where MuJoCo loads the model, urdf2dyn loads it too and
    its mass matrix and inverse dynamics are MuJoCo's (to 1e-10)."""
    place, attr = place_attr
    xml = _xml(place, attr, " ".join(tokens))
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    if expected and any(w in expected for w in _READ_FORMS):
        assert got is not None and f"{attr}=" in got, (xml, expected, got)
    elif expected is None:      # (values MuJoCo's compiler refuses, read well: not here)
        assert got is None, (xml, got)
        oracle.assert_loads_as_mujoco(xml)


# where a compiled value stands: the element, then the element under a class giving {a}
_COMPILED_PLACES = {
    "geom": ('<geom size="0.1"{own}/>', "<geom{a}/>"),
    "camera": ("<camera{own}/>", "<camera{a}/>"),
    "light": ("<light{own}/>", "<light{a}/>"),
    "spatial": (None, "<tendon{a}/>"),
    "pair": (None, "<pair{a}/>"),
}
_PAIR_GEOMS = '<geom name="g1" size="0.1"/><geom name="g2" size="0.1"/>'



def _compiled_xml(place, attr, own=None, cls=None, childclass=False):
    """place's element with attr own (None: not written) under a class giving attr cls (None:
    no class), the element's own class= or its body's childclass=."""
    a = f' {attr}="{own}"' if own is not None else ""
    ref = "" if cls is None or childclass else ' class="c"'
    inherited = _COMPILED_PLACES[place][1].replace("{a}", f' {attr}="{cls}"')
    default = "" if cls is None else f'<default class="c">{inherited}</default>'

    if place == "spatial":
        return _model(default=default,
                      after=f'<tendon><spatial{ref}{a}><site site="s1"/><site site="s2"/>'
                            "</spatial></tendon>")
    if place == "pair":
        return _model(_PAIR_GEOMS, default=default,
                      after=f'<contact><pair geom1="g1" geom2="g2"{ref}{a}/></contact>')
    element = _COMPILED_PLACES[place][0].format(own=ref + a)
    body = (f'<body childclass="c">{element}</body>' if childclass and cls is not None
            else element)
    return _model(body, default=default)


# the case: the place, the attribute, its own value, its class's, by childclass; urdf2dyn's
# words (None: both load)
COMPILED = {
    "a geom's condim 2": ("geom", "condim", "2", None, False,
                          ['<geom condim="2">', "invalid condim in geom", "1, 3, 4 or 6"]),
    "a class's condim 5": ("geom", "condim", None, "5", False,
                           ['<geom condim="5">, from its class', "invalid condim"]),
    "a childclass's condim 0": ("geom", "condim", None, "0", True, ["invalid condim"]),
    "a geom's condim 4 over its class's 2": ("geom", "condim", "4", "2", False, None),
    "a light's zero dir": ("light", "dir", "0 0 0", None, False,
                           ['<light dir="0 0 0">', "zero direction in light", "nonzero"]),
    "a class's zero light dir": ("light", "dir", None, "0 0 0", False,
                                 ["from its class", "zero direction"]),
    "a light's dir of length 9e-8": ("light", "dir", "0 9e-8 0", None, False,
                                     ["zero direction"]),
    "a light's dir of length 1.1e-7": ("light", "dir", "0 1.1e-7 0", None, False, None),
    "a light's dir over its class's zero": ("light", "dir", "0 1 0", "0 0 0", False, None),
    "a camera's fovy 180": ("camera", "fovy", "180", None, False,
                            ['<camera fovy="180">', "fovy too large in camera", "below 180"]),
    "a class's fovy 200": ("camera", "fovy", None, "200", True, ["fovy too large"]),
    "a camera's fovy 179.9": ("camera", "fovy", "179.9", None, False, None),
    "a contact pair's condim 2": ("pair", "condim", "2", None, False,
                                  ['<pair condim="2">', "invalid condim in contact pair",
                                   "1, 3, 4 or 6"]),
    "a pair class's condim 5": ("pair", "condim", None, "5", False,
                                ['<pair condim="5">, from its class', "invalid condim"]),
    "a pair's condim 6 over its class's 7": ("pair", "condim", "6", "7", False, None),
    "a spatial tendon's width 0": ("spatial", "width", "0", None, False,
                                   ['<spatial width="0">', "must have positive width",
                                    "above 0"]),
    "a class's tendon width -1": ("spatial", "width", None, "-1", False,
                                  ["from its class", "positive width"]),
    "a spatial tendon's width over its class's 0": ("spatial", "width", "0.01", "0", False,
                                                    None),
}


@pytest.mark.parametrize("case", sorted(COMPILED))
def test_compiled_values_refused_as_mujoco_compiler_refuses_them(case):
    """A value MuJoCo 4.0.0's compiler refuses on what an element ends with after its class
    chain (a geom's condim other than 1, 3, 4, 6, a light's zero dir, a camera's fovy of 180
    or more, a spatial tendon's width of 0 or less), its own, its class's or its body's
    childclass's, is refused naming the element, the attribute, MuJoCo's reason and what to
    do; urdf2dyn loaded them. Where both load, the dynamics are MuJoCo's."""
    place, attr, own, cls, childclass, words = COMPILED[case]
    xml = _compiled_xml(place, attr, own, cls, childclass)
    assert_as_mujoco(xml, words)
    if words is None:
        oracle.assert_loads_as_mujoco(xml)


@pytest.mark.parametrize("main, own, words", [
    ("2", None, ['<pair condim="2">, from its class', "invalid condim in contact pair"]),
    ("2", "1", None), ("5", "", ["invalid condim in contact pair"]), ("4", None, None),
])
def test_a_pair_takes_main_class_condim_as_mujoco_does(main, own, words):
    """A <pair> without class= takes main's <pair> defaults (pairs have no childclass):
    MuJoCo 4.0.0 refuses a condim other than 1, 3, 4 or 6 from there ("invalid condim in
    contact pair"), which urdf2dyn did not check. Its own condim over it counts; where both
    load, the dynamics are MuJoCo's."""
    a = "" if own is None else f' condim="{own}"'
    xml = _model(_PAIR_GEOMS, default=f'<pair condim="{main}"/>',
                 after=f'<contact><pair geom1="g1" geom2="g2"{a}/></contact>')
    assert_as_mujoco(xml, words)
    if words is None:
        oracle.assert_loads_as_mujoco(xml)


_COMPILED_VALUES = {"condim": ["0", "1", "2", "3", "4", "5", "6", "7", "-1"],
                    "dir": ["0 0 0", "0 0 -1", "1 0 0", "1e-20 0 0", "0 0 1e-10", "0 0 9e-8",
                            "0 0 1.1e-7", "nan 0 0"],
                    "fovy": ["45", "179", "180", "181", "-1", "0", "nan", "1e9"],
                    "width": ["0.003", "0", "-0", "-1", "1e-300", "nan", "2"]}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("geom", "condim"), ("light", "dir"), ("camera", "fovy"),
                        ("spatial", "width"), ("pair", "condim")]), st.data())
def test_random_compiled_values_refused_exactly_where_mujoco_compiler_refuses(place_attr, data):
    """Random own and class values (own class= or a body's childclass=) of condim, a light's
    dir, fovy and a spatial width: urdf2dyn refuses the model exactly where MuJoCo does,
    naming the attribute, and where both load the dynamics are MuJoCo's."""
    place, attr = place_attr
    values = st.one_of(st.none(), st.sampled_from(_COMPILED_VALUES[attr]))
    own, cls = data.draw(values), data.draw(values)
    childclass = place not in ("spatial", "pair") and data.draw(st.booleans())
    xml = _compiled_xml(place, attr, own, cls, childclass)
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)
    if got is not None:
        assert f"{attr}=" in got, got
    else:
        oracle.assert_loads_as_mujoco(xml)


_SIZE_COUNTS = ["nconmax", "njmax", "nstack", "nuser_actuator", "nuser_body", "nuser_cam",
                "nuser_geom", "nuser_jnt", "nuser_sensor", "nuser_site", "nuser_tendon"]


@pytest.mark.parametrize("attr", _SIZE_COUNTS)
def test_size_counts_below_minus_one_refused_as_mujoco_refuses_them(attr):
    """MuJoCo 4.0.0's reader refuses a <size> count below -1 ("nuser_geom must be >= -1"),
    used or not; urdf2dyn loaded it. -1 (as many as needed) loads in both, with MuJoCo's
    dynamics."""
    assert_as_mujoco(_xml("size", attr, "-2"), [f'<size {attr}="-2">', f"{attr} must be >= -1",
                                                "give -1"])
    xml = _xml("size", attr, "-1")
    assert_as_mujoco(xml, None)
    oracle.assert_loads_as_mujoco(xml)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(_SIZE_COUNTS), st.sampled_from(["-1", "-2", "-3", "0", "2", "-100"]))
def test_random_size_counts_refused_exactly_where_mujoco_refuses(attr, value):
    """Random <size> counts: urdf2dyn refuses the model exactly where MuJoCo does."""
    xml = _xml("size", attr, value)
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)


@pytest.mark.parametrize("attr, value", [
    ("nuserdata", "-1"), ("nuserdata", "-2147483648"), ("nuserdata", "0"), ("nuserdata", "3"),
    ("nkey", "-3"), ("memory", "-1"), ("memory", "64M"), ("memory", "1k"), ("memory", " 8M "),
    ("memory", "+16384K"), ("memory", "-2"), ("memory", "-0"), ("memory", "1.5M"),
    ("memory", "M"), ("memory", ""), ("memory", " "), ("memory", "1 M"), ("memory", "1MB"),
    ("memory", "0x10"), ("memory", "1e3"), ("memory", "99999999999999999999"),
    ("memory", "16384E"),
])
def test_size_settings_refused_exactly_where_mujoco_refuses(attr, value):
    """<size>'s other settings: a negative nuserdata (MuJoCo 4.0.0 cannot make its data:
    "userdata too large") and a memory= its reader does not read as a whole number of
    bytes with one optional suffix ("unsigned integer with an optional suffix {K,M,G,T,P,E}
    is expected in attribute 'memory'") loaded in urdf2dyn. Refused exactly where MuJoCo
    refuses them, naming the attribute and MuJoCo's reason; where MuJoCo loads the model,
    urdf2dyn loads it with MuJoCo's dynamics."""
    xml = _xml("size", attr, value)
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)
    if expected is None:
        oracle.assert_loads_as_mujoco(xml)
        return
    reason = ("userdata too large" if attr == "nuserdata"
              else "unsigned integer with an optional suffix")
    assert reason in expected, expected
    assert f'<size {attr}="{value}">' in got and reason in got, got


def _mesh_xml(own=None, cls=None, inertia=None):
    """An unused mesh asset whose scale is own (None: not written), under a class giving cls
    (None: no class), with inertia= (None: MuJoCo's)."""
    attrs = (f' scale="{own}"' if own is not None else "") + \
        (f' inertia="{inertia}"' if inertia else "") + (' class="c"' if cls is not None else "")
    default = f'<default class="c"><mesh scale="{cls}"/></default>' if cls is not None else ""
    return _model(default=default, after='<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 '
                                         f'1" face="0 2 1 0 1 3 0 3 2 1 2 3"{attrs}/></asset>')


# the case: own scale, class scale, inertia; urdf2dyn's words (None: both load)
MESH_SCALES = {
    "a mesh's scale 0 1 1": ("0 1 1", None, None, ['<mesh scale="0 1 1">', "no volume",
                                                   "mesh volume is too small", "nonzero"]),
    "a class's mesh scale 1 0 1": (None, "1 0 1", None, ["from its class", "no volume"]),
    "an exact mesh's scale 1 1 -0": ("1 1 -0", None, "exact", ["mesh volume is too small"]),
    "a shell mesh's scale 0 0 1": ("0 0 1", None, "shell", ["no surface",
                                                           "mesh surface area is too small"]),
    "a shell mesh's scale 0 1 1": ("0 1 1", None, "shell", None),
    "a mesh's scale 1 1 1 over its class's 0 1 1": ("1 1 1", "0 1 1", None, None),
    "a mesh's scale -1 1e-9 1": ("-1 1e-9 1", None, None, None),
    "a mesh's scale 1 0 inf (a NaN volume)": ("1 0 inf", None, None, None),
    "a mesh's scale 1e-300 1 1": ("1e-300 1 1", None, None, ["mesh 'm'", "volume is too small"]),
    "a mesh's scale 3e-15 1 1 (volume 5e-16)": ("3e-15 1 1", None, None,
                                                ["mesh 'm'", "volume is too small"]),
    "a mesh's scale 1e-14 1 1 (volume 1.7e-15)": ("1e-14 1 1", None, None, None),
    "a shell mesh's scale 1e-300 1e-300 1": ("1e-300 1e-300 1", None, "shell",
                                             ["mesh 'm'", "surface area is too small"]),
    "a shell mesh's scale 1e-300 1 1": ("1e-300 1 1", None, "shell", None),
}


@pytest.mark.parametrize("case", sorted(MESH_SCALES))
def test_mesh_scale_of_0_refused_as_mujoco_compiler_refuses_it(case):
    """MuJoCo 4.0.0's compiler computes every mesh's volume, used or not, and refuses a mesh
    a scale of 0 (its own or its class's) flattens ("mesh volume is too small"; with
    inertia="shell", two zeros: "mesh surface area is too small"), or one so small that
    the volume (area) falls below mjMINVAL, 1e-15 (a scale of 1e-300); urdf2dyn loaded an
    unused one. Where both load, the dynamics are MuJoCo's."""
    own, cls, inertia, words = MESH_SCALES[case]
    xml = _mesh_xml(own, cls, inertia)
    assert_as_mujoco(xml, words)
    if words is None:
        oracle.assert_loads_as_mujoco(xml)


# the case: the model, the attribute holding a number beyond an int
_BEYOND_INT = {
    "size nuserdata 3000000000": (doc('<size nuserdata="3000000000"/>', _BODY.format(inside="")),
                                  "nuserdata"),
    "size nuser_jnt -2147483649": (doc('<size nuser_jnt="-2147483649"/>',
                                       _BODY.format(inside="")), "nuser_jnt"),
    "geom condim 2147483648": (_model('<geom size="0.1" condim="2147483648"/>'), "condim"),
    "default geom contype 1e23 in digits": (_model(default='<geom contype="' + "9" * 23 + '"/>'),
                                            "contype"),
    "camera resolution": (_model('<camera resolution="3000000000 480"/>'), "resolution"),
    "option iterations": (doc('<option iterations="3000000000"/>', _BODY.format(inside="")),
                          "iterations"),
    "actuator actdim": (_model(after='<actuator><general joint="j" dyntype="integrator" '
                                     'actdim="3000000000"/></actuator>'), "actdim"),
    "texture width": (_model(after='<asset><texture name="t" builtin="flat" width="3000000000" '
                                   'height="2"/></asset>'), "width"),
    "sensor nsample": (_model(after='<sensor><jointpos joint="j" nsample="3000000000"/>'
                                    '</sensor>'), "nsample"),
}


@pytest.mark.parametrize("case", sorted(_BEYOND_INT))
def test_int_beyond_an_int_refused_in_mujoco_words(case):
    """An int attribute holding a whole number beyond an int: MuJoCo 4.0.0 says "number is
    too large in attribute '...'", where urdf2dyn said "bad format"; its words now."""
    xml, attr = _BEYOND_INT[case]
    assert f"number is too large in attribute '{attr}'" in mujoco_error(xml)
    assert_as_mujoco(xml, [f'{attr}="', f"number is too large in attribute '{attr}'"])


_TETRAHEDRON = ('vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 2 1 0 1 3 0 3 2 1 2 3"')
_CUBE = ('vertex="0 0 0 1 0 0 0 1 0 1 1 0 0 0 1 1 0 1 0 1 1 1 1 1" face="0 2 1 1 2 3 4 5 6 5 7 '
         '6 0 1 4 1 5 4 2 6 3 3 6 7 0 4 2 2 4 6 1 3 5 3 7 5"')


@pytest.mark.parametrize("mesh", ["tetrahedron", "cube"])
@pytest.mark.parametrize("scale", ["0 1 1", "1 0 1", "1 1 0", "0 2 3",
                                   '0 1 1" refpos="0.3 0.2 0.1'])
def test_flat_shell_mesh_gives_its_body_mujoco_inertia(mesh, scale):
    """A shell mesh flattened by one scale factor of 0 weighs its body in MuJoCo 4.0.0: a
    lamina, whose moment about its normal is the sum of the other two. urdf2dyn refused it
    (A + B >= C broken by rounding, or a NaN moment where it is 0); it now takes the
    moments through MuJoCo's box of the same inertia, and loads it with MuJoCo's dynamics."""
    vertices = _TETRAHEDRON if mesh == "tetrahedron" else _CUBE
    xml = _model('<body pos="0.2 0 0"><joint axis="1 0.3 0.2"/><geom type="mesh" mesh="m" '
                 'pos="0.1 0 0" euler="10 20 30"/></body>',
                 f'<asset><mesh name="m" {vertices} inertia="shell" scale="{scale}"/></asset>')
    oracle.assert_loads_as_mujoco(xml)


# the case: the mesh, the geom's own attributes, a class's geom defaults; the shape urdf2dyn
# names (None: both load)
_FLAT_HULLS = {
    "coplanar, colliding": ('vertex="0 0 0 1 0 0 0 1 0 1 1 0" face="0 1 2 1 3 2"', "", "",
                            "coplanar"),
    "coplanar, colliding through conaffinity": (
        'vertex="0 0 0 1 0 0 0 1 0 1 1 0" face="0 1 2 1 3 2"', 'contype="0"', "", "coplanar"),
    "collinear, colliding": ('vertex="0 0 0 1 0 0 2 0 0 3 0 0" face="0 1 2 1 2 3"', "", "",
                             "collinear"),
    "colocated, colliding": ('vertex="0 0 0 0 0 0 0 0 0 0 0 0" face="0 1 2 1 2 3"', "", "",
                             "colocated"),
    "coplanar, not colliding": ('vertex="0 0 0 1 0 0 0 1 0 1 1 0" face="0 1 2 1 3 2"',
                                'contype="0" conaffinity="0"', "", None),
    "coplanar, not colliding by its class": (
        'vertex="0 0 0 1 0 0 0 1 0 1 1 0" face="0 1 2 1 3 2"', "",
        '<geom contype="0" conaffinity="0"/>', None),
    "flattened by scale only, colliding": (_TETRAHEDRON + ' scale="0 1 1"', "", "", None),
}


@pytest.mark.parametrize("case", sorted(_FLAT_HULLS))
def test_flat_mesh_a_geom_collides_with_refused_as_mujoco_refuses_its_hull(case):
    """MuJoCo 4.0.0 builds the convex hull of a mesh a geom collides with (contype or
    conaffinity nonzero), from its vertices as given (before scale=), and refuses vertices
    on one point, line or plane ("cannot compute convex hull"); urdf2dyn weighed a coplanar
    shell mesh and loaded it. A geom that collides with nothing, or a mesh that only its
    scale flattens, loads in both, with MuJoCo's dynamics."""
    vertices, attrs, default, shape = _FLAT_HULLS[case]
    xml = _model('<body pos="0.2 0 0"><joint axis="1 0.3 0.2"/>'
                 f'<geom type="mesh" mesh="m" {attrs}/></body>',
                 f'<asset><mesh name="m" {vertices} inertia="shell"/></asset>', default)
    assert_as_mujoco(xml, shape and [f"has {shape} vertices", "cannot compute convex hull"])
    if shape is None:
        oracle.assert_loads_as_mujoco(xml)


_COPLANAR = ('<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 1 1 0" face="0 1 2 1 3 2" '
             'inertia="shell"/></asset>')
_PAIR = '<contact><pair geom1="g" geom2="f"/></contact>'
# the case: the model, a coplanar mesh's user not weighed; whether MuJoCo builds its hull
_UNWEIGHED_HULLS = {
    "a colliding geom of mass 0": (_model('<geom type="mesh" mesh="m" mass="0"/>', _COPLANAR),
                                   True),
    "a colliding geom of density 0": (
        _model('<geom type="mesh" mesh="m" density="0"/>', _COPLANAR), True),
    "a colliding geom of a body with an <inertial>": (
        _model('<body><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>'
               '<geom type="mesh" mesh="m"/></body>', _COPLANAR), True),
    "a colliding geom of the world": (
        doc(_BODY.format(inside="").replace("<worldbody>",
                                            '<worldbody><geom type="mesh" mesh="m"/>'),
            _COPLANAR), True),
    "a geom of mass 0 colliding with nothing but named by a <pair>": (
        _model('<geom name="g" type="mesh" mesh="m" mass="0" contype="0" conaffinity="0"/>'
               '<geom name="f" size="0.1"/>', _COPLANAR + _PAIR), True),
    "a mesh site": (_model('<site type="mesh" mesh="m"/>', _COPLANAR), True),
    "a geom of mass 0 colliding with nothing": (
        _model('<geom name="g" type="mesh" mesh="m" mass="0" contype="0" conaffinity="0"/>',
               _COPLANAR), False),
    "a geom of mass 0 colliding with nothing, another geom named by a <pair>": (
        _model('<geom type="mesh" mesh="m" mass="0" contype="0" conaffinity="0"/>'
               '<geom name="g" size="0.1"/><geom name="f" size="0.1"/>', _COPLANAR + _PAIR),
        False),
}


@pytest.mark.parametrize("case", sorted(_UNWEIGHED_HULLS))
def test_flat_mesh_refused_where_mujoco_builds_its_hull_though_no_mass_is_read(case):
    """MuJoCo 4.0.0 builds the convex hull of the mesh of every geom that collides or that a
    <contact><pair> names, and of every mesh site, before it reads any mass, and refuses
    coplanar vertices ("cannot compute convex hull"); urdf2dyn checked only the geoms whose
    mass it reads, and loaded these. A geom that collides with nothing loads in both."""
    xml, hull = _UNWEIGHED_HULLS[case]
    assert_as_mujoco(xml, ["mesh 'm' has coplanar vertices", "cannot compute convex hull"]
                     if hull else None)
    if not hull:
        oracle.assert_loads_as_mujoco(xml)


# a tetrahedron whose last face runs the wrong way (from vertex 2 to 4 as its first does),
# of edge 1 or 1e-4: its faces' areas are 0.5 or 5e-9, the latter below sqrt(mjMINVAL)
_MISORIENTED = ('vertex="0 0 0 {e} 0 0 0 {e} 0 0 0 {e}" face="0 2 1 0 1 3 0 3 2 1 3 2" '
                'inertia="exact" scale="{s} {s} {s}"')
# the case: the edge, the scale, whether a geom weighs it; urdf2dyn's words
_ORIENTATIONS = {
    "edge 1 scaled by 1e-4, unused": ("1", "1e-4", False, "inconsistent orientation"),
    "edge 1 scaled by 1e-4, weighed": ("1", "1e-4", True, "inconsistent orientation"),
    "edge 1e-4 scaled by 1e3, unused": ("1e-4", "1e3", False, "violate A + B >= C"),
}


@pytest.mark.parametrize("case", sorted(_ORIENTATIONS))
def test_exact_mesh_faces_orientation_checked_before_scale_as_mujoco_checks_it(case):
    """MuJoCo 4.0.0 checks an inertia="exact" mesh's faces for a consistent orientation on
    its vertices as given, before scale=, skipping faces of area below sqrt(mjMINVAL): a
    misoriented mesh scaled down is refused for its faces ("inconsistent orientation"), one
    scaled up from tiny faces is not, and fails A + B >= C instead. urdf2dyn checked the
    scaled faces: it loaded the first unused, and gave the wrong reason for the others."""
    edge, scale, weighed, words = _ORIENTATIONS[case]
    mesh = f'<asset><mesh name="m" {_MISORIENTED.format(e=edge, s=scale)}/></asset>'
    xml = _model('<body pos="0.2 0 0"><joint axis="1 0.3 0.2"/><geom type="mesh" mesh="m" '
                 'contype="0" conaffinity="0"/></body>' if weighed else "", mesh)
    assert words.split()[-1] in mujoco_error(xml)
    assert_as_mujoco(xml, ["mesh 'm'", words])


_SCALES = st.sampled_from(["1 1 1", "0 1 1", "1 0 0", "0 0 0", "-1 2 0.5", "1 -0 1",
                           "1e-9 1 1", "1 0 inf", "0 0 nan"])


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.none(), _SCALES), st.one_of(st.none(), _SCALES),
       st.sampled_from([None, "legacy", "convex", "exact", "shell"]))
def test_random_mesh_scales_refused_exactly_where_mujoco_compiler_refuses(own, cls, inertia):
    """Random own and class scales of an unused mesh, any inertia=: urdf2dyn refuses the
    model exactly where MuJoCo does, naming scale=."""
    xml = _mesh_xml(own, cls, inertia)
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)
    if got is not None:
        assert "scale=" in got, got
