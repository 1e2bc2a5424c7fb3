"""OpenSim 4.6 as the oracle of a model's dynamics (tests/test_osim.py,
tests/test_osim_published.py)."""
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
