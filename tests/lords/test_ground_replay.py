"""The ground (Dragon Lords advanced rules, pp. 17 and 22) in replays, game pictures and scripts.

A replayed game under the four switches (``lords.advanced.crash_very_low``, ``crash_slow``,
``crash_zeroed``, ``landing``) tells every new event with its fields: "crashes" (the cause, the
levels fallen, the location on "the Rear column of the Damage Allocation Table", the "1d6
points of crash damage for each altitude the dragon fell", the rider's 1d6 "If the result is a
1, 2 or 3, the rider has been killed in the fall", p.22), a move's kind (taking off, landing,
moving on the ground "roll 1d6+3", p.17) and a speed recorded on the ground. Scripts force those
dice and name each of them.
"""

from __future__ import annotations

import json

import matplotlib
import pytest

from dragonsim.errors import UserError
from dragonsim.lords.game.hexes import DIRECTION_NAMES, DQ, DR, distance
from dragonsim.lords.game.tables import SIDE_REAR, kernel_tables
from dragonsim.lords.views.replay import replay
from dragonsim.lords.views.script import play_script
from dragonsim.rules import lords_rules
from dragonsim.rules.lords import PARTS

matplotlib.use("Agg")

GROUND = {
    "lords.advanced.crash_very_low": True,
    "lords.advanced.crash_slow": True,
    "lords.advanced.crash_zeroed": True,
    "lords.advanced.landing": True,
}
#: random games (found by a scan of seeds) with take-offs, landings, moves on the ground and a
#: Very Low engagement's two crashes; and one with a crash by a zeroed tail or wing
VERY_LOW_GAME = dict(a="Tankerous", b="Skyblazer", seed=1, game=58, turn_limit=60)
ZEROED_GAME = dict(a="Ozonic", b="Reaper", seed=1, game=0)


def _replay(spec):
    spec = dict(spec)
    return replay(spec.pop("a"), spec.pop("b"), policy="random", rules=GROUND, **spec)


@pytest.fixture(scope="module")
def very_low():
    return _replay(VERY_LOW_GAME)


@pytest.fixture(scope="module")
def zeroed():
    return _replay(ZEROED_GAME)


def _speed(rep, e):
    """The speed event of ``e``'s dragon in ``e``'s turn."""
    (s,) = [
        x
        for x in rep.events
        if x["event"] == "speed" and x["turn"] == e["turn"] and x["dragon"] == e["dragon"]
    ]
    return s


def _check_crash(c, alloc):
    """A crash's fields as p.22 has them: the Rear column, 1d6 a level fallen, the rider's
    1d6 (1-3 kills it), a crashing winner's 1d6 facing; the dragon is on the ground."""
    assert c["altitude"] == "Ground" and c["side"] == "R"
    assert 1 <= c["levels"] <= 5 and c["dice"] == c["levels"]
    assert c["levels"] <= c["damage_roll"] <= 6 * c["levels"]
    assert 2 <= c["location_roll"] <= 12
    assert c["part"] == PARTS[alloc[c["location_roll"], SIDE_REAR]].replace("_", " ")
    assert 0 <= c["points_lost"] <= c["damage_roll"]
    if c["rider_roll"] is not None:
        assert 1 <= c["rider_roll"] <= 6 and c["rider_killed"] == (c["rider_roll"] <= 3)
    assert c["facing_roll"] is None or 1 <= c["facing_roll"] <= 6


