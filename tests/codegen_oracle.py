"""Helpers of the code-generation tests: compile generated C into a shared library and call
it through ctypes, import generated Python, random inputs. Nothing here computes dynamics:
the generated code is compared with the core (and the core with Pinocchio elsewhere)."""
import ctypes
import importlib.util
import os
import shutil
import subprocess
import sys
import time

import numpy as np

import urdf2dyn
from urdf2dyn import codegen

CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]


def cc():
    return shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")


def compile_c(models, directory, scalar="double", functions=codegen.FUNCTIONS, opt="-O0"):
    """Generate C for each (prefix, model), compile them all into one shared library
    (one compiler run), and return the ctypes handle."""
    sources = []
    for prefix, model in models:
        files = codegen.generate(model, "c", functions=functions, scalar=scalar, name=prefix)
        codegen.write(files, directory)
        sources += [os.path.join(directory, f) for f in files if f.endswith(".c")]
    # one object per robot, as many compilers at once as there are cores, then one link
    jobs, objects = [], []
    for src in sources:
        obj = src[:-2] + ".o"
        objects.append(obj)
        cmd = [cc(), *CFLAGS, opt, "-fPIC", "-c", "-o", obj, src]
        while len([j for j in jobs if j[1].poll() is None]) >= (os.cpu_count() or 1):
            time.sleep(0.05)
        jobs.append((cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True)))
    for cmd, job in jobs:
        _, err = job.communicate()
        assert job.returncode == 0, f"{' '.join(cmd)} failed:\n{err[:4000]}"
    lib = os.path.join(directory, f"libgen_{scalar}.so")
    run = subprocess.run([cc(), "-shared", "-o", lib, *objects, "-lm"], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr[:4000]
    return ctypes.CDLL(lib)


class CRobot:
    """The generated C functions of one robot, called sample by sample."""

    def __init__(self, lib, prefix, model, scalar="double"):
        self.lib, self.p, self.model = lib, prefix, model
        self.dtype = np.float64 if scalar == "double" else np.float32
        self.nl = len(model.link_names)

    def _ptr(self, x):
        return np.ascontiguousarray(x, dtype=self.dtype).ctypes.data_as(ctypes.c_void_p)

    def _call(self, name, *args):
        keep = [np.ascontiguousarray(a, dtype=self.dtype) if a is not None else None
                for a in args]
        ptrs = [a.ctypes.data_as(ctypes.c_void_p) if a is not None else None for a in keep]
        getattr(self.lib, f"{self.p}_{name}")(*ptrs)
        return keep

    def rnea(self, q, v, a, g, f_ext=None):
        out = np.zeros((len(q), self.model.nv), self.dtype)
        for k in range(len(q)):
            f = None if f_ext is None else f_ext[k]
            res = self._call("rnea", q[k], v[k], a[k], g, f, out[k])
            out[k] = res[-1]
        return out

    def aba(self, q, v, tau, g, f_ext=None):
        out = np.zeros((len(q), self.model.nv), self.dtype)
        for k in range(len(q)):
            f = None if f_ext is None else f_ext[k]
            out[k] = self._call("aba", q[k], v[k], tau[k], g, f, out[k])[-1]
        return out

    def crba(self, q):
        nv = self.model.nv
        out = np.zeros((len(q), nv, nv), self.dtype)
        for k in range(len(q)):
            out[k] = self._call("crba", q[k], out[k])[-1]
        return out

    def fk(self, q):
        pos = np.zeros((len(q), self.nl, 3), self.dtype)
        rot = np.zeros((len(q), self.nl, 3, 3), self.dtype)
        for k in range(len(q)):
            res = self._call("fk", q[k], pos[k], rot[k])
            pos[k], rot[k] = res[-2], res[-1]
        return pos, rot


def import_python(model, directory, name, scalar="double"):
    files = codegen.generate(model, "python", scalar=scalar, name=name)
    codegen.write(files, directory)
    (fname,) = files
    spec = importlib.util.spec_from_file_location(name, os.path.join(directory, fname))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def random_inputs(model, n, seed):
    """q (random, limits respected), v, a, tau, gravity and per-link wrenches."""
    rng = np.random.default_rng(seed)
    q = model.random_configuration(n, seed=seed)
    v = rng.normal(size=(n, model.nv))
    a = rng.normal(size=(n, model.nv))
    tau = rng.normal(size=(n, model.nv)) * 10
    g = np.array([0.3, -1.2, -9.81])
    f = np.zeros((n, len(model.link_names), 6))
    links = rng.choice(len(model.link_names), size=min(3, len(model.link_names)), replace=False)
    f[:, links] = rng.normal(size=(n, len(links), 6)) * 5
    return q, v, a, tau, g, f


def fext_dict(model, f):
    return {name: f[:, l] for l, name in enumerate(model.link_names) if np.any(f[:, l])}


def rel_err(x, ref):
    """max |x - ref| / max(1, max |ref|) per sample, then the worst sample."""
    x, ref = np.asarray(x, float), np.asarray(ref, float)
    axes = tuple(range(1, ref.ndim))
    scale = np.maximum(1.0, np.abs(ref).max(axis=axes))
    return float((np.abs(x - ref).max(axis=axes) / scale).max())


def core_results(model, q, v, a, tau, g, f):
    model.gravity = g
    fd = fext_dict(model, f)
    return {"rnea": model.inverse_dynamics(q, v, a, f_ext=fd),
            "rnea0": model.inverse_dynamics(q, v, a),
            "crba": model.mass_matrix(q),
            "aba": model.forward_dynamics(q, v, tau, f_ext=fd),
            "fk": model.forward_kinematics(q)}


# ---- the robots every generated language is checked on -----------------------------------

def random_tree_config(seed):
    """(floating_base, floating_root, planar) for random tree number seed: every joint type
    (urdfgen: revolute, continuous, prismatic, fixed mid-chain), planar joints in a third of
    them, a floating joint inside the URDF in a quarter, a floating base in a fifth of the
    others (a floating base above the URDF's floating joint is refused)."""
    return seed % 5 == 2 and seed % 4 != 0, seed % 4 == 0, seed % 3 == 1


def random_models(n):
    from urdfgen import random_urdf
    out = []
    for seed in range(n):
        fb, froot, planar = random_tree_config(seed)
        xml = random_urdf(seed, floating_root=froot, planar=planar)
        out.append((f"tree{seed}", urdf2dyn.load(xml, floating_base=fb)))
    return out


def bundled_models(with_erd=True):
    """(prefix, model) for the bundled robots, the 36-DoF human (prismatic and floating
    roots) and, when example-robot-data is installed, talos and romeo."""
    out = [("robot2r", urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))),
           ("arm7", urdf2dyn.load(urdf2dyn.data_path("arm7.urdf"))),
           ("human", urdf2dyn.humod_subject("A")),
           ("human_fb", urdf2dyn.human_model(1.61, 57.3, "female", root="floating"))]
    if with_erd:
        try:
            import pin_oracle
        except ImportError:
            return out
        for key in ("talos", "romeo"):
            path = pin_oracle.robot_path(key)
            if path:
                out.append((key, urdf2dyn.load(path, floating_base=True)))
    return out


