"""Per-game records: ``--records FILE.parquet`` / ``.csv`` on every Monte Carlo
command; the winning *side*, the run's manifest in the file, columns named for what they hold,
and records that survive a kill and a resume from a checkpoint."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.lords.api import DUEL_COLUMNS, battle, duel
from dragonsim.lords.game import state as S
from dragonsim.records import read_meta

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")


def _frame(path):
    return pd.read_csv(path) if str(path).endswith(".csv") else pd.read_parquet(path)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_mirror_duel_records_the_winning_side_and_its_manifest(tmp_path, suffix):
    path = tmp_path / f"games{suffix}"
    r = duel("Reaper", "Reaper", n=400, seed=3, records=str(path), progress=False)
    df = _frame(path)
    assert list(df.columns) == list(DUEL_COLUMNS)
    assert list(df["game"]) == list(range(400))
    # both sides are "Reaper": only winner_side tells them apart, and it matches the counters
    assert set(df["winner"]) <= {"Reaper", "draw"}
    assert (df["winner_side"] == 0).sum() == r.wins_a and (df["winner_side"] == 1).sum() == r.wins_b
    assert (df["winner_side"] == -1).sum() == r.draws
    assert df["turns"].sum() == r.counters[S.C_TURNS]
    assert df["damage_dealt_a"].sum() == r.counters[S.C_DEALT]
    assert df["hit_turn_limit"].sum() == r.turn_limit_hits
    meta = read_meta(path)
    man = meta["manifest"]
    assert man["command"] == "duel" and man["seed"] == 3 and man["dragonsim"]
    assert man["a"]["name"] == man["b"]["name"] == "Reaper"
    assert man["policies"] == r.manifest["policies"]
    assert man["rules_hash"] == r.manifest["rules_hash"] and man["rules_overrides"] == {}
    assert set(meta["columns"]) == set(DUEL_COLUMNS) and meta["result"]["games"] == 400


def test_records_carry_the_rules_overrides(tmp_path):
    path = tmp_path / "g.parquet"
    over = {"lords.altitude_mod": [0, 1, 1, 2, 2]}
    r = duel("Reaper", "Skyblazer", n=100, records=str(path), rules=over, progress=False)
    man = read_meta(path)["manifest"]
    assert man["rules_overrides"] == over and man["rules_hash"] == r.manifest["rules_hash"]


def test_battle_records_name_the_winning_side(tmp_path):
    path = tmp_path / "b.parquet"
    r = battle("basic-3", n=300, records=str(path), progress=False)
    df = _frame(path)
    assert len(df) == 300 and "damage_dealt_a" not in df  # per side, not per dragon
    counts = df["winner_side"].value_counts()
    assert [counts.get(k, 0) for k in range(2)] == r.wins and counts.get(-1, 0) == r.draws
    assert set(df.loc[df["winner_side"] == 0, "winner"]) == {"Zippinchill + Zippinchill"}
    assert read_meta(path)["manifest"]["teams"] == [0, 0, 1]


def test_tournament_and_sensitivity_records(tmp_path, capsys):
    t = tmp_path / "t.parquet"
    assert main(["tournament", "Reaper", "Slash", "Ozonic", "-n", "200", "--records", str(t)]) == 0
    capsys.readouterr()
    df = _frame(t)
    assert len(df) == 3 * 200 and set(df.groupby(["a", "b"]).size()) == {100}
    assert read_meta(t)["result"]["pairs_finished"] == 3
    s = tmp_path / "s.csv"
    argv = ["sensitivity", "Reaper", "Skyblazer", "--rule", "altitude_mod"]
    argv += ["--values", "[0,1,1,2,2]", "-n", "300", "--records", str(s), "--json"]
    assert main(argv) == 0
    row = json.loads(capsys.readouterr().out)["rows"][0]
    df = _frame(s)
    alt = df[~df["is_base"]]
    assert len(df) == 600 and (alt["winner_side"] == 0).mean() == pytest.approx(row["win_rate_a"])


def test_records_refuse_a_file_they_cannot_write(tmp_path):
    from dragonsim.errors import UserError

    with pytest.raises(UserError, match="must end in .parquet or .csv"):
        duel("Reaper", "Slash", n=10, records=str(tmp_path / "x.txt"))
    with pytest.raises(UserError, match="no folder"):
        duel("Reaper", "Slash", n=10, records=str(tmp_path / "no" / "x.csv"))


@pytest.mark.slow
def test_records_and_a_checkpoint_resume_to_the_rows_of_an_uninterrupted_run(tmp_path):
    """kill -9 mid-run, then the same command: the records hold every game once, equal to an
    uninterrupted run's rows (a stale block written after the last checkpoint is dropped)."""
    ck, rec = tmp_path / "run.ck", tmp_path / "games.parquet"
    argv = ["duel", "Reaper", "Skyblazer", "-n", "40000", "--no-progress"]
    cmd = [sys.executable, "-m", "dragonsim", *argv, "--checkpoint", str(ck)]
    cmd += ["--records", str(rec)]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t0 = time.monotonic()
        while not ck.exists() and p.poll() is None and time.monotonic() - t0 < 180:
            time.sleep(0.05)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=60)
    finally:
        p.kill()
    saved = sum(s["done"] for s in json.loads(ck.read_text())["sections"].values())
    assert 0 < saved < 40000, "the kill should land mid-run"
    parts = sorted((tmp_path / "run.ck.records" / "run").glob("*.npz"))
    assert parts, "the finished blocks' rows are kept beside the checkpoint"
    # a block whose rows were written but which the checkpoint never saved
    np.savez(parts[-1].with_name(f"{saved:012d}-{saved + 7:012d}.npz"), game=np.arange(7))
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    clean = tmp_path / "clean.parquet"
    assert main([*argv, "--records", str(clean)]) == 0
    got, want = _frame(rec), _frame(clean)
    pd.testing.assert_frame_equal(got, want)
    assert read_meta(rec)["result"] == {"rows": 40000, "games": 40000, "interrupted": False}


