"""Force plates to feet (urdf2dyn.biomech.plates), and the ExternalLoads pair written for
OpenSim. The assignment is checked against the lab's own gait events on ezc3d's Qualisys trial
(heel strikes written by the capture software), the reports on constructed contacts whose
answer is known, and the written pair by OpenSim's own classes."""
import os
import warnings

import numpy as np
import pytest

from urdf2dyn import Urdf2dynWarning
from urdf2dyn.forces import wrench_at_point
from urdf2dyn.biomech.formats import read_external_loads, write_external_loads
from urdf2dyn.biomech.formats.c3d import Plate
from urdf2dyn.biomech.plates import assign_plates, foot_positions
from urdf2dyn.biomech.trajectory import MotionError

QUALISYS = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d", "Qualisys.c3d")


@pytest.fixture(scope="module")
def trial():
    pytest.importorskip("ezc3d")
    from urdf2dyn.biomech.formats import read_c3d
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        rec = read_c3d(QUALISYS)
    return rec


def test_plates_go_to_the_foot_the_lab_saw_strike(trial):
    m = trial.markers
    loads = assign_plates(trial.plates, {"L": m.marker("L_FCC"), "R": m.marker("R_FCC")})
    contacts = loads.meta["contacts"]
    assert [c[3] for c in contacts] == ["L", "R"]
    # each contact starts within two frames of the heel strike the lab marked for that foot
    strikes = {"L": [e.time for e in trial.events if e.label == "LHS"],
               "R": [e.time for e in trial.events if e.label == "RHS"]}
    for plate, t0, _, foot in contacts:
        assert min(abs(t0 - s) for s in strikes[foot]) <= 2 / m.meta["rate"]
    for foot, p in (("L", trial.plates[0]), ("R", trial.plates[1])):
        np.testing.assert_array_equal(loads.grf[foot], p.force)
        np.testing.assert_allclose(loads.cop[foot], p.cop, atol=1e-12, equal_nan=True)


def _plate(number, x0, time, force, cop):
    corners = np.array([[x0 + 0.5, 0.4, 0], [x0 + 0.5, 0, 0], [x0, 0, 0], [x0, 0.4, 0]])
    contact = force[:, 2] >= 20
    return Plate(number, 2, corners, time, np.where(contact[:, None], force, 0),
                 np.where(contact[:, None], cop, np.nan), np.zeros_like(force), contact,
                 np.array([0, 0, 1.0]))


def test_a_step_on_two_plates_is_reported_and_summed():
    t = np.arange(100) / 100
    f1 = np.zeros((100, 3)); f1[20:60] = [10, 0, 400]
    f2 = np.zeros((100, 3)); f2[40:80] = [-5, 3, 300]
    c1 = np.tile([0.45, 0.2, 0.0], (100, 1))
    c2 = np.tile([0.55, 0.2, 0.0], (100, 1))
    plates = [_plate(1, 0.0, t, f1, c1), _plate(2, 0.5, t, f2, c2)]
    feet = {"R": np.tile([0.5, 0.2, 0.03], (100, 1)), "L": np.tile([0.5, 1.5, 0.03], (100, 1))}
    with pytest.warns(Urdf2dynWarning, match=r"trial.c3d: foot 'R' stands on force plates "
                                             r"\[1, 2\] at once at t = 0.400-0.590 s"):
        loads = assign_plates(plates, feet, source="trial.c3d")
    # the same wrench about the origin as the two plates' loads applied separately
    both = wrench_at_point(f1[40:60], c1[40:60]) + wrench_at_point(f2[40:60], c2[40:60])
    one = wrench_at_point(loads.grf["R"][40:60], loads.cop["R"][40:60], loads.moment["R"][40:60])
    np.testing.assert_allclose(one, both, atol=1e-9)
    np.testing.assert_allclose(loads.cop["R"][40:60, 2], 0, atol=1e-12)   # on the floor
    assert np.all(np.isnan(loads.cop["L"]))
    with pytest.raises(MotionError, match="stands on force plates"):
        assign_plates(plates, feet, strict=True)


def test_a_contact_with_no_foot_near_is_left_out_and_named():
    t = np.arange(50) / 100
    f = np.zeros((50, 3)); f[10:30] = [0, 0, 500]
    plates = [_plate(3, 0.0, t, f, np.tile([0.25, 0.2, 0.0], (50, 1)))]
    feet = {"R": np.tile([2.0, 0.2, 0.0], (50, 1))}
    with pytest.warns(Urdf2dynWarning, match=r"force plate 3, t = 0.100-0.290 s: no foot within "
                                             r"0.25 m of the centre of pressure \(nearest: 'R' "
                                             r"at 1.750 m\)"):
        loads = assign_plates(plates, feet)
    assert np.all(loads.grf["R"] == 0) and loads.meta["contacts"][0][3] is None