def test_a_random_game_tells_take_offs_landings_and_moves_on_the_ground(very_low):
    """ "A dragon may land on the ground from Very Low altitude by moving forward 1 hex and
    spending 1 point"; on the ground "roll 1d6+3. The dragon can move up to this number of
    hexes"; a take-off speed is "at least 1 point more than the dragon's minimum speed and no
    higher than 7" and the leap "costs a number of movement points equal to its minimum speed
    plus 1" (p.17): each event of the random game says so."""
    rep = very_low
    moves = [e for e in rep.events if e["event"] == "move"]
    kinds = {e["kind"] for e in moves}
    assert kinds == {"fly", "take off", "land", "ground"}
    for e in moves:
        s = _speed(rep, e)
        if e["kind"] == "land":
            fq, fr = e["flight_end"]
            assert e["altitude"] == "Ground" and not s["ground"]
            assert (e["q"], e["r"]) == (fq + DQ[e["facing"]], fr + DR[e["facing"]])  # ahead
        elif e["kind"] == "ground":
            assert e["speed"] == 0 and e["altitude"] == "Ground"
            assert s["ground"] and s["speed"] == 0
            assert e["ground_roll"] is None or 4 <= e["ground_roll"] <= 9
        elif e["kind"] == "take off":
            assert s["ground"] and s["minimum"] + 1 <= s["speed"] <= 7
            assert s["allowed"][0] == s["minimum"] + 1
            assert e["speed"] == s["speed"] - (s["minimum"] + 1)  # the points left
            assert e["altitude"] != "Ground"
        else:
            assert e["ground_roll"] is None and e["flight_end"] is None and not s["ground"]
    text = rep.text()
    for words in (
        "takes off from (",
        ": climbs to Very Low",
        "lands: flies",
        "moves on the ground, rolled",
    ):
        assert words in text
    assert "stays on the ground (records ground, speed 0" in text


def test_a_very_low_engagement_crashes_both_before_the_fight(very_low):
    """ "When two dragons engage in close combat at Very Low altitude, the mandatory loss of
    altitude will cause the two dragons to crash to the ground before the combat has taken
    place" (p.17): the two crashes come between the engagement and the fight, one level each,
    and the fight is then on the ground."""
    rep = very_low
    alloc = kernel_tables(lords_rules(GROUND)).alloc
    ev = rep.events
    crashes = [k for k, e in enumerate(ev) if e["event"] == "crashes"]
    assert crashes
    for k in crashes:
        _check_crash(ev[k], alloc)
    vl = [k for k in crashes if ev[k]["cause"] == "very low"]
    assert len(vl) == 2 and vl[1] > vl[0]
    a, b = ev[vl[0]], ev[vl[1]]
    assert a["turn"] == b["turn"] and a["levels"] == b["levels"] == 1
    assert a["fell_from"] == "Very Low" and a["phase"] == "close combat"
    fight = next(e for e in ev[vl[1] + 1 :] if e["event"] != "effects")
    assert fight["event"] == "close combat" and {fight["dragon"], fight["other"]} == {
        a["dragon"],
        b["dragon"],
    }
    engaged = [e for e in ev[: vl[0]] if e["event"] == "engages" and e["turn"] == a["turn"]]
    assert engaged
    assert f"{a['dragon']} crashes (an engagement at Very Low" in rep.text()
    riders = [e for e in (a, b) if e["dragon"] == "Tankerous"]
    assert riders[0]["rider_roll"] is not None  # Tankerous carries a Lancer (p.34)


def test_a_zeroed_tail_or_wing_crashes_and_keeps_the_dragon_in_its_hex(zeroed):
    """ "If a dragon is reduced to 0 damage points in its tail or either of its wings, it will
    crash to the ground"; then "it may turn in that hex but it may not move from it" (p.17):
    the crash follows the damage in its phase, and the dragon's later moves only turn, with no
    1d6+3 rolled."""
    rep = zeroed
    alloc = kernel_tables(lords_rules(GROUND)).alloc
    (c,) = [e for e in rep.events if e["event"] == "crashes" and e["cause"] == "zeroed"]
    _check_crash(c, alloc)
    assert c["phase"] in ("rider actions", "breath combat", "close combat")
    assert c["facing_roll"] is None
    later = [
        e
        for e in rep.events
        if e["event"] == "move" and e["dragon"] == c["dragon"] and e["turn"] > c["turn"]
    ]
    assert later and all(e["kind"] == "ground" and e["ground_roll"] is None for e in later)
    assert {(e["q"], e["r"]) for e in later} == {(c["q"], c["r"])}
    assert f"{c['dragon']} turns in its hex on the ground" in rep.text()
    assert "(a tail or wing at 0: it can no longer fly, p.17)" in rep.text()


