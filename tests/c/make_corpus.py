"""Write the fuzzers' seed corpora, tests/c/corpus/PARSER/ (kept small: < 2 MB, no file
> 64 kB, the -max_len of tests/c/fuzz.sh).

    python tests/c/make_corpus.py [--erd DIR]

urdf/: the bundled robots, a few small example-robot-data robots (when installed), random
trees from tests/urdfgen.py, and hand-written edge cases. Seeds named *.vals carry a state
after a NUL byte (the harness reads q, v, a from the bytes after the first NUL).
osim/: the published OpenSim models of tests/data/opensim_models/Models (OpenSim 2 and 4
layouts), slimmed to what the parser reads (three forces with their paths and wrapping, six
markers, no display or controllers), the every-joint model of tests/test_osim.py, and hand-written edge cases (bodies
listed before their parents, OpenSim 3 joints in bodies, reversed ones, offset frames on offset
frames, station-defined frames, coupler chains and loops).

After a fuzzing run, new inputs worth keeping (new coverage) are merged into a corpus with
    tests/c/build/fuzz_PARSER -merge=1 tests/c/corpus/PARSER tests/c/build/fuzz-corpus-PARSER
"""
import argparse
import glob
import os
import re
import shutil
import sys
import sysconfig
import xml.etree.ElementTree as ET
from pathlib import Path

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


# ---- OpenSim models -------------------------------------------------------------------------

OSIM_MODELS = ["gait10dof18musc.osim", "gait2354_simbody_v2.osim",
               "gait2392_millard2012muscle.osim", "Rajagopal2016.osim",
               "FullBodyModel_Hamner2010_v2_0.osim"]
# what the parser does not read: dropped from the seeds so that they stay small
OSIM_UNREAD = {"ControllerSet", "ContactGeometrySet", "ProbeSet", "ComponentSet", "credits",
               "publications", "defaults", "Appearance", "display_preference", "color",
               "mesh_file", "geometry_file", "geometry_files", "show_axes", "frame_geometry",
               "default_speed_value", "prescribed_function", "prescribed", "opacity",
               "representation", "upd_visible", "is_free_to_satisfy_constraints", "groups"}
OSIM_MARKERS = 6        # markers kept per model
OSIM_FORCES = 3         # forces kept per model (muscles: geometry paths, wrapping)


def slim_osim(path):
    """The model at path with what the parser reads, a few markers and forces, no
    indentation."""
    root = ET.parse(path).getroot()

    def walk(e):
        for c in list(e):
            if c.tag in OSIM_UNREAD:
                e.remove(c)
            else:
                walk(c)
        if e.tag == "objects" and len(e) and e[0].tag == "Marker":
            for m in list(e)[OSIM_MARKERS:]:
                e.remove(m)
        if e.tag == "PhysicalOffsetFrame" and e.find("attached_geometry") is not None:
            e.remove(e.find("attached_geometry"))              # the bodies keep theirs
        if e.tag in ("attached_geometry", "WrapObjectSet"):       # one of each per body
            objects = e.find("objects") if e.tag == "WrapObjectSet" else e
            for g in list(objects if objects is not None else [])[1:]:
                objects.remove(g)
        if e.tag == "ForceSet":
            objects = e.find("objects")
            for f in list(objects if objects is not None else [])[OSIM_FORCES:]:
                objects.remove(f)
        if e.text:
            e.text = " ".join(e.text.split()) or None
        e.tail = "\n" if e.tail and not e.tail.strip() and len(e) else None
    walk(root)
    return '<?xml version="1.0" encoding="UTF-8" ?>\n' + ET.tostring(root, encoding="unicode")


def osim_doc(bodies, joints, extra="", version="40000"):
    return (f'<?xml version="1.0"?>\n<OpenSimDocument Version="{version}">\n<Model name="t">\n'
            f'<BodySet><objects>\n{bodies}</objects></BodySet>\n'
            f'<JointSet><objects>\n{joints}</objects></JointSet>\n{extra}'
            '</Model>\n</OpenSimDocument>\n')


def osim_body(name):
    return (f'<Body name="{name}"><mass>1</mass><mass_center>0 0.1 0</mass_center>'
            '<inertia>0.1 0.1 0.1 0 0 0</inertia></Body>\n')


def osim_pin(name, parent, child, coord, frames=""):
    return (f'<PinJoint name="{name}"><socket_parent_frame>{parent}</socket_parent_frame>'
            f'<socket_child_frame>{child}</socket_child_frame><coordinates>'
            f'<Coordinate name="{coord}"/></coordinates>{frames}</PinJoint>\n')


