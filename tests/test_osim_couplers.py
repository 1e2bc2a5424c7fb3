"""OpenSim CoordinateCouplerConstraints: kept as mobilities by default (OpenSim's
inverse-dynamics tool ignores constraints), eliminated on request.

Oracles: the default inverse dynamics (itself equal to OpenSim's InverseDynamicsSolver,
tests/test_osim.py) projected by hand on Rajagopal 2016's patella couplers; for a coupler
through a SimmSpline, the power balance of the reduced system, d(T + V)/dt = v . tau along a
path q(t) of the independent coordinates (a wrong v_d, a_d or projection breaks it).
"""
from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.model import Coupler

from test_osim import DATA, MODELS, SPLINE, _states, every_joint_model


def _load(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        return urdf2dyn.load(path, **kw)


RAJAGOPAL = os.path.join(DATA, MODELS["rajagopal"])


def test_rajagopal_couplers_are_read_and_kept_by_default():
    m = _load(RAJAGOPAL)
    assert m.couplers == (Coupler("knee_angle_r_beta", "knee_angle_r", 1.0),
                          Coupler("knee_angle_l_beta", "knee_angle_l", 1.0))
    assert not m.eliminate_couplers
    q, v, a = next(_states(m, 1, 3))
    tau = m.inverse_dynamics(q, v, a)          # the dependent force has its own entry
    assert tau[m.q_names.index("knee_angle_r_beta")] != 0.0


def test_rajagopal_elimination_moves_the_patella_force_onto_the_knee():
    keep, elim = _load(RAJAGOPAL), _load(RAJAGOPAL, couplers="eliminate")
    idx = {n: k for k, n in enumerate(keep.q_names)}
    for q, v, a in _states(keep, 3, 4):
        for side in "rl":
            i, d = idx[f"knee_angle_{side}"], idx[f"knee_angle_{side}_beta"]
            q[d], v[d], a[d] = q[i], v[i], a[i]     # f(x) = x: the constraint holds
        tau, tau_e = keep.inverse_dynamics(q, v, a), elim.inverse_dynamics(q, v, a)
        for side in "rl":
            i, d = idx[f"knee_angle_{side}"], idx[f"knee_angle_{side}_beta"]
            assert tau_e[i] == pytest.approx(tau[i] + 1.0 * tau[d], rel=1e-13, abs=1e-12)
            assert tau_e[d] == 0.0
        others = [k for n, k in idx.items() if "knee_angle" not in n]
        np.testing.assert_array_equal(tau_e[others], tau[others])
    # batches too, and the dependent coordinates' given values do not matter
    Q, V, A = (np.array(x) for x in zip(*_states(keep, 4, 5)))
    one = np.array([elim.inverse_dynamics(Q[k], V[k], A[k]) for k in range(4)])
    np.testing.assert_allclose(elim.inverse_dynamics(Q, V, A), one, rtol=1e-14, atol=1e-12)


def _spline_coupled_model(tmp_path):
    """The every-joint model with a coupler c2 = 0.8 * SPLINE(c1) (c1, c2 on one custom joint),
    and one pin = 1.3 * u0 + 0.2 across bodies."""
    text = every_joint_model()
    constraints = (
        '<ConstraintSet name="constraintset"><objects>'
        '<CoordinateCouplerConstraint name="k1"><coupled_coordinates_function>'
        f'{SPLINE}</coupled_coordinates_function>'
        '<independent_coordinate_names>c1</independent_coordinate_names>'
        '<dependent_coordinate_name>c2</dependent_coordinate_name>'
        '<scale_factor>0.8</scale_factor></CoordinateCouplerConstraint>'
        '<CoordinateCouplerConstraint name="k2"><coupled_coordinates_function>'
        '<LinearFunction><coefficients>1.3 0.2</coefficients></LinearFunction>'
        '</coupled_coordinates_function>'
        '<independent_coordinate_names>u0</independent_coordinate_names>'
        '<dependent_coordinate_name>pin</dependent_coordinate_name>'
        '</CoordinateCouplerConstraint></objects></ConstraintSet>')
    text = text.replace("</Model>", constraints + "</Model>")
    path = tmp_path / "coupled.osim"
    path.write_text(text)
    return str(path)


def test_spline_coupler_elimination_balances_power(tmp_path):
    path = _spline_coupled_model(tmp_path)
    keep, elim = _load(path), _load(path, couplers="eliminate")
    assert [c.scale for c in elim.couplers] == [0.8, 1.0]
    for q, v, a in _states(elim, 4, 6, spread=1.4):
        tau = elim.inverse_dynamics(q, v, a)
        qf, vf, af = elim.apply_couplers(q, v, a)
        # the full motion is the derivative of the full path
        h = 1e-5
        def path_q(t):
            return elim.apply_couplers(q + t * v + 0.5 * t * t * a, v + t * a)
        (qp, vp, _), (qm, vm, _) = path_q(h), path_q(-h)
        np.testing.assert_allclose((qp - qm) / (2 * h), vf, rtol=1e-7, atol=1e-7)
        np.testing.assert_allclose((vp - vm) / (2 * h), af, rtol=1e-7, atol=1e-7)
        # power balance of the reduced system: only independent speeds do work
        def energy(t):
            qt, vt, _ = path_q(t)
            return keep.kinetic_energy(qt, vt) + keep.potential_energy(qt)
        dE = (energy(h) - energy(-h)) / (2 * h)
        free = [k for k, n in enumerate(elim.q_names) if n not in ("c2", "pin")]
        assert dE == pytest.approx(v[free] @ tau[free], rel=1e-6, abs=1e-6)
        assert tau[elim.q_names.index("c2")] == 0.0


def test_bad_couplers_are_named(tmp_path):
    path = _spline_coupled_model(tmp_path)
    text = Path(path).read_text()
    bad = tmp_path / "bad.osim"
    bad.write_text(text.replace("<dependent_coordinate_name>c2<", "<dependent_coordinate_name>"
                                "nope<"))
    with pytest.raises(urdf2dyn.URDFError, match="no coordinate named 'nope'"):
        _load(str(bad))
    two = tmp_path / "two.osim"
    two.write_text(text.replace(">c1</independent", ">c1 c0</independent"))
    # the constraint is dropped where it is, and the summary of what was skipped says IK
    # does not enforce it either (OpenSim's would)
    with (pytest.warns(urdf2dyn.URDFWarning, match=r"two\.osim:\d+: <CoordinateCoupler"
                       r"Constraint>: several independent coordinates \(c1 c0\): not kept"),
          pytest.warns(urdf2dyn.URDFWarning, match=r"two\.osim: skipped what does not enter "
                       r"inverse dynamics: 1 constraint .*OpenSim's IK would")):
        m = urdf2dyn.load(str(two))
    assert [c.dependent for c in m.couplers] == ["pin"]
    with pytest.raises(ValueError, match="couplers must be 'keep' or 'eliminate'"):
        urdf2dyn.load(path, couplers="drop")


def test_elimination_follows_the_batched_api(tmp_path):
    """inverse_dynamics with couplers eliminated broadcasts like every batched function
    (leading axes, scalar v and a, out=), each sample as the one-sample call gives it."""
    elim = _load(_spline_coupled_model(tmp_path), couplers="eliminate")
    Q = np.array([q for q, _, _ in _states(elim, 6, 7, spread=1.4)]).reshape(2, 3, elim.nq)
    one = np.array([elim.inverse_dynamics(q, 0.0, 0.5) for q in Q.reshape(6, -1)])
    out = np.empty((2, 3, elim.nv))
    got = elim.inverse_dynamics(Q, 0.0, 0.5, out=out)
    assert got is out
    np.testing.assert_array_equal(got.reshape(6, -1), one)
    # v given per coordinate, the same for every sample: a_d picks up f'' v_i^2
    v = np.linspace(-1, 1, elim.nv)
    rows = np.array([elim.inverse_dynamics(q, v, 0.0) for q in Q.reshape(6, -1)])
    np.testing.assert_array_equal(elim.inverse_dynamics(Q, v, 0.0).reshape(6, -1), rows)
    qf, vf, af = elim.apply_couplers(Q[0, 0], v, 0.0)
    c2, c1 = elim.q_names.index("c2"), elim.q_names.index("c1")
    f = elim._c.function_values(elim._coupler_fn[0], [Q[0, 0, c1]])[0]
    assert af[c2] == pytest.approx(0.8 * f[2] * v[c1] ** 2, rel=1e-15)
    with pytest.raises(ValueError, match="a needs v"):
        elim.apply_couplers(Q, None, 0.0)


def test_cli_couplers_option(tmp_path, capsys):
    """urdf2dyn torques --couplers eliminate on Rajagopal 2016 with a motion OpenSim writes
    (each knee's beta equal to the knee, the patella couplers' identity): the knee column is
    the kept run's knee + beta, beta's column is zero, every other column is unchanged."""
    osim = pytest.importorskip("opensim")
    import opensim_tables
    from urdf2dyn import cli
    from urdf2dyn.biomech.formats.opensim import read_sto_table
    m = _load(RAJAGOPAL)
    t = np.arange(41) / 100.0
    k = np.arange(m.nq)
    q = m.default_q + 0.2 * np.sin(2 * np.pi * (0.8 + 0.03 * k) * t[:, None] + k)
    for side in "rl":
        q[:, m.q_names.index(f"knee_angle_{side}")] = 0.8 + 0.3 * np.sin(3 * t)
        q[:, m.q_names.index(f"knee_angle_{side}_beta")] = 0.8 + 0.3 * np.sin(3 * t)
    opensim_tables.write_sto(osim, tmp_path / "walk.mot", t, q, m.q_names, False)
    out = {}
    for mode in ("keep", "eliminate"):
        path = tmp_path / f"{mode}.sto"
        assert cli.main(["torques", RAJAGOPAL, str(tmp_path / "walk.mot"), "--couplers", mode,
                         "--gravity", "0", "-9.80665", "0", "-o", str(path)]) == 0
        labels, table, _, _ = read_sto_table(path)
        out[mode] = dict(zip(labels, table.T))
    keep, elim = out["keep"], out["eliminate"]
    for side in "rl":
        knee, beta = f"knee_angle_{side}_moment", f"knee_angle_{side}_beta_force"
        scale = max(1.0, np.abs(keep[knee]).max())
        assert np.abs(elim[knee] - (keep[knee] + keep[beta])).max() <= 1e-9 * scale
        assert np.all(elim[beta] == 0.0) and np.abs(keep[beta]).max() > 1e-3
    others = [c for c in keep if "knee_angle" not in c]
    assert len(others) > 30
    for c in others:
        assert np.abs(elim[c] - keep[c]).max() <= 1e-9 * max(1.0, np.abs(keep[c]).max()), c
    capsys.readouterr()


# ---- couplers that drive each other: dependency order, loops, one coordinate driven twice ----

def _chain_model(tmp_path, couplers, name="chain.osim"):
    """Three pins in a chain, ground - c - b - a (coordinates qc, qb, qa), listed leaf first,
    a marker on a, and the given CoordinateCouplerConstraints (dependent, independent,
    function element, name)."""
    from test_osim_errors import _body, _doc, _pin
    objs = "".join(
        f'<CoordinateCouplerConstraint name="{n}"><coupled_coordinates_function>{f}'
        f'</coupled_coordinates_function><independent_coordinate_names>{ind}'
        f'</independent_coordinate_names><dependent_coordinate_name>{dep}'
        '</dependent_coordinate_name></CoordinateCouplerConstraint>\n'
        for dep, ind, f, n in couplers)
    joints = (_pin("ja", "/bodyset/b", "/bodyset/a", "qa") +
              _pin("jb", "/bodyset/c", "/bodyset/b", "qb") +
              _pin("jc", "/ground", "/bodyset/c", "qc"))
    extra = f'<ConstraintSet><objects>\n{objs}</objects></ConstraintSet>\n'
    text = _doc(_body("a") + _body("b") + _body("c"), joints, extra).replace(
        "</JointSet>", '</JointSet>\n<MarkerSet><objects><Marker name="tip"><socket_parent_frame>'
        '/bodyset/a</socket_parent_frame><location>0.1 0.3 0</location></Marker></objects>'
        '</MarkerSet>')
    path = tmp_path / name
    path.write_text(text)
    return str(path)


TIMES3 = '<LinearFunction><coefficients>3 0</coefficients></LinearFunction>'
TIMES2 = '<LinearFunction><coefficients>2 0</coefficients></LinearFunction>'
SQUARE2 = '<PolynomialFunction><coefficients>2 0 0</coefficients></PolynomialFunction>'


@pytest.mark.parametrize("first", ["dependent", "independent"])
def test_couplers_apply_in_dependency_order(tmp_path, first):
    """qa = 2 qb listed before or after qb = 3 qc: qb = 0.3 and qa = 0.6 for qc = 0.1 (the
    file order used to leave qa computed from the old qb, 0)."""
    pair = [("qa", "qb", TIMES2, "ka"), ("qb", "qc", TIMES3, "kb")]
    path = _chain_model(tmp_path, pair if first == "dependent" else pair[::-1])
    m = _load(path, couplers="eliminate")
    assert [c.name for c in m.couplers] == ["kb", "ka"]         # the order they apply
    ia, ib, ic = (m.q_names.index(n) for n in ("qa", "qb", "qc"))
    q = np.zeros(m.nq)
    q[ic] = 0.1
    qf, vf, af = m.apply_couplers(q, np.eye(m.nv)[ic], 0.0)
    assert qf[[ia, ib, ic]] == pytest.approx([0.6, 0.3, 0.1], rel=1e-15)
    assert vf[[ia, ib]] == pytest.approx([6.0, 3.0], rel=1e-15)   # the chain rule



@pytest.mark.parametrize("first", ["dependent", "independent"])
def test_ik_holds_a_chain_of_couplers_listed_in_any_order(tmp_path, first):
    """IK (the core's, couplers folded into the fit) takes the couplers in the order the model
    resolved: qa = 2 qb^2 and qb = 3 qc hold exactly at the fitted pose, and the tip marker,
    placed by a pose on the coupled path, is fitted to the metre's 1e-9."""
    pair = [("qa", "qb", SQUARE2, "ka"), ("qb", "qc", TIMES3, "kb")]
    path = _chain_model(tmp_path, pair if first == "dependent" else pair[::-1])
    m = _load(path)
    ia, ib, ic = (m.q_names.index(n) for n in ("qa", "qb", "qc"))
    q = np.zeros(m.nq)
    q[ic] = 0.08
    truth = m.apply_couplers(q)[0]
    tip = m.markers[0]
    pos, rot = m.forward_kinematics(truth)
    k = m.link_names.index(tip.link)
    target = pos[k] + rot[k] @ np.asarray(tip.position)
    sol = m.inverse_kinematics(target[None, None, :], markers=[tip], q0=np.zeros(m.nq))
    qa, qb, qc = sol.q[0, [ia, ib, ic]]
    assert qb == pytest.approx(3 * qc, rel=1e-12) and qa == pytest.approx(2 * qb ** 2, rel=1e-12)
    assert sol.marker_error.max() < 1e-9

def test_a_chain_of_couplers_matches_opensims_assembly(tmp_path, osim):
    """OpenSim assembles the chain qa = 2 qb^2, qb = 3 qc (listed in that order) to what
    apply_couplers gives; velocities and accelerations follow the closed form
    qa = 18 qc^2."""
    path = _chain_model(tmp_path, [("qa", "qb", SQUARE2, "ka"), ("qb", "qc", TIMES3, "kb")])
    om = osim.Model(path)
    state = om.initSystem()
    cs = om.getCoordinateSet()
    cs.get("qc").setValue(state, 0.1, False)
    om.assemble(state)
    theirs = [cs.get(n).getValue(state) for n in ("qa", "qb", "qc")]
    m = _load(path, couplers="eliminate")
    ia, ib, ic = (m.q_names.index(n) for n in ("qa", "qb", "qc"))
    q, v, a = np.zeros(m.nq), np.zeros(m.nv), np.zeros(m.nv)
    q[ic], v[ic], a[ic] = 0.1, 0.7, -1.3
    qf, vf, af = m.apply_couplers(q, v, a)
    assert qf[[ia, ib, ic]] == pytest.approx(theirs, rel=1e-9, abs=1e-12)
    assert qf[ia] == pytest.approx(18 * 0.1 ** 2, rel=1e-15)
    assert vf[ia] == pytest.approx(36 * 0.1 * 0.7, rel=1e-14)
    assert af[ia] == pytest.approx(36 * (0.7 ** 2 + 0.1 * -1.3), rel=1e-14)


def test_inverse_dynamics_through_a_chain_of_couplers_balances_power(tmp_path):
    """Eliminated inverse dynamics on the chain listed out of order: only qc is free, and
    d(T + V)/dt = v_c tau_c along a path of qc (a force left on qb, or qa computed from the
    old qb, breaks it); the projection is J^T tau of the kept model."""
    path = _chain_model(tmp_path, [("qa", "qb", SQUARE2, "ka"), ("qb", "qc", TIMES3, "kb")])
    keep, elim = _load(path), _load(path, couplers="eliminate")
    ia, ib, ic = (elim.q_names.index(n) for n in ("qa", "qb", "qc"))
    rng = np.random.default_rng(3)
    for _ in range(4):
        q, v, a = (rng.uniform(-0.6, 0.6, elim.nq) for _ in range(3))
        tau = elim.inverse_dynamics(q, v, a)
        qf, vf, af = elim.apply_couplers(q, v, a)
        full = keep.inverse_dynamics(qf, vf, af)
        jb, ja = 3.0, 4.0 * qf[ib] * 3.0            # d qb / d qc, d qa / d qc
        assert tau[ic] == pytest.approx(full[ic] + jb * full[ib] + ja * full[ia], rel=1e-12)
        assert tau[ia] == 0.0 and tau[ib] == 0.0
        h = 1e-5

        def energy(t):
            qt, vt, _ = elim.apply_couplers(q + t * v + 0.5 * t * t * a, v + t * a)
            return keep.kinetic_energy(qt, vt) + keep.potential_energy(qt)
        dE = (energy(h) - energy(-h)) / (2 * h)
        assert dE == pytest.approx(v[ic] * tau[ic], rel=1e-6, abs=1e-7)


LOOP = [("qa", "qb", TIMES2, "ka"), ("qb", "qa", TIMES3, "kb")]
TWICE = [("qa", "qb", TIMES2, "ka"), ("qa", "qc", TIMES3, "kc")]


@pytest.mark.parametrize("couplers, message", [
    (LOOP, r"loop\.osim: CoordinateCouplerConstraints 'ka' \(qa from qb, line \d+\), 'kb' "
           r"\(qb from qa, line \d+\) form a loop"),
    (TWICE, r"twice\.osim: CoordinateCouplerConstraints 'ka' \(qa from qb, line \d+\) and "
            r"'kc' \(qa from qc, line \d+\) both drive coordinate 'qa'"),
], ids=["loop", "twice"])
def test_couplers_that_cannot_be_applied_are_refused_by_name(tmp_path, couplers, message):
    name = "loop.osim" if couplers is LOOP else "twice.osim"
    path = _chain_model(tmp_path, couplers, name)
    with pytest.raises(urdf2dyn.URDFError, match=message):
        _load(path, couplers="eliminate")
    with pytest.warns(urdf2dyn.URDFWarning, match=message + r".*inverse dynamics keeps"):
        keep = urdf2dyn.load(path)
    q = np.zeros(keep.nq)
    keep.inverse_dynamics(q, 0.0, 0.0)                  # OpenSim's ID ignores constraints
    for call in (lambda: keep.apply_couplers(q), lambda: keep.project_couplers(q, q)):
        with pytest.raises(urdf2dyn.URDFError, match=message):
            call()
    from urdf2dyn.biomech import ik
    from urdf2dyn.biomech.markers import Markers
    data = Markers(time=[0.0, 0.01], labels=["tip"], xyz=np.full((2, 1, 3), 0.2))
    with pytest.raises(urdf2dyn.URDFError, match=message):
        ik.solve(keep, data)


def test_an_ik_setup_on_couplers_that_cannot_be_applied_says_so_once(tmp_path, capsys):
    """urdf2dyn ik --setup on a model whose couplers form a loop printed the loader's warning
    ('... inverse kinematics refuse the model') and then the refusal, the same fact twice:
    now the refusal alone, on the command line and from the library."""
    from urdf2dyn.biomech import ik
    from urdf2dyn.cli import main
    _chain_model(tmp_path, LOOP, "loop.osim")
    (tmp_path / "walk.trc").write_text(
        "PathFileType\t4\t(X/Y/Z)\twalk.trc\nDataRate\tCameraRate\tNumFrames\tNumMarkers\t"
        "Units\n100\t100\t2\t1\tm\nFrame#\tTime\ttip\n\t\tX1\tY1\tZ1\n"
        "1\t0\t0.1\t0.3\t0\n2\t0.01\t0.1\t0.3\t0\n")
    setup = tmp_path / "Setup_IK.xml"
    setup.write_text(
        '<OpenSimDocument Version="40000"><InverseKinematicsTool name="loop">'
        "<model_file>loop.osim</model_file><IKTaskSet><objects><IKMarkerTask name=\"tip\">"
        "<apply>true</apply><weight>1</weight></IKMarkerTask></objects></IKTaskSet>"
        "<marker_file>walk.trc</marker_file><output_motion_file>ik.mot</output_motion_file>"
        "</InverseKinematicsTool></OpenSimDocument>")
    fact = "'ka' (qa from qb, line"
    assert main(["ik", "--setup", str(setup)]) == 1
    err = capsys.readouterr().err
    assert err.count(fact) == 1 and "urdf2dyn ik: error: " in err, err
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(urdf2dyn.URDFError, match=r"loop\.osim: CoordinateCouplerConstraints "
                           r"'ka' \(qa from qb, line \d+\), 'kb' .* form a loop"):
            ik.run_setup(str(setup), output="")
    assert [str(w.message) for w in caught if fact in str(w.message)] == []
    assert not (tmp_path / "ik.mot").exists()


def test_a_pickled_model_keeps_eliminating_its_couplers(tmp_path):
    import pickle
    path = _chain_model(tmp_path, [("qa", "qb", TIMES2, "ka"), ("qb", "qc", TIMES3, "kb")])
    elim = _load(path, couplers="eliminate")
    again = pickle.loads(pickle.dumps(elim))
    assert again.eliminate_couplers and [c.name for c in again.couplers] == ["kb", "ka"]
    q = np.linspace(0.1, 0.3, elim.nq)
    np.testing.assert_array_equal(again.inverse_dynamics(q, 0.2, 0.1),
                                  elim.inverse_dynamics(q, 0.2, 0.1))
