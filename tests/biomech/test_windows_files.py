"""Files as Windows users have them (issue 21, item 5), for every reader but CSV's (its own
tests): OpenSim .mot/.sto tables and ExternalLoads XML as OpenSim writes them, then saved the
Windows way (CRLF line ends, a UTF-8 byte-order mark, a Windows-1252 header), in folders with
spaces and non-ASCII names, with Windows paths inside the setup file; the URDF loader, HuMoD
.mat files and the command line in such folders. Each variant must read exactly as the file
OpenSim wrote."""
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn.biomech import formats
from urdf2dyn.biomech.formats.opensim import read_external_loads, read_sto_table
from urdf2dyn.biomech.formats.windows import decode_text, setup_path
from urdf2dyn.warn import Urdf2dynWarning

import opensim_tables

FOLDER = "Données essai 1/Sujet Zoë"        # spaces and non-ASCII, as in a lab's share
PLATE = ["ground_force_vx", "ground_force_vy", "ground_force_vz",
         "ground_force_px", "ground_force_py", "ground_force_pz"]


@pytest.fixture(scope="module")
def written(osim, tmp_path_factory):
    """robot2r's coordinates (.mot, degrees) and a force plate (.mot), written by OpenSim, and
    an ExternalLoads XML printed by OpenSim, in a folder with spaces and accents."""
    d = tmp_path_factory.mktemp("win") / FOLDER
    d.mkdir(parents=True)
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    t = np.arange(41) / 100.0
    q = np.column_stack([0.4 * np.sin(3 * t), 0.7 * np.cos(2 * t)])
    opensim_tables.write_sto(osim, d / "coords.mot", t, np.degrees(q), list(model.q_names), True)
    plate = np.column_stack([10 * np.sin(t), 600 + t, 5 * t, 0.2 + t, 0 * t, 0.1 * t])
    opensim_tables.write_sto(osim, d / "grf.mot", t, plate, PLATE, False)
    loads = osim.ExternalLoads()
    ef = osim.ExternalForce()
    ef.setName("right")
    ef.setAppliedToBodyName("link2")
    ef.setForceExpressedInBodyName("ground")
    ef.setPointExpressedInBodyName("ground")
    ef.setForceIdentifier("ground_force_v")
    ef.setPointIdentifier("ground_force_p")
    loads.cloneAndAppend(ef)
    loads.setDataFileName("grf.mot")
    loads.printToXML(str(d / "loads.xml"))
    return d, model, t, q, plate


def windows_variants(data):
    """The bytes of a text file as Windows tools save it."""
    crlf = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return {"crlf": crlf, "bom": b"\xef\xbb\xbf" + data, "bom+crlf": b"\xef\xbb\xbf" + crlf}


def cp1252_header(data):
    """A header line in Windows-1252 (a subject's name with accents), before endheader."""
    return data.replace(b"endheader", "subject=Zoë Müller, 1,61 m\r\nendheader".encode("cp1252"), 1)


@pytest.mark.parametrize("variant", ["crlf", "bom", "bom+crlf", "cp1252", "cp1252+crlf"])
def test_mot_saved_on_windows_reads_as_written(written, variant):
    d, model, t, q, _ = written
    data = (d / "coords.mot").read_bytes()
    ref_labels, ref_data, ref_info, _ = read_sto_table(d / "coords.mot")
    if variant.startswith("cp1252"):
        data = cp1252_header(data)
        variant = variant.replace("cp1252", "").lstrip("+") or None
    if variant:
        data = windows_variants(data)[variant]
    path = d / f"coords {variant or 'plain'} é.mot"
    path.write_bytes(data)
    labels, table, info, _ = read_sto_table(path)
    assert labels == ref_labels and np.array_equal(table, ref_data)
    assert all(info[k] == v for k, v in ref_info.items())
    traj = formats.read(path, model=model)            # degrees -> rad by the header
    _, q_read, _, _ = traj.for_model(model)
    np.testing.assert_allclose(q_read, q, rtol=0, atol=1e-9)    # OpenSim prints 9+ digits
    if "subject" in info:
        assert info["subject"] == "Zoë Müller, 1,61 m"


@pytest.mark.parametrize("datafile", ["grf.mot", r".\grf.mot", r"plates\grf.mot",
                                      r"plates\sous-dossier é\grf.mot"])
