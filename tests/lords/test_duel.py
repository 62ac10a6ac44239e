"""``dragonsim.duel`` and ``python -m dragonsim duel``: results, reproducibility, records, the
command line and its one-line errors."""

import json

import numpy as np
import pytest

import dragonsim
from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords import engine as E
from dragonsim.lords.api import duel, prepare
from dragonsim.lords.game import state as S


def test_duel_counts_add_up_and_carry_a_manifest():
    r = duel("Reaper", "Skyblazer", n=600, seed=3, progress=False)
    assert r.n == 600 and r.wins_a + r.wins_b + r.draws == 600
    assert r.rate_a.lo <= r.win_rate_a <= r.rate_a.hi
    assert r.mean_turns > 1 and r.turns_ci[0] <= r.mean_turns <= r.turns_ci[1]
    assert r.damage_a[0] > 0 and r.damage_b[0] > 0
    m = r.manifest
    for k in ("dragonsim", "rules_hash", "policies", "seed", "n", "seconds"):
        assert k in m
    assert m["policies"] == ["hunter-5", "hunter-5"]  # the newest hunter, by version
    f = r.to_frame()
    assert list(f["dragon"]) == ["Reaper", "Skyblazer", "(draw)"]
    assert int(f["wins"].sum()) == 600
    assert "Reaper" in r.summary()


def test_top_level_duel_is_the_api():
    assert dragonsim.duel is duel


def test_same_seed_same_result_for_any_threads_and_chunking():
    """DESIGN.md: 'the same --seed gives identical results for any number of threads and any
    chunking'."""
    import numba

    a = duel("Lectronist", "Kelvinight", n=500, seed=11, threads=1, progress=False)
    b = duel(
        "Lectronist",
        "Kelvinight",
        n=500,
        seed=11,
        threads=numba.config.NUMBA_NUM_THREADS,
        progress=False,
    )
    assert np.array_equal(a.counters, b.counters)
    prep = prepare("Lectronist", "Kelvinight")
    rec = np.zeros((0, S.N_REC), np.int64)
    whole = E.duel_kernel(0, 500, 11, *prep["args"], rec)
    parts = sum(
        E.duel_kernel(s, t, 11, *prep["args"], rec)
        for s, t in ((0, 1), (1, 130), (130, 131), (131, 500))
    )
    assert np.array_equal(whole, parts)
    assert np.array_equal(whole, a.counters)
    c = duel("Lectronist", "Kelvinight", n=500, seed=12, progress=False)
    assert not np.array_equal(a.counters, c.counters)


def test_hunter_beats_random_with_the_same_dragon():
    """A planner beats the random bot with the same dragon well over 50% of the time (the
    bots play the rules differently, so the seats differ), and the report says so."""
    r = duel("Reaper", "Reaper", n=300, seed=2, policies="hunter,random", progress=False)
    assert r.rate_a.lo > 0.75
    assert "Reaper (hunter) wins more often than Reaper (random)" in r.summary()


def test_bots_differ_measurably():
    """brawler engages, sniper never does; hunter and random win at different rates."""
    br = duel("Skyblazer", "Skyblazer", n=200, seed=4, policy="brawler", progress=False)
    sn = duel("Skyblazer", "Skyblazer", n=200, seed=4, policy="sniper", progress=False)
    assert br.engagements_per_game > 0.2
    assert sn.engagements_per_game == 0


