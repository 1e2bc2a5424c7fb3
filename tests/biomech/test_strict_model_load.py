"""--strict covers the model a command loads, whichever way it is named: a setup's
<model_file> or --model. A model finding (here a pelvis inertia that breaks the triangle
inequality, a URDFWarning as load() says it) stops the run under --strict before anything is
written, as urdf2dyn.load(path, strict=True) refuses it; without --strict it is warned and
the run goes on. `ik --setup --strict` and `scale --strict` loaded the model without strict:
the finding was only warned, the outputs written, and the exit status 1 came at the end.
Under --strict the refusal ended in the warning's "used as written" (wrapped by ik and scale
in "cannot be loaded (...); give the model with --model"); rra stopped on any message of the
loader, as a setup error. One rule now (urdf2dyn.model.load_leaving_unsaid, model_finding):
a model finding is refused as such, saying why and what to do."""
import os
import re
import shutil

import pytest

from cli_here import run_here

DATA = os.path.join(os.path.dirname(__file__), "..", "data")
FINDING = "break the triangle inequality"


def _break_first_inertia(path):
    """The .osim file with its first body's inertia made impossible (Iyy tiny)."""
    text = path.read_text()
    text = re.sub(r"<inertia>\s*([0-9.eE+-]+)\s+[0-9.eE+-]+\s+([0-9.eE+-]+)",
                  r"<inertia>\1 1e-6 \2", text, count=1)
    path.write_text(text)


def _published(tmp_path, source, model, argv, output, via_option):
    """(argv, output) of a command run on a copy of the published folder tests/data/<source>
    whose model (a file in it) has its first inertia made impossible: in argv, "{folder}" is
    the copy, "{tmp}" tmp_path and "{out}" the output (tmp_path/output); via_option: the
    model is also given with --model."""
    folder = tmp_path / os.path.basename(source)
    shutil.copytree(os.path.join(DATA, *source.split("/")), folder)
    _break_first_inertia(folder / model)
    out = tmp_path / output
    argv = [a.format(folder=folder, tmp=tmp_path, out=out) for a in argv]
    if via_option:
        argv += ["--model", os.fspath(folder / model)]
    return argv, out


def _ik(tmp_path, via_option):
    return _published(tmp_path, "ik/gait2392", "subject01_simbody.osim",
                      ["ik", "--setup", "{folder}/subject01_Setup_IK.xml", "--output", "{out}"],
                      "out.mot", via_option)


def _scale(tmp_path, via_option):
    return _published(tmp_path, "scale/gait2354", "gait2354_simbody.osim",
                      ["scale", "{folder}/subject01_Setup_Scale.xml", "-o", "{out}"],
                      "out.osim", via_option)


def _torques(tmp_path, via_option):
    import urdf2dyn
    folder = tmp_path / "id"
    folder.mkdir()
    model = folder / "model.osim"
    shutil.copy(os.path.join(DATA, "ik", "gait2392", "subject01_simbody.osim"), model)
    _break_first_inertia(model)
    with pytest.warns(urdf2dyn.URDFWarning, match=FINDING):
        names = urdf2dyn.load(os.fspath(model)).q_names
    rows = "\n".join("\t".join(["%g" % (0.01 * k)] + ["0"] * len(names)) for k in range(10))
    (folder / "q.mot").write_text(
        "q\nversion=1\nnRows=10\nnColumns=%d\ninDegrees=yes\nendheader\n" % (len(names) + 1)
        + "\t".join(["time", *names]) + "\n" + rows + "\n")
    (folder / "setup.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40000">\n'
        '<InverseDynamicsTool name="id">\n<results_directory>.</results_directory>\n'
        "<model_file>model.osim</model_file>\n<forces_to_exclude>All</forces_to_exclude>\n"
        "<coordinates_file>q.mot</coordinates_file>\n"
        "<lowpass_cutoff_frequency_for_coordinates>-1</lowpass_cutoff_frequency_for_coordinates>\n"
        "<output_gen_force_file>id.sto</output_gen_force_file>\n"
        "</InverseDynamicsTool>\n</OpenSimDocument>\n")
    argv = ["torques", "--setup", os.fspath(folder / "setup.xml"),
            "-o", os.fspath(tmp_path / "out.sto")]
    if via_option:
        argv.insert(1, os.fspath(model))
    return argv, tmp_path / "out.sto"


def _rra(tmp_path, via_option):
    return _published(tmp_path, "opensim_models/Gait2354_Simbody", "subject01_simbody.osim",
                      ["rra", "{folder}/subject01_Setup_RRA.xml", "--knot-interval", "0.2",
                       "--results-directory", "{tmp}/results", "--output-model", "{out}"],
                      "out.osim", via_option)


@pytest.mark.parametrize("via_option", [False, True], ids=["setup-model", "model-option"])
@pytest.mark.parametrize("command", [_ik, _scale, _torques, _rra],
                         ids=["ik", "scale", "torques", "rra"])
def test_strict_refuses_the_models_findings_before_any_output(tmp_path, command, via_option):
    argv, output = command(tmp_path, via_option)
    status, _, err = run_here(argv)
    assert status == 0 and "warning: " in err and FINDING in err, err
    assert output.exists()
    output.unlink()
    status, _, err = run_here(argv + ["--strict"])
    said = [line for line in err.splitlines() if FINDING in line]
    assert status == 1 and len(said) == 1 and " error: " in said[0], err   # not a warning
    assert "Traceback" not in err and not output.exists(), err
    # a refusal that says so and what to do, not the warning's "used as written", and not
    # wrapped in a setup's advice to give the model another way (it would be refused too)
    assert "used as written" not in said[0].split("without --strict")[0], said[0]
    assert ("no rigid body has this inertia. Correct the body's <inertia>; refused because "
            "--strict") in said[0], said[0]
    assert "or run without --strict" in said[0] and "strict=" not in said[0], said[0]
    assert "give the model" not in said[0] and "cannot be loaded" not in said[0], said[0]


