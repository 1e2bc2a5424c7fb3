"""Write the fuzzer's seed corpus, tests/c/corpus/ (kept small: < 2 MB, no file > 64 kB).

    python tests/c/make_corpus.py [--erd DIR]

Seeds: the bundled robots, a few small example-robot-data robots (when installed), random
trees from tests/urdfgen.py, and hand-written edge cases. Seeds named *.vals carry a state
after a NUL byte (the harness reads q, v, a from the bytes after the first NUL).
"""
import argparse
import glob
import os
import shutil
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests"))

ERD_ROBOTS = [  # small ones only
    "ur_description/urdf/ur5_robot.urdf",
    "panda_description/urdf/panda.urdf",
    "double_pendulum_description/urdf/double_pendulum_continuous.urdf",
    "finger_edu_description/robots/finger_edu.urdf",
    "quadruped_description/urdf/quadruped.urdf",
    "hector_description/robots/quadrotor_base.urdf",
    "solo_description/robots/solo12.urdf",
    "human_description/robots/human.urdf",
]

INERTIAL = ('<inertial><origin xyz="0 0 0.1" rpy="0.1 0.2 0.3"/><mass value="1"/>'
            '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>')


def robot(body, decl=True):
    head = '<?xml version="1.0"?>\n' if decl else ""
    return f'{head}<robot name="r">{body}</robot>\n'


def link(name, inertial=INERTIAL):
    return f'<link name="{name}">{inertial}</link>'


def joint(name, parent, child, kind="revolute", extra='<axis xyz="0 0 1"/>'):
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/>{extra}</joint>')


EDGE = {
    "single_link": robot(link("only")),
    "massless_leaf": robot(link("a") + '<link name="b"/>' + joint("j", "a", "b")),
    "planar": robot(link("a") + link("b") + joint("j", "a", "b", "planar")),
    "planar_tilted": robot(link("a") + link("b") + joint("j", "a", "b", "planar",
                                                          '<axis xyz="0.3 -0.4 0.5"/>')),
    "floating_inside": robot(link("a") + link("b") + link("c") + joint("j", "a", "b", "floating")
                             + joint("k", "b", "c", "prismatic", '<axis xyz="1 1 0"/>')),
    "fixed_chain": robot(link("a") + link("b") + link("c") + link("d")
                         + joint("f1", "a", "b", "fixed", '<origin xyz="0 0 1" rpy="0 1 0"/>')
                         + joint("f2", "b", "c", "fixed") + joint("j", "c", "d")),
    "branching": robot(link("a") + link("b") + link("c") + link("d")
                       + joint("j1", "a", "b") + joint("j2", "a", "c", "continuous")
                       + joint("j3", "a", "d", "prismatic")),
    "mimic_limits": robot(link("a") + link("b") + link("c") + joint("j1", "a", "b")
                          + joint("j2", "b", "c", "revolute",
                                  '<axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="3" '
                                  'velocity="2"/><dynamics damping="0.1" friction="0.2"/>'
                                  '<mimic joint="j1" multiplier="-2" offset="0.5"/>')),
    "decoys": robot(link("a") + link("b") + joint("j", "a", "b")
                    + '<transmission name="t"><joint name="j"/><actuator name="m"/></transmission>'
                    '<gazebo reference="b"><joint name="g"/><link name="g"/></gazebo>'
                    '<material name="blue"><color rgba="0 0 1 1"/></material>'),
    "joints_first": robot(joint("j2", "b", "c") + joint("j1", "a", "b") + link("c") + link("b")
                          + link("a")),
    "comments_doctype_crlf": ('<?xml version="1.0" encoding="utf-8"?>\r\n<!-- c -->\r\n'
                              '<!DOCTYPE robot>\r\n' + robot(link("a") + link("b")
                                                             + joint("j", "a", "b"), False)
                              .replace("><", ">\r\n<")),
    "entities_cdata": robot('<link name="a&amp;b&#65;"/><![CDATA[ <link name="x"/> ]]>'),
    "numbers": robot(link("a") + link("b") + joint(
        "j", "a", "b", "revolute", '<origin xyz=" 1e-3\t-0x1p-2\n+.5 " rpy="-0 0. 3.14159"/>'
        '<axis xyz="1e-300 1e300 1"/>')),
    "bad_inertia": robot(link("a", '<inertial><mass value="1"/><inertia ixx="1" ixy="2" ixz="0" '
                                   'iyy="1" iyz="0" izz="1"/></inertial>')),
    "cycle": robot(link("a") + link("b") + joint("j1", "a", "b") + joint("j2", "b", "a")),
    "two_parents": robot(link("a") + link("b") + link("c") + joint("j1", "a", "c")
                         + joint("j2", "b", "c")),
    "truncated": robot(link("a") + link("b") + joint("j", "a", "b"))[:90],
    "root_joint_clash": robot(link("a") + link("b") + joint("root_joint", "a", "b")),
    "billion_laughs": ('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
                       '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
                       '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
                       '<robot name="&c;"><link name="&c;"/></robot>'),
}


def erd_dir(explicit=None):
    if explicit:
        return explicit
    for base in [sysconfig.get_paths()["purelib"], *sys.path]:
        d = os.path.join(base or ".", "cmeel.prefix", "share", "example-robot-data", "robots")
        if os.path.isdir(d):
            return d
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--erd", help="example-robot-data robots/ directory")
    ap.add_argument("--out", default=os.path.join(HERE, "corpus"))
    args = ap.parse_args()
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)

    def write(name, data):
        if isinstance(data, str):
            data = data.encode()
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)

    for path in sorted(glob.glob(os.path.join(REPO, "urdf2dyn", "data", "*.urdf"))):
        write("bundled_" + os.path.basename(path), open(path, "rb").read())
    d = erd_dir(args.erd)
    for rel in ERD_ROBOTS if d else []:
        path = os.path.join(d, rel)
        if os.path.isfile(path) and os.path.getsize(path) < 64 * 1024:
            write("erd_" + os.path.basename(path), open(path, "rb").read())
    from urdfgen import random_urdf
    for seed in range(8):
        write(f"random_tree_{seed}.urdf",
              random_urdf(seed, n_links=4 + seed, floating_root=seed % 3 == 0,
                          planar=seed % 2 == 1, decoys=seed % 4 == 0))
    for name, text in EDGE.items():
        write(f"edge_{name}.urdf", text)
    # states after a NUL: NaN / inf / huge picks (every 4th byte value is special)
    write("state_special.vals", robot(link("a") + link("b") + link("c")
                                      + joint("j", "a", "b", "floating")
                                      + joint("k", "b", "c", "planar")).encode()
          + b"\0" + bytes(range(0, 256, 4)) + bytes(range(1, 256, 3)))
    write("state_zero_quaternion.vals", robot(link("a") + link("b")
                                              + joint("j", "a", "b", "floating")).encode()
          + b"\0" + bytes([20] * 7 + [1] * 32))
    total = sum(os.path.getsize(os.path.join(args.out, f)) for f in os.listdir(args.out))
    print(f"{len(os.listdir(args.out))} seeds, {total / 1024:.0f} kB in {args.out}")


if __name__ == "__main__":
    main()
