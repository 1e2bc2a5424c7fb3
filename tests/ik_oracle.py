"""OpenSim's IK tool as the oracle of urdf2dyn's inverse kinematics (tests and bench_ik).

build_case writes, with OpenSim's own API, everything an IK run needs for a URDF model:
the model exported to .osim (urdf2dyn.biomech.opensim_model.to_opensim) with markers added
as opensim.Marker, a marker trajectory made by OpenSim's forward kinematics from known
coordinates plus noise (opensim.TRCFileAdapter writes the .trc), and a Setup_IK.xml written
by opensim.InverseKinematicsTool; run_opensim runs that setup. read_trc is a minimal .trc
reader for the tests (urdf2dyn's own .trc reader is urdf2dyn.biomech.formats.trc, issue 20
item 1).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

import urdf2dyn
from urdf2dyn.biomech.markers import Markers
from urdf2dyn.biomech.opensim_model import to_opensim
from urdf2dyn.markers import read_markers
from cli_here import working_in


def read_trc(path):
    """A .trc file as Markers (m): tab-separated, names on line 4, blanks are gaps."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    keys, values = lines[1].split("\t"), lines[2].split("\t")
    units = dict(zip(keys, values)).get("Units", "m").strip()
    names = [n.strip() for n in lines[3].split("\t")[2:] if n.strip()]
    rows = [r.split("\t") for r in lines[5:] if r.strip()]

    def num(x):
        x = x.strip()
        return float(x) if x else np.nan
    t = np.array([float(r[1]) for r in rows])
    xyz = np.array([[num(r[2 + j]) if 2 + j < len(r) else np.nan for j in range(3 * len(names))]
                    for r in rows]).reshape(len(rows), len(names), 3)
    return Markers(t, names, xyz * {"mm": 1e-3, "cm": 1e-2}.get(units, 1.0))


@dataclass
class Case:
    folder: str
    setup: str              # the OpenSim setup, model_file = the .osim
    urdf: str
    markers_csv: str        # the same markers for the URDF (name, link, x, y, z)
    q_true: np.ndarray
    locked: dict
    ranges: dict
    default_q: np.ndarray
    weights: dict
    task: tuple             # (coordinate, weight, value)


