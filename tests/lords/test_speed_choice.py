"""The speed a bot records ("2. Record Speed", p.7): hunter-5 flies as fast as it may.

hunter-4 records a speed by rule of thumb (9, 7 within 4 hexes of the nearest enemy, as fast
as it may beyond 12); hunter-5, after the first turn, the fastest speed the rules allow it,
gaining at most ``W_GAIN_MAX`` on last turn's. Its speeds are legal under every preset (the
independent checker, ``test_bots_legal``); these tests show it uses the room the rules give
and that it pays.
"""

from __future__ import annotations

import numpy as np

from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game import state as S
from dragonsim.rules import lords_rules
from dragonsim.stats import wilson

NO_RECORDS = np.zeros((0, S.N_REC), np.int64)
#: the wings' "Advanced Acceleration Allowance" (p.16) alone: Huge wings 6 a turn
ALLOWANCE = lords_rules({"lords.advanced.acceleration": True})


def _counters(a, b, policies, n, seed, rules=None, gain_max=None):
    prep = prepare(a, b, policies=policies, rules=rules)
    args = list(prep["args"])
    if gain_max is not None:
        args[5] = args[5].copy()
        args[5][BP.PLAN_WEIGHTS, BP.W_GAIN_MAX] = gain_max
    return E.duel_kernel(0, n, seed, *args, NO_RECORDS)


def test_huge_wings_gain_more_than_3_under_the_allowance_with_hunter_5_only():
    """Under the Advanced Acceleration Allowance (Huge wings 6, p.16) hunter-5 flying Reaper
    and Skyblazer (both Huge) records speeds more than 3 above last turn's; hunter-4, whose
    rule of thumb never asks for them, records none in the same games."""
    five = _counters("Reaper", "Skyblazer", ("hunter@5", "hunter@5"), 1000, 4, ALLOWANCE)
    four = _counters("Reaper", "Skyblazer", ("hunter@4", "hunter@4"), 1000, 4, ALLOWANCE)
    assert five[S.C_SPEED_GAIN] / 1000 > 0.5
    assert four[S.C_SPEED_GAIN] == 0


def test_hunter_5_beats_hunter_4_in_the_tankerous_mirror():
    """The same dragon on both sides, hunter-5 in each seat in turn: hunter-4 slows to 7 near
    the enemy, where Tankerous (rating I, 2-point turns) is left behind; hunter-5 keeps its
    speed and wins most games (``benchmarks/speed_skill.py``). The 95% interval of its share
    of the decided games lies above 75%."""
    won = decided = 0
    for seat, pols in enumerate((("hunter@5", "hunter@4"), ("hunter@4", "hunter@5"))):
        c = _counters("Tankerous", "Tankerous", pols, 800, 30 + seat)
        won += int(c[S.C_WIN + seat])
        decided += int(c[S.C_WIN] + c[S.C_WIN + 1])
    lo, _ = wilson(won, decided)
    assert lo > 0.75, (won, decided)


def test_the_gain_cap_reaches_hunter_5_and_not_hunter_4():
    """``W_GAIN_MAX`` (the planning table's weights row) at 3 keeps hunter-5 within the basic
    acceleration (p.7) under the allowance: no gain above 3, and other games than the
    released hunter-5's; hunter-4's games stay the same to the bit."""
    five = _counters("Reaper", "Skyblazer", ("hunter@5", "hunter@5"), 400, 8, ALLOWANCE, 3)
    assert five[S.C_SPEED_GAIN] == 0
    assert not np.array_equal(
        five, _counters("Reaper", "Skyblazer", ("hunter@5", "hunter@5"), 400, 8, ALLOWANCE)
    )
    four = _counters("Reaper", "Skyblazer", ("hunter@4", "hunter@4"), 400, 8, ALLOWANCE, 3)
    base = _counters("Reaper", "Skyblazer", ("hunter@4", "hunter@4"), 400, 8, ALLOWANCE)
    assert np.array_equal(four, base)
