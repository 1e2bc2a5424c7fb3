"""OpenSim's residual reduction setups, task sets and actuator sets, read as OpenSim 4.6 reads
them: five published pipelines (opensim-models, tests/data/opensim_models/README.md) compared
with OpenSim's own RRATool, CMC_TaskSet and ForceSet, then what cannot be run, and any text."""
import math
import os
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, event, example, given, settings, strategies as st

from urdf2dyn.biomech.formats.rra_setup import (RRASetupError, point_tasks, read_actuators,
                                                read_rra_setup, read_tasks)
from urdf2dyn.warn import Urdf2dynWarning

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "opensim_models")
SETUPS = {"gait2354": "Gait2354_Simbody/subject01_Setup_RRA.xml",
          "gait2392": "Gait2392_Simbody/subject01_Setup_RRA.xml",
          "gait10dof": "Gait10dof18musc/RRA/walk_Setup_RRA.xml",
          "hamner": "Hamner/Setup_RRA.xml",
          "rajagopal": "Rajagopal/RRA/walk/rra_setup_walk_1.xml"}
FUZZ = settings(max_examples=40, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def _path(rel):
    return os.path.normpath(os.path.join(DATA, rel))


@pytest.fixture(scope="module", params=sorted(SETUPS))
def published(request, osim):
    """(case, setup path, what OpenSim 4.6 reads from the setup and its files)."""
    from rra_oracle import opensim_reads
    path = _path(SETUPS[request.param])
    return request.param, path, opensim_reads(path)


def test_setups_read_as_opensim_reads_them(published):
    """Every property urdf2dyn uses, against OpenSim's RRATool reading the same file (paths:
    OpenSim keeps the names as written and opens them from the setup's folder)."""
    _, path, theirs = published
    s = read_rra_setup(path, check_files=False)
    here = os.path.dirname(path)

    def same_file(ours, name):
        assert ours == os.path.normpath(os.path.join(here, name.strip()))
    assert s.name == theirs["name"]
    assert (s.initial_time, s.final_time) == (theirs["initial_time"], theirs["final_time"])
    assert s.lowpass_hz == (theirs["lowpass"] if theirs["lowpass"] >= 0 else None)
    assert s.adjust_com == theirs["adjust_com"]
    assert (s.adjusted_com_body or "") == theirs["com_body"]
    assert s.replace_force_set == theirs["replace"]
    assert s.output_precision == theirs["precision"]
    for ours, key in ((s.model_file, "model"), (s.desired_kinematics_file, "kinematics"),
                      (s.task_set_file, "tasks"), (s.external_loads_file, "loads"),
                      (s.results_directory, "results"), (s.output_model_file, "output_model")):
        same_file(ours, theirs[key])
    assert len(s.force_set_files) == len(theirs["force_sets"])
    for ours, name in zip(s.force_set_files, theirs["force_sets"]):
        same_file(ours, name)
    constraints = theirs["constraints"].strip()
    assert s.constraints_file == (os.path.normpath(os.path.join(here, constraints))
                                  if constraints else None)


def test_tasks_read_as_opensim_reads_them(published):
    """Coordinates, weights and switches of the task set (OpenSim 2's rdCMC_Joint and its
    <on> flag in gait2392's)."""
    _, path, theirs = published
    task_file = read_rra_setup(path, check_files=False).task_set_file
    ours = read_tasks(task_file)
    assert point_tasks(task_file) == []
    assert [(t.name, t.coordinate, t.weight, t.active) for t in ours] == [
        (t["name"], t["coordinate"], t["weight"], t["active"]) for t in theirs["task_list"]]


def test_actuators_read_as_opensim_reads_them(published):
    """Types, bodies, points, directions, axes, frames and optimal forces as OpenSim's
    ForceSet has them (OpenSim 1's Force and Torque renamed and their directions reversed,
    in Hamner's)."""
    _, path, theirs = published
    ours = [a for f in read_rra_setup(path, check_files=False).force_set_files
            for a in read_actuators(f)]
    assert len(ours) == len(theirs["actuators"])
    kinds = {"PointActuator": "point", "TorqueActuator": "torque",
             "CoordinateActuator": "coordinate"}
    for a, x in zip(ours, theirs["actuators"]):
        assert (a.name, a.kind, a.optimal_force) == (x["name"], kinds[x["class"]],
                                                     x["optimal_force"])
        if a.kind == "point":
            assert a.body == x["body"]
            assert np.allclose(a.point, x["point"], atol=1e-15)
            assert np.allclose(a.direction, x["direction"], atol=1e-15)
            assert (a.point_is_global, a.force_is_global) == (x["point_is_global"],
                                                              x["force_is_global"])
        elif a.kind == "torque":
            assert (a.body, a.body_b or "ground") == (x["body"], x["body_b"])
            assert np.allclose(a.axis, x["axis"], atol=1e-15)
            assert a.torque_is_global == x["torque_is_global"]
        else:
            assert a.coordinate == x["coordinate"]


@pytest.mark.parametrize("case", ["gait2392", "hamner", "rajagopal"])
def test_setups_whose_files_are_elsewhere_are_refused(case):
    """The three pipelines whose RRA inputs are made by earlier steps (or, for Hamner, named
    after another subject): refused naming the element and the path looked for."""
    with pytest.raises(RRASetupError, match=r"<(model_file|desired_kinematics_file|constraints"
                                            r"_file)>.*(does not exist|exists neither)"):
        read_rra_setup(_path(SETUPS[case]))


def test_complete_setups_resolve_every_file():
    s = read_rra_setup(_path(SETUPS["gait2354"]))
    assert os.path.basename(s.model_file) == "subject01_simbody.osim"
    assert s.output("Kinematics_q.sto").endswith(
        os.path.join("ResultsRRA", "subject01_walk1_RRA_Kinematics_q.sto"))
    s = read_rra_setup(_path(SETUPS["gait10dof"]))          # "../" paths
    assert s.model_file == _path("Gait10dof18musc/subject01.osim")
    assert s.desired_kinematics_file == _path("Gait10dof18musc/IK/subject01_walk_IK.mot")
    assert s.output_model_file == _path("Gait10dof18musc/RRA/Results/subject01_adjusted.osim")
    assert not s.adjust_com and s.adjusted_com_body is None and s.constraints_file is None


def test_file_defaults_and_opensims(tmp_path):
    """A property left out takes the <defaults> entry of its type in the same file, then
    OpenSim 4's own (checked: OpenSim 4.6 reads x, 0 0 0, local, for a bare PointActuator)."""
    p = tmp_path / "a.xml"
    p.write_text("""<OpenSimDocument Version="40000"><ForceSet name="f">
      <defaults><PointActuator name="default"><optimal_force>7</optimal_force>
        </PointActuator></defaults>
      <objects>
        <PointActuator name="FX"><body>pelvis</body></PointActuator>
        <TorqueActuator name="MZ"><bodyA>pelvis</bodyA></TorqueActuator>
        <CoordinateActuator name="knee"><coordinate>knee</coordinate>
          <appliesForce>false</appliesForce></CoordinateActuator>
        <Thelen2003Muscle name="soleus"/>
      </objects></ForceSet></OpenSimDocument>""")
    with pytest.warns(Urdf2dynWarning, match=r"Thelen2003Muscle soleus.*left out"):
        fx, mz = read_actuators(p)                       # the disabled actuator is left out
    assert (fx.optimal_force, fx.direction, fx.point, fx.force_is_global) == (
        7.0, (1.0, 0.0, 0.0), (0.0, 0.0, 0.0), False)
    assert (mz.optimal_force, mz.axis, mz.torque_is_global, mz.body_b) == (
        1.0, (0.0, 0.0, 1.0), True, None)
    with pytest.raises(RRASetupError, match="left out"):
        read_actuators(p, strict=True)


SETUP = """<?xml version="1.0"?>
<OpenSimDocument Version="30000"><RRATool name="trial">
  <model_file>m.osim</model_file>
  <force_set_files>a.xml</force_set_files>
  <initial_time>{t0}</initial_time><final_time>{t1}</final_time>
  <desired_kinematics_file>ik.mot</desired_kinematics_file>
  <task_set_file>tasks.xml</task_set_file>
  <lowpass_cutoff_frequency>{cut}</lowpass_cutoff_frequency>
  <adjust_com_to_reduce_residuals>{adjust}</adjust_com_to_reduce_residuals>
  <adjusted_com_body>{body}</adjusted_com_body>
  <output_model_file>{out}</output_model_file>
  <output_precision>{prec}</output_precision>
</RRATool></OpenSimDocument>"""
GOOD = dict(t0=0.5, t1=1.5, cut=6, adjust="true", body="torso", out="adj.osim", prec=8)


def _files(tmp_path):
    for name in ("m.osim", "a.xml", "ik.mot", "tasks.xml"):
        (tmp_path / name).write_text("")


@pytest.mark.parametrize("change, match", [
    (dict(t0="early"), r"<initial_time>: 'early' is not a number"),
    (dict(t1=0.2), r"<final_time> 0.2 is not after <initial_time> 0.5"),
    (dict(t1="nan"), r"<final_time>: NaN is not allowed"),
    (dict(adjust="maybe"), r"<adjust_com_to_reduce_residuals> \(line \d+\): 'maybe': OpenSim 4.6 "
                            r"reads this property as false unless it says 'true'"),
    (dict(body=""), r"<adjusted_com_body> is empty: name the body"),
    (dict(prec=2.5), r"<output_precision> 2.5: expected a whole number"),
    # found by the setup fuzz: int(inf) raised OverflowError, a traceback
    (dict(prec="INF"), r"<output_precision> INF: expected a whole number of significant digits "
                       r"from 1 to 20"),
    (dict(prec="-inf"), r"<output_precision> -inf: expected a whole number"),
])
def test_what_cannot_be_run_is_named(tmp_path, change, match):
    _files(tmp_path)
    p = tmp_path / "s.xml"
    p.write_text(SETUP.format(**{**GOOD, **change}))
    with pytest.raises(RRASetupError, match=match) as e:
        read_rra_setup(p)
    assert str(p) in str(e.value)


def test_missing_files_and_defaults(tmp_path):
    p = tmp_path / "s.xml"
    p.write_text(SETUP.format(**{**GOOD, "out": ""}))
    with pytest.raises(RRASetupError, match=r"<model_file> m.osim exists neither"):
        read_rra_setup(p)
    _files(tmp_path)
    (tmp_path / "ik.mot").unlink()
    with pytest.raises(RRASetupError, match=r"<desired_kinematics_file> ik.mot does not exist"):
        read_rra_setup(p)
    _files(tmp_path)
    s = read_rra_setup(p)
    assert s.output_model_file == os.fspath(tmp_path / "adjusted_model.osim")   # OpenSim's
    assert s.results_directory == os.fspath(tmp_path) and s.lowpass_hz == 6
    p.write_text(SETUP.format(**{**GOOD, "cut": -1}).replace(
        "<task_set_file>tasks.xml</task_set_file>", ""))
    with pytest.raises(RRASetupError, match=r"<task_set_file> is missing"):
        read_rra_setup(p)


def test_not_an_rra_setup(tmp_path):
    p = tmp_path / "s.xml"
    p.write_text("<OpenSimDocument><InverseDynamicsTool/></OpenSimDocument>")
    with pytest.raises(RRASetupError, match=r"no <RRATool> element.*residual reduction"):
        read_rra_setup(p)
    with pytest.raises(RRASetupError, match=r"no <CMC_TaskSet> element"):
        read_tasks(p)
    with pytest.raises(RRASetupError, match=r"no <ForceSet> element"):
        read_actuators(p)


def _mostly(valid, other):
    """valid three times in four, else other: so that fuzzed setups are read as well as
    refused."""
    return st.sampled_from([True, True, True, False]).flatmap(
        lambda ok: valid if ok else other)


ANY_VALUE = st.one_of(st.floats(allow_nan=True), st.text(max_size=5))


@FUZZ
@given(t0=_mostly(st.floats(0, 1), ANY_VALUE),
       t1=_mostly(st.floats(1.5, 1e6), ANY_VALUE),
       cut=_mostly(st.floats(-1, 100), ANY_VALUE),
       adjust=st.sampled_from(["true", "false", "1", "0", "", "yes"]),
       body=st.sampled_from(["torso", "Unassigned", "torso", ""]),
       prec=_mostly(st.integers(1, 20), st.one_of(st.integers(-3, 30), st.text(max_size=4))))
@example(t0=0.5, t1=1.5, cut=6.0, adjust="true", body="torso", prec=8)          # read
@example(t0=0.5, t1=0.2, cut=6.0, adjust="true", body="torso", prec=8)          # refused
@example(t0=0.0, t1=2.0, cut=0.0, adjust="true", body="torso", prec="INF")      # int(inf)
def test_setup_reader_fuzz(tmp_path, t0, t1, cut, adjust, body, prec):
    """Read, or refused with an RRASetupError naming the file; what is read is what the
    setup says where it says a number (times, cutoff, precision) or a flag."""
    from xml.sax.saxutils import escape
    _files(tmp_path)
    p = tmp_path / "s.xml"
    p.write_text(SETUP.format(t0=escape(str(t0)), t1=escape(str(t1)), cut=escape(str(cut)),
                              adjust=adjust, body=body, out="x.osim", prec=escape(str(prec))))
    try:
        s = read_rra_setup(p)
    except RRASetupError as e:
        event("refused")
        assert "s.xml" in str(e)
        return
    event("read")
    assert s.initial_time < s.final_time and math.isfinite(s.final_time)
    assert s.lowpass_hz is None or s.lowpass_hz >= 0
    assert not s.adjust_com or s.adjusted_com_body
    if isinstance(t0, float):
        assert s.initial_time == t0
    if isinstance(t1, float):
        assert s.final_time == t1
    if isinstance(cut, float):
        assert s.lowpass_hz == (cut if cut >= 0 else None)
    if isinstance(prec, int):
        assert s.output_precision == prec
    if adjust:
        assert s.adjust_com == (adjust in ("true", "1"))
    assert s.adjusted_com_body == (None if body in ("", "Unassigned") else body)


@FUZZ
@given(st.binary(max_size=300))
@example(b"\xfe\xff")
def test_readers_on_any_bytes(tmp_path, data):
    p = tmp_path / "s.xml"
    p.write_bytes(data)
    for reader in (read_rra_setup, read_tasks, read_actuators):
        with warnings.catch_warnings(record=True) as said, pytest.raises(RRASetupError):
            warnings.simplefilter("always")
            reader(p)           # a UTF-16 mark is said (OpenSim cannot read it), then refused
        assert all(str(w.message).startswith(f"{p}: ") for w in said), said


ACT = """<ForceSet><objects><{kind} name="a">
<body>{body}</body><bodyA>{body}</bodyA><coordinate>{body}</coordinate>
<body_B>{body}</body_B><point_B>{vec}</point_B><direction_A>{vec}</direction_A>
<point>{vec}</point><direction>{vec}</direction><axis>{vec}</axis>
<force_is_global>{flag}</force_is_global><optimal_force>{opt}</optimal_force>
</{kind}></objects></ForceSet>"""

_VECTOR = st.tuples(*[st.floats(-1e3, 1e3)] * 3).map(        # not 0 0 0: no direction
    lambda v: " ".join(map(repr, v if any(v) else (1.0, *v[1:]))))


@FUZZ
@given(kind=st.sampled_from(["PointActuator", "TorqueActuator", "CoordinateActuator", "Force",
                             "Torque", "GeneralizedForce"]),
       fields=st.one_of(       # every entry valid (so that actuators are read), or any text
           st.tuples(st.just("pelvis"), _VECTOR, st.sampled_from(["true", "false"]),
                     st.floats(1e-3, 1e4)),
           st.tuples(st.sampled_from(["pelvis", "", "Unassigned"]),
                     st.one_of(st.text(max_size=12), st.lists(st.floats(allow_nan=True),
                                                              max_size=4)
                               .map(lambda v: " ".join(map(str, v)))),
                     st.sampled_from(["true", "false", "", "2"]),
                     st.one_of(st.floats(allow_nan=True), st.text(max_size=4)))))
def test_actuator_reader_fuzz(tmp_path, kind, fields):
    """Read, or refused with an RRASetupError naming the file; what is read is what the file
    says (OpenSim 1's Force and Torque along -direction_A, their body body_B)."""
    body, vec, flag, opt = fields
    from xml.sax.saxutils import escape
    p = tmp_path / "a.xml"
    p.write_text(ACT.format(kind=kind, body=body, vec=escape(vec), flag=flag,
                            opt=escape(str(opt))))
    try:
        acts = read_actuators(p)
    except RRASetupError as e:
        event("refused")
        assert "a.xml" in str(e)
        return
    event("read")
    for a in acts:
        assert 0 < a.optimal_force < math.inf
        assert all(math.isfinite(x) for x in a.point + a.direction + a.axis)
        assert (a.coordinate if a.kind == "coordinate" else a.body)
    (a,) = acts
    if isinstance(opt, float):
        assert a.optimal_force == opt
    if a.kind == "coordinate":
        assert a.coordinate == body
        return
    assert a.body == body
    if vec.strip():                             # an empty element: OpenSim's default
        xyz = tuple(float(x) for x in vec.split())
        along = tuple(-x for x in xyz) if kind in ("Force", "Torque") else xyz
        assert (a.point, a.direction) == (xyz, along) if a.kind == "point" else a.axis == along
    if a.kind == "point" and flag:
        assert a.force_is_global == (flag == "true")


@pytest.mark.parametrize("version", [10903, 20302])
def test_opensim1_actuator_set_files_and_controls_file(tmp_path, osim, version):
    """gait2354's setup with its force set named by OpenSim 1's <actuator_set_files> and a
    tool-level <controls_file>: OpenSim 4.6's RRATool (the oracle) reads them in a document
    older than Version 10904 as force set files and a ControlSetController's file, and reads
    neither in a later one. urdf2dyn ran without those actuators in both, saying nothing:
    it now reads them as OpenSim does, and says of the later document that neither reads
    them and what to write instead (refused under strict). The controls file is the user's
    either way, kept off the outputs."""
    import re
    import shutil
    from rra_oracle import opensim_controls_files, opensim_reads
    from test_outputs_never_inputs import RRA_CASE, RRA_INPUTS
    for name in RRA_INPUTS:
        shutil.copy(RRA_CASE / name, tmp_path / name)
    shutil.copy(tmp_path / "gait2354_RRA_ControlConstraints.xml", tmp_path / "controls.xml")
    setup = tmp_path / "subject01_Setup_RRA.xml"
    text = re.sub(r'Version="\d+"', f'Version="{version}"', setup.read_text(), count=1)
    old = "<force_set_files> gait2354_RRA_Actuators.xml </force_set_files>"
    assert old in text
    setup.write_text(text.replace(old, "<actuator_set_files> gait2354_RRA_Actuators.xml "
                                       "</actuator_set_files><controls_file> controls.xml "
                                       "</controls_file>"))
    theirs, their_controls = opensim_reads(os.fspath(setup)), opensim_controls_files(
        os.fspath(setup))
    read_by_opensim = version < 10904
    assert [f.strip() for f in theirs["force_sets"]] == (
        ["gait2354_RRA_Actuators.xml"] if read_by_opensim else [])
    assert their_controls == (["controls.xml"] if read_by_opensim else [])
    if read_by_opensim:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            s = read_rra_setup(setup)
        assert "ControlSetController" in s.controllers
    else:
        with pytest.warns(Urdf2dynWarning) as said:
            s = read_rra_setup(setup)
        messages = [str(w.message) for w in said]
        for tag, name, advice in (
                ("actuator_set_files", "gait2354_RRA_Actuators.xml",
                 "these actuators are not applied: name the files in <force_set_files>"),
                ("controls_file", "controls.xml", "ControlSetController's <controls_file>")):
            assert any(m.startswith(f"{setup}: <{tag}> {name}: OpenSim 4.6 reads it only in a "
                                    "document older than Version 10904") and advice in m
                       for m in messages), messages
        assert "ControlSetController" not in s.controllers
        with pytest.raises(RRASetupError, match="<actuator_set_files>"):
            read_rra_setup(setup, strict=True)
    assert s.force_set_files == [os.fspath(tmp_path / f.strip()) for f in theirs["force_sets"]]
    assert s.controls_files == [os.fspath(tmp_path / "controls.xml")]


def _gait2354_setup(folder, version, old, new):
    """gait2354's RRA setup and files in folder, its Version and the text old made new."""
    import re
    import shutil
    from test_outputs_never_inputs import RRA_CASE, RRA_INPUTS
    for name in RRA_INPUTS:
        shutil.copy(RRA_CASE / name, folder / name)
    setup = folder / "subject01_Setup_RRA.xml"
    text = re.sub(r'Version="\d+"', f'Version="{version}"', setup.read_text(), count=1)
    assert old in text
    setup.write_text(text.replace(old, new))
    return setup


def test_replace_force_set_left_out_is_false(tmp_path, osim):
    """An RRA setup without <replace_force_set>: OpenSim 4.6's RRATool (the oracle) takes
    false (RRATool::setNull; AbstractTool's is true), so the model's own forces act in its
    RRA. urdf2dyn took true and did not say that they would: now false, and said."""
    from rra_oracle import opensim_reads
    setup = _gait2354_setup(tmp_path, 30000, "<replace_force_set> true </replace_force_set>",
                            "")
    assert opensim_reads(os.fspath(setup))["replace"] is False
    assert read_rra_setup(setup).replace_force_set is False


@pytest.mark.parametrize("version", [10800, 10903])
def test_opensim1_replace_actuator_set(tmp_path, osim, version):
    """OpenSim 1's <replace_actuator_set> true in place of <replace_force_set>: OpenSim 4.6
    (the oracle) reads it as replace_force_set in a document older than Version 10900, and
    leaves it unread in a later one (RRATool's default, false, then holds)."""
    from rra_oracle import opensim_reads
    setup = _gait2354_setup(tmp_path, version, "<replace_force_set> true </replace_force_set>",
                            "<replace_actuator_set> true </replace_actuator_set>")
    theirs = opensim_reads(os.fspath(setup))["replace"]
    assert theirs is (version < 10900)
    with warnings.catch_warnings(record=True) as said:    # said when unread: the test below
        warnings.simplefilter("always")
        assert read_rra_setup(setup).replace_force_set is theirs
    assert bool(said) is (version >= 10900)


@pytest.mark.parametrize("version", ["²", "4.0", ""])
def test_a_version_that_is_no_number_reads_as_the_latest(tmp_path, version):
    """<OpenSimDocument Version=...> that is no whole number ('²' is a digit to Python, and
    int() refused it with a ValueError): the setup is read as the latest version (said:
    test_a_version_opensim_refuses_is_said), its <actuator_set_files> said to be unread,
    naming the version as unnumbered."""
    _files(tmp_path)
    p = tmp_path / "s.xml"
    p.write_text(SETUP.format(**GOOD).replace('Version="30000"', f'Version="{version}"').replace(
        "<force_set_files>a.xml</force_set_files>", "<actuator_set_files>a.xml"
                                                     "</actuator_set_files>"))
    with pytest.warns(Urdf2dynWarning) as said:
        s = read_rra_setup(p)
    messages = [str(w.message) for w in said]
    assert len(messages) == 2 and "<OpenSimDocument Version=...>" in messages[0], messages
    assert re.search(r"<actuator_set_files> a\.xml: .*this one is unnumbered", messages[1])
    assert s.force_set_files == []


@pytest.mark.parametrize("version,old,new,published", [
    (10903, "<actuator_set_files> gait2354_RRA_Actuators.xml </actuator_set_files>",
     "<force_set_files> other.xml </force_set_files>",
     "<force_set_files> gait2354_RRA_Actuators.xml </force_set_files>"),
    (10800, "<replace_actuator_set> false </replace_actuator_set>",
     "<replace_force_set> true </replace_force_set>",
     "<replace_force_set> true </replace_force_set>")], ids=["force_set", "replace"])
@pytest.mark.parametrize("old_first", [True, False], ids=["old_first", "new_first"])
def test_opensim1_name_beside_the_new_one_read_first_in_document_order(tmp_path, osim, version,
                                                                       old, new, published,
                                                                       old_first):
    """A document older than Version 10904 holding OpenSim 1's element and OpenSim 4's both:
    OpenSim 4.6 (the oracle) renames the old one and reads the first of the two in document
    order, the other unread without a word: its RRATool's model holds only the first file's
    actuators, not both files' (other.xml: gait2354's, each renamed B_). urdf2dyn read the
    new one always: another force set, or replace_force_set true where OpenSim's was false,
    unsaid. It reads OpenSim's now, and says that the other element is unread, naming both
    (refused under strict)."""
    from rra_oracle import opensim_model_forces, opensim_reads
    both = old + new if old_first else new + old
    setup = _gait2354_setup(tmp_path, version, published, both)
    (tmp_path / "other.xml").write_text(re.sub(
        r'(<(?:PointActuator|TorqueActuator|CoordinateActuator) name=")', r"\1B_",
        (tmp_path / "gait2354_RRA_Actuators.xml").read_text()))
    theirs = opensim_reads(os.fspath(setup))
    forces = set(opensim_model_forces(os.fspath(setup)))
    actuators = set(re.findall(r'<(?:PointActuator|TorqueActuator|CoordinateActuator) '
                               r'name="(\w+)"', (tmp_path / "other.xml").read_text()))
    renamed = actuators <= forces                           # other.xml's actuators applied
    assert len(actuators) == 23 and renamed != ({a[2:] for a in actuators} <= forces)
    with pytest.warns(Urdf2dynWarning) as said:
        s = read_rra_setup(setup)
    assert s.force_set_files == [os.fspath(tmp_path / f.strip()) for f in theirs["force_sets"]]
    assert [os.path.basename(f) for f in s.force_set_files] == (
        ["other.xml"] if renamed else ["gait2354_RRA_Actuators.xml"])
    assert s.replace_force_set is theirs["replace"]
    old_tag, new_tag = re.findall(r"<(\w+)>", old + new)
    first, second = re.findall(r"<(\w+)>", both)
    messages = [str(w.message) for w in said]
    assert len(messages) == 1, messages
    assert messages[0].startswith(f"{setup}: <{old_tag}> and <{new_tag}> both, in a "
                                  f"document of Version {version}"), messages
    assert f"OpenSim 4.6 reads only the first, <{first}> " in messages[0]
    assert f"and leaves <{second}> " in messages[0] and "unread without a word" in messages[0]
    with pytest.raises(RRASetupError, match="unread without a word"):
        read_rra_setup(setup, strict=True)


@pytest.mark.parametrize("version", ["+10903", " 10903 ", "-5", "010903"])
def test_a_version_cpp_reads_as_a_number_is_that_number(tmp_path, osim, version):
    """A Version C++'s ``>> int`` reads as OpenSim 1's (a sign, white space, a leading 0):
    OpenSim 4.6 (the oracle) reads the setup's <actuator_set_files> as its force set files.
    urdf2dyn took '+10903' and '-5' for no number, read the document as the latest and left
    those actuators out (saying OpenSim would too)."""
    from rra_oracle import opensim_reads
    setup = _gait2354_setup(tmp_path, 20302, "<force_set_files>", "<actuator_set_files>")
    setup.write_text(setup.read_text().replace("</force_set_files>", "</actuator_set_files>")
                     .replace('Version="20302"', f'Version="{version}"'))
    theirs = opensim_reads(os.fspath(setup))
    assert [f.strip() for f in theirs["force_sets"]] == ["gait2354_RRA_Actuators.xml"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = read_rra_setup(setup)
    assert s.force_set_files == [os.fspath(tmp_path / "gait2354_RRA_Actuators.xml")]


@pytest.mark.parametrize("version", ["4.0", "", None, "1e4", "\u00a030000"],
                         ids=["4.0", "empty", "missing", "1e4", "nbsp"])
def test_a_version_opensim_refuses_is_said(tmp_path, osim, version):
    """<OpenSimDocument> without a Version, or with one that is no whole number to C++ (a
    no-break space before it too): OpenSim 4.6's RRATool (the oracle) refuses the document.
    urdf2dyn reads it as the latest version, and said nothing of it (it warned only of
    OpenSim 1 elements the latest does not read): now said, with the Version to write, and
    refused under strict."""
    from rra_oracle import opensim_refusal
    setup = _gait2354_setup(tmp_path, 30000, "<force_set_files>", "<force_set_files>")
    attribute = "" if version is None else f'Version="{version}"'
    setup.write_text(setup.read_text().replace('Version="30000"', attribute, 1))
    assert opensim_refusal(os.fspath(setup)) is not None
    with pytest.warns(Urdf2dynWarning) as said:
        s = read_rra_setup(setup)
    assert [str(w.message) for w in said] == [
        f"{setup}: <OpenSimDocument Version=...> is missing or no whole number: OpenSim 4.6 "
        "refuses this document, urdf2dyn reads it as the latest version: write the version "
        'of the OpenSim that wrote it (Version="40000" for OpenSim 4.0)']
    assert s.force_set_files == [os.fspath(tmp_path / "gait2354_RRA_Actuators.xml")]
    with pytest.raises(RRASetupError, match="OpenSimDocument Version"):
        read_rra_setup(setup, strict=True)


@pytest.mark.parametrize("version", [20300, 10800, None], ids=["20300", "10800", "rootless"])
def test_opensim2_rra_setup_written_as_a_cmctool_is_read(tmp_path, osim, version):
    """OpenSim 2 wrote RRA setups as a <CMCTool> (Version before 20301; a file without
    <OpenSimDocument> is 10500 to OpenSim): OpenSim 4.6's RRATool (the oracle) reads them,
    replace_force_set false and all. urdf2dyn refused them ("no <RRATool> element"): now read
    as OpenSim reads them, unsaid."""
    from rra_oracle import opensim_reads
    setup = _gait2354_setup(tmp_path, version or 20302, "<replace_force_set> true",
                            "<replace_force_set> false")
    text = setup.read_text().replace("RRATool", "CMCTool")
    if version is None:
        text = re.sub(r"</?OpenSimDocument[^>]*>", "", text)
    setup.write_text(text)
    theirs = opensim_reads(os.fspath(setup))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = read_rra_setup(setup)
    assert (s.name, s.final_time, s.lowpass_hz, s.replace_force_set) == (
        theirs["name"], theirs["final_time"], theirs["lowpass"], theirs["replace"])
    assert s.force_set_files == [os.fspath(tmp_path / f.strip()) for f in theirs["force_sets"]]
    assert s.task_set_file == os.fspath(tmp_path / theirs["tasks"].strip())


@pytest.mark.parametrize("version", [20301, 40000, ""], ids=["20301", "40000", "unnumbered"])
def test_a_later_cmctool_is_read_as_opensim_does_and_said(tmp_path, osim, version):
    """A <CMCTool> of Version 20301 or later (when RRA setups became <RRATool>), or
    unnumbered: OpenSim 4.6's RRATool (the oracle) reads it as an RRA setup all the same. Read
    so, and said to be a CMC setup, with what to do (refused under strict)."""
    from rra_oracle import opensim_reads
    setup = _gait2354_setup(tmp_path, 20302, 'Version="20302"', f'Version="{version}"')
    setup.write_text(setup.read_text().replace("RRATool", "CMCTool"))
    if version:
        theirs = opensim_reads(os.fspath(setup))
        assert [f.strip() for f in theirs["force_sets"]] == ["gait2354_RRA_Actuators.xml"]
    with pytest.warns(Urdf2dynWarning) as said:
        s = read_rra_setup(setup)
    of = f"Version {version}" if version else "no version"
    assert any(str(w.message).startswith(f"{setup}: <CMCTool> in a document of {of}: a "
                                         "computed muscle control setup")
               and "rename it <RRATool>" in str(w.message) for w in said), [
        str(w.message) for w in said]
    assert s.force_set_files == [os.fspath(tmp_path / "gait2354_RRA_Actuators.xml")]
    with pytest.raises(RRASetupError, match="<CMCTool>"):
        read_rra_setup(setup, strict=True)


@pytest.mark.parametrize("tag", ["FooTool", "InverseDynamicsTool"])
@pytest.mark.parametrize("rootless", [False, True], ids=["document", "rootless"])
def test_another_tool_opensim_reads_by_its_place_is_refused(tmp_path, osim, tag, rootless):
    """An element of another name where the RRA setup belongs: OpenSim 4.6's RRATool (the
    oracle) reads the first element of <OpenSimDocument> (or the root) whatever its name.
    Refused, saying so and what to rename (urdf2dyn said only that it held no <RRATool>)."""
    from rra_oracle import opensim_refusal
    setup = _gait2354_setup(tmp_path, 30000, "RRATool", tag)
    text = setup.read_text().replace("</RRATool>", f"</{tag}>")
    if rootless:
        text = re.sub(r"</?OpenSimDocument[^>]*>", "", text)
    setup.write_text(text)
    assert opensim_refusal(os.fspath(setup)) is None
    with pytest.raises(RRASetupError) as e:
        read_rra_setup(setup)
    assert str(e.value).startswith(f"{setup}: no <RRATool> element")
    assert (f"OpenSim 4.6 reads <{tag}> as the RRA setup whatever its name: if it is one, "
            f"rename it <RRATool>") in str(e.value)


def test_the_first_element_is_the_one_opensim_reads(tmp_path, osim):
    """<OpenSimDocument> holding another element before its <RRATool>: OpenSim 4.6 (the
    oracle) reads that first element as the setup (its final_time, not the RRATool's).
    urdf2dyn read the <RRATool> after it, another setup than OpenSim's, unsaid: refused,
    naming both."""
    setup = _gait2354_setup(tmp_path, 30000, "<RRATool name",
                            '<Notes name="x"><final_time>9</final_time></Notes><RRATool name')
    from rra_oracle import opensim_name_and_final_time
    assert opensim_name_and_final_time(os.fspath(setup)) == ["x", 9.0]
    with pytest.raises(RRASetupError, match=r"<Notes> comes first in <OpenSimDocument>: OpenSim "
                                            r"4\.6 reads it as the RRA setup, not the "
                                            r"<RRATool> after it: move <RRATool> first"):
        read_rra_setup(setup)


@pytest.mark.parametrize("version", [10900, 10903, 20302, 40000])
def test_a_later_replace_actuator_set_is_said_unread(tmp_path, osim, version):
    """OpenSim 1's <replace_actuator_set> true in a document of Version 10900 or later:
    OpenSim 4.6 (the oracle) leaves it unread, RRATool's default (false) holding, and so did
    urdf2dyn, neither saying a word: said now, naming the file, the element and what to
    write instead (refused under strict)."""
    from rra_oracle import opensim_reads
    setup = _gait2354_setup(tmp_path, version, "<replace_force_set> true </replace_force_set>",
                            "<replace_actuator_set> true </replace_actuator_set>")
    assert opensim_reads(os.fspath(setup))["replace"] is False
    with pytest.warns(Urdf2dynWarning) as said:
        s = read_rra_setup(setup)
    assert s.replace_force_set is False
    assert [str(w.message) for w in said if "<replace_actuator_set>" in str(w.message)] == [
        f"{setup}: <replace_actuator_set> true: OpenSim 4.6 reads it only in a document older "
        f"than Version 10900 (OpenSim 1; this one is {version}), and urdf2dyn does not read it "
        "either: write <replace_force_set> instead"]
    with pytest.raises(RRASetupError, match="<replace_actuator_set>"):
        read_rra_setup(setup, strict=True)


@pytest.mark.parametrize("said", ["nan", "NaN"])
def test_a_nan_cutoff_is_refused_saying_what_to_write(tmp_path, osim, said):
    """<lowpass_cutoff_frequency> NaN: OpenSim 4.6's RRATool (the oracle) reads it as NaN,
    and its run filters only a cut-off >= 0 (RRATool::run): the kinematics go unfiltered,
    unsaid. urdf2dyn refused it saying only 'NaN is not allowed': now what OpenSim makes of
    it and what to write, naming the file and element."""
    from rra_oracle import opensim_reads
    setup = _gait2354_setup(tmp_path, 30000,
                            "<lowpass_cutoff_frequency>       6.00000000000000000000 <",
                            f"<lowpass_cutoff_frequency>{said}<")
    assert math.isnan(opensim_reads(os.fspath(setup))["lowpass"])
    with pytest.raises(RRASetupError) as e:
        read_rra_setup(setup)
    assert str(e.value) == (
        f"{setup}: <lowpass_cutoff_frequency> {said}: no cut-off (OpenSim 4.6 reads it and "
        "leaves the kinematics unfiltered without a word); give the cut-off in Hz (6 Hz is "
        "usual for gait), or -1 for no filter")


@pytest.mark.parametrize("tag", ["initial_time", "final_time", "lowpass_cutoff_frequency",
                                 "output_precision"])
@pytest.mark.parametrize("value", ["", " ", "Unassigned"], ids=["empty", "blank", "Unassigned"])
def test_an_empty_number_is_refused_as_opensim_refuses_it(tmp_path, osim, tag, value):
    """A number element present but empty (or Unassigned): OpenSim 4.6's RRATool (the oracle)
    refuses the setup (Simbody cannot read '' as a number). urdf2dyn read it as absent: the
    run from time 0, or without a filter, unsaid. Refused, naming the file and element."""
    from rra_oracle import opensim_refusal
    setup = _gait2354_setup(tmp_path, 30000, f"<{tag}>", f"<{tag}>{value}<!--cut-->")
    setup.write_text(re.sub(r"<!--cut-->[^<]*", "", setup.read_text()))
    assert opensim_refusal(os.fspath(setup)) is not None
    with pytest.raises(RRASetupError, match=re.escape(
            f"{setup}: <{tag}> is empty: OpenSim 4.6 refuses the setup; give a number, or "
            "remove the element for OpenSim's default")):
        read_rra_setup(setup)
