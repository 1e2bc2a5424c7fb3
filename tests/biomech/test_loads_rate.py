"""Loads are low-pass filtered at their own rate, whatever route they come by.

Data: OpenSim's published walk (tests/data/ik/README.rst): markers at 60 Hz, ground reactions
at 600 Hz, and the ExternalLoads file that applies them to calcn_r and calcn_l. With --filter,
a ``--grf`` file and the same data named by an ExternalLoads file must give the same loads.

Oracle: the wrenches formed from the .mot columns with NumPy (force, moment p x f + free
torque about the origin), filtered with SciPy's zero-lag Butterworth (order 2 run both ways,
odd padding of 9 samples, urdf2dyn's documented filter) at 600 Hz over the whole recording,
then linearly interpolated at the motion's times. OpenSim itself does not filter forces (its
ExternalLoads' lowpass_cutoff_frequency_for_load_kinematics is read and ignored since 4.0), so
it cannot be the oracle of this choice; tests/biomech/test_labtorques.py checks the unfiltered
route against OpenSim's ID tool.
"""
import os
import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.warn import Urdf2dynWarning

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "ik", "gait2392")
OSIM = os.path.join(DATA, "subject01_simbody.osim")
TRC = os.path.join(DATA, "subject01_walk1.trc")
SETUP = os.path.join(DATA, "subject01_Setup_IK.xml")
MOT = os.path.join(DATA, "subject01_walk1_grf.mot")
XML = os.path.join(DATA, "subject01_walk1_grf.xml")
CUTOFF = 6.0


@pytest.fixture(scope="module")
def model():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return urdf2dyn.load(OSIM)


def _trial(model, **loads):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return urdf2dyn.inverse_dynamics_trial(model, TRC, filter_hz=CUTOFF, ik_setup=SETUP,
                                               **loads)


@pytest.fixture(scope="module")
def routes(model):
    pytest.importorskip("scipy")
    grf = _trial(model, grf=MOT, contacts={"": "calcn_r", "1": "calcn_l"})
    xml = _trial(model, external_loads=XML)
    return grf, xml


def _oracle(t):
    """{link: (len(t), 6)} the .mot's wrenches filtered at 600 Hz, sampled at t."""
    from scipy.signal import butter, filtfilt
    with open(MOT) as f:
        lines = f.read().splitlines()
    start = next(k for k, x in enumerate(lines) if x.strip() == "endheader") + 1
    labels = lines[start].split()
    data = np.loadtxt(lines[start + 1:])
    col = {x: data[:, k] for k, x in enumerate(labels)}
    tr = col["time"]
    fs = (len(tr) - 1) / (tr[-1] - tr[0])
    assert abs(fs - 600) < 1e-9
    b, a = butter(2, CUTOFF / (fs / 2))
    out = {}
    for link, pre in (("calcn_r", ""), ("calcn_l", "1_")):
        f = np.column_stack([col[f"{pre}ground_force_v{c}"] for c in "xyz"])
        p = np.column_stack([col[f"{pre}ground_force_p{c}"] for c in "xyz"])
        m = np.column_stack([col[f"{pre}ground_torque_{c}"] for c in "xyz"])
        w = filtfilt(b, a, np.hstack([f, np.cross(p, f) + m]), axis=0, padtype="odd", padlen=9)
        out[link] = np.column_stack([np.interp(t, tr, w[:, c]) for c in range(6)])
    return out


def test_both_routes_filter_the_loads_at_their_own_rate(routes):
    """Measured before the fix: the ExternalLoads route sampled the wrenches at 60 Hz over
    0.5-2.5 s and filtered them there: up to 89 N and 71 N·m off the oracle, root residual
    force 154.5 N against 118.6 N, peak ground reaction 909 N against 882 N."""
    for res in routes:
        assert res.record["filter_loads"] is True
        for link, w in _oracle(res.t).items():
            np.testing.assert_allclose(res.f_ext[link], w, rtol=0, atol=1e-6)


def test_both_routes_agree(routes):
    grf, xml = routes
    np.testing.assert_array_equal(grf.t, xml.t)
    np.testing.assert_allclose(xml.tau, grf.tau, rtol=0, atol=1e-6)
    np.testing.assert_allclose(xml.residuals.force, grf.residuals.force, rtol=0, atol=1e-6)
    assert xml.load_peak == pytest.approx(grf.load_peak, abs=1e-6)
    assert grf.residuals.summary()["force_max"] == pytest.approx(118.56, abs=0.01)


def test_opensim_takes_the_forces_as_given():
    """What the docstrings say of OpenSim, asked of OpenSim 4.6: an ExternalLoads holds its
    data file and forces, no cutoff (lowpass_cutoff_frequency_for_load_kinematics, which
    filtered the kinematics used to re-express points, is gone), and the ID tool's only
    filter is the coordinates'."""
    osim = pytest.importorskip("opensim")

    def names(obj):
        return {obj.getPropertyByIndex(k).getName() for k in range(obj.getNumProperties())}

    assert not {x for x in names(osim.ExternalLoads()) if "lowpass" in x or "kinematics" in x}
    assert {x for x in names(osim.InverseDynamicsTool()) if "lowpass" in x} == {
        "lowpass_cutoff_frequency_for_coordinates"}
