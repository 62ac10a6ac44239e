"""Replays (:mod:`dragonsim.lords.views.replay`): game ``i`` of a run, played again alone from its
own streams, is exactly row ``i`` of the run's records, and its events follow the rules."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from dragonsim.cli import main
from dragonsim.lords import api
from dragonsim.lords.views.replay import replay


@pytest.mark.parametrize(
    "a, b, policies, seed",
    [
        ("Reaper", "Skyblazer", ("hunter", "hunter"), 5),
        ("Tankerous", "Zippinchill", ("random", "hunter@2"), 8),
        ("Skyblazer", "Skyblazer", ("search", "hunter"), 3),
    ],
)
def test_every_replay_is_its_row_of_the_records(tmp_path, a, b, policies, seed):
    """Every game of a run: the replay's winner side, turns, turn-limit flag and damage dealt
    are exactly the run's record row (the run's kernel and the replay's one-game kernel play
    the same game loop from the same per-game streams)."""
    n = 24 if "search" not in policies else 8
    path = tmp_path / "games.parquet"
    api.duel(a, b, n=n, seed=seed, policies=list(policies), records=str(path), progress=False)
    rec = pd.read_parquet(path)
    assert len(rec) == n
    for row in rec.itertuples():
        r = replay(a, b, seed=seed, game=int(row.game), policies=list(policies))
        assert r.winner == row.winner_side, row.game
        assert r.turns == row.turns, row.game
        assert r.hit_turn_limit == bool(row.hit_turn_limit), row.game
        assert r.damage_dealt == [row.damage_dealt_a, row.damage_dealt_b], row.game


def test_events_add_up_and_follow_the_to_hit_rule():
    """Over the events of several games: "Roll 2d6. If the result is equal to or higher than
    your final modified target number, you hit ... A roll of 2 always misses, and a roll of 12
    always hits" (p.10); the damage each dragon dealt is the points its breath hits and
    close-combat wins took off; every turn opens with the initiative order of the dragons in
    play, and the game ends once."""
    for game in range(6):
        r = replay("Reaper", "Slash", seed=2, game=game)
        ev = r.events
        dealt = dict.fromkeys(r.names, 0)
        for e in ev:
            if e["event"] == "breath" and e["target_number"] >= 0:
                roll, tn = e["hit_roll"], e["target_number"]
                assert e["hit"] == (roll != 2 and (roll == 12 or roll >= tn)), e
                dealt[e["dragon"]] += e["points_lost"]
            if e["event"] == "close combat" and e["winner"] is not None:
                dealt[e["winner"]] += e["loser_points_lost"]
        assert [dealt[n] for n in r.names] == r.damage_dealt
        assert sum(e["event"] == "game over" for e in ev) == 1 and ev[-1]["event"] == "game over"
        turns = sorted({e["turn"] for e in ev if e["turn"] > 0})
        assert turns == list(range(1, r.turns + 1))
        for t in turns:
            first = next(e for e in ev if e["turn"] == t)
            assert first["event"] == "initiative" and first["place"] == 0


def test_replay_is_deterministic_and_mirror_sides_have_names():
    """The same game twice gives the same events; a mirror match names its sides A and B."""
    a = replay("Reaper", "Reaper", seed=9, game=4)
    b = replay("Reaper", "Reaper", seed=9, game=4)
    assert a.events == b.events
    assert a.names == ["A:Reaper", "B:Reaper"]


def test_cli_replay_prints_the_game_and_writes_json_lines(tmp_path, capsys):
    out = tmp_path / "game.jsonl"
    code = main(
        ["replay", "Reaper", "Skyblazer", "--seed", "5", "--game", "3", "--jsonl", str(out)]
    )
    assert code == 0
    text = capsys.readouterr().out
    r = replay("Reaper", "Skyblazer", seed=5, game=3)
    assert text.strip() == r.text()
    assert "breathes at" in text and "turn 1" in text
    lines = out.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["turns"] == r.turns and head["winner_side"] == r.winner
    assert [json.loads(x) for x in lines[1:]] == json.loads(json.dumps(r.events))


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["replay", "Reaper", "Skyblazer", "--game", "-1"], "game must be 0.."),
        (["replay", "Reaper", "Nobody"], "Nobody"),
        (["replay", "Reaper", "Skyblazer", "--policy", "hunterr"], "unknown policy"),
    ],
)
def test_cli_replay_refuses_bad_input_in_one_line(argv, msg, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0], err


def test_show_draws_every_move_of_both_dragons(tmp_path, capsys):
    """`show` writes a PNG; the picture has one dot per move end plus the start for each
    dragon, a red line per breath hit, and a cross where the loser fell."""
    import matplotlib

    matplotlib.use("Agg")
    from dragonsim.lords.views.picture import draw

    r = replay("Reaper", "Skyblazer", seed=5, game=3)
    fig = draw(r)
    ax = fig.axes[0]
    hits = sum(1 for e in r.events if e["event"] == "breath" and e["hit"])
    red = [ln for ln in ax.lines if ln.get_color() == "tab:red"]
    assert len(red) == hits
    dots = [ln for ln in ax.lines if ln.get_marker() in ("o", "s")]
    moves = sum(1 for e in r.events if e["event"] in ("placed", "move"))
    assert len(dots) == moves
    assert any(ln.get_marker() == "X" for ln in ax.lines)
    out = tmp_path / "game.png"
    assert (
        main(["show", "Reaper", "Skyblazer", "--seed", "5", "--game", "3", "--out", str(out)]) == 0
    )
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the replayed game's own outcome (a fixed "9 turns" was hunter-3's game, before hunter-4)
    assert f"{r.winner_name} wins in {r.turns} turns" in capsys.readouterr().out
    assert main(["show", "Reaper", "Skyblazer", "--out", str(tmp_path / "g.jpg")]) == 2


def test_found_games_replay_to_what_they_were_found_for():
    """The games behind a number: the shortest game found in a run
    replays in that many turns, a game found by a condition replays to a result meeting it,
    and an upset is won by the run's underdog."""
    from dragonsim.lords.views.replay import find_games

    df = find_games(
        "Reaper",
        "Skyblazer",
        n=300,
        seed=5,
        shortest=1,
        upsets=True,
        limit=2,
        where="winner_side == 1 and damage_dealt_a > 60",
    )
    assert set(df["why"]) == {"shortest", "upset", "where winner_side == 1 and damage_dealt_a > 60"}
    for row in df.itertuples():
        r = replay("Reaper", "Skyblazer", seed=5, game=int(row.game))
        assert r.turns == row.turns and r.winner == row.winner_side
        if row.why.startswith("where"):
            assert r.winner == 1 and r.damage_dealt[0] > 60
    short = df[df["why"] == "shortest"]["turns"].iloc[0]
    run = api.duel("Reaper", "Skyblazer", n=300, seed=5, progress=False)
    assert short == min(t for t, k in enumerate(run.turn_histogram()) if k > 0)
    under = 0 if run.wins_a < run.wins_b else 1
    assert (df[df["why"] == "upset"]["winner_side"] == under).all()


