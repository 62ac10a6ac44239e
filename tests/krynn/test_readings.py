"""Both readings of each Warriors of Krynn rule sentence that has two (or more), and the
interpretations the kernels used to fix in code: each test quotes the sentence, plays every
reading the rule ``krynn.<name>`` allows and checks what that reading says happens.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dragonsim.krynn import engine as K
from dragonsim.krynn.api import Tile, battle, battlefield, conflict
from dragonsim.krynn.data import OPTION_ORDER, Commander, UnitCard, default_rules
from dragonsim.krynn.odds import apply_hits_reference, best_conflict_plan, retry_pool
from dragonsim.rules import registry
from dragonsim.stats import binomial_consistent

from .test_battle_rules import Game, deck_rules


def test_kernel_option_slots_follow_the_rules_order():
    """data.OPTION_ORDER and the kernel's O_* slots agree, and code 0 is every rule's
    default (so a zeroed option slot plays the default reading)."""
    slots = [
        K.O_ALLIANCE_HITS,
        K.O_ARMY_HITS,
        K.O_HERO_POLICY,
        K.O_MAX_STRESS,
        K.O_MUTUAL,
        K.O_BARRICADE_ORDER,
        K.O_ANY_LINE,
        K.O_EMPTY_LINES,
        K.O_HERO_CHOICE,
        K.O_STRESS_RECOVERY,
        K.O_CMD_LINE,
        K.O_CMD_WOE,
        K.O_FLANK_MOVE,
        K.O_ACTIVE_FLANK,
        K.O_LINE_CAP,
    ]
    assert slots == list(range(len(OPTION_ORDER))) and K.N_RULE_OPTS == len(OPTION_ORDER)
    reg = registry("krynn")
    for name, choices in OPTION_ORDER:
        rule = reg[f"krynn.{name}"]
        assert choices is None or choices == rule.choices
    for name in ("barricade_order", "any_line", "empty_lines", "hero_choice", "flank_move"):
        assert reg[f"krynn.{name}"].choices.index(reg[f"krynn.{name}"].value) == 0


# --- conflicts: a retry --------------------------------------------------------------------------
def test_conflict_retry_new_pool_or_pool_carried_over():
    """ "If you roll fewer hits, you fail, but you may spend 1 or more actions to try again."
    A retry as a new pool (default) or the pool carried over: difficulty 3, 4 actions, 2
    cards, best play, 0.787 against 0.894 (exact 151/192 = 0.7865 and 18527/20736 = 0.8935),
    and the kernel, following each plan, agrees with each."""
    new = best_conflict_plan(3, actions=4, cards=2)
    carry = best_conflict_plan(
        3, actions=4, cards=2, rules=default_rules().replace(conflict_retry="carry-over")
    )
    assert new.success == Fraction(151, 192)
    assert carry.success == Fraction(18527, 20736)
    assert abs(float(new.success) - 0.787) < 0.0015
    assert abs(float(carry.success) - 0.894) < 0.0015
    # carried over: 3 actions + 2 cards roll 5 dice, a retry's 1 action rolls the 5 again
    assert carry.steps() == [
        "spend 3 action(s) + 2 card(s): roll 5 dice",
        "spend 1 action(s) + 0 card(s): roll 5 dice",
    ]
    assert retry_pool(0, 3, 2) == 5 and retry_pool(5, 1, 0) == 5 and retry_pool(5, 2, 1) == 7
    n = 60_000
    for retry, plan in (("new-pool", new), ("carry-over", carry)):
        res = conflict(3, actions=4, cards=2, n=n, progress=False, conflict_retry=retry)
        assert res.exact_success == plan.success
        assert binomial_consistent(res.success.k, n, float(plan.success))
        assert binomial_consistent(res.exceed.k, n, float(plan.exceed))


def test_carry_over_plan_is_the_best_of_every_sequence():
    """The carried-over plan is the optimum over every way of splitting the actions and cards
    into attempts (brute force)."""
    from dragonsim.krynn.odds import pool_distribution

    def ps(n, d):
        return sum((p for (h, _), p in pool_distribution(n).items() if h >= d), Fraction(0))

    def go(a, c, pool, d):
        best = Fraction(0)
        for sa in range(1, a + 1):
            for sc in range(c + 1):
                n = retry_pool(pool, sa, sc)
                p = ps(n, d)
                best = max(best, p + (1 - p) * go(a - sa, c - sc, n, d))
        return best

    rules = default_rules().replace(conflict_retry="carry-over")
    for d, a, c in ((2, 3, 0), (4, 4, 1), (5, 3, 2)):
        assert best_conflict_plan(d, actions=a, cards=c, rules=rules).success == go(a, c, 0, d)


# --- hits -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("order", ["shaken-first", "ready-first"])
def test_barricade_order_both_readings(order):
    """ "Hits to a line are applied to its barricades, if any, first." Which barricade of a
    line with barricades under ready and shaken units absorbs first: those under shaken units
    (default) or under ready units; both, with and without heroes, match the reference."""
    rf = order == "ready-first"
    g = Game(
        deck_rules(barricade_order=order),
        alliance="foot=3",
        army="foot=1",
        alliance_shaken="foot=1",
        alliance_barricades="foot=3",
    )
    assert g.line("alliance", "foot")[:4] == (2, 1, 2, 1)
    g.hit("alliance", "foot", 1)
    assert g.line("alliance", "foot")[:4] == ((2, 1, 1, 1) if rf else (2, 1, 2, 0))
    for heroes in (0, 1):
        rules = deck_rules(barricade_order=order, hero_policy="all")
        g = Game(rules, heroes=heroes, alliance="foot=1", army="foot=1")
        g.stress[:] = rules.max_stress  # the hero path, but no absorbing
        for r in range(4):
            for s in range(4 - r):
                for br in range(r + 1):
                    for bs in range(s + 1):
                        for hits in range(6):
                            g.u[0, 0, 0] = (r, s, br, bs, 0)
                            g.hit("alliance", "foot", hits)
                            want = apply_hits_reference(
                                (r, s, br, bs),
                                hits,
                                ready_first=False,
                                barricades_ready_first=rf,
                            )
                            assert g.line("alliance", "foot")[:4] == want


@pytest.mark.parametrize("reading", ["hero-pick", "facing"])
def test_any_line_both_readings(reading):
    """ "If a unit card says hits may be applied to any line, the hero whose turn it is
    decides which defending line to apply them to." hero-pick: the Dragon Army line easiest to
    shake (Mounted, 1 unit); facing: the line the attacking line fights (Foot)."""
    r = deck_rules({("alliance", "foot"): UnitCard("a", "hits", 1, "any")}, any_line=reading)
    g = Game(r, alliance="foot=3", army="foot=2,missile=3,mounted=1")
    g.fight("foot")
    if reading == "hero-pick":
        assert g.line("army", "mounted")[:2] == (0, 1) and g.line("army", "foot")[:2] == (2, 0)
    else:
        assert g.line("army", "foot")[:2] == (1, 1) and g.line("army", "mounted")[:2] == (1, 0)


@pytest.mark.parametrize("reading", ["no-fight", "army-reveals"])
def test_empty_lines_both_readings(reading):
    """ "If the lines' combat strength is equal, the Dragon Army's line is the attacking
    line." Two empty Mounted lines: nothing is revealed (no-fight), or the Dragon Army reveals
    its card, whose hits still go to its target line ("any other effects still happen")."""
    r = deck_rules({("army", "mounted"): UnitCard("m", "hits", 1, "foot")}, empty_lines=reading)
    g = Game(r, alliance="foot=2", army="foot=2")
    got = g.fight("mounted")
    if reading == "no-fight":
        assert got == -1 and g.g[K.G_CARDS] == 0
        assert g.line("alliance", "foot")[:2] == (2, 0)
    else:
        assert got == K.ARMY and g.g[K.G_CARDS] == 1 and g.ptr[1, 2] == 1
        assert g.line("alliance", "foot")[:2] == (1, 1)


# --- heroes ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("reading", ["least-stressed", "most-stressed"])
def test_hero_choice_both_readings(reading):
    """ "For each hit they absorb, a hero takes 1 stress." Which hero: the least stressed
    (default) or the most stressed below the maximum; none beyond the maximum ("Once a hero has
    reached their maximum stress, they must remove 1 card" - cards are not modelled)."""
    g = Game(
        deck_rules(hero_policy="all", hero_choice=reading),
        heroes=2,
        alliance="foot=2",
        army="foot=1",
    )
    g.stress[:] = (1, 0)
    g.hit("alliance", "foot", 1)
    assert list(g.stress) == ([1, 1] if reading == "least-stressed" else [2, 0])
    g.hit("alliance", "foot", 5)
    assert list(g.stress) == [4, 3]
    g.hit("alliance", "foot", 2)
    assert list(g.stress) == [4, 4] and g.line("alliance", "foot")[:2] == (1, 1)


def test_stress_recovery_between_battles():
    """ "you may take respite: either reduce your hero's stress by 2 ..." Heroes keep their
    stress from battle to battle (0, default) or lose up to N between battles: with fresh
    heroes every battle they absorb more hits over a game."""
    st = np.array([3, 1, 0], np.int64)
    K.recover(st, 2)
    assert list(st) == [1, 0, 0]
    K.recover(st, 0)
    assert list(st) == [1, 0, 0]
    kw = dict(
        alliance="foot=2,missile=2",
        army="foot=4,missile=3",
        heroes=1,
        hero_policy="all",
        n=4000,
        progress=False,
    )
    kept = battle(**kw)
    fresh = battle(**kw, stress_recovery=20)
    assert fresh.mean_stress[0] > kept.mean_stress[0] + 0.5


# --- commanders -----------------------------------------------------------------------------------
@pytest.mark.parametrize("line", ["foot", "missile", "mounted"])
def test_commander_fighting_line_in_an_all_out_battle(line):
    """ "All-Out Battle - activate if instructed to by the last event card" and "all 3 lines
    fight": a power aimed at the fighting line hits Foot (default), Missile or Mounted."""
    g = Game(
        deck_rules(commander_fighting_line=line),
        alliance="foot=1,missile=1,mounted=1",
        army="foot=1,missile=1,mounted=1",
        army_commander=Commander("s", "hits", 1, "fighting"),
    )
    g.battle([0], [0], p_all_out=1.0, p_cmd=1.0)
    for other in ("foot", "missile", "mounted"):
        assert g.line("alliance", other)[:2] == ((0, 1) if other == line else (1, 0))


@pytest.mark.parametrize("reading", ["ignored", "own-line"])
def test_commander_dice_woe_both_readings(reading):
    """A Woe is "1 hit to a unit on the attacking line"; a commander's dice have none: ignored
    (default) or hits to the commander's own side's line the power aims at."""
    g = Game(
        deck_rules(commander_dice_woe=reading),
        hits=(0, 1),
        alliance="foot=2",
        army="foot=2,missile=1",
        army_commander=Commander("v", "dice", 2, "foot"),
    )
    g.battle([1], [1])  # a skirmish on Missile with the commander symbol
    assert g.line("army", "foot")[:2] == ((2, 0) if reading == "ignored" else (0, 2))


# --- control --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "reading, want", [("army", K.ARMY), ("alliance", K.ALLIANCE), ("none", -1)]
)
def test_mutual_control_every_reading(reading, want):
    """ "A tile becomes controlled by one side ... when all the opposing side's units on that
    tile are shaken." Both sides all shaken at once: the Dragon Army (default), the Alliance,
    or nobody."""
    g = Game(
        deck_rules(mutual_control=reading),
        alliance="foot=1",
        army="foot=1",
        alliance_shaken="foot=1",
        army_shaken="foot=1",
    )
    assert K.control(g.u, 0, g.opts) == want