def osim_coupler(name, dep, ind, function):
    return (f'<CoordinateCouplerConstraint name="{name}"><coupled_coordinates_function>'
            f'{function}</coupled_coordinates_function><independent_coordinate_names>{ind}'
            f'</independent_coordinate_names><dependent_coordinate_name>{dep}'
            '</dependent_coordinate_name><scale_factor>2</scale_factor>'
            '</CoordinateCouplerConstraint>')


def osim_chain(names, couplers=""):
    """Bodies names[0] <- names[1] <- ... <- ground, listed as given; pins named by child."""
    joints = "".join(osim_pin(f"j{c}", f"/bodyset/{p}" if p else "/ground", f"/bodyset/{c}",
                              f"q{c}") for c, p in zip(names, [*names[1:], None]))
    extra = (f'<ConstraintSet><objects>{couplers}</objects></ConstraintSet>\n'
             if couplers else "")
    return osim_doc("".join(osim_body(b) for b in names), joints, extra)


SPLINE = ('<SimmSpline><x>-2 -1 0 1 2</x><y>0 0.1 0.3 0.2 -0.1</y></SimmSpline>')
LINEAR = '<LinearFunction><coefficients>3 0</coefficients></LinearFunction>'

OSIM_EDGE = {
    "chain_leaf_first": osim_chain(["c", "b", "a"]),
    "coupler_chain_out_of_order": osim_chain(
        ["c", "b", "a"], osim_coupler("k1", "qa", "qb", LINEAR) +
        osim_coupler("k2", "qb", "qc", SPLINE)),
    "coupler_loop": osim_chain(
        ["b", "a"], osim_coupler("k1", "qa", "qb", LINEAR) + osim_coupler("k2", "qb", "qa",
                                                                           LINEAR)),
    "offset_frames": osim_doc(
        osim_body("a") + osim_body("b"),
        osim_pin("ja", "/ground", "/bodyset/a", "qa") +
        osim_pin("jb", "f2", "/bodyset/b", "qb", frames=(
            '<frames><PhysicalOffsetFrame name="f1"><socket_parent>/bodyset/a</socket_parent>'
            '<translation>0 1 0</translation><orientation>0.1 0.2 0.3</orientation>'
            '</PhysicalOffsetFrame><PhysicalOffsetFrame name="f2"><socket_parent>f1'
            '</socket_parent><translation>0 0 1</translation></PhysicalOffsetFrame></frames>')),
        '<MarkerSet><objects><Marker name="m"><socket_parent_frame>/bodyset/b'
        '</socket_parent_frame><location>0 0.1 0</location></Marker></objects></MarkerSet>'),
    # two ConstantCurvatureJoints: on the arc, and (defaults: neutral 0, length 1) on the
    # straight segment at q = 0; the driver's hostile states take them past their bounds
    "constant_curvature": osim_doc(
        osim_body("a") + osim_body("b"),
        '<ConstantCurvatureJoint name="ca"><socket_parent_frame>/ground</socket_parent_frame>'
        '<socket_child_frame>/bodyset/a</socket_child_frame><coordinates><Coordinate '
        'name="ax"/><Coordinate name="az"/><Coordinate name="ay"/></coordinates>'
        '<neutral_angle_x_z_y>0.3 -0.2 0.1</neutral_angle_x_z_y><length>0.4</length>'
        '</ConstantCurvatureJoint>\n'
        '<ConstantCurvatureJoint name="cb"><socket_parent_frame>/bodyset/a'
        '</socket_parent_frame><socket_child_frame>/bodyset/b</socket_child_frame>'
        '<coordinates><Coordinate name="bx"/><Coordinate name="bz"/><Coordinate name="by"/>'
        '</coordinates></ConstantCurvatureJoint>\n'),
    "opensim3_joint_in_body": (
        '<?xml version="1.0"?>\n<OpenSimDocument Version="30000"><Model name="m"><BodySet>'
        '<objects><Body name="ground"/><Body name="a"><mass>2</mass><mass_center>0 0.2 0'
        '</mass_center><inertia_xx>0.1</inertia_xx><inertia_yy>0.1</inertia_yy><inertia_zz>'
        '0.1</inertia_zz><Joint><PinJoint name="j"><parent_body>ground</parent_body>'
        '<location_in_parent>0 1 0</location_in_parent><orientation_in_parent>0 0 0.5'
        '</orientation_in_parent><location>0 0 0</location><orientation>0 0 0</orientation>'
        '<CoordinateSet><objects><Coordinate name="q"><range>-1 1</range><clamped>true'
        '</clamped></Coordinate></objects></CoordinateSet></PinJoint></Joint></Body></objects>'
        '</BodySet></Model></OpenSimDocument>\n'),
    # a pin between StationDefinedFrames (stations on ground; on the body and an offset
    # frame of it, the origin at point b) and a marker on one
    "station_defined_frames": osim_doc(
        osim_body("a").replace(
            "</Body>", '<components><PhysicalOffsetFrame name="o"><socket_parent>..'
            '</socket_parent><translation>0 0.2 0</translation><orientation>0.3 0 0.1'
            '</orientation></PhysicalOffsetFrame></components></Body>'),
        osim_pin("j", "/g_frame", "/a_frame", "q"),
        '<components>' + "".join(
            f'<Station name="{n}"><socket_parent_frame>{f}</socket_parent_frame><location>'
            f'{x}</location></Station>' for n, f, x in [
                ("g0", "/ground", "0 0 0"), ("g1", "/ground", "1 0 0.2"),
                ("g2", "/ground", "0 1 0"), ("a0", "/bodyset/a", "0.1 0 0"),
                ("a1", "/bodyset/a/o", "0 0 0.3"), ("a2", "/bodyset/a", "0 -0.4 0")]) +
        '<StationDefinedFrame name="g_frame"><socket_point_a>/g0</socket_point_a>'
        '<socket_point_b>/g1</socket_point_b><socket_point_c>/g2</socket_point_c>'
        '<socket_origin_point>/g2</socket_origin_point><ab_axis>-z</ab_axis><ab_x_ac_axis>'
        '+y</ab_x_ac_axis></StationDefinedFrame><StationDefinedFrame name="a_frame">'
        '<socket_point_a>/a0</socket_point_a><socket_point_b>/a1</socket_point_b>'
        '<socket_point_c>/a2</socket_point_c><socket_origin_point>/a1</socket_origin_point>'
        '</StationDefinedFrame></components><MarkerSet><objects><Marker name="m">'
        '<socket_parent_frame>/a_frame</socket_parent_frame><location>0 0.1 0</location>'
        '</Marker></objects></MarkerSet>'),
    # OpenSim 3 joints with <reverse> true: a pin from ground, a slider and a weld below it
    # (read as the joints' inverses)
    "opensim3_reversed_joints": (
        '<?xml version="1.0"?>\n<OpenSimDocument Version="30000"><Model name="m"><BodySet>'
        '<objects><Body name="ground"/>' + "".join(
            f'<Body name="b{k}"><mass>2</mass><mass_center>0.1 0.2 0</mass_center>'
            '<inertia_xx>0.1</inertia_xx><inertia_yy>0.1</inertia_yy><inertia_zz>0.1'
            f'</inertia_zz><Joint><{kind} name="j{k}"><parent_body>{parent}</parent_body>'
            '<location_in_parent>0 1 0</location_in_parent><orientation_in_parent>0 0 0.5'
            '</orientation_in_parent><location>0.1 0 0</location><orientation>0.2 0 0'
            f'</orientation><CoordinateSet><objects>{coords}</objects></CoordinateSet>'
            f'<reverse>true</reverse></{kind}></Joint></Body>'
            for k, (kind, parent, coords) in enumerate([
                ("PinJoint", "ground", '<Coordinate name="q1"/>'),
                ("SliderJoint", "b0", '<Coordinate name="q2"><motion_type>translational'
                 '</motion_type></Coordinate>'),
                ("WeldJoint", "b1", "")])) +
        '</objects></BodySet></Model></OpenSimDocument>\n'),
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
    for parser in ("urdf", "osim"):
        d = os.path.join(args.out, parser)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)

    def write(name, data):
        if isinstance(data, str):
            data = data.encode()
        parser = "osim" if name.endswith(".osim") else "urdf"
        with open(os.path.join(args.out, parser, name), "wb") as f:
            f.write(data)

    for path in sorted(glob.glob(os.path.join(REPO, "urdf2dyn", "data", "*.urdf"))):
        write("bundled_" + os.path.basename(path), Path(path).read_bytes())
    d = erd_dir(args.erd)
    for rel in ERD_ROBOTS if d else []:
        path = os.path.join(d, rel)
        if os.path.isfile(path) and os.path.getsize(path) < 64 * 1024:
            write("erd_" + os.path.basename(path), Path(path).read_bytes())
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

    models = os.path.join(REPO, "tests", "data", "opensim_models", "Models")
    for name in OSIM_MODELS:
        slim = slim_osim(os.path.join(models, name))
        write("published_" + re.sub(r"[^A-Za-z0-9_.]", "_", name), slim)
    from test_osim import every_joint_model
    write("osim_every_joint.osim", every_joint_model())
    for name, text in OSIM_EDGE.items():
        write(f"edge_{name}.osim", text)

    for parser in ("urdf", "osim"):
        d = os.path.join(args.out, parser)
        sizes = [os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)]
        print(f"{parser}: {len(sizes)} seeds, {sum(sizes) / 1024:.0f} kB (largest "
              f"{max(sizes) / 1024:.0f} kB) in {d}")


if __name__ == "__main__":
    main()
