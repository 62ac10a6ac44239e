"""Warriors of Krynn: exact answers, and the kernels checked against them.

Tolerances come from the sample size: counts must be consistent with the exact probability
at alpha = 1e-6 per check (``binomial_consistent``), means within 5 standard errors.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from dragonsim.krynn import engine as K
from dragonsim.krynn.api import battle, conflict
from dragonsim.krynn.data import UnitCard, default_rules
from dragonsim.krynn.odds import (
    best_conflict_plan,
    conflict_odds,
    die_distribution,
    effective_difficulty,
    fight_distribution,
    hits_distribution,
    pool_distribution,
    single_line_battle,
)
from dragonsim.stats import binomial_consistent, z_for

N = 200_000


def brute_pool(n, rules=None):
    """All 6**n face sequences of n battle dice, counted one by one."""
    r = rules or default_rules()
    faces = [(f.hits, f.woe) for f in r.battle_die for _ in range(f.count)]
    out = {}
    for seq in itertools.product(faces, repeat=n):
        k = (sum(h for h, _ in seq), sum(w for _, w in seq))
        out[k] = out.get(k, 0) + Fraction(1, len(faces) ** n)
    return out


def test_battle_die_is_the_assumed_one():
    """The assumed battle die (krynn.battle_die, 'Battle Dice': "Each battle die has one or
    more of each of these faces"): Blank 2, Single Hit 2, Double Hit 1, Woe 1 of 6 faces."""
    d = die_distribution()
    assert d == {
        (0, 0): Fraction(2, 6),
        (1, 0): Fraction(2, 6),
        (2, 0): Fraction(1, 6),
        (0, 1): Fraction(1, 6),
    }


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_pool_convolution_matches_enumeration(n):
    assert pool_distribution(n) == brute_pool(n)


def test_overridden_die_changes_the_exact_odds():
    r = default_rules().replace(battle_die={"blank": 1, "single": 3, "double": 1, "woe": 1})
    assert pool_distribution(3, r) == brute_pool(3, r)
    assert hits_distribution(1, r)[1] == Fraction(1, 2)


def test_mastered_ability_reduces_difficulty():
    """ "A conflict's difficulty is reduced by 1 if the specified ability is one of your hero's
    mastered abilities." (the Hill Giant example: 3 becomes 2)"""
    assert effective_difficulty(3, mastered=True) == 2
    assert effective_difficulty(3) == 3


def test_hill_giant_example_roll_succeeds_and_exceeds():
    """Example: difficulty 2 after mastery, 3 dice, "a Single Hit, a Double Hit, and a Woe for
    a total of 3 hits ... You draw 1 equipment card because you exceeded the difficulty.
    Because of the Woe result, your hero takes 1 stress." """
    plan = np.zeros((4, 1, 1, 2), np.int64)
    plan[3, 0, 0] = (3, 0)
    # roll 3 dice of the assumed die until the example's roll (3 hits, 1 Woe) comes up
    res = np.zeros(8, np.int64)
    st = np.zeros(1, np.uint64)
    hits = np.array([1, 2, 0, 1, 2, 0], np.int64)
    woe = np.array([0, 0, 1, 0, 0, 1], np.int64)
    found = False
    for seed in range(200):
        st[0] = np.uint64(seed)
        K.play_conflict(2, plan, 3, 0, 0, hits, woe, st, res)
        if res[6] == 3 and res[7] == 1:
            assert res[0] == 1 and res[1] == 1 and res[2] == 1
            found = True
    assert found


@pytest.mark.parametrize(
    "difficulty,dice,mastered", [(1, 1, False), (3, 3, False), (3, 3, True), (4, 6, False)]
)
def test_conflict_kernel_matches_exact_odds(difficulty, dice, mastered):
    """ "If the hits equal or exceed the difficulty, you succeed." ... "If you roll more hits
    than the difficulty ... you also draw 1 equipment card." ... "each Woe result causes the
    hero to take 1 stress." Simulated success, exceed and the whole hits distribution agree
    with the exact convolution."""
    res = conflict(difficulty, dice=dice, mastered=mastered, n=N, progress=False)
    ex = conflict_odds(difficulty, dice, mastered=mastered)
    assert res.exact_success == ex["success"]
    assert binomial_consistent(res.success.k, N, float(ex["success"]))
    assert binomial_consistent(res.exceed.k, N, float(ex["exceed"]))
    hist = res.counters[K.K_HITS : K.K_HITS + K.K_BINS]
    for h, p in hits_distribution(dice).items():
        assert binomial_consistent(hist[h], N, float(p))
    m, lo, hi = res.mean_stress
    half = (hi - lo) / 2 * 5 / z_for(0.95)
    assert abs(m - float(ex["stress"])) < half


def brute_best(d, actions, cards):
    """Best success chance by trying every sequence of attempts (slow, obvious)."""
    ps = {
        n: sum((p for (h, _), p in pool_distribution(n).items() if h >= d), Fraction(0))
        for n in range(1, actions + cards + 1)
    }

    def go(a, c):
        best = Fraction(0)
        for sa in range(1, a + 1):
            for sc in range(c + 1):
                p = ps[sa + sc]
                best = max(best, p + (1 - p) * go(a - sa, c - sc))
        return best

    return go(actions, cards)


@pytest.mark.parametrize("d,actions,cards", [(1, 4, 0), (2, 4, 0), (3, 4, 1), (5, 4, 2)])
def test_best_plan_is_the_exact_optimum(d, actions, cards):
    """ "you may spend 1 or more actions to try again": the plan is optimal over every split."""
    plan = best_conflict_plan(d, actions=actions, cards=cards)
    assert plan.success == brute_best(d, actions, cards)
    # and at least as good as spending everything on one roll
    all_in = conflict_odds(d, actions + cards)["success"]
    assert plan.success >= all_in


def test_best_plan_retries_when_splitting_is_better():
    """Difficulty 1 with 4 actions: one die at a time (retrying) ties with 4 dice at once but
    spends fewer actions on average, so the plan opens with a single die."""
    plan = best_conflict_plan(1, actions=4)
    assert plan.first == (1, 0)
    assert plan.success == 1 - Fraction(1, 2) ** 4
    assert plan.expected_actions < 4


def test_simulated_plan_matches_its_exact_success():
    """The kernel following the plan's table (retries included) succeeds as often as the
    exact dynamic programme says."""
    res = conflict(2, actions=4, cards=1, n=N, progress=False)
    assert binomial_consistent(res.success.k, N, float(res.exact_success))
    assert binomial_consistent(res.exceed.k, N, float(res.exact_exceed))
    m, lo, hi = res.mean_stress
    assert abs(m - float(res.exact_stress)) < (hi - lo) / 2 * 5 / z_for(0.95)
    plan = best_conflict_plan(2, actions=4, cards=1)
    mean_cards = res.counters[K.K_CARDS] / N
    assert abs(mean_cards - float(plan.expected_cards)) < 5 * np.sqrt(1.0 / N) + 1e-12


def _one_card_rules(a_dice, d_dice, **kw):
    r = default_rules()
    decks = {
        s: {line: (UnitCard("x", "hits", 0, line),) for line in ("foot", "missile", "mounted")}
        for s in ("alliance", "army")
    }
    decks["alliance"]["foot"] = (UnitCard("a", "dice", a_dice, "foot"),)
    decks["army"]["foot"] = (UnitCard("d", "dice", d_dice, "foot"),)
    return r.replace(decks=decks, skirmish_die=["foot"] * 6, **kw)


def test_one_fight_hit_distribution_matches_exact():
    """One fight: the Alliance Foot line (4) attacks the Army Foot line (3 units, 1 barricade)
    with 3 battle dice; the distribution of both Foot lines afterwards matches the exact one
    (hits to the defending line, barricades first; Woe hits to the attacking line)."""
    rules = _one_card_rules(3, 1)
    n = N
    res = battle(
        alliance="foot=4,missile=1",
        army="foot=3,missile=1",
        army_barricades="foot=1",
        max_turns=1,
        n=n,
        progress=False,
        rules=rules,
    )
    exact = fight_distribution(
        (3, 0, 1, 0), (4, 0, 0, 0), 3, defender_ready_first=True, attacker_ready_first=False
    )
    for side, idx in (("army", 0), ("alliance", 1)):
        marg = {}
        for k, p in exact.items():
            rs = k[idx][:2]
            marg[rs] = marg.get(rs, Fraction(0)) + p
        hist = res.line_histogram(side, "foot")
        assert hist.sum() == n
        for (r_, s_), p in marg.items():
            assert binomial_consistent(hist[r_, s_], n, float(p)), (side, r_, s_)
        assert sum(hist[r_, s_] for (r_, s_) in marg) == n  # nothing outside the support


@pytest.mark.parametrize(
    "kw",
    [
        dict(alliance=3, army=3, alliance_dice=2, army_dice=2),
        dict(alliance=3, army=3, alliance_dice=2, army_dice=2, alliance_tactics=1),
        dict(alliance=4, army=5, alliance_dice=3, army_dice=2, alliance_barricades=2),
        dict(alliance=2, army=2, alliance_dice=1, army_dice=3, army_barricades=1),
    ],
)
def test_tile_control_over_many_turns_matches_exact(kw):
    """Battles "turn after turn until the tile is controlled": the probability each side
    controls the tile and the mean number of battles match the exact recursion."""
    ex = single_line_battle(**kw)
    rules = _one_card_rules(kw["alliance_dice"], kw["army_dice"])
    res = battle(
        alliance={"foot": kw["alliance"]},
        army={"foot": kw["army"]},
        barricades={"foot": kw.get("alliance_barricades", 0)},
        army_barricades={"foot": kw.get("army_barricades", 0)},
        tactics={"foot": kw.get("alliance_tactics", 0)},
        max_turns=2000,
        n=N,
        progress=False,
        rules=rules,
    )
    assert res.p_undecided.k == 0
    assert binomial_consistent(res.p_alliance_controls.k, N, float(ex["alliance"]))
    m, lo, hi = res.mean_turns
    half = (hi - lo) / 2 * 5 / z_for(0.95)
    assert abs(m - float(ex["turns"])) < half


def test_tactic_token_value_is_detected():
    """The exact answer to "is a tactic token worth it?" in the single-line setting: a token
    turns a tied line (Army attacks) into an Alliance attack on the first fight."""
    base = single_line_battle(alliance=3, army=3, alliance_dice=2, army_dice=2)
    tok = single_line_battle(alliance=3, army=3, alliance_dice=2, army_dice=2, alliance_tactics=1)
    assert tok["alliance"] > base["alliance"]


@pytest.mark.parametrize("policy", ["removals", "all", "last"])
def test_heroes_absorbing_hits_match_exact(policy):
    """ "Heroes on the active flank may choose to absorb hits instead of units or barricades.
    For each hit they absorb, a hero takes 1 stress." Two heroes (maximum stress 4) by each
    policy: control probability, mean stress and mean battles match the exact recursion."""
    kw = dict(alliance=3, army=4, alliance_dice=2, army_dice=2, heroes=2, hero_policy=policy)
    ex = single_line_battle(**kw)
    rules = _one_card_rules(2, 2)
    res = battle(
        alliance="foot=3",
        army="foot=4",
        heroes=2,
        hero_policy=policy,
        max_turns=2000,
        n=N,
        progress=False,
        rules=rules,
    )
    assert res.p_undecided.k == 0
    assert binomial_consistent(res.p_alliance_controls.k, N, float(ex["alliance"]))
    for got, want in ((res.mean_stress, ex["stress"]), (res.mean_turns, ex["turns"])):
        m, lo, hi = got
        assert abs(m - float(want)) < (hi - lo) / 2 * 5 / z_for(0.95)
    assert ex["stress"] > 0
