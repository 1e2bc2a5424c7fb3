"""The trial as passes (urdf2dyn.biomech.stages): one settings object that the keywords, the
command line and OpenSim's setup files all build, stages that each add one typed result, a
pass added without touching the others, checks that each take the trial, and the conductor
(inverse_dynamics_trial) equal to the stages run by hand."""
import argparse
import dataclasses
import inspect
import os
import re
import shutil
import warnings

import numpy as np
import pytest
from hypothesis import given, settings as hsettings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech import stages
from urdf2dyn.biomech.formats import read_id_setup
from urdf2dyn.biomech.formats.ik_setup import read_ik_setup
from urdf2dyn.biomech.human import humod_subject
from urdf2dyn.biomech.ik import IKSettings
from urdf2dyn.biomech.opensim_processing import OpenSimProcessing
from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
from urdf2dyn.biomech.processing import Urdf2dynProcessing
from urdf2dyn.biomech.stages import (ExternalLoadsFile, GroundReactions, Trial, TrialSettings)
from urdf2dyn.warn import MotionError, Urdf2dynWarning

from recording_files import GRF, MOTION

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data")
G2354 = os.path.join(DATA, "opensim_models", "Gait2354_Simbody")


@pytest.fixture(scope="module")
def model():
    return humod_subject("A")


# ----------------------------------------------------------------------------- the settings

def test_settings_are_printable_comparable_and_replaceable():
    s = TrialSettings.from_keywords(filter_hz=15, processing="opensim", time_range=[0, 1],
                                    contacts={"R": "foot_R"}, grf="a_grf.csv")
    assert s == TrialSettings(processing="opensim", filter_hz=15.0, time_range=(0.0, 1.0),
                              contacts={"R": "foot_R"}, loads=GroundReactions("a_grf.csv"))
    assert isinstance(s.processing, OpenSimProcessing) and s.processing.name == "opensim"
    assert s.contact_links == {"R": "foot_R"} and s.time_range == (0.0, 1.0)
    assert "filter_hz=15" in repr(s) and "OpenSimProcessing" in repr(s)
    assert hash(s) == hash(dataclasses.replace(s))
    t = dataclasses.replace(s, processing="urdf2dyn")
    assert isinstance(t.processing, Urdf2dynProcessing) and t != s
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.filter_hz = 6.0
    # a Trajectory given as ground reactions is the same source only if it is the same object
    traj = urdf2dyn.biomech.formats.read(GRF)
    assert GroundReactions(traj) == GroundReactions(traj) != GroundReactions(
        urdf2dyn.biomech.formats.read(GRF))


def test_keywords_are_refused_as_before():
    with pytest.raises(TypeError, match="unexpected keyword argument 'filter'"):
        TrialSettings.from_keywords(filter=6)
    with pytest.raises(ValueError, match="give either grf .* or external_loads"):
        TrialSettings.from_keywords(grf="g.csv", external_loads="loads.xml")
    with pytest.raises(ValueError, match="give either grf .* or external_loads"):
        TrialSettings.from_keywords(TrialSettings(loads=ExternalLoadsFile("l.xml")), grf="g.csv")
    with pytest.raises(ValueError, match="processing: expected 'urdf2dyn' or 'opensim'"):
        TrialSettings(processing="OpenSim")
    with pytest.raises(ValueError, match="time_range: expected t0 <= t1"):
        TrialSettings(time_range=(2, 1))
    # it was taken, and a refusal of the cut-off raised AttributeError ('str' ... 'file')
    with pytest.raises(TypeError, match="filter_named: expected urdf2dyn.biomech.processing"
                                        ".CutoffNamed, got 'my filter'"):
        TrialSettings.from_keywords(filter_hz=40, filter_named="my filter")


