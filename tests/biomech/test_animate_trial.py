"""A trial you can watch (issue 20, item 5): urdf2dyn.animate(model, result) and
``urdf2dyn animate``. Frames are rendered and read back: the measured marker, the model's
marker and the ground-reaction arrow are where their 3-D positions project, in their colours;
the frame count is the samples drawn. Data: the Gait2392 walk as a C3D (test_labtorques.py)."""
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.warn import Urdf2dynWarning

pytest.importorskip("ezc3d")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt                     # noqa: E402
from matplotlib.colors import to_rgb               # noqa: E402
from mpl_toolkits.mplot3d import proj3d            # noqa: E402

from urdf2dyn.biomech.animate import model_marker_positions, upright   # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "ik", "gait2392")
C3D = os.path.join(DATA, "subject01_walk1.c3d")
OSIM = os.path.join(DATA, "subject01_simbody.osim")
SETUP = os.path.join(DATA, "subject01_Setup_IK.xml")


@pytest.fixture(scope="module")
def trial():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)
        model = urdf2dyn.load(OSIM)
        res = urdf2dyn.inverse_dynamics_trial(model, C3D, rotation="x:-90", ik_setup=SETUP,
                                              time_range=(0.8, 1.2))
    return model, res


def _pixel(ax, fig, p, gravity=(0.0, -9.80665, 0.0)):
    """Where world point p is drawn: the animation shows the world upright (display z against
    gravity, urdf2dyn.biomech.animate.upright), the .osim's y up here."""
    p = upright(gravity)[0] @ np.asarray(p, dtype=float)
    x, y, _ = proj3d.proj_transform(p[0], p[1], p[2], ax.get_proj())
    px, py = ax.transData.transform((x, y))
    return int(round(px)), int(round(fig.canvas.get_width_height()[1] - py))


def _near(img, xy, colour, r=2, tol=0.12):
    x, y = xy
    patch = img[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1, :3]
    return bool(np.any(np.all(np.abs(patch - np.array(to_rgb(colour))) < tol, axis=-1)))


