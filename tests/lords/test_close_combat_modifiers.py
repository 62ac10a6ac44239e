"""Close combat's modifiers, one for the odds and the engine: the exact close-combat odds
(:func:`dragonsim.lords.game.odds.close_combat`) and the engine's close combats use the same
modifiers, under the basic rules and with riders in play and the printed sheet values, for
every pairing of the twelve ready-made dragons.

"Both of the dragons involved in the close combat roll 2d6 and add the close combat modifiers
listed on their respective play sheets to their own results. The highest modified result wins
the combat. If the numbers are tied, the combat is a draw" (Dragon Lords rulebook, p.13);
"The Lancer adds +2 to the dragon's close combat roll and +4 points of damage in close combat"
(p.18), a rider, and riders act only in the advanced rules (p.15). The engine counts each
close combat by modifier difference and outcome (``C_CC`` bins of
:mod:`dragonsim.lords.game.state`); the frequencies must agree with the exact odds, each count
within an exact binomial test at a family-wise alpha of 1e-3 (Bonferroni over the checks).
"""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest
from numba import njit

from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.engine.inputs import guard
from dragonsim.lords.game import odds
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import ROSTER, close_combat_modifier, sheet
from dragonsim.random import STREAM_GAME, STREAM_POLICY, seed_stream
from dragonsim.rules import lords_rules
from dragonsim.stats import binomial_consistent

NAMES = list(ROSTER)
#: the 66 pairings and the 12 mirror matches; each is fought in both initiative orders
PAIRS = list(itertools.combinations_with_replacement(NAMES, 2))
RULES = {
    "basic": {},
    "riders": {"advanced.lancer": True},
    "riders+printed": {"advanced.lancer": True, "printed_sheet_values": 1},
}
FIGHTS = 2000  # close combats per ordered pairing and rules
GAMES = 400  # brawler games per pairing and rules
ALPHA = 1e-3


def _cc(counts) -> np.ndarray:
    """The ``C_CC`` counters as [modifier difference + 20, (win, draw, loss) of the dragon
    first in initiative order]."""
    return counts[S.C_CC : S.C_CC + 3 * (S.CC_DIFF_MAX + 1)].reshape(-1, 3)


def _consistent(row, exact, alpha) -> bool:
    total = int(row.sum())
    return all(binomial_consistent(int(row[k]), total, float(exact[k]), alpha) for k in range(3))


@njit(cache=True)
def _fights(n, seed, dragons, opt, tb, w, cnt):
    """``n`` close combats between two healthy dragons (rows ``dragons``, dragon 0 first in
    initiative order), each from its own streams, through the engine's own close-combat phase
    (:func:`dragonsim.lords.engine.close_combat`), into the counters ``cnt``."""
    ds = w.ds[:2]
    for k in range(n):
        seed_stream(w.gst, seed, k, np.int64(STREAM_GAME))
        seed_stream(w.pst, seed, k, np.int64(STREAM_POLICY))
        E.init_dragons(ds, dragons, tb, opt)
        for i in range(2):
            ds[i, S.F_ENG] = 1 - i
            ds[i, S.F_INIT] = i
            ds[i, S.F_ALT] = 3
            ds[i, S.F_SPEED] = ds[i, S.F_MIN]
            w.order[i] = i
        E.close_combat(ds, np.int64(2), E.rules_inputs(opt, tb), w, cnt, np.int64(1), None)


@pytest.mark.slow
@pytest.mark.parametrize("label", list(RULES))
def test_every_pairing_fights_with_the_odds_modifiers(label):
    """For every pairing of the ready-made dragons in both orders, riders included, the engine's
    close combats (its own phase, from the kernel arguments a duel gets) fall in exactly the
    bin of the odds' modifier difference, and win / draw / loss there agree with
    odds.close_combat: basic rules without the Lancer (p.13: riders do not act), with riders
    the Lancer's +2 (p.18), with the printed sheet values Tankerous's printed 9 (p.34)."""
    rs = lords_rules(RULES[label])
    alpha = ALPHA / (3 * 2 * len(PAIRS))
    w = E.new_work()
    for k, (a, b) in enumerate(PAIRS):
        dragons, _, opt, tb, _, _ = prepare(a, b, policies=("brawler", "brawler"), rules=rs)["args"]
        for first, second, rows in ((a, b, dragons), (b, a, dragons[::-1].copy())):
            cnt = np.zeros(S.N_COUNTERS, np.int64)
            _fights(FIGHTS, 1000 + 2 * k + (rows is not dragons), rows, opt, tb, w, cnt)
            cc = _cc(cnt)
            s1, s2 = sheet(first, rules=rs), sheet(second, rules=rs)
            diff = close_combat_modifier(s1, rs) - close_combat_modifier(s2, rs)
            occupied = [int(d) - S.CC_DIFF_ZERO for d in np.flatnonzero(cc.sum(axis=1))]
            assert occupied == [diff], (label, first, second, occupied, diff)
            exact = odds.close_combat(first, second, rules=rs)
            row = cc[diff + S.CC_DIFF_ZERO]
            assert _consistent(row, exact, alpha), (label, first, second, row, exact)


