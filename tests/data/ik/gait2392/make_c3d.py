"""Write subject01_walk1.c3d: opensim-models' Gait2392 walking trial as a gait lab's C3D file.

The published trial comes as OpenSim files (subject01_walk1.trc markers, 60 Hz, mm, y up;
subject01_walk1_grf.mot, 600 Hz, one force stream per foot). A lab's file holds the same in a
z-up lab frame: markers (POINT, mm) and two type-2 force plates (Fx Fy Fz Mx My Mz about the
plate's surface centre, in plate axes) whose analog channels are sampled here at the marker
frames. Written by ezc3d, the format's owner (pip install ezc3d). Deterministic:

    python make_c3d.py            # -> subject01_walk1.c3d beside this script

Plate geometry: each stream becomes one 1.2 m x 0.6 m plate centred under that stream's centres
of pressure (the published streams are per foot, so plate 1 is the right foot's, plate 2 the
left's, as if each foot stepped on its own plate). Plate axes x = lab x, y = -lab y, z = -lab z
(z into the plate, the C3D convention); the force stored is the ground's reaction.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TRC = os.path.join(HERE, "subject01_walk1.trc")
GRF = os.path.join(HERE, "subject01_walk1_grf.mot")
OUT = os.path.join(HERE, "subject01_walk1.c3d")
#: model (OpenSim, y up) -> lab (z up): a rotation of +90 degrees about x
TO_LAB = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])
#: plate axes (columns) in the lab
PLATE_AXES = np.array([[1.0, 0, 0], [0, -1.0, 0], [0, 0, -1.0]])


def read_trc(path):
    with open(path) as f:
        lines = f.read().splitlines()
    labels = [x for x in lines[3].split("\t")[2:] if x.strip()]
    rate = float(lines[2].split("\t")[0])
    rows = np.array([[float(x) for x in ln.split("\t")[:2 + 3 * len(labels)]]
                     for ln in lines[5:] if ln.strip()])
    return rate, rows[:, 1], labels, rows[:, 2:].reshape(len(rows), len(labels), 3)


def read_mot(path):
    with open(path) as f:
        lines = f.read().splitlines()
    end = next(k for k, ln in enumerate(lines) if ln.strip().lower() == "endheader")
    names = lines[end + 1].split()
    data = np.array([[float(x) for x in ln.split()] for ln in lines[end + 2:] if ln.strip()])
    return names, data


def main(out=OUT):
    import ezc3d
    rate, t_trc, labels, xyz = read_trc(TRC)
    n = len(t_trc)
    names, grf = read_mot(GRF)
    t = np.arange(n) / rate                          # the lab's frame clock
    col = {name: grf[:, k] for k, name in enumerate(names)}

    def stream(prefix, what):
        return np.column_stack([np.interp(t, col["time"], col[f"{prefix}{what}{a}"])
                                for a in "xyz"])
    c = ezc3d.c3d()
    c["parameters"]["POINT"]["RATE"]["value"] = [rate]
    c["parameters"]["POINT"]["LABELS"]["value"] = labels
    c["parameters"]["POINT"]["UNITS"]["value"] = ["mm"]
    pts = np.ones((4, len(labels), n))
    pts[:3] = np.transpose(xyz @ TO_LAB.T, (2, 1, 0))
    c["data"]["points"] = pts

    channels, corners, analog_labels = [], [], []
    for k, prefix in enumerate(("", "1_")):
        f = stream(prefix, "ground_force_v") @ TO_LAB.T
        p = stream(prefix, "ground_force_p") @ TO_LAB.T
        tq = stream(prefix, "ground_torque_") @ TO_LAB.T
        loaded = np.linalg.norm(f, axis=1) > 1.0
        centre = np.median(p[loaded], axis=0)
        centre[2] = p[loaded, 2].mean()              # the floor
        half = np.array([0.6, 0.3, 0.0])
        # C3D corner order: c1 - c2 along plate x, c1 - c4 along plate y
        box = centre + np.array([[1, -1, 0], [-1, -1, 0], [-1, 1, 0], [1, 1, 0]]) * half
        corners.append(box.T * 1e3)                  # mm
        m = np.cross(np.where(loaded[:, None], p, centre) - centre, f) + tq
        channels += [f @ PLATE_AXES, m @ PLATE_AXES]
        analog_labels += [f"{a}{k + 1}" for a in ("Fx", "Fy", "Fz", "Mx", "My", "Mz")]
    analogs = np.concatenate([np.column_stack([ch[:, 0], ch[:, 1], ch[:, 2]])
                              for ch in channels], axis=1)      # (n, 12)
    c["parameters"]["ANALOG"]["RATE"]["value"] = [rate]
    c["parameters"]["ANALOG"]["LABELS"]["value"] = analog_labels
    c["parameters"]["ANALOG"]["UNITS"]["value"] = ["N", "N", "N", "Nm", "Nm", "Nm"] * 2
    c["data"]["analogs"] = analogs.T[None]
    fp = c["parameters"]["FORCE_PLATFORM"]
    fp["USED"]["value"] = [2]
    fp["TYPE"]["value"] = [2, 2]
    fp["CORNERS"]["value"] = np.stack(corners, axis=2)          # (3, 4, plates)
    fp["ORIGIN"]["value"] = np.zeros((3, 2))
    fp["CHANNEL"]["value"] = np.array([[1, 7], [2, 8], [3, 9], [4, 10], [5, 11], [6, 12]])
    c.write(out)
    return out


if __name__ == "__main__":
    print(main())
