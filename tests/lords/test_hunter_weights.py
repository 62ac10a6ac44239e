"""hunter-4: the hunter with named, fitted weights, sized by the maneuver diagram (p.8).

Its weights are data (the planning table's ``PLAN_WEIGHTS`` row), its breadth grows with the
points a 60-degree turn costs (rulebook p.8, the maneuver diagram: ``lords.turn_cost``), it
checks the board edge exactly, and it values an engagement by the exchange plus the edge in
winning the fight (p.13: the winner turns to face any hexside beside a loser facing a random
way). The earlier hunters read none of this: their results stay as published.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dragonsim.lords import api
from dragonsim.lords import engine as E
from dragonsim.lords.bots import (
    EDGE_EXACT,
    P_HUNTER_4,
    P_HUNTER_5,
    P_SEARCH_2,
    POLICIES,
    RELEASED,
    WEIGHTED,
    policy_version,
)
from dragonsim.lords.bots import plan as BP
from dragonsim.lords.game import state as S
from dragonsim.lords.game.tables import kernel_tables
from dragonsim.rules import lords_rules

ROOT = Path(__file__).resolve().parents[2]


def _counters(a, b, policy, n=600, seed=3, edit=None):
    prep = api.prepare(a, b, policies=(policy, policy))
    args = list(prep["args"])
    if edit is not None:
        args[-1] = args[-1].copy()
        edit(args[-1])
    rec = np.zeros((0, S.N_REC), np.int64)
    return E.duel_kernel(0, n, seed, *args, rec)


def test_hunter_4_is_released_and_hunter_5_builds_on_it():
    """hunter-4 stays selectable by version; a plain ``hunter`` now means hunter-5, which
    keeps hunter-4's fitted weights and exact edge check (the only two planners with them;
    search-2, whose decisions besides its moves are hunter-5's, has them too)."""
    assert RELEASED["hunter@4"] == (P_HUNTER_4, "hunter-4")
    assert POLICIES["hunter"] == RELEASED["hunter@5"] == (P_HUNTER_5, "hunter-5")
    assert policy_version("hunter") == "hunter-5"
    weighted = [pid for pid, _ in RELEASED.values() if WEIGHTED[pid]]
    assert weighted == [P_HUNTER_4, P_HUNTER_5, P_SEARCH_2]
    assert EDGE_EXACT[P_HUNTER_4] == EDGE_EXACT[P_HUNTER_5] == 1


def test_the_planning_table_carries_the_released_weights_and_breadths():
    """The weights row holds HUNTER_4_WEIGHTS, then hunter-5's W_GAIN_MAX; the breadth row, per
    maneuverability rating, the points a 60-degree turn costs (p.8), at least 1: 1 for A-F,
    2 for G-I."""
    tb = kernel_tables(lords_rules())
    plan = BP.plan_table(tb)
    four = len(BP.HUNTER_4_WEIGHTS)
    assert tuple(plan[BP.PLAN_WEIGHTS, :four]) == BP.HUNTER_4_WEIGHTS
    assert plan[BP.PLAN_WEIGHTS, BP.W_GAIN_MAX] == BP.HUNTER_5_GAIN_MAX and BP.W_GAIN_MAX == four
    want = [max(1, int(c)) for c in tb.turn_cost[:, 1]]
    assert list(plan[BP.PLAN_BREADTH, : len(want)].astype(int)) == want
    assert want == [1, 1, 1, 1, 1, 1, 2, 2, 2]


def test_earlier_hunters_ignore_the_weights_hunter_4_follows_them():
    """Changing the weights row changes hunter-4's games and leaves hunter-3's to the bit."""

    def zero_bonus(plan):
        plan[BP.PLAN_WEIGHTS, BP.W_ENGAGE_BONUS] = 0.0
        plan[BP.PLAN_WEIGHTS, BP.W_OFF_UNMOVED] = 1.0

    for pol, same in (("hunter@3", True), ("hunter@4", False)):
        a = _counters("Zippinchill", "Reaper", pol)
        b = _counters("Zippinchill", "Reaper", pol, edit=zero_bonus)
        assert np.array_equal(a, b) == same, pol


def test_breadth_grows_only_for_dragons_with_two_point_turns():
    """The breadth row reaches the kernel: set to 1 everywhere, Skyblazer (C) against
    Zippinchill (A) plays exactly as before (serious tail damage lowers a rating two steps,
    p.12, to E and C at worst: 1-point turns); Reaper (E) against Fiercival (G, 2-point
    turns) does not."""

    def flat(plan):
        plan[BP.PLAN_BREADTH, :] = 1.0

    for a, b, same in (("Skyblazer", "Zippinchill", True), ("Reaper", "Fiercival", False)):
        x = _counters(a, b, "hunter@4")
        y = _counters(a, b, "hunter@4", edit=flat)
        assert np.array_equal(x, y) == same, b


def test_hunter_4_fights_in_close_combat_where_hunter_3_never_does():
    """Zippinchill (close-combat modifier 9) against Reaper (5), p.13: hunter-3 all but never
    engages (0.001 engagements a game at 4,000 games); hunter-4 counts the edge in winning and
    engages more than once a game (1.44). The bounds sit far from both measurements."""
    n = 1500
    rates = {}
    for pol in ("hunter@3", "hunter@4"):
        r = api.duel("Zippinchill", "Reaper", n=n, seed=3, policy=pol, progress=False)
        rates[pol] = r.engagements_per_game
    assert rates["hunter@3"] < 0.02
    assert rates["hunter@4"] > 0.5, rates


def _reference():
    ref = json.loads((ROOT / "results" / "search_reference.json").read_text())
    games = sum(run["n"] for run in ref["runs"])
    pts: dict[str, float] = {}
    for run in ref["runs"]:
        for k, v in run["points"].items():
            pts[k] = pts.get(k, 0.0) + v
    return {k: v / games for k, v in pts.items()}, games


@pytest.mark.slow
def test_hunter_4_plays_the_clumsy_dragons_as_the_look_ahead_does():
    """On the 38 pairings with a 2-point-turn dragon (Fiercival, Ozonic, Blowderby,
    Tankerous) hunter-3's win shares sit 5 to 6 points from search-1's on average
    (results/search_reference.json, 3,000 games a pair) and hunter-4's about 2.5; two copies
    of one bot would sit about 1.7 apart at 1,000 games a pair. hunter-4 must be at least a
    third closer than hunter-3."""
    ref, _ = _reference()
    clumsy = {"Fiercival", "Ozonic", "Blowderby", "Tankerous"}
    pairs = [k.split("|") for k in ref if clumsy & set(k.split("|"))]
    assert len(pairs) == 38
    dist = {}
    for pol in ("hunter@3", "hunter@4"):
        d = []
        for a, b in pairs:
            r = api.duel(a, b, n=1000, seed=17, policy=pol, progress=False)
            d.append(abs((r.wins_a + 0.5 * r.draws) / r.n - ref[f"{a}|{b}"]))
        dist[pol] = float(np.mean(d))
    assert dist["hunter@4"] < (2 / 3) * dist["hunter@3"], dist


def test_hunter_3_and_2_keep_their_published_counts():
    """A released bot's results never change: the hunter@2 and hunter@3 runs of
    results/hunter-versions.txt (docs/bots.md), 20,000 games, seed 5."""
    for pol, want in (("hunter@2", (9217, 10665, 118)), ("hunter@3", (8297, 11571, 132))):
        r = api.duel("Reaper", "Skyblazer", n=20000, seed=5, policy=pol, progress=False)
        assert (r.wins_a, r.wins_b, r.draws) == want, pol
