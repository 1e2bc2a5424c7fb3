"""Models of opensim-core's own tests and bindings (tests/data/opensim_core/README.md) that
OpenSim 4.6 loads, against OpenSim 4.6 or, where OpenSim itself changes the file's numbers, a
closed form."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import urdf2dyn

from osim_oracle import Oracle

DATA = os.path.join(os.path.dirname(__file__), "data", "opensim_core")
WALKER = os.path.join(DATA, "WalkerModel.osim")


def _load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path)


def _walker_states(model, n=4):
    rng = np.random.default_rng(11)
    return [model.default_q + rng.uniform(-0.8, 0.8, model.nq) for _ in range(n)]


def test_walker_model_mass_matrix_is_its_closed_form():
    """WalkerModel (OpenSim 3, Version 30000): Pelvis_tx slides along the platform's x, the
    massless Pelvis_massless carries Pelvis_ty, a slider turned 1.5707963267949 rad (pi/2 to
    3e-15) from it, so the two slides are perpendicular and the 0.7 kg below both does not
    couple them. Each leg: a thigh and a shank, 0.05 kg, Izz 0.00104166666666667, 0.5 m
    long with its mass centre halfway, pinned about z at their ends."""
    model = _load(WALKER)
    m, izz, half = 0.05, 0.00104166666666667, 0.25
    tx, ty = model.q_names.index("Pelvis_tx"), model.q_names.index("Pelvis_ty")
    for q in _walker_states(model):
        M = model.mass_matrix(q)
        assert M[tx, tx] == pytest.approx(0.7, abs=1e-14)
        assert M[ty, ty] == pytest.approx(0.7, abs=1e-14)
        assert abs(M[tx, ty]) < 1e-14
        for side in "LR":
            hip = model.q_names.index(f"{side}Hip_rz")
            knee = model.q_names.index(f"{side}Knee_rz")
            shank_from_hip_sq = 4 * half**2 + half**2 + 4 * half**2 * np.cos(q[knee])
            assert M[knee, knee] == pytest.approx(izz + m * half**2, abs=1e-15)
            assert M[hip, hip] == pytest.approx(2 * izz + m * half**2 + m * shank_from_hip_sq,
                                                abs=1e-15)


def test_walker_model_differs_from_opensim_by_its_converters_rounding_only(osim, tmp_path):
    """OpenSim 4.6 updates an OpenSim 3 file's inertias and joint frames through text written
    with six significant digits (Body::updateFromXMLNode, XMLDocument::
    addPhysicalOffsetFrame30505_30517): Izz 0.00104166666666667 becomes 0.00104167 and the
    sliders' turn 1.5707963267949 becomes 1.5708, 3.7e-6 rad off a right angle. Its mass
    matrix then couples the two slides by 0.7 kg * sin(3.7e-6) and differs from the file's
    model by 3.7e-6 of its largest entry; the model OpenSim writes back (the numbers it
    uses) gives urdf2dyn OpenSim's matrix and inverse dynamics to 1e-12."""
    model = _load(WALKER)
    oracle = Oracle(osim, WALKER, model.q_names)
    upgraded = str(tmp_path / "WalkerModel_4.osim")
    osim.Model(WALKER).printToXML(upgraded)
    as_opensim_reads_it = _load(upgraded)
    assert as_opensim_reads_it.q_names == model.q_names
    tx, ty = model.q_names.index("Pelvis_tx"), model.q_names.index("Pelvis_ty")
    rng = np.random.default_rng(5)
    for q in _walker_states(model):
        theirs = oracle.mass_matrix(q)
        gap = np.max(np.abs(model.mass_matrix(q) - theirs)) / np.max(np.abs(theirs))
        assert 3.6e-6 < gap < 3.8e-6
        assert theirs[tx, ty] == pytest.approx(-0.7 * np.sin(1.5708 - np.pi / 2), rel=1e-9)
        np.testing.assert_allclose(as_opensim_reads_it.mass_matrix(q), theirs, rtol=0,
                                   atol=1e-12)
        v, a = rng.normal(0, 1, model.nv), rng.normal(0, 3, model.nv)
        np.testing.assert_allclose(as_opensim_reads_it.inverse_dynamics(q, v, a),
                                   oracle.inverse_dynamics(q, v, a), rtol=0, atol=1e-12)
