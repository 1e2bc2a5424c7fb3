"""An actuator's or sensor's delay= above 0 needs a history buffer (nsample= 1 or more, its
own or its class's): MuJoCo 4 refuses it without one ("setting delay > 0 without a history
buffer"), and urdf2dyn loaded it silently. Each case runs MuJoCo (the oracle) and urdf2dyn on
the same XML; where both load, their mass matrix and inverse dynamics agree."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjcf_oracle as oracle
from test_mjcf_refusals_parity import assert_as_mujoco, doc, mujoco_error, urdf2dyn_error

_WORLD = ('<worldbody><body name="b" pos="0 0 1"><joint name="j" axis="0 1 0"/>'
          '<geom type="capsule" size="0.05" fromto="0 0 0 0.3 0 0"/><site name="s"/></body>'
          '</worldbody>')
_HISTORY = "setting delay > 0 without a history buffer"


def _actuated(actuator, default=""):
    return doc(f"<default>{default}</default>" if default else "", _WORLD,
               f"<actuator>{actuator}</actuator>")


def _sensed(sensor):
    return doc(_WORLD, f"<sensor>{sensor}</sensor>")


# the case: the XML, urdf2dyn's words (None: both load)
DELAYS = {
    "a motor's delay alone": (_actuated('<motor name="m" joint="j" delay="0.02"/>'),
                              ["actuator 'm'", 'delay="0.02"', _HISTORY, "nsample="]),
    "a motor's delay with a sample": (_actuated('<motor joint="j" delay="0.02" nsample="1"/>'),
                                      None),
    "a delay from the class, no sample": (_actuated('<position joint="j"/>',
                                                    '<general delay="0.02"/>'), [_HISTORY]),
    "a delay from the class, a sample own": (_actuated('<motor joint="j" nsample="2"/>',
                                                       '<motor delay="0.02"/>'), None),
    "a blank delay over the class's": (_actuated('<motor joint="j" delay=" "/>',
                                                 '<motor delay="0.02"/>'), [_HISTORY]),
    "an infinite delay": (_actuated('<motor joint="j" delay="inf"/>'), [_HISTORY]),
    "a NaN delay, which is not above 0": (_actuated('<motor joint="j" delay="nan"/>'), None),
    "a negative delay": (_actuated('<motor joint="j" delay="-1"/>'), None),
    "a touch sensor's delay": (_sensed('<touch name="t" site="s" delay="0.1"/>'),
                               ["<touch> 't'", _HISTORY]),
    "a joint sensor's delay with samples": (_sensed('<jointpos joint="j" delay="0.1" '
                                                    'nsample="3"/>'), None),
}


@pytest.mark.parametrize("case", sorted(DELAYS))
def test_delay_needs_a_history_buffer_as_mujoco_has_it(case):
    """A delay above 0 without samples to keep is refused as MuJoCo refuses it, naming the
    actuator or sensor and what to give; with samples (or no delay) both load."""
    xml, words = DELAYS[case]
    assert_as_mujoco(xml, words)


_VALUES = st.sampled_from([None, "", " ", "0", "0.02", "-1", "nan", "inf", "1", "2", "-2",
                           "1e-300"])


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["motor", "position", "general", "velocity"]),
       st.fixed_dictionaries({w: _VALUES for w in ("own delay", "own nsample",
                                                   "class delay", "class nsample")}),
       st.sampled_from(["motor", "general"]))
def test_random_delays_refused_exactly_where_mujoco_refuses(kind, values, default_kind):
    """Random delays and sample counts, on the actuator and in its class: urdf2dyn refuses
    exactly where MuJoCo refuses for want of a history buffer, and where MuJoCo loads it
    loads the same dynamics."""
    def attrs(where):
        return "".join(f' {a}="{values[f"{where} {a}"]}"' for a in ("delay", "nsample")
                       if values[f"{where} {a}"] is not None)
    target = 'joint="j"' if kind != "general" else 'joint="j" gainprm="1"'
    xml = _actuated(f"<{kind} {target}{attrs('own')}/>", f"<{default_kind}{attrs('class')}/>")
    expected, got = mujoco_error(xml), urdf2dyn_error(xml)
    if expected is not None and _HISTORY in expected:
        assert got is not None and _HISTORY in got, (xml, expected, got)
    elif expected is None:
        assert got is None, (xml, got)
        oracle.assert_loads_as_mujoco(xml)
