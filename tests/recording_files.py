"""Recordings in other tools' layouts, for the tests of reading real files: OpenSim .mot files
written by OpenSim itself (opensim.Storage), HuMoD .mat files written field by field with
scipy.io.savemat, CSV files written by pandas. The data are the bundled running trial."""
import math
import os

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import grf as G
from urdf2dyn.biomech import formats, trajectory

HUMAN = urdf2dyn.data_path("humod_subject_a.urdf")
MOTION = urdf2dyn.data_path("running_a_3ms.csv")
GRF = urdf2dyn.data_path("running_a_3ms_grf.csv")


def trial():
    """(motion Trajectory, ground reactions Trajectory) of the bundled running trial."""
    return formats.read(MOTION), G.read_grf(GRF)


def write_storage(path, labels, data, in_degrees):
    """Write a .mot/.sto with OpenSim's own writer (opensim.Storage.printResult): header
    ``name / version=1 / nRows / nColumns / inDegrees / endheader``, tab-separated labels, values
    as "%16.8f". Without the opensim package (no wheel for the newest CPython), the same bytes
    by :func:`write_storage_copy` (test_storage_copy_is_byte_for_byte checks it)."""
    try:
        import opensim as osim
    except ImportError:
        return write_storage_copy(path, labels, data, in_degrees)
    osim.Logger.removeFileSink()          # no opensim.log in the working directory
    sto = osim.Storage()
    arr = osim.ArrayStr()
    for name in labels:
        arr.append(name)
    sto.setColumnLabels(arr)
    for row in np.asarray(data, dtype=float):
        v = osim.ArrayDouble()
        for x in row[1:]:
            v.append(float(x))
        sto.append(float(row[0]), v)
    path = os.fspath(path)
    folder, base = os.path.split(path)
    stem, ext = os.path.splitext(base)
    sto.setName(stem)
    sto.setInDegrees(bool(in_degrees))
    sto.printResult(sto, stem, folder, -1, ext)
    return path


def write_storage_copy(path, labels, data, in_degrees):
    """OpenSim 4.6's Storage text layout, byte for byte (observed from Storage.printResult)."""
    path = os.fspath(path)
    data = np.asarray(data, dtype=float)
    stem = os.path.splitext(os.path.basename(path))[0]
    with open(path, "w", newline="\n") as f:
        f.write(f"{stem}\nversion=1\nnRows={data.shape[0]}\nnColumns={data.shape[1]}\n"
                f"inDegrees={'yes' if in_degrees else 'no'}\nendheader\n")
        f.write("\t".join(labels) + "\n")
        for row in data:
            f.write("\t".join("%16.8f" % x for x in row) + "\n")
    return path


#: OpenSim's force-plate layout, as in its example subject01_walk1_grf.mot: two plates, the
#: first without a prefix, the second with "1_"; forces, points, then torques.
FORCE_PLATE_LABELS = (
    ["time"] + [f"ground_force_{k}{ax}" for k in "vp" for ax in "xyz"]
    + [f"1_ground_force_{k}{ax}" for k in "vp" for ax in "xyz"]
    + [f"ground_torque_{ax}" for ax in "xyz"] + [f"1_ground_torque_{ax}" for ax in "xyz"])


def write_force_plate_mot(path, reactions, first="R", second="L"):
    """The ground reactions in OpenSim's force-plate layout (inDegrees=yes, as OpenSim's examples
    have it); a CoP that is undefined (no contact) is written as 0, as plate software does."""
    cols = [reactions.time]
    f1, p1, m1 = (reactions.grf[first], np.nan_to_num(reactions.cop[first]),
                  reactions.moment[first])
    f2, p2, m2 = (reactions.grf[second], np.nan_to_num(reactions.cop[second]),
                  reactions.moment[second])
    cols += [f1, p1, f2, p2, m1, m2]
    return write_storage(path, FORCE_PLATE_LABELS, np.column_stack(cols), in_degrees=True)


def write_coordinates_mot(path, motion, model):
    """The coordinates as an OpenSim coordinate .mot in degrees (rotational coordinates only;
    the root translations stay in m), written by OpenSim."""
    q = motion.q.copy()
    q[:, trajectory.angle_columns(motion.names, model)] = np.degrees(q[:, trajectory.angle_columns(
        motion.names, model)])
    return write_storage(path, ["time"] + motion.names, np.column_stack([motion.time, q]),
                         in_degrees=True)


def to_pandas_csv(path, motion, degrees=False, model=None, index=True):
    """Write a trajectory with pandas' DataFrame.to_csv (NaN -> empty cells)."""
    pd = pytest.importorskip("pandas")
    q = motion.q.copy()
    if degrees:
        mask = trajectory.angle_columns(motion.names, model)
        q[:, mask] *= 180 / math.pi
    df = pd.DataFrame(q, columns=motion.names)
    df.insert(0, "time", motion.time)
    df.to_csv(path, index=index)
    return path
