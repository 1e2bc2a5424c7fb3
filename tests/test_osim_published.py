"""Every published model of opensim-models' Models/ folder loads: `urdf2dyn info`, a one-frame
inverse dynamics (equal to OpenSim 4.6's) and `urdf2dyn torques` run without a traceback and
the torques are written; what the core reads of a model beside its dynamics (the ForceSet,
OpenSim's multibody tree order of the coordinates) is what OpenSim reads.

Nine of the folder's 34 models (Jumper, ToyLanding and its variants, SoccerKick, WalkerModel,
BouncingBlock) name elements such as ``<HuntCrossleyForce::ContactParametersSet>``, which no
XML parser but OpenSim's and Mini-XML accepts: Python once parsed the .osim beside the core
and ended `info` in an xml.etree ParseError, `torques` after the torques were computed. Only
the core reads an .osim now.

Models: tests/data/opensim_models/Models (its README: five models as published, and gz/,
thirteen more compressed, the nine among them); the whole folder where the environment
variable URDF2DYN_OPENSIM_MODELS names an opensim-models checkout or its Models/ folder.
"""
from __future__ import annotations

import gzip
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli

from osim_oracle import Oracle, run_id_tool, write_held_coordinates

DATA = os.path.join(os.path.dirname(__file__), "data", "opensim_models", "Models")


def _published():
    files = [os.path.join(DATA, f) for f in sorted(os.listdir(DATA)) if f.endswith(".osim")]
    files += [os.path.join(DATA, "gz", f) for f in sorted(os.listdir(os.path.join(DATA, "gz")))]
    root = os.environ.get("URDF2DYN_OPENSIM_MODELS")
    if root:
        folder = os.path.join(root, "Models") if os.path.isdir(os.path.join(root, "Models")) \
            else root
        for d, _, names in sorted(os.walk(folder)):
            files += [os.path.join(d, f) for f in sorted(names) if f.endswith(".osim")]
    return files


def _id(path):
    return os.path.relpath(path, DATA) if path.startswith(DATA) else "folder/" + os.path.basename(
        os.path.dirname(path)) + "/" + os.path.basename(path)


@pytest.fixture(scope="module", params=_published(), ids=_id)
def osim_file(request, tmp_path_factory):
    path = request.param
    if path.endswith(".gz"):
        out = tmp_path_factory.mktemp("models") / os.path.basename(path)[:-3]
        out.write_bytes(gzip.decompress(Path(path).read_bytes()))
        path = str(out)
    return path


def _load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path)


def test_the_vendored_models_include_the_nine_that_broke_the_command_line():
    text = {f: gzip.decompress(Path(os.path.join(DATA, "gz", f)).read_bytes())
            for f in os.listdir(os.path.join(DATA, "gz"))}
    broke = sorted(f[:-8] for f, t in text.items() if b"<HuntCrossleyForce::" in t)
    assert broke == ["DynamicJumperModel", "SoccerKickingModel", "ToyLandingModel",
                     "ToyLandingModel_AFO", "ToyLandingModel_activeAFO", "WalkerModel",
                     "WalkerModelTerrain", "bouncing_block", "bouncing_block_weak_spring"]


def test_info_prints_the_tree(osim_file, capsys):
    assert cli.main(["info", osim_file]) == 0
    out = capsys.readouterr().out
    model = _load(osim_file)
    assert f"movable joints: {len(model.joints)}" in out
    assert out.count("->") >= len(model.joints)          # every joint drawn in the tree


def test_one_frame_inverse_dynamics_equals_opensims(osim_file, osim):
    """At the model's default pose, at rest, with accelerations: OpenSim's
    InverseDynamicsSolver (forces removed, as its ID tool excludes them)."""
    model = _load(osim_file)
    oracle = Oracle(osim, osim_file, model.q_names)
    a = np.random.default_rng(3).normal(0, 5, model.nv)
    q, v = model.default_q, np.zeros(model.nv)
    ours, theirs = model.inverse_dynamics(q, v, a), oracle.inverse_dynamics(q, v, a)
    assert np.all(np.isfinite(ours))
    assert np.max(np.abs(ours - theirs)) <= 1e-9 * max(1.0, np.max(np.abs(theirs)))


def test_torques_writes_its_output(osim_file, tmp_path):
    model = _load(osim_file)
    motion = tmp_path / "still.csv"
    rows = [",".join(["time", *model.q_names])]
    rows += [",".join([f"{0.01 * k:g}", *(repr(float(x)) for x in model.default_q)])
             for k in range(5)]
    motion.write_text("\n".join(rows) + "\n")
    out = tmp_path / "tau.csv"
    assert cli.main(["torques", osim_file, str(motion), "-o", str(out),
                     "--no-progress"]) == 0
    header, *lines = out.read_text().splitlines()
    assert header.split(",") == ["time", *model.v_names]
    tau = np.array([[float(x) for x in line.split(",")] for line in lines])
    assert tau.shape == (5, model.nv + 1) and np.all(np.isfinite(tau))
    # at rest the generalized forces are the gravity torques
    np.testing.assert_allclose(tau[:, 1:], np.tile(model.gravity_torques(model.default_q),
                                                   (5, 1)), atol=1e-9)


def test_forces_and_tree_order_are_opensims(osim_file, osim):
    """model.forces (the ForceSet's names and classes) and model.multibody_order (the column
    order of OpenSim's inverse dynamics) against OpenSim's own model."""
    model = _load(osim_file)
    om = osim.Model(osim_file)
    om.initSystem()
    fs = om.getForceSet()
    assert [(f.name, f.kind) for f in model.forces] == [
        (fs.get(i).getName(), fs.get(i).getConcreteClassName()) for i in range(fs.getSize())]
    names = om.getCoordinateNamesInMultibodyTreeOrder()
    assert model.multibody_order == tuple(names.getElt(i) for i in range(names.size()))