def test_external_loads_relative_windows_paths(written, tmp_path, datafile):
    d, _, t, _, plate = written
    setup = (d / "loads.xml").read_text(encoding="utf-8")
    target = tmp_path / FOLDER / os.path.join(*datafile.replace(".\\", "").split("\\"))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(windows_variants((d / "grf.mot").read_bytes())["bom+crlf"])
    xml = tmp_path / FOLDER / "loads.xml"
    xml.write_bytes(windows_variants(
        setup.replace("<datafile>grf.mot</datafile>", f"<datafile>{datafile}</datafile>")
        .encode())["crlf"])
    loads, ref = read_external_loads(xml), read_external_loads(d / "loads.xml")
    assert os.path.samefile(loads.datafile, target)
    assert [f.name for f in loads.forces] == ["right"]
    for label in PLATE:
        assert np.array_equal(loads.columns[label], ref.columns[label])
    np.testing.assert_allclose(np.column_stack([loads.columns[x] for x in PLATE]), plate,
                               rtol=1e-6)


@pytest.mark.parametrize("absolute", [r"C:\Users\Zoë\OpenSim\grf.mot",
                                      r"\\labserver\essais\grf.mot", "D:/data/grf.mot"])
def test_external_loads_absolute_windows_path_warns(written, tmp_path, absolute):
    d, _, _, _, plate = written
    setup = (d / "loads.xml").read_text(encoding="utf-8")
    xml = tmp_path / "loads.xml"
    xml.write_text(setup.replace("<datafile>grf.mot</datafile>",
                                 f"<datafile>{absolute}</datafile>"), encoding="utf-8")
    (tmp_path / "grf.mot").write_bytes((d / "grf.mot").read_bytes())
    with pytest.warns(Urdf2dynWarning, match=r"is a Windows path; reading .*grf\.mot"):
        loads = read_external_loads(xml)
    ref = read_external_loads(d / "loads.xml")
    assert np.array_equal(loads.columns["ground_force_vy"], ref.columns["ground_force_vy"])


def test_external_loads_xml_in_windows_1252(written, tmp_path):
    """Saved by a Windows editor in the ANSI code page, without an encoding declaration."""
    d, _, _, _, _ = written
    setup = (d / "loads.xml").read_text(encoding="utf-8")
    setup = setup.replace("<ExternalLoads", "<!-- plate 1: Zoë, essai n° 3 -->\n<ExternalLoads", 1)
    if setup.startswith("<?xml"):
        setup = setup.replace(' encoding="UTF-8"', "").replace(" encoding='UTF-8'", "")
    xml = tmp_path / "loads.xml"
    xml.write_bytes(setup.replace("\n", "\r\n").encode("cp1252"))
    (tmp_path / "grf.mot").write_bytes((d / "grf.mot").read_bytes())
    loads = read_external_loads(xml)
    assert [f.name for f in loads.forces] == ["right"]


@pytest.mark.parametrize("variant", ["crlf", "bom", "bom+crlf"])
def test_urdf_in_a_windows_folder(tmp_path, variant):
    folder = tmp_path / FOLDER
    folder.mkdir(parents=True)
    src = urdf2dyn.data_path("arm7.urdf")
    data = windows_variants(Path(src).read_bytes())[variant]
    path = folder / "bras 7 ddl é.urdf"
    path.write_bytes(data)
    ours, ref = urdf2dyn.load(str(path)), urdf2dyn.load(src)
    q = np.linspace(-1, 1, ref.nq)
    assert ours.q_names == ref.q_names
    assert np.array_equal(ours.inverse_dynamics(q, q, q), ref.inverse_dynamics(q, q, q))


def test_urdf_declared_windows_1252(tmp_path):
    text = Path(urdf2dyn.data_path("robot2r.urdf")).read_text(encoding="utf-8")
    body = text[text.index("<robot"):]
    path = tmp_path / "robot.urdf"
    path.write_bytes(('<?xml version="1.0" encoding="windows-1252"?>\n<!-- Zoë -->\n'
                      + body).encode("cp1252"))
    m = urdf2dyn.load(str(path))
    assert m.nq == 2
    # undeclared, the stray byte in a comment: read as Windows-1252 and said (strict: refused)
    path.write_bytes(("<!-- Zoë -->\n" + body).encode("cp1252"))
    with pytest.warns(urdf2dyn.URDFWarning, match=r"robot\.urdf: line 1, column 8: byte 0xeb "
                      r"is not UTF-8 .*read as Windows-1252.*'ë'"):
        assert urdf2dyn.load(str(path)).nq == 2
    with pytest.raises(urdf2dyn.URDFError, match=r"robot\.urdf: line 1, column 8"):
        urdf2dyn.load(str(path), strict=True)
    # undeclared, the stray byte in a name: refused, as before
    path.write_bytes(body.replace('name="link1"', 'name="link1ë"').encode("cp1252"))
    with pytest.raises(urdf2dyn.URDFError, match=r"robot\.urdf: not valid UTF-8.*declare"):
        urdf2dyn.load(str(path))


