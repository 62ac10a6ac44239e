"""Scripted games (:mod:`dragonsim.lords.views.script`): the rulebook's Example of Play (pp. 36-37)
played end to end through the game loop with its moves given and its dice forced, every fact
it prints checked from the event log; the printed conflict about the long-range modifier shown
both ways; a broken script refused in one line naming the turn, the dragon and the roll; the
pictures of a scripted game.
(``tests/lords/test_engine_mechanics.py::test_example_of_play_replay`` checks the same facts
from the engine's building blocks.)"""

from __future__ import annotations

import copy
import json

import lords_reference as ref
import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords.game import hexes as hx
from dragonsim.lords.game.sheets import sheet
from dragonsim.lords.game.tables import kernel_tables
from dragonsim.lords.views.script import (
    SCRIPTS_DIR,
    load_script,
    parse_path,
    path_cost,
    path_end,
    play_script,
)

TB = kernel_tables()
EXAMPLE = json.loads((SCRIPTS_DIR / "example_of_play.json").read_text())
K, L = "Kelvinight", "Lectronist"


@pytest.fixture(scope="module")
def example():
    return play_script("example")


def _ev(rep, event, turn=None, dragon=None):
    return [
        e
        for e in rep.events
        if e["event"] == event
        and (turn is None or e["turn"] == turn)
        and (dragon is None or e["dragon"] == dragon)
    ]


def _one(rep, event, turn, dragon):
    (e,) = _ev(rep, event, turn, dragon)
    return e


def test_example_of_play_turn_one_through_the_game_loop(example):
    """ "They both get an 8. They roll off. Nick gets a 9; Michael gets a 5" ... "Since
    Michael's initiative roll was lowest, he moves first. He moves Lectronist 9 hexes
    straight ahead ... Nick then moves Kelvinight 7 hexes straight ahead. It then climbs 3
    times in a row, using up its remaining 6 movement points and bringing itself up to Very
    High altitude" ... "there are still 12 empty hexes between the two dragons" (p.36)."""
    rep = example
    rolls = [(r["value"], r["dragon"], r["what"]) for r in rep.forced if r["turn"] == 1]
    assert rolls == [
        (8, K, "initiative roll (2d6)"),
        (8, L, "initiative roll (2d6)"),
        (9, None, "initiative roll-off"),
        (5, None, "initiative roll-off"),
    ]
    assert [e["dragon"] for e in _ev(rep, "initiative", 1)] == [L, K]  # Michael 8/5 first
    assert _one(rep, "speed", 1, K)["speed"] == 13 and _one(rep, "speed", 1, L)["speed"] == 9
    # "Since it's the first turn, the players can record any speed they like"
    for who in (K, L):
        assert _one(rep, "speed", 1, who)["allowed"] == [sheet(who).min_speed, sheet(who).max_speed]
    start = {e["dragon"]: e for e in _ev(rep, "placed")}
    mk, ml = _one(rep, "move", 1, K), _one(rep, "move", 1, L)
    assert (ml["mr"], mk["mr"]) == ("E", "D")
    # 9 points: 9 hexes straight ahead, still Very High
    assert path_cost(parse_path("9F"), TB.turn_cost[4]) == 9
    assert (ml["q"] - start[L]["q"], ml["r"], ml["facing"], ml["altitude"]) == (
        9,
        start[L]["r"],
        hx.E,
        "Very High",
    )
    # 13 points: 7 forward (7) and three climbs (2 each), each climb a hex forward too
    assert path_cost(parse_path("7F 3C"), TB.turn_cost[3]) == 7 + 6
    assert (start[K]["q"] - mk["q"], mk["facing"], start[K]["altitude"], mk["altitude"]) == (
        10,
        hx.W,
        "Low",
        "Very High",
    )
    assert len(mk["path"]) == 10 and [h[2] for h in mk["path"][-3:]] == [3, 4, 5]
    assert hx.distance(ml["q"], ml["r"], mk["q"], mk["r"]) - 1 == 12  # empty hexes between
    # "no breath combat or close combat can take place"
    assert not _ev(rep, "breath", 1) and not _ev(rep, "engages", 1)