def build_case(folder, urdf, nframe=60, noise=0.002, seed=20, markers_per_link=3,
               lock=None, clamp=None, task=None, gaps=True, accuracy=1e-8, from_zero=False,
               unclamped=None):
    """Write an IK case for `urdf` into folder (see the module docstring).

    lock: (coordinate, value) locked in the .osim; clamp: (coordinate, lo, hi) a clamped
    range narrower than the motion; unclamped: (coordinate, lo, hi) the same range set but
    not clamped (OpenSim's IK leaves it); task: (coordinate, weight, value) a manual_value
    coordinate task. Coordinates move as sines about mid-range; the default pose (where
    IK starts) is the first frame's rounded to 0.1, or with from_zero the motion starts
    at q = 0, the default pose (what a URDF alone gives).
    """
    import opensim as osim
    os.makedirs(folder, exist_ok=True)
    model = urdf2dyn.load(urdf)
    om = to_opensim(model)
    # the case clamps what it tests (clamp below, clamp_urdf_limits); to_opensim clamps every
    # URDF limit, which the default pose taken from the motion may lie outside
    for c in model.clamped_ranges:
        om.updCoordinateSet().get(c).setDefaultClamped(False)
    rng = np.random.default_rng(seed)
    markers = []
    for link in model.link_names:
        if model._link_body[link] == 0:             # on the ground: no information
            continue
        for k in range(markers_per_link):
            p = [float(x) for x in np.round(rng.uniform(-0.1, 0.1, 3), 4)]
            markers.append((f"{link}_m{k}", link, p))
    for name, link, p in markers:
        om.addMarker(osim.Marker(name, om.getBodySet().get(link), osim.Vec3(*p)))

    n = model.nq
    t = np.arange(nframe) / 100.0
    lims = [j.limit[:2] if j.limit is not None else (-1.0, 1.0) for j in model.joints]
    lo, hi = np.array([a for a, _ in lims]), np.array([b for _, b in lims])
    mid, amp = (lo + hi) / 2, 0.3 * (hi - lo) / 2
    q = mid + amp * np.sin(2 * np.pi * (0.7 + 0.1 * np.arange(n)) * t[:, None] + np.arange(n))
    if from_zero:
        q -= q[0]
    names = model.q_names
    cs = om.updCoordinateSet()
    locked, ranges = {}, {}
    if clamp:
        c, a, b = clamp
        k = names.index(c)
        q[:, k] = (a + b) / 2 + 0.6 * (b - a) * np.sin(2 * np.pi * t)   # beyond both bounds
        cs.get(c).setRangeMin(a)
        cs.get(c).setRangeMax(b)
        cs.get(c).setDefaultClamped(True)
        ranges[c] = (a, b)
    if unclamped:
        c, a, b = unclamped
        q[:, names.index(c)] = (a + b) / 2 + 0.6 * (b - a) * np.sin(2 * np.pi * t + 1.0)
        cs.get(c).setRangeMin(a)
        cs.get(c).setRangeMax(b)
        cs.get(c).setDefaultClamped(False)
    default_q = np.round(q[0], 1)
    if clamp:
        k = names.index(clamp[0])
        default_q[k] = np.clip(default_q[k], *ranges[clamp[0]])
    if lock:
        c, v = lock
        q[:, names.index(c)] = v
        default_q[names.index(c)] = v
        locked[c] = v
    for k, c in enumerate(names):
        cs.get(c).setDefaultValue(float(default_q[k]))
        if c in locked:
            cs.get(c).setDefaultLocked(True)
    om.finalizeConnections()
    state = om.initSystem()
    om.printToXML(os.path.join(folder, "model.osim"))

    X = np.zeros((nframe, len(markers), 3))
    ms = om.getMarkerSet()
    for s in range(nframe):
        for k, c in enumerate(names):
            om.getCoordinateSet().get(c).setValue(state, float(q[s, k]), False)
        om.realizePosition(state)
        for k, (name, _, _) in enumerate(markers):
            X[s, k] = ms.get(name).getLocationInGround(state).to_numpy()
    X += rng.normal(0, noise, X.shape)
    if gaps:
        X[nframe // 5: nframe // 5 + 8, 1] = np.nan       # a gap in one marker
        X[nframe // 2: nframe // 2 + 2, len(markers) // 2] = np.nan
    table = osim.TimeSeriesTableVec3()
    table.setColumnLabels([m[0] for m in markers])
    for s in range(nframe):
        table.appendRow(float(t[s]), osim.RowVectorVec3([osim.Vec3(*X[s, k])
                                                         for k in range(len(markers))]))
    table.addTableMetaDataString("DataRate", "100")
    table.addTableMetaDataString("Units", "m")
    osim.TRCFileAdapter().write(table, os.path.join(folder, "markers.trc"))

    ik = osim.InverseKinematicsTool()
    ik.setName("case")
    ik.set_model_file("model.osim")
    ik.setMarkerDataFileName("markers.trc")
    ik.setStartTime(float(t[0]))
    ik.setEndTime(float(t[-1]))
    ik.setOutputMotionFileName("opensim_ik.mot")
    ik.set_report_errors(True)
    ik.set_accuracy(accuracy)
    ik.setResultsDir(".")
    weights = {}
    ts = ik.getIKTaskSet()
    for k, (name, _, _) in enumerate(markers):
        mt = osim.IKMarkerTask()
        mt.setName(name)
        weights[name] = [1.0, 2.0, 0.5][k % 3]
        mt.setWeight(weights[name])
        mt.setApply(True)
        ts.cloneAndAppend(mt)
    if task:
        c, w, v = task
        ct = osim.IKCoordinateTask()
        ct.setName(c)
        ct.setWeight(w)
        ct.setValueType(osim.IKCoordinateTask.ManualValue)
        ct.setValue(v)
        ct.setApply(True)
        ts.cloneAndAppend(ct)
    setup = os.path.join(folder, "Setup_IK.xml")
    ik.printToXML(setup)
    csv = os.path.join(folder, "markers.csv")
    with open(csv, "w", encoding="utf-8") as f:
        f.write("name,link,x,y,z\n")
        for name, link, p in markers:
            f.write(f"{name},{link},{p[0]!r},{p[1]!r},{p[2]!r}\n")
    return Case(folder, setup, os.fspath(urdf), csv, q, locked, ranges, default_q, weights,
                task)


def clamp_urdf_limits(case):
    """Clamp, in the case's .osim, every coordinate to its URDF joint limit (what urdf2dyn's
    IK of the URDF keeps, model.clamped_ranges), its default value brought inside (OpenSim
    refuses a clamped coordinate whose default lies outside its range, as q = 0 does for
    arm7's joint4); returns the clamped ranges."""
    import opensim as osim
    limits = urdf2dyn.load(case.urdf).clamped_ranges
    path = os.path.join(case.folder, "model.osim")
    model = osim.Model(path)
    coordinates = model.updCoordinateSet()
    for name, (lower, upper) in limits.items():
        c = coordinates.get(name)
        c.setDefaultValue(float(np.clip(c.getDefaultValue(), lower, upper)))
        c.setDefaultClamped(True)
    model.finalizeConnections()
    model.initSystem()
    model.printToXML(path)
    return dict(limits)


def run_opensim(setup):
    """Run OpenSim's IK tool on a setup file (in its folder); returns seconds taken."""
    import opensim as osim
    osim.Logger.setLevelString("error")
    with working_in(os.path.dirname(os.path.abspath(setup))):
        t0 = time.perf_counter()
        osim.InverseKinematicsTool(os.path.basename(setup)).run()
        return time.perf_counter() - t0


def pull_from_file(owner, folder, coordinate, rows, in_degrees="no", weight=1e4):
    """Make OpenSim's IK tool or its ScaleTool's marker placer (``owner``: both have an IK
    task set and a coordinate_file) pull ``coordinate`` towards a coordinate file: write
    folder/coords.sto (an OpenSim storage whose header says inDegrees=in_degrees, one row a
    (time, value) of ``rows``, each written as Python prints it), append an applied
    IKCoordinateTask of this weight whose value type is FromFile, and name the file as the
    owner's coordinate_file. Returns the file's path."""
    import opensim as osim
    path = os.path.join(folder, "coords.sto")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"c\nversion=1\nnRows={len(rows)}\nnColumns=2\ninDegrees={in_degrees}\n"
                f"endheader\ntime\t{coordinate}\n" + "".join(f"{t}\t{x}\n" for t, x in rows))
    task = osim.IKCoordinateTask()
    task.setName(coordinate)
    task.setWeight(weight)
    task.setValueType(osim.IKCoordinateTask.FromFile)
    task.setApply(True)
    owner.getIKTaskSet().cloneAndAppend(task)
    owner.setCoordinateFileName(os.path.basename(path))
    return path


def read_errors(path):
    """OpenSim's _ik_marker_errors.sto: (time, total squared, RMS, max) per row."""
    with open(path, encoding="utf-8") as f:
        body = f.read().split("endheader", 1)[1].strip().split("\n")
    return np.array([[float(x) for x in line.split()] for line in body[1:] if line.strip()])


def urdf_model(case):
    """The URDF model with what the .osim says about coordinates (the .osim loader's job)."""
    m = urdf2dyn.load(case.urdf)
    m.markers = read_markers(case.markers_csv, m)
    m.locked_coordinates = dict(case.locked)
    m.clamped_ranges = dict(case.ranges)
    m.default_q = np.array(case.default_q, dtype=float)
    return m