@pytest.mark.parametrize(
    "dragons, teams",
    [
        (["Lectronist", "Reaper", "Skyblazer"], None),
        (["Lectronist", "Reaper", "Zippinchill"], [0, 1, 0]),
    ],
    ids=["free-for-all", "teams"],
)
def test_found_battle_games_replay_to_what_they_were_found_for(dragons, teams, capsys, tmp_path):
    """The games behind a battle's number (p.14: free-for-all and team games): the shortest
    and longest found are the run's extremes and replay in that many turns, an upset is won
    by the side with the fewest wins, a condition's games meet it; on the command line with
    --teams, and bad team numbers are one line, exit 2."""
    from dragonsim.lords.views.replay import find_battle_games, replay_battle

    df = find_battle_games(
        dragons,
        teams=teams,
        n=60,
        seed=4,
        shortest=1,
        longest=1,
        upsets=True,
        limit=2,
        where="turns >= 8",
    )
    assert set(df["why"]) == {"shortest", "longest", "upset", "where turns >= 8"}
    for row in df.itertuples():
        r = replay_battle(dragons, teams=teams, seed=4, game=int(row.game))
        assert (r.winner, r.turns) == (row.winner_side, row.turns)
    path = tmp_path / "games.csv"
    run = api.battle(dragons, teams=teams, n=60, seed=4, records=str(path), progress=False)
    rec = pd.read_csv(path)
    assert df[df["why"] == "shortest"]["turns"].iloc[0] == rec["turns"].min()
    assert df[df["why"] == "longest"]["turns"].iloc[0] == rec["turns"].max()
    assert (df[df["why"].str.startswith("where")]["turns"] >= 8).all()
    under = min(range(len(run.wins)), key=lambda t: (run.wins[t], -t))
    assert (df[df["why"] == "upset"]["winner_side"] == under).all()
    argv = ["find", *dragons, "-n", "60", "--seed", "4", "--shortest", "1"]
    if teams:
        argv += ["--teams", ",".join(map(str, teams))]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "shortest" in out and f"replay {' '.join(dragons)}" in out
    assert ("--teams 0,1,0" in out) == bool(teams)
    assert main([*argv[:-2], "--teams", "0,x,1"]) == 2
    assert "--teams must be team numbers" in capsys.readouterr().err


