"""Every MJCF file of a folder against MuJoCo: the sweep behind docs/mjcf.rst's Menagerie figure.

    python benchmarks/mjcf_sweep.py FOLDER [--n 20] [--tol 1e-9] [--list]

FOLDER is, for example, a checkout of MuJoCo Menagerie (google-deepmind/mujoco_menagerie)
with its meshes. Each ``*.xml`` under it whose root is ``<mujoco>`` and that MuJoCo itself
compiles is loaded by urdf2dyn and compared with MuJoCo as tests/test_mjcf.py does
(tests/mjcf_oracle.py: mj_rne with flg_acc=1 after the kinematics plus the armature's term,
mj_fullM, a free joint's armature zeroed;
n random states with unit quaternions; each error relative to the state's largest torque or
mass-matrix entry). A file MuJoCo refuses is skipped (counted), and one that only includes
others' parts (no body moves) counts as "no degrees of freedom". Prints one line per file with
--list, then the counts: within tolerance, outside it, refused by urdf2dyn (with the message),
and the largest error seen. Exit status 1 if any file is outside the tolerance or refused.
"""
import argparse
import os
import sys
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))


def mjcf_files(folder):
    for path in sorted(Path(folder).rglob("*.xml")):
        try:
            head = path.read_bytes()[:4096].decode("utf-8", "replace")
        except OSError:
            continue
        if "<mujoco" in head:
            yield path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--n", type=int, default=20, help="random states per model (default 20)")
    ap.add_argument("--tol", type=float, default=1e-9, help="relative tolerance (default 1e-9)")
    ap.add_argument("--list", action="store_true", help="print every file's result")
    a = ap.parse_args(argv)
    import mjcf_oracle as oracle
    import urdf2dyn

    ok, bad, refused, skipped, static, worst = [], [], [], 0, 0, 0.0
    for path in mjcf_files(a.folder):
        rel = os.path.relpath(path, a.folder)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:                            # as it is (meshes there), then as the oracle has it
                oracle.mujoco.MjModel.from_xml_path(str(path))
                m = oracle.mujoco_model(str(path))
            except Exception:               # MuJoCo refuses it (or it is a fragment)
                skipped += 1
                continue
            try:
                model = urdf2dyn.load(str(path))
            except (urdf2dyn.URDFError, ValueError, OSError) as e:
                refused.append((rel, str(e).splitlines()[0]))
                if a.list:
                    print(f"{rel}: refused: {str(e).splitlines()[0]}")
                continue
        if m.nv == 0 or oracle.moving_mass(m) == 0:
            static += 1
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            e_tau, e_M = oracle.compare(model, m, n=a.n)
        mass_err = abs(model.total_mass - oracle.moving_mass(m)) / oracle.moving_mass(m)
        err = max(e_tau, e_M, mass_err)
        worst = max(worst, err)
        (ok if err <= a.tol else bad).append((rel, err))
        if a.list:
            print(f"{rel}: nv {model.nv}, error {err:.1e}")
    print(f"\n{len(ok)} within {a.tol:g} of MuJoCo (largest error {worst:.1e}); "
          f"{len(bad)} outside it; {len(refused)} refused by urdf2dyn; {static} without moving "
          f"bodies; {skipped} MuJoCo does not compile (mujoco {oracle.mujoco.__version__})")
    for rel, err in bad:
        print(f"  outside: {rel}: {err:.1e}")
    for rel, msg in refused:
        print(f"  refused: {rel}: {msg}")
    return 1 if bad or refused else 0


if __name__ == "__main__":
    sys.exit(main())
