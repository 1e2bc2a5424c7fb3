"""The data file of an OpenSim ExternalLoads file (its <datafile>, read by
formats.read_columns: a .mot/.sto or a CSV), damaged (the rule of issue 16: no input may end
in a traceback or a runaway). test_readers_hypothesis mutates the ExternalLoads XML and
reads its data file whole; here the XML is right and the table it names is damaged: cut
short, a byte changed, a cell made text, NaN, infinite or huge, a row doubled, saved as
UTF-16 or Windows-1252. The reader gives the loads, or refuses naming the data file.
"""
import os
import warnings

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from urdf2dyn.biomech.formats import read_external_loads  # noqa: E402
from test_cli_every_option import LOADS  # noqa: E402
from test_cli_hypothesis import PROFILE, bounded  # noqa: E402

ROWS = [f"{k / 100:g}\t1\t2\t30\t0.1\t0\t0\t0\t0\t0" for k in range(8)]
MOT = ("g\nversion=1\nendheader\ntime\tf_vx\tf_vy\tf_vz\tf_px\tf_py\tf_pz\tf_tx\tf_ty\tf_tz\n"
       + "".join(row + "\n" for row in ROWS))
CSV = ("time,f_vx,f_vy,f_vz,f_px,f_py,f_pz,f_tx,f_ty,f_tz\n"
       + "".join(row.replace("\t", ",") + "\n" for row in ROWS))
TOKENS = ["nan", "inf", "-1e400", "1e308", "abc", "", "\t", ",", "\n", "endheader\n",
          "nRows=-3\n", "\x00", "\ufeff", "f_vx", "time"]


@st.composite
def damaged(draw, text):
    """text with up to three edits, then encoded as a lab's editor may save it."""
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        what = draw(st.sampled_from(["cut", "insert", "delete", "double_row"]))
        if what == "cut":
            text = text[:at]
        elif what == "insert":
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
        elif what == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 12)):]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                k = draw(st.integers(0, len(lines) - 1))
                text = "".join(lines[:k + 1] + lines[k:])
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-16", "cp1252"]))
    return text.encode(encoding, errors="replace")


@settings(PROFILE, max_examples=40)
@given(data=st.data(), ext=st.sampled_from([".mot", ".sto", ".csv"]))
def test_a_damaged_loads_data_file_is_read_or_refused_naming_it(tmp_path_factory, data, ext):
    folder = tmp_path_factory.mktemp("loads")
    raw = data.draw(damaged(CSV if ext == ".csv" else MOT), label="data file")
    datafile = folder / f"g{ext}"
    datafile.write_bytes(raw)
    (folder / "loads.xml").write_text(LOADS.replace("g.mot", datafile.name))
    with bounded(20), warnings.catch_warnings():
        # a damaged table's warnings (a gap, a cell read as NaN) are not the subject here: the
        # loads, or a refusal naming the file, are
        warnings.simplefilter("ignore")
        try:
            loads = read_external_loads(os.fspath(folder / "loads.xml"))
        except ValueError as e:             # ExternalLoadsError, MotionError
            assert datafile.name in str(e) or "loads.xml" in str(e), e
            hypothesis.event("refused")
            return
    hypothesis.event("read")
    assert loads is not None