@hsettings(max_examples=60, deadline=None, derandomize=True)
@given(st.dictionaries(
    st.sampled_from(["filter_hz", "filter_loads", "derivatives", "time_range", "max_gap",
                     "processing", "strict", "checks_enabled", "degrees", "delimiter",
                     "ik_threads", "rotation", "plate_threshold", "contacts", "mapping",
                     "external_loads", "filter_named", "bogus"]),
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True),
              st.text(max_size=6), st.lists(st.floats(-5, 5), max_size=3),
              st.dictionaries(st.text(max_size=2), st.text(max_size=2), max_size=2))))
def test_any_keywords_give_settings_or_a_clear_refusal(keywords):
    """Settings or a TypeError / ValueError naming the keyword (no other exception)."""
    try:
        s = TrialSettings.from_keywords(**keywords)
    except (TypeError, ValueError) as e:
        named = {"checks_enabled": "checks", "ik_threads": "threads"}
        assert any(named.get(k, k) in str(e) for k in keywords), e
        return
    assert s == dataclasses.replace(s) and isinstance(repr(s), str)


def test_the_id_setup_describes_the_settings_the_trial_runs_with():
    su = read_id_setup(os.path.join(G2354, "subject01_Setup_InverseDynamics.xml"))
    s = TrialSettings.from_id_setup(su, max_gap=3)
    assert s.processing == OpenSimProcessing() and s.filter_hz == su.lowpass_hz
    assert s.loads == ExternalLoadsFile(su.external_loads_file) and s.max_gap == 3
    assert s.time_range == tuple(su.time_range)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        res = urdf2dyn.inverse_dynamics_setup(su, max_gap=3)
    assert res.settings == s


def test_the_ik_setup_describes_the_ik_settings():
    su = read_ik_setup(os.path.join(DATA, "ik", "gait2392", "subject01_Setup_IK.xml"))
    s = TrialSettings.from_ik_setup(su, threads=2, rotation="x:-90")
    assert s.ik == IKSettings.from_setup(su, 2) and s.ik.threads == 2
    assert dict(s.ik.weights) == su.marker_weights() and s.ik.setup == su.path
    assert s.ik.time_range == tuple(su.time_range)
    assert s == TrialSettings.from_keywords(ik_setup=su.path, ik_threads=2, rotation="x:-90")


def test_the_command_line_builds_the_settings_the_keywords_describe(monkeypatch, tmp_path):
    seen = []
    real = inverse_dynamics_trial

    def spy(model, motion, grf=None, *, settings=None, **keywords):
        seen.append(settings)
        return real(model, motion, grf, settings=settings, **keywords)
    monkeypatch.setattr("urdf2dyn.biomech.pipeline.inverse_dynamics_trial", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        assert cli.main(["torques", "humod_subject_a.urdf", MOTION, "--grf", GRF, "--filter",
                         "12", "--filter-loads", "no", "--time-range", "1", "2",
                         "--max-gap", "2", "--contact", "R=foot_R"]) == 0
    # a refusal of the cut-off says --filter, one of the columns names torques' options
    from urdf2dyn.cli.options import FILTER_NAMED, TRIAL_COLUMNS
    assert seen == [TrialSettings.from_keywords(filter_hz=12.0, filter_loads=False,
                                                time_range=(1, 2), max_gap=2,
                                                contacts={"R": "foot_R"},
                                                filter_named=FILTER_NAMED,
                                                columns_named=TRIAL_COLUMNS)]


# ----------------------------------------------------------------------------- the columns
ARM26 = os.path.join(DATA, "opensim_core", "arm26.osim")
ROBOT2R = urdf2dyn.data_path("robot2r.urdf")
#: (model, the file's columns after time, what the refusal advises whoever reads it)
COLUMN_CASES = {
    "a coordinate left out": (ARM26, ["r_shoulder_elev"], "add their columns to the file"),
    "another model's motion": (ARM26, ["r_shoulder_elev", "lumbar_bending"],
                               "Fit this model's coordinates ({} on the markers)"),
    "a floating base's columns": (ROBOT2R, ["joint1", "joint2", "root_joint_x", "root_joint_y",
                                            "root_joint_z", "root_joint_qx", "root_joint_qy",
                                            "root_joint_qz", "root_joint_qw"],
                                  "are the floating joint 'root_joint'"),
}


def _columns_file(folder, columns):
    """A motion of 11 samples with the columns given after time (0.1 rad each, the
    quaternion's w 1)."""
    rows = "".join(f"{0.01 * k:g}," + ",".join("1" if c.endswith("_qw") else "0.1"
                                                 for c in columns) + "\n" for k in range(11))
    path = folder / "motion.csv"
    path.write_text("time," + ",".join(columns) + "\n" + rows)
    return str(path)


def _flags(text):
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))