def reference(model, q, v, a, tau, g, f):
    """The core's answers. M comes from the core's RNEA (M e_j with v = 0, g = 0), an
    oracle independent of the core's CRBA; ABA is None where the core finds M singular."""
    model.gravity = g
    fd = fext_dict(model, f)
    ref = {"rnea": model.inverse_dynamics(q, v, a, f_ext=fd),
           "rnea0": model.inverse_dynamics(q, v, a), "fk": model.forward_kinematics(q)}
    model.gravity = (0.0, 0.0, 0.0)
    n, nv = q.shape[0], model.nv
    eye = np.broadcast_to(np.eye(nv), (n, nv, nv)).reshape(n * nv, nv)
    cols = model.inverse_dynamics(np.repeat(q, nv, axis=0), np.zeros_like(eye), eye)
    ref["crba"] = cols.reshape(n, nv, nv).transpose(0, 2, 1)
    model.gravity = g
    try:
        ref["aba"] = model.forward_dynamics(q, v, tau, f_ext=fd)
    except ValueError:
        ref["aba"] = None
    return ref


def compare(model, impl, seed, tol, n=4, inputs=None):
    """Run impl's rnea, crba, aba and fk (generated code: C through ctypes, a Python module,
    Octave) and return the relative errors against the core. ABA is judged by its backward
    error, the core's RNEA fed with the generated accelerations giving tau back (forward
    errors grow with the mass matrix's condition number, 1e4 and more for the human, in
    any implementation), normwise: |RNEA(qdd) - tau| / (|tau| + |M| |qdd|); its forward
    error is returned too, as 'aba (qdd)', and held to max(tol, 1e-8), or where M is ill
    conditioned to the perturbation bound 4 cond(M) x the backward error (float, floating
    human: cond(M) ~ 1e8). inputs: (q, v, a, tau, g, f) instead of random_inputs(model, n,
    seed)."""
    q, v, a, tau, g, f = inputs if inputs is not None else random_inputs(model, n, seed)
    ref = reference(model, q, v, a, tau, g, f)
    errs = {"rnea": rel_err(impl.rnea(q, v, a, g, f), ref["rnea"]),
            "rnea (no f_ext)": rel_err(impl.rnea(q, v, a, g), ref["rnea0"]),
            "crba": rel_err(impl.crba(q), ref["crba"])}
    pos, rot = impl.fk(q)
    errs["fk pos"] = rel_err(pos, ref["fk"][0])
    errs["fk rot"] = rel_err(rot, ref["fk"][1])
    if ref["aba"] is not None:
        qdd = np.asarray(impl.aba(q, v, tau, g, f), dtype=float)
        model.gravity = g
        back = model.inverse_dynamics(q, v, qdd, f_ext=fext_dict(model, f))
        size = np.abs(tau).max(1) + np.abs(ref["crba"]).max((1, 2)) * np.abs(qdd).max(1)
        errs["aba"] = float((np.abs(back - tau).max(1) / size).max())
        errs["aba (qdd)"] = rel_err(qdd, ref["aba"])
        kappa = max(np.linalg.cond(M) for M in ref["crba"])
    limit = {"aba (qdd)": max(tol, 1e-8, 4 * kappa * errs["aba"]) if "aba" in errs else tol}
    bad = {k: e for k, e in errs.items() if not e <= limit.get(k, tol)}
    assert not bad, f"{model.name}: relative errors above {tol}: {bad}"
    return errs


