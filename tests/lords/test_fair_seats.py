"""Every bot plays every seat alike: fair seats, for every current bot version.

The rules give no seat an edge: placement and initiative are rolled ("Have each player roll
2d6. In the order of the dice rolls, lowest to highest, each player places his or her
dragon", Dragon Lords rulebook p.6; "Each player rolls 2d6 ... Players with lower numbers move
before players with higher ones", p.7). So identical dragons played by identical bots must win
equally often from every seat: a free-for-all of 3 to 6 of them, the two teams of a team game
(p.14), and the two sides of a mirror duel; and swapping the seats of two different dragons
must not change who wins how often. A bot that breaks ties between equally good choices (the
nearest enemy, the end state, the breath target, a corner's side) by index fails these: the
released hunter-2 takes the first of equally near enemies, and in a three-Lectronist
free-for-all every hunter-2 goes after seat 0 (checked below, so the tests can fail).

Each check is a test of the hypothesis "every seat wins alike" on the counts of one seeded run
(chi-square over seats, or an exact binomial test over the decided games), rejected below
p = 0.001; seeds are fixed, so a run is reproducible and the outcome does not flicker.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from dragonsim.lords import api

#: every current bot, and hunter-3 (the default before hunter-4, its results kept)
BOTS = ["random", "hunter", "hunter@3", "brawler", "sniper"]
ALPHA = 1e-3


def _seats_p(wins) -> float:
    """p-value of "every seat wins alike" (chi-square over the seats' wins)."""
    wins = np.asarray(wins, float)
    assert wins.sum() > 0, "no game was decided: the run cannot tell the seats apart"
    return float(stats.chisquare(wins).pvalue)


def _even_p(a: int, b: int) -> float:
    """p-value of "both sides win alike" over the decided games (exact binomial)."""
    assert a + b > 0, "no game was decided: the run cannot tell the sides apart"
    return float(stats.binomtest(a, a + b, 0.5).pvalue)


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize(
    "size, dragon, n",
    [(3, "Lectronist", 3000), (4, "Reaper", 2000), (5, "Tankerous", 1500), (6, "Skyblazer", 1200)],
)
def test_free_for_all_of_identical_dragons_is_fair_to_every_seat(bot, size, dragon, n):
    """A free-for-all of ``size`` identical dragons (every dragon its own side): each seat
    wins alike."""
    res = api.battle([dragon] * size, n=n, seed=11 + size, policy=bot, progress=False)
    p = _seats_p(res.wins)
    assert p > ALPHA, f"{bot}: seat wins {res.wins} (draws {res.draws}), p = {p:.2g}"


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize(
    "teams", [[0, 0, 1, 1], [0, 1, 0, 1], [0, 1, 1, 0], [0, 0, 0, 1, 1, 1]], ids=str
)
def test_team_game_of_identical_dragons_is_even(bot, teams):
    """Two teams of identical dragons (p.14), seated together or interleaved: both teams win
    alike."""
    res = api.battle(
        ["Lectronist"] * len(teams), teams=teams, n=2000, seed=5, policy=bot, progress=False
    )
    p = _even_p(*res.wins)
    assert p > ALPHA, f"{bot} {teams}: team wins {res.wins}, p = {p:.2g}"


MIRRORS = ["Lectronist", "Kelvinight", "Zippinchill", "Reaper", "Skyblazer", "Tankerous"]


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("dragon", MIRRORS)
def test_mirror_duel_is_even(bot, dragon):
    """A dragon against its copy: both seats win alike."""
    res = api.duel(dragon, dragon, n=4000, seed=9, policy=bot, progress=False)
    p = _even_p(res.wins_a, res.wins_b)
    assert p > ALPHA, f"{bot} {dragon}: {res.wins_a} / {res.wins_b}, p = {p:.2g}"


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize(
    "a, b", [("Reaper", "Skyblazer"), ("Tankerous", "Zippinchill"), ("Slash", "Ozonic")]
)
def test_swapping_seats_changes_nothing(bot, a, b):
    """``a`` against ``b`` from either seat: ``a`` wins as often (two proportions, z test;
    the runs share a seed but not the games, since the streams follow the seat)."""
    n = 4000
    ab = api.duel(a, b, n=n, seed=21, policy=bot, progress=False)
    ba = api.duel(b, a, n=n, seed=22, policy=bot, progress=False)
    k1, k2 = ab.wins_a, ba.wins_b
    pooled = (k1 + k2) / (2 * n)
    assert 0.0 < pooled < 1.0, f"{bot} {a}-{b}: {k1} and {k2} wins cannot tell seats apart"
    z = (k1 - k2) / n / np.sqrt(2 * pooled * (1 - pooled) / n)
    p = 2 * stats.norm.sf(abs(z))
    assert p > ALPHA, f"{bot} {a}-{b}: {k1} from seat 0, {k2} from seat 1 of {n}, p = {p:.2g}"


def test_the_released_hunter_2_is_not_fair_and_stays_so():
    """The check has power: hunter-2 (released, so never changed) breaks ties between equally
    near enemies by index, and in a free-for-all of three Lectronists the later seats win
    more (6,000 games, seed 3: results/hunter-versions.txt, shown in docs/bots.md)."""
    res = api.battle(["Lectronist"] * 3, n=6000, seed=3, policy="hunter@2", progress=False)
    assert res.wins[0] < res.wins[1] < res.wins[2]
    assert _seats_p(res.wins) < ALPHA
    fair = api.battle(["Lectronist"] * 3, n=6000, seed=3, policy="hunter", progress=False)
    assert _seats_p(fair.wins) > ALPHA


# ---- the look-ahead bot -------------------------------------------------------------------------
# search plays every candidate forward many times, about a hundred times slower than the
# hunter, so it gets the same checks at smaller counts (short Reaper games); each still has
# hundreds of decided games.


@pytest.mark.slow
@pytest.mark.parametrize(
    "dragons, teams, n",
    [(["Reaper"] * 3, None, 150), (["Reaper"] * 4, [0, 1, 0, 1], 200)],
    ids=["free-for-all-3", "teams-interleaved"],
)
def test_search_is_fair_to_every_seat(dragons, teams, n):
    """search in a free-for-all of three identical dragons and in a team game of four: every
    seat (team) wins alike."""
    res = api.battle(dragons, teams=teams, n=n, seed=14, policy="search", progress=False)
    p = _seats_p(res.wins)
    assert p > ALPHA, f"search {teams}: wins {res.wins} (draws {res.draws}), p = {p:.2g}"


@pytest.mark.slow
def test_search_mirror_duel_is_even_and_seats_swap():
    """search against itself is even, and Reaper against Skyblazer wins as often from either
    seat."""
    res = api.duel("Reaper", "Reaper", n=600, seed=9, policy="search", progress=False)
    p = _even_p(res.wins_a, res.wins_b)
    assert p > ALPHA, f"search mirror: {res.wins_a} / {res.wins_b}, p = {p:.2g}"
    n = 400
    ab = api.duel("Reaper", "Skyblazer", n=n, seed=21, policy="search", progress=False)
    ba = api.duel("Skyblazer", "Reaper", n=n, seed=22, policy="search", progress=False)
    k1, k2 = ab.wins_a, ba.wins_b
    pooled = (k1 + k2) / (2 * n)
    z = (k1 - k2) / n / np.sqrt(2 * pooled * (1 - pooled) / n)
    p = 2 * stats.norm.sf(abs(z))
    assert p > ALPHA, f"search Reaper-Skyblazer: {k1} from seat 0, {k2} from seat 1, p = {p:.2g}"
