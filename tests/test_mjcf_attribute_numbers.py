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
                                          ["<camera resolution=", "whole numbers"]),
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
