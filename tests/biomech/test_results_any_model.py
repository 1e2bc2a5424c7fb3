"""Results that fit any model, not only the bundled human (issue 27, item 7): each generalized
force in its unit (N·m or N) in summaries and plot axes, --per-kg in the plot too, the legs'
sagittal moments for OpenSim's standard coordinate names with the clinical signs, and an
animation upright in the model's world that draws only the body.

Oracles: the coordinates' own motion (an OpenSim coupled coordinate that turns its joint's
rotation axes is an angle), statics for the clinical signs (a straight leg held horizontal
needs a knee extension and a hip flexion moment, a hanging foot a dorsiflexion moment,
whatever a model's coordinate directions), the published gait2354 walk (the ankle's
plantarflexion moment in stance), and the pictures' own coordinates."""
from __future__ import annotations

import gzip
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech import gait
from urdf2dyn.biomech.animate import stick_segments, upright
from urdf2dyn.biomech.formats import torque_units
from urdf2dyn.warn import Urdf2dynWarning
from cli_here import working_in

HERE = os.path.dirname(__file__)
MODELS = os.path.join(HERE, "..", "data", "opensim_models", "Models")
GAIT2354 = os.path.join(HERE, "..", "data", "opensim_models", "Gait2354_Simbody")


def _load(path):
    with warnings.catch_warnings():
        # the models' own notes (leg39's flat toes inertia, the bouncing block's forces and
        # constraints, not applied) are the loader's tests' subject, not these
        warnings.simplefilter("ignore", Urdf2dynWarning)
        return urdf2dyn.load(path)


def _unzip(folder, src):
    path = folder / os.path.basename(src)[:-3]
    path.write_bytes(gzip.decompress(Path(src).read_bytes()))
    return str(path)


@pytest.fixture(scope="module")
def leg39_file(tmp_path_factory):
    """Leg39 (one leg, a planar pelvis, Arnold's knee: no sagittal names of both legs)."""
    return _unzip(tmp_path_factory.mktemp("leg39"),
                  os.path.join(HERE, "..", "data", "ik", "leg39", "leg39.osim.gz"))


@pytest.fixture(scope="module")
def leg39(leg39_file):
    return _load(leg39_file)


def test_each_generalized_force_has_its_unit(leg39):
    raj = _load(os.path.join(MODELS, "Rajagopal2016.osim"))
    units = dict(zip(raj.v_names, torque_units(raj)))
    assert [units[f"pelvis_{a}"] for a in ("tilt", "list", "rotation", "tx", "ty", "tz")] == \
        ["N·m"] * 3 + ["N"] * 3
    # the patella's coupled coordinate turns its joint: an angle (OpenSim names it _force)
    assert raj.coordinates["knee_angle_r_beta"].motion == "coupled"
    assert units["knee_angle_r_beta"] == "N·m" and units["knee_angle_r"] == "N·m"
    # Arnold's knee: the tibia's translations are lengths
    legu = dict(zip(leg39.v_names, torque_units(leg39, per_kg=True)))
    assert legu["tib_tx_r"] == legu["tib_ty_r"] == "N/kg" and legu["knee_angle_r"] == "N·m/kg"
    human = urdf2dyn.load(urdf2dyn.data_path("humod_subject_a.urdf"))
    hu = dict(zip(human.v_names, torque_units(human)))
    assert hu["pBJX"] == "N" and hu["rKJZ_L"] == "N·m"


def _still_motion(model, path, n=5):
    rows = [",".join(["time", *model.q_names])]
    rows += [",".join([f"{0.01 * k:g}", *(repr(float(x)) for x in model.default_q)])
             for k in range(n)]
    path.write_text("\n".join(rows) + "\n")
    return path


def test_summary_names_each_unit_and_per_kg(leg39, leg39_file, tmp_path, capsys):
    """A model without both legs' sagittal names lists every DoF's peak in its own unit; the
    peak list mixed N and N·m without saying which."""
    motion = _still_motion(leg39, tmp_path / "still.csv")
    mass = leg39.total_mass
    for per_kg in (False, True):
        argv = ["torques", leg39_file, str(motion), "--no-progress"] + (
            ["--per-kg"] if per_kg else [])
        assert cli.main(argv) == 0
        out = capsys.readouterr().out
        rows = {line.split()[0]: line.split() for line in out.splitlines()
                if line.split() and line.split()[0] in leg39.v_names}
        kg = "/kg" if per_kg else ""
        assert rows["tib_ty_r"][2] == f"N{kg}" and rows["knee_angle_r"][2] == f"N·m{kg}"
        g = np.abs(leg39.gravity_torques(leg39.default_q))
        k = leg39.v_names.index("pelvis_ty")
        assert float(rows["pelvis_ty"][1]) == pytest.approx(g[k] / (mass if per_kg else 1),
                                                            rel=1e-3)


