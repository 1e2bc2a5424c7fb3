"""MJCF keyword attributes MuJoCo 4's reader checks and urdf2dyn did not read
(<camera projection="maybe">, <equality ... active="maybe">, a light's directional=, an
<option integrator=...>): MuJoCo refuses a word it does not read ("invalid keyword"), used or
not. Each case runs MuJoCo (the oracle) and urdf2dyn on the same XML; where both load, their
mass matrix and inverse dynamics agree."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjcf_oracle as oracle
from test_mjcf_attribute_numbers import _PLACES as _NUMBER_PLACES
from test_mjcf_attribute_numbers import _model
from test_mjcf_refusals_parity import assert_as_mujoco, mujoco_error, urdf2dyn_error

_PLACES = {
    **_NUMBER_PLACES,
    "equality connect": _model(after='<equality><connect site1="s1" site2="s2"{a}/>'
                                     '</equality>'),
    "default camera": _model(default="<camera{a}/>"),
    "default equality": _model(default="<equality{a}/>"),
    "compiler": _model().replace("<mujoco>", "<mujoco><compiler{a}/>"),
    "body": _model('<body{a}><joint/><geom size="0.1"/></body>'),
    # below a <frame> MuJoCo's schema check stops, its reader's keywords do not
    "framed body": _model('<frame><body{a}><joint/><geom size="0.1"/></body></frame>'),
    "framed camera": _model('<frame><frame><camera{a}/></frame></frame>'),
    "framed geom": _model('<frame><geom size="0.1"{a}/></frame>'),
}


def _xml(place, attr, value):
    return _PLACES[place].replace("{a}", f' {attr}="{value}"')

# the place, the attribute: keywords MuJoCo 4.0.0 reads and urdf2dyn does not read
_ATTRIBUTES = [
    ("camera", "projection"), ("camera", "mode"), ("default camera", "projection"),
    ("light", "directional"), ("light", "type"), ("light", "active"), ("light", "castshadow"),
    ("geom", "castshadow"), ("geom", "fluidshape"), ("joint", "actuatorgravcomp"),
    ("default tendon", "limited"), ("equality joint", "active"), ("equality weld", "active"),
    ("equality connect", "active"), ("default equality", "active"), ("mesh", "inertia"),
    ("mesh", "smoothnormal"), ("material", "texuniform"), ("jointpos", "interp"),
    ("option", "integrator"), ("option", "cone"), ("option", "solver"), ("option", "jacobian"),
    ("compiler", "fusestatic"), ("compiler", "discardvisual"), ("compiler", "conflict"),
    ("compiler", "passthrough"), ("body", "sleep"), ("body", "fuse"), ("body", "simple"),
    ("camera", "output"), ("default camera", "output"), ("framed body", "sleep"),
    ("framed camera", "output"), ("framed geom", "castshadow"),
]

# the case: the place, the attribute, its value; urdf2dyn's words (None: both load)
KEYWORDS = {
    "a camera projection of maybe": ("camera", "projection", "maybe",
                                     ["<camera projection=", "invalid keyword",
                                      "perspective, orthographic"]),
    "an orthographic camera": ("camera", "projection", "orthographic", None),
    "an equality active=maybe": ("equality joint", "active", "maybe",
                                 ["<joint active=", "false, true"]),
    "an inactive equality": ("equality weld", "active", "false", None),
    "a light directional=1": ("light", "directional", "1", ["<light directional="]),
    "a default equality's active=yes": ("default equality", "active", "yes",
                                        ["<equality active="]),
    "an integrator in lower case": ("option", "integrator", "rk4", ["<option integrator=",
                                                                    "RK4"]),
    "a blank fluid shape": ("geom", "fluidshape", "", ["<geom fluidshape="]),
    "a body's sleep=maybe": ("body", "sleep", "maybe", ["<body sleep=", "auto, never"]),
    "a body's fuse=true": ("body", "fuse", "true", ["<body fuse=", "false, auto"]),
    "a body's simple=true": ("body", "simple", "true", ["<body simple="]),
    "a body fused as MuJoCo sees fit": ("body", "fuse", "auto", None),
    "the compiler's conflict=ignore": ("compiler", "conflict", "ignore",
                                       ["<compiler conflict=", "warning, merge, error"]),
    "the compiler's passthrough=all": ("compiler", "passthrough", "all",
                                       ["<compiler passthrough=", "none, textures"]),
    "a camera's output=color": ("camera", "output", "rgb color",
                                ["<camera output=", "invalid keyword", "rgb, depth"]),
    "a camera's output twice": ("default camera", "output", "depth rgb depth",
                                ["<camera output=", "duplicate keyword"]),
    "a camera's outputs in any order": ("camera", "output", "depth rgb", None),
    "a camera without output": ("camera", "output", " ", None),
    "a framed body's sleep=maybe": ("framed body", "sleep", "maybe", ["<body sleep=",
                                                                      "auto, never"]),
    "a framed camera's output twice": ("framed camera", "output", "rgb rgb",
                                       ["<camera output=", "duplicate keyword"]),
    "a framed geom's castshadow=maybe": ("framed geom", "castshadow", "maybe",
                                         ["<geom castshadow=", "false, true"]),
    "a framed body fused as MuJoCo sees fit": ("framed body", "fuse", "auto", None),
    "a framed geom's attribute the schema lacks": ("framed geom", "foo", "maybe", None),
}


@pytest.mark.parametrize("case", sorted(KEYWORDS))
def test_keywords_are_read_as_mujoco_reads_them(case):
    """A keyword attribute MuJoCo reads and refuses as an "invalid keyword" is refused,
    naming the element, the attribute and the words MuJoCo reads; those words load in both."""
    place, attr, value, words = KEYWORDS[case]
    assert_as_mujoco(_xml(place, attr, value), words)


_WORDS = st.sampled_from(["false", "true", "auto", "maybe", "True", "", " true", "none",
                          "ellipsoid", "fixed", "track", "trackcom", "targetbody",
                          "perspective", "orthographic", "spot", "directional", "point",
                          "image", "legacy", "exact", "convex", "shell", "zoh", "linear",
                          "cubic", "Euler", "RK4", "implicit", "implicitfast", "elliptic",
                          "pyramidal", "PGS", "CG", "Newton", "dense", "sparse", "1", "never",
                          "allowed", "init", "warning", "merge", "error", "textures",
                          "rgb", "depth distance", "normal segmentation", "rgb rgb",
                          "Rgb"])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_ATTRIBUTES), _WORDS)
def test_random_keywords_refused_exactly_where_mujoco_reader_refuses(place_attr, word):
    """Any word in a keyword attribute urdf2dyn does not read: where MuJoCo's reader refuses
    it ("invalid keyword"), urdf2dyn refuses it naming the attribute; where MuJoCo loads the
    model, urdf2dyn loads it too, and its mass matrix and inverse dynamics are MuJoCo's."""
    place, attr = place_attr
    xml = _xml(place, attr, word)
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    if expected and "invalid keyword" in expected:
        assert got is not None and f"{attr}=" in got, (xml, expected, got)
    elif expected is None:
        assert got is None, (xml, got)
        oracle.assert_loads_as_mujoco(xml)