@pytest.mark.parametrize("case", sorted(COLUMN_CASES))
@pytest.mark.parametrize("command", ["torques", "animate"])
def test_a_refusal_of_the_columns_names_only_options_the_command_has(command, case, tmp_path,
                                                                     capsys):
    """A motion whose columns do not meet the model's reaches the read stage's refusal
    (check_columns) from `urdf2dyn torques` and `urdf2dyn animate` (ik, convert, scale and
    rra do not read coordinates through it). Its advice named --processing opensim,
    --mapping FILE and --floating-base whatever the command: animate has none of them. Now
    each command's refusal names only its own options (its parser's), and still says what to
    do."""
    pytest.importorskip("matplotlib")
    model, columns, advice = COLUMN_CASES[case]
    motion = _columns_file(tmp_path, columns)
    argv = [command, model, motion] + (["-o", str(tmp_path / "out.gif")]
                                       if command == "animate" else [])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert f"{motion}: " in err and advice.format("urdf2dyn ik") in err, err
    sub = next(a for a in cli.build_parser()._actions
               if isinstance(a, argparse._SubParsersAction)).choices[command]
    own = {o for a in sub._actions for o in a.option_strings}
    assert _flags(err) <= own, (_flags(err) - own, err)
    if command == "torques" and case != "a floating base's columns":
        assert "(--processing opensim)" in err            # the way on that torques has


@pytest.mark.parametrize("case", sorted(COLUMN_CASES))
def test_a_refusal_of_the_columns_names_the_librarys_keywords(case, tmp_path):
    """The same refusal from urdf2dyn.inverse_dynamics_trial names no command-line flag but
    the call's keywords; the one it advises for a coordinate left out runs."""
    model, columns, advice = COLUMN_CASES[case]
    motion = _columns_file(tmp_path, columns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        loaded = urdf2dyn.load(model)
        with pytest.raises(MotionError) as refused:
            inverse_dynamics_trial(loaded, motion)
        message = str(refused.value)
        # the library's IK, not the command line's urdf2dyn ik
        assert advice.format("urdf2dyn.biomech.ik.run_setup") in message, message
        assert not _flags(message) and "urdf2dyn ik" not in message, message
        if case == "a floating base's columns":
            assert "load the model with it (floating_base=True)" in message
        else:
            assert 'OpenSim\'s inverse-dynamics tool does (processing="opensim")' in message
        if case == "a coordinate left out":
            assert len(inverse_dynamics_trial(loaded, motion, processing="opensim").t) == 11


# ----------------------------------------------------------------------------- the stages

def test_stages_add_one_typed_result_each(model):
    trial = Trial(model, MOTION, TrialSettings(loads=GroundReactions(GRF), filter_hz=15))
    added = []
    for stage in stages.PASSES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Urdf2dynWarning)      # the residuals, at the ends
            after = stage(trial)
        changed = [f.name for f in dataclasses.fields(Trial)
                   if f.name != "warnings" and getattr(after, f.name) is not getattr(trial, f.name)]
        added.append((stage.__name__, changed))
        trial = after
    assert added == [("scale", []),             # asked for by settings.scale only
                     ("read", ["motion"]), ("kinematics", ["kinematics"]), ("loads", ["loads"]),
                     ("dynamics", ["dynamics"]), ("residuals", []),   # settings.residuals only
                     ("checks", ["findings"])]
    assert isinstance(trial.motion, stages.Motion) and isinstance(trial.loads, stages.Loads)
    assert trial.kinematics.q.shape == (len(trial.kinematics.t), model.nq)
    assert set(trial.loads.f_ext) == {"foot_L", "foot_R"} and trial.loads.kind == "ground reactions"