def test_the_rules_in_force_decide_the_modifiers():
    """The pairing where the rules in force decide: Zippinchill (A, 9) against Tankerous
    (I, 1, a Lancer): basic rules 9 vs 1, riders 9 vs 1 + 2 (p.18), and with the printed sheet
    values 9 vs 9 + 2 (Tankerous's sheet prints 9, p.34); the engine's options follow the same
    rule."""
    want = {"basic": (9, 1, 0), "riders": (9, 3, 1), "riders+printed": (9, 11, 1)}
    for label, (mz, mt, riders) in want.items():
        rs = lords_rules(RULES[label])
        z, t = sheet("Zippinchill", rules=rs), sheet("Tankerous", rules=rs)
        assert (close_combat_modifier(z, rs), close_combat_modifier(t, rs)) == (mz, mt)
        prep = prepare("Zippinchill", "Tankerous", rules=rs)
        assert prep["options"][S.OPT_RIDERS] == riders
        assert list(prep["args"][0][:, S.D_CC]) == [z.cc, t.cc]
        assert odds.close_combat(z, t, rules=rs) == odds.close_combat_by_difference(mz - mt)


def _brawl(a, b, rs, seed):
    prep = prepare(a, b, policies=("brawler", "brawler"), rules=rs)
    return _cc(E.duel_kernel(0, GAMES, seed, *prep["args"], np.zeros((0, S.N_REC), np.int64)))


@pytest.mark.slow
@pytest.mark.parametrize("label", ["basic", "riders+printed"])
def test_brawler_games_agree_with_the_odds(label):
    """Whole games (``brawler`` engages whenever it may): in every pairing of the ready-made
    dragons, every modifier difference the engine met has win / draw / loss frequencies
    consistent with the exact odds for that difference (p.13); the healthy dragons' difference
    from odds.close_combat (either dragon may come first in initiative order) is where most
    fights are, and there the frequencies are those of odds.close_combat for the pairing.
    (Serious tail damage moves the rest: it "does affect your close combat modifier", p.12.)"""
    rs = lords_rules(RULES[label])
    pairs = list(itertools.combinations(NAMES, 2))
    results = [(a, b, _brawl(a, b, rs, 77 + k)) for k, (a, b) in enumerate(pairs)]
    checks = sum(3 * int(np.count_nonzero(cc.sum(axis=1) >= 30)) for _, _, cc in results)
    alpha = ALPHA / max(checks, 1)
    fought = 0
    for a, b, cc in results:
        diff = close_combat_modifier(sheet(a, rules=rs), rs) - close_combat_modifier(
            sheet(b, rules=rs), rs
        )
        total = int(cc.sum())
        if total == 0:
            continue
        fought += 1
        healthy = cc[S.CC_DIFF_ZERO + diff].sum() + (cc[S.CC_DIFF_ZERO - diff].sum() if diff else 0)
        assert 2 * healthy > total, (label, a, b, diff, cc.sum(axis=1))
        for d in range(S.CC_DIFF_MAX + 1):
            if cc[d].sum() >= 30:
                exact = odds.close_combat_by_difference(d - S.CC_DIFF_ZERO)
                assert _consistent(cc[d], exact, alpha), (label, a, b, d - 20, cc[d], exact)
        first, second = odds.close_combat(a, b, rules=rs), odds.close_combat(b, a, rules=rs)
        assert odds.close_combat_by_difference(diff) == first
        assert odds.close_combat_by_difference(-diff) == second
    assert fought >= 60  # the brawler really fights in (almost) every pairing


# the compiled helpers above inline the engine's phases: their cache goes whenever a file of
# the engine, the bots or the game changes (a kept one would run yesterday's engine)
guard(sys.modules[__name__])