@pytest.mark.parametrize("reading", ["nearest-open", "adjacent"])
def test_flank_move_both_readings(reading):
    """ "move that tile's flank token and 1 unit of each type from the victorious side to a
    neighboring battle tile". Tile 0 falls, tile 1 is already controlled: the token goes to
    the nearest uncontrolled tile (2, default) or to the next tile (1), controlled or not."""
    t = Tile(alliance="foot=2", army="foot=1").arrays()[0]
    u = np.stack([t, t, t])
    ctl = np.array([0, 1, -1], np.int64)
    flank = np.array([1, 0, 1], np.int64)
    st = np.zeros(1, np.uint64)
    adjacent = ("nearest-open", "adjacent").index(reading)
    K.move_flank(u, 0, 0, ctl, flank, st, adjacent, 6)
    dest = 2 if reading == "nearest-open" else 1
    assert flank[dest] == (2 if dest == 2 else 1) and flank[0] == 0
    assert u[dest, 0, 0, K.R] == 3


@pytest.mark.parametrize("reading, p_second", [("by-flank-tokens", 0.75), ("uniform", 0.5)])
def test_active_flank_both_readings(reading, p_second):
    """ "uncontrolled battle tiles may gain multiple flank tokens, so they're more likely to be
    the active flank". Tile 0 (3 tokens) falls to the Alliance in one battle, tile 1 (1 token)
    to the Army, ending the scenario (control limit 1): on turn 2 with chance 3/4 when tiles
    are chosen by their flank tokens, 1/2 when each is alike."""
    from .test_battle_rules import _decisive_rules

    n = 20_000
    res = battlefield(
        [
            Tile(alliance="foot=6", army="foot=1", flank=3),
            Tile(alliance="foot=1", army="foot=6", flank=1),
        ],
        control_limit=1,
        n=n,
        progress=False,
        rules=_decisive_rules().replace(active_flank=reading),
        battle_type="skirmish",
    )
    assert res.rate("loss_by_limit").k == n
    assert binomial_consistent(int(res.counters[K.F_TURNS_SUM]) - n, n, p_second)