def test_example_of_play_turn_two_every_printed_number(example):
    """ "Nick gets a 6; Michael gets a 7" ... "Kelvinight flies 1 hex straight ahead, then
    turns 180. Then the dragon moves ahead 1 hex and turns 180 again. Then it zips 3 hexes
    forward. This puts it 3 hexes forward of his previous position. Lectronist moves forward
    1 hex and turns 60 to its left. Then it moves 4 hexes forward, turns 60 to its right,
    moves 4 more hexes forward and finishes with another 60 turn to the right" ... "range 5
    hexes ... Lectronist is in Kelvinight's grey hexes, while Kelvinight is in Lectronist's
    dark hexes" ... "(8+1=)9 or higher ... He gets a 7 and misses" ... "Michael just needs to
    roll an 8 or higher ... He gets an 8 and hits" ... "front right hexside" ... "He gets a 5.
    Kelvinight has been hit in the body" ... "rolls 2d6+2 ... 7 and adds 2 to get 9" ...
    "does not cross the half-way line" (pp. 36-37)."""
    rep = example
    assert [e["dragon"] for e in _ev(rep, "initiative", 2)] == [K, L]
    assert [r["value"] for r in rep.forced if r["turn"] == 2][:2] == [6, 7]
    assert _one(rep, "speed", 2, K)["speed"] == 13 and _one(rep, "speed", 2, L)["speed"] == 12
    # "Michael accelerates as fast as he can, which is up to 3 over his last turn's speed"
    assert _one(rep, "speed", 2, L)["allowed"] == [sheet(L).min_speed, 9 + 3]
    k1, l1 = _one(rep, "move", 1, K), _one(rep, "move", 1, L)
    k2, l2 = _one(rep, "move", 2, K), _one(rep, "move", 2, L)
    k_path = EXAMPLE["turns"][1]["moves"][K]["path"]
    l_path = EXAMPLE["turns"][1]["moves"][L]["path"]
    assert path_cost(parse_path(k_path), TB.turn_cost[3]) == 1 + 4 + 1 + 4 + 3 == 13
    assert path_cost(parse_path(l_path), TB.turn_cost[4]) == 1 + 1 + 4 + 1 + 4 + 1 == 12
    assert (k1["q"] - k2["q"], k2["r"] - k1["r"], k2["facing"]) == (3, 0, hx.W)
    # on the map: (9, -4) from where Lectronist ended turn 1, facing SE
    assert (l2["q"] - l1["q"], l2["r"] - l1["r"], l2["facing"]) == (9, -4, hx.SE)
    assert path_end(parse_path(l_path)) == (9, -4, hx.SE, 0)
    assert [e["other"] for e in _ev(rep, "targets", 2)] == [L, K]
    bk, bl = _one(rep, "breath", 2, K), _one(rep, "breath", 2, L)
    assert (bk["range"], bk["area"], bl["range"], bl["area"]) == (5, "grey", 5, "dark")
    assert (bk["target_number"], bk["hit_roll"], bk["hit"]) == (8 + 1, 7, False)
    assert (bl["target_number"], bl["hit_roll"], bl["hit"]) == (8, 8, True)
    assert (bl["side"], bl["location_roll"], bl["part"]) == ("FR", 5, "body")
    assert (bl["damage_roll"], bl["dice"], bl["points_lost"]) == (7, 2, 7 + 2)
    assert sheet(L).breath == "Lightning"
    assert not _ev(rep, "effects")  # no serious damage: the body is above half
    assert sheet(K).damage_points["body"] - 9 >= sheet(K).damage_points["body"] / 2
    assert rep.damage_dealt == [0, 9]
    assert all(r["used"] for r in rep.forced)
    assert rep.turns == 2 and rep.winner == -1
    sheets = [sheet(K), sheet(L)]
    assert ref.check_events(rep.log, sheets, TB) == []


