"""Files as Windows users have them (issue 21, item 5), for every reader but CSV's (its own
tests): OpenSim .mot/.sto tables and ExternalLoads XML as OpenSim writes them, then saved the
Windows way (CRLF line ends, a UTF-8 byte-order mark, a Windows-1252 header), in folders with
spaces and non-ASCII names, with Windows paths inside the setup file; the URDF loader, HuMoD
.mat files and the command line in such folders. Each variant must read exactly as the file
OpenSim wrote."""
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import urdf2dyn
from urdf2dyn.biomech import formats
from urdf2dyn.biomech.formats.opensim import read_external_loads, read_sto_table
from urdf2dyn.biomech.formats.windows import decode_text, setup_path
from urdf2dyn.warn import Urdf2dynWarning

FOLDER = "Données essai 1/Sujet Zoë"        # spaces and non-ASCII, as in a lab's share
PLATE = ["ground_force_vx", "ground_force_vy", "ground_force_vz",
         "ground_force_px", "ground_force_py", "ground_force_pz"]


@pytest.fixture(scope="module")
def osim():
    return pytest.importorskip("opensim")


def _write_sto(osim, path, time, values, labels, degrees):
    tab = osim.TimeSeriesTable()
    tab.setColumnLabels(labels)
    for ti, row in zip(time, values):
        tab.appendRow(float(ti), osim.RowVector([float(x) for x in row]))
    tab.addTableMetaDataString("inDegrees", "yes" if degrees else "no")
    osim.STOFileAdapter.write(tab, str(path))


@pytest.fixture(scope="module")
def written(osim, tmp_path_factory):
    """robot2r's coordinates (.mot, degrees) and a force plate (.mot), written by OpenSim, and
    an ExternalLoads XML printed by OpenSim, in a folder with spaces and accents."""
    d = tmp_path_factory.mktemp("win") / FOLDER
    d.mkdir(parents=True)
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    t = np.arange(41) / 100.0
    q = np.column_stack([0.4 * np.sin(3 * t), 0.7 * np.cos(2 * t)])
    _write_sto(osim, d / "coords.mot", t, np.degrees(q), list(model.q_names), True)
    plate = np.column_stack([10 * np.sin(t), 600 + t, 5 * t, 0.2 + t, 0 * t, 0.1 * t])
    _write_sto(osim, d / "grf.mot", t, plate, PLATE, False)
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
    data = windows_variants(open(src, "rb").read())[variant]
    path = folder / "bras 7 ddl é.urdf"
    path.write_bytes(data)
    ours, ref = urdf2dyn.load(str(path)), urdf2dyn.load(src)
    q = np.linspace(-1, 1, ref.nq)
    assert ours.q_names == ref.q_names
    assert np.array_equal(ours.inverse_dynamics(q, q, q), ref.inverse_dynamics(q, q, q))


def test_urdf_declared_windows_1252(tmp_path):
    text = open(urdf2dyn.data_path("robot2r.urdf"), encoding="utf-8").read()
    body = text[text.index("<robot"):]
    path = tmp_path / "robot.urdf"
    path.write_bytes(('<?xml version="1.0" encoding="windows-1252"?>\n<!-- Zoë -->\n'
                      + body).encode("cp1252"))
    m = urdf2dyn.load(str(path))
    assert m.nq == 2
    path.write_bytes(("<!-- Zoë -->\n" + body).encode("cp1252"))      # undeclared: refused
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
    urdf.write_bytes(open(urdf2dyn.data_path("robot2r.urdf"), "rb").read())
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
def test_decode_text_any_bytes(data):
    try:
        text = decode_text(data, "f.mot")
    except ValueError as e:
        assert "f.mot" in str(e) and "UTF-8" in str(e)
    else:
        assert isinstance(text, str)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(max_size=60))
def test_setup_path_any_text(text):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = setup_path(text, "/tmp/setup.xml", "datafile")
    assert isinstance(out, str)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.binary(max_size=300), st.sampled_from([b"", b"\xef\xbb\xbf"]),
       st.sampled_from([b"\n", b"\r\n"]))
def test_sto_reader_any_header(tmp_path_factory, junk, bom, eol):
    path = tmp_path_factory.mktemp("sto") / "x.sto"
    path.write_bytes(bom + junk + eol + b"endheader" + eol + b"time\ta" + eol + b"0\t1" + eol)
    try:
        labels, table, _, _ = read_sto_table(path)
    except (formats.MotionError, ValueError) as e:
        assert str(path) in str(e)
    else:
        assert labels[-1] == "a" and table.shape[1] == len(labels)