def test_a_strict_load_refuses_a_finding_in_the_librarys_words(tmp_path):
    """urdf2dyn.load(path, strict=True) refused a finding "because --strict (strict=True)
    ...; or run without --strict (strict=False)": a flag to a library caller. It now says
    the keyword alone (load's signature is the oracle), the command line its flag alone
    (test_strict_refuses_the_models_findings_before_any_output)."""
    import urdf2dyn
    from caller_words import assert_says_the_keyword
    model = tmp_path / "model.osim"
    shutil.copy(os.path.join(DATA, "ik", "gait2392", "subject01_simbody.osim"), model)
    _break_first_inertia(model)
    with pytest.raises(urdf2dyn.URDFError) as refused:
        urdf2dyn.load(os.fspath(model), strict=True)
    said = str(refused.value)
    assert FINDING in said and "refused because strict=True makes the model's findings " \
        "errors: act on it as said, or pass strict=False to use the model as written" in said
    assert_says_the_keyword(said, urdf2dyn.load, "strict")


def _loader_saying_a_note(monkeypatch, finding=False):
    """urdf2dyn.load, patched to say a message that is not a model finding (a plain
    Urdf2dynWarning) and, when finding, a model finding (a URDFWarning) before loading."""
    import warnings

    import urdf2dyn
    from urdf2dyn import model as module
    real = module.load

    def load(path, **options):
        warnings.warn("a note of the loader", urdf2dyn.Urdf2dynWarning)
        if finding:
            warnings.warn("m.osim:3: body 'b': odd inertia; used as written",
                          urdf2dyn.URDFWarning)
        return real(path, **options)
    monkeypatch.setattr(module, "load", load)


def test_strict_stops_on_the_models_findings_only_in_every_job(monkeypatch):
    """The one rule of a job's strict load (load_leaving_unsaid): a model finding is refused,
    saying why and what to do; another message of the loader is said (the command line's
    --strict then ends the run with exit status 1, after it)."""
    import urdf2dyn
    from urdf2dyn.model import load_leaving_unsaid
    _loader_saying_a_note(monkeypatch, finding=True)
    said = []
    with pytest.raises(urdf2dyn.URDFError) as refused:
        load_leaving_unsaid(os.path.join(DATA, "scale", "gait2354", "gait2354_simbody.osim"),
                            lambda message: False, True,
                            say=lambda message, category: said.append((message, category)))
    assert said == [("a note of the loader", urdf2dyn.Urdf2dynWarning)]
    assert str(refused.value).startswith("m.osim:3: body 'b': odd inertia; refused because "
                                         "strict=True"), refused.value


def test_rras_strict_load_follows_the_same_rule(monkeypatch, tmp_path):
    """rra's strict run stopped on the loader's first message of any kind (as a setup
    error): it now stops on the model's findings only, as the other jobs. Here the loader's
    note is said and the run stops later, on the setup's <constraints_file> (its bounds are
    not applied: a warning of the run's own, an error under strict)."""
    import urdf2dyn
    from urdf2dyn.biomech.rra import run_rra
    _loader_saying_a_note(monkeypatch)
    setup = os.path.join(DATA, "opensim_models", "Gait2354_Simbody", "subject01_Setup_RRA.xml")
    with pytest.warns(urdf2dyn.Urdf2dynWarning, match="a note of the loader"), \
            pytest.raises(ValueError, match="<constraints_file>"):
        run_rra(setup, results_directory=os.fspath(tmp_path), knot_interval=0.2, strict=True)
    assert not os.listdir(tmp_path)


def test_rra_says_the_models_findings_in_their_own_category(tmp_path):
    """rra re-said the loader's findings of its setup's model as plain Urdf2dynWarnings: a
    user filtering URDFWarning (as for urdf2dyn.load) saw them from load but not from rra.
    The finding keeps its category, as load says it (the oracle: load's own warning)."""
    import warnings

    import urdf2dyn
    from urdf2dyn.biomech.rra import run_rra
    folder = tmp_path / "rra"
    shutil.copytree(os.path.join(DATA, "opensim_models", "Gait2354_Simbody"), folder)
    _break_first_inertia(folder / "subject01_simbody.osim")
    with warnings.catch_warnings(record=True) as by_load:
        warnings.simplefilter("always")
        urdf2dyn.load(os.fspath(folder / "subject01_simbody.osim"))
    expected = {(str(w.message), w.category) for w in by_load if FINDING in str(w.message)}
    assert {category for _, category in expected} == {urdf2dyn.URDFWarning}
    with warnings.catch_warnings(record=True) as by_rra:
        warnings.simplefilter("always")
        run_rra(os.fspath(folder / "subject01_Setup_RRA.xml"), knot_interval=0.2,
                results_directory=os.fspath(tmp_path / "results"), write=False)
    said = {(str(w.message), w.category) for w in by_rra if FINDING in str(w.message)}
    assert said == expected
    # and a user's filter on the category silences it in rra as in load
    with warnings.catch_warnings(record=True) as filtered:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", urdf2dyn.URDFWarning)
        run_rra(os.fspath(folder / "subject01_Setup_RRA.xml"), knot_interval=0.2,
                results_directory=os.fspath(tmp_path / "results"), write=False)
    assert not [w for w in filtered if FINDING in str(w.message)]
