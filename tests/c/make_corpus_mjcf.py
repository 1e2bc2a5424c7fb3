"""Write tests/c/corpus/mjcf/: the MJCF fuzzer's seeds (fuzz_mjcf.c's input layout: the
text, NUL, the states' bytes, then each file after a NUL F NUL, file k answering paths whose
last component starts with k). From the vendored public models (tests/data/mjcf), their
include and mesh files renamed to numbers, and the compiler documents of tests/test_mjcf.py.

    python tests/c/make_corpus_mjcf.py
"""
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data", "mjcf")
OUT = os.path.join(HERE, "corpus", "mjcf")
SEP = b"\0F\0"
STATES = bytes(range(1, 200))


def seed(name, text, files=()):
    data = text.encode() + b"\0" + STATES + b"".join(SEP + f for f in files)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def numbered(text, folder):
    """text with every include / mesh file renamed k.xml / k.ext, and the files' bytes."""
    files = []

    def swap(m):
        path = os.path.join(folder, m.group(2))
        if not os.path.exists(path):
            return m.group(0)
        with open(path, "rb") as f:
            files.append(f.read())
        return f'{m.group(1)}"{len(files)}{os.path.splitext(path)[1]}"'
    return re.sub(r'(<include file=|<mesh[^>]*file=)"([^"]+)"', swap, text), files


def main():
    os.makedirs(OUT, exist_ok=True)
    for root, _, names in os.walk(DATA):
        for n in sorted(names):
            if n.endswith(".xml") and "common" not in root:
                with open(os.path.join(root, n)) as f:
                    text, files = numbered(f.read(), root)
                seed(f"public_{os.path.basename(root)}_{n}", text, files)
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import test_mjcf
    seed("kitchen.xml", test_mjcf.KITCHEN)
    assets = os.path.join(DATA, "menagerie", "franka_emika_panda", "assets")
    with open(os.path.join(assets, "hand.stl"), "rb") as f:
        stl = f.read()
    with open(os.path.join(assets, "link5_collision_1.obj"), "rb") as f:
        obj = f.read()
    seed("meshes.xml", """<mujoco><asset><mesh name="a" file="1.stl" scale="1 2 1"/>
<mesh name="b" file="2.obj" inertia="exact"/><mesh name="c" file="1.stl" inertia="shell"/>
<mesh name="d" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 2 1 0 1 3 0 3 2 1 2 3"/></asset>
<worldbody><body><freejoint/><geom type="mesh" mesh="a"/><body pos="0 0 1"><joint type="ball"/>
<geom type="mesh" mesh="b" density="300"/><geom type="mesh" mesh="c"/>
<geom type="mesh" mesh="d"/></body></body></worldbody></mujoco>""", [stl, obj])
    trossen = os.path.join(DATA, "menagerie", "trossen_wxai", "assets", "meshes")
    polygons = []                                   # OBJ faces of 5 to 9 corners (ear clipping)
    for name in ("base_link_collision.002.obj", "link_3_collision.obj"):
        with open(os.path.join(trossen, name), "rb") as f:
            polygons.append(f.read())
    star = [(0.2 if k % 2 == 0 else 0.07, 0.3 + 0.6283 * k) for k in range(10)]
    ngon = "".join(f"v {r * math.cos(a):.6f} {r * math.sin(a):.6f} {z}\n"
                   for z in (0, 0.3) for r, a in star)
    ngon += "f " + " ".join(str(k) for k in range(10, 0, -1)) + "\n"
    ngon += "f " + " ".join(str(k) for k in range(11, 21)) + "\n"
    ngon += "".join(f"f {k + 1} {(k + 1) % 10 + 1} {(k + 1) % 10 + 11} {k + 11}\n"
                    for k in range(10))
    big = "".join(f"v {math.cos(k / 17):.6f} {math.sin(k / 17):.6f} 0\n" for k in range(101))
    big += "v 0 0 1\nf " + " ".join(str(k) for k in range(1, 102)) + "\n"
    big += "".join(f"f {k + 1} {(k + 1) % 101 + 1} 102\n" for k in range(101))
    seed("polygons.xml", """<mujoco><asset><mesh name="a" file="1.obj"/>
<mesh name="b" file="2.obj" inertia="exact"/><mesh name="c" file="3.obj"/>
<mesh name="d" file="4.obj" inertia="shell"/></asset>
<worldbody><body><joint/><geom type="mesh" mesh="a"/><geom type="mesh" mesh="b"/>
<body pos="0 0 1"><joint axis="1 0 0"/><geom type="mesh" mesh="c"/><geom type="mesh" mesh="d"/>
</body></body></worldbody></mujoco>""", polygons + [ngon.encode(), big.encode()])
    seed("includes.xml", '<mujoco><include file="1.xml"/></mujoco>',
         [b'<mujoco><include file="sub/2.xml"/><default><joint axis="1 0 0"/></default></mujoco>',
          b'<mujoco><worldbody><body><joint/><geom size=".1"/></body></worldbody></mujoco>'])


if __name__ == "__main__":
    main()