def test_tables_and_json_lines_hold_the_new_fields(very_low, tmp_path):
    """The DataFrame and the JSON lines carry the ground's fields (and name the altitude
    Ground)."""
    rep = very_low
    df = rep.frame()
    for col in ("kind", "ground_roll", "flight_end", "ground", "cause", "levels", "rider_roll"):
        assert col in df.columns
    crashes = df[df["event"] == "crashes"]
    assert set(crashes["altitude"]) == {"Ground"}
    path = tmp_path / "game.jsonl"
    rep.to_jsonl(path)
    lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    assert lines == json.loads(json.dumps(rep.events))
    assert any(e["event"] == "crashes" and e["cause"] == "very low" for e in lines)


def test_the_picture_marks_the_ground_and_the_crashes(very_low):
    """A position on the ground is a hexagon on a hatched hex, a crash a downward triangle."""
    from dragonsim.lords.views.picture import draw

    rep = very_low
    fig = draw(rep)
    ax = fig.axes[0]
    n_crash = sum(e["event"] == "crashes" for e in rep.events)
    assert sum(ln.get_marker() == "v" for ln in ax.lines) == n_crash
    hexes = [ln for ln in ax.lines if ln.get_marker() == "h"]
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert hexes and len(hatched) == len(hexes)
    labels = [t.get_text() for leg in fig.legends + ax.get_children() for t in _texts(leg)]
    assert "Ground (hatched)" in labels and "crash" in labels
    matplotlib.pyplot.close(fig)


def _texts(artist):
    return artist.get_texts() if hasattr(artist, "get_texts") else []


# ---- scripts: forced dice on the ground ----------------------------------------------------------
def _walk():
    """Reaper lands, moves on the ground and takes off; Skyblazer flies far away."""
    sky = {"speed": 6, "path": "6F"}
    return {
        "title": "land, walk, take off",
        "rules": {"lords.advanced.landing": True},
        "dragons": [
            {"dragon": "Reaper", "hex": [5, 10], "facing": "E", "altitude": "Very Low"},
            {"dragon": "Skyblazer", "hex": [28, 20], "facing": "W", "altitude": "High"},
        ],
        "turns": [
            {
                "dice": [5, 9],
                "moves": {"Reaper": {"speed": 6, "path": "5F", "land": True}, "Skyblazer": sky},
            },
            {"dice": [5, 9, 2], "moves": {"Reaper": {"speed": 0, "path": "3F"}, "Skyblazer": sky}},
            {"dice": [5, 9], "moves": {"Reaper": {"speed": 7, "path": "F"}, "Skyblazer": sky}},
        ],
    }


def test_a_script_lands_moves_on_the_ground_and_takes_off():
    """Reaper (minimum speed 5, p.30) at Very Low records 6 and lands: 5 points of flight,
    then "forward 1 hex and spending 1 point"; on the ground it records 0 and its 1d6 of 2
    lets it move up to 5 hexes (it moves 3); then it records 7 ("at least 1 point more than
    the dragon's minimum speed and no higher than 7"), leaps its minimum speed of 5 hexes for
    6 points and flies the 1 point left (p.17)."""
    rep = play_script(_walk())
    moves = [e for e in rep.events if e["event"] == "move" and e["dragon"] == "Reaper"]
    land, walk, up = moves
    assert land["kind"] == "land" and land["flight_end"] == [5, 10]
    assert (land["q"], land["r"], land["altitude"]) == (6, 10, "Ground")
    assert walk["kind"] == "ground" and walk["ground_roll"] == 5 and walk["speed"] == 0
    assert (walk["q"], walk["r"]) == (9, 10) and distance(6, 10, 9, 10) <= walk["ground_roll"]
    assert up["kind"] == "take off" and up["speed"] == 1 and up["altitude"] == "Very Low"
    assert (up["q"], up["r"]) == (9 + 5 + 1, 10)
    assert [r["what"] for r in rep.forced if r["turn"] == 2] == [
        "initiative roll (2d6)",
        "initiative roll (2d6)",
        "ground move roll (1d6, +3 hexes, p.17)",
    ]
    text = rep.text()
    assert "Reaper moves on the ground, rolled 5 (1d6+3 hexes), to (9,10) facing E" in text
    assert "2 (Reaper's ground move roll (1d6, +3 hexes, p.17))" in text
    assert "Reaper records take-off speed 7 (may record ground or 6..7)" in text


