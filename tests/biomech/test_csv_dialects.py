"""CSV files as labs write them (issue 16): written by pandas, by Python's csv module with
Excel's dialects and by hand in the encodings Excel saves, read by the one reader
(urdf2dyn.biomech.formats.read_table) to the same numbers, or refused naming the delimiter seen
and the option to set."""
import csv

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn.biomech import formats
from urdf2dyn.biomech.formats.csv import read_table
from urdf2dyn.biomech.pipeline import inverse_dynamics_trial
from urdf2dyn.biomech.trajectory import MotionError

HEADER = ["time", "hip", "knee"]
DATA = np.array([[0.0, 0.5, -1.25], [0.01, 3e-5, 2.0], [0.02, -0.75, 1e3]])


@pytest.fixture(scope="module")
def pd():
    return pytest.importorskip("pandas")


def _frame(pd):
    return pd.DataFrame(DATA, columns=HEADER)


@pytest.mark.parametrize("sep,decimal", [(",", "."), (";", ","), (";", "."), ("\t", ","),
                                         ("\t", ".")])
def test_pandas_to_csv_dialects(pd, tmp_path, sep, decimal):
    path = tmp_path / "t.csv"
    _frame(pd).to_csv(path, sep=sep, decimal=decimal, index=False)
    header, data = read_table(path)
    assert header == HEADER
    np.testing.assert_array_equal(data, DATA)


@pytest.mark.parametrize("dialect", ["excel", "excel-tab"])
def test_csv_module_excel_dialects(tmp_path, dialect):
    path = tmp_path / "t.csv"
    with open(path, "w", newline="", encoding="utf-8-sig") as f:      # BOM + CRLF, as Excel
        w = csv.writer(f, dialect=dialect, quoting=csv.QUOTE_NONNUMERIC)
        w.writerow(HEADER)                                            # quoted header cells
        w.writerows(DATA.tolist())
    assert path.read_bytes().startswith(b"\xef\xbb\xbf\"time\"")
    assert b"\r\n" in path.read_bytes()
    header, data = read_table(path)
    assert header == HEADER
    np.testing.assert_array_equal(data, DATA)


def test_european_excel_with_trailing_delimiters_and_cp1252_header(tmp_path):
    path = tmp_path / "t.csv"
    text = "Zeit;Hüfte °;Knie;\r\n0;0,5;-1,25;\r\n0,01;3E-05;2;\r\n0,02;-0,75;1000;\r\n"
    path.write_bytes(text.encode("cp1252"))
    header, data = read_table(path)
    assert header == ["Zeit", "Hüfte °", "Knie"]
    np.testing.assert_array_equal(data, DATA)


def test_utf16_unicode_text(tmp_path):
    # Excel's "Unicode Text": UTF-16 with a BOM, tab-separated
    path = tmp_path / "t.csv"
    rows = ["\t".join(HEADER)] + ["\t".join(repr(x) for x in row) for row in DATA.tolist()]
    path.write_bytes("\r\n".join(rows).encode("utf-16"))
    header, data = read_table(path)
    assert header == HEADER
    np.testing.assert_array_equal(data, DATA)


def test_whitespace_columns(tmp_path):
    path = tmp_path / "t.csv"
    rows = "\n".join("  ".join(repr(x) for x in r) for r in DATA.tolist()) + "\n"
    path.write_text("time  hip   knee\n" + rows)
    np.testing.assert_array_equal(read_table(path)[1], DATA)
    # a tab in the header makes the file tab-separated (names may hold spaces): said so
    path.write_text("time  hip\tknee\n" + rows)
    with pytest.raises(MotionError, match=r"line 2 has 1 values .*separated by tabs, as the "
                                          r"header line; set delimiter=\"SEP\" if not"):
        read_table(path)
    assert read_table(path, delimiter="whitespace")[0] == HEADER


