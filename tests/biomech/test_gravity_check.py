"""No silently wrong gravity (issue 19, item 4): the bundled running trial (HuMoD, y up) run
with its own gravity, with the URDF default z-up gravity and with gravity along x; an OpenSim
.mot motion on a URDF model with z-up gravity."""
import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech import MotionError, formats, plausibility
from urdf2dyn.bundled import data_path
from urdf2dyn.cli.options import TRIAL_COLUMNS
from urdf2dyn.warn import Urdf2dynWarning

MOTION, GRF = data_path("running_a_3ms.csv"), data_path("running_a_3ms_grf.csv")


def _run(gravity, grf=GRF, **kw):
    model = urdf2dyn.humod_subject("A")
    model.gravity = gravity
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", Urdf2dynWarning)
        res = urdf2dyn.inverse_dynamics_trial(model, MOTION, grf=grf, **kw)
    return res, [str(x.message) for x in w if "gravity" in str(x.message)]


def test_the_running_demo_with_its_gravity_does_not_warn():
    res, msgs = _run((0, -9.81, 0))
    assert msgs == []
    assert not any("gravity" in m for m in res.warnings)


@pytest.mark.parametrize("gravity", [(0, 0, -9.81), (-9.81, 0, 0)])
def test_a_y_up_trial_with_another_gravity_warns_naming_the_option(gravity):
    """The library is advised its own words, model.gravity, not the command line's
    --gravity, which it lacks."""
    res, msgs = _run(gravity)
    assert len(msgs) == 1, msgs
    assert "model.gravity = (0, -9.81, 0)" in msgs[0] and "model's gravity" in msgs[0]
    assert "--gravity" not in msgs[0]
    # the residual warnings that would blame units, mass or the filter are not added
    assert not any("Hicks" in m for m in res.warnings)


def test_without_loads_the_residual_is_the_weight_and_nothing_is_said():
    model = urdf2dyn.humod_subject("A")
    model.gravity = (0, 0, -9.81)
    res = urdf2dyn.inverse_dynamics_trial(model, MOTION)
    assert not any("gravity" in m for m in res.warnings)


def test_strict_makes_it_an_error():
    model = urdf2dyn.humod_subject("A")
    model.gravity = (0, 0, -9.81)
    with pytest.raises(MotionError, match=r"model\.gravity = \(0, -9\.81, 0\)"):
        urdf2dyn.inverse_dynamics_trial(model, MOTION, grf=GRF, strict=True)


def test_cli_prints_it(capsys):
    assert cli.main(["torques", "humod_subject_a.urdf", MOTION, "--grf", GRF,
                     "--gravity", "0", "0", "-9.81"]) == 0
    err = capsys.readouterr().err
    assert "urdf2dyn torques: warning:" in err and "--gravity 0 -9.81 0" in err
    assert "model.gravity" not in err                # the library's words, not the command's


def test_opensim_motion_on_a_z_up_urdf_model_warns(tmp_path):
    model = urdf2dyn.load(data_path("humod_subject_a.urdf"))        # URDF default: z up
    traj = formats.read_csv(MOTION, model=model)
    formats.write_opensim(tmp_path / "run.mot", traj, model=model)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", Urdf2dynWarning)
        urdf2dyn.inverse_dynamics_trial(model, tmp_path / "run.mot")
    msgs = [str(x.message) for x in w]
    said = [m for m in msgs if "OpenSim motion file" in m]
    assert len(said) == 1 and "model.gravity = (0, -9.81, 0)" in said[0], msgs
    assert "--gravity" not in said[0]
    # the same file with y-up gravity, or a CSV file with z-up gravity: nothing
    model.gravity = (0, -9.81, 0)
    assert plausibility.opensim_axes(model, {"format": "opensim"}, "x") == []
    model.gravity = (0, 0, -9.81)
    assert plausibility.opensim_axes(model, {"format": "csv"}, "x") == []


