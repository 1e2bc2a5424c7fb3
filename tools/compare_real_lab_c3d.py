"""A real lab's C3D trial end to end against OpenSim 4.6 (issue 27's done-when), on the Vicon
walk of mitkof6/opensim_automated_pipeline (``simple/``: a child with cerebral palsy, two
plates, Apache-2.0; github.com/mitkof6/opensim_automated_pipeline), the whole walk.

    python tools/compare_real_lab_c3d.py CHECKOUT [--loads plates|file] [--rate analog|marker]

OpenSim's side (tests/real_lab_oracle.py, which the suite's trimmed copy runs too): its
ScaleTool on the pipeline's scale setup, ``task.c3d`` as ezc3d reads it (markers; the plates'
wrenches at the analog rate, plate 1 left, plate 2 right, turned x:-90 as the pipeline's
script does), its IK tool on the pipeline's IK setup (accuracy 1e-8, 2.3-4.0 s: both plates)
and its ID tool on the pipeline's ID setup (6 Hz, 2.5-3.8 s). urdf2dyn's: ``urdf2dyn torques
model_scaled.osim task.c3d --rotate x:-90 --ik-setup <the IK setup OpenSim printed>
--processing opensim --filter 6 --time-range 2.5 3.8`` with the C3D's own plates (--loads
plates, at --rate) or OpenSim's loads file (--loads file).

Prints each coordinate's largest difference in % of OpenSim's peak; exits 1 above 1 %.
"""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "tests"))

IK_RANGE, ID_RANGE = (2.3, 4.0), (2.5, 3.8)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkout", help="an opensim_automated_pipeline checkout")
    p.add_argument("--loads", choices=("plates", "file"), default="plates")
    p.add_argument("--rate", choices=("analog", "marker"), default="analog")
    args = p.parse_args(argv)
    import opensim as osim

    import opensim_tables
    import real_lab_oracle
    from urdf2dyn.cli import main as urdf2dyn
    src = os.path.join(os.path.abspath(args.checkout), "simple")
    out = tempfile.mkdtemp(prefix="real_lab_")
    model = real_lab_oracle.run(osim, src, out, IK_RANGE, ID_RANGE)
    ours = os.path.join(out, "ours.sto")
    argv = [model, os.path.join(src, "experimental_data", "task.c3d"), "--rotate", "x:-90",
            "--ik-setup", os.path.join(out, "setup_ik.xml"), "--processing", "opensim",
            "--filter", "6", "--time-range", *map(str, ID_RANGE), "-o", ours]
    argv += (["--external-loads", os.path.join(out, "setup_grf.xml")] if args.loads == "file"
             else ["--rate", args.rate])
    assert urdf2dyn(["torques", *argv]) == 0
    names, t, theirs = opensim_tables.read_table(osim, os.path.join(out, "id.sto"))
    labels, t_ours, tau = opensim_tables.read_table(osim, ours)
    tau = tau[:, [labels.index(n) for n in names]]
    rows = real_lab_oracle.differences(t_ours, tau, t, theirs, names)
    print(f"\n{'coordinate':28s} {'largest difference':>20s}  peak      at t")
    for frac, name, peak, when in rows:
        print(f"{name:28s} {100 * frac:12.5f} % of peak  {peak:8.3g}  {when:6.3f} s")
    print(f"{len(rows)} coordinates, {len(t)} rows: worst {100 * rows[0][0]:.5f} % of peak")
    return 0 if rows[0][0] < 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
