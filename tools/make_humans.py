#!/usr/bin/env python3
"""Write the bundled URDFs of the two HuMoD subjects (urdf2dyn/data/humod_subject_{a,b}.urdf).

HuMoD (Wojtusch & von Stryk 2015) has two subjects: A, female, 57.3 kg, 1.61 m, and B, male,
84.8 kg, 1.79 m. Each file is ``urdf2dyn.human(height, mass, sex, root="prismatic")``: the 36-DoF
model with HuMoD's joint names, de Leva (1996) Table 4 segment parameters and lengths scaled from
the height (see urdf2dyn/biomech/human.py). Rerun after changing human.py; tests/biomech/test_human.py checks
that the bundled files equal what the generator writes.

Usage: ``python tools/make_humans.py [--outdir DIR]``
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from urdf2dyn.biomech.human import HUMOD_SUBJECTS, human  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--outdir", default=str(ROOT / "urdf2dyn" / "data"))
    args = ap.parse_args(argv)
    out = pathlib.Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    for subject, (sex, mass, height) in HUMOD_SUBJECTS.items():
        path = out / f"humod_subject_{subject.lower()}.urdf"
        path.write_text(human(height, mass, sex, name=f"humod_subject_{subject.lower()}"),
                        encoding="utf-8")
        print(f"wrote {path} ({sex}, {mass} kg, {height} m)")


if __name__ == "__main__":
    main()
