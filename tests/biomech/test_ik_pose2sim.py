"""Pose2Sim's Body25b demo (tests/data/ik/pose2sim): markers from video keypoints, no hand
markers, so the arms' rotations are barely held.

Found: `urdf2dyn ik --threads N` turned the left arm over against OpenSim's IK (arm_flex_l
108 deg, arm_rot_l 274 deg, elbow_flex_l 93 deg away from frame 66 on, with 4 threads; 182
deg with 2). Each thread's segment started from the default pose, and from there the first
frame of a later segment reached another minimum than the previous frame's fit reaches when
it warm-starts it (as one thread, and OpenSim, do), with larger marker errors. Since, each
segment's first frame is fitted again from the previous frame's fit and the segment is
redone from there when the two differ (csrc/batch/u2d_batch.c, join_ik_seams).

Oracle: OpenSim 4.6's IK tool on the same model, markers and setup (accuracy 1e-8), its
output stored beside them (README.rst says how it was made)."""
import gzip
import os
import shutil
import warnings

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import ik
from urdf2dyn.biomech.formats import read_opensim
from urdf2dyn.warn import Urdf2dynWarning

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "ik",
                    "pose2sim")
MODEL = "Model_Pose2Sim_body25b_scaled.osim"
SETUP = "IK_Setup_Pose2Sim_Body25b.xml"
TRIAL = "S00_P00_T01_BalancingTrial_0-100_filt_butterworth.trc"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo's setup, recording and model in one folder, and the model loaded."""
    folder = tmp_path_factory.mktemp("pose2sim")
    for name in (SETUP, TRIAL):
        shutil.copy(os.path.join(DATA, name), folder)
    with gzip.open(os.path.join(DATA, MODEL + ".gz"), "rb") as f:
        (folder / MODEL).write_bytes(f.read())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)     # the model's toe inertias
        model = urdf2dyn.load(os.fspath(folder / MODEL))
    return folder, model


def _fit(demo, threads):
    folder, model = demo
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Urdf2dynWarning)     # poor fit, ranges: said elsewhere
        return ik.run_setup(os.fspath(folder / SETUP), model=model, output="", threads=threads)


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_keep_opensims_arms(demo, threads):
    """With 2 and 3 threads (segments from frames 50, and 33 and 66) the motion is OpenSim's:
    every coordinate within 0.1 deg RMS and 0.5 deg at most (the arms included), the marker
    errors OpenSim's; and it is the one-thread motion."""
    folder, model = demo
    theirs = read_opensim(os.path.join(DATA, "opensim_ik.mot"), model=model)
    q_theirs = theirs.q[:, [theirs.names.index(n) for n in model.q_names]]
    res = _fit(demo, threads)
    assert np.allclose(res.motion.time, theirs.time, atol=1e-6)
    d = np.degrees(res.motion.q - q_theirs)
    worst = model.q_names[int(np.abs(d).max(axis=0).argmax())]
    print(f"\nPose2Sim Body25b, {threads} threads: ours - OpenSim RMS <= "
          f"{np.sqrt(np.mean(d ** 2, axis=0)).max():.3f} deg, max {np.abs(d).max():.3f} deg "
          f"({worst})")
    assert np.sqrt(np.mean(d ** 2, axis=0)).max() < 0.1, worst
    assert np.abs(d).max() < 0.5, worst
    one = _fit(demo, 1)
    assert np.abs(res.motion.q - one.motion.q).max() < 1e-6