def test_the_printed_conflict_both_ways():
    """The To-Hit Modifiers Table's Range Key gives Long Range (5 hexes) +1 (p.11); the
    Example of Play prints 9 and 8 without it (p.37). Under the table the numbers are 10 and
    9: both breaths miss, and the location and damage rolls the example prints are never
    asked for."""
    printed = play_script("example")
    rules = play_script("example", range_modifier=True)
    tn = [[e["target_number"] for e in _ev(r, "breath", 2)] for r in (printed, rules)]
    assert tn == [[9, 8], [10, 9]]
    assert [e["hit"] for e in _ev(rules, "breath", 2)] == [False, False]
    assert rules.damage_dealt == [0, 0]
    unused = [(r["turn"], r["roll"], r["value"]) for r in rules.forced if not r["used"]]
    assert unused == [(2, 5, 5), (2, 6, 7)]
    assert any("not asked for" in n for n in rules.notes)


def _broken(edit):
    s = copy.deepcopy(EXAMPLE)
    edit(s)
    with pytest.raises(UserError) as err:
        play_script(s)
    msg = str(err.value)
    assert "\n" not in msg
    return msg


def _move(t, who):
    return lambda s: s["turns"][t - 1]["moves"][who]


@pytest.mark.parametrize(
    "edit, expected",
    [
        (  # one roll short: the rules ask for the damage roll last
            lambda s: s["turns"][1].__setitem__("dice", [6, 7, 7, 8, 5]),
            ["turn 2", "ran out", "roll 6", "Lectronist's breath damage roll (2d6)"],
        ),
        (
            lambda s: s["turns"][0].__setitem__("dice", [8, 13, 9, 5]),
            ["turn 1, roll 2", "Lectronist's initiative roll", "13 is not a 2d6 roll (2..12)"],
        ),
        (  # p.7: "up to 3 over his last turn's speed": 9 + 3
            lambda s: _move(2, L)(s).__setitem__("speed", 13),
            ["turn 2, Lectronist: speed 13 is not allowed", "4..12"],
        ),
        (
            lambda s: _move(2, L)(s).__setitem__("path", "F L1 4F R1 4F"),
            ["turn 2, Lectronist", "costs 11 movement points at maneuverability E", "12"],
        ),
        (
            lambda s: _move(1, L)(s).__setitem__("path", "F L1 R1 7F"),
            ["turn 1, Lectronist", "turns twice in a row"],
        ),
        (  # p.10: "within 6 hexes"; 13 hexes apart after turn 1
            lambda s: _move(1, L)(s).__setitem__("target", K),
            ["turn 1, Lectronist cannot breathe at Kelvinight", "arc of fire, within range"],
        ),
        (
            lambda s: _move(2, L)(s).__setitem__("engage", True),
            ["turn 2, Lectronist cannot engage", "(p.9)"],
        ),
        (
            lambda s: s["turns"][1]["moves"].pop(L),
            ["turn 2: the script gives Lectronist no move"],
        ),
        (
            lambda s: s["dragons"][1].update(axial=[0, 0], facing="NW"),
            ["turn 1, Lectronist", "leaves the board at its action 1"],
        ),
        (
            lambda s: s["turns"][0]["moves"].update(Lectronst={"speed": 9, "path": "9F"}),
            ["turn 1", "unknown dragon 'Lectronst'", "did you mean 'Lectronist'"],
        ),
        (
            lambda s: _move(1, K)(s).update(path=None, end={"axial": [16, 12], "facing": "W"}),
            ["turn 1, Kelvinight", "give the move as 'path'"],
        ),
        (  # the end state of "7F 3C", but flown at its starting altitude: not at speed 13
            lambda s: (
                _move(1, K)(s).pop("path")
                and _move(1, K)(s).update(end={"axial": [16, 12], "facing": "W"})
            ),
            ["turn 1, Kelvinight: the move speed 13 to hex", "no legal move of exactly speed 13"],
        ),
    ],
    ids=[
        "dice-run-out",
        "dice-impossible",
        "speed-limit",
        "path-cost",
        "two-turns",
        "out-of-range",
        "engage",
        "no-move",
        "off-board",
        "unknown-dragon",
        "path-and-end",
        "unreachable-end",
    ],
)
def test_a_broken_script_is_one_line_naming_turn_dragon_and_roll(edit, expected):
    """A script that breaks a rule is refused as the engine's own checks would refuse it
    (dice sums 2..12 for 2d6; speed limits, p.7; exact movement cost, one turn at a time and
    staying on the board, pp. 8-9; breath range and arc, p.10; engagement, p.9), in one line
    naming the turn, the dragon and the roll or decision."""
    msg = _broken(edit)
    for part in expected:
        assert part in msg, msg