def test_humod_mat_in_a_windows_folder(tmp_path):
    """The same .mat reads alike from a plain folder and from one with spaces and accents."""
    pytest.importorskip("scipy.io")
    from urdf2dyn.biomech.trajectory import Trajectory
    t = np.arange(6) / 100.0
    traj = Trajectory(time=t, q=np.linspace(-1, 1, 12).reshape(6, 2), names=["hip", "knee"])
    plain, folder = tmp_path / "plain", tmp_path / FOLDER
    plain.mkdir()
    folder.mkdir(parents=True)
    formats.write(plain / "run.mat", traj)
    (folder / "course 3 ms é.mat").write_bytes((plain / "run.mat").read_bytes())
    a, b = formats.read(plain / "run.mat"), formats.read(folder / "course 3 ms é.mat")
    assert a.names == b.names and np.array_equal(a.q, b.q) and np.array_equal(a.time, b.time)


def test_cli_torques_in_a_windows_folder(written):
    """The command line with every path in a folder with spaces and accents, the motion saved
    with CRLF and a byte-order mark, the loads' datafile a backslash path."""
    d, model, t, q, plate = written
    sub = d / "sortie é"
    sub.mkdir(exist_ok=True)
    (sub / "plates").mkdir(exist_ok=True)
    (sub / "plates" / "grf.mot").write_bytes((d / "grf.mot").read_bytes())
    setup = (d / "loads.xml").read_text(encoding="utf-8")
    (sub / "loads.xml").write_text(setup.replace("<datafile>grf.mot</datafile>",
                                                 r"<datafile>plates\grf.mot</datafile>"),
                                   encoding="utf-8")
    (sub / "coords.mot").write_bytes(windows_variants((d / "coords.mot").read_bytes())["bom+crlf"])
    urdf = sub / "robot 2r.urdf"
    urdf.write_bytes(Path(urdf2dyn.data_path("robot2r.urdf")).read_bytes())
    out = sub / "couples é.sto"
    r = subprocess.run([sys.executable, "-m", "urdf2dyn", "torques", str(urdf),
                        str(sub / "coords.mot"), "--external-loads", str(sub / "loads.xml"), "-o",
                        str(out),
                        "--no-progress"], capture_output=True, text=True, cwd=d)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    labels, table, _, _ = read_sto_table(out)
    assert table.shape[0] == len(t) and labels[0] == "time"


# ---- properties: no input ends in a traceback ----------------------------------------------

@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.binary(max_size=200))
@example(b"\xff\xfeZ\x00o\x00\xeb\x00")          # UTF-16 with its mark: warned about
@example(b"\xfe\xff\x00Z\x00o\x00\xeb")
@example(b"\xff\xfeZ")                           # an odd length: not UTF-16
@example(b"time\x00")                            # a NUL: no text file holds one
@example(b"\xef\xbb\xbf\xef\xbb\xbfa")                  # a mark written twice
def test_decode_text_any_bytes(data):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            text = decode_text(data, "f.mot")
        except ValueError as e:
            assert "f.mot" in str(e) and "save it as UTF-8" in str(e)
            return
    # the bytes again: UTF-16 after its mark, else UTF-8 (without a BOM) or Windows-1252
    unicode = data.startswith((b"\xff\xfe", b"\xfe\xff"))
    first = "utf-16-le" if data[:1] == b"\xff" else "utf-16-be"
    assert "\x00" not in text and not text.startswith("\ufeff")
    assert any(text.encode(codec) == _without_marks(data, mark)
               for codec, mark in ([(first, data[:2])] if unicode else
                                   [("utf-8", b"\xef\xbb\xbf"), ("cp1252", b"")]))
    assert [issubclass(w.category, Urdf2dynWarning) for w in caught] == [True] * unicode