def test_moco_2d_gait_names_its_component_forces_and_equals_opensim_without_them(osim,
                                                                                  tmp_path):
    """Moco's 2D_gait.osim declares its muscles, actuator and foot contacts under the Model's
    <components> (tests/data/opensim_models/moco/README.md): they are model.forces as OpenSim
    lists them, the four contacts named in the loader's warning (strict refuses), and with
    every force off OpenSim's inverse dynamics equals urdf2dyn's; with the contacts on it
    does not."""
    path = tmp_path / "2D_gait.osim"
    path.write_bytes(gzip.decompress(Path(os.path.join(
        os.path.dirname(DATA), "moco", "2D_gait.osim.gz")).read_bytes()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = urdf2dyn.load(str(path))
    said = [str(w.message) for w in caught if "force element" in str(w.message)]
    contacts = ["contactHeel_r", "contactHeel_l", "contactFront_r", "contactFront_l"]
    # the contacts, then its muscles (test_moco_2d_gait_names_its_component_muscles_...)
    assert len(said) == 1 and said[0].split(": ", 1)[1].startswith(
        "22 force elements that urdf2dyn does not apply: " + ", ".join(
            f"'{c}' (SmoothSphereHalfSpaceForce, in <components>)" for c in contacts)), said
    with pytest.raises(urdf2dyn.URDFError, match="'contactHeel_r'"):
        urdf2dyn.load(str(path), strict=True)

    oracle = Oracle(osim, str(path), model.q_names)
    forces = [osim.Force.safeDownCast(c) for c in oracle.om.getComponentsList()]
    forces = [f for f in forces if f is not None]
    assert [(f.name, f.kind) for f in model.forces] == [
        (f.getName(), f.getConcreteClassName()) for f in forces]
    assert all(f.component for f in model.forces)
    assert sum(not f.actuator for f in model.forces) == 4
    q, v, a = model.default_q, np.zeros(model.nv), np.zeros(model.nv)
    with_contacts = oracle.inverse_dynamics(q, v, a)
    for f in forces:
        f.setAppliesForce(oracle.s, False)
    assert np.max(np.abs(model.inverse_dynamics(q, v, a) - with_contacts)) > 1e4
    rng = np.random.default_rng(7)
    states = [(q, v, a)] + [(rng.uniform(-1, 1, model.nq), rng.normal(0, 3, model.nv),
                             rng.normal(0, 10, model.nv)) for _ in range(3)]
    for q, v, a in states:
        theirs = oracle.inverse_dynamics(q, v, a)
        ours = model.inverse_dynamics(q, v, a)
        assert np.max(np.abs(ours - theirs)) <= 1e-9 * max(1.0, np.max(np.abs(theirs)))
        assert np.max(np.abs(model.mass_matrix(q) - oracle.mass_matrix(q))) < 1e-10


def test_moco_2d_gait_names_its_component_muscles_opensims_id_tool_applies(osim, tmp_path):
    """2D_gait.osim without its foot contacts (removed with OpenSim's API): its 18 muscles
    under <components> are actuators, which a setup usually leaves out with
    <forces_to_exclude> Muscles. OpenSim 4.6's InverseDynamicsTool applies them whatever the
    list says (it excludes ForceSet members only), and their passive fibre forces at the
    default pose change its ankle moments by 5.9 N·m, so the loader names them as it names
    passive elements (it said nothing of them). Its lumbar CoordinateActuator, without a
    control, supplies nothing there: not named (test_osim.py's motor_in_components)."""
    source = tmp_path / "2D_gait_source.osim"
    source.write_bytes(gzip.decompress(Path(os.path.join(
        os.path.dirname(DATA), "moco", "2D_gait.osim.gz")).read_bytes()))
    om = osim.Model(str(source))
    for name in ("contactHeel_r", "contactHeel_l", "contactFront_r", "contactFront_l"):
        om.removeComponent(om.getComponent(name))
    om.finalizeConnections()
    path = tmp_path / "2D_gait_muscles.osim"
    om.printToXML(str(path))
    printed = osim.Model(str(path))
    printed.initSystem()
    muscles = [(m.getName(), m.getConcreteClassName()) for m in (
        osim.Muscle.safeDownCast(c) for c in printed.getComponentsList()) if m is not None]
    assert len(muscles) == 18
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = urdf2dyn.load(str(path))
    said = [str(w.message) for w in caught if "force element" in str(w.message)]
    assert len(said) == 1 and said[0].split(": ", 1)[1].startswith(
        "18 force elements that urdf2dyn does not apply: " + ", ".join(
            f"'{n}' ({k}, in <components>)" for n, k in muscles[:6])), said
    assert "lumbarAct" not in said[0]
    assert "OpenSim's inverse dynamics tool applies even when <forces_to_exclude> names them" \
        in said[0]
    q = model.default_q
    write_held_coordinates(tmp_path / "q.mot", model.q_names, q)
    ours = dict(zip(model.q_names, model.inverse_dynamics(q, np.zeros(model.nv),
                                                          np.zeros(model.nv))))
    for excluded in ("Muscles", "All"):
        written = run_id_tool(osim, path, tmp_path / "q.mot", tmp_path, excluded)
        table = osim.TimeSeriesTable(str(written))
        theirs = dict(zip(table.getColumnLabels(), table.getRowAtIndex(5).to_numpy()))
        ankle = abs(theirs["ankle_angle_r_moment"] - ours["ankle_angle_r"])
        assert ankle > 3.0, (excluded, ankle)      # the muscles' passive forces, applied