def test_frame_shows_markers_and_arrows_where_they_are(trial):
    model, res = trial
    anim = urdf2dyn.animate(model, res, every=4)
    fig = anim._fig
    ax = fig.axes[0]
    try:
        frames = list(anim.new_frame_seq())
        assert frames == list(range(0, len(res.t), 4))
        i = frames[len(frames) // 2]
        fig.canvas.draw()               # the animation's first draw (frame 0) happens here
        anim._func(i)
        fig.canvas.draw()
        assert ax.get_title().endswith(f"t = {res.t[i]:.3f} s")
        img = np.asarray(fig.canvas.buffer_rgba(), dtype=float) / 255
        # the marker fitted worst in this frame: measured (red) and model (orange) apart
        err = res.ik.marker_error[res.record["ik_rows"][i]]
        k = int(np.nanargmax(err))
        name = res.ik.marker_names[k]
        kt = int(np.argmin(np.abs(res.markers.time - res.t[i])))
        measured = res.markers.xyz[kt, res.markers.labels.index(name)]
        fitted = model_marker_positions(model, res.q[i], [name])[0, 0]
        assert _near(img, _pixel(ax, fig, measured), "C3")
        assert _near(img, _pixel(ax, fig, fitted), "C1")
        # a foot on the ground: its arrow's middle is green
        kr = int(np.argmin(np.abs(res.reactions.time - res.t[i])))
        foot = next(f for f in sorted(res.reactions.grf)
                    if np.all(np.isfinite(res.reactions.cop[f][kr])))
        mid = res.reactions.cop[foot][kr] + 0.5e-3 * res.reactions.grf[foot][kr]
        assert _near(img, _pixel(ax, fig, mid), "C2")
        # and nothing red where no marker is: the image's top-left corner
        assert not _near(img, (5, 5), "C3", r=4)
    finally:
        plt.close(fig)


def test_cli_animate_writes_the_frames(tmp_path, capsys):
    from PIL import Image
    out = tmp_path / "walk.gif"
    status = cli.main(["animate", OSIM, C3D, "--rotate", "x:-90", "--time-range", "1.0",
                       "1.2", "--every", "3", "-o", os.fspath(out)])
    text = capsys.readouterr().out
    assert status == 0, text
    n = len(range(0, 13, 3))                   # 1.0 .. 1.2 s at 60 Hz: 13 samples
    with Image.open(out) as im:
        assert im.n_frames == n
    assert f"{n} frames" in text and "marker error RMS" in text


@pytest.mark.parametrize("argv,words", [
    (["-o", "x.png"], ".gif or .mp4"),
    (["--every", "0"], "--every"),
])
def test_cli_animate_refusals(argv, words, capsys):
    """Command-line mistakes: exit status 2, as argparse's own errors."""
    with pytest.raises(SystemExit) as e:
        cli.main(["animate", OSIM, C3D, "--rotate", "x:-90"] + argv)
    assert e.value.code == 2
    assert words in capsys.readouterr().err


def test_notebook_display(trial):
    """In a notebook: the animation as HTML (to_jshtml), one image per frame drawn."""
    model, res = trial
    anim = urdf2dyn.animate(model, res, every=10)
    try:
        html = anim.to_jshtml()
    finally:
        plt.close(anim._fig)
    assert "<script" in html and html.count("frames[") >= len(range(0, len(res.t), 10))


def test_library_call_writing_a_file_leaves_no_figure_open(trial, tmp_path):
    """urdf2dyn.animate(model, result, path=...) from a notebook or a loop: the figure it
    drew on is not pyplot's (only the command line closed it, so each library call left
    one open); the animation it returns still draws its frames and turns into HTML. Without
    a path the figure is pyplot's, for plt.show()."""
    from PIL import Image
    model, res = trial
    before = plt.get_fignums()
    anim = urdf2dyn.animate(model, res, path=tmp_path / "walk.gif", every=12)
    assert plt.get_fignums() == before
    frames = list(range(0, len(res.t), 12))
    with Image.open(tmp_path / "walk.gif") as im:
        assert im.n_frames == len(frames)
    anim._fig.canvas.draw()             # the animation's first draw (frame 0) happens here
    anim._func(frames[-1])
    anim._fig.canvas.draw()
    assert anim._fig.axes[0].get_title().endswith(f"t = {res.t[frames[-1]]:.3f} s")
    assert "<script" in anim.to_jshtml()
    assert plt.get_fignums() == before
    shown = urdf2dyn.animate(model, res, every=12)
    try:
        assert plt.get_fignums() == before + [shown._fig.number]
        shown._fig.canvas.draw()        # drawn once: matplotlib warns of one never drawn
    finally:
        plt.close(shown._fig)


RATE = 60.0         # subject01_walk1.c3d: frames 0 .. 150 at 60 Hz, frame k at t = k / 60 s


@st.composite
def animate_options(draw):
    """--every, -o and --time-range: half the time a short span of the trial that is
    drawn (with its sample count and first and last time), else anything."""
    if draw(st.booleans()):
        first, n = draw(st.integers(1, 146)), draw(st.integers(1, 3))
        # half a sample before the first and after the last: which samples are in is clear
        t0, t1 = (first - 0.5) / RATE, (first + n - 0.5) / RATE
        return (draw(st.integers(1, 3)), draw(st.sampled_from(["a.gif", "a.GIF"])), t0, t1,
                (n, first / RATE, (first + n - 1) / RATE))
    t0 = draw(st.floats(0.4, 3, allow_nan=False))
    return (draw(st.integers(-2, 50)),
            draw(st.sampled_from(["a.gif", "a.GIF", "a.png", "a", "d/a.gif"])),
            t0, t0 + draw(st.floats(-0.1, 0.06, allow_nan=False)), None)


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(options=animate_options())
def test_cli_animate_fuzz_never_a_traceback(options, tmp_path, capsys):
    """Any --every, -o and --time-range: a file, or one `urdf2dyn animate: error:` line. A
    span of the trial: a GIF of one frame per --every samples of it (as Pillow counts them),
    the span's first and last sample times said (as the C3D's frame rate gives them)."""
    from PIL import Image
    every, out, t0, t1, samples = options
    target = tmp_path / out
    try:
        status = cli.main(["animate", OSIM, C3D, "--rotate", "x:-90", "--every", str(every),
                           "--time-range", repr(t0), repr(t1), "-o", os.fspath(target)])
    except SystemExit as e:             # argparse's usage error (e.g. "-2" read as an option)
        status = e.code
    text = capsys.readouterr()
    assert "Traceback" not in text.err
    assert status in (0, 1, 2)
    plt.close("all")
    if samples is not None:
        n, first, last = samples
        assert status == 0, text.err
        with Image.open(target) as im:
            assert im.n_frames == len(range(0, n, every))
        plural = "" if im.n_frames == 1 else "s"
        assert f": {im.n_frames} frame{plural} of " in text.out
        assert f"t = {first:g} .. {last:g} s" in text.out
    elif status == 0:
        assert target.exists()
    else:
        assert "urdf2dyn animate: error:" in text.err or "usage:" in text.err


# ================================================ animate draws what torques computed
ROBOT2R = urdf2dyn.data_path("robot2r.urdf")
FLOATING = [f"root_joint_{s}" for s in ("x", "y", "z", "qx", "qy", "qz", "qw")]


def _robot2r_sto(path, n=256, fs=128.0):
    """robot2r's two joints as a slow and a fast sine, n samples at fs Hz (times exact in
    binary), written as OpenSim reads a .sto."""
    t = np.arange(n) / fs
    q = np.column_stack([0.3 + np.sin(2 * np.pi * 0.7 * t),
                         -0.5 + 0.4 * np.sin(2 * np.pi * 9.0 * t)])
    path.write_text(f"m\nversion=1\nnRows={n}\nnColumns=3\ninDegrees=no\nendheader\n"
                    "time\tjoint1\tjoint2\n" + "".join(
                        "\t".join(repr(v) for v in row) + "\n"
                        for row in np.column_stack([t, q]).tolist()))
    return t, q


def _spy(monkeypatch):
    """(drawn, computed): the (t, q) urdf2dyn animate hands to the figure, and each trial
    result urdf2dyn.biomech.pipeline.inverse_dynamics_trial returns, as the commands run."""
    from urdf2dyn.biomech import animate as drawing, pipeline
    drawn, computed = [], []
    run = pipeline.inverse_dynamics_trial

    def draw(model, time, q, **_):
        drawn.append((np.array(time), np.array(q)))

    def trial(*args, **kw):
        computed.append(run(*args, **kw))
        return computed[-1]
    monkeypatch.setattr(drawing, "animate", draw)
    monkeypatch.setattr(pipeline, "inverse_dynamics_trial", trial)
    return drawn, computed


def test_cli_animate_draws_opensims_processing_as_torques_computes_it(osim, tmp_path,
                                                                     monkeypatch, capsys):
    """--processing opensim --filter 6: animate drew the Butterworth-filtered coordinates
    whatever torques computed with the same flags. Oracle: OpenSim 4.6's own padded IIR
    filter (TableUtilities.filterLowpass, as its inverse-dynamics tool pads) on the file; the
    rows drawn are the ones `urdf2dyn torques` computes its torques at, the same numbers."""
    motion = tmp_path / "m.sto"
    _robot2r_sto(motion)
    drawn, computed = _spy(monkeypatch)
    flags = ["--processing", "opensim", "--filter", "6", "--time-range", "0.25", "1.75"]
    assert cli.main(["animate", ROBOT2R, os.fspath(motion), "-o",
                     os.fspath(tmp_path / "m.gif")] + flags) == 0
    assert cli.main(["torques", ROBOT2R, os.fspath(motion), "-o",
                     os.fspath(tmp_path / "tau.csv")] + flags) == 0
    capsys.readouterr()
    (t, q), torques = drawn[0], computed[-1]
    assert len(computed) == 2 and len(t) == 193             # 0.25 .. 1.75 s at 128 Hz
    np.testing.assert_array_equal(t, torques.t)
    np.testing.assert_array_equal(q, torques.q)
    table = osim.TimeSeriesTable(os.fspath(motion))
    osim.TableUtilities.filterLowpass(table, 6.0, True)
    theirs_t = np.array(table.getIndependentColumn())
    rows = np.searchsorted(theirs_t, t)
    np.testing.assert_allclose(theirs_t[rows], t, rtol=0, atol=1e-12)
    np.testing.assert_allclose(q, table.getMatrix().to_numpy()[rows], rtol=0, atol=1e-9)


def test_cli_animate_floating_base_draws_the_base_torques_moves(tmp_path, monkeypatch,
                                                                capsys):
    """--floating-base: a motion with the root_joint columns torques --floating-base reads
    was refused by animate (no such option, and the refusal said to change the file); now the
    base drawn moves as the file says (closed form: unfiltered coordinates are the file's,
    the unit quaternion of a turn about z), as torques computed it."""
    t = np.linspace(0.0, 1.0, 51)
    half = 0.5 * 0.8 * t                                    # 0 .. 0.8 rad about z
    base = np.column_stack([0.1 * t, np.zeros_like(t), 0.5 + 0.0 * t, np.zeros_like(t),
                            np.zeros_like(t), np.sin(half), np.cos(half)])
    joints = np.column_stack([0.3 + t, -0.2 * t])
    motion = tmp_path / "m.csv"
    np.savetxt(motion, np.column_stack([t, base, joints]), delimiter=",", comments="",
               header=",".join(["time"] + FLOATING + ["joint1", "joint2"]))
    drawn, computed = _spy(monkeypatch)
    assert cli.main(["animate", ROBOT2R, os.fspath(motion), "-o",
                     os.fspath(tmp_path / "m.gif")]) == 1
    said = capsys.readouterr().err
    assert "load the model with it (--floating-base)" in said, said
    for command, out in (("animate", "m.gif"), ("torques", "tau.csv")):
        assert cli.main([command, ROBOT2R, os.fspath(motion), "--floating-base", "-o",
                         os.fspath(tmp_path / out)]) == 0, capsys.readouterr().err
    (drawn_t, q), torques = drawn[0], computed[-1]
    np.testing.assert_array_equal(drawn_t, t)
    np.testing.assert_allclose(q, np.column_stack([base, joints]), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(q, torques.q)


def test_cli_animate_reads_degrees_and_a_mapping_as_torques_does(tmp_path, monkeypatch,
                                                                  capsys):
    """--degrees and --mapping: a CSV in degrees under other column names, which torques
    reads with them, was refused by animate's parser, or drawn 57 times too far without
    --degrees. Closed form: the angles drawn are the file's in radians, the ones torques
    computed with the same flags; without --mapping the refusal advises it."""
    t = np.linspace(0.0, 1.0, 41)
    degrees = np.column_stack([20.0 + 30.0 * t, -45.0 * t ** 2])
    motion, mapping = tmp_path / "m.csv", tmp_path / "map.json"
    np.savetxt(motion, np.column_stack([t, degrees]), delimiter=",", comments="",
               header="time,shoulder,elbow")
    mapping.write_text('{"shoulder": "joint1", "elbow": "joint2"}')
    drawn, computed = _spy(monkeypatch)
    assert cli.main(["animate", ROBOT2R, os.fspath(motion), "--degrees", "-o",
                     os.fspath(tmp_path / "m.gif")]) == 1
    said = capsys.readouterr().err
    assert "rename with a mapping: --mapping FILE" in said, said
    flags = ["--degrees", "--mapping", os.fspath(mapping)]
    for command, out in (("animate", "m.gif"), ("torques", "tau.csv")):
        assert cli.main([command, ROBOT2R, os.fspath(motion), "-o",
                         os.fspath(tmp_path / out)] + flags) == 0, capsys.readouterr().err
    (drawn_t, q), torques = drawn[0], computed[-1]
    np.testing.assert_array_equal(drawn_t, t)
    np.testing.assert_allclose(q, degrees * (np.pi / 180), rtol=1e-15, atol=0)
    np.testing.assert_array_equal(q, torques.q)


@pytest.mark.parametrize("gravity, like", [((0.0, 0.0, -1e-300), (0.0, 0.0, -9.81)),
                                           ((0.0, 5e-324, 0.0), (0.0, 1.0, 0.0)),
                                           ((1e-300, 1e-300, 1e-300), (1.0, 1.0, 1.0)),
                                           ((-1e200, 0.0, 0.0), (-9.81, 0.0, 0.0)),
                                           ((1e200, -1e200, 3e200), (1.0, -1.0, 3.0))])
def test_upright_takes_gravity_of_any_finite_length(gravity, like):
    """animate --gravity 0 0 1e-300 ended in numpy's 'zero-size array to reduction operation
    minimum which has no identity': gravity's length, taken before its direction, rounded
    to 0 (or overflowed, past ~1e154 m/s²). Closed form: the view is that of the same
    direction at a length of a few m/s²."""
    R, labels = upright(gravity)
    R_like, labels_like = upright(like)
    assert np.isfinite(R).all() and labels == labels_like
    np.testing.assert_allclose(R, R_like, rtol=0, atol=1e-15)


def test_cli_animate_draws_a_tiny_gravity_upright(tmp_path, capsys):
    """The command line as the fuzz of its numeric options found it (animate --gravity
    0 0 1e-300): a figure, drawn as for gravity along +z."""
    out = tmp_path / "a.gif"
    status = cli.main(["animate", OSIM, C3D, "--rotate", "x:-90", "--every", "50",
                       "--time-range", "0.5", "0.6", "--gravity", "0", "0", "1e-300",
                       "-o", os.fspath(out)])
    plt.close("all")
    err = capsys.readouterr().err
    assert status == 0 and out.is_file() and "Traceback" not in err, err


@pytest.mark.parametrize("given, up", [(None, (0.0, 9.81, 0.0)),
                                       (["0", "0", "-9.81"], (0.0, 0.0, 9.81))])
def test_cli_animate_stands_a_humod_model_up_as_torques_sets_its_gravity(
        tmp_path, monkeypatch, capsys, given, up):
    """HuMoD's human model is y up: torques sets its gravity to (0, -9.81, 0) unless --gravity
    says otherwise; animate left the URDF default (z up) and drew the runner lying on its
    side, without a word. Closed form: the figure's up (display z, urdf2dyn.biomech.animate.
    upright) is against the gravity torques used with the same flags."""
    from urdf2dyn.biomech import animate as drawing, pipeline
    gravities, drawn_up = [], []
    run = pipeline.inverse_dynamics_trial

    def draw(model, time, q, **_):
        drawn_up.append(upright(model.gravity)[0][2] * 9.81)

    def trial(model, *args, **kw):
        gravities.append(np.array(model.gravity))
        return run(model, *args, **kw)
    monkeypatch.setattr(drawing, "animate", draw)
    monkeypatch.setattr(pipeline, "inverse_dynamics_trial", trial)
    flags = ["--time-range", "0", "0.2"] + (["--gravity", *given] if given else [])
    motion = urdf2dyn.data_path("running_a_3ms.csv")
    for command, out in (("animate", "run.gif"), ("torques", "tau.csv")):
        assert cli.main([command, "humod_subject_a.urdf", motion, "-o",
                         os.fspath(tmp_path / out)] + flags) == 0, capsys.readouterr().err
    said = capsys.readouterr().out
    assert ("a HuMoD human model (y up); --gravity overrides" in said) == (given is None)
    np.testing.assert_allclose(drawn_up[0], up, atol=1e-15)
    np.testing.assert_array_equal(gravities[0], gravities[1])
    np.testing.assert_allclose(-gravities[0], up, atol=1e-15)


@st.composite
def trial_processing_options(draw):
    """--processing, --floating-base and --filter as a user may type them, right or not."""
    argv = []
    processing = draw(st.sampled_from([None, "urdf2dyn", "opensim", "OpenSim", ""]))
    if processing is not None:
        argv += ["--processing", processing]
    if draw(st.booleans()):
        argv.append("--floating-base")
    cutoff = draw(st.one_of(st.none(), st.sampled_from(["0", "-1", "nan", "1e-300", "64",
                                                        "1e400", "x"]),
                            st.floats(0.5, 200).map(repr)))
    if cutoff is not None:
        argv += ["--filter", cutoff]
    if draw(st.booleans()):
        argv.append("--degrees")
    mapping = draw(st.sampled_from([None, "map.json", "bad.json", "missing.json", "."]))
    if mapping is not None:
        argv += ["--mapping", mapping]
    if draw(st.booleans()):
        argv += ["--gravity", *draw(st.sampled_from([["0", "-9.81", "0"], ["0", "0", "0"],
                                                    ["nan", "0", "1"], ["1e400", "0", "0"],
                                                    ["0", "1e300", "-1e300"]]))]
    return argv


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=trial_processing_options())
def test_cli_animate_processing_fuzz_never_a_traceback(argv, tmp_path, capsys):
    """Any --processing, --floating-base, --filter, --degrees, --mapping (a right one, a
    file that is no mapping, a missing one, a folder) and --gravity: a GIF, or one error line
    (a motion without root columns, with --floating-base, names its missing columns)."""
    motion = tmp_path / "m.sto"
    if not motion.exists():
        _robot2r_sto(motion, n=40)
        (tmp_path / "map.json").write_text('{"joint1": "joint1", "joint2": "joint2"}')
        (tmp_path / "bad.json").write_text('{"joint1": ')
    argv = [os.fspath(tmp_path / a) if a.endswith(".json") or a == "." else a for a in argv]
    out = tmp_path / "a.gif"
    out.unlink(missing_ok=True)
    try:
        status = cli.main(["animate", ROBOT2R, os.fspath(motion), "--every", "13", "-o",
                           os.fspath(out)] + argv)
    except SystemExit as e:                 # argparse's usage error
        status = e.code
    text = capsys.readouterr()
    plt.close("all")
    assert "Traceback" not in text.err
    assert status in (0, 1, 2), text.err
    if status == 0:
        assert out.exists()
    elif status == 1:
        assert "urdf2dyn animate: error:" in text.err
    else:
        assert "usage:" in text.err