def _without_marks(data, mark):
    """The bytes after every copy of a byte-order mark at their start (some tools write two)."""
    while mark and data.startswith(mark):
        data = data[len(mark):]
    return data


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(max_size=60))
def test_setup_path_any_text(text):
    import warnings
    with warnings.catch_warnings():
        # any text: a drawn Windows path is warned about (tested above); not the subject here
        warnings.simplefilter("ignore", Urdf2dynWarning)
        out = setup_path(text, "/tmp/setup.xml", "datafile")
    assert isinstance(out, str) and os.path.isabs(out)
    name = text.strip()
    if os.name != "nt" and name and not any(c in name for c in "/\\:"):
        assert out == os.path.normpath(os.path.join("/tmp", name))    # beside the setup


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.binary(max_size=300), st.sampled_from([b"", b"\xef\xbb\xbf"]),
       st.sampled_from([b"\n", b"\r\n"]))
def test_sto_reader_any_header(tmp_path_factory, junk, bom, eol):
    import warnings
    path = tmp_path_factory.mktemp("sto") / "x.sto"
    path.write_bytes(bom + junk + eol + b"endheader" + eol + b"time\ta" + eol + b"0\t1" + eol)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            labels, table, _, _ = read_sto_table(path)
        except (formats.MotionError, ValueError) as e:
            assert str(path) in str(e)
            return
    assert labels[-1] == "a" and table.shape[1] == len(labels)
    for w in caught:            # each one ours, naming the file and saying what to do
        assert issubclass(w.category, Urdf2dynWarning), w.message
        assert str(path) in str(w.message) and "OpenSim" in str(w.message), w.message
    if not _may_hold_header_keys(junk):
        # a header of version 1 without counts: OpenSim's Storage refuses it, so the reader
        # must say so, and with the counts to add
        said = [str(w.message) for w in caught]
        assert any("the header has no nRows and no nColumns line" in m
                   and "Add 'nRows=1' and 'nColumns=" in m for m in said), said


def _may_hold_header_keys(junk):
    """Whether random header bytes may spell a key the reader acts on (a version, a row or
    column count, the units): only then can its warnings differ from 'no counts'."""
    low = junk.lower()
    return any(k in low for k in (b"version", b"nr", b"nc", b"datarows", b"datacolumns",
                                  b"degrees", b"angles", b"="))


# ---- setup files written on Windows (Setup_ID.xml, Setup_IK.xml) ----------------------------

OSIM_DATA = os.path.join(os.path.dirname(__file__), "..", "data")


def _windows_setup(text, paths, encoding="cp1252"):
    """A setup file as a Windows user leaves it: each <tag> value replaced by a backslash path,
    an accented comment, CRLF line ends, saved in the ANSI code page without a declaration."""
    import re
    for tag, value in paths.items():
        text, n = re.subn(rf"<{tag}>[^<]*</{tag}>", lambda m: f"<{tag}>{value}</{tag}>", text)
        assert n == 1, tag
    text = re.sub(r"<\?xml[^>]*\?>", "", text, count=1).lstrip()
    text = text.replace("<OpenSimDocument", "<!-- essai n° 1, Zoë -->\n<OpenSimDocument", 1)
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode(encoding)


def _copy(src, dst):
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(Path(src).read_bytes())


@pytest.fixture(scope="module")
def gait2354_windows(tmp_path_factory):
    """opensim-models' published gait2354 ID setup, laid out as on a lab's Windows share: data,
    model and results in sub-folders with spaces and accents, named with backslashes."""
    src = os.path.join(OSIM_DATA, "opensim_models", "Gait2354_Simbody")
    root = tmp_path_factory.mktemp("id") / FOLDER
    for name in ("subject01_simbody.osim", "subject01_walk1_ik.mot", "subject01_walk1_grf.mot"):
        sub = "Modèle" if name.endswith(".osim") else "Données brutes"
        _copy(os.path.join(src, name), root / sub / name)
    loads = Path(os.path.join(src, "subject01_walk1_grf.xml")).read_text(encoding="utf-8")
    (root / "Charges").mkdir()
    (root / "Charges" / "grf é.xml").write_bytes(_windows_setup(
        loads, {"datafile": r"..\Données brutes\subject01_walk1_grf.mot"}))
    setup = Path(src, "subject01_Setup_InverseDynamics.xml").read_text(encoding="utf-8")
    (root / "Setup ID.xml").write_bytes(_windows_setup(setup, {
        "model_file": r"Modèle\subject01_simbody.osim",
        "coordinates_file": r".\Données brutes\subject01_walk1_ik.mot",
        "external_loads_file": r"Charges\grf é.xml",
        "results_directory": r"Résultats\ID"}))
    return src, root


