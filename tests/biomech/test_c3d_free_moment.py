"""Vicon Workstation's shd01 (tests/data/c3d/README.md): where its free moment's level of
4-5 N·m comes from.

Its plate 1 (type 4, ORIGIN 0 0 0: the transducer at the surface centre) holds a moment Mz
channel whose mean over the trial is -4.58 N·m about the plate's centre, before any transfer:
the level is the file's. Moving the moment to the centre of pressure (the C3D User Guide's
Tz = Mz - (CoPx Fy - CoPy Fx)) changes the mean by about 0.5 N·m only. Whether the level is an
unloaded offset cannot be told from the file: the plate carries the subject in every sample
(at least 497 N) and FORCE_PLATFORM:ZERO is (0, 0), so there is no unloaded frame to measure
one in, and the vendor's own processed forces are not in the file (ezc3d's force-platform
module, with the second plate's impossible channels removed, gives the same level about the
centre once its double calibration is undone: docs/c3d.rst). Oracle: the c3d package's
channels and the Guide's formulas applied here by hand (cross-talk left out, so to 0.5 N·m).
"""
import os
import warnings

import numpy as np
import pytest

pytest.importorskip("ezc3d")
c3dpkg = pytest.importorskip("c3d")

from urdf2dyn.biomech.formats import c3d as C  # noqa: E402

SHD01 = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d",
                     "ViconWorkstation_shd01.c3d")


def plate_channels():
    """Plate 1's Fx Fy Fz (N) Mx My Mz (N·m) per analog sample, as the c3d package scales
    them (the file's scales hold CAL_MATRIX's diagonal: forces and N·mm), and ZERO."""
    with open(SHD01, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = c3dpkg.Reader(f)
        analog = np.concatenate([a for _, _, a in r.read_frames()], axis=1)
        zero = [int(x) for x in r.get("FORCE_PLATFORM:ZERO").int16_array]
        assert [int(x) for x in r.get("FORCE_PLATFORM:ORIGIN").float_array[0]] == [0, 0, 0]
    return analog[:3], analog[3:6] * 1e-3, zero


def test_the_free_moments_level_is_the_files_mz_channel():
    (fx, fy, fz), (mx, my, mz), zero = plate_channels()
    assert zero == [0, 0] and np.abs(fz).min() > 490.0       # no unloaded sample anywhere
    np.testing.assert_allclose(mz.mean(), -4.58, atol=0.01)    # the file's, about the centre
    transfer = (-my / fz) * fy - (mx / fz) * fx                 # CoPx Fy - CoPy Fx
    assert abs(transfer.mean()) < 0.6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plate = C.read_c3d(SHD01, rate="analog").plates[0]
    assert plate.contact.all()
    # the plate's z points into it, so the lab's upward moment is -(Mz - transfer)
    np.testing.assert_allclose(plate.moment[:, 2], -(mz - transfer), rtol=0, atol=0.5)
    assert 4.5 < plate.moment[:, 2].mean() < 5.5