def test_records_parquet(tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    path = tmp_path / "games.parquet"
    r = duel("Reaper", "Skyblazer", n=300, seed=5, records=str(path), progress=False)
    df = pd.read_parquet(path)
    assert len(df) == 300 and list(df["game"]) == list(range(300))
    assert (df["winner"] == "Reaper").sum() == (df["winner_side"] == 0).sum() == r.wins_a
    assert (df["winner"] == "Skyblazer").sum() == (df["winner_side"] == 1).sum() == r.wins_b
    assert df["turns"].sum() == r.counters[S.C_TURNS]
    assert df["damage_dealt_a"].sum() == r.counters[S.C_DEALT]


def test_turn_limit_is_reported():
    r = duel("Tankerous", "Tankerous", n=100, seed=1, turn_limit=1, progress=False)
    assert r.turn_limit_hits > 0 and r.draws >= r.turn_limit_hits
    assert "turn limit       1 turns reached in" in r.summary()


def test_inline_designs():
    r = duel("body=Heavy,wings=Large,breath=Ice,claws=Sharp", "Kelvinight", n=50, progress=False)
    assert r.n == 50


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(a="Reapr", b="Skyblazer", n=10), "unknown dragon 'Reapr'.*did you mean 'Reaper'"),
        (dict(a="body=Huge,wings=Large,breath=Ice,claws=Sharp", b="Reaper", n=10), "body"),
        (dict(a="Reaper", b="Skyblazer", n=0), "n must be at least 1"),
        (dict(a="Reaper", b="Skyblazer", n="abc"), "n must be a positive whole number"),
        (dict(a="Reaper", b="Skyblazer", n=10, turn_limit=0), "turn limit"),
        (dict(a="Reaper", b="Skyblazer", n=10, policy="sniperr"), "unknown policy"),
        (dict(a="Reaper", b="Skyblazer", n=10, policies="hunter"), "two bots"),
    ],
)
def test_bad_input_is_a_user_error(kwargs, match):
    a, b = kwargs.pop("a"), kwargs.pop("b")
    with pytest.raises(UserError, match=match):
        duel(a, b, progress=False, **kwargs)


# ---------------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------------


def test_cli_json(capsys):
    rc = main(
        ["duel", "Reaper", "Skyblazer", "-n", "300", "--seed", "7", "--json", "--no-progress"]
    )
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    for k in (
        "a",
        "b",
        "n",
        "seed",
        "wins_a",
        "wins_b",
        "draws",
        "win_rate_a",
        "win_rate_b",
        "draw_rate",
        "ci_a",
        "ci_b",
        "mean_turns",
        "seconds",
    ):
        assert k in d
    assert d["n"] == 300 and d["seed"] == 7
    assert d["wins_a"] + d["wins_b"] + d["draws"] == 300
    r = duel("Reaper", "Skyblazer", n=300, seed=7, progress=False)
    assert (d["wins_a"], d["wins_b"]) == (r.wins_a, r.wins_b)


def test_cli_table_and_policies(capsys):
    rc = main(
        ["duel", "reaper", "SKYBLAZER", "-n", "1e2", "--policies", "hunter,random", "--no-progress"]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "Reaper (hunter) vs Skyblazer (random)" in out and "95% interval" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["duel", "Reapr", "Skyblazer", "-n", "10"],
        ["duel", "body=Heavy,wings=Giant,breath=Ice,claws=Sharp", "Reaper", "-n", "10"],
        ["duel", "Reaper", "Skyblazer", "-n", "0"],
        ["duel", "Reaper", "Skyblazer", "-n", "-5"],
        ["duel", "Reaper", "Skyblazer", "-n", "abc"],
        ["duel", "Reaper", "Skyblazer", "--turn-limit", "0"],
        ["duel", "Reaper", "Skyblazer", "--policy", "bogus"],
        ["duel", "Reaper", "Skyblazer", "--policies", "hunter,bogus"],
        ["duel", "Reaper", "Skyblazer", "-n", "10", "--records", "out.txt"],
    ],
)
def test_cli_bad_input_exits_2_with_one_line(argv, capsys):
    try:
        rc = main(argv)
    except SystemExit as e:  # argparse's own usage errors
        rc = e.code
    err = capsys.readouterr().err
    assert rc == 2
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# free-for-all, team games, scenarios (rulebook p.14)
# ---------------------------------------------------------------------------------------------


def test_free_for_all_last_dragon_in_the_air_wins():
    """'The player with the last dragon in the air wins the game': every game has one winner
    or is a draw, for any number of dragons."""
    from dragonsim.lords.api import battle

    r = battle(["Reaper", "Skyblazer", "Lectronist", "Kelvinight"], n=120, seed=3, progress=False)
    assert len(r.wins) == 4 and sum(r.wins) + r.draws == 120
    assert all(w > 0 for w in r.wins[1:])