def test_id_setup_with_windows_paths_reads_as_published(gait2354_windows):
    from urdf2dyn.biomech.formats import read_id_setup
    src, root = gait2354_windows
    ours = read_id_setup(root / "Setup ID.xml")
    ref = read_id_setup(os.path.join(src, "subject01_Setup_InverseDynamics.xml"))
    assert ours.model_file == os.fspath(root / "Modèle" / "subject01_simbody.osim")
    assert ours.coordinates_file == os.fspath(root / "Données brutes" / "subject01_walk1_ik.mot")
    assert ours.external_loads_file == os.fspath(root / "Charges" / "grf é.xml")
    assert ours.output == os.fspath(root / "Résultats" / "ID" / "inverse_dynamics.sto")
    assert (ours.time_range, ours.lowpass_hz, ours.forces_to_exclude) == \
        (ref.time_range, ref.lowpass_hz, ref.forces_to_exclude)


def test_cli_id_setup_with_windows_paths_gives_the_published_result(gait2354_windows, tmp_path,
                                                                   monkeypatch):
    """The same torques, to the last bit, as the setup file opensim-models publishes."""
    from urdf2dyn import cli
    src, root = gait2354_windows
    monkeypatch.chdir(tmp_path)
    assert cli.main(["torques", "--setup", os.fspath(root / "Setup ID.xml"), "--no-progress"]) == 0
    assert cli.main(["torques", "--setup", os.path.join(src, "subject01_Setup_InverseDynamics.xml"),
                     "-o", "ref.sto", "--no-progress"]) == 0
    ours = read_sto_table(root / "Résultats" / "ID" / "inverse_dynamics.sto")
    ref = read_sto_table(tmp_path / "ref.sto")
    assert ours[0] == ref[0] and np.array_equal(ours[1], ref[1])


@pytest.mark.parametrize("tag,absolute", [
    ("coordinates_file", r"C:\Users\Zoë\Documents\OpenSim\subject01_walk1_ik.mot"),
    ("model_file", r"\\labserver\modèles\subject01_simbody.osim"),
    ("external_loads_file", "D:/essais/subject01_walk1_grf.xml")])
def test_id_setup_absolute_windows_path_warns_and_reads_beside(tag, absolute, tmp_path):
    """A setup moved from a Windows PC: its absolute path cannot be opened here; the file of
    that name beside the setup is read, and the warning names both (an error under strict)."""
    from urdf2dyn.biomech.formats import SetupError, read_id_setup
    src = os.path.join(OSIM_DATA, "opensim_models", "Gait2354_Simbody")
    for name in os.listdir(src):
        _copy(os.path.join(src, name), tmp_path / name)
    setup = Path(src, "subject01_Setup_InverseDynamics.xml").read_text(encoding="utf-8")
    path = tmp_path / "setup.xml"
    path.write_bytes(_windows_setup(setup, {tag: absolute}))
    with pytest.warns(Urdf2dynWarning, match=rf"<{tag}> .* is a Windows path; reading "):
        s = read_id_setup(path)
    field = {"coordinates_file": s.coordinates_file, "model_file": s.model_file,
             "external_loads_file": s.external_loads_file}[tag]
    assert os.path.dirname(field) == os.fspath(tmp_path)
    with pytest.raises(SetupError, match="is a Windows path"):
        read_id_setup(path, strict=True)


