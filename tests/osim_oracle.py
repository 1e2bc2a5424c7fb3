"""OpenSim 4.6 as the oracle of a model's dynamics (tests/test_osim.py,
tests/test_osim_published.py): its InverseDynamicsSolver on any state (Oracle), its
InverseDynamicsTool on a coordinates file (write_coordinates, run_id_tool), and its
Model.scale (opensim_scaled)."""
import numpy as np


class Oracle:
    """One OpenSim model, forces removed (muscles are not inverse dynamics' business, as
    the ID tool excludes them) and with them the controllers that drive them, coordinates
    unlocked and unclamped so any state can be set."""

    def __init__(self, osim, path, q_names, gravity=True):
        self.osim = osim
        self.om = om = osim.Model(path)
        om.updForceSet().clearAndDestroy()
        om.updControllerSet().clearAndDestroy()
        if not gravity:
            om.setGravity(osim.Vec3(0, 0, 0))
        cs = om.updCoordinateSet()
        self.locked = {cs.get(i).getName(): cs.get(i).get_locked() for i in range(cs.getSize())}
        for i in range(cs.getSize()):
            cs.get(i).set_locked(False)
            cs.get(i).set_clamped(False)
        self.s = om.initSystem()
        names = om.getCoordinateNamesInMultibodyTreeOrder()
        self.order = [names.getElt(i) for i in range(names.size())]
        assert sorted(self.order) == sorted(q_names)
        self.q_names = q_names
        self.perm = [self.order.index(n) for n in q_names]
        self.solver = osim.InverseDynamicsSolver(om)

    def set_state(self, q, v=None):
        for i, n in enumerate(self.q_names):
            c = self.om.getCoordinateSet().get(n)
            c.setValue(self.s, float(q[i]), False)
            c.setSpeedValue(self.s, 0.0 if v is None else float(v[i]))

    def inverse_dynamics(self, q, v, a):
        self.set_state(q, v)
        self.om.realizeDynamics(self.s)
        udot = self.osim.Vector([float(a[self.q_names.index(n)]) for n in self.order])
        return self.solver.solve(self.s, udot).to_numpy()[self.perm]

    def mass_matrix(self, q):
        self.set_state(q)
        self.om.realizePosition(self.s)
        M = self.osim.Matrix()
        self.om.getMatterSubsystem().calcM(self.s, M)
        A = np.array([[M.get(i, j) for j in range(M.ncol())] for i in range(M.nrow())])
        return A[np.ix_(self.perm, self.perm)]


def write_coordinates(path, names, t, q):
    """An OpenSim .mot of the coordinates q (N, k, radians) named names at the times t (N),
    as OpenSim's tools read it; each number written as repr, so read back exactly."""
    rows = "".join("\t".join(repr(float(x)) for x in (tk, *qk)) + "\n"
                   for tk, qk in zip(t, np.atleast_2d(q)))
    path.write_text(f"q\nversion=1\nnRows={len(t)}\nnColumns={len(names) + 1}\ninDegrees=no\n"
                    "endheader\n" + "\t".join(["time", *names]) + "\n" + rows)


def write_held_coordinates(path, names, q):
    """The coordinates q (k) held still for 1 s, 11 rows at 0.1 s: a motion at rest, whose
    inverse dynamics is gravity's and the forces' alone."""
    t = np.arange(11) / 10
    write_coordinates(path, names, t, np.tile(np.asarray(q, dtype=float), (len(t), 1)))


def run_id_tool(osim, model_path, coordinates, folder, excluded):
    """OpenSim 4.6's InverseDynamicsTool set up through its API on model_path and the
    coordinates file over 0 .. 1 s, the force or group `excluded` in <forces_to_exclude>:
    the path of the generalized forces it writes (folder / "id.sto")."""
    tool = osim.InverseDynamicsTool()
    tool.setModelFileName(str(model_path))
    tool.setCoordinatesFileName(str(coordinates))
    tool.setStartTime(0)
    tool.setEndTime(1)
    tool.setResultsDir(str(folder))
    tool.setOutputGenForceFileName("id.sto")
    names = osim.ArrayStr()
    names.append(excluded)
    tool.setExcludedForces(names)
    assert tool.run()
    return folder / "id.sto"


def opensim_scaled(osim, path, factors, out):
    """OpenSim's Model.scale of the model at path by {body: (3,) factors}, masses kept,
    written to out; the scaled Model (keep it while its components are used)."""
    om = osim.Model(str(path))
    state = om.initSystem()
    scale_set = osim.ScaleSet()
    for body, f in factors.items():
        sc = osim.Scale()
        sc.setSegmentName(body)
        sc.setScaleFactors(osim.Vec3(*map(float, f)))
        sc.setApply(True)
        scale_set.cloneAndAppend(sc)
    om.scale(state, scale_set, False, -1.0)
    om.printToXML(str(out))
    return om