def test_external_loads_pair_is_read_by_opensim_and_by_us(trial, tmp_path):
    m = trial.markers
    loads = assign_plates(trial.plates, {"l": m.marker("L_FCC"), "r": m.marker("R_FCC")})
    xml = str(tmp_path / "walk_grf.xml")
    write_external_loads(xml, loads, {"r": "calcn_r", "l": "calcn_l"})
    ours = read_external_loads(xml)
    assert [f.applied_to_body for f in ours.forces] == ["calcn_r", "calcn_l"]
    on = trial.plates[1].contact
    np.testing.assert_allclose(ours._block(ours.forces[0], "force")[on], trial.plates[1].force[on])
    np.testing.assert_allclose(ours._block(ours.forces[0], "point")[on], trial.plates[1].cop[on])
    osim = pytest.importorskip("opensim")
    el = osim.ExternalLoads(xml, True)
    assert el.getSize() == 2 and el.get(0).get_applied_to_body() == "calcn_r"
    assert el.getDataFileName().endswith("walk_grf.mot")
    table = osim.TimeSeriesTable(str(tmp_path / "walk_grf.mot"))
    labels = list(table.getColumnLabels())
    assert labels[:3] == ["r_ground_force_vx", "r_ground_force_vy", "r_ground_force_vz"]
    np.testing.assert_allclose(table.getMatrix().to_numpy()[:, 9:12], loads.grf["l"])


def test_foot_positions_by_forward_kinematics_decide_the_plate():
    """robot2r: link2's origin is at 2 (cos q1, sin q1, 0) (closed form); a plate loaded at
    (2, 0, 0) goes to it, not to link1 at the origin."""
    import urdf2dyn
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    n = 60
    q = np.zeros((n, 2))
    q[:, 0] = np.linspace(-0.05, 0.05, n)
    q[:, 1] = np.linspace(0, 1, n)
    feet = foot_positions(model, q, {"A": "link2", "B": "link1"})
    np.testing.assert_allclose(feet["A"], np.column_stack([2 * np.cos(q[:, 0]),
                                                           2 * np.sin(q[:, 0]), 0 * q[:, 0]]),
                               atol=1e-12)
    t = np.arange(n) / 100
    f = np.zeros((n, 3)); f[5:50] = [0, 0, 300]
    loads = assign_plates([_plate(1, 1.8, t, f, np.tile([2.0, 0.05, 0.0], (n, 1)))], feet)
    assert [c[3] for c in loads.meta["contacts"]] == ["A"]
    with pytest.raises(MotionError, match="'calcn_r' is not a link of the model"):
        foot_positions(model, q, {"R": "calcn_r"})


def test_midfoot_is_midway_to_the_distal_link_in_closed_form():
    """robot2r: link1 (origin 0) carries link2 (origin 2 (cos q1, sin q1, 0)): link1's
    mid-foot is (cos q1, sin q1, 0); link2 carries nothing, its mid-foot is its origin."""
    import urdf2dyn
    from urdf2dyn.biomech.plates import midfoot_positions
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    q = np.column_stack([np.linspace(-1, 1, 7), np.linspace(0, 2, 7)])
    mid = midfoot_positions(model, q, {"A": "link1", "B": "link2"})
    ring = np.column_stack([np.cos(q[:, 0]), np.sin(q[:, 0]), 0 * q[:, 0]])
    np.testing.assert_allclose(mid["A"], ring, atol=1e-12)
    np.testing.assert_allclose(mid["B"], 2 * ring, atol=1e-12)


GAIT2392 = os.path.join(os.path.dirname(__file__), os.pardir, "data", "ik", "gait2392")


def test_midfoot_assigns_gait2392_where_the_heel_rule_fails():
    """opensim-models' Gait2392 walk (its C3D, tests/data/ik/gait2392; the published
    ExternalLoads put plate 1's stream on calcn_r, plate 2's on calcn_l), feet by our IK of
    its markers on its scaled model: every contact goes to the published foot from the
    mid-foot. From the calcaneus' origin (the heel) the first contact, a right push-off with
    the centre of pressure under the forefoot, is 0.256 m away on median: beyond max_distance
    (0.25 m), its load would be left out."""
    pytest.importorskip("ezc3d")
    import urdf2dyn
    from urdf2dyn.biomech import ik
    from urdf2dyn.biomech.formats import read_c3d
    from urdf2dyn.biomech.plates import midfoot_positions
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        model = urdf2dyn.load(os.path.join(GAIT2392, "subject01_simbody.osim"))
        rec = read_c3d(os.path.join(GAIT2392, "subject01_walk1.c3d"), rotation="x:-90")
    res = ik.solve(model, rec.markers, locked=model.locked_coordinates,
                   ranges=model.clamped_ranges, q0=model.default_q)
    links = {"R": "calcn_r", "L": "calcn_l"}
    published = {1: "R", 2: "L"}
    loads = assign_plates(rec.plates, midfoot_positions(model, res.motion.q, links))
    contacts = loads.meta["contacts"]
    assert len(contacts) == 6
    assert [c[3] for c in contacts] == [published[c[0]] for c in contacts]
    with pytest.warns(Urdf2dynWarning, match=r"force plate 1, t = 0\.000-0\.150 s: no foot "
                      r"within 0\.25 m .* \(nearest: 'R' at 0\.256 m\)"):
        heel = assign_plates(rec.plates, foot_positions(model, res.motion.q, links))
    assert [c[3] for c in heel.meta["contacts"]][0] is None