def test_team_pairings_by_name():
    """'If you have three players, two should each use a copy of Zippinchill (page 31) and the
    third should use Reaper (page 32).'"""
    from dragonsim.lords.api import battle

    r = battle("basic-3", n=120, seed=3, progress=False)
    assert r.dragons == ["Zippinchill", "Zippinchill", "Reaper"] and r.teams == [0, 0, 1]
    assert sum(r.wins) + r.draws == 120 and len(r.wins) == 2
    with pytest.raises(UserError, match="team pairing"):
        battle("basic-4", n=10, progress=False)


def test_scenario_positions_are_used_and_checked():
    """A caller-given scenario (positions, facings, altitudes, speeds) replaces the edge
    placement; two dragons nose to nose at range 4 fight from turn 1."""
    sc = [(10, 10, 0, 3, 9), (14, 10, 3, 2, 9)]
    near = duel("Reaper", "Skyblazer", n=50, seed=1, progress=False, scenario=sc)
    assert near.manifest["scenario"] == [list(r) for r in sc]
    prep = prepare("Reaper", "Skyblazer", scenario=np.array(sc))
    cnt, log = E.logged_game(0, 1, *prep["args"], 2000)
    setup = log[log[:, S.L_KIND] == S.K_SETUP]
    for i in range(2):
        b = S.L_SNAP + S.N_SNAP * i
        assert list(setup[0, b : b + 4]) == list(sc[i][:4])
        assert setup[i, S.L_A] == 9  # last turn's speed: this turn at most 9 + 3
    first = log[(log[:, S.L_KIND] == S.K_SPEED) & (log[:, S.L_TURN] == 1)]
    assert all(first[:, S.L_A] <= 12)
    for bad, match in (
        ([(10, 10, 0, 3, 9)], "one row"),
        ([(10, 10, 0, 3, 9), (10, 10, 3, 3, 9)], "occupied"),
        ([(10, 10, 0, 3, 9), (90, 10, 3, 3, 9)], "off the 33x24 board"),
        ([(10, 10, 0, 6, 9), (14, 10, 3, 3, 9)], "altitude"),
        ([(10, 10, 7, 3, 9), (14, 10, 3, 3, 9)], "facing"),
        ([(10, 10, 0, 3, 99), (14, 10, 3, 3, 9)], "speed"),
    ):
        with pytest.raises(UserError, match=match):
            duel("Reaper", "Skyblazer", n=10, progress=False, scenario=bad)