def test_ambiguous_header_names_the_delimiters_and_the_option(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("time;hip,knee\n0;1,5\n")
    with pytest.raises(MotionError, match=r"commas \(','\) and semicolons .*say which, e\.g\. "
                                          r"delimiter=\"semicolon\""):
        read_table(path)
    header, data = read_table(path, delimiter=";", decimal=",")
    assert header == ["time", "hip,knee"] and data.tolist() == [[0.0, 1.5]]


def test_decimal_commas_in_a_comma_file_are_refused_with_the_reason(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("time,hip\n0,0,5\n")
    with pytest.raises(MotionError, match=r"line 2 has 3 values for 2 header columns .*decimal "
                                          r"commas.*set delimiter=\"SEP\" and "
                                          r"decimal=\",\""):
        read_table(path)
    with pytest.raises(ValueError, match="ambiguous"):
        read_table(path, decimal=",")


def test_mixed_decimal_separators_refused(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("time;hip\n0;0,5\n0,01;1.5\n")
    with pytest.raises(MotionError, match=r"line 3, column 'hip': '1.5' has a decimal point.*"
                                          r"set the one the file uses \(decimal=\"\.\" or "
                                          r"decimal=\",\"\)"):
        read_table(path)


@pytest.mark.parametrize("raw,match", [
    (b"\x81\x8d\x8f\x90", "not text in UTF-8, Windows-1252 or UTF-16.*save it as CSV"),
    (b"time,hip\n\x00\x01,2\n", "NUL bytes"),
    (b"", "empty file"),
    (b"\n\n", "empty file"),
])
def test_undecodable_and_empty_files(tmp_path, raw, match):
    path = tmp_path / "t.csv"
    path.write_bytes(raw)
    with pytest.raises(MotionError, match=match):
        read_table(path)


def test_header_only_gives_no_rows_and_no_foreign_warning(tmp_path, recwarn):
    path = tmp_path / "t.csv"
    path.write_text("time,hip\n")
    header, data = read_table(path)
    assert header == ["time", "hip"] and data.shape == (0, 2)
    assert not recwarn.list            # NumPy's "input contained no data" is not raised


def test_bad_keywords_refused():
    with pytest.raises(ValueError, match="delimiter: expected"):
        read_table("x.csv", delimiter="|")
    with pytest.raises(ValueError, match="decimal: expected"):
        read_table("x.csv", decimal=";")


@pytest.mark.parametrize("sep,decimal,encoding", [(";", ".", "utf-8"), (";", ",", "cp1252"),
                                                  ("\t", ",", "utf-8-sig"), (",", ".", "utf-8")])
def test_large_files_detected_from_their_head_read_by_pandas(pd, tmp_path, monkeypatch, sep,
                                                             decimal, encoding):
    from urdf2dyn.biomech.formats import csv as mod, windows
    monkeypatch.setattr(mod, "FAST_CSV_BYTES", 10)         # "large": pandas' C parser
    monkeypatch.setattr(windows, "HEAD_BYTES", 40)         # detection from the first lines
    calls = []
    fast = mod._read_fast
    monkeypatch.setattr(mod, "_read_fast", lambda *a: calls.append(a) or fast(*a))
    path = tmp_path / "t.csv"
    frame = _frame(pd).rename(columns={"hip": "Hüfte"})
    frame.to_csv(path, sep=sep, decimal=decimal, index=False, encoding=encoding)
    header, data = read_table(path)
    assert header == ["time", "Hüfte", "knee"] and calls
    np.testing.assert_array_equal(data, DATA)


def test_large_file_with_decimal_commas_after_its_head(tmp_path, monkeypatch):
    from urdf2dyn.biomech.formats import csv as mod, windows
    monkeypatch.setattr(mod, "FAST_CSV_BYTES", 10)
    monkeypatch.setattr(windows, "HEAD_BYTES", 40)
    path = tmp_path / "t.csv"
    path.write_text("time;hip\n0;1\n0.01;2\n0.02;3\n0.03;4\n0.04;5\n0.05;6,5\n")
    with pytest.raises(MotionError, match=r"line 7, column 'hip': '6,5' is not a number \(a "
                                          r"decimal comma, but the decimal separator is '\.' "
                                          r".*set the one the file uses \(decimal="):
        read_table(path)


def test_keywords_through_read_csv_and_the_trial(pd, tmp_path):
    model = urdf2dyn.load(urdf2dyn.data_path("robot2r.urdf"))
    # gravity across the arm's joint axes, for the joints to carry weight: robot2r's own
    # (along them) draws the trial's 'no joint carries any weight' warning
    model.gravity = (0, -9.81, 0)
    t = np.linspace(0, 1, 50)
    q = np.column_stack([np.sin(t), np.cos(t)])
    frame = pd.DataFrame(np.column_stack([t, q]), columns=["time", *model.q_names])
    path = tmp_path / "m.csv"
    frame.to_csv(path, sep=";", decimal=",", index=False)
    traj = formats.read_csv(path, model=model, delimiter="semicolon", decimal=",")
    np.testing.assert_allclose(traj.q, q, rtol=1e-15)
    ref = tmp_path / "ref.csv"
    frame.to_csv(ref, index=False)
    a = inverse_dynamics_trial(model, path, delimiter=";", decimal=",")
    b = inverse_dynamics_trial(model, ref)
    np.testing.assert_allclose(a.tau, b.tau, rtol=1e-12, atol=1e-12)