# ---- MATLAB / Octave ---------------------------------------------------------------------

def octave():
    return shutil.which("octave-cli")


def _write(path, x):
    np.savetxt(path, np.atleast_2d(x), fmt="%.17g", delimiter=",")


def run_octave(cases, directory, n, timeout=600, inputs=None):
    """Generate MATLAB code for every (prefix, model, seed), run all of it in one octave-cli
    session on random_inputs(model, n, seed) (or inputs[prefix], n samples), and return
    {prefix: OctaveResults}."""
    lines = ["1;"]
    inputs = inputs or {}
    given = lambda prefix, model, seed: (inputs[prefix] if prefix in inputs    # noqa: E731
                                         else random_inputs(model, n, seed))
    for prefix, model, seed in cases:
        codegen.write(codegen.generate(model, "matlab", name=prefix), directory)
        q, v, a, tau, g, f = given(prefix, model, seed)
        nl = len(model.link_names)
        for key, x in dict(q=q, v=v, a=a, tau=tau, g=g, f=f.reshape(n, nl * 6)).items():
            _write(os.path.join(directory, f"{prefix}_{key}.csv"), x)
        r = lambda key: f"dlmread('{prefix}_{key}.csv')"
        w = lambda key, x: f"dlmwrite('{prefix}_out_{key}.csv', {x}, 'precision', '%.17g');"
        lines += [
            f"q = {r('q')}; v = {r('v')}; a = {r('a')}; tau = {r('tau')}; g = {r('g')};",
            f"f = permute(reshape({r('f')}, {n}, 6, {nl}), [1 3 2]);",
            w("rnea", f"{prefix}_rnea(q, v, a, g, f)"),
            w("rnea0", f"{prefix}_rnea(q, v, a, g)"),
            w("aba", f"{prefix}_aba(q, v, tau, g, f)"),
            f"M = {prefix}_crba(q);", w("crba", f"reshape(M, {n}, [])"),
            f"[pos, rot] = {prefix}_fk(q);", w("pos", f"reshape(pos, {n}, [])"),
            w("rot", f"reshape(rot, {n}, [])"),
        ]
    script = os.path.join(directory, "run_all.m")
    with open(script, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    run = subprocess.run([octave(), "--no-gui", "--quiet", "--no-init-file", "run_all.m"],
                         cwd=directory, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, f"octave-cli failed:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    out = {}
    for prefix, model, seed in cases:
        load = lambda key: np.loadtxt(os.path.join(directory, f"{prefix}_out_{key}.csv"),
                                      delimiter=",", ndmin=2)
        nv, nl = model.nv, len(model.link_names)
        out[prefix] = OctaveResults(
            given(prefix, model, seed), load("rnea"), load("rnea0"), load("aba"),
            load("crba").reshape(n, nv, nv, order="F"),
            load("pos").reshape(n, nl, 3, order="F"),
            load("rot").reshape(n, nl, 3, 3, order="F"))
    return out


class OctaveResults:
    """What Octave computed for one robot, answered to compare() for the same inputs."""

    def __init__(self, inputs, rnea, rnea0, aba, crba, pos, rot):
        self.inputs = inputs
        self._rnea, self._rnea0, self._aba, self._crba = rnea, rnea0, aba, crba
        self._fk = (pos, rot)

    def _same(self, q):
        assert np.array_equal(q, self.inputs[0]), "compare() must use the inputs Octave ran"

    def rnea(self, q, v, a, g, f=None):
        self._same(q)
        return self._rnea if f is not None else self._rnea0

    def aba(self, q, v, tau, g, f=None):
        self._same(q)
        return self._aba

    def crba(self, q):
        self._same(q)
        return self._crba

    def fk(self, q):
        self._same(q)
        return self._fk
