"""Bots: every decision legal (replayed by the independent checker in
:mod:`dragonsim.lords.reference`), and bots differ measurably."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dragonsim.errors import UserError
from dragonsim.lords import engine as E
from dragonsim.lords import reference as ref
from dragonsim.lords.api import prepare
from dragonsim.lords.policies import POLICIES, policy_id

DRAGONS = ["Reaper", "Skyblazer", "Lectronist", "Kelvinight", "Zippinchill", "Tankerous",
           "Ozonic", "Slash"]


def _play_logged(a, b, pols, seed, game, turn_limit=60):
    prep = prepare(a, b, policies=pols, turn_limit=turn_limit, plan_samples=16)
    args = prep["args"]
    cnt, log = E.logged_game(game, seed, *args, 5000)
    return prep, cnt, log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(DRAGONS), st.sampled_from(DRAGONS),
       st.sampled_from(list(POLICIES)), st.sampled_from(list(POLICIES)),
       st.integers(0, 2**31), st.integers(0, 10**6))
def test_every_bot_decision_is_legal(a, b, pa, pb, seed, game):
    """'Every move a bot makes must be legal': speeds (min/max, +3, the speed-10 streak and
    cool-down), moves (exact points, turning costs, no two turns in a row, no more than 180
    degrees, one altitude level per hex, the board edge, never ending in an occupied hex),
    engagements and breath targets, replayed independently of the engine."""
    prep, cnt, log = _play_logged(a, b, (pa, pb), seed, game)
    assert cnt[E.C_GAMES] == 1
    kinds = set(int(k) for k in log[:, E.L_KIND])
    assert E.K_MOVE in kinds and E.K_SPEED in kinds and E.K_END in kinds
    bad = ref.check_log(log, 2, prep["args"][0], prep["tables"])
    assert bad == [], bad[:3]


def test_checker_catches_an_illegal_move():
    """A test that would pass if the checker were missing is a defect: tamper with a logged
    move (further than the speed allows, a speed over the limits) and the checker must object."""
    prep, cnt, log = _play_logged("Reaper", "Skyblazer", ("hunter", "hunter"), 3, 7)
    moves = np.flatnonzero(log[:, E.L_KIND] == E.K_MOVE)
    bad = log.copy()
    k = moves[0]
    bad[k, E.L_A + 2] += 20  # end 20 hexes further east: beyond any speed
    assert ref.check_log(log, 2, prep["args"][0], prep["tables"]) == []
    assert any(v.kind == "move" for v in ref.check_log(bad, 2, prep["args"][0],
                                                       prep["tables"]))
    bad = log.copy()
    bad[k, E.L_KIND] = E.K_LEAVE  # fly off the board from where a move stays on it
    assert any(v.kind == "leave" for v in ref.check_log(bad, 2, prep["args"][0],
                                                        prep["tables"]))
    bad = log.copy()
    s = np.flatnonzero(log[:, E.L_KIND] == E.K_SPEED)[-1]
    bad[s, E.L_A] = 99
    assert any(v.kind == "speed" for v in ref.check_log(bad, 2, prep["args"][0],
                                                        prep["tables"]))


def test_games_end_and_dice_are_rolled():
    """Conformance: games end (a winner, a draw, or the turn limit) and counters add up."""
    prep = prepare("Reaper", "Skyblazer", policies=("random", "random"), turn_limit=300,
                   plan_samples=8)
    c = E.duel_kernel(0, 300, 5, *prep["args"], np.zeros((0, E.N_REC), np.int64))
    assert c[E.C_GAMES] == 300
    assert c[E.C_WIN] + c[E.C_WIN + 1] + c[E.C_DRAWS] == 300
    assert c[E.C_TURN_HIST:E.C_TURN_HIST + E.HIST_MAX + 1].sum() == 300
    assert c[E.C_DICE] > 0


def test_unknown_policy_is_a_user_error():
    with pytest.raises(UserError, match="unknown policy 'hunterr'.*did you mean 'hunter'"):
        policy_id("hunterr")
    assert policy_id("HUNTER") == POLICIES["hunter"][0]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from(list(POLICIES)))
def test_multi_dragon_games_are_legal(seed, pol):
    """Free-for-all and team games with more dragons: same checks, more occupied hexes."""
    from dragonsim.lords.api import dragon_row
    from dragonsim.lords.sheets import sheet

    names = ["Reaper", "Skyblazer", "Zippinchill", "Lectronist"]
    prep = prepare("Reaper", "Skyblazer", policies=(pol, pol), turn_limit=40, plan_samples=8)
    rows = np.stack([dragon_row(sheet(nm), t, pol) for nm, t in
                     zip(names, [0, 1, 0, 1], strict=True)])
    args = list((rows, np.zeros((4, 5), np.int64), *prep["args"][2:]))
    # move tables for every maneuverability rating (those of the four sheets, not two)
    mi = next(k for k, a in enumerate(args) if isinstance(a, E.MoveTables))
    args[mi] = E.move_tables(prep["tables"].turn_cost)
    cnt, log = E.logged_game(1, seed, *args, 8000)
    assert ref.check_log(log, 4, rows, prep["tables"]) == []