def test_ctrl_c_while_starting_is_one_line(monkeypatch, capsys):
    """Brief: "exit code 2 and one clear line for a user mistake, never a traceback"; a Ctrl-C
    before the command line handles signals (importing, parsing) is exit 130 and one line."""
    import runpy

    import dragonsim.cli

    def interrupted(argv=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(dragonsim.cli, "main", interrupted)
    with pytest.raises(SystemExit) as e:
        runpy.run_module("dragonsim", run_name="__main__")
    assert e.value.code == 130
    err = capsys.readouterr().err
    assert err.strip() == "interrupted (SIGINT) while starting: nothing was played"


@pytest.mark.slow
def test_ctrl_c_prints_what_finished():
    """Ctrl-C prints what finished so far (exit 130, the finished games' table)."""
    import signal
    import subprocess
    import sys
    import time

    duel("Reaper", "Skyblazer", n=10, progress=False)  # the kernel is compiled and cached
    cmd = [sys.executable, "-m", "dragonsim", "duel", "Reaper", "Skyblazer", "--no-progress"]
    # how long a start takes on this machine now (a loaded machine starts slower): the signal
    # must come once games are being played
    t0 = time.perf_counter()
    subprocess.run([*cmd, "-n", "10"], capture_output=True, check=True)
    start = time.perf_counter() - t0
    p = subprocess.Popen(
        [*cmd, "-n", "1e9"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    time.sleep(max(8.0, 2 * start + 3))
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130
    assert "INTERRUPTED:" in out and "of 1,000,000,000 games finished" in out
    assert "interrupted:" in err and "of 1,000,000,000 games finished" in err
    assert "Traceback" not in err


def test_rule_overrides_reach_the_kernel():
    """Every assumed or printed value is a kernel argument: raising the base to-hit number
    lowers the kernel's breath hit rate, and the manifest records the override and hash."""
    base = duel("Reaper", "Skyblazer", n=400, seed=9, progress=False)
    hard = duel("Reaper", "Skyblazer", n=400, seed=9, progress=False, rules={"base_to_hit": 10})
    assert hard.breath_hit_rate < base.breath_hit_rate - 0.1
    assert hard.manifest["rules_overrides"] == {"lords.base_to_hit": 10}
    assert hard.manifest["rules_hash"] != base.manifest["rules_hash"]


def test_plot_draws_rates_and_turns():
    import matplotlib

    from dragonsim.report import hist_quantile

    matplotlib.use("Agg")
    r = duel("Reaper", "Skyblazer", n=100, progress=False)
    fig = r.plot()
    a1, a2 = fig.axes[:2]
    # the turns axis ends at the 99.5th percentile of game length (tests/lords/test_plots.py)
    end = hist_quantile(r.turn_histogram(), 0.995)
    assert len(a1.patches) == 3 and len(a2.patches) == end + 1 <= S.HIST_MAX + 1


def test_battle_command_plays_named_pairings_and_team_games(capsys):
    """Scenarios (p.14): "If you have three players, two should each use a copy of
    Zippinchill (page 31) and the third should use Reaper" - a team game by name; without
    --teams every dragon is its own side (free-for-all)."""
    import json as _json

    from dragonsim.cli import main as cli_main

    assert cli_main(["battle", "basic-3", "-n", "300", "--json", "--no-progress"]) == 0
    d = _json.loads(capsys.readouterr().out)
    assert d["dragons"] == ["Zippinchill", "Zippinchill", "Reaper"] and d["teams"] == [0, 0, 1]
    assert sum(d["wins"]) + d["draws"] == d["n"] == 300
    assert (
        cli_main(["battle", "Reaper", "Slash", "Ozonic", "-n", "200", "--json", "--no-progress"])
        == 0
    )
    d = _json.loads(capsys.readouterr().out)
    assert d["teams"] == [0, 1, 2] and len(d["wins"]) == 3
    for argv in (
        ["battle", "Reaper"],
        ["battle", "Reaper", "Slash", "--teams", "0,x"],
        ["battle", "basic-4"],
    ):
        assert cli_main(argv + ["-n", "10"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_dask_backend_gives_the_same_counters_as_local_threads():
    """DESIGN: "Runs past one machine on Dask"; per-game streams make the counters identical
    to a local run whatever the blocks."""
    pytest.importorskip("dask")
    from dragonsim.lords.api import duel as _duel

    local = _duel("Lectronist", "Kelvinight", n=3000, seed=9, progress=False)
    dist = _duel("Lectronist", "Kelvinight", n=3000, seed=9, progress=False, backend="dask")
    assert np.array_equal(local.counters, dist.counters)
    with pytest.raises(UserError, match="unknown backend"):
        _duel("Lectronist", "Kelvinight", n=10, backend="spark")


def test_concurrent_callers_with_different_thread_counts_get_the_serial_counters():
    """The duel kernel shares games out to a kept thread pool per size: callers on several
    Python threads at once (a Dask threaded scheduler), asking for 1 or 2 threads, each get
    exactly the counters of a serial run (per-game streams, one counter row per chunk)."""
    import threading

    ref = duel("Reaper", "Skyblazer", n=2000, seed=5, progress=False, threads=1).counters
    got = {}

    def run(k):
        got[k] = duel(
            "Reaper", "Skyblazer", n=2000, seed=5, progress=False, threads=1 + k % 2
        ).counters

    ts = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(got) == 4 and all(np.array_equal(ref, c) for c in got.values())
