"""Gait cycles (``--cycles``, urdf2dyn.biomech.gait.gait_cycles; issue 27 item 7): cut from the
feet's vertical loads or from a C3D's events.

Oracles: the foot strikes found by hand in the ground-reaction file (the first sample above
20 N, interpolated to the crossing), and the events as ezc3d reads the C3D's EVENT group
(Vicon Nexus' 'Foot Strike' per context; Qualisys' LHS / RHS labels)."""
import os
import re
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

import urdf2dyn
from urdf2dyn import cli
from urdf2dyn.biomech import formats, gait
from urdf2dyn.bundled import data_path

C3D = os.path.join(os.path.dirname(__file__), os.pardir, "data", "c3d")


def _by_hand(t, fy, threshold=20.0):
    """Times where fy rises through threshold, linearly interpolated (by hand, a loop)."""
    out = []
    for k in range(len(t) - 1):
        if fy[k] <= threshold < fy[k + 1]:
            out.append(t[k] + (threshold - fy[k]) / (fy[k + 1] - fy[k]) * (t[k + 1] - t[k]))
    return out


def test_cycles_from_the_feet_loads(tmp_path, capsys):
    """The bundled running trial with its ground reactions: every complete cycle of each foot,
    from the vertical force crossing 20 N, printed and written per cycle (0-100 %)."""
    motion, grf = data_path("running_a_3ms.csv"), data_path("running_a_3ms_grf.csv")
    model = urdf2dyn.humod_subject("A")
    res = urdf2dyn.inverse_dynamics_trial(model, motion, grf, checks_enabled=False)
    header, data = formats.read_table(grf)
    t = data[:, 0]
    want = []
    for side in "LR":
        s = _by_hand(t, data[:, header.index(f"grfY_{side}")])        # y is up
        want += [(side, a, b) for a, b in zip(s[:-1], s[1:])]
    cycles = gait.gait_cycles(res, model, "plates")
    assert len(cycles) == len(want) == 8
    got = sorted((c.side, c.start, c.end) for c in cycles)
    assert [g[0] for g in got] == [w[0] for w in sorted(want)]
    np.testing.assert_allclose([g[1:] for g in got], [w[1:] for w in sorted(want)], atol=1e-12)
    out = tmp_path / "tau.csv"
    assert cli.main(["torques", "humod_subject_a.urdf", motion, "--grf", grf, "--cycles",
                     "plates", "-o", str(out), "--per-kg"]) == 0
    text = capsys.readouterr().out
    first = min(cycles, key=lambda c: c.start)
    assert f"gait cycles (plates): {first.side} {first.start:.3f}-{first.end:.3f} s" in text
    header, table = formats.read_table(str(tmp_path / "tau_cycles.csv"))
    assert header[0] == "percent" and len(table) == 101 and table[-1, 0] == 100
    k = model.v_names.index("rKJZ_L")
    mine = cycles[0]                            # the first cycle's columns: <side>1_<dof>
    col = header.index(f"{mine.side}1_rKJZ_L")
    at = mine.start + (mine.end - mine.start) * table[:, 0] / 100
    np.testing.assert_allclose(table[:, col], np.interp(at, res.t, res.tau[:, k]) /
                               model.total_mass, rtol=1e-12, atol=1e-12)


def test_strikes_from_c3d_events_as_ezc3d_reads_them():
    """Vicon Nexus' 'Foot Strike' events with Left/Right contexts and Qualisys' LHS/RHS labels;
    Qualisys' trial holds one complete cycle of each foot."""
    ezc3d = pytest.importorskip("ezc3d")
    from urdf2dyn.biomech.formats import read_c3d
    # what the reader says of each file: Nexus lists five unlabelled markers it never saw
    said = {"ViconNexus_PiG_Motion3_FF.c3d": r"markers \['\*3', '\*4', '\*6', '\*10', "
                                             r"'\*9'\] are missing in every frame$",
            "Qualisys.c3d": None}
    for name in ("ViconNexus_PiG_Motion3_FF.c3d", "Qualisys.c3d"):
        path = os.path.join(C3D, name)
        ev = ezc3d.c3d(path)["parameters"]["EVENT"]
        labels = [x.strip() for x in ev["LABELS"]["value"]]
        contexts = [x.strip() for x in ev["CONTEXTS"]["value"]] if "CONTEXTS" in ev else \
            [""] * len(labels)
        times = np.asarray(ev["TIMES"]["value"], float)
        seconds = times[0] * 60 + times[1]
        want = {side: sorted(float(s) for lab, ctx, s in zip(labels, contexts, seconds)
                             if (lab == "Foot Strike" and ctx.startswith(word))
                             or lab == f"{side}HS")
                for side, word in (("L", "Left"), ("R", "Right"))}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rec = read_c3d(path)
        messages = [str(w.message) for w in caught]
        assert len(messages) == (said[name] is not None), messages
        assert said[name] is None or re.search(said[name], messages[0]), messages
        got = gait.event_strikes(rec.events)
        for side in "LR":
            assert len(want[side]) >= 2
            np.testing.assert_allclose(got[side], want[side], atol=1e-6)
        res = SimpleNamespace(path=path, t=rec.markers.time, events=rec.events)
        cycles = gait.gait_cycles(res, None, "events")
        if name == "Qualisys.c3d":          # 3.52-5.215 s: LHS 3.59, 4.535; RHS 4.05, 5.03
            assert [(c.side, round(c.start, 3), round(c.end, 3)) for c in cycles] == [
                ("L", 3.59, 4.535), ("R", 4.05, 5.03)]
        else:                               # the file's 0.8 s hold no complete cycle
            assert cycles == []


def test_cycles_need_their_source():
    res = SimpleNamespace(path="trial.csv", t=np.linspace(0, 1, 11), events=[], f_ext=None,
                          reactions=None)
    with pytest.raises(ValueError, match="no events to cut gait cycles from") as events:
        gait.gait_cycles(res, None, "events")
    with pytest.raises(ValueError, match="no ground reactions to find foot strikes in") as loads:
        gait.gait_cycles(res, None, "plates")
    # a library caller is advised gait_cycles' own argument and the trial's keyword, no flag
    assert 'instead (by="plates")' in str(events.value) and "--" not in str(events.value)
    assert "plates, grf=FILE)" in str(loads.value) and '(by="events")' in str(loads.value)
    assert "--" not in str(loads.value)
    with pytest.raises(ValueError, match="cycles: expected one of"):
        gait.gait_cycles(res, None, "steps")


def test_the_command_line_is_advised_its_own_cycles_flags(tmp_path, monkeypatch, capsys):
    """torques --cycles plates on a trial without loads names --grf and --cycles (its
    parser's flags), not the library's grf= and by=."""
    monkeypatch.chdir(tmp_path)
    cli.main(["torques", "robot2r.urdf", data_path("robot2r_trajectory.csv"), "--cycles",
              "plates", "-o", "t.csv"])
    out = " ".join(capsys.readouterr().out.split())
    assert "no ground reactions to find foot strikes in" in out
    assert "(a C3D's plates, --grf FILE)" in out and "(--cycles events)" in out
    assert "grf=" not in out and "by=" not in out