def test_gravity_check_on_synthetic_residuals():
    """m (g_data - g_model) as the mean residual: the check names g_data's axis and sign."""
    model = urdf2dyn.humod_subject("A")
    m, t = model.total_mass, np.linspace(0, 1, 11)
    for g_data, expect, cli_expect in (
            ((0, 0, -9.81), "model.gravity = (0, 0, -9.81)", "--gravity 0 0 -9.81"),
            ((9.81, 0, 0), "model.gravity = (9.81, 0, 0)", "--gravity 9.81 0 0")):
        F = np.tile(m * (np.array(g_data) - model.gravity), (len(t), 1))
        msgs = plausibility.gravity(model, t, F, "x")
        assert len(msgs) == 1 and expect in msgs[0] and "--gravity" not in msgs[0], msgs
        msgs = plausibility.gravity(model, t, F, "x", named=TRIAL_COLUMNS)
        assert len(msgs) == 1 and cli_expect in msgs[0] and "model.gravity" not in msgs[0]
    # a residual of a tenth of the weight off-axis: a residual, not a wrong vertical
    F = np.tile([0.1 * m * 9.81, 0, 0], (len(t), 1))
    assert plausibility.gravity(model, t, F, "x") == []


def _flipped_vertical(tmp_path):
    """A copy of the running trial's reactions with the vertical force columns negated (the
    force the feet apply on the plates), and its mean summed vertical force from the CSV."""
    import csv
    with open(GRF, newline="") as f:
        rows = list(csv.reader(f))
    header, data = rows[0], np.array(rows[1:], dtype=float)
    ys = [k for k, x in enumerate(header) if x.startswith("grfY_")]
    assert len(ys) == 2
    data[:, ys] *= -1
    path = tmp_path / "running_a_3ms_grf.csv"
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([header] + [[repr(float(x)) for x in row] for row in data])
    return str(path), float(np.nansum(data[:, ys], axis=1).mean())


def test_flipped_vertical_loads_are_told_their_sign_not_the_gravity(tmp_path):
    """The gravity is right (the HuMoD runner's y up: the body stands above its feet) and the
    vertical forces point down, their mean minus the weight: the advice is to negate them."""
    flipped, mean_fy = _flipped_vertical(tmp_path)
    model = urdf2dyn.humod_subject("A")
    weight = model.total_mass * 9.81
    assert mean_fy == pytest.approx(-weight, rel=0.05)       # the closed form: -m g on average
    res, msgs = _run((0, -9.81, 0), grf=flipped)
    assert len(msgs) == 1, msgs
    assert "model.gravity" not in msgs[0]
    assert "sign is flipped" in msgs[0] and flipped in msgs[0]
    assert "negate its force columns" in msgs[0]
    assert f"their mean force is (-0, {mean_fy:.0f}, 0) N" in msgs[0]
    assert not any("Hicks" in m for m in res.warnings)


def test_upside_down_gravity_with_right_loads_keeps_the_gravity_advice():
    """The same data with the model's gravity pointing up: the loads are right and the body
    hangs below its feet along the model's gravity: the advice is the gravity, not the sign."""
    res, msgs = _run((0, 9.81, 0))
    assert len(msgs) == 1, msgs
    assert "model.gravity = (0, -9.81, 0)" in msgs[0] and "sign" not in msgs[0]


def test_cli_tells_the_flipped_sign(tmp_path, capsys):
    flipped, _ = _flipped_vertical(tmp_path)
    assert cli.main(["torques", data_path("humod_subject_a.urdf"), MOTION,
                     "--grf", flipped]) == 0
    err = capsys.readouterr().err
    assert "urdf2dyn torques: warning:" in err and "sign is flipped" in err
    assert "--gravity 0 9.81 0" not in err


def test_loads_tilted_off_the_right_vertical_are_not_told_to_change_gravity(tmp_path):
    """Plates read in a frame turned 40 deg about z: the loads hold the body up 40 deg off
    the model's y; the largest axis is still y, so '--gravity 0 -9.81 0' (the gravity it
    has) would be no advice at all: the warning says the gravity is right and names the
    horizontal force."""
    names, table = formats.read_table(GRF)
    c, s = np.cos(np.radians(40)), np.sin(np.radians(40))
    for side in ("L", "R"):
        x, y = names.index(f"grfX_{side}"), names.index(f"grfY_{side}")
        table[:, x], table[:, y] = (c * table[:, x] - s * table[:, y],
                                    s * table[:, x] + c * table[:, y])
    path = tmp_path / "turned_grf.csv"
    formats.write_table(path, table[:, 0], table[:, 1:], names[1:])
    _, msgs = _run((0, -9.81, 0), grf=str(path))
    assert len(msgs) == 1, msgs
    assert "deg away from the model's vertical" in msgs[0] and "The gravity is right" in msgs[0]
    assert "model.gravity" not in msgs[0]
    # the mean load turned by 40 deg holds the weight 40 deg off (the motion's own residual
    # is a few N against 562)
    assert float(msgs[0].split(" deg away")[0].rsplit(" ", 1)[1]) == pytest.approx(40, abs=2)