def test_find_refuses_bad_conditions_in_one_line(capsys):
    assert main(["find", "Reaper", "Skyblazer", "-n", "50", "--where", "nosuch > 1"]) == 2
    err = capsys.readouterr().err
    assert "not a condition on the records" in err and "damage_dealt_a" in err
    assert main(["find", "Reaper", "Skyblazer", "-n", "50"]) == 2
    assert "say which games to find" in capsys.readouterr().err


@pytest.mark.parametrize(
    "dragons, teams",
    [
        (["Lectronist"] * 3, None),
        (["Lectronist", "Reaper", "Skyblazer", "Tankerous"], [0, 1, 0, 1]),
    ],
    ids=["free-for-all", "teams"],
)
def test_every_battle_replay_is_its_row_of_the_records(tmp_path, dragons, teams):
    """Free-for-all and team games (p.14) replay too: every game's winning side, turns and
    turn-limit flag are the battle run's record row; a team's win names its dragons."""
    from dragonsim.lords.views.replay import replay_battle

    path = tmp_path / "games.csv"
    api.battle(dragons, teams=teams, n=16, seed=3, records=str(path), progress=False)
    rec = pd.read_csv(path)
    for row in rec.itertuples():
        r = replay_battle(dragons, teams=teams, seed=3, game=int(row.game))
        assert (r.winner, r.turns) == (row.winner_side, row.turns), row.game
        assert r.hit_turn_limit == bool(row.hit_turn_limit)
        if r.winner >= 0 and teams:
            assert r.winner_name == " + ".join(
                n for n, t in zip(dragons, teams, strict=True) if t == r.winner
            )
    assert (
        main(
            ["replay", *dragons, "--seed", "3", "--game", "0"]
            + (["--teams", "0,1,0,1"] if teams else [])
        )
        == 0
    )


def test_the_picture_draws_the_board_in_force():
    """Rule lords.board (assumed: 33 x 24): a replay under a 12 x 9 board draws 108 hexes,
    the shipped board 792, each a hexagon of the map."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.patches import RegularPolygon

    from dragonsim.lords.views.picture import draw

    small = replay(
        "Reaper", "Skyblazer", seed=2, game=1, rules={"lords.board": {"width": 12, "depth": 9}}
    )
    assert small.board == (12, 9)
    for rep, hexes in ((small, 108), (replay("Reaper", "Skyblazer", seed=2, game=1), 792)):
        ax = draw(rep).axes[0]
        assert sum(isinstance(p, RegularPolygon) for p in ax.patches) == hexes
