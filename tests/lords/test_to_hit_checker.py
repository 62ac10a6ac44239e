"""The independent to-hit checker (``tests/lords_reference.py`` :func:`check_to_hit`): every
breath's range, arc area and target number recomputed from positions tracked through the event
log and the rules in force (To-Hit Modifiers Table, Range Key and arc of fire, pp. 10-11),
over thousands of games of every bot, duels and battles, with the Range Key's row on and off,
and the Example of Play both ways; and every planted error caught."""

from __future__ import annotations

import lords_reference as ref
import numpy as np
import pytest

from dragonsim.lords import engine as E
from dragonsim.lords.api import battle_setup, prepare
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import sheet
from dragonsim.lords.views.script import play_script
from dragonsim.rules import lords_rules

BOTS = ["random", "hunter", "hunter@3", "brawler", "sniper"]
PAIRS = [("Reaper", "Skyblazer"), ("Tankerous", "Zippinchill"), ("Slash", "Ozonic")]
MAX_LOG = 20000


class Seen:
    """What the checked games exercised, so that a pass is not a pass over nothing."""

    def __init__(self):
        self.games = self.breaths = self.wasted = self.cc = 0
        self.areas: set[int] = set()
        self.ranges: set[int] = set()
        self.steps: set[int] = set()

    def add(self, log):
        b = log[log[:, S.L_KIND] == S.K_BREATH]
        self.games += 1
        self.breaths += len(b)
        self.wasted += int(np.sum(b[:, S.L_A] < 0))
        self.areas |= {int(x) for x in b[:, S.L_A + 10]}
        self.ranges |= {int(x) for x in b[:, S.L_A + 9]}
        self.cc += int(np.sum(log[:, S.L_KIND] == S.K_CC))


def _duel_args(a, b, pols, range_mod, rules=None):
    prep = prepare(a, b, policies=pols, range_mod=range_mod, rules=rules)
    return prep["args"], [prep["a"], prep["b"]], prep["rules"]


def _check(args, sheets, rules, range_mod, games, seed, seen):
    for game in range(games):
        _, log = E.logged_game(game, seed, *args, MAX_LOG)
        bad = ref.check_to_hit(log, sheets, rules, range_modifier=range_mod)
        assert bad == [], (game, bad[:3])
        seen.add(log)


@pytest.mark.parametrize("range_mod", [True, False], ids=["range-on", "range-off"])
@pytest.mark.parametrize("bot", BOTS)
def test_every_duel_breath_number_is_the_rules(bot, range_mod):
    """Range, arc area and target number of every breath (pp. 10-11) agree with positions
    tracked move by move, over 3 pairings x 50 games a bot (1,500 duels over the 10 cases); the
    games exercise every area of the arc, and the brawler's close combat (p.13)."""
    seen = Seen()
    for k, (a, b) in enumerate(PAIRS):
        args, sheets, rules = _duel_args(a, b, (bot, bot), range_mod)
        _check(args, sheets, rules, range_mod, 50, 11 + k, seen)
    assert seen.games == 150 and seen.breaths > 150
    assert {0, 1, 2} <= seen.areas
    if bot == "brawler":  # it engages: close combat's drop and turns are tracked (p.13)
        assert seen.cc > 0


@pytest.mark.parametrize("range_mod", [True, False], ids=["range-on", "range-off"])
def test_every_battle_breath_number_is_the_rules(range_mod):
    """Free-for-alls and team games (p.14): four dragons of mixed bots, 60 games each; more
    dragons, more targets out of arc and more close combats."""
    seen = Seen()
    dragons = ["Reaper", "Skyblazer", "Zippinchill", "Lectronist"]
    pols = ["random", "hunter", "brawler", "sniper"]
    for teams in (None, [0, 1, 0, 1]):
        sheets, _, _, rules, args = battle_setup(dragons, teams=teams, policies=pols)
        args = list(args)
        args[2] = args[2].copy()
        args[2][S.OPT_RANGE_MOD] = int(range_mod)
        _check(args, sheets, rules, range_mod, 60, 5, seen)
    assert seen.breaths > 200 and {0, 1, 2} <= seen.areas and seen.cc > 0


def test_search_games_and_other_rules_follow_the_rules():
    """The look-ahead bot (its own move search), and rules overrides the checker must read
    rather than assume: wider arc areas, a steeper altitude row and a longer breath range
    (rules ``lords.arc_degrees``, ``lords.altitude_mod``, ``lords.max_breath_range``)."""
    seen = Seen()
    args, sheets, rules = _duel_args("Tankerous", "Zippinchill", ("search", "hunter"), True)
    _check(args, sheets, rules, True, 4, 2, seen)
    over = {
        "lords.arc_degrees": {"dark": 30, "grey": 90, "light": 120},
        "lords.altitude_mod": [0, 1, 2, 2, 3],
        "lords.max_breath_range": 8,
    }
    args, sheets, rules = _duel_args("Reaper", "Skyblazer", ("random", "sniper"), True, over)
    _check(args, sheets, rules, True, 60, 3, seen)
    assert max(seen.ranges) > 6  # the longer range was used
    # the same games read under the printed rules disagree: the checker follows the rules given
    _, log = E.logged_game(0, 3, *args, MAX_LOG)
    kinds = set()
    for game in range(20):
        _, log = E.logged_game(game, 3, *args, MAX_LOG)
        kinds |= {v.kind for v in ref.check_to_hit(log, sheets, lords_rules())}
    assert {"to-hit number", "arc"} <= kinds