@pytest.mark.parametrize("name", ["gait2392_millard2012muscle.osim", "Rajagopal2016.osim"])
def test_opensim_sagittal_signs_follow_statics(name):
    """A straight leg lifted forward to horizontal (hip flexed 90 degrees): holding it needs a
    hip flexion moment (negative: extension positive) and, with the shank straight out, a
    knee extension moment (positive); the foot hanging below a vertical leg needs a
    dorsiflexion moment (negative: plantarflexion positive). Gait2392 flexes its knee to
    negative angles, Rajagopal to positive ones: the signs are the same."""
    model = _load(os.path.join(MODELS, name))
    assert gait.has_sagittal(model) and not gait.is_human(model)
    q = model.default_q.copy()
    for n in model.q_names:
        if n.startswith(("knee_angle", "ankle_angle", "hip_", "subtalar", "mtp")):
            q[model.q_names.index(n)] = 0.0
    q[model.q_names.index("hip_flexion_r")] = np.pi / 2
    m = gait.sagittal_moments(model, model.gravity_torques(q))     # holding q still
    assert m["hip_R"] < -1.0 and m["knee_R"] > 1.0
    assert m["ankle_L"] < 0 and abs(m["knee_L"]) < abs(m["knee_R"])


def test_opensim_gait_gets_the_sagittal_plot_and_table(tmp_path, capsys):
    """gait2354's published walk (its ID setup): the summary's table and the plot are the
    legs' sagittal moments; the right ankle's plantarflexion moment in stance is the
    largest, 1.5-1.9 N·m/kg as in any adult's walk."""
    pytest.importorskip("matplotlib")
    plot = tmp_path / "walk.png"
    with working_in(GAIT2354):
        assert cli.main(["torques", "--setup", "subject01_Setup_InverseDynamics.xml",
                         "--plot", str(plot), "-o", str(tmp_path / "tau.sto")]) == 0
    out = capsys.readouterr().out
    assert "peak sagittal joint moments, N·m/kg" in out
    line = next(x for x in out.splitlines() if "ankle plantarflexion" in x)
    left, right = map(float, line.split()[-2:])
    assert 1.5 < right < 1.9 and right == max(right, left)
    assert plot.stat().st_size > 10_000


def test_generic_plot_has_units_per_kg_and_no_root(leg39, tmp_path):
    """Without sagittal names: one panel per coordinate but a 6-DoF root's (residuals),
    each labelled with its unit, the curves divided by the mass with per_kg (the plot drew
    the twelve largest, root included, unlabelled, and ignored --per-kg)."""
    pytest.importorskip("matplotlib")
    from urdf2dyn.biomech import plot
    t = np.linspace(0, 1, 11)
    q = leg39.default_q + 0.1 * np.random.default_rng(0).normal(size=(11, leg39.nq))
    tau = leg39.gravity_torques(q)
    fig = plot.plot_generalized_forces(t, tau, leg39, mass=50.0, per_kg=True)
    axes = {ax.get_ylabel().split("\n")[0]: ax for ax in fig.axes}
    assert set(axes) <= set(leg39.v_names) and len(axes) == 12
    k = leg39.v_names.index("knee_angle_r")
    assert axes["knee_angle_r"].get_ylabel().endswith("N·m/kg")
    np.testing.assert_allclose(axes["knee_angle_r"].lines[0].get_ydata(), tau[:, k] / 50.0)
    if "tib_ty_r" in axes:
        assert axes["tib_ty_r"].get_ylabel().endswith("\nN/kg")
    # a 6-DoF root's coordinates are residuals: left out (the block's free joint)
    block = _load(_unzip(tmp_path, os.path.join(MODELS, "gz", "bouncing_block.osim.gz")))
    fig = plot.plot_generalized_forces(t, np.ones((11, block.nv)), block)
    assert [ax.get_ylabel() for ax in fig.axes] == ["pin1_rot\nN·m", "pin2_rot\nN·m"]


def test_animation_is_upright_and_draws_only_the_body():
    """gait2354 (y up): no segment from the world origin (the pelvis' 6-DoF joint is not
    drawn), one per other joint; shown upright, the pelvis at about 1 m, the back's joint
    the top and the feet near 0 (drawn lying on its side before, from the world origin)."""
    model = _load(os.path.join(GAIT2354, "subject01_simbody.osim"))
    q = model.default_q[None]
    seg = stick_segments(model, q)
    assert seg.shape[1] == len(model.joints) - 1
    assert not np.any(np.all(np.abs(seg[0, :, 0]) < 1e-9, axis=1))    # nothing from 0
    R, labels = upright(model.gravity)
    assert labels[2] == "y (m)"
    shown = seg[0] @ R.T
    pelvis = model.forward_kinematics(q)[0][0, model.link_names.index("pelvis")] @ R.T
    assert 0.8 < pelvis[2] < 1.2 and shown[..., 2].max() < 1.3       # the back's joint top
    assert shown[..., 2].min() < 0.15
    # the human model's root is a chain of six joints through massless links: none drawn
    human = urdf2dyn.load(urdf2dyn.data_path("humod_subject_a.urdf"))
    hs = stick_segments(human, np.zeros((1, human.nq)))
    assert hs.shape[1] == len(human.joints) - 6