def test_a_checkpoint_without_records_is_not_resumed_with_them(tmp_path, capsys):
    from dragonsim import runner

    ck = tmp_path / "c.ck"
    argv = ["duel", "Reaper", "Slash", "-n", "20000", "--no-progress", "--checkpoint", str(ck)]

    def stop(done):
        raise KeyboardInterrupt

    runner._after_block = stop
    try:
        assert main(argv) == 130
    finally:
        runner._after_block = None
    capsys.readouterr()
    assert main([*argv, "--records", str(tmp_path / "r.csv")]) == 2
    assert "records were not kept" in capsys.readouterr().err


A = ["--alliance", "foot=3,missile=2", "--army", "foot=4"]
#: every Monte Carlo command, with the number of rows its records hold for its -n
EVERY = [
    (["duel", "Reaper", "Slash", "-n", "300"], 300),
    (["battle", "Reaper", "Slash", "Ozonic", "-n", "200"], 200),
    (["tournament", "Reaper", "Slash", "Ozonic", "-n", "100"], 300),
    (
        ["sensitivity", "Reaper", "Slash", "--rule", "altitude_mod"]
        + ["--values", "[0,1,1,2,2]", "-n", "200"],
        400,
    ),
    (
        ["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-horde", "--turns", "3"]
        + ["-n", "2000"],
        2000,
    ),
    (
        ["dice", "table", "--army", "goblin-horde", "--dragons", "red-wyrm,red-drake", "-n", "500"],
        1000,
    ),
    (["dice", "duel", "--dragons", "red-wyrm,blue-drake:2", "--turns", "5", "-n", "2000"], 2000),
    (["dice", "sweep", "--army", "goblin-thug:1", "--dragons", "red-wyrm", "-n", "300"], None),
    (
        ["dice", "melee", "--attacker", "goblin-horde", "--defender", "dwarf-guard", "-n", "2000"],
        2000,
    ),
    (["krynn", "battle", *A, "--heroes", "1", "-n", "2000"], 2000),
    (["krynn", "sweep", *A, "--vary", "heroes", "--values", "0,1", "-n", "1000"], 2000),
    (["krynn", "battlefield", "--tiles", "2", *A, "-n", "1000"], 1000),
    (["krynn", "conflict", "--difficulty", "3", "-n", "2000"], 2000),
]


@pytest.mark.parametrize("argv, rows", EVERY, ids=[" ".join(a[:2]) for a, _ in EVERY])
def test_every_monte_carlo_command_writes_records_and_the_same_result(argv, rows, tmp_path, capsys):
    """With --records a command prints exactly the result it prints without (the records of
    Dice and Krynn come from playing each game alone, whose counters add to the same
    totals), and the file holds one row per game, a manifest and every column's meaning."""
    from dragonsim.cli.tools import differences

    extra = [] if argv[0] in ("tournament", "sensitivity") else ["--no-progress"]
    assert main([*argv, *extra, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    path = tmp_path / "rec.parquet"
    assert main([*argv, *extra, "--json", "--records", str(path)]) == 0
    recorded = json.loads(capsys.readouterr().out)
    for d in (plain, recorded):
        d.pop("records", None)
    assert differences(plain, recorded) == []
    df = _frame(path)
    meta = read_meta(path)
    assert rows is None or len(df) == rows
    assert list(df.columns) == list(meta["columns"]) and all(meta["columns"].values())
    assert meta["manifest"]["command"].endswith(
        argv[1] if argv[0] in ("dice", "krynn") else argv[0]
    )
    assert "rules_hash" in meta["manifest"] and "rules_overrides" in meta["manifest"]
    assert meta["manifest"]["seed"] == 1
    if "winner_side" in df:
        assert set(df["winner_side"]) <= {-1, 0, 1, 2}
