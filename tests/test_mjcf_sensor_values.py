"""A sensor's noise=, cutoff= and interval= values MuJoCo 4's compiler refuses (a negative
noise or cutoff, a negative period, a positive phase, a phase at or below -period), which
urdf2dyn loaded silently. Each case runs MuJoCo (the oracle) and urdf2dyn on the same XML;
where both load, their mass matrix and inverse dynamics agree."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjcf_oracle as oracle
from test_mjcf_refusals_parity import assert_as_mujoco, doc, mujoco_error, urdf2dyn_error

_WORLD = ('<worldbody><body name="b" pos="0 0 1"><joint name="j" axis="0 1 0"/>'
          '<geom type="capsule" size="0.05" fromto="0 0 0 0.3 0 0"/><site name="s"/></body>'
          '</worldbody>')
_SENSORS = {"jointpos": '<jointpos joint="j"{a}/>', "touch": '<touch site="s"{a}/>',
            "user": '<user dim="1"{a}/>'}


def _sensed(kind, attrs):
    return doc(_WORLD, "<sensor>" + _SENSORS[kind].replace("{a}", attrs) + "</sensor>")


# the case: the sensor, its attributes; urdf2dyn's words (None: both load)
VALUES = {
    "a negative noise": ("jointpos", ' name="p" noise="-0.1"',
                         ["<jointpos> 'p'", 'noise="-0.1"', "negative noise in sensor"]),
    "a negative cutoff": ("touch", ' cutoff="-1"', ["<touch>", "negative cutoff in sensor"]),
    "a negative period": ("jointpos", ' interval="-1"', ["negative interval in sensor"]),
    "a positive phase": ("touch", ' interval="1 0.5"', ["<touch>", "positive phase in sensor"]),
    "a phase of -period": ("jointpos", ' interval="1 -1"',
                           ["phase must be greater than -period"]),
    "a phase within the period": ("jointpos", ' interval="1 -0.5"', None),
    "a NaN noise": ("jointpos", ' noise="nan"', None),
    "a noise of -0": ("touch", ' noise="-0"', None),
}


@pytest.mark.parametrize("case", sorted(VALUES))
def test_sensor_values_are_checked_as_mujoco_checks_them(case):
    """A sensor value MuJoCo refuses is refused, naming the sensor, the value and MuJoCo's
    reason; its neighbours load in both."""
    kind, attrs, words = VALUES[case]
    assert_as_mujoco(_sensed(kind, attrs), words)


_NUMBER = st.sampled_from(["0", "-0", "1", "-1", "0.5", "-0.5", "2", "-2", "nan", "inf",
                           "-inf", "1e-300", "-1e-300"])


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(_SENSORS)), st.sampled_from(["noise", "cutoff", "interval"]),
       st.lists(_NUMBER, min_size=1, max_size=2))
def test_random_sensor_values_refused_exactly_where_mujoco_refuses(kind, attr, numbers):
    """Random noise, cutoff and interval values: urdf2dyn refuses exactly where MuJoCo does,
    and where MuJoCo loads the model urdf2dyn loads the same dynamics."""
    if attr != "interval":
        numbers = numbers[:1]
    xml = _sensed(kind, f' {attr}="{" ".join(numbers)}"')
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    assert (expected is None) == (got is None), (xml, expected, got)
    if got is not None:
        assert f"{attr}=" in got, (xml, got)
        return
    oracle.assert_loads_as_mujoco(xml)