def test_an_end_state_plays_as_the_path_to_it_and_one_dice_list_as_per_turn_lists():
    """A move given by where it ends ("end": hex, facing, altitude) plays as the path that
    ends there; the dice given as one list for the game play as the turns' lists."""
    s = copy.deepcopy(EXAMPLE)
    s["turns"][0]["moves"][K] = {"speed": 13, "end": {"axial": [16, 12], "facing": "W",
                                                       "altitude": "Very High"}}  # fmt: skip
    s["dice"] = [v for t in s["turns"] for v in t.pop("dice")]
    a, b = play_script("example"), play_script(s)
    strip = ("path",)
    assert [{k: v for k, v in e.items() if k not in strip} for e in a.events] == [
        {k: v for k, v in e.items() if k not in strip} for e in b.events
    ]


def test_close_combat_dice_in_the_order_the_rules_ask_for_them():
    """Close combat (p.13): each dragon's 2d6 (the earlier in initiative first), the winner's
    1d6 column, 2d6 location, tooth-and-claw damage, its own 1d6 damage, the loser's 1d6 new
    facing; the winner turns to the facing the script gives. The independent checker agrees
    with every step."""
    s = {
        "title": "a close combat",
        "dragons": [
            {"dragon": K, "axial": [20, 10], "facing": "W", "altitude": "High"},
            {"dragon": L, "axial": [10, 10], "facing": "E", "altitude": "High"},
        ],
        "turns": [
            {
                "dice": [3, 10, 4, 11, 2, 7, 9, 3, 5],
                "moves": {
                    K: {"speed": 2, "path": "2F"},
                    L: {"speed": 7, "path": "7F", "engage": True, "facing": "NE"},
                },
            }
        ],
    }
    rep = play_script(s)
    (cc,) = _ev(rep, "close combat")
    assert (cc["dragon"], cc["roll_a"], cc["roll_b"], cc["winner"]) == (K, 4, 11, L)
    assert (cc["column"], cc["location_roll"], cc["damage_roll"], cc["self_roll"]) == (2, 7, 9, 3)
    assert (cc["facing_roll"], cc["winner_facing"]) == (5, hx.NE)
    assert [r["what"] for r in rep.forced][2:] == [
        "close-combat roll (2d6) against Lectronist",
        "close-combat roll (2d6) against Kelvinight",
        "column roll (1d6)",
        "location roll (2d6)",
        "tooth-and-claw damage roll",
        "own damage roll (the winner's, p.13)",
        "new facing roll (1d6)",
    ]
    assert ref.check_events(rep.log, [sheet(K), sheet(L)], TB) == []


def test_a_script_file_and_its_bad_forms(tmp_path):
    """A script is a JSON file (or a mapping); a TOML file, broken JSON or an unknown key is
    one clear error."""
    path = tmp_path / "eop.json"
    path.write_text(json.dumps(EXAMPLE))
    assert load_script(str(path)).turns == 2
    with pytest.raises(UserError, match="name a JSON file"):
        load_script(str(tmp_path / "eop.toml"))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(UserError, match="not valid JSON"):
        load_script(str(bad))
    with pytest.raises(UserError, match="unknown key 'speeds'"):
        load_script({**EXAMPLE, "speeds": []})