def test_ik_setup_with_windows_paths_solves_as_published(tmp_path):
    """opensim-models' Gait2392 IK setup with its files in accented sub-folders named with
    backslashes, saved on Windows: the same angles, bit for bit, on a few frames."""
    from urdf2dyn.biomech import ik
    from urdf2dyn.biomech.formats.ik_setup import read_ik_setup
    src = os.path.join(OSIM_DATA, "ik", "gait2392")
    root = tmp_path / FOLDER
    _copy(os.path.join(src, "subject01_simbody.osim"), root / "Modèle" / "subject01_simbody.osim")
    _copy(os.path.join(src, "subject01_walk1.trc"), root / "Marqueurs" / "subject01_walk1.trc")
    text = Path(os.path.join(src, "subject01_Setup_IK.xml")).read_text(encoding="utf-8")
    text = text.replace("<time_range> 0.5 2.5</time_range>", "<time_range> 0.5 0.54</time_range>")
    setup = root / "Setup IK é.xml"
    setup.write_bytes(_windows_setup(text, {
        "model_file": r"Modèle\subject01_simbody.osim",
        "marker_file": r".\Marqueurs\subject01_walk1.trc",
        "output_motion_file": r"Résultats\walk1 ik.mot"}))
    s = read_ik_setup(setup)
    assert s.model_file == os.fspath(root / "Modèle" / "subject01_simbody.osim")
    assert s.marker_file == os.fspath(root / "Marqueurs" / "subject01_walk1.trc")
    assert s.output_motion_file == os.fspath(root / "Résultats" / "walk1 ik.mot")
    plain = tmp_path / "plain"
    for name in ("subject01_simbody.osim", "subject01_walk1.trc"):
        _copy(os.path.join(src, name), plain / name)
    (plain / "setup.xml").write_text(text, encoding="utf-8")
    (root / "Résultats").mkdir()
    # the published trial's first frames miss OpenSim's best practice (RMS below 2 cm, largest
    # error below 4 cm): both runs say so, each naming its own marker file
    with pytest.warns(Urdf2dynWarning) as said:
        ours = ik.run_setup(os.fspath(setup))
        ref = ik.run_setup(os.fspath(plain / "setup.xml"), output="")
    expected = [f"{trc}: inverse kinematics: {what} in 3 of 3 frames"
                for trc in (s.marker_file, os.fspath(plain / "subject01_walk1.trc"))
                for what in ("marker RMS above 2 cm", "largest marker error above 4 cm")]
    assert [str(w.message).split(" (up to")[0] for w in said] == expected
    assert ours.motion.q.shape[0] == 3 and np.array_equal(ours.motion.q, ref.motion.q)
    labels, table, _, _ = read_sto_table(root / "Résultats" / "walk1 ik.mot")
    assert table.shape[0] == 3


def test_setup_path_keeps_this_systems_absolute_paths(tmp_path):
    target = os.fspath(tmp_path / "données" / "walk.mot")
    assert setup_path(target, "/elsewhere/setup.xml", "coordinates_file") == target
    assert setup_path(r"a\b\..\c.mot", "/x/setup.xml", "datafile") == os.path.join("/x", "a", "c.mot")


def _opensims_trc(osim, folder):
    """ref.trc in folder: 4 frames of two markers (one named with an accent), in mm, written by
    OpenSim's TRCFileAdapter."""
    table = osim.TimeSeriesTableVec3()
    table.setColumnLabels(["R.ASIS", "Genou é"])
    for k in range(4):
        table.appendRow(k / 100.0, osim.RowVectorVec3(
            [osim.Vec3(1000.0 + k, 900.5, -3.25 * k), osim.Vec3(12.0, 500.0 - k, 0.125)]))
    for key, value in (("DataRate", "100"), ("Units", "mm")):
        table.addTableMetaDataString(key, value)
    path = folder / "ref.trc"
    osim.TRCFileAdapter.write(table, str(path))
    return path


@pytest.mark.parametrize("variant", ["crlf", "bom", "bom+crlf", "cp1252"])
def test_trc_saved_on_windows_reads_as_written(osim, tmp_path, variant):
    """A .trc written by OpenSim's TRCFileAdapter (a marker named with an accent), saved the
    Windows way in a folder with spaces and accents, reads as OpenSim's own file."""
    from urdf2dyn.biomech.formats.trc import read_trc
    ref_path = _opensims_trc(osim, tmp_path)
    data = ref_path.read_bytes()
    data = (data.decode("utf-8").encode("cp1252") if variant == "cp1252"
            else windows_variants(data)[variant])
    folder = tmp_path / FOLDER
    folder.mkdir(parents=True)
    (folder / "marche é.trc").write_bytes(data)
    ours, ref = read_trc(folder / "marche é.trc"), read_trc(ref_path)
    assert list(ours.labels) == list(ref.labels) == ["R.ASIS", "Genou é"]
    assert np.array_equal(ours.time, ref.time) and np.array_equal(ours.xyz, ref.xyz)
    np.testing.assert_allclose(ours.xyz[3, 0], [1.003, 0.9005, -0.00975], rtol=1e-12)