def test_the_residuals_pass_changes_the_motion_when_asked(model):
    """Residual reduction, a pass after dynamics, acts when the settings ask for it: new
    kinematics and dynamics, and its result (urdf2dyn.biomech.residuals.ResidualReduction)."""
    settings = TrialSettings.from_keywords(grf=GRF, filter_hz=15, time_range=(1.0, 1.3),
                                           reduce_residuals=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        upto = stages.PASSES.index(stages.dynamics) + 1
        before = stages.run(model, MOTION, settings, stages.PASSES[:upto])
        after = stages.residuals(before)
    changed = [f.name for f in dataclasses.fields(Trial)
               if f.name != "warnings" and getattr(after, f.name) is not getattr(before, f.name)]
    assert changed == ["kinematics", "dynamics", "reduction"]
    assert after.reduction.residuals.shape == (len(after.kinematics.t), 6)


def test_the_conductor_is_the_stages_in_order(model):
    # the loads unfiltered, the motion filtered: the root residual at the trial's end says so
    edge = r"root residual force up to 568 N at t = 3\.395 s \(an end of the trial: a filter's"
    with pytest.warns(Urdf2dynWarning, match=edge):
        res = inverse_dynamics_trial(model, MOTION, GRF, filter_hz=15, filter_loads=False)
    with pytest.warns(Urdf2dynWarning, match=edge):
        trial = stages.run(model, MOTION, TrialSettings.from_keywords(grf=GRF, filter_hz=15,
                                                                      filter_loads=False))
    np.testing.assert_array_equal(res.tau, trial.dynamics.tau)
    np.testing.assert_array_equal(res.q, trial.kinematics.q)
    np.testing.assert_array_equal(res.residuals.force, trial.dynamics.residuals.force)
    assert res.warnings == trial.warnings and res.findings == list(trial.findings)
    source = inspect.getsource(inverse_dynamics_trial)
    body = source[source.index('"""', source.index('"""') + 3) + 3:]
    assert len(body.strip().splitlines()) <= 5, body          # a page: settings, passes, result


def test_a_new_pass_is_one_function(model):
    """A residual-reduction-like pass after dynamics, written alone: the others unchanged."""
    def halve_residuals(trial):
        d = trial.dynamics
        return dataclasses.replace(trial, dynamics=dataclasses.replace(d, tau=d.tau / 2))
    base = stages.run(model, MOTION, TrialSettings(loads=GroundReactions(GRF)))
    more = stages.run(model, MOTION, TrialSettings(loads=GroundReactions(GRF)),
                      stages.PASSES[:-1] + (halve_residuals,) + stages.PASSES[-1:])
    np.testing.assert_array_equal(more.dynamics.tau, base.dynamics.tau / 2)
    np.testing.assert_array_equal(more.kinematics.q, base.kinematics.q)


def test_every_check_takes_the_trial_and_returns_findings(model):
    trial = stages.run(model, MOTION, TrialSettings(loads=GroundReactions(GRF)),
                       stages.PASSES[:-1])
    for check in stages.CHECKS:
        assert list(inspect.signature(check).parameters) == ["trial"], check
        found = check(trial)
        assert all(isinstance(f, stages.Finding) and f.severity in ("warning", "note")
                   for f in found), check
    off = stages.checks(dataclasses.replace(trial, settings=dataclasses.replace(
        trial.settings, checks=False)))
    assert off.findings == ()


def test_the_cop_check_runs_at_any_loads_rate(model):
    """Ground reactions at twice the motion's rate: the centres of pressure are still
    checked (from the loads applied at the motion's samples; the check once only ran when
    the two time vectors were equal, and said it could not): quiet as they are, a warning
    with the right foot's half a metre to the side."""
    grf = urdf2dyn.biomech.grf.read_grf(GRF)
    # the recording's own times, and one between each two: np.linspace would put 87 of them
    # a rounding (4e-16 s) after the recorded time, where the interpolated centre of pressure
    # of a stance's last sample (0.955 s, 2.655 s) takes the next one's NaN, and the 102 N
    # still on the foot were lost (a root residual of 106 N, 8 % of the peak, once asserted)
    fine = np.empty(2 * len(grf.time) - 1)
    fine[0::2], fine[1::2] = grf.time, (grf.time[:-1] + grf.time[1:]) / 2

    def resampled(d):
        return {k: np.column_stack([np.interp(fine, grf.time, x[:, c]) for c in range(3)])
                for k, x in d.items()}
    cop = resampled(grf.cop)
    # a sample between a contact's last and the next without (its centre of pressure not a
    # number) is out of contact: no force there, as the recording has none
    forces = {k: np.where(np.isnan(cop[k]).any(axis=1, keepdims=True), 0.0, f)
              for k, f in resampled(grf.grf).items()}
    grf = dataclasses.replace(grf, time=fine, q=np.zeros((len(fine), 0)), grf=forces,
                              cop=cop, moment=resampled(grf.moment))
    res, said = _trial_warned(model, grf)
    assert not [f for f in res.findings if f.check == "cop_distance"]
    # unfiltered, linear interpolation at the recording's own samples returns them: the
    # loads at the motion's times, and so the root residuals, are the recording's own (at
    # most 34 N, 2.5 % of the peak ground reaction, under Hicks et al.'s 5 %: no warning)
    recorded = inverse_dynamics_trial(model, MOTION, GRF)
    for link, w in recorded.f_ext.items():
        np.testing.assert_allclose(res.f_ext[link], w, rtol=0, atol=1e-9, err_msg=link)
    np.testing.assert_allclose(res.residuals.force, recorded.residuals.force, rtol=0,
                               atol=1e-9)
    assert said == []
    grf.cop["R"][:, 2] += 0.5
    res, said = _trial_warned(model, grf)
    far, = [f for f in res.findings if f.check == "cop_distance"]
    assert far.severity == "warning" and "centre of pressure of 'R' is 0.53 m" in far.message
    # the foot's load half a metre off leaves a root residual moment, which the trial warns
    # of; moving a force's point of application moves no force: the residual force stays
    np.testing.assert_allclose(res.residuals.force, recorded.residuals.force, rtol=0,
                               atol=1e-9)
    assert [m.split(": ", 1)[1][:25] for m in said] == ["root residual moment RMS ",
                                                        "the centre of pressure of"]


def _trial_warned(model, grf):
    """inverse_dynamics_trial on MOTION with these loads, and the warnings it gave: each one
    of its warning findings, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = inverse_dynamics_trial(model, MOTION, grf)
    said = [str(w.message) for w in caught]
    assert said == [f.message for f in res.findings if f.severity == "warning"]
    assert all(issubclass(w.category, Urdf2dynWarning) for w in caught)
    return res, said


def test_a_check_that_cannot_run_says_so():
    """A fixed-base arm has no root residuals: the residuals check says it could not run,
    and why, in a note."""
    arm = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    arm.gravity = (0, -9.81, 0)     # across its joints: the arm carries its weight, unwarned
    t = np.linspace(0, 1, 21)
    traj = urdf2dyn.biomech.Trajectory(time=t, q=np.column_stack([np.sin(t), np.cos(t)]),
                                       names=list(arm.q_names))
    res = inverse_dynamics_trial(arm, traj)
    note, = [f for f in res.findings if f.check == "residuals"]
    assert note.severity == "note" and "no root residuals" in note.message


def test_no_stage_swallows_an_exception(model, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("root chain broken")
    monkeypatch.setattr(urdf2dyn.biomech.grf, "root_residuals", broken)
    with pytest.raises(ValueError, match="root chain broken"):
        inverse_dynamics_trial(model, MOTION, GRF)


def test_warnings_point_at_the_callers_line(model):
    with pytest.warns(Urdf2dynWarning) as caught:
        inverse_dynamics_trial(model, MOTION, GRF, filter_hz=15)
    assert {os.path.basename(w.filename) for w in caught} == {"test_stages.py"}


def test_strict_raises_the_first_warning(model):
    with pytest.raises(MotionError, match="root residual force"):
        inverse_dynamics_trial(model, MOTION, GRF, filter_hz=15, strict=True)


def test_run_trials_takes_settings(model, tmp_path):
    for name in ("a", "b"):
        shutil.copy(MOTION, tmp_path / f"{name}.csv")
        shutil.copy(GRF, tmp_path / f"{name}_grf.csv")
    s = TrialSettings(derivatives="gradient", max_gap=2)
    results = urdf2dyn.run_trials(model, str(tmp_path), settings=s, max_workers=1)
    one = inverse_dynamics_trial(model, MOTION, GRF, settings=s)
    assert [r.settings for r in results] == [
        dataclasses.replace(s, loads=GroundReactions(str(tmp_path / f"{n}_grf.csv")))
        for n in ("a", "b")]
    np.testing.assert_array_equal(results[0].tau, one.tau)


def test_the_model_may_be_its_file():
    """A model's path is loaded, as urdf2dyn.load would (it raised AttributeError deep in the
    inverse kinematics); anything else is refused by name."""
    path = urdf2dyn.data_path("humod_subject_a.urdf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        by_path = inverse_dynamics_trial(path, MOTION, GRF)
        loaded = inverse_dynamics_trial(urdf2dyn.load(path), MOTION, GRF)
        many = urdf2dyn.run_trials(path, [MOTION], GRF, max_workers=1)
    np.testing.assert_array_equal(by_path.tau, loaded.tau)
    np.testing.assert_array_equal(many[0].tau, loaded.tau)
    with pytest.raises(TypeError, match="model: expected a urdf2dyn.Model or a model file's "
                                        "path, got int"):
        inverse_dynamics_trial(3, MOTION, GRF)


def test_a_scaling_with_its_setup_read_is_the_same_settings():
    """Scaling.read keeps the scale setup read (so the trial's inputs are known before any
    work and no pass reads it again): the settings stay comparable, hashable (a batch's
    trials share one scaling by them) and printable in a line, the setup named by its file
    (a ScaleSetup is neither hashable nor short)."""
    from urdf2dyn.biomech.stages import Scaling
    path = os.path.join(DATA, "real_lab", "scale", "setup_scale.xml")
    given, read = Scaling(path, mass=70.0), Scaling(path, mass=70.0).read()
    assert read.setup_read is not None and read.setup_read.path == path
    assert given.setup_read is None and read.setup_path == given.setup_path == path
    assert read == given and hash(read) == hash(given) and read != Scaling(path, mass=71.0)
    assert repr(read) == (f"Scaling(setup=<ScaleSetup read from {path!r}>, static=None, "
                          "mass=70.0, output=None)")
    assert repr(given) == f"Scaling(setup={path!r}, static=None, mass=70.0, output=None)"
    assert read.read() is not read and read.read().setup is read.setup     # not read twice


def test_the_stages_package_has_no_setup_inputs_of_another_shape():
    """biomech.ik.setup_inputs(setup) and biomech.scale.setup_inputs(setup) list the files a
    setup names; the scale pass's helper takes (how, setup), and exported at package level
    as stages.setup_inputs it read as a third of theirs. It is the pass's scaling_inputs, and
    the package keeps it to itself."""
    import sys
    from urdf2dyn.biomech import ik, scale
    for module in (ik, scale):
        assert list(inspect.signature(module.setup_inputs).parameters) == ["setup"]
    assert not hasattr(stages, "setup_inputs")
    scale_pass = sys.modules["urdf2dyn.biomech.stages.scale"]
    assert list(inspect.signature(scale_pass.scaling_inputs).parameters) == ["how", "setup"]
    assert "scaling_inputs" in scale_pass.__all__ and "setup_inputs" not in scale_pass.__all__
