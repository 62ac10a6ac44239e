"""Monte Carlo frequencies of the atomic events inside the game kernel (breath to-hit,
Dragon Lords rulebook pp. 10-11; the Damage Allocation Table, p.11; close combat, p.13) match
the exact odds (:mod:`dragonsim.lords.game.odds`), with tolerances derived from the counts
(:func:`dragonsim.stats.binomial_consistent`, alpha 1e-6 per check)."""

import numpy as np

from dragonsim.lords import engine as E
from dragonsim.lords.api import prepare
from dragonsim.lords.game import odds
from dragonsim.lords.game import state as S
from dragonsim.rules.lords import DIRECTIONS, PARTS
from dragonsim.stats import binomial_consistent

ALPHA = 1e-6


def _run(a, b, pols, n, seed):
    prep = prepare(a, b, policies=pols, plan_samples=16)
    return E.duel_kernel(0, n, seed, *prep["args"], np.zeros((0, S.N_REC), np.int64))


def test_breath_hit_rates_match_exact_to_hit_odds():
    """'Roll 2d6. If the result is equal to or higher than your final modified target number,
    you hit ... A roll of 2 always misses, and a roll of 12 always hits': for every target
    number the kernel met often enough, hits/tries is consistent with P(2d6 >= TN)."""
    c = _run("Skyblazer", "Reaper", ("random", "hunter"), 4000, 21)
    checked = 0
    for tn in range(32):
        tries = int(c[S.C_TN_TRIES + tn])
        hits = int(c[S.C_TN_HITS + tn])
        if tries < 200:
            continue
        p = float(odds.p_to_hit(tn))
        assert binomial_consistent(hits, tries, p, ALPHA), (tn, hits, tries, p)
        checked += 1
    assert checked >= 4  # several target numbers were really exercised


def test_hit_locations_match_the_damage_allocation_table():
    """'Roll 2d6 and cross-reference that number with the direction the attack came from on the
    Damage Allocation Table': per direction, each part's frequency matches its exact odds."""
    c = _run("Reaper", "Lectronist", ("random", "random"), 3000, 22)
    checked = 0
    for side in range(6):
        counts = c[S.C_LOC + 5 * side : S.C_LOC + 5 * side + 5]
        total = int(counts.sum())
        if total < 300:
            continue
        exact = odds.location(DIRECTIONS[side])
        for p, part in enumerate(PARTS):
            assert binomial_consistent(int(counts[p]), total, float(exact[part]), ALPHA), (
                side,
                part,
                counts,
                total,
            )
        checked += 1
    assert checked >= 3


def test_close_combat_outcomes_match_exact_odds():
    """'Both of the dragons ... roll 2d6 and add the close combat modifiers ... The highest
    modified result wins ... If the numbers are tied, the combat is a draw': win/draw/loss
    frequencies per modifier difference match the exact odds (also checked against
    odds.close_combat for the sheets' own modifiers)."""
    c = _run("Zippinchill", "Reaper", ("brawler", "brawler"), 3000, 23)
    cc = c[S.C_CC : S.C_CC + 3 * 41].reshape(41, 3)
    checked = 0
    for di in range(41):
        total = int(cc[di].sum())
        if total < 200:
            continue
        exact = odds.close_combat_by_difference(di - 20)
        for k in range(3):
            assert binomial_consistent(int(cc[di, k]), total, float(exact[k]), ALPHA), (
                di - 20,
                cc[di],
                exact,
            )
        checked += 1
    assert checked >= 1
    # the healthy sheets' difference (Zippinchill A 9 vs Reaper E 5 = +4) agrees with odds.py
    assert odds.close_combat_by_difference(4) == odds.close_combat("Zippinchill", "Reaper")
    assert cc[24].sum() >= 200