def test_c3d_in_a_windows_folder(tmp_path):
    """A lab's C3D in a folder with spaces and accents reads as from a plain folder."""
    pytest.importorskip("ezc3d")
    from urdf2dyn.biomech.formats.c3d import read_c3d
    src = os.path.join(OSIM_DATA, "ik", "gait2392", "subject01_walk1.c3d")
    folder = tmp_path / FOLDER
    _copy(src, folder / "essai n° 1 é.c3d")
    ours, ref = read_c3d(folder / "essai n° 1 é.c3d"), read_c3d(src)
    assert list(ours.markers.labels) == list(ref.markers.labels)
    assert np.array_equal(ours.markers.xyz, ref.markers.xyz, equal_nan=True)


# ---- UTF-16 ("Unicode" in Notepad, Excel's "Unicode text"): read, and warned about ---------

#: Windows' "Unicode" text: little-endian with its byte-order mark (Notepad, Excel), and the
#: big-endian "Unicode big endian" Notepad also offers; CRLF line ends, as Windows writes them.
UNICODE = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}
UNICODE_SAID = r"UTF-16 text.*OpenSim 4\.6 cannot: save it as UTF-8"


def as_unicode(data, encoding, mark=True):
    """UTF-8 bytes of a text file saved again as UTF-16 (with CRLF line ends)."""
    text = data.decode("utf-8-sig").replace("\r\n", "\n").replace("\n", "\r\n")
    return (UNICODE[encoding] if mark else b"") + text.encode(encoding)


def _opensim_refuses(read, path):
    """Whether OpenSim's reader raises on path (Storage and TRCFileAdapter say 'Failed to parse
    headers' / throw in extendRead on UTF-16 text)."""
    try:
        read(str(path))
    except Exception:           # noqa: BLE001 -- SWIG turns every C++ exception into this
        return True
    return False


@pytest.mark.parametrize("encoding", sorted(UNICODE))
def test_mot_saved_as_unicode_reads_as_written_and_warns(osim, written, encoding):
    """OpenSim's Storage refuses a UTF-16 .mot; urdf2dyn reads it exactly as OpenSim's own
    UTF-8 file and says OpenSim cannot, and how to save it (before: refused for having 'no
    endheader line', the bytes read as Windows-1252)."""
    d, model, t, q, _ = written
    data = cp1252_header((d / "coords.mot").read_bytes()).decode("cp1252").encode("utf-8")
    path = d / f"coords {encoding} é.mot"
    path.write_bytes(as_unicode(data, encoding))
    assert _opensim_refuses(osim.Storage, path)
    with pytest.warns(Urdf2dynWarning, match=UNICODE_SAID):
        labels, table, info, _ = read_sto_table(path)
    ref_labels, ref_table, _, _ = read_sto_table(d / "coords.mot")
    assert labels == ref_labels and np.array_equal(table, ref_table)
    assert info["subject"] == "Zoë Müller, 1,61 m"
    with pytest.warns(Urdf2dynWarning, match=UNICODE_SAID):
        traj = formats.read(path, model=model)
    np.testing.assert_allclose(traj.for_model(model)[1], q, rtol=0, atol=1e-9)


@pytest.mark.parametrize("encoding", sorted(UNICODE))
def test_trc_saved_as_unicode_reads_as_written_and_warns(osim, tmp_path, encoding):
    """OpenSim's TRCFileAdapter refuses a UTF-16 .trc; urdf2dyn reads it as OpenSim's own file
    and warns (before: 'not an OpenSim .trc file')."""
    from urdf2dyn.biomech.formats.trc import read_trc
    ref_path, path = _opensims_trc(osim, tmp_path), tmp_path / "marche é.trc"
    path.write_bytes(as_unicode(ref_path.read_bytes(), encoding))
    assert _opensim_refuses(osim.TimeSeriesTableVec3, path)
    with pytest.warns(Urdf2dynWarning, match=UNICODE_SAID):
        ours = read_trc(path)
    ref = read_trc(ref_path)
    assert list(ours.labels) == list(ref.labels) == ["R.ASIS", "Genou é"]
    assert np.array_equal(ours.time, ref.time) and np.array_equal(ours.xyz, ref.xyz)


