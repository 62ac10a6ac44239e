"""Moving earlier in the phase (Dragon Lords rulebook, advanced rules, p.15).

"A dragon with a high initiative may, if it likes, move earlier in the phase. Simply announce
your intention to move any time before you would normally. Once you commit to move early, you
may not change your mind. If more than one player would like to move at a particular time, the
one with the higher initiative roll moves first. This rule does not pertain to rider actions.
Riders must act in the original initiative order." Switch ``lords.advanced.move_early``.
"""

from __future__ import annotations

import lords_reference as ref
import numpy as np
import pytest

from dragonsim.lords import engine as E
from dragonsim.lords.api import battle_setup, duel, prepare
from dragonsim.lords.game import state as S
from dragonsim.lords.views.script import play_script
from dragonsim.rules import lords_rules
from dragonsim.stats import binomial_consistent

EARLY = {"lords.advanced.move_early": True}
ADVANCED = lords_rules(preset="advanced")


@pytest.mark.parametrize("pol", ["hunter", "hunter@2", "hunter@3", "brawler", "sniper"])
def test_the_planners_never_move_early(pol):
    """A later mover sees more of the board (the dragon moving first wins 7.9 points less
    often in the default duel) and only an enemy that has moved can be engaged (p.9), so the
    planners never announce: their games are those of the basic rules, to the bit."""
    kw = dict(n=300, seed=4, progress=False, policy=pol)
    on = duel("Reaper", "Skyblazer", rules=EARLY, **kw).counters
    assert on[S.C_EARLY] == 0
    assert np.array_equal(on, duel("Reaper", "Skyblazer", **kw).counters)


def test_the_random_bot_announces_at_half_its_chances():
    """The random bot plays every legal timing: at each chance (before the other dragon's
    turn to move, while it has not moved) it announces with probability 1/2, binomially
    over the chances the logs show; an announcement moves it before the dragon due."""
    chances = announced = first = 0
    for game in range(60):
        prep = prepare("Ozonic", "Tankerous", policies=("random", "random"), rules=EARLY)
        _, log = E.logged_game(game, 3, *prep["args"], 5000)
        for t in np.unique(log[:, S.L_TURN]):
            rows = log[log[:, S.L_TURN] == t]
            init = rows[rows[:, S.L_KIND] == S.K_INIT]
            if len(init) < 2:
                continue
            chances += 1
            ann = rows[rows[:, S.L_KIND] == S.K_EARLY]
            announced += len(ann)
            moves = rows[np.isin(rows[:, S.L_KIND], (S.K_MOVE, S.K_LEAVE)), S.L_I]
            late = init[init[:, S.L_A] == 1, S.L_I][0]
            if len(ann):
                assert ann[0, S.L_I] == late and moves[0] == late
                first += 1
    assert chances > 300 and first == announced
    assert binomial_consistent(announced, chances, 0.5, alpha=1e-4)


def test_four_random_dragons_legal_by_the_checker():
    """Four random dragons, all advanced rules: several announce at one moment and move
    highest roll first; the checker (initiative places from the log, p.15) finds every move
    in order or announced, every announcer later in the order and not yet moved."""
    names = ["Ozonic", "Fiercival", "Reaper", "Skyblazer"]
    sheets, _, _, rs, args = battle_setup(names, policy="random", rules=ADVANCED)
    multi = 0
    for game in range(4):
        cnt, log = E.logged_game(game, 9, *args, 20000)
        v = ref.check_log(log, 4, args[0], args[3], options=args[2])
        v += ref.check_events(log, sheets, args[3], cnt, rules=rs)
        assert v == [], v[:3]
        ann = log[log[:, S.L_KIND] == S.K_EARLY]
        keys = [(int(r[S.L_TURN]), int(r[S.L_J])) for r in ann]
        multi += len(keys) - len(set(keys))
    assert multi > 0  # two or more announced at one moment


