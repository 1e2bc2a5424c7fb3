"""The trial animation: what each frame draws is the model's forward kinematics (checked
against robot2r's closed form), frames differ as the model moves, and the .gif written has
the frames (read back by Pillow)."""
import numpy as np
import pytest

import urdf2dyn

plt = pytest.importorskip("matplotlib.pyplot")
PIL = pytest.importorskip("PIL.Image")

from urdf2dyn.biomech.animate import animate, stick_segments  # noqa: E402


def robot2r_motion(n=12):
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    t = np.arange(n) / 10
    q = np.column_stack([np.linspace(0, np.pi / 2, n), np.linspace(0, -1, n)])
    return model, t, q


def test_segments_are_the_closed_form_links():
    model, t, q = robot2r_motion()
    seg = stick_segments(model, q)
    # one segment per joint: joint1 world -> link1 (both at the origin), joint2 link1 -> link2
    # at 2 (cos q1, sin q1, 0)
    assert [j.name for j in model.joints] == ["joint1", "joint2"]
    assert seg.shape == (len(t), 2, 2, 3)
    np.testing.assert_allclose(seg[:, 0], 0, atol=1e-12)
    np.testing.assert_allclose(seg[:, 1, 1], np.column_stack([2 * np.cos(q[:, 0]),
                                                              2 * np.sin(q[:, 0]), 0 * t]),
                               atol=1e-12)


def test_frames_draw_the_motion_and_the_gif_has_them(tmp_path):
    model, t, q = robot2r_motion()
    path = tmp_path / "trial.gif"
    anim = animate(model, t, q, path=path, title="robot2r")
    fig = anim._fig
    images = []
    for i in (0, len(t) - 1):
        anim._func(i)
        x, y, _ = fig.axes[0].lines[1].get_data_3d()
        np.testing.assert_allclose([x[1], y[1]], [2 * np.cos(q[i, 0]), 2 * np.sin(q[i, 0])],
                                   atol=1e-12)
        fig.canvas.draw()
        images.append(np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int))
    assert np.abs(images[0] - images[1]).sum() > 0          # the figure moved
    assert (images[0] < 128).any()                          # something dark was drawn
    with PIL.open(path) as gif:
        assert gif.n_frames == len(t)
    plt.close(fig)
    with pytest.raises(ValueError, match="expected a .gif or .mp4"):
        animate(model, t, q, path=tmp_path / "x.avi")