@pytest.mark.parametrize("name", ["coords.mot", "marks.trc"])
def test_unicode_without_its_mark_is_refused_naming_the_encoding(written, tmp_path, name):
    """UTF-16 without a byte-order mark decodes as UTF-8 with a NUL between letters: refused,
    naming UTF-16 and what to save (before: 'no endheader' / 'not an OpenSim .trc file')."""
    from urdf2dyn.biomech.formats.trc import read_trc
    d = written[0]
    source = (d / "coords.mot").read_bytes() if name.endswith(".mot") else (
        b"PathFileType\t4\t(X/Y/Z)\tm.trc\nDataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\n"
        b"100\t100\t1\t1\tmm\nFrame#\tTime\tA\n\t\tX1\tY1\tZ1\n1\t0\t1\t2\t3\n")
    path = tmp_path / name
    path.write_bytes(as_unicode(source, "utf-16-le", mark=False))
    read = read_sto_table if name.endswith(".mot") else read_trc
    with pytest.raises(formats.MotionError, match=rf"{name}: line 1: contains NUL bytes: "
                       "UTF-16 text without its byte-order mark.*save it as UTF-8"):
        read(path)


def test_external_loads_xml_in_unicode_warns_and_reads(osim, written, tmp_path):
    """Notepad's "Unicode" keeps the declaration's encoding="UTF-8"; OpenSim refuses the file
    ('Could not open file'); urdf2dyn reads the force and warns (before: an XML syntax error
    at line 1, column 2)."""
    d = written[0]
    xml = tmp_path / "loads.xml"
    xml.write_bytes(as_unicode((d / "loads.xml").read_bytes(), "utf-16-le"))
    (tmp_path / "grf.mot").write_bytes((d / "grf.mot").read_bytes())
    assert _opensim_refuses(lambda p: osim.ExternalLoads(p, True), xml)
    assert osim.ExternalLoads(str(d / "loads.xml"), True).getSize() == 1
    with pytest.warns(Urdf2dynWarning, match=UNICODE_SAID):
        loads = read_external_loads(xml)
    assert [f.name for f in loads.forces] == ["right"]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16", "utf-16-le", "utf-16-be",
                        "utf-16-le+mark", "utf-16-be+mark"]),
       st.sampled_from(["\n", "\r\n"]),
       st.text("abzAZ09 .-_àéèüöçñøÿ", max_size=12),
       st.sampled_from(["mot", "trc"]))
def test_any_encoding_of_a_valid_file_reads_right_or_is_refused_by_name(
        tmp_path_factory, encoding, eol, subject, kind):
    """A valid .mot / .trc (a subject's name in its header) in any encoding a Windows or Unix
    tool writes: read exactly as its UTF-8 original, or refused with a MotionError naming the
    file, the encoding and what to save; never another exception."""
    from urdf2dyn.biomech.formats.trc import read_trc
    # letters of Western-European names: in Windows-1252, their non-ASCII bytes (0xe0-0xff)
    # never make valid UTF-8, so the text is unambiguous in every encoding here
    subject = subject.strip()
    if kind == "mot":
        text = (f"coords\nsubject={subject}\nversion=1\nnRows=2\nnColumns=3\ninDegrees=no\n"
                "endheader\ntime\ta\tb\n0\t0.5\t-1\n0.01\t0.25\t2e-3\n")
    else:
        text = (f"PathFileType\t4\t(X/Y/Z)\t{subject}.trc\n"
                "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\n100\t100\t2\t1\tmm\n"
                f"Frame#\tTime\tA{subject.replace(' ', '')}\n"
                "\t\tX1\tY1\tZ1\n1\t0\t1\t2\t3\n2\t0.01\t4\t5\t6\n")
    folder = tmp_path_factory.mktemp("enc")
    ref, path = folder / f"ref.{kind}", folder / f"saved.{kind}"
    ref.write_bytes(text.encode("utf-8"))
    codec, mark = encoding.split("+")[0], "+mark" in encoding
    path.write_bytes((UNICODE[codec] if mark else b"") + text.replace("\n", eol).encode(codec))
    read = read_sto_table if kind == "mot" else read_trc
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        expected = read(ref)
        try:
            got = read(path)
        except formats.MotionError as e:
            assert codec in ("utf-16-le", "utf-16-be") and not mark, (encoding, e)
            assert str(path) in str(e) and "UTF-16" in str(e) and "save it as UTF-8" in str(e)
            return
    if kind == "mot":
        assert got[0] == expected[0] and np.array_equal(got[1], expected[1])
        assert got[2].get("subject") == expected[2].get("subject")
    else:
        assert list(got.labels) == list(expected.labels)
        assert np.array_equal(got.time, expected.time) and np.array_equal(got.xyz, expected.xyz)
    said_unicode = [w for w in caught if "UTF-16 text" in str(w.message)]
    assert len(said_unicode) == (codec == "utf-16" or mark), [str(w.message) for w in caught]