def test_the_checker_flags_an_early_move_not_announced_or_out_of_order():
    """Without its announcement an early move is out of initiative order; announcements of
    one moment in the wrong order break "the one with the higher initiative roll moves
    first"; and the rule must be on."""
    names = ["Ozonic", "Fiercival", "Reaper", "Skyblazer"]
    _, _, _, _, args = battle_setup(names, policy="random", rules=ADVANCED)
    _, log = E.logged_game(1, 9, *args, 20000)
    kinds = log[:, S.L_KIND]
    v = ref.check_log(log[kinds != S.K_EARLY], 4, args[0], args[3], options=args[2])
    assert any(x.kind == "order" for x in v)
    assert any(x.kind == "early" for x in ref.check_log(log, 4, args[0], args[3]))
    ann = np.where(kinds == S.K_EARLY)[0]
    pair = [
        (a, b)
        for a, b in zip(ann[:-1], ann[1:], strict=True)
        if b == a + 1 and log[a, S.L_J] == log[b, S.L_J]
    ]
    assert pair
    swapped = log.copy()
    a, b = pair[0]
    swapped[[a, b]] = swapped[[b, a]]
    v = ref.check_log(swapped, 4, args[0], args[3], options=args[2])
    assert any("higher roll" in x.why for x in v)


def _spec(early: bool):
    move = {"speed": 6, "path": "6F"}
    return {
        "title": "moving early",
        "rules": {**EARLY, "lords.advanced.rider_attacks": True},
        "dragons": [
            {"dragon": "Fiercival", "hex": [5, 10], "facing": "E", "altitude": "Medium"},
            {"dragon": "Ozonic", "hex": [20, 10], "facing": "W", "altitude": "Medium"},
        ],
        "turns": [
            {
                "dice": [5, 9, 2, 2],
                "moves": {
                    "Fiercival": dict(move, rider="Ozonic"),
                    "Ozonic": dict(move, rider="Fiercival", early=early),
                },
            }
        ],
    }


def test_a_script_moves_early_and_the_riders_keep_the_initiative_order():
    """Ozonic rolls 9 against Fiercival's 5, so it moves second; with ``"early": true`` it
    announces and flies first. "Riders must act in the original initiative order" (p.15):
    Fiercival's Archer still shoots before Ozonic's Crossbow Shooter (both miss on 2)."""
    rep = play_script(_spec(True))
    ev = [(e["event"], e["dragon"]) for e in rep.events if e["turn"] == 1]
    moves = [d for k, d in ev if k == "move"]
    shots = [d for k, d in ev if k == "rider shot"]
    assert ("moves early", "Ozonic") in ev and moves == ["Ozonic", "Fiercival"]
    assert shots == ["Fiercival", "Ozonic"]
    assert "Ozonic moves earlier in the phase, before Fiercival (p.15)" in rep.text()
    plain = play_script(_spec(False))
    assert [e["dragon"] for e in plain.events if e["event"] == "move"] == ["Fiercival", "Ozonic"]


def test_hunter_5_moves_early_only_when_its_switch_says_so_and_loses_for_it():
    """hunter-5's ``W_EARLY`` (the planning table's weights row) at 1 makes it announce at
    every chance; hunter-4 does not read it, and its games against hunter-4 then go to the
    dragon that moves last: the later mover gets behind the earlier one (measured over the 12
    mirrors, ``benchmarks/early_moves.py``: 63% as released, 10% moving early)."""
    from dragonsim.lords.bots import plan as BP

    def games(pols, early):
        args = list(prepare("Reaper", "Reaper", policies=pols, rules=ADVANCED)["args"])
        args[5] = args[5].copy()
        args[5][BP.PLAN_WEIGHTS, BP.W_EARLY] = early
        return E.duel_kernel(0, 400, 6, *args, np.zeros((0, S.N_REC), np.int64))

    released = games(("hunter@5", "hunter@4"), 0.0)
    early = games(("hunter@5", "hunter@4"), 1.0)
    assert released[S.C_EARLY] == 0 and early[S.C_EARLY] > 0
    assert early[S.C_WIN] < released[S.C_WIN] / 2
    four = games(("hunter@4", "hunter@4"), 1.0)
    assert np.array_equal(four, games(("hunter@4", "hunter@4"), 0.0))