def test_cli_replays_the_example_both_ways(capsys):
    """`replay --script example` prints the Example of Play as the rulebook prints it (pp.
    36-37); `--range-modifier on` as the To-Hit Modifiers Table reads (p.11)."""
    assert main(["replay", "--script", "example"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == play_script("example").text()
    assert "needs 9, rolls 7, misses" in out and "needs 8, rolls 8, hits from FR" in out
    assert "Kelvinight loses 9" in out and "forced dice: 8 (Kelvinight's initiative" in out
    assert main(["replay", "--script", "example", "--range-modifier", "on"]) == 0
    out = capsys.readouterr().out
    assert "needs 10, rolls 7" in out and "needs 9, rolls 8, misses" in out
    assert "not asked for" in out


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["replay", "--script", "nosuch.json"], "nosuch.json"),
        (["replay", "Reaper", "Skyblazer", "--script", "example"], "names its own dragons"),
        (["replay", "Reaper", "Skyblazer", "--range-modifier", "on"], "goes with --script"),
        (["show", "--script", "example", "--out", "a%d%d.png"], "one %d"),
    ],
)
def test_cli_refuses_bad_script_input_in_one_line(argv, msg, capsys):
    """Bad script input on the command line: one line, exit 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0], err


def test_show_writes_a_gif_and_a_picture_per_turn(tmp_path):
    """`show --out game.gif` writes one frame per turn, all the same size; `game_%d.png` one
    PNG per turn; the altitude key's Very High keeps its colour in every frame (one palette
    for the whole animation)."""
    import matplotlib
    from matplotlib import colors
    from PIL import Image

    matplotlib.use("Agg")
    gif = tmp_path / "eop.gif"
    assert main(["show", "--script", "example", "--out", str(gif)]) == 0
    im = Image.open(gif)
    assert im.n_frames == 2
    sizes = set()
    very_high = tuple(round(255 * v) for v in colors.to_rgb(matplotlib.colormaps["viridis"](1.0)))
    for k in range(im.n_frames):
        im.seek(k)
        rgb = im.convert("RGB")
        sizes.add(rgb.size)
        assert very_high in {c for _, c in rgb.getcolors(1 << 20)}, k
    assert len(sizes) == 1
    assert main(["show", "--script", "example", "--out", str(tmp_path / "t_%d.png")]) == 0
    assert sorted(p.name for p in tmp_path.glob("t_*.png")) == ["t_1.png", "t_2.png"]
    assert (tmp_path / "t_1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_frame_draws_its_turn_over_the_whole_games_view():
    """Every frame of a game shows the same part of the board (the whole game's), and a
    scripted move is drawn along its path: Lectronist's turn-2 line runs through the 12
    hexes it flew."""
    import matplotlib

    matplotlib.use("Agg")
    from dragonsim.lords.views.picture import draw

    rep = play_script("example")
    views = {draw(rep, last_turn=t, frame=True).axes[0].get_xlim() for t in (1, 2)}
    assert len(views) == 1
    ax = draw(rep).axes[0]
    n_path = len(_one(rep, "move", 2, L)["path"])
    assert any(len(ln.get_xdata()) == n_path + 2 for ln in ax.lines)


def test_a_breath_through_a_corner_takes_the_side_the_script_chooses():
    """The Direction Template (p.11): a line through a corner of the target's hex lets the
    attacker choose the side; a script must say which, and the hit comes in through it."""
    s = {
        "title": "a corner",
        "dragons": [
            {"dragon": K, "axial": [8, 10], "facing": "E", "altitude": "High"},
            {"dragon": L, "axial": [16, 9], "facing": "W", "altitude": "High"},
        ],
        "turns": [
            {
                "dice": [3, 10, 11, 7, 10],
                "moves": {
                    K: {"speed": 2, "path": "2F", "target": L},
                    L: {"speed": 4, "path": "4F"},
                },
            }
        ],
    }
    assert hx.direction_template(10, 10, 12, 9, hx.W) == (0, 5)  # F or FL
    with pytest.raises(UserError, match="between the F and FL hexsides: say which"):
        play_script(s)
    for side in ("F", "FL"):
        s["turns"][0]["moves"][K]["side"] = side
        (b,) = _ev(play_script(s), "breath")
        assert (b["hit"], b["side"], b["range"], b["area"]) == (True, side, 2, "dark")
    s["turns"][0]["moves"][K]["side"] = "RR"
    with pytest.raises(UserError, match=r"\(RR is neither\)"):
        play_script(s)