@pytest.mark.parametrize("range_mod", [False, True], ids=["as-printed", "range-key"])
def test_the_example_of_play_both_readings(range_mod):
    """The Example of Play (pp. 36-37) through the game loop: Kelvinight's breath at range 5
    in the grey hexes and Lectronist's in the dark ones, 9 and 8 as printed (no range row),
    10 and 9 with the Range Key's Long Range +1 (p.11). Checked under the other reading, both
    numbers are flagged."""
    rep = play_script("example", range_modifier=range_mod)
    rules = lords_rules(overrides=rep.manifest["rules_overrides"] or None)
    sheets = [sheet(n, rules=rules) for n in rep.names]
    assert ref.check_to_hit(rep.log, sheets, rules, range_modifier=range_mod) == []
    tns = [e["target_number"] for e in rep.events if e["event"] == "breath"]
    assert tns == ([10, 9] if range_mod else [9, 8])
    other = ref.check_to_hit(rep.log, sheets, rules, range_modifier=not range_mod)
    assert [v.kind for v in other] == ["to-hit number", "to-hit number"]


def _rows(log, kind, pred=lambda row: True):
    return [k for k in range(len(log)) if log[k, S.L_KIND] == kind and pred(log[k])]


def _plant_altitude(args, rules, seed, bend):
    """A breath and the attacker's move before it (no close combat that turn, so nothing else
    moves it), with an altitude for that move that changes the To-Hit table's altitude row
    (``bend`` False) or puts the target beyond the neck bend (``bend`` True, p.10)."""
    alt = rules.get("lords.altitude_mod")
    for game in range(60):
        _, log = E.logged_game(game, seed, *args, MAX_LOG)
        for b in _rows(log, S.K_BREATH, lambda row: row[S.L_A] >= 0):
            i, t, turn = (int(x) for x in log[b, [S.L_I, S.L_J, S.L_TURN]])
            if _rows(log, S.K_CC, lambda row, turn=turn: row[S.L_TURN] == turn):
                continue
            moves = [
                m
                for m in _rows(log, S.K_MOVE, lambda row, turn=turn: row[S.L_TURN] == turn)
                if m < b and log[m, S.L_I] == i
            ]
            if not moves:
                continue
            a_i = int(log[moves[-1], S.L_A + 5])
            a_t = int(log[b, S.L_SNAP + S.N_SNAP * t + 3])
            dist = int(log[b, S.L_A + 9])
            for new in range(1, 6):
                steps = abs(new - a_t)
                if new == a_i or (steps > dist) != bend:
                    continue
                if bend or alt[min(steps, 4)] != alt[min(abs(a_i - a_t), 4)]:
                    return log, b, moves[-1], new
    raise AssertionError("no breath to plant an altitude error before")


def test_the_checker_catches_planted_errors():
    """A checker that passes everything is a defect: a wrong target number, a wrong range, a
    wrong arc area, a wrong altitude in a move row (changing the altitude row of the To-Hit
    table for a breath later that turn, or putting the target beyond the neck bend, p.10) and
    a close combat's wrong facing roll (p.13) are each flagged."""
    args, sheets, rules = _duel_args("Reaper", "Skyblazer", ("random", "random"), True)

    def planted(log, row, col, value):
        assert ref.check_to_hit(log, sheets, rules) == []
        bad = log.copy()
        bad[row, col] = value
        return {v.kind for v in ref.check_to_hit(bad, sheets, rules)}

    log, b, m, new = _plant_altitude(args, rules, 9, bend=False)
    assert "to-hit number" in planted(log, b, S.L_A, log[b, S.L_A] + 1)
    assert "range" in planted(log, b, S.L_A + 9, log[b, S.L_A + 9] + 1)
    assert "arc" in planted(log, b, S.L_A + 10, (log[b, S.L_A + 10] + 1) % 3)
    assert {"to-hit number", "position"} <= planted(log, m, S.L_A + 5, new)
    log, b, m, new = _plant_altitude(args, rules, 9, bend=True)
    bad = log.copy()
    bad[m, S.L_A + 5] = new
    found = ref.check_to_hit(bad, sheets, rules)
    assert any(v.kind == "to-hit number" and "rules give -1" in v.why for v in found)
    # close combat: the loser's new facing from its direction-template roll
    args, sheets, rules = _duel_args("Tankerous", "Zippinchill", ("brawler", "brawler"), True)
    for game in range(40):
        _, log = E.logged_game(game, 4, *args, MAX_LOG)
        won = _rows(log, S.K_CC, lambda row: row[S.L_A] >= 0)
        if won:
            break
    cc = won[0]
    assert "position" in planted(log, cc, S.L_A + 10, (log[cc, S.L_A + 10] + 1) % 6)