def _fight(dice, altitude="Very Low", rule="lords.advanced.crash_very_low"):
    """Ozonic (a Crossbow Shooter, p.33) flies 5, Reaper 6 and engages it face to face."""
    return {
        "title": f"a fight at {altitude}",
        "rules": {rule: True},
        "dragons": [
            {"dragon": "Ozonic", "hex": [10, 10], "facing": "E", "altitude": altitude},
            {"dragon": "Reaper", "hex": [22, 10], "facing": "W", "altitude": altitude},
        ],
        "turns": [
            {
                "dice": dice,
                "moves": {
                    "Ozonic": {"speed": 5, "path": "5F"},
                    "Reaper": {"speed": 6, "path": "6F", "engage": True},
                },
            }
        ],
    }


def test_a_scripted_very_low_engagement_crashes_both_and_the_rider_falls():
    """Both dragons crash before the fight (p.17), the earlier in the initiative order first,
    each rolling the Rear column's 2d6 and 1d6 for its one level; Ozonic's rider rolls 2 in
    the fall: "If the result is a 1, 2 or 3, the rider has been killed in the fall" (p.22).
    The fight that follows is on the ground (8 + 3 against 6 + 5: a draw)."""
    rep = play_script(_fight([5, 9, 7, 3, 2, 8, 4, 8, 6]))
    a, b = [e for e in rep.events if e["event"] == "crashes"]
    assert (a["dragon"], b["dragon"]) == ("Ozonic", "Reaper")
    assert a["cause"] == b["cause"] == "very low"
    assert (a["location_roll"], a["damage_roll"], a["rider_roll"]) == (7, 3, 2)
    assert a["rider_killed"] is True and b["rider_roll"] is None
    assert (b["location_roll"], b["damage_roll"]) == (8, 4)
    assert a["points_lost"] + b["points_lost"] == 7
    (cc,) = [e for e in rep.events if e["event"] == "close combat"]
    assert cc["winner"] is None
    assert [r["what"] for r in rep.forced][2:7] == [
        "crash location roll (2d6, Rear column, p.22)",
        "crash damage roll (1d6, p.22)",
        "rider's fall roll (1d6, p.22)",
        "crash location roll (2d6, Rear column, p.22)",
        "crash damage roll (1d6, p.22)",
    ]
    assert "its rider rolls 2: killed in the fall" in rep.text()


def test_the_ran_out_message_names_the_crash_roll():
    """Dice that stop inside a crash: the one-line error names the roll the rules asked for."""
    with pytest.raises(UserError, match=r"roll 4, Ozonic's crash damage roll \(1d6, p\.22\)"):
        play_script(_fight([5, 9, 7]))


def test_a_crashing_winner_rolls_its_facing_after_the_loser():
    """ "If the mandatory two-step loss of speed in close combat brings a dragon's speed below
    its minimum speed, that dragon will crash ... It does not matter if the crashing dragon
    won or lost" (p.17); "If the winner crashes, it must also roll for facing after the loser
    does. It doesn't get to choose its facing" (p.22): at Low both fly near their minimum of 5
    and both crash after Ozonic's win, the loser Reaper first, then Ozonic's 1d6 facing before
    its crash rolls (the direction template from E: a 2 faces SE)."""
    dice = [5, 9, 8, 3, 1, 7, 10, 2, 3, 8, 4, 2, 6, 5, 4]
    rep = play_script(_fight(dice, "Low", "lords.advanced.crash_slow"))
    (cc,) = [e for e in rep.events if e["event"] == "close combat"]
    assert cc["winner"] == "Ozonic"
    lo, win = [e for e in rep.events if e["event"] == "crashes"]
    assert (lo["dragon"], win["dragon"]) == ("Reaper", "Ozonic")
    assert lo["cause"] == win["cause"] == "slow" and lo["fell_from"] == "Very Low"
    assert lo["facing_roll"] is None and win["facing_roll"] == 2
    assert DIRECTION_NAMES[win["facing"]] == "SE"
    assert win["rider_roll"] == 4 and win["rider_killed"] is False
    assert [r["what"] for r in rep.forced][-4:] == [
        "crashing winner's facing roll (1d6, p.22)",
        "crash location roll (2d6, Rear column, p.22)",
        "crash damage roll (1d6, p.22)",
        "rider's fall roll (1d6, p.22)",
    ]
    assert "the winner's facing roll 2 turns it to face SE (p.22)" in rep.text()
